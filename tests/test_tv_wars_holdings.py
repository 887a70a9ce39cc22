"""TV Wars holdings (rule 3, 5, 9.1, Inventory): tiles, their public and private faces, the events that move
them and the supply they come from."""

from __future__ import annotations

import pytest

from companion.errors import IllegalCommand, MalformedCommand
from companion.events import EventCodec
from companion.games.tv_wars.events import EVENT_CLASSES
from companion.games.tv_wars.holdings import (
    BONUS_MOVED,
    BONUS_RETURNED,
    PROGRAM_LOST,
    PROGRAM_MOVED,
    BonusTile,
    Holdings,
    ProgramTile,
    Supply,
    apply_holdings_event,
    bonus_acquired,
    check_bonus_supply,
    check_program_supply,
    describe_holdings_event,
    next_tile_id,
    program_acquired,
)
from companion.games.tv_wars.ratings_war import Program

decode = EventCodec(EVENT_CLASSES).decode


def test_3_program_tile_converts_to_the_resolvers_program():
    tile = ProgramTile("P1", 2, "blue", 70, "DIE-NASTY")
    assert tile.to_program() == Program(2, "blue", 70, "DIE-NASTY")
    assert ProgramTile("P2", 1, "green", kind="special").to_program() == Program.special_program(1, "green")
    assert ProgramTile.movie("M1", "RAMBOZO").to_program() == Program.movie("RAMBOZO")
    assert ProgramTile.super_bowl().to_program().super_bowl
    with pytest.raises(IllegalCommand, match="9.91"):
        ProgramTile.preemption().to_program()


@pytest.mark.parametrize(
    "args",
    [
        ("P1", 5, "blue", 70),
        ("P1", 2, "pink", 70),
        ("P1", 2, "blue", 95),
        ("", 2, "blue", 70),
        ("P1", 2, "blue", 70, "", "bogus"),
    ],
)
def test_3_impossible_program_tiles_refused(args):
    with pytest.raises(MalformedCommand):
        ProgramTile(*args)


@pytest.mark.parametrize(
    "kind, value", [("star", 40), ("emmy", 30), ("critics_choice", 37), ("viewers_views", -29), ("oscar", 10)]
)
def test_5_impossible_bonus_tiles_refused(kind, value):
    with pytest.raises(MalformedCommand):
        BonusTile("S1", kind, value)


def test_9_1_public_text_hides_rating_and_name_private_text_shows_them():
    tile = ProgramTile("P7", 2, "blue", 70, "DIE-NASTY")
    assert tile.public_text == "60-minute Drama"
    assert "70" not in tile.public_text and "DIE" not in tile.public_text
    assert tile.private_text == "P7 DIE-NASTY: 60-minute Drama, 70 RP"
    star = BonusTile("S3", "star", 30, "Flirt Reynolds")
    assert star.private_text == "S3 Star 30 (Flirt Reynolds)"
    line = describe_holdings_event(bonus_acquired("NBS", star, "won at auction", "TV Wars 5.1"))
    assert "30" not in line and "Flirt" not in line and "Star" in line
    line = describe_holdings_event(program_acquired("ABS", tile, "won at auction", "TV Wars 4"))
    assert line == "ABS gets a 60-minute Drama (P7): won at auction (TV Wars 4)"
    emmy = BonusTile("E1", "emmy", 50)
    line = describe_holdings_event(bonus_acquired("PBC", emmy, "doubles", "TV Wars 5.2"))
    assert line == "PBC gets an Emmy tile (E1): doubles (TV Wars 5.2)"  # not "a Emmy" (#18)


def test_9_4_preemption_earns_no_sponsor_half_hours_super_bowl_does():
    holdings = Holdings((ProgramTile("P1", 3, "red", 40), ProgramTile.preemption(), ProgramTile.super_bowl()))
    assert holdings.half_hours == 3 + 2
    assert holdings.programming_by_type() == {"Action/Adventure": 3, "Preemption": 2, "Super Bowl": 2}


