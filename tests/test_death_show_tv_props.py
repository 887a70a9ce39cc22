"""Death Show TV invariants under random play (hypothesis drives the pure engine with legal and illegal
commands alike):

* Vitality never below 0 nor above the starting Vitality (When a Contestant Dies);
* at most one Location removed per death, and removed Locations are never occupied (The Island Shrinks);
* card counts never negative; the dead hold no cards and stand nowhere;
* every refusal is a ``CommandError`` (never a crash), every payload is JSON, and refolding the events
  from the start gives the same state (what undo and the journal rely on).
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.commands import AnswerDice, PlayerSeat
from companion.errors import CommandError
from companion.games.death_show_tv import (
    DEATH_SHOW_TV,
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

NAMES = ("Kelpie", "Jhon", "Elena", "Rex", "Mina")
RULES = DEATH_SHOW_TV


def _command(data, state):
    """One command drawn for ``state``: usually what the game waits for, sometimes anything at all."""
    names = state.names
    anyone = st.sampled_from(names)
    where = st.sampled_from(LOCATIONS)
    request = RULES.pending_dice(state)
    if request is not None and data.draw(st.integers(0, 9)) < 8:
        faces = st.integers(1, 6) if data.draw(st.integers(0, 19)) else st.integers(0, 7)
        return AnswerDice(roller=request.roller, values=tuple(data.draw(faces) for _ in range(request.count)))
    turn = state.turn or names[0]
    wanted = []
    if state.combat is not None and state.combat.next_to_declare is not None:
        fighter = state.combat.next_to_declare.name
        wanted = [
            DeclareFighter(
                fighter=fighter,
                weapon=data.draw(st.sampled_from(["Unarmed", "Katana", "Bazooka"])),
                weapon_bonus=data.draw(st.integers(0, 4)),
                weapon_level=data.draw(st.integers(1, 3)),
                bonuses=tuple(
                    data.draw(
                        st.lists(st.tuples(st.sampled_from(["Ambush", "Armour"]), st.integers(-1, 3)), max_size=2)
                    )
                ),
                dice=data.draw(st.integers(1, 2)),
            ),
            DeclareFighter(fighter=fighter),
            AdjustBonus(fighter=fighter),
            Confirm(player=fighter),
        ]
    elif state.deaths:
        wanted = [RemoveLocation(player=state.deaths[0].remover or turn, location=data.draw(where))]
    elif state.phase == "draw":
        wanted = [DrawCard(player=turn), NewWeaponLevel(player=turn)]
    elif state.phase == "action":
        wanted = [
            Move(player=turn, location=data.draw(where)),
            Hunt(player=turn, location=data.draw(where)),
            Fight(player=turn),
        ]
    elif state.phase == "event":
        wanted = [
            EndTurn(player=turn),
            PlayEvent(
                player=turn,
                card="Squirrels",
                combat_value=data.draw(st.integers(0, 5)),
                targets=tuple(data.draw(st.lists(anyone, min_size=1, max_size=2, unique=True))),
            ),
            Wound(player=data.draw(anyone), by=turn, reason="Fire", amount=data.draw(st.integers(1, 3))),
        ]
    elif state.phase == "discard":
        wanted = [Discard(player=data.draw(anyone), count=data.draw(st.integers(1, 3)))]
    noise = [
        Move(player=data.draw(anyone), location=data.draw(where)),
        Fight(player=data.draw(anyone)),
        AdjustHand(player=data.draw(anyone), delta=data.draw(st.integers(-2, 6)), reason="card"),
        Heal(player=data.draw(anyone), reason="Medkit"),
        Confirm(player=data.draw(anyone)),
        RemoveLocation(player=data.draw(anyone), location=data.draw(where)),
        PlayEvent(player=data.draw(anyone), card="Storm"),
    ]
    pool = wanted * 4 + noise if wanted else noise
    return data.draw(st.sampled_from(pool))


def _check(state, start_vitality: int) -> None:
    deaths = sum(not c.alive for c in state.contestants)
    removed = [l.name for l in state.locations if l.removed]
    assert len(removed) <= deaths
    if not state.deaths and not state.finished:
        assert len(removed) == deaths  # every settled death removed exactly one
    for c in state.contestants:
        assert 0 <= c.vitality <= start_vitality
        assert c.cards >= 0
        if not c.alive:
            assert c.cards == 0 and c.location is None
        else:
            assert c.location not in removed
    if state.finished and state.winner is not None:
        assert [c.name for c in state.alive] == [state.winner]
    if not state.finished and state.phase != "setup":
        # a dead player's turn ends once their death is settled, through the others' Discard Phase (R11)
        assert state.contestant(state.turn).alive or state.deaths or state.combat or state.phase == "discard"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data(), st.integers(2, 5), st.integers(1, 3), st.booleans())
def test_random_play_keeps_the_invariants(data, players, vitality, roll_off):
    start = RULES.new_game(
        [PlayerSeat(n) for n in NAMES[:players]], {"vitality": vitality, "roll_off": roll_off, "starting_cards": 2}
    )
    state, journal = start, []
    for _ in range(120):
        if state.finished:
            break
        command = _command(data, state)
        try:
            events = RULES.decide(state, command)
        except CommandError:
            continue
        for event in events:
            assert json.loads(json.dumps(event.payload)) == event.payload
            assert RULES.events.decode(event.type, json.loads(json.dumps(event.payload))) == event
            assert RULES.describe(event)
            state = RULES.evolve(state, event)
            journal.append(event)
        _check(state, vitality)
        RULES.public_view(state)
    refolded = start
    for event in journal:
        refolded = RULES.evolve(refolded, event)
    assert refolded == state


def _apply(state, command):
    for event in RULES.decide(state, command):
        state = RULES.evolve(state, event)
    return state


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 5), min_size=1, max_size=6))
def test_each_death_removes_exactly_one_location(wounds):
    """Wounds of any size: Vitality stops at 0, a death waits for exactly one RemoveLocation, a second is
    refused, and nothing more can hurt the dead."""
    state = RULES.new_game([PlayerSeat(n) for n in NAMES[:3]], {"roll_off": False, "vitality": 6})
    state = _apply(_apply(state, DrawCard(player="Kelpie")), Move(player="Kelpie", location="The Caves"))
    refusals = 0
    for amount in wounds:
        try:
            state = _apply(state, Wound(player="Jhon", by="Kelpie", reason="Trap", amount=amount))
        except CommandError:
            refusals += 1
    jhon = state.contestant("Jhon")
    assert jhon.vitality == max(0, 6 - sum(wounds[: len(wounds) - refusals]))
    assert refusals == 0 or not jhon.alive
    assert len(state.deaths) == (0 if jhon.alive else 1)
    if jhon.alive:
        return
    state = _apply(state, RemoveLocation(player="Kelpie", location="Turtle Beach"))
    assert sum(l.removed for l in state.locations) == 1 and not state.deaths
    try:
        RULES.decide(state, RemoveLocation(player="Kelpie", location="Bloody Beach"))
    except CommandError:
        pass
    else:
        raise AssertionError("a second Location was removed for one death")
