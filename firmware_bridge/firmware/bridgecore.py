# bridgecore.py: the pure part of the reader firmware (framing, checksums, the retransmission queue,
# the dice pad's pip entry and the tile reader's slot debouncing).
#
# Written for MicroPython on a Raspberry Pi Pico AND runs unchanged under CPython, where the tests and
# the device simulator (firmware_bridge.simulator) use it. It therefore keeps to what both offer:
# no dataclasses, no typing, no f-strings, no bytes.hex() or bytes.translate(); time is passed in as
# milliseconds (time.ticks_ms() on the board) and compared with an injected ticks_diff.
#
# The protocol is described in firmware_bridge/PROTOCOL.md; the constants below must agree with it
# (tests check that they agree with the host side in firmware_bridge/protocol.py).
"""Pure device-side protocol logic shared by the reference firmware and the device simulator.

Main pieces:

* :func:`checksum` and :func:`frame` build ``$TYPE,field,...*CS\\r\\n`` lines (ValueError for a field
  with a reserved character or a line over :data:`MAX_LINE` bytes);
* :class:`LineReader` splits the host's byte stream into checked frames ``(type, [fields])``;
* :class:`DeviceCore` is a whole device session: HELLO until the host answers, heartbeats, the queue
  of unacknowledged results (re-sent every :data:`RESEND_MS` ms, for up to :data:`RESULT_LIFETIME_MS`),
  ACK/PING/SET handling;
* :class:`PipEntry` turns dice-pad key presses into a reading; :class:`SlotTracker` turns noisy
  per-slot tag reads into placed/removed events.

Every method takes ``now`` in milliseconds; nothing here sleeps, reads a clock or touches hardware.
"""

PROTOCOL_VERSION = 1
MAX_LINE = 96  # bytes, from "$" to "\n" inclusive
HELLO_INTERVAL_MS = 500  # HELLO repeated this often while the host is not heard
HEARD_TIMEOUT_MS = 3000  # the host counts as gone this long after its last valid frame
HEARTBEAT_MS = 1000  # default HB period while the host is heard (SET hb)
RESEND_MS = 500  # default re-send period of an unacknowledged result (SET resend)
RESULT_LIFETIME_MS = 300000  # an unacknowledged result is dropped (ERR 1) after 5 minutes
QUEUE_MAX = 8  # results awaiting acknowledgement; a 9th is refused (ERR 2)
MAX_DICE = 10
MAX_SLOTS = 16
SEQ_MAX = 65535  # sequence numbers run 1..65535 and wrap to 1
BAD_FRAME_REPORT_MS = 10000  # ERR 6 (bad host frames) at most this often

ERR_EXPIRED = 1
ERR_QUEUE_FULL = 2
ERR_SETTING = 3
ERR_HARDWARE = 4
ERR_ENTRY = 5
ERR_BAD_HOST_FRAME = 6

#: SET keys the device understands: key -> (lowest, highest) value in milliseconds / units.
SETTINGS = {"hb": (200, 4000), "resend": (100, 5000), "beep": (0, 1)}

_HEX = "0123456789ABCDEF"


def _diff(a, b):
    return a - b


def checksum(body):
    """XOR of the bytes ``body`` (the bytes between ``$`` and ``*``); an int 0..255."""
    value = 0
    for byte in body:
        value ^= byte
    return value


def hex2(value):
    """``value`` (0..255) as two upper-case hex digits."""
    return _HEX[(value >> 4) & 15] + _HEX[value & 15]


def uid_hex(raw):
    """A tag UID (bytes or a list of ints) as upper-case hex, e.g. ``"04A1B2C3"``."""
    return "".join([hex2(b) for b in raw])


def frame(kind, fields=()):
    """The line ``$KIND,f1,f2*CS\\r\\n`` as bytes. Fields are converted with ``str``.

    Raises ValueError if any character is outside printable ASCII or is ``$`` or ``*``, or if the line
    would be longer than MAX_LINE bytes. (Commas inside a field are the caller's business: only the
    last field of ERR may contain them.)
    """
    body = str(kind)
    for field in fields:
        body = body + "," + str(field)
    data = body.encode()
    for byte in data:
        if byte < 0x20 or byte > 0x7E or byte == 0x24 or byte == 0x2A:
            raise ValueError("reserved or non-printable character in frame " + repr(body))
    line = b"$" + data + b"*" + hex2(checksum(data)).encode() + b"\r\n"
    if len(line) > MAX_LINE:
        raise ValueError("frame longer than %d bytes" % MAX_LINE)
    return line


