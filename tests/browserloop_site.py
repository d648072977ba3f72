"""The pages test_browserloop_parity.py captures: a loopback HTTP server of its own.

It binds 127.0.0.1 on an ephemeral port, but the tests address it as
``http://localhost:PORT`` (the host name BrowserLoop's tests use, and the
one cookies are set for). Every page is drawn with solid colours at known
places, ``margin: 0``, so that a test can check pixels and exact boxes at
device pixel ratio 1. Every request's path, query and headers are kept, so a
test can see which cookies the server received: give a page a ``t=<tag>``
query and look its requests up with ``Site.seen(path, tag)``.

Routes:

``/simple.html``
    A small page (420 x 320 of content): ``.container`` 400x300 at (20, 20)
    holding ``h1`` 360x50 at (40, 40), ``.test-element`` 300x100 at
    (40, 110) and ``#timestamp`` 120x24 at (40, 230) (page coordinates).
``/elements.html``
    ``#main-header`` 1000x80 at (20, 20), ``.content-box`` 500x200 at
    (20, 120), ``div[data-testid="content-section"]`` 300x150 at (540, 120),
    ``.small-element`` 80x30 at (20, 340), ``.large-element`` 900x300 at
    (20, 390), ``#below-fold`` 240x120 at (100, 1500); the page is 2000 px high.
``/formats.html``
    ``.content`` 360x340 at (20, 20) holding a red, a green and a blue
    200x100 block.
``/long-page.html?h=N``
    Exactly N px high (3000 by default): a red, a green and a blue band, a
    third of N each (the last one takes the rest).
``/auth-required.html?h=N``
    Rendered by the server: signed in (green) when the request carries a
    session cookie (one of ``SESSION_COOKIES``, non-empty), signed out (red)
    otherwise. ``#status`` is a 300x100 badge at (40, 40); the page is N px
    high (the viewport's height by default: 100vh).
``/script-auth.html``
    Decided by the page's script from ``document.cookie``: green when it holds
    ``session_id``, red otherwise; the script also reports what it saw to
    ``/report?cookie=...``.
``/multi-domain-auth.html?names=a,b,c``
    One 60 px stripe per name, top down: green when the request carried that
    cookie, red when it did not.
``/headers.html``
    A plain grey page: its requests are the header record.
``/hang.html``
    A page whose image never arrives: its load never finishes.
``/report``
    Answers 204 (the record is the point).
"""

from __future__ import annotations

import threading
from functools import partial
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlsplit

#: cookie names that sign /auth-required.html in
SESSION_COOKIES = ("session_id", "auth_token", "jwt_token", "PHPSESSID", "json_session", "test-session")

# colours the tests check, as (r, g, b)
GREY = (224, 224, 224)
SIGNED_IN = (0, 160, 0)
SIGNED_OUT = (200, 0, 0)
BADGE_IN = (0, 220, 0)
BADGE_OUT = (255, 90, 90)
PRESENT = (0, 180, 0)
ABSENT = (210, 0, 0)
RED = (220, 0, 0)
GREEN = (0, 170, 0)
BLUE = (0, 0, 220)


def css(color: tuple[int, int, int]) -> str:
    return "rgb({},{},{})".format(*color)


def box(tag: str, attrs: str, x: int, y: int, w: int, h: int, color, text: str = "") -> str:
    """An absolutely placed block of exactly w x h CSS px; its text sits small in its middle."""
    style = (
        f"position:absolute;left:{x}px;top:{y}px;width:{w}px;height:{h}px;margin:0;padding:0;"
        f"box-sizing:border-box;background:{css(color)};font:12px/1 sans-serif;color:#fff;"
        "display:flex;align-items:center;justify-content:center;overflow:hidden;border-radius:0"
    )
    return f"<{tag} {attrs} style='{style}'>{text}</{tag}>"


