"""Screen geometry, importable before Kivy opens its window (Kivy reads the window size once, at import).

``COMPANION_SCREEN_SIZE`` (``WIDTHxHEIGHT``, e.g. ``480x800`` for a touchscreen mounted in portrait) overrides
the touchscreen size; the layout audit (tests/test_layout_audit.py) uses it to check both orientations.
"""

import os

from companion.errors import ConfigError


def _screen_size(value: str | None) -> tuple[int, int]:
    """``(width, height)`` in pixels from ``"WIDTHxHEIGHT"``; the 800×480 default when unset. :class:`ConfigError`
    (a ValueError: the command line says it in one line) names a malformed value."""
    if not value:
        return (800, 480)
    try:
        width, height = (int(part) for part in value.lower().split("x"))
    except ValueError:
        raise ConfigError(
            "the environment", "COMPANION_SCREEN_SIZE", f"must be WIDTHxHEIGHT in pixels (e.g. 480x800), not {value!r}"
        ) from None
    if width < 200 or height < 200:
        raise ConfigError("the environment", "COMPANION_SCREEN_SIZE", f"{value!r} is too small: at least 200x200")
    return (width, height)


#: The touchscreen area in pixels (the official 7" display and most HDMI touchscreens: 800×480).
TOUCHSCREEN_SIZE = _screen_size(os.environ.get("COMPANION_SCREEN_SIZE"))
#: Height in pixels of the simulator's strip of emulated OLED panels and key help, below the touchscreen.
SIMULATOR_STRIP_HEIGHT = 156
#: The touchscreen is mounted portrait (taller than wide, e.g. 480×800): boards and dialogs stack what sits side
#: by side on the 800 px wide screen (the layout audit, tests/test_layout_audit.py, checks both).
PORTRAIT = TOUCHSCREEN_SIZE[1] > TOUCHSCREEN_SIZE[0]
