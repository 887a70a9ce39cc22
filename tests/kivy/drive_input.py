"""Taps from every kind of pointing device reach the real app exactly once (counted as journal entries).

Run by tests/test_kivy_input.py under Xvfb: ``python drive_input.py DATA_DIR OUT_DIR MODE [SYS_DIR DEV_DIR]``.

* ``pointer``: the X server's pointer, moved and clicked with ``xdotool`` (XTEST: the path a desktop
  edition's touchscreen and a mouse take: X server → SDL2 → Kivy's mouse provider). Then Kivy's own keys
  (Escape, F1, F11, F12) pressed the same way must neither close the app, open Kivy's settings, nor dismiss
  the open dialog, and journal nothing.
* ``devices``: the Lite kiosk's own touch path. SYS_DIR/DEV_DIR hold a recorded ``/sys/class/input`` tree
  (an ADS7846 single-touch hat as event0, the 7" display's FT5406 multitouch panel as event1, a USB mouse,
  a USB keyboard) whose device nodes are FIFOs: this machine's kernel has no ``uinput``, so the evdev
  streams are recorded ones, written into the FIFOs in the kernel's ``struct input_event`` layout. The
  app's own :func:`ui.touch.scan` finds them and gives each touchscreen its Kivy provider. Kivy's
  ``hidinput`` provider reads its FIFO itself; only its ``ioctl`` questions (name, capability bits, axis
  ranges) are answered from the recording. For ``mtdev`` the C library libmtdev cannot read a FIFO, so its
  ``Device`` is replaced by a replay of the same stream (protocol B passes through mtdev unchanged); Kivy's
  mtdev provider code is real.

Each tap goes on the dashboard's Undo button (one ``history_restored`` undo in the journal), then one on
Redo; the test checks each tap added exactly one entry. After the last tap a marker tap on Undo goes through
the X server too: X hands events on in order, so once the marker's entry is in, anything the taps before it
could still have caused has been handled (and counted, if it was counted twice). Results in ``result.json``.
"""

from __future__ import annotations

import fcntl
import os
import select
import sqlite3
import struct
import subprocess
import sys
from pathlib import Path

import harness  # first: it sets Kivy's environment and builds nothing yet
from harness import Retry, until, waiting

MODE = sys.argv[3]
EVENT = struct.Struct("llHHi")  # struct input_event on a 64-bit kernel (24 bytes)
EV_SYN, EV_KEY, EV_ABS = 0, 1, 3
ABS_X, ABS_Y, ABS_PRESSURE = 0x00, 0x01, 0x18
ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID = 0x2F, 0x35, 0x36, 0x39
BTN_TOUCH = 0x14A

#: The recorded devices' axis ranges (EVIOCGABS) and names (EVIOCGNAME), by device node name.
RECORDED = {
    "event0": {"name": "ADS7846 Touchscreen", "abs": {ABS_X: (150, 3930), ABS_Y: (220, 3850), ABS_PRESSURE: (0, 255)}},
    "event1": {
        "name": "raspberrypi-ts",
        "abs": {
            ABS_X: (0, 799),
            ABS_Y: (0, 479),
            ABS_MT_SLOT: (0, 9),
            ABS_MT_POSITION_X: (0, 799),
            ABS_MT_POSITION_Y: (0, 479),
            ABS_MT_TRACKING_ID: (0, 65535),
        },
    },
}

found = None
if MODE in ("devices", "no-touch", "no-touch-resume"):
    from ui.touch import scan

    sys_dir, dev_dir = Path(sys.argv[4]), Path(sys.argv[5])
    found = scan(sys_dir, dev_dir, word_bits=64)

# --- the recorded devices: ioctl answers for hidinput, a replay Device for mtdev ---------------------------
_real_ioctl = fcntl.ioctl
writers: dict[str, int] = {}


def _recorded(fd):
    try:
        number = fd if isinstance(fd, int) else fd.fileno()
        path = os.readlink(f"/proc/self/fd/{number}")
    except (OSError, ValueError, AttributeError):
        return None
    return RECORDED.get(Path(path).name) if found is not None and Path(path).parent == dev_dir else None


