"""What the Kivy drivers (``tests/kivy/drive_*.py``) share: the real app built on a data directory, widget
finding and synthetic taps and keys, screenshots and panel images, and the step runner that writes
``result.json``.

A driver is a script run by a pytest module in a subprocess with a display (Xvfb), as
``python drive_X.py DATA_DIR OUT_DIR [FLAGS…]`` (see ``tests/kivy_driver.py``). It looks like::

    import harness                      # first: it sets Kivy's environment before Kivy is imported
    from harness import find, tap, tap_text

    driver = harness.Driver(prefix="xx-")   # builds the app on DATA_DIR/journal.sqlite3
    controller, result = driver.controller, driver.result

    def snapshot(label):                # what this game's board shows, into result.json
        result["steps"].append({"label": label, "message": controller.message})

    steps = [lambda: tap_text("Start"), lambda: snapshot("started"), lambda: driver.shot("started")]
    driver.run(steps)                   # runs the app; writes OUT_DIR/result.json; closes the journal

Each step is a function of no arguments, run on Kivy's clock once the app has drawn its first frame: the
table's queue is drained before and after it and the screens refreshed, so that the next step sees what it
did. Steps never count on time passing or on frames going by: what happens at once (a tap, a posted command,
an opened dialog) is seen by the very next step, and what happens on another thread or on a timer (a seat key's
mock pin and its debounce timer, a dice or tile reader, the panels' drawing thread, the app's own clock timers)
is waited for by a step that checks the condition it stands for and raises :class:`Retry` until it holds, e.g.
``until(lambda: controller.popup is not None, "the dice dialog to open")``. :func:`waiting` makes such a step
and :meth:`Driver.press` presses a seat or table key like a finger: down until its debounced press registered,
up until its release did, then (by default) until the table has heard the command it sent.

A step raising :class:`Retry` is run again every ``retry_every`` seconds until ``timeout`` seconds have passed;
then the runner records ``step N (...): gave up after T s waiting for WHAT`` (WHAT from the Retry) and goes on.
Before each step the runner also waits, the same way, until no dialog is half closed and nothing in the window
is waiting to be laid out or to have its text drawn (Kivy does that just before the next frame), so a tap lands
where the widget is shown. Any other exception is recorded in ``result["errors"]`` with its traceback (the
pytest side fails on any error) and the run goes on with the next step. ``steps`` may be any iterable (a
generator for an endless run). When the steps are done, ``result`` is written to ``OUT_DIR/result.json`` and
the app stops.

Kivy's window must not be imported before the app is built (``ui.kiosk.build_app`` configures its size),
so everything here that needs ``Window`` or ``UnitTestTouch`` imports it when called.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
import time
import traceback
from pathlib import Path

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")

from importlib.metadata import entry_points  # noqa: E402

from companion.config import default_config  # noqa: E402
from companion.journal import open_journal, startup_notice  # noqa: E402

#: The kiosk front-end as the installed distribution registers it (``companion run`` loads the same entry
#: point); the driver builds the app with that module's ``build_app``, so it runs the installed package.
KIOSK_ENTRY_POINT = entry_points(group="tabletop_companion.frontends")["kiosk"]
_kiosk = sys.modules.get(KIOSK_ENTRY_POINT.module) or __import__(KIOSK_ENTRY_POINT.module, fromlist=["run"])
build_app = _kiosk.build_app


#: Set by the suite (``tests/kivy_driver.py``): every :meth:`Driver.shot` first runs the layout audit on the screen.
AUDIT_SHOTS = os.environ.get("COMPANION_AUDIT_SHOTS") == "1"


class Retry(Exception):
    """Raised by a step that is not ready yet: the runner runs it again shortly. ``what`` names what the step
    waits for ("the dice reader to connect"); the runner's "gave up waiting" error repeats it."""

    def __init__(self, what: str = "") -> None:
        super().__init__(what)
        self.what = what


