"""tabsight's configuration: every ``TABSIGHT_*`` environment variable, declared once, read in one place.

``VARIABLES`` is the table: each variable's full name, what it means, the values it takes, its default, and what
a value it does not take does: the calls that need it fail with a message naming it and its allowed values
(``error``), or a warning says so and the default is used (``warning``), each as tabsight has always done.
``load`` reads an environment once into a frozen ``Config``. ``current()`` is the process's own, read on its first
use: the front (``tabsight mcp``), the native host and the other commands each run with the environment they were
started with. ``reset`` makes the next ``current()`` read the environment again, for tests and benches that change
it in-process. No other module reads a ``TABSIGHT_*`` variable (tests/test_config.py checks); the front writes a
few into the environment of the browser it starts, for the host there (the table's "internal" group).

``tabsight doctor`` prints the values in force; docs/configuration.md is ``markdown()``, written by
``python -m tabsight.config --markdown > docs/configuration.md``.

Not to be confused with ``settings.py``: the user's security settings file, which widens what tabsight may do,
and which no environment variable can stand in for (an MCP client's configuration, which a project can ship, sets
the environment).
"""

from __future__ import annotations

import logging
import os
import re
import sys
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Generic, Literal, TypeVar

from .errors import BrowserError, Code
from .limits import MAX_VIEWPORT, MIN_VIEWPORT

log = logging.getLogger("tabsight.config")

T = TypeVar("T")

# --- the kinds of value --------------------------------------------------------------------------------------------
# Each parses the text a variable is set to exactly as the code that read it before this table did (pydantic's
# rules, for screenshot's defaults), and raises ValueError for a text it does not take.


@dataclass(frozen=True)
class Text:
    """Any text (a path, a command, a token); empty counts as unset."""

    allowed: str

    def parse(self, given: str) -> str | None:
        return given or None

    def show(self, value: str) -> str:
        return value


@dataclass(frozen=True)
class Folders:
    """Folders separated by ``os.pathsep``; blank entries skipped, each stripped."""

    allowed: str = (
        "folders separated by `:` (`;` on Windows); `~` expanded, a relative one counts from the working directory"
    )

    def parse(self, given: str) -> tuple[str, ...]:
        return tuple(entry.strip() for entry in given.split(os.pathsep) if entry.strip())

    def show(self, value: tuple[str, ...]) -> str:
        return os.pathsep.join(value)


@dataclass(frozen=True)
class Choice:
    """One of a few words; ``fold`` takes them in any case and with blanks around."""

    words: tuple[str, ...]
    fold: bool = True

    @property
    def allowed(self) -> str:
        return ", ".join(self.words)

    def parse(self, given: str) -> str:
        word = given.strip().lower() if self.fold else given
        if word not in self.words:
            raise ValueError(given)
        return word

    def show(self, value: str) -> str:
        return value


@dataclass(frozen=True)
class Switch:
    """On or off, by word (any case, blanks around); ``otherwise``: what any other text means (None: refused)."""

    on: tuple[str, ...]
    off: tuple[str, ...]
    otherwise: bool | None = None
    #: how the value is written: (on, off)
    names: tuple[str, str] = ("on", "off")

    @property
    def allowed(self) -> str:
        def listed(words: tuple[str, ...]) -> str:
            shown = [word for word in words if word]
            return ", ".join(shown) + (" or empty" if "" in words else "")

        sides = [
            f"{listed(words)} ({name})"
            for words, name in ((self.on, self.names[0]), (self.off, self.names[1]))
            if words
        ]
        if self.otherwise is not None:
            sides.append(f"anything else ({self.names[0] if self.otherwise else self.names[1]})")
        return "; ".join(sides)

    def parse(self, given: str) -> bool:
        word = given.strip().lower()
        if word in self.on:
            return True
        if word in self.off:
            return False
        if self.otherwise is None:
            raise ValueError(given)
        return self.otherwise

    def show(self, value: bool) -> str:
        return self.names[0] if value else self.names[1]


