"""TV Wars: the Ratings War played at the table, as a sub-state machine of a TV Wars game (rule numbers
from ``rules/tv-wars.txt``).

The resolver (:mod:`companion.games.tv_wars.ratings_war`) turns revealed line-ups and dice into a
:class:`~companion.games.tv_wars.ratings_war.Resolution`. This module runs the war around it, from a
network landing on Ratings War to the consequences for every network's holdings
(:mod:`companion.games.tv_wars.holdings`). Pure functions over a frozen :class:`WarAtTable`; no I/O, no
clock, no random: dice come in as :class:`~companion.commands.AnswerDice` for :func:`war_pending_dice`.

Phases (:attr:`WarAtTable.phase`)
---------------------------------
1. ``"line-ups"``: each network in the war secretly enters its Prime Time Line-Up from its own tiles
   (:class:`EnterLineUp`, checked by :func:`~companion.games.tv_wars.ratings_war.check_lineup`: 6.1,
   6.2, 3.23, 5.3, 9.8) and locks it in (:class:`LockLineUp`; a Promotion is paid then, 6.6). Until
   every network has locked in, the public status is only "CBA locked in; ABS, NBS entering" (9.1).
2. ``"reveal"``: all locked; :class:`RevealLineUps` shows every card at once (6).
3. ``"preemption"``: the holder of the Preemption tile, if it is in the war, places it over any two
   consecutive half-hours or declines (:class:`PlacePreemption`, 9.91), before any dice.
4. ``"dice"``: the war is resolved slot by slot (:func:`~companion.games.tv_wars.ratings_war.resolve_war`);
   each roll it needs (a Special's value at its first resolved slot, 3.3; a tie-break, 6.7) is asked
   for one request at a time and journaled. Every settled half-hour is journaled as a
   ``ratings_war_slot_resolved`` event with its scores' breakdowns.
5. ``"over"``: the consequences are applied as holdings events (6.2, 5.11, 5.21, 5.31, 3.21, 9.8,
   9.91), networks left without programming are out (3), and the Super Bowl's auction is announced
   after a February Sweeps war in which it was played (9.8).

Events (type: payload; all JSON-able)
-------------------------------------
* ``ratings_war_started``: ``{"landed_by", "february_sweeps", "networks": [in the war, seat order],
  "best_network_news": name|None, "preemption_holder": name|None, "counter_programming_four": -30|-20}``;
* ``ratings_war_lineup_entered``: ``{"network", "placements": [[program tile id, bonus tile id|None],
  ...], "promotion": bool}`` (tile ids only; history line says nothing secret, 9.1);
* ``ratings_war_lineup_locked``: ``{"network", "promotion"}`` (followed by the ``money_moved`` payment
  of a Promotion, 6.6);
* ``ratings_war_revealed``: ``{"lineups": [{"network", "promotion", "best_network_news", "programs":
  [{"tile": ProgramTile dict, "bonus": BonusTile dict|None}, ...]}, ...]}``;
* ``ratings_war_preemption``: ``{"network", "start": 0..4|None}`` (``None``: declined; 9.91);
* ``ratings_war_dice_rolled``: ``{"key", "roller", "values", "source", "reason", "rule"}`` (keys as
  :func:`~companion.games.tv_wars.ratings_war.special_key`/``tie_key``);
* ``ratings_war_slot_resolved``: ``{"index": 0..5, "slot": {...}}`` (the resolver's slot dict:
  scores with parts, winner, cancellation, ties, notes);
* holdings events (``program_lost``, ``bonus_returned``, ``network_out``) for the consequences;
* ``ratings_war_ended``: ``{"cancelled": [...], "networks_out": [...], "super_bowl_auction":
  last owner|None, "summary"}``.

Integration with :class:`companion.games.tv_wars.TvWars` (a few lines): keep a ``war:
WarAtTable|None`` in the state; on ``ratings_war_called`` call :func:`start_war`; while
:func:`war_active` route commands to :func:`decide_war`, fold events of :data:`WAR_EVENT_CLASSES` with
:func:`evolve_war`, ask :func:`war_pending_dice` for dice, describe with :func:`describe_war_event`, and
show :func:`war_status` and :func:`war_view` (public) or :func:`war_private_view` (the owner's panel).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cached_property
from typing import Any, TypeGuard

from companion.checks import is_whole
from companion.commands import BANK, AnswerDice, Command
from companion.dice import DiceRequest, check_answer, roll_payload
from companion.errors import IllegalCommand, InsufficientFunds, MalformedCommand
from companion.games.tv_wars.bank import Movement, check_movement, format_dollars
from companion.games.tv_wars.events import (
    BonusReturned,
    LineupEntered,
    LineupLocked,
    LineupsRevealed,
    PreemptionDecided,
    ProgramLost,
    RatingsWarEnded,
    RatingsWarStarted,
    SlotResolved,
    TvWarsEvent,
    WarDiceRolled,
)
from companion.games.tv_wars.holdings import (
    PREEMPTION,
    SUPER_BOWL,
    BonusTile,
    Holdings,
    ProgramTile,
    out_events,
)
from companion.games.tv_wars.ratings_war import (
    SLOTS,
    HouseRules,
    LineUp,
    PendingRoll,
    Placement,
    ProgramRef,
    Resolution,
    SlotResult,
    War,
    bonus_fate,
    check_lineup,
    consequences,
    resolve_war,
    score_so_far,
    slot_dict,
    slot_label,
    span_label,
    survival_odds,
    with_preemption,
)
from companion.words import count, verb

PROMOTION_PRICE = 5_000  # dollars, 6.6

RATINGS_WAR_STARTED = RatingsWarStarted.TYPE
LINEUP_ENTERED = LineupEntered.TYPE
LINEUP_LOCKED = LineupLocked.TYPE
LINEUPS_REVEALED = LineupsRevealed.TYPE
PREEMPTION_DECIDED = PreemptionDecided.TYPE
WAR_DICE_ROLLED = WarDiceRolled.TYPE
SLOT_RESOLVED = SlotResolved.TYPE
RATINGS_WAR_ENDED = RatingsWarEnded.TYPE
#: The events :func:`evolve_war` folds (the holdings events of the consequences are the game's own).
WAR_EVENT_CLASSES = (
    RatingsWarStarted,
    LineupEntered,
    LineupLocked,
    LineupsRevealed,
    PreemptionDecided,
    WarDiceRolled,
    SlotResolved,
    RatingsWarEnded,
)
WarEvent = (
    RatingsWarStarted
    | LineupEntered
    | LineupLocked
    | LineupsRevealed
    | PreemptionDecided
    | WarDiceRolled
    | SlotResolved
    | RatingsWarEnded
)
#: Their journal type names.
WAR_EVENTS = tuple(cls.TYPE for cls in WAR_EVENT_CLASSES)
WAR_SAFE_POINT_EVENTS = (RATINGS_WAR_ENDED,)

LINE_UPS, REVEAL, PREEMPT, DICE, OVER = "line-ups", "reveal", "preemption", "dice", "over"


# -- commands --------------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class EnterLineUp(Command):
    """``network`` secretly enters its Prime Time Line-Up (6): ``placements`` in order from 8:00, each
    ``(program tile id, bonus tile id or None)`` from its own holdings (6.1 no gaps, 6.2 one bonus per
    program), and whether it buys a ``promotion`` ($5,000, +10 on every program, 6.6). May be entered
    again, replacing the earlier entry, until the network locks in. Refused with the rule when the
    line-up is illegal (6.1, 6.2, 3.23, 5.3, 9.8) or the network cannot pay for the Promotion (6.6, 7)."""

    network: str
    placements: tuple[tuple[str, str | None], ...] = field(repr=False)  # secret until the reveal (6, 9.1)
    promotion: bool = field(default=False, repr=False)
    private = True


@dataclass(frozen=True, kw_only=True)
class LockLineUp(Command):
    """``network`` locks in its line-up ("CBA locked in"); a Promotion is paid now, before the reveal (6.6).
    With ``placements`` (and ``promotion``), exactly that line-up is entered and locked in one move, as on
    the screen's Lock in; without, the last entered one. Refused before an entry and when already locked."""

    network: str
    placements: tuple[tuple[str, str | None], ...] | None = field(default=None, repr=False)  # secret (9.1)
    promotion: bool = field(default=False, repr=False)
    private = True


