#!/usr/bin/env python3
"""Benchmarks for Tabletop Companion, measured on the machine this runs on.

    python benchmarks/run.py            # full sizes (about a minute on a desktop)
    python benchmarks/run.py --quick    # smaller sizes, for a smoke run
    python benchmarks/run.py --json     # the figures as JSON on standard output

Prints machine facts and one table row per measure: the figure, the target from the design, and a
verdict. These are measurements, not assertions: the script exits 0 whatever the figures are (it exits
1 only if a benchmark itself crashed). Progress goes to standard error.

Measures (see benchmarks/README.md for how each is taken):

1. journal appends/s with ``synchronous=FULL`` (the Journal class as is), alone and through
   ``Table.execute(PassOnTheAir(...))``;                                     target >= 200/s
2. replay of a 10,000-event TV Wars game: ``GameSession(id, journal.events(id))``, best of 3, plus the
   fold alone (records already in memory);                                   target <= 0.5 s
3. ``import companion``, ``import companion.table`` and the core a kiosk imports (subprocess minus a bare
   interpreter, median);                                                     target <= 150 ms
4. resident memory of a headless table that has opened a 4-network game of ~1,000 moves;  target <= 60 MB
5. the simulator's launch-to-first-frame time under Xvfb (``COMPANION_BENCH_FIRST_FRAME``); target <= 3 s, and
   <= 1.3x a bare Kivy app's launched alternately; the kiosk's VmRSS at its first frame with a 10,000-event game
   <= 1.25x the bare app's
6. bytes written to disk per move (``/proc/self/io``), journal and backups together, beside a bare SQLite
   WAL + ``synchronous=FULL`` insert of the same rows;                      target <= 3x bare

Only the standard library is used (besides the companion package itself).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import gc
import json
import os
import platform
import random
import select
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from dataclasses import asdict, dataclass, field
from pathlib import Path

NETWORKS = ("ABS", "CBA", "PBC", "NBS")
FIRST_FRAME_VARIABLE = "COMPANION_BENCH_FIRST_FRAME"
UI_TIMEOUT_S = 30.0
EXIT_GRACE_S = 5.0  # how long the app may take to exit after reporting its first frame
REPLAY_TARGET_EVENTS = 10_000
#: The companion modules the kiosk imports (ui.kiosk, ui.app, build_app) and opening a TV Wars game adds.
KIOSK_CORE = (
    "companion.commands, companion.config, companion.dice, companion.errors, "
    "companion.games, companion.history, companion.journal, companion.sdnotify, companion.snapshots, "
    "companion.table, companion.tiles, companion.games.tv_wars"
)
#: What the registry imported besides, before lean start (every game on the first find_game).
OTHER_GAMES = "companion.games.death_show_tv, companion.games.channel_won, companion.games.telly_time"


# --------------------------------------------------------------------------------------------------
# results


@dataclass
class Row:
    """One line of the results table."""

    key: str
    measure: str
    figure: str
    target: str = "—"
    verdict: str = "info"
    value: float | None = None  # the number the verdict is about (None when not measured)
    unit: str = ""
    details: dict = field(default_factory=dict)


def _verdict(value: float, limit: float, higher_is_better: bool) -> str:
    ok = value >= limit if higher_is_better else value <= limit
    return "PASS" if ok else "FAIL"


def not_measured(key: str, measure: str, target: str, reason: str) -> Row:
    return Row(key, measure, f"not measured: {reason}", target, "not measured")


def progress(message: str) -> None:
    print(f"[bench] {message}", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------------------------------
# machine facts


def _cpu_model() -> str:
    facts: dict[str, str] = {}
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as cpuinfo:
            for line in cpuinfo:
                if ":" in line:
                    name, _, value = line.partition(":")
                    facts.setdefault(name.strip(), value.strip())
    except OSError:
        pass
    # x86: "model name"; Raspberry Pi (arm64 kernels): "Model" (the board) and "CPU part".
    for name in ("model name", "Model", "Hardware", "cpu model", "Processor"):
        if facts.get(name):
            return facts[name]
    return platform.processor() or platform.machine() or "unknown"


def _mem_total_mb() -> float | None:
    try:
        with open("/proc/meminfo", encoding="utf-8") as meminfo:
            for line in meminfo:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def _filesystem_of(path: Path) -> str:
    """``type (device) at mount point`` of the file system holding ``path``, from /proc/mounts."""
    best = ("", "?", "?")
    target = str(path.resolve())
    try:
        with open("/proc/mounts", encoding="utf-8") as mounts:
            for line in mounts:
                parts = line.split()
                if len(parts) < 3:
                    continue
                device, mount_point, kind = parts[0], parts[1].replace("\\040", " "), parts[2]
                inside = target == mount_point or target.startswith(mount_point.rstrip("/") + "/")
                if inside and len(mount_point) >= len(best[0]):
                    best = (mount_point, kind, device)
    except OSError:
        return "unknown"
    return f"{best[1]} ({best[2]}) at {best[0]}"


def machine_facts(work_dir: Path) -> dict:
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count()
    memory = _mem_total_mb()
    return {
        "date": _dt.datetime.now().astimezone().isoformat(timespec="seconds"),
        "python": f"{platform.python_implementation()} {platform.python_version()} ({sys.executable})",
        "cpu": _cpu_model(),
        "nproc": f"{usable} usable of {os.cpu_count()}",
        "memory": f"{memory:,.0f} MB" if memory else "unknown",
        "os": platform.platform(),
        "sqlite": sqlite3.sqlite_version,
        "bench dir": f"{work_dir} on {_filesystem_of(work_dir)}",
        "display": os.environ.get("DISPLAY") or "(none: Xvfb will be started)",
    }


# --------------------------------------------------------------------------------------------------
# helpers for building games


def _new_table(path: Path):
    from companion.commands import NewGame, PlayerSeat
    from companion.journal import Journal
    from companion.table import Table

    journal = Journal(path)
    table = Table(journal)
    table.claim()
    outcome = table.execute(
        NewGame(
            game="tv-wars", players=tuple(PlayerSeat(n) for n in NETWORKS), options={"roll_off": False}, source="test"
        )
    )
    if not outcome.accepted:
        raise RuntimeError(f"cannot start a TV Wars game: {outcome.refusal}")
    return journal, table, outcome.records[0].game_id


def _next_command(table, rng: random.Random):
    """A legal command for the current state: mostly money moves, some track changes, some undo/redo."""
    from companion.commands import AdjustTrack, Redo, TransferMoney, Undo
    from companion.games.tv_wars import MAX_HALF_HOURS, LandOnSponsor, PassOnTheAir

    session = table.session
    state = session.state
    network = rng.choice(NETWORKS)
    if session.redo_stack and rng.random() < 0.4:  # after an undo, often redo it
        return Redo(source="button")
    roll = rng.random()
    if roll < 0.06 and len(session.line) >= 3:
        return Undo(steps=rng.randint(1, 3), source="button")
    if roll < 0.50:
        return PassOnTheAir(network=network, source="button")
    half_hours = state.network(network).half_hours.value
    if roll < 0.65:
        correction = None
        if half_hours == 0 or rng.random() < 0.2:
            correction = rng.randint(1, 40)
        return LandOnSponsor(network=network, half_hours=correction, source="button")
    if roll < 0.85:
        balances = state.balances
        amount = rng.choice((100, 500, 1_000, 2_000, 3_000, 5_000))
        payers = [n for n in NETWORKS if balances[n] >= amount]
        if not payers or rng.random() < 0.25:
            return TransferMoney(payer="bank", payee=network, amount=amount, reason="bench: bank pays", source="touch")
        payer = rng.choice(payers)
        payee = rng.choice([n for n in NETWORKS if n != payer] + ["bank"])
        return TransferMoney(payer=payer, payee=payee, amount=amount, reason="bench: transfer", source="touch")
    delta = rng.choice((-3, -2, -1, 1, 2, 3))
    if not 0 <= half_hours + delta <= MAX_HALF_HOURS:
        delta = -delta
    return AdjustTrack(player=network, track="half_hours", delta=delta, reason="bench", source="touch")


def build_game(
    path: Path, *, events: int | None = None, moves: int | None = None, seed: int = 2024, fast: bool = False
) -> dict:
    """Play a TV Wars game of 4 networks through a Table into the journal at ``path`` until it holds
    ``events`` events (game_started included) or ``moves`` accepted commands. ``fast`` turns the build
    connection's ``synchronous`` to OFF (the events written are the same; only durability differs)."""
    journal, table, game_id = _new_table(path)
    if fast:
        journal._db.execute("PRAGMA synchronous = OFF")  # building only: not what is measured
    rng = random.Random(seed)
    total_events, accepted, refused, kinds = 1, 0, 0, {}
    started = time.perf_counter()
    while (events is not None and total_events < events) or (moves is not None and accepted < moves):
        command = _next_command(table, rng)
        outcome = table.execute(command)
        if outcome.accepted:
            accepted += 1
            total_events += len(outcome.records)
            kinds[type(command).__name__] = kinds.get(type(command).__name__, 0) + 1
        else:
            refused += 1
            if refused > 100:
                raise RuntimeError(f"too many refusals while building; last: {outcome.refusal}")
    seconds = time.perf_counter() - started
    final_state = table.state
    journal.close()
    return {
        "game_id": game_id,
        "events": total_events,
        "commands": accepted,
        "refused": refused,
        "kinds": kinds,
        "build_s": seconds,
        "final_state": final_state,
        "fast_build": fast,
    }


