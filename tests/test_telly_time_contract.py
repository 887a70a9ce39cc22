"""Telly Time meets the game contract (companion/game.py, issue #15): its options as data, what each seat may
do now and why not (``legal_commands``, the same reasons ``decide`` refuses with), how the game came out
(``outcome``), each seat's figures, its private view, and the shared ``TransferMoney`` in whole $M."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from telly_time_helpers import PLAYERS, TILES, accepted, by_kind, refused, start, started

from companion.commands import BANK, EndGame, PlayerSeat, TransferMoney, Undo
from companion.errors import BadOption, CommandError, InsufficientFunds, MalformedCommand
from companion.game import Game, LegalCommand, Termination
from companion.games import find_game
from companion.games.telly_time import (
    TELLY_TIME,
    AdjustCash,
    AdjustViewers,
    ChooseMogulLine,
    ChoosePilotShow,
    EnterTile,
    KeepPilotCards,
    Pass,
    PilotCard,
    PlaceGridMarker,
    ProduceShow,
    ScoreEndGame,
    ScoreLineup,
    SetGridSquare,
    SetLineBonus,
    ShowScore,
    StartSeason,
    TakeAction,
    Writeoff,
)
from companion.games.telly_time.info import INFO

RULES = TELLY_TIME


def score_all(table, player):
    shows = tuple(ShowScore(slot, 0) for slot in ("8pm", "primetime", "late_night", "weekend"))
    return accepted(table, ScoreLineup(player=player, shows=shows))


def play_to_the_end(table, end_bonuses=((("Ads", 3),), ())):
    for _ in range(5):
        for player in table.state.order:
            accepted(table, Pass(player=player, reward="viewers", amount=1))
        for player in PLAYERS:
            score_all(table, player)
    for player, bonuses in zip(PLAYERS, end_bonuses):
        accepted(table, ScoreEndGame(player=player, bonuses=bonuses))


# -- the contract ----------------------------------------------------------------------------------------------


def test_the_registered_game_is_the_rules_object_and_meets_the_contract():
    assert find_game("telly-time") is TELLY_TIME
    assert isinstance(TELLY_TIME, Game) and TELLY_TIME.info is INFO
    assert TELLY_TIME.safe_point_events == {"season_started", "end_scoring_started", "game_over", "game_ended"}
    assert TELLY_TIME.safe_point_events <= TELLY_TIME.events.types
    assert isinstance(TELLY_TIME.state_version, int)


def test_options_are_data_with_kinds_defaults_and_rules():
    specs = {spec.name: spec for spec in INFO.options}
    checked = RULES.check_options({})
    assert set(checked) == set(specs)
    for name, spec in specs.items():
        assert checked[name] == spec.default, name
        assert spec.default is None or isinstance(spec.default, spec.kind), name
        assert "Telly Time:" in spec.help or "ruling" in spec.help, name
    assert specs["turn_order"].choices == ("pass_order", "seat")
    checked["genres"].append("Western")  # the returned defaults are copies
    assert "Western" not in INFO.option("genres").default
    with pytest.raises(BadOption) as error:
        RULES.check_options({"turn_order": "random"})
    assert error.value.option == "turn_order" and "'pass_order' or 'seat'" in str(error.value)
    with pytest.raises(BadOption):
        RULES.check_options({"starting_cash_m": True})  # a bool is not a number of $M
    with pytest.raises(BadOption):
        RULES.check_options({"first_player": 3})
    assert RULES.check_options({"first_player": "Virginia", "genres": tuple(INFO.option("genres").default)})


# -- legal commands ----------------------------------------------------------------------------------------------


def test_pilot_season_offers_and_explains(table):
    start(table)
    offered = RULES.legal_commands(table.state, "Arkady")
    assert [c.label for c in offered] == [
        "Pilot show",
        "Keep 2 cards",
        "Line bonus",
        "Start season 1",
        "Cash ±",
        "Viewers ±",
        "Genre of a square",
        "Enter tile",
    ]
    kinds = by_kind(table, "Arkady")
    assert kinds["ChoosePilotShow"].enabled and kinds["ChoosePilotShow"].command is None
    bonus = kinds["SetLineBonus"]
    assert not bonus.enabled and "choose the Pilot Season show first" in bonus.reason
    assert bonus.rule == "Telly Time: Telly Time Pilot Season"
    begin = kinds["StartSeason"]
    assert begin.command == StartSeason() and not begin.enabled
    assert begin.reason == "Arkady has not placed a Pilot Season show"
    error = refused(table, begin.command, CommandError)
    assert (error.reason, error.rule) == (begin.reason, begin.rule)  # the same words as the refusal
    accepted(table, ChoosePilotShow(player="Arkady", genre="Comedy", timeslot="8pm"))
    kinds = by_kind(table, "Arkady")
    assert not kinds["ChoosePilotShow"].enabled and "already has the Comedy tile" in kinds["ChoosePilotShow"].reason
    assert kinds["SetLineBonus"].enabled and kinds["SetGridSquare"].enabled
    assert by_kind(table, "Virginia")["StartSeason"].reason == "Arkady has not kept 2 stars/ads"  # the same for all
    accepted(table, KeepPilotCards(player="Arkady", cards=(PilotCard("ad"), PilotCard("ad"))))
    assert by_kind(table, "Arkady")["StartSeason"].reason == "Virginia has not placed a Pilot Season show"


def test_a_season_offers_the_turn_to_its_player_only(table):
    started(table)
    assert [c.label for c in RULES.legal_commands(table.state, "Arkady")] == [
        "Produce show",
        "Other action",
        "Pass",
        "Card: marker",
        "Cash ±",
        "Viewers ±",
        "Genre of a square",
        "Enter tile",
    ]
    assert all(c.enabled for c in RULES.legal_commands(table.state, "Arkady"))
    virginia = by_kind(table, "Virginia")
    for kind in ("ProduceShow", "TakeAction", "Pass"):
        assert not virginia[kind].enabled and virginia[kind].reason == "it is Arkady's turn, not Virginia's"
        assert virginia[kind].rule == "The Networks base game, tracked"
    assert virginia["PlaceGridMarker"].enabled and virginia["AdjustCash"].enabled
    error = refused(table, Pass(player="Virginia", reward="cash", amount=1), CommandError)
    assert error.reason == virginia["Pass"].reason
    _check_offers_agree_with_decide(table.state)


def test_a_pending_mogul_choice_is_offered_to_its_player_and_blocks_the_rest(table):
    started(table, moguls=True)
    for genre in ("Drama", "Kids", "Comedy", "Chat"):
        accepted(table, PlaceGridMarker(player="Virginia", genre=genre))
    mine, theirs = by_kind(table, "Virginia"), by_kind(table, "Arkady")
    assert list(mine) == ["ChooseMogulLine", "AdjustCash", "AdjustViewers", "SetGridSquare", "EnterTile"]
    assert mine["ChooseMogulLine"].enabled and mine["ChooseMogulLine"].label == "Mogul line?"
    assert not theirs["ChooseMogulLine"].enabled and theirs["ChooseMogulLine"].reason == (
        "the choice is Virginia's, not Arkady's"
    )
    _check_offers_agree_with_decide(table.state)
    cash = mine["AdjustCash"]
    assert not cash.enabled and cash.rule == "Telly Time: Mogul Bonus"
    error = refused(table, AdjustCash(player="Virginia", amount_m=1, reason="x"), CommandError)
    assert error.reason == cash.reason
    accepted(table, ChooseMogulLine(player="Virginia", line="diag2"))
    assert by_kind(table, "Virginia")["AdjustCash"].enabled


def test_scoring_end_and_a_finished_game(table):
    started(table)
    for player in table.state.order:
        accepted(table, Pass(player=player, reward="viewers", amount=1))
    assert by_kind(table, "Arkady")["ScoreLineup"].enabled
    score_all(table, "Arkady")
    again = by_kind(table, "Arkady")["ScoreLineup"]
    assert not again.enabled and again.reason == "Arkady's lineup is already scored this season"
    _check_offers_agree_with_decide(table.state)
    accepted(table, EndGame(reason="called off"))
    assert RULES.legal_commands(table.state, "Arkady") == ()
    with pytest.raises(MalformedCommand):
        RULES.legal_commands(table.state, "Nobody")


def _probes(seat: str) -> dict[str, list]:
    """Commands of each kind ``seat`` might try (any arguments)."""
    ad = PilotCard("ad")
    genres = ("Drama", "Comedy", "Chat", "Kids", "Reality")
    return {
        "ChoosePilotShow": [ChoosePilotShow(player=seat, genre=g, timeslot="8pm") for g in ("Comedy", "Reality")],
        "KeepPilotCards": [KeepPilotCards(player=seat, cards=(ad, ad))],
        "SetLineBonus": [SetLineBonus(player=seat, line="row2", label="Star bonus")],
        "StartSeason": [StartSeason()],
        "ProduceShow": [ProduceShow(player=seat, name="S", genre=g, timeslot="weekend") for g in genres],
        "TakeAction": [TakeAction(player=seat, action="Sign a star")],
        "Pass": [Pass(player=seat, reward="cash", amount=1)],
        "PlaceGridMarker": [PlaceGridMarker(player=seat, genre=g) for g in genres],
        "ScoreLineup": [ScoreLineup(player=seat, shows=())],
        "ScoreEndGame": [ScoreEndGame(player=seat)],
        "ChooseMogulLine": [ChooseMogulLine(player=seat, line=line) for line in ("col1", "diag2", "row1")],
        "AdjustCash": [AdjustCash(player=seat, amount_m=1, reason="x")],
        "AdjustViewers": [AdjustViewers(player=seat, viewers=1, reason="x")],
        "SetGridSquare": [SetGridSquare(player=seat, square=0, genre="Kids")],
        "EnterTile": [EnterTile(player=seat, squares=("Kids",) + (None,) * 8)],
        "Writeoff": [Writeoff(player=seat, show=ShowScore("8pm", 1))],
    }


def _check_offers_agree_with_decide(state):
    for seat in state.names:
        offered: tuple[LegalCommand, ...] = RULES.legal_commands(state, seat)
        assert len({c.kind for c in offered}) == len(offered)
        for legal in offered:
            if legal.command is not None and legal.enabled:
                RULES.decide(state, legal.command)  # a complete, enabled command is accepted
            if legal.enabled:
                continue
            assert legal.reason
            for command in _probes(seat)[legal.kind]:
                with pytest.raises(CommandError) as error:
                    RULES.decide(state, command)
                assert getattr(error.value, "reason", str(error.value)) == legal.reason, (legal, command)


GENRES = tuple(TILES["Comedy"]["squares"])
KINDS = ("pilot", "keep", "start", "produce", "action", "pass", "marker", "score", "end", "mogul", "cash")


def _command(state, kind, seat, genre, line):
    """A command of ``kind`` by ``seat`` (or, for a turn's command, by whoever's turn it is)."""
    current = state.current or seat
    return {
        "pilot": lambda: ChoosePilotShow(player=seat, genre=("Comedy", "Reality")[PLAYERS.index(seat)], timeslot="8pm"),
        "keep": lambda: KeepPilotCards(player=seat, cards=(PilotCard("ad", cash_m=5), PilotCard("ad"))),
        "start": StartSeason,
        "produce": lambda: ProduceShow(player=current, name="S", genre=genre, timeslot="weekend"),
        "action": lambda: TakeAction(player=current, action="Sign a star"),
        "pass": lambda: Pass(player=current, reward="cash", amount=1),
        "marker": lambda: PlaceGridMarker(player=seat, genre=genre),
        "score": lambda: ScoreLineup(
            player=seat, shows=tuple(ShowScore(s, 1) for s in ("8pm", "primetime", "late_night", "weekend"))
        ),
        "end": lambda: ScoreEndGame(player=seat),
        "mogul": lambda: ChooseMogulLine(player=seat, line=line),
        "cash": lambda: AdjustCash(player=seat, amount_m=-4, reason="x"),
    }[kind]()


@settings(max_examples=80, deadline=None)
@given(
    moguls=st.booleans(),
    from_season=st.booleans(),
    steps=st.lists(
        st.tuples(
            st.sampled_from(KINDS),
            st.sampled_from(PLAYERS),
            st.sampled_from(GENRES),
            st.sampled_from(("row1", "col1", "col2", "diag1", "diag2")),
        ),
        max_size=60,
    ),
)
def test_property_a_disabled_command_is_refused_with_its_reason(moguls, from_season, steps):
    """Whatever the game's state, every command shown disabled is refused by ``decide`` with exactly the
    reason shown (for any arguments), and every complete enabled one is accepted. Half the games start
    from season 1 (the Pilot Season played), so that seasons and their scoring are reached often."""
    state = RULES.new_game(tuple(PlayerSeat(n) for n in PLAYERS), {"tiles": TILES, "moguls": moguls})
    _check_offers_agree_with_decide(state)
    if from_season:
        for kind, seat in [("pilot", "Arkady"), ("pilot", "Virginia"), ("keep", "Arkady"), ("keep", "Virginia")]:
            for event in RULES.decide(state, _command(state, kind, seat, "", "")):
                state = RULES.evolve(state, event)
        for event in RULES.decide(state, StartSeason()):
            state = RULES.evolve(state, event)
    for kind, seat, genre, line in steps:
        try:
            events = RULES.decide(state, _command(state, kind, seat, genre, line))
        except CommandError:
            continue
        for event in events:
            state = RULES.evolve(state, event)
        _check_offers_agree_with_decide(state)


def test_writeoff_is_offered_where_its_clarification_applies(table):
    """ "Telly Time Clarifications", Writeoff: offered in a season and its scoring to a lineup with a show printed
    Chat or Quiz, citing the clarification; not in the Pilot Season, not to a lineup without one."""
    start(table)
    assert "Writeoff" not in by_kind(table, "Arkady")
    for player, genre in zip(PLAYERS, ("Comedy", "Reality")):
        accepted(table, ChoosePilotShow(player=player, genre=genre, timeslot="8pm"))
        accepted(table, KeepPilotCards(player=player, cards=(PilotCard("ad"), PilotCard("ad"))))
    accepted(table, StartSeason())
    assert "Writeoff" not in by_kind(table, "Arkady")
    accepted(table, ProduceShow(player="Arkady", name="Chatty", genre="Chat", timeslot="primetime"))
    writeoff = by_kind(table, "Arkady")["Writeoff"]
    assert writeoff.enabled and writeoff.command is None and writeoff.label == "Writeoff"
    assert writeoff.rule == "Telly Time: Telly Time Clarifications, Writeoff"
    assert "Writeoff" not in by_kind(table, "Virginia")  # her lineup has no Chat or Quiz show
    assert list(by_kind(table, "Arkady"))[-3:] == ["Writeoff", "SetGridSquare", "EnterTile"]
    _check_offers_agree_with_decide(table.state)


# -- outcome, figures, private view ---------------------------------------------------------------------------


def test_outcome_of_a_game_scored_to_the_end(table):
    started(table)
    assert RULES.outcome(table.state) is None
    for _ in range(5):
        for player in table.state.order:
            accepted(table, Pass(player=player, reward="viewers", amount=1))
        for player in PLAYERS:
            score_all(table, player)
    ends = by_kind(table, "Arkady")
    assert list(ends) == ["ScoreEndGame", "AdjustCash", "AdjustViewers", "SetGridSquare", "EnterTile"]
    _check_offers_agree_with_decide(table.state)
    accepted(table, ScoreEndGame(player="Arkady", bonuses=(("Ads", 3),)))
    done = by_kind(table, "Arkady")["ScoreEndGame"]
    assert not done.enabled and done.reason == "Arkady's end-game bonuses are already scored"
    _check_offers_agree_with_decide(table.state)
    accepted(table, ScoreEndGame(player="Virginia", bonuses=()))
    outcome = RULES.outcome(table.state)
    assert outcome.termination is Termination.WON and outcome.winners == ("Arkady",)
    assert outcome.ranking == ("Arkady", "Virginia")
    assert outcome.figures == RULES.figures(table.state)
    assert outcome.reason.startswith("Arkady wins with ") and "the most viewers" in outcome.reason
    assert "Telly Time: End-Game Scoring" in outcome.reason
    accepted(table, Undo())
    assert RULES.outcome(table.state) is None


def test_outcome_of_a_tie_and_of_a_game_ended_at_the_table(table_factory):
    table = table_factory()
    started(table)
    play_to_the_end(table, end_bonuses=((), ()))  # both have the same viewers (the core tests' tie)
    outcome = RULES.outcome(table.state)
    assert outcome.termination is Termination.WON and outcome.winners == ("Arkady", "Virginia")
    assert outcome.reason.startswith("Arkady and Virginia share the win with ")
    other = table_factory()
    started(other)
    accepted(other, EndGame(reason="called off"))
    ended = RULES.outcome(other.state)
    assert ended.termination is Termination.ENDED_BY_HAND and ended.winners == ()
    assert ended.reason == "The game was ended at the table: called off"


def test_figures_per_seat(table):
    started(table)
    accepted(table, PlaceGridMarker(player="Virginia", genre="Drama"))
    assert RULES.figures(table.state) == {
        "Arkady": {"cash_m": 3, "viewers": 0, "filled_squares": 1, "lines": 0},
        "Virginia": {"cash_m": 5, "viewers": 0, "filled_squares": 2, "lines": 0},
    }


def test_private_view_says_nothing_is_secret_and_lists_the_seats_own_holdings(table):
    started(table)
    private = RULES.private_view(table.state, "Arkady")
    assert private.seat == "Arkady" and private.lines[0] == "Nothing is secret"
    assert all(len(line) <= 21 and line.isascii() for line in private.lines)
    assert "Cash $3M" in private.lines
    labels = [label for label, _ in private.items]
    assert labels.count("Pilot Season card") == 2
    assert ("Pilot Season card", "ad Soap Suds: bonus $4M, cost $0M") in private.items
    assert all("Cola" not in detail for _, detail in private.items)  # Virginia's card is hers
    assert ("8 PM", "Laugh Track (Comedy)") in private.items
    with pytest.raises(MalformedCommand):
        RULES.private_view(table.state, "Nobody")


# -- the shared TransferMoney, in whole $M ---------------------------------------------------------------------


def test_transfer_money_in_whole_millions(table):
    started(table)  # Arkady $3M, Virginia $5M
    outcome = accepted(table, TransferMoney(payer="Arkady", payee="Virginia", amount=2_000_000, reason="a deal"))
    assert [n.cash_m for n in table.state.networks] == [1, 7]
    assert len({r.move for r in outcome.records}) == 1  # one move: undone together
    assert outcome.message == "Arkady pays $2M: a deal, paid to Virginia (entered at the table); " + (
        "Virginia gains $2M: a deal, paid by Arkady (entered at the table)"
    )
    accepted(table, TransferMoney(payer=BANK, payee="Arkady", amount=4_000_000, reason="ad income"))
    accepted(table, TransferMoney(payer="Virginia", payee=BANK, amount=1_000_000, reason="upkeep"))
    assert [n.cash_m for n in table.state.networks] == [5, 6]
    accepted(table, Undo())
    assert [n.cash_m for n in table.state.networks] == [5, 7]
    refused(table, TransferMoney(payer="Arkady", payee="Virginia", amount=1_500_000, reason="x"), MalformedCommand)
    refused(table, TransferMoney(payer="Arkady", payee="Arkady", amount=1_000_000, reason="x"), MalformedCommand)
    refused(table, TransferMoney(payer="Arkady", payee="Nobody", amount=1_000_000, reason="x"), MalformedCommand)
    refused(table, TransferMoney(payer="Arkady", payee=BANK, amount=1_000_000, reason=" "), MalformedCommand)
    refused(table, TransferMoney(payer="Arkady", payee=BANK, amount=6_000_000, reason="x"), InsufficientFunds)


def test_transfer_money_may_go_below_zero_only_with_the_house_rule(table):
    start(table, allow_negative_cash=True)
    accepted(table, TransferMoney(payer="Arkady", payee=BANK, amount=2_000_000, reason="loan"))
    assert table.state.network("Arkady").cash_m == -2