@dataclass(frozen=True, kw_only=True)
class RevealLineUps(Command):
    """Reveal every line-up at once (6: "simultaneously place their Prime Time Line-Up cards in the
    center"). Refused while any network in the war has not locked in."""


@dataclass(frozen=True, kw_only=True)
class PlacePreemption(Command):
    """The Preemption tile's holder places it over the hour starting at slot ``start`` (0 = 8:00 to 4 =
    10:00, i.e. 8:00-9:00 … 10:00-11:00), or declines with ``start=None`` (9.91). Only after the reveal
    and before any dice of the war are rolled; once per war (undo to change it)."""

    network: str
    start: int | None


# -- state -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One network's secret line-up entry: ``placements`` ``(program tile id, bonus tile id|None)`` from
    8:00, ``promotion`` bought, whether ``entered`` at all and ``locked`` in."""

    network: str
    placements: tuple[tuple[str, str | None], ...] = ()
    promotion: bool = False
    entered: bool = False
    locked: bool = False


@dataclass(frozen=True)
class WarAtTable:
    """A Ratings War in progress at the table (6).

    ``landed_by``: the network whose token landed on Ratings War; ``february_sweeps`` (9.8);
    ``entries``: one :class:`Entry` per network in the war, in seat order; ``best_network_news`` (its
    holder if in the war, 6.3); ``preemption_holder`` (the network in the war holding the Preemption
    tile, 9.91); ``house_rules``; after the reveal, ``revealed`` (the :class:`War` as revealed, before
    any Preemption) and ``tile_ids`` ((network, start slot) → (program tile id, bonus tile id|None));
    ``preemption``: ``None`` until decided, then ``(network, start|None)``; ``dice``: ``(key, values,
    source)`` in order rolled; ``slots_reported``: half-hours journaled as resolved; ``over``.
    """

    landed_by: str
    february_sweeps: bool
    entries: tuple[Entry, ...]
    best_network_news: str | None = None
    preemption_holder: str | None = None
    house_rules: HouseRules = HouseRules()
    revealed: War | None = None
    tile_ids: tuple[tuple[str, int, str, str | None], ...] = ()
    preemption: tuple[str, int | None] | None = None
    dice: tuple[tuple[str, tuple[int, ...], str], ...] = ()
    slots_reported: int = 0
    over: bool = False
    summary: str = ""

    @property
    def networks(self) -> tuple[str, ...]:
        """The networks in this war, in seat order."""
        return tuple(entry.network for entry in self.entries)

    def entry(self, network: str) -> Entry:
        """``network``'s :class:`Entry`; raises :class:`IllegalCommand` (6) for a network not in the war."""
        for entry in self.entries:
            if entry.network == network:
                return entry
        raise IllegalCommand(
            f"{network!r} is not in this Ratings War; the networks in it are {', '.join(self.networks)}", "TV Wars 6"
        )

    @property
    def phase(self) -> str:
        """``"line-ups"``, ``"reveal"``, ``"preemption"``, ``"dice"`` or ``"over"`` (module docstring)."""
        if self.over:
            return OVER
        if self.revealed is None:
            return REVEAL if all(entry.locked for entry in self.entries) else LINE_UPS
        if self.preemption_holder is not None and self.preemption is None:
            return PREEMPT
        return DICE

    @property
    def war(self) -> War | None:
        """The revealed war with the Preemption tile placed (9.91), or ``None`` before the reveal."""
        if self.revealed is None:
            return None
        return self._placed(self.revealed)

    def _placed(self, revealed: War) -> War:
        """``revealed`` with the Preemption tile placed, if it was (9.91)."""
        if self.preemption is not None and self.preemption[1] is not None:
            return with_preemption(revealed, *self.preemption)
        return revealed

    @property
    def dice_map(self) -> dict[str, tuple[int, ...]]:
        """The rolls so far by dice key."""
        return {key: values for key, values, _ in self.dice}

    @cached_property
    def resolution(self) -> Resolution | None:
        """The war resolved with the dice so far, once the Preemption is decided; ``None`` before."""
        if self.revealed is None or self.phase == PREEMPT:
            return None
        return resolve_war(self._placed(self.revealed), self.dice_map)

    @property
    def pending_roll(self) -> PendingRoll | None:
        """The roll the war waits for in its dice phase (a Special's value 3.3, a tie-break 6.7), else ``None``."""
        if self.phase != DICE:
            return None
        resolution = self.resolution
        assert resolution is not None, "a war in its dice phase is resolved as far as its dice go"
        return resolution.pending

    @property
    def specials(self) -> int:
        """How many Specials were revealed (each rolled for its value in the war, 3.3)."""
        return 0 if self.revealed is None else sum(1 for _, p in self.revealed.programs() if p.program.special)

    @cached_property
    def odds(self) -> dict[ProgramRef, Fraction] | None:
        """Each revealed program's exact chance of surviving (before any dice; with the Preemption as
        placed so far), or ``None`` once dice have been rolled or before the reveal. Exact, slot by slot
        (:func:`~companion.games.tv_wars.ratings_war.survival_odds`): a few milliseconds on a desktop even
        with four Specials (``benchmarks/ratings_war.py``)."""
        if self.revealed is None or self.dice:
            return None
        return survival_odds(self._placed(self.revealed))

    @cached_property
    def live_odds(self) -> dict[ProgramRef, Fraction] | None:
        """Each revealed program's exact chance of surviving the war given everything rolled so far (the
        Specials' values 3.3, the tie-breaks 6.7), with the Preemption as placed so far (9.91):
        :func:`~companion.games.tv_wars.ratings_war.survival_odds` followed on from the first half-hour not
        yet resolved. ``None`` before the reveal and once the war is over."""
        if self.revealed is None or self.over:
            return None
        resolution = self.resolution
        if resolution is None or not self.dice:  # nothing rolled: what is settled so far was certain
            return self.odds
        return survival_odds(self._placed(self.revealed), self.dice_map, after=resolution)

    def tiles_at(self, ref: ProgramRef) -> tuple[str, str | None]:
        """(program tile id, bonus tile id|None) of the revealed program ``ref``."""
        for network, start, program_id, bonus_id in self.tile_ids:
            if network == ref.network and start == ref.start:
                return program_id, bonus_id
        raise MalformedCommand(f"no revealed program {ref.label}")


