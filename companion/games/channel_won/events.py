"""Channel WON events: one frozen dataclass per journal event type (:class:`companion.events.Event`), each with
its journal ``TYPE`` and fields named as the payload keys the journal has always held, so journals written
before the events were typed decode as they are; each says what happened in one line (:meth:`describe`).

``next`` (in the journal) is whose turn follows the event, ``None`` when nobody's (the round or the phase
ends). Python spells that field ``next`` too: it is only ever read as an attribute.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Self

from companion.events import Event, EventCodec
from companion.games.channel_won.state import HAND_LIMIT, KIND_WORDS, SCOOPS, STARS
from companion.games.channel_won.view import format_breakdown, format_points
from companion.words import and_join, verb, with_article


class ChannelWonEvent(Event):
    """The base of Channel WON's events: every one says what happened in words."""

    def describe(self) -> str:
        """One readable line for the history screen and ``companion replay``."""
        raise NotImplementedError


@dataclass(frozen=True)
class CardCollected(ChannelWonEvent):
    """Phase 1: ``player`` collected a card (``kind`` ``location``/``source``/``scoop`` or ``""``; ``from_row``:
    face up) and now holds ``hand`` cards; ``next`` collects next (``None``: every hand is full)."""

    TYPE = "card_collected"
    player: str
    kind: str
    from_row: bool
    hand: int
    next: str | None

    def describe(self) -> str:
        kind = {"location": "a Location", "source": "a Source", "scoop": "an Inside Scoop"}.get(self.kind, "a card")
        where = " from the face-up row" if self.from_row else ""
        return f"{self.player} collects {kind}{where} ({self.hand}/{HAND_LIMIT})"


@dataclass(frozen=True)
class ReportingStarted(ChannelWonEvent):
    """Every hand holds seven: Phase 2 of ``round`` begins with ``first`` (Phase 1)."""

    TYPE = "reporting_started"
    round: int
    first: str

    def describe(self) -> str:
        return f"Every hand holds {HAND_LIMIT}: Phase 2 of round {self.round}, {self.first} starts"


@dataclass(frozen=True)
class AbilityUsed(ChannelWonEvent):
    """``player`` used their Character's (``character``, ``""`` if not said) once-per-game Reporter Power
    (``power`` in words, ``""`` if not known) in ``phase`` of ``round`` (Character Abilities)."""

    TYPE = "ability_used"
    player: str
    character: str
    power: str
    phase: int
    round: int

    def describe(self) -> str:
        who = self.character or "their Character"
        power = f": {self.power}" if self.power else ""
        return f"{self.player} uses {who}'s Reporter Power{power} (once per game)"


@dataclass(frozen=True)
class LocationPlayed(ChannelWonEvent):
    """``player`` played the Location ``location`` (``"Security Footage"`` with ``scoop``: that Inside Scoop in
    place of a Location) on the ``lead`` Lead and placed a Reporter Tile (Locations)."""

    TYPE = "location_played"
    player: str
    lead: str
    location: str
    scoop: bool
    next: str | None

    def describe(self) -> str:
        via = " (Inside Scoop, in place of a Location)" if self.scoop else ""
        where = self.location or "a Location"
        return f"{self.player} plays {where}{via} on the {self.lead} Lead and places a Reporter Tile"


@dataclass(frozen=True)
class SourcePlayed(ChannelWonEvent):
    """``player`` played a Source of ``category`` (``source_type`` as printed, ``""`` if not said) worth
    ``points`` on the ``lead`` Lead: a Bonus Source (``bonus``: another category, on a closed Lead, no
    contributor credit) or a Source (Sources; ``new_contributor``: it placed a Reporter Tile);
    ``from_archives``: taken from the face-up row with Library Archives."""

    TYPE = "source_played"
    player: str
    lead: str
    category: str
    source_type: str
    points: int
    bonus: bool
    from_archives: bool
    new_contributor: bool
    next: str | None

    def describe(self) -> str:
        via = " from the face-up row (Library Archives)" if self.from_archives else ""
        if self.bonus:
            return (
                f"{self.player} plays {with_article(self.category)} Bonus Source{via} on the closed {self.lead} Lead: "
                f"{format_points(self.points)} (no contributor credit)"
            )
        tile = " and places a Reporter Tile" if self.new_contributor else ""
        return (
            f"{self.player} plays {self.source_type or 'a Source'}{via} on the {self.lead} Lead: "
            f"{format_points(self.points)}{tile}"
        )


