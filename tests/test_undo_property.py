"""Undo, redo and jump-back (DESIGN.md, "The journal": undo is an event, never a delete).

The property: after any mix of commands, undos, redos and jumps, the table's state equals the state of
a fresh table that played only the moves still in force (``session.line``), in line order. Reopening the
game from the journal file gives the same state, history and redo preview.

The session keeps states only at checkpoints and recomputes the others (companion/session.py); after every
step its state, line, redo stack, every entry's line and in-force mark, the state after every prefix of the
line, and each jump's plan are compared with a naive full replay of the journal (``naive_replay``: the line
rebuilt as a list from every restore's payload, the state folded from the start), with checkpoints every 1, 2,
3 or 64 moves and as few as one recent state kept. Hand-made journals (restores that re-add any move
anywhere) replay as the naive replay does too.
"""

from __future__ import annotations

import contextlib
import sqlite3
from dataclasses import dataclass

import pytest
from conftest import NETWORKS, start_tv_wars
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import companion.session as session_module
from companion.commands import (
    BANK,
    AdjustTrack,
    AnswerDice,
    EndGame,
    JumpTo,
    OpenGame,
    PlayerSeat,
    Redo,
    RollDice,
    TransferMoney,
    Undo,
)
from companion.dice import SeededDice
from companion.errors import JournalError, NothingToRedo, NothingToUndo
from companion.events import GAME_STARTED, HISTORY_RESTORED, EventRecord
from companion.games import find_game
from companion.games.tv_wars import LandOnSponsor, PassOnTheAir
from companion.history import HistoryWindow
from companion.journal import Journal
from companion.session import GameSession
from companion.table import Table

# -- the property -----------------------------------------------------------------------------------------

game_ops = st.one_of(
    st.tuples(st.just("air"), st.integers(0, 3)),
    st.tuples(st.just("sponsor"), st.integers(0, 3), st.one_of(st.none(), st.integers(0, 30))),
    st.tuples(
        st.just("pay"),
        st.integers(-1, 3),
        st.integers(-1, 3),
        st.sampled_from([0, -5, 500, 1_000, 2_500, 20_000, 40_000, 100_000]),
    ),
    st.tuples(st.just("track"), st.integers(0, 3), st.integers(-10, 10)),
    st.tuples(st.just("roll"), st.booleans()),  # RollDice by the right / a wrong roller
    st.tuples(st.just("answer"), st.integers(1, 6), st.integers(1, 6)),
    st.tuples(
        st.just("end"),
    ),
)
history_ops = st.one_of(
    st.tuples(st.just("undo"), st.integers(1, 4)),
    st.tuples(
        st.just("redo"),
    ),
    st.tuples(st.just("jump"), st.integers(0, 1_000)),
    st.tuples(
        st.just("older"),
    ),  # the history screen loads a page more
)
checkpoints = st.sampled_from([1, 2, 3, 64])
recent_states = st.sampled_from([1, 2, 256])


@contextlib.contextmanager
def kept_states(every: int, recent: int):
    """Sessions made inside keep a state every ``every`` moves and ``recent`` recent ones."""
    saved = session_module.CHECKPOINT_EVERY, session_module.RECENT_STATES
    session_module.CHECKPOINT_EVERY, session_module.RECENT_STATES = every, recent
    try:
        yield
    finally:
        session_module.CHECKPOINT_EVERY, session_module.RECENT_STATES = saved


@dataclass
class Naive:
    """What a full replay gives: the ``state``, the ``line``, the ``redo`` stack, the line right after each
    entry (``after``, by entry seq, the start included), the entries in order (``(seq, move)``, ``move`` ``None``
    for a restore) and each move's records."""

    state: object
    line: list
    redo: list
    after: dict
    entries: list
    moves: dict
    rules: object
    initial: object

    def fold(self, line) -> object:
        state = self.initial
        for move in line:
            for record in self.moves[move]:
                state = self.rules.evolve(state, self.rules.events.decode(record.type, record.payload))
        return state

    def in_force(self) -> list:
        """``(seq, in_force)`` of every history entry, as the history screen marks them."""
        line = set(self.line)
        return [(seq, move is None or move in line) for seq, move in self.entries]


