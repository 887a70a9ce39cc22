"""The device simulator: its boot noise, its own commands, and the interactive / scripted CLI."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from firmware_bridge.protocol import DiceResult, FrameParser, Hello, encode_ack, encode_ping
from firmware_bridge.reader import ReaderConnection, ReaderSpec
from firmware_bridge.simulator import DeviceSimulator, run_cli

REPO = Path(__file__).resolve().parent.parent


def wait_until(condition, timeout: float = 15.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return bool(condition())


def read_device(sim: DeviceSimulator, fd: int, seconds: float) -> bytes:
    deadline, got = time.monotonic() + seconds, b""
    while time.monotonic() < deadline:
        try:
            got += os.read(fd, 4096)
        except BlockingIOError:
            time.sleep(0.02)
    return got


def open_host_side(path: str) -> int:
    fd = os.open(path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    return fd


def test_the_simulator_boots_noisily_then_says_hello_until_answered():
    with DeviceSimulator("dice", uid="SIM-X", hello_delay=0.5, seed=3) as sim:
        fd = open_host_side(sim.path)
        try:
            got = read_device(sim, fd, 1.6)
            parser = FrameParser()
            messages = parser.feed(got)
            assert parser.stats.junk_bytes > 0 or parser.stats.rejected > 0  # boot noise came first
            hellos = [m for m in messages if isinstance(m, Hello)]
            assert len(hellos) >= 1 and hellos[0].uid == "SIM-X" and hellos[0].capability("dice") == "10"
            assert sim.first_hello_at - sim.plugged_at >= 0.5
            os.write(fd, encode_ping())
            assert wait_until(lambda: sim.heard)
            sim.roll(1, 6)
            later = FrameParser().feed(read_device(sim, fd, 1.3))
            assert later.count(DiceResult(1, (1, 6))) >= 2  # re-sent until acknowledged
            os.write(fd, encode_ack(1))
            assert wait_until(lambda: sim.pending == 0)
            assert sim.host_types() == ["PING", "ACK"]
        finally:
            os.close(fd)


def test_tiles_placed_swapped_removed_and_reported_again_after_a_reset(tmp_path):
    link = tmp_path / "tiles"
    with DeviceSimulator("tiles", uid="T", hello_delay=0.1, slots=4, link=link) as sim:
        events = []
        conn = ReaderConnection(
            ReaderSpec(kind="tiles", path=str(link)), on_tile=events.append, settle_s=0.2, poll_s=0.1
        ).start()
        try:
            assert wait_until(lambda: conn.status.connected)
            # The device re-reports every tile on it when it first hears a host (bridgecore's new_session: "a
            # new listener"); the host is connected once it has HELLO, perhaps before the device has read the
            # host's first frame, so a tile placed in between would be reported twice. Place once it has heard.
            assert wait_until(lambda: sim.heard)
            sim.place(2, "04a1b2c3")
            sim.place(2, "04A1B2C4")  # another tile on the same slot
            assert sim.remove(3) is None  # nothing there
            sim.remove(2)
            sim.place(4, "04A1B2C5")
            assert wait_until(lambda: len(events) == 5)
            assert [(e.placed, e.slot, e.uid) for e in events] == [
                (True, 2, "04A1B2C3"),
                (False, 2, "04A1B2C3"),
                (True, 2, "04A1B2C4"),
                (False, 2, "04A1B2C4"),
                (True, 4, "04A1B2C5"),
            ]
            assert wait_until(lambda: conn.placed() == {4: "04A1B2C5"})
            sim.unplug()
            sim.replug(reset=True)  # the board restarts; the tile is still on it
            assert wait_until(lambda: len(events) == 6)
            assert (events[5].placed, events[5].slot, events[5].uid) == (True, 4, "04A1B2C5")
            assert wait_until(lambda: conn.placed() == {4: "04A1B2C5"})
        finally:
            conn.stop()


def test_cli_commands_through_run_cli():
    out = io.StringIO()
    commands = [
        "help",
        "# a comment",
        "status",
        "roll 3 5",
        "roll 9",
        "roll",
        "place 1 04A1B2C3",
        "noise 4",
        "bogus",
        "unplug",
        "status",
        "replug keep",
        "wait 0.1",
        "replug",
        "wait 0.1",
        "quit",
        "roll 1",
    ]
    assert run_cli(["--kind", "dice", "--hello-delay", "0"], stdin=commands, out=out) == 0
    text = out.getvalue()
    assert text.startswith("dice reader simulator ") and "/dev/pts/" in text.splitlines()[0]
    assert "rolled 3 5 (seq 1)" in text
    assert "? roll 9" in text and "? place 1 04A1B2C3" in text  # a dice reader has no slots
    assert "unknown command 'bogus'" in text and "wrote 4 noise bytes" in text
    assert "(unplugged)" in text and "plugged in again" in text and "still 1 unacknowledged" in text
    assert text.rstrip().endswith("all results acknowledged")  # a fresh boot forgets them
    assert "rolled 1" not in text  # after quit


def _typed(commands: list[str]) -> str:
    """What a dice reader simulator answers to ``commands`` typed one by one, then quit (it must exit 0)."""
    out = io.StringIO()
    assert run_cli(["--kind", "dice", "--hello-delay", "0"], stdin=[*commands, "quit"], out=out) == 0
    return out.getvalue()


def test_cli_words_for_bad_numbers():
    """A mistyped number in a command is answered in words, not with Python's ("invalid literal for int()")."""
    text = _typed(["roll 3 abc", "sleep x", "wait -1", "noise many"])
    assert "? roll 3 abc: 'abc' is not a whole number" in text
    assert "? sleep x: 'x' is not a number of seconds" in text
    assert "? wait -1: '-1': seconds cannot be negative" in text
    assert "? noise many: 'many' is not a whole number" in text
    assert "invalid literal" not in text and "could not convert" not in text


