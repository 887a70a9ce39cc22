"""TV Wars 7 Bankruptcy, 8 Assets, 10 Draws and the end of the game (3.11, 5.32, 1).

Sale value (7): $500 per 10 Rating Points per half-hour: BEERS (30 minutes, 80 RP) $4,000; SATURDAY
NIGHT DEAD (90 minutes, 70 RP) $10,500; an Academy Award Movie $20,000. A Special's Rating Points are
rolled at the sale (10 × 2d6). The Super Bowl and Preemption tiles have no Rating Points and are worth
nothing. Bonus tiles cannot be sold and have no monetary value (7, 8).

Debts (7): a debt from a Bulletin or movement that a network cannot pay is paid with all its cash and
the rest stays owed (:class:`Debt`); the network sells programs of its choice (:class:`SellProgram`)
until it is paid. No change is given: a sale worth more than the debt forfeits the excess. A network that
sells its last program with debt still owed is out (3), its Bonus tiles back to their piles (5.11, 5.22);
the unpaid rest is lost to the creditor (ruling). A network whose only programming left is the Preemption
or Super Bowl tile (no Rating Points, so nothing 7 lets it sell) stays in the game until the next Ratings
War (9.8, 9.91) and the unpaid rest is lost the same way (``debt_written_off``, see docs/rulings.md).
A purchase never leads here: bids and movies above cash are refused (4, 7).

Events:

* ``debt_incurred``: ``{"network", "creditor", "amount" (still owed after paying its cash), "reason", "rule"}``;
* ``debt_written_off``: ``{"network", "creditor", "amount", "reason", "rule"}``: the debt can never be paid
  (only the Preemption/Super Bowl tile left) and leaves the queue;
* ``sale_started``: ``{"network", "tile_id"}`` when a Special's value must be rolled first;
* ``program_sold``: ``{"network", "tile_id", "value", "applied", "forfeited", "breakdown", "creditor"}``
  (followed by ``program_lost`` and, for a network creditor, the bank's ``money_moved`` to it);
* ``assets_count_started``: ``{"reason", "rule", "specials": [[network, tile_id], ...]}`` (8: Specials are
  rolled at the count); ``special_valued``: ``{"network", "tile_id", "value"}``;
* ``game_ended``: ``{"reason", "rule", "assets": {network: {"cash", "programs": [[public text, value,
  breakdown], ...], "total"}}, "winners": [...], "draw": bool}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from companion.commands import BANK, Command
from companion.errors import IllegalCommand
from companion.games.tv_wars.bank import format_dollars
from companion.games.tv_wars.events import (
    AssetsCountStarted,
    DebtIncurred,
    DebtWrittenOff,
    GameEnded,
    MoneyMoved,
    NetworkOut,
    ProgramLost,
    ProgramSold,
    SaleStarted,
    SpecialValued,
    TvWarsEvent,
)
from companion.games.tv_wars.holdings import MOVIE, PREEMPTION, SPECIAL, SUPER_BOWL, Holdings, ProgramTile, out_events
from companion.words import count

if TYPE_CHECKING:
    from companion.games.tv_wars import TvWarsState

#: The bankruptcy and asset-count events (7, 8).
BANKRUPTCY_EVENT_CLASSES = (DebtIncurred, SaleStarted, ProgramSold, AssetsCountStarted, SpecialValued, DebtWrittenOff)
BankruptcyEvent = DebtIncurred | SaleStarted | ProgramSold | AssetsCountStarted | SpecialValued | DebtWrittenOff
BANKRUPTCY_EVENTS = tuple(cls.TYPE for cls in BANKRUPTCY_EVENT_CLASSES)
DEBT_INCURRED, SALE_STARTED, PROGRAM_SOLD = DebtIncurred.TYPE, SaleStarted.TYPE, ProgramSold.TYPE
ASSETS_COUNT_STARTED, SPECIAL_VALUED = AssetsCountStarted.TYPE, SpecialValued.TYPE
GAME_ENDED = GameEnded.TYPE

DOLLARS_PER_10_RP_PER_HALF_HOUR = 500  # 7
#: The rules a ``game_ended`` event cites for its two ends by losing programs: the last network standing
#: (1, 3) and every remaining network losing its last programs in one war (10).
RULE_LAST_STANDING = "TV Wars 1, 3"
RULE_ALL_LOST = "TV Wars 10"


@dataclass(frozen=True, kw_only=True)
class SellProgram(Command):
    """``network`` sells Program tile ``tile_id`` of its choice to the bank to pay its debt (TV Wars 7)."""

    network: str
    tile_id: str
    private = True  # the sale price would tell the tile's rating (7, 9.1)


@dataclass(frozen=True)
class Debt:
    """What ``network`` still owes ``creditor`` (a network or the bank) in dollars, for ``reason`` under
    ``rule``; ``selling`` is the Special whose value is being rolled for a sale."""

    network: str
    creditor: str
    amount: int
    reason: str
    rule: str
    selling: str | None = None


@dataclass(frozen=True)
class GameResult:
    """How the game ended by its rules (a ``game_ended`` event with its count): ``reason`` and ``rule``
    (:data:`RULE_LAST_STANDING`, :data:`RULE_ALL_LOST`, or the asset count's 3.11/5.32), the ``winners``
    (most money, 8, 10), whether it is a ``draw`` (10), and each counted network's ``totals`` in dollars
    (cash plus programs at the bankruptcy price, 8) in seat order."""

    reason: str
    rule: str
    winners: tuple[str, ...]
    draw: bool
    totals: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class FinalCount:
    """The asset count at game end (8): ``reason`` and ``rule`` of the end, the Specials still to roll
    as ``(network, tile_id)`` and the rolled ``values`` as ``(network, tile_id, RP)``; ``result`` once the
    game has ended by its rules (:class:`GameResult`), ``None`` while Specials are still to roll."""

    reason: str
    rule: str
    specials: tuple[tuple[str, str], ...]
    values: tuple[tuple[str, str, int], ...] = ()
    result: GameResult | None = None

    @property
    def counting(self) -> bool:
        """Whether the count is still under way (Specials to roll, 8, 7)."""
        return self.result is None

    @property
    def next_special(self) -> tuple[str, str] | None:
        """The next ``(network, tile_id)`` to roll, or ``None``."""
        done = {(n, t) for n, t, _ in self.values}
        return next((s for s in self.specials if s not in done), None)

    @property
    def special_to_roll(self) -> tuple[str, str]:
        """:attr:`next_special` while the count waits for dice: the game ends with the last Special's roll
        (:func:`game_ended` in the same move), so a count that asks for dice has one left (8, 7)."""
        special = self.next_special
        assert special is not None, f"an asset count ({self.reason}) asks for dice with no Special left to roll"
        return special


def sale_value(tile: ProgramTile, special_rp: int | None = None) -> tuple[int, str]:
    """``(dollars, breakdown)`` for selling ``tile`` (7): ``(10500, "7 × $500 × 3 half-hours")``. A Special
    needs its rolled ``special_rp``; Super Bowl and Preemption tiles have no Rating Points: ``(0, ...)``."""
    if tile.kind == SPECIAL:
        if special_rp is None:
            return 0, "Special not rolled"
        rp = special_rp
    elif tile.kind == MOVIE or tile.rating is not None:
        assert tile.rating is not None, f"{tile.id}: an Academy Award Movie tile carries its 100 RP (TV Wars 3.2)"
        rp = tile.rating
    else:
        return 0, f"{tile.public_text} has no Rating Points"
    tens = rp // 10
    return (tens * DOLLARS_PER_10_RP_PER_HALF_HOUR * tile.length, f"{tens} × $500 × {count(tile.length, 'half-hour')}")


def incur_debt(
    state: TvWarsState, network: str, creditor: str, amount: int, reason: str, rule: str
) -> list[TvWarsEvent]:
    """Events for ``network`` owing ``amount`` dollars to ``creditor``: paid at once when it can be; else
    its cash goes first and the rest becomes a ``debt_incurred`` (7)."""
    cash = state.network(network).cash
    events: list[TvWarsEvent] = []
    paid = min(cash, amount)
    if paid > 0:
        events.append(
            MoneyMoved.from_payload(
                {
                    "payer": network,
                    "payee": creditor,
                    "amount": paid,
                    "reason": reason if paid == amount else f"{reason} (all its cash)",
                    "rule": rule,
                },
            )
        )
    if amount > paid:
        events.append(
            DebtIncurred.from_payload(
                {"network": network, "creditor": creditor, "amount": amount - paid, "reason": reason, "rule": rule},
            )
        )
        events.extend(_unpayable(network, creditor, amount - paid, state.network(network).holdings, reason))
    return events


#: Program tiles without Rating Points: 7 sells programs by their Rating Points, so these cannot be sold.
UNSELLABLE_KINDS = (PREEMPTION, SUPER_BOWL)


def sellable(holdings: Holdings) -> tuple[ProgramTile, ...]:
    """The Program tiles of ``holdings`` that can be sold to the bank (7: all but the Preemption and
    Super Bowl tiles, which have no Rating Points)."""
    return tuple(t for t in holdings.programs if t.kind not in UNSELLABLE_KINDS)


def _unpayable(network: str, creditor: str, owed: int, left: Holdings, reason: str) -> list[TvWarsEvent]:
    """The events when ``network`` still owes ``owed`` and holds ``left``: none while it can sell a
    program; out of the game with no programming at all (3, its Bonus tiles returned, 5.11, 5.22); with
    only the Preemption/Super Bowl tile, the debt is written off and it stays in until the next Ratings
    War (7, 9.8, 9.91)."""
    if sellable(left):
        return []
    never = f"{format_dollars(owed)} of its debt is never paid"
    if not left.programs:
        return list(out_events(network, left, set(), f"no programming left to sell; {never}", "TV Wars 7, 3"))
    tiles = " and ".join(t.public_text for t in left.programs)
    return [
        DebtWrittenOff.from_payload(
            {
                "network": network,
                "creditor": creditor,
                "amount": owed,
                "reason": f"{reason}: only the {tiles} tile is left, which has no Rating Points to sell; {never}",
                "rule": "TV Wars 7, 9.8, 9.91",
            },
        )
    ]


def decide_sale(state: TvWarsState, command: SellProgram) -> list[TvWarsEvent]:
    """Events for a sale: refused unless ``network`` owes the head debt (7: never to fund a purchase),
    owns ``tile_id`` and the tile has Rating Points. A Special starts a 2d6 roll first (7)."""
    debt: Debt | None = state.debts[0] if state.debts else None
    if debt is None or debt.network != command.network:
        raise IllegalCommand(
            f"{command.network} owes no debt; programs are sold to the bank only to pay a debt "
            f"already incurred, never to make a purchase",
            "TV Wars 7",
        )
    if debt.selling is not None:
        raise IllegalCommand(f"{debt.network} first rolls for the Special it is selling", "TV Wars 7")
    holdings = state.network(command.network).holdings
    tile = holdings.program(command.tile_id)
    if not sellable(holdings):  # a debt an earlier version left owed with nothing to sell (7, 9.8, 9.91)
        return _unpayable(debt.network, debt.creditor, debt.amount, holdings, debt.reason)
    if tile.kind == SPECIAL:
        return [SaleStarted.from_payload({"network": debt.network, "tile_id": tile.id})]
    value, breakdown = sale_value(tile)
    if value == 0:
        raise IllegalCommand(f"the {tile.public_text} tile has no Rating Points and sells for nothing", "TV Wars 7")
    return sell(state, debt, tile, value, breakdown)


def sell(state: TvWarsState, debt: Debt, tile: ProgramTile, value: int, breakdown: str) -> list[TvWarsEvent]:
    """Events of selling ``tile`` for ``value`` toward ``debt``: no change given (7); out when the last
    program is gone with debt still owed."""
    applied = min(value, debt.amount)
    events = [
        ProgramSold.from_payload(
            {
                "network": debt.network,
                "tile_id": tile.id,
                "value": value,
                "applied": applied,
                "forfeited": value - applied,
                "breakdown": breakdown,
                "creditor": debt.creditor,
            },
        ),
        ProgramLost.from_payload(
            {
                "network": debt.network,
                "tile_id": tile.id,
                "reason": "sold to the bank",
                "rule": "TV Wars 7",
                "destination": "out of play",
            },
        ),
    ]
    if debt.creditor != BANK:
        events.append(
            MoneyMoved.from_payload(
                {
                    "payer": BANK,
                    "payee": debt.creditor,
                    "amount": applied,
                    "reason": f"{debt.network}'s debt, paid by selling a program",
                    "rule": "TV Wars 7",
                },
            )
        )
    left = state.network(debt.network).holdings.without_program(tile.id)
    if debt.amount > applied:
        events.extend(_unpayable(debt.network, debt.creditor, debt.amount - applied, left, debt.reason))
    return events


def evolve_debts(
    debts: tuple[Debt, ...], event: DebtIncurred | SaleStarted | ProgramSold | NetworkOut | DebtWrittenOff
) -> tuple[Debt, ...]:
    """The debt queue after one bankruptcy event, or a network going out (its debts go with it) (pure)."""
    if isinstance(event, DebtIncurred):
        return debts + (Debt(event.network, event.creditor, event.amount, event.reason, event.rule),)
    if isinstance(event, SaleStarted):
        return (replace(debts[0], selling=event.tile_id),) + debts[1:]
    if isinstance(event, ProgramSold):
        head = replace(debts[0], amount=debts[0].amount - event.applied, selling=None)
        return debts[1:] if head.amount <= 0 else (head,) + debts[1:]
    if isinstance(event, NetworkOut):
        return tuple(d for d in debts if d.network != event.network)
    if isinstance(event, DebtWrittenOff):  # the first debt of that network to that creditor
        at = next((i for i, d in enumerate(debts) if (d.network, d.creditor) == (event.network, event.creditor)), None)
        return debts if at is None else debts[:at] + debts[at + 1 :]
    return debts


# -- the end of the game --------------------------------------------------------------------------------


def start_final_count(state: TvWarsState, reason: str, rule: str) -> list[TvWarsEvent]:
    """Events ending the game by an asset count (8, for 3.11 and 5.32): Specials are rolled first (7);
    with none, the game ends at once."""
    specials = [[n.name, t.id] for n in state.networks if not n.out for t in n.holdings.programs if t.kind == SPECIAL]
    if specials:
        return [AssetsCountStarted.from_payload({"reason": reason, "rule": rule, "specials": specials})]
    return [game_ended(state, reason, rule, {})]


def game_ended(
    state: TvWarsState,
    reason: str,
    rule: str,
    special_values: Mapping[tuple[str, str], int],
    networks: tuple[str, ...] | None = None,
) -> GameEnded:
    """The ``game_ended`` event with each network's assets (8: cash plus its programming at the
    bankruptcy price; bonus tiles are worth nothing) and the winners (most money; more than one is a draw,
    10). ``networks`` limits who is counted (default: those not out)."""
    assets = {}
    counted = networks if networks is not None else tuple(n.name for n in state.networks if not n.out)
    for name in counted:
        network = state.network(name)
        programs = []
        for tile in network.holdings.programs:
            value, breakdown = sale_value(tile, special_values.get((name, tile.id)))
            programs.append([tile.public_text, value, breakdown])
        assets[name] = {"cash": network.cash, "programs": programs, "total": network.cash + sum(p[1] for p in programs)}
    best = max((a["total"] for a in assets.values()), default=0)
    winners = [name for name, a in assets.items() if a["total"] == best]
    return GameEnded.from_payload(
        {"reason": reason, "rule": rule, "assets": assets, "winners": winners, "draw": len(winners) > 1}
    )


def end_if_over(state: TvWarsState, outs: tuple[str, ...] = ()) -> list[TvWarsEvent]:
    """Events ending the game when at most one network still has programming (1, 3, 10), for a state
    after ``network_out`` events; ``outs`` are the networks that went out together (in one war): if none
    is left, they are compared by money (10). Returns ``[]`` while two or more networks remain."""
    live = [n.name for n in state.networks if not n.out]
    if len(live) >= 2 or state.finished:
        return []
    if len(live) == 1:
        return [game_ended(state, f"{live[0]} is the last network standing", RULE_LAST_STANDING, {}, (live[0],))]
    return [
        game_ended(
            state,
            "the remaining networks lost their last programs together: most money wins",
            RULE_ALL_LOST,
            {},
            outs or state.names,
        )
    ]


def describe_bankruptcy_event(event: BankruptcyEvent) -> str:
    """One line per bankruptcy/asset event (a sold program's value is public once sold)."""
    if isinstance(event, DebtIncurred):
        creditor = "the bank" if event.creditor == BANK else event.creditor
        return (
            f"{event.network} still owes {creditor} {format_dollars(event.amount)} "
            f"({event.reason}): it must sell programs (TV Wars 7)"
        )
    if isinstance(event, DebtWrittenOff):
        creditor = "the bank" if event.creditor == BANK else event.creditor
        return (
            f"{event.network} cannot pay {creditor} {format_dollars(event.amount)} ({event.reason}); it stays "
            f"in the game until the next Ratings War ({event.rule})"
        )
    if isinstance(event, SaleStarted):
        return f"{event.network} sells Special {event.tile_id}: roll for its value (TV Wars 7, 3.3)"
    if isinstance(event, ProgramSold):
        forfeit = f", {format_dollars(event.forfeited)} forfeited (no change)" if event.forfeited else ""
        return (
            f"{event.network} sells {event.tile_id} to the bank for {format_dollars(event.value)} "
            f"= {event.breakdown}; {format_dollars(event.applied)} pays the debt{forfeit} (TV Wars 7)"
        )
    if isinstance(event, AssetsCountStarted):
        return f"Game over ({event.reason}): Specials are rolled for the asset count (TV Wars 8, 7)"
    if isinstance(event, SpecialValued):
        return f"{event.network}'s Special {event.tile_id} is worth {event.value} RP (TV Wars 7, 3.3)"
    raise ValueError(f"not a bankruptcy event: {event!r}")


def describe_game_ended(event: GameEnded) -> str:
    """``"Game ended: ... ABS $52,000 (cash $31,000 + programs $21,000); winner ABS (TV Wars 8)"``."""
    if event.assets is None:
        return f"Game ended: {event.reason}"
    parts = [
        f"{name} {format_dollars(a['total'])} (cash {format_dollars(a['cash'])} + programs "
        f"{format_dollars(a['total'] - a['cash'])})"
        for name, a in event.assets.items()
    ]
    outcome = (
        "a draw between " + " and ".join(event.winners)
        if event.draw
        else f"winner {event.winners[0]}"
        if event.winners
        else "no winner"
    )
    return f"Game ended: {event.reason}. {'; '.join(parts)}; {outcome} ({event.rule})"
