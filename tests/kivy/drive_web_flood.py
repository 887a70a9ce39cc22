"""The real Kivy kiosk with ``[web] enabled`` while its web server is flooded (issue 20, item 4: "malformed,
oversized and flooding clients (hundreds of connections, slow clients) leave the kiosk's frame time and the
buttons unaffected"): the kiosk's side of tests/test_web_kiosk.py's flood test.

Usage: ``python drive_web_flood.py DATA_DIR OUT_DIR PORT``. A two-network TV Wars game; a callback on every Kivy
frame records the time between frames (the main thread draws the screen and applies the buttons' commands, so a
web server that held it up would show here) and a table listener the time each button command is applied. Then:

1. ``OUT_DIR/ready.json`` (the base URL and ABS's pairing link, as the Phones dialog gives it); the test connects
   one well-behaved spectator and says so (``OUT_DIR/watching``), so that snapshots are built in both phases;
2. *quiet*: three seconds of frames while the touchscreen makes a move every 50 ms (bank corrections: each one
   a snapshot pushed to every client), then ten presses of ABS's Sponsor key (the simulator's key drives the
   button's mock pin: debounce, the board's thread, the table's inbox, as on a Pi); ``OUT_DIR/quiet-done``;
3. the test floods the server and says so (``OUT_DIR/flooding``); *flood*: the same frames and moves, until the
   server has also closed the seat's phone that never reads (once its buffers are full: ``SEND_TIMEOUT`` is
   1 s here, ``COMPANION_WEB_LIMITS`` in the environment the server's process inherits), then the same presses;
4. ``OUT_DIR/result.json``: frame intervals and press latencies per phase (ms), the connections the server held
   during the flood, the presses the table applied.
"""

import dataclasses
import json
import os
import sys
import time
from pathlib import Path

import harness  # first: it sets Kivy's environment and builds nothing yet
from harness import Retry, until

from companion.config import WebSection  # noqa: E402

PORT = int(sys.argv[3])
OUT = Path(sys.argv[2])
PRESSES = 10
SECONDS = 3.0


# a client that takes more than a second for a message is closed (the kiosk's is 10 s): within a test's time. The
# server runs in a process of its own, which reads this (web.worker) and inherits it from the kiosk
os.environ["COMPANION_WEB_LIMITS"] = "SEND_TIMEOUT=1"


def configure(config, flags):
    return dataclasses.replace(config, web=WebSection(enabled=True, address="127.0.0.1", port=PORT))


driver = harness.Driver(prefix="web-flood-", configure=configure, argv=sys.argv[1:3])
controller, result = driver.controller, driver.result
state = {"phase": "", "last": None, "since": 0.0, "moves": 0}
frames: dict[str, list[float]] = {"quiet": [], "flood": []}
presses: dict[str, list[float]] = {"quiet": [], "flood": []}
applied: list[float] = []
marks: list[float] = []
held: list[dict] = []


def frame(dt) -> None:
    now = time.perf_counter()
    if state["last"] is not None and state["phase"] in frames:
        frames[state["phase"]].append(now - state["last"])
    state["last"] = now


def heard(table, outcome) -> None:
    if outcome.command.source == "button":
        applied.append(time.perf_counter())


def setup() -> None:
    from kivy.clock import Clock

    from companion.commands import NewGame, PlayerSeat

    outcome = controller.table.execute(
        NewGame(game="tv-wars", players=(PlayerSeat("ABS"), PlayerSeat("CBA")), options={"roll_off": False})
    )
    assert outcome.accepted, outcome.message
    controller.table.subscribe(heard)
    Clock.schedule_interval(frame, 0)  # every frame


def listening() -> None:
    until(lambda: controller.web is not None and controller.web.listening, "the web server to listen")


def begin(phase: str):
    def step() -> None:
        state.update(phase=phase, since=time.perf_counter(), last=None)

    return step


def frames_for(phase: str, moves: bool, until_slow_closed: bool = False):
    """A step that lasts :data:`SECONDS` of frames; with ``moves``, the touchscreen makes a move every 50 ms; with
    ``until_slow_closed``, also until the server has closed the seat's phone that never reads (its buffers full:
    the moves' snapshots are what fill them)."""

    def step() -> None:
        if moves:  # the step runs again every 50 ms while it waits
            from companion.commands import BANK, TransferMoney

            state["moves"] += 1
            done = controller.table.execute(
                TransferMoney(payer=BANK, payee="CBA", amount=100, reason=f"flood {state['moves']}", correction=True)
            )
            assert done.accepted, done.message
            held.append(controller.web.counts())
        if time.perf_counter() - state["since"] < SECONDS:
            raise Retry(f"{SECONDS} s of {phase} frames")
        if until_slow_closed:
            if not result.get("slow_seen"):
                result["slow_seen"] = any(h["seats"] for h in held)
            if not result["slow_seen"] or controller.web.counts()["seats"]:
                raise Retry("the server to close the seat's phone that never reads")
            result["slow_closed_after_s"] = round(time.perf_counter() - state["since"], 1)

    return step


def press_steps(phase: str) -> list:
    steps = []
    for _ in range(PRESSES):
        start: dict = {}

        def mark(start=start) -> None:
            start["heard"] = len(applied)
            marks.append(time.perf_counter())

        def measure(start=start) -> None:
            until(lambda: len(applied) > start["heard"], "the press to be applied")
            presses[phase].append(applied[start["heard"]] - marks[-1])

        steps += [mark, *driver.seat_press(0, "sponsor"), measure]
    return steps


def announce() -> None:
    until(lambda: controller.web.current, "the web server's process to have the game's tokens")
    ready = {"base": f"http://127.0.0.1:{PORT}", "link": controller.web.seat_link("ABS")}
    (OUT / "ready.json.tmp").write_text(json.dumps(ready))
    (OUT / "ready.json.tmp").replace(OUT / "ready.json")


def told(name: str, what: str):
    """A step waiting until the test has written ``OUT_DIR/<name>``."""

    def step() -> None:
        if not (OUT / name).exists():
            raise Retry(what)

    return step


def tell(name: str):
    def step() -> None:
        (OUT / name).write_text("")

    return step


def finish() -> None:
    result["frames_ms"] = {k: [round(x * 1000, 2) for x in v] for k, v in frames.items()}
    result["presses_ms"] = {k: [round(x * 1000, 2) for x in v] for k, v in presses.items()}
    result["held"] = held
    result["moves"] = state["moves"]
    result["applied"] = len(applied)
    publisher = controller.web.publisher
    if publisher.stale:
        raise Retry("the last move's snapshot")
    result["version"] = publisher.latest.version


steps = [
    setup,
    listening,
    announce,
    told("watching", "the test's spectator to connect"),
    begin("quiet"),
    frames_for("quiet", moves=True),
    *press_steps("quiet"),
    begin("waiting"),
    tell("quiet-done"),
    told("flooding", "the test to flood the web server"),
    begin("flood"),
    frames_for("flood", moves=True, until_slow_closed=True),
    *press_steps("flood"),
    begin("done"),
    lambda: until(lambda: not controller.web.publisher.stale, "the last move's snapshot"),
    lambda: until(lambda: controller.web.counts()["table"] >= 1, "the spectator"),
    finish,
]
driver.run(steps, timeout=120)
