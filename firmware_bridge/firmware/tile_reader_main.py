"""tile_reader_main.py -> copy to the Pico as main.py (with bridgecore.py and an MFRC522 driver beside it).

The tile reader: one MFRC522 (RC522 module) under each slot of a Prime Time Line-Up card. Every
POLL_MS each slot's reader is asked for a tag; bridgecore.SlotTracker debounces the answers into
TILE+ / TILE- results, which go over USB serial as described in firmware_bridge/PROTOCOL.md.

NOT RUN ON REAL HARDWARE (see README.md in this folder). Written for MicroPython >= 1.20 on an RP2040.

Driver: not bundled. SlotReader below is the minimal interface this program needs (read_uid() ->
bytes or None); it adapts the MFRC522 class of the widely used Pico port of micropython-mfrc522
(methods init(), request(), SelectTagSN(), constants OK/REQIDL/REQALL). Another driver only needs a
class with the same read_uid().

Wiring (change SLOT_PINS to yours): all readers share SPI0 (SCK GP2, MOSI GP3, MISO GP4); each has
its own chip select (SDA) and reset pin.
"""

import os
import select
import sys
import time

import bridgecore
import machine
import micropython

FIRMWARE = "1.0.0"
SPI_ID, SCK, MOSI, MISO = 0, 2, 3, 4
SLOT_PINS = ((5, 10), (6, 11), (7, 12), (8, 13))  # (chip select, reset) per slot, slot 1 first
POLL_MS = 100
FAULT_REPORT_MS = 10000


class SlotReader:
    """One slot's reader. read_uid() returns the tag UID as bytes, or None if no tag answers.
    Raises OSError (or the driver's exception) when the chip does not respond."""

    def __init__(self, cs, rst):
        from mfrc522 import MFRC522

        self.rdr = MFRC522(spi_id=SPI_ID, sck=SCK, miso=MISO, mosi=MOSI, cs=cs, rst=rst)

    def read_uid(self):
        """The UID of the tag on this slot (bytes), or None."""
        rdr = self.rdr
        rdr.init()
        # REQALL (WUPA) also wakes a tag that stayed in the field after the last read
        stat, _ = rdr.request(getattr(rdr, "REQALL", 0x52))
        if stat != rdr.OK:
            return None
        stat, uid = rdr.SelectTagSN()
        if stat != rdr.OK or not uid:
            return None
        return bytes(uid)


def unique_id():
    """The board's unique id (the flash chip's id) as upper-case hex."""
    return bridgecore.uid_hex(machine.unique_id())


def boot_id():
    """Four random hex digits, drawn at every power-up (PROTOCOL.md: boot)."""
    return bridgecore.hex2(os.urandom(1)[0]) + bridgecore.hex2(os.urandom(1)[0])


def main():
    """Run the reader until power-off."""
    micropython.kbd_intr(-1)
    out = sys.stdout.buffer
    inp = sys.stdin.buffer
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    readers = []
    for cs, rst in SLOT_PINS:
        try:
            readers.append(SlotReader(cs, rst))
        except Exception:  # noqa: BLE001 - no driver or no chip: the slot reports a fault
            readers.append(None)
    tracker = bridgecore.SlotTracker(len(SLOT_PINS))
    core = bridgecore.DeviceCore(
        "tiles",
        unique_id(),
        boot_id(),
        FIRMWARE,
        "slots=%d" % len(SLOT_PINS),
        now=time.ticks_ms(),
        diff=time.ticks_diff,
    )
    last_fault = {}
    next_poll = time.ticks_ms()
    while True:
        now = time.ticks_ms()
        bridgecore.pump(poller, inp, core, now)
        if core.new_session:  # the host (re)connected: report what is on the card
            core.new_session = False
            for slot, uid in tracker.present():
                core.report_tile(True, slot, uid, now)
        if time.ticks_diff(now, next_poll) >= 0:
            next_poll = time.ticks_add(now, POLL_MS)
            for index, reader in enumerate(readers):
                slot = index + 1
                try:
                    if reader is None:
                        raise OSError("no MFRC522 driver or chip")
                    raw = reader.read_uid()
                except Exception as error:  # noqa: BLE001 - a faulty slot keeps its last state
                    seen = last_fault.get(slot)
                    if seen is None or time.ticks_diff(now, seen) >= FAULT_REPORT_MS:
                        last_fault[slot] = now
                        text = "slot %d reader fault %s" % (slot, type(error).__name__)
                        core.outbox.append(bridgecore.frame("ERR", (bridgecore.ERR_HARDWARE, text)))
                    continue
                uid = bridgecore.uid_hex(raw) if raw and len(raw) in (4, 7, 10) else None
                for placed, event_slot, event_uid in tracker.update(slot, uid):
                    core.report_tile(placed, event_slot, event_uid, now)
        for line in core.poll(now):
            out.write(line)
        time.sleep_ms(5)


main()
