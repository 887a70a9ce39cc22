#!/usr/bin/env python3
"""History costs as a game grows: undo, redo, a jump back, the history screen's rows, and resident memory,
for TV Wars games of 1,000, 10,000 and 100,000 events. Prints figures; asserts nothing.

    python benchmarks/history.py            # 1k, 10k and 100k events (about 2 minutes on a desktop)
    python benchmarks/history.py --quick    # 1k and 10k events
    python benchmarks/history.py --sizes 1000,5000 --dir /path/on/the/sd-card --json

Each game is played through a real ``Table`` (the seeded 4-network command mix of ``benchmarks/run.py``:
money moves, track changes, undos and redos) into a journal file. Its journal writes run with
``synchronous=OFF`` (building and measuring alike): an fsync costs the same at every size and would hide
what grows. Measured on that live table, each as mean and worst of its runs:

* **undo** / **redo** — ``Table.execute(Undo())`` 40 times in a row, then ``Redo()`` 40 times, 3 rounds;
* **jump back 50** — ``Table.execute(JumpTo(seq))`` to the move 50 moves back, then the ``Undo()`` that undoes
  the jump (50 moves again);
* **history, per move** — what the touchscreen does for the history screen after a move: before lazy rows,
  ``table.history()`` (every entry); with ``companion.history.HistoryWindow``, ``window.sync()``
  (the entries new since the last refresh); **history, open** — building the window's first page;
* **RSS** — a fresh process opens the game from its journal (``Journal`` + ``Table`` + ``OpenGame``), plays 10
  moves, and reads ``VmRSS`` and ``VmHWM`` from ``/proc/self/status``.

Baselines, measured in the same run at each size (they do not depend on the game's length): **fold** — the rules'
``evolve`` over one move's events; **append** — ``Journal.append`` of one event (``synchronous=OFF``). The bare
work of a redo is one append and one fold, of a 50-move jump one append and 50 folds; the history baselines are
describing one move (per move) and 60 of them (a page, on opening). ``ratio`` = figure / baseline. ``growth`` =
the figure at the largest size / at the smallest. The Pi columns multiply the largest size's time by 5 (Pi 4)
and 12 (Pi Zero 2 W), the rough factors between this kind of desktop core and those boards for pure-Python work;
measure on the Pi for the truth.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # run.py beside this file (also under python -P)

from run import NETWORKS, PROC_STATUS_SOURCE, _cpu_model, _new_table, _next_command, progress  # noqa: E402

PI_FACTORS = (("Pi 4", 5), ("Pi Zero 2 W", 12))
UNDO_RUN = 40  # undos in a row, then as many redos
JUMP_BACK = 50  # moves undone by the jump
BUDGET_S = 2.0  # per measure and size: stop repeating after this long (at least MIN_RUNS)
MIN_RUNS = 2
HISTORY_PAGE = 60  # rows on the history screen's first page (companion.history.PAGE)


def build(path: Path, events: int, seed: int = 2024):
    """A live table on a fresh journal at ``path`` holding a game of at least ``events`` events."""
    journal, table, game_id = _new_table(path)
    table.backup_every = None  # backups are not what is measured
    journal._db.execute("PRAGMA synchronous = OFF")
    rng = random.Random(seed)
    total, started = 1, time.perf_counter()
    while total < events:
        with journal._transaction():  # batches of commands in one transaction: building only
            for _ in range(500):
                outcome = table.execute(_next_command(table, rng))
                total += len(outcome.records)
                if total >= events:
                    break
    return journal, table, game_id, total, time.perf_counter() - started


def timed(function) -> float:
    started = time.perf_counter()
    function()
    return time.perf_counter() - started


def repeat(function, runs: int) -> list[float]:
    """Times of ``function`` (seconds), at least ``MIN_RUNS`` and at most ``runs`` calls within ``BUDGET_S``."""
    times, deadline = [], time.perf_counter() + BUDGET_S
    while len(times) < MIN_RUNS or (len(times) < runs and time.perf_counter() < deadline):
        times.append(function())
    return times


def accepted(table, command):
    outcome = table.execute(command)
    if not outcome.accepted:
        raise RuntimeError(f"{command!r} refused: {outcome.message}")
    return outcome


def measure(table, journal, game_id: int) -> dict:
    """Every figure on the live ``table`` (seconds; lists of times)."""
    from companion.commands import JumpTo, Redo, Undo
    from companion.events import NewEvent
    from companion.games.tv_wars import PassOnTheAir

    session = table.session
    rules = session.rules
    figures: dict[str, list[float]] = {"undo": [], "redo": [], "jump": [], "jump_undo": []}

    # baselines: one move's fold, one journal append, one move's text
    events = rules.decide(session.state, PassOnTheAir(network="ABS", source="button"))
    state = session.state

    def fold():
        result = state
        for event in events:
            result = rules.evolve(result, rules.events.decode(event.type, event.payload))  # as a replay does

    folds = [timed(fold) for _ in range(500)]
    figures["fold"] = folds
    scratch = journal.create_game("tv-wars", [{"name": n, "colour": "white"} for n in NETWORKS], {}).game_id
    figures["append"] = repeat(lambda: timed(lambda: journal.append(scratch, [NewEvent("bench_note", {})])), 300)
    last = session.line[-1]
    figures["describe"] = [
        timed(lambda: "; ".join(rules.describe(rules.events.decode(r.type, r.payload)) for r in session.moves[last]))
        for _ in range(300)
    ]

    # undo / redo: runs of UNDO_RUN in a row (past the checkpoints), then as many redos
    deadline = time.perf_counter() + 2 * BUDGET_S
    for round_ in range(3):
        for _ in range(UNDO_RUN):
            figures["undo"].append(timed(lambda: accepted(table, Undo())))
        for _ in range(UNDO_RUN):
            figures["redo"].append(timed(lambda: accepted(table, Redo())))
        if time.perf_counter() > deadline:
            break

    # jump back JUMP_BACK moves, then undo the jump
    def jump_and_back():
        target = table.session.line[-JUMP_BACK - 1]
        figures["jump"].append(timed(lambda: accepted(table, JumpTo(seq=target))))
        figures["jump_undo"].append(timed(lambda: accepted(table, Undo())))
        return figures["jump"][-1]

    repeat(jump_and_back, 10)

    # the history screen's rows after a move
    try:
        from companion.history import HistoryWindow
    except ImportError:
        HistoryWindow = None
    moves = iter([PassOnTheAir(network=NETWORKS[i % 4], source="button") for i in range(1000)])
    if HistoryWindow is None:  # before lazy rows: every refresh read the whole history
        figures["history_open"] = repeat(lambda: timed(table.history), 20)

        def per_move():
            accepted(table, next(moves))
            return timed(table.history)

        figures["history_kind"] = "table.history()"
    else:
        window = None

        def open_window():
            nonlocal window
            started = time.perf_counter()
            window = HistoryWindow(table.session)
            return time.perf_counter() - started

        figures["history_open"] = repeat(open_window, 20)

        def per_move():
            accepted(table, next(moves))
            return timed(window.sync)

        figures["history_kind"] = "HistoryWindow.sync()"
    figures["history_move"] = repeat(per_move, 50)
    return figures


_RSS_CHILD = (
    PROC_STATUS_SOURCE
    + r"""
