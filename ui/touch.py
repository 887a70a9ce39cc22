"""Which input devices the kiosk reads itself, and how, so that every tap is counted exactly once.

Two set-ups, decided by who owns the input devices:

* **A display server** (the desktop edition's X11 / Xwayland, the simulator on a laptop, Xvfb in the tests):
  the server reads every touchscreen, mouse and touchpad and hands the window pointer events; SDL2 passes
  them to Kivy's ``mouse`` provider. That is the one path: the app reads no ``/dev/input`` device itself
  (it would read the same touches a second time). One finger at a time.
* **No display server** (Raspberry Pi OS Lite, SDL2 on KMS/DRM): SDL2 reads ``/dev/input`` itself, but Kivy
  ignores SDL's finger events on Linux and the unit sets ``SDL_TOUCH_MOUSE_EVENTS=0``, so SDL turns only real
  mice (and absolute pointers with mouse buttons) into mouse events for the ``mouse`` provider. Touchscreens
  are read by the app, one Kivy provider per device: ``mtdev`` for a multitouch panel (the official 7"
  display's FT5406, Touch Display 2, USB/HDMI multitouch screens; libmtdev turns any kernel protocol into
  slots), ``hidinput`` for a single-touch screen that reports ``ABS_X``/``ABS_Y`` with ``BTN_TOUCH`` and no
  multitouch slots (resistive hats such as the ADS7846, many HDMI screens). :func:`classify` follows SDL2's
  own rules (``SDL_evdev_capabilities.c``), so a device is either SDL's (mouse path) or ours (touch path),
  never both.

:func:`scan` reads ``/sys/class/input/event*/device/capabilities`` (no device is opened, no library needed)
and says what it found, or why there is no touchscreen (``TouchScan.problem``: no device, ``/dev/input``
unreadable, no touch-capable device among N). :func:`kivy_input_lines` turns a scan into Kivy ``[input]``
config entries. Nothing here imports Kivy.
"""

from __future__ import annotations

import ctypes.util
import os
from dataclasses import dataclass, field
from pathlib import Path

# linux/input-event-codes.h
EV_KEY, EV_REL, EV_ABS = 0x01, 0x02, 0x03
REL_X, REL_Y = 0x00, 0x01
ABS_X, ABS_Y = 0x00, 0x01
ABS_MT_POSITION_X, ABS_MT_POSITION_Y = 0x35, 0x36
BTN_MOUSE = 0x110  # BTN_LEFT
BTN_TOOL_PEN, BTN_TOOL_FINGER, BTN_TOUCH, BTN_STYLUS = 0x140, 0x145, 0x14A, 0x14B
INPUT_PROP_POINTER, INPUT_PROP_DIRECT = 0x00, 0x01
KEY_A, KEY_Z = 30, 44  # a keyboard has letter keys

SYS_CLASS_INPUT = Path("/sys/class/input")
DEV_INPUT = Path("/dev/input")

#: What :func:`classify` calls a device. Only the first two are read by the app (the touch path).
MULTITOUCH, SINGLE_TOUCH = "multitouch touchscreen", "single-touch screen"
MOUSE, TOUCHPAD, TABLET, KEYBOARD, OTHER = "mouse", "touchpad", "pen tablet", "keyboard", "other input"


def kernel_long_bits(machine: str | None = None) -> int:
    """Bits in the kernel's ``unsigned long``, the word size of sysfs capability bitmaps. From the kernel's
    machine name, not this process's: a 32-bit Raspberry Pi OS runs on a 64-bit kernel on a Pi 4."""
    machine = machine if machine is not None else os.uname().machine
    return 64 if ("64" in machine or machine.startswith("s390")) else 32


