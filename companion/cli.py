"""The ``companion`` command line. ``main()`` only parses and wires; the work is done elsewhere.

Subcommands (``companion SUBCOMMAND --help`` for each):

* ``run [--config FILE] [--sim] [--new] [--headless]`` — the kiosk on a Pi; on a desktop (or with
  ``--sim``) the simulator: keyboard keys for buttons, emulated panels. ``--headless``: no screen, panels
  or buttons: start-up only (the lock, the journal check and any recovery, resuming the game), print
  what was found and done, and exit.
* ``games [list | resume ID | export ID --format json|csv|bgstats | import FILE]`` — saved games.
* ``export GAME --format json|csv|bgstats [-o FILE]`` — one game's history (JSON), its figures move by move
  (CSV), or a finished game as a play for the BG Stats app (:mod:`companion.export_bgstats`).
* ``replay GAME`` — the history as readable lines.
* each game's own subcommands, added by its ``GameInfo.cli`` hook (TV Wars: ``ratings-war FILE [--json]
  [--roll [--seed N]] [--odds]``, the Ratings War calculator).
* ``selftest [--config FILE] [--sim] [--timeout S]`` — every panel, button and reader checked in turn.
* ``bridge-sim [--kind dice|tiles] [--script FILE] [--link PATH]`` — a simulated reader on a pseudo-terminal.

Exit codes: 0 success, 1 runtime failure (already running, journal unusable), 2 bad usage or config.
The touchscreen front-end is found through the ``tabletop_companion.frontends`` entry point, so this
core module never imports the ``ui`` package (see DESIGN.md, layers).
"""

from __future__ import annotations

import argparse
import logging
import os
import sqlite3
import sys
from datetime import datetime
from pathlib import Path

from companion.errors import CompanionError, ConfigError, JournalError

log = logging.getLogger("companion")


def _data_dir_option(parser: argparse.ArgumentParser, default=None) -> None:
    parser.add_argument(
        "--data-dir", type=_folder, default=default, help="folder holding journal.sqlite3 (default: see README)"
    )
    parser.add_argument(
        "--config", type=_file, default=default, help="TOML config file (default: built-in simulator set-up)"
    )


def _folder(text: str) -> Path:
    """An argparse ``type``: a folder's path, not empty (``Path("")`` is the current folder: a typing slip), and
    not a file, a device or a broken or looping link (each was "cannot create the folder ...: File exists", or a
    file opened read-only as if it were the data folder). A path that does not exist yet is made when needed."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty path (give the folder, e.g. --data-dir ~/games)")
    if os.path.lexists(text) and not os.path.isdir(text):
        what = "a link that leads to no folder" if os.path.islink(text) else "a file, not a folder"
        raise argparse.ArgumentTypeError(f"{text} is {what}")
    return Path(text)


def _file(text: str) -> Path:
    """An argparse ``type``: a file's path, not empty."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty path (give the file, e.g. --config companion.toml)")
    return Path(text)


#: ``export --format``: JSON history, CSV figures, a BG Stats play (:mod:`companion.export_bgstats`).
EXPORT_FORMATS = ("json", "csv", "bgstats")


#: The companion's own subcommands. Parsing a command line that starts with one of them needs no game's
#: subcommands, so the games' command-line modules are not imported (``companion run`` starts sooner: issue 17).
BUILT_IN_COMMANDS = frozenset({"run", "games", "export", "replay", "bridge-sim", "selftest"})


