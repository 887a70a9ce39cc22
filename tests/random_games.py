"""Random games of each of the four games, played through a real :class:`companion.table.Table` (hypothesis
draws every choice, so a failing game shrinks): ``start(name, table, data)`` starts one and returns its game
id; ``command(name, table, data)`` draws the next command to try (legal or not: a refusal changes nothing),
and sometimes an undo, redo or jump back (``history=True``).

The command vocabularies are the games' own property tests' (tests/test_*_props.py,
tests/test_tv_wars_play_properties.py), plus for Telly Time the commands of a season.
"""

from __future__ import annotations

import random

# the games' own property tests' vocabularies (imported here, at collection: they define hypothesis tests)
import test_channel_won_props
import test_death_show_tv_props
import test_tv_wars_play
import test_tv_wars_play_properties
from hypothesis import strategies as st
from telly_time_helpers import TILES, seats

from companion.commands import (
    BANK,
    AdjustTrack,
    AnswerDice,
    EndGame,
    JumpTo,
    NewGame,
    PlayerSeat,
    Redo,
    RollDice,
    TransferMoney,
    Undo,
)
from companion.games.channel_won import CHANNEL_WON
from companion.games.telly_time import (
    DEFAULT_GENRES,
    TIMESLOTS,
    AdjustCash,
    AdjustViewers,
    ChoosePilotShow,
    KeepPilotCards,
    Pass,
    PilotCard,
    ProduceShow,
    ScoreEndGame,
    ScoreLineup,
    ShowScore,
    StartSeason,
    TakeAction,
)
from companion.games.tv_wars import LandOnSponsor, PassOnTheAir, SelectStartingProgramming

GAMES = ("tv-wars", "death-show-tv", "channel-won", "telly-time")


def start(name: str, table, data) -> int:
    """Start a game of ``name`` on ``table`` (players and options drawn); return its game id."""
    if name == "tv-wars":
        STANDARD, NAMES = test_tv_wars_play.STANDARD, test_tv_wars_play_properties.NAMES
        roll_off = data.draw(st.booleans(), label="roll_off")
        outcome = table.execute(
            NewGame(game=name, players=tuple(PlayerSeat(n) for n in NAMES), options={"roll_off": roll_off})
        )
        if not roll_off and data.draw(st.booleans(), label="full play"):  # Program tiles, auctions, debts
            for network in NAMES:
                assert table.execute(SelectStartingProgramming(network=network, programs=STANDARD)).accepted
    elif name == "death-show-tv":
        NAMES = test_death_show_tv_props.NAMES
        players = data.draw(st.integers(2, 4), label="players")
        outcome = table.execute(
            NewGame(
                game=name,
                players=tuple(PlayerSeat(n) for n in NAMES[:players]),
                options={
                    "vitality": data.draw(st.integers(1, 3), label="vitality"),
                    "roll_off": data.draw(st.booleans(), label="roll_off"),
                    "starting_cards": 2,
                },
            )
        )
    elif name == "channel-won":
        players = data.draw(st.integers(2, 5), label="players")
        outcome = table.execute(
            NewGame(
                game=name,
                players=tuple(PlayerSeat(n) for n in CHANNEL_WON.info.default_names[:players]),
                options={"score_open_leads": data.draw(st.booleans(), label="open leads")},
            )
        )
    else:
        outcome = table.execute(NewGame(game=name, players=seats(), options={"tiles": TILES}))
    assert outcome.accepted, outcome.message
    return outcome.records[0].game_id


