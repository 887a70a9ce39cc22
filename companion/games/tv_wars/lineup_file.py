"""The Ratings War calculator's input: a TOML file of revealed line-ups (``companion ratings-war FILE``).

The sample is ``tests/data/ratings-war-example.toml``: the rulebook's Ratings War example. The format::

    february_sweeps = false              # optional; true allows the Super Bowl (TV Wars 9.8)

    [house_rules]                        # optional
    counter_programming_four = -30       # four networks of one colour in a slot: -30 (default) or -20 (6.5)

    [[network]]                          # one per network, in seat order (2 to 4)
    name = "ABS"
    best_network_news = true             # optional: holds the tile, +5 at 8:00-8:30 (6.3)
    promotion = false                    # optional: paid $5,000, +10 on every program (6.6)
    preemption = "9:30"                  # optional: the Preemption tile's hour starts here, "8:00".."10:00" (9.91)
    held_bonuses = [{ critics_choice = -12 }]   # optional: bonus tiles owned but not played (5.3 check)
    # (keys of a network go before its [[network.program]] tables: TOML puts later keys in the program)

    [[network.program]]                  # in order from 8:00, no gaps (6.1)
    name = "MONDAY NIGHT RUGBY"          # optional
    length = 4                           # half-hours 1..4; or minutes = 30 | 60 | 90 | 120
    colour = "yellow"                    # green | red | blue | yellow, or the type: "Situation Comedy",
                                         #   "Action/Adventure", "Drama", "Other"
    rating = 80                          # Rating Points, 10..90 in tens (3); instead of a rating:
    # special = true                     #   a Special, 10 × 2d6 rolled at its first slot (3.3)
    # movie = true                       #   an Academy Award Movie: 100 RP, length 4 (3.2)
    # super_bowl = true                  #   the Super Bowl: 8:00-9:00, February Sweeps only, no colour (9.8)
    bonus = { star = 30, name = "Flirt Reynolds" }   # optional, one tile (6.2): star = 10|20|30,
                                         #   emmy = 50, critics_choice = -36..36, viewers_views = -28..29

    [[network.held]]                     # optional: programs owned but not played (6.1 check);
    length = 2                           #   same keys as a program, without bonus
    colour = "green"
    rating = 40

    [dice]                               # optional: rolls already made, two dice each
    "NBS special 9:30" = [3, 4]          # the Special of NBS starting at 9:30 (3.3)
    "PBC tie 8:30 1" = [5, 4]            # PBC's roll in tie-break round 1 of the 8:30-9:00 slot (6.7);
    "NBS tie 8:30 1" = [3, 2]            #   a re-roll, or another tie in that slot, is round 2, …

Unknown keys are refused (a typo would otherwise be silently ignored). Mistakes raise
:class:`LineUpFileError` naming the file, the key (``network[2].program[1].rating``) and the problem; rule
violations found by :func:`~companion.games.tv_wars.ratings_war.check_war` raise ``IllegalCommand``.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.checks import is_whole
from companion.errors import IllegalCommand, MalformedCommand
from companion.games.tv_wars.ratings_war import (
    BONUS_KINDS,
    COLOURS,
    SLOT_STARTS,
    SLOTS,
    Bonus,
    HouseRules,
    LineUp,
    Placement,
    Program,
    War,
)

_TYPES = {kind.lower(): colour for colour, kind in COLOURS.items()}
_PROGRAM_KEYS = {"name", "length", "minutes", "colour", "type", "rating", "special", "movie", "super_bowl", "bonus"}
_NETWORK_KEYS = {"name", "best_network_news", "promotion", "preemption", "held_bonuses", "program", "held"}
_TOP_KEYS = {"february_sweeps", "house_rules", "network", "dice"}


class LineUpFileError(MalformedCommand):
    """A line-up file that cannot be read: ``file``, ``key`` (dotted path, ``""`` for the whole file)
    and ``problem`` in words."""

    def __init__(self, file: str, key: str, problem: str) -> None:
        self.file, self.key, self.problem = str(file), key, problem
        super().__init__(f"{self.file}: {key}: {problem}" if key else f"{self.file}: {problem}")


def load_lineup_file(path: str | Path) -> tuple[War, dict[str, tuple[int, ...]]]:
    """Read ``path`` (format in this module's docstring); return the :class:`War` and its dice (key → faces).

    Raises :class:`LineUpFileError` for an unreadable or malformed file.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise LineUpFileError(str(path), "", f"cannot read it: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        raise LineUpFileError(str(path), "", f"it is not UTF-8 text (byte {error.start})") from None
    return parse_lineup_text(text, str(path))


def parse_lineup_text(text: str, source: str = "<line-ups>") -> tuple[War, dict[str, tuple[int, ...]]]:
    """Parse TOML ``text`` (named ``source`` in errors); return the :class:`War` and its dice."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise LineUpFileError(source, "", f"not valid TOML: {error}") from None
    return parse_lineups(data, source)


def parse_lineups(data: Mapping[str, Any], source: str = "<line-ups>") -> tuple[War, dict[str, tuple[int, ...]]]:
    """Build the :class:`War` and dice from already-parsed TOML ``data``."""
    _no_unknown(data, _TOP_KEYS, "", source)
    networks = data.get("network", [])
    if not isinstance(networks, list) or not networks:
        raise LineUpFileError(source, "network", "give each network as a [[network]] table")
    house = data.get("house_rules", {})
    _no_unknown(house, {"counter_programming_four"}, "house_rules", source)
    try:
        rules = HouseRules(**house)
    except MalformedCommand as error:
        raise LineUpFileError(source, "house_rules", str(error)) from None
    lineups = tuple(_lineup(net, f"network[{i + 1}]", source) for i, net in enumerate(networks))
    war = War(lineups, _bool(data, "february_sweeps", "", source), rules)
    return war, _dice(data.get("dice", {}), source)


def _no_unknown(table: Any, known: set[str], where: str, source: str) -> None:
    if not isinstance(table, dict):
        raise LineUpFileError(source, where, f"must be a table, not {table!r}")
    unknown = sorted(set(table) - known)
    if unknown:
        raise LineUpFileError(
            source,
            f"{where}.{unknown[0]}" if where else unknown[0],
            f"unknown key; known keys: {', '.join(sorted(known))}",
        )


def _bool(table: Mapping[str, Any], key: str, where: str, source: str) -> bool:
    value = table.get(key, False)
    if not isinstance(value, bool):
        raise LineUpFileError(source, f"{where}.{key}" if where else key, f"must be true or false, not {value!r}")
    return value


def _lineup(net: Any, where: str, source: str) -> LineUp:
    _no_unknown(net, _NETWORK_KEYS, where, source)
    name = net.get("name")
    if not isinstance(name, str) or not name.strip():
        raise LineUpFileError(source, f"{where}.name", "every network needs a name")
    programs = tuple(
        _placement(item, f"{where}.program[{i + 1}]", source)
        for i, item in enumerate(_list(net, "program", where, source))
    )
    held = tuple(
        _program(item, f"{where}.held[{i + 1}]", source, allow_bonus=False)
        for i, item in enumerate(_list(net, "held", where, source))
    )
    held_bonuses = tuple(
        _bonus(item, f"{where}.held_bonuses[{i + 1}]", source)
        for i, item in enumerate(_list(net, "held_bonuses", where, source))
    )
    preemption = net.get("preemption")
    if preemption is not None:
        if preemption not in SLOT_STARTS[: SLOTS - 1]:
            raise LineUpFileError(
                source,
                f"{where}.preemption",
                f"the preempted hour starts at one of {', '.join(SLOT_STARTS[: SLOTS - 1])}, "
                f"not {preemption!r} (TV Wars 9.91)",
            )
        preemption = SLOT_STARTS.index(preemption)
    promotion = _bool(net, "promotion", where, source)
    best_network_news = _bool(net, "best_network_news", where, source)
    try:
        return LineUp(name, programs, promotion, best_network_news, preemption, held, held_bonuses)
    except MalformedCommand as error:
        raise LineUpFileError(source, where, str(error)) from None


def _list(table: Mapping[str, Any], key: str, where: str, source: str) -> list:
    value = table.get(key, [])
    if not isinstance(value, list):
        raise LineUpFileError(source, f"{where}.{key}", f"must be a list of tables, not {value!r}")
    return value


def _placement(item: Any, where: str, source: str) -> Placement:
    program = _program(item, where, source, allow_bonus=True)
    bonus = item.get("bonus")
    if isinstance(bonus, list):
        if len(bonus) > 1:
            raise IllegalCommand(
                f"{where} carries {len(bonus)} bonus tiles; only one may be used with a program", "TV Wars 6.2"
            )
        bonus = bonus[0] if bonus else None
    return Placement(program, None if bonus is None else _bonus(bonus, f"{where}.bonus", source))


def _program(item: Any, where: str, source: str, *, allow_bonus: bool) -> Program:
    _no_unknown(item, _PROGRAM_KEYS if allow_bonus else _PROGRAM_KEYS - {"bonus"}, where, source)
    if ("length" in item) == ("minutes" in item) and not item.get("movie") and not item.get("super_bowl"):
        raise LineUpFileError(source, where, "give its length in half-hours (length = 1..4) or minutes, not both")
    length = item.get("length")
    if "minutes" in item:
        minutes = item["minutes"]
        if minutes not in (30, 60, 90, 120) or isinstance(minutes, bool):
            raise LineUpFileError(source, f"{where}.minutes", f"must be 30, 60, 90 or 120, not {minutes!r}")
        length = minutes // 30
    colour = _colour(item, where, source)
    kinds = [kind for kind in ("special", "movie", "super_bowl") if _bool(item, kind, where, source)]
    if len(kinds) > 1:
        raise LineUpFileError(source, where, f"a program is only one of special, movie, super_bowl, not {kinds}")
    name = item.get("name", "")
    try:
        if "super_bowl" in kinds:
            if length not in (None, 2) or colour is not None or "rating" in item:
                raise MalformedCommand("the Super Bowl needs no length, colour or rating (8:00-9:00, TV Wars 9.8)")
            return Program.super_bowl_tile() if not name else Program(2, None, None, name, super_bowl=True)
        if "movie" in kinds:
            return Program(4 if length is None else length, colour, item.get("rating"), name, academy_award_movie=True)
        if "special" in kinds:
            if "rating" in item:
                raise MalformedCommand("a Special has no rating; its value is rolled (TV Wars 3.3)")
            return Program(length, colour, None, name, special=True)
        if "rating" not in item:
            raise MalformedCommand("give a rating (10..90), or special/movie/super_bowl = true")
        return Program(length, colour, item["rating"], name)
    except MalformedCommand as error:
        raise LineUpFileError(source, where, str(error)) from None


def _colour(item: Mapping[str, Any], where: str, source: str) -> str | None:
    if "colour" in item and "type" in item:
        raise LineUpFileError(source, where, "give colour or type, not both")
    if "colour" in item:
        colour = item["colour"]
        if not isinstance(colour, str) or colour.lower() not in COLOURS:
            raise LineUpFileError(source, f"{where}.colour", f"must be one of {', '.join(COLOURS)}, not {colour!r}")
        return colour.lower()
    if "type" in item:
        kind = item["type"]
        if not isinstance(kind, str) or kind.lower() not in _TYPES:
            raise LineUpFileError(
                source, f"{where}.type", f"must be one of {', '.join(COLOURS.values())}, not {kind!r}"
            )
        return _TYPES[kind.lower()]
    if item.get("super_bowl"):
        return None
    raise LineUpFileError(source, where, "give its colour (green, red, blue, yellow) or type")


def _bonus(item: Any, where: str, source: str) -> Bonus:
    _no_unknown(item, set(BONUS_KINDS) | {"name"}, where, source)
    kinds = [kind for kind in BONUS_KINDS if kind in item]
    if len(kinds) != 1:
        raise LineUpFileError(source, where, f"a bonus tile is exactly one of {', '.join(BONUS_KINDS)} = value")
    try:
        return Bonus(kinds[0], item[kinds[0]], item.get("name", ""))
    except MalformedCommand as error:
        raise LineUpFileError(source, where, str(error)) from None


def _dice(table: Any, source: str) -> dict[str, tuple[int, ...]]:
    if not isinstance(table, dict):
        raise LineUpFileError(source, "dice", "must be a table of \"key\" = [die, die]")
    dice = {}
    for key, values in table.items():
        if not isinstance(values, list) or len(values) != 2 or any(not is_whole(v) or not 1 <= v <= 6 for v in values):
            raise LineUpFileError(
                source, f"dice.{key}", f"must be two dice, each 1 to 6, such as [3, 4], not {values!r}"
            )
        dice[key] = tuple(values)
    return dice
