"""TV Wars: the defects of the independent audit (issue 19) and the game ends the tests lacked, each test
citing its rule (/work/shared/rules/tv-wars.txt): a debtor left with only the Preemption or Super Bowl tile
(7, 9.8, 9.91), the bonus tiles of a network put out by bankruptcy or Steal a Program (5.11, 5.12, 5.22),
2.3's five Situation Comedies, 4's "nor may loans be made" and the hand correction, 3.11's game end and 10's
"all lose their last programs in the same war"."""

from __future__ import annotations

import csv
import io

import pytest
from conftest import start_tv_wars
from test_tv_wars_core import accepted, refused
from test_tv_wars_play import STANDARD, playing

from companion.commands import BANK, AnswerDice, NewGame, TransferMoney
from companion.errors import BadOption, IllegalCommand, MalformedCommand
from companion.export import export_figures_csv
from companion.game import Termination
from companion.games.tv_wars import (
    TV_WARS,
    Bid,
    Bulletin,
    EnterTileValue,
    GiveUp,
    LandOn,
    Nominate,
    PassBid,
    ProgramSpec,
    SelectStartingProgramming,
    SellProgram,
    Steal,
)
from companion.games.tv_wars.events import MoneyMoved
from companion.games.tv_wars.holdings import PREEMPTION, PROGRAM_INVENTORY, SUPER_BOWL
from companion.games.tv_wars.ledger import export_ledger_csv

UNSELLABLE = (PREEMPTION, SUPER_BOWL)


def sell_everything_sellable(table, network):
    """``network`` (the head debtor) sells its programs with Rating Points one by one (7) while it owes."""
    while table.state.debts and table.state.debts[0].network == network:
        tile = next(t for t in table.state.network(network).holdings.programs if t.kind not in UNSELLABLE)
        accepted(table, SellProgram(network=network, tile_id=tile.id))
        if table.view().pending_dice is not None:
            accepted(table, AnswerDice(roller=network, values=(6, 6)))


def kinds(table, network):
    return [t.kind for t in table.state.network(network).holdings.programs]


# -- 7 with 9.91 / 9.8: the debt never locks the game -------------------------------------------------------


def test_7_9_91_a_debtor_left_with_only_the_preemption_tile_does_not_lock_the_game(table):
    """7 values only programs with Rating Points; 9.91 "A player with the Preemption tile and no other
    programming remains in play until the next Ratings War": the unpayable rest of the debt is lost and the
    other networks move on (it used to say "finish ABS's debt first" for ever)."""
    playing(table, 2)
    accepted(table, LandOn(network="ABS", space="best_network_news"))  # ABS holds BNN: the Preemption (9.9)
    accepted(table, LandOn(network="CBA", space="on_the_air"))
    accepted(table, LandOn(network="ABS", space="bulletin"))
    accepted(table, Bulletin(network="ABS", effect="pay", amount=500_000))
    sell_everything_sellable(table, "ABS")
    assert kinds(table, "ABS") == [PREEMPTION] and not table.state.network("ABS").out
    assert table.state.debts == () and not table.state.finished
    assert any("never paid" in entry.text and "9.91" in entry.text for entry in table.history())
    accepted(table, LandOn(network="CBA", space="sponsor"))  # the game goes on
    assert table.state.turn == "ABS"
    accepted(table, LandOn(network="ABS", space="ratings_war"))  # the next war puts it out (9.91): CBA wins
    result = TV_WARS.outcome(table.state)
    assert result is not None and result.termination is Termination.LAST_STANDING and result.winners == ("CBA",)


