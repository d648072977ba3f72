"""A loopback HTTP server for the suite's pages (127.0.0.1 only, an ephemeral port).

Routes beyond the static files in pages/: ``/status/N`` answers status N,
``/slow?ms=N`` answers after N milliseconds.
"""

from __future__ import annotations

import threading
import time
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

PAGES = Path(__file__).parent / "pages"


class Handler(SimpleHTTPRequestHandler):
    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        if parts.path.startswith("/status/"):
            code = int(parts.path.rsplit("/", 1)[1])
            return self._html(code, f"<title>Status {code}</title><h1>{code}</h1>")
        if parts.path == "/slow":
            delay = int(parse_qs(parts.query).get("ms", ["3000"])[0]) / 1000
            time.sleep(delay)
            return self._html(200, "<title>Slow page</title><h1>finally</h1>")
        return super().do_GET()

    def _html(self, code: int, body: str) -> None:
        data = body.encode()
        self.send_response(code)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args) -> None:
        pass


class Site:
    def __init__(self) -> None:
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Handler, directory=str(PAGES)))
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def url(self, path: str) -> str:
        return self.base + path

    def __enter__(self) -> Site:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()
