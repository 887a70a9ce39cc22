"""TV Wars: every event type, one frozen dataclass each (:class:`companion.events.Event`).

``TYPE`` is the journal's type name and the fields are the journal payload's keys, exactly as the code before
typed events wrote them, so every journal written since still decodes (``tests/test_recorded_journals.py``).
Two payload keys are Python words: ``"from"`` is the field ``from_`` (:attr:`companion.events.Event.KEYS`). Nested
payload parts (a tile, a revealed line-up, a resolved slot, the asset count) stay JSON objects (``dict``);
lists come back as tuples. Units: dollars for money, Rating Points (RP) for ratings, half-hours for lengths.

The events by rule part: the bank (:class:`MoneyMoved`, 2.4, 7, 9.4, 9.5), the hand-kept programming track
(:class:`TrackChanged`, 2.3), the roll-off (2.5), holdings (3, 5, 9.1), spaces and turns (2.5, 3, 5, 9),
auctions (4), bankruptcy and the end (7, 8, 10) and the Ratings War at the table (6, 9.8, 9.91).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from companion.events import Event


@dataclass(frozen=True)
class TvWarsEvent(Event):
    """Base of TV Wars' events (a field whose payload key differs is in ``KEYS``, as for every event)."""


# -- the bank, the hand-kept track, the roll-off, On the Air --------------------------------------------------


@dataclass(frozen=True)
class MoneyMoved(TvWarsEvent):
    """``amount`` dollars (> 0) from ``payer`` to ``payee`` (a network or ``"bank"``) for ``reason``; ``rule``
    names the rule that caused it (``""`` for a free-form transfer); ``correction`` marks a hand correction
    of the record (a free transfer in full play, TV Wars 4), journaled only when true (the key is absent
    from every earlier payload, which reads back as ``False``)."""

    TYPE: ClassVar[str] = "money_moved"
    payer: str
    payee: str
    amount: int
    reason: str
    rule: str = ""
    correction: bool = False

    def to_payload(self) -> dict[str, Any]:
        """The journal's object; ``correction`` only when true (so ordinary movements are written as before)."""
        payload = super().to_payload()
        if not self.correction:
            del payload["correction"]
        return payload


@dataclass(frozen=True)
class TrackChanged(TvWarsEvent):
    """``player``'s hand-kept ``track`` (``"half_hours"``, 2.3) is now ``value`` (changed by ``delta``)."""

    TYPE: ClassVar[str] = "track_changed"
    player: str
    track: str
    value: int
    delta: int
    reason: str


@dataclass(frozen=True)
class DiceRolled(TvWarsEvent):
    """``roller`` rolled ``values`` (from ``source``: built-in, manual, reader) for the request's ``reason``
    and ``rule`` (the 2.5 roll-off, a movie's price 3.2, an Emmy 5.2, a Special's value 7, 8)."""

    TYPE: ClassVar[str] = "dice_rolled"
    roller: str
    values: tuple[int, ...]
    source: str
    reason: str
    rule: str


@dataclass(frozen=True)
class RollOffTied(TvWarsEvent):
    """``networks`` tied for the highest roll-off ``total``: they roll again (2.5, docs/rulings.md)."""

    TYPE: ClassVar[str] = "roll_off_tied"
    networks: tuple[str, ...]
    total: int


@dataclass(frozen=True)
class BestNetworkNewsAwarded(TvWarsEvent):
    """``network`` rolled highest (``total``): it takes Best Network News and starts (2.5)."""

    TYPE: ClassVar[str] = "best_network_news_awarded"
    network: str
    total: int


@dataclass(frozen=True)
class OnTheAirPassed(TvWarsEvent):
    """The moving ``network``'s token passed On the Air this turn (9.5 pays once a pass)."""

    TYPE: ClassVar[str] = "on_the_air_passed"
    network: str


@dataclass(frozen=True)
class GameEnded(TvWarsEvent):
    """The game is over: ``reason``; ended by its rules, also the ``rule``, each counted network's
    ``assets`` (``{network: {"cash", "programs": [[public text, value, breakdown], ...], "total"}}``, 8),
    the ``winners`` (most money) and whether it is a ``draw`` (10). Ended at the table (``EndGame``) it has
    the ``reason`` only, and its payload holds only that."""

    TYPE: ClassVar[str] = "game_ended"
    reason: str
    rule: str = ""
    assets: Mapping[str, Any] | None = None
    winners: tuple[str, ...] = ()
    draw: bool = False

    @property
    def by_rules(self) -> bool:
        """Whether the rules ended the game (not the table)."""
        return self.assets is not None

    def to_payload(self) -> dict[str, Any]:
        return super().to_payload() if self.by_rules else {"reason": self.reason}