def war_active(war: WarAtTable | None) -> TypeGuard[WarAtTable]:
    """Whether a Ratings War is under way (started and not over); a type guard: ``war`` is then a war."""
    return war is not None and not war.over


# -- starting ----------------------------------------------------------------------------------------------


def _only_unplayable(holdings: Holdings) -> bool:
    return bool(holdings.programs) and all(t.kind in (SUPER_BOWL, PREEMPTION) for t in holdings.programs)


def start_war(
    landed_by: str,
    february_sweeps: bool,
    holdings_by_network: Mapping[str, Holdings],
    *,
    out: Sequence[str] = (),
    best_network_news: str | None = None,
    house_rules: HouseRules = HouseRules(),
) -> list[TvWarsEvent]:
    """The events that start a Ratings War when ``landed_by`` lands on a Ratings War space (6), or a
    February Sweeps one (``february_sweeps``, 9.8).

    ``holdings_by_network``: every network's :class:`Holdings` in seat order; ``out``: networks already
    out of the game; ``best_network_news``: its holder (6.3). A network whose only programming is the
    Super Bowl and/or the Preemption tile has not acquired other programming before this war and is out
    (9.8: the Super Bowl is removed from play; 9.91: the Preemption tile goes back into play). Every
    other network still in the game fights. With fewer than two networks able to fight there is no
    contest: the war starts and ends at once (the game's end rules, 8 and 10, take over).

    Raises :class:`MalformedCommand` for an unknown ``landed_by`` or a non-bool ``february_sweeps``.
    """
    if landed_by not in holdings_by_network:
        raise MalformedCommand(f"unknown network {landed_by!r}; networks are {', '.join(holdings_by_network)}")
    if not isinstance(february_sweeps, bool):
        raise MalformedCommand(f"february_sweeps is true or false, not {february_sweeps!r}")
    events: list[TvWarsEvent] = []
    fighting = []
    for network, holdings in holdings_by_network.items():
        if network in out or not holdings.programs:
            continue
        if _only_unplayable(holdings):
            for tile in holdings.programs:
                if tile.kind == SUPER_BOWL:
                    events.append(
                        ProgramLost.from_payload(
                            {
                                "network": network,
                                "tile_id": tile.id,
                                "destination": "out of play",
                                "rule": "TV Wars 9.8",
                                "reason": "its owner acquired no other programming before the next Ratings War",
                            },
                        )
                    )
                else:
                    events.append(
                        ProgramLost.from_payload(
                            {
                                "network": network,
                                "tile_id": tile.id,
                                "destination": "back in play",
                                "rule": "TV Wars 9.91, 9.9",
                                "reason": "its owner acquired no other programming before the next Ratings War",
                            },
                        )
                    )
            events += out_events(
                network,
                holdings,
                set(),
                "no programming but the Super Bowl/Preemption tile at the next Ratings War",
                "TV Wars 9.8, 9.91",
            )
        else:
            fighting.append(network)
    preemption_holder = next(
        (n for n in fighting if any(t.kind == PREEMPTION for t in holdings_by_network[n].programs)), None
    )
    events.append(
        RatingsWarStarted.from_payload(
            {
                "landed_by": landed_by,
                "february_sweeps": february_sweeps,
                "networks": fighting,
                "best_network_news": best_network_news if best_network_news in fighting else None,
                "preemption_holder": preemption_holder,
                "counter_programming_four": house_rules.counter_programming_four,
            },
        )
    )
    if len(fighting) < 2:
        alone = f"only {fighting[0]} has programming" if fighting else "no network has programming"
        events.append(
            RatingsWarEnded.from_payload(
                {
                    "cancelled": [],
                    "networks_out": [],
                    "super_bowl_auction": None,
                    "summary": f"No contest: {alone} (TV Wars 6, 8, 10)",
                },
            )
        )
    return events


# -- line-ups ----------------------------------------------------------------------------------------------


def _placements(command: EnterLineUp) -> tuple[tuple[str, str | None], ...]:
    raw = command.placements
    if isinstance(raw, (str, bytes)) or not isinstance(raw, (tuple, list)):
        raise MalformedCommand(f"placements are (program tile id, bonus tile id or None) pairs, not {raw!r}")
    pairs = []
    for item in raw:
        if (
            not isinstance(item, (tuple, list))
            or len(item) != 2
            or not isinstance(item[0], str)
            or not (item[1] is None or isinstance(item[1], str))
        ):
            raise MalformedCommand(f"a placement is (program tile id, bonus tile id or None), not {item!r}")
        pairs.append((item[0], item[1]))
    return tuple(pairs)


def build_lineup(
    war: WarAtTable, network: str, holdings: Holdings, placements: Sequence[tuple[str, str | None]], promotion: bool
) -> LineUp:
    """``network``'s :class:`LineUp` from tile ids in its ``holdings``, the unplayed tiles listed as held
    (for 6.1 and 5.3), checked with :func:`check_lineup` (6.1, 6.2, 3.23, 5.3, 9.8).

    Raises :class:`MalformedCommand` for a tile it does not hold or one placed twice, and
    :class:`IllegalCommand` citing the rule for an illegal line-up (9.91: the Preemption tile is not
    placed as a program).
    """
    used_programs: list[str] = []
    used_bonuses: list[str] = []
    lineup_placements = []
    for program_id, bonus_id in placements:
        if program_id in used_programs:
            raise MalformedCommand(f"{network} places Program tile {program_id} twice")
        tile = holdings.program(program_id)
        used_programs.append(program_id)
        bonus = None
        if bonus_id is not None:
            if bonus_id in used_bonuses:
                raise IllegalCommand(
                    f"{network} places bonus tile {bonus_id} on two programs; a tile is played with one program only",
                    "TV Wars 5, 6.2",
                )
            bonus = holdings.bonus(bonus_id).to_bonus()
            used_bonuses.append(bonus_id)
        lineup_placements.append(Placement(tile.to_program(), bonus))
    held_programs = tuple(
        t.to_program() for t in holdings.programs if t.id not in used_programs and t.kind != PREEMPTION
    )
    held_bonuses = tuple(t.to_bonus() for t in holdings.bonuses if t.id not in used_bonuses)
    lineup = LineUp(
        network,
        tuple(lineup_placements),
        promotion=promotion,
        best_network_news=war.best_network_news == network,
        held_programs=held_programs,
        held_bonuses=held_bonuses,
    )
    check_lineup(lineup, february_sweeps=war.february_sweeps)
    return lineup


