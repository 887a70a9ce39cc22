"""Death Show TV rules through the real table and journal (rule names from rules/death-show-tv.txt; rulings
R1… from docs/rulings-death-show-tv.md). A refused command must change nothing and journal nothing."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from conftest import read_events
from table_helpers import accepted, event_count

from companion.commands import AnswerDice, EndGame, NewGame, PlayerSeat, RollDice, Undo
from companion.errors import BadOption, CommandError, DiceError, GameFinished, IllegalCommand, MalformedCommand
from companion.game import Termination
from companion.games import find_game
from companion.games.death_show_tv import (
    LOCATIONS,
    AdjustBonus,
    AdjustHand,
    Confirm,
    DeclareFighter,
    Discard,
    DrawCard,
    EndTurn,
    Fight,
    Heal,
    Hunt,
    Move,
    NewWeaponLevel,
    PlayEvent,
    RemoveLocation,
    Wound,
)
from companion.table import replay

NAMES = ("Kelpie", "Jhon", "Elena", "Rex", "Mina", "Otto", "Zoe", "Dante")
RULES = find_game("death-show-tv")


def start(table, n=3, **options) -> int:
    """Start an ``n``-Contestant game (seats Kelpie, Jhon, Elena, …); no roll-off unless asked."""
    options.setdefault("roll_off", False)
    outcome = table.execute(
        NewGame(game="death-show-tv", players=tuple(PlayerSeat(n_) for n_ in NAMES[:n]), options=options, source="test")
    )
    assert outcome.accepted, outcome.message
    return outcome.records[0].game_id


def refused(table, command, error=IllegalCommand, *words):
    """Assert ``command`` is refused with ``error`` whose message has ``words``; nothing changes."""
    before_state, before_count = table.state, event_count(table)
    outcome = table.execute(command)
    assert not outcome.accepted, f"{command!r} was accepted: {outcome.message}"
    assert isinstance(outcome.refusal, error), repr(outcome.refusal)
    for word in words:
        assert word in str(outcome.refusal), (word, str(outcome.refusal))
    assert table.state == before_state
    assert event_count(table) == before_count
    return outcome.refusal


def ok(table, *commands):
    """Execute each of ``commands``, asserting each is accepted; return the last outcome."""
    for command in commands:
        outcome = accepted(table, command)
    return outcome


def c(table, name):
    return table.state.contestant(name)


def dice(table, *values):
    """Answer the pending requests one after another with ``values`` (an int or a tuple of two)."""
    for value in values:
        request = RULES.pending_dice(table.state)
        assert request is not None, "no dice asked for"
        ok(table, AnswerDice(roller=request.roller, values=value if isinstance(value, tuple) else (value,)))


def place(table, *moves):
    """Whole turns: each ``(player, location)`` draws, Moves there and ends the turn."""
    for player, location in moves:
        assert table.state.turn == player, (table.state.turn, player)
        ok(table, DrawCard(player=player), Move(player=player, location=location), EndTurn(player=player))


def declare_all(table, **declared):
    """Declare every fighter in order; ``declared[name]`` is a dict of DeclareFighter fields (default Unarmed)."""
    while table.state.combat and table.state.combat.next_to_declare is not None:
        name = table.state.combat.next_to_declare.name
        ok(table, DeclareFighter(fighter=name, **declared.get(name, {})))


# -- Setup -------------------------------------------------------------------------------------------------


def test_setup_defaults_vitality_4_locations_in_printed_order_level_1_off_the_island(table):
    start(table, 3)
    state = table.state
    assert [l.name for l in state.locations] == [
        "Forest of Screams",
        "Dense Forest",
        "Monkey Forest",
        "The Lighthouse",
        "The Bunker",
        "The Caves",
        "Bloody Beach",
        "Paradise Beach",
        "Turtle Beach",
    ]
    assert all(not l.removed and l.rule == "" for l in state.locations)
    assert [(x.name, x.vitality, x.location, x.cards) for x in state.contestants] == [
        ("Kelpie", 4, None, 0),
        ("Jhon", 4, None, 0),
        ("Elena", 4, None, 0),
    ]
    assert state.weapon_level == 1
    assert (state.turn, state.phase) == ("Kelpie", "draw")


def test_setup_agreed_vitality_and_location_rule_notes(table):
    start(table, 2, vitality=6, location_rules={"The Bunker": "No Combat here (our note)"})
    assert c(table, "Jhon").vitality == 6
    assert table.state.location("The Bunker").rule == "No Combat here (our note)"
    assert "The Bunker rule: No Combat here (our note)" in table.view().notes
    assert table.view().players[0].tracks[0].maximum == 6


@pytest.mark.parametrize(
    "options, option",
    [
        ({"vitality": 0}, "vitality"),
        ({"vitality": "4"}, "vitality"),
        ({"lives": 3}, "lives"),
        ({"location_rules": {"Mordor": "x"}}, "location_rules"),
        ({"location_rules": {"The Caves": ""}}, "location_rules"),
        ({"two_player_rule": "sometimes"}, "two_player_rule"),
        ({"starting_cards": 8}, "starting_cards"),
        ({"event_fumbles": 1}, "event_fumbles"),
    ],
)
def test_setup_bad_options_refused(table, options, option):
    outcome = table.execute(NewGame(game="death-show-tv", players=(PlayerSeat("A"), PlayerSeat("B")), options=options))
    assert isinstance(outcome.refusal, BadOption) and outcome.refusal.option == option
    assert table.session is None


@pytest.mark.parametrize("n, accepted_", [(1, False), (2, True), (8, True), (9, False)])
def test_setup_two_to_eight_contestants(table, n, accepted_):
    seats = tuple(PlayerSeat(f"P{i}") for i in range(n))
    outcome = table.execute(NewGame(game="death-show-tv", players=seats))
    assert outcome.accepted is accepted_
    if not accepted_:
        assert "2 to 8" in str(outcome.refusal)


def test_starting_the_game_roll_off_rerolls_only_the_tied_highest(table):
    start(table, 3, roll_off=True)
    assert table.state.phase == "setup"
    refused(table, DrawCard(player="Kelpie"), IllegalCommand, "first player")
    dice(table, 5, 2, 5)  # Kelpie 5, Jhon 2, Elena 5: Kelpie and Elena roll again
    request = RULES.pending_dice(table.state)
    assert (request.roller, request.reason) == ("Kelpie", "who goes first, re-roll 1")
    dice(table, 4)
    assert RULES.pending_dice(table.state).roller == "Elena"  # Jhon does not roll again
    dice(table, 6)
    assert (table.state.turn, table.state.phase, table.state.turn_number) == ("Elena", "draw", 1)
    refused(table, AnswerDice(roller="Elena", values=(3,)), IllegalCommand, "no dice")


def test_roll_off_dice_checked(table):
    start(table, 2, roll_off=True)
    refused(table, AnswerDice(roller="Jhon", values=(3,)), DiceError, "Kelpie")
    refused(table, AnswerDice(roller="Kelpie", values=(7,)), DiceError)
    refused(table, AnswerDice(roller="Kelpie", values=(3, 3)), DiceError)


# -- Phases of a Turn ----------------------------------------------------------------------------------------


def test_turn_draw_then_one_action_then_event_then_next_player_to_the_left(table):
    start(table, 3)
    refused(table, Move(player="Kelpie", location="The Caves"), IllegalCommand, "Draw Phase")
    refused(table, DrawCard(player="Jhon"), IllegalCommand, "Kelpie's turn")
    ok(table, DrawCard(player="Kelpie"))
    assert (c(table, "Kelpie").cards, table.state.phase) == (1, "action")
    refused(table, DrawCard(player="Kelpie"), IllegalCommand, "Action Phase")
    refused(table, EndTurn(player="Kelpie"), IllegalCommand, "must Move, Hunt or Fight")
    ok(table, Move(player="Kelpie", location="The Caves"))
    assert (c(table, "Kelpie").location, table.state.phase) == ("The Caves", "event")
    refused(table, Move(player="Kelpie", location="The Bunker"), IllegalCommand, "Event Phase")
    ok(table, EndTurn(player="Kelpie"))
    assert (table.state.turn, table.state.phase, table.state.turn_number) == ("Jhon", "draw", 2)


def test_move_refused_to_occupied_same_or_removed_location(table):
    start(table, 3)
    place(table, ("Kelpie", "The Caves"))
    ok(table, DrawCard(player="Jhon"))
    refused(table, Move(player="Jhon", location="The Caves"), IllegalCommand, "occupied by Kelpie", "Move")
    refused(table, Move(player="Jhon", location="Atlantis"), MalformedCommand, "no Location")
    ok(table, Move(player="Jhon", location="The Bunker"), EndTurn(player="Jhon"))
    place(table, ("Elena", "Dense Forest"))
    ok(table, DrawCard(player="Kelpie"))
    refused(table, Move(player="Kelpie", location="The Caves"), IllegalCommand, "already on The Caves")


def test_hunt_needs_a_trail_and_an_occupied_location(table):
    start(table, 3)
    place(table, ("Kelpie", "The Caves"), ("Jhon", "The Bunker"))
    ok(table, DrawCard(player="Elena"), AdjustHand(player="Elena", delta=-1, reason="played an Equipment"))
    assert c(table, "Elena").cards == 0
    refused(table, Hunt(player="Elena", location="The Caves"), IllegalCommand, "needs a Trail", "Hunt")
    ok(table, AdjustHand(player="Elena", delta=2, reason="a card effect"))
    refused(table, Hunt(player="Elena", location="Turtle Beach"), IllegalCommand, "nobody is on Turtle Beach")
    ok(table, Hunt(player="Elena", location="The Caves"))
    state = table.state
    assert c(table, "Elena").cards == 1 and c(table, "Elena").location == "The Caves"
    assert state.combat.kind == "hunt" and [f.name for f in state.combat.fighters] == ["Elena", "Kelpie"]


def test_hunt_into_own_location_refused_use_fight(table):
    start(table, 2, starting_cards=2)
    place(table, ("Kelpie", "The Caves"))
    ok(table, DrawCard(player="Jhon"), Hunt(player="Jhon", location="The Caves"))
    declare_all(table)
    dice(table, 4, 4)  # a tie: nothing happens
    ok(table, EndTurn(player="Jhon"), DrawCard(player="Kelpie"))
    refused(table, Hunt(player="Kelpie", location="The Caves"), IllegalCommand, "use Fight")


def test_fight_needs_someone_in_your_location(table):
    start(table, 3)
    ok(table, DrawCard(player="Kelpie"))
    refused(table, Fight(player="Kelpie"), IllegalCommand, "not on the island")
    ok(
        table,
        Move(player="Kelpie", location="The Caves"),
        EndTurn(player="Kelpie"),
        DrawCard(player="Jhon"),
        Move(player="Jhon", location="The Bunker"),
        EndTurn(player="Jhon"),
    )
    place(table, ("Elena", "Dense Forest"))
    ok(table, DrawCard(player="Kelpie"))
    refused(table, Fight(player="Kelpie"), IllegalCommand, "nobody else is on The Caves", "Fight")


def test_event_phase_at_most_one_event_and_only_in_the_event_phase(table):
    start(table, 2, starting_cards=3)
    ok(table, DrawCard(player="Kelpie"))
    refused(table, PlayEvent(player="Kelpie", card="Fire"), IllegalCommand, "Action Phase")
    ok(table, Move(player="Kelpie", location="The Caves"))
    ok(table, PlayEvent(player="Kelpie", card="Fire"))
    assert c(table, "Kelpie").cards == 3
    refused(
        table, PlayEvent(player="Kelpie", card="Storm"), IllegalCommand, "already played an Event", "Phases of a Turn 3"
    )
    refused(table, PlayEvent(player="Jhon", card="Storm"), IllegalCommand, "Kelpie's turn")


def test_discard_phase_for_every_player_over_seven(table):
    start(table, 3, starting_cards=7)
    ok(
        table,
        DrawCard(player="Kelpie"),
        Move(player="Kelpie", location="The Caves"),
        AdjustHand(player="Elena", delta=2, reason="Loot"),
    )
    view = table.view()
    assert any("Kelpie holds 8 cards: discard down to 7" in note for note in view.notes)
    ok(table, EndTurn(player="Kelpie"))
    assert table.state.phase == "discard" and table.state.turn == "Kelpie"
    refused(table, Discard(player="Kelpie", count=2), IllegalCommand, "only down to 7")
    refused(table, Discard(player="Jhon", count=1), IllegalCommand, "only down to 7")
    refused(table, DrawCard(player="Jhon"), IllegalCommand)
    ok(table, Discard(player="Kelpie"))
    assert table.state.phase == "discard"  # Elena still holds 9
    ok(table, Discard(player="Elena", count=2))
    assert (table.state.turn, table.state.phase) == ("Jhon", "draw")
    assert [x.cards for x in table.state.contestants] == [7, 7, 7]


# -- Weapons ------------------------------------------------------------------------------------------------------


def test_weapon_above_current_level_refused_until_new_weapon_level(table):
    start(table, 2, starting_cards=3)
    place(table, ("Kelpie", "The Caves"))
    ok(table, DrawCard(player="Jhon"), Hunt(player="Jhon", location="The Caves"))
    refused(
        table,
        DeclareFighter(fighter="Jhon", weapon="Chainsaw", weapon_bonus=4, weapon_level=2),
        IllegalCommand,
        "level 2 Weapon",
        "Types of Show Cards: Weapons",
    )
    ok(table, NewWeaponLevel(player="Kelpie"))
    assert table.state.weapon_level == 2 and c(table, "Kelpie").cards == 4  # the Rule Change is replaced
    ok(table, DeclareFighter(fighter="Jhon", weapon="Chainsaw", weapon_bonus=4, weapon_level=2))
    refused(
        table,
        DeclareFighter(fighter="Kelpie", weapon="Bazooka", weapon_bonus=6, weapon_level=3),
        IllegalCommand,
        "level 3",
    )
    ok(table, NewWeaponLevel(player="Jhon"))
    refused(table, NewWeaponLevel(player="Jhon"), IllegalCommand, "all 3 Weapon levels")
    refused(table, DeclareFighter(fighter="Kelpie", weapon="Unarmed", weapon_bonus=2), MalformedCommand, "+0")


# -- How Combat Is Resolved --------------------------------------------------------------------------------------


def _fight_setup(table, n=3, **options):
    """Kelpie on The Caves, Jhon hunts her there (Jhon attacks): returns with the combat declared by nobody."""
    options.setdefault("starting_cards", 3)
    start(table, n, **options)
    place(table, ("Kelpie", "The Caves"))
    ok(table, DrawCard(player="Jhon"), Hunt(player="Jhon", location="The Caves"))


def test_combat_highest_total_wins_loser_loses_one_vitality_and_is_looted(table):
    _fight_setup(table)
    assert c(table, "Jhon").cards == 3
    ok(table, DeclareFighter(fighter="Jhon", weapon="Machete", weapon_bonus=3, bonuses=(("Armour", 2),)))
    assert c(table, "Jhon").cards == 1  # Machete and Armour were played
    ok(table, DeclareFighter(fighter="Kelpie"))
    request = RULES.pending_dice(table.state)
    assert request.roller == "Jhon" and request.rule == "How Combat Is Resolved 3"  # the attacker rolls first
    dice(table, 4, 6)
    report = table.state.last_combat
    assert report.lines == ("Jhon 9 = 4 (die) + 3 Machete + 2 Armour", "Kelpie 6 = 6 (die) + 0 Unarmed")
    assert (report.winners, report.losers) == (("Jhon",), ("Kelpie",))
    assert c(table, "Kelpie").vitality == 3 and c(table, "Jhon").vitality == 4
    assert (c(table, "Jhon").cards, c(table, "Kelpie").cards) == (2, 3)  # Loot: one card (Kelpie had 4)
    assert table.state.combat is None and table.state.phase == "event"
    assert "Jhon 9 = 4 (die) + 3 Machete + 2 Armour" in table.view().notes


def test_unarmed_winner_also_draws_a_card(table):
    _fight_setup(table)
    declare_all(table)
    dice(table, 5, 3)
    assert c(table, "Jhon").cards == 3 + 1 + 1  # 3 after the Trail, + Loot, + the Unarmed draw
    assert c(table, "Kelpie").cards == 4 - 1
    history = [e.text for e in table.history()]
    assert any("won Unarmed: draws a Show card" in text for text in history)


def test_a_one_is_a_fumble_and_loses_whatever_the_total(table):
    _fight_setup(table)
    declare_all(table, Jhon={"weapon": "Katana", "weapon_bonus": 3, "bonuses": (("Ambush", 2),)})
    dice(table, 1, 2)
    report = table.state.last_combat
    assert report.lines[0] == "Jhon 6 = 1 (die) + 3 Katana + 2 Ambush: FUMBLE (a 1), loses automatically"
    assert (report.winners, report.losers) == (("Kelpie",), ("Jhon",))
    assert c(table, "Jhon").vitality == 3


@pytest.mark.parametrize(
    "rolls, summary", [((3, 3), "a tie: nothing happens"), ((1, 1), "every fighter fumbled: nothing happens")]
)
def test_tie_or_double_fumble_nothing_happens(table, rolls, summary):
    _fight_setup(table)
    declare_all(table)
    before = [(x.vitality, x.cards) for x in table.state.contestants]
    dice(table, *rolls)
    assert table.state.last_combat.summary == summary
    assert [(x.vitality, x.cards) for x in table.state.contestants] == before


def test_two_dice_are_added_and_a_one_on_either_is_a_fumble(table):
    _fight_setup(table)
    declare_all(table, Jhon={"bonuses": (("Berserker", 0),), "dice": 2})
    assert RULES.pending_dice(table.state).count == 2
    dice(table, (6, 1), 2)
    assert table.state.last_combat.losers == ("Jhon",)
    assert table.state.last_combat.lines[0].startswith("Jhon 7 = 6+1 (dice)")


def test_two_dice_without_a_card_refused_and_cards_shown_must_be_held(table):
    _fight_setup(table)
    refused(table, DeclareFighter(fighter="Jhon", dice=2), IllegalCommand, "two dice")
    refused(
        table,
        DeclareFighter(fighter="Jhon", weapon="Axe", weapon_bonus=2, bonuses=(("A", 1), ("B", 1), ("C", 1))),
        IllegalCommand,
        "holds 3 cards, so cannot show 4",
    )
    refused(table, DeclareFighter(fighter="Kelpie"), IllegalCommand, "Jhon shows their cards before Kelpie")
    refused(table, DeclareFighter(fighter="Elena"), IllegalCommand, "not in this Combat")
    refused(table, DeclareFighter(fighter="Jhon", bonuses=(("Trap", "lots"),)), MalformedCommand)
    refused(table, Move(player="Jhon", location="Dense Forest"), IllegalCommand, "Combat is under way")


def test_odds_before_the_dice_stay_shown_once_the_first_die_is_in_with_the_odds_given_that_die(table):
    _fight_setup(table)
    assert RULES.combat_odds(table.state) is None  # not everyone has declared
    declare_all(table, Jhon={"weapon": "Katana", "weapon_bonus": 3})
    odds = dict(RULES.combat_odds(table.state))
    # Jhon d6+3 against Kelpie d6, by hand: with 2 Jhon (5) wins against Kelpie's 1 (Fumble), 2, 3, 4; with 3
    # (6) against 1-5; with 4-6 always: 4+5+6+6+6 = 27 of 36. Kelpie wins on Jhon's Fumble unless she
    # fumbles too (5), or with 6 against his 2 (1): 6 of 36. Ties: 2-5, 3-6, and the double Fumble: 3 of 36.
    assert (odds["Jhon"].win, odds["Jhon"].lose, odds["Jhon"].nothing) == (
        Fraction(27, 36),
        Fraction(6, 36),
        Fraction(3, 36),
    )
    assert (odds["Kelpie"].win, odds["Kelpie"].lose) == (Fraction(6, 36), Fraction(27, 36))
    assert "Jhon: wins 75.0%, loses 16.7%, neither 8.3%" in table.view().notes
    assert RULES.combat_odds_now(table.state) is None  # no die is in yet
    dice(table, 4)  # Jhon 7: Kelpie's d6 cannot reach it
    assert dict(RULES.combat_odds(table.state)) == odds  # the odds before the dice stay
    now = dict(RULES.combat_odds_now(table.state))
    assert (now["Jhon"].win, now["Kelpie"].lose) == (1, 1)
    notes = table.view().notes
    assert "Jhon: wins 75.0%, loses 16.7%, neither 8.3%" in notes
    assert "after the dice so far, Jhon: wins 100.0%, loses 0.0%, neither 0.0%" in notes
    panel = {p.name: p.panel_lines for p in table.view().players}
    assert "win 75% lose 17%" in panel["Jhon"]
    dice(table, 2)
    assert RULES.combat_odds(table.state) is None and RULES.combat_odds_now(table.state) is None


# -- Fighting an Event: the rulebook's Killer Squirrels example ------------------------------------------------


def test_killer_squirrels_example(table):
    """Elena plays Killer Squirrels (Combat +2) against Kelpie; Kelpie defends with Katana (+3) and Ambush (+2);
    Elena rolls 3 for the squirrels (5), Kelpie rolls 2 (7): Kelpie wins, nobody is hurt, no Loot."""
    start(table, 3, starting_cards=3)
    place(table, ("Kelpie", "The Caves"), ("Jhon", "The Bunker"))
    ok(table, DrawCard(player="Elena"), Move(player="Elena", location="Dense Forest"))
    ok(table, PlayEvent(player="Elena", card="Killer Squirrels", combat_value=2, targets=("Kelpie",)))
    combat = table.state.combat
    assert [(f.name, f.is_event, f.declared) for f in combat.fighters] == [
        ("Killer Squirrels", True, True),
        ("Kelpie", False, False),
    ]
    assert c(table, "Elena").cards == 3  # drew 1, the Event is discarded
    ok(table, DeclareFighter(fighter="Kelpie", weapon="Katana", weapon_bonus=3, bonuses=(("Ambush", 2),)))
    request = RULES.pending_dice(table.state)
    assert request.roller == "Elena" and "Killer Squirrels (Combat +2)" in request.reason
    dice(table, 3, 2)
    report = table.state.last_combat
    assert report.lines == ("Killer Squirrels 5 = 3 (die) + 2 Combat", "Kelpie 7 = 2 (die) + 3 Katana + 2 Ambush")
    assert report.winners == ("Kelpie",)
    assert [(x.name, x.vitality) for x in table.state.contestants] == [("Kelpie", 4), ("Jhon", 4), ("Elena", 4)]
    assert c(table, "Kelpie").cards == 4 - 2 and c(table, "Elena").cards == 3  # no Loot from a Card
    assert table.state.combat is None and table.state.phase == "event" and table.state.events_played == 1


def test_killer_squirrels_had_they_won_kelpie_loses_one_vitality_but_no_card(table):
    start(table, 3, starting_cards=3)
    place(table, ("Kelpie", "The Caves"), ("Jhon", "The Bunker"))
    ok(
        table,
        DrawCard(player="Elena"),
        Move(player="Elena", location="Dense Forest"),
        PlayEvent(player="Elena", card="Killer Squirrels", combat_value=2, targets=("Kelpie",)),
        DeclareFighter(fighter="Kelpie", weapon="Katana", weapon_bonus=3, bonuses=(("Ambush", 2),)),
    )
    dice(table, 6, 2)  # 8 against 7
    assert table.state.last_combat.winners == ("Killer Squirrels",)
    assert c(table, "Kelpie").vitality == 3 and c(table, "Kelpie").cards == 4 - 2
    assert c(table, "Elena").cards == 3


def test_event_targets_must_share_a_location(table):
    start(table, 3, starting_cards=3)
    place(table, ("Kelpie", "The Caves"), ("Jhon", "The Bunker"))
    ok(table, DrawCard(player="Elena"), Move(player="Elena", location="Dense Forest"))
    refused(
        table,
        PlayEvent(player="Elena", card="Fire", combat_value=3, targets=("Kelpie", "Jhon")),
        IllegalCommand,
        "one Location",
    )
    refused(table, PlayEvent(player="Elena", card="Kelpie", combat_value=3, targets=("Jhon",)), MalformedCommand)
    refused(table, PlayEvent(player="Elena", card="Fire", combat_value=3), MalformedCommand, "whom")


def test_event_die_fumbles_on_a_one_unless_switched_off(table):
    start(table, 2, starting_cards=2)
    ok(
        table,
        DrawCard(player="Kelpie"),
        Move(player="Kelpie", location="The Caves"),
        PlayEvent(player="Kelpie", card="Shark", combat_value=9, targets=("Jhon",)),
        DeclareFighter(fighter="Jhon"),
    )
    dice(table, 1, 2)
    assert table.state.last_combat.winners == ("Jhon",)


def test_event_die_never_fumbles_when_event_fumbles_off(table):
    start(table, 2, starting_cards=2, event_fumbles=False)
    ok(
        table,
        DrawCard(player="Kelpie"),
        Move(player="Kelpie", location="The Caves"),
        PlayEvent(player="Kelpie", card="Shark", combat_value=9, targets=("Jhon",)),
        DeclareFighter(fighter="Jhon"),
    )
    dice(table, 1, 2)
    assert table.state.last_combat.winners == ("Shark",)


# -- Multiple Combat -------------------------------------------------------------------------------------------------


def _crowd(table, n=4, **options):
    """Kelpie, Jhon and Elena (and more) on The Caves; Rex hunts them (the attacker is the 4th seat)."""
    options.setdefault("starting_cards", 3)
    start(table, n, **options)
    place(table, ("Kelpie", "The Caves"))
    ok(table, DrawCard(player="Jhon"), Hunt(player="Jhon", location="The Caves"))
    declare_all(table)
    dice(table, 3, 3)  # tie: nothing
    ok(table, EndTurn(player="Jhon"), DrawCard(player="Elena"), Hunt(player="Elena", location="The Caves"))
    declare_all(table)
    dice(table, 4, 4, 4)
    ok(table, EndTurn(player="Elena"))
    for name in NAMES[3 : n - 1]:
        place(table, (name, LOCATIONS[NAMES.index(name)]))
    ok(table, DrawCard(player=NAMES[n - 1]), Hunt(player=NAMES[n - 1], location="The Caves"))


def test_multiple_combat_declare_in_turn_order_from_the_attackers_left(table):
    """Multiple Combat 1 as ruling R22 reads it: the attacker shows first, then the defenders in turn order from
    the attacker's left."""
    _crowd(table, 4)
    assert [f.name for f in table.state.combat.fighters] == ["Rex", "Kelpie", "Jhon", "Elena"]
    ok(table, DeclareFighter(fighter="Rex"))
    refused(
        table,
        DeclareFighter(fighter="Jhon"),
        IllegalCommand,
        "Kelpie shows their cards before Jhon",
        "Multiple Combat 1",
    )


