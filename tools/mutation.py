#!/usr/bin/env python3
"""Mutation testing of one game's rules engine with mutmut (issue 19): how many one-line careless changes to
``companion/games/<game>/`` the game's own tests catch.

    tools/mutation.py GAME [--jobs N] [--tests GLOB ...] [--keep]

GAME is a package under ``companion/games/`` (``tv_wars``, ``death_show_tv``, ``channel_won``, ``telly_time``).
The run happens in a scratch copy of the working tree (``$TMPDIR/tabletop-mutation/<game>``, tracked and new
files, so tests not yet committed count), never in the checkout: mutmut writes its mutated copies to
``mutants/`` there. Only the game's own test files run (``tests/test_<game>*.py`` and the game's Kivy-free
tests named by ``--tests``), which is what a change to the game must be caught by.

The one exception to "the tests run the installed wheel": mutmut must import its mutated copy, so this tool
sets ``COMPANION_TESTS_FROM`` to the scratch ``mutants/`` folder, and ``tests/conftest.py`` then accepts
packages imported from there instead of from site-packages (nothing else sets it).

Prints the per-package figures (killed, survived, timed out, not covered by any test, score = caught /
run; mutants an interrupted run did not reach are counted apart, and ``--results-only`` reads a stopped run's
results again) and writes every surviving mutant's diff to ``mutation-<game>.txt`` in the scratch folder, for review:
each survivor is either killed by a new test or listed in ``docs/mutation.md`` as equivalent or accepted,
with the reason. Needs ``mutmut`` (``pip install mutmut``; not part of the test extras: this is not run by
``.ci/run``, a run takes from minutes to an hour per package on two cores).

Exit status: 0 when the score is at least ``--target`` percent (default 85), 1 when below, 2 on a setup error.
"""

from __future__ import annotations

import argparse
import glob
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
GAMES = ("tv_wars", "death_show_tv", "channel_won", "telly_time")
#: A game's own tests under another name: TV Wars' Ratings War resolver and its calculator (rulebook examples),
#: and the exports' tests (TV Wars' money ledger, ``ledger.py``)
OWN_TESTS = {"tv_wars": ["tests/test_ratings_war.py", "tests/test_export.py"]}
#: mutmut's exit codes per mutant, as ``mutmut results`` names them
CAUGHT = {"killed", "timeout", "segfault", "suspicious", "caught by type check"}
#: not run (yet): an interrupted run leaves these; the score counts only mutants that were run
UNRUN = {"not checked", "check was interrupted by user", "skipped"}


def game_tests(game: str, extra: list[str]) -> list[str]:
    """The test files that exercise ``game``: ``tests/test_<game>*.py`` minus the Kivy ones, plus ``extra``
    globs (relative to the project)."""
    names = sorted(glob.glob(str(REPO / "tests" / f"test_{game}*.py")))
    for pattern in [*OWN_TESTS.get(game, []), *extra]:
        names += sorted(glob.glob(str(REPO / pattern)))
    return [str(Path(name).relative_to(REPO)) for name in names if "kivy" not in Path(name).name]


def scratch_copy(game: str) -> Path:
    """The working tree's tracked and untracked (not ignored) files, copied to a fresh scratch folder."""
    scratch = Path(tempfile.gettempdir()) / "tabletop-mutation" / game
    if scratch.exists():
        shutil.rmtree(scratch)
    scratch.mkdir(parents=True)
    files = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        check=True,
        capture_output=True,
    ).stdout.split(b"\0")
    for name in filter(None, files):
        source = REPO / name.decode()
        if source.is_file():
            target = scratch / name.decode()
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return scratch


def write_config(scratch: Path, game: str, tests: list[str]) -> None:
    """mutmut's settings for this run, in the scratch copy's ``setup.cfg`` (mutmut reads its ``[mutmut]``)."""
    lines = [
        "[mutmut]",
        "source_paths = companion",
        f"only_mutate = companion/games/{game}/*",
        "pytest_add_cli_args = -p no:cacheprovider -q",
        "pytest_add_cli_args_test_selection =",
        *(f"    {test}" for test in tests),
        "",
    ]
    (scratch / "setup.cfg").write_text("\n".join(lines))


def results(scratch: Path) -> dict[str, str]:
    """mutant name -> status, as ``mutmut results --all true`` prints them (``name: status``)."""
    done = subprocess.run(
        [sys.executable, "-m", "mutmut", "results", "--all", "true"],
        cwd=scratch,
        capture_output=True,
        text=True,
        env=_env(scratch),
    )
    statuses = {}
    for line in done.stdout.splitlines():
        name, sep, status = line.strip().rpartition(": ")
        if sep and name:
            statuses[name] = status.strip()
    return statuses


