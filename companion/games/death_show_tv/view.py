"""Death Show TV, read-only: the dice awaited, the odds, the status line, the public and private views and
each Contestant's figures. Pure functions of a :class:`DeathShowState`; the rules object
(:class:`companion.games.death_show_tv.rules.DeathShowTv`) offers them as its contract methods.

Everything Death Show TV tracks is public at the table (Vitality, Location and how many cards each holds:
card identities are not tracked), so the private view repeats a Contestant's own figures.
"""

from __future__ import annotations

from companion.dice import DiceRequest
from companion.errors import IllegalCommand
from companion.game import PrivateView
from companion.games import PlayerView, TableView
from companion.games.death_show_tv.combat import Chances, odds
from companion.games.death_show_tv.events import cards
from companion.games.death_show_tv.info import INFO
from companion.games.death_show_tv.state import HAND_LIMIT, PHASE_NAMES, SHOW_CARDS, DeathShowState
from companion.tracks import Track

#: Rule references used in refusals and views (sections of ``rules/death-show-tv.txt``).
R_START = "Starting the Game"
R_PHASES = "Phases of a Turn"
R_MOVE = "Phases of a Turn 2: Move"
R_HUNT = "Phases of a Turn 2: Hunt"
R_FIGHT = "Phases of a Turn 2: Fight"
R_EVENT = "Phases of a Turn 3; Types of Show Cards: Event"
R_DISCARD = "Phases of a Turn 4"
R_WEAPONS = "Types of Show Cards: Weapons"
R_COMBAT = "How Combat Is Resolved"
R_MULTIPLE = "Multiple Combat"
R_EVENT_COMBAT = "Fighting an Event"
R_LOOT = "How Combat Is Resolved 5 (Loot)"
R_UNARMED = "How Combat Is Resolved, note * (Unarmed)"
R_DEATH = "When a Contestant Dies"
R_KILLED = "Killing a Contestant in Combat"
R_OTHER_DEATH = "Killing a Contestant by Other Means"
R_SHRINKS = "The Island Shrinks"
R_OBJECTIVE = "Objective of the Game"
R_RUNNING_OUT = "Running Out of Show Cards"
R_GENERIC = "Show Cards: Generic Rules (ON AIR)"
R_RULE_CHANGE = "Types of Show Cards: Rule Change"


def deck_notes(state: DeathShowState) -> list[str]:
    """The Show cards outside the hands: ``"Show deck 40 · discards 12 · ON AIR 1"``, then, once the deck has
    run out, ``"deck empty: reshuffle the discards (12 cards) (Running Out of Show Cards)"`` (or that nothing
    is left to draw), then each ON AIR card face up and when it ends (Show Cards: Generic Rules)."""
    notes = [f"Show deck {state.show_deck} · discards {state.discards} · ON AIR {len(state.on_air)}"]
    if state.phase != "setup" and not state.finished and not state.show_deck:
        if state.discards:
            notes.append(f"deck empty: reshuffle the discards ({cards(state.discards)}) ({R_RUNNING_OUT})")
        else:
            notes.append(f"deck and discards empty: no Show card can be drawn ({R_RUNNING_OUT})")
    notes += [
        f"ON AIR: {card.card} ({card.revealer}'s) in front of {card.in_front_of} until {card.revealer}'s turn"
        for card in state.on_air
    ]
    return notes


def pending_dice(state: DeathShowState) -> DiceRequest | None:
    """The roll the game waits for: the first-player roll-off (Starting the Game), the next fighter's
    Combat dice (How Combat Is Resolved 3: attacker first; an Event is rolled for by its player), or
    the killers' roll-off for a dead Contestant's cards (Killing a Contestant in Combat); else ``None``."""
    if state.finished:
        return None
    if state.roll_off is not None and state.roll_off.next_roller is not None:
        again = f", re-roll {state.roll_off.round - 1}" if state.roll_off.round > 1 else ""
        return DiceRequest(state.roll_off.next_roller, 1, f"who goes first{again}", R_START)
    if state.combat is not None:
        fighter = state.combat.next_to_roll
        if fighter is None:
            return None
        whose = f"the {fighter.name} (Combat {fighter.bonus:+d})" if fighter.is_event else "Combat"
        where = f" on {state.combat.location}" if state.combat.location else ""
        rule = R_EVENT_COMBAT if fighter.is_event else f"{R_COMBAT} 3"
        return DiceRequest(fighter.roller, fighter.dice, f"{whose}{where}", rule)
    roll_off = state.deaths[0].roll_off if state.deaths else None
    if roll_off is not None and roll_off.next_roller is not None:
        again = f", re-roll {roll_off.round - 1}" if roll_off.round > 1 else ""
        return DiceRequest(roll_off.next_roller, 1, f"who keeps {state.deaths[0].dead}'s cards{again}", R_KILLED)
    return None


