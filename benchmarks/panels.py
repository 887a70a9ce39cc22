#!/usr/bin/env python3
"""Press → panel in the kiosk, and the bytes a cash change puts on the bus (issue 17, part 1). Prints figures
beside a bare baseline measured in the same run; asserts nothing.

    python benchmarks/panels.py              # a 4,000-move game, 200 presses (about a minute on a desktop)
    python benchmarks/panels.py --quick      # 1,000 moves, 60 presses
    python benchmarks/panels.py --moves 8000 --presses 300 --gap 0.5 --dir /path/on/the/sd-card --json

1. **debounced press → last panel byte handed to the bus, kiosk**: a 4-network TV Wars game of ``--moves``
   moves (``run.py``'s seeded command mix) is built into a journal; then the kiosk itself
   (``ui.kiosk.build_app`` as on a Pi, no simulator strip: gpiozero ``MockFactory`` pins, since this is not
   a Pi, the real ``ButtonBoard`` → ``PressDetector``, 30 ms debounce) resumes it in a child process with a
   window (Xvfb), its panels real luma.oled SSD1306 drivers behind the TCA9548A on a recording I²C bus
   (``build_app(panel_bus=...)``). A thread presses ABS's On the Air pin (GPIO 17) ``--presses`` times, one
   press at a time, ``--gap`` seconds apart (0.2: a quick player), after 5 warm-up presses that are not
   counted; journal backups run as in play (every 10 moves). The press is debounced and posted
   (``controller.post_button``), wakes Kivy's main thread, the table journals it (``synchronous=FULL``, in
   ``--dir``), the controller's listener hands the panel views to the panel worker, which renders ABS's panel
   and sends the changed part. Figure: from the moment the ``PressDetector`` fires (``ButtonBoard.press``
   entered, on the debounce thread) to the recording bus's last write of that frame (``time.perf_counter``).
   The bus itself costs nothing here; its time for the bytes sent is a separate row.
   **Bare baseline**, in the same child process while the kiosk runs: a second ``ButtonBoard`` (its own mock
   pins and debounce thread) whose post function draws a pre-rendered $31,000 / $34,000 picture in turn on a
   second real SSD1306 on its own recording bus: pin edge → debounce → callback → ``display`` and nothing else
   (no table, no journal, no Kivy, no rendering).
2. **bytes on the bus for a cash change on one panel**: what the kiosk's presses put on the bus (I²C bytes:
   the control byte and payload of every transfer, plus the address byte; multiplexer writes counted apart),
   for ABS's panel and for the three others, beside a full frame (the first frame after a start-up, which is
   sent whole) measured on the same kind of bus; and the time those bytes take at 400 kHz (9 bits a byte, about
   20 bits of start, address and stop a transfer).

The Pi columns multiply this machine's times by 5 (Pi 4) and 12 (Pi Zero 2 W), the rough factors between a
desktop core and those boards for pure-Python work; measure on the Pi for the truth. The bus times are the same
everywhere. Before this change (issue 17) the kiosk figure was 25–31 ms median here.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

_HERE = Path(__file__).resolve().parent
# this folder must not be on the path: benchmarks/hardware.py would hide the installed hardware package
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != _HERE]
_spec = importlib.util.spec_from_file_location("benchmarks_run", _HERE / "run.py")  # run.py beside this file
_run = sys.modules[_spec.name] = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_run)
_Display, build_game, machine_facts, progress = _run._Display, _run.build_game, _run.machine_facts, _run.progress

PI_FACTORS = (("Pi 4", 5), ("Pi Zero 2 W", 12))
TARGET_MEDIAN_MS, TARGET_P99_MS, TARGET_BYTES = 5.0, 15.0, 0.25
I2C_HZ = 400_000
CHILD_TIMEOUT_S = 600
PRESS_TIMEOUT_S = 10.0
WARM_UP = 5  # presses before the measured ones (first calls import and cache), not counted


class RecordingBus:
    """An smbus2-like I²C bus that records, per TCA9548A channel, the bytes and transfers written (address byte
    + control byte + payload per block write) and when the last one was handed over (``time.perf_counter``)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.channel: int | None = None
        self.bytes: dict = {}
        self.transfers: dict = {}
        self.last_write: dict = {}
        self.mux_writes = 0

    def write_byte(self, address, value) -> None:
        with self.lock:
            self.channel = value.bit_length() - 1
            self.mux_writes += 1

    def write_i2c_block_data(self, address, register, data) -> None:
        with self.lock:
            channel = self.channel
            self.bytes[channel] = self.bytes.get(channel, 0) + 2 + len(data)
            self.transfers[channel] = self.transfers.get(channel, 0) + 1
            self.last_write[channel] = time.perf_counter()

    def totals(self) -> tuple[dict, dict]:
        with self.lock:
            return dict(self.bytes), dict(self.transfers)