def test_multiple_combat_tied_highest_all_win_and_loot_comes_from_the_winner_to_the_losers_left(table):
    _crowd(table, 4)
    declare_all(table)
    cards = {x.name: x.cards for x in table.state.contestants}
    dice(table, 6, 6, 2, 4)  # Rex 6, Kelpie 6, Jhon 2, Elena 4
    report = table.state.last_combat
    assert (report.winners, report.losers) == (("Rex", "Kelpie"), ("Jhon",))
    assert c(table, "Jhon").vitality == 3 and c(table, "Elena").vitality == 4
    # left of Jhon (seat 2): Elena, Rex, Kelpie -> Rex is the nearest Winner; both Winners were Unarmed
    assert c(table, "Rex").cards == cards["Rex"] + 1 + 1
    assert c(table, "Kelpie").cards == cards["Kelpie"] + 1
    assert c(table, "Jhon").cards == cards["Jhon"] - 1


def test_multiple_combat_tied_lowest_all_lose(table):
    _crowd(table, 4)
    declare_all(table)
    dice(table, 2, 5, 2, 2)
    report = table.state.last_combat
    assert (report.winners, report.losers) == (("Kelpie",), ("Rex", "Jhon", "Elena"))
    assert [x.vitality for x in table.state.contestants] == [4, 3, 3, 3]


