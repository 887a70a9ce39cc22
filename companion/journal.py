"""The journal: an append-only SQLite file of every event of every game. Nothing is ever deleted.

Layout (schema version in ``PRAGMA user_version``):

* ``games(id, game, created, status, players, options)`` — one row per game; ``status`` is ``open`` or
  ``finished`` and is updated in the same transaction as the event that changed it.
* ``events(seq, game_id, move, time, type, payload, schema_version)`` — one row per event; ``seq`` is
  journal-wide and increasing; ``move`` groups the events of one command; ``payload`` is JSON.

The file uses WAL with ``synchronous=FULL`` and a busy timeout, and has one writer (the table's owner
thread). :func:`open_journal` checks the file at start-up; a damaged file is moved aside (never
deleted), what can be read from it is copied into a fresh journal, and a :class:`Recovery` says what.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import time as _time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

from companion.errors import CompanionError, JournalError, UnknownGame
from companion.events import GAME_STARTED, SCHEMA_VERSION, EventRecord, NewEvent

log = logging.getLogger("companion.journal")

JOURNAL_FORMAT = 1
#: Backups live in this folder beside the journal; this many are kept (newest first).
BACKUP_DIR = "backups"
BACKUPS_KEPT = 5
BUSY_TIMEOUT_MS = 5_000

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
"""


class JournalTooNew(JournalError):
    """The journal was written by a newer companion; it is left untouched (not treated as damage)."""


@dataclass(frozen=True)
class GameRecord:
    """One saved game: journal ``id``, registered ``game`` name, ``created`` (Unix seconds), ``status``
    (``open``/``finished``), ``players`` (list of ``{"name", "colour"}``), ``options``, and the number of
    events and the time of the last one (``events``, ``last_time``)."""

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
    """What start-up did with a damaged journal: where the damaged file was moved (``moved_to``), why
    it was judged damaged (``problem``), and how many games and events were copied into the new one."""

    moved_to: Path
    problem: str
    games_recovered: int
    events_recovered: int
    #: The backup the journal was restored from, when it held more than the damaged file's readable part.
    backup: Path | None = None
    #: Unix time of the newest event in force after the recovery (None if nothing was recovered).
    restored_to: float | None = None

    def message(self) -> str:
        """A sentence for the screen and the log: what was recovered first, then where and why."""
        problem = " ".join(self.problem.split())
        problem = problem if len(problem) <= 90 else problem[:89] + "…"
        when = f", as it was at {_time.strftime('%H:%M', _time.localtime(self.restored_to))}" \
            if self.restored_to else ""
        source = f"from the backup {self.backup.name}" if self.backup else "from its readable part"
        return (f"Journal damaged: restored {source}{when}: recovered {self.events_recovered} events of "
                f"{self.games_recovered} games. The damaged file was kept as {self.moved_to} ({problem}).")


def _connect(path: Path) -> sqlite3.Connection:
    connection = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                                 check_same_thread=False)
    connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    return connection


