"""'Look at this' (issue 20): the user points the agent at an element of a page in their browser.

End to end, with real user input: a headed tabsight browser on a desktop of its own
(tests/harness/desktop.py), the keyboard shortcut pressed and the element clicked with xdotool, the
note typed; the agent's side is a real MCP client. Then the host's side alone, without a browser.
"""

from __future__ import annotations

import base64
import io
import subprocess
import time

import anyio
import pytest
from PIL import Image

from conftest import headed_client
from harness.calls import alerts as pending, payload
from tabsight.nativehost.picks import MAX_PICKS, Picks
from tabsight.times import wall_time

#: the pick's steps are seen in the page within this (generous: a busy machine)
STEP_S = 20


@pytest.fixture
async def headed(desktop, site, tmp_path):
    """An MCP client whose tabsight runs a headed browser on the desktop, showing picker.html in front."""
    async with headed_client(desktop, tmp_path, site.url("/picker.html")) as (client, _window):
        yield client


async def run(client, script: str):
    return payload(await client.call_tool("interact", {"action": "execute", "script": script}))["script"]["result"]


def user(desktop, *command: str) -> None:
    """What the user does with the keyboard and the mouse: xdotool's real X input."""
    subprocess.run(["xdotool", *command], env=desktop.env, check=True, timeout=10)


async def until(client, script: str, what: str):
    """Polls a page script until it is truthy."""
    deadline = time.monotonic() + STEP_S
    while not (result := await run(client, script)):
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await anyio.sleep(0.1)
    return result


async def aim(client, desktop, selector: str) -> tuple[int, int]:
    """The screen point at the centre of the element: the pointer is moved over the page once, and the
    page says where its viewport is on the screen. It clicks a blank spot of the page on its way, as a user
    reading the page has: the keyboard is the page's then, not the address bar's (navigate left it there)."""
    await run(client, "window.record.screen = null")
    user(desktop, "mousemove", "600", "500", "click", "1")
    user(desktop, "mousemove", "610", "505")
    origin = await until(client, "return window.record.screen", "the page to see the pointer")
    box = await run(
        client,
        f"const r = document.querySelector('{selector}').getBoundingClientRect(); "
        "return [r.left + r.width / 2, r.top + r.height / 2]",
    )
    return round(origin["x"] + box[0]), round(origin["y"] + box[1])


async def start_pick(client, desktop) -> None:
    user(desktop, "key", "alt+shift+k")
    await until(client, "return !!document.querySelector('tabsight-picker')", "the picker to show")


async def picked(client, since: int) -> tuple[dict, list, list]:
    """observe picked until a pick newer than ``since`` is there; the answer and every alert seen meanwhile."""
    alerts = []
    deadline = time.monotonic() + STEP_S
    while True:
        result = await client.call_tool("observe", {"what": "picked", "since": since})
        assert not result.is_error, result.content[0].text
        alerts += pending(result) or []
        answer = payload(result)
        if answer["picks"]:
            return answer, [block for block in result.content if block.type == "image"], alerts
        assert time.monotonic() < deadline, "no pick reached the agent"
        await anyio.sleep(0.2)


