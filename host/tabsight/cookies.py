"""Cookies for a `screenshot` of a URL: validated, merged with the user's default cookies, matched to the URL.

Cookie values are secrets: no message, log line or result here ever quotes
one. Names, domains and paths are checked as BrowserLoop checks them (no
script-like content); values by the rule the browser itself applies
(Chromium's ``ParsedCookie::IsValidCookieValue``: no control characters and
no ``;``), so ``prefs={"theme":"dark","lang":"en"}`` is a value like any other,
and on top of it by the script-like rules (``VALUE_RULES``), which BrowserLoop
answers with a validation error: a ``<script>`` tag, a ``javascript:`` URL...
The value rules are narrower than the name rules (an ``on...=`` counts only
inside a tag), as a legal value such as ``option=1&condition=2`` holds what a
name may not.

A cookie whose domain is not the URL's host (or a parent of it) is dropped,
not refused, as BrowserLoop drops it: a list exported from a browser holds
cookies of many sites, and the capture goes on with those that match.
"""

from __future__ import annotations

import json
import logging
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from . import config
from .limits import MAX_COOKIES

log = logging.getLogger("tabsight.cookies")

#: RFC 6265 token characters for names; letters, digits, dots and dashes for domains
NAME = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,256}")
DOMAIN = re.compile(r"\.?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*")
#: what Chromium refuses in a value: control characters and the separator that would end it
VALUE_FORBIDDEN = re.compile(r"[;\x00-\x1f\x7f]")
#: what a path may not hold on top of that: spaces and the characters that would end an attribute
PATH_FORBIDDEN = re.compile(r'[;,\s"\\\x00-\x1f\x7f]')
#: content that has no business in a name, domain or path and is how injection attempts look
SUSPICIOUS = re.compile(r"<\s*/?\s*script|javascript:|vbscript:|data:text/html|on\w+\s*=", re.IGNORECASE)
#: script-like content a value may not hold either, each with the rule an error names (never the value)
VALUE_RULES = (
    (re.compile(r"<\s*/?\s*script", re.IGNORECASE), "a <script> tag"),
    (re.compile(r"javascript\s*:", re.IGNORECASE), "a javascript: URL"),
    (re.compile(r"vbscript\s*:", re.IGNORECASE), "a vbscript: URL"),
    (re.compile(r"data:\s*text/html", re.IGNORECASE), "a data:text/html URL"),
    (re.compile(r"<[^>]*[\s/\"']on[a-z]+\s*=", re.IGNORECASE), "an on...= event handler in a tag"),
)
MAX_VALUE_BYTES = 4096
LOCAL_HOSTS = {"localhost", "127.0.0.1", "[::1]", "::1"}


class Cookie(BaseModel):
    """A cookie for the capture's requests. Fields other browser tools export
    (hostOnly, storeId, ...) are ignored."""

    model_config = ConfigDict(extra="ignore")

    name: str
    value: str
    domain: str | None = Field(default=None, json_schema_extra={"detail": "Default: the URL's host only."})
    path: str = "/"
    httpOnly: bool = False
    secure: bool = False
    expires: float | None = Field(
        default=None, description="Unix seconds.", json_schema_extra={"detail": "Past ones are not sent."}
    )
    sameSite: Literal["Strict", "Lax", "None"] | None = None


def parse(cookies: Any) -> list[Cookie]:
    """A list of cookies, or a JSON string of one, validated; ValueError names the first bad cookie."""
    if isinstance(cookies, str):
        try:
            cookies = json.loads(cookies)
        except ValueError:
            raise ValueError("Invalid cookies: not valid JSON (expected a JSON array of cookie objects)") from None
    if not isinstance(cookies, list):  # ValueError, not TypeError, below: pydantic reports ValueError only
        raise ValueError("Invalid cookies: expected an array of cookie objects (or a JSON string of one)")
    if len(cookies) > MAX_COOKIES:
        raise ValueError(f"Invalid cookies: {len(cookies)} given, at most {MAX_COOKIES} allowed")
    return [_cookie(index, raw) for index, raw in enumerate(cookies)]


