"""TV Wars' own ``companion`` subcommands (``GameInfo.cli``, loaded by :mod:`companion.cli` through the
registry): ``ratings-war FILE [--json] [--roll [--seed N]] [--odds]`` resolves a Ratings War (6) from a TOML
file of revealed line-ups (format: :mod:`companion.games.tv_wars.lineup_file`) and prints it in the
rulebook's style. Exit codes: 0 resolved, 2 a bad file, an illegal line-up or missing dice.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path


def add_subcommands(sub) -> None:
    """Add TV Wars' subcommands to the ``companion`` parser's ``sub`` (``argparse`` subparsers); each sets
    ``run`` to the function that carries it out."""
    war = sub.add_parser(
        "ratings-war",
        help="resolve a TV Wars Ratings War from a file of line-ups",
        description="Resolve a TV Wars Ratings War from a TOML file of revealed line-ups and "
        "print it in the rulebook's style. Missing dice are asked for on a "
        "terminal, rolled with --roll, or listed (exit 2). File format: "
        "companion/games/tv_wars/lineup_file.py; sample: "
        "tests/data/ratings-war-example.toml.",
    )
    war.add_argument("file", type=Path, help="TOML file of line-ups")
    war.add_argument("--json", action="store_true", help="print the resolution as JSON")
    war.add_argument("--roll", action="store_true", help="roll missing dice with the built-in generator")
    war.add_argument("--seed", type=int, metavar="N", help="with --roll: seed the generator (reproducible)")
    war.add_argument(
        "--odds", action="store_true", help="also print each program's exact chance of surviving, before any dice"
    )
    war.set_defaults(run=ratings_war)


def ratings_war(args: argparse.Namespace) -> int:
    """``companion ratings-war FILE``: resolve the war in FILE and print it (text or ``--json``), with the
    aftermath and, with ``--odds``, the survival odds. A missing roll is rolled (``--roll``), asked for on
    a terminal, or listed on standard error with exit code 2. Bad files and illegal line-ups exit 2."""
    import json
    import random

    from companion.errors import CommandError, DiceError
    from companion.games.tv_wars import ratings_war as rw
    from companion.games.tv_wars.lineup_file import load_lineup_file

    def ask(pending: rw.PendingRoll) -> tuple[int, ...]:
        while True:
            print(f"{pending.request.describe()}; enter the dice (e.g. 3 4): ", end="", file=sys.stderr, flush=True)
            line = sys.stdin.readline()
            if not line:
                raise EOFError
            try:
                return pending.request.check(pending.request.roller, [int(v) for v in line.replace(",", " ").split()])
            except (ValueError, DiceError) as error:
                print(f"  {error}", file=sys.stderr)

    if args.seed is not None and not args.roll:
        print("companion: --seed goes with --roll", file=sys.stderr)
        return 2
    try:
        war, given = load_lineup_file(args.file)
        odds = rw.survival_odds(war) if args.odds else None
        roll: Callable[[rw.PendingRoll], Sequence[int]] | None
        if args.roll:
            generator = random.Random(args.seed)
            roll = lambda p: [generator.randint(1, p.request.sides) for _ in range(p.request.count)]  # noqa: E731
        else:
            roll = ask if sys.stdin.isatty() else None
        resolution, dice = rw.play_out(war, given, roll)
    except CommandError as error:
        where = "" if str(args.file) in str(error) else f"{args.file}: "  # every error names the file
        print(f"companion: {where}{error}", file=sys.stderr)
        return 2
    except (EOFError, KeyboardInterrupt):
        print("\ncompanion: stopped: dice were not entered", file=sys.stderr)
        return 2
    if not resolution.complete:
        missing = rw.missing_rolls(war, dice)
        if args.json:  # still data on standard output: what is known, and what is missing
            print(
                json.dumps(
                    {
                        "complete": False,
                        "missing": [{"key": p.key, "request": p.request.describe()} for p in missing],
                        "survival_odds": rw.resolution_to_dict(resolution, odds).get("survival_odds"),
                    },
                    indent=2,
                )
            )
        elif odds is not None:  # the odds are worked out before any dice, so they can be shown now
            print("\n".join(rw.render_odds(war, odds)))
        print(f"companion: dice are missing: add them under [dice] in {args.file}, or use --roll:", file=sys.stderr)
        for pending in missing:
            print(f'  "{pending.key}" = [?, ?]    # {pending.request.describe()}', file=sys.stderr)
        print("  (further tie-break rolls may be needed once these are known)", file=sys.stderr)
        return 2
    for key in resolution.unused_dice:
        print(f"companion: note: the war never needed the roll \"{key}\"", file=sys.stderr)
    if args.json:
        print(json.dumps(rw.resolution_to_dict(resolution, odds), indent=2))
        return 0
    lines = rw.render_odds(war, odds) + [""] if odds is not None else []
    lines += rw.render_resolution(resolution) + rw.render_aftermath(rw.consequences(resolution))
    rolled = [(key, values) for key, values in resolution.dice_used if key not in given]
    if rolled:
        lines += ["Dice rolled (add under [dice] to replay):"]
        lines += [f'"{key}" = [{", ".join(map(str, values))}]' for key, values in rolled]
    print("\n".join(lines))
    return 0
