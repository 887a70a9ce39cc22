"""The Telly Time genre grid: a 3×3 tile of genre squares and the bonuses for its eight lines.

Rulebook sections cited: "Telly Time Pilot Season", "Your Genre Grid", "Empty & Filled Squares",
"Mogul Bonus", "Solo Mode" (``rules/the-networks-telly-time.txt``).

Squares are indexed 0 to 8 row by row (0 = top left, 4 = the centre, 8 = bottom right) in commands and
the journal; people read them by position (:data:`SQUARE_NAMES`: "top-left", "centre", ...). A line is one
of :data:`LINES`: three rows, three columns and two diagonals, each with a bonus printed "at the end of
that line". The tiles' printed bonuses are not in the rulebook, so each is entered as a
:class:`LineBonus` (a label for the table, and any cash in $M and viewers the companion adds itself).

Everything here is pure: a :class:`GenreGrid` is a frozen value and every change returns a new one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from companion.checks import is_whole
from companion.errors import IllegalCommand, MalformedCommand
from companion.words import and_join, count, noun

#: Number of squares on a genre grid tile (3×3).
SQUARES = 9
#: The centre square, where the Pilot Season genre sits ("Telly Time Pilot Season").
CENTRE = 4

#: Square index -> its name by position on the 3×3 tile, for everything a person reads.
SQUARE_NAMES: tuple[str, ...] = (
    "top-left",
    "top-middle",
    "top-right",
    "middle-left",
    "centre",
    "middle-right",
    "bottom-left",
    "bottom-middle",
    "bottom-right",
)

#: Line id -> the three squares it runs through, in the order they are read.
LINES: dict[str, tuple[int, int, int]] = {
    "row1": (0, 1, 2),
    "row2": (3, 4, 5),
    "row3": (6, 7, 8),
    "col1": (0, 3, 6),
    "col2": (1, 4, 7),
    "col3": (2, 5, 8),
    "diag1": (0, 4, 8),
    "diag2": (2, 4, 6),
}
#: Line id -> its name in words, for the screen and the history.
LINE_NAMES: dict[str, str] = {
    "row1": "top row",
    "row2": "middle row",
    "row3": "bottom row",
    "col1": "left column",
    "col2": "middle column",
    "col3": "right column",
    "diag1": "diagonal top-left to bottom-right",
    "diag2": "diagonal top-right to bottom-left",
}
LINE_IDS: tuple[str, ...] = tuple(LINES)

#: Rule references.
RULE_GRID = "Telly Time: Your Genre Grid"
RULE_PILOT = "Telly Time: Telly Time Pilot Season"
RULE_SQUARES = "Telly Time: Empty & Filled Squares"
RULE_MOGUL = "Telly Time: Mogul Bonus"


def check_whole(value: Any, what: str, minimum: int | None = 0, maximum: int | None = None) -> int:
    """``value`` if it is a whole number (:func:`~companion.checks.is_whole`) from ``minimum`` to ``maximum``
    (``None``: no bound); else :class:`MalformedCommand` naming ``what``."""
    if not is_whole(value):
        raise MalformedCommand(f"{what} must be a whole number, not {value!r}")
    if minimum is not None and value < minimum:
        raise MalformedCommand(f"{what} must be at least {minimum}, not {value}")
    if maximum is not None and value > maximum:
        raise MalformedCommand(f"{what} must be at most {maximum}, not {value}")
    return value


@dataclass(frozen=True)
class LineBonus:
    """The bonus printed at the end of one line of a genre grid tile ("Your Genre Grid").

    ``label`` says what to take at the table (e.g. ``"Draw 2 stars, sign 1 free"``, ``"Network bonus"``,
    ``"Wild bonus"``); ``cash_m`` ($M, ≥ 0) and ``viewers`` (≥ 0) are what the companion adds itself
    when the line is completed. An unentered bonus is ``LineBonus()``: "the printed bonus", nothing
    added automatically.
    """

    label: str = "printed bonus"
    cash_m: int = 0
    viewers: int = 0

    @classmethod
    def checked(cls, label: Any, cash_m: Any = 0, viewers: Any = 0) -> LineBonus:
        """A bonus from entered values. Raises :class:`MalformedCommand` for an empty or over-long
        label (40 characters) or a cash/viewer amount that is not a whole number ≥ 0."""
        if not isinstance(label, str) or not label.strip() or len(label.strip()) > 40:
            raise MalformedCommand(f"a line bonus needs a short label (1 to 40 characters), not {label!r}")
        return cls(
            label.strip(),
            check_whole(cash_m, "a line bonus's cash ($M)"),
            check_whole(viewers, "a line bonus's viewers"),
        )

    def to_payload(self) -> dict[str, Any]:
        """``{"label": ..., "cash_m": ..., "viewers": ...}`` (JSON-able)."""
        return {"label": self.label, "cash_m": self.cash_m, "viewers": self.viewers}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> LineBonus:
        """Rebuild a bonus from :meth:`to_payload` output."""
        return cls(payload["label"], int(payload.get("cash_m", 0)), int(payload.get("viewers", 0)))

    def describe(self) -> str:
        """``"Network bonus"``, ``"Cash bonus (+$3M)"``, ``"Ratings (+2 viewers, +$1M)"``."""
        extras = [f"+{count(self.viewers, 'viewer')}"] if self.viewers else []
        extras += [f"+${self.cash_m}M"] if self.cash_m else []
        return f"{self.label} ({', '.join(extras)})" if extras else self.label


@dataclass(frozen=True)
class GenreGrid:
    """One player's genre grid tile and its marker cubes.

    ``squares``: 9 genre names row by row (``None`` = not entered yet); ``filled``: 9 booleans (a marker
    cube on the square); ``bonuses``: 8 :class:`LineBonus` in :data:`LINE_IDS` order; ``completed``: the
    ids of the lines whose bonus has been gained, in the order they counted (a line is never scored
    twice, "Your Genre Grid").
    """

    squares: tuple[str | None, ...]
    filled: tuple[bool, ...] = (False,) * SQUARES
    bonuses: tuple[LineBonus, ...] = (LineBonus(),) * len(LINES)
    completed: tuple[str, ...] = ()

    # -- reading -----------------------------------------------------------------------------------------
    @property
    def filled_count(self) -> int:
        """Squares with a marker cube (0 to 9)."""
        return sum(self.filled)

    @property
    def empty_count(self) -> int:
        """Squares without a marker cube (0 to 9); passing pays $1M for each ("Empty & Filled Squares")."""
        return SQUARES - self.filled_count

    @property
    def entered(self) -> bool:
        """Whether all nine genres of the tile have been entered."""
        return all(square is not None for square in self.squares)

    def square_of(self, genre: str) -> int | None:
        """The square showing ``genre`` (compared without case), or ``None`` if the tile has none."""
        wanted = genre.strip().casefold()
        for index, square in enumerate(self.squares):
            if square is not None and square.casefold() == wanted:
                return index
        return None

    def is_filled(self, genre: str) -> bool:
        """Whether ``genre``'s square already has a marker (``False`` if the tile has no such square)."""
        index = self.square_of(genre)
        return index is not None and self.filled[index]

    def bonus(self, line: str) -> LineBonus:
        """The bonus at the end of ``line``; raises :class:`MalformedCommand` for an unknown line id."""
        return self.bonuses[line_index(line)]

    def full_lines(self) -> tuple[str, ...]:
        """Ids of the lines whose three squares all have markers (completed or awaiting a choice)."""
        return tuple(line for line, squares in LINES.items() if all(self.filled[s] for s in squares))

    def lines_completed_by(self, square: int) -> tuple[str, ...]:
        """Ids of the lines that a marker on the empty ``square`` would complete now, in :data:`LINE_IDS`
        order (empty if the square is already filled)."""
        if self.filled[square]:
            return ()
        return tuple(
            line
            for line, squares in LINES.items()
            if square in squares and all(self.filled[s] or s == square for s in squares)
        )

    def completing_genres(self) -> tuple[str, ...]:
        """Genres whose square would complete at least one line if filled now, in square order (for the
        solo opponent's "Prefers show of YOUR best genre", "Solo Mode")."""
        return tuple(genre for s, genre in enumerate(self.squares) if genre is not None and self.lines_completed_by(s))

    # -- changing ----------------------------------------------------------------------------------------
    def with_square(self, square: int, genre: str | None) -> GenreGrid:
        """This grid with ``genre`` entered on ``square`` (``None``: no genre, after a swap with an empty
        square; no checks, see :func:`check_square_genre`)."""
        squares = list(self.squares)
        squares[square] = genre
        return replace(self, squares=tuple(squares))

    def with_bonus(self, line: str, bonus: LineBonus) -> GenreGrid:
        """This grid with ``bonus`` entered at the end of ``line``."""
        bonuses = list(self.bonuses)
        bonuses[line_index(line)] = bonus
        return replace(self, bonuses=tuple(bonuses))

    def with_marker(self, square: int) -> GenreGrid:
        """This grid with a marker cube on ``square``."""
        filled = list(self.filled)
        filled[square] = True
        return replace(self, filled=tuple(filled))

    def with_completed(self, line: str) -> GenreGrid:
        """This grid with ``line``'s bonus recorded as gained (after the ones already gained)."""
        return replace(self, completed=self.completed + (line,))

    # -- storing -----------------------------------------------------------------------------------------
    def layout(self) -> TileLayout:
        """The tile as entered (its squares and line bonuses, without the markers)."""
        return TileLayout(self.squares, self.bonuses)