@pytest.mark.anyio
@pytest.mark.browser
@pytest.mark.headed
async def test_the_user_points_at_a_button_and_the_agent_gets_it(headed, desktop):
    client = headed
    before = payload(await client.call_tool("observe", {"what": "picked"}))
    assert before["picks"] == [] and "Alt+Shift+K" in before["how"]
    x, y = await aim(client, desktop, "#save")

    # Escape cancels: no pick
    await start_pick(client, desktop)
    user(desktop, "key", "Escape")
    await until(client, "return !document.querySelector('tabsight-picker')", "the picker to go")

    # a page's own (untrusted) clicks during a pick choose nothing, and the pick goes on
    await start_pick(client, desktop)
    await run(
        client,
        "document.querySelector('#save').click(); "
        "document.querySelector('tabsight-picker').dispatchEvent(new MouseEvent('click', "
        "{bubbles: true, composed: true, clientX: 250, clientY: 170})); return true",
    )
    assert await run(client, "return !!document.querySelector('tabsight-picker')"), "a synthetic click ended the pick"
    assert payload(await client.call_tool("observe", {"what": "picked"}))["picks"] == []

    # the user's click chooses the button; the note prompt takes the focus; Enter sends the note
    user(desktop, "mousemove", str(x), str(y), "click", "1")
    await until(client, "return document.activeElement?.localName === 'tabsight-picker'", "the note prompt")
    user(desktop, "type", "--delay", "20", "make it green")
    user(desktop, "key", "Return")
    answer, images, alerts = await picked(client, before["cursor"])

    (pick,) = answer["picks"]
    assert pick["note"] == "make it green"
    assert pick["role"] == "button" and pick["name"] == "Save" and pick["url"].endswith("/picker.html")
    assert await run(
        client,
        f"const all = document.querySelectorAll({pick['selector']!r}); "
        "return all.length === 1 && all[0] === document.querySelector('#save')",
    )
    rect = await run(
        client,
        "const r = document.querySelector('#save').getBoundingClientRect(); "
        "return {x: r.left, y: r.top, width: r.width, height: r.height, dpr: devicePixelRatio}",
    )
    assert pick["bounds"] == {key: round(rect[key]) for key in ("x", "y", "width", "height")}
    styles = pick["styles"]
    assert styles["background-color"] == "rgb(0, 90, 200)" and styles["font-size"] == "20px"
    assert styles["position"] == "absolute" and styles["width"] == "160px"
    # the picture: the button, cropped, at its size in device pixels
    (image,) = images
    picture = Image.open(io.BytesIO(base64.b64decode(image.data))).convert("RGB")
    assert pick["image"] == {"number": 1, "width": picture.width, "height": picture.height}
    assert abs(picture.width - 160 * rect["dpr"]) <= 2 and abs(picture.height - 60 * rect["dpr"]) <= 2
    assert picture.getpixel((5, 5)) == (0, 90, 200), "the button's own pixels, without the picker's highlight"
    # the alert names the element and the note, on this answer or the one before
    texts = [alert["title"] for alert in alerts if alert["category"] == "picked"]
    assert any(
        t.startswith('The user pointed at <button> "Save" on http') and t.endswith(": make it green") for t in texts
    ), alerts
    # the page got no event of the picking click: its only click is its own synthetic one
    assert await run(client, "return window.record") == {
        "clicks": 1,
        "trusted_clicks": 0,
        "mousedowns": 0,
        "screen": await run(client, "return window.record.screen"),
    }


# -- the host's side, without a browser ------------------------------------------------------------


def _report(**changes) -> dict:
    png = io.BytesIO()
    Image.new("RGB", (160, 60), (0, 90, 200)).save(png, "PNG")
    report = {
        "tab_id": 7,
        "url": "http://127.0.0.1:8000/app?token=ghp_" + "a" * 36,
        "title": "App",
        "selector": "#save",
        "tag": "button",
        "role": "button",
        "name": "Save",
        "text": "Save",
        "bounds": {"x": 200, "y": 150, "width": 160, "height": 60},
        "styles": {"display": "inline-block", "background-color": "rgb(0, 90, 200)"},
        "note": "make it green",
        "image": {
            "data": base64.b64encode(png.getvalue()).decode(),
            "mime_type": "image/png",
            "width": 160,
            "height": 60,
        },
    }
    return report | changes


def test_a_pick_is_an_alert_naming_the_element_the_page_and_the_note():
    alerts = []
    picks = Picks(on_alert=alerts.append, clock=lambda: 0.0)
    picks.receive(_report())
    (alert,) = alerts
    assert alert.category == "picked" and alert.severity == "warning" and alert.source == "user"
    assert alert.title == (
        'The user pointed at <button> "Save" on http://127.0.0.1:8000/app?token=[REDACTED]: make it green'
    )
    assert "selector #save" in alert.detail and alert.tab_id == 7
    (kept,) = picks.query()["items"]
    assert kept["bounds"] == {"x": 200, "y": 150, "width": 160, "height": 60}
    assert kept["time"] == wall_time(0.0, "milliseconds") and kept["image"]["width"] == 160


def test_a_pick_without_name_or_note_says_so_briefly_and_secrets_in_a_note_are_masked():
    alerts = []
    picks = Picks(on_alert=alerts.append)
    picks.receive(_report(name="", note=""))
    picks.receive(_report(note="use password=hunter2 there"))
    assert alerts[0].title == "The user pointed at <button> on http://127.0.0.1:8000/app?token=[REDACTED]"
    assert "hunter2" not in alerts[1].title and "hunter2" not in picks.query()["items"][0]["note"]


def test_picks_are_kept_bounded_newest_first_and_malformed_ones_dropped():
    picks = Picks(on_alert=lambda alert: None)
    for n in range(MAX_PICKS + 3):
        picks.receive(_report(selector=f"#b{n}"))
    picks.receive(_report(bounds={"x": "left"}))
    picks.receive(_report(image={"data": "not base64!", "mime_type": "image/png", "width": 1, "height": 1}))
    picks.receive({"tab_id": 1})
    assert picks.dropped == 3
    found = picks.query(limit=200)
    assert [pick["selector"] for pick in found["items"]] == [f"#b{n}" for n in range(MAX_PICKS + 2, 2, -1)]
    assert found["cursor"] == MAX_PICKS + 3
    assert picks.query(since=found["cursor"])["items"] == []
