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
from ui.boards import kv_files, screen_kv_files
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
        **kwargs,
    ) -> None:
        super().__init__(**kwargs)
        self.controller = controller
        controller.chosen_game = controller.config.game
        self.simulate = simulate
        self.notice = notice
        self.start_new, self.resume = start_new, resume
        self._panel_version = -1
        self.left_kiosk = False
        self._leaving = False

    def build(self):
        self._load_layouts()
        screens = ScreenManager(transition=NoTransition())
        for screen in (HomeScreen(), DashboardScreen(), HistoryScreen()):
            screens.add_widget(screen)
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
        self._open_first_game()
        # the buttons wake the main thread themselves (post_button); the tick applies what other threads post
        self.drain_tick = Clock.schedule_interval(self.controller.drain, 1 / 30)
        self.controller.refresh()  # the first frame already shows the resumed game
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
        notify("READY=1\nSTATUS=" + (f"game #{session.game_id} open" if session else "home screen"))
        Clock.schedule_once(lambda dt: Window.canvas.ask_update(), 0)

    def stop(self, *largs):
        self._leaving = True  # our own stop (exit gesture, SIGTERM, a driver) may close the window
        return super().stop(*largs)

    def leave_kiosk(self) -> None:
        """Close deliberately (the service does not restart it: exit status 64)."""
        self.left_kiosk = True
        notify("STOPPING=1")
        self.stop()

    def _first_frame(self, window) -> None:
        # benchmarks/run.py: note when the first frame reached the screen and the memory then, then quit
        Window.unbind(on_flip=self._first_frame)
        drawn = repr(time.time())
        try:
            with open("/proc/self/status") as status:
                memory = " ".join(
                    line.split(":")[0] + "=" + line.split()[1]
                    for line in status
                    if line.startswith(("VmRSS:", "VmHWM:"))
                )
        except OSError:
            memory = ""
        Path(os.environ["COMPANION_BENCH_FIRST_FRAME"]).write_text(f"{drawn}\n{memory}\n")
        Clock.schedule_once(lambda dt: self.stop(), 0)

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

    def on_start(self) -> None:
        if self.controller.readers is not None:
            self.controller.readers.start()
            self.controller._reader_status_changed()

    def on_stop(self) -> None:
        notify("STOPPING=1")
        if self.controller.readers is not None:
            self.controller.readers.stop()
        if self.controller.panels is not None:
            self.controller.panels.close()
        if self.controller.buttons is not None:
            self.controller.buttons.close()
