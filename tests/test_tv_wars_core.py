"""TV Wars table-core rules (rule numbers from /work/shared/rules/tv-wars.txt) and refusals of bad input.

A refused command must leave the state unchanged and write nothing to the journal.
"""

from __future__ import annotations

import sqlite3

import pytest
from conftest import NETWORKS, read_events, seats, start_tv_wars
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.commands import (
    BANK,
    AdjustTrack,
    AnswerDice,
    EndGame,
    NewGame,
    PlayerSeat,
    Redo,
    RollDice,
    TransferMoney,
    Undo,
)
from companion.errors import (
    CommandError,
    DiceError,
    GameFinished,
    IllegalCommand,
    InsufficientFunds,
    MalformedCommand,
    NoGameOpen,
)
from companion.games.tv_wars import LandOnSponsor, PassOnTheAir
from companion.games.tv_wars.bank import MONEY_MOVED


def _event_count(table) -> int:
    connection = sqlite3.connect(str(table.journal.path))
    try:
        return connection.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    finally:
        connection.close()


def refused(table, command, error: type[Exception]):
    """Execute ``command``; assert it is refused with ``error``, changes no state and journals nothing.
    Return the refusal."""
    before_state, before_count = table.state, _event_count(table)
    before_history = table.history()
    outcome = table.execute(command)
    assert not outcome.accepted, f"{command!r} was accepted: {outcome.message}"
    assert isinstance(outcome.refusal, error), repr(outcome.refusal)
    assert outcome.records == ()
    assert outcome.message.startswith("Refused: ")
    assert table.state == before_state
    assert table.history() == before_history
    assert _event_count(table) == before_count, "a refused command wrote to the journal"
    return outcome.refusal


def accepted(table, command):
    outcome = table.execute(command)
    assert outcome.accepted, outcome.message
    return outcome


def cash(table) -> dict[str, int]:
    return table.state.balances


# -- 2.4 starting money, player counts -----------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4])
def test_tv_wars_2_4_each_network_starts_with_31000(table, n):
    game_id = start_tv_wars(table, n)
    assert cash(table) == {name: 31_000 for name in NETWORKS[:n]}
    view = table.view()
    assert [p.balance for p in view.players] == [31_000] * n
    assert [p.name for p in view.players] == list(NETWORKS[:n])
    assert table.journal.game(game_id).status == "open"
    assert table.state.best_network_news is None  # 2.5 roll-off pending
    assert table.view().pending_dice.roller == "ABS"


@pytest.mark.parametrize("n", [0, 1, 5, 6])
def test_tv_wars_inventory_2_to_4_networks_other_counts_refused(table, n):
    names = tuple(PlayerSeat(f"N{i}") for i in range(n))
    outcome = table.execute(NewGame(game="tv-wars", players=names))
    assert isinstance(outcome.refusal, IllegalCommand)
    assert "2 to 4" in str(outcome.refusal)
    assert table.session is None
    assert table.journal.games() == []


def test_tv_wars_set_up_refuses_repeated_or_reserved_names(table):
    for players in (
        (PlayerSeat("ABS"), PlayerSeat("ABS")),
        (PlayerSeat("ABS"), PlayerSeat(BANK)),
        (PlayerSeat("ABS"), PlayerSeat("  ")),
    ):
        outcome = table.execute(NewGame(game="tv-wars", players=players))
        assert isinstance(outcome.refusal, MalformedCommand), players
    assert table.journal.games() == []


def test_tv_wars_2_3_starting_programming_is_20_half_hours(table):
    start_tv_wars(table, 3)
    assert [n.half_hours.value for n in table.state.networks] == [20, 20, 20]


# -- 9.5 On the Air ----------------------------------------------------------------------------------------


