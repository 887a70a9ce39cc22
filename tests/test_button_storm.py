"""Nothing lost, ever: 5,000 bouncing presses on every seat's buttons while the UI thread stalls and another
thread burns CPU. Every press is journaled once, in order, and long presses are told from short ones.

Real parts throughout: a :class:`~hardware.buttons.ButtonBoard` on gpiozero mock pins with its one scheduler
thread; a :class:`~companion.table.Table` on an SQLite journal file, owned by a thread that acts as the Kivy
clock (drains the table 30 times a second, but at random, seeded, first stalls up to 200 ms in busy Python
vying for the GIL); a thread keeping a core busy. The pins are :class:`fakeclock.StampedPin`: a presser
thread drives them from a seeded plan, each edge stamped with the time the plan gave it, as lgpio hands on
the kernel's timestamp of an edge that Python hears of later. When the presser runs late (it shares the GIL
with the UI thread), its edges arrive late, in bursts, but keep their times.

The CPU burner hashes (C code, outside the GIL) rather than looping in Python: beside a Python loop every
journal commit waits for the GIL after its fsync, the table applies ~100 commands a second instead of
~1,500, and draining 5,000 presses would take longer than pressing them (a table matter, not the buttons').

Bounce and hold times are compressed (``BOUNCE``, ``HOLD``) so 5,000 presses take about 25 s; every press
bounces 0–2 times at its start and at its end, each chatter edge within ``CHATTER`` of the one before.
Short presses end well before ``HOLD``, long ones well after it. One thing no detector can know is exempt:
a short press whose release was *delivered* ``HOLD`` or more after its press was (the presser starved)
has already fired its long action while it looked held (see :mod:`hardware.debounce`); such presses must
still count once, but may count as long. The test prints how many there were.

What each button does (so each journal row or peek names its button and kind):

* each seat's ``on_the_air`` and ``sponsor``: no long action; the press acts at once, held or not;
* each seat's ``roll``: ``long = "peek"``: short → a ``roll`` command, long → a peek (display only);
* the table's ``undo``: ``long = "redo"``: short → Undo, long → Redo.

Player commands are bank payments whose reason names the action and a serial number taken when the
command was made, so the journal itself shows which presses arrived and in what order.
"""

from __future__ import annotations

import hashlib
import itertools
import random
import statistics
import threading
import time
from dataclasses import dataclass, replace

from conftest import NETWORKS, read_events, start_tv_wars
from fakeclock import StampedFactory

from companion.commands import BANK, Redo, TransferMoney, Undo
from companion.config import parse_config
from companion.dice import SeededDice
from companion.games.tv_wars.bank import MONEY_MOVED
from companion.journal import Journal
from companion.table import Table
from hardware.buttons import ButtonBoard

PRESSES = 5_000
SEED = 20_261_231
BOUNCE = 0.010  # hardware.bounce_time for the test (default 0.03)
HOLD = 0.080  # hardware.hold_time for the test (default 0.8)
CHATTER = 0.003  # at most this between two edges of one bounce
SHORT = (0.016, 0.030)  # seconds held: from the press's last edge to the release's first
LONG = (0.100, 0.120)
GAP = (0.012, 0.018)  # released, from the release's last edge to the next press
UI_STALL = 0.200  # the UI thread's longest stall
SETTLE_TIMEOUT = 30.0  # after the last edge, for the last decisions to reach the journal

SEAT_PINS = ((17, 27, 22), (23, 24, 25), (12, 16, 20), (13, 19, 26))
UNDO_PIN = 5


def storm_config():
    players = [
        {"name": name, "buttons": {"on_the_air": {"pin": a}, "sponsor": {"pin": s}, "roll": {"pin": r, "long": "peek"}}}
        for name, (a, s, r) in zip(NETWORKS, SEAT_PINS)
    ]
    config = parse_config({"players": players, "table_buttons": {"undo": {"pin": UNDO_PIN, "long": "redo"}}})
    return replace(config, bounce_time=BOUNCE, hold_time=HOLD)  # below the file's limits: compressed time


@dataclass(frozen=True)
class Button:
    pin: int
    seat: int | None  # None: the table's undo button
    action: str
    has_long: bool


BUTTONS = tuple(
    Button(pin, seat, action, action == "roll")
    for seat, pins in enumerate(SEAT_PINS)
    for pin, action in zip(pins, ("on_the_air", "sponsor", "roll"))
) + (Button(UNDO_PIN, None, "undo", True),)


