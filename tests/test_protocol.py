"""Everything a client calls is answered, on each protocol version clients negotiate today; a cancelled
call stops, in the browser too; ``configure streaming`` says whether pushed alerts reach the client.

Raw JSON-RPC lines to a real ``python -m tabsight mcp`` (tests/harness/rawmcp.py): on 2025-06-18 and
2025-11-25 an ``initialize`` handshake, on 2026-07-28 ``server/discover`` and the per-request envelope.
Every method the spec defines at that version and the returned capabilities imply must be answered with
a result; what they do not declare, or the version removed, is -32601. The streaming tests use the
SDK's own client too, on each version it negotiates.
"""

from __future__ import annotations

import json
import time

import anyio
import pytest
from mcp_types import ResourceUpdatedNotification
from mcp_types.methods import CLIENT_REQUESTS

from conftest import front_env, mcp_client
from harness.calls import region
from harness.rawmcp import MODERN, VERSIONS, RawServer
from tabsight.server.push import ALERTS_URI

HANDSHAKE = [v for v in VERSIONS if v != MODERN]
#: a request's params, for the methods that need some
PARAMS = {
    "tools/call": {"name": "observe", "arguments": {"what": "nothing"}},  # answered as an isError result
    "resources/read": {"uri": ALERTS_URI},
    "resources/subscribe": {"uri": ALERTS_URI},
    "resources/unsubscribe": {"uri": ALERTS_URI},
    "logging/setLevel": {"level": "info"},
    "prompts/get": {"name": "any"},
    "completion/complete": {"ref": {"type": "ref/resource", "uri": ALERTS_URI}, "argument": {"name": "a", "value": ""}},
}
#: what each version's capabilities imply, beyond the handshake (initialize, server/discover)
ANSWERED = {
    "2025-06-18": {
        "ping",
        "tools/list",
        "tools/call",
        "resources/list",
        "resources/templates/list",
        "resources/read",
        "resources/subscribe",
        "resources/unsubscribe",
        "logging/setLevel",
    },
    "2026-07-28": {
        "tools/list",
        "tools/call",
        "resources/list",
        "resources/templates/list",
        "resources/read",
        "subscriptions/listen",
    },
}
ANSWERED["2025-11-25"] = ANSWERED["2025-06-18"]


def implied(version: str, capabilities: dict) -> set[str]:
    """The methods the spec defines at ``version`` that ``capabilities`` (as the server declared them) imply."""
    resources = capabilities.get("resources")
    listen = (
        resources is not None
        and resources.get("subscribe")
        or any((capabilities.get(name) or {}).get("listChanged") for name in ("tools", "resources", "prompts"))
    )
    needs = {
        "ping": True,
        "tools/": "tools" in capabilities,
        "resources/subscribe": bool(resources and resources.get("subscribe")),
        "resources/unsubscribe": bool(resources and resources.get("subscribe")),
        "resources/": resources is not None,
        "subscriptions/listen": bool(listen),
        "prompts/": "prompts" in capabilities,
        "logging/setLevel": "logging" in capabilities,
        "completion/complete": "completions" in capabilities,
    }
    methods = {method for method, at in CLIENT_REQUESTS if at == version} - {"initialize", "server/discover"}

    def needed(method: str) -> bool:
        rule = next(prefix for prefix in needs if method.startswith(prefix))  # the most precise first
        return bool(needs[rule])

    return {method for method in methods if needed(method)}


@pytest.fixture
def raw(tmp_path):
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    server = RawServer(runtime)
    yield server
    server.close()
    assert server.process.returncode == 0, "".join(server.stderr)[-2000:]


