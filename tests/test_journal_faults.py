"""Fault injection: every kind of journal damage, recovered honestly at start-up.

Each test makes a real journal with several games (through the real Table, with its background backups),
damages it the way the world does (overwritten pages, truncation, a 0-byte file, a deleted or stale -wal,
wrong permissions, a folder or a non-SQLite file in its place, a newer companion's journal, a full disk),
starts the companion headless (``companion run --headless``, a real process) and checks what it kept
(per game an exact prefix of what was written, never a splice across a gap), what it said, and that the
damaged file is still there, byte for byte.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from conftest import REPO, run_companion
from kivy_driver import keep_artifacts, run_driver

from companion.backups import BackupWriter, generations, read_part
from companion.commands import OpenGame
from companion.errors import JournalError
from companion.games.tv_wars import PassOnTheAir
from companion.journal import ROOM_WANTED_BYTES, Journal, open_journal
from companion.table import Table
from companion.words import count

EVENT_COLUMNS = "seq, game_id, move, time, type, payload, schema_version"

#: A child that plays like the Table below, waits for its backups, says "ready" and waits to be killed
#: (so its -wal still holds the moves: nothing is checkpointed).
PLAYER = r"""
import sys, time
sys.path.insert(0, sys.argv[4])
from tests_player import play
from companion.journal import Journal
from companion.table import Table
table = Table(Journal(sys.argv[1]), backup_every=int(sys.argv[3]))
table.claim()
play(table, int(sys.argv[2]))
table.journal.backup_soon()
assert table.journal.wait_for_backups(60)
print("ready", flush=True)
time.sleep(600)
"""

PLAY = r'''
from companion.commands import NewGame, OpenGame, PlayerSeat, Undo
from companion.games.tv_wars import PassOnTheAir


def play(table, moves, games=3, first=True):
    """Start ``games`` TV Wars games (if ``first``) and a Death Show TV game, then play ``moves`` moves
    round-robin over the TV Wars games (every ninth an undo)."""
    if first:
        for _ in range(games):
            assert table.execute(NewGame(game="tv-wars", players=(PlayerSeat("ABS"), PlayerSeat("CBA")),
                                         options={"roll_off": False})).accepted
        assert table.execute(NewGame(game="death-show-tv", players=(PlayerSeat("Ava"), PlayerSeat("Ben")))).accepted
    ids = [g.id for g in table.journal.games() if g.game == "tv-wars"]
    for move in range(moves):
        table.execute(OpenGame(game_id=ids[move % len(ids)]))
        command = Undo() if move % 9 == 8 else PassOnTheAir(network="ABS" if move % 2 else "CBA")
        outcome = table.execute(command)
        assert outcome.accepted, outcome.message
'''


@pytest.fixture(scope="module")
def player_module(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("player")
    (folder / "tests_player.py").write_text(PLAY)
    return folder


def _play(path: Path, moves: int, player_module: Path, backup_every: int | None = 7, first: bool = True) -> None:
    sys.path.insert(0, str(player_module))
    try:
        from tests_player import play
    finally:
        sys.path.remove(str(player_module))
    table = Table(Journal(path), backup_every=backup_every)
    table.claim()
    play(table, moves, first=first)
    if backup_every is not None:
        table.journal.backup_soon()  # as the kiosk does at a clean stop
    assert table.journal.wait_for_backups(60), "the backups were not written within 60 s"
    table.journal.close()


def _rows(path: Path, uri: str = "") -> dict[int, list[tuple]]:
    """Every event row per game, read with plain sqlite3 (``uri`` query, e.g. ``mode=ro&immutable=1``)."""
    db = sqlite3.connect(f"file:{path}?{uri or 'mode=ro'}", uri=True)
    try:
        result: dict[int, list[tuple]] = {}
        for row in db.execute(f"SELECT {EVENT_COLUMNS} FROM events ORDER BY seq"):
            result.setdefault(row[1], []).append(tuple(row))
        return result
    finally:
        db.close()


def _reference(data_dir: Path) -> dict[int, list[tuple]]:
    """What the journal holds now, read from a copy (a connection to the real file could checkpoint it)."""
    copy = Path(tempfile.mkdtemp(prefix="reference-"))
    try:
        for suffix in ("", "-wal", "-shm"):
            source = data_dir / f"journal.sqlite3{suffix}"
            if source.exists():
                shutil.copy2(source, copy / source.name)
        return _rows(copy / "journal.sqlite3")
    finally:
        shutil.rmtree(copy)


def _headless(data_dir: Path, *extra: str, user: list[str] | None = None) -> subprocess.CompletedProcess:
    if user is None:
        result = run_companion("run", "--headless", "--data-dir", str(data_dir), *extra, timeout=120)
    else:  # as an unprivileged user (root ignores file permissions)
        env = dict(os.environ, HOME=str(data_dir.parent))
        env.pop("COMPANION_DATA_DIR", None)
        result = subprocess.run(
            [*user, sys.executable, "-m", "companion", "run", "--headless", "--data-dir", str(data_dir), *extra],
            capture_output=True,
            text=True,
            timeout=120,
            cwd=str(REPO),
            env=env,
        )
    assert result.returncode == 0, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr, result.stderr
    return result


def _assert_prefixes(recovered: dict[int, list[tuple]], original: dict[int, list[tuple]]) -> dict[int, int]:
    """Every recovered game is exactly the first events of the same game as written: no splice, nothing
    invented. Returns the number kept per game."""
    kept = {}
    for game_id, rows in recovered.items():
        written = original.get(game_id, [])
        assert rows == written[: len(rows)], f"game #{game_id}: what was kept is not how the game began"
        kept[game_id] = len(rows)
    return kept


def _damaged(data_dir: Path, label: str = "damaged") -> list[Path]:
    return sorted(p for p in data_dir.iterdir() if f".{label}-" in p.name and not p.name.endswith(("-wal", "-shm")))


@pytest.fixture
def data_dir(tmp_path) -> Path:
    folder = tmp_path / "data"
    folder.mkdir()
    return folder


# -- damaged pages, truncation, header -------------------------------------------------------------------
def _middle_events_page(data: bytes) -> tuple[int, int]:
    """``(page number from 0, page size)`` of the middle one of the file's pages that hold event rows (their
    ``type`` text is in the page; the other tables' pages, e.g. the compressed stored states, do not hold it):
    where a damage or a cut costs some events, whatever the other tables take of the file."""
    page_size = int.from_bytes(data[16:18], "big")
    pages = [n for n in range(len(data) // page_size) if b"money_moved" in data[n * page_size : (n + 1) * page_size]]
    assert len(pages) > 2, "the journal holds too few pages of events for this test"
    return pages[len(pages) // 2], page_size


def test_an_overwritten_page_without_backups_keeps_each_game_up_to_the_hole_never_across_it(data_dir, player_module):
    """The issue's case: one page overwritten, no backup. Each game keeps its events up to the first
    unreadable seq after its start (dropping a move the hole may have cut in half); nothing after the
    hole is replayed, and the message says per game what was kept and where the rest is."""
    path = data_dir / "journal.sqlite3"
    _play(path, 240, player_module, backup_every=None)
    original = _rows(path)
    data = bytearray(path.read_bytes())
    page, page_size = _middle_events_page(data)
    data[page * page_size : (page + 1) * page_size] = bytes(random.Random(5).randrange(256) for _ in range(page_size))
    path.write_bytes(bytes(data))

    result = _headless(data_dir)
    (moved,) = _damaged(data_dir)
    assert moved.read_bytes() == bytes(data), "the damaged file must be kept exactly as it was"
    recovered = _rows(path)
    kept = _assert_prefixes(recovered, original)
    all_seqs = sorted(row[0] for rows in original.values() for row in rows)
    kept_seqs = {row[0] for rows in recovered.values() for row in rows}
    hole = min(seq for seq in all_seqs if seq not in kept_seqs)
    for game_id, rows in recovered.items():
        assert all(row[0] < hole for row in rows), f"game #{game_id} was replayed across the hole at #{hole}"
    cut = [g for g in original if kept.get(g, 0) < len(original[g])]
    assert cut, "the damage cost nothing; the test proves nothing"
    message = result.stdout
    assert "Journal damaged" in message and moved.name in message
    for game_id in cut:
        if kept.get(game_id):
            last = recovered[game_id][-1][0]
            assert f"Game #{game_id} (TV Wars: ABS, CBA): events #{original[game_id][0][0]}–#{last} kept" in message, (
                message
            )
            assert f"could not be read whole and are in {moved.name}" in message
    assert f"recovered {count(sum(kept.values()), 'event')} of {count(len(recovered), 'game')}" in message
    # the recovered journal is a working journal: its games open and take new moves after the hole's seqs
    journal, again = open_journal(path)
    try:
        assert again is None
        table = Table(journal, backup_every=None)
        table.claim()
        game = next(iter(cut))
        assert table.execute(OpenGame(game_id=game)).accepted
        record = table.execute(PassOnTheAir(network="ABS")).records[0]
        assert record.seq > max(all_seqs), "a seq the damaged file used was given out again"
    finally:
        journal.close()


def test_an_overwritten_page_with_backups_restores_every_game_from_the_best_source(data_dir, player_module):
    path = data_dir / "journal.sqlite3"
    _play(path, 240, player_module)
    original = _rows(path)
    data = bytearray(path.read_bytes())
    page, page_size = _middle_events_page(data)
    data[page * page_size : (page + 1) * page_size] = bytes(random.Random(6).randrange(256) for _ in range(page_size))
    path.write_bytes(bytes(data))

    result = _headless(data_dir)
    (moved,) = _damaged(data_dir)
    assert moved.read_bytes() == bytes(data)
    kept = _assert_prefixes(_rows(path), original)
    assert kept == {g: len(rows) for g, rows in original.items()}, "the backups held every move"
    assert "from the backup gen-" in result.stdout


def test_a_zeroed_header_is_restored_from_the_backups(data_dir, player_module):
    path = data_dir / "journal.sqlite3"
    _play(path, 100, player_module)
    original = _rows(path)
    data = bytes(100) + path.read_bytes()[100:]
    path.write_bytes(data)
    result = _headless(data_dir)
    (moved,) = _damaged(data_dir)
    assert moved.read_bytes() == data
    assert _assert_prefixes(_rows(path), original) == {g: len(r) for g, r in original.items()}
    assert "Journal damaged" in result.stdout


@pytest.mark.parametrize("with_backups", [False, True])
def test_a_truncated_journal_keeps_prefixes_and_the_backups_fill_in(data_dir, player_module, with_backups):
    path = data_dir / "journal.sqlite3"
    _play(path, 240, player_module, backup_every=7 if with_backups else None)
    original = _rows(path)
    page, page_size = _middle_events_page(path.read_bytes())
    data = path.read_bytes()[: page * page_size]  # half the events' pages are cut off
    path.write_bytes(data)
    result = _headless(data_dir)
    (moved,) = _damaged(data_dir)
    assert moved.read_bytes() == data
    kept = _assert_prefixes(_rows(path), original)
    if with_backups:
        assert kept == {g: len(r) for g, r in original.items()}
    else:
        assert 0 < sum(kept.values()) < sum(len(r) for r in original.values())
        assert "could not be read" in result.stdout


@pytest.mark.parametrize("flip", ["not UTF-8", "not JSON"])
def test_a_flipped_byte_in_a_backup_copy_ends_that_copy_before_it_and_recovery_goes_on(data_dir, player_module, flip):
    """A byte of an event's payload in a backup copy gone bad: "not UTF-8" (a letter of a name in a JSON string:
    SQLite reads the row, Python cannot decode it), "not JSON" (its opening quote). Recovery stopped with
    "Could not decode to UTF-8 column 'payload'" or a JSON error, so the kiosk could not start. Now the copy's
    events end just before the bad one (no splice over it) and the rest is rebuilt from what remains."""
    path = data_dir / "journal.sqlite3"
    _play(path, 60, player_module)
    original = _rows(path)
    (base,) = sorted((data_dir / "backups").glob("gen-*-base-*.sqlite3"))[:1]
    into_name = 1 if flip == "not UTF-8" else 0
    _flip_in_payload(base, lambda payload: payload.index('"ABS"') + into_name, 0xFF if into_name else 0xDD)
    path.unlink()
    _drop_sidecars(data_dir)

    result = _headless(data_dir)
    kept = _assert_prefixes(_rows(path), original)
    assert "Journal missing" in result.stdout
    assert 0 < sum(kept.values()) < sum(len(r) for r in original.values())


def _drop_sidecars(data_dir: Path) -> None:
    """The journal's -wal and -shm gone (lost with a card, a copy of the main file put back)."""
    for sidecar in ("journal.sqlite3-wal", "journal.sqlite3-shm"):
        (data_dir / sidecar).unlink(missing_ok=True)


