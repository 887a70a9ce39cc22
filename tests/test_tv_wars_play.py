"""TV Wars full play (rule numbers from /work/shared/rules/tv-wars.txt): 2.3 starting programming, turns,
the spaces (3.1-3.22, 5.1-5.32, 6.3, 9.2-9.9), Bidding (4), Bankruptcy (7) and the end of the game (3.11,
5.32, 8, 1, 10). Refused commands change nothing and journal nothing (``refused`` from the core tests)."""

from __future__ import annotations

import pytest
from conftest import start_tv_wars
from test_tv_wars_core import accepted, refused

from companion.commands import AdjustTrack, AnswerDice, Undo
from companion.errors import CommandError, DiceError, IllegalCommand, MalformedCommand
from companion.game import Termination
from companion.games.tv_wars import (
    TV_WARS,
    Bid,
    Bulletin,
    BuyMovie,
    Decline,
    EnterTileValue,
    GiveUp,
    LandOn,
    LandOnSponsor,
    Nominate,
    PassBid,
    PassOnTheAir,
    ProgramSpec,
    SelectStartingProgramming,
    SellProgram,
    Steal,
)
from companion.games.tv_wars.bank import MONEY_MOVED

# Five 30-, four 60-, one 90-, one 120-minute programs (2.3); ratings as dealt.
STANDARD = (
    ProgramSpec(1, "green", 30),
    ProgramSpec(1, "green", 40),
    ProgramSpec(1, "red", 50),
    ProgramSpec(1, "red", 60),
    ProgramSpec(1, "blue", 20),
    ProgramSpec(2, "blue", 70),
    ProgramSpec(2, "yellow", 80),
    ProgramSpec(2, "yellow", None, special=True),
    ProgramSpec(2, "red", 10),
    ProgramSpec(3, "blue", 70, name="SATURDAY NIGHT DEAD"),
    ProgramSpec(4, "green", 90),
)


def playing(table, n=4, **options):
    """A game with Best Network News to ABS (no roll-off) and every starting programming entered."""
    start_tv_wars(table, n, roll_off=False, **options)
    for network in table.state.names:
        accepted(table, SelectStartingProgramming(network=network, programs=STANDARD))
    assert table.state.playing and table.state.turn == "ABS"
    return table.state


def cash(table):
    return table.state.balances


# -- 2.3 starting programming -------------------------------------------------------------------------------


def test_2_3_selection_gives_ten_hours_of_tiles_and_sponsor_pays_for_them(table):
    playing(table, 2)
    abs_ = table.state.network("ABS")
    assert len(abs_.holdings.programs) == 11 and abs_.holdings.half_hours == 20 and abs_.half_hours.value == 20
    assert table.state.supply.entered(1) == 10 and table.state.supply.entered(4) == 2
    accepted(table, LandOn(network="ABS", space="sponsor"))
    assert cash(table)["ABS"] == 31_000 + 20 * 500
    assert table.state.turn == "CBA"


@pytest.mark.parametrize(
    "programs, match",
    [
        (STANDARD[:-1], "five 30-, four 60-"),
        (STANDARD[:-1] + (ProgramSpec(3, "red", 20),), "five 30-, four 60-"),
        (STANDARD[:5] + (ProgramSpec(1, "blue", 30),) + STANDARD[5:], "five 30-, four 60-"),
    ],
)
def test_2_3_wrong_mixes_refused(table, programs, match):
    start_tv_wars(table, 2, roll_off=False)
    error = refused(table, SelectStartingProgramming(network="ABS", programs=programs), CommandError)
    assert match in str(error) and error.rule == "TV Wars 2.3"


def test_2_3_at_most_two_of_one_type_and_length_but_five_situation_comedies(table):
    start_tv_wars(table, 2, roll_off=False)
    three_red = (ProgramSpec(1, "red", 30),) * 3 + (ProgramSpec(1, "blue", 30),) * 2 + STANDARD[5:]
    error = refused(table, SelectStartingProgramming(network="ABS", programs=three_red), IllegalCommand)
    assert "at most 2" in str(error) and error.rule == "TV Wars 2.3"
    five_sitcoms = (ProgramSpec(1, "green", 30),) * 5 + STANDARD[5:-1] + (ProgramSpec(4, "red", 90),)
    accepted(table, SelectStartingProgramming(network="ABS", programs=five_sitcoms))
    refused(table, SelectStartingProgramming(network="ABS", programs=STANDARD), IllegalCommand)  # only once


