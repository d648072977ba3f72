"""Removing an embedded browser's temporary profile once nothing of that browser can write to it.

Chromium's main process exits first; its helpers (zygote, network and
storage services) live on for up to two seconds more, and the network
service writes ``Default/Network Persistent State`` on its way out (measured
on Chromium 156: 1.4-1.9 s after the main process). A profile removed when
the main process ends comes back as a folder with that one file. The
embedded browser is started in a session of its own, so its process group
id is its pid: the profile goes once that group is empty.

``end_group`` does not wait for that wind-down: it ends what is left of the
group at once (``tabsight shot``, whose browser is of no use once its image
is written).
"""

from __future__ import annotations

import os
import shutil
import signal
import time
from pathlib import Path

#: how often the group is looked at while it winds down
POLL = 0.05


def running(pid: int) -> bool:
    """Whether process ``pid`` is running (someone else's counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process: alive
    return True


def group_alive(group: int) -> bool:
    """Whether a process of ``group`` other than this one is running."""
    if os.name != "posix":
        return False
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    if os.getpgrp() != group or not os.path.isdir("/proc"):
        return True
    # this process is in the group itself (a host the browser started): are there others?
    for entry in os.scandir("/proc"):
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                with open(f"/proc/{entry.name}/stat") as stat:
                    if int(stat.read().rsplit(")", 1)[1].split()[2]) == group:
                        return True
            except (OSError, IndexError, ValueError):
                continue
    return False


def remove_when_gone(profile: Path, group: int, timeout: float = 10.0) -> bool:
    """Wait (up to ``timeout``) for the browser's process group to end, then delete ``profile``; whether it is gone."""
    deadline = time.monotonic() + timeout
    while group_alive(group) and time.monotonic() < deadline:
        time.sleep(POLL)
    shutil.rmtree(profile, ignore_errors=True)
    return not profile.exists()


def end_group(group: int, timeout: float = 2.0) -> list[int]:
    """Kill what is left of a process group (SIGKILL) and wait, up to ``timeout``, until none of it runs; the
    pids it had. Linux only (``/proc``): elsewhere nothing is done, and nothing returned.

    Killed processes whose parent has gone wait to be reaped by the system's init, which may take a second or
    two (``group_alive`` still sees them): they run no more, which is all that matters here.
    """
    if not os.path.isdir("/proc"):
        return []
    members = group_members(group)
    try:
        os.killpg(group, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        return members
    deadline = time.monotonic() + timeout
    while group_members(group) and time.monotonic() < deadline:
        time.sleep(0.01)
    return members


def group_members(group: int) -> list[int]:
    """The processes of ``group`` that run (neither zombies nor gone), this one aside (Linux: ``/proc``)."""
    members = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                with open(f"/proc/{entry.name}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == group and fields[0] not in ("Z", "X"):
                members.append(int(entry.name))
    return members