@pytest.mark.parametrize(
    ("options", "words"),
    [
        (["--kind", "tiles", "--slots", "-3"], "argument --slots: '-3': must be 1 or more"),
        (["--kind", "tiles", "--slots", "0"], "argument --slots: '0': must be 1 or more"),
        (["--hello-delay", "-1"], "argument --hello-delay: '-1': seconds cannot be negative"),
    ],
)
def test_cli_refuses_impossible_options(options, words, capsys):
    with pytest.raises(SystemExit) as caught:
        run_cli(options, stdin=["quit"], out=io.StringIO())
    assert caught.value.code == 2 and words in capsys.readouterr().err


def test_cli_link_never_replaces_a_file_or_a_folder(tmp_path, capsys):
    """`--link PATH` keeps a symbolic link to the pseudo-terminal there: a file or a folder already at PATH is
    refused and left as it was (it once was replaced, then deleted at quit); a missing folder is named; a stale
    link from an earlier run is replaced, and removed at quit."""
    precious = tmp_path / "precious.txt"
    precious.write_text("precious data")
    folder = tmp_path / "folder"
    folder.mkdir()
    for link, words in (
        (precious, "a file is there, not a symbolic link: it is not replaced"),
        (folder, "a folder is there, not a symbolic link: it is not replaced"),
        (tmp_path / "no" / "link", f"the folder {tmp_path / 'no'} does not exist"),
    ):
        with pytest.raises(SystemExit) as caught:
            run_cli(["--link", str(link)], stdin=["quit"], out=io.StringIO())
        assert caught.value.code == 2 and words in capsys.readouterr().err
    assert precious.read_text() == "precious data" and folder.is_dir() and not list(folder.iterdir())
    assert not list(tmp_path.glob("*.tmp"))
    stale = tmp_path / "usb-sim"
    stale.symlink_to("/dev/pts/9999")
    out = io.StringIO()
    assert run_cli(["--link", str(stale), "--hello-delay", "0"], stdin=["status", "quit"], out=out) == 0
    assert f"(link {stale})" in out.getvalue() and not stale.is_symlink()


def test_cli_script_that_is_not_text_or_missing(tmp_path, capsys):
    binary = tmp_path / "script.txt"
    binary.write_bytes(b"roll 1\n\xff\xfe")
    for script, words in (
        (binary, f"the script {binary} is not UTF-8 text"),
        (tmp_path / "missing.txt", f"cannot read the script {tmp_path / 'missing.txt'}: No such file or directory"),
    ):
        with pytest.raises(SystemExit) as caught:
            run_cli(["--script", str(script)], stdin=["quit"], out=io.StringIO())
        assert caught.value.code == 2 and words in capsys.readouterr().err


def test_scripted_simulator_as_a_process_with_a_reader(tmp_path):
    link = tmp_path / "usb-sim-dice"
    script = tmp_path / "script.txt"
    script.write_text("# roll twice, then wait for the host\nroll 2 2\nroll 6 1 4\nwait 20\nquit\n")
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "firmware_bridge.simulator",
            "--script",
            str(script),
            "--link",
            str(link),
            "--hello-delay",
            "0.2",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        cwd=str(REPO),
    )
    readings = []
    try:
        first = process.stdout.readline()
        assert first.startswith("dice reader simulator") and str(link) in first
        conn = ReaderConnection(
            ReaderSpec(kind="dice", path=str(link)), on_dice=readings.append, settle_s=0.2, poll_s=0.1
        ).start()
        try:
            output, errors = process.communicate(timeout=60)
        finally:
            conn.stop()
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, errors
    assert "all results acknowledged" in output
    assert [r.values for r in readings] == [(2, 2), (6, 1, 4)]
    assert not link.exists()  # the link goes with the simulator


def test_cli_bounds_pauses_and_noise():
    """``sleep 1e12`` overflowed and ended the simulator, ``noise 99999999999`` hung writing, ``noise -5`` said
    it wrote -5 bytes: each is now answered in words, and the simulator goes on."""
    text = _typed(["sleep 1e12", "wait 1e308", "noise 99999999999", "noise -5", "noise 3"])
    assert "? sleep 1e12: '1e12': at most 86,400 seconds (a day)" in text
    assert "? wait 1e308: '1e308': at most 86,400 seconds (a day)" in text
    assert "? noise 99999999999: '99999999999': from 0 to 65,536 bytes" in text
    assert "? noise -5: '-5': from 0 to 65,536 bytes" in text
    assert "wrote 3 noise bytes" in text and "wrote -5" not in text


def test_cli_refuses_a_boot_delay_beyond_a_day(capsys):
    with pytest.raises(SystemExit) as caught:
        run_cli(["--hello-delay", "1e308"], stdin=["quit"], out=io.StringIO())  # was OverflowError
    words = "argument --hello-delay: '1e308': at most 86,400 seconds"
    assert caught.value.code == 2 and words in capsys.readouterr().err