def test_2_3_play_waits_for_every_selection_and_tracked_half_hours_cannot_be_hand_set(table):
    start_tv_wars(table, 2, roll_off=False)
    accepted(table, SelectStartingProgramming(network="ABS", programs=STANDARD))
    error = refused(table, LandOn(network="ABS", space="sponsor"), IllegalCommand)
    assert "CBA must select" in str(error)
    refused(table, AdjustTrack(player="ABS", track="half_hours", delta=-1), IllegalCommand)
    assert "still to select starting programming: CBA" in table.view().status


def test_9_1_starting_selection_history_hides_ratings(table):
    playing(table, 2)
    lines = [entry.text for entry in table.history()]
    text = " ".join(lines)
    assert "SATURDAY" not in text and " 70" not in text
    assert "ABS selects its starting programming, 10 hours" in text
    secret = TV_WARS.holdings_view(table.state, "ABS")
    assert any("SATURDAY NIGHT DEAD: 90-minute Drama, 70 RP" in line for line in secret.programs)
    assert any("Special" in line for line in secret.programs)
    private = TV_WARS.private_view(table.state, "ABS")  # the contract's PrivateView: its peek and its tiles
    assert private.seat == "ABS" and any(line.startswith("90: ") and "D70" in line for line in private.lines)
    assert any("SATURDAY NIGHT DEAD: 90-minute Drama, 70 RP" in detail for _, detail in private.items)


# -- turns ------------------------------------------------------------------------------------------------


def test_2_5_turns_go_clockwise_from_best_network_news_and_out_of_turn_landing_refused(table):
    playing(table, 3)
    error = refused(table, LandOn(network="CBA", space="sponsor"), IllegalCommand)
    assert "ABS's turn" in str(error)
    accepted(table, LandOn(network="ABS", space="on_the_air"))
    accepted(table, LandOn(network="CBA", space="technical_difficulties", passed_on_the_air=True))
    assert cash(table)["CBA"] == 34_000
    assert table.state.turn == "PBC"
    refused(table, LandOn(network="PBC", space="the_moon"), MalformedCommand)


def test_9_4_sponsor_half_hours_must_match_the_tiles(table):
    playing(table, 2)
    error = refused(table, LandOnSponsor(network="ABS", half_hours=12), IllegalCommand)
    assert error.rule == "TV Wars 9.4"
    accepted(table, LandOnSponsor(network="ABS", half_hours=20))
    assert cash(table)["ABS"] == 41_000


# -- 3.1, 4 auctions ------------------------------------------------------------------------------------------


def test_3_1_4_auction_clockwise_raises_passes_and_private_entry(table):
    playing(table, 4)
    accepted(table, LandOn(network="ABS", space="television_production_company"))
    assert "nominate a program" in table.view().status
    accepted(table, Nominate(network="ABS", length=2, colour="blue"))
    assert table.view().status.startswith("Auction: 60-minute Drama, ABS bids $1,000, CBA to bid $1,500+")
    refused(table, Bid(network="PBC", amount=1_500), IllegalCommand)  # not PBC's turn
    refused(table, Bid(network="CBA", amount=1_000), IllegalCommand)  # below the minimum
    refused(table, Bid(network="CBA", amount=1_700), IllegalCommand)  # not a $500 step
    refused(table, Bid(network="CBA", amount=31_500), IllegalCommand)  # above cash: no loans
    accepted(table, Bid(network="CBA", amount=1_500))
    assert "CBA bids $1,500, PBC to bid" in table.view().status
    accepted(table, PassBid(network="PBC"))
    accepted(table, PassBid(network="NBS"))
    accepted(table, Bid(network="ABS", amount=2_500))
    outcome = accepted(table, PassBid(network="CBA"))
    assert [r.type for r in outcome.records][-3:] == ["auction_closed", MONEY_MOVED, "tile_entry_opened"]
    assert cash(table)["ABS"] == 28_500
    assert "ABS enters its new 60-minute Drama's rating" in table.view().status
    refused(table, EnterTileValue(network="CBA", value=50), IllegalCommand)
    refused(table, EnterTileValue(network="ABS", value=55), MalformedCommand)
    outcome = accepted(table, EnterTileValue(network="ABS", value=60, name="DR. KILLJOY"))
    assert "60" not in outcome.message.replace("60-minute", "") and "KILLJOY" not in outcome.message
    assert table.state.network("ABS").holdings.half_hours == 22
    assert table.state.turn == "CBA" and table.state.busy is None


