"""Death Show TV, issue 19: ruling R5's two readings (option ``multiple_combat_fumbles``), the tests that kill
the audit's careless changes (Unarmed with Equipment, Loot in Event combats, who removes the Location after
a self-caused death), the seat buttons' bonus spending a card as the touch dialog does (issue 18), and the
Show deck, the discards and the ON AIR cards face up (Show Cards: Generic Rules; Running Out of Show Cards).
Played through the real table and journal (helpers from test_death_show_tv_core)."""

from __future__ import annotations

import pytest
from conftest import read_events
from test_death_show_tv_core import RULES, _crowd, _fight_setup, c, declare_all, dice, ok, refused, start

from companion.commands import NewGame, PlayerSeat
from companion.errors import BadOption, IllegalCommand
from companion.games.death_show_tv import (
    AdjustBonus,
    CardsMoved,
    Confirm,
    DeclareFighter,
    DrawCard,
    EndTurn,
    Move,
    PlayEvent,
    RemoveLocation,
    Wound,
)
from companion.games.death_show_tv.combat import FighterDice, odds, odds_by_dice, odds_by_enumeration, resolve


def _events(table, kind):
    """The journal's events of class ``kind``, oldest first, read back from the SQLite file."""
    rows = [row for row in read_events(table.journal.path) if row["type"] in RULES.events.classes]
    decoded = (RULES.events.decode(row["type"], row["payload"]) for row in rows)
    return [event for event in decoded if isinstance(event, kind)]


# -- R5: a Fumble in a Multiple Combat ----------------------------------------------------------------------


def test_r5_default_the_fumbler_loses_instead_of_the_lowest_total(table):
    """R5 (default): Jhon fumbles with 6; Elena's 2 is the lowest clean total and is not hurt."""
    _crowd(table, 4)
    assert table.state.settings.multiple_combat_fumbles == "instead_of_lowest"
    declare_all(table, Jhon={"weapon": "Axe", "weapon_bonus": 5})
    dice(table, 3, 4, 1, 2)  # Rex 3, Kelpie 4, Jhon 1+5 FUMBLE, Elena 2
    report = table.state.last_combat
    assert (report.winners, report.losers) == (("Kelpie",), ("Jhon",))
    assert (c(table, "Jhon").vitality, c(table, "Elena").vitality) == (3, 4)


def test_r5_house_rule_and_lowest_the_lowest_clean_total_loses_beside_the_fumbler(table):
    """R5 (option "and_lowest"): the same dice hurt Jhon (Fumble) and Elena (lowest result, Multiple Combat 2)."""
    _crowd(table, 4, multiple_combat_fumbles="and_lowest")
    declare_all(table, Jhon={"weapon": "Axe", "weapon_bonus": 5})
    dice(table, 3, 4, 1, 2)
    report = table.state.last_combat
    assert (report.winners, report.losers) == (("Kelpie",), ("Jhon", "Elena"))
    assert (c(table, "Jhon").vitality, c(table, "Elena").vitality) == (3, 3)
    # Loot: each Loser gives a card to the nearest Winner to their left (R9): both to Kelpie
    loot = [e for e in _events(table, CardsMoved) if e.to == "Kelpie"]
    assert sorted(e.from_ for e in loot[-2:]) == ["Elena", "Jhon"]


@pytest.mark.parametrize("reading", ["instead_of_lowest", "and_lowest"])
def test_r5_both_readings_agree_with_two_fighters_and_when_every_clean_total_is_highest(reading):
    """With two fighters both readings are How Combat Is Resolved 4; clean totals all equal are all Winners."""
    lowest_also = reading == "and_lowest"
    assert resolve([(False, 5), (True, 9)], lowest_also) == resolve([(False, 5), (True, 9)])
    assert resolve([(False, 5), (False, 5), (True, 9)], lowest_also).losers == (2,)
    assert resolve([(False, 5), (False, 7), (False, 3)], lowest_also).losers == (2,)  # no Fumble: same
    assert resolve([(True, 5), (True, 7)], lowest_also).nothing


def test_r5_house_rule_odds_closed_form_equal_enumeration_and_every_die_face():
    fighters = [
        FighterDice(1, 2),
        FighterDice(2, 0),
        FighterDice(1, 4),
        FighterDice(1, 0, frozenset({1, 2})),
    ]
    for lowest_also in (False, True):
        closed = odds(fighters, lowest_also)
        assert closed == odds_by_enumeration(fighters, lowest_also) == odds_by_dice(fighters, lowest_also)
        assert all(ch.win + ch.lose + ch.nothing == 1 for ch in closed)
    assert odds(fighters, True)[0].lose > odds(fighters, False)[0].lose  # the house rule hurts more often
    assert [ch.win for ch in odds(fighters, True)] == [ch.win for ch in odds(fighters, False)]


def test_r5_option_is_checked(table):
    for bad in ("both", 1, None):
        with pytest.raises(BadOption, match="multiple_combat_fumbles"):
            RULES.check_options({"multiple_combat_fumbles": bad})
    outcome = table.execute(
        NewGame(
            game="death-show-tv", players=(PlayerSeat("A"), PlayerSeat("B")), options={"multiple_combat_fumbles": "x"}
        )
    )
    assert not outcome.accepted and "multiple_combat_fumbles" in outcome.message
    assert RULES.check_options({})["multiple_combat_fumbles"] == "instead_of_lowest"
    assert RULES.info.option("multiple_combat_fumbles").choices == ("instead_of_lowest", "and_lowest")


def test_r5_house_rule_odds_shown_are_the_house_rules(table):
    _crowd(table, 4, multiple_combat_fumbles="and_lowest")
    declare_all(table)
    shown = dict(RULES.combat_odds(table.state))
    fighters = [f.dice_for_odds(table.state.fumble_faces(f)) for f in table.state.combat.fighters]
    assert [shown[f.name] for f in table.state.combat.fighters] == list(odds_by_enumeration(fighters, True))


