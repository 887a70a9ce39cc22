"""TV Wars tiles read by a tile reader: what a learned tag stands for, and a line-up from the tags placed
on a Prime Time Line-Up card (TV Wars 6, 6.1, 6.2).

A learned tile (:class:`companion.tiles.Tile`) of kind ``"program"`` has details ``{"length": 1-4
half-hours, "colour": "green"|"red"|"blue"|"yellow", "rating": 10-90}`` or ``"special": true`` or
``"movie": true`` (an Academy Award Movie), and an optional ``"name"``. A tile of kind ``"bonus"`` has
``{"bonus": "star"|"emmy"|"critics_choice"|"viewers_views", "value": RP}`` and an optional ``"name"``.

Reader slots on the card: slots 1-6 are the half-hour positions 8:00 to 10:30 of the Program column; a
program tile's tag sits at the position where the program starts. Slots 7-12 are the bonus positions
beside them (slot 6 + k holds the bonus of the program starting at position k).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from companion.errors import IllegalCommand, MalformedCommand
from companion.games.tv_wars.ratings_war import SLOT_STARTS, Bonus, LineUp, Placement, Program
from companion.tiles import Tile

PROGRAM_SLOTS = range(1, 7)
BONUS_SLOTS = range(7, 13)


def program_from_tile(tile: Tile) -> Program:
    """The :class:`Program` a learned ``program`` tile stands for; :class:`MalformedCommand` otherwise."""
    if tile.kind != "program":
        raise MalformedCommand(f"tag {tile.uid} is a {tile.kind} tile, not a program")
    d = tile.details
    if d.get("movie"):
        return Program.movie(d.get("name", ""), d.get("colour", "yellow"))
    _require(tile, "length", "a program's length in half-hours (TV Wars 2.3)")
    return Program(d["length"], d.get("colour"), d.get("rating"), d.get("name", ""), special=bool(d.get("special")))


def bonus_from_tile(tile: Tile) -> Bonus:
    """The :class:`Bonus` a learned ``bonus`` tile stands for; :class:`MalformedCommand` otherwise."""
    if tile.kind != "bonus":
        raise MalformedCommand(f"tag {tile.uid} is a {tile.kind} tile, not a bonus tile")
    _require(tile, "bonus", "which bonus tile it is (TV Wars 5)")
    _require(tile, "value", "the tile's value in Rating Points (TV Wars 5)")
    return Bonus(tile.details["bonus"], tile.details["value"], tile.details.get("name", ""))


def _require(tile: Tile, key: str, what: str) -> None:
    """Refuse a learned tile whose details lack ``key`` (:class:`MalformedCommand` naming ``what`` it
    gives); the value itself is checked by :class:`Program`/:class:`Bonus`."""
    if key not in tile.details:
        raise MalformedCommand(f"tag {tile.uid} is a {tile.kind} tile learned without {what}; learn it again")


def lineup_from_slots(
    network: str,
    placed: Mapping[int, str],
    lookup: Callable[[str], Tile | None],
    *,
    promotion: bool = False,
    best_network_news: bool = False,
) -> LineUp:
    """Build ``network``'s line-up from the tags ``placed`` on its card's reader (slot → tag UID).

    Raises :class:`MalformedCommand` for an unknown tag (learn it first), a tile in the wrong kind of slot or
    a slot outside 1-12, and :class:`IllegalCommand` citing TV Wars 6.1 for a gap or an overlap in the
    Program column, or 6.2 for a bonus beside no program. Further legality (most programming, 3.23, 5.3)
    is :func:`companion.games.tv_wars.ratings_war.check_lineup`'s job.
    """

    def tile_at(slot: int) -> Tile:
        tile = lookup(placed[slot])
        if tile is None:
            raise MalformedCommand(
                f"{network}: the tag {placed[slot]} on slot {slot} is not learned yet; learn it first"
            )
        return tile

    for slot in placed:
        if slot not in PROGRAM_SLOTS and slot not in BONUS_SLOTS:
            raise MalformedCommand(f"{network}: reader slot {slot} is not on the card (1-12)")
    starts: dict[int, Program] = {}
    for slot in sorted(s for s in placed if s in PROGRAM_SLOTS):
        starts[slot - 1] = program_from_tile(tile_at(slot))
    placements, at = [], 0
    for start in sorted(starts):
        if start != at:
            gap = (
                "leaves " + SLOT_STARTS[at] + " empty"
                if start > at
                else f"starts at {SLOT_STARTS[start]}, inside the program before it"
            )
            raise IllegalCommand(f"{network}: the program at {SLOT_STARTS[start]} {gap}", "TV Wars 6.1")
        bonus_slot = start + 7
        bonus = bonus_from_tile(tile_at(bonus_slot)) if bonus_slot in placed else None
        placements.append(Placement(starts[start], bonus))
        at += starts[start].length
    for slot in (s for s in placed if s in BONUS_SLOTS):
        if slot - 7 not in starts:
            raise IllegalCommand(
                f"{network}: the bonus tile beside {SLOT_STARTS[slot - 7]} has no program starting there", "TV Wars 6.2"
            )
    return LineUp(network, tuple(placements), promotion=promotion, best_network_news=best_network_news)
