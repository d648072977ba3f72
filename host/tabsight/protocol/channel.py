"""A frame channel over an asyncio stream pair: the one transport interface.

The host's native-messaging side (stdin/stdout) and both ends of the host
socket are ``FrameChannel``s; everything above this layer speaks frames.
"""

from __future__ import annotations

import asyncio
import logging
import struct

from ..errors import Code
from . import frames
from .framing import MAX_FRAME, SOCKET, BadFrame, encode, read_payload

log = logging.getLogger(__name__)


class FrameChannel:
    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        *,
        name: str,
        max_in: int = MAX_FRAME,
        max_out: int = MAX_FRAME,
        header: struct.Struct = SOCKET,
    ) -> None:
        self._reader = reader
        self._writer = writer
        self.name = name
        self.max_in = max_in
        self.max_out = max_out
        self._header = header

    async def receive(self) -> frames.Frame | None:
        """The next valid frame; None at end of stream.

        Invalid frames are answered (when they carry an id) or logged, and
        skipped: a peer's bad frame never ends the channel. A frame over the
        size cap does (FrameTooLarge propagates), since the stream can no
        longer be trusted.
        """
        while True:
            payload = await read_payload(self._reader, self.max_in, self._header)
            if payload is None:
                return None
            try:
                return frames.parse(payload)
            except BadFrame as exc:
                log.warning("%s: dropped bad frame: %s", self.name, exc)
                if exc.frame_id is not None:
                    await self.send(frames.error(exc.frame_id, Code.BAD_FRAME, str(exc)))

    async def send(self, frame: frames.Record) -> None:
        """Send one frame. Raises FrameTooLarge before writing anything."""
        data = encode(frames.dump(frame), self.max_out, self._header)
        self._writer.write(data)
        await self._writer.drain()

    def post(self, frame: frames.Record) -> None:
        """Queue one frame without waiting for the peer to read it.

        The host fans answers out to many fronts from one reader loop; a slow
        front must not stall the others, so its bytes wait in its own buffer.
        """
        self._writer.write(encode(frames.dump(frame), self.max_out, self._header))

    @property
    def backlog(self) -> int:
        """Bytes written but not yet taken by the peer."""
        return self._writer.transport.get_write_buffer_size()

    def close(self) -> None:
        self._writer.close()
