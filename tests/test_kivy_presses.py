"""Presses per game, counted (issue 18, "Done when"): in the real Kivy app under Xvfb, a three-player TV Wars game
(tests/kivy/drive_presses_tv_wars.py), a Death Show TV combat (drive_presses_death_show_tv.py) and a Channel WON
round (drive_presses_channel_won.py) each take no more touchscreen taps (``harness.TAPS``) and seat-button presses
(MockFactory pins, :meth:`harness.Driver.press`) than the constants below, and each reaches its end state, checked
in the journal. (The Telly Time set-up and the Ratings War screen are counted in test_kivy_telly_time.py and
test_kivy_war_screen.py.) Screenshots go to test-artifacts/ (``pr-*.png``)."""

import pytest
from kivy_driver import keep_artifacts, run_driver

from companion.journal import Journal
from companion.session import GameSession

pytestmark = pytest.mark.kivy


def journal_of(data_dir, game_id=1):
    with Journal(data_dir / "journal.sqlite3", read_only=True) as journal:
        return list(journal.events(game_id))


def payloads(records, kind):
    return [r.payload for r in records if r.type == kind]


# -- TV Wars: a whole three-player game -------------------------------------------------------------------------
#: The set-up (2.3, 2.5): one Roll press per roll-off die (3 with no tie), and per network its private dialog
#: (open, "I am", Enter: 3 taps) plus one -10/+10 tap per 10 RP each dealt rating lies from the dialog's 50 and
#: one for a Special: 3 x 3 + 22 + 17 + 18 = 66 taps for the driver's dealt ratings.
TVW_SET_UP_TAPS = 66
#: A Television Production Company turn with its auction (3.1, 4): landed on + the space (2), Nominate a program,
#: 60 min, Drama, Nominate (4), then the auction on the seat buttons: one press per bid or pass (3 for one bid
#: and two passes), then the buyer's rating behind its look-away gate: enter the value, I am, the rating (3).
TVW_AUCTION_TURN = (9, 3)
#: A Sponsor turn (9.4): the seat's Sponsor button is the landing: one press, no tap.
TVW_SPONSOR_TURN = (0, 1)
#: A Critics' Choice turn (5.3): landed on + the space (2), enter the value + I am (2), the value's sign (if
#: negative), tens and units (each only if not 0: the pad starts at +0) and Enter: at most 8 taps. Before the pad
#: (a stepper from 0 by -10/+10 and -1/+1) the driver's ten values took 113 taps; with it, 70.
TVW_CRITICS_CHOICE_TURN_MAX = 8
TVW_CRITICS_CHOICE_TURNS = 70
#: The line-ups of three networks (6): per network its line-up, I am, the programs from 8:00 (the driver takes the
#: longest that fit: a 120- and a 60-minute program, 2 taps) and Lock in: 15 taps.
TVW_LINE_UP_TAPS = 15
#: From the reveal to the board (6): Reveal, one Roll press per die the war asks for, Back to the board (2 taps;
#: before, a war that needed no dice skipped its summary: 1 tap, the results only in the message line).
TVW_WAR_TAPS = 2
#: The end (5.32, 8): landed on + Critics' Choice (2), one Roll press per Special counted (PBC's), Assets and
#: winner (1).
TVW_END = (3, 1)
#: The whole game as the driver plays it: set-up, 14 turns, one Ratings War, the asset count.
TVW_GAME = (167, 8)


@pytest.fixture(scope="module")
def tv_wars(tmp_path_factory):
    data_dir, out_dir = tmp_path_factory.mktemp("data"), tmp_path_factory.mktemp("shots")
    result = run_driver("drive_presses_tv_wars.py", data_dir, out_dir)
    keep_artifacts(out_dir, "pr-tvw-*.png")
    return result, journal_of(data_dir)


def test_a_three_player_tv_wars_game_is_played_to_its_end_by_taps_and_seat_buttons(tv_wars):
    result, records = tv_wars
    session = GameSession(1, records)
    assert session.state.finished
    ended = payloads(records, "game_ended")
    assert len(ended) == 1 and ended[0]["rule"] == "TV Wars 5.32"
    assert set(ended[0]["assets"]) == {"ABS", "CBA", "PBC"} and ended[0]["winners"]
    assert any("WINNER" in text for text in result["assets"])
    assert not any(mark["refused"] for mark in result["marks"].values())
    assert not any(turn["refused"] for turn in result["turns"])
    # every Critics' Choice value went in as printed (5.3), in turn order
    drawn = [p["tile"]["value"] for p in payloads(records, "bonus_acquired") if p["tile"]["kind"] == "critics_choice"]
    assert drawn == result["cc_values"]
    spaces = [turn["space"] for turn in result["turns"]]
    assert spaces == ["television_production_company", "sponsor", "ratings_war"] + ["critics_choice"] * 11
    assert [p["network"] for p in payloads(records, "ratings_war_lineup_locked")] == ["ABS", "CBA", "PBC"]
    assert payloads(records, "ratings_war_ended")