class Journal:
    """An open journal file (see the module docstring for the layout).

    ``Journal(path)`` creates the file if needed. Use :func:`open_journal` at start-up to also check it
    and recover from damage. Raises :class:`JournalError` if the file is not a journal or cannot be opened.
    ``close()`` is safe to call twice; the journal is a context manager.
    """

    def __init__(self, path: str | os.PathLike, *, read_only: bool = False) -> None:
        self.path = Path(path)
        self.read_only = read_only
        self._db = None
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
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._db = _connect(self.path)
                mode = self._db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
                self._db.execute("PRAGMA synchronous = FULL")
                self._db.execute("PRAGMA foreign_keys = ON")
                synchronous = self._db.execute("PRAGMA synchronous").fetchone()[0]
                if mode.lower() != "wal" or synchronous != 2:   # checked, not assumed: power-cut safety
                    raise JournalError(f"{self.path} could not be set to WAL with synchronous=FULL "
                                       f"(got {mode}, synchronous={synchronous}); use a local file system")
                self._check_version()
                self._db.executescript(_SCHEMA)
                self._db.execute(f"PRAGMA user_version = {JOURNAL_FORMAT}")
        except sqlite3.DatabaseError as error:
            self._close_quietly()
            raise JournalError(f"{self.path} cannot be used as a journal: {error}") from error
        except JournalError:
            self._close_quietly()
            raise
        self._closed = False
        self._depth = 0   # nesting of _transaction()

    def _connect_read_only(self, query: str) -> sqlite3.Connection:
        db = sqlite3.connect(f"file:{self.path}?{query}", uri=True, isolation_level=None,
                             timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=False)
        db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        return db

    def _check_version(self) -> None:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version > JOURNAL_FORMAT:
            raise JournalTooNew(f"{self.path} was written by a newer companion (journal format {version}, "
                                f"this one reads up to {JOURNAL_FORMAT}); update the companion")

    def _close_quietly(self) -> None:
        if self._db is not None:
            try:
                self._db.close()
            except sqlite3.Error:
                pass

    # -- writing (owner thread only) -------------------------------------------------------------------
    def create_game(self, game: str, players: Sequence[Mapping[str, Any]], options: Mapping[str, Any],
                    time: float | None = None) -> EventRecord:
        """Record a new game and its ``game_started`` event in one transaction; return that event."""
        time = _time.time() if time is None else time
        with self._transaction():
            cursor = self._db.execute(
                "INSERT INTO games (game, created, status, players, options) VALUES (?, ?, 'open', ?, ?)",
                (game, time, json.dumps(list(players)), json.dumps(dict(options))))
            game_id = cursor.lastrowid
            payload = {"game": game, "players": list(players), "options": dict(options)}
            return self._insert(game_id, [NewEvent(GAME_STARTED, payload)], time)[0]

    def append(self, game_id: int, events: Sequence[NewEvent], time: float | None = None,
               status: str | None = None) -> list[EventRecord]:
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

    def _insert(self, game_id: int, events: Sequence[NewEvent], time: float) -> list[EventRecord]:
        first = self._db.execute("SELECT IFNULL(MAX(seq), 0) + 1 FROM events").fetchone()[0]
        records = []
        for offset, event in enumerate(events):
            payload = json.dumps(dict(event.payload), sort_keys=True)
            self._db.execute(
                "INSERT INTO events (seq, game_id, move, time, type, payload, schema_version) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (first + offset, game_id, first, time, event.type, payload, SCHEMA_VERSION))
            records.append(EventRecord(first + offset, game_id, first, time, event.type,
                                       json.loads(payload), SCHEMA_VERSION))
        return records

    @contextlib.contextmanager
    def _transaction(self):
        """One write transaction (``BEGIN IMMEDIATE`` … ``COMMIT``); nested uses join the outermost one
        (``import_json`` writes a whole game atomically). Any SQLite failure becomes a
        :class:`JournalError` naming the real cause (a failed rollback never hides it)."""
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

    # -- reading -------------------------------------------------------------------------------------------
    def games(self) -> list[GameRecord]:
        """Every saved game, oldest first, with its event count and last event time."""
        with self._reading():
            rows = self._db.execute(
                "SELECT g.id, g.game, g.created, g.status, g.players, g.options, COUNT(e.seq), MAX(e.time) "
                "FROM games g LEFT JOIN events e ON e.game_id = g.id GROUP BY g.id ORDER BY g.id").fetchall()
            return [GameRecord(r[0], r[1], r[2], r[3], json.loads(r[4]), json.loads(r[5]), r[6], r[7])
                    for r in rows]

    def game(self, game_id: int) -> GameRecord:
        """The saved game ``game_id``; raises :class:`UnknownGame` if there is none."""
        for record in self.games():
            if record.id == game_id:
                return record
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
                "WHERE game_id = ? ORDER BY seq", (game_id,)).fetchall()
            return [EventRecord(r[0], r[1], r[2], r[3], r[4], json.loads(r[5]), r[6]) for r in rows]

    def iter_events(self, game_id: int, batch: int = 1000) -> Iterator[EventRecord]:
        """The events of ``game_id`` in sequence order, as :meth:`events`, read and decoded ``batch`` rows at
        a time: a replay that keeps only what it needs holds one batch of decoded rows at once, not the game."""
        after = 0
        while True:
            with self._reading():
                rows = self._db.execute(
                    "SELECT seq, game_id, move, time, type, payload, schema_version FROM events "
                    "WHERE game_id = ? AND seq > ? ORDER BY seq LIMIT ?", (game_id, after, batch)).fetchall()
                records = [EventRecord(r[0], r[1], r[2], r[3], r[4], json.loads(r[5]), r[6]) for r in rows]
            yield from records
            if len(rows) < batch:
                return
            after = rows[-1][0]

    @contextlib.contextmanager
    def _reading(self):
        """Turn what a damaged file does to a read into one clear :class:`JournalError`."""
        try:
            yield
        except (sqlite3.DatabaseError, TypeError, ValueError) as error:
            raise JournalError(f"the journal {self.path} is damaged ({error}); `companion run` moves it aside "
                               f"and recovers what it can") from error

    def take_backup(self, keep: int = BACKUPS_KEPT) -> Path:
        """Copy the journal with SQLite's online backup API to ``backups/journal-<time>-<seq>.sqlite3``
        beside it, and keep only the newest ``keep`` copies. Returns the new file. A safe point (the end of
        a Ratings War, of a round, of a game) calls this; it never blocks the writer for long."""
        folder = self.path.parent / BACKUP_DIR
        folder.mkdir(parents=True, exist_ok=True)
        seq = self._db.execute("SELECT IFNULL(MAX(seq), 0) FROM events").fetchone()[0]
        target = folder / f"journal-{_time.strftime('%Y%m%d-%H%M%S')}-{seq:08d}.sqlite3"
        partial = target.with_suffix(".partial")
        copy = sqlite3.connect(str(partial))
        try:
            self._db.backup(copy)
        finally:
            copy.close()
        os.replace(partial, target)
        for old in backups(self.path)[keep:]:
            old.unlink(missing_ok=True)
        return target

    def integrity_problem(self) -> str | None:
        """``None`` if ``PRAGMA integrity_check`` passes, else its first complaint."""
        result = self._db.execute("PRAGMA integrity_check").fetchone()[0]
        return None if result == "ok" else result

    def close(self) -> None:
        """Close the file (checkpointing the WAL). Safe to call twice."""
        if not self._closed:
            self._closed = True
            self._db.close()

    def __enter__(self) -> "Journal":
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


