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

Each step is a function of no arguments, run on Kivy's clock once the app has started: the table's queue is
drained before and after it and the screens refreshed, so that the next step sees what it did. A step that
is not ready yet (a reader still connecting, a dialog not yet open) raises :class:`Retry` and is run again
every ``retry_every`` seconds until ``timeout`` seconds have passed; then the runner records
``step N: gave up waiting`` and goes on. Any other exception is recorded in ``result["errors"]`` with its
traceback (the pytest side fails on any error) and the run goes on with the next step. When the steps are
done, ``result`` is written to ``OUT_DIR/result.json`` and the app stops.

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
from companion.journal import open_journal  # noqa: E402

#: The kiosk front-end as the installed distribution registers it (``companion run`` loads the same entry
#: point); the driver builds the app with that module's ``build_app``, so it runs the installed package.
KIOSK_ENTRY_POINT = entry_points(group="tabletop_companion.frontends")["kiosk"]
_kiosk = sys.modules.get(KIOSK_ENTRY_POINT.module) or __import__(KIOSK_ENTRY_POINT.module, fromlist=["run"])
build_app = _kiosk.build_app


class Retry(Exception):
    """Raised by a step that is not ready yet: the runner runs it again shortly."""


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
    ``text``, with ``exact``)."""
    def matches(widget) -> bool:
        label = getattr(widget, "text", None)
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


def tap(widget, *, scroll: bool = False) -> None:
    """A synthetic touch down and up on the centre of ``widget`` (with ``scroll``, after :func:`scroll_to`)."""
    from kivy.tests.common import UnitTestTouch
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


def key(char: str, code: int | None = None) -> None:
    """Press and release a key (the simulator maps seat buttons to keys); ``code`` for keys like backspace."""
    from kivy.core.window import Window
    code = code or ord(char)
    Window.dispatch("on_key_down", code, 0, char, [])
    Window.dispatch("on_key_up", code, 0)


# --- the app and the run ---------------------------------------------------------------------------------

def base_config(dice_seed: int = 7):
    """The default configuration with seeded dice (the same rolls every run)."""
    return dataclasses.replace(default_config(), dice_seed=dice_seed)


class Driver:
    """One driver run: the command line, the app on ``DATA_DIR/journal.sqlite3``, ``result`` and the runner.

    ``argv`` defaults to ``sys.argv[1:]`` (``DATA_DIR OUT_DIR [FLAGS…]``; the flags are in ``flags``).
    ``prefix`` is put before every screenshot and panel file name. ``config`` defaults to
    :func:`base_config`; ``configure``, if given, is called as ``configure(config, flags)`` once the journal
    is open and returns the configuration the app is built with (flags choosing readers, a PIN, …);
    ``simulate`` builds the desktop simulator (keys for buttons, emulated panels); other keyword arguments
    go to ``build_app`` (``touch=`` a :class:`ui.touch.TouchScan`, ``start_new=True``).
    """

    def __init__(self, argv: list[str] | None = None, *, prefix: str = "", config=None, configure=None,
                 simulate: bool = True, **build_options):
        argv = sys.argv[1:] if argv is None else list(argv)
        self.data_dir, self.out_dir = Path(argv[0]), Path(argv[1])
        self.flags = tuple(argv[2:])
        self.prefix = prefix
        self.out_dir.mkdir(parents=True, exist_ok=True)
        self.journal, _ = open_journal(self.data_dir / "journal.sqlite3")
        self.config = config or base_config()
        if configure is not None:
            self.config = configure(self.config, self.flags)
        self.app = build_app(journal=self.journal, config=self.config, simulate=simulate, **build_options)
        self.controller = self.app.controller
        self.result: dict = {"steps": [], "errors": [], "app_module": _kiosk.__file__}

    # what the steps look at and save

    def popup(self):
        """The open dialog (or None)."""
        return self.controller.popup

    def board(self):
        """The game board widget on the dashboard (the game plug-in's own)."""
        return self.controller.screens.get_screen("dashboard").ids.board_area.children[0]

    def shot(self, name: str) -> None:
        """Save a screenshot of the window as ``OUT_DIR/<prefix><name>.png``."""
        from kivy.core.window import Window
        path = self.out_dir / f"{self.prefix}{name}.png"
        saved = Path(Window.screenshot(str(path)))   # Kivy adds a counter to the name
        saved.replace(path)

    def save_panels(self, name: str) -> None:
        """Save the emulated player panels, once drawn, as ``OUT_DIR/<prefix><name>-panel-N.png`` (N from 1)."""
        self.controller.panels.wait_idle()
        _, frames = self.controller.panels.frames()
        for index, frame in enumerate(frames):
            frame.save(self.out_dir / f"{self.prefix}{name}-panel-{index + 1}.png")

    def write_result(self) -> None:
        """Write ``result`` to ``OUT_DIR/result.json`` (done at the end; a step may do it earlier too)."""
        (self.out_dir / "result.json").write_text(json.dumps(self.result, indent=2))

    # the runner

    def run(self, steps, *, first_after: float = 0.5, step_gap: float = 0.15, retry_every: float = 0.05,
            timeout: float = 10.0) -> None:
        """Run the app, play ``steps`` on its clock (see the module notes), write ``result.json``, stop the
        app and close the journal. ``first_after``: seconds after start-up before the first step;
        ``step_gap``: seconds between steps; a step raising :class:`Retry` is retried every ``retry_every``
        seconds for up to ``timeout`` seconds."""
        from kivy.clock import Clock
        from kivy.core.window import Window
        from kivy.uix.modalview import ModalView

        steps = list(steps)
        waiting_since: dict[int, float] = {}
        controller = self.controller

        def run_step(dt, index=0):
            if any(isinstance(w, ModalView) and not w._is_open for w in Window.children):
                Clock.schedule_once(lambda dt: run_step(dt, index), 0.05)    # a dialog is still closing
                return
            if index >= len(steps):
                self.write_result()
                self.app.stop()
                return
            try:
                controller.drain()      # what earlier steps' button timers and readers posted since
                steps[index]()
                controller.drain()      # apply what the step posted before the next step looks
                controller.refresh()
            except Retry:
                started = waiting_since.setdefault(index, time.monotonic())
                if time.monotonic() - started < timeout:
                    Clock.schedule_once(lambda dt: run_step(dt, index), retry_every)
                    return
                self.result["errors"].append(f"step {index}: gave up waiting")
            except Exception as error:  # recorded; the test fails on any error
                self.result["errors"].append(f"step {index}: {error!r}\n{traceback.format_exc()}")
            Clock.schedule_once(lambda dt: run_step(dt, index + 1), step_gap)

        def begin(*_):
            Clock.schedule_once(run_step, first_after)     # returns None: the app's own on_start still runs

        self.app.bind(on_start=begin)
        self.app.run()
        self.journal.close()
