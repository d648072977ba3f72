"""What every action on an element shares: the ends the agent named (a label, a selector, a point), told to the
extension, and the labels that follow what the action did to their element or went stale."""

from __future__ import annotations

from typing import Any, NamedTuple

from ...browser.client import BrowserClient, End
from ...errors import BrowserError, Code, ToolError
from ...session.state import Label, Session
from ..modes import given
from ..observe import answer_selectors, compact_lines, lean
from ..response import Response
from .params import DESTINATION, TARGET, InteractParams


class Named(NamedTuple):
    """An end of an action (its target, or a drag's destination) as the agent named it."""

    label: int | None
    selector: str | None
    point: tuple[float, float] | None = None


def target(params: InteractParams) -> Named:
    return Named(params.label, params.selector, _point(params.x, params.y))


def destination(params: InteractParams) -> Named:
    return Named(params.to_label, params.to_selector, _point(params.to_x, params.to_y))


def _point(x: float | None, y: float | None) -> tuple[float, float] | None:
    return (x, y) if x is not None and y is not None else None


async def on_element(
    session: Session,
    action: str,
    target: Named,
    tab_id: int | None,
    to: Named | None = None,
    report_changes: bool = True,
    **details: Any,
) -> dict[str, Any]:
    """One input action on a label's element, a selector's, or a point (a drag: from there ``to`` another): the
    extension's answer, with the labels, and (``report_changes``) what the action changed in the agent's map of
    the page (``page_changes``)."""
    label = session.labels.get(target.label) if target.label is not None else None
    to_label = session.labels.get(to.label) if to is not None and to.label is not None else None
    named = label or to_label  # both are of the latest annotation
    if named is not None:
        if tab_id is not None and tab_id != named.annotation.tab_id:
            raise ToolError(f"label {named.number} is on tab {named.annotation.tab_id}, not tab {tab_id}")
        client, tab_id = await session.browsers.tab(named.annotation.tab_id)
        if client.id != named.annotation.browser:
            raise stale(named, "the session now works with another browser")
    else:
        client, tab_id = await session.browsers.tab(tab_id, acting=True)
    source, marked = _end(session, client.id, tab_id, label, target)
    destination, to_marked = _end(session, client.id, tab_id, to_label, to) if to is not None else (None, None)
    marked = marked or to_marked
    pointed = target.point is not None or (to is not None and to.point is not None)
    try:
        result = await client.act(
            tab_id,
            action,
            source,
            to=destination,
            document=marked.annotation.document if marked else None,
            viewport=session.screenshots.viewport_of(client.id, tab_id) if pointed else None,
            **details,
        )
    except BrowserError as exc:
        if exc.code == Code.STALE_LABEL and marked:
            by_selector = marked is not label and marked is not to_label
            raise stale(marked, f"the page has changed since: {exc.message}", by_selector) from None
        # (with a selector given too, the selector may be what matched nothing)
        plain = target.selector is not None or (to is not None and to.selector is not None)
        if exc.code in (Code.ELEMENT_NOT_FOUND, Code.AMBIGUOUS_SELECTOR) and named and not plain:
            raise stale(named, f"its element is gone ({exc.message})") from None
        raise
    now = _label_now(session, client.id, tab_id, result.pop("followed", None))
    answer = {
        **({"label": label.number} if label else {}),
        **({"to_label": to_label.number} if to_label else {}),
        **result,
        **({"label_now": now} if now else {}),
    }
    if not result.get("navigated"):
        # the page it stayed on: its url and title are the agent's map's (or it asks observe for them)
        answer.pop("url", None)
        answer.pop("title", None)
        changes = await page_changes(session, client, tab_id) if report_changes else None
        if changes is not None:  # what changed, in the map's terms, says more than the DOM's counts
            answer.pop("dom", None)
            answer["changes"] = changes
    return answer


#: the most characters of entries an action's changes carry (the page counts them as it lays them out, before
#: lean() leaves out what repeats): within 400 tokens with the JSON around them, by a real tokenizer too
CHANGES_CHARS = 1_000