def open_journal(path: str | os.PathLike) -> tuple[Journal, Recovery | None]:
    """Open the journal at ``path`` for start-up, checking it first.

    A file that is not a journal or fails ``PRAGMA integrity_check`` is moved aside (with its ``-wal``
    and ``-shm`` files) to ``<name>.damaged-<time>``, every game and event that can still be read is
    copied into a fresh journal at ``path``, and the returned :class:`Recovery` says what happened.
    Raises :class:`JournalError` if even the fresh journal cannot be created.
    """
    path = Path(path)
    problem = _problem_with(path) if path.exists() else None
    if problem is None:
        return Journal(path), None
    stamp = _time.strftime("%Y%m%d-%H%M%S")
    moved_to = path.with_name(f"{path.name}.damaged-{stamp}")
    attempt = 1
    while any(Path(str(moved_to) + suffix).exists() for suffix in ("", "-wal", "-shm")):
        attempt += 1   # never replace (delete) an earlier damaged file
        moved_to = path.with_name(f"{path.name}.damaged-{stamp}-{attempt}")
    for suffix in ("", "-wal", "-shm"):
        source = Path(str(path) + suffix)
        if source.exists():
            os.replace(source, Path(str(moved_to) + suffix))
    journal = Journal(path)
    games, events = _salvage(moved_to, journal)
    backup = _best_backup(path, events)
    if backup is not None:              # the newest sound backup holds more than the readable part
        journal.close()
        for suffix in ("", "-wal", "-shm"):
            Path(str(path) + suffix).unlink(missing_ok=True)   # only the fresh copy made just above
        restore = sqlite3.connect(f"file:{backup}?mode=ro", uri=True)
        target = sqlite3.connect(str(path))
        try:
            restore.backup(target)
        finally:
            restore.close()
            target.close()
        journal = Journal(path)
        games, events = len(journal.games()), sum(g.events for g in journal.games())
    last = journal._db.execute("SELECT MAX(time) FROM events").fetchone()[0]
    return journal, Recovery(moved_to, problem, games, events, backup, last)



def backups(journal_path: Path) -> list[Path]:
    """The backups of the journal at ``journal_path``, newest first."""
    folder = Path(journal_path).parent / BACKUP_DIR
    return sorted(folder.glob("journal-*.sqlite3"), reverse=True) if folder.is_dir() else []


def _best_backup(path: Path, events_salvaged: int) -> Path | None:
    """The newest backup that passes ``integrity_check`` and holds more events than were salvaged."""
    for candidate in backups(path):
        try:
            probe = Journal(candidate, read_only=True)
        except JournalError:
            continue
        try:
            if probe.integrity_problem() is None:
                count = probe._db.execute("SELECT COUNT(*) FROM events").fetchone()[0]
                return candidate if count > events_salvaged else None
        except sqlite3.DatabaseError:
            continue
        finally:
            probe.close()
    return None


