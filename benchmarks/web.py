#!/usr/bin/env python3
"""What the opt-in web front-end costs the table's owner thread (the kiosk's main thread), per move. Prints
figures; asserts nothing.

    python benchmarks/web.py              # 300 moves per measure (about 30 s on a desktop)
    python benchmarks/web.py --moves 100 --clients 20

A 4-network TV Wars game in full play (every network's eleven starting programs entered), on a journal with
``synchronous=OFF`` (an fsync costs the same in every measure and would hide the difference). Each measure times
``Table.execute`` of the same kind of move (a bank payment to the next network in turn), as the kiosk's main thread
does it:

* **bare** — the table alone: the baseline;
* **publisher** — with the web front-end's publisher subscribed (a snapshot per move: the public view and, per seat,
  its private view, legal commands and forms), the server not started;
* **serving** — the server listening on 127.0.0.1 with ``--clients`` spectator WebSockets and a phone per seat
  connected from another process (``websockets``), each sent every snapshot. The server runs in a process of its
  own (:mod:`web.worker`): what the owner thread's process still pays is the snapshot's JSON for the channel
  (written by a thread of the kiosk's, :mod:`web.process`), and the CPU the niced server's process takes.

Then what the server's process costs: the kiosk-side encoding of one snapshot for the channel (its JSON, as the
sender thread makes it, and its size), and the memory (VmRSS) of the server's process, idle and serving, beside a
bare interpreter's (``python -c``, started the same way) in the same run.

``ratio`` = figure / bare. On a Pi multiply the times by about 5 (Pi 4) or 12 (Pi Zero 2 W).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

NETWORKS = ("ABS", "CBA", "PBC", "NBS")

CLIENTS = textwrap.dedent(
    """
    import asyncio, sys
    from websockets.asyncio.client import connect
    base, paths = sys.argv[1], sys.argv[2:]
    async def one(index, path):  # 16 connections a source address at most (web.server)
        async with connect("ws://" + base + path, origin="http://" + base, proxy=None,
                           local_addr=("127.0.0.%d" % (2 + index // 16), 0)) as ws:
            async for _ in ws:
                pass
    async def main():
        await asyncio.gather(*(one(i, p) for i, p in enumerate(paths)), return_exceptions=True)
    asyncio.run(main())
    """
)


def game(folder: Path):
    from companion.commands import NewGame, PlayerSeat
    from companion.dice import SeededDice
    from companion.games.tv_wars.setup import ProgramSpec, SelectStartingProgramming
    from companion.journal import Journal
    from companion.table import Table

    journal = Journal(folder / "journal.sqlite3")
    journal._db.execute("PRAGMA synchronous = OFF")
    table = Table(journal, dice=SeededDice(1), backup_every=None)
    table.claim()
    players = tuple(PlayerSeat(name) for name in NETWORKS)
    table.execute(NewGame(game="tv-wars", players=players, options={"roll_off": False}))
    programs = tuple(ProgramSpec(1, c, r) for c, r in (("green", 30), ("red", 50), ("blue", 20), ("red", 60)))
    programs += (ProgramSpec(1, "blue", 40), ProgramSpec(2, "blue", 70), ProgramSpec(2, "yellow", 80))
    programs += (ProgramSpec(2, "yellow", None, special=True), ProgramSpec(2, "red", 10))
    programs += (ProgramSpec(3, "blue", 70), ProgramSpec(4, "green", 90))
    for network in NETWORKS:
        outcome = table.execute(SelectStartingProgramming(network=network, programs=programs))
        assert outcome.accepted, outcome.message
    return journal, table


def moves(table, count: int) -> list[float]:
    from companion.commands import BANK, TransferMoney

    times = []
    for index in range(count):
        command = TransferMoney(payer=BANK, payee=NETWORKS[index % 4], amount=100, reason="bench", correction=True)
        started = time.perf_counter()
        outcome = table.execute(command)
        times.append(time.perf_counter() - started)
        assert outcome.accepted, outcome.message
    return times


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def bare_rss_mb() -> float:
    """A bare interpreter's VmRSS (``python -P -c``, as the server's process is started)."""
    bare = subprocess.Popen([sys.executable, "-P", "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    try:
        time.sleep(1.0)
        return rss_mb(bare.pid)
    finally:
        bare.communicate(b"")


def encoding(front, count: int) -> tuple[list[float], int]:
    """Times to make the latest snapshot's message for the channel (the sender thread's work), and its size."""
    from web.channel import frame

    times, size = [], 0
    for _ in range(count):
        front._sent = 0  # as if not sent yet
        started = time.perf_counter()
        data = frame(front._snapshot_message())
        times.append(time.perf_counter() - started)
        size = len(data)
    return times, size


def row(name: str, times: list[float], bare: float) -> str:
    median = statistics.median(times)
    return f"{name:<44} median {median * 1000:7.2f} ms   max {max(times) * 1000:7.2f} ms   ratio {median / bare:5.2f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--clients", type=int, default=50, help="spectator WebSockets in the serving measure")
    args = parser.parse_args()
    from web import WebFrontEnd

    with tempfile.TemporaryDirectory() as folder:
        journal, table = game(Path(folder))
        moves(table, 20)  # warm-up
        bare = moves(table, args.moves)
        front = WebFrontEnd(table, address="127.0.0.1", port=0)
        moves(table, 20)
        published = moves(table, args.moves)
        encoded, size = encoding(front, args.moves)
        front.start(wait=True)
        server = front.server.process.pid
        time.sleep(1.0)
        idle_rss = rss_mb(server)
        base = f"127.0.0.1:{front.port}"
        paths = ["/ws/table"] * args.clients + [f"/ws/seat/{front.tokens.token(n)}" for n in NETWORKS]
        clients = subprocess.Popen([sys.executable, "-c", CLIENTS, base, *paths])
        try:
            deadline = time.monotonic() + 60
            while sum(front.counts().values()) < len(paths) and time.monotonic() < deadline:
                time.sleep(0.05)
            connected = sum(front.counts().values())
            moves(table, 20)
            serving = moves(table, args.moves)
            serving_rss = rss_mb(server)
        finally:
            clients.terminate()
            clients.wait(10)
            front.stop()
            journal.close()
        bare_rss = bare_rss_mb()
        own_rss = rss_mb(os.getpid())
    baseline = statistics.median(bare)
    print(f"web front-end, owner-thread time per move ({args.moves} moves each; Python {sys.version.split()[0]})")
    print(row("bare: Table.execute", bare, baseline))
    print(row("publisher subscribed (snapshot per move)", published, baseline))
    print(row(f"serving {connected} WebSockets ({args.clients} + 4 phones)", serving, baseline))
    print(
        f"{'snapshot -> channel JSON (kiosk side)':<44} median {statistics.median(encoded) * 1000:7.2f} ms   "
        f"max {max(encoded) * 1000:7.2f} ms   {size / 1024:.1f} KB a snapshot"
    )
    print(
        f"VmRSS: server's process {idle_rss:.1f} MB idle, {serving_rss:.1f} MB serving {connected} WebSockets; "
        f"a bare interpreter {bare_rss:.1f} MB; this (the kiosk's side, no Kivy) {own_rss:.1f} MB"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