def combat_odds(state: DeathShowState) -> tuple[tuple[str, Chances], ...] | None:
    """Each fighter's exact chances to win, lose or neither as they were before the dice (an addition to
    the rulebook), once every fighter has shown their cards and until the Combat is resolved (they stay the
    same while the dice come in); ``None`` otherwise."""
    combat = state.combat
    if combat is None or combat.next_to_declare is not None:
        return None
    chances = odds([f.dice_for_odds(state.fumble_faces(f)) for f in combat.fighters], state.settings.lowest_also)
    return tuple((f.name, c) for f, c in zip(combat.fighters, chances))


def combat_odds_now(state: DeathShowState) -> tuple[tuple[str, Chances], ...] | None:
    """Each fighter's exact chances given the dice already rolled in this Combat (some, not all); ``None``
    before the first die or outside a Combat."""
    combat = state.combat
    if combat is None or combat.next_to_declare is not None or not any(f.values for f in combat.fighters):
        return None
    chances = odds(
        [f.dice_for_odds(state.fumble_faces(f), given_roll=True) for f in combat.fighters], state.settings.lowest_also
    )
    return tuple((f.name, c) for f, c in zip(combat.fighters, chances))


def combat_prompt(state: DeathShowState) -> str:
    """What the Combat under way waits for: a fighter's cards, or a roll."""
    assert state.combat is not None
    declaring = state.combat.next_to_declare
    if declaring is not None:
        return f"{declaring.name} shows a Weapon and bonus cards ({R_COMBAT} 1-2)"
    request = pending_dice(state)
    return request.describe() if request else ""


def death_prompt(state: DeathShowState) -> str:
    """What the oldest death being settled waits for: the killers' roll-off, or a Location's removal."""
    death = state.deaths[0]
    if death.remover is None:
        request = pending_dice(state)
        return request.describe() if request else ""
    return f"{death.remover} removes an unoccupied Location ({death.dead} died; {R_SHRINKS})"


def busy(state: DeathShowState) -> str | None:
    """Why ordinary play must wait (a roll-off, a Combat, a death being settled), or ``None``."""
    if state.phase == "setup":
        return "the first player has not been chosen yet: everyone rolls a die first (Starting the Game)"
    if state.combat is not None:
        return f"a Combat is under way: {combat_prompt(state)}"
    if state.deaths:
        return death_prompt(state)
    return None


def busy_rule(state: DeathShowState) -> str:
    """The rule that makes ordinary play wait (:func:`busy`): Starting the Game, a Combat's or a death's."""
    if state.phase == "setup":
        return R_START
    if state.combat is not None:
        return R_COMBAT
    return R_DEATH


def waiting_refusal(state: DeathShowState, doing: str, waiting: str, rule: str | None = None) -> IllegalCommand:
    """The refusal of ``doing`` while ``waiting`` (:func:`busy`) must happen first, citing its rule once."""
    rule = rule or busy_rule(state)
    if waiting.endswith(f" ({rule})"):
        waiting = waiting[: -len(rule) - 3]
    return IllegalCommand(f"{doing}: {waiting}", rule)


def event_hint(state: DeathShowState) -> str:
    """What the Event Phase still allows (Phases of a Turn 3: at most one Event)."""
    if state.events_played:
        return f"{state.turn} has played their Event: end the turn"
    if state.turn is not None and state.contestant(state.turn).cards < 1:
        return f"{state.turn} holds no cards, so has no Event to play: end the turn"
    return f"{state.turn} may play 1 Event, then ends the turn"


def phase_hint(state: DeathShowState) -> str:
    """What the phase of the turn waits for, e.g. ``"Kelpie draws a Show card"``."""
    if state.phase == "setup":
        return "everyone rolls for the first player"
    if state.phase == "draw":
        return f"{state.turn} draws a Show card"
    if state.phase == "action":
        return f"{state.turn} must Move, Hunt or Fight"
    if state.phase == "event":
        return event_hint(state)
    return "players over 7 cards discard: " + ", ".join(
        f"{c.name} {c.cards}" for c in state.alive if c.cards > HAND_LIMIT
    )


