"""Dice requests and sources: manual entry, the seeded generator, and the reader port (TV Wars 2.5 roll-off)."""

import sqlite3
import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.commands import NewGame, PlayerSeat, RollDice
from companion.dice import DiceReaderPort, DiceRequest, SeededDice
from companion.errors import DiceError
from companion.journal import Journal, JournalTooNew, open_journal
from companion.table import Table
from firmware_bridge.dice_match import RollTray


def test_seeded_dice_repeat_and_stay_in_range():
    request = DiceRequest("ABS", 2, "Best Network News roll-off", "TV Wars 2.5")
    first = [SeededDice(42).roll(request) for _ in range(1)]
    assert first == [SeededDice(42).roll(request)]
    rolls = [SeededDice(seed).roll(request) for seed in range(300)]
    assert {face for roll in rolls for face in roll} == {1, 2, 3, 4, 5, 6}
    assert all(len(roll) == 2 for roll in rolls)


@given(st.lists(st.integers(min_value=-3, max_value=9), max_size=4))
def test_request_check_accepts_exactly_count_faces_from_1_to_sides(values):
    request = DiceRequest("ABS", 2, "roll-off")
    if len(values) == 2 and all(1 <= v <= 6 for v in values):
        assert request.check("ABS", values) == tuple(values)
    else:
        with pytest.raises(DiceError):
            request.check("ABS", values)


def _roll_off_table(tmp_path):
    table = Table(Journal(tmp_path / "journal.sqlite3"))
    table.claim()
    table.execute(NewGame(game="tv-wars", players=(PlayerSeat("ABS"), PlayerSeat("CBA"))))
    return table


def test_a_reader_delivery_answers_the_pending_request_and_is_journaled_as_reader(tmp_path):
    reader = DiceReaderPort()
    tray = RollTray(reader)  # what the kiosk's owner thread polls every tick
    table = _roll_off_table(tmp_path)
    thread = threading.Thread(target=reader.deliver, args=((5, 6),))
    thread.start()
    thread.join()
    tray.poll(lambda: table.view().pending_dice, table.post)
    table.process_pending()
    rolled = [e for e in table.journal.events(1) if e.type == "dice_rolled"]
    assert [(e.payload["roller"], e.payload["values"], e.payload["source"]) for e in rolled] == [
        ("ABS", [5, 6], "reader")
    ]
    assert table.view().pending_dice.roller == "CBA"


def test_a_reading_with_nothing_asked_is_held_not_used(tmp_path):
    reader = DiceReaderPort()
    tray = RollTray(reader)
    table = _roll_off_table(tmp_path)
    table.execute(RollDice(roller="ABS"))
    table.execute(RollDice(roller="CBA"))
    while table.view().pending_dice is not None:  # settle any tie with the built-in dice
        table.execute(RollDice(roller=table.view().pending_dice.roller))
    events_before = len(table.journal.events(1))
    reader.deliver((2, 2))
    tray.poll(lambda: table.view().pending_dice, table.post)
    table.process_pending()
    assert [roll.values for roll in tray.held] == [(2, 2)]  # held for a player: nothing was asked for
    assert len(table.journal.events(1)) == events_before


def test_reader_port_keeps_at_most_capacity_readings():
    reader = DiceReaderPort(capacity=3)
    for value in range(1, 6):
        reader.deliver((value,))
    assert reader.dropped == 2
    assert [reader.take(), reader.take(), reader.take(), reader.take()] == [(3,), (4,), (5,), None]


def test_a_journal_from_a_newer_companion_is_moved_aside_untouched(tmp_path):
    path = tmp_path / "journal.sqlite3"
    Journal(path).close()
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version = 99")
    before = path.read_bytes()
    with pytest.raises(JournalTooNew, match="newer companion"):
        Journal(path)
    journal, recovery = open_journal(path)  # the kiosk starts (no restart loop) and says why
    journal.close()
    assert recovery.kind == "newer" and "update the companion" in recovery.message()
    (moved,) = [p for p in tmp_path.iterdir() if ".newer-" in p.name and not p.name.endswith(("-wal", "-shm"))]
    assert moved.read_bytes() == before


def test_read_only_journal_never_writes(tmp_path):
    path = tmp_path / "journal.sqlite3"
    _roll_off_table(tmp_path).journal.close()
    before = path.read_bytes()
    with Journal(path, read_only=True) as journal:
        assert len(journal.games()) == 1
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            journal._db.execute("DELETE FROM events")
    assert path.read_bytes() == before


def test_roll_off_names_the_leaders_once_everyone_has_rolled_and_rerolls_only_the_tied():
    """TV Wars 2.5 / Death Show TV first player: highest wins; ties for highest roll again among themselves."""
    from companion.dice import RollOff

    roll_off = RollOff(("ABS", "CBA", "PBC"))
    roll_off = roll_off.with_roll("ABS", 9).with_roll("CBA", 11)
    assert roll_off.leaders() is None and roll_off.next_roller == "PBC"
    roll_off = roll_off.with_roll("PBC", 11)
    assert roll_off.leaders() == (["CBA", "PBC"], 11)
    again = roll_off.reroll(["CBA", "PBC"])
    assert again == RollOff(("CBA", "PBC"), (), 2) and again.next_roller == "CBA"
    assert again.with_roll("CBA", 4).with_roll("PBC", 7).leaders() == (["PBC"], 7)


def test_a_roll_in_manual_dice_mode_is_refused_with_what_to_do_and_changes_nothing(tmp_path):
    """Issue 18: with ``[dice] mode = "manual"`` a seat's Roll key (or any Roll) is not ignored: the table refuses
    it, saying to enter the dice on the touchscreen (a table rule), and journals nothing; entered dice go."""
    from conftest import start_tv_wars

    from companion.commands import AnswerDice
    from companion.dice import HandDice, table_dice

    assert isinstance(table_dice("manual"), HandDice) and isinstance(table_dice("built-in", 3), SeededDice)
    table = Table(Journal(tmp_path / "journal.sqlite3"), dice=table_dice("manual"))
    table.claim()
    start_tv_wars(table, 2, roll_off=True)
    request = table.view().pending_dice
    before, count = table.state, len(table.journal.events(1))
    outcome = table.execute(RollDice(roller=request.roller, source="button"))
    assert not outcome.accepted
    assert str(outcome.refusal).startswith("the dice mode is manual: ")
    assert "enter them on the touchscreen (Enter dice)" in outcome.message and outcome.message.endswith("(table rule)")
    assert table.state == before and len(table.journal.events(1)) == count
    assert table.execute(AnswerDice(roller=request.roller, values=(3, 4), source="manual")).accepted
    reader = Table(Journal(tmp_path / "reader.sqlite3"), dice=table_dice("reader"))
    reader.claim()
    start_tv_wars(reader, 2, roll_off=True)
    refused = reader.execute(RollDice(roller=reader.view().pending_dice.roller))
    assert "roll them in the reader's tray" in str(refused.refusal)