def _is_hex2(text):
    if len(text) != 2:
        return False
    for ch in text:
        if ch not in _HEX:
            return False
    return True


def pump(poller, stream, core, now):
    """Feed every byte the host has sent (``poller`` says one is waiting on ``stream``) into ``core``."""
    while poller.poll(0):
        data = stream.read(1)
        if not data:
            return
        core.feed(data, now)


class LineReader:
    """Splits a byte stream into checked frames.

    ``feed(data)`` returns a list of ``(type, fields)`` (str, list of str) for every complete line
    ``$BODY*CS\\r\\n`` whose checksum is right. Anything else (junk, half lines, bad checksums, lines
    over MAX_LINE bytes) is dropped and counted in ``bad``. The buffer never holds more than MAX_LINE
    bytes. Never raises for any bytes.
    """

    def __init__(self):
        self.buf = b""
        self.skipping = False
        self.bad = 0

    def feed(self, data):
        """Take ``data`` (bytes); return the list of ``(type, fields)`` of the frames it completed."""
        out = []
        buf = self.buf + bytes(data)
        self.buf = b""
        pos = 0
        end_all = len(buf)
        while pos < end_all:
            if self.skipping:  # inside an over-long line: drop up to "\n" or "$"
                nl = buf.find(b"\n", pos)
                dollar = buf.find(b"$", pos)
                if dollar >= 0 and (nl < 0 or dollar < nl):
                    self.skipping = False
                    pos = dollar
                elif nl >= 0:
                    self.skipping = False
                    pos = nl + 1
                else:
                    pos = end_all
                continue
            start = buf.find(b"$", pos)
            if start < 0:  # junk outside any frame
                if buf[pos:].strip():
                    self.bad += 1
                break
            if start > pos and buf[pos:start].strip():
                self.bad += 1  # junk before a frame
            nl = buf.find(b"\n", start)
            again = buf.find(b"$", start + 1)
            if again >= 0 and (nl < 0 or again < nl):
                self.bad += 1  # a half line cut short by a new "$"
                pos = again
                continue
            if nl < 0:
                if end_all - start >= MAX_LINE:
                    self.bad += 1
                    self.skipping = True
                    pos = end_all
                else:
                    self.buf = buf[start:]
                break
            line = buf[start : nl + 1]
            pos = nl + 1
            decoded = self._decode(line)
            if decoded is None:
                self.bad += 1
            else:
                out.append(decoded)
        return out

    def _decode(self, line):
        if len(line) > MAX_LINE or len(line) < 6 or line[-2:] != b"\r\n" or line[-5:-4] != b"*":
            return None
        body = line[1:-5]
        try:
            text = body.decode()
            cs = line[-4:-2].decode()
        except Exception:  # noqa: BLE001 - MicroPython raises UnicodeError, CPython UnicodeDecodeError
            return None
        if not _is_hex2(cs) or int(cs, 16) != checksum(body):
            return None
        for byte in body:
            if byte < 0x20 or byte > 0x7E or byte == 0x24 or byte == 0x2A:
                return None
        parts = text.split(",")
        return parts[0], parts[1:]


def _uint(text, low, high):
    """``text`` as an int in low..high if it is a canonical decimal number, else None."""
    if not text or len(text) > 10:
        return None
    for ch in text:
        if ch < "0" or ch > "9":
            return None
    if len(text) > 1 and text[0] == "0":
        return None
    value = int(text)
    if value < low or value > high:
        return None
    return value