def recorded_ioctl(fd, request, arg=0, mutate_flag=True):
    """The kernel's evdev answers for a recorded device (EVIOCGNAME, EVIOCGBIT, EVIOCGABS); else the real ioctl."""
    device = _recorded(fd)
    if device is None:
        return _real_ioctl(fd, request, arg, mutate_flag)
    if (request >> 8) & 0xFF != ord("E"):
        raise OSError(25, "Inappropriate ioctl for device")
    number = request & 0xFF
    # like the real fcntl.ioctl with a str/bytes argument: the answer is as long as the argument passed
    size = len(arg) if isinstance(arg, (str, bytes, bytearray)) else (request >> 16) & 0x3FFF
    if number == 0x06:  # EVIOCGNAME
        return device["name"].encode().ljust(size, b"\0")[:size]
    if 0x20 <= number < 0x40:  # EVIOCGBIT(ev)
        kind = number - 0x20
        bits = (
            (1 << EV_SYN | 1 << EV_KEY | 1 << EV_ABS)
            if kind == 0
            else (sum(1 << code for code in device["abs"]) if kind == EV_ABS else 0)
        )
        return bits.to_bytes(size, "little")
    if 0x40 <= number < 0x80:  # EVIOCGABS(code)
        low, high = device["abs"].get(number - 0x40, (0, 0))
        return struct.pack("iiiiii", low, low, high, 0, 0, 0)[:size]
    raise OSError(25, "Inappropriate ioctl for device")


fcntl.ioctl = recorded_ioctl


class ReplayMtdev:
    """kivy.lib.mtdev.Device over a recorded protocol-B stream (what libmtdev hands on for such a panel)."""

    def __init__(self, filename):
        import kivy.lib.mtdev as mtdev

        self._lib, self._fd, self._buffer = mtdev, os.open(filename, os.O_RDONLY | os.O_NONBLOCK), b""
        self._ranges = {mtdev.MTDEV_ABS_POSITION_X: (0, 799), mtdev.MTDEV_ABS_POSITION_Y: (0, 479)}

    def _fill(self):
        try:
            self._buffer += os.read(self._fd, 4096)
        except BlockingIOError:
            pass

    def idle(self, ms):
        if len(self._buffer) >= EVENT.size:
            return False
        ready, _, _ = select.select([self._fd], [], [], ms / 1000)
        if ready:
            self._fill()
        return len(self._buffer) < EVENT.size

    def get(self):
        self._fill()
        if len(self._buffer) < EVENT.size:
            return None
        _, _, kind, code, value = EVENT.unpack(self._buffer[: EVENT.size])
        self._buffer = self._buffer[EVENT.size :]
        event = self._lib.input_event()
        event.type, event.code, event.value = kind, code, value
        return event

    def get_abs(self, index):
        low, high = self._ranges.get(index, (0, 255))
        return self._lib.input_absinfo(0, low, high, 0, 0, 0)

    def close(self):
        os.close(self._fd)


if MODE == "devices":
    import kivy.input.providers.mtdev as kivy_mtdev

    kivy_mtdev.Device = ReplayMtdev
    for name in RECORDED:  # keep a writer open, so the providers' open() never blocks
        node = dev_dir / name
        if node.exists():
            writers[name] = os.open(node, os.O_RDWR | os.O_NONBLOCK)

driver = harness.Driver(touch=found, start_new=MODE in ("no-touch", "no-touch-resume"))
controller, result = driver.controller, driver.result

from kivy.core.window import Window  # noqa: E402

touch_seen: list[str] = []
Window.bind(on_touch_down=lambda window, touch: touch_seen.append(touch.device) and False)
Window.bind(
    on_touch_up=lambda window, touch: (
        result.setdefault("ups", []).append([touch.device, round(touch.x), round(touch.y)]) and False
    )
)


def journal_counts() -> dict[str, int]:
    """Committed undo and redo entries in the journal file (read with plain sqlite3)."""
    with sqlite3.connect(driver.data_dir / "journal.sqlite3") as db:
        rows = db.execute(
            "SELECT json_extract(payload, '$.action'), COUNT(*) FROM events WHERE type = 'history_restored' GROUP BY 1"
        ).fetchall()
    return {"undo": 0, "redo": 0, **{action: count for action, count in rows}}


def moves() -> int:
    with sqlite3.connect(driver.data_dir / "journal.sqlite3") as db:
        return db.execute("SELECT COUNT(*) FROM events").fetchone()[0]


def button(name: str):
    return controller.screens.get_screen("dashboard").ids[name]


# --- ways to tap ---------------------------------------------------------------------------------------------
def window_geometry() -> tuple[int, int]:
    """The Kivy window's top-left corner on the X screen (the app's own window: found by its process id and
    its size, SDL2 may have a hidden helper window too)."""
    ids = subprocess.run(
        ["xdotool", "search", "--pid", str(os.getpid())], capture_output=True, text=True, timeout=20
    ).stdout.split()
    for window in ids:
        out = subprocess.run(
            ["xdotool", "getwindowgeometry", "--shell", window], capture_output=True, text=True, timeout=20
        ).stdout
        values = dict(line.split("=", 1) for line in out.split() if "=" in line)
        if values.get("WIDTH") == str(Window.width) and values.get("HEIGHT") == str(Window.height):
            return int(values["X"]), int(values["Y"])
    raise Retry("the app's window to be mapped on the X screen")


