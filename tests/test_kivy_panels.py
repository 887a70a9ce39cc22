"""The player panels in the real Kivy app (Xvfb): a committed move reaches the panel worker straight from the
table, before the screens are redrawn, and a button press wakes the app to apply it without the clock's tick
(tests/kivy/drive_panels.py)."""

import pytest
from kivy_driver import run_driver

pytestmark = pytest.mark.kivy


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    return run_driver("drive_panels.py", tmp_path_factory.mktemp("data"), tmp_path_factory.mktemp("out"), timeout=180)


def test_a_committed_move_is_on_its_panel_before_the_screens_are_refreshed(result):
    committed = result["committed"]
    assert committed["accepted"] and committed["main_thread"]
    assert committed["idle"], "the panel worker did not finish drawing"
    assert committed["balance"] == 34_000 and committed["frame_is_view"]
    assert committed["refreshes"] == committed["refreshes_before"], "the panels waited for a screen refresh"


def test_a_button_press_is_applied_by_its_own_wake_up_without_the_clock_tick(result):
    assert result["tick_cancelled"]
    pressed = result["pressed"]
    assert pressed["accepted"] and pressed["main_thread"]  # applied on the owner thread, woken by the press
    assert pressed["balance"] == pressed["balance_now"] == 37_000 and pressed["frame_is_view"]
