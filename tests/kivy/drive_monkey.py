"""A seeded "monkey" in the real Kivy app: start one game from the home screen's picker, then make a few hundred
random taps and key presses, and record every exception and every error logged on the way.

Run by tests/test_kivy_monkey.py in a subprocess with a display (Xvfb). Usage:
``python drive_monkey.py DATA_DIR OUT_DIR GAME SEED ACTIONS``. Writes screenshots
(``monkey-<game>-<seed>-*.png``) into OUT_DIR and a ``result.json`` holding, besides the harness's
``steps``/``errors``:

* ``crashes``: an action that raised (where a kiosk would have crashed), with its traceback and the actions
  before it; ``exceptions``: what reached Kivy's ExceptionManager (a clock callback that raised);
  ``logged``: log records at ERROR or above;
* ``actions``: every action taken, in order (to reproduce a failure: same game, seed and count);
* ``checks``: after the run, whether one more tap still worked and whether replaying the journal gives the
  table's state (``replay_equal``), for the open game; ``replay_problems`` for every game in the journal.

The monkey's actions, chosen with ``random.Random(SEED)``:

* tap a random visible, enabled widget with ``on_release`` (buttons, toggle buttons, board cells) on the
  current screen, or inside the open dialog when there is one (what a finger could reach);
* press a random seat key (``q w e a s d z x c u i o``), or undo (backspace) / redo (``=``);
* tap the message bar (it opens the whole message); roll the dice when the "Roll" button asks;
* sometimes tap a widget twice at once (an impatient finger: the second tap lands before the screen has
  caught up with the first);
* rarely: roll into the simulated dice reader's tray (``t``), or tap a random point of the screen (which
  also taps outside an open dialog).

"Home" is tapped only rarely (about one tap in a hundred), so the monkey stays mostly in its game; from the
home screen it may resume a saved game or start another one, which is fine (the checks cover every game in
the journal). "Export" and "End game" (on the history screen) are left in: Export only writes files next to
the journal, and exporting half-played, oddly undone games is worth exercising; End game asks first and Undo
reopens the game, so both are inputs a player can make and must not crash anything. The kiosk exit gestures
(both top corners held for 3 s, or the top-left one for the exit PIN) never happen: every tap is released at
once, and the monkey never holds two touches.
"""

import logging
import random
import traceback

import harness  # first: it sets Kivy's environment and builds nothing yet
from harness import Retry, find, key, tap, until

from companion.session import GameSession

#: Kivy's own complaint, at the first text field tapped, that neither xclip nor xsel is installed (Linux
#: middle-click paste): about the machine's packages, not the app; the text field works without them.
HARMLESS_KIVY = (
    "Cutbuffer: Unable to find any valuable Cutbuffer provider",
    "Clipboard: Unable to find any valuable Clipboard provider",
)


class _ErrorLog(logging.Handler):
    """Records every log record at ERROR or above (a logged exception, a display problem)."""

    def __init__(self, sink: list) -> None:
        super().__init__(level=logging.ERROR)
        self.sink = sink

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.startswith("kivy") and record.getMessage().startswith(HARMLESS_KIVY):
            return
        text = f"{record.levelname} {record.name}: {record.getMessage()}"
        if record.exc_info:
            text += "\n" + "".join(traceback.format_exception(*record.exc_info))
        self.sink.append(text)


logged: list[str] = []
logging.getLogger().addHandler(_ErrorLog(logged))

driver = harness.Driver()
GAME, SEED, ACTIONS = driver.flags[0], int(driver.flags[1]), int(driver.flags[2])
driver.prefix = f"monkey-{GAME}-{SEED}-"
controller, result = driver.controller, driver.result
result.update(
    game=GAME,
    seed=SEED,
    crashes=[],
    exceptions=[],
    logged=logged,
    actions=[],
    checks={},
    outcomes={"accepted": 0, "refused": 0},
)

from kivy.base import ExceptionHandler, ExceptionManager  # noqa: E402  (after the app is built)
from kivy.core.window import Window  # noqa: E402
from kivy.uix.modalview import ModalView  # noqa: E402
from kivy.uix.scrollview import ScrollView  # noqa: E402


