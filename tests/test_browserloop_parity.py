"""BrowserLoop's own end-to-end and integration cases, re-expressed as black-box tests of `screenshot`.

Each test names, in its docstring, the BrowserLoop suite and case it comes
from (tests/e2e/*.test.ts and tests/integration/*.test.ts of BrowserLoop).
The cases are BrowserLoop's; the code and the pages (tests/browserloop_site.py)
are ours. Everything goes through the official MCP client and a real
``tabsight mcp``, on the embedded browser, at ``http://localhost:PORT`` as
BrowserLoop's tests address their server. Left out, having no black-box
meaning: BrowserLoop's McpServer/zod/import checks, its memory clearing and
mocked routing, the internal "Selector is required" of takeElementScreenshot,
and the `read_console` tool (tabsight has none).
"""

from __future__ import annotations

import asyncio
import base64
import io
import json
import time
import uuid

import pytest
from PIL import Image

from browserloop_site import (
    ABSENT,
    BADGE_IN,
    BADGE_OUT,
    BLUE,
    GREEN,
    PRESENT,
    RED,
    SIGNED_IN,
    SIGNED_OUT,
    Site,
)
from conftest import front_env, mcp_client
from harness.calls import region, unmarked
from harness.processes import wait_until

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

PREFIX = "Screenshot capture failed: "
MAGIC = {"png": b"\x89PNG\r\n\x1a\n", "jpeg": b"\xff\xd8\xff"}
FORMATS = ["png", "jpeg", "webp"]
#: createTestScreenshotOptions of BrowserLoop's test-utils: what its cookie and auth cases capture with
BL_OPTIONS = {"width": 800, "height": 600, "format": "webp", "quality": 80, "waitForNetworkIdle": True, "timeout": 5000}
#: the same for the server-rendered pages, which load nothing after their document: the cookies are on the
#: document's request, and waiting for 500 ms of quiet network would only slow the module down
QUICK = {**BL_OPTIONS, "waitForNetworkIdle": False}
# boxes of tests/browserloop_site.py, (width, height)
CONTAINER, HEADING, TEST_ELEMENT, TIMESTAMP = (400, 300), (360, 50), (300, 100), (120, 24)


# ---- plumbing ----


@pytest.fixture(scope="module")
def bl_site():
    with Site() as running:
        yield running


@pytest.fixture(scope="module")
async def client(browser):
    """One `tabsight mcp` for the module's cases that need no environment of their own."""
    async with mcp_client() as running:
        yield running


def tag() -> str:
    """A fresh marker for a page's query, to find exactly this case's requests."""
    return uuid.uuid4().hex[:12]


async def shoot(client, **arguments):
    return await client.call_tool("screenshot", arguments)


def ok(result) -> None:
    assert not result.is_error, result.content[0].text


def images(result) -> list[Image.Image]:
    ok(result)
    return [Image.open(io.BytesIO(base64.b64decode(block.data))) for block in result.content if block.type == "image"]


def image(result) -> Image.Image:
    (only,) = images(result)
    return only


def raw_image(result) -> tuple[str, bytes]:
    ok(result)
    block = result.content[0]
    assert block.type == "image"
    return block.mime_type, base64.b64decode(block.data)


def metadata(result) -> dict:
    ok(result)
    assert result.content[-1].type == "text"
    return json.loads(region(result.content[-1].text))["metadata"]


def error(result) -> str:
    assert result.is_error, f"expected an error, got {result.content[-1]}"
    assert [block.type for block in result.content] == ["text"]
    return unmarked(result.content[0].text)


def all_text(result) -> str:
    return "\n".join(block.text for block in result.content if block.type == "text")


def rgb(img: Image.Image, x: int, y: int) -> tuple[int, int, int]:
    return img.convert("RGB").getpixel((x, y))


def near(color, expected, tolerance=40) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(color, expected))


def assert_format(result, fmt: str) -> None:
    """The image block's MIME type and the bytes' own signature agree with ``fmt``."""
    mime, data = raw_image(result)
    assert mime == f"image/{fmt}"
    if fmt == "webp":
        assert data[:4] == b"RIFF" and data[8:12] == b"WEBP"
    else:
        assert data.startswith(MAGIC[fmt])
    assert image(result).format.lower() == fmt