def parse_bitmap(text: str, word_bits: int = 64) -> frozenset[int]:
    """The bit numbers set in a sysfs capability bitmap: hexadecimal words separated by spaces, most
    significant word first (``"3 0 0 0"`` with 64-bit words = bits 192 and 193). Raises ``ValueError`` for
    text that is not such a bitmap."""
    words = text.split()
    if not words:
        return frozenset()
    bits = set()
    for position, word in enumerate(reversed(words)):
        value = int(word, 16)
        if value < 0 or value >> word_bits:
            raise ValueError(f"capability word {word!r} is wider than {word_bits} bits")
        base = position * word_bits
        bits.update(base + bit for bit in range(word_bits) if value >> bit & 1)
    return frozenset(bits)


@dataclass(frozen=True)
class InputDevice:
    """One ``/dev/input/eventN`` as sysfs describes it: ``path`` (the device node), ``name`` (the driver's
    name, e.g. ``"raspberrypi-ts"``), and its capability bit sets (``ev``, ``key``, ``abs``, ``rel``,
    ``props``: event types, keys and buttons, absolute and relative axes, input properties)."""

    path: Path
    name: str
    ev: frozenset[int] = frozenset()
    key: frozenset[int] = frozenset()
    abs: frozenset[int] = frozenset()
    rel: frozenset[int] = frozenset()
    props: frozenset[int] = frozenset()

    @property
    def kind(self) -> str:
        return classify(self)


def classify(device: InputDevice) -> str:
    """What ``device`` is, by SDL2's rules for evdev devices (``SDL_EVDEV_GuessDeviceClass``) plus the
    multitouch screens SDL leaves to the application:

    * absolute X/Y: with a pen or stylus a pen tablet; with ``BTN_TOOL_FINGER`` (and not a direct device) a
      touchpad; with a mouse button an absolute pointer (SDL's mouse path: :data:`MOUSE`); with ``BTN_TOUCH`` a
      touchscreen, :data:`MULTITOUCH` when it also has multitouch positions, else :data:`SINGLE_TOUCH`;
    * multitouch positions on a direct device (``INPUT_PROP_DIRECT``) without ``ABS_X``: a multitouch screen;
    * relative X/Y with a mouse button: a mouse; letter keys: a keyboard; anything else: other.
    """
    has_xy = EV_ABS in device.ev and {ABS_X, ABS_Y} <= device.abs
    has_mt = EV_ABS in device.ev and {ABS_MT_POSITION_X, ABS_MT_POSITION_Y} <= device.abs
    direct = INPUT_PROP_DIRECT in device.props
    if has_xy or (has_mt and direct):
        if BTN_STYLUS in device.key or BTN_TOOL_PEN in device.key:
            return TABLET
        if INPUT_PROP_POINTER in device.props or (BTN_TOOL_FINGER in device.key and not direct):
            return TOUCHPAD
        if BTN_MOUSE in device.key:
            return MOUSE
        if BTN_TOUCH in device.key or (has_mt and direct):
            return MULTITOUCH if has_mt else SINGLE_TOUCH
    if EV_REL in device.ev and {REL_X, REL_Y} <= device.rel and BTN_MOUSE in device.key:
        return MOUSE
    if EV_KEY in device.ev and set(range(KEY_A, KEY_Z + 1)) & device.key:
        return KEYBOARD
    return OTHER


@dataclass(frozen=True)
class TouchScan:
    """What :func:`scan` found: every event device, the touchscreens among them (readable ones only), and
    ``problem``, a sentence for "Touch unavailable: …" when there is no touchscreen to read (else ``""``)."""

    devices: tuple[InputDevice, ...] = ()
    touchscreens: tuple[InputDevice, ...] = ()
    problem: str = ""
    unreadable: tuple[str, ...] = field(default=())


def _read(path: Path) -> str:
    try:
        return path.read_text(errors="replace").strip()
    except OSError:
        return ""