def _put_back_behind_its_backups(data_dir: Path, player_module: Path, tmp_path: Path) -> tuple[dict, Path]:
    """60 moves, then 60 more (backed up), then the journal as it was after the first 60 put back without its
    -wal: a journal behind its backups. Returns every event as written (per game) and an export of game #1."""
    path = data_dir / "journal.sqlite3"
    _play(path, 60, player_module)
    earlier = path.read_bytes()
    _play(path, 60, player_module, first=False)
    written = _rows(path)
    export = tmp_path / "game1.json"
    assert run_companion("export", "1", "-o", str(export), "--data-dir", str(data_dir)).returncode == 0
    path.write_bytes(earlier)
    _drop_sidecars(data_dir)
    return written, export


def _flip_in_payload(path: Path, offset_in_payload, value: int) -> tuple:
    """Change one byte of the last event's payload that names ABS, where it is stored in the file at ``path``
    (``offset_in_payload(payload)``: which byte); returns that event's row."""
    rows = _rows(path, "mode=ro&immutable=1")
    row = max((r for game in rows.values() for r in game if '"ABS"' in r[5]), key=lambda r: r[0])
    data = bytearray(path.read_bytes())
    at = data.rfind(row[5].encode())
    assert at > 0, "the payload is not stored verbatim"
    data[at + offset_in_payload(row[5])] = value
    path.write_bytes(bytes(data))
    return row


