"""Who may act on which tab, when several MCP sessions share one browser (DESIGN §5: one session's tabs are its own).

Every front (one MCP session) reaches the browser through this host, so the host is where sessions meet. Two
kinds of claim keep them out of each other's way; neither ever stands in the way of observing (page, screenshot,
telemetry, tabs):

- **Owned tabs.** A tab a session opened (``tab.open``) is that session's. Another session that acts on it
  (``ACTING`` methods) is refused with ``tab_owned``, naming the owner and how to take it over. The owner may
  release it (then it is a shared tab like the user's), and any session may take it over explicitly: the
  ownership moves, and the previous owner is told (its next answer says so). When the owner's session ends, its
  tabs are handed to the extension, which closes each one the user has not used since (``ended``).
- **Leases on shared tabs** (the user's tabs, and released ones). A session acting on one holds a lease on it
  while its acting requests run, and for ``TABSIGHT_LEASE_SECONDS`` (10 by default) after the last one ends; another
  session that acts there meanwhile is refused with ``tab_busy``, naming the holder and until when (the front may
  wait instead: configure tabs).

A session is known by the name its front gave in its hello (``session``, stable while the ``tabsight mcp``
process lives, whichever connection it comes on) and the MCP client's name (``client``), which answers show.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeGuard

from .. import config
from ..errors import Code
from ..protocol.methods import Method
from ..times import wall_time


def lease_seconds() -> float:
    """Seconds a lease outlives the last acting request of its holder: TABSIGHT_LEASE_SECONDS, in the browser's
    environment (0 holds a tab only while an action runs)."""
    return config.current()[config.TABSIGHT_LEASE_SECONDS]


#: the methods that change a tab (the rest observe it); each names its tab by ``tab_id``
ACTING = frozenset(
    {
        Method.TAB_NAVIGATE,
        Method.TAB_HISTORY,
        Method.TAB_CLOSE,
        Method.ELEMENT_ACT,
        Method.PAGE_EXECUTE,
        Method.DIALOG_ANSWER,
        Method.EMULATION_SET,
    }
)


@dataclass(frozen=True)
class Holder:
    """A session, as claims name it."""

    session: str
    client: str = ""

    def wire(self) -> dict[str, str]:
        return {"session": self.session, "client": self.client or "an MCP client"}

    @property
    def named(self) -> str:
        return f"{self.client or 'an MCP client'} (session {self.session})"


@dataclass
class Lease:
    holder: Holder
    #: the holder's acting requests on the tab that have not been answered yet
    running: int = 0
    #: when the lease ends once nothing runs (clock seconds)
    until: float = 0.0


@dataclass
class Refusal:
    code: Code
    message: str


@dataclass
class TabClaims:
    """The owned tabs and the leases of one browser."""

    clock: Callable[[], float] = time.time
    #: how long a lease outlives its holder's last acting request
    lease_seconds: float = field(default_factory=lease_seconds)
    owners: dict[int, Holder] = field(default_factory=dict)
    leases: dict[int, Lease] = field(default_factory=dict)

    def admit(self, holder: Holder, method: str, tab_id: int | None) -> Refusal | None:
        """Whether ``holder`` may send ``method`` for ``tab_id`` now; an acting request admitted on a shared tab
        takes (or renews) the holder's lease, which ``done`` lets go of."""
        if tab_id is None or method not in ACTING:
            return None
        owner = self.owners.get(tab_id)
        if owner is not None:
            if owner.session == holder.session:
                return None
            return Refusal(
                Code.TAB_OWNED,
                f"Tab {tab_id} belongs to {owner.named} (it opened the tab, or took it "
                "over): observe it freely, but acting on it is for its owner alone",
            )
        lease = self.leases.get(tab_id)
        now = self.clock()
        if lease is not None and lease.holder.session != holder.session and (lease.running or lease.until > now):
            until = "while its action runs" if lease.running else f"until {wall_time(lease.until)}"
            return Refusal(
                Code.TAB_BUSY,
                f"Tab {tab_id} is in use by {lease.holder.named} {until} (a lease "
                f"renewed while it acts, and held {self.lease_seconds:g} s after)",
            )
        if lease is None or lease.holder.session != holder.session:
            lease = self.leases[tab_id] = Lease(holder)
        lease.running += 1
        return None

    def done(self, holder: Holder, method: str, tab_id: int | None) -> None:
        """An admitted request was answered (or timed out, or was cancelled)."""
        lease = self.leases.get(tab_id) if tab_id is not None and method in ACTING else None
        if lease is not None and lease.holder.session == holder.session and lease.running:
            lease.running -= 1
            lease.until = self.clock() + self.lease_seconds

    def opened(self, holder: Holder, tab_id: int) -> None:
        self.owners[tab_id] = holder
        self.leases.pop(tab_id, None)

    def release(self, holder: Holder, tab_id: int) -> Refusal | None:
        owner = self.owners.get(tab_id)
        if owner is None or owner.session != holder.session:
            whose = f"belongs to {owner.named}" if owner else "is no session's"
            return Refusal(Code.BAD_REQUEST, f"Tab {tab_id} {whose}: a session releases only the tabs it owns")
        del self.owners[tab_id]
        return None

    def take_over(self, holder: Holder, tab_id: int) -> Holder | None:
        """The tab is ``holder``'s from now on; the owner (or lease holder) it had, if another session."""
        before = self.owners.get(tab_id)
        lease = self.leases.pop(tab_id, None)
        self.owners[tab_id] = holder
        if before is None and lease is not None and (lease.running or lease.until > self.clock()):
            before = lease.holder
        return before if before is not None and before.session != holder.session else None

    def reclaim(self, holder: Holder, tab_ids: list[int]) -> list[int]:
        """After a host restart (claims do not outlive a host), a session says again which tabs it owns: each is
        its own again unless another session owns it by now; those that are, in order."""
        mine = []
        for tab_id in tab_ids:
            owner = self.owners.get(tab_id)
            if owner is None or owner.session == holder.session:
                self.owners[tab_id] = holder
                self.leases.pop(tab_id, None)
                mine.append(tab_id)
        return mine

    def gone(self, tab_ids: set[int]) -> None:
        """These tabs are closed: their claims go with them."""
        for tab_id in tab_ids:
            self.owners.pop(tab_id, None)
            self.leases.pop(tab_id, None)

    def ended(self, session: str) -> list[int]:
        """A session ended: its leases are let go, and its tabs returned (for the extension to close those the
        user has not used)."""
        for tab_id, lease in list(self.leases.items()):
            if lease.holder.session == session:
                del self.leases[tab_id]
        mine = [tab_id for tab_id, owner in self.owners.items() if owner.session == session]
        for tab_id in mine:
            del self.owners[tab_id]
        return mine

    def describe(self, tab_id: int, asking: str) -> dict:
        """What ``observe tabs`` shows of a tab's claims, to the session ``asking``."""
        shown: dict = {}
        owner = self.owners.get(tab_id)
        if owner is not None:
            shown["owner"] = owner.wire()
            if owner.session == asking:
                shown["mine"] = True
        lease = self.leases.get(tab_id)
        if lease is not None and (lease.running or lease.until > self.clock()):
            shown["lease"] = {
                **lease.holder.wire(),
                "until": wall_time(lease.until) if not lease.running else "while its action runs",
            }
            if lease.holder.session == asking:
                shown["lease"]["mine"] = True
        return shown


