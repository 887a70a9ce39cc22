"""Which input devices the kiosk reads itself (ui/touch.py, ui/kiosk.configure_input).

The sysfs trees here are the capability files of real devices as the kernel prints them (64-bit kernel
unless said): the official 7" display's FT5406, an ADS7846 resistive hat, an eGalax USB multitouch HDMI
screen, a USB HDMI screen that reports mouse buttons, a USB mouse, a USB keyboard, a laptop touchpad and a pen
tablet. Every tap must reach the app exactly once: touchscreens through one Kivy provider each, everything
SDL2 treats as a mouse through the mouse provider only.
"""

from __future__ import annotations

import configparser
import os

import pytest
from hypothesis import given
from hypothesis import strategies as st
from input_devices import EXPECTED, REAL_DEVICES, make_sysfs

from ui import touch
from ui.kiosk import configure_input


def sysfs_words(bits: set[int], word_bits: int) -> str:
    """Format a bit set as the kernel does (bitmap_print_to_pagebuf / %lx words, most significant first)."""
    if not bits:
        return "0"
    words = [0] * (max(bits) // word_bits + 1)
    for bit in bits:
        words[bit // word_bits] |= 1 << (bit % word_bits)
    return " ".join(f"{word:x}" for word in reversed(words))


@given(st.sets(st.integers(0, 767)), st.sampled_from([32, 64]))
def test_bitmaps_parse_as_the_kernel_prints_them(bits, word_bits):
    assert touch.parse_bitmap(sysfs_words(bits, word_bits), word_bits) == bits


@pytest.mark.parametrize("text", ["xyz", "1 -2", "1 10000000000000000"])
def test_a_malformed_bitmap_is_refused(text):
    with pytest.raises(ValueError):
        touch.parse_bitmap(text, 64)


def test_the_word_size_is_the_kernels_not_this_processes():
    """32-bit Raspberry Pi OS runs on a 64-bit kernel (uname -m says aarch64): sysfs then has 64-bit words."""
    assert touch.kernel_long_bits("aarch64") == 64 and touch.kernel_long_bits("x86_64") == 64
    assert touch.kernel_long_bits("armv7l") == 32 and touch.kernel_long_bits("armv6l") == 32


@pytest.mark.parametrize("name", sorted(REAL_DEVICES))
def test_each_real_device_is_classified_as_sdl2_would(tmp_path, name):
    sys_dir, dev_dir = make_sysfs(tmp_path, {name: REAL_DEVICES[name]})
    device = touch.read_device(sys_dir / "event0", dev_dir, word_bits=64)
    assert device.name == name and device.path == dev_dir / "event0"
    assert device.kind == EXPECTED[name]


def test_a_32_bit_kernels_bitmaps_read_the_same(tmp_path):
    """The FT5406's abs bitmap printed by a 32-bit kernel ("2608000 3" in two words) is the same device."""
    sys_dir, dev_dir = make_sysfs(tmp_path, {"raspberrypi-ts": ("b", "400 0 0 0 0 0 0 0 0 0 0", "2608000 3", "0", "2")})
    assert touch.read_device(sys_dir / "event0", dev_dir, word_bits=32).kind == touch.MULTITOUCH


def test_scan_picks_every_touchscreen_and_nothing_else(tmp_path):
    sys_dir, dev_dir = make_sysfs(tmp_path, REAL_DEVICES)
    found = touch.scan(sys_dir, dev_dir, word_bits=64)
    assert len(found.devices) == len(REAL_DEVICES) and found.problem == ""
    assert [d.name for d in found.touchscreens] == [
        "raspberrypi-ts",
        "ADS7846 Touchscreen",
        "eGalax Inc. eGalaxTouch EXC3000-0368-46.00.00",
    ]
    lines = touch.kivy_input_lines(found, mtdev=True)
    assert lines == {
        "touch_event0": f"mtdev,{dev_dir}/event0",
        "touch_event1": f"hidinput,{dev_dir}/event1,invert_y=0",
        "touch_event2": f"mtdev,{dev_dir}/event2",
    }
    # without libmtdev only the single-touch screen gets hidinput's single-touch path; multitouch ones too
    assert touch.kivy_input_lines(found, mtdev=False)["touch_event0"] == f"hidinput,{dev_dir}/event0,invert_y=0"


def test_no_touchscreen_says_what_there_is(tmp_path):
    devices = {name: REAL_DEVICES[name] for name in ("Logitech USB Optical Mouse", "Dell Dell USB Keyboard")}
    sys_dir, dev_dir = make_sysfs(tmp_path, devices)
    found = touch.scan(sys_dir, dev_dir, word_bits=64)
    assert found.touchscreens == ()
    assert found.problem == "no touchscreen among 2 input devices (keyboard, mouse)"


def test_no_input_devices_at_all(tmp_path):
    sys_dir, dev_dir = make_sysfs(tmp_path, {})
    assert touch.scan(sys_dir, dev_dir).problem == "no input devices at all (is the touchscreen connected?)"


def test_unreadable_or_missing_sysfs_is_a_reason_not_a_crash(tmp_path):
    found = touch.scan(tmp_path / "no-such-sys", tmp_path / "dev")
    assert found.touchscreens == () and found.problem.startswith("cannot list input devices")


def test_a_touchscreen_whose_node_is_missing_is_named(tmp_path):
    sys_dir, dev_dir = make_sysfs(tmp_path, {"raspberrypi-ts": REAL_DEVICES["raspberrypi-ts"]}, nodes=False)
    found = touch.scan(sys_dir, dev_dir, word_bits=64)
    assert found.touchscreens == () and found.problem == f"{dev_dir}/event0 missing from {dev_dir}"


@pytest.mark.skipif(os.geteuid() == 0, reason="root can read any file")
def test_a_touchscreen_the_user_cannot_read_is_named(tmp_path):
    sys_dir, dev_dir = make_sysfs(tmp_path, {"raspberrypi-ts": REAL_DEVICES["raspberrypi-ts"]})
    (dev_dir / "event0").chmod(0)
    found = touch.scan(sys_dir, dev_dir, word_bits=64)
    assert "permission denied" in found.problem and "input group" in found.problem


def test_a_damaged_capability_file_counts_as_nothing(tmp_path):
    sys_dir, dev_dir = make_sysfs(tmp_path, {"broken": ("b", "zz", "260800000000003", "0", "2")})
    assert touch.scan(sys_dir, dev_dir, word_bits=64).touchscreens[0].key == frozenset()


@pytest.mark.parametrize(
    "environ, owns",
    [
        ({}, True),
        ({"SDL_VIDEODRIVER": "kmsdrm"}, True),
        ({"DISPLAY": ":0", "SDL_VIDEODRIVER": "x11"}, False),
        ({"WAYLAND_DISPLAY": "wayland-0"}, False),
        ({"SDL_VIDEODRIVER": "x11"}, False),
    ],
)
def test_who_reads_the_devices(environ, owns):
    assert touch.owns_input_devices(environ) is owns


def kivy_like_config(lines: dict[str, str]) -> configparser.ConfigParser:
    """Kivy's Config is a ConfigParser subclass; configure_input uses only the ConfigParser interface."""
    config = configparser.ConfigParser(interpolation=None)
    config.add_section("input")
    for key, value in lines.items():
        config.set("input", key, value)
    return config


def test_a_display_server_session_reads_only_the_pointer():
    """Kivy's own default ~/.kivy/config.ini line (probesysfs) would read a laptop's touchscreen a second time:
    it goes, and the one mouse provider stays."""
    config = kivy_like_config({"mouse": "mouse", "%(name)s": "probesysfs"})
    assert configure_input(config, simulate=False, environ={"DISPLAY": ":0"}) is None
    assert dict(config.items("input")) == {"mouse": "mouse,disable_multitouch"}


def test_the_simulator_reads_only_the_pointer():
    config = kivy_like_config({})
    assert configure_input(config, simulate=True, environ={}) is None
    assert dict(config.items("input")) == {"mouse": "mouse,disable_multitouch"}


def test_the_lite_kiosk_reads_each_touchscreen_once_and_the_mouse_through_sdl(tmp_path):
    sys_dir, dev_dir = make_sysfs(tmp_path, REAL_DEVICES)
    found = touch.scan(sys_dir, dev_dir, word_bits=64)
    config = kivy_like_config({"touch_%(name)s": "probesysfs,provider=mtdev,select_all=0"})  # an old config
    assert configure_input(config, simulate=False, environ={"SDL_VIDEODRIVER": "kmsdrm"}, touch=found) is found
    providers = dict(config.items("input"))
    assert providers.pop("mouse") == "mouse,disable_multitouch"
    assert sorted(value.split(",")[1] for value in providers.values()) == [
        f"{dev_dir}/event0",
        f"{dev_dir}/event1",
        f"{dev_dir}/event2",
    ]
    # never the mouse, the keyboard, the touchpad, the tablet or the absolute pointer SDL2 reads as a mouse
    assert all(value.split(",")[0] in ("mtdev", "hidinput") for value in providers.values())
