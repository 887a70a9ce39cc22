"""The journal: an append-only SQLite file of every event of every game. Nothing is ever deleted.

Layout (schema version in ``PRAGMA user_version``):

* ``games(id, game, created, status, players, options)`` — one row per game; ``status`` is ``open`` or
  ``finished`` and is updated in the same transaction as the event that changed it.
* ``events(seq, game_id, move, time, type, payload, schema_version)`` — one row per event; ``seq`` is
  journal-wide and increasing; ``move`` groups the events of one command; ``payload`` is JSON.
* ``meta(key, value)`` — ``journal_id`` (a random id of this file, so a backup chain is only ever
  continued from the journal it copies) and, after a recovery, ``seq_floor`` (no seq at or below it is
  used again) and ``recovery`` (what the recovery said).
* ``lost(first_seq, last_seq, time, note)`` — seqs a recovery did not keep: a later recovery knows those
  holes are not damage.
* ``snapshots(game_id, move, seq, depth, time, format, crc, state)`` — stored states, so that opening a game
  does not fold every event again (:meth:`companion.session.GameSession.open`): ``state`` is the game's state
  right after ``move`` was made (:mod:`companion.snapshots`, zlib-compressed JSON), with its events folded up
  to ``seq``, the move's last event; ``depth`` is how many moves were then in force, ``time`` the move's time,
  ``format`` the code's state format (:func:`companion.snapshots.format_key`), ``crc`` the CRC-32 of ``state``.
  A row is only a cache of what the events say: one that does not match them, does not decode or is of
  another format is ignored, and nothing else refers to it. Rows are written by the table's thread in the same
  transaction as a later move (encoded beforehand by a background thread: :meth:`Journal.store_snapshot_soon`).

``meta``, ``lost`` and ``snapshots`` are created when a journal is opened for writing (``CREATE TABLE IF NOT
EXISTS``: the migration every earlier version's journal gets on opening); journals written by earlier
versions (without them) open and replay as before, read-only ones too.

The file uses WAL with ``synchronous=FULL`` and a busy timeout, and has one writer (the table's owner
thread). Backups (:mod:`companion.backups`) are written by a background thread through their own
connection (:meth:`Journal.backup_soon`). :func:`open_journal` checks the file at start-up and, when it
is damaged, missing, stale or cannot be written, moves it aside (never deleted) and rebuilds it from the
best of what can be read (:mod:`companion.recovery`); a :class:`Recovery` says exactly what.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import sqlite3
import threading
import time as _time
import zlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from companion.snapshots import SnapshotWorker

from companion import backups as _backups
from companion.errors import JournalError, UnknownGame
from companion.events import GAME_STARTED, SCHEMA_VERSION, EventRecord, NewEvent, Recordable

log = logging.getLogger("companion.journal")

JOURNAL_FORMAT = 1
#: Backups live in this folder beside the journal; this many generations are always kept (older ones too
#: while they hold more of some game than the kept ones: see companion.backups).
BACKUP_DIR = _backups.BACKUP_DIR
BACKUPS_KEPT = _backups.GENERATIONS_KEPT
BUSY_TIMEOUT_MS = 5_000
#: How long ``close()`` lets a requested backup finish.
BACKUP_CLOSE_TIMEOUT_S = 60.0

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id       INTEGER PRIMARY KEY,
    game     TEXT    NOT NULL,
    created  REAL    NOT NULL,
    status   TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'finished')),
    players  TEXT    NOT NULL,
    options  TEXT    NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    seq            INTEGER PRIMARY KEY,
    game_id        INTEGER NOT NULL REFERENCES games(id),
    move           INTEGER NOT NULL,
    time           REAL    NOT NULL,
    type           TEXT    NOT NULL,
    payload        TEXT    NOT NULL,
    schema_version INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS events_by_game ON events (game_id, seq);
CREATE TABLE IF NOT EXISTS meta (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS lost (
    first_seq  INTEGER NOT NULL,
    last_seq   INTEGER NOT NULL,
    time       REAL    NOT NULL,
    note       TEXT    NOT NULL
);
CREATE TABLE IF NOT EXISTS snapshots (
    game_id  INTEGER NOT NULL,
    move     INTEGER NOT NULL,
    seq      INTEGER NOT NULL,
    depth    INTEGER NOT NULL,
    time     REAL    NOT NULL,
    format   TEXT    NOT NULL,
    crc      INTEGER NOT NULL,
    state    BLOB    NOT NULL,
    PRIMARY KEY (game_id, move)
);
"""

#: Stored states inserted at most this many per write transaction (a backlog, e.g. an earlier version's
#: journal getting its snapshots on its first opening, is spread over the next moves).
SNAPSHOTS_PER_TRANSACTION = 8
#: How long ``close()`` lets the snapshot thread finish encoding what it was given.
SNAPSHOT_CLOSE_TIMEOUT_S = 10.0
#: Rows per list of :meth:`Journal.skeleton` (≈ 0.35 MB of row tuples at a time).
SKELETON_BATCH = 2_048


@dataclass(frozen=True, slots=True)
class SnapshotRow:
    """A stored state's description (its bytes are read only when needed: :meth:`Journal.snapshot_state`):
    the ``move`` it follows, the ``seq`` of that move's last event, the ``depth`` (moves in force) and the
    move's ``time``."""

    move: int
    seq: int
    depth: int
    time: float


class JournalTooNew(JournalError):
    """The journal was written by a newer companion (``Journal()`` refuses it; ``open_journal`` moves it
    aside untouched and restores what the backups it can read hold)."""


class JournalUnwritable(JournalError):
    """The journal cannot be written: a read-only file, folder or file system, a full disk. A read-only
    journal raises it for every write, naming why (``reason``)."""

    def __init__(self, message: str, reason: str = "") -> None:
        super().__init__(message)
        self.reason = reason or message


#: SQLite result codes that mean "cannot write here" rather than "this is not a journal".
_UNWRITABLE = ("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_FULL", "SQLITE_PERM", "SQLITE_IOERR", "SQLITE_AUTH")


def _unwritable(error: sqlite3.Error) -> bool:
    name = getattr(error, "sqlite_errorname", "") or ""
    text = str(error).lower()
    return (
        name.startswith(_UNWRITABLE)
        or "readonly" in text
        or "read-only" in text
        or "disk is full" in text
        or "unable to open" in text
    )


