"""A virtual clock for timer-driven hardware logic (debounce, long press) in tests, and gpiozero mock pins
whose edges carry a chosen timestamp.

* :class:`FakeClock` is a :class:`hardware.debounce.Scheduler`: nothing runs until :meth:`FakeClock.advance`
  moves virtual time past a callback's time.
* :class:`StampedFactory` is a gpiozero :class:`~gpiozero.pins.mock.MockFactory` whose pins stamp each edge
  with ``clock.now()`` (a :class:`FakeClock`, or the monotonic clock), or with the ``at=`` ticks given to
  ``drive_low``/``drive_high``: the way lgpio hands on the kernel's timestamp of an edge that Python hears
  of later.
"""

from __future__ import annotations

import heapq
import itertools
import time

from gpiozero.pins.mock import MockFactory, MockPin
from gpiozero.pins.pi import PiPin


class FakeTimer:
    def __init__(self, clock: FakeClock, due: float, callback) -> None:
        self.clock, self.due, self.callback, self.cancelled = clock, due, callback, False

    def cancel(self) -> None:
        self.cancelled = True


class FakeClock:
    """``call_at(when, callback)`` like :class:`hardware.debounce.SchedulerThread`, but nothing runs until
    :meth:`advance` moves virtual time (``now()``, seconds from 0) past a callback's time."""

    def __init__(self) -> None:
        self.time = 0.0
        self._queue: list[tuple[float, int, FakeTimer]] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self.time

    def call_at(self, when: float, callback) -> FakeTimer:
        timer = FakeTimer(self, max(when, self.time), callback)
        heapq.heappush(self._queue, (timer.due, next(self._order), timer))
        return timer

    def advance(self, seconds: float) -> None:
        """Move time on by ``seconds``, running each callback that falls due, in time order, at its time."""
        end = self.time + seconds
        while self._queue and self._queue[0][0] <= end:
            due, _, timer = heapq.heappop(self._queue)
            self.time = due
            if not timer.cancelled:
                timer.callback()
        self.time = end


class StampedPin(MockPin):
    """A mock pin whose edges are stamped by its factory's clock, or by ``at`` (ticks in seconds)."""

    def drive_high(self, at: float | None = None) -> None:
        self._drive(True, at)

    def drive_low(self, at: float | None = None) -> None:
        self._drive(False, at)

    def _drive(self, state: bool, at: float | None) -> None:
        assert self._function == "input"
        if self._change_state(state):
            self._last_change = self.factory.ticks() if at is None else at
            if self._edges in ("both", "rising" if state else "falling") and self._when_changed is not None:
                PiPin._call_when_changed(self, self._last_change, state)


class StampedFactory(MockFactory):
    """Mock pins (:class:`StampedPin`) on ``clock`` (an object with ``now()``; default the monotonic clock)."""

    def __init__(self, clock=None) -> None:
        super().__init__(pin_class=StampedPin)
        self.clock = clock

    def ticks(self) -> float:
        return time.monotonic() if self.clock is None else self.clock.now()