def naive_replay(records) -> Naive:
    """The journal replayed the slow, obvious way (the session's former algorithm): each restore's
    ``line = line[:keep] + append`` on a list, the redo stack as the session defines it, the state folded from
    the start over every move in force."""
    started = records[0].payload
    rules = find_game(started["game"])
    players = tuple(PlayerSeat(p["name"], p.get("colour", "white")) for p in started["players"])
    initial = rules.new_game(players, dict(started["options"]))
    moves, line, redo, entries = {}, [], [], []
    after = {records[0].seq: []}
    for record in records[1:]:
        if record.type == HISTORY_RESTORED:
            keep, append = record.payload["keep"], record.payload["append"]
            redo.extend(reversed(line[keep:]))
            line = line[:keep]
            for move in append:
                if redo and redo[-1] == move:
                    redo.pop()
                else:
                    redo.clear()
                line.append(move)
            entries.append((record.seq, None))
        elif record.move in moves:
            moves[record.move].append(record)
        else:
            moves[record.move] = [record]
            line.append(record.move)
            redo.clear()
            entries.append((record.seq, record.move))
        after[entries[-1][0]] = list(line)
    naive = Naive(None, line, redo, after, entries, moves, rules, initial)
    naive.state = naive.fold(line)
    return naive


def assert_same_as_naive(session: GameSession, naive: Naive) -> None:
    assert session.state == naive.state
    assert session.line == naive.line
    assert session.redo_stack == naive.redo
    assert [(h.seq, h.in_force) for h in session.history()] == [(session.started.seq, True)] + naive.in_force()
    for seq, line in naive.after.items():
        assert session.line_after(seq) == line, f"the line after entry #{seq}"
    for keep in range(len(naive.line) + 1):  # every earlier state, recomputed from the checkpoints
        assert session.preview_restore(keep, []) == naive.fold(naive.line[:keep]), f"the state after {keep} moves"
    for seq, target in naive.after.items():  # every jump the history screen offers
        keep = 0
        while keep < min(len(target), len(naive.line)) and target[keep] == naive.line[keep]:
            keep += 1
        if target == naive.line:
            with pytest.raises(NothingToUndo):
                session.plan_jump(seq)
        else:
            payload = session.plan_jump(seq).payload
            assert (payload["keep"], payload["append"]) == (keep, target[keep:]), f"the jump to #{seq}"
            assert session.preview_restore(keep, target[keep:]) == naive.fold(target)


def assert_window_shows_the_newest(window: HistoryWindow, session: GameSession) -> None:
    """The window's rows are the newest of ``session.history()``, newest first, exactly as many as it holds."""
    newest_first = session.history()[::-1]
    assert len(window.rows) == min(window.limit, len(newest_first))
    assert window.rows == newest_first[: len(window.rows)]
    assert window.older == len(newest_first) - len(window.rows) and window.more == (window.older > 0)


ops = st.lists(st.one_of(game_ops, history_ops), min_size=1, max_size=40)


def _command(table, op, n):
    names = NETWORKS[:n]

    def who(i):
        return BANK if i < 0 else names[i % n]

    kind = op[0]
    if kind == "air":
        return PassOnTheAir(network=who(op[1]), source="button")
    if kind == "sponsor":
        return LandOnSponsor(network=who(op[1]), half_hours=op[2])
    if kind == "pay":
        return TransferMoney(payer=who(op[1]), payee=who(op[2]), amount=op[3], reason="property")
    if kind == "track":
        return AdjustTrack(player=who(op[1]), track="half_hours", delta=op[2])
    request = table.view().pending_dice if table.session else None
    roller = request.roller if request else "ABS"
    if kind == "roll":
        return RollDice(roller=roller if op[1] else names[(names.index(roller) + 1) % n])
    if kind == "answer":
        return AnswerDice(roller=roller, values=(op[1], op[2]), source="manual")
    if kind == "end":
        return EndGame(reason="property test")
    if kind == "older":
        return None
    if kind == "undo":
        return Undo(steps=op[1])
    if kind == "redo":
        return Redo()
    entries = [entry.seq for entry in table.history()] + [table.session.started.seq]
    return JumpTo(seq=entries[op[1] % len(entries)])


