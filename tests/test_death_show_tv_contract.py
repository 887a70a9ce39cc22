"""Death Show TV meets the game contract (issue 15): :class:`companion.game.Game`, typed events that read
every recorded journal row and write it back unchanged, house-rule options as data, legal commands that agree
with ``decide``, the private view, the outcome and the figures."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
import typing
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_death_show_tv_props import NAMES, _command

from companion.commands import AnswerDice, PlayerSeat
from companion.errors import BadOption, CommandError, MalformedCommand
from companion.events import Event
from companion.game import Game, Termination
from companion.games import find_game
from companion.games.death_show_tv import DEATH_SHOW_TV, INFO, DeclareFighter, DrawCard, EndTurn, Hunt, Move
from companion.games.death_show_tv import events as dst_events
from companion.games.death_show_tv import rules as dst_rules
from companion.games.death_show_tv.state import PHASES

RULES = DEATH_SHOW_TV
JOURNALS = Path(__file__).parent / "data" / "journals"
RECORDED = sorted(JOURNALS.glob("*/death-show-tv.sqlite3"))
TABLE_TYPES = {"game_started", "history_restored"}


def test_the_registry_finds_the_game_itself_and_it_meets_the_contract():
    assert find_game("death-show-tv") is DEATH_SHOW_TV
    assert isinstance(DEATH_SHOW_TV, Game)
    assert DEATH_SHOW_TV.info is INFO and INFO.name == "death-show-tv"
    assert DEATH_SHOW_TV.events.types == {cls.TYPE for cls in dst_events.EVENT_CLASSES}
    assert DEATH_SHOW_TV.safe_point_events <= DEATH_SHOW_TV.events.types
    assert isinstance(DEATH_SHOW_TV.state_version, int)


def test_evolve_has_one_handler_per_event_class_and_refuses_others():
    assert set(dst_rules._EVOLVE) == set(dst_events.EVENT_CLASSES)
    state = RULES.new_game([PlayerSeat("Kelpie"), PlayerSeat("Jhon")], {})

    @dataclasses.dataclass(frozen=True)
    class Stranger(Event):
        TYPE: typing.ClassVar[str] = "stranger"

    with pytest.raises(ValueError, match="stranger"):
        RULES.evolve(state, Stranger())


# -- events: round trips, and the recorded journals' rows ---------------------------------------------------------


def _strategy(hint):
    """A strategy for a field annotated ``hint`` (JSON-able values, short text)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is str:
        return st.text(max_size=12)
    if hint is int:
        return st.integers(-50, 50)
    if hint is bool:
        return st.booleans()
    if origin is tuple:
        return (
            st.lists(_strategy(args[0]), max_size=3).map(tuple)
            if args[-1] is Ellipsis
            else st.tuples(*map(_strategy, args))
        )
    if origin in (typing.Union, __import__("types").UnionType):
        return st.one_of(*(st.none() if a is type(None) else _strategy(a) for a in args))
    if dataclasses.is_dataclass(hint):
        return _builds(hint)
    raise AssertionError(f"no strategy for {hint!r}")


#: Fields whose values ``describe`` reads as more than text: a phase name, a Combat's attacker.
SHAPED = {
    (dst_events.PhaseChanged, "phase"): st.sampled_from(PHASES),
    (dst_events.CombatStarted, "fighters"): st.lists(
        st.builds(dst_events.StartingFighter, st.text(max_size=8), st.text(max_size=8)), min_size=1, max_size=3
    ).map(tuple),
}


def _builds(cls):
    hints = typing.get_type_hints(cls)
    return st.builds(
        cls,
        **{
            f.name: SHAPED[cls, f.name] if (cls, f.name) in SHAPED else _strategy(hints[f.name])
            for f in dataclasses.fields(cls)
        },
    )


@pytest.mark.parametrize("cls", dst_events.EVENT_CLASSES, ids=lambda cls: cls.TYPE)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_every_event_class_round_trips_through_its_journal_payload(cls, data):
    event = data.draw(_builds(cls))
    payload = event.to_payload()
    stored = json.loads(json.dumps(payload))  # what the journal keeps
    assert stored == payload
    assert cls.from_payload(stored) == event
    assert RULES.events.decode(cls.TYPE, {**stored, "by": "touch"}) == event
    assert isinstance(RULES.describe(event), str) and RULES.describe(event)


