"""Each tool handler against a fake browser (tests/fakes.py): what the answer holds and how it is laid out.

The real session, browser connection, typed client, handlers and response
builder run; only the host link is a fake. The same behaviours are also
tested end to end on Chromium (test_e2e, test_screenshot, test_annotate...).
"""

from __future__ import annotations

import base64
import io
import json

import pytest
from PIL import Image

from fakes import FakeBrowser, fake_session
from harness.calls import alerts, notes, refusal, region
from tabsight import config
from tabsight.errors import HINTS, Code
from tabsight.tools import TOOLS
from tabsight.tools.dispatch import call
from tabsight.tools.response import Response

pytestmark = pytest.mark.anyio


async def handle(session, tool: str, arguments: dict) -> Response:
    """The handler alone, with a fresh response: what it added."""
    definition = TOOLS[tool]
    params = definition.parse(arguments)
    response = Response(tool, what=getattr(params, "what", None))
    await definition.handle(session, params, response)
    return response


def decoded(block) -> Image.Image:
    assert block.type == "image"
    return Image.open(io.BytesIO(base64.b64decode(block.data)))


def json_of(block) -> dict:
    """A text block's JSON answer, which quotes pages: a page-content region."""
    assert block.type == "text"
    return json.loads(region(block.text))


# -- screenshot ---------------------------------------------------------------


async def test_screenshot_of_the_tracked_tab_is_an_image_then_its_metadata():
    browser = FakeBrowser(viewport=(800, 600))
    session = fake_session(browser)
    result = await call(session, "screenshot", {"format": "png"})
    assert not result.is_error
    image, metadata = result.content
    assert decoded(image).size == (800, 600) and image.mime_type == "image/png"
    meta = json_of(metadata)["metadata"]
    assert (meta["width"], meta["height"], meta["format"]) == (800, 600, "png")
    assert meta["configuration"]["userAgent"] == "default" and meta["tokens"] == 800 * 600 // 750
    assert browser.methods("capture")[0] == {"tab_id": 7, "format": "png", "quality": 80}
    # it is the session's latest screenshot: a visual diff's default baseline
    assert Image.open(io.BytesIO(session.screenshots.last)).size == (800, 600)


async def test_screenshot_downscales_to_max_width():
    session = fake_session(FakeBrowser(viewport=(1600, 900)))
    response = await handle(session, "screenshot", {"format": "jpeg", "max_width": 400})
    (image,) = response.images
    assert Image.open(io.BytesIO(image.data)).size == (400, 225)
    assert response.result["metadata"]["scale"] == 0.25


async def test_screenshot_of_a_url_sends_the_capture_settings_and_cookies_for_the_host():
    browser = FakeBrowser()
    response = await handle(
        fake_session(browser),
        "screenshot",
        {
            "url": "http://localhost:8000/app",
            "width": 640,
            "height": 480,
            "userAgent": "Agent/2",
            "cookies": [{"name": "sid", "value": "abc", "domain": "127.0.0.1"}],
        },
    )
    (request,) = browser.methods("capture.url")
    assert (request["width"], request["height"], request["user_agent"]) == (640, 480, "Agent/2")
    assert request["cookies"] == [
        {
            "name": "sid",
            "value": "abc",
            "domain": "localhost",
            "path": "/",
            "httpOnly": False,
            "secure": False,
            "host_only": True,
        }
    ]
    assert Image.open(io.BytesIO(response.images[0].data)).size == (640, 480)
    assert response.result["metadata"]["configuration"]["userAgent"] == "Agent/2"
    assert response.screenshot is None  # another page than the tracked tab: not a diff baseline