def bus_ms(sent: int, transfers: int) -> float:
    """Milliseconds ``sent`` bytes in ``transfers`` transfers take at 400 kHz."""
    return (sent * 9 + transfers * 20) / I2C_HZ * 1000


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


# -- the child: the kiosk with real panels on a recording bus ------------------------------------------------


def child(journal_path: Path, presses: int, gap: float, out: Path) -> None:
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    from dataclasses import replace

    from companion.config import parse_config
    from companion.games import PlayerView
    from companion.games.tv_wars import TV_WARS
    from companion.journal import open_journal
    from ui.kiosk import build_app

    config = replace(parse_config({"panels": {"driver": "ssd1306", "multiplexer": "switch"}}), dice_seed=7)
    bus = RecordingBus()
    journal, _ = open_journal(journal_path)
    # the Pi's kiosk (no simulator strip); on a desktop its pins are gpiozero's MockFactory pins all the same
    app = build_app(journal=journal, config=config, simulate=False, panel_bus=lambda number: bus)
    controller = app.controller
    figures: dict = {"errors": []}

    def timed_presses(
        buttons, pin, drawn: threading.Event, last_write, count: int, committed: list | None = None
    ) -> list[float]:
        """Press ``pin`` ``count`` times, ``gap`` seconds apart; seconds from each debounced press to the last
        bus write of its frame (and, into ``committed``, from the press to its journal commit)."""
        fired: list[float] = []
        press = buttons.press
        buttons.press = lambda button, seat, action=None: (
            fired.append(time.perf_counter()),
            press(button, seat, action),
        )[1]
        samples = []
        for _ in range(count):
            drawn.clear()
            before = len(fired)
            pin.drive_low()
            if not drawn.wait(PRESS_TIMEOUT_S) or len(fired) != before + 1:
                raise RuntimeError(f"no frame within {PRESS_TIMEOUT_S} s of press {len(samples) + 1}")
            samples.append(last_write() - fired[-1])
            if committed is not None:
                committed.append(commits[-1] - fired[-1])
            pin.drive_high()
            time.sleep(max(gap, config.bounce_time * 3))  # a player's pace; the release settles meanwhile
        buttons.press = press
        return samples

    commits: list[float] = []
    append = controller.table.journal.append

    def timed_append(*args, **kwargs):
        records = append(*args, **kwargs)
        commits.append(time.perf_counter())
        return records

    controller.table.journal.append = timed_append

    def measure() -> None:
        try:
            if not app.hardware_ready.wait(30):  # opened just after the first frames (ui.app)
                raise RuntimeError("the buttons and panels were not attached after the first frame")
            panels = controller.panels
            if not panels.wait_idle(30):
                raise RuntimeError("the panels did not draw the resumed game")
            figures["players"] = [p.name for p in controller.table.view().players]
            abs_panel = panels.devices[0]
            drawn = threading.Event()
            display = abs_panel.display

            def display_and_tell(image):
                display(image)
                drawn.set()

            abs_panel.display = display_and_tell
            timed_presses(
                controller.buttons, controller.buttons.factory.pin(17), drawn, lambda: bus.last_write[0], WARM_UP
            )
            figures["moves"] = len(controller.table.session.line)
            sent_before, transfers_before = bus.totals()
            figures["committed_s"] = []
            samples = timed_presses(
                controller.buttons,
                controller.buttons.factory.pin(17),
                drawn,
                lambda: bus.last_write[0],
                presses,
                figures["committed_s"],
            )
            sent_after, transfers_after = bus.totals()
            figures["kiosk_s"] = samples
            figures["press_bytes"] = {str(ch): sent_after.get(ch, 0) - sent_before.get(ch, 0) for ch in range(4)}
            figures["press_transfers"] = {
                str(ch): transfers_after.get(ch, 0) - transfers_before.get(ch, 0) for ch in range(4)
            }
            figures["accepted_moves"] = len(controller.table.session.line) - figures["moves"]
            figures["balance"] = controller.table.view().players[0].balance
            figures["bare_s"] = bare(config, presses + WARM_UP)[WARM_UP:]
        except Exception as error:  # reported by the parent
            import traceback

            figures["errors"].append(f"{error!r}\n{traceback.format_exc()}")
        finally:
            out.write_text(json.dumps(figures))
            from kivy.clock import Clock

            Clock.schedule_once(lambda dt: app.stop(), 0)

    def bare(config, count: int) -> list[float]:
        """Pin edge → debounce → callback → display of a pre-rendered picture on a real SSD1306, nothing else."""
        from gpiozero.pins.mock import MockFactory

        from hardware.buttons import ButtonBoard
        from hardware.panel_devices import open_panels
        from hardware.panels import render_player_panel

        bare_bus = RecordingBus()
        device = open_panels(config, open_bus=lambda number: bare_bus)[0]
        pictures = [render_player_panel(PlayerView("ABS", "#e53935", balance)) for balance in (31000, 34000)]
        device.display(pictures[1])
        drawn = threading.Event()
        shown = [1]

        def post(command) -> None:
            shown[0] ^= 1
            device.display(pictures[shown[0]])
            drawn.set()

        buttons = ButtonBoard(config, post, TV_WARS.button_command, pin_factory=MockFactory())
        try:
            buttons.seat_players(["ABS", "CBA", "PBC", "NBS"])
            return timed_presses(buttons, buttons.factory.pin(17), drawn, lambda: bare_bus.last_write[0], count)
        finally:
            buttons.close()

    def begin(*_):
        threading.Thread(target=measure, name="bench-presses", daemon=True).start()

    app.bind(on_start=begin)
    try:
        app.run()
    finally:
        app.close_hardware()
        journal.close()


