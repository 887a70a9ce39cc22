"""Channel WON state: the reporters, the Lineup of Leads with what was played on them, the star rating and
the latest scored round, as frozen dataclasses (pure data; :mod:`.rules` changes them by folding events).

The numbers the rulebook prints and the names of the rules refusals cite are here too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.errors import MalformedCommand
from companion.games.channel_won.cards import LeadCard, category_named

HAND_LIMIT = 7  # Phase 1: "the hand limit of SEVEN cards"
TILES = 3  # Setup: "The three remaining Reporter Tiles will be used to report on stories"
STARS = 5  # Setup: "the five Ratings Tracker Tokens"
ROUNDS = 3  # Objective / Ending the Game: three rounds
LEADS_PER_CATEGORY = 3  # Setup: "Select THREE Lead Cards from each of the selected categories"
STAR_WITNESS_POINTS = 2  # Inside Scoop Cards: Star Witness, "a 2-point Source"
DISCREDIT_POINTS = -2  # Inside Scoop Cards: Discredit, "decreases the value of a Lead by 2 points"
FINAL_TOUCH_POINTS = 2  # Inside Scoop Cards: Final Touch, "increases the value of a Lead by 2 points"
SECURITY_FOOTAGE = "Security Footage"

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
        (Network Ratings: "a Lead that is not closed or has a score of zero or less" is unreported)."""
        return self.closed and self.sourced and self.value > 0

    def why_unreported(self) -> str:
        """Why the Lead is unreported now (``""`` if it is reported)."""
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
    card name, ``""`` if not said) and ``ability_used``."""

    name: str
    colour: str
    score: int = 0
    hand: int = 0
    passed: bool = False
    done: bool = False
    character: str = ""
    ability_used: bool = False


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
    or played since it (the screen offers the results until then).
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
