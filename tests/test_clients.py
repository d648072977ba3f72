"""The MCP clients of docs/clients.md's snippets, run for real (issue 17).

Each test registers tabsight with a real client CLI from npm, in a home folder of its own (HOME
and the XDG folders in tmp_path: the user's configuration is never read or written), the way
docs/clients.md tells users to, and asserts what a user would look at:

- Claude Code: ``claude mcp add``, then ``claude mcp list`` and ``claude mcp get`` say Connected.
- Gemini CLI: ``gemini mcp add``; ``gemini mcp list`` says Disabled until the folder is trusted,
  then Connected.
- Codex: ``codex mcp add --env``, which writes ``[mcp_servers.tabsight.env]``; Codex passes a
  server only a short list of variables of its own, so ``TABSIGHT_*`` go there. Then
  ``codex app-server`` (its JSON-RPC on stdio, which needs no OpenAI login) starts a thread,
  lists tabsight's tools and calls two of them: the tabs of the suite's shared browser (the
  variable reached the server: it is the same browser), and a screenshot of a loopback page,
  as a PNG image block.
- The MCP Inspector's CLI: ``--method tools/list --strict`` reports no tool-schema portability
  problem (it exits 6 on an error) and lists the 5 tools.

None of them needs the network: the clients are installed by tests/clients/install.sh (npm,
cached per lockfile; installers/install.sh --test runs it). Without them these tests fail under
CI and are skipped elsewhere.
"""

from __future__ import annotations

import base64
import json
import os
import queue
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from harness.calls import region

pytestmark = pytest.mark.clients

CLIENTS = Path(__file__).parent / "clients"
BIN = CLIENTS / "node_modules" / ".bin"
CLIS = ("claude", "codex", "gemini", "mcp-inspector")
TOOLS = {"observe", "screenshot", "configure", "interact", "generate"}
#: the snippets' `tabsight mcp`, from the interpreter running the suite (its tabsight)
SERVER = [sys.executable, "-m", "tabsight", "mcp"]


def _missing() -> str | None:
    absent = [name for name in CLIS if not (BIN / name).exists()]
    if absent:
        return f"{BIN} lacks {', '.join(absent)}: run tests/clients/install.sh"
    return None


MISSING = _missing()
if MISSING and not os.environ.get("CI"):
    pytest.skip(MISSING, allow_module_level=True)


@pytest.fixture
def user(tmp_path):
    """A user of their own: a home folder and a project folder, the clients on PATH."""
    if MISSING:
        pytest.fail(f"the MCP clients are not installed (under CI they must be): {MISSING}")
    home, project = tmp_path / "home", tmp_path / "project"
    home.mkdir()
    project.mkdir()
    env = {
        name: value
        for name, value in os.environ.items()
        # a client's own configuration, wherever the running user keeps it, stays out
        if not name.startswith(("CLAUDE", "CODEX", "GEMINI", "XDG_", "ANTHROPIC", "OPENAI", "GOOGLE"))
    }
    env.update(
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / ".config"),
        XDG_CACHE_HOME=str(home / ".cache"),
        XDG_DATA_HOME=str(home / ".local" / "share"),
        XDG_STATE_HOME=str(home / ".local" / "state"),
        PATH=f"{BIN}{os.pathsep}{env.get('PATH', '')}",
        # no update checks, no telemetry: nothing here needs the network
        DISABLE_AUTOUPDATER="1",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
        NO_COLOR="1",
    )
    return User(home, project, env)


class User:
    def __init__(self, home: Path, project: Path, env: dict[str, str]) -> None:
        self.home, self.project, self.env = home, project, env

    def run(self, *args: str, timeout: float = 60) -> str:
        """Runs a client command in the project folder; its stdout and stderr together. A failure
        says which command and what it printed."""
        done = subprocess.run(args, cwd=self.project, env=self.env, capture_output=True, text=True, timeout=timeout)
        output = done.stdout + done.stderr
        assert done.returncode == 0, f"{' '.join(args)} exited {done.returncode}:\n{output}"
        return output


def line_of(output: str, server: str) -> str:
    lines = [line for line in output.splitlines() if server in line]
    assert lines, f"no line names {server}:\n{output}"
    return lines[0]


# -- Claude Code ------------------------------------------------------------------------------


def test_claude_code_lists_tabsight_as_connected(user):
    """The README's and docs/clients.md's `claude mcp add tabsight -- tabsight mcp`; list and get check the server."""
    user.run("claude", "mcp", "add", "tabsight", "--", *SERVER)
    # each starts the server and asks it; at once, since neither waits for the other
    with ThreadPoolExecutor(2) as pool:
        listing = pool.submit(user.run, "claude", "mcp", "list")
        getting = pool.submit(user.run, "claude", "mcp", "get", "tabsight")
        listed, got = listing.result(), getting.result()
    assert "Connected" in line_of(listed, "tabsight:"), listed
    assert "Status: ✔ Connected" in got and "Type: stdio" in got, got


# -- Gemini CLI -------------------------------------------------------------------------------


def test_gemini_cli_connects_once_the_folder_is_trusted(user):
    """`gemini mcp add` writes the project's .gemini/settings.json; in a folder the user has not
    trusted, Gemini CLI starts no stdio server (user-level ones neither): listed as Disabled.
    Trusted (what `/permissions trust` or the first-run prompt writes), it is Connected."""
    # `gemini mcp list` gives a server 5 s to start and answer, unless it has a timeout of its own
    # (which is also its tool calls' timeout): 600000 ms, the tool calls' default, said out loud,
    # so that a busy machine does not make a slow start look like a failure
    user.run("gemini", "mcp", "add", "--timeout", "600000", "tabsight", *SERVER)
    settings = json.loads((user.project / ".gemini" / "settings.json").read_text())
    assert settings["mcpServers"]["tabsight"] == {"command": SERVER[0], "args": SERVER[1:], "timeout": 600000}
    untrusted = user.run("gemini", "mcp", "list")
    assert "Disabled" in line_of(untrusted, "tabsight:"), untrusted
    (user.home / ".gemini" / "trustedFolders.json").write_text(json.dumps({str(user.project): "TRUST_FOLDER"}))
    trusted = user.run("gemini", "mcp", "list")
    assert "Connected" in line_of(trusted, "tabsight:"), trusted