#: A saved game's row as :class:`GameRecord` reads it. The count and the last event come from the
#: ``events_by_game`` index (``game_id, seq``): the count by scanning the game's index entries only, the last event
#: by one descent to its highest ``seq``. A ``MAX(time)`` over a join read every event's row instead: 61 ms for a
#: 100,000-event journal on a desktop (0.3 s on a Pi 4) at every start-up (:meth:`Journal.latest_open_game`) and
#: every showing of Home, against 5 ms (issue 17). The last event is the last one written, so a clock set back
#: between two moves does not make an older move the game's last.
GAME_ROWS = (
    "SELECT g.id, g.game, g.created, g.status, g.players, g.options, "
    "(SELECT COUNT(*) FROM events e WHERE e.game_id = g.id), "
    "(SELECT e.time FROM events e WHERE e.game_id = g.id ORDER BY e.seq DESC LIMIT 1) "
    "FROM games g"
)


@dataclass(frozen=True)
class GameRecord:
    """One saved game: journal ``id``, registered ``game`` name, ``created`` (Unix seconds), ``status``
    (``open``/``finished``), ``players`` (list of ``{"name", "colour"}``), ``options``, and the number of
    events and the time of the last one written (``events``, ``last_time``: Unix seconds)."""

    id: int
    game: str
    created: float
    status: str
    players: list
    options: dict
    events: int = 0
    last_time: float | None = None


@dataclass(frozen=True)
class Recovery:
    """What start-up did with a journal that was damaged, missing, stale or could not be written.

    ``problem`` says what was wrong; ``moved_to`` is where the file was moved (``None`` if nothing was
    moved); ``games_recovered``/``events_recovered`` count what the journal now holds; ``games`` is one
    :class:`companion.recovery.GameReport` per game (what was kept, what was not, and where the rest is);
    ``read_only`` is True when the games could only be opened read-only (then ``read_only_reason``).
    """

    moved_to: Path | None
    problem: str
    games_recovered: int
    events_recovered: int
    #: The newest backup that a kept game came from, if any.
    backup: Path | None = None
    #: Unix time of the newest event kept (None if nothing was recovered).
    restored_to: float | None = None
    kind: str = "damaged"
    games: tuple = ()
    read_only: bool = False
    read_only_reason: str = ""
    #: The words, when they were written by an earlier, interrupted start-up (then shown as they were).
    text: str = field(default="", compare=False)

    def message(self) -> str:
        """Sentences for the screen and the log: what was wrong, where the file went, then per game what
        was kept and what was not (clauses separated by ``; ``)."""
        if self.text:
            return self.text
        problem = " ".join(self.problem.split())
        problem = problem if len(problem) <= 160 else problem[:159] + "…"
        head = {
            "newer": "Journal from a newer companion",
            "unwritable": "Journal cannot be written",
            "missing": "Journal missing",
            "stale": "Journal behind its backups",
        }.get(self.kind, "Journal damaged")
        parts = [f"{head}: {problem}."]
        if self.moved_to is not None and self.kind == "newer":
            parts.append(
                f"It was moved, untouched, to {self.moved_to}; update the companion and put it back "
                f"as {self.moved_to.name.split('.newer-')[0]} to see its games."
            )
        elif self.moved_to is not None:
            parts.append(f"The file was kept as {self.moved_to} (never deleted).")
        from companion.recovery import describe
        from companion.words import count

        parts.append(
            f"{'Shown' if self.read_only else 'Restored'}: recovered {count(self.events_recovered, 'event')} "
            f"of {count(self.games_recovered, 'game')}: {describe(list(self.games))}."
        )
        if self.read_only:
            parts.append(f"The games are open READ-ONLY, no move can be recorded: {self.read_only_reason}.")
            if self.moved_to is None and self.kind not in ("missing", "unwritable"):
                parts.append("The damaged file was left where it is.")
        return " ".join(parts)


def _connect(path: Path) -> sqlite3.Connection:
    connection = sqlite3.connect(
        str(path), timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None, check_same_thread=False
    )
    connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    return connection


