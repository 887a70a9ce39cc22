"""TV Wars holdings: the Program and Bonus tiles each network owns, the supply they come from, and the
events that move them (rule numbers from ``rules/tv-wars.txt``).

Pure data and pure functions; no I/O. A tile's secret figures (a program's Rating Points or Special-ness
and name, a bonus tile's value and name; 9.1) live in the state because the engine needs them, but never
appear in :func:`public_tile_text` or in the history lines (:func:`describe_holdings_event`); only
:func:`private_view_of` shows them, for the owner's own panel.

Tiles
-----
* :class:`ProgramTile` (3): ``id``, ``length`` in half-hours (1-4), ``colour`` (``green`` Situation
  Comedy, ``red`` Action/Adventure, ``blue`` Drama, ``yellow`` Other; ``None`` for Super Bowl and
  Preemption), ``rating`` (10-90 RP, ``None`` for a Special/Super Bowl/Preemption, 100 for a movie),
  ``name`` (optional) and ``kind``: ``"program"``, ``"special"`` (3.3), ``"movie"`` (Academy Award Movie,
  3.2), ``"super_bowl"`` (9.8) or ``"preemption"`` (9.9, 9.91: "can be stolen just like any other
  programming", earns no Sponsor fee 9.4). :meth:`ProgramTile.to_program` gives the
  :class:`~companion.games.tv_wars.ratings_war.Program` the Ratings War resolver uses (not for the
  Preemption tile, which sits on ``LineUp.preemption``).
* :class:`BonusTile` (5): ``id``, ``kind`` one of ``star``/``emmy``/``critics_choice``/``viewers_views``,
  ``value`` in RP, optional ``name``; :meth:`BonusTile.to_bonus` gives the resolver's ``Bonus``.
  Best Network News (6.3) is not a held tile here: ``TvWarsState.best_network_news`` names its holder.
* :class:`Holdings`: one network's ``programs`` and ``bonuses`` (tuples, in the order acquired) and
  ``tracked`` (``False`` while the network's programming is still a hand-kept count of half-hours,
  before its 2.3 starting selection is entered).
* :class:`Supply`: what has entered play so far, checked against the Inventory (:data:`PROGRAM_INVENTORY`,
  ``ratings_war.INVENTORY``) whenever a tile comes into play.

Tile ids are assigned by the engine when a tile enters play: ``"P<n>"`` conventional programs and
Specials, ``"M<n>"`` movies, ``"S<n>"`` Stars, ``"E<n>"`` Emmys, ``"CC<n>"``, ``"VV<n>"``, and the unique
``"SUPER_BOWL"`` and ``"PREEMPTION"`` (see :func:`next_tile_id`). Ids never repeat within a game.

Events (type: payload; all JSON-able; tile dicts as :meth:`ProgramTile.to_dict`/:meth:`BonusTile.to_dict`)
------------------------------------------------------------------------------------------------------
* ``program_acquired``: ``{"network", "tile": {...}, "reason", "rule"}``: a Program tile enters play
  into ``network``'s holdings (starting selection 2.3, auction 4, movie 3.2, Super Bowl 9.8, Preemption
  9.9). Counts against the Inventory (:class:`Supply`).
* ``program_moved``: ``{"from", "to", "tile_id", "reason", "rule"}``: a tile changes hands (Steal a
  Program 9.2; Preemption taken by the Best Network News holder 9.9; Super Bowl won at auction after a
  war 9.8 when it stays in play).
* ``program_lost``: ``{"network", "tile_id", "reason", "rule", "destination"}``: a tile leaves the
  network. ``destination`` is ``"out of play"`` (cancelled 6.8, sold to the bank 7, a played movie 3.21,
  the Super Bowl 9.8 after its war) or ``"back in play"`` (the Preemption tile after a war, 9.91).
* ``bonus_acquired``: ``{"network", "tile": {...}, "reason", "rule"}``: a Bonus tile comes to the
  network (Star auction 5.1, Emmy 5.2, Critics' Choice/Viewers' Views draw 5.3).
* ``bonus_moved``: ``{"from", "to", "tile_id", "reason", "rule"}``: Steal a Star (9.3).
* ``bonus_returned``: ``{"network", "tile_id", "reason", "rule", "destination"}``: a Bonus tile leaves
  the network: ``"Star pile"`` (5.11), ``"Emmy Awards pile"`` (5.21) or ``"out of play"`` (5.31).
* ``network_out``: ``{"network", "reason", "rule"}``: the network has no programming and is out (3,
  9.8, 9.91); its Stars go back to the pile by separate ``bonus_returned`` events first.

:func:`apply_holdings_event` folds these into ``(networks, supply)``; the rules engine's ``evolve`` calls it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from companion.errors import IllegalCommand, MalformedCommand
from companion.games.tv_wars.events import (
    BonusAcquired,
    BonusMoved,
    BonusReturned,
    NetworkOut,
    ProgramAcquired,
    ProgramLost,
    ProgramMoved,
)
from companion.games.tv_wars.ratings_war import (
    BONUS_LABELS,
    CRITICS_CHOICE,
    EMMY,
    INVENTORY,
    MOVIE_LENGTH,
    MOVIE_RATING,
    STAR,
    SUPER_BOWL_LENGTH,
    VIEWERS_VIEWS,
    Bonus,
    Program,
)
from companion.words import with_article

PROGRAM_ACQUIRED = ProgramAcquired.TYPE
PROGRAM_MOVED = ProgramMoved.TYPE
PROGRAM_LOST = ProgramLost.TYPE
BONUS_ACQUIRED = BonusAcquired.TYPE
BONUS_MOVED = BonusMoved.TYPE
BONUS_RETURNED = BonusReturned.TYPE
NETWORK_OUT = NetworkOut.TYPE
#: The holdings events (3, 5, 9.1): tiles gained, moved and lost, a network out.
HOLDINGS_EVENT_CLASSES = (
    ProgramAcquired,
    ProgramMoved,
    ProgramLost,
    BonusAcquired,
    BonusMoved,
    BonusReturned,
    NetworkOut,
)
HoldingsEvent = ProgramAcquired | ProgramMoved | ProgramLost | BonusAcquired | BonusMoved | BonusReturned | NetworkOut
HOLDINGS_EVENTS = tuple(cls.TYPE for cls in HOLDINGS_EVENT_CLASSES)

PROGRAM, SPECIAL, MOVIE, SUPER_BOWL, PREEMPTION = "program", "special", "movie", "super_bowl", "preemption"
PROGRAM_KINDS = (PROGRAM, SPECIAL, MOVIE, SUPER_BOWL, PREEMPTION)
PREEMPTION_LENGTH = 2  # half-hours: "any one-hour time slot" (9.91)

#: Conventional Program tiles (Specials included) by length in half-hours (Inventory: 60×30, 30×60,
#: 12×90, 12×120 minutes). Academy Award Movies are counted apart (8).
PROGRAM_INVENTORY = {1: 60, 2: 30, 3: 12, 4: 12}
MINUTES = {1: "30-minute", 2: "60-minute", 3: "90-minute", 4: "120-minute"}
#: Short type words for the shared screen.
TYPE_WORDS = {"green": "Situation Comedy", "red": "Action/Adventure", "blue": "Drama", "yellow": "Other"}
ID_PREFIXES = {PROGRAM: "P", SPECIAL: "P", MOVIE: "M", STAR: "S", EMMY: "E", CRITICS_CHOICE: "CC", VIEWERS_VIEWS: "VV"}


@dataclass(frozen=True)
class ProgramTile:
    """A Program tile a network owns (3). Shapes as in the module docstring; lengths in half-hours,
    ratings in Rating Points. Raises :class:`MalformedCommand` for a tile that cannot exist (checked
    through :meth:`to_program`, which applies the resolver's checks of rule 3, 3.2, 3.3, 9.8)."""

    id: str
    length: int
    colour: str | None
    rating: int | None = None
    name: str = ""
    kind: str = PROGRAM

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not self.id:
            raise MalformedCommand(f"a tile id is text, not {self.id!r}")
        if not isinstance(self.name, str):  # a program's title, shown to its owner (3)
            raise MalformedCommand(f"a tile's name is text, not {self.name!r}")
        if self.kind not in PROGRAM_KINDS:
            raise MalformedCommand(f"a Program tile is one of {', '.join(PROGRAM_KINDS)}, not {self.kind!r}")
        if self.kind == PREEMPTION:
            if self.length != PREEMPTION_LENGTH or self.colour is not None or self.rating is not None:
                raise MalformedCommand("the Preemption tile covers one hour and has no colour or rating (TV Wars 9.91)")
            return
        self.to_program()

    def to_program(self) -> Program:
        """The resolver's :class:`Program` for this tile; raises :class:`IllegalCommand` (9.91) for the
        Preemption tile, which is placed on ``LineUp.preemption`` instead."""
        if self.kind == PREEMPTION:
            raise IllegalCommand(
                "the Preemption tile is placed over an hour after the reveal, not as a program", "TV Wars 9.91"
            )
        if self.kind == SUPER_BOWL:
            return Program.super_bowl_tile()
        if self.kind == MOVIE:
            return Program(self.length, self.colour, self.rating, self.name, academy_award_movie=True)
        return Program(self.length, self.colour, self.rating, self.name, special=self.kind == SPECIAL)

    @property
    def sponsor_half_hours(self) -> int:
        """Half-hours this tile earns at Sponsor: its length, or 0 for the Preemption tile (9.4)."""
        return 0 if self.kind == PREEMPTION else self.length

    @property
    def public_text(self) -> str:
        """What everyone may know (9.1: length and type, never the rating or name):
        ``"60-minute Drama"``, ``"Academy Award Movie"``, ``"Super Bowl"``, ``"Preemption"``."""
        if self.kind == MOVIE:
            return "Academy Award Movie"
        if self.kind == SUPER_BOWL:
            return "Super Bowl"
        if self.kind == PREEMPTION:
            return "Preemption"
        return f"{MINUTES[self.length]} {self.type_word}"

    @property
    def type_word(self) -> str:
        """The type of a conventional program or Special on the shared screen (``"Drama"``, 9.1)."""
        assert self.colour is not None, f"{self.id}: a {self.kind} tile has a colour (checked when made, TV Wars 3)"
        return TYPE_WORDS[self.colour]

    @property
    def private_text(self) -> str:
        """The owner's view: ``"P7 60-minute Drama, 70 RP"``, ``"P9 30-minute Other, Special"``,
        ``"... DIE-NASTY"`` when named."""
        secret = {
            SPECIAL: "Special (10 × 2 dice)",
            MOVIE: f"{MOVIE_RATING} RP",
            SUPER_BOWL: "wins 8:00-9:00",
            PREEMPTION: "voids one hour",
        }.get(self.kind, f"{self.rating} RP")
        name = f" {self.name}" if self.name else ""
        return f"{self.id}{name}: {self.public_text}, {secret}"

    def to_dict(self) -> dict:
        """JSON-able payload form (round-trips through :meth:`from_dict`)."""
        return {
            "id": self.id,
            "length": self.length,
            "colour": self.colour,
            "rating": self.rating,
            "name": self.name,
            "kind": self.kind,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ProgramTile:
        """Rebuild from :meth:`to_dict`; raises :class:`MalformedCommand` for a bad tile."""
        return cls(
            data["id"],
            data["length"],
            data.get("colour"),
            data.get("rating"),
            data.get("name", ""),
            data.get("kind", PROGRAM),
        )

    @classmethod
    def movie(cls, tile_id: str, name: str = "", colour: str = "yellow") -> ProgramTile:
        """An Academy Award Movie: 100 RP, 120 minutes (3.2, 7's example)."""
        return cls(tile_id, MOVIE_LENGTH, colour, MOVIE_RATING, name, MOVIE)

    @classmethod
    def super_bowl(cls) -> ProgramTile:
        """The Super Bowl tile (9.8)."""
        return cls("SUPER_BOWL", SUPER_BOWL_LENGTH, None, None, "SUPER BOWL", SUPER_BOWL)

    @classmethod
    def preemption(cls) -> ProgramTile:
        """The Preemption tile (9.9, 9.91)."""
        return cls("PREEMPTION", PREEMPTION_LENGTH, None, None, "PREEMPTION", PREEMPTION)


@dataclass(frozen=True)
class BonusTile:
    """A Bonus tile a network owns (5): ``id``, ``kind`` (``star`` 10/20/30, ``emmy`` 50,
    ``critics_choice`` -36..+36, ``viewers_views`` -28..+29 Rating Points), ``value`` in RP, ``name``
    optional (a Star's name). Raises :class:`MalformedCommand` for a tile that cannot exist (5.1-5.3)."""

    id: str
    kind: str
    value: int
    name: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not self.id:
            raise MalformedCommand(f"a tile id is text, not {self.id!r}")
        if not isinstance(self.name, str):  # a Star's name, shown to its owner (5.1)
            raise MalformedCommand(f"a tile's name is text, not {self.name!r}")
        self.to_bonus()

    def to_bonus(self) -> Bonus:
        """The resolver's :class:`Bonus` for this tile."""
        return Bonus(self.kind, self.value, self.name)

    @property
    def label(self) -> str:
        """``"Star"``, ``"Emmy"``, ``"Critics' Choice"``, ``"Viewers' Views"``."""
        return BONUS_LABELS[self.kind]

    @property
    def private_text(self) -> str:
        """The owner's view: ``"S3 Star 30 (Flirt Reynolds)"``, ``"CC1 Critics' Choice -31"``."""
        return f"{self.id} {self.to_bonus().describe()}"

    def to_dict(self) -> dict:
        """JSON-able payload form (round-trips through :meth:`from_dict`)."""
        return {"id": self.id, "kind": self.kind, "value": self.value, "name": self.name}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BonusTile:
        """Rebuild from :meth:`to_dict`; raises :class:`MalformedCommand` for a bad tile."""
        return cls(data["id"], data["kind"], data["value"], data.get("name", ""))


@dataclass(frozen=True)
class Holdings:
    """One network's tiles: ``programs`` and ``bonuses`` in the order acquired; ``tracked`` is ``False``
    while its programming is a hand-kept half-hour count (before its 2.3 selection is entered)."""

    programs: tuple[ProgramTile, ...] = ()
    bonuses: tuple[BonusTile, ...] = ()
    tracked: bool = False

    @property
    def half_hours(self) -> int:
        """Half-hours of programming owned that Sponsor pays for (9.4: not the Preemption tile)."""
        return sum(tile.sponsor_half_hours for tile in self.programs)

    def program(self, tile_id: str) -> ProgramTile:
        """The held program ``tile_id``; raises :class:`MalformedCommand` naming the held ids."""
        for tile in self.programs:
            if tile.id == tile_id:
                return tile
        raise MalformedCommand(
            f"no Program tile {tile_id!r} here; held: {', '.join(t.id for t in self.programs) or 'none'}"
        )

    def bonus(self, tile_id: str) -> BonusTile:
        """The held bonus tile ``tile_id``; raises :class:`MalformedCommand` naming the held ids."""
        for tile in self.bonuses:
            if tile.id == tile_id:
                return tile
        raise MalformedCommand(
            f"no Bonus tile {tile_id!r} here; held: {', '.join(t.id for t in self.bonuses) or 'none'}"
        )

    def with_program(self, tile: ProgramTile) -> Holdings:
        """These holdings plus ``tile``."""
        return replace(self, programs=self.programs + (tile,))

    def without_program(self, tile_id: str) -> Holdings:
        """These holdings less program ``tile_id``."""
        return replace(self, programs=tuple(t for t in self.programs if t.id != tile_id))

    def with_bonus(self, tile: BonusTile) -> Holdings:
        """These holdings plus ``tile``."""
        return replace(self, bonuses=self.bonuses + (tile,))

    def without_bonus(self, tile_id: str) -> Holdings:
        """These holdings less bonus tile ``tile_id``."""
        return replace(self, bonuses=tuple(t for t in self.bonuses if t.id != tile_id))

    def count(self, kind: str) -> int:
        """How many bonus tiles of ``kind`` (``"star"`` …) are held."""
        return sum(1 for t in self.bonuses if t.kind == kind)

    def programming_by_type(self) -> dict[str, int]:
        """Public (9.1): half-hours held per type word (``"Drama": 6``), plus ``"Academy Award Movie"``,
        ``"Super Bowl"``, ``"Preemption"`` when held; types with none are left out."""
        totals: Counter = Counter()
        for tile in self.programs:
            key = tile.type_word if tile.kind in (PROGRAM, SPECIAL) else tile.public_text
            totals[key] += tile.length
        return dict(totals)

    def bonus_counts(self) -> dict[str, int]:
        """Public (9.1): bonus tiles held by label (``"Star": 2``); kinds with none are left out."""
        return dict(Counter(tile.label for tile in self.bonuses))


@dataclass(frozen=True)
class Supply:
    """What has entered play, for the Inventory limits: ``programs_entered`` per length in half-hours
    (conventional and Special tiles ever dealt or sold, 3.11: cancelled and sold ones never come back),
    ``movies_sold`` (3.22), ``critics_choice_drawn`` and ``viewers_views_drawn`` (5.32; played ones leave
    play, 5.31), ``next_number`` for tile ids. Stars and Emmys return to their piles (5.11, 5.21), so
    their limit is on how many are owned at once (5.12, 5.22)."""

    programs_entered: tuple[tuple[int, int], ...] = ((1, 0), (2, 0), (3, 0), (4, 0))
    movies_sold: int = 0
    critics_choice_drawn: int = 0
    viewers_views_drawn: int = 0
    next_number: int = 1

    def entered(self, length: int) -> int:
        """Conventional Program tiles of ``length`` half-hours that have entered play."""
        return dict(self.programs_entered).get(length, 0)

    def programs_left(self, length: int) -> int:
        """Conventional Program tiles of ``length`` still available for nomination (Inventory, 3.11)."""
        return PROGRAM_INVENTORY[length] - self.entered(length)

    @property
    def conventional_left(self) -> int:
        """Conventional Program tiles of any length still available (3.11: none left ends the game)."""
        return sum(self.programs_left(length) for length in PROGRAM_INVENTORY)

    @property
    def movies_left(self) -> int:
        """Academy Award Movies not yet sold (3.2, 3.22)."""
        return INVENTORY["Academy Award Movie"] - self.movies_sold

    @property
    def critics_choice_left(self) -> int:
        """Critics' Choice tiles still in the pile (5.32)."""
        return INVENTORY["Critics' Choice"] - self.critics_choice_drawn

    @property
    def viewers_views_left(self) -> int:
        """Viewers' Views tiles still in the pile (5.32)."""
        return INVENTORY["Viewers' Views"] - self.viewers_views_drawn


def next_tile_id(supply: Supply, kind: str) -> str:
    """The id the next tile of ``kind`` (a program or bonus kind) gets: ``"P12"``, ``"S13"``…; the
    Super Bowl and Preemption tiles have fixed ids."""
    if kind == SUPER_BOWL:
        return "SUPER_BOWL"
    if kind == PREEMPTION:
        return "PREEMPTION"
    return f"{ID_PREFIXES[kind]}{supply.next_number}"


def check_program_supply(
    supply: Supply, networks_holdings: Mapping[str, Holdings], tile: ProgramTile, count: int = 1
) -> None:
    """Raise :class:`IllegalCommand` citing the Inventory (or 3.11/3.22/9.8/9.9) if ``count`` more tiles
    like ``tile`` cannot come into play."""
    if tile.kind in (PROGRAM, SPECIAL):
        left = supply.programs_left(tile.length)
        if left < count:
            raise IllegalCommand(
                f"no {MINUTES[tile.length]} Program tiles are left (all "
                f"{PROGRAM_INVENTORY[tile.length]} have entered play)",
                "TV Wars Inventory, 3.11",
            )
    elif tile.kind == MOVIE:
        if supply.movies_left < count:
            raise IllegalCommand("all eight Academy Award Movies have been purchased", "TV Wars 3.22, Inventory")
    else:
        held = any(t.id == tile.id for h in networks_holdings.values() for t in h.programs)
        if held:
            raise IllegalCommand(
                f"there is only one {tile.public_text} tile and it is already owned", "TV Wars Inventory"
            )


def check_bonus_supply(supply: Supply, networks_holdings: Mapping[str, Holdings], kind: str) -> None:
    """Raise :class:`IllegalCommand` citing the void rule if no more bonus tiles of ``kind`` can come into
    play: all 9 Stars owned (5.12), all 5 Emmys owned (5.22), the Critics' Choice or Viewers' Views pile
    empty (5.32)."""
    owned = sum(h.count(kind) for h in networks_holdings.values())
    if kind == STAR and owned >= INVENTORY["Star"]:
        raise IllegalCommand("all nine Stars are owned", "TV Wars 5.12")
    if kind == EMMY and owned >= INVENTORY["Emmy"]:
        raise IllegalCommand("all five Emmy Award tiles are owned", "TV Wars 5.22")
    if kind == CRITICS_CHOICE and supply.critics_choice_left <= 0:
        raise IllegalCommand("no Critics' Choice tiles are left to draw", "TV Wars 5.32")
    if kind == VIEWERS_VIEWS and supply.viewers_views_left <= 0:
        raise IllegalCommand("no Viewers' Views tiles are left to draw", "TV Wars 5.32")


# -- events -----------------------------------------------------------------------------------------------


def _take_number(supply: Supply, tile_id: str) -> Supply:
    digits = "".join(ch for ch in tile_id if ch.isdigit())
    if digits and tile_id.rstrip("0123456789") in ID_PREFIXES.values():
        return replace(supply, next_number=max(supply.next_number, int(digits) + 1))
    return supply


def apply_holdings_event(
    networks: Mapping[str, Holdings], supply: Supply, event: HoldingsEvent
) -> tuple[dict[str, Holdings], Supply]:
    """Fold one holdings event (see the module docstring) into ``networks`` (name → :class:`Holdings`)
    and ``supply``; returns new ones (pure). Raises ``ValueError`` for another event and
    :class:`MalformedCommand` for an event naming a tile that is not there."""
    holdings = dict(networks)
    if isinstance(event, ProgramAcquired):
        tile = ProgramTile.from_dict(event.tile)
        holdings[event.network] = holdings[event.network].with_program(tile)
        if tile.kind in (PROGRAM, SPECIAL):
            entered = dict(supply.programs_entered)
            entered[tile.length] += 1
            supply = replace(supply, programs_entered=tuple(sorted(entered.items())))
        elif tile.kind == MOVIE:
            supply = replace(supply, movies_sold=supply.movies_sold + 1)
        return holdings, _take_number(supply, tile.id)
    if isinstance(event, ProgramMoved):
        tile = holdings[event.from_].program(event.tile_id)
        holdings[event.from_] = holdings[event.from_].without_program(tile.id)
        holdings[event.to] = holdings[event.to].with_program(tile)
        return holdings, supply
    if isinstance(event, ProgramLost):
        holdings[event.network].program(event.tile_id)
        holdings[event.network] = holdings[event.network].without_program(event.tile_id)
        return holdings, supply
    if isinstance(event, BonusAcquired):
        bonus = BonusTile.from_dict(event.tile)
        holdings[event.network] = holdings[event.network].with_bonus(bonus)
        if bonus.kind == CRITICS_CHOICE:
            supply = replace(supply, critics_choice_drawn=supply.critics_choice_drawn + 1)
        elif bonus.kind == VIEWERS_VIEWS:
            supply = replace(supply, viewers_views_drawn=supply.viewers_views_drawn + 1)
        return holdings, _take_number(supply, bonus.id)
    if isinstance(event, BonusMoved):
        bonus = holdings[event.from_].bonus(event.tile_id)
        holdings[event.from_] = holdings[event.from_].without_bonus(bonus.id)
        holdings[event.to] = holdings[event.to].with_bonus(bonus)
        return holdings, supply
    if isinstance(event, BonusReturned):
        holdings[event.network].bonus(event.tile_id)
        holdings[event.network] = holdings[event.network].without_bonus(event.tile_id)
        return holdings, supply
    if isinstance(event, NetworkOut):
        return holdings, supply
    raise ValueError(f"not a holdings event: {event!r}")


def out_events(
    network: str, holdings: Holdings, lost: set[str] | frozenset[str], reason: str, rule: str
) -> list[BonusReturned | NetworkOut]:
    """The events of ``network`` going out of the game with ``holdings`` (3: no programming left, by a
    Ratings War, bankruptcy 7 or Steal a Program 9.2): its Bonus tiles not already in ``lost`` return first,
    Stars to the bottom of the Star pile (5.11), Emmys to the Emmy Awards pile (5.21, so 5.22 counts them
    right), Critics' Choice and Viewers' Views out of play (5.31; see docs/rulings.md); then
    ``network_out`` with ``reason`` and ``rule``."""
    events: list[BonusReturned | NetworkOut] = []
    for tile in holdings.bonuses:
        if tile.id in lost:
            continue
        destination, why, tile_rule = {
            STAR: ("Star pile", "a network without programming returns its Stars", "TV Wars 5.11"),
            EMMY: (
                "Emmy Awards pile",
                "a network out of the game returns its Emmys (see docs/rulings.md)",
                "TV Wars 5.21, 5.22",
            ),
        }.get(
            tile.kind,
            (
                "out of play",
                "a network out of the game plays no more Critics' Choice/Viewers' Views (see docs/rulings.md)",
                "TV Wars 5.31",
            ),
        )
        events.append(
            BonusReturned.from_payload(
                {"network": network, "tile_id": tile.id, "reason": why, "rule": tile_rule, "destination": destination},
            )
        )
    events.append(NetworkOut.from_payload({"network": network, "reason": reason, "rule": rule}))
    return events


def program_acquired(network: str, tile: ProgramTile, reason: str, rule: str) -> ProgramAcquired:
    """The ``program_acquired`` event."""
    return ProgramAcquired(network, tile.to_dict(), reason, rule)


def bonus_acquired(network: str, tile: BonusTile, reason: str, rule: str) -> BonusAcquired:
    """The ``bonus_acquired`` event."""
    return BonusAcquired(network, tile.to_dict(), reason, rule)


def describe_holdings_event(event: HoldingsEvent) -> str:
    """One public line (9.1: no rating, no name, no bonus value), e.g. ``"ABS gets a 60-minute Drama
    (P7): won at auction (TV Wars 4)"`` or ``"NBS draws a Critics' Choice tile (CC3) (TV Wars 5.3)"``."""
    rule = f" ({event.rule})" if event.rule else ""
    reason = f": {event.reason}" if event.reason and not isinstance(event, NetworkOut) else ""
    if isinstance(event, ProgramAcquired):
        tile = ProgramTile.from_dict(event.tile)
        return f"{event.network} gets {with_article(tile.public_text)} ({tile.id}){reason}{rule}"
    if isinstance(event, ProgramMoved):
        return f"{event.from_} gives Program tile {event.tile_id} to {event.to}{reason}{rule}"
    if isinstance(event, ProgramLost):
        return f"{event.network} loses Program tile {event.tile_id} ({event.destination}){reason}{rule}"
    if isinstance(event, BonusAcquired):
        bonus = BonusTile.from_dict(event.tile)
        return f"{event.network} gets {with_article(bonus.label)} tile ({bonus.id}){reason}{rule}"
    if isinstance(event, BonusMoved):
        return f"{event.from_} gives bonus tile {event.tile_id} to {event.to}{reason}{rule}"
    if isinstance(event, BonusReturned):
        return (
            f"{event.network} returns bonus tile {event.tile_id} to the {event.destination}{reason}{rule}"
            if event.destination != "out of play"
            else f"{event.network}'s bonus tile {event.tile_id} leaves play{reason}{rule}"
        )
    if isinstance(event, NetworkOut):
        return f"{event.network} is out of the game: {event.reason} ({event.rule})"
    raise ValueError(f"not a holdings event: {event!r}")


@dataclass(frozen=True)
class HoldingsView:
    """One network's secret figures for its own panel only (9.1): ``programs`` and ``bonuses`` as lines
    (:attr:`ProgramTile.private_text`, :attr:`BonusTile.private_text`) and the raw tiles."""

    network: str
    programs: tuple[str, ...]
    bonuses: tuple[str, ...]
    program_tiles: tuple[ProgramTile, ...] = field(default=(), repr=False)
    bonus_tiles: tuple[BonusTile, ...] = field(default=(), repr=False)


def private_view_of(network: str, holdings: Holdings) -> HoldingsView:
    """The :class:`HoldingsView` of ``holdings`` (the engine's ``holdings_view(state, network)`` wraps it)."""
    return HoldingsView(
        network,
        tuple(t.private_text for t in holdings.programs),
        tuple(t.private_text for t in holdings.bonuses),
        holdings.programs,
        holdings.bonuses,
    )


__all__ = [
    "ProgramTile",
    "BonusTile",
    "Holdings",
    "Supply",
    "HoldingsView",
    "PROGRAM_ACQUIRED",
    "PROGRAM_MOVED",
    "PROGRAM_LOST",
    "BONUS_ACQUIRED",
    "BONUS_MOVED",
    "BONUS_RETURNED",
    "NETWORK_OUT",
    "HOLDINGS_EVENTS",
    "PROGRAM_INVENTORY",
    "apply_holdings_event",
    "describe_holdings_event",
    "check_program_supply",
    "check_bonus_supply",
    "next_tile_id",
    "private_view_of",
    "out_events",
    "program_acquired",
    "bonus_acquired",
]
