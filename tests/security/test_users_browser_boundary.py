"""Cases 1-3 of the security boundary in the user's own headed browser (tests/harness/usersbrowser.py): the same
chrome.debugger path as tabsight's own browser, under the policy for the user's kind of browser."""

from __future__ import annotations

import json
import urllib.parse

import pytest

from conftest import users_browser
from harness.calls import payload, refusal
from tabsight.paths import extension_origin

pytestmark = [pytest.mark.anyio, pytest.mark.browser, pytest.mark.headed]

USERS_SESSION = "users-own-login-5e2b71c4"


async def test_in_the_users_browser_execute_reaches_neither_tabsights_code_nor_cookies_nor_local_files(
    desktop, site, tmp_path
):
    login = site.url("/set-cookie?" + urllib.parse.urlencode({"name": "login", "value": USERS_SESSION}))
    async with users_browser(desktop, tmp_path, login) as (client, browser):
        browser.open(site.url("/index.html"))  # the user's tab, which the agent tracks
        payload(await client.call_tool("observe", {"what": "page"}))

        async def execute(*steps, script=None):
            arguments = {"action": "execute", "cdp": list(steps), **({"script": script} if script else {})}
            return await client.call_tool("interact", arguments)

        # case 1: tabsight's own extension
        message = refusal(
            await execute({"method": "Page.navigate", "params": {"url": extension_origin() + "manifest.json"}})
        )
        assert "Page.navigate" in message and "chrome-extension:" in message
        # case 2: the user's cookies, read, planted, cleared; and a value a script hands back
        for method, params in (
            ("Network.getAllCookies", {}),
            ("Network.setCookie", {"name": "planted", "value": "x", "domain": "github.com"}),
            ("Network.clearBrowserCookies", {}),
        ):
            assert "settings file" in refusal(await execute({"method": method, "params": params}))
        answer = json.dumps(payload(await execute(script="[document.cookie, btoa(document.cookie)]")))
        assert USERS_SESSION not in answer and "[cookie value]" in answer
        # case 3: a local file, a browser page
        assert "outside the folders" in refusal(
            await client.call_tool("interact", {"action": "navigate", "url": "file:///etc/passwd"})
        )
        message = refusal(await execute({"method": "Target.createTarget", "params": {"url": "chrome://settings/"}}))
        assert "Target.createTarget" in message
        assert payload(await client.call_tool("observe", {"what": "page"}))["url"] == site.url("/index.html")