class Journal:
    """An open journal file (see the module docstring for the layout).

    ``Journal(path)`` creates the file if needed. Use :func:`open_journal` at start-up to also check it
    and recover from damage. Raises :class:`JournalError` if the file is not a journal or cannot be opened.
    ``close()`` is safe to call twice; the journal is a context manager.
    """

    #: True for :meth:`in_memory`'s journal: its reads say nothing of the file at ``path``.
    _in_memory = False

    def __init__(self, path: str | os.PathLike, *, read_only: bool = False, reason: str = "") -> None:
        self.path = Path(path)
        self.read_only = read_only
        self.read_only_reason = reason or ("opened read-only" if read_only else "")
        self._connection: sqlite3.Connection | None = None
        self._closed = True
        self._depth = 0
        self._seq_floor = 0
        self._writer: _backups.BackupWriter | None = None
        self._worker: _backups.BackupWorker | None = None
        self._snapshot_worker: SnapshotWorker | None = None
        self._snapshots_ready: list[tuple] = []
        self._snapshots_lock = threading.Lock()
        try:
            if read_only:
                if not self.path.exists():
                    raise JournalError(f"no journal at {self.path}")
                self._db = self._connect_read_only("mode=ro")
                try:
                    self._check_version()
                except sqlite3.OperationalError:
                    # a folder we may not write to (no -shm can be made): nobody can be writing either
                    self._db.close()
                    self._db = self._connect_read_only("mode=ro&immutable=1")
                    self._check_version()
            else:
                try:
                    self.path.parent.mkdir(parents=True, exist_ok=True)
                except OSError as error:
                    raise JournalUnwritable(
                        f"cannot create the folder {self.path.parent}: {error.strerror}", error.strerror or str(error)
                    ) from error
                self._db = _connect(self.path)
                mode = self._db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
                self._db.execute("PRAGMA synchronous = FULL")
                self._db.execute("PRAGMA foreign_keys = ON")
                synchronous = self._db.execute("PRAGMA synchronous").fetchone()[0]
                if mode.lower() != "wal" or synchronous != 2:  # checked, not assumed: power-cut safety
                    raise JournalError(
                        f"{self.path} could not be set to WAL with synchronous=FULL "
                        f"(got {mode}, synchronous={synchronous}); use a local file system"
                    )
                self._check_version()
                self._db.execute("BEGIN IMMEDIATE")  # the first write: fails if we may not write
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        self._db.execute(statement)
                self._db.execute(
                    "INSERT OR IGNORE INTO meta (key, value) VALUES ('journal_id', ?)", (os.urandom(16).hex(),)
                )
                if self._db.execute("PRAGMA user_version").fetchone()[0] != JOURNAL_FORMAT:
                    self._db.execute(f"PRAGMA user_version = {JOURNAL_FORMAT}")
                self._db.execute("COMMIT")
                self._seq_floor = int(self._meta("seq_floor") or 0)
        except sqlite3.DatabaseError as error:
            self._close_quietly()
            if not read_only and _unwritable(error):
                raise JournalUnwritable(f"{self.path} cannot be written: {error}", str(error)) from error
            raise JournalError(f"{self.path} cannot be used as a journal: {error}") from error
        except JournalError:
            self._close_quietly()
            raise
        if read_only:
            self._seq_floor = int(self._meta("seq_floor") or 0)
        self._closed = False

    @classmethod
    def in_memory(cls, path: str | os.PathLike, reason: str, fill=None) -> Journal:
        """A read-only journal held in memory (when nothing can be written where ``path`` is): ``fill(db)``
        writes its content first; every later write raises :class:`JournalUnwritable` with ``reason``."""
        journal = cls.__new__(cls)
        journal.path = Path(path)
        journal._in_memory = True
        journal.read_only, journal.read_only_reason = False, ""
        journal._depth, journal._seq_floor, journal._closed = 0, 0, False
        journal._writer = journal._worker = journal._snapshot_worker = None
        journal._snapshots_ready, journal._snapshots_lock = [], threading.Lock()
        journal._db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        journal._db.executescript(_SCHEMA)
        journal._db.execute("INSERT INTO meta (key, value) VALUES ('journal_id', ?)", (os.urandom(16).hex(),))
        if fill is not None:
            with journal._transaction():
                fill(journal._db)
        journal.read_only, journal.read_only_reason = True, reason
        return journal

    def _meta(self, key: str) -> str | None:
        return _backups.meta_value(self._db, key)

    @property
    def journal_id(self) -> str | None:
        """This file's random id (``None`` for a journal of an earlier version opened read-only)."""
        return self._meta("journal_id")

    def _connect_read_only(self, query: str) -> sqlite3.Connection:
        db = sqlite3.connect(
            f"file:{self.path}?{query}",
            uri=True,
            isolation_level=None,
            timeout=BUSY_TIMEOUT_MS / 1000,
            check_same_thread=False,
        )
        db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        return db

    def _check_version(self) -> None:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version > JOURNAL_FORMAT:
            raise JournalTooNew(
                f"{self.path} was written by a newer companion (journal format {version}, "
                f"this one reads up to {JOURNAL_FORMAT}); update the companion"
            )

    @property
    def _db(self) -> sqlite3.Connection:
        """The open connection; raises :class:`JournalError` before it is opened."""
        if self._connection is None:
            raise JournalError(f"the journal {self.path} is not open")
        return self._connection

    @_db.setter
    def _db(self, connection: sqlite3.Connection) -> None:
        self._connection = connection

    def _close_quietly(self) -> None:
        if self._connection is not None:
            try:
                self._connection.close()
            except sqlite3.Error:
                pass

    # -- writing (owner thread only) -------------------------------------------------------------------
    def create_game(
        self, game: str, players: Sequence[Mapping[str, Any]], options: Mapping[str, Any], time: float | None = None
    ) -> EventRecord:
        """Record a new game and its ``game_started`` event in one transaction; return that event."""
        time = _time.time() if time is None else time
        with self._transaction():
            cursor = self._db.execute(
                "INSERT INTO games (game, created, status, players, options) VALUES (?, ?, 'open', ?, ?)",
                (game, time, json.dumps(list(players)), json.dumps(dict(options))),
            )
            game_id = cursor.lastrowid
            assert game_id is not None  # an INSERT always sets it
            payload = {"game": game, "players": list(players), "options": dict(options)}
            return self._insert(game_id, [NewEvent(GAME_STARTED, payload)], time)[0]

    def append(
        self, game_id: int, events: Sequence[Recordable], time: float | None = None, status: str | None = None
    ) -> list[EventRecord]:
        """Append ``events`` (the events of one command) for ``game_id`` in one transaction, and set the
        game's ``status`` if given. Returns the committed records; they share ``move`` = the first ``seq``.
        Raises :class:`JournalError` if the write fails (nothing is written then)."""
        if not events:
            return []
        time = _time.time() if time is None else time
        with self._transaction():
            records = self._insert(game_id, events, time)
            if status is not None:
                self._db.execute("UPDATE games SET status = ? WHERE id = ?", (status, game_id))
        return records

    def _insert(self, game_id: int, events: Sequence[Recordable], time: float) -> list[EventRecord]:
        first = max(
            self._db.execute("SELECT IFNULL(MAX(seq), 0) + 1 FROM events").fetchone()[0], self._seq_floor + 1
        )  # seqs a recovery did not keep are never used again
        records = []
        for offset, event in enumerate(events):
            payload = json.dumps(dict(event.payload), sort_keys=True)
            self._db.execute(
                "INSERT INTO events (seq, game_id, move, time, type, payload, schema_version) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (first + offset, game_id, first, time, event.type, payload, SCHEMA_VERSION),
            )
            records.append(
                EventRecord(first + offset, game_id, first, time, event.type, json.loads(payload), SCHEMA_VERSION)
            )
        return records

    @contextlib.contextmanager
    def _transaction(self):
        """One write transaction (``BEGIN IMMEDIATE`` … ``COMMIT``); nested uses join the outermost one
        (``import_json`` writes a whole game atomically). Any SQLite failure becomes a
        :class:`JournalError` naming the real cause (a failed rollback never hides it)."""
        if self.read_only:
            raise JournalUnwritable(
                f"the journal cannot be written ({self.read_only_reason}); nothing was recorded", self.read_only_reason
            )
        if self._depth:
            self._depth += 1
            try:
                yield
            except sqlite3.Error as error:
                raise JournalError(f"cannot write {self.path}: {error}") from error
            finally:
                self._depth -= 1
            return
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as error:
            raise JournalError(f"cannot write {self.path}: {error}") from error
        self._depth = 1
        try:
            yield
            if self._snapshots_ready:
                self._insert_snapshots(SNAPSHOTS_PER_TRANSACTION)
            self._db.execute("COMMIT")
        except BaseException as error:
            self._rollback()
            if isinstance(error, sqlite3.Error):
                raise JournalError(f"cannot write {self.path}: {error}") from error
            raise
        finally:
            self._depth = 0

    def _rollback(self) -> None:
        if self._db.in_transaction:
            try:
                self._db.execute("ROLLBACK")
            except sqlite3.Error:
                log.exception("rollback of %s failed", self.path)

    # -- stored states (snapshots) -----------------------------------------------------------------------
    def store_snapshot_soon(self, game_id: int, row: SnapshotRow, format: str, state: Any) -> None:
        """Store ``state`` (the state right after ``row.move``) for ``game_id`` without making this thread
        wait: a background thread encodes it (:class:`companion.snapshots.SnapshotWorker`), and the row is
        inserted with the next write transaction (a move), or by :meth:`flush_snapshots` / ``close()``.
        Nothing for a read-only journal. A state that cannot be encoded is logged and not stored."""
        if self.read_only or self._closed:
            return
        if self._snapshot_worker is None:
            from companion.snapshots import SnapshotWorker

            self._snapshot_worker = SnapshotWorker(self._snapshot_encoded, name=f"snapshots {self.path.name}")
        self._snapshot_worker.request((game_id, row, format), state)

    def _snapshot_encoded(self, key: tuple, data: bytes) -> None:
        """On the snapshot thread: queue the encoded row for the table's thread."""
        game_id, row, format = key
        with self._snapshots_lock:
            self._snapshots_ready.append(
                (game_id, row.move, row.seq, row.depth, row.time, format, zlib.crc32(data), data)
            )

    def _insert_snapshots(self, limit: int | None) -> None:
        """Insert up to ``limit`` encoded rows inside the current write transaction. A failure is logged and
        costs only those rows (a savepoint keeps the transaction's events)."""
        with self._snapshots_lock:
            rows = self._snapshots_ready[:limit] if limit is not None else self._snapshots_ready[:]
            del self._snapshots_ready[: len(rows)]
        if not rows:
            return
        try:
            self._db.execute("SAVEPOINT snapshots")
            try:
                self._db.executemany(
                    "INSERT OR REPLACE INTO snapshots (game_id, move, seq, depth, time, format, "
                    "crc, state) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    rows,
                )
                self._db.execute("RELEASE snapshots")
            except sqlite3.Error:
                self._db.execute("ROLLBACK TO snapshots")
                self._db.execute("RELEASE snapshots")
                raise
        except sqlite3.Error as error:
            log.warning("%d stored states were not written to %s: %s", len(rows), self.path, error)

    def wait_for_snapshots(self, timeout: float | None = None) -> bool:
        """Wait until every state given to :meth:`store_snapshot_soon` is encoded (True), or ``timeout``
        seconds pass (False). The rows are then written by the next write or :meth:`flush_snapshots`."""
        return self._snapshot_worker.wait(timeout) if self._snapshot_worker is not None else True

    def flush_snapshots(self, timeout: float | None = SNAPSHOT_CLOSE_TIMEOUT_S) -> None:
        """Wait (up to ``timeout`` seconds) for the states being encoded, then write every encoded row now,
        in one transaction. Failures are logged."""
        if self.read_only or self._closed:
            return
        self.wait_for_snapshots(timeout)
        if not self._snapshots_ready:
            return
        try:
            with self._transaction():
                self._insert_snapshots(None)
        except JournalError as error:
            log.warning("stored states were not written: %s", error)

    def snapshot_rows(self, game_id: int, format: str) -> dict[int, SnapshotRow]:
        """The stored states of ``game_id`` in the state format ``format``, by move (without their bytes);
        empty for a journal without the table (an earlier version's, opened read-only) or a damaged one."""
        try:
            rows = self._db.execute(
                "SELECT move, seq, depth, time FROM snapshots WHERE game_id = ? AND format = ?", (game_id, format)
            ).fetchall()
        except sqlite3.Error:
            return {}
        return {
            r[0]: SnapshotRow(*r)
            for r in rows
            if type(r[0]) is int and type(r[1]) is int and type(r[2]) is int and type(r[3]) is float
        }

    def snapshot_state(self, game_id: int, move: int, format: str) -> bytes | None:
        """The stored bytes of the state after ``move``, or ``None`` if there is no such row in ``format`` or its
        bytes do not match their CRC (damaged)."""
        try:
            row = self._db.execute(
                "SELECT crc, state FROM snapshots WHERE game_id = ? AND move = ? AND format = ?",
                (game_id, move, format),
            ).fetchone()
        except sqlite3.Error as error:
            log.warning("cannot read the stored state of game #%s after move #%s: %s", game_id, move, error)
            return None
        if row is None or not isinstance(row[1], bytes) or zlib.crc32(row[1]) != row[0]:
            if row is not None:
                log.warning("the stored state of game #%s after move #%s is damaged (CRC); ignored", game_id, move)
            return None
        return row[1]

    def skeleton(self, game_id: int, after: int) -> Iterator[list[tuple]]:
        """``(seq, time, payload, schema_version)`` of each history entry of ``game_id`` after seq ``after``
        (each move's first event, each undo/redo/jump), in seq order, in lists of up to :data:`SKELETON_BATCH`
        rows (one read, so a 100,000-event game's skeleton never lies in memory whole beside the tree built
        from it: issue 17's memory target): ``payload`` (JSON text) only for the ``history_restored`` events,
        ``None`` for moves (read on demand: :meth:`event_range`). Raises :class:`JournalError` for a damaged
        file, from the ``next`` that meets it."""
        with self._reading():
            last = self._db.execute("SELECT MAX(seq) FROM events WHERE game_id = ?", (game_id,)).fetchone()[0]
            # "+game_id": scan the rows in seq (rowid) order between the game's bounds, rather than look each
            # row up from the events_by_game index (a b-tree descent per row: twice the time for a long game)
            cursor = self._db.execute(
                "SELECT seq, time, CASE WHEN type = 'history_restored' THEN payload END, schema_version "
                "FROM events WHERE seq > ? AND seq <= ? AND +game_id = ? AND seq = move ORDER BY seq",
                (after, last or 0, game_id),
            )
            try:
                while batch := cursor.fetchmany(SKELETON_BATCH):
                    yield batch
            finally:
                cursor.close()

    def event_range(self, game_id: int, first: int, last: int, moves: Sequence[int] | None = None) -> list[EventRecord]:
        """The events of ``game_id`` with ``first <= seq <= last``, in seq order; only those of the moves
        ``moves`` (move ids) when given: the others in the range are skipped by SQLite, never decoded (a move
        read on demand needs its own few events, not the hundreds of others between it and its neighbours)."""
        if self._closed:
            raise JournalError(f"the journal {self.path} is closed")
        sql = (
            "SELECT seq, game_id, move, time, type, payload, schema_version FROM events "
            "WHERE game_id = ? AND seq BETWEEN ? AND ?"
        )
        arguments: list[int] = [game_id, first, last]
        if moves is not None:
            sql += f" AND move IN ({','.join('?' * len(moves))})"
            arguments += moves
        with self._reading():
            rows = self._db.execute(sql + " ORDER BY seq", arguments).fetchall()
            return [EventRecord(r[0], r[1], r[2], r[3], r[4], json.loads(r[5]), r[6]) for r in rows]

    def first_event(self, game_id: int) -> EventRecord | None:
        """The first event of ``game_id`` (its ``game_started``), or ``None``."""
        with self._reading():
            r = self._db.execute(
                "SELECT seq, game_id, move, time, type, payload, schema_version FROM events "
                "WHERE game_id = ? ORDER BY seq LIMIT 1",
                (game_id,),
            ).fetchone()
            return None if r is None else EventRecord(r[0], r[1], r[2], r[3], r[4], json.loads(r[5]), r[6])

    # -- reading -------------------------------------------------------------------------------------------
    def games(self) -> list[GameRecord]:
        """Every saved game, oldest first, with its event count and the time of its last event
        (:data:`GAME_ROWS`: read from the ``events_by_game`` index, never from every event's row)."""
        with self._reading():
            rows = self._db.execute(GAME_ROWS + " ORDER BY g.id").fetchall()
            return [GameRecord(r[0], r[1], r[2], r[3], json.loads(r[4]), json.loads(r[5]), r[6], r[7]) for r in rows]

    def game(self, game_id: int) -> GameRecord:
        """The saved game ``game_id``; raises :class:`UnknownGame` if there is none. Counts that game's events
        only (:meth:`games` reads every game's)."""
        with self._reading():
            r = self._db.execute(GAME_ROWS + " WHERE g.id = ?", (game_id,)).fetchone()
            if r is not None:
                return GameRecord(r[0], r[1], r[2], r[3], json.loads(r[4]), json.loads(r[5]), r[6], r[7])
        raise UnknownGame(f"no saved game #{game_id} in {self.path}")

    def check_game(self, game_id: int) -> None:
        """Raise :class:`UnknownGame` if there is no saved game ``game_id``: one row looked up, where :meth:`game`
        also reads every event of the game for its count and last time (opening a game needs neither: issue 17,
        nothing at start-up that grows with the journal)."""
        with self._reading():
            found = self._db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone()
        if found is None:
            raise UnknownGame(f"no saved game #{game_id} in {self.path}")

    def latest_open_game(self) -> GameRecord | None:
        """The most recently played game whose status is ``open``, or ``None``."""
        open_games = [g for g in self.games() if g.status == "open"]
        return max(open_games, key=lambda g: (g.last_time or g.created, g.id), default=None)

    def events(self, game_id: int) -> list[EventRecord]:
        """All events of ``game_id`` in sequence order."""
        with self._reading():
            rows = self._db.execute(
                "SELECT seq, game_id, move, time, type, payload, schema_version FROM events "
                "WHERE game_id = ? ORDER BY seq",
                (game_id,),
            ).fetchall()
            return [EventRecord(r[0], r[1], r[2], r[3], r[4], json.loads(r[5]), r[6]) for r in rows]

    def iter_events(self, game_id: int, batch: int = 1000) -> Iterator[EventRecord]:
        """The events of ``game_id`` in sequence order, as :meth:`events`, read and decoded ``batch`` rows at
        a time: a replay that keeps only what it needs holds one batch of decoded rows at once, not the game."""
        after = 0
        while True:
            with self._reading():
                rows = self._db.execute(
                    "SELECT seq, game_id, move, time, type, payload, schema_version FROM events "
                    "WHERE game_id = ? AND seq > ? ORDER BY seq LIMIT ?",
                    (game_id, after, batch),
                ).fetchall()
                records = [EventRecord(r[0], r[1], r[2], r[3], r[4], json.loads(r[5]), r[6]) for r in rows]
            yield from records
            if len(rows) < batch:
                return
            after = rows[-1][0]

    @contextlib.contextmanager
    def _reading(self):
        """Turn what a damaged file does to a read into one clear :class:`JournalError`; and, when it is damage
        to the file's contents (:func:`_is_damage`), note it beside the journal (:data:`DAMAGE_FOUND_SUFFIX`),
        so that the next start-up's :func:`open_journal` moves it aside and rebuilds it even where its checks
        alone would not see it (a byte of a payload that is no longer UTF-8 inside a JSON string). A closed
        journal, a busy file or a caller's bad argument is no damage: said as it is, nothing noted."""
        try:
            yield
        except (sqlite3.DatabaseError, TypeError, ValueError) as error:
            if self._closed or not _is_damage(error):
                raise JournalError(f"cannot read the journal {self.path}: {error}") from error
            if not self._in_memory:
                _note_damage(self.path, self._file_id(), str(error))
            raise JournalError(
                f"the journal {self.path} is damaged ({error}); the next start of `companion run` moves it aside "
                "and rebuilds it from its readable events and its backups"
            ) from error

    def _file_id(self) -> str:
        """This file's ``journal_id``, or ``""`` when it cannot be read."""
        try:
            return self.journal_id or ""
        except (sqlite3.Error, JournalError):
            return ""

    def space_problem(self) -> str | None:
        """What to tell the table when the disk holding this journal is (nearly) full, else ``None``: moves are
        refused once it is full ("database or disk is full"), so start-up says it first. Nearly full is less
        free than the journal's size (a new backup generation copies it whole) plus what its ``-wal`` may still
        grow by: :data:`ROOM_WANTED_BYTES` less the ``-wal``'s present size, which is on the disk already and
        is written over after each checkpoint. ``None`` for a read-only or in-memory journal (nothing is
        written) or where the free space cannot be read."""
        if self.read_only or self._in_memory:
            return None
        try:
            free = shutil.disk_usage(self.path.parent).free
            wanted = self.path.stat().st_size + max(0, ROOM_WANTED_BYTES - _file_size(_sidecars(self.path)[0]))
        except OSError:
            return None
        if free >= wanted:
            return None
        where = f"(the journal is in {self.path.parent})"  # last: the table reads the point first
        if free < FULL_BELOW_BYTES:
            return f"the disk is full ({_size_words(free)} free): moves may be refused until space is freed {where}"
        return (
            f"the disk is nearly full: {_size_words(free)} free of the {_size_words(wanted)} the journal and its "
            f"backups want; free some space, or moves are refused once it is full {where}"
        )

    def take_backup(self, keep: int = BACKUPS_KEPT) -> Path | None:
        """Back the journal up now, on the calling thread (see :mod:`companion.backups`): a delta part
        with the events since the last backup, or the base of a new generation. Returns the file written,
        or ``None`` if nothing changed. Raises :class:`companion.backups.BackupError` if it fails.
        The table uses :meth:`backup_soon` instead, which never makes its thread wait."""
        if self.read_only:
            return None
        return self._backup_writer(keep).backup()

    def _backup_writer(self, keep: int = BACKUPS_KEPT) -> _backups.BackupWriter:
        if self._writer is None:
            self._writer = _backups.BackupWriter(self.path, keep=keep)
        self._writer.keep = keep
        return self._writer

    def backup_soon(self) -> None:
        """Ask the background backup thread for a backup and return at once (nothing for a read-only
        journal). Failures are logged; the game goes on."""
        if self.read_only or self._closed:
            return
        if self._worker is None:
            self._worker = _backups.BackupWorker(self._backup_writer())
        self._worker.request()

    def wait_for_backups(self, timeout: float | None = None) -> bool:
        """Wait until the requested backups are written (True), or ``timeout`` seconds pass (False)."""
        return self._worker.wait(timeout) if self._worker is not None else True

    @property
    def backup_worker(self) -> _backups.BackupWorker | None:
        """The background backup thread's handle (``None`` until the first :meth:`backup_soon`)."""
        return self._worker

    def tile_rows(self) -> list[tuple]:
        """The tile registry's rows ``(uid, kind, details JSON, learned)`` kept in this file (see
        :mod:`companion.tiles`), for a read-only journal's stand-in registry; empty if there are none."""
        try:
            return [tuple(r) for r in self._db.execute("SELECT uid, kind, details, learned FROM tiles")]
        except sqlite3.Error:
            return []

    def integrity_problem(self) -> str | None:
        """``None`` if ``PRAGMA integrity_check`` passes, else its first complaint."""
        result = self._db.execute("PRAGMA integrity_check").fetchone()[0]
        return None if result == "ok" else result

    def payload_problem(self) -> str | None:
        """``None`` if every event's payload is JSON, else which event's is not: damage inside a row, which
        ``PRAGMA integrity_check`` does not look at (a byte changed in a payload, a file cut short by less than a
        page). SQLite's ``json_valid`` scans them in C (about 0.9 µs an event here); the few it rejects are read
        again by Python's own JSON, which also reads ``NaN``. ``None`` too for an SQLite without JSON functions."""
        try:
            rejected = self._db.execute("SELECT seq, CAST(payload AS BLOB) FROM events WHERE NOT json_valid(payload)")
        except sqlite3.OperationalError:  # no json_valid (an SQLite built without JSON): the check is skipped
            return None
        for seq, raw in rejected:
            try:
                json.loads(bytes(raw).decode())
            except (TypeError, ValueError):  # UnicodeDecodeError is a ValueError
                return f"event #{seq}'s payload is not readable JSON"
        return None

    def close(self) -> None:
        """Let a requested backup finish (up to :data:`BACKUP_CLOSE_TIMEOUT_S`), then close the file
        (checkpointing the WAL). Safe to call twice."""
        if not self._closed:
            if self._snapshot_worker is not None:
                self.flush_snapshots(SNAPSHOT_CLOSE_TIMEOUT_S)
                self._snapshot_worker.close(0)
            self._closed = True
            if self._worker is not None:
                self._worker.close(BACKUP_CLOSE_TIMEOUT_S)
            self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


