"""One MCP client's session, without MCP: its browser, labels, screenshots, alerts and settings.

Tools read and change this state; the MCP layer (``tabsight.server``) owns
the client connection and gives the alert stream somewhere to send.
"""

from __future__ import annotations

import uuid
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from .. import bounded, vision
from ..browser.client import BrowserClient
from ..browser.connection import BrowserConnection
from ..errors import Code, ToolError
from .autoshot import AutoScreenshots
from .streaming import AlertInbox, Streamer

#: saved baselines kept per session (the oldest go first)
MAX_BASELINES = 20


@dataclass(frozen=True)
class Annotation:
    """The latest annotated screenshot of this session: what its labels point at."""

    browser: str
    tab_id: int
    document: str
    url: str
    selectors: list[str]
    #: the page's id of this annotation: with a number, it names the element that number marked
    id: str
    #: how its elements were found (observe's annotation_target, annotation_selector, max_annotations): an
    #: action's answer finds them so again to tell what changed
    target: str = "interactive"
    custom_selector: str | None = None
    limit: int = 50
    #: the form the agent was shown it in (observe's annotation_format): a look in another form is no repeat
    form: str = "json"

    def place(self, number: int, selector: str) -> None:
        """Label ``number`` (a new one, or one back in view) names the element of ``selector``."""
        if number > len(self.selectors):
            self.selectors.extend([""] * (number - len(self.selectors)))
        if not self.selectors[number - 1]:
            self.selectors[number - 1] = selector


@dataclass(frozen=True)
class Label:
    number: int
    annotation: Annotation

    @property
    def selector(self) -> str:
        return self.annotation.selectors[self.number - 1]


class Labels:
    """The numbers of the latest annotation, and the elements they stand for."""

    def __init__(self) -> None:
        self.annotation: Annotation | None = None

    def remember(
        self,
        client: BrowserClient,
        tab_id: int,
        page: dict[str, Any],
        selectors: list[str],
        annotation_id: str,
        found_by: tuple[str, str | None, int] = ("interactive", None, 50),
        form: str = "json",
    ) -> None:
        """A new annotation, or the same one again (a look that found the page unchanged)."""
        self.annotation = Annotation(
            client.id, tab_id, page["document"], page["url"], selectors, annotation_id, *found_by, form
        )

    def get(self, number: int) -> Label:
        """Label ``number`` of the latest annotation; else a label is stale, as one from an annotation before
        it (or from before the session began) is, and its refusal's hint says how to get a fresh one."""
        if self.annotation is None:
            raise ToolError("No annotation in this session yet: no label stands for an element.", Code.STALE_LABEL)
        if not 1 <= number <= len(self.annotation.selectors):
            raise ToolError(
                f"label {number} is not in the latest annotation, which has labels 1 to "
                f"{len(self.annotation.selectors)}."
                if self.annotation.selectors
                else "The latest annotation has no labels (nothing interactive was in view).",
                Code.STALE_LABEL,
            )
        return Label(number, self.annotation)

    def by_selector(self, selector: str, browser: str, tab_id: int) -> Label | None:
        """The label of the latest annotation whose selector ``selector`` is, on that browser's tab ``tab_id``:
        a selector taken from an annotation stands for the element it marked, as the label does."""
        annotation = self.annotation
        if annotation is None or (annotation.browser, annotation.tab_id) != (browser, tab_id):
            return None
        if selector not in annotation.selectors:
            return None
        return Label(annotation.selectors.index(selector) + 1, annotation)


class Screenshots:
    """What visual diffs compare against: the latest screenshot of the tracked tab, and named baselines;
    and the viewport each tab had in the latest screenshot of it, which a point taken from it refers to."""

    def __init__(self) -> None:
        #: the latest screenshot any answer of this session carried (visual_diff's default baseline)
        self.last: bytes | None = None
        self.baselines: OrderedDict[str, bytes] = OrderedDict()
        #: (browser id, tab id) -> {width, height} of the latest viewport screenshot of that tab
        self._viewports: dict[tuple[str, int], dict[str, int]] = {}

    def saw_viewport(self, browser: str, tab_id: int, viewport: dict[str, Any] | None) -> None:
        """A screenshot of the tab's viewport went to the agent: points it takes from it mean this viewport."""
        if viewport:
            self._viewports[(browser, tab_id)] = {"width": viewport["width"], "height": viewport["height"]}

    def viewport_of(self, browser: str, tab_id: int) -> dict[str, int] | None:
        return self._viewports.get((browser, tab_id))

    def remember(self, data: bytes) -> None:
        self.last = data

    def save_baseline(self, name: str, data: bytes) -> None:
        self.baselines[name] = data
        self.baselines.move_to_end(name)
        while len(self.baselines) > MAX_BASELINES:
            self.baselines.popitem(last=False)


class Session:
    def __init__(self, browsers: BrowserConnection | None = None) -> None:
        self.id = uuid.uuid4().hex[:8]
        self.browsers = browsers or BrowserConnection(self.id)
        self.browsers.on_event = self._on_browser_event
        self.labels = Labels()
        self.screenshots = Screenshots()
        #: alerts for the next observe answer (the passive path)
        self.inbox = AlertInbox()
        #: alerts pushed as they happen (the opt-in path)
        self.stream = Streamer()
        self.autoshots = AutoScreenshots()
        #: the most characters of text one answer carries (configure answers)
        self.answer_chars = bounded.ANSWER_CHARS
        #: what the MCP client's model keeps of an image (from initialize's clientInfo: server/app.py)
        self.vision = vision.DEFAULT

    def _on_browser_event(self, event: str, data: dict[str, Any]) -> None:
        if event == "alert":
            self.inbox.add(data)
            self.stream.offer(data)

    async def aclose(self) -> None:
        await self.stream.aclose()
        await self.browsers.aclose()
