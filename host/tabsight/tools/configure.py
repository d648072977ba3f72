"""configure: session settings: which tab this session tracks, screenshots at the
end of answers (screenshot_mode), alert streaming, and a tab's emulation."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .. import bounded
from ..alerts import TAXONOMY, EventFilter
from ..session.autoshot import CaptureSettings
from ..session.state import Session
from ..session.streaming import StreamConfig
from .base import Params, Tool, detail
from .emulation import EmulationParams, emulate
from .modes import Meaning, Mode, OneOf
from .response import Response


class CaptureSettingsParams(Params):
    screenshot_mode: Literal["off", "on", "errors_only"] = Field(
        json_schema_extra=detail(
            "on: every observe and generate answer ends with a fresh JPEG of the tracked tab; errors_only: only "
            "observe({what:'errors'}) answers; off (the default)."
        ),
    )
    cooldown_seconds: float = Field(
        default=5, ge=0, le=3600, json_schema_extra=detail("At least this long between two.")
    )
    session_limit: int = Field(
        default=10, ge=1, le=1000, json_schema_extra=detail("At most this many in this session.")
    )


class ConfigureParams(Params):
    #: the setting: one of the rows' names (the tool makes it their Literal)
    action: str
    settings: CaptureSettingsParams | None = None
    tab_id: int | None = Field(default=None, description="As observe({what:'tabs'}) lists it.")
    browser: str | None = None
    streaming_action: Literal["enable", "disable", "status"] | None = None
    events: list[EventFilter] = Field(default=["all"], min_length=1)
    throttle_seconds: int = Field(default=5, ge=1, le=60)
    url_filter: str = Field(default="", max_length=2048)
    severity_min: Literal["info", "warning", "error"] = "warning"
    max_answer_chars: int | None = Field(default=None, ge=1_000, le=10_000_000)
    emulation: EmulationParams | None = None
    on_busy: Literal["fail", "wait"] | None = None
    on_end: Literal["close", "keep"] | None = None
    dialog_policy: Literal["accept", "dismiss", "report"] | None = None


# (the asserts: each row's needs saw to its argument)


async def _track(session: Session, params: ConfigureParams, response: Response) -> None:
    assert params.tab_id is not None
    response.result = {"tracked": await session.browsers.track_tab(params.tab_id, params.browser)}


async def _capture(session: Session, params: ConfigureParams, response: Response) -> None:
    assert params.settings is not None
    note = session.autoshots.configure(CaptureSettings(**params.settings.model_dump()))
    response.result = {"capture": session.autoshots.status(), **({"note": note} if note else {})}


async def _streaming(session: Session, params: ConfigureParams, response: Response) -> None:
    response.result = await _stream(session, params)


async def _dialogs(session: Session, params: ConfigureParams, response: Response) -> None:
    assert params.dialog_policy is not None
    session.browsers.dialog_policy = params.dialog_policy
    response.result = {"dialogs": {"policy": params.dialog_policy}}


async def _answers(session: Session, params: ConfigureParams, response: Response) -> None:
    assert params.max_answer_chars is not None
    session.answer_chars = params.max_answer_chars
    response.result = {"answers": {"max_answer_chars": session.answer_chars}}


async def _debugger(session: Session, params: ConfigureParams, response: Response) -> None:
    response.result = await (await session.browsers.client()).allow_debugger()


async def _emulate(session: Session, params: ConfigureParams, response: Response) -> None:
    assert params.emulation is not None
    response.result = {"emulate": await emulate(session, params.emulation, params.tab_id)}


async def _sharing(session: Session, params: ConfigureParams, response: Response) -> None:
    response.result = {"tabs": await _tabs(session, params)}


async def _take_over(session: Session, params: ConfigureParams, response: Response) -> None:
    assert params.tab_id is not None
    response.result = await session.browsers.claim("take_over", params.tab_id)


async def _release(session: Session, params: ConfigureParams, response: Response) -> None:
    assert params.tab_id is not None
    response.result = await session.browsers.claim("release", params.tab_id)


async def _tabs(session: Session, params: ConfigureParams) -> dict:
    """How this session shares the browser: ``on_busy`` is the front's to apply, ``on_end`` the host's."""
    if params.on_busy is not None:
        session.browsers.on_busy = params.on_busy
    if params.on_end is not None:
        await session.browsers.tabs_on_end(params.on_end)
    return {"on_busy": session.browsers.on_busy, **({"on_end": params.on_end} if params.on_end else {})}


async def _stream(session: Session, params: ConfigureParams) -> dict:
    stream = session.stream
    if params.streaming_action == "disable":
        return {"status": "disabled", "pending_cleared": stream.disable()}
    if params.streaming_action == "status":
        return stream.status()
    await session.browsers.client()  # alerts flow from the session's browser once it is connected
    stream.enable(
        StreamConfig(
            events=tuple(dict.fromkeys(params.events)),
            throttle_seconds=params.throttle_seconds,
            url_filter=params.url_filter,
            severity_min=params.severity_min,
        )
    )
    answer = {"status": "enabled", "config": stream.status()["config"]}
    delivery = stream.delivery()  # whether pushes reach this client, or alerts ride on observe answers instead
    if delivery is not None:
        answer["delivery"] = delivery
    return answer


def _named_user_tab(params: ConfigureParams) -> None:
    if params.emulation is not None and params.emulation.on_user_tab and params.tab_id is None:
        raise ValueError("'on_user_tab' needs 'tab_id': the user's tab is emulated only when named")


TOOL = Tool(
    name="configure",
    description="Session settings, one per action.",
    detail="observe({what:'tabs'}) shows the tabs, their owners and leases.",
    params=ConfigureParams,
    modes=(
        Mode(
            "track",
            "the tab (and browser) to work on.",
            _track,
            needs=("tab_id",),
            fields={
                "tab_id": "",
                "browser": Meaning(
                    "if tab ids are ambiguous.",
                    "As observe({what:'tabs'}) gives it; needed only when several browsers are connected and the "
                    "tab id is ambiguous.",
                ),
            },
        ),
        Mode(
            "capture",
            "a screenshot after answers (settings).",
            _capture,
            needs=("settings",),
            fields={"settings": "e.g. {screenshot_mode:'on'}."},
        ),
        Mode(
            "streaming",
            "push alerts as they happen (streaming_action).",
            _streaming,
            detail="As MCP notifications, within a throttle; the answer says whether they reach this client.",
            needs=("streaming_action",),
            fields={
                "streaming_action": Meaning("", "enable takes the settings below; disable clears what is pending."),
                "events": Meaning(
                    "",
                    "errors also covers error spikes (anomaly); performance also covers regressions; picked: the "
                    "user pointed at an element (observe what=picked).",
                ),
                "throttle_seconds": Meaning("", "At most one notification per this."),
                "url_filter": Meaning(
                    "",
                    f"Applies to {', '.join(c.name for c in TAXONOMY if c.url_filtered)} alerts.",
                ),
                "severity_min": Meaning("", "The lowest severity pushed."),
            },
        ),
        Mode(
            "dialogs",
            "how dialogs are answered (dialog_policy).",
            _dialogs,
            detail="On the tabs this session acts on.",
            needs=("dialog_policy",),
            fields={
                "dialog_policy": Meaning(
                    "",
                    "accept (the default: OK, a prompt's default text), dismiss (Cancel), or report (left open: "
                    "calls on the tab say so until interact({action:'dialog'}) answers it). Answers say which "
                    "dialogs a policy answered.",
                ),
            },
        ),
        Mode(
            "answers",
            "raise max_answer_chars when answers come cut.",
            _answers,
            needs=("max_answer_chars",),
            fields={
                "max_answer_chars": Meaning(
                    f"default {bounded.ANSWER_CHARS}.",
                    "The most characters of text one answer carries; longer page texts, lists and script results are "
                    "cut, each cut marked with the original length.",
                ),
            },
        ),
        Mode(
            "debugger",
            "after debugger_canceled, once the user agrees.",
            _debugger,
            detail="Lets tabsight attach again. Calls fail with debugger_canceled after the user clicked Cancel on "
            "the browser's debugging bar; ask them first.",
        ),
        Mode(
            "emulate",
            "a device, colour scheme or network (emulation).",
            _emulate,
            detail="Until reset, the tab closes or the last MCP session ends; observe({what:'page'}) shows it.",
            acts=True,
            needs=("emulation",),
            rule=_named_user_tab,
            fields={
                "emulation": Meaning(
                    "",
                    "What to change, e.g. {device: 'iphone-15'} or {color_scheme: 'dark'}; aspects not given stay as "
                    "they are. The embedded browser's tabs only, unless tab_id names a tab of the user's and "
                    "on_user_tab is true.",
                ),
                "tab_id": Meaning(
                    "",
                    "Default: the tracked tab; a tab of the user's own browser needs it, with emulation.on_user_tab.",
                ),
            },
        ),
        Mode(
            "tabs",
            "sharing with other sessions (on_busy, on_end).",
            _sharing,
            needs=(OneOf(("on_busy", "on_end"), both=True),),
            fields={
                "on_busy": Meaning(
                    "on a tab another session is using.",
                    "fail at once (tab_busy, the default; the answer names who and until when) or wait, up to 60 "
                    "s, for that session's lease to end.",
                ),
                "on_end": Meaning(
                    "",
                    "What becomes of the tabs this session opened when it ends: close (the default; a tab the user has switched to since stays) or keep.",
                ),
            },
        ),
        Mode(
            "take_over",
            "another session's tab (only if you must).",
            _take_over,
            detail="To act on it; its owner is told.",
            needs=("tab_id",),
            fields={"tab_id": ""},
        ),
        Mode(
            "release",
            "a tab you opened, for others.",
            _release,
            needs=("tab_id",),
            fields={"tab_id": ""},
        ),
    ),
)
