"""A simulated dice or tile reader on a pseudo-terminal, speaking the protocol like the real firmware.

The device logic is the reference firmware's own pure core
(:class:`firmware_bridge.firmware.bridgecore.DeviceCore`); this module only adds the pseudo-terminal,
a clock and a thread. The host opens :attr:`DeviceSimulator.port` like any serial port.

* at every plug-in it "boots": for ``hello_delay`` seconds it writes boot noise (junk bytes, a half
  frame, a frame with a bad checksum), then repeats HELLO every 0.5 s until the host answers;
* then heartbeats every second, and each result (``roll``, ``place``, ``remove``) re-sent every 0.5 s
  until acknowledged;
* ``unplug()`` closes the pseudo-terminal (the host's reads fail, the path disappears);
  ``replug()`` makes a new one - a fresh boot by default (new boot id, results not yet acknowledged
  are lost, as on a power cycle), or ``replug(reset=False)`` keeping them (a self-powered board);
* ``link``: a path kept pointing at the current pseudo-terminal (as udev keeps
  ``/dev/serial/by-id/...``): removed on unplug, re-pointed on replug.

Interactive (``companion bridge-sim`` or ``python -m firmware_bridge.simulator``)::

    python -m firmware_bridge.simulator [--kind dice|tiles] [--script FILE] [--link PATH]

prints the port's path, then reads commands from the script file (if any) and then standard input:
``roll 3 5``, ``place 1 04A1B2C3``, ``remove 1``, ``unplug``, ``replug [keep]``, ``noise [N]``,
``sleep SECONDS``, ``wait [SECONDS]`` (until every result is acknowledged), ``status``, ``help``,
``quit``. Lines starting with ``#`` are comments.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import random
import select
import sys
import threading
import time
import tty
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TextIO

from firmware_bridge.firmware import bridgecore
from firmware_bridge.protocol import FrameParser

_BOOT_NOISE = (
    b"\x00\xff\xfe\x80",
    b"\r\nRP2040 boot rom v3 ... MicroPython v1.22.2\r\n",
    b"$HELLO,1,di",  # a half frame, cut by the reset
    b"$DICE,1,2,3,4*00\r\n",  # a bad checksum
    b">>> \x1b[0m\r\n",
)


def _now_ms() -> int:
    return int(time.monotonic() * 1000)


class DeviceSimulator:
    """A reader on a pseudo-terminal (see the module docstring).

    ``kind``: ``"dice"`` or ``"tiles"``; ``uid``: the HELLO's device id (default ``SIM-DICE-xxxx``);
    ``slots``: tile slots (tiles only); ``hello_delay``: seconds of boot noise before the first HELLO
    at each plug-in; ``noise``: write boot noise during that delay; ``link``: see the module docstring;
    ``seed``: for the boot ids and noise. All methods are thread-safe. The simulator is a context
    manager; ``close()`` is safe to call twice.

    For tests it records what the host sent: :attr:`host_frames` (``(monotonic time, type, fields)``),
    :attr:`host_bytes` (raw), :attr:`first_host_byte_at` and :attr:`first_hello_at` (monotonic seconds,
    for the current plug-in).
    """

    def __init__(
        self,
        kind: str = "dice",
        *,
        uid: str | None = None,
        firmware: str = "sim-1.0",
        slots: int = 4,
        hello_delay: float = 0.0,
        noise: bool = True,
        link: str | os.PathLike | None = None,
        seed: int | None = None,
    ) -> None:
        if kind not in ("dice", "tiles"):
            raise ValueError(f"a simulated reader is dice or tiles, not {kind!r}")
        self.kind = kind
        self._random = random.Random(seed)
        self.uid = uid or f"SIM-{kind.upper()}-{self._random.randrange(16**4):04X}"
        self.firmware = firmware
        self.slots = slots
        self.hello_delay = hello_delay
        self.noise = noise
        self.link = os.fspath(link) if link is not None else None
        self._lock = threading.RLock()
        self._master: int | None = None
        self._slave: int | None = None
        self.path: str | None = None
        self.core: bridgecore.DeviceCore | None = None
        self._present: dict[int, str] = {}
        self._boot_until = 0.0
        self._next_noise = 0.0
        self._closing = threading.Event()
        self._thread: threading.Thread | None = None
        self._host_parser = FrameParser(accept="host")
        self.host_frames: list[tuple[float, str, list[str]]] = []
        self.host_bytes = bytearray()
        self.first_host_byte_at: float | None = None
        self.first_hello_at: float | None = None
        self.plugged_at: float | None = None
        self.dropped_writes = 0
        self.plugs = 0

    # -- life cycle --------------------------------------------------------------------------------------
    def start(self) -> DeviceSimulator:
        """Plug in (create the pseudo-terminal, boot) and start the device thread; returns self."""
        with self._lock:
            if self._thread is None:
                self._plug(reset=True)
                self._thread = threading.Thread(target=self._run, name=f"sim-{self.kind}", daemon=True)
                self._thread.start()
        return self

    def close(self) -> None:
        """Unplug and stop the thread. Safe to call twice."""
        self._closing.set()
        thread = self._thread
        if thread is not None:
            thread.join(2.0)
            self._thread = None
        self.unplug()

    def __enter__(self) -> DeviceSimulator:
        return self.start()

    def __exit__(self, *exc_info) -> None:
        self.close()

    @property
    def port(self) -> str | None:
        """What the host should open: the link if one was given, else the pseudo-terminal's path."""
        return self.link if self.link is not None else self.path

    @property
    def plugged(self) -> bool:
        """True while the pseudo-terminal exists."""
        return self._master is not None

    def _plug(self, reset: bool) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no newline translation
        flags = fcntl.fcntl(master, fcntl.F_GETFL)
        fcntl.fcntl(master, fcntl.F_SETFL, flags | os.O_NONBLOCK)
        now = time.monotonic()
        self._master, self._slave, self.path = master, slave, os.ttyname(slave)
        if reset or self.core is None:
            boot = f"{self._random.randrange(16**4):04X}"
            caps = "dice=10;keypad" if self.kind == "dice" else f"slots={self.slots}"
            self.core = bridgecore.DeviceCore(
                self.kind, self.uid, boot, self.firmware, caps, now=_now_ms() + int(self.hello_delay * 1000)
            )
        else:
            self.core.lost_host()
        self._host_parser = FrameParser(accept="host")
        self._boot_until = now + self.hello_delay
        self._next_noise = now
        self.first_host_byte_at = None
        self.first_hello_at = None
        self.plugged_at = now
        self.plugs += 1
        if self.link is not None:
            temporary = f"{self.link}.{os.getpid()}.tmp"
            if os.path.lexists(temporary):
                os.unlink(temporary)
            os.symlink(self.path, temporary)
            os.replace(temporary, self.link)

    def unplug(self) -> None:
        """Pull the cable: close the pseudo-terminal (and remove the link). Safe when already unplugged."""
        with self._lock:
            for fd in (self._master, self._slave):
                if fd is not None:
                    try:
                        os.close(fd)
                    except OSError:
                        pass
            old_path = self.path
            self._master = self._slave = None
            self.path = None
            if self.link is not None and old_path is not None:
                try:
                    if os.readlink(self.link) == old_path:
                        os.unlink(self.link)
                except OSError:
                    pass

    @property
    def _core(self) -> bridgecore.DeviceCore:
        """The device logic; the first :meth:`_plug` makes it (it then lives across unplugs)."""
        if self.core is None:
            raise RuntimeError("the simulated device has never been plugged in")
        return self.core

    def replug(self, reset: bool = True) -> str:
        """Plug in again on a new pseudo-terminal; returns its path. ``reset=True`` is a power-up: a new
        boot id, sequence numbers from 1, unacknowledged results and tags forgotten (the tags still on the
        board are reported again). ``reset=False`` keeps the session's queue (re-sent after the new HELLO)."""
        with self._lock:
            self.unplug()
            self._plug(reset=reset)
            assert self.path is not None  # _plug made the pseudo-terminal
            return self.path

    # -- what the "player" does --------------------------------------------------------------------------------
    def roll(self, *values: int) -> int | None:
        """Report a dice reading (1 to 10 faces, each 1..6). Returns its sequence number, or None if 8
        results already await acknowledgement. Raises ValueError for impossible faces or on a tile reader."""
        if self.kind != "dice":
            raise ValueError("a tile reader does not roll dice")
        with self._lock:
            return self._core.report_dice(list(values), _now_ms())

    def place(self, slot: int, uid: str) -> int | None:
        """Put tag ``uid`` (hex) on ``slot``; a tag already there is reported removed first. Returns the
        sequence number (None if the same tag was already there or the queue is full). Raises ValueError
        on a dice reader, for a slot outside 1..slots or a malformed UID."""
        if self.kind != "tiles":
            raise ValueError("a dice reader has no tile slots")
        if not 1 <= slot <= self.slots:
            raise ValueError(f"slots are 1..{self.slots}, not {slot}")
        uid = uid.upper()
        if len(uid) not in (8, 14, 20) or any(c not in "0123456789ABCDEF" for c in uid):
            raise ValueError(f"a tag UID is 8, 14 or 20 hex digits, not {uid!r}")
        with self._lock:
            now = _now_ms()
            old = self._present.get(slot)
            if old == uid:
                return None
            if old is not None:
                self._core.report_tile(False, slot, old, now)
            self._present[slot] = uid
            return self._core.report_tile(True, slot, uid, now)

    def remove(self, slot: int) -> int | None:
        """Take the tag off ``slot`` (None if the slot was empty). ValueError on a dice reader."""
        if self.kind != "tiles":
            raise ValueError("a dice reader has no tile slots")
        with self._lock:
            uid = self._present.pop(slot, None)
            return None if uid is None else self._core.report_tile(False, slot, uid, _now_ms())

    def write_raw(self, data: bytes) -> None:
        """Write bytes as they are (noise, hand-made frames) - tests and the ``noise`` command."""
        with self._lock:
            self._write(data)

    # -- observation ------------------------------------------------------------------------------------------
    @property
    def pending(self) -> int:
        """Results not yet acknowledged by the host."""
        with self._lock:
            return len(self.core.queue) if self.core else 0

    @property
    def heard(self) -> bool:
        """True while the host has answered recently (the device sends HB rather than HELLO)."""
        with self._lock:
            return bool(self.core and self.core.heard(_now_ms()))

    def host_types(self) -> list[str]:
        """The types of the frames the host sent, oldest first (``["PING", "ACK", ...]``)."""
        with self._lock:
            return [t for _, t, _ in self.host_frames]

    def wait_for(self, condition: Callable[[], bool], timeout: float = 10.0, step: float = 0.02) -> bool:
        """Poll ``condition`` until it is true or ``timeout`` seconds pass; return its last value."""
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() >= deadline:
                return bool(condition())
            time.sleep(step)
        return True

    # -- the device thread -----------------------------------------------------------------------------------------
    def _write(self, data: bytes) -> None:
        if self._master is None:
            return
        try:
            os.write(self._master, data)
        except BlockingIOError:
            self.dropped_writes += 1  # nobody reads: the bytes are lost, as on a real cable
        except OSError:
            self.dropped_writes += 1

    def _run(self) -> None:
        while not self._closing.is_set():
            master = self._master
            if master is None:
                time.sleep(0.02)
                continue
            try:
                readable, _, _ = select.select([master], [], [], 0.02)
            except (OSError, ValueError):  # closed by unplug() meanwhile
                continue
            with self._lock:
                if self._master != master:
                    continue
                now = time.monotonic()
                if readable:
                    try:
                        data = os.read(master, 4096)
                    except OSError:
                        data = b""
                    if data:
                        self._heard_bytes(data, now)
                if now < self._boot_until:
                    if self.noise and now >= self._next_noise:
                        self._write(self._random.choice(_BOOT_NOISE))
                        self._next_noise = now + 0.1
                    continue
                core = self._core
                if core.new_session:
                    core.new_session = False
                    if self.kind == "tiles":
                        for slot, uid in sorted(self._present.items()):
                            core.report_tile(True, slot, uid, _now_ms())
                for line in core.poll(_now_ms()):
                    if line.startswith(b"$HELLO") and self.first_hello_at is None:
                        self.first_hello_at = time.monotonic()
                    self._write(line)

    def _heard_bytes(self, data: bytes, now: float) -> None:
        if self.first_host_byte_at is None:
            self.first_host_byte_at = now
        self.host_bytes += data
        for message in self._host_parser.feed(data):
            type_ = type(message).__name__
            name = {"Ping": "PING", "Ack": "ACK", "Setting": "SET"}.get(type_, type_)
            self.host_frames.append((now, name, [str(v) for v in vars(message).values()]))
        if now >= self._boot_until:
            self._core.feed(data, _now_ms())