def test_a_payload_that_is_no_longer_json_is_found_at_start_up_and_rebuilt(data_dir, player_module):
    """Damage inside a row, which PRAGMA integrity_check does not look at (the fault trial cut the file one
    byte short): the game could not be opened, and the refusal promised a recovery that never came. Now
    start-up's check of the payloads finds it, moves the file aside and rebuilds the games."""
    path = data_dir / "journal.sqlite3"
    _play(path, 60, player_module)
    original = _rows(path)
    _flip_in_payload(path, lambda payload: 0, ord("x"))  # its opening brace
    result = _headless(data_dir)
    assert re.search(r"Journal damaged: event #\d+'s payload is not readable JSON", result.stdout), result.stdout
    (moved,) = _damaged(data_dir)
    kept = _assert_prefixes(_rows(path), original)
    assert sum(kept.values()) > 0 and "Refused" not in result.stdout


def test_damage_met_in_use_is_noted_and_the_next_start_up_rebuilds_the_journal(data_dir, player_module):
    """A byte of a name inside a JSON string no longer UTF-8: every check passes (the JSON is still valid to
    SQLite), and the game's opening meets it. That refusal notes the damage beside the journal, and the next
    start moves the file aside and rebuilds it, as the refusal says."""
    path = data_dir / "journal.sqlite3"
    _play(path, 60, player_module)
    original = _rows(path)
    _flip_in_payload(path, lambda payload: payload.rindex('"ABS"') + 1, 0xFF)
    data = path.read_bytes()
    # the latest game is played from its first move to its last: opening it reads its recent moves
    outcome = [line for line in _headless(data_dir).stdout.splitlines() if line.startswith("Refused")]
    if outcome:  # the bad event is one start-up reads (else a later read meets it, the same way)
        assert "is damaged (Could not decode to UTF-8" in outcome[0]
        assert "the next start of `companion run` moves it aside" in outcome[0]
        assert (data_dir / "journal.sqlite3.damage-found").is_file() and path.read_bytes() == data
    else:
        journal = Journal(path)
        with pytest.raises(JournalError, match="the next start"):
            for game in original:
                journal.events(game)
        journal.close()
    assert (data_dir / "journal.sqlite3.damage-found").is_file()
    result = _headless(data_dir)
    assert "Journal damaged: damage found while it was in use: Could not decode to UTF-8" in result.stdout
    assert not (data_dir / "journal.sqlite3.damage-found").exists()
    (moved,) = _damaged(data_dir)
    assert moved.read_bytes() == data
    _assert_prefixes(_rows(path), original)
    assert "Refused" not in _headless(data_dir).stdout


def test_an_undo_naming_a_move_no_longer_in_the_journal_is_said_so_not_a_traceback(data_dir, player_module):
    """The fault trial: one bit of a move's ``move`` column changed (its first event now belongs to no move).
    The game still opens; `companion replay` stopped with ``KeyError: 'no move #39 in game #1'`` writing the
    undo that names it, and so would the history screen. Now that entry says the move is not there."""
    path = data_dir / "journal.sqlite3"
    _play(path, 60, player_module, backup_every=None)
    db = sqlite3.connect(path)
    try:
        game, payload = db.execute(
            "SELECT game_id, payload FROM events WHERE type = 'history_restored' ORDER BY seq LIMIT 1"
        ).fetchone()
        (undone,) = json.loads(payload)["undone"][:1]
        with db:
            db.execute("UPDATE events SET move = move + 64 WHERE seq = ?", (undone,))
    finally:
        db.close()
    result = run_companion("replay", str(game), "--data-dir", str(data_dir))
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    assert f"undid #{undone} (no such move in this game's journal)" in result.stdout