class _Recorder(ExceptionHandler):
    """An exception that reached Kivy's main loop: record it and go on (PASS), so the run can report it."""

    def handle_exception(self, inst):
        result["exceptions"].append(
            {
                "after_action": len(result["actions"]),
                "last_actions": result["actions"][-12:],
                "traceback": "".join(traceback.format_exception(inst)),
            }
        )
        return ExceptionManager.PASS


ExceptionManager.add_handler(_Recorder())
controller.table.subscribe(
    lambda table, outcome: result["outcomes"].__setitem__(
        "accepted" if outcome.accepted else "refused",
        result["outcomes"]["accepted" if outcome.accepted else "refused"] + 1,
    )
)

# The readings the roll tray has taken from the dice readers' port (each becomes an answer or a held roll), so
# the end of the run can wait until every reading a reader delivered has reached the table.
taken = [0]


def _counting_take(take=controller.tray.port.take):
    values = take()
    taken[0] += values is not None
    return values


controller.tray.port.take = _counting_take

rng = random.Random(SEED)
SEAT_KEYS = "qweasdzxcuio"


# --- what a finger can reach ---------------------------------------------------------------------------------


def top_dialog():
    """The open dialog on top (a ModalView is a child of the window), or None."""
    return next((w for w in Window.children if isinstance(w, ModalView)), None)


def shown(widget) -> bool:
    """Drawn, not transparent, not zero-sized, and its centre inside the window and every scrolling ancestor's
    visible box (so a tap at its centre reaches it). In the simulator a dialog sized to the window also
    covers the panel strip below the touchscreen (the strip itself has nothing to tap)."""
    if widget.width <= 1 or widget.height <= 1:
        return False
    x, y = widget.to_window(*widget.center)
    if not (0 <= x < Window.width and 0 <= y < Window.height):
        return False
    node = widget
    while node is not None and node is not Window:
        if getattr(node, "opacity", 1) <= 0:
            return False
        if isinstance(node, ScrollView) and node is not widget:
            left, bottom = node.to_window(node.x, node.y)
            if not (left <= x < left + node.width and bottom <= y < bottom + node.height):
                return False
        node = node.parent
    return True


def tappables(root):
    """Every visible, enabled widget under ``root`` with ``on_release`` whose centre a tap reaches."""
    found, stack = [], [root]
    while stack:
        widget = stack.pop()
        if getattr(widget, "disabled", False):
            continue  # a disabled parent disables its children too
        if widget is not root and hasattr(widget, "on_release") and harness.visible(widget) and shown(widget):
            found.append(widget)
        stack.extend(widget.children)
    return found


def label_of(widget) -> str:
    text = getattr(widget, "text", "")
    text = text if isinstance(text, str) else ""
    return f"{type(widget).__name__}:{text.splitlines()[0][:40] if text else ''}"


# --- the monkey's actions ------------------------------------------------------------------------------------

#: Buttons that leave a dialog or a screen, or go back in time, are tapped less often than the rest, so the
#: monkey gets deeper into a game than a uniform choice would (it still taps them plenty).
LESS_OFTEN = ("Cancel", "Close", "Go back", "Back", "History", "Undo", "End game")


#: After this many taps in one dialog the monkey is a lost player: it leaves (Cancel, Close) far more often.
LOST_AFTER = 20
_in_dialog: dict = {"dialog": None, "taps": 0}


def weight(widget, lost: bool = False) -> float:
    text = getattr(widget, "text", "")
    if type(widget).__name__ == "HistoryRow" or (isinstance(text, str) and text.startswith(LESS_OFTEN)):
        return 5.0 if lost else 0.3
    return 1.0


def act_tap_widget() -> str:
    dialog = top_dialog()
    if dialog is not _in_dialog["dialog"]:
        _in_dialog.update(dialog=dialog, taps=0)
    _in_dialog["taps"] += 1
    lost = dialog is not None and _in_dialog["taps"] > LOST_AFTER
    candidates = tappables(dialog if dialog is not None else Window)
    home = [w for w in candidates if getattr(w, "text", None) == "Home"]
    if home and rng.random() >= 0.01:  # Home only rarely
        candidates = [w for w in candidates if w not in home]
    if not candidates:
        return "tap: nothing to tap"
    widget = rng.choices(candidates, [weight(w, lost) for w in candidates])[0]
    where = "dialog " if dialog is not None else ""
    tap(widget)
    return f"tap {where}{label_of(widget)}"


