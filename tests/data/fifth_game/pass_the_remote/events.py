"""Pass the Remote's events: one frozen dataclass per journal type."""

from dataclasses import dataclass

from companion.events import Event, EventCodec


@dataclass(frozen=True)
class WatchStarted(Event):
    """``viewer`` asked for the die (rule 3)."""

    TYPE = "watch_started"
    viewer: str


@dataclass(frozen=True)
class DieWatched(Event):
    """``viewer`` rolled ``value``; a 1 flops the show (rule 3)."""

    TYPE = "die_watched"
    viewer: str
    value: int


@dataclass(frozen=True)
class RemotePassed(Event):
    """``viewer`` banked ``banked`` points and handed the remote to ``to`` (rule 4)."""

    TYPE = "remote_passed"
    viewer: str
    banked: int
    to: str


@dataclass(frozen=True)
class GameWon(Event):
    """``viewer`` reached the target with ``points`` (rule 5)."""

    TYPE = "game_won"
    viewer: str
    points: int


@dataclass(frozen=True)
class GameEnded(Event):
    """The table ended the game by hand, for ``reason``."""

    TYPE = "game_ended"
    reason: str


CODEC = EventCodec([WatchStarted, DieWatched, RemotePassed, GameWon, GameEnded])
