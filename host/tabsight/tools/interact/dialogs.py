"""interact's dialog: answer the tab's open alert, confirm or prompt."""

from __future__ import annotations

from ...session.state import Session
from ..modes import Meaning, Mode
from ..response import Response
from .params import InteractParams


async def dialog(session: Session, params: InteractParams, response: Response) -> None:
    client, tab_id = await session.browsers.tab(params.tab_id, acting=True)
    answer = await client.answer_dialog(tab_id, params.accept, params.prompt_text)
    response.result = {"action": "dialog", "tab_id": tab_id, **answer}


MODES = (
    Mode(
        "dialog",
        "answer an alert, confirm or prompt.",
        dialog,
        acts=True,
        fields={
            "accept": Meaning("OK or Cancel.", "true: OK; false: Cancel."),
            "prompt_text": Meaning("a prompt's answer.", "Default: its own default text."),
            "tab_id": "",
        },
    ),
)
