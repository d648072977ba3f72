"""No TCP/UDP listener anywhere in the chain; socket modes; other users refused."""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys
import tempfile
import time

import pytest

from conftest import front_env, mcp_client
from harness.processes import descendants, front_pids, inet_listeners
from tabsight import __version__
from tabsight.limits import PROTOCOL_VERSION
from tabsight.paths import extension_origin
from tabsight.protocol.framing import encode

pytestmark = [pytest.mark.anyio, pytest.mark.browser]


def chain_pids(browser) -> set[int]:
    """The embedded browser and everything below it (the host is its child)."""
    return descendants(browser.browser_pid)


async def test_no_process_of_the_chain_listens_on_tcp_or_udp(browser, site):
    async with mcp_client() as client:
        result = await client.call_tool("screenshot", {"format": "webp"})
        assert not result.is_error
        pids = chain_pids(browser) | front_pids()
        assert len(pids) > 3  # browser, its helpers, the host, the front
        assert inet_listeners(pids) == []


async def test_socket_is_0600_in_a_0700_folder(browser, runtime_dir):
    assert stat.S_IMODE(runtime_dir.stat().st_mode) == 0o700
    sockets = list(runtime_dir.glob("host-*.sock"))
    assert sockets
    for path in sockets:
        info = path.stat()
        assert stat.S_ISSOCK(info.st_mode) and stat.S_IMODE(info.st_mode) == 0o600
        assert info.st_uid == os.getuid()


CONNECT_AS_NOBODY = """
import os, socket, sys
os.setgid(65534); os.setuid(65534)
s = socket.socket(socket.AF_UNIX)
try:
    s.connect(sys.argv[1])
except PermissionError:
    print("denied"); sys.exit(0)
data = b""
while chunk := s.recv(65536):
    data += chunk
print("closed", data[4:].decode())
"""


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to act as another user")
async def test_another_user_is_refused(browser, runtime_dir):
    (path,) = list(runtime_dir.glob("host-*.sock"))[:1]

    def as_nobody(target) -> str:
        run = subprocess.run(
            [sys.executable, "-c", CONNECT_AS_NOBODY, str(target)], capture_output=True, text=True, timeout=10
        )
        return run.stdout.strip() + run.stderr.strip()

    # The folder's mode alone keeps others out...
    assert as_nobody(path) == "denied"
    # ...and if the socket were reachable with loose modes, the host's peer-uid
    # check still refuses: a hard link in an open folder reaches the same socket.
    with tempfile.TemporaryDirectory(dir="/tmp") as open_dir:
        os.chmod(open_dir, 0o755)
        exposed = os.path.join(open_dir, "exposed.sock")
        os.link(path, exposed)
        os.chmod(exposed, 0o666)
        try:
            answer = as_nobody(exposed)
        finally:
            os.chmod(exposed, 0o600)
    assert answer.startswith("closed") and '"code":"forbidden"' in answer


@pytest.mark.parametrize(
    "origin", [["chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/"], []], ids=["another extension", "no extension"]
)
def test_the_host_serves_only_its_own_extension(tmp_path, origin):
    """Chrome names the calling extension's origin as the host's argument: another one gets nothing."""
    runtime = tmp_path / "rt"
    hello = encode({"type": "hello", "role": "extension", "version": __version__, "protocol": PROTOCOL_VERSION})
    run = subprocess.run(
        [sys.executable, "-m", "tabsight", "host", *origin],
        input=hello,
        capture_output=True,
        timeout=30,
        env=front_env(TABSIGHT_RUNTIME_DIR=str(runtime)),
    )
    assert run.returncode == 1
    assert f"only {extension_origin()} may start this host" in run.stderr.decode()
    assert run.stdout == b""  # not a byte back to the caller
    assert not runtime.exists() or not list(runtime.glob("*.sock"))


@pytest.mark.parametrize("gone", ["stdin", "stdin and stdout"])
def test_a_host_whose_browser_goes_before_the_hello_exits_quietly(tmp_path, gone):
    """A browser that quits (or a host killed and restarted) while a host starts leaves it with pipes that end or
    refuse writes: it says so in one line and exits, with no traceback in the browser's log."""
    host = subprocess.Popen(
        [sys.executable, "-m", "tabsight", "host", extension_origin()],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=front_env(TABSIGHT_RUNTIME_DIR=str(tmp_path / "rt")),
    )
    host.stdin.close()
    if gone == "stdin and stdout":
        host.stdout.close()
    assert host.wait(30) == 0
    log = host.stderr.read().decode()
    assert "Traceback" not in log
    assert ("before its hello" if gone == "stdin and stdout" else "did not say hello") in log
    assert not list((tmp_path / "rt").glob("*.sock"))


def test_a_host_whose_browser_closes_while_fronts_are_connected_ends_without_a_traceback(tmp_path):
    """The browser quits while sessions are connected: the host ends their connections as closed ones, with
    no CancelledError traceback in the browser's log (Python 3.11's streams print one for a connection
    handler that is still running when the host's event loop ends)."""
    runtime = tmp_path / "rt"
    host = subprocess.Popen(
        [sys.executable, "-m", "tabsight", "host", extension_origin()],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=front_env(TABSIGHT_RUNTIME_DIR=str(runtime)),
    )
    host.stdin.write(
        encode({"kind": "hello", "role": "extension", "version": __version__, "protocol": PROTOCOL_VERSION})
    )
    host.stdin.flush()
    path = runtime / f"host-{host.pid}.sock"
    deadline = time.monotonic() + 20
    while not path.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    fronts = []
    for number in range(3):
        front = socket.socket(socket.AF_UNIX)
        front.connect(str(path))
        front.sendall(
            encode(
                {
                    "kind": "hello",
                    "role": "front",
                    "version": __version__,
                    "protocol": PROTOCOL_VERSION,
                    "session": f"session-{number}",
                }
            )
        )
        fronts.append(front)
    time.sleep(0.3)  # greeted: each connection waits for its front's next request
    host.stdout.close()  # the browser quit: what the host still tells it (the sessions went) finds no reader
    host.stdin.close()
    try:
        assert host.wait(30) == 0
        log = host.stderr.read().decode()
        assert "Traceback" not in log, log
        assert "stopped: the browser closed the port" in log
    finally:
        for front in fronts:
            front.close()
