"""The state of a game of Pass the Remote: plain frozen data."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Viewer:
    """One viewer: ``name``, ``colour`` and banked ``points``."""

    name: str
    colour: str
    points: int = 0


@dataclass(frozen=True)
class RemoteState:
    """``viewers`` in seat order; ``holder``: who holds the remote (rule 2); ``turn_points`` not yet banked
    (rule 3); ``watching``: a die has been asked for; ``target`` points win (rule 5); ``winner`` once someone
    has won; ``ended``: the reason if the table ended the game by hand."""

    viewers: tuple[Viewer, ...]
    holder: str
    target: int = 15
    turn_points: int = 0
    watching: bool = False
    winner: str = ""
    ended: str = ""

    def viewer(self, name: str) -> Viewer:
        return next(v for v in self.viewers if v.name == name)

    def after(self, name: str) -> str:
        names = [v.name for v in self.viewers]
        return names[(names.index(name) + 1) % len(names)]
