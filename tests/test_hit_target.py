"""interact acts on the element it names: the hit target is checked before the press, and the page's
own record of what received the click must agree with the answer.

Pages in tests/pages/hostile-pages/: buttons that trade places when the pointer moves or presses,
an overlay that appears on hover, targets in an open shadow root, in a same-origin iframe, and under
their label. Each page keeps in ``window.record`` what each element really received.
"""

from __future__ import annotations

import re
import statistics
import time

import pytest

from conftest import mcp_client
from harness.calls import payload, refusal
from tabsight.errors import HINTS, Code

pytestmark = [pytest.mark.anyio, pytest.mark.browser]


async def goto(client, site, page: str) -> None:
    payload(await client.call_tool("interact", {"action": "navigate", "url": site.url(f"/hostile-pages/{page}")}))


async def recorded(client, frame: bool = False) -> dict:
    """What the page's elements really received (its window.record, or its frame's)."""
    where = "document.getElementById('frame').contentWindow" if frame else "window"
    result = payload(await client.call_tool("interact", {"action": "execute", "script": f"return {where}.record"}))
    return result["script"]["result"]


async def act(client, **arguments):
    return await client.call_tool("interact", arguments)


async def test_buttons_that_swap_on_the_first_move_click_the_named_one(browser, site):
    async with mcp_client() as client:
        for target in ({"selector": "#save"}, {"label": None}):
            await goto(client, site, "swap-on-move.html")
            if "label" in target:
                observed = payload(
                    await client.call_tool(
                        "observe", {"what": "page", "annotate_screenshot": True, "annotation_format": "json"}
                    )
                )
                (save,) = [a["label"] for a in observed["annotations"] if a["name"] == "Save"]
                target = {"label": save}
            clicked = payload(await act(client, action="click", **target))
            assert clicked["target"]["name"] == "Save"
            assert (
                clicked["did"]
                == 'click at (320, 120) (located it again: at (160, 120) the page had put <button#delete> "Delete")'
            )
            record = await recorded(client)
            assert record["clicks"] == ["save"] and "delete" not in record["ups"], record
            assert record["swaps"] == 1


@pytest.mark.parametrize("delay", [0, 2, 5, 10, 30])
async def test_buttons_that_swap_a_moment_after_the_move_never_click_delete(browser, site, delay):
    """The swap comes from a timer: before the check, between the check and the press, or after the
    click. Whichever it is, Save is clicked once and Delete never gets a release or a click."""
    async with mcp_client() as client:
        await goto(client, site, f"swap-on-move.html?delay={delay}")
        clicked = payload(await act(client, action="click", selector="#save"))
        assert clicked["target"]["name"] == "Save"
        record = await recorded(client)
        assert record["clicks"] == ["save"] and "delete" not in record["ups"], (record, clicked["did"])


async def test_buttons_that_swap_on_every_move_are_refused_naming_what_is_there(browser, site):
    async with mcp_client() as client:
        await goto(client, site, "swap-on-move.html?swap=always")
        message = refusal(await act(client, action="click", selector="#save"))
        assert "#save" in message and '<button#delete> "Delete"' in message, message
        assert HINTS[Code.ELEMENT_COVERED] in message
        record = await recorded(client)
        assert record["clicks"] == [] and record["ups"] == [], record


@pytest.mark.parametrize("event", ["pointerdown", "mousedown"])
async def test_buttons_that_swap_on_the_first_press_click_the_named_one(browser, site, event):
    async with mcp_client() as client:
        await goto(client, site, f"swap-on-down.html?on={event}")
        clicked = payload(await act(client, action="click", selector="#save"))
        assert clicked["target"]["name"] == "Save"
        record = await recorded(client)
        # the first press moved Save away: its release (on Delete) was held back, then Save was pressed again
        assert record["clicks"] == ["save"] and "delete" not in record["ups"], record


async def test_buttons_that_swap_on_every_press_are_refused_and_delete_never_fires(browser, site):
    async with mcp_client() as client:
        await goto(client, site, "swap-on-down.html?swap=always")
        message = refusal(await act(client, action="click", selector="#save"))
        assert '<button#delete> "Delete"' in message and "as it was pressed" in message, message
        record = await recorded(client)
        assert record["clicks"] == [] and "delete" not in record["ups"], record


async def test_an_overlay_that_appears_on_hover_is_never_clicked(browser, site):
    async with mcp_client() as client:
        await goto(client, site, "hover-overlay.html")
        message = refusal(await act(client, action="click", selector="#save"))
        assert '<div#veil.full> "Subscribe!"' in message, message
        record = await recorded(client)
        assert record["hovers"] == ["save"] and record["clicks"] == [], record

        # an overlay over its middle only: a corner of Save is still there to click
        await goto(client, site, "hover-overlay.html?cover=part")
        clicked = payload(await act(client, action="click", selector="#save"))
        assert clicked["target"]["name"] == "Save"
        assert (await recorded(client))["clicks"] == ["save"]


async def test_a_swap_inside_an_open_shadow_root(browser, site):
    async with mcp_client() as client:
        await goto(client, site, "shadow-target.html")
        clicked = payload(await act(client, action="click", selector="#pair >>> #save"))
        assert clicked["target"]["name"] == "Save"
        record = await recorded(client)
        assert record["clicks"] == ["save"] and "delete" not in record["ups"], record

        await goto(client, site, "shadow-target.html?swap=always")
        message = refusal(await act(client, action="click", selector="#pair >>> #save"))
        assert "Delete" in message, message
        assert (await recorded(client))["clicks"] == []


