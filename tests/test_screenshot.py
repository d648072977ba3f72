"""screenshot as BrowserLoop users call it, through the real chain, on pages the suite serves."""

from __future__ import annotations

import asyncio
import base64
import io
import json
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import anyio
import pytest
from mcp.client.stdio import stdio_client
from PIL import Image

from conftest import front_env, front_params, mcp_client
from harness.calls import region, unmarked
from harness.processes import wait_until

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

MAGIC = {"image/png": b"\x89PNG\r\n\x1a\n", "image/jpeg": b"\xff\xd8\xff", "image/webp": b"RIFF"}
SECRET = "ok-s3cr3t-7f1c2a9e"


def images(result) -> list[Image.Image]:
    assert not result.is_error, result.content[0].text
    return [Image.open(io.BytesIO(base64.b64decode(block.data))) for block in result.content if block.type == "image"]


def metadata(result) -> dict:
    assert not result.is_error, result.content[0].text
    assert result.content[-1].type == "text"
    return json.loads(region(result.content[-1].text))["metadata"]


def error(result) -> str:
    assert result.is_error, "expected an error"
    return unmarked(result.content[0].text)


def rgb(img: Image.Image, x: int, y: int) -> tuple[int, int, int]:
    return img.convert("RGB").getpixel((x, y))


def near(color, expected, tolerance=40) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(color, expected))


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def open_tabs(browser) -> dict:
    """Every tab of the keeper's browser, capture windows included."""
    return browser.call(browser.client.tabs())


async def test_viewport_sizes_and_formats_are_exact(browser, site):
    cases = [(1280, 720, "webp"), (375, 667, "png"), (1920, 1080, "jpeg"), (200, 200, "png")]
    async with mcp_client() as client:
        for width, height, fmt in cases:
            result = await client.call_tool(
                "screenshot", {"url": site.url("/index.html"), "width": width, "height": height, "format": fmt}
            )
            block = result.content[0]
            mime = f"image/{fmt}"
            assert block.type == "image" and block.mime_type == mime
            data = base64.b64decode(block.data)
            assert data.startswith(MAGIC[mime])
            (img,) = images(result)
            assert img.format.lower() == fmt and img.size == (width, height)
            assert near(rgb(img, width - 20, height - 3), (255, 204, 0))  # the yellow background, left of any scrollbar
            meta = metadata(result)
            assert (meta["width"], meta["height"]) == (width, height)
            assert meta["viewport"] == {"width": width, "height": height}
            assert meta["url"] == site.url("/index.html") and meta["status"] == 200
            assert meta["bytes"] == len(data)
            assert meta["tokens"] > 0 and meta["configuration"]["retryCount"] == 3
            assert abs(meta["timestamp"] / 1000 - time.time()) < 60


async def test_quality_changes_the_size_of_lossy_formats(browser, site):
    async with mcp_client() as client:
        for fmt in ("jpeg", "webp"):
            sizes = {}
            for quality in (10, 95):
                result = await client.call_tool(
                    "screenshot", {"url": site.url("/tall?h=720"), "format": fmt, "quality": quality}
                )
                sizes[quality] = metadata(result)["bytes"]
            assert sizes[10] < sizes[95], (fmt, sizes)


async def test_full_page_is_the_document_height_with_url_and_on_the_tracked_tab(browser, site):
    async with mcp_client() as client:
        (img,) = images(await client.call_tool("screenshot", {"url": site.url("/tall?h=3000"), "fullPage": True}))
        assert img.size == (1280, 3000)
        assert near(rgb(img, 640, 2), (255, 0, 0)) and near(rgb(img, 640, 2997), (0, 0, 255))

        nav = await client.call_tool("interact", {"action": "navigate", "url": site.url("/tall?h=2500")})
        assert not nav.is_error, nav.content[0].text
        (img,) = images(await client.call_tool("screenshot", {"fullPage": True, "format": "png"}))
        assert img.size == (1280, 2500)
        # the viewport alone is still the viewport
        (img,) = images(await client.call_tool("screenshot", {"format": "png"}))
        assert img.size == (1280, 720)


