"""The events of a Telly Time game: one frozen dataclass per journal type, each with its ``describe``.

Each class's ``TYPE`` is the journal type and its fields are the payload's keys, exactly as journals have
been written since the game was added (``tests/test_recorded_journals.py`` replays one): a field whose value
is a typed value here (a :class:`~companion.games.telly_time.grid.LineBonus`, a
:class:`~companion.games.telly_time.state.Show`, ...) is stored as that value's JSON object (``NESTED``). Two
classes differ from the plain field-per-key shape, and say so: :class:`ShowMoved` (its ``KEYS``: the keys ``"from"`` and
``"to"`` are Python keywords) and :class:`GridSquareSet` (``swapped_with``/``other_genre`` are written only
for a swap). Money is in $M, viewers in whole points; squares are indexes 0-8 row by row in the journal
and named by position in every text.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from companion.events import Event, EventCodec
from companion.games.telly_time.grid import (
    LINE_NAMES,
    RULE_MOGUL,
    RULE_PILOT,
    SQUARE_NAMES,
    LineBonus,
    TileLayout,
    square_name,
)
from companion.games.telly_time.state import (
    ANY,
    RULE_CLARIFY,
    RULE_END,
    TIMESLOT_NAMES,
    PilotCard,
    Show,
    money,
    ordinal,
)
from companion.words import and_join, count

__all__ = [
    "EVENTS",
    "CashChanged",
    "EndGameScored",
    "EndScoringStarted",
    "GameEnded",
    "GameOver",
    "GridMarkerPlaced",
    "GridSquareSet",
    "LineBonusSet",
    "LineCompleted",
    "LineupScored",
    "MogulChoicePending",
    "Passed",
    "PilotCardsKept",
    "PilotShowChosen",
    "ScoringStarted",
    "SeasonStarted",
    "ShowGenreChanged",
    "ShowMoved",
    "ShowProduced",
    "ShowTotal",
    "TellyTimeEvent",
    "TurnEnded",
    "ViewersChanged",
    "WriteoffCounted",
]

#: A part of a score: ``(label, viewers)``, e.g. ``("Chat: stars on other shows (4+2)", 6)``.
Part = tuple[str, int]


def parts_text(parts: Sequence[Sequence[Any]]) -> str:
    """``[("show", 3), ("Chat", 6)]`` → ``"3 show + 6 Chat"`` (negative parts as ``− 2 penalty``)."""
    text = ""
    for label, value in parts:
        if not text:
            text = f"{value} {label}" if value >= 0 else f"−{-value} {label}"
        else:
            text += f" + {value} {label}" if value >= 0 else f" − {-value} {label}"
    return text or "0"


def _rule(rule: str) -> str:
    return f" ({rule})" if rule else ""


@dataclass(frozen=True)
class TellyTimeEvent(Event):
    """The base of the game's events: :meth:`describe` gives the history line (a sentence without a final
    full stop: the screen joins several with "; ").

    ``NESTED`` maps a field that holds a typed value to ``(value → JSON, JSON → value)``; the payload keeps
    the JSON form under the field's name."""

    NESTED: ClassVar[Mapping[str, tuple[Callable[[Any], Any], Callable[[Any], Any]]]] = {}

    def describe(self) -> str:
        """One readable sentence for the history screen and ``companion replay``."""
        raise NotImplementedError

    def to_payload(self) -> dict[str, Any]:
        payload = super().to_payload()
        for name, (encode, _) in self.NESTED.items():
            payload[name] = encode(getattr(self, name))
        return payload

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Self:
        data = dict(payload)
        version = data.pop("v", 1)
        if version != cls.VERSION:
            data = cls.upcast(data, version)
        for name, (_, decode) in cls.NESTED.items():
            if name in data:
                data[name] = decode(data[name])
        return super().from_payload({**data, "v": cls.VERSION})


def _pairs(value: Any) -> tuple[Part, ...]:
    return tuple((label, viewers) for label, viewers in value)


# -- money and viewers -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class CashChanged(TellyTimeEvent):
    """``player`` gains (``amount_m`` > 0) or pays (< 0) $M for ``reason``, under ``rule``."""

    TYPE: ClassVar[str] = "cash_changed"
    player: str
    amount_m: int
    reason: str
    rule: str = ""

    def describe(self) -> str:
        verb = "gains" if self.amount_m >= 0 else "pays"
        return f"{self.player} {verb} {money(abs(self.amount_m))}: {self.reason}{_rule(self.rule)}"


