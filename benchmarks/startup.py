#!/usr/bin/env python3
"""Start-up cost as a game grows: opening a TV Wars game of 10,000 and 100,000 events from its journal. Prints
figures; asserts nothing.

    python benchmarks/startup.py             # 10k and 100k events (about 2 minutes on a desktop)
    python benchmarks/startup.py --quick     # 10k only
    python benchmarks/startup.py --every 16,32,64,128,256    # also: how often to store a state (N)
    python benchmarks/startup.py --sizes 10000,50000 --dir /path/on/the/sd-card --json

Each game is played through a real ``Table`` (the seeded 4-network command mix of ``benchmarks/run.py``: money
moves, track changes, undos and redos; journal at ``synchronous=OFF`` for the build only), so the journal holds
the states the table stores (every ``companion.session.SNAPSHOT_EVERY`` moves). Then, on a fresh ``Journal``
each time (best of 5):

* **open** — ``GameSession.open(journal, id)``: the skeleton of the history (each entry's seq and time, the
  undo/redo/jump payloads), the tree of moves, the nearest stored state (decoded) and the moves after it folded;
  also **resume** — ``Journal()`` + ``Table.execute(OpenGame)``, what start-up does;
* **start-up** — ``open_journal(path)`` (the check of the file: ``PRAGMA integrity_check``, every payload's
  ``json_valid``, the backups' summaries) + ``Table.resume_latest()`` (the latest open game, then ``OpenGame``):
  the kiosk's start before its window, with the check and ``Journal.latest_open_game`` also alone;
* **full replay** — ``GameSession(id, journal.iter_events(id))``, how every game was opened before (once);
* **baseline** — plain ``sqlite3`` reading the game's ``(seq, move)`` rows, measured in the same run: the floor
  for any opening that knows every history entry.

``ratio`` = open / baseline; Pi columns multiply the open time by 5 (Pi 4) and 12 (Pi Zero 2 W), the rough
factors between this kind of desktop core and those boards for pure-Python work. Targets (issue 17): ≤ 0.1 s at
10k events, ≤ 0.3 s at 100k, on this machine.

``--every``: for each N, a 2,000-move game played with ``SNAPSHOT_EVERY = N`` in a child process: the bytes
written to disk per move (journal + backups, ``/proc/self/io``, as ``run.py``'s ``disk`` measure; target ≤ 3×
a bare SQLite insert) and the open time of a 10,000-event game stored every N moves (folding up to N-1 moves).
"""

from __future__ import annotations

import argparse
import json
import platform
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # run.py and history.py beside this file

from history import build  # noqa: E402
from run import _cpu_model, progress  # noqa: E402

PI_FACTORS = (("Pi 4", 5), ("Pi Zero 2 W", 12))
TARGETS = {10_000: 0.1, 100_000: 0.3}
RUNS = 5


def best(function, runs: int = RUNS) -> tuple[float, list[float]]:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        function()
        times.append(time.perf_counter() - started)
    return min(times), times


