"""The Ratings War as the table's screen (#18 item 2; ui/games/tv_wars/war_screen.py, driven by
tests/kivy/drive_war_screen.py in the real Kivy app under Xvfb): from the reveal the grid takes the network
cards' place; the Preemption is chosen on the grid with a preview that journals nothing (TV Wars 9.91); each
cell shows its running score and its program's exact chance of surviving (6.4-6.8, 3.3); a tap opens a cell's
whole text; once the war is over, a summary of what each network lost and kept (6.2, 6.8) until *Back to
the board*. Every stage passes the layout audit (800x480). Screenshots go to test-artifacts/."""

import pytest
from kivy_driver import keep_artifacts, run_driver

from companion.journal import Journal

pytestmark = pytest.mark.kivy


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    data_dir, out_dir = tmp_path_factory.mktemp("data"), tmp_path_factory.mktemp("shots")
    result = run_driver("drive_war_screen.py", data_dir, out_dir)
    keep_artifacts(out_dir)
    with Journal(data_dir / "journal.sqlite3", read_only=True) as journal:
        records = journal.events(1)
    return result, records


def test_6_the_cards_until_the_reveal_then_the_war_grid_in_their_place(played):
    result, _ = played
    grids = result["grids"]
    assert grids["locked"]["mode"] == "" and grids["locked"]["cards_shown"]
    assert grids["preemption"]["mode"] == "grid" and not grids["preemption"]["cards_shown"]
    cells = grids["preemption"]["cells"]
    assert len(cells) == 6 * 3  # six half-hours, three networks
    assert cells["0 ABS"][0] and cells["1 ABS"][0].startswith("(")  # a program's later half-hours in brackets


def test_9_91_the_preemption_is_chosen_on_the_grid_with_a_preview_that_journals_nothing(played):
    result, records = played
    grids, prompts = result["grids"], result["prompts"]
    assert all("tap" in text for text in grids["preemption"]["slots"])  # the half-hours are the choice
    assert grids["preemption"]["actions"] == ["ABS: tap an hour first", "ABS: do not play it"]
    assert "TV Wars 9.91" in prompts["preemption"]
    preview = grids["preview"]["cells"]
    assert all("Preempted" in preview[f"{slot} {n}"][1] for slot in (2, 3) for n in ("ABS", "CBA", "PBC"))
    assert not any("Preempted" in preview[f"{slot} ABS"][1] for slot in (0, 1, 4, 5))
    assert grids["preview"]["actions"][0] == "ABS preempts 9:00-10:00"
    assert result["events"]["preview"] == result["events"]["preemption"]  # the preview posted nothing
    decided = [r.payload for r in records if r.type == "ratings_war_preemption"]
    assert [(p["network"], p["start"]) for p in decided] == [("ABS", 2)]


def test_6_running_scores_and_exact_survival_odds_in_the_cells_before_the_dice(played):
    result, _ = played
    dice = result["grids"]["dice"]["cells"]
    figures = [figure for _, figure in dice.values()]
    assert any("% safe" in figure for figure in figures), figures  # open fates: a percentage
    assert any("2d6x10" in figure for figure in figures)  # a Special not rolled yet (3.3)
    assert any(figure.startswith("[b]") for figure in figures)  # a score (28 px, bold)
    dialog = result["cell_dialog"]
    assert dialog[0] == "CBA, 8:00-8:30: SPECIAL"
    assert any("TV Wars 3.3" in line for line in dialog)
    assert any(line.startswith("Chance the program survives the war:") for line in dialog)


def test_6_2_6_8_the_summary_says_what_each_network_lost_and_kept_until_dismissed(played):
    result, records = played
    summary = result["grids"]["summary"]
    assert summary["mode"] == "summary" and not summary["cards_shown"]
    texts = summary["summary"]
    for network in ("ABS", "CBA", "PBC"):
        assert f"[b]{network}[/b]" in texts
    lines = [t for t in texts if t.startswith("lost")]
    assert len(lines) == 3 and all("\nkept" in t for t in lines)
    cancelled = sum(1 for r in records if r.type == "ratings_war_slot_resolved" and r.payload["slot"]["cancelled"])
    assert sum(t.split("\n")[0].count("TV Wars 6.8") for t in lines) == cancelled  # one line per cancellation
    assert "Preemption back in play (TV Wars 9.91, 9.9)" in lines[0]
    assert summary["actions"][0] == "Back to the board"
    dismissed = result["grids"]["dismissed"]
    assert dismissed["mode"] == "" and dismissed["cards_shown"]


def test_every_war_screen_passes_the_layout_audit(played):
    result, _ = played
    assert result["violations"] == []


def test_a_war_with_a_preemption_takes_four_taps_and_one_per_roll(played):
    """Counted by the driver's taps (tests/kivy/harness.py TAPS) from *Reveal* to *Back to the board*: Reveal,
    an hour on the grid, the confirmation, one *Roll* per die the war asks for, Back to the board; plus the one
    cell the driver opened to read (optional at the table)."""
    result, records = played
    rolls = sum(1 for r in records if r.type == "ratings_war_dice_rolled")
    assert rolls >= 1
    assert result["taps_after_war"] - result["taps_before_reveal"] == 4 + rolls + 1