@dataclass(frozen=True)
class ViewersChanged(TellyTimeEvent):
    """``player`` scores (``viewers`` > 0) or loses (< 0) viewers for ``reason``, under ``rule``."""

    TYPE: ClassVar[str] = "viewers_changed"
    player: str
    viewers: int
    reason: str
    rule: str = ""

    def describe(self) -> str:
        verb = "scores" if self.viewers >= 0 else "loses"
        return f"{self.player} {verb} {count(abs(self.viewers), 'viewer')}: {self.reason}{_rule(self.rule)}"


# -- the Pilot Season and the tile -------------------------------------------------------------------------------
@dataclass(frozen=True)
class PilotShowChosen(TellyTimeEvent):
    """``player``'s Pilot Season show ``name`` of ``genre`` goes in ``timeslot``; the player takes the tile
    with that genre in the centre (``tile``, as entered; ``tile_entered`` when it came from the set-up).
    ``preferred``: the show's two preferred timeslots or ``("any",)`` ("Wild Timeslots"); ``()`` when it
    prefers only ``timeslot`` (the key is in the payload only when not empty, so earlier journals read the
    same)."""

    TYPE: ClassVar[str] = "pilot_show_chosen"
    NESTED: ClassVar = {"tile": (TileLayout.to_payload, TileLayout.from_payload)}
    player: str
    genre: str
    name: str
    timeslot: str
    tile: TileLayout
    tile_entered: bool = False
    preferred: tuple[str, ...] = ()

    @property
    def show_preferred(self) -> tuple[str, ...]:
        """The show's preferred timeslots: ``preferred``, or ``(timeslot,)`` when none were given."""
        return self.preferred or (self.timeslot,)

    def to_payload(self) -> dict[str, Any]:
        payload = super().to_payload()
        if not self.preferred:
            del payload["preferred"]
        return payload

    def describe(self) -> str:
        tile = "its squares come from the set-up" if self.tile_entered else "enter the genres of its other 8 squares"
        if ANY in self.preferred:
            prefers = "; it says ANY: no timeslot penalty anywhere"
        elif len(self.preferred) > 1:
            prefers = f"; it prefers {' or '.join(TIMESLOT_NAMES[s] for s in self.preferred)}"
        else:
            prefers = ""
        return (
            f"{self.player} places the Pilot Season show {self.name} ({self.genre}) in "
            f"{TIMESLOT_NAMES[self.timeslot]}{prefers} and takes the {self.genre} tile with a marker on the "
            f"centre; {tile} ({RULE_PILOT})"
        )


@dataclass(frozen=True)
class GridSquareSet(TellyTimeEvent):
    """``genre`` is entered on ``square`` (0-8) of ``player``'s tile; for a swap, ``swapped_with`` is the
    square the genre came from, which now shows ``other_genre`` (``None``: no genre). The two swap keys are
    in the payload only for a swap."""

    TYPE: ClassVar[str] = "grid_square_set"
    player: str
    square: int
    genre: str
    swapped_with: int | None = None
    other_genre: str | None = None

    def to_payload(self) -> dict[str, Any]:
        payload = super().to_payload()
        if self.swapped_with is None:
            del payload["swapped_with"], payload["other_genre"]
        return payload

    def describe(self) -> str:
        text = f"{self.player}'s tile: {square_name(self.square)} is {self.genre}"
        if self.swapped_with is not None:
            other = square_name(self.swapped_with)
            text += (
                f" and {other} is now {self.other_genre} (the two swapped)"
                if self.other_genre
                else f", moved from {other}, which has no genre now"
            )
        return text


@dataclass(frozen=True)
class LineBonusSet(TellyTimeEvent):
    """The bonus printed at the end of ``line`` of ``player``'s tile is entered as ``bonus``."""

    TYPE: ClassVar[str] = "line_bonus_set"
    NESTED: ClassVar = {"bonus": (LineBonus.to_payload, LineBonus.from_payload)}
    player: str
    line: str
    bonus: LineBonus

    def describe(self) -> str:
        return f"{self.player}'s tile: the bonus at the end of the {LINE_NAMES[self.line]} is {self.bonus.describe()}"


def _card_payload(card: PilotCard) -> dict[str, Any]:
    return {"kind": card.kind, "name": card.name, "cash_m": card.cash_m, "cost_m": card.cost_m}


