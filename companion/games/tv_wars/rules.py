"""TV Wars (Avalon Hill): the rules engine (rule numbers from ``rules/tv-wars.txt``).

* 2.4 every network starts with $31,000; 2.5 the highest roller gets Best Network News and starts (ties
  re-roll, see ``docs/rulings.md``).
* 2.3 each network enters its starting programming (:class:`SelectStartingProgramming`, ``setup.py``);
  until then its programming is a hand-kept half-hour count (the table-core mode, ``AdjustTrack``).
* Holdings (``holdings.py``): Program and Bonus tiles, the Inventory limits, the tile events; secret
  values stay out of :meth:`TvWars.public_view` and :meth:`TvWars.describe` (9.1), see :meth:`TvWars.private_view`.
* Full play, once every selection is in and the roll-off is over: turns clockwise; the spaces
  (:class:`LandOn`, ``spaces.py``: 3.1-3.22, 5.1-5.32, 6.3, 9.2-9.9); Bidding (``auction.py``, 4, 9.7);
  Bankruptcy, the asset count and the end of the game (``bankruptcy.py``: 7, 8, 3.11, 5.32, 1, 10).
* 9.5 On the Air (+$3,000, :class:`PassOnTheAir`) and 9.4 Sponsor (:class:`LandOnSponsor`, $500 per
  half-hour of Program tiles held, not the Preemption tile) and free-form transfers work in both modes.
* The Ratings War at the table is ``war_at_table.py`` (landing on a Ratings War space records
  ``ratings_war_called`` and leaves the landing open until the war's module closes it).

House-rule options (``options`` mapping): ``roll_off`` (bool, default ``True``; ``False`` gives Best
Network News to the first seat), ``starting_cash`` (int dollars, default 31,000, rule 2.4).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.checks import is_whole
from companion.commands import BANK, AdjustTrack, AnswerDice, Command, EndGame, PlayerSeat, RollDice, TransferMoney
from companion.dice import DiceRequest, RollOff, check_answer, roll_payload
from companion.errors import BadOption, GameFinished, IllegalCommand, MalformedCommand
from companion.events import Event, EventCodec, NewEvent
from companion.game import LegalCommand, Outcome, Termination
from companion.game import PrivateView as SeatPrivateView
from companion.games import PlayerView, TableView
from companion.games.tv_wars import auction as _auction
from companion.games.tv_wars import bankruptcy as _bankruptcy
from companion.games.tv_wars import spaces as _spaces
from companion.games.tv_wars import view as _view
from companion.games.tv_wars import war_at_table as _war
from companion.games.tv_wars.auction import Auction, Bid, PassBid
from companion.games.tv_wars.bank import MONEY_MOVED, Movement, apply_movement, check_movement, format_dollars
from companion.games.tv_wars.bankruptcy import Debt, FinalCount, GameResult, SellProgram
from companion.games.tv_wars.holdings import (
    BONUS_ACQUIRED,
    HOLDINGS_EVENTS,
    NETWORK_OUT,
    PROGRAM_ACQUIRED,
    Holdings,
    HoldingsView,
    Supply,
    apply_holdings_event,
    describe_holdings_event,
    private_view_of,
)
from companion.games.tv_wars.info import INFO
from companion.games.tv_wars.ratings_war import HouseRules
from companion.games.tv_wars.setup import (
    STARTING_PROGRAMMING,
    ProgramSpec,
    SelectStartingProgramming,
    decide_selection,
    describe_selection,
)
from companion.games.tv_wars.spaces import (  # 9.5, 9.4
    ON_THE_AIR_PAYMENT,
    SPONSOR_PER_HALF_HOUR,
    Bulletin,
    BuyMovie,
    Decline,
    EnterTileValue,
    GiveUp,
    Landing,
    LandOn,
    Nominate,
    Steal,
    TileEntry,
)
from companion.games.tv_wars.war_at_table import (
    EnterLineUp,
    LockLineUp,
    PlacePreemption,
    RevealLineUps,
    WarAtTable,
    war_active,
)
from companion.tracks import TRACK_CHANGED, Track, track_event

STARTING_HALF_HOURS = 20  # ten hours of programming, rule 2.3
#: Most programming that can exist (Inventory: 12×120, 12×90, 30×60, 60×30 minutes, 8 movies of 120).
MAX_HALF_HOURS = 12 * 4 + 12 * 3 + 30 * 2 + 60 * 1 + 8 * 4

DICE_ROLLED = "dice_rolled"
ROLL_OFF_TIED = "roll_off_tied"
BEST_NETWORK_NEWS_AWARDED = "best_network_news_awarded"
GAME_ENDED = "game_ended"
ON_THE_AIR_PASSED = "on_the_air_passed"


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


class TvWars:
    """The TV Wars rules, meeting :class:`companion.game.Game`. Registered as ``"tv-wars"`` (:data:`INFO`)."""

    info = INFO
    #: The registry name and title (``info.name``, ``info.title``), which the table's drivers and tests read.
    name = INFO.name
    title = INFO.title
    #: Raised when the state's meaning changes without its fields changing (stored states are rebuilt).
    state_version = 1

    # -- set-up -------------------------------------------------------------------------------------
    def new_game(self, players: Sequence[PlayerSeat], options: Mapping[str, Any]) -> TvWarsState:
        """Initial state: $31,000 (2.4) and 20 half-hours (2.3) each, and the 2.5 roll-off pending.

        Raises :class:`IllegalCommand` for fewer than 2 or more than 4 networks (Inventory: four
        Prime Time Line-Up cards) and :class:`MalformedCommand` for empty or repeated names or bad options.
        """
        options = self.check_options(options)
        names = [seat.name for seat in players]
        if not INFO.min_players <= len(names) <= INFO.max_players:
            raise IllegalCommand(
                f"TV Wars is for 2 to 4 networks, not {len(names)}", "TV Wars Inventory: four Prime Time Line-Up cards"
            )
        if any(not name.strip() or name == BANK for name in names) or len(set(names)) != len(names):
            raise MalformedCommand(f"network names must be distinct and not empty or 'bank': {names}")
        networks = tuple(
            Network(seat.name, seat.colour, options["starting_cash"], _half_hours_track(STARTING_HALF_HOURS))
            for seat in players
        )
        house_rules = HouseRules(options["counter_programming_four"])
        if options["roll_off"]:
            return TvWarsState(networks, None, RollOff(tuple(names)), house_rules=house_rules)
        return TvWarsState(networks, names[0], None, turn=names[0], house_rules=house_rules)

    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Return the house-rule options (:attr:`GameInfo.options <companion.game.GameInfo.options>`) with
        their defaults filled in: ``roll_off`` (bool, default True, 2.5), ``starting_cash`` (whole dollars
        ≥ 0, default 31,000, rule 2.4) and ``counter_programming_four`` (-30 default or -20: four networks of
        one colour in a slot, 6.5, see docs/rulings.md). Raises :class:`BadOption` for an unknown option or
        a wrong value."""
        known = {spec.name: spec for spec in INFO.options}
        for option in options:
            if option not in known:
                raise BadOption(option, f"TV Wars has no such house rule; known: {', '.join(known)}")
        checked = {name: options.get(name, spec.default) for name, spec in known.items()}
        if not isinstance(checked["roll_off"], bool):
            raise BadOption("roll_off", f"must be true or false, not {checked['roll_off']!r}")
        cash = checked["starting_cash"]
        if not is_whole(cash) or cash < 0:
            raise BadOption("starting_cash", f"must be whole dollars ≥ 0, not {cash!r}")
        HouseRules(checked["counter_programming_four"])
        return checked

    # -- decide: command -> events --------------------------------------------------------------------
    def decide(self, state: TvWarsState, command: Command) -> list[NewEvent]:
        """Return the events ``command`` causes in ``state``, or raise a ``CommandError`` citing the rule."""
        if state.finished:
            raise GameFinished(f"the game has ended ({state.end_reason}); undo to reopen it")
        if isinstance(command, (PassOnTheAir, LandOnSponsor)) and state.roll_off is not None:
            raise IllegalCommand(
                "nobody moves until the Best Network News roll-off has decided who starts", "TV Wars 2.5"
            )
        if state.auction is not None and isinstance(command, (PassOnTheAir, LandOnSponsor)):
            if command.source != "button":  # a tap on On the Air / Sponsor means what it says: refuse it
                raise IllegalCommand(
                    f"an auction is under way ({state.auction.status}): nobody moves until it closes", "TV Wars 4"
                )
            # During an auction nobody moves: the seat's first two buttons mean raise $500 and pass (4).
            if isinstance(command, PassOnTheAir):
                command = Bid(network=command.network, amount=state.auction.minimum, source=command.source)
            else:
                command = PassBid(network=command.network, source=command.source)
        if war_active(state.war) and state.war.phase == "line-ups" and isinstance(command, LandOnSponsor):
            # During the line-ups nobody moves: the seat's Sponsor button locks its line-up in (6).
            command = LockLineUp(network=command.network, source=command.source)
        if isinstance(command, _PLAY_COMMANDS) or (state.playing and isinstance(command, LandOnSponsor)):
            return self._play(state, command)
        if isinstance(command, PassOnTheAir):
            network = state.network(command.network)
            if not state.playing:  # the hand-kept table-core mode: the players keep the turns
                return [
                    Movement(BANK, command.network, ON_THE_AIR_PAYMENT, "passed On the Air", "TV Wars 9.5").to_event()
                ]
            if state.busy:
                raise IllegalCommand(f"finish {state.busy} first; nobody moves until then", "TV Wars 9.5")
            if network.name != state.turn:
                raise IllegalCommand(
                    f"only the moving network passes On the Air: it is {state.turn}'s turn, not {network.name}'s",
                    "TV Wars 9.5",
                )
            if state.passed_on_the_air:
                raise IllegalCommand(f"{network.name} has already passed On the Air this turn", "TV Wars 9.5")
            return [
                Movement(BANK, network.name, ON_THE_AIR_PAYMENT, "passed On the Air", "TV Wars 9.5").to_event(),
                NewEvent(ON_THE_AIR_PASSED, {"network": network.name}),
            ]
        if isinstance(command, LandOnSponsor):
            return self._sponsor(state, command)
        if isinstance(command, TransferMoney):
            reason = command.reason.strip() if isinstance(command.reason, str) else command.reason
            movement = Movement(command.payer, command.payee, command.amount, reason)
            return [check_movement(state.balances, movement).to_event()]
        if isinstance(command, AdjustTrack):
            network = state.network(command.player)
            if network.holdings.tracked:
                raise IllegalCommand(f"{network.name}'s programming is counted from its Program tiles", "TV Wars 9.4")
            if command.track != "half_hours":
                raise MalformedCommand(f"TV Wars networks have no track {command.track!r}; only half_hours")
            after = network.half_hours.moved_by(command.delta)
            return [track_event(network.name, network.half_hours, after, command.reason or "corrected by hand")]
        if isinstance(command, AnswerDice):
            if state.roll_off is None:
                return self._play(state, command)
            return self._roll_off(state, command)
        if isinstance(command, EndGame):
            return [NewEvent(GAME_ENDED, {"reason": command.reason})]
        raise MalformedCommand(f"TV Wars has no command {type(command).__name__}")

    def _sponsor(self, state: TvWarsState, command: LandOnSponsor) -> list[NewEvent]:
        network = state.network(command.network)
        events: list[NewEvent] = []
        track = network.half_hours
        if command.half_hours is not None:
            if not is_whole(command.half_hours):
                raise MalformedCommand(f"half-hours are a whole number, not {command.half_hours!r}")
        if command.half_hours is not None and command.half_hours != track.value:
            after = track.set_to(command.half_hours)
            events.append(track_event(network.name, track, after, "counted on landing on Sponsor"))
            track = after
        if track.value == 0:
            raise IllegalCommand(f"{network.name} owns no programming, so Sponsor pays nothing", "TV Wars 9.4")
        amount = SPONSOR_PER_HALF_HOUR * track.value
        events.append(
            Movement(
                BANK,
                network.name,
                amount,
                f"Sponsor: {track.value} half-hours × {format_dollars(SPONSOR_PER_HALF_HOUR)}",
                "TV Wars 9.4",
            ).to_event()
        )
        return events

    def _roll_off(self, state: TvWarsState, command: AnswerDice) -> list[NewEvent]:
        request = self.pending_dice(state)
        values = check_answer(request, command.roller, command.values, command.source)
        events = [NewEvent(DICE_ROLLED, roll_payload(request, command.roller, values, command.source))]
        settled = state.roll_off.with_roll(command.roller, sum(values)).leaders()
        if settled is not None:
            leaders, best = settled
            if len(leaders) == 1:
                events.append(NewEvent(BEST_NETWORK_NEWS_AWARDED, {"network": leaders[0], "total": best}))
            else:
                events.append(NewEvent(ROLL_OFF_TIED, {"networks": leaders, "total": best}))
        return events

    # -- evolve: event -> state -------------------------------------------------------------------------
    def evolve(self, state: TvWarsState, event: Event | NewEvent) -> TvWarsState:
        """Fold one event into the state (pure; events were checked when they were decided)."""
        return self._fold_raw(state, event.type, event.payload)

    def _fold_raw(self, state: TvWarsState, event_type: str, payload: Mapping[str, Any]) -> TvWarsState:
        # The two commonest events: only the networks that change are rebuilt, the rest are shared.
        if event_type == MONEY_MOVED:
            balances = apply_movement(state.balances, Movement.from_payload(payload))
            return _evolved(
                state,
                networks=tuple(
                    n if n.cash == balances[n.name] else _evolved(n, cash=balances[n.name]) for n in state.networks
                ),
            )
        if event_type == TRACK_CHANGED:
            return _evolved(
                state,
                networks=tuple(
                    _evolved(n, half_hours=_half_hours_track(payload["value"])) if n.name == payload["player"] else n
                    for n in state.networks
                ),
            )
        if event_type == DICE_ROLLED:
            roll_off = state.roll_off
            if roll_off is None:
                return state
            return replace(state, roll_off=roll_off.with_roll(payload["roller"], sum(payload["values"])))
        if event_type == ROLL_OFF_TIED:
            return replace(state, roll_off=state.roll_off.reroll(payload["networks"]))
        if event_type == BEST_NETWORK_NEWS_AWARDED:
            return replace(state, roll_off=None, best_network_news=payload["network"], turn=payload["network"])
        if event_type == ON_THE_AIR_PASSED:
            return replace(state, passed_on_the_air=True)
        if event_type == GAME_ENDED:
            result = None
            if payload.get("rule"):
                totals = tuple((name, asset["total"]) for name, asset in payload["assets"].items())
                result = GameResult(
                    payload["reason"], payload["rule"], tuple(payload["winners"]), payload["draw"], totals
                )
            return replace(
                state,
                finished=True,
                end_reason=payload["reason"],
                final_count=None if result is None else FinalCount(result.reason, result.rule, (), (), result),
                landing=None,
                auction=None,
                entry=None,
                debts=(),
            )
        if event_type in _war.WAR_EVENTS:
            return replace(state, war=_war.evolve_war(state.war, event_type, payload))
        if event_type in HOLDINGS_EVENTS or event_type == STARTING_PROGRAMMING:
            return self._evolve_holdings(state, event_type, payload)
        if event_type in _auction.AUCTION_EVENTS:
            return replace(state, auction=_auction.evolve_auction(state.auction, event_type, payload))
        if event_type in _spaces.SPACE_EVENTS:
            return self._evolve_space(state, event_type, payload)
        if event_type in _bankruptcy.BANKRUPTCY_EVENTS:
            if event_type == _bankruptcy.ASSETS_COUNT_STARTED:
                specials = tuple(tuple(pair) for pair in payload["specials"])
                return replace(state, final_count=FinalCount(payload["reason"], payload["rule"], specials))
            if event_type == _bankruptcy.SPECIAL_VALUED:
                count = state.final_count
                return replace(
                    state,
                    final_count=replace(
                        count, values=count.values + ((payload["network"], payload["tile_id"], payload["value"]),)
                    ),
                )
            return replace(state, debts=_bankruptcy.evolve_debts(state.debts, event_type, payload))
        raise ValueError(f"TV Wars cannot apply an event of type {event_type!r}")

    def _evolve_holdings(self, state: TvWarsState, event_type: str, payload: Mapping[str, Any]) -> TvWarsState:
        holdings = {n.name: n.holdings for n in state.networks}
        supply = state.supply
        if event_type == STARTING_PROGRAMMING:
            holdings[payload["network"]] = Holdings(tracked=True)
            for tile in payload["tiles"]:
                holdings, supply = apply_holdings_event(
                    holdings, supply, PROGRAM_ACQUIRED, {"network": payload["network"], "tile": tile}
                )
        else:
            holdings, supply = apply_holdings_event(holdings, supply, event_type, payload)
        out = {payload["network"]} if event_type == NETWORK_OUT else set()
        entry = state.entry
        if (
            event_type in (PROGRAM_ACQUIRED, BONUS_ACQUIRED)
            and entry is not None
            and entry.network == payload["network"]
        ):
            entry = None
        debts = _bankruptcy.evolve_debts(state.debts, event_type, payload) if out else state.debts
        return replace(
            state,
            supply=supply,
            entry=entry,
            debts=debts,
            networks=tuple(_with_holdings(n, holdings[n.name], n.out or n.name in out) for n in state.networks),
            technical_difficulties=tuple(t for t in state.technical_difficulties if t not in out),
        )

    def _evolve_space(self, state: TvWarsState, event_type: str, payload: Mapping[str, Any]) -> TvWarsState:
        if event_type == _spaces.TURN_PASSED:
            return replace(state, turn=payload["network"], passed_on_the_air=False)
        if event_type == _spaces.TILE_ENTRY_OPENED:
            return replace(
                state,
                entry=TileEntry(
                    payload["network"],
                    payload["lot"],
                    payload["length"],
                    payload["colour"],
                    payload["reason"],
                    payload["rule"],
                ),
            )
        if event_type == _spaces.BEST_NETWORK_NEWS_PASSED:
            return replace(state, best_network_news=payload["network"])
        if event_type == _spaces.RATINGS_WAR_CALLED:
            return replace(state, war_called=(payload["network"], payload["february_sweeps"]))
        if event_type == _spaces.LANDED:
            td = tuple(t for t in state.technical_difficulties if t != payload["network"])
            if payload["space"] == "technical_difficulties":
                td += (payload["network"],)
            state = replace(state, technical_difficulties=td)
        return replace(state, landing=_spaces.evolve_landing(state.landing, event_type, payload))

    # -- full play: turns, spaces, auctions, debts, the end ---------------------------------------------------
    def _play(self, state: TvWarsState, command: Command) -> list[NewEvent]:
        """Decide a command of full play, then pass the turn when the mover's business is all done."""
        if isinstance(command, SelectStartingProgramming):
            if state.roll_off is None and all(n.holdings.tracked for n in state.networks):
                raise IllegalCommand("every network has selected its starting programming", "TV Wars 2.3")
            return decide_selection(state, command)
        if not state.playing:
            missing = [n.name for n in state.networks if not n.holdings.tracked]
            wait = (
                f"{', '.join(missing)} must select starting programming first (TV Wars 2.3)"
                if missing
                else "the Best Network News roll-off comes first (TV Wars 2.5)"
            )
            raise IllegalCommand(f"play has not begun: {wait}", "TV Wars 2.3, 2.5")
        mover = state.turn
        events = self._play_step(state, command)
        after = state
        for event in events:
            after = self.evolve(after, event)
        events, after = self._war_hook(after, events)
        closed = next((e for e in events if e.type == _auction.AUCTION_CLOSED), None)
        if closed is not None:
            more = _spaces.after_auction(
                after,
                closed.payload,
                _auction.auction_from_payload(next(e for e in events if e.type == _auction.AUCTION_OPENED).payload)
                if any(e.type == _auction.AUCTION_OPENED for e in events)
                else state.auction,
            )
            events += more
            for event in more:
                after = self.evolve(after, event)
        outs = tuple(e.payload["network"] for e in events if e.type == NETWORK_OUT)
        if outs:
            ending = _bankruptcy.end_if_over(after, outs)
            events += ending
            for event in ending:
                after = self.evolve(after, event)
        if (
            not after.finished
            and after.busy is None
            and after.turn == mover
            and mover is not None
            and (state.busy is not None or isinstance(command, (LandOn, LandOnSponsor)))
        ):
            events.append(NewEvent(_spaces.TURN_PASSED, {"network": self._next_turn(after, mover)}))
        return events

    def _war_hook(self, after: TvWarsState, events: list[NewEvent]) -> tuple[list[NewEvent], TvWarsState]:
        """Start the Ratings War a landing called (6, 9.8); when a war ends, finish the landing and open
        the Super Bowl's auction if it was played (9.8). Returns all the events and the state after them."""
        more: list[NewEvent] = []

        def add(new: list[NewEvent]) -> None:
            nonlocal after
            for event in new:
                after = self.evolve(after, event)
                more.append(event)

        called = next((e for e in events if e.type == _spaces.RATINGS_WAR_CALLED), None)
        if called is not None:
            add(
                _war.start_war(
                    called.payload["network"],
                    called.payload["february_sweeps"],
                    {n.name: n.holdings for n in after.networks},
                    out=[n.name for n in after.networks if n.out],
                    best_network_news=after.best_network_news,
                    house_rules=after.house_rules,
                )
            )
        ended = next((e for e in events + more if e.type == _war.RATINGS_WAR_ENDED), None)
        if ended is not None:
            add(
                [
                    NewEvent(
                        _spaces.LANDING_DONE,
                        {"network": after.war.landed_by, "outcome": after.war.summary, "rule": "TV Wars 6"},
                    )
                ]
            )
            if ended.payload["super_bowl_auction"]:
                add(
                    _auction.open_auction(
                        after,
                        "super_bowl",
                        None,
                        None,
                        last_owner=ended.payload["super_bowl_auction"],
                        reason="the Super Bowl after the February Sweeps Ratings War",
                        rule="TV Wars 9.8",
                    )
                )
        return events + more, after

    @staticmethod
    def _next_turn(state: TvWarsState, mover: str) -> str:
        names = state.names
        i = names.index(mover)
        for step in range(1, len(names) + 1):
            candidate = names[(i + step) % len(names)]
            if not state.network(candidate).out:
                return candidate
        return mover

    def _play_step(self, state: TvWarsState, command: Command) -> list[NewEvent]:
        if war_active(state.war) and isinstance(command, (*_WAR_COMMANDS, AnswerDice)):
            return _war.decide_war(
                state.war, {n.name: n.holdings for n in state.networks}, command, balances=state.balances
            )
        if isinstance(command, _WAR_COMMANDS):
            raise IllegalCommand("no Ratings War is under way", "TV Wars 6")
        if isinstance(command, (LandOn, LandOnSponsor)):
            network = state.network(command.network)
            space = command.space if isinstance(command, LandOn) else "sponsor"
            if (
                isinstance(command, LandOnSponsor)
                and command.half_hours is not None
                and command.half_hours != network.holdings.half_hours
            ):
                raise IllegalCommand(
                    f"{network.name} holds {network.holdings.half_hours} half-hours of Program "
                    f"tiles, not {command.half_hours!r}; Sponsor pays for the tiles held",
                    "TV Wars 9.4",
                )
            if state.busy is not None:
                raise IllegalCommand(f"finish {state.busy} first", "TV Wars 2.5")
            if network.name != state.turn:
                raise IllegalCommand(
                    f"it is {state.turn}'s turn, not {network.name}'s (turns go clockwise)", "TV Wars 2.5"
                )
            passed = command.passed_on_the_air if isinstance(command, LandOn) else False
            if passed is True and state.passed_on_the_air:
                raise IllegalCommand(
                    f"{network.name} has already been paid for passing On the Air this turn", "TV Wars 9.5"
                )
            return _spaces.land(state, network.name, space, passed)
        if isinstance(command, (Bid, PassBid)):
            return _auction.decide_bid(state, command)
        if isinstance(command, Nominate):
            return _spaces.decide_nominate(state, command)
        if isinstance(command, Decline):
            return _spaces.decide_decline(state, command)
        if isinstance(command, BuyMovie):
            return _spaces.decide_buy_movie(state, command)
        if isinstance(command, EnterTileValue):
            return _spaces.decide_tile_entry(state, command)
        if isinstance(command, Steal):
            return _spaces.decide_steal(state, command)
        if isinstance(command, GiveUp):
            return _spaces.decide_give_up(state, command)
        if isinstance(command, Bulletin):
            return _spaces.decide_bulletin(state, command)
        if isinstance(command, SellProgram):
            return _bankruptcy.decide_sale(state, command)
        if isinstance(command, AnswerDice):
            return self._play_dice(state, command)
        raise MalformedCommand(f"TV Wars has no command {type(command).__name__}")

    def _play_dice(self, state: TvWarsState, command: AnswerDice) -> list[NewEvent]:
        request = self.pending_dice(state)
        values = check_answer(request, command.roller, command.values, command.source)
        events = [NewEvent(DICE_ROLLED, roll_payload(request, command.roller, values, command.source))]
        rp = 10 * sum(values)
        if state.final_count is not None:
            network, tile_id = state.final_count.next_special
            events.append(NewEvent(_bankruptcy.SPECIAL_VALUED, {"network": network, "tile_id": tile_id, "value": rp}))
            count = replace(state.final_count, values=state.final_count.values + ((network, tile_id, rp),))
            if count.next_special is None:
                events.append(
                    _bankruptcy.game_ended(state, count.reason, count.rule, {(n, t): v for n, t, v in count.values})
                )
            return events
        if state.debts and state.debts[0].selling is not None:
            debt = state.debts[0]
            tile = state.network(debt.network).holdings.program(debt.selling)
            value, breakdown = _bankruptcy.sale_value(tile, rp)
            return events + _bankruptcy.sell(state, debt, tile, value, f"{breakdown} (Special rolled {rp} RP)")
        return events + _spaces.landing_dice(state, values)

    # -- views ------------------------------------------------------------------------------------------
    def describe(self, event: Event | NewEvent) -> str:
        """One readable line per event, e.g. ``"Bank pays ABS $3,000: passed On the Air (TV Wars 9.5)"``."""
        return self._describe_raw(event.type, event.payload)

    def _describe_raw(self, event_type: str, payload: Mapping[str, Any]) -> str:
        if event_type == ON_THE_AIR_PASSED:
            return f"{payload['network']}'s token passed On the Air this turn (TV Wars 9.5)"
        if event_type == MONEY_MOVED:
            payer = "Bank" if payload["payer"] == BANK else payload["payer"]
            payee = "the bank" if payload["payee"] == BANK else payload["payee"]
            rule = f" ({payload['rule']})" if payload.get("rule") else ""
            return f"{payer} pays {payee} {format_dollars(payload['amount'])}: {payload['reason']}{rule}"
        if event_type == TRACK_CHANGED:
            before = payload["value"] - payload["delta"]
            return (
                f"{payload['player']} programming from {before} to {payload['value']} half-hours ({payload['reason']})"
            )
        if event_type == DICE_ROLLED:
            values = payload["values"]
            shown = "+".join(map(str, values)) + (f" = {sum(values)}" if len(values) > 1 else "")
            return f"{payload['roller']} rolled {shown} ({payload['source']}) for the {payload['reason']}"
        if event_type == ROLL_OFF_TIED:
            return (
                f"{' and '.join(payload['networks'])} tied on {payload['total']}: they roll again "
                f"(TV Wars 2.5, see docs/rulings.md)"
            )
        if event_type == BEST_NETWORK_NEWS_AWARDED:
            return (
                f"{payload['network']} rolled highest ({payload['total']}): takes Best Network News "
                f"and starts (TV Wars 2.5)"
            )
        if event_type == GAME_ENDED:
            return _bankruptcy.describe_game_ended(payload)
        if event_type in HOLDINGS_EVENTS:
            return describe_holdings_event(event_type, payload)
        if event_type in _war.WAR_EVENTS:
            return _war.describe_war_event(event_type, payload)
        if event_type == STARTING_PROGRAMMING:
            return describe_selection(payload)
        if event_type in _auction.AUCTION_EVENTS:
            return _auction.describe_auction_event(event_type, payload)
        if event_type in _spaces.SPACE_EVENTS:
            return _spaces.describe_space_event(event_type, payload)
        if event_type in _bankruptcy.BANKRUPTCY_EVENTS:
            return _bankruptcy.describe_bankruptcy_event(event_type, payload)
        return f"{event_type} {dict(payload)}"

    #: The game's event types (journal type names), read back by :meth:`evolve` and :meth:`describe`.
    events = EventCodec(
        (),
        raw_types=(
            MONEY_MOVED,
            TRACK_CHANGED,
            DICE_ROLLED,
            ROLL_OFF_TIED,
            BEST_NETWORK_NEWS_AWARDED,
            ON_THE_AIR_PASSED,
            GAME_ENDED,
            STARTING_PROGRAMMING,
            *HOLDINGS_EVENTS,
            *_war.WAR_EVENTS,
            *_auction.AUCTION_EVENTS,
            *_spaces.SPACE_EVENTS,
            *_bankruptcy.BANKRUPTCY_EVENTS,
        ),
    )

    #: Events after which the journal is backed up (the Ratings War's end joins when the war is played here).
    safe_point_events = frozenset((BEST_NETWORK_NEWS_AWARDED, GAME_ENDED, *_war.WAR_SAFE_POINT_EVENTS))

    def button_command(self, action: str, player: str, source: str = "button") -> Command:
        """The command a player's button ``action`` stands for: ``on_the_air`` → :class:`PassOnTheAir`
        (9.5), ``sponsor`` → :class:`LandOnSponsor` for the Program tiles held (9.4), ``roll`` → the
        built-in dice for the pending request. While an auction runs, :meth:`decide` reads the first two
        as the bidder's "raise $500" (:class:`Bid` at the minimum) and "pass" (:class:`PassBid`), since no
        token moves during an auction (4). Raises :class:`MalformedCommand` for another action."""
        if action == "on_the_air":
            return PassOnTheAir(network=player, source=source)
        if action == "sponsor":
            return LandOnSponsor(network=player, source=source)
        if action == "roll":
            return RollDice(roller=player, source=source)
        actions = ", ".join(button.action for button in INFO.buttons)
        raise MalformedCommand(f"TV Wars has no button action {action!r}; actions: {actions}")

    def pending_dice(self, state: TvWarsState) -> DiceRequest | None:
        """The Best Network News roll-off roll still owed (TV Wars 2.5), or ``None``."""
        if state.finished:
            return None
        if state.roll_off is None:
            return self._play_dice_request(state)
        roller = state.roll_off.next_roller
        reason = "Best Network News roll-off" + (
            f", re-roll {state.roll_off.round - 1}" if state.roll_off.round > 1 else ""
        )
        return DiceRequest(roller, 2, reason, "TV Wars 2.5")

    def outcome(self, state: TvWarsState) -> Outcome | None:
        """How the game came out, or ``None`` while it is played. The ``game_ended`` event says how: ended at
        the table (:class:`EndGame`, no winner); the last network with programming (TV Wars 1, 3: last
        standing); every remaining network losing its last programs in one war (10: the most money wins, all
        lost together; equal money is a draw); or the asset count (8, for 3.11 and 5.32: cash plus programs,
        the most money wins; equal totals are a draw). ``ranking`` is by those totals, best first."""
        if not state.finished:
            return None
        ended = state.final_count.result if state.final_count is not None else None
        figures = self.figures(state)
        if ended is None:
            return Outcome(Termination.ENDED_BY_HAND, (), figures, f"Ended at the table: {state.end_reason}")
        totals = dict(ended.totals)
        ranking = tuple(sorted(totals, key=lambda name: -totals[name]))
        winners = tuple(ended.winners)
        money = " and ".join(f"{w} {format_dollars(totals[w])}" for w in winners)
        if ended.draw:
            termination, reason = Termination.DRAW, f"A draw: {money}, equal money ({ended.rule})"
        elif ended.rule == _bankruptcy.RULE_LAST_STANDING:
            termination, reason = Termination.LAST_STANDING, f"{money}: the last network standing ({ended.rule})"
        elif ended.rule == _bankruptcy.RULE_ALL_LOST:
            termination = Termination.ALL_LOST
            reason = f"{money} wins: all lost their last programs together, the most money ({ended.rule})"
        else:
            termination, reason = Termination.WON, f"{money} wins: the most money ({ended.rule})"
        return Outcome(termination, winners, figures, reason, ranking)

    def figures(self, state: TvWarsState) -> dict[str, dict[str, int | str]]:
        """Each network's public figures, in seat order: ``cash`` (dollars), ``half_hours`` of programming
        (2.3, 9.4), ``programs`` and ``bonus_tiles`` held (counts, 9.1: never a value), and ``out`` (``"yes"``
        once it is out of the game, 3)."""
        return {
            n.name: {
                "cash": n.cash,
                "half_hours": n.half_hours.value,
                "programs": len(n.holdings.programs),
                "bonus_tiles": len(n.holdings.bonuses),
                "out": "yes" if n.out else "no",
            }
            for n in state.networks
        }

    def legal_commands(self, state: TvWarsState, seat: str) -> tuple[LegalCommand, ...]:
        """What ``seat`` may do now (:func:`companion.games.tv_wars.legal.legal_commands`)."""
        from companion.games.tv_wars.legal import legal_commands

        return legal_commands(self, state, seat)

    def war_view(self, state: TvWarsState) -> _war.WarView | None:
        """The public picture of the current or last Ratings War (grid, odds, line-up status), or ``None``."""
        return None if state.war is None else _war.war_view(state.war)

    def war_private_view(self, state: TvWarsState, network: str) -> _war.PrivateWarView:
        """``network``'s own line-up entry with its secret values, for its panel only (9.1). Raises
        :class:`IllegalCommand` when no war is under way."""
        if not war_active(state.war):
            raise IllegalCommand("no Ratings War is under way", "TV Wars 6")
        return _war.war_private_view(state.war, network, state.network(network).holdings)

    def holdings_view(self, state: TvWarsState, network: str) -> HoldingsView:
        """``network``'s secret figures (ratings, Specials, names, bonus values) with its tiles, for its own
        panel and the board only (TV Wars 9.1). Raises :class:`MalformedCommand` for an unknown network."""
        return private_view_of(network, state.network(network).holdings)

    def private_view(self, state: TvWarsState, seat: str) -> SeatPrivateView:
        """What only ``seat`` may see (TV Wars 9.1): ``lines`` are its peek page (programs by length with
        their ratings, then bonus values, compact ASCII for a panel), ``items`` its tiles as (id and public
        words, secret value). Raises :class:`MalformedCommand` for an unknown network."""
        holdings = state.network(seat).holdings
        items = tuple((t.id, t.private_text) for t in holdings.programs) + tuple(
            (t.id, t.private_text) for t in holdings.bonuses
        )
        return SeatPrivateView(seat, tuple(_view.peek_lines(holdings)), items)

    @staticmethod
    def _play_dice_request(state: TvWarsState) -> DiceRequest | None:
        if state.final_count is not None and state.final_count.counting:
            network, tile_id = state.final_count.next_special
            return DiceRequest(network, 2, f"value of Special {tile_id} for the asset count", "TV Wars 8, 7, 3.3")
        if war_active(state.war):
            return _war.war_pending_dice(state.war)
        if state.debts:
            debt = state.debts[0]
            if debt.selling is not None:
                return DiceRequest(
                    debt.network, 2, f"value of Special {debt.selling}, sold to pay a debt", "TV Wars 7, 3.3"
                )
            return None
        if state.auction is not None or state.entry is not None or state.landing is None:
            return None
        if state.landing.stage == "movie_roll":
            return DiceRequest(state.landing.network, 2, "Academy Award Movie price ($1,000 × roll)", "TV Wars 3.2")
        if state.landing.stage == "emmy_roll":
            return DiceRequest(state.landing.network, 2, "Emmy Awards roll (doubles win)", "TV Wars 5.2")
        return None

    def public_view(self, state: TvWarsState) -> TableView:
        """The public picture (TV Wars 9.1): cash, programming half-hours (the track), badges for Best
        Network News, the Preemption and Super Bowl tiles, bonus tile counts, Technical Difficulties and
        being out; ``notes`` give each network's programming half-hours by type; the status says whose
        turn it is or what is pending (auction, entry, debt, landing). Never a rating or bonus value.
        Each player's ``headline`` is its cash and ``panel_lines`` its programming and bonus counts, as its
        OLED panel shows them (:mod:`companion.games.tv_wars.view`)."""
        players = []
        notes = []
        for n in state.networks:
            badges = ["Best Network News"] if n.name == state.best_network_news else []
            badges += [
                f"{count} {label}{'s' if count > 1 and label in ('Star', 'Emmy') else ''}"
                for label, count in n.holdings.bonus_counts().items()
            ]
            if n.name in state.technical_difficulties:
                badges.append("Technical Difficulties")
            if n.out:
                badges.append("Out")
            players.append(
                PlayerView(
                    n.name,
                    n.colour,
                    n.cash,
                    (n.half_hours,),
                    tuple(badges),
                    turn=state.playing and n.name == state.turn,
                    headline=_view.headline(n.cash),
                    panel_lines=_view.panel_lines(n.holdings, n.half_hours.value),
                )
            )
            if n.holdings.tracked:
                mix = ", ".join(f"{kind} {hh}" for kind, hh in n.holdings.programming_by_type().items())
                notes.append(
                    f"{n.name}: {len(n.holdings.programs)} programs, {n.holdings.half_hours} half-hours"
                    f"{' (' + mix + ')' if mix else ''}"
                )
        request = self.pending_dice(state)
        return TableView(INFO.title, tuple(players), request, self.status(state, request), state.finished, tuple(notes))

    def status(self, state: TvWarsState, request: DiceRequest | None = None) -> str:
        """The one status line of :meth:`public_view` (public facts only, 9.1)."""
        request = request if request is not None else self.pending_dice(state)
        if state.finished:
            return f"Game over: {state.end_reason}"
        if request is not None:
            return request.describe()
        if war_active(state.war):
            return _war.war_status(state.war)
        if state.auction is not None:
            return state.auction.status + " (TV Wars 4)"
        if state.entry is not None:
            return state.entry.status
        if state.debts:
            debt = state.debts[0]
            return (
                f"{debt.network} owes {format_dollars(debt.amount)}: it sells programs of its choice to the "
                f"bank (TV Wars 7)"
            )
        if state.landing is not None:
            return state.landing.status
        missing = [n.name for n in state.networks if not n.holdings.tracked]
        if missing and state.best_network_news is not None and len(missing) < len(state.networks):
            return (
                f"{state.best_network_news} holds Best Network News and starts (TV Wars 2.5); "
                f"still to select starting programming: {', '.join(missing)} (TV Wars 2.3)"
            )
        if state.playing:
            return f"{state.turn}'s turn: roll, move and say which space you land on"
        return f"{state.best_network_news} holds Best Network News and starts (TV Wars 2.5)"


_WAR_COMMANDS = (EnterLineUp, LockLineUp, RevealLineUps, PlacePreemption)
_PLAY_COMMANDS = (
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
    *_WAR_COMMANDS,
)

TV_WARS = TvWars()

__all__ = [
    "TV_WARS",
    "TvWars",
    "TvWarsState",
    "Network",
    "RollOff",
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
]