def backups(journal_path: Path) -> list[Path]:
    """The backup files of the journal at ``journal_path``: newest generation first (its base, then its
    delta parts in order), earlier versions' full copies last."""
    return _backups.backup_files(Path(journal_path))


def _sidecars(path: Path) -> list[Path]:
    return [Path(str(path) + suffix) for suffix in ("-wal", "-shm")]


def _file_size(path: Path) -> int:
    """``path``'s size in bytes, 0 if there is no such file."""
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


#: Free bytes the journal wants beyond its own size: room for its ``-wal`` to grow to SQLite's automatic
#: checkpoint (1,000 pages of 4 KiB) before it is copied back.
ROOM_WANTED_BYTES = 1000 * 4096
#: Under this many free bytes the disk counts as full (not even one more move's pages fit safely).
FULL_BELOW_BYTES = 64 * 1024


def _size_words(size: int) -> str:
    """``"12 KB"``, ``"3.4 MB"`` (1 KB = 1,024 bytes)."""
    return f"{size // 1024} KB" if size < 1024 * 1024 else f"{size / (1024 * 1024):.1f} MB"


def _exists(path: Path) -> bool:
    return path.exists() or path.is_symlink()


#: Beside a journal (``journal.sqlite3.damage-found``): damage met while it was in use, two lines (the file's
#: ``journal_id``, what was met); the next start-up treats that journal as damaged (moved aside, rebuilt).
DAMAGE_FOUND_SUFFIX = ".damage-found"