@dataclass(frozen=True)
class PilotCardsKept(TellyTimeEvent):
    """``player`` keeps the two Pilot Season stars/ads ``cards`` (their cash follows as :class:`CashChanged`)."""

    TYPE: ClassVar[str] = "pilot_cards_kept"
    NESTED: ClassVar = {
        "cards": (
            lambda cards: [_card_payload(c) for c in cards],
            lambda cards: tuple(PilotCard(c["kind"], c["name"], c["cash_m"], c["cost_m"]) for c in cards),
        )
    }
    player: str
    cards: tuple[PilotCard, ...]

    def describe(self) -> str:
        cards = [
            f"{c.kind} {c.name or ''}".strip() + f" (bonus {money(c.cash_m)}, cost {money(c.cost_m)})"
            for c in self.cards
        ]
        return f"{self.player} keeps 2 Pilot Season cards: {and_join(cards)} ({RULE_PILOT})"


# -- seasons and turns -------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SeasonStarted(TellyTimeEvent):
    """Season ``season`` (1-5) begins with the turn ``order``."""

    TYPE: ClassVar[str] = "season_started"
    season: int
    order: tuple[str, ...]

    def describe(self) -> str:
        return f"Season {self.season} begins; the turn order is {', '.join(self.order)}"


@dataclass(frozen=True)
class ShowProduced(TellyTimeEvent):
    """``player`` produces ``show`` into ``timeslot``, replacing the show called ``replaced`` (if any)."""

    TYPE: ClassVar[str] = "show_produced"
    NESTED: ClassVar = {"show": (Show.to_payload, Show.from_payload)}
    player: str
    timeslot: str
    show: Show
    replaced: str | None = None

    def describe(self) -> str:
        show = self.show
        prefers = (
            "prefers ANY"
            if ANY in show.preferred
            else "prefers " + " or ".join(TIMESLOT_NAMES[s] for s in show.preferred)
            if show.preferred
            else "no preferred timeslot"
        )
        replaced = f", replacing {self.replaced}" if self.replaced else ""
        return (
            f"{self.player} produces {show.name} ({show.genre}, {prefers}) in {TIMESLOT_NAMES[self.timeslot]}{replaced}"
        )


@dataclass(frozen=True)
class ShowMoved(TellyTimeEvent):
    """The shows in ``player``'s ``from_slot`` and ``to_slot`` swap (``reason``: the card). Journal keys:
    ``"from"`` and ``"to"`` (Python keywords, hence the field names)."""

    TYPE: ClassVar[str] = "show_moved"
    KEYS: ClassVar[Mapping[str, str]] = {"from_slot": "from", "to_slot": "to"}
    player: str
    from_slot: str
    to_slot: str
    reason: str

    def describe(self) -> str:
        return (
            f"{self.player} swaps the shows in {TIMESLOT_NAMES[self.from_slot]} and {TIMESLOT_NAMES[self.to_slot]} "
            f"({self.reason})"
        )


@dataclass(frozen=True)
class ShowGenreChanged(TellyTimeEvent):
    """The show in ``player``'s ``timeslot`` becomes ``genre`` without its show effect (Versatile Actor)."""

    TYPE: ClassVar[str] = "show_genre_changed"
    player: str
    timeslot: str
    genre: str
    reason: str

    def describe(self) -> str:
        return (
            f"{self.player}'s {TIMESLOT_NAMES[self.timeslot]} show becomes {self.genre} without its show "
            f"effect ({self.reason}, {RULE_CLARIFY})"
        )


@dataclass(frozen=True)
class GridMarkerPlaced(TellyTimeEvent):
    """A marker goes on ``square`` (0-8, showing ``genre``) of ``player``'s grid for ``reason``."""

    TYPE: ClassVar[str] = "grid_marker_placed"
    player: str
    square: int
    genre: str
    reason: str
    rule: str = ""

    def describe(self) -> str:
        return (
            f"{self.player} fills the {self.genre} square ({SQUARE_NAMES[self.square]}): {self.reason}"
            f"{_rule(self.rule)}"
        )