def _check_promotion(network: str, promotion: Any, balances: Mapping[str, int]) -> None:
    if not isinstance(promotion, bool):
        raise MalformedCommand(f"promotion is true or false, not {promotion!r}")
    if promotion and balances.get(network, 0) < PROMOTION_PRICE:
        raise InsufficientFunds(
            f"{network} has {format_dollars(balances.get(network, 0))}; a Promotion costs "
            f"{format_dollars(PROMOTION_PRICE)} and no network may go bankrupt to buy one",
            "TV Wars 6.6, 7",
        )


def _enter(
    war: WarAtTable, holdings_by_network: Mapping[str, Holdings], command: EnterLineUp, balances: Mapping[str, int]
) -> LineupEntered:
    if war.phase != LINE_UPS:
        raise IllegalCommand("the line-ups are all locked in; nobody may change one now", "TV Wars 6")
    entry = war.entry(command.network)
    if entry.locked:
        raise IllegalCommand(f"{entry.network} has locked in its line-up and cannot change it", "TV Wars 6")
    placements = _placements(command)
    _check_promotion(entry.network, command.promotion, balances)
    build_lineup(war, entry.network, holdings_by_network[entry.network], placements, command.promotion)
    return LineupEntered.from_payload(
        {"network": entry.network, "placements": [list(p) for p in placements], "promotion": command.promotion},
    )


def _lock(
    war: WarAtTable, holdings_by_network: Mapping[str, Holdings], command: LockLineUp, balances: Mapping[str, int]
) -> list[TvWarsEvent]:
    entered: list[TvWarsEvent] = []
    if command.placements is not None:  # enter exactly what is on the screen, then lock it
        event = _enter(
            war,
            holdings_by_network,
            EnterLineUp(network=command.network, placements=command.placements, promotion=command.promotion),
            balances,
        )
        war = evolve_war(war, event)
        entered = [event]
    return entered + _lock_entered(war, holdings_by_network, command, balances)


def _lock_entered(
    war: WarAtTable, holdings_by_network: Mapping[str, Holdings], command: LockLineUp, balances: Mapping[str, int]
) -> list[TvWarsEvent]:
    entry = war.entry(command.network)
    if entry.locked:
        raise IllegalCommand(f"{entry.network} is already locked in", "TV Wars 6")
    if war.phase != LINE_UPS:
        raise IllegalCommand("the line-ups have been revealed", "TV Wars 6")
    if not entry.entered:
        raise IllegalCommand(f"{entry.network} has not entered a line-up yet", "TV Wars 6, 6.1")
    _check_promotion(entry.network, entry.promotion, balances)
    build_lineup(war, entry.network, holdings_by_network[entry.network], entry.placements, entry.promotion)
    events: list[TvWarsEvent] = [LineupLocked.from_payload({"network": entry.network, "promotion": entry.promotion})]
    if entry.promotion:
        movement = Movement(
            entry.network, BANK, PROMOTION_PRICE, "Promotion: +10 on every program in this Ratings War", "TV Wars 6.6"
        )
        events.append(check_movement(balances, movement).to_event())
    return events


def _reveal(war: WarAtTable, holdings_by_network: Mapping[str, Holdings]) -> list[WarEvent]:
    if war.revealed is not None:
        raise IllegalCommand("the line-ups are already revealed", "TV Wars 6")
    waiting = [entry.network for entry in war.entries if not entry.locked]
    if waiting:
        raise IllegalCommand(
            f"{', '.join(waiting)} {verb(len(waiting), 'has', 'have')} not locked in; the "
            f"line-ups are revealed simultaneously once all are locked in",
            "TV Wars 6, 9.1",
        )
    lineups = []
    for entry in war.entries:
        holdings = holdings_by_network[entry.network]
        lineups.append(
            {
                "network": entry.network,
                "promotion": entry.promotion,
                "best_network_news": war.best_network_news == entry.network,
                "programs": [
                    {"tile": holdings.program(pid).to_dict(), "bonus": holdings.bonus(bid).to_dict() if bid else None}
                    for pid, bid in entry.placements
                ],
            }
        )
    return [LineupsRevealed.from_payload({"lineups": lineups})]


def _preempt(war: WarAtTable, command: PlacePreemption) -> list[WarEvent]:
    war.entry(command.network)
    if war.revealed is None:
        raise IllegalCommand("the Preemption tile is placed after seeing the revealed line-ups", "TV Wars 9.91")
    if command.network != war.preemption_holder:
        holder = war.preemption_holder or "no network in this war"
        raise IllegalCommand(f"{command.network} does not hold the Preemption tile ({holder} does)", "TV Wars 9.91")
    if war.dice:
        raise IllegalCommand(
            "dice have been rolled in this Ratings War; the Preemption tile is placed before the dice for any Special",
            "TV Wars 9.91",
        )
    if war.preemption is not None:
        raise IllegalCommand(
            f"{command.network} has already decided on the Preemption tile; undo to change it", "TV Wars 9.91"
        )
    start = command.start
    if start is not None:
        if not is_whole(start):
            raise MalformedCommand(f"the Preemption tile's hour starts at a slot 0 (8:00) to 4 (10:00), not {start!r}")
        if not 0 <= start <= SLOTS - 2:
            raise IllegalCommand(
                f"the Preemption tile covers one hour from 8:00-9:00 to 10:00-11:00; slot "
                f"{start} is not the start of one",
                "TV Wars 9.91",
            )
    return [PreemptionDecided.from_payload({"network": command.network, "start": start})]


def _answer(war: WarAtTable, command: AnswerDice) -> list[WarEvent]:
    pending = war.pending_roll
    if pending is None:
        if war.phase == PREEMPT:
            raise IllegalCommand(
                "no dice are asked for in this Ratings War right now: the Preemption tile's holder decides first",
                "TV Wars 9.91",
            )
        raise IllegalCommand("no dice are asked for in this Ratings War right now", "TV Wars 6")
    values = check_answer(pending.request, command.roller, command.values, command.source)
    return [
        WarDiceRolled.from_payload(
            {"key": pending.key, **roll_payload(pending.request, command.roller, values, command.source)},
        )
    ]