def _problem_with(path: Path) -> str | None:
    """Check an existing journal file through a read-only connection (so a damaged file is moved aside
    exactly as it was). Returns ``None`` if sound, else what is wrong; raises :class:`JournalTooNew`."""
    try:
        probe = Journal(path, read_only=True)
    except JournalTooNew:
        raise
    except JournalError as error:
        return str(error.__cause__ or error)
    try:
        problem = probe.integrity_problem()
        if problem is None:
            tables = {row[0] for row in probe._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if tables and not {"games", "events"} <= tables:
                problem = f"not a companion journal (tables: {', '.join(sorted(tables))})"
        return problem
    except sqlite3.DatabaseError as error:
        return str(error)
    finally:
        probe.close()


def _salvage(damaged: Path, journal: Journal) -> tuple[int, int]:
    """Copy every game whose start can still be read from ``damaged`` into ``journal``, each with the
    longest run of its events that still replays; return ``(games, events)`` copied.

    Rows are read around damaged pages (see :func:`_readable_rows`). One transaction writes them all.
    """
    from companion.session import GameSession   # local: session imports nothing from the journal

    try:
        source = sqlite3.connect(f"file:{damaged}?mode=ro", uri=True)
        # a truncated file (fewer pages than its header says) is otherwise refused as a whole
        source.execute("PRAGMA writable_schema = ON")
    except sqlite3.Error:
        return 0, 0
    try:
        game_rows = _readable_rows(source, "games", "id", "id, game, created, status, players, options")
        event_rows = _readable_rows(source, "events", "seq",
                                    "seq, game_id, move, time, type, payload, schema_version")
    finally:
        source.close()
    by_game: dict[int, list[EventRecord]] = {}
    for seq, game_id, move, time, kind, payload, version in event_rows:
        try:
            record = EventRecord(int(seq), int(game_id), int(move), float(time), str(kind), json.loads(payload),
                                 int(version))
        except (TypeError, ValueError):
            continue
        by_game.setdefault(record.game_id, []).append(record)
    kept: list[tuple[tuple, list[EventRecord]]] = []
    for row in game_rows:
        records = by_game.get(row[0], [])
        if not records or records[0].type != GAME_STARTED:
            continue                       # without its start a game cannot be replayed
        try:
            json.loads(row[4]), json.loads(row[5])
            session = GameSession(row[0], records[:1])
        except (CompanionError, TypeError, ValueError, KeyError):
            continue
        good = 1
        for record in records[1:]:
            try:
                session.take([record])
            except Exception:              # the rest of this game's history is not consistent
                break
            good += 1
        kept.append((row, records[:good]))
    with journal._transaction():
        for row, records in kept:
            journal._db.execute("INSERT INTO games (id, game, created, status, players, options) "
                                "VALUES (?, ?, ?, ?, ?, ?)", row)
            for r in records:
                journal._db.execute(
                    "INSERT INTO events (seq, game_id, move, time, type, payload, schema_version) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (r.seq, r.game_id, r.move, r.time, r.type, json.dumps(dict(r.payload), sort_keys=True),
                     r.schema_version))
    return len(kept), sum(len(records) for _, records in kept)


def _readable_rows(source: sqlite3.Connection, table: str, key: str, columns: str) -> list[tuple]:
    """Every row of ``table`` (ordered by its integer primary key ``key``) that can still be read.

    Rows are read one seek at a time, so a damaged page costs only the rows on it: when a seek fails,
    the reader jumps ahead by key (doubling the jump) to the next readable row and carries on.
    """
    rows: list[tuple] = []
    last = 0

    def first_after(after: int):
        row = source.execute(f"SELECT {columns} FROM {table} WHERE {key} > ? ORDER BY {key} LIMIT 1",
                             (after,)).fetchone()
        if row is not None and (not isinstance(row[0], int) or row[0] <= after):
            raise sqlite3.DatabaseError("keys out of order (damaged b-tree)")
        return row

    while True:
        try:
            row = first_after(last)
        except sqlite3.Error:
            row, step = None, 1
            while step < 1 << 40:                   # jump over the damaged stretch
                try:
                    row = first_after(last + step)
                    break
                except sqlite3.Error:
                    step *= 2
        if row is None:
            return rows
        rows.append(row)
        last = row[0]