@dataclass(frozen=True)
class MogulChoicePending(TellyTimeEvent):
    """``player`` completed ``lines`` at once and chooses which gives the mogul bonus ("Mogul Bonus")."""

    TYPE: ClassVar[str] = "mogul_choice_pending"
    player: str
    lines: tuple[str, ...]

    def describe(self) -> str:
        lines = and_join([f"the {LINE_NAMES[line]}" for line in self.lines])
        return f"{self.player} completes {lines} at once and chooses which one gives the mogul bonus ({RULE_MOGUL})"


@dataclass(frozen=True)
class LineCompleted(TellyTimeEvent):
    """``player`` completes ``line``, the ``number``-th line of the tile, gaining ``bonus`` (its cash and
    viewers are added), or with ``mogul`` the mogul bonus instead of the printed one."""

    TYPE: ClassVar[str] = "line_completed"
    NESTED: ClassVar = {"bonus": (LineBonus.to_payload, LineBonus.from_payload)}
    player: str
    line: str
    number: int
    mogul: bool
    bonus: LineBonus
    rule: str = ""

    def describe(self) -> str:
        head = f"{self.player} completes the {LINE_NAMES[self.line]}, the {ordinal(self.number)} line of the tile,"
        if self.mogul:
            gains = "takes the mogul bonus instead of its printed bonus: draw 2 moguls, keep 1"
        elif self.bonus == LineBonus():
            gains = "gains the printed bonus"
        else:
            gains = f"gains its bonus: {self.bonus.describe()}"
        return f"{head} and {gains}{_rule(self.rule)}"


@dataclass(frozen=True)
class TurnEnded(TellyTimeEvent):
    """``player``'s turn is over after ``action``; it is ``next``'s turn."""

    TYPE: ClassVar[str] = "turn_ended"
    player: str
    action: str
    next: str

    def describe(self) -> str:
        return f"{self.player}'s turn is over ({self.action}); it is {self.next}'s turn"


@dataclass(frozen=True)
class Passed(TellyTimeEvent):
    """``player`` passes ``order``-th (1 = first), taking ``reward`` (``"cash"`` or ``"viewers"``) of
    ``amount`` from the pass track, doubled when ``preempted`` (Preempted Timeslot)."""

    TYPE: ClassVar[str] = "passed"
    player: str
    reward: str
    amount: int
    preempted: bool
    order: int

    def describe(self) -> str:
        amount, value = self.amount, self.amount * (2 if self.preempted else 1)
        if self.reward == "cash":
            shown, doubled = money(value), money(amount)
        else:
            shown, doubled = count(value, "viewer"), count(amount, "viewer")
        if not amount:
            takes = "takes nothing from the pass track"
        elif self.preempted:
            takes = f"takes {shown} from the pass track ({doubled} doubled by Preempted Timeslot)"
        else:
            takes = f"takes {shown} from the pass track"
        later = ", scored with the lineup" if self.reward == "viewers" and amount else ""
        return f"{self.player} passes {ordinal(self.order)} and {takes}{later}"


# -- scoring -----------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ScoringStarted(TellyTimeEvent):
    """Everyone has passed in season ``season`` (the last, ``player``, after ``action``): score the lineups."""

    TYPE: ClassVar[str] = "scoring_started"
    season: int
    player: str
    action: str

    def describe(self) -> str:
        return f"Everyone has passed: score the lineups of season {self.season}"


@dataclass(frozen=True)
class ShowTotal:
    """One show's part of a lineup score: its ``timeslot``, ``name``, ``genre``, ``total`` viewers and the
    ``parts`` that make it up."""

    timeslot: str
    name: str
    genre: str
    total: int
    parts: tuple[Part, ...]

    def to_payload(self) -> dict[str, Any]:
        return {
            "timeslot": self.timeslot,
            "name": self.name,
            "genre": self.genre,
            "total": self.total,
            "parts": [list(p) for p in self.parts],
        }

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> ShowTotal:
        return cls(payload["timeslot"], payload["name"], payload["genre"], payload["total"], _pairs(payload["parts"]))


@dataclass(frozen=True)
class LineupScored(TellyTimeEvent):
    """``player``'s lineup scores ``total`` viewers in season ``season``: the ``parts`` (each show, the grid,
    the pass track, Variety Channel, other viewers) and each show's own ``shows`` breakdown."""

    TYPE: ClassVar[str] = "lineup_scored"
    NESTED: ClassVar = {
        "parts": (lambda parts: [list(p) for p in parts], _pairs),
        "shows": (
            lambda shows: [s.to_payload() for s in shows],
            lambda shows: tuple(ShowTotal.from_payload(s) for s in shows),
        ),
    }
    player: str
    season: int
    total: int
    parts: tuple[Part, ...]
    shows: tuple[ShowTotal, ...]
    rule: str = ""

    def describe(self) -> str:
        text = f"{self.player} scores {count(self.total, 'viewer')} in season {self.season}: {parts_text(self.parts)}"
        return "; ".join(
            [text] + [f"{s.name} scores {s.total} = {parts_text(s.parts)}" for s in self.shows if len(s.parts) > 1]
        )