def assert_solid(img: Image.Image, color, inset: int = 2) -> None:
    """The four corners and the middle-left of an element's capture are its background colour."""
    w, h = img.size
    for x, y in (
        (inset, inset),
        (w - 1 - inset, inset),
        (inset, h - 1 - inset),
        (w - 1 - inset, h - 1 - inset),
        (inset, h // 2),
    ):
        assert near(rgb(img, x, y), color), ((x, y), rgb(img, x, y), color)


def cookie_report(result) -> dict:
    return metadata(result)["cookies"]


def first_cookies(bl_site: Site, path: str, marker: str) -> dict[str, str]:
    """The cookies on the first request for ``path?t=marker`` (the page's document)."""
    seen = bl_site.cookies_seen(path, marker)
    assert seen, f"the server never saw {path}?t={marker}"
    return seen[0]


def script_saw(bl_site: Site, marker: str) -> dict[str, str]:
    """What document.cookie held for the script of /script-auth.html?t=marker."""
    assert wait_until(lambda: bl_site.seen("/report", marker), 5), "the page's script did not report"
    (query, _), *_ = bl_site.seen("/report", marker)
    return dict(part.partition("=")[::2] for part in query["cookie"].split("; ") if part)


async def store_cookies(client, bl_site: Site) -> dict[str, str]:
    """The cookies the browser's own store sends to localhost now: the tracked tab loads a page."""
    marker = tag()
    nav = await client.call_tool("interact", {"action": "navigate", "url": bl_site.url("/headers.html", t=marker)})
    ok(nav)
    return first_cookies(bl_site, "/headers.html", marker)


async def schema(client) -> dict:
    tools = (await client.list_tools()).tools
    return next(tool for tool in tools if tool.name == "screenshot").input_schema


def options(prop: dict) -> list[dict]:
    """A property's schema and, for an optional one, its alternatives."""
    return [prop, *prop.get("anyOf", ())]


def schema_value(prop: dict, key: str):
    return next(option[key] for option in options(prop) if key in option)


# ==== tests/e2e/element-screenshots.test.ts: "Element Screenshots E2E" (waitForNetworkIdle false) ====

ELEMENT = {"format": "png", "timeout": 10000, "waitForNetworkIdle": False}


async def test_a_class_selector_captures_exactly_the_containers_box(client, bl_site):
    """element-screenshots / Element Selection and Capture / should capture screenshot of element by class selector"""
    before = time.time()
    result = await shoot(client, url=bl_site.url("/simple.html"), selector=".container", **ELEMENT)
    assert_format(result, "png")
    img = image(result)
    assert img.size == CONTAINER
    assert_solid(img, (30, 60, 150))
    meta = metadata(result)
    assert (meta["width"], meta["height"]) == CONTAINER
    assert isinstance(meta["timestamp"], int) and before - 1 <= meta["timestamp"] / 1000 <= time.time() + 1


async def test_a_tag_selector_captures_the_heading(client, bl_site):
    """element-screenshots / Element Selection and Capture / should capture screenshot of h1 element"""
    result = await shoot(client, url=bl_site.url("/simple.html"), selector="h1", **ELEMENT)
    assert_format(result, "png")
    img = image(result)
    assert img.size == HEADING
    assert_solid(img, (250, 150, 0))


async def test_an_element_capture_in_webp_is_webp_of_the_elements_size(client, bl_site):
    """element-screenshots / Element Selection and Capture / should capture screenshot of test element"""
    result = await shoot(
        client, url=bl_site.url("/simple.html"), selector=".test-element", **{**ELEMENT, "format": "webp"}
    )
    assert_format(result, "webp")
    img = image(result)
    assert img.size == TEST_ELEMENT
    assert_solid(img, (0, 150, 130))


async def test_an_id_selector_captures_that_small_element(client, bl_site):
    """element-screenshots / Element Selection and Capture / should capture screenshot by ID selector"""
    img = image(await shoot(client, url=bl_site.url("/simple.html"), selector="#timestamp", **ELEMENT))
    assert img.size == TIMESTAMP
    assert_solid(img, (190, 0, 190), inset=1)


async def test_an_element_capture_is_smaller_than_the_viewport_capture(client, bl_site):
    """element-screenshots / Element Screenshot vs Other Methods / should produce different results than viewport
    screenshot"""
    base = {"url": bl_site.url("/simple.html"), "width": 1280, "height": 720, **ELEMENT}
    viewport = image(await shoot(client, **base))
    element = image(await shoot(client, **base, selector=".container"))
    assert viewport.size == (1280, 720)
    assert element.size == CONTAINER
    assert element.width < viewport.width and element.height < viewport.height


async def test_a_large_element_comes_back_larger_than_a_small_one(client, bl_site):
    """element-screenshots / Element Screenshot vs Other Methods / should handle small and large elements
    differently"""
    small = image(await shoot(client, url=bl_site.url("/simple.html"), selector="#timestamp", **ELEMENT))
    large = image(await shoot(client, url=bl_site.url("/simple.html"), selector=".container", **ELEMENT))
    assert (small.size, large.size) == (TIMESTAMP, CONTAINER)
    assert large.width > small.width and large.height > small.height


async def test_a_missing_element_is_an_error_naming_the_selector(client, bl_site):
    """element-screenshots / Element Screenshot Error Handling / should throw error for non-existent element"""
    result = await shoot(
        client, url=bl_site.url("/simple.html"), selector="#non-existent-element", **{**ELEMENT, "timeout": 5000}
    )
    assert error(result).startswith(PREFIX + "Element not found: #non-existent-element")


async def test_an_invalid_css_selector_is_an_error_naming_it(client, bl_site):
    """element-screenshots / Element Screenshot Error Handling / should handle invalid CSS selectors gracefully"""
    result = await shoot(
        client, url=bl_site.url("/simple.html"), selector=":::invalid-selector", **{**ELEMENT, "timeout": 5000}
    )
    assert error(result).startswith(PREFIX + "Invalid selector: :::invalid-selector")


async def test_an_element_has_the_same_box_in_png_and_webp(client, bl_site):
    """element-screenshots / Element Screenshot Quality and Formats / should handle different image formats for
    element screenshots"""
    base = {"url": bl_site.url("/simple.html"), "selector": ".container", "timeout": 10000, "waitForNetworkIdle": False}
    png = await shoot(client, **base, format="png")
    webp = await shoot(client, **base, format="webp")
    assert_format(png, "png")
    assert_format(webp, "webp")
    assert image(png).size == image(webp).size == CONTAINER


async def test_three_element_captures_at_once_each_get_their_own_box(client, bl_site):
    """element-screenshots / Performance and Resource Management / should handle multiple element screenshots
    efficiently"""
    started = time.monotonic()
    results = await asyncio.gather(
        *(
            shoot(client, url=bl_site.url("/simple.html"), selector=selector, **ELEMENT)
            for selector in (".container", "h1", ".test-element")
        )
    )
    assert time.monotonic() - started < 30
    assert [image(result).size for result in results] == [CONTAINER, HEADING, TEST_ELEMENT]


# ==== tests/e2e/format-support.test.ts: "Format Support E2E" (waitForNetworkIdle true) ====


@pytest.mark.parametrize("fmt", FORMATS)
async def test_a_viewport_capture_has_the_requested_size_mime_type_and_signature(client, bl_site, fmt):
    """format-support / should capture PNG / JPEG / WebP format screenshots"""
    quality = {"png": 80, "jpeg": 85, "webp": 80}[fmt]
    result = await shoot(client, url=bl_site.url("/formats.html"), format=fmt, quality=quality, width=800, height=600)
    assert_format(result, fmt)
    img = image(result)
    assert img.size == (800, 600)
    # the red, green and blue blocks where the page puts them, on its pale background
    assert near(rgb(img, 140, 80), RED) and near(rgb(img, 140, 190), GREEN) and near(rgb(img, 140, 300), BLUE)
    assert near(rgb(img, 700, 500), (250, 250, 210))
    meta = metadata(result)
    assert meta["format"] == fmt and (meta["width"], meta["height"]) == (800, 600)


@pytest.mark.parametrize(("fmt", "low", "high"), [("jpeg", 30, 95), ("webp", 40, 90)])
async def test_a_higher_quality_keeps_the_type_and_is_not_smaller(client, bl_site, fmt, low, high):
    """format-support / should handle different quality settings for JPEG / for WebP"""
    sizes = {}
    for quality in (low, high):
        result = await shoot(
            client, url=bl_site.url("/formats.html"), format=fmt, quality=quality, width=400, height=300
        )
        assert_format(result, fmt)
        sizes[quality] = len(raw_image(result)[1])
    assert sizes[high] >= sizes[low] * 0.8, sizes


@pytest.mark.parametrize("fmt", FORMATS)
async def test_a_full_page_capture_comes_in_each_format(client, bl_site, fmt):
    """format-support / should support all formats for full page screenshots"""
    result = await shoot(
        client, url=bl_site.url("/formats.html"), format=fmt, quality=80, width=600, height=400, fullPage=True
    )
    assert_format(result, fmt)
    assert image(result).size == (600, 400)  # the page's content fits in the viewport


@pytest.mark.parametrize("fmt", FORMATS)
async def test_an_element_capture_comes_in_each_format(client, bl_site, fmt):
    """format-support / should support all formats for element screenshots"""
    result = await shoot(
        client, url=bl_site.url("/formats.html"), format=fmt, quality=80, width=600, height=400, selector=".content"
    )
    assert_format(result, fmt)
    img = image(result)
    assert img.size == (360, 340)
    assert near(rgb(img, 120, 60), RED) and near(rgb(img, 120, 280), BLUE)


# ==== tests/e2e/full-page-screenshots.test.ts: "Full Page Screenshots E2E" (waitForNetworkIdle false) ====

FULL = {"format": "png", "waitForNetworkIdle": False}


async def test_full_page_is_the_documents_height_while_a_viewport_capture_stays_the_viewport(client, bl_site):
    """full-page-screenshots / Viewport vs Full Page Comparison / should demonstrate different screenshot methods
    with actual page dimensions"""
    base = {"url": bl_site.url("/long-page.html", h="3000"), "width": 800, "height": 600, "timeout": 10000, **FULL}
    viewport = await shoot(client, **base)
    full = await shoot(client, **base, fullPage=True)
    assert_format(viewport, "png")
    assert_format(full, "png")
    assert image(viewport).size == (800, 600)
    img = image(full)
    assert img.size == (800, 3000)
    assert near(rgb(img, 400, 5), RED) and near(rgb(img, 400, 1500), GREEN) and near(rgb(img, 400, 2994), BLUE)
    assert metadata(full)["timestamp"] >= metadata(viewport)["timestamp"]


async def test_a_page_shorter_than_the_viewport_gives_a_full_page_of_the_viewport_size(client, bl_site):
    """full-page-screenshots / Viewport vs Full Page Comparison / should handle simple page with minimal content"""
    base = {
        "url": bl_site.url("/simple.html"),
        "width": 1024,
        "height": 768,
        "format": "webp",
        "waitForNetworkIdle": False,
    }
    assert image(await shoot(client, **base)).size == (1024, 768)
    assert image(await shoot(client, **base, fullPage=True)).size == (1024, 768)


async def test_quality_does_not_change_the_size_of_a_png_full_page(client, bl_site):
    """full-page-screenshots / Full Page Screenshot Quality / should maintain image quality in full page mode"""
    results = [
        await shoot(
            client, url=bl_site.url("/long-page.html"), width=600, height=400, quality=quality, fullPage=True, **FULL
        )
        for quality in (60, 95)
    ]
    assert [image(result).size for result in results] == [(600, 3000), (600, 3000)]
    assert all(len(raw_image(result)[1]) > 1000 for result in results)


async def test_png_and_webp_full_pages_have_the_same_size(client, bl_site):
    """full-page-screenshots / Full Page Screenshot Quality / should handle different formats in full page mode"""
    base = {
        "url": bl_site.url("/long-page.html"),
        "width": 800,
        "height": 600,
        "timeout": 8000,
        "fullPage": True,
        "waitForNetworkIdle": False,
    }
    png = await shoot(client, **base, format="png")
    webp = await shoot(client, **base, format="webp")
    assert_format(png, "png")
    assert_format(webp, "webp")
    assert image(png).size == image(webp).size == (800, 3000)


async def test_an_unreachable_url_in_full_page_mode_is_an_error(client):
    """full-page-screenshots / Full Page Error Handling / should handle invalid URLs gracefully in full page mode"""
    result = await shoot(
        client, url="http://localhost:99999/nonexistent", width=800, height=600, timeout=3000, fullPage=True
    )
    message = error(result)
    assert message.startswith(PREFIX) and len(message) > len(PREFIX) + 5, message


@pytest.mark.parametrize(
    ("path", "timeout", "expected"),
    [
        ("/long-page.html", 1, "Timeout must be at least 1000"),
        ("/hang.html", 1000, "Navigation timeout of 1000ms exceeded"),
    ],
    ids=["below-the-minimum", "page-never-loads"],
)
async def test_a_timeout_in_full_page_mode_is_an_error(client, bl_site, path, timeout, expected):
    """full-page-screenshots / Full Page Error Handling / should handle timeouts in full page mode"""
    started = time.monotonic()
    result = await shoot(client, url=bl_site.url(path), width=800, height=600, timeout=timeout, fullPage=True)
    assert error(result).startswith(PREFIX + expected)
    assert time.monotonic() - started < 6


async def test_three_full_pages_of_a_short_page_at_once_are_each_the_viewport(client, bl_site):
    """full-page-screenshots / Performance and Resource Management / should handle multiple full page screenshots
    efficiently"""
    started = time.monotonic()
    results = await asyncio.gather(
        *(
            shoot(client, url=bl_site.url("/simple.html"), width=600, height=400, fullPage=True, **FULL)
            for _ in range(3)
        )
    )
    assert time.monotonic() - started < 30
    assert [image(result).size for result in results] == [(600, 400)] * 3


# ==== tests/e2e/authentication-scenarios.test.ts: "Authentication Scenarios E2E" ====


@pytest.mark.parametrize("path", ["/auth-required.html", "/script-auth.html"], ids=["server-side", "page-script"])
async def test_without_cookies_the_auth_page_is_signed_out(client, bl_site, path):
    """authentication-scenarios / Authentication Required Page Tests / should capture screenshot without cookies
    (shows unauthenticated state)"""
    marker = tag()
    result = await shoot(client, url=bl_site.url(path, t=marker), **BL_OPTIONS)
    assert_format(result, "webp")
    img = image(result)
    assert near(rgb(img, 700, 500), SIGNED_OUT)
    assert "cookies" not in metadata(result)


async def test_auth_cookies_sign_in_and_the_script_sees_all_but_the_http_only_one(client, bl_site):
    """authentication-scenarios / Authentication Required Page Tests / should capture screenshot with
    authentication cookies (BrowserLoop's page decides by document.cookie)"""
    marker = tag()
    cookies = [
        {
            "name": "session_id",
            "value": "test_session_12345",
            "domain": "localhost",
            "path": "/",
            "httpOnly": False,
            "secure": False,
        },
        {
            "name": "auth_token",
            "value": "bearer_token_abcdef",
            "domain": "localhost",
            "path": "/",
            "httpOnly": True,
            "secure": False,
        },
        {"name": "user_role", "value": "admin", "domain": "localhost", "path": "/"},
    ]
    result = await shoot(client, url=bl_site.url("/script-auth.html", t=marker), cookies=cookies, **BL_OPTIONS)
    assert_format(result, "webp")
    assert near(rgb(image(result), 700, 500), SIGNED_IN), "the page's script did not find session_id"
    assert first_cookies(bl_site, "/script-auth.html", marker) == {
        "session_id": "test_session_12345",
        "auth_token": "bearer_token_abcdef",
        "user_role": "admin",
    }
    assert script_saw(bl_site, marker) == {"session_id": "test_session_12345", "user_role": "admin"}
    report = cookie_report(result)
    assert sorted(report["applied"]) == ["auth_token", "session_id", "user_role"]
    assert report["via"] == "cookie store" and not report.get("dropped")


async def test_complex_cookies_with_an_expiry_and_a_json_value_all_arrive_intact(client, bl_site):
    """authentication-scenarios / Authentication Required Page Tests / should capture screenshot with complex
    authentication cookies"""
    marker = tag()
    preferences = json.dumps({"theme": "dark", "lang": "en"}, separators=(",", ":"))
    values = {
        "session_id": f"sess_{int(time.time() * 1000)}",
        "csrf_token": f"csrf_{uuid.uuid4().hex[:16]}",
        "remember_me": "true",
        "user_role": "premium_user",
        "preferences": preferences,
    }
    cookies = [{"name": name, "value": value, "domain": "localhost", "path": "/"} for name, value in values.items()]
    cookies[2]["expires"] = int(time.time()) + 30 * 24 * 3600
    names = ",".join(values)
    result = await shoot(
        client, url=bl_site.url("/multi-domain-auth.html", t=marker, names=names), cookies=cookies, **QUICK
    )
    img = image(result)
    assert all(near(rgb(img, 400, 30 + 60 * n), PRESENT) for n in range(len(values)))
    assert first_cookies(bl_site, "/multi-domain-auth.html", marker) == values


async def test_a_cookie_without_a_domain_and_one_for_localhost_both_reach_localhost(client, bl_site):
    """authentication-scenarios / Multi-Domain Authentication Tests / should handle localhost domain authentication"""
    marker = tag()
    cookies = [
        {"name": "session_id", "value": "localhost_session_123"},
        {"name": "auth_token", "value": "localhost_token_456", "domain": "localhost", "path": "/"},
    ]
    result = await shoot(
        client,
        url=bl_site.url("/multi-domain-auth.html", t=marker, names="session_id,auth_token,not_given"),
        cookies=cookies,
        **QUICK,
    )
    img = image(result)
    assert near(rgb(img, 400, 30), PRESENT) and near(rgb(img, 400, 90), PRESENT)
    assert near(rgb(img, 400, 150), ABSENT)  # the page tells a cookie it did not get
    assert first_cookies(bl_site, "/multi-domain-auth.html", marker) == {
        "session_id": "localhost_session_123",
        "auth_token": "localhost_token_456",
    }


async def test_localhost_and_dot_localhost_domains_both_reach_localhost(client, bl_site):
    """authentication-scenarios / Multi-Domain Authentication Tests / should handle domain validation correctly"""
    marker = tag()
    cookies = [
        {"name": "domain_test", "value": "domain_value_123", "domain": "localhost", "path": "/"},
        {"name": "subdomain_test", "value": "subdomain_value_456", "domain": ".localhost", "path": "/"},
    ]
    result = await shoot(
        client,
        url=bl_site.url("/multi-domain-auth.html", t=marker, names="domain_test,subdomain_test"),
        cookies=cookies,
        **QUICK,
    )
    img = image(result)
    assert near(rgb(img, 400, 30), PRESENT) and near(rgb(img, 400, 90), PRESENT)
    assert first_cookies(bl_site, "/multi-domain-auth.html", marker) == {
        "domain_test": "domain_value_123",
        "subdomain_test": "subdomain_value_456",
    }


async def test_an_expired_cookie_is_not_sent_and_the_capture_goes_on(client, bl_site):
    """authentication-scenarios / Authentication Error Scenarios / should handle expired authentication
    gracefully"""
    marker = tag()
    cookies = [
        {"name": "session_id", "value": "valid_session_123", "domain": "localhost", "path": "/"},
        {
            "name": "expired_token",
            "value": "expired_token_456",
            "domain": "localhost",
            "path": "/",
            "expires": int(time.time()) - 3600,
        },
    ]
    result = await shoot(client, url=bl_site.url("/auth-required.html", t=marker), cookies=cookies, **QUICK)
    assert_format(result, "webp")
    assert near(rgb(image(result), 700, 500), SIGNED_IN)
    assert first_cookies(bl_site, "/auth-required.html", marker) == {"session_id": "valid_session_123"}


async def test_a_session_cookie_for_another_domain_leaves_the_page_signed_out(client, bl_site):
    """authentication-scenarios / Authentication Error Scenarios / should handle authentication failure domain
    mismatch"""
    marker = tag()
    cookies = [{"name": "session_id", "value": "session_value_123", "domain": "example.com", "path": "/"}]
    result = await shoot(client, url=bl_site.url("/auth-required.html", t=marker), cookies=cookies, **QUICK)
    assert_format(result, "webp")
    img = image(result)
    assert near(rgb(img, 700, 500), SIGNED_OUT) and near(rgb(img, 50, 130), BADGE_OUT)
    assert first_cookies(bl_site, "/auth-required.html", marker) == {}
    report = cookie_report(result)
    assert report["applied"] == []
    assert [(d["name"], d["domain"]) for d in report["dropped"]] == [("session_id", "example.com")]


async def test_a_jwt_in_an_http_only_cookie_signs_in_and_arrives_intact(client, bl_site):
    """authentication-scenarios / Real-World Authentication Patterns / should handle JWT-style authentication
    tokens"""
    marker = tag()
    jwt = (
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2Mj"
        "M5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
    )
    cookies = [
        {"name": "jwt_token", "value": jwt, "domain": "localhost", "path": "/", "httpOnly": True, "secure": False}
    ]
    result = await shoot(client, url=bl_site.url("/auth-required.html", t=marker), cookies=cookies, **QUICK)
    img = image(result)
    assert near(rgb(img, 700, 500), SIGNED_IN) and near(rgb(img, 50, 130), BADGE_IN)
    assert first_cookies(bl_site, "/auth-required.html", marker) == {"jwt_token": jwt}
    assert jwt not in all_text(result)


async def test_a_php_session_and_a_csrf_token_both_reach_the_server(client, bl_site):
    """authentication-scenarios / Real-World Authentication Patterns / should handle session-based authentication
    with CSRF protection"""
    marker = tag()
    values = {"PHPSESSID": f"sess_{uuid.uuid4().hex[:26]}", "csrf_token": f"csrf_{uuid.uuid4().hex}"}
    cookies = [
        {
            "name": "PHPSESSID",
            "value": values["PHPSESSID"],
            "domain": "localhost",
            "path": "/",
            "httpOnly": True,
            "secure": False,
        },
        {
            "name": "csrf_token",
            "value": values["csrf_token"],
            "domain": "localhost",
            "path": "/",
            "httpOnly": False,
            "secure": False,
        },
    ]
    result = await shoot(
        client,
        url=bl_site.url("/multi-domain-auth.html", t=marker, names="PHPSESSID,csrf_token"),
        cookies=cookies,
        **QUICK,
    )
    img = image(result)
    assert near(rgb(img, 400, 30), PRESENT) and near(rgb(img, 400, 90), PRESENT)
    assert first_cookies(bl_site, "/multi-domain-auth.html", marker) == values


async def test_cookies_given_as_a_json_string_sign_the_page_in(client, bl_site):
    """authentication-scenarios / Real-World Authentication Patterns / should handle JSON string cookie format"""
    marker = tag()
    cookies = json.dumps(
        [
            {"name": "json_session", "value": "json_session_value_123", "domain": "localhost", "path": "/"},
            {"name": "json_auth", "value": "json_auth_token_456", "httpOnly": True},
        ]
    )
    result = await shoot(client, url=bl_site.url("/auth-required.html", t=marker), cookies=cookies, **QUICK)
    assert near(rgb(image(result), 700, 500), SIGNED_IN)
    assert first_cookies(bl_site, "/auth-required.html", marker) == {
        "json_session": "json_session_value_123",
        "json_auth": "json_auth_token_456",
    }


# ==== tests/integration/cookie-injection.test.ts: "Cookie Injection Integration" ====


async def test_cookies_are_on_the_pages_very_first_request(client, bl_site):
    """cookie-injection / should inject cookies into browser context before navigation"""
    marker = tag()
    cookies = [
        {
            "name": "test_cookie",
            "value": "test_value",
            "domain": "localhost",
            "path": "/",
            "httpOnly": False,
            "secure": False,
        },
        {"name": "auth_token", "value": "abc123", "httpOnly": True, "secure": False},
    ]
    result = await shoot(client, url=bl_site.url("/simple.html", t=marker), cookies=cookies, **QUICK)
    assert bl_site.cookies_seen("/simple.html", marker) == [{"test_cookie": "test_value", "auth_token": "abc123"}]
    meta = metadata(result)
    assert (meta["width"], meta["height"]) == (800, 600)
    assert isinstance(meta["timestamp"], int) and meta["timestamp"] > 0
    assert raw_image(result)[0] == "image/webp"


async def test_a_json_string_of_cookies_is_applied_and_reported_by_name(client, bl_site):
    """cookie-injection / should handle cookies as JSON string"""
    marker = tag()
    cookies = json.dumps([{"name": "json_cookie", "value": "json_value", "domain": "localhost", "path": "/"}])
    result = await shoot(client, url=bl_site.url("/simple.html", t=marker), cookies=cookies, **QUICK)
    assert first_cookies(bl_site, "/simple.html", marker) == {"json_cookie": "json_value"}
    report = cookie_report(result)
    assert report["applied"] == ["json_cookie"] and report["via"] == "cookie store"
    assert "json_value" not in all_text(result)


async def test_an_empty_cookie_list_is_accepted_and_reports_no_cookies(client, bl_site):
    """cookie-injection / should handle empty cookies gracefully"""
    marker = tag()
    result = await shoot(client, url=bl_site.url("/simple.html", t=marker), cookies=[], **QUICK)
    assert image(result).size == (800, 600)
    assert "cookies" not in metadata(result)
    assert first_cookies(bl_site, "/simple.html", marker) == {}


async def test_a_cookie_without_a_domain_is_sent_to_the_urls_host(client, bl_site):
    """cookie-injection / should auto-derive domain from URL when not specified"""
    marker = tag()
    result = await shoot(
        client,
        url=bl_site.url("/simple.html", t=marker),
        cookies=[{"name": "auto_domain_cookie", "value": "auto_value"}],
        **QUICK,
    )
    assert first_cookies(bl_site, "/simple.html", marker) == {"auto_domain_cookie": "auto_value"}
    assert cookie_report(result)["applied"] == ["auto_domain_cookie"]


async def test_cookies_that_are_not_json_are_an_error(client, bl_site):
    """cookie-injection / should handle invalid cookie format gracefully"""
    marker = tag()
    result = await shoot(client, url=bl_site.url("/simple.html", t=marker), cookies="invalid json string", **QUICK)
    assert error(result).startswith(PREFIX + "Invalid cookies")
    assert not bl_site.seen("/simple.html", marker), "the page was loaded despite the invalid cookies"


async def test_cookies_apply_to_a_full_page_capture(client, bl_site):
    """cookie-injection / should work with full page screenshot and cookies"""
    marker = tag()
    cookies = [{"name": "session_id", "value": "fullpage_value", "domain": "localhost", "path": "/"}]
    result = await shoot(
        client,
        url=bl_site.url("/auth-required.html", t=marker, h="1500"),
        cookies=cookies,
        fullPage=True,
        **{**QUICK, "format": "png"},
    )
    img = image(result)
    assert img.size == (800, 1500)
    assert rgb(img, 400, 1490) == SIGNED_IN and rgb(img, 50, 130) == BADGE_IN
    assert first_cookies(bl_site, "/auth-required.html", marker) == {"session_id": "fullpage_value"}


async def test_cookies_apply_to_an_element_capture(client, bl_site):
    """cookie-injection / should work with element screenshot and cookies"""
    marker = tag()
    cookies = [{"name": "session_id", "value": "element_value", "domain": "localhost", "path": "/"}]
    result = await shoot(
        client,
        url=bl_site.url("/auth-required.html", t=marker),
        cookies=cookies,
        selector="#status",
        **{**QUICK, "format": "png"},
    )
    img = image(result)
    assert img.size == (300, 100)
    assert_solid(img, BADGE_IN)
    assert first_cookies(bl_site, "/auth-required.html", marker) == {"session_id": "element_value"}


async def test_default_cookies_merge_with_the_requests_and_the_request_wins_on_a_name(browser, bl_site):
    """cookie-injection / should merge default cookies with request cookies"""
    defaults = [
        {"name": "default_session", "value": "default_value", "domain": "localhost"},
        {"name": "app_config", "value": "config_value", "domain": "localhost"},
    ]
    marker = tag()
    async with mcp_client(front_env(BROWSERLOOP_DEFAULT_COOKIES=json.dumps(defaults))) as own:
        result = await shoot(
            own,
            url=bl_site.url("/simple.html", t=marker),
            cookies=[
                {"name": "default_session", "value": "overridden_value"},
                {"name": "request_only", "value": "request_value"},
            ],
            **QUICK,
        )
    assert first_cookies(bl_site, "/simple.html", marker) == {
        "default_session": "overridden_value",
        "app_config": "config_value",
        "request_only": "request_value",
    }
    assert sorted(cookie_report(result)["applied"]) == ["app_config", "default_session", "request_only"]


# ==== tests/integration/cookie-domain-filtering.test.ts ====


async def test_cookies_for_other_sites_are_dropped_and_the_matching_ones_sent(client, bl_site):
    """cookie-domain-filtering / should filter cookies by domain and continue with matching ones"""
    marker = tag()
    cookies = [
        {"name": "localhost_cookie", "value": "value1", "domain": "localhost"},
        {"name": "github_cookie", "value": "value2", "domain": "github.com"},
        {"name": "google_cookie", "value": "value3", "domain": ".google.com"},
        {"name": "auto_derived", "value": "value4"},
    ]
    result = await shoot(client, url=bl_site.url("/simple.html", t=marker), cookies=cookies)
    assert raw_image(result)[0] == "image/webp"
    assert first_cookies(bl_site, "/simple.html", marker) == {"localhost_cookie": "value1", "auto_derived": "value4"}
    report = cookie_report(result)
    assert sorted(report["applied"]) == ["auto_derived", "localhost_cookie"]
    assert [(d["name"], d["domain"]) for d in report["dropped"]] == [
        ("github_cookie", "github.com"),
        ("google_cookie", ".google.com"),
    ]


async def test_when_every_cookie_is_for_another_site_the_capture_goes_on_without_cookies(client, bl_site):
    """cookie-domain-filtering / should continue with screenshot when all cookies are filtered"""
    marker = tag()
    cookies = [
        {"name": "github_cookie", "value": "value1", "domain": "github.com"},
        {"name": "google_cookie", "value": "value2", "domain": ".google.com"},
        {"name": "other_cookie", "value": "value3", "domain": "other.com"},
    ]
    result = await shoot(client, url=bl_site.url("/simple.html", t=marker), cookies=cookies, format="png")
    img = image(result)
    assert img.size == (1280, 720) and rgb(img, 60, 140) == (0, 150, 130)  # the page rendered
    assert "Cookie" not in bl_site.seen("/simple.html", marker)[0][1]


async def test_secure_prefixed_cookies_for_localhost_pass_and_a_github_one_is_dropped(client, bl_site):
    """cookie-domain-filtering / should handle special prefix cookies correctly regardless of domain"""
    marker = tag()
    cookies = [
        {"name": "__Secure-auth", "value": "value1", "domain": "localhost"},
        {"name": "__Secure-session", "value": "value2", "domain": "localhost"},
        {"name": "regular_cookie", "value": "value3", "domain": "github.com"},
        {"name": "local_cookie", "value": "value4", "domain": "localhost"},
    ]
    result = await shoot(client, url=bl_site.url("/simple.html", t=marker), cookies=cookies)
    assert raw_image(result)[0] == "image/webp"
    assert first_cookies(bl_site, "/simple.html", marker) == {
        "__Secure-auth": "value1",
        "__Secure-session": "value2",
        "local_cookie": "value4",
    }
    assert [d["name"] for d in cookie_report(result)["dropped"]] == ["regular_cookie"]


async def test_parent_domain_cookies_of_other_sites_are_dropped(client, bl_site):
    """cookie-domain-filtering / should filter parent domain cookies correctly"""
    marker = tag()
    cookies = [
        {"name": "root_domain", "value": "value1", "domain": ".example.com"},
        {"name": "subdomain", "value": "value2", "domain": "app.example.com"},
        {"name": "other_root", "value": "value3", "domain": ".other.com"},
        {"name": "localhost_cookie", "value": "value4", "domain": "localhost"},
    ]
    result = await shoot(client, url=bl_site.url("/simple.html", t=marker), cookies=cookies)
    assert first_cookies(bl_site, "/simple.html", marker) == {"localhost_cookie": "value4"}
    report = cookie_report(result)
    assert report["applied"] == ["localhost_cookie"]
    assert [d["name"] for d in report["dropped"]] == ["root_domain", "subdomain", "other_root"]


async def test_a_realistic_mix_is_reported_by_name_applied_and_dropped(client, bl_site):
    """cookie-domain-filtering / should handle mixed cookie scenarios with debug logging"""
    marker = tag()
    secrets = {
        "session": "abc123",
        "csrf": "def456",
        "github_token": "ghi789",
        "google_analytics": "jkl012",
        "__Secure-secure": "mno345",
        "__Secure-auth": "pqr678",
    }
    domains = {
        "session": "localhost",
        "github_token": "github.com",
        "google_analytics": ".google.com",
        "__Secure-secure": "localhost",
        "__Secure-auth": "localhost",
    }
    cookies = [
        {"name": name, "value": value, **({"domain": domains[name]} if name in domains else {})}
        for name, value in secrets.items()
    ]
    result = await shoot(client, url=bl_site.url("/simple.html", t=marker), cookies=cookies)
    report = cookie_report(result)
    assert sorted(report["applied"]) == ["__Secure-auth", "__Secure-secure", "csrf", "session"]
    assert report["dropped"] == [
        {"name": "github_token", "domain": "github.com", "reason": report["dropped"][0]["reason"]},
        {"name": "google_analytics", "domain": ".google.com", "reason": report["dropped"][1]["reason"]},
    ]
    assert all(isinstance(d["reason"], str) and d["reason"] for d in report["dropped"])
    text = all_text(result)
    assert not [value for value in secrets.values() if value in text], "a cookie value is in the result"


async def test_a_capture_whose_cookies_are_all_dropped_reports_each_with_a_reason(client, bl_site):
    """cookie-domain-filtering / should work with empty cookie array after filtering"""
    marker = tag()
    cookies = [
        {"name": "external1", "value": "value1", "domain": "example.com"},
        {"name": "external2", "value": "value2", "domain": ".other.com"},
        {"name": "external3", "value": "value3", "domain": "different.net"},
    ]
    result = await shoot(client, url=bl_site.url("/simple.html", t=marker), cookies=cookies)
    assert raw_image(result)[0] == "image/webp"
    report = cookie_report(result)
    assert report["applied"] == []
    assert [(d["name"], d["domain"]) for d in report["dropped"]] == [
        ("external1", "example.com"),
        ("external2", ".other.com"),
        ("external3", "different.net"),
    ]
    assert all(set(d) == {"name", "domain", "reason"} and d["reason"] for d in report["dropped"])
    assert first_cookies(bl_site, "/simple.html", marker) == {}


# ==== tests/integration/cookie-security.test.ts: "Cookie Security Integration" ====


async def test_a_cookie_for_an_attackers_domain_never_reaches_the_server(client, bl_site):
    """cookie-security / Domain Validation / should filter cookies with mismatched domains"""
    marker = tag()
    result = await shoot(
        client,
        url=bl_site.url("/simple.html", t=marker),
        cookies=[{"name": "evil_cookie", "value": "evil_value", "domain": "attacker.com"}],
        **QUICK,
    )
    assert raw_image(result)[0] == "image/webp"
    assert all("evil_cookie" not in cookies for cookies in bl_site.cookies_seen("/simple.html", marker))
    assert [d["name"] for d in cookie_report(result)["dropped"]] == ["evil_cookie"]


async def test_a_cookie_for_the_urls_own_domain_is_sent(client, bl_site):
    """cookie-security / Domain Validation / should allow cookies with correct domain"""
    marker = tag()
    result = await shoot(
        client,
        url=bl_site.url("/simple.html", t=marker),
        cookies=[{"name": "valid_cookie", "value": "valid_value", "domain": "localhost"}],
        **QUICK,
    )
    ok(result)
    assert first_cookies(bl_site, "/simple.html", marker) == {"valid_cookie": "valid_value"}


async def test_a_dot_localhost_cookie_is_applied_on_localhost(client, bl_site):
    """cookie-security / Domain Validation / should allow subdomain cookies for development"""
    marker = tag()
    result = await shoot(
        client,
        url=bl_site.url("/simple.html", t=marker),
        cookies=[{"name": "subdomain_cookie", "value": "subdomain_value", "domain": ".localhost"}],
        **QUICK,
    )
    assert cookie_report(result)["applied"] == ["subdomain_cookie"]
    assert first_cookies(bl_site, "/simple.html", marker) == {"subdomain_cookie": "subdomain_value"}


@pytest.mark.parametrize(
    ("cookie_domain", "url_host"),
    [("127.0.0.1", "localhost"), ("localhost", "127.0.0.1")],
    ids=["127-cookie-on-localhost", "localhost-cookie-on-127"],
)
async def test_localhost_and_127_0_0_1_count_as_one_another(client, bl_site, cookie_domain, url_host):
    """cookie-security / Domain Validation / should allow 127.0.0.1 for localhost development"""
    marker = tag()
    result = await shoot(
        client,
        url=bl_site.url("/simple.html", host=url_host, t=marker),
        cookies=[{"name": "ip_cookie", "value": "ip_value", "domain": cookie_domain}],
        **QUICK,
    )
    assert cookie_report(result)["applied"] == ["ip_cookie"]
    assert first_cookies(bl_site, "/simple.html", marker) == {"ip_cookie": "ip_value"}


async def test_a_dropped_cookies_secret_value_appears_nowhere_in_the_result(client, bl_site):
    """cookie-security / Error Message Sanitization / should handle cookies with sensitive values safely"""
    secret = "very_secret_value_that_should_not_appear_in_logs"
    marker = tag()
    result = await shoot(
        client,
        url=bl_site.url("/simple.html", t=marker),
        cookies=[{"name": "secret_cookie", "value": secret, "domain": "evil.com"}],
        **QUICK,
    )
    assert raw_image(result)[0] == "image/webp"
    assert cookie_report(result)["dropped"][0]["name"] == "secret_cookie"
    assert secret not in all_text(result)
    assert all(secret not in json.dumps(headers) for _, headers in bl_site.seen("/simple.html", marker))


async def test_script_in_a_cookie_value_is_a_validation_error_that_never_repeats_it(client, bl_site):
    """cookie-security / Error Message Sanitization / should sanitize validation error messages. BrowserLoop
    answers this cookie for the page's own domain with a validation error that does not hold the value: so does
    tabsight, naming the cookie and the rule, and the page is never requested."""
    value = '<script>alert("xss")</script>'
    marker = tag()
    result = await shoot(
        client,
        url=bl_site.url("/simple.html", t=marker),
        cookies=[{"name": "xss_cookie", "value": value, "domain": "localhost"}],
        **QUICK,
    )
    message = error(result)
    assert message.startswith(
        PREFIX + "Invalid cookie 'xss_cookie', refused as BrowserLoop refuses it: its value holds "
        "script-like content "
        "(a <script> tag)"
    ), message
    assert value not in all_text(result) and "alert" not in all_text(result)
    assert not bl_site.seen("/simple.html", marker)


INVALID_COOKIES = {
    "bad-name-characters": ([{"name": "bad name;", "value": "s3cr3t-name"}], "Invalid cookie"),
    "control-character-in-value": ([{"name": "ctl", "value": "s3cr3t\x07bell"}], "Invalid cookie 'ctl'"),
    "semicolon-in-value": ([{"name": "semi", "value": "s3cr3t;admin=1"}], "Invalid cookie 'semi'"),
    "value-over-4096-bytes": ([{"name": "big", "value": "s3cr3t" + "x" * 4096}], "Invalid cookie 'big'"),
    "domain-with-bad-characters": (
        [{"name": "dom", "value": "s3cr3t-dom", "domain": "local host/"}],
        "Invalid cookie 'dom'",
    ),
    "script-in-name": ([{"name": "onload=x", "value": "s3cr3t-js"}], "Invalid cookie"),
    "script-in-domain": (
        [{"name": "dom", "value": "s3cr3t-dom", "domain": "javascript:alert(1)"}],
        "Invalid cookie 'dom'",
    ),
    "script-in-path": (
        [{"name": "pth", "value": "s3cr3t-path", "path": "/<script>x</script>"}],
        "Invalid cookie 'pth'",
    ),
    "more-than-50": ([{"name": f"c{n}", "value": "s3cr3t-many"} for n in range(51)], "Invalid cookies"),
    "not-json": ('[{"name": "j", "value": "s3cr3t-json"', "Invalid cookies"),
}


@pytest.mark.parametrize("case", list(INVALID_COOKIES))
async def test_an_invalid_cookie_is_an_error_that_never_quotes_its_value(client, bl_site, case):
    """cookie-security / Error Message Sanitization / should sanitize validation error messages (the cookies that
    are invalid in themselves)"""
    cookies, expected = INVALID_COOKIES[case]
    marker = tag()
    message = error(await shoot(client, url=bl_site.url("/simple.html", t=marker), cookies=cookies))
    assert message.startswith(PREFIX + expected), message
    assert "s3cr3t" not in message
    assert not bl_site.seen("/simple.html", marker)


async def test_after_a_capture_the_browser_keeps_none_of_its_cookies(client, bl_site):
    """cookie-security / Memory Cleanup Verification / should clear sensitive data during normal operation"""
    marker = tag()
    cookies = [
        {"name": "sensitive_token", "value": "super_secret_token_123456789", "domain": "localhost"},
        {"name": "sensitive_http_only", "value": "super_secret_http_only", "httpOnly": True},
    ]
    result = await shoot(client, url=bl_site.url("/simple.html", t=marker), cookies=cookies, **QUICK)
    assert cookie_report(result)["via"] == "cookie store"
    assert first_cookies(bl_site, "/simple.html", marker) == {
        "sensitive_token": "super_secret_token_123456789",
        "sensitive_http_only": "super_secret_http_only",
    }
    left = await store_cookies(client, bl_site)
    assert "sensitive_token" not in left and "sensitive_http_only" not in left


# ==== tests/integration/mcp-server.test.ts: "MCP Server Integration" ====


async def test_the_server_initializes_over_stdio_and_names_itself(client):
    """mcp-server / Server Initialization, MCP Protocol Compliance (server name and version), Error Prevention
    ("No server info found")"""
    info = client.server_info
    assert info.name == "tabsight" and info.version
    assert client.server_capabilities.tools is not None


async def test_screenshot_is_listed_with_an_object_schema_of_browserloops_parameters(client):
    """mcp-server / MCP Protocol Implementation, Tool Testing (Mock) / should define / register screenshot tool with
    proper schema"""
    tools = (await client.list_tools()).tools
    screenshot = next(tool for tool in tools if tool.name == "screenshot")
    assert screenshot.description
    props = screenshot.input_schema["properties"]
    assert screenshot.input_schema["type"] == "object"
    assert {
        "url",
        "width",
        "height",
        "format",
        "quality",
        "waitForNetworkIdle",
        "timeout",
        "fullPage",
        "userAgent",
        "selector",
        "cookies",
    } <= set(props)
    assert not screenshot.input_schema.get("required")  # url is optional: the tracked tab


async def test_the_schema_states_the_parameter_limits(client):
    """mcp-server / Tool Testing (Mock) / should validate parameter limits in schema"""
    props = (await schema(client))["properties"]
    limits = {
        name: (schema_value(props[name], "minimum"), schema_value(props[name], "maximum"))
        for name in ("width", "height", "quality", "timeout")
    }
    assert limits == {"width": (200, 4000), "height": (200, 4000), "quality": (1, 100), "timeout": (1000, 120000)}


async def test_the_schema_states_the_defaults(client):
    """mcp-server / Tool Testing (Mock) / should handle default parameter values"""
    props = (await schema(client))["properties"]
    assert {name: props[name]["default"] for name in ("width", "height", "format", "quality")} == {
        "width": 1280,
        "height": 720,
        "format": "webp",
        "quality": 80,
    }


@pytest.mark.parametrize("value", ["true", 1, None], ids=["string-true", "number-1", "null"])
async def test_a_full_page_that_is_not_a_boolean_is_refused(client, bl_site, value):
    """mcp-server / Full Page Screenshot Support / should include fullPage parameter in schema validation"""
    props = (await schema(client))["properties"]
    assert schema_value(props["fullPage"], "type") == "boolean"
    message = error(await shoot(client, url=bl_site.url("/simple.html"), fullPage=value))
    assert message.startswith(PREFIX) and "fullPage" in message, message


@pytest.mark.parametrize(
    ("full_page", "height"), [(True, 3000), (False, 600), ("absent", 600)], ids=["true", "false", "absent"]
)
async def test_full_page_true_captures_the_document_and_false_or_absent_the_viewport(
    client, bl_site, full_page, height
):
    """mcp-server / Full Page Screenshot Support / should handle fullPage parameter routing logic"""
    arguments = {"url": bl_site.url("/long-page.html"), "width": 800, "height": 600, **FULL}
    if full_page != "absent":
        arguments["fullPage"] = full_page
    assert image(await shoot(client, **arguments)).size == (800, height)


async def test_full_page_metadata_has_the_document_height_the_viewport_and_the_url(client, bl_site):
    """mcp-server / Full Page Screenshot Support / should include fullPage status in response metadata; Response
    Format Verification / should include proper metadata for full page screenshots"""
    url = bl_site.url("/long-page.html", h="2500")
    meta = metadata(await shoot(client, url=url, fullPage=True, **FULL))
    assert (meta["width"], meta["height"]) == (1280, 2500)
    assert meta["viewport"] == {"width": 1280, "height": 720}
    assert meta["height"] > meta["viewport"]["height"]
    assert meta["url"] == url and "long-page" in meta["url"]
    assert isinstance(meta["timestamp"], int)
    assert meta["configuration"] == {"retryCount": 3, "userAgent": "default"}


async def test_a_full_page_may_be_taller_than_the_4000px_height_limit(client, bl_site):
    """mcp-server / Full Page Screenshot Support / should handle dimension differences between viewport and full
    page (the height limits do not apply to the document's height)"""
    result = await shoot(
        client, url=bl_site.url("/long-page.html", h="5000"), width=1280, height=720, fullPage=True, **FULL
    )
    img = image(result)
    assert img.size == (1280, 5000)
    assert near(rgb(img, 640, 4990), BLUE)


@pytest.mark.parametrize(
    ("selector", "size", "color"),
    [
        ("#main-header", (1000, 80), (0, 90, 200)),
        (".content-box", (500, 200), (255, 255, 255)),
        ('div[data-testid="content-section"]', (300, 150), (120, 0, 160)),
        ("#below-fold", (240, 120), (240, 160, 20)),
    ],
    ids=["id", "class", "attribute", "id-below-the-fold"],
)
async def test_a_selector_by_id_class_or_attribute_captures_exactly_its_element(client, bl_site, selector, size, color):
    """mcp-server / Element Screenshot Support / should include selector parameter in schema validation (the
    selectors it accepts)"""
    img = image(await shoot(client, url=bl_site.url("/elements.html"), selector=selector, **FULL))
    assert img.size == size
    assert_solid(img, color)


@pytest.mark.parametrize("value", [123, True, None], ids=["number", "boolean", "null"])
async def test_a_selector_that_is_not_a_string_is_refused(client, bl_site, value):
    """mcp-server / Element Screenshot Support / should include selector parameter in schema validation (what it
    rejects)"""
    props = (await schema(client))["properties"]
    assert [option.get("type") for option in options(props["selector"]) if "type" in option] == ["string"]
    message = error(await shoot(client, url=bl_site.url("/elements.html"), selector=value))
    assert message.startswith(PREFIX) and "selector" in message, message


async def test_selector_wins_over_full_page_when_both_are_given(client, bl_site):
    """mcp-server / Element Screenshot Support / should prioritize selector over fullPage when both are provided
    (and: should handle selector parameter routing logic)"""
    img = image(await shoot(client, url=bl_site.url("/elements.html"), selector="#main-header", fullPage=True, **FULL))
    assert img.size == (1000, 80)
    assert_solid(img, (0, 90, 200))


async def test_element_metadata_has_the_elements_size_and_the_viewport(client, bl_site):
    """mcp-server / Element Screenshot Support / should include element dimensions in response metadata"""
    url = bl_site.url("/elements.html")
    meta = metadata(await shoot(client, url=url, selector=".content-box", **FULL))
    assert (meta["width"], meta["height"]) == (500, 200)
    assert meta["viewport"] == {"width": 1280, "height": 720}
    assert meta["url"] == url
    assert meta["configuration"] == {"retryCount": 3, "userAgent": "default"}


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({"url": "invalid-url"}, "Invalid URL format"),
        ({"quality": 150}, "Quality must be at most 100"),
        ({"waitForNetworkIdle": "not-boolean"}, "waitForNetworkIdle"),
        ({"waitForNetworkIdle": "false"}, "waitForNetworkIdle"),
    ],
    ids=["url", "number-out-of-range", "non-boolean", "string-false"],
)
async def test_bad_arguments_are_refused_before_any_page_loads(client, bl_site, arguments, expected):
    """mcp-server / Error Prevention / should have zod validation to prevent invalid requests"""
    marker = tag()
    message = error(await shoot(client, **{"url": bl_site.url("/simple.html", t=marker), **arguments}))
    assert message.startswith(PREFIX) and expected in message, message
    assert not bl_site.seen("/simple.html", marker)