def test_4_nominator_may_open_higher_in_500_steps_but_not_above_cash(table):
    playing(table, 2)
    accepted(table, LandOn(network="ABS", space="television_production_company"))
    refused(table, Nominate(network="ABS", length=2, colour="blue", opening=1_200), IllegalCommand)
    refused(table, Nominate(network="ABS", length=2, colour="blue", opening=500), IllegalCommand)
    refused(table, Nominate(network="ABS", length=2, colour="blue", opening=40_000), IllegalCommand)
    refused(table, Nominate(network="CBA", length=2, colour="blue"), IllegalCommand)
    accepted(table, Nominate(network="ABS", length=2, colour="blue", opening=3_000))
    accepted(table, PassBid(network="CBA"))
    assert cash(table)["ABS"] == 28_000 and table.state.entry.network == "ABS"


def test_9_7_technical_difficulties_cannot_bid_and_buttons_raise_and_pass(table):
    playing(table, 3)
    accepted(table, LandOn(network="ABS", space="on_the_air"))
    accepted(table, LandOn(network="CBA", space="technical_difficulties"))
    accepted(table, LandOn(network="PBC", space="talent_agency"))
    accepted(table, Nominate(network="PBC"))
    assert table.state.auction.bidders == ("ABS", "PBC")
    error = refused(table, Bid(network="CBA", amount=1_500), IllegalCommand)
    assert error.rule == "TV Wars 9.7"
    accepted(table, TV_WARS.button_command("on_the_air", "ABS"))  # raise $500
    assert table.state.auction.high_bid == 1_500 and table.state.auction.high_bidder == "ABS"
    accepted(table, TV_WARS.button_command("sponsor", "PBC"))  # pass
    assert table.state.entry.network == "ABS" and table.state.entry.lot == "star"
    refused(table, EnterTileValue(network="ABS", value=25), MalformedCommand)
    accepted(table, EnterTileValue(network="ABS", value=30, name="Flirt Reynolds"))
    assert table.state.network("ABS").holdings.count("star") == 1
    assert "1 Star" in table.view().players[0].badges
    assert table.state.turn == "ABS"  # PBC's turn is over; CBA still on Technical Difficulties
    accepted(table, LandOn(network="ABS", space="on_the_air"))
    accepted(table, LandOn(network="CBA", space="on_the_air"))
    assert "CBA" not in table.state.technical_difficulties


# -- 3.2, 3.22 Movie Studio -----------------------------------------------------------------------------------


def test_3_2_movie_price_is_1000_times_the_roll_and_purchase_is_optional(table):
    playing(table, 2)
    accepted(table, LandOn(network="ABS", space="movie_studio"))
    assert table.view().pending_dice.reason.startswith("Academy Award Movie price")
    refused(table, AnswerDice(roller="CBA", values=(3, 4)), DiceError)
    accepted(table, AnswerDice(roller="ABS", values=(3, 4)))
    assert "buy an Academy Award Movie for $7,000" in table.view().status
    accepted(table, BuyMovie(network="ABS", name="RAMBOZO"))
    assert cash(table)["ABS"] == 24_000 and table.state.supply.movies_left == 7
    assert table.state.network("ABS").holdings.half_hours == 24
    accepted(table, LandOn(network="CBA", space="movie_studio"))
    accepted(table, AnswerDice(roller="CBA", values=(6, 6)))
    accepted(table, Decline(network="CBA"))
    assert table.state.network("CBA").holdings.half_hours == 20 and cash(table)["CBA"] == 31_000