def _tv_wars(table, data):
    NAMES, commands = test_tv_wars_play_properties.NAMES, test_tv_wars_play_properties.commands
    state = table.state
    if state.playing and data.draw(st.integers(0, 3), label="full play command"):
        return data.draw(commands(state))
    network = data.draw(st.sampled_from(NAMES))
    request = table.view().pending_dice
    kind = data.draw(st.sampled_from(["air", "sponsor", "pay", "track", "roll", "answer"]))
    if kind == "air":
        return PassOnTheAir(network=network)
    if kind == "sponsor":
        return LandOnSponsor(network=network, half_hours=data.draw(st.one_of(st.none(), st.integers(0, 30))))
    if kind == "pay":
        payer = data.draw(st.sampled_from((BANK,) + NAMES))
        return TransferMoney(
            payer=payer,
            payee=data.draw(st.sampled_from((BANK,) + NAMES)),
            amount=data.draw(st.sampled_from([500, 1_000, 2_500, 20_000])),
            reason="random",
        )
    if kind == "track":
        return AdjustTrack(player=network, track="half_hours", delta=data.draw(st.integers(-5, 5)))
    roller = request.roller if request else network
    if kind == "roll":
        return RollDice(roller=roller)
    return AnswerDice(roller=roller, values=(data.draw(st.integers(1, 6)), data.draw(st.integers(1, 6))))


def _death_show(table, data):
    return test_death_show_tv_props._command(data, table.state)


def _channel_won(table, data):
    candidates, constructive = test_channel_won_props.candidates, test_channel_won_props.constructive
    state = table.state
    rng = random.Random(data.draw(st.integers(0, 2**32), label="seed"))
    tries = candidates(state, rng)
    if state.turn is not None and data.draw(st.booleans(), label="constructive"):
        tries = constructive(state) + tries
    return tries[0]


def _telly_time(table, data):
    state = table.state
    names = tuple(n.name for n in state.networks)
    player = state.current if state.current and data.draw(st.integers(0, 3)) else data.draw(st.sampled_from(names))
    genre, slot = data.draw(st.sampled_from(DEFAULT_GENRES)), data.draw(st.sampled_from(TIMESLOTS))
    options = [
        ChoosePilotShow(player=player, genre=genre, timeslot=slot, name="Pilot"),
        KeepPilotCards(player=player, cards=(PilotCard("ad", "Soap", 3, 0), PilotCard("star", "Name", 0, 1))),
        StartSeason(),
        ProduceShow(player=player, name="Show", genre=genre, timeslot=slot, cost_m=data.draw(st.integers(0, 3))),
        TakeAction(
            player=player,
            action=data.draw(st.sampled_from(["ad", "star", "buyout", "quiz", "nothing"])),
            cash_m=data.draw(st.integers(0, 3)),
        ),
        Pass(
            player=player,
            reward=data.draw(st.sampled_from(["cash", "viewers", "nothing"])),
            amount=data.draw(st.integers(0, 3)),
        ),
        AdjustCash(player=player, amount_m=data.draw(st.integers(-2, 4)), reason="random"),
        AdjustViewers(player=player, viewers=data.draw(st.integers(-2, 4)), reason="random"),
        ScoreLineup(
            player=player, shows=(ShowScore(slot, data.draw(st.integers(0, 6))),), income_m=data.draw(st.integers(0, 4))
        ),
        ScoreEndGame(player=player),
    ]
    return data.draw(st.sampled_from(options))


_DRIVERS = {"tv-wars": _tv_wars, "death-show-tv": _death_show, "channel-won": _channel_won, "telly-time": _telly_time}


def command(name: str, table, data, history: bool = True):
    """The next command to try in ``table``'s open game of ``name``: a game command, or (``history``, about
    one time in five) an undo of 1-3 moves, a redo or a jump back to a drawn entry; ``EndGame`` rarely."""
    roll = data.draw(st.integers(0, 19), label="kind")  # hypothesis shrinks towards 0: game commands
    if history and roll in (16, 17):
        return Undo(steps=data.draw(st.integers(1, 3)))
    if history and roll == 18:
        return Redo()
    if history and roll == 19:  # newest first: shrinks to a short jump
        entries = [entry.seq for entry in table.session.history_entries(0, table.session.entry_count)]
        return JumpTo(seq=data.draw(st.sampled_from(entries[::-1][1:] or entries)))
    if roll == 15 and data.draw(st.integers(0, 3)) == 3:
        return EndGame(reason="random")
    return _DRIVERS[name](table, data)
