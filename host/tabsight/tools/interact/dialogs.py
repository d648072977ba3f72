"""interact's dialog: answer the tab's open alert, confirm or prompt."""

from __future__ import annotations

from ...session.state import Session
from ..modes import Mode
from ..response import Response
from .params import InteractParams


async def dialog(session: Session, params: InteractParams, response: Response) -> None:
    client, tab_id = await session.browsers.tab(params.tab_id, acting=True)
    answer = await client.answer_dialog(tab_id, params.accept, params.prompt_text)
    response.result = {"action": "dialog", "tab_id": tab_id, **answer}


MODES = (
    Mode(
        "dialog",
        "answer the tab's open alert/confirm/prompt (accept, prompt_text).",
        dialog,
        acts=True,
        fields={
            "accept": "OK (true) or Cancel (false).",
            "prompt_text": "the text to answer a prompt with (default: its own).",
            "tab_id": "",
        },
    ),
)