def listen(raw: RawServer, **notifications) -> int:
    """Opens a subscriptions/listen stream; its id, once the server acknowledged it."""
    request_id = raw.start("subscriptions/listen", {"notifications": notifications})
    ack = raw.wait_other(
        lambda m: (
            m.get("method") == "notifications/subscriptions/acknowledged"
            and m["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == request_id
        )
    )
    assert ack["params"]["notifications"] == notifications
    return request_id


@pytest.mark.parametrize("version", VERSIONS)
def test_every_method_the_capabilities_imply_is_answered(raw, version):
    opened = raw.open(version)
    if version == MODERN:
        assert opened["supportedVersions"] == [MODERN]
    else:
        assert opened["protocolVersion"] == version and opened["serverInfo"]["name"] == "tabsight"
    methods = implied(version, opened["capabilities"])
    assert methods == ANSWERED[version]
    for method in sorted(methods - {"subscriptions/listen"}):
        answer = raw.ask(method, PARAMS.get(method))
        assert "result" in answer, (method, answer)
    if "subscriptions/listen" in methods:
        stream = listen(raw, resourceSubscriptions=[ALERTS_URI], toolsListChanged=True)
        raw.notify("notifications/cancelled", {"requestId": stream, "reason": "done"})
    # resources: the one, readable, and no templates
    (resource,) = raw.ask("resources/list")["result"]["resources"]
    assert resource["uri"] == ALERTS_URI
    assert raw.ask("resources/templates/list")["result"]["resourceTemplates"] == []
    read = raw.ask("resources/read", {"uri": ALERTS_URI})["result"]["contents"][0]
    assert json.loads(region(read["text"])) == {"alerts": []}  # they quote their pages: a page-content region
    assert raw.ask("resources/read", {"uri": "tabsight://nothing"})["error"]["code"] == -32602


@pytest.mark.parametrize("version", VERSIONS)
def test_what_is_not_declared_or_not_in_the_version_is_method_not_found(raw, version):
    opened = raw.open(version)
    defined = {method for method, at in CLIENT_REQUESTS if at == version} - {"initialize", "server/discover"}
    for method in sorted(defined - implied(version, opened["capabilities"])):  # prompts, completion
        assert raw.ask(method, PARAMS.get(method))["error"]["code"] == -32601, method
    if version == MODERN:  # removed at 2026-07-28: ping, logging/setLevel, resources/subscribe and unsubscribe
        for method in ("ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"):
            assert raw.ask(method, PARAMS.get(method))["error"]["code"] == -32601, method


def test_an_initialize_offering_2026_07_28_is_answered_with_2025_11_25(raw):
    """2026-07-28 has no handshake: a client that offers it in initialize gets the newest handshake version."""
    answer = raw.ask(
        "initialize", {"protocolVersion": MODERN, "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}
    )
    assert answer["result"]["protocolVersion"] == "2025-11-25"


def streaming_status(raw: RawServer) -> dict:
    answer = raw.ask(
        "tools/call", {"name": "configure", "arguments": {"action": "streaming", "streaming_action": "status"}}
    )
    assert not answer["result"].get("isError"), answer
    return json.loads(region(answer["result"]["content"][0]["text"]))


def delivery(raw: RawServer) -> dict:
    return streaming_status(raw)["delivery"]


@pytest.mark.parametrize("version", HANDSHAKE)
def test_a_handshake_client_is_told_pushes_come_as_log_messages_and_resource_updates(raw, version):
    raw.open(version)
    logged = delivery(raw)
    assert logged["pushed"] and logged["via"] == ["notifications/message"] and logged["protocol"] == version
    assert "log notifications" in logged["note"] and "next observe answer as _alerts" in logged["note"]
    # a level above every alert's severity: no log message goes
    raw.ask("logging/setLevel", {"level": "critical"})
    silent = delivery(raw)
    assert not silent["pushed"] and silent["via"] == []
    assert (
        "logging/setLevel (critical)" in silent["note"]
        and "ride on your next observe answers as _alerts" in silent["note"]
    )
    raw.ask("resources/subscribe", {"uri": ALERTS_URI})
    subscribed = delivery(raw)
    assert subscribed["pushed"] and subscribed["via"] == [f"notifications/resources/updated {ALERTS_URI}"]
    raw.ask("logging/setLevel", {"level": "error"})
    both = delivery(raw)
    assert both["via"] == [f"notifications/resources/updated {ALERTS_URI}", "notifications/message"]
    assert "not below error: the client's logging/setLevel" in both["note"]
    raw.ask("resources/unsubscribe", {"uri": ALERTS_URI})
    assert delivery(raw)["via"] == ["notifications/message"]
    assert raw.ask("resources/subscribe", {"uri": "tabsight://other"})["error"]["code"] == -32602


def test_a_2026_client_is_told_pushes_reach_it_only_once_it_listens_to_the_alerts(raw):
    raw.open(MODERN)
    alone = delivery(raw)
    assert not alone["pushed"] and alone["protocol"] == MODERN
    assert f"it has not subscribed to {ALERTS_URI} (it has no subscriptions/listen stream open)" in alone["note"]
    assert "Alerts ride on your next observe answers as _alerts instead" in alone["note"]
    # what Claude Code does: listen for list changes only
    lists = listen(raw, toolsListChanged=True, resourcesListChanged=True)
    elsewhere = delivery(raw)
    assert (
        not elsewhere["pushed"]
        and "it listens (subscriptions/listen) for other notifications only" in elsewhere["note"]
    )
    alerts = listen(raw, resourceSubscriptions=[ALERTS_URI])
    heard = delivery(raw)
    assert heard["pushed"] and heard["via"] == [f"subscriptions/listen: notifications/resources/updated {ALERTS_URI}"]
    # the stream that asked for the alerts ends: pushes no longer reach the client
    raw.notify("notifications/cancelled", {"requestId": alerts, "reason": "done"})
    deadline = time.monotonic() + 5
    while delivery(raw)["pushed"]:
        assert time.monotonic() < deadline, "the cancelled listen stream still counts"
        time.sleep(0.05)
    raw.notify("notifications/cancelled", {"requestId": lists, "reason": "done"})


def test_the_end_of_stdin_waits_for_no_cancelled_request_nor_open_listen_stream(raw):
    """Neither is ever answered: the front ends at once instead of after the end-of-input grace (120 s)."""
    raw.open(MODERN)
    cancelled = listen(raw, toolsListChanged=True)
    raw.notify("notifications/cancelled", {"requestId": cancelled, "reason": "done"})
    listen(raw, resourceSubscriptions=[ALERTS_URI])
    assert "result" in raw.ask("tools/list")
    started = time.monotonic()
    raw.process.stdin.close()
    raw.process.wait(10)
    assert time.monotonic() - started < 5


# ---- through the shared browser ----


def host_requests(browser) -> dict:
    return browser.call(browser.client.status())["requests"]


def until(predicate, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while not (value := predicate()):
        assert time.monotonic() < deadline, what
        time.sleep(0.05)
    return value


@pytest.mark.browser
@pytest.mark.parametrize("version", ["2025-11-25", MODERN])
def test_a_cancelled_tool_call_stops_in_the_browser_and_frees_the_session(browser, site, version):
    raw = RawServer(env=front_env())
    try:
        raw.open(version)
        navigated = raw.ask(
            "tools/call", {"name": "interact", "arguments": {"action": "navigate", "url": site.url("/index.html")}}, 60
        )
        assert not navigated["result"].get("isError"), navigated
        before = host_requests(browser)
        waiting = raw.start(
            "tools/call",
            {"name": "interact", "arguments": {"action": "wait_for", "selector": "#never-there", "timeout": 60_000}},
        )
        until(lambda: host_requests(browser)["in_flight"] >= 1, 10, "the wait never reached the host")
        time.sleep(1)  # past the quick requests before it (which tab): the wait itself is in the browser
        assert host_requests(browser)["in_flight"] == 1 and not raw.others
        started = time.monotonic()
        raw.notify("notifications/cancelled", {"requestId": waiting, "reason": "the user pressed Esc"})
        # the session answers at once, tool calls included
        assert "result" in raw.ask("tools/list", timeout=2)
        found = raw.ask(
            "tools/call",
            {"name": "interact", "arguments": {"action": "wait_for", "selector": "body", "timeout": 5_000}},
            timeout=5,
        )
        assert not found["result"].get("isError"), found
        # the front told the host, the host the extension, and the extension stopped (it answered cancelled)
        after = until(
            lambda: (r := host_requests(browser))["cancel_confirmed"] > before["cancel_confirmed"] and r,
            5,
            "the extension never confirmed the cancel",
        )
        assert after["cancelled"] == before["cancelled"] + 1 and after["in_flight"] == 0
        assert time.monotonic() - started < 5
        # a cancelled request is never answered
        time.sleep(0.3)
        assert "result" in raw.ask("tools/list", timeout=2)
        assert not [m for m in raw.others if m.get("id") == waiting], raw.others
    finally:
        raw.close()


def ci_alert(browser, name: str) -> None:
    """An alert every front of the shared browser receives (a failed CI run: severity error)."""
    browser.call(browser.client.ci_result({"status": "failed", "name": name, "summary": "1 failed"}))


def answer_of(result) -> dict:
    assert not result.is_error, result.content[0].text
    return json.loads(region(result.content[0].text))


async def wait_for(predicate, what: str, timeout: float = 10):
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, what
        await anyio.sleep(0.05)


ENABLE = {"action": "streaming", "streaming_action": "enable", "events": ["ci"], "throttle_seconds": 1}


@pytest.mark.browser
@pytest.mark.anyio
@pytest.mark.filterwarnings("ignore:resources/subscribe is removed")
@pytest.mark.parametrize("version", HANDSHAKE)
async def test_the_sdk_client_on_the_handshake_versions_gets_the_pushes_it_is_told_of(browser, version, monkeypatch):
    # the SDK's client offers its newest handshake version: make it offer this one
    monkeypatch.setattr("mcp.client.session.LATEST_HANDSHAKE_VERSION", version)
    logged, updates = [], []

    async def on_log(params) -> None:
        logged.append(json.loads(region(params.data)))

    async def on_message(message) -> None:
        if isinstance(message, ResourceUpdatedNotification):
            updates.append(message.params.uri)

    async with mcp_client(mode="legacy", logging_callback=on_log, message_handler=on_message) as client:
        assert client.protocol_version == version
        enabled = answer_of(await client.call_tool("configure", ENABLE))
        assert enabled["status"] == "enabled"
        assert enabled["delivery"]["pushed"] and enabled["delivery"]["via"] == ["notifications/message"]
        ci_alert(browser, f"logged on {version}")
        await wait_for(lambda: logged, "no log message")
        assert logged[0]["title"] == f"logged on {version}: failed" and not updates

        await client.session.subscribe_resource(ALERTS_URI)
        status = answer_of(await client.call_tool("configure", {"action": "streaming", "streaming_action": "status"}))
        assert status["delivery"]["via"] == [f"notifications/resources/updated {ALERTS_URI}", "notifications/message"]
        await anyio.sleep(1.1)  # the throttle's window
        ci_alert(browser, f"subscribed on {version}")
        await wait_for(lambda: updates and len(logged) == 2, "no resource update")
        assert updates == [ALERTS_URI]
        content = (await client.read_resource(ALERTS_URI)).contents[0]
        assert [a["title"] for a in json.loads(region(content.text))["alerts"]][-2:] == [
            f"logged on {version}: failed",
            f"subscribed on {version}: failed",
        ]


@pytest.mark.browser
@pytest.mark.anyio
async def test_the_sdk_client_on_2026_is_told_where_pushes_do_not_reach_and_gets_them_once_it_listens(browser):
    async with mcp_client() as client:
        assert client.protocol_version == MODERN
        await client.call_tool("observe", {"what": "alerts"})  # the session has its browser, and an empty inbox
        enabled = answer_of(await client.call_tool("configure", ENABLE))
        assert not enabled["delivery"]["pushed"]
        assert f"it has not subscribed to {ALERTS_URI}" in enabled["delivery"]["note"]
        # not pushed: it rides on the next observe answer instead
        ci_alert(browser, "unheard")

        async def inbox():
            return answer_of(await client.call_tool("observe", {"what": "alerts"}))["alerts"]

        with anyio.fail_after(10):
            while not (pending := await inbox()):
                await anyio.sleep(0.1)
        assert [a["title"] for a in pending] == ["unheard: failed"]

        async with client.listen(tools_list_changed=True):
            status = answer_of(
                await client.call_tool("configure", {"action": "streaming", "streaming_action": "status"})
            )
            assert not status["delivery"]["pushed"] and "other notifications only" in status["delivery"]["note"]
        async with client.listen(resource_subscriptions=[ALERTS_URI]) as subscription:
            status = answer_of(
                await client.call_tool("configure", {"action": "streaming", "streaming_action": "status"})
            )
            assert status["delivery"]["pushed"]
            await anyio.sleep(1.1)  # the throttle's window
            ci_alert(browser, "heard")
            with anyio.fail_after(10):
                async for event in subscription:
                    assert event.uri == ALERTS_URI
                    break
        content = (await client.read_resource(ALERTS_URI)).contents[0]
        assert [a["title"] for a in json.loads(region(content.text))["alerts"]] == ["unheard: failed", "heard: failed"]
