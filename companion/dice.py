"""Dice requests and the sources that answer them.

Chance is a player (as in OpenSpiel): a rules engine never calls ``random`` itself. It publishes a
:class:`DiceRequest` ("NBS rolls 2d6 for the Best Network News roll-off"); a dice source answers with
values, and the values and their source are journaled so a replay is deterministic.

Sources:

* manual entry: the UI builds :class:`companion.commands.AnswerDice` with ``source="manual"``;
* the built-in generator :class:`SeededDice` (seedable for reproducible sessions and tests);
* a dice reader (``firmware_bridge``): its thread delivers readings to a :class:`DiceReaderPort`, and
  ``firmware_bridge.dice_match.RollTray`` matches them against the pending request on the owner thread,
  posting ``AnswerDice`` with ``source="reader"`` (or holding a roll that does not fit).
"""

from __future__ import annotations

import random
import threading
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

from companion.checks import is_whole
from companion.errors import TABLE_RULE, DiceError, IllegalCommand

#: The sources a journaled roll may name.
DICE_SOURCES = ("manual", "built-in", "reader")


@dataclass(frozen=True)
class DiceRequest:
    """A request for dice: ``roller`` (player name) rolls ``count`` dice of ``sides`` faces for
    ``reason`` (words, shown on screen) under ``rule`` (for example ``"TV Wars 2.5"``)."""

    roller: str
    count: int
    reason: str
    rule: str = ""
    sides: int = 6

    def describe(self) -> str:
        """``"NBS rolls 2d6: Best Network News roll-off (TV Wars 2.5)"``."""
        text = f"{self.roller} rolls {self.count}d{self.sides}: {self.reason}"
        return f"{text} ({self.rule})" if self.rule else text

    def check(self, roller: str, values: Sequence[int]) -> tuple[int, ...]:
        """Return ``values`` as a tuple if they answer this request.

        Raises :class:`DiceError` if ``roller`` is not the requested roller, if the number of values is
        not ``count``, or if a value is not a whole number from 1 to ``sides``.
        """
        if roller != self.roller:
            raise DiceError(f"the dice were asked of {self.roller}, not {roller}", self.rule or TABLE_RULE)
        values = tuple(values)
        if len(values) != self.count:
            raise DiceError(
                f"{self.roller} rolls {self.count}d{self.sides} for the {self.reason}: "
                f"it needs {self.count} dice, got {len(values)}",
                self.rule or TABLE_RULE,
            )
        for value in values:
            if not is_whole(value) or not 1 <= value <= self.sides:
                raise DiceError(f"a d{self.sides} shows 1 to {self.sides}, not {value!r}", self.rule or TABLE_RULE)
        return values


def check_answer(request: DiceRequest | None, roller: str, values: Sequence[int], source: str) -> tuple[int, ...]:
    """The ``values`` that ``roller`` reports from ``source`` (one of :data:`DICE_SOURCES`), if they answer the
    pending ``request``. Raises :class:`IllegalCommand` when no dice are asked for and :class:`DiceError` for an
    unknown source or values that do not fit the request (:meth:`DiceRequest.check`)."""
    if request is None:
        raise IllegalCommand("no dice are asked for right now", TABLE_RULE)
    if source not in DICE_SOURCES:
        raise DiceError(f"dice come from {', '.join(DICE_SOURCES)}, not {source!r}")
    return request.check(roller, values)


def roll_payload(request: DiceRequest, roller: str, values: Sequence[int], source: str) -> dict:
    """The journaled record of a roll: ``roller``, ``values`` (a list), ``source``, and the request's ``reason``
    and ``rule``; games add their own keys (a ``purpose``, a ``fighter``)."""
    return {"roller": roller, "values": list(values), "source": source, "reason": request.reason, "rule": request.rule}