async def test_a_capture_answers_an_image_then_its_metadata_as_json_text(client, bl_site):
    """mcp-server / Response Format Verification / should return correct MCP response format with image content
    type"""
    result = await shoot(client, url=bl_site.url("/simple.html"), **FULL)
    assert result.is_error is False
    assert [block.type for block in result.content] == ["image", "text"]
    assert result.content[0].mime_type == "image/png" and base64.b64decode(result.content[0].data)
    meta = json.loads(region(result.content[1].text))["metadata"]
    assert {"width", "height", "timestamp", "url", "viewport", "configuration", "format", "bytes", "tokens"} <= set(
        meta
    )


async def test_an_error_answers_is_error_and_one_text(client, bl_site):
    """mcp-server / Response Format Verification / should handle error responses with correct format"""
    result = await shoot(client, url=bl_site.url("/simple.html"), width=5000)
    assert result.is_error is True
    assert [block.type for block in result.content] == ["text"]
    assert result.content[0].text.startswith(PREFIX + "Width must be at most 4000")


async def test_the_schema_offers_webp_png_and_jpeg(client):
    """mcp-server / JPEG Format Support / should include jpeg in format schema validation"""
    props = (await schema(client))["properties"]
    assert sorted(schema_value(props["format"], "enum")) == ["jpeg", "png", "webp"]


