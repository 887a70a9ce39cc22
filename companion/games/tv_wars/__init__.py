"""TV Wars (Avalon Hill), the table-core slice: set-up, the Best Network News roll-off and money moves.

Scope of this module (rule numbers from ``rules/tv-wars.txt``):

* 2.4 every network starts with $31,000; 2.3 each starts with ten hours (20 half-hours) of programming.
* 2.5 each network rolls two dice; the highest roller receives Best Network News and starts. Ties among
  the highest re-roll among themselves (the rulebook is silent; see ``docs/rulings.md``).
* 9.5 On the Air: +$3,000 each time a token passes it.
* 9.4 Sponsor: $500 per half-hour of programming owned. Until the full engine tracks Program tiles, the
  half-hours are a hand-kept track (``half_hours``) that the player can correct when landing.
* A free-form transfer between networks and the bank, with a reason.

House-rule options (``options`` mapping): ``roll_off`` (bool, default ``True``; ``False`` gives Best
Network News to the first seat), ``starting_cash`` (int dollars, default 31,000, rule 2.4).
The full rules (auctions, Ratings Wars, bankruptcy) are a later issue.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

from companion.bank import MONEY_MOVED, Movement, apply_movement, check_movement, format_dollars
from companion.commands import (BANK, AdjustTrack, AnswerDice, Command, EndGame, PlayerSeat, RollDice,
                                TransferMoney)
from companion.dice import DICE_SOURCES, DiceRequest
from companion.errors import BadOption, DiceError, GameFinished, IllegalCommand, MalformedCommand
from companion.events import NewEvent
from companion.games import PlayerView, TableView
from companion.tracks import TRACK_CHANGED, Track, track_event
from companion.games.tv_wars.holdings import (HOLDINGS_EVENTS, NETWORK_OUT, Holdings, PrivateView, Supply,
                                              apply_holdings_event, describe_holdings_event, private_view_of)

STARTING_CASH = 31_000          # dollars, rule 2.4
STARTING_HALF_HOURS = 20        # ten hours of programming, rule 2.3
ON_THE_AIR_PAYMENT = 3_000      # dollars, rule 9.5
SPONSOR_PER_HALF_HOUR = 500     # dollars, rule 9.4
#: Most programming that can exist (Inventory: 12×120, 12×90, 30×60, 60×30 minutes, 8 movies of 120).
MAX_HALF_HOURS = 12 * 4 + 12 * 3 + 30 * 2 + 60 * 1 + 8 * 4

DICE_ROLLED = "dice_rolled"
ROLL_OFF_TIED = "roll_off_tied"
BEST_NETWORK_NEWS_AWARDED = "best_network_news_awarded"
GAME_ENDED = "game_ended"


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
class RollOff:
    """The Best Network News roll-off (TV Wars 2.5): ``contenders`` still in it, ``rolls`` so far this
    round as ``(network, total)`` pairs, and the ``round`` number (1 = first roll, 2+ = re-rolls of ties)."""

    contenders: tuple[str, ...]
    rolls: tuple[tuple[str, int], ...] = ()
    round: int = 1

    @property
    def next_roller(self) -> str | None:
        """The next contender who has not rolled this round, or ``None``."""
        rolled = {name for name, _ in self.rolls}
        return next((name for name in self.contenders if name not in rolled), None)


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


def _half_hours_track(value: int) -> Track:
    return Track("half_hours", "Programming", value, 0, MAX_HALF_HOURS, rule="TV Wars 2.3, Inventory")


def _with_holdings(network: Network, holdings: Holdings, out: bool) -> Network:
    """``network`` with new ``holdings``; once tiles are tracked the half-hours track follows them (9.4)."""
    track = _half_hours_track(holdings.half_hours) if holdings.tracked else network.half_hours
    return replace(network, holdings=holdings, half_hours=track, out=out)


class TvWars:
    """The TV Wars rules (table-core slice). Registered as ``"tv-wars"``."""

    name = "tv-wars"
    title = "TV Wars"
    min_players = 2
    max_players = 4
    default_names = ("ABS", "CBA", "PBC", "NBS")

    # -- set-up -------------------------------------------------------------------------------------
    def new_game(self, players: Sequence[PlayerSeat], options: Mapping[str, Any]) -> TvWarsState:
        """Initial state: $31,000 (2.4) and 20 half-hours (2.3) each, and the 2.5 roll-off pending.

        Raises :class:`IllegalCommand` for fewer than 2 or more than 4 networks (Inventory: four
        Prime Time Line-Up cards) and :class:`MalformedCommand` for empty or repeated names or bad options.
        """
        options = self.check_options(options)
        names = [seat.name for seat in players]
        if not self.min_players <= len(names) <= self.max_players:
            raise IllegalCommand(f"TV Wars is for 2 to 4 networks, not {len(names)}",
                                 "TV Wars Inventory: four Prime Time Line-Up cards")
        if any(not name.strip() or name == BANK for name in names) or len(set(names)) != len(names):
            raise MalformedCommand(f"network names must be distinct and not empty or 'bank': {names}")
        networks = tuple(Network(seat.name, seat.colour, options["starting_cash"],
                                 _half_hours_track(STARTING_HALF_HOURS)) for seat in players)
        if options["roll_off"]:
            return TvWarsState(networks, None, RollOff(tuple(names)))
        return TvWarsState(networks, names[0], None)

    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Return the house-rule options with defaults filled in: ``roll_off`` (bool, default True) and
        ``starting_cash`` (whole dollars ≥ 0, default 31,000, rule 2.4). Raises :class:`BadOption` for an
        unknown option or a wrong value."""
        known = {"roll_off": True, "starting_cash": STARTING_CASH}
        for option in options:
            if option not in known:
                raise BadOption(option, f"TV Wars has no such house rule; known: {', '.join(known)}")
        checked = {**known, **options}
        if not isinstance(checked["roll_off"], bool):
            raise BadOption("roll_off", f"must be true or false, not {checked['roll_off']!r}")
        cash = checked["starting_cash"]
        if isinstance(cash, bool) or not isinstance(cash, int) or cash < 0:
            raise BadOption("starting_cash", f"must be whole dollars ≥ 0, not {cash!r}")
        return checked

    # -- decide: command -> events --------------------------------------------------------------------
    def decide(self, state: TvWarsState, command: Command) -> list[NewEvent]:
        """Return the events ``command`` causes in ``state``, or raise a ``CommandError`` citing the rule."""
        if state.finished:
            raise GameFinished(f"the game has ended ({state.end_reason}); undo to reopen it")
        if isinstance(command, PassOnTheAir):
            state.network(command.network)
            return [Movement(BANK, command.network, ON_THE_AIR_PAYMENT, "passed On the Air",
                             "TV Wars 9.5").to_event()]
        if isinstance(command, LandOnSponsor):
            return self._sponsor(state, command)
        if isinstance(command, TransferMoney):
            reason = command.reason.strip() if isinstance(command.reason, str) else command.reason
            movement = Movement(command.payer, command.payee, command.amount, reason)
            return [check_movement(state.balances, movement).to_event()]
        if isinstance(command, AdjustTrack):
            network = state.network(command.player)
            if command.track != "half_hours":
                raise MalformedCommand(f"TV Wars networks have no track {command.track!r}; only half_hours")
            after = network.half_hours.moved_by(command.delta)
            return [track_event(network.name, network.half_hours, after, command.reason or "corrected by hand")]
        if isinstance(command, AnswerDice):
            return self._roll_off(state, command)
        if isinstance(command, EndGame):
            return [NewEvent(GAME_ENDED, {"reason": command.reason})]
        raise MalformedCommand(f"TV Wars has no command {type(command).__name__}")

    def _sponsor(self, state: TvWarsState, command: LandOnSponsor) -> list[NewEvent]:
        network = state.network(command.network)
        events: list[NewEvent] = []
        track = network.half_hours
        if command.half_hours is not None:
            if isinstance(command.half_hours, bool) or not isinstance(command.half_hours, int):
                raise MalformedCommand(f"half-hours are a whole number, not {command.half_hours!r}")
        if command.half_hours is not None and command.half_hours != track.value:
            after = track.set_to(command.half_hours)
            events.append(track_event(network.name, track, after, "counted on landing on Sponsor"))
            track = after
        if track.value == 0:
            raise IllegalCommand(f"{network.name} owns no programming, so Sponsor pays nothing", "TV Wars 9.4")
        amount = SPONSOR_PER_HALF_HOUR * track.value
        events.append(Movement(BANK, network.name, amount,
                               f"Sponsor: {track.value} half-hours × {format_dollars(SPONSOR_PER_HALF_HOUR)}",
                               "TV Wars 9.4").to_event())
        return events

    def _roll_off(self, state: TvWarsState, command: AnswerDice) -> list[NewEvent]:
        request = self.pending_dice(state)
        if request is None:
            raise IllegalCommand("no dice are asked for right now")
        if command.source not in DICE_SOURCES:
            raise DiceError(f"dice come from {', '.join(DICE_SOURCES)}, not {command.source!r}")
        values = request.check(command.roller, command.values)
        events = [NewEvent(DICE_ROLLED, {"roller": command.roller, "values": list(values), "source": command.source,
                                         "reason": request.reason, "rule": request.rule})]
        roll_off = state.roll_off
        rolls = roll_off.rolls + ((command.roller, sum(values)),)
        if len(rolls) == len(roll_off.contenders):
            best = max(total for _, total in rolls)
            leaders = [name for name, total in rolls if total == best]
            if len(leaders) == 1:
                events.append(NewEvent(BEST_NETWORK_NEWS_AWARDED, {"network": leaders[0], "total": best}))
            else:
                events.append(NewEvent(ROLL_OFF_TIED, {"networks": leaders, "total": best}))
        return events

    # -- evolve: event -> state -------------------------------------------------------------------------
    def evolve(self, state: TvWarsState, event_type: str, payload: Mapping[str, Any]) -> TvWarsState:
        """Fold one event into the state (pure; events were checked when they were decided)."""
        if event_type == MONEY_MOVED:
            balances = apply_movement(state.balances, Movement.from_payload(payload))
            return replace(state, networks=tuple(replace(n, cash=balances[n.name]) for n in state.networks))
        if event_type == TRACK_CHANGED:
            return replace(state, networks=tuple(
                replace(n, half_hours=_half_hours_track(payload["value"])) if n.name == payload["player"] else n
                for n in state.networks))
        if event_type == DICE_ROLLED:
            roll_off = state.roll_off
            total = sum(payload["values"])
            return replace(state, roll_off=replace(roll_off, rolls=roll_off.rolls + ((payload["roller"], total),)))
        if event_type == ROLL_OFF_TIED:
            return replace(state, roll_off=RollOff(tuple(payload["networks"]), (), state.roll_off.round + 1))
        if event_type == BEST_NETWORK_NEWS_AWARDED:
            return replace(state, roll_off=None, best_network_news=payload["network"])
        if event_type == GAME_ENDED:
            return replace(state, finished=True, end_reason=payload["reason"])
        if event_type in HOLDINGS_EVENTS:
            holdings, supply = apply_holdings_event({n.name: n.holdings for n in state.networks}, state.supply,
                                                    event_type, payload)
            out = {payload["network"]} if event_type == NETWORK_OUT else set()
            return replace(state, supply=supply, networks=tuple(
                _with_holdings(n, holdings[n.name], n.out or n.name in out) for n in state.networks))
        raise ValueError(f"TV Wars cannot apply an event of type {event_type!r}")

    # -- views ------------------------------------------------------------------------------------------
    def describe(self, event_type: str, payload: Mapping[str, Any]) -> str:
        """One readable line per event, e.g. ``"Bank pays ABS $3,000: passed On the Air (TV Wars 9.5)"``."""
        if event_type == MONEY_MOVED:
            payer = "Bank" if payload["payer"] == BANK else payload["payer"]
            payee = "the bank" if payload["payee"] == BANK else payload["payee"]
            rule = f" ({payload['rule']})" if payload.get("rule") else ""
            return f"{payer} pays {payee} {format_dollars(payload['amount'])}: {payload['reason']}{rule}"
        if event_type == TRACK_CHANGED:
            before = payload["value"] - payload["delta"]
            return f"{payload['player']} programming from {before} to {payload['value']} half-hours ({payload['reason']})"
        if event_type == DICE_ROLLED:
            values = payload["values"]
            shown = "+".join(map(str, values)) + (f" = {sum(values)}" if len(values) > 1 else "")
            return f"{payload['roller']} rolled {shown} ({payload['source']}) for the {payload['reason']}"
        if event_type == ROLL_OFF_TIED:
            return (f"{' and '.join(payload['networks'])} tied on {payload['total']}: they roll again "
                    f"(TV Wars 2.5, see docs/rulings.md)")
        if event_type == BEST_NETWORK_NEWS_AWARDED:
            return (f"{payload['network']} rolled highest ({payload['total']}): takes Best Network News "
                    f"and starts (TV Wars 2.5)")
        if event_type == GAME_ENDED:
            return f"Game ended: {payload['reason']}"
        if event_type in HOLDINGS_EVENTS:
            return describe_holdings_event(event_type, payload)
        return f"{event_type} {dict(payload)}"

    #: Events after which the journal is backed up (the Ratings War's end joins when the war is played here).
    safe_point_events = (BEST_NETWORK_NEWS_AWARDED, GAME_ENDED)

    #: What each player button does in TV Wars (config action name → command builder).
    button_actions = ("on_the_air", "sponsor", "roll")

    def button_command(self, action: str, player: str, source: str = "button") -> Command:
        """The command a player's button ``action`` stands for: ``on_the_air`` → :class:`PassOnTheAir`
        (9.5), ``sponsor`` → :class:`LandOnSponsor` with the tracked half-hours (9.4), ``roll`` → the
        built-in dice for the pending request. Raises :class:`MalformedCommand` for another action."""
        if action == "on_the_air":
            return PassOnTheAir(network=player, source=source)
        if action == "sponsor":
            return LandOnSponsor(network=player, source=source)
        if action == "roll":
            return RollDice(roller=player, source=source)
        raise MalformedCommand(f"TV Wars has no button action {action!r}; actions: {', '.join(self.button_actions)}")

    def pending_dice(self, state: TvWarsState) -> DiceRequest | None:
        """The Best Network News roll-off roll still owed (TV Wars 2.5), or ``None``."""
        if state.roll_off is None or state.finished:
            return None
        roller = state.roll_off.next_roller
        reason = "Best Network News roll-off" + (f", re-roll {state.roll_off.round - 1}" if state.roll_off.round > 1 else "")
        return DiceRequest(roller, 2, reason, "TV Wars 2.5")

    def private_view(self, state: TvWarsState, network: str) -> PrivateView:
        """``network``'s secret figures (ratings, Specials, names, bonus values) for its own panel only
        (TV Wars 9.1). Raises :class:`MalformedCommand` for an unknown network."""
        return private_view_of(network, state.network(network).holdings)

    def is_finished(self, state: TvWarsState) -> bool:
        """Whether the game has been ended."""
        return state.finished

    def view(self, state: TvWarsState) -> TableView:
        """The public picture: cash and programming half-hours are public (TV Wars 9.1)."""
        players = tuple(
            PlayerView(n.name, n.colour, n.cash, (n.half_hours,),
                       ("Best Network News",) if n.name == state.best_network_news else ())
            for n in state.networks)
        request = self.pending_dice(state)
        if state.finished:
            status = f"Game over: {state.end_reason}"
        elif request is not None:
            status = request.describe()
        else:
            status = f"{state.best_network_news} holds Best Network News and starts (TV Wars 2.5)"
        return TableView(self.title, players, request, status, state.finished)


TV_WARS = TvWars()

__all__ = ["TV_WARS", "TvWars", "TvWarsState", "Network", "RollOff", "PassOnTheAir", "LandOnSponsor"]
