"""The user's own browser as people have it: a headed Chromium, on a desktop with a window manager,
behind another application's window or minimized (issue 16). tests/harness/desktop.py runs Xvfb and
openbox; the browser is tabsight's headed embedded one, with the extension, on that display.

A page not in front still answers every tool: screenshots show the page (its pixels, not the window
over it) at its viewport size, and input lands as trusted events without the 5 s stall Chromium puts
on input to a hidden page; and nothing is left changed for the user: the window over the browser
stays on top, a minimized window stays minimized, the browser's active tab stays the same.
"""

from __future__ import annotations

import io
import json
import tempfile
import time
from pathlib import Path

import anyio
import pytest
from PIL import Image

from conftest import headed_client
from harness.calls import payload, region
from harness.desktop import Desktop
from tabsight.uploads import upload_folder

pytestmark = [pytest.mark.anyio, pytest.mark.browser, pytest.mark.headed]

#: the page's background and its button's colour (tests/pages/behind.html)
PAGE = (42, 157, 143)
BUTTON = (233, 196, 106)
#: the blue box below the fold of tests/pages/scrollbars.html (its tall element has the button's colour)
BOX = (0, 0, 255)
#: a call to a page Chromium treats as hidden stalls about 5.2 s per mouse event; an answered one takes
#: a few hundred ms. Far below the stall, far above a busy machine's noise.
STALLED_S = 3.0


@pytest.fixture
async def headed(desktop, site, tmp_path):
    """An MCP client whose tabsight runs a headed browser on the desktop, showing behind.html."""
    async with headed_client(desktop, tmp_path, site.url("/behind.html")) as (client, window):
        yield client, window


async def run(client, script: str):
    return payload(await client.call_tool("interact", {"action": "execute", "script": script}))["script"]["result"]


async def timed(client, tool: str, arguments: dict):
    started = time.monotonic()
    result = await client.call_tool(tool, arguments)
    took = time.monotonic() - started
    assert took < STALLED_S, f"{tool} {arguments} took {took:.1f} s: input to a page not in front stalled"
    return result


async def active_tab(client) -> int:
    (browser,) = payload(await client.call_tool("observe", {"what": "tabs"}))["browsers"]
    (active,) = [tab["id"] for tab in browser["tabs"] if tab.get("active")]
    return active


async def check_every_tool(client, desktop: Desktop) -> None:
    """Screenshots in every format show the page at its viewport size; a click, a scroll and typing land."""
    viewport = await run(client, "return [innerWidth, innerHeight]")
    for fmt in ("jpeg", "png", "webp"):
        shot = await timed(client, "screenshot", {"format": fmt})
        assert not shot.is_error, shot.content[0].text
        image = Image.open(io.BytesIO(_image_bytes(shot))).convert("RGB")
        metadata = json.loads(region(shot.content[-1].text))["metadata"]
        assert image.size == (metadata["width"], metadata["height"]) == tuple(viewport), (fmt, image.size, metadata)
        assert _near(image.getpixel((20, viewport[1] - 20)), PAGE), (
            fmt,
            "the page's background, not the window over it",
        )
        assert _near(image.getpixel((110, 110)), BUTTON), (fmt, "the button")

    before = await run(client, "return window.record.clicks")
    clicked = payload(await timed(client, "interact", {"action": "click", "selector": "#press"}))
    assert clicked["target"]["name"] == "Press"
    assert await run(client, "return window.record.clicks") == before + 1

    payload(await timed(client, "interact", {"action": "scroll", "delta_y": 300}))
    assert await run(client, "return scrollY") > 0
    await run(client, "scrollTo(0, 0); return 1")

    typed = payload(
        await timed(client, "interact", {"action": "type", "selector": "#field", "text": "hidden", "clear": True})
    )
    assert typed["value"] == "hidden"


async def test_a_window_behind_another_application_answers_and_stays_behind(desktop, headed):
    client, _window = headed
    tab = await active_tab(client)
    cover = desktop.cover()
    try:
        await check_every_tool(client, desktop)
        assert desktop.top_window() == cover, "the browser came up over the application in front"
        assert await active_tab(client) == tab
    finally:
        desktop.uncover()


async def test_a_minimized_window_answers_and_stays_minimized(desktop, headed):
    client, window = headed
    tab = await active_tab(client)
    desktop.minimize(window)
    await check_every_tool(client, desktop)
    assert desktop.window_state(window) == "Iconic", "the browser's window was un-minimized"
    assert await active_tab(client) == tab


async def test_a_tab_opened_and_closed_behind_another_application_changes_nothing_the_user_sees(desktop, headed, site):
    client, _window = headed
    tab = await active_tab(client)
    cover = desktop.cover()
    try:
        opened = payload(await timed(client, "interact", {"action": "open_tab", "url": site.url("/other.html")}))
        assert opened["tracked"]["tab_id"] == opened["tab_id"] != tab
        assert await active_tab(client) == tab, "the new tab was brought to the front"
        assert desktop.top_window() == cover, "the browser came up over the application in front"
        payload(await timed(client, "interact", {"action": "navigate", "url": site.url("/index.html")}))
        back = payload(await timed(client, "interact", {"action": "back"}))
        assert back["title"] == "Other page"
        closed = payload(await timed(client, "interact", {"action": "close_tab"}))
        assert closed["closed"] == opened["tab_id"] and closed["tracked"]["tab_id"] == tab
        assert await active_tab(client) == tab and desktop.top_window() == cover
    finally:
        desktop.uncover()