def decide_war(
    war: WarAtTable, holdings_by_network: Mapping[str, Holdings], command: Command, *, balances: Mapping[str, int]
) -> list[TvWarsEvent]:
    """The events ``command`` causes in the war ``war``, given every network's ``holdings_by_network``
    and cash ``balances`` (dollars): :class:`EnterLineUp`, :class:`LockLineUp`, :class:`RevealLineUps`,
    :class:`PlacePreemption` and :class:`~companion.commands.AnswerDice` for :func:`war_pending_dice`.

    After a reveal, a Preemption decision or a roll, the war is carried as far as it goes without more
    dice: every newly settled half-hour gets a ``ratings_war_slot_resolved`` event and, when the war is
    complete, the consequences follow (:func:`war_consequences`) and ``ratings_war_ended``.

    Raises :class:`IllegalCommand` citing the rule (6, 6.1, 6.2, 3.23, 5.3, 6.6, 9.8, 9.91, 7),
    :class:`MalformedCommand`/:class:`DiceError` for malformed input; nothing changes then.
    """
    if not war_active(war):
        raise IllegalCommand("no Ratings War is under way", "TV Wars 6")
    if isinstance(command, EnterLineUp):
        return [_enter(war, holdings_by_network, command, balances)]
    if isinstance(command, LockLineUp):
        return _lock(war, holdings_by_network, command, balances)
    if isinstance(command, RevealLineUps):
        events = _reveal(war, holdings_by_network)
    elif isinstance(command, PlacePreemption):
        events = _preempt(war, command)
    elif isinstance(command, AnswerDice):
        events = _answer(war, command)
    else:
        raise IllegalCommand(f"a Ratings War is under way: {war_status(war)}", "TV Wars 6")
    after = war
    for event in events:
        after = evolve_war(after, event)
    return events + _advance(after, holdings_by_network)


def _advance(war: WarAtTable, holdings_by_network: Mapping[str, Holdings]) -> list[TvWarsEvent]:
    """Slot events for the half-hours settled since the last report and, when complete, the end."""
    resolution = war.resolution
    if resolution is None:
        return []
    events: list[TvWarsEvent] = [
        SlotResolved.from_payload({"index": slot.index, "slot": slot_dict(slot)})
        for slot in resolution.slots[war.slots_reported :]
    ]
    if resolution.complete:
        events += war_consequences(war, resolution, holdings_by_network)
    return events


# -- consequences ------------------------------------------------------------------------------------------


def war_consequences(
    war: WarAtTable, resolution: Resolution, holdings_by_network: Mapping[str, Holdings]
) -> list[TvWarsEvent]:
    """The holdings events after a complete war, then ``ratings_war_ended``:

    * a cancelled program leaves play (6.8); a played Academy Award Movie leaves play (3.21); a played
      Super Bowl is lost to its owner (9.8) and its auction among the other networks is announced; a
      played Preemption tile goes back into play (9.91, 9.9);
    * the bonus tile of each played program: a Star stays unless its program was cancelled, then it
      returns to the bottom of the Star pile (5.11, 6.2; a played movie's Star stays, 6.2); an Emmy
      returns to the Emmy Awards pile (5.21); Critics' Choice and Viewers' Views leave play (5.31);
    * a network left with no programming is out (3): its remaining Stars return to the pile (5.11).
    """
    if resolution.pending is not None:  # not complete
        request = resolution.pending.request
        raise IllegalCommand(f"the Ratings War is not over: {request.describe()}", request.rule or "TV Wars 6")
    events: list[TvWarsEvent] = []
    lost_programs: dict[str, set[str]] = {n: set() for n in war.networks}
    lost_bonuses: dict[str, set[str]] = {n: set() for n in war.networks}
    super_bowl_owner = None
    for ref, placement in resolution.war.programs():
        program_id, bonus_id = war.tiles_at(ref)
        program = placement.program
        cancellation = resolution.cancellation_of(ref)
        where = span_label(ref.start, program.length)
        if cancellation is not None:
            reason, rule, destination = (
                f"{program.title} ({where}) cancelled: {cancellation.reason}",
                cancellation.rule,
                "out of play",
            )
        elif program.academy_award_movie:
            reason, rule, destination = (
                f"{program.title} ({where}) played: an Academy Award Movie is used in one Ratings War only",
                "TV Wars 3.21",
                "out of play",
            )
        elif program.super_bowl:
            super_bowl_owner = ref.network
            reason, rule, destination = (
                "the Super Bowl is lost to its owner after the February Sweeps Ratings War and goes up for bid",
                "TV Wars 9.8",
                "back in play",
            )
        else:
            reason = None
        if reason is not None:
            events.append(
                ProgramLost.from_payload(
                    {
                        "network": ref.network,
                        "tile_id": program_id,
                        "reason": reason,
                        "rule": rule,
                        "destination": destination,
                    },
                )
            )
            lost_programs[ref.network].add(program_id)
        if bonus_id is not None:
            fate = bonus_fate(placement, cancellation is not None)
            if not fate.kept:
                why = {
                    "Star pile": f"its program {program.title} was cancelled",
                    "Emmy Awards pile": "an Emmy is lost once played",
                    "out of play": "played Critics' Choice/Viewers' Views tiles leave play",
                }[fate.destination]
                events.append(
                    BonusReturned.from_payload(
                        {
                            "network": ref.network,
                            "tile_id": bonus_id,
                            "reason": f"{fate.tile}: {why}",
                            "rule": fate.rule,
                            "destination": fate.destination,
                        },
                    )
                )
                lost_bonuses[ref.network].add(bonus_id)
    for lineup in resolution.war.lineups:
        if lineup.preemption is not None:
            events.append(
                ProgramLost.from_payload(
                    {
                        "network": lineup.network,
                        "tile_id": "PREEMPTION",
                        "destination": "back in play",
                        "rule": "TV Wars 9.91, 9.9",
                        "reason": f"the Preemption tile was played over {span_label(lineup.preemption, 2)}",
                    },
                )
            )
            lost_programs[lineup.network].add("PREEMPTION")
    out = []
    for network in war.networks:
        holdings = holdings_by_network[network]
        if all(t.id in lost_programs[network] for t in holdings.programs):
            out.append(network)
            events += out_events(
                network, holdings, lost_bonuses[network], "no programming left after the Ratings War", "TV Wars 3, 6.8"
            )
    cancelled = [c.text for c in resolution.cancellations]
    summary = (
        f"Ratings War over: {count(len(cancelled), 'cancellation')}"
        + (f"; {', '.join(out)} out of the game" if out else "")
        + (
            f"; the Super Bowl goes up for bid among the networks other than {super_bowl_owner}"
            if super_bowl_owner
            else ""
        )
    )
    events.append(
        RatingsWarEnded.from_payload(
            {"cancelled": cancelled, "networks_out": out, "super_bowl_auction": super_bowl_owner, "summary": summary},
        )
    )
    return events