# -- interactive use ---------------------------------------------------------------------------------------------
HELP = """commands:
  roll 3 5            report a dice reading (1 to 10 faces, 1..6)
  place 1 04A1B2C3    put a tag on a slot (tiles)
  remove 1            take the tag off a slot (tiles)
  unplug              close the pseudo-terminal
  replug [keep]       a new pseudo-terminal (a fresh boot; 'keep' keeps unacknowledged results)
  noise [N]           write N random bytes (default 32, at most 65,536)
  sleep SECONDS       pause (scripts)
  wait [SECONDS]      wait until every result is acknowledged (default 10 s)
  status              what the device is doing
  quit                stop"""


def _whole(word: str) -> int:
    """``word`` as a whole number; ValueError in words ("'abc' is not a whole number")."""
    try:
        return int(word)
    except ValueError:
        raise ValueError(f"{word!r} is not a whole number") from None


#: The longest pause a command or option takes (s): a day; a longer one is a typing slip (1e12 overflowed).
LONGEST_S = 86_400.0
#: The most noise bytes one ``noise`` command writes.
MOST_NOISE = 65_536


def _seconds(word: str) -> float:
    """``word`` as a number of seconds from 0 to :data:`LONGEST_S`; ValueError in words."""
    try:
        value = float(word)
    except ValueError:
        raise ValueError(f"{word!r} is not a number of seconds") from None
    if not value >= 0:  # NaN too
        raise ValueError(f"{word!r}: seconds cannot be negative")
    if value > LONGEST_S:
        raise ValueError(f"{word!r}: at most {LONGEST_S:,.0f} seconds (a day)")
    return value


