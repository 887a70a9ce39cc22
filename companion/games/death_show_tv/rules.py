"""The Death Show TV rules engine: ``decide`` (command → typed events, or a rule-cited refusal), ``evolve``
(one event folded into the state), and the rest of :class:`companion.game.Game`.

Rule names are the section names of ``rules/death-show-tv.txt``; rulings where the rulebook is silent
are numbered R1, R2, … in ``docs/rulings-death-show-tv.md``. The state is in :mod:`.state`, the commands in
:mod:`.commands`, the events in :mod:`.events`, the read-only views in :mod:`.view`, the combat arithmetic
in :mod:`.combat`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from companion.checks import is_whole
from companion.commands import AnswerDice, Command, EndGame, PlayerSeat, RollDice, end_reason, end_words
from companion.dice import DiceRequest, RollOff, check_answer
from companion.errors import TABLE_RULE, BadOption, CommandError, GameFinished, IllegalCommand, MalformedCommand
from companion.events import Event, EventCodec
from companion.game import GameInfo, LegalCommand, Outcome, PrivateView, Termination
from companion.games import TableView
from companion.games.death_show_tv import view
from companion.games.death_show_tv.combat import Chances, Part, resolve_rolled
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
    PlayOnAir,
    RemoveLocation,
    ReshuffleDiscards,
    Wound,
)
from companion.games.death_show_tv.events import (
    CODEC,
    BonusDrafted,
    CardsMoved,
    CombatResolved,
    CombatStarted,
    ContestantDied,
    DeathShowEvent,
    DiceRolled,
    EventPlayed,
    FighterDeclared,
    FirstPlayerChosen,
    GameEnded,
    GameOver,
    HandChanged,
    KillerChosen,
    LocationRemoved,
    Moved,
    OnAirEnded,
    OnAirPlayed,
    PhaseChanged,
    ResolvedFighter,
    RollOffTied,
    RuleChangeReplaced,
    ShowDeckReshuffled,
    StartingFighter,
    TurnStarted,
    VitalityChanged,
    WeaponLevelRaised,
    cards,
)
from companion.games.death_show_tv.info import INFO
from companion.games.death_show_tv.state import (
    HAND_LIMIT,
    LOCATIONS,
    MAX_WEAPON_LEVEL,
    PHASE_NAMES,
    SHOW_CARDS,
    Combat,
    CombatReport,
    Contestant,
    Death,
    DeathShowState,
    Fighter,
    Location,
    OnAir,
    Settings,
)
from companion.games.death_show_tv.view import (
    R_COMBAT,
    R_DEATH,
    R_DISCARD,
    R_EVENT,
    R_EVENT_COMBAT,
    R_FIGHT,
    R_GENERIC,
    R_HUNT,
    R_KILLED,
    R_LOOT,
    R_MOVE,
    R_MULTIPLE,
    R_OBJECTIVE,
    R_OTHER_DEATH,
    R_PHASES,
    R_RULE_CHANGE,
    R_RUNNING_OUT,
    R_SHRINKS,
    R_START,
    R_UNARMED,
    R_WEAPONS,
    busy,
    busy_rule,
    combat_prompt,
    death_prompt,
    pending_dice,
    phase_hint,
    waiting_refusal,
)
from companion.words import verb

MAX_NAME = 40  # characters in a card or bonus name
MAX_BONUS = 20  # largest single bonus or Combat value accepted (no printed card is near it)
MAX_BONUSES = 12  # Equipment / Twist cards declared at once
MAX_NOTE = 200  # characters in a Location rule's note


def _whole(value: Any, what: str, low: int, high: int) -> int:
    """``value`` if it is an int from ``low`` to ``high``; else :class:`MalformedCommand` naming ``what``."""
    if not is_whole(value) or not low <= value <= high:
        raise MalformedCommand(f"{what} must be a whole number from {low} to {high}, not {value!r}")
    return value


def _text(value: Any, what: str) -> str:
    """``value`` stripped if it is a non-empty string of at most :data:`MAX_NAME` characters."""
    if not isinstance(value, str) or not value.strip() or len(value.strip()) > MAX_NAME:
        raise MalformedCommand(f"{what} must be a name of 1 to {MAX_NAME} characters, not {value!r}")
    return value.strip()


class _Script:
    """Events being decided, with the state they lead to (each event is folded as it is added)."""

    def __init__(self, rules: DeathShowTv, state: DeathShowState) -> None:
        self.rules, self.state = rules, state
        self.events: list[DeathShowEvent] = []

    def add(self, event: DeathShowEvent) -> None:
        self.events.append(event)
        self.state = self.rules.evolve(self.state, event)


class DeathShowTv:
    """The Death Show TV rules, registered as ``"death-show-tv"`` (:data:`INFO`); meets
    :class:`companion.game.Game`.

    Options (house rules, :meth:`check_options`; specs with their rulings in ``INFO.options``): ``vitality``
    (starting Vitality, default 4, When a Contestant Dies), ``roll_off`` (first player by a roll-off, default
    true, Starting the Game), ``location_rules`` (Location name → note of its optional special rule, Location
    Cards), ``starting_cards`` (Show cards dealt at the start, default 0, ruling R2), ``event_fumbles`` (an
    Event card's die fumbles on a 1, default true, R6), ``two_player_rule`` (``"start"``, ``"two_left"``
    or ``"off"``, R8) and ``multiple_combat_fumbles`` (``"instead_of_lowest"`` or ``"and_lowest"``, R5).
    """

    info: GameInfo = INFO
    events: EventCodec = CODEC
    #: Journal backups after these events (a death settles, a game ends).
    safe_point_events: frozenset[str] = frozenset({LocationRemoved.TYPE, GameOver.TYPE, GameEnded.TYPE})
    #: The state's meaning (raise it when the state means something new with the same fields).
    state_version: int = 0

    # -- set-up ---------------------------------------------------------------------------------------------
    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The options with defaults filled in from ``INFO.options`` (see the class docstring).

        Raises :class:`BadOption` for an unknown option, a value of the wrong kind, a Vitality outside 1-20,
        starting cards outside 0-7, a ``two_player_rule`` or ``multiple_combat_fumbles`` not among its choices,
        or a ``location_rules`` entry naming no Location or with an empty or over-long note.
        """
        specs = {spec.name: spec for spec in self.info.options}
        if not isinstance(options, Mapping):
            raise BadOption("options", f"must be a table of house rules, not {options!r}")
        for option in options:
            if option not in specs:
                raise BadOption(str(option), f"Death Show TV has no such option; known: {', '.join(specs)}")
        checked = {name: spec.default for name, spec in specs.items()} | dict(options)
        for name, spec in specs.items():
            value = checked[name]
            if spec.kind is bool and not isinstance(value, bool):
                raise BadOption(name, f"must be true or false, not {value!r}")
            if spec.choices and value not in spec.choices:
                raise BadOption(name, f"must be {' or '.join(repr(c) for c in spec.choices)}, not {value!r}")
        vitality = checked["vitality"]
        if not is_whole(vitality) or not 1 <= vitality <= 20:
            raise BadOption("vitality", f"must be a whole number of Vitality Points from 1 to 20, not {vitality!r}")
        dealt = checked["starting_cards"]
        if not is_whole(dealt) or not 0 <= dealt <= HAND_LIMIT:
            raise BadOption("starting_cards", f"must be a whole number from 0 to {HAND_LIMIT}, not {dealt!r}")
        notes = checked["location_rules"]
        if not isinstance(notes, Mapping):
            raise BadOption("location_rules", f"must map Location names to notes, not {notes!r}")
        for where, note in notes.items():
            if where not in LOCATIONS:
                raise BadOption(
                    "location_rules", f"no Location called {where!r}; the island has {', '.join(LOCATIONS)}"
                )
            if not isinstance(note, str) or not note.strip() or len(note) > MAX_NOTE:
                raise BadOption(
                    "location_rules", f"the note for {where} must be 1 to {MAX_NOTE} characters, not {note!r}"
                )
        checked["location_rules"] = {where: note.strip() for where, note in notes.items()}
        return checked

    def new_game(self, players: Sequence[PlayerSeat], options: Mapping[str, Any]) -> DeathShowState:
        """The initial state: every Contestant off the island with the starting Vitality (R1, R2), the nine
        Locations in printed order, Weapons of level 1 only, and the first-player roll-off pending.

        Raises :class:`IllegalCommand` for fewer than 2 or more than 8 Contestants (Components: 8 Contestant
        cards; the issue sets two as the least) and :class:`MalformedCommand` for empty or repeated names.
        """
        options = self.check_options(options)
        names = [seat.name for seat in players]
        if not self.info.min_players <= len(names) <= self.info.max_players:
            raise IllegalCommand(
                f"Death Show TV is for 2 to 8 Contestants, not {len(names)}", "Components: 8 Contestant cards"
            )
        if any(not isinstance(n, str) or not n.strip() for n in names) or len(set(names)) != len(names):
            raise MalformedCommand(f"Contestant names must be distinct and not empty: {names}")
        contestants = tuple(
            Contestant(seat.name, seat.colour, options["vitality"], None, options["starting_cards"]) for seat in players
        )
        locations = tuple(Location(name, False, options["location_rules"].get(name, "")) for name in LOCATIONS)
        settings = Settings(
            options["vitality"],
            options["event_fumbles"],
            options["two_player_rule"],
            options["multiple_combat_fumbles"],
        )
        dealt = options["starting_cards"] * len(contestants)
        state = DeathShowState(contestants, locations, settings, show_deck=SHOW_CARDS - dealt)
        if options["roll_off"]:
            return replace(state, roll_off=RollOff(tuple(names)))
        return replace(state, turn=names[0], phase="draw", turn_number=1)

    # -- decide -----------------------------------------------------------------------------------------------
    def decide(self, state: DeathShowState, command: Command) -> list[DeathShowEvent]:
        """The events ``command`` causes in ``state``.

        Raises :class:`GameFinished` once the game is over, :class:`MalformedCommand` (or
        :class:`DiceError`) for bad values or unknown names, :class:`IllegalCommand` citing the rule for a
        command the rules forbid now. A refusal changes nothing.
        """
        if state.finished:
            raise GameFinished(f"the game is over ({state.end_reason}); undo to reopen it", TABLE_RULE)
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
            ReshuffleDiscards: self._reshuffle,
            PlayOnAir: self._on_air,
            EndGame: self._end_game,
        }

    # guards
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
        waiting = busy(state)
        if waiting:
            raise waiting_refusal(state, f"{contestant.name} cannot {doing} now", waiting)
        if state.turn != contestant.name:
            raise IllegalCommand(f"it is {state.turn}'s turn, not {contestant.name}'s", R_PHASES)
        if state.phase != phase:
            raise IllegalCommand(
                f"{contestant.name} cannot {doing} in the {PHASE_NAMES[state.phase]}: {phase_hint(state)}",
                R_PHASES,
            )
        return contestant

    # draw, rule change
    def _draw(self, script: _Script, command: DrawCard) -> None:
        me = self._my_phase(script.state, command.player, "draw", "draw the turn's card")
        if self._draw_cards(script, me.name, 1, "draws a Show card", f"{R_PHASES} 1"):
            script.add(PhaseChanged("action", "Move, Hunt or Fight", f"{R_PHASES} 2"))
        else:  # ruling R20: nothing left to draw
            reason = "no Show card is left to draw (the deck and the discards are empty); Move, Hunt or Fight"
            script.add(PhaseChanged("action", reason, f"{R_PHASES} 2; {R_RUNNING_OUT}"))

    def _draw_cards(self, script: _Script, player: str, count: int, reason: str, rule: str) -> int:
        """``player`` draws up to ``count`` Show cards (one :class:`HandChanged`), the discards shuffled into
        a new deck first when the deck holds too few (Running Out of Show Cards); returns how many were
        drawn (fewer only when the deck and the discards together hold fewer, ruling R20)."""
        state = script.state
        count = min(count, state.drawable)
        if count and state.show_deck < count:
            script.add(ShowDeckReshuffled(player, state.discards, R_RUNNING_OUT))
        if count:
            held = script.state.contestant(player).cards
            script.add(HandChanged(player, count, held + count, reason, rule))
        return count

    def _reshuffle(self, script: _Script, command: ReshuffleDiscards) -> None:
        state = script.state
        me = self._alive(state, command.player)
        if state.phase == "setup":
            raise IllegalCommand("nobody draws before the first player is chosen", R_START)
        if state.show_deck:
            raise IllegalCommand(
                f"the Show deck still holds {cards(state.show_deck)}: reshuffle only when it runs out", R_RUNNING_OUT
            )
        if not state.discards:
            raise IllegalCommand("the discards are empty: there is nothing to shuffle", R_RUNNING_OUT)
        script.add(ShowDeckReshuffled(me.name, state.discards, R_RUNNING_OUT))

    def _on_air(self, script: _Script, command: PlayOnAir) -> None:
        state = script.state
        me = self._alive(state, command.player)
        card = _text(command.card, "the ON AIR card's name")
        if not isinstance(command.event, bool):
            raise MalformedCommand(f"event must be true or false, not {command.event!r}")
        target = command.in_front_of or me.name
        self._alive(state, target)
        if command.event:
            me = self._my_phase(state, me.name, "event", "play an Event")
            if state.events_played >= 1:
                raise IllegalCommand(f"{me.name} has already played an Event this phase: at most 1 Event", R_EVENT)
        elif state.phase == "setup":
            raise IllegalCommand("nobody plays cards before the first player is chosen", R_START)
        if me.cards < 1:
            raise IllegalCommand(f"{me.name} holds no cards, so has no ON AIR card to play", R_GENERIC)
        script.add(OnAirPlayed(me.name, card, target, command.event, R_GENERIC))

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
        script.add(WeaponLevelRaised(me.name, state.weapon_level + 1, "Types of Show Cards: Rule Change; Weapons"))
        if state.drawable:  # R16: the Rule Change card is discarded and a fresh card replaces it
            if not state.show_deck:
                script.add(ShowDeckReshuffled(me.name, state.discards, R_RUNNING_OUT))
            script.add(RuleChangeReplaced(me.name, R_RULE_CHANGE))
        elif me.cards:  # R20: nothing left to replace it
            reason = "discards the Rule Change card; no Show card is left to replace it"
            script.add(HandChanged(me.name, -1, me.cards - 1, reason, f"{R_RULE_CHANGE}; {R_RUNNING_OUT}"))

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
        script.add(Moved(me.name, me.location, location.name, "move", R_MOVE))
        script.add(PhaseChanged("event", "you may play 1 Event", f"{R_PHASES} 3"))

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
        script.add(HandChanged(me.name, -1, me.cards - 1, "plays a Trail to Hunt", R_HUNT))
        script.add(Moved(me.name, me.location, location.name, "hunt", R_HUNT))
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
        """Combat (Multiple Combat 1, ruling R22): the attacker (a Contestant, or the Event ``card`` with its
        fixed ``value``, rolled for by ``attacker``), then the defenders in turn order from the attacker's left."""
        state = script.state
        order = [n for n in state.left_of(attacker) if n in defenders]
        if attacker in defenders:
            order.append(attacker)
        first = StartingFighter(card, attacker, True, value) if card else StartingFighter(attacker, attacker)
        fighters = (first,) + tuple(StartingFighter(n, n) for n in order)
        rule = R_EVENT_COMBAT if card else (R_MULTIPLE if len(fighters) > 2 else R_COMBAT)
        script.add(CombatStarted(kind, location, card, fighters, rule))

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
        script.add(EventPlayed(me.name, card, command.combat_value, targets, R_EVENT))
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
            raise IllegalCommand(f"every fighter has shown their cards; {combat_prompt(state)}", R_COMBAT)
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
            FighterDeclared(
                me.name,
                weapon,
                bonus,
                level,
                tuple((p.label, p.value) for p in bonuses),
                dice,
                spent,
                f"{R_COMBAT} 1-2",
            )
        )

    def _adjust_bonus(self, script: _Script, command: AdjustBonus) -> None:
        fighter = self._declaring(script.state, command.fighter)
        delta = _whole(command.delta, "a bonus step", -5, 5)
        draft = fighter.draft + delta
        if delta == 0 or not -MAX_BONUS <= draft <= MAX_BONUS:
            raise MalformedCommand(f"the bonus entered stays from -{MAX_BONUS} to {MAX_BONUS} (now {fighter.draft})")
        held = script.state.contestant(fighter.name).cards
        if draft and held < 1:  # the bonus is a card shown (R3), as the touch dialog's
            raise IllegalCommand(
                f"{fighter.name} holds no cards, so has no Equipment or Unexpected Twist to show", f"{R_COMBAT} 1"
            )
        script.add(BonusDrafted(fighter.name, delta, draft, f"{R_COMBAT} 1; ruling R3"))

    def _confirm(self, script: _Script, command: Confirm) -> None:
        state = script.state
        me = self._alive(state, command.player)
        if state.combat is not None and state.combat.next_to_declare is not None:
            fighter = self._declaring(state, me.name)
            # the bonus entered is one card shown and spent (R3), exactly as the touch dialog declares it
            bonuses = (("Bonus cards", fighter.draft),) if fighter.draft else ()
            self._declare(script, DeclareFighter(fighter=me.name, bonuses=bonuses))
        elif state.phase == "draw" and state.turn == me.name and not busy(state):
            self._draw(script, DrawCard(player=me.name))
        elif state.phase == "event" and state.turn == me.name and not busy(state):
            self._end_turn_command(script, EndTurn(player=me.name))
        elif state.phase == "discard" and me.cards > HAND_LIMIT and not busy(state):
            self._discard(script, Discard(player=me.name, count=1))
        else:
            waiting = busy(state)
            rule = busy_rule(state) if waiting else R_PHASES
            raise waiting_refusal(state, f"nothing for {me.name} to confirm", waiting or phase_hint(state), rule)

    # dice
    def _dice(self, script: _Script, command: AnswerDice) -> None:
        state = script.state
        self._dead_first(state, command.roller)
        request = pending_dice(state)
        values = check_answer(request, command.roller, command.values, command.source)
        assert request is not None  # check_answer refuses an answer when no dice are asked for
        rolled = DiceRolled(command.roller, tuple(values), command.source, request.reason, request.rule, "")
        if state.roll_off is not None:
            self._roll_off_roll(script, state.roll_off, replace(rolled, purpose="first_player"), None)
        elif state.combat is not None:
            fighter = state.combat.next_to_roll
            assert fighter is not None  # the dice were asked for
            script.add(replace(rolled, purpose="combat", fighter=fighter.name))
            if script.state.combat is not None and script.state.combat.next_to_roll is None:
                self._resolve(script)
        else:
            death = state.deaths[0]
            assert death.roll_off is not None  # the dice were asked for
            self._roll_off_roll(script, death.roll_off, replace(rolled, purpose="killers"), death.dead)

    def _roll_off_roll(self, script: _Script, roll_off: RollOff, rolled: DiceRolled, dead: str | None) -> None:
        script.add(rolled)
        purpose = rolled.purpose
        settled = roll_off.with_roll(rolled.roller, sum(rolled.values)).leaders()
        if settled is None:
            return
        leaders, best = settled
        if len(leaders) > 1:
            script.add(RollOffTied(purpose, tuple(leaders), best, dead))
        elif purpose == "first_player":
            script.add(FirstPlayerChosen(leaders[0], best, R_START))
            script.add(TurnStarted(leaders[0], 1))
        else:
            death = script.state.deaths[0]
            script.add(KillerChosen(death.dead, leaders[0], best, death.cards, R_KILLED))
            self._settle(script)

    # resolution
    def _resolve(self, script: _Script) -> None:
        """How Combat Is Resolved 4-5, Multiple Combat 2, Fighting an Event, then deaths (R3-R12)."""
        state = script.state
        combat = state.combat
        assert combat is not None
        rolled = [f.rolled(state.fumble_faces(f)) for f in combat.fighters]
        result = resolve_rolled(rolled, state.settings.lowest_also)
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
            CombatResolved(
                combat.kind,
                combat.location,
                combat.card,
                tuple(
                    ResolvedFighter(
                        r.name, r.values, tuple((p.label, p.value) for p in r.parts), r.total, r.fumble, r.breakdown()
                    )
                    for r in rolled
                ),
                tuple(f.name for f in winners),
                tuple(f.name for f in losers),
                summary,
                rule,
            )
        )
        champions = [f.name for f in winners if not f.is_event]  # Contestant Winners
        hurt = [f.name for f in losers if not f.is_event]  # Contestant Losers
        for name in hurt:
            before = script.state.contestant(name).vitality
            script.add(VitalityChanged(name, -1, before - 1, "lost the Combat", f"{R_COMBAT} 4"))
        for fighter in winners:
            if fighter.unarmed:
                self._draw_cards(script, fighter.name, 1, "won Unarmed: draws a Show card", R_UNARMED)
        for name in hurt:
            loser = script.state.contestant(name)
            if not loser.alive or loser.cards == 0 or not champions:
                continue
            looter = next(n for n in state.left_of(name) if n in champions)  # R9: nearest Winner to the left
            script.add(CardsMoved(name, looter, 1, "Loot: a random card from the Loser's hand", R_LOOT))
        for name in hurt:
            if script.state.contestant(name).alive:
                continue
            if champions:
                remover = champions[0] if len(champions) == 1 else None
                held = script.state.contestant(name).cards
                self._died(script, ContestantDied(name, "combat", tuple(champions), remover, held, R_KILLED))
            else:  # only the Event card won (R10)
                held = script.state.contestant(name).cards
                self._died(script, ContestantDied(name, "other", (), combat.attacker.roller, held, R_OTHER_DEATH))
        self._check_end(script)
        self._settle(script)

    def _died(self, script: _Script, died: ContestantDied) -> None:
        """A death, then the end of the ON AIR cards the dead revealed: their turn never starts again (R21)."""
        script.add(died)
        self._end_on_air(script, died.player, f"{died.player} is out of the show")

    def _end_on_air(self, script: _Script, revealer: str, reason: str) -> None:
        ended = tuple(card.card for card in script.state.on_air if card.revealer == revealer)
        if ended:
            script.add(OnAirEnded(revealer, ended, reason, R_GENERIC))

    def _check_end(self, script: _Script) -> None:
        """Objective of the Game: the last Contestant standing wins; if the last die together, nobody does."""
        alive = script.state.alive
        if len(alive) == 1:
            reason = f"{alive[0].name} is the last Contestant standing and survives the show"
            script.add(GameOver(alive[0].name, reason, R_OBJECTIVE))
        elif not alive:
            reason = "the last Contestants died together: there is no winner (no glory for the dead)"
            script.add(GameOver(None, reason, R_OBJECTIVE))

    def _settle(self, script: _Script) -> None:
        """After a Combat or death: go on to the phase the action leads to, or end a dead player's turn (R11)."""
        state = script.state
        if state.finished or state.combat is not None or state.deaths or state.turn is None:
            return
        if not state.contestant(state.turn).alive:
            self._end_turn(script, f"{state.turn} died during their turn")
        elif state.resume_phase is not None:
            script.add(PhaseChanged(state.resume_phase, "you may play 1 Event", f"{R_PHASES} 3"))

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
                PhaseChanged("discard", f"{reason}; {', '.join(over)} must discard down to {HAND_LIMIT}", R_DISCARD)
            )
        else:
            self._next_turn(script)

    def _next_turn(self, script: _Script) -> None:
        """The next living Contestant to the left starts a turn (Phases of a Turn)."""
        state = script.state
        following = state.next_alive_after(state.turn) if state.turn is not None else None
        assert following is not None  # someone is alive while the game goes on
        script.add(TurnStarted(following, state.turn_number + 1))
        self._end_on_air(script, following, f"the start of {following}'s turn")

    def _discard(self, script: _Script, command: Discard) -> None:
        state = script.state
        me = self._alive(state, command.player)
        waiting = busy(state)
        if waiting:
            raise waiting_refusal(state, f"{me.name} cannot discard now", waiting)
        if state.phase != "discard":
            raise IllegalCommand(
                f"the Discard Phase comes after the Event Phase; it is the {PHASE_NAMES[state.phase]}", R_DISCARD
            )
        count = _whole(command.count, "the cards discarded", 1, SHOW_CARDS)
        if me.cards - count < HAND_LIMIT:
            raise IllegalCommand(f"{me.name} holds {cards(me.cards)} and discards only down to {HAND_LIMIT}", R_DISCARD)
        reason = f"discards down to the hand limit of {HAND_LIMIT}"
        script.add(HandChanged(me.name, -count, me.cards - count, reason, R_DISCARD))
        self._after_hand_change(script)

    def _after_hand_change(self, script: _Script) -> None:
        state = script.state
        if state.phase == "discard" and all(c.cards <= HAND_LIMIT for c in state.alive):
            self._next_turn(script)

    def _adjust_hand(self, script: _Script, command: AdjustHand) -> None:
        state = script.state
        me = self._alive(state, command.player)
        delta = _whole(command.delta, "a change of cards", -SHOW_CARDS, SHOW_CARDS)
        if delta == 0:
            raise MalformedCommand("a change of cards must not be 0")
        reason = _text(command.reason, "the reason") if command.reason else "corrected by hand"
        self._check_hand(me, delta)
        if delta > 0 and delta > state.drawable:
            raise IllegalCommand(
                f"only {cards(state.drawable)} can be drawn (the Show deck and the discards): not {delta}",
                R_RUNNING_OUT,
            )
        if delta > 0:
            self._draw_cards(script, me.name, delta, reason, "")
        else:
            script.add(HandChanged(me.name, delta, me.cards + delta, reason, ""))
        if not busy(script.state):
            self._after_hand_change(script)

    # vitality outside combat
    def _wound(self, script: _Script, command: Wound) -> None:
        state = script.state
        me = self._alive(state, command.player)
        if not isinstance(command.by, str):
            raise MalformedCommand(f"say who caused it by name, not {command.by!r}")
        by = state.contestant(command.by)
        if not by.alive:  # a dead Contestant plays no more cards, and could not choose the Location to remove
            raise IllegalCommand(f"{by.name} is dead (out of the game) and can cause no wound", R_SHRINKS)
        amount = _whole(command.amount, "the Vitality lost", 1, 20)
        reason = _text(command.reason, "the reason")
        waiting = busy(state)
        if waiting:
            raise waiting_refusal(state, "finish first", waiting)
        lost = min(amount, me.vitality)
        script.add(VitalityChanged(me.name, -lost, me.vitality - lost, f"{reason} (caused by {by.name})", ""))
        if me.vitality - lost == 0:
            self._died(script, ContestantDied(me.name, "other", (), by.name, me.cards, R_OTHER_DEATH))
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
        script.add(VitalityChanged(me.name, amount, me.vitality + amount, reason, ""))

    # death
    def _remove_location(self, script: _Script, command: RemoveLocation) -> None:
        state = script.state
        if not state.deaths:
            raise IllegalCommand("a Location is removed only when a Contestant dies", R_SHRINKS)
        death = state.deaths[0]
        if death.remover is None:
            raise IllegalCommand(death_prompt(state), R_KILLED)
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
        script.add(LocationRemoved(death.remover, location.name, death.dead, R_SHRINKS))
        self._settle(script)

    def _end_game(self, script: _Script, command: EndGame) -> None:
        script.add(GameEnded(end_reason(command)))

    # -- evolve -----------------------------------------------------------------------------------------------
    def evolve(self, state: DeathShowState, event: Event) -> DeathShowState:
        """Fold one event into the state (pure; the events were checked when decided), dispatched by the
        event's class. Raises ``ValueError`` for an event that is not Death Show TV's."""
        handler = _EVOLVE.get(type(event))
        if handler is None:
            raise ValueError(f"Death Show TV cannot apply an event of type {event.type!r}")
        return handler(state, event)

    def describe(self, event: Event) -> str:
        """One readable line per event for the history screen, e.g. ``"Kelpie loses 1 Vitality (now 3): lost
        the Combat (How Combat Is Resolved 4)"``."""
        if isinstance(event, DeathShowEvent):
            return event.describe()
        return f"{event.type} {dict(event.payload)}"

    # -- reading (the views are in view.py) -----------------------------------------------------------------
    def pending_dice(self, state: DeathShowState) -> DiceRequest | None:
        """The roll the game waits for (:func:`view.pending_dice`), or ``None``."""
        return pending_dice(state)

    def combat_odds(self, state: DeathShowState) -> tuple[tuple[str, Chances], ...] | None:
        """Each fighter's chances before the dice (:func:`view.combat_odds`)."""
        return view.combat_odds(state)

    def combat_odds_now(self, state: DeathShowState) -> tuple[tuple[str, Chances], ...] | None:
        """Each fighter's chances given the dice already in (:func:`view.combat_odds_now`)."""
        return view.combat_odds_now(state)

    def status(self, state: DeathShowState) -> str:
        """The status line (:func:`view.status`)."""
        return view.status(state)

    def public_view(self, state: DeathShowState) -> TableView:
        """What everyone at the table sees (:func:`view.public_view`)."""
        return view.public_view(state)

    def private_view(self, state: DeathShowState, seat: str) -> PrivateView:
        """What only ``seat`` may see: Death Show TV keeps nothing secret, so the Contestant's own figures
        (:func:`view.private_view`)."""
        return view.private_view(state, seat)

    def figures(self, state: DeathShowState) -> dict[str, dict[str, int | str]]:
        """Vitality, cards in hand, Location and Weapon level per Contestant (:func:`view.figures`)."""
        return view.figures(state)

    def outcome(self, state: DeathShowState) -> Outcome | None:
        """How the show came out, or ``None`` while it goes on (Objective of the Game): the last Contestant
        standing wins (:attr:`Termination.LAST_STANDING`); if the last die together nobody does
        (:attr:`Termination.ALL_LOST`); a game ended at the table is :attr:`Termination.ENDED_BY_HAND`."""
        if not state.finished:
            return None
        figures = self.figures(state)
        if state.winner is not None:
            reason = f"{state.end_reason} ({R_OBJECTIVE})"
            return Outcome(Termination.LAST_STANDING, (state.winner,), figures, reason, (state.winner,))
        if not state.alive:
            return Outcome(Termination.ALL_LOST, (), figures, f"{state.end_reason} ({R_OBJECTIVE})")
        return Outcome(Termination.ENDED_BY_HAND, (), figures, f"ended at the table{end_words(state.end_reason)}")

    # -- legal commands ---------------------------------------------------------------------------------------
    def check(self, state: DeathShowState, command: Command, label: str = "") -> LegalCommand:
        """Whether ``command`` may be made now, as a :class:`LegalCommand` (``enabled``, else the ``reason``
        and ``rule`` of the refusal :meth:`decide` would give; nothing changes). :meth:`legal_commands` is
        built from it, so the two never disagree; a dialog uses it to stay open with the reason."""
        kind = type(command).__name__
        try:
            self.decide(state, command)
        except CommandError as error:
            reason = error.reason if isinstance(error, IllegalCommand) else str(error)
            rule = (error.rule or "") if isinstance(error, IllegalCommand) else ""
            return LegalCommand(kind, label or kind, command, False, reason, rule)
        return LegalCommand(kind, label or kind, command)

    def _open(self, state: DeathShowState, label: str, *commands: Command) -> LegalCommand:
        """An entry whose arguments the player still chooses (``command`` is ``None``): enabled when one of
        the sample ``commands`` would be accepted, else with the first one's refusal."""
        checked = [self.check(state, command, label) for command in commands]
        chosen = next((entry for entry in checked if entry.enabled), checked[0])
        return replace(chosen, command=None)

    def legal_commands(self, state: DeathShowState, seat: str) -> tuple[LegalCommand, ...]:
        """What the Contestant ``seat`` may do now, and what the moment offers them but they may not do, with
        the refusal's reason and rule (each entry is checked by :meth:`check`).

        * the dice they owe (``RollDice``);
        * in a Combat, while it is their turn to show cards: ``DeclareFighter`` (``command`` ``None``: they
          choose the cards), ``"Unarmed, no cards"`` and ``AdjustBonus`` ±1 (How Combat Is Resolved 1-2);
        * after a death they caused: one ``RemoveLocation`` per Location (The Island Shrinks);
        * the phase's actions, disabled while a Combat or death is settled or when it is not their turn:
          ``DrawCard`` (Draw Phase); ``Fight`` and one ``Move`` and ``Hunt`` per Location, removed ones too
          (Action Phase); ``PlayEvent`` (``command`` ``None``) and ``EndTurn`` (Event Phase); ``Discard`` (Discard
          Phase, when they hold more than 7);
        * ``ReshuffleDiscards`` (enabled once the Show deck has run out) and ``PlayOnAir`` (``command``
          ``None``: an ON AIR card put face up, Show Cards: Generic Rules);
        * corrections for card effects the companion does not follow: ``NewWeaponLevel``, and ``AdjustHand``,
          ``Wound`` and ``Heal`` (``command`` ``None``).

        Empty once the game is over; a dead Contestant is offered only the removal of a Location after their
        own death (R18, R19). Raises :class:`MalformedCommand` for a seat that is no Contestant."""
        me = state.contestant(seat)
        if state.finished:
            return ()
        found: list[LegalCommand] = []
        if state.deaths and state.deaths[0].remover == seat:
            found += [
                self.check(state, RemoveLocation(player=seat, location=loc.name), f"Remove {loc.name}")
                for loc in state.locations
            ]
        if not me.alive:  # only removing a Location after their own death is theirs to do (R12, R18, R19)
            return tuple(found)
        request = pending_dice(state)
        if request is not None and request.roller == seat:
            found.append(self.check(state, AnswerDice(roller=seat, values=(1,) * request.count), "Roll"))
            found[-1] = replace(found[-1], kind="RollDice", command=RollDice(roller=seat))
        fighter = state.combat.fighter(seat) if state.combat is not None else None
        if fighter is not None and not fighter.declared:
            found.append(self._open(state, "Show cards…", DeclareFighter(fighter=seat)))
            found.append(self.check(state, DeclareFighter(fighter=seat), "Unarmed, no cards"))
            found.append(self.check(state, AdjustBonus(fighter=seat, delta=1), "Bonus +1"))
            found.append(self.check(state, AdjustBonus(fighter=seat, delta=-1), "Bonus -1"))
        if state.phase == "draw":
            found.append(self.check(state, DrawCard(player=seat), "Draw card"))
        elif state.phase == "action":
            found.append(self.check(state, Fight(player=seat), "Fight here"))
            for loc in state.locations:
                found.append(self.check(state, Move(player=seat, location=loc.name), f"Move to {loc.name}"))
                found.append(self.check(state, Hunt(player=seat, location=loc.name), f"Hunt on {loc.name}"))
        elif state.phase == "event":
            card = next(f"Event {i}" for i in range(len(state.names) + 1) if f"Event {i}" not in state.names)
            found.append(self._open(state, "Event…", PlayEvent(player=seat, card=card)))
            found.append(self.check(state, EndTurn(player=seat), "End turn"))
        elif state.phase == "discard" and me.cards > HAND_LIMIT:
            found.append(self.check(state, Discard(player=seat), f"{seat} −1"))
        found.append(self.check(state, ReshuffleDiscards(player=seat), "Reshuffle the discards"))
        on_air = [PlayOnAir(player=seat, card="ON AIR card")]
        if state.phase == "event":
            on_air.append(PlayOnAir(player=seat, card="ON AIR Event", event=True))
        found.append(self._open(state, "ON AIR card…", *on_air))
        found.append(self.check(state, NewWeaponLevel(player=seat), "New Weapon Level"))
        hand = (AdjustHand(player=seat, delta=1), AdjustHand(player=seat, delta=-1))
        found.append(self._open(state, "Cards ±", *hand))
        found.append(self._open(state, "Vitality −", Wound(player=seat, by=seat, reason="a card's effect")))
        found.append(self._open(state, "Vitality +", Heal(player=seat, reason="a card's effect")))
        return tuple(found)

    def button_command(self, action: str, player: str, source: str = "button") -> Command:
        """The seat buttons (``INFO.buttons``): ``on_the_air`` → :class:`AdjustBonus` +1 (enter a bonus while
        declaring), ``sponsor`` → :class:`Confirm`, ``roll`` → :class:`RollDice` for the pending request.
        Raises :class:`MalformedCommand` for another action."""
        if action == "on_the_air":
            return AdjustBonus(fighter=player, delta=1, source=source)
        if action == "sponsor":
            return Confirm(player=player, source=source)
        if action == "roll":
            return RollDice(roller=player, source=source)
        actions = ", ".join(button.action for button in self.info.buttons)
        raise MalformedCommand(f"Death Show TV has no button action {action!r}; actions: {actions}")


