"""TV Wars: what a network may do now (:meth:`TvWars.legal_commands <companion.games.tv_wars.rules.TvWars.
legal_commands>`), each a :class:`companion.game.LegalCommand`.

The seat's three buttons are always offered (On the Air 9.5, Sponsor 9.4, Roll), labelled by what they mean now
(:meth:`TvWars.button_meanings`: "Bid $2,500" and "Pass" during an auction, 4), enabled or not with the rules' own
reason; besides them, what the table waits for from this network: its starting programming (2.3),
its turn's landing (2.5), the choices of a landing (3, 5, 9.2-9.6), the auction (4), a new tile's value (9.1),
a debt's sale (7), the Ratings War's line-up, lock-in, reveal and Preemption (6, 9.91). A complete command is
checked by :meth:`decide` itself (which changes nothing), so an offer and the refusal can never disagree; an
offer whose arguments the player still chooses (``command`` ``None``) is offered only when it applies.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.commands import Command, EndGame, RollDice
from companion.errors import CommandError
from companion.game import LegalCommand
from companion.games.tv_wars.auction import BID_STEP, OPENING_BID, Bid, PassBid
from companion.games.tv_wars.bankruptcy import SellProgram
from companion.games.tv_wars.setup import SelectStartingProgramming
from companion.games.tv_wars.spaces import (
    Bulletin,
    Decline,
    EnterTileValue,
    GiveUp,
    LandOn,
    Nominate,
    Steal,
)
from companion.games.tv_wars.war_at_table import (
    LINE_UPS,
    PREEMPT,
    REVEAL,
    EnterLineUp,
    LockLineUp,
    PlacePreemption,
    RevealLineUps,
    war_active,
)

if TYPE_CHECKING:
    from companion.games.tv_wars.rules import TvWars, TvWarsState


def _checked(rules: TvWars, state: TvWarsState, label: str, command: Command) -> LegalCommand:
    """``command`` offered as ``label``, enabled when :meth:`TvWars.decide` accepts it; else with its refusal."""
    try:
        rules.decide(state, command)
    except CommandError as error:
        reason = getattr(error, "reason", None) or str(error)
        return LegalCommand(type(command).__name__, label, command, False, reason, getattr(error, "rule", None) or "")
    return LegalCommand(type(command).__name__, label, command)


def _choose(kind: type, label: str) -> LegalCommand:
    """An offer whose arguments the player still chooses (a bid, a tile, a space)."""
    return LegalCommand(kind.__name__, label)


def _opening(seat: str, cash: int, label: str, lowest: int) -> LegalCommand:
    """A :class:`Nominate` whose opening bid the nominator still chooses, at least ``lowest`` dollars: disabled
    when ``seat``'s ``cash`` cannot pay it, since the nominator makes the opening bid and there are no loans
    (TV Wars 4, 7)."""
    if cash < lowest:
        reason = f"{seat} has ${cash:,}, less than an opening bid of ${lowest:,}: no loans"
        return LegalCommand("Nominate", label, None, False, reason, "TV Wars 4, 7")
    return _choose(Nominate, label)


def _roll(rules: TvWars, state: TvWarsState, seat: str) -> LegalCommand:
    request = rules.pending_dice(state)
    command = RollDice(roller=seat)
    if request is None:
        return LegalCommand("RollDice", "Roll", command, False, "no dice are asked for right now", "")
    if request.roller != seat:
        return LegalCommand("RollDice", "Roll", command, False, f"{request.describe()}, not {seat}", request.rule)
    return LegalCommand("RollDice", f"Roll for the {request.reason}", command)


def legal_commands(rules: TvWars, state: TvWarsState, seat: str) -> tuple[LegalCommand, ...]:
    """What ``seat`` may do in ``state`` (see the module docstring); raises ``MalformedCommand`` for an
    unknown network."""
    network = state.network(seat)
    meanings = rules.button_meanings(state)  # labelled by what they mean now: "Bid $2,500" / "Pass" in an auction
    offers = [
        _checked(rules, state, meanings["on_the_air"], rules.button_command("on_the_air", seat, "touch")),
        _checked(rules, state, meanings["sponsor"], rules.button_command("sponsor", seat, "touch")),
        _roll(rules, state, seat),
    ]
    if state.finished:
        return tuple(offers)
    if not network.holdings.tracked:
        offers.append(_choose(SelectStartingProgramming, f"{seat}: starting programs"))
    war = state.war
    if war_active(war):
        if war.phase == LINE_UPS:
            entry = next((e for e in war.entries if e.network == seat), None)
            if entry is not None and not entry.locked:
                offers.append(_choose(EnterLineUp, f"{seat} line-up"))
                offers.append(_checked(rules, state, f"{seat}: lock in", LockLineUp(network=seat)))
        elif war.phase == REVEAL:
            offers.append(_checked(rules, state, "Reveal the line-ups", RevealLineUps()))
        elif war.phase == PREEMPT and war.preemption_holder == seat:
            offers.append(_choose(PlacePreemption, f"{seat}: Preemption"))
        return tuple(offers)
    if state.final_count is not None:
        return tuple(offers)
    if state.debts:
        debt = state.debts[0]
        if debt.network == seat and debt.selling is None:
            offers.append(_choose(SellProgram, f"{seat}: sell a program"))
        return tuple(offers)
    auction = state.auction
    if auction is not None:
        if auction.next_bidder == seat:
            for amount in (auction.minimum, auction.minimum + BID_STEP):  # the minimum and a raise of $500 (4)
                offers.append(_checked(rules, state, f"{seat} bids ${amount:,}", Bid(network=seat, amount=amount)))
            other = LegalCommand("Bid", "Other bid")
            if auction.minimum > network.cash:
                other = LegalCommand(
                    "Bid",
                    "Other bid",
                    None,
                    False,
                    f"{seat} has ${network.cash:,}, less than the lowest bid",
                    "TV Wars 4, 7",
                )
            offers.append(other)
            offers.append(_checked(rules, state, f"{seat} passes", PassBid(network=seat)))
        return tuple(offers)
    if state.entry is not None:
        if state.entry.network == seat:
            offers.append(_choose(EnterTileValue, f"{seat}: enter the value"))
        return tuple(offers)
    landing = state.landing
    if landing is not None:
        offers.extend(_landing_offers(rules, state, seat))
        return tuple(offers)
    if state.playing and state.turn == seat:
        offers.append(_choose(LandOn, f"{seat} landed on..."))
    offers.append(_checked(rules, state, "End the game", EndGame()))
    return tuple(offers)


def _landing_offers(rules: TvWars, state: TvWarsState, seat: str) -> list[LegalCommand]:
    landing = state.landing
    assert landing is not None
    stage = landing.stage
    if stage in ("give_program", "give_star"):
        return [_choose(GiveUp, f"{seat} chooses")] if landing.victim == seat else []
    if landing.network != seat:
        return []
    decline = _checked(rules, state, f"{seat} declines", Decline(network=seat))
    cash = state.network(seat).cash
    if stage == "nominate":
        return [_opening(seat, cash, "Nominate a program", OPENING_BID), decline]
    if stage == "nominate_star":
        return [
            _checked(rules, state, "Nominate a Star", Nominate(network=seat)),
            _opening(seat, cash, "Open higher", OPENING_BID + BID_STEP),
            decline,
        ]
    if stage == "movie_offer":
        buy = LegalCommand("BuyMovie", f"Buy for ${landing.price:,}")
        if landing.price > cash:
            buy = LegalCommand(
                "BuyMovie", buy.label, None, False, f"{seat} has ${cash:,}: no bankruptcy to buy", "TV Wars 3.2, 7"
            )
        return [buy, decline]
    if stage == "bulletin":
        return [_choose(Bulletin, "Bulletin card effect")]
    if stage in ("steal_program", "steal_star"):
        steals = [
            _checked(rules, state, f"Steal from {n.name}", Steal(network=seat, victim=n.name))
            for n in state.networks
            if n.name != seat and not n.out
        ]
        return [s for s in steals if s.enabled] + [decline]
    return []
