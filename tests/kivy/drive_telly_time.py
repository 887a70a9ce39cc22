"""Plays the start of a Telly Time game in the real Kivy app by tapping the Telly Time board.

Run by tests/test_kivy_telly_time.py in a subprocess with a display (Xvfb). Usage:
``python drive_telly_time.py DATA_DIR OUT_DIR [--touchscreen]``. Writes screenshots (``tt-*.png``), the
emulated panels and ``result.json`` (what the board and the bars showed after each step, and any errors).
``--touchscreen``: the window is the 800×480 touchscreen alone (no simulator strip, so no panel images), for
screenshots the size of the kiosk's screen.
"""

import sys

import harness  # first: it sets Kivy's environment and builds nothing yet
from harness import find, tap, waiting

from companion.commands import NewGame, PlayerSeat

TOUCHSCREEN_ONLY = "--touchscreen" in sys.argv
driver = harness.Driver(simulate=not TOUCHSCREEN_ONLY)
controller, result = driver.controller, driver.result
board, shot, save_panels = driver.board, driver.shot, driver.save_panels

# Arkady's tile is entered with Drama and Kids the wrong way round (fixed by tapping a square);
# Virginia's comes complete from the set-up.
TILES = {
    "Comedy": {
        "squares": ["Drama", "Kids", "Quiz", "Crime", "Comedy", "Reality", "Sports", "Chat", "Sci-Fi"],
        "bonuses": {"row1": {"label": "Cash bonus", "cash_m": 3}},
    },
    "Reality": {
        "squares": ["Drama", "Sports", "Comedy", "Kids", "Reality", "Quiz", "Chat", "Crime", "Sci-Fi"],
        "bonuses": {"col1": {"label": "Network bonus"}, "diag2": {"label": "Wild bonus"}},
    },
}


def action(text):
    """Tap the board's action button ``text``."""
    return lambda: tap(find(board().ids.actions, lambda w: getattr(w, "text", None) == text))


def tab(name):
    return lambda: tap(find(board().ids.tabs, lambda w: getattr(w, "player", None) == name))


def square(index):
    return lambda: tap(board().cells[index])


def choose(field, option):
    """Tap the option whose value is ``option`` in the open form's choice ``field``."""
    return lambda: tap(controller.popup.fields[field].buttons[option], scroll=True)


def step_field(field, sign, times=1):
    """Tap the − or + of the open form's stepper ``field`` ``times`` times."""

    def run():
        button = find(controller.popup.fields[field], lambda w: getattr(w, "text", None) == sign)
        for _ in range(times):
            tap(button, scroll=True)  # a row below the dialog's scroll edge is scrolled to first, as a finger does

    return run


def ok():
    tap(
        find(
            controller.popup,
            lambda w: getattr(w, "text", None) == controller.popup.ok_text and hasattr(w, "on_release"),
        )
    )


def snapshot(label):
    state = controller.table.state
    b = board()
    result["steps"].append(
        {
            "label": label,
            "message": controller.message,
            "refused": controller.message_refused,
            "status": controller.status,
            "shown": b.shown,
            "cash_text": b.cash_text,
            "viewers_text": b.viewers_text,
            "grid_text": b.grid_text,
            "lines_text": b.lines_text,
            "actions": [w.text for w in b.ids.actions.children[::-1]],
            "unavailable": [w.unavailable for w in b.ids.actions.children[::-1]],
            "tabs": [w.text for w in b.ids.tabs.children[::-1]],
            "cells": [[c.genre, c.filled, c.in_line] for c in b.cells],
            "cash": {n.name: n.cash_m for n in state.networks},
            "viewers": {n.name: n.viewers for n in state.networks},
            "season": state.season,
            "phase": state.phase,
            "current": state.current,
            "popup": controller.popup.title if controller.popup is not None else None,
            "problem": getattr(controller.popup, "problem", None),
            "values": controller.popup.values() if hasattr(controller.popup, "values") else None,
        }
    )


def new_game():
    controller.post(
        NewGame(
            game="telly-time",
            players=(PlayerSeat("Arkady", "#e53935"), PlayerSeat("Virginia", "#1e88e5")),
            options={"tiles": TILES},
            source="touch",
        )
    )


