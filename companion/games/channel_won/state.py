"""Channel WON state: the reporters, the Lineup of Leads with what was played on them, the star rating and
the latest scored round, as frozen dataclasses (pure data; :mod:`.rules` changes them by folding events).

The numbers the rulebook prints and the names of the rules refusals cite are here too.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from companion.errors import MalformedCommand
from companion.games.channel_won.cards import LeadCard, category_named
from companion.words import count

HAND_LIMIT = 7  # Phase 1: "the hand limit of SEVEN cards"
TILES = 3  # Setup: "The three remaining Reporter Tiles will be used to report on stories"
STARS = 5  # Setup: "the five Ratings Tracker Tokens"
ROUNDS = 3  # Objective / Ending the Game: three rounds
LEADS_PER_CATEGORY = 3  # Setup: "Select THREE Lead Cards from each of the selected categories"
STAR_WITNESS_POINTS = 2  # Inside Scoop Cards: Star Witness, "a 2-point Source"
DISCREDIT_POINTS = -2  # Inside Scoop Cards: Discredit, "decreases the value of a Lead by 2 points"
FINAL_TOUCH_POINTS = 2  # Inside Scoop Cards: Final Touch, "increases the value of a Lead by 2 points"
SECURITY_FOOTAGE = "Security Footage"
SOURCES_PER_CATEGORY = 6  # Components: "36 Source Cards (6 from each category)"
LOCATION_CARDS = 12  # Components: "12 Location Cards"
INSIDE_SCOOP_CARDS = 24  # Components: "24 Inside Scoop Cards"
ROW = 5  # Setup: "Flip up five cards next to the deck to form a row" (Sources and Locations)

#: The card kinds a hand holds (Phase 1: "either a Location Card, a Source Card, or an Inside Scoop Card").
KINDS = ("location", "source", "scoop")
KIND_WORDS = {"location": "Location", "source": "Source", "scoop": "Inside Scoop"}

#: Categories used by player count (Setup).
CATEGORY_COUNT = {2: 4, 3: 5, 4: 5, 5: 6, 6: 6}

#: The Inside Scoops played with :class:`PlayScoop` (Library Archives is ``PlaySource(from_archives=True)``).
SCOOPS = {
    "early_bird": "Early Bird",
    "discredit": "Discredit",
    "final_touch": "Final Touch",
    "star_witness": "Star Witness",
    "security_footage": SECURITY_FOOTAGE,
}

R_SETUP = "Channel WON Setup"
R_PHASE1 = "Channel WON Phase 1"
R_PHASE2 = "Channel WON Phase 2"
R_LOCATIONS = "Channel WON Locations"
R_SOURCES = "Channel WON Sources"
R_CLOSING = "Channel WON Closing a Lead"
R_BONUS = "Channel WON Bonus Sources"
R_PASSING = "Channel WON Passing"
R_ROUND_END = "Channel WON End of Round"
R_RATINGS = "Channel WON Network Ratings"
R_GAME_END = "Channel WON Ending the Game"
R_CHARACTERS = "Channel WON Character Abilities"
R_PREPPING = "Channel WON Prepping the Next Round"
R_SCOOPS = "Channel WON Inside Scoop Cards"


@dataclass(frozen=True)
class Play:
    """One card that changes a Lead's value: ``label`` (``"Coach"``, ``"Business bonus"``, ``"Discredit"``),
    ``kind`` (``source``, ``bonus``, ``star_witness``, ``discredit``, ``final_touch``), ``points`` (may be
    negative) and the ``player`` who played it."""

    label: str
    kind: str
    points: int
    player: str


@dataclass(frozen=True)
class Lead:
    """A Lead in this round's Lineup: the printed ``card``; the ``location`` played on it (``None`` before,
    ``""`` for a Location whose name is not known, ``"Security Footage"`` for that Inside Scoop);
    the ``plays`` that set its value; ``contributors`` (players with a Reporter Tile above it, in the order they
    came) and whether it is ``closed``."""

    card: LeadCard
    location: str | None = None
    plays: tuple[Play, ...] = ()
    contributors: tuple[str, ...] = ()
    closed: bool = False

    @property
    def category(self) -> str:
        """The Lead's news category (also its key in the Lineup)."""
        return self.card.category

    @property
    def value(self) -> int:
        """Points: the sum of its plays (Sources, Bonus Sources, Inside Scoops); 0 with none (End of Round)."""
        return sum(play.points for play in self.plays)

    @property
    def sourced(self) -> bool:
        """Whether a Source of its category (or a Star Witness) is on it ("One Source is required to report
        on a Lead", Sources)."""
        return any(play.kind in ("source", "star_witness") for play in self.plays)

    @property
    def reported(self) -> bool:
        """Whether it counts as reported if the round ended now: closed, with a Source, worth more than 0
        (Network Ratings: "a Lead that is not closed or has a score of zero or less" is unreported). The one
        definition: the warning, the board and the End of Round scoring all ask :meth:`why_unreported`."""
        return not self.why_unreported()

    def why_unreported(self) -> str:
        """Why the Lead is unreported now (``""`` if it is reported): ``"not closed"``, ``"closed without a
        Source"`` or ``"worth N"`` (N ≤ 0), the first that applies (Network Ratings; Sources)."""
        if not self.closed:
            return "not closed"
        if not self.sourced:
            return "closed without a Source"
        if self.value <= 0:
            return f"worth {self.value}"
        return ""

    def breakdown(self) -> list[list[Any]]:
        """The value as data: ``[[label, points], ...]`` in the order played (JSON-able)."""
        return [[play.label, play.points] for play in self.plays]


