"""Undo, redo and jump-back (DESIGN.md, "The journal": undo is an event, never a delete).

The property: after any mix of commands, undos, redos and jumps, the table's state equals the state of
a fresh table that played only the moves still in force (``session.line``), in line order. Reopening the
game from the journal file gives the same state, history and redo preview.
"""

from __future__ import annotations

import sqlite3

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from companion.commands import (BANK, AdjustTrack, AnswerDice, EndGame, JumpTo, OpenGame, Redo, RollDice,
                                TransferMoney, Undo)
from companion.dice import SeededDice
from companion.errors import NothingToRedo, NothingToUndo
from companion.events import HISTORY_RESTORED
from companion.games.tv_wars import LandOnSponsor, PassOnTheAir
from companion.journal import Journal
from companion.table import Table

from conftest import NETWORKS, start_tv_wars

# -- the property -----------------------------------------------------------------------------------------

game_ops = st.one_of(
    st.tuples(st.just("air"), st.integers(0, 3)),
    st.tuples(st.just("sponsor"), st.integers(0, 3), st.one_of(st.none(), st.integers(0, 30))),
    st.tuples(st.just("pay"), st.integers(-1, 3), st.integers(-1, 3),
              st.sampled_from([0, -5, 500, 1_000, 2_500, 20_000, 40_000, 100_000])),
    st.tuples(st.just("track"), st.integers(0, 3), st.integers(-10, 10)),
    st.tuples(st.just("roll"), st.booleans()),                     # RollDice by the right / a wrong roller
    st.tuples(st.just("answer"), st.integers(1, 6), st.integers(1, 6)),
    st.tuples(st.just("end"),),
)
history_ops = st.one_of(
    st.tuples(st.just("undo"), st.integers(1, 4)),
    st.tuples(st.just("redo"),),
    st.tuples(st.just("jump"), st.integers(0, 1_000)),
)
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
@given(n=st.integers(2, 4), roll_off=st.booleans(), operations=ops)
@example(n=2, roll_off=True, operations=[("track", 0, -1), ("undo", 1), ("track", 0, 2), ("jump", 0), ("redo",)])
@example(n=3, roll_off=True, operations=[("roll", True), ("roll", True), ("undo", 2), ("answer", 6, 6), ("jump", 1),
                                         ("redo",), ("redo",), ("roll", True), ("end",), ("undo", 1), ("redo",)])
def test_undo_redo_jump_equal_replaying_the_surviving_moves(table_factory, n, roll_off, operations):
    table = table_factory(seed=1)
    replayed = reopened = None
    try:
        game_id = start_tv_wars(table, n, roll_off=roll_off)
        produced = {}                     # move id -> the command that (re)produces it from scratch
        lines = [[]]                      # every line the game has been at
        for op in operations:
            command = _command(table, op, n)
            before, count = table.state, _events(table)
            outcome = table.execute(command)
            if not outcome.accepted:
                assert table.state == before and _events(table) == count, "a refusal changed something"
                continue
            if isinstance(command, (Undo, Redo, JumpTo)):
                assert [r.type for r in outcome.records] == [HISTORY_RESTORED]
                # undo, redo and jump only ever return to (a prefix of) a line the game really had
                line = table.session.line
                assert any(seen[:len(line)] == line for seen in lines), f"{command!r} made up the line {line}"
                lines.append(list(line))
                continue
            move = outcome.records[0].move
            assert move == outcome.records[0].seq and move not in produced
            if isinstance(command, RollDice):   # replay the dice the table journaled
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
            redone = [(r.type, {k: v for k, v in r.payload.items() if k != "by"}) for r in replayed.session.moves[again]]
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
    outcomes = [table.execute(PassOnTheAir(network="ABS")),
                table.execute(LandOnSponsor(network="CBA", half_hours=10)),
                table.execute(TransferMoney(payer="ABS", payee="CBA", amount=1_000, reason="bid"))]
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
    outcome = table.execute(JumpTo(seq=moves[-1]))     # the last entry before the undo
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
    refusal = table.execute(JumpTo(seq=moves[1])).refusal       # already there
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
    if outcome.accepted:    # whatever redo brings back must be a line that really existed
        assert any(table.session.line == table.session.line_after(h.seq) for h in table.history()[:-1])


def test_jump_to_the_start_entry_returns_to_set_up_and_is_undoable(tmp_path):
    """The history's first entry is the game's start; jumping there undoes every move (TV Wars 2.4 cash)."""
    from companion.commands import JumpTo, PlayerSeat, NewGame, Redo
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
    table.execute(JumpTo(seq=before_jump))      # undo the jump itself: back to all three moves
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
    table.execute(Undo())                                   # redo stack: [moves[3]]
    table.execute(JumpTo(seq=moves[0]))                     # back to after the first move
    assert table.state.balances["ABS"] == 34000
    assert table.undo_preview(1) == [f"#{table.history()[-1].seq} the jump back to #{moves[0]}"]
    outcome = table.execute(Undo())
    assert outcome.accepted and outcome.message.startswith("Undo of the jump")
    assert table.state.balances["ABS"] == 40000 and table.session.line == moves[:3]
    assert table.redo_preview().startswith(f"#{moves[3]} ")
    assert table.execute(Redo()).accepted and table.state.balances["ABS"] == 43000
    assert table.execute(Undo()).accepted and table.state.balances["ABS"] == 40000   # plain undo again