@pytest.mark.parametrize("page", ["swap-on-move.html", "swap-on-down.html"])
async def test_a_swap_inside_a_same_origin_frame(browser, site, page):
    async with mcp_client() as client:
        await goto(client, site, f"frame-swap.html?page={page}")
        await client.call_tool("interact", {"action": "wait_for", "selector": "#frame >>> #delete"})
        clicked = payload(await act(client, action="click", selector="#frame >>> #save"))
        assert clicked["target"]["name"] == "Save"
        record = await recorded(client, frame=True)
        assert record["clicks"] == ["save"] and "delete" not in record["ups"], record

        await goto(client, site, f"frame-swap.html?page={page}&swap=always")
        await client.call_tool("interact", {"action": "wait_for", "selector": "#frame >>> #delete"})
        message = refusal(await act(client, action="click", selector="#frame >>> #save"))
        assert '<button#delete> "Delete"' in message, message
        record = await recorded(client, frame=True)
        assert record["clicks"] == [] and "delete" not in record["ups"], record


async def test_a_checkbox_under_its_label_counts_as_hit(browser, site):
    async with mcp_client() as client:
        await goto(client, site, "label-target.html")
        clicked = payload(await act(client, action="click", selector="#agree"))
        assert clicked["target"]["role"] == "checkbox" and clicked["target"]["name"] == "I agree"
        assert (await recorded(client))["changes"] == [True]


async def test_hover_checks_the_hit_target_after_moving(browser, site):
    async with mcp_client() as client:
        await goto(client, site, "swap-on-move.html")
        hovered = payload(await act(client, action="hover", selector="#save"))
        assert hovered["target"]["name"] == "Save" and "located it again" in hovered["did"]
        record = await recorded(client)
        assert record["hovers"][-1] == "save" and record["clicks"] == [], record

        await goto(client, site, "swap-on-move.html?swap=always")
        message = refusal(await act(client, action="hover", selector="#save"))
        assert '<button#delete> "Delete"' in message, message

        await goto(client, site, "hover-overlay.html")
        message = refusal(await act(client, action="hover", selector="#save"))
        assert '<div#veil.full> "Subscribe!"' in message, message


async def test_a_click_at_a_point_names_what_received_it(browser, site):
    async with mcp_client() as client:
        await goto(client, site, "swap-on-move.html?swap=never")
        clicked = payload(await act(client, action="click", x=160, y=120))
        assert clicked["target"] is None and clicked["received"]["name"] == "Save"
        assert (await recorded(client))["clicks"] == ["save"]


async def test_a_quiet_page_is_clicked_at_once_and_its_hover_handlers_run(browser, site):
    """The guard stops only what would reach another element: entering the buttons' bar (an ancestor of
    the target) is the page's to see, and a page that moves nothing is clicked on the first try."""
    async with mcp_client() as client:
        await goto(client, site, "swap-on-move.html?swap=never")
        clicked = payload(await act(client, action="click", selector="#save"))
        assert clicked["did"] == "click at (160, 120)" and clicked["target"]["name"] == "Save"
        hovered = payload(await act(client, action="hover", selector="#delete"))
        assert hovered["did"] == "hover at (320, 120)" and hovered["target"]["name"] == "Delete"
        record = await recorded(client)
        assert record["clicks"] == ["save"] and record["enters"] == ["bar"] and record["hovers"] == ["save", "delete"]


async def test_latency_of_a_click(browser, site):
    """Not a limit: prints what a click costs on a quiet page (the hit-target check's share is in the report)."""
    async with mcp_client() as client:
        await goto(client, site, "swap-on-move.html?swap=never")
        times = []
        for _ in range(15):
            started = time.perf_counter()
            payload(await act(client, action="click", selector="#save"))
            times.append((time.perf_counter() - started) * 1000)
        record = await recorded(client)
        assert record["clicks"] == ["save"] * 15
        print(f"\nclick by selector: median {statistics.median(times):.1f} ms, min {min(times):.1f} ms")


async def test_a_delete_button_that_removes_its_own_row_is_one_successful_click(browser, site):
    # the next row slides under the pointer as the click lands: its mouseover is the page's answer to
    # the click, not a miss; before, the guard counted it as one, answered an error and clicked again,
    # deleting the next row too
    async with mcp_client() as client:
        for target in ({"selector": "tbody > tr:nth-of-type(2) > td > button"}, {"label": None}):
            await goto(client, site, "delete-own-row.html")
            if "label" in target:
                observed = payload(
                    await client.call_tool(
                        "observe", {"what": "page", "annotate_screenshot": True, "annotation_format": "json"}
                    )
                )
                target = {"label": [a["label"] for a in observed["annotations"] if a["name"] == "Delete"][1]}
            clicked = payload(await act(client, action="click", **target))
            assert clicked["did"].startswith("click at") and "located it again" not in clicked["did"]
            assert (await recorded(client))["deleted"] == ["Bucket"]


async def test_an_option_picked_on_its_press_is_answered_as_pressed_not_refused_as_stale(browser, site):
    """choices.js and react-select pick an option on its mousedown and remove the list at once. Before: the
    click's release found the option gone, was held back, and the click was tried again on a label that no longer
    was: 'stale', though the page had picked the option. Now the answer says the press reached the option and the
    page removed it then; nothing else got the release or a click, and the option was picked once."""
    async with mcp_client() as client:
        await goto(client, site, "pick-on-down.html")
        payload(await act(client, action="click", selector="#shown"))
        look = await client.call_tool("observe", {"what": "page", "annotate_screenshot": True, "image": False})
        cygnus = int(re.search(r'(\d+) option "Cygnus"', look.content[0].text)[1])
        clicked = payload(await act(client, action="click", label=cygnus))
        assert "the page removed it as it was pressed" in clicked["did"], clicked
        record = await recorded(client)
        assert record == {"picked": ["Cygnus"], "ups": [], "clicks": []}, record
