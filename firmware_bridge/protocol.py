"""The reader protocol, host side: pure encoding and decoding of ``$TYPE,field,...*CS\\r\\n`` frames.

See ``firmware_bridge/PROTOCOL.md`` for the wire format. Nothing here does I/O, reads a clock or
starts a thread; the parser is tested with byte fixtures and property tests.

Messages are small frozen value types whose ``repr`` is valid code::

    >>> encode(DiceResult(seq=7, values=(3, 5)))
    b'$DICE,7,2,3,5*08\\r\\n'
    >>> parser = FrameParser()
    >>> parser.feed(b"noise$DICE,7,2,3,5*08\\r\\n$DICE,8,1,9*17\\r\\n$DICE,9,1,2*99\\r\\n")
    [DiceResult(seq=7, values=(3, 5))]
    >>> parser.stats.junk_bytes, parser.stats.out_of_range, parser.stats.bad_checksum
    (5, 1, 1)

Every message has exactly one encoding (numbers without leading zeros, upper-case hex), so a decoded
message re-encodes to the very bytes it came from.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from dataclasses import fields as dataclass_fields
from functools import reduce
from operator import xor

from companion.errors import FrameError

PROTOCOL_VERSION = 1
#: Longest line in bytes, from ``$`` to the final ``\n`` inclusive.
MAX_LINE = 96
MAX_DICE = 10
DIE_FACES = 6
MAX_SLOTS = 16
SEQ_MAX = 65535
DEVICE_KINDS = ("dice", "tiles")
BAUD_RATE = 115200

_UINT = re.compile(r"0|[1-9][0-9]{0,9}")
_DEVICE_UID = re.compile(r"[0-9A-Za-z_-]{1,24}")
_BOOT = re.compile(r"[0-9A-F]{4}")
_FIRMWARE = re.compile(r"[0-9A-Za-z._+-]{1,16}")
_CAPABILITY = re.compile(r"[a-z0-9_]{1,12}(=[0-9A-Za-z._-]{1,12})?")
_TAG_UID = re.compile(r"[0-9A-F]{8}|[0-9A-F]{14}|[0-9A-F]{20}")
_KEY = re.compile(r"[a-z0-9_]{1,12}")
_VALUE = re.compile(r"[0-9A-Za-z._-]{1,16}")
_HEX2 = re.compile(rb"[0-9A-F]{2}")
#: Bytes allowed between ``$`` and ``*``: printable ASCII except ``$`` and ``*``.
_BODY_BYTES = bytes(b for b in range(0x20, 0x7F) if b not in (0x24, 0x2A))


# -- messages --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Hello:
    """``HELLO``: the device introduces itself (first thing in every session; repeated every 0.5 s
    until the host answers). ``version``: protocol version (this host speaks 1); ``kind``: ``"dice"`` or
    ``"tiles"``; ``uid``: the board's unique id; ``boot``: four hex digits chosen at power-up;
    ``firmware``: version text; ``capabilities``: tokens such as ``"slots=4"`` or ``"keypad"``."""

    version: int
    kind: str
    uid: str
    boot: str
    firmware: str
    capabilities: tuple[str, ...] = ()

    def capability(self, name: str) -> str | None:
        """The value of capability ``name`` (``""`` for a bare flag), or ``None`` if not declared."""
        for token in self.capabilities:
            key, _, value = token.partition("=")
            if key == name:
                return value
        return None

    @property
    def slots(self) -> int:
        """The number of tile slots (``slots=N``; 1..16); 0 for a device that declares none."""
        value = self.capability("slots")
        return int(value) if value and value.isdigit() and 1 <= int(value) <= MAX_SLOTS else 0


@dataclass(frozen=True)
class DiceResult:
    """``DICE``: a roll read by the device: sequence number ``seq`` (1..65535) and the faces ``values``
    (1 to 10 dice, each 1..6). Must be acknowledged; re-sent until it is."""

    seq: int
    values: tuple[int, ...]


@dataclass(frozen=True)
class TilePlaced:
    """``TILE+``: a tag with ``uid`` (upper-case hex, 4, 7 or 10 bytes) appeared on reader slot ``slot``
    (1..16). Must be acknowledged like a dice result."""

    seq: int
    slot: int
    uid: str


@dataclass(frozen=True)
class TileRemoved:
    """``TILE-``: the tag ``uid`` left slot ``slot``. Must be acknowledged like a dice result."""

    seq: int
    slot: int
    uid: str


@dataclass(frozen=True)
class Heartbeat:
    """``HB``: the device is alive: ``uptime`` in seconds and ``pending`` unacknowledged results."""

    uptime: int
    pending: int


@dataclass(frozen=True)
class DeviceError:
    """``ERR``: the device reports a problem: numeric ``code`` (1..999, see PROTOCOL.md) and ``text``."""

    code: int
    text: str


@dataclass(frozen=True)
class Ping:
    """``PING`` (host to device): the device answers with an ``HB``; also the host's keep-alive."""


