"""The reader's protocol object (firmware_bridge.reader.ReaderSession), fed byte fixtures and times.

No port, no thread, no clock: every decision of a session (deafness, hello gating, acknowledgement,
de-duplication, keep-alive, silence, wrong devices) is checked exactly.
"""

from __future__ import annotations

import pytest

from companion.errors import ConfigError, ReaderError
from firmware_bridge.protocol import DiceResult, FrameParser, Heartbeat, Hello, TilePlaced, TileRemoved, encode
from firmware_bridge.reader import DiceReading, ReaderSession, ReaderSpec, RecentKeys, TileEvent, find_port

DICE_HELLO = encode(Hello(1, "dice", "E661", "3F2A", "1.0.0", ("dice=10",)))
TILES_HELLO = encode(Hello(1, "tiles", "T1", "0B17", "1.0.0", ("slots=4",)))


class Recorder:
    def __init__(self, fail: int = 0):
        self.items, self.fail = [], fail

    def __call__(self, item):
        if self.fail:
            self.fail -= 1
            raise RuntimeError("the queue is broken")
        self.items.append(item)


def session(kind="dice", settle=2.0, **kw):
    dice, tiles = Recorder(), Recorder()
    s = ReaderSession(
        ReaderSpec(kind=kind, path="/dev/null", **kw),
        100.0,
        on_dice=dice,
        on_tile=tiles,
        settle_s=settle,
        wall_clock=lambda: 1234.0,
    )
    return s, dice, tiles


def sent(s: ReaderSession) -> list:
    out, s.outgoing = b"".join(s.outgoing), []
    parser = FrameParser(accept="host")
    messages = parser.feed(out)
    assert parser.stats.rejected == 0
    return messages


def test_everything_in_the_first_two_seconds_is_ignored_and_nothing_is_sent_before_hello():
    s, dice, _ = session()
    s.data_received(b"\x00boot" + DICE_HELLO + encode(DiceResult(1, (3, 5))), 101.0)  # deaf
    s.tick(101.9)
    assert s.state == "deaf" and s.outgoing == [] and s.counters.deaf_bytes > 0
    s.tick(102.0)
    assert s.state == "waiting"
    s.data_received(encode(DiceResult(2, (4, 4))) + encode(Heartbeat(3, 1)), 102.1)  # before hello
    s.tick(103.5)
    assert s.outgoing == [] and dice.items == [] and s.counters.before_hello == 2
    s.data_received(DICE_HELLO, 103.6)
    assert s.state == "connected" and [type(m).__name__ for m in sent(s)] == ["Ping"]
    s.data_received(encode(DiceResult(3, (6, 1))), 103.7)
    assert dice.items == [DiceReading("E661", 3, (6, 1), 1234.0)]
    assert sent(s)[0].seq == 3


def test_resent_results_are_acknowledged_again_but_delivered_once_even_across_sessions():
    seen = RecentKeys()
    s, dice, _ = session(settle=0)
    s.seen = seen
    s.data_received(DICE_HELLO, 100.0)
    sent(s)
    frame = encode(DiceResult(9, (2, 3)))
    s.data_received(frame + frame, 100.1)
    s.data_received(frame, 100.6)
    assert len(dice.items) == 1 and s.counters.duplicates == 2
    assert [m.seq for m in sent(s)] == [9, 9, 9]
    # a new session (reconnect) with the same board: still a repeat
    s2 = ReaderSession(ReaderSpec(kind="dice", path="/dev/null"), 200.0, seen=seen, on_dice=dice, settle_s=0)
    s2.data_received(DICE_HELLO + frame, 200.0)
    assert len(dice.items) == 1 and [type(m).__name__ for m in sent(s2)] == ["Ping", "Ack"]
    # the same sequence number after the board was reset (another boot id) is a new reading
    rebooted = encode(Hello(1, "dice", "E661", "77AA", "1.0.0", ()))
    s2.data_received(rebooted + frame, 201.0)
    assert len(dice.items) == 2


def test_a_failing_delivery_is_not_acknowledged_so_the_device_sends_it_again():
    dice = Recorder(fail=1)
    s = ReaderSession(ReaderSpec(kind="dice", path="/dev/null"), 0.0, on_dice=dice, settle_s=0)
    s.data_received(DICE_HELLO, 0.0)
    sent(s)
    frame = encode(DiceResult(1, (5,)))
    s.data_received(frame, 0.1)
    assert sent(s) == [] and s.counters.callback_errors == 1
    s.data_received(frame, 0.6)
    assert [m.seq for m in sent(s)] == [1] and len(dice.items) == 1


def test_keepalive_ping_and_silence():
    s, _, _ = session(settle=0)
    s.data_received(DICE_HELLO, 100.0)
    sent(s)
    s.tick(100.9)
    assert s.outgoing == []
    s.tick(101.0)
    assert [type(m).__name__ for m in sent(s)] == ["Ping"]
    s.data_received(encode(Heartbeat(1, 0)), 102.0)
    s.tick(106.9)
    assert not s.silent
    s.tick(107.0)
    assert s.silent


