"""The runtime folder is its user's alone (issue 29, case 5): every folder from ``/`` down is the user's or root's
and writable by no one else, symlinks are not followed blindly, nothing that is not tabsight's own is chmod-ed, a
folder that fails says what is wrong and how to fix it, and the front checks the host's uid as the host checks the
front's. Real processes throughout: a real ``tabsight host`` (its extension's side a pipe of the test's), a real
``tabsight mcp`` through the SDK's client, and other users played by root's subprocesses (``os.setuid``) or by
folders chowned to nobody (uid 65534)."""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from conftest import front_env, mcp_client
from harness.calls import refusal
from tabsight import __version__
from tabsight.limits import PROTOCOL_VERSION
from tabsight.paths import extension_origin
from tabsight.protocol.framing import encode

pytestmark = [pytest.mark.anyio, pytest.mark.skipif(os.geteuid() != 0, reason="plays another user: needs root")]

NOBODY = 65534
#: the environment's say over where the runtime folder is, which a test of the default takes away
WHERE_VARIABLES = ("TABSIGHT_RUNTIME_DIR", "XDG_RUNTIME_DIR", "XDG_CACHE_HOME")


def environment(**extra: str) -> dict[str, str]:
    env = {name: value for name, value in front_env().items() if name not in WHERE_VARIABLES}
    env.update(extra)
    return env


