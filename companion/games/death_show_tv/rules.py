"""The Death Show TV rules engine: ``decide`` (command → events, or a rule-cited refusal) and ``evolve``.

Rule names are the section names of ``rules/death-show-tv.txt``; rulings where the rulebook is silent
are numbered R1, R2, … in ``docs/rulings-death-show-tv.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from companion.checks import is_whole
from companion.commands import AnswerDice, Command, EndGame, PlayerSeat, RollDice
from companion.dice import DiceRequest, check_answer, roll_payload
from companion.errors import BadOption, GameFinished, IllegalCommand, MalformedCommand
from companion.events import NewEvent
from companion.games import PlayerView, TableView
from companion.games.death_show_tv.combat import Chances, Part, odds, resolve_rolled
from companion.games.death_show_tv.commands import (
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
from companion.games.death_show_tv.state import (
    HAND_LIMIT,
    LOCATIONS,
    MAX_WEAPON_LEVEL,
    PHASE_NAMES,
    SHOW_CARDS,
    START_VITALITY,
    Combat,
    CombatReport,
    Contestant,
    Death,
    DeathShowState,
    Fighter,
    Location,
    RollOff,
    Settings,
)
from companion.tracks import Track
from companion.words import count, noun, verb

# -- event types ----------------------------------------------------------------------------------------
DICE_ROLLED = "dice_rolled"
ROLL_OFF_TIED = "roll_off_tied"
FIRST_PLAYER_CHOSEN = "first_player_chosen"
TURN_STARTED = "turn_started"
PHASE_CHANGED = "phase_changed"
HAND_CHANGED = "hand_changed"
CARDS_MOVED = "cards_moved"
WEAPON_LEVEL_RAISED = "weapon_level_raised"
MOVED = "moved"
EVENT_PLAYED = "event_played"
COMBAT_STARTED = "combat_started"
BONUS_DRAFTED = "bonus_drafted"
FIGHTER_DECLARED = "fighter_declared"
COMBAT_RESOLVED = "combat_resolved"
VITALITY_CHANGED = "vitality_changed"
CONTESTANT_DIED = "contestant_died"
KILLER_CHOSEN = "killer_chosen"
LOCATION_REMOVED = "location_removed"
GAME_OVER = "game_over"
GAME_ENDED = "game_ended"

#: Rule references used in events and refusals.
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

MAX_NAME = 40  # characters in a card or bonus name
MAX_BONUS = 20  # largest single bonus or Combat value accepted (no printed card is near it)
MAX_BONUSES = 12  # Equipment / Twist cards declared at once


def _whole(value: Any, what: str, low: int, high: int) -> int:
    """``value`` if it is an int from ``low`` to ``high``; else :class:`MalformedCommand` naming ``what``."""
    if not is_whole(value) or not low <= value <= high:
        raise MalformedCommand(f"{what} must be a whole number from {low} to {high}, not {value!r}")
    return value


def cards(n: int) -> str:
    """``"1 card"``, ``"0 cards"``, ``"3 cards"``: a count of Show cards with the right plural."""
    return count(n, "card")


def _text(value: Any, what: str) -> str:
    """``value`` stripped if it is a non-empty string of at most :data:`MAX_NAME` characters."""
    if not isinstance(value, str) or not value.strip() or len(value.strip()) > MAX_NAME:
        raise MalformedCommand(f"{what} must be a name of 1 to {MAX_NAME} characters, not {value!r}")
    return value.strip()


class _Script:
    """Events being decided, with the state they lead to (each event is folded as it is added)."""

    def __init__(self, rules: DeathShowTv, state: DeathShowState) -> None:
        self.rules, self.state, self.events = rules, state, []

    def add(self, event_type: str, payload: Mapping[str, Any]) -> None:
        self.events.append(NewEvent(event_type, dict(payload)))
        self.state = self.rules.evolve(self.state, event_type, payload)


class DeathShowTv:
    """The Death Show TV rules, registered as ``"death-show-tv"``.

    Options (house rules, :meth:`check_options`): ``vitality`` (starting Vitality, default 4, When a
    Contestant Dies), ``roll_off`` (first player by a roll-off, default true, Starting the Game),
    ``location_rules`` (Location name → note of its optional special rule, Location Cards),
    ``starting_cards`` (Show cards dealt at the start, default 0, ruling R2), ``event_fumbles`` (an Event
    card's die fumbles on a 1, default true, R6) and ``two_player_rule`` (``"start"``, ``"two_left"`` or
    ``"off"``, R8).
    """

    name = "death-show-tv"
    title = "Death Show TV"
    min_players = 2
    max_players = 8  # Components: 8 Contestant cards
    player_word = "Contestants"
    #: Default seat names: the three Contestants the rulebook names, then short stand-ins (R13).
    default_names = ("Kelpie", "Jhon", "Elena", "Rex", "Mina", "Otto", "Zoe", "Dante")
    #: Journal backups after these events (a death settles, a game ends).
    safe_point_events = (LOCATION_REMOVED, GAME_OVER, GAME_ENDED)
    #: The three seat buttons (config names from TV Wars) and what they mean here.
    button_actions = ("on_the_air", "sponsor", "roll")
    button_labels = {"on_the_air": "Bonus +1", "sponsor": "Confirm", "roll": "Roll"}

    # -- set-up ---------------------------------------------------------------------------------------------
    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The options with defaults filled in (see the class docstring).

        Raises :class:`BadOption` for an unknown option, a Vitality outside 1-20, starting cards outside
        0-7, a ``location_rules`` entry naming no Location or with an empty or over-long note, or a wrong type.
        """
        known = {
            "vitality": START_VITALITY,
            "roll_off": True,
            "location_rules": {},
            "starting_cards": 0,
            "event_fumbles": True,
            "two_player_rule": "start",
        }
        if not isinstance(options, Mapping):
            raise BadOption("options", f"must be a table of house rules, not {options!r}")
        for option in options:
            if option not in known:
                raise BadOption(str(option), f"Death Show TV has no such option; known: {', '.join(known)}")
        checked = {**known, **options}
        vitality = checked["vitality"]
        if not is_whole(vitality) or not 1 <= vitality <= 20:
            raise BadOption("vitality", f"must be a whole number of Vitality Points from 1 to 20, not {vitality!r}")
        cards = checked["starting_cards"]
        if not is_whole(cards) or not 0 <= cards <= HAND_LIMIT:
            raise BadOption("starting_cards", f"must be a whole number from 0 to {HAND_LIMIT}, not {cards!r}")
        for flag in ("roll_off", "event_fumbles"):
            if not isinstance(checked[flag], bool):
                raise BadOption(flag, f"must be true or false, not {checked[flag]!r}")
        if checked["two_player_rule"] not in ("start", "two_left", "off"):
            raise BadOption(
                "two_player_rule", f"must be 'start', 'two_left' or 'off', not {checked['two_player_rule']!r}"
            )
        rules = checked["location_rules"]
        if not isinstance(rules, Mapping):
            raise BadOption("location_rules", f"must map Location names to notes, not {rules!r}")
        for where, note in rules.items():
            if where not in LOCATIONS:
                raise BadOption(
                    "location_rules", f"no Location called {where!r}; the island has {', '.join(LOCATIONS)}"
                )
            if not isinstance(note, str) or not note.strip() or len(note) > 200:
                raise BadOption("location_rules", f"the note for {where} must be 1 to 200 characters, not {note!r}")
        checked["location_rules"] = {where: note.strip() for where, note in rules.items()}
        return checked

    def new_game(self, players: Sequence[PlayerSeat], options: Mapping[str, Any]) -> DeathShowState:
        """The initial state: every Contestant off the island with the starting Vitality (R1, R2), the nine
        Locations in printed order, Weapons of level 1 only, and the first-player roll-off pending.

        Raises :class:`IllegalCommand` for fewer than 2 or more than 8 Contestants (Components: 8 Contestant
        cards; the issue sets two as the least) and :class:`MalformedCommand` for empty or repeated names.
        """
        options = self.check_options(options)
        names = [seat.name for seat in players]
        if not self.min_players <= len(names) <= self.max_players:
            raise IllegalCommand(
                f"Death Show TV is for 2 to 8 Contestants, not {len(names)}", "Components: 8 Contestant cards"
            )
        if any(not isinstance(n, str) or not n.strip() for n in names) or len(set(names)) != len(names):
            raise MalformedCommand(f"Contestant names must be distinct and not empty: {names}")
        contestants = tuple(
            Contestant(seat.name, seat.colour, options["vitality"], None, options["starting_cards"]) for seat in players
        )
        locations = tuple(Location(name, False, options["location_rules"].get(name, "")) for name in LOCATIONS)
        settings = Settings(options["vitality"], options["event_fumbles"], options["two_player_rule"])
        state = DeathShowState(contestants, locations, settings)
        if options["roll_off"]:
            return replace(state, roll_off=RollOff(tuple(names)))
        return replace(state, turn=names[0], phase="draw", turn_number=1)

    # -- decide -----------------------------------------------------------------------------------------------
    def decide(self, state: DeathShowState, command: Command) -> list[NewEvent]:
        """The events ``command`` causes in ``state``.

        Raises :class:`GameFinished` once the game is over, :class:`MalformedCommand` (or
        :class:`DiceError`) for bad values or unknown names, :class:`IllegalCommand` citing the rule for a
        command the rules forbid now. A refusal changes nothing.
        """
        if state.finished:
            raise GameFinished(f"the game is over ({state.end_reason}); undo to reopen it")
        script = _Script(self, state)
        handler = self._handlers().get(type(command))
        if handler is None:
            raise MalformedCommand(f"Death Show TV has no command {type(command).__name__}")
        handler(script, command)
        return script.events

    def _handlers(self) -> dict[type, Callable[[_Script, Any], None]]:
        return {
            AnswerDice: self._dice,
            DrawCard: self._draw,
            NewWeaponLevel: self._weapon_level,
            Move: self._move,
            Hunt: self._hunt,
            Fight: self._fight,
            PlayEvent: self._event,
            DeclareFighter: self._declare,
            AdjustBonus: self._adjust_bonus,
            Confirm: self._confirm,
            EndTurn: self._end_turn_command,
            Discard: self._discard,
            AdjustHand: self._adjust_hand,
            Wound: self._wound,
            Heal: self._heal,
            RemoveLocation: self._remove_location,
            EndGame: self._end_game,
        }

    # guards
    def _busy(self, state: DeathShowState) -> str | None:
        """Why ordinary play must wait (a roll-off, a Combat, a death being settled), or ``None``."""
        if state.phase == "setup":
            return "the first player has not been chosen yet: everyone rolls a die first (Starting the Game)"
        if state.combat is not None:
            return f"a Combat is under way: {self._combat_prompt(state)}"
        if state.deaths:
            return self._death_prompt(state)
        return None

    def _alive(self, state: DeathShowState, name: Any) -> Contestant:
        if not isinstance(name, str):
            raise MalformedCommand(f"a Contestant is named by text, not {name!r}")
        contestant = state.contestant(name)
        if not contestant.alive:
            raise IllegalCommand(f"{name} is dead (out of the game)", R_DEATH)
        return contestant

    def _my_phase(self, state: DeathShowState, player: Any, phase: str, doing: str) -> Contestant:
        """Check that it is ``player``'s turn, in ``phase``, and nothing else must happen first."""
        contestant = self._alive(state, player)
        busy = self._busy(state)
        if busy:
            raise IllegalCommand(f"{contestant.name} cannot {doing} now: {busy}")
        if state.turn != contestant.name:
            raise IllegalCommand(f"it is {state.turn}'s turn, not {contestant.name}'s", R_PHASES)
        if state.phase != phase:
            raise IllegalCommand(
                f"{contestant.name} cannot {doing} in the {PHASE_NAMES[state.phase]}: {self._phase_hint(state)}",
                R_PHASES,
            )
        return contestant

    # draw, rule change
    def _draw(self, script: _Script, command: DrawCard) -> None:
        me = self._my_phase(script.state, command.player, "draw", "draw the turn's card")
        self._check_hand(me, +1)
        script.add(
            HAND_CHANGED,
            {
                "player": me.name,
                "delta": 1,
                "cards": me.cards + 1,
                "reason": "draws a Show card",
                "rule": f"{R_PHASES} 1",
            },
        )
        script.add(PHASE_CHANGED, {"phase": "action", "reason": "Move, Hunt or Fight", "rule": f"{R_PHASES} 2"})

    def _check_hand(self, me: Contestant, delta: int) -> None:
        if not 0 <= me.cards + delta <= SHOW_CARDS:
            raise IllegalCommand(
                f"{me.name} holds {cards(me.cards)}, so cannot have {me.cards + delta}", "Components: 82 Show cards"
            )

    def _weapon_level(self, script: _Script, command: NewWeaponLevel) -> None:
        state = script.state
        me = self._alive(state, command.player)
        if state.phase == "setup":
            raise IllegalCommand("nobody draws before the first player is chosen", R_START)
        if state.weapon_level >= MAX_WEAPON_LEVEL:
            raise IllegalCommand(f"all {MAX_WEAPON_LEVEL} Weapon levels are already active", R_WEAPONS)
        script.add(
            WEAPON_LEVEL_RAISED,
            {"player": me.name, "level": state.weapon_level + 1, "rule": "Types of Show Cards: Rule Change; Weapons"},
        )

    # actions
    def _open_location(self, state: DeathShowState, where: Any) -> Location:
        if not isinstance(where, str):
            raise MalformedCommand(f"a Location is named by text, not {where!r}")
        location = state.location(where)
        if location.removed:
            raise IllegalCommand(f"{where} has been removed from the game: nobody may move there", R_SHRINKS)
        return location

    def _move(self, script: _Script, command: Move) -> None:
        state = script.state
        me = self._my_phase(state, command.player, "action", "Move")
        location = self._open_location(state, command.location)
        if me.location == location.name:
            raise IllegalCommand(f"{me.name} is already on {location.name}; a Move must go elsewhere", R_MOVE)
        others = state.occupants(location.name)
        if others:
            raise IllegalCommand(
                f"{location.name} is occupied by {', '.join(others)}: Move only to an unoccupied "
                f"Location (Hunt to attack them)",
                R_MOVE,
            )
        script.add(
            MOVED, {"player": me.name, "from": me.location, "to": location.name, "action": "move", "rule": R_MOVE}
        )
        script.add(PHASE_CHANGED, {"phase": "event", "reason": "you may play 1 Event", "rule": f"{R_PHASES} 3"})

    def _hunt(self, script: _Script, command: Hunt) -> None:
        state = script.state
        me = self._my_phase(state, command.player, "action", "Hunt")
        location = self._open_location(state, command.location)
        if me.location == location.name:
            raise IllegalCommand(
                f"{me.name} is already on {location.name}: use Fight against the Contestants there", R_HUNT
            )
        prey = state.occupants(location.name)
        if not prey:
            raise IllegalCommand(
                f"nobody is on {location.name} to Hunt: Hunt moves to an occupied Location (use Move)", R_HUNT
            )
        if me.cards < 1:
            raise IllegalCommand(f"Hunting needs a Trail card and {me.name} holds no cards", R_HUNT)
        script.add(
            HAND_CHANGED,
            {"player": me.name, "delta": -1, "cards": me.cards - 1, "reason": "plays a Trail to Hunt", "rule": R_HUNT},
        )
        script.add(
            MOVED, {"player": me.name, "from": me.location, "to": location.name, "action": "hunt", "rule": R_HUNT}
        )
        self._start_combat(script, "hunt", location.name, me.name, prey)

    def _fight(self, script: _Script, command: Fight) -> None:
        state = script.state
        me = self._my_phase(state, command.player, "action", "Fight")
        if me.location is None:
            raise IllegalCommand(
                f"{me.name} is not on the island yet, so there is nobody to Fight (Move first)", R_FIGHT
            )
        others = tuple(n for n in state.occupants(me.location) if n != me.name)
        if not others:
            raise IllegalCommand(
                f"nobody else is on {me.location}: Fight is against the Contestants in your Location", R_FIGHT
            )
        self._start_combat(script, "fight", me.location, me.name, others)

    def _start_combat(
        self,
        script: _Script,
        kind: str,
        location: str | None,
        attacker: str,
        defenders: Sequence[str],
        card: str = "",
        value: int | None = None,
    ) -> None:
        """Combat (Multiple Combat 1): the attacker (a Contestant, or the Event ``card`` with its fixed
        ``value``, rolled for by ``attacker``), then the defenders in turn order from the attacker's left."""
        state = script.state
        order = [n for n in state.left_of(attacker) if n in defenders]
        if attacker in defenders:
            order.append(attacker)
        if card:
            first = {"name": card, "roller": attacker, "is_event": True, "value": value}
        else:
            first = {"name": attacker, "roller": attacker, "is_event": False, "value": None}
        fighters = [first] + [{"name": n, "roller": n, "is_event": False, "value": None} for n in order]
        rule = R_EVENT_COMBAT if card else (R_MULTIPLE if len(fighters) > 2 else R_COMBAT)
        script.add(
            COMBAT_STARTED, {"kind": kind, "location": location, "card": card, "fighters": fighters, "rule": rule}
        )

    # events
    def _event(self, script: _Script, command: PlayEvent) -> None:
        state = script.state
        me = self._my_phase(state, command.player, "event", "play an Event")
        if state.events_played >= 1:
            raise IllegalCommand(f"{me.name} has already played an Event this phase: at most 1 Event", R_EVENT)
        card = _text(command.card, "the Event card's name")
        if card in state.names:
            raise MalformedCommand(f"an Event card cannot be called like a Contestant ({card})")
        if me.cards < 1:
            raise IllegalCommand(f"{me.name} holds no cards, so has no Event to play", R_EVENT)
        targets = tuple(command.targets) if isinstance(command.targets, (tuple, list)) else command.targets
        if not isinstance(targets, tuple):
            raise MalformedCommand(f"targets must be a list of Contestants, not {command.targets!r}")
        location = None
        if command.combat_value is None:
            if targets:
                raise MalformedCommand("an Event without a Combat value attacks nobody; give its Combat value")
        else:
            _whole(command.combat_value, "an Event's Combat value", -MAX_BONUS, MAX_BONUS)
            if not targets:
                raise MalformedCommand(f"say whom {card} attacks")
            if len(set(targets)) != len(targets):
                raise MalformedCommand(f"a Contestant is named twice among the targets: {list(targets)}")
            places = {self._alive(state, t).location for t in targets}
            if len(targets) > 1 and (len(places) != 1 or None in places):
                raise IllegalCommand(
                    f"{card} can fight several Contestants only in one Location; {', '.join(targets)} are not together",
                    R_MULTIPLE,
                )
            location = places.pop() if len(places) == 1 else None
        script.add(
            EVENT_PLAYED,
            {
                "player": me.name,
                "card": card,
                "combat_value": command.combat_value,
                "targets": list(targets),
                "rule": R_EVENT,
            },
        )
        if command.combat_value is not None:
            self._start_combat(script, "event", location, me.name, targets, card, command.combat_value)

    # combat declarations
    def _dead_first(self, state: DeathShowState, name: Any) -> None:
        """Refuse a dead Contestant's command by saying they are dead, before any other reason
        (When a Contestant Dies); names that are no Contestant (an Event card) pass."""
        if isinstance(name, str) and name in state.names:
            self._alive(state, name)

    def _declaring(self, state: DeathShowState, name: Any) -> Fighter:
        self._dead_first(state, name)
        combat = state.combat
        if combat is None:
            raise IllegalCommand("there is no Combat to declare cards for", R_COMBAT)
        fighter = combat.next_to_declare
        if fighter is None:
            raise IllegalCommand(f"every fighter has shown their cards; {self._combat_prompt(state)}", R_COMBAT)
        if combat.fighter(name) is None:
            raise IllegalCommand(
                f"{name} is not in this Combat ({', '.join(f.name for f in combat.fighters)})", R_COMBAT
            )
        if fighter.name != name:
            raise IllegalCommand(
                f"{fighter.name} shows their cards before {name} (attacker first, then the "
                f"defenders from the attacker's left)",
                f"{R_COMBAT} 1-2; {R_MULTIPLE} 1",
            )
        return fighter

    def _declare(self, script: _Script, command: DeclareFighter) -> None:
        state = script.state
        fighter = self._declaring(state, command.fighter)
        me = state.contestant(fighter.name)
        weapon = _text(command.weapon, "the Weapon's name")
        bonus = _whole(command.weapon_bonus, "the Weapon's bonus", 0, MAX_BONUS)
        level = _whole(command.weapon_level, "the Weapon's level", 1, MAX_WEAPON_LEVEL)
        if weapon == "Unarmed" and (bonus, level) != (0, 1):
            raise MalformedCommand(f"Unarmed is a Weapon +0 of level 1 ({R_UNARMED})")
        if level > state.weapon_level:
            raise IllegalCommand(
                f"{weapon} is a level {level} Weapon; only Weapons up to level {state.weapon_level} "
                f"may be used now (until a New Weapon Level Activated)",
                R_WEAPONS,
            )
        if not isinstance(command.bonuses, (tuple, list)) or len(command.bonuses) > MAX_BONUSES:
            raise MalformedCommand(f"bonuses are up to {MAX_BONUSES} (name, value) pairs, not {command.bonuses!r}")
        bonuses = []
        for item in command.bonuses:
            if not isinstance(item, (tuple, list)) or len(item) != 2:
                raise MalformedCommand(f"a bonus is a (name, value) pair, not {item!r}")
            bonuses.append(
                Part(
                    _text(item[0], "a bonus card's name"),
                    _whole(item[1], f"the bonus of {item[0]}", -MAX_BONUS, MAX_BONUS),
                )
            )
        dice = _whole(command.dice, "the number of dice", 1, 2)
        shown = (weapon != "Unarmed") + len(bonuses)
        if shown > me.cards:
            raise IllegalCommand(f"{me.name} holds {cards(me.cards)}, so cannot show {shown}", f"{R_COMBAT} 1")
        if dice == 2 and shown == 0:
            raise IllegalCommand("two dice need a card that allows them, and no card is shown", f"{R_COMBAT}, note **")
        spent = shown if command.cards_spent is None else _whole(command.cards_spent, "cards spent", 0, shown)
        script.add(
            FIGHTER_DECLARED,
            {
                "fighter": me.name,
                "weapon": weapon,
                "weapon_bonus": bonus,
                "weapon_level": level,
                "bonuses": [[p.label, p.value] for p in bonuses],
                "dice": dice,
                "cards_spent": spent,
                "rule": f"{R_COMBAT} 1-2",
            },
        )

    def _adjust_bonus(self, script: _Script, command: AdjustBonus) -> None:
        fighter = self._declaring(script.state, command.fighter)
        delta = _whole(command.delta, "a bonus step", -5, 5)
        draft = fighter.draft + delta
        if delta == 0 or not -MAX_BONUS <= draft <= MAX_BONUS:
            raise MalformedCommand(f"the bonus entered stays from -{MAX_BONUS} to {MAX_BONUS} (now {fighter.draft})")
        script.add(BONUS_DRAFTED, {"fighter": fighter.name, "delta": delta, "draft": draft})

    def _confirm(self, script: _Script, command: Confirm) -> None:
        state = script.state
        me = self._alive(state, command.player)
        if state.combat is not None and state.combat.next_to_declare is not None:
            fighter = self._declaring(state, me.name)
            bonuses = (("Bonus cards", fighter.draft),) if fighter.draft else ()
            self._declare(script, DeclareFighter(fighter=me.name, bonuses=bonuses, cards_spent=0))
        elif state.phase == "draw" and state.turn == me.name and not self._busy(state):
            self._draw(script, DrawCard(player=me.name))
        elif state.phase == "event" and state.turn == me.name and not self._busy(state):
            self._end_turn_command(script, EndTurn(player=me.name))
        elif state.phase == "discard" and me.cards > HAND_LIMIT and not self._busy(state):
            self._discard(script, Discard(player=me.name, count=1))
        else:
            raise IllegalCommand(f"nothing for {me.name} to confirm: {self._busy(state) or self._phase_hint(state)}")

    # dice
    def _dice(self, script: _Script, command: AnswerDice) -> None:
        state = script.state
        self._dead_first(state, command.roller)
        request = self.pending_dice(state)
        values = check_answer(request, command.roller, command.values, command.source)
        base = roll_payload(request, command.roller, values, command.source)
        if state.roll_off is not None:
            self._roll_off_roll(script, state.roll_off, "first_player", base, None)
        elif state.combat is not None:
            fighter = state.combat.next_to_roll
            script.add(DICE_ROLLED, {**base, "purpose": "combat", "fighter": fighter.name})
            if script.state.combat.next_to_roll is None:
                self._resolve(script)
        else:
            death = state.deaths[0]
            self._roll_off_roll(script, death.roll_off, "killers", base, death.dead)

    def _roll_off_roll(self, script: _Script, roll_off: RollOff, purpose: str, base: dict, dead: str | None) -> None:
        script.add(DICE_ROLLED, {**base, "purpose": purpose})
        settled = roll_off.with_roll(base["roller"], sum(base["values"])).leaders()
        if settled is None:
            return
        leaders, best = settled
        if len(leaders) > 1:
            script.add(ROLL_OFF_TIED, {"purpose": purpose, "players": leaders, "total": best, "dead": dead})
        elif purpose == "first_player":
            script.add(FIRST_PLAYER_CHOSEN, {"player": leaders[0], "total": best, "rule": R_START})
            script.add(TURN_STARTED, {"player": leaders[0], "turn_number": 1})
        else:
            death = script.state.deaths[0]
            script.add(
                KILLER_CHOSEN,
                {"dead": dead, "player": leaders[0], "total": best, "cards": death.cards, "rule": R_KILLED},
            )
            self._settle(script)

    # resolution
    def _resolve(self, script: _Script) -> None:
        """How Combat Is Resolved 4-5, Multiple Combat 2, Fighting an Event, then deaths (R3-R12)."""
        state = script.state
        combat = state.combat
        rolled = [f.rolled(state.fumble_faces(f)) for f in combat.fighters]
        result = resolve_rolled(rolled)
        winners = [combat.fighters[i] for i in result.winners]
        losers = [combat.fighters[i] for i in result.losers]
        if result.nothing:
            summary = (
                "every fighter fumbled: nothing happens" if all(r.fumble for r in rolled) else "a tie: nothing happens"
            )
        else:
            summary = (
                f"{' and '.join(f.name for f in winners)} {verb(len(winners), 'wins', 'win')}; "
                f"{' and '.join(f.name for f in losers)} {verb(len(losers), 'loses', 'lose')}"
            )
        rule = R_EVENT_COMBAT if combat.kind == "event" else (R_MULTIPLE if len(rolled) > 2 else R_COMBAT)
        script.add(
            COMBAT_RESOLVED,
            {
                "kind": combat.kind,
                "location": combat.location,
                "card": combat.card,
                "fighters": [
                    {
                        "name": r.name,
                        "values": list(r.values),
                        "parts": [[p.label, p.value] for p in r.parts],
                        "total": r.total,
                        "fumble": r.fumble,
                        "line": r.breakdown(),
                    }
                    for r in rolled
                ],
                "winners": [f.name for f in winners],
                "losers": [f.name for f in losers],
                "summary": summary,
                "rule": rule,
            },
        )
        champions = [f.name for f in winners if not f.is_event]  # Contestant Winners
        hurt = [f.name for f in losers if not f.is_event]  # Contestant Losers
        for name in hurt:
            before = script.state.contestant(name).vitality
            script.add(
                VITALITY_CHANGED,
                {
                    "player": name,
                    "delta": -1,
                    "vitality": before - 1,
                    "reason": "lost the Combat",
                    "rule": f"{R_COMBAT} 4",
                },
            )
        for fighter in winners:
            if fighter.unarmed:
                cards = script.state.contestant(fighter.name).cards
                if cards < SHOW_CARDS:
                    script.add(
                        HAND_CHANGED,
                        {
                            "player": fighter.name,
                            "delta": 1,
                            "cards": cards + 1,
                            "reason": "won Unarmed: draws a Show card",
                            "rule": R_UNARMED,
                        },
                    )
        for name in hurt:
            loser = script.state.contestant(name)
            if not loser.alive or loser.cards == 0 or not champions:
                continue
            looter = next(n for n in state.left_of(name) if n in champions)  # R9: nearest Winner to the left
            script.add(
                CARDS_MOVED,
                {
                    "from": name,
                    "to": looter,
                    "count": 1,
                    "reason": "Loot: a random card from the Loser's hand",
                    "rule": R_LOOT,
                },
            )
        for name in hurt:
            if script.state.contestant(name).alive:
                continue
            if champions:
                script.add(
                    CONTESTANT_DIED,
                    {
                        "player": name,
                        "cause": "combat",
                        "killers": champions,
                        "remover": champions[0] if len(champions) == 1 else None,
                        "cards": script.state.contestant(name).cards,
                        "rule": R_KILLED,
                    },
                )
            else:  # only the Event card won (R10)
                script.add(
                    CONTESTANT_DIED,
                    {
                        "player": name,
                        "cause": "other",
                        "killers": [],
                        "remover": combat.attacker.roller,
                        "cards": script.state.contestant(name).cards,
                        "rule": R_OTHER_DEATH,
                    },
                )
        self._check_end(script)
        self._settle(script)

    def _check_end(self, script: _Script) -> None:
        """Objective of the Game: the last Contestant standing wins; if the last die together, nobody does."""
        alive = script.state.alive
        if len(alive) == 1:
            script.add(
                GAME_OVER,
                {
                    "winner": alive[0].name,
                    "reason": f"{alive[0].name} is the last Contestant standing and survives the show",
                    "rule": R_OBJECTIVE,
                },
            )
        elif not alive:
            script.add(
                GAME_OVER,
                {
                    "winner": None,
                    "reason": "the last Contestants died together: there is no winner (no glory for the dead)",
                    "rule": R_OBJECTIVE,
                },
            )

    def _settle(self, script: _Script) -> None:
        """After a Combat or death: go on to the phase the action leads to, or end a dead player's turn (R11)."""
        state = script.state
        if state.finished or state.combat is not None or state.deaths:
            return
        if not state.contestant(state.turn).alive:
            self._end_turn(script, f"{state.turn} died during their turn")
        elif state.resume_phase is not None:
            script.add(
                PHASE_CHANGED, {"phase": state.resume_phase, "reason": "you may play 1 Event", "rule": f"{R_PHASES} 3"}
            )

    # end of turn, discard
    def _end_turn_command(self, script: _Script, command: EndTurn) -> None:
        me = self._my_phase(script.state, command.player, "event", "end the turn")
        self._end_turn(script, f"{me.name} ends the turn")

    def _end_turn(self, script: _Script, reason: str) -> None:
        """Phases of a Turn 4: the Discard Phase while anyone holds more than 7, else the next turn."""
        state = script.state
        over = [c.name for c in state.alive if c.cards > HAND_LIMIT]
        if over:
            script.add(
                PHASE_CHANGED,
                {
                    "phase": "discard",
                    "reason": f"{reason}; {', '.join(over)} must discard down to {HAND_LIMIT}",
                    "rule": R_DISCARD,
                },
            )
        else:
            following = state.next_alive_after(state.turn)
            script.add(TURN_STARTED, {"player": following, "turn_number": state.turn_number + 1})

    def _discard(self, script: _Script, command: Discard) -> None:
        state = script.state
        me = self._alive(state, command.player)
        busy = self._busy(state)
        if busy:
            raise IllegalCommand(f"{me.name} cannot discard now: {busy}")
        if state.phase != "discard":
            raise IllegalCommand(
                f"the Discard Phase comes after the Event Phase; it is the {PHASE_NAMES[state.phase]}", R_DISCARD
            )
        count = _whole(command.count, "the cards discarded", 1, SHOW_CARDS)
        if me.cards - count < HAND_LIMIT:
            raise IllegalCommand(f"{me.name} holds {cards(me.cards)} and discards only down to {HAND_LIMIT}", R_DISCARD)
        script.add(
            HAND_CHANGED,
            {
                "player": me.name,
                "delta": -count,
                "cards": me.cards - count,
                "reason": f"discards down to the hand limit of {HAND_LIMIT}",
                "rule": R_DISCARD,
            },
        )
        self._after_hand_change(script)

    def _after_hand_change(self, script: _Script) -> None:
        state = script.state
        if state.phase == "discard" and all(c.cards <= HAND_LIMIT for c in state.alive):
            script.add(
                TURN_STARTED, {"player": state.next_alive_after(state.turn), "turn_number": state.turn_number + 1}
            )

    def _adjust_hand(self, script: _Script, command: AdjustHand) -> None:
        state = script.state
        me = self._alive(state, command.player)
        delta = _whole(command.delta, "a change of cards", -SHOW_CARDS, SHOW_CARDS)
        if delta == 0:
            raise MalformedCommand("a change of cards must not be 0")
        reason = _text(command.reason, "the reason") if command.reason else "corrected by hand"
        self._check_hand(me, delta)
        script.add(
            HAND_CHANGED, {"player": me.name, "delta": delta, "cards": me.cards + delta, "reason": reason, "rule": ""}
        )
        if not self._busy(script.state):
            self._after_hand_change(script)

    # vitality outside combat
    def _wound(self, script: _Script, command: Wound) -> None:
        state = script.state
        me = self._alive(state, command.player)
        if not isinstance(command.by, str):
            raise MalformedCommand(f"say who caused it by name, not {command.by!r}")
        by = state.contestant(command.by)
        amount = _whole(command.amount, "the Vitality lost", 1, 20)
        reason = _text(command.reason, "the reason")
        busy = self._busy(state)
        if busy:
            raise IllegalCommand(f"finish first: {busy}")
        lost = min(amount, me.vitality)
        script.add(
            VITALITY_CHANGED,
            {
                "player": me.name,
                "delta": -lost,
                "vitality": me.vitality - lost,
                "reason": f"{reason} (caused by {by.name})",
                "rule": "",
            },
        )
        if me.vitality - lost == 0:
            script.add(
                CONTESTANT_DIED,
                {
                    "player": me.name,
                    "cause": "other",
                    "killers": [],
                    "remover": by.name,
                    "cards": me.cards,
                    "rule": R_OTHER_DEATH,
                },
            )
            self._check_end(script)
            self._settle(script)

    def _heal(self, script: _Script, command: Heal) -> None:
        state = script.state
        me = self._alive(state, command.player)
        amount = _whole(command.amount, "the Vitality regained", 1, 20)
        reason = _text(command.reason, "the reason")
        top = state.settings.vitality
        if me.vitality + amount > top:
            raise IllegalCommand(
                f"{me.name} has {me.vitality} of {top} Vitality and cannot go above the start", R_DEATH
            )
        script.add(
            VITALITY_CHANGED,
            {"player": me.name, "delta": amount, "vitality": me.vitality + amount, "reason": reason, "rule": ""},
        )

    # death
    def _remove_location(self, script: _Script, command: RemoveLocation) -> None:
        state = script.state
        if not state.deaths:
            raise IllegalCommand("a Location is removed only when a Contestant dies", R_SHRINKS)
        death = state.deaths[0]
        if death.remover is None:
            raise IllegalCommand(self._death_prompt(state), R_KILLED)
        if command.player != death.remover:
            raise IllegalCommand(
                f"{death.remover} caused {death.dead}'s death and chooses the Location, not {command.player}", R_SHRINKS
            )
        location = self._open_location(state, command.location)
        here = state.occupants(location.name)
        if here:
            raise IllegalCommand(
                f"{location.name} is occupied by {', '.join(here)}: choose an unoccupied Location", R_SHRINKS
            )
        script.add(
            LOCATION_REMOVED,
            {"player": death.remover, "location": location.name, "dead": death.dead, "rule": R_SHRINKS},
        )
        self._settle(script)

    def _end_game(self, script: _Script, command: EndGame) -> None:
        reason = command.reason.strip() if isinstance(command.reason, str) and command.reason.strip() else None
        if reason is None:
            raise MalformedCommand("say why the game ends")
        script.add(GAME_ENDED, {"reason": reason})

    # -- evolve -----------------------------------------------------------------------------------------------
    def evolve(self, state: DeathShowState, event_type: str, payload: Mapping[str, Any]) -> DeathShowState:
        """Fold one event into the state (pure; the events were checked when decided). Raises ``ValueError``
        for an unknown event type."""
        handler = _EVOLVE.get(event_type)
        if handler is None:
            raise ValueError(f"Death Show TV cannot apply an event of type {event_type!r}")
        return handler(state, payload)

    # -- reading ----------------------------------------------------------------------------------------------
    def pending_dice(self, state: DeathShowState) -> DiceRequest | None:
        """The roll the game waits for: the first-player roll-off (Starting the Game), the next fighter's
        Combat dice (How Combat Is Resolved 3: attacker first; an Event is rolled for by its player), or
        the killers' roll-off for a dead Contestant's cards (Killing a Contestant in Combat); else ``None``."""
        if state.finished:
            return None
        if state.roll_off is not None:
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
        if state.deaths and state.deaths[0].roll_off is not None:
            death = state.deaths[0]
            again = f", re-roll {death.roll_off.round - 1}" if death.roll_off.round > 1 else ""
            return DiceRequest(death.roll_off.next_roller, 1, f"who keeps {death.dead}'s cards{again}", R_KILLED)
        return None

    def is_finished(self, state: DeathShowState) -> bool:
        """Whether the show is over (a winner, nobody left, or ended at the table)."""
        return state.finished

    def button_command(self, action: str, player: str, source: str = "button") -> Command:
        """The seat buttons: ``on_the_air`` → :class:`AdjustBonus` +1 (enter a bonus while declaring),
        ``sponsor`` → :class:`Confirm`, ``roll`` → :class:`RollDice` for the pending request. Raises
        :class:`MalformedCommand` for another action."""
        if action == "on_the_air":
            return AdjustBonus(fighter=player, delta=1, source=source)
        if action == "sponsor":
            return Confirm(player=player, source=source)
        if action == "roll":
            return RollDice(roller=player, source=source)
        raise MalformedCommand(
            f"Death Show TV has no button action {action!r}; actions: {', '.join(self.button_actions)}"
        )

    def combat_odds(self, state: DeathShowState) -> tuple[tuple[str, Chances], ...] | None:
        """Each fighter's exact chances to win, lose or neither as they were before the dice (an addition
        to the rulebook), once every fighter has shown their cards and until the Combat is resolved (they
        stay the same while the dice come in); ``None`` otherwise."""
        combat = state.combat
        if combat is None or combat.next_to_declare is not None:
            return None
        chances = odds([f.dice_for_odds(state.fumble_faces(f)) for f in combat.fighters])
        return tuple((f.name, c) for f, c in zip(combat.fighters, chances))

    def combat_odds_now(self, state: DeathShowState) -> tuple[tuple[str, Chances], ...] | None:
        """Each fighter's exact chances given the dice already rolled in this Combat (some, not all);
        ``None`` before the first die or outside a Combat."""
        combat = state.combat
        if combat is None or combat.next_to_declare is not None or not any(f.values for f in combat.fighters):
            return None
        chances = odds([f.dice_for_odds(state.fumble_faces(f), given_roll=True) for f in combat.fighters])
        return tuple((f.name, c) for f, c in zip(combat.fighters, chances))

    def _combat_prompt(self, state: DeathShowState) -> str:
        combat = state.combat
        declaring = combat.next_to_declare
        if declaring is not None:
            return f"{declaring.name} shows a Weapon and bonus cards ({R_COMBAT} 1-2)"
        request = self.pending_dice(state)
        return request.describe() if request else ""

    def _death_prompt(self, state: DeathShowState) -> str:
        death = state.deaths[0]
        if death.remover is None:
            return self.pending_dice(state).describe()
        return f"{death.remover} removes an unoccupied Location ({death.dead} died; {R_SHRINKS})"

    def _event_hint(self, state: DeathShowState) -> str:
        """What the Event Phase still allows (Phases of a Turn 3: at most one Event)."""
        if state.events_played:
            return f"{state.turn} has played their Event: end the turn"
        if state.contestant(state.turn).cards < 1:
            return f"{state.turn} holds no cards, so has no Event to play: end the turn"
        return f"{state.turn} may play 1 Event, then ends the turn"

    def _phase_hint(self, state: DeathShowState) -> str:
        hints = {
            "setup": "everyone rolls for the first player",
            "draw": f"{state.turn} draws a Show card",
            "action": f"{state.turn} must Move, Hunt or Fight",
            "event": self._event_hint(state),
            "discard": "players over 7 cards discard: "
            + ", ".join(f"{c.name} {c.cards}" for c in state.alive if c.cards > HAND_LIMIT),
        }
        return hints[state.phase]

    def status(self, state: DeathShowState) -> str:
        """The status line: the game's end, the roll or choice awaited, or whose turn and phase it is."""
        if state.finished:
            return f"Game over: {state.end_reason}"
        busy = self._busy(state)
        if busy:
            return (
                self._combat_prompt(state)
                if state.combat
                else (self.pending_dice(state).describe() if state.phase == "setup" else busy)
            )
        return f"{state.turn}'s turn {state.turn_number}, {PHASE_NAMES[state.phase]}: {self._phase_hint(state)}"

    def view(self, state: DeathShowState) -> TableView:
        """The public picture: every Contestant's Vitality, Location and card count (all public), whose turn
        it is, odds during a Combat and the last Combat's breakdown in ``notes``."""
        top = state.settings.vitality
        chances = dict(self.combat_odds(state) or ())
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
            players.append(
                PlayerView(
                    c.name,
                    c.colour,
                    None,
                    tracks,
                    badges,
                    state.turn == c.name and not state.finished,
                    headline,
                    tuple(lines),
                )
            )
        notes = [f"Weapons usable: level {state.weapon_level}" + (" only" if state.weapon_level == 1 else " and below")]
        notes += [chance.describe(name) for name, chance in chances.items()]
        notes += [
            f"after the dice so far, {chance.describe(name)}" for name, chance in (self.combat_odds_now(state) or ())
        ]
        if state.last_combat is not None:
            notes += list(state.last_combat.lines) + [state.last_combat.summary]
        notes += [
            f"{c.name} holds {cards(c.cards)}: discard down to {HAND_LIMIT} in the Discard Phase ({R_DISCARD})"
            for c in state.alive
            if c.cards > HAND_LIMIT
        ]
        notes += [f"{loc.name} rule: {loc.rule}" for loc in state.locations if loc.rule and not loc.removed]
        request = self.pending_dice(state)
        return TableView(self.title, tuple(players), request, self.status(state), state.finished, tuple(notes))

    def describe(self, event_type: str, payload: Mapping[str, Any]) -> str:
        """One readable line per event for the history screen, e.g. ``"Kelpie loses 1 Vitality (now 3): lost
        the Combat (How Combat Is Resolved 4)"``."""
        p = payload
        rule = f" ({p['rule']})" if p.get("rule") else ""
        if event_type == DICE_ROLLED:
            shown = "+".join(map(str, p["values"])) + (f" = {sum(p['values'])}" if len(p["values"]) > 1 else "")
            return f"{p['roller']} rolled {shown} ({p['source']}) for {p['reason']}{rule}"
        if event_type == ROLL_OFF_TIED:
            return f"{' and '.join(p['players'])} tied on {p['total']}: they roll again"
        if event_type == FIRST_PLAYER_CHOSEN:
            return f"{p['player']} rolled highest ({p['total']}) and goes first{rule}"
        if event_type == TURN_STARTED:
            return f"Turn {p['turn_number']}: {p['player']}'s turn begins (Draw Phase)"
        if event_type == PHASE_CHANGED:
            return f"{PHASE_NAMES[p['phase']]}: {p['reason']}{rule}"
        if event_type == HAND_CHANGED:
            change = f"{p['delta']:+d} {noun(abs(p['delta']), 'card')}"
            return f"{p['player']} {change} (now {p['cards']}): {p['reason']}{rule}"
        if event_type == CARDS_MOVED:
            return f"{p['to']} takes {cards(p['count'])} from {p['from']}: {p['reason']}{rule}"
        if event_type == WEAPON_LEVEL_RAISED:
            return f"{p['player']} drew New Weapon Level Activated: Weapons up to level {p['level']} may be used{rule}"
        if event_type == MOVED:
            verb = "hunts, moving" if p["action"] == "hunt" else "moves"
            return f"{p['player']} {verb} from {p['from'] or 'off the island'} to {p['to']}{rule}"
        if event_type == EVENT_PLAYED:
            attack = (
                f", Combat {p['combat_value']:+d} against {', '.join(p['targets'])}"
                if p["combat_value"] is not None
                else ""
            )
            return f"{p['player']} plays the Event {p['card']}{attack}{rule}"
        if event_type == COMBAT_STARTED:
            names = [f["name"] for f in p["fighters"]]
            where = f" on {p['location']}" if p["location"] else ""
            return f"Combat{where}: {names[0]} attacks {', '.join(names[1:])}{rule}"
        if event_type == BONUS_DRAFTED:
            return f"{p['fighter']} enters a bonus of {p['draft']:+d}"
        if event_type == FIGHTER_DECLARED:
            weapon = (
                "Unarmed"
                if p["weapon"] == "Unarmed"
                else f"{p['weapon']} +{p['weapon_bonus']} (level {p['weapon_level']})"
            )
            extras = "".join(f", {name} {value:+d}" for name, value in p["bonuses"])
            dice = ", two dice" if p["dice"] == 2 else ""
            return f"{p['fighter']} fights with {weapon}{extras}{dice}{rule}"
        if event_type == COMBAT_RESOLVED:
            return "; ".join(f["line"] for f in p["fighters"]) + f": {p['summary']}{rule}"
        if event_type == VITALITY_CHANGED:
            verb = "loses" if p["delta"] < 0 else "gains"
            return f"{p['player']} {verb} {abs(p['delta'])} Vitality (now {p['vitality']}): {p['reason']}{rule}"
        if event_type == CONTESTANT_DIED:
            if p["cause"] == "combat" and len(p["killers"]) == 1:
                fate = f"{p['killers'][0]} killed them and keeps their {cards(p['cards'])}"
            elif p["cause"] == "combat":
                fate = f"killed by {' and '.join(p['killers'])}, who roll off for their {cards(p['cards'])}"
            else:
                fate = (
                    f"their {cards(p['cards'])} {'is' if p['cards'] == 1 else 'are'} discarded"
                    if p["cards"]
                    else "they held no cards"
                )
            return f"{p['player']} dies and is out of the show: {fate}{rule}"
        if event_type == KILLER_CHOSEN:
            return f"{p['player']} rolled highest ({p['total']}) and keeps {p['dead']}'s {cards(p['cards'])}{rule}"
        if event_type == LOCATION_REMOVED:
            return f"{p['player']} removes {p['location']} from the island after {p['dead']}'s death{rule}"
        if event_type == GAME_OVER:
            return f"The show is over: {p['reason']}{rule}"
        if event_type == GAME_ENDED:
            return f"Game ended: {p['reason']}"
        return f"{event_type} {dict(p)}"


