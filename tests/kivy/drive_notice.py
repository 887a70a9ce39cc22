"""The start-up notice on the kiosk's first screen (run by tests/test_journal_faults.py under Xvfb).

Usage: ``python drive_notice.py DATA_DIR OUT_DIR``; the app starts on DATA_DIR/journal.sqlite3 as `companion run`
does (with the notice of :func:`companion.journal.startup_notice`) and resumes its latest game. One step, once the
message bar shows a message, records the screen, the message and whether it is shown as a refusal, and takes the
screenshot ``notice-<screen>.png``, into OUT_DIR/result.json.
"""

import harness  # first: it sets Kivy's environment and builds nothing yet
from harness import Retry

driver = harness.Driver(prefix="notice-")
controller, result = driver.controller, driver.result


def shown() -> None:
    screen = controller.screens.current
    bar = controller.screens.get_screen(screen).ids.get("message_bar" if screen == "dashboard" else "message")
    if bar is None or not controller.message or bar.text != controller.message:
        raise Retry("the message bar to show the start-up notice")
    driver.shot(screen)
    result["steps"].append(
        {"label": "shown", "screen": screen, "message": controller.message, "refused": controller.message_refused}
    )


driver.run([shown])
