"""TV Wars Ratings War: line-ups, their legality, the half-hour by half-hour resolution, its aftermath,
and each program's exact chance of surviving.

Rule numbers are those of ``rules/tv-wars.txt``. Everything here is pure: frozen dataclasses and
functions, no I/O, no clock, no global random. Chance is supplied by the caller (as in OpenSpiel): the
resolver names each roll it needs with a key and a :class:`~companion.dice.DiceRequest`, and continues
when the caller supplies the values.

Units: ratings and bonuses are Rating Points (RP); lengths and time slots are half-hours, slot ``0`` is
8:00-8:30 and slot ``5`` is 10:30-11:00.

* Types: :class:`Program`, :class:`Bonus`, :class:`Placement` (a program on the card with its bonus
  tile), :class:`LineUp` (one network's Prime Time Line-Up card), :class:`HouseRules`, :class:`War`.
* Legality: :func:`check_lineup`, :func:`check_war` (6.1, 6.2, 3.23, 5.3, 9.8, 9.91, Inventory).
* Resolution: :func:`resolve_war` (one pass over the dice given so far; returns a :class:`Resolution`
  whose ``pending`` names the next missing roll) and :func:`play_out` (asks a callback for each roll).
* Aftermath: :func:`consequences` (6.2, 5.11, 5.21, 5.31, 3.21, 9.8, 9.91).
* Odds: :func:`survival_odds` (exact :class:`~fractions.Fraction` per program, before the dice; slot by
  slot, merging the branches that leave the same war to play).
* Rendering in the rulebook's words: :func:`render_resolution`, :func:`render_aftermath`,
  :func:`render_odds`; as data: :func:`resolution_to_dict`.

Dice keys (the names a caller supplies rolls under; the calculator's ``[dice]`` table uses them):

* ``"NBS special 9:30"``: the 2d6 for the value of NBS's Special that starts at 9:30 (3.3);
* ``"PBC tie 8:30 1"``: PBC's 2d6 in round 1 of the tie-breaks of the 8:30-9:00 slot (6.7). Rounds are
  numbered through the slot: a re-roll, or a second tie in the same slot, takes the next number.

Readings of unclear rules are in ``docs/rulings.md`` (section "TV Wars: Ratings War").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from itertools import product
from math import lcm
from typing import Any, NamedTuple

from companion.checks import is_whole
from companion.dice import DiceRequest
from companion.errors import BadOption, IllegalCommand, MalformedCommand
from companion.words import and_join, with_article

# -- constants ---------------------------------------------------------------------------------------

#: Half-hour slots on a Prime Time Line-Up card, 8:00 to 11:00 (6.1).
SLOTS = 6
SLOT_STARTS = ("8:00", "8:30", "9:00", "9:30", "10:00", "10:30", "11:00")

#: Program colours and the types they stand for (3).
COLOURS = {"green": "Situation Comedy", "red": "Action/Adventure", "blue": "Drama", "yellow": "Other"}

MOVIE_RATING = 100  # RP, 3.2
MOVIE_LENGTH = 4  # half-hours: 120 minutes (7, example: "10 x $500 x 4")
SUPER_BOWL_LENGTH = 2  # half-hours: 8:00-9:00 (9.8)
SPECIAL_PER_PIP = 10  # a Special is worth 10 × the roll of two dice (3.3)
NETWORK_NEWS_BONUS = 5  # 6.3
LEAD_IN_BONUS = 5  # 6.4
PROMOTION_BONUS = 10  # 6.6
COUNTER_PROGRAMMING = {2: -10, 3: -20}  # 6.5; four networks: HouseRules.counter_programming_four

STAR, EMMY, CRITICS_CHOICE, VIEWERS_VIEWS = "star", "emmy", "critics_choice", "viewers_views"
BONUS_KINDS = (STAR, EMMY, CRITICS_CHOICE, VIEWERS_VIEWS)
BONUS_LABELS = {STAR: "Star", EMMY: "Emmy", CRITICS_CHOICE: "Critics' Choice", VIEWERS_VIEWS: "Viewers' Views"}
BONUS_RULES = {STAR: "TV Wars 5.1", EMMY: "TV Wars 5.2", CRITICS_CHOICE: "TV Wars 5.3", VIEWERS_VIEWS: "TV Wars 5.3"}
STAR_VALUES = (10, 20, 30)  # 5.1
EMMY_VALUE = 50  # 5.2
CRITICS_CHOICE_RANGE = (-36, 36)  # 5.3
VIEWERS_VIEWS_RANGE = (-28, 29)  # 5.3

#: How many of each piece exist (Inventory); a war cannot hold more.
INVENTORY = {
    "Academy Award Movie": 8,
    "Star": 9,
    "Emmy": 5,
    "Critics' Choice": 10,
    "Viewers' Views": 15,
    "Super Bowl": 1,
    "Best Network News": 1,
    "Preemption": 1,
}

#: The sums of two dice and how many of the 36 throws give each.
TWO_DICE = {total: 6 - abs(7 - total) for total in range(2, 13)}


def slot_label(slot: int) -> str:
    """``"8:00-8:30"`` for slot 0 … ``"10:30-11:00"`` for slot 5."""
    return f"{SLOT_STARTS[slot]}-{SLOT_STARTS[slot + 1]}"


def span_label(start: int, length: int) -> str:
    """``"8:00-10:00"`` for a program of ``length`` half-hours starting at slot ``start``."""
    end = min(start + length, SLOTS + 1)
    return f"{SLOT_STARTS[start]}-{SLOT_STARTS[end] if end <= SLOTS else '?'}"


# -- types ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Program:
    """A Program tile (3). ``length`` in half-hours (1 to 4: 30 to 120 minutes); ``colour`` one of
    :data:`COLOURS` (green Situation Comedy, red Action/Adventure, blue Drama, yellow Other); ``rating``
    in Rating Points (10 to 90 in steps of 10, rule 3), or ``None`` for a Special (``special=True``,
    worth 10 × 2d6 each war, 3.3), an Academy Award Movie (``academy_award_movie=True``: 100 RP and 4
    half-hours, 3.2; ``rating`` may be left ``None``) or the Super Bowl tile (``super_bowl=True``: 2
    half-hours, no colour, no rating; it wins its slots automatically, 9.8). ``name`` is optional.

    Raises :class:`MalformedCommand` for a tile that cannot exist.
    """

    length: int
    colour: str | None
    rating: int | None = None
    name: str = ""
    special: bool = False
    academy_award_movie: bool = False
    super_bowl: bool = False

    def __post_init__(self) -> None:
        label = self.name or "a program"
        if not isinstance(self.name, str):
            raise MalformedCommand(f"a program's name is text, not {self.name!r}")
        if sum((self.special, self.academy_award_movie, self.super_bowl)) > 1:
            raise MalformedCommand(f"{label} can be only one of Special, Academy Award Movie, Super Bowl")
        if not is_whole(self.length) or not 1 <= self.length <= 4:
            raise MalformedCommand(
                f"{label}: a program lasts 1 to 4 half-hours (30 to 120 minutes), "
                f"not {self.length!r} (TV Wars 2.3, Inventory)"
            )
        if self.super_bowl:
            if self.length != SUPER_BOWL_LENGTH or self.colour is not None or self.rating is not None:
                raise MalformedCommand(
                    "the Super Bowl tile lasts 2 half-hours (8:00-9:00) and has no colour and no rating (TV Wars 9.8)"
                )
            return
        if self.colour not in COLOURS:
            raise MalformedCommand(f"{label}: colour must be one of {', '.join(COLOURS)}, not {self.colour!r}")
        if self.academy_award_movie:
            if self.rating is None:
                object.__setattr__(self, "rating", MOVIE_RATING)
            if self.rating != MOVIE_RATING or self.length != MOVIE_LENGTH:
                raise MalformedCommand(
                    f"{label}: an Academy Award Movie is worth 100 Rating Points and lasts "
                    f"120 minutes (4 half-hours) (TV Wars 3.2, 7)"
                )
        elif self.special:
            if self.rating is not None:
                raise MalformedCommand(f"{label}: a Special has no set rating; it is rolled (TV Wars 3.3)")
        elif self.rating is None or not is_whole(self.rating) or not 10 <= self.rating <= 90 or self.rating % 10:
            raise MalformedCommand(
                f"{label}: a program's rating is 10 to 90 Rating Points in tens, not {self.rating!r} (TV Wars 3)"
            )

    @classmethod
    def movie(cls, name: str = "", colour: str = "yellow") -> Program:
        """An Academy Award Movie: 100 RP, 4 half-hours (3.2)."""
        return cls(MOVIE_LENGTH, colour, MOVIE_RATING, name, academy_award_movie=True)

    @classmethod
    def special_program(cls, length: int, colour: str, name: str = "") -> Program:
        """A Special of ``length`` half-hours: 10 × 2d6 Rating Points, rolled each war (3.3)."""
        return cls(length, colour, None, name, special=True)

    @classmethod
    def super_bowl_tile(cls) -> Program:
        """The Super Bowl tile: 8:00-9:00 in a February Sweeps war only, wins automatically (9.8)."""
        return cls(SUPER_BOWL_LENGTH, None, None, "SUPER BOWL", super_bowl=True)

    @property
    def title(self) -> str:
        """The name as printed, or the kind of tile when the program has no name (``"SPECIAL"``)."""
        if self.name:
            return self.name
        if self.super_bowl:
            return "SUPER BOWL"
        if self.academy_award_movie:
            return "ACADEMY AWARD MOVIE"
        if self.special:
            return "SPECIAL"
        assert self.colour is not None, "only the Super Bowl tile has no colour (checked when made, TV Wars 3, 9.8)"
        return COLOURS[self.colour].upper()

    @property
    def kind(self) -> str:
        """``"program"``, ``"special"``, ``"movie"`` or ``"super_bowl"``."""
        if self.super_bowl:
            return "super_bowl"
        if self.academy_award_movie:
            return "movie"
        return "special" if self.special else "program"


@dataclass(frozen=True)
class Bonus:
    """A Bonus tile (5): ``kind`` is ``"star"`` (10, 20 or 30 RP, 5.1), ``"emmy"`` (50 RP, 5.2),
    ``"critics_choice"`` (-36 to +36 RP) or ``"viewers_views"`` (-28 to +29 RP) (5.3); ``value`` in
    Rating Points; ``name`` optional (a Star's name, e.g. ``"Flirt Reynolds"``).

    Raises :class:`MalformedCommand` for a tile that cannot exist.
    """

    kind: str
    value: int
    name: str = ""

    def __post_init__(self) -> None:
        if self.kind not in BONUS_KINDS:
            raise MalformedCommand(f"a bonus tile is one of {', '.join(BONUS_KINDS)}, not {self.kind!r}")
        if not is_whole(self.value):
            raise MalformedCommand(f"a bonus is whole Rating Points, not {self.value!r}")
        ok = {
            STAR: self.value in STAR_VALUES,
            EMMY: self.value == EMMY_VALUE,
            CRITICS_CHOICE: CRITICS_CHOICE_RANGE[0] <= self.value <= CRITICS_CHOICE_RANGE[1],
            VIEWERS_VIEWS: VIEWERS_VIEWS_RANGE[0] <= self.value <= VIEWERS_VIEWS_RANGE[1],
        }[self.kind]
        if not ok:
            allowed = {
                STAR: "10, 20 or 30 (TV Wars 5.1)",
                EMMY: "50 (TV Wars 5.2)",
                CRITICS_CHOICE: "-36 to +36 (TV Wars 5.3)",
                VIEWERS_VIEWS: "-28 to +29 (TV Wars 5.3)",
            }
            raise MalformedCommand(f"{with_article(self.label)} tile is worth {allowed[self.kind]}, not {self.value}")

    @classmethod
    def star(cls, value: int, name: str = "") -> Bonus:
        """A Star of 10, 20 or 30 RP (5.1)."""
        return cls(STAR, value, name)

    @classmethod
    def emmy(cls) -> Bonus:
        """An Emmy Award, 50 RP (5.2)."""
        return cls(EMMY, EMMY_VALUE)

    @classmethod
    def critics_choice(cls, value: int) -> Bonus:
        """A Critics' Choice tile, -36 to +36 RP (5.3)."""
        return cls(CRITICS_CHOICE, value)

    @classmethod
    def viewers_views(cls, value: int) -> Bonus:
        """A Viewers' Views tile, -28 to +29 RP (5.3)."""
        return cls(VIEWERS_VIEWS, value)

    @property
    def label(self) -> str:
        """The rulebook's word for it: ``"Star"``, ``"Emmy"``, ``"Critics' Choice"``, ``"Viewers' Views"``."""
        return BONUS_LABELS[self.kind]

    @property
    def mandatory(self) -> bool:
        """Critics' Choice and Viewers' Views must be played (5.3, 5.31)."""
        return self.kind in (CRITICS_CHOICE, VIEWERS_VIEWS)

    def describe(self) -> str:
        """``"Star 30 (Flirt Reynolds)"``, ``"Critics' Choice -31"``."""
        text = f"{self.label} {self.value:+d}" if self.mandatory else f"{self.label} {self.value}"
        return f"{text} ({self.name})" if self.name else text


@dataclass(frozen=True)
class Placement:
    """One program on a Prime Time Line-Up card with its bonus tile (at most one, 6.2)."""

    program: Program
    bonus: Bonus | None = None


@dataclass(frozen=True)
class ProgramRef:
    """Which program: ``network`` and the slot where it starts (0 = 8:00). Stable across a war."""

    network: str
    start: int

    @property
    def label(self) -> str:
        """``"NBS 9:30"``."""
        return f"{self.network} {SLOT_STARTS[self.start]}"


@dataclass(frozen=True)
class LineUp:
    """One network's Prime Time Line-Up card (6).

    * ``programs``: :class:`Placement` values in order from 8:00, each starting where the previous one
      ends (so there are no gaps, 6.1);
    * ``promotion``: $5,000 paid before the reveal, +10 RP on every program (6.6);
    * ``best_network_news``: this network holds the tile, +5 RP at 8:00-8:30 only (6.3);
    * ``preemption``: the slot (0 to 4) where the Preemption tile's hour starts, placed after the reveal,
      or ``None`` (9.91);
    * ``held_programs`` and ``held_bonuses``: tiles the network owns but did not play, for the checks of
      6.1 (use the most programming) and 5.3 (play every Critics' Choice/Viewers' Views possible).
    """

    network: str
    programs: tuple[Placement, ...] = ()
    promotion: bool = False
    best_network_news: bool = False
    preemption: int | None = None
    held_programs: tuple[Program, ...] = ()
    held_bonuses: tuple[Bonus, ...] = ()
    _grid: tuple = field(init=False, repr=False, compare=False, hash=False, default=())

    def __post_init__(self) -> None:
        for name in ("programs", "held_programs", "held_bonuses"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        grid: list = [None] * SLOTS
        for start, placement in zip(self.starts, self.programs):
            if not isinstance(placement, Placement):
                raise MalformedCommand(f"{self.network}: a line-up holds Placement values, not {placement!r}")
            for slot in range(start, min(start + placement.program.length, SLOTS)):
                grid[slot] = (start, placement)
        object.__setattr__(self, "_grid", tuple(grid))

    @property
    def starts(self) -> tuple[int, ...]:
        """The slot where each program starts (0 = 8:00), in line-up order."""
        starts, at = [], 0
        for placement in self.programs:
            starts.append(at)
            at += placement.program.length if isinstance(placement, Placement) else 1
        return tuple(starts)

    @property
    def half_hours(self) -> int:
        """Half-hours of programming committed."""
        return sum(placement.program.length for placement in self.programs)

    def at(self, slot: int) -> tuple[int, Placement] | None:
        """``(start, placement)`` of the program on the air in ``slot``, or ``None``."""
        return self._grid[slot] if 0 <= slot < SLOTS else None

    def placed(self) -> Iterator[tuple[ProgramRef, Placement]]:
        """Each program with its :class:`ProgramRef`, in line-up order."""
        for start, placement in zip(self.starts, self.programs):
            yield ProgramRef(self.network, start), placement

    def preempts(self, slot: int) -> bool:
        """Whether this network's Preemption tile covers ``slot`` (9.91)."""
        return self.preemption is not None and self.preemption <= slot < self.preemption + 2


@dataclass(frozen=True)
class HouseRules:
    """House-rule options for a Ratings War.

    ``counter_programming_four``: the Counter-Programming penalty when four networks share a colour in a
    slot, which 6.5 does not give: ``-30`` (default: -10 per other network with that colour, continuing
    6.5's -10 for two and -20 for three) or ``-20`` (as for three). Raises :class:`BadOption` otherwise.
    """

    counter_programming_four: int = -30

    def __post_init__(self) -> None:
        if self.counter_programming_four not in (-30, -20) or isinstance(self.counter_programming_four, bool):
            raise BadOption(
                "counter_programming_four",
                f"must be -30 or -20 (TV Wars 6.5, see docs/rulings.md), not {self.counter_programming_four!r}",
            )


@dataclass(frozen=True)
class War:
    """A revealed Ratings War: the networks' ``lineups`` in seat order, whether it is a
    ``february_sweeps`` war (needed for the Super Bowl, 9.8) and the ``house_rules``."""

    lineups: tuple[LineUp, ...]
    february_sweeps: bool = False
    house_rules: HouseRules = HouseRules()

    def __post_init__(self) -> None:
        object.__setattr__(self, "lineups", tuple(self.lineups))

    @property
    def networks(self) -> tuple[str, ...]:
        """Network names in seat order."""
        return tuple(lineup.network for lineup in self.lineups)

    def lineup(self, network: str) -> LineUp:
        """The line-up of ``network``; raises :class:`MalformedCommand` for an unknown name."""
        for lineup in self.lineups:
            if lineup.network == network:
                return lineup
        raise MalformedCommand(f"no network {network!r} in this war; networks are {', '.join(self.networks)}")

    def preempted_by(self, slot: int) -> str | None:
        """The network whose Preemption tile covers ``slot``, or ``None`` (9.91)."""
        return next((lineup.network for lineup in self.lineups if lineup.preempts(slot)), None)

    def programs(self) -> Iterator[tuple[ProgramRef, Placement]]:
        """Every program in the war, network by network."""
        for lineup in self.lineups:
            yield from lineup.placed()

    def placement(self, ref: ProgramRef) -> Placement:
        """The :class:`Placement` that ``ref`` names."""
        found = self.lineup(ref.network).at(ref.start)
        if found is None or found[0] != ref.start:
            raise MalformedCommand(f"{ref.network} has no program starting at {SLOT_STARTS[ref.start]}")
        return found[1]


def with_preemption(war: War, network: str, start: int | None) -> War:
    """``war`` with ``network``'s Preemption tile placed over slots ``start`` and ``start + 1`` (or taken
    off with ``None``). The tile is placed after the reveal, before any Special is rolled (9.91)."""
    return replace(
        war,
        lineups=tuple(
            replace(lineup, preemption=start) if lineup.network == network else lineup for lineup in war.lineups
        ),
    )


# -- legality ---------------------------------------------------------------------------------------------


def max_programming(lengths: Sequence[int], limit: int = SLOTS) -> int:
    """The most half-hours (at most ``limit``) that some combination of program ``lengths`` fills (6.1)."""
    reachable = {0}
    for length in lengths:
        reachable |= {total + length for total in reachable if total + length <= limit}
    return max(reachable)


def check_lineup(lineup: LineUp, *, february_sweeps: bool = False) -> None:
    """Check one network's line-up; raise :class:`IllegalCommand` citing the rule, or
    :class:`MalformedCommand` for a wrong shape.

    * 6.1: nothing past 11:00; as much programming as the network's programs (played and held) can fill;
    * 9.8: the Super Bowl only at 8:00-9:00 and only in a February Sweeps war;
    * 3.23: no Emmy on an Academy Award Movie (6.2's one-bonus limit is the shape of :class:`Placement`);
    * 5.3: every Critics' Choice/Viewers' Views tile held must be played, up to the number of programs;
    * 9.91: the Preemption tile covers one hour inside 8:00-11:00.
    """
    name = lineup.network
    if not isinstance(name, str) or not name.strip():
        raise MalformedCommand(f"a network needs a name, not {name!r}")
    for item in lineup.held_programs:
        if not isinstance(item, Program):
            raise MalformedCommand(f"{name}: held programs are Program values, not {item!r}")
    for tile in lineup.held_bonuses:
        if not isinstance(tile, Bonus):
            raise MalformedCommand(f"{name}: held bonus tiles are Bonus values, not {tile!r}")
    if lineup.half_hours > SLOTS:
        raise IllegalCommand(
            f"{name}'s line-up runs {lineup.half_hours} half-hours from 8:00, past 11:00", "TV Wars 6.1"
        )
    for ref, placement in lineup.placed():
        program, bonus = placement.program, placement.bonus
        if program.super_bowl and (ref.start != 0 or not february_sweeps):
            where = "only at 8:00-9:00" if ref.start != 0 else "only in a February Sweeps Ratings War"
            raise IllegalCommand(
                f"{name} plays the Super Bowl at {span_label(ref.start, program.length)}; it can be played {where}",
                "TV Wars 9.8",
            )
        if bonus is not None and not isinstance(bonus, Bonus):
            raise MalformedCommand(f"{name}: a bonus is a Bonus value, not {bonus!r}")
        if program.academy_award_movie and bonus is not None and bonus.kind == EMMY:
            raise IllegalCommand(f"{name} puts an Emmy on the Academy Award Movie {program.title}", "TV Wars 3.23")
    usable = [
        p.length
        for p in (*(pl.program for pl in lineup.programs), *lineup.held_programs)
        if february_sweeps or not p.super_bowl
    ]
    best = max_programming(usable)
    if lineup.half_hours < best:
        raise IllegalCommand(
            f"{name} commits {lineup.half_hours} half-hours but its programs could fill {best}; "
            f"it must use the combination of lengths that uses the most programming",
            "TV Wars 6.1",
        )
    played = sum(1 for pl in lineup.programs if pl.bonus is not None and pl.bonus.mandatory)
    held = sum(1 for bonus in lineup.held_bonuses if bonus.mandatory)
    if held and played < len(lineup.programs):
        raise IllegalCommand(
            f"{name} holds {held} Critics' Choice/Viewers' Views tile(s) back while "
            f"{len(lineup.programs) - played} of its programs carry none; they must be played",
            "TV Wars 5.3",
        )
    if lineup.preemption is not None and (not is_whole(lineup.preemption) or not 0 <= lineup.preemption <= SLOTS - 2):
        raise IllegalCommand(
            f"{name}'s Preemption tile must cover one hour between 8:00 and 11:00, "
            f"starting 8:00 to 10:00, not at {lineup.preemption!r}",
            "TV Wars 9.91",
        )


def _inventory_counts(war: War) -> Counter:
    counts: Counter = Counter()
    for lineup in war.lineups:
        programs = [pl.program for pl in lineup.programs] + list(lineup.held_programs)
        bonuses = [pl.bonus for pl in lineup.programs if pl.bonus] + list(lineup.held_bonuses)
        counts["Academy Award Movie"] += sum(p.academy_award_movie for p in programs)
        counts["Super Bowl"] += sum(p.super_bowl for p in programs)
        for bonus in bonuses:
            counts[bonus.label] += 1
        counts["Best Network News"] += lineup.best_network_news
        counts["Preemption"] += lineup.preemption is not None
    return counts


def check_war(war: War) -> None:
    """Check a whole war: 2 to 4 networks with distinct names, each line-up legal (:func:`check_lineup`),
    and no more pieces than exist (Inventory: one Best Network News, one Preemption, one Super Bowl, 8
    movies, 9 Stars, 5 Emmys, 10 Critics' Choice, 15 Viewers' Views). Raises :class:`IllegalCommand` or
    :class:`MalformedCommand`."""
    if not isinstance(war.house_rules, HouseRules):
        raise MalformedCommand(f"house rules are a HouseRules value, not {war.house_rules!r}")
    for lineup in war.lineups:
        if not isinstance(lineup, LineUp):
            raise MalformedCommand(f"a war holds LineUp values, not {lineup!r}")
    if not 2 <= len(war.lineups) <= 4:
        raise IllegalCommand(
            f"a Ratings War is fought by 2 to 4 networks, not {len(war.lineups)}",
            "TV Wars Inventory: four Prime Time Line-Up cards",
        )
    if len(set(war.networks)) != len(war.networks):
        raise MalformedCommand(f"network names must be distinct: {', '.join(war.networks)}")
    for lineup in war.lineups:
        check_lineup(lineup, february_sweeps=war.february_sweeps)
    for piece, count in _inventory_counts(war).items():
        if count > INVENTORY[piece]:
            raise IllegalCommand(
                f"this war holds {count} {piece} tiles; only {INVENTORY[piece]} exist", "TV Wars Inventory"
            )


# -- resolution data ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Part:
    """One named bonus or penalty in a score: ``label`` as printed (``"Counter-Programming"``), ``value``
    in Rating Points (negative for a penalty) and the ``rule``."""

    label: str
    value: int
    rule: str

    @property
    def text(self) -> str:
        """``"+ 5 [Lead-In]"`` or ``"- 10 [Counter-Programming]"``."""
        return f"{'-' if self.value < 0 else '+'} {abs(self.value)} [{self.label}]"


@dataclass(frozen=True)
class Score:
    """A program's rating in one slot: ``base`` RP (a Special's rolled value; ``base_note`` is
    ``"dice roll of 7 x 10"`` in the slot where it was rolled) plus ``parts`` in the order bonus tile,
    Network News, Counter-Programming, Promos, Lead-In. The Super Bowl has no base and
    ``automatic_win`` (9.8)."""

    ref: ProgramRef
    program: str
    colour: str | None
    base: int | None
    base_note: str = ""
    parts: tuple[Part, ...] = ()
    automatic_win: bool = False

    @property
    def network(self) -> str:
        """The network airing the program."""
        return self.ref.network

    @property
    def total(self) -> int | None:
        """Rating Points in this slot (``None`` for the Super Bowl, which wins automatically)."""
        if self.automatic_win:
            return None
        assert self.base is not None, f"{self.program}: only the Super Bowl's score has no base (TV Wars 9.8)"
        return self.base + sum(part.value for part in self.parts)

    @property
    def breakdown(self) -> str:
        """``"90 - 10 [Counter-Programming]"``, ``"70 [dice roll of 7 x 10] + 50 [Emmy]"``."""
        if self.automatic_win:
            return "wins automatically [Super Bowl]"
        head = f"{self.base} [{self.base_note}]" if self.base_note else str(self.base)
        return " ".join([head, *(part.text for part in self.parts)])

    @property
    def text(self) -> str:
        """As the rulebook prints it: ``"DIE-NASTY: 80 (90 - 10 [Counter-Programming])"``; a bare
        ``"MONDAY NIGHT RUGBY: 80"`` when there is nothing to add."""
        if self.automatic_win:
            return f"{self.program}: wins automatically (TV Wars 9.8)"
        if not self.parts and not self.base_note:
            return f"{self.program}: {self.total}"
        return f"{self.program}: {self.total} ({self.breakdown})"


@dataclass(frozen=True)
class TieRoll:
    """One network's tie-break roll: the dice ``key`` it was supplied under and its ``values``."""

    network: str
    key: str
    values: tuple[int, ...]

    @property
    def total(self) -> int:
        """The sum of the dice."""
        return sum(self.values)


@dataclass(frozen=True)
class TieBreak:
    """A tie for lowest and/or highest rating in a slot, settled by dice (6.7).

    ``purpose`` is ``"lowest"``, ``"highest"`` or ``"lowest and highest"`` (everyone in the slot tied);
    ``total`` the tied rating (RP); ``networks`` those tied; ``rounds`` the rolls, a re-roll per extra
    round; ``lowest``/``highest`` the network that ends lowest/highest (``None`` when not asked).
    """

    slot: int
    purpose: str
    total: int
    networks: tuple[str, ...]
    rounds: tuple[tuple[TieRoll, ...], ...]
    lowest: str | None
    highest: str | None
    rule: str = "TV Wars 6.7"

    @property
    def text(self) -> str:
        """``"PBC and NBS tie for lowest with 60: PBC rolls 9 (5+4), NBS rolls 5 (3+2). NBS is lowest
        (TV Wars 6.7)."``"""
        names = and_join(self.networks)
        rolls = "; then ".join(
            ", ".join(f"{r.network} rolls {r.total} ({'+'.join(map(str, r.values))})" for r in round_)
            for round_ in self.rounds
        )
        outcome = []
        if self.lowest:
            outcome.append(f"{self.lowest} is lowest")
        if self.highest:
            outcome.append(f"{self.highest} is highest")
        return (
            f"{names} tie for {self.purpose} with {self.total}: {rolls or 'order drawn'}. "
            f"{' and '.join(outcome)} ({self.rule})."
        )


@dataclass(frozen=True)
class Cancellation:
    """A program cancelled in ``slot`` with its ``total`` there, the ``reason`` in words and the rule."""

    ref: ProgramRef
    program: str
    slot: int
    total: int
    reason: str
    rule: str

    @property
    def text(self) -> str:
        """``"NBS cancels SILVER GIRLS: lowest rated in 8:00-8:30 with 51 (TV Wars 6.8)."``"""
        return f"{self.ref.network} cancels {self.program}: {self.reason} ({self.rule})."


@dataclass(frozen=True)
class SlotResult:
    """One resolved half-hour: the ``scores`` of the programs on the air (seat order), the ``winner``
    (network with the highest rated program, when known), whether a Lead-In is at stake (6.4: a next
    slot exists and is not preempted), the ``cancellation`` (6.8), the ``ties`` (6.7), the network whose
    Preemption tile voids it (9.91) and explanatory ``notes``."""

    index: int
    scores: tuple[Score, ...] = ()
    winner: str | None = None
    lead_in_at_stake: bool = False
    cancellation: Cancellation | None = None
    ties: tuple[TieBreak, ...] = ()
    preempted_by: str | None = None
    notes: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """``"8:00-8:30"``."""
        return slot_label(self.index)

    @property
    def contested(self) -> bool:
        """Two or more programs competed (so one must be cancelled, 6.8)."""
        return len(self.scores) >= 2

    def score_of(self, network: str) -> Score | None:
        """``network``'s score in this slot, or ``None``."""
        return next((score for score in self.scores if score.network == network), None)

    @property
    def wins_time_slot(self) -> str | None:
        """The winner when its win earns the next slot's Lead-In (printed "Wins Time Slot.")."""
        return self.winner if self.lead_in_at_stake else None


@dataclass(frozen=True)
class PendingRoll:
    """A roll the resolver needs: supply ``request.count`` dice under ``key``."""

    key: str
    request: DiceRequest


@dataclass(frozen=True)
class Resolution:
    """The outcome of :func:`resolve_war` with the dice supplied so far: ``slots`` resolved in order (all
    six when ``complete``), the next ``pending`` roll otherwise, the ``dice_used`` (key, values) and any
    supplied ``unused_dice`` keys (a typo, or a roll the war never needed)."""

    war: War
    slots: tuple[SlotResult, ...]
    pending: PendingRoll | None
    dice_used: tuple[tuple[str, tuple[int, ...]], ...] = ()
    unused_dice: tuple[str, ...] = ()

    @property
    def complete(self) -> bool:
        """Every slot is resolved."""
        return self.pending is None

    @property
    def cancellations(self) -> tuple[Cancellation, ...]:
        """The cancellations in slot order (6.8)."""
        return tuple(slot.cancellation for slot in self.slots if slot.cancellation)

    def cancellation_of(self, ref: ProgramRef) -> Cancellation | None:
        """How ``ref`` was cancelled, or ``None``."""
        return next((c for c in self.cancellations if c.ref == ref), None)

    def slot(self, start: str) -> SlotResult:
        """The result of the slot starting at ``start`` (``"9:30"``)."""
        index = SLOT_STARTS.index(start)
        return self.slots[index]


# -- resolution ---------------------------------------------------------------------------------------------


class _Pending(Exception):
    """Raised inside a slot when a roll is missing; ``point`` is the :class:`PendingRoll`."""

    def __init__(self, point) -> None:
        super().__init__(point)
        self.point = point


def special_key(ref: ProgramRef) -> str:
    """The dice key for the Special ``ref``: ``"NBS special 9:30"``."""
    return f"{ref.network} special {SLOT_STARTS[ref.start]}"


def tie_key(network: str, slot: int, round_: int) -> str:
    """The dice key for ``network``'s roll in tie-break round ``round_`` of ``slot``: ``"PBC tie 8:30 1"``."""
    return f"{network} tie {SLOT_STARTS[slot]} {round_}"


def _special_request(ref: ProgramRef, program: Program) -> DiceRequest:
    return DiceRequest(
        ref.network,
        2,
        f"value of {ref.network}'s {program.title} ({span_label(ref.start, program.length)}), 10 × the roll",
        "TV Wars 3.3",
    )


class _DiceChance:
    """Chance from supplied dice: each roll is taken from ``dice`` by key; a missing one is pending."""

    def __init__(self, dice: Mapping[str, Sequence[int]]) -> None:
        self.dice = dice
        self.used: dict[str, tuple[int, ...]] = {}
        self.rounds: Counter = Counter()

    def _take(self, key: str, request: DiceRequest) -> tuple[int, ...]:
        if key not in self.dice:
            raise _Pending(PendingRoll(key, request))
        values = request.check(request.roller, self.dice[key])
        self.used[key] = values
        return values

    def special(self, ref: ProgramRef, program: Program) -> tuple[int, tuple[int, ...]]:
        """The Special's dice sum and faces (3.3), or :class:`_Pending` if not supplied."""
        values = self._take(special_key(ref), _special_request(ref, program))
        return sum(values), values

    def tie(self, slot: int, networks: tuple[str, ...], need_low: bool, need_high: bool, total: int) -> TieBreak:
        """Roll off ``networks`` (6.7) until the lowest and/or highest is single, re-rolling only those
        still tied; rounds are numbered through the slot."""
        purpose = _purpose(need_low, need_high)
        rounds: list[tuple[TieRoll, ...]] = []
        lowest = highest = None
        queue = [(networks, need_low, need_high)]
        while queue:
            group, low, high = queue.pop(0)
            self.rounds[slot] += 1
            number = self.rounds[slot]
            reason = (
                f"tie for {_purpose(low, high)} at {slot_label(slot)} ({total} Rating Points) "
                f"among {and_join(group)}, round {number}"
            )
            rolls = tuple(
                TieRoll(
                    net,
                    tie_key(net, slot, number),
                    self._take(tie_key(net, slot, number), DiceRequest(net, 2, reason, "TV Wars 6.7")),
                )
                for net in group
            )
            rounds.append(rolls)
            sums = {roll.network: roll.total for roll in rolls}
            bottom, top = min(sums.values()), max(sums.values())
            if bottom == top:  # nobody settled: everyone rolls again
                queue.insert(0, (group, low, high))
                continue
            if low:
                lows = tuple(net for net in group if sums[net] == bottom)
                if len(lows) == 1:
                    lowest = lows[0]
                else:
                    queue.append((lows, True, False))
            if high:
                highs = tuple(net for net in group if sums[net] == top)
                if len(highs) == 1:
                    highest = highs[0]
                else:
                    queue.append((highs, False, True))
        return TieBreak(slot, purpose, total, networks, tuple(rounds), lowest, highest)


def _purpose(low: bool, high: bool) -> str:
    return "lowest and highest" if low and high else ("lowest" if low else "highest")


@dataclass
class _Progress:
    """What carries from slot to slot while a war is resolved (private, mutable, one per pass)."""

    cancelled: set = field(default_factory=set)
    specials: dict = field(default_factory=dict)  # ProgramRef -> (value, dice or None)
    lead_in: str | None = None  # network earning +5 in the slot being resolved

    def copy(self) -> _Progress:
        return _Progress(set(self.cancelled), dict(self.specials), self.lead_in)


def counter_programming(networks_sharing: int, house_rules: HouseRules = HouseRules()) -> int:
    """The Counter-Programming penalty (RP, 6.5) on each program whose colour ``networks_sharing``
    networks have in the slot: 0 alone, -10 for two, -20 for three, the house rule for four."""
    if networks_sharing <= 1:
        return 0
    if networks_sharing >= 4:
        return house_rules.counter_programming_four
    return COUNTER_PROGRAMMING[networks_sharing]


def _parts(war: War, lineup: LineUp, placement: Placement, slot: int, sharing: int, lead_in: bool) -> tuple[Part, ...]:
    """The named bonuses and penalties of ``placement`` (``lineup``'s program) in ``slot``, in the order
    bonus tile, Network News (6.3), Counter-Programming (6.5: ``sharing`` programs of its colour on the
    air, itself included), Promos (6.6), Lead-In (6.4: ``lead_in``, its network won the slot before)."""
    bonus, parts = placement.bonus, []
    if bonus is not None:
        parts.append(Part(bonus.label, bonus.value, BONUS_RULES[bonus.kind]))
    if slot == 0 and lineup.best_network_news:
        parts.append(Part("Network News", NETWORK_NEWS_BONUS, "TV Wars 6.3"))
    penalty = counter_programming(sharing, war.house_rules)
    if penalty:
        parts.append(Part("Counter-Programming", penalty, "TV Wars 6.5"))
    if lineup.promotion:
        parts.append(Part("Promos", PROMOTION_BONUS, "TV Wars 6.6"))
    if lead_in:
        parts.append(Part("Lead-In", LEAD_IN_BONUS, "TV Wars 6.4"))
    return tuple(parts)


def _score(
    war: War,
    lineup: LineUp,
    ref: ProgramRef,
    placement: Placement,
    slot: int,
    progress: _Progress,
    colours: Counter,
    rolled_now: bool,
) -> Score:
    program = placement.program
    if program.super_bowl:
        return Score(ref, program.title, None, None, automatic_win=True)
    note = ""
    if program.special:
        base, dice = progress.specials[ref]
        base *= SPECIAL_PER_PIP
        if rolled_now:
            note = f"dice roll of {base // SPECIAL_PER_PIP} x {SPECIAL_PER_PIP}"
    else:
        base = program.rating
    parts = _parts(war, lineup, placement, slot, colours[program.colour], progress.lead_in == lineup.network)
    return Score(ref, program.title, program.colour, base, note, parts)


def score_so_far(
    war: War, resolution: Resolution | None, ref: ProgramRef, slot: int, dice: Mapping[str, Sequence[int]]
) -> Score | None:
    """The score program ``ref`` stands at in ``slot`` before that slot is resolved, from what is known
    (for the table's grid, "running" scores before the dice): its base rating (a Special's 10 × its roll
    once ``dice`` hold it, 3.3), its bonus tile, Network News (6.3), Promos (6.6), Counter-Programming
    among the programs still on the air in the slot (6.5: those not cancelled in the half-hours already
    resolved in ``resolution``; a later cancellation can lower the penalty) and the Lead-In when its
    network won the half-hour before (6.4, once resolved). ``None`` for the Super Bowl (9.8), a Special
    not yet rolled, a preempted slot (9.91) or a program not on the air in ``slot``."""
    lineup = war.lineup(ref.network)
    found = lineup.at(slot)
    if found is None or found[0] != ref.start or war.preempted_by(slot) is not None:
        return None
    placement = found[1]
    program = placement.program
    if program.super_bowl:
        return None
    if program.special:
        key = special_key(ref)
        if key not in dice:
            return None
        base = sum(dice[key]) * SPECIAL_PER_PIP
    else:
        assert program.rating is not None, f"{program.title}: a program that is not a Special has a rating (TV Wars 3)"
        base = program.rating
    resolved = resolution.slots if resolution is not None else ()
    cancelled = {c.ref for c in resolution.cancellations} if resolution is not None else set()
    colours: Counter = Counter()
    for other in war.lineups:
        on = other.at(slot)
        if on is not None and ProgramRef(other.network, on[0]) not in cancelled and on[1].program.colour:
            colours[on[1].program.colour] += 1
    lead_in = (
        0 < slot <= len(resolved)
        and war.preempted_by(slot - 1) is None
        and resolved[slot - 1].wins_time_slot == ref.network
    )
    parts = _parts(war, lineup, placement, slot, colours[program.colour], lead_in)
    return Score(ref, program.title, program.colour, base, "", parts)


class _Standing(NamedTuple):
    """What a slot's totals settle and what they leave to the tie-break dice (6.4, 6.7, 6.8). Every
    figure is an index into the programs on the air (seat order).

    ``lowest`` and ``winner``: settled by the totals alone (``None``: not settled, or nobody);
    ``low_tie``: those tied for lowest, who roll to find the lowest; ``high_tie``: those tied for highest
    when a Lead-In is at stake, who roll to find the highest; ``joint``: everyone in the slot is tied and
    one roll-off settles both ends (``low_tie`` is everyone, and so is ``high_tie`` when a Lead-In is at
    stake); ``high_group``: those with the highest total."""

    lowest: int | None
    winner: int | None
    low_tie: tuple[int, ...]
    high_tie: tuple[int, ...]
    joint: bool
    high_group: tuple[int, ...]

    def settle(self, low: int | None, high: int | None) -> tuple[int | None, int | None]:
        """``(lowest, winner)`` once the tie-breaks are rolled: ``low`` is the lowest of ``low_tie``,
        ``high`` the highest of ``high_tie`` (each ``None`` when there is no such tie). With two networks
        tied in a joint roll-off and no Lead-In at stake, the one that did not roll lowest rolled higher."""
        lowest = low if self.low_tie else self.lowest
        if self.high_tie:
            return lowest, high
        if self.joint and len(self.low_tie) == 2:
            return lowest, next(i for i in self.low_tie if i != low)
        return lowest, self.winner

    @property
    def unrolled_high_tie(self) -> bool:
        """Several programs share the highest total and no dice settle which is highest (6.4, 6.7)."""
        return len(self.high_group) > 1 and not self.high_tie and not (self.joint and len(self.high_group) == 2)


def _standing(totals: Sequence[int | None], stakes: Sequence[bool]) -> _Standing:
    """How the programs on the air stand in a slot: ``totals`` in Rating Points (``None`` for the Super
    Bowl, which wins automatically, 9.8), ``stakes`` whether each one's network has a program in the next
    slot and that slot is not preempted (a tie for highest is rolled only when a Lead-In is at stake for
    one of those tied, 6.4, 6.7). The lowest rated is cancelled unless unopposed (6.8)."""
    rated = [total for total in totals if total is not None]
    high_group: tuple[int, ...] = ()
    winner = totals.index(None) if None in totals else None  # 9.8: the Super Bowl wins automatically
    if not rated:
        return _Standing(None, winner, (), (), False, ())
    if winner is None:
        top = max(rated)
        high_group = (
            (totals.index(top),)
            if rated.count(top) == 1
            else tuple(i for i, total in enumerate(totals) if total == top)
        )
        if len(high_group) == 1:
            winner = high_group[0]
    bottom = min(rated)
    low_group: tuple[int, ...]
    if len(totals) < 2:  # unopposed (6.8)
        low_group = ()
    elif rated.count(bottom) == 1:
        low_group = (totals.index(bottom),)
    else:
        low_group = tuple(i for i, total in enumerate(totals) if total == bottom)
    need_high = len(high_group) > 1 and any(stakes[i] for i in high_group)
    if len(low_group) > 1 and low_group == high_group:  # everyone in the slot is tied
        return _Standing(None, None, low_group, high_group if need_high else (), True, high_group)
    lowest, low_tie = (low_group[0], ()) if len(low_group) == 1 else (None, low_group)
    return _Standing(lowest, winner, low_tie, high_group if need_high else (), False, high_group)


def _resolve_slot(war: War, slot: int, progress: _Progress, chance) -> SlotResult:
    preemptor = war.preempted_by(slot)
    if preemptor is not None:
        progress.lead_in = None
        return SlotResult(
            slot,
            preempted_by=preemptor,
            notes=(
                f"Preempted by {preemptor}: no rating competition and no cancellation in this half-hour "
                f"(TV Wars 9.91).",
            ),
        )
    notes = []
    if slot > 0 and war.preempted_by(slot - 1):
        notes.append("No Lead-In bonus: the previous half-hour was preempted (TV Wars 9.91).")
    on_air = []
    for lineup in war.lineups:
        found = lineup.at(slot)
        if found is not None and ProgramRef(lineup.network, found[0]) not in progress.cancelled:
            on_air.append((lineup, ProgramRef(lineup.network, found[0]), found[1]))
    rolled_now = set()
    for _, ref, placement in on_air:  # 3.3: a Special is rolled at its first resolved slot
        if placement.program.special and ref not in progress.specials:
            progress.specials[ref] = chance.special(ref, placement.program)
            rolled_now.add(ref)
    colours = Counter(placement.program.colour for _, _, placement in on_air if placement.program.colour)
    scores = tuple(
        _score(war, lineup, ref, placement, slot, progress, colours, ref in rolled_now)
        for lineup, ref, placement in on_air
    )
    next_open = slot + 1 < SLOTS and war.preempted_by(slot + 1) is None
    if len(scores) == 1:
        notes.append(f"{scores[0].program} is unopposed: not cancelled (TV Wars 6.8).")

    networks = [score.network for score in scores]
    standing = _standing(
        [score.total for score in scores],
        [next_open and war.lineup(network).at(slot + 1) is not None for network in networks],
    )
    ties: list[TieBreak] = []

    def roll_off(group: tuple[int, ...], need_low: bool, need_high: bool) -> tuple[int | None, int | None]:
        tie = chance.tie(slot, tuple(networks[i] for i in group), need_low, need_high, scores[group[0]].total)
        ties.append(tie)
        return (
            None if tie.lowest is None else networks.index(tie.lowest),
            None if tie.highest is None else networks.index(tie.highest),
        )

    low = high = None
    if standing.joint:  # one roll-off settles both ends
        low, high = roll_off(standing.low_tie, True, bool(standing.high_tie))
    else:
        if standing.low_tie:
            low, _ = roll_off(standing.low_tie, True, False)
        if standing.high_tie:
            _, high = roll_off(standing.high_tie, False, True)
    if standing.unrolled_high_tie:
        notes.append(
            f"{and_join([networks[i] for i in standing.high_group])} tie for highest; no Lead-In is at "
            f"stake, so no dice are rolled (TV Wars 6.4, 6.7)."
        )
    lowest_at, winner_at = standing.settle(low, high)
    lowest = None if lowest_at is None else scores[lowest_at]
    winner = None if winner_at is None else networks[winner_at]

    cancellation = None
    if lowest is not None:
        by_tie = bool(standing.low_tie)
        total = lowest.total
        assert total is not None, "the Super Bowl wins its slots and is never lowest rated (TV Wars 9.8)"
        reason = f"lowest rated in {slot_label(slot)} with {total}" + (", after the tie-break" if by_tie else "")
        cancellation = Cancellation(
            lowest.ref, lowest.program, slot, total, reason, "TV Wars 6.7, 6.8" if by_tie else "TV Wars 6.8"
        )
        progress.cancelled.add(lowest.ref)
    progress.lead_in = winner if next_open else None
    return SlotResult(slot, scores, winner, next_open, cancellation, tuple(ties), None, tuple(notes))


def _run(war: War, chance) -> tuple[tuple[SlotResult, ...], PendingRoll | None]:
    """Resolve slot after slot until a roll is missing: the slots resolved and the missing roll (or ``None``)."""
    progress, slots = _Progress(), []
    for slot in range(SLOTS):
        try:
            slots.append(_resolve_slot(war, slot, progress, chance))
        except _Pending as pending:
            return tuple(slots), pending.point
    return tuple(slots), None


def resolve_war(war: War, dice: Mapping[str, Sequence[int]] | None = None) -> Resolution:
    """Resolve ``war`` (6, 6.3-6.8, 3.3, 9.8, 9.91) with the rolls in ``dice`` (key → die faces; keys as
    :func:`special_key` and :func:`tie_key` make them).

    Slot by slot from 8:00: a Special is rolled at its first resolved slot; each program scores base +
    bonus tile + Network News (8:00) + Counter-Programming + Promos + Lead-In; the lowest is cancelled at
    once unless unopposed; ties for lowest, and for highest when a Lead-In is at stake, are rolled off.
    When a roll is missing the result stops there: ``pending`` names it and ``slots`` holds what is
    settled. Supply the roll and call again (the same dice always give the same result).

    Raises :class:`IllegalCommand`/:class:`MalformedCommand` for an illegal war (:func:`check_war`) and
    :class:`~companion.errors.DiceError` for dice that do not answer their request.
    """
    check_war(war)
    dice = dict(dice or {})
    chance = _DiceChance(dice)
    slots, pending = _run(war, chance)
    unused = () if pending else tuple(key for key in dice if key not in chance.used)
    return Resolution(war, slots, pending, tuple(chance.used.items()), unused)


def play_out(
    war: War,
    dice: Mapping[str, Sequence[int]] | None = None,
    roll: Callable[[PendingRoll], Sequence[int]] | None = None,
) -> tuple[Resolution, dict]:
    """Resolve ``war``, calling ``roll(pending)`` for every missing roll (``None``: stop at the first).

    Returns the :class:`Resolution` and the dice (given plus rolled) as a new dict.
    """
    dice = {key: tuple(values) for key, values in (dice or {}).items()}
    while True:
        resolution = resolve_war(war, dice)
        pending = resolution.pending
        if pending is None or roll is None:  # complete, or nobody to roll
            return resolution, dice
        dice[pending.key] = tuple(roll(pending))


def missing_rolls(war: War, dice: Mapping[str, Sequence[int]] | None = None) -> tuple[PendingRoll, ...]:
    """The rolls known to be missing now: the next pending roll, the other rolls of its tie-break round
    (everyone tied rolls together, 6.7) and every Special roll not yet given (3.3). Later tie-break rolls
    cannot be known until these are in. Empty when the war can be resolved with ``dice``."""
    dice = {key: tuple(values) for key, values in (dice or {}).items()}
    first = resolve_war(war, dice).pending
    if first is None:
        return ()
    missing = [first]
    if " tie " in first.key:
        round_ = first.key.split(" ", 1)[1]  # "tie 8:30 1": the same round, other rollers
        trial = dict(dice)
        while True:
            trial[missing[-1].key] = (1,) * missing[-1].request.count
            pending = resolve_war(war, trial).pending
            if pending is None or pending.key.split(" ", 1)[1] != round_ or pending in missing:
                break
            missing.append(pending)
    keys = {pending.key for pending in missing}
    return tuple(missing) + tuple(p for p in outstanding_specials(war, dice) if p.key not in keys)


def outstanding_specials(war: War, dice: Mapping[str, Sequence[int]] | None = None) -> tuple[PendingRoll, ...]:
    """Every Special roll not in ``dice`` that the war may need (3.3), in line-up order. Tie-break rolls
    are not listed: whether they are needed depends on the other rolls."""
    dice = dice or {}
    return tuple(
        PendingRoll(special_key(ref), _special_request(ref, placement.program))
        for ref, placement in war.programs()
        if placement.program.special and special_key(ref) not in dice
    )


# -- aftermath ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ProgramFate:
    """What happens to a played program after the war: ``lost`` or kept, with the ``reason`` and rule."""

    ref: ProgramRef
    program: str
    lost: bool
    reason: str
    rule: str


@dataclass(frozen=True)
class TileFate:
    """What happens to a played tile after the war: ``tile`` (``"Star 30 (Flirt Reynolds)"``), the
    ``program`` it was on (``""`` for a line-up tile), ``kept`` by the network or not, where it goes
    (``destination``: ``"kept"``, ``"Star pile"``, ``"Emmy Awards pile"``, ``"out of play"``, ``"back in
    play"``) and the ``rule``."""

    tile: str
    program: str
    kept: bool
    destination: str
    rule: str


@dataclass(frozen=True)
class NetworkAftermath:
    """One network after the war: ``programs_lost``/``programs_kept`` (played programs), ``tiles_kept``
    and ``tiles_returned``, whether the Super Bowl is lost (9.8) and the Preemption tile goes back into
    play (9.91), and ``programs_left``: programs still owned among those the line-up lists (played or
    held); a network with none is out (3)."""

    network: str
    programs_lost: tuple[ProgramFate, ...]
    programs_kept: tuple[ProgramFate, ...]
    tiles_kept: tuple[TileFate, ...]
    tiles_returned: tuple[TileFate, ...]
    super_bowl_lost: bool
    preemption_returned: bool
    programs_left: int


def _tile_fate(placement: Placement, cancelled: bool) -> TileFate:
    bonus, program = placement.bonus, placement.program
    assert bonus is not None, f"{program.title} has no bonus tile to follow after the war"
    if bonus.kind == STAR:
        if cancelled:
            return TileFate(bonus.describe(), program.title, False, "Star pile", "TV Wars 5.11, 6.2")
        if program.academy_award_movie:
            return TileFate(bonus.describe(), program.title, True, "kept", "TV Wars 6.2")
        return TileFate(bonus.describe(), program.title, True, "kept", "TV Wars 5.11")
    if bonus.kind == EMMY:
        return TileFate(bonus.describe(), program.title, False, "Emmy Awards pile", "TV Wars 5.21")
    return TileFate(bonus.describe(), program.title, False, "out of play", "TV Wars 5.31")


def _network_aftermath(resolution: Resolution, lineup: LineUp) -> NetworkAftermath:
    lost: list[ProgramFate] = []
    kept: list[ProgramFate] = []
    tiles_kept: list[TileFate] = []
    tiles_returned: list[TileFate] = []
    for ref, placement in lineup.placed():
        program = placement.program
        cancellation = resolution.cancellation_of(ref)
        if cancellation is not None:
            lost.append(
                ProgramFate(ref, program.title, True, f"cancelled in {slot_label(cancellation.slot)}", "TV Wars 6.8")
            )
        elif program.academy_award_movie:
            lost.append(
                ProgramFate(
                    ref,
                    program.title,
                    True,
                    "an Academy Award Movie is used in one Ratings War only: removed from play",
                    "TV Wars 3.21",
                )
            )
        elif program.super_bowl:
            lost.append(
                ProgramFate(
                    ref,
                    program.title,
                    True,
                    "lost after the February Sweeps Ratings War; up for bid among the other networks",
                    "TV Wars 9.8",
                )
            )
        else:
            kept.append(ProgramFate(ref, program.title, False, "not cancelled", "TV Wars 6.8"))
        if placement.bonus is not None:
            fate = _tile_fate(placement, cancellation is not None)
            (tiles_kept if fate.kept else tiles_returned).append(fate)
    if lineup.best_network_news:
        tiles_kept.append(TileFate("Best Network News", "", True, "kept", "TV Wars 6.2"))
    if lineup.preemption is not None:
        tiles_returned.append(TileFate("Preemption", "", False, "back in play", "TV Wars 9.91, 9.9"))
    return NetworkAftermath(
        lineup.network,
        tuple(lost),
        tuple(kept),
        tuple(tiles_kept),
        tuple(tiles_returned),
        any(pl.program.super_bowl for pl in lineup.programs),
        lineup.preemption is not None,
        len(kept) + len(lineup.held_programs),
    )


def consequences(resolution: Resolution) -> tuple[NetworkAftermath, ...]:
    """Each network's losses and tiles after a complete war, in seat order (6.2, 5.11, 5.21, 5.31, 3.21,
    9.8, 9.91): cancelled programs leave play; a played movie leaves play, its Star stays unless the
    movie was cancelled; Stars of cancelled programs return to the Star pile; Emmys to their pile;
    Critics' Choice and Viewers' Views leave play; Best Network News stays; the Super Bowl is lost; a
    played Preemption tile goes back into play. Raises :class:`IllegalCommand` while dice are missing."""
    if resolution.pending is not None:  # not complete
        request = resolution.pending.request
        raise IllegalCommand(
            f"the Ratings War is not over: {request.describe()} is missing", request.rule or "TV Wars 6"
        )
    return tuple(_network_aftermath(resolution, lineup) for lineup in resolution.war.lineups)


# -- odds ------------------------------------------------------------------------------------------------------
#
# The odds go slot by slot. After a slot, the rest of the war depends only on which of the programs still to air
# were cancelled, the rolled sums of the Specials still to air, and which network earns a Lead-In in the next
# slot. Branches that agree on these lead to the same remaining war, so they are merged and their weights added.
# Such a "state" is ``(cancelled, sums, lead_in)``: a bit mask over the programs in :meth:`War.programs` order,
# the rolled sum of each Special (``0``: not rolled, or it no longer matters) and a seat (``-1``: nobody). Every
# weight after a slot is an integer over one common denominator (36 for each Special rolled in it, times the
# least common multiple of its tie-break denominators); a program's chance of being cancelled is the weight of
# the branches that cancel it, and only the very end makes Fractions.

_State = tuple[int, tuple[int, ...], int]


class _OddsProgram(NamedTuple):
    """A program that may be on the air in a slot, for the odds: ``ref`` its index in :meth:`War.programs`
    order, ``seat`` its network's, ``colour`` (``None``: the Super Bowl), ``special`` its index among the
    Specials (``-1``: not one), ``base`` Rating Points (``0`` for a Special, whose 10 × roll is added; ``None``
    for the Super Bowl, which wins automatically, 9.8), ``points[sharing][lead_in]``: the sum of its parts
    (:func:`_parts`) with ``sharing`` programs of its colour on the air and with or without the Lead-In, and
    ``stake``: a Lead-In is at stake for it (6.4)."""

    ref: int
    seat: int
    colour: str | None
    special: int
    base: int | None
    points: tuple[tuple[int, int], ...]
    stake: bool


def _rated(total: int | None) -> int:
    """A Special's total in a slot (:class:`_OddsProgram`): only the Super Bowl has none (9.8)."""
    assert total is not None, "a Special always has a total; only the Super Bowl has none (TV Wars 9.8)"
    return total


def _combinations(rolls: Sequence[tuple[tuple[int, int], ...]]) -> list[tuple[tuple[int, ...], tuple[int, ...], int]]:
    """Every combination of the Special ``rolls`` (each ``(sum, ways)`` pairs): ``(10 × sum each, sum each,
    ways)``; one empty combination for no Specials."""
    combinations = []
    for combination in product(*rolls):
        ways = 1
        for _, count in combination:
            ways *= count
        combinations.append(
            (tuple(SPECIAL_PER_PIP * total for total, _ in combination), tuple(total for total, _ in combination), ways)
        )
    return combinations


class _OddsSlot:
    """One half-hour of the odds: what is fixed before any dice (the programs that may be on the air, the
    Specials first rolled here, what still airs after it), and :meth:`step` from the states before it to
    those after it.

    A Special first rolled here that goes on after it (``going_on``) carries its sum into the state; one
    that ends here (``ending``) matters only through where its total ranks among the others (below, equal
    to or above the lowest and the highest of the rest, and against each other), so its rolls that rank
    the same are added up before the slot is settled."""

    def __init__(
        self,
        war: War,
        slot: int,
        programs: Sequence[tuple[ProgramRef, Placement]],
        rolls: Mapping[int, tuple[tuple[int, int], ...]],
    ) -> None:
        index = {ref: i for i, (ref, _) in enumerate(programs)}
        specials = [i for i, (_, placement) in enumerate(programs) if placement.program.special]
        ends = [ref.start + placement.program.length - 1 for ref, placement in programs]
        self.preempted = war.preempted_by(slot) is not None
        next_open = slot + 1 < SLOTS and war.preempted_by(slot + 1) is None
        #: By seat: a Lead-In earned here would count in the next slot (it is open and the network airs in it).
        self.lead_in_counts = tuple(next_open and lineup.at(slot + 1) is not None for lineup in war.lineups)
        self.programs: list[_OddsProgram] = []
        for seat, lineup in enumerate(war.lineups):
            found = lineup.at(slot)
            if found is None or self.preempted:
                continue
            start, placement = found
            ref, program = ProgramRef(lineup.network, start), placement.program
            points = tuple(
                (
                    sum(part.value for part in _parts(war, lineup, placement, slot, sharing, False)),
                    sum(part.value for part in _parts(war, lineup, placement, slot, sharing, True)),
                )
                for sharing in range(len(war.lineups) + 1)
            )
            base = None if program.super_bowl else (0 if program.special else program.rating)
            special = specials.index(index[ref]) if program.special else -1
            self.programs.append(
                _OddsProgram(index[ref], seat, program.colour, special, base, points, self.lead_in_counts[seat])
            )
        self.alive = sum(1 << i for i, end in enumerate(ends) if end > slot)  # programs still to air after it
        self.special_alive = tuple(ends[i] > slot for i in specials)
        # the Specials first rolled here (3.3: at their first slot that is resolved), and their rolls
        new = [
            p.special
            for p in self.programs
            if p.special >= 0 and all(war.preempted_by(earlier) for earlier in range(programs[p.ref][0].start, slot))
        ]
        self.going_on = tuple(j for j in new if self.special_alive[j])
        self.ending = tuple(j for j in new if not self.special_alive[j])
        self.going_on_rolls = _combinations([rolls[specials[j]] for j in self.going_on])
        self.ending_rolls = [
            (deltas, ways) for deltas, _, ways in _combinations([rolls[specials[j]] for j in self.ending])
        ]
        self.scale = 1
        for j in new:
            self.scale *= sum(ways for _, ways in rolls[specials[j]])

    @staticmethod
    def outcomes(totals: Sequence[int | None], stakes: Sequence[bool]) -> list[tuple[int | None, int | None, int]]:
        """``(lowest, winner, denominator)`` for each outcome of the slot's tie-breaks (positions among the
        programs on the air, ``None``: nobody), each of probability ``1 / denominator``: every tie-break is an
        exactly uniform order of the tied networks (6.7)."""
        standing = _standing(totals, stakes)
        if not standing.low_tie and not standing.high_tie:
            return [(standing.lowest, standing.winner, 1)]
        lows, highs = standing.low_tie or (None,), standing.high_tie or (None,)
        pairs = [(low, high) for low in lows for high in highs if low is None or low != high]
        return [(*standing.settle(low, high), len(pairs)) for low, high in pairs]

    def _ranked(self, totals: list[int | None], ending_at: Sequence[int]) -> list[tuple[list[int | None], int]]:
        """The rolls of the Specials ending here (at positions ``ending_at`` of ``totals``, which holds
        their totals before the roll) grouped by how they rank: ``(totals with one such roll, ways)``."""
        if not ending_at:
            return [(totals, 1)]
        rest = [total for position, total in enumerate(totals) if total is not None and position not in ending_at]
        low, high = (min(rest), max(rest)) if rest else (0, 0)
        classes: dict[tuple | int, list] = {}
        before = [_rated(totals[position]) for position in ending_at]
        if len(ending_at) == 1:  # the usual case, made quick
            (rated,) = before
            for (delta,), ways in self.ending_rolls:
                total = rated + delta
                key = (total > low) - (total < low) + 3 * ((total > high) - (total < high)) if rest else 0
                entry = classes.get(key)
                if entry is None:
                    classes[key] = [(total,), ways]
                else:
                    entry[1] += ways
        else:
            for deltas, ways in self.ending_rolls:
                ranked = tuple(total + delta for total, delta in zip(before, deltas))
                order = tuple((a > b) - (a < b) for i, a in enumerate(ranked) for b in ranked[i + 1 :])
                if rest:
                    order += tuple(
                        (total > low) - (total < low) + 3 * ((total > high) - (total < high)) for total in ranked
                    )
                entry = classes.get(order)
                if entry is None:
                    classes[order] = [ranked, ways]
                else:
                    entry[1] += ways
        grouped = []
        for ranked, ways in classes.values():
            full = list(totals)
            for position, total in zip(ending_at, ranked):
                full[position] = total
            grouped.append((full, ways))
        return grouped

    def step(self, states: Mapping[_State, int], lost: Sequence[int]) -> tuple[dict[_State, int], list[int], int]:
        """From the ``states`` before this slot (state → weight) and the weight ``lost`` so far by program:
        the states after it, the weight lost by then, and the factor by which it multiplied the denominator."""
        special_alive, alive = self.special_alive, self.alive
        if self.preempted:  # 9.91: nothing happens, no Lead-In out of it
            merged: dict[_State, int] = {}
            for (cancelled, sums, _), weight in states.items():
                key = (cancelled & alive, tuple(v if keep else 0 for v, keep in zip(sums, special_alive)), -1)
                merged[key] = merged.get(key, 0) + weight
            return merged, list(lost), 1
        buckets: dict[int, tuple[dict[_State, int], list[int]]] = {1: ({}, [0] * len(lost))}
        lead_in_counts, outcomes = self.lead_in_counts, self.outcomes
        for (cancelled, sums, lead_in), weight in states.items():
            on_air = [p for p in self.programs if not cancelled >> p.ref & 1]
            sharing = Counter(p.colour for p in on_air)
            fixed = [
                None
                if p.base is None
                else p.base
                + p.points[sharing[p.colour]][p.seat == lead_in]
                + (SPECIAL_PER_PIP * sums[p.special] if p.special >= 0 else 0)
                for p in on_air
            ]
            stakes = [p.stake for p in on_air]
            position_of = {p.special: position for position, p in enumerate(on_air) if p.special >= 0}
            going_on_at = [position_of[j] for j in self.going_on]
            ending_at = [position_of[j] for j in self.ending]
            kept = [v if keep else 0 for v, keep in zip(sums, special_alive)]
            mask = cancelled & alive
            for deltas, going_on_sums, going_on_ways in self.going_on_rolls:
                totals = fixed[:]
                for position, delta in zip(going_on_at, deltas):
                    before = totals[position]
                    assert before is not None, "a Special always has a total; only the Super Bowl has none (9.8)"
                    totals[position] = before + delta
                for j, total in zip(self.going_on, going_on_sums):
                    kept[j] = total
                after = tuple(kept)
                for ranked, ending_ways in self._ranked(totals, ending_at):
                    ways = weight * going_on_ways * ending_ways
                    for lowest, winner, denominator in outcomes(ranked, stakes):
                        bucket = buckets.get(denominator) or buckets.setdefault(denominator, ({}, [0] * len(lost)))
                        after_mask, after_sums = mask, after
                        if lowest is not None:
                            program = on_air[lowest]
                            bucket[1][program.ref] += ways
                            after_mask |= (1 << program.ref) & alive
                            if program.special >= 0 and after[program.special]:
                                after_sums = after[: program.special] + (0,) + after[program.special + 1 :]
                        seat = -1 if winner is None else on_air[winner].seat
                        state = (after_mask, after_sums, seat if seat >= 0 and lead_in_counts[seat] else -1)
                        bucket[0][state] = bucket[0].get(state, 0) + ways
        common = lcm(*buckets)
        merged, total_lost = {}, [weight * self.scale * common for weight in lost]
        for denominator, (after_states, gone) in buckets.items():
            factor = common // denominator
            for state, weight in after_states.items():
                merged[state] = merged.get(state, 0) + weight * factor
            for i, weight in enumerate(gone):
                total_lost[i] += weight * factor
        return merged, total_lost, self.scale * common


def _resolved_state(
    war: War, programs: Sequence[tuple[ProgramRef, Placement]], resolution: Resolution
) -> tuple[_State, list[int]]:
    """The odds' state after ``resolution``'s resolved half-hours (see the comment above) and the programs
    already lost (1 each): the cancelled programs still to air, the rolled sums of the Specials still to air
    and the seat that earned the next half-hour's Lead-In (6.4)."""
    done = len(resolution.slots)
    gone = {c.ref for c in resolution.cancellations}
    cancelled, sums, lost = 0, [], []
    for i, (ref, placement) in enumerate(programs):
        still = ref.start + placement.program.length - 1 >= done
        lost.append(1 if ref in gone else 0)
        if ref in gone and still:
            cancelled |= 1 << i
        if placement.program.special:
            rolled = dict(resolution.dice_used).get(special_key(ref))
            sums.append(sum(rolled) if rolled and still and ref not in gone else 0)
    seat = -1
    if done:
        winner = resolution.slots[done - 1].wins_time_slot
        if winner is not None and done < SLOTS and war.preempted_by(done) is None:
            index = war.networks.index(winner)
            seat = index if war.lineups[index].at(done) is not None else -1
    return (cancelled, tuple(sums), seat), lost


def survival_odds(
    war: War, dice: Mapping[str, Sequence[int]] | None = None, after: Resolution | None = None
) -> dict[ProgramRef, Fraction]:
    """Each program's exact chance of not being cancelled, as a :class:`~fractions.Fraction`, keyed by
    :class:`ProgramRef` in line-up order. For use after the reveal (and Preemption) and before the dice.

    Every outstanding Special roll is enumerated (2d6: the 11 sums weighted by their share of the 36
    throws, 3.3); Special rolls already in ``dice`` are used. Every tie-break is an exactly uniform random
    order of the tied networks (6.7; tie-break dice in ``dice`` are ignored). The war is followed slot by
    slot, merging the branches that leave the same war to play (see the comment above), so four Specials
    and ties take milliseconds. Raises like :func:`check_war`, and :class:`~companion.errors.DiceError` for
    a Special roll in ``dice`` that is not two dice.

    ``after``: a :class:`Resolution` of ``war`` part of the way (with the dice, tie-breaks included, rolled
    so far): the odds are then those given everything it settled, followed on from its first unresolved
    half-hour (a cancelled program's chance is 0, one that has aired all its half-hours 1).
    """
    check_war(war)
    dice = dice or {}
    programs = list(war.programs())
    rolls: dict[int, tuple[tuple[int, int], ...]] = {}
    for i, (ref, placement) in enumerate(programs):
        if placement.program.special:
            key = special_key(ref)
            if key in dice:
                rolls[i] = ((sum(_special_request(ref, placement.program).check(ref.network, dice[key])), 1),)
            else:
                rolls[i] = tuple(TWO_DICE.items())
    specials = len(rolls)
    states: dict[_State, int] = {(0, (0,) * specials, -1): 1}
    lost, denominator, first = [0] * len(programs), 1, 0
    if after is not None:
        state, lost = _resolved_state(war, programs, after)
        states, first = {state: 1}, len(after.slots)
    for slot in range(first, SLOTS):
        states, lost, scale = _OddsSlot(war, slot, programs, rolls).step(states, lost)
        denominator *= scale
    return {ref: 1 - Fraction(gone, denominator) for (ref, _), gone in zip(programs, lost)}


# -- rendering --------------------------------------------------------------------------------------------------


def score_line(slot: SlotResult, score: Score) -> str:
    """``"ABS: MONDAY NIGHT RUGBY: 85 (80 + 5 [Network News]). Wins Time Slot."``; a ``*`` marks a
    program in a tie-break (explained below the slot)."""
    line = f"{score.network}: {score.text}."
    if slot.wins_time_slot == score.network:
        line += " Wins Time Slot."
    if slot.cancellation is not None and slot.cancellation.ref == score.ref:
        line += " Cancelled."
    if any(score.network in tie.networks for tie in slot.ties):
        line += "*"
    return line


def render_slot(slot: SlotResult) -> list[str]:
    """The slot header, one ``- `` line per program, then ``*`` tie lines and indented notes."""
    lines = [slot.label]
    lines += [f"- {score_line(slot, score)}" for score in slot.scores]
    lines += [f"*{tie.text}" for tie in slot.ties]
    if slot.cancellation is not None:
        lines.append(f"  {slot.cancellation.text}")
    lines += [f"  {note}" for note in slot.notes]
    if not slot.scores and slot.preempted_by is None:
        lines.append("  No programs on the air.")
    return lines


def render_resolution(resolution: Resolution) -> list[str]:
    """The war in the rulebook's style, slot by slot; a last line names a missing roll, if any."""
    war = resolution.war
    head = f"Ratings War: {', '.join(war.networks)}" + (" (February Sweeps)" if war.february_sweeps else "")
    lines = [head]
    for lineup in war.lineups:
        if lineup.preemption is not None:
            lines.append(f"{lineup.network} preempts {span_label(lineup.preemption, 2)} (TV Wars 9.91).")
    for slot in resolution.slots:
        lines += render_slot(slot)
    if resolution.pending is not None:
        lines.append(f"Waiting for dice: {resolution.pending.key}: {resolution.pending.request.describe()}")
    return lines


def render_aftermath(aftermath: Sequence[NetworkAftermath]) -> list[str]:
    """``After the war`` and one line per loss and per tile, each with its rule."""
    lines = ["After the war"]
    for net in aftermath:
        for fate in net.programs_lost:
            lines.append(f"- {net.network} loses {fate.program}: {fate.reason} ({fate.rule}).")
        for tile in net.tiles_returned:
            on = f" on {tile.program}" if tile.program else ""
            where = {
                "Star pile": "returns to the bottom of the Star pile",
                "Emmy Awards pile": "returns to the Emmy Awards pile",
                "out of play": "is removed from play",
                "back in play": "goes back into play",
            }[tile.destination]
            lines.append(f"- {net.network}: {tile.tile}{on} {where} ({tile.rule}).")
        for tile in net.tiles_kept:
            on = f", played on {tile.program}," if tile.program else ""
            lines.append(f"- {net.network} keeps {tile.tile}{on} ({tile.rule}).")
        if not net.programs_lost and not net.tiles_returned and not net.tiles_kept:
            lines.append(f"- {net.network} loses nothing.")
    return lines


def render_odds(war: War, odds: Mapping[ProgramRef, Fraction]) -> list[str]:
    """``Chance of surviving the war`` and one line per program: exact fraction and percentage."""
    lines = ["Chance of surviving the war (exact, before the dice)"]
    for ref, placement in war.programs():
        chance = odds[ref]
        lines.append(
            f"- {ref.network}: {placement.program.title} ({span_label(ref.start, placement.program.length)}): "
            f"{chance} ({float(chance):.1%})"
        )
    return lines


# -- as data ------------------------------------------------------------------------------------------------


def _score_dict(slot: SlotResult, score: Score) -> dict:
    return {
        "network": score.network,
        "program": score.program,
        "starts": SLOT_STARTS[score.ref.start],
        "colour": score.colour,
        "base": score.base,
        "base_note": score.base_note,
        "parts": [{"label": p.label, "value": p.value, "rule": p.rule} for p in score.parts],
        "total": score.total,
        "automatic_win": score.automatic_win,
        "text": score.text,
        "line": score_line(slot, score),
    }


def _slot_dict(slot: SlotResult) -> dict:
    cancellation = slot.cancellation
    return {
        "slot": slot.label,
        "preempted_by": slot.preempted_by,
        "scores": [_score_dict(slot, score) for score in slot.scores],
        "winner": slot.winner,
        "wins_time_slot": slot.wins_time_slot,
        "lead_in_at_stake": slot.lead_in_at_stake,
        "cancelled": None
        if cancellation is None
        else {
            "network": cancellation.ref.network,
            "program": cancellation.program,
            "starts": SLOT_STARTS[cancellation.ref.start],
            "total": cancellation.total,
            "reason": cancellation.reason,
            "rule": cancellation.rule,
            "text": cancellation.text,
        },
        "ties": [
            {
                "purpose": tie.purpose,
                "total": tie.total,
                "networks": list(tie.networks),
                "rounds": [
                    [{"network": r.network, "key": r.key, "dice": list(r.values)} for r in round_]
                    for round_ in tie.rounds
                ],
                "lowest": tie.lowest,
                "highest": tie.highest,
                "rule": tie.rule,
                "text": tie.text,
            }
            for tie in slot.ties
        ],
        "notes": list(slot.notes),
    }


def _aftermath_dict(net: NetworkAftermath) -> dict:
    def program(fate: ProgramFate) -> dict:
        return {
            "program": fate.program,
            "starts": SLOT_STARTS[fate.ref.start],
            "reason": fate.reason,
            "rule": fate.rule,
        }

    def tile(fate: TileFate) -> dict:
        return {"tile": fate.tile, "program": fate.program, "destination": fate.destination, "rule": fate.rule}

    return {
        "network": net.network,
        "programs_lost": [program(f) for f in net.programs_lost],
        "programs_kept": [program(f) for f in net.programs_kept],
        "tiles_kept": [tile(f) for f in net.tiles_kept],
        "tiles_returned": [tile(f) for f in net.tiles_returned],
        "super_bowl_lost": net.super_bowl_lost,
        "preemption_returned": net.preemption_returned,
        "programs_left": net.programs_left,
    }


def resolution_to_dict(resolution: Resolution, odds: Mapping[ProgramRef, Fraction] | None = None) -> dict:
    """The resolution as JSON-ready data: networks, slots (scores with parts, winner, cancellation, ties,
    notes), the dice used, the pending roll, the aftermath (when complete) and, if given, the odds
    (``{"fraction": "29/36", "value": 0.805…}`` per program)."""
    war = resolution.war
    data: dict[str, Any] = {
        "networks": list(war.networks),
        "february_sweeps": war.february_sweeps,
        "house_rules": {"counter_programming_four": war.house_rules.counter_programming_four},
        "preemption": {
            lineup.network: span_label(lineup.preemption, 2) for lineup in war.lineups if lineup.preemption is not None
        },
        "complete": resolution.complete,
        "slots": [_slot_dict(slot) for slot in resolution.slots],
        "dice": {key: list(values) for key, values in resolution.dice_used},
        "unused_dice": list(resolution.unused_dice),
        "pending": None
        if resolution.pending is None
        else {
            "key": resolution.pending.key,
            "roller": resolution.pending.request.roller,
            "count": resolution.pending.request.count,
            "reason": resolution.pending.request.reason,
            "rule": resolution.pending.request.rule,
        },
        "aftermath": [_aftermath_dict(net) for net in consequences(resolution)] if resolution.complete else None,
    }
    if odds is not None:
        data["survival_odds"] = [
            {
                "network": ref.network,
                "program": war.placement(ref).program.title,
                "starts": SLOT_STARTS[ref.start],
                "fraction": str(chance),
                "value": float(chance),
            }
            for ref, chance in odds.items()
        ]
    return data


# -- public helpers for the war at the table (war_at_table.py) ---------------------------------------------


def bonus_fate(placement: Placement, cancelled: bool) -> TileFate:
    """What becomes of ``placement``'s bonus tile after the war, its program ``cancelled`` or not (6.2,
    5.11, 5.21, 5.31): a :class:`TileFate`. ``placement.bonus`` must not be ``None``."""
    return _tile_fate(placement, cancelled)


def slot_dict(slot: SlotResult) -> dict:
    """One resolved half-hour as JSON-ready data (as in :func:`resolution_to_dict`'s ``slots``)."""
    return _slot_dict(slot)
