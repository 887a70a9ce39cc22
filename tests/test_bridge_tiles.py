"""The tile registry (companion/tiles.py) on a real SQLite file, beside a real journal."""

from __future__ import annotations

import sqlite3
import threading

import pytest
from conftest import start_tv_wars

from companion.errors import JournalError, TileError
from companion.journal import Journal, open_journal
from companion.tiles import Tile, TileRegistry, normalize_uid


def test_learn_mode_unknown_then_learned_once(journal_path):
    with TileRegistry(journal_path, clock=lambda: 1000.0) as tiles:
        assert tiles.lookup("04A1B2C3") is None  # the UI asks for the details
        learned = tiles.learn("04:a1:b2:c3", "program", {"title": "Quiz Night", "genre": "game show", "half_hours": 1})
        assert learned == Tile(
            "04A1B2C3", "program", {"genre": "game show", "half_hours": 1, "title": "Quiz Night"}, 1000.0
        )
        assert tiles.lookup("04a1b2c3") == learned
        tiles.learn("04A1B2C3", "program", {"title": "Quiz Night II"})  # re-learning replaces
        assert tiles.lookup("04A1B2C3").details == {"title": "Quiz Night II"}
        tiles.learn("04224E72B15A80", "sponsor", {})
        assert [t.uid for t in tiles.tiles()] == ["04224E72B15A80", "04A1B2C3"]
        assert [t.uid for t in tiles.tiles("program")] == ["04A1B2C3"]
        assert tiles.forget("04224E72B15A80") and not tiles.forget("04224E72B15A80")
    with TileRegistry(journal_path) as again:  # it is on disk
        assert again.lookup("04A1B2C3").details == {"title": "Quiz Night II"}


def test_the_registry_lives_in_the_journal_file_without_disturbing_it(journal_path, table):
    game_id = start_tv_wars(table)
    tiles = TileRegistry(journal_path)
    tiles.learn("04A1B2C3", "program", {"title": "News at Ten"})
    table.journal.append(game_id, [], 1.0)
    events_before = len(table.journal.events(game_id))
    assert sqlite3.connect(str(journal_path)).execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    tiles.close()
    tiles.close()  # twice is fine
    table.journal.close()
    journal, recovery = open_journal(journal_path)  # the integrity check passes
    try:
        assert recovery is None and len(journal.events(game_id)) == events_before
    finally:
        journal.close()
    with TileRegistry(journal_path) as reopened:
        assert reopened.lookup("04A1B2C3").kind == "program"


def test_a_registry_created_first_leaves_a_usable_journal(tmp_path):
    path = tmp_path / "fresh.sqlite3"
    TileRegistry(path).close()
    with Journal(path) as journal:
        assert journal.games() == []


def test_concurrent_learning_from_threads_and_the_journal_writer(journal_path, journal):
    tiles = TileRegistry(journal_path)
    errors = []

    def learn(n):
        try:
            for i in range(25):
                tiles.learn("%08X" % (n * 1000 + i), "program", {"n": i})
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=learn, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    journal.create_game("tv-wars", [{"name": "ABS", "colour": "red"}], {}, 1.0)
    for thread in threads:
        thread.join()
    assert errors == [] and len(tiles.tiles()) == 100
    tiles.close()


@pytest.mark.parametrize("uid", ["", "04A1B2", "04A1B2C3D", "ZZA1B2C3", 1234, "04A1B2C3 04"])
def test_malformed_uids_are_refused(uid, journal_path):
    with pytest.raises(TileError):
        normalize_uid(uid)
    with TileRegistry(journal_path) as tiles:
        with pytest.raises(ValueError):
            tiles.lookup(uid)


def test_bad_details_are_refused_and_nothing_is_written(journal_path):
    with TileRegistry(journal_path) as tiles:
        for kind, details in (("", {}), ("program", {"x": object()}), ("program", {"x": float("nan")})):
            with pytest.raises(TileError):
                tiles.learn("04A1B2C3", kind, details)
        assert tiles.tiles() == []


def test_a_closed_or_unusable_registry_says_so(tmp_path):
    tiles = TileRegistry(tmp_path / "t.sqlite3")
    tiles.close()
    with pytest.raises(JournalError, match="closed"):
        tiles.lookup("04A1B2C3")
    not_a_db = tmp_path / "junk.sqlite3"
    not_a_db.write_bytes(b"this is not a database" * 100)
    with pytest.raises(JournalError, match="tile registry"):
        TileRegistry(not_a_db)