#: a whole number as pydantic reads one from text: ASCII digits, ``_`` between them, a zero fraction allowed
WHOLE_NUMBER = re.compile(r"([+-]?[0-9]+(?:_[0-9]+)*)(?:\.0+)?")


@dataclass(frozen=True)
class Whole:
    """A whole number from ``low`` to ``high``."""

    low: int
    high: int
    unit: str = ""

    @property
    def allowed(self) -> str:
        return f"{self.low} to {self.high}" + (f" ({self.unit})" if self.unit else "")

    def parse(self, given: str) -> int:
        match = WHOLE_NUMBER.fullmatch(given.strip())
        if match is None or not self.low <= int(match.group(1)) <= self.high:
            raise ValueError(given)
        return int(match.group(1))

    def show(self, value: int) -> str:
        return str(value)


@dataclass(frozen=True)
class Seconds:
    """A number of seconds (what ``float`` takes), from ``low`` to ``high`` when they are given."""

    low: float | None = None
    high: float | None = None

    @property
    def allowed(self) -> str:
        if self.low is None or self.high is None:
            return "a number (seconds)"
        return f"{self.low:g} to {self.high:g} (seconds)"

    def parse(self, given: str) -> float:
        seconds = float(given)
        if self.low is not None and self.high is not None and not self.low <= seconds <= self.high:
            raise ValueError(given)
        return seconds

    def show(self, value: float) -> str:
        return f"{value:g}"


Kind = Text | Folders | Choice | Switch | Whole | Seconds


# --- the table -----------------------------------------------------------------------------------------------------

#: the docs' sections, in order: title, and what the section says first
GROUPS = {
    "browser": ("The browser", ""),
    "files": ("Folders and files", ""),
    "screenshot": (
        "`screenshot`'s defaults",
        "Each is the default of one of `screenshot`'s parameters (a call's own argument wins). BrowserLoop's name "
        "for each works too, so a BrowserLoop configuration carries over; the `TABSIGHT_` one wins when both are "
        "set (a blank one counts as unset).",
    ),
    "internal": (
        "Set by tabsight",
        "The front writes these into the environment of the browser it starts, for the native host there. They "
        "are not for you to set.",
    ),
}


@dataclass(frozen=True)
class Variable(Generic[T]):
    """One environment variable of tabsight's."""

    name: str
    group: str
    #: what it does, in one line
    meaning: str
    kind: Kind
    #: the value in force when it is unset
    default: T
    #: that default in words (docs, doctor): for a folder, where tabsight looks without it
    default_text: str
    #: what a value ``kind`` refuses does: what needs the variable fails, saying so (``error``), or a warning and
    #: the default (``warning``); None for a kind that takes any text
    if_refused: Literal["error", "warning"] | None = None
    #: BrowserLoop's name for it, read when this one is unset or blank
    alias: str | None = None
    #: its value may be a credential: doctor never prints it
    secret: bool = False

    @property
    def allowed(self) -> str:
        return self.kind.allowed


#: the words of a variable that turns something on or off (unset or empty: off)
ON_OR_OFF = Switch(on=("1", "true", "yes", "on"), off=("0", "false", "no", "off", ""))

