"""Redaction over every string an answer carries (issue 29, items 4 and 10), through the real chain.

tests/pages/secrets-everywhere.html puts secrets in each place an answer can hold page text: the title,
the URL's query (opened here with an access_token), a link's href, aria-labels, an id, a data-testid, a
field's value (an annotation's state.value), the page's text, a shadow root, a form, an element below the
fold, console messages and a request's headers and bodies; the agent's scripts and CDP steps return them.
No answer may carry one; a selector is never masked (it would match nothing) but built of tags and
positions when its own would hold one, and it still matches exactly the element it labels; an AWS key ID's
secret next to it is masked with it.
"""

from __future__ import annotations

import json

import pytest

from conftest import mcp_client
from harness.calls import payload, text_of, unmarked
from tabsight.nativehost.picks import Picks
from tabsight.redact import MASK
from test_telemetry import until

#: the page's secrets (made there from the same parts) and the one the loopback site's /echo answers
GITHUB = "ghp_" + "R8sT2vX9kL4mN7pQ1wE5yU3iO6aZ0bC8dF2g"
AWS_ID = "AKIA" + "IOSFODNN7EXAMPLE"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY"
SECRETS = {
    "github": GITHUB,
    "link": "LINKTOKEN" + "12345678",
    "url": "URLTOKEN" + "87654321",
    "aws_id": AWS_ID,
    "aws_secret": AWS_SECRET,
    "slack": "xoxb-" + "123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
    "stripe": "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc",
    "echo": "SECRET-ECHO-TOKEN-" + "1234",
}
PAIR_MASKED = f"aws creds {MASK} {MASK}"
#: the marked elements the viewport shows, each with a secret in what its selector would be built of (but
#: login, inside a form labelled with one, and field, whose value holds one)
MARKED = {"link", "aria", "testid", "id", "field", "shadow", "login"}

#: where each selector leads: how many elements it matches (across " >>> " scopes), and the one's mark
#: and box
RESOLVE = """
return SELECTORS.map((path) => {
  let root = document;
  let found = [];
  for (const part of path.split(' >>> ')) {
    found = [...root.querySelectorAll(part)];
    if (found.length !== 1) return {count: found.length};
    root = found[0].shadowRoot ?? found[0].contentDocument;
  }
  const box = found[0].getBoundingClientRect();
  return {count: 1, mark: found[0].dataset.mark ?? found[0].localName,
          bounds: {x: Math.round(box.x), y: Math.round(box.y), width: Math.round(box.width),
                   height: Math.round(box.height)}};
});
"""
#: the secrets as the page holds them, in their places, returned by the agent's script and CDP step
RETURNED = """
const field = document.querySelector('[data-mark=field]');
return {
  title: document.title, location: location.href, href: document.querySelector('a').href,
  labels: [...document.querySelectorAll('[aria-label]')].map((element) => element.getAttribute('aria-label')),
  testid: document.querySelector('[data-testid]').dataset.testid, id: document.querySelector('[data-mark=id]').id,
  value: field.value, text: document.querySelector('p').textContent,
  keyed: {[document.title]: 'a key of page text'}, nested: [[[{deep: [field.value, document.title]}]]],
};
"""
EVALUATED = (
    "({title: document.title, href: document.querySelector('a').href, "
    "value: document.querySelector('[data-mark=field]').value})"
)

pytestmark = [pytest.mark.anyio]


def leaks(text: str) -> list[str]:
    return [name for name, secret in SECRETS.items() if secret in text]


async def opened(client, site) -> str:
    """The page opened with an access_token in its URL; the navigate's answer."""
    url = site.url(f"/secrets-everywhere.html?access_token={SECRETS['url']}")
    return text_of(await client.call_tool("interact", {"action": "navigate", "url": url}))


async def call(client, tool: str, arguments: dict) -> str:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, text_of(result)
    return unmarked(text_of(result))  # the page-content markers are not what this looks at


async def run(client, script: str, selectors: list[str] | None = None):
    if selectors is not None:
        script = f"const SELECTORS = {json.dumps(selectors)};\n{script}"
    return payload(await client.call_tool("interact", {"action": "execute", "script": script}))["script"]["result"]


async def logged(client, what: str, count: int) -> str | None:
    """The answer of observe ``what`` once it lists ``count`` entries (telemetry arrives on its own time)."""
    answer = await call(client, "observe", {"what": what})
    return answer if len(json.loads(answer.split("\n")[0])["items"]) >= count else None


async def posted(client, path: str) -> dict | None:
    """The tab's POST request to ``path``, once it is listed."""
    listed = json.loads(await call(client, "observe", {"what": "network", "requests": "all", "url": path}))
    return next((request for request in listed["items"] if request["method"] == "POST"), None)


async def annotated(client, **arguments) -> dict:
    return payload(
        await client.call_tool(
            "observe", {"what": "page", "annotate_screenshot": True, "annotation_format": "json", **arguments}
        )
    )


