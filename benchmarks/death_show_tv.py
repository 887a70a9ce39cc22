#!/usr/bin/env python3
"""Benchmark of the Death Show TV combat odds (companion/games/death_show_tv/combat.py).

    python benchmarks/death_show_tv.py            # full run (under a minute on a desktop)
    python benchmarks/death_show_tv.py --quick    # fewer repetitions, no full dice roll-out

Measures (``time.perf_counter``; mean over runs after a warm-up):

1. ``odds``: the closed form, for a four-fighter Multiple Combat in which every fighter rolls two dice
   (bonuses +0, +1, +3, +2; the kind of combat whose odds the combat screen shows before the dice);
2. ``odds_by_enumeration``: the same odds by combining every fighter's distinct results (10⁴ combinations);
3. ``odds_by_dice``: the same odds by rolling out all 6⁸ = 1,679,616 faces of the eight dice (one run;
   skipped with ``--quick``);
4. ``odds`` for the largest possible combat, eight two-dice fighters (an Event against seven);
5. ``DeathShowTv.public_view`` of a state in that four-fighter combat (the odds plus the rest of the screen);
6. ``DeathShowTv.legal_commands`` of the player in the Action Phase of an eight-Contestant game (each of its
   ~25 entries checked by a pure ``decide``; the board asks for it after every move), beside a bare
   ``decide`` of one Move in the same state as the baseline.

The three methods must agree exactly (Fractions); the script says so. Figures are measurements, not
assertions: it exits 0 unless it crashes.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time

from timing import mean_seconds  # benchmarks/timing.py (this folder is on sys.path when run as a script)

from companion.commands import AnswerDice, PlayerSeat
from companion.games.death_show_tv import DEATH_SHOW_TV, DeclareFighter, DrawCard, EndTurn, Hunt, Move
from companion.games.death_show_tv.combat import FighterDice, _odds, odds_by_dice, odds_by_enumeration

odds = _odds.__wrapped__  # the computation itself, not the remembered answer (see combat.odds)

FOUR = [FighterDice(2, 0), FighterDice(2, 1), FighterDice(2, 3), FighterDice(2, 2)]
EIGHT = [FighterDice(2, i % 4) for i in range(8)]


def four_fighter_state():
    """Kelpie on The Caves; Jhon and Elena hunt her there (both combats tied); Rex hunts all three and
    everyone declares a two-dice card. Built with commands, as at the table."""
    rules = DEATH_SHOW_TV
    state = rules.new_game(
        [PlayerSeat(n) for n in ("Kelpie", "Jhon", "Elena", "Rex")], {"roll_off": False, "starting_cards": 5}
    )

    def run(command):
        nonlocal state
        for event in rules.decide(state, command):
            state = rules.evolve(state, event)

    def tie():
        while state.combat is not None and state.combat.next_to_declare is not None:
            run(DeclareFighter(fighter=state.combat.next_to_declare.name))
        while (request := rules.pending_dice(state)) is not None:
            run(AnswerDice(roller=request.roller, values=(4,), source="manual"))

    for command in (DrawCard(player="Kelpie"), Move(player="Kelpie", location="The Caves"), EndTurn(player="Kelpie")):
        run(command)
    for name in ("Jhon", "Elena"):
        run(DrawCard(player=name))
        run(Hunt(player=name, location="The Caves"))
        tie()
        run(EndTurn(player=name))
    run(DrawCard(player="Rex"))
    run(Hunt(player="Rex", location="The Caves"))
    for name, bonus in (("Rex", 0), ("Kelpie", 1), ("Jhon", 3), ("Elena", 2)):
        run(DeclareFighter(fighter=name, bonuses=(("Card", bonus),), dice=2))
    return state


def run_all(state, *commands):
    """``state`` after ``commands`` (pure decide/evolve)."""
    for command in commands:
        for event in DEATH_SHOW_TV.decide(state, command):
            state = DEATH_SHOW_TV.evolve(state, event)
    return state


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions, skip the full dice roll-out")
    args = parser.parse_args()
    runs = 5 if args.quick else 30
    print(
        f"Death Show TV combat odds benchmark — Python {platform.python_version()}, {platform.machine()}, "
        f"{platform.processor() or platform.platform()}"
    )
    closed = odds(tuple(FOUR))
    mean, sd = mean_seconds(lambda: odds(tuple(FOUR)), runs, warm_up=2)
    print(f"1. odds, 4 fighters × 2 dice (closed form):      {mean * 1e3:9.2f} ms ± {sd * 1e3:.2f}")
    mean, sd = mean_seconds(lambda: odds_by_enumeration(FOUR), max(2, runs // 10), warm_up=1)
    print(f"2. odds_by_enumeration, same combat (10^4 combos): {mean * 1e3:9.2f} ms ± {sd * 1e3:.2f}")
    agree = closed == odds_by_enumeration(FOUR)
    if not args.quick:
        start = time.perf_counter()
        rolled = odds_by_dice(FOUR)
        print(f"3. odds_by_dice, all 6^8 faces:                  {(time.perf_counter() - start):9.2f} s (one run)")
        agree = agree and closed == rolled
    mean, sd = mean_seconds(lambda: odds(tuple(EIGHT)), runs, warm_up=2)
    print(f"4. odds, 8 fighters × 2 dice (closed form):      {mean * 1e3:9.2f} ms ± {sd * 1e3:.2f}")
    combat = state = four_fighter_state()
    mean, sd = mean_seconds(lambda: DEATH_SHOW_TV.public_view(state), runs, warm_up=2)
    print(f"5. public_view(), 4-fighter combat (odds remembered): {mean * 1e3:6.2f} ms ± {sd * 1e3:.2f}")
    state = DEATH_SHOW_TV.new_game([PlayerSeat(f"P{i}") for i in range(8)], {"roll_off": False, "starting_cards": 3})
    for i, where in enumerate(("The Caves", "The Bunker", "Dense Forest")):
        state = run_all(state, DrawCard(player=f"P{i}"), Move(player=f"P{i}", location=where), EndTurn(player=f"P{i}"))
    state = run_all(state, DrawCard(player="P3"))
    move = Move(player="P3", location="Turtle Beach")
    base, base_sd = mean_seconds(lambda: DEATH_SHOW_TV.decide(state, move), runs * 20, warm_up=5)
    mean, sd = mean_seconds(lambda: DEATH_SHOW_TV.legal_commands(state, "P3"), runs, warm_up=2)
    count = len(DEATH_SHOW_TV.legal_commands(state, "P3"))
    print(f"6. legal_commands, Action Phase, 8 seats ({count} entries): {mean * 1e3:6.2f} ms ± {sd * 1e3:.2f}")
    print(f"   baseline: one decide(Move) in the same state:       {base * 1e3:6.2f} ms ± {base_sd * 1e3:.2f}")
    print(f"methods agree exactly: {agree}")
    for name, chances in DEATH_SHOW_TV.combat_odds(combat) or ():
        print("   " + chances.describe(name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
