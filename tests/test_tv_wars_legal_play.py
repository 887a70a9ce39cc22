"""TV Wars played to its end by legal moves only (issue 19): random games of 2 to 4 networks choose among
``legal_commands(state, seat)`` (enabled offers; an offer whose arguments the player still chooses is filled
by a hypothesis draw), through a real :class:`companion.table.Table` on a real SQLite journal. After every
move the rulebook's invariants hold (rule numbers from /work/shared/rules/tv-wars.txt):

* money: the networks hold their starting cash (2.4) plus what the bank paid out net, nobody is below $0
  (4 "nor may loans be made", 7), money passes between two networks only by a rule's effect (never a
  free transfer, 4), On the Air pays $3,000 (9.5) and Sponsor $500 per half-hour held (9.4);
* tiles: every tile that entered play is in exactly one place (a network's holdings, its pile or out of
  play), followed from the events independently of the fold; the Inventory's limits (12/12/30/60 programs
  by length, 8 movies, 9 Stars, 5 Emmys, 10 Critics' Choice, 15 Viewers' Views, one Super Bowl, one
  Preemption tile); a network out of the game holds nothing (3, 5.11, 5.22); the programming track is the
  tiles' half-hours (9.4);
* the table: a debt is owed only by a network in the game, the turn is a network in the game;
* every enabled offer with its command is accepted by ``decide`` and a sample of the disabled ones refused.

At the end the game has an outcome by its rules (3.11, 5.32, 8, 1, 3, 10), and the journal file, reopened,
replays to the state the live table holds.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from pathlib import Path

from draws import HypothesisDraws, journaled_game
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from companion.commands import BANK, EndGame, NewGame, PlayerSeat
from companion.dice import SeededDice
from companion.errors import CommandError
from companion.game import Termination
from companion.games.tv_wars import (
    TV_WARS,
    Bid,
    Bulletin,
    BuyMovie,
    EnterLineUp,
    EnterTileValue,
    GiveUp,
    LandOn,
    Nominate,
    PlacePreemption,
    ProgramSpec,
    SelectStartingProgramming,
    SellProgram,
)
from companion.games.tv_wars.auction import BID_STEP
from companion.games.tv_wars.bankruptcy import sellable
from companion.games.tv_wars.events import (
    BonusAcquired,
    BonusMoved,
    BonusReturned,
    MoneyMoved,
    ProgramAcquired,
    ProgramLost,
    ProgramMoved,
    StartingProgramming,
)
from companion.games.tv_wars.holdings import PROGRAM_INVENTORY
from companion.games.tv_wars.ratings_war import INVENTORY, max_programming
from companion.games.tv_wars.spaces import BULLETIN_EFFECTS, SPACES

NAMES = ("ABS", "CBA", "PBC", "NBS")
COLOURS = ("green", "red", "blue", "yellow")
#: Moves after which every landing is drawn on Critics' Choice or Viewers' Views, so that the game ends by
#: its rules (5.32 empties those piles) within the example.
LONG_GAME = 160
BONUS_VALUES = {
    "star": (10, 20, 30),
    "critics_choice": (-36, -31, -10, 0, 12, 36),
    "viewers_views": (-28, -5, 0, 21, 29),
}


# -- filling the offers the player completes --------------------------------------------------------------------


def _selection(data, sitcoms_per_length: bool) -> tuple[ProgramSpec, ...]:
    """A legal 2.3 selection: five 30-, four 60-, one 90-, one 120-minute programs, at most two of one type
    and length, five Situation Comedies in all (unless the house rule)."""
    specs = []
    for length, count in ((1, 5), (2, 4), (3, 1), (4, 1)):
        colours = data.permutation(COLOURS * 2, f"colours {length}")[:count]
        for colour in colours:
            special = data.integer(0, 9, "special?") == 0
            rating = None if special else data.choice(range(10, 100, 10), "rating")
            specs.append([length, colour, rating, special])
    greens = [s for s in specs if s[1] == "green"]
    if not sitcoms_per_length and len(greens) > 5:
        greens[-1][1] = next(
            c for c in ("red", "blue", "yellow") if [s[:2] for s in specs].count([greens[-1][0], c]) < 2
        )
    return tuple(ProgramSpec(length, colour, rating, special=special) for length, colour, rating, special in specs)


def _lineup(data, state, seat):
    """A line-up for ``seat`` as 6.1, 9.8, 3.23 and 5.3 want it: programs filling the most half-hours (the
    Super Bowl at 8:00 only in a February Sweeps war), a Critics' Choice/Viewers' Views tile on every program
    while any is held back, no Emmy on a movie; drawn among the many such line-ups."""
    war = state.war
    holdings = state.network(seat).holdings
    rnd = data.random("line-up")
    usable = [
        t for t in holdings.programs if t.kind != "preemption" and (war.february_sweeps or t.kind != "super_bowl")
    ]
    best = max_programming([t.length for t in usable])
    rnd.shuffle(usable)

    def pick(i, left):
        if left == 0:
            return []
        for j in range(i, len(usable)):
            if usable[j].length <= left:
                rest = pick(j + 1, left - usable[j].length)
                if rest is not None:
                    return [usable[j], *rest]
        return None

    chosen = pick(0, best) or []
    chosen.sort(key=lambda t: t.kind != "super_bowl")  # the Super Bowl only at 8:00-9:00 (9.8)
    mandatory = [b for b in holdings.bonuses if b.kind in ("critics_choice", "viewers_views")]
    optional = [b for b in holdings.bonuses if b.kind in ("star", "emmy")]
    rnd.shuffle(mandatory)
    rnd.shuffle(optional)
    placements = []
    for tile in chosen:
        bonus = None
        if mandatory:
            bonus = mandatory.pop()
        elif optional and rnd.random() < 0.5:
            candidate = optional.pop()
            if candidate.kind == "emmy" and tile.kind == "movie":
                optional.append(candidate)
            else:
                bonus = candidate
        placements.append((tile.id, None if bonus is None else bonus.id))
    cash = state.network(seat).cash
    return EnterLineUp(network=seat, placements=tuple(placements), promotion=cash >= 5_000 and rnd.random() < 0.3)


def _fill(data, state, seat, kind, steps):
    """The command of a ``kind`` offer whose arguments the player chooses, drawn; ``None`` when nothing fits."""
    network = state.network(seat)
    if kind == "SelectStartingProgramming":
        return SelectStartingProgramming(network=seat, programs=_selection(data, state.situation_comedies_per_length))
    if kind == "LandOn":
        if steps > LONG_GAME:
            space = data.choice(("critics_choice", "viewers_views"), "space")
        else:
            space = data.choice(sorted(SPACES), "space")
        passed = not state.passed_on_the_air and data.boolean("passed On the Air")
        return LandOn(network=seat, space=space, passed_on_the_air=passed)
    if kind == "Nominate":
        landing = state.landing
        top = max(1_000, min(network.cash, 4_000)) // BID_STEP
        opening = BID_STEP * data.integer(2, top, "opening")
        if landing.stage == "nominate_star":
            return Nominate(network=seat, opening=opening)
        length = data.choice(landing.lengths, "length")
        return Nominate(network=seat, length=length, colour=data.choice(COLOURS), opening=opening)
    if kind == "Bid":
        minimum = state.auction.minimum
        steps_up = (network.cash - minimum) // BID_STEP
        return Bid(network=seat, amount=minimum + BID_STEP * data.integer(0, min(steps_up, 6), "bid"))
    if kind == "BuyMovie":
        return BuyMovie(network=seat, colour=data.choice(COLOURS, "movie colour"))
    if kind == "EnterTileValue":
        entry = state.entry
        if entry.lot == "program":
            if data.integer(0, 9, "special?") == 0:
                return EnterTileValue(network=seat, special=True)
            return EnterTileValue(network=seat, value=data.choice(range(10, 100, 10), "RP"))
        if entry.lot == "emmy":
            return EnterTileValue(network=seat, value=50)
        return EnterTileValue(network=seat, value=data.choice(BONUS_VALUES[entry.lot], "value"))
    if kind == "GiveUp":
        tiles = (
            [t.id for t in network.holdings.programs]
            if state.landing.stage == "give_program"
            else [b.id for b in network.holdings.bonuses if b.kind == "star"]
        )
        return GiveUp(network=seat, tile_id=data.choice(tiles, "tile given up"))
    if kind == "Bulletin":
        effect = data.choice(BULLETIN_EFFECTS, "Bulletin effect")
        amount = data.choice((500, 1_000, 5_000, 20_000, 60_000), "amount")
        if effect == "move":
            space = data.choice(sorted(s for s in SPACES if s not in ("bulletin",)), "to")
            return Bulletin(network=seat, effect=effect, space=space, passed_on_the_air=data.boolean())
        if effect in ("auction_program", "auction_star"):
            opening = BID_STEP * data.integer(2, max(2, min(network.cash, 3_000) // BID_STEP))
            return Bulletin(
                network=seat,
                effect=effect,
                amount=opening,
                length=data.choice((1, 2, 3, 4)),
                colour=data.choice(COLOURS),
            )
        return Bulletin(network=seat, effect=effect, amount=amount)
    if kind == "SellProgram":
        tiles = sellable(network.holdings) or network.holdings.programs
        return SellProgram(network=seat, tile_id=data.choice([t.id for t in tiles], "sold"))
    if kind == "EnterLineUp":
        return _lineup(data, state, seat)
    if kind == "PlacePreemption":
        return PlacePreemption(network=seat, start=data.choice((None, 0, 1, 2, 3, 4), "at"))
    raise AssertionError(f"no filler for the offer {kind}")


# -- the invariants ---------------------------------------------------------------------------------------------------


class Ledger:
    """What the events say, followed apart from the engine's fold: the bank's net payments and where every
    tile is (a network's name, or where it went)."""

    def __init__(self, start_total: int):
        self.start_total = start_total
        self.paid_out = 0
        self.where: dict[str, str] = {}
        self.conventional: dict[str, int] = {}  # tile id → length, every conventional program ever dealt

    def _enter(self, tile_id: str, network: str) -> None:
        assert self.where.get(tile_id) not in NAMES, f"{tile_id} entered play twice"
        self.where[tile_id] = network

    def _move(self, tile_id: str, source: str, to: str) -> None:
        assert self.where.get(tile_id) == source, f"{tile_id} is at {self.where.get(tile_id)}, not {source}"
        self.where[tile_id] = to

    def follow(self, before, event) -> None:
        if isinstance(event, MoneyMoved):
            assert event.amount > 0 and not event.correction
            if event.payer == BANK:
                self.paid_out += event.amount
            if event.payee == BANK:
                self.paid_out -= event.amount
            if BANK not in (event.payer, event.payee):
                assert event.rule, f"money between networks with no rule (4): {event}"
            if event.rule == "TV Wars 9.5":
                assert event.amount == 3_000
            if event.rule == "TV Wars 9.4":
                assert (
                    event.amount == 500 * before.network(event.payee).half_hours.value
                )  # the track (tiles once tracked)
        elif isinstance(event, StartingProgramming):
            for tile in event.tiles:
                self._enter(tile["id"], event.network)
                self.conventional[tile["id"]] = tile["length"]
        elif isinstance(event, ProgramAcquired):
            self._enter(event.tile["id"], event.network)
            if event.tile["kind"] in ("program", "special"):
                assert event.tile["id"] not in self.conventional, "a conventional tile came back (6.8, 7)"
                self.conventional[event.tile["id"]] = event.tile["length"]
        elif isinstance(event, BonusAcquired):
            self._enter(event.tile["id"], event.network)
        elif isinstance(event, (ProgramMoved, BonusMoved)):
            self._move(event.tile_id, event.from_, event.to)
        elif isinstance(event, (ProgramLost, BonusReturned)):
            self._move(event.tile_id, event.network, event.destination)

    def check(self, state) -> None:
        # money (2.4, 4, 7)
        assert sum(state.balances.values()) == self.start_total + self.paid_out
        assert all(cash >= 0 for cash in state.balances.values())
        # every tile in exactly one place
        for n in state.networks:
            ids = [t.id for t in n.holdings.programs] + [b.id for b in n.holdings.bonuses]
            assert len(ids) == len(set(ids))
            assert set(ids) == {tile for tile, at in self.where.items() if at == n.name}, n.name
            if n.out:  # 3, 5.11, 5.22: a network out of the game holds nothing
                assert not ids, f"{n.name} is out but holds {ids}"
            if n.holdings.tracked:
                assert n.half_hours.value == n.holdings.half_hours  # 9.4
        held = [n.holdings for n in state.networks]
        kinds = Counter(b.kind for h in held for b in h.bonuses)
        assert kinds["star"] <= INVENTORY["Star"] and kinds["emmy"] <= INVENTORY["Emmy"]  # 5.12, 5.22
        assert state.supply.critics_choice_drawn <= INVENTORY["Critics' Choice"]  # 5.32
        assert state.supply.viewers_views_drawn <= INVENTORY["Viewers' Views"]
        assert kinds["critics_choice"] <= state.supply.critics_choice_drawn
        assert kinds["viewers_views"] <= state.supply.viewers_views_drawn
        assert state.supply.movies_sold <= INVENTORY["Academy Award Movie"]  # 3.22
        programs = Counter(t.kind for h in held for t in h.programs)
        assert programs["super_bowl"] <= 1 and programs["preemption"] <= 1  # Inventory
        assert programs["movie"] <= state.supply.movies_sold
        dealt = Counter(self.conventional.values())
        for length, limit in PROGRAM_INVENTORY.items():  # Inventory, 3.11
            assert state.supply.entered(length) == dealt[length] <= limit
        # the table
        assert all(not state.network(d.network).out and d.amount > 0 for d in state.debts)
        if state.playing and not state.finished:
            assert not state.network(state.turn).out
        view = TV_WARS.public_view(state)
        assert " RP" not in view.status and not any(" RP" in note for note in view.notes)  # 9.1


# -- the game ---------------------------------------------------------------------------------------------------------


def _offers(state):
    return [(seat, offer) for seat in state.names for offer in TV_WARS.legal_commands(state, seat)]


def play(data, path: Path) -> int:
    """A random legal game to its end, chosen by ``data`` (:mod:`draws`), journaled at ``path``, its invariants
    checked at every move and its replay at the end; returns the game's id in the journal."""
    n = data.integer(2, 4, "networks")
    options = {
        "roll_off": data.boolean("roll-off"),
        "situation_comedies_per_length": data.boolean("sitcoms per length"),
    }
    dice = SeededDice(data.integer(0, 2**16, "dice seed"))

    def game(table) -> int:
        players = tuple(PlayerSeat(name) for name in NAMES[:n])
        outcome = table.execute(NewGame(game="tv-wars", players=players, options=options, source="test"))
        assert outcome.accepted, outcome.message
        game_id = outcome.records[0].game_id
        state = table.state
        ledger = Ledger(31_000 * n)
        steps = wars = 0
        while not state.finished:
            steps += 1
            assert steps < 2_000, f"the game did not end: {TV_WARS.status(state)}"
            offers = _offers(state)
            enabled = [(s, o) for s, o in offers if o.enabled and o.kind != "EndGame"]
            assert enabled, f"nothing legal to do, the game is stuck: {TV_WARS.status(state)}"
            for _, offer in enabled:  # every enabled complete offer is accepted by decide (the table rolls dice)
                if offer.command is not None and offer.kind != "RollDice":
                    TV_WARS.decide(state, offer.command)
            disabled = [o for _, o in offers if not o.enabled and o.command is not None]
            for offer in disabled[:: max(1, len(disabled) // 3)]:  # a sample of the disabled ones is refused
                try:
                    TV_WARS.decide(state, offer.command)
                except CommandError:
                    pass
                else:
                    raise AssertionError(f"a disabled offer was accepted: {offer}")
            if not state.playing:  # the hand-kept buttons work for ever before 2.3/2.5: go on to the set-up
                enabled = [(s, o) for s, o in enabled if o.kind not in ("PassOnTheAir", "LandOnSponsor")] or enabled
            elif steps > LONG_GAME:  # only landings on Critics' Choice/Viewers' Views now (the Sponsor button lands)
                enabled = [(s, o) for s, o in enabled if o.kind not in ("PassOnTheAir", "LandOnSponsor")] or enabled
            seat, offer = data.choice(enabled, "offer")
            command = offer.command
            if command is None:
                for _ in range(20):  # a drawn argument may not fit (a line-up the rules refuse): draw again
                    command = _fill(data, state, seat, offer.kind, steps)
                    try:
                        TV_WARS.decide(state, command)
                        break
                    except CommandError:
                        command = None
                assert command is not None, f"no drawn {offer.kind} for {seat} was accepted in {TV_WARS.status(state)}"
            before = state
            outcome = table.execute(command)
            assert outcome.accepted, f"{offer.label}: {outcome.message}"
            for record in outcome.records:
                event = TV_WARS.events.decode(record.type, record.payload)
                ledger.follow(before, event)
                before = TV_WARS.evolve(before, event)
            state = table.state
            assert before == state
            wars += any(r.type == "ratings_war_started" for r in outcome.records)
            ledger.check(state)
        result = TV_WARS.outcome(state)
        assert result is not None and result.termination is not Termination.ENDED_BY_HAND
        data.statistic(f"ended: {result.termination.name} ({state.final_count.result.rule})")
        data.statistic(f"Ratings Wars played: {'yes' if wars else 'no'}")
        if result.termination in (Termination.WON, Termination.DRAW, Termination.ALL_LOST):
            ended = state.final_count.result
            totals = dict(ended.totals)
            assert set(result.winners) == {w for w, total in totals.items() if total == max(totals.values())}
        assert not table.execute(EndGame()).accepted  # the game is over (GameFinished)
        return game_id

    return journaled_game(path, game, dice=dice)


#: Shrinking a whole game takes minutes; a failure prints its draws (and hypothesis' seed) as found.
@settings(
    max_examples=20,
    deadline=None,
    phases=(Phase.explicit, Phase.reuse, Phase.generate),
    report_multiple_bugs=False,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.data())
def test_random_legal_games_end_by_the_rules_keep_the_invariants_and_replay(data):
    with tempfile.TemporaryDirectory() as folder:
        play(HypothesisDraws(data), Path(folder) / "journal.sqlite3")
