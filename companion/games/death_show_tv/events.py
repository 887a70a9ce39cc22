"""Death Show TV events: one frozen dataclass per journal event type (:class:`companion.events.Event`).

Each class's ``TYPE`` is the journal type name and its fields are the journal payload's keys, exactly as the
code before typed events wrote them, so every recorded journal still decodes: a field whose key is a Python
keyword is renamed through :attr:`companion.events.Event.KEYS` (``from_`` is stored as ``"from"``); the fighters of
:class:`CombatStarted` and :class:`CombatResolved` are nested frozen dataclasses stored as JSON objects.
``describe()`` gives the history screen's line. Rule names are the sections of ``rules/death-show-tv.txt``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from companion.events import Event, EventCodec
from companion.games.death_show_tv.state import PHASE_NAMES
from companion.words import count, noun, verb


def cards(n: int) -> str:
    """``"1 card"``, ``"0 cards"``, ``"3 cards"``: a count of Show cards with the right plural."""
    return count(n, "card")


@dataclass(frozen=True)
class DeathShowEvent(Event):
    """The base of Death Show TV's events (a field whose journal key differs is in ``KEYS``, as for every
    event)."""

    def describe(self) -> str:
        """One readable line for the history screen and ``companion replay``."""
        raise NotImplementedError

    def _rule(self) -> str:
        rule = getattr(self, "rule", "")
        return f" ({rule})" if rule else ""


@dataclass(frozen=True)
class DiceRolled(DeathShowEvent):
    """A roll answered: the ``roller``, the die ``values``, their ``source`` (``"built-in"``, ``"manual"``,
    ``"reader"``), the request's ``reason`` and ``rule``, the ``purpose`` (``"first_player"``, ``"combat"``,
    ``"killers"``) and, for Combat dice, the ``fighter`` they are for (absent from the payload otherwise)."""

    TYPE: ClassVar[str] = "dice_rolled"
    roller: str
    values: tuple[int, ...]
    source: str
    reason: str
    rule: str
    purpose: str
    fighter: str | None = None

    def to_payload(self) -> dict[str, Any]:
        payload = super().to_payload()
        if payload["fighter"] is None:
            del payload["fighter"]
        return payload

    def describe(self) -> str:
        shown = "+".join(map(str, self.values)) + (f" = {sum(self.values)}" if len(self.values) > 1 else "")
        return f"{self.roller} rolled {shown} ({self.source}) for {self.reason}{self._rule()}"


@dataclass(frozen=True)
class RollOffTied(DeathShowEvent):
    """The highest rollers of a roll-off (``purpose`` as in :class:`DiceRolled`) tied on ``total``: those
    ``players`` roll again; ``dead`` is the Contestant whose cards the killers roll for (``None`` for the first
    player)."""

    TYPE: ClassVar[str] = "roll_off_tied"
    purpose: str
    players: tuple[str, ...]
    total: int
    dead: str | None = None

    def describe(self) -> str:
        return f"{' and '.join(self.players)} tied on {self.total}: they roll again"


@dataclass(frozen=True)
class FirstPlayerChosen(DeathShowEvent):
    """``player`` rolled the highest ``total`` and goes first (Starting the Game)."""

    TYPE: ClassVar[str] = "first_player_chosen"
    player: str
    total: int
    rule: str = ""

    def describe(self) -> str:
        return f"{self.player} rolled highest ({self.total}) and goes first{self._rule()}"


@dataclass(frozen=True)
class TurnStarted(DeathShowEvent):
    """``player``'s turn number ``turn_number`` begins with the Draw Phase (Phases of a Turn 1)."""

    TYPE: ClassVar[str] = "turn_started"
    player: str
    turn_number: int

    def describe(self) -> str:
        return f"Turn {self.turn_number}: {self.player}'s turn begins (Draw Phase)"


@dataclass(frozen=True)
class PhaseChanged(DeathShowEvent):
    """The turn goes on to ``phase`` (one of ``state.PHASES``), with the ``reason`` and ``rule``."""

    TYPE: ClassVar[str] = "phase_changed"
    phase: str
    reason: str
    rule: str = ""

    def describe(self) -> str:
        return f"{PHASE_NAMES[self.phase]}: {self.reason}{self._rule()}"


@dataclass(frozen=True)
class HandChanged(DeathShowEvent):
    """``player``'s hand changed by ``delta`` Show cards to ``cards``, with the ``reason`` and ``rule``."""

    TYPE: ClassVar[str] = "hand_changed"
    player: str
    delta: int
    cards: int
    reason: str
    rule: str = ""

    def describe(self) -> str:
        change = f"{self.delta:+d} {noun(abs(self.delta), 'card')}"
        return f"{self.player} {change} (now {self.cards}): {self.reason}{self._rule()}"