def read_device(event_dir: Path, dev_input: Path = DEV_INPUT, word_bits: int | None = None) -> InputDevice:
    """The :class:`InputDevice` described by ``/sys/class/input/eventN`` (``event_dir``). Unreadable or
    malformed capability files count as empty (such a device is then "other input")."""
    bits = word_bits or kernel_long_bits()
    device_dir = event_dir / "device"

    def caps(name: str, under: str = "capabilities") -> frozenset[int]:
        try:
            return parse_bitmap(_read(device_dir / under / name if under else device_dir / name), bits)
        except ValueError:
            return frozenset()

    return InputDevice(
        path=dev_input / event_dir.name,
        name=_read(device_dir / "name") or event_dir.name,
        ev=caps("ev"),
        key=caps("key"),
        abs=caps("abs"),
        rel=caps("rel"),
        props=caps("properties", under=""),
    )


def scan(
    sys_class_input: Path = SYS_CLASS_INPUT, dev_input: Path = DEV_INPUT, word_bits: int | None = None
) -> TouchScan:
    """Look at every ``eventN`` under ``sys_class_input``; return the touchscreens the app can read from
    ``dev_input`` and, when there is none, why (never raises: a broken ``/sys`` is a reason too)."""
    try:
        event_dirs = sorted(
            (p for p in sys_class_input.iterdir() if p.name.startswith("event")),
            key=lambda p: int(p.name[5:]) if p.name[5:].isdigit() else 1 << 30,
        )
    except OSError as error:
        return TouchScan(problem=f"cannot list input devices ({sys_class_input}: {error.strerror or error})")
    devices = tuple(read_device(path, dev_input, word_bits) for path in event_dirs)
    touch = [device for device in devices if device.kind in (MULTITOUCH, SINGLE_TOUCH)]
    readable = tuple(device for device in touch if os.access(device.path, os.R_OK))
    unreadable = tuple(str(device.path) for device in touch if device not in readable)
    if readable:
        return TouchScan(devices, readable, "", unreadable)
    if unreadable:
        problem = (
            f"cannot read {', '.join(unreadable)} (permission denied: the service's user needs the input group)"
            if all(device.path.exists() for device in touch)
            else f"{', '.join(unreadable)} missing from {dev_input}"
        )
    elif not devices:
        problem = "no input devices at all (is the touchscreen connected?)"
    else:
        kinds = sorted({device.kind for device in devices})
        problem = (
            f"no touchscreen among {len(devices)} input device{'s' if len(devices) != 1 else ''} ({', '.join(kinds)})"
        )
    return TouchScan(devices, (), problem, unreadable)


def mtdev_available() -> bool:
    """Whether libmtdev (Kivy's ``mtdev`` provider) can be loaded here."""
    return ctypes.util.find_library("mtdev") is not None


def kivy_input_lines(found: TouchScan, *, mtdev: bool | None = None) -> dict[str, str]:
    """Kivy ``[input]`` entries for the touchscreens in ``found``: ``{"touch_event0": "mtdev,/dev/input/event0",
    "touch_event3": "hidinput,/dev/input/event3,invert_y=0"}``. Multitouch screens use ``mtdev`` (``hidinput`` only
    understands the old multitouch protocol A, so without libmtdev a protocol-B panel would give no touches:
    then ``hidinput`` still gets its single-touch emulation, ``ABS_X``/``ABS_Y`` with ``BTN_TOUCH``)."""
    use_mtdev = mtdev_available() if mtdev is None else mtdev
    lines = {}
    for device in found.touchscreens:
        if device.kind == MULTITOUCH and use_mtdev:
            lines[f"touch_{device.path.name}"] = f"mtdev,{device.path}"
        else:
            # hidinput flips Y by default (invert_y=1), which turns an evdev screen (Y growing downwards, as
            # the kernel reports every touchscreen) upside down: the well-known "param=invert_y=0" fix
            lines[f"touch_{device.path.name}"] = f"hidinput,{device.path},invert_y=0"
    return lines


def owns_input_devices(environ: os._Environ | dict = os.environ) -> bool:
    """Whether the app must read touchscreens itself: no display server (SDL2 on KMS/DRM, the Lite kiosk).
    Under X11 / Wayland (the desktop edition, the simulator, Xvfb) the server reads them."""
    if environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"):
        return False
    return environ.get("SDL_VIDEODRIVER", "kmsdrm").lower() == "kmsdrm"
