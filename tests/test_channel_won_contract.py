"""Channel WON meets the one game contract (companion.game.Game, issue 15): its options as data, legal commands
with why not, the outcome with its termination and rule, each reporter's figures and private view."""

from __future__ import annotations

import random

import pytest
from table_helpers import accepted
from test_channel_won_core import everyone_done, play_round, play_to_phase2, start, tied_after_two_rounds

from companion.commands import EndGame
from companion.errors import BadOption, IllegalCommand, MalformedCommand
from companion.game import Game, Termination
from companion.games import find_game
from companion.games.channel_won import (
    CHANNEL_WON,
    CloseLead,
    CollectCard,
    DeclareDone,
    Pass,
    PlayLocation,
    PlaySource,
)
from companion.games.channel_won.info import INFO


def test_the_rules_object_is_the_registered_game_and_meets_the_contract():
    assert find_game("channel-won") is CHANNEL_WON
    assert isinstance(CHANNEL_WON, Game) and CHANNEL_WON.info is INFO
    assert {"round_started", "game_over", "game_ended"} == set(CHANNEL_WON.safe_point_events)
    assert isinstance(CHANNEL_WON.safe_point_events, frozenset)
    assert CHANNEL_WON.safe_point_events <= CHANNEL_WON.events.types


def test_every_option_has_a_kind_a_default_and_help():
    names = [spec.name for spec in INFO.options]
    assert names == [
        "categories",
        "leads",
        "characters",
        "first_player",
        "score_open_leads",
        "next_round_order",
        "catalogue",
    ]
    for spec in INFO.options:
        assert spec.help and spec.kind in (list, dict, str, bool), spec
        assert spec.default is None or isinstance(spec.default, spec.kind), spec
    assert INFO.option("next_round_order").choices == ("clockwise", "fewest_points")
    assert INFO.option("catalogue").read_file == "companion.games.channel_won.rules:read_catalogue_option"
    assert CHANNEL_WON.check_options({}) == {spec.name: spec.default for spec in INFO.options}


@pytest.mark.parametrize(
    "option, value",
    [
        ("score_open_leads", "yes"),
        ("next_round_order", "random"),
        ("categories", "Sports"),
        ("leads", ["Sports"]),
        ("characters", "Trey DeMark"),
        ("first_player", 3),
        ("catalogue", {"category": "Sports"}),
        ("stars", 4),
    ],
)
def test_an_option_of_the_wrong_kind_is_refused_naming_it(option, value):
    with pytest.raises(BadOption) as caught:
        CHANNEL_WON.check_options({option: value})
    assert caught.value.option == option


def by_action(moves, lead=""):
    return {(m.action, m.category if m.action == "source" else ""): m for m in moves if m.lead == lead}


def test_phase_1_offers_collecting_to_the_turn_only(table):
    start(table, 2)
    state = table.state
    ava = [m for m in CHANNEL_WON.legal_commands(state, "Ava") if m.action == "collect"]
    assert all(m.enabled for m in ava) and ava[0].command == CollectCard(player="Ava", kind="location")
    assert [m.category for m in CHANNEL_WON.legal_commands(state, "Ava") if m.action == "collect"] == [
        "location",
        "source",
        "scoop",
    ]
    ben = [m for m in CHANNEL_WON.legal_commands(state, "Ben") if m.action == "collect"]
    assert ben and not any(m.enabled for m in ben)
    assert all(m.short == "not your turn" and "Phase 1" in m.rule and "Ava's turn" in m.reason for m in ben)
    with pytest.raises(MalformedCommand):
        CHANNEL_WON.legal_commands(state, "Nobody")


def test_phase_2_on_a_lead_what_is_offered_and_why_not(table):
    play_to_phase2(table)
    moves = by_action(CHANNEL_WON.legal_commands(table.state, "Ava"), "Sports")
    assert moves[("location", "")].enabled and moves[("close", "")].enabled
    assert moves[("location", "")].command == PlayLocation(player="Ava", lead="Sports")
    for action, short, rule in (
        ("star_witness", "needs its Location", "Locations"),
        ("discredit", "closed Leads only", "Discredit"),
        ("final_touch", "closed Leads only", "Final Touch"),
    ):
        move = moves[(action, "")]
        assert not move.enabled and move.short == short and rule in move.rule, move
    source = moves[("source", "Sports")]
    assert not source.enabled and source.short == "needs its Location" and source.command is None
    bonus = moves[("source", "Business")]
    assert not bonus.enabled and bonus.short == "closed Leads only" and "Bonus Sources" in bonus.rule
    accepted(table, PlayLocation(player="Ava", lead="Sports"))
    accepted(table, PlaySource(player="Ben", lead="Sports", value=2))
    accepted(table, CloseLead(player="Ava", lead="Sports"))
    moves = by_action(CHANNEL_WON.legal_commands(table.state, "Ben"), "Sports")
    assert moves[("close", "")].short == "already closed"
    assert moves[("location", "")].short == "has its Location" == moves[("security_footage", "")].short
    assert moves[("star_witness", "")].short == "Lead is closed"
    assert moves[("discredit", "")].enabled and moves[("final_touch", "")].enabled
    assert moves[("source", "Business")].enabled and not moves[("source", "Sports")].enabled
    ava = by_action(CHANNEL_WON.legal_commands(table.state, "Ava"))
    assert ava[("early_bird", "")].enabled  # right after her own action
    assert not by_action(CHANNEL_WON.legal_commands(table.state, "Ben"))[("early_bird", "")].enabled


