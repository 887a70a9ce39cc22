"""Death Show TV, issue 19: ruling R5's two readings (option ``multiple_combat_fumbles``), the tests that kill
the audit's careless changes (Unarmed with Equipment, Loot in Event combats, who removes the Location after
a self-caused death), the seat buttons' bonus spending a card as the touch dialog does (issue 18), and the
Show deck, the discards and the ON AIR cards face up (Show Cards: Generic Rules; Running Out of Show Cards).
Played through the real table and journal (helpers from test_death_show_tv_core)."""

from __future__ import annotations

import pytest
from conftest import read_events
from test_death_show_tv_core import RULES, _crowd, _fight_setup, c, declare_all, dice, ok, place, refused, start

from companion.commands import NewGame, PlayerSeat
from companion.errors import BadOption, IllegalCommand
from companion.games.death_show_tv import (
    AdjustBonus,
    AdjustHand,
    CardsMoved,
    Confirm,
    DeclareFighter,
    Discard,
    DrawCard,
    EndTurn,
    Move,
    NewWeaponLevel,
    OnAir,
    PlayEvent,
    PlayOnAir,
    RemoveLocation,
    ReshuffleDiscards,
    RuleChangeReplaced,
    ShowDeckReshuffled,
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


def test_a_bonus_entered_on_the_buttons_names_its_rule_and_old_journals_read_without_it(table):
    """The history line of a bonus entered on the seat buttons cites the rule (How Combat Is Resolved 1; ruling
    R3: one card shown); a journal written before the rule was recorded reads back and replays the same."""
    from companion.games.death_show_tv.events import CODEC, BonusDrafted

    _fight_setup(table)
    outcome = ok(table, AdjustBonus(fighter="Jhon", delta=1))
    assert [table.session.describe_record(r) for r in outcome.records] == [
        "Jhon enters a bonus of +1 (How Combat Is Resolved 1; ruling R3)"
    ]
    rows = [row for row in read_events(table.journal.path) if row["type"] == "bonus_drafted"]
    assert [CODEC.decode(row["type"], row["payload"]) for row in rows] == [
        BonusDrafted("Jhon", 1, 1, "How Combat Is Resolved 1; ruling R3")
    ]
    old = CODEC.decode("bonus_drafted", {"fighter": "Jhon", "delta": 1, "draft": 1})
    assert old == BonusDrafted("Jhon", 1, 1) and old.describe() == "Jhon enters a bonus of +1"
    assert old.to_payload() == {"fighter": "Jhon", "delta": 1, "draft": 1}


# -- the Show deck, the discards and the ON AIR cards (issue 19) ----------------------------------------------


def _piles(table):
    state = table.state
    assert state.card_total == 82  # Components: 82 Show cards, each in exactly one place
    return state.show_deck, state.discards, len(state.on_air)


def test_the_deal_draws_and_every_card_played_go_from_the_deck_to_the_discards(table):
    """Setup 4 (one deck of 82); Phases of a Turn 1 (a draw); the Trail, the cards shown (R3) and the Event
    go to the discards; Loot moves a card between hands only."""
    _fight_setup(table)  # 3 × 3 dealt; Kelpie and Jhon drew; Jhon played a Trail
    assert _piles(table) == (82 - 9 - 2, 1, 0)
    ok(table, DeclareFighter(fighter="Jhon", weapon="Machete", weapon_bonus=3, bonuses=(("Armour", 2),)))
    ok(table, DeclareFighter(fighter="Kelpie"))
    assert _piles(table) == (71, 3, 0)
    dice(table, 4, 6)  # Jhon wins armed: Loot only
    assert _piles(table) == (71, 3, 0)
    ok(table, PlayEvent(player="Jhon", card="Storm"))
    assert _piles(table) == (71, 4, 0)
    ok(table, EndTurn(player="Jhon"), DrawCard(player="Elena"))
    assert _piles(table) == (70, 4, 0)
    ok(table, Wound(player="Kelpie", by="Elena", reason="Incendio", amount=3))  # death by other means
    assert _piles(table) == (70, 4 + 3, 0)  # Kelpie's 3 cards discarded
    assert "Show deck 70 · discards 7 · ON AIR 0" in table.view().notes


def _empty_the_deck(table):
    """Two Contestants; corrections draw the whole deck and discard ten (the Show deck runs out)."""
    start(table, 2)
    ok(table, DrawCard(player="Kelpie"), AdjustHand(player="Kelpie", delta=70, reason="card effects"))
    ok(table, AdjustHand(player="Kelpie", delta=-10, reason="played"))
    ok(table, AdjustHand(player="Jhon", delta=11, reason="card effects"))
    assert _piles(table) == (0, 10, 0)


def test_deck_empty_the_view_says_reshuffle_the_discards_and_the_reshuffle_refills_it(table):
    """Running Out of Show Cards: "shuffle the discarded Show cards and put them back into play"."""
    _empty_the_deck(table)
    notes = table.view().notes
    assert "deck empty: reshuffle the discards (10 cards) (Running Out of Show Cards)" in notes
    assert [e.enabled for e in RULES.legal_commands(table.state, "Jhon") if e.kind == "ReshuffleDiscards"] == [True]
    ok(table, ReshuffleDiscards(player="Jhon"))
    assert _piles(table) == (10, 0, 0)
    assert not any(n.startswith("deck empty") for n in table.view().notes)
    refused(table, ReshuffleDiscards(player="Jhon"), IllegalCommand, "still holds 10 cards", "Running Out")
    assert _events(table, ShowDeckReshuffled)[-1].cards == 10


def test_a_draw_from_an_empty_deck_reshuffles_the_discards_first(table):
    _empty_the_deck(table)
    ok(table, Move(player="Kelpie", location="The Caves"), EndTurn(player="Kelpie"))
    assert table.state.phase == "discard"
    ok(table, Discard(player="Kelpie", count=54), Discard(player="Jhon", count=4))  # down to 7 each
    ok(table, DrawCard(player="Jhon"))
    assert _piles(table) == (10 + 54 + 4 - 1, 0, 0)
    assert "The Show deck ran out: the 68 cards discarded are shuffled into a new deck" in table.history()[-1].text


def test_nothing_left_to_draw_the_draw_phase_draws_nothing_and_corrections_are_refused(table):
    """R20: with the deck and the discards empty no card can be drawn; the Draw Phase goes on to the Action."""
    start(table, 2)
    ok(table, DrawCard(player="Kelpie"), AdjustHand(player="Jhon", delta=81, reason="card effects"))
    assert _piles(table) == (0, 0, 0)
    assert "deck and discards empty: no Show card can be drawn (Running Out of Show Cards)" in table.view().notes
    refused(table, AdjustHand(player="Kelpie", delta=1), IllegalCommand, "only 0 cards can be drawn")
    refused(table, ReshuffleDiscards(player="Kelpie"), IllegalCommand, "discards are empty")
    ok(table, Move(player="Kelpie", location="The Caves"), EndTurn(player="Kelpie"))
    ok(table, Discard(player="Jhon", count=74))
    ok(table, DrawCard(player="Jhon"))  # the discards (74) were reshuffled by the draw
    assert _piles(table) == (73, 0, 0)


def test_new_weapon_level_the_rule_change_is_discarded_and_replaced_from_the_deck(table):
    """R16: the Rule Change is played as drawn, discarded, and a new card drawn: the hand count stays."""
    start(table, 2)
    ok(table, DrawCard(player="Kelpie"), NewWeaponLevel(player="Kelpie"))
    assert (c(table, "Kelpie").cards, _piles(table)) == (1, (80, 1, 0))
    assert _events(table, RuleChangeReplaced) == [RuleChangeReplaced("Kelpie", "Types of Show Cards: Rule Change")]


def test_on_air_cards_lie_face_up_until_the_revealers_next_turn(table):
    """Show Cards: Generic Rules, ON AIR: face up in front of the last player affected, discarded at the start
    of the turn of the player who revealed it."""
    start(table, 3, starting_cards=2)
    ok(table, DrawCard(player="Kelpie"), PlayOnAir(player="Kelpie", card="Curfew", in_front_of="Jhon"))
    assert table.state.on_air == (OnAir("Curfew", "Kelpie", "Jhon"),) and c(table, "Kelpie").cards == 2
    assert _piles(table) == (82 - 6 - 1, 0, 1)
    assert "ON AIR: Curfew (Kelpie's) in front of Jhon until Kelpie's turn" in table.view().notes
    ok(table, Move(player="Kelpie", location="The Caves"), EndTurn(player="Kelpie"))
    place(table, ("Jhon", "Turtle Beach"), ("Elena", "Bloody Beach"))
    assert table.state.turn == "Kelpie" and table.state.on_air == ()
    assert _piles(table) == (82 - 6 - 3, 1, 0)
    assert "Curfew (Kelpie's ON AIR) ends and is discarded: the start of Kelpie's turn" in table.history()[-1].text


def test_an_on_air_event_is_the_phases_one_event_and_ends_with_its_revealers_death(table):
    """Phases of a Turn 3 (at most 1 Event); R21: the ON AIR cards of a dead Contestant are discarded."""
    start(table, 3, starting_cards=2)
    ok(table, DrawCard(player="Kelpie"), Move(player="Kelpie", location="The Caves"))
    refused(table, PlayOnAir(player="Jhon", card="Fog", event=True), IllegalCommand, "Kelpie's turn")
    ok(table, PlayOnAir(player="Kelpie", card="Fog", event=True))
    refused(table, PlayEvent(player="Kelpie", card="Storm"), IllegalCommand, "at most 1 Event")
    ok(table, Wound(player="Kelpie", by="Kelpie", reason="own trap", amount=4))
    assert table.state.on_air == () and _piles(table) == (82 - 7, 1 + 2, 0)  # Fog and her two cards
