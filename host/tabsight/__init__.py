"""tabsight: eyes on a real browser for AI coding agents, over MCP."""

__version__ = "0.1.0"

#: Name under which the native-messaging host is registered with browsers.
NATIVE_HOST_NAME = "dev.tabsight.host"