def xdotool(*args: str) -> None:
    subprocess.run(["xdotool", *args], check=True, timeout=20)


def pointer_tap(widget) -> None:
    """A real click through the X server: pointer moved onto ``widget``'s centre, button 1 pressed, released."""
    x, y = widget.to_window(*widget.center)
    left, top = window_geometry()
    xdotool("mousemove", str(left + int(x)), str(top + int(Window.height - y)), "click", "1")


def _write(name: str, events) -> None:
    os.write(writers[name], b"".join(EVENT.pack(0, 0, kind, code, value) for kind, code, value in events))


def _device_xy(widget, name: str) -> tuple[int, int]:
    """``widget``'s centre in device units (the panel covers the whole window; y grows downwards)."""
    x, y = widget.to_window(*widget.center)
    (x_low, x_high), (y_low, y_high) = (RECORDED[name]["abs"][ABS_X], RECORDED[name]["abs"][ABS_Y])
    return (
        round(x_low + x / Window.width * (x_high - x_low)),
        round(y_low + (1 - y / Window.height) * (y_high - y_low)),
    )


def single_touch_tap(widget) -> None:
    """The ADS7846's stream for one tap: position and pressure with BTN_TOUCH down, then BTN_TOUCH up."""
    x, y = _device_xy(widget, "event0")
    _write(
        "event0",
        [(EV_ABS, ABS_X, x), (EV_ABS, ABS_Y, y), (EV_ABS, ABS_PRESSURE, 180), (EV_KEY, BTN_TOUCH, 1), (EV_SYN, 0, 0)],
    )
    _write("event0", [(EV_ABS, ABS_PRESSURE, 0), (EV_KEY, BTN_TOUCH, 0), (EV_SYN, 0, 0)])


tracking = [100]


def multitouch_tap(widget) -> None:
    """The FT5406's protocol-B stream for one finger: slot 0 gets a tracking id and a position, then -1."""
    x, y = _device_xy(widget, "event1")
    tracking[0] += 1
    _write(
        "event1",
        [
            (EV_ABS, ABS_MT_SLOT, 0),
            (EV_ABS, ABS_MT_TRACKING_ID, tracking[0]),
            (EV_ABS, ABS_MT_POSITION_X, x),
            (EV_ABS, ABS_MT_POSITION_Y, y),
            (EV_KEY, BTN_TOUCH, 1),
            (EV_ABS, ABS_X, x),
            (EV_ABS, ABS_Y, y),
            (EV_SYN, 0, 0),
        ],
    )
    _write("event1", [(EV_ABS, ABS_MT_TRACKING_ID, -1), (EV_KEY, BTN_TOUCH, 0), (EV_SYN, 0, 0)])


# --- steps -------------------------------------------------------------------------------------------------
def start_game():
    controller.new_game(2)


def make_moves():
    """The roll-off's dice (TV Wars 2.5), so that Undo has moves to undo."""
    until(lambda: controller.table.session is not None, "the new game to open")
    if controller.dice_roller:
        controller.roll()
        raise Retry(f"the roll-off to ask for no more dice (asked of {controller.dice_roller})")
    result["moves_made"] = len(controller.table.session.line)


def tap_steps(kind: str, tap, target: str, action: str):
    """Two steps: ``tap`` on the ``target`` button, then wait until its entry (``action``) is in the journal.
    ``result["taps"]`` gets the counts before and after; the next tap's "before" (or the final marker's) shows
    that nothing more came of it later."""
    record: dict = {"kind": kind, "action": action}

    def press():
        until(lambda: not button(target).disabled, f"the {target} to be enabled")
        record["before"], record["touches_before"] = journal_counts(), len(touch_seen)
        tap(button(target))

    def landed():
        counts = until(
            lambda: (lambda c: c[action] > record["before"][action] and c)(journal_counts()),
            f"the {kind} tap on the {target} to be journalled ({action})",
        )
        record["after"], record["touches"] = counts, len(touch_seen) - record["touches_before"]
        result.setdefault("taps", []).append(record)

    return [press, landed]


def taps_for(kind: str, tap):
    return tap_steps(kind, tap, "undo_button", "undo") + tap_steps(kind, tap, "redo_button", "redo")


