"""Pass the Remote's own commands (dice answers and ending the game are the companion's shared ones)."""

from dataclasses import dataclass

from companion.commands import Command


@dataclass(frozen=True, kw_only=True)
class Watch(Command):
    """``viewer`` (who holds the remote) watches: one die is asked for (rule 3)."""

    viewer: str


@dataclass(frozen=True, kw_only=True)
class PassRemote(Command):
    """``viewer`` banks this turn's points and passes the remote (rule 4)."""

    viewer: str