def _best_of(repeats: int, function) -> tuple[float, list[float], object]:
    times, result = [], None
    for _ in range(repeats):
        started = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - started)
    return min(times), times, result


# --------------------------------------------------------------------------------------------------
# 1. appends


def bench_appends(work: Path, count: int) -> list[Row]:
    from companion.commands import BANK
    from companion.events import NewEvent
    from companion.games.tv_wars import ON_THE_AIR_PAYMENT, PassOnTheAir
    from companion.games.tv_wars.bank import Movement
    from companion.journal import Journal

    rows = []
    target = "≥ 200/s"

    # The Journal alone: one single-event transaction per append, as the table writes a simple move.
    path = work / "appends-journal.sqlite3"
    with Journal(path) as journal:
        sync = journal._db.execute("PRAGMA synchronous").fetchone()[0]  # 2 = FULL
        players = [{"name": n, "colour": "white"} for n in NETWORKS]
        game_id = journal.create_game("tv-wars", players, {"roll_off": False}).game_id
        base = Movement(BANK, "ABS", ON_THE_AIR_PAYMENT, "passed On the Air", "TV Wars 9.5").to_event()
        events = [NewEvent(base.type, {**base.payload, "payee": NETWORKS[i % 4], "by": "button"}) for i in range(count)]
        for event in events[:20]:  # warm-up (file growth, caches)
            journal.append(game_id, [event])
        started = time.perf_counter()
        for event in events:
            journal.append(game_id, [event])
        seconds = time.perf_counter() - started
    rate = count / seconds
    rows.append(
        Row(
            "journal_appends_per_s",
            f"journal appends, 1 money_moved/txn (synchronous={_SYNC.get(sync, sync)})",
            f"{rate:,.0f}/s ({count:,} in {seconds:.2f} s; {seconds / count * 1000:.2f} ms each)",
            target,
            _verdict(rate, 200, True),
            rate,
            "appends/s",
            {"appends": count, "seconds": seconds, "synchronous": _SYNC.get(sync, sync)},
        )
    )
    progress(f"journal appends: {rate:,.0f}/s")

    # Through the whole Table: decide, preview, journal (FULL), fold, describe.
    journal, table, _ = _new_table(work / "appends-table.sqlite3")
    try:
        for i in range(20):
            table.execute(PassOnTheAir(network=NETWORKS[i % 4], source="button"))
        commands = [PassOnTheAir(network=NETWORKS[i % 4], source="button") for i in range(count)]
        refused = 0
        started = time.perf_counter()
        for command in commands:
            if not table.execute(command).accepted:
                refused += 1
        seconds = time.perf_counter() - started
    finally:
        journal.close()
    rate = count / seconds
    note = f"; {refused} refused!" if refused else ""
    rows.append(
        Row(
            "table_moves_per_s",
            "table moves: Table.execute(PassOnTheAir)",
            f"{rate:,.0f}/s ({count:,} in {seconds:.2f} s; {seconds / count * 1000:.2f} ms each{note})",
            target,
            _verdict(rate, 200, True),
            rate,
            "moves/s",
            {"moves": count, "seconds": seconds, "refused": refused},
        )
    )
    progress(f"table moves: {rate:,.0f}/s")
    return rows


_SYNC = {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}


# --------------------------------------------------------------------------------------------------
# 2. replay