@dataclass(frozen=True)
class TileLayout:
    """A genre grid tile as entered, without markers: ``squares`` (9 genre names row by row, ``None`` = not
    entered yet) and ``bonuses`` (8 :class:`LineBonus` in :data:`LINE_IDS` order). Its journal form (the
    ``tiles`` option's too) is ``{"squares": [9 names or None], "bonuses": {line id: bonus payload}}``."""

    squares: tuple[str | None, ...] = (None,) * SQUARES
    bonuses: tuple[LineBonus, ...] = (LineBonus(),) * len(LINES)

    def to_payload(self) -> dict[str, Any]:
        """The journal form (see the class docstring), every line's bonus listed."""
        return {
            "squares": list(self.squares),
            "bonuses": {line: bonus.to_payload() for line, bonus in zip(LINE_IDS, self.bonuses)},
        }

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any] | None) -> TileLayout:
        """The tile from its journal form; ``None`` or ``{}`` is a tile with nothing entered; a line left out
        of ``"bonuses"`` has the printed bonus. Raises :class:`MalformedCommand` for an unknown line id."""
        if not payload:
            return cls()
        bonuses = [LineBonus()] * len(LINES)
        for line, bonus in dict(payload.get("bonuses", {})).items():
            bonuses[line_index(line)] = LineBonus.from_payload(bonus)
        return cls(tuple(payload["squares"]), tuple(bonuses))

    def grid(self, centre: str) -> GenreGrid:
        """A fresh grid of this tile with ``centre`` in the centre and a marker on it ("Telly Time Pilot
        Season": "place a marker cube on the center square")."""
        squares = list(self.squares)
        squares[CENTRE] = centre
        return GenreGrid(tuple(squares), tuple(index == CENTRE for index in range(SQUARES)), self.bonuses)


