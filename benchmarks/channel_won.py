"""Channel WON speed figures (printed, never asserted).

    python benchmarks/channel_won.py [--games N] [--dir PATH]

Measures, on seeded cooperative games of 2 to 6 reporters played to their end:

* engine: decide + evolve per accepted command (pure, in memory), and the end-of-round scoring command alone;
* table: ``Table.execute`` per command (decide, preview, journal write with ``synchronous=FULL``, fold, describe);
* replay: rebuilding the longest game from its journal (``GameSession``), best of 3;
* view: ``CHANNEL_WON.public_view(state)`` per call (what every screen and panel refresh asks for);
* legal commands: ``CHANNEL_WON.legal_commands(state, seat)`` per call at the start of a 6-reporter Phase 2 (six
  Leads: what the board asks on each redraw and each dialog change), beside the view as its baseline.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from companion.commands import NewGame, PlayerSeat
from companion.errors import CommandError
from companion.games.channel_won import (
    CHANNEL_WON,
    CloseLead,
    CollectCard,
    DeclareDone,
    Pass,
    PlayLocation,
    PlayScoop,
    PlaySource,
)
from companion.journal import Journal
from companion.session import GameSession
from companion.table import Table


def game_commands(seed: int, players: int):
    """A seeded game played to its end: Leads reported with random values, some Bonus Sources and Inside
    Scoops, some Leads left open. Returns the accepted commands in order."""
    rng = random.Random(seed)
    seats = [PlayerSeat(name) for name in CHANNEL_WON.info.default_names[:players]]
    state = CHANNEL_WON.new_game(seats, {})
    accepted = []
    while not state.finished:
        turn = state.turn
        tries = []
        if state.phase == 1:
            tries = [CollectCard(player=turn, kind=rng.choice(["location", "source", "scoop"]))]
        else:
            for lead in rng.sample(state.lineup, len(state.lineup)):
                if lead.location is None and rng.random() < 0.9:
                    tries.append(PlayLocation(player=turn, lead=lead.category))
                elif not lead.closed and rng.random() < 0.7:
                    tries.append(PlaySource(player=turn, lead=lead.category, value=rng.randint(1, 4)))
                elif not lead.closed and lead.sourced:
                    tries.append(CloseLead(player=turn, lead=lead.category))
                elif lead.closed:
                    other = rng.choice([c for c in state.categories if c != lead.category])
                    tries.append(PlaySource(player=turn, lead=lead.category, category=other, value=rng.randint(-2, 2)))
                    tries.append(PlayScoop(player=turn, scoop="final_touch", lead=lead.category))
            tries += [Pass(player=turn), DeclareDone(player=turn)]
        for command in tries:
            try:
                events = CHANNEL_WON.decide(state, command)
            except CommandError:
                continue
            for event in events:
                state = CHANNEL_WON.evolve(state, event)
            accepted.append(command)
            break
    return accepted, state


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--dir", type=Path, default=None, help="where the temporary journals go")
    args = parser.parse_args(argv)
    print(
        f"# {time.strftime('%Y-%m-%d %H:%M')}  Python {platform.python_version()}  {platform.machine()}  "
        f"{platform.processor() or ''}".rstrip()
    )

    games = [game_commands(seed, 2 + seed % 5) for seed in range(args.games)]
    commands = sum(len(cmds) for cmds, _ in games)
    results = {}
    for _, state in games:
        results[state.result] = results.get(state.result, 0) + 1
    print(f"games: {args.games}, accepted commands: {commands}, endings: {results}")

    # engine alone
    per_command, round_ends = [], []
    for seed in range(args.games):
        players = 2 + seed % 5
        cmds, _ = games[seed]
        state = CHANNEL_WON.new_game([PlayerSeat(n) for n in CHANNEL_WON.info.default_names[:players]], {})
        for command in cmds:
            start = time.perf_counter()
            events = CHANNEL_WON.decide(state, command)
            for event in events:
                state = CHANNEL_WON.evolve(state, event)
            took = time.perf_counter() - start
            per_command.append(took)
            if any(e.type == "lead_scored" for e in events):
                round_ends.append(took)
    print(
        f"engine decide+evolve: median {statistics.median(per_command) * 1e6:.0f} µs, "
        f"max {max(per_command) * 1e6:.0f} µs per command"
    )
    print(
        f"end-of-round command (scoring): median {statistics.median(round_ends) * 1e6:.0f} µs, "
        f"max {max(round_ends) * 1e6:.0f} µs"
    )

    # through the table, journal on disk
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        journal = Journal(Path(folder) / "bench.sqlite3")
        table = Table(journal)
        table.claim()
        longest = max(range(args.games), key=lambda i: len(games[i][0]))
        cmds, _ = games[longest]
        players = 2 + longest % 5
        table.execute(
            NewGame(game="channel-won", players=tuple(PlayerSeat(n) for n in CHANNEL_WON.info.default_names[:players]))
        )
        start = time.perf_counter()
        for command in cmds:
            outcome = table.execute(command)
            assert outcome.accepted, outcome.message
        took = time.perf_counter() - start
        print(
            f"table moves: {len(cmds) / took:.0f}/s ({len(cmds)} commands, {players} reporters, "
            f"journal synchronous=FULL in {folder})"
        )
        records = journal.events(table.session.game_id)
        best = min(_time(lambda: GameSession(table.session.game_id, records)) for _ in range(3))
        print(f"replay of {len(records)} events: {best * 1000:.1f} ms (best of 3)")
        state = table.state
        views = [_time(lambda: CHANNEL_WON.public_view(state)) for _ in range(200)]
        print(f"view: median {statistics.median(views) * 1e6:.0f} µs")
        phase2 = CHANNEL_WON.new_game([PlayerSeat(n) for n in CHANNEL_WON.info.default_names], {})
        while phase2.phase == 1:
            for event in CHANNEL_WON.decide(phase2, CollectCard(player=phase2.turn)):
                phase2 = CHANNEL_WON.evolve(phase2, event)
        offered = CHANNEL_WON.legal_commands(phase2, phase2.turn)
        legal = [_time(lambda: CHANNEL_WON.legal_commands(phase2, phase2.turn)) for _ in range(200)]
        print(
            f"legal commands: median {statistics.median(legal) * 1e6:.0f} µs for {len(offered)} commands "
            f"(view in the same run: {statistics.median(views) * 1e6:.0f} µs)"
        )
        journal.close()
    return 0


def _time(function) -> float:
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


if __name__ == "__main__":
    sys.exit(main())
