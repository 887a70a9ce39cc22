"""The journal survives ``kill -9`` at any moment, and start-up recovers damaged files without losing them.

DESIGN.md, "The journal": every accepted command is on disk before any display shows it; pulling the plug
returns the table to exactly where it was; a damaged file is moved aside, never deleted.
"""

from __future__ import annotations

import json
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.errors import JournalError
from companion.events import NewEvent
from companion.journal import Journal, Recovery, open_journal
from companion.words import count

PLAYERS = [{"name": "ABS", "colour": "#e53935"}, {"name": "CBA", "colour": "#1e88e5"}]

#: The child: open the journal, create a game, append forever; print each committed seq, flushed.
WRITER = r"""
import sys
from companion.events import NewEvent
from companion.journal import Journal

journal = Journal(sys.argv[1])
game = journal.create_game("tv-wars", [{"name": "ABS", "colour": "#e53935"}, {"name": "CBA", "colour": "#1e88e5"}], {})
print("game", game.game_id, game.seq, flush=True)
n = 0
while True:
    n += 1
    events = [NewEvent("money_moved", {"payer": "bank", "payee": "ABS", "amount": 500, "reason": f"crash test {n}",
                                       "rule": "", "n": n, "pad": "x" * (n % 700)})]
    if n % 5 == 0:   # sometimes a two-event move
        events.append(NewEvent("money_moved", {"payer": "ABS", "payee": "bank", "amount": 500,
                                               "reason": f"crash test {n} back", "rule": "", "n": n}))
    records = journal.append(game.game_id, events)
    print("seq", " ".join(str(r.seq) for r in records), n, flush=True)
"""


def _integrity(path: Path) -> str:
    connection = sqlite3.connect(str(path))
    try:
        return connection.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        connection.close()


def _rows(path: Path) -> dict[int, tuple]:
    connection = sqlite3.connect(str(path))
    try:
        return {r[0]: r[1:] for r in connection.execute("SELECT seq, game_id, move, type, payload FROM events")}
    finally:
        connection.close()