def test_7_no_bankruptcy_to_buy_a_movie(table):
    playing(table, 2)
    accepted(table, LandOn(network="ABS", space="bulletin"))
    accepted(table, Bulletin(network="ABS", effect="pay", amount=25_000))
    accepted(table, LandOn(network="CBA", space="on_the_air"))
    accepted(table, LandOn(network="ABS", space="movie_studio"))
    accepted(table, AnswerDice(roller="ABS", values=(6, 5)))
    error = refused(table, BuyMovie(network="ABS"), IllegalCommand)
    assert "7" in error.rule and "$11,000" in str(error)
    refused(table, SellProgram(network="ABS", tile_id="P1"), IllegalCommand)


def test_3_22_after_eight_movies_the_studio_nominates_90_and_120_minute_programs_only(table):
    playing(table, 2)
    for turn in range(8):
        mover = table.state.turn
        accepted(table, LandOn(network=mover, space="movie_studio"))
        accepted(table, AnswerDice(roller=mover, values=(1, 1)))
        accepted(table, BuyMovie(network=mover))
    assert table.state.supply.movies_left == 0
    accepted(table, LandOn(network="ABS", space="movie_studio"))
    assert table.view().pending_dice is None and table.state.landing.lengths == (3, 4)
    error = refused(table, Nominate(network="ABS", length=2, colour="red"), IllegalCommand)
    assert error.rule == "TV Wars 3.22"
    accepted(table, Nominate(network="ABS", length=3, colour="red"))


# -- 5.1-5.32 bonus tiles -----------------------------------------------------------------------------------


def test_5_2_emmy_on_doubles_only_and_5_22_void(table):
    playing(table, 2)
    accepted(table, LandOn(network="ABS", space="emmy_awards"))
    accepted(table, AnswerDice(roller="ABS", values=(2, 3)))
    assert table.state.network("ABS").holdings.count("emmy") == 0 and table.state.turn == "CBA"
    accepted(table, LandOn(network="CBA", space="emmy_awards"))
    accepted(table, AnswerDice(roller="CBA", values=(4, 4)))
    assert table.state.network("CBA").holdings.count("emmy") == 1
    for _ in range(4):
        mover = table.state.turn
        accepted(table, LandOn(network=mover, space="emmy_awards"))
        accepted(table, AnswerDice(roller=mover, values=(1, 1)))
    outcome = accepted(table, LandOn(network=table.state.turn, space="emmy_awards"))
    assert "5.22" in outcome.message and table.view().pending_dice is None


def test_5_3_critics_choice_drawn_value_entered_privately_and_5_32_void_ends_the_game(table):
    playing(table, 2)
    for i in range(10):
        mover = table.state.turn
        accepted(table, LandOn(network=mover, space="critics_choice"))
        refused(table, EnterTileValue(network=mover, value=37), MalformedCommand)
        outcome = accepted(table, EnterTileValue(network=mover, value=-31))
        assert "-31" not in outcome.message
    assert table.state.supply.critics_choice_left == 0
    outcome = accepted(table, LandOn(network=table.state.turn, space="critics_choice"))
    # Specials are rolled for the asset count (8, 7): each network holds one.
    assert table.view().pending_dice.rule == "TV Wars 8, 7, 3.3"
    accepted(table, AnswerDice(roller="ABS", values=(3, 4)))
    outcome = accepted(table, AnswerDice(roller="CBA", values=(1, 1)))
    ended = outcome.records[-1]
    assert ended.type == "game_ended" and ended.payload["rule"] == "TV Wars 5.32"
    assets = ended.payload["assets"]
    # Standard programming: 30+40+50+60+20 (×1) + 70+80+10 (×2) + 70×3 + 90×4 RP → tens × $500
    fixed = (3 + 4 + 5 + 6 + 2) * 500 + (7 + 8 + 1) * 2 * 500 + 7 * 3 * 500 + 9 * 4 * 500
    assert assets["ABS"]["total"] == 31_000 + fixed + 7 * 2 * 500
    assert assets["CBA"]["total"] == 31_000 + fixed + 2 * 2 * 500
    assert ended.payload["winners"] == ["ABS"] and not ended.payload["draw"]
    assert table.view().finished
    result = TV_WARS.outcome(table.state)  # the contract's Outcome: the winner by money (8, 5.32)
    assert result.termination is Termination.WON and result.winners == ("ABS",) and result.ranking == ("ABS", "CBA")
    assert "ABS $" in result.reason and "(TV Wars 5.32)" in result.reason
    assert result.figures["CBA"]["cash"] == table.state.network("CBA").cash


