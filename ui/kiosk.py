"""Wires the kiosk together (the ``kiosk`` front-end of ``companion run``). ``run`` only wires.

Simulator mode (``--sim``, or no Raspberry Pi detected): an 800×480 touchscreen area plus a strip of
emulated OLED panels in one window; keyboard keys drive each seat's buttons on gpiozero mock pins.
On a Pi: the same, with real pins; full-screen kiosk details and real panels are later issues.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

from companion.config import Config
from companion.errors import CompanionError
from companion.journal import Journal

log = logging.getLogger("companion.kiosk")

#: Taken on a Pi in addition to the data directory's lock, so two companions never share the GPIO pins.
HARDWARE_LOCK = Path("/run/lock/tabletop-companion-hardware.lock")


def display_problem(environ=os.environ, dri: Path = Path("/dev/dri")) -> str | None:
    """What is missing for a screen, or None: an X or Wayland display, or a DRM device for Kivy's direct
    rendering on Raspberry Pi OS Lite. Checked before Kivy opens a window, so a kiosk started before its
    display exits at once with one line and systemd tries again, instead of running blind."""
    if environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"):
        return None
    if environ.get("SDL_VIDEODRIVER", "kmsdrm") in ("kmsdrm", "KMSDRM") and any(dri.glob("card*")):
        return None
    return (
        "no display: $DISPLAY and $WAYLAND_DISPLAY are unset and there is no DRM device (/dev/dri/card*); "
        "is the screen connected and the KMS driver (dtoverlay=vc4-kms-v3d) enabled?"
    )


#: The exit status after a deliberate exit gesture (the unit's RestartPreventExitStatus): do not restart.
EXIT_LEFT_KIOSK = 64


def run(
    *,
    journal: Journal,
    config: Config,
    simulate: bool = False,
    resume: int | None = None,
    start_new: bool = False,
    notice: str = "",
) -> int:
    """Run the touchscreen (and, simulated, the panels and keyboard buttons) until the window closes.

    Returns the process exit code (0). Raises :class:`companion.errors.ConfigError` for an unusable
    GPIO backend before any window opens.
    """
    import ui.layout  # noqa: F401  a malformed COMPANION_SCREEN_SIZE is a ConfigError before anything else

    problem = display_problem()
    if problem:
        raise CompanionError(problem)
    from hardware.pins import board_model

    simulate = simulate or not board_model()
    hardware_lock = None
    if not simulate:  # one companion per board, whatever data directory it uses: the pins are shared
        from companion.lock import InstanceLock

        hardware_lock = InstanceLock(HARDWARE_LOCK).acquire()
    app = build_app(
        journal=journal, config=config, simulate=simulate, resume=resume, start_new=start_new, notice=notice
    )
    import signal

    from kivy.clock import Clock

    def stop_cleanly(signum, frame):  # systemd's stop: leave through on_stop (panel exit screens)
        Clock.schedule_once(lambda dt: app.stop(), 0)

    signal.signal(signal.SIGTERM, stop_cleanly)
    try:
        app.run()
    finally:
        # a clean stop is a safe point too: the backup thread writes it, and Journal.close() (in the CLI)
        # lets it finish
        app.controller.table.journal.backup_soon()
        app.close_hardware()
        if app.controller.web is not None:
            app.controller.web.stop()
        if hardware_lock is not None:
            hardware_lock.release()
    return EXIT_LEFT_KIOSK if app.left_kiosk else 0


def configure_input(kivy_config, *, simulate: bool, environ=os.environ, touch=None):
    """Set Kivy's ``[input]`` section so that every tap arrives exactly once (see :mod:`ui.touch`), and
    return the :class:`ui.touch.TouchScan` used, or ``None`` when a display server reads the devices.

    The app owns the whole section: whatever Kivy's own config file has there (Kivy writes a ``probesysfs``
    line into a new ``~/.kivy/config.ini`` on Linux, which would read a laptop's touchscreen a second time)
    is removed. Always a ``mouse`` provider (``disable_multitouch``: no red dots for right clicks), fed by the
    SDL2 window: the desktop's and the simulator's pointer, a USB mouse on the Lite kiosk. On the Lite kiosk
    (no display server, or ``touch`` given), one provider per touchscreen found by :func:`ui.touch.scan`."""
    from ui.touch import kivy_input_lines, owns_input_devices, scan

    for option in list(kivy_config.options("input")):
        kivy_config.remove_option("input", option)
    kivy_config.set("input", "mouse", "mouse,disable_multitouch")
    if touch is None and (simulate or not owns_input_devices(environ)):
        log.info("input: pointer events from the display server (mouse provider only)")
        return None
    found = touch if touch is not None else scan()
    for name, line in kivy_input_lines(found).items():
        kivy_config.set("input", name, line)
        log.info("input: %s reads %s", line.split(",", 1)[0], line.split(",", 1)[1])
    if found.problem:
        log.error("Touch unavailable: %s", found.problem)
    return found


def _tile_registry(journal: Journal, registry_class):
    """The tile registry in the journal's file; for a journal that cannot be written, a registry in memory
    holding the tiles learned so far (tiles learned now are not kept)."""
    if not journal.read_only:
        try:
            return registry_class(journal.path)
        except CompanionError as error:
            log.error("%s; tiles learned now are not kept", error)
    registry = registry_class(":memory:")
    for uid, kind, details, _learned in journal.tile_rows():
        try:
            registry.learn(uid, kind, json.loads(details))
        except (CompanionError, ValueError) as error:
            log.warning("tile %s is not usable: %s", uid, error)
    return registry


def build_app(
    *,
    journal: Journal,
    config: Config,
    simulate: bool,
    resume: int | None = None,
    start_new: bool = False,
    notice: str = "",
    touch=None,
    panel_bus=None,
):
    """Configure Kivy and build the :class:`ui.app.CompanionApp` with its table, buttons and panels
    (not yet running). Must be called before anything else imports ``kivy.core.window``.

    ``touch``: a :class:`ui.touch.TouchScan` to use instead of scanning ``/sys/class/input`` (tests feed
    recorded devices through it); given, the app reads those touchscreens itself even under a display server.
    ``panel_bus(n)``: an smbus2-like object for I²C bus ``n``; given, the panels are the configured real ones
    (luma.oled drivers, :func:`hardware.panel_devices.open_panels`) on it, in the simulator too (benchmarks
    count the bytes the kiosk puts on the bus)."""
    touch_problem = _configure_kivy(simulate, touch)

    from companion.dice import DiceReaderPort, table_dice
    from companion.table import Table
    from companion.tiles import TileRegistry
    from firmware_bridge.dice_match import RollTray
    from ui.app import CompanionApp, TableController

    specs = _reader_specs(config)  # a ConfigError before any window opens
    if simulate and config.panel_driver != "emulated" and panel_bus is None:
        log.info("panels.driver = %s is for a Raspberry Pi; the simulator shows emulated panels", config.panel_driver)
    table = Table(journal, dice=table_dice(config.dice_mode, config.dice_seed))  # a Roll in manual mode: refused
    notices = [notice] if notice else []
    if touch_problem:
        notices.append(f"Touch unavailable: {touch_problem}")
    dice_port = DiceReaderPort()
    controller = TableController(
        table,
        config,
        tray=RollTray(dice_port),
        tiles=_tile_registry(journal, TileRegistry),
        touch_problem=touch_problem,
    )

    def open_hardware() -> tuple[dict, list[str]]:
        """The buttons, panels and readers (:meth:`TableController.attach_hardware`'s keywords) and what could
        not be opened; called by the app on its main thread just after the first frame."""
        from firmware_bridge.service import ReaderService
        from hardware.panels import PanelBank

        problems: list[str] = []
        hardware = {
            # the buttons post through the controller: on Home the table buttons navigate
            "buttons": _open_buttons(config, table, controller.post_button, simulate, problems),
            "panels": PanelBank(devices=_open_panel_devices(config, simulate, panel_bus, problems)),
            # on a desktop, a simulated dice reader too
            "readers": ReaderService(specs, dice_port=dice_port, simulate_dice=simulate),
        }
        return hardware, problems

    controller.use_web(_start_web(config, table, notices))  # after the controller: the panels hear of a move first
    return CompanionApp(
        controller,
        simulate=simulate,
        notice=" · ".join(notices),
        start_new=start_new,
        resume=resume,
        open_hardware=open_hardware,
    )


def _reader_specs(config: Config) -> list:
    """The configured readers (:class:`firmware_bridge.reader.ReaderSpec`); raises ConfigError for a broken one.
    Without readers, nothing of the serial bridge is imported before the first frame."""
    if not config.readers:
        return []
    from firmware_bridge.reader import ReaderSpec

    return [
        ReaderSpec.from_mapping(spec, f"readers[{index}]", config.source) for index, spec in enumerate(config.readers)
    ]


def _start_web(config: Config, table, notices: list[str]):
    """The web front-end (:mod:`web`) when ``[web] enabled``, else ``None`` (and nothing of it imported: no network
    listener). Its server's process (:mod:`web.worker`, started from a thread) imports the web framework and starts
    listening while the window opens; if the package's ``[web]`` extra is missing, a notice says so and the kiosk
    runs without it."""
    if not config.web.enabled:
        return None
    import importlib.util

    missing = [name for name in ("starlette", "uvicorn", "wsproto", "segno") if importlib.util.find_spec(name) is None]
    if missing:
        problem = f"Phones are off: {', '.join(missing)} not installed (pip install 'tabletop-companion[web]')"
        log.error("%s", problem)
        notices.append(problem)
        return None
    from kivy.clock import Clock

    from web import start_web

    # snapshots for the phones are built on the main thread at the next frame, after the panels and the screen
    return start_web(config, table, wait=False, defer=lambda function: Clock.schedule_once(lambda dt: function(), 0))


def _configure_kivy(simulate: bool, touch) -> str:
    """Kivy's settings for the kiosk (or the simulator's window), before its window is imported; returns the
    touch problem (``""`` when a touchscreen is read, :mod:`ui.touch`)."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")  # Kivy logs through our logging set-up, once
    from kivy.config import Config as KivyConfig

    from ui.layout import SIMULATOR_STRIP_HEIGHT, TOUCHSCREEN_SIZE

    width, height = TOUCHSCREEN_SIZE
    KivyConfig.set("graphics", "width", str(width))
    KivyConfig.set("graphics", "height", str(height + (SIMULATOR_STRIP_HEIGHT if simulate else 0)))
    KivyConfig.set("graphics", "resizable", "0")
    found = configure_input(KivyConfig, simulate=simulate, touch=touch)
    KivyConfig.set("kivy", "exit_on_escape", "0")
    # a touchscreen without a keyboard: typing a reason brings up Kivy's on-screen keyboard
    KivyConfig.set("kivy", "keyboard_mode", "" if simulate else "systemanddock")
    KivyConfig.set("kivy", "window_icon", "")
    # free events (a button press waking the main thread, ui.controller.wake_trigger) run between frames at once;
    # everything else keeps to the frame rate as with the default clock. KIVY_CLOCK in the environment wins.
    KivyConfig.set("kivy", "kivy_clock", "free_only")
    return found.problem if found is not None else ""


