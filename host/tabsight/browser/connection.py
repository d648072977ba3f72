"""Which browser a session talks to, and which of its tabs it tracks.

Preference: a browser of the user's (most recently active first), then an
embedded browser already running, then, with ``TABSIGHT_BROWSER`` ``auto``
(default) or ``headed``, a new embedded one; with ``never``, an error that
says how to connect a browser. With ``TABSIGHT_ISOLATED`` on, a session works
in an embedded browser of its own instead, always (like Playwright MCP's
``--isolated``): its own cookies, storage and cache, gone when it ends; other
sessions neither use nor list that browser, and it lists no other.

A host that vanishes is looked for again on the next call: for a few seconds
the session waits for the same browser profile to come back (the extension
reconnects by itself after a host crash) before it settles for another; it
then tells the new host which tabs it owns (the claims died with the old one).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import subprocess
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, cast

from .. import __version__, config
from ..errors import BrowserError, Code, ToolError
from ..paths import extension_dir, installed_extension_dir, installed_for_a_browser
from ..progress import phase
from . import embedded
from .client import BrowserClient, Transport
from .hosts import connect_all
from .link import HostLink

log = logging.getLogger("tabsight.front")

BrowserMode = Literal["auto", "headed", "never"]
DialogPolicy = Literal["accept", "dismiss", "report"]
#: what a call on a tab another session is using does: fail at once (tab_busy), or wait for it
OnBusy = Literal["fail", "wait"]
#: seconds a call waits for a tab another session is using, with on_busy "wait"
BUSY_WAIT = 60.0

#: how long a call waits for a lost browser profile to reconnect
RECONNECT_GRACE = 5.0
#: the embedded browser's viewport in CSS pixels (BrowserLoop's default size)
EMBEDDED_VIEWPORT = {"width": 1280, "height": 720}


def browser_mode() -> BrowserMode:
    mode: str = config.current()[config.TABSIGHT_BROWSER]
    return cast(BrowserMode, mode)  # the table's choices are BrowserMode's


def connect_steps() -> str:
    return (
        "No browser is connected to tabsight. To connect yours: 1) run `tabsight install` (a Chromium gets the "
        "extension: restart it); 2) in another browser, open chrome://extensions, turn on Developer mode, click "
        f"'Load unpacked' and choose {unpacked_extension()}; 3) keep that browser open. Or unset TABSIGHT_BROWSER "
        "(or set it to auto) to let tabsight start its own headless Chromium. Is the browser on another machine "
        "or outside this container? Then the forward or the mount is missing: docs/remote.md."
    )  # the error's hint adds that `tabsight doctor` names the missing link


def unpacked_extension() -> Path:
    """The folder to load unpacked: the copy ``tabsight install`` made for this machine, else the package's."""
    installed = installed_extension_dir()
    return installed if (installed / "manifest.json").is_file() else extension_dir()


#: the first answer of a session that works in tabsight's own browser while a browser of the user's is registered
NOT_YOUR_BROWSER = (
    "This session works in tabsight's own headless Chromium (a fresh profile: none of your tabs or logins), "
    "because no browser of yours is connected, though tabsight is installed for one. To work in yours, start it "
    "(after `tabsight install`, restart it once) with the tabsight extension enabled: the session moves there when "
    "it connects. TABSIGHT_BROWSER=never makes tabsight wait for yours instead of starting its own."
)


def check_versions(link: HostLink) -> None:
    """Front, host and extension must be one release; say which one to update."""
    hello = link.hello
    if hello.version != __version__:
        raise BrowserError(
            Code.VERSION_MISMATCH,
            f"The browser runs tabsight host {hello.version}, this is tabsight {__version__}: "
            "restart the browser so that it starts the installed host.",
        )
    if hello.extension is None:
        raise BrowserError(
            Code.VERSION_MISMATCH,
            "The browser's tabsight extension did not say hello: reload it at chrome://extensions.",
        )
    if hello.extension.version != __version__:
        raise BrowserError(
            Code.VERSION_MISMATCH,
            f"The browser's tabsight extension is {hello.extension.version}, this is tabsight {__version__}: "
            "reload the extension at chrome://extensions (Load unpacked from the installed package).",
        )


#: (session name, sockets to skip, the MCP client's name) -> links to the running hosts
Discover = Callable[..., Awaitable[list[HostLink]]]