#: SQLite's result codes for a file whose contents are bad ("database disk image is malformed", "file is not a
#: database"): damage, where a busy, locked or read-only file is not.
_DAMAGE_CODES = (getattr(sqlite3, "SQLITE_CORRUPT", 11), getattr(sqlite3, "SQLITE_NOTADB", 26))


def _is_damage(error: Exception) -> bool:
    """Whether a read's ``error`` says the file's contents are bad: SQLite's corrupt or not-a-database codes, a
    text that is not UTF-8 ("Could not decode to UTF-8 column"), a payload that is not JSON. Not a busy or locked
    file, a closed connection, a caller's bad argument (``ProgrammingError``, ``InterfaceError``, any other
    ``TypeError`` or ``ValueError``)."""
    if isinstance(error, (json.JSONDecodeError, UnicodeDecodeError)):
        return True
    if isinstance(error, (sqlite3.ProgrammingError, sqlite3.InterfaceError)):
        return False
    if isinstance(error, sqlite3.DatabaseError):
        return getattr(error, "sqlite_errorcode", None) in _DAMAGE_CODES or "could not decode" in str(error).lower()
    return False


def _note_damage(path: Path, journal_id: str, what: str) -> None:
    """Note, beside the journal at ``path`` (whose ``journal_id`` it names: the note is about that file only),
    the damage a read met. Written even by a read-only reader (``companion export``): the file is what is
    damaged; a folder where nothing can be written leaves it unnoted, and logged."""
    try:
        Path(str(path) + DAMAGE_FOUND_SUFFIX).write_text(f"{journal_id}\n{' '.join(what.split())[:300]}\n")
    except OSError as error:
        log.warning("cannot note the journal's damage beside it: %s", error)