def _events(table) -> int:
    connection = sqlite3.connect(str(table.journal.path))
    try:
        return connection.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    finally:
        connection.close()


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(2, 4),
    roll_off=st.booleans(),
    operations=ops,
    every=checkpoints,
    recent=recent_states,
    page=st.integers(1, 6),
)
@example(
    n=2,
    roll_off=True,
    operations=[("track", 0, -1), ("undo", 1), ("track", 0, 2), ("jump", 0), ("redo",)],
    every=64,
    recent=256,
    page=60,
)
@example(
    n=3,
    roll_off=True,
    operations=[
        ("roll", True),
        ("roll", True),
        ("undo", 2),
        ("answer", 6, 6),
        ("jump", 1),
        ("redo",),
        ("redo",),
        ("roll", True),
        ("end",),
        ("undo", 1),
        ("redo",),
    ],
    every=2,
    recent=1,
    page=2,
)
def test_undo_redo_jump_equal_replaying_the_surviving_moves(
    table_factory, n, roll_off, operations, every, recent, page
):
    with kept_states(every, recent):
        _undo_redo_jump_equal_replaying_the_surviving_moves(table_factory, n, roll_off, operations, page)


def _undo_redo_jump_equal_replaying_the_surviving_moves(table_factory, n, roll_off, operations, page):
    table = table_factory(seed=1)
    replayed = reopened = None
    try:
        game_id = start_tv_wars(table, n, roll_off=roll_off)
        produced = {}  # move id -> the command that (re)produces it from scratch
        lines = [[]]  # every line the game has been at
        window = HistoryWindow(table.session, page=page)
        for op in operations:
            command = _command(table, op, n)
            if command is None:  # the history screen's "Show older entries"
                more = window.more
                assert window.extend() == more
                assert_window_shows_the_newest(window, table.session)
                continue
            before, count = table.state, _events(table)
            outcome = table.execute(command)
            if window.session is not table.session:
                window = HistoryWindow(table.session, page=page)
            window.sync()
            assert_window_shows_the_newest(window, table.session)
            assert_same_as_naive(table.session, naive_replay(table.journal.events(game_id)))
            if not outcome.accepted:
                assert table.state == before and _events(table) == count, "a refusal changed something"
                continue
            if isinstance(command, (Undo, Redo, JumpTo)):
                assert [r.type for r in outcome.records] == [HISTORY_RESTORED]
                # undo, redo and jump only ever return to (a prefix of) a line the game really had
                line = table.session.line
                assert any(seen[: len(line)] == line for seen in lines), f"{command!r} made up the line {line}"
                lines.append(list(line))
                continue
            move = outcome.records[0].move
            assert move == outcome.records[0].seq and move not in produced
            if isinstance(command, RollDice):  # replay the dice the table journaled
                dice = outcome.records[0].payload
                assert dice["source"] == SeededDice.source
                command = AnswerDice(roller=dice["roller"], values=tuple(dice["values"]), source="built-in")
            produced[move] = command
            assert table.session.line[-1] == move
            lines.append(list(table.session.line))

        line = list(table.session.line)
        assert len(line) == len(set(line)) and set(line) <= set(produced)

        replayed = table_factory(seed=999)
        start_tv_wars(replayed, n, roll_off=roll_off)
        for move in line:
            outcome = replayed.execute(produced[move])
            assert outcome.accepted, f"move #{move} {produced[move]!r} does not replay: {outcome.message}"
        assert table.state == replayed.state
        assert len(replayed.session.line) == len(line)
        # each surviving move, decided again in its place in the line, causes exactly the same events
        for move, again in zip(line, replayed.session.line):
            original = [(r.type, {k: v for k, v in r.payload.items() if k != "by"}) for r in table.session.moves[move]]
            redone = [
                (r.type, {k: v for k, v in r.payload.items() if k != "by"}) for r in replayed.session.moves[again]
            ]
            assert original == redone, f"move #{move} means something else where it now stands in the line"
        assert table.journal.game(game_id).status == ("finished" if table.state.finished else "open")

        # reopen from the journal file: same state, history, line and redo preview
        reopened = Table(Journal(table.journal.path), dice=SeededDice(5))
        reopened.claim()
        outcome = reopened.execute(OpenGame(game_id=game_id))
        assert outcome.accepted, outcome.message
        assert reopened.state == table.state
        assert reopened.session.line == table.session.line
        assert reopened.history() == table.history()
        assert reopened.redo_preview() == table.redo_preview()
        assert reopened.undo_preview(3) == table.undo_preview(3)
    finally:
        for t in (table, replayed, reopened):
            if t is not None:
                t.journal.close()


