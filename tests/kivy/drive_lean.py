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
driver = harness.Driver(prefix="lean-", configure=lambda config, flags: dataclasses.replace(config, game=GAME))
controller, result = driver.controller, driver.result


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
