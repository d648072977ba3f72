"""Shared by the benchmarks: the local page and its server, percentiles, how each MCP server
is started, and how a failed call is reported."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from mcp.client.stdio import StdioServerParameters
from mcp_types import CallToolResult

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

PAGE = """<!doctype html><html><head><title>bench page</title></head>
<body style="font-family:sans-serif;background:linear-gradient(#fff,#9cf)">
<h1>Benchmark page</h1>""" + "".join(f"<p>Paragraph {i} with <a href='#{i}'>a link</a> and <button>button {i}</button></p>" for i in range(40)) + "</body></html>"


def serve(directory: Path) -> ThreadingHTTPServer:
    """Serve PAGE as index.html on 127.0.0.1 (any free port) from a background thread."""
    (directory / "index.html").write_text(PAGE)
    class QuietHandler(SimpleHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(QuietHandler, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def workspace() -> tuple[Path, Path]:
    """A fresh folder for a run's pages and results, and in it a private (0700) runtime
    folder, so tabsight never meets the user's browsers."""
    workdir = Path(tempfile.mkdtemp(prefix="tabsight-bench-"))
    runtime = workdir / "runtime"
    runtime.mkdir(mode=0o700)
    return workdir, runtime


def use_in_process(runtime: Path, chromium: str) -> None:
    """For a bench that also opens links in-process: they read these from the environment,
    and `tabsight mcp` then gets the same."""
    os.environ["TABSIGHT_RUNTIME_DIR"] = str(runtime)
    os.environ["TABSIGHT_CHROMIUM"] = chromium
    os.environ.pop("TABSIGHT_BROWSER", None)


def tabsight_server(runtime: Path, chromium: str) -> StdioServerParameters:
    """`tabsight mcp` with its embedded headless Chromium; runtime is a private (0700) directory."""
    env = dict(os.environ, TABSIGHT_RUNTIME_DIR=str(runtime), TABSIGHT_CHROMIUM=chromium)
    return StdioServerParameters(command=sys.executable, args=["-m", "tabsight", "mcp"], env=env)


def playwright_server(cli: str, chromium: str, output_dir: Path) -> StdioServerParameters:
    """`@playwright/mcp` on the same Chromium: headless, fresh profile, 1280x720 viewport."""
    return StdioServerParameters(
        command="node",
        args=[cli, "--headless", "--executable-path", chromium, "--no-sandbox",
              "--isolated", "--viewport-size", "1280x720", "--output-dir", str(output_dir)],
    )


class Failed(Exception):
    """A call or sample that errored or whose answer was not what the bench expects."""


def describe(error: BaseException) -> str:
    """An error as the table reports it (the first of an ExceptionGroup from the client's task group)."""
    while getattr(error, "exceptions", None):
        error = error.exceptions[0]
    return str(error) if isinstance(error, Failed) else f"{type(error).__name__}: {error}"


def text_of(result: CallToolResult) -> str:
    """The text blocks of a tool result, one per line."""
    return "\n".join(block.text for block in result.content if block.type == "text")