# -- evolve handlers ------------------------------------------------------------------------------------------
def _with(state: DeathShowState, name: str, **changes: Any) -> DeathShowState:
    return replace(state, contestants=tuple(replace(c, **changes) if c.name == name else c for c in state.contestants))


def _add_cards(state: DeathShowState, name: str, delta: int) -> DeathShowState:
    return _with(state, name, cards=state.contestant(name).cards + delta)


def _with_fighter(state: DeathShowState, name: str, **changes: Any) -> DeathShowState:
    combat = state.combat
    return replace(
        state,
        combat=replace(combat, fighters=tuple(replace(f, **changes) if f.name == name else f for f in combat.fighters)),
    )


def _dice_rolled(state: DeathShowState, p: Mapping[str, Any]) -> DeathShowState:
    purpose = p["purpose"]
    if purpose == "combat":
        return _with_fighter(state, p["fighter"], values=tuple(p["values"]))
    roller, total = p["roller"], sum(p["values"])
    if purpose == "first_player":
        return replace(state, roll_off=state.roll_off.with_roll(roller, total))
    death = state.deaths[0]
    death = replace(death, roll_off=death.roll_off.with_roll(roller, total))
    return replace(state, deaths=(death,) + state.deaths[1:])


def _roll_off_tied(state: DeathShowState, p: Mapping[str, Any]) -> DeathShowState:
    if p["purpose"] == "first_player":
        return replace(state, roll_off=state.roll_off.reroll(p["players"]))
    death = state.deaths[0]
    death = replace(death, roll_off=death.roll_off.reroll(p["players"]))
    return replace(state, deaths=(death,) + state.deaths[1:])


