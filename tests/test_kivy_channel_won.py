"""The Channel WON board in the real Kivy app (Xvfb): a round played by synthetic touches and seat keys
(tests/kivy/drive_channel_won.py), the journal checked after, screenshots saved to test-artifacts/."""

import pytest
from kivy_driver import keep_artifacts, run_driver, steps_by_label
from PIL import Image

from companion.journal import Journal
from companion.session import GameSession

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
    assert new["chips"]["Ava"] == ["0", "", "0/7", "▶", True]


def test_seat_button_collects_and_a_mashed_press_is_refused(played):
    _, _, _, steps = played
    mashed = steps["button mashed"]
    assert mashed["refused"] and "it is Ben's turn, not Ava's" in mashed["message"]
    assert mashed["hands"] == {"Ava": 1, "Ben": 0, "Cleo": 0}


def test_phase_2_starts_when_every_hand_holds_seven(played):
    _, _, _, steps = played
    assert steps["phase 2"]["phase"] == 2 and steps["phase 2"]["hands"] == {"Ava": 7, "Ben": 7, "Cleo": 7}
    assert steps["phase 2"]["chips"]["Ava"] == ["0", "■■■", "7/7", "▶", True]
    assert steps["ability in phase 2"]["refused"] and "Phase 1" in steps["ability in phase 2"]["message"]
    assert played[2]["ability_button"] == ["Ability\nPhase 1 only", True]


def test_lead_dialog_offers_the_catalogue_sources(played):
    _, _, result, _ = played
    dialog = result["dialog"]
    assert dialog["title"].startswith("Sports: Park upset Lead") and "Ava's turn" in dialog["title"]
    assert dialog["types"] == ["Athlete 3", "Coach 2"]
    assert dialog["clipped"] == [] and dialog["overlaps"] == []
    assert result["bonus_points"] == -1  # the printed Business Bonus value, pre-filled


def test_scoring_example_played_by_touch(played):
    """Scoring Example: the Coach brings the Lead to 2, the Bonus Business Source reduces it to 1."""
    data_dir, _, _, steps = played
    assert steps["coach"]["lineup"]["Sports"]["value"] == "2"
    assert steps["closed"]["lineup"]["Sports"]["state"] == "CLOSED"
    assert steps["bonus"]["lineup"]["Sports"]["value"] == "1"
    assert "Ava" in steps["bonus"]["lineup"]["Sports"]["who"] and "Ben" in steps["bonus"]["lineup"]["Sports"]["who"]
    played_sources = [
        (e.payload["player"], e.payload["category"], e.payload["points"], e.payload["bonus"])
        for e in events(data_dir)
        if e.type == "source_played"
    ]
    assert played_sources == [("Ben", "Sports", 2, False), ("Ava", "Business", -1, True)]


def test_bad_input_by_touch_is_refused_with_the_rule_and_changes_nothing(played):
    _, _, result, steps = played
    assert result["no location dialog"]["buttons"]["play_source"][0] is True
    assert result["discredit_disabled"] is True
    for label, words in (
        ("source before location", "no Location yet"),
        ("discredit open", "closed Leads only"),
        ("second pass", "one pass per round"),
    ):
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
    assert after["turn"] == "Ava"  # fewest points first
    types = [e.type for e in events(data_dir)]
    assert types.count("lead_scored") == 5 and types.count("rating_dropped") == 3
    assert steps["undone"]["round"] == 1 and steps["undone"]["stars"] == 5


def test_six_reporters_and_channel_none(played):
    data_dir, _, _, steps = played
    six = steps["six"]
    assert len(six["lineup"]) == 6 and len(six["chips"]) == 6
    assert all(lead["parts_room"] >= 2 for lead in six["lineup"].values()), six["lineup"]
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
    view = session.rules.public_view(session.state)
    ava = view.players[0]
    assert ava.headline == "0 pts" and ava.panel_lines == ("Tiles 2 | Pass done", "Risk: Fluff")


def test_hand_counts_stay_on_the_reporter_chips_in_phase_2(played):
    """Phase 2: each chip shows its tiles and the cards left in hand, readable (20sp) from a metre away."""
    _, _, _, steps = played
    played_step = steps["crime closed"]
    hands = played_step["hands"]
    for name, (score, tiles, hand, token, turn) in played_step["chips"].items():
        assert hand == f"{hands[name]}/7" and len(tiles) == 3
    for text, font_size, opacity, width in played_step["hand_labels"].values():
        assert font_size >= 20 and opacity == 1 and width > 20
    six = steps["six"]  # six chips: the count alone ("/7" does not fit beside the tiles)
    assert {name: label[0] for name, label in six["hand_labels"].items()} == {
        name: str(hand) for name, hand in six["hands"].items()
    }
    assert all(opacity == 1 and width > 10 for _, _, opacity, width in six["hand_labels"].values())


