"""Embedded browsers' temporary profiles left behind when everything that knew them was killed."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile

from tabsight.browser.embedded import PROFILE_PREFIX, sweep_stale_profiles


def test_profiles_of_gone_browsers_are_swept_and_others_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead_pid = int(gone.stdout)
    me = socket.gethostname()

    def profile(name: str, lock: str | None, age: float) -> os.PathLike:
        path = tmp_path / f"{PROFILE_PREFIX}{name}"
        (path / "Default").mkdir(parents=True)
        if lock is not None:
            os.symlink(lock, path / "SingletonLock")
        os.utime(path, (os.stat(path).st_atime, os.stat(path).st_mtime - age))
        return path

    killed = profile("killed", f"{me}-{dead_pid}", age=600)
    never_started = profile("never-started", None, age=600)
    running = profile("running", f"{me}-{os.getpid()}", age=600)
    starting = profile("starting", None, age=1)  # another front is launching into it right now
    elsewhere = profile("elsewhere", f"another-machine-{dead_pid}", age=600)
    unrelated = tmp_path / "someone-elses-folder"
    unrelated.mkdir()

    assert sorted(sweep_stale_profiles()) == sorted([killed, never_started])
    assert not killed.exists() and not never_started.exists()
    assert running.exists() and starting.exists() and elsewhere.exists() and unrelated.exists()