# -- holdings (3, 5, 9.1) and the starting programming (2.3) ------------------------------------------------


@dataclass(frozen=True)
class StartingProgramming(TvWarsEvent):
    """``network``'s starting programming (2.3): its ``tiles`` (ProgramTile dicts)."""

    TYPE: ClassVar[str] = "starting_programming"
    network: str
    tiles: tuple[Mapping[str, Any], ...]
    rule: str


@dataclass(frozen=True)
class ProgramAcquired(TvWarsEvent):
    """``network`` gets Program ``tile`` (a ProgramTile dict) for ``reason`` (``rule``)."""

    TYPE: ClassVar[str] = "program_acquired"
    network: str
    tile: Mapping[str, Any]
    reason: str
    rule: str


@dataclass(frozen=True)
class ProgramMoved(TvWarsEvent):
    """Program tile ``tile_id`` goes from network ``from_`` to network ``to`` (a steal 9.2, the Preemption
    tile 9.9)."""

    TYPE: ClassVar[str] = "program_moved"
    KEYS: ClassVar[Mapping[str, str]] = {"from_": "from"}
    from_: str
    to: str
    tile_id: str
    reason: str
    rule: str


@dataclass(frozen=True)
class ProgramLost(TvWarsEvent):
    """``network`` loses Program tile ``tile_id`` to ``destination`` (``"out of play"``, ``"back in play"``,
    the bank)."""

    TYPE: ClassVar[str] = "program_lost"
    network: str
    tile_id: str
    reason: str
    rule: str
    destination: str


@dataclass(frozen=True)
class BonusAcquired(TvWarsEvent):
    """``network`` gets Bonus ``tile`` (a BonusTile dict) for ``reason`` (``rule``)."""

    TYPE: ClassVar[str] = "bonus_acquired"
    network: str
    tile: Mapping[str, Any]
    reason: str
    rule: str


@dataclass(frozen=True)
class BonusMoved(TvWarsEvent):
    """Bonus tile ``tile_id`` goes from network ``from_`` to network ``to`` (a stolen Star, 9.3)."""

    TYPE: ClassVar[str] = "bonus_moved"
    KEYS: ClassVar[Mapping[str, str]] = {"from_": "from"}
    from_: str
    to: str
    tile_id: str
    reason: str
    rule: str


@dataclass(frozen=True)
class BonusReturned(TvWarsEvent):
    """``network``'s bonus tile ``tile_id`` goes to ``destination`` (its pile, or out of play)."""

    TYPE: ClassVar[str] = "bonus_returned"
    network: str
    tile_id: str
    reason: str
    rule: str
    destination: str


@dataclass(frozen=True)
class NetworkOut(TvWarsEvent):
    """``network`` is out of the game (3, 7, 9.8, 9.91)."""

    TYPE: ClassVar[str] = "network_out"
    network: str
    reason: str
    rule: str


# -- spaces and turns (2.5, 3, 5, 9) ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Landed(TvWarsEvent):
    """``network`` landed on ``space``; ``stage`` is what is left to do there (``None``: nothing), the
    program ``lengths`` that may be nominated (3.22), the space's ``rule``."""

    TYPE: ClassVar[str] = "landed"
    network: str
    space: str
    stage: str | None
    rule: str
    lengths: tuple[int, ...] = (1, 2, 3, 4)


@dataclass(frozen=True)
class LandingStage(TvWarsEvent):
    """The landing moves on to ``stage`` with the movie ``price`` (dollars, 3.2) or the steal ``victim``."""

    TYPE: ClassVar[str] = "landing_stage"
    stage: str
    price: int
    victim: str | None


@dataclass(frozen=True)
class LandingDone(TvWarsEvent):
    """``network``'s landing is settled: ``outcome`` in words (``rule``)."""

    TYPE: ClassVar[str] = "landing_done"
    network: str
    outcome: str
    rule: str


@dataclass(frozen=True)
class TileEntryOpened(TvWarsEvent):
    """``network`` looks at the tile it obtained (``lot``: a bonus kind or ``program``, with the program's
    ``length`` and ``colour``) and enters its secret value (9.1)."""

    TYPE: ClassVar[str] = "tile_entry_opened"
    network: str
    lot: str
    length: int | None
    colour: str | None
    reason: str
    rule: str


