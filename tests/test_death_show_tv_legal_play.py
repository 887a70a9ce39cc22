"""Death Show TV played at random TO ITS END choosing only among ``legal_commands(state, seat)`` (brief 19,
item 3), through a real :class:`companion.table.Table` on a real SQLite journal. Entries whose ``command`` is
``None`` get their arguments from hypothesis (or from a seed: :mod:`draws`), within what the rules allow. After
every step the rulebook's invariants hold:

* Vitality from 0 to the starting Vitality (When a Contestant Dies); the dead hold no cards and stand nowhere;
* the 82 Show cards (Components) are all somewhere: deck + discards + ON AIR + hands + a dead Contestant's
  cards the killers roll off for, none negative (Show Cards; Running Out of Show Cards);
* when a turn follows another every living Contestant holds at most 7 (Phases of a Turn 4);
* removed Locations are never occupied and each settled death removed exactly one (The Island Shrinks, R12);
* Weapon level 1-3 (Types of Show Cards: Weapons); at most one Event per Event Phase (Phases of a Turn 3);
* ON AIR cards belong to living revealers (R21); a finished game has its one winner alive, or none alive.

Every enabled entry is accepted by ``decide``; a sample of the disabled ones is refused. At the end the
journal file is reopened and replays to the live state.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from draws import HypothesisDraws, journaled_game
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from companion.commands import AnswerDice, NewGame, PlayerSeat
from companion.errors import CommandError
from companion.games.death_show_tv import (
    DEATH_SHOW_TV,
    HAND_LIMIT,
    AdjustHand,
    DeclareFighter,
    Heal,
    PlayEvent,
    PlayOnAir,
    Wound,
)

RULES = DEATH_SHOW_TV
NAMES = ("Kelpie", "Jhon", "Elena", "Rex")
#: How often each kind is picked among the enabled entries (the corrections rarely, so games end).
WEIGHTS = {"AdjustHand": 1, "Heal": 1, "NewWeaponLevel": 1, "PlayOnAir": 1, "ReshuffleDiscards": 2, "Wound": 2}
#: Steps after which the players only play by the rulebook (no corrections for card effects, no bonus
#: adjusting) and, in their Action Phase, Fight or Hunt when they can: a Combat not tied costs its loser 1 Vitality
#: (How Combat Is Resolved 4), so with at most 2 Vitality the show ends (Winning the Game); the table rolls
#: the dice then (drawn faces may all be 1s: Fumbles, a tie, nothing happens). Before it the
#: corrections may cycle for ever (a card drawn, an ON AIR card played, ...), each a real change.
LONG_GAME = 150
#: The steps a steered game may take in all before it counts as stuck.
MAX_STEPS = 1_000
CORRECTIONS = {"AdjustHand", "Heal", "NewWeaponLevel", "PlayOnAir", "Wound", "AdjustBonus"}


def _fill(data, state, seat, entry):
    """A complete command for ``seat``'s open ``entry`` (``command`` is ``None``), drawn within the rules."""
    me = state.contestant(seat)
    if entry.kind == "DeclareFighter":
        armed = me.cards > 0 and data.boolean("armed")
        level = data.integer(1, state.weapon_level, "level") if armed else 1
        room = me.cards - armed
        extras = data.integers(-1, 4, min(room, 3), "extras")
        shown = armed + len(extras)
        return DeclareFighter(
            fighter=seat,
            weapon="Katana" if armed else "Unarmed",
            weapon_bonus=data.integer(0, 4, "weapon bonus") if armed else 0,
            weapon_level=level,
            bonuses=tuple((f"Card {i}", v) for i, v in enumerate(extras)),
            dice=data.choice([1, 2], "dice") if shown else 1,
            cards_spent=data.optional_integer(0, shown, "spent"),
        )
    if entry.kind == "PlayEvent":
        if data.boolean("event combat"):
            alive = [c for c in state.alive]
            first = data.choice(alive, "target")
            together = [c.name for c in alive if first.location is not None and c.location == first.location]
            targets = data.sublist(together, unique=True, label="more") if together else []
            targets = [first.name] + [t for t in targets if t != first.name]
            value = data.integer(-1, 5, "combat value")
            return PlayEvent(player=seat, card="Killer Squirrels", combat_value=value, targets=tuple(targets))
        return PlayEvent(player=seat, card="Storm")
    if entry.kind == "AdjustHand":
        deltas = [d for d in range(-me.cards, min(state.drawable, 3) + 1) if d]
        return AdjustHand(player=seat, delta=data.choice(deltas, "delta"), reason="card")
    if entry.kind == "Wound":
        by = data.choice([c.name for c in state.contestants if c.alive], "by")  # a dead one causes nothing
        return Wound(player=seat, by=by, reason="Fire", amount=data.integer(1, 3, "amount"))
    if entry.kind == "Heal":
        top = state.settings.vitality - me.vitality
        return Heal(player=seat, reason="Medkit", amount=data.integer(1, top, "heal"))
    if entry.kind == "PlayOnAir":
        event = state.phase == "event" and state.turn == seat and not state.events_played
        event = event and not state.combat and not state.deaths and data.boolean("on air event")
        others = [c.name for c in state.alive]
        front = data.choice(others, "in front of")
        return PlayOnAir(player=seat, card="Curfew", in_front_of=front, event=event)
    raise AssertionError(f"no filler for {entry.kind}")