# -- examples -------------------------------------------------------------------------------------------------


def _play_three(table):
    """Three distinct moves: ABS passes On the Air, CBA lands on Sponsor, ABS pays CBA $1,000."""
    outcomes = [
        table.execute(PassOnTheAir(network="ABS")),
        table.execute(LandOnSponsor(network="CBA", half_hours=10)),
        table.execute(TransferMoney(payer="ABS", payee="CBA", amount=1_000, reason="bid")),
    ]
    assert all(o.accepted for o in outcomes)
    return [o.records[0].move for o in outcomes]


def test_undo_three_moves_says_what_each_undo_undid(table):
    start_tv_wars(table, 2, roll_off=False)
    start = table.state
    moves = _play_three(table)
    preview = table.undo_preview(3)
    assert [p.split(" ")[0] for p in preview] == [f"#{m}" for m in reversed(moves)]
    assert "ABS pays CBA $1,000: bid" in preview[0]
    assert "Sponsor" in preview[1] and "10 half-hours" in preview[1]
    assert "On the Air" in preview[2]
    messages = []
    for expected in preview:
        assert table.undo_preview(1) == [expected]
        outcome = table.execute(Undo())
        assert outcome.accepted
        assert expected in outcome.message and outcome.message.startswith("Undo: undid")
        messages.append(outcome.message)
    assert table.state == start
    assert table.undo_preview(1) == []
    kinds = [(h.kind, h.in_force) for h in table.history()]
    assert kinds == [("start", True)] + [("move", False)] * 3 + [("undo", True)] * 3


def test_undo_several_steps_at_once_lists_them_all(table):
    start_tv_wars(table, 2, roll_off=False)
    start = table.state
    moves = _play_three(table)
    outcome = table.execute(Undo(steps=3))
    assert outcome.accepted and table.state == start
    for move in moves:
        assert f"#{move} " in outcome.message
    assert table.redo_preview().startswith(f"#{moves[0]} ")


def test_redo_one_then_nothing_to_redo_is_refused_and_changes_nothing(table):
    start_tv_wars(table, 2, roll_off=False)
    moves = _play_three(table)
    after_all = table.state
    table.execute(Undo())
    after_two = table.state
    assert table.redo_preview() == f"#{moves[2]} ABS pays CBA $1,000: bid"
    outcome = table.execute(Redo())
    assert outcome.accepted and f"#{moves[2]}" in outcome.message and outcome.message.startswith("Redo")
    assert table.state == after_all and table.state != after_two
    assert table.redo_preview() is None
    before_history, count = table.history(), _events(table)
    outcome = table.execute(Redo())
    assert isinstance(outcome.refusal, NothingToRedo)
    assert table.state == after_all and table.history() == before_history and _events(table) == count


