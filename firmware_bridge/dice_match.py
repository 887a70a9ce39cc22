"""Dice readings against the table's pending dice request: answer it, hold the roll, or ask first.

A dice reader only knows which faces it saw. The table knows who is asked to roll how many dice
(:class:`companion.dice.DiceRequest`). :class:`DiceMatcher` is the pure rule between them:

* nothing is asked for → the roll is held as **unclaimed**: a player can assign it or discard it;
* the reading fits the request (count and faces) → it **answers** the request (``AnswerDice`` with
  ``source="reader"``, so the journal records where the roll came from);
* it does not fit (three dice for a 2d6 request, a 5 for a d4) → it is **held for confirmation**: the
  screen shows it with the request, and a player picks the dice to use, enters them by hand, or
  discards it. A reading is never silently cut down, padded or reused.

:class:`RollTray` keeps the held rolls on the table's owner thread and drains the thread-safe
:class:`companion.dice.DiceReaderPort` the reader threads deliver to; it is the only path from a reader
to the table.

Example (owner thread, each clock tick)::

    tray = RollTray(port)
    tray.poll(lambda: table.view().pending_dice if table.view() else None, table.post)
    for roll in tray.held: ...           # show: "Unclaimed roll 3 5 — assign to / discard"
"""

from __future__ import annotations

import enum
import threading
import time as _time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from companion.commands import AnswerDice
from companion.dice import DiceReaderPort, DiceRequest
from companion.errors import DiceError


class Decision(enum.Enum):
    """What becomes of one reading."""

    #: It fits the pending request and answers it.
    ANSWER = "answer"
    #: Nothing was asked for: held as an unclaimed roll (assign or discard).
    UNCLAIMED = "unclaimed"
    #: Something was asked for but the reading does not fit: held for confirmation or manual entry.
    CONFIRM = "confirm"


@dataclass(frozen=True)
class Match:
    """The matcher's verdict on ``values`` given ``request`` (``None`` if nothing was pending).
    ``reason`` is one sentence for the screen."""

    decision: Decision
    values: tuple[int, ...]
    request: DiceRequest | None
    reason: str

    def command(self) -> AnswerDice:
        """The ``AnswerDice`` (source ``"reader"``) for an ``ANSWER``; raises :class:`DiceError` otherwise."""
        if self.decision is not Decision.ANSWER or self.request is None:
            raise DiceError(f"this reading does not answer a request: {self.reason}")
        return AnswerDice(roller=self.request.roller, values=self.values, source=DiceReaderPort.source)


def _faces(values: Sequence[int]) -> str:
    return " ".join(str(v) for v in values)


class DiceMatcher:
    """Pure: ``match(request, values)`` → :class:`Match`. See the module docstring for the rules."""

    def match(self, request: DiceRequest | None, values: Sequence[int]) -> Match:
        """Decide what ``values`` (the faces read, in reading order) do given the pending ``request``."""
        values = tuple(values)
        if request is None:
            return Match(Decision.UNCLAIMED, values, None, f"Unclaimed roll {_faces(values)}: no dice are asked for")
        asked = f"{request.roller} rolls {request.count}d{request.sides}"
        if len(values) != request.count:
            dice = "die" if len(values) == 1 else "dice"
            return Match(
                Decision.CONFIRM,
                values,
                request,
                f"The reader saw {len(values)} {dice} ({_faces(values)}) but {asked}: "
                f"pick the dice, enter them by hand, or discard",
            )
        wrong = [v for v in values if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= request.sides]
        if wrong:
            return Match(
                Decision.CONFIRM,
                values,
                request,
                f"The reader saw {_faces(values)} but {asked} (a d{request.sides} cannot show "
                f"{wrong[0]}): enter the dice by hand, or discard",
            )
        return Match(Decision.ANSWER, values, request, f"{asked}: reader read {_faces(values)}")