def build_parser(*, with_games: bool = True) -> argparse.ArgumentParser:
    """The argument parser for every subcommand; without ``with_games``, only :data:`BUILT_IN_COMMANDS` (the games'
    own subcommands, :func:`_add_game_subcommands`, are left out and their modules not imported)."""
    parser = argparse.ArgumentParser(prog="companion", description="Tabletop Companion: keeps the table honest.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    run = sub.add_parser(
        "run",
        help="run the kiosk (simulator when no Pi hardware is present)",
        description="Run the touchscreen kiosk. Resumes the latest unfinished game.",
    )
    _data_dir_option(run)
    run.add_argument("--sim", action="store_true", help="force simulator mode (keyboard buttons, emulated panels)")
    opening = run.add_mutually_exclusive_group()
    opening.add_argument("--new", action="store_true", help="open on the home screen instead of resuming")
    opening.add_argument("--resume", type=_game_id, metavar="ID", help="resume this saved game")
    run.add_argument(
        "--headless",
        action="store_true",
        help="no screen, panels or buttons: check (and if need be recover) the journal, resume "
        "the game, print what was done, and exit",
    )

    games = sub.add_parser(
        "games",
        help="list, resume, export or import saved games",
        description="Saved games. Without an action, lists them.",
    )
    _data_dir_option(games)
    games_sub = games.add_subparsers(dest="action", metavar="ACTION")
    glist = games_sub.add_parser("list", help="list saved games")
    resume = games_sub.add_parser("resume", help="run the kiosk on this game")
    resume.add_argument("game_id", type=_game_id, metavar="ID")
    resume.add_argument("--sim", action="store_true", help="force simulator mode")
    gexport = games_sub.add_parser("export", help="same as 'companion export'")
    gexport.add_argument("game_id", type=_game_id, metavar="ID")
    gexport.add_argument("--format", choices=EXPORT_FORMATS, default="json")
    gexport.add_argument("-o", "--output", type=Path, help="write to this file instead of standard output")
    gimport = games_sub.add_parser("import", help="import a JSON export as a new saved game")
    gimport.add_argument("file", type=Path)
    for action in (glist, resume, gexport, gimport):  # also accepted after the action: games list --data-dir D
        _data_dir_option(action, default=argparse.SUPPRESS)

    export = sub.add_parser(
        "export",
        help="export a game as JSON (history), CSV (figures after each move) or a BG Stats play",
        description="Export a game: JSON is the full history, CSV each player's figures after every move, "
        "bgstats a finished game as a play for the BG Stats app (players, winners, scores, start, duration).",
    )
    _data_dir_option(export)
    export.add_argument("game_id", type=_game_id, metavar="GAME")
    export.add_argument("--format", choices=EXPORT_FORMATS, default="json")
    export.add_argument("-o", "--output", type=Path, help="write to this file instead of standard output")

    replay = sub.add_parser(
        "replay",
        help="print a game's history as readable lines",
        description="Print every history entry of a game, and the final balances.",
    )
    _data_dir_option(replay)
    replay.add_argument("game_id", type=_game_id, metavar="GAME")

    sub.add_parser(
        "bridge-sim", add_help=False, help="a simulated dice or tile reader on a pseudo-terminal (bridge-sim --help)"
    )
    selftest = sub.add_parser(
        "selftest",
        help="check every panel, button and reader, one by one",
        description="Show a pattern on every panel, ask for every button in turn, ping "
        "every reader; print and save a report. On a desktop (or with --sim) "
        "it runs on mock pins and emulated panels.",
    )
    _data_dir_option(selftest)
    selftest.add_argument("--sim", action="store_true", help="force simulator mode")
    selftest.add_argument(
        "--timeout",
        type=_positive_seconds,
        default=10.0,
        metavar="S",
        help="seconds to wait for each button (more than 0; default 10)",
    )

    if with_games:
        _add_game_subcommands(sub)
    return parser


def _add_game_subcommands(sub) -> None:
    """Every registered game's own subcommands: its ``GameInfo.cli`` hook (``"module:function"``, a function
    ``(subparsers) -> None`` that adds parsers and sets ``run`` on each to a function ``(args) -> int``; such
    a command needs no config and no journal). A game whose hook cannot be loaded is left out, logged."""
    from companion.games import game_info, game_names, load_attribute

    for name in game_names():
        try:
            target = game_info(name).cli
            if target:
                load_attribute(target)(sub)
        except Exception:  # a broken third-party game must not stop the command line
            log.exception("the %s game's subcommands cannot be loaded", name)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``companion`` console script; returns the exit code."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["bridge-sim"]:  # the simulator parses its own options
        try:
            return _frontend("bridge-sim")(argv[1:])
        except CompanionError as error:
            print(f"companion: {error}", file=sys.stderr)
            return 1
    args = build_parser(with_games=argv[:1] == [] or argv[0] not in BUILT_IN_COMMANDS).parse_args(argv)
    if getattr(args, "run", None) is not None:  # a game's own subcommand (a calculator): no config, no journal
        try:
            return args.run(args)
        except BrokenPipeError:  # `companion ratings-war war.toml --json | head`
            sys.stderr.close()
            return 0
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    try:
        from companion.config import load_config

        config = load_config(args.config)
        if args.command == "run":
            return _run(args, config, resume=args.resume)
        if args.command == "games":
            if args.action == "resume":
                return _run(args, config, resume=args.game_id)
            if args.action == "export":
                return _export(args, config)
            if args.action == "import":
                return _import(args, config)
            return _list(args, config)
        if args.command == "export":
            return _export(args, config)
        if args.command == "replay":
            return _replay(args, config)
        if args.command == "selftest":
            return _selftest(args, config)
    except ConfigError as error:
        print(f"companion: config error: {error}", file=sys.stderr)
        return 2
    except CompanionError as error:
        print(f"companion: {error}", file=sys.stderr)
        return 1
    except sqlite3.DatabaseError as error:
        print(
            f"companion: the journal cannot be read ({error}); `companion run` moves a damaged journal "
            f"aside and recovers what it can",
            file=sys.stderr,
        )
        return 1
    except BrokenPipeError:  # `companion replay 1 | head`
        sys.stderr.close()
        return 0
    except OSError as error:
        print(f"companion: {error.strerror or error}: {error.filename or ''}".rstrip(": "), file=sys.stderr)
        return 1
    return 2


