"""interact's upload: files from the allowed folders set on a file input, or on the chooser a click opens."""

from __future__ import annotations

from ... import uploads
from ...session.state import Session
from ..modes import Mode
from ..response import Response
from .params import InteractParams
from .targets import on_element, target


async def upload(session: Session, params: InteractParams, response: Response) -> None:
    """The files checked here (``tabsight.uploads``: refused before anything reaches the browser), then set by the
    extension on the target's file input or on the chooser a click on the target opens. The answer: each file set
    (name, size when checked, path) and what the page's input holds then (``input_files``, read back in the page).
    Only the files' paths are sent: the browser reads them, tabsight does not; to a browser reached through a forward,
    whose machine has other files at those paths, their bytes are sent instead (``BrowserClient.act``)."""
    files = uploads.checked(params.files or [])
    result = await on_element(session, "upload", target(params), params.tab_id, files=[file.path for file in files])
    response.result = {
        "action": "upload",
        **result,
        "files": [{"name": file.name, "size": file.size, "path": file.path} for file in files],
    }


MODES = (
    Mode(
        "upload",
        "files into the target's file input or chooser.",
        upload,
        detail="Set on the target if it is an <input type=file> (hidden ones too) or its <label>; any other target is "
        "clicked and the files go to the file chooser that click opens (a button or drop zone that opens a hidden "
        "input); the answer names the files set and what the input holds then.",
        acts=True,
        needs=("target", "files"),
        fields={"target": "", "files": "", "tab_id": ""},
    ),
)
