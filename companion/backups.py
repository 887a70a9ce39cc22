"""Journal backups: several generations of incremental copies, written atomically, that never eat a game.

Layout (folder ``backups/`` beside the journal). A *generation* is one full copy of the journal (its
*base*) followed by *deltas*: the events appended since, in order::

    gen-000004-base-0000012345.sqlite3      SQLite copy of the journal up to seq 12345 (online backup API)
    gen-000004-d-000001-000016.jsonl        parts 1..16 of generation 4 (a merge of 16 single parts)
    gen-000004-d-000017-000017.jsonl        part 17: the events since part 16

A delta part is JSON Lines; every line is ``<crc32 as 8 hex digits> <json>`` so a damaged line is
recognised and nothing after it is trusted. Lines: ``{"h": header}`` (format, journal id, generation,
parts, ``after_seq``), ``{"g": games row}`` for each game it touches, ``{"e": events row}`` in seq
order (the payload as the journal's own JSON text), ``{"t": tiles rows}`` when the tile registry
changed, and ``{"end": summary}``: the generation's per-game ``[start_seq, start_time, events,
last_seq]`` up to this part. Half a file never has a final name: each file is written as ``*.tmp``,
fsynced, renamed, and the folder fsynced. Leftover ``*.tmp`` (and earlier versions' ``*.partial``)
files are removed by :func:`clean_leftovers` at start-up.

Costs. A part holds only new events, so a backup never grows with the game. Sixteen parts of one
size are merged into one (each event is rewritten once per merge level, a handful of times in a long
game), and a new generation (a new base) starts once the parts together outgrow the base, so bases
cost about twice the journal's final size over a game's life: amortised, a few hundred bytes per
event (benchmarks/run.py, ``disk``). A journal with a new identity (a recovered journal, another
file) always starts a new generation: a delta is only ever added to a copy of the same journal.

Pruning keeps the newest :data:`GENERATIONS_KEPT` generations, and an older generation (or a full
copy ``journal-<time>-<seq>.sqlite3`` from an earlier version) is deleted only if a kept generation
holds at least as many events of each of its games: a backup is never replaced by one holding fewer
events of the same games. The writer reads the journal through its own connection, so
:class:`BackupWorker` runs it off the table's thread.
"""

from __future__ import annotations

import json
import logging
import os
import re
import sqlite3
import threading
import time as _time
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

log = logging.getLogger("companion.backups")

BACKUP_DIR = "backups"
#: Newest generations always kept (older ones only while they hold more of some game).
GENERATIONS_KEPT = 3
#: This many delta parts of one size are merged into one.
MERGE_FAN_IN = 16
#: A new generation starts when the parts together exceed the base's size (and at least this much).
MIN_PARTS_BYTES = 256 * 1024
DELTA_FORMAT = 1
TEMP_SUFFIX = ".tmp"

_BASE = re.compile(r"gen-(\d{6})-base-(\d{10})\.sqlite3")
_PART = re.compile(r"gen-(\d{6})-d-(\d{6})-(\d{6})\.jsonl")
_LEGACY = re.compile(r"journal-\d{8}-\d{6}-(\d+)\.sqlite3")
_LEFTOVER = (TEMP_SUFFIX, ".partial", ".partial-journal", ".tmp-journal")

EVENT_COLUMNS = "seq, game_id, move, time, type, payload, schema_version"
GAME_COLUMNS = "id, game, created, status, players, options"


class BackupError(RuntimeError):
    """A backup could not be written (the journal is unchanged; the next backup tries again)."""


# -- files ----------------------------------------------------------------------------------------------
def folder_of(journal_path: Path) -> Path:
    """The backup folder of the journal at ``journal_path``."""
    return Path(journal_path).parent / BACKUP_DIR