def test_tv_wars_9_5_passing_on_the_air_pays_3000(table):
    game_id = start_tv_wars(table, 2, roll_off=False)
    outcome = accepted(table, PassOnTheAir(network="CBA"))
    assert cash(table) == {"ABS": 31_000, "CBA": 34_000}
    (record,) = outcome.records
    assert record.type == MONEY_MOVED
    assert record.payload["payer"] == BANK and record.payload["payee"] == "CBA"
    assert record.payload["amount"] == 3_000 and record.payload["rule"] == "TV Wars 9.5"
    assert "TV Wars 9.5" in outcome.message and "$3,000" in outcome.message
    assert [r["seq"] for r in read_events(table.journal.path, game_id)][-1] == record.seq


def test_tv_wars_9_5_button_mashed_ten_times_gives_ten_separate_events(table):
    """Ten presses of the On the Air button → ten separate, well-formed events; +$30,000."""
    game_id = start_tv_wars(table, 2, roll_off=False)
    for _ in range(10):
        table.post(PassOnTheAir(network="ABS", source="button"))
    outcomes = table.process_pending()
    assert len(outcomes) == 10 and all(o.accepted for o in outcomes)
    assert cash(table)["ABS"] == 31_000 + 30_000
    rows = [r for r in read_events(table.journal.path, game_id) if r["type"] == MONEY_MOVED]
    assert len(rows) == 10
    assert len({r["seq"] for r in rows}) == 10 and len({r["move"] for r in rows}) == 10
    for row in rows:
        assert row["move"] == row["seq"]
        assert row["payload"] == {
            "payer": BANK,
            "payee": "ABS",
            "amount": 3000,
            "reason": "passed On the Air",
            "rule": "TV Wars 9.5",
            "by": "button",
        }
        assert row["schema_version"] == 1
    assert len([h for h in table.history() if h.kind == "move"]) == 10


def test_tv_wars_9_5_unknown_network_refused(table):
    start_tv_wars(table, 2, roll_off=False)
    error = refused(table, PassOnTheAir(network="XYZ"), MalformedCommand)
    assert "XYZ" in str(error)


# -- 9.4 Sponsor ---------------------------------------------------------------------------------------------


def test_tv_wars_9_4_sponsor_pays_500_per_half_hour_default_20_is_10000(table):
    start_tv_wars(table, 2, roll_off=False)
    outcome = accepted(table, LandOnSponsor(network="ABS"))
    assert cash(table)["ABS"] == 41_000
    (record,) = outcome.records
    assert record.payload["amount"] == 10_000 and record.payload["rule"] == "TV Wars 9.4"


def test_tv_wars_9_4_sponsor_follows_the_programming_track(table):
    start_tv_wars(table, 2, roll_off=False)
    accepted(table, AdjustTrack(player="CBA", track="half_hours", delta=-7))
    accepted(table, LandOnSponsor(network="CBA"))
    assert cash(table)["CBA"] == 31_000 + 13 * 500


def test_tv_wars_9_4_sponsor_with_half_hours_updates_track_as_one_undoable_move(table):
    start_tv_wars(table, 2, roll_off=False)
    before = table.state
    outcome = accepted(table, LandOnSponsor(network="ABS", half_hours=12))
    assert [r.type for r in outcome.records] == ["track_changed", MONEY_MOVED]
    assert len({r.move for r in outcome.records}) == 1
    assert table.state.network("ABS").half_hours.value == 12
    assert cash(table)["ABS"] == 31_000 + 6_000
    undo = accepted(table, Undo())
    assert table.state == before
    assert "$6,000" in undo.message and "12 half-hours" in undo.message


def test_tv_wars_9_4_sponsor_with_no_programming_refused(table):
    start_tv_wars(table, 2, roll_off=False)
    error = refused(table, LandOnSponsor(network="ABS", half_hours=0), IllegalCommand)
    assert error.rule == "TV Wars 9.4"
    accepted(table, AdjustTrack(player="ABS", track="half_hours", delta=-20))
    refused(table, LandOnSponsor(network="ABS"), IllegalCommand)


@pytest.mark.parametrize("half_hours", [-1, 12.5, 20.0, "12", True, 10_000])
def test_tv_wars_9_4_sponsor_bad_half_hours_refused(table, half_hours):
    start_tv_wars(table, 2)
    refused(table, LandOnSponsor(network="ABS", half_hours=half_hours), CommandError)


