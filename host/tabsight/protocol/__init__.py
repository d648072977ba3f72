"""The frame protocol shared by both channels (docs/wire-protocol.md)."""
