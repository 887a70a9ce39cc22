"""Start-up from stored states (companion/snapshots.py, the journal's ``snapshots`` table, GameSession.open).

* Every state of random games of each of the four games encodes and decodes to exactly the same value (equal,
  and encoding again gives the same bytes, so fields left out of ``==`` survive too).
* The property: a game opened from its stored states (the skeleton of its history, the nearest stored state and
  the moves after it) is the session a full replay of its journal gives — state, line, redo stack, every
  history entry, every move's records, the line after each entry, the state after every prefix of the line,
  every jump, undo and redo it would plan — for random games of each game with undos, redos and jumps, stored
  every 1, 2, 3 or 5 moves; and it stays so while the reopened table plays on, and when it is opened again.
* A stored row that is damaged, stale (its seq, depth or time do not match the events), of another format, or
  decodes to something else is ignored, and the game opens as the full replay says; with no usable row at all
  it is folded from the start.
* A journal of an earlier version (no ``snapshots`` table) opens, replays alike and gets the table; read-only,
  it opens without it.
* States are encoded on the snapshot thread, never on the table's.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import zlib
from dataclasses import dataclass, field

import pytest
import random_games
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from test_backups import OLD_SCHEMA, _old_journal, _rows

import companion.session as session_module
import companion.snapshots as snapshots
from companion.commands import NewGame, OpenGame, PlayerSeat
from companion.errors import NothingToRedo, NothingToUndo
from companion.games.tv_wars import PassOnTheAir
from companion.journal import Journal
from companion.session import GameSession
from companion.snapshots import SnapshotError, decode_state, encode_state, format_key
from companion.table import Table


@contextlib.contextmanager
def stored_every(snapshot: int, checkpoint: int = 64, recent: int = 256):
    """Sessions made inside store a state every ``snapshot`` moves and keep one every ``checkpoint``."""
    saved = session_module.SNAPSHOT_EVERY, session_module.CHECKPOINT_EVERY, session_module.RECENT_STATES
    session_module.SNAPSHOT_EVERY, session_module.CHECKPOINT_EVERY, session_module.RECENT_STATES = (
        snapshot,
        checkpoint,
        recent,
    )
    try:
        yield
    finally:
        session_module.SNAPSHOT_EVERY, session_module.CHECKPOINT_EVERY, session_module.RECENT_STATES = saved


def assert_same_session(opened: GameSession, full: GameSession) -> None:
    """``opened`` is ``full`` as every screen and command sees it."""
    assert opened.state == full.state
    assert encode_state(opened.state) == encode_state(full.state)
    assert opened.line == full.line
    assert opened.redo_stack == full.redo_stack
    assert opened.entry_count == full.entry_count
    assert opened.history() == full.history()
    assert opened.entries == full.entries
    assert dict(opened.moves) == dict(full.moves)
    for entry in full.history():
        assert opened.line_after(entry.seq) == full.line_after(entry.seq), f"the line after #{entry.seq}"
        try:
            plan = full.plan_jump(entry.seq)
        except NothingToUndo:
            with pytest.raises(NothingToUndo):
                opened.plan_jump(entry.seq)
        else:
            assert opened.plan_jump(entry.seq) == plan, f"the jump to #{entry.seq}"
            keep, append = plan.payload["keep"], plan.payload["append"]
            assert opened.preview_restore(keep, append) == full.preview_restore(keep, append)
    for keep in range(len(full.line) + 1):
        assert opened.preview_restore(keep, []) == full.preview_restore(keep, []), f"the state after {keep} moves"
    for steps in (1, 2, 3):
        try:
            plan = full.plan_undo(steps)
        except NothingToUndo:
            with pytest.raises(NothingToUndo):
                opened.plan_undo(steps)
        else:
            assert opened.plan_undo(steps) == plan
    try:
        plan = full.plan_redo()
    except NothingToRedo:
        with pytest.raises(NothingToRedo):
            opened.plan_redo()
    else:
        assert opened.plan_redo() == plan
    assert (opened.undo_hint(), opened.redo_hint(), opened.undo_preview(3), opened.redo_preview()) == (
        full.undo_hint(),
        full.redo_hint(),
        full.undo_preview(3),
        full.redo_preview(),
    )


def _opened(path, game_id) -> tuple[Journal, GameSession, GameSession]:
    journal = Journal(path)
    return journal, GameSession.open(journal, game_id), GameSession(game_id, journal.events(game_id))


# -- the codec ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("game", random_games.GAMES)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_every_state_of_random_games_encodes_and_decodes_to_the_same_value(table_factory, data, game):
    table = table_factory(seed=3)
    try:
        random_games.start(game, table, data)
        states = [table.state]
        for _ in range(data.draw(st.integers(1, 60), label="steps")):
            if table.execute(random_games.command(game, table, data, history=False)).accepted:
                states.append(table.state)
        for state in states:
            stored = encode_state(state)
            again = decode_state(stored)
            assert type(again) is type(state) and again == state
            assert encode_state(again) == stored  # fields left out of == (Telly Time's options) too
    finally:
        table.journal.close()


@dataclass(frozen=True)
class _Inner:
    values: tuple
    table: dict = field(default_factory=dict)


@dataclass(frozen=True)
class _Outer:
    inner: _Inner
    items: list
    tags: frozenset
    seen: set
    odds: object
    nothing: None = None


def test_the_codec_keeps_every_container_and_refuses_what_it_does_not_store():
    from fractions import Fraction

    value = _Outer(
        _Inner((1, "a", (True, None), 2.5, -0.0), {3: "x", ("k", 1): [1, 2]}),
        [1, (2,)],
        frozenset({1, 2}),
        {"s"},
        Fraction(7, 3),
    )
    again = decode_state(encode_state(value), packages=("companion", __name__))
    assert again == value and type(again.items) is list and type(again.inner.values[2]) is tuple
    assert list(again.inner.table) == [3, ("k", 1)] and again.odds == Fraction(7, 3)
    with pytest.raises(SnapshotError, match="bytes"):
        encode_state(_Inner((b"bytes",)))
    with pytest.raises(SnapshotError, match="does not decode"):
        decode_state(b"not zlib at all")
    with pytest.raises(SnapshotError, match="companion's own classes"):
        decode_state(zlib.compress(b'{"v":1,"types":[["os:system",[]]],"s":{"0":[]}}'))
    with pytest.raises(SnapshotError, match="no class"):
        decode_state(zlib.compress(b'{"v":1,"types":[["companion.snapshots:Nothing",[]]],"s":{"0":[]}}'))
    with pytest.raises(SnapshotError, match="now has the fields"):
        decode_state(zlib.compress(b'{"v":1,"types":[["companion.tracks:Track",["name"]]],"s":{"0":["x"]}}'))
    with pytest.raises(SnapshotError, match="codec version"):
        decode_state(zlib.compress(b'{"v":99,"types":[],"s":1}'))
    with pytest.raises(SnapshotError):  # a field value the class refuses
        decode_state(
            zlib.compress(
                b'{"v":1,"types":[["companion.games.tv_wars.ratings_war:Program",'
                b'["length","colour","rating","name","special","academy_award_movie",'
                b'"super_bowl"]]],"s":{"0":[9,"red",1,"",false,false,false]}}'
            )
        )


def test_the_format_key_names_the_game_its_state_classes_and_its_state_version():
    from companion.games import find_game

    tv_wars, channel_won = find_game("tv-wars"), find_game("channel-won")
    players = (PlayerSeat("ABS"), PlayerSeat("CBA"))
    key = format_key(tv_wars, tv_wars.new_game(players, {}))
    assert key == format_key(tv_wars, tv_wars.new_game(players, {"roll_off": False}))
    assert key != format_key(channel_won, channel_won.new_game(players, {}))

    class Bumped:
        name, state_version = "tv-wars-bumped", 2

    assert format_key(Bumped(), tv_wars.new_game(players, {})) != key


def test_the_format_key_follows_the_game_code_not_only_its_version(tmp_path, monkeypatch):
    """A game whose code changes (an ``evolve`` fixed, the version not bumped) gets another key, so states
    the old code stored are rebuilt by a replay instead of trusted."""
    import importlib

    import companion.snapshots as snapshots

    package = tmp_path / "fake_game_for_keys"
    package.mkdir()
    (package / "__init__.py").write_text("from fake_game_for_keys.rules import Rules\n")
    (package / "rules.py").write_text(
        "class Rules:\n    name = 'fake-game'\n\n    def evolve(self, s, t, p):\n        return s + 1\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    rules = importlib.import_module("fake_game_for_keys").Rules()
    state = (1, 2)
    before = snapshots.format_key(rules, state)
    assert snapshots.source_digest(rules) == snapshots.source_digest(rules)
    (package / "rules.py").write_text(
        "class Rules:\n    name = 'fake-game'\n\n    def evolve(self, s, t, p):\n        return s + 2\n"
    )
    monkeypatch.setattr(snapshots, "_KEYS", {})  # a new process: keys are computed once per process
    assert snapshots.format_key(rules, state) != before


# -- the property -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("game", random_games.GAMES)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(
    data=st.data(),
    every=st.sampled_from([1, 2, 3, 5]),
    checkpoint=st.sampled_from([1, 3, 64]),
    recent=st.sampled_from([1, 256]),
)
def test_a_game_opened_from_its_stored_states_is_its_full_replay(table_factory, data, game, every, checkpoint, recent):
    with stored_every(every, checkpoint, recent):
        table = table_factory(seed=11)
        game_id = random_games.start(game, table, data)
        for _ in range(data.draw(st.integers(20, 80), label="moves")):
            table.execute(random_games.command(game, table, data))
        path, moves = table.journal.path, len(table.session.line)
        table.journal.close()
        event(f"{game}: {min(moves, 20) // 5 * 5}+ moves in force")

        journal, opened, full = _opened(path, game_id)
        try:
            if moves >= every:  # a stored state on the line: the skeleton was used
                assert opened.opened_from is not None
                assert opened.opened_from in opened.line
            assert_same_session(opened, full)
        finally:
            journal.close()

        reopened = Table(Journal(path))  # the table plays on from the stored states
        reopened.claim()
        try:
            assert reopened.execute(OpenGame(game_id=game_id)).accepted
            for _ in range(data.draw(st.integers(0, 12), label="more moves")):
                reopened.execute(random_games.command(game, reopened, data))
                assert_same_session(reopened.session, GameSession(game_id, reopened.journal.events(game_id)))
        finally:
            reopened.journal.close()

        journal, opened, full = _opened(path, game_id)
        try:
            assert_same_session(opened, full)
        finally:
            journal.close()


# -- rows that must not be trusted -----------------------------------------------------------------------------
def _played(path, moves: int = 40, every: int = 4) -> tuple[int, list[tuple]]:
    """A 2-network TV Wars game of ``moves`` moves (some undone and redone) storing a state every ``every``;
    returns its id and its stored rows ``(move, seq, depth, time)``, oldest first."""
    with stored_every(every):
        table = Table(Journal(path), backup_every=None)
        table.claim()
        outcome = table.execute(
            NewGame(game="tv-wars", players=(PlayerSeat("ABS"), PlayerSeat("CBA")), options={"roll_off": False})
        )
        game_id = outcome.records[0].game_id
        for n in range(moves):
            assert table.execute(PassOnTheAir(network=("ABS", "CBA")[n % 2])).accepted
        table.journal.close()
    db = sqlite3.connect(str(path))
    try:
        rows = db.execute("SELECT move, seq, depth, time FROM snapshots ORDER BY move").fetchall()
    finally:
        db.close()
    assert len(rows) == moves // every
    return game_id, rows


def _change(path, sql: str, *args) -> None:
    db = sqlite3.connect(str(path))
    try:
        db.execute(sql, args)
        db.commit()
    finally:
        db.close()


DAMAGE = {
    "bytes changed (CRC)": "UPDATE snapshots SET state = CAST(zeroblob(40) AS BLOB) WHERE move = ?",
    "bytes and CRC changed": "",  # a valid zlib stream and its CRC, but not a state: see below
    "seq of another event": "UPDATE snapshots SET seq = seq - 1 WHERE move = ?",
    "depth changed": "UPDATE snapshots SET depth = depth + 1 WHERE move = ?",
    "time changed": "UPDATE snapshots SET time = time + 1 WHERE move = ?",
    "another format": "UPDATE snapshots SET format = 'older' WHERE move = ?",
    "another game's row": "UPDATE snapshots SET game_id = game_id + 1 WHERE move = ?",
}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_a_damaged_or_stale_stored_state_is_ignored(tmp_path, damage):
    path = tmp_path / "journal.sqlite3"
    game_id, rows = _played(path)
    newest = rows[-1][0]
    if damage == "bytes and CRC changed":
        data = zlib.compress(b"[]")
        _change(path, "UPDATE snapshots SET state = ?, crc = ? WHERE move = ?", data, zlib.crc32(data), newest)
    else:
        _change(path, DAMAGE[damage], newest)
    journal, opened, full = _opened(path, game_id)
    try:
        assert opened.opened_from == rows[-2][0], "the next older stored state is used instead"
        assert_same_session(opened, full)
    finally:
        journal.close()


def test_a_state_of_the_wrong_type_or_for_a_move_that_is_not_there_is_ignored(tmp_path):
    path = tmp_path / "journal.sqlite3"
    game_id, rows = _played(path)
    journal, opened, full = _opened(path, game_id)
    stored_format = opened.stored_format
    journal.close()
    alien = encode_state(("not", "a", "state"))
    _change(path, "UPDATE snapshots SET state = ?, crc = ? WHERE move = ?", alien, zlib.crc32(alien), rows[-1][0])
    _change(
        path,
        "INSERT INTO snapshots VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        game_id,
        10**6,
        10**6,
        1,
        0.0,
        stored_format,
        zlib.crc32(alien),
        alien,
    )
    journal, opened, full = _opened(path, game_id)
    try:
        assert opened.opened_from == rows[-2][0]
        assert_same_session(opened, full)
    finally:
        journal.close()


def test_with_no_usable_stored_state_the_game_is_folded_from_the_start(tmp_path):
    path = tmp_path / "journal.sqlite3"
    game_id, rows = _played(path)
    _change(path, "UPDATE snapshots SET crc = crc + 1")
    journal, opened, full = _opened(path, game_id)
    try:
        assert opened.opened_from is None
        assert_same_session(opened, full)
    finally:
        journal.close()
    _change(path, "DELETE FROM snapshots")
    journal, opened, full = _opened(path, game_id)
    try:
        assert opened.opened_from is None
        assert_same_session(opened, full)
    finally:
        journal.close()


def test_opening_reads_only_the_moves_after_the_stored_state(tmp_path, monkeypatch):
    path = tmp_path / "journal.sqlite3"
    game_id, rows = _played(path, moves=200, every=16)
    read: list[tuple[int, int]] = []
    decoded: list[tuple[int, tuple[int, ...] | None]] = []
    original = Journal.event_range

    def event_range(self, game, first, last, moves=None):
        read.append((first, last))
        records = original(self, game, first, last, moves)
        decoded.extend((record.move, None if moves is None else tuple(moves)) for record in records)
        return records

    monkeypatch.setattr(Journal, "event_range", event_range)
    with stored_every(16):
        journal = Journal(path)
        try:
            opened = GameSession.open(journal, game_id)
            assert opened.opened_from == rows[-1][0] and len(opened.line) == 200
            newest = rows[-1][0]
            assert read and min(first for first, _ in read) >= newest, "moves before the stored state were read"
            # only the wanted moves' events are decoded, not the others in the range read (issue 17: memory)
            assert decoded and all(wanted is not None and move in wanted for move, wanted in decoded)
            assert opened.state == GameSession(game_id, journal.events(game_id)).state
        finally:
            journal.close()


# -- earlier versions' journals ---------------------------------------------------------------------------------
def test_a_journal_without_the_snapshots_table_opens_replays_alike_and_gets_it(tmp_path):
    played = tmp_path / "played.sqlite3"
    with stored_every(4):
        table = Table(Journal(played), backup_every=None)
        table.claim()
        table.execute(
            NewGame(game="tv-wars", players=(PlayerSeat("ABS"), PlayerSeat("CBA")), options={"roll_off": False})
        )
        for n in range(30):
            assert table.execute(PassOnTheAir(network="ABS")).accepted
        live = table.state
        games = [tuple(r) for r in table.journal._db.execute("SELECT * FROM games")]
        table.journal.close()
    path = tmp_path / "old.sqlite3"
    _old_journal(path, _rows(played), games)
    assert "snapshots" not in OLD_SCHEMA

    read_only = Journal(path, read_only=True)  # read-only: no table, nothing written, it opens
    try:
        assert read_only.snapshot_rows(1, "any") == {}
        session = GameSession.open(read_only, 1)
        assert session.state == live and session.opened_from is None
    finally:
        read_only.close()

    with stored_every(4):
        table = Table(Journal(path), backup_every=None)  # opened for writing: the table is added
        table.claim()
        assert table.execute(OpenGame(game_id=1)).accepted
        assert table.state == live and table.session.opened_from is None
        table.journal.close()  # the states computed by the replay are stored
        journal, opened, full = _opened(path, 1)
        try:
            assert opened.opened_from is not None
            assert_same_session(opened, full)
            assert full.state == live
        finally:
            journal.close()


# -- threads ------------------------------------------------------------------------------------------------------
def test_states_are_encoded_off_the_tables_thread_and_written_with_a_later_move(tmp_path, monkeypatch):
    threads: list[int] = []
    original = snapshots.encode_state

    def encode(state):
        threads.append(threading.get_ident())
        return original(state)

    monkeypatch.setattr(snapshots, "encode_state", encode)
    path = tmp_path / "journal.sqlite3"
    with stored_every(2):
        journal = Journal(path)
        table = Table(journal, backup_every=None)
        table.claim()
        table.execute(
            NewGame(game="tv-wars", players=(PlayerSeat("ABS"), PlayerSeat("CBA")), options={"roll_off": False})
        )
        for _ in range(2):
            assert table.execute(PassOnTheAir(network="ABS")).accepted
        assert journal.wait_for_snapshots(30), "the snapshot thread did not encode the state within 30 s"
        count = journal._db.execute("SELECT COUNT(*) FROM snapshots").fetchone()[0]
        assert count == 0, "a row is written with the next move, not by the snapshot thread"
        assert table.execute(PassOnTheAir(network="CBA")).accepted
        assert journal._db.execute("SELECT move, depth FROM snapshots").fetchall() == [(table.session.line[1], 2)]
        journal.close()
    assert threads and threading.get_ident() not in threads
