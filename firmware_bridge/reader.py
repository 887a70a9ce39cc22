"""Reader connections: one thread per serial reader, a pyserial transport and a pure protocol object.

Layout (as in ``serial.threaded``): :class:`ReaderSession` is the protocol object for one open port -
it is fed bytes and the time, decides what to send and what to deliver, and never touches the port
or a clock; :class:`ReaderConnection` is the transport: it finds the port by stable identity, opens
it exclusively, runs the read loop on its own thread, feeds the session, writes what it asks, and
turns every failure into a status instead of dying.

Behaviour (issue 8, PROTOCOL.md):

* the port is found by identity at every (re)connect: a configured path such as
  ``/dev/serial/by-id/usb-...`` (resolved each time, so a re-pointed link is followed) or USB
  VID/PID and serial number through ``serial.tools.list_ports``; two readers keep their roles;
* opened with ``exclusive=True``; a port that is already open fails loudly (:class:`ReaderBusy`,
  status ``busy`` naming the port, an error in the log);
* every open is a fresh session: for ``settle_s`` (2 s) everything received is ignored (the board may
  be resetting and printing boot noise), then frames are ignored until the device's HELLO; nothing
  at all is sent before that HELLO;
* dice results and tile events are delivered to the callbacks, then acknowledged; re-sent results
  are recognised by (device id, boot id, sequence number) and acknowledged again but not delivered
  twice - also across reconnects;
* an unplug (a read or write error, the path vanishing or re-pointed, 5 s without a frame) closes the
  port at once, sets the status (``"dice reader disconnected"``) and starts polling for the reader
  again every ``poll_s``; it resumes by itself;
* ``stop()`` ends the thread within a second.

Example::

    port = DiceReaderPort()
    reader = ReaderConnection(ReaderSpec(kind="dice", path="/dev/serial/by-id/usb-Tabletop_Dice_E661-if00"),
                              on_dice=deliver_to(port), on_status=print).start()
    ...
    reader.stop()
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from companion.config import reader_settings
from companion.dice import DiceReaderPort
from companion.errors import ReaderBusy, ReaderError
from firmware_bridge.protocol import (
    BAUD_RATE,
    DEVICE_KINDS,
    MAX_SLOTS,
    PROTOCOL_VERSION,
    DeviceError,
    DiceResult,
    FrameParser,
    Hello,
    TilePlaced,
    TileRemoved,
    encode_ack,
    encode_ping,
)

log = logging.getLogger("firmware_bridge.reader")

#: Seconds of deafness after opening a port (boot noise of a board that resets on open).
SETTLE_S = 2.0
#: Host keep-alive: a PING when nothing else was sent for this long (the device's HELLO stops while heard).
KEEPALIVE_S = 1.0
#: After the HELLO, this long without any frame means the reader hung: the port is closed and re-opened.
SILENCE_S = 5.0
#: How often a missing reader is looked for again, and how often an open port's path is re-checked.
POLL_S = 0.25
#: Read timeout of the port: the longest the thread waits before checking stop() and the timers.
READ_TIMEOUT_S = 0.1
WRITE_TIMEOUT_S = 0.5


# -- identity ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ReaderSpec:
    """How to find one reader and what it must be.

    ``kind``: ``"dice"`` or ``"tiles"`` (a reader announcing another kind is refused). Found by either
    ``path`` (a ``/dev/serial/by-id/...`` link, any device path, or a pyserial URL such as
    ``socket://...``) or USB identity: ``vid``/``pid`` (ints) and, to tell two identical boards apart,
    ``serial_number``. ``device_id``: if set, the HELLO's unique id must match. ``name`` is used in
    status lines (default ``"dice reader"`` / ``"tiles reader"``).
    """

    kind: str
    path: str | None = None
    vid: int | None = None
    pid: int | None = None
    serial_number: str | None = None
    device_id: str | None = None
    name: str = ""
    baudrate: int = BAUD_RATE

    def __post_init__(self) -> None:
        if self.kind not in DEVICE_KINDS:
            raise ValueError(f"a reader is dice or tiles, not {self.kind!r}")
        if not self.path and self.vid is None and self.pid is None and not self.serial_number:
            raise ValueError("a reader needs a path or a USB identity (vid, pid, serial_number)")

    @property
    def label(self) -> str:
        """``name`` or ``"<kind> reader"``, as used in status lines."""
        return self.name or f"{self.kind} reader"

    def identity(self) -> str:
        """What is looked for, in words: the path, or ``USB 2E8A:000A serial E661...``."""
        if self.path:
            return self.path
        parts = ["USB"]
        if self.vid is not None or self.pid is not None:
            vid = "*" if self.vid is None else f"{self.vid:04X}"
            pid = "*" if self.pid is None else f"{self.pid:04X}"
            parts.append(f"{vid}:{pid}")
        if self.serial_number:
            parts.append(f"serial {self.serial_number}")
        return " ".join(parts)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], where: str = "readers", file: str = "<config>") -> ReaderSpec:
        """Build a spec from one ``[[readers]]`` table of the TOML config::

            [[readers]]
            kind = "dice"
            path = "/dev/serial/by-id/usb-Tabletop_Companion_Dice_E6614103E7452D2F-if00"
            # or: vid = 0x2E8A, pid = 0x000A, serial_number = "E6614103E7452D2F"

        Raises :class:`ConfigError` (file, key, problem) for an unknown key or a bad value.
        """
        return cls(**reader_settings(data, where, file))


def _is_url(path: str) -> bool:
    return "://" in path


def find_port(spec: ReaderSpec, comports: Callable[[], Iterable[Any]] | None = None) -> str | None:
    """The device path to open for ``spec`` now, or ``None`` if the reader is not there.

    A path spec resolves symbolic links (a by-id link re-pointed since the last call is followed);
    a URL is returned as is. A USB spec looks through ``comports()`` (default
    ``serial.tools.list_ports.comports``) for ports whose ``vid``/``pid``/``serial_number`` match
    every given field. Raises :class:`ReaderError` if more than one port matches (say which with a
    serial number).
    """
    if spec.path:
        if _is_url(spec.path):
            return spec.path
        if not os.path.exists(spec.path):
            return None
        return os.path.realpath(spec.path)
    if comports is None:
        from serial.tools import list_ports

        comports = list_ports.comports
    found = []
    for info in comports():
        if spec.vid is not None and getattr(info, "vid", None) != spec.vid:
            continue
        if spec.pid is not None and getattr(info, "pid", None) != spec.pid:
            continue
        if spec.serial_number and getattr(info, "serial_number", None) != spec.serial_number:
            continue
        found.append(info.device)
    if len(found) > 1:
        raise ReaderError(
            spec.identity(),
            f"{len(found)} ports match ({', '.join(sorted(found))}); "
            f"give the reader's serial_number to tell them apart",
        )
    return found[0] if found else None


def open_port(
    path: str, baudrate: int = BAUD_RATE, *, timeout: float = READ_TIMEOUT_S, write_timeout: float = WRITE_TIMEOUT_S
):
    """Open ``path`` with pyserial, exclusively (a URL through ``serial_for_url``); return the port.

    Raises :class:`ReaderBusy` if another program or connection already holds the port, and
    :class:`ReaderError` for any other failure to open it; both name the port.
    """
    import serial

    try:
        if _is_url(path):
            return serial.serial_for_url(path, baudrate=baudrate, timeout=timeout, write_timeout=write_timeout)
        return serial.Serial(path, baudrate=baudrate, timeout=timeout, write_timeout=write_timeout, exclusive=True)
    except (serial.SerialException, OSError, ValueError) as error:
        text = str(error)
        errno = getattr(error, "errno", None)
        if "exclusively lock" in text or errno in (11, 16):  # EAGAIN from flock, EBUSY
            raise ReaderBusy(
                path, "already open in another program or by another reader connection (exclusive open refused)"
            ) from error
        raise ReaderError(path, f"cannot open: {text}") from error


# -- what is delivered ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class DiceReading:
    """A confirmed dice reading: ``values`` (faces, in reading order) from the device ``device`` (its
    HELLO uid) with sequence number ``seq``, received at ``received`` (Unix seconds)."""

    device: str
    seq: int
    values: tuple[int, ...]
    received: float


@dataclass(frozen=True)
class TileEvent:
    """A tag ``uid`` was ``placed`` on (or removed from, ``placed=False``) ``slot`` of tile reader
    ``device``. After every (re)connection the reader reports each tag still present as placed again,
    so treat ``placed`` as "this slot now holds this tag" (idempotent)."""

    device: str
    placed: bool
    slot: int
    uid: str
    seq: int
    received: float


def deliver_to(port: DiceReaderPort) -> Callable[[DiceReading], None]:
    """An ``on_dice`` callback that drops each reading's faces into ``port`` (thread-safe)."""

    def deliver(reading: DiceReading) -> None:
        port.deliver(reading.values)

    return deliver


class RecentKeys:
    """The last ``size`` result keys seen (device id, boot id, sequence number): re-sent results are
    recognised even across reconnects. Not thread-safe (one reader thread uses it)."""

    def __init__(self, size: int = 1024) -> None:
        self._keys: OrderedDict[tuple, None] = OrderedDict()
        self._size = size

    def __contains__(self, key: tuple) -> bool:
        return key in self._keys

    def add(self, key: tuple) -> None:
        """Remember ``key`` (forgetting the oldest beyond ``size``)."""
        self._keys[key] = None
        self._keys.move_to_end(key)
        while len(self._keys) > self._size:
            self._keys.popitem(last=False)


# -- the protocol object -------------------------------------------------------------------------------------
@dataclass
class SessionCounters:
    """What sessions of one connection have done with the frames they were given (cumulative)."""

    sessions: int = 0
    deaf_bytes: int = 0
    before_hello: int = 0
    refused_hellos: int = 0
    duplicates: int = 0
    bad_slot: int = 0
    dice_delivered: int = 0
    tiles_delivered: int = 0
    device_errors: int = 0
    callback_errors: int = 0
    not_taken: int = 0
    internal_errors: int = 0
    acks_sent: int = 0
    pings_sent: int = 0


class ReaderSession:
    """The protocol object for one open port: one session from open to close.

    ``data_received(data, now)`` feeds bytes; ``tick(now)`` runs the timers; both append the lines to
    write to :attr:`outgoing` (the transport drains it) and never raise. ``now`` is monotonic seconds.
    :attr:`state` is ``"deaf"`` (first ``settle_s`` seconds), ``"waiting"`` (for a HELLO),
    ``"connected"``, or ``"refused"`` (the HELLO names the wrong kind, id or protocol version:
    :attr:`problem` says which, and nothing is ever sent). :attr:`silent` becomes True when a connected
    device has sent nothing for ``silence_s``.

    ``on_dice(DiceReading)`` and ``on_tile(TileEvent)`` are called on the caller's thread; a result is
    acknowledged only after its callback returned (if it raises, the device re-sends it later). Without a
    callback for its kind a result is not acknowledged at all: it stays with the device for whoever
    takes it next (``not_taken`` counts them).
    """

    def __init__(
        self,
        spec: ReaderSpec,
        now: float,
        *,
        parser: FrameParser | None = None,
        seen: RecentKeys | None = None,
        counters: SessionCounters | None = None,
        on_dice: Callable[[DiceReading], None] | None = None,
        on_tile: Callable[[TileEvent], None] | None = None,
        settle_s: float = SETTLE_S,
        keepalive_s: float = KEEPALIVE_S,
        silence_s: float = SILENCE_S,
        wall_clock: Callable[[], float] = time.time,
    ) -> None:
        self.spec = spec
        self.parser = parser or FrameParser()
        self.parser.reset()
        self.seen = seen if seen is not None else RecentKeys()
        self.counters = counters or SessionCounters()
        self.counters.sessions += 1
        self.on_dice, self.on_tile = on_dice, on_tile
        self.settle_until = now + settle_s
        self.keepalive_s, self.silence_s = keepalive_s, silence_s
        self._wall = wall_clock
        self.state = "deaf" if settle_s > 0 else "waiting"
        self.problem = ""
        self.hello: Hello | None = None
        self.placed: dict[int, str] = {}
        self.outgoing: list[bytes] = []
        self.last_frame = now
        self.last_sent = now
        self.silent = False
        self.last_device_error: DeviceError | None = None

    # transport → protocol
    def data_received(self, data: bytes, now: float) -> None:
        """Handle bytes read from the port at ``now``."""
        try:
            if self.state == "deaf":
                if now < self.settle_until:
                    self.counters.deaf_bytes += len(data)
                    return
                self.state = "waiting"
            for message in self.parser.feed(data):
                self.last_frame = now
                self._handle(message, now)
        except Exception:  # a bug must not kill the reader thread; the input is dropped
            self.counters.internal_errors += 1
            log.exception("%s: error while handling input", self.spec.label)

    def tick(self, now: float) -> None:
        """Run the timers: end of the deaf period, keep-alive PING, silence detection."""
        if self.state == "deaf" and now >= self.settle_until:
            self.state = "waiting"
        if self.state != "connected":
            return
        if now - self.last_frame >= self.silence_s:
            self.silent = True
        elif now - self.last_sent >= self.keepalive_s:
            self._send(encode_ping(), now)
            self.counters.pings_sent += 1

    def _send(self, line: bytes, now: float) -> None:
        self.outgoing.append(line)
        self.last_sent = now

    # decisions
    def _handle(self, message: object, now: float) -> None:
        if isinstance(message, Hello):
            self._hello(message, now)
            return
        if self.state != "connected":
            self.counters.before_hello += 1
            return
        if isinstance(message, DiceResult):
            self._result(message, now)
        elif isinstance(message, (TilePlaced, TileRemoved)):
            self._result(message, now)
        elif isinstance(message, DeviceError):
            self.counters.device_errors += 1
            self.last_device_error = message
            uid = self.hello.uid if self.hello else "?"
            log.warning("%s %s reports error %d: %s", self.spec.label, uid, message.code, message.text)
        # Heartbeat: only proves the device is alive (last_frame above)

    def _hello(self, hello: Hello, now: float) -> None:
        problem = ""
        if hello.version != PROTOCOL_VERSION:
            problem = (
                f"the reader speaks protocol version {hello.version}; this companion speaks "
                f"{PROTOCOL_VERSION} (update the firmware or the companion)"
            )
        elif hello.kind != self.spec.kind:
            problem = f"expected a {self.spec.kind} reader, found a {hello.kind} reader ({hello.uid})"
        elif self.spec.device_id and hello.uid != self.spec.device_id:
            problem = f"expected device {self.spec.device_id}, found {hello.uid}"
        if problem:
            if self.state != "refused" or problem != self.problem:
                log.error("%s: refusing the device: %s", self.spec.label, problem)
            self.counters.refused_hellos += 1
            self.state, self.problem, self.hello = "refused", problem, hello
            return
        if self.hello is not None and self.hello.boot != hello.boot:
            self.placed.clear()  # the board was reset: what it had placed is reported afresh
        if self.state != "connected":
            log.info(
                "%s: %s %s firmware %s says hello (%s)",
                self.spec.label,
                hello.kind,
                hello.uid,
                hello.firmware,
                ";".join(hello.capabilities) or "no capabilities",
            )
        self.state, self.problem, self.hello = "connected", "", hello
        self._send(encode_ping(), now)  # our first words: the device stops repeating HELLO
        self.counters.pings_sent += 1

    def _result(self, message, now: float) -> None:
        hello = self.hello
        assert hello is not None  # results are handled only once connected (after a HELLO)
        key = (hello.uid, hello.boot, message.seq)
        if key in self.seen:
            self.counters.duplicates += 1
            self._ack(message.seq, now)
            return
        event: DiceReading | TileEvent
        callback: Callable[[Any], None] | None
        if isinstance(message, DiceResult):
            event = DiceReading(hello.uid, message.seq, message.values, self._wall())
            callback = cast(Callable[[Any], None] | None, self.on_dice)
        else:
            limit = hello.slots or MAX_SLOTS
            if message.slot > limit:
                self.counters.bad_slot += 1
                log.warning(
                    "%s %s reported slot %d but has %d slots; dropped", self.spec.label, hello.uid, message.slot, limit
                )
                self.seen.add(key)
                self._ack(message.seq, now)
                return
            placed = isinstance(message, TilePlaced)
            event = TileEvent(hello.uid, placed, message.slot, message.uid, message.seq, self._wall())
            callback = cast(Callable[[Any], None] | None, self.on_tile)
        if callback is None:  # nobody takes it (a self-test probe): leave it with the device
            self.counters.not_taken += 1
            return
        try:
            callback(event)
        except Exception:
            self.counters.callback_errors += 1
            log.exception("%s: delivering %r failed; the device will re-send it", self.spec.label, event)
            return
        if isinstance(event, TileEvent):
            self.counters.tiles_delivered += 1
            if event.placed:
                self.placed[event.slot] = event.uid
            elif self.placed.get(event.slot) == event.uid:
                del self.placed[event.slot]
        else:
            self.counters.dice_delivered += 1
        self.seen.add(key)
        self._ack(message.seq, now)

    def _ack(self, seq: int, now: float) -> None:
        self._send(encode_ack(seq), now)
        self.counters.acks_sent += 1


# -- status --------------------------------------------------------------------------------------------------
#: Reader states, in words: stopped; searching (never found yet); connecting (port open, deaf or waiting
#: for the HELLO); connected; disconnected (was connected, polling for it again); busy (exclusive open
#: refused); refused (wrong kind/id/version); error (cannot open, or ambiguous identity).
STATES = ("stopped", "searching", "connecting", "connected", "disconnected", "busy", "refused", "error")


@dataclass(frozen=True)
class ReaderStatus:
    """A reader's state for the screen: ``state`` (one of :data:`STATES`), ``text`` (one line, such as
    ``"dice reader disconnected"``), ``port`` (the path in use or looked for), ``device`` (the last HELLO,
    if any), ``detail`` (why, for the log or a details view), ``since`` (Unix seconds)."""

    state: str
    text: str
    port: str | None = None
    device: Hello | None = None
    detail: str = ""
    since: float = field(default_factory=time.time)

    @property
    def connected(self) -> bool:
        """True while the reader is connected and its HELLO accepted."""
        return self.state == "connected"


class _Gone(Exception):
    """The session ended because the port went away (the message says how)."""


# -- the transport -----------------------------------------------------------------------------------------------
class ReaderConnection:
    """One reader: a daemon thread that finds, opens, reads and re-opens its port (see module docstring).

    Callbacks run on the reader thread and must be quick and thread-safe (post to a queue):
    ``on_dice(DiceReading)``, ``on_tile(TileEvent)``, ``on_status(ReaderStatus)``. ``opener(path,
    baudrate)`` and ``comports()`` may be replaced in tests. Times are seconds.

    ``start()`` returns self; ``stop(timeout=1.0)`` ends the thread and closes the port (safe to call
    twice); the connection is a context manager. :attr:`status` is always readable from any thread.
    """

    def __init__(
        self,
        spec: ReaderSpec,
        *,
        on_dice: Callable[[DiceReading], None] | None = None,
        on_tile: Callable[[TileEvent], None] | None = None,
        on_status: Callable[[ReaderStatus], None] | None = None,
        settle_s: float = SETTLE_S,
        keepalive_s: float = KEEPALIVE_S,
        silence_s: float = SILENCE_S,
        poll_s: float = POLL_S,
        opener: Callable[[str, int], Any] | None = None,
        comports: Callable[[], Iterable[Any]] | None = None,
    ) -> None:
        self.spec = spec
        self.on_dice, self.on_tile, self.on_status = on_dice, on_tile, on_status
        self.settle_s, self.keepalive_s, self.silence_s, self.poll_s = settle_s, keepalive_s, silence_s, poll_s
        self._opener = opener or open_port
        self._comports = comports
        self.parser = FrameParser()
        self.counters = SessionCounters()
        self.seen = RecentKeys()
        self.disconnects = 0
        self.first_frame_at: float | None = None  # monotonic time of the last session's HELLO
        self.opened_at: float | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._transport = None
        self._placed: dict[int, str] = {}
        self._ever_connected = False
        self._last_stats_log = 0.0
        self._logged_rejects = 0
        self._status = ReaderStatus("stopped", f"{spec.label} not started", spec.identity())

    # -- public ----------------------------------------------------------------------------------------------
    @property
    def status(self) -> ReaderStatus:
        """The current :class:`ReaderStatus` (any thread)."""
        return self._status

    def placed(self) -> dict[int, str]:
        """Tile readers: ``{slot: tag uid}`` of the tags on the reader as of the current session."""
        return dict(self._placed)

    def stats(self) -> dict[str, int]:
        """Every counter: the parser's (junk, bad checksums...), the sessions' and ``disconnects``."""
        numbers = self.parser.stats.as_dict()
        numbers.update(vars(self.counters))
        numbers["disconnects"] = self.disconnects
        return numbers

    def start(self) -> ReaderConnection:
        """Start the reader thread (once); returns self."""
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name=f"reader-{self.spec.label}", daemon=True)
            self._thread.start()
        return self

    def request_stop(self) -> None:
        """Ask the thread to end (returns at once; :meth:`stop` also waits). Stopping many readers:
        request them all first, then ``stop()`` each, so they end together within the second."""
        self._stop.set()

    def stop(self, timeout: float = 1.0) -> bool:
        """Stop the thread and close the port; True if the thread ended within ``timeout`` seconds."""
        self._stop.set()
        thread = self._thread
        if thread is None:
            return True
        thread.join(timeout)
        stopped = not thread.is_alive()
        if stopped:
            self._thread = None
            self._set_status("stopped", f"{self.spec.label} stopped", self._status.port)
        return stopped

    close = stop

    def __enter__(self) -> ReaderConnection:
        return self.start()

    def __exit__(self, *exc_info) -> None:
        self.stop()

    @property
    def running(self) -> bool:
        """True while the reader thread is alive."""
        return self._thread is not None and self._thread.is_alive()

    # -- status ----------------------------------------------------------------------------------------------
    def _set_status(
        self, state: str, text: str, port: str | None, device: Hello | None = None, detail: str = ""
    ) -> None:
        old = self._status
        if (old.state, old.text, old.port, old.detail) == (state, text, port, detail) and old.device == device:
            return
        self._status = ReaderStatus(state, text, port, device, detail)
        level = (
            logging.WARNING
            if state in ("disconnected", "refused")
            else logging.ERROR
            if state in ("busy", "error")
            else logging.INFO
        )
        log.log(level, "%s%s", text, f" ({detail})" if detail and detail not in text else "")
        if self.on_status is not None:
            try:
                self.on_status(self._status)
            except Exception:
                log.exception("%s: status callback failed", self.spec.label)

    def _not_here(self, detail: str = "") -> None:
        if self._status.state == "disconnected" and not detail:
            return  # keep saying why it was lost
        if self._ever_connected:
            self._set_status(
                "disconnected",
                f"{self.spec.label} disconnected",
                self.spec.identity(),
                detail=detail or "waiting for it to be plugged in again",
            )
        else:
            self._set_status(
                "searching",
                f"{self.spec.label} not found (looking for {self.spec.identity()})",
                self.spec.identity(),
                detail=detail,
            )

    # -- the thread --------------------------------------------------------------------------------------------
    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._attempt()
            except Exception:  # never let the thread die; try again after a pause
                log.exception("%s: unexpected error; retrying", self.spec.label)
                self._set_status("error", f"{self.spec.label}: internal error, retrying", self.spec.identity())
                self._stop.wait(self.poll_s)

    def _attempt(self) -> None:
        try:
            path = find_port(self.spec, self._comports)
        except ReaderError as error:
            self._set_status("error", f"{self.spec.label}: {error.problem}", error.port)
            self._stop.wait(max(self.poll_s, 2.0))
            return
        if path is None:
            self._not_here()
            self._stop.wait(self.poll_s)
            return
        try:
            transport = self._opener(path, self.spec.baudrate)
        except ReaderBusy as error:
            self._set_status("busy", f"{self.spec.label}: {path} is in use by another program", path, detail=str(error))
            self._stop.wait(max(self.poll_s, 1.0))
            return
        except (ReaderError, OSError, ValueError) as error:
            if not os.path.exists(path) and not _is_url(path):
                self._not_here(f"{path} vanished while opening")
            else:
                self._set_status("error", f"{self.spec.label}: cannot open {path}", path, detail=str(error))
            self._stop.wait(max(self.poll_s, 1.0))
            return
        self._transport = transport
        try:
            self._serve(transport, path)
        except _Gone as gone:
            self._lost(path, str(gone))
        except Exception as error:  # serial.SerialException is an IOError; anything else is a bug
            self._lost(path, f"{type(error).__name__}: {error}")
        finally:
            self._transport = None
            try:
                transport.close()
            except Exception:
                log.debug("closing %s failed", path, exc_info=True)

    def _lost(self, path: str, why: str) -> None:
        if self._stop.is_set():
            return
        self.disconnects += 1
        self._placed = {}
        if self._ever_connected:
            self._set_status("disconnected", f"{self.spec.label} disconnected", path, self._status.device, detail=why)
        else:
            self._set_status("searching", f"{self.spec.label} lost its port before saying hello", path, detail=why)

    def _serve(self, transport, path: str) -> None:
        now = time.monotonic()
        self.opened_at = now
        session = ReaderSession(
            self.spec,
            now,
            parser=self.parser,
            seen=self.seen,
            counters=self.counters,
            on_dice=self.on_dice,
            on_tile=self.on_tile,
            settle_s=self.settle_s,
            keepalive_s=self.keepalive_s,
            silence_s=self.silence_s,
        )
        self._set_status("connecting", f"{self.spec.label} found on {path}, waiting for its hello", path)
        link_target = path if self.spec.path and not _is_url(path) else None  # find_port resolved the link
        next_check = now + self.poll_s
        write_failures = 0
        shown = None
        while not self._stop.is_set():
            waiting = getattr(transport, "in_waiting", 0) or 1
            data = transport.read(min(waiting, 4096))  # SerialException/OSError on unplug
            now = time.monotonic()
            if data:
                session.data_received(data, now)
            session.tick(now)
            if session.outgoing:
                lines, session.outgoing = b"".join(session.outgoing), []
                try:
                    transport.write(lines)
                    write_failures = 0
                except Exception as error:
                    if type(error).__name__ != "SerialTimeoutException":
                        raise
                    write_failures += 1
                    log.warning("%s: write to %s timed out (%d in a row)", self.spec.label, path, write_failures)
                    if write_failures >= 3:
                        raise _Gone(f"writes to {path} keep timing out") from error
            if (session.state, session.problem) != shown:
                self._show_session(session, path)
                shown = (session.state, session.problem)
            if session.placed != self._placed:
                self._placed = dict(session.placed)  # a fresh dict: readers of placed() never see it change
            if session.silent:
                raise _Gone(f"no frame for {self.silence_s:g} s")
            if now >= next_check:
                next_check = now + self.poll_s
                self._check_still_there(path, link_target)
                self._log_rejects()

    def _show_session(self, session: ReaderSession, path: str) -> None:
        if session.state == "connected":
            if not self._status.connected:
                self.first_frame_at = time.monotonic()
            self._ever_connected = True
            hello = session.hello
            assert hello is not None  # connected means a HELLO was heard
            self._set_status(
                "connected", f"{self.spec.label} connected ({hello.uid}, firmware {hello.firmware})", path, hello
            )
        elif session.state == "refused":
            self._set_status(
                "refused", f"{self.spec.label} on {path}: wrong device", path, session.hello, detail=session.problem
            )

    def _check_still_there(self, path: str, link_target: str | None) -> None:
        if _is_url(path):
            return
        if not os.path.exists(path):
            raise _Gone(f"{path} disappeared")
        if link_target is not None and self.spec.path is not None:
            now_target = os.path.realpath(self.spec.path) if os.path.exists(self.spec.path) else None
            if now_target != link_target:
                raise _Gone(f"{self.spec.path} now points to {now_target or 'nothing'}")

    def _log_rejects(self) -> None:
        stats = self.parser.stats
        rejected = stats.rejected
        now = time.monotonic()
        if rejected != self._logged_rejects and now - self._last_stats_log >= 10.0:
            counts = {name: getattr(stats, name) for name in stats.REJECTS if getattr(stats, name)}
            last = self.parser.recent[-1][1] if self.parser.recent else ""
            log.warning(
                "%s: %d bad frames dropped so far %s, %d junk bytes; last: %s",
                self.spec.label,
                rejected,
                counts,
                stats.junk_bytes,
                last,
            )
            self._logged_rejects, self._last_stats_log = rejected, now


def probe_reader(
    spec: ReaderSpec,
    timeout: float = 6.0,
    *,
    settle_s: float = SETTLE_S,
    comports: Callable[[], Iterable[Any]] | None = None,
    opener: Callable[[str, int], Any] | None = None,
) -> tuple[ReaderStatus, dict[str, int]]:
    """Self-test one reader: open it, wait for its HELLO and its answer to our PING, then close it.

    Returns the final :class:`ReaderStatus` (``connected`` if the reader answered within ``timeout``
    seconds; otherwise ``searching``, ``busy``, ``refused``, ``connecting`` (no HELLO) or ``error``, with
    the reason) and the connection's counters. Results the reader sends meanwhile are not acknowledged,
    so nothing is taken from it. Takes at least ``settle_s`` seconds when the reader is there.
    """
    connection = ReaderConnection(spec, settle_s=settle_s, comports=comports, opener=opener).start()
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            status = connection.status
            if status.connected and connection.parser.stats.frames >= 2:  # HELLO, then HB for our PING
                break
            if status.state in ("refused", "busy", "error"):
                break
            time.sleep(0.02)
        return connection.status, connection.stats()
    finally:
        connection.stop()
