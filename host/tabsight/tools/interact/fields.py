"""interact's fields and keys: type, select, fill (several fields in one call), and press."""

from __future__ import annotations

from typing import Any

from ...errors import BrowserError, ToolError
from ...session.state import Session
from ..modes import Meaning, Mode, OneOf
from ..response import Response
from .params import InteractParams
from .targets import Named, act_on_target, on_element


async def fill(session: Session, params: InteractParams, response: Response) -> None:
    """Each field set in turn (``set``: typed, selected or checked as it takes it, and read back); the answer
    gives each field's value now. A field that fails ends the call: the error names it, and what was set."""
    done: list[dict[str, Any]] = []
    fields = params.fields or []
    for number, field in enumerate(fields, 1):
        try:
            result = await on_element(
                session,
                "set",
                Named(field.label, field.selector),
                params.tab_id,
                report_changes=number == len(fields),
                value=field.value,
            )
        except (ToolError, BrowserError) as exc:
            filled = f" Set before it: {', '.join(item['field'] for item in done)}." if done else " Nothing was set."
            where = f"fields[{number - 1}] ({field.named}): "
            if isinstance(exc, BrowserError):  # the browser's words, which may quote the page: still its error
                raise BrowserError(exc.code, f"{where}{exc.message}{filled}") from None
            raise ToolError(f"{where}{exc}{filled}", exc.code) from None
        done.append(
            {
                "field": field.named,
                "value": result.get("value"),
                **({"text": result["text"]} if "text" in result else {}),
                "did": result["did"],
                **({"label_now": result["label_now"]} if "label_now" in result else {}),
            }
        )
    response.result = {"action": "fill", "fields": done}
    if "changes" in result:  # the last field's answer tells what the whole fill changed
        response.result["changes"] = result["changes"]


MODES = (
    Mode(
        "type",
        "text into the target or focused element (dates, colors too).",
        act_on_target,
        detail="Keys into text fields, contenteditable and code editors (Ace, CodeMirror, Monaco); the whole value "
        "of date, time, month, week, datetime-local, color, range and number inputs, in their format (2024-05-01, "
        "13:45, 2024-05, 2024-W18, 2024-05-01T13:45, #ff0000, a number); the answer's value is what the field holds "
        "then, and an edit that changed nothing is an error.",
        acts=True,
        needs=("text",),
        fields={
            "target": "",
            "text": Meaning("", "What to type (a value-taking input's whole value)."),
            "clear": "clear first.",
            "submit": "press Enter after.",
            "tab_id": "",
        },
    ),
    Mode(
        "select",
        "an option (select, listbox, combobox).",
        act_on_target,
        detail="A <select>, an ARIA listbox or combobox (opened by a click), by value or visible text; checked "
        "afterwards, the answer gives its value and text.",
        acts=True,
        needs=(OneOf(("label", "selector")), "value"),
        fields={
            "label": "",
            "selector": "",
            "value": Meaning("value or text.", "The option's value or its text (an ARIA option's name)."),
            "tab_id": "",
        },
    ),
    Mode(
        "fill",
        "several fields at once.",
        fill,
        detail="Text, dates, options, true/false for checkboxes: each set as type/select/click would and read back.",
        acts=True,
        needs=("fields",),
        fields={"fields": Meaning("", "[{label or selector, value}], set in order."), "tab_id": ""},
    ),
    Mode(
        "press",
        "a key or combo.",
        act_on_target,
        acts=True,
        needs=("key",),
        fields={
            "target": "",
            "key": Meaning("e.g. Control+A.", "A key or combo: Enter, Escape, Control+A..."),
            "tab_id": "",
        },
    ),
)