TABSIGHT_BROWSER: Variable[str] = Variable(
    "TABSIGHT_BROWSER",
    "browser",
    "Which browser tool calls use when none of yours with the extension is connected: `auto` starts tabsight's "
    "own headless Chromium, `headed` shows its window, `never` starts none (calls say how to connect yours).",
    Choice(("auto", "headed", "never")),
    "auto",
    "auto",
    if_refused="error",
)
TABSIGHT_START_AHEAD: Variable[bool] = Variable(
    "TABSIGHT_START_AHEAD",
    "browser",
    "Start tabsight's own browser as an MCP client opens its session (when it is the one calls will use: no "
    "browser of yours connected, `TABSIGHT_BROWSER` auto or headed), so the first call finds it up; off: at the "
    "first tool call that needs it. One such browser serves every session and ends as after any session.",
    ON_OR_OFF,
    True,
    "on",
    if_refused="error",
)
TABSIGHT_ISOLATED: Variable[bool] = Variable(
    "TABSIGHT_ISOLATED",
    "browser",
    "Each MCP session gets an embedded browser of its own (its own cookies, storage and cache; one more Chromium "
    "each), even when yours is connected.",
    ON_OR_OFF,
    False,
    "off",
    if_refused="error",
)
TABSIGHT_CHROMIUM: Variable[str | None] = Variable(
    "TABSIGHT_CHROMIUM",
    "browser",
    "The browser tabsight starts as its embedded browser (Chromium: branded Chrome 137+ ignores --load-extension).",
    Text("a browser's path, or a command on PATH"),
    None,
    "the first found of chromium, chromium-browser, google-chrome, google-chrome-stable, brave-browser, "
    "microsoft-edge on PATH, then Chromium and Google Chrome in /Applications",
)
TABSIGHT_EMBEDDED_LINGER: Variable[float] = Variable(
    "TABSIGHT_EMBEDDED_LINGER",
    "browser",
    "Seconds tabsight's embedded browser outlives its last MCP client, then ends, its profile removed (`tabsight "
    "shot`'s: 0). Read by the front and, in the browser's environment, by the host.",
    Seconds(),
    2.0,
    "2",
    if_refused="error",
)
TABSIGHT_LEASE_SECONDS: Variable[float] = Variable(
    "TABSIGHT_LEASE_SECONDS",
    "browser",
    "Seconds a session's hold on a tab of a shared browser outlives its last action there (0: only while an "
    "action runs). Read by the host, in the browser's environment (tabsight's own browser has the MCP client's).",
    Seconds(0, 3600),
    10.0,
    "10",
    if_refused="warning",
)
TABSIGHT_FRAME_SOURCE: Variable[bool] = Variable(
    "TABSIGHT_FRAME_SOURCE",
    "browser",
    "Whether a viewport screenshot may be served from the latest frame of the tab's screencast in tabsight's own "
    "browser; `off` captures every one afresh.",
    Switch(on=(), off=("off",), otherwise=True),
    True,
    "on",
)
TABSIGHT_RUNTIME_DIR: Variable[str | None] = Variable(
    "TABSIGHT_RUNTIME_DIR",
    "files",
    "Where the hosts' sockets are, which fronts find them by: the same for the MCP client and the browser. Every "
    "folder on its way must be yours or root's and writable by no one else, or tabsight says which is not.",
    Text("a folder only you can write"),
    None,
    "`$XDG_RUNTIME_DIR/tabsight`, else `~/.cache/tabsight/run`, else `/tmp/tabsight-<uid>` where a socket's path "
    "would be too long",
)
TABSIGHT_DATA_DIR: Variable[str | None] = Variable(
    "TABSIGHT_DATA_DIR",
    "files",
    "Where `tabsight install` puts the launcher (and on Windows the manifest) and its record of what it wrote, "
    "which `uninstall` removes.",
    Text("a folder"),
    None,
    "the user data folder: `~/.local/share/tabsight` on Linux, `~/Library/Application Support/tabsight` on macOS, "
    "`%LOCALAPPDATA%\\tabsight` on Windows",
)
TABSIGHT_UPLOAD_ROOTS: Variable[tuple[str, ...]] = Variable(
    "TABSIGHT_UPLOAD_ROOTS",
    "files",
    "Folders `upload` may take files from (and `file://` pages may open from) besides the MCP client's working "
    "directory and tabsight's upload folder.",
    Folders(),
    (),
    "none",
)
TABSIGHT_SCREENSHOT_DIR: Variable[str | None] = Variable(
    "TABSIGHT_SCREENSHOT_DIR",
    "files",
    "A folder where `execute` also writes each screenshot it attaches, best effort: each file 0600, the folders "
    "it makes 0700.",
    Text("a folder"),
    None,
    "none",
)
TABSIGHT_DEFAULT_WIDTH: Variable[int] = Variable(
    "TABSIGHT_DEFAULT_WIDTH",
    "screenshot",
    "`width`: the viewport's width with `url`, in CSS pixels.",
    Whole(MIN_VIEWPORT, MAX_VIEWPORT),
    1280,
    "1280",
    if_refused="warning",
    alias="BROWSERLOOP_DEFAULT_WIDTH",
)
TABSIGHT_DEFAULT_HEIGHT: Variable[int] = Variable(
    "TABSIGHT_DEFAULT_HEIGHT",
    "screenshot",
    "`height`: the viewport's height with `url`, in CSS pixels.",
    Whole(MIN_VIEWPORT, MAX_VIEWPORT),
    720,
    "720",
    if_refused="warning",
    alias="BROWSERLOOP_DEFAULT_HEIGHT",
)
TABSIGHT_DEFAULT_FORMAT: Variable[str] = Variable(
    "TABSIGHT_DEFAULT_FORMAT",
    "screenshot",
    "`format`: the image's format.",
    Choice(("webp", "png", "jpeg"), fold=False),
    "webp",
    "webp",
    if_refused="warning",
    alias="BROWSERLOOP_DEFAULT_FORMAT",
)
TABSIGHT_DEFAULT_QUALITY: Variable[int] = Variable(
    "TABSIGHT_DEFAULT_QUALITY",
    "screenshot",
    "`quality`, for webp and jpeg.",
    Whole(1, 100),
    80,
    "80",
    if_refused="warning",
    alias="BROWSERLOOP_DEFAULT_QUALITY",
)
TABSIGHT_DEFAULT_TIMEOUT: Variable[int] = Variable(
    "TABSIGHT_DEFAULT_TIMEOUT",
    "screenshot",
    "`timeout`: milliseconds for the whole load with `url`, retries included.",
    Whole(1000, 120_000, "ms"),
    30_000,
    "30000",
    if_refused="warning",
    alias="BROWSERLOOP_DEFAULT_TIMEOUT",
)
TABSIGHT_DEFAULT_WAIT_NETWORK_IDLE: Variable[bool] = Variable(
    "TABSIGHT_DEFAULT_WAIT_NETWORK_IDLE",
    "screenshot",
    "`waitForNetworkIdle`: with `url`, wait for the load event and then 500 ms without a request in flight "
    "(false: capture at DOMContentLoaded).",
    Switch(on=("true", "1", "yes", "on", "t", "y"), off=("false", "0", "no", "off", "f", "n"), names=("true", "false")),
    True,
    "true",
    if_refused="warning",
    alias="BROWSERLOOP_DEFAULT_WAIT_NETWORK_IDLE",
)
TABSIGHT_USER_AGENT: Variable[str | None] = Variable(
    "TABSIGHT_USER_AGENT",
    "screenshot",
    "`userAgent`: what the page sees, with `url` (header and `navigator.userAgent`).",
    Text("any text"),
    None,
    "the browser's",
    alias="BROWSERLOOP_USER_AGENT",
)
TABSIGHT_DEFAULT_COOKIES: Variable[str | None] = Variable(
    "TABSIGHT_DEFAULT_COOKIES",
    "screenshot",
    "`cookies`' defaults: merged under a call's own (its cookie wins on the same name and domain); a missing, "
    "unreadable or invalid source gives none, with a warning.",
    Text("a JSON array of cookies, or the path of a file holding one (read again when it changes)"),
    None,
    "none",
    alias="BROWSERLOOP_DEFAULT_COOKIES",
    secret=True,
)
TABSIGHT_RETRY_COUNT: Variable[int] = Variable(
    "TABSIGHT_RETRY_COUNT",
    "screenshot",
    "Retries of a capture with `url` after a network error that may pass (connection refused or reset: a dev "
    "server still starting) or a browser hiccup, while `timeout` leaves room; never after bad arguments, a "
    "missing element or an exceeded `timeout`.",
    Whole(0, 10),
    3,
    "3",
    if_refused="warning",
    alias="BROWSERLOOP_RETRY_COUNT",
)
TABSIGHT_RETRY_DELAY: Variable[int] = Variable(
    "TABSIGHT_RETRY_DELAY",
    "screenshot",
    "Milliseconds between those retries.",
    Whole(100, 10_000, "ms"),
    1000,
    "1000",
    if_refused="warning",
    alias="BROWSERLOOP_RETRY_DELAY",
)
TABSIGHT_EMBEDDED: Variable[str | None] = Variable(
    "TABSIGHT_EMBEDDED",
    "internal",
    "The embedded browser's token: its host puts it in its hello, so that the front that started the browser finds "
    "it, and ends the browser once its last front has gone.",
    Text("a token"),
    None,
    "none: a browser of the user's",
    secret=True,
)
TABSIGHT_EMBEDDED_PROFILE: Variable[str | None] = Variable(
    "TABSIGHT_EMBEDDED_PROFILE",
    "internal",
    "The embedded browser's temporary profile, which its host removes once the browser has ended.",
    Text("a folder"),
    None,
    "none",
)
TABSIGHT_EMBEDDED_ISOLATED: Variable[bool] = Variable(
    "TABSIGHT_EMBEDDED_ISOLATED",
    "internal",
    "The embedded browser is one session's alone (`TABSIGHT_ISOLATED`): other sessions' fronts leave it be.",
    Switch(on=("1",), off=(), otherwise=False),
    False,
    "off",
)