def test_5_12_talent_agency_void_when_nine_stars_are_owned(table):
    playing(table, 2)
    for _ in range(9):
        mover = table.state.turn
        accepted(table, LandOn(network=mover, space="talent_agency"))
        accepted(table, Nominate(network=mover))
        accepted(table, PassBid(network=[n for n in ("ABS", "CBA") if n != mover][0]))
        accepted(table, EnterTileValue(network=mover, value=10))
    outcome = accepted(table, LandOn(network=table.state.turn, space="talent_agency"))
    assert "5.12" in outcome.message


# -- 9.2, 9.3 steals -----------------------------------------------------------------------------------------


def test_9_2_steal_a_program_the_loser_chooses(table):
    playing(table, 3)
    accepted(table, LandOn(network="ABS", space="steal_a_program"))
    refused(table, Steal(network="ABS", victim="ABS"), IllegalCommand)
    accepted(table, Steal(network="ABS", victim="PBC"))
    refused(table, GiveUp(network="ABS", tile_id="P1"), IllegalCommand)  # the loser chooses
    victim_tile = table.state.network("PBC").holdings.programs[0].id
    accepted(table, GiveUp(network="PBC", tile_id=victim_tile))
    assert table.state.network("ABS").holdings.half_hours == 21
    assert table.state.network("PBC").holdings.half_hours == 19 and table.state.turn == "CBA"


def test_9_3_steal_a_star_no_effect_without_stars(table):
    playing(table, 2)
    outcome = accepted(table, LandOn(network="ABS", space="steal_a_star"))
    assert "no other network has a Star" in outcome.message and table.state.turn == "CBA"


# -- 6.3, 9.9 Best Network News ---------------------------------------------------------------------------------


def test_6_3_9_9_best_network_news_then_preemption_then_1000(table):
    playing(table, 2)
    accepted(table, LandOn(network="ABS", space="on_the_air"))
    accepted(table, LandOn(network="CBA", space="best_network_news"))
    assert table.state.best_network_news == "CBA"
    accepted(table, LandOn(network="ABS", space="best_network_news"))
    assert table.state.best_network_news == "ABS"
    accepted(table, LandOn(network="CBA", space="on_the_air"))
    accepted(table, LandOn(network="ABS", space="best_network_news"))
    holdings = table.state.network("ABS").holdings
    assert any(t.kind == "preemption" for t in holdings.programs) and holdings.half_hours == 20  # 9.4
    accepted(table, LandOn(network="CBA", space="on_the_air"))
    accepted(table, LandOn(network="ABS", space="best_network_news"))
    assert cash(table)["ABS"] == 32_000


# -- 9.6 Bulletin, 7 bankruptcy ---------------------------------------------------------------------------------


