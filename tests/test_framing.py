"""The frame codec and channel: round trips, partial reads, bad frames, caps."""

from __future__ import annotations

import asyncio
import json
import socket
import sys

import pytest

from tabsight.protocol import frames
from tabsight.protocol.channel import FrameChannel
from tabsight.protocol.framing import NATIVE, SOCKET, BadFrame, FrameDecoder, FrameTooLarge, encode, read_payload


def raw(payload: bytes) -> bytes:
    return SOCKET.pack(len(payload)) + payload


def test_round_trip_keeps_unicode_and_nesting():
    obj = {"kind": "event", "event": "x", "data": {"text": "héllo ✓ 漢字", "n": [1, 2.5, None]}}
    (payload,) = FrameDecoder().feed(encode(obj))
    assert json.loads(payload) == obj


def test_byte_by_byte_feed_yields_the_same_frames():
    stream = b"".join(encode({"kind": "cancel", "id": str(i)}) for i in range(20))
    decoder = FrameDecoder()
    out = []
    for i in range(len(stream)):
        out += decoder.feed(stream[i : i + 1])
    assert [json.loads(p)["id"] for p in out] == [str(i) for i in range(20)]


def test_the_socket_header_is_little_endian_and_native_messaging_keeps_the_machines_order():
    # a socket forwarded to a machine of the other byte order (ssh -R) reads the same lengths; Chrome's channel
    # takes the machine's own order, whatever it is
    payload = b'{"a":1}'
    assert encode({"a": 1})[:4] == len(payload).to_bytes(4, "little")
    assert encode({"a": 1}, header=NATIVE)[:4] == len(payload).to_bytes(4, sys.byteorder)
    big_endian_peer = len(payload).to_bytes(4, "big") + payload  # what a native-order codec on such a machine sent
    with pytest.raises(FrameTooLarge):  # read as little-endian: 117 MB, over the cap, refused, never misread
        FrameDecoder().feed(big_endian_peer)
    assert FrameDecoder(header=NATIVE).feed(encode({"a": 1}, header=NATIVE)) == [payload]


@pytest.mark.anyio
async def test_a_channel_writes_the_header_it_was_given():
    left, right = socket.socketpair()
    reader, writer = await asyncio.open_connection(sock=left)
    peer_reader, peer_writer = await asyncio.open_connection(sock=right)
    try:
        await FrameChannel(reader, writer, name="socket").send(frames.Cancel(id="7"))
        await FrameChannel(reader, writer, name="native", header=NATIVE).send(frames.Cancel(id="8"))
        first = await peer_reader.readexactly(4)
        body = await peer_reader.readexactly(int.from_bytes(first, "little"))
        second = await peer_reader.readexactly(4)
        assert json.loads(body)["id"] == "7"
        assert json.loads(await peer_reader.readexactly(int.from_bytes(second, sys.byteorder)))["id"] == "8"
    finally:
        writer.close()
        peer_writer.close()


def test_zero_length_and_bad_json_are_rejected_but_do_not_desynchronise():
    stream = (
        raw(b"")
        + raw(b"{not json")
        + raw(b"[1,2]")
        + raw("é".encode("latin-1"))
        + encode({"kind": "cancel", "id": "ok"})
    )
    payloads = FrameDecoder().feed(stream)
    assert len(payloads) == 5
    for bad in payloads[:4]:
        with pytest.raises(BadFrame):
            frames.parse(bad)
    assert frames.parse(payloads[4]) == frames.Cancel(id="ok")


def test_oversized_frame_is_refused_before_reading_it():
    with pytest.raises(FrameTooLarge):
        FrameDecoder(limit=100).feed(SOCKET.pack(101))
    with pytest.raises(FrameTooLarge):
        encode({"data": "x" * 200}, limit=100)


def test_invalid_frames_name_the_problem_and_keep_the_id():
    with pytest.raises(BadFrame) as info:
        frames.parse(json.dumps({"kind": "request", "id": "7"}).encode())
    assert info.value.frame_id == "7" and "method" in str(info.value)
    with pytest.raises(BadFrame):
        frames.parse(json.dumps({"kind": "gossip"}).encode())


async def _channel_pair():
    left, right = socket.socketpair()
    a = FrameChannel(*await asyncio.open_connection(sock=left), name="a")
    b_reader, b_writer = await asyncio.open_connection(sock=right)
    return a, b_reader, b_writer


@pytest.mark.anyio
async def test_channel_answers_a_bad_frame_and_keeps_going():
    a, b_reader, b_writer = await _channel_pair()
    b_writer.write(raw(json.dumps({"kind": "request", "id": "1"}).encode()))  # no method
    b_writer.write(raw(b"garbage"))
    b_writer.write(encode({"kind": "request", "id": "2", "method": "ping"}))
    await b_writer.drain()
    frame = await a.receive()
    assert frame == frames.Request(id="2", method="ping")
    answer = frames.parse(await read_payload(b_reader))
    assert isinstance(answer, frames.Error) and answer.id == "1" and answer.error.code == "bad_frame"
    b_writer.close()
    assert await a.receive() is None
    a.close()


@pytest.mark.anyio
async def test_channel_refuses_to_send_over_its_cap():
    a, _reader, writer = await _channel_pair()
    a.max_out = 1000
    with pytest.raises(FrameTooLarge):
        await a.send(frames.Event(event="big", data={"x": "y" * 2000}))
    await a.send(frames.Event(event="small"))
    a.close()
    writer.close()


@pytest.mark.anyio
async def test_stream_cut_inside_a_frame_is_a_connection_error():
    a, _reader, writer = await _channel_pair()
    writer.write(SOCKET.pack(50) + b"{")
    await writer.drain()
    writer.close()
    with pytest.raises(ConnectionError):
        await a.receive()
    a.close()


def test_fields_of_a_newer_peer_are_kept_and_sent_on_whatever_their_names():
    """Unknown fields stay data, also when they share a name with Python's or the class's own words."""
    wire = {"kind": "event", "event": "x", "data": {}, "self": 1, "extra": [2], "wire": "w", "replace": None}
    frame = frames.parse(json.dumps(wire).encode())
    assert isinstance(frame, frames.Event) and frame.event == "x"
    assert frames.dump(frame) == {key: value for key, value in wire.items() if value is not None}
    assert frames.dump(frame.replace(event="y"))["event"] == "y"


def test_each_field_takes_only_what_the_wire_protocol_allows():
    for bad, where in [
        ({"kind": "request", "id": "", "method": "m"}, "request.id"),
        ({"kind": "request", "id": "1", "method": "m", "timeout_ms": 0}, "request.timeout_ms"),
        ({"kind": "request", "id": "1", "method": "m", "params": []}, "request.params"),
        ({"kind": "hello", "role": "stranger", "version": "1"}, "hello.role"),
        ({"kind": "hello", "role": "host", "version": "1", "pid": True}, "hello.pid"),
        ({"kind": "hello", "role": "host", "version": "1", "extension": {"version": 3}}, "hello.extension.version"),
        ({"kind": "error", "id": "1", "error": {"code": "x"}}, "error.error.message"),
        ({"kind": "response", "id": 7}, "response.id"),
    ]:
        with pytest.raises(BadFrame) as info:
            frames.parse(json.dumps(bad).encode())
        assert f"({where}: " in str(info.value), (bad, str(info.value))
    hello = frames.parse(json.dumps({"kind": "hello", "role": "host", "version": "1", "last_active": 5}).encode())
    assert hello.last_active == 5.0 and hello.protocol == frames.PROTOCOL_VERSION and hello.extension is None