def _offers(state):
    """Every seat's entries, as (seat, entry) pairs."""
    return [(seat, entry) for seat in state.names for entry in RULES.legal_commands(state, seat)]


def _steer(state, enabled, steps):
    """The enabled pairs a player picks among: all of them up to :data:`LONG_GAME` steps, then only the
    rulebook's play, Fight and Hunt first in an Action Phase (the game's end comes from Combats)."""
    if steps <= LONG_GAME:
        return enabled
    played = [(s, e) for s, e in enabled if e.kind not in CORRECTIONS] or enabled
    if state.phase == "action" and not state.combat and not state.deaths:
        fights = [(s, e) for s, e in played if e.kind in ("Fight", "Hunt")]
        return fights or played
    return played


def _check(state, before) -> None:
    top = state.settings.vitality
    held = 0
    for c in state.contestants:
        assert 0 <= c.vitality <= top and c.cards >= 0
        if not c.alive:
            assert c.cards == 0 and c.location is None
        held += c.cards
    assert state.show_deck >= 0 and state.discards >= 0
    pending = sum(d.cards_pending for d in state.deaths)
    assert state.show_deck + state.discards + len(state.on_air) + held + pending == 82
    removed = {loc.name for loc in state.locations if loc.removed}
    assert not removed & {c.location for c in state.alive}
    dead = sum(not c.alive for c in state.contestants)
    if not state.finished and not state.deaths:
        assert len(removed) == dead
    assert len(removed) <= dead
    assert 1 <= state.weapon_level <= 3 and 0 <= state.events_played <= 1
    assert all(state.contestant(card.revealer).alive for card in state.on_air)
    if state.turn_number != before.turn_number and before.phase != "setup" and state.phase == "draw":
        assert all(c.cards <= HAND_LIMIT for c in state.alive), "a turn started with a hand over 7"
    if state.finished and state.end_reason and state.winner is not None:
        assert [c.name for c in state.alive] == [state.winner]


#: Shrinking a whole game takes minutes; a failure prints its draws (and hypothesis' seed) as found.
@settings(
    max_examples=40,
    deadline=None,
    phases=(Phase.explicit, Phase.reuse, Phase.generate),
    report_multiple_bugs=False,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
@given(st.data())
def test_random_legal_games_to_their_end_keep_the_invariants_and_replay(data):
    with tempfile.TemporaryDirectory() as folder:
        play(HypothesisDraws(data), Path(folder) / "journal.sqlite3")


def play(data, path: Path) -> int:
    """A random legal game to its end, chosen by ``data`` (:mod:`draws`), journaled at ``path``, its invariants
    checked at every step and its replay at the end; returns the game's id in the journal."""
    players = data.integer(2, 4, "players")
    options = {
        "vitality": data.integer(1, 2, "vitality"),
        "roll_off": data.boolean("roll_off"),
        "starting_cards": data.integer(0, 4, "starting cards"),
        "two_player_rule": data.choice(["start", "two_left", "off"], "two players"),
        "multiple_combat_fumbles": data.choice(["instead_of_lowest", "and_lowest"], "R5"),
        "event_fumbles": data.boolean("event fumbles"),
    }
    return journaled_game(path, lambda table: _play(data, table, players, options)[0])


def _play(data, table, players, options):
    """One game on ``table`` to its end: (its game id, the final state)."""
    seats = tuple(PlayerSeat(n) for n in NAMES[:players])
    outcome = table.execute(NewGame(game="death-show-tv", players=seats, options=options))
    assert outcome.accepted, outcome.message
    game_id = outcome.records[0].game_id
    for steps in range(1, MAX_STEPS + 1):
        state = table.state
        if state.finished:
            break
        offers = _offers(state)
        enabled = [(s, e) for s, e in offers if e.enabled]
        disabled = [(s, e) for s, e in offers if not e.enabled and e.command is not None]
        assert enabled, f"nothing enabled: {RULES.status(state)}"
        for seat, entry in enabled:  # every enabled complete entry is accepted by decide
            if entry.command is not None and entry.kind != "RollDice":
                RULES.decide(state, entry.command)
        for seat, entry in disabled[:: max(1, len(disabled) // 5)]:  # a sample of the disabled: refused
            try:
                RULES.decide(state, entry.command)
            except CommandError:
                continue
            raise AssertionError(f"{entry.label} was offered disabled ({entry.reason}) but decide accepts it")
        pool = [pair for pair in _steer(state, enabled, steps) for _ in range(WEIGHTS.get(pair[1].kind, 8))]
        seat, entry = data.choice(pool, "entry")
        if entry.kind == "RollDice" and steps > LONG_GAME:  # the table's own dice: drawn faces could all be
            command = entry.command  # Fumbles, and "if both players roll a Fumble, nothing happens" for ever
        elif entry.kind == "RollDice":
            request = RULES.pending_dice(state)
            command = AnswerDice(roller=seat, values=tuple(data.integer(1, 6) for _ in range(request.count)))
        elif entry.command is None:
            command = _fill(data, state, seat, entry)
        else:
            command = entry.command
        result = table.execute(command)
        assert result.accepted, f"{command!r} from an enabled entry was refused: {result.message}"
        assert table.state != state, f"{entry.label} ({command!r}) was enabled but changed nothing"
        _check(table.state, state)
    assert table.state.finished, f"not over after {MAX_STEPS} steps: {RULES.status(table.state)}"
    return game_id, table.state