def test_tv_wars_track_bounds_and_unknown_track_refused(table):
    start_tv_wars(table, 2)
    refused(table, AdjustTrack(player="ABS", track="half_hours", delta=-21), IllegalCommand)
    refused(table, AdjustTrack(player="ABS", track="rating", delta=1), MalformedCommand)
    refused(table, AdjustTrack(player="ABS", track="half_hours", delta=1.0), MalformedCommand)
    refused(table, AdjustTrack(player="XYZ", track="half_hours", delta=1), MalformedCommand)


# -- 2.5 Best Network News roll-off -----------------------------------------------------------------------


def roll(table, network, *values):
    return accepted(table, AnswerDice(roller=network, values=values, source="manual"))


def test_tv_wars_2_5_highest_roll_gets_best_network_news(table):
    start_tv_wars(table, 3)
    roll(table, "ABS", 3, 4)
    roll(table, "CBA", 6, 5)
    outcome = roll(table, "PBC", 2, 2)
    assert [r.type for r in outcome.records] == ["dice_rolled", "best_network_news_awarded"]
    assert table.state.best_network_news == "CBA" and table.state.roll_off is None
    assert table.view().pending_dice is None
    badges = {p.name: p.badges for p in table.view().players}
    assert badges == {"ABS": (), "CBA": ("Best Network News",), "PBC": ()}
    assert "TV Wars 2.5" in outcome.message
    dice = outcome.records[0].payload
    assert dice["values"] == [2, 2] and dice["source"] == "manual" and dice["roller"] == "PBC"


def test_tv_wars_2_5_a_tie_below_the_highest_needs_no_reroll(table):
    start_tv_wars(table, 3)
    roll(table, "ABS", 6, 6)
    roll(table, "CBA", 2, 3)
    roll(table, "PBC", 1, 4)
    assert table.state.best_network_news == "ABS"


def test_tv_wars_2_5_tie_for_highest_rerolls_among_only_the_tied(table):
    start_tv_wars(table, 4)
    roll(table, "ABS", 3, 4)  # 7
    roll(table, "CBA", 1, 1)  # 2
    roll(table, "PBC", 5, 2)  # 7
    outcome = roll(table, "NBS", 6, 1)  # 7: three-way tie
    assert [r.type for r in outcome.records] == ["dice_rolled", "roll_off_tied"]
    assert outcome.records[1].payload["networks"] == ["ABS", "PBC", "NBS"]
    assert table.state.roll_off.contenders == ("ABS", "PBC", "NBS")
    assert table.state.best_network_news is None
    assert table.view().pending_dice.roller == "ABS"
    refused(table, AnswerDice(roller="CBA", values=(6, 6)), DiceError)  # CBA is out of the re-roll
    roll(table, "ABS", 6, 6)  # 12
    roll(table, "PBC", 6, 6)  # 12
    roll(table, "NBS", 1, 2)  # 3: ABS and PBC tie again
    assert table.state.roll_off.contenders == ("ABS", "PBC") and table.state.roll_off.round == 3
    assert "re-roll 2" in table.view().pending_dice.reason
    roll(table, "ABS", 1, 1)
    roll(table, "PBC", 1, 2)
    assert table.state.best_network_news == "PBC" and table.state.roll_off is None


def test_tv_wars_2_5_roll_off_can_be_switched_off_by_house_rule(table):
    start_tv_wars(table, 3, roll_off=False)
    assert table.state.best_network_news == "ABS"
    assert table.view().pending_dice is None
    refused(table, AnswerDice(roller="ABS", values=(1, 2)), IllegalCommand)
    refused(table, RollDice(roller="ABS"), CommandError)