def test_what_is_not_damage_notes_nothing_and_a_note_about_another_file_is_dropped(data_dir, player_module):
    """A read of a closed journal, or a caller's bad argument, is refused as it is and notes nothing: noted,
    the next start-up would move a sound journal aside (and a rebuild of its tail may drop its last move). A
    note about another file (another journal_id: the journal it was about was rebuilt or replaced) is removed,
    and the journal opens as it is."""
    path = data_dir / "journal.sqlite3"
    _play(path, 20, player_module, backup_every=None)
    marker = data_dir / "journal.sqlite3.damage-found"
    journal = Journal(path)
    with pytest.raises(JournalError, match="cannot read the journal"):
        journal.event_range(1, 1, 10, moves=[object()])  # a binding error: the caller's
    journal.close()
    with pytest.raises(JournalError, match="cannot read the journal"):
        journal.games()
    assert not marker.exists()

    marker.write_text("0123456789abcdef\nCould not decode to UTF-8 column 'payload'\n")  # another file's note
    opened, recovery = open_journal(path)
    opened.close()
    assert recovery is None and not marker.exists() and not _damaged(data_dir)


def test_a_backup_copy_cut_inside_a_move_keeps_the_moves_before_it_whole(tmp_path):
    """A backup copy whose bad row is the second event of a move: that move is left out whole (half of it would
    replay to a state the table never had), the moves before it kept."""
    from companion.recovery import Source

    copy = tmp_path / "copy.sqlite3"
    db = sqlite3.connect(copy)
    with db:
        db.execute(
            "CREATE TABLE events (seq INTEGER PRIMARY KEY, game_id INTEGER, move INTEGER, time REAL, type TEXT, "
            "payload TEXT, schema_version INTEGER)"
        )
        rows = [
            (1, 1, 1, 1.0, "game_started", "{}", 1),
            (2, 1, 2, 2.0, "money_moved", '{"amount": 1}', 1),
            (3, 1, 3, 3.0, "money_moved", '{"amount": 2}', 1),
            (4, 1, 3, 3.0, "track_set", '{"value": ', 1),  # the second event of move 3: not JSON
            (5, 1, 5, 5.0, "money_moved", '{"amount": 3}', 1),
        ]
        db.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
    db.close()
    source = Source("backup", copy, 2, index=[r[:5] for r in rows], db_uri=f"file:{copy}?mode=ro&immutable=1", db_max=5)
    assert [r[0] for r in source.records(1, 5)] == [1, 2]


def test_an_import_beside_a_running_companion_is_refused_with_nothing_written(data_dir, player_module, tmp_path):
    """A running companion may be rebuilding the journal at that very moment (its start-up): an import beside
    it could be lost with the file moved aside. Refused, saying who runs and that nothing was written."""
    from companion.lock import InstanceLock

    path = data_dir / "journal.sqlite3"
    _play(path, 10, player_module, backup_every=None)
    export = tmp_path / "game1.json"
    assert run_companion("export", "1", "-o", str(export), "--data-dir", str(data_dir)).returncode == 0
    before = _rows(path)
    with InstanceLock(data_dir / "companion.lock"):
        result = run_companion("games", "import", str(export), "--data-dir", str(data_dir))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "already running" in result.stderr and "quit it, then import (nothing was written)" in result.stderr
    assert _rows(path) == before


# -- empty, missing, folder, not SQLite, newer -------------------------------------------------------------
def test_a_zero_byte_journal_is_damage_and_an_older_good_backup_beats_a_newer_empty_one(data_dir, player_module):
    """The issue's case: a 0-byte file was taken as an empty journal and the next clean stop backed up the
    empty journal. Now a 0-byte file is damage, and every backup is looked at, not only the newest."""
    path = data_dir / "journal.sqlite3"
    _play(path, 60, player_module)
    original = _rows(path)
    empty = data_dir.parent / "empty" / "journal.sqlite3"  # a newer generation holding no game
    Journal(empty).close()
    writer = BackupWriter(empty)
    writer.folder = data_dir / "backups"
    writer.backup()
    assert generations(data_dir / "backups")[0].base_seq == 0, "the empty backup should be the newest"
    path.write_bytes(b"")

    result = _headless(data_dir)
    (moved,) = _damaged(data_dir)
    assert moved.stat().st_size == 0
    assert _assert_prefixes(_rows(path), original) == {g: len(r) for g, r in original.items()}
    assert "is empty (0 bytes)" in result.stdout
    assert f"recovered {count(sum(len(r) for r in original.values()), 'event')} of {count(len(original), 'game')}" in (
        result.stdout
    )


def test_a_deleted_journal_is_restored_from_its_backups(data_dir, player_module):
    path = data_dir / "journal.sqlite3"
    _play(path, 60, player_module)
    original = _rows(path)
    path.unlink()
    result = _headless(data_dir)
    assert _assert_prefixes(_rows(path), original) == {g: len(r) for g, r in original.items()}
    assert "Journal missing" in result.stdout


@pytest.mark.parametrize("kind", ["folder", "garbage"])
def test_a_folder_or_a_non_sqlite_file_in_its_place_is_moved_aside(data_dir, player_module, kind):
    path = data_dir / "journal.sqlite3"
    _play(path, 60, player_module)
    original = _rows(path)
    path.unlink()
    if kind == "folder":
        path.mkdir()
        (path / "inside.txt").write_text("someone's notes")
    else:
        path.write_bytes(b"#!/bin/sh\necho not a journal\n" * 200)
    result = _headless(data_dir)
    (moved,) = _damaged(data_dir)
    if kind == "folder":
        assert (moved / "inside.txt").read_text() == "someone's notes"
        assert "is a folder, not a journal file" in result.stdout
    else:
        assert moved.read_bytes() == b"#!/bin/sh\necho not a journal\n" * 200
    assert _assert_prefixes(_rows(path), original) == {g: len(r) for g, r in original.items()}


