"""Death Show TV: tests for the mutants that survived the sampled mutation run (issue 19, ``tools/mutation.py
death_show_tv --sample 400 --seed 19``; reviewed one by one in ``docs/mutation.md``). Each test names the rule
(sections of ``rules/death-show-tv.txt``, rulings R1… of ``docs/rulings-death-show-tv.md``) and the careless
change it guards against. Played through the real table and journal (helpers from test_death_show_tv_core)."""

from __future__ import annotations

import pytest
from test_death_show_tv_core import RULES, _crowd, _fight_setup, c, declare_all, dice, ok, refused, start
from test_death_show_tv_issue19 import _events

from companion.errors import BadOption, GameFinished, MalformedCommand
from companion.game import Termination
from companion.games.death_show_tv import (
    AdjustBonus,
    AdjustHand,
    Confirm,
    DeclareFighter,
    Discard,
    DrawCard,
    EndTurn,
    Hunt,
    Move,
    NewWeaponLevel,
    PlayEvent,
    PlayOnAir,
    RemoveLocation,
    ReshuffleDiscards,
)
from companion.games.death_show_tv.commands import declaration
from companion.games.death_show_tv.events import (
    CardsMoved,
    CombatResolved,
    ContestantDied,
    EventPlayed,
    HandChanged,
    KillerChosen,
    OnAirPlayed,
    PhaseChanged,
)

RUNNING_OUT = "Running Out of Show Cards"


def _nothing_to_draw(table):
    """Two Contestants; Kelpie has drawn her card, then a correction gives Jhon the other 81: the Show deck and
    the discards are both empty (ruling R20)."""
    start(table, 2)
    ok(table, DrawCard(player="Kelpie"), AdjustHand(player="Jhon", delta=81, reason="card effects"))
    assert (table.state.show_deck, table.state.discards, c(table, "Kelpie").cards) == (0, 0, 1)


# -- Running Out of Show Cards, ruling R20 ----------------------------------------------------------------------


def test_nothing_to_reshuffle_and_nothing_to_draw_are_refused_in_so_many_words_citing_running_out(table):
    """Running Out of Show Cards: the discards are shuffled into a new deck, so with none there is nothing to
    shuffle, and a correction cannot draw a card that is not there. Guards the refusals' words (an "XX" or
    changed text) and the rule they cite (dropped) in the Reshuffle button's reason."""
    _nothing_to_draw(table)
    refusal = refused(table, ReshuffleDiscards(player="Kelpie"))
    assert (refusal.reason, refusal.rule) == ("the discards are empty: there is nothing to shuffle", RUNNING_OUT)
    offered = [e for e in RULES.legal_commands(table.state, "Kelpie") if e.kind == "ReshuffleDiscards"]
    assert [(e.enabled, e.reason, e.rule) for e in offered] == [
        (False, "the discards are empty: there is nothing to shuffle", RUNNING_OUT)
    ]
    refusal = refused(table, AdjustHand(player="Kelpie", delta=2, reason="a card's effect"))
    assert refusal.reason == "only 0 cards can be drawn (the Show deck and the discards): not 2"
    assert refusal.rule == RUNNING_OUT


def test_a_new_weapon_level_with_nothing_left_to_draw_discards_the_rule_change_from_the_hand(table):
    """Types of Show Cards: Rule Change (ruling R16) with nothing left to draw (R20): the Rule Change card is
    discarded and no card replaces it, so the hand holds one card fewer and the discards one more. Guards the
    hand change's ``delta`` (made ``None``: the event cannot be folded, the correction fails)."""
    _nothing_to_draw(table)
    ok(table, NewWeaponLevel(player="Kelpie"))
    assert table.state.weapon_level == 2
    assert (c(table, "Kelpie").cards, table.state.show_deck, table.state.discards) == (0, 0, 1)
    reason = "discards the Rule Change card; no Show card is left to replace it"
    rule = f"Types of Show Cards: Rule Change; {RUNNING_OUT}"
    assert _events(table, HandChanged)[-1] == HandChanged("Kelpie", -1, 0, reason, rule)
    assert table.history()[-1].text.endswith(f"; Kelpie -1 card (now 0): {reason} ({rule})")


