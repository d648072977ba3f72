"""Removing an embedded browser's temporary profile once nothing of that browser can write to it.

Chromium's main process exits first; its helpers (zygote, network and
storage services) live on for up to two seconds more, and the network
service writes ``Default/Network Persistent State`` on its way out (measured
on Chromium 156: 1.4-1.9 s after the main process). A profile removed when
the main process ends comes back as a folder with that one file. The
embedded browser is started in a session of its own, so its process group
id is its pid: the profile goes once that group is empty.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

#: how often the group is looked at while it winds down
POLL = 0.05


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
