#!/usr/bin/env python3
"""Benchmark of the TV Wars Ratings War resolver and its survival odds (companion/games/tv_wars/ratings_war.py).

    python benchmarks/ratings_war.py            # full run (a few seconds)
    python benchmarks/ratings_war.py --quick    # fewer repetitions
    python benchmarks/ratings_war.py --old      # also the old enumeration (tests/ratings_war_oracle.py), once
                                                # per line-up: about half a minute with four Specials

Measures, each the mean over many runs after a warm-up (``time.perf_counter``, benchmarks/timing.py):

1. resolving the rulebook's four-network example war with all its dice supplied (``resolve_war``);
2. the same war played out from no dice, rolling each roll as it is asked for (``play_out``);
3. the legality check alone (``check_war``);
4. the exact survival odds (``survival_odds``) before the dice, for line-ups with 1, 2, 3 and 4 Specials,
   each with PBC and NBS tied for lowest at 8:30 (the tie is rolled in every branch): the example as
   printed (NBS's SPECIAL, 9:30-11:00), then DR. KILLJOY (PBC, 10:00), BEERS (PBC, 9:30) and RAMBOZO (CBA,
   9:00-11:00, a two-hour Special over the three others) made Specials in turn; and, for information, the
   slowest of the example's 120 four-Special variants (MONDAY NIGHT RUGBY, RAMBOZO and BEERS made Specials
   beside NBS's SPECIAL; the 8:30 tie is rolled in most of its branches).

Beside each odds figure: the **bare baseline**, one plain resolution of the same line-up with one set of
dice supplied (``resolve_war``: a single branch of the war, the table's own path), measured in the same run,
and the **ratio** odds / baseline (how many plain resolutions the exact odds cost; it depends little on the
machine). The Pi 4 column projects the odds figure at 5 × this machine's time. The target (issue "Fast on a
Raspberry Pi") is four Specials and a tie (the 1-2-3-4 series' last line-up) in at most 50 ms on the desktop.

Run it from the checkout as ``PYTHONPATH=. python benchmarks/ratings_war.py`` to measure the checkout's
code; otherwise the installed ``companion`` package is measured (the header says which). Only the standard
library and ``companion`` are used (``--old`` also imports tests/ratings_war_oracle.py). The figures are
measurements, not assertions: the script always exits 0 unless it crashes.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from dataclasses import replace
from pathlib import Path

from timing import mean_seconds  # benchmarks/timing.py (this folder is on sys.path when run as a script)

import companion
from companion.games.tv_wars.lineup_file import load_lineup_file
from companion.games.tv_wars.ratings_war import Placement, Program, War, check_war, play_out, resolve_war, survival_odds

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "tests" / "data" / "ratings-war-example.toml"
PI_4 = 5  # a Raspberry Pi 4 runs this pure-Python code about five times slower than a desktop
TARGET_MS = 50  # four Specials and a tie, on the desktop


def with_specials(war: War, *names: str) -> War:
    """``war`` with the programs called ``names`` turned into Specials of the same length and colour (a
    bonus tile stays on its program)."""
    return replace(
        war,
        lineups=tuple(
            replace(
                lineup,
                programs=tuple(
                    Placement(Program.special_program(p.program.length, p.program.colour, p.program.name), p.bonus)
                    if p.program.name in names
                    else p
                    for p in lineup.programs
                ),
            )
            for lineup in war.lineups
        ),
    )


def some_dice(war: War, seed: int = 1) -> dict:
    """One full set of dice for ``war`` (every Special and tie roll), seeded."""
    generator = random.Random(seed)
    _, dice = play_out(war, {}, lambda pending: [generator.randint(1, 6) for _ in range(pending.request.count)])
    return dice


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--old", action="store_true", help="also time the old enumeration (tests/), once each")
    args = parser.parse_args(argv)
    scale = 10 if args.quick else 1

    war, dice = load_lineup_file(EXAMPLE)
    generator = random.Random(1)

    def roll(pending):
        return [generator.randint(1, 6) for _ in range(pending.request.count)]

    print(
        f"Ratings War benchmark — Python {platform.python_version()} on {platform.machine()} "
        f"({platform.processor() or platform.platform()}); companion from {Path(companion.__file__).parent}"
    )
    rows = [
        ("resolve_war, 4-network example, dice given", lambda: resolve_war(war, dice), 2000 // scale),
        ("play_out, 4-network example, rolling as asked", lambda: play_out(war, {}, roll), 1000 // scale),
        ("check_war alone", lambda: check_war(war), 5000 // scale),
    ]
    print(f"{'measure':<48} {'runs':>6} {'mean':>12} {'stdev':>12}")
    print("-" * 81)
    for name, function, runs in rows:
        mean, stdev = mean_seconds(function, runs)
        print(f"{name:<48} {runs:>6} {mean * 1e3:>9.3f} ms {stdev * 1e3:>9.3f} ms")

    lineups = [
        ("the example (NBS's SPECIAL)", with_specials(war)),
        ("+ DR. KILLJOY (PBC 10:00)", with_specials(war, "DR. KILLJOY")),
        ("+ BEERS (PBC 9:30)", with_specials(war, "DR. KILLJOY", "BEERS")),
        ("+ RAMBOZO (CBA 9:00-11:00)", with_specials(war, "DR. KILLJOY", "BEERS", "RAMBOZO")),
        ("(info) hardest: MNR, RAMBOZO, BEERS", with_specials(war, "MONDAY NIGHT RUGBY", "RAMBOZO", "BEERS")),
    ]
    old = None
    if args.old:
        sys.path.insert(0, str(REPO / "tests"))
        from ratings_war_oracle import oracle_survival_odds as old
    print()
    print(
        "survival_odds before the dice (exact), each line-up with the 8:30 tie; baseline: one resolve_war of the "
        "same line-up, dice given"
    )
    head = (
        f"{'Specials':>8}  {'line-up':<37} {'runs':>5} {'odds':>10} {'± stdev':>9} {'baseline':>10} "
        f"{'ratio':>7} {'Pi 4 (×5)':>10}"
    )
    if old:
        head += f" {'old (1 run)':>12} {'speed-up':>9} same"
    print(head)
    print("-" * len(head))
    target_ms = None
    for label, lineup in lineups:
        specials = sum(placement.program.special for _, placement in lineup.programs())
        lineup_dice = some_dice(lineup)
        runs = max(3, 30 // scale)
        mean, stdev = mean_seconds(lambda: survival_odds(lineup), runs)
        base, _ = mean_seconds(lambda: resolve_war(lineup, lineup_dice), max(20, 300 // scale))
        line = (
            f"{specials:>8}  {label:<37} {runs:>5} {mean * 1e3:>7.2f} ms {stdev * 1e3:>6.2f} ms "
            f"{base * 1e3:>7.3f} ms {mean / base:>6.1f}× {mean * PI_4 * 1e3:>7.1f} ms"
        )
        if old:
            start = time.perf_counter()
            before = old(lineup)
            took = time.perf_counter() - start
            same = "yes" if before == survival_odds(lineup) else "NO"
            line += f" {took * 1e3:>9.0f} ms {took / mean:>8.0f}× {same}"
        print(line)
        if specials == 4 and target_ms is None:
            target_ms = mean * 1e3
    print(
        f"target: 4 Specials and a tie ≤ {TARGET_MS} ms here: {target_ms:.1f} ms, "
        f"{'met' if target_ms <= TARGET_MS else 'NOT met'} (Pi 4 projection {target_ms * PI_4:.0f} ms)"
    )

    # the table's war screen recomputes the odds after every die, from the half-hours resolved so far
    print()
    print(
        "survival_odds after each roll (after=the war resolved so far: the war screen's live odds), 4 Specials; "
        "baseline: resolve_war with the same dice"
    )
    lineup = lineups[3][1]
    dice: dict = {}
    while True:
        resolution = resolve_war(lineup, dice)
        if resolution.pending is None:
            break
        runs = max(3, 30 // scale)
        mean, stdev = mean_seconds(lambda: survival_odds(lineup, dice, after=resolution), runs)
        base, _ = mean_seconds(lambda: resolve_war(lineup, dice), max(20, 300 // scale))
        print(
            f"  {len(resolution.slots)} half-hours resolved, next {resolution.pending.key:<28} "
            f"{mean * 1e3:>7.2f} ms ± {stdev * 1e3:.2f}  baseline {base * 1e3:.3f} ms  {mean / base:>5.1f}×  "
            f"Pi 4 (×{PI_4}) {mean * PI_4 * 1e3:.1f} ms"
        )
        dice[resolution.pending.key] = roll(resolution.pending)
    return 0


if __name__ == "__main__":
    sys.exit(main())