def test_multiple_combat_a_fumble_is_the_loser_even_below_a_lower_total(table):
    _crowd(table, 4)
    declare_all(table, Jhon={"weapon": "Axe", "weapon_bonus": 5})
    dice(table, 3, 4, 1, 2)  # Jhon 6 but fumbled; Elena 2 is lowest clean total
    report = table.state.last_combat
    assert (report.winners, report.losers) == (("Kelpie",), ("Jhon",))
    assert c(table, "Elena").vitality == 4


# -- Two-Player Games -----------------------------------------------------------------------------------------------


def _two_player_fight(table, **options):
    start(table, 2, starting_cards=3, **options)
    ok(
        table,
        DrawCard(player="Kelpie"),
        Move(player="Kelpie", location="The Caves"),
        Wound(player="Jhon", by="Kelpie", reason="Fire Event"),
        EndTurn(player="Kelpie"),
    )
    ok(table, DrawCard(player="Jhon"), Hunt(player="Jhon", location="The Caves"))
    declare_all(table)


def test_two_player_rule_a_two_is_the_healthier_contestants_fumble(table):
    _two_player_fight(table)  # Kelpie 4 Vitality, Jhon 3
    assert table.state.fumble_faces(table.state.combat.fighters[1]) == {1, 2}
    dice(table, 3, 2)  # Kelpie's 2 is a Fumble
    assert table.state.last_combat.losers == ("Kelpie",)
    assert "FUMBLE (a 1 or 2)" in table.state.last_combat.lines[1]
    assert c(table, "Kelpie").vitality == 3