def test_nothing_to_undo_is_refused(table):
    start_tv_wars(table, 2, roll_off=False)
    count = _events(table)
    assert isinstance(table.execute(Undo()).refusal, NothingToUndo)
    table.execute(PassOnTheAir(network="ABS"))
    for steps in (2, 0, -1, True):
        assert isinstance(table.execute(Undo(steps=steps)).refusal, NothingToUndo), steps
    assert _events(table) == count + 1


def test_undo_can_be_undone_by_jumping_to_the_entry_before_it(table):
    start_tv_wars(table, 2, roll_off=False)
    moves = _play_three(table)
    after_all = table.state
    table.execute(Undo(steps=2))
    assert table.state != after_all
    outcome = table.execute(JumpTo(seq=moves[-1]))  # the last entry before the undo
    assert outcome.accepted and outcome.message.startswith(f"Back to #{moves[-1]}")
    assert table.state == after_all
    assert table.session.line == moves
    assert [h.in_force for h in table.history() if h.kind == "move"] == [True, True, True]


def test_jump_to_the_start_and_back(table):
    start_tv_wars(table, 2, roll_off=False)
    start = table.state
    moves = _play_three(table)
    after_all = table.state
    table.execute(JumpTo(seq=table.session.started.seq))
    assert table.state == start and table.session.line == []
    table.execute(JumpTo(seq=moves[1]))
    assert table.session.line == moves[:2]
    refusal = table.execute(JumpTo(seq=moves[1])).refusal  # already there
    assert isinstance(refusal, NothingToUndo)
    assert isinstance(table.execute(JumpTo(seq=99_999)).refusal, NothingToUndo)
    table.execute(Redo())
    assert table.state == after_all


def test_a_new_move_clears_redo(table):
    start_tv_wars(table, 2, roll_off=False)
    _play_three(table)
    table.execute(Undo(steps=2))
    assert table.redo_preview() is not None
    table.execute(PassOnTheAir(network="CBA"))
    assert table.redo_preview() is None
    assert isinstance(table.execute(Redo()).refusal, NothingToRedo)


def test_undoing_end_game_reopens_a_finished_game(table):
    game_id = start_tv_wars(table, 2, roll_off=False)
    table.execute(PassOnTheAir(network="ABS"))
    table.execute(EndGame(reason="bedtime"))

    def status():
        connection = sqlite3.connect(str(table.journal.path))
        try:
            return connection.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone()[0]
        finally:
            connection.close()

    assert status() == "finished" and table.state.finished
    assert table.journal.latest_open_game() is None
    outcome = table.execute(Undo())
    assert outcome.accepted and "bedtime" in outcome.message
    assert status() == "open" and not table.state.finished
    assert table.journal.latest_open_game().id == game_id
    assert table.execute(PassOnTheAir(network="ABS")).accepted
    table.execute(Undo())
    # back to the entry of the end: finished again
    table.execute(JumpTo(seq=[h.seq for h in table.history() if "bedtime" in h.text][0]))
    assert table.state.finished and status() == "finished"


def test_resume_latest_after_restart_returns_to_the_same_place(tmp_path):
    path = tmp_path / "journal.sqlite3"
    first = Table(Journal(path), dice=SeededDice(2))
    first.claim()
    game_id = start_tv_wars(first, 3, roll_off=False)
    first.execute(RollDice(roller="ABS"))
    _play_three(first)
    first.execute(Undo())
    state, history, redo = first.state, first.history(), first.redo_preview()
    first.journal.close()

    second = Table(Journal(path), dice=SeededDice(3))
    second.claim()
    outcome = second.resume_latest()
    assert outcome.accepted and f"#{game_id}" in outcome.message
    assert (second.state, second.history(), second.redo_preview()) == (state, history, redo)
    assert second.execute(Redo()).accepted
    second.journal.close()


