"""The host: routes requests from any number of fronts to the extension and back.

One host runs per browser profile, started by the browser through native
messaging. It listens on a Unix socket in the per-user runtime folder (0700
folder, 0600 socket, peer uid checked; other uids only as ``sharing`` lets them
in), rewrites request ids so fronts never
see each other's traffic, times requests out, and cancels the requests of a
front that goes away so the extension releases what they held.

An embedded host (the browser was started by a front, ``TABSIGHT_EMBEDDED``
set) also ends that browser when its last front has gone.

Its hello to fronts says when the user last used the browser (the
extension's word, then its activity events) and which channel and profile it
is (``whoami``), so that a front can pick the browser in use and name each.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import importlib
import itertools
import logging
import os
import signal
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from .. import __version__, config, settings
from ..errors import Code
from ..limits import PROTOCOL_VERSION
from ..paths import extension_id as packaged_extension_id
from ..protocol import frames
from ..protocol.channel import FrameChannel
from ..protocol.framing import MAX_FRAME, FrameTooLarge
from ..protocol.methods import Method
from . import sharing
from .peercred import peer
from .received import Received
from .tabs import ClaimRequest, Holder, TabClaims, is_int
from .whoami import Whoami, identify

if TYPE_CHECKING:
    from .picks import Picks
    from .telemetry import Alert, Telemetry

log = logging.getLogger("tabsight.host")

DEFAULT_TIMEOUT_MS = 30_000
HELLO_TIMEOUT = 10.0
#: alerts are dropped for a front that has this much unread: one that stopped
#: reading (a suspended agent) must not grow the host without bound
MAX_ALERT_BACKLOG = 1 << 20
#: seconds the host may spend finding out which browser and profile it serves
IDENTIFY_TIMEOUT = 3.0
#: seconds between looks at the browser's files while something is still unknown (a new profile's
#: name reaches Local State some seconds after the browser started)
IDENTIFY_AGAIN = 10.0
#: seconds a front's hello may wait for such a second look
GREET_IDENTIFY_WAIT = 0.25
#: bytes read (and dropped) from a front refused for its uid, so that the refusal reaches it
MAX_REFUSED_READ = 64 * 1024
#: cancelled requests remembered until the extension's answer confirms it stopped (the oldest forgotten past this)
MAX_CANCELLED = 1000


@dataclass(eq=False)
class FrontConnection:
    number: int
    channel: FrameChannel
    session: str = ""
    #: the MCP client's name, as its front said in its hello
    client: str = ""
    #: alerts not sent to this front because it was not reading
    alerts_dropped: int = 0
    #: this front's request id -> the id the extension sees
    in_flight: dict[str, str] = field(default_factory=dict)


@dataclass
class Pending:
    front: FrontConnection
    local_id: str
    timer: asyncio.TimerHandle
    #: what the extension's result goes through before the front gets it (network.detail: redaction)
    shape: Callable[[dict], dict] | None = None
    #: the tab an admitted acting request holds a lease on (tabs.py), let go of when it is answered
    claim: tuple[Holder, str, int | None] | None = None


@dataclass(frozen=True)
class EmbeddedSettings:
    """How an embedded host ends its browser (see module docstring)."""

    token: str
    #: seconds without any front before the browser is stopped
    linger: float = 2.0
    #: seconds to wait for the first front after the browser started
    first_front_grace: float = 60.0
    #: started for one session alone (TABSIGHT_ISOLATED): other sessions' fronts leave it be
    isolated: bool = False

    @classmethod
    def from_config(cls) -> EmbeddedSettings | None:
        """This host's, when the front that started its browser said (``config``'s internal variables)."""
        configuration = config.current()
        token = configuration[config.TABSIGHT_EMBEDDED]
        if not token:
            return None
        return cls(
            token=token,
            linger=configuration[config.TABSIGHT_EMBEDDED_LINGER],
            isolated=configuration[config.TABSIGHT_EMBEDDED_ISOLATED],
        )


class Host:
    def __init__(
        self,
        extension: FrameChannel,
        socket_path: Path,
        embedded: EmbeddedSettings | None = None,
        extension_id: str | None = None,
    ) -> None:
        self.extension = extension
        #: the id of the extension that started this host (the packaged one, or this machine's: paths.extension_ids)
        self.extension_id = extension_id or packaged_extension_id()
        self.socket_path = socket_path
        self.embedded = embedded
        self.host_id = uuid.uuid4().hex[:12]
        self.extension_hello: frames.Hello | None = None
        self.fronts: set[FrontConnection] = set()
        self.pending: dict[str, Pending] = {}
        #: requests cancelled by their front (or its going), until the extension answers them
        self._cancelled: dict[str, None] = {}
        #: cancels sent to the extension for a front, and how many of those the extension confirmed (answered
        #: ``cancelled``): host.status reports both, so that a stopped call can be seen to stop in the browser too
        self.cancels_sent = 0
        self.cancels_confirmed = 0
        #: when the user last used the browser (unix seconds): the extension's hello says, then
        #: every activation or focus it reports; None while unknown (never, as far as it knows)
        self.last_active: float | None = None
        #: which browser, channel and profile this is (see ``whoami``), found once the extension said hello
        self.whoami = Whoami()
        self._identified_at: float | None = None
        self._looking: asyncio.Future | None = None
        #: frames on their way to the extension that nobody waits for (_tell_extension)
        self._telling: set[asyncio.Future] = set()
        self._front_numbers = itertools.count(1)
        self._request_numbers = itertools.count(1)
        self._idle_timer: asyncio.TimerHandle | None = None
        #: which session owns or holds which tab (tabs.py)
        self.claims = TabClaims()
        #: session -> whether its tabs are closed when it ends (tabs.claim on_end; closed by default)
        self._close_on_end: dict[str, bool] = {}
        #: files sent by fronts across a forward for an upload
        self.received = Received()

    @functools.cached_property
    def telemetry(self) -> Telemetry:
        """The telemetry buffers, made on first use: their module (the redaction rules' patterns, ~50 ms to
        compile) is loaded after the socket listens (``run``), off the path to a browser's first answer."""
        from .telemetry import Telemetry

        return Telemetry(on_alert=self._broadcast_alert)

    @functools.cached_property
    def picks(self) -> Picks:
        """The user's latest picks ("Look at this"), made on the first one; each is an alert for every front."""
        from .picks import Picks

        return Picks(on_alert=self._broadcast_alert)

    # -- lifecycle ---------------------------------------------------------

    async def run(self) -> None:
        """Serve until the browser closes the port; then remove the socket."""
        # an embedded browser runs with --silent-debugger-extension-api: the extension spares no bar there
        try:
            await self.extension.send(
                frames.Hello(role="host", version=__version__, embedded=self.embedded.token if self.embedded else None)
            )
            first = await asyncio.wait_for(self.extension.receive(), HELLO_TIMEOUT)
        except TimeoutError:
            log.error("the extension said no hello within %s s; exiting", HELLO_TIMEOUT)
            return
        except (FrameTooLarge, ConnectionError) as exc:  # the browser went away meanwhile: nothing to serve
            log.error("extension channel broken before its hello: %s; exiting", exc)
            return
        if not isinstance(first, frames.Hello):
            log.error("the extension did not say hello (got %r); exiting", first)
            return
        self._on_extension_hello(first)
        await self._identify()
        # Born 0600 (no window where others may connect) under a name fronts do not look for, and given its own
        # name once it listens: a front that met it bound but not yet listening took it for a dead host's
        # leftover and removed it (seen once in a soak's host restart).
        unready = self.socket_path.with_name(f".{self.socket_path.name}.binding")
        unready.unlink(missing_ok=True)
        old_umask = os.umask(0o177)
        try:
            server = await asyncio.start_unix_server(self._serve_front, path=str(unready), limit=MAX_FRAME)
        finally:
            os.umask(old_umask)
        os.chmod(unready, 0o600)
        os.replace(unready, self.socket_path)
        sharing.let_peers_in(self.socket_path.parent, self.socket_path)
        # a user's profile keeps one name across restarts, for a forward to it (an embedded one lives once)
        profile = None if self.embedded or not first.profile_id else sharing.publish(self.socket_path, first.profile_id)
        log.info("host %s listening on %s", self.host_id, profile or self.socket_path)
        # in a thread while the fronts connect; a telemetry event that comes first waits for the import
        loading = asyncio.ensure_future(asyncio.to_thread(importlib.import_module, f"{__package__}.telemetry"))
        if self.embedded:
            self._arm_idle_timer(self.embedded.first_front_grace)
        try:
            await self._read_extension()
        finally:
            loading.cancel()
            server.close()
            sharing.withdraw(profile, self.socket_path)
            self.socket_path.unlink(missing_ok=True)
            self.received.remove()
            for pending in self.pending.values():
                pending.timer.cancel()
                pending.front.channel.post(
                    frames.error(
                        pending.local_id, Code.BROWSER_CLOSED, "The browser closed its connection to tabsight."
                    )
                )
            for front in list(self.fronts):
                front.channel.close()
            log.info("host %s stopped: the browser closed the port", self.host_id)

    def _on_extension_hello(self, hello: frames.Hello) -> None:
        self.extension_hello = hello
        if hello.protocol != PROTOCOL_VERSION:
            log.error(
                "extension speaks protocol %s, host %s: reload the extension at chrome://extensions",
                hello.protocol,
                PROTOCOL_VERSION,
            )
        if hello.version != __version__:
            log.warning(
                "extension %s, host %s: reload the extension at chrome://extensions", hello.version, __version__
            )
        if hello.last_active is not None:
            # never in the future: this machine's clock, both sides
            said = max(0.0, min(hello.last_active, time.time()))
            self.last_active = max(self.last_active or 0.0, said) or None

    async def _identify(self, wait: float = IDENTIFY_TIMEOUT) -> None:
        """Find out the browser's channel and profile (see ``whoami``), waiting for the answer at most ``wait``
        seconds (it lands in later hellos otherwise); looked at again later while something is unknown."""
        if self._identified_at is not None and (
            self.whoami.settled or time.monotonic() - self._identified_at < IDENTIFY_AGAIN
        ):
            return
        self._identified_at = time.monotonic()
        self._looking = asyncio.ensure_future(self._look())  # kept: the loop holds tasks weakly
        await asyncio.wait({self._looking}, timeout=wait)

    async def _look(self) -> None:
        hello = self.extension_hello
        profile_id = (hello.profile_id or "") if hello else ""
        try:
            self.whoami = await asyncio.wait_for(
                asyncio.to_thread(identify, os.getppid(), profile_id, self.extension_id), IDENTIFY_TIMEOUT
            )
        except Exception as exc:  # noqa: BLE001 - naming the browser is a nicety: never a reason not to serve it
            log.warning("could not tell which browser profile this is: %s", exc)
            return
        log.info("serving %s", self.whoami)

    # -- extension side ----------------------------------------------------

    async def _read_extension(self) -> None:
        while True:
            try:
                frame = await self.extension.receive()
            except (FrameTooLarge, ConnectionError) as exc:
                log.error("extension channel broken: %s", exc)
                return
            if frame is None:
                return
            if isinstance(frame, (frames.Response, frames.Error)):
                self._deliver(frame)
            elif isinstance(frame, frames.Event):
                if frame.event == "activity":
                    self.last_active = time.time()
                elif frame.event == "telemetry":
                    self.telemetry.receive(frame.data)
                elif frame.event == "picked":
                    self.picks.receive(frame.data)
            elif isinstance(frame, frames.Hello):
                self._on_extension_hello(frame)
            elif isinstance(frame, frames.Request):
                await self.extension.send(frames.error(frame.id, Code.BAD_REQUEST, "the host takes no requests"))

    def _broadcast_alert(self, alert: Alert) -> None:
        """Every connected front gets every alert (each session filters and delivers
        its own), unless it has stopped reading."""
        event = frames.Event(event="alert", data=alert.wire())
        for front in self.fronts:
            if front.channel.backlog > MAX_ALERT_BACKLOG:
                front.alerts_dropped += 1
            else:
                front.channel.post(event)

    def _deliver(self, frame: frames.Response | frames.Error) -> None:
        pending = self.pending.pop(frame.id, None) if frame.id is not None else None
        if pending is None:
            # answered after its timeout or cancel: the front was already told
            if frame.id in self._cancelled:
                del self._cancelled[frame.id]
                if isinstance(frame, frames.Error) and frame.error.code == Code.CANCELLED.value:
                    self.cancels_confirmed += 1
            return
        pending.timer.cancel()
        pending.front.in_flight.pop(pending.local_id, None)
        self._let_go(pending)
        if pending.shape is not None and isinstance(frame, frames.Response):
            frame = frame.replace(result=pending.shape(frame.result))
        pending.front.channel.post(frame.replace(id=pending.local_id))

    # -- front side --------------------------------------------------------

    async def _serve_front(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        channel = FrameChannel(reader, writer, name="front")
        uid = peer(writer.get_extra_info("socket")).uid
        if not sharing.admits(uid):
            log.warning("refused a connection from uid %s", uid)
            await channel.send(frames.error(None, Code.FORBIDDEN, sharing.refusal(uid)))
            # its hello, left unread, would turn the close into a reset that drops the refusal on its way
            with contextlib.suppress(OSError, asyncio.TimeoutError):
                await asyncio.wait_for(reader.read(MAX_REFUSED_READ), HELLO_TIMEOUT / 5)
            channel.close()
            return
        front = FrontConnection(number=next(self._front_numbers), channel=channel)
        channel.name = f"front-{front.number}"
        try:
            if not await self._greet(front):
                return
            self.fronts.add(front)
            self._fronts_changed()
            while True:
                frame = await channel.receive()
                if frame is None:
                    return
                if isinstance(frame, frames.Request):
                    await self._on_front_request(front, frame)
                elif isinstance(frame, frames.Cancel):
                    self._cancel(front, frame.id)
        except (ConnectionError, FrameTooLarge, asyncio.TimeoutError) as exc:
            log.warning("%s dropped: %s", channel.name, exc)
        except asyncio.CancelledError:
            # the host is ending (asyncio.run cancels what still runs): the connection ends as a closed one does.
            # A cancelled handler would print a CancelledError traceback: Python 3.11's streams ask it for its
            # exception in a callback, which raises
            pass
        finally:
            self.fronts.discard(front)
            for local_id in list(front.in_flight):
                self._cancel(front, local_id)
            channel.close()
            self._fronts_changed()
            self._session_gone(front.session)

    def _session_gone(self, session: str) -> None:
        """A session's last front went: its leases end, and its tabs go back to the extension, which closes
        those the user has not used since (unless the session asked to keep them). (A front reconnects only
        to a new host: a host's claims do not outlive it.)"""
        if any(front.session == session for front in self.fronts):
            return  # another link of the same session (list_tabs looks at every browser) is still here
        tab_ids = self.claims.ended(session)
        # in tabsight's own browser no user uses a tab: a dialog, not a user, brought one to the front
        close = ("all" if self.embedded else "unused") if self._close_on_end.pop(session, True) else "none"
        if tab_ids:
            self._tell_extension(frames.Event(event="tabs_ended", data={"tab_ids": tab_ids, "close": close}))

    async def _greet(self, front: FrontConnection) -> bool:
        hello = await asyncio.wait_for(front.channel.receive(), HELLO_TIMEOUT)
        if not isinstance(hello, frames.Hello) or hello.role != "front":
            await front.channel.send(frames.error(None, Code.BAD_REQUEST, "expected a front hello"))
            return False
        if hello.protocol != PROTOCOL_VERSION:
            fix = (
                "restart the browser so that it starts the newer host"
                if hello.protocol > PROTOCOL_VERSION
                else "upgrade tabsight where the MCP client runs it"
            )
            await front.channel.send(
                frames.error(
                    None,
                    Code.VERSION_MISMATCH,
                    f"the front speaks protocol {hello.protocol}, this host {PROTOCOL_VERSION}: {fix}",
                )
            )
            return False
        front.session = hello.session or f"front-{front.number}"
        front.client = (hello.client or "")[:100]
        await self._identify(wait=GREET_IDENTIFY_WAIT)  # well within the front's wait for this hello
        await front.channel.send(self.hello())
        return True

    def hello(self) -> frames.Hello:
        ext = self.extension_hello
        return frames.Hello(
            role="host",
            version=__version__,
            host_id=self.host_id,
            pid=os.getpid(),
            embedded=self.embedded.token if self.embedded else None,
            isolated=True if self.embedded and self.embedded.isolated else None,
            extension=frames.ExtensionInfo(
                version=ext.version,
                browser=ext.browser or frames.BrowserInfo(),
                profile_id=ext.profile_id or "",
                browser_run=ext.browser_run or "",
                protocol=ext.protocol,
            )
            if ext
            else None,
            last_active=self.last_active,
            channel=self.whoami.channel,
            user_data_dir=self.whoami.user_data_dir,
            profile_dir=self.whoami.profile_dir,
            profile_name=self.whoami.profile_name,
        )

    async def _on_front_request(self, front: FrontConnection, request: frames.Request) -> None:
        own = self._own_methods.get(request.method)
        if own is not None:
            try:
                front.channel.post(frames.Response(id=request.id, result=own(self, front, request.params)))
            except ValueError as exc:
                front.channel.post(frames.error(request.id, Code.BAD_REQUEST, str(exc)))
            return
        if request.id in front.in_flight:
            front.channel.post(
                frames.error(request.id, Code.BAD_REQUEST, f"request id {request.id!r} is already in flight")
            )
            return
        holder, tab_id = _holder(front), request.params.get("tab_id")
        tab_id = tab_id if is_int(tab_id) else None
        refused = self.claims.admit(holder, request.method, tab_id)
        if refused is not None:
            front.channel.post(frames.error(request.id, refused.code, refused.message))
            return
        global_id = f"{front.number}.{next(self._request_numbers)}"
        forwarded = request.replace(id=global_id)
        if request.method == Method.CAPTURE.value:  # the extension shares Chrome's capture quota out by session
            forwarded = forwarded.replace(params={**request.params, "session": holder.session})
        if request.method == Method.PAGE_EXECUTE.value:
            # what only the user may allow comes from their settings file, whatever the front sent (settings.py)
            kind = "own" if self.embedded else "user"
            forwarded = forwarded.replace(
                params={**request.params, "browser_kind": kind, "allow": settings.allowed(kind)}
            )
        try:
            await self.extension.send(forwarded)
        except FrameTooLarge as exc:
            self.claims.done(holder, request.method, tab_id)
            front.channel.post(
                frames.error(request.id, Code.FRAME_TOO_LARGE, f"request too large for the browser: {exc}")
            )
            return
        timeout = (request.timeout_ms or DEFAULT_TIMEOUT_MS) / 1000
        timer = asyncio.get_running_loop().call_later(timeout, self._expire, global_id)
        self.pending[global_id] = Pending(
            front, request.id, timer, self._shape(front, request), (holder, request.method, tab_id)
        )
        front.in_flight[request.id] = global_id

    def _shape(self, front: FrontConnection, request: frames.Request) -> Callable[[dict], dict] | None:
        """How the extension's answer to ``request`` must change on its way through, or what the host learns
        from it: a request's detail is redacted here, as every telemetry report is, so that no secret leaves the
        host; a tab opened is its session's; the tab list shows who owns and holds each tab."""
        if request.method == Method.NETWORK_DETAIL.value:
            from .telemetry import network_detail

            return functools.partial(network_detail, max_body_chars=request.params.get("max_body_chars"))
        if request.method == Method.TAB_OPEN.value:
            return functools.partial(self._opened, _holder(front))
        if request.method == Method.TAB_CLOSE.value:
            return self._closed
        if request.method == Method.TABS_LIST.value:
            return functools.partial(self._claims_shown, front.session)
        return None

    def _opened(self, holder: Holder, result: dict) -> dict:
        if isinstance(result.get("tab_id"), int):
            self.claims.opened(holder, result["tab_id"])
        return result

    def _closed(self, result: dict) -> dict:
        if isinstance(result.get("closed"), int):
            self.claims.gone({result["closed"]})
        return result

    def _claims_shown(self, asking: str, result: dict) -> dict:
        tabs = result.get("tabs")
        if not isinstance(tabs, list):
            return result
        listed = {tab.get("id") for tab in tabs if isinstance(tab, dict)}
        self.claims.gone(set(self.claims.owners) - listed | set(self.claims.leases) - listed)
        return {
            **result,
            "tabs": [
                {**tab, **self.claims.describe(tab["id"], asking)}
                if isinstance(tab, dict) and isinstance(tab.get("id"), int)
                else tab
                for tab in tabs
            ],
        }

    # -- methods the host answers itself -----------------------------------

    def _status(self, front: FrontConnection, params: dict) -> dict:
        status = self.hello().wire()
        status["fronts"] = len(self.fronts)
        status["telemetry"] = {"tabs": len(self.telemetry.tabs), "dropped": self.telemetry.dropped}
        status["requests"] = {
            "in_flight": len(self.pending),
            "cancelled": self.cancels_sent,
            "cancel_confirmed": self.cancels_confirmed,
        }
        return status

    def _query_telemetry(self, front: FrontConnection, params: dict) -> dict:
        from .telemetry import TelemetryQuery

        query = TelemetryQuery.model_validate(params)
        return self.telemetry.query(query.what, query.tab_id, query.url, query.since, query.limit, query.requests)

    def _query_picks(self, front: FrontConnection, params: dict) -> dict:
        from .picks import PicksQuery

        query = PicksQuery.model_validate(params)
        return self.picks.query(query.since, query.limit)

    def _ci_result(self, front: FrontConnection, params: dict) -> dict:
        return {"alert": self.telemetry.ci_result(params).wire(), "fronts": len(self.fronts)}

    def _claim(self, front: FrontConnection, params: dict) -> dict:
        """tabs.claim: release a tab the session owns, take one over, say whether its tabs outlive it, or (after a
        host restart) say which tabs it owns."""
        claim = ClaimRequest.checked(params)
        holder = _holder(front)
        if claim.action == "on_end":
            self._close_on_end[holder.session] = claim.on_end == "close"
            return {"on_end": claim.on_end}
        if claim.action == "reclaim":
            return {"reclaimed": self.claims.reclaim(holder, list(claim.tab_ids))}
        assert claim.tab_id is not None  # release and take_over: ClaimRequest.checked saw to it
        if claim.action == "release":
            refused = self.claims.release(holder, claim.tab_id)
            if refused is not None:
                raise ValueError(refused.message)
            return {"released": claim.tab_id}
        before = self.claims.take_over(holder, claim.tab_id)
        if before is not None:
            taken = frames.Event(event="tab_taken", data={"tab_id": claim.tab_id, "by": holder.wire()})
            for other in self.fronts:
                if other.session == before.session:
                    other.channel.post(taken)
        return {"taken_over": claim.tab_id, "from": before.wire() if before else None}

    def _put_file(self, front: FrontConnection, params: dict) -> dict:
        """files.put: a file an upload sent across a forward, kept for the browser to read (received.py)."""
        return self.received.put(params)

    _own_methods = {
        Method.FILES_PUT.value: _put_file,
        Method.HOST_STATUS.value: _status,
        Method.TELEMETRY_QUERY.value: _query_telemetry,
        Method.HOST_CI_RESULT.value: _ci_result,
        Method.PICKS_QUERY.value: _query_picks,
        Method.TABS_CLAIM.value: _claim,
    }

    def _let_go(self, pending: Pending) -> None:
        if pending.claim is not None:
            self.claims.done(*pending.claim)

    def _expire(self, global_id: str) -> None:
        pending = self.pending.pop(global_id, None)
        if pending is None:
            return
        pending.front.in_flight.pop(pending.local_id, None)
        self._let_go(pending)
        pending.front.channel.post(
            frames.error(
                pending.local_id, Code.TIMEOUT, "the browser did not answer in time; the request was cancelled"
            )
        )
        self._tell_extension(frames.Cancel(id=global_id))

    def _cancel(self, front: FrontConnection, local_id: str) -> None:
        global_id = front.in_flight.pop(local_id, None)
        if not global_id:
            return
        pending = self.pending.pop(global_id, None)
        if pending is None:
            return
        pending.timer.cancel()
        self._let_go(pending)
        self.cancels_sent += 1
        self._cancelled[global_id] = None
        if len(self._cancelled) > MAX_CANCELLED:
            del self._cancelled[next(iter(self._cancelled))]
        self._tell_extension(frames.Cancel(id=global_id))

    def _tell_extension(self, frame: frames.Record) -> None:
        """Send a frame to the extension without waiting for it (from code that cannot). The browser may have
        gone meanwhile (it quit; the host is ending): that is no error, and logs no traceback."""
        task = asyncio.ensure_future(self.extension.send(frame))
        self._telling.add(task)  # kept: the loop holds tasks weakly
        task.add_done_callback(self._told)

    def _told(self, task: asyncio.Future) -> None:
        self._telling.discard(task)
        failed = None if task.cancelled() else task.exception()
        if failed is not None:
            log.info("could not tell the extension: %r", failed)

    # -- embedded browser lifetime ----------------------------------------

    def _fronts_changed(self) -> None:
        if not self.fronts:
            # no session is left: the extension lets go of its debugger attachments now (the bar goes with them)
            self._tell_extension(frames.Event(event="fronts", data={"count": 0}))
        if not self.embedded:
            return
        if self.fronts:
            if self._idle_timer:
                self._idle_timer.cancel()
                self._idle_timer = None
        else:
            self._arm_idle_timer(self.embedded.linger)

    def _arm_idle_timer(self, delay: float) -> None:
        if self._idle_timer:
            self._idle_timer.cancel()
        self._idle_timer = asyncio.get_running_loop().call_later(delay, self._stop_browser)

    def _stop_browser(self) -> None:
        """No front wants the embedded browser any more: end it (it is our parent)."""
        if self.fronts:
            return
        browser = os.getppid()
        log.info("embedded browser idle: stopping it (pid %s)", browser)
        try:
            os.kill(browser, signal.SIGTERM)
        except ProcessLookupError:
            pass


def _holder(front: FrontConnection) -> Holder:
    return Holder(front.session, front.client)
