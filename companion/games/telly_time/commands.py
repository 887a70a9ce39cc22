"""The commands of a Telly Time game (what a player or the table asks for). Money in $M (fields ending in
``_m``), viewers as whole points; rules cited by the sections of ``rules/the-networks-telly-time.txt``.
Each is refused with a ``CommandError`` citing the rule (:meth:`TellyTime.decide`); the shared commands
the game also accepts are in :mod:`companion.commands` (``EndGame``, ``TransferMoney``).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.commands import Command
from companion.games.telly_time.state import PilotCard

__all__ = [
    "AdjustCash",
    "AdjustViewers",
    "ChangeShowGenre",
    "ChooseMogulLine",
    "ChoosePilotShow",
    "KeepPilotCards",
    "MoveShow",
    "Pass",
    "PilotCard",
    "PlaceGridMarker",
    "ProduceShow",
    "ScoreEndGame",
    "ScoreLineup",
    "SetGridSquare",
    "SetLineBonus",
    "ShowScore",
    "StartSeason",
    "TakeAction",
    "Writeoff",
]


@dataclass(frozen=True, kw_only=True)
class ChoosePilotShow(Command):
    """Pilot Season: ``player`` was dealt a Pilot Season show of ``genre`` (called ``name``) and places
    it in ``timeslot``, one of its ``preferred`` timeslots ("Place your Pilot Season show in its preferred
    timeslot"): one or two timeslot ids, ``("any",)`` for ANY ("Wild Timeslots"), or ``()`` (the default)
    for the one timeslot it is placed in. Takes the tile with that genre in the centre and puts a marker on
    the centre ("Telly Time Pilot Season"); the other timeslots hold starter shows."""

    player: str
    genre: str
    timeslot: str
    name: str = ""
    preferred: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class SetGridSquare(Command):
    """Enter the genre printed on ``square`` (0-8, row by row) of ``player``'s tile (the tiles are not
    in the rulebook). Refused for the centre, a square with a marker, or a genre already on the tile."""

    player: str
    square: int
    genre: str


@dataclass(frozen=True, kw_only=True)
class EnterTile(Command):
    """Enter the genres printed on ``player``'s tile in one go: ``squares`` lists the 9 squares row by row
    (0 = top-left), each a genre name or ``None`` to keep what the square shows; the centre is the Pilot Season
    genre (``None`` or that genre). Refused for a square with a marker changed, or a genre on two squares
    (a tile shows each genre once). One move for the whole tile (the table's set-up screen)."""

    player: str
    squares: tuple[str | None, ...]


@dataclass(frozen=True, kw_only=True)
class SetLineBonus(Command):
    """Enter the bonus printed at the end of ``line`` (a :data:`~companion.games.telly_time.grid.LINES`
    id) of ``player``'s tile: a ``label``, and the ``cash_m`` ($M) and ``viewers`` it gives. Refused for
    a line already completed."""

    player: str
    line: str
    label: str
    cash_m: int = 0
    viewers: int = 0


@dataclass(frozen=True, kw_only=True)
class KeepPilotCards(Command):
    """Pilot Season: ``player`` keeps exactly two of the stars/ads dealt (``cards``, two
    :class:`PilotCard`), earning their cash bonuses and paying their costs ("Telly Time Pilot Season")."""

    player: str
    cards: tuple[PilotCard, ...]


@dataclass(frozen=True, kw_only=True)
class StartSeason(Command):
    """Begin season 1 once every player's Pilot Season is set up (show, tile, two kept cards)."""


@dataclass(frozen=True, kw_only=True)
class ProduceShow(Command):
    """On ``player``'s turn: produce show ``name`` of ``genre`` into ``timeslot`` (replacing the show
    there) for ``cost_m`` ($M). ``preferred``: its preferred timeslot ids, or ``("any",)``. The first
    show of a genre fills that genre's grid square ("Your Genre Grid"). Kids shows may not go in
    primetime or late night ("New Genres & Show Effects")."""

    player: str
    name: str
    genre: str
    timeslot: str
    preferred: tuple[str, ...] = ()
    cost_m: int = 0


@dataclass(frozen=True, kw_only=True)
class TakeAction(Command):
    """On ``player``'s turn: another action taken at the table (``action``: "Sign a star", "Land an
    ad", "Network card", ...) with its cash change ``cash_m`` ($M, negative for a cost)."""

    player: str
    action: str
    cash_m: int = 0


@dataclass(frozen=True, kw_only=True)
class Pass(Command):
    """On ``player``'s turn: pass, taking ``reward`` (``"cash"`` or ``"viewers"``) of ``amount`` as
    printed on the pass track tile for the player count; ``preempted`` if Preempted Timeslot doubles it.
    The grid pays $1M per empty square at once ("Empty & Filled Squares")."""

    player: str
    reward: str
    amount: int
    preempted: bool = False


@dataclass(frozen=True, kw_only=True)
class PlaceGridMarker(Command):
    """A card effect places a marker on ``genre``'s square of ``player``'s grid (Catalog Buyout, Market
    Research, "Telly Time Clarifications"). Refused if that square already has a marker."""

    player: str
    genre: str
    reason: str = "Catalog Buyout"


@dataclass(frozen=True, kw_only=True)
class MoveShow(Command):
    """Swap the shows in ``player``'s ``from_slot`` and ``to_slot`` (e.g. Flexible Schedule). A Kids show
    may not end up in primetime or late night ("Telly Time Clarifications", Flexible Schedule)."""

    player: str
    from_slot: str
    to_slot: str
    reason: str = "Flexible Schedule"


@dataclass(frozen=True, kw_only=True)
class ChangeShowGenre(Command):
    """Versatile Actor: the show in ``player``'s ``timeslot`` becomes ``genre``; it does not gain that
    genre's show effect ("Telly Time Clarifications")."""

    player: str
    timeslot: str
    genre: str
    reason: str = "Versatile Actor"


@dataclass(frozen=True, kw_only=True)
class AdjustCash(Command):
    """Free entry: ``player`` gains (``amount_m`` > 0) or pays (< 0) $M for ``reason``."""

    player: str
    amount_m: int
    reason: str


@dataclass(frozen=True, kw_only=True)
class AdjustViewers(Command):
    """Free entry: ``player`` scores (``viewers`` > 0) or loses (< 0) viewers for ``reason``."""

    player: str
    viewers: int
    reason: str


@dataclass(frozen=True)
class ShowScore:
    """What one show scores this season, as counted at the table: the show's own ``viewers`` (as printed
    for its age), the current viewer values of the ``stars`` on it, a timeslot ``penalty`` (viewers, ≥ 0)
    and, for a Quiz show, the bonus viewers bought (``quiz_bought``, 0-5 at $1M each)."""

    timeslot: str
    viewers: int
    stars: tuple[int, ...] = ()
    penalty: int = 0
    quiz_bought: int = 0


@dataclass(frozen=True, kw_only=True)
class ScoreLineup(Command):
    """Season end: score ``player``'s lineup: one :class:`ShowScore` per show, ``income_m`` and
    ``costs_m`` ($M ≥ 0, ads and upkeep as counted at the table), ``other_viewers`` (``(label, viewers)``
    pairs, e.g. network cards), and for Variety Channel the genres of the player's reruns
    (``rerun_genres``, with ``variety_channel=True``). Adds +1 viewer per filled grid square and the
    pass track's viewers ("Empty & Filled Squares")."""

    player: str
    shows: tuple[ShowScore, ...]
    income_m: int = 0
    costs_m: int = 0
    other_viewers: tuple[tuple[str, int], ...] = ()
    variety_channel: bool = False
    rerun_genres: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class ScoreEndGame(Command):
    """After season 5: ``player``'s end-game viewer bonuses as ``(row, viewers)`` pairs. The "Genres" row
    is ignored with Telly Time and refused ("End-Game Scoring")."""

    player: str
    bonuses: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, kw_only=True)
class ChooseMogulLine(Command):
    """Answer the pending :class:`MogulChoice`: ``line`` gives the mogul bonus; the others their printed
    bonuses ("Mogul Bonus")."""

    player: str
    line: str


@dataclass(frozen=True, kw_only=True)
class Writeoff(Command):
    """Writeoff (a base-game network card): count the viewers of ``player``'s show in ``show.timeslot`` as
    "Telly Time Clarifications", Writeoff says. ``show`` is the :class:`ShowScore` as counted at the table
    (the show's own viewers, the current viewer values of the stars on it, any timeslot penalty);
    ``other_stars`` are the current viewer values of the stars on the lineup's *other* shows, counted only
    for a Chat show ("count bonus viewers from other stars in your lineup"). A Quiz show counts no bonus
    viewers, so ``show.quiz_bought`` must be 0. The count is recorded; the card's effect (printed in the base
    game) is entered as the table applies it."""

    player: str
    show: ShowScore
    other_stars: tuple[int, ...] = ()