def measure_open(path: Path, game_id: int, full: bool = True) -> dict:
    """The open, resume, full replay and baseline figures (seconds) of the game ``game_id`` at ``path``."""
    from companion.commands import OpenGame
    from companion.journal import Journal, open_journal
    from companion.session import GameSession
    from companion.table import Table

    figures: dict = {}

    def bare():
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            db.execute("SELECT seq, move FROM events WHERE game_id = ? ORDER BY seq", (game_id,)).fetchall()
        finally:
            db.close()

    figures["baseline"], figures["baseline_times"] = best(bare)
    sessions = []

    def open_():
        journal = Journal(path)
        try:
            started = time.perf_counter()
            session = GameSession.open(journal, game_id)
            elapsed = time.perf_counter() - started
            sessions.append(session)
            return elapsed
        finally:
            journal.close()

    times = [open_() for _ in range(RUNS)]
    figures["open"], figures["open_times"] = min(times), times
    opened = sessions[-1]
    figures["opened_from"] = opened.opened_from
    figures["moves_in_force"] = len(opened.line)
    figures["entries"] = opened.entry_count
    figures["folded"] = (
        len(opened.line) - opened.line.index(opened.opened_from) - 1 if opened.opened_from in opened.line else None
    )

    def resume():
        with Journal(path) as journal:
            table = Table(journal, backup_every=None)
            if not table.execute(OpenGame(game_id=game_id, source="startup")).accepted:
                raise RuntimeError("OpenGame refused")

    figures["resume"], figures["resume_times"] = best(resume)

    def startup():  # what the kiosk's start does: check the journal, pick the latest open game, open it
        journal, _recovery = open_journal(path)
        try:
            if Table(journal, backup_every=None).resume_latest() is None:
                raise RuntimeError("no open game to resume")
        finally:
            journal.close()

    def check():
        open_journal(path)[0].close()

    def latest():
        with Journal(path) as journal:
            journal.latest_open_game()

    figures["startup"], figures["startup_times"] = best(startup)
    figures["check"], _ = best(check)
    figures["latest"], _ = best(latest)
    if full:
        with Journal(path) as journal:
            started = time.perf_counter()
            replayed = GameSession(game_id, journal.iter_events(game_id))
            figures["full_replay"] = time.perf_counter() - started
        figures["same_state"] = replayed.state == opened.state and replayed.line == opened.line
    with Journal(path) as journal:
        rows = journal._db.execute("SELECT COUNT(*), IFNULL(AVG(LENGTH(state)), 0) FROM snapshots").fetchone()
    figures["stored_states"], figures["stored_bytes_mean"] = rows[0], rows[1]
    return figures


_EVERY_CHILD = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
import companion.session
companion.session.SNAPSHOT_EVERY = int(sys.argv[2])
import startup
from history import build
path = startup.Path(sys.argv[3])
journal, table, game_id, events, _ = build(path, int(sys.argv[4]))
journal.close()
figures = startup.measure_open(path, game_id, full=False)
print(json.dumps({"open": figures["open"], "folded": figures["folded"], "stored": figures["stored_states"],
                  "stored_bytes_mean": figures["stored_bytes_mean"]}))
