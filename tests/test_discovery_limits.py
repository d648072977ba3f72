"""Discovery at its limits (issue 30): a page with 10,000 controls, shadow roots nested 30 deep and a frame of
another origin answers an annotated observe, with what it left out said in ``left_out``; never a hang.

tests/pages/discovery-limits.html: the frame (from 127.0.0.1, the page from localhost: another origin), a
button in each of 30 nested shadow roots, then 10,000 buttons.
"""

from __future__ import annotations

import pytest

from conftest import mcp_client
from harness.calls import payload

pytestmark = [pytest.mark.anyio, pytest.mark.browser]


async def test_a_huge_deep_page_with_a_cross_origin_frame_answers_and_says_what_it_left_out(browser, site):
    # the page from localhost, its frame from 127.0.0.1: another origin
    frame = site.url("/other.html")
    page = site.url("/discovery-limits.html").replace("127.0.0.1", "localhost") + f"?frame={frame}"
    async with mcp_client(read_timeout_seconds=60) as client:
        payload(await client.call_tool("interact", {"action": "navigate", "url": page}))
        observed = payload(
            await client.call_tool(
                "observe",
                {"what": "page", "annotate_screenshot": True, "annotation_format": "json", "max_annotations": 100},
            )
        )
        names = [mark.get("name") for mark in observed["annotations"]]
        # every level of the nested shadow roots is looked into, the innermost too
        assert {f"deep {level}" for level in range(30)} <= set(names), names
        assert "control 0" in names
        # the thousands below the viewport are counted, the nearest listed
        below = observed["outside_viewport"]["below"]
        assert below["count"] > 9000 and below["elements"][0]["name"].startswith("control ")
        assert any("1 cross-origin frame" in note for note in observed.get("left_out", [])), observed.get("left_out")
        # and a label of that answer acts on its element
        control = next(mark for mark in observed["annotations"] if mark.get("name") == "control 0")
        payload(await client.call_tool("interact", {"action": "click", "label": control["label"]}))
        script = "return document.querySelector('#many button').dataset.clicked"
        done = payload(await client.call_tool("interact", {"action": "execute", "script": script}))
        assert done["script"]["result"] == "1"
