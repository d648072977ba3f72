"""Length-prefixed JSON frames: a 4-byte length, then UTF-8 JSON.

This is Chrome's native-messaging format; the host socket reuses it so one
codec serves both channels, with one difference: the length's byte order.
Native messaging takes Chrome's rule, the machine's own order (``NATIVE``);
the socket's is little-endian (``SOCKET``), since a socket may be forwarded to
a machine of the other order (``ssh -R``, docs/remote.md). The codec knows
bytes and objects, nothing about what the frames mean (see ``frames``).
"""

from __future__ import annotations

import asyncio
import json
import struct
from typing import Any

#: the native-messaging channel's length header: the machine's own byte order (Chrome's rule)
NATIVE = struct.Struct("=I")
#: the host socket's length header: little-endian, whichever machine is at either end
SOCKET = struct.Struct("<I")

#: Chrome closes the port on a host -> extension message over 1 MB.
MAX_TO_EXTENSION = 1024 * 1024
#: Chrome's cap for extension -> host messages; also our socket cap.
MAX_FRAME = 64 * 1024 * 1024


class FrameTooLarge(Exception):
    """A frame's length exceeds the cap. On a stream this is unrecoverable."""

    def __init__(self, size: int, limit: int) -> None:
        super().__init__(f"frame of {size} bytes exceeds the {limit}-byte limit")
        self.size = size
        self.limit = limit


class BadFrame(Exception):
    """A frame arrived whole but is not a valid frame. The stream stays in sync."""

    def __init__(self, message: str, frame_id: str | None = None) -> None:
        super().__init__(message)
        self.frame_id = frame_id


def encode(obj: dict[str, Any], limit: int = MAX_FRAME, header: struct.Struct = SOCKET) -> bytes:
    payload = json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode()
    if len(payload) > limit:
        raise FrameTooLarge(len(payload), limit)
    return header.pack(len(payload)) + payload


def decode_payload(payload: bytes) -> dict[str, Any]:
    """Parse one frame's bytes into a JSON object, or raise BadFrame."""
    try:
        obj = json.loads(payload)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BadFrame(f"frame is not UTF-8 JSON: {exc}") from None
    if not isinstance(obj, dict):
        raise BadFrame(f"frame must be a JSON object, not {type(obj).__name__}")
    return obj


class FrameDecoder:
    """Incremental decoder: feed bytes as they come, take whole payloads out.

    Used where bytes arrive in arbitrary pieces (and by the tests to prove
    that partial reads never desynchronise the stream).
    """

    def __init__(self, limit: int = MAX_FRAME, header: struct.Struct = SOCKET) -> None:
        self._buffer = bytearray()
        self._limit = limit
        self._header = header

    def feed(self, data: bytes) -> list[bytes]:
        self._buffer += data
        payloads = []
        header = self._header
        while len(self._buffer) >= header.size:
            (size,) = header.unpack_from(self._buffer)
            if size > self._limit:
                raise FrameTooLarge(size, self._limit)
            end = header.size + size
            if len(self._buffer) < end:
                break
            payloads.append(bytes(self._buffer[header.size : end]))
            del self._buffer[:end]
        return payloads


async def read_payload(
    reader: asyncio.StreamReader, limit: int = MAX_FRAME, header: struct.Struct = SOCKET
) -> bytes | None:
    """Read one frame's payload; None at a clean end of stream."""
    try:
        length = await reader.readexactly(header.size)
    except asyncio.IncompleteReadError as exc:
        if exc.partial:
            raise ConnectionError("stream ended inside a frame header") from None
        return None
    (size,) = header.unpack(length)
    if size > limit:
        raise FrameTooLarge(size, limit)
    try:
        return await reader.readexactly(size)
    except asyncio.IncompleteReadError:
        raise ConnectionError("stream ended inside a frame") from None
