"""Bounded answers: page fields capped with a marker and their length, whole answers within a budget."""

from __future__ import annotations

import json

from hypothesis import given, strategies as st

from tabsight import bounded


def test_cap_keeps_short_text_and_marks_a_cut_with_the_full_length():
    assert bounded.cap("short", 10) == "short"
    assert bounded.cap("x" * 5_000_000, 100) == "x" * 100 + "… [truncated: 5000000 chars]"


def test_page_fields_are_capped_wherever_they_are():
    answer = {"title": "t" * 5000, "tabs": [{"url": "http://x/" + "a" * 10_000, "id": 3}], "selector": "s" * 3000}
    capped = bounded.cap_fields(answer)
    assert capped["title"].endswith("… [truncated: 5000 chars]") and len(capped["title"]) < 1100
    assert capped["tabs"][0]["url"].endswith(f"… [truncated: {9 + 10_000} chars]") and capped["tabs"][0]["id"] == 3
    assert capped["selector"] == "s" * 3000  # not a page field: the budget decides


def test_fit_shrinks_the_longest_parts_first_and_keeps_the_structure():
    value = {"action": "execute", "tab_id": 1, "script": {"result": "y" * 50_000_000, "type": "string"}}
    fitted = bounded.fit(value, 100_000)
    text = bounded.dumps(fitted)
    assert len(text) <= 100_000
    assert fitted["action"] == "execute" and fitted["tab_id"] == 1 and fitted["script"]["type"] == "string"
    assert fitted["script"]["result"].endswith("… [truncated: 50000000 chars]")


def test_fit_cuts_long_lists_with_a_count_and_deep_nesting():
    items = [{"n": n, "text": "z" * 100} for n in range(100_000)]
    fitted = bounded.fit({"items": items}, 20_000)
    assert bounded.size(fitted) <= 20_000 and fitted["items"][-1] == "… [truncated: 100000 items]"
    deep: list = []
    for _ in range(500):
        deep = [deep]
    assert bounded.size(bounded.fit({"deep": deep, "pad": "p" * 5000}, 2000)) <= 2000


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=3000),
        lambda children: st.lists(children, max_size=30) | st.dictionaries(st.text(max_size=20), children, max_size=10),
        max_leaves=200,
    ),
    st.integers(min_value=200, max_value=5000),
)
def test_fit_never_exceeds_its_budget_and_stays_valid_json(value, limit):
    fitted = bounded.fit(value, limit)
    assert bounded.size(fitted) <= limit
    if not isinstance(fitted, str):
        json.loads(bounded.dumps(fitted))


def test_a_second_cut_keeps_the_original_length():
    first = bounded.cap("q" * 1_000_000, 50_000)
    assert bounded.cap(first, 100) == "q" * 100 + "… [truncated: 1000000 chars]"
