#!/usr/bin/env python3
"""Benchmarks of the serial reader bridge (issue 8), measured on the machine this runs on.

    python benchmarks/bridge.py            # about 40 s
    python benchmarks/bridge.py --quick    # fewer frames and repeats, about 20 s
    python benchmarks/bridge.py --json     # the figures as JSON on standard output

Measures:

1. frames parsed per second: :class:`firmware_bridge.protocol.FrameParser` on a mixed stream of DICE,
   TILE+, TILE- and HB frames (200,000; 40,000 with --quick), fed in 64-byte reads as from a port and
   in one piece; best of 3.                                                     target >= 50,000/s
2. replug to first accepted frame: a simulated reader on a pseudo-terminal behind a by-id style link is
   unplugged and plugged in again (a board that does not reset, HELLO at once); the time from the
   replug to the accepted HELLO, and to the delivery of a roll made while unplugged; median of 3. With
   the default 2 s deaf period (the design's), and without it (the protocol's own latency).
3. CPU use of an idle reader thread: a connected reader (the simulator in another process, sending its
   heartbeats) and a reader searching for a missing port; process CPU time over 5 s of idling, as a
   percentage of one core.                                                      info (aim: < 1 %)

Exit code 0 whatever the figures (1 only if a measure crashed). Progress goes to standard error.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from firmware_bridge.protocol import (  # noqa: E402 (after the sys.path line above)
    DiceResult,
    FrameParser,
    Heartbeat,
    TilePlaced,
    TileRemoved,  # noqa: E402
    encode,
)
from firmware_bridge.reader import ReaderConnection, ReaderSpec  # noqa: E402
from firmware_bridge.simulator import DeviceSimulator  # noqa: E402

FRAMES_TARGET = 50_000
logging.getLogger("firmware_bridge").setLevel(logging.ERROR)  # the reconnections are expected here


def progress(text: str) -> None:
    """A progress line on standard error."""
    print(text, file=sys.stderr, flush=True)


def wait_until(condition, timeout: float = 30.0) -> bool:
    """Poll ``condition`` every 2 ms for up to ``timeout`` seconds; return its last value."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.002)
    return bool(condition())