def square_name(square: int) -> str:
    """``"the top-left square"``, ``"the centre square"``: square ``square`` (0-8) in words."""
    return f"the {SQUARE_NAMES[square]} square"


def square_list(squares: Iterable[int]) -> str:
    """``"the top-left, top-middle and centre squares"`` (or ``"the top-left square"`` for one)."""
    names = [SQUARE_NAMES[s] for s in squares]
    return f"the {and_join(names)} {noun(len(names), 'square')}"


def line_index(line: Any) -> int:
    """Position of ``line`` in :data:`LINE_IDS`; raises :class:`MalformedCommand` naming the line ids."""
    if line not in LINES:
        raise MalformedCommand(f"no grid line {line!r}; lines are {', '.join(LINE_IDS)}")
    return LINE_IDS.index(line)


def check_square(square: Any) -> int:
    """``square`` if it is a square index 0 to 8; raises :class:`MalformedCommand` otherwise."""
    if not is_whole(square) or not 0 <= square < SQUARES:
        raise MalformedCommand(
            f"a grid square is given as 0 (top-left) to 8 (bottom-right), row by row, not {square!r}"
        )
    return square


def canonical_genre(genre: Any, genres: Iterable[str]) -> str:
    """The spelling in ``genres`` of ``genre`` (compared without case); raises :class:`MalformedCommand`
    listing the genres if it is not one of them."""
    genres = tuple(genres)
    if isinstance(genre, str):
        for name in genres:
            if name.casefold() == genre.strip().casefold():
                return name
    raise MalformedCommand(f"no genre {genre!r}; genres are {', '.join(genres)}")


