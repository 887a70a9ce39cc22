"""Property tests for TV Wars full play: random sequences of commands (most of them refused) never break
the invariants: money is conserved between the networks and the bank (4, 7, 9.4, 9.5), the Inventory
limits are never exceeded (Inventory, 3.22, 5.12, 5.22, 5.32), refusals change nothing, and refolding the
journaled events reproduces the state (undo relies on it)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_tv_wars_play import STANDARD

from companion.commands import BANK, AnswerDice, PlayerSeat
from companion.errors import CommandError
from companion.games.tv_wars import (
    TV_WARS,
    Bid,
    Bulletin,
    BuyMovie,
    Decline,
    EnterTileValue,
    GiveUp,
    LandOn,
    Nominate,
    PassBid,
    SelectStartingProgramming,
    SellProgram,
    Steal,
)
from companion.games.tv_wars.bank import MONEY_MOVED
from companion.games.tv_wars.holdings import PROGRAM_INVENTORY
from companion.games.tv_wars.ratings_war import INVENTORY
from companion.games.tv_wars.spaces import SPACES

NAMES = ("ABS", "CBA", "PBC")


def _start():
    state = TV_WARS.new_game(tuple(PlayerSeat(n) for n in NAMES), {"roll_off": False})
    events = []
    for name in NAMES:
        for event in TV_WARS.decide(state, SelectStartingProgramming(network=name, programs=STANDARD)):
            events.append(event)
            state = TV_WARS.evolve(state, event)
    return state, events


def _actor(state) -> str:
    """Whoever the table is waiting for, so that most drawn commands have a chance of being legal."""
    request = TV_WARS.pending_dice(state)
    if request is not None:
        return request.roller
    if state.debts:
        return state.debts[0].network
    if state.auction is not None:
        return state.auction.next_bidder
    if state.entry is not None:
        return state.entry.network
    if state.landing is not None:
        return state.landing.victim if state.landing.stage.startswith("give_") else state.landing.network
    return state.turn


def commands(state):
    """A strategy of commands for ``state``: mostly from the awaited network, sometimes from anyone."""
    network = st.one_of(st.just(_actor(state)), st.just(_actor(state)), st.sampled_from(NAMES))
    tiles = sorted({t.id for n in state.networks for t in n.holdings.programs + n.holdings.bonuses} | {"P999"})
    spaces = sorted(s for s in SPACES if s not in ("ratings_war", "february_sweeps"))
    minimum = state.auction.minimum if state.auction is not None else 1_000
    return st.one_of(
        st.builds(LandOn, network=network, space=st.sampled_from(spaces), passed_on_the_air=st.booleans()),
        st.builds(
            Nominate,
            network=network,
            length=st.sampled_from([None, 1, 2, 3, 4]),
            colour=st.sampled_from([None, "green", "red", "blue", "yellow"]),
            opening=st.sampled_from([1_000, 1_500, 2_000, 40_000]),
        ),
        st.builds(Bid, network=network, amount=st.sampled_from([minimum, minimum + 500, minimum + 250, 500, 99_000])),
        st.builds(PassBid, network=network),
        st.builds(Decline, network=network),
        st.builds(BuyMovie, network=network),
        st.builds(
            EnterTileValue,
            network=network,
            value=st.sampled_from([10, 20, 30, 50, -20, 70, None]),
            special=st.booleans(),
        ),
        st.builds(Steal, network=network, victim=st.sampled_from(NAMES)),
        st.builds(GiveUp, network=network, tile_id=st.sampled_from(tiles)),
        st.builds(
            Bulletin,
            network=network,
            effect=st.sampled_from(
                ["pay", "collect", "pay_each", "collect_each", "super_bowl", "auction_star", "none"]
            ),
            amount=st.sampled_from([500, 5_000, 40_000]),
        ),
        st.builds(SellProgram, network=network, tile_id=st.sampled_from(tiles)),
        st.builds(AnswerDice, roller=network, values=st.tuples(st.integers(1, 6), st.integers(1, 6))),
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_money_conserved_inventory_respected_refusals_inert_replay_exact(data):
    state, log = _start()
    bank_paid_out = 0
    for _ in range(data.draw(st.integers(0, 80))):
        if state.finished:
            break
        command = data.draw(commands(state))
        before = state
        try:
            events = TV_WARS.decide(state, command)
        except CommandError:
            assert state == before
            continue
        for event in events:
            state = TV_WARS.evolve(state, event)
            TV_WARS.describe(event)
            if event.type == MONEY_MOVED:
                assert event.payload["amount"] > 0
                if event.payload["payer"] == BANK:
                    bank_paid_out += event.payload["amount"]
                if event.payload["payee"] == BANK:
                    bank_paid_out -= event.payload["amount"]
        log += events
        # money: what the networks hold is what they started with plus what the bank paid out, net
        assert sum(state.balances.values()) == 31_000 * len(NAMES) + bank_paid_out
        assert all(cash >= 0 for cash in state.balances.values())
        # Inventory
        held = [n.holdings for n in state.networks]
        assert sum(h.count("star") for h in held) <= INVENTORY["Star"]
        assert sum(h.count("emmy") for h in held) <= INVENTORY["Emmy"]
        assert state.supply.critics_choice_drawn <= INVENTORY["Critics' Choice"]
        assert state.supply.viewers_views_drawn <= INVENTORY["Viewers' Views"]
        assert state.supply.movies_sold <= INVENTORY["Academy Award Movie"]
        for length, limit in PROGRAM_INVENTORY.items():
            assert state.supply.entered(length) <= limit
        ids = [t.id for h in held for t in h.programs] + [t.id for h in held for t in h.bonuses]
        assert len(ids) == len(set(ids))
        assert sum(any(t.kind == "super_bowl" for t in h.programs) for h in held) <= 1
        # the public view never shows a secret
        view = TV_WARS.public_view(state)
        assert " RP" not in view.status and not any(" RP" in note for note in view.notes)
    replayed, _ = _start()
    for event in log[len(_start()[1]) :]:
        replayed = TV_WARS.evolve(replayed, event)
    assert replayed == state