# -- evolve, one function per event class ---------------------------------------------------------------------
def _with(state: DeathShowState, name: str, **changes: Any) -> DeathShowState:
    return replace(state, contestants=tuple(replace(c, **changes) if c.name == name else c for c in state.contestants))


def _add_cards(state: DeathShowState, name: str, delta: int) -> DeathShowState:
    return _with(state, name, cards=state.contestant(name).cards + delta)


def _with_fighter(state: DeathShowState, name: str, **changes: Any) -> DeathShowState:
    combat = state.combat
    assert combat is not None
    fighters = tuple(replace(f, **changes) if f.name == name else f for f in combat.fighters)
    return replace(state, combat=replace(combat, fighters=fighters))


def _with_first_death(state: DeathShowState, **changes: Any) -> DeathShowState:
    return replace(state, deaths=(replace(state.deaths[0], **changes),) + state.deaths[1:])


def _dice_rolled(state: DeathShowState, e: DiceRolled) -> DeathShowState:
    if e.purpose == "combat":
        assert e.fighter is not None
        return _with_fighter(state, e.fighter, values=e.values)
    total = sum(e.values)
    if e.purpose == "first_player":
        assert state.roll_off is not None
        return replace(state, roll_off=state.roll_off.with_roll(e.roller, total))
    roll_off = state.deaths[0].roll_off
    assert roll_off is not None
    return _with_first_death(state, roll_off=roll_off.with_roll(e.roller, total))