@dataclass(frozen=True)
class CardsMoved(DeathShowEvent):
    """``count`` cards go from ``from_`` (journal key ``"from"``) to ``to``: Loot (How Combat Is Resolved 5)."""

    TYPE: ClassVar[str] = "cards_moved"
    KEYS: ClassVar[Mapping[str, str]] = {"from_": "from"}
    from_: str
    to: str
    count: int
    reason: str
    rule: str = ""

    def describe(self) -> str:
        return f"{self.to} takes {cards(self.count)} from {self.from_}: {self.reason}{self._rule()}"


@dataclass(frozen=True)
class WeaponLevelRaised(DeathShowEvent):
    """``player`` drew New Weapon Level Activated: Weapons up to ``level`` may be used (Types of Show Cards)."""

    TYPE: ClassVar[str] = "weapon_level_raised"
    player: str
    level: int
    rule: str = ""

    def describe(self) -> str:
        return (
            f"{self.player} drew New Weapon Level Activated: Weapons up to level {self.level} may be used{self._rule()}"
        )


@dataclass(frozen=True)
class Moved(DeathShowEvent):
    """``player`` went from ``from_`` (journal key ``"from"``; ``None`` = off the island) to ``to``, by the
    ``action`` ``"move"`` or ``"hunt"`` (Phases of a Turn 2)."""

    TYPE: ClassVar[str] = "moved"
    KEYS: ClassVar[Mapping[str, str]] = {"from_": "from"}
    player: str
    from_: str | None
    to: str
    action: str
    rule: str = ""

    def describe(self) -> str:
        how = "hunts, moving" if self.action == "hunt" else "moves"
        return f"{self.player} {how} from {self.from_ or 'off the island'} to {self.to}{self._rule()}"


@dataclass(frozen=True)
class EventPlayed(DeathShowEvent):
    """``player`` played the Event ``card`` (one card leaves the hand; Phases of a Turn 3); with a
    ``combat_value`` it attacks the ``targets`` (Fighting an Event)."""

    TYPE: ClassVar[str] = "event_played"
    player: str
    card: str
    combat_value: int | None
    targets: tuple[str, ...]
    rule: str = ""

    def describe(self) -> str:
        attack = (
            f", Combat {self.combat_value:+d} against {', '.join(self.targets)}"
            if self.combat_value is not None
            else ""
        )
        return f"{self.player} plays the Event {self.card}{attack}{self._rule()}"


@dataclass(frozen=True)
class StartingFighter:
    """One side of a Combat as it starts: ``name`` (a Contestant, or the Event card when ``is_event``), who
    rolls for it (``roller``) and an Event's fixed Combat ``value`` (``None`` for a Contestant)."""

    name: str
    roller: str
    is_event: bool = False
    value: int | None = None


@dataclass(frozen=True)
class CombatStarted(DeathShowEvent):
    """A Combat of ``kind`` ``"hunt"``, ``"fight"`` or ``"event"`` on ``location`` (``None`` for an Event
    against a Contestant off the island), for the Event ``card`` (``""`` otherwise), between the ``fighters``
    in declaring order (Multiple Combat 1)."""

    TYPE: ClassVar[str] = "combat_started"
    kind: str
    location: str | None
    card: str
    fighters: tuple[StartingFighter, ...]
    rule: str = ""

    def to_payload(self) -> dict[str, Any]:
        payload = super().to_payload()
        payload["fighters"] = [dataclasses.asdict(f) for f in self.fighters]
        return payload

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Self:
        event = super().from_payload(payload)
        fighters = tuple(f if isinstance(f, StartingFighter) else StartingFighter(**f) for f in event.fighters)
        return dataclasses.replace(event, fighters=fighters)

    def describe(self) -> str:
        names = [f.name for f in self.fighters]
        where = f" on {self.location}" if self.location else ""
        return f"Combat{where}: {names[0]} attacks {', '.join(names[1:])}{self._rule()}"


@dataclass(frozen=True)
class BonusDrafted(DeathShowEvent):
    """``fighter`` changed the bonus being entered on the seat buttons by ``delta`` to ``draft`` (the card shown
    for it, ruling R3: ``rule``; journals before it was recorded have ``""``)."""

    TYPE: ClassVar[str] = "bonus_drafted"
    fighter: str
    delta: int
    draft: int
    rule: str = ""

    def to_payload(self) -> dict[str, Any]:
        payload = super().to_payload()
        if not payload["rule"]:  # as written before the rule was recorded: an old row writes back the same
            del payload["rule"]
        return payload

    def describe(self) -> str:
        return f"{self.fighter} enters a bonus of {self.draft:+d}{self._rule()}"