@pytest.mark.parametrize(
    "hello, problem",
    [
        (TILES_HELLO, "expected a dice reader, found a tiles reader"),
        (encode(Hello(2, "dice", "E661", "3F2A", "2.0.0", ())), "protocol version 2"),
    ],
)
def test_a_wrong_device_is_refused_and_never_answered(hello, problem):
    s, dice, _ = session(settle=0)
    s.data_received(hello + encode(DiceResult(1, (1,))), 100.0)
    s.tick(110.0)
    assert s.state == "refused" and problem in s.problem
    assert s.outgoing == [] and dice.items == [] and not s.silent


def test_a_configured_device_id_must_match():
    s, _, _ = session(settle=0, device_id="OTHER")
    s.data_received(DICE_HELLO, 100.0)
    assert s.state == "refused" and "expected device OTHER, found E661" in s.problem


def test_tile_events_slots_and_reset():
    s, _, tiles = session(kind="tiles", settle=0)
    s.data_received(TILES_HELLO, 100.0)
    sent(s)
    s.data_received(
        encode(TilePlaced(1, 2, "04A1B2C3"))
        + encode(TilePlaced(2, 5, "04A1B2C4"))
        + encode(TilePlaced(3, 3, "04A1B2C5"))
        + encode(TileRemoved(4, 3, "04A1B2C5")),
        100.1,
    )
    assert [(e.placed, e.slot, e.uid) for e in tiles.items] == [
        (True, 2, "04A1B2C3"),
        (True, 3, "04A1B2C5"),
        (False, 3, "04A1B2C5"),
    ]
    assert s.counters.bad_slot == 1  # slot 5 of a 4-slot reader
    assert [m.seq for m in sent(s)] == [1, 2, 3, 4]  # acknowledged all the same
    assert s.placed == {2: "04A1B2C3"}
    assert isinstance(tiles.items[0], TileEvent) and tiles.items[0].device == "T1"
    s.data_received(encode(Hello(1, "tiles", "T1", "FFFF", "1.0.0", ("slots=4",))), 101.0)  # board reset
    assert s.placed == {}


def test_input_that_breaks_a_handler_is_counted_not_raised(monkeypatch):
    s, _, _ = session(settle=0)
    monkeypatch.setattr(s, "_handle", lambda message, now: 1 / 0)
    s.data_received(DICE_HELLO, 100.0)
    assert s.counters.internal_errors == 1


def test_reader_specs_from_config():
    spec = ReaderSpec.from_mapping({"kind": "tiles", "vid": 0x2E8A, "pid": 0x000A, "serial_number": "E661"})
    assert spec.identity() == "USB 2E8A:000A serial E661" and spec.label == "tiles reader"
    assert ReaderSpec.from_mapping({"kind": "dice", "path": "/dev/serial/by-id/x"}).identity() == "/dev/serial/by-id/x"
    for bad in (
        {"kind": "lamp", "path": "/x"},
        {"kind": "dice"},
        {"kind": "dice", "path": "/x", "vid": 1},
        {"kind": "dice", "path": "/x", "colour": "red"},
        {"kind": "dice", "vid": -1},
        {"kind": "dice", "path": ""},
    ):
        with pytest.raises(ConfigError):
            ReaderSpec.from_mapping(bad)
    with pytest.raises(ValueError):
        ReaderSpec(kind="dice")


class Port:
    def __init__(self, device, vid, pid, serial_number):
        self.device, self.vid, self.pid, self.serial_number = device, vid, pid, serial_number


def test_usb_identity_finds_the_right_port_in_any_order():
    a = Port("/dev/ttyACM0", 0x2E8A, 0x000A, "AAAA")
    b = Port("/dev/ttyACM1", 0x2E8A, 0x000A, "BBBB")
    other = Port("/dev/ttyUSB0", 0x0403, 0x6001, "AAAA")
    spec_b = ReaderSpec(kind="dice", vid=0x2E8A, pid=0x000A, serial_number="BBBB")
    assert find_port(spec_b, lambda: [a, b, other]) == "/dev/ttyACM1"
    assert find_port(spec_b, lambda: [other, b, a]) == "/dev/ttyACM1"
    assert find_port(spec_b, lambda: [a, other]) is None
    with pytest.raises(ReaderError, match="2 ports match"):
        find_port(ReaderSpec(kind="dice", vid=0x2E8A, pid=0x000A), lambda: [a, b])


def test_pyserial_urls_open_through_serial_for_url():
    from firmware_bridge.reader import open_port

    port = open_port("loop://")
    try:
        port.write(b"$PING*10\r\n")
        assert port.read(10) == b"$PING*10\r\n"
    finally:
        port.close()
    assert find_port(ReaderSpec(kind="dice", path="socket://localhost:7777")) == "socket://localhost:7777"
    with pytest.raises(ReaderError, match="cannot open"):
        open_port("/nonexistent/tty")