async def test_screenshot_retries_a_refused_connection_then_says_so(monkeypatch):
    monkeypatch.setenv("TABSIGHT_RETRY_DELAY", "100")
    config.reset()
    browser = FakeBrowser()
    browser.failures["capture.url"] = (Code.NAVIGATION_FAILED, "net::ERR_CONNECTION_REFUSED at http://localhost:9/")
    result = await call(fake_session(browser), "screenshot", {"url": "http://localhost:9/"})
    assert result.is_error
    text = refusal(result)
    assert text.startswith("Screenshot capture failed: net::ERR_CONNECTION_REFUSED")
    assert text.endswith(f"{HINTS[Code.NAVIGATION_FAILED]} [navigation_failed]")
    assert len(browser.methods("capture.url")) == config.current()[config.TABSIGHT_RETRY_COUNT] + 1


# -- observe --------------------------------------------------------------------


async def test_observe_page_ends_with_pending_alerts_once():
    browser = FakeBrowser()
    session = fake_session(browser)
    await call(session, "observe", {"what": "page"})  # connects: alerts flow from here on
    browser.emit("alert", {"category": "errors", "severity": "error", "title": "TypeError: x"})
    first = await call(session, "observe", {"what": "page"})
    page, _alerts = first.content
    assert json_of(page) == {
        "tab_id": 7,
        "url": "http://127.0.0.1/fake",
        "title": "Fake page",
        "viewport": {"width": 1280, "height": 720},
        "ready_state": "complete",
    }
    assert alerts(first)[0]["title"] == "TypeError: x"
    second = await call(session, "observe", {"what": "page"})
    assert len(second.content) == 1


async def test_an_answer_carries_a_few_alerts_the_most_severe_and_the_rest_wait():
    browser = FakeBrowser()
    session = fake_session(browser)
    await call(session, "observe", {"what": "page"})
    for n in range(9):
        path = f"/fonts/f{n}.woff2"
        browser.emit(
            "alert",
            {
                "category": "network_errors",
                "severity": "error",
                "title": f"Request failed: GET {path} (net::ERR_FAILED)",
                "url": f"http://127.0.0.1{path}",
                "source": "browser",
            },
        )
    browser.emit("alert", {"category": "performance", "severity": "warning", "title": "LCP 5 s"})
    browser.emit("alert", {"category": "errors", "severity": "error", "title": "boom", "url": "http://127.0.0.1/x"})
    first = await call(session, "observe", {"what": "page"})
    label = next(block.text for block in first.content if block.text.startswith("_alerts"))
    assert label.startswith("_alerts (6 more waiting for the next answers; observe alerts reads them now): ")
    shown = alerts(first)
    assert [a["title"].split(" (")[0] for a in shown] == [f"Request failed: GET /fonts/f{n}.woff2" for n in range(5)]
    # a failed request's URL is in its title: said once; the browser is every alert's source but a detector's
    assert all("url" not in a and "source" not in a for a in shown)
    second = alerts(await call(session, "observe", {"what": "page"}))
    assert (
        [a["title"] for a in second][-1] == "boom"
        and len(second) == 5
        and second[0]["title"].endswith("f5.woff2 (net::ERR_FAILED)")
    )
    assert second[-1]["url"] == "http://127.0.0.1/x"  # an error's title is the page's words: its URL stays
    third = await call(session, "observe", {"what": "alerts"})
    assert [a["title"] for a in json_of(third.content[0])["alerts"]] == ["LCP 5 s"]