def _open_buttons(config: Config, table, post_button, simulate: bool, notices: list[str]):
    """The seat and table buttons (:class:`hardware.buttons.ButtonBoard`), or ``None`` with a notice when no GPIO
    backend is usable (the touchscreen still works). A seat button stands for the game in use's action, the same
    command its on-screen twin sends; with the dice entered by hand or read, the table refuses the Roll with what
    to do instead (:class:`companion.dice.HandDice`), on the screen and the seat's panel."""
    from companion.games import find_game
    from hardware.buttons import ButtonBoard

    def command_for(action: str, player: str):
        rules = table.session.rules if table.session else find_game(config.game)
        return rules.button_command(action, player, "button")

    try:
        buttons = ButtonBoard(config, post_button, command_for, simulate=simulate)
    except Exception as error:  # no usable GPIO backend: say so once, keep the touchscreen usable
        problem = f"Buttons are off: no usable GPIO backend ({error})"
        log.error("%s", problem)
        notices.append(problem)
        return None
    log.info(
        "buttons on %s pins (%s mode)",
        type(buttons.factory).__name__ if buttons.factory else "default",
        "simulator" if simulate else "Pi",
    )
    return buttons


def _open_panel_devices(config: Config, simulate: bool, panel_bus, notices: list[str]) -> list:
    """The player panels' devices (:func:`hardware.panel_devices.open_panels`); emulated ones, with a notice, when
    the configured bus cannot be opened (the touchscreen still works)."""
    from hardware.panel_devices import open_panels

    try:
        return open_panels(config, simulate=simulate and panel_bus is None, open_bus=panel_bus)
    except Exception as error:  # a missing panel bus must not keep the touchscreen from working
        log.error("%s; the panels are off, the touchscreen works", error)
        notices.append(f"Panels are off: {error}")
        return open_panels(config, simulate=True)