def until(condition, what):
    """``condition()``'s value if it is true, else raise :class:`Retry` naming ``what`` (a string, or a function
    of no arguments returning one: called only then, to say how things stand, e.g. the message shown)."""
    value = condition()
    if not value:
        raise Retry(what() if callable(what) else what)
    return value


def waiting(condition, what):
    """A step that waits until ``condition()`` is true (see :func:`until`)."""

    def step() -> None:
        until(condition, what)

    step.__doc__ = f"wait for {what if isinstance(what, str) else 'a condition'}"
    return step


# --- widgets -------------------------------------------------------------------------------------------


def find(root, predicate):
    """The first widget under ``root`` (depth first, ``root`` included) that satisfies ``predicate``."""
    stack = [root]
    while stack:
        widget = stack.pop()
        if predicate(widget):
            return widget
        stack.extend(reversed(widget.children))
    raise LookupError("no such widget")


def walk(root):
    """Every widget under ``root`` (``root`` included), depth first."""
    stack = [root]
    while stack:
        widget = stack.pop()
        yield widget
        stack.extend(widget.children)


def visible(widget) -> bool:
    """``widget`` is in the window and not disabled (a player could tap it)."""
    return widget.get_root_window() is not None and not getattr(widget, "disabled", False)


def button_text(text: str, *, exact: bool = False):
    """A predicate for :func:`find`: a visible, enabled button whose text starts with ``text`` (or is
    ``text``, with ``exact``); a button that breaks its long words (``ui.wrap.WordBreaks``) by the text it was
    given."""

    def matches(widget) -> bool:
        label = getattr(widget, "unbroken_text", getattr(widget, "text", None))
        if not isinstance(label, str) or not hasattr(widget, "on_release"):
            return False
        return (label == text if exact else label.startswith(text)) and visible(widget)

    return matches


def scroll_to(widget) -> None:
    """Scroll every ScrollView around ``widget`` so that it shows it."""
    from kivy.core.window import Window
    from kivy.uix.scrollview import ScrollView

    parent = widget.parent
    while parent is not None and parent is not Window:
        if isinstance(parent, ScrollView):
            parent.scroll_to(widget, padding=10, animate=False)
            parent.update_from_scroll()
        parent = parent.parent


#: Every synthetic tap so far (:func:`tap`), for drivers that count a player's presses.
TAPS = {"count": 0}
#: Every seat-button press made with :meth:`Driver.seat_press` so far (the other half of a player's presses).
PRESSES = {"count": 0}


def tap(widget, *, scroll: bool = False) -> None:
    """A synthetic touch down and up on the centre of ``widget`` (with ``scroll``, after :func:`scroll_to`);
    counted in :data:`TAPS`."""
    from kivy.tests.common import UnitTestTouch

    TAPS["count"] += 1
    if scroll:
        scroll_to(widget)
    x, y = widget.to_window(*widget.center)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    touch.touch_up()


def tap_text(text: str, root=None, *, exact: bool = False, scroll: bool = False) -> None:
    """Tap the first button under ``root`` (default: the whole window) matching :func:`button_text`."""
    from kivy.core.window import Window

    tap(find(root or Window, button_text(text, exact=exact)), scroll=scroll)


#: Key codes of the named keys the simulator's buttons may use (others are their character's code).
KEY_CODES = {"backspace": 8, "tab": 9, "enter": 13, "spacebar": 32, "up": 273, "down": 274, "right": 275, "left": 276}


def key_down(name: str) -> None:
    """A key goes down (``name``: a character, or a name from :data:`KEY_CODES` such as ``"backspace"``)."""
    from kivy.core.window import Window

    Window.dispatch("on_key_down", KEY_CODES.get(name) or ord(name), 0, name if len(name) == 1 else "", [])


def key_up(name: str) -> None:
    """The key ``name`` goes up."""
    from kivy.core.window import Window

    Window.dispatch("on_key_up", KEY_CODES.get(name) or ord(name), 0)