def test_sigkill_at_random_moments_never_loses_a_committed_event(tmp_path):
    """25 times: start a writer on the same file, SIGKILL it at a random moment, then check the file is
    intact and every seq the writer reported as committed is in the events table with its payload."""
    script = tmp_path / "writer.py"
    script.write_text(WRITER)
    path = tmp_path / "journal.sqlite3"
    rng = random.Random(20240229)
    reported: dict[int, int] = {}  # seq -> n of the append that committed it
    games: set[int] = set()
    kills_during_appends = 0
    for attempt in range(25):
        child = subprocess.Popen(
            [sys.executable, str(script), str(path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        try:
            if attempt % 6 == 5:
                # now and then, kill it while it is still starting up / opening the file
                time.sleep(rng.uniform(0.0, 0.15))
            else:
                first = child.stdout.readline()
                assert first.startswith("game "), (first, child.stderr.read() if child.poll() is not None else "")
                time.sleep(rng.uniform(0.0, 0.08))
            child.send_signal(signal.SIGKILL)
            out, err = child.communicate(timeout=30)
            if attempt % 6 != 5:
                out = first + out
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()
        assert child.returncode == -signal.SIGKILL, (child.returncode, err)
        # only whole lines: a kill can cut the writer's last report short ("seq 797 798" of "seq 797 798 45"),
        # and a cut report claims nothing (it once read as "seq 797 holds n=798")
        lines = [line for line in out.split("\n")[:-1] if line]
        if lines and lines[-1].startswith("seq") and len(lines) > 1:
            kills_during_appends += 1
        for line in lines:
            parts = line.split()
            if parts[0] == "game":
                games.add(int(parts[1]))
            else:
                assert parts[0] == "seq", line
                for seq in parts[1:-1]:
                    reported[int(seq)] = int(parts[-1])

        assert _integrity(path) == "ok"
        rows = _rows(path)
        missing = sorted(set(reported) - set(rows))
        assert not missing, f"after kill {attempt + 1}: committed seqs missing from the journal: {missing[:10]}"
        for seq, n in reported.items():
            found = json.loads(rows[seq][3])["n"]
            assert found == n, (
                f"after kill {attempt + 1}: seq {seq} was reported committed with n={n} but holds "
                f"n={found}; this writer's lines: {lines[:3]} ... {lines[-3:]}"
            )
        # one transaction per append: the table never has holes or half-written moves
        assert sorted(rows) == list(range(1, len(rows) + 1))
        by_move: dict[int, list[int]] = {}
        for seq, (_, move, _, payload) in rows.items():
            by_move.setdefault(move, []).append(json.loads(payload).get("n", 0))
        for move, ns in by_move.items():
            # a move of n % 5 == 0 has both events, any other exactly one
            if ns != [0]:
                assert len(ns) == (2 if ns[0] % 5 == 0 else 1), (move, ns)

    assert len(reported) > 100, "the writers hardly wrote anything; the test did not exercise the journal"
    assert kills_during_appends >= 10
    # and the file still opens as a journal, listing every game the writers started
    with Journal(path) as journal:
        assert journal.integrity_problem() is None
        assert games <= {game.id for game in journal.games()}


def _make_journal(path: Path, games: int = 2, events: int = 300) -> dict[int, tuple]:
    """A real journal with ``games`` games of ``events`` padded money events each; return its rows."""
    with Journal(path) as journal:
        for g in range(games):
            game = journal.create_game("tv-wars", PLAYERS, {"starting_cash": 31000 + g})
            for i in range(events):
                journal.append(
                    game.game_id,
                    [
                        NewEvent(
                            "money_moved",
                            {
                                "payer": "bank",
                                "payee": "ABS",
                                "amount": 500,
                                "reason": f"g{g} event {i}",
                                "rule": "",
                                "pad": "p" * 150,
                            },
                        )
                    ],
                )
    return _rows(path)


def _damaged_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if ".damaged-" in p.name and not p.name.endswith(("-wal", "-shm")))


def test_garbage_file_is_moved_aside_never_deleted(tmp_path):
    path = tmp_path / "journal.sqlite3"
    garbage = bytes(random.Random(7).randrange(256) for _ in range(10_000))
    path.write_bytes(garbage)
    journal, recovery = open_journal(path)
    try:
        assert isinstance(recovery, Recovery)
        damaged = _damaged_files(tmp_path)
        assert damaged == [recovery.moved_to]
        assert recovery.moved_to.name.startswith("journal.sqlite3.damaged-")
        assert recovery.moved_to.read_bytes() == garbage, "the damaged file must be kept as it was"
        assert (recovery.games_recovered, recovery.events_recovered) == (0, 0)
        message = recovery.message()
        assert str(recovery.moved_to) in message
        assert "recovered 0 events of 0 games" in message
        assert recovery.problem and recovery.problem in message
        # the fresh journal works
        assert journal.integrity_problem() is None
        assert journal.games() == []
        game = journal.create_game("tv-wars", PLAYERS, {})
        assert journal.events(game.game_id)[0].seq == game.seq
    finally:
        journal.close()


def test_damaged_files_from_two_recoveries_are_both_kept(tmp_path):
    """Two recoveries in quick succession (same second) must not overwrite the first damaged file."""
    path = tmp_path / "journal.sqlite3"
    contents = []
    for n in range(3):
        contents.append(f"damaged journal number {n}".encode() * 300)
        path.write_bytes(contents[-1])
        journal, recovery = open_journal(path)
        journal.close()
        assert recovery is not None
        assert recovery.moved_to.read_bytes() == contents[-1]
    kept = sorted(p.read_bytes() for p in _damaged_files(tmp_path))
    assert kept == sorted(contents), "an earlier damaged journal was deleted by a later recovery"


def test_truncated_journal_recovers_what_is_readable(tmp_path):
    """A journal cut off in the middle (disk full, interrupted copy): moved aside, and the game and the
    events on the surviving pages are copied into a fresh journal; the Recovery says how many."""
    path = tmp_path / "journal.sqlite3"
    original = _make_journal(path, games=1, events=400)
    data = path.read_bytes()
    assert len(data) > 20 * 4096
    cut = data[: len(data) // 2]
    path.write_bytes(cut)

    journal, recovery = open_journal(path)
    try:
        assert recovery is not None
        assert recovery.moved_to.read_bytes() == cut
        assert recovery.games_recovered == 1, recovery
        assert 0 < recovery.events_recovered < len(original), recovery
        assert f"recovered {count(recovery.events_recovered, 'event')} of 1 game:" in recovery.message()
        events = journal.events(1)
        assert len(events) == recovery.events_recovered
        for event in events:
            assert original[event.seq][3] == json.dumps(dict(event.payload), sort_keys=True)
        assert journal.integrity_problem() is None
    finally:
        journal.close()
    assert _integrity(path) == "ok"


def test_corrupted_pages_recovery_reports_counts_and_new_journal_is_sound(tmp_path):
    path = tmp_path / "journal.sqlite3"
    original = _make_journal(path, games=3, events=200)
    data = bytearray(path.read_bytes())
    page_size = int.from_bytes(data[16:18], "big")
    pages = len(data) // page_size
    assert pages > 30
    rng = random.Random(3)
    for page in (pages // 2, pages // 2 + 1, (3 * pages) // 4):  # b-tree pages well past the schema
        offset = page * page_size
        data[offset : offset + 64] = bytes(rng.randrange(256) for _ in range(64))
    path.write_bytes(bytes(data))
    assert not _sound(path), "the corruption did not damage the file; the test would prove nothing"

    journal, recovery = open_journal(path)
    try:
        assert recovery is not None, "a journal with corrupted pages was accepted as sound"
        assert _damaged_files(tmp_path) == [recovery.moved_to]
        assert recovery.moved_to.read_bytes() == bytes(data)
        games = journal.games()
        events = [e for g in games for e in journal.events(g.id)]
        assert recovery.games_recovered == len(games) == 3
        assert recovery.events_recovered == len(events)
        assert 0 < recovery.events_recovered < len(original)
        message = recovery.message()
        assert f"recovered {len(events)} events of 3 games" in message
        for event in events:  # what was copied is exactly what had been written
            game_id, move, kind, payload = original[event.seq]
            assert (event.game_id, event.move, event.type) == (game_id, move, kind)
            assert json.dumps(dict(event.payload), sort_keys=True) == payload
        assert journal.integrity_problem() is None
        # the recovered journal is a working journal, readable by another connection (another process)
        game = journal.create_game("tv-wars", PLAYERS, {})
        record = journal.append(game.game_id, [NewEvent("money_moved", {"reason": "after recovery"})])[0]
        assert record.seq > max(e.seq for e in events)
        assert record.seq in _rows(path)
    finally:
        journal.close()
    assert _integrity(path) == "ok"


def _sound(path: Path) -> bool:
    """Whether integrity_check passes (a badly damaged file raises instead of answering)."""
    try:
        return _integrity(path) == "ok"
    except sqlite3.DatabaseError:
        return False


def test_sound_journal_is_opened_as_is(tmp_path):
    path = tmp_path / "journal.sqlite3"
    original = _make_journal(path, games=1, events=5)
    journal, recovery = open_journal(path)
    try:
        assert recovery is None
        assert not _damaged_files(tmp_path)
        assert [e.seq for e in journal.events(1)] == sorted(original)
    finally:
        journal.close()


def test_journal_from_a_newer_companion_is_refused(tmp_path):
    path = tmp_path / "journal.sqlite3"
    _make_journal(path, games=1, events=1)
    connection = sqlite3.connect(str(path))
    connection.execute("PRAGMA user_version = 99")
    connection.close()
    with pytest.raises(JournalError, match="newer"):
        Journal(path)


def _played_tables_journal(path: Path, games: int = 4, moves: int = 40) -> None:
    """A journal written through the real Table: several TV Wars games with money moves and undos."""
    from companion.commands import NewGame, PlayerSeat, Undo
    from companion.games.tv_wars import PassOnTheAir
    from companion.table import Table

    table = Table(Journal(path))
    table.claim()
    for game in range(games):
        table.execute(
            NewGame(game="tv-wars", players=(PlayerSeat("ABS"), PlayerSeat("CBA")), options={"roll_off": False})
        )
        for move in range(moves):
            table.execute(Undo() if move % 9 == 8 else PassOnTheAir(network="ABS" if move % 2 else "CBA"))
    table.journal.close()


def test_garbage_in_the_middle_of_a_played_journal_recovers_replayable_games(tmp_path):
    """Random bytes over a stretch of pages: the readable rows on both sides of the damage are recovered,
    and every recovered game opens on a fresh table (the longest replayable history is kept)."""
    from companion.commands import OpenGame
    from companion.table import Table

    path = tmp_path / "journal.sqlite3"
    _played_tables_journal(path)
    total_events = _rows(path)
    data = bytearray(path.read_bytes())
    rng = random.Random(11)
    data[20000:23000] = bytes(rng.randrange(256) for _ in range(3000))
    path.write_bytes(bytes(data))
    assert not _sound(path)

    journal, recovery = open_journal(path)
    assert recovery is not None and recovery.games_recovered >= 1
    assert journal.integrity_problem() is None
    for game in journal.games():  # each recovered game is an exact prefix of what was written
        written = [seq for seq, row in sorted(total_events.items()) if row[0] == game.id]
        recovered = [event.seq for event in journal.events(game.id)]
        assert recovered == written[: len(recovered)] and recovered, game.id
    untouched = [g for g in journal.games() if len(journal.events(g.id)) == 1 + 40]
    assert untouched, "the games after the damaged pages should come back whole"
    assert recovery.events_recovered == sum(len(journal.events(g.id)) for g in journal.games())
    table = Table(journal)
    table.claim()
    for game in journal.games():
        outcome = table.execute(OpenGame(game_id=game.id))
        assert outcome.accepted, outcome.message
        assert table.state.balances["ABS"] >= 31000
    journal.close()


def test_a_full_disk_refuses_the_move_with_the_real_cause_and_changes_nothing(tmp_path):
    """SQLITE_FULL (a full SD card) is reported as such; the state and the journal stay as they were."""
    from companion.commands import NewGame, PlayerSeat
    from companion.games.tv_wars import PassOnTheAir
    from companion.table import Table

    table = Table(Journal(tmp_path / "journal.sqlite3"))
    table.claim()
    table.execute(NewGame(game="tv-wars", players=(PlayerSeat("ABS"), PlayerSeat("CBA")), options={"roll_off": False}))
    db = table.journal._db
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.execute(f"PRAGMA max_page_count = {pages}")
    before = table.state
    outcomes = [table.execute(PassOnTheAir(network="ABS")) for _ in range(200)]
    refused = [o for o in outcomes if not o.accepted]
    assert refused, "the journal never filled up; the test proves nothing"
    assert "full" in refused[0].message and "rollback" not in refused[0].message.lower()
    accepted = len(outcomes) - len(refused)
    assert table.state.balances["ABS"] == before.balances["ABS"] + 3000 * accepted
    db.execute("PRAGMA max_page_count = 1073741823")
    assert table.execute(PassOnTheAir(network="ABS")).accepted
    assert len(table.journal.events(1)) == 1 + accepted + 1


def test_backups_at_safe_points_are_incremental_and_restore_a_damaged_journal(tmp_path, caplog):
    """Backups are asked for at safe points (TV Wars 2.5's roll-off result, every N moves) and written by the
    journal's background thread, never the table's: a base copy, then delta parts holding only the events
    since. A journal damaged beyond its readable part is restored from them, saying so."""
    import logging
    import threading

    from companion.backups import generations, read_part
    from companion.commands import AnswerDice, NewGame, PlayerSeat
    from companion.games.tv_wars import PassOnTheAir
    from companion.table import Table

    caplog.set_level(logging.INFO, logger="companion.backups")
    path = tmp_path / "journal.sqlite3"
    folder = tmp_path / "backups"
    table = Table(Journal(path), backup_every=10)
    table.claim()
    table.execute(NewGame(game="tv-wars", players=(PlayerSeat("ABS"), PlayerSeat("CBA"))))
    table.execute(AnswerDice(roller="ABS", values=(6, 6)))
    table.execute(AnswerDice(roller="CBA", values=(1, 1)))  # Best Network News awarded: a safe point
    assert table.journal.wait_for_backups(30)
    (generation,) = generations(folder)
    assert generation.base_seq == len(table.journal.events(1)) and not generation.parts
    for _ in range(75):
        table.execute(PassOnTheAir(network="ABS"))
    assert table.journal.wait_for_backups(30)
    (generation,) = generations(folder)
    assert len(generation.parts) == 7  # one per 10 moves, nothing copied twice
    seqs = [row[0] for part in generation.parts for row in read_part(part.path).events]
    assert seqs == list(range(generation.base_seq + 1, seqs[-1] + 1))
    # the last backup was asked for at the 70th move, 5 moves back; the backup thread writes what the
    # journal holds when it runs, so it may hold a few moves more (never fewer, never more than there are)
    assert len(table.journal.events(1)) - 5 <= seqs[-1] <= len(table.journal.events(1))
    written_by = {r.threadName for r in caplog.records if "backed up to" in r.getMessage()}
    assert written_by == {"journal-backup"} and threading.current_thread().name not in written_by
    table.journal.close()

    path.write_bytes(path.read_bytes()[:4096] + bytes(8192))  # the journal's pages are gone
    journal, recovery = open_journal(path)
    assert recovery.backup == generation.base
    assert "from the backup gen-000001" in recovery.message() and "as it was at" in recovery.message()
    assert len(journal.events(1)) == seqs[-1]
    assert journal.integrity_problem() is None
    journal.close()