@dataclass(frozen=True)
class Reporter:
    """A player: ``name``, ``colour``, ``score`` (points on the Score Track, never below 0), ``hand`` (cards
    held), ``passed`` (Pass Token on the pause side), ``done`` for the round, ``character`` (a Character
    card name, ``""`` if not said) and ``ability_used``; of the ``hand``, ``locations``, ``sources`` and
    ``scoops`` are the cards whose kind was said when collected (the rest: :attr:`unknown`)."""

    name: str
    colour: str
    score: int = 0
    hand: int = 0
    passed: bool = False
    done: bool = False
    character: str = ""
    ability_used: bool = False
    locations: int = 0
    sources: int = 0
    scoops: int = 0

    def holding(self, kind: str) -> int:
        """Cards of ``kind`` (one of :data:`KINDS`) known to be in the hand."""
        return {"location": self.locations, "source": self.sources, "scoop": self.scoops}[kind]

    @property
    def unknown(self) -> int:
        """Cards in hand collected without saying their kind (the seat's one button)."""
        return self.hand - self.locations - self.sources - self.scoops

    def kinds_text(self) -> str:
        """``"2 Locations, 4 Sources, 1 Inside Scoop"`` (``"no cards"`` for an empty hand)."""
        parts = [count(self.holding(kind), KIND_WORDS[kind]) for kind in KINDS if self.holding(kind)]
        if self.unknown:
            parts.append(f"{self.unknown} of kind not said")
        return ", ".join(parts) or "no cards"


@dataclass(frozen=True)
class Piles:
    """The cards outside the hands and the Lineup, as counts (Setup; Phase 1; Prepping the Next Round):
    the Source deck, its face-up row and its discards; the Location deck, row and discards; the Inside
    Scoop deck and its discard pile (Inside Scoops "are not shuffled back into the game"). All 0 in a
    state built before the piles were tracked. Exact while every collected card's kind is said."""

    source_deck: int = 0
    source_row: int = 0
    source_discard: int = 0
    location_deck: int = 0
    location_row: int = 0
    location_discard: int = 0
    scoop_deck: int = 0
    scoop_discard: int = 0

    def deck(self, kind: str) -> int:
        """Cards in the ``kind`` deck (``location``, ``source`` or ``scoop``)."""
        return int(getattr(self, f"{kind}_deck"))

    def row(self, kind: str) -> int:
        """Face-up cards in the ``kind`` row (0 for Inside Scoops: they have no row)."""
        return int(getattr(self, f"{kind}_row", 0))

    def discard(self, kind: str) -> int:
        """Cards on the ``kind`` discard pile."""
        return int(getattr(self, f"{kind}_discard"))

    def moved(self, **changes: int) -> Piles:
        """These piles with each named pile changed by the given number of cards."""
        return replace(self, **{name: getattr(self, name) + delta for name, delta in changes.items()})

    @classmethod
    def dealt(cls, categories: int, scoop_deck: int, scoop_discard: int) -> Piles:
        """Fresh Source and Location decks with five face up each (Setup; Prepping the Next Round: "Shuffle both
        the Source and Location Cards, then flip up five new cards from each deck") for ``categories`` in play,
        beside the Inside Scoops as they stand."""
        sources = SOURCES_PER_CATEGORY * categories
        return cls(
            source_deck=sources - ROW,
            source_row=ROW,
            location_deck=LOCATION_CARDS - ROW,
            location_row=ROW,
            scoop_deck=scoop_deck,
            scoop_discard=scoop_discard,
        )


