"""Pass the Remote's rules engine (rule numbers from RULES.md): pure decide/evolve on frozen data."""

from collections.abc import Mapping, Sequence
from typing import Any

from companion.commands import AnswerDice, Command, EndGame, PlayerSeat
from companion.dice import DiceRequest, check_answer
from companion.errors import BadOption, IllegalCommand, MalformedCommand
from companion.events import Event
from companion.game import LegalCommand, Outcome, PrivateView, Termination
from companion.games import TableView
from pass_the_remote import view
from pass_the_remote.commands import PassRemote, Watch
from pass_the_remote.events import CODEC, DieWatched, GameEnded, GameWon, RemotePassed, WatchStarted
from pass_the_remote.info import INFO
from pass_the_remote.state import RemoteState, Viewer


class PassTheRemote:
    """The rules object the registry finds (``INFO.rules``)."""

    info = INFO
    events = CODEC
    safe_point_events = frozenset({GameWon.TYPE, GameEnded.TYPE})
    state_version = 1

    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        unknown = set(options) - {o.name for o in INFO.options}
        if unknown:
            name = sorted(unknown)[0]
            raise BadOption(name, "Pass the Remote has no such house rule")
        target = options.get("target", 15)
        if type(target) is not int or not 5 <= target <= 100:
            raise BadOption("target", f"the target is a whole number of points from 5 to 100, not {target!r}")
        return {"target": target}

    def new_game(self, players: Sequence[PlayerSeat], options: Mapping[str, Any]) -> RemoteState:
        if not INFO.min_players <= len(players) <= INFO.max_players:
            raise IllegalCommand(f"Pass the Remote is for 2 to 4 viewers, not {len(players)}", "rule 1")
        target = self.check_options(options)["target"]
        return RemoteState(tuple(Viewer(p.name, p.colour) for p in players), players[0].name, target)

    def decide(self, state: RemoteState, command: Command) -> list[Event]:
        if isinstance(command, EndGame):
            return [GameEnded(command.reason)]
        if state.winner or state.ended:
            raise IllegalCommand("the game is over", "rule 5")
        if isinstance(command, AnswerDice):
            request = self.pending_dice(state)
            (value,) = check_answer(request, command.roller, command.values, command.source)
            return [DieWatched(command.roller, value)]
        if isinstance(command, Watch | PassRemote):
            self._check_holder(state, command.viewer)
            if state.watching:
                raise IllegalCommand(f"{state.holder} rolls the die first", "rule 3")
            if isinstance(command, Watch):
                return [WatchStarted(command.viewer)]
            banked = state.viewer(command.viewer).points + state.turn_points
            passed: list[Event] = [RemotePassed(command.viewer, state.turn_points, state.after(command.viewer))]
            return passed + [GameWon(command.viewer, banked)] if banked >= state.target else passed
        raise MalformedCommand(f"Pass the Remote has no command {type(command).__name__}")

    @staticmethod
    def _check_holder(state: RemoteState, viewer: str) -> None:
        if viewer not in {v.name for v in state.viewers}:
            raise MalformedCommand(f"no viewer called {viewer!r}")
        if viewer != state.holder:
            raise IllegalCommand(f"{state.holder} holds the remote, not {viewer}", "rule 2")

    def evolve(self, state: RemoteState, event: Event) -> RemoteState:
        from dataclasses import replace

        match event:
            case WatchStarted():
                return replace(state, watching=True)
            case DieWatched(viewer=viewer, value=1):
                return replace(state, watching=False, turn_points=0, holder=state.after(viewer))
            case DieWatched(value=value):
                return replace(state, watching=False, turn_points=state.turn_points + value)
            case RemotePassed(viewer=viewer, banked=banked, to=to):
                viewers = tuple(replace(v, points=v.points + banked) if v.name == viewer else v for v in state.viewers)
                return replace(state, viewers=viewers, turn_points=0, holder=to)
            case GameWon(viewer=viewer):
                return replace(state, winner=viewer)
            case GameEnded(reason=reason):
                return replace(state, ended=reason)
        raise MalformedCommand(f"Pass the Remote has no event {event.type}")

    def describe(self, event: Event) -> str:
        match event:
            case WatchStarted(viewer=viewer):
                return f"{viewer} watches (rule 3)"
            case DieWatched(viewer=viewer, value=1):
                return f"{viewer} rolls 1: the show flops, this turn's points are lost (rule 3)"
            case DieWatched(viewer=viewer, value=value):
                return f"{viewer} rolls {value} (rule 3)"
            case RemotePassed(viewer=viewer, banked=banked, to=to):
                return f"{viewer} banks {banked} and passes the remote to {to} (rule 4)"
            case GameWon(viewer=viewer, points=points):
                return f"{viewer} wins with {points} points (rule 5)"
            case GameEnded(reason=reason):
                return f"Game ended: {reason}"
        return event.type

    def public_view(self, state: RemoteState) -> TableView:
        return view.public_view(state, INFO.title)

    def private_view(self, state: RemoteState, seat: str) -> PrivateView:
        return PrivateView(seat, (f"{state.viewer(seat).points} points",))  # nothing is secret

    def legal_commands(self, state: RemoteState, seat: str) -> tuple[LegalCommand, ...]:
        over = "the game is over (rule 5)" if state.winner or state.ended else ""
        why = over or (
            f"{state.holder} holds the remote"
            if seat != state.holder
            else "roll the die first"
            if state.watching
            else ""
        )
        rule = "rule 5" if over else "rule 2" if seat != state.holder else "rule 3"
        return (
            LegalCommand("Watch", "Watch", Watch(viewer=seat), not why, why, rule if why else ""),
            LegalCommand("PassRemote", "Pass", PassRemote(viewer=seat), not why, why, rule if why else ""),
        )

    def pending_dice(self, state: RemoteState) -> DiceRequest | None:
        if not state.watching:
            return None
        return DiceRequest(state.holder, 1, "Watch: a 1 flops the show", "rule 3")

    def outcome(self, state: RemoteState) -> Outcome | None:
        ranking = tuple(v.name for v in sorted(state.viewers, key=lambda v: -v.points))
        if state.winner:
            points = state.viewer(state.winner).points
            reason = f"{state.winner} reached {points} points (rule 5)"
            return Outcome(Termination.WON, (state.winner,), self.figures(state), reason, ranking)
        if state.ended:
            return Outcome(Termination.ENDED_BY_HAND, (), self.figures(state), state.ended, ranking)
        return None

    def figures(self, state: RemoteState) -> dict[str, dict[str, int | str]]:
        return {
            v.name: {"points": v.points, "this turn": state.turn_points if v.name == state.holder else 0}
            for v in state.viewers
        }

    def button_command(self, action: str, player: str, source: str = "button") -> Command:
        if action == "watch":
            return Watch(viewer=player, source=source)
        if action == "pass":
            return PassRemote(viewer=player, source=source)
        if action == "roll":
            from companion.commands import RollDice

            return RollDice(roller=player, source=source)
        raise MalformedCommand(f"Pass the Remote has no button action {action!r}; actions: watch, pass, roll")


PASS_THE_REMOTE = PassTheRemote()