def test_a_draw_phase_with_nothing_left_to_draw_goes_on_to_the_action_phase(table):
    """Phases of a Turn 1-2 and ruling R20: with the Show deck and the discards empty the turn's draw draws
    nothing and the Action Phase follows, saying why. Guards that phase change (its phase dropped: the game
    stuck in a phase named by the reason)."""
    start(table, 2)
    ok(table, AdjustHand(player="Jhon", delta=82, reason="card effects"))  # in Kelpie's Draw Phase
    ok(table, DrawCard(player="Kelpie"))
    assert (table.state.phase, c(table, "Kelpie").cards) == ("action", 0)
    assert table.history()[-1].text == (
        "Action Phase: no Show card is left to draw (the deck and the discards are empty); Move, Hunt or Fight"
        f" (Phases of a Turn 2; {RUNNING_OUT})"
    )
    ok(table, Move(player="Kelpie", location="The Caves"))


# -- Location Cards: the optional special rules (option) --------------------------------------------------------


def test_a_location_rule_note_names_a_location_and_may_be_200_characters_long():
    """Location Cards (option ``location_rules``): a note of the optional special rule of one of the nine
    Locations, of 1 to 200 characters. Guards the unknown Location's refusal (its words made ``None``) and
    the length limit (made exclusive: 200 refused)."""
    assert RULES.check_options({"location_rules": {"The Caves": "x" * 200}})["location_rules"] == {
        "The Caves": "x" * 200
    }
    with pytest.raises(BadOption) as raised:
        RULES.check_options({"location_rules": {"The Caves": "x" * 201}})
    assert raised.value.problem == f"the note for The Caves must be 1 to 200 characters, not {'x' * 201!r}"
    with pytest.raises(BadOption) as raised:
        RULES.check_options({"location_rules": {"Atlantis": "sunk"}})
    assert (raised.value.option, raised.value.problem) == (
        "location_rules",
        "no Location called 'Atlantis'; the island has Forest of Screams, Dense Forest, Monkey Forest, "
        "The Lighthouse, The Bunker, The Caves, Bloody Beach, Paradise Beach, Turtle Beach",
    )


# -- Phases of a Turn 3: Events ---------------------------------------------------------------------------------


def _event_phase(table):
    """Three Contestants with two cards each; Kelpie draws and Moves: her Event Phase."""
    start(table, 3, starting_cards=2)
    ok(table, DrawCard(player="Kelpie"), Move(player="Kelpie", location="The Caves"))
    assert table.state.phase == "event"


def test_an_event_badly_given_is_refused_with_what_is_wrong_with_it(table):
    """Phases of a Turn 3; Fighting an Event: an Event attacks only with its Combat value, of at most +20 here,
    and each Contestant once. Guards the refusals' words (upper-cased, lower-cased "Combat value") and the
    repeated-target refusal (its list made of ``None``: a TypeError instead of a refusal)."""
    _event_phase(table)
    refusal = refused(table, PlayEvent(player="Kelpie", card="Storm", targets=("Jhon",)), MalformedCommand)
    assert refusal.reason == "an Event without a Combat value attacks nobody; give its Combat value"
    refusal = refused(
        table, PlayEvent(player="Kelpie", card="Storm", combat_value=21, targets=("Jhon",)), MalformedCommand
    )
    assert refusal.reason == "an Event's Combat value must be a whole number from -20 to 20, not 21"
    refusal = refused(
        table, PlayEvent(player="Kelpie", card="Storm", combat_value=2, targets=("Jhon", "Jhon")), MalformedCommand
    )
    assert refusal.reason == "a Contestant is named twice among the targets: ['Jhon', 'Jhon']"
    ok(table, PlayEvent(player="Kelpie", card="Storm", combat_value=20, targets=("Jhon",)))  # +20 is the most


def test_an_on_air_event_is_told_as_the_phases_event(table):
    """Phases of a Turn 3 and Show Cards: Generic Rules (ON AIR): an ON AIR card played as the phase's one Event
    is told as "the ON AIR Event" in the history, an ON AIR card played at any time as "the ON AIR card". Guards
    the history line (the Event told as a card, its words changed)."""
    _event_phase(table)
    ok(table, PlayOnAir(player="Kelpie", card="Curfew", in_front_of="Jhon"))
    ok(table, PlayOnAir(player="Kelpie", card="Fog", event=True))
    said = [e.describe() for e in _events(table, OnAirPlayed)]
    rule = "Show Cards: Generic Rules (ON AIR)"
    assert said == [
        f"Kelpie plays the ON AIR card Curfew, face up in front of Jhon until Kelpie's next turn ({rule})",
        f"Kelpie plays the ON AIR Event Fog, face up in front of Kelpie until Kelpie's next turn ({rule})",
    ]
    assert table.history()[-1].text == said[-1]


