"""The Death Show TV board in the real Kivy app (Xvfb): a game played through synthetic touches on the island,
the combat screen and the dialogs (tests/kivy/drive_death_show_tv.py); screenshots go to test-artifacts/.
Asserts what the board showed, that nothing on it overlapped or was cut off, and what the journal holds."""

import pytest
from kivy_driver import keep_artifacts, run_driver, steps_by_label

from companion.journal import Journal
from companion.session import GameSession

pytestmark = pytest.mark.kivy


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    data_dir, out_dir = tmp_path_factory.mktemp("data"), tmp_path_factory.mktemp("shots")
    result = run_driver("drive_death_show_tv.py", data_dir, out_dir)
    keep_artifacts(out_dir, "dst-*.png")
    return data_dir, out_dir, steps_by_label(result)


def test_every_screen_was_captured_with_nothing_overlapping_or_cut_off(played):
    _, out_dir, steps = played
    for name in (
        "01-roll-off",
        "02-island-moved",
        "03-hunt",
        "04-combat-declare",
        "05-declare-popup",
        "06-combat-odds",
        "07-combat-result",
        "08-island-after",
        "09-event-popup",
        "10-death-result",
        "05a-declare-refused",
        "06b-combat-rolling",
        "09a-event-refused",
        "11-remove-location",
        "12-removed",
        "13-refused",
        "14-card-effects-popup",
        "15-eight-discard",
        "16-eight-players",
        "17-deck-empty",
    ):
        assert (out_dir / f"dst-{name}.png").stat().st_size > 5000, name
    for label, step in steps.items():
        if "overlaps" not in step:  # a dialog's snapshot
            assert step["popup_clipped"] == [], (label, step["popup_clipped"])
            continue
        assert step["overlaps"] == [], (label, step["overlaps"])
        assert step["clipped"] == [], (label, step["clipped"])
        assert step["board_size"][0] >= 780 and step["board_size"][1] >= 250, (label, step["board_size"])


def test_island_taps_move_and_hunt(played):
    _, _, steps = played
    assert steps["first turn"]["status"].startswith("Kelpie's turn 1, Draw Phase")
    moved = steps["kelpie moved"]
    assert "Kelpie moves from off the island to The Caves" in moved["message"]
    assert moved["mode"] == "island" and "Kelpie" in " ".join(moved["texts"])
    declare = steps["combat declare"]
    assert declare["mode"] == "combat" and declare["cards"]["Rex"] == 3  # drew one, played a Trail
    assert "Rex: show cards…" in declare["texts"]


def test_combat_screen_shows_odds_then_the_breakdown(played):
    _, _, steps = played
    odds = steps["combat odds"]["texts"]
    assert "win 75%\nlose 17%" in odds and "win 17%\nlose 75%" in odds  # Rex d6+3 against Kelpie d6
    result = steps["combat result"]
    assert "Rex wins; Kelpie loses" in result["texts"]
    assert "5 (die)\n+ 2 Weapon\n+ 1 Card 1" in result["texts"] and "8" in result["texts"]
    assert result["vitality"]["Kelpie"] == 1
    assert steps["island after"]["mode"] == "island"


def test_event_death_and_removal_of_a_location(played):
    _, _, steps = played
    death = steps["death result"]
    assert "Killer Squirrels" in death["texts"] and death["vitality"]["Kelpie"] == 0
    assert any("Kelpie died: Rex removes a Location" in t for t in death["texts"])
    assert steps["remove prompt"]["status"] == "Rex removes an unoccupied Location (Kelpie died; The Island Shrinks)"
    refused = steps["remove occupied refused"]
    assert refused["refused"] and "occupied by Rex" in refused["message"]
    assert steps["removed"]["removed"] == ["Turtle Beach"]
    moved = steps["move to removed refused"]
    assert moved["refused"] and "Turtle Beach has been removed" in moved["message"]
    # from legal_commands: Jhon is alone on The Bunker, so Fight is shown disabled and his own Location is not
    # marked; every other Location in play is (Move to the empty ones, Hunt on Elena's and Rex's)
    assert "Fight here" in moved["disabled"], moved["disabled"]
    assert sorted(moved["marked"]) == sorted(
        ["Forest of Screams", "Dense Forest", "Monkey Forest", "The Lighthouse", "The Caves", "Bloody Beach"]
        + ["Paradise Beach"]
    ), moved["marked"]
    assert steps["card effect"]["cards"]["Jhon"] == 6