# -- 1. parsing ------------------------------------------------------------------------------------------------
def bench_parse(count: int) -> dict:
    """Measure 1: frames parsed per second, best of 3, for 64-byte reads and one piece."""
    frames = []
    for i in range(count):
        seq = i % 65535 + 1
        kind = i % 4
        if kind == 0:
            frames.append(encode(DiceResult(seq, ((i % 6) + 1, ((i // 6) % 6) + 1))))
        elif kind == 1:
            frames.append(encode(Heartbeat(i, i % 3)))
        elif kind == 2:
            frames.append(encode(TilePlaced(seq, i % 4 + 1, "04A1B2%02X" % (i % 256))))
        else:
            frames.append(encode(TileRemoved(seq, i % 4 + 1, "04A1B2%02X" % (i % 256))))
    stream = b"".join(frames)
    chunks = [stream[i : i + 64] for i in range(0, len(stream), 64)]
    results = {}
    for name, pieces in (("64-byte reads", chunks), ("one piece", [stream])):
        best = None
        for _ in range(3):
            parser = FrameParser()
            start = time.perf_counter()
            got = 0
            for piece in pieces:
                got += len(parser.feed(piece))
            elapsed = time.perf_counter() - start
            assert got == count and parser.stats.rejected == 0, (got, parser.stats)
            best = elapsed if best is None else min(best, elapsed)
        results[name] = count / best
    return {"frames": count, "bytes": len(stream), "per_second": results}


# -- 2. replug ----------------------------------------------------------------------------------------------------
def bench_replug(repeats: int, settle_s: float) -> dict:
    """Measure 2: seconds from replug to the accepted HELLO and to a delivered roll (median of ``repeats``)."""
    with tempfile.TemporaryDirectory() as folder:
        link = Path(folder) / "usb-Tabletop_Dice_SIM-if00"
        sim = DeviceSimulator("dice", uid="BENCH", hello_delay=0.0, noise=False, link=link).start()
        readings = []
        conn = ReaderConnection(
            ReaderSpec(kind="dice", path=str(link)), on_dice=readings.append, settle_s=settle_s
        ).start()
        hello_times, roll_times = [], []
        try:
            if not wait_until(lambda: conn.status.connected):
                raise RuntimeError(f"never connected: {conn.status}")
            for _ in range(repeats):
                sim.unplug()
                if not wait_until(lambda: conn.status.state == "disconnected"):
                    raise RuntimeError("the unplug was not noticed")
                sim.roll(3, 4)
                before = len(readings)
                started = time.monotonic()
                sim.replug(reset=False)
                if not wait_until(lambda: conn.status.connected and conn.first_frame_at > started):
                    raise RuntimeError(f"not reconnected: {conn.status}")
                hello_times.append(conn.first_frame_at - started)
                if not wait_until(lambda: len(readings) > before):
                    raise RuntimeError("the roll made while unplugged never arrived")
                roll_times.append(time.monotonic() - started)
                time.sleep(0.3)
        finally:
            conn.stop()
            sim.close()
    return {
        "settle_s": settle_s,
        "hello_s": hello_times,
        "roll_s": roll_times,
        "hello_median_s": statistics.median(hello_times),
        "roll_median_s": statistics.median(roll_times),
    }


# -- 3. idle CPU ---------------------------------------------------------------------------------------------------
def _cpu_over(seconds: float) -> float:
    wall0, cpu0 = time.monotonic(), time.process_time()
    time.sleep(seconds)
    return (time.process_time() - cpu0) / (time.monotonic() - wall0) * 100


def bench_idle(seconds: float) -> dict:
    """Measure 3: process CPU (% of one core) of a connected and of a searching idle reader."""
    baseline = _cpu_over(1.0)
    with tempfile.TemporaryDirectory() as folder:
        link = Path(folder) / "usb-sim"
        process = subprocess.Popen(
            [sys.executable, "-m", "firmware_bridge.simulator", "--link", str(link), "--hello-delay", "0"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            cwd=str(REPO),
        )
        try:
            process.stdout.readline()
            conn = ReaderConnection(ReaderSpec(kind="dice", path=str(link)), settle_s=0.2).start()
            try:
                if not wait_until(lambda: conn.status.connected):
                    raise RuntimeError(f"never connected: {conn.status}")
                time.sleep(0.5)
                connected = _cpu_over(seconds)
                frames = conn.parser.stats.frames
            finally:
                conn.stop()
        finally:
            try:
                process.communicate("quit\n", timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        searching_conn = ReaderConnection(ReaderSpec(kind="dice", path=str(Path(folder) / "absent"))).start()
        try:
            time.sleep(0.3)
            searching = _cpu_over(seconds)
        finally:
            searching_conn.stop()
    return {
        "baseline_pct": baseline,
        "connected_pct": connected,
        "searching_pct": searching,
        "frames_while_connected": frames,
        "seconds": seconds,
    }


# -- report ----------------------------------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    """Run every measure and print the table (or JSON); returns the exit code."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows, figures, crashed = [], {}, False

    def run(key, label, function, *a):
        nonlocal crashed
        progress(f"measuring {label} ...")
        try:
            figures[key] = function(*a)
        except Exception as error:  # a crashed measure is reported, the others still run
            crashed = True
            traceback.print_exc()
            figures[key] = {"error": repr(error)}

    run("parse", "frames parsed per second", bench_parse, 40_000 if args.quick else 200_000)
    run("replug", "replug to first frame (2 s deaf period)", bench_replug, 2 if args.quick else 3, 2.0)
    run("replug_nodeaf", "replug to first frame (no deaf period)", bench_replug, 2 if args.quick else 3, 0.0)
    run("idle", "idle reader CPU", bench_idle, 3.0 if args.quick else 5.0)

    def add(measure, figure, target="—", verdict="info"):
        rows.append((measure, figure, target, verdict))

    parse = figures["parse"]
    if "error" in parse:
        add("frames parsed/s", f"not measured: {parse['error']}", f">= {FRAMES_TARGET:,}", "not measured")
    else:
        for name, rate in parse["per_second"].items():
            add(
                f"frames parsed/s ({name})",
                f"{rate:,.0f}",
                f">= {FRAMES_TARGET:,}",
                "PASS" if rate >= FRAMES_TARGET else "FAIL",
            )
    for key, label in (("replug", "2 s deaf period"), ("replug_nodeaf", "no deaf period")):
        result = figures[key]
        if "error" in result:
            add(f"replug → HELLO accepted ({label})", f"not measured: {result['error']}")
            continue
        add(
            f"replug → HELLO accepted ({label})",
            f"{result['hello_median_s']:.2f} s (runs {', '.join(f'{t:.2f}' for t in result['hello_s'])})",
        )
        add(f"replug → roll delivered ({label})", f"{result['roll_median_s']:.2f} s")
    idle = figures["idle"]
    if "error" in idle:
        add("idle reader CPU", f"not measured: {idle['error']}")
    else:
        add("process CPU, nothing running", f"{idle['baseline_pct']:.2f} % of a core")
        add(
            "idle reader CPU (connected, HB every 1 s)",
            f"{idle['connected_pct']:.2f} % of a core ({idle['frames_while_connected']} frames)",
            "< 1 %",
            "PASS" if idle["connected_pct"] < 1 else "FAIL",
        )
        add(
            "idle reader CPU (searching, no device)",
            f"{idle['searching_pct']:.2f} % of a core",
            "< 1 %",
            "PASS" if idle["searching_pct"] < 1 else "FAIL",
        )

    facts = {
        "date": time.strftime("%Y-%m-%d %H:%M"),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "nproc": os.cpu_count(),
    }
    if args.json:
        print(
            json.dumps(
                {
                    "facts": facts,
                    "figures": figures,
                    "rows": [dict(zip(("measure", "figure", "target", "verdict"), r)) for r in rows],
                },
                indent=2,
            )
        )
    else:
        print("  ".join(f"{k} {v}" for k, v in facts.items()))
        widths = [max(len(str(r[i])) for r in rows + [("measure", "figure", "target", "verdict")]) for i in range(4)]
        header = ("measure", "figure", "target", "verdict")
        for row in [header, tuple("-" * w for w in widths)] + rows:
            print("  ".join(str(cell).ljust(width) for cell, width in zip(row, widths)).rstrip())
    return 1 if crashed else 0


if __name__ == "__main__":
    sys.exit(main())
