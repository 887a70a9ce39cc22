"""Death Show TV state: plain frozen dataclasses, folded from the events (:mod:`.events`) by
:meth:`DeathShowTv.evolve`.

Card identities are not tracked, only how many Show cards each Contestant holds (issue 4), how many lie
in the Show deck and in the discards, and which ON AIR cards lie face up in front of whom (issue 19).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.dice import RollOff  # noqa: F401  (part of this state's shape: first player, killers)
from companion.errors import MalformedCommand
from companion.games.death_show_tv.combat import FUMBLE_FACES, TWO_PLAYER_FUMBLE_FACES, FighterDice, Part, RolledFighter

#: The nine Location cards in the printed 3×3 order, row by row (Location Cards, the map image).
LOCATIONS = (
    "Forest of Screams",
    "Dense Forest",
    "Monkey Forest",
    "The Lighthouse",
    "The Bunker",
    "The Caves",
    "Bloody Beach",
    "Paradise Beach",
    "Turtle Beach",
)
HAND_LIMIT = 7  # Phases of a Turn 4
MAX_WEAPON_LEVEL = 3  # Types of Show Cards: Weapons ("There are 3 levels of Weapons")
SHOW_CARDS = 82  # Components: 82 Show cards (the most a hand could ever hold)
START_VITALITY = 4  # When a Contestant Dies: "Contestants start with 4 Vitality Points"

#: Phases of a turn (Phases of a Turn 1-4); ``setup`` is the first-player roll-off (Starting the Game).
PHASES = ("setup", "draw", "action", "event", "discard")
PHASE_NAMES = {
    "setup": "Starting the Game",
    "draw": "Draw Phase",
    "action": "Action Phase",
    "event": "Event Phase",
    "discard": "Discard Phase",
}


@dataclass(frozen=True)
class Contestant:
    """One player's Contestant: ``name``, ``colour``, ``vitality`` (Vitality Points, 0 = dead), the
    ``location`` it stands on (``None`` = not yet on the island, or dead) and ``cards`` (Show cards in hand)."""

    name: str
    colour: str
    vitality: int
    location: str | None = None
    cards: int = 0

    @property
    def alive(self) -> bool:
        """Still in the game (When a Contestant Dies: 0 Vitality is death)."""
        return self.vitality > 0


@dataclass(frozen=True)
class Location:
    """One Location card: ``name``, whether it has been ``removed`` (The Island Shrinks), and ``rule``: the
    user-written note of its optional special rule when that rule is switched on ("" = off)."""

    name: str
    removed: bool = False
    rule: str = ""


@dataclass(frozen=True)
class Fighter:
    """One side of a Combat.

    ``name`` is the Contestant, or the Event card (``is_event``); ``roller`` rolls its dice (the player who
    played the Event, Fighting an Event). ``declared``: its cards are shown (How Combat Is Resolved 1-2).
    ``weapon`` / ``weapon_bonus`` / ``weapon_level`` (Unarmed = +0 of level 1, note *), ``bonuses``
    (Equipment and Unexpected Twist cards, or an Event's fixed ``Combat`` value), ``dice`` (1, or 2 with
    some cards, note **), ``cards_spent`` (cards that left the hand), ``draft`` (a bonus entered with the
    seat's buttons before confirming) and the rolled ``values`` (``None`` until rolled).
    """

    name: str
    roller: str
    is_event: bool = False
    declared: bool = False
    weapon: str = "Unarmed"
    weapon_bonus: int = 0
    weapon_level: int = 1
    bonuses: tuple[Part, ...] = ()
    dice: int = 1
    cards_spent: int = 0
    draft: int = 0
    values: tuple[int, ...] | None = None

    @property
    def unarmed(self) -> bool:
        """Fights without a Weapon (How Combat Is Resolved, note *)."""
        return not self.is_event and self.weapon == "Unarmed"

    @property
    def parts(self) -> tuple[Part, ...]:
        """The named terms added to the dice: the Weapon (or Unarmed +0) then each bonus; an Event has only
        its fixed Combat value."""
        if self.is_event:
            return self.bonuses
        return (Part(self.weapon, self.weapon_bonus),) + self.bonuses

    @property
    def bonus(self) -> int:
        """The sum of :attr:`parts`."""
        return sum(part.value for part in self.parts)

    def dice_for_odds(self, fumble_faces: frozenset[int], given_roll: bool = False) -> FighterDice:
        """This fighter as :class:`FighterDice` for the odds: before any dice, or (``given_roll``) with
        the dice it has already rolled fixed."""
        return FighterDice(self.dice, self.bonus, fumble_faces, self.values if given_roll else None)

    def rolled(self, fumble_faces: frozenset[int]) -> RolledFighter:
        """This fighter's finished roll; raises ``ValueError`` before it has rolled."""
        if self.values is None:
            raise ValueError(f"{self.name} has not rolled")
        return RolledFighter(self.name, self.values, self.parts, fumble_faces)


@dataclass(frozen=True)
class Combat:
    """A Combat in progress: ``kind`` (``"hunt"``, ``"fight"`` or ``"event"``), the ``location`` (``None`` for
    an Event against a Contestant off the island), the ``fighters`` in declaring and rolling order (the
    attacker, then the defenders from the attacker's left, Multiple Combat 1), and the ``card`` played for
    an Event combat."""

    kind: str
    location: str | None
    fighters: tuple[Fighter, ...]
    card: str = ""

    @property
    def attacker(self) -> Fighter:
        """The first fighter (How Combat Is Resolved 1)."""
        return self.fighters[0]

    @property
    def next_to_declare(self) -> Fighter | None:
        """The first fighter whose cards are not shown yet, or ``None`` when all have declared."""
        return next((f for f in self.fighters if not f.declared), None)

    @property
    def next_to_roll(self) -> Fighter | None:
        """Once all have declared, the first fighter without dice (How Combat Is Resolved 3), else ``None``."""
        if self.next_to_declare is not None:
            return None
        return next((f for f in self.fighters if f.values is None), None)

    def fighter(self, name: str) -> Fighter | None:
        """The fighter called ``name``, or ``None``."""
        return next((f for f in self.fighters if f.name == name), None)


@dataclass(frozen=True)
class Death:
    """A death still being settled: the ``dead`` Contestant, the ``cause`` (``"combat"``: killed by the
    Winner(s) of a Combat; ``"other"``), the ``killers`` (Contestant Winners who took the last Vitality
    Point), the ``remover`` who must remove a Location (``None`` while several killers roll off for the
    cards), the ``roll_off`` between killers, and the ``cards`` the dead Contestant held."""

    dead: str
    cause: str
    killers: tuple[str, ...]
    remover: str | None
    cards: int
    roll_off: RollOff | None = None

    @property
    def cards_pending(self) -> int:
        """The dead Contestant's cards while several killers roll off for them (held by nobody yet)."""
        return self.cards if self.cause == "combat" and self.remover is None else 0


@dataclass(frozen=True)
class OnAir:
    """An ON AIR card face up on the table (Show Cards: Generic Rules): its ``card`` name, the ``revealer``
    who played it (its effect ends at the start of their turn) and ``in_front_of`` (the last player affected)."""

    card: str
    revealer: str
    in_front_of: str


@dataclass(frozen=True)
class CombatReport:
    """The last resolved Combat, for the result screen: ``lines`` (each total's breakdown, e.g. ``"Kelpie 7 =
    2 (die) + 3 Katana + 2 Ambush"``), the fighters' ``names``, ``totals`` and ``fumbles`` in the same
    order, the ``winners`` and ``losers``, and a one-line ``summary``."""

    lines: tuple[str, ...]
    winners: tuple[str, ...]
    losers: tuple[str, ...]
    summary: str
    names: tuple[str, ...] = ()
    totals: tuple[int, ...] = ()
    fumbles: tuple[bool, ...] = ()

    def terms(self, index: int) -> str:
        """The right-hand side of fighter ``index``'s breakdown, e.g. ``"2 (die) + 3 Katana + 2 Ambush"``."""
        line = self.lines[index][len(f"{self.names[index]} {self.totals[index]} = ") :]
        return line.split(": FUMBLE")[0]


@dataclass(frozen=True)
class Settings:
    """The game's set-up choices (see :meth:`DeathShowTv.check_options`): starting ``vitality``,
    ``event_fumbles`` (ruling R6), ``two_player_rule`` (``"start"``, ``"two_left"`` or ``"off"``, R8) and
    ``multiple_combat_fumbles`` (``"instead_of_lowest"`` or ``"and_lowest"``, R5)."""

    vitality: int = START_VITALITY
    event_fumbles: bool = True
    two_player_rule: str = "start"
    multiple_combat_fumbles: str = "instead_of_lowest"

    @property
    def lowest_also(self) -> bool:
        """R5's house-rule reading: in a Multiple Combat the lowest non-Fumbling totals lose beside the Fumblers."""
        return self.multiple_combat_fumbles == "and_lowest"


@dataclass(frozen=True)
class DeathShowState:
    """A whole Death Show TV game.

    ``contestants`` in seat order (play passes to the left = the next seat); ``locations`` in printed order;
    ``weapon_level`` usable now (1-3); ``roll_off`` for the first player; ``turn`` (whose turn) and
    ``phase`` (one of :data:`PHASES`); ``events_played`` this Event Phase; ``resume_phase`` (the phase to go
    to when the current Combat and its deaths are settled); ``combat`` in progress; ``last_combat`` report;
    ``deaths`` still being settled (oldest first); ``finished``, ``winner`` and ``end_reason``; the Show
    cards outside the hands: ``show_deck`` (face down), ``discards`` and the ``on_air`` cards face up (Show
    Cards; Running Out of Show Cards). Every one of the 82 Show cards is in exactly one of these, a hand,
    or a dead Contestant's cards the killers roll off for (:attr:`card_total`).
    """

    contestants: tuple[Contestant, ...]
    locations: tuple[Location, ...]
    settings: Settings
    weapon_level: int = 1
    roll_off: RollOff | None = None
    turn: str | None = None
    phase: str = "setup"
    turn_number: int = 0
    events_played: int = 0
    resume_phase: str | None = None
    combat: Combat | None = None
    last_combat: CombatReport | None = None
    deaths: tuple[Death, ...] = ()
    finished: bool = False
    winner: str | None = None
    end_reason: str = ""
    show_deck: int = SHOW_CARDS
    discards: int = 0
    on_air: tuple[OnAir, ...] = ()

    @property
    def card_total(self) -> int:
        """Show cards accounted for: the deck, the discards, the ON AIR cards, the hands and the cards of a
        dead Contestant the killers roll off for; always 82 (Components) in a game started with deck
        tracking."""
        held = sum(c.cards for c in self.contestants) + sum(d.cards_pending for d in self.deaths)
        return self.show_deck + self.discards + len(self.on_air) + held

    @property
    def drawable(self) -> int:
        """Cards that can still be drawn: the Show deck, then the discards reshuffled (Running Out of Show Cards)."""
        return self.show_deck + self.discards

    @property
    def names(self) -> tuple[str, ...]:
        """Contestant names in seat order."""
        return tuple(c.name for c in self.contestants)

    @property
    def alive(self) -> tuple[Contestant, ...]:
        """The Contestants still in the game, in seat order."""
        return tuple(c for c in self.contestants if c.alive)

    def contestant(self, name: str) -> Contestant:
        """The Contestant called ``name``; raises :class:`MalformedCommand` naming the Contestants."""
        for contestant in self.contestants:
            if contestant.name == name:
                return contestant
        raise MalformedCommand(f"unknown Contestant {name!r}; Contestants are {', '.join(self.names)}")

    def location(self, name: str) -> Location:
        """The Location called ``name``; raises :class:`MalformedCommand` listing the nine."""
        for location in self.locations:
            if location.name == name:
                return location
        raise MalformedCommand(f"no Location called {name!r}; the island has {', '.join(LOCATIONS)}")

    def occupants(self, location: str) -> tuple[str, ...]:
        """The living Contestants standing on ``location``, in seat order."""
        return tuple(c.name for c in self.contestants if c.alive and c.location == location)

    def left_of(self, name: str) -> tuple[str, ...]:
        """Every other seat, starting with the one to the left of ``name`` (the next seat) and going round."""
        names = self.names
        i = names.index(name)
        return names[i + 1 :] + names[:i]

    def next_alive_after(self, name: str) -> str | None:
        """The first living Contestant to the left of ``name`` (whose turn comes next), or ``None``."""
        return next((n for n in self.left_of(name) if self.contestant(n).alive), None)

    def fumble_faces(self, fighter: Fighter) -> frozenset[int]:
        """The die faces that are a Fumble for ``fighter`` now: 1 (How Combat Is Resolved 4), or 1 and 2
        for a Contestant with more Vitality than the rival under the two-player rule (Two-Player Games;
        rulings R6, R8). An Event card never has Vitality, so at most a 1; with ``event_fumbles`` off,
        none."""
        if fighter.is_event:
            return FUMBLE_FACES if self.settings.event_fumbles else frozenset()
        if self.two_player_rule_applies:
            me = self.contestant(fighter.name)
            rival = next(c for c in self.alive if c.name != me.name)
            if me.vitality > rival.vitality:
                return TWO_PLAYER_FUMBLE_FACES
        return FUMBLE_FACES

    @property
    def two_player_rule_applies(self) -> bool:
        """Whether Two-Player Games applies now: in a game started with two Contestants (``"start"``), or,
        as a house rule, whenever exactly two are left (``"two_left"``); never with ``"off"``."""
        rule = self.settings.two_player_rule
        if rule == "off" or len(self.alive) != 2:
            return False
        return rule == "two_left" or len(self.contestants) == 2
