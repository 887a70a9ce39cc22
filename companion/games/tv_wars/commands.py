"""TV Wars: every command a network can make (names as before; the boards and the table's controller build
them). The seat buttons' own two are here (On the Air 9.5, Sponsor 9.4); the others live with the rule part
that decides them and are re-exported: set-up (2.3), spaces (3, 5, 9), Bidding (4), Bankruptcy (7) and the
Ratings War at the table (6, 9.91). The shared opt-in commands TV Wars accepts are
:class:`companion.commands.TransferMoney` (the bank, free-form) and :class:`companion.commands.AdjustTrack`
(the hand-kept programming count before 2.3's selection).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.commands import AdjustTrack, AnswerDice, Command, EndGame, RollDice, TransferMoney
from companion.games.tv_wars.auction import Bid, PassBid
from companion.games.tv_wars.bankruptcy import SellProgram
from companion.games.tv_wars.setup import ProgramSpec, SelectStartingProgramming
from companion.games.tv_wars.spaces import Bulletin, BuyMovie, Decline, EnterTileValue, GiveUp, LandOn, Nominate, Steal
from companion.games.tv_wars.war_at_table import EnterLineUp, LockLineUp, PlacePreemption, RevealLineUps


@dataclass(frozen=True, kw_only=True)
class PassOnTheAir(Command):
    """``network``'s token passed On the Air: the bank pays $3,000 (TV Wars 9.5)."""

    network: str


@dataclass(frozen=True, kw_only=True)
class LandOnSponsor(Command):
    """``network`` landed on Sponsor: the bank pays $500 per half-hour of programming owned (TV Wars 9.4).

    ``half_hours`` corrects the hand-kept programming track first (``None`` uses the tracked value).
    """

    network: str
    half_hours: int | None = None


#: The Ratings War's commands (6, 9.91).
WAR_COMMANDS = (EnterLineUp, LockLineUp, RevealLineUps, PlacePreemption)
#: The commands of full play (after the roll-off and every network's 2.3 selection), set-up's included.
PLAY_COMMANDS = (
    SelectStartingProgramming,
    LandOn,
    Nominate,
    Decline,
    BuyMovie,
    EnterTileValue,
    Steal,
    GiveUp,
    Bulletin,
    Bid,
    PassBid,
    SellProgram,
    *WAR_COMMANDS,
)

__all__ = [
    "PassOnTheAir",
    "LandOnSponsor",
    "SelectStartingProgramming",
    "ProgramSpec",
    "LandOn",
    "Nominate",
    "Decline",
    "BuyMovie",
    "EnterTileValue",
    "Steal",
    "GiveUp",
    "Bulletin",
    "Bid",
    "PassBid",
    "SellProgram",
    "EnterLineUp",
    "LockLineUp",
    "RevealLineUps",
    "PlacePreemption",
    "TransferMoney",
    "AdjustTrack",
    "AnswerDice",
    "RollDice",
    "EndGame",
    "WAR_COMMANDS",
    "PLAY_COMMANDS",
]