@pytest.mark.browser
async def test_no_answer_carries_a_secret_whatever_field_holds_it(browser, site):
    async with mcp_client() as client:
        answers = {"navigate": await opened(client, site)}
        answers["page"] = await call(client, "observe", {"what": "page", "page_text": 2000})
        for format_ in ("json", "compact"):
            answers[f"annotated {format_}"] = await call(
                client,
                "observe",
                {"what": "page", "annotate_screenshot": True, "annotation_format": format_, "page_text": 2000},
            )
        answers["all visible"] = await call(
            client,
            "observe",
            {
                "what": "page",
                "annotate_screenshot": True,
                "annotation_format": "json",
                "annotation_target": "all_visible",
            },
        )
        answers["logs"] = await until(lambda: logged(client, "logs", 2))
        answers["errors"] = await until(lambda: logged(client, "errors", 1))
        answers["tabs"] = await call(client, "observe", {"what": "tabs"})
        answers["script"] = await call(client, "interact", {"action": "execute", "script": RETURNED})
        answers["cdp"] = await call(
            client,
            "interact",
            {
                "action": "execute",
                "cdp": [{"method": "Runtime.evaluate", "params": {"expression": EVALUATED, "returnByValue": True}}],
            },
        )
        answers["fetch"] = await call(client, "interact", {"action": "execute", "script": "return await sendCreds()"})
        echo = await until(lambda: posted(client, "/echo"))
        answers["network detail"] = await call(client, "observe", {"what": "network", "request_id": echo["id"]})

    assert {what: leaks(text) for what, text in answers.items() if leaks(text)} == {}
    # each answer had secrets to mask: what it carries is there, masked
    assert all(MASK in text for what, text in answers.items()), [
        what for what, text in answers.items() if MASK not in text
    ]
    script = json.loads(answers["script"])["script"]["result"]
    assert script["value"] == script["text"] == PAIR_MASKED and script["nested"][0][0][0]["deep"][0] == PAIR_MASKED
    assert script["keyed"] == {f"Deploy key {MASK}": "a key of page text"}
    assert script["href"] == f"https://example.test/cb?access_token={MASK}"
    cdp = json.loads(answers["cdp"])["cdp"][0]["result"]["result"]["value"]
    assert cdp == {
        "title": f"Deploy key {MASK}",
        "href": f"https://example.test/cb?access_token={MASK}",
        "value": PAIR_MASKED,
    }
    assert json.loads(answers["fetch"])["script"]["result"]["access_token"] == MASK


@pytest.mark.browser
async def test_each_selector_matches_its_labelled_element_alone_and_holds_no_secret(browser, site):
    async with mcp_client() as client:
        await opened(client, site)
        found = await annotated(client)
        annotations = found["annotations"]
        below = found["outside_viewport"]["below"]["elements"]
        forms = payload(await client.call_tool("observe", {"what": "page"}))["forms"]
        compact = await call(
            client, "observe", {"what": "page", "annotate_screenshot": True, "annotation_format": "compact"}
        )
        selectors = [item["selector"] for item in annotations + below + forms]
        assert {
            item["selector"]: leaks(item["selector"])
            for item in annotations + below + forms
            if leaks(item["selector"]) or MASK in item["selector"]
        } == {}
        resolved = await run(client, RESOLVE, selectors)
        assert [where["count"] for where in resolved] == [1] * len(selectors), list(zip(selectors, resolved))
        marks = [where["mark"] for where in resolved]
        assert MARKED <= set(marks[: len(annotations)]), marks
        assert marks[len(annotations) :] == ["below", "form"]
        for item, where in zip(annotations, resolved):
            assert where["bounds"] == item["bounds"], (item, where)
        for item in below:
            assert f" {item['selector']}" in compact  # the compact form's lines outside the viewport end with them
        # (a mark's line has no selector: its label acts on it)
        assert leaks(compact) == [], compact

        # acting on each selector, and on its label, lands on that element
        for item, where in zip(annotations, resolved):
            if where["mark"] not in MARKED:
                continue
            for target in ({"selector": item["selector"]}, {"label": item["label"]}):
                await run(client, "window.clicked = []")
                await call(client, "interact", {"action": "click", **target})
                assert await run(client, "return window.clicked") == [where["mark"]], (target, where)


@pytest.mark.browser
async def test_an_aws_key_ids_secret_next_to_it_is_masked_in_console_page_text_and_a_fields_value(browser, site):
    async with mcp_client() as client:
        await opened(client, site)
        logs = json.loads((await until(lambda: logged(client, "logs", 2))).split("\n")[0])
        page = payload(await client.call_tool("observe", {"what": "page", "page_text": 2000}))
        field = next(item for item in (await annotated(client))["annotations"] if item.get("name") == "Credentials")
    assert PAIR_MASKED in [entry["text"] for entry in logs["items"]]
    assert PAIR_MASKED in page["page_text"].splitlines()
    assert field["state"]["value"] == PAIR_MASKED


def test_a_pick_whose_selector_holds_a_secret_carries_its_structural_one():
    alerts = []
    picks = Picks(alerts.append)
    structural = ":root > body > main > button:nth-of-type(1)"
    picks.receive(
        {
            "tab_id": 1,
            "url": "http://127.0.0.1/",
            "selector": f'[aria-label="Deploy with {GITHUB}"]',
            "structural_selector": structural,
            "tag": "button",
            "role": "button",
            "name": "Deploy",
            "bounds": {"x": 0, "y": 0, "width": 10, "height": 10},
        }
    )
    picks.receive(
        {
            "tab_id": 1,
            "url": "http://127.0.0.1/",
            "selector": "#save",
            "structural_selector": ":root > body > button",
            "tag": "button",
            "role": "button",
            "name": "Save",
            "bounds": {"x": 0, "y": 0, "width": 10, "height": 10},
        }
    )
    secret, plain = reversed(picks.query(limit=2)["items"])
    assert secret["selector"] == structural and plain["selector"] == "#save"
    assert not leaks(alerts[0].detail) and structural in alerts[0].detail