def key(char: str, code: int | None = None) -> None:
    """Press and release a key at once (``code`` for keys like backspace). A seat key's mock pin is then held
    for twice the debounce time on a timer and its press lands later, or is lost if that timer runs late: use
    :meth:`Driver.press` to press a button and know it landed; this is for keys the app handles at once (the
    simulator's dice tray ``t``) and for the monkey's random mashing."""
    from kivy.core.window import Window

    code = code or KEY_CODES.get(char) or ord(char)
    Window.dispatch("on_key_down", code, 0, char, [])
    Window.dispatch("on_key_up", code, 0)


#: Clock triggers by which Kivy widgets lay themselves out or redraw their text before the next frame.
_LAYOUT_TRIGGERS = ("_trigger_layout", "_trigger_texture", "_refresh_trigger", "_trigger_update_from_scroll")


def unsettled(root=None) -> list[str]:
    """What under ``root`` (default: the whole window) is still to be laid out or have its text drawn before
    the next frame (``"GridLayout._trigger_layout"``, …); empty once the screen shows the latest state."""
    from kivy.core.window import Window

    found = []
    for widget in walk(root or Window):
        for name in _LAYOUT_TRIGGERS:
            event = getattr(widget, name, None)
            if event is not None and getattr(event, "is_triggered", False):
                found.append(f"{type(widget).__name__}.{name}")
    return found


def describe(step) -> str:
    """A step in words for an error message: its docstring's first line, its name, or a lambda's body and
    where it is (``tap_text("Skip") (drive_app.py:250)``)."""
    doc = (getattr(step, "__doc__", None) or "").strip()
    if doc and callable(step) and not isinstance(step, type) and getattr(step, "__name__", "") != "<lambda>":
        return doc.splitlines()[0]
    name = getattr(step, "__name__", repr(step))
    code = getattr(step, "__code__", None)
    if name != "<lambda>" or code is None:
        return name
    import linecache

    where = f"{Path(code.co_filename).name}:{code.co_firstlineno}"
    line = linecache.getline(code.co_filename, code.co_firstlineno)
    columns = [
        (start, end)
        for first, last, start, end in code.co_positions()
        if first == last == code.co_firstlineno and start is not None and end
    ]
    body = line[min(c for c, _ in columns) : max(e for _, e in columns)].strip() if columns and line else ""
    return f"{body} ({where})" if body else f"a lambda ({where})"


#: The drivers' long-press time: the longest the configuration allows. :meth:`Driver.press` holds a key until its
#: press has registered, however long a busy machine takes for that; a roll button (``long = "peek"``) held
#: past the hold time would peek instead of rolling, so the drivers' hold time leaves a short press no doubt.
#: A driver that holds a button on purpose waits for the long press to show (its peek), whatever this is.
HOLD_TIME = 5.0


def base_config(dice_seed: int = 7):
    """The default configuration with seeded dice (the same rolls every run) and :data:`HOLD_TIME`."""
    return dataclasses.replace(default_config(), dice_seed=dice_seed, hold_time=HOLD_TIME)