def test_tv_wars_2_5_built_in_dice_are_journaled_with_their_source(table):
    game_id = start_tv_wars(table, 2)
    outcome = accepted(table, RollDice(roller="ABS", source="button"))
    payload = outcome.records[0].payload
    assert payload["source"] == "built-in" and payload["roller"] == "ABS"
    assert len(payload["values"]) == 2 and all(1 <= v <= 6 for v in payload["values"])
    assert payload["rule"] == "TV Wars 2.5"
    assert payload["by"] == "button", "the command's own source (the button) must be journaled"
    assert read_events(table.journal.path, game_id)[-1]["payload"]["values"] == payload["values"]


@pytest.mark.parametrize("values", [(6, 7), (0, 3), (3,), (1, 2, 3), (), (2.0, 3), (True, 3), ("6", "6")])
def test_tv_wars_2_5_bad_dice_values_refused(table, values):
    start_tv_wars(table, 2)
    error = refused(table, AnswerDice(roller="ABS", values=values, source="manual"), DiceError)
    assert "d6" in str(error)


def test_tv_wars_2_5_dice_from_the_wrong_roller_refused(table):
    start_tv_wars(table, 2)
    error = refused(table, AnswerDice(roller="CBA", values=(3, 3)), DiceError)
    assert "ABS" in str(error)
    refused(table, RollDice(roller="CBA"), DiceError)
    refused(table, AnswerDice(roller="XYZ", values=(3, 3)), DiceError)
    roll(table, "ABS", 3, 3)
    refused(table, AnswerDice(roller="ABS", values=(3, 3)), DiceError)  # ABS already rolled this round


# -- transfers and bad input ------------------------------------------------------------------------------


def test_transfer_between_networks_and_the_bank(table):
    start_tv_wars(table, 3)
    accepted(table, TransferMoney(payer="ABS", payee="CBA", amount=1_500, reason="bid"))
    accepted(table, TransferMoney(payer="PBC", payee=BANK, amount=31_000, reason="everything"))
    accepted(table, TransferMoney(payer=BANK, payee="PBC", amount=500, reason="refund"))
    assert cash(table) == {"ABS": 29_500, "CBA": 32_500, "PBC": 500}


@pytest.mark.parametrize("amount", [0, -500, 2.5, 1000.0, True, False, "1000", None])
def test_bad_amounts_refused(table, amount):
    start_tv_wars(table, 2)
    refused(table, TransferMoney(payer="ABS", payee="CBA", amount=amount, reason="x"), MalformedCommand)


@pytest.mark.parametrize("payer,payee", [("ABS", "XYZ"), ("XYZ", "ABS"), ("ABS", "ABS"), (BANK, BANK), ("abs", "CBA")])
def test_unknown_or_same_party_refused(table, payer, payee):
    start_tv_wars(table, 2)
    refused(table, TransferMoney(payer=payer, payee=payee, amount=100, reason="x"), MalformedCommand)


@pytest.mark.parametrize("reason", ["", "   ", None, 5])
def test_transfer_without_a_reason_refused(table, reason):
    start_tv_wars(table, 2)
    refused(table, TransferMoney(payer="ABS", payee="CBA", amount=100, reason=reason), MalformedCommand)


def test_paying_more_than_the_balance_refused(table):
    """TV Wars 4: no loans."""
    start_tv_wars(table, 2)
    error = refused(table, TransferMoney(payer="ABS", payee="CBA", amount=31_001, reason="too much"), InsufficientFunds)
    assert "$31,000" in str(error) and "$31,001" in str(error)
    accepted(table, TransferMoney(payer="ABS", payee="CBA", amount=31_000, reason="all of it"))
    refused(table, TransferMoney(payer="ABS", payee=BANK, amount=500, reason="broke"), InsufficientFunds)


def test_commands_for_a_finished_game_refused(table):
    game_id = start_tv_wars(table, 2)
    accepted(table, EndGame(reason="time's up"))
    assert table.journal.game(game_id).status == "finished"
    assert table.view().finished and "time's up" in table.view().status
    for command in (
        PassOnTheAir(network="ABS"),
        LandOnSponsor(network="ABS"),
        TransferMoney(payer="ABS", payee="CBA", amount=1, reason="x"),
        AdjustTrack(player="ABS", track="half_hours", delta=1),
        AnswerDice(roller="ABS", values=(1, 1)),
        RollDice(roller="ABS"),
        EndGame(),
    ):
        refused(table, command, GameFinished)