def test_tv_wars_presses_per_phase(tv_wars):
    result, records = tv_wars
    phases, turns = result["phases"], result["turns"]
    rolls = payloads(records, "dice_rolled")
    roll_off = [p for p in rolls if p["rule"] == "TV Wars 2.5"]
    assert len(roll_off) >= 3 and all(p["by"] == "button" for p in rolls)  # every die from a seat's Roll button
    assert phases["set-up"] == {"taps": TVW_SET_UP_TAPS, "presses": len(roll_off)}
    assert turns[0]["taps"] <= TVW_AUCTION_TURN[0] and turns[0]["presses"] <= TVW_AUCTION_TURN[1]
    assert (turns[1]["taps"], turns[1]["presses"]) == TVW_SPONSOR_TURN
    assert (turns[2]["taps"], turns[2]["presses"]) == (2, 0)  # landed on Ratings War
    draws = turns[3:13]
    assert all(turn["taps"] <= TVW_CRITICS_CHOICE_TURN_MAX and turn["presses"] == 0 for turn in draws)
    assert sum(turn["taps"] for turn in draws) <= TVW_CRITICS_CHOICE_TURNS
    assert phases["line-ups"] == {"taps": TVW_LINE_UP_TAPS, "presses": 0}
    types = [r.type for r in records]
    revealed, ended = types.index("ratings_war_revealed"), types.index("ratings_war_ended")
    war_dice = types[revealed:ended].count("dice_rolled")
    assert phases["ratings war"] == {"taps": TVW_WAR_TAPS, "presses": war_dice}
    assert phases["end"]["taps"] <= TVW_END[0] and phases["end"]["presses"] <= TVW_END[1]
    whole = phases["whole game"]
    assert whole["taps"] <= TVW_GAME[0] and whole["presses"] <= TVW_GAME[1]
    print(f"TV Wars: {whole} in all; {phases}; turns {[(t['space'], t['taps'], t['presses']) for t in turns]}")


def test_a_ratings_war_resolved_at_the_reveal_still_shows_its_summary(tv_wars):
    """No Special, no tie: the reveal resolves the whole war (6.8) and no dice are asked for; the board still
    shows what each network lost and kept until Back to the board (before, it went straight back to the
    cards)."""
    result, records = tv_wars
    types = [r.type for r in records]
    assert "dice_rolled" not in types[types.index("ratings_war_called") : types.index("ratings_war_ended")]
    summary = result["war_summary"]
    assert summary[0].startswith("[b]After the Ratings War")
    assert sum("TV Wars 6.8" in line for line in summary) >= 1
    assert result["violations"] == []


def test_a_critics_choice_value_outside_5_3_is_refused_in_the_dialog(tv_wars):
    result, _ = tv_wars
    refused = result["out_of_range"]
    assert refused["open"] and refused["value"] == 39 and refused["journaled"] == 0
    assert refused["problem"].startswith("Refused: ")
    assert result["value_dialog"] == result["cc_values"][0]


# -- Death Show TV: a combat, from the Hunt to the Loot ---------------------------------------------------------
#: From the tap that starts it to Back to the island: the tap on the occupied Location (a Hunt, Phases of a Turn 2;
#: before, a confirmation dialog took a second tap), the attacker's show cards..., two + for a Weapon +2 and
#: Confirm (4), the defender's seat buttons Bonus +1 and Confirm (2 presses), one Roll press per die (2), the
#: result with the Loot (How Combat Is Resolved 1-5) and Back to the island (1): 6 taps (7 before), 4 presses.
DST_COMBAT = (6, 4)


@pytest.fixture(scope="module")
def death_show(tmp_path_factory):
    data_dir, out_dir = tmp_path_factory.mktemp("data"), tmp_path_factory.mktemp("shots")
    result = run_driver("drive_presses_death_show_tv.py", data_dir, out_dir)
    keep_artifacts(out_dir, "pr-dst-*.png")
    return result, journal_of(data_dir)