# -- evolve --------------------------------------------------------------------------------------------------


def _war_from_reveal(event: LineupsRevealed, war: WarAtTable) -> tuple[War, tuple]:
    lineups, ids = [], []
    for item in event.lineups:
        placements = []
        at = 0
        for program in item["programs"]:
            tile = ProgramTile.from_dict(program["tile"])
            bonus = BonusTile.from_dict(program["bonus"]) if program["bonus"] else None
            placements.append(Placement(tile.to_program(), bonus.to_bonus() if bonus else None))
            ids.append((item["network"], at, tile.id, bonus.id if bonus else None))
            at += tile.length
        lineups.append(
            LineUp(
                item["network"],
                tuple(placements),
                promotion=item["promotion"],
                best_network_news=item["best_network_news"],
            )
        )
    return War(tuple(lineups), war.february_sweeps, war.house_rules), tuple(ids)


def evolve_war(war: WarAtTable | None, event: WarEvent) -> WarAtTable:
    """The war after one of :data:`WAR_EVENT_CLASSES` (pure). ``ratings_war_started`` makes a new war from
    ``None`` (or replaces a finished one). Raises ``ValueError`` for another event."""
    if isinstance(event, RatingsWarStarted):
        return WarAtTable(
            event.landed_by,
            event.february_sweeps,
            tuple(Entry(n) for n in event.networks),
            event.best_network_news,
            event.preemption_holder,
            HouseRules(event.counter_programming_four),
        )
    if war is None:
        raise ValueError(f"no Ratings War to apply {event!r} to")
    if isinstance(event, LineupEntered):
        return replace(
            war,
            entries=tuple(
                replace(
                    e, placements=tuple((p, b) for p, b in event.placements), promotion=event.promotion, entered=True
                )
                if e.network == event.network
                else e
                for e in war.entries
            ),
        )
    if isinstance(event, LineupLocked):
        return replace(
            war, entries=tuple(replace(e, locked=True) if e.network == event.network else e for e in war.entries)
        )
    if isinstance(event, LineupsRevealed):
        revealed, ids = _war_from_reveal(event, war)
        return replace(war, revealed=revealed, tile_ids=ids)
    if isinstance(event, PreemptionDecided):
        return replace(war, preemption=(event.network, event.start))
    if isinstance(event, WarDiceRolled):
        return replace(war, dice=war.dice + ((event.key, tuple(event.values), event.source),))
    if isinstance(event, SlotResolved):
        return replace(war, slots_reported=event.index + 1)
    if isinstance(event, RatingsWarEnded):
        return replace(war, over=True, summary=event.summary)
    raise ValueError(f"not a Ratings War event: {event!r}")


# -- dice, status, history ------------------------------------------------------------------------------------


def war_pending_dice(war: WarAtTable | None) -> DiceRequest | None:
    """The one roll the war waits for (a Special's value 3.3, or a tie-break 6.7), or ``None``."""
    if not war_active(war):
        return None
    pending = war.pending_roll
    return None if pending is None else pending.request


def war_status(war: WarAtTable) -> str:
    """The public status line (9.1: nothing secret before the reveal), e.g. ``"Ratings War: CBA locked
    in; ABS, PBC, NBS entering line-ups (TV Wars 6)"``."""
    phase = war.phase
    if phase == LINE_UPS:
        locked = [e.network for e in war.entries if e.locked]
        entering = [e.network for e in war.entries if not e.locked]
        head = f"{', '.join(locked)} locked in; " if locked else ""
        return f"Ratings War: {head}{', '.join(entering)} entering line-ups (TV Wars 6)"
    if phase == REVEAL:
        return "Ratings War: all locked in; reveal the line-ups (TV Wars 6)"
    if phase == PREEMPT:
        return (
            f"Ratings War: {war.preemption_holder} may place the Preemption tile over any hour or decline "
            f"(TV Wars 9.91)"
        )
    if phase == DICE:
        pending = war.pending_roll
        return f"Ratings War: {pending.request.describe()}" if pending else "Ratings War: resolved"
    return war.summary or "Ratings War over"


def _lineup_text(item: Mapping[str, Any]) -> str:
    parts, at = [], 0
    for program in item["programs"]:
        tile = ProgramTile.from_dict(program["tile"])
        text = f"{tile.to_program().title} {span_label(at, tile.length)}"
        if program["bonus"]:
            text += f" + {BonusTile.from_dict(program['bonus']).to_bonus().describe()}"
        parts.append(text)
        at += tile.length
    extra = (" [Promotion]" if item["promotion"] else "") + (
        " [Best Network News]" if item["best_network_news"] else ""
    )
    return f"{item['network']}{extra}: {', '.join(parts)}"


def describe_war_event(event: WarEvent) -> str:
    """One history line per war event. Before the reveal the lines name no tile, rating or bonus (9.1)."""
    if isinstance(event, RatingsWarStarted):
        sweeps = "February Sweeps " if event.february_sweeps else ""
        return (
            f"{sweeps}Ratings War called by {event.landed_by}: {', '.join(event.networks)} "
            f"enter their line-ups secretly (TV Wars 6{', 9.8' if sweeps else ''})"
        )
    if isinstance(event, LineupEntered):
        return f"{event.network} enters its line-up (secret until the reveal, TV Wars 9.1)"
    if isinstance(event, LineupLocked):
        return f"{event.network} locked in (TV Wars 6)"
    if isinstance(event, LineupsRevealed):
        return "Line-ups revealed (TV Wars 6): " + "; ".join(_lineup_text(item) for item in event.lineups)
    if isinstance(event, PreemptionDecided):
        if event.start is None:
            return f"{event.network} keeps the Preemption tile off the card (TV Wars 9.91)"
        return (
            f"{event.network} preempts {span_label(event.start, 2)}: no competition, no "
            f"cancellation and no Lead-In from it (TV Wars 9.91)"
        )
    if isinstance(event, WarDiceRolled):
        values = event.values
        return (
            f"{event.roller} rolled {'+'.join(map(str, values))} = {sum(values)} ({event.source}) "
            f"for the {event.reason} ({event.rule})"
        )
    if isinstance(event, SlotResolved):
        return _slot_text(event.slot)
    if isinstance(event, RatingsWarEnded):
        return event.summary
    raise ValueError(f"not a Ratings War event: {event!r}")


def _slot_text(slot: Mapping[str, Any]) -> str:
    """A resolved slot (the resolver's :func:`~companion.games.tv_wars.ratings_war.slot_dict`) in words."""
    if slot["preempted_by"]:
        return f"{slot['slot']}: preempted by {slot['preempted_by']} (TV Wars 9.91)"
    lines = [score["line"] for score in slot["scores"]]
    lines += [tie["text"] for tie in slot["ties"]]
    if slot["cancelled"]:
        lines.append(slot["cancelled"]["text"])
    lines += slot["notes"]
    return f"{slot['slot']}: " + " ".join(lines or ["no programs on the air."])