def test_the_saved_games_count_every_event_and_the_last_written_is_the_last_played(tmp_path):
    """``Journal.games()`` (Home's list, ``latest_open_game`` at start-up) reads the count and the last event from
    the ``events_by_game`` index (issue 17: no scan of every event's row): the same count as ``COUNT(*)`` of the
    game's events, and the time of the last event written, even when the clock was set back before it."""
    from companion.events import NewEvent

    with Journal(tmp_path / "journal.sqlite3") as journal:
        players = [{"name": "ABS", "colour": "red"}, {"name": "CBA", "colour": "blue"}]
        a = journal.create_game("tv_wars", players, {}, time=1_000.0).game_id
        b = journal.create_game("tv_wars", players, {}, time=1_001.0).game_id
        empty = journal.create_game("tv_wars", players, {}, time=1_002.0).game_id
        journal._db.execute("DELETE FROM events WHERE game_id = ?", (empty,))  # a game whose events are gone
        for step in range(5):  # interleaved, as two games played on one table would be
            journal.append(a, [NewEvent("note", {"step": step})], time=2_000.0 + step)
            journal.append(b, [NewEvent("note", {"step": step}), NewEvent("note", {})], time=3_000.0 + step)
        journal.append(b, [NewEvent("note", {"late": True})], time=1_500.0)  # the clock set back

        games = {game.id: game for game in journal.games()}
        assert list(games) == [a, b, empty]
        for game_id in (a, b, empty):
            count = journal._db.execute("SELECT COUNT(*) FROM events WHERE game_id = ?", (game_id,)).fetchone()[0]
            assert games[game_id].events == count == journal.game(game_id).events
        assert (games[a].events, games[b].events, games[empty].events) == (6, 12, 0)
        assert (games[a].last_time, games[b].last_time, games[empty].last_time) == (2_004.0, 1_500.0, None)
        assert journal.game(b).last_time == 1_500.0
        # the game played last by the clock of its last move: a (2,004) over b (1,500) and empty (created 1,002)
        assert journal.latest_open_game().id == a


def test_redo_after_jumping_to_another_branch_never_brings_back_a_move_out_of_its_place(table):
    """Move A, undo it, move C (a new branch), jump back to A's entry: C is not a redo of A's line, so
    redo must not re-apply C after A (C was decided without A)."""
    start_tv_wars(table, 2)
    a = table.execute(AdjustTrack(player="ABS", track="half_hours", delta=-1)).records[0].move
    table.execute(Undo())
    table.execute(AdjustTrack(player="ABS", track="half_hours", delta=2))
    assert table.state.network("ABS").half_hours.value == 22
    assert table.execute(JumpTo(seq=a)).accepted
    assert table.session.line == [a] and table.state.network("ABS").half_hours.value == 19
    outcome = table.execute(Redo())
    if outcome.accepted:  # whatever redo brings back must be a line that really existed
        assert any(table.session.line == table.session.line_after(h.seq) for h in table.history()[:-1])


def test_jump_to_the_start_entry_returns_to_set_up_and_is_undoable(tmp_path):
    """The history's first entry is the game's start; jumping there undoes every move (TV Wars 2.4 cash)."""
    from companion.commands import JumpTo, NewGame, PlayerSeat, Redo
    from companion.games.tv_wars import PassOnTheAir
    from companion.journal import Journal
    from companion.table import Table

    table = Table(Journal(tmp_path / "journal.sqlite3"))
    table.claim()
    table.execute(NewGame(game="tv-wars", players=(PlayerSeat("ABS"), PlayerSeat("CBA")), options={"roll_off": False}))
    for _ in range(3):
        table.execute(PassOnTheAir(network="ABS"))
    start = table.history()[0]
    assert start.kind == "start" and "ABS, CBA" in start.text
    outcome = table.execute(JumpTo(seq=start.seq))
    assert outcome.accepted and table.state.balances == {"ABS": 31000, "CBA": 31000}
    assert table.execute(Redo()).accepted and table.state.balances["ABS"] == 34000
    before_jump = [h for h in table.history() if h.kind == "jump"][0].seq - 1
    table.execute(JumpTo(seq=before_jump))  # undo the jump itself: back to all three moves
    assert table.state.balances["ABS"] == 40000


