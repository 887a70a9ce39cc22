"""The Kivy app in a real window (Xvfb, provided by ./run-tests): a TV Wars game played through synthetic
touches and key presses, screenshots saved to test-artifacts/, the emulated panels checked as images,
and a SIGKILL mid-game followed by a restart that returns to exactly the same state."""

import csv
import io
import os
import shutil
import signal
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

import pytest
from conftest import COMPANION
from kivy_driver import ARTIFACTS, DRIVERS, driver_env, keep_artifacts, run_driver, run_driver_output, steps_by_label
from PIL import Image, ImageChops

from companion.journal import Journal
from companion.session import GameSession
from hardware.panels import render_player_panel

DRIVER = DRIVERS / "drive_app.py"

pytestmark = pytest.mark.kivy

_drive = partial(run_driver, "drive_app.py", timeout=180)


def _journal_view(data_dir: Path):
    with Journal(data_dir / "journal.sqlite3") as journal:
        game = journal.latest_open_game()
        session = GameSession(game.id, journal.events(game.id))
    return session.rules.public_view(session.state)


def _same_image(path: Path, expected: Image.Image) -> bool:
    return ImageChops.difference(Image.open(path).convert("L"), expected.convert("L")).getbbox() is None


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    data_dir = tmp_path_factory.mktemp("data")
    out_dir = tmp_path_factory.mktemp("shots")
    result = _drive(data_dir, out_dir)
    keep_artifacts(out_dir)
    steps = steps_by_label(result)
    steps["dialogs"] = {"pay_empty": result["pay_empty"], "one_die": result["one_die"]}
    return data_dir, out_dir, steps


def test_home_then_new_four_network_game_starts_at_31000_each(played):
    """TV Wars 2.4: every network starts with $31,000."""
    _, _, steps = played
    assert steps["home"]["screen"] == "home"
    assert steps["new game"]["screen"] == "dashboard"
    assert steps["new game"]["balances"] == {"ABS": 31000, "CBA": 31000, "PBC": 31000, "NBS": 31000}
    assert "Best Network News roll-off" in steps["new game"]["status"]


def test_roll_off_by_hand_entry_and_buttons_settles_best_network_news(played):
    """TV Wars 2.5: ABS's physical dice are entered on the touchscreen, three seats roll by button."""
    data_dir, _, steps = played
    status = steps["rolled"]["status"]
    assert "holds Best Network News" in status or "re-roll" in status
    with Journal(data_dir / "journal.sqlite3", read_only=True) as journal:
        rolls = [
            (e.payload["roller"], e.payload["values"], e.payload["source"])
            for e in journal.events(1)
            if e.type == "dice_rolled"
        ]
    assert rolls[0] == ("ABS", [3, 4], "manual")
    assert [(roller, source) for roller, _, source in rolls[1:4]] == [
        ("CBA", "built-in"),
        ("PBC", "built-in"),
        ("NBS", "built-in"),
    ]


def test_money_moves_by_buttons_and_touch_reach_balances_and_cards(played):
    """9.5 three button presses and one tap (+$3,000 each), 9.4 Sponsor at 22 half-hours, a transfer."""
    _, _, steps = played
    played_step = steps["played"]
    assert played_step["balances"] == {"ABS": 42000, "CBA": 34000, "PBC": 42000, "NBS": 29000}
    assert played_step["card_balances"] == {"ABS": "$42,000", "CBA": "$34,000", "PBC": "$42,000", "NBS": "$29,000"}


def test_dialogs_say_what_is_missing_instead_of_submitting_it(played):
    _, _, steps = played
    assert steps["dialogs"]["pay_empty"] == [True, "Enter an amount"]
    assert steps["dialogs"]["one_die"] == [True, "Tap 1 more"]


def test_overdraft_is_refused_on_screen_and_changes_nothing(played):
    _, _, steps = played
    refused = steps["refused"]
    assert refused["refused"] is True
    assert "cannot pay $99,000" in refused["message"]
    assert refused["balances"]["NBS"] == 29000


def test_three_undos_say_what_they_undid_and_redo_restores_one(played):
    _, _, steps = played
    assert "undid" in steps["undo 1"]["message"] and "NBS pays ABS $2,000" in steps["undo 1"]["message"]
    assert steps["undo 1"]["balances"] == {"ABS": 40000, "CBA": 34000, "PBC": 42000, "NBS": 31000}
    assert "Sponsor" in steps["undo 2"]["message"]
    assert steps["undo 2"]["balances"]["PBC"] == 31000
    assert "passed On the Air" in steps["undo 3"]["message"]  # undone by the table's undo button
    assert steps["undo 3"]["balances"]["CBA"] == 31000
    assert "redid" in steps["redo 1"]["message"]
    assert steps["redo 1"]["balances"] == {"ABS": 40000, "CBA": 34000, "PBC": 31000, "NBS": 31000}
    assert steps["redo 1"]["redo_hint"].startswith("#") and "Sponsor" in steps["redo 1"]["redo_hint"]