def check_square_genre(grid: GenreGrid, square: int, genre: str) -> None:
    """Check that ``genre`` may be entered on ``square`` of ``grid``.

    Refused (:class:`IllegalCommand`): the centre (it is the Pilot Season genre, "Telly Time Pilot
    Season"), a square that already has a marker, or a genre already on another square (each tile shows
    each genre once, so the first advance on a genre fills exactly one square, "Your Genre Grid").
    """
    if square == CENTRE:
        raise IllegalCommand(f"the centre square is the Pilot Season genre ({grid.squares[CENTRE]})", RULE_PILOT)
    if grid.filled[square]:
        raise IllegalCommand(f"{square_name(square)} ({grid.squares[square]}) already has a marker cube", RULE_GRID)
    other = grid.square_of(genre)
    if other is not None and other != square:
        raise IllegalCommand(
            f"{genre} is already on {square_name(other)} of this tile; a tile shows each genre once", RULE_GRID
        )


def grid_from_tile(centre: str, tile: Mapping[str, Any] | None) -> GenreGrid:
    """A fresh grid for the tile whose centre is ``centre``, with a marker on the centre ("Telly Time
    Pilot Season"). ``tile`` is the entered tile (``{"squares": [...9], "bonuses": {line: {...}}}``) or
    ``None`` (only the centre known; enter the rest at the table)."""
    return TileLayout.from_payload(tile).grid(centre)


def check_tile(centre: str, tile: Any, genres: Iterable[str]) -> dict[str, Any]:
    """Check one entered tile (the ``tiles`` option's value for ``centre``) and return it normalised.

    Raises :class:`MalformedCommand` unless ``tile`` is ``{"squares": [9 distinct genres with centre in
    the middle], "bonuses": {line id: {"label", "cash_m", "viewers"}}}`` (bonuses optional, per line).
    """
    genres = tuple(genres)
    if not isinstance(tile, Mapping) or "squares" not in tile:
        raise MalformedCommand(f"the tile for {centre} needs 'squares' (9 genres row by row)")
    squares = tile["squares"]
    if isinstance(squares, (str, bytes)) or not isinstance(squares, (list, tuple)) or len(squares) != SQUARES:
        raise MalformedCommand(f"the tile for {centre} lists 9 squares, not {squares!r}")
    names = [canonical_genre(name, genres) for name in squares]
    if len(set(names)) != SQUARES:
        raise MalformedCommand(f"the tile for {centre} shows a genre twice: {names}")
    if names[CENTRE] != centre:
        raise MalformedCommand(f"the tile for {centre} must have {centre} in the centre, not {names[CENTRE]}")
    bonuses = tile.get("bonuses", {})
    if not isinstance(bonuses, Mapping):
        raise MalformedCommand(f"the tile for {centre}: 'bonuses' maps line ids to bonuses")
    checked = {}
    for line, bonus in bonuses.items():
        line_index(line)
        if not isinstance(bonus, Mapping):
            raise MalformedCommand(f"the tile for {centre}: bonus of {line} must be a table with a label")
        checked[line] = LineBonus.checked(
            bonus.get("label"), bonus.get("cash_m", 0), bonus.get("viewers", 0)
        ).to_payload()
    return {"squares": names, "bonuses": checked}


def needs_mogul_choice(grid: GenreGrid, new_lines: tuple[str, ...], moguls: bool) -> bool:
    """Whether completing ``new_lines`` together needs the player to choose which line gives the mogul
    bonus ("Mogul Bonus": with the Moguls module the *second* line completed in the game gives a mogul
    bonus; when it is among several lines completed at once, the player chooses). Without Moguls, never."""
    already = len(grid.completed)
    return moguls and already <= 1 and len(new_lines) >= 2