async def test_annotated_observe_draws_on_the_capture_and_labels_act_on_their_element():
    browser = FakeBrowser(viewport=(640, 400))
    browser.elements = [
        {
            "selector": "#save",
            "tag": "button",
            "role": "button",
            "name": "Save",
            "text": "Save",
            "bounds": {"x": 10, "y": 10, "width": 80, "height": 30},
            "interactionHint": "clickable",
        },
    ]
    session = fake_session(browser)
    arguments = {"what": "page", "annotate_screenshot": True, "annotation_format": "json", "max_width": 640}
    image, summary = (await call(session, "observe", arguments)).content
    drawn = decoded(image)  # at the viewport's size (max_width): a pixel is a CSS px
    assert drawn.size == (640, 400) and image.mime_type == "image/jpeg"
    # the box is drawn just outside the button's left edge: far from the page's colour, which JPEG keeps close
    edge = [drawn.getpixel((x, 25)) for x in range(4, 10)]
    assert max(sum(abs(a - b) for a, b in zip(pixel, (200, 220, 240))) for pixel in edge) > 100
    assert drawn.getpixel((200, 300)) == pytest.approx((200, 220, 240), abs=6)
    assert json_of(summary)["annotations"][0]["label"] == 1 and json_of(summary)["total_found"] == 1

    clicked = await call(session, "interact", {"action": "click", "label": 1})
    assert json_of(clicked.content[0])["label"] == 1
    act = browser.methods("element.act")[-1]
    assert (act["selector"], act["document"], act["action"]) == ("#save", "doc-1", "click")

    await call(session, "interact", {"action": "navigate", "url": "http://127.0.0.1/other"})
    stale = await call(session, "interact", {"action": "click", "label": 1})
    assert refusal(stale).startswith(
        "Label 1 is from the annotation of http://127.0.0.1/fake, and the page has changed since"
    )
    assert refusal(stale).endswith(f"{HINTS[Code.STALE_LABEL]} [stale_label]")


async def test_a_label_of_no_annotation_is_stale_and_said_so_by_its_code_even_in_a_fill():
    session = fake_session(FakeBrowser())
    click = refusal(await call(session, "interact", {"action": "click", "label": 1}))
    assert (
        click == f"No annotation in this session yet: no label stands for an element. {HINTS[Code.STALE_LABEL]} "
        "[stale_label]"
    )
    fill = refusal(await call(session, "interact", {"action": "fill", "fields": [{"label": 2, "value": "x"}]}))
    assert fill.startswith("fields[0] (label 2): No annotation in this session yet") and fill.endswith(" [stale_label]")


async def test_a_label_the_action_changed_is_answered_as_its_annotation_entry_now():
    browser = FakeBrowser()
    browser.elements = [
        {
            "selector": "#counter",
            "tag": "button",
            "role": "button",
            "name": "count: 0",
            "text": "count: 0",
            "bounds": {"x": 10, "y": 10, "width": 80, "height": 30},
            "interactionHint": "clickable",
        },
    ]
    session = fake_session(browser)
    await call(session, "observe", {"what": "page", "annotate_screenshot": True, "annotation_format": "json"})
    annotation = session.labels.annotation.id
    now = {"tag": "button", "role": "button", "name": "count: 1", "text": "count: 1", "interactionHint": "clickable"}
    browser.followed = {"labels": [{"annotation": "older", "label": 4}, {"annotation": annotation, "label": 1}], **now}
    clicked = json_of((await call(session, "interact", {"action": "click", "label": 1})).content[0])
    assert "followed" not in clicked
    assert clicked["label_now"] == {"label": 1, "role": "button", "name": "count: 1"}
    # by a plain selector too: the label of that node says what it stands for now
    assert json_of((await call(session, "interact", {"action": "click", "selector": "p > button"})).content[0])[
        "label_now"
    ] == {"label": 1, "role": "button", "name": "count: 1"}
    # only labels of this session's latest annotation
    browser.followed = {"labels": [{"annotation": "older", "label": 4}], **now}
    assert "label_now" not in json_of((await call(session, "interact", {"action": "click", "label": 1})).content[0])


async def test_observe_tabs_marks_the_tracked_tab_and_hides_capture_windows():
    browser = FakeBrowser()
    browser.tabs.append({"id": 9, "title": "capture", "url": "http://x/", "owned": True})
    answer = await handle(fake_session(browser), "observe", {"what": "tabs"})
    (listed,) = answer.result["browsers"]
    assert listed["name"] == "FakeChromium 156" and [tab["id"] for tab in listed["tabs"]] == [7]
    assert listed["tabs"][0]["tracked"] is True