async def page_changes(session: Session, client: BrowserClient, tab_id: int) -> dict[str, Any] | str | None:
    """What changed in the agent's map of this page since its latest look, as that map's own entries: marks
    ``added`` (new labels, or old ones back in view), ``changed`` (name, text or state), ``removed`` (labels),
    and ``more``, how many changes did not fit; "none" when nothing changed. None when the session has no map
    of this tab's document (a new page: its labels are stale, and a look makes a new map). An action's own
    target is not repeated here: label_now tells what it became."""
    annotation = session.labels.annotation
    if annotation is None or (annotation.browser, annotation.tab_id) != (client.id, tab_id):
        return None
    try:
        found = await client.find_elements(
            tab_id,
            annotation.target,
            annotation.custom_selector,
            annotation.limit,
            since=annotation.id,
            changes=CHANGES_CHARS,
        )
    except BrowserError:  # the page went away under it: the action's own answer stands
        return None
    changes = found.get("changes")
    if not changes or found["page"].get("document") != annotation.document:
        return None
    answer_selectors(changes["added"] + changes["changed"])
    for item in changes["added"]:
        annotation.place(item["label"], item["selector"])
    # in the map's own form: its lines, or its JSON entries
    entries = compact_lines if annotation.form == "compact" else (lambda items: [lean(item) for item in items])
    shown: dict[str, Any] = {
        "added": entries(changes["added"]),
        "changed": entries(changes["changed"]),
        "removed": changes["removed"],
        "more": changes["more"],
    }
    shown = {key: value for key, value in shown.items() if value}
    if "more" in shown:
        more = shown["more"]
        shown["more"] = f"{more} more change{'s' if more > 1 else ''} not shown: observe for the whole map"
    return shown or "none"


def _label_now(session: Session, browser: str, tab_id: int, followed: dict[str, Any] | None) -> dict[str, Any] | None:
    """What a label of this session's latest annotation stands for now that the action changed its element (a
    new name, a new state): the annotation entry, less its selector (which still names it) and bounds. The page
    has made that label follow its element (extension/page-library/labels.js); None when no such label changed."""
    annotation = session.labels.annotation
    if not followed or annotation is None or (annotation.browser, annotation.tab_id) != (browser, tab_id):
        return None
    numbers = [mark.get("label") for mark in followed.get("labels") or [] if mark.get("annotation") == annotation.id]
    if not numbers or not isinstance(numbers[0], int):
        return None
    described = {key: value for key, value in followed.items() if key != "labels"}
    return lean({**described, "label": numbers[0], "selector": "", "bounds": None})


def _end(session: Session, browser: str, tab_id: int, label: Label | None, named: Named) -> tuple[End, Label | None]:
    """What the extension is told of an end, and the label it stands for. A selector copied from the latest
    annotation names the element that annotation marked, as its label does, while the tab shows that document
    (in a new one it is a plain selector again)."""
    marked = label or (session.labels.by_selector(named.selector, browser, tab_id) if named.selector else None)
    if marked is None:
        return End(selector=named.selector, point=named.point), None
    return End(marked.selector, (marked.annotation.id, marked.number), annotated_selector=label is None), marked


def stale(label: Label, why: str, by_selector: bool = False) -> ToolError:
    """The refusal of a label that no longer stands for its element (its hint asks for fresh labels)."""
    named = f"Selector {label.selector} (label {label.number})" if by_selector else f"Label {label.number}"
    return ToolError(f"{named} is from the annotation of {label.annotation.url}, and {why}.", Code.STALE_LABEL)


#: the arguments that say where and on which tab, not what: the rest of a call's arguments are its action's inputs
NOT_INPUTS = frozenset({*TARGET.fields, *DESTINATION.fields, "action", "tab_id"})


async def act_on_target(session: Session, params: InteractParams, response: Response, to: Named | None = None) -> None:
    """The handler of an input action on the target (click, hover, scroll, type, select, press; drag ``to`` its
    destination): the extension's handler of the action does it (extension/service-worker/act/), given the call's other
    arguments as they came (the row's check has let through only those the action takes)."""
    inputs = {name: getattr(params, name) for name in given(params) if name not in NOT_INPUTS}
    result = await on_element(session, params.action, target(params), params.tab_id, to=to, **inputs)
    response.result = {"action": params.action, **result}