def test_undo_right_after_a_jump_undoes_the_jump_in_one_press(tmp_path):
    """Jumping back three moves from the History screen, then one Undo, returns all three moves; redo
    afterwards behaves as before the jump."""
    from companion.commands import JumpTo, NewGame, PlayerSeat, Redo, Undo
    from companion.games.tv_wars import PassOnTheAir
    from companion.journal import Journal
    from companion.table import Table

    table = Table(Journal(tmp_path / "journal.sqlite3"))
    table.claim()
    table.execute(NewGame(game="tv-wars", players=(PlayerSeat("ABS"), PlayerSeat("CBA")), options={"roll_off": False}))
    moves = [table.execute(PassOnTheAir(network="ABS")).records[0].move for _ in range(4)]
    table.execute(Undo())  # redo stack: [moves[3]]
    table.execute(JumpTo(seq=moves[0]))  # back to after the first move
    assert table.state.balances["ABS"] == 34000
    assert table.undo_preview(1) == [f"#{table.history()[-1].seq} the jump back to #{moves[0]}"]
    outcome = table.execute(Undo())
    assert outcome.accepted and outcome.message.startswith("Undo of the jump")
    assert table.state.balances["ABS"] == 40000 and table.session.line == moves[:3]
    assert table.redo_preview().startswith(f"#{moves[3]} ")
    assert table.execute(Redo()).accepted and table.state.balances["ABS"] == 43000
    assert table.execute(Undo()).accepted and table.state.balances["ABS"] == 40000  # plain undo again


# -- hand-made journals ----------------------------------------------------------------------------------------


def _hand_made_events():
    """Events that any state takes: bank payments to and from each network, and track settings."""
    rules = find_game("tv-wars")
    state = rules.new_game((PlayerSeat("ABS"), PlayerSeat("CBA")), {"roll_off": False})
    events = []
    for network in ("ABS", "CBA"):
        for amount in (1_000, 3_000):
            events += rules.decide(state, TransferMoney(payer=BANK, payee=network, amount=amount, reason="hand"))
            events += rules.decide(state, TransferMoney(payer=network, payee=BANK, amount=amount, reason="hand"))
        for delta in (-2, 3):
            events += rules.decide(state, AdjustTrack(player=network, track="half_hours", delta=delta))
    return events


HAND_MADE = _hand_made_events()
hand_made_steps = st.lists(
    st.one_of(
        st.tuples(st.just("move"), st.lists(st.integers(0, len(HAND_MADE) - 1), min_size=1, max_size=3)),
        st.tuples(st.just("restore"), st.integers(0, 99), st.lists(st.integers(0, 99), max_size=4)),
    ),
    max_size=40,
)


def _hand_made_journal(steps) -> list[EventRecord]:
    """A game's records: moves of one to three events, and restores with any ``keep`` within the line and
    ``append`` lists of any moves (re-added elsewhere, twice, after themselves), as no table would write."""
    players = [{"name": "ABS", "colour": "red"}, {"name": "CBA", "colour": "blue"}]
    records = [
        EventRecord(1, 1, 1, 0.0, GAME_STARTED, {"game": "tv-wars", "players": players, "options": {"roll_off": False}})
    ]
    moves, length = [], 0
    for step in steps:
        seq = records[-1].seq + 1
        if step[0] == "move":
            records += [
                EventRecord(seq + i, 1, seq, float(seq), HAND_MADE[e].type, dict(HAND_MADE[e].payload))
                for i, e in enumerate(step[1])
            ]
            moves.append(seq)
            length = len(naive_replay(records).line)
        else:
            keep = step[1] % (length + 1)
            append = [moves[i % len(moves)] for i in step[2]] if moves else []
            records.append(
                EventRecord(
                    seq,
                    1,
                    seq,
                    float(seq),
                    HISTORY_RESTORED,
                    {"action": "jump", "to": 1, "keep": keep, "append": append, "undone": [], "redone": append},
                )
            )
            length = keep + len(append)
    return records


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=hand_made_steps, every=checkpoints, recent=recent_states)
def test_hand_made_restores_replay_as_a_full_replay_does(steps, every, recent):
    records = _hand_made_journal(steps)
    with kept_states(every, recent):
        session = GameSession(1, records)
        assert_same_as_naive(session, naive_replay(records))
        # and step by step, as a table takes them
        stepwise = GameSession(1, records[:1])
        for index in range(1, len(records)):
            stepwise.take(records[index : index + 1])
        assert stepwise.state == session.state and stepwise.history() == session.history()


