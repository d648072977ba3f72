"""The frames of docs/wire-protocol.md as pydantic models.

Every frame that crosses a channel is validated here; one model per kind is
the validator and the documentation. Unknown extra fields are kept, so a newer
peer can add fields without breaking an older one.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from ..errors import Code
from ..limits import PROTOCOL_VERSION
from .framing import BadFrame, decode_payload


class _Frame(BaseModel):
    model_config = ConfigDict(extra="allow")


class BrowserInfo(BaseModel):
    model_config = ConfigDict(extra="allow")
    name: str = "unknown"
    version: str = ""
    user_agent: str = ""


class ExtensionInfo(BaseModel):
    """What the extension said of itself in its hello."""

    model_config = ConfigDict(extra="allow")
    version: str
    browser: BrowserInfo = BrowserInfo()
    profile_id: str = ""
    #: this run of the browser (new after a restart, kept while the browser runs)
    browser_run: str = ""


class Hello(_Frame):
    kind: Literal["hello"] = "hello"
    protocol: int = PROTOCOL_VERSION
    role: Literal["extension", "host", "front"]
    version: str
    # extension -> host
    browser: BrowserInfo | None = None
    profile_id: str | None = None
    browser_run: str | None = None
    # extension -> host, and host -> front: when the user last used the browser (unix seconds;
    # from the extension, now if one of its windows has the focus)
    last_active: float | None = None
    # front -> host
    session: str | None = None
    # host -> front
    host_id: str | None = None
    pid: int | None = None
    embedded: str | None = None
    extension: ExtensionInfo | None = None
    #: the browser's channel (stable, beta, dev, canary, nightly, snapshot), when its executable tells
    channel: str | None = None
    #: the browser's user data folder, the profile's folder in it and the name its profile menu shows
    user_data_dir: str | None = None
    profile_dir: str | None = None
    profile_name: str | None = None


class Request(_Frame):
    kind: Literal["request"] = "request"
    id: str = Field(min_length=1, max_length=200)
    method: str = Field(min_length=1, max_length=100)
    params: dict[str, Any] = {}
    timeout_ms: int | None = Field(default=None, ge=1, le=600_000)


class Response(_Frame):
    kind: Literal["response"] = "response"
    id: str
    result: dict[str, Any] = {}


class ErrorBody(BaseModel):
    model_config = ConfigDict(extra="allow")
    code: str
    message: str


class Error(_Frame):
    kind: Literal["error"] = "error"
    id: str | None = None
    error: ErrorBody


class Event(_Frame):
    kind: Literal["event"] = "event"
    event: str
    data: dict[str, Any] = {}


class Cancel(_Frame):
    kind: Literal["cancel"] = "cancel"
    id: str


Frame = Annotated[Union[Hello, Request, Response, Error, Event, Cancel], Field(discriminator="kind")]
_FRAME = TypeAdapter(Frame)


def parse(payload: bytes) -> Frame:
    """Bytes of one frame -> a validated frame, or BadFrame naming what is wrong."""
    obj = decode_payload(payload)
    try:
        return _FRAME.validate_python(obj)
    except ValidationError as exc:
        frame_id = obj.get("id") if isinstance(obj.get("id"), str) else None
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "frame"
        raise BadFrame(f"invalid frame ({where}: {first['msg']})", frame_id) from None


def dump(frame: BaseModel) -> dict[str, Any]:
    return frame.model_dump(mode="json", exclude_none=True)


def error(frame_id: str | None, code: Code, message: str) -> Error:
    return Error(id=frame_id, error=ErrorBody(code=code.value, message=message))