async def test_a_20000px_page_comes_back_as_tiles_in_order(browser, site):
    async with mcp_client() as client:
        result = await client.call_tool(
            "screenshot", {"url": site.url("/tall?h=20000"), "fullPage": True, "format": "jpeg", "quality": 50}
        )
        tiles = images(result)
        assert [tile.size for tile in tiles] == [(1280, 8000), (1280, 8000), (1280, 4000)]
        meta = metadata(result)
        assert (meta["width"], meta["height"]) == (1280, 20000)
        assert [(t["image"], t["page_y"], t["height"]) for t in meta["tiles"]] == [
            (1, 0, 8000),
            (2, 8000, 8000),
            (3, 16000, 4000),
        ]
        # each tile starts where the gradient is at its offset: red fades as y grows
        for tile, offset in zip(tiles, (0, 8000, 16000)):
            red, _, blue = rgb(tile, 640, 1)
            assert abs(red - 255 * (1 - offset / 20000)) < 20 and abs(blue - 255 * offset / 20000) < 20

        # shrunk to fit max_height, it is one image again, aspect kept
        result = await client.call_tool(
            "screenshot", {"url": site.url("/tall?h=20000"), "fullPage": True, "format": "png", "max_height": 4000}
        )
        (img,) = images(result)
        assert img.size == (256, 4000)
        assert metadata(result)["scale"] == 0.2


async def test_selector_crops_exactly_the_element_below_the_fold(browser, site):
    async with mcp_client() as client:
        (img,) = images(
            await client.call_tool("screenshot", {"url": site.url("/box.html"), "selector": "#box", "format": "png"})
        )
        assert img.size == (300, 150)
        assert all(rgb(img, x, y) == (0, 0, 255) for x, y in ((0, 0), (299, 0), (0, 149), (299, 149), (150, 75)))

        nav = await client.call_tool("interact", {"action": "navigate", "url": site.url("/box.html")})
        assert not nav.is_error, nav.content[0].text
        (img,) = images(await client.call_tool("screenshot", {"selector": "#box", "format": "png"}))
        assert img.size == (300, 150) and rgb(img, 150, 75) == (0, 0, 255)

        missing = await client.call_tool("screenshot", {"url": site.url("/box.html"), "selector": "#nope"})
        assert error(missing).startswith("Screenshot capture failed: Element not found: #nope")