# -- How Combat Is Resolved 1-2: declaring --------------------------------------------------------------------


def test_the_bonus_entered_on_the_buttons_goes_down_to_minus_20_and_no_further(table):
    """How Combat Is Resolved 1 (ruling R3): the seat buttons' bonus stays from -20 to +20 (the largest single
    bonus accepted). Guards the lower bound (made exclusive: -20 refused)."""
    _fight_setup(table)
    for _ in range(4):
        ok(table, AdjustBonus(fighter="Jhon", delta=-5))
    assert table.state.combat.fighters[0].draft == -20
    refusal = refused(table, AdjustBonus(fighter="Jhon", delta=-1), MalformedCommand)
    assert refusal.reason == "the bonus entered stays from -20 to 20 (now -20)"
    ok(table, Confirm(player="Jhon"))
    assert table.state.combat.fighters[0].bonus == -20


def test_a_weapon_plus_1_of_level_1_from_the_form_is_a_weapon_not_unarmed(table):
    """Types of Show Cards: Weapons; How Combat Is Resolved, note * (Unarmed is +0 of level 1): the touchscreen
    and phone form's Weapon +1 of level 1 is a Weapon card shown and spent, and its winner draws nothing.
    Guards ``declaration``'s test for a Weapon (``bonus > 1``: a +1 Weapon declared Unarmed)."""
    _fight_setup(table)
    assert declaration("Jhon", weapon_bonus=1) == DeclareFighter(
        fighter="Jhon", weapon="Weapon", weapon_bonus=1, weapon_level=1, source="touch"
    )
    held = c(table, "Jhon").cards
    ok(table, declaration("Jhon", weapon_bonus=1))
    fighter = table.state.combat.fighters[0]
    assert (fighter.unarmed, fighter.bonus, fighter.cards_spent, c(table, "Jhon").cards) == (False, 1, 1, held - 1)


# -- Phases of a Turn 4: the Discard Phase -------------------------------------------------------------------


def _discard_phase(table):
    """Kelpie, dealt 7, draws an eighth, Moves and ends her turn: the Discard Phase."""
    start(table, 3, starting_cards=7)
    ok(table, DrawCard(player="Kelpie"), Move(player="Kelpie", location="The Caves"), EndTurn(player="Kelpie"))
    assert (table.state.phase, c(table, "Kelpie").cards) == ("discard", 8)


def test_confirm_in_the_discard_phase_discards_one_card_citing_the_hand_limit(table):
    """Phases of a Turn 4: a player over 7 cards discards down to 7; the seat's Confirm button discards one.
    Guards Confirm's Discard Phase branch (its "nothing else waits" check inverted: Confirm refused) and the
    discard's rule in the journal (dropped)."""
    _discard_phase(table)
    ok(table, RULES.button_command("sponsor", "Kelpie"))
    assert c(table, "Kelpie").cards == 7
    assert (table.state.turn, table.state.phase) == ("Jhon", "draw")
    reason = "discards down to the hand limit of 7"
    assert _events(table, HandChanged)[-1] == HandChanged("Kelpie", -1, 7, reason, "Phases of a Turn 4")
    assert table.history()[-1].text == (
        f"Kelpie -1 card (now 7): {reason} (Phases of a Turn 4); Turn 2: Jhon's turn begins (Draw Phase)"
    )


def test_discarding_below_the_hand_limit_is_refused_saying_how_many_are_held(table):
    """Phases of a Turn 4: "discard down to 7", no further. Guards the refusal's count of cards held."""
    _discard_phase(table)
    refusal = refused(table, Discard(player="Kelpie", count=2))
    assert (refusal.reason, refusal.rule) == ("Kelpie holds 8 cards and discards only down to 7", "Phases of a Turn 4")


# -- Multiple Combat 2; Killing a Contestant in Combat; The Island Shrinks ---------------------------------------


def _crowd_of_one_vitality(table, *values):
    """Vitality 1 (When a Contestant Dies, option): Rex Hunts Kelpie, Jhon and Elena on The Caves, all Unarmed,
    and the dice are ``values`` in the order Rex, Kelpie, Jhon, Elena."""
    _crowd(table, 4, vitality=1)
    declare_all(table)
    dice(table, *values)


