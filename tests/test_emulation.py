"""configure({action:'emulate'}) through the real chain: a device's viewport, a colour scheme, a network, on the
embedded browser's tab, as an agent checks them (the screenshot's size and colours, what the page's scripts see),
kept between calls, reset to what it was, and refused on a user's tab the agent did not name."""

from __future__ import annotations

import base64
import io
import json

import anyio
import pytest
from PIL import Image

from conftest import mcp_client, users_browser
from harness.calls import payload, refusal
from harness.desktop import cancel_button, click_cancel
from harness.processes import wait_until

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

#: what a page's scripts see of the emulation
PROBE = (
    "JSON.stringify({width: innerWidth, height: innerHeight, ratio: devicePixelRatio, ua: navigator.userAgent,"
    " coarse: matchMedia('(pointer: coarse)').matches, dark: matchMedia('(prefers-color-scheme: dark)').matches,"
    " online: navigator.onLine})"
)
#: seconds past cdp.js's idle detach in a headless browser (3 s): an attachment still there is held
PAST_IDLE_DETACH = 4


async def call(client, tool: str, arguments: dict) -> dict:
    return payload(await client.call_tool(tool, arguments))


async def emulate(client, **emulation) -> dict:
    return (await call(client, "configure", {"action": "emulate", "emulation": emulation}))["emulate"]


async def probe(client) -> dict:
    return json.loads((await call(client, "interact", {"action": "execute", "script": PROBE}))["script"]["result"])


async def shot(client, **arguments) -> Image.Image:
    result = await client.call_tool("screenshot", {"format": "png", **arguments})
    assert not result.is_error, result.content[0].text
    (image,) = [block for block in result.content if block.type == "image"]
    return Image.open(io.BytesIO(base64.b64decode(image.data))).convert("RGB")


def attached(browser, tab_id: int) -> bool:
    tabs = browser.call(browser.client.tabs())["tabs"]
    return next(tab for tab in tabs if tab["id"] == tab_id)["debugger_attached"]


@pytest.fixture
async def client(browser, site):
    """A session on the embedded browser's tab showing scheme.html; whatever a test emulated is reset after it."""
    async with mcp_client() as client:
        await call(client, "interact", {"action": "navigate", "url": site.url("/scheme.html")})
        try:
            yield client
        finally:
            await client.call_tool("configure", {"action": "emulate", "emulation": {"reset": True}})


async def test_a_device_is_what_screenshots_and_scripts_see_until_reset(browser, client):
    before = await probe(client)
    assert (before["width"], before["ratio"], before["coarse"]) == (1280, 1, False)

    answer = await emulate(client, device="iphone-15")
    tab_id = answer["tab_id"]
    viewport = answer["emulation"]["viewport"]
    assert (viewport["device"], viewport["width"], viewport["height"]) == ("iphone-15", 393, 852)
    assert viewport["device_scale_factor"] == 3 and viewport["mobile"] is True
    assert answer["emulation"]["in_effect"] is True

    # the screenshot is the phone's screen, device pixels; the page's scripts see a phone
    assert (await shot(client)).size == (393 * 3, 852 * 3)
    seen = await probe(client)
    assert (seen["width"], seen["height"], seen["ratio"]) == (393, 852, 3)
    assert seen["coarse"] is True and "iPhone" in seen["ua"]
    page = await call(client, "observe", {"what": "page"})
    assert page["viewport"] == {"width": 393, "height": 852} and page["device_pixel_ratio"] == 3
    assert page["emulation"]["viewport"]["device"] == "iphone-15" and page["emulation"]["in_effect"] is True

    # input lands where the emulated page shows it: by selector, and at a point of the annotated picture
    await call(client, "interact", {"action": "click", "selector": "#tap"})
    annotated = await call(
        client, "observe", {"what": "page", "annotate_screenshot": True, "annotation_format": "json"}
    )
    (tap,) = [item for item in annotated["annotations"] if item["name"].startswith("Tapped")]
    assert tap["bounds"] == {"x": 100, "y": 300, "width": 150, "height": 50}
    await call(client, "interact", {"action": "click", "x": 175, "y": 325})
    assert (await call(client, "interact", {"action": "execute", "script": "taps"}))["script"]["result"] == 2

    # it lasts past the debugger's idle detach: the tab stays attached while emulated
    await anyio.sleep(PAST_IDLE_DETACH)
    assert attached(browser, tab_id)
    assert (await shot(client)).size == (393 * 3, 852 * 3)

    # a full-page capture (drawn beyond the viewport, then the page put back) leaves the device in place
    assert (await shot(client, fullPage=True)).width == 393 * 3
    assert (await probe(client))["width"] == 393

    # another aspect leaves the device as it is
    both = (await emulate(client, color_scheme="dark"))["emulation"]
    assert both["viewport"]["device"] == "iphone-15" and both["color_scheme"] == "dark"

    reset = await emulate(client, reset=True)
    assert reset["emulation"] is None
    assert (await shot(client)).size == (1280, 720)
    after = await probe(client)
    assert {k: after[k] for k in ("width", "ratio", "coarse", "ua", "dark")} == {
        k: before[k] for k in ("width", "ratio", "coarse", "ua", "dark")
    }
    assert "emulation" not in await call(client, "observe", {"what": "page"})
    # and nothing stays attached: the idle detach takes the attachment once the hold is gone
    assert await anyio.to_thread.run_sync(lambda: wait_until(lambda: not attached(browser, tab_id), 10))


