#!/usr/bin/env python3
"""Benchmark of the TV Wars Ratings War resolver (companion/games/tv_wars/ratings_war.py).

    python benchmarks/ratings_war.py            # full run (a few seconds)
    python benchmarks/ratings_war.py --quick    # fewer repetitions

Measures, each the mean over many runs after a warm-up (``time.perf_counter``):

1. resolving the rulebook's four-network example war with all its dice supplied (``resolve_war``);
2. the same war played out from no dice, rolling each roll as it is asked for (``play_out``);
3. the legality check alone (``check_war``);
4. the exact survival-odds enumeration (``survival_odds``) for the example war with a second Special
   (PBC's DR. KILLJOY made a Special): two Specials outstanding (11 × 11 sums) and the 8:30 tie;
5. the same enumeration for the example war as printed (one Special and the tie).

Only the standard library and the installed ``companion`` package are used. The figures are
measurements, not assertions: the script always exits 0 unless it crashes.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
from dataclasses import replace
from pathlib import Path

from timing import mean_seconds  # benchmarks/timing.py (this folder is on sys.path when run as a script)
from companion.games.tv_wars.lineup_file import load_lineup_file
from companion.games.tv_wars.ratings_war import (Placement, Program, War, check_war, play_out, resolve_war,
                                                  survival_odds)

EXAMPLE = Path(__file__).resolve().parent.parent / "tests" / "data" / "ratings-war-example.toml"


def two_specials(war: War) -> War:
    """The example with PBC's DR. KILLJOY (10:00, 30 minutes, blue) turned into a Special."""
    lineups = []
    for lineup in war.lineups:
        if lineup.network == "PBC":
            programs = list(lineup.programs)
            programs[-1] = Placement(Program.special_program(1, "blue", "DR. KILLJOY"), None)
            lineup = replace(lineup, programs=tuple(programs))
        lineups.append(lineup)
    return replace(war, lineups=tuple(lineups))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    args = parser.parse_args(argv)
    scale = 10 if args.quick else 1

    war, dice = load_lineup_file(EXAMPLE)
    harder = two_specials(war)
    generator = random.Random(1)

    def roll(pending):
        return [generator.randint(1, 6) for _ in range(pending.request.count)]

    specials = sum(p.program.special for _, p in harder.programs())
    rows = [
        ("resolve_war, 4-network example, dice given", lambda: resolve_war(war, dice), 2000 // scale),
        ("play_out, 4-network example, rolling as asked", lambda: play_out(war, {}, roll), 1000 // scale),
        ("check_war alone", lambda: check_war(war), 5000 // scale),
        (f"survival_odds, {specials} Specials + the 8:30 tie", lambda: survival_odds(harder), 20 // max(1, scale // 5)),
        ("survival_odds, the example (1 Special + tie)", lambda: survival_odds(war), 100 // scale),
    ]
    print(f"Ratings War benchmark — Python {platform.python_version()} on {platform.machine()} "
          f"({platform.processor() or platform.platform()})")
    print(f"{'measure':<48} {'runs':>6} {'mean':>12} {'stdev':>12}")
    print("-" * 81)
    for name, function, runs in rows:
        mean, stdev = mean_seconds(function, runs)
        print(f"{name:<48} {runs:>6} {mean * 1e3:>9.3f} ms {stdev * 1e3:>9.3f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