def test_7_9_8_a_debtor_left_with_only_the_super_bowl_does_not_lock_the_game(table):
    """9.8 "A player with the Super Bowl tile and no other programming remains in the game until the next
    Ratings War"; the Super Bowl has no Rating Points to sell (7)."""
    playing(table, 2)
    accepted(table, LandOn(network="ABS", space="bulletin"))
    accepted(table, Bulletin(network="ABS", effect="super_bowl"))
    accepted(table, LandOn(network="CBA", space="on_the_air"))
    accepted(table, LandOn(network="ABS", space="bulletin"))
    accepted(table, Bulletin(network="ABS", effect="pay", amount=500_000))
    sell_everything_sellable(table, "ABS")
    assert kinds(table, "ABS") == [SUPER_BOWL] and table.state.debts == ()
    refused(table, SellProgram(network="ABS", tile_id="SUPER_BOWL"), IllegalCommand)  # no debt, nothing to sell
    accepted(table, LandOn(network="CBA", space="on_the_air"))
    assert table.state.turn == "ABS" and not table.state.network("ABS").out


def test_7_a_debt_incurred_with_only_the_preemption_tile_left_is_never_paid_at_once(table):
    """The same when the debt falls on a network that already holds nothing it could sell (7, 9.91)."""
    playing(table, 2)
    accepted(table, LandOn(network="ABS", space="best_network_news"))
    accepted(table, LandOn(network="CBA", space="on_the_air"))
    accepted(table, LandOn(network="ABS", space="bulletin"))
    accepted(table, Bulletin(network="ABS", effect="pay", amount=500_000))
    sell_everything_sellable(table, "ABS")
    accepted(table, LandOn(network="CBA", space="on_the_air"))
    accepted(table, LandOn(network="ABS", space="bulletin"))
    outcome = accepted(table, Bulletin(network="ABS", effect="pay", amount=2_000))
    assert "debt_written_off" in [r.type for r in outcome.records]
    assert table.state.debts == () and table.state.turn == "CBA"


# -- 5.11, 5.12, 5.22: an out network's Stars and Emmys go back to their piles ------------------------------------


def _star(table, mover, others, value=10):
    accepted(table, LandOn(network=mover, space="talent_agency"))
    accepted(table, Nominate(network=mover))
    for other in others:
        accepted(table, PassBid(network=other))
    accepted(table, EnterTileValue(network=mover, value=value))


def test_5_11_5_12_a_network_out_by_bankruptcy_returns_its_stars_so_the_talent_agency_reopens(table):
    """5.11 "Stars of ... networks without any programming are returned to the bottom of the Star pile";
    with all nine owned before, the Talent Agency is void (5.12) only while they stay owned."""
    playing(table, 3)
    names = ("ABS", "CBA", "PBC")
    for _ in range(9):
        mover = table.state.turn
        _star(table, mover, [n for n in names[names.index(mover) + 1 :] + names[: names.index(mover)]])
    assert sum(n.holdings.count("star") for n in table.state.networks) == 9
    assert table.state.turn == "ABS"
    accepted(table, LandOn(network="ABS", space="on_the_air"))
    accepted(table, LandOn(network="CBA", space="on_the_air"))
    assert table.state.network("PBC").holdings.count("star") == 3
    accepted(table, LandOn(network="PBC", space="bulletin"))
    accepted(table, Bulletin(network="PBC", effect="pay", amount=900_000))
    sell_everything_sellable(table, "PBC")
    pbc = table.state.network("PBC")
    assert pbc.out and pbc.holdings.bonuses == ()
    assert sum(n.holdings.count("star") for n in table.state.networks) == 6
    outcome = accepted(table, LandOn(network="ABS", space="talent_agency"))
    assert "5.12" not in outcome.message
    accepted(table, Nominate(network="ABS"))  # a Star is up for bid again


