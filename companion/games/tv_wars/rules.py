"""The TV Wars rules object (:class:`companion.game.Game`): decide, evolve, describe, the views, legal commands and
outcome. The game's scope, rule by rule, is in the package's docstring (``companion/games/tv_wars/__init__.py``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from companion.checks import is_whole
from companion.commands import (
    BANK,
    END_REASON_LIMIT,
    AdjustTrack,
    AnswerDice,
    Command,
    EndGame,
    PlayerSeat,
    RollDice,
    TransferMoney,
    end_reason,
    end_words,
)
from companion.dice import DiceRequest, RollOff, check_answer, roll_payload
from companion.errors import TABLE_RULE, BadOption, GameFinished, IllegalCommand, MalformedCommand
from companion.events import Event, EventCodec
from companion.game import LegalCommand, Outcome, Termination
from companion.game import PrivateView as SeatPrivateView
from companion.games import PlayerView, TableView
from companion.games.tv_wars import auction as _auction
from companion.games.tv_wars import bankruptcy as _bankruptcy
from companion.games.tv_wars import spaces as _spaces
from companion.games.tv_wars import view as _view
from companion.games.tv_wars import war_at_table as _war
from companion.games.tv_wars.auction import (
    AuctionEvent,
    Bid,
    PassBid,
)
from companion.games.tv_wars.bank import Movement, apply_movement, check_movement, format_dollars
from companion.games.tv_wars.bankruptcy import FinalCount, GameResult, SellProgram
from companion.games.tv_wars.commands import PLAY_COMMANDS, WAR_COMMANDS, LandOnSponsor, PassOnTheAir
from companion.games.tv_wars.events import (
    EVENT_CLASSES,
    AssetsCountStarted,
    AuctionClosed,
    AuctionOpened,
    BestNetworkNewsAwarded,
    BestNetworkNewsPassed,
    BonusAcquired,
    DebtIncurred,
    DebtWrittenOff,
    DiceRolled,
    GameEnded,
    Landed,
    LandingDone,
    LandingStage,
    MoneyMoved,
    NetworkOut,
    OnTheAirPassed,
    ProgramAcquired,
    ProgramSold,
    RatingsWarCalled,
    RatingsWarEnded,
    RollOffTied,
    SaleStarted,
    SpecialValued,
    StartingProgramming,
    TileEntryOpened,
    TrackChanged,
    TurnPassed,
    TvWarsEvent,
)
from companion.games.tv_wars.holdings import (
    HOLDINGS_EVENT_CLASSES,
    Holdings,
    HoldingsEvent,
    HoldingsView,
    apply_holdings_event,
    describe_holdings_event,
    private_view_of,
)
from companion.games.tv_wars.info import INFO
from companion.games.tv_wars.ratings_war import HouseRules
from companion.games.tv_wars.setup import (
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
    LandOn,
    Nominate,
    Steal,
    TileEntry,
)
from companion.games.tv_wars.state import (
    STARTING_HALF_HOURS,
    Network,
    TvWarsState,
    _evolved,
    _half_hours_track,
    _with_holdings,
)
from companion.games.tv_wars.war_at_table import (
    LockLineUp,
    war_active,
)
from companion.tracks import Track

DICE_ROLLED = "dice_rolled"
ROLL_OFF_TIED = "roll_off_tied"
BEST_NETWORK_NEWS_AWARDED = "best_network_news_awarded"
GAME_ENDED = "game_ended"
ON_THE_AIR_PASSED = "on_the_air_passed"


def _track_changed(network: str, before: Track, after: Track, reason: str) -> TrackChanged:
    """The ``track_changed`` event for ``network``'s hand-kept programming going from ``before`` to ``after``."""
    return TrackChanged(network, after.name, after.value, after.value - before.value, reason)


def button_phase(state: TvWarsState) -> str:
    """Which meaning the seat buttons have now: ``"auction"`` (an auction runs and the roll-off is over: 4),
    ``"line-ups"`` (a Ratings War's line-ups are being entered: 6) or ``"move"`` (9.4, 9.5)."""
    if state.roll_off is None and state.auction is not None:
        return "auction"
    if war_active(state.war) and state.war.phase == "line-ups":
        return "line-ups"
    return "move"