def _roll_off_tied(state: DeathShowState, e: RollOffTied) -> DeathShowState:
    if e.purpose == "first_player":
        assert state.roll_off is not None
        return replace(state, roll_off=state.roll_off.reroll(e.players))
    roll_off = state.deaths[0].roll_off
    assert roll_off is not None
    return _with_first_death(state, roll_off=roll_off.reroll(e.players))


def _first_player(state: DeathShowState, e: FirstPlayerChosen) -> DeathShowState:
    return replace(state, roll_off=None)


def _turn_started(state: DeathShowState, e: TurnStarted) -> DeathShowState:
    return replace(state, turn=e.player, turn_number=e.turn_number, phase="draw", events_played=0, resume_phase=None)


def _phase_changed(state: DeathShowState, e: PhaseChanged) -> DeathShowState:
    return replace(state, phase=e.phase, resume_phase=None)


def _hand_changed(state: DeathShowState, e: HandChanged) -> DeathShowState:
    """More cards are drawn from the Show deck; fewer are played or discarded, to the discards."""
    state = _cards_out(state, e.delta) if e.delta > 0 else replace(state, discards=state.discards - e.delta)
    return _with(state, e.player, cards=e.cards)


def _cards_out(state: DeathShowState, drawn: int) -> DeathShowState:
    return replace(state, show_deck=state.show_deck - drawn)