BASE = "<!doctype html><html><head><meta charset='utf-8'><title>{title}</title><style>html,body{{margin:0;padding:0}}body{{background:{bg}}}{style}</style></head><body>{body}</body></html>"


def page(title: str, body: str, bg=GREY, style: str = "") -> str:
    return BASE.format(title=title, bg=css(bg), style=style, body=body)


# element positions are relative to their positioned parent: the container's children are placed inside it
SIMPLE = page(
    "BrowserLoop parity: simple page",
    "<div class='container' style='position:absolute;left:20px;top:20px;width:400px;height:300px;"
    f"background:{css((30, 60, 150))}'>"
    + box("h1", "", 20, 20, 360, 50, (250, 150, 0), "A heading")
    + box("div", "class='test-element'", 20, 90, 300, 100, (0, 150, 130), "Test element")
    + box("span", "id='timestamp'", 20, 210, 120, 24, (190, 0, 190), "12:00")
    + "</div>",
)

ELEMENTS = page(
    "BrowserLoop parity: elements",
    "<div style='position:relative;height:2000px'>"
    + box("header", "id='main-header'", 20, 20, 1000, 80, (0, 90, 200), "Header")
    + box("div", "class='content-box'", 20, 120, 500, 200, (255, 255, 255))
    + box("div", "data-testid='content-section'", 540, 120, 300, 150, (120, 0, 160), "Section")
    + box("div", "class='small-element'", 20, 340, 80, 30, (230, 60, 40), "small")
    + box("div", "class='large-element'", 20, 390, 900, 300, (40, 170, 90), "large")
    + box("div", "id='below-fold'", 100, 1500, 240, 120, (240, 160, 20), "below the fold")
    + "</div>",
)

FORMATS = page(
    "BrowserLoop parity: formats",
    "<div class='content' style='position:absolute;left:20px;top:20px;width:360px;height:340px;"
    f"background:{css((40, 40, 40))}'>"
    + box("div", "", 20, 10, 200, 100, RED)
    + box("div", "", 20, 120, 200, 100, GREEN)
    + box("div", "", 20, 230, 200, 100, BLUE)
    + "</div>",
    bg=(250, 250, 210),
)


def long_page(height: int) -> str:
    third = height // 3
    bands = [(RED, third), (GREEN, third), (BLUE, height - 2 * third)]
    return page(
        f"BrowserLoop parity: {height} px",
        "".join(f"<div style='height:{h}px;background:{css(c)}'></div>" for c, h in bands),
    )


def auth_page(signed_in: bool, height: str) -> str:
    badge = box(
        "div",
        "id='status'",
        40,
        40,
        300,
        100,
        BADGE_IN if signed_in else BADGE_OUT,
        "Signed in" if signed_in else "Please sign in",
    )
    return page(
        "Welcome back" if signed_in else "Please sign in",
        f"<div style='position:relative;height:{height}'>{badge}</div>",
        bg=SIGNED_IN if signed_in else SIGNED_OUT,
    )


SCRIPT_AUTH = page(
    "BrowserLoop parity: signed in by script",
    "<script>"
    "var seen = document.cookie;"
    "var signedIn = seen.split('; ').some(function (c) { return c.indexOf('session_id=') === 0; });"
    f"document.body.style.background = signedIn ? '{css(SIGNED_IN)}' : '{css(SIGNED_OUT)}';"
    "fetch('/report?' + new URLSearchParams({t: new URLSearchParams(location.search).get('t') || '', cookie: seen}));"
    "</script>",
)


def stripes(names: list[str], cookies: dict[str, str]) -> str:
    return page(
        "BrowserLoop parity: multi-domain auth",
        "".join(
            f"<div data-cookie='{name}' style='height:60px;background:{css(PRESENT if name in cookies else ABSENT)}'>"
            "</div>"
            for name in names
        ),
    )


HANG = page(
    "BrowserLoop parity: never loads",
    "<img src='/never' width='10' height='10'>",
    bg=(255, 255, 0),
)