async def test_a_jpeg_capture_is_image_jpeg_in_the_block_and_the_metadata(client, bl_site):
    """mcp-server / JPEG Format Support / should handle jpeg format parameter routing logic; should properly
    configure screenshot service for JPEG mode; should include JPEG MIME type in response metadata"""
    sizes = {}
    for quality in (10, 90):
        result = await shoot(client, url=bl_site.url("/formats.html"), format="jpeg", quality=quality)
        assert_format(result, "jpeg")
        assert metadata(result)["format"] == "jpeg"
        sizes[quality] = metadata(result)["bytes"]
    assert sizes[10] < sizes[90]


@pytest.mark.parametrize("agent", [None, "parity-agent/1.0 (BrowserLoop)"], ids=["not-given", "given"])
async def test_the_metadata_names_the_user_agent_or_default(client, bl_site, agent):
    """mcp-server / Full Page Screenshot Support and Response Format Verification: configuration.userAgent is
    'default' unless one was given"""
    marker = tag()
    arguments = {"url": bl_site.url("/headers.html", t=marker), **FULL}
    if agent:
        arguments["userAgent"] = agent
    meta = metadata(await shoot(client, **arguments))
    assert meta["configuration"]["userAgent"] == (agent or "default")
    if agent:
        assert bl_site.seen("/headers.html", marker)[0][1]["User-Agent"] == agent


