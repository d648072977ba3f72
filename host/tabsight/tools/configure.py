"""configure: session settings: which tab this session tracks, screenshots at the
end of answers (screenshot_mode), alert streaming, and a tab's emulation."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from .. import bounded
from ..session.autoshot import CaptureSettings
from ..session.state import Session
from ..session.streaming import EventFilter, StreamConfig
from .base import Params, Tool
from .emulation import EmulationParams, emulate
from .response import Response


class CaptureSettingsParams(Params):
    screenshot_mode: Literal["off", "on", "errors_only"] = Field(
        description="on: every observe and generate answer ends with a fresh JPEG of the tracked tab; errors_only: "
        "only observe({what:'errors'}) answers; off (the default)."
    )
    cooldown_seconds: float = Field(default=5, ge=0, le=3600, description="At least this long between two.")
    session_limit: int = Field(default=10, ge=1, le=1000, description="At most this many in this session.")


class ConfigureParams(Params):
    action: Literal[
        "track", "capture", "streaming", "dialogs", "answers", "debugger", "emulate", "tabs", "take_over", "release",
    ] = Field(
        description="track: choose the tab (and browser) this session works on. capture: screenshots that come "
        "by themselves (settings.screenshot_mode). streaming: push alerts to this session as they happen (MCP "
        "notifications), within a throttle; the answer says whether they reach this client. dialogs: how "
        "alert/confirm/prompt dialogs on the tabs this session acts on are answered (dialog_policy). answers: how much text one answer may carry (max_answer_chars). debugger: after the user clicked Cancel "
        "on the browser's debugging bar (calls then fail with debugger_canceled), and only once they agreed, lets "
        "tabsight attach again. emulate: a device's viewport, a colour scheme, a slow or no network on a tab "
        "(emulation), until reset, the tab closes or the last MCP session ends; observe({what:'page'}) shows it. "
        "tabs: how this session shares the browser (on_busy, on_end). take_over: make another session's tab "
        "(tab_id) this session's, to act on it (its owner is told; only when you must). release: hand a tab this "
        "session opened (tab_id) back, for any session to act on."
    )
    settings: CaptureSettingsParams | None = Field(default=None, description="capture: the settings.")
    tab_id: int | None = Field(
        default=None,
        description="track: the tab, as listed by observe({what:'tabs'}). emulate: the tab (default: the tracked "
        "one); a tab of the user's own browser needs it, with emulation.on_user_tab. take_over, release: the tab.",
    )
    browser: str | None = Field(
        default=None,
        description="track: the browser's id from observe({what:'tabs'}); needed only when several browsers are "
        "connected and the tab id is ambiguous.",
    )
    streaming_action: Literal["enable", "disable", "status"] | None = Field(
        default=None, description="streaming: enable (with the settings below), disable (clears pending), status."
    )
    events: list[EventFilter] = Field(
        default=["all"],
        min_length=1,
        description="streaming: alert categories to push. errors also covers error spikes (anomaly); performance "
        "also covers regressions; picked: the user pointed at an element (observe what=picked).",
    )
    throttle_seconds: int = Field(default=5, ge=1, le=60, description="streaming: at most one notification per this.")
    url_filter: str = Field(
        default="", max_length=2048, description="streaming: network and performance alerts only for URLs containing this."
    )
    severity_min: Literal["info", "warning", "error"] = Field(default="warning", description="streaming: lowest severity.")
    max_answer_chars: int | None = Field(
        default=None, ge=1_000, le=10_000_000,
        description=f"answers: the most characters of text one answer carries (default {bounded.ANSWER_CHARS}); "
        "longer page texts, lists and script results are cut, each cut marked with the original length.",
    )
    emulation: EmulationParams | None = Field(
        default=None,
        description="emulate: what to change; aspects not given stay as they are. The embedded browser's tabs "
        "only, unless tab_id names a tab of the user's and on_user_tab is true.",
    )
    on_busy: Literal["fail", "wait"] | None = Field(
        default=None,
        description="tabs: what a call on a tab another session is acting on does: fail at once (tab_busy, the "
        "default; the answer names who and until when) or wait, up to 60 s, for that session's lease to end.",
    )
    on_end: Literal["close", "keep"] | None = Field(
        default=None,
        description="tabs: what becomes of the tabs this session opened when it ends: close (the default; a tab "
        "the user has switched to since stays) or keep.",
    )
    dialog_policy: Literal["accept", "dismiss", "report"] | None = Field(
        default=None,
        description="dialogs: accept (the default: OK, a prompt's default text), dismiss (Cancel), or report (left "
        "open: calls on the tab say so until interact({action:'dialog'}) answers it). Answers say which dialogs "
        "a policy answered.",
    )

    @model_validator(mode="after")
    def _needs(self) -> ConfigureParams:
        if self.action in ("track", "take_over", "release") and self.tab_id is None:
            raise ValueError(f"action '{self.action}' needs 'tab_id' (observe({{what:'tabs'}}) lists them)")
        if self.action == "tabs" and self.on_busy is None and self.on_end is None:
            raise ValueError("action 'tabs' needs 'on_busy' (fail or wait) or 'on_end' (close or keep)")
        for name in ("on_busy", "on_end"):
            if getattr(self, name) is not None and self.action != "tabs":
                raise ValueError(f"'{name}' is for action 'tabs' only, not '{self.action}'")
        if self.action == "capture" and self.settings is None:
            raise ValueError("action 'capture' needs 'settings', e.g. {screenshot_mode: 'on'}")
        if self.action == "answers" and self.max_answer_chars is None:
            raise ValueError("action 'answers' needs 'max_answer_chars', e.g. 200000")
        if self.action == "dialogs" and self.dialog_policy is None:
            raise ValueError("action 'dialogs' needs 'dialog_policy': accept, dismiss or report")
        if self.action == "streaming" and self.streaming_action is None:
            raise ValueError("action 'streaming' needs 'streaming_action': enable, disable or status")
        if self.action == "emulate" and self.emulation is None:
            raise ValueError("action 'emulate' needs 'emulation', e.g. {device: 'iphone-15'} or {color_scheme: 'dark'}")
        if self.emulation is not None and self.emulation.on_user_tab and self.tab_id is None:
            raise ValueError("'on_user_tab' needs 'tab_id': the user's tab is emulated only when named")
        return self


async def configure(session: Session, params: ConfigureParams, response: Response) -> None:
    # (the asserts: ConfigureParams' checks saw to each action's argument)
    if params.action == "streaming":
        response.result = await _streaming(session, params)
    elif params.action == "answers":
        assert params.max_answer_chars is not None
        session.answer_chars = params.max_answer_chars
        response.result = {"answers": {"max_answer_chars": session.answer_chars}}
    elif params.action == "dialogs":
        assert params.dialog_policy is not None
        session.browsers.dialog_policy = params.dialog_policy
        response.result = {"dialogs": {"policy": params.dialog_policy}}
    elif params.action == "debugger":
        response.result = await (await session.browsers.client()).allow_debugger()
    elif params.action == "emulate":
        assert params.emulation is not None
        response.result = {"emulate": await emulate(session, params.emulation, params.tab_id)}
    elif params.action == "tabs":
        response.result = {"tabs": await _tabs(session, params)}
    elif params.action in ("take_over", "release"):
        assert params.tab_id is not None
        response.result = await session.browsers.claim(params.action, params.tab_id)
    elif params.action == "capture":
        assert params.settings is not None
        note = session.autoshots.configure(CaptureSettings(**params.settings.model_dump()))
        response.result = {"capture": session.autoshots.status(), **({"note": note} if note else {})}
    else:
        assert params.tab_id is not None
        response.result = {"tracked": await session.browsers.track_tab(params.tab_id, params.browser)}


async def _tabs(session: Session, params: ConfigureParams) -> dict:
    """How this session shares the browser: ``on_busy`` is the front's to apply, ``on_end`` the host's."""
    if params.on_busy is not None:
        session.browsers.on_busy = params.on_busy
    if params.on_end is not None:
        await session.browsers.tabs_on_end(params.on_end)
    return {"on_busy": session.browsers.on_busy, **({"on_end": params.on_end} if params.on_end else {})}


async def _streaming(session: Session, params: ConfigureParams) -> dict:
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


TOOL = Tool(
    name="configure",
    description="Session settings. action=track chooses the tab (and browser) this session observes and acts on; "
    "action=capture sets screenshot_mode (a screenshot at the end of answers); action=streaming enables, "
    "disables or reports pushed alert notifications; action=dialogs sets how page dialogs are answered; action=answers sets how "
    "much text an answer may carry; action=debugger, once the user agreed, lets tabsight attach again after they "
    "cancelled its debugging bar; action=emulate puts a tab in a device's viewport, a colour scheme or a slow or "
    "no network (the embedded browser's tabs; a user's tab only when named with on_user_tab); action=tabs sets how "
    "this session shares the browser with other agents' sessions; action=take_over / release moves a tab between "
    "sessions (observe({what:'tabs'}) shows each tab's owner and lease).",
    params=ConfigureParams,
    handler=configure,
)
