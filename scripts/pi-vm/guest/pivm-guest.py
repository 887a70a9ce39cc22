#!/usr/bin/python3
"""The pi-vm test's helper inside the guest (system Python, run as root over ssh). Prints JSON.

pivm-guest.py press PIN [HOLD_S] [WAIT_S]   press a simulated header button (pull the gpio-sim line low,
                                            then release it) and wait up to WAIT_S for a new journal event
pivm-guest.py events [AFTER_SEQ]            the journal's events after AFTER_SEQ
pivm-guest.py integrity                     PRAGMA integrity_check of the journal (a read-only copy)
pivm-guest.py tap X Y [WAIT_S]              a tap on the uinput touchscreen, then wait for a new event
pivm-guest.py lines                         the simulated header: chip, and each line's pull and value
"""

import glob
import json
import os
import shutil
import sqlite3
import sys
import tempfile
import time

JOURNAL = "/var/lib/tabletop-companion/journal.sqlite3"
SIM = "/sys/devices/platform/gpio-sim"


def header_chip() -> str:
    """The gpio-sim chip that is the 40-pin header (the bank with 58 lines)."""
    for chip in sorted(glob.glob(f"{SIM}/gpiochip*")):
        if os.path.isdir(f"{chip}/sim_gpio57"):
            return chip
    raise SystemExit(f"no simulated header (a gpio-sim bank with 58 lines) under {SIM}")


def events(after: int = 0) -> list:
    if not os.path.exists(JOURNAL):
        return []
    db = sqlite3.connect(f"file:{JOURNAL}?mode=ro", uri=True, timeout=10)
    try:
        rows = db.execute(
            "SELECT seq, game_id, move, time, type, payload FROM events WHERE seq > ? ORDER BY seq", (after,)
        ).fetchall()
    finally:
        db.close()
    return [
        {"seq": s, "game": g, "move": m, "time": t, "type": k, "payload": json.loads(p)} for s, g, m, t, k, p in rows
    ]


def last_seq() -> int:
    found = events()
    return found[-1]["seq"] if found else 0


def wait_new(before: int, wait: float) -> dict:
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        new = events(before)
        if new:
            time.sleep(0.3)  # the rest of the same move (one command can write several events)
            new = events(before)
            return {"new": new, "seen_at": time.time()}
        time.sleep(0.05)
    return {"new": [], "seen_at": None, "timeout": f"no new journal event within {wait:g} s"}


def main(argv: list) -> None:
    what = argv[1]
    if what == "press":
        pin, hold = int(argv[2]), float(argv[3]) if len(argv) > 3 else 0.25
        wait = float(argv[4]) if len(argv) > 4 else 20
        chip = header_chip()
        pull = f"{chip}/sim_gpio{pin}/pull"
        before = last_seq()
        with open(pull, "w") as f:
            f.write("pull-down")
        pressed = time.time()
        time.sleep(hold)
        with open(pull, "w") as f:
            f.write("pull-up")
        result = {
            "pin": pin,
            "chip": os.path.basename(chip),
            "pressed_at": pressed,
            "released_at": time.time(),
            "before": before,
        }
        result.update(wait_new(before, wait))
    elif what == "tap":
        wait = float(argv[4]) if len(argv) > 4 else 20
        before = last_seq()
        with open("/run/pivm-touch", "w") as fifo:
            fifo.write(f"tap {int(argv[2])} {int(argv[3])}\n")
        result = {"tapped_at": time.time(), "before": before}
        result.update(wait_new(before, wait))
    elif what == "events":
        result = events(int(argv[2]) if len(argv) > 2 else 0)
    elif what == "integrity":
        folder = tempfile.mkdtemp()
        for suffix in ("", "-wal", "-shm"):  # a copy: the check never touches the kiosk's file
            if os.path.exists(JOURNAL + suffix):
                shutil.copy2(JOURNAL + suffix, f"{folder}/j.sqlite3{suffix}")
        db = sqlite3.connect(f"{folder}/j.sqlite3")
        result = {
            "integrity_check": [r[0] for r in db.execute("PRAGMA integrity_check")],
            "events": db.execute("SELECT count(*) FROM events").fetchone()[0],
        }
        db.close()
        shutil.rmtree(folder)
    elif what == "lines":
        chip = header_chip()
        lines = {}
        for n in range(58):
            base = f"{chip}/sim_gpio{n}"
            with open(f"{base}/pull") as p, open(f"{base}/value") as v:
                lines[n] = [p.read().strip(), v.read().strip()]
        result = {"chip": os.path.basename(chip), "lines": lines}
    else:
        raise SystemExit(__doc__)
    json.dump(result, sys.stdout)
    print()


if __name__ == "__main__":
    main(sys.argv)