async def test_a_right_click_leaves_no_browser_menu_open_on_the_users_screen(desktop, headed):
    client, _window = headed
    popups = set(desktop.popups())
    clicked = payload(await timed(client, "interact", {"action": "click", "selector": "#press", "button": "right"}))
    assert "the browser's was kept closed" in clicked["did"]
    await anyio.sleep(0.5)  # a menu would be up by now
    assert set(desktop.popups()) == popups, "Chrome's context menu opened on the user's screen"


async def test_an_upload_or_a_click_that_opens_a_file_chooser_shows_no_dialog_on_the_users_screen(
    desktop, headed, site, tmp_path
):
    client, window = headed
    report = Path(tempfile.mkdtemp(dir=upload_folder())) / "report.txt"  # where agents put files made for an upload
    report.write_text("quarterly figures\n")
    payload(await timed(client, "interact", {"action": "navigate", "url": site.url("/upload.html")}))
    windows, cover = set(desktop.browser_windows()), desktop.cover()
    try:
        uploaded = payload(
            await timed(client, "interact", {"action": "upload", "selector": "#choose-avatar", "files": [str(report)]})
        )
        assert uploaded["via"] == "chooser" and uploaded["input_files"] == [{"name": "report.txt", "size": 18}]
        clicked = payload(await timed(client, "interact", {"action": "click", "selector": "#choose-avatar"}))
        assert "kept closed" in clicked["file_chooser"]  # a plain click's chooser is kept closed too
        await anyio.sleep(0.5)  # a file dialog would be up by now
        # (the browser of the test before may still be closing on this desktop: only a new window counts)
        new = set(desktop.browser_windows()) - windows - {window}
        assert not new, "a file dialog opened on the user's screen"
        assert desktop.top_window() == cover, "the browser came up over the application in front"
    finally:
        desktop.uncover()


@pytest.mark.parametrize("covered", [False, True], ids=["in-front", "behind-another-application"])
async def test_full_page_and_element_screenshots_leave_the_page_its_scrollbar(desktop, headed, site, covered):
    """A capture beyond the viewport left a headed Chromium's page without its scrollbar until it was reloaded
    (issue 16, item 7); the images are still whole: the document's height, each element's box."""
    client, _window = headed
    payload(await client.call_tool("interact", {"action": "navigate", "url": site.url("/scrollbars.html")}))
    scrollbar = "return innerWidth - document.documentElement.clientWidth"
    bar = await run(client, scrollbar)
    assert bar > 0, "the page shows no scrollbar to begin with"
    width, height = await run(client, "return [innerWidth, innerHeight]")
    cover = desktop.cover() if covered else None
    try:
        cases = [
            (
                {"fullPage": True},
                (width, 5000),
                {(20, 20): PAGE, (150, 1550): BOX, (150, 3000): BUTTON, (width - 5, 1000): PAGE},
            ),
            ({"selector": "#box"}, (300, 150), {(0, 0): BOX, (299, 149): BOX}),  # below the fold
            ({"selector": "#tall"}, (200, 2000), {(0, 0): BUTTON, (199, 1999): BUTTON}),  # taller than the viewport
        ]
        for arguments, size, pixels in cases:
            image = Image.open(
                io.BytesIO(_image_bytes(await timed(client, "screenshot", {**arguments, "format": "png"})))
            )
            image = image.convert("RGB")
            assert image.size == size, (arguments, image.size)
            for point, colour in pixels.items():
                assert _near(image.getpixel(point), colour), (arguments, point, image.getpixel(point))
            assert await run(client, scrollbar) == bar, f"{arguments} left the page without its scrollbar"

        # and the page as drawn, in a viewport capture (no debugger), has it at its right edge
        await run(client, "scrollTo(0, 0); return 1")
        shown = Image.open(io.BytesIO(_image_bytes(await timed(client, "screenshot", {"format": "png"})))).convert(
            "RGB"
        )
        assert not _near(shown.getpixel((width - bar // 2 - 1, height // 2)), PAGE), "no scrollbar on screen"
        assert _near(shown.getpixel((width - bar - 5, height // 2)), PAGE)
        if covered:
            assert desktop.top_window() == cover, "the browser came up over the application in front"
    finally:
        desktop.uncover()


async def test_a_full_page_screenshot_cancelled_midway_leaves_the_page_as_it_was(headed, site):
    """A client giving up on a full-page screenshot while Chromium draws it beyond the viewport: the page gets
    back its own size (it stayed 8000 px high, the capture's size) and its scrollbar (issue 16, item 7)."""
    client, _window = headed
    payload(await client.call_tool("interact", {"action": "navigate", "url": site.url("/tall?h=20000")}))
    state = "return [innerWidth - document.documentElement.clientWidth, innerWidth, innerHeight]"
    before = await run(client, state)
    assert before[0] > 0, "the page shows no scrollbar to begin with"
    with anyio.move_on_after(0.3):  # mid-capture: its three 8000 px tiles take over a second
        await client.call_tool("screenshot", {"fullPage": True, "format": "png"})
    deadline = time.monotonic() + 10
    while (now := await run(client, state)) != before and time.monotonic() < deadline:
        await anyio.sleep(0.2)
    assert now == before, "the cancelled capture left the page at another size or without its scrollbar"


def _image_bytes(result) -> bytes:
    import base64

    (block,) = [block for block in result.content if block.type == "image"]
    return base64.b64decode(block.data)


def _near(pixel, colour, tolerance: int = 24) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour))