@dataclass(frozen=True)
class RollOff:
    """A roll-off in which the highest roller wins and those tied for highest roll again (TV Wars 2.5's Best
    Network News roll, Death Show TV's first player and its several-killers roll): ``contenders`` still in it,
    the ``rolls`` of this round as ``(name, total)`` pairs, and the ``round`` (1 = the first roll, 2+ = re-rolls
    of ties)."""

    contenders: tuple[str, ...]
    rolls: tuple[tuple[str, int], ...] = ()
    round: int = 1

    @property
    def next_roller(self) -> str | None:
        """The next contender who has not rolled this round, or ``None``."""
        rolled = {name for name, _ in self.rolls}
        return next((name for name in self.contenders if name not in rolled), None)

    def with_roll(self, roller: str, total: int) -> RollOff:
        """This roll-off after ``roller`` rolled ``total``."""
        return RollOff(self.contenders, self.rolls + ((roller, total),), self.round)

    def leaders(self) -> tuple[list[str], int] | None:
        """Once every contender has rolled this round: the names tied for the highest total (one name: the
        winner) and that total; ``None`` while rolls are still owed."""
        if len(self.rolls) < len(self.contenders):
            return None
        best = max(total for _, total in self.rolls)
        return [name for name, total in self.rolls if total == best], best

    def reroll(self, tied: Sequence[str]) -> RollOff:
        """The next round, between the ``tied`` contenders only."""
        return RollOff(tuple(tied), (), self.round + 1)


class SeededDice:
    """The built-in dice generator. ``seed=None`` seeds from the operating system.

    Thread-safe; ``roll(request)`` returns a tuple of ``request.count`` faces from 1 to ``request.sides``.
    """

    source = "built-in"

    def __init__(self, seed: int | None = None) -> None:
        self._random = random.Random(seed)
        self._lock = threading.Lock()

    def roll(self, request: DiceRequest) -> tuple[int, ...]:
        """Roll the dice ``request`` asks for."""
        with self._lock:
            return tuple(self._random.randint(1, request.sides) for _ in range(request.count))


class HandDice:
    """The dice of a table whose dice are not built in (``[dice] mode`` ``"manual"`` or ``"reader"``): a Roll (a
    seat's Roll button or the dice bar) is refused with what to do instead, a table rule, and changes nothing."""

    source = "built-in"

    def __init__(self, mode: str) -> None:
        self.mode = mode

    def roll(self, request: DiceRequest) -> tuple[int, ...]:
        """Refuse: these dice are rolled at the table and entered by hand, or read by the dice reader."""
        if self.mode == "reader":
            todo = "roll them in the reader's tray, or enter them by hand on the touchscreen (Enter dice)"
        else:
            todo = "roll them at the table and enter them on the touchscreen (Enter dice)"
        raise IllegalCommand(f"the dice mode is {self.mode}: {request.describe()}; {todo}", TABLE_RULE)


def table_dice(mode: str, seed: int | None = None) -> SeededDice | HandDice:
    """The dice of a table in dice ``mode`` (config ``[dice] mode``): built-in ones, else :class:`HandDice`."""
    return SeededDice(seed) if mode == "built-in" else HandDice(mode)


class DiceReaderPort:
    """Where a dice reader's thread drops confirmed readings, for the owner thread's roll tray to match.

    ``deliver(values)`` may be called from any thread; ``take()`` (owner thread) returns the oldest
    unclaimed reading or ``None``. At most ``capacity`` readings are held; older ones are dropped first
    and counted in ``dropped``.
    """

    source = "reader"

    def __init__(self, capacity: int = 16) -> None:
        self._readings: deque[tuple[int, ...]] = deque()
        self._capacity = capacity
        self._lock = threading.Lock()
        self.dropped = 0

    def deliver(self, values: Sequence[int]) -> None:
        """Record one reading (a sequence of die faces) from the reader thread."""
        with self._lock:
            if len(self._readings) >= self._capacity:
                self._readings.popleft()
                self.dropped += 1
            self._readings.append(tuple(values))

    def take(self) -> tuple[int, ...] | None:
        """Return and forget the oldest unclaimed reading, or ``None`` if there is none."""
        with self._lock:
            return self._readings.popleft() if self._readings else None