# ==== tests/integration/mcp-real-environment.test.ts: "MCP Real Environment Integration" ====


@pytest.fixture(scope="module")
def default_cookie_file(tmp_path_factory):
    """BrowserLoop's test-cookies.json: one httpOnly session cookie for localhost."""
    path = tmp_path_factory.mktemp("bl-cookies") / "test-cookies.json"
    path.write_text(
        json.dumps(
            [
                {
                    "name": "test-session",
                    "value": "test-value-123",
                    "domain": "localhost",
                    "path": "/",
                    "httpOnly": True,
                    "secure": False,
                }
            ],
            indent=2,
        )
    )
    return path


def browserloop_env(cookie_file) -> dict[str, str]:
    """The environment BrowserLoop's real-environment test starts its server with."""
    return front_env(
        BROWSERLOOP_DEBUG="true",
        BROWSERLOOP_DEFAULT_COOKIES=str(cookie_file),
        BROWSERLOOP_DEFAULT_FORMAT="png",
        BROWSERLOOP_DEFAULT_QUALITY="80",
        BROWSERLOOP_DEFAULT_WIDTH="1280",
        BROWSERLOOP_DEFAULT_HEIGHT="720",
    )


@pytest.fixture(scope="module")
async def bl_client(browser, default_cookie_file):
    """A `tabsight mcp` started as BrowserLoop's real-environment test starts BrowserLoop."""
    async with mcp_client(browserloop_env(default_cookie_file)) as running:
        yield running


