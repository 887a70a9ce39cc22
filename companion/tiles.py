"""The tile registry: which tile each NFC tag is, stored beside the journal.

A tile reader reports tag UIDs (``"04A1B2C3"``); the registry says which tile a UID is: its ``kind``
(for TV Wars, for example ``"program"``) and its ``details`` (a JSON object: title, genre, slot length...
whatever the game needs). Learn mode: :meth:`TileRegistry.lookup` returns ``None`` for a tag it has
never seen, the UI asks once for the tile's details, and :meth:`TileRegistry.learn` stores them.

Storage: the table ``tiles(uid TEXT PRIMARY KEY, kind, details, learned)`` in the journal's SQLite
file, created if missing, through the registry's own connection (WAL, ``synchronous=FULL``, the
journal's busy timeout), so it never interferes with the journal's transactions. Tiles are not game
events: learning a tile is not undone by undo, and a journal export does not contain them. The journal's
salvage of a damaged file copies games and events only, so learned tiles would have to be learned again.

Example::

    with TileRegistry(journal.path) as tiles:
        if tiles.lookup("04A1B2C3") is None:
            tiles.learn("04a1b2c3", "program", {"title": "Quiz Night", "genre": "game show"})
        tiles.lookup("04A1B2C3").details["title"]        # 'Quiz Night'
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import threading
import time as _time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.errors import JournalError, TileError

BUSY_TIMEOUT_MS = 5_000
_UID = re.compile(r"[0-9A-F]{8}|[0-9A-F]{14}|[0-9A-F]{20}")
_SCHEMA = """
CREATE TABLE IF NOT EXISTS tiles (
    uid      TEXT PRIMARY KEY,
    kind     TEXT NOT NULL,
    details  TEXT NOT NULL,
    learned  REAL NOT NULL
)
"""


def normalize_uid(uid: str) -> str:
    """``uid`` as the registry stores it: upper-case hex of 4, 7 or 10 bytes, without separators
    (``"04:a1:b2:c3"`` → ``"04A1B2C3"``). Raises :class:`TileError` for anything else."""
    if not isinstance(uid, str):
        raise TileError(f"a tag UID is hex text, not {uid!r}")
    text = re.sub(r"[\s:-]", "", uid).upper()
    if not _UID.fullmatch(text):
        raise TileError(f"a tag UID is 4, 7 or 10 bytes of hex (8, 14 or 20 digits), not {uid!r}")
    return text


@dataclass(frozen=True)
class Tile:
    """One learned tile: tag ``uid`` (upper-case hex), ``kind`` (for example ``"program"``), ``details``
    (a dict decoded from JSON) and when it was ``learned`` (Unix seconds)."""

    uid: str
    kind: str
    details: dict = field(default_factory=dict, hash=False, compare=True)
    learned: float = 0.0


class TileRegistry:
    """The tiles table in the SQLite file ``path`` (usually the journal's file).

    Raises :class:`JournalError` if the file cannot be opened or the table created. Methods may be called
    from any thread (one lock around the connection). ``close()`` is safe to call twice; the registry is a
    context manager. ``clock`` gives the ``learned`` time (tests may fix it).
    """

    def __init__(self, path: str | os.PathLike, *, clock: Callable[[], float] = _time.time) -> None:
        self.path = Path(path)
        self._clock = clock
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(
                str(self.path), timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None, check_same_thread=False
            )
            self._db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute("PRAGMA synchronous = FULL")
            self._db.execute(_SCHEMA)
        except (sqlite3.Error, OSError) as error:
            if self._db is not None:
                self._db.close()
            raise JournalError(f"cannot keep the tile registry in {self.path}: {error}") from error

    def _connection(self) -> sqlite3.Connection:
        if self._db is None:
            raise JournalError(f"the tile registry on {self.path} is closed")
        return self._db

    def lookup(self, uid: str) -> Tile | None:
        """The tile learned for tag ``uid`` (any case, ``:`` separators allowed), or ``None`` if the tag
        is unknown (learn mode asks for its details). Raises :class:`TileError` for a malformed UID."""
        key = normalize_uid(uid)
        with self._lock:
            try:
                row = (
                    self._connection()
                    .execute("SELECT uid, kind, details, learned FROM tiles WHERE uid = ?", (key,))
                    .fetchone()
                )
            except sqlite3.Error as error:
                raise JournalError(f"cannot read the tile registry in {self.path}: {error}") from error
        return None if row is None else Tile(row[0], row[1], json.loads(row[2]), row[3])

    def learn(self, uid: str, kind: str, details: Mapping[str, Any] | None = None) -> Tile:
        """Store (or replace) what tag ``uid`` is: a tile of ``kind`` with ``details`` (JSON-able mapping).

        Returns the stored :class:`Tile`. Raises :class:`TileError` for a malformed UID, an empty kind or
        details that are not a JSON object; :class:`JournalError` if the write fails (nothing is written).
        """
        key = normalize_uid(uid)
        if not isinstance(kind, str) or not kind.strip():
            raise TileError(f"a tile needs a kind (such as 'program'), not {kind!r}")
        details = dict(details or {})
        try:
            text = json.dumps(details, sort_keys=True, allow_nan=False)
        except (TypeError, ValueError) as error:
            raise TileError(f"a tile's details must be plain JSON data: {error}") from error
        learned = self._clock()
        with self._lock:
            try:
                self._connection().execute(
                    "INSERT INTO tiles (uid, kind, details, learned) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT(uid) DO UPDATE SET kind = excluded.kind, details = excluded.details, "
                    "learned = excluded.learned",
                    (key, kind.strip(), text, learned),
                )
            except sqlite3.Error as error:
                raise JournalError(f"cannot write the tile registry in {self.path}: {error}") from error
        return Tile(key, kind.strip(), json.loads(text), learned)

    def forget(self, uid: str) -> bool:
        """Remove what is known about tag ``uid``; True if something was removed."""
        key = normalize_uid(uid)
        with self._lock:
            try:
                cursor = self._connection().execute("DELETE FROM tiles WHERE uid = ?", (key,))
            except sqlite3.Error as error:
                raise JournalError(f"cannot write the tile registry in {self.path}: {error}") from error
        return cursor.rowcount > 0

    def tiles(self, kind: str | None = None) -> list[Tile]:
        """Every learned tile (of ``kind``, if given), ordered by UID."""
        query = "SELECT uid, kind, details, learned FROM tiles"
        params: tuple = ()
        if kind is not None:
            query, params = query + " WHERE kind = ?", (kind,)
        with self._lock:
            try:
                rows = self._connection().execute(query + " ORDER BY uid", params).fetchall()
            except sqlite3.Error as error:
                raise JournalError(f"cannot read the tile registry in {self.path}: {error}") from error
        return [Tile(r[0], r[1], json.loads(r[2]), r[3]) for r in rows]

    def close(self) -> None:
        """Close the registry's connection. Safe to call twice."""
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    def __enter__(self) -> TileRegistry:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()
