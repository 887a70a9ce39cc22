"""The game drivers' screens at 480×800 portrait (issue 18, item 3): each Kivy driver that plays a game through
its board (tests/kivy/drive_*.py, run landscape by its own test module) is run again with
``COMPANION_SCREEN_SIZE=480x800``, and every screenshot it takes must pass the layout audit
(tests/kivy/layout_audit.py; ``tests/kivy_driver.py`` runs it at each shot and fails listing the distinct
violations). The landscape runs are audited the same way by their own modules. Screenshots go to
``test-artifacts/portrait-*.png``."""

from concurrent.futures import ThreadPoolExecutor

import pytest
from kivy_driver import keep_artifacts, run_driver, steps_by_label

pytestmark = pytest.mark.kivy

DRIVERS = (
    "drive_tv_wars.py",
    "drive_war_screen.py",
    "drive_death_show_tv.py",
    "drive_channel_won.py",
    "drive_telly_time.py",
    "drive_presses_tv_wars.py",
    "drive_presses_death_show_tv.py",
    "drive_presses_channel_won.py",
    "drive_telly_time_setup.py",
)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Each driver's portrait result, or the failure ``run_driver`` raised (two at a time)."""

    def run(script):
        name = script.removesuffix(".py")
        data_dir, out_dir = tmp_path_factory.mktemp(f"data-{name}"), tmp_path_factory.mktemp(f"shots-{name}")
        try:
            return run_driver(script, data_dir, out_dir, env={"COMPANION_SCREEN_SIZE": "480x800"})
        except BaseException as failure:  # pytest.fail raises a BaseException
            return failure
        finally:
            keep_artifacts(out_dir, "*.png", prefix="portrait-")

    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(DRIVERS, pool.map(run, DRIVERS)))


@pytest.mark.parametrize("script", DRIVERS)
def test_every_screenshot_passes_the_layout_audit_in_portrait(runs, script):
    result = runs[script]
    if isinstance(result, BaseException):
        raise result
    assert result["shots_audited"] >= 4, result.get("shots_unaudited")  # the driver ran and its screens were looked at


def test_six_reporters_leave_every_lead_two_lines_of_parts_in_portrait(runs):
    """Channel WON with six reporters at 480×800: two rows of reporters above two rows of Leads; the round and
    turn share one line, so each Lead's card still shows two lines of what was played on it (it had one)."""
    result = runs["drive_channel_won.py"]
    if isinstance(result, BaseException):
        raise result
    six = steps_by_label(result)["six"]
    assert len(six["lineup"]) == 6
    assert {category: lead["parts_room"] >= 2 for category, lead in six["lineup"].items()} == dict.fromkeys(
        six["lineup"], True
    ), six["lineup"]