#: The largest id SQLite can store (a signed 64-bit integer).
LARGEST_ID = 2**63 - 1


def _game_id(text: str) -> int:
    """An argparse ``type``: a saved game's id, a whole number from 1 (``companion games list`` shows them)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a game number (companion games list shows them)") from None
    if not 1 <= value <= LARGEST_ID:
        raise argparse.ArgumentTypeError(f"{text!r}: no game has that number (companion games list shows them)")
    return value


def _positive_seconds(text: str) -> float:
    """An argparse ``type``: a number of seconds above 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r}: must be more than 0 seconds")
    return value


def _journal_path(args, config):
    from companion.paths import journal_path

    return journal_path(args.data_dir or config.data_dir)


def _open_read(args, config):
    from companion.journal import Journal

    path = _journal_path(args, config)
    if not path.exists():
        raise JournalError(f"no journal at {path}: no games have been played with this data directory")
    return Journal(path, read_only=True)  # never competes with a running kiosk for the write lock


def _no_journal_yet(args, config) -> bool:
    return not _journal_path(args, config).exists()


def _list(args, config) -> int:
    if _no_journal_yet(args, config):
        print(f"No saved games (no journal yet at {_journal_path(args, config)}).")
        return 0
    from companion.words import noun

    with _open_read(args, config) as journal:
        games = journal.games()
        if not games:
            print("No saved games.")
        for game in games:
            names = ", ".join(p["name"] for p in game.players)
            last = datetime.fromtimestamp(game.last_time or game.created).strftime("%Y-%m-%d %H:%M")
            events = noun(game.events, "event")
            print(f"#{game.id:<4} {game.game:<14} {game.status:<9} {game.events:>5} {events:<6}  last {last}  {names}")
    return 0


