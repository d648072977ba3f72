"""Looking at the chain's processes from outside, through /proc (the suite and the benchmarks share it)."""

from __future__ import annotations

import os
import time
from pathlib import Path


def alive(pid: int) -> bool:
    """Running (a zombie waiting for its reaper does not count)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return "\nState:\tZ" not in status


def wait_until(predicate, timeout: float, interval: float = 0.1) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return predicate()


def descendants(pid: int) -> set[int]:
    """pid and every process below it."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(entry.name))
    found, todo = set(), [pid]
    while todo:
        current = todo.pop()
        found.add(current)
        todo += children.get(current, [])
    return found


def environ(pid: int) -> bytes:
    """The process's environment block (NUL-separated), or nothing if it cannot be read."""
    try:
        return Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return b""


def socket_inodes(pid: int) -> set[str]:
    inodes = set()
    try:
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            try:
                target = os.readlink(fd)
            except OSError:
                continue
            if target.startswith("socket:["):
                inodes.add(target[8:-1])
    except OSError:
        pass
    return inodes


def inet_listeners(pids: set[int]) -> list[str]:
    """TCP sockets in LISTEN state and unconnected UDP sockets owned by these processes, with their owner.

    A connected UDP socket (a DNS query's, say: it has a remote address)
    takes datagrams from that peer only: it is a client, not a listener.
    """
    owners = {inode: pid for pid in pids for inode in socket_inodes(pid)}
    found = []
    for table in ("tcp", "tcp6", "udp", "udp6"):
        lines = Path(f"/proc/net/{table}").read_text().splitlines()[1:]
        for line in lines:
            fields = line.split()
            local, remote, state, inode = fields[1], fields[2], fields[3], fields[9]
            unconnected = set(remote.split(":")[0]) == {"0"}
            listening = state == "0A" if table.startswith("tcp") else unconnected
            if listening and inode in owners:
                pid = owners[inode]
                found.append(f"{table} {local} inode {inode} of {pid} {' '.join(command_line(pid))[:100]}")
    return found


def _kb(path: str, field: str) -> int | None:
    """A ``Field:  N kB`` line of a /proc file, or None when the process is gone."""
    try:
        with open(path) as lines:
            return next(int(line.split()[1]) for line in lines if line.startswith(field))
    except (OSError, StopIteration):
        return None


def host_pids(runtime: Path) -> list[int]:
    """The pids of the hosts serving a runtime folder (each listens on host-PID.sock; a killed one's
    socket stays until a front prunes it)."""
    return sorted(int(path.stem.removeprefix("host-")) for path in runtime.glob("host-*.sock"))


def front_pids(runtime: Path | None = None) -> set[int]:
    """This process's descendants that run `tabsight mcp` (an SDK client starts one per connection);
    with ``runtime``, only those using that runtime folder."""
    marker = f"TABSIGHT_RUNTIME_DIR={runtime}".encode() if runtime else b""
    return {
        pid
        for pid in descendants(os.getpid())
        if command_line(pid)[1:4] == ["-m", "tabsight", "mcp"] and marker in environ(pid)
    }


def rss_kb(pid: int) -> int | None:
    """Resident set size in kB."""
    return _kb(f"/proc/{pid}/status", "VmRSS:")


def pss_kb(pid: int) -> int | None:
    """Proportional set size in kB (shared pages divided among their users)."""
    return _kb(f"/proc/{pid}/smaps_rollup", "Pss:")


def parent(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def command_line(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")
    except OSError:
        return []


def page_renderers(browser_pid: int) -> set[int]:
    """The renderer processes under a browser that draw web pages (an extension's and the browser's own WebUI's
    excepted). A renderer forked from the zygote names its flags in one string: they are looked for in it."""
    found = set()
    for pid in descendants(browser_pid):
        flags = " ".join(command_line(pid)).split()
        if "--type=renderer" in flags and not {"--extension-process", "--top-chrome-webui"} & set(flags):
            found.add(pid)
    return found
