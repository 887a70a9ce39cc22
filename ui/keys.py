"""The simulator's and a USB keyboard's keys: Kivy key codes as the names the config uses for buttons
(``[players] buttons.a = {key = "q"}``), and the keys the kiosk gives no meaning."""

from __future__ import annotations

#: In the simulator, this key rolls dice into the simulated dice reader's tray.
SIMULATED_TRAY_KEY = "t"

#: Keys Kivy gives a meaning of its own (Escape closes the app or a dialog, F1 opens Kivy's settings panel,
#: F2–F12 serve its debug modules): on a USB keyboard at the kiosk they do nothing, unless a button uses one.
KIOSK_SWALLOWED_KEYS = frozenset({27, *range(282, 294)})

_NAMED = {
    8: "backspace",
    13: "enter",
    32: "spacebar",
    9: "tab",
    27: "escape",
    273: "up",
    274: "down",
    275: "right",
    276: "left",
}


def key_name(key: int, codepoint: str | None) -> str:
    """The config name of Kivy key code ``key`` (``"backspace"``, ``"q"``), else ``codepoint`` or ``""``."""
    if key in _NAMED:
        return _NAMED[key]
    return chr(key) if 32 < key < 127 else (codepoint or "")