def _env(scratch: Path) -> dict[str, str]:
    env = dict(os.environ, COMPANION_TESTS_FROM=str(scratch / "mutants"))
    env.pop("PYTHONSAFEPATH", None)  # mutmut puts mutants/ first on sys.path itself
    return env


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", choices=GAMES)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="mutmut's --max-children")
    parser.add_argument("--tests", nargs="*", default=[], help="more test files (globs) to run")
    parser.add_argument("--target", type=float, default=85.0, help="the score (%%) to reach")
    parser.add_argument(
        "--results-only", action="store_true", help="do not run: report the scratch copy's last (maybe stopped) run"
    )
    parser.add_argument(
        "--sample",
        type=int,
        default=0,
        help="run only this many mutants drawn at random (seeded) from all of them: an estimate of the score, "
        "with its 95%% interval, in minutes instead of hours",
    )
    parser.add_argument("--seed", type=int, default=19, help="the sample's seed")
    args = parser.parse_args()
    try:
        import mutmut  # noqa: F401
    except ImportError:
        print("mutation.py: needs mutmut in this Python (pip install mutmut)", file=sys.stderr)
        return 2
    tests = game_tests(args.game, args.tests)
    if not tests:
        print(f"mutation.py: no test files for {args.game}", file=sys.stderr)
        return 2
    if args.results_only:
        scratch = Path(tempfile.gettempdir()) / "tabletop-mutation" / args.game
    else:
        scratch = scratch_copy(args.game)
        write_config(scratch, args.game, tests)
        print(f"mutation.py: {args.game}: mutating companion/games/{args.game}/ in {scratch}; tests: {' '.join(tests)}")
        chosen: list[str] = []
        if args.sample:
            # mutmut makes the mutants and its test map on any run; a pattern no mutant has runs none of them
            subprocess.run(
                [sys.executable, "-m", "mutmut", "run", "--max-children", str(args.jobs), "no-mutant-is-called-this"],
                cwd=scratch,
                env=_env(scratch),
                stdout=subprocess.DEVNULL,
            )
            every = sorted(results(scratch))
            chosen = sorted(random.Random(args.seed).sample(every, min(args.sample, len(every))))
            print(f"mutation.py: a sample of {len(chosen)} of the {len(every)} mutants (seed {args.seed})")
        subprocess.run(
            [sys.executable, "-m", "mutmut", "run", "--max-children", str(args.jobs), *chosen],
            cwd=scratch,
            env=_env(scratch),
        )
    statuses = results(scratch)
    if args.sample:  # the figures are the sample's (an unsampled mutant is "not checked")
        statuses = {name: status for name, status in statuses.items() if status not in UNRUN}
    if not statuses:
        print("mutation.py: mutmut reported no mutants (see its output above)", file=sys.stderr)
        return 2
    counts: dict[str, int] = {}
    for status in statuses.values():
        counts[status] = counts.get(status, 0) + 1
    caught = sum(n for status, n in counts.items() if status in CAUGHT)
    run = sum(n for status, n in counts.items() if status not in UNRUN)
    score = 100.0 * caught / run if run else 0.0
    survivors = sorted(name for name, status in statuses.items() if status not in CAUGHT | UNRUN)
    report = scratch / f"mutation-{args.game}.txt"
    with report.open("w") as out:
        for name in survivors:
            diff = subprocess.run(
                [sys.executable, "-m", "mutmut", "show", name],
                cwd=scratch,
                capture_output=True,
                text=True,
                env=_env(scratch),
            ).stdout
            out.write(f"## {name} ({statuses[name]})\n{diff}\n")
    figures = {
        "game": args.game,
        "mutants": len(statuses),
        "run": run,
        "caught": caught,
        "score": round(score, 1),
        **counts,
    }
    if args.sample and run:  # the 95% interval of a sampled score (Wilson)
        z, p = 1.96, caught / run
        centre = (p + z * z / (2 * run)) / (1 + z * z / run)
        half = z * math.sqrt(p * (1 - p) / run + z * z / (4 * run * run)) / (1 + z * z / run)
        figures["interval_95"] = [round(100 * (centre - half), 1), round(100 * (centre + half), 1)]
    print("mutation.py: " + json.dumps(figures))
    print(f"mutation.py: {len(survivors)} not caught; their diffs: {report}")
    return 0 if score >= args.target else 1


if __name__ == "__main__":
    sys.exit(main())
