"""A browser without Chromium, for unit tests of tool handlers.

``FakeBrowser`` stands where a ``HostLink`` to a running host stands: the
real ``BrowserConnection`` finds it (through its ``discover`` seam), and the
real ``BrowserClient`` sends it the real wire methods. It answers from a small
model of a browser (tabs, a page, its elements) that a test sets up, records
every request, and can be told to fail a method with a wire error code.
End-to-end tests drive the real chain instead; these only check what the
Python side makes of the browser's answers.
"""

from __future__ import annotations

import base64
import io
from pathlib import Path
from typing import Any

from PIL import Image

from tabsight import __version__
from tabsight.browser.connection import BrowserConnection
from tabsight.errors import BrowserError, Code
from tabsight.protocol import frames
from tabsight.session.state import Session

FORMATS = {"png": "PNG", "jpeg": "JPEG", "webp": "WEBP"}


def encoded(width: int, height: int, fmt: str = "png", color=(200, 220, 240)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), color).save(out, FORMATS[fmt])
    return out.getvalue()


class FakeBrowser:
    """One browser profile's host, faked: the transport interface of ``HostLink``."""

    def __init__(self, host_id: str = "fake-host", profile_id: str = "profile-1", viewport=(1280, 720)) -> None:
        self.hello = frames.Hello(
            role="host",
            version=__version__,
            host_id=host_id,
            pid=4242,
            extension=frames.ExtensionInfo(
                version=__version__,
                profile_id=profile_id,
                browser=frames.BrowserInfo(name="FakeChromium", version="156", user_agent="FakeAgent/1.0"),
            ),
        )
        self.path = Path(f"/nonexistent/{host_id}.sock")
        self.forwarded = False
        self.alive = True
        self.on_event = None
        self.viewport = {"width": viewport[0], "height": viewport[1]}
        self.tabs = [{"id": 7, "title": "Fake page", "url": "http://127.0.0.1/fake", "active": True}]
        self.focused = 7
        self.color = (200, 220, 240)
        self.elements: list[dict[str, Any]] = []
        #: elements.find's outside_viewport, when set
        self.outside_viewport: dict[str, Any] | None = None
        #: element.act's followed (what the action made of its target), when set
        self.followed: dict[str, Any] | None = None
        #: page.outline's answer, before its budget: {text, above?, below?, partial?}
        self.outline: dict[str, Any] = {"text": ""}
        self.document = "doc-1"
        self.telemetry: dict[str, list[dict[str, Any]]] = {}
        self.dialog_policies: dict[int, str] = {}
        #: method -> (code, message): that method fails so
        self.failures: dict[str, tuple[Code, str]] = {}
        self.requests: list[tuple[str, dict[str, Any]]] = []
        #: the id of the tab opened last (tab.open)
        self.last_opened = 0

    @property
    def profile_id(self) -> str:
        return self.hello.extension.profile_id

    async def close(self) -> None:
        """A front closing its link leaves the host running, as a real one does; ``alive = False`` is a crash."""

    def emit(self, event: str, data: dict[str, Any]) -> None:
        """An event from the host, as an alert arrives."""
        if self.on_event:
            self.on_event(event, data)

    def methods(self, name: str) -> list[dict[str, Any]]:
        """The parameters of every request for ``name``, in order."""
        return [params for method, params in self.requests if method == name]

    async def request(self, method: str, params: dict[str, Any] | None = None, timeout: float = 30.0) -> dict[str, Any]:
        params = params or {}
        self.requests.append((method, params))
        if method in self.failures:
            raise BrowserError(*self.failures[method])
        return getattr(self, "_" + method.replace(".", "_"))(params)

    # -- the wire methods ------------------------------------------------------

    def _tabs_list(self, params):
        return {"tabs": self.tabs, "focused_tab_id": self.focused}

    def _capture(self, params):
        self._tab(params["tab_id"])
        width, height = self.viewport["width"], self.viewport["height"]
        data = encoded(width, height, params["format"], self.color)
        tile = {"data": base64.b64encode(data).decode(), "x": 0, "y": 0, "width": width, "height": height}
        return {"tiles": [tile], "url": self._tab(params["tab_id"])["url"], "viewport": self.viewport, "method": "cdp"}

    def _capture_url(self, params):
        width, height = params["width"], params["height"]
        data = encoded(width, height, params["format"], self.color)
        tile = {"data": base64.b64encode(data).decode(), "x": 0, "y": 0, "width": width, "height": height}
        return {"tiles": [tile], "url": params["url"], "viewport": {"width": width, "height": height}, "status": 200}

    def _page_info(self, params):
        tab = self._tab(params["tab_id"])
        return {"url": tab["url"], "title": tab["title"], "viewport": self.viewport, "ready_state": "complete"}

    def _elements_find(self, params):
        tab = self._tab(params["tab_id"])
        page = {
            "url": tab["url"],
            "title": tab["title"],
            "viewport": self.viewport,
            "ready_state": "complete",
            "document": self.document,
        }
        found = {
            "page": page,
            "annotation": f"annotation-{len(self.requests)}",
            "elements": self.elements[: params["max"]],
            "total_found": len(self.elements),
        }
        if self.outside_viewport is not None:
            found["outside_viewport"] = self.outside_viewport
        return found

    def _page_outline(self, params):
        self._tab(params["tab_id"])
        text = self.outline["text"]
        budget = params["max_chars"]
        return {
            "cut": max(0, len(text) - budget),
            "above": 0,
            "below": 0,
            "partial": False,
            **self.outline,
            "text": text[:budget],
        }

    def _element_act(self, params):
        if params.get("document") not in (None, self.document):
            raise BrowserError(Code.STALE_LABEL, "the page has changed since the annotation")
        tab = self._tab(params["tab_id"])
        return {
            "did": f"{params['action']} {params.get('selector') or 'point'}",
            "url": tab["url"],
            "title": tab["title"],
            "navigated": False,
            **({"followed": self.followed} if self.followed else {}),
        }

    def _tab_open(self, params):
        """A new tab (the embedded browser opens one for each session): ``url`` loaded, or about:blank."""
        # (never the id of a tab closed before)
        self.last_opened = max(100 + len(self.tabs), self.last_opened + 1)
        tab = {"id": self.last_opened, "title": "", "url": params.get("url", "about:blank"), "active": False}
        self.tabs.append(tab)
        return {"tab_id": tab["id"], "url": tab["url"], "title": "", "status": None}

    def _tab_close(self, params):
        tab = self._tab(params["tab_id"])
        self.tabs.remove(tab)
        return {"closed": tab["id"], "url": tab["url"], "title": tab["title"]}

    def _tab_navigate(self, params):
        tab = self._tab(params["tab_id"])
        tab["url"] = params["url"]
        self.document = f"doc-{len(self.requests)}"
        return {"url": tab["url"], "title": tab["title"], "status": 200}

    def _page_wait_for(self, params):
        return {"found": True, "waited_ms": 0}

    def _page_execute(self, params):
        steps = []
        for step in params["cdp"]:
            if step["method"] == "Page.captureScreenshot":
                fmt = step["params"].get("format", "png")
                data = base64.b64encode(encoded(320, 200, fmt, self.color)).decode()
                steps.append({"method": step["method"], "result": {"data": data}})
            else:
                steps.append({"method": step["method"], "result": {}})
        return {"script": {"value": None} if params["script"] else None, "cdp": steps}

    def _telemetry_query(self, params):
        items = self.telemetry.get(params["what"], [])[-params["limit"] :]
        return {"items": items, "cursor": len(items)}

    def _window_set_viewport(self, params):
        return {}

    def _emulation_set(self, params):
        self._tab(params["tab_id"])
        changes = {name: value for name, value in params.items() if name != "tab_id"}
        return {"emulation": None if changes == {"reset": True} else {**changes, "in_effect": True}}

    def _dialog_policy(self, params):
        self.dialog_policies[params["tab_id"]] = params["policy"]
        return {"policy": params["policy"]}

    def _dialog_answer(self, params):
        raise BrowserError(Code.NO_DIALOG, f"No dialog is open on tab {params['tab_id']}.")

    def _tab(self, tab_id: int) -> dict[str, Any]:
        for tab in self.tabs:
            if tab["id"] == tab_id:
                return tab
        raise BrowserError(Code.NO_TAB, f"No tab with id {tab_id}")


def fake_session(*browsers: FakeBrowser) -> Session:
    """A session whose browser connection finds exactly these fake browsers (the first is chosen)."""
    browsers = browsers or (FakeBrowser(),)

    async def discover(session: str, timeout: float = 1.0, skip=frozenset(), client: str = ""):
        return [browser for browser in browsers if browser.alive and browser.path not in skip]

    return Session(BrowserConnection("unit", mode="never", discover=discover))