def test_export_from_the_history_screen_writes_json_and_csv(played):
    data_dir, _, steps = played
    assert steps["exported"]["message"].startswith("Exported game #1")
    exported = sorted(p.suffix for p in (data_dir / "exports").iterdir())
    assert exported == [".csv", ".json"]
    rows = list(csv.DictReader(io.StringIO(next((data_dir / "exports").glob("*.csv")).read_text())))
    assert list(rows[0])[:4] == ["move", "time", "what", "ABS cash"]  # each seat's figures after every move
    assert rows[0]["what"] == "game started" and rows[0]["ABS cash"] == "31000"
    # the moves in force, in order, each with the figures after it: passing On the Air is ABS's cash up $3,000
    paid = [
        (before, row)
        for before, row in zip(rows, rows[1:])
        if row["what"].startswith("Bank pays ABS $3,000") and int(row["ABS cash"]) - int(before["ABS cash"]) == 3000
    ]
    assert paid, [row["what"] for row in rows]


def test_ending_the_game_refuses_moves_until_undone(played):
    _, _, steps = played
    assert steps["ended"]["refused"] and "has ended" in steps["ended"]["message"]
    assert steps["ended"]["balances"] == steps["redo 1"]["balances"]
    assert "Game over" in steps["ended"]["status"]
    assert "Game ended" in steps["reopened"]["message"] and not steps["reopened"]["refused"]
    assert "Game over" not in steps["reopened"]["status"]


def test_screenshots_are_real_pictures(played):
    _, out_dir, _ = played
    for name in ("home", "dashboard", "history", "transfer-dialog", "sponsor-dialog", "dice-dialog"):
        image = Image.open(out_dir / f"{name}.png")
        assert image.size == (800, 636)
        assert len(image.convert("RGB").getcolors(100000)) > 20, f"{name}.png looks blank"


def test_emulated_panels_show_each_networks_figures(played):
    """Each panel's final frame equals the layout of that network's state replayed from the journal; ABS's
    panel still flashes the refusal of its On the Air button pressed after the game had ended."""
    data_dir, out_dir, steps = played
    view = _journal_view(data_dir)
    refusal = steps["ended"]["message"].removeprefix("Refused: ")
    assert _same_image(out_dir / "final-panel-1.png", render_player_panel(view.players[0], message=refusal))
    for index, player in enumerate(view.players[1:], start=2):
        assert _same_image(out_dir / f"final-panel-{index}.png", render_player_panel(player)), player.name
    assert not _same_image(out_dir / "final-panel-2.png", render_player_panel(view.players[2]))


def test_restart_resumes_exactly_where_the_game_was(played, tmp_path):
    data_dir, _, steps = played
    resumed = _drive(data_dir, tmp_path, "--resume-check")["steps"][0]
    assert resumed["screen"] == "dashboard"
    assert resumed["balances"] == steps["final"]["balances"]
    assert resumed["redo_hint"] == steps["final"]["redo_hint"]


def test_kill_9_mid_game_loses_nothing(tmp_path):
    """Pull the plug: SIGKILL the app while buttons are being pressed, restart, same state as the journal."""
    data_dir = tmp_path / "data"
    process = subprocess.Popen(
        [sys.executable, str(DRIVER), str(data_dir), str(tmp_path / "out"), "--play-until-killed"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=driver_env(),
    )
    presses = 0
    deadline = time.monotonic() + 60
    while presses < 25 and time.monotonic() < deadline:
        line = process.stdout.readline()
        if line.startswith("pressed"):
            presses = int(line.split()[1])
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=10)
    assert presses >= 25
    import sqlite3

    with sqlite3.connect(data_dir / "journal.sqlite3") as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        moves = db.execute("SELECT COUNT(*) FROM events WHERE type = 'money_moved'").fetchone()[0]
    assert moves >= 12
    expected = _journal_view(data_dir)
    resumed = _drive(data_dir, tmp_path / "again", "--resume-check")["steps"][0]
    assert resumed["balances"] == {p.name: p.balance for p in expected.players}
    assert resumed["balances"]["ABS"] > 31000


