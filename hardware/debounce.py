"""Clean presses from a bouncing switch: debounce, then short press versus long press, decided from the
edges' own timestamps.

:class:`PressDetector` is fed every raw edge as ``edge(ticks, pressed)``: ``ticks`` is when the level
changed, as the pin library stamped it (gpiozero passes lgpio's kernel timestamps through
``Pin.when_changed``), ``pressed`` the level it changed to. The detector's answer is a function of that
edge sequence alone:

* **Debounce.** An edge's level is *settled* when no other edge follows within ``bounce_time`` seconds of
  it (by the edges' ticks). Only a settled level that differs from the last settled one is a press or a
  release, so a bouncing switch gives exactly one press and one release, whatever the bounce looks like.
  The press (or release) happened at the ticks of the edge whose level settled.
* **Short or long.** With a long action, a press is long if its release came ``hold_time`` seconds or more
  after it (by ticks), else short. The short action fires at the release; the long action fires once, as
  soon as the press has lasted ``hold_time`` (no repeats), and at its release only the optional
  ``on_long_release`` fires, so a display held up by a long press (a peek at a player's private figures)
  ends when the finger lifts. Without a long action, the short action fires as soon as the press settles.

The only thing decided by the clock is that *nothing has happened yet*: a level with no edge after it is
settled once ``bounce_time`` has passed since its edge arrived, and a press with no release yet is long
once ``hold_time`` has passed since its press edge arrived. Those checks run on a :class:`Scheduler`
(real buttons share one :class:`SchedulerThread`), and a check that runs late changes nothing: every edge
that arrived meanwhile has already been judged by its ticks. So a busy machine can delay an action, but it
cannot lose a press, double one, or turn a short press into a long one.

Ticks are only ever subtracted from ticks (through ``ticks_diff``), never compared with the scheduler's clock:
gpiozero's lgpio ticks are the kernel's CLOCK_REALTIME stamps while its factory's ``ticks()`` is monotonic.

What the timestamps cannot fix is an edge *delivered* late (the pin library's callback thread starved). If an
edge arrives ``bounce_time`` or more after the one before it although their ticks are closer, that earlier
level may be taken as settled too soon: harmless once in a burst of chatter (the press just dates from its
first edge), a doubled press only if it happens to two edges in a row of one burst. If a short press's release
arrives ``hold_time`` or more after its press did, the long action may have fired already. gpiozero's mock
pins do not simulate bounce, and RPi.GPIO's ``bouncetime`` can drop the release edge, so the companion
relies on neither.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

log = logging.getLogger("companion.buttons")


class Cancellable(Protocol):
    def cancel(self) -> None: ...


class Scheduler(Protocol):
    """Runs callbacks at given times. ``now()`` is the scheduler's clock in seconds (monotonic);
    ``call_at(when, callback)`` runs ``callback()`` once, at or after ``when`` on that clock (at once if
    ``when`` has passed), unless the returned handle's ``cancel()`` is called first."""

    def now(self) -> float: ...

    def call_at(self, when: float, callback: Callable[[], None]) -> Cancellable: ...


class _Call:
    __slots__ = ("when", "callback", "cancelled")

    def __init__(self, when: float, callback: Callable[[], None]) -> None:
        self.when, self.callback, self.cancelled = when, callback, False

    def cancel(self) -> None:
        self.cancelled = True


