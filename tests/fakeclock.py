"""A virtual clock for timer-driven hardware logic (debounce, long press) in tests."""

from __future__ import annotations

import heapq
import itertools


class FakeTimer:
    def __init__(self, clock: "FakeClock", due: float, callback) -> None:
        self.clock, self.due, self.callback, self.cancelled = clock, due, callback, False

    def cancel(self) -> None:
        self.cancelled = True


class FakeClock:
    """``schedule(delay, callback)`` like :func:`hardware.debounce.thread_timer`, but nothing runs until
    :meth:`advance` moves virtual time past a timer's due time."""

    def __init__(self) -> None:
        self.now = 0.0
        self._queue: list[tuple[float, int, FakeTimer]] = []
        self._order = itertools.count()

    def schedule(self, delay: float, callback) -> FakeTimer:
        timer = FakeTimer(self, self.now + delay, callback)
        heapq.heappush(self._queue, (timer.due, next(self._order), timer))
        return timer

    def advance(self, seconds: float) -> None:
        end = self.now + seconds
        while self._queue and self._queue[0][0] <= end:
            due, _, timer = heapq.heappop(self._queue)
            self.now = due
            if not timer.cancelled:
                timer.callback()
        self.now = end
