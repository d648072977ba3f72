"""Screenshots that arrive by themselves: screenshot_mode, execute's attachments, visual diff."""

from __future__ import annotations

import base64
import io
import json
import time

import pytest
from PIL import Image

from conftest import front_env, mcp_client
from harness.calls import region, tracked_tab

pytestmark = [pytest.mark.anyio, pytest.mark.browser]


def texts(result) -> list[str]:
    return [block.text for block in result.content if block.type == "text"]


def last(result):
    assert not result.is_error, result.content[0].text
    return result.content[-1]


async def capture(client, **settings):
    result = await client.call_tool("configure", {"action": "capture", "settings": settings})
    assert not result.is_error, result.content[0].text
    return json.loads(region(result.content[0].text))


async def navigate(client, url):
    result = await client.call_tool("interact", {"action": "navigate", "url": url})
    assert not result.is_error, result.content[0].text


async def test_screenshot_mode_on_ends_observe_and_generate_answers_with_an_image(browser, site):
    async with mcp_client() as client:
        await navigate(client, site.url("/index.html"))
        plain = await client.call_tool("observe", {"what": "page"})
        assert all(block.type == "text" for block in plain.content)  # off by default

        first = await capture(client, screenshot_mode="on", cooldown_seconds=0)
        assert first["capture"]["screenshot_mode"] == "on" and "sensitive page content" in first["note"]
        again = await capture(client, screenshot_mode="on", cooldown_seconds=0)
        assert "note" not in again  # the note comes once

        for what in ("page", "tabs", "errors"):
            block = last(await client.call_tool("observe", {"what": what}))
            assert block.type == "image" and block.mime_type == "image/jpeg"
            img = Image.open(io.BytesIO(base64.b64decode(block.data)))
            assert img.format == "JPEG" and img.size == (1280, 720)
        # other tools' answers carry none
        nav = await client.call_tool("interact", {"action": "navigate", "url": site.url("/index.html")})
        assert all(block.type == "text" for block in nav.content)

        await capture(client, screenshot_mode="errors_only", cooldown_seconds=0)
        assert last(await client.call_tool("observe", {"what": "errors"})).type == "image"
        assert last(await client.call_tool("observe", {"what": "page"})).type == "text"

    async with mcp_client() as client:  # a new front: off again
        await navigate(client, site.url("/index.html"))
        assert last(await client.call_tool("observe", {"what": "page"})).type == "text"


async def test_cooldown_and_session_limit_say_why_there_is_no_image(browser, site):
    async with mcp_client() as client:
        await navigate(client, site.url("/index.html"))
        await capture(client, screenshot_mode="on", cooldown_seconds=30, session_limit=10)
        assert last(await client.call_tool("observe", {"what": "tabs"})).type == "image"
        block = last(await client.call_tool("observe", {"what": "tabs"}))
        assert block.type == "text" and block.text == "[Screenshot unavailable: rate-limited (30s cooldown)]"

        await capture(client, screenshot_mode="on", cooldown_seconds=0, session_limit=2)
        assert last(await client.call_tool("observe", {"what": "tabs"})).type == "image"
        block = last(await client.call_tool("observe", {"what": "tabs"}))
        assert block.text == "[Screenshot unavailable: session limit reached (2/2)]"