def _cards_moved(state: DeathShowState, e: CardsMoved) -> DeathShowState:
    return _add_cards(_add_cards(state, e.from_, -e.count), e.to, e.count)


def _weapon_level(state: DeathShowState, e: WeaponLevelRaised) -> DeathShowState:
    return replace(state, weapon_level=e.level)


def _moved(state: DeathShowState, e: Moved) -> DeathShowState:
    return _with(state, e.player, location=e.to)


def _event_played(state: DeathShowState, e: EventPlayed) -> DeathShowState:
    state = _add_cards(state, e.player, -1)  # to the discards (Fighting an Event: "discarded afterwards")
    return replace(state, events_played=state.events_played + 1, discards=state.discards + 1)


def _combat_started(state: DeathShowState, e: CombatStarted) -> DeathShowState:
    fighters = tuple(
        Fighter(f.name, f.roller, True, True, bonuses=(Part("Combat", f.value or 0),))
        if f.is_event
        else Fighter(f.name, f.roller)
        for f in e.fighters
    )
    resume = "event" if state.phase == "action" else state.resume_phase
    return replace(state, combat=Combat(e.kind, e.location, fighters, e.card), resume_phase=resume)


def _bonus_drafted(state: DeathShowState, e: BonusDrafted) -> DeathShowState:
    return _with_fighter(state, e.fighter, draft=e.draft)