def test_events_round_trip_and_count_supply():
    nets = {"ABS": Holdings(tracked=True), "CBA": Holdings(tracked=True)}
    supply = Supply()
    tile = ProgramTile(next_tile_id(supply, "program"), 1, "green", 30)
    nets, supply = apply_holdings_event(nets, supply, program_acquired("ABS", tile, "x", "r"))
    assert supply.entered(1) == 1 and supply.programs_left(1) == 59 and supply.next_number == 2
    nets, supply = apply_holdings_event(
        nets, supply, decode(PROGRAM_MOVED, {"from": "ABS", "to": "CBA", "tile_id": "P1", "reason": "", "rule": ""})
    )
    assert nets["ABS"].programs == () and nets["CBA"].programs == (tile,)
    nets, supply = apply_holdings_event(
        nets,
        supply,
        decode(
            PROGRAM_LOST, {"network": "CBA", "tile_id": "P1", "reason": "", "rule": "", "destination": "out of play"}
        ),
    )
    assert nets["CBA"].programs == () and supply.programs_left(1) == 59  # cancelled tiles never return
    star = BonusTile(next_tile_id(supply, "star"), "star", 20)
    nets, supply = apply_holdings_event(nets, supply, bonus_acquired("ABS", star, "", ""))
    nets, supply = apply_holdings_event(
        nets, supply, decode(BONUS_MOVED, {"from": "ABS", "to": "CBA", "tile_id": star.id, "reason": "", "rule": ""})
    )
    assert nets["CBA"].bonuses == (star,)
    nets, supply = apply_holdings_event(
        nets,
        supply,
        decode(
            BONUS_RETURNED, {"network": "CBA", "tile_id": star.id, "reason": "", "rule": "", "destination": "Star pile"}
        ),
    )
    assert nets["CBA"].bonuses == ()
    with pytest.raises(MalformedCommand):
        apply_holdings_event(
            nets,
            supply,
            decode(
                PROGRAM_LOST,
                {"network": "CBA", "tile_id": "P1", "reason": "", "rule": "", "destination": "out of play"},
            ),
        )


def test_inventory_limits_5_12_5_22_5_32_3_22():
    stars = Holdings(bonuses=tuple(BonusTile(f"S{i}", "star", 10) for i in range(9)))
    with pytest.raises(IllegalCommand, match="5.12"):
        check_bonus_supply(Supply(), {"ABS": stars}, "star")
    emmys = Holdings(bonuses=tuple(BonusTile(f"E{i}", "emmy", 50) for i in range(5)))
    with pytest.raises(IllegalCommand, match="5.22"):
        check_bonus_supply(Supply(), {"ABS": emmys}, "emmy")
    with pytest.raises(IllegalCommand, match="5.32"):
        check_bonus_supply(Supply(critics_choice_drawn=10), {}, "critics_choice")
    with pytest.raises(IllegalCommand, match="5.32"):
        check_bonus_supply(Supply(viewers_views_drawn=15), {}, "viewers_views")
    check_bonus_supply(Supply(viewers_views_drawn=14), {}, "viewers_views")
    with pytest.raises(IllegalCommand, match="3.22"):
        check_program_supply(Supply(movies_sold=8), {}, ProgramTile.movie("M9"))
    with pytest.raises(IllegalCommand, match="Inventory"):
        check_program_supply(
            Supply(programs_entered=((1, 0), (2, 0), (3, 12), (4, 0))), {}, ProgramTile("P1", 3, "red", 50)
        )
    with pytest.raises(IllegalCommand, match="only one"):
        check_program_supply(Supply(), {"ABS": Holdings((ProgramTile.super_bowl(),))}, ProgramTile.super_bowl())


def test_the_peek_names_each_tile_as_the_owners_line_up_form_does_and_fits_the_panel_lines():
    """Issue 18, item 1: the panel's peek (9.1) and the line-up form use the same tile labels
    (``owner_tile_label``: "P3 A50"), so two 30-minute Action/Adventures are told apart; lines fit a private
    page's 17 letters and a label is never split between lines."""
    from companion.games.tv_wars.view import PEEK_LETTERS, owner_tile_label, peek_lines

    holdings = _ten_tiles_holdings()
    lines = peek_lines(holdings)
    assert all(len(line) <= PEEK_LETTERS for line in lines), lines
    joined = " | ".join(lines)
    for tile in [*holdings.programs, *holdings.bonuses]:
        assert owner_tile_label(tile) in joined, (owner_tile_label(tile), lines)
    assert lines[0].startswith("30: ")


def _ten_tiles_holdings() -> Holdings:
    """A network holding eleven programs (two 30-minute Action/Adventures of different ratings) and two bonus
    tiles, the shape of a full starting selection (2.3) plus a Star and a Critics' Choice."""
    programs = (
        ProgramTile("P1", 1, "green", 30),
        ProgramTile("P2", 1, "green", 40),
        ProgramTile("P3", 1, "red", 50),
        ProgramTile("P4", 1, "red", 60),
        ProgramTile("P5", 1, "blue", 20),
        ProgramTile("P6", 2, "blue", 70),
        ProgramTile("P7", 2, "yellow", 80),
        ProgramTile("P8", 2, "yellow", None, kind="special"),
        ProgramTile("P9", 2, "red", 10),
        ProgramTile("P10", 3, "blue", 70),
        ProgramTile("P11", 4, "green", 90),
    )
    bonuses = (BonusTile("S1", "star", 30), BonusTile("CC2", "critics_choice", -31))
    return Holdings(programs=programs, bonuses=bonuses, tracked=True)
