"""The reader protocol's frames (firmware_bridge/PROTOCOL.md): byte fixtures and property tests.

The parser must never raise, must only ever output messages whose one encoding was in the input, and
must account for every other byte it was given.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from companion.errors import FrameError
from firmware_bridge.firmware import bridgecore
from firmware_bridge.protocol import (
    MAX_LINE,
    Ack,
    DeviceError,
    DiceResult,
    FrameParser,
    Heartbeat,
    Hello,
    Ping,
    Setting,
    TilePlaced,
    TileRemoved,
    checksum,
    encode,
    encode_ack,
    encode_frame,
    encode_ping,
    encode_setting,
)

PROTOCOL_MD = Path(__file__).resolve().parent.parent / "firmware_bridge" / "PROTOCOL.md"


# -- strategies ------------------------------------------------------------------------------------------
def _chars(alphabet: str, low: int, high: int):
    return st.text(alphabet=alphabet, min_size=low, max_size=high)


DIGITS = "0123456789"
HEX = "0123456789ABCDEF"
ALNUM = DIGITS + "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
seqs = st.integers(1, 65535)
tag_uids = st.sampled_from([8, 14, 20]).flatmap(lambda n: _chars(HEX, n, n))
capabilities = st.lists(
    st.builds(
        lambda k, v: k + ("=" + v if v else ""),
        _chars("abcdefghijklmnopqrstuvwxyz0123456789_", 1, 6),
        st.one_of(st.just(""), _chars(ALNUM + "._-", 1, 4)),
    ),
    max_size=3,
)
hellos = st.builds(
    Hello,
    st.integers(1, 99),
    st.sampled_from(["dice", "tiles"]),
    _chars(ALNUM + "_-", 1, 16),
    _chars(HEX, 4, 4),
    _chars(ALNUM + "._+-", 1, 8),
    capabilities.map(tuple),
)
printable_text = st.text(alphabet=[chr(c) for c in range(0x20, 0x7F) if chr(c) not in "$*"], max_size=40)
device_messages = st.one_of(
    hellos,
    st.builds(DiceResult, seqs, st.lists(st.integers(1, 6), min_size=1, max_size=10).map(tuple)),
    st.builds(TilePlaced, seqs, st.integers(1, 16), tag_uids),
    st.builds(TileRemoved, seqs, st.integers(1, 16), tag_uids),
    st.builds(Heartbeat, st.integers(0, 4294967295), st.integers(0, 255)),
    st.builds(DeviceError, st.integers(1, 999), printable_text),
)
host_messages = st.one_of(
    st.builds(Ping),
    st.builds(Ack, seqs),
    st.builds(Setting, _chars("abcdefghijklmnopqrstuvwxyz0123456789_", 1, 12), _chars(ALNUM + "._-", 1, 16)),
)
messages = st.one_of(device_messages, host_messages)


def _mutate(line: bytes, data) -> bytes:
    """A valid frame damaged the way a noisy cable damages it."""
    how = data.draw(st.sampled_from(["flip", "drop", "insert", "cut"]))
    i = data.draw(st.integers(0, len(line) - 1))
    if how == "flip":
        return line[:i] + bytes([line[i] ^ data.draw(st.integers(1, 255))]) + line[i + 1 :]
    if how == "drop":
        return line[:i] + line[i + 1 :]
    if how == "insert":
        return line[:i] + bytes([data.draw(st.integers(0, 255))]) + line[i:]
    return line[:i]


def _feed_in_chunks(parser: FrameParser, stream: bytes, cuts: list[int]) -> list:
    out, start = [], 0
    for cut in sorted(set(c % (len(stream) + 1) for c in cuts)) + [len(stream)]:
        out += parser.feed(stream[start:cut])
        start = cut
    return out


def _accounted(parser: FrameParser) -> None:
    s = parser.stats
    assert s.accepted_bytes + s.dropped_bytes + parser.buffered == s.bytes_in
    assert parser.buffered < MAX_LINE


# -- checksum and encoding -----------------------------------------------------------------------------------
def test_checksum_is_the_xor_of_the_bytes_between_dollar_and_star():
    assert checksum(b"ACK,7") == 0x52
    assert encode_ack(7) == b"$ACK,7*52\r\n"
    assert encode_ping() == b"$PING*10\r\n"
    assert encode_setting("hb", 500) == b"$SET,hb,500*7D\r\n"
    assert encode(DiceResult(7, (3, 5))) == b"$DICE,7,2,3,5*08\r\n"


@pytest.mark.parametrize(
    "message",
    [
        DiceResult(1, (7,)),
        DiceResult(1, ()),
        DiceResult(1, (1,) * 11),
        DiceResult(0, (1,)),
        DiceResult(65536, (1,)),
        TilePlaced(1, 0, "04A1B2C3"),
        TilePlaced(1, 17, "04A1B2C3"),
        TilePlaced(1, 1, "04a1b2c3"),
        TilePlaced(1, 1, "04A1B2"),
        Heartbeat(-1, 0),
        DeviceError(0, "x"),
        DeviceError(1, "a*b"),
        DeviceError(1, "é"),
        DeviceError(1, "x" * 90),
        Hello(1, "lamp", "X", "0000", "1", ()),
        Hello(1, "dice", "X", "00", "1", ()),
        Ack(0),
        Setting("HB", "1"),
        Setting("hb", "a,b"),
        Hello(1, "dice", "X", "0000", "1", ("slots=4,5",)),
    ],
)
def test_encode_refuses_what_the_protocol_cannot_carry(message):
    with pytest.raises(FrameError):
        encode(message)


def test_encode_frame_refuses_reserved_characters_and_long_lines():
    for fields in (["a$b"], ["a*b"], ["a\r"], ["a,b", "c"], ["x" * 100]):
        with pytest.raises(FrameError):
            encode_frame("T", fields)
    with pytest.raises(ValueError):  # FrameError is a ValueError too
        encode_frame("T", ["\x00"])


@given(messages)
def test_every_message_round_trips_through_encode_and_the_parser(message):
    line = encode(message)
    assert len(line) <= MAX_LINE
    parser = FrameParser(accept="any")
    assert parser.feed(line) == [message]
    assert parser.stats.rejected == 0 and parser.stats.junk_bytes == 0
    _accounted(parser)


@given(messages)
def test_the_firmware_core_frames_messages_exactly_as_the_host_does(message):
    line = encode(message)
    body = line[1:-5].decode()
    type_, *fields = body.split(",")
    if isinstance(message, DeviceError):
        fields = [fields[0], ",".join(fields[1:])]
    assert bridgecore.frame(type_, fields) == line
    if isinstance(message, (Ping, Ack, Setting)):
        reader = bridgecore.LineReader()
        assert reader.feed(line) == [(type_, fields)] and reader.bad == 0


# -- fixtures ------------------------------------------------------------------------------------------------------
def test_junk_half_lines_and_bad_frames_are_counted_and_dropped():
    parser = FrameParser()
    stream = (
        b"\x00\xffboot rom v3\r\n"  # junk (boot noise)
        b"$HELLO,1,di"  # half line cut by the next $
        b"$DICE,7,2,3,5*09\r\n"  # bad checksum
        b"$DICE,7,2,3,5*08\r\n"  # good
        b"$NOPE,1*" + b"%02X" % checksum(b"NOPE,1") + b"\r\n"
        b"$DICE,8,1,9*17\r\n"  # out of range face
        b"$DICE,9,3,1,2*02\r\n"  # count does not match
        b"$DICE,07,2,3,5*38\r\n"  # leading zero
        b"$DICE,7,2,3,5*08\n"  # no CR
        b"$HB,1,0*0b\r\n"  # lower-case checksum
        b"$ACK,7*52\r\n"  # a host frame: unknown to the host's parser
        b"$HB,42,1*3D\r\n"
    )
    assert parser.feed(stream) == [DiceResult(7, (3, 5)), Heartbeat(42, 1)]
    s = parser.stats
    assert (s.partial, s.bad_checksum, s.unknown_type, s.out_of_range, s.malformed) == (1, 1, 2, 1, 4)
    assert s.junk_bytes == len(b"\x00\xffboot rom v3\r\n")
    assert s.frames == 2
    assert len(parser.recent) == 8 and all(isinstance(r, str) and d for r, d in parser.recent)
    _accounted(parser)


def test_an_endless_line_is_dropped_and_the_buffer_stays_capped():
    parser = FrameParser()
    assert parser.feed(b"$DICE,") == []
    for _ in range(1000):
        assert parser.feed(b"1" * 500) == []
        assert parser.buffered < MAX_LINE
    assert parser.stats.too_long == 1
    assert parser.feed(b"$DICE" + b"1" * 500) == [] and parser.stats.too_long == 2  # a new $ is a new line
    # the garbage ends at a newline; the next frame is read normally
    assert parser.feed(b"2222\r\n$HB,1,0*0B\r\n") == [Heartbeat(1, 0)]
    assert parser.feed(b"$HB," + b"1" * 200 + b"*00\r\n$HB,1,0*0B\r\n") == [Heartbeat(1, 0)]
    assert parser.stats.too_long == 3
    _accounted(parser)


def test_frames_split_anywhere_are_reassembled():
    stream = encode(DiceResult(3, (1, 2, 3))) + encode(TilePlaced(4, 2, "04A1B2C3")) + encode(Heartbeat(9, 0))
    parser = FrameParser()
    out = []
    for byte in stream:
        out += parser.feed(bytes([byte]))
    assert out == [DiceResult(3, (1, 2, 3)), TilePlaced(4, 2, "04A1B2C3"), Heartbeat(9, 0)]
    assert parser.stats.rejected == 0


def test_the_parser_accepts_only_its_side_unless_told_otherwise():
    host = FrameParser(accept="host")
    assert host.feed(encode_ack(7) + encode(DiceResult(1, (2,)))) == [Ack(7)]
    assert host.stats.unknown_type == 1


def test_the_parser_survives_non_bytes_and_empty_input():
    parser = FrameParser()
    assert parser.feed(b"") == [] and parser.feed(bytearray(b"$HB,1,0*0B\r\n")) == [Heartbeat(1, 0)]
    assert parser.feed(memoryview(b"$HB,1,0*0B\r\n")) == [Heartbeat(1, 0)]
    assert parser.feed(None) == [] and parser.feed(12) == []  # type: ignore[arg-type]


def test_hello_capabilities():
    hello = Hello(1, "tiles", "E661", "0B17", "1.0.0", ("slots=4", "beep"))
    assert hello.slots == 4 and hello.capability("beep") == "" and hello.capability("dice") is None
    assert Hello(1, "dice", "E661", "0B17", "1.0.0", ()).slots == 0


# -- PROTOCOL.md's examples are true -----------------------------------------------------------------------------
def _md_lines(section_start: str, section_end: str) -> list[str]:
    text = PROTOCOL_MD.read_text(encoding="utf-8")
    part = text[text.index(section_start) : text.index(section_end)]
    return [
        line
        for block in re.findall(r"```\n(.*?)```", part, re.S)
        for line in block.splitlines()
        if line.startswith("$")
    ]


def _wire(line: str) -> bytes:
    frame = line.split("<LF>")[0] + "<LF>"
    return frame.replace("<CR>", "\r").replace("<LF>", "\n").encode("ascii")


def test_protocol_md_examples_are_byte_exact():
    device = _md_lines("Device to host:", "Host to device:\n\n```")
    host = _md_lines("Host to device:\n\n```", "The dice reading above")
    assert len(device) == 9 and len(host) == 4
    for lines, side in ((device, "device"), (host, "host")):
        for line in lines:
            wire = _wire(line)
            parser = FrameParser(accept=side)
            (message,) = parser.feed(wire)
            assert encode(message) == wire
    refused = _md_lines("Refused by the host", "## Versioning")
    expected = {
        "bad checksum": "bad_checksum",
        "unknown type": "unknown_type",
        "out of range": "out_of_range",
        "malformed": "malformed",
        "a half line": "partial",
    }
    assert len(refused) == 7
    for line in refused:
        parser = FrameParser()
        out = parser.feed(_wire(line))
        reason = next(v for k, v in expected.items() if k in line)
        assert getattr(parser.stats, reason) == 1, line
        assert out == ([Heartbeat(1, 0)] if reason == "partial" else [])
    hexdump = PROTOCOL_MD.read_text(encoding="utf-8").split("as bytes (18 bytes):")[1].split("```")[1]
    assert bytes.fromhex(hexdump.strip().splitlines()[0]) == encode(DiceResult(7, (3, 5)))


def test_protocol_constants_agree_between_host_and_firmware():
    from firmware_bridge import protocol

    assert (protocol.PROTOCOL_VERSION, protocol.MAX_LINE, protocol.MAX_DICE, protocol.MAX_SLOTS, protocol.SEQ_MAX) == (
        bridgecore.PROTOCOL_VERSION,
        bridgecore.MAX_LINE,
        bridgecore.MAX_DICE,
        bridgecore.MAX_SLOTS,
        bridgecore.SEQ_MAX,
    )
    text = PROTOCOL_MD.read_text(encoding="utf-8")
    assert f"Maximum line length: {protocol.MAX_LINE} bytes" in text
    assert f"every {bridgecore.RESEND_MS} ms" in text
    from firmware_bridge import reader

    rows = [
        ("HELLO repeat while the host is not heard", bridgecore.HELLO_INTERVAL_MS / 1000),
        ("the host counts as heard after its last valid frame for", bridgecore.HEARD_TIMEOUT_MS / 1000),
        ("HB period while heard (`SET hb`)", bridgecore.HEARTBEAT_MS / 1000),
        ("re-send period of an unacknowledged result (`SET resend`)", bridgecore.RESEND_MS / 1000),
        ("deaf period after opening the port", reader.SETTLE_S),
        ("keep-alive `PING` when nothing else was sent for", reader.KEEPALIVE_S),
        ("silence after which the port is closed and re-opened", reader.SILENCE_S),
    ]
    for what, seconds in rows:
        assert f"| {what} | {seconds:g} s |" in text, what
    assert bridgecore.RESULT_LIFETIME_MS == 5 * 60 * 1000 and "| 5 min |" in text
    assert f"every {reader.POLL_S:g} s" in text
    assert reader.KEEPALIVE_S * 2 < bridgecore.HEARD_TIMEOUT_MS / 1000 < reader.SILENCE_S


# -- properties on arbitrary input ----------------------------------------------------------------------------------
@settings(max_examples=400)
@given(st.binary(max_size=600), st.lists(st.integers(0, 10_000), max_size=8))
@example(b"$" * 200, [])
@example(b"$HB,1,0*0B\r\n" * 3, [5, 17])
def test_any_bytes_never_raise_and_only_valid_frames_come_out(stream, cuts):
    parser = FrameParser()
    out = _feed_in_chunks(parser, stream, cuts)
    for message in out:
        assert encode(message) in stream
    assert parser.stats.frames == len(out)
    _accounted(parser)


@settings(max_examples=300)
@given(st.data())
def test_noisy_streams_yield_exactly_the_frames_that_survived(data):
    """Valid frames, damaged frames and junk, fed in random chunks: every message that comes out was
    sent intact; every intact frame that follows a line end comes out; everything else is counted."""
    parts, intact = [], []
    for _ in range(data.draw(st.integers(1, 8))):
        kind = data.draw(st.sampled_from(["frame", "damaged", "junk"]))
        if kind == "junk":
            parts.append(data.draw(st.binary(max_size=40)))
        else:
            message = data.draw(device_messages)
            line = encode(message)
            if kind == "damaged":
                line = _mutate(line, data)
            else:
                intact.append(message)
            parts.append(line)
    stream = b"".join(parts)
    parser = FrameParser()
    out = _feed_in_chunks(parser, stream, data.draw(st.lists(st.integers(0, 1000), max_size=6)))
    for message in out:
        assert encode(message) in stream
    # a frame preceded by a complete line (or by nothing) always survives whatever came before it
    safe = [m for m, line in ((m, encode(m)) for m in intact) if stream.startswith(line) or b"\n" + line in stream]
    for message in safe:
        assert message in out
    _accounted(parser)


@given(st.binary(max_size=300), device_messages)
def test_a_valid_frame_is_found_after_any_junk(junk, message):
    parser = FrameParser()
    out = parser.feed(junk + encode(message))
    assert out and out[-1] == message
    _accounted(parser)


@given(st.binary(max_size=400))
def test_the_firmware_line_reader_never_raises_and_stays_capped(stream):
    reader = bridgecore.LineReader()
    for i in range(0, len(stream), 7):
        for type_, fields in reader.feed(stream[i : i + 7]):
            assert bridgecore.frame(type_, fields) in stream
        assert len(reader.buf) < bridgecore.MAX_LINE