def test_eight_contestants_and_the_discard_phase(played):
    _, _, steps = played
    discard = steps["eight discard"]
    assert "Discard Phase" in discard["status"] and "Kelpie \u22121" in discard["texts"]
    assert steps["eight players"]["cards"]["Kelpie"] == 7
    assert len([t for t in steps["eight players"]["texts"] if t.startswith("\u2665")]) == 8


def test_the_journal_holds_the_game_as_played(played):
    data_dir, _, _ = played
    with Journal(data_dir / "journal.sqlite3") as journal:
        first = journal.games()[-1] if journal.games()[-1].id == 1 else journal.game(1)
        session = GameSession(first.id, journal.events(first.id))
        types = [r.type for records in session.moves.values() for r in records]
    state = session.state
    assert not state.contestant("Kelpie").alive and state.location("Turtle Beach").removed
    assert types.count("combat_resolved") == 2 and "location_removed" in types
    assert state.location("The Bunker").rule == "Our note: no Events here"


def test_a_refused_declaration_keeps_the_dialog_open_with_the_reason_and_what_was_entered(played):
    _, _, steps = played
    refused = steps["declare refused"]
    assert refused["popup_open"], refused
    assert any("Rex holds 3 cards, so cannot show 4" in t for t in refused["popup_texts"]), refused["popup_texts"]
    assert any("from 3 cards" in t for t in refused["popup_texts"])  # what was entered is still there
    assert refused["cards"]["Rex"] == 3  # nothing was posted
    accepted = steps["declare accepted"]
    assert not accepted["popup_open"] and accepted["cards"]["Rex"] == 1  # a Weapon and 1 card shown


def test_a_refused_event_keeps_its_dialog_open_and_a_disabled_play_button_says_why(played):
    _, _, steps = played
    assert "Choose whom it attacks" in steps["event no target"]["popup_texts"]
    refused = steps["event refused"]
    assert refused["popup_open"]
    assert any("Kelpie, Jhon are not together" in t for t in refused["popup_texts"]), refused["popup_texts"]


def test_after_the_event_the_button_and_hint_say_it_was_played(played):
    _, _, steps = played
    removed = steps["removed"]
    assert "Event played" in removed["texts"] and "Event\u2026" not in removed["texts"]
    assert "Event played" in removed["disabled"] and "End turn" not in removed["disabled"]
    assert "Rex played their Event: end the turn" in removed["texts"]
    assert removed["status"].endswith("Rex has played their Event: end the turn")


def test_a_dead_contestants_seat_button_is_refused_as_dead(played):
    _, _, steps = played
    step = steps["dead button refused"]
    assert step["refused"] and "Kelpie is dead (out of the game)" in step["message"], step["message"]


def test_the_odds_before_the_dice_stay_with_the_odds_given_the_first_die(played):
    _, _, steps = played
    rolling = steps["rex rolled"]["texts"]
    assert "win 75% \u2192 100%\nlose 17% \u2192 0%" in rolling, rolling  # Rex rolled 5: 8 beats any d6
    assert "win 17% \u2192 0%\nlose 75% \u2192 100%" in rolling


def test_the_card_effects_dialog_disables_what_the_rules_refuse(played):
    _, _, steps = played
    step = steps["card effects"]
    assert step["popup_open"]
    assert step["popup_disabled"] == ["Jhon: regains 1 \u2665"], step["popup_disabled"]  # Vitality 2 of 2


def test_the_card_effects_button_has_a_short_label(played):
    _, _, steps = played
    assert "Card effects" in steps["island after"]["texts"]
    assert not any(t.startswith("Cards /") for step in steps.values() for t in step.get("texts", []))


def test_the_board_says_when_the_show_deck_runs_out_and_reshuffles_it(played):
    """Running Out of Show Cards: the island's deck line warns once the deck is empty; Reshuffle refills it."""
    _, _, steps = played
    empty = " | ".join(steps["deck empty"]["texts"])
    assert "Deck empty: reshuffle 10 discards (Running Out of Show Cards)" in empty
    assert "Reshuffle" in steps["deck empty"]["texts"]
    after = " | ".join(steps["reshuffled"]["texts"])
    assert "Show deck 10 · discards 0" in after and "Reshuffle" not in steps["reshuffled"]["texts"]
    assert "shuffled into a new deck" in steps["reshuffled"]["message"]