def _seat_button_meaning(state: TvWarsState, command: PassOnTheAir | LandOnSponsor) -> Command:
    """``command`` as the seat buttons mean it now (:func:`button_phase`, :meth:`TvWars.button_meanings`),
    whatever sent it: during an auction On the Air bids the lowest bid and Sponsor passes (4: no token moves
    during an auction); during the line-ups Sponsor locks the line-up in (6)."""
    phase = button_phase(state)
    if phase == "auction":
        assert state.auction is not None
        if isinstance(command, PassOnTheAir):
            return Bid(network=command.network, amount=state.auction.minimum, source=command.source)
        return PassBid(network=command.network, source=command.source)
    if phase == "line-ups" and isinstance(command, LandOnSponsor):
        return LockLineUp(network=command.network, source=command.source)
    return command


class TvWars:
    """The TV Wars rules, meeting :class:`companion.game.Game`. Registered as ``"tv-wars"`` (:data:`INFO`)."""

    info = INFO
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
        per_length = options["situation_comedies_per_length"]
        if options["roll_off"]:
            return TvWarsState(
                networks,
                None,
                RollOff(tuple(names)),
                house_rules=house_rules,
                situation_comedies_per_length=per_length,
            )
        return TvWarsState(
            networks, names[0], None, turn=names[0], house_rules=house_rules, situation_comedies_per_length=per_length
        )

    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Return the house-rule options (:attr:`GameInfo.options <companion.game.GameInfo.options>`) with
        their defaults filled in: ``roll_off`` (bool, default True, 2.5), ``starting_cash`` (whole dollars
        ≥ 0, default 31,000, rule 2.4), ``counter_programming_four`` (-30 default or -20: four networks of
        one colour in a slot, 6.5, see docs/rulings.md) and ``situation_comedies_per_length`` (bool, default
        False: 2.3's five Situation Comedies in all; True: five of each length, see docs/rulings.md). Raises
        :class:`BadOption` for an unknown option or a wrong value."""
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
        if not isinstance(checked["situation_comedies_per_length"], bool):
            raise BadOption(
                "situation_comedies_per_length",
                f"must be true or false (TV Wars 2.3), not {checked['situation_comedies_per_length']!r}",
            )
        return checked

    # -- decide: command -> events --------------------------------------------------------------------
    def decide(self, state: TvWarsState, command: Command) -> list[TvWarsEvent]:
        """Return the events ``command`` causes in ``state``, or raise a ``CommandError`` citing the rule."""
        if state.finished:
            raise GameFinished(f"the game has ended ({state.end_reason}); undo to reopen it", TABLE_RULE)
        if isinstance(command, (PassOnTheAir, LandOnSponsor)) and state.roll_off is not None:
            raise IllegalCommand(
                "nobody moves until the Best Network News roll-off has decided who starts", "TV Wars 2.5"
            )
        if isinstance(command, (PassOnTheAir, LandOnSponsor)):
            # the same meaning from a seat button, its on-screen twin or a phone (button_meanings)
            command = _seat_button_meaning(state, command)
        if isinstance(command, PLAY_COMMANDS) or (state.playing and isinstance(command, LandOnSponsor)):
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
                OnTheAirPassed.from_payload({"network": network.name}),
            ]
        if isinstance(command, LandOnSponsor):
            return self._sponsor(state, command)
        if isinstance(command, TransferMoney):
            return self._transfer(state, command)
        if isinstance(command, AdjustTrack):
            network = state.network(command.player)
            if network.holdings.tracked:
                raise IllegalCommand(f"{network.name}'s programming is counted from its Program tiles", "TV Wars 9.4")
            if command.track != "half_hours":
                raise MalformedCommand(f"TV Wars networks have no track {command.track!r}; only half_hours")
            if not isinstance(command.reason, str) or len(command.reason) > END_REASON_LIMIT:
                raise MalformedCommand(f"a correction's reason is text of at most {END_REASON_LIMIT} characters")
            after = network.half_hours.moved_by(command.delta)
            return [_track_changed(network.name, network.half_hours, after, command.reason or "corrected by hand")]
        if isinstance(command, AnswerDice):
            if state.roll_off is None:
                return self._play(state, command)
            return self._roll_off(state, state.roll_off, command)
        if isinstance(command, EndGame):
            return [GameEnded.from_payload({"reason": end_reason(command)})]
        raise MalformedCommand(f"TV Wars has no command {type(command).__name__}")

    def _transfer(self, state: TvWarsState, command: TransferMoney) -> list[TvWarsEvent]:
        """The shared free-form :class:`TransferMoney`. Before full play the table keeps the game by hand and
        any transfer goes. In full play the engine makes every movement the rules cause, so a free one is a
        hand correction (the Banker's, 2.4) and is marked as one; between two networks it is refused unless
        flagged ``correction``: "nor may loans be made" (4) and money between networks moves only through
        the rules' effects (Bulletin pay/collect each 9.6, debts 7)."""
        if not isinstance(command.correction, bool):
            raise MalformedCommand(f"correction is true or false, not {command.correction!r}")
        reason = command.reason.strip() if isinstance(command.reason, str) else command.reason
        movement = check_movement(state.balances, Movement(command.payer, command.payee, command.amount, reason))
        between_networks = BANK not in (movement.payer, movement.payee)
        if state.playing and between_networks and not command.correction:
            raise IllegalCommand(
                f"{movement.payer} cannot pay {movement.payee} by hand: no loans, and money between networks "
                f"moves only through the rules (Bulletin pay/collect, debts); a miscount is put right as a "
                f"correction",
                "TV Wars 4",
            )
        event = movement.to_event()
        if command.correction or state.playing:
            event = replace(event, correction=True)
        return [event]

    def _sponsor(self, state: TvWarsState, command: LandOnSponsor) -> list[TvWarsEvent]:
        network = state.network(command.network)
        events: list[TvWarsEvent] = []
        track = network.half_hours
        if command.half_hours is not None:
            if not is_whole(command.half_hours):
                raise MalformedCommand(f"half-hours are a whole number, not {command.half_hours!r}")
        if command.half_hours is not None and command.half_hours != track.value:
            after = track.set_to(command.half_hours)
            events.append(_track_changed(network.name, track, after, "counted on landing on Sponsor"))
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

    def _roll_off(self, state: TvWarsState, roll_off: RollOff, command: AnswerDice) -> list[TvWarsEvent]:
        """The events of a Best Network News roll-off roll (2.5); ``roll_off`` is ``state.roll_off``."""
        request = self.pending_dice(state)
        values = check_answer(request, command.roller, command.values, command.source)
        assert request is not None, "check_answer refuses dice that nobody asked for"
        events: list[TvWarsEvent] = [
            DiceRolled.from_payload(roll_payload(request, command.roller, values, command.source))
        ]
        settled = roll_off.with_roll(command.roller, sum(values)).leaders()
        if settled is not None:
            leaders, best = settled
            if len(leaders) == 1:
                events.append(BestNetworkNewsAwarded.from_payload({"network": leaders[0], "total": best}))
            else:
                events.append(RollOffTied.from_payload({"networks": leaders, "total": best}))
        return events

    # -- evolve: event -> state -------------------------------------------------------------------------
    def evolve(self, state: TvWarsState, event: Event) -> TvWarsState:
        """Fold one event into the state (pure; events were checked when they were decided). One mechanism:
        the fold for the event's class (:data:`_FOLDS`); raises ``ValueError`` for an event of another game."""
        fold = _FOLDS.get(type(event))
        if fold is None:
            raise ValueError(f"TV Wars cannot apply an event of type {event.type!r}")
        return fold(state, event)

    # -- full play: turns, spaces, auctions, debts, the end ---------------------------------------------------
    def _play(self, state: TvWarsState, command: Command) -> list[TvWarsEvent]:
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
        closed = next((e for e in events if isinstance(e, AuctionClosed)), None)
        if closed is not None:
            opened = next((e for e in events if isinstance(e, AuctionOpened)), None)
            more = _spaces.after_auction(
                after, closed, _auction.auction_from_event(opened) if opened is not None else state.auction
            )
            events += more
            for event in more:
                after = self.evolve(after, event)
        outs = tuple(e.network for e in events if isinstance(e, NetworkOut))
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
            events.append(TurnPassed.from_payload({"network": self._next_turn(after, mover)}))
        return events

    def _war_hook(self, after: TvWarsState, events: list[TvWarsEvent]) -> tuple[list[TvWarsEvent], TvWarsState]:
        """Start the Ratings War a landing called (6, 9.8); when a war ends, finish the landing and open
        the Super Bowl's auction if it was played (9.8). Returns all the events and the state after them."""
        more: list[TvWarsEvent] = []

        def add(new: list[TvWarsEvent]) -> None:
            nonlocal after
            for event in new:
                after = self.evolve(after, event)
                more.append(event)

        called = next((e for e in events if isinstance(e, RatingsWarCalled)), None)
        if called is not None:
            add(
                _war.start_war(
                    called.network,
                    called.february_sweeps,
                    {n.name: n.holdings for n in after.networks},
                    out=[n.name for n in after.networks if n.out],
                    best_network_news=after.best_network_news,
                    house_rules=after.house_rules,
                )
            )
        ended = next((e for e in events + more if isinstance(e, RatingsWarEnded)), None)
        if ended is not None:
            war = after.war
            assert war is not None, "a Ratings War that has ended stays on the state (6)"
            add(
                [
                    LandingDone.from_payload(
                        {"network": war.landed_by, "outcome": war.summary, "rule": "TV Wars 6"},
                    )
                ]
            )
            if ended.super_bowl_auction:
                add(
                    _auction.open_auction(
                        after,
                        "super_bowl",
                        None,
                        None,
                        last_owner=ended.super_bowl_auction,
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

    def _play_step(self, state: TvWarsState, command: Command) -> list[TvWarsEvent]:
        if war_active(state.war) and isinstance(command, (*WAR_COMMANDS, AnswerDice)):
            return _war.decide_war(
                state.war, {n.name: n.holdings for n in state.networks}, command, balances=state.balances
            )
        if isinstance(command, WAR_COMMANDS):
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
        if isinstance(command, AnswerDice):
            return self._play_dice(state, command)
        decide = _PLAY_STEPS.get(type(command))
        if decide is None:
            raise MalformedCommand(f"TV Wars has no command {type(command).__name__}")
        return decide(state, command)

    def _play_dice(self, state: TvWarsState, command: AnswerDice) -> list[TvWarsEvent]:
        request = self.pending_dice(state)
        values = check_answer(request, command.roller, command.values, command.source)
        assert request is not None, "check_answer refuses dice that nobody asked for"
        events: list[TvWarsEvent] = [
            DiceRolled.from_payload(roll_payload(request, command.roller, values, command.source))
        ]
        rp = 10 * sum(values)
        if state.final_count is not None:
            network, tile_id = state.final_count.special_to_roll
            events.append(SpecialValued.from_payload({"network": network, "tile_id": tile_id, "value": rp}))
            count = replace(state.final_count, values=state.final_count.values + ((network, tile_id, rp),))
            if count.next_special is None:
                events.append(
                    _bankruptcy.game_ended(state, count.reason, count.rule, {(n, t): v for n, t, v in count.values})
                )
            return events
        debt = state.debts[0] if state.debts else None
        if debt is not None and debt.selling is not None:
            tile = state.network(debt.network).holdings.program(debt.selling)
            value, breakdown = _bankruptcy.sale_value(tile, rp)
            return events + _bankruptcy.sell(state, debt, tile, value, f"{breakdown} (Special rolled {rp} RP)")
        return events + _spaces.landing_dice(state, values)

    # -- views ------------------------------------------------------------------------------------------
    def describe(self, event: Event) -> str:
        """One readable line per event, e.g. ``"Bank pays ABS $3,000: passed On the Air (TV Wars 9.5)"``; the
        describer for the event's class (:data:`_DESCRIBERS`). Public facts only (9.1)."""
        describer = _DESCRIBERS.get(type(event))
        return describer(event) if describer is not None else f"{event.type} {event.payload}"

    #: The game's event types (journal type names), read back by :meth:`evolve` and :meth:`describe`.
    events = EventCodec(EVENT_CLASSES)

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

    def button_meanings(self, state: TvWarsState) -> dict[str, str]:
        """What each seat button (its ``action``) means now, as its label on the cards and the key help: the
        one place that :meth:`decide` reads the same way (see :func:`button_phase`). During an auction nobody
        moves (4): On the Air bids the lowest bid ("Bid $2,500"), Sponsor passes; during the line-ups (6)
        Sponsor locks the line-up in; otherwise On the Air (9.5) and Sponsor (9.4)."""
        phase = button_phase(state)
        if phase == "auction":
            assert state.auction is not None
            return {"on_the_air": f"Bid ${state.auction.minimum:,}", "sponsor": "Pass", "roll": "Roll"}
        if phase == "line-ups":
            return {"on_the_air": "On the Air", "sponsor": "Lock in", "roll": "Roll"}
        return {"on_the_air": "On the Air", "sponsor": "Sponsor", "roll": "Roll"}

    def pending_dice(self, state: TvWarsState) -> DiceRequest | None:
        """The Best Network News roll-off roll still owed (TV Wars 2.5), or ``None``."""
        if state.finished:
            return None
        if state.roll_off is None:
            return self._play_dice_request(state)
        roller = state.roll_off.next_roller
        assert roller is not None, "a roll-off settles as its last contender rolls (2.5)"
        reason = "Best Network News roll-off" + (
            f", re-roll {state.roll_off.round - 1}" if state.roll_off.round > 1 else ""
        )
        return DiceRequest(roller, 2, reason, "TV Wars 2.5")

    def outcome(self, state: TvWarsState) -> Outcome | None:
        """How the game came out, or ``None`` while it is played. The ``game_ended`` event says how: ended at
        the table (:class:`EndGame`, no winner); the last network with programming (TV Wars 1, 3: last
        standing); every remaining network losing its last programs in one war (10: the most money wins, all
        lost together; equal money is a draw); or the asset count (8, for 3.11 and 5.32: cash plus programs,
        the most money wins; equal totals are a draw). ``ranking`` is by those totals, best first; ``scores``
        are the totals."""
        if not state.finished:
            return None
        ended = state.final_count.result if state.final_count is not None else None
        figures = self.figures(state)
        if ended is None:
            return Outcome(Termination.ENDED_BY_HAND, (), figures, f"Ended at the table{end_words(state.end_reason)}")
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
        return Outcome(termination, winners, figures, reason, ranking, totals)

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
            network, tile_id = state.final_count.special_to_roll
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
                    panel_badge=_view.BNN_BADGE if n.name == state.best_network_news else "",
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


# -- evolve: one fold per event class --------------------------------------------------------------------


def _fold_money(state: TvWarsState, event: MoneyMoved) -> TvWarsState:
    # The commonest event: only the networks that change are rebuilt, the rest are shared.
    balances = apply_movement(state.balances, Movement.from_event(event))
    return _evolved(
        state,
        networks=tuple(n if n.cash == balances[n.name] else _evolved(n, cash=balances[n.name]) for n in state.networks),
    )


def _fold_track(state: TvWarsState, event: TrackChanged) -> TvWarsState:
    return _evolved(
        state,
        networks=tuple(
            _evolved(n, half_hours=_half_hours_track(event.value)) if n.name == event.player else n
            for n in state.networks
        ),
    )


def _fold_dice(state: TvWarsState, event: DiceRolled) -> TvWarsState:
    if state.roll_off is None:
        return state
    return replace(state, roll_off=state.roll_off.with_roll(event.roller, sum(event.values)))


def _fold_tie(state: TvWarsState, event: RollOffTied) -> TvWarsState:
    assert state.roll_off is not None, "a roll-off tie with no roll-off"
    return replace(state, roll_off=state.roll_off.reroll(event.networks))


def _fold_best_network_news(state: TvWarsState, event: BestNetworkNewsAwarded) -> TvWarsState:
    return replace(state, roll_off=None, best_network_news=event.network, turn=event.network)


def _fold_on_the_air(state: TvWarsState, event: OnTheAirPassed) -> TvWarsState:
    return replace(state, passed_on_the_air=True)


def _fold_game_ended(state: TvWarsState, event: GameEnded) -> TvWarsState:
    result = None
    if event.assets is not None:
        totals = tuple((name, asset["total"]) for name, asset in event.assets.items())
        result = GameResult(event.reason, event.rule, tuple(event.winners), event.draw, totals)
    return replace(
        state,
        finished=True,
        end_reason=event.reason,
        final_count=None if result is None else FinalCount(result.reason, result.rule, (), (), result),
        landing=None,
        auction=None,
        entry=None,
        debts=(),
    )


def _fold_war(state: TvWarsState, event: _war.WarEvent) -> TvWarsState:
    return replace(state, war=_war.evolve_war(state.war, event))


def _fold_starting(state: TvWarsState, event: StartingProgramming) -> TvWarsState:
    holdings = {n.name: n.holdings for n in state.networks}
    supply = state.supply
    holdings[event.network] = Holdings(tracked=True)
    for tile in event.tiles:
        holdings, supply = apply_holdings_event(holdings, supply, ProgramAcquired(event.network, tile, "", ""))
    return replace(
        state, supply=supply, networks=tuple(_with_holdings(n, holdings[n.name], n.out) for n in state.networks)
    )


def _fold_holdings(state: TvWarsState, event: HoldingsEvent) -> TvWarsState:
    holdings, supply = apply_holdings_event({n.name: n.holdings for n in state.networks}, state.supply, event)
    out = {event.network} if isinstance(event, NetworkOut) else set()
    entry = state.entry
    if isinstance(event, (ProgramAcquired, BonusAcquired)) and entry is not None and entry.network == event.network:
        entry = None
    debts = _bankruptcy.evolve_debts(state.debts, event) if isinstance(event, NetworkOut) else state.debts
    return replace(
        state,
        supply=supply,
        entry=entry,
        debts=debts,
        networks=tuple(_with_holdings(n, holdings[n.name], n.out or n.name in out) for n in state.networks),
        technical_difficulties=tuple(t for t in state.technical_difficulties if t not in out),
    )


def _fold_auction(state: TvWarsState, event: AuctionEvent) -> TvWarsState:
    return replace(state, auction=_auction.evolve_auction(state.auction, event))


def _fold_turn(state: TvWarsState, event: TurnPassed) -> TvWarsState:
    return replace(state, turn=event.network, passed_on_the_air=False)


def _fold_entry(state: TvWarsState, event: TileEntryOpened) -> TvWarsState:
    entry = TileEntry(event.network, event.lot, event.length, event.colour, event.reason, event.rule)
    return replace(state, entry=entry)


def _fold_bnn_passed(state: TvWarsState, event: BestNetworkNewsPassed) -> TvWarsState:
    return replace(state, best_network_news=event.network)


def _fold_war_called(state: TvWarsState, event: RatingsWarCalled) -> TvWarsState:
    return replace(state, war_called=(event.network, event.february_sweeps))


def _fold_landing(state: TvWarsState, event: Landed | LandingStage | LandingDone) -> TvWarsState:
    if isinstance(event, Landed):
        td = tuple(t for t in state.technical_difficulties if t != event.network)
        if event.space == "technical_difficulties":
            td += (event.network,)
        state = replace(state, technical_difficulties=td)
    return replace(state, landing=_spaces.evolve_landing(state.landing, event))


def _fold_count_started(state: TvWarsState, event: AssetsCountStarted) -> TvWarsState:
    specials = tuple((network, tile_id) for network, tile_id in event.specials)
    return replace(state, final_count=FinalCount(event.reason, event.rule, specials))


def _fold_special_valued(state: TvWarsState, event: SpecialValued) -> TvWarsState:
    count = state.final_count
    assert count is not None, "a Special valued with no asset count"
    return replace(
        state, final_count=replace(count, values=count.values + ((event.network, event.tile_id, event.value),))
    )


def _fold_debts(state: TvWarsState, event: DebtIncurred | SaleStarted | ProgramSold | DebtWrittenOff) -> TvWarsState:
    return replace(state, debts=_bankruptcy.evolve_debts(state.debts, event))


_FOLDS: dict[type[Event], Callable[[TvWarsState, Any], TvWarsState]] = {
    MoneyMoved: _fold_money,
    TrackChanged: _fold_track,
    DiceRolled: _fold_dice,
    RollOffTied: _fold_tie,
    BestNetworkNewsAwarded: _fold_best_network_news,
    OnTheAirPassed: _fold_on_the_air,
    GameEnded: _fold_game_ended,
    StartingProgramming: _fold_starting,
    **{cls: _fold_holdings for cls in HOLDINGS_EVENT_CLASSES},
    **{cls: _fold_war for cls in _war.WAR_EVENT_CLASSES},
    **{cls: _fold_auction for cls in _auction.AUCTION_EVENT_CLASSES},
    TurnPassed: _fold_turn,
    TileEntryOpened: _fold_entry,
    BestNetworkNewsPassed: _fold_bnn_passed,
    RatingsWarCalled: _fold_war_called,
    Landed: _fold_landing,
    LandingStage: _fold_landing,
    LandingDone: _fold_landing,
    AssetsCountStarted: _fold_count_started,
    SpecialValued: _fold_special_valued,
    DebtIncurred: _fold_debts,
    SaleStarted: _fold_debts,
    ProgramSold: _fold_debts,
    DebtWrittenOff: _fold_debts,
}


# -- describe: one line per event class ---------------------------------------------------------------------


def _describe_money(event: MoneyMoved) -> str:
    payer = "Bank" if event.payer == BANK else event.payer
    payee = "the bank" if event.payee == BANK else event.payee
    rule = f" ({event.rule})" if event.rule else ""
    marked = "Correction by hand: " if event.correction else ""
    return f"{marked}{payer} pays {payee} {format_dollars(event.amount)}: {event.reason}{rule}"


def _describe_track(event: TrackChanged) -> str:
    return f"{event.player} programming from {event.value - event.delta} to {event.value} half-hours ({event.reason})"


def _describe_dice(event: DiceRolled) -> str:
    shown = "+".join(map(str, event.values)) + (f" = {sum(event.values)}" if len(event.values) > 1 else "")
    return f"{event.roller} rolled {shown} ({event.source}) for the {event.reason}"


def _describe_tie(event: RollOffTied) -> str:
    return f"{' and '.join(event.networks)} tied on {event.total}: they roll again (TV Wars 2.5, see docs/rulings.md)"


def _describe_best_network_news(event: BestNetworkNewsAwarded) -> str:
    return f"{event.network} rolled highest ({event.total}): takes Best Network News and starts (TV Wars 2.5)"


def _describe_on_the_air(event: OnTheAirPassed) -> str:
    return f"{event.network}'s token passed On the Air this turn (TV Wars 9.5)"


_DESCRIBERS: dict[type[Event], Callable[[Any], str]] = {
    MoneyMoved: _describe_money,
    TrackChanged: _describe_track,
    DiceRolled: _describe_dice,
    RollOffTied: _describe_tie,
    BestNetworkNewsAwarded: _describe_best_network_news,
    OnTheAirPassed: _describe_on_the_air,
    GameEnded: _bankruptcy.describe_game_ended,
    StartingProgramming: describe_selection,
    **{cls: describe_holdings_event for cls in HOLDINGS_EVENT_CLASSES},
    **{cls: _war.describe_war_event for cls in _war.WAR_EVENT_CLASSES},
    **{cls: _auction.describe_auction_event for cls in _auction.AUCTION_EVENT_CLASSES},
    **{cls: _spaces.describe_space_event for cls in _spaces.SPACE_EVENT_CLASSES},
    **{cls: _bankruptcy.describe_bankruptcy_event for cls in _bankruptcy.BANKRUPTCY_EVENT_CLASSES},
}

#: The play commands decided by one rule part each (the table the other games dispatch by as well).
_PLAY_STEPS: dict[type, Callable[[TvWarsState, Any], list[TvWarsEvent]]] = {
    Bid: _auction.decide_bid,
    PassBid: _auction.decide_bid,
    Nominate: _spaces.decide_nominate,
    Decline: _spaces.decide_decline,
    BuyMovie: _spaces.decide_buy_movie,
    EnterTileValue: _spaces.decide_tile_entry,
    Steal: _spaces.decide_steal,
    GiveUp: _spaces.decide_give_up,
    Bulletin: _spaces.decide_bulletin,
    SellProgram: _bankruptcy.decide_sale,
}

TV_WARS = TvWars()

__all__ = ["TV_WARS", "TvWars"]  # the commands, state and events are in their own modules (the package finds them)
