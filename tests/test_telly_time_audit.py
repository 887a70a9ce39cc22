"""Telly Time: the defects of issue #19's audit, each checked against the rulebook's words
(rules/the-networks-telly-time.txt; rulings in docs/rulings-telly-time.md), through the real Table and journal.

* "Telly Time Pilot Season" + "Wild Timeslots": a Pilot Season show may have two preferred timeslots or ANY;
* "Wild Timeslots": a moved show keeps its preferred timeslots, so no penalty where the rule forbids one;
* "Telly Time Clarifications", Writeoff: a Chat show counts the other stars' bonus, a Quiz show no bonus viewers;
* "End-Game Scoring": the Genres row is ignored however its name is written.
"""

from __future__ import annotations

import pytest
from telly_time_helpers import accepted, refused, start

from companion.errors import IllegalCommand, MalformedCommand
from companion.games.telly_time import (
    ChoosePilotShow,
    KeepPilotCards,
    MoveShow,
    Pass,
    PilotCard,
    ProduceShow,
    ScoreEndGame,
    ScoreLineup,
    ShowScore,
    StartSeason,
    Writeoff,
)

WILD = "Telly Time: Wild Timeslots"
PILOT = "Telly Time: Telly Time Pilot Season"
WRITEOFF = "Telly Time: Telly Time Clarifications, Writeoff"
SLOTS = ("8pm", "primetime", "late_night", "weekend")


def _keep_and_start(table):
    accepted(table, KeepPilotCards(player="Arkady", cards=(PilotCard("ad", cash_m=9), PilotCard("ad"))))
    accepted(table, KeepPilotCards(player="Virginia", cards=(PilotCard("ad", cash_m=9), PilotCard("ad"))))
    accepted(table, StartSeason())


def _wild_pilots(table):
    """Arkady's Comedy pilot prefers primetime OR late night (placed in primetime); Virginia's Reality pilot
    says ANY (placed on the weekend)."""
    start(table)
    accepted(
        table,
        ChoosePilotShow(
            player="Arkady", genre="Comedy", timeslot="primetime", name="Either", preferred=("primetime", "late_night")
        ),
    )
    accepted(
        table,
        ChoosePilotShow(player="Virginia", genre="Reality", timeslot="weekend", name="Anytime", preferred=("any",)),
    )
    _keep_and_start(table)


def _to_scoring(table):
    while table.state.phase == "season":
        accepted(table, Pass(player=table.state.current, reward="cash", amount=0))


def _lineup(pilot_slot, penalty):
    return tuple(ShowScore(slot, 3, penalty=penalty if slot == pilot_slot else 0) for slot in SLOTS)


def test_pilot_season_show_may_have_two_preferred_timeslots_or_any__pilot_season_and_wild_timeslots(table):
    """ "Place your Pilot Season show in its preferred timeslot" + "If a show has 2 preferred timeslot icons, it
    can be placed in either timeslot without penalty. If it says 'ANY' ... in any timeslot without penalty"."""
    _wild_pilots(table)
    arkady, virginia = table.state.network("Arkady"), table.state.network("Virginia")
    assert arkady.pilot.preferred == ("primetime", "late_night") == arkady.show_in("primetime").preferred
    assert virginia.pilot.preferred == ("any",) == virginia.show_in("weekend").preferred
    _to_scoring(table)
    error = refused(table, ScoreLineup(player="Arkady", shows=_lineup("primetime", 1)), IllegalCommand)
    assert error.rule == WILD and "preferred" in str(error)
    error = refused(table, ScoreLineup(player="Virginia", shows=_lineup("weekend", 1)), IllegalCommand)
    assert error.rule == WILD and "ANY" in str(error)


def test_pilot_season_show_goes_in_one_of_its_preferred_timeslots__pilot_season(table):
    start(table)
    error = refused(
        table,
        ChoosePilotShow(player="Arkady", genre="Comedy", timeslot="8pm", preferred=("primetime", "late_night")),
        IllegalCommand,
    )
    assert error.rule == PILOT and "preferred" in str(error)
    for bad in (("any", "8pm"), ("8pm", "8pm"), ("8pm", "primetime", "weekend"), ("noon",), "8pm"):
        refused(
            table, ChoosePilotShow(player="Arkady", genre="Comedy", timeslot="8pm", preferred=bad), MalformedCommand
        )
    # a Kids pilot still keeps out of primetime and late night, ANY or not
    refused(
        table, ChoosePilotShow(player="Arkady", genre="Kids", timeslot="primetime", preferred=("any",)), IllegalCommand
    )
    # without preferred, the show prefers the one timeslot it is placed in (as every earlier game recorded it)
    accepted(table, ChoosePilotShow(player="Arkady", genre="Comedy", timeslot="8pm"))
    assert table.state.network("Arkady").pilot.preferred == ("8pm",)


