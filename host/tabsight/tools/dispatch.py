"""Running a tool by name: validate, handle, build; every failure becomes words for the agent."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from ..errors import BrowserError, Code, ToolError
from ..paths import FolderError
from ..session.state import Session
from . import TOOLS
from .response import Response, refusal

if TYPE_CHECKING:
    import mcp_types as types

log = logging.getLogger("tabsight.front")


class ToolFailure(Exception):
    """A tool call that failed; its text is what the agent reads: the tool's prefix, the message, what to do
    about it, and its code when it has one."""

    def __init__(
        self, prefix: str, message: str, hint: str = "", code: Code | None = None, quotes_page: bool = False
    ) -> None:
        super().__init__(refusal(prefix, message, hint, code))
        self.prefix, self.message, self.hint, self.code = prefix, message, hint, code
        #: whether the message may quote a page: the browser's messages name elements and URLs
        self.quotes_page = quotes_page


async def run(session: Session, name: str, arguments: dict[str, Any] | None) -> Response:
    """The tool's response, filled by its handler and not yet laid out; ToolFailure when it failed."""
    tool = TOOLS.get(name)
    prefix = tool.error_prefix if tool else ""
    try:
        if tool is None:
            raise ToolError(f"Unknown tool {name!r}; tools: {', '.join(TOOLS)}")
        params = tool.parse(arguments)
        response = Response(tool.name, what=getattr(params, "what", None), quotes_pages=tool.quotes_pages)
        await tool.handle(session, params, response)
        return response
    except ToolError as exc:
        raise ToolFailure(prefix, str(exc), exc.hint, exc.code) from None
    except FolderError as exc:  # a folder refused says what is wrong with it and how to fix it
        raise ToolFailure(prefix, str(exc)) from None
    except BrowserError as exc:
        raise ToolFailure(prefix, exc.message, exc.hint, exc.code, quotes_page=True) from None
    except asyncio.CancelledError:
        raise
    except Exception as exc:  # a bug must not end the session: report it and go on
        log.exception("tool %s failed", name)
        raise ToolFailure("", f"Internal error in {name}: {type(exc).__name__}: {exc}") from None


async def call(session: Session, name: str, arguments: dict[str, Any] | None) -> types.CallToolResult:
    """The MCP result of a tool call: its answer, or an isError result; never an exception."""
    try:
        response = await run(session, name, arguments)
    except ToolFailure as exc:
        return Response.error(exc.prefix, exc.message, exc.hint, exc.code, exc.quotes_page)
    return await response.build(session)