def test_two_player_rule_not_for_equal_vitality(table):
    _fight_setup(table, n=2)
    assert [table.state.fumble_faces(f) for f in table.state.combat.fighters] == [{1}, {1}]


def test_two_player_rule_switched_off_by_option(table):
    _two_player_fight(table, two_player_rule="off")
    dice(table, 2, 2)  # Kelpie's 2 is no Fumble now: a tie
    assert table.state.last_combat.summary == "a tie: nothing happens"


def test_two_player_rule_only_in_two_player_games_unless_two_left_option(table_factory):
    for rule, faces in (("start", {1}), ("two_left", {1, 2})):
        table = table_factory()
        start(table, 3, starting_cards=3, two_player_rule=rule)
        ok(
            table,
            DrawCard(player="Kelpie"),
            Move(player="Kelpie", location="The Caves"),
            Wound(player="Elena", by="Kelpie", reason="Fire", amount=4),
        )
        ok(table, RemoveLocation(player="Kelpie", location="Turtle Beach"), EndTurn(player="Kelpie"))
        ok(
            table,
            DrawCard(player="Jhon"),
            Wound(player="Jhon", by="Jhon", reason="Trap"),
            Hunt(player="Jhon", location="The Caves"),
        )
        assert table.state.fumble_faces(table.state.combat.fighters[1]) == faces