@dataclass(frozen=True)
class BestNetworkNewsPassed(TvWarsEvent):
    """``network`` takes the Best Network News Bonus tile from ``from_`` (6.3)."""

    TYPE: ClassVar[str] = "best_network_news_passed"
    KEYS: ClassVar[Mapping[str, str]] = {"from_": "from"}
    network: str
    from_: str | None


@dataclass(frozen=True)
class RatingsWarCalled(TvWarsEvent):
    """``network`` landed on a Ratings War space (a ``february_sweeps`` one, 9.8): the war starts (6)."""

    TYPE: ClassVar[str] = "ratings_war_called"
    network: str
    february_sweeps: bool


@dataclass(frozen=True)
class TurnPassed(TvWarsEvent):
    """It is ``network``'s turn (2.5: clockwise)."""

    TYPE: ClassVar[str] = "turn_passed"
    network: str


# -- auctions (4) --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AuctionOpened(TvWarsEvent):
    """An auction of ``lot`` (a program of ``length`` and ``colour``, a Star, the Super Bowl) among
    ``bidders`` (clockwise), opened by ``nominator`` at ``high_bid`` dollars (``None``/0: the Super Bowl)."""

    TYPE: ClassVar[str] = "auction_opened"
    lot: str
    length: int | None
    colour: str | None
    nominator: str | None
    high_bid: int
    bidders: tuple[str, ...]
    reason: str = ""
    rule: str = "TV Wars 4"


@dataclass(frozen=True)
class BidMade(TvWarsEvent):
    """``network`` bids ``amount`` dollars (4)."""

    TYPE: ClassVar[str] = "bid_made"
    network: str
    amount: int


@dataclass(frozen=True)
class BidPassed(TvWarsEvent):
    """``network`` passes (4)."""

    TYPE: ClassVar[str] = "bid_passed"
    network: str


@dataclass(frozen=True)
class AuctionClosed(TvWarsEvent):
    """The auction of ``lot`` is over: ``winner`` (``None``: nobody bid) pays ``amount`` dollars (4)."""

    TYPE: ClassVar[str] = "auction_closed"
    winner: str | None
    amount: int
    lot: str
    length: int | None
    colour: str | None


# -- bankruptcy and the end (7, 8) -----------------------------------------------------------------------------


@dataclass(frozen=True)
class DebtIncurred(TvWarsEvent):
    """``network`` still owes ``creditor`` ``amount`` dollars after paying all its cash (7)."""

    TYPE: ClassVar[str] = "debt_incurred"
    network: str
    creditor: str
    amount: int
    reason: str
    rule: str


@dataclass(frozen=True)
class DebtWrittenOff(TvWarsEvent):
    """``network``'s debt of ``amount`` dollars to ``creditor`` can never be paid: it holds programming, but
    only tiles without Rating Points (the Preemption or Super Bowl tile), which 7 does not let it sell. The
    debt leaves the queue and the network stays in the game (7 "remains in the game until he has no
    programming", 9.8, 9.91; see docs/rulings.md)."""

    TYPE: ClassVar[str] = "debt_written_off"
    network: str
    creditor: str
    amount: int
    reason: str
    rule: str


@dataclass(frozen=True)
class SaleStarted(TvWarsEvent):
    """``network`` sells Special ``tile_id``: its value is rolled first (7, 3.3)."""

    TYPE: ClassVar[str] = "sale_started"
    network: str
    tile_id: str


@dataclass(frozen=True)
class ProgramSold(TvWarsEvent):
    """``network`` sold ``tile_id`` to the bank for ``value`` dollars (``breakdown``); ``applied`` paid the
    debt to ``creditor``, ``forfeited`` is the excess (no change, 7)."""

    TYPE: ClassVar[str] = "program_sold"
    network: str
    tile_id: str
    value: int
    applied: int
    forfeited: int
    breakdown: str
    creditor: str


@dataclass(frozen=True)
class AssetsCountStarted(TvWarsEvent):
    """The game ends by an asset count (8, for ``rule`` 3.11 or 5.32): the ``specials`` (network, tile id)
    are rolled first (7)."""

    TYPE: ClassVar[str] = "assets_count_started"
    reason: str
    rule: str
    specials: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class SpecialValued(TvWarsEvent):
    """``network``'s Special ``tile_id`` is worth ``value`` RP for the count (7, 3.3)."""

    TYPE: ClassVar[str] = "special_valued"
    network: str
    tile_id: str
    value: int


