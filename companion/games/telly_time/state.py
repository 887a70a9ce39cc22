"""Plain data of a Telly Time game: timeslots, shows, networks, Pilot Season cards and the whole state,
with the units and rule names the other modules share.

Money is in $M (millions of dollars) everywhere in this package: every field holding money ends in
``_m``. Viewers are whole viewer points. Rule references are to ``rules/the-networks-telly-time.txt``
(section names, since the module's rulebook has no numbers).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.errors import MalformedCommand
from companion.games.telly_time.grid import GenreGrid
from companion.games.telly_time.info import DEFAULT_GENRES as _DEFAULT_GENRES

# -- rule references (the grid's own are in grid.py) -------------------------------------------------------
RULE_GENRES = "Telly Time: New Genres & Show Effects"
RULE_WILD = "Telly Time: Wild Timeslots"
RULE_CLARIFY = "Telly Time: Telly Time Clarifications"
RULE_END = "Telly Time: End-Game Scoring"
RULE_BASE = "The Networks base game, tracked"
#: The companion's own rule (free entries, ending a game at the table).
TABLE_RULE = "entered at the table"
#: The rulings file of this game (docs/rulings-telly-time.md), cited with a ruling's number.
RULINGS = "docs/rulings-telly-time.md"

#: The end-game bonus row ignored with Telly Time ("End-Game Scoring").
GENRES_ROW = "Genres"

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
#: The nine genres of the grid tiles by default (the ``genres`` option replaces them; ruling 2).
DEFAULT_GENRES = _DEFAULT_GENRES
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


def money(amount_m: int) -> str:
    """``12`` → ``"$12M"``; ``-3`` → ``"−$3M"`` (amounts in $M, true minus sign)."""
    return f"−${-amount_m}M" if amount_m < 0 else f"${amount_m}M"


#: 1 → "first" ... for "passes second", "the third line"; beyond the table, "13th".
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def ordinal(n: int) -> str:
    """``1`` → ``"first"``, ``2`` → ``"second"`` ... ``9`` → ``"9th"``."""
    return _ORDINALS[n - 1] if 1 <= n <= len(_ORDINALS) else f"{n}th"


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


@dataclass(frozen=True)
class PilotCard:
    """One Pilot Season star or ad a player keeps: ``kind`` ``"star"`` or ``"ad"``, ``name`` (may be
    empty), ``cash_m`` its cash bonus and ``cost_m`` its cost, both $M ≥ 0 ("Telly Time Pilot Season")."""

    kind: str
    name: str = ""
    cash_m: int = 0
    cost_m: int = 0
