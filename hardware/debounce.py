"""Clean presses from a bouncing switch: debounce, then short press versus long press.

:class:`PressDetector` is pure logic over two injected things: ``read_pressed()`` (the switch's level now)
and ``schedule(delay, callback)`` (a one-shot timer returning an object with ``cancel()``). Real buttons use
:func:`thread_timer`; tests use a virtual clock. Every raw edge restarts a settle timer of ``bounce_time``
seconds; only a level that stayed put that long counts. So a bouncing switch gives exactly one press and
one release, whatever the bounce looks like (gpiozero's mock pins do not simulate bounce, and RPi.GPIO's
``bouncetime`` can drop the release edge, so the companion does not rely on either).

A press is either short or long, never both: with a long action, the short action fires at release if the
switch was held less than ``hold_time`` seconds, the long action fires once when ``hold_time`` is reached
(no repeats; at release only the optional ``on_long_release`` fires, so a display held up by a long press,
such as a peek at a player's private figures, can end when the finger lifts). Without a long action, the
short action fires at the press itself.
"""

from __future__ import annotations

import threading
from typing import Callable, Protocol


class Cancellable(Protocol):
    def cancel(self) -> None: ...


Schedule = Callable[[float, Callable[[], None]], Cancellable]


def thread_timer(delay: float, callback: Callable[[], None]) -> threading.Timer:
    """A daemon :class:`threading.Timer` started now (the real clock for :class:`PressDetector`)."""
    timer = threading.Timer(delay, callback)
    timer.daemon = True
    timer.start()
    return timer


class PressDetector:
    """One switch's presses. ``edge()`` is called on every raw level change (any thread).

    ``on_short()`` and ``on_long()`` (or ``None`` for no long action) are called at most once per press,
    on a timer thread or the caller's thread; ``on_long_release()`` (optional) once at the release of a press
    that fired ``on_long``. ``presses`` and ``releases`` count debounced transitions.
    """

    def __init__(self, read_pressed: Callable[[], bool], *, bounce_time: float, hold_time: float,
                 on_short: Callable[[], None], on_long: Callable[[], None] | None = None,
                 schedule: Schedule = thread_timer, on_long_release: Callable[[], None] | None = None) -> None:
        self._read = read_pressed
        self._bounce, self._hold = bounce_time, hold_time
        self._on_short, self._on_long = on_short, on_long
        self._on_long_release = on_long_release
        self._schedule = schedule
        self._lock = threading.RLock()
        self._stable = bool(read_pressed())
        self._settle: Cancellable | None = None
        self._holding: Cancellable | None = None
        self._held = False
        self.presses = self.releases = 0

    def edge(self) -> None:
        """A raw edge happened: wait until the level has been steady for ``bounce_time``."""
        with self._lock:
            if self._settle is not None:
                self._settle.cancel()
                self._settle = None
            if self._bounce <= 0:
                self._settled()
            else:
                self._settle = self._schedule(self._bounce, self._settled)

    def _settled(self) -> None:
        fire = None
        with self._lock:
            self._settle = None
            level = bool(self._read())
            if level == self._stable:
                return
            self._stable = level
            if level:
                self.presses += 1
                self._held = False
                if self._on_long is None:
                    fire = self._on_short
                else:
                    self._holding = self._schedule(self._hold, self._reached_hold)
            else:
                self.releases += 1
                if self._holding is not None:
                    self._holding.cancel()
                    self._holding = None
                if self._on_long is not None and not self._held:
                    fire = self._on_short
                elif self._held:
                    fire = self._on_long_release
        if fire is not None:
            fire()

    def _reached_hold(self) -> None:
        with self._lock:
            self._holding = None
            if not self._stable or self._held:
                return
            self._held = True
        self._on_long()

    def close(self) -> None:
        """Cancel pending timers (safe to call twice)."""
        with self._lock:
            for timer in (self._settle, self._holding):
                if timer is not None:
                    timer.cancel()
            self._settle = self._holding = None