def test_closed_lead_dialog_disables_what_the_rules_forbid_with_the_reason(played):
    _, _, result, _ = played
    closed = result["closed dialog"]["buttons"]
    for name, reason in (
        ("location", "has its Location"),
        ("security_footage", "has its Location"),
        ("star_witness", "Lead is closed"),
        ("close", "already closed"),
    ):
        disabled, text = closed[name]
        assert disabled and reason in text, (name, text)
    assert not closed["discredit"][0] and not closed["final_touch"][0]
    fresh = result["open dialog"]["buttons"]  # the Sports Lead before its Location
    assert not fresh["location"][0] and not fresh["close"][0] and not fresh["security_footage"][0]
    assert fresh["star_witness"][0] and "needs its Location" in fresh["star_witness"][1]
    assert fresh["discredit"][0] and "closed Leads only" in fresh["discredit"][1]
    assert fresh["play_source"][0] and "needs its Location" in fresh["play_source"][1]
    for key in ("open dialog", "closed dialog", "no location dialog"):
        assert result[key]["clipped"] == [] and result[key]["overlaps"] == [], key


def test_source_value_starts_at_the_lowest_and_shows_the_range(played):
    _, _, result, _ = played
    crime = result["no location dialog"]  # no catalogue for Crime
    assert crime["points"] == 1 and crime["range"] == "1 to 10"
    assert "Play Source  1" in crime["buttons"]["play_source"][1]
    assert result["closed dialog"]["range"] == "1 to 10"
    assert result["bonus_points"] == -1


def test_round_results_open_when_the_round_is_scored_and_reopen_until_the_first_action(played):
    _, _, result, steps = played
    opened = result["results opened"]
    assert opened["title"] == "Round 1 results"
    rows = {label: (value, words) for label, value, words in opened["rows"]}
    assert set(steps["round 2"]["lineup"]) <= set(rows)  # one row per Lead
    assert rows["Sports"][0] == "1" and "2 Coach - 1 Business bonus. Reported: " in rows["Sports"][1]
    assert rows["Stars"] == ("2", "5 → 2 of 5: 3 unreported Leads, one star each")
    assert rows["Round 2"][1].startswith("Order: Ava")
    assert opened["clipped"] == [] and min(opened["font_sizes"]) >= 20
    assert result["results_closed"]
    assert steps["round 2"]["results_button"] == ["Round 1\nresults", 1, False]
    assert result["results reopened"]["rows"] == opened["rows"]
    assert steps["round 2 first card"]["results_button"][1:] == [0, True]
    assert steps["first card undone"]["results_button"][1:] == [1, False]
    none = result["channel none results"]
    assert none["rows"][-1][0] == "Game over" and "Channel None" in none["rows"][-1][2]
    assert steps["channel none"]["results_button"][1:] == [1, False]


def test_categories_in_play_are_shown_when_some_are_left_out(played):
    _, _, _, steps = played
    assert (
        steps["new game"]["categories_note"] == "5 of 6 categories in play; left out: Fluff (set-up option categories)"
    )
    assert steps["phase 2"]["categories_note"] == "" and steps["six"]["categories_note"] == ""


def test_the_board_says_when_a_deck_is_empty_and_to_reshuffle_its_discards(played):
    """Trey DeMark's power discards the Location row; two Locations later the deck is empty and the board says
    to reshuffle the discards (ruling Decks); the next Location taken records the reshuffle."""
    data_dir, _, _, steps = played
    empty = steps["deck empty"]
    assert (
        empty["decks_note"]
        == "Location deck empty: reshuffle the 5 discards (rule: Prepping the Next Round; ruling Decks)"
    )
    assert empty["take_buttons"]["location"] == ["Location\n0 + 5 up", False]
    assert empty["clipped"] == [] and empty["overlaps"] == []
    after = steps["reshuffled"]
    assert after["decks_note"] == "" and after["take_buttons"]["location"][0] == "Location\n4 + 5 up"
    types = [e.type for e in events(data_dir, 3)]
    assert types[1:3] == ["ability_used", "row_replaced"] and types[-2:] == ["deck_reshuffled", "card_collected"]


def test_the_early_bird_button_says_the_player_who_just_acted_acts_again(played):
    """Early Bird: "an additional action on the same turn immediately after taking an action": the button is
    the previous player's and says so ("Early Bird / Ben again"), not a bare name beside the next turn."""
    _, _, result, _ = played
    enabled = [s["early_bird"] for s in result["steps"] if s["phase"] == 2 and not s["early_bird"][1]]
    assert enabled, "no step offered Early Bird"
    for text, _, last_actor in enabled:
        assert text == f"Early Bird\n{last_actor} again"


def test_security_footage_is_named_whole_on_the_narrowest_lead_card(played):
    """Channel WON's Inside Scoop Security Footage is played in place of a Location (rulebook, "Security
    Footage"); six reporters make the narrowest Lead cards (133 px landscape), where its name does not fit on one
    line at 18 px: it takes a second line rather than being cut to "Securit…ootage" (the layout audit of the
    shot "cw-security-footage" fails on any cut text), and the parts below still have a line."""
    _, _, _, steps = played
    step = steps["security footage"]
    assert len(step["lineup"]) == 6 and step["phase"] == 2
    politics = step["lineup"]["Politics"]
    assert politics["location"] == "Security Footage" and politics["location_lines"] == 2, politics
    assert politics["parts_room"] >= 1, politics
    others = [lead for category, lead in step["lineup"].items() if category != "Politics"]
    assert all(lead["location"] == "no Location" and lead["location_lines"] == 1 for lead in others), others
