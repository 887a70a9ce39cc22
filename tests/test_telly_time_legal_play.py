"""Random games of The Networks with Telly Time played TO THEIR END choosing only among ``legal_commands``
(rules/the-networks-telly-time.txt; rulings in docs/rulings-telly-time.md), through a real Table on a real
SQLite journal.

At every step a seat and one of its *enabled* offers are drawn; an offer without a complete command gets its
arguments from a draw (hypothesis', or a seed's: :mod:`draws`) of values the rules allow, and the table must
accept it. A sample of the disabled offers is refused by ``decide`` with the reason the offer shows. After every
step the rulebook's invariants are checked:

* Your Genre Grid: a tile shows each of the game's genres at most once, one genre per square; the centre is
  the Pilot Season genre with a marker; a marker only on a square whose genre is entered; filled + empty = 9;
  a line's bonus is gained once, only for a full line, and every full line is gained (or awaits the mogul
  choice); one tile per centre genre among the players (Telly Time Pilot Season).
* Timeslots: four timeslots with one show each once the Pilot Season show is placed; a show printed Kids
  never in primetime or late night (New Genres & Show Effects, Kids).
* Money and viewers: each network's cash and viewers are its starting cash plus the journaled cash changes
  and line bonuses, and its journaled viewers (nothing moves unrecorded); cash never below $0M (ruling 9);
  passing pays $1M per empty grid square plus the pass track's cash (doubled only if preempted); a scored
  lineup adds +1 viewer per filled square (Empty & Filled Squares, Clarifications: Preempted Timeslot).
* Turns: the player on turn has not passed; the order is the players; seasons 0 to 5.

At the end the game is over (most viewers win, ties share) and the journal file, reopened by a new Table,
replays to the same state.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from dataclasses import replace
from pathlib import Path

from draws import HypothesisDraws, journaled_game
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from companion.commands import NewGame, PlayerSeat
from companion.errors import CommandError, IllegalCommand
from companion.games.telly_time import (
    TELLY_TIME,
    AdjustCash,
    AdjustViewers,
    ChooseMogulLine,
    ChoosePilotShow,
    EnterTile,
    KeepPilotCards,
    Pass,
    PilotCard,
    PlaceGridMarker,
    ProduceShow,
    ScoreEndGame,
    ScoreLineup,
    SetGridSquare,
    SetLineBonus,
    ShowScore,
    TakeAction,
    Writeoff,
)
from companion.games.telly_time.grid import CENTRE, LINE_IDS, SQUARES
from companion.games.telly_time.rules import writeoff_shows
from companion.games.telly_time.state import ANY, CHAT, DEFAULT_GENRES, KIDS, NO_KIDS_SLOTS, QUIZ, TIMESLOTS

NAMES = ("Arkady", "Virginia", "Kim", "Lou", "Sam")
#: The offers that move the game on (drawn more often, and the only ones once the game runs long); in the
#: Pilot Season, entering a tile's squares (SetGridSquare) does too.
PROGRESS = {
    "ChoosePilotShow",
    "KeepPilotCards",
    "StartSeason",
    "ProduceShow",
    "TakeAction",
    "Pass",
    "ScoreLineup",
    "ScoreEndGame",
    "ChooseMogulLine",
}
KIDS_RULE = "Telly Time: New Genres & Show Effects, Kids"
BASE_RULE = "The Networks base game"
GRID_RULE = "Telly Time: Your Genre Grid"
WILD_RULE = "Telly Time: Wild Timeslots"
END_RULE = "Telly Time: End-Game Scoring"
#: After this many steps only progress is drawn (and in a season only passing), so every game ends.
LONG = 60


def _tile(data, centre: str) -> dict:
    others = data.permutation([g for g in DEFAULT_GENRES if g != centre])
    squares = others[:CENTRE] + [centre] + others[CENTRE:]
    bonuses = {}
    for line in data.sublist(LINE_IDS, max_size=4, unique=True):
        bonuses[line] = {"label": f"{line} bonus", "cash_m": data.integer(0, 3), "viewers": 1}
    return {"squares": squares, "bonuses": bonuses}


def _start(table, data) -> tuple[int, dict]:
    players = data.integer(1, 5)
    centres = data.permutation(DEFAULT_GENRES)[:players]
    entered = data.sublist(centres, unique=True)  # other tiles are entered at the table
    options = {
        "moguls": data.boolean(),
        "starting_cash_m": data.integer(0, 6),
        "turn_order": data.choice(("pass_order", "seat")),
        "allow_negative_cash": data.boolean(),
        "tiles": {centre: _tile(data, centre) for centre in entered},
    }
    seats = tuple(PlayerSeat(name, "#ffffff") for name in NAMES[:players])
    outcome = table.execute(NewGame(game="telly-time", players=seats, options=options, source="test"))
    assert outcome.accepted, outcome.message
    return outcome.records[0].game_id, {"centres": dict(zip(NAMES, centres)), **options}


def _text(data) -> str:
    return data.choice(("Network card", "Catalog Buyout", "Market Research", "Sign a star"))


def _preferred(data, timeslot: str) -> tuple[str, ...]:
    other = data.choice([s for s in TIMESLOTS if s != timeslot])
    return data.choice(((), (timeslot,), (timeslot, other), (other, timeslot), (ANY,)))


def _affordable(data, state, seat: str, most: int = 6) -> int:
    """A cost in $M ``seat`` can pay (any, with ``allow_negative_cash``)."""
    cash = state.network(seat).cash_m
    limit = most if state.options["allow_negative_cash"] else min(most, max(cash, 0))
    return data.integer(0, limit)


def _fill(data, state, seat: str, kind: str, setup: dict):
    """A command of ``kind`` for ``seat`` with arguments the rules allow now, or ``None`` if there is none."""
    network = state.network(seat)
    grid = network.grid
    genres = state.genres
    if kind == "ChoosePilotShow":
        genre = setup["centres"][seat]
        timeslot = data.choice(("8pm", "weekend") if genre == KIDS else TIMESLOTS)
        return ChoosePilotShow(
            player=seat, genre=genre, timeslot=timeslot, name="Pilot", preferred=_preferred(data, timeslot)
        )
    if kind == "KeepPilotCards":
        cards = []
        for _ in range(2):
            cash = data.integer(0, 4)
            cost = data.integer(0, 2)
            cards.append(PilotCard(data.choice(("star", "ad")), "", cash, cost))
        if not state.options["allow_negative_cash"] and network.cash_m + sum(c.cash_m - c.cost_m for c in cards) < 0:
            cards = [PilotCard(c.kind, "", c.cash_m, 0) for c in cards]
        return KeepPilotCards(player=seat, cards=tuple(cards))
    if kind == "SetLineBonus":
        open_lines = [line for line in LINE_IDS if line not in grid.completed]
        if not open_lines:
            return None
        line = data.choice(open_lines)
        return SetLineBonus(
            player=seat,
            line=line,
            label="Bonus",
            cash_m=data.integer(0, 3),
            viewers=data.integer(0, 2),
        )
    if kind == "SetGridSquare":
        choices = []
        for square in range(SQUARES):
            if square == CENTRE or grid.filled[square]:
                continue
            for genre in genres:
                where = grid.square_of(genre)
                if genre != grid.squares[square] and (where is None or (where != CENTRE and not grid.filled[where])):
                    choices.append((square, genre))
        if not choices:
            return None
        unentered = [c for c in choices if grid.squares[c[0]] is None and grid.square_of(c[1]) is None]
        square, genre = data.choice(unentered or choices)
        return SetGridSquare(player=seat, square=square, genre=genre)
    if kind == "EnterTile":  # the tile-entry screen: every square without a genre gets one left over
        empty = [s for s in range(SQUARES) if grid.squares[s] is None]
        unused = [g for g in genres if grid.square_of(g) is None]
        if not empty:
            return None
        order = data.permutation(unused)
        squares = [None] * SQUARES
        for square, genre in zip(empty, order):
            squares[square] = genre
        return EnterTile(player=seat, squares=tuple(squares))
    if kind == "Writeoff":  # the clarification's count of a show printed Chat or Quiz, as counted at the table
        shows = writeoff_shows(network)
        assert shows, "Writeoff is offered only for a lineup with a show printed Chat or Quiz"
        slot, show = data.choice(shows)
        stars = tuple(data.integers(0, 4, 2))
        others = tuple(data.integers(0, 4, 3)) if show.printed_genre == CHAT else ()
        penalty = 0 if show.in_preferred(slot) else data.integer(0, 2)
        score = ShowScore(slot, data.integer(0, 6), stars, penalty)
        return Writeoff(player=seat, show=score, other_stars=others)
    if kind == "ProduceShow":
        genre = data.choice(genres)
        timeslot = data.choice([s for s in TIMESLOTS if not (genre == KIDS and s in NO_KIDS_SLOTS)])
        if grid.square_of(genre) is None:
            return None  # the tile's squares are all entered in a season; kept for safety
        return ProduceShow(
            player=seat,
            name=f"{genre} show",
            genre=genre,
            timeslot=timeslot,
            preferred=_preferred(data, timeslot),
            cost_m=_affordable(data, state, seat),
        )
    if kind == "TakeAction":
        cash = data.integer(0, 4) - _affordable(data, state, seat, 3)
        return TakeAction(player=seat, action=_text(data), cash_m=cash)
    if kind == "Pass":
        return Pass(
            player=seat,
            reward=data.choice(("cash", "viewers")),
            amount=data.integer(0, 6),
            preempted=data.boolean(),
        )
    if kind == "PlaceGridMarker":
        empty = [g for g, filled in zip(grid.squares, grid.filled) if g is not None and not filled]
        return PlaceGridMarker(player=seat, genre=data.choice(empty), reason=_text(data))
    if kind == "ScoreLineup":
        scores = []
        for slot in TIMESLOTS:
            show = network.show_in(slot)
            if show is None:
                continue
            stars = tuple(data.integers(0, 4, 2))
            penalty = 0 if show.in_preferred(slot) else data.integer(0, 2)
            quiz = data.integer(0, 5) if show.printed_genre == QUIZ else 0
            scores.append(ShowScore(slot, data.integer(0, 6), stars, penalty, quiz))
        quiz_m = sum(s.quiz_bought for s in scores)
        income = data.integer(0, 5)
        room = network.cash_m + income - quiz_m
        if not state.options["allow_negative_cash"] and room < 0:
            scores = [ShowScore(s.timeslot, s.viewers, s.stars, s.penalty, 0) for s in scores]
            room = network.cash_m + income
        costs = data.integer(0, 4 if state.options["allow_negative_cash"] else max(0, min(4, room)))
        variety = data.boolean()
        return ScoreLineup(
            player=seat,
            shows=tuple(scores),
            income_m=income,
            costs_m=costs,
            other_viewers=tuple(("Network card", viewers) for viewers in data.integers(-2, 3, 1)),
            variety_channel=variety,
            rerun_genres=tuple(data.sublist(genres, max_size=2)) if variety else (),
        )
    if kind == "ScoreEndGame":
        rows = data.sublist(("Ads", "Stars", "Network cards", "Reruns"), unique=True)
        return ScoreEndGame(player=seat, bonuses=tuple((row, data.integer(-2, 6)) for row in rows))
    if kind == "ChooseMogulLine":
        return ChooseMogulLine(player=seat, line=data.choice(state.pending.lines))
    if kind == "AdjustCash":
        amount = data.integer(1, 3) * data.choice((1, -1))
        if amount < 0 and not state.options["allow_negative_cash"] and network.cash_m + amount < 0:
            amount = -amount
        return AdjustCash(player=seat, amount_m=amount, reason="correction")
    if kind == "AdjustViewers":
        return AdjustViewers(player=seat, viewers=data.choice((-2, -1, 1, 3)), reason="network card")
    raise AssertionError(f"no filler for {kind}")


def _must_refuse(state, seat: str, command) -> list:
    """Commands next to the drawn legal ``command`` that the rules forbid, each with the rule ``decide`` must
    refuse it under:
    a Kids show into primetime or late night (New Genres & Show Effects, Kids), a cost beyond the cash
    (ruling 9), a marker on a filled genre (Your Genre Grid), a timeslot penalty for a show in a preferred
    timeslot or saying ANY (Wild Timeslots), the Genres end-game row in any case (End-Game Scoring)."""
    network = state.network(seat)
    bad: list = []
    strict = not state.options["allow_negative_cash"]
    if isinstance(command, ChoosePilotShow) and command.genre == KIDS:
        bad += [(replace(command, timeslot=slot, preferred=(ANY,)), KIDS_RULE) for slot in NO_KIDS_SLOTS]
    if isinstance(command, ProduceShow):
        bad += [(replace(command, genre=KIDS, timeslot=slot), KIDS_RULE) for slot in NO_KIDS_SLOTS]
        if strict:
            bad.append((replace(command, cost_m=network.cash_m + 1), BASE_RULE))
    if isinstance(command, TakeAction) and strict:
        bad.append((replace(command, cash_m=-network.cash_m - 1), BASE_RULE))
    if isinstance(command, AdjustCash) and strict:
        bad.append((replace(command, amount_m=-network.cash_m - 1), BASE_RULE))
    if isinstance(command, PlaceGridMarker):
        grid = network.grid
        bad += [(replace(command, genre=g), GRID_RULE) for g, f in zip(grid.squares, grid.filled) if f]
    if isinstance(command, ScoreLineup):
        for index, score in enumerate(command.shows):
            if network.show_in(score.timeslot).in_preferred(score.timeslot):
                shows = list(command.shows)
                shows[index] = replace(score, penalty=1)
                bad.append((replace(command, shows=tuple(shows)), WILD_RULE))
    if isinstance(command, ScoreEndGame):
        rows = ("Genres", "genres", "GENRES")
        bad += [(replace(command, bonuses=command.bonuses + ((row, 1),)), END_RULE) for row in rows]
    return bad


def _probe(state, seat: str, kind: str):
    """A plausible command of ``kind`` by ``seat`` (to check that a disabled offer is refused)."""
    network = state.network(seat)
    line = state.pending.lines[0] if state.pending else "row1"
    return {
        "ChoosePilotShow": lambda: ChoosePilotShow(player=seat, genre="Drama", timeslot="8pm"),
        "KeepPilotCards": lambda: KeepPilotCards(player=seat, cards=(PilotCard("ad"), PilotCard("ad"))),
        "SetLineBonus": lambda: SetLineBonus(player=seat, line="row2", label="Star bonus"),
        "ProduceShow": lambda: ProduceShow(player=seat, name="S", genre="Drama", timeslot="weekend"),
        "TakeAction": lambda: TakeAction(player=seat, action="Sign a star"),
        "Pass": lambda: Pass(player=seat, reward="cash", amount=1),
        "PlaceGridMarker": lambda: PlaceGridMarker(player=seat, genre="Drama"),
        "ScoreLineup": lambda: ScoreLineup(
            player=seat, shows=tuple(ShowScore(s, 1) for s in TIMESLOTS if network.show_in(s) is not None)
        ),
        "ScoreEndGame": lambda: ScoreEndGame(player=seat),
        "ChooseMogulLine": lambda: ChooseMogulLine(player=seat, line=line),
        "AdjustCash": lambda: AdjustCash(player=seat, amount_m=1, reason="x"),
        "AdjustViewers": lambda: AdjustViewers(player=seat, viewers=1, reason="x"),
        "SetGridSquare": lambda: SetGridSquare(player=seat, square=0, genre="Kids"),
        "EnterTile": lambda: EnterTile(player=seat, squares=("Kids",) + (None,) * 8),
        "Writeoff": lambda: Writeoff(player=seat, show=ShowScore("8pm", 1)),
    }[kind]()


def _check_invariants(state, setup: dict, ledger: dict) -> None:
    names = state.names
    assert sorted(state.order) == sorted(names) or state.season == 0
    assert 0 <= state.season <= 5
    if state.phase == "season":
        assert state.current in names and state.network(state.current).passed is None
    centres = [n.grid.squares[CENTRE] for n in state.networks if n.grid is not None]
    assert len(centres) == len(set(centres)), "one tile per centre genre"
    for network in state.networks:
        cash, viewers = ledger[network.name]
        assert network.cash_m == setup["starting_cash_m"] + cash, f"{network.name}'s cash moved unrecorded"
        assert network.viewers == viewers, f"{network.name}'s viewers moved unrecorded"
        if not state.options["allow_negative_cash"]:
            assert network.cash_m >= 0
        grid = network.grid
        if grid is None:
            assert all(show is None for show in network.lineup)
            continue
        assert len(grid.squares) == len(grid.filled) == SQUARES
        entered = [g for g in grid.squares if g is not None]
        assert len(entered) == len(set(entered)) and set(entered) <= set(state.genres)
        assert grid.squares[CENTRE] == network.pilot.genre == setup["centres"][network.name] and grid.filled[CENTRE]
        assert all(g is not None for g, filled in zip(grid.squares, grid.filled) if filled)
        assert grid.filled_count + grid.empty_count == SQUARES
        assert len(grid.completed) == len(set(grid.completed))
        full = set(grid.full_lines())
        assert set(grid.completed) <= full
        waiting = set(state.pending.lines) if state.pending and state.pending.player == network.name else set()
        assert full == set(grid.completed) | waiting
        assert len(network.lineup) == len(TIMESLOTS) and all(show is not None for show in network.lineup)
        for slot, show in zip(TIMESLOTS, network.lineup):
            assert not (show.printed_genre == KIDS and slot in NO_KIDS_SLOTS), f"a Kids show in {slot}"
    if state.pending is not None:
        assert state.options["moguls"]
    if state.phase == "over":
        best = max(n.viewers for n in state.networks)
        assert state.winners == tuple(n.name for n in state.networks if n.viewers == best)


def _book(ledger: dict, state_before, records) -> None:
    """Add the journaled cash and viewers of ``records`` to ``ledger`` and check what passing and scoring paid."""
    cash_now = Counter()
    for record in records:
        p = record.payload
        if record.type == "cash_changed":
            ledger[p["player"]][0] += p["amount_m"]
            cash_now[p["player"]] += p["amount_m"]
        elif record.type == "line_completed":
            ledger[p["player"]][0] += p["bonus"]["cash_m"]
            ledger[p["player"]][1] += p["bonus"]["viewers"]
        elif record.type in ("viewers_changed",):
            ledger[p["player"]][1] += p["viewers"]
        elif record.type in ("lineup_scored", "end_game_scored"):
            ledger[p["player"]][1] += p["total"]
    for record in records:
        p = record.payload
        if record.type == "passed":
            grid = state_before.network(p["player"]).grid
            track = p["amount"] * (2 if p["preempted"] else 1) if p["reward"] == "cash" else 0
            assert cash_now[p["player"]] == grid.empty_count + track, "passing pays $1M per empty square"
        if record.type == "lineup_scored":
            filled = state_before.network(p["player"]).grid.filled_count
            grid_parts = [v for label, v in p["parts"] if label.startswith("genre grid")]
            assert grid_parts == ([filled] if filled else []), "+1 viewer per filled square"


@settings(
    max_examples=10,
    deadline=None,
    phases=(Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink),  # no slow "explain" phase
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.data())
def test_random_legal_games_keep_the_rules_invariants_to_the_end_and_replay(data):
    with tempfile.TemporaryDirectory() as folder:
        play(HypothesisDraws(data), Path(folder) / "journal.sqlite3")


def play(data, path: Path) -> int:
    """A random legal game to its end, chosen by ``data`` (:mod:`draws`), journaled at ``path``, its invariants
    checked at every step and its replay at the end (options and outcome too); returns the game's id in the
    journal."""

    def same(live, replayed) -> None:
        assert replayed.options == live.options
        assert TELLY_TIME.outcome(replayed) == TELLY_TIME.outcome(live)

    return journaled_game(path, lambda table: _play(data, table), same)


def _play(data, table) -> int:
    """One game on ``table`` to its end; its game id."""
    game_id, setup = _start(table, data)
    ledger = {name: [0, 0] for name in table.state.names}
    steps = writeoffs = 0
    while not table.state.finished:
        steps += 1
        assert steps < 2000, "the game did not reach its end"
        state = table.state
        offers = {seat: TELLY_TIME.legal_commands(state, seat) for seat in state.names}
        enabled = [(seat, offer) for seat, seat_offers in offers.items() for offer in seat_offers if offer.enabled]
        disabled = [(seat, offer) for seat, seat_offers in offers.items() for offer in seat_offers if not offer.enabled]
        assert enabled, f"nothing is offered in {state.phase}: the game is stuck"
        for seat, offer in enabled:
            if offer.command is not None:
                TELLY_TIME.decide(state, offer.command)  # a complete enabled command is accepted
            if offer.kind == "Writeoff":  # offered only where it applies: a count with drawn arguments is accepted
                TELLY_TIME.decide(state, _fill(data, state, seat, offer.kind, setup))
                writeoffs += 1
        for seat, offer in disabled:
            probe = offer.command or _probe(state, seat, offer.kind)
            try:
                TELLY_TIME.decide(state, probe)
            except CommandError as error:
                assert getattr(error, "reason", str(error)) == offer.reason, (offer, probe)
            else:
                raise AssertionError(f"disabled {offer} but {probe!r} was accepted")
        kinds = PROGRESS | ({"SetGridSquare", "EnterTile"} if state.phase == "pilot" else set())
        progress = [(s, o) for s, o in enabled if o.kind in kinds]
        if steps > LONG:
            moving = [(s, o) for s, o in progress if o.kind not in ("ProduceShow", "TakeAction", "SetLineBonus")]
            pool = moving or progress
        else:
            pool = progress if progress and data.integer(0, 4, "bias") else enabled
        seat, offer = data.choice(pool, "offer")
        command = offer.command or _fill(data, state, seat, offer.kind, setup)
        if command is None:
            continue
        for forbidden, rule in _must_refuse(state, seat, command):
            try:
                TELLY_TIME.decide(state, forbidden)
            except IllegalCommand as error:
                assert rule in (error.rule or ""), (forbidden, error)
                continue
            raise AssertionError(f"{forbidden!r} was accepted")
        outcome = table.execute(command)
        assert outcome.accepted, f"enabled {offer.kind} refused: {outcome.message} ({command!r})"
        _book(ledger, state, outcome.records)
        _check_invariants(table.state, setup, ledger)
    assert table.state.phase == "over", table.state.end_reason
    assert TELLY_TIME.outcome(table.state) is not None
    data.statistic(f"Writeoff counts checked: {'some' if writeoffs else 'none'}")
    return game_id