def test_a_journal_from_a_newer_companion_is_moved_aside_untouched(data_dir, player_module):
    path = data_dir / "journal.sqlite3"
    _play(path, 60, player_module)
    original = _rows(path)
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version = 99")
    data = path.read_bytes()
    result = _headless(data_dir)
    (moved,) = _damaged(data_dir, "newer")
    assert moved.read_bytes() == data
    assert "written by a newer companion" in result.stdout and "update the companion" in result.stdout
    assert _assert_prefixes(_rows(path), original) == {g: len(r) for g, r in original.items()}


# -- -wal and -shm ----------------------------------------------------------------------------------------
def _play_and_kill(path: Path, moves: int, player_module: Path) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", PLAYER, str(path), str(moves), "7", str(player_module)],
        cwd=str(REPO),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = child.stdout.readline()
        assert line.strip() == "ready", (line, child.stderr.read() if child.poll() is not None else "")
    finally:
        child.kill()
        child.wait()
        child.stdout.close()
        child.stderr.close()


#: A start-up whose power is cut at the ``argv[2]``-th ``os.replace`` of its recovery (``os._exit``).
CUT_RECOVERY = r"""
import os, sys
calls, real = [0], os.replace
def replace(source, target, *args, **kwargs):
    calls[0] += 1
    if calls[0] == int(sys.argv[2]):
        os._exit(9)
    return real(source, target, *args, **kwargs)
os.replace = replace
from companion.journal import open_journal
open_journal(sys.argv[1])
"""


def test_a_power_cut_between_moving_the_journal_aside_and_its_wal_moves_the_wal_after_it(
    data_dir, player_module, tmp_path
):
    """The fault trial's D5: a recovery moves the journal aside, then its -wal and -shm. Cut between the two,
    the next start-up put the rebuilt journal beside the old journal's -wal, SQLite applied it, and the
    rebuilt journal was found damaged and recovered a second time (the first report lost, the -wal beside the
    wrong file). Now the -wal and -shm are moved after the journal first. (The journal here is behind its
    backups, with its -wal: an earlier copy put back.)"""
    path = data_dir / "journal.sqlite3"
    earlier = tmp_path / "earlier"
    earlier.mkdir()
    _play_and_kill(path, 60, player_module)
    for file in data_dir.glob("journal.sqlite3*"):
        shutil.copy2(file, earlier / file.name)
    _play_and_kill(path, 60, player_module)
    for file in data_dir.glob("journal.sqlite3*"):
        file.unlink()
    for file in earlier.iterdir():
        shutil.copy2(file, data_dir / file.name)
    original = _rows(sorted((data_dir / "backups").glob("gen-*-base-*.sqlite3"))[0], "mode=ro&immutable=1")
    # os.replace calls: 1 the rebuilt file to ".recovered", 2 the journal aside, 3 its -wal: cut before 3
    cut = subprocess.run([sys.executable, "-c", CUT_RECOVERY, str(path), "3"], cwd=str(REPO), timeout=120)
    assert cut.returncode == 9
    (moved,) = _damaged(data_dir)
    assert (data_dir / "journal.sqlite3-wal").exists() and not Path(f"{moved}-wal").exists()
    wal = (data_dir / "journal.sqlite3-wal").read_bytes()

    result = _headless(data_dir)
    assert _damaged(data_dir) == [moved], "the rebuilt journal was recovered a second time"
    assert Path(f"{moved}-wal").read_bytes() == wal, "the -wal is not beside the journal it belongs to"
    assert "Journal damaged" not in result.stdout and "Refused" not in result.stdout
    assert "the journal only" in result.stdout, result.stdout  # the interrupted recovery's own report
    kept = _assert_prefixes(_rows(path), _reference_rows(data_dir, original))
    assert sum(kept.values()) > 0


def _reference_rows(data_dir: Path, base: dict[int, list[tuple]]) -> dict[int, list[tuple]]:
    """Every event the backups hold (the base and its parts), per game: what a rebuilt journal's games begin
    as."""
    rows = {game: list(events) for game, events in base.items()}
    for generation in generations(data_dir / "backups"):
        for part in generation.parts:
            content = read_part(part.path)
            for row in content.events if content else ():
                rows.setdefault(row[1], []).append(tuple(row))
    return rows


def test_a_deleted_wal_loses_nothing_a_backup_holds(data_dir, player_module):
    """The issue's case: the -wal (holding every move since the last checkpoint) is deleted after a power
    cut. The journal file alone is sound but behind; its backups hold the moves, and they are used."""
    path = data_dir / "journal.sqlite3"
    _play_and_kill(path, 120, player_module)
    original = _reference(data_dir)
    try:
        alone = sum(map(len, _rows(path, "mode=ro&immutable=1").values()))
    except sqlite3.OperationalError:  # not even the tables were checkpointed into the file
        alone = 0
    assert alone < sum(map(len, original.values())), "the -wal held nothing"
    main_bytes = path.read_bytes()
    Path(f"{path}-wal").unlink()

    result = _headless(data_dir)
    (moved,) = _damaged(data_dir)
    assert moved.read_bytes() == main_bytes
    assert _assert_prefixes(_rows(path), original) == {g: len(r) for g, r in original.items()}
    assert "-wal file is missing" in result.stdout