@dataclass(frozen=True)
class LeadResult:
    """How one Lead scored at the end of a round (from its ``lead_scored`` event): ``category``, ``headline``,
    ``value`` and its ``parts`` (``(label, points)``), whether it was ``reported`` (else ``why`` not), whether
    its contributors ``scored`` (else ``unscored`` says why), the ``moves`` as ``(player, before, after,
    floored)`` and the ``contributors``."""

    category: str
    headline: str
    value: int
    parts: tuple[tuple[str, int], ...]
    reported: bool
    why: str
    scored: bool
    unscored: str
    moves: tuple[tuple[str, int, int, bool], ...]
    contributors: tuple[str, ...]


@dataclass(frozen=True)
class RoundScoring:
    """The latest scored round, kept for the screen (End of Round): ``round``, its ``leads`` in Lineup order,
    the network's ``stars_before`` and ``stars`` after, the ``stars_lost`` as ``(lead, why)``, the next round's
    ``next_order`` (empty when the game ended) and the game's ``outcome`` in words when it ended there."""

    round: int
    stars_before: int
    stars: int
    leads: tuple[LeadResult, ...] = ()
    stars_lost: tuple[tuple[str, str], ...] = ()
    next_order: tuple[str, ...] = ()
    outcome: str = ""


@dataclass(frozen=True)
class ChannelWonState:
    """The whole state of a Channel WON game.

    ``reporters`` in seat (clockwise) order; ``categories`` chosen at Setup; ``stacks`` the three Lead cards
    of each category in round order (aligned with ``categories``); ``lineup`` this round's Leads (aligned with
    ``categories``); ``round`` 1-3; ``phase`` 1 (collecting) or 2 (reporting); ``order`` this round's turn
    order; ``turn`` whose turn it is (``None`` once the game is over); ``last_actor`` the player who took the
    latest action (for Early Bird); ``stars`` the Network Rating; ``result`` ``""`` while playing, else
    ``"won"``, ``"co_anchors"``, ``"channel_none"`` or ``"ended"``; ``winners``; ``end_reason`` in words;
    ``last_round`` the Leads each player reported in the latest scored round (for the tie-break);
    ``score_open_leads`` and ``next_round_order`` are the house rules; ``scoring`` the latest scored round
    (:class:`RoundScoring`, ``None`` before the first round ends) and ``acted`` whether anyone has collected
    or played since it (the screen offers the results until then); ``piles`` the decks, face-up rows and
    discard piles (:class:`Piles`).
    """

    reporters: tuple[Reporter, ...]
    categories: tuple[str, ...]
    stacks: tuple[tuple[LeadCard, ...], ...]
    lineup: tuple[Lead, ...]
    round: int = 1
    phase: int = 1
    order: tuple[str, ...] = ()
    turn: str | None = None
    last_actor: str | None = None
    stars: int = STARS
    result: str = ""
    winners: tuple[str, ...] = ()
    end_reason: str = ""
    last_round: tuple[tuple[str, int], ...] = ()
    score_open_leads: bool = False
    next_round_order: str = "clockwise"
    scoring: RoundScoring | None = None
    acted: bool = False
    piles: Piles = Piles()

    @property
    def finished(self) -> bool:
        """Whether the game is over."""
        return bool(self.result)

    @property
    def names(self) -> tuple[str, ...]:
        """Player names in seat order."""
        return tuple(r.name for r in self.reporters)

    @property
    def scores(self) -> dict[str, int]:
        """Points by player name."""
        return {r.name: r.score for r in self.reporters}

    def reporter(self, name: Any) -> Reporter:
        """The player called ``name``; raises :class:`MalformedCommand` naming the players."""
        for reporter in self.reporters:
            if reporter.name == name:
                return reporter
        raise MalformedCommand(f"unknown player {name!r}; players are {', '.join(self.names)}")

    def lead(self, category: Any) -> Lead:
        """This round's Lead of ``category`` (case-insensitive); raises :class:`MalformedCommand`."""
        wanted = category_named(category, self.categories)
        return self.lineup[self.categories.index(wanted)]

    def tiles_left(self, name: str) -> int:
        """Reporter Tiles ``name`` has not placed this round (Setup: three)."""
        return TILES - sum(name in lead.contributors for lead in self.lineup)

    def leads_of(self, name: str) -> tuple[Lead, ...]:
        """The Leads ``name`` has a Reporter Tile on, in Lineup order."""
        return tuple(lead for lead in self.lineup if name in lead.contributors)

    @property
    def at_risk(self) -> tuple[Lead, ...]:
        """The Leads that would be unreported if the round ended now (Network Ratings)."""
        return tuple(lead for lead in self.lineup if not lead.reported)


def _replace_in(items: tuple, index: int, item: Any) -> tuple:
    return items[:index] + (item,) + items[index + 1 :]
