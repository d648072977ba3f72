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
from .base import Params, Tool
from .emulation import EmulationParams, emulate
from .modes import Mode, OneOf
from .response import Response


class CaptureSettingsParams(Params):
    screenshot_mode: Literal["off", "on", "errors_only"] = Field(
        description="on: every observe and generate answer ends with a fresh JPEG of the tracked tab; errors_only: "
        "only observe({what:'errors'}) answers; off (the default)."
    )
    cooldown_seconds: float = Field(default=5, ge=0, le=3600, description="At least this long between two.")
    session_limit: int = Field(default=10, ge=1, le=1000, description="At most this many in this session.")


class ConfigureParams(Params):
    #: the setting: one of the rows' names (the tool makes it their Literal)
    action: str
    settings: CaptureSettingsParams | None = None
    tab_id: int | None = None
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
    description="Session settings, one per action: {modes}. observe({what:'tabs'}) shows the tabs, their owners and "
    "leases.",
    params=ConfigureParams,
    modes=(
        Mode(
            "track",
            "choose the tab (and browser) this session works on.",
            _track,
            needs=("tab_id",),
            fields={
                "tab_id": "the tab, as listed by observe({what:'tabs'}).",
                "browser": "the browser's id from observe({what:'tabs'}); needed only when several browsers are "
                "connected and the tab id is ambiguous.",
            },
        ),
        Mode(
            "capture",
            "screenshots that come by themselves (settings.screenshot_mode).",
            _capture,
            needs=("settings",),
            fields={"settings": "the settings, e.g. {screenshot_mode: 'on'}."},
        ),
        Mode(
            "streaming",
            "push alerts to this session as they happen (MCP notifications), within a throttle; the "
            "answer says whether they reach this client.",
            _streaming,
            needs=("streaming_action",),
            fields={
                "streaming_action": "enable (with the settings below), disable (clears pending), status.",
                "events": "alert categories to push. errors also covers error spikes (anomaly); performance also "
                "covers regressions; picked: the user pointed at an element (observe what=picked).",
                "throttle_seconds": "at most one notification per this.",
                "url_filter": f"{', '.join(c.name for c in TAXONOMY if c.url_filtered)} alerts only for URLs "
                "containing this.",
                "severity_min": "lowest severity.",
            },
        ),
        Mode(
            "dialogs",
            "how alert/confirm/prompt dialogs on the tabs this session acts on are answered (dialog_policy).",
            _dialogs,
            needs=("dialog_policy",),
            fields={
                "dialog_policy": "accept (the default: OK, a prompt's default text), dismiss (Cancel), or report "
                "(left open: calls on the tab say so until interact({action:'dialog'}) answers it). Answers say "
                "which dialogs a policy answered.",
            },
        ),
        Mode(
            "answers",
            "how much text one answer may carry (max_answer_chars).",
            _answers,
            needs=("max_answer_chars",),
            fields={
                "max_answer_chars": f"the most characters of text one answer carries (default "
                f"{bounded.ANSWER_CHARS}, e.g. 200000); longer page texts, lists and script results are cut, each "
                "cut marked with the original length.",
            },
        ),
        Mode(
            "debugger",
            "after the user clicked Cancel on the browser's debugging bar (calls then fail with "
            "debugger_canceled), and only once they agreed, lets tabsight attach again.",
            _debugger,
        ),
        Mode(
            "emulate",
            "a device's viewport, a colour scheme, a slow or no network on a tab (emulation), until "
            "reset, the tab closes or the last MCP session ends; observe({what:'page'}) shows it.",
            _emulate,
            acts=True,
            needs=("emulation",),
            rule=_named_user_tab,
            fields={
                "emulation": "what to change, e.g. {device: 'iphone-15'} or {color_scheme: 'dark'}; aspects not "
                "given stay as they are. The embedded browser's tabs only, unless tab_id names a tab of the "
                "user's and on_user_tab is true.",
                "tab_id": "the tab (default: the tracked one); a tab of the user's own browser needs it, with "
                "emulation.on_user_tab.",
            },
        ),
        Mode(
            "tabs",
            "how this session shares the browser (on_busy, on_end).",
            _sharing,
            needs=(OneOf(("on_busy", "on_end"), both=True),),
            fields={
                "on_busy": "what a call on a tab another session is acting on does: fail at once (tab_busy, the "
                "default; the answer names who and until when) or wait, up to 60 s, for that session's lease to "
                "end.",
                "on_end": "what becomes of the tabs this session opened when it ends: close (the default; a tab "
                "the user has switched to since stays) or keep.",
            },
        ),
        Mode(
            "take_over",
            "make another session's tab (tab_id) this session's, to act on it (its owner is told; only when you must).",
            _take_over,
            needs=("tab_id",),
            fields={"tab_id": "the tab."},
        ),
        Mode(
            "release",
            "hand a tab this session opened (tab_id) back, for any session to act on.",
            _release,
            needs=("tab_id",),
            fields={"tab_id": "the tab."},
        ),
    ),
)