def test_an_import_into_a_journal_behind_its_backups_rebuilds_it_first_and_keeps_every_game(
    data_dir, player_module, tmp_path
):
    """The fault trial's D4: an earlier copy of the journal put back (its -wal lost), then `games import` before
    any `companion run`. The import opened the journal as it was, its events took seqs that the backups' moves
    of game #1 hold, and the next start-up dropped game #1 as a clash, the 63 events its own journal held
    included. Now the import runs the start-up's check first: the journal is rebuilt, then the game added."""
    path = data_dir / "journal.sqlite3"
    written, export = _put_back_behind_its_backups(data_dir, player_module, tmp_path)

    imported = run_companion("games", "import", str(export), "--data-dir", str(data_dir))
    assert imported.returncode == 0, imported.stderr
    assert "holds" in imported.stdout and "the journal only" in imported.stdout  # the rebuild, said
    result = _headless(data_dir)
    assert "not restored" not in result.stdout and "clash" not in result.stdout
    now = _rows(path)
    assert {game: now[game] for game in written} == written, "a game the backups held was lost"
    (new_game,) = set(now) - set(written)
    assert [r[4] for r in now[new_game]] == [r[4] for r in written[1]]  # the imported copy of game #1


def test_a_game_whose_backup_clashes_with_a_game_written_since_keeps_its_events_up_to_the_clash(
    data_dir, player_module, tmp_path
):
    """A journal behind its backups that was written to before any check (what `games import` did, D4): the
    new game's events took numbers the backups' later moves of game #1 hold. The clash dropped game #1
    whole ("not restored"), the events its own journal held included. Now it is kept up to the clash, and
    the report says why the rest was not."""
    from companion.export import import_json

    path = data_dir / "journal.sqlite3"
    _, export = _put_back_behind_its_backups(data_dir, player_module, tmp_path)
    before = _rows(path)
    with Journal(path) as journal:  # written to as it is, no start-up check
        added = import_json(journal, export.read_text())

    result = _headless(data_dir)
    assert "not restored" not in result.stdout, result.stdout
    assert "clash with another game's events (kept in their place)" in result.stdout, result.stdout
    now = _rows(path)
    assert added in now
    for game, rows in before.items():  # every game keeps at least what its own journal held
        assert now[game][: len(rows)] == rows, f"game #{game} lost events its journal held"


def test_a_stale_wal_from_an_earlier_moment_is_not_trusted(data_dir, player_module):
    """A -wal left over from an earlier power cut beside a newer journal file (put back by hand, or by a
    restore that forgot it): its old pages must not silently replace the newer ones."""
    path = data_dir / "journal.sqlite3"
    _play_and_kill(path, 40, player_module)
    stale = Path(f"{path}-wal").read_bytes()
    sys.path.insert(0, str(player_module))
    try:
        from tests_player import play
    finally:
        sys.path.remove(str(player_module))
    table = Table(Journal(path), backup_every=7)  # opening checkpoints the -wal; play on, stop cleanly
    table.claim()
    play(table, 80, first=False)
    table.journal.backup_soon()
    assert table.journal.wait_for_backups(60)
    table.journal.close()
    original = _rows(path)
    Path(f"{path}-wal").write_bytes(stale)

    _headless(data_dir)
    assert _assert_prefixes(_rows(path), original) == {g: len(r) for g, r in original.items()}


def test_a_stale_shm_is_rebuilt_and_nothing_is_lost(data_dir, player_module):
    """SQLite rebuilds a -shm that does not match its -wal: the journal opens as it is, every move there."""
    path = data_dir / "journal.sqlite3"
    _play_and_kill(path, 60, player_module)
    original = _reference(data_dir)
    shm = Path(f"{path}-shm")
    shm.write_bytes(bytes(random.Random(2).randrange(256) for _ in range(shm.stat().st_size)))
    result = _headless(data_dir)
    assert _rows(path) == original
    assert not _damaged(data_dir) and "Journal damaged" not in result.stdout


# -- permissions, read-only, full disk -------------------------------------------------------------------
def _unprivileged(folder: Path) -> list[str]:
    """The command prefix that runs as an unprivileged user, and ``folder`` handed to that user; root
    ignores file modes, so as root the companion is run as ``nobody`` (with setpriv)."""
    if os.geteuid() != 0:
        return []
    if not shutil.which("setpriv"):
        pytest.skip("running as root without setpriv: file permissions cannot be tested")
    for path in [folder, *folder.rglob("*")]:
        os.chown(path, 65534, 65534)
    return ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]


@pytest.fixture
def open_data_dir(player_module):
    """A data directory an unprivileged user can reach (pytest's own folders are private to root)."""
    parent = Path(tempfile.mkdtemp(prefix="companion-perm-"))
    os.chmod(parent, 0o755)
    folder = parent / "data"
    folder.mkdir()
    try:
        yield folder
    finally:
        for path in [folder, *folder.rglob("*")]:
            try:
                os.chmod(path, 0o755 if path.is_dir() else 0o644)
            except OSError:
                pass
        shutil.rmtree(parent, ignore_errors=True)


def test_a_read_only_journal_file_is_copied_into_a_writable_one(open_data_dir, player_module):
    path = open_data_dir / "journal.sqlite3"
    _play(path, 60, player_module)
    original = _rows(path)
    user = _unprivileged(open_data_dir)
    os.chmod(path, 0o444)
    result = _headless(open_data_dir, user=user)
    (moved,) = _damaged(open_data_dir)
    assert _rows(moved) == original
    assert _assert_prefixes(_rows(path), original) == {g: len(r) for g, r in original.items()}
    assert "cannot be written" in result.stdout
    assert "read-only" not in result.stdout.split("Journal ")[-1].split("\n")[0]  # the new journal is writable


def test_an_unreadable_journal_file_is_restored_from_the_backups(open_data_dir, player_module):
    path = open_data_dir / "journal.sqlite3"
    _play(path, 60, player_module)
    original = _rows(path)
    user = _unprivileged(open_data_dir)
    os.chmod(path, 0o000)
    result = _headless(open_data_dir, user=user)
    (moved,) = _damaged(open_data_dir)
    assert "cannot be read" in result.stdout
    assert moved.stat().st_mode & 0o777 == 0
    assert _assert_prefixes(_rows(path), original) == {g: len(r) for g, r in original.items()}


