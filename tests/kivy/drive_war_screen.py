"""The Ratings War as the table's screen (ui/games/tv_wars/war_screen.py) in the real Kivy app, by taps.

Run by tests/test_kivy_war_screen.py under Xvfb: ``python drive_war_screen.py DATA_DIR OUT_DIR``. The set-up
(starting programming, landings, secret line-ups) is posted as commands, as the buttons would; the war itself
is played on the screen: the Preemption chosen on the grid with its preview, a cell's details, the dice by
the dice bar, the summary, *Back to the board*. Saves screenshots and a ``result.json``.
"""

import dataclasses
import sys
from functools import partial

import harness  # first: it sets Kivy's environment and builds nothing yet
from harness import Retry
from layout_audit import audit

from companion.commands import NewGame, PlayerSeat  # noqa: E402
from companion.games.tv_wars import LandOn, ProgramSpec, SelectStartingProgramming  # noqa: E402
from companion.games.tv_wars.war_at_table import LockLineUp  # noqa: E402

config = dataclasses.replace(harness.base_config(dice_seed=5), house_rules={"roll_off": False})
config = dataclasses.replace(config, seats=config.seats[:3])
driver = harness.Driver(config=config)
controller, result = driver.controller, driver.result
board, popup, shot = driver.board, driver.popup, driver.shot
tap = partial(harness.tap, scroll=True)
tap_text = partial(harness.tap_text, scroll=True)
result.update(grids={}, prompts={}, events={}, violations=[])

# Five 30-, four 60-, one 90-, one 120-minute programs (2.3), a Special among them; distinct per network.
STANDARD = {
    0: (30, 40, 50, 60, 20, 70, 80, None, 10, 70, 90),
    1: (40, 30, 60, 50, 30, 60, 70, None, 20, 60, 80),
    2: (50, 20, 40, 70, 10, 80, None, 50, 30, 50, 70),
}
SHAPE = ((1, "green"), (1, "green"), (1, "red"), (1, "red"), (1, "blue"), (2, "blue"), (2, "yellow"), (2, "yellow"))
SHAPE += ((2, "red"), (3, "blue"), (4, "green"))


def selection(seat):
    return tuple(
        ProgramSpec(length, colour, rating, special=rating is None)
        for (length, colour), rating in zip(SHAPE, STANDARD[seat])
    )


def land(space):
    controller.post(LandOn(network=controller.table.state.turn, space=space))


def lock_all():
    """Each network locks in a full line-up of its own programs, no bonus tiles: the first network longest
    first, the others their Special first (so the odds are open until the dice)."""
    state = controller.table.state
    for seat, entry in enumerate(state.war.entries):
        left, chosen = 6, []
        tiles = state.network(entry.network).holdings.programs
        order = sorted(tiles, key=lambda t: (seat > 0 and t.kind != "special", -t.length))
        for tile in order:
            if tile.kind in ("program", "special", "movie") and tile.length <= left:
                chosen.append((tile.id, None))
                left -= tile.length
        controller.post(LockLineUp(network=entry.network, placements=tuple(chosen)))


def grid_texts(label):
    screen = board().war_screen
    result["grids"][label] = {
        "mode": screen.mode if screen else "",
        "cells": {f"{slot} {name}": [c.title, c.figure] for (slot, name), c in screen.cells.items()} if screen else {},
        "slots": [b.text for b in screen.slot_buttons] if screen else [],
        "summary": [w.text for w in harness.walk(screen) if hasattr(w, "text") and w.text] if screen else [],
        "cards_shown": board().ids.cards.parent is not None,
        "actions": [b.text for b in board().action_buttons],
    }
    result["prompts"][label] = board().prompt


def check_layout(label):
    """The layout audit (tests/kivy/layout_audit.py) of what is on the touchscreen now: the dashboard with
    the war screen, or the open dialog."""
    from kivy.core.window import Window
    from kivy.uix.modalview import ModalView

    from ui.layout import SIMULATOR_STRIP_HEIGHT, TOUCHSCREEN_SIZE

    area = (0, SIMULATOR_STRIP_HEIGHT, TOUCHSCREEN_SIZE[0], SIMULATOR_STRIP_HEIGHT + TOUCHSCREEN_SIZE[1])
    dialog = next((w for w in Window.children if isinstance(w, ModalView)), None)
    roots = [dialog] if dialog is not None else [controller.screens]
    for violation in audit(area, label, roots, expect_figure=dialog is None):
        result["violations"].append(violation.as_dict())


def events(label):
    result["events"][label] = len(controller.table.session.line)


def mode_is(wanted):
    screen = board().war_screen
    if (screen.mode if screen else "") != wanted:
        raise Retry(f"the war screen to show {wanted!r}")


def roll_war():
    """Roll by the dice bar for whoever the Ratings War asks, until it asks nobody."""
    if controller.dice_roller:
        roller = controller.dice_roller
        tap_text(f"Roll {roller}")
        raise Retry(f"the Ratings War to ask for no more dice (asked of {roller}; {controller.message})")


def tap_cell(slot, network):
    tap(board().war_screen.cells[(slot, network)])


def close():
    popup().dismiss(animation=False)


names = [s.name for s in config.seats]
steps = [
    lambda: controller.post(
        NewGame(
            game="tv-wars",
            players=tuple(PlayerSeat(s.name, s.colour) for s in config.seats),
            options={"roll_off": False},
        )
    ),
    *[
        (lambda i=i, n=n: controller.post(SelectStartingProgramming(network=n, programs=selection(i))))
        for i, n in enumerate(names)
    ],
    # 9.9: the first network holds Best Network News; landing there again it collects the Preemption tile
    lambda: land("best_network_news"),
    lambda: land("ratings_war"),
    lock_all,
    lambda: grid_texts("locked"),
    lambda: result.__setitem__("taps_before_reveal", harness.TAPS["count"]),
    lambda: tap_text("Reveal the line-ups"),
    lambda: mode_is("grid"),
    lambda: grid_texts("preemption"),
    lambda: shot("war-screen-preemption"),
    lambda: check_layout("war-screen-preemption"),
    lambda: events("preemption"),  # before the preview taps
    lambda: tap(board().war_screen.slot_buttons[2]),  # preview 9:00-10:00
    lambda: grid_texts("preview"),
    lambda: shot("war-screen-preview"),
    lambda: check_layout("war-screen-preview"),
    lambda: events("preview"),
    lambda: tap_text(f"{names[0]} preempts"),
    lambda: grid_texts("dice"),
    lambda: shot("war-screen-dice"),
    lambda: check_layout("war-screen-dice"),
    lambda: tap_cell(0, names[1]),
    lambda: result.__setitem__("cell_dialog", [w.text for w in harness.walk(popup()) if getattr(w, "text", "")]),
    lambda: shot("war-screen-cell"),
    lambda: check_layout("war-screen-cell"),
    close,
    roll_war,
    lambda: mode_is("summary"),
    lambda: grid_texts("summary"),
    lambda: shot("war-screen-summary"),
    lambda: check_layout("war-screen-summary"),
    lambda: tap_text("Back to the board"),
    lambda: result.__setitem__("taps_after_war", harness.TAPS["count"]),
    lambda: mode_is(""),
    lambda: grid_texts("dismissed"),
    lambda: shot("war-screen-dismissed"),
]


if __name__ == "__main__":
    sys.exit(driver.run(steps))