class SchedulerThread:
    """One daemon thread that runs every timed callback of a :class:`~hardware.buttons.ButtonBoard` (debounce
    checks, long presses, the simulator's delayed key releases) in time order, on ``time.monotonic``.

    The thread starts with the first :meth:`call_at`. A callback that raises is logged and the thread goes
    on. :meth:`close` stops the thread and drops what is still waiting; later :meth:`call_at` calls are
    ignored (their handle comes back already cancelled). Safe to call :meth:`close` twice.
    """

    def __init__(self, name: str = "companion-button-timer") -> None:
        self._name = name
        self._cond = threading.Condition()
        self._queue: list[tuple[float, int, _Call]] = []
        self._order = itertools.count()
        self._thread: threading.Thread | None = None
        self._closed = False
        self._running = 0

    @staticmethod
    def now() -> float:
        """Seconds on the monotonic clock."""
        return time.monotonic()

    def call_at(self, when: float, callback: Callable[[], None]) -> Cancellable:
        """Run ``callback()`` on the scheduler thread at or after ``when`` (:meth:`now` seconds)."""
        call = _Call(when, callback)
        with self._cond:
            if self._closed:
                call.cancelled = True
                return call
            heapq.heappush(self._queue, (when, next(self._order), call))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
                self._thread.start()
            self._cond.notify()
        return call

    def call_later(self, delay: float, callback: Callable[[], None]) -> Cancellable:
        """Run ``callback()`` on the scheduler thread ``delay`` seconds from now."""
        return self.call_at(self.now() + delay, callback)

    @property
    def pending(self) -> int:
        """How many callbacks are still to run (waiting for their time, or running now)."""
        with self._cond:
            return sum(1 for _, _, call in self._queue if not call.cancelled) + self._running

    def _next(self) -> _Call | None:
        """Wait for the next due call (``None`` once closed)."""
        with self._cond:
            while not self._closed:
                while self._queue and self._queue[0][2].cancelled:
                    heapq.heappop(self._queue)
                if not self._queue:
                    self._cond.wait()
                    continue
                wait = self._queue[0][0] - self.now()
                if wait <= 0:
                    call = heapq.heappop(self._queue)[2]
                    self._running = 0 if call.cancelled else 1
                    return call
                self._cond.wait(wait)
            return None

    def _run(self) -> None:
        while (call := self._next()) is not None:
            if call.cancelled:
                continue
            try:
                call.callback()
            except Exception:  # one broken callback must not stop every button
                log.exception("timed callback %r failed", call.callback)
            finally:
                with self._cond:
                    self._running = 0

    def close(self) -> None:
        """Stop the thread (waits for a callback that is running, unless called from one)."""
        with self._cond:
            self._closed = True
            self._queue.clear()
            self._cond.notify_all()
            thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=5)


def seconds_between(later: float, earlier: float) -> float:
    """``later - earlier``: the difference of two ticks that count seconds (the default ``ticks_diff``)."""
    return later - earlier


@dataclass(frozen=True)
class _Edge:
    ticks: float  # when the level changed (the pin library's stamp)
    pressed: bool  # the level it changed to
    arrived: float  # when the detector heard of it (scheduler clock)


