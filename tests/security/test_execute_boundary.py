"""Cases 1-3 of the security boundary, as a page could talk an agent into them: `execute`'s CDP steps and every
navigation pass one policy (extension/service-worker/cdp-policy.js), cookie values stay out of answers unless the
user's settings file allows them (host/tabsight/settings.py). Each through the SDK client on the real headless
Chromium."""

from __future__ import annotations

import base64
import json
import os
import urllib.parse

import anyio
import pytest

from conftest import mcp_client
from harness.calls import payload, refusal, text_of
from harness.remote import settings_file
from tabsight.paths import extension_origin
from tabsight.settings import settings_path

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

HTTPONLY_VALUE = "HttpOnlySessionValue-7f3a9c2e"
SCRIPT_VALUE = "ScriptVisibleValue-4d81b0aa"


async def execute(client, *steps: dict, script: str | None = None):
    arguments: dict = {"action": "execute", "cdp": list(steps)}
    if script is not None:
        arguments["script"] = script
    return await client.call_tool("interact", arguments)


async def tab_count(client) -> int:
    listing = payload(await client.call_tool("observe", {"what": "tabs"}))
    return sum(len(browser["tabs"]) for browser in listing["browsers"])


@pytest.fixture
async def on_site(browser, site):
    """A client whose tracked tab shows the loopback site, with a HttpOnly and a script-visible cookie set."""
    async with mcp_client() as client:
        for name, value, httponly in (("sid", HTTPONLY_VALUE, "1"), ("pref", SCRIPT_VALUE, "")):
            query = urllib.parse.urlencode({"name": name, "value": value, "httponly": httponly})
            payload(await client.call_tool("interact", {"action": "navigate", "url": site.url(f"/set-cookie?{query}")}))
        payload(await client.call_tool("interact", {"action": "navigate", "url": site.url("/index.html")}))
        yield client
        for name in ("sid", "pref"):  # the browser is shared with the other tests
            query = urllib.parse.urlencode({"name": name, "value": "", "max_age": 0})
            await client.call_tool("interact", {"action": "navigate", "url": site.url(f"/set-cookie?{query}")})


def user_settings(content: dict):
    """The user's settings file, as they would write it (0600), for the test's length; any earlier one put back."""
    return settings_file(settings_path(), content)


# -- case 1: code in tabsight's own extension -----------------------------------------------------------------


async def test_a_cdp_navigation_to_tabsights_own_extension_is_refused(on_site):
    url = extension_origin() + "manifest.json"
    message = refusal(
        await execute(
            on_site,
            {"method": "Page.navigate", "params": {"url": url}},
            {"method": "Runtime.evaluate", "params": {"expression": "typeof chrome.debugger"}},
        )
    )
    assert "cdp[0] Page.navigate" in message and "chrome-extension:" in message
    assert payload(await on_site.call_tool("observe", {"what": "page"}))["url"].startswith("http://127.0.0.1")


async def test_steps_in_another_execution_context_or_target_are_refused(on_site):
    for step, named in (
        ({"method": "Runtime.evaluate", "params": {"expression": "1", "contextId": 2}}, "execution context"),
        ({"method": "Target.attachToTarget", "params": {"targetId": "x"}}, "reaches past the page"),
        (
            {"method": "Target.setAutoAttach", "params": {"autoAttach": True, "waitForDebuggerOnStart": False}},
            "reaches past the page",
        ),
        ({"method": "Debugger.enable", "params": {}}, "reaches past the page"),
    ):
        message = refusal(await execute(on_site, step))
        assert step["method"] in message and named in message, message


# -- case 2: every site's cookies ----------------------------------------------------------------------------


async def test_reading_and_writing_cookies_through_cdp_is_refused(on_site):
    for method, params in (
        ("Network.getAllCookies", {}),
        ("Storage.getCookies", {}),
        ("Network.getCookies", {}),
        ("Network.setCookie", {"name": "planted", "value": "x", "domain": ".example.com"}),
        ("Storage.setCookies", {"cookies": [{"name": "planted", "value": "x", "domain": "github.com"}]}),
        ("Network.clearBrowserCookies", {}),
    ):
        message = refusal(await execute(on_site, {"method": method, "params": params}))
        assert method in message and "settings file" in message, message
    # nothing was cleared: the page's own cookie is still there
    assert "pref=" in text_of(await execute(on_site, script="document.cookie"))