def test_three_winners_kill_the_lowest_and_roll_off_for_her_cards(table):
    """Multiple Combat 2 (the lowest result is the Loser; "a tie for the highest result ... as though all those
    players had won"); Killing a Contestant in Combat: several players who kill the same Contestant "roll the
    die, and the player with the highest roll keeps the Show cards"; ruling R13 (that player removes the
    Location). Guards the summary's plural ("win"), the death's history line (several killers told as a death
    by other means) and the rule of the roll-off's result (dropped)."""
    _crowd_of_one_vitality(table, 5, 5, 5, 2)
    report = table.state.last_combat
    assert (report.winners, report.losers) == (("Rex", "Kelpie", "Jhon"), ("Elena",))
    assert report.summary == "Rex and Kelpie and Jhon win; Elena loses"
    died = _events(table, ContestantDied)[-1]
    assert died.killers == ("Rex", "Kelpie", "Jhon") and died.remover is None
    held = died.cards
    assert died.describe() == (
        f"Elena dies and is out of the show: killed by Rex and Kelpie and Jhon, who roll off for their {held} cards"
        " (Killing a Contestant in Combat)"
    )
    dice(table, 2, 6, 3)  # Rex, Kelpie, Jhon
    rule = "Killing a Contestant in Combat"
    assert _events(table, KillerChosen) == [KillerChosen("Elena", "Kelpie", 6, held, rule)]
    assert table.history()[-1].text.endswith(f"; Kelpie rolled highest (6) and keeps Elena's {held} cards ({rule})")
    assert table.state.deaths[0].remover == "Kelpie"


def test_the_location_of_the_combat_cannot_be_removed_while_its_survivors_stand_there(table):
    """The Island Shrinks: the killer removes an unoccupied Location. Guards the refusal's list of the
    Contestants standing there (its separator changed)."""
    _crowd_of_one_vitality(table, 6, 4, 4, 2)  # Rex wins alone, Elena (lowest) dies
    assert table.state.deaths[0].remover == "Rex"
    refusal = refused(table, RemoveLocation(player="Rex", location="The Caves"))
    assert refusal.reason == "The Caves is occupied by Kelpie, Jhon, Rex: choose an unoccupied Location"
    offered = {e.label: e for e in RULES.legal_commands(table.state, "Rex") if e.kind == "RemoveLocation"}
    assert offered["Remove The Caves"].reason == refusal.reason and not offered["Remove The Caves"].enabled
    ok(table, RemoveLocation(player="Rex", location="Turtle Beach"))
    assert table.state.location("Turtle Beach").removed


# -- Fighting an Event -------------------------------------------------------------------------------------------


def test_an_event_of_combat_plus_0_adds_nothing_to_its_die(table):
    """Fighting an Event: the Event card's total is its die plus its fixed Combat value, here +0, so a 4 against
    Jhon's Unarmed 4 is a tie and nothing happens. Guards the Event's value (``value or 1``: +0 read as +1)."""
    _event_phase(table)
    ok(table, PlayEvent(player="Kelpie", card="Killer Squirrels", combat_value=0, targets=("Jhon",)))
    assert table.state.combat.fighters[0].bonus == 0
    declare_all(table)
    assert RULES.pending_dice(table.state).reason == "the Killer Squirrels (Combat +0)"
    dice(table, 4, 4)
    report = table.state.last_combat
    assert report.lines == ("Killer Squirrels 4 = 4 (die) + 0 Combat", "Jhon 4 = 4 (die) + 0 Unarmed")
    assert report.summary == "a tie: nothing happens" and c(table, "Jhon").vitality == 4


def test_an_event_combat_after_a_hunt_does_not_open_the_event_phase_again(table):
    """Phases of a Turn 2-3: a Hunt's Combat leads to the Event Phase; the one Event played there may fight
    (Fighting an Event), and once it is resolved the Event Phase simply goes on: it is not announced again
    ("you may play 1 Event"). Guards the phase change forgetting the phase to resume after a Combat."""
    _fight_setup(table)
    declare_all(table)
    dice(table, 3, 3)  # a tie: the Event Phase
    assert table.state.phase == "event"
    ok(table, PlayEvent(player="Jhon", card="Killer Squirrels", combat_value=0, targets=("Kelpie",)))
    played = len(_events(table, PhaseChanged))
    declare_all(table)
    dice(table, 2, 5)  # Kelpie wins against the Event
    assert len(_events(table, PhaseChanged)) == played
    assert "you may play 1 Event" not in table.history()[-1].text
    assert (table.state.phase, table.state.events_played, table.state.resume_phase) == ("event", 1, None)
    ok(table, EndTurn(player="Jhon"))
    assert table.state.turn == "Elena"


