"""TV Wars 2.3: each network's starting programming, entered once, before play.

Each network starts with ten hours of programming: five 30-minute, four 60-minute, one 90-minute and one
120-minute programs, "no more than two programs of the same type and length. Exception: A player may
select up to five Situation Comedies." (Ruling in ``docs/rulings.md``: up to five Situation Comedies in
all; the house rule ``situation_comedies_per_length`` reads it as five of each length.) The types are
chosen openly; the Producer deals the tiles face down, so each tile's rating (or that it is a Special) is
entered privately by its owner (9.1) with the selection.

Command :class:`SelectStartingProgramming`; event ``starting_programming``
``{"network", "tiles": [ProgramTile.to_dict(), ...], "rule": "TV Wars 2.3"}`` (the network's holdings
become tracked tiles and its half-hour count follows them from then on, 9.4).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from companion.commands import Command
from companion.errors import IllegalCommand, MalformedCommand
from companion.games.tv_wars.events import StartingProgramming, TvWarsEvent
from companion.games.tv_wars.holdings import (
    MINUTES,
    PROGRAM,
    PROGRAM_INVENTORY,
    SPECIAL,
    TYPE_WORDS,
    ProgramTile,
    Supply,
)

if TYPE_CHECKING:
    from companion.games.tv_wars import TvWarsState

STARTING_PROGRAMMING = StartingProgramming.TYPE
#: Program tiles each network starts with, by length in half-hours (2.3).
STARTING_LENGTHS = {1: 5, 2: 4, 3: 1, 4: 1}
MAX_SAME_TYPE_AND_LENGTH = 2  # 2.3
MAX_SITUATION_COMEDIES = 5  # 2.3 exception (in all; per length as a house rule, see docs/rulings.md)


@dataclass(frozen=True)
class ProgramSpec:
    """One program in a selection or a purchase: ``length`` in half-hours (1-4), ``colour`` (``green``,
    ``red``, ``blue``, ``yellow``), ``rating`` in RP (10-90 in tens; ``None`` with ``special=True`` for a
    Special, 3.3) and an optional ``name``. Checked when used (rule 3)."""

    length: int
    colour: str
    rating: int | None = field(default=None, repr=False)  # secret (9.1): kept out of logs
    special: bool = field(default=False, repr=False)
    name: str = field(default="", repr=False)

    def tile(self, tile_id: str) -> ProgramTile:
        """The :class:`ProgramTile` ``tile_id`` this spec describes; raises :class:`MalformedCommand`."""
        if not isinstance(self.special, bool):
            raise MalformedCommand(f"special is true or false, not {self.special!r}")
        if self.special and self.rating is not None:
            raise MalformedCommand("a Special has no set rating; it is rolled in each war (TV Wars 3.3)")
        return ProgramTile(
            tile_id, self.length, self.colour, self.rating, self.name or "", SPECIAL if self.special else PROGRAM
        )


@dataclass(frozen=True, kw_only=True)
class SelectStartingProgramming(Command):
    """``network`` announces and receives its eleven starting Program tiles (TV Wars 2.3): ``programs``
    is a tuple of :class:`ProgramSpec`, each with the rating its owner saw on the dealt tile."""

    network: str
    programs: tuple[ProgramSpec, ...]
    private = True


def check_selection(programs: tuple[ProgramSpec, ...], *, sitcoms_per_length: bool = False) -> None:
    """Raise :class:`IllegalCommand` (TV Wars 2.3) unless ``programs`` is five 30-, four 60-, one 90- and
    one 120-minute programs with at most two of one type and length, except Situation Comedies: at most
    five in all (``sitcoms_per_length``: the house rule, five of each length instead)."""
    for spec in programs:
        if not isinstance(spec, ProgramSpec):
            raise MalformedCommand(f"a starting program is a ProgramSpec, not {spec!r}")
        if spec.length not in STARTING_LENGTHS or isinstance(spec.length, bool):
            raise MalformedCommand(f"a program lasts 1 to 4 half-hours, not {spec.length!r} (TV Wars 3)")
        if spec.colour not in TYPE_WORDS:
            raise MalformedCommand(f"a program's colour is one of {', '.join(TYPE_WORDS)}, not {spec.colour!r}")
    lengths = Counter(spec.length for spec in programs)
    if dict(lengths) != STARTING_LENGTHS:
        have = ", ".join(f"{lengths.get(n, 0)} × {MINUTES[n]}" for n in STARTING_LENGTHS)
        raise IllegalCommand(
            f"the starting programming is five 30-, four 60-, one 90- and one 120-minute "
            f"programs; this selection has {have}",
            "TV Wars 2.3",
        )
    sitcoms = sum(1 for s in programs if s.colour == "green")
    if not sitcoms_per_length and sitcoms > MAX_SITUATION_COMEDIES:
        raise IllegalCommand(
            f"{sitcoms} Situation Comedies: a network may select up to {MAX_SITUATION_COMEDIES} Situation "
            f"Comedies in all (the house rule situation_comedies_per_length allows five of each length)",
            "TV Wars 2.3",
        )
    for (length, colour), count in Counter((s.length, s.colour) for s in programs).items():
        limit = MAX_SITUATION_COMEDIES if colour == "green" else MAX_SAME_TYPE_AND_LENGTH
        if count > limit:
            raise IllegalCommand(
                f"{count} {MINUTES[length]} {TYPE_WORDS[colour]} programs: at most {limit} of one type and length",
                "TV Wars 2.3",
            )


def decide_selection(state: TvWarsState, command: SelectStartingProgramming) -> list[TvWarsEvent]:
    """The ``starting_programming`` event for ``command``; refuses a second selection, a selection after
    play began, a wrong mix (2.3) or more tiles than the Inventory holds."""
    network = state.network(command.network)
    if network.holdings.tracked:
        raise IllegalCommand(f"{network.name} has already selected its starting programming", "TV Wars 2.3")
    programs = tuple(command.programs) if isinstance(command.programs, (tuple, list)) else None
    if programs is None:
        raise MalformedCommand(f"programs is a list of ProgramSpec, not {command.programs!r}")
    check_selection(programs, sitcoms_per_length=state.situation_comedies_per_length)
    supply: Supply = state.supply
    for length, count in STARTING_LENGTHS.items():
        if supply.programs_left(length) < count:
            raise IllegalCommand(
                f"only {supply.programs_left(length)} {MINUTES[length]} Program tiles are left", "TV Wars Inventory"
            )
    tiles = [spec.tile(f"P{supply.next_number + i}") for i, spec in enumerate(programs)]
    return [
        StartingProgramming.from_payload(
            {"network": network.name, "tiles": [t.to_dict() for t in tiles], "rule": "TV Wars 2.3"},
        )
    ]


def describe_selection(event: StartingProgramming) -> str:
    """Public line (9.1: lengths and types only): ``"ABS selects its starting programming: 10 hours
    (TV Wars 2.3)"`` followed by the half-hours per type."""
    tiles = [ProgramTile.from_dict(t) for t in event.tiles]
    by_type: Counter[str] = Counter()
    for tile in tiles:
        by_type[tile.type_word] += tile.length
    mix = ", ".join(f"{TYPE_WORDS[c]} {by_type[TYPE_WORDS[c]]}" for c in TYPE_WORDS if by_type[TYPE_WORDS[c]])
    hours = sum(t.length for t in tiles) / 2
    return f"{event.network} selects its starting programming, {hours:g} hours (half-hours: {mix}) (TV Wars 2.3)"


__all__ = [
    "ProgramSpec",
    "SelectStartingProgramming",
    "STARTING_PROGRAMMING",
    "check_selection",
    "decide_selection",
    "describe_selection",
    "PROGRAM_INVENTORY",
]
