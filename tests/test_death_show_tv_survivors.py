"""Death Show TV: tests for the mutants that survived the sampled mutation run (issue 19, ``tools/mutation.py
death_show_tv --sample 400 --seed 19``; reviewed one by one in ``docs/mutation.md``). Each test names the rule
(sections of ``rules/death-show-tv.txt``, rulings R1… of ``docs/rulings-death-show-tv.md``) and the careless
change it guards against. Played through the real table and journal (helpers from test_death_show_tv_core)."""

from __future__ import annotations

from test_death_show_tv_core import RULES, _crowd, _fight_setup, c, declare_all, dice, ok, refused, start
from test_death_show_tv_issue19 import _events

from companion.errors import MalformedCommand
from companion.games.death_show_tv import (
    AdjustBonus,
    AdjustHand,
    Confirm,
    DeclareFighter,
    Discard,
    DrawCard,
    EndTurn,
    Move,
    NewWeaponLevel,
    PlayEvent,
    PlayOnAir,
    RemoveLocation,
    ReshuffleDiscards,
)
from companion.games.death_show_tv.commands import declaration
from companion.games.death_show_tv.events import ContestantDied, HandChanged, KillerChosen, OnAirPlayed

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
    """Multiple Combat 2 (the lowest result loses; equal highest all win); Killing a Contestant in Combat: "If
    several Winners killed the Loser, they roll off" for the cards. Guards the summary's plural ("win"), the
    death's history line (several killers told as a death by other means) and the rule of the roll-off's
    result (dropped)."""
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