CLAIM_ACTIONS = ("release", "take_over", "on_end", "reclaim")


@dataclass(frozen=True)
class ClaimRequest:
    """A front's ``tabs.claim``: ``release`` or ``take_over`` a ``tab_id``; ``on_end`` (``close`` or ``keep``:
    what becomes of the session's tabs when it ends); or ``reclaim`` the ``tab_ids`` it owned under a host that has
    since restarted. Checked by hand: the host runs without pydantic."""

    action: str
    tab_id: int | None = None
    on_end: str | None = None
    tab_ids: tuple[int, ...] = ()

    @classmethod
    def checked(cls, params: dict) -> ClaimRequest:
        action, tab_id, on_end = params.get("action"), params.get("tab_id"), params.get("on_end")
        if action not in CLAIM_ACTIONS:
            raise ValueError(f"tabs.claim: 'action' is {action!r}; allowed: {', '.join(CLAIM_ACTIONS)}")
        if action == "on_end":
            if on_end not in ("close", "keep"):
                raise ValueError(f"tabs.claim: 'on_end' is {on_end!r}; allowed: close, keep")
            return cls(action, on_end=on_end)
        if action == "reclaim":
            tab_ids = params.get("tab_ids")
            if not isinstance(tab_ids, list) or not all(is_int(each) for each in tab_ids):
                raise ValueError("tabs.claim: reclaim needs 'tab_ids', a list of integers")
            return cls(action, tab_ids=tuple(tab_ids))
        if not is_int(tab_id):
            raise ValueError(f"tabs.claim: {action} needs 'tab_id', an integer")
        return cls(action, tab_id)


def is_int(value: object) -> TypeGuard[int]:
    """An int that is not a bool (JSON's true is no tab id)."""
    return isinstance(value, int) and not isinstance(value, bool)
