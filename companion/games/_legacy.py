"""TRANSITIONAL: presents a game written to the old shape (``evolve(state, type, payload)``, ``view``,
``is_finished``) as a :class:`companion.game.Game`, while the four games move to the contract one by one.
Removed once every game meets the contract itself; nothing new may rely on it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.commands import Command, PlayerSeat
from companion.dice import DiceRequest
from companion.events import Event, EventCodec
from companion.game import GameInfo, LegalCommand, Outcome, PrivateView, Termination


class _RawCodec(EventCodec):
    def __init__(self) -> None:
        super().__init__(())

    def decode(self, event_type: str, payload: Mapping[str, Any]) -> Event:
        from companion.events import TABLE_KEYS, RawEvent

        return RawEvent(event_type, {k: v for k, v in payload.items() if k not in TABLE_KEYS})


class LegacyGame:
    def __init__(self, rules: Any, info: GameInfo) -> None:
        self._rules = rules
        self.info = info
        self.events: EventCodec = _RawCodec()
        self.safe_point_events = frozenset(getattr(rules, "safe_point_events", ()))
        self.state_version = int(getattr(rules, "state_version", 0))

    def __getattr__(self, name: str) -> Any:  # the game's own extras that its board uses (war_view, odds, ...)
        return getattr(self._rules, name)

    def new_game(self, players: Sequence[PlayerSeat], options: Mapping[str, Any]) -> Any:
        return self._rules.new_game(players, options)

    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        return self._rules.check_options(options)

    def decide(self, state: Any, command: Command) -> Sequence[Any]:
        return self._rules.decide(state, command)

    def evolve(self, state: Any, event: Event) -> Any:
        return self._rules.evolve(state, event.type, event.payload)

    def describe(self, event: Event) -> str:
        return self._rules.describe(event.type, event.payload)

    def public_view(self, state: Any) -> Any:
        return self._rules.view(state)

    def private_view(self, state: Any, seat: str) -> PrivateView:
        own = getattr(self._rules, "private_view", None)
        if own is None:
            return PrivateView(seat)
        view = own(state, seat)
        return PrivateView(seat, tuple(getattr(view, "programs", ())) + tuple(getattr(view, "bonuses", ())))

    def legal_commands(self, state: Any, seat: str) -> tuple[LegalCommand, ...]:
        return ()

    def pending_dice(self, state: Any) -> DiceRequest | None:
        return self._rules.pending_dice(state)

    def outcome(self, state: Any) -> Outcome | None:
        if not self._rules.is_finished(state):
            return None
        return Outcome(Termination.ENDED_BY_HAND, (), self.figures(state), "")

    def figures(self, state: Any) -> Mapping[str, Mapping[str, int | str]]:
        view = self._rules.view(state)
        return {
            p.name: {**({"balance": p.balance} if p.balance is not None else {}), **{t.name: t.value for t in p.tracks}}
            for p in view.players
        }

    def button_command(self, action: str, player: str, source: str = "button") -> Command:
        return self._rules.button_command(action, player, source)