def test_moved_wild_pilot_shows_take_no_timeslot_penalty__wild_timeslots(table):
    """After Flexible Schedule moves them, the two-slot show is in its other preferred slot and the ANY show
    "ignore[s] any timeslot penalty it would suffer due to other effects"."""
    _wild_pilots(table)
    accepted(table, MoveShow(player="Arkady", from_slot="primetime", to_slot="late_night"))
    accepted(table, MoveShow(player="Virginia", from_slot="weekend", to_slot="8pm"))
    _to_scoring(table)
    error = refused(table, ScoreLineup(player="Arkady", shows=_lineup("late_night", 2)), IllegalCommand)
    assert error.rule == WILD
    error = refused(table, ScoreLineup(player="Virginia", shows=_lineup("8pm", 2)), IllegalCommand)
    assert error.rule == WILD and "ANY" in str(error)
    accepted(table, ScoreLineup(player="Virginia", shows=_lineup("8pm", 0)))


def test_moved_one_slot_pilot_may_take_a_penalty_outside_its_slot__wild_timeslots(table):
    start(table)
    accepted(table, ChoosePilotShow(player="Arkady", genre="Comedy", timeslot="primetime", preferred=("primetime",)))
    accepted(table, ChoosePilotShow(player="Virginia", genre="Reality", timeslot="8pm"))
    _keep_and_start(table)
    accepted(table, MoveShow(player="Arkady", from_slot="primetime", to_slot="late_night"))
    _to_scoring(table)
    outcome = accepted(table, ScoreLineup(player="Arkady", shows=_lineup("late_night", 2)))
    assert outcome.records[-1].payload["shows"][2]["total"] == 1


def _writeoff_lineup(table):
    """Arkady: the Chat show "Lay All Your Chat On Me" in primetime and a Quiz show on the weekend."""
    start(table)
    accepted(table, ChoosePilotShow(player="Arkady", genre="Comedy", timeslot="8pm"))
    accepted(table, ChoosePilotShow(player="Virginia", genre="Reality", timeslot="8pm"))
    _keep_and_start(table)
    accepted(table, ProduceShow(player="Arkady", name="Lay All Your Chat On Me", genre="Chat", timeslot="primetime"))
    accepted(table, Pass(player="Virginia", reward="cash", amount=0))
    accepted(table, ProduceShow(player="Arkady", name="Brain Box", genre="Quiz", timeslot="weekend"))


def test_writeoff_counts_a_chat_shows_bonus_from_other_stars__clarifications_writeoff(table):
    """ "Writeoff: When counting viewers on a Chat show, count bonus viewers from other stars in your lineup"
    (the Chat example: 3 for the show + 6 from 2 stars on other shows = 9)."""
    _writeoff_lineup(table)
    before = table.state
    outcome = accepted(table, Writeoff(player="Arkady", show=ShowScore("primetime", 3, stars=(1,)), other_stars=(4, 2)))
    payload = outcome.records[-1].payload
    assert payload["name"] == "Lay All Your Chat On Me" and payload["total"] == 10
    assert payload["parts"] == [["show", 3], ["star on it", 1], ["Chat: stars on other shows (4+2)", 6]]
    assert payload["rule"] == WRITEOFF and "counts 10 viewers" in outcome.message
    assert table.state == before  # the count is recorded; the card's effect is the table's to enter


def test_writeoff_counts_no_bonus_viewers_on_a_quiz_show__clarifications_writeoff(table):
    """ "When counting viewers on a Quiz show, don't count any bonus viewers"."""
    _writeoff_lineup(table)
    error = refused(table, Writeoff(player="Arkady", show=ShowScore("weekend", 4, quiz_bought=2)), IllegalCommand)
    assert error.rule == WRITEOFF and "bonus viewers" in str(error)
    error = refused(table, Writeoff(player="Arkady", show=ShowScore("weekend", 4), other_stars=(3,)), IllegalCommand)
    assert error.rule == WRITEOFF
    outcome = accepted(table, Writeoff(player="Arkady", show=ShowScore("weekend", 4, stars=(2,))))
    assert outcome.records[-1].payload["total"] == 6
    refused(table, Writeoff(player="Arkady", show=ShowScore("noon", 4)), MalformedCommand)
    refused(table, Writeoff(player="Arkady", show=ShowScore("weekend", -1)), MalformedCommand)


@pytest.mark.parametrize("row", ["genres", "GENRES", " Genres ", "gEnReS"])
def test_genres_row_is_ignored_whatever_its_case__end_game_scoring(table, row):
    """ "When scoring end-game viewer bonuses, ignore the 'Genres' row": the row printed "Genres" is the same
    row whether the table types it "genres" or "GENRES"; no spelling of it scores."""
    start(table)
    accepted(table, ChoosePilotShow(player="Arkady", genre="Comedy", timeslot="8pm"))
    accepted(table, ChoosePilotShow(player="Virginia", genre="Reality", timeslot="8pm"))
    _keep_and_start(table)
    for _ in range(5):
        _to_scoring(table)
        for player in ("Arkady", "Virginia"):
            accepted(table, ScoreLineup(player=player, shows=tuple(ShowScore(s, 0) for s in SLOTS)))
    assert table.state.phase == "end_scoring"
    error = refused(table, ScoreEndGame(player="Arkady", bonuses=(("Ads", 2), (row, 5))), IllegalCommand)
    assert error.rule == "Telly Time: End-Game Scoring"
    accepted(table, ScoreEndGame(player="Arkady", bonuses=(("Ads", 2), ("Genre-free shows", 1))))
