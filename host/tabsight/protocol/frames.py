"""The frames of docs/wire-protocol.md, each a class whose fields say what the wire may carry.

Every frame that crosses a channel is checked here (``parse``); a field's type, bounds and default are
declared beside it, so each class is the check and the documentation of its kind. Unknown extra fields are
kept and sent on, so a newer peer can add fields without breaking an older one.

Plain classes, not pydantic models: the host, which a browser starts on its first call, reads frames from
its first instant, and pydantic costs a Python process about 50 ms to import (a third of the host's start).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from ..errors import Code
from ..limits import PROTOCOL_VERSION
from .framing import BadFrame, decode_payload

#: the default of a field that has none: it must be given
REQUIRED = object()


class Invalid(ValueError):
    """A value a field does not take; ``where`` is the field's path."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(f"{where}: {problem}")
        self.where = where
        self.problem = problem


Check = Callable[[Any], Any]


def text(min_length: int = 0, max_length: int | None = None) -> Check:
    def check(value: Any) -> str:
        if not isinstance(value, str):
            raise ValueError("should be a string")
        if len(value) < min_length:
            raise ValueError(f"should have at least {min_length} character{'s' if min_length > 1 else ''}")
        if max_length is not None and len(value) > max_length:
            raise ValueError(f"should have at most {max_length} characters")
        return value

    return check


def integer(low: int | None = None, high: int | None = None) -> Check:
    def check(value: Any) -> int:
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError("should be an integer")
        if low is not None and value < low:
            raise ValueError(f"should be at least {low}")
        if high is not None and value > high:
            raise ValueError(f"should be at most {high}")
        return value

    return check


def number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError("should be a number")
    return float(value)


def boolean(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError("should be true or false")
    return value


def obj(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError("should be an object")
    return value


def one_of(*allowed: str) -> Check:
    def check(value: Any) -> str:
        if value not in allowed:
            raise ValueError(f"should be {' or '.join(repr(option) for option in allowed)}")
        return value

    return check


def optional(check: Check) -> Check:
    return lambda value: None if value is None else check(value)


def record(cls: type[Record]) -> Check:
    """A field holding a nested record: an object on the wire, the record in code."""

    def check(value: Any) -> Record:
        if isinstance(value, cls):
            return value
        return cls(**obj(value))

    return check


class Record:
    """A frame or a part of one. ``FIELDS``: name -> (check, default, REQUIRED for none); a check returns the
    value (or raises ValueError, naming what is wrong). Building one checks its values; ``Invalid`` names the
    first field that does not take its value."""

    FIELDS: ClassVar[dict[str, tuple[Check, Any]]] = {}

    def __init__(self, /, **values: Any) -> None:
        for name, (check, default) in self.FIELDS.items():
            if name in values:
                given = values.pop(name)
                try:
                    value = check(given)
                except Invalid as exc:
                    raise Invalid(f"{name}.{exc.where}", exc.problem) from None
                except ValueError as exc:
                    raise Invalid(name, str(exc)) from None
            elif default is REQUIRED:
                raise Invalid(name, "missing")
            else:
                value = dict(default) if isinstance(default, dict) else default
            setattr(self, name, value)
        #: fields of a newer peer's, kept as they came
        self.extra = values

    def replace(self, **changes: Any):
        """A copy with ``changes``."""
        return type(self)(**{**self.fields(), **self.extra, **changes})

    def fields(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.FIELDS}

    def wire(self) -> dict[str, Any]:
        """What goes on the wire: every field that is not None, nested records as objects."""
        out = {}
        for name, value in {**self.fields(), **self.extra}.items():
            if value is not None:
                out[name] = value.wire() if isinstance(value, Record) else value
        return out

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and self.wire() == other.wire()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in self.wire().items())})"


class BrowserInfo(Record):
    name: str
    version: str
    user_agent: str

    FIELDS = {"name": (text(), "unknown"), "version": (text(), ""), "user_agent": (text(), "")}


class ExtensionInfo(Record):
    """What the extension said of itself in its hello (``browser_run``: this run of the browser, new after a
    restart, kept while the browser runs)."""

    version: str
    browser: BrowserInfo
    profile_id: str
    browser_run: str

    FIELDS = {
        "version": (text(), REQUIRED),
        "browser": (record(BrowserInfo), None),
        "profile_id": (text(), ""),
        "browser_run": (text(), ""),
    }

    def __init__(self, /, **values: Any) -> None:
        super().__init__(**values)
        if self.browser is None:
            self.browser = BrowserInfo()


