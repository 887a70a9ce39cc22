"""A Death Show TV combat in the real Kivy app, counting every tap and seat-button press (issue 18).

Run by tests/test_kivy_presses.py in a subprocess with a display (Xvfb): ``python drive_presses_death_show_tv.py
DATA_DIR OUT_DIR``. Three Contestants (no roll-off, 3 Show cards each, seeded dice). Kelpie and Jhon each draw,
move by a tap on the island and end their turn; then Elena draws and Hunts Kelpie (Action Phase, Hunt): the
combat counted from the tap on Kelpie's Location to *Back to the island*: Elena shows a Weapon +2 on the touch
dialog, Kelpie declares on her seat buttons (Bonus +1, Confirm: Unarmed with a +1 card), each fighter rolls
with their seat's Roll button (How Combat Is Resolved 1-5), the result and the Loot, then Back to the island.
Taps are ``harness.TAPS``; presses are counted here (``PRESSES``). ``result.json``: ``marks`` (label → taps and
presses so far, the message, whether it was a refusal). Screenshots ``pr-dst-*.png``.
"""

import harness  # first: it sets Kivy's environment and builds nothing yet
from harness import Retry, find, tap, tap_text

from companion.commands import NewGame, PlayerSeat

driver = harness.Driver(prefix="pr-dst-")
controller, result = driver.controller, driver.result
board, popup, shot = driver.board, driver.popup, driver.shot
NAMES = ("Kelpie", "Jhon", "Elena")
PRESSES = harness.PRESSES
result.update(marks={})


def mark(label):
    def step():
        state = controller.table.state
        result["marks"][label] = {
            "taps": harness.TAPS["count"],
            "presses": PRESSES["count"],
            "refused": controller.message_refused,
            "message": controller.message,
            "mode": board().mode,
            "vitality": {c.name: c.vitality for c in state.contestants},
            "cards": {c.name: c.cards for c in state.contestants},
            "combat": state.combat is not None,
        }

    return step


def press(name, action):
    """One counted press of ``name``'s seat button ``action`` (``on_the_air`` Bonus +1, ``sponsor`` Confirm,
    ``roll``), waited for until the table has heard it."""
    return driver.seat_press(NAMES.index(name), action)


def tap_location(name):
    tap(find(board(), lambda w: type(w).__name__ == "DstIslandCell" and w.location == name))


def stepper_plus(ident, times):
    button = find(popup().ids[ident], lambda w: getattr(w, "text", None) == "+" and hasattr(w, "on_release"))
    for _ in range(times):
        tap(button)


def rolls():
    while controller.dice_roller:
        yield from press(controller.dice_roller, "roll")


def in_combat_result():
    if board().mode != "combat" or controller.table.state.combat is not None:
        raise Retry("the combat result on the combat screen")


def steps():
    yield lambda: controller.post(
        NewGame(
            game="death-show-tv",
            players=tuple(PlayerSeat(n, c) for n, c in zip(NAMES, ("#e53935", "#1e88e5", "#43a047"))),
            options={"roll_off": False, "starting_cards": 3},
            source="touch",
        )
    )
    for name, location in (("Kelpie", "The Caves"), ("Jhon", "The Bunker")):
        yield lambda: tap_text("Draw card")
        yield lambda location=location: tap_location(location)
        yield lambda: tap_text("End turn")
    yield lambda: tap_text("Draw card")
    yield mark("before")
    yield lambda: tap_location("The Caves")  # Kelpie's: a Hunt, at once
    yield mark("hunted")
    yield lambda: shot("declare")
    yield lambda: tap_text("Elena: show cards")
    yield lambda: stepper_plus("weapon", 2)
    yield lambda: shot("declare-dialog")
    yield lambda: tap_text("Confirm", popup())
    yield mark("attacker declared")
    yield from press("Kelpie", "on_the_air")  # Bonus +1
    yield from press("Kelpie", "sponsor")  # Confirm
    yield mark("defender declared")
    yield lambda: shot("odds")
    yield from rolls()
    yield in_combat_result
    yield mark("resolved")
    yield lambda: shot("result")
    yield lambda: tap_text("Back to the island")
    yield mark("after")
    yield lambda: shot("island")


driver.run(steps())
