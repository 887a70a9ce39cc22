"""Screen geometry, importable before Kivy opens its window (Kivy reads the window size once, at import)."""

#: The touchscreen area in pixels (the official 7" display and most HDMI touchscreens: 800×480).
TOUCHSCREEN_SIZE = (800, 480)
#: Height in pixels of the simulator's strip of emulated OLED panels and key help, below the touchscreen.
SIMULATOR_STRIP_HEIGHT = 156