def _first_player(state: DeathShowState, p: Mapping[str, Any]) -> DeathShowState:
    return replace(state, roll_off=None)


def _turn_started(state: DeathShowState, p: Mapping[str, Any]) -> DeathShowState:
    return replace(
        state, turn=p["player"], turn_number=p["turn_number"], phase="draw", events_played=0, resume_phase=None
    )


def _phase_changed(state: DeathShowState, p: Mapping[str, Any]) -> DeathShowState:
    return replace(state, phase=p["phase"], resume_phase=None)


def _hand_changed(state: DeathShowState, p: Mapping[str, Any]) -> DeathShowState:
    return _with(state, p["player"], cards=p["cards"])


def _cards_moved(state: DeathShowState, p: Mapping[str, Any]) -> DeathShowState:
    return _add_cards(_add_cards(state, p["from"], -p["count"]), p["to"], p["count"])


def _weapon_level(state: DeathShowState, p: Mapping[str, Any]) -> DeathShowState:
    return replace(state, weapon_level=p["level"])


def _moved(state: DeathShowState, p: Mapping[str, Any]) -> DeathShowState:
    return _with(state, p["player"], location=p["to"])


def _event_played(state: DeathShowState, p: Mapping[str, Any]) -> DeathShowState:
    state = _add_cards(state, p["player"], -1)
    return replace(state, events_played=state.events_played + 1)