def start_host(env: dict[str, str]) -> subprocess.Popen:
    """A real host, started as a browser starts it, its extension's hello given: it makes its socket."""
    host = subprocess.Popen(
        [sys.executable, "-m", "tabsight", "host", extension_origin()],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    host.stdin.write(
        encode({"kind": "hello", "role": "extension", "version": __version__, "protocol": PROTOCOL_VERSION})
    )
    host.stdin.flush()
    return host


def stop(host: subprocess.Popen) -> str:
    """Ends a host as its browser would (its port closed); what it logged."""
    host.stdin.close()
    host.stdout.close()
    try:
        host.wait(20)
    except subprocess.TimeoutExpired:
        host.kill()
        host.wait()
    return host.stderr.read().decode()


def wait_for(check, seconds: float = 20.0):
    deadline = time.monotonic() + seconds
    while not (found := check()) and time.monotonic() < deadline:
        time.sleep(0.05)
    return found


def mode(path: Path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


FRONTS_HOSTS = """
import anyio, sys
from tabsight.browser.hosts import probe_hosts
from tabsight.paths import default_runtime_dir
print(default_runtime_dir())
print(*sorted(hello.pid for _, hello, _ in anyio.run(probe_hosts)))
"""


@pytest.fixture
def home():
    """A home folder with a short path (tmp_path's is too long for the socket path under its cache folder)."""
    folder = Path(tempfile.mkdtemp(prefix="home-"))
    yield folder
    shutil.rmtree(folder)


def test_without_xdg_runtime_dir_the_front_and_the_host_find_one_folder_of_the_users_own(home):
    """Before: /tmp/runtime-<uid>/tabsight, whose parent anyone could have made first. Now ~/.cache/tabsight/run,
    each folder made 0700; or /tmp/tabsight-<uid> where that path is too long for a socket."""
    env = environment(HOME=str(home))
    run = home / ".cache" / "tabsight" / "run"
    host = start_host(env)
    try:
        assert wait_for((run / f"host-{host.pid}.sock").exists), stop(host)
        assert [mode(folder) for folder in (home / ".cache", run.parent, run)] == [0o700, 0o700, 0o700]
        # a front, on its own, finds the same folder and that host in it
        front = subprocess.run(
            [sys.executable, "-c", FRONTS_HOSTS], env=env, capture_output=True, text=True, timeout=60
        )
        assert front.stdout.split("\n")[:2] == [str(run), str(host.pid)], front.stderr
    finally:
        log = stop(host)
    assert "Traceback" not in log, log

    deep = home / ("a-folder-name-this-long-leaves-no-room-for-a-socket-" * 2)
    chosen = subprocess.run(
        [sys.executable, "-c", "from tabsight.paths import default_runtime_dir as d; print(d())"],
        env=environment(HOME=str(deep)),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert chosen.stdout == f"/tmp/tabsight-{os.getuid()}\n", chosen.stderr


def another_users(tmp_path: Path, case: str) -> tuple[Path, Path | None, str]:
    """A runtime folder another user could change, as ``case`` says: (the folder named, a folder of the user's
    that must be left as it was or None, what the refusal says about it)."""
    if case == "in a folder of another user":
        theirs = tmp_path / "theirs"
        theirs.mkdir(mode=0o755)
        os.chown(theirs, NOBODY, NOBODY)
        return theirs / "rt", None, f"{theirs} belongs to nobody (uid {NOBODY}), not to you (uid 0)"
    if case == "in a folder anyone can write":
        shared = tmp_path / "shared"
        shared.mkdir()
        os.chmod(shared, 0o777)
        return shared / "rt", None, f"{shared} is writable by its group and others (mode 0777)"
    if case == "a symlink of another user to a folder of the user's":
        # the swap of the issue: another user's link, in a sticky folder where anyone may make one, to a
        # folder of the victim's that tabsight then chmod-ed 0700
        sticky = tmp_path / "sticky"
        sticky.mkdir()
        os.chmod(sticky, 0o1777)
        victims = tmp_path / "documents"
        victims.mkdir()
        os.chmod(victims, 0o755)
        link = sticky / "rt"
        link.symlink_to(victims)
        os.lchown(link, NOBODY, NOBODY)
        return link, victims, f"{link} is a symlink that belongs to nobody (uid {NOBODY})"
    assert case == "a folder of another user"
    theirs = tmp_path / "rt"
    theirs.mkdir(mode=0o700)
    os.chown(theirs, NOBODY, NOBODY)
    return theirs, None, f"{theirs} belongs to nobody (uid {NOBODY}), not to you (uid 0)"


@pytest.mark.parametrize(
    "case",
    [
        "in a folder of another user",
        "in a folder anyone can write",
        "a symlink of another user to a folder of the user's",
        "a folder of another user",
    ],
)
async def test_a_runtime_folder_another_user_could_change_is_refused_with_what_to_do(tmp_path, case):
    """Before: only the last folder's owner was looked at, through symlinks, and a loose one was chmod-ed
    (whoever's it was); a folder of another user's gave 'Internal error in observe: PermissionError'. Now
    the agent reads which folder is wrong, why and how to fix it; the host says the same in the browser's log."""
    runtime, victims, problem = another_users(tmp_path, case)
    env = front_env(TABSIGHT_RUNTIME_DIR=str(runtime), TABSIGHT_BROWSER="never")
    async with mcp_client(env) as client:
        message = refusal(await client.call_tool("observe", {"what": "tabs"}))
    assert message.startswith(f"The runtime folder {runtime} cannot be used: {problem}"), message
    assert re.search(r"[Cc]hange TABSIGHT_RUNTIME_DIR, which names it, to a folder only you can write\.$", message)
    assert "set TABSIGHT_RUNTIME_DIR" not in message  # it is set: the fix is elsewhere
    assert "Internal error" not in message and "PermissionError" not in message and "No browser" not in message

    host = start_host(env)
    assert host.wait(30) == 1
    log = stop(host)
    assert f"tabsight host: The runtime folder {runtime} cannot be used: {problem}" in log
    assert "Traceback" not in log, log

    if victims is not None:
        assert mode(victims) == 0o755 and not list(victims.iterdir())  # not chmod-ed, nothing made in it
    if case == "in a folder of another user":
        assert not runtime.exists()  # nothing made in another user's folder


FOREIGN_HOST = """
import os, socket, sys
path = os.path.join(sys.argv[1], f"host-{os.getpid()}.sock")
server = socket.socket(socket.AF_UNIX)
server.bind(path)
os.setgid(65534); os.setuid(65534)
server.listen(8)  # the credentials a connecting front sees are those of this call: nobody's
print("listening", flush=True)
while True:
    connection, _ = server.accept()
    while chunk := connection.recv(65536):
        print("received", len(chunk), "bytes", flush=True)
    connection.close()
"""


async def test_the_front_refuses_a_host_socket_another_user_serves(tmp_path):
    """Before: the front sent its hello (the session, the MCP client's name) to whoever listened on a socket in
    the runtime folder and took its answer as the host's. Now it checks the peer's uid (SO_PEERCRED) first, sends
    it nothing, and the agent reads why: not the generic 'No browser is connected'."""
    runtime = tmp_path / "rt"
    runtime.mkdir(mode=0o700)
    foreign = subprocess.Popen(
        [sys.executable, "-c", FOREIGN_HOST, str(runtime)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert foreign.stdout.readline() == "listening\n", foreign.stderr.read()
        socket_path = runtime / f"host-{foreign.pid}.sock"
        async with mcp_client(front_env(TABSIGHT_RUNTIME_DIR=str(runtime), TABSIGHT_BROWSER="never")) as client:
            message = refusal(await client.call_tool("observe", {"what": "tabs"}))
    finally:
        foreign.terminate()
        received, _ = foreign.communicate(timeout=10)
    assert message.startswith(
        f"{socket_path} is served by a process of uid {NOBODY}, not of yours (0): tabsight "
        "refused it and sent it nothing."
    ), message
    assert "No browser is connected" not in message
    assert received == "", received  # not a byte of the front's hello
    assert socket_path.exists()  # not the front's to remove: the user looks at it
