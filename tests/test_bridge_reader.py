"""Reader connections over real pseudo-terminals: no hardware, real pyserial, real threads.

Unplugging is closing the pseudo-terminal; replugging is making a new one; a ``/dev/serial/by-id``
link is a symbolic link in ``tmp_path``. Timing: conditions are polled with generous timeouts; the only
time limits asserted are the issue's own (an unplug noticed within 2 s, ``stop()`` within 1 s).
"""

from __future__ import annotations

import logging
import os
import select
import threading
import time
import tty

import pytest

from companion.dice import DiceReaderPort
from companion.errors import ReaderBusy
from firmware_bridge.dice_match import RollTray
from firmware_bridge.protocol import DiceResult, FrameParser, Hello, encode
from firmware_bridge.reader import DiceReading, ReaderConnection, ReaderSpec, deliver_to, open_port, probe_reader
from firmware_bridge.service import ReaderService
from firmware_bridge.simulator import DeviceSimulator

FAST = dict(settle_s=0.2, poll_s=0.1)


def wait_until(condition, timeout: float = 15.0, step: float = 0.02) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(step)
    return bool(condition())


@pytest.fixture
def cleanup():
    """Close whatever a test registers, in reverse order, even when it fails."""
    items = []
    yield items.append
    for item in reversed(items):
        try:
            item.stop() if hasattr(item, "stop") else item.close()
        except Exception:
            pass


class RawPty:
    """A pseudo-terminal the test drives byte by byte (the device side)."""

    def __init__(self):
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.received = b""

    def write(self, data: bytes) -> None:
        os.write(self.master, data)

    def read_for(self, seconds: float) -> bytes:
        """Everything the host writes during the next ``seconds``."""
        deadline = time.monotonic() + seconds
        got = b""
        while (left := deadline - time.monotonic()) > 0:
            ready, _, _ = select.select([self.master], [], [], min(left, 0.05))
            if ready:
                got += os.read(self.master, 4096)
        self.received += got
        return got

    def read_until(self, predicate, timeout: float = 15.0) -> list:
        """Read until ``predicate(messages so far)`` holds; return the host's messages."""
        deadline = time.monotonic() + timeout
        while True:
            messages = FrameParser(accept="host").feed(self.received)
            if predicate(messages) or time.monotonic() > deadline:
                return messages
            self.read_for(0.05)

    def close(self) -> None:
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass


HELLO = encode(Hello(1, "dice", "RAW-1", "0001", "t", ()))


# -- hello gating ----------------------------------------------------------------------------------------------
def test_hello_gating_after_a_two_second_deaf_period(cleanup):
    pty = RawPty()
    cleanup(pty)
    readings = []
    conn = ReaderConnection(ReaderSpec(kind="dice", path=pty.path), on_dice=readings.append, poll_s=0.1)
    cleanup(conn)
    conn.start()
    assert wait_until(lambda: conn.opened_at is not None)
    opened = conn.opened_at
    # a board that resets on open: noise, then a HELLO and a result inside the deaf period
    pty.write(b"\x00\xffboot\r\n" + HELLO + encode(DiceResult(1, (1, 1))))
    time.sleep(max(0.0, opened + 2.3 - time.monotonic()))
    assert pty.read_for(0.05) == b"", "the host spoke before any HELLO it accepted"
    assert conn.status.state == "connecting"
    # after the deaf period, but still before a HELLO: frames are ignored, nothing is sent
    pty.write(encode(DiceResult(2, (2, 2))))
    assert pty.read_for(0.5) == b""
    assert readings == [] and conn.counters.before_hello == 1 and conn.counters.deaf_bytes > 0
    hello_written = time.monotonic()
    pty.write(HELLO)
    messages = pty.read_until(lambda m: m)
    assert type(messages[0]).__name__ == "Ping"
    assert wait_until(lambda: conn.status.connected)
    assert conn.first_frame_at >= hello_written
    pty.write(encode(DiceResult(3, (6, 5))))
    messages = pty.read_until(lambda m: any(type(x).__name__ == "Ack" for x in m))
    assert [x.seq for x in messages if type(x).__name__ == "Ack"] == [3]
    assert [r.values for r in readings] == [(6, 5)]