#: every variable, in the docs' order
VARIABLES: tuple[Variable[Any], ...] = (
    TABSIGHT_BROWSER,
    TABSIGHT_START_AHEAD,
    TABSIGHT_ISOLATED,
    TABSIGHT_CHROMIUM,
    TABSIGHT_EMBEDDED_LINGER,
    TABSIGHT_LEASE_SECONDS,
    TABSIGHT_FRAME_SOURCE,
    TABSIGHT_RUNTIME_DIR,
    TABSIGHT_DATA_DIR,
    TABSIGHT_UPLOAD_ROOTS,
    TABSIGHT_SCREENSHOT_DIR,
    TABSIGHT_DEFAULT_WIDTH,
    TABSIGHT_DEFAULT_HEIGHT,
    TABSIGHT_DEFAULT_FORMAT,
    TABSIGHT_DEFAULT_QUALITY,
    TABSIGHT_DEFAULT_TIMEOUT,
    TABSIGHT_DEFAULT_WAIT_NETWORK_IDLE,
    TABSIGHT_USER_AGENT,
    TABSIGHT_DEFAULT_COOKIES,
    TABSIGHT_RETRY_COUNT,
    TABSIGHT_RETRY_DELAY,
    TABSIGHT_EMBEDDED,
    TABSIGHT_EMBEDDED_PROFILE,
    TABSIGHT_EMBEDDED_ISOLATED,
)