def _combat_started(state: DeathShowState, p: Mapping[str, Any]) -> DeathShowState:
    fighters = tuple(
        Fighter(f["name"], f["roller"], True, True, bonuses=(Part("Combat", f["value"]),))
        if f["is_event"]
        else Fighter(f["name"], f["roller"])
        for f in p["fighters"]
    )
    resume = "event" if state.phase == "action" else state.resume_phase
    return replace(state, combat=Combat(p["kind"], p["location"], fighters, p["card"]), resume_phase=resume)


def _bonus_drafted(state: DeathShowState, p: Mapping[str, Any]) -> DeathShowState:
    return _with_fighter(state, p["fighter"], draft=p["draft"])


def _declared(state: DeathShowState, p: Mapping[str, Any]) -> DeathShowState:
    state = _with_fighter(
        state,
        p["fighter"],
        declared=True,
        weapon=p["weapon"],
        weapon_bonus=p["weapon_bonus"],
        weapon_level=p["weapon_level"],
        bonuses=tuple(Part(n, v) for n, v in p["bonuses"]),
        dice=p["dice"],
        cards_spent=p["cards_spent"],
        draft=0,
    )
    return _add_cards(state, p["fighter"], -p["cards_spent"])


def _resolved(state: DeathShowState, p: Mapping[str, Any]) -> DeathShowState:
    return replace(state, combat=None, last_combat=CombatReport.from_payload(p))