def test_7_bankruptcy_sells_programs_no_change_given_special_rolled(table):
    playing(table, 2)
    accepted(table, LandOn(network="ABS", space="bulletin"))
    accepted(table, Bulletin(network="ABS", effect="pay_each", amount=35_000))
    assert cash(table) == {"ABS": 0, "CBA": 62_000}
    assert "ABS owes $4,000" in table.view().status
    refused(table, LandOn(network="CBA", space="sponsor"), IllegalCommand)  # the debt comes first
    special = next(t.id for t in table.state.network("ABS").holdings.programs if t.kind == "special")
    accepted(table, SellProgram(network="ABS", tile_id=special))
    assert table.view().pending_dice.roller == "ABS"
    outcome = accepted(table, AnswerDice(roller="ABS", values=(1, 2)))  # 30 RP × 2 half-hours = $3,000
    sold = next(r for r in outcome.records if r.type == "program_sold")
    assert sold.payload["value"] == 3_000 and sold.payload["applied"] == 3_000
    assert cash(table) == {"ABS": 0, "CBA": 65_000}
    big = next(t.id for t in table.state.network("ABS").holdings.programs if t.length == 4)
    outcome = accepted(table, SellProgram(network="ABS", tile_id=big))  # 90 RP × 4 = $18,000
    sold = next(r for r in outcome.records if r.type == "program_sold")
    assert (sold.payload["value"], sold.payload["applied"], sold.payload["forfeited"]) == (18_000, 1_000, 17_000)
    assert "9 × $500 × 4 half-hours" in outcome.message
    assert cash(table) == {"ABS": 0, "CBA": 66_000}
    assert table.state.debts == () and table.state.turn == "CBA"


def test_7_worked_examples_sale_values():
    from companion.games.tv_wars.bankruptcy import sale_value
    from companion.games.tv_wars.holdings import ProgramTile

    assert sale_value(ProgramTile("P1", 1, "green", 80, "BEERS"))[0] == 4_000
    assert sale_value(ProgramTile("P2", 3, "red", 70, "SATURDAY NIGHT DEAD"))[0] == 10_500
    assert sale_value(ProgramTile.movie("M1"))[0] == 20_000


def test_9_6_bulletin_move_collect_and_super_bowl(table):
    playing(table, 2)
    accepted(table, LandOn(network="ABS", space="bulletin"))
    refused(table, Bulletin(network="ABS", effect="teleport"), MalformedCommand)
    accepted(table, Bulletin(network="ABS", effect="move", space="sponsor", passed_on_the_air=True))
    assert cash(table)["ABS"] == 31_000 + 3_000 + 10_000
    accepted(table, LandOn(network="CBA", space="bulletin"))
    accepted(table, Bulletin(network="CBA", effect="super_bowl"))
    assert table.state.network("CBA").holdings.half_hours == 22
    accepted(table, LandOn(network="ABS", space="bulletin"))
    refused(table, Bulletin(network="ABS", effect="super_bowl"), IllegalCommand)  # only one exists
    accepted(table, Bulletin(network="ABS", effect="collect_each", amount=1_000))
    assert cash(table) == {"ABS": 45_000, "CBA": 30_000}


# -- 1, 3, 10 last network standing ---------------------------------------------------------------------------


def test_3_losing_every_program_puts_a_network_out_and_the_last_one_wins(table):
    playing(table, 2)
    accepted(table, LandOn(network="ABS", space="bulletin"))
    accepted(table, Bulletin(network="ABS", effect="pay", amount=200_000))
    while not table.state.finished:
        tile = table.state.network("ABS").holdings.programs[0]
        accepted(table, SellProgram(network="ABS", tile_id=tile.id))
        if table.view().pending_dice is not None:
            accepted(table, AnswerDice(roller="ABS", values=(6, 6)))
    assert table.state.network("ABS").out
    assert "CBA is the last network standing" in table.view().status
    assert table.view().finished
    result = TV_WARS.outcome(table.state)
    assert result.termination is Termination.LAST_STANDING and result.winners == ("CBA",)
    assert result.reason.endswith("the last network standing (TV Wars 1, 3)")
    assert result.figures["ABS"]["out"] == "yes" and result.figures["ABS"]["programs"] == 0
    accepted(table, Undo())
    assert not table.state.finished and TV_WARS.outcome(table.state) is None


# -- 9.5 and 2.5: who may move, and when (a mashed button, a tap at the wrong moment) --------------------------


def test_2_5_nobody_passes_on_the_air_or_lands_on_sponsor_during_the_roll_off(table):
    start_tv_wars(table, 2)
    for command in (PassOnTheAir(network="ABS", source="button"), LandOnSponsor(network="CBA", source="touch")):
        error = refused(table, command, IllegalCommand)
        assert error.rule == "TV Wars 2.5" and "roll-off" in str(error)


