"""Input on every supported screen, each tap counted exactly once (tests/kivy/drive_input.py), Kivy's own keys
doing nothing at the kiosk, and a kiosk with no touchscreen played from the table buttons.

What reaches the app through real components and what through recordings:
* the X server's pointer (xdotool → Xvfb → SDL2 → Kivy's mouse provider): real; it is the path of the desktop
  edition's touchscreen and of a mouse under X;
* a single-touch (ADS7846) and a multitouch (FT5406, protocol B) screen on the Lite kiosk: this machine's
  kernel has no uinput, so their evdev streams are recorded ones written into FIFOs that the app's own
  device scan finds in a recorded /sys/class/input tree; Kivy's hidinput provider reads its FIFO itself
  (its ioctl questions answered from the recording), Kivy's mtdev provider reads through a replay of
  libmtdev's output.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from input_devices import REAL_DEVICES, make_sysfs
from kivy_driver import keep_artifacts, run_driver

pytestmark = pytest.mark.kivy

TOUCH_DEVICES = {
    name: REAL_DEVICES[name]
    for name in ("ADS7846 Touchscreen", "raspberrypi-ts", "Logitech USB Optical Mouse", "Dell Dell USB Keyboard")
}


def installed_kivy_home(tmp_path, edition: str) -> dict:
    """The environment of an installed kiosk edition: KIVY_HOME with a copy of the Kivy config the installer
    puts in /etc (from the installed package's share/), the unit's SDL variables, and windowed rather than
    full screen (Xvfb's screen is larger than the touchscreen)."""
    share = Path(sys.prefix) / "share/tabletop-companion/systemd" / ("kivy" if edition == "lite" else "kivy-desktop")
    home = tmp_path / f"kivy-{edition}"
    for sub in ("mods", "icon"):
        (home / sub).mkdir(parents=True)
    shutil.copy(share / "config.ini", home / "config.ini")
    return {
        "KIVY_HOME": str(home),
        "KCFG_GRAPHICS_FULLSCREEN": "0",
        "SDL_TOUCH_MOUSE_EVENTS": "0" if edition == "lite" else "1",
    }


@pytest.fixture(autouse=True)
def _xdotool():
    if shutil.which("xdotool") is None:
        pytest.fail("xdotool is missing: ./run-tests installs it (Debian package xdotool)")


def assert_each_tap_counted_once(result: dict, kinds: list[str]) -> None:
    taps = result["taps"]
    assert [(t["kind"], t["action"]) for t in taps] == [(k, a) for k in kinds for a in ("undo", "redo")]
    following = [t["before"] for t in taps[1:]] + [result["marker"]["before"]]
    for tap, later in zip(taps, following):
        other = "redo" if tap["action"] == "undo" else "undo"
        assert tap["after"][tap["action"]] == tap["before"][tap["action"]] + 1, tap
        assert tap["after"][other] == tap["before"][other], tap
        assert later == tap["after"], f"{tap['kind']} {tap['action']} counted again later: {later} vs {tap}"
        assert tap["touches"] == 1, f"{tap['kind']}: {tap['touches']} touches reached the window for one tap"
    assert result["marker"]["after"]["undo"] == result["marker"]["before"]["undo"] + 1
    assert result["marker"]["after"]["redo"] == result["marker"]["before"]["redo"], "the last tap counted again"


def test_the_x_pointer_taps_once_and_kivys_keys_do_nothing(tmp_path):
    """The desktop edition: its installed Kivy config and drop-in environment, the pointer from the X server."""
    result = run_driver(
        "drive_input.py", tmp_path / "data", tmp_path / "out", "pointer", env=installed_kivy_home(tmp_path, "desktop")
    )
    assert_each_tap_counted_once(result, ["pointer"])
    assert result["input_lines"] == {"mouse": "mouse,disable_multitouch"}
    assert result["touch_devices"] == ["mouse"]
    keys = result["after_keys"]
    assert keys["closed_by"] == "Close", "Escape dismissed the open dialog"
    assert not keys["settings"], "F1 opened Kivy's settings panel over the kiosk"
    assert keys["moves"] == result["moves_before_keys"], "Escape, F1, F11 or F12 journalled something"
    keep_artifacts(tmp_path / "out", prefix="input-")


def test_touchscreens_on_the_lite_kiosk_tap_once_each(tmp_path):
    sys_dir, dev_dir = make_sysfs(tmp_path / "input", TOUCH_DEVICES, fifos=True)
    result = run_driver(
        "drive_input.py",
        tmp_path / "data",
        tmp_path / "out",
        "devices",
        str(sys_dir),
        str(dev_dir),
        env=installed_kivy_home(tmp_path, "lite"),
    )
    assert_each_tap_counted_once(result, ["single-touch", "multitouch", "pointer"])
    lines = result["input_lines"]
    assert lines.pop("mouse") == "mouse,disable_multitouch"
    assert lines == {"touch_event0": f"hidinput,{dev_dir}/event0,invert_y=0", "touch_event1": f"mtdev,{dev_dir}/event1"}
    assert result["touch_devices"] == ["mouse", "touch_event0", "touch_event1"]


def test_no_touchscreen_the_buttons_start_and_resume_a_game(tmp_path):
    sys_dir, dev_dir = make_sysfs(
        tmp_path / "input",
        {name: REAL_DEVICES[name] for name in ("Logitech USB Optical Mouse", "Dell Dell USB Keyboard")},
    )
    out = tmp_path / "out"
    lite = installed_kivy_home(tmp_path, "lite")
    first = run_driver("drive_input.py", tmp_path / "data", out, "no-touch", str(sys_dir), str(dev_dir), env=lite)
    problem = "Touch unavailable: no touchscreen among 2 input devices (keyboard, mouse)"
    assert first["home"]["touch_problem"] == problem
    assert first["home"]["hint"] == problem + "\nButtons: Redo twice starts a new TV Wars game, 4 networks"
    assert "Touch unavailable" not in first["home"]["message"], "said twice on Home"
    assert first["started"]["game"] == "tv-wars" and first["started"]["players"] == ["ABS", "CBA", "PBC", "NBS"]
    assert first["after_roll"]["moves"] > first["started"]["moves"]
    again = run_driver(
        "drive_input.py", tmp_path / "data", tmp_path / "out2", "no-touch-resume", str(sys_dir), str(dev_dir), env=lite
    )
    assert "Undo resumes #1" in again["home"]["hint"]
    assert again["started"]["id"] == first["started"]["id"]
    assert again["started"]["moves"] == first["after_roll"]["moves"]
    from PIL import Image, ImageChops

    from hardware.panels import render_player_panel

    for directory, mode, lines in (
        (out, "no-touch", "Touch off\nRedo twice:\nnew game"),
        (tmp_path / "out2", "no-touch-resume", "Touch off\nUndo: resume #1\nRedo twice:\nnew game"),
    ):
        expected = render_player_panel(None, message=lines)
        for index in range(1, 5):  # every panel says touch is off and what the buttons do
            panel = Image.open(directory / f"{mode}-panel-{index}.png").convert("L")
            assert ImageChops.difference(panel, expected.convert("L")).getbbox() is None, (mode, index)
    keep_artifacts(out, prefix="input-")
    keep_artifacts(tmp_path / "out2", prefix="input-")
