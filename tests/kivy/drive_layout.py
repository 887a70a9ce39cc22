"""The layout audit's driver: every screen and the dialogs of every game, checked by tests/kivy/layout_audit.py.

Run by tests/test_layout_audit.py in a subprocess with a display (Xvfb), with ``COMPANION_SCREEN_SIZE`` set to
the orientation under test (``800x480`` or ``480x800``). Usage: ``python drive_layout.py DATA_DIR OUT_DIR
[GAME…]``. For each game (default: all four):

1. the Home screen with that game chosen is audited;
2. a random game is drawn with hypothesis (``tests/random_games.py``, the monkey's and the property tests'
   vocabularies; ``derandomize``: the same game every run) on a scratch table of its own, keeping the
   commands it accepted; the app plays them one at a time (a command the app's table refuses, because its
   dice fell otherwise, changes nothing), and the dashboard is audited after each;
3. every :data:`EXPLORE_EVERY` commands, each button the board shows is tapped in turn (seeded order): a
   dialog it opens is audited, then a few of the dialog's own buttons are tapped (seeded) and audited after
   each, then the dialog is closed; a tap that moved the game is fine (the audit is of what is shown);
4. the History screen is audited.

Screenshots ``layout-<orientation>-<game>-*.png`` of the dashboard (start, middle, end) and of the first
shot of each dialog class go to OUT_DIR. ``result.json`` holds, besides the harness's ``steps``/``errors``:
``violations`` (every one found, as dicts with the game) and ``audits`` (how many views were audited per game).
"""

import random
import sys
from pathlib import Path

import harness  # first: it sets Kivy's environment and builds nothing yet
from harness import tap

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/: random_games and its vocabularies

import test_death_show_tv_props  # noqa: E402
import test_tv_wars_play  # noqa: E402
import test_tv_wars_play_properties  # noqa: E402
from layout_audit import audit  # noqa: E402
from telly_time_helpers import TILES, seats  # noqa: E402

from companion.commands import NewGame, PlayerSeat  # noqa: E402
from companion.games.channel_won import CHANNEL_WON  # noqa: E402
from companion.games.tv_wars import SelectStartingProgramming  # noqa: E402

GAMES = ("tv-wars", "death-show-tv", "channel-won", "telly-time")
TAPS = 60  # seeded taps per game
DIALOG_TAPS = 4  # taps inside an open dialog before it is closed

driver = harness.Driver()
games = driver.flags or GAMES
controller, result = driver.controller, driver.result

from kivy.core.window import Window  # noqa: E402
from kivy.uix.modalview import ModalView  # noqa: E402

from ui.layout import SIMULATOR_STRIP_HEIGHT, TOUCHSCREEN_SIZE  # noqa: E402

ORIENTATION = "portrait" if TOUCHSCREEN_SIZE[1] > TOUCHSCREEN_SIZE[0] else "landscape"
driver.prefix = f"layout-{ORIENTATION}-"
SCREEN = (0, SIMULATOR_STRIP_HEIGHT, TOUCHSCREEN_SIZE[0], SIMULATOR_STRIP_HEIGHT + TOUCHSCREEN_SIZE[1])
result.update(orientation=ORIENTATION, window=list(Window.size), violations=[], audits={}, commands={})
rng = random.Random(20261)
shot_dialogs: set = set()

#: Buttons the exploration leaves alone: they leave the game or its screen, or go back in time.
SKIP = ("Home", "History", "Undo", "Redo", "End game", "Export", "Leave")