def act_double_tap() -> str:
    """An impatient finger: the same spot twice before the screen has caught up with the first tap."""
    dialog = top_dialog()
    candidates = [w for w in tappables(dialog if dialog is not None else Window) if getattr(w, "text", None) != "Home"]
    if not candidates:
        return "double tap: nothing to tap"
    widget = rng.choice(candidates)
    label = label_of(widget)
    x, y = widget.to_window(*widget.center)
    from kivy.tests.common import UnitTestTouch

    for _ in range(2):
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        touch.touch_up()
    return f"double tap {'dialog ' if dialog is not None else ''}{label}"


def act_seat_key() -> str:
    char = rng.choice(SEAT_KEYS)
    key(char)
    return f"key {char}"


def act_undo_redo() -> str:
    if rng.random() < 0.6:
        key("\b", 8)
        return "key backspace (undo)"
    key("=")
    return "key = (redo)"


def act_message_bar() -> str:
    if top_dialog() is not None:
        return act_tap_widget()
    screen = controller.screens.current_screen
    try:
        bar = find(screen, lambda w: type(w).__name__ == "MessageBar")
    except LookupError:
        return act_tap_widget()
    tap(bar)
    return f"tap message bar ({bar.text[:40]!r})"


def act_roll() -> str:
    if top_dialog() is None and controller.dice_roller:
        try:
            roll = find(Window, harness.button_text("Roll " + controller.dice_roller, exact=True))
        except LookupError:
            roll = None
        if roll is not None and shown(roll):
            tap(roll)
            return f"tap Roll {controller.dice_roller}"
    return act_tap_widget()


def act_tray() -> str:
    key("t")
    return "key t (dice tray)"


def act_random_point() -> str:
    x, y = rng.uniform(0, Window.width), rng.uniform(0, Window.height)
    from kivy.tests.common import UnitTestTouch

    touch = UnitTestTouch(x, y)
    touch.touch_down()
    touch.touch_up()
    return f"tap point ({int(x)}, {int(y)})"