def bench_replay(work: Path, events: int, predicted_rate: float | None) -> list[Row]:
    from companion.commands import OpenGame
    from companion.journal import Journal
    from companion.session import GameSession
    from companion.table import Table

    path = work / "replay.sqlite3"
    # Build with the journal as is, unless this machine's fsyncs would make that take over a minute.
    fast = bool(predicted_rate) and events / predicted_rate > 60
    progress(
        f"building a {events:,}-event game through a Table"
        + (" (synchronous=OFF for the build: FULL would take > 60 s here)" if fast else "")
    )
    built = build_game(path, events=events, fast=fast)
    progress(f"built {built['events']:,} events from {built['commands']:,} commands in {built['build_s']:.1f} s")
    game_id = built["game_id"]
    scale = REPLAY_TARGET_EVENTS / built["events"]
    scaled = built["events"] < REPLAY_TARGET_EVENTS * 0.95

    rows = []
    with Journal(path) as journal:

        def read_and_fold():
            return GameSession(game_id, journal.events(game_id))

        best, times, session = _best_of(3, read_and_fold)
        records = journal.events(game_id)
        read_best, read_times, _ = _best_of(3, lambda: journal.events(game_id))
        fold_best, fold_times, _ = _best_of(3, lambda: GameSession(game_id, records))

    same = session.state == built["final_state"]
    size = f"{built['events']:,} events"

    def figure(seconds: float) -> str:
        text = f"{seconds:.3f} s (best of 3; {size}"
        if scaled:
            text += f"; ≈{seconds * scale:.3f} s per {REPLAY_TARGET_EVENTS:,}"
        return text + ")"

    def verdict(seconds: float) -> str:
        result = _verdict(seconds * (scale if scaled else 1), 0.5, False)
        return result + ("*" if scaled else "")

    details = {
        "events": built["events"],
        "commands": built["commands"],
        "kinds": built["kinds"],
        "build_s": built["build_s"],
        "build_synchronous_off": fast,
        "times_s": times,
        "state_matches_live_table": same,
    }
    rows.append(
        Row(
            "replay_s",
            "replay: GameSession(id, journal.events(id))",
            figure(best),
            f"≤ 0.5 s per {REPLAY_TARGET_EVENTS:,}",
            verdict(best),
            best,
            "s",
            details,
        )
    )
    rows.append(
        Row(
            "replay_fold_s",
            "  fold only (records in memory)",
            figure(fold_best),
            "—",
            "info",
            fold_best,
            "s",
            {"times_s": fold_times},
        )
    )
    rows.append(
        Row(
            "replay_read_s",
            "  read only: journal.events(id)",
            figure(read_best),
            "—",
            "info",
            read_best,
            "s",
            {"times_s": read_times},
        )
    )

    # What start-up does: a fresh Journal + Table, then OpenGame (also runs journal.games()).
    def resume():
        with Journal(path) as fresh:
            table = Table(fresh)
            outcome = table.execute(OpenGame(game_id=game_id, source="startup"))
            if not outcome.accepted:
                raise RuntimeError(f"OpenGame refused: {outcome.refusal}")

    resume_best, resume_times, _ = _best_of(3, resume)
    rows.append(
        Row(
            "resume_s",
            "  resume: Journal() + execute(OpenGame) (from the stored states)",
            figure(resume_best),
            "—",
            "info",
            resume_best,
            "s",
            {"times_s": resume_times},
        )
    )
    _SAVED_GAME["replay"] = (path, f"{built['events']:,} events")
    if not same:
        rows[0].figure += "  [!] replayed state differs from the live table's"
    progress(f"replay: {best:.3f} s (fold {fold_best:.3f} s, read {read_best:.3f} s)")
    return rows


# --------------------------------------------------------------------------------------------------
# 3. import time


def _run_python(code: str, cwd: Path, extra: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *extra, "-c", code], cwd=cwd, capture_output=True, text=True, timeout=60)


def _wall_ms(code: str, cwd: Path) -> float:
    started = time.perf_counter()
    result = _run_python(code, cwd)
    elapsed = (time.perf_counter() - started) * 1000
    if result.returncode != 0:
        raise RuntimeError(f"python -c {code!r} failed: {result.stderr.strip().splitlines()[-1:]}")
    return elapsed


def _importtime(module: str, cwd: Path) -> tuple[float, list[tuple[float, str]]]:
    """``-X importtime``: cumulative µs of the top-level imports caused by ``import module`` (the
    interpreter's own start-up excluded), and every module imported with its self time."""
    result = _run_python(f"import {module}", cwd, ("-X", "importtime"))
    if result.returncode != 0:
        raise RuntimeError(result.stderr.strip().splitlines()[-1:])
    lines = [line for line in result.stderr.splitlines() if line.startswith("import time:")][1:]
    parsed = []
    for line in lines:
        parts = line[len("import time:") :].split("|")
        if len(parts) == 3:
            name = parts[2].rstrip()
            parsed.append((int(parts[0]), int(parts[1]), name[1:] if name.startswith(" ") else name))
    # Start-up imports (site, encodings, ...) come first; ours start at the first companion line.
    first = next((i for i, (_, _, name) in enumerate(parsed) if name.strip().startswith("companion")), None)
    if first is None:
        raise RuntimeError(f"-X importtime shows no companion module for import {module}")
    ours = parsed[first:]
    cumulative = sum(cum for _, cum, name in ours if not name.startswith(" "))
    return cumulative, [(own, name.strip()) for own, _, name in ours]


