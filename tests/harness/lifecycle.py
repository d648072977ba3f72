"""`tabsight mcp` as a client starts and stops it: raw JSON-RPC lines over pipes, then stdin closed or a signal,
and what the run leaves behind (tests/test_lifecycle.py and bench/lifecycle_bench.py share it).

Each front gets a private temp folder (TMPDIR, short: Chromium's singleton socket goes under it) and a private
runtime folder, so that whatever it or its browser leaves can be seen, and nothing of anyone else's is.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from .processes import descendants, environ, wait_until

#: how a front is stopped: its stdin closed, or one of these signals
STOPS = {"stdin": None, "SIGINT": signal.SIGINT, "SIGTERM": signal.SIGTERM}
#: the exit code of each way of stopping
EXIT_CODES = {"stdin": 0, "SIGINT": 128 + signal.SIGINT, "SIGTERM": 128 + signal.SIGTERM}
#: seconds the embedded browser outlives its last front (TABSIGHT_EMBEDDED_LINGER) in these runs
LINGER = 0.5
ANSWER_TIMEOUT = 60.0


class RawFront:
    """One `python -m tabsight mcp`, initialized, spoken to line by line."""

    def __init__(self, **env: str) -> None:
        # a short path of its own in /tmp: the browser's temp folder (TMPDIR) is made inside its profile there
        self.folder = Path(tempfile.mkdtemp(prefix="tsl-", dir="/tmp"))
        self.temp = self.folder / "t"
        self.runtime = self.folder / "rt"
        self.temp.mkdir()
        self.runtime.mkdir(mode=0o700)
        environment = dict(
            os.environ,
            TMPDIR=str(self.temp),
            TABSIGHT_RUNTIME_DIR=str(self.runtime),
            TABSIGHT_EMBEDDED_LINGER=str(LINGER),
        )
        environment.pop("TABSIGHT_BROWSER", None)
        environment.update(env)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tabsight", "mcp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=environment,
        )
        self.answers: queue.Queue[dict] = queue.Queue()
        self.stderr: list[str] = []
        threading.Thread(target=self._answers, daemon=True).start()
        threading.Thread(target=self._errors, daemon=True).start()
        self._ids = 0

    def _answers(self) -> None:
        for line in self.process.stdout:
            self.answers.put(json.loads(line))

    def _errors(self) -> None:
        for line in self.process.stderr:
            self.stderr.append(line.decode(errors="replace"))

    def send(self, message: dict) -> None:
        self.process.stdin.write(json.dumps({"jsonrpc": "2.0", **message}).encode() + b"\n")
        self.process.stdin.flush()

    def request(self, method: str, params: dict) -> int:
        """Sends a request; its id."""
        self._ids += 1
        self.send({"id": self._ids, "method": method, "params": params})
        return self._ids

    def answer(self, request_id: int, timeout: float = ANSWER_TIMEOUT) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            answer = self.answers.get(timeout=max(0.0, deadline - time.monotonic()))
            if answer.get("id") == request_id:
                return answer

    def initialize(self) -> RawFront:
        request = self.request(
            "initialize",
            {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "lifecycle", "version": "0"}},
        )
        assert self.answer(request)["result"]["serverInfo"]["name"] == "tabsight"
        self.send({"method": "notifications/initialized"})
        return self

    def serving(self) -> RawFront:
        """Once the SDK's server serves (the opening is answered before it is loaded): a tools/list answered."""
        assert self.answer(self.request("tools/list", {}))["result"]["tools"]
        return self

    def call(self, name: str, arguments: dict) -> int:
        """Sends a tools/call; its id."""
        return self.request("tools/call", {"name": name, "arguments": arguments})

    def start_browser(self) -> RawFront:
        """One tool call, which starts the embedded browser (there is none in this runtime folder)."""
        answer = self.answer(self.call("observe", {"what": "tabs"}))
        assert not answer["result"].get("isError"), answer
        assert list(self.runtime.glob("host-*.sock")), "no host came up"
        return self

    def stop(self, how: str, timeout: float = 15.0) -> float:
        """Closes stdin or sends the signal (``how``, one of STOPS); the seconds until the process exited (at
        least ``timeout`` if it did not: it is then killed)."""
        started = time.monotonic()
        if STOPS[how] is None:
            self.process.stdin.close()
        else:
            self.process.send_signal(STOPS[how])
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        return time.monotonic() - started

    def log(self) -> str:
        """What it wrote on stderr (once it has exited, all of it)."""
        time.sleep(0.05)  # the reader thread drains the pipe's last lines
        return "".join(self.stderr)

    # -- what is left ----------------------------------------------------------------

    def chain(self) -> list[int]:
        """The processes of this run still running: its browser and host (they carry its runtime folder)."""
        marker = f"TABSIGHT_RUNTIME_DIR={self.runtime}\0".encode()
        return [pid for pid in descendants(1) if marker in environ(pid)]

    def left(self, timeout: float = 20.0) -> tuple[list[int], list[str], list[str]]:
        """Once the browser has gone (waiting up to ``timeout``): the processes still running, and what is left in
        the temp folder and in the runtime folder."""
        wait_until(lambda: not self.chain() and not any(self.temp.iterdir()), timeout)
        return self.chain(), sorted(p.name for p in self.temp.iterdir()), sorted(p.name for p in self.runtime.iterdir())

    def close(self) -> None:
        """Ends whatever is still running of this run, and removes its folders."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        for pid in self.chain():
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        shutil.rmtree(self.folder, ignore_errors=True)