@dataclass(frozen=True)
class FighterDeclared(DeathShowEvent):
    """``fighter`` showed their cards (How Combat Is Resolved 1-2): the ``weapon`` with its ``weapon_bonus``
    and ``weapon_level``, the ``bonuses`` as (name, value) pairs, the number of ``dice`` (1 or 2) and how many
    cards left the hand (``cards_spent``)."""

    TYPE: ClassVar[str] = "fighter_declared"
    fighter: str
    weapon: str
    weapon_bonus: int
    weapon_level: int
    bonuses: tuple[tuple[str, int], ...]
    dice: int
    cards_spent: int
    rule: str = ""

    def describe(self) -> str:
        weapon = (
            "Unarmed" if self.weapon == "Unarmed" else f"{self.weapon} +{self.weapon_bonus} (level {self.weapon_level})"
        )
        extras = "".join(f", {name} {value:+d}" for name, value in self.bonuses)
        dice = ", two dice" if self.dice == 2 else ""
        return f"{self.fighter} fights with {weapon}{extras}{dice}{self._rule()}"


@dataclass(frozen=True)
class ResolvedFighter:
    """One fighter's finished roll in :class:`CombatResolved`: ``name``, die ``values``, the bonus ``parts``
    as (label, value) pairs, the ``total``, whether it was a ``fumble``, and the breakdown ``line``."""

    name: str
    values: tuple[int, ...]
    parts: tuple[tuple[str, int], ...]
    total: int
    fumble: bool
    line: str


@dataclass(frozen=True)
class CombatResolved(DeathShowEvent):
    """The Combat (``kind``, ``location``, ``card`` as in :class:`CombatStarted`) is resolved: each of the
    ``fighters``' rolls, the ``winners`` and ``losers`` by name and a one-line ``summary`` (How Combat Is
    Resolved 4, Multiple Combat 2)."""

    TYPE: ClassVar[str] = "combat_resolved"
    kind: str
    location: str | None
    card: str
    fighters: tuple[ResolvedFighter, ...]
    winners: tuple[str, ...]
    losers: tuple[str, ...]
    summary: str
    rule: str = ""

    def to_payload(self) -> dict[str, Any]:
        payload = super().to_payload()
        payload["fighters"] = [
            {**dataclasses.asdict(f), "values": list(f.values), "parts": [list(p) for p in f.parts]}
            for f in self.fighters
        ]
        return payload

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Self:
        event = super().from_payload(payload)
        fighters = tuple(
            f
            if isinstance(f, ResolvedFighter)
            else ResolvedFighter(
                f["name"],
                tuple(f["values"]),
                tuple((label, value) for label, value in f["parts"]),
                f["total"],
                f["fumble"],
                f["line"],
            )
            for f in event.fighters
        )
        return dataclasses.replace(event, fighters=fighters)

    def describe(self) -> str:
        return "; ".join(f.line for f in self.fighters) + f": {self.summary}{self._rule()}"


@dataclass(frozen=True)
class VitalityChanged(DeathShowEvent):
    """``player``'s Vitality changed by ``delta`` to ``vitality``, with the ``reason`` and ``rule``."""

    TYPE: ClassVar[str] = "vitality_changed"
    player: str
    delta: int
    vitality: int
    reason: str
    rule: str = ""

    def describe(self) -> str:
        how = "loses" if self.delta < 0 else "gains"
        return f"{self.player} {how} {abs(self.delta)} Vitality (now {self.vitality}): {self.reason}{self._rule()}"


@dataclass(frozen=True)
class ContestantDied(DeathShowEvent):
    """``player`` died (When a Contestant Dies) by ``cause`` ``"combat"`` (killed by the ``killers``) or
    ``"other"``; the ``remover`` removes a Location (``None`` while several killers roll off), and the
    ``cards`` they held go to the killer, the roll-off winner, or the discards."""

    TYPE: ClassVar[str] = "contestant_died"
    player: str
    cause: str
    killers: tuple[str, ...]
    remover: str | None
    cards: int
    rule: str = ""

    def describe(self) -> str:
        if self.cause == "combat" and len(self.killers) == 1:
            fate = f"{self.killers[0]} killed them and keeps their {cards(self.cards)}"
        elif self.cause == "combat":
            fate = f"killed by {' and '.join(self.killers)}, who roll off for their {cards(self.cards)}"
        elif self.cards:
            fate = f"their {cards(self.cards)} {'is' if self.cards == 1 else 'are'} discarded"
        else:
            fate = "they held no cards"
        return f"{self.player} dies and is out of the show: {fate}{self._rule()}"


@dataclass(frozen=True)
class KillerChosen(DeathShowEvent):
    """Of several killers, ``player`` rolled the highest ``total`` and keeps the ``dead`` Contestant's
    ``cards`` (Killing a Contestant in Combat)."""

    TYPE: ClassVar[str] = "killer_chosen"
    dead: str
    player: str
    total: int
    cards: int
    rule: str = ""

    def describe(self) -> str:
        return f"{self.player} rolled highest ({self.total}) and keeps {self.dead}'s {cards(self.cards)}{self._rule()}"