def fsync_file(path: Path) -> None:
    """fsync a file (or a folder: a rename in it then survives a power cut)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def fsync_dir(folder: Path) -> None:
    """fsync a folder, so a rename in it survives a power cut."""
    fsync_file(folder)


def _write_atomically(target: Path, data: bytes) -> None:
    temporary = target.with_name(target.name + TEMP_SUFFIX)
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(temporary, target)
    fsync_dir(target.parent)


def clean_leftovers(folder: Path) -> list[Path]:
    """Remove half-written files (``*.tmp``, earlier versions' ``*.partial``) and delta parts that a
    finished merge covers. Returns what was removed. Never touches a complete, needed backup."""
    removed: list[Path] = []
    if not folder.is_dir():
        return removed
    for path in folder.iterdir():
        if path.name.endswith(_LEFTOVER) and path.is_file():
            path.unlink(missing_ok=True)
            removed.append(path)
    for generation in generations(folder):
        for part in generation.covered:
            part.path.unlink(missing_ok=True)
            removed.append(part.path)
    if removed:
        log.info("removed %d half-written or superseded backup files from %s", len(removed), folder)
    return removed


@dataclass(frozen=True)
class Part:
    """One delta file: parts ``first``..``last`` of its generation."""

    path: Path
    first: int
    last: int

    @property
    def span(self) -> int:
        return self.last - self.first + 1


@dataclass
class Generation:
    """One backup generation: ``base`` (a SQLite copy up to ``base_seq``) and its chain of ``parts``
    (the longest run of consecutive parts from part 1). ``legacy`` marks a full copy written by an
    earlier version (no parts). ``covered``: parts that a merged part makes redundant; ``stray``: parts
    that do not join the chain (after a missing part)."""

    number: int
    base: Path
    base_seq: int
    parts: list[Part] = field(default_factory=list)
    covered: list[Part] = field(default_factory=list)
    stray: list[Part] = field(default_factory=list)
    legacy: bool = False

    @property
    def files(self) -> list[Path]:
        return [self.base] + [p.path for p in self.parts + self.covered + self.stray]

    @property
    def name(self) -> str:
        return self.base.name if self.legacy else f"gen-{self.number:06d}"


def generations(folder: Path) -> list[Generation]:
    """Every backup generation in ``folder``, newest first (full copies of earlier versions last,
    newest first among them)."""
    if not folder.is_dir():
        return []
    found: dict[int, Generation] = {}
    parts: dict[int, list[Part]] = {}
    legacy: list[Generation] = []
    for path in folder.iterdir():
        if match := _BASE.fullmatch(path.name):
            number = int(match[1])
            if number not in found or int(match[2]) > found[number].base_seq:
                found[number] = Generation(number, path, int(match[2]))
        elif match := _PART.fullmatch(path.name):
            parts.setdefault(int(match[1]), []).append(Part(path, int(match[2]), int(match[3])))
        elif match := _LEGACY.fullmatch(path.name):
            legacy.append(Generation(-1, path, int(match[1]), legacy=True))
    for number, generation in found.items():
        pool = sorted(parts.get(number, []), key=lambda p: (p.first, -p.last))
        chain, next_part = [], 1
        for part in pool:
            if part.first == next_part:
                chain.append(part)
                next_part = part.last + 1
            elif part.last < next_part:
                generation.covered.append(part)
            else:
                generation.stray.append(part)
        generation.parts = chain
    newest = sorted(found.values(), key=lambda g: g.number, reverse=True)
    return newest + sorted(legacy, key=lambda g: g.base.name, reverse=True)


def backup_files(journal_path: Path) -> list[Path]:
    """Every complete backup file of the journal at ``journal_path``, newest generation first (its base,
    then its parts in order)."""
    return [
        path
        for generation in generations(folder_of(journal_path))
        for path in [generation.base] + [p.path for p in generation.parts]
    ]


# -- delta parts --------------------------------------------------------------------------------------
def _line(obj: Any) -> bytes:
    body = json.dumps(obj, separators=(",", ":"), ensure_ascii=True).encode("ascii")
    return b"%08x %s\n" % (zlib.crc32(body), body)


@dataclass
class PartContent:
    """What a delta part holds; ``complete`` is False if a damaged or missing line cut it short (then
    ``events`` is the readable run from its start and ``end`` is ``None``)."""

    header: dict
    games: dict[int, tuple]
    events: list[tuple]
    tiles: list[tuple] | None
    end: dict | None
    complete: bool


def read_part(path: Path) -> PartContent | None:
    """Read one delta part; ``None`` if not even its header can be read."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    header: dict | None = None
    games: dict[int, tuple] = {}
    events: list[tuple] = []
    tiles = None
    end = None
    for raw in data.split(b"\n"):
        if not raw:
            break
        try:
            crc, body = raw[:8], raw[9:]
            if raw[8:9] != b" " or int(crc, 16) != zlib.crc32(body):
                break
            obj = json.loads(body)
        except (ValueError, UnicodeDecodeError):
            break
        if header is None:
            if not isinstance(obj.get("h"), dict):
                return None
            header = obj["h"]
        elif "g" in obj:
            games[int(obj["g"][0])] = tuple(obj["g"])
        elif "e" in obj:
            events.append(tuple(obj["e"]))
        elif "t" in obj:
            tiles = [tuple(row) for row in obj["t"]]
        elif "end" in obj:
            end = obj["end"]
            break
    if header is None or header.get("format", 0) > DELTA_FORMAT:
        return None
    return PartContent(header, games, events, tiles, end, end is not None)


# -- summaries ----------------------------------------------------------------------------------------
#: Per game id: [start_seq, start_time, events, last_seq].
Summary = dict[int, list]


def summary_of_db(db: sqlite3.Connection) -> Summary:
    """The per-game summary of a journal (or base) connection."""
    rows = db.execute("SELECT game_id, MIN(seq), COUNT(*), MAX(seq) FROM events GROUP BY game_id").fetchall()
    result: Summary = {}
    for game_id, first, count, last in rows:
        start = db.execute("SELECT time FROM events WHERE seq = ?", (first,)).fetchone()
        result[int(game_id)] = [int(first), float(start[0]) if start else 0.0, int(count), int(last)]
    return result


def add_to_summary(summary: Summary, events: Iterable[tuple]) -> Summary:
    result = {k: list(v) for k, v in summary.items()}
    for seq, game_id, _move, time, *_rest in events:
        entry = result.get(int(game_id))
        if entry is None:
            result[int(game_id)] = [int(seq), float(time), 1, int(seq)]
        else:
            entry[2] += 1
            entry[3] = max(entry[3], int(seq))
    return result


def holds_at_least(bigger: Summary, smaller: Summary) -> bool:
    """True if ``bigger`` holds at least as many events as ``smaller`` of each of ``smaller``'s games
    (a game is the same if its id and first event match)."""
    for game_id, (start, start_time, count, _last) in smaller.items():
        other = bigger.get(game_id)
        if other is None or other[0] != start or abs(other[1] - start_time) > 1e-6 or other[2] < count:
            return False
    return True


def open_copy(path: Path) -> sqlite3.Connection:
    """A read-only connection to a backup file (never written, so no locks and no ``-shm``)."""
    db = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True, isolation_level=None, check_same_thread=False)
    return db