def test_pass_then_done_as_offered(table):
    play_to_phase2(table)
    accepted(table, Pass(player="Ava"))
    accepted(table, Pass(player="Ben"))
    ava = by_action(CHANNEL_WON.legal_commands(table.state, "Ava"))
    assert not ava[("pass", "")].enabled and ava[("pass", "")].short == "passed already"
    assert "Passing" in ava[("pass", "")].rule and ava[("done", "")].enabled


def test_legal_commands_agree_with_decide_through_a_random_game(table):
    """Every complete command offered is accepted by ``decide`` exactly when it is enabled, a disabled one is
    refused with its reason and rule, and the player whose turn it is always has something enabled."""
    rng = random.Random(15)
    start(table, 3)
    for _ in range(400):
        state = table.state
        if state.finished:
            break
        for seat in state.names:
            for move in CHANNEL_WON.legal_commands(state, seat):
                if move.command is None:
                    continue
                try:
                    CHANNEL_WON.decide(state, move.command)
                except IllegalCommand as error:
                    assert not move.enabled and (error.reason, error.rule or "") == (move.reason, move.rule), move
                else:
                    assert move.enabled, move
        offered = [m for m in CHANNEL_WON.legal_commands(state, state.turn) if m.enabled]
        assert offered, f"nothing offered to {state.turn}"
        move = rng.choice(offered)
        command = move.command
        if command is None:  # a Source: the player enters the printed value
            bonus = move.category != move.lead
            value = rng.choice((-1, 1, 2)) if bonus else 2
            command = PlaySource(
                player=state.turn, lead=move.lead, value=value, category=move.category if bonus else ""
            )
        accepted(table, command)
    assert table.state.finished, "the random game did not end in 400 moves"
    assert CHANNEL_WON.legal_commands(table.state, table.state.names[0]) == ()


def test_outcome_won_with_its_rule(table):
    assert CHANNEL_WON.outcome(CHANNEL_WON.new_game(table_seats(), {})) is None
    start(table, 2)
    for plan in (
        {"Ava": [("Crime", 5)], "Ben": [("Sports", 1), ("Business", 1)]},
        {"Ava": [("Crime", 1)], "Ben": [("Sports", 1), ("Business", 1)]},
        {"Ava": [("Fluff", 1)], "Ben": [("Sports", 1), ("Business", 1)]},
    ):
        assert CHANNEL_WON.outcome(table.state) is None
        play_round(table, plan)
    outcome = CHANNEL_WON.outcome(table.state)
    assert outcome.termination is Termination.WON and outcome.winners == ("Ava",)
    assert outcome.ranking == ("Ava", "Ben") and "Ending the Game" in outcome.reason and "7 points" in outcome.reason
    assert outcome.figures["Ava"]["points"] == 7 and outcome.figures["Ben"]["points"] == 6


def table_seats():
    from test_channel_won_core import seats

    return seats(2)


def test_outcome_tie_broken_by_leads_reported_then_co_anchors(table):
    tied_after_two_rounds(table)
    play_round(table, {"Ava": [("Crime", 1), ("Business", 1)], "Ben": [("Sports", 2)]})
    outcome = CHANNEL_WON.outcome(table.state)
    assert outcome.termination is Termination.WON and outcome.winners == ("Ava",) and outcome.ranking == ("Ava", "Ben")
    assert "most Leads reported in the final round: Ava 2, Ben 1" in outcome.reason


def test_outcome_co_anchors(table):
    tied_after_two_rounds(table)
    play_round(table, {"Ava": [("Crime", 2)], "Ben": [("Sports", 2)]})
    outcome = CHANNEL_WON.outcome(table.state)
    assert outcome.termination is Termination.WON and outcome.winners == ("Ava", "Ben")
    assert "co-anchors" in outcome.reason and "Ava 1, Ben 1" in outcome.reason


def test_outcome_channel_none_and_ended_by_hand(table):
    play_to_phase2(table, n=5)
    everyone_done(table)
    outcome = CHANNEL_WON.outcome(table.state)
    assert outcome.termination is Termination.ALL_LOST and outcome.winners == () and outcome.ranking == ()
    assert "Channel None" in outcome.reason and "Network Ratings" in outcome.reason
    start(table, 2)
    accepted(table, EndGame(reason="dinner"))
    outcome = CHANNEL_WON.outcome(table.state)
    assert outcome.termination is Termination.ENDED_BY_HAND and "dinner" in outcome.reason


def test_figures_and_private_view_per_reporter(table):
    play_to_phase2(table)
    accepted(table, PlayLocation(player="Ava", lead="Sports"))
    figures = CHANNEL_WON.figures(table.state)
    assert list(figures) == ["Ava", "Ben"]
    assert figures["Ava"] == {
        "points": 0,
        "reporter_tiles": 2,
        "cards": 6,
        "leads": 1,
        "pass_token": "play",
        "power": "ready",
        "stars": 5,
    }
    assert figures["Ben"]["cards"] == 7 and figures["Ben"]["reporter_tiles"] == 3
    accepted(table, DeclareDone(player="Ben"))
    private = CHANNEL_WON.private_view(table.state, "Ava")
    assert private.seat == "Ava" and all(len(line) <= 21 for line in private.lines)
    assert private.lines[0] == "Hand 6/7 cards"
    items = dict(private.items)
    assert items["Cards in hand"] == "6 of 7" and items["Reporting on"] == "Sports"
    assert dict(CHANNEL_WON.private_view(table.state, "Ben").items)["Pass Token"] == "done"