@dataclass(frozen=True)
class ScoopPlayed(ChannelWonEvent):
    """``player`` played the Inside Scoop ``scoop`` (a key of :data:`~.state.SCOOPS`) on the ``lead`` Lead
    (``""`` for Early Bird, which gives the turn back: ``next`` is the player) changing its value by
    ``points``; ``new_contributor``: a Star Witness placed a Reporter Tile (Inside Scoop Cards). Early Bird
    events written before the field existed have none: ``False``."""

    TYPE = "scoop_played"
    player: str
    scoop: str
    lead: str
    points: int
    next: str | None
    new_contributor: bool = False

    def describe(self) -> str:
        if self.scoop == "early_bird":
            return f"{self.player} plays Early Bird: another action right away"
        tile = " and places a Reporter Tile" if self.new_contributor else ""
        title = SCOOPS[self.scoop]
        return f"{self.player} plays {title} on the {self.lead} Lead: {format_points(self.points)}{tile}"


@dataclass(frozen=True)
class LeadClosed(ChannelWonEvent):
    """``player`` flipped the ``lead`` Lead to its closed side (Closing a Lead)."""

    TYPE = "lead_closed"
    player: str
    lead: str
    next: str | None

    def describe(self) -> str:
        return f"{self.player} closes the {self.lead} Lead"


@dataclass(frozen=True)
class Passed(ChannelWonEvent):
    """``player`` flipped their Pass Token to the pause side (Passing)."""

    TYPE = "passed"
    player: str
    next: str | None

    def describe(self) -> str:
        return f"{self.player} passes (Pass Token to pause)"


@dataclass(frozen=True)
class PlayerDone(ChannelWonEvent):
    """``player`` is done for the round (``passed``: their token was on pause); ``next`` is the next player
    not done (``None``: everyone is, the round is scored)."""

    TYPE = "player_done"
    player: str
    passed: bool
    next: str | None

    def describe(self) -> str:
        return f"{self.player} is done for the round"


@dataclass(frozen=True)
class ScoreMove:
    """One contributor's move on the Score Track for a scored Lead: ``player``, the points ``before`` and
    ``after``, and whether the score was ``floored`` at 0 (End of Round: never below 0)."""

    player: str
    before: int
    after: int
    floored: bool


@dataclass(frozen=True)
class LeadScored(ChannelWonEvent):
    """End of Round: the ``lead`` Lead (``headline``) of ``round`` was worth ``value``, its ``parts`` as
    ``(label, points)``; ``reported`` or not (``why``); whether its contributors ``scored`` (else ``unscored``
    says why), their ``moves`` (:class:`ScoreMove`) and the ``contributors``; ``rule`` cited.

    Events written before ``headline``, ``scored``, ``unscored`` and ``contributors`` were recorded read as
    ``""``, whether any contributor moved, ``""`` and nobody."""

    TYPE = "lead_scored"
    round: int
    lead: str
    value: int
    parts: tuple[tuple[str, int], ...]
    reported: bool
    why: str
    moves: tuple[ScoreMove, ...]
    headline: str = ""
    scored: bool | None = None
    unscored: str = ""
    contributors: tuple[str, ...] = ()
    rule: str = ""

    @property
    def contributors_scored(self) -> bool:
        """Whether the contributors moved by the value (``scored``, or for an old event whether anyone moved)."""
        return bool(self.moves) if self.scored is None else self.scored

    def to_payload(self) -> dict[str, Any]:
        payload = super().to_payload()
        payload["moves"] = [
            {"player": m.player, "before": m.before, "after": m.after, "floored": m.floored} for m in self.moves
        ]
        if self.scored is None:
            del payload["scored"]
        return payload

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Self:
        data = dict(payload)
        data["moves"] = [ScoreMove(**move) for move in data.get("moves", ())]
        event = super().from_payload(data)
        return event

    def describe(self) -> str:
        head = f"{self.lead} Lead {format_breakdown(self.value, self.parts)}"
        verdict = "reported" if self.reported else f"unreported ({self.why})"
        moves = ", ".join(
            f"{m.player} {m.before} → {m.after}" + (" (never below 0)" if m.floored else "") for m in self.moves
        )
        if not self.contributors_scored and self.contributors:
            who = self.contributors
            moves = f"{and_join(who)} {verb(len(who), 'scores', 'score')} nothing ({self.unscored})"
        return f"{head}: {verdict}" + (f"; {moves}" if moves else "")