# -- Death and Elimination -------------------------------------------------------------------------------------


def test_killed_in_combat_the_killer_keeps_the_cards_and_removes_an_unoccupied_location(table):
    _fight_setup(table, vitality=1)
    declare_all(table)
    dice(table, 5, 2)
    assert not c(table, "Kelpie").alive and c(table, "Kelpie").location is None
    assert c(table, "Jhon").cards == 3 + 4 + 1  # his own, all 4 of Kelpie's, the Unarmed draw
    assert c(table, "Kelpie").cards == 0
    assert "Jhon removes an unoccupied Location" in table.view().status
    refused(table, EndTurn(player="Jhon"), IllegalCommand, "removes an unoccupied Location")
    refused(table, RemoveLocation(player="Elena", location="Turtle Beach"), IllegalCommand, "Jhon caused")
    refused(table, RemoveLocation(player="Jhon", location="The Caves"), IllegalCommand, "occupied by Jhon")
    ok(table, RemoveLocation(player="Jhon", location="Turtle Beach"))
    assert table.state.location("Turtle Beach").removed
    refused(table, RemoveLocation(player="Jhon", location="Dense Forest"), IllegalCommand, "only when")
    ok(table, EndTurn(player="Jhon"))
    assert table.state.phase == "discard"  # Jhon holds 8
    ok(table, Discard(player="Jhon"), DrawCard(player="Elena"))
    refused(table, Move(player="Elena", location="Turtle Beach"), IllegalCommand, "removed", "The Island Shrinks")
    refused(table, DrawCard(player="Kelpie"), IllegalCommand, "dead")