@dataclass(frozen=True)
class LocationRemoved(DeathShowEvent):
    """``player`` removed ``location`` after ``dead``'s death (The Island Shrinks)."""

    TYPE: ClassVar[str] = "location_removed"
    player: str
    location: str
    dead: str
    rule: str = ""

    def describe(self) -> str:
        return f"{self.player} removes {self.location} from the island after {self.dead}'s death{self._rule()}"


@dataclass(frozen=True)
class GameOver(DeathShowEvent):
    """The show is over (Objective of the Game): the last Contestant standing is the ``winner``, or nobody
    (``None``) when the last died together; ``reason`` in words."""

    TYPE: ClassVar[str] = "game_over"
    winner: str | None
    reason: str
    rule: str = ""

    def describe(self) -> str:
        return f"The show is over: {self.reason}{self._rule()}"


@dataclass(frozen=True)
class GameEnded(DeathShowEvent):
    """The table ended the game by hand (End game), for ``reason``."""

    TYPE: ClassVar[str] = "game_ended"
    reason: str

    def describe(self) -> str:
        return f"Game ended: {self.reason}"


@dataclass(frozen=True)
class ShowDeckReshuffled(DeathShowEvent):
    """The Show deck ran out: the ``cards`` in the discards are shuffled into a new deck (Running Out of Show
    Cards), because ``player`` said so or because a card had to be drawn (``player`` draws it)."""

    TYPE: ClassVar[str] = "show_deck_reshuffled"
    player: str
    cards: int
    rule: str = ""

    def describe(self) -> str:
        return f"The Show deck ran out: the {cards(self.cards)} discarded are shuffled into a new deck{self._rule()}"


@dataclass(frozen=True)
class RuleChangeReplaced(DeathShowEvent):
    """``player``'s Rule Change card, played as it was drawn, goes to the discards and a fresh card from the
    Show deck replaces it (Types of Show Cards: Rule Change; ruling R16): the hand count stays."""

    TYPE: ClassVar[str] = "rule_change_replaced"
    player: str
    rule: str = ""

    def describe(self) -> str:
        return f"{self.player} discards the Rule Change card and draws a new Show card{self._rule()}"


@dataclass(frozen=True)
class OnAirPlayed(DeathShowEvent):
    """``player`` played the ON AIR card ``card`` (one card leaves the hand): it lies face up in front of
    ``in_front_of`` (the last player affected) until the start of ``player``'s next turn (Show Cards:
    Generic Rules); ``event``: it is the Event of ``player``'s Event Phase (Phases of a Turn 3)."""

    TYPE: ClassVar[str] = "on_air_played"
    player: str
    card: str
    in_front_of: str
    event: bool = False
    rule: str = ""

    def describe(self) -> str:
        kind = "the ON AIR Event" if self.event else "the ON AIR card"
        return (
            f"{self.player} plays {kind} {self.card}, face up in front of {self.in_front_of} until "
            f"{self.player}'s next turn{self._rule()}"
        )


@dataclass(frozen=True)
class OnAirEnded(DeathShowEvent):
    """The ON AIR ``cards`` that ``player`` revealed end and are discarded, for the ``reason`` (the start of
    ``player``'s turn, Show Cards: Generic Rules; or ``player``'s death, ruling R21)."""

    TYPE: ClassVar[str] = "on_air_ended"
    player: str
    cards: tuple[str, ...]
    reason: str
    rule: str = ""

    def describe(self) -> str:
        n = len(self.cards)
        ends = f"{verb(n, 'ends', 'end')} and {verb(n, 'is', 'are')} discarded"
        return f"{', '.join(self.cards)} ({self.player}'s ON AIR) {ends}: {self.reason}{self._rule()}"


#: Every Death Show TV event class, in the order the rules introduce them.
EVENT_CLASSES: tuple[type[DeathShowEvent], ...] = (
    DiceRolled,
    RollOffTied,
    FirstPlayerChosen,
    TurnStarted,
    PhaseChanged,
    HandChanged,
    CardsMoved,
    WeaponLevelRaised,
    Moved,
    EventPlayed,
    CombatStarted,
    BonusDrafted,
    FighterDeclared,
    CombatResolved,
    VitalityChanged,
    ContestantDied,
    KillerChosen,
    LocationRemoved,
    GameOver,
    GameEnded,
    ShowDeckReshuffled,
    RuleChangeReplaced,
    OnAirPlayed,
    OnAirEnded,
)

#: Decodes Death Show TV's journal rows (type, payload) into these events.
CODEC = EventCodec(EVENT_CLASSES)