def test_the_last_two_killed_together_by_an_event_leave_no_winner(table):
    """Objective of the Game: "if the last contestants are eliminated simultaneously there is no winner"; Fighting an
    Event (an Event may attack its own player too; ruling R10: only the Event card won). Guards the end's words
    ("Contestants" lower-cased)."""
    start(table, 2, vitality=1, starting_cards=2)
    ok(table, DrawCard(player="Kelpie"), Move(player="Kelpie", location="The Caves"), EndTurn(player="Kelpie"))
    ok(table, DrawCard(player="Jhon"), Hunt(player="Jhon", location="The Caves"))
    declare_all(table)
    dice(table, 3, 3)  # a tie
    ok(table, PlayEvent(player="Jhon", card="Volcano", combat_value=0, targets=("Kelpie", "Jhon")))
    declare_all(table)
    dice(table, 6, 1, 1)  # the Volcano 6; Kelpie and Jhon fumble
    assert not table.state.alive and table.state.finished and table.state.winner is None
    reason = "the last Contestants died together: there is no winner (no glory for the dead)"
    assert table.state.end_reason == reason
    outcome = RULES.outcome(table.state)
    assert (outcome.termination, outcome.winners) == (Termination.ALL_LOST, ())
    assert outcome.reason == f"{reason} (Objective of the Game)"
    assert table.history()[-1].text.endswith(f"The show is over: {reason} (Objective of the Game)")
    refusal = refused(table, EndTurn(player="Jhon"), GameFinished)
    assert (refusal.reason, refusal.rule) == (f"the game is over ({reason}); undo to reopen it", "table rule")


# -- How Combat Is Resolved 4-5 -------------------------------------------------------------------------------------


def test_the_combat_report_keeps_each_total_and_fumble_for_the_result_screen(table):
    """How Combat Is Resolved 4: a 1 on the die is a Fumble and loses, whatever the total. The report the
    result screen shows (each fighter's total, terms and Fumble) and the journal's resolution carry them.
    Guards the report's Fumbles (dropped) and the journaled totals (made ``None``)."""
    _fight_setup(table)
    ok(table, DeclareFighter(fighter="Jhon", weapon="Machete", weapon_bonus=3), DeclareFighter(fighter="Kelpie"))
    dice(table, 1, 2)  # Jhon 1 + 3 = 4 but a Fumble; Kelpie 2
    report = table.state.last_combat
    assert (report.winners, report.losers) == (("Kelpie",), ("Jhon",))
    assert (report.names, report.totals, report.fumbles) == (("Jhon", "Kelpie"), (4, 2), (True, False))
    assert (report.terms(0), report.terms(1)) == ("1 (die) + 3 Machete", "2 (die) + 0 Unarmed")
    resolved = _events(table, CombatResolved)[-1]
    assert [(f.name, f.total, f.fumble) for f in resolved.fighters] == [("Jhon", 4, True), ("Kelpie", 2, False)]


def test_a_loser_holding_one_card_is_looted_of_it(table):
    """How Combat Is Resolved 5: "The Winner draws a random card from the hand of the Loser", even the last one.
    Guards Loot skipping a Loser with one card and the Loot's words in the history (made ``None``)."""
    _fight_setup(table, starting_cards=0)  # Jhon played his only card as the Trail; Kelpie drew one
    assert (c(table, "Jhon").cards, c(table, "Kelpie").cards) == (0, 1)
    declare_all(table)
    dice(table, 6, 2)  # Jhon wins Unarmed: draws a card and loots Kelpie's
    assert (c(table, "Jhon").cards, c(table, "Kelpie").cards) == (2, 0)
    reason, rule = "Loot: a random card from the Loser's hand", "How Combat Is Resolved 5 (Loot)"
    assert _events(table, CardsMoved) == [CardsMoved("Kelpie", "Jhon", 1, reason, rule)]
    assert f"; Jhon takes 1 card from Kelpie: {reason} ({rule})" in table.history()[-1].text


def test_a_card_name_may_be_40_characters_long(table):
    """Phases of a Turn 3: an Event card is named as printed; names of up to 40 characters are taken (the
    companion's limit, long enough for every printed card). Guards the limit (made exclusive: 40 refused)."""
    _event_phase(table)
    refusal = refused(table, PlayEvent(player="Kelpie", card="x" * 41), MalformedCommand)
    assert refusal.reason == f"the Event card's name must be a name of 1 to 40 characters, not {'x' * 41!r}"
    ok(table, PlayEvent(player="Kelpie", card="x" * 40))
    assert _events(table, EventPlayed)[-1].card == "x" * 40
