"""screenshot: BrowserLoop's `screenshot` tool, as a drop-in, on a real browser.

Parameter names, ranges, defaults, environment variables, result layout and
error wording are BrowserLoop's (docs/design.md §3), so its users switch by
pointing their MCP client here. With ``url`` the page opens in a window the
extension owns and closes again; without it, the tracked tab is captured as
it is. Additions of ours: ``max_width``/``max_height``, tiles for pages
longer than 8000 px, ``tab_id``, and the image's bytes and token cost in the
metadata.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from typing import Annotated, Any, cast
from urllib.parse import urlsplit

from pydantic import (
    Field,
    StrictBool,
    StringConstraints,
    ValidationInfo,
    field_validator,
)
from pydantic.json_schema import SkipJsonSchema

from .. import config, cookies as cookie_rules, images
from ..browser.client import BrowserClient, Shot
from ..cookies import Cookie
from ..errors import BrowserError, Code, ToolError
from ..limits import MAX_COOKIES, MAX_VIEWPORT, MIN_VIEWPORT
from ..progress import phase
from ..session.state import Session
from .base import Params, Tool, detail
from .response import Response

log = logging.getLogger("tabsight.screenshot")

#: the parameters' defaults: TABSIGHT_DEFAULT_* and the others of the configuration's screenshot section (or their
#: BrowserLoop names), as the parameters' schema is made
CONFIGURED = config.current()
#: TABSIGHT_DEFAULT_COOKIES (or BROWSERLOOP_DEFAULT_COOKIES), read again when its file changes
DEFAULT_COOKIES = cookie_rules.Defaults()

#: the longest URL: a data: URL carries its page (the native channel carries at most 1 MB a message)
MAX_DATA_URL = 512 * 1024
MAX_URL = 8192
#: how much of a data: URL the metadata repeats
SHOWN_DATA_URL = 100
#: where a url may lead: pages on the network, and pages carried in the URL itself
URL_SCHEMES = ("http", "https", "data")


class ScreenshotParams(Params):
    url: str | None = Field(
        default=None,
        max_length=MAX_DATA_URL,
        description="http(s) or data:.",
        json_schema_extra=detail(
            "In a window tabsight owns; a data: URL carries its page. Without it: the tracked tab as it is now."
        ),
    )
    width: int = Field(
        default=CONFIGURED[config.TABSIGHT_DEFAULT_WIDTH],
        ge=MIN_VIEWPORT,
        le=MAX_VIEWPORT,
        description="With url: viewport width, CSS px.",
    )
    height: int = Field(
        default=CONFIGURED[config.TABSIGHT_DEFAULT_HEIGHT],
        ge=MIN_VIEWPORT,
        le=MAX_VIEWPORT,
        description="With url: viewport height.",
    )
    format: images.Format = Field(
        default=cast(images.Format, CONFIGURED[config.TABSIGHT_DEFAULT_FORMAT]),
        json_schema_extra=detail("The image's format."),
    )
    quality: int = Field(
        default=CONFIGURED[config.TABSIGHT_DEFAULT_QUALITY], ge=1, le=100, description="webp and jpeg."
    )
    waitForNetworkIdle: StrictBool = Field(
        default=CONFIGURED[config.TABSIGHT_DEFAULT_WAIT_NETWORK_IDLE],
        description="With url; false: capture at DOMContentLoaded.",
        json_schema_extra=detail(
            "Otherwise it waits until the page has loaded and no request has been in flight for 500 ms."
        ),
    )
    timeout: int = Field(
        default=CONFIGURED[config.TABSIGHT_DEFAULT_TIMEOUT],
        ge=1000,
        le=120_000,
        description="With url: ms.",
        json_schema_extra=detail("For the whole load, retries included; many clients give up on a call at 60 s."),
    )
    fullPage: StrictBool = Field(
        default=False,
        description="The whole document.",
        json_schema_extra=detail("Not just the viewport; a page longer than 8000 px comes as tiles."),
    )
    # Strings when given, as in BrowserLoop's schema: null is refused, leaving the argument out (or "") is not.
    userAgent: Annotated[str, StringConstraints(max_length=1024)] | SkipJsonSchema[None] = Field(
        default=CONFIGURED[config.TABSIGHT_USER_AGENT], description="With url."
    )
    selector: Annotated[str, StringConstraints(max_length=1024)] | SkipJsonSchema[None] = Field(
        default=None, description="CSS: just that element."
    )
    cookies: list[Cookie] | str | None = Field(
        default=None,
        description="With url: a list or its JSON.",
        json_schema_extra=detail(
            f"Cookies for the page (at most {MAX_COOKIES}), merged over TABSIGHT_DEFAULT_COOKIES. Those for another "
            "domain are dropped and named in the metadata. They apply to this capture only and are never kept."
        ),
    )
    max_width: int | None = Field(
        default=None, ge=16, le=8000, json_schema_extra=detail("Downscale to at most this width (aspect kept).")
    )
    max_height: int | None = Field(
        default=None, ge=16, le=8000, json_schema_extra=detail("Downscale to at most this height (aspect kept).")
    )
    tab_id: int | None = Field(default=None, description="Without url: default the tracked tab.")

    @field_validator("url")
    @classmethod
    def _page_url(cls, url: str | None) -> str | None:
        if url is None:
            return None
        url = url.strip()
        parts = urlsplit(url)
        scheme = parts.scheme.lower()
        try:
            parts.port  # noqa: B018 (raises for a port out of range)
        except ValueError:
            scheme = ""
        if scheme not in URL_SCHEMES or (scheme != "data" and (not parts.hostname or len(url) > MAX_URL)):
            raise ValueError(f"Invalid URL format ('url' must be an http://, https:// or data: URL, got {url[:200]!r})")
        return url

    @field_validator("userAgent", "selector", mode="before")
    @classmethod
    def _a_string_when_given(cls, value: Any, info: ValidationInfo) -> Any:
        if value == "":  # BrowserLoop's reading: none given
            return None
        if not isinstance(value, str):  # ValueError, not TypeError, below: pydantic reports ValueError only
            raise ValueError(f"'{info.field_name}' is {value!r:.50}: it must be a string; leave it out for none")
        return value

    @field_validator("cookies", mode="before")
    @classmethod
    def _cookies(cls, cookies: Any) -> list[Cookie] | None:
        """Validated here, by hand, so that no message can quote a value."""
        return None if cookies is None else cookie_rules.parse(cookies)


#: the shortest load an attempt is given (the extension's lower bound)
MIN_ATTEMPT_MS = 1000

#: settings only a page tabsight opens can honour
URL_ONLY = ("width", "height", "waitForNetworkIdle", "timeout", "userAgent", "cookies")

#: Chrome network errors that are worth another try: the server may be starting
TRANSIENT_NET_ERRORS = re.compile(
    r"ERR_CONNECTION_(REFUSED|RESET|CLOSED|ABORTED)|ERR_EMPTY_RESPONSE|ERR_NETWORK_CHANGED|"
    r"ERR_TIMED_OUT|ERR_INTERNET_DISCONNECTED|ERR_ADDRESS_UNREACHABLE|ERR_NETWORK_IO_SUSPENDED"
)


def retryable(error: BrowserError) -> bool:
    """BrowserLoop's rule: network trouble and browser hiccups are retried;
    bad arguments, a missing element and an exceeded timeout are not."""
    if error.code in (Code.DISCONNECTED, Code.CAPTURE_FAILED, Code.INTERNAL):
        return True
    return error.code == Code.NAVIGATION_FAILED and bool(TRANSIENT_NET_ERRORS.search(error.message))


async def screenshot(session: Session, params: ScreenshotParams, response: Response) -> None:
    started = time.time()
    cookies = cookie_rules.Selection()
    if params.url is None:
        given = [name for name in URL_ONLY if name in params.model_fields_set]
        if given:
            raise ToolError(
                f"{', '.join(repr(name) for name in given)} applies only with 'url' (a page tabsight opens); "
                "the tracked tab is captured as it is"
            )
        client, tab_id = await session.browsers.tab(params.tab_id)
        capturing = "the whole page" if params.fullPage else params.selector or "the tab"
        with phase(f"capturing {capturing}", bound=30):
            shot = await client.capture(
                tab_id, params.format, params.quality, full_page=params.fullPage, selector=params.selector, timeout=30
            )
    else:
        if params.tab_id is not None:
            raise ToolError("'tab_id' and 'url' exclude each other: 'url' opens a window of its own")
        client = await session.browsers.client()
        listed = params.cookies if isinstance(params.cookies, list) else []  # (a string is parsed by then)
        cookies = cookie_rules.select(listed, DEFAULT_COOKIES.get(), params.url)
        shot = await _capture_url(client, params, cookie_rules.wire(cookies.applied, params.url))
        cookies.refused(shot.cookies_refused)

    pictures, scale = images.fit(shot.pictures, params.format, params.quality, params.max_width, params.max_height)
    if params.url is None and len(pictures) == 1:
        response.remember_screenshot(pictures[0].data)  # visual_diff's default baseline
        if not params.fullPage and not params.selector:
            session.screenshots.saw_viewport(client.id, tab_id, shot.viewport)
    width, height = images.grid_size(pictures)
    metadata: dict[str, Any] = {
        "width": width,
        "height": height,
        "timestamp": int(started * 1000),
        "url": shown_url(shot.url),
        "viewport": shot.viewport,
        "configuration": {
            "retryCount": config.current()[config.TABSIGHT_RETRY_COUNT],
            "userAgent": (params.userAgent if params.url else None) or "default",
        },
        "format": params.format,
        "bytes": sum(len(pic.data) for pic in pictures),
        "tokens": sum(images.vision_tokens(pic.width, pic.height) for pic in pictures),
    }
    if shot.status is not None:
        metadata["status"] = shot.status
    if cookies.applied or cookies.dropped:
        metadata["cookies"] = cookies_metadata(cookies, shot.cookies_via)
    if scale < 1:
        metadata["scale"] = round(scale, 4)
    if len(pictures) > 1:
        metadata["tiles"] = [
            {
                "image": n,
                "page_x": round(pic.page_x),
                "page_y": round(pic.page_y),
                "width": pic.width,
                "height": pic.height,
            }
            for n, pic in enumerate(pictures, 1)
        ]
    if shot.truncated:
        metadata["truncated"] = (
            "the page is longer than one answer can carry; use format jpeg or webp, max_width, or a selector"
        )
    for pic in pictures:
        response.add_image(pic.data, images.MIME_TYPES[params.format])
    response.result = {"metadata": metadata}


def shown_url(url: str | None) -> str | None:
    """The URL as the metadata gives it: a data: URL, which carries a whole page, cut short."""
    if url and url[:5].lower() == "data:" and len(url) > SHOWN_DATA_URL:
        return f"{url[:SHOWN_DATA_URL]}... ({len(url)} characters)"
    return url


#: what the metadata says of cookies sent only in request headers (the user's own profile)
HEADERS_ONLY_NOTE = (
    "your own browser profile: the cookies went in the page's request headers only, so that your cookie "
    "store stays untouched; page scripts do not see them in document.cookie"
)


def cookies_metadata(cookies: cookie_rules.Selection, via: str | None) -> dict[str, Any]:
    """Names of the cookies applied and dropped, and how they were applied; never a value."""
    described: dict[str, Any] = {"applied": [cookie.name for cookie in cookies.applied]}
    if cookies.dropped:
        described["dropped"] = cookies.dropped
    if cookies.applied and via:
        described["via"] = via
        if via == "request headers":
            described["note"] = HEADERS_ONLY_NOTE
    return described


async def _capture_url(client: BrowserClient, params: ScreenshotParams, cookies: list[dict[str, Any]]) -> Shot:
    """The page at ``params.url``, in a window of its own. Network trouble and hiccups are retried while the
    call's ``timeout`` leaves room: the whole call, retries included, answers within it (and a second or two)."""
    assert params.url is not None  # called only for a url
    deadline = time.monotonic() + params.timeout / 1000
    retries = 0
    attempt_ms = params.timeout  # the first attempt has it all (and its error quotes it as given)
    loading = (
        f"loading {params.url} in a window of its own"
        + (" until its network is idle" if params.waitForNetworkIdle else "")
        + ", to capture it"
    )
    while True:
        try:
            with phase(loading + (f", try {retries + 1}" if retries else ""), bound=attempt_ms / 1000):
                return await client.capture_url(
                    params.url,
                    width=params.width,
                    height=params.height,
                    format=params.format,
                    quality=params.quality,
                    wait_for_network_idle=params.waitForNetworkIdle,
                    timeout_ms=attempt_ms,
                    user_agent=params.userAgent,
                    cookies=cookies,
                    full_page=params.fullPage,
                    selector=params.selector,
                )
        except BrowserError as exc:
            delay = config.current()[config.TABSIGHT_RETRY_DELAY] / 1000
            left = deadline - time.monotonic() - delay
            if (
                retries == config.current()[config.TABSIGHT_RETRY_COUNT]
                or not retryable(exc)
                or left * 1000 < MIN_ATTEMPT_MS
            ):
                raise
            retries += 1
            log.info("screenshot attempt %d failed (%s), retrying", retries, exc.code)
            await asyncio.sleep(delay)
            attempt_ms = max(MIN_ATTEMPT_MS, int((deadline - time.monotonic()) * 1000))


TOOL = Tool(
    name="screenshot",
    description="Capture a page as an image: url opens it in a window of its own (BrowserLoop-compatible); "
    "else the tracked tab.",
    detail="With url: opens it in a window of its own at width x height, waits for it to load, captures and "
    "closes it. Without url: the tracked tab as it is now. fullPage for the whole document (tiles if longer than "
    "8000 px), selector for one element.",
    params=ScreenshotParams,
    handler=screenshot,
    read_only=True,
    error_prefix="Screenshot capture failed: ",
)