class DeviceCore:
    """One reader's protocol session, without any I/O.

    ``kind`` is ``"dice"`` or ``"tiles"``; ``uid`` the board's unique id (e.g. the Pico flash id in
    hex); ``boot`` four upper-case hex digits chosen at random at power-up (so the host can tell a
    reset board's sequence numbers from the last boot's); ``firmware`` a version string;
    ``caps`` the capability list (``"dice=10;keypad"``, ``"slots=4"``).

    Use: ``feed(bytes_from_host, now)`` whenever bytes arrive; ``report_dice`` / ``report_tile`` when
    something happens; and every few milliseconds write out each line of ``poll(now)``.
    ``new_session`` becomes True when the host starts listening (the tile reader then re-reports the
    tags that are present and clears the flag).
    """

    def __init__(self, kind, uid, boot, firmware, caps="", now=0, diff=None):
        self.kind, self.uid, self.boot, self.firmware, self.caps = kind, uid, boot, firmware, caps
        self.diff = diff or _diff
        self.reader = LineReader()
        self.started = now
        self.heard_at = None
        self.last_hello = None
        self.last_hb = now
        self.queue = []  # [seq, line, created_ms, last_sent_ms or None], oldest first
        self.seq = 0
        self.hb_ms = HEARTBEAT_MS
        self.resend_ms = RESEND_MS
        self.beep = 1
        self.new_session = False
        self.outbox = []
        self.acked = 0
        self.expired = 0
        self.refused = 0
        self._bad_seen = 0
        self._bad_reported_at = None

    # -- host side -------------------------------------------------------------------------------------
    def heard(self, now):
        """True while the host's last valid frame is less than HEARD_TIMEOUT_MS old."""
        return self.heard_at is not None and self.diff(now, self.heard_at) < HEARD_TIMEOUT_MS

    def lost_host(self):
        """Forget the host (the simulator calls this on a replug without reset): HELLO starts again."""
        self.heard_at = None
        self.last_hello = None

    def feed(self, data, now):
        """Handle bytes from the host. Replies (HB to a PING, ERR to a bad SET) go to the next poll()."""
        for kind, fields in self.reader.feed(data):
            was_heard = self.heard(now)
            if not self._handle(kind, fields, now):
                self.reader.bad += 1
                continue
            self.heard_at = now
            if not was_heard:
                self.new_session = True
                self.last_hb = now
                for item in self.queue:  # a new listener: re-send everything at once
                    item[3] = None

    def _handle(self, kind, fields, now):
        if kind == "PING" and not fields:
            self.outbox.append(self.heartbeat_frame(now))
            return True
        if kind == "ACK" and len(fields) == 1:
            seq = _uint(fields[0], 1, SEQ_MAX)
            if seq is None:
                return False
            for item in self.queue:
                if item[0] == seq:
                    self.queue.remove(item)
                    self.acked += 1
                    break
            return True
        if kind == "SET" and len(fields) == 2:
            key, value = fields
            limits = SETTINGS.get(key)
            number = _uint(value, limits[0], limits[1]) if limits else None
            if number is None:
                self._error(ERR_SETTING, "bad setting " + key + "=" + value)
            elif key == "hb":
                self.hb_ms = number
            elif key == "resend":
                self.resend_ms = number
            else:
                self.beep = number
            return True
        return False

    # -- results ------------------------------------------------------------------------------------------
    def report_dice(self, values, now):
        """Queue a dice result (1..MAX_DICE faces, each 1..6). Returns its sequence number, or None if
        the queue is full (an ERR 2 is sent instead). Raises ValueError for impossible values."""
        values = list(values)
        if not 1 <= len(values) <= MAX_DICE:
            raise ValueError("1 to %d dice, not %d" % (MAX_DICE, len(values)))
        for value in values:
            if not 1 <= value <= 6:
                raise ValueError("a die shows 1 to 6, not %r" % (value,))
        return self._enqueue("DICE", [len(values)] + values, now)

    def report_tile(self, placed, slot, uid, now):
        """Queue TILE+ (``placed``) or TILE- for ``slot`` (1..MAX_SLOTS) and tag ``uid`` (upper-case
        hex of 4, 7 or 10 bytes). Returns the sequence number or None (queue full)."""
        if not 1 <= slot <= MAX_SLOTS or len(uid) not in (8, 14, 20):
            raise ValueError("bad slot or uid")
        return self._enqueue("TILE+" if placed else "TILE-", [slot, uid], now)

    def _enqueue(self, kind, fields, now):
        if len(self.queue) >= QUEUE_MAX:
            self.refused += 1
            self._error(ERR_QUEUE_FULL, "queue full, result refused")
            return None
        self.seq = self.seq % SEQ_MAX + 1
        line = frame(kind, [self.seq] + fields)
        self.queue.append([self.seq, line, now, None])
        return self.seq

    def _error(self, code, text):
        self.outbox.append(frame("ERR", (code, text)))

    # -- output ---------------------------------------------------------------------------------------------
    def hello_frame(self):
        """This device's HELLO line."""
        return frame("HELLO", (PROTOCOL_VERSION, self.kind, self.uid, self.boot, self.firmware, self.caps))

    def heartbeat_frame(self, now):
        """An HB line: uptime in whole seconds and the number of unacknowledged results."""
        uptime = max(0, self.diff(now, self.started) // 1000)
        return frame("HB", (min(uptime, 4294967295), min(len(self.queue), 255)))

    def poll(self, now):
        """Every line to write now, in order: replies, HELLO (host not heard) or HB, due results."""
        out = self.outbox
        self.outbox = []
        for item in list(self.queue):
            if self.diff(now, item[2]) >= RESULT_LIFETIME_MS:
                self.queue.remove(item)
                self.expired += 1
                out.append(frame("ERR", (ERR_EXPIRED, "result %d expired unacknowledged" % item[0])))
        bad = self.reader.bad
        if bad != self._bad_seen and (
            self._bad_reported_at is None or self.diff(now, self._bad_reported_at) >= BAD_FRAME_REPORT_MS
        ):
            out.append(frame("ERR", (ERR_BAD_HOST_FRAME, "%d bad host frames" % (bad - self._bad_seen))))
            self._bad_seen, self._bad_reported_at = bad, now
        if not self.heard(now):
            if self.last_hello is None or self.diff(now, self.last_hello) >= HELLO_INTERVAL_MS:
                out.append(self.hello_frame())
                self.last_hello = now
            return out
        if self.diff(now, self.last_hb) >= self.hb_ms:
            out.append(self.heartbeat_frame(now))
            self.last_hb = now
        for item in self.queue:
            if item[3] is None or self.diff(now, item[3]) >= self.resend_ms:
                out.append(item[1])
                item[3] = now
        return out


class PipEntry:
    """The dice pad's keypad: the roller types each die's pips, then sends.

    Keys: ``"1"``..``"6"`` add a die; ``"*"`` removes the last die; ``"A"`` clears; ``"#"`` sends.
    ``press(key)`` returns the list of faces when ``#`` sends a non-empty entry, else None. Refused
    keys (7, 8, 9, 0, an 11th die, ``#`` with nothing entered) are counted in ``refused`` and
    explained in ``message`` (shown on the pad's display, if any).
    """

    def __init__(self, max_dice=MAX_DICE):
        self.max_dice = max_dice
        self.values = []
        self.refused = 0
        self.message = ""

    def press(self, key):
        """One key (a one-character string); returns the faces to send, or None."""
        self.message = ""
        if key in ("1", "2", "3", "4", "5", "6"):
            if len(self.values) >= self.max_dice:
                return self._refuse("at most %d dice" % self.max_dice)
            self.values.append(int(key))
        elif key == "*":
            if self.values:
                self.values.pop()
        elif key == "A":
            self.values = []
        elif key == "#":
            if not self.values:
                return self._refuse("enter the pips first")
            values, self.values = self.values, []
            return values
        else:
            return self._refuse("a die shows 1 to 6")
        return None

    def _refuse(self, text):
        self.refused += 1
        self.message = text
        return None


class SlotTracker:
    """Debounces tag reads per reader slot (slots are numbered 1..slots).

    ``update(slot, uid)`` takes one poll's result (``uid`` hex string, or None if no tag answered) and
    returns a list of events ``(placed, slot, uid)``: ``(True, 2, "04A1B2C3")`` when a tag appears,
    ``(False, 2, "04A1B2C3")`` once it has been missing for ``misses`` polls in a row (an MFRC522 misses
    a present tag now and then). A different tag on an occupied slot removes the old one first.
    """

    def __init__(self, slots, misses=3):
        self.slots = slots
        self.misses = misses
        self.uids = [None] * (slots + 1)
        self.missed = [0] * (slots + 1)

    def update(self, slot, uid):
        """One poll of ``slot``: ``uid`` (hex) or None; returns the events it causes (see the class)."""
        events = []
        current = self.uids[slot]
        if uid is None:
            if current is not None:
                self.missed[slot] += 1
                if self.missed[slot] >= self.misses:
                    self.uids[slot] = None
                    self.missed[slot] = 0
                    events.append((False, slot, current))
            return events
        self.missed[slot] = 0
        if uid != current:
            if current is not None:
                events.append((False, slot, current))
            self.uids[slot] = uid
            events.append((True, slot, uid))
        return events

    def present(self):
        """``[(slot, uid), ...]`` of the tags currently on the reader."""
        return [(slot, self.uids[slot]) for slot in range(1, self.slots + 1) if self.uids[slot] is not None]