def test_a_death_show_tv_combat_from_the_hunt_to_the_loot(death_show):
    result, records = death_show
    marks = result["marks"]
    taps = marks["after"]["taps"] - marks["before"]["taps"]
    presses = marks["after"]["presses"] - marks["before"]["presses"]
    counted = [(label, mark["taps"], mark["presses"]) for label, mark in marks.items()]
    print(f"Death Show TV combat: {taps} taps, {presses} presses; marks {counted}")
    assert taps <= DST_COMBAT[0] and presses <= DST_COMBAT[1]
    assert marks["hunted"]["taps"] - marks["before"]["taps"] == 1 and marks["hunted"]["combat"]  # one tap, a Hunt
    assert not any(mark["refused"] for mark in marks.values())
    types = [r.type for r in records]
    combat = records[types.index("combat_started") :]
    assert combat[0].payload["kind"] == "hunt"
    assert [r.payload["fighter"] for r in combat if r.type == "fighter_declared"] == ["Elena", "Kelpie"]
    rolls = [r.payload for r in combat if r.type == "dice_rolled"]
    assert len(rolls) == 2 and all(p["by"] == "button" for p in rolls)  # one Roll press per die
    resolved = next(r.payload for r in combat if r.type == "combat_resolved")
    assert resolved["winners"] == ["Elena"] and resolved["losers"] == ["Kelpie"]
    loot = [r.payload for r in combat if r.type == "cards_moved"]
    assert [(p["from"], p["to"], p["count"]) for p in loot] == [("Kelpie", "Elena", 1)]
    state = GameSession(1, records).state
    assert state.combat is None and state.contestant("Kelpie").vitality == 3
    assert marks["after"]["mode"] == "island" and marks["resolved"]["mode"] == "combat"


# -- Channel WON: a round -----------------------------------------------------------------------------------------
#: Phase 1 (Collecting Sources): one tap per card, 7 per reporter: 21.
CW_PHASE_1_TAPS = 21
#: Phase 2 (Reporting on Stories) as the driver plays it: a Lead's column and its dialog's button per play (2; a
#: Source of a catalogue Lead its type and Play: 3; a Bonus Source its category and Play: 3), 7 plays in 16 taps,
#: and one Pass press each for Ben and Ava (2).
CW_PHASE_2 = (16, 2)
#: End of Round: Done on Ava's and Ben's seat buttons (2 presses), Cleo's Done tap, and Close on the results
#: that opened by themselves (2 taps).
CW_END = (2, 2)
#: The whole round.
CW_ROUND = (39, 4)


@pytest.fixture(scope="module")
def channel_won(tmp_path_factory):
    data_dir, out_dir = tmp_path_factory.mktemp("data"), tmp_path_factory.mktemp("shots")
    result = run_driver("drive_presses_channel_won.py", data_dir, out_dir)
    keep_artifacts(out_dir, "pr-cw-*.png")
    return result, journal_of(data_dir)


def test_a_channel_won_round_from_the_first_card_to_its_results(channel_won):
    result, records = channel_won
    marks = result["marks"]

    def between(start, end):
        return (marks[end]["taps"] - marks[start]["taps"], marks[end]["presses"] - marks[start]["presses"])

    phase_1, phase_2, end, whole = (
        between("start", "phase 2"),
        between("phase 2", "played"),
        between("played", "end"),
        between("start", "end"),
    )
    print(f"Channel WON round: {whole}; Phase 1 {phase_1}, Phase 2 {phase_2}, end {end}")
    assert phase_1 == (CW_PHASE_1_TAPS, 0)
    assert phase_2[0] <= CW_PHASE_2[0] and phase_2[1] <= CW_PHASE_2[1]
    assert end[0] <= CW_END[0] and end[1] <= CW_END[1]
    assert whole[0] <= CW_ROUND[0] and whole[1] <= CW_ROUND[1]
    assert not any(mark["refused"] for mark in marks.values())
    assert marks["phase 2"]["hands"] == {"Ava": 7, "Ben": 7, "Cleo": 7}
    assert marks["scored"]["popup"] == "Round 1 results" and marks["end"]["popup"] == ""
    types = [r.type for r in records]
    assert types.count("card_collected") == 21 and types.count("player_done") == 3
    assert [p["by"] for p in payloads(records, "passed")] == ["button", "button"]
    scored = {p["lead"]: p for p in payloads(records, "lead_scored")}
    assert scored["Sports"]["value"] == 1 and scored["Crime"]["value"] == 2
    state = GameSession(1, records).state
    assert (state.round, state.phase) == (2, 1)
    assert state.scores == {"Ava": 1, "Ben": 3, "Cleo": 2}
