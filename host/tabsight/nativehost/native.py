"""The host's native-messaging side: the browser launched us; stdin/stdout are its port."""

from __future__ import annotations

import asyncio
import sys

from ..protocol.channel import FrameChannel
from ..protocol.framing import MAX_FRAME, MAX_TO_EXTENSION, NATIVE


async def extension_channel() -> FrameChannel:
    """Frames from and to the extension over this process's stdin/stdout."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=MAX_FRAME)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin.buffer)
    transport, protocol = await loop.connect_write_pipe(asyncio.streams.FlowControlMixin, sys.stdout.buffer)
    writer = asyncio.StreamWriter(transport, protocol, reader, loop)
    return FrameChannel(reader, writer, name="extension", max_out=MAX_TO_EXTENSION, header=NATIVE)


def caller_origin(argv: list[str]) -> str | None:
    """The extension origin Chrome passes as the first argument (Windows adds more after)."""
    for arg in argv:
        if arg.startswith("chrome-extension://"):
            return arg
    return None