def _vitality(state: DeathShowState, p: Mapping[str, Any]) -> DeathShowState:
    return _with(state, p["player"], vitality=p["vitality"])


def _died(state: DeathShowState, p: Mapping[str, Any]) -> DeathShowState:
    """The dead leave the island; their cards go to a single killer, to the roll-off, or to the discards."""
    name, cards, killers = p["player"], p["cards"], tuple(p["killers"])
    state = _with(state, name, location=None, cards=0)
    roll_off = None
    if p["cause"] == "combat" and len(killers) == 1:
        state = _add_cards(state, killers[0], cards)
    elif p["cause"] == "combat":
        roll_off = RollOff(killers)
    return replace(state, deaths=state.deaths + (Death(name, p["cause"], killers, p["remover"], cards, roll_off),))


def _killer_chosen(state: DeathShowState, p: Mapping[str, Any]) -> DeathShowState:
    death = replace(state.deaths[0], remover=p["player"], roll_off=None)
    state = _add_cards(state, p["player"], p["cards"])
    return replace(state, deaths=(death,) + state.deaths[1:])


def _location_removed(state: DeathShowState, p: Mapping[str, Any]) -> DeathShowState:
    return replace(
        state,
        deaths=state.deaths[1:],
        locations=tuple(replace(l, removed=True) if l.name == p["location"] else l for l in state.locations),
    )


