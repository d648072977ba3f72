"""configure({action:'emulate'}): a device's viewport, a colour scheme, a network, on one tab.

The device and network presets are tables here, and only here: the extension
(``extension/service-worker/emulation.js``) is told plain numbers, keeps them per tab for as
long as they last, and applies them through the debugger.

Who may be emulated: the embedded browser's tabs, and the tabs this session
opened (``interact`` open_tab), freely: they are tabsight's and the agent's.
A tab in the user's own browser only when the agent names it
(``tab_id``) and says it means to (``on_user_tab: true``): the user sees that
tab change, so it never happens as a side effect of tracking it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

from pydantic import Field, model_validator

from ..errors import ToolError
from ..session.state import Session
from .base import Params, detail


@dataclass(frozen=True)
class Device:
    width: int
    height: int
    device_scale_factor: float
    #: a phone's or tablet's: its layout (meta viewport, overlay scrollbars) and touch input
    mobile: bool
    #: None: the browser's own
    user_agent: str | None


_SAFARI_IOS = "AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1"
#: viewports in CSS px, as the devices' browsers report them (Chrome DevTools' and Playwright's tables agree)
DEVICES: dict[str, Device] = {
    "iphone-15": Device(393, 852, 3, True, f"Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) {_SAFARI_IOS}"),
    "iphone-se": Device(375, 667, 2, True, f"Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) {_SAFARI_IOS}"),
    "pixel-7": Device(
        412,
        915,
        2.625,
        True,
        "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile "
        "Safari/537.36",
    ),
    "ipad": Device(820, 1180, 2, True, f"Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) {_SAFARI_IOS}"),
    "desktop-1080p": Device(1920, 1080, 1, False, None),
}


@dataclass(frozen=True)
class Network:
    offline: bool
    #: added to every request's round trip
    latency_ms: int
    #: bytes per second; -1: not throttled
    download_bytes_per_s: int
    upload_bytes_per_s: int


#: Chrome DevTools' presets (its kbit/s figures, times its 0.8-0.9 factors, as bytes per second)
NETWORKS: dict[str, Network] = {
    "offline": Network(True, 0, -1, -1),
    "slow-3g": Network(False, 2000, 50_000, 50_000),
    "fast-3g": Network(False, 563, 180_000, 84_375),
    "4g": Network(False, 165, 1_012_500, 168_750),
}

DeviceName = Literal["iphone-15", "iphone-se", "pixel-7", "ipad", "desktop-1080p"]
NetworkName = Literal["offline", "slow-3g", "fast-3g", "4g", "none"]
_VIEWPORT = ("device", "width", "height", "device_scale_factor", "mobile")


class EmulationParams(Params):
    device: DeviceName | None = Field(
        default=None,
        json_schema_extra=detail(
            "Its viewport, pixel ratio, touch and user agent: "
            + "; ".join(
                f"{name} {d.width}x{d.height} @{d.device_scale_factor}x" + (", mobile" if d.mobile else "")
                for name, d in DEVICES.items()
            )
            + " (its own user agent; desktop-1080p keeps the browser's). width, height, device_scale_factor and "
            "mobile given beside it override its values."
        ),
    )
    width: int | None = Field(default=None, ge=100, le=4000, json_schema_extra=detail("The viewport's, CSS px."))
    height: int | None = Field(default=None, ge=100, le=4000, json_schema_extra=detail("The viewport's, CSS px."))
    device_scale_factor: float | None = Field(
        default=None, ge=0.5, le=4, json_schema_extra=detail("window.devicePixelRatio; default 1.")
    )
    mobile: bool | None = Field(
        default=None,
        json_schema_extra=detail(
            "Default false. "
            "A phone's or tablet's layout (meta viewport, overlay scrollbars) and touch input (pointer: coarse)."
        ),
    )
    color_scheme: Literal["light", "dark", "no-preference"] | None = Field(
        default=None, json_schema_extra=detail("What the page's prefers-color-scheme media queries see.")
    )
    network: NetworkName | None = Field(
        default=None,
        json_schema_extra=detail(
            "offline: every request fails, navigator.onLine is false; or throttled: "
            + "; ".join(
                f"{name} {n.latency_ms} ms a round trip, {n.download_bytes_per_s // 1000} kB/s down, "
                f"{n.upload_bytes_per_s // 1000} kB/s up"
                for name, n in NETWORKS.items()
                if not n.offline
            )
            + "; none ends network emulation."
        ),
    )
    reset: bool = Field(default=False, json_schema_extra=detail("Ends every emulation on the tab: it is as it was."))
    on_user_tab: bool = Field(
        default=False,
        json_schema_extra=detail(
            "Needed, with tab_id, to emulate a tab of the user's own browser (the user sees it change); the refusal "
            "without it says so."
        ),
    )

    @model_validator(mode="after")
    def _needs(self) -> EmulationParams:
        given = [name for name in (*_VIEWPORT, "color_scheme", "network") if getattr(self, name) is not None]
        if self.reset and given:
            raise ValueError(f"'reset' ends every emulation: give it alone, not with '{given[0]}'")
        if not self.reset and not given:
            raise ValueError("'emulation' needs one of device, width and height, color_scheme, network, or reset")
        if (
            self.device is None
            and any(getattr(self, name) is not None for name in _VIEWPORT)
            and (self.width is None or self.height is None)
        ):
            raise ValueError("a viewport needs 'width' and 'height', or a 'device' from the list")
        return self

    def wire(self) -> dict[str, Any]:
        """What ``emulation.set`` is told: each aspect given, a null to end one (network none), or reset."""
        if self.reset:
            return {"reset": True}
        changes: dict[str, Any] = {}
        if any(getattr(self, name) is not None for name in _VIEWPORT):
            base = DEVICES[self.device] if self.device else Device(0, 0, 1, False, None)
            changes["viewport"] = {
                **({"device": self.device} if self.device else {}),
                "width": self.width or base.width,
                "height": self.height or base.height,
                "device_scale_factor": self.device_scale_factor or base.device_scale_factor,
                "mobile": base.mobile if self.mobile is None else self.mobile,
                **({"user_agent": base.user_agent} if base.user_agent else {}),
            }
        if self.color_scheme is not None:
            changes["color_scheme"] = self.color_scheme
        if self.network is not None:
            changes["network"] = (
                None if self.network == "none" else {"name": self.network, **asdict(NETWORKS[self.network])}
            )
        return changes


async def emulate(session: Session, emulation: EmulationParams, tab_id: int | None) -> dict[str, Any]:
    """Sets (or resets) the emulation of ``tab_id`` (else the tracked tab); what is in effect there now."""
    client, tab = await session.browsers.tab(tab_id, acting=True)
    users_tab = not client.embedded and not session.browsers.opened(client, tab)
    if users_tab and not emulation.reset and not (tab_id is not None and emulation.on_user_tab):
        raise ToolError(
            f"Tab {tab} is the user's own tab, in {client.name}: tabsight emulates nothing there unless asked for "
            "that very tab, as the user sees it change. Nothing was changed. If the user wants it, call "
            f"configure({{action:'emulate', tab_id:{tab}, emulation:{{..., on_user_tab:true}}}}); the embedded "
            "browser's tabs need neither."
        )
    answer = {"tab_id": tab, **await client.emulate(tab, emulation.wire())}
    if users_tab and answer.get("emulation"):
        answer["note"] = (
            f"Tab {tab} is the user's own, in {client.name}: they see it emulated, with the browser's debugging bar, "
            f"until configure({{action:'emulate', tab_id:{tab}, emulation:{{reset:true}}}}), the tab closes or the "
            "last MCP session ends."
        )
    return answer