@dataclass(frozen=True)
class TrackedTab:
    profile_id: str
    tab_id: int
    #: the run of the browser the tab is in: tab ids do not outlive it
    browser_run: str = ""
    #: chosen by the agent (configure track), and kept; otherwise the browser's focused tab is tracked
    chosen: bool = False


class BrowserConnection:
    """One session's way to its browser: which one, connected on demand, and the tab it tracks."""

    def __init__(
        self,
        session: str,
        *,
        mode: BrowserMode | None = None,
        embedded_only: bool = False,
        linger: float | None = None,
        discover: Discover = connect_all,
        own_tab: bool = True,
        isolated: bool | None = None,
    ) -> None:
        self.session = session
        #: an embedded browser of its own, and no other (None: TABSIGHT_ISOLATED says, when a browser is needed)
        self._isolated = isolated
        #: on tabsight's embedded browser, work in a tab of its own (an MCP session), or follow the focused tab as
        #: in the user's browser (an in-process client standing in for the user, as the tests' keeper does)
        self.own_tab = own_tab
        #: the MCP client's name (from initialize), which the tabs this session owns show
        self.client_name = ""
        #: how running hosts are found: links to each (a fake browser's, in unit tests)
        self._discover = discover
        self.mode = mode
        self.embedded_only = embedded_only
        #: seconds an embedded browser this session starts outlives its last front (None: the default)
        self.linger = linger
        self.tracked: TrackedTab | None = None
        #: for the session's next answer: what changed under it (see ``tab``)
        self.notes: list[str] = []
        #: NOT_YOUR_BROWSER was said (once a session)
        self._said_embedded = False
        #: how dialogs on the tabs this session acts on are answered (configure dialogs)
        self.dialog_policy: DialogPolicy = "accept"
        #: what a call on a tab another session is using does (configure tabs)
        self.on_busy: OnBusy = "fail"
        #: what becomes of this session's tabs when it ends (configure tabs; the host keeps it, and is told again
        #: after a restart)
        self.on_end: Literal["close", "keep"] = "close"
        #: (host socket, tab) -> the policy that tab was last given
        self._policies_given: dict[tuple[Path, int], str] = {}
        self._link: HostLink | None = None
        self._last_profile: str | None = None
        self._lost_at = 0.0
        self._launched: embedded.EmbeddedBrowser | None = None
        #: the browser this session started whose tabs were put at the viewport size (once per browser) ...
        self._fitted: embedded.EmbeddedBrowser | None = None
        #: ... and that work, while it runs: a call on a tab waits for it
        self._fitting: asyncio.Future | None = None
        #: a tab this session opened -> the tab it tracked then, which close_tab of the new one goes back to
        self._before_open: dict[int, TrackedTab] = {}
        #: tabs this session opened (open_tab): (profile, browser run, tab id); close_tab closes them unnamed
        self._opened: set[tuple[str, str, int]] = set()
        #: the tab tabsight's own browser gave this session when a call first needed one (``tab``), as
        #: ``_opened`` names it, while nothing has acted on it: given back (closed) when the session moves to another
        #: tab if it still shows about:blank (``_give_back_first_tab``)
        self._first_tab: tuple[str, str, int] | None = None
        #: one started ahead of this session's first call and ended with the session unused (see ``aclose``)
        self._unused: embedded.EmbeddedBrowser | None = None
        #: sockets of embedded browsers' hosts, seen while looking for the user's browser
        self._not_users: set[Path] = set()
        #: why the session changed browsers, for the note of the next call on the tracked tab
        self._moved_note: str | None = None
        self._lock = asyncio.Lock()
        #: held while the session opens its own tab on the embedded browser (``tab``)
        self._own_tab_lock = asyncio.Lock()
        #: gets the events (alerts) of the session's browser, whichever it is
        self.on_event: Callable[[str, dict[str, Any]], None] | None = None

    # -- the browser ---------------------------------------------------------

    async def client(self) -> BrowserClient:
        """The browser this session works with, connecting (or starting one) as needed."""
        return BrowserClient(await self._current(), busy_wait=BUSY_WAIT if self.on_busy == "wait" else 0.0)

    async def _current(self) -> HostLink:
        if self._link and self._link.alive:
            if self._link.hello.embedded and not (self.embedded_only or self._link.hello.isolated):
                await self._move_to_a_user_browser()
            return self._link
        async with self._lock:
            if self._link and self._link.alive:
                return self._link
            if self._link:
                self._lost_at = time.monotonic()
                await self._link.close()
                self._link = None
            link = await self._find()
            try:
                check_versions(link)
            except BrowserError:
                await link.close()
                raise
            ahead = embedded.take_ahead(link.hello.embedded) if link.hello.embedded else None
            if ahead is not None:  # started for this session before it asked (launch_ahead): its own from now on
                self._launched = ahead
            if self._launched and link.hello.embedded == self._launched.token and self._fitted is not self._launched:
                self._fitted = self._launched
                self._fit_viewports(link)
            self._adopt(link)
            if link.hello.embedded and not self._said_embedded and installed_for_a_browser():
                self._said_embedded = True
                self.notes.append(NOT_YOUR_BROWSER)
            self._last_profile = link.profile_id
            await self._restore_claims(link)
            return link

    async def _restore_claims(self, link: HostLink) -> None:
        """A new host of a browser this session has tabs in (the extension started it again after the last one
        crashed): the claims died with the old host, so the session says again which tabs are its own, and what
        becomes of them when it ends. A tab another session claimed meanwhile is theirs; the next answer says so."""
        run = (link.profile_id, _browser_run(link))
        mine = sorted(tab_id for profile, browser_run, tab_id in self._opened if (profile, browser_run) == run)
        if not mine and self.on_end == "close":
            return
        client = BrowserClient(link)
        if self.on_end != "close":
            await client.claim("on_end", on_end=self.on_end)
        if mine:
            reclaimed = set((await client.claim("reclaim", tab_ids=mine))["reclaimed"])
            for tab_id in set(mine) - reclaimed:
                self._opened.discard((*run, tab_id))
                self.notes.append(
                    f"Tab {tab_id} was claimed by another MCP client while tabsight's host restarted: it is theirs "
                    "now. Observe it freely; to act there again, take it back (configure take_over)."
                )

    async def _move_to_a_user_browser(self) -> None:
        """On the embedded browser (no browser of the user's was connected): when one connects, work there.

        Hosts are looked at once each: the embedded ones are skipped afterwards, so a session on the
        embedded browser pays for a glob of the runtime folder per call.
        """
        async with self._lock:
            current = self._link
            if not (current and current.alive and current.hello.embedded):
                return
            links = await self._discover(self.session, client=self.client_name, skip={current.path, *self._not_users})
            users = [link for link in links if not link.hello.embedded and _versions_match(link)]
            chosen = max(users, key=lambda link: link.hello.last_active or 0) if users else None
            for link in links:
                if link.hello.embedded:
                    self._not_users.add(link.path)
                if link is not chosen:
                    await link.close()
            if chosen is None:
                return
            await current.close()
            self._adopt(chosen)
            self._last_profile = chosen.profile_id
            note = (
                f"{BrowserClient(chosen).name} connected: this session works in it from now on, "
                "and no longer in tabsight's embedded browser."
            )
            if self.tracked is None:
                self.notes.append(note)
            else:
                self._moved_note = note  # the tracked tab's note says it (see ``tab``)

    def isolated(self) -> bool:
        if self._isolated is None:
            self._isolated = embedded.isolated_mode()
        return self._isolated

    async def _find(self) -> HostLink:
        if self.isolated():
            return await self._isolated_browser()
        deadline = self._lost_at + RECONNECT_GRACE
        left = deadline - time.monotonic()
        with phase(
            "waiting for the browser to come back" if left > 0 else "looking for a browser",
            bound=round(left, 1) if left > 0 else None,
        ):
            while True:
                links = await self._discover(self.session, client=self.client_name)
                chosen = self._choose(links)
                for link in links:
                    if link is not chosen:
                        await link.close()
                if chosen and (chosen.profile_id == self._last_profile or time.monotonic() >= deadline):
                    return chosen
                if time.monotonic() >= deadline:
                    break
                if chosen:
                    await chosen.close()
                await asyncio.sleep(0.1)
        mode = self.mode or browser_mode()
        if mode == "never":
            raise BrowserError(Code.NO_BROWSER, connect_steps())
        with phase("starting tabsight's embedded browser", bound=embedded.LAUNCH_TIMEOUT):
            return await self._launch(headless=mode != "headed")

    async def _isolated_browser(self) -> HostLink:
        """The embedded browser this session has to itself: the one it started (its host is waited for: after a
        crash the extension starts another), else one started ahead for it, else a new one."""
        mode = self.mode or browser_mode()
        if mode == "never":
            raise BrowserError(
                Code.BAD_CONFIG,
                "TABSIGHT_ISOLATED gives each session an embedded browser of its "
                "own, and TABSIGHT_BROWSER is never: set TABSIGHT_BROWSER to auto or headed, or "
                "unset TABSIGHT_ISOLATED.",
            )
        browser = self._launched
        if browser is None or browser.process.poll() is not None:
            with phase("starting tabsight's embedded browser", bound=embedded.LAUNCH_TIMEOUT):
                browser = await asyncio.to_thread(embedded.isolated_browser, mode != "headed", linger=self.linger)
            self._launched = browser
        with phase("waiting for the browser", bound=embedded.LAUNCH_TIMEOUT):
            return await self._wait_for_host(browser)

    def _choose(self, links: list[HostLink]) -> HostLink | None:
        """Same profile as before, else the user's most recently active, else embedded (a session's isolated
        browser is never another's)."""
        links = [link for link in links if not link.hello.isolated]
        if not links:
            return None
        for link in links:
            if self._last_profile and link.profile_id == self._last_profile:
                return link
        users = [link for link in links if not link.hello.embedded]
        if users and not self.embedded_only:
            return max(users, key=lambda link: link.hello.last_active or 0)
        own = [link for link in links if self._launched and link.hello.embedded == self._launched.token]
        embedded_links = own or [link for link in links if link.hello.embedded]
        return embedded_links[0] if embedded_links else None

    async def _launch(self, headless: bool) -> HostLink:
        """Start the embedded browser, unless another front started one meanwhile.

        A file lock in the runtime folder makes concurrent fronts (several MCP
        clients starting at once) share one browser instead of racing.
        """
        async with _launch_lock():
            links = await self._discover(self.session, client=self.client_name)
            shared = next((link for link in links if link.hello.embedded and not link.hello.isolated), None)
            for link in links:
                if link is not shared:
                    await link.close()
            if shared:
                return shared  # one started ahead for this session is taken over by the caller
            failed = embedded.take_ahead()
            if failed is not None:  # started ahead, and gone or silent since: this launch says why
                await asyncio.to_thread(failed.stop)
            browser = await asyncio.to_thread(embedded.launch, headless, linger=self.linger)
            self._launched = browser
            return await self._wait_for_host(browser)

    async def _wait_for_host(self, browser: embedded.EmbeddedBrowser) -> HostLink:
        deadline = time.monotonic() + embedded.LAUNCH_TIMEOUT
        seen: set[Path] = set()
        while time.monotonic() < deadline:
            if browser.process.poll() is not None:
                await asyncio.to_thread(browser.remove_profile)
                raise BrowserError(Code.LAUNCH_FAILED, f"Failed to launch browser: it exited.\n{browser.log_tail()}")
            for link in await self._discover(self.session, client=self.client_name, skip=seen):
                seen.add(link.path)
                if link.hello.embedded == browser.token:
                    return link
                await link.close()
            await asyncio.sleep(0.02)
        tail = browser.log_tail()
        browser.stop()
        raise BrowserError(
            Code.LAUNCH_FAILED,
            "Failed to launch browser: the browser started but its tabsight extension never connected "
            f"within {embedded.LAUNCH_TIMEOUT:g} s.\n{tail}",
        )

    # -- the tracked tab ----------------------------------------------------

    async def tab(self, tab_id: int | None = None, *, acting: bool = False) -> tuple[BrowserClient, int]:
        """The browser and tab a call works on: ``tab_id`` if given, else the tracked tab.

        The tracked tab is the browser's focused tab, following the user across tabs and windows, until the
        agent chooses one (``track_tab``). When the browser of a chosen tab is gone (closed, or restarted: its
        tab ids are all new, even with the same profile), or the session moved to another browser, the session
        takes that browser's focused tab and the next answer carries a note saying so; an ``acting`` call
        (input) then fails once instead, with the same words, rather than act on a page the agent has not seen.
        """
        client = await self.client()
        await self._fitted_viewports()
        if tab_id is not None:
            if acting:
                self._used(client, tab_id)
            return client, await self._with_policy(client, tab_id)
        profile, run = client.transport.profile_id, _browser_run(client.transport)
        tracked = self.tracked
        same_run = tracked is not None and tracked.profile_id == profile and tracked.browser_run == run
        if tracked and tracked.chosen and same_run:
            if acting:
                self._used(client, tracked.tab_id)
            return client, await self._with_policy(client, tracked.tab_id)
        if client.hello.embedded is not None and self.own_tab:
            # tabsight's own browser has no user to follow: each session works in a tab of its own, one that is
            # drawn (a background tab's page paints no frame): in a headless one, the tab of a window of its own;
            # in a headed one, the tab in front (whoever watches sees the agent's work)
            async with self._own_tab_lock:  # the session's calls at once open one tab, not one each
                if self.tracked is not tracked:
                    return await self.tab(acting=acting)
                headed = self._launched_headed()
                focused = (await self._open_own_tab(client, None, None, active=headed, window=not headed))["tab_id"]
                # made because a call needed one (not before): given back if the session moves on unused
                self._first_tab = None if acting else _run_tab(client.transport, focused)
            now = f"a tab of its own ({focused})"
        else:
            focused = await self._focused_tab(client)
            self.tracked = TrackedTab(profile, focused, run)
            now = f"its focused tab ({focused})"
        if tracked and not same_run:
            moved, self._moved_note = self._moved_note, None
            note = (
                moved
                or (
                    f"The tracked tab ({tracked.tab_id}) was in a browser that "
                    + (
                        "restarted since: its tabs are new."
                        if tracked.profile_id == profile
                        else f"is gone; this session now works with {client.name}."
                    )
                )
            ) + f" Now tracking {now}."
            if acting:
                raise BrowserError(Code.TAB_GONE, f"{note} Nothing was done.")
            self.notes.append(note)
        return client, await self._with_policy(client, focused)

    async def _focused_tab(self, client: BrowserClient) -> int:
        listing = await client.tabs()
        focused = listing.get("focused_tab_id")
        if focused is None:
            tabs = [tab for tab in listing.get("tabs", []) if not tab.get("owned")]
            if not tabs:
                raise BrowserError(Code.NO_TAB, "The browser has no open tab to work on.")
            focused = tabs[0]["id"]
        return focused

    async def _fitted_viewports(self) -> None:
        """Waits for ``_fit_viewports``, if it still runs: a call on a tab waits for it."""
        if self._fitting is not None:
            fitting, self._fitting = self._fitting, None
            await fitting

    def _makes_first_tab(self, client: BrowserClient) -> bool:
        """Whether the session's next call on the tracked tab would make its first tab (``tab``): tabsight's own
        browser, and no tab tracked yet."""
        return self.tracked is None and client.hello.embedded is not None and self.own_tab

    def _used(self, client: BrowserClient, tab_id: int) -> None:
        """An action (input, a script, emulation) goes to ``tab_id``: if it is the session's first tab, that tab
        is the session's work from now on, kept when the session moves on."""
        if self._first_tab == _run_tab(client.transport, tab_id):
            self._first_tab = None

    async def _give_back_first_tab(self, client: BrowserClient) -> None:
        """The session has moved to another tab: the first tab tabsight's browser gave it goes (its window, its
        renderer) if the session never used it: nothing acted on it and it still shows about:blank. Best effort:
        a tab that cannot be closed is left to the end of the session, which closes it."""
        first, self._first_tab = self._first_tab, None
        if first is None or first[:2] != (client.transport.profile_id, _browser_run(client.transport)):
            return  # none, or in a browser (or a run of it) the session has left
        if self.tracked is not None and self.tracked.tab_id == first[2]:
            self._first_tab = first  # still the one worked on
            return
        try:
            tab = next((tab for tab in (await client.tabs())["tabs"] if tab["id"] == first[2]), None)
            if tab is None or tab.get("url") not in ("about:blank", ""):  # gone, or loading or showing a page
                return
            await client.close_tab(first[2])
        except BrowserError as exc:
            log.info("the session's first tab %s was not given back: %s", first[2], exc.message)
            return
        self._opened.discard(first)
        self._policies_given.pop((client.transport.path, first[2]), None)
        for opened, before in list(self._before_open.items()):  # close_tab of a later tab does not go back to it
            if before.tab_id == first[2] and before.profile_id == first[0] and before.browser_run == first[1]:
                del self._before_open[opened]

    def take_notes(self) -> list[str]:
        """What changed under the session since its last answer (a restart, another browser), once."""
        notes, self.notes = self.notes, []
        return notes

    async def _with_policy(self, client: BrowserClient, tab_id: int) -> int:
        """Gives the tab this session's dialog policy before the session first acts on it (or after a change)."""
        key = (client.transport.path, tab_id)
        if self._policies_given.get(key) != self.dialog_policy:
            try:
                await client.set_dialog_policy(tab_id, self.dialog_policy)
            except BrowserError as exc:
                if exc.code != Code.NO_TAB:
                    raise
                return tab_id  # the call itself says the tab is gone, or reads what is left of it
            self._policies_given[key] = self.dialog_policy
        return tab_id

    async def list_tabs(self) -> dict[str, Any]:
        """Every connected browser with its tabs; marks the tracked one, and says which session owns or holds
        each tab."""
        async with self._every_browser() as links:
            # listing needs no tab: a session that has none yet in tabsight's browser is not given one for it
            current = BrowserClient(links[0])
            tracked_id = None if self._makes_first_tab(current) else (await self.tab())[1]
            browsers = []
            for link in links:
                client = BrowserClient(link)
                listing = await client.tabs()
                is_current = link is self._link
                browsers.append(
                    {
                        "browser": client.id,
                        "name": client.name,
                        "embedded": client.embedded,
                        "tabs": [
                            {
                                "id": tab["id"],
                                "title": tab.get("title", "")[:100],
                                "url": tab.get("url", ""),
                                **({"active": True} if tab.get("active") else {}),
                                **({"tracked": True} if is_current and tab["id"] == tracked_id else {}),
                                # who may act there (the host's claims: nativehost/tabs.py), and its tab group
                                **{key: tab[key] for key in ("owner", "mine", "lease", "group") if key in tab},
                            }
                            for tab in listing.get("tabs", [])
                            if not tab.get("owned")  # a capture's own window, gone in a moment
                        ],
                    }
                )
        if tracked_id is None:  # an agent looking for its tab is told where it will come from
            return {
                "browsers": browsers,
                "tracked": "none yet: the first call that needs a tab (observe page, "
                "screenshot, interact) opens one of this session's own; interact open_tab or configure track "
                "choose another",
            }
        return {"browsers": browsers}

    async def track_tab(self, tab_id: int, browser: str | None = None) -> dict[str, Any]:
        """Track ``tab_id`` (in ``browser``, if given), switching browsers if it is in another; its description."""
        async with self._every_browser() as links:
            found: list[tuple[HostLink, dict[str, Any]]] = []
            for link in links:
                if browser and link.hello.host_id != browser:
                    continue
                listing = await BrowserClient(link).tabs()
                found += [(link, tab) for tab in listing.get("tabs", []) if tab["id"] == tab_id]
            if len(found) > 1:
                raise ToolError(
                    f"Tab id {tab_id} exists in several browsers "
                    f"({', '.join(link.hello.host_id or '' for link, _ in found)}); pass 'browser' to say which."
                )
            if not found:
                raise ToolError(
                    f"No tab with id {tab_id}" + (f" in browser {browser!r}" if browser else "") + ".", Code.NO_TAB
                )
            chosen, tab = found[0]
            async with self._lock:
                if self._link is not chosen:
                    if self._link:
                        await self._link.close()
                    self._adopt(chosen)
            self.tracked = TrackedTab(chosen.profile_id, tab_id, _browser_run(chosen), chosen=True)
            self._last_profile = chosen.profile_id
            await self._give_back_first_tab(BrowserClient(chosen))
        return {"browser": chosen.hello.host_id, "tab_id": tab_id, "url": tab.get("url"), "title": tab.get("title")}

    async def open_tab(self, url: str | None, timeout_ms: int) -> dict[str, Any]:
        """A new background tab beside the tracked one (the user's focus stays where it is; in tabsight's headless
        browser, the tab of a new window), loading ``url`` if given; the session tracks it from now on.
        ``{tab_id, url, title, status}``."""
        client = await self.client()
        if self._makes_first_tab(client):
            # no tab yet: none is made just to open this one beside it
            await self._fitted_viewports()
            opener = None
        else:
            client, opener = await self.tab()
        # in tabsight's headless browser, as the session's first tab: the tab of a window of its own. A background
        # tab there paints no frame, and was seen left unloaded, its navigation aborted (1 open_tab in ~30 on a
        # loaded machine: a 30 s timeout)
        own_window = client.hello.embedded is not None and not self._launched_headed()
        opened = await self._open_own_tab(client, opener, url, timeout_ms, window=own_window)
        await self._give_back_first_tab(client)  # the session works in this one now
        return opened

    def _launched_headed(self) -> bool:
        return (self.mode or browser_mode()) == "headed"

    async def _open_own_tab(
        self,
        client: BrowserClient,
        opener: int | None,
        url: str | None,
        timeout_ms: int = 30_000,
        active: bool = False,
        window: bool = False,
    ) -> dict[str, Any]:
        """A tab of this session's (the host records it as the session's: other sessions may observe it, not act
        there), in a tab group named after the MCP client; tracked from now on."""
        # grouped for the user to see whose it is (tabsight's own browser has no user to show it to)
        group = None if client.hello.embedded is not None else self.client_name or "tabsight"
        opened = await client.open_tab(opener, url, timeout_ms, group=group, active=active, window=window)
        link = client.transport
        if window:  # the viewport the embedded browser's tabs have
            await client.set_viewport(opened["tab_id"], **EMBEDDED_VIEWPORT)
        if self.tracked is not None:
            self._before_open[opened["tab_id"]] = dataclasses.replace(self.tracked, chosen=True)
        self.tracked = TrackedTab(link.profile_id, opened["tab_id"], _browser_run(link), chosen=True)
        self._opened.add(_run_tab(link, opened["tab_id"]))
        return opened

    async def claim(self, action: Literal["release", "take_over"], tab_id: int) -> dict[str, Any]:
        """Release a tab this session owns (a shared tab from then on), or take one over (this session's from
        then on; its owner is told). ``{released}`` or ``{taken_over, from}``."""
        client = await self.client()
        result = await client.claim(action, tab_id)
        if action == "release":
            self._opened.discard(_run_tab(client.transport, tab_id))
        else:
            self._opened.add(_run_tab(client.transport, tab_id))
        return result

    async def tabs_on_end(self, on_end: Literal["close", "keep"]) -> None:
        """Whether this session's tabs are closed when it ends (those the user has not used since), or kept."""
        await (await self.client()).claim("on_end", on_end=on_end)
        self.on_end = on_end

    def opened(self, client: BrowserClient, tab_id: int) -> bool:
        """Whether this session opened ``tab_id`` in ``client``'s browser (open_tab), in this run of it."""
        return _run_tab(client.transport, tab_id) in self._opened

    async def close_tab(self, tab_id: int | None) -> dict[str, Any]:
        """Close ``tab_id``, or else the tracked tab if this session opened it (the user's own tabs close only
        when named); when it was the tracked one, the session goes back to the tab it tracked before opening it,
        if that is still open, else takes a tab as a new session would. ``{closed, url, title}``."""
        client, tracked = await self.tab()
        if tab_id is None:
            if not self.opened(client, tracked):
                raise ToolError(
                    f"The tracked tab ({tracked}) was not opened by this session: pass its tab_id to close it "
                    "(observe({what:'tabs'}) lists them)."
                )
            tab_id = tracked
        closed = await client.close_tab(tab_id)
        self._opened.discard(_run_tab(client.transport, tab_id))
        if tab_id == tracked:
            # back to the tab it worked on before it opened this one, if still open; else as a new session would
            before = self._before_open.pop(tab_id, None)
            alive = before is not None and any(tab["id"] == before.tab_id for tab in (await client.tabs())["tabs"])
            self.tracked = before if alive else None
        return closed

    @contextlib.asynccontextmanager
    async def _every_browser(self):
        """Links to every running host this session may use, the session's first (an isolated session's own
        alone; another's isolated browser is nobody else's); the others are closed afterwards unless one became the
        session's own."""
        current = await self._current()
        others = (
            [] if self.isolated() else await self._discover(self.session, client=self.client_name, skip={current.path})
        )
        for link in [link for link in others if link.hello.isolated]:
            others.remove(link)
            await link.close()
        try:
            yield [current, *others]
        finally:
            for link in others:
                if link is not self._link:
                    await link.close()

    def _fit_viewports(self, link: HostLink) -> None:
        """Puts the tabs of the embedded browser this session started at its viewport size, while the first call
        goes on: a capture of a URL opens a window of its own, and a call on a tab waits for this (``tab``)."""

        async def fit() -> None:
            client = BrowserClient(link)
            for tab in (await client.tabs())["tabs"]:
                await client.set_viewport(tab["id"], **EMBEDDED_VIEWPORT)

        self._fitting = asyncio.ensure_future(fit())
        # a failure is the next tab call's to report; a session that makes none leaves it unread, and unlogged
        self._fitting.add_done_callback(lambda done: done.cancelled() or done.exception())

    def _adopt(self, link: HostLink) -> None:
        self._link = link
        link.on_event = self._on_link_event

    def _on_link_event(self, event: str, data: dict[str, Any]) -> None:
        """The host's events: a tab of this session's taken over by another session (said in the next answer);
        the rest (alerts) are the session's."""
        if event == "tab_taken":
            link, tab_id = self._link, data.get("tab_id")
            if link is not None and isinstance(tab_id, int):  # the host sends the tab's id, an int
                self._opened.discard(_run_tab(link, tab_id))
            by = data.get("by") or {}
            self.notes.append(
                f"Tab {data.get('tab_id')} was taken over by {by.get('client', 'another MCP client')} (session "
                f"{by.get('session', '?')}): it is theirs now. Observe it freely; to act there again, take it back "
                "(configure take_over) or open a tab of your own (interact open_tab)."
            )
        elif self.on_event is not None:
            self.on_event(event, data)

    async def link_ahead(self, spawned: threading.Event) -> None:
        """Link to the browser started ahead for this session (at its opening request) once its host is up:
        the first call finds the session linked, and the host counts this front, so that a browser the session
        never used ends as after any session (its linger time after the last front). Never raises: the first
        call meets what went wrong, and says it."""
        await asyncio.to_thread(spawned.wait, embedded.LAUNCH_TIMEOUT)
        browser = embedded.started_ahead()
        if browser is None:
            return
        if not await asyncio.to_thread(browser.wait_up):
            return
        try:
            await self._current()
        except Exception as exc:  # noqa: BLE001 - see the docstring
            log.info("did not link to the browser started ahead: %s", exc)

    # -- shutdown ------------------------------------------------------------

    async def aclose(self) -> None:
        """Close the link, at once: an embedded browser this session started is left to its host.

        The host stops that browser once no front uses it (after its linger time; if another front still
        does, it keeps running for that front) and removes its profile when its last process has ended.
        """
        if self._fitting is not None:
            self._fitting.cancel()
        if self._link:
            await self._link.close()
            self._link = None
        unused = embedded.take_ahead()
        if unused is not None:
            # started ahead of a call that never came to need it (its arguments were refused): its host removes
            # its profile, or, if it had none yet, the next launch's sweep (sweep_stale_profiles)
            unused.process.terminate()
            self._unused = unused

    async def wait_for_end(self) -> None:
        """After ``aclose``: wait until the embedded browser this session started has ended and nothing of it is
        left (``tabsight shot`` leaves no process behind). Its host stops it once no front uses it (at once for
        ``linger`` 0); what is left of it then (helpers winding down, the host) is ended without waiting for
        them, its profile removed. A browser another front still uses is left to it, waited for no longer than
        its linger time and a few seconds."""
        browser = self._launched or self._unused
        if browser is None:
            return
        linger = self.linger if self.linger is not None else config.current()[config.TABSIGHT_EMBEDDED_LINGER]
        try:
            await asyncio.to_thread(browser.process.wait, linger + 8)
        except subprocess.TimeoutExpired:
            return
        await asyncio.to_thread(browser.end_remains)


@contextlib.asynccontextmanager
async def _launch_lock():
    """``embedded.LaunchLock``, waited for by polling, not in a thread: a front stopped while another launches
    is not held up by a thread blocked in ``flock``."""
    lock = embedded.LaunchLock()
    while not lock.try_acquire():
        await asyncio.sleep(0.005)
    try:
        yield
    finally:
        lock.release()


def _versions_match(link: HostLink) -> bool:
    try:
        check_versions(link)
    except BrowserError:
        return False
    return True


def _run_tab(transport: Transport, tab_id: int) -> tuple[str, str, int]:
    """A tab as ``_opened`` names it: tab ids hold within one run of one browser profile."""
    return transport.profile_id, _browser_run(transport), tab_id


def _browser_run(transport: Transport) -> str:
    """The run of the transport's browser (empty from a host that does not say)."""
    extension = transport.hello.extension
    return extension.browser_run if extension else ""