async def test_max_width_downscales_keeping_the_aspect(browser, site):
    async with mcp_client() as client:
        result = await client.call_tool("screenshot", {"url": site.url("/index.html"), "max_width": 640})
        (img,) = images(result)
        assert img.size == (640, 360)
        meta = metadata(result)
        assert (meta["width"], meta["height"]) == (640, 360)
        assert meta["viewport"] == {"width": 1280, "height": 720}
        assert meta["tokens"] == -(-640 * 360 // 750)


async def test_user_agent_reaches_the_server_and_the_page(browser, site):
    agent = "tabsight-test-agent/1.0 (BrowserLoop parity)"
    async with mcp_client() as client:
        result = await client.call_tool("screenshot", {"url": site.url("/agent.html"), "userAgent": agent})
        assert metadata(result)["configuration"]["userAgent"] == agent
    (_, headers), *_ = site.requests_to("/agent.html")[-1:]
    assert headers["User-Agent"] == agent
    reports = [query["ua"] for query, _ in site.requests_to("/report")]
    assert reports and reports[-1] == agent


async def test_cookies_reach_the_page_and_its_scripts_and_leave_no_trace(browser, site, tmp_path):
    stderr = tmp_path / "front.stderr"
    async with mcp_client() as client:
        # the user's own cookies for this site, set the ordinary way; one has the name the capture sets
        await client.call_tool("interact", {"action": "navigate", "url": site.url("/set-cookie?name=theme&value=dark")})
        await client.call_tool("interact", {"action": "navigate", "url": site.url("/set-cookie?name=js&value=mine")})
        cookies = [{"name": "session", "value": SECRET, "httpOnly": True}, {"name": "js", "value": "capture"}]
        for given in (cookies, json.dumps(cookies)):
            result = await client.call_tool("screenshot", {"url": site.url("/gate"), "cookies": given, "format": "png"})
            (img,) = images(result)
            assert rgb(img, 640, 700) == (0, 192, 0), "the gate did not see the session cookie"
            assert SECRET not in result.content[-1].text
            assert metadata(result)["cookies"] == {"applied": ["session", "js"], "via": "cookie store"}
        _, headers = site.requests_to("/gate")[-1]
        assert f"session={SECRET}" in headers["Cookie"] and "js=capture" in headers["Cookie"]

        # the page's script sees the cookie that is not httpOnly, and only that one
        result = await client.call_tool(
            "screenshot", {"url": site.url("/cookie-script.html"), "cookies": cookies, "format": "png"}
        )
        (img,) = images(result)
        assert rgb(img, 10, 10) == (0, 192, 0), "document.cookie did not hold js=capture"

        # afterwards: the store has no such cookie, and the user's own are as they were
        await client.call_tool("interact", {"action": "navigate", "url": site.url("/gate")})
        _, headers = site.requests_to("/gate")[-1]
        assert sorted(headers.get("Cookie").split("; ")) == ["js=mine", "theme=dark"]
        (img,) = images(await client.call_tool("screenshot", {"format": "png"}))
        assert rgb(img, 640, 700) == (224, 0, 0)

        # a bad cookie is refused without its value being repeated
        bad = [{"name": "session", "value": f"{SECRET};admin=1"}]
        message = error(await client.call_tool("screenshot", {"url": site.url("/gate"), "cookies": bad}))
        assert message.startswith("Screenshot capture failed: Invalid cookie 'session'") and SECRET not in message

    with stderr.open("w") as errlog:
        async with mcp_client(server=stdio_client(front_params(), errlog=errlog)) as client:
            result = await client.call_tool("screenshot", {"url": site.url("/gate"), "cookies": cookies})
            assert not result.is_error
    logs = stderr.read_text() + (browser.browsers._launched.profile / "browser.log").read_text(errors="replace")
    assert SECRET not in logs


async def test_captures_at_once_with_different_cookies_each_see_only_their_own(browser, site):
    async with mcp_client() as client:
        results = await asyncio.gather(
            *(
                client.call_tool(
                    "screenshot",
                    {
                        "url": site.url(f"/gate?n={n}"),
                        "format": "png",
                        "cookies": [{"name": "session", "value": f"ok-{n}" if n % 2 else "no"}],
                    },
                )
                for n in range(6)
            )
        )
        colours = [rgb(images(result)[0], 640, 700) for result in results]
        assert colours == [(224, 0, 0), (0, 192, 0)] * 3
    sessions = {
        query["n"]: [c for c in headers.get("Cookie", "").split("; ") if c.startswith("session=")]
        for query, headers in site.requests_to("/gate")
        if "n" in query
    }
    assert sessions == {str(n): [f"session={f'ok-{n}' if n % 2 else 'no'}"] for n in range(6)}


async def test_a_data_url_is_captured_in_a_window_of_its_own(browser, site):
    before = {tab["id"] for tab in open_tabs(browser)["tabs"]}
    page = "data:text/html,<body style='margin:0;background:rgb(0,192,0)'><h1>data</h1>"
    async with mcp_client() as client:
        result = await client.call_tool(
            "screenshot",
            {"url": page, "width": 640, "height": 400, "format": "png", "cookies": [{"name": "s", "value": SECRET}]},
        )
        (img,) = images(result)
        assert img.size == (640, 400) and rgb(img, 600, 380) == (0, 192, 0)
        described = metadata(result)
        assert described["url"] == page
        assert described["cookies"] == {
            "applied": [],
            "dropped": [{"name": "s", "domain": "", "reason": "the URL has no host to send it to"}],
        }
        for refused in ("file:///etc/hostname", "javascript:alert(1)", "chrome://version", "about:blank"):
            message = error(await client.call_tool("screenshot", {"url": refused}))
            assert message.startswith("Screenshot capture failed: Invalid URL format"), message
    assert {tab["id"] for tab in open_tabs(browser)["tabs"]} == before


async def test_network_idle_waits_for_a_late_request(browser, site):
    async with mcp_client() as client:
        (waited,) = images(await client.call_tool("screenshot", {"url": site.url("/late.html"), "format": "png"}))
        assert rgb(waited, 10, 10) == (0, 192, 0)
        (early,) = images(
            await client.call_tool(
                "screenshot", {"url": site.url("/late.html"), "format": "png", "waitForNetworkIdle": False}
            )
        )
        assert rgb(early, 10, 10) == (224, 0, 0)


async def test_timeout_on_a_page_that_never_finishes_loading(browser, site):
    before = {tab["id"] for tab in open_tabs(browser)["tabs"]}
    async with mcp_client() as client:
        started = time.monotonic()
        result = await client.call_tool("screenshot", {"url": site.url("/hang.html"), "timeout": 2000})
        elapsed = time.monotonic() - started
        assert error(result).startswith("Screenshot capture failed: Navigation timeout of 2000ms exceeded")
        assert elapsed < 2 + 3, f"took {elapsed:.1f} s for a 2 s timeout (timeouts are not retried)"
        # the same page captured at DOMContentLoaded does not wait for the image
        (img,) = images(
            await client.call_tool("screenshot", {"url": site.url("/hang.html"), "waitForNetworkIdle": False})
        )
        assert near(rgb(img, 1200, 600), (255, 255, 0))
    assert {tab["id"] for tab in open_tabs(browser)["tabs"]} == before


@pytest.fixture
def silent_server():
    """A server that accepts connections and never answers: the URL of it."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                accepted.append(listener.accept()[0])
            except OSError:
                pass

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}/never"
    stop.set()
    thread.join(2)
    for connection in [*accepted, listener]:
        connection.close()


@pytest.mark.parametrize("case", ["accepts-and-never-answers", "answers-after-3s", "answered-still-loading"])
async def test_a_navigation_timeout_says_where_the_load_got_to(browser, site, silent_server, case):
    """As `navigate` does: in brackets after BrowserLoop's words, where the load got to when the time ran out."""
    url, state = {
        "accepts-and-never-answers": (silent_server, "no answer from the server yet"),
        "answers-after-3s": (site.url("/slow?ms=3000"), "no answer from the server yet"),
        "answered-still-loading": (site.url("/hang.html"), "the server answered 200; the page is still loading"),
    }[case]
    async with mcp_client(front_env(TABSIGHT_RETRY_COUNT="0")) as client:
        message = error(await client.call_tool("screenshot", {"url": url, "timeout": 2000}))
    assert message.startswith(f"Screenshot capture failed: Navigation timeout of 2000ms exceeded ({state})"), message


async def test_errors_in_browserloop_words(browser, site):
    async with mcp_client(front_env(TABSIGHT_RETRY_COUNT="0")) as client:
        cases = [
            ({"url": "not a url"}, "Screenshot capture failed: Invalid URL format"),
            ({"url": "ftp://example.com/file"}, "Screenshot capture failed: Invalid URL format"),
            ({"url": site.url("/"), "width": 100}, "Screenshot capture failed: Width must be at least 200"),
            ({"url": site.url("/"), "height": 5000}, "Screenshot capture failed: Height must be at most 4000"),
            ({"url": site.url("/"), "format": "gif"}, "Screenshot capture failed: 'format' is 'gif'; allowed values"),
            ({"url": site.url("/"), "timeout": 10}, "Screenshot capture failed: Timeout must be at least 1000"),
            ({"width": 800}, "Screenshot capture failed: 'width' applies only with 'url'"),
            ({"url": site.url("/box.html"), "selector": "div[["}, "Screenshot capture failed: Invalid selector: div[["),
            ({"url": f"http://127.0.0.1:{closed_port()}/"}, "Screenshot capture failed: net::ERR_CONNECTION_REFUSED"),
            ({"url": "http://no-such-host.invalid/"}, "Screenshot capture failed: net::ERR_NAME_NOT_RESOLVED"),
        ]
        for arguments, expected in cases:
            message = error(await client.call_tool("screenshot", arguments))
            assert message.startswith(expected), (arguments, message)


async def test_retries_a_server_that_is_still_starting(browser, site):
    port = closed_port()

    class Hello(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(b"<body style='background:#00c000'>up</body>")

        def log_message(self, *args):
            pass

    servers = []

    def start_later():
        time.sleep(1.0)
        server = ThreadingHTTPServer(("127.0.0.1", port), Hello)
        servers.append(server)
        server.serve_forever()

    threading.Thread(target=start_later, daemon=True).start()
    try:
        env = front_env(TABSIGHT_RETRY_COUNT="5", TABSIGHT_RETRY_DELAY="500")
        async with mcp_client(env) as client:
            result = await client.call_tool("screenshot", {"url": f"http://127.0.0.1:{port}/", "format": "png"})
            (img,) = images(result)
            assert rgb(img, 10, 10) == (0, 192, 0)
            assert metadata(result)["configuration"]["retryCount"] == 5
    finally:
        for server in servers:
            server.shutdown()


async def test_defaults_come_from_the_environment(browser, site):
    env = front_env(
        TABSIGHT_DEFAULT_WIDTH="640",
        BROWSERLOOP_DEFAULT_HEIGHT="480",
        BROWSERLOOP_DEFAULT_FORMAT="png",
        BROWSERLOOP_USER_AGENT="browserloop-agent/2",
    )
    async with mcp_client(env) as client:
        schema = next(t for t in (await client.list_tools()).tools if t.name == "screenshot").input_schema
        assert schema["properties"]["width"]["default"] == 640
        result = await client.call_tool("screenshot", {"url": site.url("/agent.html")})
        (img,) = images(result)
        assert img.size == (640, 480) and img.format == "PNG"
        assert metadata(result)["configuration"]["userAgent"] == "browserloop-agent/2"
    _, headers = site.requests_to("/agent.html")[-1]
    assert headers["User-Agent"] == "browserloop-agent/2"


async def test_eight_captures_at_once_all_succeed_and_leave_no_tab(browser, site):
    before = open_tabs(browser)
    async with mcp_client() as client:
        results = await asyncio.gather(
            *(
                client.call_tool(
                    "screenshot", {"url": site.url(f"/tall?h={1000 + n}"), "fullPage": True, "format": "png"}
                )
                for n in range(8)
            )
        )
        assert [images(result)[0].size for result in results] == [(1280, 1000 + n) for n in range(8)]
    after = open_tabs(browser)
    assert {tab["id"] for tab in after["tabs"]} == {tab["id"] for tab in before["tabs"]}
    assert after["focused_tab_id"] == before["focused_tab_id"]


async def test_a_client_leaving_mid_capture_leaves_no_window(browser, site):
    before = {tab["id"] for tab in open_tabs(browser)["tabs"]}
    async with mcp_client() as client:
        with anyio.move_on_after(1.5):
            await client.call_tool("screenshot", {"url": site.url("/hang.html"), "timeout": 60000})
        during = open_tabs(browser)["tabs"]
        assert [tab for tab in during if tab.get("owned")], "the capture's window should be open while it loads"
    # the front is gone: the host cancels its request and the extension closes the window
    assert wait_until(lambda: {tab["id"] for tab in open_tabs(browser)["tabs"]} == before, 10)
