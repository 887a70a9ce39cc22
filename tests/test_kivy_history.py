"""The history screen of a long game in the real Kivy app under Xvfb (tests/kivy/drive_history.py): its rows are
read only while it is shown, a page at a time, and brought up to date with each move, undo and jump; leaving it
drops them. Screenshots go to test-artifacts/."""

import json
from pathlib import Path

import pytest
from kivy_driver import keep_artifacts, run_driver, steps_by_label
from test_export_bgstats import check_documented

from companion.commands import AdjustTrack, NewGame, PlayerSeat
from companion.games.tv_wars import PassOnTheAir
from companion.history import PAGE
from companion.journal import Journal
from companion.table import Table

pytestmark = pytest.mark.kivy

MOVES = 150


@pytest.fixture(scope="module")
def shown(tmp_path_factory):
    data_dir, out_dir = tmp_path_factory.mktemp("data"), tmp_path_factory.mktemp("shots")
    with Journal(data_dir / "journal.sqlite3") as journal:
        table = Table(journal, backup_every=None)
        table.claim()
        assert table.execute(
            NewGame(game="tv-wars", players=(PlayerSeat("ABS"), PlayerSeat("CBA")), options={"roll_off": False})
        ).accepted
        for i in range(MOVES):
            command = (
                PassOnTheAir(network=("ABS", "CBA")[i % 2])
                if i % 3
                else AdjustTrack(player="ABS", track="half_hours", delta=(1, -1)[i % 2])
            )
            assert table.execute(command).accepted
    result = run_driver("drive_history.py", data_dir, out_dir, timeout=180)
    keep_artifacts(out_dir)
    with Journal(data_dir / "journal.sqlite3", read_only=True) as journal:
        records = journal.events(1)
    return steps_by_label(result), result, records


def test_a_hidden_history_holds_no_rows(shown):
    steps, _, _ = shown
    for label in ("resumed", "move while hidden"):
        assert steps[label]["screen"] == "dashboard"
        assert steps[label]["rows"] == 0 and steps[label]["more"] == [] and not steps[label]["window"], label
    assert steps["move while hidden"]["entry_count"] == MOVES + 2  # the start, 150 moves and the new one


def test_shown_it_holds_the_newest_page_and_a_row_for_the_older_entries(shown):
    steps, _, _ = shown
    step = steps["shown"]
    assert step["screen"] == "history" and step["window"]
    assert step["rows"] == PAGE
    assert [seq for seq, _, _ in step["first"]] == step["newest_entries"][::-1]
    assert all(in_force for _, in_force, _ in step["first"])
    assert step["more"] == [f"Show older entries ({step['entry_count'] - PAGE} more)"]


def test_a_move_and_an_undo_while_shown_update_the_rows_in_place(shown):
    steps, _, _ = shown
    before, moved, undone = steps["shown"], steps["move while shown"], steps["undone while shown"]
    assert moved["rows"] == PAGE  # the page stays a page: the oldest row goes
    assert moved["first"][0][0] == moved["newest_entries"][-1] and moved["first"][1] == before["first"][0]
    assert "CBA" in moved["first"][0][2] and "On the Air" in moved["first"][0][2]
    move_seq = moved["first"][0][0]
    seq, in_force, text = undone["first"][0]
    assert f"Undo: undid #{move_seq} " in text and in_force
    assert undone["first"][1][:2] == [move_seq, False] and "[undone]" in undone["first"][1][2]
    assert undone["line"] == moved["line"] - 1


def test_show_older_entries_reads_one_page_more(shown):
    steps, _, _ = shown
    older = steps["older page"]
    assert older["rows"] == 2 * PAGE
    assert older["more"] == [f"Show older entries ({older['entry_count'] - 2 * PAGE} more)"]
    assert older["first"] == steps["undone while shown"]["first"]


def test_a_tapped_row_jumps_back_and_leaving_drops_the_rows(shown):
    steps, result, records = shown
    tapped = result["tapped_seq"]
    assert result["confirm_title"] == f"Go back to right after #{tapped}?"
    jump = records[-2]  # the last is the End game of the BG Stats steps
    assert jump.type == "history_restored" and jump.payload["action"] == "jump" and jump.payload["to"] == tapped
    jumped = steps["jumped"]
    assert jumped["message"].startswith(f"Back to #{tapped}")
    assert jumped["first"][0][0] == jump.seq and f"  Back to #{tapped}: undid " in jumped["first"][0][2]
    shown_undone = [seq for seq in jump.payload["undone"] if str(seq) in jumped["flags"]]
    assert shown_undone and not any(jumped["flags"][str(seq)] for seq in shown_undone)
    assert jumped["flags"][str(tapped)] is True
    left = steps["left"]
    assert left["screen"] == "dashboard" and left["rows"] == 0 and not left["window"]


def test_the_bg_stats_button_refuses_a_game_in_play_and_writes_an_ended_one(shown):
    steps, _, records = shown
    refused, written = steps["bg stats refused"], steps["bg stats written"]
    assert refused["screen"] == "history"
    assert refused["message"].startswith("BG Stats export: game #1 (TV Wars) is not finished")
    assert records[-1].type == "game_ended"  # the End game posted after the refusal
    prefix = "Wrote game #1 for BG Stats to "
    assert written["message"].startswith(prefix), written["message"]
    path = Path(written["message"][len(prefix) :])
    assert path.parent.name == "exports" and path.name.endswith("-bgstats.json")
    play = json.loads(path.read_text(encoding="utf-8"))
    check_documented(play)  # the file the History screen writes holds BG Stats' documented fields only (issue 20, 6)
    assert play["game"]["name"] == "TV Wars" and play["game"]["bggId"] == 1031
    assert [p["name"] for p in play["players"]] == ["ABS", "CBA"] and not any(p["winner"] for p in play["players"])
    assert play["comments"].startswith("Ended at the table: bedtime")


def test_one_wheel_notch_moves_the_rows_a_useful_distance(shown):
    """#18: a mouse wheel notch moved a list 20 px (Kivy's default), a fraction of one 18 px row with its padding;
    one notch now moves about two rows."""
    _, result, _ = shown
    assert result["wheel_travel"] > 400  # a long list: the notch is not cut short by its end
    assert result["wheel_px"] >= 60, result["wheel_px"]