def final_marker():
    """Steps: a tap on Undo through the X server after the last tap (pointer taps, in both modes that use
    it); X hands its events on in order, so once the marker's entry is in, whatever the taps before it caused
    has been handled. ``result["marker"]`` gets the counts before and after."""
    marker = result.setdefault("marker", {})

    def tap_marker():
        until(lambda: not button("undo_button").disabled, "the undo button to be enabled (for the marker)")
        marker["before"] = journal_counts()
        pointer_tap(button("undo_button"))

    def marker_in():
        marker["after"] = until(
            lambda: (lambda c: c["undo"] > marker["before"]["undo"] and c)(journal_counts()),
            "the marker tap on Undo to be journalled",
        )

    return [tap_marker, marker_in]


steps = [start_game, make_moves]
if MODE == "pointer":
    steps += taps_for("pointer", pointer_tap) + final_marker()

    def open_dialog():
        """A dialog Kivy would let Escape dismiss (auto_dismiss, as the message bar's "more" dialog)."""
        from ui.app import MessagePopup

        popup = MessagePopup(message="Escape must not close this; Close must")
        result["dialog"] = {"closed_by": None}
        close = harness.find(popup, lambda w: getattr(w, "text", None) == "Close" and hasattr(w, "on_release"))
        close.bind(on_press=lambda *_: result["dialog"].update(closed_by="Close"))
        popup.bind(
            on_dismiss=lambda *_: result["dialog"].update(
                dismissed=True, closed_by=result["dialog"]["closed_by"] or "something else"
            )
        )
        controller.open_popup(popup)
        result["moves_before_keys"] = moves()

    def kivy_keys():
        left, top = window_geometry()
        xdotool("mousemove", str(left + 400), str(top + 300))  # focus follows the pointer (no window manager)
        for key_name in ("Escape", "F1", "F11", "F12", "Escape"):
            xdotool("key", key_name)

    def click_close():
        """The marker: a click on the dialog's Close button, through X after the keys, so handled after them."""
        if controller.popup is None:
            raise RuntimeError("the dialog closed before the marker click")
        pointer_tap(harness.find(controller.popup, harness.button_text("Close", exact=True)))

    def keys_done():
        until(lambda: result["dialog"].get("dismissed"), "the dialog to be closed by the marker click on Close")

    def after_keys():
        from kivy.app import App

        app = App.get_running_app()
        result["after_keys"] = {
            "closed_by": result["dialog"]["closed_by"],
            "settings": app._app_settings is not None and app._app_settings.parent is not None,
            "moves": moves(),
        }
        driver.shot("after-kivy-keys")

    steps += [open_dialog, kivy_keys, click_close, keys_done, after_keys]
elif MODE == "devices":
    steps += taps_for("single-touch", single_touch_tap) + taps_for("multitouch", multitouch_tap)
    steps += taps_for("pointer", pointer_tap) + final_marker()
elif MODE in ("no-touch", "no-touch-resume"):
    # started on Home (start_new, as after `companion run --new`): the table buttons alone start or resume

    def on_home():
        until(lambda: controller.screens.current == "home", "the Home screen")
        driver.save_panels(MODE)
        result["home"] = {
            "screen": controller.screens.current,
            "hint": controller.home_hint,
            "touch_problem": controller.touch_problem,
            "message": controller.message,
            "moves": moves(),
        }

    def wait_game():
        until(
            lambda: controller.table.session is not None and controller.screens.current == "dashboard",
            "a game to open on the dashboard",
        )
        result["started"] = {
            "game": controller.table.session.rules.info.name,
            "id": controller.table.session.game_id,
            "players": [p.name for p in controller.table.view().players],
            "moves": moves(),
        }

    def rolled():
        until(lambda: moves() > result["started"]["moves"], "the roll button's dice to be journalled")
        result["after_roll"] = {"moves": moves()}

    steps = [on_home, lambda: driver.shot(f"{MODE}-home")]
    if MODE == "no-touch":
        steps += [
            *driver.press("=", heard=False),  # Redo on Home: once arms a new game…
            waiting(lambda: controller.message.startswith("Press Redo again"), "Home to ask for Redo again"),
            *driver.press("="),
            wait_game,  # …twice starts it
            *driver.press("e"),
            rolled,
            lambda: driver.shot("no-touch-game"),
        ]
    else:
        steps += [*driver.press("backspace"), wait_game, lambda: driver.shot("no-touch-resumed")]
else:
    raise SystemExit(f"unknown mode {MODE}")


def finish():
    from kivy.config import Config

    result["input_lines"] = dict(Config.items("input"))
    result["touch_devices"] = sorted(set(touch_seen))


steps.append(finish)
driver.run(steps, timeout=20)
for fd in writers.values():
    os.close(fd)