def connected_dice_reader(cleanup):
    """A dice reader on a raw pty, past its settle time and connected by a HELLO: (pty, conn, readings)."""
    pty = RawPty()
    cleanup(pty)
    readings = []
    conn = ReaderConnection(ReaderSpec(kind="dice", path=pty.path), on_dice=readings.append, **FAST)
    cleanup(conn.start())
    assert wait_until(lambda: conn.opened_at is not None)
    time.sleep(0.4)
    pty.write(HELLO)
    assert wait_until(lambda: conn.status.connected)
    return pty, conn, readings


def test_resent_dice_are_delivered_once_and_acknowledged_each_time(cleanup):
    pty, conn, readings = connected_dice_reader(cleanup)
    frame = encode(DiceResult(5, (4, 2)))
    pty.write(frame)
    pty.read_until(lambda m: sum(type(x).__name__ == "Ack" for x in m) >= 1)
    pty.write(frame + frame)  # the device missed the ACK and re-sends
    messages = pty.read_until(lambda m: sum(type(x).__name__ == "Ack" for x in m) >= 3)
    assert [x.seq for x in messages if type(x).__name__ == "Ack"] == [5, 5, 5]
    assert [r.values for r in readings] == [(4, 2)] and conn.counters.duplicates == 2


def test_a_flood_of_junk_never_kills_the_reader_thread(cleanup):
    pty, conn, readings = connected_dice_reader(cleanup)
    rng = __import__("random").Random(8)
    for i in range(40):
        pty.write(bytes(rng.randrange(256) for _ in range(1000)) + b"$DICE,1" + b"1" * 300)
        pty.read_for(0.005)
    pty.write(b"\r\n" + encode(DiceResult(77, (3,))))
    assert wait_until(lambda: readings)
    assert conn.running and conn.parser.stats.junk_bytes > 10_000 and conn.parser.stats.too_long >= 1
    assert [r.seq for r in readings] == [77]


# -- unplug, replug, re-pointed links --------------------------------------------------------------------------------
def test_unplug_is_noticed_the_port_closed_and_replug_resumes(tmp_path, cleanup):
    link = tmp_path / "usb-Tabletop_Dice_SIM-if00"
    sim = DeviceSimulator("dice", hello_delay=0.2, link=link, seed=1).start()
    cleanup(sim)
    statuses, readings = [], []
    conn = ReaderConnection(
        ReaderSpec(kind="dice", path=str(link)), on_dice=readings.append, on_status=statuses.append, **FAST
    )
    cleanup(conn.start())
    assert wait_until(lambda: conn.status.connected)
    sim.roll(3, 5)
    assert wait_until(lambda: readings) and wait_until(lambda: sim.pending == 0)
    unplugged = time.time()
    sim.unplug()
    assert wait_until(lambda: conn.status.state == "disconnected")
    status = conn.status
    assert status.text == "dice reader disconnected"
    assert status.since - unplugged < 2.0, "the unplug was not noticed within 2 s"
    assert wait_until(lambda: conn._transport is None)  # the port was closed
    time.sleep(0.5)
    assert conn.status.state == "disconnected" and conn.running  # still polling for it
    sim.replug()
    assert wait_until(lambda: conn.status.connected)
    sim.roll(6, 6)
    assert wait_until(lambda: len(readings) == 2)
    assert [r.values for r in readings] == [(3, 5), (6, 6)]
    assert "dice reader disconnected" in [s.text for s in statuses]
    assert conn.disconnects == 1 and conn.counters.sessions == 2