# --- reading the environment ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reading:
    """What an environment says of one variable."""

    variable: Variable[Any]
    #: the value in force
    value: Any
    #: the text it is set to (stripped, for one with BrowserLoop's name too); None when unset
    given: str | None
    #: the name that set it (BrowserLoop's, when that one did); None when unset
    source: str | None
    #: why ``given`` was refused, naming the variable and what it takes; None when it was not
    problem: str | None


@dataclass(frozen=True)
class Config:
    """Every variable's value, as one environment sets them (``load``)."""

    readings: Mapping[str, Reading]

    def __getitem__(self, variable: Variable[T]) -> T:
        """The value in force; ``BrowserError`` (``BAD_CONFIG``) when the variable's refused value fails its calls."""
        reading = self.readings[variable.name]
        if reading.problem is not None and variable.if_refused == "error":
            raise BrowserError(Code.BAD_CONFIG, reading.problem)
        return reading.value

    def source(self, variable: Variable[Any]) -> str | None:
        """The name that set the variable (BrowserLoop's, when that one did), None when unset."""
        return self.readings[variable.name].source

    @property
    def warnings(self) -> list[str]:
        """One line for each value refused in favour of the default."""
        return [
            f"{reading.problem}; using the default, {reading.variable.default_text}"
            for reading in self.readings.values()
            if reading.problem is not None and reading.variable.if_refused == "warning"
        ]