# -- the parent ------------------------------------------------------------------------------------------------


def full_frame_bytes() -> tuple[int, int, int, int]:
    """(bytes, transfers) of a full frame — the first after start-up — and of a $31,000 → $34,000 cash change,
    on a recording bus behind the multiplexer."""
    from companion.config import parse_config
    from companion.games import PlayerView
    from hardware.panel_devices import open_panels
    from hardware.panels import render_player_panel

    bus = RecordingBus()
    device = open_panels(
        parse_config({"panels": {"driver": "ssd1306", "multiplexer": "switch"}}), open_bus=lambda number: bus
    )[0]
    bus.bytes.clear(), bus.transfers.clear()
    device.display(render_player_panel(PlayerView("ABS", "#e53935", 31000)))
    full = bus.totals()
    bus.bytes.clear(), bus.transfers.clear()
    device.display(render_player_panel(PlayerView("ABS", "#e53935", 34000)))
    change = bus.totals()
    return full[0][0], full[1][0], change[0][0], change[1][0]


def journal_appends(work: Path, count: int) -> list[float]:
    """Seconds of ``count`` one-event ``Journal.append`` calls (``synchronous=FULL``) in ``work``: the commit
    (an fsync) every move waits for before any display shows it."""
    from companion.events import NewEvent
    from companion.journal import Journal

    journal = Journal(work / "appends.sqlite3")
    try:
        game = journal.create_game("tv-wars", [{"name": "ABS", "colour": "#e53935"}], {}, time.time()).game_id
        times = []
        for _ in range(count):
            started = time.perf_counter()
            journal.append(game, [NewEvent("bench_note", {})], time.time())
            times.append(time.perf_counter() - started)
        return times
    finally:
        journal.close()