def test_several_killers_roll_off_for_the_cards_re_rolling_ties(table):
    _crowd(table, 4, vitality=2)  # the two ties while crowding hurt nobody
    declare_all(table)
    dice(table, 5, 5, 2, 3)  # Rex and Kelpie win, Jhon loses (2 -> 1)
    ok(table, EndTurn(player="Rex"))
    # Kelpie's turn: she Fights everyone on The Caves; make Jhon die with two killers
    ok(table, DrawCard(player="Kelpie"), Fight(player="Kelpie"))
    assert [f.name for f in table.state.combat.fighters] == ["Kelpie", "Jhon", "Elena", "Rex"]
    declare_all(table)
    jhon_cards = c(table, "Jhon").cards
    dice(table, 6, 2, 4, 6)  # Kelpie and Rex 6 win; Jhon 2 loses his last point
    death = table.state.deaths[0]
    assert (death.dead, death.killers, death.remover, death.cards) == ("Jhon", ("Kelpie", "Rex"), None, jhon_cards)
    assert RULES.pending_dice(table.state).reason == "who keeps Jhon's cards"
    refused(table, RemoveLocation(player="Kelpie", location="Turtle Beach"), IllegalCommand, "who keeps Jhon's cards")
    rex_before = c(table, "Rex").cards
    dice(table, 4, 4)  # tie: roll again
    assert RULES.pending_dice(table.state).reason == "who keeps Jhon's cards, re-roll 1"
    dice(table, 2, 5)
    assert c(table, "Rex").cards == rex_before + jhon_cards
    assert table.state.deaths[0].remover == "Rex"
    ok(table, RemoveLocation(player="Rex", location="Turtle Beach"))
    assert table.state.phase == "event" and table.state.turn == "Kelpie"


def test_death_by_other_means_discards_the_cards_and_the_causer_removes_a_location(table):
    start(table, 3, starting_cards=4)
    ok(table, DrawCard(player="Kelpie"), Move(player="Kelpie", location="The Caves"))
    ok(table, Wound(player="Elena", by="Kelpie", reason="Incendio Event", amount=5))
    assert c(table, "Elena").vitality == 0 and c(table, "Elena").cards == 0
    assert c(table, "Kelpie").cards == 5
    ok(table, RemoveLocation(player="Kelpie", location="Bloody Beach"))
    assert table.state.phase == "event"
    # The Island Shrinks: the one who caused a death chooses the Location, so a dead Contestant causes no wound
    refused(table, Wound(player="Jhon", by="Elena", reason="Fire"), IllegalCommand, "Elena is dead")
    assert c(table, "Jhon").vitality == 4


def test_a_self_caused_death_is_followed_by_the_dead_player_removing_a_location(table):
    start(table, 3)
    ok(table, DrawCard(player="Kelpie"), Move(player="Kelpie", location="The Caves"))
    ok(table, Wound(player="Kelpie", by="Kelpie", reason="own trap", amount=4))
    ok(table, RemoveLocation(player="Kelpie", location="The Caves"))  # her body left it unoccupied
    assert (table.state.turn, table.state.phase) == ("Jhon", "draw")  # R11: a dead player's turn ends


def test_the_turn_player_dying_in_their_own_hunt_passes_the_turn(table):
    _fight_setup(table, vitality=1)
    declare_all(table)
    dice(table, 2, 5)  # the hunter Jhon loses and dies; Kelpie is the killer
    ok(table, RemoveLocation(player="Kelpie", location="Monkey Forest"))
    assert (table.state.turn, table.state.phase) == ("Jhon", "discard")  # Kelpie holds 4 + 3 + 1
    ok(table, Discard(player="Kelpie"))
    assert (table.state.turn, table.state.phase) == ("Elena", "draw")


def test_last_contestant_standing_wins(table):
    _fight_setup(table, n=2, vitality=1)
    declare_all(table)
    dice(table, 5, 2)
    state = table.state
    assert state.finished and state.winner == "Jhon" and state.deaths == ()
    assert table.view().status.startswith("Game over: Jhon is the last Contestant standing")
    outcome = RULES.outcome(state)
    assert outcome.termination is Termination.LAST_STANDING and outcome.winners == ("Jhon",)
    assert outcome.reason.endswith("survives the show (Objective of the Game)")
    assert outcome.figures["Kelpie"]["vitality"] == 0 and outcome.figures["Jhon"]["vitality"] == 1
    assert table.journal.game(table.session.game_id).status == "finished"
    refused(table, EndTurn(player="Jhon"), GameFinished)
    ok(table, Undo())
    assert not table.state.finished and c(table, "Kelpie").vitality == 1


def test_an_event_killing_two_at_once_leaves_the_third_as_winner(table):
    start(table, 3, vitality=1, starting_cards=3)
    place(table, ("Kelpie", "The Caves"))
    ok(table, DrawCard(player="Jhon"), Hunt(player="Jhon", location="The Caves"))
    declare_all(table)
    dice(table, 4, 4)
    ok(
        table,
        EndTurn(player="Jhon"),
        DrawCard(player="Elena"),
        Move(player="Elena", location="Dense Forest"),
        PlayEvent(player="Elena", card="Volcano", combat_value=6, targets=("Kelpie", "Jhon")),
    )
    assert [f.name for f in table.state.combat.fighters] == ["Volcano", "Kelpie", "Jhon"]
    declare_all(table)
    dice(table, 5, 3, 3)  # Volcano 11; Kelpie and Jhon tie for lowest: both die
    assert not c(table, "Kelpie").alive and not c(table, "Jhon").alive
    assert table.state.finished and table.state.winner == "Elena"
    assert table.view().players[2].headline == "WINNER"
    outcome = RULES.outcome(table.state)
    assert (outcome.termination, outcome.winners) == (Termination.LAST_STANDING, ("Elena",))


