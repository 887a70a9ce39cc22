"""Record the reference journals: one long game of each of the four games, played through a real
:class:`~companion.table.Table` into a real journal file by the code of the day, with what it replays to.

    .venv/bin/python -P tests/data/journals/record.py tests/data/journals/<version>

writes ``<game>.sqlite3`` (the journal, checkpointed so it is one file) and ``<game>.json`` (the state, the
line of moves in force, the redo stack and each history entry's seq and type after the last move) for
``tv-wars``, ``death-show-tv``, ``channel-won`` and ``telly-time``. The games mix every kind of move the
recorder knows with refused tries, undos, redos and jumps back (DESIGN.md, "The journal"), from a seeded
random source, so a second run on the same code writes the same events.

``tests/test_recorded_journals.py`` opens copies of the committed files with today's code and asserts
they replay to exactly what was recorded ("Journals written by any earlier version must still open and
replay to the same state"). Never re-record over an existing version's folder: record a new folder.
"""

from __future__ import annotations

import json
import random
import sqlite3
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))  # tests/: the shared helpers (canonical, the games' scripts)

from journal_canon import expected_of  # noqa: E402

from companion.commands import (  # noqa: E402 (after the sys.path line above)
    BANK,
    AdjustTrack,
    AnswerDice,
    JumpTo,
    NewGame,
    PlayerSeat,
    Redo,  # noqa: E402
    RollDice,
    TransferMoney,
    Undo,
)
from companion.dice import SeededDice  # noqa: E402
from companion.journal import Journal  # noqa: E402
from companion.table import Table  # noqa: E402

MOVES = 260  # accepted moves per game (fewer if the game ends first)
TRIES = 40  # candidate commands tried per move before a history move is made instead


def _history_move(table: Table, rng: random.Random):
    """An undo of 1–3 moves, a redo, or a jump back to a random entry."""
    session = table.session
    roll = rng.random()
    if roll < 0.5:
        return Undo(steps=rng.randint(1, 3))
    if roll < 0.8:
        return Redo()
    entries = session.entries
    return JumpTo(seq=rng.choice(entries).seq) if entries else Redo()


def _play(table: Table, rng: random.Random, candidates, moves: int = MOVES) -> int:
    """Accept ``moves`` moves: each step tries ``candidates(state, rng)`` (a list) in order, and one step in
    eight is a history move. Returns the number of refused tries (they journal nothing)."""
    refused = accepted = 0
    while accepted < moves and not getattr(table.state, "finished", False):
        if rng.random() < 0.125:
            outcome = table.execute(_history_move(table, rng))
            accepted += outcome.accepted
            continue
        for command in candidates(table.state, rng)[:TRIES]:
            outcome = table.execute(command)
            if outcome.accepted:
                accepted += 1
                break
            refused += 1
        else:
            accepted += table.execute(Undo()).accepted
    return refused


# -- TV Wars ------------------------------------------------------------------------------------------------