def parse_cookie_header(header: str) -> dict[str, str]:
    """``a=1; b=x=y`` -> {"a": "1", "b": "x=y"}: values kept exactly as sent (no unquoting)."""
    cookies = {}
    for part in header.split(";"):
        name, sep, value = part.strip().partition("=")
        if sep:
            cookies[name] = value
    return cookies


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def __init__(self, *args, site: Site, **kwargs) -> None:
        self.site = site
        super().__init__(*args, **kwargs)

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        query = {name: values[0] for name, values in parse_qs(parts.query, keep_blank_values=True).items()}
        headers = dict(self.headers.items())
        self.site.record(parts.path, query, headers)
        cookies = parse_cookie_header(headers.get("Cookie", ""))
        if parts.path == "/simple.html":
            return self._html(SIMPLE)
        if parts.path == "/elements.html":
            return self._html(ELEMENTS)
        if parts.path == "/formats.html":
            return self._html(FORMATS)
        if parts.path == "/long-page.html":
            return self._html(long_page(int(query.get("h", "3000"))))
        if parts.path == "/auth-required.html":
            signed_in = any(cookies.get(name) for name in SESSION_COOKIES)
            height = f"{int(query['h'])}px" if "h" in query else "100vh"
            return self._html(auth_page(signed_in, height))
        if parts.path == "/script-auth.html":
            return self._html(SCRIPT_AUTH)
        if parts.path == "/multi-domain-auth.html":
            names = [name for name in query.get("names", "").split(",") if name]
            return self._html(stripes(names, cookies))
        if parts.path == "/headers.html":
            return self._html(page("BrowserLoop parity: headers", ""))
        if parts.path == "/hang.html":
            return self._html(HANG)
        if parts.path == "/never":
            self.site.closing.wait(60)
            return self._send(404, b"", "text/plain")
        if parts.path == "/report":
            return self._send(204, b"", "text/plain")
        return self._send(404, b"Not Found", "text/plain")

    def _html(self, body: str) -> None:
        self._send(200, body.encode(), "text/html; charset=utf-8")

    def _send(self, code: int, data: bytes, content_type: str) -> None:
        self.send_response(code)
        self.send_header("Content-Type", content_type)
        self.send_header("Cache-Control", "no-store")
        if code != 204:
            self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if data:
            self.wfile.write(data)

    def log_message(self, *args) -> None:
        pass


class Site:
    """``with Site() as site: site.url("/simple.html", t="tag")`` -> ``http://localhost:PORT/simple.html?t=tag``."""

    def __init__(self) -> None:
        #: (path, query, headers) of every request, oldest first
        self.requests: list[tuple[str, dict[str, str], dict[str, str]]] = []
        self._lock = threading.Lock()
        self.closing = threading.Event()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Handler, site=self))
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def port(self) -> int:
        return self.server.server_address[1]

    def url(self, path: str, host: str = "localhost", **query: str) -> str:
        address = f"http://{host}:{self.port}{path}"
        return f"{address}?{urlencode(query)}" if query else address

    def record(self, path: str, query: dict[str, str], headers: dict[str, str]) -> None:
        with self._lock:
            self.requests.append((path, query, headers))

    def seen(self, path: str, tag: str | None = None) -> list[tuple[dict[str, str], dict[str, str]]]:
        """(query, headers) of the requests to ``path`` (with ``t=tag``, if given), oldest first."""
        with self._lock:
            return [(q, h) for p, q, h in self.requests if p == path and (tag is None or q.get("t") == tag)]

    def cookies_seen(self, path: str, tag: str) -> list[dict[str, str]]:
        """The cookies each request to ``path?t=tag`` carried, oldest first."""
        return [parse_cookie_header(headers.get("Cookie", "")) for _, headers in self.seen(path, tag)]

    def __enter__(self) -> Site:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.closing.set()
        self.server.shutdown()
        self.server.server_close()