async def test_a_cookie_value_a_script_returns_is_masked_in_every_encoding(on_site):
    script = (
        "[document.cookie, encodeURIComponent(document.cookie), btoa(document.cookie), "
        "btoa('x' + document.cookie), btoa('xy' + document.cookie)]"
    )
    answer = payload(
        await execute(
            on_site,
            {"method": "Runtime.evaluate", "params": {"expression": script, "returnByValue": True}},
            script=script,
        )
    )
    text = json.dumps(answer)
    assert "[cookie value]" in text
    for form in (SCRIPT_VALUE, SCRIPT_VALUE[2:], base64.b64encode(SCRIPT_VALUE.encode()).decode()[:16]):
        assert form not in text, form
    assert HTTPONLY_VALUE not in text


async def test_the_users_settings_file_allows_reading_and_writing_cookies_of_the_tabs_site_only(on_site, site):
    with user_settings({"embedded_browser": {"read_cookies": True, "write_cookies": True}}):
        read = payload(await execute(on_site, {"method": "Network.getCookies", "params": {"urls": [site.url("/")]}}))
        assert HTTPONLY_VALUE in json.dumps(read)
        own = {"name": "written", "value": "by-the-agent", "url": site.url("/")}
        assert "error" not in payload(await execute(on_site, {"method": "Network.setCookie", "params": own}))["cdp"][0]
        foreign = {"name": "planted", "value": "x", "domain": ".example.com"}
        assert "another site" in refusal(await execute(on_site, {"method": "Network.setCookie", "params": foreign}))
        await execute(on_site, {"method": "Network.deleteCookies", "params": {"name": "written", "url": site.url("/")}})
    # a file others may read does not count
    with user_settings({"embedded_browser": {"read_cookies": True}}) as path:
        os.chmod(path, 0o644)
        assert "settings file" in refusal(await execute(on_site, {"method": "Network.getAllCookies", "params": {}}))


# -- case 3: any local file, browser pages -------------------------------------------------------------------


async def test_no_way_to_a_local_file_outside_the_allowed_folders(on_site):
    before = await tab_count(on_site)
    assert "outside the folders" in refusal(
        await on_site.call_tool("interact", {"action": "navigate", "url": "file:///etc/passwd"})
    )
    assert "outside the folders" in refusal(
        await on_site.call_tool("interact", {"action": "open_tab", "url": "file:///etc/passwd"})
    )
    assert "outside the folders" in refusal(
        await execute(on_site, {"method": "Page.navigate", "params": {"url": "file:///etc/passwd"}})
    )
    for url in ("file:///etc/passwd", "chrome://settings/"):
        message = refusal(await execute(on_site, {"method": "Target.createTarget", "params": {"url": url}}))
        assert "Target.createTarget" in message
    assert await tab_count(on_site) == before
    answer = payload(await on_site.call_tool("observe", {"what": "page"}))
    assert answer["url"].startswith("http://127.0.0.1"), answer


async def test_a_page_script_that_leaves_for_a_local_file_is_stopped(on_site):
    # a page under the working folder (an allowed one) that sends its tab to /etc/passwd
    page = os.path.join(os.getcwd(), "tests", "pages", "index.html")
    payload(await on_site.call_tool("interact", {"action": "navigate", "url": f"file://{page}"}))
    message = refusal(
        await execute(
            on_site,
            {"method": "Runtime.evaluate", "params": {"expression": "document.body.innerText"}},
            script="location.href = 'file:///etc/passwd'; await new Promise(r => setTimeout(r, 500))",
        )
    )
    assert "about:blank" in message and "root:" not in message
    listing = payload(await on_site.call_tool("observe", {"what": "tabs"}))
    tracked = [tab for browser in listing["browsers"] for tab in browser["tabs"] if tab.get("tracked")]
    assert [tab["url"] for tab in tracked] == ["about:blank"], listing


async def test_a_local_page_that_leaves_for_a_local_file_later_is_stopped_too(on_site):
    # its own timer, which runs after execute's call has ended: no call is there to check it
    page = os.path.join(os.getcwd(), "tests", "pages", "index.html")
    payload(await on_site.call_tool("interact", {"action": "navigate", "url": f"file://{page}"}))
    later = "setTimeout(() => { location.href = 'file:///etc/passwd'; }, 300); return 'set'"
    assert payload(await execute(on_site, script=later))["script"]["result"] == "set"
    await anyio.sleep(2)
    listing = payload(await on_site.call_tool("observe", {"what": "tabs"}))
    tracked = [tab for browser in listing["browsers"] for tab in browser["tabs"] if tab.get("tracked")]
    assert [tab["url"] for tab in tracked] == ["about:blank"], listing
