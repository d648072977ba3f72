"""interact: act on the tracked tab as a user would, and say what changed.

One module per family of actions, each a tuple of rows (``tabsight.tools.modes.Mode``) with their handlers beside
them: navigation (and history, tabs, wait_for), pointer, fields (and keys), upload, execute, dialogs. A new action
is a row and a handler in its family (and, for an input action, a handler in the extension's act family); the
flat arguments all actions share are ``params.InteractParams``.

Targets: ``label`` (a number from this session's latest annotated screenshot), ``selector`` (CSS; ``host >>>
inner`` crosses an open shadow root or a same-origin iframe, as annotation selectors do), or ``x``/``y`` (CSS
pixels of the viewport). Pointer and keys are real input events (trusted, at real coordinates), dispatched
through the debugger.
"""

from __future__ import annotations

from ..base import Tool
from . import dialogs, execute, fields, navigation, pointer, upload
from .params import InteractParams

TOOL = Tool(
    name="interact",
    description="Act on the tracked tab as a user would; the answer says what changed. Targets: a label (observe's "
    "annotated screenshot), CSS selector, or x, y in CSS px.",
    detail="What changed: the URL, the title, the DOM, the dialogs answered.",
    params=InteractParams,
    modes=(*navigation.MODES, *pointer.MODES, *upload.MODES, *fields.MODES, *execute.MODES, *dialogs.MODES),
)