def status(state: DeathShowState) -> str:
    """The status line: the game's end, the roll or choice awaited, or whose turn and phase it is."""
    if state.finished:
        return f"Game over: {state.end_reason}"
    waiting = busy(state)
    if waiting:
        if state.combat:
            return combat_prompt(state)
        request = pending_dice(state) if state.phase == "setup" else None
        return request.describe() if request else waiting
    return f"{state.turn}'s turn {state.turn_number}, {PHASE_NAMES[state.phase]}: {phase_hint(state)}"


def public_view(state: DeathShowState) -> TableView:
    """The public picture: every Contestant's Vitality, Location and card count (all public), whose turn it
    is, odds during a Combat and the last Combat's breakdown in ``notes``."""
    top = state.settings.vitality
    chances = dict(combat_odds(state) or ())
    players = []
    for c in state.contestants:
        tracks = (
            Track("vitality", "Vitality", c.vitality, 0, top, rule=R_DEATH),
            Track("cards", "Cards", c.cards, 0, SHOW_CARDS, rule=R_DISCARD),
        )
        where = c.location or ("dead" if not c.alive else "off the island")
        badges = (where,) if c.alive else ("dead",)
        lines = [f"{where} - {cards(c.cards)}"] if c.alive else ["out of the show"]
        if c.name in chances:
            lines.append(f"win {float(chances[c.name].win):.0%} lose {float(chances[c.name].lose):.0%}")
        elif c.alive and c.cards > HAND_LIMIT:
            lines.append(f"over {HAND_LIMIT} cards: discard")
        elif state.turn == c.name and not state.finished and state.phase != "setup":
            lines.append(PHASE_NAMES[state.phase])
        headline = f"Vitality {c.vitality}" if c.alive else "DEAD"
        if state.finished and state.winner == c.name:
            headline = "WINNER"
        turn = state.turn == c.name and not state.finished
        players.append(PlayerView(c.name, c.colour, None, tracks, badges, turn, headline, tuple(lines)))
    notes = [f"Weapons usable: level {state.weapon_level}" + (" only" if state.weapon_level == 1 else " and below")]
    notes += [chance.describe(name) for name, chance in chances.items()]
    notes += [f"after the dice so far, {chance.describe(name)}" for name, chance in (combat_odds_now(state) or ())]
    if state.last_combat is not None:
        notes += list(state.last_combat.lines) + [state.last_combat.summary]
    notes += [
        f"{c.name} holds {cards(c.cards)}: discard down to {HAND_LIMIT} in the Discard Phase ({R_DISCARD})"
        for c in state.alive
        if c.cards > HAND_LIMIT
    ]
    notes += [f"{loc.name} rule: {loc.rule}" for loc in state.locations if loc.rule and not loc.removed]
    notes += deck_notes(state)
    return TableView(INFO.title, tuple(players), pending_dice(state), status(state), state.finished, tuple(notes))


def private_view(state: DeathShowState, seat: str) -> PrivateView:
    """What only ``seat`` may see. Death Show TV keeps nothing secret from the table (Vitality, Location
    and the number of cards in hand are public; card identities are not tracked), so this is the
    Contestant's own figures: ``lines`` such as ``("Vitality 3 of 4", "5 cards", "Bloody Beach")``.
    Raises :class:`MalformedCommand` for an unknown seat."""
    me = state.contestant(seat)
    if not me.alive:
        return PrivateView(seat, ("DEAD", "out of the show"), (("Vitality", "0"),))
    where = me.location or "off the island"
    lines: tuple[str, ...] = (f"Vitality {me.vitality} of {state.settings.vitality}", cards(me.cards), where)
    if me.cards > HAND_LIMIT:
        lines += (f"discard to {HAND_LIMIT}",)
    items = (("Vitality", str(me.vitality)), ("Cards in hand", str(me.cards)), ("Location", where))
    return PrivateView(seat, lines, items)


def figures(state: DeathShowState) -> dict[str, dict[str, int | str]]:
    """Each Contestant's figures, in seat order: ``vitality`` (Vitality Points, 0 = dead), ``cards`` (Show
    cards in hand), ``location`` (its name, ``"off the island"`` or ``"dead"``) and ``weapon_level`` (the
    highest Weapon level anyone may use now, Types of Show Cards: Weapons; the same for all)."""
    return {
        c.name: {
            "vitality": c.vitality,
            "cards": c.cards,
            "location": c.location or ("off the island" if c.alive else "dead"),
            "weapon_level": state.weapon_level,
        }
        for c in state.contestants
    }