async def test_observe_errors_passes_the_query_and_the_cursor_back():
    browser = FakeBrowser()
    browser.telemetry["errors"] = [{"message": f"e{n}"} for n in range(5)]
    answer = await handle(fake_session(browser), "observe", {"what": "errors", "limit": 2})
    assert [item["message"] for item in answer.result["items"]] == ["e3", "e4"]
    assert browser.methods("telemetry.query")[0] == {
        "what": "errors",
        "tab_id": 7,
        "since": 0,
        "limit": 2,
        "url": None,
        "requests": "failed",
    }


# -- interact execute -----------------------------------------------------------------


async def test_execute_attaches_screenshots_after_the_json_and_counts_them():
    session = fake_session()
    result = await call(
        session,
        "interact",
        {
            "action": "execute",
            "cdp": [
                {"method": "Page.captureScreenshot", "params": {"format": "jpeg"}},
                {"method": "Runtime.evaluate", "params": {"expression": "1"}},
                {"method": "Page.captureScreenshot", "params": {}},
            ],
        },
    )
    answer, first, second, footer = result.content
    steps = json_of(answer)["cdp"]
    assert steps[0]["result"]["data"] == "<image 1, attached below>"
    assert steps[2]["result"]["data"] == "<image 2, attached below>"
    assert first.mime_type == "image/jpeg" and second.mime_type == "image/png"
    assert decoded(second).size == (320, 200) and footer.text == "[2 screenshots attached]"
    assert session.screenshots.last is not None


# -- configure ------------------------------------------------------------------


async def test_configure_track_picks_a_tab_or_says_which_exist():
    browser = FakeBrowser()
    browser.tabs.append({"id": 8, "title": "Second", "url": "http://127.0.0.1/second"})
    session = fake_session(browser)
    missing = await call(session, "configure", {"action": "track", "tab_id": 99})
    assert refusal(missing) == f"No tab with id 99. {HINTS[Code.NO_TAB]} [no_tab]"
    tracked = await call(session, "configure", {"action": "track", "tab_id": 8})
    assert json_of(tracked.content[0])["tracked"]["title"] == "Second"
    await call(session, "observe", {"what": "page"})
    assert browser.methods("page.info")[-1] == {"tab_id": 8}


async def test_configure_emulate_a_users_tab_only_when_named_with_on_user_tab():
    user = FakeBrowser()  # the user's own: no embedded token in its hello
    session = fake_session(user)
    refused = await call(session, "configure", {"action": "emulate", "emulation": {"device": "pixel-7"}})
    assert refused.is_error and "Tab 7 is the user's own tab" in refused.content[0].text
    assert "tab_id:7" in refused.content[0].text and "on_user_tab:true" in refused.content[0].text
    assert user.methods("emulation.set") == []

    asked = {"action": "emulate", "tab_id": 7, "emulation": {"device": "pixel-7", "network": "4g", "on_user_tab": True}}
    answer = json_of((await call(session, "configure", asked)).content[0])["emulate"]
    assert "they see it emulated" in answer["note"]
    (sent,) = user.methods("emulation.set")
    assert (
        sent["viewport"]
        == {
            "device": "pixel-7",
            "width": 412,
            "height": 915,
            "device_scale_factor": 2.625,
            "mobile": True,
            "user_agent": sent["viewport"]["user_agent"],
        }
        and "Pixel 7" in sent["viewport"]["user_agent"]
    )
    assert sent["network"] == {
        "name": "4g",
        "offline": False,
        "latency_ms": 165,
        "download_bytes_per_s": 1_012_500,
        "upload_bytes_per_s": 168_750,
    }
    # a reset needs no flag: it only undoes what tabsight did
    reset = await call(session, "configure", {"action": "emulate", "emulation": {"reset": True}})
    assert json_of(reset.content[0])["emulate"]["emulation"] is None

    embedded = FakeBrowser()
    embedded.hello.embedded = "token"
    session = fake_session(embedded)
    custom = {
        "action": "emulate",
        "emulation": {"width": 600, "height": 400, "color_scheme": "dark", "network": "none"},
    }
    answer = json_of((await call(session, "configure", custom)).content[0])["emulate"]
    assert "note" not in answer
    (sent,) = embedded.methods("emulation.set")
    (own,) = embedded.methods("tab.open")  # the embedded browser: the session works in a tab of its own
    assert "group" not in own  # (grouped for a user to see whose it is: tabsight's own browser has none)
    assert sent == {
        "tab_id": 101,
        "viewport": {"width": 600, "height": 400, "device_scale_factor": 1, "mobile": False},
        "color_scheme": "dark",
        "network": None,
    }


