"""Death Show TV combat arithmetic and odds (How Combat Is Resolved, Multiple Combat, Two-Player Games):
the closed-form odds equal two independent enumerations, sum to 1, and agree with a long seeded simulation
played through the real rules engine."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.commands import AnswerDice, PlayerSeat
from companion.games.death_show_tv import DEATH_SHOW_TV, DeclareFighter, DrawCard, EndTurn, Hunt, Move, Wound
from companion.games.death_show_tv.combat import (
    FUMBLE_FACES,
    TWO_PLAYER_FUMBLE_FACES,
    FighterDice,
    Part,
    RolledFighter,
    distribution,
    odds,
    odds_by_dice,
    odds_by_enumeration,
    resolve,
)

fighters_st = st.lists(
    st.builds(
        FighterDice,
        st.sampled_from([1, 2]),
        st.integers(-3, 9),
        st.sampled_from([FUMBLE_FACES, TWO_PLAYER_FUMBLE_FACES, frozenset()]),
    ),
    min_size=2,
    max_size=4,
)


# -- resolve: How Combat Is Resolved 4, Multiple Combat 2, ruling R5 ---------------------------------------------


@pytest.mark.parametrize(
    "outcomes, winners, losers",
    [
        ([(False, 7), (False, 5)], (0,), (1,)),  # highest wins, the other loses
        ([(False, 5), (False, 5)], (), ()),  # a tie: nothing
        ([(True, 9), (False, 2)], (1,), (0,)),  # a Fumble loses automatically
        ([(True, 9), (True, 2)], (), ()),  # a double Fumble: nothing
        ([(False, 8), (False, 8), (False, 3)], (0, 1), (2,)),  # tie for highest: all win
        ([(False, 8), (False, 3), (False, 3)], (0,), (1, 2)),  # tie for lowest: all lose
        ([(False, 8), (False, 6), (False, 3)], (0,), (2,)),  # the middle neither wins nor loses
        ([(False, 4), (False, 6), (True, 9)], (1,), (2,)),  # the Fumbler is the Loser, not the lowest total
        ([(False, 4), (False, 4), (True, 1)], (0, 1), (2,)),  # all clean totals tied, someone fumbled
        ([(False, 4), (False, 4), (False, 4)], (), ()),  # everyone tied: nothing
    ],
)
def test_resolve(outcomes, winners, losers):
    result = resolve(outcomes)
    assert (result.winners, result.losers) == (winners, losers)


def test_resolve_needs_two_fighters():
    with pytest.raises(ValueError):
        resolve([(False, 3)])


def test_breakdown_names_every_bonus_and_the_fumble():
    kelpie = RolledFighter("Kelpie", (2,), (Part("Katana", 3), Part("Ambush", 2)))
    assert kelpie.breakdown() == "Kelpie 7 = 2 (die) + 3 Katana + 2 Ambush"
    jhon = RolledFighter("Jhon", (5, 2), (Part("Unarmed", 0), Part("Mud", -1)), TWO_PLAYER_FUMBLE_FACES)
    assert jhon.total == 6 and jhon.fumble
    assert jhon.breakdown() == "Jhon 6 = 5+2 (dice) + 0 Unarmed - 1 Mud: FUMBLE (a 1 or 2), loses automatically"


def test_distribution_of_two_dice_fumbling_on_either():
    fumble, totals = distribution(FighterDice(2, 1))
    assert fumble == Fraction(11, 36)  # at least one 1
    assert totals[5] == Fraction(1, 36) and totals[13] == Fraction(1, 36) and sum(totals.values()) == Fraction(25, 36)


# -- odds ----------------------------------------------------------------------------------------------------


def test_odds_of_the_killer_squirrels_example_before_the_dice():
    squirrels, kelpie = odds([FighterDice(1, 2), FighterDice(1, 5)])
    assert kelpie.win == Fraction(27, 36) and squirrels.win == Fraction(6, 36)
    assert kelpie.describe("Kelpie") == "Kelpie: wins 75.0%, loses 16.7%, neither 8.3%"


@settings(max_examples=150, deadline=None)
@given(fighters_st)
def test_odds_sum_to_one_and_equal_the_enumeration_of_outcomes(fighters):
    closed = odds(fighters)
    assert closed == odds_by_enumeration(fighters)
    for chances in closed:
        assert chances.win + chances.lose + chances.nothing == 1
        assert min(chances.win, chances.lose, chances.nothing) >= 0


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.builds(
            FighterDice,
            st.sampled_from([1, 2]),
            st.integers(-2, 6),
            st.sampled_from([FUMBLE_FACES, TWO_PLAYER_FUMBLE_FACES]),
        ),
        min_size=2,
        max_size=3,
    ).filter(lambda fs: sum(f.dice for f in fs) <= 5)
)
def test_odds_equal_rolling_out_every_die(fighters):
    assert odds(fighters) == odds_by_dice(fighters)


def test_everyone_cannot_win_together_and_expected_winners_match():
    """Across all fighters, P(win) sums to the expected number of winners, never above the fighters."""
    fighters = [FighterDice(2, 0), FighterDice(1, 3), FighterDice(1, 3), FighterDice(2, 1)]
    chances = odds(fighters)
    assert 0 < sum(c.win for c in chances) < len(fighters)
    assert chances[1] == chances[2]  # identical fighters, identical odds


def test_eight_fighter_multiple_combat_odds_are_exact_and_fast_enough_to_compute():
    fighters = [FighterDice(2, i % 3) for i in range(8)]
    chances = odds(fighters)
    assert all(c.win + c.lose + c.nothing == 1 for c in chances)


# -- odds against a long seeded simulation through the real engine ---------------------------------------------


def _engine_combat(seats: int, attacker_decl: dict, defender_decl: dict, wound_jhon: bool = False):
    """A state with Jhon hunting Kelpie, both declared; pure decide/evolve, no journal."""
    rules = DEATH_SHOW_TV
    state = rules.new_game(
        [PlayerSeat(n) for n in ("Kelpie", "Jhon", "Elena")[:seats]], {"roll_off": False, "starting_cards": 4}
    )

    def run(command):
        nonlocal state
        for event in rules.decide(state, command):
            state = rules.evolve(state, event)

    run(DrawCard(player="Kelpie"))
    run(Move(player="Kelpie", location="The Caves"))
    if wound_jhon:
        run(Wound(player="Jhon", by="Kelpie", reason="a Fire Event"))
    run(EndTurn(player="Kelpie"))
    run(DrawCard(player="Jhon"))
    run(Hunt(player="Jhon", location="The Caves"))
    run(DeclareFighter(fighter="Jhon", **attacker_decl))
    run(DeclareFighter(fighter="Kelpie", **defender_decl))
    return state


@pytest.mark.parametrize(
    "seats, attacker, defender",
    [
        (3, {"weapon": "Katana", "weapon_bonus": 3}, {"bonuses": (("Ambush", 2), ("Boots", 1)), "dice": 2}),
        (2, {"bonuses": (("Adrenaline", 1),), "dice": 2}, {"weapon": "Knife", "weapon_bonus": 1}),
    ],
)
def test_odds_match_a_long_seeded_simulation_through_the_engine(seats, attacker, defender):
    rules = DEATH_SHOW_TV
    start = _engine_combat(seats, attacker, defender)
    expected = dict(rules.combat_odds(start))
    generator = random.Random(20240601)
    rolls = 6000
    wins = {"Jhon": 0, "Kelpie": 0}
    losses = {"Jhon": 0, "Kelpie": 0}
    for _ in range(rolls):
        state = start
        while (request := rules.pending_dice(state)) is not None and state.combat is not None:
            values = tuple(generator.randint(1, 6) for _ in range(request.count))
            for event in rules.decide(state, AnswerDice(roller=request.roller, values=values, source="built-in")):
                state = rules.evolve(state, event)
        for name in state.last_combat.winners:
            wins[name] += 1
        for name in state.last_combat.losers:
            losses[name] += 1
    for name in ("Jhon", "Kelpie"):
        for observed, p in ((wins[name], expected[name].win), (losses[name], expected[name].lose)):
            sigma = (float(p) * (1 - float(p)) / rolls) ** 0.5
            assert abs(observed / rolls - float(p)) < 4 * sigma + 1e-9, (name, observed / rolls, float(p))


def test_two_player_rule_changes_the_odds_the_engine_shows():
    """Two-Player Games: Kelpie (4 Vitality against Jhon's 3) fumbles on a 1 or a 2."""
    rules = DEATH_SHOW_TV
    even = dict(rules.combat_odds(_engine_combat(2, {}, {})))
    assert even["Jhon"].win == even["Kelpie"].win
    uneven = dict(rules.combat_odds(_engine_combat(2, {}, {}, wound_jhon=True)))
    assert uneven["Jhon"] == odds([FighterDice(1, 0, FUMBLE_FACES), FighterDice(1, 0, TWO_PLAYER_FUMBLE_FACES)])[0]
    assert uneven["Jhon"].win > even["Jhon"].win
    three = dict(rules.combat_odds(_engine_combat(3, {}, {}, wound_jhon=True)))
    assert three["Jhon"] == even["Jhon"]  # three Contestants: no two-player rule


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.builds(
            FighterDice,
            st.sampled_from([1, 2]),
            st.integers(-2, 6),
            st.sampled_from([FUMBLE_FACES, TWO_PLAYER_FUMBLE_FACES]),
        ),
        min_size=2,
        max_size=3,
    ).filter(lambda fs: sum(f.dice for f in fs) <= 5),
    st.data(),
)
def test_odds_given_dice_already_rolled_equal_rolling_out_the_remaining_dice(fighters, data):
    """Fixing the first fighters' rolled faces (the attacker rolls first) gives the odds of the rest."""
    rolled = data.draw(st.integers(1, len(fighters) - 1))
    given = [
        FighterDice(
            f.dice,
            f.bonus,
            f.fumble_faces,
            tuple(data.draw(st.lists(st.integers(1, 6), min_size=f.dice, max_size=f.dice))),
        )
        if i < rolled
        else f
        for i, f in enumerate(fighters)
    ]
    assert odds(given) == odds_by_dice(given) == odds_by_enumeration(given)


def test_odds_given_a_roll_kelpie_d6_against_a_rolled_seven_never_wins():
    jhon, kelpie = odds([FighterDice(1, 3, rolled=(4,)), FighterDice(1, 0)])
    assert (jhon.win, kelpie.lose) == (1, 1)
    jhon, kelpie = odds([FighterDice(1, 3, rolled=(1,)), FighterDice(1, 0)])  # a Fumble: Kelpie wins unless
    assert (kelpie.win, kelpie.nothing) == (Fraction(5, 6), Fraction(1, 6))  # she fumbles too