async def test_a_custom_viewport_and_a_dark_scheme_render_so(client):
    light = await shot(client)
    assert light.getpixel((5, 5)) == (255, 255, 255)

    answer = await emulate(client, width=500, height=400, device_scale_factor=2, color_scheme="dark")
    assert answer["emulation"]["viewport"] == {"width": 500, "height": 400, "device_scale_factor": 2, "mobile": False}
    dark = await shot(client)
    assert dark.size == (1000, 800)
    assert dark.getpixel((5, 5)) == (16, 16, 16)  # the page's own dark background
    seen = await probe(client)
    assert seen["dark"] is True and seen["coarse"] is False

    await emulate(client, color_scheme="light")
    assert (await shot(client)).getpixel((5, 5)) == (255, 255, 255)


async def test_offline_fails_requests_and_none_brings_the_network_back(client, site):
    fetch = "fetch('/index.html', {cache: 'no-store'}).then(r => 'status ' + r.status, e => 'failed: ' + e.message)"
    online = await call(client, "interact", {"action": "execute", "script": fetch})
    assert online["script"]["result"] == "status 200"

    answer = await emulate(client, network="offline")
    assert answer["emulation"]["network"]["name"] == "offline" and answer["emulation"]["network"]["offline"] is True
    assert (await probe(client))["online"] is False
    offline = await call(client, "interact", {"action": "execute", "script": fetch})
    assert offline["script"]["result"].startswith("failed: ")
    # a URL no test loaded before: Chrome's offline emulation still serves what its HTTP cache holds
    nav = await client.call_tool("interact", {"action": "navigate", "url": site.url("/index.html?offline=1")})
    assert "ERR_INTERNET_DISCONNECTED" in refusal(nav)

    assert (await emulate(client, network="none"))["emulation"] is None
    await call(client, "interact", {"action": "navigate", "url": site.url("/scheme.html")})  # from the error page
    assert (await probe(client))["online"] is True
    again = await call(client, "interact", {"action": "execute", "script": fetch})
    assert again["script"]["result"] == "status 200"


async def test_a_slow_network_is_what_the_page_measures_and_ends_with_none(client):
    # the page's Network Information API follows the emulated round trip (rounded, with up to 10 % noise)
    connection = "JSON.stringify({rtt: navigator.connection.rtt, type: navigator.connection.effectiveType})"

    async def measured() -> dict:
        return json.loads(
            (await call(client, "interact", {"action": "execute", "script": connection}))["script"]["result"]
        )

    before = await measured()
    answer = await emulate(client, network="slow-3g")
    network = answer["emulation"]["network"]
    assert (network["name"], network["latency_ms"], network["download_bytes_per_s"]) == ("slow-3g", 2000, 50_000)
    slow = await measured()
    assert 1800 <= slow["rtt"] <= 2200 and slow["type"] == "2g", slow
    assert (await emulate(client, network="none"))["emulation"] is None
    assert (await measured())["type"] == before["type"] != "2g"


async def test_an_emulation_argument_out_of_range_is_named_and_changes_nothing(browser, client):
    for emulation, expected in [
        ({"device": "nokia-3310"}, ["'emulation.device'", "'nokia-3310'", "'iphone-15'", "'desktop-1080p'"]),
        ({"color_scheme": "sepia"}, ["'emulation.color_scheme'", "'sepia'", "'light', 'dark' or 'no-preference'"]),
        ({"network": "5g"}, ["'emulation.network'", "'5g'", "'slow-3g'", "'none'"]),
        ({"width": 50, "height": 400}, ["'emulation.width'", "50", "100"]),
        ({"width": 500}, ["'width' and 'height'", "'device'"]),
        ({"reset": True, "device": "ipad"}, ["'reset'", "'device'"]),
        ({}, ["'emulation' needs one of"]),
    ]:
        result = await client.call_tool("configure", {"action": "emulate", "emulation": emulation})
        message = refusal(result)
        for part in expected:
            assert part in message, (emulation, message)
    assert "emulation" not in await call(client, "observe", {"what": "page"})
    tab_id = (await call(client, "observe", {"what": "page"}))["tab_id"]
    assert await anyio.to_thread.run_sync(lambda: wait_until(lambda: not attached(browser, tab_id), 10))