def test_keyword_fields_keep_their_journal_keys():
    moved = dst_events.Moved("Kelpie", None, "The Caves", "move", "Phases of a Turn 2: Move")
    assert moved.to_payload() == {
        "player": "Kelpie",
        "from": None,
        "to": "The Caves",
        "action": "move",
        "rule": "Phases of a Turn 2: Move",
    }
    assert set(dst_events.CardsMoved("Kelpie", "Jhon", 1, "Loot").to_payload()) == {
        "from",
        "to",
        "count",
        "reason",
        "rule",
    }
    rolled = dst_events.DiceRolled("Kelpie", (3,), "manual", "who goes first", "Starting the Game", "first_player")
    assert "fighter" not in rolled.to_payload()  # as written before typed events
    assert "fighter" in dataclasses.replace(rolled, purpose="combat", fighter="Kelpie").to_payload()


def _rows(path: Path):
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        return [(t, json.loads(p)) for t, p in db.execute("SELECT type, payload FROM events ORDER BY seq")]


@pytest.mark.parametrize("recorded", RECORDED, ids=lambda p: p.parent.name)
def test_every_recorded_row_decodes_and_writes_back_the_same_payload(recorded):
    rows = [(t, p) for t, p in _rows(recorded) if t not in TABLE_TYPES]
    assert len({t for t, _ in rows}) >= 15, "the recorded game should use most event types"
    for event_type, payload in rows:
        event = RULES.events.decode(event_type, payload)
        assert type(event).TYPE == event_type
        assert event.to_payload() == {k: v for k, v in payload.items() if k != "by"}, event_type


def test_an_unknown_event_type_or_a_payload_missing_a_key_is_a_journal_error():
    from companion.errors import JournalError

    with pytest.raises(JournalError):
        RULES.events.decode("no_such_event", {})
    with pytest.raises(JournalError, match="turn_number"):
        RULES.events.decode("turn_started", {"player": "Kelpie"})


# -- options ----------------------------------------------------------------------------------------------------


def test_the_house_rules_are_option_specs_and_check_options_fills_their_defaults():
    names = [spec.name for spec in INFO.options]
    assert names == [
        "vitality",
        "roll_off",
        "location_rules",
        "starting_cards",
        "event_fumbles",
        "two_player_rule",
        "multiple_combat_fumbles",
    ]
    assert RULES.check_options({}) == {spec.name: spec.default for spec in INFO.options}
    for spec in INFO.options:
        assert isinstance(spec.default, spec.kind), spec.name
        assert "(" in spec.help and ")" in spec.help, f"{spec.name}'s help cites no rule"
    assert INFO.option("two_player_rule").choices == ("start", "two_left", "off")


@pytest.mark.parametrize(
    "option, value",
    [
        ("roll_off", "yes"),
        ("event_fumbles", 1),
        ("two_player_rule", "always"),
        ("vitality", True),
        ("vitality", 21),
        ("starting_cards", 8),
        ("location_rules", ["The Caves"]),
        ("location_rules", {"Atlantis": "sunk"}),
        ("colour", "red"),
    ],
)
def test_a_bad_option_is_refused_with_its_name(option, value):
    with pytest.raises(BadOption) as refused:
        RULES.check_options({option: value})
    assert refused.value.option == option


# -- legal commands ----------------------------------------------------------------------------------------------


def _run(state, *commands):
    for command in commands:
        for event in RULES.decide(state, command):
            state = RULES.evolve(state, event)
    return state


def _by_kind(entries):
    found = {}
    for entry in entries:
        found.setdefault(entry.kind, []).append(entry)
    return found


def test_legal_commands_in_the_draw_and_action_phases_say_why_not():
    state = RULES.new_game([PlayerSeat(n) for n in ("Kelpie", "Jhon", "Elena")], {"roll_off": False})
    kelpie, jhon = _by_kind(RULES.legal_commands(state, "Kelpie")), _by_kind(RULES.legal_commands(state, "Jhon"))
    assert kelpie["DrawCard"][0].enabled and kelpie["DrawCard"][0].command == DrawCard(player="Kelpie")
    (draw,) = jhon["DrawCard"]
    assert not draw.enabled and draw.reason == "it is Kelpie's turn, not Jhon's" and draw.rule == "Phases of a Turn"
    state = _run(
        state, DrawCard(player="Kelpie"), Move(player="Kelpie", location="The Caves"), EndTurn(player="Kelpie")
    )
    state = _run(state, DrawCard(player="Jhon"))
    jhon = _by_kind(RULES.legal_commands(state, "Jhon"))
    moves = {e.command.location: e for e in jhon["Move"]}
    hunts = {e.command.location: e for e in jhon["Hunt"]}
    assert not moves["The Caves"].enabled and "occupied by Kelpie" in moves["The Caves"].reason
    assert moves["Dense Forest"].enabled and not hunts["Dense Forest"].enabled
    assert hunts["The Caves"].enabled and hunts["The Caves"].command == Hunt(player="Jhon", location="The Caves")
    (fight,) = jhon["Fight"]
    assert not fight.enabled and fight.rule == "Phases of a Turn 2: Fight" and "not on the island" in fight.reason
    assert "DrawCard" not in jhon


