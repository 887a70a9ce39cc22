"""The press detector decides from the edges' timestamps, however late its checks run; one scheduler thread.

The property test replays random bouncing presses into a :class:`PressDetector` whose scheduler runs every
check late by a random amount (up to 3 s, far beyond the hold time), with edges delivered up to ``JITTER``
after they happened, and compares what fired with :func:`reference`: the rules of :mod:`hardware.debounce`
applied to the whole edge list at once, with no clock at all.
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import replace

import pytest
from fakeclock import FakeClock, StampedFactory
from gpiozero.pins.mock import MockFactory
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.config import default_config
from companion.games.tv_wars import TV_WARS, LandOnSponsor, PassOnTheAir
from hardware.buttons import ButtonBoard
from hardware.debounce import PressDetector, SchedulerThread

BOUNCE, HOLD = 0.03, 0.8
JITTER = 0.01  # edges reach the detector up to this long after their timestamp


def reference(edges: list[tuple[float, bool]], has_long: bool) -> list[str]:
    """What the rules say fires for ``edges`` (``(ticks, pressed)``, all delivered, the switch released at
    the end): a level settles when the next edge is ``BOUNCE`` or more after it (the last one always)."""
    actions, stable, pressed_at = [], False, None
    for index, (ticks, pressed) in enumerate(edges):
        following = edges[index + 1][0] if index + 1 < len(edges) else float("inf")
        if following - ticks < BOUNCE or pressed == stable:
            continue
        stable = pressed
        if pressed:
            pressed_at = ticks
            if not has_long:
                actions.append("short")
        elif has_long:
            actions += ["long", "long released"] if ticks - pressed_at >= HOLD else ["short"]
    return actions


class LateClock(FakeClock):
    """A fake clock whose callbacks each run ``lateness()`` seconds after they were due (a starved scheduler)."""

    def __init__(self, lateness) -> None:
        super().__init__()
        self.lateness = lateness

    def call_at(self, when, callback):
        return super().call_at(when + self.lateness(), callback)


def bouncing_presses(rng: random.Random, count: int) -> list[tuple[float, bool]]:
    """Presses with 0–3 chatter pairs at each end (edges under ``BOUNCE - JITTER`` apart), held short (well
    under ``HOLD``) or long (over it), released at least ``BOUNCE`` between presses."""
    edges, t = [], rng.uniform(0, 1)
    for _ in range(count):
        for level in (True, False):
            edges.append((t, level))
            for _ in range(rng.randrange(4)):
                for chatter in (not level, level):
                    t += rng.uniform(0.0005, BOUNCE - JITTER - 0.002)
                    edges.append((t, chatter))
            t += (
                rng.choice([rng.uniform(BOUNCE + 0.001, HOLD / 2), rng.uniform(HOLD, 3)])
                if level
                else rng.uniform(BOUNCE + 0.001, 1)
            )
    return edges


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    count=st.integers(1, 10),
    has_long=st.booleans(),
    late=st.sampled_from([0.0, 0.05, 0.5, 3.0]),
)
def test_whatever_the_lateness_of_the_checks_the_edges_timestamps_decide(seed, count, has_long, late):
    rng = random.Random(seed)
    edges = bouncing_presses(rng, count)
    clock = LateClock(lambda: rng.uniform(0, late))
    fired = []
    detector = PressDetector(
        bounce_time=BOUNCE,
        hold_time=HOLD,
        scheduler=clock,
        on_short=lambda: fired.append("short"),
        on_long=(lambda: fired.append("long")) if has_long else None,
        on_long_release=lambda: fired.append("long released"),
    )
    arrival = 0.0
    for ticks, pressed in edges:  # delivered in order, each up to JITTER late
        arrival = max(arrival, ticks + rng.uniform(0, JITTER))
        clock.advance(arrival - clock.now())
        detector.edge(ticks, pressed)
    clock.advance(10 + late * 10)
    assert fired == reference(edges, has_long)
    assert detector.presses == detector.releases == count and detector.idle


def test_a_short_press_is_not_lost_when_every_check_runs_a_second_late():
    """The old detector read the pin when its timer fired: a second late, the switch was long released."""
    clock = LateClock(lambda: 1.0)
    fired = []
    detector = PressDetector(
        bounce_time=BOUNCE, hold_time=HOLD, scheduler=clock, on_short=lambda: fired.append("short")
    )
    detector.edge(0.0, True)
    clock.advance(0.1)
    detector.edge(0.1, False)  # the press settled at 0.0: the release came 0.1 s after it
    assert fired == ["short"]
    clock.advance(5)
    assert fired == ["short"] and detector.presses == detector.releases == 1


def test_when_the_hold_check_is_late_the_release_timestamp_decides():
    clock = FakeClock()
    fired = []
    detector = PressDetector(
        bounce_time=BOUNCE,
        hold_time=HOLD,
        scheduler=clock,
        on_short=lambda: fired.append("short"),
        on_long=lambda: fired.append("long"),
        on_long_release=lambda: fired.append("long released"),
    )
    # both edges reach the detector at once, after the fact (a starved callback thread), before any check
    detector.edge(0.0, True)
    detector.edge(0.5, False)
    clock.advance(5)
    detector.edge(6.0, True)
    detector.edge(7.0, False)
    clock.advance(5)
    assert fired == ["short", "long", "long released"]


def test_a_switch_held_at_start_up_counts_no_press():
    clock = FakeClock()
    fired = []
    detector = PressDetector(
        bounce_time=BOUNCE,
        hold_time=HOLD,
        scheduler=clock,
        pressed=True,
        on_short=lambda: fired.append("short"),
        on_long=lambda: fired.append("long"),
    )
    clock.advance(2)
    detector.edge(2.0, False)
    clock.advance(1)
    assert fired == [] and detector.releases == 1 and detector.presses == 0


def test_a_failing_action_is_logged_and_the_next_press_still_counts(caplog):
    clock = FakeClock()
    fired = []

    def action():
        fired.append("short")
        if len(fired) == 1:
            raise RuntimeError("panel bus gone")

    detector = PressDetector(bounce_time=BOUNCE, hold_time=HOLD, scheduler=clock, on_short=action)
    for start in (0.0, 1.0):
        detector.edge(start, True)
        clock.advance(0.5)
        detector.edge(start + 0.5, False)
        clock.advance(0.5)
    assert fired == ["short", "short"] and "panel bus gone" in caplog.text


# -- the scheduler thread -------------------------------------------------------------------------------------


def wait_for(condition, what: str, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.005)


def test_the_scheduler_runs_calls_in_time_order_on_one_thread_and_skips_cancelled_ones(caplog):
    scheduler = SchedulerThread()
    ran: list[tuple[str, int]] = []
    try:
        now = scheduler.now()
        for name, delay in (("c", 0.06), ("a", 0.02), ("b", 0.04), ("x", 0.03)):
            call = scheduler.call_at(now + delay, lambda name=name: ran.append((name, threading.get_ident())))
            if name == "x":
                call.cancel()
        scheduler.call_at(now + 0.01, lambda: 1 / 0)  # logged; the thread goes on
        wait_for(lambda: len(ran) == 3, "three calls")
        assert [name for name, _ in ran] == ["a", "b", "c"]
        assert len({ident for _, ident in ran}) == 1 and ran[0][1] != threading.get_ident()
        assert "ZeroDivisionError" in caplog.text
    finally:
        scheduler.close()
        scheduler.close()
    late = scheduler.call_later(0, lambda: ran.append(("late", 0)))
    assert late.cancelled and len(ran) == 3  # after close: ignored


def test_one_scheduler_thread_serves_every_button_however_many_presses():
    """The old board started a timer thread per edge, and gpiozero's Button a hold thread per button."""
    posted = []
    before = set(threading.enumerate())
    factory = MockFactory()
    buttons = ButtonBoard(default_config(), posted.append, TV_WARS.button_command, pin_factory=factory)
    try:
        buttons.seat_players(["ABS", "CBA"])
        new_threads = set()
        for _ in range(5):
            for pin in (17, 27, 23, 24):  # ABS and CBA: on the air, sponsor (each acts at the press)
                count = len(posted)
                factory.pin(pin).drive_low()
                wait_for(lambda: len(posted) == count + 1, f"the press on GPIO {pin} posted")
                new_threads |= set(threading.enumerate()) - before
                factory.pin(pin).drive_high()
                wait_for(lambda: buttons.detectors[pin].idle, f"the release on GPIO {pin} settled")
                new_threads |= set(threading.enumerate()) - before
        assert len(new_threads) == 1, new_threads
        assert (
            posted
            == [
                PassOnTheAir(network="ABS", source="button"),
                LandOnSponsor(network="ABS", source="button"),
                PassOnTheAir(network="CBA", source="button"),
                LandOnSponsor(network="CBA", source="button"),
            ]
            * 5
        )
    finally:
        buttons.close()
    wait_for(lambda: not (set(threading.enumerate()) - before), "the scheduler thread to stop")