def test_records_out_of_seq_order_still_find_every_entry():
    """A hand-made journal whose entries are not in seq order, and whose move ids are not their first seq:
    entries are found through a map instead of by bisection, with the same results."""
    base = _hand_made_journal([("move", [0]), ("move", [5, 1]), ("move", [8])])
    shuffled = [base[0]] + [EventRecord(100 - r.seq, 1, 200 - r.move, r.time, r.type, r.payload) for r in base[1:]]
    shuffled.append(
        EventRecord(
            50,
            1,
            50,
            9.0,
            HISTORY_RESTORED,
            {"action": "jump", "to": 1, "keep": 1, "append": [195], "undone": [], "redone": []},
        )
    )
    session = GameSession(1, shuffled)
    assert_same_as_naive(session, naive_replay(shuffled))
    assert list(session.moves) == [198, 197, 195] and session.moves[197][1].seq == 96


def test_a_restore_past_the_line_or_an_event_for_an_older_move_cannot_be_replayed():
    """What no table writes is named, not guessed at: ``keep`` beyond the line, an event joining a move that
    is no longer the latest."""
    base = _hand_made_journal([("move", [0]), ("move", [1])])
    past = base + [
        EventRecord(
            4, 1, 4, 4.0, HISTORY_RESTORED, {"action": "undo", "keep": 3, "append": [], "undone": [], "redone": []}
        )
    ]
    with pytest.raises(JournalError, match=r"event #4 \(history_restored\).*keep must be a whole number from 0 to 2"):
        GameSession(1, past)
    late = base + [EventRecord(4, 1, 2, 4.0, HAND_MADE[0].type, dict(HAND_MADE[0].payload))]
    with pytest.raises(JournalError, match=r"event #4 .*belongs to move #2, which is not the latest move"):
        GameSession(1, late)


def test_a_long_game_keeps_states_only_at_checkpoints_and_undoes_past_them(table):
    """200 moves with checkpoints every 64 and 8 recent states: 4 checkpoint states (depths 0, 64, 128, 192)
    besides the recent ones; 150 undos in a row each land on the state a replay of the shorter line gives."""
    with kept_states(64, 8):
        start_tv_wars(table, 2, roll_off=False)
        for i in range(200):
            assert table.execute(
                AdjustTrack(player=("ABS", "CBA")[i % 2], track="half_hours", delta=1 if (i // 2) % 10 < 5 else -1)
            ).accepted
        session = table.session
        kept = [node.depth for node in _nodes(session) if node.state is not None]
        assert kept == [0, 64, 128, 192]
        assert len(session._recent.items) == 8
        naive = naive_replay(table.journal.events(session.game_id))
        for steps in range(1, 151):
            assert table.execute(Undo()).accepted
            assert table.state == naive.fold(naive.line[: 200 - steps]), f"after {steps} undos"
        assert len(session._recent.items) == 8


def _nodes(session):
    """Every node of the session's tree of lines, the start first (a white-box look at what is kept)."""
    seen, nodes = set(), [session._root]
    for entry in session._entries:
        node = entry if isinstance(entry, session_module._Node) else entry.after
        while node is not None and id(node) not in seen:
            seen.add(id(node))
            if node is not session._root:
                nodes.append(node)
            node = node.parent
    return sorted(nodes, key=lambda node: node.depth)