def load(environ: Mapping[str, str]) -> Config:
    """Every variable's value in ``environ``, read once, each checked."""
    return Config(MappingProxyType({variable.name: _read(variable, environ) for variable in VARIABLES}))


def _read(variable: Variable[Any], environ: Mapping[str, str]) -> Reading:
    if variable.alias is None:
        given = environ.get(variable.name)
        source = variable.name if given is not None else None
    else:  # the first of the two names set to more than blanks, stripped
        source, given = next(
            (
                (name, environ[name].strip())
                for name in (variable.name, variable.alias)
                if environ.get(name, "").strip()
            ),
            (None, None),
        )
    if given is None:
        return Reading(variable, variable.default, None, None, None)
    try:
        return Reading(variable, variable.kind.parse(given), given, source, None)
    except ValueError:
        return Reading(
            variable, variable.default, given, source, f"{source} is {given!r}; allowed values: {variable.allowed}"
        )


_current: Config | None = None
_current_lock = threading.Lock()


def current() -> Config:
    """This process's configuration: read from its environment on first use (its warnings logged then)."""
    global _current
    with _current_lock:
        if _current is None:
            _current = load(os.environ)
            for warning in _current.warnings:
                log.warning("%s", warning)
        return _current


def reset() -> None:
    """The next ``current()`` reads the environment again: for tests and benches that change it in-process."""
    global _current
    with _current_lock:
        _current = None


# --- docs/configuration.md -----------------------------------------------------------------------------------------

#: the docs' words for each ``if_refused``
IF_REFUSED = {
    "error": "what needs it fails, saying so",
    "warning": "a warning; the default is used",
    None: "(any value goes)",
}


def markdown() -> str:
    """docs/configuration.md: the table, one section per group."""
    lines = [
        "# Configuration",
        "",
        "<!-- Generated from host/tabsight/config.py (its VARIABLES table): edit it there, then run",
        "     .venv/bin/python -m tabsight.config --markdown > docs/configuration.md -->",
        "",
        "tabsight is configured by environment variables, set where your MCP client starts `tabsight mcp` (the",
        'README\'s "Use it from an MCP client" says where, for each client) or in the shell you run `tabsight` in.',
        "`tabsight doctor` prints the value of each in its own environment, and whether it is the default. What",
        "widens the security boundary is never one of these, which a project's MCP configuration can set: it is",
        'the settings file (README, "Security").',
        "",
        "A value a variable does not take is never passed over in silence: the message names the variable and the",
        "values it takes.",
    ]
    for group, (title, intro) in GROUPS.items():
        lines += ["", f"## {title}", ""]
        if intro:
            lines += [intro, ""]
        lines += ["| variable | default | values | a value not among them | meaning |", "|---|---|---|---|---|"]
        for variable in (variable for variable in VARIABLES if variable.group == group):
            name = f"`{variable.name}`" + (f" (or `{variable.alias}`)" if variable.alias else "")
            lines.append(
                f"| {name} | {variable.default_text} | {variable.allowed} | "
                f"{IF_REFUSED[variable.if_refused]} | {variable.meaning} |"
            )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    import argparse  # here: the front imports this module on its first tool call, before it has loaded much

    parser = argparse.ArgumentParser(prog="python -m tabsight.config", description="tabsight's configuration table")
    parser.add_argument("--markdown", action="store_true", required=True, help="print docs/configuration.md")
    parser.parse_args(argv)
    sys.stdout.write(markdown())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