def _cookie(index: int, raw: Any) -> Cookie:
    where = f"cookies[{index}]"
    try:
        cookie = Cookie.model_validate(raw)
    except ValidationError as exc:
        problems = ", ".join(f"{'.'.join(map(str, e['loc'])) or 'cookie'}: {e['msg']}" for e in exc.errors())
        raise ValueError(f"Invalid {where} ({problems})") from None
    if not NAME.fullmatch(cookie.name) or SUSPICIOUS.search(cookie.name):
        raise ValueError(f"Invalid {where}: the name must be 1-256 letters, digits or !#$%&'*+-.^_`|~")
    where = f"cookie {cookie.name!r}"
    if len(cookie.value.encode()) > MAX_VALUE_BYTES:
        raise ValueError(f"Invalid {where}: the value is over {MAX_VALUE_BYTES} bytes")
    if VALUE_FORBIDDEN.search(cookie.value):
        raise ValueError(f"Invalid {where}: the value holds a control character or ';' (browsers refuse both)")
    script_like = next((rule for pattern, rule in VALUE_RULES if pattern.search(cookie.value)), None)
    if script_like:
        # (no ':' right after the cookie's name: redaction takes what follows "cookie 'name':" for its value)
        raise ValueError(
            f"Invalid {where}, refused as BrowserLoop refuses it: its value holds script-like content ({script_like})"
        )
    if cookie.domain is not None and (not DOMAIN.fullmatch(cookie.domain) or SUSPICIOUS.search(cookie.domain)):
        raise ValueError(f"Invalid {where}: the domain may hold only letters, digits, dots and dashes")
    if not cookie.path.startswith("/") or SUSPICIOUS.search(cookie.path) or PATH_FORBIDDEN.search(cookie.path):
        raise ValueError(f"Invalid {where}: the path must start with / and hold no separators")
    return cookie


def host_of(url: str) -> str:
    """The host cookies are matched against; '' for a URL without one (data:)."""
    return (urlsplit(url).hostname or "").lower()


def domain_matches(cookie: Cookie, host: str) -> bool:
    """RFC 6265: the cookie's domain is the host or a parent of it (a leading dot changes nothing);
    local development hosts (localhost, 127.0.0.1, ::1) count as one another. A ``__Host-`` cookie is
    for the URL's host whatever its domain says (the browser allows it no other)."""
    if cookie.domain is None or cookie.name.startswith("__Host-"):
        return bool(host)
    domain = cookie.domain.lstrip(".").lower()
    return host == domain or host.endswith("." + domain) or (host in LOCAL_HOSTS and domain in LOCAL_HOSTS)


def _key(cookie: Cookie, host: str) -> tuple[str, str]:
    """Which cookies are "the same": name and domain, a missing domain being the URL's host."""
    domain = (cookie.domain or host).lstrip(".").lower()
    return cookie.name, "localhost" if domain in LOCAL_HOSTS else domain


@dataclass
class Selection:
    """The cookies a capture of one URL sends, and those of the request it drops (names, never values)."""

    applied: list[Cookie] = field(default_factory=list)
    dropped: list[dict[str, str]] = field(default_factory=list)

    def drop(self, cookie: Cookie, reason: str) -> None:
        self.dropped.append({"name": cookie.name, "domain": cookie.domain or "", "reason": reason})

    def refused(self, names: list[str]) -> None:
        """The browser's store did not take these (SameSite=None without secure, for one)."""
        for cookie in [cookie for cookie in self.applied if cookie.name in names]:
            self.applied.remove(cookie)
            self.drop(cookie, "the browser refused it (as it refuses sameSite None without secure: true)")


