"""The MCP tool surface (docs/design.md §3): one module per tool, dispatched by ``tools.dispatch``."""

from . import configure, generate, interact, observe, screenshot
from .base import Tool

TOOLS: dict[str, Tool] = {
    t.name: t for t in (observe.TOOL, screenshot.TOOL, configure.TOOL, interact.TOOL, generate.TOOL)
}