def test_legal_commands_in_a_combat_offer_the_declaration_to_the_fighter_whose_turn_it_is():
    state = RULES.new_game([PlayerSeat("Kelpie"), PlayerSeat("Jhon")], {"roll_off": False, "starting_cards": 2})
    state = _run(
        state, DrawCard(player="Kelpie"), Move(player="Kelpie", location="The Caves"), EndTurn(player="Kelpie")
    )
    state = _run(state, DrawCard(player="Jhon"), Hunt(player="Jhon", location="The Caves"))
    jhon, kelpie = _by_kind(RULES.legal_commands(state, "Jhon")), _by_kind(RULES.legal_commands(state, "Kelpie"))
    show, unarmed = jhon["DeclareFighter"]
    assert show.enabled and show.command is None and unarmed.command == DeclareFighter(fighter="Jhon")
    assert not kelpie["DeclareFighter"][0].enabled
    assert "Jhon shows their cards before Kelpie" in kelpie["DeclareFighter"][0].reason
    waiting = jhon["Fight"] + jhon["Move"] + jhon["Hunt"]  # the Action Phase's choices wait for the Combat
    assert waiting and not any(e.enabled for e in waiting)
    assert all("a Combat is under way: Jhon shows a Weapon" in e.reason for e in waiting)
    state = _run(state, DeclareFighter(fighter="Jhon"), DeclareFighter(fighter="Kelpie"))
    (roll,) = _by_kind(RULES.legal_commands(state, "Jhon"))["RollDice"]
    assert roll.enabled and roll.command.roller == "Jhon"
    assert "RollDice" not in _by_kind(RULES.legal_commands(state, "Kelpie"))


def test_no_legal_commands_for_the_dead_or_after_the_end_and_an_unknown_seat_is_refused():
    state = RULES.new_game([PlayerSeat("Kelpie"), PlayerSeat("Jhon"), PlayerSeat("Elena")], {"roll_off": False})
    from companion.games.death_show_tv import RemoveLocation, Wound

    state = _run(state, Wound(player="Elena", by="Elena", reason="her own trap", amount=4))
    assert {e.kind for e in RULES.legal_commands(state, "Elena")} == {"RemoveLocation"}  # R18: her own death
    state = _run(state, RemoveLocation(player="Elena", location="The Caves"))
    assert RULES.legal_commands(state, "Elena") == ()
    state = _run(state, DrawCard(player="Kelpie"))
    moves = {e.command.location: e for e in RULES.legal_commands(state, "Kelpie") if e.kind == "Move"}
    assert len(moves) == 9 and not moves["The Caves"].enabled  # a removed Location is shown, with why not
    assert moves["The Caves"].reason == "The Caves has been removed from the game: nobody may move there"
    assert moves["The Caves"].rule == "The Island Shrinks"
    with pytest.raises(MalformedCommand):
        RULES.legal_commands(state, "Nobody")


#: Command kinds whose acceptance must show as an enabled entry of legal_commands (AnswerDice as RollDice).
LISTED = {
    "AnswerDice": "RollDice",
    "DrawCard": "DrawCard",
    "Move": "Move",
    "Hunt": "Hunt",
    "Fight": "Fight",
    "EndTurn": "EndTurn",
    "Discard": "Discard",
    "RemoveLocation": "RemoveLocation",
    "PlayEvent": "PlayEvent",
    "DeclareFighter": "DeclareFighter",
    "NewWeaponLevel": "NewWeaponLevel",
    "AdjustHand": "AdjustHand",
    "Heal": "Heal",
    "Wound": "Wound",
}