# -- the Ratings War at the table (6, 9.8, 9.91) ---------------------------------------------------------------


@dataclass(frozen=True)
class RatingsWarStarted(TvWarsEvent):
    """A Ratings War (``february_sweeps`` or not) called by ``landed_by`` among ``networks`` (seat order),
    with the ``best_network_news`` and ``preemption_holder`` in it and the ``counter_programming_four``
    house rule (6.5)."""

    TYPE: ClassVar[str] = "ratings_war_started"
    landed_by: str
    february_sweeps: bool
    networks: tuple[str, ...]
    best_network_news: str | None
    preemption_holder: str | None
    counter_programming_four: int = -30


@dataclass(frozen=True)
class LineupEntered(TvWarsEvent):
    """``network`` entered its line-up: ``placements`` (program tile id, bonus tile id or ``None``) in
    order, and a ``promotion`` (6.6). Tile ids only (9.1)."""

    TYPE: ClassVar[str] = "ratings_war_lineup_entered"
    network: str
    placements: tuple[tuple[str, str | None], ...]
    promotion: bool


@dataclass(frozen=True)
class LineupLocked(TvWarsEvent):
    """``network`` locked its line-up in (with a ``promotion``, paid next, 6.6)."""

    TYPE: ClassVar[str] = "ratings_war_lineup_locked"
    network: str
    promotion: bool


@dataclass(frozen=True)
class LineupsRevealed(TvWarsEvent):
    """Every line-up at once (6): ``{"network", "promotion", "best_network_news", "programs": [{"tile",
    "bonus"}, ...]}`` each."""

    TYPE: ClassVar[str] = "ratings_war_revealed"
    lineups: tuple[Mapping[str, Any], ...]


@dataclass(frozen=True)
class PreemptionDecided(TvWarsEvent):
    """``network`` placed the Preemption tile at half-hour ``start`` (0-4), or declined (``None``, 9.91)."""

    TYPE: ClassVar[str] = "ratings_war_preemption"
    network: str
    start: int | None


@dataclass(frozen=True)
class WarDiceRolled(TvWarsEvent):
    """A roll the war asked for under ``key`` (a Special's value 3.3, a tie-break 6.7)."""

    TYPE: ClassVar[str] = "ratings_war_dice_rolled"
    key: str
    roller: str
    values: tuple[int, ...]
    source: str
    reason: str
    rule: str


@dataclass(frozen=True)
class SlotResolved(TvWarsEvent):
    """Half-hour ``index`` (0-5) settled: the resolver's ``slot`` dict (scores with parts, winner, ties)."""

    TYPE: ClassVar[str] = "ratings_war_slot_resolved"
    index: int
    slot: Mapping[str, Any]


@dataclass(frozen=True)
class RatingsWarEnded(TvWarsEvent):
    """The war is over: the ``cancelled`` programs in words, the ``networks_out``, the last owner of the
    Super Bowl whose tile goes up for bid (``super_bowl_auction``, 9.8) and a ``summary``."""

    TYPE: ClassVar[str] = "ratings_war_ended"
    cancelled: tuple[str, ...]
    networks_out: tuple[str, ...]
    super_bowl_auction: str | None
    summary: str


#: Every TV Wars event class (the codec's list).
EVENT_CLASSES: tuple[type[TvWarsEvent], ...] = (
    MoneyMoved,
    TrackChanged,
    DiceRolled,
    RollOffTied,
    BestNetworkNewsAwarded,
    OnTheAirPassed,
    GameEnded,
    StartingProgramming,
    ProgramAcquired,
    ProgramMoved,
    ProgramLost,
    BonusAcquired,
    BonusMoved,
    BonusReturned,
    NetworkOut,
    Landed,
    LandingStage,
    LandingDone,
    TileEntryOpened,
    BestNetworkNewsPassed,
    RatingsWarCalled,
    TurnPassed,
    AuctionOpened,
    BidMade,
    BidPassed,
    AuctionClosed,
    DebtIncurred,
    SaleStarted,
    ProgramSold,
    AssetsCountStarted,
    SpecialValued,
    RatingsWarStarted,
    LineupEntered,
    LineupLocked,
    LineupsRevealed,
    PreemptionDecided,
    WarDiceRolled,
    SlotResolved,
    RatingsWarEnded,
    DebtWrittenOff,
)