def test_a_result_not_acknowledged_before_the_unplug_arrives_once_after_the_replug(tmp_path, cleanup):
    link = tmp_path / "dice"
    sim = DeviceSimulator("dice", hello_delay=0.1, link=link, seed=2).start()
    cleanup(sim)
    readings = []
    conn = ReaderConnection(ReaderSpec(kind="dice", path=str(link)), on_dice=readings.append, **FAST)
    cleanup(conn.start())
    assert wait_until(lambda: conn.status.connected)
    sim.unplug()
    assert wait_until(lambda: conn.status.state == "disconnected")
    sim.roll(1, 2, 3)  # rolled while the cable is out
    sim.replug(reset=False)  # a self-powered board keeps its queue
    assert wait_until(lambda: readings) and wait_until(lambda: sim.pending == 0)
    time.sleep(1.2)  # more than two re-send periods
    assert [r.values for r in readings] == [(1, 2, 3)]


def test_a_by_id_link_re_pointed_to_a_new_pty_is_followed(tmp_path, cleanup):
    first = DeviceSimulator("dice", uid="BOARD-A", hello_delay=0.1).start()
    second = DeviceSimulator("dice", uid="BOARD-B", hello_delay=0.1).start()
    cleanup(first)
    cleanup(second)
    link = tmp_path / "usb-Tabletop_Dice-if00"
    os.symlink(first.path, link)
    conn = ReaderConnection(ReaderSpec(kind="dice", path=str(link)), **FAST)
    cleanup(conn.start())
    assert wait_until(lambda: conn.status.connected and conn.status.device.uid == "BOARD-A")
    assert conn.status.port == first.path
    temporary = tmp_path / "tmp-link"
    os.symlink(second.path, temporary)
    os.replace(temporary, link)  # udev re-points the link
    assert wait_until(lambda: conn.status.connected and conn.status.device.uid == "BOARD-B")
    assert conn.status.port == second.path
    # and once more through an unplug: the link vanishes, then points at a new pseudo-terminal
    os.unlink(link)
    first.replug()
    os.symlink(first.path, link)
    assert wait_until(lambda: conn.status.connected and conn.status.device.uid == "BOARD-A")


# -- exclusivity and identity -------------------------------------------------------------------------------------
def test_opening_a_port_twice_fails_loudly_naming_the_port(cleanup, caplog):
    pty = RawPty()
    cleanup(pty)
    port = open_port(pty.path)
    cleanup(port)
    with pytest.raises(ReaderBusy) as caught:
        open_port(pty.path)
    assert caught.value.port == pty.path and pty.path in str(caught.value)
    assert isinstance(caught.value, OSError)
    caplog.set_level(logging.ERROR, logger="firmware_bridge.reader")
    conn = ReaderConnection(ReaderSpec(kind="dice", path=pty.path), **FAST)
    cleanup(conn.start())
    assert wait_until(lambda: conn.status.state == "busy")
    assert pty.path in conn.status.text and "in use" in conn.status.text
    assert any(pty.path in r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR)
    port.close()  # the other program lets go: the reader gets it
    assert wait_until(lambda: conn.status.state == "connecting")


def test_two_connections_to_one_reader_the_second_is_busy(cleanup):
    sim = DeviceSimulator("dice", hello_delay=0.1).start()
    cleanup(sim)
    spec = ReaderSpec(kind="dice", path=sim.path)
    first = ReaderConnection(spec, **FAST)
    cleanup(first.start())
    assert wait_until(lambda: first.status.connected)
    second = ReaderConnection(spec, **FAST)
    cleanup(second.start())
    assert wait_until(lambda: second.status.state == "busy")
    assert sim.path in second.status.text and first.status.connected