# -- Codex ------------------------------------------------------------------------------------


class AppServer:
    """`codex app-server`: JSON-RPC, one message a line, on its stdin and stdout."""

    def __init__(self, user: User) -> None:
        self.process = subprocess.Popen(
            ["codex", "app-server"],
            cwd=user.project,
            env=user.env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        self.messages: queue.Queue[dict | None] = queue.Queue()
        self.seen: list[dict] = []
        self._next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.messages.put(json.loads(line))
        self.messages.put(None)

    def next(self, deadline: float) -> dict:
        try:
            message = self.messages.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise AssertionError(f"codex app-server said nothing more in time; so far: {self.seen[-5:]}") from None
        assert message is not None, f"codex app-server exited {self.process.wait()}; it said: {self.seen[-5:]}"
        self.seen.append(message)
        return message

    def notify(self, method: str, params: dict | None = None) -> None:
        self._send({"method": method, **({"params": params} if params is not None else {})})

    def request(self, method: str, params: dict, timeout: float = 30) -> dict:
        self._next_id += 1
        ident = self._next_id
        self._send({"id": ident, "method": method, "params": params})
        deadline = time.monotonic() + timeout
        while True:
            message = self.next(deadline)
            if message.get("id") == ident and "method" not in message:
                assert "error" not in message, f"{method}: {message['error']}"
                return message["result"]

    def wait_for(self, method: str, match, timeout: float = 30) -> dict:
        """The next notification ``method`` whose params ``match``; earlier messages included."""
        for message in self.seen:
            if message.get("method") == method and match(message["params"]):
                return message["params"]
        deadline = time.monotonic() + timeout
        while True:
            message = self.next(deadline)
            if message.get("method") == method and match(message["params"]):
                return message["params"]

    def _send(self, message: dict) -> None:
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()

    def close(self) -> None:
        self.process.stdin.close()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.mark.browser
def test_codex_passes_the_env_table_and_its_app_server_calls_tabsight(user, browser, site):
    """`codex mcp add NAME --env K=V -- cmd args` writes [mcp_servers.NAME.env]. The runtime folder
    of the suite's browser goes there (Codex would not pass it on from its own environment), so
    the server Codex starts finds that browser: observe's tabs name it. A screenshot through
    `mcpServer/tool/call` comes back as an image block holding a PNG of the page."""
    runtime = os.environ["TABSIGHT_RUNTIME_DIR"]
    user.run("codex", "mcp", "add", "tabsight", "--env", f"TABSIGHT_RUNTIME_DIR={runtime}", "--", *SERVER)
    config = (user.home / ".codex" / "config.toml").read_text()
    assert "[mcp_servers.tabsight.env]" in config and f'TABSIGHT_RUNTIME_DIR = "{runtime}"' in config, config

    codex = AppServer(user)
    try:
        codex.request("initialize", {"clientInfo": {"name": "tabsight-tests", "version": "0"}})
        codex.notify("initialized")
        thread = codex.request("thread/start", {"ephemeral": True, "cwd": str(user.project)})["thread"]["id"]
        started = codex.wait_for(
            "mcpServer/startupStatus/updated",
            lambda params: params["name"] == "tabsight" and params["status"] in ("ready", "failed"),
        )
        assert started["status"] == "ready", started

        (status,) = codex.request("mcpServerStatus/list", {"threadId": thread, "serverName": "tabsight"})["data"]
        assert set(status["tools"]) == TOOLS, status["tools"].keys()

        def call(tool: str, arguments: dict) -> dict:
            result = codex.request(
                "mcpServer/tool/call", {"server": "tabsight", "threadId": thread, "tool": tool, "arguments": arguments}
            )
            assert not result.get("isError"), result
            return result

        tabs = json.loads(region(call("observe", {"what": "tabs"})["content"][0]["text"]))
        # a server without the variable would have started an embedded browser of its own, elsewhere
        assert browser.client.id in [listed["browser"] for listed in tabs["browsers"]], tabs

        shot = call("screenshot", {"url": site.url("/index.html"), "width": 800, "height": 600, "format": "png"})
        (image,) = [block for block in shot["content"] if block["type"] == "image"]
        png = base64.b64decode(image["data"])
        assert image["mimeType"] == "image/png" and png.startswith(b"\x89PNG\r\n\x1a\n"), image["mimeType"]
        width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
        assert (width, height) == (800, 600)
    finally:
        codex.close()


# -- the MCP Inspector's CLI ------------------------------------------------------------------


def test_the_inspector_finds_no_schema_problem_in_strict_mode(user):
    """`mcp-inspector --cli <server> --method tools/list --strict` prints each tool-schema
    portability finding in full on stderr and exits 6 on an error; here it prints nothing."""
    done = subprocess.run(
        ["mcp-inspector", "--cli", *SERVER, "--method", "tools/list", "--strict", "--format", "json"],
        cwd=user.project,
        env=user.env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and not done.stderr.strip(), f"exit {done.returncode}:\n{done.stderr}"
    answer = json.loads(done.stdout)
    assert "schemaFindings" not in answer, answer["schemaFindings"]
    assert {tool["name"] for tool in answer["result"]["tools"]} == TOOLS