@pytest.fixture
async def users(site, tmp_path):
    """A user's own browser (headless, a profile of its own, one tab), an MCP client on it, and the site."""
    async with users_browser(None, tmp_path) as (client, _browser):
        yield client, site


async def test_the_users_tab_is_emulated_only_when_named_with_on_user_tab(users):
    client, site = users
    (browser,) = (await call(client, "observe", {"what": "tabs"}))["browsers"]
    assert browser["embedded"] is False
    (tab_id,) = [tab["id"] for tab in browser["tabs"]]
    # tracking a tab is not asking for it to be emulated
    await call(client, "configure", {"action": "track", "tab_id": tab_id})
    await call(client, "interact", {"action": "navigate", "url": site.url("/scheme.html")})

    refused = refusal(await client.call_tool("configure", {"action": "emulate", "emulation": {"color_scheme": "dark"}}))
    assert f"Tab {tab_id} is the user's own tab" in refused and "Nothing was changed" in refused
    assert f"tab_id:{tab_id}" in refused and "on_user_tab:true" in refused
    # named, without saying it is meant: refused the same
    named = {"action": "emulate", "tab_id": tab_id, "emulation": {"color_scheme": "dark"}}
    assert "on_user_tab:true" in refusal(await client.call_tool("configure", named))
    assert (await probe(client))["dark"] is False
    # the flag without naming the tab is an argument error
    unnamed = {"action": "emulate", "emulation": {"color_scheme": "dark", "on_user_tab": True}}
    assert "'on_user_tab' needs 'tab_id'" in refusal(await client.call_tool("configure", unnamed))

    asked = {"action": "emulate", "tab_id": tab_id, "emulation": {"color_scheme": "dark", "on_user_tab": True}}
    answer = (await call(client, "configure", asked))["emulate"]
    assert answer["emulation"]["color_scheme"] == "dark"
    assert f"Tab {tab_id} is the user's own" in answer["note"] and "they see it emulated" in answer["note"]
    assert (await probe(client))["dark"] is True

    # reset needs no flag: it only undoes what tabsight did
    assert (await call(client, "configure", {"action": "emulate", "emulation": {"reset": True}}))["emulate"][
        "emulation"
    ] is None
    assert (await probe(client))["dark"] is False

    # a tab the session opened is the agent's: emulated without the flag, and the user's tab stays as it was
    opened = await call(client, "interact", {"action": "open_tab", "url": site.url("/scheme.html")})
    answer = (await call(client, "configure", {"action": "emulate", "emulation": {"color_scheme": "dark"}}))["emulate"]
    assert answer["tab_id"] == opened["tab_id"] and "note" not in answer
    assert (await probe(client))["dark"] is True
    await call(client, "interact", {"action": "close_tab"})
    await call(client, "configure", {"action": "track", "tab_id": tab_id})
    assert (await probe(client))["dark"] is False


@pytest.fixture
async def users_on_desktop(desktop, site, tmp_path):
    """A user's headed browser on a desktop, scheme.html in front, and an MCP client on it."""
    async with users_browser(desktop, tmp_path, site.url("/scheme.html")) as (client, _browser):
        yield client


@pytest.mark.headed
async def test_after_the_users_cancel_the_emulation_is_not_in_effect_and_comes_back_with_the_debugger(
    users_on_desktop,
    desktop,
):
    client = users_on_desktop
    tab_id = (await call(client, "observe", {"what": "page"}))["tab_id"]
    asked = {"action": "emulate", "tab_id": tab_id, "emulation": {"color_scheme": "dark", "on_user_tab": True}}
    await call(client, "configure", asked)
    assert (await shot(client)).getpixel((5, 5)) == (16, 16, 16)

    click_cancel(desktop)
    # Chrome dropped the attachment, and the emulation with it: the page says so, and is light again
    assert await anyio.to_thread.run_sync(lambda: wait_until(lambda: cancel_button(desktop) is None, 10))
    page = await call(client, "observe", {"what": "page"})
    assert page["emulation"]["in_effect"] is False and "cancelled" in page["emulation"]["note"]
    assert (await shot(client)).getpixel((5, 5)) == (255, 255, 255)

    # once the agent asked the user and may attach again, the next attachment brings the emulation back
    await call(client, "configure", {"action": "debugger"})
    assert (await probe(client))["dark"] is True
    page = await call(client, "observe", {"what": "page"})
    assert page["emulation"]["in_effect"] is True and "note" not in page["emulation"]
    assert (await shot(client)).getpixel((5, 5)) == (16, 16, 16)
    await call(client, "configure", {"action": "emulate", "tab_id": tab_id, "emulation": {"reset": True}})
