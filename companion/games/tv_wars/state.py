"""TV Wars: the state of a game (plain frozen dataclasses; :meth:`TvWars.evolve
<companion.games.tv_wars.rules.TvWars.evolve>` folds events into it, nothing else changes it).

:class:`TvWarsState` holds the networks in seat (clockwise) order, each a :class:`Network` with its cash in
dollars, its programming half-hours (a track: hand-kept before its 2.3 selection, then counted from its
Program tiles) and its :class:`~companion.games.tv_wars.holdings.Holdings`; and what the table waits for:
the roll-off (2.5), a landing (3, 5, 9), an auction (4), a tile entry (9.1), debts (7), the asset count (8)
and the Ratings War (6). Class and field names are those of the journals recorded before (their replayed
state is compared field by field, ``tests/test_recorded_journals.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from companion.dice import RollOff
from companion.errors import MalformedCommand
from companion.games.tv_wars import spaces as _spaces
from companion.games.tv_wars.auction import Auction
from companion.games.tv_wars.bankruptcy import Debt, FinalCount
from companion.games.tv_wars.holdings import Holdings, Supply
from companion.games.tv_wars.ratings_war import HouseRules
from companion.games.tv_wars.spaces import Landing, TileEntry
from companion.games.tv_wars.war_at_table import WarAtTable, war_active
from companion.tracks import Track

STARTING_HALF_HOURS = 20  # ten hours of programming, rule 2.3
#: Most programming that can exist (Inventory: 12×120, 12×90, 30×60, 60×30 minutes, 8 movies of 120).
MAX_HALF_HOURS = 12 * 4 + 12 * 3 + 30 * 2 + 60 * 1 + 8 * 4


@dataclass(frozen=True)
class Network:
    """One network: call letters ``name``, ``colour``, ``cash`` in dollars, and ``half_hours`` of
    programming owned (a track, 0 to the Inventory's total)."""

    name: str
    colour: str
    cash: int
    half_hours: Track
    holdings: Holdings = Holdings()
    out: bool = False


@dataclass(frozen=True)
class TvWarsState:
    """The whole table-core state of a TV Wars game. ``networks`` in seat (clockwise) order;
    ``best_network_news`` names its holder (also the first player, 2.5) once the roll-off is over."""

    networks: tuple[Network, ...]
    best_network_news: str | None
    roll_off: RollOff | None
    finished: bool = False
    end_reason: str = ""
    supply: Supply = Supply()
    turn: str | None = None
    landing: Landing | None = None
    auction: Auction | None = None
    entry: TileEntry | None = None
    debts: tuple[Debt, ...] = ()
    final_count: FinalCount | None = None
    technical_difficulties: tuple[str, ...] = ()
    #: The moving network has passed On the Air this turn (9.5 pays once a pass; reset when the turn passes).
    passed_on_the_air: bool = False
    war_called: tuple[str, bool] | None = None
    war: WarAtTable | None = None
    house_rules: HouseRules = HouseRules()
    #: The house rule reading 2.3's five Situation Comedies per length (option ``situation_comedies_per_length``;
    #: default five in all). Left out of a recorded state's comparison while at its default (it came later).
    situation_comedies_per_length: bool = False

    @property
    def playing(self) -> bool:
        """Full play (every rule enforced, turns kept): the roll-off is over and every network's starting
        programming is entered (2.3, 2.5). Before that only the table-core commands work."""
        return self.roll_off is None and all(n.holdings.tracked for n in self.networks) and not self.finished

    @property
    def busy(self) -> str | None:
        """What the table is waiting for besides the next landing, in words, or ``None``."""
        if self.final_count is not None and self.final_count.counting:
            return "the asset count"
        if war_active(self.war):
            return "the Ratings War"
        if self.debts:
            return f"{self.debts[0].network}'s debt"
        if self.auction is not None:
            return "the auction"
        if self.entry is not None:
            return f"{self.entry.network}'s tile entry"
        if self.landing is not None:
            return f"{self.landing.network}'s landing on {_spaces.SPACES[self.landing.space][0]}"
        return None

    def network(self, name: str) -> Network:
        """The network called ``name``; raises :class:`MalformedCommand` naming the networks."""
        for network in self.networks:
            if network.name == name:
                return network
        raise MalformedCommand(f"unknown network {name!r}; networks are {', '.join(self.names)}")

    @property
    def names(self) -> tuple[str, ...]:
        """Network names in seat order."""
        return tuple(network.name for network in self.networks)

    @property
    def balances(self) -> dict[str, int]:
        """Cash in dollars by network name."""
        return {network.name: network.cash for network in self.networks}


def _evolved(value: Any, **changes: Any) -> Any:
    """``dataclasses.replace(value, **changes)`` for the state's plain frozen dataclasses (``Network``,
    ``TvWarsState``: no ``__post_init__``, no slots), without its generic per-field work: a copy of the
    instance's fields with ``changes`` over them (the fold's hot path; the original is never changed)."""
    cls = type(value)
    if hasattr(cls, "__post_init__") or not hasattr(value, "__dict__"):
        return replace(value, **changes)
    new = object.__new__(cls)
    fields = new.__dict__
    fields.update(value.__dict__)
    fields.update(changes)
    return new


def _half_hours_track(value: int) -> Track:
    return Track("half_hours", "Programming", value, 0, MAX_HALF_HOURS, rule="TV Wars 2.3, Inventory")


def _with_holdings(network: Network, holdings: Holdings, out: bool) -> Network:
    """``network`` with new ``holdings``; once tiles are tracked the half-hours track follows them (9.4)."""
    track = _half_hours_track(holdings.half_hours) if holdings.tracked else network.half_hours
    return replace(network, holdings=holdings, half_hours=track, out=out)