def test_no_winner_when_the_last_two_die_together(table):
    """Objective of the Game: "if the last contestants are eliminated simultaneously there is no winner"."""
    start(table, 2, vitality=1, starting_cards=3)
    place(table, ("Kelpie", "The Caves"))
    ok(table, DrawCard(player="Jhon"), Hunt(player="Jhon", location="The Caves"))
    declare_all(table)
    dice(table, 4, 4)
    ok(table, PlayEvent(player="Jhon", card="Earthquake", combat_value=6, targets=("Kelpie", "Jhon")))
    assert [(f.name, f.roller) for f in table.state.combat.fighters] == [
        ("Earthquake", "Jhon"),
        ("Kelpie", "Kelpie"),
        ("Jhon", "Jhon"),
    ]
    declare_all(table)
    dice(table, 5, 2, 3)  # Earthquake 11: Kelpie 2 is lowest
    assert table.state.winner == "Jhon"
    ok(table, Undo(steps=2))
    dice(table, 3, 3)  # Kelpie 3 and Jhon 3: both lowest, both die
    state = table.state
    assert state.finished and state.winner is None and state.deaths == ()
    assert "no winner" in table.view().status
    outcome = RULES.outcome(state)
    assert (outcome.termination, outcome.winners) == (Termination.ALL_LOST, ())
    assert "no winner" in outcome.reason and "Objective of the Game" in outcome.reason
    assert table.view().players[0].headline == "DEAD" and table.view().players[1].headline == "DEAD"


# -- Vitality outside Combat --------------------------------------------------------------------------------------


def test_heal_never_above_the_starting_vitality_and_wound_validated(table):
    start(table, 2)
    refused(table, Heal(player="Kelpie", reason="First aid"), IllegalCommand, "cannot go above")
    ok(table, Wound(player="Kelpie", by="Jhon", reason="Trap", amount=2), Heal(player="Kelpie", reason="First aid"))
    assert c(table, "Kelpie").vitality == 3
    refused(table, Wound(player="Kelpie", by="Nobody", reason="x"), MalformedCommand, "unknown Contestant")
    refused(table, Wound(player="Kelpie", by="Jhon", reason="x", amount=0), MalformedCommand)
    refused(table, Wound(player="Kelpie", by="Jhon", reason=""), MalformedCommand)


# -- Buttons, journal, undo ----------------------------------------------------------------------------------------


def test_buttons_are_the_three_seat_buttons_with_labels(table):
    assert tuple(b.action for b in RULES.info.buttons) == ("on_the_air", "sponsor", "roll")
    assert tuple(b.slot for b in RULES.info.buttons) == ("a", "b", "c")
    assert all(b.label for b in RULES.info.buttons)
    assert RULES.button_command("roll", "Kelpie") == RollDice(roller="Kelpie", source="button")
    with pytest.raises(MalformedCommand):
        RULES.button_command("peek", "Kelpie")


def test_buttons_bonus_confirm_and_roll_drive_a_whole_turn(table):
    _fight_setup(table)
    button = lambda action, player: RULES.button_command(action, player)  # noqa: E731
    refused(table, button("on_the_air", "Kelpie"), IllegalCommand, "Jhon shows their cards before Kelpie")
    ok(table, button("on_the_air", "Jhon"), button("on_the_air", "Jhon"))
    assert table.state.combat.fighters[0].draft == 2 and not table.state.combat.fighters[0].declared
    ok(table, button("sponsor", "Jhon"))
    fighter = table.state.combat.fighters[0]
    assert fighter.declared and fighter.bonus == 2 and c(table, "Jhon").cards == 2  # the bonus card was shown (R3)
    ok(table, button("sponsor", "Kelpie"))
    refused(table, button("roll", "Kelpie"), DiceError, "Jhon")
    ok(table, button("roll", "Jhon"), button("roll", "Kelpie"))
    assert "(die) + 0 Unarmed + 2 Bonus cards" in table.state.last_combat.lines[0]
    ok(table, button("sponsor", "Jhon"))  # Event Phase: ends the turn
    assert table.state.turn == "Elena"
    ok(table, button("sponsor", "Elena"))  # Draw Phase: draws
    assert table.state.phase == "action"
    refused(table, button("sponsor", "Elena"), IllegalCommand, "must Move, Hunt or Fight")


def test_journal_payloads_are_json_and_a_replay_rebuilds_the_same_state(table):
    _crowd(table, 4)
    game_id = table.session.game_id
    declare_all(table)
    dice(table, 6, 6, 2, 4)
    rows = read_events(table.journal.path, game_id)
    assert all(json.loads(json.dumps(r["payload"])) == r["payload"] for r in rows)
    assert replay(table.journal.events(game_id)).state == table.state


def test_undo_a_combat_puts_vitality_cards_and_the_combat_back(table):
    _fight_setup(table)
    declare_all(table)
    before = table.state
    dice(table, 5)
    after_first = table.state
    dice(table, 2)
    assert c(table, "Kelpie").vitality == 3
    ok(table, Undo())
    assert table.state == after_first
    ok(table, Undo())
    assert table.state == before


def test_every_table_refusal_is_a_command_error(table):
    start(table, 2)
    for command in (
        Move(player="Kelpie", location=3),
        DrawCard(player=None),
        Discard(player="Kelpie", count=-1),
        AdjustHand(player="Kelpie", delta=0),
        AdjustBonus(fighter="Kelpie"),
        Confirm(player="Jhon"),
        RemoveLocation(player="Kelpie", location="The Caves"),
        EndGame(reason="  "),
    ):
        refused(table, command, CommandError)


def test_end_game_at_the_table(table):
    start(table, 2)
    assert RULES.outcome(table.state) is None
    ok(table, EndGame(reason="the owner has the final word"))
    assert table.state.finished and table.view().finished
    outcome = RULES.outcome(table.state)
    assert (outcome.termination, outcome.winners) == (Termination.ENDED_BY_HAND, ())
    assert outcome.reason == "ended at the table: the owner has the final word"
    assert set(outcome.figures) == {"Kelpie", "Jhon"}


