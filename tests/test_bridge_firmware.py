"""The reference firmware's pure core (firmware_bridge/firmware/bridgecore.py), run under CPython.

Time is passed in as milliseconds, so every timer is tested exactly, without sleeping.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge.firmware import bridgecore
from firmware_bridge.firmware.bridgecore import DeviceCore, LineReader, PipEntry, SlotTracker
from firmware_bridge.protocol import (
    Ack,
    DeviceError,
    DiceResult,
    FrameParser,
    Heartbeat,
    Hello,
    TilePlaced,
    TileRemoved,
    encode,
    encode_ack,
    encode_ping,
    encode_setting,
)

FIRMWARE = Path(bridgecore.__file__).parent


def parse(lines: list[bytes]) -> list:
    parser = FrameParser()
    out = parser.feed(b"".join(lines))
    assert parser.stats.rejected == 0 and parser.stats.junk_bytes == 0, parser.recent
    return out


def dice_core(now: int = 0) -> DeviceCore:
    return DeviceCore("dice", "E6614103E7452D2F", "3F2A", "1.0.0", "dice=10;keypad", now=now)


def heard_core() -> DeviceCore:
    core = dice_core()
    core.poll(0)
    core.feed(encode_ping(), 10)
    core.poll(10)
    return core


def test_hello_repeats_every_half_second_until_the_host_speaks_then_heartbeats():
    core = dice_core()
    assert parse(core.poll(0)) == [Hello(1, "dice", "E6614103E7452D2F", "3F2A", "1.0.0", ("dice=10", "keypad"))]
    assert core.poll(499) == []
    assert isinstance(parse(core.poll(500))[0], Hello)
    core.feed(encode_ping(), 1500)
    assert core.new_session
    assert parse(core.poll(1500)) == [Heartbeat(1, 0)]  # the reply to the PING
    assert core.poll(2000) == []
    assert parse(core.poll(2500)) == [Heartbeat(2, 0)]  # heartbeat every second
    # the host falls silent: 3 s after its last frame, HELLO again
    assert all(not isinstance(m, Hello) for m in parse(core.poll(4499)))
    assert isinstance(parse(core.poll(4500))[-1], Hello)


def test_results_are_held_while_unheard_then_resent_every_500_ms_until_acked():
    core = dice_core()
    core.poll(0)
    assert core.report_dice([3, 5], 100) == 1
    assert all(not isinstance(m, DiceResult) for m in parse(core.poll(200)))  # nobody listens yet
    core.feed(encode_ping(), 300)
    assert DiceResult(1, (3, 5)) in parse(core.poll(300))
    assert core.poll(799) == []
    assert parse(core.poll(800)) == [DiceResult(1, (3, 5))]
    assert parse(core.poll(1300))[-1] == DiceResult(1, (3, 5))
    core.feed(encode_ack(1), 1400)
    assert core.queue == [] and core.acked == 1
    assert all(not isinstance(m, DiceResult) for m in parse(core.poll(2000) + core.poll(2600)))


def test_a_host_that_comes_back_gets_every_pending_result_at_once():
    core = heard_core()
    core.report_dice([1], 20)
    core.report_dice([2, 2], 20)
    assert [m.seq for m in parse(core.poll(20)) if isinstance(m, DiceResult)] == [1, 2]
    core.poll(5000)  # host gone (3 s)
    core.feed(encode_ping(), 5100)
    assert [m.seq for m in parse(core.poll(5100)) if isinstance(m, DiceResult)] == [1, 2]


def test_queue_limit_lifetime_and_sequence_wrap():
    core = heard_core()
    for i in range(bridgecore.QUEUE_MAX):
        assert core.report_dice([1], 20) == i + 1
    assert core.report_dice([1], 20) is None and core.refused == 1
    assert DeviceError(2, "queue full, result refused") in parse(core.poll(20))
    errors = [m for m in parse(core.poll(20 + bridgecore.RESULT_LIFETIME_MS)) if isinstance(m, DeviceError)]
    assert [e.code for e in errors] == [1] * bridgecore.QUEUE_MAX and core.queue == []
    core.seq = bridgecore.SEQ_MAX
    assert core.report_dice([6], 0) == 1


def test_settings_and_bad_frames():
    core = heard_core()
    core.feed(
        encode_setting("hb", 500)
        + encode_setting("resend", 250)
        + encode_setting("nope", 1)
        + encode_setting("hb", 99)
        + b"$ACK,1*00\r\n",
        20,
    )
    assert core.hb_ms == 500 and core.resend_ms == 250
    out = parse(core.poll(20))
    assert [e.code for e in out if isinstance(e, DeviceError)] == [3, 3, 6]
    assert core.reader.bad == 1
    assert core.poll(30) == []  # bad frames are reported at most every 10 s
    core.feed(b"$JUNK*00\r\n", 40)
    assert all(not isinstance(m, DeviceError) for m in parse(core.poll(5000)))
    assert DeviceError(6, "1 bad host frames") in parse(core.poll(10_020))


def test_acks_for_unknown_sequence_numbers_are_harmless():
    core = heard_core()
    core.report_dice([4], 20)
    core.feed(encode_ack(99) + encode_ack(1) + encode_ack(1), 30)
    assert core.queue == [] and core.acked == 1


def test_tile_results_and_ticks_that_wrap():
    diff = lambda a, b: ((a - b + 2**29) % 2**30) - 2**29  # MicroPython's ticks_diff
    start = 2**30 - 100  # about to wrap
    core = DeviceCore("tiles", "T1", "0B17", "1.0.0", "slots=4", now=start, diff=diff)
    core.poll(start)
    core.feed(encode_ping(), start)
    core.report_tile(True, 2, "04A1B2C3", start)
    core.report_tile(False, 2, "04A1B2C3", start)
    out = parse(core.poll(start))
    assert TilePlaced(1, 2, "04A1B2C3") in out and TileRemoved(2, 2, "04A1B2C3") in out
    wrapped = (start + 600) % 2**30
    assert [m for m in parse(core.poll(wrapped)) if isinstance(m, (TilePlaced, TileRemoved))] == [
        TilePlaced(1, 2, "04A1B2C3"),
        TileRemoved(2, 2, "04A1B2C3"),
    ]
    with pytest.raises(ValueError):
        core.report_tile(True, 0, "04A1B2C3", start)
    with pytest.raises(ValueError):
        dice_core().report_dice([7], 0)


def test_pip_entry():
    entry = PipEntry()
    for key in "35":
        assert entry.press(key) is None
    assert entry.press("#") == [3, 5]
    assert entry.press("#") is None and entry.refused == 1 and entry.message
    for key in "1*2A4":
        entry.press(key)
    assert entry.values == [4]
    assert entry.press("9") is None and "1 to 6" in entry.message
    for _ in range(12):
        entry.press("6")
    assert entry.press("#") == [4] + [6] * 9 and entry.refused == 5


def test_slot_tracker_debounces_missed_reads_and_swaps():
    tracker = SlotTracker(4, misses=3)
    assert tracker.update(2, "04A1B2C3") == [(True, 2, "04A1B2C3")]
    assert tracker.update(2, None) == [] and tracker.update(2, None) == []
    assert tracker.update(2, "04A1B2C3") == []  # two misses: still there
    assert tracker.update(2, None) == [] and tracker.update(2, None) == []
    assert tracker.update(2, None) == [(False, 2, "04A1B2C3")]
    tracker.update(1, "AAAAAAAA")
    assert tracker.update(1, "BBBBBBBB") == [(False, 1, "AAAAAAAA"), (True, 1, "BBBBBBBB")]
    assert tracker.present() == [(1, "BBBBBBBB")]


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 100)), max_size=60))
def test_the_device_never_loses_an_acknowledged_order(script):
    """Random interleavings of reports, polls, ACKs and silence: every ACKed result was sent intact,
    the queue never exceeds its limit, and sequence numbers increase."""
    core = heard_core()
    now, sent, reported = 20, {}, {}
    for action, value in script:
        now += value * 10
        if action == 0:
            seq = core.report_dice([value % 6 + 1], now)
            if seq is not None:
                reported[seq] = (value % 6 + 1,)
        elif action == 1:
            for message in parse(core.poll(now)):
                if isinstance(message, DiceResult):
                    sent[message.seq] = message.values
        elif action == 2 and sent:
            core.feed(encode_ack(max(sent)), now)
        else:
            core.feed(encode_ping(), now)
        assert len(core.queue) <= bridgecore.QUEUE_MAX
    assert list(reported) == sorted(reported)
    assert all(sent[seq] == reported[seq] for seq in sent)


def test_line_reader_reads_host_frames_and_counts_junk():
    reader = LineReader()
    assert reader.feed(b"noise" + encode_ack(3) + b"$ACK,3*00\r\n" + encode(Ack(4))[:5]) == [("ACK", ["3"])]
    assert reader.bad == 2
    assert reader.feed(encode(Ack(4))[5:]) == [("ACK", ["4"])]


# -- MicroPython subset ------------------------------------------------------------------------------------------
FORBIDDEN_MODULES = {"dataclasses", "typing", "enum", "functools", "operator", "re", "threading", "abc", "__future__"}


@pytest.mark.parametrize("name", ["bridgecore.py", "dice_pad_main.py", "tile_reader_main.py"])
def test_firmware_sources_keep_to_what_micropython_offers(name):
    source = (FIRMWARE / name).read_text(encoding="utf-8")
    tree = ast.parse(source)
    problems = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            problems.append(f"{node.lineno}: f-string")
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            problems += [f"{node.lineno}: imports {n}" for n in names if n.split(".")[0] in FORBIDDEN_MODULES]
        if isinstance(node, ast.Attribute) and node.attr in (
            "hex",
            "translate",
            "fromhex",
            "removeprefix",
            "removesuffix",
            "isascii",
        ):
            problems.append(f"{node.lineno}: .{node.attr}()")
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if node.returns or any(a.annotation for a in node.args.args + node.args.kwonlyargs):
                problems.append(f"{node.lineno}: annotations")
        if isinstance(node, (ast.AnnAssign, ast.NamedExpr, ast.Match)):
            problems.append(f"{node.lineno}: {type(node).__name__}")
    assert problems == []
    if name != "bridgecore.py":
        assert "NOT RUN ON REAL HARDWARE" in source
        imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        assert {"machine", "bridgecore"} <= imported


def test_the_readme_says_honestly_what_has_run():
    text = (FIRMWARE / "README.md").read_text(encoding="utf-8")
    assert "None of this has run on real hardware" in text
    assert "not been run under MicroPython" in text


def test_pump_feeds_every_waiting_byte_to_the_core():
    """The firmware mains' serial loop (bridgecore.pump) under CPython, with a fake poller and stream."""
    import io

    from firmware_bridge.firmware import bridgecore

    class Poller:
        def __init__(self, stream):
            self.stream = stream

        def poll(self, timeout):
            return self.stream.tell() < len(self.stream.getvalue())

    class Core:
        def __init__(self):
            self.fed = b""

        def feed(self, data, now):
            self.fed += data

    stream, core = io.BytesIO(b"$PING,1*XX\r\n"), Core()
    bridgecore.pump(Poller(stream), stream, core, 0)
    assert core.fed == b"$PING,1*XX\r\n"