class Driver:
    """One driver run: the command line, the app on ``DATA_DIR/journal.sqlite3``, ``result`` and the runner.

    ``argv`` defaults to ``sys.argv[1:]`` (``DATA_DIR OUT_DIR [FLAGS…]``; the flags are in ``flags``).
    ``prefix`` is put before every screenshot and panel file name. ``config`` defaults to
    :func:`base_config`; ``configure``, if given, is called as ``configure(config, flags)`` once the journal
    is open and returns the configuration the app is built with (flags choosing readers, a PIN, …);
    ``simulate`` builds the desktop simulator (keys for buttons, emulated panels); other keyword arguments
    go to ``build_app`` (``touch=`` a :class:`ui.touch.TouchScan`, ``start_new=True``).
    """

    def __init__(
        self,
        argv: list[str] | None = None,
        *,
        prefix: str = "",
        config=None,
        configure=None,
        simulate: bool = True,
        **build_options,
    ):
        argv = sys.argv[1:] if argv is None else list(argv)
        self.data_dir, self.out_dir = Path(argv[0]), Path(argv[1])
        self.flags = tuple(argv[2:])
        self.prefix = prefix
        self.out_dir.mkdir(parents=True, exist_ok=True)
        self.journal, recovery = open_journal(self.data_dir / "journal.sqlite3")
        # the start-up notice `companion run` gives the kiosk (a recovery, a nearly full disk), unless given
        build_options.setdefault("notice", startup_notice(recovery, self.journal.space_problem()))
        self.config = config or base_config()
        if configure is not None:
            self.config = configure(self.config, self.flags)
        self.simulate = simulate  # the simulator's panel strip is below the touchscreen (not audited)
        self.app = build_app(journal=self.journal, config=self.config, simulate=simulate, **build_options)
        self.controller = self.app.controller
        self.result: dict = {"steps": [], "errors": [], "app_module": _kiosk.__file__}
        #: Every command's outcome the table has told (accepted or refused), in order: what :meth:`press`
        #: and :meth:`heard_since` wait on.
        self.heard: list = []
        self.controller.table.subscribe(lambda table, outcome: self.heard.append(outcome))

    # what the steps look at and save

    def popup(self):
        """The open dialog (or None)."""
        return self.controller.popup

    def board(self):
        """The game board widget on the dashboard (the game plug-in's own)."""
        return self.controller.screens.get_screen("dashboard").ids.board_area.children[0]

    def shot(self, name: str, *, unaudited: str = "") -> None:
        """Save a screenshot of the window as ``OUT_DIR/<prefix><name>.png``; with :data:`AUDIT_SHOTS`, first run
        the layout audit on what it shows (:meth:`audit_screen`). ``unaudited``: why this shot is not audited
        (it is recorded in ``result["shots_unaudited"]``); a shot may only be left out with a reason.
        ``result["shots"]`` counts the shots taken with :data:`AUDIT_SHOTS`."""
        from kivy.core.window import Window

        if AUDIT_SHOTS:
            self.result["shots"] = self.result.get("shots", 0) + 1
            if unaudited:
                self.result.setdefault("shots_unaudited", {})[name] = unaudited
            else:
                self.audit_screen(name)
        path = self.out_dir / f"{self.prefix}{name}.png"
        saved = Path(Window.screenshot(str(path)))  # Kivy adds a counter to the name
        saved.replace(path)

    def audit_screen(self, at: str) -> None:
        """The layout audit (``tests/kivy/layout_audit.py``) of what the touchscreen shows now: the open dialog
        on top, else the current screen (an open game's dashboard must show a key figure). Each violation goes
        to ``result["shot_violations"]`` with ``at`` (the shot's name) and the screen size;
        ``result["shots_audited"]`` counts the audits and ``result["audit_seconds"]`` adds up their time. Run on
        a settled window (the runner waits for that before each step): a shot taken in the same step as a tap
        would be audited before the tap's layout, so that is an error."""
        from kivy.core.window import Window
        from kivy.uix.modalview import ModalView
        from layout_audit import audit

        from ui.layout import SIMULATOR_STRIP_HEIGHT, TOUCHSCREEN_SIZE

        started = time.perf_counter()
        pending = unsettled()
        if pending:
            raise AssertionError(
                f"shot {at!r} taken before the window was laid out ({', '.join(sorted(set(pending))[:4])}): "
                "take it in a step of its own"
            )
        bottom = SIMULATOR_STRIP_HEIGHT if self.simulate else 0
        area = (0, bottom, TOUCHSCREEN_SIZE[0], bottom + TOUCHSCREEN_SIZE[1])
        dialog = next((w for w in Window.children if isinstance(w, ModalView)), None)
        screens = self.controller.screens
        where = type(dialog).__name__ if dialog is not None else screens.current
        roots = [dialog] if dialog is not None else [screens]
        found = audit(area, where, roots, expect_figure=dialog is None and screens.current == "dashboard")
        size = f"{TOUCHSCREEN_SIZE[0]}x{TOUCHSCREEN_SIZE[1]}"
        self.result["shots_audited"] = self.result.get("shots_audited", 0) + 1
        self.result["audit_seconds"] = self.result.get("audit_seconds", 0.0) + time.perf_counter() - started
        self.result.setdefault("shot_violations", []).extend(
            {"at": f"{self.prefix}{at}", "size": size, **violation.as_dict()} for violation in found
        )

    def panels_idle(self) -> bool:
        """Every emulated panel shows what it was last asked to (the panels' drawing thread has caught up)."""
        return self.controller.panels.wait_idle(timeout=0.02)

    def save_panels(self, name: str) -> None:
        """Save the emulated player panels as ``OUT_DIR/<prefix><name>-panel-N.png`` (N from 1), once they show
        what they were asked to (raises :class:`Retry` until then: call it as a step of its own)."""
        until(self.panels_idle, "the panels' drawing thread to draw what the panels were last asked to show")
        _, frames = self.controller.panels.frames()
        for index, frame in enumerate(frames):
            frame.save(self.out_dir / f"{self.prefix}{name}-panel-{index + 1}.png")

    # buttons, like a finger

    def button_on_key(self, name: str):
        """``(seat index or None for a table button, ButtonConfig)`` of the button the simulator drives with
        key ``name``; LookupError if no button has that key."""
        for seat, seat_config in enumerate(self.config.seats):
            for button in seat_config.buttons:
                if button.key == name:
                    return seat, button
        for button in self.config.table_buttons:
            if button.key == name:
                return None, button
        raise LookupError(f"no button is on key {name!r}")

    def buttons_busy(self) -> str:
        """What the buttons may still send the table ("" when nothing can come from them any more): a debounced
        press whose release has not registered yet, an edge still waiting to settle or a press waiting for
        its hold time (``PressDetector.idle``), or a timed callback still due on the buttons' one scheduler
        thread (a debounce check, a hold, the simulator's delayed key release: a press's command is posted
        from inside one)."""
        buttons = self.controller.buttons
        if buttons is None:
            return ""
        held = [pin for pin, detector in buttons.detectors.items() if detector.presses != detector.releases]
        if held:
            return f"the buttons on GPIO {held} to be released"
        unsettled = [pin for pin, detector in buttons.detectors.items() if not detector.idle]
        if unsettled:
            return f"the edges on GPIO {unsettled} to settle"
        pending = buttons.scheduler.pending
        if pending:
            return f"{pending} button timer(s) to run out"
        if not self.controller._button_inbox.empty() or not self.controller.table._inbox.empty():
            return "the table to apply the commands the buttons posted"
        return ""

    def heard_since(self, count: int):
        """A condition: the table has told an outcome since it had told ``count`` (a ``len(driver.heard)``)."""
        return lambda: len(self.heard) > count

    def seat_press(self, seat: int, action: str) -> list:
        """The steps of one press of seat ``seat``'s (index in the configuration) button ``action``
        (``on_the_air``, ``sponsor``, ``roll``), counted in :data:`PRESSES` and waited for until the table has
        heard it (:meth:`press`)."""
        key = next(b.key for b in self.config.seats[seat].buttons if b.action == action)

        def count() -> None:
            PRESSES["count"] += 1

        return [count, *self.press(key)]

    def press(self, name: str, *, heard: bool = True) -> list:
        """The steps of one press of the button on key ``name``, made like a finger and waited for: the key
        goes down and stays down until the button's debounced press has registered, goes up, and the steps
        wait until its release has registered too (so the next press of it is a press of its own), then, with
        ``heard``, until the table has told the outcome (accepted or refused) of a command since the key went
        down. Without ``heard`` (a press the table never hears: on Home, during the self-test, for a seat
        outside the game), follow it with a step waiting for what the press does there."""
        seat, button = self.button_on_key(name)
        who = "table" if seat is None else self.config.seats[seat].name
        label = f"key {name} ({who} {button.action})"
        mark: dict = {}

        def down() -> None:  # the buttons are attached by now (the runner waits for it): look for the pin's detector
            buttons = self.controller.buttons
            detector = buttons.detectors.get(button.pin) if buttons is not None and button.pin is not None else None
            mark.update(
                detector=detector,
                heard=len(self.heard),
                presses=detector.presses if detector else 0,
                releases=detector.releases if detector else 0,
            )
            key_down(name)

        def pressed() -> None:
            detector = mark["detector"]
            if detector is not None:
                until(lambda: detector.presses > mark["presses"], f"the debounced press of {label}")

        def up() -> None:
            key_up(name)

        def released() -> None:
            detector = mark["detector"]
            if detector is not None:
                until(lambda: detector.releases > mark["releases"], f"the debounced release of {label}")

        def told() -> None:
            until(
                lambda: len(self.heard) > mark["heard"],
                lambda: f"the table to tell the outcome of {label} (message: {self.controller.message!r})",
            )

        return [down, pressed, up, released] + ([told] if heard else [])

    def write_result(self) -> None:
        """Write ``result`` to ``OUT_DIR/result.json`` (done at the end; a step may do it earlier too)."""
        (self.out_dir / "result.json").write_text(json.dumps(self.result, indent=2))

    # the runner

    def run(self, steps, *, step_gap: float = 0.0, retry_every: float = 0.05, timeout: float = 10.0) -> None:
        """Run the app, play ``steps`` on its clock once it has drawn its first frame (see the module notes),
        write ``result.json``, stop the app and close the journal. ``step_gap``: seconds between steps (0: the
        next step runs after the next frame; nothing relies on it); a step raising :class:`Retry` is retried
        every ``retry_every`` seconds for up to ``timeout`` seconds, then recorded as given up."""
        from kivy.clock import Clock
        from kivy.core.window import Window
        from kivy.uix.modalview import ModalView

        steps = iter(steps)
        controller = self.controller
        now = {"index": 0, "step": next(steps, None), "since": None}

        def not_ready() -> str:
            """What the window still has to do before a step may look at it or tap it ("" if nothing)."""
            if not self.app.hardware_ready.is_set():  # opened just after the first frames (ui.app)
                return "the buttons, panels and readers to be attached after the first frame"
            if any(isinstance(w, ModalView) and not w._is_open for w in Window.children):
                return "the closing dialog to leave the window"
            pending = unsettled()
            return f"the window to finish laying out ({', '.join(sorted(set(pending))[:6])})" if pending else ""

        def run_step(dt) -> None:
            step, index = now["step"], now["index"]
            if step is None:
                self.write_result()
                self.app.stop()
                return
            try:
                waiting_for = not_ready()
                if waiting_for:
                    raise Retry(waiting_for)
                controller.drain()  # what earlier steps' button timers and readers posted since
                try:
                    step()
                finally:  # also before a waiting step looks again
                    controller.drain()  # apply what the step posted before the next step looks
                    controller.refresh()
            except Retry as wait:
                if now["since"] is None:
                    now["since"] = time.monotonic()
                if time.monotonic() - now["since"] < timeout:
                    Clock.schedule_once(run_step, retry_every)
                    return
                self.result["errors"].append(
                    f"step {index} ({describe(step)}): gave up after {timeout:g} s "
                    f"waiting for {wait.what or 'the step to be ready'}"
                )
            except Exception as error:  # recorded; the test fails on any error
                self.result["errors"].append(f"step {index} ({describe(step)}): {error!r}\n{traceback.format_exc()}")
            now.update(index=index + 1, step=next(steps, None), since=None)
            Clock.schedule_once(run_step, step_gap)

        def first_frame(*_) -> None:
            Window.unbind(on_flip=first_frame)
            Clock.schedule_once(run_step, 0)

        def begin(*_) -> None:
            Window.bind(on_flip=first_frame)  # returns None: the app's own on_start still runs

        self.app.bind(on_start=begin)
        self.app.run()
        self.journal.close()
