"""``python -m tabsight mcp`` spoken to in raw JSON-RPC lines over stdio, as any client would.

``RawServer`` starts the front as a subprocess (by default without a
browser: TABSIGHT_BROWSER=never) and reads its stdout and stderr in threads.
``request`` expects the very next line to be the answer; ``ask`` keeps what
comes in between (notifications, other answers) in ``others``. For protocol
2026-07-28, ``envelope`` is the ``_meta`` every request carries instead of
an ``initialize`` handshake.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time

TIMEOUT = 20
#: the protocol versions clients negotiate today
VERSIONS = ("2025-06-18", "2025-11-25", "2026-07-28")
MODERN = "2026-07-28"


def envelope(version: str = MODERN, capabilities: dict | None = None) -> dict:
    """The ``_meta`` a 2026-07-28 request carries: its protocol version, client info and capabilities."""
    return {
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "0"},
        "io.modelcontextprotocol/clientCapabilities": capabilities or {},
    }


class RawServer:
    """``tabsight mcp`` spoken to line by line."""

    def __init__(self, runtime_dir=None, env: dict[str, str] | None = None) -> None:
        if env is None:
            env = dict(os.environ, TABSIGHT_BROWSER="never", TABSIGHT_RUNTIME_DIR=str(runtime_dir))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tabsight", "mcp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
        self.answers: queue.Queue[bytes] = queue.Queue()
        self.stderr: list[str] = []
        threading.Thread(target=self._pump, args=(self.process.stdout, self.answers.put), daemon=True).start()
        threading.Thread(
            target=self._pump, args=(self.process.stderr, lambda line: self.stderr.append(line.decode())), daemon=True
        ).start()
        self.next_id = 1000
        #: messages ``ask`` read while waiting for its answer
        self.others: list[dict] = []
        #: the ``_meta`` of every request (2026-07-28), or None (the handshake era)
        self.envelope: dict | None = None

    @staticmethod
    def _pump(stream, put) -> None:
        for line in stream:
            put(line)

    def send(self, line: bytes) -> None:
        self.process.stdin.write(line + b"\n")
        self.process.stdin.flush()

    def send_json(self, message: dict) -> None:
        self.send(json.dumps(message).encode())

    def answer(self, timeout: float = TIMEOUT) -> dict:
        line = self.answers.get(timeout=timeout)
        return json.loads(line)  # every answer is UTF-8 JSON

    def request(self, method: str, params: dict | None = None) -> dict:
        """Sends a request; its answer must be the next line."""
        request_id = self.start(method, params)
        answer = self.answer()
        assert answer["id"] == request_id, answer
        return answer

    def start(self, method: str, params: dict | None = None) -> int:
        """Sends a request (with the envelope, when there is one) without waiting; its id."""
        self.next_id += 1
        if self.envelope is not None:
            params = {**(params or {}), "_meta": {**self.envelope, **(params or {}).get("_meta", {})}}
        self.send_json(
            {
                "jsonrpc": "2.0",
                "id": self.next_id,
                "method": method,
                **({"params": params} if params is not None else {}),
            }
        )
        return self.next_id

    def ask(self, method: str, params: dict | None = None, timeout: float = TIMEOUT) -> dict:
        """Sends a request and waits for its answer, keeping what comes before it in ``others``."""
        return self.wait_answer(self.start(method, params), timeout)

    def wait_answer(self, request_id: int, timeout: float = TIMEOUT) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            message = self.answer(max(0.01, deadline - time.monotonic()))
            if message.get("id") == request_id and ("result" in message or "error" in message):
                return message
            self.others.append(message)

    def wait_other(self, predicate, timeout: float = TIMEOUT) -> dict:
        """The first message (kept or still to come) that ``predicate`` accepts; it is taken out of ``others``."""
        deadline = time.monotonic() + timeout
        while True:
            for message in self.others:
                if predicate(message):
                    self.others.remove(message)
                    return message
            self.others.append(self.answer(max(0.01, deadline - time.monotonic())))

    def notify(self, method: str, params: dict | None = None) -> None:
        self.send_json({"jsonrpc": "2.0", "method": method, **({"params": params} if params is not None else {})})

    def open(self, version: str) -> dict:
        """Opens the session at ``version``: ``initialize`` (then ``notifications/initialized``) up to
        2025-11-25, ``server/discover`` with the envelope on 2026-07-28. The result."""
        if version == MODERN:
            self.envelope = envelope(version)
            answer = self.ask("server/discover")
        else:
            answer = self.ask(
                "initialize",
                {
                    "protocolVersion": version,
                    "capabilities": {},
                    "clientInfo": {"name": "raw", "version": "0"},
                },
            )
            self.notify("notifications/initialized")
        assert "result" in answer, answer
        return answer["result"]

    def send_marked(self, line: bytes) -> int:
        """Sends a line; returns where stderr stood, for stderr_line."""
        mark = len(self.stderr)
        self.send(line)
        return mark

    def stderr_line(self, *fragments: str, since: int = 0) -> str:
        """The stderr line (from ``since`` on) holding every fragment, waiting a little for it."""
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            for line in self.stderr[since:]:
                if all(fragment in line for fragment in fragments):
                    return line
            time.sleep(0.02)
        raise AssertionError(f"no stderr line with {fragments}: {''.join(self.stderr)[-2000:]}")

    def close(self) -> None:
        self.process.stdin.close()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)
