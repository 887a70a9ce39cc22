"""The public figures behind the Ratings War table screen (#18 item 2, companion/games/tv_wars/war_at_table.py
and ratings_war.py): running scores before a half-hour is resolved (6.3-6.6), exact survival odds that follow
every die (3.3, 6.7, 6.8), the Preemption preview (9.91) and the summary of what each network lost and kept
(6.2, 6.8, 5.11, 5.21, 5.31, 9.91), on the rulebook's worked example."""

from fractions import Fraction
from itertools import product

import pytest
from test_tv_wars_war_at_table import enter_all, example_table, four_specials_table

from companion.errors import IllegalCommand, MalformedCommand
from companion.games.tv_wars.ratings_war import survival_odds
from companion.games.tv_wars.war_at_table import (
    PlacePreemption,
    RevealLineUps,
    aftermath_lines,
    preemption_preview,
    war_pending_dice,
    war_view,
)

EXAMPLE_ROLLS = [(6, 5), (2, 1), (3, 4)]  # 8:30 tie PBC over NBS; NBS's Special 70 (as in the Kivy driver)


def revealed(table):
    enter_all(table)
    table.do(RevealLineUps())
    return table


def cells(view, slot):
    return {network: cell for network, cell in zip(view.networks, view.rows[slot].cells)}


def test_6_4_6_5_a_cell_not_yet_resolved_shows_the_score_it_stands_at():
    """Before the dice the rulebook's 8:00 is resolved (ABS wins: Lead-In at 8:30, 6.4); 8:30 stands at
    MONDAY NIGHT RUGBY 85 = 80 + 5 Lead-In and DIE-NASTY 80 = 90 - 10 Counter-Programming (6.5)."""
    table = revealed(example_table())
    view = war_view(table.war)
    assert view.current == 1  # the 8:30 tie-break is the first roll
    at_830 = cells(view, 1)
    assert (at_830["ABS"].running, at_830["ABS"].running_breakdown) == (85, "80 + 5 [Lead-In]")
    assert (at_830["CBA"].running, at_830["CBA"].running_breakdown) == (80, "90 - 10 [Counter-Programming]")
    assert at_830["ABS"].total is None  # not resolved yet
    special = cells(view, 3)["NBS"]
    assert special.program == "SPECIAL" and special.running is None  # 3.3: not rolled yet
    resolved = cells(view, 0)["ABS"]
    assert resolved.total == 85 and resolved.running is None and resolved.state == "wins"


def test_3_3_the_odds_follow_a_special_roll_exactly_law_of_total_probability():
    """Four Specials: each program's chance before a Special's roll is the average of its chances after each
    of the 36 throws of that roll (exact fractions)."""
    table = revealed(four_specials_table())
    before = table.war.live_odds
    assert before == survival_odds(table.war.war)  # nothing rolled: the odds as before the dice
    request = war_pending_dice(table.war)
    assert request is not None and request.rule == "TV Wars 3.3"  # a Special's value
    total = {ref: Fraction(0) for ref in before}
    for a, b in product(range(1, 7), repeat=2):
        after = revealed(four_specials_table())
        after.roll((a, b))
        odds = after.war.live_odds
        for ref in total:
            total[ref] += odds[ref] / 36
    assert total == before


def test_6_8_settled_fates_are_certain_and_every_chance_a_probability_through_the_war():
    """Through the rulebook's war, die by die (tie-breaks included, 6.7): a cancelled program's chance is 0,
    one that has aired all its half-hours 1; every chance lies in 0-1."""
    table = revealed(example_table())
    rolls = iter(EXAMPLE_ROLLS)
    while True:
        view = war_view(table.war)
        for row_index, row in enumerate(view.rows):
            for cell in row.cells:
                if cell.chance is not None:
                    assert 0 <= cell.chance <= 1
                if cell.state in ("cancelled", "gone"):
                    assert cell.chance == 0
        if war_pending_dice(table.war) is None:
            break
        table.roll(next(rolls))
    assert table.war.over and table.war.live_odds is None
    final = war_view(table.war)
    assert cells(final, 5)["NBS"].chance == 1.0 and cells(final, 5)["CBA"].chance == 0.0  # RAMBOZO cancelled


def test_9_91_the_preemption_preview_shows_the_hour_preempted_and_changes_nothing():
    table = revealed(example_table(preemption=True))
    war, events = table.war, len(table.events)
    preview = preemption_preview(war, 3)  # 9.91's example: 9:30-10:30
    assert all(cell.state == "preempted" for slot in (3, 4) for cell in preview.rows[slot].cells if cell.program)
    assert table.war is war and len(table.events) == events
    assert war_view(war).rows[3].cells[0].state != "preempted"
    declined = preemption_preview(war, None)
    assert not any(cell.state == "preempted" for row in declined.rows for cell in row.cells)
    with pytest.raises(MalformedCommand) as info:
        preemption_preview(war, 5)
    assert "8:00-10:00" in str(info.value) and "TV Wars 9.91" in str(info.value)
    table.do(PlacePreemption(network="ABS", start=3))
    with pytest.raises(IllegalCommand) as info:
        preemption_preview(table.war, 3)
    assert info.value.rule == "TV Wars 9.91"


def test_6_2_6_8_the_summary_of_what_each_network_lost_and_kept():
    table = revealed(example_table())
    assert aftermath_lines(table.war) == ()  # not over
    for values in EXAMPLE_ROLLS:
        table.roll(values)
    lines = {network: (lost, kept) for network, lost, kept in aftermath_lines(table.war)}
    assert lines["CBA"] == (
        "lost RAMBOZO (cancelled in 10:30-11:00, TV Wars 6.8); Star 10 (Carol Burnut) on RAMBOZO to the Star pile "
        "(TV Wars 5.11, 6.2)",
        "kept DIE-NASTY",
    )
    assert lines["PBC"] == (
        "lost PEOPLE ARE FUNNY LOOKING (cancelled in 9:00-9:30, TV Wars 6.8)",
        "kept NUTS LANDING, BEERS, DR. KILLJOY",
    )
    assert lines["ABS"][1] == "kept Best Network News"
    assert "Emmy 50 on SPECIAL to the Emmy Awards pile (TV Wars 5.21)" in lines["NBS"][0]
    assert war_view(table.war).aftermath == aftermath_lines(table.war)
