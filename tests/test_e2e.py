"""The whole chain through a real MCP client: SDK client -> tabsight mcp -> host -> extension -> Chromium."""

from __future__ import annotations

import base64
import io
import json
import socket

import pytest
from PIL import Image

from conftest import front_env, mcp_client
from harness.calls import payload, region
from harness.usersbrowser import UsersBrowser

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

MAGIC = {"image/png": b"\x89PNG\r\n\x1a\n", "image/jpeg": b"\xff\xd8\xff", "image/webp": b"RIFF"}


def closed_port() -> int:
    """A loopback port nobody listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def test_initialize_and_tools_list_need_no_browser():
    async with mcp_client() as client:
        assert client.server_info.name == "tabsight"
        names = {tool.name for tool in (await client.list_tools()).tools}
        assert names == {"observe", "screenshot", "configure", "interact", "generate"}


async def test_navigate_observe_and_screenshot_in_every_format(browser, site):
    async with mcp_client() as client:
        nav = payload(await client.call_tool("interact", {"action": "navigate", "url": site.url("/index.html")}))
        assert nav["status"] == 200 and nav["url"] == site.url("/index.html") and nav["title"] == "tabsight test page"

        page = payload(await client.call_tool("observe", {"what": "page"}))
        assert page["title"] == "tabsight test page"
        assert page["ready_state"] == "complete"
        assert page["viewport"] == {"width": 1280, "height": 720}
        assert [h["text"] for h in page["headings"]] == ["Welcome", "Sign in"]
        assert page["forms"][0]["selector"] == "#login" and page["forms"][0]["fields"] == 2
        assert page["interactive_count"] == 4  # two inputs, the button, the link

        for fmt, mime in (("png", "image/png"), ("jpeg", "image/jpeg"), ("webp", "image/webp")):
            result = await client.call_tool("screenshot", {"format": fmt, "quality": 70})
            assert not result.is_error, result.content[0].text
            block = result.content[0]
            assert block.type == "image" and block.mime_type == mime
            data = base64.b64decode(block.data)
            assert data.startswith(MAGIC[mime])
            img = Image.open(io.BytesIO(data))
            assert img.format.lower() == fmt and img.size == (1280, 720)
            # the page's yellow background is what was captured
            r, g, b = img.convert("RGB").getpixel((1200, 600))
            assert r > 230 and 180 < g < 230 and b < 40
            meta = json.loads(region(result.content[1].text))["metadata"]
            assert (meta["width"], meta["height"]) == (1280, 720)
            assert meta["url"] == site.url("/index.html")
            assert meta["viewport"] == {"width": 1280, "height": 720}


async def test_navigate_reports_http_status_and_failures(browser, site):
    async with mcp_client() as client:
        missing = payload(await client.call_tool("interact", {"action": "navigate", "url": site.url("/status/404")}))
        assert missing["status"] == 404 and missing["title"] == "Status 404"
        refused = await client.call_tool(
            "interact", {"action": "navigate", "url": f"http://127.0.0.1:{closed_port()}/"}
        )
        assert refused.is_error and "ERR_CONNECTION_REFUSED" in refused.content[0].text
        slow = await client.call_tool(
            "interact", {"action": "navigate", "url": site.url("/slow?ms=4000"), "timeout": 1000}
        )
        assert slow.is_error and "timeout" in slow.content[0].text.lower()


async def test_tabs_and_track(browser, site):
    async with mcp_client() as client:
        await client.call_tool("interact", {"action": "navigate", "url": site.url("/other.html")})
        listing = payload(await client.call_tool("observe", {"what": "tabs"}))
        (only,) = listing["browsers"]
        assert only["embedded"] is True
        tracked = [tab for tab in only["tabs"] if tab.get("tracked")]
        assert len(tracked) == 1 and tracked[0]["title"] == "Other page"

        chosen = payload(await client.call_tool("configure", {"action": "track", "tab_id": tracked[0]["id"]}))
        assert chosen["tracked"]["tab_id"] == tracked[0]["id"] and chosen["tracked"]["browser"] == only["browser"]

        missing = await client.call_tool("configure", {"action": "track", "tab_id": 987654})
        assert missing.is_error and "No tab with id 987654" in missing.content[0].text


async def test_browser_internal_pages_are_refused_clearly(browser, tmp_path):
    async with mcp_client() as client:
        # agents are not sent to browser internals...
        nav = await client.call_tool("interact", {"action": "navigate", "url": "chrome://version"})
        assert nav.is_error and "'url' is 'chrome://version'" in nav.content[0].text
    # ...but a user's tab may be on one (the user opened it: no navigation of tabsight's goes there): looking at it
    # gets a clear refusal
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    users = UsersBrowser(None, tmp_path / "profile", runtime)
    users.start("chrome://version")
    try:
        async with mcp_client(front_env(TABSIGHT_BROWSER="never", TABSIGHT_RUNTIME_DIR=str(runtime))) as client:
            await users_tab_is_internal(client)
    finally:
        users.quit()


async def users_tab_is_internal(client) -> None:
    """What an agent meets on a user's tab that shows a browser page: a clear refusal of each look."""
    shot = await client.call_tool("screenshot", {})
    assert shot.is_error and "Cannot capture screenshots of browser internal pages" in shot.content[0].text
    page = await client.call_tool("observe", {"what": "page"})
    assert page.is_error and "browser internal pages" in page.content[0].text
    marked = await client.call_tool(
        "observe", {"what": "page", "annotate_screenshot": True, "annotation_format": "json"}
    )
    assert marked.is_error and "Cannot capture screenshots of browser internal pages" in marked.content[0].text

    # about:blank can be captured but not scripted: said plainly, not in Chrome's words
    payload(await client.call_tool("interact", {"action": "navigate", "url": "about:blank"}))
    assert not (await client.call_tool("screenshot", {})).is_error
    blank = await client.call_tool("observe", {"what": "page"})
    assert blank.is_error and "navigate the tab to a web page first" in blank.content[0].text