async def test_a_client_started_with_browserloops_environment_lists_screenshot(bl_client):
    """mcp-real-environment / MCP Protocol Communication / should successfully connect to MCP server"""
    tools = (await bl_client.list_tools()).tools
    assert "screenshot" in [tool.name for tool in tools]
    props = next(tool for tool in tools if tool.name == "screenshot").input_schema["properties"]
    assert props["format"]["default"] == "png"


async def test_a_data_url_is_captured_at_the_requested_size(bl_client):
    """mcp-real-environment / MCP Protocol Communication / should handle screenshot tool call via MCP protocol"""
    url = (
        "data:text/html,<html><body style='margin:0;background:rgb(0,192,0)'><h1>Test Screenshot</h1>"
        "<p>Hello from MCP test</p></body></html>"
    )
    result = await shoot(
        bl_client, url=url, width=800, height=600, format="png", quality=80, waitForNetworkIdle=False, timeout=10000
    )
    assert result.is_error is False and len(result.content) >= 2
    assert_format(result, "png")
    img = image(result)
    assert img.size == (800, 600) and rgb(img, 700, 500) == (0, 192, 0)
    meta = metadata(result)
    assert (meta["width"], meta["height"]) == (800, 600) and meta["timestamp"]


@pytest.mark.parametrize(
    "url",
    [
        "invalid-url-format",
        "file:///etc/passwd",
        "javascript:alert(1)",
        "chrome://settings",
        "about:blank",
        "ftp://example.com/file",
    ],
    ids=["not-a-url", "file", "javascript", "chrome", "about", "ftp"],
)
async def test_an_invalid_or_forbidden_url_is_refused_in_browserloops_words(bl_client, url):
    """mcp-real-environment / MCP Protocol Communication / should handle invalid URL errors gracefully"""
    message = error(await shoot(bl_client, url=url, width=800, height=600))
    assert message.startswith(PREFIX + "Invalid URL format"), message


