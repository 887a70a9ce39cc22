"""Telly Time engine figures: decide+evolve per command, a full five-season game through a Table (journal
writes included), and replaying that game from its journal. Prints figures; asserts nothing.

    PYTHONPATH=$PWD python benchmarks/telly_time.py [--games N]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from companion.commands import NewGame, PlayerSeat
from companion.games.telly_time import (
    TELLY_TIME,
    ChoosePilotShow,
    KeepPilotCards,
    Pass,
    PilotCard,
    PlaceGridMarker,
    ProduceShow,
    ScoreEndGame,
    ScoreLineup,
    ShowScore,
    StartSeason,
    TakeAction,
)
from companion.journal import Journal
from companion.table import Table, replay

NAMES = ("Arkady", "Virginia", "Kim", "Lou", "Sam")
CENTRES = ("Drama", "Comedy", "Crime", "Reality", "Sports")
GENRES = ("Drama", "Comedy", "Crime", "Reality", "Sports", "Sci-Fi", "Kids", "Quiz", "Chat")


def tiles() -> dict:
    """Five entered tiles: the centre genre swapped into the centre square (index 4) of the genre list."""
    result = {}
    for centre in CENTRES:
        squares = [g for g in GENRES if g != centre]
        squares.insert(4, centre)
        result[centre] = {"squares": squares, "bonuses": {"row1": {"label": "Cash bonus", "cash_m": 2}}}
    return result


def commands(players: int):
    """A five-season game's commands for ``players`` players (turns, grid fills, scoring, end bonuses)."""
    names = NAMES[:players]
    yield from (ChoosePilotShow(player=n, genre=c, timeslot="8pm") for n, c in zip(names, CENTRES))
    yield from (KeepPilotCards(player=n, cards=(PilotCard("ad", cash_m=5), PilotCard("star", cost_m=1))) for n in names)
    yield StartSeason()


def play(table: Table, players: int) -> int:
    """Play a whole game on ``table``; return the number of accepted commands."""
    count = 0

    def run(command):
        nonlocal count
        outcome = table.execute(command)
        if not outcome.accepted:
            raise RuntimeError(outcome.message)
        count += 1

    run(NewGame(game="telly-time", players=tuple(PlayerSeat(n) for n in NAMES[:players]), options={"tiles": tiles()}))
    for command in commands(players):
        run(command)
    for season in range(1, 6):
        for turn in range(3):
            for name in list(table.state.order):
                genre = GENRES[(season * 3 + turn + NAMES.index(name)) % 9]
                slot = "weekend" if genre == "Kids" else ("primetime", "late_night", "weekend")[turn]
                run(ProduceShow(player=name, name=f"S{season}{turn}", genre=genre, timeslot=slot, preferred=(slot,)))
        for name in NAMES[:players]:
            genre = GENRES[(season + NAMES.index(name) * 2) % 9]
            if not table.state.network(name).grid.is_filled(genre):
                run(PlaceGridMarker(player=name, genre=genre))
        while table.state.phase == "season":
            run(Pass(player=table.state.current, reward="viewers", amount=3))
        for name in NAMES[:players]:
            run(
                ScoreLineup(
                    player=name,
                    shows=tuple(ShowScore(s, 2, (1,)) for s in ("8pm", "primetime", "late_night", "weekend")),
                )
            )
    for name in NAMES[:players]:
        run(ScoreEndGame(player=name, bonuses=(("Ads", 2),)))
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        total_commands, total_time, replays, events = 0, 0.0, [], 0
        for index in range(args.games):
            with Journal(Path(folder) / f"g{index}.sqlite3") as journal:
                table = Table(journal, backup_every=None)
                table.claim()
                start = time.perf_counter()
                total_commands += play(table, 5)
                total_time += time.perf_counter() - start
                records = journal.events(table.session.game_id)
                events += len(records)
                start = time.perf_counter()
                session = replay(records)
                replays.append(time.perf_counter() - start)
                assert session.state == table.state
        print(
            f"full 5-player games through a Table: {args.games}, {total_commands} commands, "
            f"{total_commands / total_time:.0f} commands/s (journal writes included)"
        )
        print(
            f"replay of one game ({events // args.games} events): best {min(replays) * 1000:.1f} ms, "
            f"worst {max(replays) * 1000:.1f} ms"
        )
    # decide + evolve alone
    state = TELLY_TIME.new_game(tuple(PlayerSeat(n) for n in NAMES), {"tiles": tiles()})
    for command in commands(5):
        for event in TELLY_TIME.decide(state, command):
            state = TELLY_TIME.evolve(state, event)
    command = TakeAction(player=state.current, action="Sign a star")
    rounds = 20_000
    start = time.perf_counter()
    for _ in range(rounds):
        TELLY_TIME.decide(state, command)
    elapsed = time.perf_counter() - start
    print(f"decide(TakeAction): {elapsed / rounds * 1e6:.1f} µs each over {rounds}")


if __name__ == "__main__":
    main()