async def test_execute_returns_script_results_and_cdp_steps_with_screenshots_as_images(browser, site, tmp_path):
    dump = tmp_path / "shots"
    async with mcp_client(front_env(TABSIGHT_SCREENSHOT_DIR=str(dump))) as client:
        await navigate(client, site.url("/index.html"))
        started = int(time.time() * 1000)
        result = await client.call_tool(
            "interact",
            {
                "action": "execute",
                "script": "const h = document.querySelector('h1'); return {title: document.title, heading: h.textContent};",
                "cdp": [
                    {"method": "Page.captureScreenshot", "params": {"format": "png"}},
                    {"method": "DOM.doesNotExist"},  # allowed by the policy's DOM domain, unknown to Chrome
                    {"method": "Runtime.evaluate", "params": {"expression": "1 + 1", "returnByValue": True}},
                    {"method": "Page.captureScreenshot", "params": {"format": "jpeg", "quality": 50}},
                ],
            },
        )
        assert not result.is_error, result.content[0].text
        answer = json.loads(region(result.content[0].text))
        assert answer["script"]["result"] == {"title": "tabsight test page", "heading": "Welcome"}
        shot1, failed, evaluated, shot2 = answer["cdp"]
        assert shot1["result"]["data"] == "<image 1, attached below>"
        assert failed["method"] == "DOM.doesNotExist" and "wasn't found" in failed["error"]
        assert evaluated["result"]["result"]["value"] == 2
        assert shot2["result"]["data"] == "<image 2, attached below>"
        # two image blocks, then the footer; no base64 left in the text
        kinds = [block.type for block in result.content]
        assert kinds == ["text", "image", "image", "text"]
        assert result.content[1].mime_type == "image/png" and result.content[2].mime_type == "image/jpeg"
        assert result.content[3].text == "[2 screenshots attached]"
        assert len(result.content[0].text) < 2000
        for block, size in ((result.content[1], (1280, 720)), (result.content[2], (1280, 720))):
            assert Image.open(io.BytesIO(base64.b64decode(block.data))).size == size
        # and on disk, named <session>-<startedAt>-<seq>.<ext>
        files = sorted(dump.iterdir())
        assert [f.suffix for f in files] == [".png", ".jpg"]
        session, at, seq = files[0].stem.split("-")
        assert len(session) == 8 and started <= int(at) <= started + 5000 and seq == "1"
        assert files[1].stem == f"{session}-{at}-2"
        assert Image.open(files[0]).format == "PNG" and Image.open(files[1]).format == "JPEG"

        expression = await client.call_tool("interact", {"action": "execute", "script": "document.title"})
        assert json.loads(region(expression.content[0].text))["script"]["result"] == "tabsight test page"
        thrown = await client.call_tool("interact", {"action": "execute", "script": "throw new Error('nope')"})
        assert "Error: nope" in json.loads(region(thrown.content[0].text))["script"]["error"]


async def test_a_hanging_step_times_out_and_the_debugger_is_released(browser, site):
    async with mcp_client() as client:
        tab_id = await tracked_tab(client)  # (before the page: observe answers carry its alerts)
        await navigate(client, site.url("/index.html"))
        started = time.monotonic()
        result = await client.call_tool(
            "interact",
            {
                "action": "execute",
                "timeout_ms": 1000,
                "cdp": [
                    {
                        "method": "Runtime.evaluate",
                        "params": {"expression": "new Promise(() => {})", "awaitPromise": True},
                    },
                    {"method": "Page.captureScreenshot"},
                ],
            },
        )
        assert time.monotonic() - started < 5
        hung, skipped = json.loads(region(result.content[0].text))["cdp"]
        assert hung["error"] == "timed out after 1000 ms" and hung["timed_out"]
        assert skipped == {"method": "Page.captureScreenshot", "skipped": "an earlier step timed out"}
        assert [block.type for block in result.content] == ["text"]

        def attached():
            tabs = browser.call(browser.client.tabs())["tabs"]
            return next(t for t in tabs if t["id"] == tab_id)["debugger_attached"]

        # the hung step's attachment is dropped at once; the clean one made for the idle time after (the
        # response bodies of the page's requests are read then) goes 3 s later, as after any action
        deadline = time.monotonic() + 3 + 2
        while attached() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not attached()


async def test_visual_diff_finds_the_button_that_changed(browser, site):
    async with mcp_client() as client:
        await navigate(client, site.url("/diff.html?color=green"))
        missing = await client.call_tool("generate", {"type": "visual_diff"})
        assert missing.is_error and "No baseline yet" in missing.content[0].text

        saved = await client.call_tool("generate", {"type": "baseline", "name": "green"})
        assert json.loads(saved.content[0].text)["saved"] == ["green"]
        same = await client.call_tool("generate", {"type": "visual_diff"})  # against the previous screenshot
        summary = json.loads(same.content[1].text)
        assert summary["percent_changed"] == 0 and summary["regions"] == []

        await navigate(client, site.url("/diff.html?color=blue"))
        changed = await client.call_tool("generate", {"type": "visual_diff", "baseline": "green"})
        assert changed.content[0].type == "image"
        summary = json.loads(changed.content[1].text)
        (region,) = summary["regions"]
        assert (region["x"], region["y"], region["width"], region["height"]) == (400, 300, 160, 50)
        assert abs(summary["percent_changed"] - 100 * 160 * 50 / (1280 * 720)) < 0.01
        img = Image.open(io.BytesIO(base64.b64decode(changed.content[0].data))).convert("RGB")
        r, g, b = img.getpixel((480, 325))
        assert r > 200 and g < 60  # changed pixels in red

        unknown = await client.call_tool("generate", {"type": "visual_diff", "baseline": "nope"})
        assert unknown.is_error and "No baseline named 'nope' (saved: green)" in unknown.content[0].text
