"""The frame source (extension/service-worker/frames.js): viewport screenshots of a tab captured again and again
come from a screencast's latest frame, and never show the page as it was before a change.

Through the keeper's own client, which says how each capture was taken (``Shot.method``: ``frame`` for the
screencast, ``visible_tab``/``cdp`` for a fresh capture), and through the MCP client for what an agent sees.
"""

from __future__ import annotations

import base64
import io
import time

import pytest
from PIL import Image

from conftest import mcp_client
from harness.calls import payload
from tabsight import config, images
from tabsight.browser.client import BrowserClient

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

RED, GREEN, BLUE = (224, 0, 0), (0, 192, 0), (0, 0, 224)


def colour(data: bytes, x: int = 640, y: int = 600) -> tuple[int, int, int]:
    return Image.open(io.BytesIO(data)).convert("RGB").getpixel((x, y))


def near(found, expected, tolerance=30) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(found, expected))


@pytest.fixture
def tab(browser, site):
    """The keeper's focused tab, on the toggle page."""
    tab_id = browser.tab
    browser.call(browser.client.navigate(tab_id, site.url("/frames-toggle.html")))
    return tab_id


def shots(browser, tab_id, count, fmt="jpeg", pause=0.0):
    taken = []
    for _ in range(count):
        taken.append(browser.call(browser.client.capture(tab_id, fmt, 80)))
        time.sleep(pause)
    return taken


def test_an_unchanged_page_is_served_from_the_latest_frame_as_a_fresh_capture_shows_it(browser, tab, monkeypatch):
    served = shots(browser, tab, 4, pause=0.1)
    assert served[-1].method == "frame", [shot.method for shot in served]
    frame = served[-1].pictures[0]
    assert (frame.width, frame.height) == (1280, 720) and near(colour(frame.data), RED)
    monkeypatch.setenv("TABSIGHT_FRAME_SOURCE", "off")
    config.reset()
    fresh = shots(browser, tab, 3, pause=0.1)
    assert all(shot.method != "frame" for shot in fresh)
    assert Image.open(io.BytesIO(fresh[-1].image)).size == (1280, 720)
    assert near(colour(fresh[-1].image), colour(frame.data))


def test_a_webp_from_the_frame_is_encoded_once_per_frame(browser, tab):
    first, second, third = shots(browser, tab, 3, fmt="webp", pause=0.1)
    assert third.method == "frame" and third.image[:4] == b"RIFF" and third.image[8:12] == b"WEBP"
    assert Image.open(io.BytesIO(third.image)).size == (1280, 720)
    assert second.method != "frame" or second.image == third.image  # the same frame: the same bytes


def test_a_frames_webp_is_encoded_once_per_browser_not_once_per_client(browser, tab, monkeypatch):
    """A session makes a client for each call: the encoding is kept with the browser's link."""
    shots(browser, tab, 3, fmt="webp", pause=0.1)
    encoded = []
    encode = images.reencoded
    monkeypatch.setattr(images, "reencoded", lambda *args: encoded.append(args) or encode(*args))
    first, second = (browser.call(BrowserClient(browser.client.transport).capture(tab, "webp", 80)) for _ in range(2))
    assert first.method == second.method == "frame" and first.image == second.image
    assert encoded == []


def test_a_fresh_webp_is_taken_as_a_jpeg_and_the_host_encodes_the_webp(browser, tab, monkeypatch):
    monkeypatch.setenv("TABSIGHT_FRAME_SOURCE", "off")
    config.reset()
    request = {"tab_id": tab, "format": "webp", "quality": 80, "frame_source": False}
    taken = browser.call(browser.client.transport.request("capture", request))
    assert taken["mime_type"] == "image/jpeg" and taken["method"] != "frame", taken["method"]
    jpeg = Image.open(io.BytesIO(base64.b64decode(taken["tiles"][0]["data"])))
    assert jpeg.format == "JPEG" and jpeg.size == (1280, 720)
    for shot in shots(browser, tab, 3, fmt="webp"):  # from the screen, then (2 a second at most) the debugger
        webp = Image.open(io.BytesIO(shot.image))
        assert webp.format == "WEBP" and webp.size == (1280, 720), shot.method
        assert near(colour(shot.image), RED), shot.method