async def test_a_width_over_4000_is_refused_in_browserloops_words(bl_client):
    """mcp-real-environment / MCP Protocol Communication / should handle invalid parameters gracefully"""
    message = error(await shoot(bl_client, url="https://example.com", width=5000, height=600))
    assert message.startswith(PREFIX + "Width must be at most 4000"), message


async def test_the_environments_defaults_shape_a_capture_given_only_a_url(bl_client):
    """mcp-real-environment / MCP Protocol Compliance / should return responses in correct MCP format"""
    result = await shoot(
        bl_client, url="data:text/html,<html><body><h1>Format Test</h1></body></html>", width=400, height=300
    )
    assert isinstance(result.is_error, bool) and not result.is_error
    for block in result.content:
        assert block.type in ("text", "image", "resource")
        if block.type == "image":
            assert block.data and block.mime_type
        if block.type == "text":
            assert block.text
    assert_format(result, "png")  # BROWSERLOOP_DEFAULT_FORMAT=png
    assert image(result).size == (400, 300)


async def test_the_default_cookie_file_named_by_browserloops_variable_reaches_the_server(bl_client, bl_site):
    """mcp-real-environment / (its set-up: BROWSERLOOP_DEFAULT_COOKIES names test-cookies.json)"""
    marker = tag()
    result = await shoot(bl_client, url=bl_site.url("/auth-required.html", t=marker), format="png")
    assert near(rgb(image(result), 1000, 600), SIGNED_IN)
    assert first_cookies(bl_site, "/auth-required.html", marker) == {"test-session": "test-value-123"}
    assert cookie_report(result)["applied"] == ["test-session"]
    assert "test-value-123" not in all_text(result)