@dataclass(frozen=True)
class Ack:
    """``ACK`` (host to device): the result with sequence number ``seq`` arrived and was taken."""

    seq: int


@dataclass(frozen=True)
class Setting:
    """``SET`` (host to device): set ``key`` to ``value`` (see PROTOCOL.md for the keys)."""

    key: str
    value: str


DeviceMessage = Hello | DiceResult | TilePlaced | TileRemoved | Heartbeat | DeviceError
HostMessage = Ping | Ack | Setting
Message = DeviceMessage | HostMessage
#: Results that carry a sequence number and must be acknowledged.
SEQUENCED = (DiceResult, TilePlaced, TileRemoved)


# -- checksum and frames ------------------------------------------------------------------------------------
def checksum(body: bytes) -> int:
    """The XOR of the bytes ``body`` (everything between ``$`` and ``*``): an int 0..255."""
    return reduce(xor, body, 0)


def encode_frame(type_: str, fields: Iterable[object] = ()) -> bytes:
    """The line ``$TYPE,f1,...*CS\\r\\n`` (bytes). Fields are converted with ``str``.

    Raises :class:`FrameError` if a character is not printable ASCII or is ``$`` or ``*``, if a field
    other than the last contains ``,``, or if the line would exceed :data:`MAX_LINE` bytes. This only
    checks the framing; :func:`encode` also checks the message's values.
    """
    parts = [str(type_)] + [str(f) for f in fields]
    if any("," in part for part in parts[:-1]) or "," in parts[0]:
        raise FrameError(f"a comma inside a field of {parts!r}")
    try:
        body = ",".join(parts).encode("ascii")
    except UnicodeEncodeError as error:
        raise FrameError(f"non-ASCII text in a frame: {parts!r}") from error
    if body.translate(None, _BODY_BYTES):
        raise FrameError(f"a reserved or control character in a frame: {body!r}")
    line = b"$" + body + b"*" + b"%02X\r\n" % checksum(body)
    if len(line) > MAX_LINE:
        raise FrameError(f"a {len(line)}-byte frame is over the {MAX_LINE}-byte limit: {line[:40]!r}...")
    return line


def _fields_of(message: Message) -> tuple[str, list[object]]:
    if isinstance(message, Hello):
        return "HELLO", [
            message.version,
            message.kind,
            message.uid,
            message.boot,
            message.firmware,
            ";".join(message.capabilities),
        ]
    if isinstance(message, DiceResult):
        return "DICE", [message.seq, len(message.values), *message.values]
    if isinstance(message, TilePlaced):
        return "TILE+", [message.seq, message.slot, message.uid]
    if isinstance(message, TileRemoved):
        return "TILE-", [message.seq, message.slot, message.uid]
    if isinstance(message, Heartbeat):
        return "HB", [message.uptime, message.pending]
    if isinstance(message, DeviceError):
        return "ERR", [message.code, message.text]
    if isinstance(message, Ping):
        return "PING", []
    if isinstance(message, Ack):
        return "ACK", [message.seq]
    if isinstance(message, Setting):
        return "SET", [message.key, message.value]
    raise FrameError(f"not a protocol message: {message!r}")