def bench_imports(work: Path, runs: int) -> list[Row]:
    cwd = work  # not the project folder: the installed (editable) package is what is imported
    codes = {
        "bare": "pass",
        "companion": "import companion",
        "companion.table": "import companion.table",
        "kiosk core": f"import {KIOSK_CORE}",
        "kiosk core, every game": f"import {KIOSK_CORE}, {OTHER_GAMES}",
    }
    for code in codes.values():  # warm-up: byte-code caches, page cache
        _wall_ms(code, cwd)
    samples: dict[str, list[float]] = {name: [] for name in codes}
    for _ in range(runs):  # interleaved so drift hits all three alike
        for name, code in codes.items():
            samples[name].append(_wall_ms(code, cwd))
    medians = {name: statistics.median(values) for name, values in samples.items()}

    internal: dict[str, float] = {}
    heaviest: list[tuple[float, str]] = []
    for module in ("companion", "companion.table"):
        values = []
        for _ in range(max(3, runs // 3)):
            cumulative, selves = _importtime(module, cwd)
            values.append(cumulative / 1000)
            if module == "companion.table":
                heaviest = sorted(selves, reverse=True)[:8]
        internal[module] = statistics.median(values)

    rows = []
    for module in ("companion", "companion.table"):
        wall = medians[module] - medians["bare"]
        rows.append(
            Row(
                f"import_{module.replace('.', '_')}_ms",
                f"import {module}",
                f"{max(wall, 0):.1f} ms (median of {runs}, minus bare python; -X importtime {internal[module]:.1f} ms)",
                "≤ 150 ms",
                _verdict(wall, 150, False),
                wall,
                "ms",
                {
                    "median_ms": medians[module],
                    "bare_median_ms": medians["bare"],
                    "samples_ms": samples[module],
                    "bare_samples_ms": samples["bare"],
                    "importtime_cumulative_ms": internal[module],
                },
            )
        )
    rows[-1].details["heaviest_self_us"] = [{"module": name, "self_us": own} for own, name in heaviest]
    core = medians["kiosk core"] - medians["bare"]
    every = medians["kiosk core, every game"] - medians["bare"]
    rows.append(
        Row(
            "import_kiosk_core_ms",
            "import the core a kiosk imports (one game: TV Wars)",
            f"{max(core, 0):.1f} ms (median of {runs}, minus bare python; with every game, as before "
            f"lean start: {max(every, 0):.1f} ms)",
            "≤ 150 ms",
            _verdict(core, 150, False),
            core,
            "ms",
            {
                "modules": KIOSK_CORE,
                "median_ms": medians["kiosk core"],
                "every_game_median_ms": medians["kiosk core, every game"],
            },
        )
    )
    rows.append(
        Row(
            "python_startup_ms",
            "  bare python start-up (-c pass)",
            f"{medians['bare']:.1f} ms",
            "—",
            "info",
            medians["bare"],
            "ms",
        )
    )
    progress(f"imports: companion {max(rows[0].value, 0):.1f} ms, companion.table {rows[1].value:.1f} ms")
    return rows


# --------------------------------------------------------------------------------------------------
# 4. resident memory


_SAVED_GAME: dict = {}  # the memory benchmark's journal, reused to time a resumed start-up

#: The source of ``status()`` for child scripts: ``{"VmRSS": MB, "VmHWM": MB}`` from ``/proc/self/status``.
PROC_STATUS_SOURCE = r"""
import json, sys

def status():
    found = {}
    with open("/proc/self/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                found[key] = int(value.split()[0]) / 1024
    return found
"""

_MEMORY_CHILD = (
    PROC_STATUS_SOURCE
    + r"""
steps = {"start": status()}
if sys.argv[1] == "table":
    from companion.commands import OpenGame
    from companion.games.tv_wars import PassOnTheAir
    from companion.journal import Journal
    from companion.table import Table
    steps["imported"] = status()
    journal = Journal(sys.argv[2])
    table = Table(journal)
    table.claim()
    steps["table"] = status()
    outcome = table.execute(OpenGame(game_id=int(sys.argv[3]), source="startup"))
    assert outcome.accepted, outcome.refusal
    for i in range(10):
        assert table.execute(PassOnTheAir(network=("ABS", "CBA", "PBC", "NBS")[i % 4], source="button")).accepted
    view = table.view()
    steps["game"] = status()
    steps["moves_in_force"] = len(table.session.line)
print(json.dumps(steps))
"""
)


def bench_memory(work: Path, moves: int, predicted_rate: float | None) -> list[Row]:
    path = work / "memory.sqlite3"
    fast = bool(predicted_rate) and moves * 1.2 / predicted_rate > 30
    built = build_game(path, moves=moves, seed=7, fast=fast)

    def child(*args: str) -> dict:
        result = subprocess.run(
            [sys.executable, "-c", _MEMORY_CHILD, *args], cwd=work, capture_output=True, text=True, timeout=120
        )
        if result.returncode != 0:
            raise RuntimeError(f"memory child failed: {result.stderr.strip().splitlines()[-3:]}")
        return json.loads(result.stdout)

    bare = child("bare")["start"]
    steps = child("table", str(path), str(built["game_id"]))
    rss, hwm = steps["game"]["VmRSS"], steps["game"]["VmHWM"]
    figure = (
        f"VmRSS {rss:.1f} MB, VmHWM {hwm:.1f} MB ({built['commands']:,} moves, {built['events']:,} events; "
        f"after imports {steps['imported']['VmRSS']:.1f} MB)"
    )
    _SAVED_GAME["path"] = path
    _SAVED_GAME["label"] = f"{built['commands']:,} moves"
    rows = [
        Row(
            "headless_rss_mb",
            "headless table memory (4 networks)",
            figure,
            "≤ 60 MB",
            _verdict(max(rss, hwm), 60, False),
            max(rss, hwm),
            "MB",
            {"steps_mb": steps, "moves": built["commands"], "events": built["events"]},
        ),
        Row("bare_python_rss_mb", "  bare python VmRSS", f"{bare['VmRSS']:.1f} MB", "—", "info", bare["VmRSS"], "MB"),
    ]
    progress(f"memory: RSS {rss:.1f} MB, HWM {hwm:.1f} MB")
    return rows


# --------------------------------------------------------------------------------------------------
# 5. simulator first frame


class _Display:
    """A display for the simulator: the current one, or an Xvfb started here (and stopped on exit)."""

    def __init__(self, log_dir: Path) -> None:
        self.log_dir = log_dir
        self.process: subprocess.Popen | None = None
        self.display: str | None = os.environ.get("DISPLAY") or None
        self.wrapper: list[str] = []
        self.note = f"existing display {self.display}" if self.display else ""
        self.problem = ""

    def __enter__(self) -> _Display:
        if self.display:
            return self
        if shutil.which("Xvfb"):
            try:
                self._start_xvfb()
                return self
            except Exception as error:  # fall through to xvfb-run
                self.problem = f"Xvfb did not start: {error}"
                self._stop()
        if shutil.which("xvfb-run"):
            self.wrapper = ["xvfb-run", "-a", "-s", "-screen 0 1280x800x24"]
            self.note = "under xvfb-run (its Xvfb start-up is included)"
            self.problem = ""
        elif not self.problem:
            self.problem = "no DISPLAY and neither Xvfb nor xvfb-run is installed"
        return self

    def _start_xvfb(self) -> None:
        log = open(self.log_dir / "xvfb.log", "wb")
        read_end, write_end = os.pipe()
        try:
            # -displayfd: Xvfb picks a free display number and writes it once it accepts connections.
            self.process = subprocess.Popen(
                ["Xvfb", "-displayfd", str(write_end), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                pass_fds=(write_end,),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                start_new_session=True,
            )
        finally:
            os.close(write_end)
            log.close()
        started = time.monotonic()
        data = b""
        try:
            while b"\n" not in data:
                remaining = 10 - (time.monotonic() - started)
                if remaining <= 0:
                    raise RuntimeError("no display number within 10 s")
                ready, _, _ = select.select([read_end], [], [], remaining)
                if ready:
                    chunk = os.read(read_end, 64)
                    if not chunk:
                        raise RuntimeError(f"Xvfb exited (code {self.process.poll()})")
                    data += chunk
        finally:
            os.close(read_end)
        self.display = ":" + data.decode().strip()
        self.note = f"own Xvfb on {self.display}, its {time.monotonic() - started:.2f} s start-up excluded"

    def _stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def __exit__(self, *exc_info) -> None:
        self._stop()


def _companion_command() -> list[str]:
    beside = Path(sys.executable).with_name("companion")
    if beside.exists():
        return [str(beside)]
    found = shutil.which("companion")
    return [found] if found else [sys.executable, "-m", "companion"]


def _stop_group(process: subprocess.Popen) -> None:
    """Stop the app we launched (its own session, so its process group id is its pid)."""
    if process.poll() is not None:
        return
    for sig, wait in ((signal.SIGTERM, 5), (signal.SIGKILL, 5)):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(wait)
            return
        except subprocess.TimeoutExpired:
            continue


def _last_lines(path: Path, count: int = 3) -> str:
    try:
        lines = [line.strip() for line in path.read_text(errors="replace").splitlines() if line.strip()]
    except OSError:
        return ""
    return " | ".join(lines[-count:])[-300:]


def _read_marker(marker: Path) -> float | None:
    """The Unix time on the marker's first line (``None`` until it is written)."""
    try:
        return float(marker.read_text().split("\n")[0].strip())
    except (OSError, ValueError):
        return None


def _marker_memory(marker: Path) -> dict:
    """``{"VmRSS": MB, "VmHWM": MB}`` from the marker's second line (``VmRSS=<kB> VmHWM=<kB>``), if any."""
    try:
        lines = marker.read_text().split("\n")
    except OSError:
        return {}
    found = {}
    for item in lines[1].split() if len(lines) > 1 else []:
        key, _, value = item.partition("=")
        if value.isdigit():
            found[key] = int(value) / 1024
    return found


def _marker_cpu(marker: Path) -> float | None:
    """The process's CPU time at its first frame (s), from the marker's third line (``cpu=<s>``), if any."""
    try:
        lines = marker.read_text().split("\n")
    except OSError:
        return None
    key, _, value = (lines[2] if len(lines) > 2 else "").partition("=")
    try:
        return float(value) if key == "cpu" else None
    except ValueError:
        return None


def _marker_phases(marker: Path) -> dict:
    """The CPU time (s) of the start-up's parts from the marker's fourth line
    (``phases=start:<s>,build:<s>,open:<s>,screens:<s>,draw:<s>``, written by ``ui.app``), if any."""
    try:
        lines = marker.read_text().split("\n")
    except OSError:
        return {}
    key, _, value = (lines[3] if len(lines) > 3 else "").partition("=")
    found = {}
    for item in value.split(",") if key == "phases" else []:
        name, _, seconds = item.partition(":")
        try:
            found[name] = float(seconds)
        except ValueError:
            return {}
    return found


#: The start-up's parts in the marker's fourth line, as the phase row names them.
PHASES = (
    ("start", "before build() (interpreter, imports, Kivy's window)"),
    ("build", "the rest of build()"),
    ("open", "opening the game (its rules, the journal)"),
    ("screens", "making and filling its screens"),
    ("draw", "to the first frame (layout, drawing)"),
)


#: A bare Kivy app of the kiosk's window size (argv: width, height): at its first frame it writes the time and
#: its memory to $COMPANION_BENCH_FIRST_FRAME, as the companion's UI does, and quits. The baseline of the
#: first-frame and memory rows, launched alternately with the companion in the same run.
_BARE_KIVY = r"""
import os, sys, time
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
from kivy.config import Config
Config.set("graphics", "width", sys.argv[1])
Config.set("graphics", "height", sys.argv[2])
Config.set("graphics", "resizable", "0")
from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.uix.label import Label

class Bare(App):
    def build(self):
        self.started = time.process_time()  # the phases the companion's marker gives (ui.app), for comparison
        Window.bind(on_flip=self.flipped)
        label = Label(text="a bare Kivy app")
        self.built = time.process_time()
        return label

    def flipped(self, window):
        Window.unbind(on_flip=self.flipped)
        drawn = repr(time.time())
        now = time.process_time()
        cpu = f"cpu={now:.4f}"
        phases = (f"phases=start:{self.started:.4f},build:{self.built - self.started:.4f},open:0,screens:0,"
                  f"draw:{now - self.built:.4f}")
        with open("/proc/self/status") as status:
            memory = " ".join(line.split(":")[0] + "=" + line.split()[1] for line in status
                              if line.startswith(("VmRSS:", "VmHWM:")))
        with open(os.environ["COMPANION_BENCH_FIRST_FRAME"], "w") as marker:
            marker.write(drawn + "\n" + memory + "\n" + cpu + "\n" + phases + "\n")
        Clock.schedule_once(lambda dt: self.stop(), 0)

Bare().run()
"""


def _first_frame_once(
    display: _Display, work: Path, index: int, journal: Path | None = None, bare: bool = False
) -> tuple[float | None, str, dict]:
    """One launch: ``(seconds from Popen to the first frame or None, a note, memory at the first frame)``;
    the companion's simulator (resuming ``journal`` if given), or the bare Kivy app (``bare``)."""
    from companion.paths import JOURNAL_NAME
    from ui.layout import SIMULATOR_STRIP_HEIGHT, TOUCHSCREEN_SIZE

    run_dir = Path(tempfile.mkdtemp(prefix=f"ui-{index}-", dir=work))
    data_dir = run_dir / "data"
    data_dir.mkdir()
    if journal is not None:  # a saved game to resume at start-up
        shutil.copyfile(journal, data_dir / JOURNAL_NAME)
    marker = run_dir / "first-frame.txt"
    log_path = run_dir / "app.log"
    env = dict(os.environ)
    env[FIRST_FRAME_VARIABLE] = str(marker)
    if display.display:
        env["DISPLAY"] = display.display
    if bare:  # a file, not -c: Kivy's App looks for its source's folder
        size = (TOUCHSCREEN_SIZE[0], TOUCHSCREEN_SIZE[1] + SIMULATOR_STRIP_HEIGHT)
        script = run_dir / "bare_kivy.py"
        script.write_text(_BARE_KIVY)
        command = display.wrapper + [sys.executable, str(script), str(size[0]), str(size[1])]
    else:
        command = display.wrapper + _companion_command() + ["run", "--sim", "--data-dir", str(data_dir)]
    with open(log_path, "wb") as log:
        launched = time.time()
        process = subprocess.Popen(
            command,
            env=env,
            cwd=run_dir,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    deadline = time.monotonic() + UI_TIMEOUT_S
    exited = False
    try:
        while process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
            if deadline - time.monotonic() > EXIT_GRACE_S and _read_marker(marker) is not None:
                deadline = time.monotonic() + EXIT_GRACE_S  # reported: it should exit by itself soon
        exited = process.poll() is not None
    finally:
        # Still running after the timeout (or interrupted): stop it; a marker written meanwhile still counts.
        _stop_group(process)
        if not exited:
            exited_note = (
                f"first frame reported but the app did not exit within {EXIT_GRACE_S:.0f} s"
                if _read_marker(marker) is not None
                else ""
            )
    try:
        text = marker.read_text().strip()
    except OSError:
        text = ""
    if text:
        drawn = _read_marker(marker)
        if drawn is None:
            return None, f"{FIRST_FRAME_VARIABLE} file holds {text[:40]!r}, not a Unix time", {}
        seconds = drawn - launched
        used = _marker_memory(marker)
        cpu = _marker_cpu(marker)
        if cpu is not None:
            used["cpu_s"] = cpu
        phases = _marker_phases(marker)
        if phases:
            used["phases_s"] = phases
        return seconds, ("" if exited else exited_note), used
    if not exited:
        return (
            None,
            (
                f"no first frame reported within {UI_TIMEOUT_S:.0f} s (the UI may not support "
                f"{FIRST_FRAME_VARIABLE} yet); log: {_last_lines(log_path)}"
            ),
            {},
        )
    return (
        None,
        (f"app exited with code {process.returncode} without reporting a first frame: {_last_lines(log_path, 1)}"),
        {},
    )


def bench_first_frame(work: Path, runs: int, saved_game: tuple[Path, str] | None = None) -> list[Row]:
    """The simulator's first frame (empty data dir, and resuming ``saved_game``) beside a bare Kivy app's,
    launched alternately ``runs`` times each; and their memory at the first frame."""
    key, measure, target = "first_frame_s", "simulator launch → first frame", "≤ 3 s"
    kinds = ["bare", "empty"] + (["saved"] if saved_game is not None and saved_game[0].exists() else [])
    times: dict[str, list[float]] = {kind: [] for kind in kinds}
    memory: dict[str, list[dict]] = {kind: [] for kind in kinds}
    notes: list[str] = []
    with _Display(work) as display:
        if display.problem:
            return [not_measured(key, measure, target, display.problem)]
        progress(f"simulator first frame: {display.note}")
        for index in range(runs):  # interleaved: the same load hits all three alike
            for kind in kinds:
                seconds, note, used = _first_frame_once(
                    display,
                    work,
                    index * len(kinds) + kinds.index(kind),
                    saved_game[0] if kind == "saved" else None,
                    bare=kind == "bare",
                )
                if seconds is None:
                    if kind != "saved" and not times[kind]:
                        return [not_measured(key, measure, target, f"{kind}: {note}")]
                    notes.append(f"{kind}: {note}")
                    continue
                times[kind].append(seconds)
                memory[kind].append(used)
                if note:
                    notes.append(note)
                progress(f"first frame run {index + 1} ({kind}): {seconds:.2f} s, VmRSS {used.get('VmRSS', 0):.0f} MB")
    median = {kind: statistics.median(values) for kind, values in times.items() if values}
    rss = {kind: statistics.median(m.get("VmRSS", 0) for m in values) for kind, values in memory.items() if values}
    hwm = {kind: statistics.median(m.get("VmHWM", 0) for m in values) for kind, values in memory.items() if values}
    cpu = {  # the CPU each used to its first frame: what a busy machine changes least
        kind: statistics.median(m["cpu_s"] for m in values)
        for kind, values in memory.items()
        if values and all("cpu_s" in m for m in values)
    }
    spread = ", ".join(f"{t:.2f}" for t in times["empty"])
    figure = f"{median['empty']:.2f} s (median of {len(times['empty'])}: {spread}; empty data dir; {display.note})"
    if notes:
        figure += f" [{notes[0]}]"
    ratio = median["empty"] / median["bare"]
    rows = [
        Row(
            key,
            measure,
            figure,
            target,
            _verdict(median["empty"], 3, False),
            median["empty"],
            "s",
            {
                "times_s": times,
                "display": display.note,
                "notes": notes,
                "rss_mb": rss,
                "hwm_mb": hwm,
                "cpu_s": cpu,
                "command": " ".join(_companion_command() + ["run", "--sim", "--data-dir", "<tmp>"]),
            },
        ),
        Row(
            "first_frame_ratio",
            "  ÷ a bare Kivy app's first frame (same window, same run, alternated)",
            f"{ratio:.2f}× (bare Kivy {median['bare']:.2f} s, median of {len(times['bare'])}; ×5 Pi 4 ≈ "
            f"{median['empty'] * 5:.1f} s, ×12 Pi Zero 2 W ≈ {median['empty'] * 12:.1f} s)",
            "≤ 1.3×",
            _verdict(ratio, 1.3, False),
            ratio,
            "×",
        ),
    ]
    if cpu.get("bare"):
        parts = [f"{kind} {cpu[kind]:.2f} s = {cpu[kind] / cpu['bare']:.2f}×" for kind in kinds[1:] if kind in cpu]
        rows.append(
            Row(
                "first_frame_cpu_ratio",
                "  CPU time to the first frame ÷ the bare Kivy app's (process time, every thread; medians)",
                "; ".join(parts) + f" (bare Kivy {cpu['bare']:.2f} s)",
                "≤ 1.3×",
                _verdict(cpu["empty"] / cpu["bare"], 1.3, False) if "empty" in cpu else "info",
                cpu["empty"] / cpu["bare"] if "empty" in cpu else None,
                "×",
                {"cpu_s": cpu},
            )
        )
    if "saved" in median:
        saved_ratio = median["saved"] / median["bare"]
        rows.append(
            Row(
                "first_frame_resume_s",
                f"  resuming a saved game ({saved_game[1]})",
                f"{median['saved']:.2f} s = {saved_ratio:.2f}× bare Kivy (median of {len(times['saved'])})",
                "≤ 1.3× bare",
                _verdict(saved_ratio, 1.3, False),
                median["saved"],
                "s",
            )
        )
        rows.extend(_phase_rows(memory, cpu))
        memory_ratio = rss["saved"] / rss["bare"] if rss.get("bare") else float("inf")
        rows.append(
            Row(
                "kiosk_rss_mb",
                f"kiosk memory at its first frame, resuming ({saved_game[1]})",
                f"VmRSS {rss['saved']:.1f} MB = {memory_ratio:.2f}× a bare Kivy app's {rss['bare']:.1f} MB "
                f"(VmHWM {hwm['saved']:.1f} vs {hwm['bare']:.1f} MB; empty data dir {rss['empty']:.1f} MB)",
                "≤ 1.25× bare",
                _verdict(memory_ratio, 1.25, False),
                memory_ratio,
                "×",
                {"rss_mb": rss, "hwm_mb": hwm},
            )
        )
    return rows


def _phase_rows(memory: dict[str, list[dict]], cpu: dict[str, float]) -> list[Row]:
    """An info row: where each start's CPU goes, part by part (medians; the bare app's marker gives its time
    before ``build()``, its ``build()`` and its drawing), and how much the 1.3× target leaves for resuming:
    the margin between the empty start and 1.3× the bare app's."""
    names = {name for name, _ in PHASES}
    phases = {
        kind: {name: statistics.median(m["phases_s"][name] for m in values) for name, _ in PHASES}
        for kind, values in memory.items()
        if values and all(set(m.get("phases_s", ())) >= names for m in values)
    }
    if not {"bare", "empty", "saved"} <= set(phases) or not {"bare", "empty", "saved"} <= set(cpu):
        return []
    parts = "; ".join(
        f"{label} {phases['saved'][name] * 1000:.0f} ms (empty {phases['empty'][name] * 1000:.0f}, "
        f"bare {phases['bare'][name] * 1000:.0f})"
        for name, label in PHASES
    )
    more = cpu["saved"] - cpu["empty"]
    room = 1.3 * cpu["bare"] - cpu["empty"]
    figure = (
        f"resumed {parts}; the resumed start uses {more * 1000:.0f} ms more CPU than the empty one, and 1.3× "
        f"the bare app's leaves {room * 1000:.0f} ms above the empty start"
    )
    return [
        Row(
            "first_frame_phases",
            "  where each start's CPU goes (medians)",
            figure,
            "—",
            "info",
            more,
            "s",
            {"phases_s": phases, "room_s": room},
        )
    ]


# --------------------------------------------------------------------------------------------------
# 6. bytes written to disk per move (journal and backups together)

_IO_CHILD = r"""
import json, random, sqlite3, sys, time
from pathlib import Path

def written():
    with open("/proc/self/io") as io:
        return {k: int(v) for k, v in (line.split(": ") for line in io)}["write_bytes"]

kind, bench_dir, path, moves = sys.argv[1], sys.argv[2], Path(sys.argv[3]), int(sys.argv[4])
sys.path.insert(0, bench_dir)
import run as bench
from companion.journal import Journal
from companion.table import BACKUP_EVERY, Table
result = {"kind": kind}
if kind in ("companion", "journal-only"):  # the Table as the kiosk runs it: journal + background backups
    before = written()
    journal, table, game_id = bench._new_table(path)
    if kind == "journal-only":
        table.backup_every = None
    rng = random.Random(2024)
    accepted = 0
    while accepted < moves:
        if table.execute(bench._next_command(table, rng)).accepted:
            accepted += 1
            if accepted == moves * 3 // 4:
                assert journal.wait_for_backups(120)
                result["q3"] = written() - before
    journal.backup_soon()         # the clean stop's backup, as ui/kiosk.py asks for it
    journal.close()               # waits for it
    result["total"] = written() - before
    result["backup_every"] = BACKUP_EVERY
    folder = path.parent / "backups"
    result["backups_bytes"] = sum(f.stat().st_size for f in folder.iterdir()) if folder.is_dir() else 0
    result["journal_bytes"] = path.stat().st_size
else:                             # the same rows, one transaction per move, into a bare table
    source = sqlite3.connect(f"file:{sys.argv[5]}?mode=ro&immutable=1", uri=True)
    rows = source.execute("SELECT seq, game_id, move, time, type, payload, schema_version FROM events "
                          "ORDER BY seq").fetchall()
    source.close()
    by_move = {}
    for row in rows:
        by_move.setdefault(row[2], []).append(row)
    groups = list(by_move.values())
    before = written()
    db = sqlite3.connect(str(path), isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = FULL")
    db.execute("CREATE TABLE events (seq INTEGER PRIMARY KEY, game_id INTEGER NOT NULL, move INTEGER NOT NULL, "
               "time REAL NOT NULL, type TEXT NOT NULL, payload TEXT NOT NULL, schema_version INTEGER NOT NULL)")
    for index, group in enumerate(groups, 1):
        db.execute("BEGIN")
        db.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?)", group)
        db.execute("COMMIT")
        if kind == "full-copies" and index % 50 == 0:    # the previous scheme: a whole copy every 50 moves
            partial = path.with_name("copy.partial")
            copy = sqlite3.connect(str(partial))
            db.backup(copy)
            copy.close()
            partial.replace(path.with_name("copy.sqlite3"))
        if index == len(groups) * 3 // 4:
            result["q3"] = written() - before
    db.close()
    result["total"] = written() - before
    result["moves"] = len(groups)
print(json.dumps(result))
"""


def bench_disk_bytes(work: Path, moves: int) -> list[Row]:
    """Bytes the process sends to the storage layer (``/proc/self/io`` ``write_bytes``) per move: the
    companion (journal + backups, the Table as the kiosk runs it) beside a bare SQLite WAL +
    ``synchronous=FULL`` insert of the same rows, and (info) the previous scheme's full copies."""
    if not Path("/proc/self/io").exists():
        raise RuntimeError("/proc/self/io is not available here")
    bench_dir = str(Path(__file__).resolve().parent)

    def child(kind: str, folder: str, *extra: str) -> dict:
        target = work / folder
        target.mkdir()
        result = subprocess.run(
            [sys.executable, "-c", _IO_CHILD, kind, bench_dir, str(target / "journal.sqlite3"), str(moves), *extra],
            cwd=work,
            capture_output=True,
            text=True,
            timeout=1800,
        )
        if result.returncode != 0:
            raise RuntimeError(f"{kind} child failed: {result.stderr.strip().splitlines()[-3:]}")
        return json.loads(result.stdout)

    progress(f"disk bytes: playing {moves:,} moves through the Table (journal + backups)")
    ours = child("companion", "io-companion")
    journal = str(work / "io-companion" / "journal.sqlite3")
    alone = child("journal-only", "io-journal-only")
    bare = child("bare", "io-bare", journal)
    old = child("full-copies", "io-full-copies", journal)
    n = bare["moves"]
    last = n - n * 3 // 4

    def per_move(result: dict) -> tuple[float, float]:
        return result["total"] / n, (result["total"] - result["q3"]) / last

    ours_all, ours_last = per_move(ours)
    bare_all, bare_last = per_move(bare)
    old_all, old_last = per_move(old)
    alone_all, alone_last = per_move(alone)
    ratio = ours_all / bare_all if bare_all else float("inf")
    fs = _filesystem_of(work)
    rows = [
        Row(
            "disk_bytes_per_move",
            "disk bytes per move: journal + backups (/proc/self/io write_bytes)",
            f"{ours_all:,.0f} B/move = {ratio:.2f}× bare (last quarter {ours_last:,.0f} B/move; {n:,} moves, "
            f"backup every {ours['backup_every']} moves; journal {ours['journal_bytes'] / 1e6:.1f} MB, backups "
            f"{ours['backups_bytes'] / 1e6:.1f} MB on disk)",
            "≤ 3× bare",
            _verdict(ratio, 3, False),
            ratio,
            "×",
            {**ours, "per_move": ours_all, "per_move_last_quarter": ours_last, "file_system": fs},
        ),
        Row(
            "disk_bytes_per_move_journal_only",
            "  the journal alone (no backups)",
            f"{alone_all:,.0f} B/move = {alone_all / bare_all:.2f}× bare (last quarter {alone_last:,.0f} B/move)",
            "—",
            "info",
            alone_all,
            "B/move",
            {**alone, "per_move_last_quarter": alone_last},
        ),
        Row(
            "disk_bytes_per_move_bare",
            "  bare SQLite WAL+FULL insert of the same rows",
            f"{bare_all:,.0f} B/move (last quarter {bare_last:,.0f} B/move)",
            "—",
            "info",
            bare_all,
            "B/move",
            {**bare, "per_move_last_quarter": bare_last},
        ),
        Row(
            "disk_bytes_per_move_full_copies",
            "  previous scheme: bare + a full copy every 50 moves",
            f"{old_all:,.0f} B/move = {old_all / bare_all:.2f}× bare (last quarter {old_last:,.0f} B/move: "
            f"grows with the game)",
            "—",
            "info",
            old_all,
            "B/move",
            {**old, "per_move_last_quarter": old_last},
        ),
    ]
    progress(f"disk bytes: {ours_all:,.0f} B/move ({ratio:.2f}× bare {bare_all:,.0f} B/move)")
    return rows


# --------------------------------------------------------------------------------------------------
# main


def _print_table(facts: dict, rows: list[Row], sizes: dict) -> None:
    width = max(len(name) for name in facts)
    print("Tabletop Companion benchmarks")
    for name, value in facts.items():
        print(f"  {name:<{width}}  {value}")
    print(f"  {'sizes':<{width}}  " + ", ".join(f"{k}={v:,}" for k, v in sizes.items()))
    print()
    headers = ("measure", "figure", "target", "verdict")
    cells = [(r.measure, r.figure, r.target, r.verdict) for r in rows]
    widths = [max(len(h), *(len(c[i]) for c in cells)) for i, h in enumerate(headers)]
    widths[1] = min(widths[1], 72)
    line = "  ".join(f"{h:<{w}}" for h, w in zip(headers, widths))
    print(line)
    print("  ".join("-" * w for w in widths))
    for cell in cells:
        figure = cell[1]
        if len(figure) > widths[1]:  # wrap long figures onto continuation lines
            chunks, rest = [], figure
            while len(rest) > widths[1]:
                cut = rest.rfind(" ", 0, widths[1])
                cut = cut if cut > 0 else widths[1]
                chunks.append(rest[:cut])
                rest = rest[cut:].lstrip()
            chunks.append(rest)
        else:
            chunks = [figure]
        print(f"{cell[0]:<{widths[0]}}  {chunks[0]:<{widths[1]}}  {cell[2]:<{widths[2]}}  {cell[3]}")
        for chunk in chunks[1:]:
            print(f"{'':<{widths[0]}}    {chunk}")
    if any(r.verdict.endswith("*") for r in rows):
        print(f"\n* --quick: verdict extrapolated linearly to {REPLAY_TARGET_EVENTS:,} events")
    heaviest = next((r.details.get("heaviest_self_us") for r in rows if r.details.get("heaviest_self_us")), None)
    if heaviest:
        print(
            "\nheaviest modules under `import companion.table` (self time, one run): "
            + ", ".join(f"{h['module']} {h['self_us'] / 1000:.1f} ms" for h in heaviest[:5])
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Tabletop Companion benchmarks (figures, not assertions).")
    parser.add_argument("--quick", action="store_true", help="smaller sizes (a smoke run of about 30 s)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON instead of a table")
    parser.add_argument(
        "--dir",
        type=Path,
        default=None,
        help="where to put the temporary journals (default: the system temp folder); "
        "use a folder on the device that will hold the real journal, e.g. the SD card",
    )
    parser.add_argument(
        "--skip",
        action="append",
        default=[],
        choices=("appends", "replay", "imports", "memory", "ui", "disk"),
        help="skip a measure (repeatable)",
    )
    args = parser.parse_args(argv)

    sizes = (
        {
            "appends": 300,
            "replay_events": 2_000,
            "import_runs": 5,
            "memory_moves": 300,
            "ui_runs": 1,
            "disk_moves": 1_000,
        }
        if args.quick
        else {
            "appends": 2_000,
            "replay_events": REPLAY_TARGET_EVENTS,
            "import_runs": 15,
            "memory_moves": 1_000,
            "ui_runs": 3,
            "disk_moves": 5_000,
        }
    )

    if args.dir:
        args.dir.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="companion-bench-", dir=args.dir))
    facts = machine_facts(work)
    rows: list[Row] = []
    crashed = False
    started = time.perf_counter()
    try:
        predicted_rate = None

        def guarded(name: str, measure: str, target: str, function):
            nonlocal crashed
            if name in args.skip:
                rows.append(not_measured(name, measure, target, "skipped (--skip)"))
                return []
            try:
                result = function()
            except Exception as error:  # one broken measure must not hide the others
                crashed = True
                traceback.print_exc()
                result = [not_measured(name, measure, target, f"{type(error).__name__}: {error}")]
            rows.extend(result)
            return result

        appended = guarded("appends", "journal appends", "≥ 200/s", lambda: bench_appends(work, sizes["appends"]))
        rates = [r.value for r in appended if r.key == "table_moves_per_s" and r.value]
        predicted_rate = rates[0] if rates else None
        guarded("replay", "replay", "≤ 0.5 s", lambda: bench_replay(work, sizes["replay_events"], predicted_rate))
        gc.collect()
        guarded("imports", "import companion", "≤ 150 ms", lambda: bench_imports(work, sizes["import_runs"]))
        guarded(
            "memory", "headless table RSS", "≤ 60 MB", lambda: bench_memory(work, sizes["memory_moves"], predicted_rate)
        )
        saved = _SAVED_GAME.get("replay") or ((_SAVED_GAME["path"], _SAVED_GAME["label"]) if _SAVED_GAME else None)
        guarded("ui", "simulator first frame", "≤ 3 s", lambda: bench_first_frame(work, sizes["ui_runs"], saved))
        guarded("disk", "disk bytes per move", "≤ 3× bare", lambda: bench_disk_bytes(work, sizes["disk_moves"]))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    elapsed = time.perf_counter() - started
    progress(f"done in {elapsed:.1f} s")

    if args.json:
        print(
            json.dumps(
                {
                    "machine": facts,
                    "sizes": sizes,
                    "quick": args.quick,
                    "elapsed_s": elapsed,
                    "results": [asdict(r) for r in rows],
                },
                indent=2,
                ensure_ascii=False,
                default=str,
            )
        )
    else:
        _print_table(facts, rows, sizes)
        print(f"\n(total {elapsed:.0f} s)")
    return 1 if crashed else 0


if __name__ == "__main__":
    sys.exit(main())