ACTIONS_BY_WEIGHT = [
    (act_tap_widget, 56),
    (act_double_tap, 4),
    (act_seat_key, 14),
    (act_undo_redo, 6),
    (act_message_bar, 5),
    (act_roll, 10),
    (act_tray, 2),
    (act_random_point, 3),
]
shots_at = {ACTIONS // 3, 2 * ACTIONS // 3}


def monkey(number: int) -> None:
    action = rng.choices([a for a, _ in ACTIONS_BY_WEIGHT], [w for _, w in ACTIONS_BY_WEIGHT])[0]
    try:
        description = action()
    except Exception as error:  # on the kiosk this would have reached Kivy's main loop: a crash
        result["actions"].append(f"{number}: {action.__name__} raised {error!r}")
        result["crashes"].append(
            {"action": number, "last_actions": result["actions"][-12:], "traceback": traceback.format_exc()}
        )
        if len(result["crashes"]) == 1:
            driver.shot("crash", unaudited="a record of what the crashing input left on the screen")
        return
    result["actions"].append(f"{number}: {description}")
    if number in shots_at:
        # taken in the step of the random action, before the window has laid out what it did: auditing it would
        # judge a half-drawn screen (tests/test_layout_audit.py audits the screens random taps reach)
        driver.shot(f"{number:03d}", unaudited="mid-step: the window is not laid out yet after the random action")


# --- start, then check ---------------------------------------------------------------------------------------


def start_from_picker() -> None:
    until(lambda: controller.screens.current == "home", "the Home screen")
    picker = controller.screens.get_screen("home").ids.game_picker
    tap(until(lambda: next((b for b in picker.children if b.game == GAME), None), f"the picker to offer {GAME}"))


def tap_new_game() -> None:
    """Tap the New game button for 2 or 3 players (chosen once: a retry must not draw from the seed again)."""
    if "players_chosen" not in result:
        result["players_chosen"] = rng.choice(("2", "3"))
    count = result["players_chosen"]
    box = controller.screens.get_screen("home").ids.new_game_box
    button = next((b for b in box.children if b.text.startswith(count + " ")), None)
    if button is None or controller.chosen_game != GAME:
        raise Retry(f"Home to offer a new {GAME} game for {count}")
    result["players"] = int(count)
    tap(button)


def wait_for_game() -> None:
    session = until(lambda: controller.table.session, f"the {GAME} game to open")
    until(
        lambda: session.rules.info.name == GAME and controller.screens.current == "dashboard",
        f"the {GAME} game's dashboard",
    )
    result["first_game"] = session.game_id


def shot_start() -> None:
    driver.shot("000-start")  # a step after the screen change, so the dashboard is fully drawn


def dice_on_the_way() -> str:
    """What the simulated dice reader may still hand the table ("" when nothing): a roll it has not had
    acknowledged, or a reading delivered to the port that the roll tray has not taken yet."""
    readers = controller.readers
    if readers is None:
        return ""
    if readers.simulator is not None and readers.simulator.pending:
        return f"the simulated dice reader's {readers.simulator.pending} roll(s) to be read"
    delivered = sum(connection.stats()["dice_delivered"] for connection in readers.connections)
    waiting = delivered - taken[0] - controller.tray.port.dropped
    return f"the roll tray to take {waiting} delivered reading(s)" if waiting > 0 else ""


def settle() -> None:
    """Close any dialog, go to the open game's dashboard, and wait until nothing more can reach the table:
    every seat key's press and release has registered and no button timer is left (a key's command is posted
    from one), and every roll made into the simulated dice reader has been read and taken by the roll tray.
    After this no input is made, so the checks below see the journal as it will stay."""
    for widget in list(Window.children):
        if isinstance(widget, ModalView):
            widget.dismiss(animation=False)
    if controller.table.session is not None and controller.screens.current != "dashboard":
        controller.show_dashboard()
    busy = driver.buttons_busy() or dice_on_the_way()
    if busy:
        raise Retry(busy)


def tap_history() -> None:
    """One more tap must still work: History opens the history screen (from the dashboard)."""
    driver.shot("end")
    result["checks"]["screen_before"] = controller.screens.current
    if controller.screens.current == "dashboard":
        harness.tap_text("History", exact=True)
    else:  # no game open (home): a tap on another game in the picker
        picker = controller.screens.get_screen("home").ids.game_picker
        other = next(b for b in picker.children if b.game != controller.chosen_game)
        result["checks"]["picked"] = other.game
        tap(other)


def check_responsive() -> None:
    if result["checks"]["screen_before"] == "dashboard":
        result["checks"]["responsive"] = controller.screens.current == "history"
        harness.tap_text("Back", exact=True)
    else:
        result["checks"]["responsive"] = controller.chosen_game == result["checks"]["picked"]


def check_journal() -> None:
    journal = driver.journal
    session = controller.table.session
    checks = result["checks"]
    checks["responsive_back"] = controller.screens.current in ("dashboard", "home")
    checks["games"] = [g.id for g in journal.games()]
    if session is not None:
        events = journal.events(session.game_id)
        replayed = GameSession(session.game_id, events)
        checks["game_id"] = session.game_id
        checks["events"] = len(events)
        checks["replay_equal"] = replayed.state == controller.table.state
        if not checks["replay_equal"]:
            checks["live_state"] = repr(controller.table.state)[:4000]
            checks["replayed_state"] = repr(replayed.state)[:4000]
    problems = []
    for game in journal.games():
        try:
            GameSession(game.id, journal.events(game.id))
        except Exception as error:
            problems.append(f"game #{game.id}: {error!r}")
    checks["replay_problems"] = problems
    checks["integrity"] = journal.integrity_problem()
    checks["message"] = controller.message


steps = [
    start_from_picker,
    tap_new_game,
    wait_for_game,
    shot_start,
    *[(lambda n=n: monkey(n)) for n in range(1, ACTIONS + 1)],
    settle,
    settle,  # the second sees what the first's drain applied (a dialog it opened, say)
    tap_history,
    check_responsive,
    check_journal,
]

driver.run(steps, step_gap=0.005)  # fast random steps; the checks after settle() wait for conditions