steps = [
    new_game,
    lambda: snapshot("started"),
    lambda: shot("tt-1-pilot"),
    square(0),
    lambda: snapshot("square before pilot"),  # refused: no tile yet
    action("Pilot show"),
    choose("genre", "Comedy"),
    choose("slot", "8pm"),
    lambda: shot("tt-2-pilot-popup"),
    ok,
    lambda: snapshot("pilot Arkady"),
    square(0),
    choose("genre", "Kids"),
    lambda: shot("tt-3-square-popup"),
    lambda: snapshot("square popup"),
    ok,
    lambda: snapshot("square swapped"),
    square(4),
    lambda: snapshot("centre tapped"),
    action("Keep 2 cards"),
    step_field("cash1", "+", 4),
    choose("kind2", "star"),
    step_field("cost2", "+", 1),
    lambda: shot("tt-4-cards-popup"),
    ok,
    lambda: snapshot("cards Arkady"),  # Arkady is set up: the board goes on to Virginia, who is not
    tab("Arkady"),
    action("Line bonus"),
    choose("line", "col2"),
    choose("label", "Star bonus"),
    step_field("viewers", "+", 2),
    lambda: shot("tt-5-bonus-popup"),
    ok,
    lambda: snapshot("bonus Arkady"),
    action("Start season 1"),
    lambda: snapshot("start refused"),
    tab("Virginia"),
    action("Pilot show"),
    choose("genre", "Reality"),
    choose("slot", "late_night"),
    choose("also", "primetime"),  # two preferred timeslot icons (Wild Timeslots)
    lambda: shot("tt-2b-pilot-two-slots-popup"),
    ok,
    lambda: snapshot("pilot Virginia chosen"),
    action("Keep 2 cards"),
    step_field("cash1", "+", 3),
    step_field("cash2", "+", 2),
    ok,
    lambda: snapshot("pilot Virginia"),
    action("Start season 1"),
    lambda: snapshot("season 1"),
    lambda: shot("tt-6-season1"),
    tab("Virginia"),  # not her turn: her turn's buttons are dimmed and say why
    lambda: snapshot("Virginia waits"),
    lambda: shot("tt-6b-virginia-waits"),
    action("Produce show"),
    lambda: snapshot("Virginia produce explained"),
    tab("Arkady"),
    action("Produce show"),
    choose("genre", "Chat"),
    choose("slot", "primetime"),
    choose("prefers", "primetime"),
    step_field("cost", "+", 1),
    lambda: shot("tt-7-produce-popup"),
    ok,
    lambda: snapshot("Arkady produced Chat"),
    tab("Arkady"),  # his Chat show: Writeoff's clarification applies (and to no show of Virginia's)
    lambda: snapshot("Arkady Writeoff offered"),
    lambda: shot("tt-7a-writeoff-offered"),
    action("Writeoff"),
    step_field("viewers", "+", 3),
    step_field("penalty", "+", 1),
    step_field("others", "+", 6),
    ok,  # refused: the Chat show is in its preferred timeslot
    waiting(lambda: controller.popup is not None and controller.popup.problem, "the Writeoff refusal in its dialog"),
    lambda: snapshot("Writeoff refused"),
    lambda: shot("tt-7b-writeoff-refused-popup"),
    step_field("penalty", "−", 1),
    ok,
    lambda: snapshot("Writeoff recorded"),
    tab("Virginia"),
    action("Produce show"),
    choose("genre", "Kids"),
    choose("slot", "late_night"),
    ok,
    lambda: snapshot("Kids refused"),
    lambda: shot("tt-8-kids-refused"),
    action("Other action"),
    choose("action", "Land an ad"),
    step_field("cash", "+", 2),
    ok,
    lambda: snapshot("Virginia ad"),
    action("Produce show"),
    choose("genre", "Drama"),
    choose("slot", "weekend"),
    choose("prefers", "any"),
    ok,
    lambda: snapshot("Arkady completes column"),
    lambda: shot("tt-9-column"),
    action("Pass"),
    choose("reward", "cash"),
    step_field("amount", "+", 5),
    lambda: shot("tt-10-pass-popup"),
    ok,
    lambda: snapshot("Virginia passed"),
    action("Pass"),
    choose("reward", "viewers"),
    step_field("amount", "+", 6),
    ok,
    lambda: snapshot("Arkady passed"),
    tab("Arkady"),
    action("Score lineup"),
    step_field("8pm", "+", 2),
    step_field("primetime", "+", 3),
    step_field("late_night_stars", "+", 4),
    step_field("weekend", "+", 1),
    step_field("weekend_stars", "+", 2),
    step_field("income", "+", 2),
    lambda: shot("tt-11-score-popup"),
    ok,
    lambda: snapshot("Arkady scored"),
    tab("Virginia"),
    action("Score lineup"),
    step_field("late_night", "+", 3),
    ok,
    lambda: snapshot("season 2"),
    lambda: shot("tt-12-season2"),
    tab("Arkady"),
    lambda: snapshot("Arkady grid"),
    lambda: shot("tt-13-arkady-grid"),
    # a Cost entered as +$3M (the stepper starts at +1): paid all the same
    action("Cash ±"),
    step_field("amount", "+", 2),
    choose("reason", "Cost"),
    lambda: shot("tt-14-cash-cost"),
    ok,
    lambda: snapshot("Arkady cost"),
    *([] if TOUCHSCREEN_ONLY else [lambda: save_panels("tt")]),
]


driver.run(steps)