def _declared(state: DeathShowState, e: FighterDeclared) -> DeathShowState:
    state = _with_fighter(
        state,
        e.fighter,
        declared=True,
        weapon=e.weapon,
        weapon_bonus=e.weapon_bonus,
        weapon_level=e.weapon_level,
        bonuses=tuple(Part(n, v) for n, v in e.bonuses),
        dice=e.dice,
        cards_spent=e.cards_spent,
        draft=0,
    )
    state = replace(state, discards=state.discards + e.cards_spent)  # R3
    return _add_cards(state, e.fighter, -e.cards_spent)


def _resolved(state: DeathShowState, e: CombatResolved) -> DeathShowState:
    report = CombatReport(
        tuple(f.line for f in e.fighters),
        e.winners,
        e.losers,
        e.summary,
        tuple(f.name for f in e.fighters),
        tuple(f.total for f in e.fighters),
        tuple(f.fumble for f in e.fighters),
    )
    return replace(state, combat=None, last_combat=report)


def _vitality(state: DeathShowState, e: VitalityChanged) -> DeathShowState:
    return _with(state, e.player, vitality=e.vitality)


def _died(state: DeathShowState, e: ContestantDied) -> DeathShowState:
    """The dead leave the island; their cards go to a single killer, to the roll-off, or to the discards."""
    state = _with(state, e.player, location=None, cards=0)
    roll_off = None
    if e.cause == "combat" and len(e.killers) == 1:
        state = _add_cards(state, e.killers[0], e.cards)
    elif e.cause == "combat":
        roll_off = RollOff(e.killers)
    else:  # Killing a Contestant by Other Means: "they discard all of their Show cards"
        state = replace(state, discards=state.discards + e.cards)
    return replace(state, deaths=state.deaths + (Death(e.player, e.cause, e.killers, e.remover, e.cards, roll_off),))