def _damage_found(path: Path, journal_id: str | None) -> str | None:
    """The damage noted beside the journal at ``path`` while it was in use, or ``None``. A note about another
    file (another ``journal_id``: the journal it was about was rebuilt or replaced since) is removed."""
    marker = Path(str(path) + DAMAGE_FOUND_SUFFIX)
    try:
        noted_id, _, what = marker.read_text().partition("\n")
    except OSError:
        return None
    if noted_id.strip() != (journal_id or ""):
        marker.unlink(missing_ok=True)
        return None
    return what.strip() or "(no details)"


def _aside_name(path: Path, label: str) -> Path:
    """``<name>.<label>-<time>`` beside ``path``, never one that exists (an earlier one is never replaced)."""
    stamp = _time.strftime("%Y%m%d-%H%M%S")
    moved_to = path.with_name(f"{path.name}.{label}-{stamp}")
    attempt = 1
    while any(_exists(Path(str(moved_to) + suffix)) for suffix in ("", "-wal", "-shm")):
        attempt += 1
        moved_to = path.with_name(f"{path.name}.{label}-{stamp}-{attempt}")
    return moved_to


def _remove_database_files(path: Path) -> None:
    for candidate in [path, *_sidecars(path), Path(str(path) + "-journal")]:
        if candidate.is_file():
            candidate.unlink(missing_ok=True)