def _game_over(state: DeathShowState, p: Mapping[str, Any]) -> DeathShowState:
    return replace(state, finished=True, winner=p["winner"], end_reason=p["reason"], deaths=(), combat=None)


def _game_ended(state: DeathShowState, p: Mapping[str, Any]) -> DeathShowState:
    return replace(state, finished=True, end_reason=p["reason"])


_EVOLVE: dict[str, Callable[[DeathShowState, Mapping[str, Any]], DeathShowState]] = {
    DICE_ROLLED: _dice_rolled,
    ROLL_OFF_TIED: _roll_off_tied,
    FIRST_PLAYER_CHOSEN: _first_player,
    TURN_STARTED: _turn_started,
    PHASE_CHANGED: _phase_changed,
    HAND_CHANGED: _hand_changed,
    CARDS_MOVED: _cards_moved,
    WEAPON_LEVEL_RAISED: _weapon_level,
    MOVED: _moved,
    EVENT_PLAYED: _event_played,
    COMBAT_STARTED: _combat_started,
    BONUS_DRAFTED: _bonus_drafted,
    FIGHTER_DECLARED: _declared,
    COMBAT_RESOLVED: _resolved,
    VITALITY_CHANGED: _vitality,
    CONTESTANT_DIED: _died,
    KILLER_CHOSEN: _killer_chosen,
    LOCATION_REMOVED: _location_removed,
    GAME_OVER: _game_over,
    GAME_ENDED: _game_ended,
}

DEATH_SHOW_TV = DeathShowTv()