def _tables(db: sqlite3.Connection) -> set[str]:
    return {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def meta_value(db: sqlite3.Connection, key: str) -> str | None:
    """A value of the journal's ``meta`` table (``None`` if absent, or in journals without it)."""
    try:
        row = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    except sqlite3.Error:
        return None
    return row[0] if row else None


def generation_summary(generation: Generation) -> tuple[Summary, str | None] | None:
    """``(summary, journal_id)`` of a generation's readable chain, or ``None`` if its base cannot be read.
    Uses the newest part's own summary when the chain reads whole."""
    try:
        db = open_copy(generation.base)
        try:
            from companion.journal import JOURNAL_FORMAT  # local: journal imports this module

            if db.execute("PRAGMA user_version").fetchone()[0] > JOURNAL_FORMAT:
                return None
            journal_id = meta_value(db, "journal_id")
            if generation.parts:
                last = read_part(generation.parts[-1].path)
                if last is not None and last.complete and last.end is not None and "games" in last.end:
                    return {int(k): v for k, v in last.end["games"].items()}, journal_id
            summary = summary_of_db(db)
        finally:
            db.close()
    except sqlite3.Error:
        return None
    for part in generation.parts:
        content = read_part(part.path)
        if content is None:
            break
        summary = add_to_summary(summary, [e for e in content.events if int(e[0]) > 0])
        if not content.complete:
            break
    return summary, journal_id


# -- writing ------------------------------------------------------------------------------------------
@dataclass
class _Head:
    """What the writer knows about the generation it is adding to."""

    generation: int
    journal_id: str | None
    next_part: int
    last_seq: int
    last_event: list | None  # [seq, game_id, move, time] of the newest event copied
    summary: Summary
    tiles_sig: str
    base_bytes: int
    parts_bytes: int
    parts: list[Part]


def _tiles(db: sqlite3.Connection) -> list[tuple]:
    if "tiles" not in _tables(db):
        return []
    return [tuple(r) for r in db.execute("SELECT uid, kind, details, learned FROM tiles ORDER BY uid")]


def _tiles_sig(rows: list[tuple]) -> str:
    """What the tiles table holds, in 16 hex digits that change whenever it does (CRC-32 and Adler-32, as the
    stored states' format key: companion/snapshots.py; hashlib would load OpenSSL into the kiosk for this)."""
    data = json.dumps(rows).encode()
    return f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}"


