"""TV Wars meets the one game contract (issue 15, :class:`companion.game.Game`): found by name as itself,
its house rules as data, its legal commands with the rules' own reasons, its outcome and its figures."""

from __future__ import annotations

import pytest
from conftest import start_tv_wars
from test_tv_wars_core import accepted

from companion.commands import AnswerDice, EndGame, RollDice
from companion.errors import BadOption
from companion.game import Game, LegalCommand, PrivateView, Termination
from companion.games import find_game, game_info
from companion.games.tv_wars import TV_WARS, LandOn
from companion.games.tv_wars.info import INFO


def test_the_registry_gives_tv_wars_itself_and_it_meets_the_contract():
    assert find_game("tv-wars") is TV_WARS
    assert isinstance(TV_WARS, Game) and TV_WARS.info is INFO is game_info("tv-wars")
    assert isinstance(TV_WARS.safe_point_events, frozenset) and "game_ended" in TV_WARS.safe_point_events
    assert {"money_moved", "game_ended", "ratings_war_ended"} <= TV_WARS.events.types


def test_house_rules_are_data_with_rule_citing_help_and_check_options_uses_them():
    assert {o.name: (o.kind, o.default) for o in INFO.options} == {
        "roll_off": (bool, True),
        "starting_cash": (int, 31_000),
        "counter_programming_four": (int, -30),
        "situation_comedies_per_length": (bool, False),
    }
    assert all("TV Wars" in o.help for o in INFO.options)
    assert TV_WARS.check_options({}) == {o.name: o.default for o in INFO.options}
    with pytest.raises(
        BadOption, match="known: roll_off, starting_cash, counter_programming_four, situation_comedies_per_length"
    ):
        TV_WARS.check_options({"loans": True})
    with pytest.raises(BadOption):
        TV_WARS.check_options({"starting_cash": -1})


def _offer(offers: tuple[LegalCommand, ...], kind: str) -> LegalCommand:
    (found,) = [o for o in offers if o.kind == kind]
    return found


def test_legal_commands_give_the_rules_reasons_and_the_dice_roller(table):
    start_tv_wars(table, 2)
    state = table.state
    abs_offers = TV_WARS.legal_commands(state, "ABS")
    on_air = _offer(abs_offers, "PassOnTheAir")
    assert not on_air.enabled and on_air.rule == "TV Wars 2.5" and "roll-off" in on_air.reason
    assert _offer(abs_offers, "RollDice").enabled and _offer(abs_offers, "RollDice").command == RollDice(roller="ABS")
    cba_roll = _offer(TV_WARS.legal_commands(state, "CBA"), "RollDice")
    assert not cba_roll.enabled and cba_roll.rule == "TV Wars 2.5"
    assert _offer(abs_offers, "SelectStartingProgramming").command is None  # the tiles are still to choose


def test_legal_commands_offer_the_landing_only_to_the_network_whose_turn_it_is(table):
    from test_tv_wars_play import playing

    playing(table, 2)
    mover = table.state.turn
    other = next(name for name in table.state.names if name != mover)
    assert _offer(TV_WARS.legal_commands(table.state, mover), "LandOn").enabled
    assert not [o for o in TV_WARS.legal_commands(table.state, other) if o.kind == "LandOn"]
    for offer in TV_WARS.legal_commands(table.state, other):  # an enabled complete offer is accepted as it is
        if offer.enabled and offer.command is not None and offer.kind != "RollDice":
            TV_WARS.decide(table.state, offer.command)
    accepted(table, LandOn(network=mover, space="sponsor"))
    assert table.state.turn == other


def test_outcome_of_a_game_ended_at_the_table_and_private_view(table):
    start_tv_wars(table, 2, roll_off=False)
    assert TV_WARS.outcome(table.state) is None
    private = TV_WARS.private_view(table.state, "ABS")
    assert private == PrivateView("ABS", ("No tiles entered yet (TV Wars 2.3)",), ())
    accepted(table, EndGame(reason="time's up"))
    result = TV_WARS.outcome(table.state)
    assert result.termination is Termination.ENDED_BY_HAND and result.winners == ()
    assert result.reason == "Ended at the table: time's up"
    assert result.figures == TV_WARS.figures(table.state)
    assert list(result.figures) == ["ABS", "CBA"] and result.figures["ABS"]["cash"] == 31_000
    assert result.figures["ABS"]["half_hours"] == 20


def test_a_roll_off_answer_is_refused_for_the_wrong_roller_as_legal_commands_say(table):
    start_tv_wars(table, 2)
    offer = _offer(TV_WARS.legal_commands(table.state, "CBA"), "RollDice")
    assert not offer.enabled
    outcome = table.execute(AnswerDice(roller="CBA", values=(3, 4)))
    assert not outcome.accepted


def test_the_ratings_war_calculator_is_tv_wars_own_cli_hook_loaded_through_the_registry():
    from companion.cli import build_parser
    from companion.games import load_attribute

    assert INFO.cli == "companion.games.tv_wars.cli:add_subcommands"
    assert callable(load_attribute(INFO.cli))
    args = build_parser().parse_args(["ratings-war", "line-ups.toml", "--odds"])
    assert args.command == "ratings-war" and args.odds and args.run.__module__ == "companion.games.tv_wars.cli"
