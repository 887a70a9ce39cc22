"""Per-player tracks: a named integer with bounds (rating, vitality, score, viewers, half-hours).

Games keep tracks in their state; a change is a journaled ``track_changed`` event.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.checks import is_whole
from companion.errors import IllegalCommand, MalformedCommand
from companion.events import NewEvent

TRACK_CHANGED = "track_changed"


@dataclass(frozen=True)
class Track:
    """A bounded integer: ``name`` (snake_case id), ``label`` (shown on screen), ``value``, and inclusive
    bounds ``minimum`` and ``maximum`` (``None`` = unbounded). ``rule`` cites where the bounds come from."""

    name: str
    label: str
    value: int
    minimum: int | None = 0
    maximum: int | None = None
    rule: str = ""

    def moved_by(self, delta: int) -> Track:
        """Return this track moved by ``delta``.

        Raises :class:`MalformedCommand` if ``delta`` is not an int, and :class:`IllegalCommand` (citing
        ``rule``) if the result would leave the bounds.
        """
        if not is_whole(delta):
            raise MalformedCommand(f"a track moves by a whole number, not {delta!r}")
        return self.set_to(self.value + delta)

    def set_to(self, value: int) -> Track:
        """Return this track at ``value``; raises :class:`IllegalCommand` outside the bounds."""
        if self.minimum is not None and value < self.minimum:
            raise IllegalCommand(f"{self.label} cannot go below {self.minimum} (asked for {value})", self.rule or None)
        if self.maximum is not None and value > self.maximum:
            raise IllegalCommand(f"{self.label} cannot go above {self.maximum} (asked for {value})", self.rule or None)
        return replace(self, value=value)


def track_event(player: str, before: Track, after: Track, reason: str) -> NewEvent:
    """The ``track_changed`` event for ``player``'s track going from ``before`` to ``after``."""
    return NewEvent(
        TRACK_CHANGED,
        {
            "player": player,
            "track": after.name,
            "value": after.value,
            "delta": after.value - before.value,
            "reason": reason,
        },
    )
