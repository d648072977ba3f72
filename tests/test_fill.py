"""fill (issue 20): a form's fields set in one call, each as it takes a value (typed, selected, ticked), read back;
the answer gives each field's value now, and a field that fails names itself and what was set before it.

tests/pages/fill.html is a sign-up form with a field of each kind."""

from __future__ import annotations

import pytest

from conftest import client_on
from harness.calls import payload, refusal, script

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

FORM_STATE = """const $ = (id) => document.getElementById(id); return {
  name: $('name').value, email: $('email').value, about: $('about').value, birthday: $('birthday').value,
  plan: $('plan').value, news: $('news').checked, terms: $('terms').checked,
  size: document.querySelector('[name=size]:checked').value, dark: $('dark').getAttribute('aria-checked'),
}"""


async def state(client) -> dict:
    return await script(client, FORM_STATE)


@pytest.fixture
async def form(browser, site):
    async with client_on(site.url("/fill.html")) as client:
        yield client


#: fill.html's whole form, every kind of field (bench/actions_bench.py fills it too)
SIGNUP = [
    {"selector": "#name", "value": "Ada Lovelace"},
    {"selector": "#email", "value": "ada@example.org"},
    {"selector": "#about", "value": "Wrote the first program.\nLikes engines."},
    {"selector": "#birthday", "value": "1815-12-10"},
    {"selector": "#plan", "value": "Pro"},
    {"selector": "#news", "value": True},
    {"selector": "#terms", "value": False},
    {"selector": "#size-l", "value": True},
    {"selector": "#dark", "value": True},
]


async def test_a_whole_form_in_one_call(form):
    fields = SIGNUP
    answer = payload(await form.call_tool("interact", {"action": "fill", "fields": fields}))
    assert [item["field"] for item in answer["fields"]] == [field["selector"] for field in fields]
    values = {item["field"]: item["value"] for item in answer["fields"]}
    assert values["#name"] == "Ada Lovelace" and values["#birthday"] == "1815-12-10"
    assert values["#news"] is True and values["#terms"] is False and values["#dark"] is True
    assert await state(form) == {
        "name": "Ada Lovelace",
        "email": "ada@example.org",
        "about": "Wrote the first program.\nLikes engines.",
        "birthday": "1815-12-10",
        "plan": "pro",
        "news": True,
        "terms": False,
        "size": "l",
        "dark": "true",
    }


async def test_fields_by_label_from_an_annotation_and_values_already_there(form):
    annotated = await form.call_tool(
        "observe", {"what": "page", "annotate_screenshot": True, "annotation_format": "json"}
    )
    labels = {a["selector"]: a["label"] for a in payload(annotated)["annotations"]}
    answer = payload(
        await form.call_tool(
            "interact",
            {
                "action": "fill",
                "fields": [
                    {"label": labels["#name"], "value": "Grace"},
                    {"label": labels["#terms"], "value": True},  # ticked already: left as it is
                ],
            },
        )
    )
    assert answer["fields"][0]["value"] == "Grace"
    assert answer["fields"][1] == {"field": f"label {labels['#terms']}", "value": True, "did": "checked already"}
    assert (await state(form))["name"] == "Grace"


async def test_a_field_that_fails_names_itself_and_what_was_set(form):
    message = refusal(
        await form.call_tool(
            "interact",
            {
                "action": "fill",
                "fields": [
                    {"selector": "#name", "value": "Alan"},
                    {"selector": "#stubborn", "value": True},
                    {"selector": "#email", "value": "never@example.org"},
                ],
            },
        )
    )
    assert message.startswith("fields[1] (#stubborn): ") and "unchecked again: the page refused or undid it" in message
    assert "Set before it: #name." in message
    assert (await state(form))["email"] == ""  # the fields after it were not touched

    radio = refusal(
        await form.call_tool("interact", {"action": "fill", "fields": [{"selector": "#size-s", "value": False}]})
    )
    assert "unchecked by checking another of its group" in radio and "Nothing was set" in radio
    wrong = refusal(
        await form.call_tool("interact", {"action": "fill", "fields": [{"selector": "#news", "value": "yes"}]})
    )
    assert "its value is true or false" in wrong
    option = refusal(
        await form.call_tool("interact", {"action": "fill", "fields": [{"selector": "#plan", "value": "Gold"}]})
    )
    assert 'No option "Gold"' in option


async def test_fill_arguments_are_checked(form):
    for arguments, words in (
        ({"action": "fill"}, "action 'fill' needs 'fields'"),
        ({"action": "fill", "fields": []}, "'fields'"),
        ({"action": "fill", "fields": [{"value": "x"}]}, "each field needs one of 'label' or 'selector'"),
        ({"action": "fill", "fields": [{"selector": "#name"}]}, "'fields.0.value'"),
        ({"action": "fill", "fields": [{"selector": "#name", "value": "x"}] * 51}, "'fields'"),
        (
            {"action": "fill", "selector": "#name", "fields": [{"selector": "#name", "value": "x"}]},
            "action 'fill' takes no target",
        ),
        (
            {"action": "type", "text": "x", "fields": [{"selector": "#name", "value": "x"}]},
            "'fields' is for action 'fill' only",
        ),
    ):
        message = refusal(await form.call_tool("interact", arguments))
        assert words in message, (arguments, message)
