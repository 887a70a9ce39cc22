"""Hardware-path figures (issue: real Raspberry Pi hardware). Prints a small table; no assertions.

1. A button press on a gpiozero mock pin → the player's panel frame rendered (median, 95th percentile),
   through the real chain: pin → PressDetector → command posted → table owner thread applies it and
   journals it (SQLite, synchronous=FULL) → panel worker renders the new frame. Measured with debounce
   off (the chain's own cost) and with the default 0.03 s debounce (what a player feels).
2. Bytes sent on the I²C bus for one panel update (a recording fake bus under luma.oled's SSD1306 driver).
3. The frame rate a full redraw of four panels could reach at 400 kHz I²C, computed from those bytes
   (9 bits per byte with ACK, plus start/address/stop per 32-byte block).

Usage: python benchmarks/hardware.py [--presses N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gpiozero.pins.mock import MockFactory  # noqa: E402

from companion.commands import NewGame, PlayerSeat  # noqa: E402
from companion.config import default_config, parse_config  # noqa: E402
from companion.games import PlayerView  # noqa: E402
from companion.games.tv_wars import TV_WARS  # noqa: E402
from companion.journal import Journal  # noqa: E402
from companion.table import Table  # noqa: E402
from hardware.buttons import ButtonBoard  # noqa: E402
from hardware.panel_devices import open_panels  # noqa: E402
from hardware.panels import PanelBank, render_player_panel  # noqa: E402


def press_to_frame(presses: int, bounce_time: float) -> list[float]:
    """Seconds from each mock-pin press to the panel frame showing its result."""
    config = replace(default_config(), bounce_time=bounce_time)
    folder = tempfile.mkdtemp(prefix="companion-hw-bench-")
    table = Table(Journal(Path(folder) / "journal.sqlite3"))
    factory = MockFactory()
    bank = PanelBank(4)
    stop = threading.Event()
    ready = threading.Event()

    def owner():
        table.claim()
        table.execute(
            NewGame(game="tv-wars", players=(PlayerSeat("ABS"), PlayerSeat("CBA")), options={"roll_off": False})
        )
        table.subscribe(lambda t, outcome: bank.show(list(t.view().players)))
        bank.show(list(table.view().players))
        ready.set()
        while not stop.is_set():
            table.wait_pending(timeout=0.1)  # woken by each post
            table.process_pending()

    thread = threading.Thread(target=owner, daemon=True)
    thread.start()
    ready.wait()
    bank.wait_idle()
    buttons = ButtonBoard(config, table.post, TV_WARS.button_command, pin_factory=factory)
    buttons.seat_players(["ABS", "CBA"])
    pin = factory.pin(17)
    results = []
    for _ in range(presses):
        version, _ = bank.frames()
        start = time.perf_counter()
        pin.drive_low()
        while bank.frames()[0] == version:
            time.sleep(0.00005)
        results.append(time.perf_counter() - start)
        pin.drive_high()
        time.sleep(bounce_time * 2 + 0.002)
    stop.set()
    thread.join()
    buttons.close()
    bank.close()
    table.journal.close()
    return results


class CountingBus:
    def __init__(self):
        self.bytes = 0
        self.blocks = 0

    def write_byte(self, address, value):
        self.bytes += 1
        self.blocks += 1

    def write_i2c_block_data(self, address, register, data):
        self.bytes += 1 + len(data)
        self.blocks += 1


def bytes_per_update() -> tuple[int, int]:
    bus = CountingBus()
    devices = open_panels(parse_config({"panels": {"driver": "ssd1306"}}), open_bus=lambda n: bus)
    bus.bytes = bus.blocks = 0
    devices[0].display(render_player_panel(PlayerView("ABS", "#fff", 31000)))
    return bus.bytes, bus.blocks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=200)
    args = parser.parse_args()
    rows = []
    for bounce in (0.0, 0.03):
        samples = press_to_frame(args.presses, bounce)
        median = statistics.median(samples) * 1000
        p95 = sorted(samples)[int(len(samples) * 0.95) - 1] * 1000
        target = "≤ 5 ms" if bounce == 0 else "info (includes the debounce wait)"
        verdict = ("PASS" if median <= 5 else "MISS") if bounce == 0 else "info"
        rows.append(
            (
                f"press → panel frame, debounce {bounce * 1000:.0f} ms",
                f"median {median:.2f} ms, p95 {p95:.2f} ms ({args.presses} presses)",
                target,
                verdict,
            )
        )
    sent, blocks = bytes_per_update()
    rows.append(("bytes per panel update (SSD1306, I²C)", f"{sent:,} bytes in {blocks} transfers", "—", "info"))
    bits = sent * 9 + blocks * 20  # ACK bit per byte; start, stop and address per transfer
    seconds = bits / 400_000
    rows.append(
        (
            "full redraw of 4 panels at 400 kHz",
            f"{4 * seconds * 1000:.1f} ms → {1 / (4 * seconds):.1f} frames/s (one panel: {1 / seconds:.0f} frames/s)",
            "—",
            "info",
        )
    )
    width = [max(len(r[i]) for r in rows) for i in range(4)]
    print("Hardware path benchmarks (mock pins, luma dummy and fake-bus devices)")
    for row in [("measure", "figure", "target", "verdict")] + rows:
        print("  ".join(cell.ljust(width[i]) for i, cell in enumerate(row)))


if __name__ == "__main__":
    main()