class PressDetector:
    """One switch's presses (see the module docstring for the rules).

    ``edge(ticks, pressed)`` is called for every raw edge, from any thread, in the order the edges
    happened. ``ticks_diff(later, earlier)`` gives the seconds between two ticks (a gpiozero factory's
    ``ticks_diff``; default plain subtraction). ``pressed`` is the switch's level when the detector is made:
    a switch already held then counts no press, and its release fires nothing.

    ``on_short()``, ``on_long()`` (``None`` for no long action) and ``on_long_release()`` (optional) are
    called at most once per press, on the caller's thread or the scheduler's, one at a time and in the
    order of the presses (they run under the detector's lock: they must not block, nor call back into the
    detector). One that raises is logged; the detector goes on. ``presses`` and ``releases`` count settled
    transitions.
    """

    def __init__(
        self,
        *,
        bounce_time: float,
        hold_time: float,
        on_short: Callable[[], None],
        scheduler: Scheduler,
        on_long: Callable[[], None] | None = None,
        on_long_release: Callable[[], None] | None = None,
        pressed: bool = False,
        ticks_diff: Callable[[float, float], float] = seconds_between,
    ) -> None:
        self._bounce, self._hold = bounce_time, hold_time
        self._on_short, self._on_long, self._on_long_release = on_short, on_long, on_long_release
        self._scheduler = scheduler
        self._diff = ticks_diff
        self._lock = threading.RLock()
        self._stable = bool(pressed)  # the last settled level
        self._counted = False  # the settled press was seen to start (not held at start-up)
        self._press: _Edge | None = None  # the edge that started the settled press
        self._held = False  # the settled press has fired its long action
        self._candidate: _Edge | None = None  # the latest edge, not settled yet
        self._wake: Cancellable | None = None
        self._wake_at: float | None = None
        self._closed = False
        self.presses = self.releases = 0

    # -- input --------------------------------------------------------------------------------------------
    def edge(self, ticks: float, pressed: bool) -> None:
        """The level changed to ``pressed`` at ``ticks``. Judges the previous edge by the gap between
        their ticks, then anything that time alone decides now."""
        with self._lock:
            if self._closed:
                return
            now = self._scheduler.now()
            previous = self._candidate
            if previous is not None and self._seconds(ticks, previous.ticks) >= self._bounce:
                self._settle(previous)
            self._candidate = _Edge(ticks, bool(pressed), now)
            self._review(now)

    def _woken(self) -> None:
        with self._lock:
            self._wake = self._wake_at = None
            if not self._closed:
                self._review(self._scheduler.now())

    @property
    def idle(self) -> bool:
        """True when nothing is waiting to be decided: no edge waiting to settle, no press waiting for its
        hold time."""
        with self._lock:
            return self._candidate is None and self._hold_pending() is None

    # -- decisions ----------------------------------------------------------------------------------------
    def _seconds(self, later: float, earlier: float) -> float:
        return max(0.0, self._diff(later, earlier))  # a clock stepped back reads as no time at all

    def _review(self, now: float) -> None:
        """Decide what the passing of time decides by ``now``, then ask to be woken for the next such thing."""
        candidate = self._candidate
        if candidate is not None and now >= candidate.arrived + self._bounce:  # as _plan_wake reckons it
            self._settle(candidate)
        press = self._hold_pending()
        if press is not None:
            if self._candidate is not None and not self._candidate.pressed:
                # a release waits to settle: its ticks, not the clock, tell whether the hold time was
                # reached (every release is judged here as it arrives, before it can settle)
                if self._seconds(self._candidate.ticks, press.ticks) >= self._hold:
                    self._reach_hold()
            elif now >= press.arrived + self._hold:
                self._reach_hold()
        self._plan_wake()

    def _hold_pending(self) -> _Edge | None:
        """The press whose hold time is being waited for, if any."""
        if self._stable and self._counted and self._on_long is not None and not self._held:
            return self._press
        return None

    def _settle(self, edge: _Edge) -> None:
        if self._candidate is edge:
            self._candidate = None
        if edge.pressed == self._stable:
            return
        self._stable = edge.pressed
        if edge.pressed:
            self.presses += 1
            self._press, self._counted, self._held = edge, True, False
            if self._on_long is None:
                self._fire(self._on_short)
            return
        self.releases += 1
        if not self._counted:
            return
        self._counted = False
        if self._on_long is None:
            return
        if self._held:
            self._fire(self._on_long_release)
        else:
            self._fire(self._on_short)

    def _reach_hold(self) -> None:
        self._held = True
        self._fire(self._on_long)

    def _fire(self, action: Callable[[], None] | None) -> None:
        if action is None:
            return
        try:
            action()
        except Exception:  # a broken action must not leave the switch half-decided
            log.exception("button action %r failed", action)

    def _plan_wake(self) -> None:
        due = []
        if self._candidate is not None:
            due.append(self._candidate.arrived + self._bounce)
        press = self._hold_pending()
        if press is not None and (self._candidate is None or self._candidate.pressed):
            due.append(press.arrived + self._hold)
        when = min(due) if due else None
        if when == self._wake_at:
            return
        if self._wake is not None:
            self._wake.cancel()
        self._wake_at = when
        self._wake = None if when is None else self._scheduler.call_at(when, self._woken)

    def close(self) -> None:
        """Cancel the pending check and ignore later edges (safe to call twice)."""
        with self._lock:
            self._closed = True
            if self._wake is not None:
                self._wake.cancel()
            self._wake = self._wake_at = None