def test_home_with_many_saved_games_scrolls_and_keeps_the_new_game_buttons_whole(tmp_path):
    from companion.commands import NewGame, PlayerSeat
    from companion.table import Table

    data_dir = tmp_path / "data"
    table = Table(Journal(data_dir / "journal.sqlite3"))
    table.claim()
    for _ in range(12):
        table.execute(NewGame(game="tv-wars", players=(PlayerSeat("ABS"), PlayerSeat("CBA"))))
    table.journal.close()
    home = _drive(data_dir, tmp_path / "out", "--home")["home"]
    shutil.copy(tmp_path / "out" / "home-many-games.png", ARTIFACTS / "home-many-games.png")
    assert home["game_rows"] == 12
    assert home["rows_height"] > home["scroll_height"]  # the list scrolls instead of growing
    for bottom, height in home["new_game_buttons"]:
        assert height >= 72 and bottom >= home["scroll_top"]  # two lines, never covered by the list
    # at least three saved games in view on the 800×480 screen (one and a half were, in a fresh user's trial)
    assert home["scroll_height"] >= 3 * 48 + 2 * 6, home  # three 48 px rows, two gaps


def test_without_a_gpio_backend_the_touchscreen_still_works(tmp_path):
    """Not a Pi and not simulating: gpiozero finds no pin library. One clear message; touch still plays."""
    steps = _drive(tmp_path / "data", tmp_path / "out", "--pi-mode")["steps"]
    assert "Buttons are off: no usable GPIO backend" in steps[0]["message"]
    assert steps[1]["balances"] == {"ABS": 31000, "CBA": 31000}


def test_touchscreen_self_test_walks_every_button_and_saves_a_report(tmp_path):
    """Home → Self-test: panels show their patterns, each button is asked for in turn (keys drive the mock
    pins), one is skipped, the report is saved; presses during the test never reach a game."""
    result = _drive(tmp_path / "data", tmp_path / "out", "--selftest")
    prompt, report = result["selftest"]
    assert prompt.startswith("Self-test: 18 passed, 0 failed, 1 skipped"), prompt  # 4 panels, 13 buttons, reader
    assert "PASS  button ABS on the air" in report and "SKIP  button table redo" in report
    assert list((tmp_path / "data").glob("selftest-*.txt"))
    shutil.copy(tmp_path / "out" / "selftest-report.png", ARTIFACTS / "selftest-report.png")
    from hardware.selftest import panel_test_pattern

    assert _same_image(tmp_path / "out" / "selftest-panel-1.png", panel_test_pattern("ABS", 1))  # shown
    assert result["steps"][-1]["balances"] == {}  # no game was touched