def select(requested: list[Cookie], defaults: list[Cookie], url: str, now: float | None = None) -> Selection:
    """The request's cookies merged over the defaults (the request wins on the same name and domain),
    keeping those whose domain matches the URL's host and that have not expired. A requested cookie
    left out is named in ``dropped``; a default one is just not applied (defaults hold cookies for many
    sites, and a file of them may be old)."""
    host = host_of(url)
    now = time.time() if now is None else now
    selection = Selection()
    overridden = {_key(cookie, host) for cookie in requested}
    for cookie in defaults:
        if _key(cookie, host) not in overridden and domain_matches(cookie, host) and not _expired(cookie, now):
            selection.applied.append(cookie)
    for cookie in requested:
        if not domain_matches(cookie, host):
            selection.drop(
                cookie,
                f"domain does not match the URL's host {host!r}" if host else "the URL has no host to send it to",
            )
        elif _expired(cookie, now):
            selection.drop(cookie, "expired")
        else:
            selection.applied.append(cookie)
    return selection


def _expired(cookie: Cookie, now: float) -> bool:
    """Past its expiry (a negative one, as browsers export session cookies, never is)."""
    return cookie.expires is not None and 0 <= cookie.expires <= now


def wire(cookies: list[Cookie], url: str) -> list[dict[str, Any]]:
    """The cookies as the extension takes them: a cookie without a domain (or for a local host that the
    URL names differently) is host-only, for the URL's host. A prefixed name brings what the browser
    demands of it, as BrowserLoop fills it in: ``__Secure-`` is secure; ``__Host-`` is secure, for
    path / and the URL's host only."""
    host = host_of(url)
    entries = []
    for cookie in cookies:
        entry = cookie.model_dump(exclude_none=True)
        if cookie.name.startswith(("__Secure-", "__Host-")):
            entry["secure"] = True
        if cookie.name.startswith("__Host-"):
            entry["path"] = "/"
        if (
            cookie.domain is None
            or cookie.name.startswith("__Host-")
            or (host in LOCAL_HOSTS and cookie.domain.lstrip(".") in LOCAL_HOSTS)
        ):
            entry.update(domain=host, host_only=True)
        entries.append(entry)
    return entries


class Defaults:
    """The user's default cookies, from ``TABSIGHT_DEFAULT_COOKIES`` (or BrowserLoop's
    ``BROWSERLOOP_DEFAULT_COOKIES``): a JSON array, or the path of a file holding one.

    A file is read again when it changes, so a refreshed export applies to the next capture without a
    restart (BrowserLoop watches it). A missing, unreadable or invalid source gives no cookies and one
    log line each time it changes; the server goes on.
    """

    def __init__(self, configuration: config.Config | None = None) -> None:
        #: where the variable is read: this process's configuration (``config.current()``) unless given
        self._configuration = configuration
        self._seen: tuple[Any, ...] | None = None
        self._cookies: list[Cookie] = []

    def get(self) -> list[Cookie]:
        configuration = self._configuration or config.current()
        raw = configuration[config.TABSIGHT_DEFAULT_COOKIES]
        if not raw:
            return []
        variable = configuration.source(config.TABSIGHT_DEFAULT_COOKIES)
        if raw.startswith("["):
            state: tuple[Any, ...] = (raw,)
        else:
            path = Path(raw).expanduser()
            try:
                stat = path.stat()
                state = (raw, stat.st_mtime_ns, stat.st_size)
            except OSError as exc:
                state = (raw, type(exc).__name__)
        if state != self._seen:
            self._seen = state
            self._cookies = self._load(variable, raw)
        return self._cookies

    @staticmethod
    def _load(variable: str | None, raw: str) -> list[Cookie]:
        source = f"{variable} (JSON)"
        text = raw
        if not raw.startswith("["):
            source = f"{variable} file {raw}"
            try:
                text = Path(raw).expanduser().read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                log.warning(
                    "%s: cannot read it (%s); no default cookies", source, getattr(exc, "strerror", None) or exc
                )
                return []
        try:
            cookies = parse(text)
        except ValueError as exc:
            log.warning("%s: %s; no default cookies", source, exc)
            return []
        log.info("%s: %d default cookies (%s)", source, len(cookies), ", ".join(c.name for c in cookies))
        return cookies
