"""Backups that cannot eat a good game, journals of earlier versions, and recovery's one invariant.

* A backup generation is never pruned while it holds more events of one of its games than every kept one.
* Delta parts (merged or not) restore exactly the journal's rows.
* A journal written by an earlier version (no ``meta``/``lost`` tables, ``journal-*.sqlite3`` full-copy
  backups) opens and replays to the same state, and its old backups still restore it.
* Whatever pages are damaged, every recovered game is exactly how that game began, and replays.
"""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import companion.backups as backups
from companion.backups import BackupWriter, generations
from companion.commands import NewGame, OpenGame, PlayerSeat, Undo
from companion.events import NewEvent
from companion.games.tv_wars import PassOnTheAir
from companion.journal import Journal, open_journal
from companion.recovery import generation_source
from companion.session import GameSession
from companion.table import Table

EVENT_COLUMNS = "seq, game_id, move, time, type, payload, schema_version"
PLAYERS = [{"name": "ABS", "colour": "#e53935"}, {"name": "CBA", "colour": "#1e88e5"}]

#: The journal layout of every version before this one (no meta, no lost).
OLD_SCHEMA = """
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


def _rows(path: Path) -> list[tuple]:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return [tuple(r) for r in db.execute(f"SELECT {EVENT_COLUMNS} FROM events ORDER BY seq")]
    finally:
        db.close()


def _money(n: int) -> list[NewEvent]:
    return [
        NewEvent("money_moved", {"payer": "bank", "payee": "ABS", "amount": 500, "reason": f"move {n}", "rule": ""})
    ]


def _played(path: Path, games: int = 3, moves: int = 90) -> Table:
    table = Table(Journal(path), backup_every=None)
    table.claim()
    for _ in range(games):
        assert table.execute(
            NewGame(game="tv-wars", players=(PlayerSeat("ABS"), PlayerSeat("CBA")), options={"roll_off": False})
        ).accepted
    for move in range(moves):
        table.execute(OpenGame(game_id=1 + move % games))
        assert table.execute(Undo() if move % 9 == 8 else PassOnTheAir(network="ABS")).accepted
    return table


def test_a_generation_holding_more_of_a_game_is_never_pruned(tmp_path, monkeypatch):
    """Journal A backs up game #1 with 101 events. Then a journal B holding only the first 41 of them (what
    a bad restore leaves) is backed up into the same folder, generation after generation: A's backup stays
    until one of B's holds at least as many events of game #1."""
    a = tmp_path / "a" / "journal.sqlite3"
    with Journal(a) as journal:
        game = journal.create_game("tv-wars", PLAYERS, {})
        for n in range(100):
            journal.append(game.game_id, _money(n))
        assert journal.take_backup() is not None
    folder = tmp_path / "a" / "backups"
    (first,) = generations(folder)

    b = tmp_path / "b" / "journal.sqlite3"
    with Journal(b) as journal:  # another file: a new journal id
        rows = _rows(a)[:41]
        with journal._transaction():
            journal._db.execute(
                "INSERT INTO games SELECT * FROM (SELECT 1, 'tv-wars', ?, 'open', ?, '{}')",
                (rows[0][3], '[{"name": "ABS", "colour": "#e53935"}, {"name": "CBA", "colour": "#1e88e5"}]'),
            )
            journal._db.executemany(f"INSERT INTO events ({EVENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
        writer = BackupWriter(b)
        writer.folder = folder
        for n in range(6):
            journal.append(1, _money(1000 + n))
            writer.backup(new_generation=True)
            assert first.base.exists(), f"the better backup was pruned after {n + 1} weaker ones"
        assert len(generations(folder)) == 1 + backups.GENERATIONS_KEPT
        for n in range(70):  # B's game #1 overtakes A's 101 events
            journal.append(1, _money(2000 + n))
        writer.backup(new_generation=True)
    assert not first.base.exists(), "a backup that a newer one holds entirely is pruned"
    assert len(generations(folder)) == backups.GENERATIONS_KEPT


def test_delta_parts_and_their_merges_hold_exactly_the_journals_rows(tmp_path, monkeypatch):
    monkeypatch.setattr(backups, "MERGE_FAN_IN", 4)
    path = tmp_path / "journal.sqlite3"
    table = _played(path, moves=0)
    for move in range(70):
        table.execute(OpenGame(game_id=1 + move % 3))
        assert table.execute(PassOnTheAir(network="CBA")).accepted
        if move % 2:
            table.journal.take_backup()
    table.journal.take_backup()
    (generation,) = generations(tmp_path / "backups")
    assert sum(part.span for part in generation.parts) == 34  # 36 backups: the base, 34 parts, nothing new
    assert 16 in {part.span for part in generation.parts} and len(generation.parts) < 8, "parts were not merged"
    source = generation_source(generation, 0)
    restored = sorted(row for game in (1, 2, 3) for row in source.records(game, float("inf")))
    assert restored == _rows(path)
    table.journal.close()


def _old_journal(path: Path, rows: list[tuple], games: list[tuple]) -> None:
    """A journal file as every earlier version wrote it."""
    db = sqlite3.connect(str(path), isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode = WAL")
        db.executescript(OLD_SCHEMA)
        db.execute("PRAGMA user_version = 1")
        db.execute("BEGIN")
        db.executemany("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?)", games)
        db.executemany(f"INSERT INTO events ({EVENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
        db.execute("COMMIT")
    finally:
        db.close()


def test_a_journal_of_an_earlier_version_opens_replays_alike_and_its_old_backups_still_restore_it(tmp_path):
    played = tmp_path / "played.sqlite3"
    table = _played(played, moves=60)
    live = {}
    for game in (1, 2, 3):
        table.execute(OpenGame(game_id=game))
        live[game] = table.state
    rows = _rows(played)
    games = [tuple(r) for r in table.journal._db.execute("SELECT * FROM games")]
    table.journal.close()

    data = tmp_path / "data"
    data.mkdir()
    path = data / "journal.sqlite3"
    _old_journal(path, rows, games)
    (data / "backups").mkdir()
    old_backup = data / "backups" / "journal-20260101-120000-00000183.sqlite3"  # the old take_backup()
    source, target = sqlite3.connect(str(path)), sqlite3.connect(str(old_backup))
    source.backup(target)
    source.close()
    target.close()

    journal, recovery = open_journal(path)
    try:
        assert recovery is None
        for game in (1, 2, 3):
            events = journal.events(game)
            assert [(e.seq, e.game_id, e.move, e.type) for e in events] == [
                (r[0], r[1], r[2], r[4]) for r in rows if r[1] == game
            ]
            assert GameSession(game, events).state == live[game]
        assert journal.journal_id is not None  # the new tables are added on opening
        assert journal.append(1, _money(1))[0].seq == rows[-1][0] + 1
    finally:
        journal.close()

    path.write_bytes(bytes(100) + path.read_bytes()[100:])  # damaged: the old backup restores it
    journal, recovery = open_journal(path)
    try:
        assert recovery is not None and recovery.backup == old_backup
        for game in (1, 2, 3):
            assert GameSession(game, journal.events(game)).state == live[game]
    finally:
        journal.close()


# -- the invariant, under random damage ------------------------------------------------------------------
@pytest.fixture(scope="module")
def played_journal(tmp_path_factory) -> tuple[bytes, list[tuple]]:
    path = tmp_path_factory.mktemp("played") / "journal.sqlite3"
    table = _played(path, games=4, moves=400)
    table.journal.close()
    return path.read_bytes(), _rows(path)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    damage=st.lists(
        st.tuples(st.integers(0, 10_000), st.sampled_from(["random", "zeros", "cut"]), st.integers(0, 2**32)),
        min_size=1,
        max_size=3,
    )
)
def test_whatever_is_damaged_every_recovered_game_is_how_it_began_and_replays(tmp_path_factory, played_journal, damage):
    original, rows = played_journal
    folder = tmp_path_factory.mktemp("damaged")
    path = folder / "journal.sqlite3"
    data = bytearray(original)
    page_size = int.from_bytes(data[16:18], "big")
    pages = len(data) // page_size
    for where, kind, seed in damage:
        page = where % pages
        if kind == "cut":
            data = data[: page * page_size]
            pages = max(page, 1)
            continue
        chunk = (
            bytes(random.Random(seed).randrange(256) for _ in range(page_size))
            if kind == "random"
            else bytes(page_size)
        )
        data[page * page_size : (page + 1) * page_size] = chunk
    path.write_bytes(bytes(data))
    journal, recovery = open_journal(path)
    try:
        by_game: dict[int, list[tuple]] = {}
        for row in rows:
            by_game.setdefault(row[1], []).append(row)
        kept = 0
        for game in journal.games():
            events = journal.events(game.id)
            written = by_game[game.id][: len(events)]
            assert [(e.seq, e.move, e.type, e.time, dict(e.payload)) for e in events] == [
                (r[0], r[2], r[4], r[3], json.loads(r[5])) for r in written
            ]
            GameSession(game.id, events)  # replays
            kept += len(events)
        event("damage found" if recovery is not None else "damage not noticed")
        event("nothing lost" if kept == len(rows) else "events lost")
        if recovery is not None:
            assert recovery.events_recovered == kept
            moved = recovery.moved_to
            assert moved is not None and moved.read_bytes() == bytes(data)
    finally:
        journal.close()
        shutil.rmtree(folder, ignore_errors=True)


def test_learned_tiles_come_back_with_the_games(tmp_path):
    from companion.tiles import TileRegistry

    path = tmp_path / "journal.sqlite3"
    table = _played(path, games=1, moves=5)
    with TileRegistry(path) as tiles:
        tiles.learn("04A1B2C3", "program", {"title": "News at Ten"})
    table.journal.take_backup()
    table.journal.close()
    path.write_bytes(bytes(100) + path.read_bytes()[100:])
    journal, recovery = open_journal(path)
    journal.close()
    assert recovery is not None and recovery.games_recovered == 1
    with TileRegistry(path) as tiles:
        assert tiles.lookup("04A1B2C3").details == {"title": "News at Ten"}


def test_half_written_backups_of_every_version_are_removed_at_start_up(tmp_path):
    path = tmp_path / "journal.sqlite3"
    table = _played(path, games=1, moves=5)
    table.journal.take_backup()
    table.journal.close()
    folder = tmp_path / "backups"
    leftovers = [
        folder / "journal-20260101-120000-00000012.partial",  # earlier versions'
        folder / "journal-20260101-120000-00000012.partial-journal",
        folder / "gen-000002-base.sqlite3.tmp",  # this version's
        folder / "gen-000001-d-000001-000001.jsonl.tmp",
    ]
    for leftover in leftovers:
        leftover.write_bytes(b"half of something")
    complete = sorted(p.name for p in folder.iterdir() if p not in leftovers)
    journal, recovery = open_journal(path)
    journal.close()
    assert recovery is None
    assert sorted(p.name for p in folder.iterdir()) == complete


def test_a_start_up_killed_in_the_middle_of_a_recovery_finishes_it(tmp_path):
    """A recovery builds the new journal as <name>.recovering, renames it <name>.recovered once it is on
    disk, moves the damaged file aside, then renames the new one into place. Killed before the last step,
    the next start-up puts it in place (and says what the recovery said); killed earlier, it starts over."""
    path = tmp_path / "journal.sqlite3"
    table = _played(path, games=2, moves=20)
    table.journal.take_backup()
    table.journal.close()
    damaged = bytes(100) + path.read_bytes()[100:]
    path.write_bytes(damaged)
    (tmp_path / "journal.sqlite3.recovering").write_bytes(b"half-built")  # killed while building
    journal, first = open_journal(path)
    journal.close()
    assert not (tmp_path / "journal.sqlite3.recovering").exists()
    assert first.moved_to.read_bytes() == damaged
    rebuilt = _rows(path)
    path.rename(tmp_path / "journal.sqlite3.recovered")  # killed before the last rename
    journal, finished = open_journal(path)
    journal.close()
    assert finished is not None and finished.message() == first.message()
    assert _rows(path) == rebuilt and not (tmp_path / "journal.sqlite3.recovered").exists()