@dataclass
class Edge:
    at: float  # when the level changed: the edge's ticks
    pin: int
    pressed: bool
    arrived: float = 0.0  # when the presser delivered it


@dataclass
class Press:
    button: Button
    kind: str  # "short" or "long" ("short" for every press of a button without a long action)
    down: list[Edge]  # the press and its chatter
    up: list[Edge]  # the release and its chatter

    def release_too_late(self) -> bool:
        """A short press whose release (to its last chatter edge) arrived ``HOLD`` or more after its press
        did: too late for anyone to tell it from a long press while it seemed held."""
        return (
            self.kind == "short" and self.button.has_long and self.up[-1].arrived - self.down[0].arrived >= HOLD - 0.001
        )

    def chatter_too_late(self) -> bool:
        """Some chatter edge arrived ``BOUNCE`` or more after the edge before it: its bounce could have
        read as a settled level."""
        return any(b.arrived - a.arrived >= BOUNCE for burst in (self.down, self.up) for a, b in zip(burst, burst[1:]))


def plan(rng: random.Random, start: float) -> tuple[list[Edge], list[Press]]:
    """The presses (each button's in order) and all their edges in time order."""
    presses = []
    for index, button in enumerate(BUTTONS):
        count = PRESSES // len(BUTTONS) + (index < PRESSES % len(BUTTONS))
        t = start + rng.uniform(0, GAP[1])
        for _ in range(count):
            long = rng.random() < (0.25 if button.has_long else 0.05)
            bursts = []
            for level in (True, False):  # the press, then the release, each with its chatter
                burst = [Edge(t, button.pin, level)]
                for _ in range(rng.randrange(3)):
                    t += rng.uniform(CHATTER / 6, CHATTER)
                    burst.append(Edge(t, button.pin, not level))
                    t += rng.uniform(CHATTER / 6, CHATTER)
                    burst.append(Edge(t, button.pin, level))
                bursts.append(burst)
                t += rng.uniform(*(LONG if long else SHORT)) if level else rng.uniform(*GAP)
            presses.append(Press(button, "long" if long and button.has_long else "short", *bursts))
    edges = sorted((edge for press in presses for edge in press.down + press.up), key=lambda e: e.at)
    return edges, presses


def wait_for(condition, timeout: float, what: str) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            print(f"timed out after {timeout:.0f} s waiting for {what}")
            return False
        time.sleep(0.01)
    return True


def tally(expected: list[Press], got: list[str]) -> tuple[int, int, int]:
    """``(lost, doubled, wrong kind)`` for one button: presses missing, presses too many, and (when the
    counts agree) presses of the wrong kind, not counting a short press whose release came too late to tell."""
    lost, doubled = max(0, len(expected) - len(got)), max(0, len(got) - len(expected))
    wrong = (
        0
        if lost or doubled
        else sum(kind != press.kind and not press.release_too_late() for press, kind in zip(expected, got))
    )
    return lost, doubled, wrong