def test_companion_run_starts_draws_and_exits_cleanly(tmp_path):
    """The real command (`companion run --sim`), not just the app object: it draws a first frame and leaves
    through its own shutdown path with exit code 0, leaving the exit screen on the panels."""
    frame_file = tmp_path / "first-frame"
    env = {**os.environ, "COMPANION_BENCH_FIRST_FRAME": str(frame_file)}
    completed = subprocess.run(
        [str(COMPANION), "run", "--sim", "--data-dir", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    drawn, memory, cpu, phases = frame_file.read_text().splitlines()  # benchmarks/run.py reads these four
    assert float(drawn) > 0
    assert memory.startswith("VmHWM=")
    # the CPU to the first frame (s), and the start-up's parts (benchmarks/run.py's phase row), which add up to it
    key, _, seconds = cpu.partition("=")
    assert key == "cpu" and float(seconds) > 0
    key, _, parts = phases.partition("=")
    spent = {name: float(value) for name, value in (part.split(":") for part in parts.split(","))}
    assert key == "phases" and list(spent) == ["start", "build", "open", "screens", "draw"]
    assert all(value >= 0 for value in spent.values())
    assert sum(spent.values()) == pytest.approx(float(seconds), abs=0.002)
    assert "Traceback" not in completed.stderr


def test_a_simulated_dice_reader_answers_the_roll_off_and_holds_an_unasked_roll(tmp_path):
    """Issue 8 wiring: the desktop simulator's dice reader (a real pseudo-terminal speaking the protocol)
    answers TV Wars 2.5's roll-off requests with source "reader"; a roll nobody asked for is held on the
    dashboard until discarded."""
    data_dir = tmp_path / "data"
    result = _drive(data_dir, tmp_path / "out", "--reader")
    steps = steps_by_label(result)
    assert "connected" in result["reader_status"]
    with Journal(data_dir / "journal.sqlite3", read_only=True) as journal:
        rolls = [(e.payload["roller"], e.payload["source"]) for e in journal.events(1) if e.type == "dice_rolled"]
    assert rolls[:2] == [("ABS", "reader"), ("CBA", "reader")]
    assert result["held"].startswith("Unclaimed roll")
    assert steps["discarded"]["held"] == ""
    shutil.copy(tmp_path / "out" / "reader-unclaimed.png", ARTIFACTS / "reader-unclaimed.png")


def test_leaving_the_kiosk_takes_both_top_corners_held(tmp_path):
    """One corner does nothing; both top corners held for 3 s offer to leave; leaving is deliberate."""
    out = tmp_path / "out"
    result, stdout = run_driver_output("drive_app.py", tmp_path / "data", out, "--exit-gesture", timeout=120)
    assert result["one_corner_popup"] is False
    assert result["exit_dialog"] == "Leave the kiosk?"
    assert "left_kiosk True" in stdout


def test_with_an_exit_pin_one_corner_held_asks_for_it_and_only_the_right_pin_leaves(tmp_path):
    """Desktop edition (one pointer): the top-left corner held 3 s opens the PIN pad; a wrong PIN is
    refused and leaves the kiosk running; the configured PIN leaves it (exit status 64 for systemd)."""
    out = tmp_path / "out"
    result, stdout = run_driver_output("drive_app.py", tmp_path / "data", out, "--exit-pin", timeout=120)
    assert result["after_wrong"] == "Wrong PIN (2 tries left)"
    assert result["still_open"] is True
    assert "left_kiosk True" in stdout
    shutil.copy(out / "exit-pin.png", ARTIFACTS / "exit-pin.png")


def test_home_screen_starts_any_registered_game_with_its_own_names_and_buttons(tmp_path):
    """The picker on the home screen: choosing Death Show TV offers 2-4 Contestants (the seats there are),
    starts that game with its own default names (the seats are the built-in TV Wars ones), without TV Wars'
    house rules, and the simulator's key help names that game's buttons."""
    result = _drive(tmp_path / "data", tmp_path / "out", "--pick-game")
    assert result["new_buttons"] == ["2 Contestants", "3 Contestants", "4 Contestants"]
    assert result["game"] == "death-show-tv"
    assert result["players"] == ["Kelpie", "Jhon", "Elena"]
    assert "roll_off" not in result["options"]
    assert "Bonus +1 / Confirm / Roll" in result["key_help"]
    shutil.copy(tmp_path / "out" / "home-death-show.png", ARTIFACTS / "home-death-show.png")


def test_a_long_message_says_more_and_a_tap_shows_all_of_it_one_clause_a_line(tmp_path):
    result = _drive(tmp_path / "data", tmp_path / "out", "--message")
    assert result["more_shown"] is True
    assert len(result["popup_lines"]) == 6 and result["popup_lines"][5].startswith("Clause 6:")
    assert result["closed"] is True
    shutil.copy(tmp_path / "out" / "message-popup.png", ARTIFACTS / "message-popup.png")


def test_a_panel_that_stops_answering_is_said_once_on_the_touchscreen_and_the_words_go_when_it_answers(tmp_path):
    result = _drive(tmp_path / "data", tmp_path / "out", "--dead-panel")
    steps = steps_by_label(result)
    assert (steps["panel down"]["message"], steps["panel down"]["refused"]) == ("Panel 2 is not answering", True)
    assert steps["still down"]["message"] == "Panel 2 is not answering"
    assert result["said"].count("Panel 2 is not answering") == 1  # once, not per retry
    assert steps["panel back"]["message"] == ""
    view = _journal_view(tmp_path / "data")
    assert _same_image(
        tmp_path / "out" / "panel-back-panel-2.png", render_player_panel(view.players[1], message="Cable test")
    )
    shutil.copy(tmp_path / "out" / "panel-not-answering.png", ARTIFACTS / "panel-not-answering.png")


def test_without_a_display_companion_run_exits_at_once_with_one_line(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["SDL_VIDEODRIVER"] = "kmsdrm"
    completed = subprocess.run(
        [str(COMPANION), "run", "--sim", "--data-dir", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    if Path("/dev/dri").exists() and any(Path("/dev/dri").glob("card*")):
        pytest.skip("this machine has a DRM device, so it has a display")
    assert completed.returncode == 1
    last = completed.stderr.strip().splitlines()[-1]
    assert last.startswith("companion: no display:") and "/dev/dri" in last


def test_the_app_tells_systemd_ready_pings_the_watchdog_and_stops_on_sigterm(tmp_path):
    """Type=notify: READY=1 once the journal is open and the first frame drawn, WATCHDOG=1 from the main
    loop, STOPPING=1 and exit 0 on systemd's SIGTERM (through on_stop: the panels' exit screen)."""
    import socket

    path = str(tmp_path / "notify.sock")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(path)
    server.settimeout(60)
    env = {**os.environ, "NOTIFY_SOCKET": path, "WATCHDOG_USEC": "1000000"}
    env.pop("WATCHDOG_PID", None)
    process = subprocess.Popen(
        [str(COMPANION), "run", "--sim", "--data-dir", str(tmp_path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        messages = []
        attached = "STATUS=home screen; buttons, panels and readers attached"  # just after the first frames
        while (
            not any(m.startswith("READY=1") for m in messages)
            or "WATCHDOG=1" not in messages
            or attached not in messages
        ):
            messages.append(server.recv(256).decode())
        ready = next(m for m in messages if m.startswith("READY=1"))
        assert "STATUS=home screen" in ready  # a fresh data directory: no game yet
        assert messages.index(ready) < messages.index(attached)  # READY with the first frame, before the hardware
        process.send_signal(signal.SIGTERM)
        while "STOPPING=1" not in messages:
            messages.append(server.recv(256).decode())
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()
        server.close()


def test_display_problem_names_what_is_missing(tmp_path):
    from ui.kiosk import display_problem

    dri = tmp_path / "dri"
    dri.mkdir()
    assert display_problem({"DISPLAY": ":0"}, dri) is None
    assert display_problem({"WAYLAND_DISPLAY": "wayland-0"}, dri) is None
    assert "no display" in display_problem({}, dri)
    (dri / "card0").touch()
    assert display_problem({}, dri) is None  # Raspberry Pi OS Lite: KMS/DRM
    assert "no display" in display_problem({"SDL_VIDEODRIVER": "x11"}, dri)


def test_an_unknown_tag_on_a_tile_reader_is_learned_once_then_named(tmp_path):
    """Issue 8 learn mode: a tag placed on a tile reader (a real pty speaking the protocol, configured as a
    [[readers]] entry) opens the learn dialog; the answer is checked by the TV Wars tile rules and stored in
    the journal's database; the same tag placed again is named, not asked for."""
    data_dir = tmp_path / "data"
    result = _drive(data_dir, tmp_path / "out", "--tiles")
    assert result["learn_ready_before"] is True  # nothing chosen yet: cannot learn
    assert result["learn_summary"] == "Program 60 min, blue Drama, 70 RP"
    assert result["steps"][-1]["message"] == "CARD-ABS slot 2: Program 60 min, blue Drama"  # no rating: 9.1
    from companion.tiles import TileRegistry

    with TileRegistry(data_dir / "journal.sqlite3") as registry:
        tile = registry.lookup("04a1b2c3")
    assert (tile.kind, tile.details) == ("program", {"length": 2, "colour": "blue", "rating": 70})
    shutil.copy(tmp_path / "out" / "tile-learn.png", ARTIFACTS / "tile-learn.png")


def test_a_game_s_table_extras_are_found_beside_its_board():
    """The controller knows no game: TV Wars' own dialogs are its table extras (ui/games/tv_wars/table.py, found
    beside its board through the registry); a game without such a module gets the base, which adds nothing."""
    from companion.games import game_names
    from ui.boards import table_kv_file, table_target
    from ui.extras import TableExtras, extras_class

    assert table_target("tv-wars") == "ui.games.tv_wars.table" and table_target("death-show-tv") == ""
    assert all(table_target(game) in ("", f"ui.games.{game.replace('-', '_')}.table") for game in game_names())
    assert table_kv_file("tv-wars").name == "table.kv" and table_kv_file("death-show-tv") is None
    extras = extras_class("tv-wars")
    assert issubclass(extras, TableExtras) and extras is not TableExtras
    assert all(callable(getattr(extras, name)) for name in ("on_the_air", "open_sponsor", "open_transfer"))
    assert extras_class("death-show-tv") is TableExtras


def test_built_in_seats_take_each_game_s_default_names():
    """A config without [[players]] names its seats after the default game; another game gives them its own default
    names, whatever the game; seats the config names keep their names in every game."""
    from companion.config import default_config, parse_config
    from companion.games import game_info
    from ui.home import seat_names

    config = default_config()
    assert seat_names(config, game_info("tv-wars"), 2) == ["ABS", "CBA"]
    assert seat_names(config, game_info("death-show-tv"), 3) == ["Kelpie", "Jhon", "Elena"]
    assert seat_names(config, game_info("telly-time"), 4) == ["Arkady", "Virginia", "Kim", "Lou"]
    named = parse_config({"players": [{"name": "Ann"}, {"name": "Bob"}]})
    assert seat_names(named, game_info("death-show-tv"), 2) == ["Ann", "Bob"]