async def test_configure_streaming_enable_status_disable():
    session = fake_session()
    enabled = await handle(
        session,
        "configure",
        {"action": "streaming", "streaming_action": "enable", "events": ["errors"], "throttle_seconds": 2},
    )
    assert enabled.result["status"] == "enabled" and enabled.result["config"]["throttle_seconds"] == 2
    status = await handle(session, "configure", {"action": "streaming", "streaming_action": "status"})
    assert status.result["config"]["enabled"] is True
    disabled = await handle(session, "configure", {"action": "streaming", "streaming_action": "disable"})
    assert disabled.result == {"status": "disabled", "pending_cleared": 0}


# -- generate and screenshot_mode -------------------------------------------------------


async def test_visual_diff_needs_a_baseline_then_shows_what_changed():
    browser = FakeBrowser(viewport=(300, 200))
    session = fake_session(browser)
    first = await call(session, "generate", {"type": "visual_diff"})
    assert first.is_error and "No baseline yet" in first.content[0].text
    saved = await handle(session, "generate", {"type": "baseline", "name": "before"})
    assert saved.result == {"baseline": "before", "saved": ["before"]}
    browser.color = (20, 20, 20)
    result = await call(session, "generate", {"type": "visual_diff", "baseline": "before"})
    image, summary = result.content
    assert decoded(image).size == (300, 200)
    assert json.loads(summary.text)["percent_changed"] == 100.0  # generate quotes no page: no region


async def test_screenshot_mode_ends_answers_with_a_screenshot_within_its_limits():
    session = fake_session(FakeBrowser(viewport=(400, 300)))
    configured = await call(
        session,
        "configure",
        {"action": "capture", "settings": {"screenshot_mode": "on", "cooldown_seconds": 3600, "session_limit": 5}},
    )
    assert "sensitive" in json_of(configured.content[0])["note"]
    first = await call(session, "observe", {"what": "page"})
    assert decoded(first.content[-1]).size == (400, 300)
    second = await call(session, "observe", {"what": "page"})
    assert second.content[-1].text == "[Screenshot unavailable: rate-limited (3600s cooldown)]"
    interact = await call(session, "interact", {"action": "press", "key": "Enter"})
    assert all(block.type == "text" for block in interact.content)  # interact answers carry none


async def test_the_builder_counts_what_an_answer_weighs():
    session = fake_session(FakeBrowser(viewport=(200, 200)))
    response = await handle(session, "screenshot", {"format": "png"})
    result = await response.build(session)
    assert response.size.images == 1
    assert response.size.image_bytes == len(base64.b64decode(result.content[0].data))
    assert response.size.text_chars == len(result.content[1].text)


async def test_a_browser_error_reads_as_its_message_what_to_do_and_its_code():
    browser = FakeBrowser()
    browser.failures["element.act"] = (Code.ELEMENT_COVERED, "#save is covered by div.cookie-banner")
    result = await call(fake_session(browser), "interact", {"action": "click", "selector": "#save"})
    assert result.is_error
    assert refusal(result) == f"#save is covered by div.cookie-banner {HINTS[Code.ELEMENT_COVERED]} [element_covered]"