def test_5_11_5_22_a_network_out_by_steal_a_program_returns_its_star_and_emmy(table):
    """9.2 takes PBC's last program: PBC is out (3) and its Star and Emmy return to their piles (5.11,
    5.22), its Critics' Choice leaves play (as when a Ratings War puts a network out)."""
    playing(table, 3)
    accepted(table, LandOn(network="ABS", space="on_the_air"))
    accepted(table, LandOn(network="CBA", space="on_the_air"))
    _star(table, "PBC", ["ABS", "CBA"])  # PBC pays $1,000 for its Star
    accepted(table, LandOn(network="ABS", space="on_the_air"))
    accepted(table, LandOn(network="CBA", space="on_the_air"))
    accepted(table, LandOn(network="PBC", space="emmy_awards"))
    accepted(table, AnswerDice(roller="PBC", values=(3, 3)))  # doubles win an Emmy (5.2)
    accepted(table, EnterTileValue(network="PBC", value=50)) if table.state.entry is not None else None
    accepted(table, LandOn(network="ABS", space="on_the_air"))
    accepted(table, LandOn(network="CBA", space="on_the_air"))
    accepted(table, LandOn(network="PBC", space="critics_choice"))
    accepted(table, EnterTileValue(network="PBC", value=-20))
    assert sorted(b.kind for b in table.state.network("PBC").holdings.bonuses) == [
        "critics_choice",
        "emmy",
        "star",
    ]
    # PBC sells all its programs but one, exactly paying a debt of its cash and their value (7)
    keep = table.state.network("PBC").holdings.programs[0]
    fixed = sum(
        (t.rating // 10) * 500 * t.length
        for t in table.state.network("PBC").holdings.programs
        if t.id != keep.id and t.kind == "program"
    )
    accepted(table, LandOn(network="ABS", space="on_the_air"))
    accepted(table, LandOn(network="CBA", space="on_the_air"))
    accepted(table, LandOn(network="PBC", space="bulletin"))
    debt = table.state.network("PBC").cash + fixed + 12 * 500 * 2  # the Special rolled 6+6 (7, 3.3)
    accepted(table, Bulletin(network="PBC", effect="pay", amount=debt))
    while table.state.debts:
        tile = next(t for t in table.state.network("PBC").holdings.programs if t.id != keep.id)
        accepted(table, SellProgram(network="PBC", tile_id=tile.id))
        if table.view().pending_dice is not None:
            accepted(table, AnswerDice(roller="PBC", values=(6, 6)))
    assert [t.id for t in table.state.network("PBC").holdings.programs] == [keep.id]
    assert table.state.turn == "ABS"
    accepted(table, LandOn(network="ABS", space="steal_a_program"))
    accepted(table, Steal(network="ABS", victim="PBC"))
    outcome = accepted(table, GiveUp(network="PBC", tile_id=keep.id))
    pbc = table.state.network("PBC")
    assert pbc.out and pbc.holdings.programs == () and pbc.holdings.bonuses == ()
    returned = {r.payload["destination"] for r in outcome.records if r.type == "bonus_returned"}
    assert returned == {"Star pile", "Emmy Awards pile", "out of play"}
    assert not table.state.finished  # ABS and CBA play on


# -- 2.3 five Situation Comedies --------------------------------------------------------------------------------

SIX_SITCOMS = (
    ProgramSpec(1, "green", 30),
    ProgramSpec(1, "green", 30),
    ProgramSpec(1, "green", 30),
    ProgramSpec(1, "red", 30),
    ProgramSpec(1, "red", 30),
    ProgramSpec(2, "green", 30),
    ProgramSpec(2, "green", 30),
    ProgramSpec(2, "green", 30),
    ProgramSpec(2, "blue", 30),
    ProgramSpec(3, "blue", 30),
    ProgramSpec(4, "blue", 30),
)


def test_2_3_at_most_five_situation_comedies_in_all_by_default(table):
    """2.3 "A player may select up to five Situation Comedies": six (three 30- and three 60-minute) are
    refused, though no length has more than five; five in all are accepted."""
    start_tv_wars(table, 2, roll_off=False)
    error = refused(table, SelectStartingProgramming(network="ABS", programs=SIX_SITCOMS), IllegalCommand)
    assert "6 Situation Comedies" in str(error) and error.rule == "TV Wars 2.3"
    five = SIX_SITCOMS[:7] + (ProgramSpec(2, "yellow", 30),) + SIX_SITCOMS[8:]
    accepted(table, SelectStartingProgramming(network="ABS", programs=five))


def test_2_3_house_rule_five_situation_comedies_of_each_length(table):
    """The per-length reading as a house rule (docs/rulings.md): six Situation Comedies, at most three of
    one length, are accepted; more than two of another type and length are still refused."""
    start_tv_wars(table, 2, roll_off=False, situation_comedies_per_length=True)
    accepted(table, SelectStartingProgramming(network="ABS", programs=SIX_SITCOMS))
    three_red = (ProgramSpec(1, "red", 30),) * 3 + (ProgramSpec(1, "blue", 30),) * 2 + STANDARD[5:]
    refused(table, SelectStartingProgramming(network="CBA", programs=three_red), IllegalCommand)


def test_2_3_situation_comedies_option_is_checked(table):
    with pytest.raises(BadOption):
        TV_WARS.check_options({"situation_comedies_per_length": "yes"})
    assert TV_WARS.check_options({})["situation_comedies_per_length"] is False
    outcome = table.execute(
        NewGame(game="tv-wars", players=(), options={"situation_comedies_per_length": 1}, source="test")
    )
    assert not outcome.accepted


# -- 4 "nor may loans be made"; a hand correction is marked as one --------------------------------------------------


def test_4_no_money_between_networks_in_full_play_not_even_during_an_auction(table):
    """4 "Tiles may not be bought and sold separately among players, nor may loans be made": a free
    transfer between two networks is refused, citing 4, in full play (money between networks moves
    through the rules' effects: Bulletin pay/collect each, debts)."""
    playing(table, 2)
    error = refused(table, TransferMoney(payer="ABS", payee="CBA", amount=1_000, reason="a loan"), IllegalCommand)
    assert error.rule == "TV Wars 4" and "loan" in str(error)
    accepted(table, LandOn(network="ABS", space="television_production_company"))
    accepted(table, Nominate(network="ABS", length=1, colour="red"))
    accepted(table, Bid(network="CBA", amount=1_500))
    error = refused(table, TransferMoney(payer="ABS", payee="CBA", amount=500, reason="let me win"), IllegalCommand)
    assert error.rule == "TV Wars 4"


def test_4_before_full_play_the_hand_kept_transfers_still_work(table):
    """Before the 2.3 selections the table keeps the game by hand: transfers between networks work there."""
    start_tv_wars(table, 2, roll_off=False)
    accepted(table, TransferMoney(payer="ABS", payee="CBA", amount=1_000, reason="Bulletin card"))
    assert table.state.balances == {"ABS": 30_000, "CBA": 32_000}
    assert not table.history()[-1].text.startswith("Correction")


def test_4_a_hand_correction_is_accepted_and_marked_in_the_history_and_both_csv_exports(table):
    """A correction (the flag, or any free transfer with the bank in full play) is accepted and says so in
    the history, the figures CSV's ``what`` and the ledger CSV's ``correction`` column."""
    playing(table, 2)
    game_id = table.session.game_id
    accepted(table, TransferMoney(payer="ABS", payee="CBA", amount=1_000, reason="miscounted", correction=True))
    accepted(table, TransferMoney(payer=BANK, payee="ABS", amount=500, reason="Sponsor paid short"))
    accepted(table, LandOn(network="ABS", space="sponsor"))
    assert table.state.balances == {"ABS": 30_500 + 10_000, "CBA": 32_000}
    texts = [entry.text for entry in table.history()]
    assert texts[-3].startswith("Correction by hand: ABS pays CBA $1,000: miscounted")
    assert texts[-2].startswith("Correction by hand: Bank pays ABS $500")
    assert not texts[-1].startswith("Correction")
    whats = [row["what"] for row in csv.DictReader(io.StringIO(export_figures_csv(table.journal, game_id)))]
    assert sum(w.startswith("Correction by hand") for w in whats) == 2
    ledger = list(csv.DictReader(io.StringIO(export_ledger_csv(table.journal, game_id))))
    marks = [(row["payer"], row["payee"], row["correction"]) for row in ledger[-3:]]
    assert marks == [("ABS", "CBA", "yes"), (BANK, "ABS", "yes"), (BANK, "ABS", "no")]


def test_4_a_journaled_transfer_between_networks_still_replays():
    """The refusal is decide's: a network-to-network ``money_moved`` an earlier version journaled still
    folds (evolve), with or without the new correction key."""
    from companion.commands import PlayerSeat

    state = TV_WARS.new_game((PlayerSeat("ABS"), PlayerSeat("CBA")), {"roll_off": False})
    for name in ("ABS", "CBA"):
        for event in TV_WARS.decide(state, SelectStartingProgramming(network=name, programs=STANDARD)):
            state = TV_WARS.evolve(state, event)
    old = TV_WARS.events.decode("money_moved", {"payer": "ABS", "payee": "CBA", "amount": 700, "reason": "x"})
    assert isinstance(old, MoneyMoved) and old.correction is False and "correction" not in old.to_payload()
    state = TV_WARS.evolve(state, old)
    assert state.balances == {"ABS": 30_300, "CBA": 31_700}


# -- 3.11 and 10: the game's ends by its rules, through outcome() ------------------------------------------------------


def test_3_11_no_conventional_programming_left_to_nominate_ends_the_game_and_assets_count(table):
    """3.11 "If no conventional programming is left to nominate, the game is over and players
    immediately count their assets to determine the winner (see 8)": cash plus programs at 7's price."""
    playing(table, 2)
    for mover in ("ABS", "CBA"):
        accepted(table, LandOn(network=mover, space="bulletin"))
        accepted(table, Bulletin(network=mover, effect="collect", amount=200_000))
    lengths = [length for length, total in PROGRAM_INVENTORY.items() for _ in range(total)]
    left = sum(PROGRAM_INVENTORY.values()) - 22
    for length in lengths[:]:
        if table.state.supply.programs_left(length) == 0:
            continue
        mover = table.state.turn
        other = "CBA" if mover == "ABS" else "ABS"
        accepted(table, LandOn(network=mover, space="television_production_company"))
        accepted(table, Nominate(network=mover, length=length, colour="yellow"))
        accepted(table, PassBid(network=other))
        accepted(table, EnterTileValue(network=mover, value=20 if mover == "ABS" else 10))
        left -= 1
    assert left == 0 and table.state.supply.conventional_left == 0 and not table.state.finished
    accepted(table, LandOn(network=table.state.turn, space="television_production_company"))
    accepted(table, AnswerDice(roller="ABS", values=(3, 4)))  # the Specials are rolled for the count (8, 7)
    accepted(table, AnswerDice(roller="CBA", values=(3, 4)))
    result = TV_WARS.outcome(table.state)
    assert result is not None and result.termination is Termination.WON
    ended = table.state.final_count.result
    assert ended.rule == "TV Wars 3.11"
    totals = dict(ended.totals)
    for name in ("ABS", "CBA"):
        network = table.state.network(name)
        fixed = sum((t.rating // 10) * 500 * t.length for t in network.holdings.programs if t.kind == "program")
        assert totals[name] == network.cash + fixed + 7 * 500 * 2  # the Special rolled 70 RP, 60 minutes
    assert result.winners == (max(totals, key=totals.get),) and totals["ABS"] != totals["CBA"]
    assert result.ranking[0] == result.winners[0] and "(TV Wars 3.11)" in result.reason


def _down_to(table, network, tile_kind):
    """``network`` pays a huge Bulletin debt and keeps only its ``tile_kind`` tile (7, 9.8/9.91)."""
    accepted(table, LandOn(network=network, space="bulletin"))
    accepted(table, Bulletin(network=network, effect="pay", amount=900_000))
    sell_everything_sellable(table, network)
    assert kinds(table, network) == [tile_kind]


def _both_down(table):
    playing(table, 2)
    accepted(table, LandOn(network="ABS", space="best_network_news"))  # the Preemption (9.9)
    accepted(table, LandOn(network="CBA", space="bulletin"))
    accepted(table, Bulletin(network="CBA", effect="super_bowl"))
    _down_to(table, "ABS", PREEMPTION)
    _down_to(table, "CBA", SUPER_BOWL)
    assert table.state.balances == {"ABS": 0, "CBA": 0} and table.state.turn == "ABS"


def test_10_all_remaining_networks_lose_their_last_programs_in_one_war_equal_money_is_a_draw(table):
    """10 "Should the remaining players also have equal amounts of money at game end, the game is a draw":
    both networks, holding only the Preemption and the Super Bowl, are out at the next Ratings War (9.8,
    9.91) with $0 each."""
    _both_down(table)
    accepted(table, LandOn(network="ABS", space="ratings_war"))
    assert table.state.network("ABS").out and table.state.network("CBA").out
    result = TV_WARS.outcome(table.state)
    assert result is not None and result.termination is Termination.DRAW
    assert set(result.winners) == {"ABS", "CBA"} and "(TV Wars 10)" in result.reason


def test_10_all_remaining_networks_lose_their_last_programs_in_one_war_the_most_money_wins(table):
    """10 "If all of the remaining players lose their last programs in the same Ratings War, the winner is
    the player with the most money": CBA's Super Bowl earned $1,000 at Sponsor (9.4; the Preemption earns
    nothing), so CBA wins."""
    _both_down(table)
    accepted(table, LandOn(network="ABS", space="on_the_air"))
    accepted(table, LandOn(network="CBA", space="sponsor"))
    assert table.state.balances == {"ABS": 0, "CBA": 1_000}
    accepted(table, LandOn(network="ABS", space="ratings_war"))
    result = TV_WARS.outcome(table.state)
    assert result is not None and result.termination is Termination.ALL_LOST
    assert result.winners == ("CBA",) and result.ranking == ("CBA", "ABS") and "(TV Wars 10)" in result.reason


@pytest.mark.parametrize("effect", [5, None, ("pay",)])
def test_9_6_a_bulletin_effect_that_is_not_a_word_is_refused_not_a_crash(table, effect):
    """Bad input changes nothing and says why (found by tests/views_golden.py's decisions: an effect given as a
    number raised AttributeError from inside ``decide`` instead of a refusal)."""
    playing(table, 2)
    accepted(table, LandOn(network="ABS", space="bulletin"))
    refusal = refused(table, Bulletin(network="ABS", effect=effect, amount=500), MalformedCommand)
    assert "a Bulletin effect is one of" in str(refusal)


# -- 4 the nominator's opening bid: offered only when the network can pay it ----------------------------------------


@pytest.mark.parametrize(
    ("left", "space", "label", "enabled"),
    [
        (500, "talent_agency", "Open higher", False),  # not even the automatic $1,000
        (1_000, "talent_agency", "Open higher", False),  # the $1,000 only: "Nominate a Star" is the offer
        (1_500, "talent_agency", "Open higher", True),
        (500, "television_production_company", "Nominate a program", False),
        (1_000, "television_production_company", "Nominate a program", True),
    ],
)
def test_4_an_opening_the_nominator_cannot_pay_is_offered_disabled_with_its_rule(table, left, space, label, enabled):
    """By nominating, the player makes an automatic $1,000 bid or opens higher in $500 steps (4), and no loans
    may be made (4, 7): ``legal_commands`` must not offer, enabled, a nomination whose every opening ``decide``
    refuses (a random legal game got stuck on one)."""
    state = playing(table, 2)
    accepted(
        table,
        TransferMoney(payer="ABS", payee=BANK, amount=state.network("ABS").cash - left, reason="test", correction=True),
    )
    accepted(table, LandOn(network="ABS", space=space))
    (offer,) = [o for o in TV_WARS.legal_commands(table.state, "ABS") if o.label == label]
    assert offer.enabled is enabled and offer.kind == "Nominate" and offer.command is None
    if not enabled:
        assert offer.rule == "TV Wars 4, 7" and f"ABS has ${left:,}" in offer.reason
        assert "no loans" in offer.reason
    opening = 1_500 if label == "Open higher" else 1_000
    nominate = Nominate(network="ABS", opening=opening)
    if space != "talent_agency":
        nominate = Nominate(network="ABS", length=1, colour="green", opening=opening)
    if enabled:
        accepted(table, nominate)
    else:
        refused(table, nominate, IllegalCommand)