def encode(message: Message) -> bytes:
    """The one frame that encodes ``message`` (any device or host message).

    Raises :class:`FrameError` if a value is out of the protocol's range (a face of 7, eleven dice, a
    slot of 0, a lower-case tag UID...): whatever this returns, :class:`FrameParser` decodes back to an
    equal message.
    """
    type_, values = _fields_of(message)
    line = encode_frame(type_, values)
    try:
        decoded = _decode_body(line[1:-5].decode("ascii"))
    except _Reject as reject:
        raise FrameError(f"{message!r} cannot be sent: {reject.detail}") from None
    if decoded != message:
        raise FrameError(f"{message!r} cannot be sent: it would arrive as {decoded!r}")
    return line


# -- decoding -------------------------------------------------------------------------------------------------
class _Reject(Exception):
    """A line was refused: ``reason`` is one of the :class:`ParserStats` counters."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.reason, self.detail = reason, detail


def _uint(text: str, low: int, high: int, what: str) -> int:
    if not _UINT.fullmatch(text):
        raise _Reject("malformed", f"{what} {text!r} is not a plain decimal number")
    value = int(text)
    if not low <= value <= high:
        raise _Reject("out_of_range", f"{what} {value} is outside {low}..{high}")
    return value


def _text(text: str, pattern: re.Pattern, what: str) -> str:
    if not pattern.fullmatch(text):
        raise _Reject("malformed", f"bad {what} {text!r}")
    return text


def _count(fields: list[str], n: int, type_: str) -> None:
    if len(fields) != n:
        raise _Reject("malformed", f"{type_} has {n} fields, not {len(fields)}")


def _hello(f: list[str]) -> Hello:
    _count(f, 6, "HELLO")
    version = _uint(f[0], 1, 99, "protocol version")
    if f[1] not in DEVICE_KINDS:
        raise _Reject("out_of_range", f"device kind {f[1]!r} is not dice or tiles")
    caps = tuple(f[5].split(";")) if f[5] else ()
    for token in caps:
        _text(token, _CAPABILITY, "capability")
    return Hello(
        version,
        f[1],
        _text(f[2], _DEVICE_UID, "device id"),
        _text(f[3], _BOOT, "boot id"),
        _text(f[4], _FIRMWARE, "firmware version"),
        caps,
    )


def _dice(f: list[str]) -> DiceResult:
    if len(f) < 3:
        raise _Reject("malformed", f"DICE needs a sequence number, a count and faces, got {len(f)} fields")
    seq = _uint(f[0], 1, SEQ_MAX, "sequence number")
    count = _uint(f[1], 1, MAX_DICE, "dice count")
    if count != len(f) - 2:
        raise _Reject("malformed", f"DICE says {count} dice but carries {len(f) - 2} faces")
    return DiceResult(seq, tuple(_uint(v, 1, DIE_FACES, "face") for v in f[2:]))


def _tile(cls: type, type_: str) -> Callable[[list[str]], object]:
    def decode(f: list[str]):
        _count(f, 3, type_)
        return cls(
            _uint(f[0], 1, SEQ_MAX, "sequence number"),
            _uint(f[1], 1, MAX_SLOTS, "slot"),
            _text(f[2], _TAG_UID, "tag UID"),
        )

    return decode


def _heartbeat(f: list[str]) -> Heartbeat:
    _count(f, 2, "HB")
    return Heartbeat(_uint(f[0], 0, 4294967295, "uptime"), _uint(f[1], 0, 255, "pending count"))


def _error(f: list[str]) -> DeviceError:
    if not f:
        raise _Reject("malformed", "ERR needs a code")
    return DeviceError(_uint(f[0], 1, 999, "error code"), ",".join(f[1:]))


def _ping(f: list[str]) -> Ping:
    _count(f, 0, "PING")
    return Ping()


def _ack(f: list[str]) -> Ack:
    _count(f, 1, "ACK")
    return Ack(_uint(f[0], 1, SEQ_MAX, "sequence number"))


def _setting(f: list[str]) -> Setting:
    _count(f, 2, "SET")
    return Setting(_text(f[0], _KEY, "setting key"), _text(f[1], _VALUE, "setting value"))


DEVICE_DECODERS: dict[str, Callable[[list[str]], object]] = {
    "HELLO": _hello,
    "DICE": _dice,
    "TILE+": _tile(TilePlaced, "TILE+"),
    "TILE-": _tile(TileRemoved, "TILE-"),
    "HB": _heartbeat,
    "ERR": _error,
}
HOST_DECODERS: dict[str, Callable[[list[str]], object]] = {"PING": _ping, "ACK": _ack, "SET": _setting}
_ALL_DECODERS = {**DEVICE_DECODERS, **HOST_DECODERS}


def _decode_body(text: str, decoders: dict = _ALL_DECODERS):
    type_, _, rest = text.partition(",")
    decoder = decoders.get(type_)
    if decoder is None:
        raise _Reject("unknown_type", f"unknown frame type {type_[:12]!r}")
    return decoder(rest.split(",") if _ else [])


@dataclass
class ParserStats:
    """What a :class:`FrameParser` has seen. Counters of refused lines: ``partial`` (cut short by a new
    ``$``), ``too_long`` (over :data:`MAX_LINE`), ``bad_checksum``, ``malformed`` (bad terminator, a
    control character, wrong fields), ``unknown_type``, ``out_of_range``; ``junk_bytes`` outside any
    frame; ``frames`` accepted. Byte totals: ``bytes_in`` = ``accepted_bytes`` + ``dropped_bytes`` +
    the bytes still buffered."""

    frames: int = 0
    junk_bytes: int = 0
    partial: int = 0
    too_long: int = 0
    bad_checksum: int = 0
    malformed: int = 0
    unknown_type: int = 0
    out_of_range: int = 0
    bytes_in: int = 0
    accepted_bytes: int = 0
    dropped_bytes: int = 0

    REJECTS = ("partial", "too_long", "bad_checksum", "malformed", "unknown_type", "out_of_range")

    @property
    def rejected(self) -> int:
        """Refused lines of every kind (junk bytes not included)."""
        return sum(getattr(self, name) for name in self.REJECTS)

    def as_dict(self) -> dict[str, int]:
        """The counters as a plain dict (for logs and the self-test screen)."""
        return {f.name: getattr(self, f.name) for f in dataclass_fields(self)}


class FrameParser:
    """Turns a byte stream into messages; never raises, whatever the bytes.

    ``feed(data)`` returns the messages completed by ``data`` (a list, possibly empty). ``accept``
    chooses which side's messages are valid: ``"device"`` (what the host reads: HELLO, DICE, TILE+,
    TILE-, HB, ERR; the default), ``"host"`` (PING, ACK, SET: what a device reads) or ``"any"``.
    Everything else is dropped and counted in :attr:`stats`; :attr:`recent` keeps the last few
    refusals as ``(reason, detail)`` for the log. At most ``MAX_LINE - 1`` bytes are ever buffered.
    """

    def __init__(self, accept: str = "device") -> None:
        self._decoders = {"device": DEVICE_DECODERS, "host": HOST_DECODERS, "any": _ALL_DECODERS}[accept]
        self._pending = b""
        self._skipping = False
        self.stats = ParserStats()
        self.recent: deque[tuple[str, str]] = deque(maxlen=8)

    @property
    def buffered(self) -> int:
        """Bytes held back waiting for the rest of a line (always < :data:`MAX_LINE`)."""
        return len(self._pending)

    def reset(self) -> None:
        """Forget any half line (a new session starts); the counters are kept."""
        self.stats.dropped_bytes += len(self._pending)
        self._pending = b""
        self._skipping = False

    def _refuse(self, reason: str, detail: str, size: int) -> None:
        stats = self.stats
        setattr(stats, reason, getattr(stats, reason) + 1)
        stats.dropped_bytes += size
        self.recent.append((reason, detail))

    def feed(self, data: bytes) -> list:
        """Parse ``data`` (bytes-like); return the messages it completed, oldest first."""
        try:
            data = bytes(data)
        except (TypeError, ValueError):
            return []
        stats = self.stats
        stats.bytes_in += len(data)
        buf = self._pending + data if self._pending else data
        self._pending = b""
        out: list = []
        pos, size = 0, len(buf)
        find = buf.find
        while pos < size:
            if self._skipping:  # the rest of an over-long line
                newline, dollar = find(b"\n", pos), find(b"$", pos)
                if dollar >= 0 and (newline < 0 or dollar < newline):
                    stats.dropped_bytes += dollar - pos
                    pos, self._skipping = dollar, False
                elif newline >= 0:
                    stats.dropped_bytes += newline + 1 - pos
                    pos, self._skipping = newline + 1, False
                else:
                    stats.dropped_bytes += size - pos
                    pos = size
                continue
            start = find(b"$", pos)
            if start < 0:
                stats.junk_bytes += size - pos
                stats.dropped_bytes += size - pos
                break
            if start > pos:
                stats.junk_bytes += start - pos
                stats.dropped_bytes += start - pos
            newline = find(b"\n", start)
            again = find(b"$", start + 1, newline if newline >= 0 else size)
            if again >= 0:
                self._refuse("partial", f"half line {buf[start:again][:24]!r}", again - start)
                pos = again
                continue
            if newline < 0:
                if size - start >= MAX_LINE:
                    self._refuse("too_long", f"no end of line within {MAX_LINE} bytes", size - start)
                    self._skipping = True
                else:
                    self._pending = buf[start:]
                break
            pos = newline + 1
            length = pos - start
            if length > MAX_LINE:
                self._refuse("too_long", f"a {length}-byte line", length)
                continue
            line = buf[start:pos]
            message = self._decode(line)
            if message is not None:
                stats.frames += 1
                stats.accepted_bytes += length
                out.append(message)
        return out

    def _decode(self, line: bytes):
        length = len(line)
        if length < 7 or line[-5] != 0x2A or line[-2] != 0x0D:  # "$X*CS\r\n" at the least
            self._refuse("malformed", f"not $...*CS<CR><LF>: {line[:24]!r}", length)
            return None
        body = line[1:-5]
        if not _HEX2.fullmatch(line, length - 4, length - 2):
            self._refuse("malformed", f"checksum is not two upper-case hex digits: {line[-4:-2]!r}", length)
            return None
        if int(line[-4:-2], 16) != reduce(xor, body, 0):
            self._refuse("bad_checksum", f"bad checksum in {line[:24]!r}", length)
            return None
        if body.translate(None, _BODY_BYTES):
            self._refuse("malformed", f"control or reserved character in {line[:24]!r}", length)
            return None
        try:
            return _decode_body(body.decode("ascii"), self._decoders)
        except _Reject as reject:
            self._refuse(reject.reason, reject.detail, length)
            return None


# -- host to device ---------------------------------------------------------------------------------------------
def encode_ping() -> bytes:
    """``$PING*CS\\r\\n``."""
    return encode(Ping())


def encode_ack(seq: int) -> bytes:
    """``$ACK,seq*CS\\r\\n`` for a sequence number 1..65535 (:class:`FrameError` otherwise)."""
    return encode(Ack(seq))


def encode_setting(key: str, value: object) -> bytes:
    """``$SET,key,value*CS\\r\\n`` (:class:`FrameError` for a key or value the protocol cannot carry)."""
    return encode(Setting(key, str(value)))