def test_a_change_the_page_makes_by_itself_shows_in_the_next_screenshot(browser, site):
    tab_id = browser.tab
    browser.call(browser.client.navigate(tab_id, site.url("/frames-toggle.html?later=1500")))
    started = time.monotonic()
    before = shots(browser, tab_id, 3, pause=0.1)
    assert near(colour(before[-1].image), RED)
    time.sleep(max(0.0, 1.7 - (time.monotonic() - started)))
    after = shots(browser, tab_id, 1)[0]
    assert near(colour(after.image), BLUE), after.method
    assert after.method == "frame"


def test_an_animating_page_is_captured_afresh(browser, site):
    tab_id = browser.tab
    browser.call(browser.client.navigate(tab_id, site.url("/frames-animated.html")))
    taken = shots(browser, tab_id, 6, pause=0.4)
    assert "frame" not in [shot.method for shot in taken[-3:]], [shot.method for shot in taken]


def test_a_resized_viewport_gets_a_screenshot_of_its_new_size(browser, tab):
    shots(browser, tab, 3, pause=0.1)
    try:
        browser.call(browser.client.set_viewport(tab, 800, 500))
        for shot in shots(browser, tab, 3, pause=0.1):
            assert (shot.pictures[0].width, shot.pictures[0].height) == (800, 500), shot.method
    finally:
        browser.call(browser.client.set_viewport(tab, 1280, 720))


async def test_a_screenshot_after_each_click_shows_what_the_click_did(browser, site):
    async with mcp_client() as client:
        await client.call_tool("interact", {"action": "navigate", "url": site.url("/frames-toggle.html")})
        expected = RED
        for _ in range(6):
            for _ in range(2):  # twice: the second one may come from the frame source
                result = await client.call_tool("screenshot", {"format": "jpeg"})
                (image,) = [block for block in result.content if block.type == "image"]
                assert near(colour(base64.b64decode(image.data)), expected)
            clicked = await client.call_tool("interact", {"action": "click", "selector": "#toggle"})
            assert not clicked.is_error, payload(clicked)
            expected = GREEN if expected == RED else RED


async def test_a_background_tab_is_served_its_own_frames_at_its_size(browser, site):
    async with mcp_client() as client:
        await client.call_tool("interact", {"action": "navigate", "url": site.url("/frames-toggle.html")})
        # a background tab beside the keeper's (CDP's Target.createTarget, which execute refuses, did the same)
        _client, keeper_tab = browser.call(browser.browsers.tab())
        opened = browser.call(browser.client.open_tab(keeper_tab, site.url("/frames-toggle.html?later=1")))
        listing = browser.call(browser.client.tabs())
        (background,) = [tab["id"] for tab in listing["tabs"] if tab["url"].endswith("?later=1")]
        assert background == opened["tab_id"] and background != listing["focused_tab_id"]
        try:
            taken = shots(browser, background, 4, pause=0.1)
            assert taken[-1].method == "frame", [shot.method for shot in taken]
            for shot in taken:
                assert Image.open(io.BytesIO(shot.image)).size == (1280, 720) and near(colour(shot.image), BLUE)
            assert browser.call(browser.client.tabs())["focused_tab_id"] == listing["focused_tab_id"]
        finally:
            browser.call(browser.client.close_tab(background))


def test_a_high_density_screen_is_served_frames_in_device_pixels(site, tmp_path, monkeypatch):
    """A browser at device pixel ratio 2 (a wrapper adds --force-device-scale-factor=2): every screenshot,
    from the frame source or afresh, is the viewport in device pixels."""
    from conftest import Keeper
    from tabsight.browser.embedded import find_browser

    wrapper = tmp_path / "chromium-dpr2"
    wrapper.write_text(f'#!/bin/sh\nexec "{find_browser()}" --force-device-scale-factor=2 "$@"\n')
    wrapper.chmod(0o755)
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    monkeypatch.setenv("TABSIGHT_CHROMIUM", str(wrapper))
    monkeypatch.setenv("TABSIGHT_RUNTIME_DIR", str(runtime))
    config.reset()
    dense = Keeper()
    dense.start()
    try:
        tab_id = dense.call(dense.client.tabs())["focused_tab_id"]
        dense.call(dense.client.navigate(tab_id, site.url("/frames-toggle.html")))
        taken = shots(dense, tab_id, 4, pause=0.1)
        assert taken[-1].method == "frame", [shot.method for shot in taken]
        for shot in taken:
            assert Image.open(io.BytesIO(shot.image)).size == (2560, 1440), shot.method
            assert near(colour(shot.image, 1280, 1200), RED)
    finally:
        dense.stop()
