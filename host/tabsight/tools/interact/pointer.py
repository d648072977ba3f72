"""interact's pointer actions: click, hover, scroll, and drag (real mouse events, at real coordinates)."""

from __future__ import annotations

from ...session.state import Session
from ..modes import Mode
from ..response import Response
from .params import InteractParams
from .targets import act_on_target, destination


async def drag(session: Session, params: InteractParams, response: Response) -> None:
    await act_on_target(session, params, response, to=destination(params))


MODES = (
    Mode(
        "click",
        "the target (any button, double or triple, with modifier keys held).",
        act_on_target,
        acts=True,
        needs=("target",),
        fields={
            "target": "",
            "button": "the mouse button (right opens a context menu, middle a link's new tab).",
            "click_count": "2 double-clicks, 3 triple-clicks.",
            "modifiers": 'keys held down during it, e.g. ["Shift"] or ["ControlOrMeta"].',
            "tab_id": "",
        },
    ),
    Mode(
        "long_press",
        "press the target and hold the button down for hold_ms before releasing: what a user does "
        "to a hold-to-confirm button, a long-press menu, or a list that starts a drag only after a held press.",
        act_on_target,
        acts=True,
        needs=("target",),
        fields={
            "target": "",
            "hold_ms": "how long the button is held down, in ms (default 800; the page's guard against events "
            "reaching another element lasts 5 s).",
            "tab_id": "",
        },
    ),
    Mode(
        "drag",
        "press on the target, move in steps to the destination (to_label, to_selector, or to_x and to_y), "
        "release there; HTML5 drag and drop (draggable elements, drop zones) gets its drag events, the answer says "
        "whether it did.",
        drag,
        acts=True,
        needs=("target", "destination"),
        fields={
            "target": "",
            "to_label": "the destination: a number from the latest annotated screenshot.",
            "to_selector": "the destination: a CSS selector matching one element.",
            "to_x": "the destination: CSS px from the viewport's left.",
            "to_y": "the destination: CSS px from the viewport's top.",
            "tab_id": "",
        },
    ),
    Mode("hover", "the target.", act_on_target, acts=True, needs=("target",), fields={"target": "", "tab_id": ""}),
    Mode(
        "scroll",
        "the target into view, or by delta_x/delta_y.",
        act_on_target,
        acts=True,
        fields={
            "target": "",
            "delta_x": "px to the right (negative: left).",
            "delta_y": "px down (negative: up).",
            "tab_id": "",
        },
    ),
)
