"""dice_pad_main.py -> copy to the Pico as main.py (with bridgecore.py beside it).

The dice pad: a 4x4 membrane keypad on which the roller types the pips of each die, then '#'.
Keys: 1..6 add a die, '*' removes the last die, 'A' clears, '#' sends. Frames go over USB serial
(the Pico's USB CDC port, i.e. sys.stdout/sys.stdin) as described in firmware_bridge/PROTOCOL.md.

NOT RUN ON REAL HARDWARE (see README.md in this folder). Written for MicroPython >= 1.20 on an RP2040.

Wiring (change ROW_PINS / COL_PINS to yours): keypad rows -> GP2..GP5, columns -> GP6..GP9.
Optional: a piezo buzzer on GP15 (a short beep for each key; SET beep,0 silences it).
Maintenance: hold 'D' while plugging in to skip the program and get the REPL (Ctrl-C is disabled
while the program runs, because a noise byte 0x03 on the line must not stop the reader).
"""

import os
import select
import sys
import time

import bridgecore
import machine
import micropython

FIRMWARE = "1.0.0"
ROW_PINS = (2, 3, 4, 5)
COL_PINS = (6, 7, 8, 9)
KEYS = ("123A", "456B", "789C", "*0#D")
BUZZER_PIN = 15
SCAN_MS = 10
DEBOUNCE_SCANS = 3


class Keypad:
    """Scans a row/column matrix; ``pressed()`` returns a newly pressed key once, else None."""

    def __init__(self, rows, cols, keys):
        self.rows = [machine.Pin(p, machine.Pin.OUT, value=1) for p in rows]
        self.cols = [machine.Pin(p, machine.Pin.IN, machine.Pin.PULL_UP) for p in cols]
        self.keys = keys
        self.candidate = None
        self.count = 0
        self.down = None

    def scan(self):
        """The key held down right now, or None."""
        found = None
        for r, row in enumerate(self.rows):
            row.value(0)
            for c, col in enumerate(self.cols):
                if col.value() == 0:
                    found = self.keys[r][c]
            row.value(1)
        return found

    def pressed(self):
        """A key that has just been pressed (debounced), once; else None."""
        key = self.scan()
        if key == self.candidate:
            self.count += 1
        else:
            self.candidate, self.count = key, 1
        if self.count < DEBOUNCE_SCANS:
            return None
        if key != self.down:
            self.down = key
            return key  # None when released
        return None


def unique_id():
    """The board's unique id (the flash chip's id) as upper-case hex."""
    return bridgecore.uid_hex(machine.unique_id())


def boot_id():
    """Four random hex digits, drawn at every power-up (PROTOCOL.md: boot)."""
    return bridgecore.hex2(os.urandom(1)[0]) + bridgecore.hex2(os.urandom(1)[0])


def main():
    """Run the reader until power-off."""
    keypad = Keypad(ROW_PINS, COL_PINS, KEYS)
    if keypad.scan() == "D":
        print("dice pad: maintenance mode, program not started")
        return
    micropython.kbd_intr(-1)
    buzzer = machine.Pin(BUZZER_PIN, machine.Pin.OUT, value=0)
    out = sys.stdout.buffer
    inp = sys.stdin.buffer
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    core = bridgecore.DeviceCore(
        "dice", unique_id(), boot_id(), FIRMWARE, "dice=10;keypad", now=time.ticks_ms(), diff=time.ticks_diff
    )
    entry = bridgecore.PipEntry()
    while True:
        now = time.ticks_ms()
        bridgecore.pump(poller, inp, core, now)
        key = keypad.pressed()
        if key is not None:
            if core.beep:
                buzzer.value(1)
                time.sleep_ms(15)
                buzzer.value(0)
            values = entry.press(key)
            if values:
                core.report_dice(values, now)
            elif entry.message:
                core.outbox.append(bridgecore.frame("ERR", (bridgecore.ERR_ENTRY, entry.message)))
        for line in core.poll(now):
            out.write(line)
        time.sleep_ms(SCAN_MS)


main()