def _kind(name: str) -> tuple[Check, str]:
    return one_of(name), name


class Hello(Record):
    """Each side's first frame. From the extension: ``browser``, ``profile_id``, ``browser_run``, and
    ``last_active`` (when the user last used the browser, unix seconds; now if one of its windows has the
    focus), which the host passes on to fronts. From a front: ``session``, and ``client`` (the MCP client's
    name, which the tabs it owns show). From the host: ``host_id``,
    ``pid``, ``embedded``, ``isolated`` (an embedded browser one session has to itself), ``extension``, ``channel`` (stable, beta, dev, canary, nightly, snapshot, when the
    browser's executable tells), ``user_data_dir``, ``profile_dir`` and ``profile_name`` (the name its profile
    menu shows)."""

    kind: str
    protocol: int
    role: str
    version: str
    browser: BrowserInfo | None
    profile_id: str | None
    browser_run: str | None
    last_active: float | None
    session: str | None
    client: str | None
    host_id: str | None
    pid: int | None
    embedded: str | None
    isolated: bool | None
    extension: ExtensionInfo | None
    channel: str | None
    user_data_dir: str | None
    profile_dir: str | None
    profile_name: str | None

    FIELDS = {
        "kind": _kind("hello"),
        "protocol": (integer(), PROTOCOL_VERSION),
        "role": (one_of("extension", "host", "front"), REQUIRED),
        "version": (text(), REQUIRED),
        "browser": (optional(record(BrowserInfo)), None),
        "profile_id": (optional(text()), None),
        "browser_run": (optional(text()), None),
        "last_active": (optional(number), None),
        "session": (optional(text()), None),
        "client": (optional(text()), None),
        "host_id": (optional(text()), None),
        "pid": (optional(integer()), None),
        "embedded": (optional(text()), None),
        "isolated": (optional(boolean), None),
        "extension": (optional(record(ExtensionInfo)), None),
        "channel": (optional(text()), None),
        "user_data_dir": (optional(text()), None),
        "profile_dir": (optional(text()), None),
        "profile_name": (optional(text()), None),
    }


class Request(Record):
    kind: str
    id: str
    method: str
    params: dict[str, Any]
    timeout_ms: int | None

    FIELDS = {
        "kind": _kind("request"),
        "id": (text(1, 200), REQUIRED),
        "method": (text(1, 100), REQUIRED),
        "params": (obj, {}),
        "timeout_ms": (optional(integer(1, 600_000)), None),
    }


class Response(Record):
    kind: str
    id: str
    result: dict[str, Any]

    FIELDS = {"kind": _kind("response"), "id": (text(), REQUIRED), "result": (obj, {})}


class ErrorBody(Record):
    code: str
    message: str

    FIELDS = {"code": (text(), REQUIRED), "message": (text(), REQUIRED)}


class Error(Record):
    kind: str
    id: str | None
    error: ErrorBody

    FIELDS = {"kind": _kind("error"), "id": (optional(text()), None), "error": (record(ErrorBody), REQUIRED)}


class Event(Record):
    kind: str
    event: str
    data: dict[str, Any]

    FIELDS = {"kind": _kind("event"), "event": (text(), REQUIRED), "data": (obj, {})}


class Cancel(Record):
    kind: str
    id: str

    FIELDS = {"kind": _kind("cancel"), "id": (text(), REQUIRED)}


Frame = Hello | Request | Response | Error | Event | Cancel
KINDS: dict[str, type[Frame]] = {
    "hello": Hello,
    "request": Request,
    "response": Response,
    "error": Error,
    "event": Event,
    "cancel": Cancel,
}


def parse(payload: bytes) -> Frame:
    """Bytes of one frame -> a checked frame, or BadFrame naming what is wrong."""
    obj = decode_payload(payload)
    frame_id = obj.get("id") if isinstance(obj.get("id"), str) else None
    kind = obj.get("kind")
    cls = KINDS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise BadFrame(f"invalid frame (kind: should be one of {', '.join(KINDS)})", frame_id)
    try:
        return cls(**obj)
    except Invalid as exc:
        raise BadFrame(f"invalid frame ({kind}.{exc.where}: {exc.problem})", frame_id) from None


def dump(frame: Record) -> dict[str, Any]:
    return frame.wire()


def error(frame_id: str | None, code: Code, message: str) -> Error:
    return Error(id=frame_id, error=ErrorBody(code=code.value, message=message))