def _export(args, config) -> int:
    from companion.export import export_figures_csv, export_json
    from companion.export_bgstats import export_bgstats

    writer = {"json": export_json, "csv": export_figures_csv, "bgstats": export_bgstats}[args.format]
    if args.output and _in_data_files(args.output, _journal_path(args, config)):
        raise JournalError(
            f"not writing the export to {args.output}: that is the journal's own file or its backups "
            f"(write it anywhere else)"
        )
    with _open_read(args, config) as journal:
        text = writer(journal, args.game_id)
    if args.output:
        args.output.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")
        what = "a BG Stats play" if args.format == "bgstats" else args.format.upper()
        print(f"Wrote game #{args.game_id} as {what} to {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0


def _in_data_files(path: Path, journal: Path) -> bool:
    """Is ``path`` the journal at ``journal``, one of SQLite's files beside it (``-wal``, ``-shm``,
    ``-journal``), or anything in the data directory's ``backups`` folder? An export written there would
    destroy the games it exports (README: nothing is ever deleted)."""
    target = path.expanduser().resolve()
    journal = journal.expanduser().resolve()
    if target in {journal, *(journal.with_name(journal.name + end) for end in ("-wal", "-shm", "-journal"))}:
        return True
    from companion.backups import BACKUP_DIR

    return (journal.parent / BACKUP_DIR) in target.parents


def _import(args, config) -> int:
    from companion.errors import AlreadyRunning
    from companion.export import import_json
    from companion.journal import open_journal
    from companion.lock import InstanceLock
    from companion.paths import LOCK_NAME

    try:
        text = args.file.read_text(encoding="utf-8")
    except OSError as error:
        print(f"companion: cannot read {args.file}: {error.strerror}", file=sys.stderr)
        return 1
    except UnicodeDecodeError:
        print(
            f"companion: cannot import {args.file}: it is not UTF-8 text (an export is the JSON file that "
            f"`companion export GAME` writes)",
            file=sys.stderr,
        )
        return 1
    path = _journal_path(args, config)
    # the companion's own lock, then the start-up's check: a journal behind its backups (a lost -wal) or damaged
    # is rebuilt before anything is added to it (an import into it took the seqs of moves the backups hold,
    # and the next start-up dropped the journal's own game as a clash). Beside a running companion, which may
    # be rebuilding the journal at that moment, the import could be lost: refused.
    lock = InstanceLock(path.parent / LOCK_NAME)
    try:
        lock.acquire()
    except AlreadyRunning as error:
        raise CompanionError(f"{error}: quit it, then import (nothing was written)") from None
    try:
        journal, recovery = open_journal(path)
        if recovery is not None:
            print(recovery.message())
        with journal:
            game_id = import_json(journal, text)
    finally:
        lock.release()
    print(f"Imported {args.file} as game #{game_id}")
    return 0


def _replay(args, config) -> int:
    from companion.session import GameSession

    with _open_read(args, config) as journal:
        journal.game(args.game_id)
        session = GameSession(args.game_id, journal.events(args.game_id))
    names = ", ".join(p.name for p in session.players)
    print(f"Game #{session.game_id}: {session.rules.info.title} — {names}")
    for entry in session.history():
        when = datetime.fromtimestamp(entry.time).strftime("%H:%M:%S")
        mark = "" if entry.in_force else "  [undone]"
        print(f"#{entry.seq:<5} {when}  {entry.text}{mark}")
    view = session.rules.public_view(session.state)

    def figures(player) -> str:  # the game's own headline figure (cash, points, Vitality, $M), else its tracks
        return f"{player.name} {player.headline or ', '.join(f'{t.label} {t.value}' for t in player.tracks)}".rstrip()

    print("Now: " + "; ".join(figures(p) for p in view.players))
    print(view.status)
    return 0


def _run(args, config, *, resume: int | None) -> int:
    from companion.journal import open_journal, startup_notice
    from companion.lock import InstanceLock
    from companion.paths import LOCK_NAME, data_dir

    folder = data_dir(args.data_dir or config.data_dir)
    lock = InstanceLock(folder / LOCK_NAME).acquire()  # before any GPIO, serial or I2C
    try:
        journal, recovery = open_journal(_journal_path(args, config))  # logs what a recovery did
        try:
            if resume is not None:
                journal.game(resume)  # an unknown id stops here, before any window
            space = journal.space_problem()  # a (nearly) full disk is said before the first move is refused
            if getattr(args, "headless", False):
                return _headless(
                    journal, recovery, resume=resume, start_new=bool(getattr(args, "new", False)), space=space
                )
            frontend = _frontend("kiosk")
            notice = startup_notice(recovery, space)
            return frontend(
                journal=journal,
                config=config,
                simulate=bool(getattr(args, "sim", False)),
                resume=resume,
                start_new=bool(getattr(args, "new", False)),
                notice=notice,
            )
        finally:
            journal.close()
    finally:
        lock.release()


def _headless(journal, recovery, *, resume: int | None, start_new: bool, space: str | None = None) -> int:
    """``run --headless``: the kiosk's start-up without its screen. Prints the recovery notice (if any),
    the games in the journal (with ``space``, :meth:`companion.journal.Journal.space_problem`, beside
    "writable"), and what was resumed; exits 0 (a read-only journal is not a failure)."""
    from companion.commands import OpenGame
    from companion.table import Table

    table = Table(journal)
    table.claim()
    if recovery:
        print(recovery.message())
    games = journal.games()
    state = "read-only: " + journal.read_only_reason if journal.read_only else "writable"
    if space and not journal.read_only:
        state += f", but {space}"
    from companion.words import count

    events = sum(g.events for g in games)
    print(f"Journal {journal.path} ({state}): {count(len(games), 'game')}, {count(events, 'event')}")
    for game in games:
        print(f"  game #{game.id} {game.game} {game.status}: {count(game.events, 'event')}")
    outcome = None
    if resume is not None:
        outcome = table.execute(OpenGame(game_id=resume, source="startup"))
    elif not start_new:
        outcome = table.resume_latest()
    print(outcome.message if outcome else "No game resumed.")
    return 0


def _selftest(args, config) -> int:
    from companion.lock import InstanceLock
    from companion.paths import LOCK_NAME, data_dir

    folder = data_dir(args.data_dir or config.data_dir)
    lock = InstanceLock(folder / LOCK_NAME).acquire()  # the kiosk must not hold the same pins
    try:
        return _frontend("selftest")(config=config, simulate=args.sim, data_dir=folder, timeout=args.timeout)
    finally:
        lock.release()


def _frontend(name: str):
    from companion.entry_points import entry_points

    for entry in entry_points("tabletop_companion.frontends"):
        if entry.name == name:
            return entry.load()
    raise CompanionError(f"no '{name}' front-end is installed; reinstall the package (pip install -e .)")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