def test_panels_show_vitality_location_cards_turn_and_odds_in_plain_ascii(table):
    from hardware.panels import render_player_panel

    _fight_setup(table)
    declare_all(table, Jhon={"weapon": "Katana", "weapon_bonus": 3})
    kelpie, jhon, elena = table.view().players
    assert (jhon.headline, jhon.panel_lines, jhon.turn) == (
        "Vitality 4",
        ("The Caves - 2 cards", "win 75% lose 17%"),
        True,
    )
    assert (elena.headline, elena.panel_lines, elena.turn) == ("Vitality 4", ("off the island - 3 cards",), False)
    assert all(text.isascii() for p in (kelpie, jhon, elena) for text in (p.headline, *p.panel_lines))
    assert render_player_panel(jhon).getbbox() is not None


# -- A fresh user's trial: what the status says, refusals for the dead, plurals ----------------------------------


def test_status_says_the_event_has_been_played_and_that_the_turn_ends_next(table):
    start(table, 3, starting_cards=3)
    ok(table, DrawCard(player="Kelpie"), Move(player="Kelpie", location="The Caves"))
    assert table.view().status.endswith("Event Phase: Kelpie may play 1 Event, then ends the turn")
    ok(table, PlayEvent(player="Kelpie", card="Fire"))
    status = table.view().status
    assert status.endswith("Event Phase: Kelpie has played their Event: end the turn"), status
    assert "may play" not in status
    refused(table, Confirm(player="Jhon"), IllegalCommand, "Kelpie has played their Event: end the turn")


def test_status_says_a_player_without_cards_has_no_event_to_play(table):
    start(table, 2)
    ok(
        table,
        DrawCard(player="Kelpie"),
        Move(player="Kelpie", location="The Caves"),
        AdjustHand(player="Kelpie", delta=-1, reason="played a card"),
    )
    assert table.view().status.endswith("Kelpie holds no cards, so has no Event to play: end the turn")


def _kelpie_dead_in_a_combat(table):
    """Kelpie dies by other means; then Jhon Fights Elena on The Bunker: a Combat with Kelpie dead."""
    start(table, 3, starting_cards=3)
    ok(
        table,
        DrawCard(player="Kelpie"),
        Move(player="Kelpie", location="The Caves"),
        Wound(player="Kelpie", by="Kelpie", reason="own trap", amount=4),
        RemoveLocation(player="Kelpie", location="Turtle Beach"),
    )
    ok(table, DrawCard(player="Jhon"), Move(player="Jhon", location="The Bunker"), EndTurn(player="Jhon"))
    ok(table, DrawCard(player="Elena"), Hunt(player="Elena", location="The Bunker"))


@pytest.mark.parametrize("action", ["on_the_air", "sponsor"])
def test_a_dead_contestants_seat_buttons_are_refused_as_dead_first(table, action):
    start(table, 3, starting_cards=3)
    ok(
        table,
        DrawCard(player="Kelpie"),
        Move(player="Kelpie", location="The Caves"),
        Wound(player="Kelpie", by="Kelpie", reason="own trap", amount=4),
        RemoveLocation(player="Kelpie", location="Turtle Beach"),
    )
    # no Combat at all: the first reason is still that Kelpie is dead, not "there is no Combat"
    refused(
        table,
        RULES.button_command(action, "Kelpie"),
        IllegalCommand,
        "Kelpie is dead (out of the game)",
        "When a Contestant Dies",
    )
    ok(table, DrawCard(player="Jhon"), Move(player="Jhon", location="The Bunker"), EndTurn(player="Jhon"))
    ok(table, DrawCard(player="Elena"), Hunt(player="Elena", location="The Bunker"))
    refusal = refused(table, RULES.button_command(action, "Kelpie"), IllegalCommand)
    assert str(refusal).startswith("Kelpie is dead (out of the game)"), str(refusal)


def test_a_dead_contestants_declaration_and_dice_are_refused_as_dead_first(table):
    _kelpie_dead_in_a_combat(table)
    for command in (
        DeclareFighter(fighter="Kelpie"),
        AdjustBonus(fighter="Kelpie"),
        AnswerDice(roller="Kelpie", values=(3,)),
    ):
        refusal = refused(table, command, IllegalCommand)
        assert str(refusal).startswith("Kelpie is dead (out of the game)"), (command, str(refusal))
    declare_all(table)
    refusal = refused(table, AnswerDice(roller="Kelpie", values=(3,)), IllegalCommand)
    assert str(refusal).startswith("Kelpie is dead"), str(refusal)


def test_one_card_is_singular_in_refusals_notes_and_history(table):
    start(table, 3, starting_cards=1)
    ok(table, DrawCard(player="Kelpie"), Move(player="Kelpie", location="The Caves"), EndTurn(player="Kelpie"))
    ok(table, DrawCard(player="Jhon"), Hunt(player="Jhon", location="The Caves"))  # Jhon: 2 - 1 Trail = 1
    refused(
        table,
        DeclareFighter(fighter="Jhon", weapon="Axe", weapon_bonus=2, bonuses=(("A", 1),)),
        IllegalCommand,
        "Jhon holds 1 card, so cannot show 2",
    )
    refusal = refused(table, AdjustHand(player="Elena", delta=-2, reason="played"), IllegalCommand)
    assert "Elena holds 1 card, so" in str(refusal) and "1 cards" not in str(refusal)
    declare_all(table)
    dice(table, 6, 2)  # Jhon wins; Kelpie (2 cards) loses one to Loot
    texts = [e.text for e in table.history()]
    assert any("Jhon takes 1 card from Kelpie" in t for t in texts), texts
    assert not any(" 1 cards" in t for t in texts), texts
    assert not any(" 1 cards" in line for p in table.view().players for line in p.panel_lines)


def test_a_death_with_one_card_says_card_and_one_with_none_says_so():
    def describe(event_type, payload):
        return RULES.describe(RULES.events.decode(event_type, payload))

    one = {"player": "Kelpie", "cause": "combat", "killers": ["Jhon"], "remover": "Jhon", "cards": 1, "rule": ""}
    assert "keeps their 1 card" in describe("contestant_died", one)
    assert "their 1 card is discarded" in describe("contestant_died", {**one, "cause": "other", "killers": []})
    assert "held no cards" in describe("contestant_died", {**one, "cause": "other", "killers": [], "cards": 0})
    assert "keeps Kelpie's 1 card" in describe(
        "killer_chosen", {"player": "Jhon", "total": 5, "dead": "Kelpie", "cards": 1, "rule": ""}
    )
