"""The Kivy touchscreen app: start-up, the window, the keyboard and the simulator strip.

The parts are modules of their own: the table controller (:mod:`ui.controller`, with the Home screen's
:mod:`ui.home`, the dice bar's :mod:`ui.dice_bar`, the history's :mod:`ui.history_view` and the panels'
:mod:`ui.player_panels`), the exit gesture (:mod:`ui.exit_gesture`), the dialogs (:mod:`ui.dialogs`,
:mod:`ui.selftest_dialog`), the widgets and screens (:mod:`ui.widgets`) and the keys (:mod:`ui.keys`). A game's own
parts are its board (:mod:`ui.games`) and its table extras (:mod:`ui.extras`). The names tests and the kiosk use
are importable from here too (``ui.app.TableController``, ``ui.app.wake_trigger``, ``ui.app.EXIT_HOLD``, …).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from pathlib import Path

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.lang import Builder
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.image import Image as KivyImage
from kivy.uix.screenmanager import NoTransition, ScreenManager

from companion.commands import OpenGame
from companion.sdnotify import notify, watchdog_interval
from ui.boards import LATER_SCREEN_LAYOUTS, kv_files, screen_kv_file, screen_kv_files
from ui.controller import PANELS_FIRST, TableController, wake_trigger
from ui.dialogs import ConfirmPopup, DicePopup, MessagePopup, PinPopup, confine_dialogs
from ui.exit_gesture import EXIT_HOLD, PIN_LOCKOUT, PIN_TRIES, ExitGestureMixin
from ui.home import NEW_GAME_CONFIRM, seat_names
from ui.keys import KIOSK_SWALLOWED_KEYS, SIMULATED_TRAY_KEY, key_name
from ui.layout import SIMULATOR_STRIP_HEIGHT, TOUCHSCREEN_SIZE
from ui.selftest_dialog import SelfTestPopup
from ui.widgets import DashboardScreen, HistoryScreen, HomeScreen, SimulatorStrip, oled_texture

__all__ = [
    "EXIT_HOLD",
    "KIOSK_SWALLOWED_KEYS",
    "NEW_GAME_CONFIRM",
    "PANELS_FIRST",
    "PIN_LOCKOUT",
    "PIN_TRIES",
    "SIMULATED_TRAY_KEY",
    "CompanionApp",
    "ConfirmPopup",
    "DicePopup",
    "MessagePopup",
    "PinPopup",
    "SelfTestPopup",
    "TableController",
    "seat_names",
    "wake_trigger",
]

log = logging.getLogger("companion.ui")

#: Seconds after the first frame at the latest that the buttons, panels and readers are attached, should the
#: second frame (:meth:`CompanionApp._ready`) never come.
HARDWARE_AFTER_S = 1.0
#: What the service's status adds once they are (``STATUS=game #3 open; buttons, panels and readers attached``).
HARDWARE_ATTACHED = "buttons, panels and readers attached"


class LazyScreens(ScreenManager):
    """A :class:`ScreenManager` that makes a screen, loading its layout first, the first time it is asked for
    (``get_screen``, or made current): the dashboard and the history cost nothing until shown (issue 17).

    ``factories``: screen name → the :class:`Screen` class, whose ``.kv`` layout is
    :func:`ui.boards.screen_kv_file` of that name."""

    def __init__(self, factories: dict, **kwargs) -> None:
        self._factories = dict(factories)
        #: CPU time (s) spent making screens so far (the start-up's phases, benchmarks/run.py)
        self.making_cpu = 0.0
        super().__init__(**kwargs)

    def get_screen(self, name):
        factory = self._factories.pop(name, None)
        if factory is not None:
            started = time.process_time()
            layout = str(screen_kv_file(name))
            if layout not in Builder.files:
                Builder.load_file(layout)
            self.add_widget(factory(name=name))
            self.making_cpu += time.process_time() - started
        return super().get_screen(name)

    def has_screen(self, name) -> bool:
        return name in self._factories or super().has_screen(name)


class CompanionApp(ExitGestureMixin, App):
    """The touchscreen app. ``simulate`` adds the emulated panels and keyboard buttons below it; the exit gesture is
    in :mod:`ui.exit_gesture`."""

    title = "Tabletop Companion"

    def __init__(
        self,
        controller: TableController,
        *,
        simulate: bool,
        notice: str = "",
        start_new: bool = False,
        resume: int | None = None,
        open_hardware=None,
        **kwargs,
    ) -> None:
        super().__init__(**kwargs)
        #: ``() -> (TableController.attach_hardware's keywords, problems)``, run just after the first frames
        #: (:meth:`attach_hardware`); ``None`` once run, or when the controller was given its hardware already.
        self._open_hardware = open_hardware
        #: Set (from the main thread) once the buttons, panels and readers are attached: other threads wait on it.
        self.hardware_ready = threading.Event()
        if open_hardware is None:
            self.hardware_ready.set()
        self.controller = controller
        controller.chosen_game = controller.config.game
        self.simulate = simulate
        self.notice = notice
        self.start_new, self.resume = start_new, resume
        self._panel_version = -1
        self.left_kiosk = False
        self._leaving = False

    def build(self):
        # benchmarks/run.py: the CPU time (s) of start-up's parts, written beside the first frame's marker
        self._phase_cpu = {"start": time.process_time()}
        self._load_layouts()
        screens = LazyScreens({"dashboard": DashboardScreen, "history": HistoryScreen}, transition=NoTransition())
        screens.add_widget(HomeScreen())
        self.controller.screens = screens
        screens.bind(current=self.controller.screen_changed)  # history rows built on showing, dropped on leaving
        root = BoxLayout(orientation="vertical")
        screens.size_hint_y = None
        screens.height = TOUCHSCREEN_SIZE[1]
        root.add_widget(screens)
        self.strip = self._simulator_strip() if self.simulate else None
        if self.strip is not None:
            root.add_widget(self.strip)
            confine_dialogs(SIMULATOR_STRIP_HEIGHT, TOUCHSCREEN_SIZE)  # the strip below stays uncovered
        Window.bind(on_key_down=self._key_down, on_key_up=self._key_up, on_request_close=self._request_close)
        Window.clearcolor = (0.07, 0.08, 0.10, 1)
        self._phase_cpu["build"] = time.process_time()
        made = screens.making_cpu
        self._open_first_game()
        self._phase_cpu["open"] = time.process_time()
        self._phase_cpu["made"] = screens.making_cpu - made  # the game's screen, made as it is opened
        # the buttons wake the main thread themselves (post_button); the tick applies what other threads post
        self.drain_tick = Clock.schedule_interval(self.controller.drain, 1 / 30)
        self.controller.refresh()  # the first frame already shows the resumed game
        self._phase_cpu["screens"] = time.process_time()
        if os.environ.get("COMPANION_BENCH_FIRST_FRAME"):
            Window.bind(on_flip=self._first_frame)
        Window.bind(on_flip=self._ready)
        self._watch_corners()
        interval = watchdog_interval()
        if interval:  # pinged from the main loop: a hung UI stops pinging and systemd restarts it
            Clock.schedule_interval(lambda dt: notify("WATCHDOG=1"), interval)
        return root

    @staticmethod
    def _load_layouts() -> None:
        """Check that every layout is installed, then load the screens' own (a board's and a game's table extras'
        layouts are loaded with them, when their game is first used)."""
        for path in kv_files():
            if not path.is_file():  # a broken install: say which file, instead of drawing boards without ids
                raise FileNotFoundError(f"the companion's layout {path} is missing: reinstall the package")
        for path in screen_kv_files():
            if path.stem not in LATER_SCREEN_LAYOUTS:
                Builder.load_file(str(path))

    def _simulator_strip(self) -> SimulatorStrip:
        """The emulated panels (redrawn 20 times a second when they changed) and the key help."""
        strip = SimulatorStrip(size_hint_y=None, height=SIMULATOR_STRIP_HEIGHT)
        self.panel_images = []
        for _ in self.controller.config.seats:
            image = KivyImage(fit_mode="contain")
            strip.ids.panels.add_widget(image)
            self.panel_images.append(image)
        self.controller.bind(key_help=strip.setter("key_help"))
        Clock.schedule_interval(self._update_panels, 1 / 20)
        return strip

    def _open_first_game(self) -> None:
        """Claim the journal and open the game asked for (``resume``), else the latest unless ``start_new``; put
        the start-up notice in the message bar."""
        table = self.controller.table
        table.claim()
        if self.resume is not None:
            table.execute(OpenGame(game_id=self.resume, source="startup"))
        elif not self.start_new:
            table.resume_latest()
        notice = self.notice
        if table.session is None and self.controller.touch_problem:
            # Home's own hint says that touch is off: the message bar does not say it a second time
            notice = " · ".join(part for part in notice.split(" · ") if part != self.controller.touch_problem)
        if notice:
            self.controller.say(notice, refused=True)

    def _ready(self, window) -> None:
        """The journal is open and the first frame is on the screen: tell systemd (Type=notify), and draw
        the next frame too.

        SDL2's KMS/DRM back end (Raspberry Pi OS Lite) creates its GBM/EGL surfaces again at the start of
        the first swap after the window took its full-screen size, so the picture Kivy drew for that first
        swap is dropped and an empty (black) buffer goes to the screen. Kivy draws again only when something
        changes: a kiosk that starts on a resumed game, where nothing changes until a button is pressed,
        stayed black (seen in the emulated Pi test: the kiosk's one framebuffer on the display, black).
        One more frame, drawn into the new surface, shows it."""
        Window.unbind(on_flip=self._ready)
        session = self.controller.table.session
        self._status = f"game #{session.game_id} open" if session else "home screen"
        notify("READY=1\nSTATUS=" + self._status)
        Window.bind(on_flip=self._second_frame)
        Clock.schedule_once(lambda dt: Window.canvas.ask_update(), 0)
        # should no second frame come (nothing to redraw), the hardware is attached all the same
        Clock.schedule_once(self.attach_hardware, HARDWARE_AFTER_S)

    def _second_frame(self, window) -> None:
        Window.unbind(on_flip=self._second_frame)
        Clock.schedule_once(self.attach_hardware, 0)

    def attach_hardware(self, *_) -> None:
        """Open the buttons, panels and readers and hand them to the controller
        (:meth:`TableController.attach_hardware`): run on the main thread once the first two frames are on the
        screen (issue 17: the picture does not wait for gpiozero, luma.oled and pyserial to load, nor for the
        panels' first frames to cross the I²C bus), or at once when asked. Runs once; a failure to open any of
        them is said in the message bar (the touchscreen works without them) and never stops the kiosk."""
        opener, self._open_hardware = self._open_hardware, None
        if opener is None:
            return
        try:
            hardware, problems = opener()
        except Exception as error:  # nothing the hardware does may take the touchscreen down
            log.exception("opening the buttons, panels and readers failed")
            hardware, problems = {}, [f"Buttons, panels and readers are off: {error}"]
        self.controller.attach_hardware(**hardware)
        if problems:
            self.controller.say(" · ".join(filter(None, [self.notice, *problems])), refused=True)
        # systemd's status (systemctl status) says when the buttons work: READY came with the first frame
        status = getattr(self, "_status", "")
        notify(f"STATUS={status}{'; ' if status else ''}{HARDWARE_ATTACHED}" + (" (with problems)" if problems else ""))
        self.hardware_ready.set()

    def close_hardware(self) -> None:
        """Stop the readers, show the panels' exit screens and release the pins (each once; any not attached
        is skipped)."""
        controller = self.controller
        self._open_hardware = None  # a stop before the first frame opens nothing
        readers, panels, buttons = controller.readers, controller.panels, controller.buttons
        if readers is not None:
            readers.stop()
        if panels is not None:
            panels.close()
        if buttons is not None:
            buttons.close()

    def stop(self, *largs):
        self._leaving = True  # our own stop (exit gesture, SIGTERM, a driver) may close the window
        return super().stop(*largs)

    def leave_kiosk(self) -> None:
        """Close deliberately (the service does not restart it: exit status 64)."""
        self.left_kiosk = True
        notify("STOPPING=1")
        self.stop()

    def _first_frame(self, window) -> None:
        # benchmarks/run.py: note when the first frame reached the screen, then, once the hardware is attached
        # (its memory counts), the memory, and quit; the third line is the process's CPU time at the first frame
        # (s, every thread): a figure a busy machine changes far less than the wall-clock time
        Window.unbind(on_flip=self._first_frame)
        drawn = repr(time.time())
        now = time.process_time()
        cpu = f"cpu={now:.4f}"
        # the fourth line: CPU (s) before build() (interpreter, imports, Kivy's window), in the rest of build(),
        # opening the first game (its rules, its journal: the table's part), making and filling its screens,
        # and from there to the first frame (Kivy's layout and drawing)
        marks = self._phase_cpu
        phases = "phases=" + ",".join(
            f"{name}:{value:.4f}"
            for name, value in (
                ("start", marks["start"]),
                ("build", marks["build"] - marks["start"]),
                ("open", marks["open"] - marks["build"] - marks["made"]),
                ("screens", marks["screens"] - marks["open"] + marks["made"]),
                ("draw", now - marks["screens"]),
            )
        )

        def measure(dt) -> None:
            if not self.hardware_ready.is_set():
                Clock.schedule_once(measure, 0.05)
                return
            try:
                with open("/proc/self/status") as status:
                    memory = " ".join(
                        line.split(":")[0] + "=" + line.split()[1]
                        for line in status
                        if line.startswith(("VmRSS:", "VmHWM:"))
                    )
            except OSError:
                memory = ""
            Path(os.environ["COMPANION_BENCH_FIRST_FRAME"]).write_text(f"{drawn}\n{memory}\n{cpu}\n{phases}\n")
            self.stop()

        Clock.schedule_once(measure, 0)

    def _update_panels(self, dt) -> None:
        panels = self.controller.panels
        if panels is None:
            return
        version, frames = panels.frames()
        if version == self._panel_version:
            return
        self._panel_version = version
        for widget, frame, seat in zip(self.panel_images, frames, self.controller.config.seats):
            widget.texture = oled_texture(frame, seat.colour)

    def _key_down(self, window, key, scancode, codepoint, modifiers):
        """A key went down: the simulator's tray key, a key mapped to a button, else nothing for the keys
        Kivy would act on itself (:data:`KIOSK_SWALLOWED_KEYS`: returning True stops Kivy's handlers)."""
        name = key_name(key, codepoint)
        if self.simulate and self.controller.popup is None and name == SIMULATED_TRAY_KEY:
            self.controller.roll_into_reader()
            return True
        buttons, popup = self.controller.buttons, self.controller.popup
        if buttons is not None and (popup is None or isinstance(popup, SelfTestPopup)) and buttons.key_down(name):
            return True
        if key in KIOSK_SWALLOWED_KEYS:
            log.info("key %s ignored (the kiosk gives it no meaning)", name or key)
            return True
        return False

    # Kivy's settings panel (F1, or a settings button) never opens over the kiosk
    use_kivy_settings = False

    def open_settings(self, *largs) -> bool:
        return False

    def _request_close(self, window, *args, source=None, **kwargs) -> bool:
        """The window was asked to close (SDL's quit, a window manager's close, a key): refused in the kiosk,
        which leaves only through its exit gesture or systemd's stop (SIGTERM); the simulator's window closes
        from its window manager's close button (not from a key)."""
        if self._leaving or (self.simulate and source != "keyboard"):
            return False
        log.info("request to close the window (%s) ignored: the kiosk stays open", source or "window")
        return True

    def _key_up(self, window, key, scancode):
        if self.controller.buttons is None:
            return False
        return self.controller.buttons.key_up(key_name(key, None))

    def on_stop(self) -> None:
        notify("STOPPING=1")
        self.close_hardware()
