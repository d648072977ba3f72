"""tabsight: eyes on a real browser for AI coding agents, over MCP."""

__version__ = "0.1.0"

#: Version of the frame protocol spoken on both channels (docs/wire-protocol.md).
PROTOCOL_VERSION = 1

#: Name under which the native-messaging host is registered with browsers.
NATIVE_HOST_NAME = "dev.tabsight.host"