# -- views ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GridCell:
    """One network's program in one half-hour of the resolution grid: ``program`` title (``""`` for an
    empty slot), ``starts`` (``True`` in the program's first half-hour), ``total`` (RP, ``None`` before
    it is resolved or for the Super Bowl), ``breakdown`` (``"90 - 10 [Counter-Programming]"``),
    ``parts`` ``((label, value, rule), ...)`` after the base, ``base`` and ``state``: ``""`` (not yet
    resolved), ``"scored"``, ``"wins"`` (highest in the slot), ``"cancelled"`` (with ``reason`` and
    ``rule``), ``"gone"`` (cancelled earlier), ``"preempted"`` or ``"empty"``; ``tie`` is the tie-break
    text if the network rolled in this slot; before the slot is resolved ``running`` is the score it stands at
    so far (:func:`~companion.games.tv_wars.ratings_war.score_so_far`, ``None`` if unknown: an unrolled
    Special, the Super Bowl) with ``running_breakdown``; ``chance`` its program's chance of surviving the war
    (0-1; ``None`` where it cannot be given exactly, see :attr:`WarAtTable.live_odds`)."""

    program: str = ""
    starts: bool = False
    total: int | None = None
    base: int | None = None
    breakdown: str = ""
    parts: tuple[tuple[str, int, str], ...] = ()
    state: str = ""
    reason: str = ""
    rule: str = ""
    tie: str = ""
    running: int | None = None
    running_breakdown: str = ""
    chance: float | None = None


@dataclass(frozen=True)
class GridRow:
    """One half-hour of the grid: ``label`` (``"8:00-8:30"``), one :class:`GridCell` per network (in
    :attr:`WarView.networks` order), the slot's ``notes`` and tie ``ties`` texts."""

    label: str
    cells: tuple[GridCell, ...]
    notes: tuple[str, ...] = ()
    ties: tuple[str, ...] = ()


@dataclass(frozen=True)
class WarView:
    """The public picture of a war (9.1) for the shared screen.

    ``phase``; ``status`` (line); ``networks`` in seat order; ``lineup_status``: ``(network, "entering" |
    "locked in")`` (whether a network has entered anything yet is not shown); ``promotion``: the
    networks that paid for Promotion (public: the money is placed on the board, 6.6); after the reveal
    ``rows`` (six :class:`GridRow`), ``preemption`` (``"ABS preempts 9:30-10:30"``), ``odds``
    (``(network, program, span, fraction text, percent)`` before any dice), ``dice`` (one line per roll),
    ``cancellations`` (texts with rules) and ``pending`` (the roll awaited, described); ``current``: the
    half-hour being resolved (``None`` before the Preemption is decided and once all are); once the war is
    over, ``aftermath``: one ``(network, lost, kept)`` per network, each a text with its rules
    (:func:`aftermath_lines`)."""

    phase: str
    status: str
    networks: tuple[str, ...]
    lineup_status: tuple[tuple[str, str], ...]
    promotion: tuple[str, ...] = ()
    rows: tuple[GridRow, ...] = ()
    preemption: str = ""
    odds: tuple[tuple[str, str, str, str, float], ...] = ()
    dice: tuple[str, ...] = ()
    cancellations: tuple[str, ...] = ()
    pending: str = ""
    current: int | None = None
    aftermath: tuple[tuple[str, str, str], ...] = ()


def _chance(war: War, resolution: Resolution | None, ref: ProgramRef, odds) -> float | None:
    """``ref``'s chance of surviving (0-1): 0 once cancelled, 1 once its last half-hour is resolved without
    a cancellation, else the exact odds if known (:attr:`WarAtTable.live_odds`), else ``None``."""
    if resolution is not None:
        if resolution.cancellation_of(ref) is not None:
            return 0.0
        last = ref.start + war.placement(ref).program.length - 1
        if last < len(resolution.slots):
            return 1.0
    return float(odds[ref]) if odds is not None and ref in odds else None


def _cell(
    war: War,
    resolution: Resolution | None,
    network: str,
    slot: int,
    dice: Mapping[str, Sequence[int]] | None = None,
    odds: Mapping[ProgramRef, Fraction] | None = None,
) -> GridCell:
    lineup = war.lineup(network)
    found = lineup.at(slot)
    preempted = war.preempted_by(slot)
    if found is None:
        return GridCell(state="preempted" if preempted else "empty")
    start, placement = found
    ref = ProgramRef(network, start)
    title = placement.program.title
    if preempted:
        return GridCell(
            title, start == slot, state="preempted", reason=f"preempted by {preempted}", rule="TV Wars 9.91"
        )
    if resolution is None or slot >= len(resolution.slots):
        earlier = resolution.cancellation_of(ref) if resolution else None
        if earlier is not None and earlier.slot < slot:
            return GridCell(
                title,
                start == slot,
                state="gone",
                reason=f"cancelled at {slot_label(earlier.slot)}",
                rule=earlier.rule,
                chance=0.0,
            )
        running = score_so_far(war, resolution, ref, slot, dice or {})
        return GridCell(
            title,
            start == slot,
            base=None if placement.program.special else placement.program.rating,
            running=running.total if running is not None else None,
            running_breakdown=running.breakdown if running is not None else "",
            chance=_chance(war, resolution, ref, odds),
        )
    result: SlotResult = resolution.slots[slot]
    score = result.score_of(network)
    if score is None or score.ref != ref:
        cancellation = resolution.cancellation_of(ref)
        return GridCell(
            title,
            start == slot,
            state="gone",
            reason=f"cancelled at {slot_label(cancellation.slot)}" if cancellation else "",
            rule=cancellation.rule if cancellation else "",
            chance=0.0 if cancellation else None,
        )
    tie = " ".join(t.text for t in result.ties if network in t.networks)
    state, reason, rule = "scored", "", ""
    if result.cancellation is not None and result.cancellation.ref == ref:
        state, reason, rule = "cancelled", result.cancellation.reason, result.cancellation.rule
    elif result.winner == network:
        state = "wins"
    return GridCell(
        title,
        start == slot,
        score.total,
        score.base,
        score.breakdown,
        tuple((p.label, p.value, p.rule) for p in score.parts),
        state,
        reason,
        rule,
        tie,
        chance=_chance(war, resolution, ref, odds),
    )


