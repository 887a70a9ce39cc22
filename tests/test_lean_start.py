"""Lean start (issue 17, part 6): a process that opens one game imports that game's package alone, and the kiosk
loads only that game's board and ``.kv`` layout. The registry still names every game (titles without importing).

Each check runs in a fresh process of the installed package (a test process has imported every game already).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from kivy_driver import run_driver, steps_by_label

from companion.commands import NewGame, PlayerSeat
from companion.games import find_game, game_info, game_names, game_title
from companion.journal import Journal
from companion.table import Table

#: Each game's package: the package its rules module is in (``companion.games.tv_wars``).
GAME_PACKAGES = {name: game_info(name).rules.partition(":")[0].rpartition(".")[0] for name in game_names()}
BOARD_MODULES = {
    "tv-wars": "ui.games.tv_wars.board",
    "death-show-tv": "ui.games.death_show_tv.board",
    "channel-won": "ui.games.channel_won.board",
    "telly-time": "ui.games.telly_time.board",
}
SEATS = {
    "tv-wars": ("ABS", "CBA"),
    "death-show-tv": ("Kelpie", "Jhon"),
    "channel-won": ("Ava", "Ben"),
    "telly-time": ("Arkady", "Virginia"),
}

_OPEN = r"""
import json, sys
from companion.journal import open_journal
from companion.table import Table
journal, _ = open_journal(sys.argv[1])
table = Table(journal)
table.claim()
outcome = table.resume_latest()
assert outcome is not None and outcome.accepted, outcome
print(json.dumps({"game": table.session.rules.info.name, "state": type(table.state).__name__,
                  "titles": __import__("companion.games", fromlist=["x"]).game_title("telly-time"),
                  "modules": sorted(m for m in sys.modules if m.startswith("companion.games.")),
                  "openssl": "_hashlib" in sys.modules}))
