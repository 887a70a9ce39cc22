"""TV Wars 4, Bidding: the auction sub-state, its commands and events.

The nominator (the moving network on a Television Production Company 3.1 or Talent Agency 5.1, or by a
Bulletin 9.6) makes an automatic $1,000 bid, or opens higher in $500 steps. Then every other network,
clockwise from the nominator, except those on Technical Difficulties (9.7) and those out of the game,
may raise by at least $500 (whole $500 steps) or pass; turns go round clockwise until all but the high
bidder have passed. A pass is final for that auction (ruling in ``docs/rulings.md``). No bid may exceed
the bidder's cash: there are no loans (4) and no bankruptcy to make a purchase (7).

The Super Bowl's auction after a February Sweeps war (9.8) has no nominator: bidding starts with the
first eligible network clockwise from its last owner, which may open at $1,000 or more or pass; if
everyone passes the tile stays out of play until the Bulletin brings it back (ruling).

Commands: :class:`Bid`, :class:`PassBid`. Events:

* ``auction_opened``: ``{"lot": "program"|"star"|"super_bowl", "length", "colour", "nominator",
  "high_bid", "bidders": [clockwise order], "reason", "rule"}``;
* ``bid_made``: ``{"network", "amount"}``; ``bid_passed``: ``{"network"}``;
* ``auction_closed``: ``{"winner" (or None), "amount", "lot", "length", "colour"}``, followed (for a
  winner) by the ``money_moved`` payment to the bank and then either the tile (Super Bowl) or a
  ``tile_entry`` sub-state in which the buyer enters the tile's secret value privately (spaces.py).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from companion.checks import is_whole
from companion.commands import Command
from companion.errors import IllegalCommand, MalformedCommand
from companion.games.tv_wars.bank import format_dollars
from companion.games.tv_wars.events import AuctionClosed, AuctionOpened, BidMade, BidPassed, TvWarsEvent
from companion.games.tv_wars.holdings import MINUTES, TYPE_WORDS
from companion.words import with_article

if TYPE_CHECKING:
    from companion.games.tv_wars import TvWarsState

AUCTION_OPENED = AuctionOpened.TYPE
AUCTION_CLOSED = AuctionClosed.TYPE
BID_MADE, BID_PASSED = BidMade.TYPE, BidPassed.TYPE
#: The auction events (4).
AUCTION_EVENT_CLASSES = (AuctionOpened, BidMade, BidPassed, AuctionClosed)
AuctionEvent = AuctionOpened | BidMade | BidPassed | AuctionClosed
AUCTION_EVENTS = tuple(cls.TYPE for cls in AUCTION_EVENT_CLASSES)

OPENING_BID = 1_000  # 4
BID_STEP = 500  # 4
LOTS = ("program", "star", "super_bowl")


@dataclass(frozen=True, kw_only=True)
class Bid(Command):
    """``network`` bids ``amount`` whole dollars in the running auction (TV Wars 4): at least $500 over
    the high bid (at least $1,000 if there is none), in $500 steps, not above its cash."""

    network: str
    amount: int


@dataclass(frozen=True, kw_only=True)
class PassBid(Command):
    """``network`` passes in the running auction (TV Wars 4); a pass is final for this auction."""

    network: str


@dataclass(frozen=True)
class Auction:
    """A running auction (4): the ``lot`` (``"program"`` with ``length`` half-hours and ``colour``,
    ``"star"`` or ``"super_bowl"``), the ``nominator`` (``None`` for the Super Bowl), ``high_bidder``
    and ``high_bid`` in dollars (0 with no bidder yet), ``bidders`` eligible in clockwise order,
    ``passed`` so far and ``to_act`` (index into ``bidders``)."""

    lot: str
    length: int | None
    colour: str | None
    nominator: str | None
    high_bidder: str | None
    high_bid: int
    bidders: tuple[str, ...]
    passed: tuple[str, ...] = ()
    to_act: int = 0
    reason: str = ""
    rule: str = "TV Wars 4"

    @property
    def lot_text(self) -> str:
        """``"60-minute Drama"``, ``"Star"``, ``"Super Bowl"`` (public: no value, 9.1)."""
        if self.lot == "program":
            assert self.length is not None and self.colour is not None, (
                "a program is nominated by length and colour (3.1)"
            )
            return f"{MINUTES[self.length]} {TYPE_WORDS[self.colour]}"
        return "Star" if self.lot == "star" else "Super Bowl"

    @property
    def next_bidder(self) -> str:
        """The network whose turn it is to raise or pass."""
        return self.bidders[self.to_act]

    @property
    def minimum(self) -> int:
        """The smallest legal bid now: $1,000 opening, else high bid + $500 (4)."""
        return OPENING_BID if self.high_bidder is None else self.high_bid + BID_STEP

    @property
    def status(self) -> str:
        """``"Auction: 60-minute Drama, CBA bids $1,500, NBS to bid or pass"``."""
        high = f"{self.high_bidder} bids {format_dollars(self.high_bid)}" if self.high_bidder else "no bid yet"
        return f"Auction: {self.lot_text}, {high}, {self.next_bidder} to bid {format_dollars(self.minimum)}+ or pass"


def eligible_bidders(state: TvWarsState, start_after: str, exclude: tuple[str, ...] = ()) -> tuple[str, ...]:
    """Networks that may bid (4, 9.7), clockwise starting after ``start_after``: not out, not on
    Technical Difficulties, not in ``exclude``."""
    names = state.names
    i = names.index(start_after)
    order = names[i + 1 :] + names[: i + 1]
    return tuple(
        name
        for name in order
        if name not in exclude and name not in state.technical_difficulties and not state.network(name).out
    )


def _check_amount(amount: Any, minimum: int, cash: int, network: str) -> None:
    if not is_whole(amount):
        raise MalformedCommand(f"a bid is whole dollars, not {amount!r}")
    if amount % BID_STEP:
        raise IllegalCommand(f"bids go in $500 steps; {format_dollars(amount)} is not one", "TV Wars 4")
    if amount < minimum:
        raise IllegalCommand(
            f"the lowest bid now is {format_dollars(minimum)}, not {format_dollars(amount)}", "TV Wars 4"
        )
    if amount > cash:
        raise IllegalCommand(
            f"{network} has {format_dollars(cash)} and cannot bid {format_dollars(amount)}: "
            f"no loans, and no bankruptcy to make a purchase",
            "TV Wars 4, 7",
        )


def open_auction(
    state: TvWarsState,
    lot: str,
    nominator: str | None,
    opening: int | None,
    *,
    length: int | None = None,
    colour: str | None = None,
    last_owner: str | None = None,
    reason: str = "",
    rule: str = "TV Wars 4",
) -> list[TvWarsEvent]:
    """Events opening an auction of ``lot``. With a ``nominator``, it bids ``opening`` (default $1,000;
    refused if it cannot afford it, 4, 7) and the others bid clockwise after it; for the Super Bowl
    (``nominator=None``) bidding starts after ``last_owner``, who is excluded (9.8). When nobody is
    eligible to outbid the nominator it wins at once."""
    if nominator is not None:
        network = state.network(nominator)
        amount = OPENING_BID if opening is None else opening
        _check_amount(amount, OPENING_BID, network.cash, nominator)
        if nominator in state.technical_difficulties:
            raise IllegalCommand(
                f"{nominator} is on Technical Difficulties and cannot take part in bidding", "TV Wars 9.7"
            )
        bidders = eligible_bidders(state, nominator)
        others = tuple(name for name in bidders if name != nominator)
        payload = {
            "lot": lot,
            "length": length,
            "colour": colour,
            "nominator": nominator,
            "high_bid": amount,
            "bidders": list(bidders),
            "reason": reason,
            "rule": rule,
        }
        events: list[TvWarsEvent] = [AuctionOpened.from_payload(payload)]
        if not others:
            events.append(
                AuctionClosed.from_payload(
                    {"winner": nominator, "amount": amount, "lot": lot, "length": length, "colour": colour},
                )
            )
        return events
    after = last_owner if last_owner is not None else state.names[-1]
    bidders = eligible_bidders(state, after, exclude=(last_owner,) if last_owner else ())
    payload = {
        "lot": lot,
        "length": length,
        "colour": colour,
        "nominator": None,
        "high_bid": 0,
        "bidders": list(bidders),
        "reason": reason,
        "rule": rule,
    }
    events = [AuctionOpened.from_payload(payload)]
    if not bidders:
        events.append(
            AuctionClosed.from_payload({"winner": None, "amount": 0, "lot": lot, "length": length, "colour": colour})
        )
    return events


def auction_from_event(event: AuctionOpened) -> Auction:
    """The :class:`Auction` an ``auction_opened`` event starts."""
    bidders = tuple(event.bidders)
    nominator = event.nominator
    to_act = (bidders.index(nominator) + 1) % len(bidders) if nominator in bidders and len(bidders) > 1 else 0
    return Auction(
        event.lot,
        event.length,
        event.colour,
        nominator,
        nominator,
        event.high_bid,
        bidders,
        (),
        to_act,
        event.reason,
        event.rule,
    )


def _advance(auction: Auction) -> Auction:
    """Move ``to_act`` to the next bidder clockwise who has not passed and is not the high bidder."""
    n = len(auction.bidders)
    for step in range(1, n + 1):
        i = (auction.to_act + step) % n
        name = auction.bidders[i]
        if name not in auction.passed and name != auction.high_bidder:
            return replace(auction, to_act=i)
    return auction


def _closed(auction: Auction) -> bool:
    live = [b for b in auction.bidders if b not in auction.passed]
    return (auction.high_bidder is not None and live == [auction.high_bidder]) or not live


def decide_bid(state: TvWarsState, command: Bid | PassBid) -> list[TvWarsEvent]:
    """Events for a bid or a pass: refused (citing 4 or 9.7) out of turn, from a network on Technical
    Difficulties, below the minimum, off the $500 steps or above cash. Closes the auction when all the
    others have passed."""
    auction: Auction | None = state.auction
    if auction is None:
        raise IllegalCommand("no auction is running", "TV Wars 4")
    name = command.network
    state.network(name)
    if name in state.technical_difficulties:
        raise IllegalCommand(f"{name} is on Technical Difficulties and cannot take part in bidding", "TV Wars 9.7")
    if name not in auction.bidders or name in auction.passed:
        raise IllegalCommand(f"{name} is not in this auction (passed, or not eligible)", "TV Wars 4")
    if name != auction.next_bidder:
        raise IllegalCommand(
            f"bidding goes clockwise: it is {auction.next_bidder}'s turn to bid or pass, not {name}'s", "TV Wars 4"
        )
    events: list[TvWarsEvent]
    if isinstance(command, Bid):
        _check_amount(command.amount, auction.minimum, state.network(name).cash, name)
        events = [BidMade.from_payload({"network": name, "amount": command.amount})]
        after = _advance(replace(auction, high_bidder=name, high_bid=command.amount))
    else:
        events = [BidPassed.from_payload({"network": name})]
        after = _advance(replace(auction, passed=auction.passed + (name,)))
    if _closed(after):
        events.append(
            AuctionClosed.from_payload(
                {
                    "winner": after.high_bidder,
                    "amount": after.high_bid,
                    "lot": auction.lot,
                    "length": auction.length,
                    "colour": auction.colour,
                },
            )
        )
    return events


def evolve_auction(auction: Auction | None, event: AuctionEvent) -> Auction | None:
    """The auction after one auction event (pure); ``None`` once closed."""
    if isinstance(event, AuctionOpened):
        return auction_from_event(event)
    assert auction is not None, "a bid in no auction"
    if isinstance(event, BidMade):
        return _advance(replace(auction, high_bidder=event.network, high_bid=event.amount))
    if isinstance(event, BidPassed):
        return _advance(replace(auction, passed=auction.passed + (event.network,)))
    if isinstance(event, AuctionClosed):
        return None
    raise ValueError(f"not an auction event: {event!r}")


def describe_auction_event(event: AuctionEvent) -> str:
    """One public line per auction event (no secret values)."""
    if isinstance(event, AuctionOpened):
        lot = Auction(event.lot, event.length, event.colour, None, None, 0, ("x",)).lot_text
        if event.nominator:
            opening = format_dollars(event.high_bid)
            return f"{event.nominator} puts {with_article(lot)} up for bid and opens at {opening} ({event.rule})"
        return f"The {lot} is up for bid among {', '.join(event.bidders) or 'nobody'} ({event.rule})"
    if isinstance(event, BidMade):
        return f"{event.network} bids {format_dollars(event.amount)} (TV Wars 4)"
    if isinstance(event, BidPassed):
        return f"{event.network} passes (TV Wars 4)"
    if isinstance(event, AuctionClosed):
        if event.winner is None:
            return "Nobody bids: the tile stays out of play (TV Wars 4)"
        return f"{event.winner} wins the auction at {format_dollars(event.amount)} (TV Wars 4)"
    raise ValueError(f"not an auction event: {event!r}")