def _finish_interrupted_recovery(path: Path) -> Recovery | None:
    """A start-up that was killed while recovering: half-built files are removed (the recovery is done
    again); a fully built one waiting to be moved into place is moved into place."""
    for leftover in path.parent.glob(f"{path.name}.recovering*"):
        if leftover.is_file():
            leftover.unlink(missing_ok=True)
    built = path.with_name(f"{path.name}.recovered")
    if not built.is_file():
        return None
    if _exists(path):  # killed before the damaged file was moved: recover again
        _remove_database_files(built)
        return None
    try:
        db = sqlite3.connect(f"file:{built}?mode=ro&immutable=1", uri=True)
        try:
            saved = json.loads(_backups.meta_value(db, "recovery") or "{}")
        finally:
            db.close()
    except (sqlite3.Error, ValueError):
        saved = {}
    # killed between moving the damaged file aside and moving its -wal and -shm after it: they go after it now
    # (left here, SQLite would apply the damaged file's -wal to the rebuilt journal)
    aside = Path(saved["moved_to"]) if saved.get("moved_to") else _aside_name(path, "damaged")
    for side, target in zip(_sidecars(path), _sidecars(aside)):
        if _exists(side):
            os.replace(side, target if not _exists(target) else _aside_name(target, "left"))
    os.replace(built, path)
    _backups.fsync_dir(path.parent)
    return Recovery(
        Path(saved["moved_to"]) if saved.get("moved_to") else None,
        saved.get("problem", "?"),
        saved.get("games", 0),
        saved.get("events", 0),
        kind=saved.get("kind", "damaged"),
        text=saved.get("message", ""),
    )


