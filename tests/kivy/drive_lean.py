"""A kiosk that opens one game loads only that game (run by tests/test_lean_start.py under Xvfb).

Usage: ``python drive_lean.py DATA_DIR OUT_DIR GAME``; DATA_DIR/journal.sqlite3 holds an open game of GAME, which
the app (configured for GAME) resumes at start-up. One step, once the resumed game's board is on the screen,
records the ``.kv`` files Kivy's Builder has loaded (relative to the ``ui`` package) and which games' and boards'
modules are imported, into OUT_DIR/result.json.
"""

import dataclasses
import sys
from pathlib import Path

import harness  # first: it sets Kivy's environment and builds nothing yet
from harness import Retry

GAME = sys.argv[3]
HOME = "--home" in sys.argv  # an empty journal: the Home screen first, then the hardware attached after it
driver = harness.Driver(prefix="lean-", configure=lambda config, flags: dataclasses.replace(config, game=GAME))
controller, result = driver.controller, driver.result


def _loaded_kv() -> list[str]:
    from kivy.lang import Builder

    import ui

    root = Path(ui.__file__).resolve().parent
    return sorted(
        Path(name).resolve().relative_to(root).as_posix()
        for name in Builder.files
        if Path(name).resolve().is_relative_to(root)
    )


def _modules() -> list[str]:
    return sorted(name for name, module in sys.modules.items() if module is not None)


def first_frame(window) -> None:
    """The first frame is on the screen: what is loaded by then (before anything the app does after it)."""
    window.unbind(on_flip=first_frame)
    result["first_frame"] = {"screen": controller.screens.current, "modules": _modules(), "kv": _loaded_kv()}


def attached() -> None:
    """The runner waits for the hardware to be attached before its first step: what it is and shows."""
    if not driver.panels_idle():
        raise Retry("the panels to draw the Home screen's text")
    _, frames = controller.panels.frames()
    driver.save_panels("home")
    result["steps"].append(
        {
            "label": "attached",
            "screen": controller.screens.current,
            "modules": [m for m in _modules() if m.startswith(("gpiozero", "hardware.", "firmware_bridge.", "luma"))],
            "buttons": controller.buttons is not None and bool(controller.buttons.detectors),
            "panels": len(controller.panels.devices),
            "reader_status": controller.reader_status,
            "panels_lit": [frame.getbbox() is not None for frame in frames],
        }
    )


if HOME:
    from kivy.core.window import Window

    Window.bind(on_flip=first_frame)
    driver.run([attached])
    sys.exit(0)


def loaded():
    from kivy.lang import Builder

    import ui

    board = controller.screens.get_screen("dashboard").ids.board_area.children
    if not board or getattr(board[0], "game_name", None) != GAME:
        raise Retry("the resumed game's board is not shown yet")
    root = Path(ui.__file__).resolve().parent
    files = sorted(
        Path(name).resolve().relative_to(root).as_posix()
        for name in Builder.files
        if Path(name).resolve().is_relative_to(root)
    )
    modules = sorted(
        name
        for name in sys.modules
        if name.startswith(("companion.games.", "ui.games.")) and sys.modules[name] is not None
    )
    core = sorted(
        name
        for name in sys.modules
        if name.startswith("companion") and sys.modules[name] is not None and not name.startswith("companion.games.")
    )
    result["steps"].append(
        {
            "label": "resumed",
            "kv": files,
            "modules": modules,
            "core": core,
            "game": controller.table.session.rules.info.name,
            "screen": controller.screens.current,
        }
    )


driver.run([loaded])