def tv_wars(table: Table, rng: random.Random) -> None:
    from test_tv_wars_play import STANDARD
    from test_tv_wars_play_properties import _actor as actor

    from companion.games.tv_wars import (
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
        SelectStartingProgramming,
        SellProgram,
        Steal,
    )
    from companion.games.tv_wars.spaces import SPACES
    from companion.games.tv_wars.war_at_table import LockLineUp, PlacePreemption, RevealLineUps, war_active

    names = ("ABS", "CBA", "PBC", "NBS")
    table.execute(
        NewGame(
            game="tv-wars", players=tuple(PlayerSeat(n) for n in names), options={"roll_off": False}, source="record"
        )
    )
    for name in names:
        table.execute(SelectStartingProgramming(network=name, programs=STANDARD))
    spaces = sorted(SPACES)

    def lineups(state, rng):
        """Line-ups to try in a Ratings War (6): random orders of each unlocked network's programs that
        fill 8:00-11:00 (6 half-hours), some with a bonus tile on the first program; most are legal."""
        out = []
        for entry in state.war.entries:
            if entry.locked:
                continue
            holdings = next(n.holdings for n in state.networks if n.name == entry.network)
            programs = [t for t in holdings.programs if t.kind != "preemption"]
            bonuses = [t.id for t in holdings.bonuses]
            for _ in range(6):
                rng.shuffle(programs)
                placements, filled = [], 0
                for tile in programs:
                    if filled + tile.length <= 6:
                        placements.append((tile.id, None))
                        filled += tile.length
                if placements and bonuses and rng.random() < 0.5:
                    placements[0] = (placements[0][0], rng.choice(bonuses))
                out.append(
                    LockLineUp(network=entry.network, placements=tuple(placements), promotion=rng.random() < 0.2)
                )
        return out + [RevealLineUps(), PlacePreemption(network=actor(state), start=None)]

    def candidates(state, rng):
        if war_active(state.war) and state.war.phase in ("line-ups", "reveal") and rng.random() < 0.9:
            return lineups(state, rng)
        who = actor(state)
        pick = lambda: who if rng.random() < 0.85 else rng.choice(names)  # noqa: E731
        tiles = sorted({t.id for n in state.networks for t in n.holdings.programs + n.holdings.bonuses})
        minimum = state.auction.minimum if state.auction is not None else 1_000
        out = [
            AnswerDice(roller=who, values=(rng.randint(1, 6), rng.randint(1, 6))),
            RollDice(roller=who),
            PassOnTheAir(network=pick()),
            LandOnSponsor(network=pick(), half_hours=rng.choice([None, 2, 20])),
            LandOn(network=pick(), space=rng.choice(spaces), passed_on_the_air=rng.random() < 0.3),
            Nominate(
                network=pick(),
                length=rng.choice([None, 1, 2, 3]),
                colour=rng.choice([None, "green", "red", "blue", "yellow"]),
                opening=rng.choice([1_000, 1_500, 2_000]),
            ),
            Bid(network=pick(), amount=rng.choice([minimum, minimum + 500, minimum + 250])),
            PassBid(network=pick()),
            Decline(network=pick()),
            BuyMovie(network=pick()),
            EnterTileValue(network=pick(), value=rng.choice([10, 20, 30, 50, 70, None]), special=rng.random() < 0.2),
            Steal(network=pick(), victim=rng.choice(names)),
            Bulletin(
                network=pick(),
                effect=rng.choice(["pay", "collect", "pay_each", "collect_each", "super_bowl", "auction_star", "none"]),
                amount=rng.choice([500, 5_000]),
            ),
            TransferMoney(
                payer=rng.choice(names + (BANK,)),
                payee=rng.choice(names + (BANK,)),
                amount=rng.choice([500, 2_500]),
                reason="correction",
            ),
            AdjustTrack(player=rng.choice(names), track="half_hours", delta=rng.randint(-2, 2), reason="fix"),
        ]
        if tiles:
            out += [
                GiveUp(network=pick(), tile_id=rng.choice(tiles)),
                SellProgram(network=pick(), tile_id=rng.choice(tiles)),
            ]
        head, rest = out[:2], out[2:]
        rng.shuffle(rest)
        return head + rest

    _play(table, rng, candidates)


# -- Death Show TV --------------------------------------------------------------------------------------------


def death_show_tv(table: Table, rng: random.Random) -> None:
    from companion.games.death_show_tv import (
        DEATH_SHOW_TV,
        LOCATIONS,
        AdjustBonus,
        AdjustHand,
        Confirm,
        DeclareFighter,
        Discard,
        DrawCard,
        EndTurn,
        Fight,
        Heal,
        Hunt,
        Move,
        NewWeaponLevel,
        PlayEvent,
        RemoveLocation,
        Wound,
    )

    names = ("Kelpie", "Jhon", "Elena", "Rex")
    table.execute(NewGame(game="death-show-tv", players=tuple(PlayerSeat(n) for n in names), source="record"))

    def candidates(state, rng):
        anyone = lambda: rng.choice(state.names)  # noqa: E731
        where = lambda: rng.choice(LOCATIONS)  # noqa: E731
        out = []
        request = DEATH_SHOW_TV.pending_dice(state)
        if request is not None:
            out.append(AnswerDice(roller=request.roller, values=tuple(rng.randint(1, 6) for _ in range(request.count))))
            out.append(RollDice(roller=request.roller))
        turn = state.turn or state.names[0]
        if state.combat is not None and state.combat.next_to_declare is not None:
            fighter = state.combat.next_to_declare.name
            out += [
                DeclareFighter(
                    fighter=fighter,
                    weapon=rng.choice(["Unarmed", "Katana", "Bazooka"]),
                    weapon_bonus=rng.randint(0, 3),
                    weapon_level=rng.randint(1, 3),
                    dice=rng.randint(1, 2),
                ),
                DeclareFighter(fighter=fighter),
                AdjustBonus(fighter=fighter, delta=1),
                Confirm(player=fighter),
            ]
        elif state.deaths:
            out += [RemoveLocation(player=state.deaths[0].remover or turn, location=where()) for _ in range(6)]
        elif state.phase == "draw":
            out += [DrawCard(player=turn), NewWeaponLevel(player=turn)]
        elif state.phase == "action":
            out += [
                Move(player=turn, location=where()),
                Hunt(player=turn, location=where()),
                Fight(player=turn),
                Move(player=turn, location=where()),
            ]
        elif state.phase == "event":
            out += [
                EndTurn(player=turn),
                PlayEvent(player=turn, card="Squirrels", combat_value=rng.randint(0, 5), targets=(anyone(),)),
                Wound(player=anyone(), by=turn, reason="Fire", amount=rng.randint(1, 2)),
            ]
        elif state.phase == "discard":
            out += [Discard(player=anyone(), count=rng.randint(1, 3))]
        noise = [
            AdjustHand(player=anyone(), delta=rng.randint(-1, 3), reason="card"),
            Heal(player=anyone(), reason="Medkit"),
            Confirm(player=anyone()),
            Fight(player=anyone()),
        ]
        rng.shuffle(out)
        return out + noise if rng.random() < 0.8 else noise + out

    _play(table, rng, candidates)


