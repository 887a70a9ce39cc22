"""The history screen on a long game, in the real Kivy app (run by tests/test_kivy_history.py under Xvfb).

Usage: ``python drive_history.py DATA_DIR OUT_DIR``; DATA_DIR/journal.sqlite3 holds an open TV Wars game of many
moves, which the app resumes at start-up. The steps: a move on the dashboard (the hidden history holds no rows),
History (the newest page), a move while it is shown (one row more at the top), Undo (the undo on top, the move
marked undone), "Show older entries" (a page more), a tap on a row and "Go back" (the jump), Back (the rows
dropped). Each snapshot records what the history's RecycleView holds, into OUT_DIR/result.json.
"""

import harness  # first: it sets Kivy's environment and builds nothing yet
from harness import Retry, find, tap, tap_text

driver = harness.Driver(prefix="history-")
controller, result = driver.controller, driver.result

from companion.commands import EndGame  # noqa: E402
from companion.games.tv_wars import PassOnTheAir  # noqa: E402


def entries():
    return controller.screens.get_screen("history").ids.entries


def snapshot(label):
    data = entries().data
    rows = [item for item in data if item.get("viewclass") is None]
    more = [item["text"] for item in data if item.get("viewclass") == "HistoryMoreRow"]
    session = controller.table.session
    result["steps"].append(
        {
            "label": label,
            "screen": controller.screens.current,
            "rows": len(rows),
            "more": more,
            "first": [(item["seq"], item["in_force"], item["text"]) for item in rows[:3]],
            "flags": {str(item["seq"]): item["in_force"] for item in rows},
            "last_seq": rows[-1]["seq"] if rows else None,
            "window": controller._history is not None,
            "message": controller.message,
            "entry_count": session.entry_count,
            "line": len(session.line),
            "newest_entries": [h.seq for h in session.history_entries(session.entry_count - 3, session.entry_count)],
        }
    )


def more_row_shown():
    """Scroll the history to its end and wait until the "Show older entries" row is on screen."""
    entries().scroll_y = 0
    try:
        return find(entries(), lambda w: type(w).__name__ == "HistoryMoreRow" and w.get_root_window() is not None)
    except LookupError:
        raise Retry() from None


def tap_more():
    tap(more_row_shown())


def wait_for_confirm():
    if controller.popup is None or "Go back to right after" not in controller.popup.title:
        raise Retry()
    result["confirm_title"] = controller.popup.title


def tap_a_row():
    """Tap the topmost visible entry row (scrolled back to the top first)."""
    entries().scroll_y = 1
    rows = [w for w in harness.walk(entries()) if type(w).__name__ == "HistoryRow" and w.get_root_window() is not None]
    if len(rows) < 3:
        raise Retry()
    row = sorted(rows, key=lambda w: -w.to_window(*w.pos)[1])[2]  # the third from the top
    result["tapped_seq"] = row.seq
    tap(row)


def wheel_notch():
    """One notch of a mouse wheel over the history's rows (from the middle of the list): a real scroll touch."""
    from kivy.tests.common import UnitTestTouch

    view = entries()
    view.scroll_y = 0.5
    result["wheel_start"] = view.scroll_y
    x, y = view.to_window(*view.center)
    touch = UnitTestTouch(x, y)
    touch.profile.append("button")
    touch.button = "scrollup"
    touch.touch_down()
    touch.touch_up()


def wheel_moved():
    """Wait until the notch has moved the rows; record how far, in pixels of the screen (#18: slow wheel scrolling)."""
    view = entries()
    if view.scroll_y == result["wheel_start"]:
        raise Retry()
    travel = view.children[0].height - view.height
    result["wheel_px"] = abs(view.scroll_y - result["wheel_start"]) * travel
    result["wheel_travel"] = travel


steps = [
    lambda: snapshot("resumed"),
    lambda: controller.post(PassOnTheAir(network="ABS", source="touch")),
    lambda: snapshot("move while hidden"),
    lambda: tap_text("History"),
    lambda: snapshot("shown"),
    lambda: driver.shot("shown"),
    wheel_notch,
    wheel_moved,
    lambda: controller.post(PassOnTheAir(network="CBA", source="touch")),
    lambda: snapshot("move while shown"),
    lambda: tap_text("Undo"),
    lambda: snapshot("undone while shown"),
    more_row_shown,
    tap_more,
    lambda: snapshot("older page"),
    lambda: driver.shot("older"),
    tap_a_row,
    wait_for_confirm,
    lambda: tap_text("Go back"),
    lambda: snapshot("jumped"),
    lambda: tap_text("Back"),
    lambda: snapshot("left"),
    # the BG Stats button beside Export (issue 20 item 6): refused while the game is played, written once ended
    lambda: tap_text("History"),
    lambda: tap_text("BG Stats"),
    lambda: snapshot("bg stats refused"),
    lambda: driver.shot("bgstats-refused"),
    lambda: controller.post(EndGame(reason="bedtime", source="touch")),
    lambda: tap_text("BG Stats"),
    lambda: snapshot("bg stats written"),
    lambda: driver.shot("bgstats-written"),
]

driver.run(steps)