def test_two_readers_keep_their_roles_whatever_order_they_appear_in(tmp_path, cleanup):
    dice_link, tiles_link = tmp_path / "by-id-dice", tmp_path / "by-id-tiles"
    tiles = DeviceSimulator("tiles", uid="TILES-1", hello_delay=0.1, link=tiles_link).start()  # appears first
    dice = DeviceSimulator("dice", uid="DICE-1", hello_delay=0.1, link=dice_link).start()
    cleanup(tiles)
    cleanup(dice)
    readings, events = [], []
    dice_conn = ReaderConnection(ReaderSpec(kind="dice", path=str(dice_link)), on_dice=readings.append, **FAST)
    tiles_conn = ReaderConnection(ReaderSpec(kind="tiles", path=str(tiles_link)), on_tile=events.append, **FAST)
    cleanup(dice_conn.start())
    cleanup(tiles_conn.start())
    assert wait_until(lambda: dice_conn.status.connected and tiles_conn.status.connected)
    # both unplugged, then plugged in the other order
    dice.unplug()
    tiles.unplug()
    assert wait_until(lambda: not dice_conn.status.connected and not tiles_conn.status.connected)
    dice.replug()
    tiles.replug()
    assert wait_until(lambda: dice_conn.status.connected and tiles_conn.status.connected)
    assert dice_conn.status.device.uid == "DICE-1" and tiles_conn.status.device.uid == "TILES-1"
    dice.roll(2, 4)
    tiles.place(1, "04a1b2c3")
    assert wait_until(lambda: readings and events)
    assert readings[0].device == "DICE-1" and events[0].device == "TILES-1"
    assert wait_until(lambda: tiles_conn.placed() == {1: "04A1B2C3"})


def test_two_readers_found_by_usb_serial_number_keep_their_roles(cleanup):
    class Info:
        def __init__(self, device, serial_number):
            self.device, self.vid, self.pid, self.serial_number = device, 0x2E8A, 0x000A, serial_number

    a = DeviceSimulator("dice", uid="A", hello_delay=0.1).start()
    b = DeviceSimulator("tiles", uid="B", hello_delay=0.1).start()
    cleanup(a)
    cleanup(b)
    calls = []

    def comports():  # the enumeration order changes on every call
        calls.append(1)
        ports = [Info(a.path, "SN-A"), Info(b.path, "SN-B")] if a.path and b.path else []
        return ports if len(calls) % 2 else list(reversed(ports))

    conn_a = ReaderConnection(
        ReaderSpec(kind="dice", vid=0x2E8A, pid=0x000A, serial_number="SN-A"), comports=comports, **FAST
    )
    conn_b = ReaderConnection(
        ReaderSpec(kind="tiles", vid=0x2E8A, pid=0x000A, serial_number="SN-B"), comports=comports, **FAST
    )
    cleanup(conn_a.start())
    cleanup(conn_b.start())
    assert wait_until(lambda: conn_a.status.connected and conn_b.status.connected)
    assert (conn_a.status.port, conn_b.status.port) == (a.path, b.path)


def test_a_reader_of_the_wrong_kind_is_refused_and_named(tmp_path, cleanup):
    sim = DeviceSimulator("tiles", uid="TILES-9", hello_delay=0.1).start()
    cleanup(sim)
    conn = ReaderConnection(ReaderSpec(kind="dice", path=sim.path), **FAST)
    cleanup(conn.start())
    assert wait_until(lambda: conn.status.state == "refused")
    assert "expected a dice reader, found a tiles reader (TILES-9)" in conn.status.detail
    time.sleep(0.5)
    assert sim.host_bytes == b""  # never answered


# -- stopping ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("situation", ["searching", "deaf", "connected"])
def test_stop_ends_the_thread_within_a_second(tmp_path, cleanup, situation):
    sim = DeviceSimulator("dice", hello_delay=0.1).start()
    cleanup(sim)
    path = str(tmp_path / "missing") if situation == "searching" else sim.path
    conn = ReaderConnection(ReaderSpec(kind="dice", path=path), settle_s=30.0 if situation == "deaf" else 0.2)
    conn.start()
    expected = {"searching": "searching", "deaf": "connecting", "connected": "connected"}[situation]
    assert wait_until(lambda: conn.status.state == expected)
    assert conn.stop(timeout=1.0), "the reader thread did not end within a second"
    assert not conn.running and conn.status.state == "stopped"
    assert conn.stop() is True  # twice is fine


