"""What a run serves and starts: the local page and its HTTP server, a private workspace, and
`tabsight mcp` with its embedded headless Chromium as an MCP server."""

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

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

PAGE = (
    """<!doctype html><html><head><title>bench page</title></head>
<body style="font-family:sans-serif;background:linear-gradient(#fff,#9cf)">
<h1>Benchmark page</h1>"""
    + "".join(f"<p>Paragraph {i} with <a href='#{i}'>a link</a> and <button>button {i}</button></p>" for i in range(40))
    + "</body></html>"
)


def serve(directory: Path) -> ThreadingHTTPServer:
    """Serve PAGE as index.html on 127.0.0.1 (any free port) from a background thread."""
    (directory / "index.html").write_text(PAGE)
    return serve_folder(directory)


def serve_folder(directory: Path) -> ThreadingHTTPServer:
    """Serve the files of ``directory`` on 127.0.0.1 (any free port) from a background thread."""

    class QuietHandler(SimpleHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

    class QuietServer(ThreadingHTTPServer):
        def handle_error(self, request, client_address) -> None:
            pass  # a tab closed mid-response (a broken pipe) is the browser's business, not a bench failure

    server = QuietServer(("127.0.0.1", 0), partial(QuietHandler, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def workspace() -> tuple[Path, Path]:
    """A fresh folder for a run's pages and results, and in it a private (0700) runtime
    folder, so tabsight never meets the user's browsers."""
    workdir = Path(tempfile.mkdtemp(prefix="tabsight-bench-"))
    runtime = workdir / "runtime"
    runtime.mkdir(mode=0o700)
    return workdir, runtime


def tabsight_server(
    runtime: Path, chromium: str, linger: float | None = None, python: str = sys.executable
) -> StdioServerParameters:
    """`tabsight mcp` with its embedded headless Chromium; runtime is a private (0700) directory.
    linger: seconds the browser outlives its last client (TABSIGHT_EMBEDDED_LINGER, default 2).
    python: the interpreter that runs it, so the tabsight it imports (this one's by default)."""
    env = dict(os.environ, TABSIGHT_RUNTIME_DIR=str(runtime), TABSIGHT_CHROMIUM=chromium)
    if linger is not None:
        env["TABSIGHT_EMBEDDED_LINGER"] = str(linger)
    return StdioServerParameters(command=python, args=["-m", "tabsight", "mcp"], env=env)