def test_a_board_judges_edges_it_hears_of_late_by_their_stamps():
    """Edges stamped when they happened but heard of seconds later (lgpio's thread starved) still give
    the presses they were: a short roll, then a long one (a peek)."""
    clock = FakeClock()
    factory = StampedFactory(clock)
    posted, peeks = [], []
    buttons = ButtonBoard(default_config(), posted.append, TV_WARS.button_command, pin_factory=factory, scheduler=clock)
    try:
        buttons.seat_players(["ABS", "CBA"])
        buttons.on_peek = lambda seat, player, held: peeks.append((player, held))
        clock.advance(5)
        pin = factory.pin(22)  # ABS's roll button: long = "peek"
        pin.drive_low(at=1.0)
        pin.drive_high(at=1.01)  # chatter
        pin.drive_low(at=1.02)
        pin.drive_high(at=1.3)  # a 0.28 s press, heard of at 5 s
        clock.advance(1)
        pin.drive_low(at=7.0)
        pin.drive_high(at=8.5)  # a 1.5 s press, heard of only when it was over
        clock.advance(1)
        assert len(posted) == 1 and posted[0].roller == "ABS"
        assert peeks == [("ABS", True), ("ABS", False)]
    finally:
        buttons.close()


@pytest.mark.parametrize("bounce", [0.0, BOUNCE])
def test_zero_or_default_bounce_on_the_real_scheduler_gives_one_press(bounce):
    posted = []
    factory = MockFactory()
    buttons = ButtonBoard(
        replace(default_config(), bounce_time=bounce), posted.append, TV_WARS.button_command, pin_factory=factory
    )
    try:
        buttons.seat_players(["ABS", "CBA"])
        factory.pin(17).drive_low()
        wait_for(lambda: posted, "the press posted")
        factory.pin(17).drive_high()
        wait_for(lambda: buttons.detectors[17].idle, "the release settled")
        assert posted == [PassOnTheAir(network="ABS", source="button")]
    finally:
        buttons.close()