def _event_key(row) -> list:
    return [int(row[0]), int(row[1]), int(row[2]), float(row[3])]


class BackupWriter:
    """Writes the backups of the journal at ``journal_path`` (its own connections; any thread, one at a
    time). :meth:`backup` adds a delta part or starts a generation; see the module docstring."""

    def __init__(self, journal_path: str | os.PathLike, *, keep: int = GENERATIONS_KEPT) -> None:
        self.journal_path = Path(journal_path)
        self.folder = folder_of(self.journal_path)
        self.keep = keep
        self._head: _Head | None = None
        self._lock = threading.Lock()

    def backup(self, *, new_generation: bool = False) -> Path | None:
        """Back up what is new in the journal; return the file written, or ``None`` if nothing changed.
        ``new_generation`` copies the whole journal as a new generation instead. Raises
        :class:`BackupError` if it cannot be written."""
        with self._lock:
            try:
                self.folder.mkdir(parents=True, exist_ok=True)
                if new_generation:
                    return self._new_generation(self._connect())
                return self._backup()
            except (OSError, sqlite3.Error) as error:
                self._head = None  # read it again from disk next time
                raise BackupError(f"cannot back up {self.journal_path} to {self.folder}: {error}") from error

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(
            f"file:{self.journal_path}?mode=ro", uri=True, isolation_level=None, timeout=5, check_same_thread=False
        )

    def _backup(self) -> Path | None:
        head = self._head if self._head is not None else self._read_head()
        db = self._connect()
        try:
            db.execute("BEGIN")
            journal_id = meta_value(db, "journal_id")
            if head is None or journal_id is None or head.journal_id != journal_id:
                db.execute("COMMIT")
                return self._new_generation(db)
            if head.last_event is not None:
                row = db.execute(f"SELECT {EVENT_COLUMNS} FROM events WHERE seq = ?", (head.last_event[0],)).fetchone()
                if row is None or _event_key(row) != head.last_event:
                    db.execute("COMMIT")
                    return self._new_generation(db)  # the journal is not the one this chain copies
            events = [
                tuple(r)
                for r in db.execute(f"SELECT {EVENT_COLUMNS} FROM events WHERE seq > ? ORDER BY seq", (head.last_seq,))
            ]
            touched = sorted({int(e[1]) for e in events})
            games = (
                [
                    tuple(r)
                    for r in db.execute(
                        f"SELECT {GAME_COLUMNS} FROM games WHERE id IN ({','.join('?' * len(touched))})", touched
                    )
                ]
                if touched
                else []
            )
            tiles = _tiles(db)
            db.execute("COMMIT")
        finally:
            db.close()
        sig = _tiles_sig(tiles)
        if not events and sig == head.tiles_sig:
            return None
        summary = add_to_summary(head.summary, events)
        lines = [
            _line(
                {
                    "h": {
                        "format": DELTA_FORMAT,
                        "journal_id": head.journal_id,
                        "generation": head.generation,
                        "parts": [head.next_part, head.next_part],
                        "after_seq": head.last_seq,
                        "time": _time.time(),
                    }
                }
            )
        ]
        lines += [_line({"g": list(g)}) for g in games]
        lines += [_line({"e": list(e)}) for e in events]
        if sig != head.tiles_sig:
            lines.append(_line({"t": [list(t) for t in tiles]}))
        last_seq = int(events[-1][0]) if events else head.last_seq
        lines.append(
            _line(
                {
                    "end": {
                        "games": {str(k): v for k, v in summary.items()},
                        "last_seq": last_seq,
                        "tiles_sig": sig,
                        "events": len(events),
                    }
                }
            )
        )
        data = b"".join(lines)
        if head.parts_bytes + len(data) > max(head.base_bytes, MIN_PARTS_BYTES):
            return self._new_generation(self._connect(), close=True)
        part = Part(
            self.folder / f"gen-{head.generation:06d}-d-{head.next_part:06d}-{head.next_part:06d}.jsonl",
            head.next_part,
            head.next_part,
        )
        _write_atomically(part.path, data)
        head.next_part += 1
        head.last_seq = last_seq
        if events:
            head.last_event = _event_key(events[-1])
        head.summary, head.tiles_sig = summary, sig
        head.parts_bytes += len(data)
        head.parts.append(part)
        self._merge_tail(head)
        return part.path

    # -- generations --------------------------------------------------------------------------------
    def _read_head(self) -> _Head | None:
        """The newest generation as the writer needs it, or ``None`` (start a new one)."""
        found = [g for g in generations(self.folder) if not g.legacy]
        if not found:
            return None
        generation = found[0]
        if generation.stray:
            return None  # a part is missing in the middle: start afresh
        try:
            db = open_copy(generation.base)
            try:
                journal_id = meta_value(db, "journal_id")
                base_seq = db.execute("SELECT IFNULL(MAX(seq), 0) FROM events").fetchone()[0]
                row = db.execute(f"SELECT {EVENT_COLUMNS} FROM events WHERE seq = ?", (base_seq,)).fetchone()
                last_event = _event_key(row) if row else None
                summary = summary_of_db(db)
                tiles_sig = _tiles_sig(_tiles(db))
            finally:
                db.close()
        except sqlite3.Error:
            return None
        head = _Head(
            generation.number,
            journal_id,
            1,
            base_seq,
            last_event,
            summary,
            tiles_sig,
            generation.base.stat().st_size,
            0,
            [],
        )
        for part in generation.parts:
            content = read_part(part.path)
            if content is None or not content.complete or content.end is None:
                return None
            head.next_part = part.last + 1
            if content.events:
                head.last_seq = int(content.events[-1][0])
                head.last_event = _event_key(content.events[-1])
            head.summary = {int(k): v for k, v in content.end["games"].items()}
            head.tiles_sig = content.end.get("tiles_sig", head.tiles_sig)
            head.parts_bytes += part.path.stat().st_size
            head.parts.append(part)
        return head

    def _new_generation(self, db: sqlite3.Connection, close: bool = True) -> Path:
        """Copy the whole journal as the base of a new generation, then prune old generations."""
        try:
            numbers = [g.number for g in generations(self.folder) if not g.legacy]
            number = max(numbers, default=0) + 1
            temporary = self.folder / f"gen-{number:06d}-base.sqlite3{TEMP_SUFFIX}"
            temporary.unlink(missing_ok=True)
            copy = sqlite3.connect(str(temporary), isolation_level=None)
            try:
                copy.execute("PRAGMA journal_mode = OFF")  # a temporary file: no rollback journal
                db.backup(copy)
                copy.execute("PRAGMA journal_mode = DELETE")  # a plain file, readable without -wal/-shm
                if copy.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                    raise BackupError("the copy does not check out")
                journal_id = meta_value(copy, "journal_id")
                base_seq = copy.execute("SELECT IFNULL(MAX(seq), 0) FROM events").fetchone()[0]
                row = copy.execute(f"SELECT {EVENT_COLUMNS} FROM events WHERE seq = ?", (base_seq,)).fetchone()
                summary = summary_of_db(copy)
                tiles_sig = _tiles_sig(_tiles(copy))
            finally:
                copy.close()
        finally:
            if close:
                db.close()
        fsync_file(temporary)
        target = self.folder / f"gen-{number:06d}-base-{base_seq:010d}.sqlite3"
        os.replace(temporary, target)
        fsync_dir(self.folder)
        self._head = _Head(
            number,
            journal_id,
            1,
            base_seq,
            _event_key(row) if row else None,
            summary,
            tiles_sig,
            target.stat().st_size,
            0,
            [],
        )
        self.prune()
        return target

    def _merge_tail(self, head: _Head) -> None:
        """Merge the last :data:`MERGE_FAN_IN` parts while they are all of one span (like a binary counter)."""
        while len(head.parts) >= MERGE_FAN_IN:
            tail = head.parts[-MERGE_FAN_IN:]
            if len({p.span for p in tail}) != 1:
                return
            contents = [read_part(p.path) for p in tail]
            read = [c for c in contents if c is not None and c.complete and c.end is not None]
            if len(read) != len(contents):
                self._head = None  # a part went bad: the next backup starts a generation
                return
            games: dict[int, tuple] = {}
            events: list[tuple] = []
            tiles = None
            for content in read:
                games.update(content.games)
                events.extend(content.events)
                tiles = content.tiles if content.tiles is not None else tiles
            first, last = tail[0].first, tail[-1].last
            header = dict(read[0].header, parts=[first, last], time=_time.time())
            lines = [_line({"h": header})] + [_line({"g": list(g)}) for g in games.values()]
            lines += [_line({"e": list(e)}) for e in events]
            if tiles is not None:
                lines.append(_line({"t": [list(t) for t in tiles]}))
            lines.append(_line({"end": dict(read[-1].end or {}, events=len(events))}))
            merged = Part(self.folder / f"gen-{head.generation:06d}-d-{first:06d}-{last:06d}.jsonl", first, last)
            data = b"".join(lines)
            _write_atomically(merged.path, data)
            for part in tail:  # only once the merged file is safely on disk
                part.path.unlink(missing_ok=True)
            fsync_dir(self.folder)
            head.parts[-MERGE_FAN_IN:] = [merged]
            head.parts_bytes = sum(p.path.stat().st_size for p in head.parts)

    def prune(self) -> list[Path]:
        """Delete old generations that a kept one holds entirely (see the module docstring)."""
        found = generations(self.folder)
        kept = found[: self.keep]
        summaries = [s for s in (generation_summary(g) for g in kept) if s is not None]
        removed: list[Path] = []
        for old in found[self.keep :]:
            summary = generation_summary(old)
            if summary is None:
                log.warning("backup %s cannot be read; it is left in place", old.name)
                continue
            if any(holds_at_least(kept_summary, summary[0]) for kept_summary, _ in summaries):
                for path in reversed(old.files):  # parts from the newest, then the base
                    path.unlink(missing_ok=True)
                    removed.append(path)
            else:
                log.info("backup %s is kept: no newer backup holds all of its games' events", old.name)
        if removed:
            fsync_dir(self.folder)
        return removed