def test_a_read_only_data_directory_opens_the_games_read_only_and_keeps_running(open_data_dir, player_module):
    """Nothing can be written: the kiosk does not refuse to start (systemd would restart it for ever); the
    games open read-only, the message says so, nothing is moved, and a move is refused with the reason."""
    path = open_data_dir / "journal.sqlite3"
    _play(path, 60, player_module)
    original = _rows(path)
    for side in (Path(f"{path}-wal"), Path(f"{path}-shm")):  # left by the reading above; with them
        if side.exists():  # there, SQLite could still write
            assert side.name.endswith("-shm") or side.stat().st_size == 0
            side.unlink()
    before = sorted(p.name for p in open_data_dir.iterdir())
    user = _unprivileged(open_data_dir)
    os.chmod(open_data_dir, 0o555)
    result = _headless(open_data_dir, user=user)
    assert "READ-ONLY" in result.stdout and "read-only:" in result.stdout, result.stdout
    assert f"{sum(len(r) for r in original.values())} events" in result.stdout
    assert "Resumed game #" in result.stdout
    assert sorted(p.name for p in open_data_dir.iterdir()) == before, "something was moved or created"
    os.chmod(open_data_dir, 0o755)
    assert _rows(path) == original


def test_a_read_only_journal_refuses_moves_with_the_reason(tmp_path, player_module):
    """In-process: a journal that cannot be written (here a damaged one in a folder where the rebuilt file
    cannot be made) is opened read-only in memory; a move is refused with the reason, nothing changes."""
    path = tmp_path / "journal.sqlite3"
    _play(path, 30, player_module)
    original = _rows(path)
    blocker = tmp_path / "journal.sqlite3.recovering"
    blocker.mkdir()  # the rebuilt journal cannot be created: a folder is in its way
    data = bytes(100) + path.read_bytes()[100:]
    path.write_bytes(data)
    journal, recovery = open_journal(path)
    try:
        assert recovery.read_only and journal.read_only
        assert path.read_bytes() == data and not _damaged(tmp_path), "nothing is moved when nothing can be built"
        assert {g.id: g.events for g in journal.games()} == {g: len(r) for g, r in original.items()}
        table = Table(journal)
        table.claim()
        assert table.resume_latest().accepted
        before = table.state
        outcome = table.execute(PassOnTheAir(network="ABS"))
        assert not outcome.accepted and "cannot be written" in outcome.message
        assert table.state == before
        assert "READ-ONLY" in recovery.message()
    finally:
        journal.close()
        blocker.rmdir()


def _small_file_system(folder: Path, size_kb: int):
    if os.geteuid() != 0:
        pytest.skip("mounting a small file system needs root")
    folder.mkdir(parents=True, exist_ok=True)
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size_kb}k", "tmpfs", str(folder)], capture_output=True, text=True
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")


def test_a_full_disk_at_start_up_opens_the_games_read_only(tmp_path, player_module):
    """A damaged journal on a full card: no rebuilt journal can be written, so the games open read-only
    (from the backups) and the kiosk stays up; the damaged file stays where it was."""
    data_dir = tmp_path / "card"
    _small_file_system(data_dir, 1024)
    try:
        path = data_dir / "journal.sqlite3"
        _play(path, 60, player_module)
        original = _rows(path)
        data = bytes(100) + path.read_bytes()[100:]
        path.write_bytes(data)
        filler = data_dir / "filler"
        fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
        try:
            while os.write(fd, bytes(4096)):
                pass
        except OSError:
            pass  # the card is full
        finally:
            os.close(fd)
        result = _headless(data_dir)
        assert "READ-ONLY" in result.stdout
        assert "No space left" in result.stdout or "full" in result.stdout, result.stdout
        assert path.read_bytes() == data
        assert f"recovered {sum(len(r) for r in original.values())} events" in result.stdout
        filler.unlink()
    finally:
        subprocess.run(["umount", str(data_dir)], check=False)