# -- Channel WON ----------------------------------------------------------------------------------------------


def channel_won(table: Table, rng: random.Random) -> None:
    from test_channel_won_props import candidates as any_moves
    from test_channel_won_props import constructive

    names = ("Ann", "Bo", "Cy")
    table.execute(NewGame(game="channel-won", players=tuple(PlayerSeat(n) for n in names), source="record"))
    _play(table, rng, lambda state, rng: (constructive(state) if rng.random() < 0.7 else []) + any_moves(state, rng))


# -- The Networks: Telly Time ---------------------------------------------------------------------------------


def telly_time(table: Table, rng: random.Random) -> None:
    from telly_time_helpers import PLAYERS, pilot, start

    from companion.games.telly_time import (
        TIMESLOTS,
        AdjustCash,
        AdjustViewers,
        PlaceGridMarker,
        ProduceShow,
        ScoreEndGame,
        ScoreLineup,
        ShowScore,
        TakeAction,
    )
    from companion.games.telly_time import Pass as PassSeason

    start(table)
    pilot(table)
    genres = ("Kids", "Drama", "Quiz", "Crime", "Comedy", "Reality", "Sports", "Chat", "Sci-Fi")

    def candidates(state, rng):
        player = state.current or rng.choice(PLAYERS)
        out = []
        if state.phase == "end_scoring":
            out += [ScoreEndGame(player=p, bonuses=(("Ads", rng.randint(0, 3)),)) for p in PLAYERS]
        out += [
            ScoreLineup(player=p, shows=tuple(ShowScore(slot, rng.randint(0, 3)) for slot in TIMESLOTS))
            for p in PLAYERS
        ]
        out += [
            PassSeason(player=player, reward=rng.choice(["viewers", "cash"]), amount=rng.randint(1, 3)),
            ProduceShow(
                player=player,
                name=f"Show {rng.randint(1, 99)}",
                genre=rng.choice(genres),
                timeslot=rng.choice(TIMESLOTS),
                cost_m=rng.randint(0, 2),
            ),
            TakeAction(
                player=player,
                action=rng.choice(["produce", "sign_star", "buy_ad", "network_card"]),
                cash_m=rng.randint(0, 2),
            ),
            PlaceGridMarker(player=player, genre=rng.choice(genres)),
            AdjustCash(player=rng.choice(PLAYERS), amount_m=rng.choice([-1, 1, 2]), reason="correction"),
            AdjustViewers(player=rng.choice(PLAYERS), viewers=rng.choice([-1, 1]), reason="network card"),
        ]
        first, rest = out[:3], out[3:]
        rng.shuffle(rest)
        return (first + rest) if state.phase == "end_scoring" else (rest + first)

    _play(table, rng, candidates)


GAMES = {"tv-wars": tv_wars, "death-show-tv": death_show_tv, "channel-won": channel_won, "telly-time": telly_time}


def record(folder: Path, seed: int = 20261201) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for index, (game, play) in enumerate(GAMES.items()):
        path = folder / f"{game}.sqlite3"
        if path.exists():
            raise SystemExit(f"{path} exists: record a new version's folder instead")
        journal = Journal(path)
        table = Table(journal, dice=SeededDice(seed + index))
        table.claim()
        play(table, random.Random(seed + index))
        expected = expected_of(table.session)
        journal.close()
        with sqlite3.connect(path) as db:  # one self-contained file, whatever the journal mode
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        for suffix in ("-wal", "-shm"):
            Path(str(path) + suffix).unlink(missing_ok=True)
        (folder / f"{game}.json").write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n")
        kinds = sorted({e["type"] for e in expected["entries"]})
        print(
            f"{game}: {len(expected['entries'])} entries, {len(expected['line'])} moves in force, "
            f"finished={expected['finished']}, {len(kinds)} entry types",
            file=sys.stderr,
        )


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    record(Path(sys.argv[1]))
