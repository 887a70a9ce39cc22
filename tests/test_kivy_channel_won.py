"""The Channel WON board in the real Kivy app (Xvfb): a round played by synthetic touches and seat keys
(tests/kivy/drive_channel_won.py), the journal checked after, screenshots saved to test-artifacts/."""

import pytest
from PIL import Image

from companion.journal import Journal
from companion.session import GameSession

from kivy_driver import keep_artifacts, run_driver, steps_by_label

pytestmark = pytest.mark.kivy


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    data_dir, out_dir = tmp_path_factory.mktemp("data"), tmp_path_factory.mktemp("shots")
    result = run_driver("drive_channel_won.py", data_dir, out_dir)
    keep_artifacts(out_dir, "*.png", prefix="channel-won-")
    return data_dir, out_dir, result, steps_by_label(result)


def events(data_dir, game_id=1):
    with Journal(data_dir / "journal.sqlite3", read_only=True) as journal:
        return list(journal.events(game_id))


def test_board_starts_in_phase_1_with_five_categories_and_five_stars(played):
    _, _, _, steps = played
    new = steps["new game"]
    assert new["screen"] == "dashboard" and new["phase"] == 1 and new["turn"] == "Ava"
    assert sorted(new["lineup"]) == ["Business", "Crime", "Entertainment", "Politics", "Sports"]
    assert new["stars_text"] == "★★★★★" and new["stars"] == 5
    assert new["chips"]["Ava"] == ["0", "0/7", "▶", True]


def test_seat_button_collects_and_a_mashed_press_is_refused(played):
    _, _, _, steps = played
    mashed = steps["button mashed"]
    assert mashed["refused"] and "it is Ben's turn, not Ava's" in mashed["message"]
    assert mashed["hands"] == {"Ava": 1, "Ben": 0, "Cleo": 0}


def test_phase_2_starts_when_every_hand_holds_seven(played):
    _, _, _, steps = played
    assert steps["phase 2"]["phase"] == 2 and steps["phase 2"]["hands"] == {"Ava": 7, "Ben": 7, "Cleo": 7}
    assert steps["ability in phase 2"]["refused"] and "Phase 1" in steps["ability in phase 2"]["message"]


def test_lead_dialog_offers_the_catalogue_sources(played):
    _, _, result, _ = played
    dialog = result["dialog"]
    assert dialog["title"].startswith("Sports: Park upset Lead") and "Ava's turn" in dialog["title"]
    assert dialog["types"] == ["Athlete 3", "Coach 2"]
    assert dialog["clipped"] == [] and dialog["overlaps"] == []
    assert result["bonus_points"] == -1       # the printed Business Bonus value, pre-filled


def test_scoring_example_played_by_touch(played):
    """Scoring Example: the Coach brings the Lead to 2, the Bonus Business Source reduces it to 1."""
    data_dir, _, _, steps = played
    assert steps["coach"]["lineup"]["Sports"]["value"] == "2"
    assert steps["closed"]["lineup"]["Sports"]["state"] == "CLOSED"
    assert steps["bonus"]["lineup"]["Sports"]["value"] == "1"
    assert "Ava" in steps["bonus"]["lineup"]["Sports"]["who"] and "Ben" in steps["bonus"]["lineup"]["Sports"]["who"]
    played_sources = [(e.payload["player"], e.payload["category"], e.payload["points"], e.payload["bonus"])
                      for e in events(data_dir) if e.type == "source_played"]
    assert played_sources == [("Ben", "Sports", 2, False), ("Ava", "Business", -1, True)]


def test_bad_input_by_touch_is_refused_with_the_rule_and_changes_nothing(played):
    _, _, result, steps = played
    for label, words in (("source before location", "no Location yet"),
                         ("discredit open", "closed Leads only"),
                         ("second pass", "one pass per round")):
        step = steps[label]
        assert step["refused"] and words in step["message"] and "(Channel WON" in step["message"], step["message"]
    assert steps["source before location"]["lineup"] == steps["location"]["lineup"]
    assert steps["second pass"]["turn"] == "Ben" and result["ben_pass_disabled"] is True


def test_round_end_scores_stars_and_next_round(played):
    data_dir, _, _, steps = played
    after = steps["round 2"]
    assert after["round"] == 2 and after["phase"] == 1
    assert after["scores"] == {"Ava": 1, "Ben": 3, "Cleo": 2}
    assert after["stars"] == 2 and after["stars_text"] == "★★☆☆☆"
    assert after["turn"] == "Ava"             # fewest points first
    types = [e.type for e in events(data_dir)]
    assert types.count("lead_scored") == 5 and types.count("rating_dropped") == 3
    assert steps["undone"]["round"] == 1 and steps["undone"]["stars"] == 5


def test_six_reporters_and_channel_none(played):
    data_dir, _, _, steps = played
    six = steps["six"]
    assert len(six["lineup"]) == 6 and len(six["chips"]) == 6
    assert "CHANNEL NONE RISK" in six["status"]
    over = steps["channel none"]
    assert "Channel None" in over["status"] and over["turn"] is None
    last = events(data_dir, 2)[-1]
    assert last.type == "game_over" and last.payload["result"] == "channel_none"


def test_nothing_clipped_or_overlapping_on_any_board_step(played):
    _, _, result, _ = played
    for step in result["steps"]:
        assert step["overlaps"] == [], (step["label"], step["overlaps"])
        assert step["clipped"] == [], (step["label"], step["clipped"])
        assert step["board_size"][0] >= 780 and step["board_size"][1] >= 260


def test_panels_show_score_tiles_token_and_risk(played):
    data_dir, out_dir, _, _ = played
    image = Image.open(out_dir / "played-panel-1.png")
    assert image.size == (128, 64) and image.convert("L").getbbox() is not None
    with Journal(data_dir / "journal.sqlite3", read_only=True) as journal:
        session = GameSession(2, journal.events(2))
    view = session.rules.view(session.state)
    ava = view.players[0]
    assert ava.headline == "0 pts" and ava.panel_lines == ("Tiles 2 | Pass done", "Risk: Fluff")
