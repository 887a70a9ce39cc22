"""Channel WON: the Lineup of Leads, who reported what, the network's star rating and story scoring.

Scope (section names from ``rules/channel-won.txt``; rulings in ``docs/rulings-channel-won.md``):

* Setup: 2 players use four categories, 3-4 five, 5-6 all six; three Lead cards per chosen category,
  dealt as a stack per category, the top card of each stack being this round's Lead (the Lineup); five
  stars; each player three Reporter Tiles, a score of 0, a Pass Token (play side) and a Character whose
  once-per-game Reporter Power is tracked as used / unused.
* Phase 1: players collect one card per turn up to the hand limit of SEVEN; then Phase 2 starts.
* Phase 2: one action per turn: play a Location (one per Lead, places a Reporter Tile), a Source of the
  Lead's category once it has its Location (a tile unless already there; three Leads per player), an
  Inside Scoop (Early Bird, Discredit, Final Touch, Star Witness, Security Footage, Library Archives),
  close a Lead, play a Bonus Source of another category on a closed Lead (no contributor credit), or pass
  (once per round). A player declares they are done; when every player is done the round is scored.
* End of round: every Lead's value (its breakdown as data); contributors move by it, never below 0; one
  star lost per unreported Lead; below one star the game ends at once (Channel None, everyone loses); the
  next round's order starts with the fewest points.
* Game end: after three rounds the most points wins; ties: most Leads reported in the final round; then
  co-anchors.

House-rule options: ``categories`` (the chosen categories), ``leads`` (printed Lead cards per category,
see :mod:`.cards`), ``characters`` (player name → Character name), ``first_player`` (who most recently
watched the news), ``score_open_leads`` (contributors of a Lead still open at round end score its value
too; default false) and ``next_round_order`` (``"clockwise"`` from the player with fewest points, the
default, or ``"fewest_points"`` for everyone sorted by points).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.checks import is_whole
from companion.commands import BANK, Command, EndGame, PlayerSeat
from companion.dice import DiceRequest
from companion.errors import BadOption, GameFinished, IllegalCommand, MalformedCommand
from companion.events import Event, EventCodec, NewEvent
from companion.game import LegalCommand, Outcome, PrivateView, Termination
from companion.games import PlayerView, TableView
from companion.games.channel_won.cards import (
    BONUS_VALUES,
    CATEGORIES,
    KNOWN_CHARACTERS,
    SOURCE_VALUES,
    Character,
    LeadCard,
    category_named,
    character,
    lead_from_option,
    load_catalogue,
)
from companion.games.channel_won.info import INFO
from companion.tracks import Track
from companion.words import and_join, count, verb

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

# event types
CARD_COLLECTED = "card_collected"
REPORTING_STARTED = "reporting_started"
ABILITY_USED = "ability_used"
LOCATION_PLAYED = "location_played"
SOURCE_PLAYED = "source_played"
SCOOP_PLAYED = "scoop_played"
LEAD_CLOSED = "lead_closed"
PASSED = "passed"
PLAYER_DONE = "player_done"
LEAD_SCORED = "lead_scored"
RATING_DROPPED = "rating_dropped"
ROUND_STARTED = "round_started"
GAME_OVER = "game_over"
GAME_ENDED = "game_ended"
EVENT_TYPES = (
    CARD_COLLECTED,
    REPORTING_STARTED,
    ABILITY_USED,
    LOCATION_PLAYED,
    SOURCE_PLAYED,
    SCOOP_PLAYED,
    LEAD_CLOSED,
    PASSED,
    PLAYER_DONE,
    LEAD_SCORED,
    RATING_DROPPED,
    ROUND_STARTED,
    GAME_OVER,
    GAME_ENDED,
)


# -- commands ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class CollectCard(Command):
    """Phase 1: ``player`` collects one card (``kind``: ``"location"``, ``"source"``, ``"scoop"`` or ``""``
    when not said; ``from_row``: a face-up card rather than a deck's top card). Refused at the hand limit
    of seven, outside Phase 1 or out of turn (Phase 1: Collecting Sources)."""

    player: str
    kind: str = ""
    from_row: bool = False


@dataclass(frozen=True, kw_only=True)
class UseAbility(Command):
    """``player`` uses their Character's once-per-game Reporter Power on their own turn (not an action;
    Character Abilities). Refused if already used, or in a phase the Character card does not allow."""

    player: str


@dataclass(frozen=True, kw_only=True)
class PlayLocation(Command):
    """Phase 2 action: ``player`` plays a Location card on the Lead of category ``lead``, placing a Reporter
    Tile (Locations). ``location`` names the card (``""``: the one the Lead needs)."""

    player: str
    lead: str
    location: str = ""


@dataclass(frozen=True, kw_only=True)
class PlaySource(Command):
    """Phase 2 action: ``player`` plays a Source card of ``category`` (``""``: the Lead's own) worth ``value``
    points as printed on the Lead (``None``: the catalogue's printed value) on the Lead ``lead``.

    Of the Lead's category it is a Source (Sources: the Lead must have its Location and be open; places a
    Reporter Tile unless the player has one there); of another category it is a Bonus Source (Bonus
    Sources: closed Leads only, no contributor credit). ``source_type`` names the card (``"Coach"``).
    ``from_archives``: the card is taken from the face-up Source row with a Library Archives Inside Scoop.
    """

    player: str
    lead: str
    value: int | None = None
    category: str = ""
    source_type: str = ""
    from_archives: bool = False


@dataclass(frozen=True, kw_only=True)
class PlayScoop(Command):
    """Phase 2: ``player`` plays the Inside Scoop ``scoop`` (a key of :data:`SCOOPS`) on Lead ``lead``
    (``""`` for Early Bird). Early Bird is played right after the player's own action and gives the
    turn back for one more action; the others are the player's action (Inside Scoop Cards)."""

    player: str
    scoop: str
    lead: str = ""


@dataclass(frozen=True, kw_only=True)
class CloseLead(Command):
    """Phase 2 action: ``player`` flips the open Lead ``lead`` to its closed side (Closing a Lead)."""

    player: str
    lead: str


@dataclass(frozen=True, kw_only=True)
class Pass(Command):
    """Phase 2 action: ``player`` flips their Pass Token to the pause side; once per round (Passing)."""

    player: str


@dataclass(frozen=True, kw_only=True)
class DeclareDone(Command):
    """Phase 2, on ``player``'s turn: they are done for this round (End of Round). When every player is
    done the round is scored."""

    player: str


@dataclass(frozen=True, kw_only=True)
class PassOrDone(Command):
    """The player's second button: :class:`Pass` while the Pass Token shows play, else :class:`DeclareDone`
    (Passing: "If a player is unable to play while their token is on the pause side, they are done")."""

    player: str


# -- state ------------------------------------------------------------------------------------------------


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


def read_catalogue_option(path: str) -> list[dict]:
    """The ``catalogue`` option read from a Lead catalogue file (format in :mod:`.cards`): one option dict per
    card. Raises :class:`companion.errors.CompanionError` for a file that cannot be read or parsed."""
    return [card.to_option() for card in load_catalogue(path)]


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


def format_points(points: int) -> str:
    """``+2`` / ``-1`` / ``0`` as signed text."""
    return f"{points:+d}" if points else "0"


def format_breakdown(value: int, parts: Sequence[Sequence[Any]]) -> str:
    """``"1 = 2 Coach - 1 Business bonus"`` (``"0 = nothing played"`` with no parts)."""
    if not parts:
        return f"{value} = nothing played"
    text = ""
    for i, (label, points) in enumerate(parts):
        if i == 0:
            text = f"{points} {label}"
        else:
            text += f" {'-' if points < 0 else '+'} {abs(points)} {label}"
    return f"{value} = {text}"


def result_lines(scoring: RoundScoring) -> list[tuple[str, str, str]]:
    """The latest scored round for the screen, one Lead a line: ``(category, value, words)`` such as
    ``("Sports", "1", "2 Coach - 1 Business bonus. Reported: Ava 0 → 1, Ben 0 → 1")``, then the stars and
    the next round's order (or the game's end) as ``("Stars", "2", ...)`` and ``("Next", "", ...)``."""
    lines = []
    for lead in scoring.leads:
        parts = format_breakdown(lead.value, lead.parts).split(" = ", 1)[1]
        if lead.reported:
            verdict = "Reported"
        else:
            verdict = f"Unreported ({lead.why}): -1 star"
        if lead.moves:
            moved = ", ".join(
                f"{name} {before} → {after}" + (" (never below 0)" if floored else "")
                for name, before, after, floored in lead.moves
            )
        elif lead.contributors:
            moved = f"{and_join(lead.contributors)} {verb(len(lead.contributors), 'scores', 'score')} nothing" + (
                f" ({lead.unscored})" if lead.unscored and lead.unscored != lead.why else ""
            )
        else:
            moved = "no reporters"
        lines.append((lead.category, str(lead.value), f"{parts}. {verdict}{': ' if lead.reported else '; '}{moved}"))
    lost = len(scoring.stars_lost)
    lines.append(
        (
            "Stars",
            str(max(scoring.stars, 0)),
            f"{scoring.stars_before} → {max(scoring.stars, 0)} of {STARS}: "
            + (f"{count(lost, 'unreported Lead')}, one star each" if lost else "every Lead reported"),
        )
    )
    if scoring.outcome:
        lines.append(("Game over", "", scoring.outcome))
    elif scoring.next_order:
        lines.append(
            (
                f"Round {scoring.round + 1}",
                "",
                "Order: " + ", ".join(scoring.next_order) + f" ({scoring.next_order[0]} first: fewest points)",
            )
        )
    return lines


def stars_text(stars: int) -> str:
    """``"★★★☆☆"`` for 3 of 5 stars."""
    shown = max(0, min(STARS, stars))
    return "★" * shown + "☆" * (STARS - shown)


_KIND_WORDS = {list: "a list", dict: "a table of names", str: "text", bool: "true or false"}


class Refusal(IllegalCommand):
    """A refusal the rulebook makes (an :class:`IllegalCommand`), with ``short``: a few words for a disabled
    button ("has its Location") beside the full ``reason`` and ``rule`` (:meth:`ChannelWon.legal_commands`)."""

    def __init__(self, short: str, reason: str, rule: str | None = None) -> None:
        self.short = short
        super().__init__(reason, rule)


@dataclass(frozen=True)
class ChannelWonMove(LegalCommand):
    """One of :meth:`ChannelWon.legal_commands`, with what a board needs to place it: ``action`` (``"collect"``,
    ``"ability"``, ``"pass"``, ``"done"``, ``"early_bird"``, or on a Lead ``"location"``, ``"security_footage"``,
    ``"star_witness"``, ``"close"``, ``"discredit"``, ``"final_touch"``, ``"source"``), the ``lead`` (category) it
    is on, the ``category`` of the card (a Source of another category is a Bonus Source; for ``"collect"`` the
    card kind) and ``short``: why not in a few words, for a small button."""

    action: str = ""
    lead: str = ""
    category: str = ""
    short: str = ""


#: The Lead dialog's actions besides a Source, in the order offered: action -> (label, Inside Scoop key or "").
LEAD_ACTIONS = {
    "location": "Location",
    "security_footage": "Security Footage (in place of a Location)",
    "star_witness": "Star Witness (+2 Source)",
    "close": "Close the Lead",
    "discredit": "Discredit (-2)",
    "final_touch": "Final Touch (+2)",
}


class ChannelWon:
    """The Channel WON rules (:class:`companion.game.Game`), registered as ``"channel-won"``. See the module
    docstring for the scope."""

    info = INFO
    #: The registry name (``info.name``; ``tests/journal_canon.py`` and ``test_lean_start`` read ``rules.name``).
    name = INFO.name
    #: TRANSITIONAL (``info.default_names``): ``tests/random_games.py`` still reads ``rules.default_names``.
    default_names = INFO.default_names
    events = EventCodec((), raw_types=EVENT_TYPES)
    #: Events after which the journal is backed up: the start of a round and the end of the game.
    safe_point_events = frozenset({ROUND_STARTED, GAME_OVER, GAME_ENDED})
    #: Raised when ``evolve`` gives other states for the same events (stored states are then rebuilt).
    state_version = 1

    # -- set-up -------------------------------------------------------------------------------------
    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Return the options with defaults filled in: every option of ``info.options`` (their kinds, defaults
        and choices), then what each needs beyond its kind.

        ``categories``: a list of distinct category names (``None``: chosen by player count, the first in
        rulebook order); ``leads``: ``{category: [three lead dicts]}`` (see :mod:`.cards`); ``characters``:
        ``{player: character name}``; ``first_player``: a name or ``""``; ``score_open_leads``: bool;
        ``next_round_order``: one of :data:`NEXT_ROUND_ORDERS`; ``catalogue``: a list of lead dicts. Raises
        :class:`BadOption` naming the option.
        """
        specs = {spec.name: spec for spec in self.info.options}
        for option in options:
            if option not in specs:
                raise BadOption(option, f"Channel WON has no such house rule; known: {', '.join(specs)}")
        checked = {name: copy.deepcopy(spec.default) for name, spec in specs.items()}
        checked.update(options)
        for name, spec in specs.items():  # the kind each option has (None: categories by player count)
            value = checked[name]
            if value is None and spec.default is None:
                continue
            if spec.kind is list:
                ok = isinstance(value, Sequence) and not isinstance(value, str)
            elif spec.kind is dict:
                ok = isinstance(value, Mapping)
            else:
                ok = isinstance(value, spec.kind)
            if not ok:
                raise BadOption(name, f"must be {_KIND_WORDS[spec.kind]}, not {value!r} ({spec.help})")
            if spec.choices and value not in spec.choices:
                raise BadOption(name, f"must be one of {', '.join(spec.choices)}, not {value!r}")
        categories = checked["categories"]
        if categories is not None:
            try:
                named = [category_named(c) for c in categories]
            except MalformedCommand as error:
                raise BadOption("categories", str(error)) from None
            if len(set(named)) != len(named):
                raise BadOption("categories", f"a category is named twice: {list(categories)}")
            checked["categories"] = [c for c in CATEGORIES if c in named]
        leads = checked["leads"]
        parsed = {}
        for name, cards in leads.items():
            try:
                category = category_named(name)
            except MalformedCommand as error:
                raise BadOption("leads", str(error)) from None
            if isinstance(cards, (str, Mapping)) or not isinstance(cards, Sequence) or len(cards) != LEADS_PER_CATEGORY:
                raise BadOption("leads", f"{category} needs a list of {LEADS_PER_CATEGORY} Lead cards (Setup)")
            try:
                cards = [lead_from_option(card, f"{category}[{i + 1}]") for i, card in enumerate(cards)]
            except MalformedCommand as error:
                raise BadOption("leads", str(error)) from None
            if any(card.category != category for card in cards):
                raise BadOption("leads", f"every card under {category} must be a {category} Lead")
            parsed[category] = [card.to_option() for card in cards]
        checked["leads"] = parsed
        catalogue = checked["catalogue"]
        try:
            checked["catalogue"] = [
                lead_from_option(card, f"catalogue[{i + 1}]").to_option() for i, card in enumerate(catalogue)
            ]
        except MalformedCommand as error:
            raise BadOption("catalogue", str(error)) from None
        characters = checked["characters"]
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in characters.items()):
            raise BadOption("characters", f"must map player names to Character names, not {characters!r}")
        if len(set(characters.values())) != len(characters):
            raise BadOption("characters", "each player selects a different Character Card (Setup)")
        return checked

    def new_game(self, players: Sequence[PlayerSeat], options: Mapping[str, Any]) -> ChannelWonState:
        """The state at Setup: the Lineup of each category's first Lead, five stars, three tiles, score 0,
        a Pass Token on its play side and an unused Character each; round 1, Phase 1, first player to collect.

        Raises :class:`IllegalCommand` for fewer than 2 or more than 6 players or the wrong number of
        categories (Setup), :class:`MalformedCommand` for empty or repeated names and :class:`BadOption`.
        """
        options = self.check_options(options)
        names = [seat.name for seat in players]
        if not self.info.min_players <= len(names) <= self.info.max_players:
            raise IllegalCommand(
                f"Channel WON is for 2 to 6 players, not {len(names)}",
                "Channel WON Components: 6 Pass Tokens, 24 Reporter Tiles (4 of each color)",
            )
        if any(not isinstance(n, str) or not n.strip() or n == BANK for n in names) or len(set(names)) != len(names):
            raise MalformedCommand(f"player names must be distinct and not empty: {names}")
        wanted = CATEGORY_COUNT[len(names)]
        categories = tuple(options["categories"] or CATEGORIES[:wanted])
        if len(categories) != wanted:
            raise IllegalCommand(
                f"a {len(names)}-player game uses {wanted} news categories, not {len(categories)}", R_SETUP
            )
        if options["catalogue"]:  # deal each category in play not given in `leads` from the catalogue (Setup)
            cards = [lead_from_option(card, "catalogue") for card in options["catalogue"]]
            dealt = {}
            for category in categories:
                if category not in options["leads"]:
                    stack = [c.to_option() for c in cards if c.category == category][:LEADS_PER_CATEGORY]
                    if stack:  # a short catalogue is topped up with blank Leads (values entered as played)
                        blank = LeadCard(category).to_option()
                        dealt[category] = stack + [blank] * (LEADS_PER_CATEGORY - len(stack))
            options = {**options, "leads": {**options["leads"], **dealt}}
        for name in options["leads"]:
            if name not in categories:
                raise BadOption("leads", f"{name} is not one of this game's categories ({', '.join(categories)})")
        for name in options["characters"]:
            if name not in names:
                raise BadOption("characters", f"{name!r} is not a player; players are {', '.join(names)}")
        first = options["first_player"] or names[0]
        if first not in names:
            raise BadOption("first_player", f"{first!r} is not a player; players are {', '.join(names)}")
        stacks = tuple(
            tuple(lead_from_option(card, category) for card in options["leads"][category])
            if category in options["leads"]
            else (LeadCard(category),) * LEADS_PER_CATEGORY
            for category in categories
        )
        reporters = tuple(
            Reporter(seat.name, seat.colour, character=options["characters"].get(seat.name, "")) for seat in players
        )
        start = names.index(first)
        order = tuple(names[start:] + names[:start])
        return ChannelWonState(
            reporters,
            categories,
            stacks,
            tuple(Lead(stack[0]) for stack in stacks),
            order=order,
            turn=order[0],
            score_open_leads=options["score_open_leads"],
            next_round_order=options["next_round_order"],
        )

    # -- decide ---------------------------------------------------------------------------------------------
    def decide(self, state: ChannelWonState, command: Command) -> list[NewEvent]:
        """Return the events ``command`` causes in ``state``, or raise a ``CommandError`` citing the rule.

        Refusals: :class:`GameFinished` after the end; :class:`MalformedCommand` for an unknown player,
        Lead, category, Inside Scoop or a value that is not a whole number; :class:`IllegalCommand` (with
        the rule) for everything the rulebook forbids. A refusal changes nothing.
        """
        if state.finished:
            raise GameFinished(f"the game is over ({state.end_reason}); undo to reopen it")
        if isinstance(command, EndGame):
            return [NewEvent(GAME_ENDED, {"reason": command.reason})]
        if isinstance(command, CollectCard):
            return self._collect(state, command)
        if isinstance(command, UseAbility):
            return self._ability(state, command)
        if isinstance(command, PassOrDone):
            reporter = state.reporter(command.player)
            if reporter.passed or state.phase != 2:
                return self.decide(state, DeclareDone(player=command.player, source=command.source))
            return self.decide(state, Pass(player=command.player, source=command.source))
        if isinstance(command, (PlayLocation, PlaySource, PlayScoop, CloseLead, Pass, DeclareDone)):
            return self._phase2(state, command)
        raise MalformedCommand(f"Channel WON has no command {type(command).__name__}")

    def _collect(self, state: ChannelWonState, command: CollectCard) -> list[NewEvent]:
        reporter = state.reporter(command.player)
        if state.phase != 1:
            raise Refusal(
                "Phase 2 has begun", "cards are collected in Phase 1; Phase 2 (reporting) has begun", R_PHASE1
            )
        if command.kind not in ("", "location", "source", "scoop"):
            raise MalformedCommand(f"a card is a location, source or scoop, not {command.kind!r}")
        if not isinstance(command.from_row, bool):
            raise MalformedCommand(f"from_row is true or false, not {command.from_row!r}")
        if reporter.hand >= HAND_LIMIT:
            raise Refusal("hand full", f"{reporter.name} already holds {HAND_LIMIT} cards, the hand limit", R_PHASE1)
        self._check_turn(state, reporter.name, R_PHASE1)
        hands = {r.name: r.hand for r in state.reporters}
        hands[reporter.name] += 1
        following = self._next_in_order(state, reporter.name, lambda name: hands[name] < HAND_LIMIT)
        events = [
            NewEvent(
                CARD_COLLECTED,
                {
                    "player": reporter.name,
                    "kind": command.kind,
                    "from_row": command.from_row,
                    "hand": hands[reporter.name],
                    "next": following,
                },
            )
        ]
        if following is None:
            events.append(NewEvent(REPORTING_STARTED, {"round": state.round, "first": state.order[0]}))
        return events

    def _ability(self, state: ChannelWonState, command: UseAbility) -> list[NewEvent]:
        reporter = state.reporter(command.player)
        card = character(reporter.character)
        if reporter.ability_used:
            raise Refusal(
                "used: once per game", f"{reporter.name} has used their Character's power: once per game", R_CHARACTERS
            )
        if card.phase is not None and card.phase != state.phase:
            raise Refusal(
                f"Phase {card.phase} only",
                f"{card.name}'s power is for Phase {card.phase}, not Phase {state.phase}",
                R_CHARACTERS,
            )
        self._check_turn(state, reporter.name, R_CHARACTERS)
        return [
            NewEvent(
                ABILITY_USED,
                {
                    "player": reporter.name,
                    "character": reporter.character,
                    "power": card.power,
                    "phase": state.phase,
                    "round": state.round,
                },
            )
        ]

    def _check_turn(self, state: ChannelWonState, name: str, rule: str) -> None:
        if state.turn != name:
            raise Refusal("not your turn", f"it is {state.turn}'s turn, not {name}'s", rule)

    @staticmethod
    def _next_in_order(state: ChannelWonState, name: str, eligible) -> str | None:
        """The first player after ``name`` in this round's order (wrapping, ``name`` last) who is ``eligible``."""
        order = state.order
        start = order.index(name)
        for step in range(1, len(order) + 1):
            candidate = order[(start + step) % len(order)]
            if eligible(candidate):
                return candidate
        return None

    def _after_action(self, state: ChannelWonState, name: str) -> str | None:
        done = {r.name for r in state.reporters if r.done}
        return self._next_in_order(state, name, lambda other: other not in done)

    def _phase2(self, state: ChannelWonState, command: Command) -> list[NewEvent]:
        reporter = state.reporter(command.player)
        if state.phase != 2:
            raise Refusal("Phase 1 first", "Phase 1 first: every hand fills up to seven cards", R_PHASE1)
        if reporter.done:
            raise Refusal("done this round", f"{reporter.name} is done for this round", R_ROUND_END)
        if isinstance(command, PlayScoop) and command.scoop == "early_bird":
            return self._early_bird(state, reporter)
        self._check_turn(state, reporter.name, R_PHASE2)
        following = self._after_action(state, reporter.name)
        if isinstance(command, DeclareDone):
            return self._done(state, reporter)
        if isinstance(command, Pass):
            if reporter.passed:
                raise Refusal("passed already", f"{reporter.name} has passed already: one pass per round", R_PASSING)
            return [NewEvent(PASSED, {"player": reporter.name, "next": following})]
        if isinstance(command, CloseLead):
            lead = state.lead(command.lead)
            if lead.closed:
                raise Refusal("already closed", f"the {lead.category} Lead is already closed", R_CLOSING)
            return [NewEvent(LEAD_CLOSED, {"player": reporter.name, "lead": lead.category, "next": following})]
        if reporter.hand < 1:
            raise Refusal("no cards left", f"{reporter.name} has no cards left in hand", R_PHASE2)
        if isinstance(command, PlayLocation):
            return [self._location(state, reporter, state.lead(command.lead), command.location, following)]
        if isinstance(command, PlaySource):
            return [self._source(state, reporter, command, following)]
        return [self._scoop(state, reporter, command, following)]

    def _early_bird(self, state: ChannelWonState, reporter: Reporter) -> list[NewEvent]:
        if reporter.hand < 1:
            raise Refusal("no cards left", f"{reporter.name} has no cards left in hand", R_PHASE2)
        if state.last_actor != reporter.name:
            last = f"the last action was {state.last_actor}'s" if state.last_actor else "no action was just taken"
            raise Refusal(
                "after your own action",
                f"Early Bird comes right after your own action; {last}",
                "Channel WON Early Bird",
            )
        return [
            NewEvent(
                SCOOP_PLAYED,
                {"player": reporter.name, "scoop": "early_bird", "lead": "", "points": 0, "next": reporter.name},
            )
        ]

    def _done(self, state: ChannelWonState, reporter: Reporter) -> list[NewEvent]:
        after = replace(
            state, reporters=tuple(replace(r, done=True) if r.name == reporter.name else r for r in state.reporters)
        )
        following = self._after_action(after, reporter.name)
        events = [NewEvent(PLAYER_DONE, {"player": reporter.name, "passed": reporter.passed, "next": following})]
        if following is None:
            events += self._end_of_round(after)
        return events

    def _new_contributor(self, state: ChannelWonState, reporter: Reporter, lead: Lead, rule: str) -> bool:
        if reporter.name in lead.contributors:
            return False
        if state.tiles_left(reporter.name) < 1:
            on = ", ".join(l.category for l in state.leads_of(reporter.name))
            raise Refusal(
                "no tile left", f"{reporter.name} already reports on three Leads ({on}): no Reporter Tile left", rule
            )
        return True

    def _location(self, state, reporter, lead: Lead, location: Any, following, scoop: bool = False) -> NewEvent:
        rule = "Channel WON Security Footage" if scoop else R_LOCATIONS
        if not isinstance(location, str):
            raise MalformedCommand(f"a Location is named in text, not {location!r}")
        if lead.location is not None:
            raise Refusal(
                "has its Location", f"the {lead.category} Lead has its Location already: one per Lead", R_LOCATIONS
            )
        if lead.closed:
            raise Refusal("Lead is closed", f"the {lead.category} Lead is closed: no more contributors", R_CLOSING)
        needed = lead.card.location
        location = location.strip()
        if not scoop and needed and location and location.casefold() != needed.casefold():
            raise Refusal(
                "another Location", f"the {lead.category} Lead needs the {needed} Location, not {location}", R_LOCATIONS
            )
        self._new_contributor(state, reporter, lead, rule)
        name = SECURITY_FOOTAGE if scoop else (location or needed)
        return NewEvent(
            LOCATION_PLAYED,
            {"player": reporter.name, "lead": lead.category, "location": name, "scoop": scoop, "next": following},
        )

    def _source(self, state, reporter, command: PlaySource, following) -> NewEvent:
        lead = state.lead(command.lead)
        category = category_named(command.category, state.categories) if command.category else lead.category
        if not isinstance(command.source_type, str) or not isinstance(command.from_archives, bool):
            raise MalformedCommand("source_type is text and from_archives is true or false")
        source_type = command.source_type.strip()
        bonus = category != lead.category
        value = command.value
        if value is None:
            value = lead.card.bonus_value(category) if bonus else lead.card.source_value(source_type)
            if value is None:
                what = f"the {category} Bonus Source" if bonus else f"the {source_type or 'Source'}"
                raise MalformedCommand(f"enter the points the {lead.category} Lead prints for {what}")
        allowed = BONUS_VALUES if bonus else SOURCE_VALUES
        if not is_whole(value) or value not in allowed:
            raise MalformedCommand(
                f"a {'Bonus Source' if bonus else 'Source'} is worth a whole number from "
                f"{allowed.start} to {allowed.stop - 1} points, not {value!r}"
            )
        via = "Channel WON Library Archives; " if command.from_archives else ""
        if bonus:
            if not lead.closed:
                raise Refusal(
                    "closed Leads only",
                    f"a {category} Source is a Bonus Source on {lead.category}: only once it is closed",
                    via + R_BONUS,
                )
            listed = [c for c, _ in lead.card.bonus]
            if listed and category not in listed:
                raise Refusal(
                    "no such Bonus here",
                    f"the {lead.category} Lead takes Bonus Sources of {', '.join(listed)} only",
                    via + R_BONUS,
                )
            new = False
        else:
            if lead.closed:
                raise Refusal(
                    "Lead is closed",
                    f"the {lead.category} Lead is closed: no more contributors or {lead.category} Sources",
                    via + R_CLOSING,
                )
            if lead.location is None:
                raise Refusal(
                    "needs its Location",
                    f"the {lead.category} Lead has no Location yet: no Source before it",
                    via + R_LOCATIONS,
                )
            new = self._new_contributor(state, reporter, lead, via + R_SOURCES)
        return NewEvent(
            SOURCE_PLAYED,
            {
                "player": reporter.name,
                "lead": lead.category,
                "category": category,
                "source_type": source_type,
                "points": value,
                "bonus": bonus,
                "from_archives": command.from_archives,
                "new_contributor": new,
                "next": following,
            },
        )

    def _scoop(self, state, reporter, command: PlayScoop, following) -> NewEvent:
        if command.scoop not in SCOOPS:
            raise MalformedCommand(
                f"no Inside Scoop {command.scoop!r}; Inside Scoops: {', '.join(SCOOPS)}, "
                f"and Library Archives (a Source played from the face-up row)"
            )
        lead = state.lead(command.lead)
        title = SCOOPS[command.scoop]
        rule = f"Channel WON {title}"
        if command.scoop == "security_footage":
            return self._location(state, reporter, lead, SECURITY_FOOTAGE, following, scoop=True)
        if command.scoop in ("discredit", "final_touch"):
            if not lead.closed:
                raise Refusal(
                    "closed Leads only", f"{title} is for closed Leads only; the {lead.category} Lead is open", rule
                )
            points = DISCREDIT_POINTS if command.scoop == "discredit" else FINAL_TOUCH_POINTS
            return NewEvent(
                SCOOP_PLAYED,
                {
                    "player": reporter.name,
                    "scoop": command.scoop,
                    "lead": lead.category,
                    "points": points,
                    "new_contributor": False,
                    "next": following,
                },
            )
        # star_witness: a 2-point Source of the Lead's category, on an open Lead that has its Location
        if lead.closed:
            raise Refusal(
                "Lead is closed", f"Star Witness is for open Leads only; the {lead.category} Lead is closed", rule
            )
        if lead.location is None:
            raise Refusal(
                "needs its Location",
                f"Star Witness is a Source: the {lead.category} Lead has no Location yet",
                f"{rule}; {R_LOCATIONS}",
            )
        new = self._new_contributor(state, reporter, lead, f"{rule}; {R_SOURCES}")
        return NewEvent(
            SCOOP_PLAYED,
            {
                "player": reporter.name,
                "scoop": "star_witness",
                "lead": lead.category,
                "points": STAR_WITNESS_POINTS,
                "new_contributor": new,
                "next": following,
            },
        )

    # -- end of round -----------------------------------------------------------------------------------
    def _end_of_round(self, state: ChannelWonState) -> list[NewEvent]:
        """Score every Lead, drop the stars, then start the next round or end the game (End of Round)."""
        events: list[NewEvent] = []
        scores = dict(state.scores)
        reported = {name: 0 for name in state.names}
        unreported: list[tuple[Lead, str]] = []
        for lead in state.lineup:
            counts = (lead.closed or state.score_open_leads) and lead.sourced
            unscored = "" if counts else ("no Source" if lead.closed or state.score_open_leads else "not closed")
            moves = []
            if counts:
                for name in lead.contributors:
                    before = scores[name]
                    after = max(0, before + lead.value)
                    scores[name] = after
                    moves.append({"player": name, "before": before, "after": after, "floored": before + lead.value < 0})
            why = lead.why_unreported()
            if not why:
                for name in lead.contributors:
                    reported[name] += 1
            else:
                unreported.append((lead, why))
            events.append(
                NewEvent(
                    LEAD_SCORED,
                    {
                        "round": state.round,
                        "lead": lead.category,
                        "headline": lead.card.headline,
                        "value": lead.value,
                        "parts": lead.breakdown(),
                        "reported": not why,
                        "why": why,
                        "scored": counts,
                        "unscored": unscored,
                        "moves": moves,
                        "contributors": list(lead.contributors),
                        "rule": R_ROUND_END,
                    },
                )
            )
        stars = state.stars
        for lead, why in unreported:
            stars = max(0, stars - 1)  # the five Ratings Tracker Tokens run out at 0
            events.append(
                NewEvent(RATING_DROPPED, {"lead": lead.category, "why": why, "stars": stars, "rule": R_RATINGS})
            )
        last_round = [[name, reported[name]] for name in state.names]
        if stars < 1:
            events.append(
                NewEvent(
                    GAME_OVER,
                    {
                        "result": "channel_none",
                        "winners": [],
                        "scores": scores,
                        "round": state.round,
                        "reported": last_round,
                        "reason": "the Network Rating fell below one star: Channel WON "
                        "became Channel None and everyone loses",
                        "rule": R_RATINGS,
                    },
                )
            )
        elif state.round == ROUNDS:
            events.append(self._final(state, scores, reported, last_round))
        else:
            events.append(
                NewEvent(
                    ROUND_STARTED,
                    {
                        "round": state.round + 1,
                        "order": list(self._next_order(state, scores)),
                        "reported": last_round,
                        "rule": R_ROUND_END,
                    },
                )
            )
        return events

    def _next_order(self, state: ChannelWonState, scores: Mapping[str, int]) -> tuple[str, ...]:
        """Prepping the Next Round: fewest points first, a tie going to the earlier in the previous order;
        then clockwise (seat order) from them, or everyone by points under ``next_round_order="fewest_points"``."""
        ranked = sorted(state.order, key=lambda name: (scores[name], state.order.index(name)))
        if state.next_round_order == "fewest_points":
            return tuple(ranked)
        names = list(state.names)
        start = names.index(ranked[0])
        return tuple(names[start:] + names[:start])

    def _final(self, state, scores, reported, last_round) -> NewEvent:
        best = max(scores.values())
        leaders = [name for name in state.names if scores[name] == best]
        tiebreak = ""
        if len(leaders) > 1:
            most = max(reported[name] for name in leaders)
            still = [name for name in leaders if reported[name] == most]
            tiebreak = f"tied on {best} points; most Leads reported in the final round: " + ", ".join(
                f"{name} {reported[name]}" for name in leaders
            )
            leaders = still
        if len(leaders) == 1:
            result, reason = "won", f"{leaders[0]} wins with {best} points"
        else:
            result, reason = (
                "co_anchors",
                f"{' and '.join(leaders)} share the anchor desk as co-anchors ({best} points)",
            )
        return NewEvent(
            GAME_OVER,
            {
                "result": result,
                "winners": leaders,
                "scores": scores,
                "round": state.round,
                "reported": last_round,
                "tiebreak": tiebreak,
                "reason": reason,
                "rule": R_GAME_END,
            },
        )

    # -- evolve ---------------------------------------------------------------------------------------------
    def evolve(self, state: ChannelWonState, event: Event) -> ChannelWonState:
        """Fold one event into the state (pure; events were checked when they were decided)."""
        event_type, payload = event.type, event.payload
        if event_type == CARD_COLLECTED:
            state = self._with_reporter(state, payload["player"], hand=payload["hand"])
            return replace(state, turn=payload["next"] or state.turn, acted=True)
        if event_type == REPORTING_STARTED:
            return replace(state, phase=2, turn=payload["first"], last_actor=None)
        if event_type == ABILITY_USED:
            return self._with_reporter(state, payload["player"], ability_used=True)
        if event_type in (LOCATION_PLAYED, SOURCE_PLAYED, SCOOP_PLAYED, LEAD_CLOSED, PASSED):
            return replace(self._action(state, event_type, payload), acted=True)
        if event_type == PLAYER_DONE:
            state = self._with_reporter(state, payload["player"], done=True)
            return replace(state, turn=payload["next"], last_actor=None, acted=True)
        if event_type == LEAD_SCORED:
            reporters = state.reporters
            for move in payload["moves"]:
                reporters = tuple(replace(r, score=move["after"]) if r.name == move["player"] else r for r in reporters)
            return replace(state, reporters=reporters, scoring=self._scored(state, payload))
        if event_type == RATING_DROPPED:
            scoring = state.scoring
            if scoring is not None:
                scoring = replace(
                    scoring,
                    stars=payload["stars"],
                    stars_lost=scoring.stars_lost + ((payload["lead"], payload["why"]),),
                )
            return replace(state, stars=payload["stars"], scoring=scoring)
        if event_type == ROUND_STARTED:
            number = payload["round"]
            scoring = state.scoring and replace(state.scoring, next_order=tuple(payload["order"]))
            return replace(
                state,
                round=number,
                phase=1,
                order=tuple(payload["order"]),
                turn=payload["order"][0],
                last_actor=None,
                lineup=tuple(Lead(stack[number - 1]) for stack in state.stacks),
                reporters=tuple(replace(r, hand=0, passed=False, done=False) for r in state.reporters),
                last_round=tuple((name, count) for name, count in payload["reported"]),
                scoring=scoring,
                acted=False,
            )
        if event_type == GAME_OVER:
            scoring = state.scoring and replace(state.scoring, outcome=payload["reason"])
            return replace(
                state,
                result=payload["result"],
                winners=tuple(payload["winners"]),
                turn=None,
                end_reason=payload["reason"],
                scoring=scoring,
                acted=False,
                last_round=tuple((name, count) for name, count in payload["reported"]),
            )
        if event_type == GAME_ENDED:
            return replace(state, result="ended", turn=None, end_reason=payload["reason"])
        raise ValueError(f"Channel WON cannot apply an event of type {event_type!r}")

    @staticmethod
    def _scored(state: ChannelWonState, p: Mapping[str, Any]) -> RoundScoring:
        """The round's :class:`RoundScoring` with the Lead of a ``lead_scored`` payload added (the first
        Lead of a round starts a new record)."""
        scoring = state.scoring
        if scoring is None or scoring.round != p["round"]:
            scoring = RoundScoring(p["round"], state.stars, state.stars)
        contributors = tuple(p.get("contributors", ()))
        result = LeadResult(
            p["lead"],
            p.get("headline", ""),
            p["value"],
            tuple((label, points) for label, points in p["parts"]),
            p["reported"],
            p["why"],
            p.get("scored", bool(p["moves"])),
            p.get("unscored", ""),
            tuple((m["player"], m["before"], m["after"], m["floored"]) for m in p["moves"]),
            contributors,
        )
        return replace(scoring, leads=scoring.leads + (result,))

    @staticmethod
    def _with_reporter(state: ChannelWonState, name: str, **changes) -> ChannelWonState:
        return replace(state, reporters=tuple(replace(r, **changes) if r.name == name else r for r in state.reporters))

    def _action(self, state: ChannelWonState, event_type: str, payload: Mapping[str, Any]) -> ChannelWonState:
        name = payload["player"]
        reporter = state.reporter(name)
        early_bird = event_type == SCOOP_PLAYED and payload["scoop"] == "early_bird"
        if event_type == PASSED:
            state = self._with_reporter(state, name, passed=True)
        elif event_type != LEAD_CLOSED:
            state = self._with_reporter(state, name, hand=reporter.hand - 1)
        if event_type != PASSED and not early_bird:
            index = state.categories.index(payload["lead"])
            lead = state.lineup[index]
            if event_type == LEAD_CLOSED:
                lead = replace(lead, closed=True)
            elif event_type == LOCATION_PLAYED:
                lead = replace(lead, location=payload["location"], contributors=lead.contributors + (name,))
            else:
                lead = replace(lead, plays=lead.plays + (self._play(payload),))
                if payload.get("new_contributor"):
                    lead = replace(lead, contributors=lead.contributors + (name,))
            state = replace(state, lineup=_replace_in(state.lineup, index, lead))
        return replace(state, turn=payload["next"], last_actor=None if early_bird else name)

    @staticmethod
    def _play(payload: Mapping[str, Any]) -> Play:
        if "scoop" in payload:
            return Play(SCOOPS[payload["scoop"]], payload["scoop"], payload["points"], payload["player"])
        if payload["bonus"]:
            return Play(f"{payload['category']} bonus", "bonus", payload["points"], payload["player"])
        return Play(
            payload["source_type"] or f"{payload['category']} Source", "source", payload["points"], payload["player"]
        )

    # -- describing -----------------------------------------------------------------------------------------
    def describe(self, event: Event) -> str:
        """One readable line per event, e.g. ``"Sports Lead 1 = 2 Coach - 1 Business bonus: reported; Ava 0 → 1"``."""
        event_type = event.type
        p = payload = event.payload
        if event_type == CARD_COLLECTED:
            kind = {"location": "a Location", "source": "a Source", "scoop": "an Inside Scoop"}.get(p["kind"], "a card")
            where = " from the face-up row" if p["from_row"] else ""
            return f"{p['player']} collects {kind}{where} ({p['hand']}/{HAND_LIMIT})"
        if event_type == REPORTING_STARTED:
            return f"Every hand holds {HAND_LIMIT}: Phase 2 of round {p['round']}, {p['first']} starts"
        if event_type == ABILITY_USED:
            who = p["character"] or "their Character"
            power = f": {p['power']}" if p["power"] else ""
            return f"{p['player']} uses {who}'s Reporter Power{power} (once per game)"
        if event_type == LOCATION_PLAYED:
            via = " (Inside Scoop, in place of a Location)" if p["scoop"] else ""
            where = p['location'] or 'a Location'
            return f"{p['player']} plays {where}{via} on the {p['lead']} Lead and places a Reporter Tile"
        if event_type == SOURCE_PLAYED:
            via = " from the face-up row (Library Archives)" if p["from_archives"] else ""
            if p["bonus"]:
                return (
                    f"{p['player']} plays a {p['category']} Bonus Source{via} on the closed {p['lead']} Lead: "
                    f"{format_points(p['points'])} (no contributor credit)"
                )
            tile = " and places a Reporter Tile" if p["new_contributor"] else ""
            return (
                f"{p['player']} plays {p['source_type'] or 'a Source'}{via} on the {p['lead']} Lead: "
                f"{format_points(p['points'])}{tile}"
            )
        if event_type == SCOOP_PLAYED:
            title = SCOOPS[p["scoop"]]
            if p["scoop"] == "early_bird":
                return f"{p['player']} plays Early Bird: another action right away"
            tile = " and places a Reporter Tile" if p.get("new_contributor") else ""
            return f"{p['player']} plays {title} on the {p['lead']} Lead: {format_points(p['points'])}{tile}"
        if event_type == LEAD_CLOSED:
            return f"{p['player']} closes the {p['lead']} Lead"
        if event_type == PASSED:
            return f"{p['player']} passes (Pass Token to pause)"
        if event_type == PLAYER_DONE:
            return f"{p['player']} is done for the round"
        if event_type == LEAD_SCORED:
            head = f"{p['lead']} Lead {format_breakdown(p['value'], p['parts'])}"
            state = "reported" if p["reported"] else f"unreported ({p['why']})"
            moves = ", ".join(
                f"{m['player']} {m['before']} → {m['after']}" + (" (never below 0)" if m["floored"] else "")
                for m in p["moves"]
            )
            if not p["scored"] and p["contributors"]:
                who = p['contributors']
                moves = f"{and_join(who)} {verb(len(who), 'scores', 'score')} nothing ({p['unscored']})"
            return f"{head}: {state}" + (f"; {moves}" if moves else "")
        if event_type == RATING_DROPPED:
            return (
                f"The network loses a star for the unreported {p['lead']} Lead ({p['why']}): {p['stars']}/{STARS} stars"
            )
        if event_type == ROUND_STARTED:
            return f"Round {p['round']} begins; order: {', '.join(p['order'])}"
        if event_type == GAME_OVER:
            extra = f" ({p['tiebreak']})" if p.get("tiebreak") else ""
            return f"Game over: {p['reason']}{extra}"
        if event_type == GAME_ENDED:
            return f"Game ended: {p['reason']}"
        return f"{event_type} {dict(payload)}"

    # -- buttons, dice, finish ------------------------------------------------------------------------------
    def button_command(self, action: str, player: str, source: str = "button") -> Command:
        """The command a seat button stands for: ``on_the_air`` → :class:`CollectCard` (Phase 1),
        ``sponsor`` → :class:`PassOrDone` (Phase 2), ``roll`` → :class:`~companion.commands.RollDice` (Channel
        WON asks for no dice, so the table refuses it). Raises :class:`MalformedCommand` for another action."""
        from companion.commands import RollDice

        if action == "on_the_air":
            return CollectCard(player=player, source=source)
        if action == "sponsor":
            return PassOrDone(player=player, source=source)
        if action == "roll":
            return RollDice(roller=player, source=source)
        raise MalformedCommand(
            f"Channel WON has no button action {action!r}; actions: {', '.join(b.action for b in self.info.buttons)}"
        )

    def pending_dice(self, state: ChannelWonState) -> DiceRequest | None:
        """Always ``None``: Channel WON uses no dice."""
        return None

    # -- views ------------------------------------------------------------------------------------------------
    def warning(self, state: ChannelWonState) -> str:
        """The early Channel None warning, or ``""``: ``"CHANNEL NONE RISK: 5 Leads at risk"`` when the Leads
        unreported now would take the rating below one star if the round ended now, ``"Warning: 4 Leads at
        risk"`` when they would leave exactly one (Network Ratings)."""
        if state.finished or state.phase != 2:
            return ""
        at_risk = len(state.at_risk)
        left = state.stars - at_risk
        if left < 1:
            return f"CHANNEL NONE RISK: {count(at_risk, 'Lead')} at risk"
        if left == 1:
            return f"Warning: {count(at_risk, 'Lead')} at risk"
        return ""

    def status(self, state: ChannelWonState) -> str:
        """The status line: the result, or the round, phase and whose turn it is, plus any warning."""
        if state.finished:
            return f"Game over: {state.end_reason}"
        phase = "Phase 1: collect" if state.phase == 1 else "Phase 2: report"
        text = f"Round {state.round}/{ROUNDS} · {phase} · {state.turn}'s turn · {state.stars}/{STARS} stars"
        warning = self.warning(state)
        return f"{text} · {warning}" if warning else text

    def public_view(self, state: ChannelWonState) -> TableView:
        """The public picture: all of Channel WON is public (scores, the Lineup, tokens, hand counts)."""
        players = []
        for reporter in state.reporters:
            at_risk = [lead.category for lead in state.leads_of(reporter.name) if not lead.reported]
            tracks = (
                Track("score", "Points", reporter.score, 0, None, rule="Channel WON End of Round"),
                Track("tiles", "Reporter Tiles", state.tiles_left(reporter.name), 0, TILES, rule=R_SETUP),
                Track("hand", "Cards", reporter.hand, 0, HAND_LIMIT, rule=R_PHASE1),
            )
            badges = []
            if reporter.passed:
                badges.append("Passed")
            if reporter.done:
                badges.append("Done")
            badges.append("Ability used" if reporter.ability_used else "Ability ready")
            if reporter.name in state.winners:
                badges.append("Winner" if state.result == "won" else "Co-anchor")
            # panel text is plain ASCII (the panels' font has no symbols)
            token = "done" if reporter.done else ("paused" if reporter.passed else "play")
            lines = (
                f"Tiles {state.tiles_left(reporter.name)} | Pass {token}",
                ("Risk: " + " ".join(at_risk))
                if at_risk and state.phase == 2
                else f"Hand {reporter.hand}/{HAND_LIMIT}",
            )
            players.append(
                PlayerView(
                    reporter.name,
                    reporter.colour,
                    None,
                    tracks,
                    tuple(badges),
                    reporter.name == state.turn,
                    f"{reporter.score} pts",
                    lines,
                )
            )
        notes = [f"Network Rating {state.stars} of {STARS} stars"]
        for lead in state.lineup:
            state_word = "closed" if lead.closed else "open"
            who = ", ".join(lead.contributors) or "no reporters"
            notes.append(f"{lead.category}: {state_word}, {format_breakdown(lead.value, lead.breakdown())}; {who}")
        warning = self.warning(state)
        if warning:
            notes.insert(0, warning)
        return TableView(self.info.title, tuple(players), None, self.status(state), state.finished, tuple(notes))

    def private_view(self, state: ChannelWonState, seat: str) -> PrivateView:
        """What ``seat``'s own panel and phone show: the cards in their hand (the companion tracks how many, not
        which: Phase 1, the hand limit of seven), their Reporter Tiles left, the Leads they report on and their
        Character's once-per-game Reporter Power (Character Abilities). Raises :class:`MalformedCommand` for
        an unknown seat."""
        reporter = state.reporter(seat)
        card = character(reporter.character) if reporter.character else None
        tiles = state.tiles_left(seat)
        leads = ", ".join(lead.category for lead in state.leads_of(seat)) or "none"
        power = "used" if reporter.ability_used else "ready"
        items = [
            ("Cards in hand", f"{reporter.hand} of {HAND_LIMIT}"),
            ("Reporter Tiles", f"{tiles} of {TILES} left"),
            ("Reporting on", leads),
            ("Pass Token", "done" if reporter.done else ("pause" if reporter.passed else "play")),
            ("Character", reporter.character or "not said"),
            ("Reporter Power", f"{power}: {card.power}" if card and card.power else power),
        ]
        lines = (f"Hand {reporter.hand}/{HAND_LIMIT} cards", f"Tiles {tiles}/{TILES} Power {power}")
        return PrivateView(seat, lines, tuple(items))

    def legal_commands(self, state: ChannelWonState, seat: str) -> tuple[ChannelWonMove, ...]:
        """What ``seat`` may do now, as :class:`ChannelWonMove` entries: in Phase 1 collect a Location, Source or
        Inside Scoop card and use the Reporter Power; in Phase 2 the power, pass, be done, Early Bird, and on each
        Lead of the Lineup its Location, Security Footage, Star Witness, closing it, Discredit, Final Touch, a
        Source of its category and a Bonus Source of each other category in play (``command`` is ``None`` for
        the Sources: the player enters the printed value). Each is asked of :meth:`decide` itself (which is
        pure), so what is offered is exactly what it accepts: a forbidden one is ``enabled=False`` with the
        refusal's ``reason``, its ``rule`` and a ``short`` reason. Empty once the game is over. Raises
        :class:`MalformedCommand` for an unknown seat."""
        state.reporter(seat)
        if state.finished:
            return ()
        moves: list[ChannelWonMove] = []

        def offer(command: Command, label: str, action: str, *, lead: str = "", category: str = "") -> None:
            complete = action != "source"
            try:
                self.decide(state, command)
            except IllegalCommand as error:
                short = error.short if isinstance(error, Refusal) else error.reason
                moves.append(
                    ChannelWonMove(
                        type(command).__name__,
                        label,
                        command if complete else None,
                        False,
                        error.reason,
                        error.rule or "",
                        action=action,
                        lead=lead,
                        category=category,
                        short=short,
                    )
                )
            else:
                moves.append(
                    ChannelWonMove(
                        type(command).__name__,
                        label,
                        command if complete else None,
                        action=action,
                        lead=lead,
                        category=category,
                    )
                )

        if state.phase == 1:
            for kind, word in (("location", "a Location"), ("source", "a Source"), ("scoop", "an Inside Scoop")):
                offer(CollectCard(player=seat, kind=kind), f"Collect {word}", "collect", category=kind)
        offer(UseAbility(player=seat), "Use the Reporter Power", "ability")
        if state.phase == 1:
            return tuple(moves)
        offer(Pass(player=seat), "Pass", "pass")
        offer(DeclareDone(player=seat), "Done for the round", "done")
        offer(PlayScoop(player=seat, scoop="early_bird"), "Early Bird (another action)", "early_bird")
        for lead in state.lineup:
            where = lead.category
            for action, label in LEAD_ACTIONS.items():
                if action == "location":
                    command: Command = PlayLocation(player=seat, lead=where)
                elif action == "close":
                    command = CloseLead(player=seat, lead=where)
                else:
                    command = PlayScoop(player=seat, scoop=action, lead=where)
                offer(command, f"{label} on {where}", action, lead=where)
            for category in state.categories:
                bonus = category != where
                sample = 1  # any printed value the rules accept: legality does not depend on it
                command = PlaySource(player=seat, lead=where, value=sample, category=category if bonus else "")
                label = f"{category} Bonus Source on {where}" if bonus else f"{where} Source"
                offer(command, label, "source", lead=where, category=category)
        return tuple(moves)

    def outcome(self, state: ChannelWonState) -> Outcome | None:
        """How the game came out (``None`` while it is played): after three rounds the most points wins, a tie
        going to the most Leads reported in the final round, then co-anchors (Ending the Game; Termination
        ``WON`` with one or several winners); Channel None when the rating fell below one star, everyone loses
        (Network Ratings; ``ALL_LOST``); or ended at the table (``ENDED_BY_HAND``). ``ranking``: points, then
        Leads reported in the final round (seat order for a tie), for a game the rules scored."""
        if not state.finished:
            return None
        figures = self.figures(state)
        if state.result == "ended":
            return Outcome(Termination.ENDED_BY_HAND, (), figures, f"ended at the table: {state.end_reason}")
        if state.result == "channel_none":
            return Outcome(Termination.ALL_LOST, (), figures, f"{state.end_reason} ({R_RATINGS})")
        reported = dict(state.last_round)
        ranking = sorted(state.names, key=lambda name: (-state.reporter(name).score, -reported.get(name, 0)))
        best = state.reporter(ranking[0]).score
        tied = [name for name in state.names if state.reporter(name).score == best]
        reason = f"{state.end_reason} ({R_GAME_END})"
        if len(tied) > 1:
            counts = ", ".join(f"{name} {reported.get(name, 0)}" for name in tied)
            reason += f"; tied on {best} points, most Leads reported in the final round: {counts}"
        return Outcome(Termination.WON, state.winners, figures, reason, tuple(ranking))

    def figures(self, state: ChannelWonState) -> dict[str, dict[str, int | str]]:
        """Each reporter's figures now, in seat order: ``points`` (Score Track), ``reporter_tiles`` left this
        round (of three), ``cards`` in hand (of seven), ``leads`` reported on this round, ``pass_token``
        (``play``, ``pause`` or ``done``) and ``power`` (``ready`` or ``used``); plus the network's ``stars``."""
        return {
            r.name: {
                "points": r.score,
                "reporter_tiles": state.tiles_left(r.name),
                "cards": r.hand,
                "leads": len(state.leads_of(r.name)),
                "pass_token": "done" if r.done else ("pause" if r.passed else "play"),
                "power": "used" if r.ability_used else "ready",
                "stars": state.stars,
            }
            for r in state.reporters
        }


CHANNEL_WON = ChannelWon()

__all__ = [
    "CHANNEL_WON",
    "ChannelWon",
    "ChannelWonState",
    "Lead",
    "Play",
    "Reporter",
    "ChannelWonMove",
    "Refusal",
    "CollectCard",
    "UseAbility",
    "PlayLocation",
    "PlaySource",
    "PlayScoop",
    "CloseLead",
    "Pass",
    "DeclareDone",
    "PassOrDone",
    "Character",
    "KNOWN_CHARACTERS",
    "LeadResult",
    "RoundScoring",
    "format_breakdown",
    "result_lines",
    "stars_text",
]
