"""interact's pointer actions: click, hover, scroll, and drag (real mouse events, at real coordinates)."""

from __future__ import annotations

from ...session.state import Session
from ..modes import Meaning, Mode
from ..response import Response
from .params import InteractParams
from .targets import act_on_target, destination


async def drag(session: Session, params: InteractParams, response: Response) -> None:
    await act_on_target(session, params, response, to=destination(params))


MODES = (
    Mode(
        "click",
        "the target.",
        act_on_target,
        detail="Any button, double or triple, with modifier keys held.",
        acts=True,
        needs=("target",),
        fields={
            "target": "",
            "button": Meaning("", "right opens a context menu, middle a link's new tab."),
            "click_count": Meaning("", "2 double-clicks, 3 triple-clicks."),
            "modifiers": Meaning("keys held.", 'e.g. ["Shift"] or ["ControlOrMeta"] (Meta on macOS).'),
            "tab_id": "",
        },
    ),
    Mode(
        "long_press",
        "hold the target for hold_ms.",
        act_on_target,
        detail="What a user does to a hold-to-confirm button, a long-press menu, or a list that starts a drag only "
        "after a held press.",
        acts=True,
        needs=("target",),
        fields={
            "target": "",
            "hold_ms": Meaning(
                "",
                "How long the button is held down (the page's guard against events reaching another element "
                "lasts 5 s).",
            ),
            "tab_id": "",
        },
    ),
    Mode(
        "drag",
        "the target onto the to_* destination.",
        drag,
        detail="Press on the target, move in steps to the destination (to_label, to_selector, or to_x and to_y), "
        "release there; HTML5 drag and drop "
        "(draggable elements, drop zones) gets its drag events, the answer says whether it did.",
        acts=True,
        needs=("target", "destination"),
        fields={
            "target": "",
            "to_label": Meaning("", "The destination: a number from the latest annotated screenshot."),
            "to_selector": Meaning("", "The destination: a CSS selector matching one element."),
            "to_x": Meaning("", "The destination: CSS px from the viewport's left."),
            "to_y": Meaning("", "The destination: CSS px from the viewport's top."),
            "tab_id": "",
        },
    ),
    Mode("hover", "the target.", act_on_target, acts=True, needs=("target",), fields={"target": "", "tab_id": ""}),
    Mode(
        "scroll",
        "to the target, or by delta_x/delta_y px.",
        act_on_target,
        detail="The target is scrolled into view.",
        acts=True,
        fields={
            "target": "",
            "delta_x": Meaning("", "Px to the right (negative: left)."),
            "delta_y": Meaning("", "Px down (negative: up)."),
            "tab_id": "",
        },
    ),
)