def _noise_count(word: str) -> int:
    """``word`` as a number of noise bytes from 0 to :data:`MOST_NOISE`; ValueError in words."""
    count = _whole(word)
    if not 0 <= count <= MOST_NOISE:
        raise ValueError(f"{word!r}: from 0 to {MOST_NOISE:,} bytes")
    return count


def _execute(sim: DeviceSimulator, line: str, out: TextIO) -> bool:
    """Run one command line; return False for quit."""
    words = line.split()
    if not words or words[0].startswith("#"):
        return True
    command, args = words[0].lower(), words[1:]
    try:
        if command in ("quit", "exit"):
            return False
        if command == "help":
            print(HELP, file=out)
        elif command == "roll":
            seq = sim.roll(*(_whole(a) for a in args))
            print(
                f"rolled {' '.join(args)}" + (f" (seq {seq})" if seq else " - refused: 8 results await an ACK"),
                file=out,
            )
        elif command == "place":
            slot, uid = _whole(args[0]), args[1]
            seq = sim.place(slot, uid)
            print(f"placed {uid.upper()} on slot {slot}" + (f" (seq {seq})" if seq else ""), file=out)
        elif command == "remove":
            seq = sim.remove(_whole(args[0]))
            print(f"removed slot {args[0]}" + (f" (seq {seq})" if seq else " - it was empty"), file=out)
        elif command == "unplug":
            sim.unplug()
            print("unplugged", file=out)
        elif command == "replug":
            path = sim.replug(reset=not (args and args[0] == "keep"))
            print(f"plugged in again: {sim.port}" + (f" -> {path}" if sim.link else ""), file=out)
        elif command == "noise":
            count = _noise_count(args[0]) if args else 32
            sim.write_raw(bytes(random.randrange(256) for _ in range(count)))
            print(f"wrote {count} noise bytes", file=out)
        elif command == "sleep":
            time.sleep(_seconds(args[0]))
        elif command == "wait":
            limit = _seconds(args[0]) if args else 10.0
            done = sim.wait_for(lambda: sim.pending == 0, limit)
            print("all results acknowledged" if done else f"still {sim.pending} unacknowledged", file=out)
        elif command == "status":
            print(
                f"{sim.kind} {sim.uid} on {sim.port or '(unplugged)'}; host "
                f"{'heard' if sim.heard else 'not heard'}; {sim.pending} unacknowledged",
                file=out,
            )
        else:
            print(f"unknown command {command!r} (try help)", file=out)
    except (ValueError, IndexError) as error:
        print(f"? {line.strip()}: {error or 'missing argument'}", file=out)
    out.flush()
    return True


