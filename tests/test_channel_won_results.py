"""Channel WON: the latest scored round kept for the screen (End of Round), and the wording of its lines."""

from __future__ import annotations

from dataclasses import replace as dc_replace

from table_helpers import accepted
from test_channel_won_core import everyone_done, play_to_phase2

from companion.commands import Undo
from companion.games.channel_won import (
    CHANNEL_WON,
    CloseLead,
    CollectCard,
    Lead,
    PlayLocation,
    PlaySource,
    result_lines,
)
from companion.games.channel_won.cards import LeadCard
from companion.table import replay


def round_one(table):
    """Three reporters: Sports reported (Ava, Ben +2), Crime left open (Ava, Ben), Politics open (Cleo)."""
    game_id = play_to_phase2(table, n=3)
    accepted(table, PlayLocation(player="Ava", lead="Sports"))
    accepted(table, PlaySource(player="Ben", lead="Sports", value=2, source_type="Coach"))
    accepted(table, CloseLead(player="Cleo", lead="Sports"))
    accepted(table, PlayLocation(player="Ava", lead="Crime"))
    accepted(table, PlaySource(player="Ben", lead="Crime", value=1))
    accepted(table, PlayLocation(player="Cleo", lead="Politics"))
    everyone_done(table)
    return game_id


def test_round_results_are_kept_one_lead_a_line_until_the_next_rounds_first_action(table):
    game_id = round_one(table)
    state = table.state
    assert state.round == 2 and state.phase == 1 and not state.acted
    scoring = state.scoring
    assert scoring.round == 1 and scoring.stars_before == 5 and scoring.stars == 1
    assert [lead.category for lead in scoring.leads] == list(state.categories)
    lines = result_lines(scoring)
    by_lead = {label: (value, words) for label, value, words in lines}
    assert by_lead["Sports"] == ("2", "2 Coach. Reported: Ava 0 → 2, Ben 0 → 2")
    assert by_lead["Crime"] == ("1", "1 Crime Source. Unreported (not closed): -1 star; Ava and Ben score nothing")
    assert by_lead["Politics"] == ("0", "nothing played. Unreported (not closed): -1 star; Cleo scores nothing")
    assert by_lead["Business"][1].endswith("no reporters")
    assert by_lead["Stars"] == ("1", "5 → 1 of 5: 4 unreported Leads, one star each")
    assert lines[-1] == ("Round 2", "", "Order: Cleo, Ava, Ben (Cleo first: fewest points)")
    accepted(table, CollectCard(player="Cleo"))
    assert table.state.acted and table.state.scoring == scoring  # still there, no longer offered
    assert replay(table.journal.events(game_id)).state == table.state
    accepted(table, Undo())
    assert not table.state.acted


def test_results_of_the_final_scoring_name_the_game_over(table):
    play_to_phase2(table, n=5)  # six Leads, five stars: Channel None
    everyone_done(table)
    lines = result_lines(table.state.scoring)
    assert lines[-2] == ("Stars", "0", "5 → 0 of 5: 6 unreported Leads, one star each")
    assert lines[-1][0] == "Game over" and "Channel None" in lines[-1][2]


def test_describe_says_scores_for_one_reporter_and_score_for_several(table):
    round_one(table)
    texts = [entry.text for entry in table.history()]
    last = texts[-1]
    assert "Cleo scores nothing (not closed)" in last
    assert "Ava and Ben score nothing (not closed)" in last
    assert "Cleo score nothing" not in last


def test_warning_counts_one_lead_in_the_singular(table):
    play_to_phase2(table)
    state = dc_replace(table.state, lineup=(Lead(LeadCard("Sports")),), categories=("Sports",), stars=2)
    assert CHANNEL_WON.warning(state) == "Warning: 1 Lead at risk"
    assert CHANNEL_WON.warning(dc_replace(state, stars=1)) == "CHANNEL NONE RISK: 1 Lead at risk"


def test_view_gives_each_reporter_a_headline_and_a_status_for_the_replay(table):
    """`companion replay` closes with the players' figures and the status (see companion/cli.py)."""
    round_one(table)
    view = table.view()
    assert [(p.name, p.balance, p.headline) for p in view.players] == [
        ("Ava", None, "2 pts"),
        ("Ben", None, "2 pts"),
        ("Cleo", None, "0 pts"),
    ]
    assert view.status.startswith("Round 2/3")