def test_silence_reopens_the_port(cleanup):
    pty = RawPty()
    cleanup(pty)
    conn = ReaderConnection(ReaderSpec(kind="dice", path=pty.path), silence_s=0.6, **FAST)
    cleanup(conn.start())
    assert wait_until(lambda: conn.opened_at is not None)
    time.sleep(0.4)
    pty.write(HELLO)
    assert wait_until(lambda: conn.status.connected)
    assert wait_until(lambda: conn.counters.sessions >= 2)  # said nothing more: closed and re-opened


# -- into the table ------------------------------------------------------------------------------------------------
def test_a_roll_in_the_tray_answers_the_tables_request_and_is_journaled_as_reader(table, start_game, cleanup):
    game_id = start_game(table)  # TV Wars opens with a 2d6 roll-off, ABS first
    port = DiceReaderPort()
    tray = RollTray(port)
    service = ReaderService(dice_port=port, simulate_dice=True, settle_s=0.2)
    cleanup(service.start())
    assert wait_until(lambda: service.statuses()[0].connected)
    assert "connected" in service.status_text()
    service.simulator.roll(2, 5, 6)  # three dice for a 2d6 request: held, not used
    service.simulator.roll(4, 3)

    def drain():
        tray.poll(table.view().pending_dice, table.post)
        table.process_pending()
        return any(e.type == "dice_rolled" for e in table.journal.events(game_id))

    assert wait_until(drain)
    rolled = [e for e in table.journal.events(game_id) if e.type == "dice_rolled"]
    assert [(e.payload["roller"], e.payload["values"], e.payload["source"]) for e in rolled] == [
        ("ABS", [4, 3], "reader")
    ]
    (held,) = tray.held
    assert held.values == (2, 5, 6) and held.needs_confirmation
    faces = service.simulate_roll(2)  # the desktop's "roll into the reader" for CBA
    assert faces is not None

    def second_roll():
        drain()
        return len([e for e in table.journal.events(game_id) if e.type == "dice_rolled"]) == 2

    assert wait_until(second_roll)
    rolled = [e for e in table.journal.events(game_id) if e.type == "dice_rolled"]
    assert (rolled[1].payload["roller"], tuple(rolled[1].payload["values"])) == ("CBA", faces)
    assert service.stop(timeout=1.0)


def test_the_service_without_a_simulator_reports_missing_readers(tmp_path, cleanup):
    port = DiceReaderPort()
    service = ReaderService([ReaderSpec(kind="dice", path=str(tmp_path / "nope"))], dice_port=port, settle_s=0.2)
    cleanup(service.start())
    assert wait_until(lambda: service.statuses()[0].state == "searching")
    assert service.status_text().startswith("dice reader not found")
    assert service.simulate_roll(2) is None
    assert service.stop()


def test_deliver_to_puts_faces_into_the_port():
    port = DiceReaderPort()
    thread = threading.Thread(target=deliver_to(port), args=(DiceReading("X", 1, (2, 3), 0.0),))
    thread.start()
    thread.join()
    assert port.take() == (2, 3)


# -- self-test probe -------------------------------------------------------------------------------------------------
def test_probe_reader_for_the_self_test(tmp_path, cleanup):
    sim = DeviceSimulator("dice", uid="PROBE", hello_delay=0.1).start()
    cleanup(sim)
    sim.roll(5, 5)  # waiting in the board: the probe must not take it
    status, stats = probe_reader(ReaderSpec(kind="dice", path=sim.path), timeout=15, settle_s=0.2)
    assert status.connected and status.device.uid == "PROBE" and stats["frames"] >= 2
    assert stats["not_taken"] >= 1 and stats["acks_sent"] == 0 and sim.pending == 1
    status, _ = probe_reader(ReaderSpec(kind="tiles", path=sim.path), timeout=15, settle_s=0.2)
    assert status.state == "refused" and "found a dice reader" in status.detail
    status, _ = probe_reader(ReaderSpec(kind="dice", path=str(tmp_path / "absent")), timeout=0.5)
    assert status.state == "searching" and str(tmp_path / "absent") in status.text