@dataclass(frozen=True)
class HeldRoll:
    """A reading waiting for a player: ``id`` (stable while held), ``values``, the ``match`` that held
    it (``UNCLAIMED`` or ``CONFIRM``), and ``received`` (Unix seconds)."""

    id: int
    values: tuple[int, ...]
    match: Match
    received: float

    @property
    def needs_confirmation(self) -> bool:
        """True if it was read while a request it does not fit was pending."""
        return self.match.decision is Decision.CONFIRM


class RollTray:
    """Readings from the dice readers, matched on the owner thread.

    ``port`` is the thread-safe delivery queue reader threads call ``deliver(values)`` on. ``poll``,
    ``assign`` and ``discard`` belong to the table's owner thread. At most ``capacity`` rolls are held;
    when full the oldest is dropped (counted in ``dropped``) - a forgotten roll must not pile up.
    """

    def __init__(
        self,
        port: DiceReaderPort,
        *,
        matcher: DiceMatcher | None = None,
        capacity: int = 8,
        clock: Callable[[], float] = _time.time,
    ) -> None:
        self.port = port
        self.matcher = matcher or DiceMatcher()
        self.capacity = capacity
        self.dropped = 0
        self._clock = clock
        self._held: list[HeldRoll] = []
        self._next_id = 1
        self._lock = threading.Lock()

    @property
    def held(self) -> tuple[HeldRoll, ...]:
        """The held rolls, oldest first."""
        with self._lock:
            return tuple(self._held)

    def poll(
        self, request: DiceRequest | None | Callable[[], DiceRequest | None], post: Callable[[AnswerDice], None]
    ) -> list[Match]:
        """Take the delivered readings and match them against ``request`` (the pending one, or None; or a
        function returning it, called only when a reading is there - cheap to poll every clock tick).

        A fitting reading is answered through ``post(AnswerDice(...))``; after one answer the rest wait in
        the port for the next poll (the next request is not known until the table has applied this one).
        Every other reading is held. Returns the matches made, oldest first.
        """
        matches = []
        asked = request
        while True:
            values = self.port.take()
            if values is None:
                break
            if callable(asked):
                asked = asked()
            match = self.matcher.match(asked, values)
            matches.append(match)
            if match.decision is Decision.ANSWER:
                post(match.command())
                break
            self._hold(match)
        return matches

    def _hold(self, match: Match) -> HeldRoll:
        with self._lock:
            roll = HeldRoll(self._next_id, match.values, match, self._clock())
            self._next_id += 1
            self._held.append(roll)
            while len(self._held) > self.capacity:
                self._held.pop(0)
                self.dropped += 1
            return roll

    def _find(self, roll_id: int) -> HeldRoll:
        for roll in self._held:
            if roll.id == roll_id:
                return roll
        raise DiceError(f"no held roll #{roll_id} (it was assigned or discarded)")

    def assign(self, roll_id: int, request: DiceRequest, values: Sequence[int] | None = None) -> AnswerDice:
        """Use held roll ``roll_id`` (or the faces a player picked from it, ``values``) for ``request``.

        Returns the ``AnswerDice`` to post (source ``"reader"``) and forgets the roll. Raises
        :class:`DiceError`, keeping the roll, if there is no such roll, if ``values`` are not faces of the
        roll, or if they do not answer ``request`` (``DiceRequest.check``).
        """
        with self._lock:
            roll = self._find(roll_id)
            chosen = roll.values if values is None else tuple(values)
            remaining = list(roll.values)
            for value in chosen:
                if value not in remaining:
                    raise DiceError(f"{value} is not among the dice read ({_faces(roll.values)})")
                remaining.remove(value)
            request.check(request.roller, chosen)
            self._held.remove(roll)
        return AnswerDice(roller=request.roller, values=chosen, source=DiceReaderPort.source)

    def discard(self, roll_id: int) -> HeldRoll:
        """Forget held roll ``roll_id`` and return it; :class:`DiceError` if there is none."""
        with self._lock:
            roll = self._find(roll_id)
            self._held.remove(roll)
            return roll