def _argument(convert):
    """An argparse ``type`` from a converter that raises ValueError in words (its words are the message)."""

    def parse(text: str):
        try:
            return convert(text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    return parse


@_argument
def _positive_whole(text: str) -> int:
    value = _whole(text)
    if value < 1:
        raise ValueError(f"{text!r}: must be 1 or more")
    return value


def _link_problem(link: Path) -> str:
    """Why the simulator may not keep a symbolic link at ``link`` ("" if it may): only a missing path or an
    existing symbolic link (one left by an earlier run) is replaced; a file or a folder never is."""
    if link.is_symlink():
        return ""
    if link.exists():
        kind = "a folder" if link.is_dir() else "a file"
        return f"{kind} is there, not a symbolic link: it is not replaced (give a new path)"
    if not link.parent.is_dir():
        return f"the folder {link.parent} does not exist"
    return ""


def run_cli(argv: list[str] | None = None, *, stdin: Iterable[str] | None = None, out: TextIO | None = None) -> int:
    """``companion bridge-sim`` / ``python -m firmware_bridge.simulator``; returns the exit code."""
    parser = argparse.ArgumentParser(
        prog="companion bridge-sim", description="A simulated dice or tile reader on a pseudo-terminal."
    )
    parser.add_argument("--kind", choices=("dice", "tiles"), default="dice")
    parser.add_argument("--script", type=Path, help="run these commands first (a UTF-8 text file)")
    parser.add_argument(
        "--link",
        type=Path,
        help="keep this path (a symbolic link) pointing at the pseudo-terminal; an existing file there that is "
        "not a symbolic link is never replaced",
    )
    parser.add_argument("--uid", help="the device id in the HELLO")
    parser.add_argument("--slots", type=_positive_whole, default=4, help="tile slots (tiles; 1 or more)")
    parser.add_argument(
        "--hello-delay", type=_argument(_seconds), default=0.5, help="seconds of boot noise before the HELLO"
    )
    args = parser.parse_args(argv)
    script: list[str] = []
    if args.script is not None:
        try:
            script = args.script.read_text(encoding="utf-8").splitlines(keepends=True)
        except OSError as error:
            parser.error(f"cannot read the script {args.script}: {error.strerror or error}")
        except UnicodeDecodeError:
            parser.error(f"the script {args.script} is not UTF-8 text")
    if args.link is not None:
        problem = _link_problem(args.link)
        if problem:
            parser.error(f"--link {args.link}: {problem}")
    out = out or sys.stdout
    sim = DeviceSimulator(
        args.kind, uid=args.uid, slots=args.slots, hello_delay=args.hello_delay, link=args.link
    ).start()
    try:
        print(
            f"{args.kind} reader simulator {sim.uid} on {sim.path}" + (f" (link {sim.link})" if sim.link else ""),
            file=out,
        )
        print("type help for the commands", file=out)
        out.flush()
        lines: list[Iterable[str]] = [script, stdin if stdin is not None else sys.stdin]
        for source in lines:
            for line in source:
                if not _execute(sim, line, out):
                    return 0
    except KeyboardInterrupt:
        pass
    finally:
        sim.close()
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(run_cli())