journal.close()
"""


def _journal_with(path, game: str) -> None:
    options = {"roll_off": False} if game in ("tv-wars", "death-show-tv") else {}
    if game == "telly-time":
        from telly_time_helpers import TILES

        options = {"tiles": TILES}
    with Journal(path) as journal:
        table = Table(journal, backup_every=None)
        table.claim()
        outcome = table.execute(NewGame(game=game, players=tuple(PlayerSeat(n) for n in SEATS[game]), options=options))
        assert outcome.accepted, outcome.message


def _others(game: str, modules: list[str]) -> list[str]:
    """Modules of other games imported beyond their light package ``__init__`` and ``info`` (which only name the
    game: the home screen lists every game's title)."""
    return [
        m
        for m in modules
        for other, package in GAME_PACKAGES.items()
        if other != game and m.startswith(package + ".") and m != package + ".info"
    ]


@pytest.mark.parametrize("game", sorted(GAME_PACKAGES))
def test_opening_a_game_headless_imports_no_other_game(tmp_path, game):
    path = tmp_path / "journal.sqlite3"
    _journal_with(path, game)
    completed = subprocess.run(
        [sys.executable, "-c", _OPEN, str(path)], capture_output=True, text=True, cwd=str(tmp_path), timeout=120
    )
    assert completed.returncode == 0, completed.stderr[-2000:]
    found = json.loads(completed.stdout)
    assert found["game"] == game and found["titles"] == "Telly Time"
    assert GAME_PACKAGES[game] in found["modules"]
    assert _others(game, found["modules"]) == [], f"opening {game} imported other games"
    # the state format's digest is zlib's: hashlib would load OpenSSL (3.6 MB of a headless process's memory)
    assert found["openssl"] is False, f"opening {game} loaded OpenSSL (hashlib)"


def test_the_registry_names_every_game_with_the_rules_own_name_and_title():
    assert game_names() == sorted(BOARD_MODULES)
    for name in game_names():
        rules = find_game(name)
        assert rules.info is game_info(name) and (rules.info.name, rules.info.title) == (name, game_title(name))
    from companion.errors import UnknownGame

    with pytest.raises(UnknownGame, match="known games: channel-won, death-show-tv, telly-time, tv-wars"):
        find_game("chess")
    with pytest.raises(UnknownGame):
        game_title("chess")


@pytest.mark.kivy
@pytest.mark.parametrize("game", ["tv-wars", "death-show-tv"])
def test_the_kiosk_loads_only_the_open_games_board_and_layout(tmp_path, game):
    data_dir, out_dir = tmp_path / "data", tmp_path / "out"
    data_dir.mkdir()
    _journal_with(data_dir / "journal.sqlite3", game)
    steps = steps_by_label(run_driver("drive_lean.py", data_dir, out_dir, game, timeout=180))
    step = steps["resumed"]
    assert step["game"] == game and step["screen"] == "dashboard"
    board_kv = f"games/{BOARD_MODULES[game].split('.')[2]}/board.kv"
    assert [kv for kv in step["kv"] if kv.startswith("games/")] == [board_kv]
    assert {"kv/common.kv", "kv/home.kv", "kv/dashboard.kv", "kv/dialogs.kv"} <= set(step["kv"])
    assert "kv/history.kv" not in step["kv"]  # the history screen is made (and its layout loaded) when first shown
    assert BOARD_MODULES[game] in step["modules"]
    package = BOARD_MODULES[game].rpartition(".")[0]  # ui.games.<game>: its light __init__ is found for every game
    others = [
        m for m in step["modules"] if m.startswith("ui.games.") and not m.startswith(package) and m.count(".") > 2
    ]
    assert others == [] and _others(game, step["modules"]) == []


#: What the kiosk opens just after its first frames (ui.app.CompanionApp.attach_hardware), not before.
HARDWARE_MODULES = ("gpiozero", "luma.core", "serial", "hardware.buttons", "hardware.panels", "firmware_bridge.service")


@pytest.mark.kivy
def test_the_home_screen_comes_up_before_any_games_rules_or_the_hardware_are_loaded(tmp_path):
    """Issue 17, lean start: on an empty journal the first frame is the Home screen, drawn from the games'
    ``info`` alone (no game's rules imported) and before gpiozero, luma.oled and pyserial are imported; the buttons,
    panels and the simulated reader are attached right after, and the panels then show Home's text."""
    data_dir, out_dir = tmp_path / "data", tmp_path / "out"
    data_dir.mkdir()
    result = run_driver("drive_lean.py", data_dir, out_dir, "tv-wars", "--home", timeout=180)
    first, attached = result["first_frame"], steps_by_label(result)["attached"]
    assert first["screen"] == "home" and attached["screen"] == "home"
    assert [m for m in first["modules"] if m.startswith(HARDWARE_MODULES)] == []
    rules = [m for m in first["modules"] for p in GAME_PACKAGES.values() if m.startswith(p + ".") and m != p + ".info"]
    assert rules == []
    assert {"gpiozero", "hardware.buttons", "hardware.panels", "firmware_bridge.service"} <= set(attached["modules"])
    assert "kv/dashboard.kv" not in first["kv"] and "kv/history.kv" not in first["kv"]
    assert attached["buttons"] and attached["panels"] == 4 and attached["reader_status"]
    assert attached["panels_lit"] == [True] * 4  # Home's text ("Redo twice: new game") on every panel


_LIST = r"""
import sys
from companion.cli import main
code = main(["games", "list", "--data-dir", sys.argv[1]])
print("MODULES", sorted(m for m in sys.modules if m.startswith("companion.games.")))
sys.exit(code)
"""


def test_the_companions_own_commands_import_no_games_command_line_and_a_games_own_command_still_parses(tmp_path):
    """Issue 17: ``companion run`` (like every built-in command) builds its parser without the games' own
    subcommands, so no game's command-line module (or its rules) is imported; a game's own command (TV Wars'
    ``ratings-war``) is still found through the registry."""
    completed = subprocess.run(
        [sys.executable, "-c", _LIST, str(tmp_path)], capture_output=True, text=True, cwd=str(tmp_path), timeout=120
    )
    assert completed.returncode == 0, completed.stderr[-2000:]
    modules = completed.stdout.split("MODULES", 1)[1]
    assert "cli" not in modules and "tv_wars.rules" not in modules, modules
    from companion.cli import build_parser

    assert build_parser().parse_args(["ratings-war", "x.toml"]).command == "ratings-war"
    with pytest.raises(SystemExit):  # without the games, the game's command is unknown
        build_parser(with_games=False).parse_args(["ratings-war", "x.toml"])