class BackupWorker:
    """A background thread that runs :meth:`BackupWriter.backup` whenever :meth:`request` is called, so
    the table's thread never waits for a backup. Failures are logged, never raised. ``close()`` lets a
    requested backup finish (up to ``timeout`` seconds) and stops the thread; safe to call twice."""

    def __init__(self, writer: BackupWriter) -> None:
        self.writer = writer
        self._condition = threading.Condition()
        self._pending = False
        self._busy = False
        self._stopping = False
        self._thread: threading.Thread | None = None
        self.last_error: Exception | None = None
        self.written: list[Path] = []

    def request(self) -> None:
        """Ask for a backup soon; returns at once."""
        with self._condition:
            if self._stopping:
                return
            self._pending = True
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="journal-backup", daemon=True)
                self._thread.start()
            self._condition.notify_all()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until no backup is asked for or running; True if so within ``timeout``."""
        deadline = None if timeout is None else _time.monotonic() + timeout
        with self._condition:
            while self._pending or self._busy:
                remaining = None if deadline is None else deadline - _time.monotonic()
                if remaining is not None and remaining <= 0:
                    return False
                self._condition.wait(remaining)
        return True

    def _run(self) -> None:
        while True:
            with self._condition:
                while not self._pending and not self._stopping:
                    self._condition.wait()
                if not self._pending:
                    return
                self._pending, self._busy = False, True
            try:
                path = self.writer.backup()
                if path is not None:
                    self.written.append(path)
                    log.info("journal backed up to %s", path.name)
                self.last_error = None
            except Exception as error:  # the game goes on; the next request tries again
                self.last_error = error
                log.warning("journal backup failed (the game goes on): %s", error)
            finally:
                with self._condition:
                    self._busy = False
                    self._condition.notify_all()

    def close(self, timeout: float = 60.0) -> None:
        with self._condition:
            self._stopping = True
            self._condition.notify_all()
            thread = self._thread
        if thread is not None:
            thread.join(timeout)