def run_kiosk(work: Path, journal: Path, presses: int, gap: float) -> dict:
    out = work / "figures.json"
    log = work / "kiosk.log"
    with _Display(work) as display:
        if display.problem:
            raise RuntimeError(display.problem)
        env = dict(os.environ)
        if display.display:
            env["DISPLAY"] = display.display
        command = display.wrapper + [
            sys.executable,
            "-P",
            str(Path(__file__).resolve()),
            "--child",
            str(journal),
            str(presses),
            str(gap),
            str(out),
        ]
        with open(log, "wb") as output:
            completed = subprocess.run(
                command, env=env, cwd=work, stdout=output, stderr=subprocess.STDOUT, timeout=CHILD_TIMEOUT_S
            )
    if not out.exists():
        raise RuntimeError(f"the kiosk child wrote no figures (exit {completed.returncode}); log {log}")
    figures = json.loads(out.read_text())
    if figures["errors"]:
        raise RuntimeError("the kiosk child failed: " + figures["errors"][0])
    figures["display"] = display.note
    return figures


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=4000)
    parser.add_argument("--presses", type=int, default=200)
    parser.add_argument("--gap", type=float, default=0.2, help="seconds between presses (default 0.2)")
    parser.add_argument("--quick", action="store_true", help="1,000 moves and 60 presses")
    parser.add_argument("--dir", type=Path, default=None, help="where the journal goes (default: a temp folder)")
    parser.add_argument("--json", action="store_true", help="the figures as JSON on standard output")
    parser.add_argument("--child", nargs=4, metavar=("JOURNAL", "PRESSES", "GAP", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(Path(args.child[0]), int(args.child[1]), float(args.child[2]), Path(args.child[3]))
        return 0
    moves, presses = (1000, 60) if args.quick else (args.moves, args.presses)
    work = Path(tempfile.mkdtemp(prefix="companion-panels-bench-", dir=args.dir))
    facts = machine_facts(work)
    progress(f"building a {moves:,}-move TV Wars game in {work}")
    game = build_game(work / "journal.sqlite3", moves=moves, fast=True)
    progress(f"built {game['events']:,} events in {game['build_s']:.1f} s; running the kiosk ({presses} presses)")
    figures = run_kiosk(work, work / "journal.sqlite3", presses, args.gap)
    full_sent, full_transfers, change_sent, change_transfers = full_frame_bytes()
    appends = journal_appends(work, presses)

    kiosk, bare, committed = figures["kiosk_s"], figures["bare_s"], figures["committed_s"]
    k_med, k_p99 = statistics.median(kiosk), percentile(kiosk, 0.99)
    b_med, b_p99 = statistics.median(bare), percentile(bare, 0.99)
    after = [total - commit for total, commit in zip(kiosk, committed)]
    press_bytes = figures["press_bytes"]
    press_transfers = figures["press_transfers"]
    abs_per_press = press_bytes["0"] / presses
    abs_transfers = press_transfers["0"] / presses
    others = sum(press_bytes[ch] for ch in ("1", "2", "3"))
    share = abs_per_press / full_sent
    pi = lambda seconds: " · ".join(f"{name} ×{factor}: {ms(seconds * factor)}" for name, factor in PI_FACTORS)
    latency_ok = k_med * 1000 <= TARGET_MEDIAN_MS and k_p99 * 1000 <= TARGET_P99_MS
    rows = [
        (
            f"debounced press → last panel byte handed to the bus, kiosk, {moves:,}-move game "
            f"({figures['moves']:,} in force)",
            f"median {ms(k_med)}, p99 {ms(k_p99)}, max {ms(max(kiosk))} ({presses} presses)",
            f"bare: median {ms(b_med)}, p99 {ms(b_p99)}",
            f"×{k_med / b_med:.1f} median, ×{k_p99 / b_p99:.1f} p99",
            f"median {pi(k_med)}; p99 {pi(k_p99)}",
            f"median ≤ {TARGET_MEDIAN_MS:.0f} ms, p99 ≤ {TARGET_P99_MS:.0f} ms",
            "PASS" if latency_ok else "MISS",
        ),
        (
            "  of which: press → journal commit (wake, drain, decide, SQLite commit)",
            f"median {ms(statistics.median(committed))}, p99 {ms(percentile(committed, 0.99))}",
            f"journal append alone (synchronous=FULL, same folder): median {ms(statistics.median(appends))}, "
            f"p99 {ms(percentile(appends, 0.99))}",
            f"×{statistics.median(committed) / statistics.median(appends):.1f} median",
            "—",
            "info",
            "info",
        ),
        (
            "  of which: journal commit → last panel byte (listener, panel views, render, diff, send)",
            f"median {ms(statistics.median(after))}, p99 {ms(percentile(after, 0.99))}",
            "—",
            "—",
            f"median {pi(statistics.median(after))}",
            "info",
            "info",
        ),
        (
            "bytes on the bus for a cash change on one panel (kiosk presses, I²C)",
            f"{abs_per_press:,.0f} bytes in {abs_transfers:.1f} transfers a press on ABS's panel = {share:.1%} of a "
            f"full frame; {others} bytes on the other three panels",
            f"full frame: {full_sent:,} bytes in {full_transfers} transfers",
            f"{share:.3f}",
            "the same (bytes)",
            f"≤ {TARGET_BYTES:.0%} of a full frame",
            "PASS" if share <= TARGET_BYTES and others == 0 else "MISS",
        ),
        (
            "bus time at 400 kHz for those bytes",
            f"{bus_ms(abs_per_press, abs_transfers):.2f} ms a cash change "
            f"({change_sent} bytes, {change_transfers} transfers for $31,000 → $34,000 alone)",
            f"full frame: {bus_ms(full_sent, full_transfers):.2f} ms",
            f"{bus_ms(abs_per_press, abs_transfers) / bus_ms(full_sent, full_transfers):.3f}",
            "the same (bus speed)",
            "info",
            "info",
        ),
    ]
    if args.json:
        print(
            json.dumps(
                {
                    "facts": facts,
                    "moves": figures["moves"],
                    "presses": presses,
                    "kiosk_s": kiosk,
                    "bare_s": bare,
                    "committed_s": committed,
                    "journal_append_s": appends,
                    "gap_s": args.gap,
                    "press_bytes": press_bytes,
                    "press_transfers": press_transfers,
                    "full_frame": [full_sent, full_transfers],
                    "cash_change": [change_sent, change_transfers],
                    "accepted_moves": figures["accepted_moves"],
                    "display": figures["display"],
                },
                indent=2,
            )
        )
        return 0
    print("Panel path benchmarks (issue 17): press → panel in the kiosk, bytes on the bus")
    for name, value in facts.items():
        print(f"  {name}: {value}")
    print(
        f"  kiosk display: {figures['display']}; game: {game['events']:,} events, {figures['moves']:,} moves in "
        f"force at start; {figures['accepted_moves']} presses applied (ABS now ${figures['balance']:,})"
    )
    header = ("measure", "figure", "bare baseline (same run)", "ratio", "Pi projection", "target", "verdict")
    for row in (header, *rows):
        print(" | ".join(row))
    return 0


if __name__ == "__main__":
    sys.exit(main())