def _seat_of(command):
    for name in ("player", "fighter", "roller"):
        if hasattr(command, name):
            return getattr(command, name)
    return None


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data(), st.integers(2, 4), st.integers(1, 3))
def test_legal_commands_agree_with_decide_in_random_play(data, players, vitality):
    """What ``decide`` accepts is offered, enabled, to that seat; what is offered enabled with a complete command
    is accepted; what is disabled says why; the outcome matches how the game ended."""
    state = RULES.new_game([PlayerSeat(n) for n in NAMES[:players]], {"vitality": vitality, "starting_cards": 2})
    for _ in range(60):
        if state.finished:
            break
        for seat in state.names:
            for entry in RULES.legal_commands(state, seat):
                if not entry.enabled:
                    assert entry.reason
                elif entry.command is not None and entry.kind != "RollDice":
                    RULES.decide(state, entry.command)  # raises if the offer was wrong
        command = _command(data, state)
        try:
            events = RULES.decide(state, command)
        except CommandError:
            continue
        kind = LISTED.get(type(command).__name__)
        seat = _seat_of(command)
        if kind is not None and seat in state.names:
            offered = [e for e in RULES.legal_commands(state, seat) if e.kind == kind and e.enabled]
            assert offered, f"{command!r} was accepted but not offered to {seat}"
        for event in events:
            state = RULES.evolve(state, event)
    outcome = RULES.outcome(state)
    assert (outcome is None) == (not state.finished)
    if outcome is not None:
        if state.winner:
            assert outcome.termination is Termination.LAST_STANDING and outcome.winners == (state.winner,)
        elif not state.alive:
            assert outcome.termination is Termination.ALL_LOST and outcome.winners == ()
        else:
            assert outcome.termination is Termination.ENDED_BY_HAND
        assert outcome.figures == RULES.figures(state)


# -- private view, figures -----------------------------------------------------------------------------------------


def test_private_view_and_figures_give_each_contestants_own_numbers():
    state = RULES.new_game([PlayerSeat("Kelpie"), PlayerSeat("Jhon")], {"roll_off": False, "starting_cards": 3})
    state = _run(state, DrawCard(player="Kelpie"), Move(player="Kelpie", location="The Caves"))
    mine = RULES.private_view(state, "Kelpie")
    assert mine.seat == "Kelpie" and mine.lines == ("Vitality 4 of 4", "4 cards", "The Caves")
    assert all(len(line) <= 21 for line in mine.lines)
    assert dict(mine.items)["Cards in hand"] == "4"
    assert RULES.figures(state) == {
        "Kelpie": {"vitality": 4, "cards": 4, "location": "The Caves", "weapon_level": 1},
        "Jhon": {"vitality": 4, "cards": 3, "location": "off the island", "weapon_level": 1},
    }
    with pytest.raises(MalformedCommand):
        RULES.private_view(state, "Nobody")


def test_a_roll_is_offered_to_the_roller_only():
    state = RULES.new_game([PlayerSeat("Kelpie"), PlayerSeat("Jhon")], {})
    (roll,) = [e for e in RULES.legal_commands(state, "Kelpie") if e.kind == "RollDice"]
    assert roll.enabled
    assert not [e for e in RULES.legal_commands(state, "Jhon") if e.kind == "RollDice"]
    state = _run(state, AnswerDice(roller="Kelpie", values=(3,)))
    jhon = _by_kind(RULES.legal_commands(state, "Jhon"))
    assert jhon["RollDice"][0].enabled and "DrawCard" not in jhon
    (level,) = jhon["NewWeaponLevel"]  # corrections are shown, and say why they wait
    assert not level.enabled and level.rule == "Starting the Game"


def test_the_combat_forms_declaration_shares_the_card_total_and_arms_only_with_a_weapon():
    """``declaration`` (the touchscreen's and the phone's Combat form, How Combat Is Resolved 1-2): +0 of level 1
    is Unarmed; a Weapon keeps its bonus and level; an extra total is shared among the cards shown, the first
    ones taking the rest; without a card count a non-zero extra is one card; two dice when a card allows."""
    from companion.games.death_show_tv.commands import declaration

    unarmed = declaration("Elena")
    assert (unarmed.weapon, unarmed.weapon_bonus, unarmed.weapon_level, unarmed.bonuses, unarmed.dice) == (
        "Unarmed",
        0,
        1,
        (),
        1,
    )
    assert unarmed.fighter == "Elena" and unarmed.source == "touch"
    armed = declaration("Rex", weapon_bonus=3, weapon_level=2, extra=5, extra_cards=2, two_dice=True, source="phone")
    assert (armed.weapon, armed.weapon_bonus, armed.weapon_level, armed.dice, armed.source) == (
        "Weapon",
        3,
        2,
        2,
        "phone",
    )
    assert armed.bonuses == (("Card 1", 3), ("Card 2", 2))
    assert declaration("Rex", weapon_level=3).weapon == "Weapon"  # a level-3 Weapon of +0 is still a Weapon
    assert declaration("Rex", extra=4).bonuses == (("Card", 4),)
    assert declaration("Rex", extra=7, extra_cards=3).bonuses == (("Card 1", 3), ("Card 2", 2), ("Card 3", 2))