def _fill(folder: Path, leave: int = 0) -> Path:
    """Write a filler file into ``folder`` until its file system has no more than ``leave`` bytes free."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        while (room := shutil.disk_usage(folder).free - leave) > 0:
            os.write(fd, bytes(min(room, 64 * 1024)))
    except OSError:
        pass  # the file system is full
    finally:
        os.close(fd)
    return filler


def test_a_nearly_full_disk_is_said_at_start_up_before_a_move_is_refused(tmp_path, player_module):
    """A sound journal on a card with little room left: moves still count, but start-up says how little is free
    (headless beside "writable", the kiosk in its message bar), so the table does not learn it from a refused
    move; once the card is full it says that moves are refused until space is freed."""
    data_dir = tmp_path / "card"
    _small_file_system(data_dir, 3072)
    try:
        path = data_dir / "journal.sqlite3"
        _play(path, 30, player_module)
        filler = _fill(data_dir, leave=1024 * 1024)
        result = _headless(data_dir)
        assert result.returncode == 0, result.stderr
        line = next(line for line in result.stdout.splitlines() if line.startswith("Journal "))
        assert re.search(
            r"\(writable, but the disk is nearly full: [\d.]+ [KM]B free of the [\d.]+ MB the journal and its ", line
        )
        assert f"moves are refused once it is full (the journal is in {data_dir})): 4 games" in line, line
        table = Table(Journal(path), backup_every=None)
        table.claim()
        try:
            assert table.resume_latest().accepted
            assert table.execute(PassOnTheAir(network="ABS")).accepted, "nearly full is not full: the move counts"
        finally:
            table.journal.close()
        # the kiosk: the same words, a sentence, in the message bar of its first screen
        shown = run_driver("drive_notice.py", data_dir, tmp_path / "out")["steps"][-1]
        assert shown["message"].startswith("The disk is nearly full: ") and shown["refused"]
        assert shown["message"].endswith(f"once it is full (the journal is in {data_dir}).")
        keep_artifacts(tmp_path / "out", "notice-dashboard.png")
        filler.unlink()
        _fill(data_dir)
        result = _headless(data_dir)
        assert (
            "(writable, but the disk is full (0 KB free): moves may be refused until space is freed" in result.stdout
        ), result.stdout
    finally:
        subprocess.run(["umount", str(data_dir)], check=False)


def test_the_room_a_wal_already_takes_is_not_wanted_twice(tmp_path, player_module):
    """An open journal's ``-wal`` is on the disk already and is written over after each checkpoint, so the room
    still wanted is the journal's size plus ``ROOM_WANTED_BYTES`` less the ``-wal``'s size: with free space just
    above that there is no warning (counting the ``-wal`` twice warned here), just below it there is."""
    data_dir = tmp_path / "card"
    _small_file_system(data_dir, 8192)
    try:
        path = data_dir / "journal.sqlite3"
        _play(path, 30, player_module, backup_every=None)
        table = Table(Journal(path), backup_every=None)
        table.claim()
        try:
            assert table.resume_latest().accepted
            for _ in range(60):  # the -wal grows with each move until SQLite's automatic checkpoint
                assert table.execute(PassOnTheAir(network="ABS")).accepted
            wal = Path(str(path) + "-wal").stat().st_size
            assert 256 * 1024 < wal < ROOM_WANTED_BYTES, wal
            wanted = path.stat().st_size + ROOM_WANTED_BYTES - wal
            filler = _fill(data_dir, leave=wanted + 64 * 1024)
            assert wanted < shutil.disk_usage(data_dir).free < wanted + wal  # the old sum warned here
            assert table.journal.space_problem() is None
            filler.unlink()
            _fill(data_dir, leave=wanted - 64 * 1024)
            problem = table.journal.space_problem()
            assert problem is not None and problem.startswith("the disk is nearly full: "), problem
        finally:
            table.journal.close()
    finally:
        subprocess.run(["umount", str(data_dir)], check=False)


def test_a_disk_with_room_says_nothing_of_space(tmp_path):
    """The usual case: no word about space (``space_problem`` is ``None``), headless says plain "writable"."""
    path = tmp_path / "journal.sqlite3"
    with Journal(path) as journal:
        assert journal.space_problem() is None
    with Journal(path, read_only=True) as journal:
        assert journal.space_problem() is None  # nothing is written to a read-only journal
    result = _headless(tmp_path)
    assert f"Journal {path} (writable): 0 games" in result.stdout, result.stdout


# -- kills during backups ---------------------------------------------------------------------------------
BACKER = r"""
import sys
sys.path.insert(0, sys.argv[3])
from tests_player import play
from companion.games.tv_wars import PassOnTheAir
from companion.journal import Journal
from companion.table import Table
import companion.backups as backups
backups.MIN_PARTS_BYTES = 4096          # new generations and merges often, so kills land in them too
backups.MERGE_FAN_IN = 4
table = Table(Journal(sys.argv[1]), backup_every=None)
table.claim()
play(table, 1, first=not table.journal.games())
print("ready", flush=True)
while True:
    assert table.execute(PassOnTheAir(network="ABS")).accepted
    print("backup", flush=True)
    table.journal.take_backup()
    print("done", flush=True)
"""


def test_kills_during_backups_leave_only_whole_backup_files(tmp_path, player_module):
    """SIGKILL a process that does little but back up (parts, merges, new generations) at random moments:
    after each kill, start-up removes every half-written file, every backup file left is whole, and the
    backups never hold more than the journal (or anything it does not)."""
    path = tmp_path / "journal.sqlite3"
    folder = tmp_path / "backups"
    rng = random.Random(44)
    leftovers_seen = during_backup = 0
    for kill in range(30):
        child = subprocess.Popen(
            [sys.executable, "-c", BACKER, str(path), "x", str(player_module)],
            cwd=str(REPO),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            line = child.stdout.readline()
            assert line.strip() == "ready", (line, child.stderr.read() if child.poll() is not None else "")
            time.sleep(rng.uniform(0.0, 0.4))
            child.send_signal(signal.SIGKILL)
            out, err = child.communicate(timeout=30)
            assert child.returncode == -signal.SIGKILL, err
            during_backup += out.split()[-1:] == ["backup"]
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()
            child.stdout.close()
            child.stderr.close()
        leftovers_seen += sum(1 for p in folder.glob("*.tmp"))
        journal, recovery = open_journal(path)
        try:
            assert recovery is None, recovery.message()
            assert not list(folder.glob("*.tmp")), "start-up left half-written backup files"
            rows = {row[0]: row for rows in _rows(path).values() for row in rows}
            for generation in generations(folder):
                assert not generation.stray, f"a delta part is missing in {generation.name}"
                db = sqlite3.connect(f"file:{generation.base}?mode=ro&immutable=1", uri=True)
                try:
                    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
                    base_rows = db.execute(f"SELECT {EVENT_COLUMNS} FROM events").fetchall()
                finally:
                    db.close()
                for row in base_rows:
                    assert rows[row[0]] == tuple(row), "a backup holds an event the journal does not"
                for part in generation.parts:
                    content = read_part(part.path)
                    assert content is not None and content.complete, f"{part.path.name} is not whole"
                    for row in content.events:
                        assert rows[row[0]] == tuple(row)
        finally:
            journal.close()
    assert generations(folder), "no backup was ever written"
    assert during_backup >= 5, f"only {during_backup} of 30 kills landed during a backup: the test proves little"
    assert len(list(folder.iterdir())) < 80, "backup files pile up"
    print(f"{during_backup} of 30 kills during a backup; half-written files removed at start-up: {leftovers_seen}")
