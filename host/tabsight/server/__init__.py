"""The MCP layer: the SDK's server over stdio, protocol-version choices, alerts pushed to the client."""
