"""Recorded input devices for the touch tests: the capability files of real devices as a 64-bit kernel prints
them under ``/sys/class/input/eventN/device/``, and a builder for a ``/sys/class/input`` look-alike."""

from __future__ import annotations

import os

from ui import touch

#: name -> (ev, key, abs, rel, properties), as in /sys/class/input/eventN/device/capabilities/*.
REAL_DEVICES = {
    "raspberrypi-ts": ("b", "400 0 0 0 0 0", "260800000000003", "0", "2"),  # 7" FT5406
    "ADS7846 Touchscreen": ("b", "400 0 0 0 0 0", "1000003", "0", "0"),  # resistive hat
    "eGalax Inc. eGalaxTouch EXC3000-0368-46.00.00": ("1b", "400 0 0 0 0 0", "3273800000000003", "0", "2"),
    "USB Touchscreen 0eef:0001": ("1b", "1f0000 0 0 0 0", "3", "0", "0"),  # absolute + buttons
    "Logitech USB Optical Mouse": ("17", "1f0000 0 0 0 0", "0", "143", "0"),
    "Dell Dell USB Keyboard": (
        "120013",
        "1000000000007 ff9f207ac14057ff febeffdfffefffff fffffffffffffffe",
        "0",
        "0",
        "0",
    ),
    "SynPS/2 Synaptics TouchPad": ("b", "6420 30000 0 0 0 0", "260800011000003", "0", "5"),
    "Wacom Intuos S Pen": ("1b", "1c03 0 0 0 0 0", "3000003", "0", "1"),
}
EXPECTED = {
    "raspberrypi-ts": touch.MULTITOUCH,
    "ADS7846 Touchscreen": touch.SINGLE_TOUCH,
    "eGalax Inc. eGalaxTouch EXC3000-0368-46.00.00": touch.MULTITOUCH,
    "USB Touchscreen 0eef:0001": touch.MOUSE,
    "Logitech USB Optical Mouse": touch.MOUSE,
    "Dell Dell USB Keyboard": touch.KEYBOARD,
    "SynPS/2 Synaptics TouchPad": touch.TOUCHPAD,
    "Wacom Intuos S Pen": touch.TABLET,
}


def make_sysfs(root, devices: dict[str, tuple], *, nodes: bool = True, fifos: bool = False):
    """A /sys/class/input look-alike under ``root/sys`` and device nodes under ``root/dev`` (plain files, or
    FIFOs with ``fifos`` for a driver to write recorded event streams into); returns ``(sys_dir, dev_dir)``.
    Device i is ``event<i>``."""
    sys_dir, dev_dir = root / "sys", root / "dev"
    sys_dir.mkdir(parents=True, exist_ok=True)
    dev_dir.mkdir(parents=True, exist_ok=True)
    for index, (name, (ev, key, abs_, rel, props)) in enumerate(devices.items()):
        device = sys_dir / f"event{index}" / "device"
        (device / "capabilities").mkdir(parents=True)
        (device / "name").write_text(name + "\n")
        (device / "properties").write_text(props + "\n")
        for cap, value in (("ev", ev), ("key", key), ("abs", abs_), ("rel", rel)):
            (device / "capabilities" / cap).write_text(value + "\n")
        if nodes and fifos:
            os.mkfifo(dev_dir / f"event{index}")
        elif nodes:
            (dev_dir / f"event{index}").write_bytes(b"")
    (sys_dir / "mice").mkdir()  # not an event device: ignored
    return sys_dir, dev_dir