def _killer_chosen(state: DeathShowState, e: KillerChosen) -> DeathShowState:
    state = _with_first_death(state, remover=e.player, roll_off=None)
    return _add_cards(state, e.player, e.cards)


def _location_removed(state: DeathShowState, e: LocationRemoved) -> DeathShowState:
    return replace(
        state,
        deaths=state.deaths[1:],
        locations=tuple(replace(loc, removed=True) if loc.name == e.location else loc for loc in state.locations),
    )


def _game_over(state: DeathShowState, e: GameOver) -> DeathShowState:
    return replace(state, finished=True, winner=e.winner, end_reason=e.reason, deaths=(), combat=None)


def _game_ended(state: DeathShowState, e: GameEnded) -> DeathShowState:
    return replace(state, finished=True, end_reason=e.reason)


def _reshuffled(state: DeathShowState, e: ShowDeckReshuffled) -> DeathShowState:
    return replace(state, show_deck=state.show_deck + e.cards, discards=state.discards - e.cards)


def _rule_change_replaced(state: DeathShowState, e: RuleChangeReplaced) -> DeathShowState:
    return replace(state, show_deck=state.show_deck - 1, discards=state.discards + 1)


def _on_air_played(state: DeathShowState, e: OnAirPlayed) -> DeathShowState:
    state = replace(
        _add_cards(state, e.player, -1),
        on_air=state.on_air + (OnAir(e.card, e.player, e.in_front_of),),
    )
    return replace(state, events_played=state.events_played + 1) if e.event else state