# -- careless changes the audit made (issue 19) -----------------------------------------------------------------


def test_an_unarmed_winner_with_equipment_still_draws_a_card(table):
    """How Combat Is Resolved, note *: no Weapon is Unarmed even with Equipment or Unexpected Twist cards, and
    winning Unarmed draws a Show card besides the Loot."""
    _fight_setup(table)
    ok(table, DeclareFighter(fighter="Jhon", bonuses=(("Ambush", 2), ("Armour", 1))))
    assert table.state.combat.fighters[0].unarmed
    ok(table, DeclareFighter(fighter="Kelpie"))
    dice(table, 4, 5)  # Jhon 7, Kelpie 5
    assert table.state.last_combat.winners == ("Jhon",)
    assert c(table, "Jhon").cards == 3 - 2 + 1 + 1  # Trail played, two cards shown, Loot, the Unarmed draw
    assert any("won Unarmed" in e.text for e in table.history())


def _event_on_two(table, **options):
    """Kelpie and Jhon on The Caves; in Elena's Event Phase her Killer Squirrels (Combat +0) attack both."""
    _fight_setup(table, **options)
    declare_all(table)
    dice(table, 3, 3)  # a tie
    ok(table, EndTurn(player="Jhon"), DrawCard(player="Elena"), Move(player="Elena", location="Turtle Beach"))
    ok(table, PlayEvent(player="Elena", card="Killer Squirrels", combat_value=0, targets=("Kelpie", "Jhon")))
    declare_all(table)


def test_loot_in_an_event_combat_between_two_contestants(table):
    """Fighting an Event and Multiple Combat: a Contestant Winner loots a Contestant Loser (How Combat Is
    Resolved 5: "provided that both Winner and Loser are Contestants"); the Event card itself never loots."""
    _event_on_two(table)
    kelpie, jhon = c(table, "Kelpie").cards, c(table, "Jhon").cards
    dice(table, 3, 6, 2)  # Squirrels 3, Kelpie 6, Jhon 2
    assert (table.state.last_combat.winners, table.state.last_combat.losers) == (("Kelpie",), ("Jhon",))
    assert _events(table, CardsMoved)[-1] == CardsMoved(
        "Jhon", "Kelpie", 1, _events(table, CardsMoved)[-1].reason, "How Combat Is Resolved 5 (Loot)"
    )
    assert (c(table, "Kelpie").cards, c(table, "Jhon").cards) == (kelpie + 1 + 1, jhon - 1)  # Loot, Unarmed


def test_a_self_caused_death_outside_their_turn_the_dead_player_chooses_the_location(table):
    """The Island Shrinks: "the player who caused their death (even if it was the deceased player themselves)"
    removes the Location, not the player whose turn it is."""
    start(table, 3, starting_cards=2)
    ok(table, DrawCard(player="Kelpie"), Move(player="Kelpie", location="The Caves"))
    ok(table, Wound(player="Jhon", by="Jhon", reason="his own booby trap", amount=4))
    assert table.state.deaths[0].remover == "Jhon"
    refused(table, RemoveLocation(player="Kelpie", location="Turtle Beach"), IllegalCommand, "Jhon caused")
    offered = [e for e in RULES.legal_commands(table.state, "Jhon") if e.kind == "RemoveLocation" and e.enabled]
    assert "Turtle Beach" in [e.command.location for e in offered]
    assert not [e for e in RULES.legal_commands(table.state, "Kelpie") if e.kind == "RemoveLocation"]
    ok(table, RemoveLocation(player="Jhon", location="Turtle Beach"))
    assert (table.state.turn, table.state.phase) == ("Kelpie", "event")  # Kelpie's turn goes on


# -- issue 18: the seat buttons' bonus is a card, as on the touch dialog ------------------------------------------


def test_bonus_button_spends_one_card_like_the_touch_dialog_r3(table_factory):
    """R3: a bonus entered on the seat buttons and confirmed is one card shown, which leaves the hand, the same
    as the touch dialog's declaration of that bonus without a card count (one card)."""
    hands = {}
    for way in ("buttons", "touch"):
        table = table_factory()
        _fight_setup(table)
        if way == "buttons":
            ok(table, RULES.button_command("on_the_air", "Jhon"), RULES.button_command("on_the_air", "Jhon"))
            ok(table, RULES.button_command("sponsor", "Jhon"))
        else:  # what DstDeclarePopup.command() posts for "cards +2 from 0 cards"
            ok(table, DeclareFighter(fighter="Jhon", bonuses=(("Card", 2),)))
        fighter = table.state.combat.fighters[0]
        assert fighter.declared and fighter.bonus == 2 and fighter.cards_spent == 1
        hands[way] = [x.cards for x in table.state.contestants]
    assert hands["buttons"] == hands["touch"] == [4, 2, 3]


def test_bonus_button_refused_with_no_cards_like_the_touch_dialog(table):
    _fight_setup(table, starting_cards=0)  # Jhon drew 1 and played it as the Trail: he holds none
    assert c(table, "Jhon").cards == 0
    touch = RULES.check(table.state, DeclareFighter(fighter="Jhon", bonuses=(("Card", 1),)))
    assert not touch.enabled and "holds 0 cards" in touch.reason
    refused(table, RULES.button_command("on_the_air", "Jhon"), IllegalCommand, "holds no cards")
    ok(table, Confirm(player="Jhon"))  # Unarmed with no bonus is still fine
    assert table.state.combat.fighters[0].bonus == 0
    ok(table, AdjustBonus(fighter="Kelpie", delta=1))  # Kelpie holds a card: she may enter a bonus