async def test_two_concurrent_calls_on_one_connection_both_succeed(bl_client):
    """mcp-real-environment / MCP Protocol Compliance / should handle concurrent tool calls (a second screenshot
    stands in for read_console)"""
    red = "data:text/html,<body style='margin:0;background:rgb(200,0,0)'><h1>Concurrent Test</h1>"
    blue = "data:text/html,<body style='margin:0;background:rgb(0,0,200)'><h1>Concurrent Test</h1>"
    first, second = await asyncio.gather(
        shoot(bl_client, url=red, width=400, height=300), shoot(bl_client, url=blue, width=400, height=300)
    )
    assert rgb(image(first), 300, 250) == (200, 0, 0) and rgb(image(second), 300, 250) == (0, 0, 200)


# ---- default cookies (BrowserLoop's BROWSERLOOP_DEFAULT_COOKIES, as the real-environment test sets it) ----


async def test_tabsight_default_cookies_win_over_browserloops(browser, bl_site, tmp_path):
    """mcp-real-environment set-up: TABSIGHT_DEFAULT_COOKIES, when both are set, wins over
    BROWSERLOOP_DEFAULT_COOKIES (a JSON file here, a JSON string there)"""
    ours = tmp_path / "ours.json"
    ours.write_text(json.dumps([{"name": "from_tabsight", "value": "t1", "domain": "localhost"}]))
    theirs = json.dumps([{"name": "from_browserloop", "value": "b1", "domain": "localhost"}])
    marker = tag()
    async with mcp_client(front_env(TABSIGHT_DEFAULT_COOKIES=str(ours), BROWSERLOOP_DEFAULT_COOKIES=theirs)) as own:
        ok(await shoot(own, url=bl_site.url("/simple.html", t=marker), **FULL))
    assert first_cookies(bl_site, "/simple.html", marker) == {"from_tabsight": "t1"}


async def test_default_cookies_for_other_sites_are_silently_not_applied(browser, bl_site):
    """mcp-real-environment set-up: defaults hold cookies of many sites; those for another domain are not sent and
    not reported as dropped"""
    defaults = [
        {"name": "github_default", "value": "gh-secret", "domain": "github.com"},
        {"name": "local_default", "value": "l1", "domain": "localhost"},
    ]
    async with mcp_client(front_env(BROWSERLOOP_DEFAULT_COOKIES=json.dumps(defaults))) as own:
        marker = tag()
        result = await shoot(own, url=bl_site.url("/simple.html", t=marker), **FULL)
        assert first_cookies(bl_site, "/simple.html", marker) == {"local_default": "l1"}
        report = cookie_report(result)
        assert report["applied"] == ["local_default"] and not report.get("dropped")
        # on a host no default is for, there is nothing to report at all
        result = await shoot(own, url="data:text/html,<body style='background:rgb(0,0,200)'>", **FULL)
        assert "cookies" not in metadata(result)
        assert "gh-secret" not in all_text(result)


@pytest.mark.parametrize("source", ["missing-file", "invalid-file", "invalid-json-string"])
async def test_a_bad_default_cookie_source_is_tolerated(browser, bl_site, tmp_path, source):
    """mcp-real-environment set-up: a missing, unreadable or invalid BROWSERLOOP_DEFAULT_COOKIES leaves captures
    working, without cookies from it"""
    value = {
        "missing-file": str(tmp_path / "no-such-cookies.json"),
        "invalid-file": str(tmp_path / "broken.json"),
        "invalid-json-string": '[{"name": "broken", "value": "x;y"}]',
    }[source]
    (tmp_path / "broken.json").write_text('[{"name": "broken", "value": ')
    marker = tag()
    async with mcp_client(front_env(BROWSERLOOP_DEFAULT_COOKIES=value)) as own:
        result = await shoot(own, url=bl_site.url("/simple.html", t=marker), format="png", waitForNetworkIdle=False)
    assert image(result).size == (1280, 720)
    assert "cookies" not in metadata(result)
    assert first_cookies(bl_site, "/simple.html", marker) == {}


# ---- cookie values (authentication-scenarios' JSON preferences cookie, generalized) ----

SPECIAL_VALUES = {
    "double-quotes": '"quoted"',
    "comma": "a,b,c",
    "inner-spaces": "two words here",
    "equals-signs": "k=v=w",
    "json-object": '{"theme":"dark","lang":"en"}',
}


@pytest.mark.parametrize("case", list(SPECIAL_VALUES))
async def test_a_cookie_value_with_quotes_commas_spaces_equals_or_braces_arrives_intact(client, bl_site, case):
    """authentication-scenarios / should capture screenshot with complex authentication cookies (the preferences
    cookie holds JSON): such values reach the server and the page's script as given"""
    value = SPECIAL_VALUES[case]
    marker = tag()
    result = await shoot(
        client,
        url=bl_site.url("/script-auth.html", t=marker),
        cookies=[{"name": "session_id", "value": value}],
        **BL_OPTIONS,
    )
    assert near(rgb(image(result), 700, 500), SIGNED_IN)
    assert first_cookies(bl_site, "/script-auth.html", marker) == {"session_id": value}
    assert script_saw(bl_site, marker) == {"session_id": value}