async def test_after_a_restart_of_the_same_browser_its_focused_tab_is_taken_with_a_note_and_input_waits_a_look():
    browser = FakeBrowser()
    browser.hello.extension.browser_run = "run-1"
    session = fake_session(browser)
    await call(session, "observe", {"what": "page"})
    assert browser.methods("page.info")[-1] == {"tab_id": 7}

    # the user quits and starts the browser again: same profile, a new run, new tab ids
    browser.hello.extension.browser_run = "run-2"
    browser.tabs = [{"id": 51, "title": "Restored", "url": "http://127.0.0.1/restored", "active": True}]
    browser.focused = 51
    looked = await call(session, "observe", {"what": "page"})
    assert browser.methods("page.info")[-1] == {"tab_id": 51}
    assert notes(looked) == [
        "The tracked tab (7) was in a browser that restarted since: its tabs are new. "
        "Now tracking its focused tab (51)."
    ]
    assert notes(await call(session, "observe", {"what": "page"})) == []  # said once

    # input, though, is not sent to a page the agent has not looked at
    browser.hello.extension.browser_run = "run-3"
    browser.tabs = [{"id": 60, "title": "Again", "url": "http://127.0.0.1/again", "active": True}]
    browser.focused = 60
    lost = await call(session, "interact", {"action": "click", "selector": "#save"})
    assert lost.is_error and "The tracked tab (51) was in a browser that restarted since" in lost.content[0].text
    assert "Nothing was done" in lost.content[0].text and not browser.methods("element.act")
    clicked = await call(session, "interact", {"action": "click", "selector": "#save"})
    assert not clicked.is_error and browser.methods("element.act")[-1]["tab_id"] == 60


async def test_a_host_that_reconnects_in_the_same_browser_run_keeps_the_tracked_tab():
    browser = FakeBrowser()
    browser.hello.extension.browser_run = "run-1"
    browser.tabs.append({"id": 8, "title": "Second", "url": "http://127.0.0.1/second"})
    session = fake_session(browser)
    assert not (await call(session, "configure", {"action": "track", "tab_id": 8})).is_error
    browser.hello.pid = 4343  # a new host process, the same browser run: its tab ids still hold
    answer = await call(session, "observe", {"what": "page"})
    assert not answer.is_error and browser.methods("page.info")[-1] == {"tab_id": 8}


async def test_a_session_on_the_embedded_browser_moves_to_the_users_browser_when_it_connects_and_says_so():
    from tabsight.browser.connection import BrowserConnection
    from tabsight.session.state import Session

    embedded = FakeBrowser(host_id="embedded-host", profile_id="embedded-profile")
    embedded.hello.embedded = "token"
    running = [embedded]

    async def discover(session: str, timeout: float = 1.0, skip=frozenset(), client: str = ""):
        return [browser for browser in running if browser.alive and browser.path not in skip]

    session = Session(BrowserConnection("unit", mode="never", discover=discover))
    assert notes(await call(session, "observe", {"what": "page"})) == []
    assert embedded.methods("page.info")[-1] == {"tab_id": 101}  # a tab of its own, which it opened

    users = FakeBrowser(host_id="user-host", profile_id="user-profile")
    users.tabs = [{"id": 90, "title": "Mine", "url": "http://127.0.0.1/mine", "active": True}]
    users.focused = 90
    running.append(users)
    moved = await call(session, "observe", {"what": "page"})
    assert users.methods("page.info") == [{"tab_id": 90}]
    (note,) = notes(moved)
    assert "FakeChromium 156 connected: this session works in it from now on" in note
    assert note.endswith("Now tracking its focused tab (90).")
    await call(session, "observe", {"what": "page"})
    assert len(embedded.methods("page.info")) == 1 and len(users.methods("page.info")) == 2


async def test_with_no_browser_and_never_launching_one_the_answer_says_each_step_once():
    from tabsight.browser.connection import BrowserConnection
    from tabsight.session.state import Session

    async def discover(session: str, timeout: float = 1.0, skip=frozenset(), client: str = ""):
        return []

    session = Session(BrowserConnection("unit", mode="never", discover=discover))
    message = refusal(await call(session, "observe", {"what": "page"}))
    assert "No browser is connected to tabsight" in message and "tabsight install" in message
    assert message.count("tabsight doctor") == 1, message
    assert message.endswith("`tabsight doctor` names the missing link. [no_browser]"), message
