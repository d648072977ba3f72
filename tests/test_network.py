"""observe network: every request of a tab, and one request's redacted headers and bodies, through the real
chain (a headless Chromium with the extension, the host, a front through the MCP SDK's client)."""

from __future__ import annotations

import base64
import json

import pytest

from conftest import mcp_client
from harness.calls import payload
from loopback_site import BINARY
from test_telemetry import navigate, until

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

SECRETS = ("SECRETQUERY1", "SECRETAUTH12345", "SECRETAPIKEY123", "SECRETPASSWORD1", "SECRET-ECHO")

#: requests made from the page while tabsight runs the script (so with its debugger attached)
REQUESTS = """
const post = await fetch('/echo?token=SECRETQUERY1', {
  method: 'POST',
  headers: {Authorization: 'Bearer SECRETAUTH12345', 'X-Api-Key': 'SECRETAPIKEY123',
            'Content-Type': 'application/json'},
  body: JSON.stringify({password: 'SECRETPASSWORD1', note: 'hello'}),
});
await post.text();
await (await fetch('/text?chars=30000')).text();
await (await fetch('/binary')).arrayBuffer();
await fetch('/status/404');
const image = new Image();
image.src = '/binary?as=image';
await image.decode().catch(() => {});
return 'done';
"""


async def requests_after(client, since: int, paths: list[str], **query) -> dict[str, dict]:
    """The tab's requests after cursor ``since``, by path and query, once all of ``paths`` are there."""

    async def listed():
        found = payload(
            await client.call_tool(
                "observe", {"what": "network", "requests": "all", "since": since, "limit": 200, **query}
            )
        )
        by_path = {item["url"].split("127.0.0.1", 1)[1].split("/", 1)[1]: item for item in found["items"]}
        return by_path if all(path in by_path for path in paths) else None

    found = await until(listed)
    assert found, f"not all of {paths} were listed"
    return found


async def detail(client, request_id: int, **arguments) -> dict:
    answer = payload(await client.call_tool("observe", {"what": "network", "request_id": request_id, **arguments}))
    return answer["request"]


async def test_every_request_is_listed_and_one_request_gives_its_redacted_headers_and_bodies(browser, site):
    async with mcp_client() as client:
        await navigate(client, site.url("/index.html"))
        since = payload(await client.call_tool("observe", {"what": "network", "limit": 1}))["cursor"]
        ran = payload(await client.call_tool("interact", {"action": "execute", "script": REQUESTS}))
        assert ran["script"]["result"] == "done", ran

        paths = ["echo?token=[REDACTED]", "text?chars=30000", "binary", "status/404", "binary?as=image"]
        listed = await requests_after(client, since, paths)
        echo, text, binary, missing, image = (listed[path] for path in paths)
        assert (echo["method"], echo["status"], echo["resource_type"]) == ("POST", 200, "xmlhttprequest")
        posted = len(json.dumps({"password": "SECRETPASSWORD1", "note": "hello"}, separators=(",", ":")))
        echo_answer = {"received": posted, "access_token": "SECRET-ECHO-TOKEN-1234", "ok": True}
        assert echo["size"] == len(json.dumps(echo_answer)) and echo["duration_ms"] >= 0
        assert (text["method"], text["status"], text["size"]) == ("GET", 200, 30000)
        assert (binary["size"], missing["status"], image["resource_type"]) == (len(BINARY), 404, "image")
        assert len({item["id"] for item in listed.values()}) == len(listed)

        # by default, as before: only what failed
        failed = payload(await client.call_tool("observe", {"what": "network", "since": since}))["items"]
        assert [item["url"].rsplit("/", 2)[-2:] for item in failed] == [["status", "404"]]
        assert failed[0]["id"] == missing["id"]

        sent = await detail(client, echo["id"])
        assert (sent["method"], sent["status"], sent["state"]) == ("POST", 200, "complete")
        assert sent["url"].endswith("/echo?token=[REDACTED]")
        assert "Authorization: [REDACTED]" in sent["request_headers"]
        assert "X-Api-Key: [REDACTED]" in sent["request_headers"]
        assert "Content-Type: application/json" in sent["request_headers"]
        assert "Set-Cookie: [REDACTED]" in sent["response_headers"]
        assert "Content-Type: application/json" in sent["response_headers"]
        assert json.loads(sent["request_body"]["content"]) == {"password": "[REDACTED]", "note": "hello"}
        answered = sent["response_body"]
        assert answered["mime_type"] == "application/json"
        assert json.loads(answered["content"]) == {"received": posted, "access_token": "[REDACTED]", "ok": True}
        assert not any(secret in json.dumps(sent) for secret in SECRETS)

        # only what was asked for; a text body cut at max_body_chars, with its full length
        cut = await detail(client, text["id"], include=["response_body"], max_body_chars=1000)
        assert not {"request_headers", "response_headers", "request_body"} & set(cut)
        assert cut["response_body"]["chars"] == 30000
        assert cut["response_body"]["content"] == "x" * 1000 + "… [truncated: 30000 chars]"

        # a binary body: its type and size, and its bytes only when asked for
        shown = (await detail(client, binary["id"], include=["response_body"]))["response_body"]
        assert shown["mime_type"] == "image/png" and shown["bytes"] == len(BINARY)
        assert "base64" not in shown and "binary_bodies" in shown["note"]
        asked = (await detail(client, binary["id"], include=["response_body"], binary_bodies=True))["response_body"]
        assert base64.b64decode(asked["base64"]) == BINARY
        capped = (
            await detail(client, binary["id"], include=["response_body"], binary_bodies=True, max_body_chars=100)
        )["response_body"]
        assert base64.b64decode(capped["base64"]) == BINARY[:75] and "cut" in capped

        # a GET has no body; an image's response body is not kept, and the answer says why
        pictured = await detail(client, image["id"], include=["request_body", "response_body"])
        assert pictured["request_body"] == "none"
        assert "documents, fetch and XHR only" in pictured["response_body"]["note"]


