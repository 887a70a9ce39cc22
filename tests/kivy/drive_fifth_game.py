"""The fifth game in the real kiosk (run by tests/test_fifth_game.py under Xvfb, with the test-only distribution
on PYTHONPATH): its own board from its folder, its seat buttons named by its GameInfo, its panels' text from its
view, and the History screen describing its events. Nothing outside tests/data/fifth_game names the game.

Usage: ``python drive_fifth_game.py DATA_DIR OUT_DIR``.
"""

import dataclasses

import harness  # first: it sets Kivy's environment and builds nothing yet
from harness import find, tap, tap_text, until, waiting

GAME = "pass-the-remote"
driver = harness.Driver(
    prefix="fifth-",
    configure=lambda config, flags: dataclasses.replace(config, game=GAME, seats=config.seats[:2]),
)
controller, result = driver.controller, driver.result


def board_shown():
    area = controller.screens.get_screen("dashboard").ids.board_area.children
    return bool(area) and getattr(area[0], "game_name", None) == GAME


def holder():
    return controller.table.state.holder


def seat_key(slot: str) -> str:
    """The simulator's key for the first seat's button in ``slot`` (a, b, c), as the config gives it."""
    seat = controller.table.state.viewers.index(next(v for v in controller.table.state.viewers if v.name == holder()))
    return driver.config.seats[seat].buttons["abc".index(slot)].key


def record(label):
    state = controller.table.state
    view = controller.table.view()
    result["steps"].append(
        {
            "label": label,
            "game": controller.table.session.rules.info.name,
            "board": type(driver.board()).__name__,
            "holder": state.holder,
            "points": {v.name: v.points for v in state.viewers},
            "turn_points": state.turn_points,
            "headlines": [p.headline for p in view.players],
            "history": [entry.text for entry in controller.table.history()],
            "key_help": controller.key_help,
        }
    )


def press_holder(slot):
    """The steps of a press of the holder's seat button ``slot`` (looked up when the press starts)."""
    state = {}

    def down():
        state["steps"] = driver.press(seat_key(slot))
        state["steps"][0]()

    yield down
    for index in range(1, 5):  # pressed, up, released, told (Driver.press)
        yield lambda index=index: state["steps"][index]() if index < len(state["steps"]) else None


def tap_watch():
    button = find(driver.board(), lambda w: getattr(w, "legal_kind", None) == "Watch")
    until(lambda: not button.disabled, "the Watch button to be enabled for the holder")
    tap(button)


steps = [
    lambda: controller.new_game(2),  # as the Home screen's player-count button does
    waiting(board_shown, "the Pass the Remote board on the dashboard"),
    lambda: record("started"),
    lambda: driver.shot("board"),
    *press_holder("a"),  # Watch (the game's slot a)
    waiting(lambda: controller.table.state.watching, "the die to be asked for"),
    *press_holder("c"),  # Roll: built-in dice
    waiting(lambda: not controller.table.state.watching, "the die to be rolled"),
    lambda: record("rolled"),
    lambda: driver.save_panels("after-roll"),
    tap_watch,  # the board's own button, made from legal_commands
    waiting(lambda: controller.table.state.watching, "the die asked for by the board's Watch"),
    lambda: record("watched-by-touch"),
    lambda: driver.shot("watching"),
    lambda: tap_text("History"),
    waiting(lambda: controller.screens.current == "history", "the History screen"),
    lambda: driver.shot("history"),
    lambda: record("history"),
]
driver.run(steps)