def test_five_thousand_bouncing_presses_under_load_are_each_journaled_once_in_order(tmp_path):
    journal = Journal(tmp_path / "journal.sqlite3")
    table = Table(journal, dice=SeededDice(1))
    serial = itertools.count()
    posted, peeks, table_outcomes = [], [], []
    stop = threading.Event()
    ready = threading.Event()
    game: list[int] = []
    errors: list[BaseException] = []

    def command_for(action: str, player: str):
        return TransferMoney(payer=BANK, payee=player, amount=100, reason=f"{action} #{next(serial)}", source="button")

    def post(command) -> None:
        posted.append(command)
        table.post(command)

    def ui_thread() -> None:  # the Kivy clock: drains the table at 30 Hz, stalling at random
        try:
            rng = random.Random(SEED + 1)
            table.claim()
            game.append(start_tv_wars(table, 4, roll_off=False))
            table.subscribe(lambda t, outcome: table_outcomes.append(outcome))
            ready.set()
            while not stop.is_set():
                if rng.random() < 0.3:
                    busy_until = time.monotonic() + rng.uniform(0, UI_STALL)
                    while time.monotonic() < busy_until:  # layout, drawing: busy Python, vying for the GIL
                        sum(i * i for i in range(200))
                else:
                    time.sleep(1 / 30)
                table.process_pending()
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)
            ready.set()

    def burner() -> None:  # a core kept busy, mostly outside the GIL (hashing, as C code does)
        block = bytes(range(256)) * 4096
        while not stop.is_set():
            hashlib.sha256(block).digest()

    ui = threading.Thread(target=ui_thread, name="ui")
    ui.start()
    assert ready.wait(30), "the UI thread did not start the game"
    assert not errors, errors
    burn = threading.Thread(target=burner, name="burner")
    burn.start()

    factory = StampedFactory()
    board = ButtonBoard(storm_config(), post, command_for, pin_factory=factory)
    try:
        board.seat_players(NETWORKS)
        board.on_peek = lambda seat, player, held: peeks.append((seat, held, next(serial)))
        edges, presses = plan(random.Random(SEED), time.monotonic() + 0.2)
        pins = {button.pin: factory.pin(button.pin) for button in BUTTONS}

        def presser() -> None:  # the switches and lgpio's callback thread in one
            for edge in edges:
                wait = edge.at - time.monotonic()
                if wait > 0:
                    time.sleep(wait)
                edge.arrived = time.monotonic()
                pin = pins[edge.pin]
                (pin.drive_low if edge.pressed else pin.drive_high)(at=edge.at)

        press_thread = threading.Thread(target=presser, name="presser")
        started = time.monotonic()
        press_thread.start()
        press_thread.join(timeout=300)
        pressing = time.monotonic() - started
        settled = wait_for(
            lambda: all(d.idle for d in board.detectors.values()) and len(table_outcomes) == len(posted),
            SETTLE_TIMEOUT,
            "every detector idle and every posted command applied by the UI thread",
        )
    finally:
        stop.set()
        ui.join(timeout=60)
        burn.join(timeout=10)
        board.close()
    assert not errors, errors
    assert not press_thread.is_alive(), "the presser did not finish"

    # -- what reached the journal and the peeks, button by button ------------------------------------------
    rows = [r for r in read_events(journal.path, game[0]) if r["type"] == MONEY_MOVED]
    journal.close()
    by_reason = {}
    for row in rows:
        action, number = row["payload"]["reason"].split(" #")
        by_reason.setdefault((row["payload"]["payee"], action), []).append(int(number))
    observed: dict[int, list[str]] = {}
    for button in BUTTONS:
        if button.seat is None:
            observed[button.pin] = [
                "short" if isinstance(o.command, Undo) else "long"
                for o in table_outcomes
                if isinstance(o.command, (Undo, Redo))
            ]
            continue
        numbers = by_reason.get((NETWORKS[button.seat], button.action), [])
        assert numbers == sorted(numbers), f"{NETWORKS[button.seat]} {button.action}: journaled out of order"
        events = [(n, "short") for n in numbers]
        if button.has_long:
            seat_peeks = sorted((n, held) for seat, held, n in peeks if seat == button.seat)
            assert [held for _, held in seat_peeks] == [True, False] * (len(seat_peeks) // 2), (
                f"seat {button.seat + 1}: every peek shown must be hidden once, before the next"
            )
            events += [(n, "long") for n, held in seat_peeks if held]
        observed[button.pin] = [kind for _, kind in sorted(events)]

    counts = {b.pin: tally([p for p in presses if p.button is b], observed[b.pin]) for b in BUTTONS}
    lost, doubled, wrong = (sum(c[i] for c in counts.values()) for i in range(3))
    lags = sorted(edge.arrived - edge.at for edge in edges)
    summary = (
        f"{len(presses)} presses ({sum(p.kind == 'long' for p in presses)} long) on {len(BUTTONS)} "
        f"buttons in {pressing:.1f} s: {lost} lost, {doubled} doubled, {wrong} long/short mixed up; "
        f"edges delivered late by median {statistics.median(lags) * 1000:.1f} ms, "
        f"99th percentile {lags[len(lags) * 99 // 100] * 1000:.0f} ms, max {lags[-1] * 1000:.0f} ms; "
        f"releases too late to tell from a hold: {sum(p.release_too_late() for p in presses)}, "
        f"presses with chatter delivered too late: {sum(p.chatter_too_late() for p in presses)}"
    )
    print(summary)
    assert len(presses) == PRESSES
    assert settled, summary
    assert (lost, doubled, wrong) == (0, 0, 0), (
        summary + "; (lost, doubled, wrong) by pin: " + ", ".join(f"{pin}: {c}" for pin, c in counts.items() if any(c))
    )
    # every posted command was applied once, and every bank payment is in the journal once
    assert all(o.accepted for o in table_outcomes if isinstance(o.command, TransferMoney))
    payments = sorted(c.reason for c in posted if isinstance(c, TransferMoney))
    assert sorted(r["payload"]["reason"] for r in rows) == payments