async def test_a_page_loaded_by_navigate_keeps_its_document_and_an_unknown_id_is_named(browser, site):
    async with mcp_client() as client:
        since = payload(await client.call_tool("observe", {"what": "network", "limit": 1}))["cursor"]
        await navigate(client, site.url("/form.html?session=SECRETQUERY1"))
        (page,) = (await requests_after(client, since, ["form.html?session=[REDACTED]"])).values()
        assert page["resource_type"] == "main_frame" and page["status"] == 200
        document = await detail(client, page["id"], include=["response_body"])
        assert document["response_body"]["mime_type"] == "text/html"
        assert "<form" in document["response_body"]["content"]

        result = await client.call_tool("observe", {"what": "network", "request_id": 10**12})
        assert result.is_error
        assert "Request 1000000000000 is not known on tab" in result.content[0].text


async def test_a_hundred_requests_list_in_one_answer(browser, site):
    async with mcp_client() as client:
        await navigate(client, site.url("/index.html"))
        since = payload(await client.call_tool("observe", {"what": "network", "limit": 1}))["cursor"]
        script = "await Promise.all([...Array(100).keys()].map((n) => fetch(`/text?chars=10&n=${n}`))); return 1;"
        assert (
            payload(await client.call_tool("interact", {"action": "execute", "script": script}))["script"]["result"]
            == 1
        )
        paths = [f"text?chars=10&n={n}" for n in range(100)]
        await requests_after(client, since, paths)
        result = await client.call_tool(
            "observe", {"what": "network", "requests": "all", "since": since, "limit": 100, "url": "/text?chars=10&n="}
        )
        items = payload(result)["items"]
        assert len(items) == 100 and all(item["status"] == 200 and item["size"] == 10 for item in items)
        print(f"100 requests: {len(result.content[0].text)} characters")


#: a page script that reads one endpoint's whole body, as an agent's probe does
READ_ONE = "return (await (await fetch('/text?chars=33000&n={n}')).text()).length;"
#: ...and one more request the page starts 200 ms after the script has returned
LATER = "setTimeout(() => fetch('/text?chars=33000&n={n}').then((answer) => answer.text()), 200);"


async def kept_bodies(client, since: int, numbers: range) -> int:
    """How many of the requests for /text?chars=33000&n=... kept their whole response body."""
    listed = await requests_after(client, since, [f"text?chars=33000&n={n}" for n in numbers])
    kept = 0
    for n in numbers:
        body = (
            await detail(client, listed[f"text?chars=33000&n={n}"]["id"], include=["response_body"], max_body_chars=100)
        )["response_body"]
        kept += body.get("chars") == 33000 and body["content"].startswith("x" * 100)
    return kept


async def test_the_bodies_of_requests_a_script_makes_in_execute_and_just_after_are_kept(browser, site):
    # Each request finishes while tabsight holds the tab (the script, then the idle time after): its body is
    # read before the debugger lets go, however soon after the script the attachment would go.
    async with mcp_client() as client:
        await navigate(client, site.url("/index.html"))
        since = payload(await client.call_tool("observe", {"what": "network", "limit": 1}))["cursor"]
        for n in range(10):  # one request per call, its body read by the script: the last thing it does
            ran = payload(await client.call_tool("interact", {"action": "execute", "script": READ_ONE.format(n=n)}))
            assert ran["script"]["result"] == 33000, ran
        together = (
            "const texts = await Promise.all([...Array(10).keys()].map((k) => "
            "fetch(`/text?chars=33000&n=${k + 10}`).then((answer) => answer.text())));\n"
            + LATER.format(n=20)
            + "\nreturn texts.map((text) => text.length);"
        )
        ran = payload(await client.call_tool("interact", {"action": "execute", "script": together}))
        assert ran["script"]["result"] == [33000] * 10, ran
        kept = await kept_bodies(client, since, range(21))
        print(f"execute: {kept} of 21 response bodies kept")
        assert kept == 21


async def test_the_bodies_of_requests_around_execute_cdp_steps_are_kept(browser, site):
    # CDP steps' attachment is dropped at once (what they switched on must not outlive the call), after the
    # body reads it holds; a clean one is made for the idle time after, as any action has.
    async with mcp_client() as client:
        await navigate(client, site.url("/index.html"))
        since = payload(await client.call_tool("observe", {"what": "network", "limit": 1}))["cursor"]
        script = LATER.format(n=31) + "\n" + READ_ONE.format(n=30)
        ran = payload(
            await client.call_tool(
                "interact", {"action": "execute", "script": script, "cdp": [{"method": "Page.getLayoutMetrics"}]}
            )
        )
        assert ran["script"]["result"] == 33000 and "result" in ran["cdp"][0], ran
        kept = await kept_bodies(client, since, range(30, 32))
        print(f"execute with cdp steps: {kept} of 2 response bodies kept")
        assert kept == 2