steps = {"bare": status()}
if len(sys.argv) > 1:
    from companion.commands import OpenGame
    from companion.games.tv_wars import PassOnTheAir
    from companion.journal import Journal
    from companion.table import Table
    steps["imported"] = status()
    table = Table(Journal(sys.argv[1]), backup_every=None)
    table.claim()
    outcome = table.execute(OpenGame(game_id=int(sys.argv[2]), source="startup"))
    assert outcome.accepted, outcome.refusal
    for i in range(10):
        assert table.execute(PassOnTheAir(network=("ABS", "CBA", "PBC", "NBS")[i % 4], source="button")).accepted
    table.view()
    steps["game"] = status()
print(json.dumps(steps))
"""
)


def rss(path: Path | None = None, game_id: int | None = None) -> dict:
    args = [str(path), str(game_id)] if path else []
    result = subprocess.run(
        [sys.executable, "-c", _RSS_CHILD, *args],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tempfile.gettempdir(),
    )
    if result.returncode != 0:
        raise RuntimeError(f"memory child failed: {result.stderr.strip().splitlines()[-3:]}")
    return json.loads(result.stdout)


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:.3f} ms" if seconds < 1 else f"{seconds:.2f} s"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="1,000 and 10,000 events only")
    parser.add_argument("--sizes", default=None, help="comma-separated event counts (default 1000,10000,100000)")
    parser.add_argument("--dir", type=Path, default=None, help="where the temporary journals go")
    parser.add_argument("--json", action="store_true", help="the figures as JSON on standard output")
    args = parser.parse_args(argv)
    sizes = (
        [int(s) for s in args.sizes.split(",")]
        if args.sizes
        else [1_000, 10_000]
        if args.quick
        else [1_000, 10_000, 100_000]
    )

    results: dict[int, dict] = {}
    with tempfile.TemporaryDirectory(prefix="companion-history-", dir=args.dir) as folder:
        bare = rss()["bare"]
        for size in sizes:
            path = Path(folder) / f"history-{size}.sqlite3"
            journal, table, game_id, events, build_s = build(path, size)
            progress(f"{events:,} events built in {build_s:.1f} s ({len(table.session.line):,} moves in force)")
            figures = measure(table, journal, game_id)
            journal.close()
            memory = rss(path, game_id)
            figures["rss"] = memory
            figures["events"] = events
            results[size] = figures
            progress(
                f"{events:,} events: undo {ms(statistics.fmean(figures['undo']))}, "
                f"jump {ms(statistics.fmean(figures['jump']))}, RSS {memory['game']['VmRSS']:.1f} MB"
            )

    first, last = sizes[0], sizes[-1]

    def mean(size, key):
        return statistics.fmean(results[size][key])

    def baseline(size, key):
        fold, append, describe = (statistics.median(results[size][k]) for k in ("fold", "append", "describe"))
        return {
            "undo": append + fold,
            "redo": append + fold,
            "jump": append + JUMP_BACK * fold,
            "jump_undo": append + JUMP_BACK * fold,
            "history_move": describe,
            "history_open": HISTORY_PAGE * describe,
        }[key]

    rows = []
    labels = {
        "undo": "undo (Table.execute)",
        "redo": "redo (Table.execute)",
        "jump": f"jump back {JUMP_BACK} moves",
        "jump_undo": "undo of that jump",
        "history_move": f"history, per move: {results[first]['history_kind']}",
        "history_open": "history, open (first page)",
    }
    for key, label in labels.items():
        row = {
            "measure": label,
            "mean_s": {s: mean(s, key) for s in sizes},
            "worst_s": {s: max(results[s][key]) for s in sizes},
            "baseline_s": {s: baseline(s, key) for s in sizes},
        }
        row["growth"] = row["mean_s"][last] / row["mean_s"][first]
        row["ratio"] = row["mean_s"][last] / row["baseline_s"][last]
        rows.append(row)

    if args.json:
        print(
            json.dumps(
                {
                    "sizes": sizes,
                    "rows": rows,
                    "bare_rss_mb": bare,
                    "rss_mb": {s: results[s]["rss"] for s in sizes},
                    "events": {s: results[s]["events"] for s in sizes},
                },
                indent=2,
                default=str,
            )
        )
        return 0

    print(
        f"# history benchmark {time.strftime('%Y-%m-%d %H:%M')}  Python {platform.python_version()}  "
        f"{platform.machine()}  {_cpu_model()}"
    )
    print(
        "# sizes (events): "
        + ", ".join(f"{results[s]['events']:,}" for s in sizes)
        + "; journal synchronous=OFF; mean (worst) per operation"
    )
    head = f"{'measure':<44}" + "".join(f"{results[s]['events']:>22,}" for s in sizes)
    print(head + f"{'growth':>9}{'baseline':>12}{'ratio':>11}" + "".join(f"{n:>14}" for n, _ in PI_FACTORS))
    for row in rows:
        cells = "".join(f"{ms(row['mean_s'][s]) + ' (' + ms(row['worst_s'][s]).split()[0] + ')':>22}" for s in sizes)
        pis = "".join(f"{ms(row['mean_s'][last] * f):>14}" for _, f in PI_FACTORS)
        print(
            f"{row['measure']:<44}{cells}{row['growth']:>8.1f}×{ms(row['baseline_s'][last]):>12}"
            f"{row['ratio']:>10.1f}×{pis}"
        )
    print(
        f"{'baselines at ' + format(results[last]['events'], ',') + ' events':<44}"
        f"fold {ms(statistics.median(results[last]['fold']))}, "
        f"append {ms(statistics.median(results[last]['append']))}, "
        f"describe {ms(statistics.median(results[last]['describe']))}"
    )
    print()
    print(f"{'memory (MB)':<44}" + "".join(f"{results[s]['events']:>22,}" for s in sizes) + f"{'per event':>12}")
    for key in ("VmRSS", "VmHWM"):
        cells = "".join(f"{results[s]['rss']['game'][key]:>22.1f}" for s in sizes)
        spread = (
            (results[last]["rss"]["game"][key] - results[first]["rss"]["game"][key])
            / max(1, results[last]["events"] - results[first]["events"])
            * 1024
        )
        print(f"{'headless ' + key + ' (target ≤ 60 MB)':<44}{cells}{spread:>9.2f} KB")
    print(
        f"{'  after imports / bare python':<44}"
        + "".join(f"{results[s]['rss']['imported']['VmRSS']:>22.1f}" for s in sizes)
        + f"   bare python {bare['VmRSS']:.1f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
