"""observe: look at the browser: the page's state, an annotated screenshot, the
tabs, the page's telemetry (errors, logs, network, vitals) and pending alerts.

Every answer but what=alerts ends with the session's pending alerts, if
any, as an ``_alerts`` block (drained there): the passive channel every MCP
client sees.
"""

from __future__ import annotations

import base64
import io
from typing import Literal

from pydantic import Field, model_validator

from .base import Params, Tool, image, text

#: the screenshot under the marks is taken at this JPEG quality; the drawn result is sent at ANNOTATED_QUALITY
CAPTURE_QUALITY = 90
ANNOTATED_QUALITY = 80


TELEMETRY = ("errors", "logs", "network", "vitals")


class ObserveParams(Params):
    what: Literal["page", "tabs", "errors", "logs", "network", "vitals", "alerts"] = Field(
        description="page: url, title, viewport, device pixel ratio, readyState, headings, forms and the "
        "interactive-element count of the tracked tab. tabs: the connected browsers and their tabs, "
        "and which tab is tracked. errors: console errors, uncaught exceptions, unhandled rejections. logs: "
        "console errors and warnings. network: failed and 4xx/5xx requests. vitals: LCP, CLS, INP, FCP, TTFB "
        "per page load. alerts: the pending alerts (drained)."
    )
    tab_id: int | None = Field(default=None, description="Look at this tab instead of the tracked one.")
    since: int = Field(
        default=0, ge=0, description="errors/logs/network/vitals: only what came after this cursor (from a previous answer)."
    )
    limit: int = Field(default=20, ge=1, le=200, description="errors/logs/network/vitals: at most this many, newest.")
    url: str | None = Field(
        default=None, min_length=1, max_length=2048, description="errors/logs/network/vitals: URL contains this."
    )
    annotate_screenshot: bool = Field(
        default=False,
        description="what=page: a screenshot with a numbered box on every element of the viewport, plus a map "
        "from each number to selector, role, name, text, bounds and interactionHint. interact({label:N}) acts on N.",
    )
    annotation_target: Literal["interactive", "all_visible", "custom"] = Field(
        default="interactive",
        description="interactive: controls, links and ARIA widgets; all_visible: visible elements with text or a "
        "role; custom: the elements annotation_selector matches.",
    )
    annotation_selector: str | None = Field(
        default=None, min_length=1, max_length=1024, description="CSS selector, with annotation_target=custom."
    )
    max_annotations: int = Field(default=50, ge=1, le=100, description="At most this many marks, in reading order.")

    @model_validator(mode="after")
    def _annotation_arguments(self) -> ObserveParams:
        if (self.annotation_target == "custom") != (self.annotation_selector is not None):
            raise ValueError(
                "annotation_selector is needed with annotation_target 'custom', and only then"
            )
        return self


async def observe(session, params: ObserveParams):
    if params.what == "alerts":
        block = session.inbox.drain() or {"_alerts": []}
        return [text({"alerts": block["_alerts"], **({"dropped": block["_alerts_dropped"]} if "_alerts_dropped" in block else {})})]
    content = await _look(session, params)
    alerts = session.inbox.drain()
    return content + [text(alerts)] if alerts else content


async def _look(session, params: ObserveParams):
    if params.what == "tabs":
        return [text(await session.describe_tabs())]
    link, tab_id = await session.browsers.tab(params.tab_id)
    if params.what in TELEMETRY:
        query = {"what": params.what, "tab_id": tab_id, "since": params.since, "limit": params.limit, "url": params.url}
        return [text({"what": params.what, "tab_id": tab_id, **await link.request("telemetry.query", query, timeout=5)})]
    if not params.annotate_screenshot:
        info = await link.request("page.info", {"tab_id": tab_id}, timeout=10)
        return [text({"tab_id": tab_id, **info})]

    found = await link.request(
        "elements.find",
        {
            "tab_id": tab_id,
            "target": params.annotation_target,
            "selector": params.annotation_selector,
            "max": params.max_annotations,
        },
        timeout=15,
    )
    shot = await link.request("capture", {"tab_id": tab_id, "format": "jpeg", "quality": CAPTURE_QUALITY}, timeout=15)
    page = found["page"]
    annotations = [{"label": n, **element} for n, element in enumerate(found["elements"], 1)]
    raw = base64.b64decode(shot["tiles"][0]["data"])
    session.remember_screenshot(raw)
    from .. import annotate  # here, not at the top: numpy costs every front ~11 MB, and most never annotate

    picture, _badges = annotate.draw(raw, annotations, page["viewport"]["width"])
    out = io.BytesIO()
    # 4:4:4: chroma subsampling would wash the thin coloured boxes out
    picture.save(out, "JPEG", quality=ANNOTATED_QUALITY, subsampling=0)
    session.remember_annotation(link, tab_id, page, [item["selector"] for item in annotations])
    summary = {
        "page": {key: page[key] for key in ("url", "title", "viewport")} | {"readyState": page["ready_state"]},
        "annotations": annotations,
        "total_found": found["total_found"],
    }
    return [image(base64.b64encode(out.getvalue()).decode(), "image/jpeg"), text(summary)]


TOOL = Tool(
    name="observe",
    description="Look at the browser: the tracked page's state (what=page; with annotate_screenshot, a screenshot "
    "whose interactive elements carry numbers that interact({label}) accepts), the open tabs (what=tabs), the "
    "page's errors, logs, failed requests and Web Vitals (pass the answer's cursor as since for only what is new), "
    "or pending alerts. Pending alerts also ride on every answer as _alerts.",
    params=ObserveParams,
    handler=observe,
    read_only=True,
)