@dataclass(frozen=True)
class WriteoffCounted(TellyTimeEvent):
    """Writeoff counted ``total`` viewers on ``player``'s show ``name`` (of ``genre``) in ``timeslot``, from
    ``parts`` ((label, viewers) pairs): a Chat show with the bonus from the other stars of the lineup, a
    Quiz show without bonus viewers ("Telly Time Clarifications", Writeoff). Changes nothing by itself."""

    TYPE: ClassVar[str] = "writeoff_counted"
    NESTED: ClassVar = {"parts": (lambda parts: [list(p) for p in parts], _pairs)}
    player: str
    timeslot: str
    name: str
    genre: str
    total: int
    parts: tuple[Part, ...]
    rule: str = ""

    def describe(self) -> str:
        return (
            f"Writeoff: {self.player}'s {self.name} ({TIMESLOT_NAMES[self.timeslot]}) counts "
            f"{count(self.total, 'viewer')} = {parts_text(self.parts)}{_rule(self.rule)}"
        )


@dataclass(frozen=True)
class EndScoringStarted(TellyTimeEvent):
    """Season ``season`` was the last: score the end-game viewer bonuses."""

    TYPE: ClassVar[str] = "end_scoring_started"
    season: int

    def describe(self) -> str:
        return (
            f"Season {self.season} was the last: score the end-game viewer bonuses without the Genres row ({RULE_END})"
        )


@dataclass(frozen=True)
class EndGameScored(TellyTimeEvent):
    """``player``'s end-game viewer bonuses: ``total`` viewers from ``parts`` (row, viewers)."""

    TYPE: ClassVar[str] = "end_game_scored"
    NESTED: ClassVar = {"parts": (lambda parts: [list(p) for p in parts], _pairs)}
    player: str
    total: int
    parts: tuple[Part, ...]
    rule: str = ""

    def describe(self) -> str:
        if not self.parts:
            return f"{self.player} scores no end-game bonuses{_rule(self.rule)}"
        return (
            f"{self.player} scores {count(self.total, 'viewer')} of end-game bonuses: "
            f"{parts_text(self.parts)}{_rule(self.rule)}"
        )


@dataclass(frozen=True)
class GameOver(TellyTimeEvent):
    """The game is over: each player's final ``viewers`` and the ``winners`` (most viewers; ties share)."""

    TYPE: ClassVar[str] = "game_over"
    viewers: Mapping[str, int]
    winners: tuple[str, ...]

    def describe(self) -> str:
        ranked = sorted(self.viewers.items(), key=lambda kv: -kv[1])
        best = ranked[0][1]
        verb = "wins" if len(self.winners) == 1 else "share the win"
        standings = ", ".join(f"{n} {v}" for n, v in ranked)
        return f"Game over: {and_join(list(self.winners))} {verb} with {best} viewers (final viewers: {standings})"


@dataclass(frozen=True)
class GameEnded(TellyTimeEvent):
    """The table ended the game, for ``reason``."""

    TYPE: ClassVar[str] = "game_ended"
    reason: str

    def describe(self) -> str:
        return f"The game was ended at the table: {self.reason}"


#: Every event class of the game, in the order a game meets them.
EVENTS: tuple[type[TellyTimeEvent], ...] = (
    CashChanged,
    ViewersChanged,
    PilotShowChosen,
    GridSquareSet,
    LineBonusSet,
    PilotCardsKept,
    SeasonStarted,
    ShowProduced,
    ShowMoved,
    ShowGenreChanged,
    GridMarkerPlaced,
    MogulChoicePending,
    LineCompleted,
    TurnEnded,
    Passed,
    ScoringStarted,
    LineupScored,
    EndScoringStarted,
    EndGameScored,
    GameOver,
    GameEnded,
    WriteoffCounted,
)

#: The codec that reads the game's journal rows back into these events.
CODEC = EventCodec(EVENTS)