def test_commands_with_no_game_open_refused(table):
    for command in (
        PassOnTheAir(network="ABS"),
        TransferMoney(payer="ABS", payee="CBA", amount=1, reason="x"),
        RollDice(roller="ABS"),
        Undo(),
        EndGame(),
    ):
        outcome = table.execute(command)
        assert isinstance(outcome.refusal, NoGameOpen)
    assert table.journal.games() == [] and table.state is None and table.view() is None


def test_unknown_game_refused(table):
    outcome = table.execute(NewGame(game="monopoly", players=seats(2)))
    assert "tv-wars" in str(outcome.refusal) and not outcome.accepted
    assert table.journal.games() == []


def test_a_listener_hears_refusals_and_acceptances(table):
    heard = []
    table.subscribe(lambda t, outcome: heard.append((outcome.accepted, outcome.message)))
    start_tv_wars(table, 2, roll_off=False)
    table.execute(PassOnTheAir(network="XYZ"))
    assert [a for a, _ in heard] == [True, False]
    assert "XYZ" in heard[1][1]


# -- money is conserved -------------------------------------------------------------------------------------

money_commands = st.one_of(
    st.builds(lambda n: ("air", n), st.integers(0, 3)),
    st.builds(lambda n, h: ("sponsor", n, h), st.integers(0, 3), st.one_of(st.none(), st.integers(-2, 40))),
    st.builds(
        lambda a, b, amount: ("pay", a, b, amount),
        st.integers(-1, 3),
        st.integers(-1, 3),
        st.one_of(st.integers(-1_000, 60_000), st.sampled_from([500, 1_000, 31_000])),
    ),
    st.builds(lambda n, d: ("track", n, d), st.integers(0, 3), st.integers(-25, 25)),
    st.builds(lambda k: ("undo", k), st.integers(1, 3)),
    st.just(("redo",)),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 4), commands=st.lists(money_commands, max_size=30))
def test_money_is_conserved(table_factory, n, commands):
    """sum of balances == $31,000 × n (2.4) + what the bank paid out − what was paid to the bank, as
    computed from the in-force money_moved events of the ledger."""
    table = table_factory()
    try:
        game_id = start_tv_wars(table, n)
        names = NETWORKS[:n]

        def who(i):
            return BANK if i < 0 else names[i % n]

        for command in commands:
            kind = command[0]
            if kind == "air":
                table.execute(PassOnTheAir(network=who(command[1])))
            elif kind == "sponsor":
                table.execute(LandOnSponsor(network=who(command[1]), half_hours=command[2]))
            elif kind == "pay":
                table.execute(
                    TransferMoney(payer=who(command[1]), payee=who(command[2]), amount=command[3], reason="test")
                )
            elif kind == "track":
                table.execute(AdjustTrack(player=who(command[1]), track="half_hours", delta=command[2]))
            elif kind == "undo":
                table.execute(Undo(steps=command[1]))
            else:
                table.execute(Redo())
        in_force = set(table.session.line)
        paid_out = paid_in = 0
        for row in read_events(table.journal.path, game_id):
            if row["type"] == MONEY_MOVED and row["move"] in in_force:
                if row["payload"]["payer"] == BANK:
                    paid_out += row["payload"]["amount"]
                if row["payload"]["payee"] == BANK:
                    paid_in += row["payload"]["amount"]
        balances = table.state.balances
        assert sum(balances.values()) == 31_000 * n + paid_out - paid_in
        assert all(value >= 0 for value in balances.values())
        # and each network's balance is its own ledger
        for name in names:
            mine = 31_000
            for row in read_events(table.journal.path, game_id):
                if row["type"] == MONEY_MOVED and row["move"] in in_force:
                    mine += row["payload"]["amount"] * (
                        (row["payload"]["payee"] == name) - (row["payload"]["payer"] == name)
                    )
            assert balances[name] == mine
    finally:
        table.journal.close()
