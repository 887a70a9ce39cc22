"""Moves reach the player panels straight from the table, and button presses wake the app, in the real Kivy app.

Run by tests/test_kivy_panels.py in a subprocess with a display (Xvfb). Usage: ``python drive_panels.py DATA_DIR
OUT_DIR``. A two-network TV Wars game (no roll-off), then:

1. ``committed``: a move applied on the main thread. A table listener subscribed after the app's hears it; by
   then the panel worker has been handed the new views: once it is idle its frame for ABS is the panel view of
   the new state, though the screens have not been refreshed since the move (``refreshes`` counts
   ``controller.refresh`` calls).
2. ``pressed``: the app's 1/30 s drain tick is cancelled, then ABS's On the Air mock pin is pressed from another
   thread (as gpiozero's callback thread does) and held until the move is heard. Nothing but the press's own
   wake-up (``ui.app.wake_trigger``) drains the buttons' queue now, so the move being applied at all shows it.

Not through ``Driver.run``: its runner drains the queue before every step, which would hide a missing wake-up.
Writes ``OUT_DIR/result.json``.
"""

import threading
import time
import traceback

import harness  # first: it sets Kivy's environment and builds nothing yet

driver = harness.Driver(prefix="panels-")
controller, result = driver.controller, driver.result

from kivy.clock import Clock  # noqa: E402
from PIL import ImageChops  # noqa: E402

from companion.commands import NewGame, PlayerSeat  # noqa: E402
from companion.games.tv_wars import PassOnTheAir  # noqa: E402
from hardware.panels import render_player_panel  # noqa: E402

TIMEOUT = 30.0
refreshes: list[float] = []
_refresh = controller.refresh
controller.refresh = lambda: (refreshes.append(time.monotonic()), _refresh())[1]
heard: list[dict] = []
pressed_heard = threading.Event()


def after_the_app(table, outcome) -> None:
    """Subscribed after the controller: what the panels were handed by the time the move is heard."""
    idle = controller.panels.wait_idle(timeout=TIMEOUT)
    _, frames = controller.panels.frames()
    view = controller.panel_views()[0]
    heard.append(
        {
            "source": outcome.command.source,
            "accepted": outcome.accepted,
            "idle": idle,
            "refreshes": len(refreshes),
            "balance": view.balance,
            "frame_is_view": ImageChops.difference(frames[0], render_player_panel(view)).getbbox() is None,
            "main_thread": threading.current_thread() is threading.main_thread(),
        }
    )
    if outcome.command.source == "button":
        pressed_heard.set()


def fail(where: str) -> None:
    result["errors"].append(f"{where}: {traceback.format_exc()}")
    finish()


def finish() -> None:
    driver.write_result()
    driver.app.stop()


def poll(condition, what: str, then) -> None:
    """Check ``condition()`` every frame-ish (50 ms) until it holds, then call ``then()``; give up after
    :data:`TIMEOUT` seconds with an error naming ``what`` was awaited."""
    started = time.monotonic()

    def check(dt) -> bool:
        try:
            if condition():
                then()
                return False
        except Exception:
            fail(what)
            return False
        if time.monotonic() - started > TIMEOUT:
            result["errors"].append(f"gave up after {TIMEOUT} s waiting for {what}")
            finish()
            return False
        return True

    Clock.schedule_interval(check, 0.05)


def panel_shows_the_game() -> bool:
    """The panels are attached (just after the first frames), the dashboard is up and ABS's panel shows ABS's
    view (the Home screen's words on it are gone)."""
    if not driver.app.hardware_ready.is_set():
        return False
    if controller.screens.current != "dashboard" or not controller.panels.wait_idle(timeout=0.02):
        return False
    _, frames = controller.panels.frames()
    view = controller.panel_views()[0]
    return ImageChops.difference(frames[0], render_player_panel(view)).getbbox() is None


def new_game(dt) -> None:
    try:
        controller.table.execute(
            NewGame(game="tv-wars", players=(PlayerSeat("ABS"), PlayerSeat("CBA")), options={"roll_off": False})
        )
        poll(panel_shows_the_game, "the dashboard, and ABS's panel showing the game", lambda: committed(0))
    except Exception:
        fail("new game")


def committed(dt) -> None:
    try:
        table = controller.table
        table.subscribe(after_the_app)
        before = len(refreshes)
        table.execute(PassOnTheAir(network="ABS", source="touch"))  # $31,000 → $34,000
        result["committed"] = {**heard[-1], "refreshes_before": before}
        press(0)
    except Exception:
        fail("committed")


def press(dt) -> None:
    try:
        driver.app.drain_tick.cancel()  # from now on only a wake-up applies what the buttons post
        result["tick_cancelled"] = not driver.app.drain_tick.is_triggered
        pin = controller.buttons.factory.pin(17)  # ABS's On the Air (config defaults)

        def finger() -> None:
            pin.drive_low()
            pressed_heard.wait(TIMEOUT)  # held until the move is applied (no long action: acts on settling)
            pin.drive_high()

        threading.Thread(target=finger, name="finger", daemon=True).start()

        def pressed() -> None:
            result["pressed"] = next(h for h in heard if h["source"] == "button")
            result["pressed"]["balance_now"] = controller.table.view().players[0].balance
            finish()

        poll(pressed_heard.is_set, "the press to be applied with the tick cancelled", pressed)
    except Exception:
        fail("press")


driver.app.bind(on_start=lambda *_: Clock.schedule_once(new_game, 0))
driver.app.run()
driver.journal.close()