def _on_air_ended(state: DeathShowState, e: OnAirEnded) -> DeathShowState:
    kept = tuple(card for card in state.on_air if card.revealer != e.player)
    return replace(state, on_air=kept, discards=state.discards + len(state.on_air) - len(kept))


#: How each event class folds into the state (the one dispatch of :meth:`DeathShowTv.evolve`).
_EVOLVE: dict[type[Event], Callable[[DeathShowState, Any], DeathShowState]] = {
    DiceRolled: _dice_rolled,
    RollOffTied: _roll_off_tied,
    FirstPlayerChosen: _first_player,
    TurnStarted: _turn_started,
    PhaseChanged: _phase_changed,
    HandChanged: _hand_changed,
    CardsMoved: _cards_moved,
    WeaponLevelRaised: _weapon_level,
    Moved: _moved,
    EventPlayed: _event_played,
    CombatStarted: _combat_started,
    BonusDrafted: _bonus_drafted,
    FighterDeclared: _declared,
    CombatResolved: _resolved,
    VitalityChanged: _vitality,
    ContestantDied: _died,
    KillerChosen: _killer_chosen,
    LocationRemoved: _location_removed,
    GameOver: _game_over,
    GameEnded: _game_ended,
    ShowDeckReshuffled: _reshuffled,
    RuleChangeReplaced: _rule_change_replaced,
    OnAirPlayed: _on_air_played,
    OnAirEnded: _on_air_ended,
}

DEATH_SHOW_TV = DeathShowTv()