def aftermath_lines(war: WarAtTable) -> tuple[tuple[str, str, str], ...]:
    """What each network lost and kept in ``war`` once it is over: ``(network, lost, kept)`` texts, e.g.
    ``("NBS", "lost SILVER GIRLS (cancelled in 8:00-8:30, TV Wars 6.8); Star 30 to the Star pile (TV Wars 5.11,
    6.2)", "kept TENDER HIDE; Best Network News")``, from
    :func:`~companion.games.tv_wars.ratings_war.consequences` (6.2, 6.8, 5.11, 5.21, 5.31, 3.21, 9.8, 9.91).
    Empty while the war is not over."""
    resolution = war.resolution
    if not war.over or resolution is None or resolution.pending is not None:
        return ()
    out = []
    for net in consequences(resolution):
        lost = [f"{fate.program} ({fate.reason}, {fate.rule})" for fate in net.programs_lost]
        lost += [
            f"{tile.tile}{' on ' + tile.program if tile.program else ''} to the {tile.destination} ({tile.rule})"
            if tile.destination.endswith("pile")
            else f"{tile.tile} {tile.destination} ({tile.rule})"
            for tile in net.tiles_returned
        ]
        kept = [fate.program for fate in net.programs_kept]
        kept += [tile.tile + (f" on {tile.program}" if tile.program else "") for tile in net.tiles_kept]
        out.append(
            (
                net.network,
                "lost " + "; ".join(lost) if lost else "lost nothing",
                "kept " + ", ".join(kept) if kept else "kept no program in the war",
            )
        )
    return tuple(out)


def preemption_preview(war: WarAtTable, start: int | None) -> WarView:
    """The grid as it would be with the Preemption tile's holder playing it over the hour from ``start``
    (0-4; ``None``: not played), with the odds that follow (9.91): what the holder weighs before choosing.
    Changes nothing. Raises :class:`IllegalCommand` when no Preemption is waiting to be decided."""
    if war.phase != PREEMPT or war.preemption_holder is None:
        raise IllegalCommand("no Preemption tile is waiting to be placed", "TV Wars 9.91")
    if start is not None and not (is_whole(start) and 0 <= start <= SLOTS - 2):
        raise MalformedCommand(
            f"the Preemption tile covers one hour starting 8:00-10:00, not slot {start!r} (TV Wars 9.91)"
        )
    return war_view(replace(war, preemption=(war.preemption_holder, start)))


def war_view(war: WarAtTable) -> WarView:
    """The public :class:`WarView` of ``war``: before the reveal only who has locked in (9.1); after it
    the grid of line-ups and, as the dice come, every score's parts, tie rolls and cancellations with
    their rules; before any dice, each program's exact chance of surviving (:attr:`WarAtTable.odds`),
    whatever the number of Specials."""
    lineup_status = tuple((e.network, "locked in" if e.locked else "entering") for e in war.entries)
    promotion = tuple(e.network for e in war.entries if e.locked and e.promotion)
    base = WarView(war.phase, war_status(war), war.networks, lineup_status, promotion)
    current = war.war
    if current is None:
        return base
    resolution = war.resolution
    dice_map, odds_now = war.dice_map, war.live_odds
    rows = []
    for slot in range(SLOTS):
        result = resolution.slots[slot] if resolution is not None and slot < len(resolution.slots) else None
        rows.append(
            GridRow(
                slot_label(slot),
                tuple(_cell(current, resolution, n, slot, dice_map, odds_now) for n in war.networks),
                result.notes if result else (),
                tuple(t.text for t in result.ties) if result else (),
            )
        )
    preemption = next(
        (
            f"{l.network} preempts {span_label(l.preemption, 2)} (TV Wars 9.91)"
            for l in current.lineups
            if l.preemption is not None
        ),
        "",
    )
    odds: tuple[tuple[str, str, str, str, float], ...] = ()
    if war.odds is not None:
        odds = tuple(
            (
                ref.network,
                current.placement(ref).program.title,
                span_label(ref.start, current.placement(ref).program.length),
                str(chance),
                float(chance),
            )
            for ref, chance in war.odds.items()
        )
    dice = tuple(f"{key}: {'+'.join(map(str, values))} = {sum(values)} ({source})" for key, values, source in war.dice)
    cancellations = tuple(c.text for c in resolution.cancellations) if resolution else ()
    pending = resolution.pending.request.describe() if resolution and resolution.pending else ""
    resolving = len(resolution.slots) if resolution is not None and resolution.pending is not None else None
    return replace(
        base,
        rows=tuple(rows),
        preemption=preemption,
        odds=odds,
        dice=dice,
        cancellations=cancellations,
        pending=pending,
        current=resolving,
        aftermath=aftermath_lines(war),
    )


@dataclass(frozen=True)
class PrivateWarView:
    """What ``network`` alone sees while entering its line-up (9.1): its entered ``lines`` (``"8:00-10:00
    P3 MONDAY NIGHT RUGBY: 120-minute Other, 80 RP + Star 20"``), ``held`` tiles not played,
    ``promotion``, ``locked``, and ``problem``: why the entry would be refused now (``""`` if legal)."""

    network: str
    lines: tuple[str, ...]
    held: tuple[str, ...]
    promotion: bool
    locked: bool
    problem: str = ""


def war_private_view(war: WarAtTable, network: str, holdings: Holdings) -> PrivateWarView:
    """``network``'s own line-up entry with the secret values, for its panel only (9.1). Raises
    :class:`IllegalCommand` for a network not in the war."""
    entry = war.entry(network)
    lines, at = [], 0
    for program_id, bonus_id in entry.placements:
        tile = holdings.program(program_id)
        text = f"{span_label(at, tile.length)} {tile.private_text}"
        if bonus_id:
            text += f" + {holdings.bonus(bonus_id).to_bonus().describe()}"
        lines.append(text)
        at += tile.length
    used = {p for p, _ in entry.placements} | {b for _, b in entry.placements if b}
    tiles: tuple[ProgramTile | BonusTile, ...] = (*holdings.programs, *holdings.bonuses)
    held = tuple(t.private_text for t in tiles if t.id not in used)
    problem = ""
    if entry.entered:
        try:
            build_lineup(war, network, holdings, entry.placements, entry.promotion)
        except (IllegalCommand, MalformedCommand) as error:
            problem = str(error)
    else:
        problem = "no line-up entered yet (TV Wars 6.1)"
    return PrivateWarView(network, tuple(lines), held, entry.promotion, entry.locked, problem)


__all__ = [
    "WarAtTable",
    "Entry",
    "EnterLineUp",
    "LockLineUp",
    "RevealLineUps",
    "PlacePreemption",
    "WarView",
    "GridRow",
    "GridCell",
    "PrivateWarView",
    "WAR_EVENT_CLASSES",
    "WAR_SAFE_POINT_EVENTS",
    "PROMOTION_PRICE",
    "start_war",
    "decide_war",
    "evolve_war",
    "war_active",
    "war_pending_dice",
    "war_status",
    "war_view",
    "war_private_view",
    "war_consequences",
    "describe_war_event",
    "build_lineup",
]
