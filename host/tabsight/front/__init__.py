"""The front: one MCP server per client, speaking to hosts over their sockets."""
