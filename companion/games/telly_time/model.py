"""Plain data of a Telly Time game: timeslots, shows, networks, the whole state, and the commands.

Money is in $M (millions of dollars) everywhere in this package: every field holding money ends in
``_m``. Viewers are whole viewer points. Rule references are to ``rules/the-networks-telly-time.txt``
(section names, since the module's rulebook has no numbers).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.commands import Command
from companion.errors import MalformedCommand
from companion.games.telly_time.grid import GenreGrid

#: Timeslot ids, left to right on the player board plus the module's weekend slot ("Weekend Timeslots").
TIMESLOTS: tuple[str, ...] = ("8pm", "primetime", "late_night", "weekend")
#: Timeslot id -> its name on the screen.
TIMESLOT_NAMES: dict[str, str] = {
    "8pm": "8 PM",
    "primetime": "Primetime",
    "late_night": "Late night",
    "weekend": "Weekend",
}
#: A show whose preferred timeslot reads "ANY" ("Wild Timeslots").
ANY = "any"
#: Slots where Kids shows may not go ("New Genres & Show Effects", Kids).
NO_KIDS_SLOTS = ("primetime", "late_night")
#: The Telly Time genres with their own show effects.
KIDS, QUIZ, CHAT = "Kids", "Quiz", "Chat"
#: The nine genres of the grid tiles. Only Drama, Kids, Quiz and Chat are named in the module's
#: rulebook; the base game's other names are our assumption (see docs/rulings-telly-time.md) and the
#: ``genres`` option replaces them.
DEFAULT_GENRES: tuple[str, ...] = ("Drama", "Comedy", "Crime", "Reality", "Sports", "Sci-Fi", KIDS, QUIZ, CHAT)
#: The base game is played over five seasons.
SEASONS = 5
#: Most bonus viewers a Quiz show may buy, and their price in $M each ("New Genres", Quiz).
QUIZ_MAX_VIEWERS = 5
QUIZ_PRICE_M = 1
#: Passing pays this many $M per empty grid square; scoring adds this many viewers per filled square.
CASH_PER_EMPTY_SQUARE_M = 1
VIEWERS_PER_FILLED_SQUARE = 1

#: Game phases.
PILOT, SEASON, SCORING, END_SCORING, OVER = "pilot", "season", "scoring", "end_scoring", "over"


def check_timeslot(timeslot: Any) -> str:
    """``timeslot`` if it is one of :data:`TIMESLOTS`; raises :class:`MalformedCommand` naming them."""
    if timeslot not in TIMESLOTS:
        raise MalformedCommand(f"no timeslot {timeslot!r}; timeslots are {', '.join(TIMESLOTS)}")
    return timeslot


@dataclass(frozen=True)
class Show:
    """A show in a timeslot: ``name``, current ``genre`` (after Versatile Actor), ``printed_genre`` (whose
    show effect it has, "Telly Time Clarifications", Versatile Actor), and ``preferred`` timeslots: one or
    two ids, ``("any",)`` for ANY, or ``()`` when not recorded (starter shows)."""

    name: str
    genre: str
    printed_genre: str
    preferred: tuple[str, ...] = ()

    def in_preferred(self, timeslot: str) -> bool:
        """Whether ``timeslot`` suffers no timeslot penalty for this show ("Wild Timeslots")."""
        return ANY in self.preferred or timeslot in self.preferred

    def to_payload(self) -> dict[str, Any]:
        """JSON-able form for events."""
        return {
            "name": self.name,
            "genre": self.genre,
            "printed_genre": self.printed_genre,
            "preferred": list(self.preferred),
        }

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> Show:
        """Rebuild from :meth:`to_payload`."""
        return cls(payload["name"], payload["genre"], payload["printed_genre"], tuple(payload["preferred"]))


STARTER_SHOW = Show("Starter show", "", "", ())


@dataclass(frozen=True)
class PassChoice:
    """What a player took on the pass track this season: ``reward`` ``"cash"`` or ``"viewers"``, the
    ``amount`` printed for the player count ($M or viewers), whether Preempted Timeslot doubled it, and
    the ``order`` in which the player passed (1 = first)."""

    reward: str
    amount: int
    preempted: bool
    order: int

    @property
    def value(self) -> int:
        """The reward after Preempted Timeslot ("Telly Time Clarifications": only the pass track doubles)."""
        return self.amount * (2 if self.preempted else 1)


@dataclass(frozen=True)
class Network:
    """One player's network: ``name``, ``colour``, ``cash_m`` ($M), ``viewers`` (points), the genre
    ``grid`` (``None`` until the Pilot Season show is chosen), ``pilot`` (the Pilot Season show's name and
    genre), ``pilot_cards`` (the two kept stars/ads, ``()`` until kept), ``lineup`` (one :class:`Show` or
    ``None`` per :data:`TIMESLOTS` entry), this season's ``passed`` choice and whether its lineup is
    ``scored``, and ``end_scored`` at the end of the game."""

    name: str
    colour: str
    cash_m: int
    viewers: int = 0
    grid: GenreGrid | None = None
    pilot: Show | None = None
    pilot_cards: tuple[PilotCard, ...] = ()
    lineup: tuple[Show | None, ...] = (None,) * len(TIMESLOTS)
    passed: PassChoice | None = None
    scored: bool = False
    end_scored: bool = False

    def show_in(self, timeslot: str) -> Show | None:
        """The show in ``timeslot`` (an id from :data:`TIMESLOTS`), or ``None``."""
        return self.lineup[TIMESLOTS.index(timeslot)]


@dataclass(frozen=True)
class MogulChoice:
    """A choice the game waits for: ``player`` completed ``lines`` at once and must say which one gives
    the mogul bonus ("Mogul Bonus")."""

    player: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class TellyTimeState:
    """The whole state of a game of The Networks with Telly Time.

    ``networks`` in seat order; ``options`` as checked; ``phase`` one of ``pilot``, ``season``,
    ``scoring``, ``end_scoring``, ``over``; ``season`` 0 (Pilot Season) to 5; ``order`` this season's
    turn order; ``current`` whose turn it is (``None`` outside a season's turns); ``pending`` a
    :class:`MogulChoice` the game waits for; ``winners`` once over; ``finished``/``end_reason``.
    """

    networks: tuple[Network, ...]
    options: dict[str, Any] = field(compare=False, hash=False)
    phase: str = PILOT
    season: int = 0
    order: tuple[str, ...] = ()
    current: str | None = None
    pending: MogulChoice | None = None
    winners: tuple[str, ...] = ()
    finished: bool = False
    end_reason: str = ""

    @property
    def names(self) -> tuple[str, ...]:
        """Player names in seat order."""
        return tuple(n.name for n in self.networks)

    def network(self, name: Any) -> Network:
        """The network called ``name``; raises :class:`MalformedCommand` naming the players."""
        for network in self.networks:
            if network.name == name:
                return network
        raise MalformedCommand(f"unknown player {name!r}; players are {', '.join(self.names)}")

    @property
    def genres(self) -> tuple[str, ...]:
        """The nine genres of this game's tiles (option ``genres``)."""
        return tuple(self.options["genres"])


# -- commands ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PilotCard:
    """One Pilot Season star or ad a player keeps: ``kind`` ``"star"`` or ``"ad"``, ``name`` (may be
    empty), ``cash_m`` its cash bonus and ``cost_m`` its cost, both $M ≥ 0 ("Telly Time Pilot Season")."""

    kind: str
    name: str = ""
    cash_m: int = 0
    cost_m: int = 0


@dataclass(frozen=True, kw_only=True)
class ChoosePilotShow(Command):
    """Pilot Season: ``player`` was dealt a Pilot Season show of ``genre`` (called ``name``) and places
    it in ``timeslot`` (its preferred one). Takes the tile with that genre in the centre and puts a
    marker on the centre ("Telly Time Pilot Season"); the other timeslots hold starter shows."""

    player: str
    genre: str
    timeslot: str
    name: str = ""


@dataclass(frozen=True, kw_only=True)
class SetGridSquare(Command):
    """Enter the genre printed on ``square`` (0-8, row by row) of ``player``'s tile (the tiles are not
    in the rulebook). Refused for the centre, a square with a marker, or a genre already on the tile."""

    player: str
    square: int
    genre: str


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