def order_lines(
    grid: GenreGrid, new_lines: tuple[str, ...], moguls: bool, mogul_line: str | None = None
) -> list[tuple[str, bool]]:
    """The order in which ``new_lines`` (completed at the same time) count, each with whether it gives
    the mogul bonus instead of its printed bonus ("Mogul Bonus").

    Without Moguls every line gives its printed bonus, in :data:`LINE_IDS` order ("If you complete
    multiple lines at the same time, you gain the bonus for each completed line"). With Moguls the line
    that is the game's second gives the mogul bonus; ``mogul_line`` is the player's choice when
    :func:`needs_mogul_choice` (it must be one of ``new_lines``); otherwise it must be ``None``.
    Raises :class:`IllegalCommand` for a missing or wrong choice.
    """
    lines = list(new_lines)
    if not needs_mogul_choice(grid, new_lines, moguls):
        if mogul_line is not None:
            raise IllegalCommand("no choice of mogul line is needed here", RULE_MOGUL)
        second = moguls and len(grid.completed) == 1
        return [(line, second and position == 0) for position, line in enumerate(lines)]
    if mogul_line not in lines:
        raise IllegalCommand(
            f"choose which of {', '.join(LINE_NAMES[l] for l in lines)} gives the mogul bonus", RULE_MOGUL
        )
    others = [line for line in lines if line != mogul_line]
    if grid.completed:  # this group holds the game's second line
        return [(mogul_line, True)] + [(line, False) for line in others]
    return [(others[0], False), (mogul_line, True)] + [(line, False) for line in others[1:]]


def read_tile_catalogue(path: Any) -> dict[str, dict[str, Any]]:
    """The ``tiles`` option read from a tile catalogue file: the genre grid tiles as printed, so that choosing
    the Pilot Season show brings its whole tile ("Telly Time Pilot Season": "takes the genre grid tile that
    has that genre in the center square"). The file is UTF-8 TOML, one ``[[tile]]`` table per printed tile::

        [[tile]]
        squares = ["Drama", "Kids", "Quiz",        # 9 genres row by row; the centre (5th) is the tile's
                   "Crime", "Comedy", "Reality",   # Pilot Season genre, which names the tile
                   "Sports", "Chat", "Sci-Fi"]
        bonuses.row1 = { label = "Cash bonus", cash_m = 3 }   # optional, per line id (row1-3, col1-3,
        bonuses.diag1 = { label = "Wild bonus" }               # diag1, diag2): label, cash_m, viewers

    Returns ``{centre genre: {"squares": [...], "bonuses": {...}}}``, the option's own form; the genres are
    checked against the game's genres when the option is (:meth:`TellyTime.check_options`). A saved game keeps
    the tiles in its options and never reads the file again. Raises :class:`companion.errors.BadOption`
    naming the file for one that cannot be read, is not TOML, or lists no tiles, a tile without 9 squares, or
    two tiles with the same centre."""
    import tomllib

    from companion.errors import BadOption

    def bad(problem: str) -> BadOption:
        return BadOption("tiles", f"tile catalogue {path}: {problem}")

    try:
        with open(path, "rb") as file:
            data = tomllib.load(file)
    except OSError as error:
        raise bad(f"cannot read it ({error.strerror or error})") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise bad(f"not TOML ({error})") from None
    tiles = data.get("tile")
    if not isinstance(tiles, list) or not tiles or not all(isinstance(t, dict) for t in tiles):
        raise bad("lists no [[tile]] tables")
    unknown = sorted(set(data) - {"tile"})
    if unknown:
        raise bad(f"unknown key {unknown[0]!r} (only [[tile]] tables)")
    catalogue: dict[str, dict[str, Any]] = {}
    for number, tile in enumerate(tiles, 1):
        squares = tile.get("squares")
        if not isinstance(squares, list) or len(squares) != SQUARES or not all(isinstance(g, str) for g in squares):
            raise bad(f"tile {number} needs 'squares': 9 genre names row by row")
        extra = sorted(set(tile) - {"squares", "bonuses"})
        if extra:
            raise bad(f"tile {number}: unknown key {extra[0]!r} (a tile has 'squares' and 'bonuses')")
        centre = squares[CENTRE]
        if any(c.casefold() == centre.casefold() for c in catalogue):
            raise bad(f"two tiles have {centre} in the centre (one tile per genre)")
        catalogue[centre] = {"squares": list(squares), "bonuses": dict(tile.get("bonuses", {}))}
    return catalogue