@dataclass(frozen=True)
class RatingDropped(ChannelWonEvent):
    """End of Round: the network lost a star for the unreported ``lead`` Lead (``why``), leaving ``stars``
    (Network Ratings)."""

    TYPE = "rating_dropped"
    lead: str
    why: str
    stars: int
    rule: str = ""

    def describe(self) -> str:
        return f"The network loses a star for the unreported {self.lead} Lead ({self.why}): {self.stars}/{STARS} stars"


@dataclass(frozen=True)
class RoundStarted(ChannelWonEvent):
    """Round ``round`` begins in ``order`` (Prepping the Next Round); ``reported``: ``(player, Leads
    reported)`` in the round just scored."""

    TYPE = "round_started"
    round: int
    order: tuple[str, ...]
    reported: tuple[tuple[str, int], ...]
    rule: str = ""

    def describe(self) -> str:
        return f"Round {self.round} begins; order: {', '.join(self.order)}"


@dataclass(frozen=True)
class GameOver(ChannelWonEvent):
    """The game is over: ``result`` ``"won"``, ``"co_anchors"`` or ``"channel_none"``; the ``winners``; the
    final ``scores``; the ``round`` it ended in; ``reported`` ``(player, Leads reported)`` in it; the
    ``reason`` in words, the ``tiebreak`` applied (``""``: none) and the ``rule`` (Ending the Game, Network
    Ratings)."""

    TYPE = "game_over"
    result: str
    winners: tuple[str, ...]
    scores: Mapping[str, int]
    round: int
    reported: tuple[tuple[str, int], ...]
    reason: str
    tiebreak: str = ""
    rule: str = ""

    def describe(self) -> str:
        extra = f" ({self.tiebreak})" if self.tiebreak else ""
        return f"Game over: {self.reason}{extra}"


@dataclass(frozen=True)
class DeckReshuffled(ChannelWonEvent):
    """The ``deck`` (``"location"`` or ``"source"``) was empty when a card was needed from it: its ``cards``
    discards were shuffled into a new face-down deck (ruling: decks, ``docs/rulings-channel-won.md``)."""

    TYPE = "deck_reshuffled"
    deck: str
    cards: int
    rule: str = ""

    def describe(self) -> str:
        return f"The {KIND_WORDS[self.deck]} deck is empty: its {self.cards} discards are shuffled into a new deck"


@dataclass(frozen=True)
class RowReplaced(ChannelWonEvent):
    """The face-up ``row`` (``"location"`` or ``"source"``) was discarded (``discarded`` cards) and
    ``dealt`` new cards were flipped up from its deck (Trey DeMark's Reporter Power: "Discard and replace
    all of the face up cards in the Location row")."""

    TYPE = "row_replaced"
    row: str
    discarded: int
    dealt: int
    rule: str = ""

    def describe(self) -> str:
        return (
            f"The {KIND_WORDS[self.row]} row is discarded ({self.discarded} cards) and {self.dealt} new cards "
            "are flipped up"
        )


@dataclass(frozen=True)
class GameEnded(ChannelWonEvent):
    """The table ended the game (:class:`companion.commands.EndGame`) for ``reason``."""

    TYPE = "game_ended"
    reason: str

    def describe(self) -> str:
        return f"Game ended: {self.reason}"


#: Every Channel WON event class, in the order a game meets them.
EVENT_CLASSES: tuple[type[ChannelWonEvent], ...] = (
    CardCollected,
    ReportingStarted,
    AbilityUsed,
    LocationPlayed,
    SourcePlayed,
    ScoopPlayed,
    LeadClosed,
    Passed,
    PlayerDone,
    LeadScored,
    RatingDropped,
    RoundStarted,
    GameOver,
    GameEnded,
    DeckReshuffled,
    RowReplaced,
)

#: Decodes Channel WON's journal rows into these events.
CODEC = EventCodec(EVENT_CLASSES)