def start_commands(game: str) -> list:
    """The commands that start the audited game of ``game``: the seats and options of tests/random_games.py,
    fixed (a TV Wars game with its starting Program tiles, so auctions and the grid show)."""
    if game == "tv-wars":
        names = (*test_tv_wars_play_properties.NAMES, "NBS")  # four networks: the narrowest cards in landscape
        return [NewGame(game=game, players=tuple(PlayerSeat(n) for n in names), options={"roll_off": False})] + [
            SelectStartingProgramming(network=n, programs=test_tv_wars_play.STANDARD) for n in names
        ]
    if game == "death-show-tv":
        names = test_death_show_tv_props.NAMES[:4]
        options = {"vitality": 2, "roll_off": False, "starting_cards": 2}
        return [NewGame(game=game, players=tuple(PlayerSeat(n) for n in names), options=options)]
    if game == "channel-won":
        names = CHANNEL_WON.info.default_names[:4]  # four: a category left out (its note) and the reporters' row
        return [NewGame(game=game, players=tuple(PlayerSeat(n) for n in names), options={"score_open_leads": True})]
    return [NewGame(game=game, players=seats(), options={"tiles": TILES})]


def top_dialog():
    return next((w for w in Window.children if isinstance(w, ModalView)), None)


def where() -> str:
    dialog = top_dialog()
    return type(dialog).__name__ if dialog is not None else controller.screens.current


def check(game: str, label: str) -> None:
    dialog = top_dialog()
    roots = [dialog] if dialog is not None else [controller.screens]
    found = audit(
        SCREEN,
        where(),
        roots,
        expect_figure=dialog is None and controller.screens.current == "dashboard",
    )
    result["audits"][game] = result["audits"].get(game, 0) + 1
    for violation in found:
        result["violations"].append({"game": game, "at": label, **violation.as_dict()})
    if dialog is not None and type(dialog).__name__ not in shot_dialogs:
        shot_dialogs.add(type(dialog).__name__)
        driver.shot(f"{game}-dialog-{type(dialog).__name__}")


def buttons(root):
    """The visible, enabled buttons under ``root`` a finger reaches, in a stable order, without :data:`SKIP`."""
    found, stack = [], [root]
    while stack:
        widget = stack.pop()
        if getattr(widget, "disabled", False) or getattr(widget, "opacity", 1) <= 0:
            continue
        text = getattr(widget, "text", "")
        if (
            widget is not root
            and hasattr(widget, "on_release")
            and type(widget).__name__ != "HistoryRow"
            and not (isinstance(text, str) and text.startswith(SKIP))
            and widget.width > 1
            and widget.height > 1
        ):
            x, y = widget.to_window(*widget.center)
            if 0 <= x < Window.width and SCREEN[1] <= y < SCREEN[3]:
                found.append(widget)
        stack.extend(reversed(widget.children))
    return found


def close_dialog() -> None:
    dialog = top_dialog()
    if dialog is not None:
        dialog.dismiss(animation=False)


def game_steps(game: str):
    yield close_dialog
    yield controller.go_home
    yield lambda: check(game, "home")
    for command in start_commands(game):
        yield lambda command=command: controller.post(command)
    yield harness.waiting(lambda: controller.screens.current == "dashboard", "the new game's dashboard")
    yield lambda: check(game, "start")
    yield lambda: driver.shot(f"{game}-start")
    in_dialog = {"taps": 0}

    def act() -> None:
        dialog = top_dialog()
        if dialog is not None and in_dialog["taps"] >= DIALOG_TAPS:
            close_dialog()
            dialog = None
        in_dialog["taps"] = in_dialog["taps"] + 1 if dialog is not None else 0
        found = buttons(dialog if dialog is not None else controller.screens.current_screen)
        if found:
            tap(rng.choice(found))

    for index in range(TAPS):
        yield act
        yield lambda index=index: check(game, f"tap {index}")
        if index in (TAPS // 3, 2 * TAPS // 3):
            yield lambda index=index: driver.shot(f"{game}-tap{index}")
    yield close_dialog
    yield lambda: driver.shot(f"{game}-end")
    yield controller.show_history
    yield lambda: check(game, "history")
    yield lambda: driver.shot(f"{game}-history")
    yield controller.show_dashboard


def steps():
    for game in games:
        yield from game_steps(game)


driver.run(steps(), timeout=20)