def test_9_5_in_play_only_the_moving_network_passes_on_the_air_and_only_once_a_turn(table):
    playing(table, 3)
    before = cash(table)["ABS"]
    accepted(table, PassOnTheAir(network="ABS", source="button"))
    for _ in range(9):  # the same button mashed nine more times
        error = refused(table, PassOnTheAir(network="ABS", source="button"), IllegalCommand)
        assert "already passed On the Air this turn" in str(error) and error.rule == "TV Wars 9.5"
    assert cash(table)["ABS"] == before + 3_000
    error = refused(table, PassOnTheAir(network="CBA", source="button"), IllegalCommand)
    assert "it is ABS's turn, not CBA's" in str(error)
    refused(table, LandOn(network="ABS", space="sponsor", passed_on_the_air=True), IllegalCommand)  # paid already
    accepted(table, LandOn(network="ABS", space="sponsor"))
    assert table.state.turn == "CBA" and not table.state.passed_on_the_air
    accepted(table, PassOnTheAir(network="CBA", source="touch"))  # the next mover passes it: paid again
    assert table.state.passed_on_the_air


def test_4_a_tap_on_sponsor_or_on_the_air_during_an_auction_means_what_the_seat_buttons_mean(table):
    """One meaning per button (issue 18): during an auction nobody moves (4), so a seat's On the Air bids the
    lowest bid and its Sponsor passes, from the seat button and from its on-screen twin alike; the offers are
    labelled so."""
    playing(table, 3)
    accepted(table, LandOn(network="ABS", space="television_production_company"))
    accepted(table, Nominate(network="ABS", length=2, colour="blue"))
    minimum = table.state.auction.minimum
    offers = {o.kind: o for o in TV_WARS.legal_commands(table.state, "CBA") if o.command is not None}
    assert offers["PassOnTheAir"].label == f"Bid ${minimum:,}" and offers["LandOnSponsor"].label == "Pass"
    accepted(table, PassOnTheAir(network="CBA", source="touch"))  # the card's On the Air: the lowest bid
    assert table.state.auction.high_bidder == "CBA" and table.state.auction.next_bidder == "PBC"
    accepted(table, LandOnSponsor(network="PBC", source="button"))  # the seat's second button: pass
    assert table.state.auction.passed == ("PBC",)
    accepted(table, Undo())
    accepted(table, LandOnSponsor(network="PBC", source="touch"))  # its twin on the card: the same pass
    assert table.state.auction.passed == ("PBC",)


def test_9_1_secret_figures_stay_out_of_command_reprs_so_out_of_logs():
    """The table logs every refused command with its repr: a rating, a Special, a name or a line-up must not
    be in it (TV Wars 9.1); such commands are marked private so screens send their refusals to the panel."""
    from companion.games.tv_wars.war_at_table import EnterLineUp

    commands = [
        EnterTileValue(network="ABS", value=70, name="DR. KILLJOY"),
        SelectStartingProgramming(
            network="ABS",
            programs=(ProgramSpec(2, "blue", 70, name="DR. KILLJOY"), ProgramSpec(1, "red", None, special=True)),
        ),
        EnterLineUp(network="ABS", placements=(("P7", "S2"),), promotion=True),
    ]
    for command in commands:
        text = repr(command)
        assert command.private and "ABS" in text
        assert not any(secret in text for secret in ("70", "KILLJOY", "special=True", "P7", "S2", "promotion"))
    assert SellProgram(network="ABS", tile_id="P7").private  # its sale price would tell the rating (7)


def test_9_1_a_private_war_view_needs_a_war_under_way(table):
    playing(table, 2)
    with pytest.raises(IllegalCommand) as caught:
        TV_WARS.war_private_view(table.state, "ABS")
    assert (str(caught.value), caught.value.rule) == ("no Ratings War is under way (TV Wars 6)", "TV Wars 6")
    accepted(table, LandOn(network="ABS", space="ratings_war"))
    view = TV_WARS.war_private_view(table.state, "ABS")  # ABS's own entry, nothing placed yet
    assert view.network == "ABS" and view.lines == () and len(view.held) == len(STANDARD)