"""


def measure_every(folder: Path, every: list[int], events: int, moves: int) -> list[dict]:
    """Per N: disk bytes per move (run.py's disk child with SNAPSHOT_EVERY = N) and the open time at ``events``."""
    bench_dir = str(Path(__file__).resolve().parent)
    results = []
    for n in every:
        progress(f"N = {n}: a {events:,}-event game, and {moves:,} moves for the disk bytes")
        child = subprocess.run(
            [sys.executable, "-c", _EVERY_CHILD, bench_dir, str(n), str(folder / f"every-{n}.sqlite3"), str(events)],
            capture_output=True,
            text=True,
            timeout=1800,
        )
        if child.returncode != 0:
            raise RuntimeError(child.stderr.strip().splitlines()[-3:])
        opened = json.loads(child.stdout)
        disk = _disk(folder / f"disk-{n}", n, moves)
        results.append({"every": n, **opened, **disk})
    return results


def _disk(folder: Path, every: int, moves: int) -> dict:
    """Bytes per move written by a Table storing a state every ``every`` moves, and by a bare SQLite insert of the
    same rows (run.py's ``_IO_CHILD``, with ``SNAPSHOT_EVERY`` set first)."""
    import run

    folder.mkdir()
    code = "import companion.session, sys; companion.session.SNAPSHOT_EVERY = " + str(every) + "\n" + run._IO_CHILD
    bench_dir = str(Path(__file__).resolve().parent)

    def child(kind: str, name: str, *extra: str) -> dict:
        target = folder / name
        target.mkdir()
        done = subprocess.run(
            [sys.executable, "-c", code, kind, bench_dir, str(target / "journal.sqlite3"), str(moves), *extra],
            capture_output=True,
            text=True,
            timeout=1800,
        )
        if done.returncode != 0:
            raise RuntimeError(done.stderr.strip().splitlines()[-3:])
        return json.loads(done.stdout)

    ours = child("companion", "companion")
    bare = child("bare", "bare", str(folder / "companion" / "journal.sqlite3"))
    per_move = ours["total"] / bare["moves"]
    bare_per_move = bare["total"] / bare["moves"]
    return {"disk_per_move": per_move, "disk_bare_per_move": bare_per_move, "disk_ratio": per_move / bare_per_move}


def ms(seconds: float | None) -> str:
    return "—" if seconds is None else f"{seconds * 1000:.1f} ms"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="10,000 events only")
    parser.add_argument("--sizes", default=None, help="comma-separated event counts (default 10000,100000)")
    parser.add_argument("--every", default=None, help="comma-separated N to compare (stored every N moves)")
    parser.add_argument("--dir", type=Path, default=None, help="where the temporary journals go")
    parser.add_argument("--json", action="store_true", help="the figures as JSON on standard output")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")] if args.sizes else [10_000] if args.quick else [10_000, 100_000]

    import companion.session

    results: dict[int, dict] = {}
    every: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="companion-startup-", dir=args.dir) as folder:
        for size in sizes:
            path = Path(folder) / f"startup-{size}.sqlite3"
            journal, table, game_id, events, build_s = build(path, size)
            journal.close()
            progress(f"{events:,} events built in {build_s:.1f} s")
            figures = measure_open(path, game_id)
            figures["events"] = events
            results[size] = figures
            progress(f"{events:,} events: open {ms(figures['open'])} (full replay {ms(figures['full_replay'])})")
        if args.every:
            every = measure_every(Path(folder), [int(n) for n in args.every.split(",")], 10_000, 2_000)

    if args.json:
        print(
            json.dumps(
                {
                    "sizes": sizes,
                    "snapshot_every": companion.session.SNAPSHOT_EVERY,
                    "results": results,
                    "every": every,
                },
                indent=2,
                default=str,
            )
        )
        return 0

    print(
        f"# start-up benchmark {time.strftime('%Y-%m-%d %H:%M')}  Python {platform.python_version()}  "
        f"{platform.machine()}  {_cpu_model()}"
    )
    print(f"# a state stored every {companion.session.SNAPSHOT_EVERY} moves; best of {RUNS} on a fresh Journal")
    head = f"{'measure':<40}" + "".join(f"{results[s]['events']:>16,}" for s in sizes)
    print(head)
    print("-" * len(head))

    def line(label, values):
        print(f"{label:<40}" + "".join(f"{v:>16}" for v in values))

    line("open: GameSession.open", [ms(results[s]["open"]) for s in sizes])
    line("  baseline: sqlite3 (seq, move) rows", [ms(results[s]["baseline"]) for s in sizes])
    line("  ratio", [f"{results[s]['open'] / results[s]['baseline']:.1f}×" for s in sizes])
    for name, factor in PI_FACTORS:
        line(f"  {name} (×{factor})", [ms(results[s]["open"] * factor) for s in sizes])
    line("  target (this machine)", [ms(TARGETS.get(s)) if s in TARGETS else "—" for s in sizes])
    line(
        "  verdict",
        [
            "PASS" if s in TARGETS and results[s]["open"] <= TARGETS[s] else "FAIL" if s in TARGETS else "info"
            for s in sizes
        ],
    )
    line("  moves folded after the stored state", [str(results[s]["folded"]) for s in sizes])
    line("resume: Journal() + OpenGame", [ms(results[s]["resume"]) for s in sizes])
    line("start-up: open_journal + resume_latest", [ms(results[s]["startup"]) for s in sizes])
    line("  of which the journal's check", [ms(results[s]["check"]) for s in sizes])
    line("  of which latest_open_game", [ms(results[s]["latest"]) for s in sizes])
    line("full replay (how games opened before)", [ms(results[s]["full_replay"]) for s in sizes])
    line("  same state and line as the open", [str(results[s]["same_state"]) for s in sizes])
    line(
        "stored states (mean bytes)",
        [f"{results[s]['stored_states']} ({results[s]['stored_bytes_mean']:.0f} B)" for s in sizes],
    )
    if every:
        print()
        print(
            f"{'stored every N moves':<22}{'open 10k':>12}{'folded':>8}{'states':>8}{'mean B':>8}"
            f"{'disk B/move':>13}{'bare B/move':>13}{'ratio':>8}"
        )
        for row in every:
            print(
                f"{row['every']:<22}{ms(row['open']):>12}{row['folded']!s:>8}{row['stored']:>8}"
                f"{row['stored_bytes_mean']:>8.0f}{row['disk_per_move']:>13,.0f}{row['disk_bare_per_move']:>13,.0f}"
                f"{row['disk_ratio']:>7.2f}×"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