def _diagnose(path: Path) -> tuple[str, str] | None:
    """``(problem, kind)`` if the journal at ``path`` cannot be opened as it is, else ``None``.

    Kinds: ``missing`` (no file, but backups hold games), ``not-a-file``, ``empty``, ``unreadable``,
    ``newer``, ``damaged``, ``wal-missing``, ``stale`` (a backup of this same journal holds more).
    """
    folder = _backups.folder_of(path)
    if not _exists(path):
        return _missing(path, folder, f"there is no journal file at {path}")
    if not path.is_file():
        what = "a folder" if path.is_dir() else "not a regular file"
        return f"{path} is {what}, not a journal file", "not-a-file"
    if path.stat().st_size == 0:
        return f"{path} is empty (0 bytes)", "empty"
    try:
        with open(path, "rb"):
            pass
    except OSError as error:
        return f"{path} cannot be read: {error.strerror}", "unreadable"
    wal, shm = _sidecars(path)
    wal_missing = _exists(shm) and not _exists(wal)  # looked at before a probe can create a -wal
    try:
        probe = Journal(path, read_only=True)
    except JournalTooNew as error:
        return str(error).split(";")[0], "newer"
    except JournalError as error:
        return str(error.__cause__ or error), "damaged"
    try:
        problem = probe.integrity_problem()
        if problem is not None:
            return problem, "damaged"
        tables = {row[0] for row in probe._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if wal_missing:
            last = probe._db.execute("SELECT MAX(time) FROM events").fetchone()[0] if "events" in tables else None
            when = f" after {_time.strftime('%H:%M', _time.localtime(last))}" if last else ""
            return (
                f"its -wal file is missing (its -shm is there): moves made{when} may have been lost with it",
                "wal-missing",
            )
        if not tables:  # a file whose first transaction never finished
            return _missing(path, folder, f"{path} holds no tables yet")
        if not {"games", "events"} <= tables:
            return f"not a companion journal (tables: {', '.join(sorted(tables))})", "damaged"
        problem = probe.payload_problem()
        if problem is not None:
            return problem, "damaged"
        found = _damage_found(path, probe.journal_id)
        if found is not None:
            return f"damage found while it was in use: {found}", "damaged"
        return _stale(probe, folder)
    except sqlite3.DatabaseError as error:
        return str(error), "damaged"
    finally:
        probe.close()


def _missing(path: Path, folder: Path, what: str) -> tuple[str, str] | None:
    """No journal (or an empty one): only a problem if backups hold games."""
    games = {
        game
        for generation in _backups.generations(folder)
        for game in ((_backups.generation_summary(generation) or ({}, None))[0])
    }
    if games:
        return f"{what}, but the backups hold {len(games)} games", "missing" if not _exists(path) else "empty"
    return None


def _stale(probe: Journal, folder: Path) -> tuple[str, str] | None:
    """A backup of this same journal (same ``journal_id``; any backup for a journal without one) that
    holds a game the journal lacks, or more of its events: the journal lost its end (a deleted -wal)."""
    journal_id = probe.journal_id
    mine = _backups.summary_of_db(probe._db)
    for generation in _backups.generations(folder):
        if journal_id is not None and generation.legacy:
            continue
        found = _backups.generation_summary(generation)
        if found is None:
            continue
        summary, backup_id = found
        if journal_id is not None and backup_id != journal_id:
            continue
        for game_id, (start, start_time, count, _last) in sorted(summary.items()):
            own = mine.get(game_id)
            if own is None:
                return (
                    f"the backup {generation.name} holds game #{game_id} ({count} events), which the journal does not",
                    "stale",
                )
            if own[0] == start and own[2] < count:
                return (
                    f"the backup {generation.name} holds {count} events of game #{game_id}, the journal "
                    f"only {own[2]} (its -wal file may have been lost)",
                    "stale",
                )
    return None


def open_journal(path: str | os.PathLike) -> tuple[Journal, Recovery | None]:
    """Open the journal at ``path`` for start-up, checking it first.

    A sound, writable journal is opened as it is (``Recovery`` is ``None``). Otherwise — a damaged file
    (unreadable header or pages, truncated, not SQLite, not a journal), a 0-byte file, a folder in its
    place, a missing or stale ``-wal``, a file that cannot be read or written, a journal from a newer
    companion, no file although backups hold games — the file is moved aside (never deleted) and the
    journal is rebuilt from the best source per game among the file's readable events and every backup
    (:mod:`companion.recovery`: the longest contiguous prefix, never a splice across a gap). If nothing can
    be written there (read-only folder or file system, full disk), the games open read-only, in memory if
    need be, and the :class:`Recovery` says so; nothing is moved then. Half-written backup files are
    removed first. Never raises for a damaged or unwritable journal.
    """
    path = Path(path)
    interrupted = _finish_interrupted_recovery(path)
    try:
        _backups.clean_leftovers(_backups.folder_of(path))
    except OSError as error:
        log.warning("cannot clean the backup folder: %s", error)
    diagnosis = _diagnose(path)
    if diagnosis is None:
        try:
            return Journal(path), interrupted
        except JournalUnwritable as error:
            diagnosis = (error.reason, "unwritable")
        except JournalError as error:  # e.g. a file system that cannot do WAL: say it, keep the kiosk up
            diagnosis = (str(error), "unwritable")
    journal, recovery = _recover(path, *diagnosis)
    if recovery.moved_to is not None and not journal.read_only:  # the damaged file is aside, a new one built
        Path(str(path) + DAMAGE_FOUND_SUFFIX).unlink(missing_ok=True)
    return journal, recovery


def startup_notice(recovery: Recovery | None, space: str | None) -> str:
    """The kiosk's message at start-up: what a recovery did (:meth:`Recovery.message`), then a (nearly) full
    disk (:meth:`Journal.space_problem`) as a sentence; ``""`` when there is nothing to say."""
    parts = [recovery.message() if recovery else "", f"{space[0].upper()}{space[1:]}." if space else ""]
    return " · ".join(part for part in parts if part)


def _recover(path: Path, problem: str, kind: str) -> tuple[Journal, Recovery]:
    from companion import recovery as _recovery

    folder = _backups.folder_of(path)
    sources: list = []
    if kind in ("unwritable", "wal-missing", "stale"):  # a sound file: every event in it counts
        source = _recovery.sqlite_source(path, "journal", 0, backup=False, immutable=False) or _recovery.sqlite_source(
            path, "journal", 0, backup=False, immutable=True
        )
        sources += [source] if source else []
    elif kind == "damaged":
        source = _recovery.damaged_source(path, "damaged journal", 0)
        sources += [source] if source else []
        if _exists(_sidecars(path)[0]):  # the main file alone may read better
            alone = _recovery.damaged_source(path, "damaged journal without its -wal", 1, ignore_wal=True)
            sources += [alone] if alone else []
    sources += _recovery.backup_sources(folder, 2)
    moved_to = None if kind == "missing" else _aside_name(path, "newer" if kind == "newer" else "damaged")
    for source in sources:
        if source.where == path:  # named by where it will be once moved aside
            source.where = moved_to
    plan = _recovery.plan_recovery(sources, moved_to)
    last = max((c.records[-1][3] for c in plan.choices), default=None)
    used = plan.backups_used

    def report(moved: Path | None, read_only: str = "") -> Recovery:
        return Recovery(
            moved,
            problem,
            len(plan.choices),
            plan.events,
            used[0] if used else None,
            last,
            kind,
            tuple(plan.reports),
            bool(read_only),
            read_only,
        )

    recovery = report(moved_to)
    building = path.with_name(f"{path.name}.recovering")
    built = path.with_name(f"{path.name}.recovered")
    try:
        _remove_database_files(building)
        fresh = Journal(building)
        try:
            note = f"not kept by the recovery of {_time.strftime('%Y-%m-%d %H:%M:%S')} ({kind})"
            saved = json.dumps(
                {
                    "moved_to": str(moved_to) if moved_to else None,
                    "problem": problem,
                    "kind": kind,
                    "games": len(plan.choices),
                    "events": plan.events,
                    "message": recovery.message(),
                }
            )
            with fresh._transaction():
                _recovery.write_plan(fresh._db, plan, note)
                fresh._db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('recovery', ?)", (saved,))
        finally:
            fresh.close()
        _backups.fsync_file(building)
        os.replace(building, built)
        _backups.fsync_dir(path.parent)
        if moved_to is not None:
            os.replace(path, moved_to)  # never deleted: moved, with its -wal and -shm
            for side, target in zip(_sidecars(path), _sidecars(moved_to)):
                if _exists(side):
                    os.replace(side, target)
        os.replace(built, path)
        _backups.fsync_dir(path.parent)
        journal = Journal(path)
    except (OSError, sqlite3.Error, JournalError) as error:
        reason = getattr(error, "reason", None) or getattr(error, "strerror", None) or str(error)
        log.error("cannot rebuild the journal at %s (%s); opening the games read-only", path, reason)
        for leftover in (building, built):
            try:
                _remove_database_files(leftover)
            except OSError:
                pass
        moved = moved_to if moved_to is not None and _exists(moved_to) and not _exists(path) else None
        if moved is None:  # the damaged file's unread events are still where it was
            for game in plan.reports:
                if game.rest_in == moved_to:
                    game.rest_in = path
        why = f"nothing can be written in {path.parent}: {reason}"
        if (
            kind == "unwritable"
            and moved is None
            and len(plan.choices) == len([c for c in plan.choices if c.source.label == "journal"])
        ):
            try:  # the file itself is sound: read it where it is
                return Journal(path, read_only=True, reason=why), report(None, why)
            except JournalError:
                pass
        journal = Journal.in_memory(path, why, lambda db: _recovery.write_plan(db, plan, "read-only view"))
        return journal, report(moved, why)
    log.warning("%s", recovery.message())
    return journal, recovery
