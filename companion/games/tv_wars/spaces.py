"""TV Wars board spaces: the moving network says which space its token landed on, and the companion
applies that space's rule (the rulebook does not give the board's order).

Spaces (:data:`SPACES`): On the Air (9.5: landing adds nothing; passing pays, see ``PassOnTheAir``),
Television Production Company (3.1, 3.11), Movie Studio (3.2, 3.22), Talent Agency (5.1, 5.12), Emmy
Awards (5.2, 5.22), Critics' Choice and Viewers' Views (5.3, 5.32), Ratings War and February Sweeps
Ratings War (6, 9.8: handed to the war module), Sponsor (9.4), Bulletin (9.6), Steal a Program (9.2),
Steal a Star (9.3), Technical Difficulties (9.7), Best Network News (6.3, 9.9).

Commands: :class:`LandOn`, :class:`Nominate`, :class:`Decline`, :class:`BuyMovie`, :class:`EnterTileValue`,
:class:`Steal`, :class:`GiveUp`, :class:`Bulletin`.

Sub-states: :class:`Landing` (the moving network's unfinished choice on its space) and :class:`TileEntry`
(a network enters a tile's secret value privately, 9.1: after winning an auction or drawing a
Critics' Choice/Viewers' Views tile).

Events: ``landed`` ``{"network", "space", "stage", "lengths", "rule"}``; ``landing_stage`` ``{"stage",
"price", "victim"}``; ``landing_done`` ``{"network", "outcome", "rule"}``; ``tile_entry_opened``
``{"network", "lot", "length", "colour", "reason", "rule"}``; ``best_network_news_passed`` ``{"network",
"from"}``; ``ratings_war_called`` ``{"network", "february_sweeps"}``; ``turn_passed`` ``{"network"}``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from companion.checks import is_whole
from companion.commands import BANK, Command
from companion.errors import IllegalCommand, MalformedCommand
from companion.games.tv_wars import auction as auctions
from companion.games.tv_wars.bank import Movement, format_dollars
from companion.games.tv_wars.bankruptcy import incur_debt, start_final_count
from companion.games.tv_wars.events import (
    AuctionClosed,
    BestNetworkNewsPassed,
    BonusMoved,
    Landed,
    LandingDone,
    LandingStage,
    ProgramMoved,
    RatingsWarCalled,
    TileEntryOpened,
    TurnPassed,
    TvWarsEvent,
)
from companion.games.tv_wars.holdings import (
    MINUTES,
    PREEMPTION,
    STAR,
    TYPE_WORDS,
    BonusTile,
    ProgramTile,
    bonus_acquired,
    check_bonus_supply,
    check_program_supply,
    next_tile_id,
    out_events,
    program_acquired,
)
from companion.games.tv_wars.ratings_war import EMMY, EMMY_VALUE
from companion.games.tv_wars.setup import ProgramSpec
from companion.words import with_article

if TYPE_CHECKING:
    from companion.games.tv_wars import TvWarsState

#: The space and turn events (2.5, 3, 5, 9).
SPACE_EVENT_CLASSES = (
    Landed,
    LandingStage,
    LandingDone,
    TileEntryOpened,
    BestNetworkNewsPassed,
    RatingsWarCalled,
    TurnPassed,
)
LANDED, LANDING_STAGE, LANDING_DONE, TILE_ENTRY_OPENED = (
    Landed.TYPE,
    LandingStage.TYPE,
    LandingDone.TYPE,
    TileEntryOpened.TYPE,
)
BEST_NETWORK_NEWS_PASSED, RATINGS_WAR_CALLED, TURN_PASSED = (
    BestNetworkNewsPassed.TYPE,
    RatingsWarCalled.TYPE,
    TurnPassed.TYPE,
)
#: Their journal type names.
SPACE_EVENTS = tuple(cls.TYPE for cls in SPACE_EVENT_CLASSES)
SpaceEvent = (
    Landed | LandingStage | LandingDone | TileEntryOpened | BestNetworkNewsPassed | RatingsWarCalled | TurnPassed
)

ON_THE_AIR_PAYMENT = 3_000  # dollars, rule 9.5
SPONSOR_PER_HALF_HOUR = 500  # dollars per half-hour of programming, rule 9.4
#: Space name → (label, rule).
SPACES = {
    "on_the_air": ("On the Air", "TV Wars 9.5"),
    "television_production_company": ("Television Production Company", "TV Wars 3.1"),
    "movie_studio": ("Movie Studio", "TV Wars 3.2"),
    "talent_agency": ("Talent Agency", "TV Wars 5.1"),
    "emmy_awards": ("Emmy Awards", "TV Wars 5.2"),
    "critics_choice": ("Critics' Choice", "TV Wars 5.3"),
    "viewers_views": ("Viewers' Views", "TV Wars 5.3"),
    "ratings_war": ("Ratings War", "TV Wars 6"),
    "february_sweeps": ("February Sweeps Ratings War", "TV Wars 6, 9.8"),
    "sponsor": ("Sponsor", "TV Wars 9.4"),
    "bulletin": ("Bulletin", "TV Wars 9.6"),
    "steal_a_program": ("Steal a Program", "TV Wars 9.2"),
    "steal_a_star": ("Steal a Star", "TV Wars 9.3"),
    "technical_difficulties": ("Technical Difficulties", "TV Wars 9.7"),
    "best_network_news": ("Best Network News", "TV Wars 6.3, 9.9"),
}
BULLETIN_EFFECTS = (
    "pay",
    "collect",
    "pay_each",
    "collect_each",
    "move",
    "super_bowl",
    "auction_program",
    "auction_star",
    "none",
)
MOVIE_PRICE_PER_PIP = 1_000  # 3.2
BEST_NETWORK_NEWS_BONUS_CASH = 1_000  # 9.9
ALL_LENGTHS = (1, 2, 3, 4)
MOVIE_STUDIO_VOID_LENGTHS = (3, 4)  # 3.22


# -- commands ------------------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class LandOn(Command):
    """``network``'s token ended its move on ``space`` (a key of :data:`SPACES`); ``passed_on_the_air``
    first pays $3,000 (9.5). Only the network whose turn it is may land, with nothing else pending."""

    network: str
    space: str
    passed_on_the_air: bool = False


@dataclass(frozen=True, kw_only=True)
class Nominate(Command):
    """The moving network nominates a tile for bid (4): on a Television Production Company (or a Movie
    Studio after 3.22) a Program tile of ``length`` half-hours and ``colour``; on a Talent Agency a Star
    (no length or colour). ``opening`` bid in dollars: $1,000 or more in $500 steps."""

    network: str
    length: int | None = None
    colour: str | None = None
    opening: int = auctions.OPENING_BID


@dataclass(frozen=True, kw_only=True)
class Decline(Command):
    """The moving network declines its option (nominate 3.11/5.1, buy a movie 3.2, steal 9.2/9.3)."""

    network: str


@dataclass(frozen=True, kw_only=True)
class BuyMovie(Command):
    """The moving network buys an Academy Award Movie at the rolled price (3.2), choosing one by its
    ``colour`` and optional ``name``. Refused above its cash (7: no bankruptcy to buy)."""

    network: str
    colour: str = "yellow"
    name: str = ""


@dataclass(frozen=True, kw_only=True)
class EnterTileValue(Command):
    """``network`` enters, privately on its own panel, the secret value of the tile it just obtained
    (9.1): a program's ``value`` in RP (10-90) or ``special=True``; a Star's 10/20/30; a Critics' Choice
    (-36..+36) or Viewers' Views (-28..+29) value. ``name`` is optional."""

    network: str
    value: int | None = field(default=None, repr=False)  # secret (9.1): kept out of logs
    special: bool = field(default=False, repr=False)
    name: str = field(default="", repr=False)
    private = True


@dataclass(frozen=True, kw_only=True)
class Steal(Command):
    """On Steal a Program/Steal a Star, ``network`` demands a tile from ``victim`` (9.2, 9.3)."""

    network: str
    victim: str


@dataclass(frozen=True, kw_only=True)
class GiveUp(Command):
    """The network being stolen from chooses which tile it gives up (9.2, 9.3): ``tile_id``."""

    network: str
    tile_id: str


@dataclass(frozen=True, kw_only=True)
class Bulletin(Command):
    """The Bulletin card ``network`` drew (9.6), as a generic ``effect`` (:data:`BULLETIN_EFFECTS`;
    the card texts are not in the rulebook): ``pay``/``collect`` ``amount`` to/from the bank,
    ``pay_each``/``collect_each`` ``amount`` to/from every other network, ``move`` to ``space``
    (``passed_on_the_air`` pays 9.5), ``super_bowl`` (the tile comes into play for this network, 9.8),
    ``auction_program`` (``length``, ``colour``) or ``auction_star`` with ``network`` opening at
    ``amount`` (default $1,000), or ``none``."""

    network: str
    effect: str
    amount: int = 0
    space: str | None = None
    passed_on_the_air: bool = False
    length: int | None = None
    colour: str | None = None


# -- sub-states -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Landing:
    """The moving ``network``'s unfinished business on ``space``: ``stage`` (``nominate``,
    ``nominate_star``, ``movie_roll``, ``movie_offer``, ``emmy_roll``, ``bulletin``, ``steal_program``,
    ``steal_star``, ``give_program``, ``give_star``, ``ratings_war``), the movie ``price`` in dollars,
    the steal ``victim``, and the program ``lengths`` that may be nominated (3.22)."""

    network: str
    space: str
    stage: str
    price: int = 0
    victim: str | None = None
    lengths: tuple[int, ...] = ALL_LENGTHS

    @property
    def status(self) -> str:
        """The status line: ``"ABS on Movie Studio: buy an Academy Award Movie for $7,000 or decline"``."""
        label = SPACES[self.space][0]
        what = {
            "nominate": "nominate a program for bid or decline",
            "nominate_star": "nominate a Star for bid or decline",
            "movie_roll": "roll for the movie's price",
            "movie_offer": f"buy an Academy Award Movie for {format_dollars(self.price)} or decline",
            "emmy_roll": "roll doubles to win an Emmy",
            "bulletin": "draw a Bulletin card and enter its effect",
            "steal_program": "choose a network to steal a program from, or decline",
            "steal_star": "choose a network to steal a Star from, or decline",
            "give_program": f"{self.victim} chooses the program it gives up",
            "give_star": f"{self.victim} chooses the Star it gives up",
            "ratings_war": "Ratings War: networks set their line-ups",
        }[self.stage]
        return f"{self.network} on {label}: {what}"


@dataclass(frozen=True)
class TileEntry:
    """``network`` must enter the secret value of the tile it obtained: ``lot`` (``program`` with
    ``length`` and ``colour``, ``star``, ``critics_choice``, ``viewers_views``), for ``reason``/``rule``."""

    network: str
    lot: str
    length: int | None
    colour: str | None
    reason: str
    rule: str

    @property
    def program_lot(self) -> tuple[int, str]:
        """``(length, colour)`` of a ``program`` lot: the program was nominated by both (3.1)."""
        assert self.lot == "program" and self.length is not None and self.colour is not None, (
            f"a program entry without its length and colour: {self}"
        )
        return self.length, self.colour

    @property
    def status(self) -> str:
        """``"NBS enters its new 60-minute Drama's rating on its own panel"``."""
        if self.lot == "program":
            length, colour = self.program_lot
            what = f"new {MINUTES.get(length, '')} {TYPE_WORDS.get(colour, '')}'s rating"
        else:
            what = {
                "star": "new Star's value",
                "critics_choice": "Critics' Choice tile's value",
                "viewers_views": "Viewers' Views tile's value",
            }[self.lot]
        return f"{self.network} enters its {what} on its own panel (TV Wars 9.1)"


# -- deciding ---------------------------------------------------------------------------------------------


def _done(network: str, outcome: str, rule: str) -> TvWarsEvent:
    return LandingDone.from_payload({"network": network, "outcome": outcome, "rule": rule})


def _rule_of(void: IllegalCommand) -> str:
    """The rule a bonus supply refusal cites (:func:`check_bonus_supply` always names one: 5.12, 5.22, 5.32)."""
    assert void.rule is not None, f"a supply refusal without its rule: {void.reason}"
    return void.rule


def _landed(network: str, space: str, stage: str | None, lengths: tuple[int, ...] = ALL_LENGTHS) -> TvWarsEvent:
    return Landed.from_payload(
        {"network": network, "space": space, "stage": stage, "lengths": list(lengths), "rule": SPACES[space][1]}
    )


def land(state: TvWarsState, network: str, space: str, passed_on_the_air: bool = False) -> list[TvWarsEvent]:
    """The events of ``network`` landing on ``space`` (turn checks are the caller's). Raises
    :class:`MalformedCommand` for an unknown space."""
    if space not in SPACES:
        raise MalformedCommand(f"no space {space!r}; spaces are {', '.join(SPACES)}")
    if not isinstance(passed_on_the_air, bool):
        raise MalformedCommand(f"passed_on_the_air is true or false, not {passed_on_the_air!r}")
    events: list[TvWarsEvent] = []
    if passed_on_the_air:
        events.append(Movement(BANK, network, ON_THE_AIR_PAYMENT, "passed On the Air", "TV Wars 9.5").to_event())
    label, rule = SPACES[space]
    me = state.network(network)
    others = [n for n in state.networks if n.name != network and not n.out]
    supply = state.supply
    if space == "television_production_company" or (space == "movie_studio" and supply.movies_left == 0):
        lengths = ALL_LENGTHS if space == "television_production_company" else MOVIE_STUDIO_VOID_LENGTHS
        open_lengths = tuple(n for n in lengths if supply.programs_left(n) > 0)
        if supply.conventional_left == 0:
            events.append(_landed(network, space, None))
            events.extend(start_final_count(state, "no conventional programming is left to nominate", "TV Wars 3.11"))
            return events
        if not open_lengths:
            events += [
                _landed(network, space, None),
                _done(network, "no 90- or 120-minute programs are left to nominate", "TV Wars 3.22"),
            ]
            return events
        return events + [_landed(network, space, "nominate", open_lengths)]
    if space == "movie_studio":
        return events + [_landed(network, space, "movie_roll")]
    if space == "talent_agency":
        try:
            check_bonus_supply(supply, _holdings(state), STAR)
        except IllegalCommand as void:
            return events + [_landed(network, space, None), _done(network, void.reason, _rule_of(void))]
        return events + [_landed(network, space, "nominate_star")]
    if space == "emmy_awards":
        try:
            check_bonus_supply(supply, _holdings(state), EMMY)
        except IllegalCommand as void:
            return events + [_landed(network, space, None), _done(network, void.reason, _rule_of(void))]
        return events + [_landed(network, space, "emmy_roll")]
    if space in ("critics_choice", "viewers_views"):
        events.append(_landed(network, space, None))
        try:
            check_bonus_supply(supply, _holdings(state), space)
        except IllegalCommand as void:
            return events + start_final_count(state, void.reason, _rule_of(void))
        return events + [
            TileEntryOpened.from_payload(
                {
                    "network": network,
                    "lot": space,
                    "length": None,
                    "colour": None,
                    "reason": f"drawn on {label}",
                    "rule": rule,
                },
            ),
            _done(network, f"draws {with_article(label)} tile", rule),
        ]
    if space in ("ratings_war", "february_sweeps"):
        return events + [
            _landed(network, space, "ratings_war"),
            RatingsWarCalled.from_payload({"network": network, "february_sweeps": space == "february_sweeps"}),
        ]
    if space == "sponsor":
        half_hours = me.holdings.half_hours
        events.append(_landed(network, space, None))
        if half_hours == 0:
            return events + [_done(network, "owns no programming that earns Sponsor fees", rule)]
        return events + [
            Movement(
                BANK,
                network,
                SPONSOR_PER_HALF_HOUR * half_hours,
                f"Sponsor: {half_hours} half-hours × ${SPONSOR_PER_HALF_HOUR}",
                rule,
            ).to_event(),
            _done(network, "paid by Sponsor", rule),
        ]
    if space == "bulletin":
        return events + [_landed(network, space, "bulletin")]
    if space == "steal_a_program":
        if not any(n.holdings.programs for n in others):
            return events + [_landed(network, space, None), _done(network, "no other network has a program", rule)]
        return events + [_landed(network, space, "steal_program")]
    if space == "steal_a_star":
        if not any(n.holdings.count(STAR) for n in others):
            return events + [
                _landed(network, space, None),
                _done(network, "no other network has a Star to lose: no effect", rule),
            ]
        return events + [_landed(network, space, "steal_star")]
    if space == "best_network_news":
        events.append(_landed(network, space, None))
        if state.best_network_news != network:
            return events + [
                BestNetworkNewsPassed.from_payload({"network": network, "from": state.best_network_news}),
                _done(network, "takes the Best Network News Bonus tile", "TV Wars 6.3"),
            ]
        holder = next((n.name for n in state.networks if any(t.kind == PREEMPTION for t in n.holdings.programs)), None)
        if holder == network:
            return events + [
                Movement(
                    BANK,
                    network,
                    BEST_NETWORK_NEWS_BONUS_CASH,
                    "already holds Best Network News and Preemption",
                    "TV Wars 9.9",
                ).to_event(),
                _done(network, "earns $1,000", "TV Wars 9.9"),
            ]
        if holder is not None:
            events.append(
                ProgramMoved.from_payload(
                    {
                        "from": holder,
                        "to": network,
                        "tile_id": "PREEMPTION",
                        "reason": "taken by the Best Network News holder",
                        "rule": "TV Wars 9.9",
                    },
                )
            )
        else:
            events.append(
                program_acquired(
                    network,
                    ProgramTile.preemption(),
                    "Best Network News holder lands on Best Network News",
                    "TV Wars 9.9",
                ),
            )
        return events + [_done(network, "collects the Preemption tile", "TV Wars 9.9")]
    # on_the_air, technical_difficulties
    outcome = "stays on Technical Difficulties: no bidding" if space == "technical_difficulties" else "no effect"
    return events + [_landed(network, space, None), _done(network, outcome, rule)]


def _holdings(state: TvWarsState) -> dict:
    return {n.name: n.holdings for n in state.networks}


def _landing_for(state: TvWarsState, network: str, stages: tuple[str, ...], what: str) -> Landing:
    landing: Landing | None = state.landing
    state.network(network)
    if landing is None or landing.stage not in stages:
        raise IllegalCommand(f"nobody is being asked to {what} now", "TV Wars 3.1, 3.2, 5.1, 9.2, 9.3, 9.6")
    actor = landing.victim if landing.stage in ("give_program", "give_star") else landing.network
    if network != actor:
        raise IllegalCommand(f"it is {actor}'s choice, not {network}'s", SPACES[landing.space][1])
    return landing


def decide_nominate(state: TvWarsState, command: Nominate) -> list[TvWarsEvent]:
    """Open the auction of a nominated Program tile (3.1, 3.22) or Star (5.1), with the opening bid (4)."""
    landing = _landing_for(state, command.network, ("nominate", "nominate_star"), "nominate a tile")
    if landing.stage == "nominate_star":
        if command.length is not None or command.colour is not None:
            raise MalformedCommand("a Star is nominated unseen: no length or colour (TV Wars 5.1)")
        return [
            _done(command.network, "nominates a Star", "TV Wars 5.1"),
            *auctions.open_auction(
                state, "star", command.network, command.opening, reason="Talent Agency", rule="TV Wars 4, 5.1"
            ),
        ]
    if command.length not in landing.lengths or isinstance(command.length, bool):
        raise IllegalCommand(
            f"a {MINUTES[command.length] if command.length in MINUTES else repr(command.length)} program cannot be "
            "nominated here; "
            f"available lengths: {', '.join(MINUTES[n] for n in landing.lengths)}",
            "TV Wars 3.22" if landing.space == "movie_studio" else "TV Wars 3.11",
        )
    if command.colour not in TYPE_WORDS:
        raise MalformedCommand(f"a program's colour is one of {', '.join(TYPE_WORDS)}, not {command.colour!r}")
    return [
        _done(command.network, "nominates a program", "TV Wars 3.1"),
        *auctions.open_auction(
            state,
            "program",
            command.network,
            command.opening,
            length=command.length,
            colour=command.colour,
            reason=SPACES[landing.space][0],
            rule="TV Wars 4, 3.1",
        ),
    ]


def decide_decline(state: TvWarsState, command: Decline) -> list[TvWarsEvent]:
    """The moving network declines (3.11, 3.2, 5.1, 9.2, 9.3): play proceeds without effect."""
    landing = _landing_for(
        state, command.network, ("nominate", "nominate_star", "movie_offer", "steal_program", "steal_star"), "decline"
    )
    return [_done(command.network, "declines", SPACES[landing.space][1])]


def decide_buy_movie(state: TvWarsState, command: BuyMovie) -> list[TvWarsEvent]:
    """Buy an Academy Award Movie at the rolled price (3.2); refused above cash (7)."""
    landing = _landing_for(state, command.network, ("movie_offer",), "buy a movie")
    cash = state.network(command.network).cash
    if landing.price > cash:
        raise IllegalCommand(
            f"{command.network} has {format_dollars(cash)}, the movie costs "
            f"{format_dollars(landing.price)}: no loans, no bankruptcy to make a purchase",
            "TV Wars 3.2, 7",
        )
    tile = ProgramTile.movie(next_tile_id(state.supply, "movie"), command.name or "", command.colour)
    check_program_supply(state.supply, _holdings(state), tile)
    return [
        Movement(command.network, BANK, landing.price, "Academy Award Movie", "TV Wars 3.2").to_event(),
        program_acquired(command.network, tile, "bought at the Movie Studio", "TV Wars 3.2"),
        _done(command.network, "buys an Academy Award Movie", "TV Wars 3.2"),
    ]


def landing_dice(state: TvWarsState, values: tuple[int, ...]) -> list[TvWarsEvent]:
    """The consequences of the mover's roll on a Movie Studio (price = $1,000 × roll, 3.2) or Emmy Awards
    (doubles win an Emmy, 5.2)."""
    landing: Landing = state.landing
    if landing.stage == "movie_roll":
        price = MOVIE_PRICE_PER_PIP * sum(values)
        return [LandingStage.from_payload({"stage": "movie_offer", "price": price, "victim": None})]
    if values[0] == values[1]:
        tile = BonusTile(next_tile_id(state.supply, EMMY), EMMY, EMMY_VALUE)
        return [
            bonus_acquired(landing.network, tile, "rolled doubles", "TV Wars 5.2"),
            _done(landing.network, "wins an Emmy Award", "TV Wars 5.2"),
        ]
    return [_done(landing.network, "no doubles: no Emmy", "TV Wars 5.2")]


def decide_tile_entry(state: TvWarsState, command: EnterTileValue) -> list[TvWarsEvent]:
    """The tile the entering network obtained, with its secret value (9.1); refused for a value the tile
    cannot have (3, 5.1, 5.3)."""
    entry: TileEntry | None = state.entry
    if entry is None:
        raise IllegalCommand("no tile is waiting for its value", "TV Wars 9.1")
    if command.network != entry.network:
        raise IllegalCommand(f"{entry.network} enters this tile's value, not {command.network}", "TV Wars 9.1")
    if entry.lot == "program":
        length, colour = entry.program_lot
        spec = ProgramSpec(length, colour, command.value, command.special, command.name or "")
        program = spec.tile(next_tile_id(state.supply, "program"))
        check_program_supply(state.supply, _holdings(state), program)
        return [program_acquired(entry.network, program, entry.reason, entry.rule)]
    if command.special:
        raise MalformedCommand("only a program can be a Special (TV Wars 3.3)")
    if command.value is None:
        raise MalformedCommand("a bonus is whole Rating Points, not None")
    bonus = BonusTile(next_tile_id(state.supply, entry.lot), entry.lot, command.value, command.name or "")
    check_bonus_supply(state.supply, _holdings(state), entry.lot)
    return [bonus_acquired(entry.network, bonus, entry.reason, entry.rule)]


def decide_steal(state: TvWarsState, command: Steal) -> list[TvWarsEvent]:
    """Demand a tile from ``victim`` (9.2, 9.3); refused for oneself, an out network or one with nothing
    to lose."""
    landing = _landing_for(state, command.network, ("steal_program", "steal_star"), "steal")
    victim = state.network(command.victim)
    if victim.name == command.network or victim.out:
        raise IllegalCommand(
            f"{command.network} steals from another network still in the game, not {victim.name}",
            SPACES[landing.space][1],
        )
    if landing.stage == "steal_program" and not victim.holdings.programs:
        raise IllegalCommand(f"{victim.name} has no Program tile to lose", "TV Wars 9.2")
    if landing.stage == "steal_star" and not victim.holdings.count(STAR):
        raise IllegalCommand(f"{victim.name} has no Star to lose", "TV Wars 9.3")
    stage = "give_program" if landing.stage == "steal_program" else "give_star"
    return [LandingStage.from_payload({"stage": stage, "price": 0, "victim": victim.name})]


def decide_give_up(state: TvWarsState, command: GiveUp) -> list[TvWarsEvent]:
    """The loser hands over the tile of its choice (9.2, 9.3); losing its last program puts it out (3)."""
    landing = _landing_for(state, command.network, ("give_program", "give_star"), "give up a tile")
    victim = state.network(landing.victim)
    if landing.stage == "give_program":
        victim.holdings.program(command.tile_id)
        events = [
            ProgramMoved.from_payload(
                {
                    "from": victim.name,
                    "to": landing.network,
                    "tile_id": command.tile_id,
                    "reason": "stolen",
                    "rule": "TV Wars 9.2",
                },
            ),
            _done(landing.network, f"steals a program from {victim.name}", "TV Wars 9.2"),
        ]
        if len(victim.holdings.programs) == 1:  # out (3); its Bonus tiles go back first (5.11, 5.22)
            events.extend(out_events(victim.name, victim.holdings, set(), "lost its last program", "TV Wars 3"))
        return events
    tile = victim.holdings.bonus(command.tile_id)
    if tile.kind != STAR:
        raise IllegalCommand(f"{command.tile_id} is not a Star", "TV Wars 9.3")

    return [
        BonusMoved.from_payload(
            {"from": victim.name, "to": landing.network, "tile_id": tile.id, "reason": "stolen", "rule": "TV Wars 9.3"},
        ),
        _done(landing.network, f"steals a Star from {victim.name}", "TV Wars 9.3"),
    ]


def _check_amount(amount: Any) -> int:
    if not is_whole(amount) or amount <= 0:
        raise MalformedCommand(f"an amount is a whole number of dollars above $0, not {amount!r}")
    return amount


def decide_bulletin(state: TvWarsState, command: Bulletin) -> list[TvWarsEvent]:
    """Apply a Bulletin card's generic effect (9.6). Debts the network cannot pay lead to bankruptcy (7)."""
    _landing_for(state, command.network, ("bulletin",), "apply a Bulletin card")
    me, effect, rule = command.network, command.effect, "TV Wars 9.6"
    others = [n.name for n in state.networks if n.name != me and not n.out]
    if not isinstance(effect, str) or effect not in BULLETIN_EFFECTS:  # checked first: a number has no .replace
        raise MalformedCommand(f"a Bulletin effect is one of {', '.join(BULLETIN_EFFECTS)}, not {effect!r}")
    done = _done(me, f"Bulletin: {effect.replace('_', ' ')}", rule)
    if effect == "pay":
        return [done, *incur_debt(state, me, BANK, _check_amount(command.amount), "Bulletin card", "TV Wars 9.6, 7")]
    if effect == "collect":
        return [Movement(BANK, me, _check_amount(command.amount), "Bulletin card", rule).to_event(), done]
    if effect == "pay_each":
        amount, events, scratch = _check_amount(command.amount), [done], state
        for other in others:
            step = incur_debt(scratch, me, other, amount, "Bulletin card", "TV Wars 9.6, 7")
            events += step
            scratch = _fold(scratch, step)
        return events
    if effect == "collect_each":
        amount, events = _check_amount(command.amount), [done]
        for other in others:
            events += incur_debt(state, other, me, amount, "Bulletin card", "TV Wars 9.6, 7")
        return events
    if effect == "move":
        if command.space not in SPACES:
            raise MalformedCommand(f"no space {command.space!r}; spaces are {', '.join(SPACES)}")
        return [done, *land(state, me, command.space, command.passed_on_the_air)]
    if effect == "super_bowl":
        tile = ProgramTile.super_bowl()
        check_program_supply(state.supply, _holdings(state), tile)
        return [program_acquired(me, tile, "Bulletin card", "TV Wars 9.8, 9.6"), done]
    if effect in ("auction_program", "auction_star"):
        opening = auctions.OPENING_BID if command.amount == 0 else command.amount
        if effect == "auction_star":
            check_bonus_supply(state.supply, _holdings(state), STAR)
            return [
                done,
                *auctions.open_auction(state, "star", me, opening, reason="Bulletin card", rule="TV Wars 4, 9.6"),
            ]
        if command.colour not in TYPE_WORDS:
            raise MalformedCommand(f"a program's colour is one of {', '.join(TYPE_WORDS)}, not {command.colour!r}")
        check_program_supply(
            state.supply,
            _holdings(state),
            ProgramTile("P0", command.length if command.length in ALL_LENGTHS else 0, command.colour, 10),
        )
        return [
            done,
            *auctions.open_auction(
                state,
                "program",
                me,
                opening,
                length=command.length,
                colour=command.colour,
                reason="Bulletin card",
                rule="TV Wars 4, 9.6",
            ),
        ]
    return [done]


def _fold(state: TvWarsState, events: list[TvWarsEvent]) -> TvWarsState:
    from companion.games.tv_wars import TV_WARS

    for event in events:
        state = TV_WARS.evolve(state, event)
    return state


def after_auction(state: TvWarsState, closed: AuctionClosed, auction) -> list[TvWarsEvent]:
    """What follows an auction's close: the winner pays the bank (4) and then receives the Super Bowl
    (9.8) or enters the new tile's secret value (9.1)."""
    winner = closed.winner
    if winner is None:
        return []
    events: list[TvWarsEvent] = [
        Movement(winner, BANK, closed.amount, f"won the {auction.lot_text} at auction", auction.rule).to_event()
    ]
    if closed.lot == "super_bowl":
        events.append(program_acquired(winner, ProgramTile.super_bowl(), "won at auction", "TV Wars 9.8, 4"))
    else:
        events.append(TileEntryOpened(winner, closed.lot, closed.length, closed.colour, "won at auction", auction.rule))
    return events


# -- folding ---------------------------------------------------------------------------------------------


def evolve_landing(landing: Landing | None, event: Landed | LandingStage | LandingDone) -> Landing | None:
    """The landing sub-state after a ``landed``/``landing_stage``/``landing_done`` event."""
    if isinstance(event, Landed):
        if event.stage is None:
            return None
        return Landing(event.network, event.space, event.stage, lengths=tuple(event.lengths))
    if isinstance(event, LandingStage):
        assert landing is not None, "a landing stage with no landing"
        return replace(landing, stage=event.stage, price=event.price, victim=event.victim)
    return None


def describe_space_event(event: SpaceEvent) -> str:
    """One public line per space event."""
    if isinstance(event, Landed):
        return f"{event.network} lands on {SPACES[event.space][0]} ({event.rule})"
    if isinstance(event, LandingStage):
        if event.stage == "movie_offer":
            return f"The Academy Award Movie costs {format_dollars(event.price)} (TV Wars 3.2)"
        return f"{event.victim} must choose what to give up (TV Wars 9.2, 9.3)"
    if isinstance(event, LandingDone):
        return f"{event.network}: {event.outcome} ({event.rule})"
    if isinstance(event, TileEntryOpened):
        return f"{event.network} looks at its new tile privately (TV Wars 9.1)"
    if isinstance(event, BestNetworkNewsPassed):
        return f"{event.network} takes Best Network News from {event.from_} (TV Wars 6.3)"
    if isinstance(event, RatingsWarCalled):
        sweeps = "February Sweeps " if event.february_sweeps else ""
        return f"{event.network} calls a {sweeps}Ratings War: every network sets its line-up (TV Wars 6)"
    if isinstance(event, TurnPassed):
        return f"{event.network}'s turn"
    raise ValueError(f"not a space event: {event!r}")


__all__ = [
    "LandOn",
    "Nominate",
    "Decline",
    "BuyMovie",
    "EnterTileValue",
    "Steal",
    "GiveUp",
    "Bulletin",
    "Landing",
    "TileEntry",
    "SPACES",
    "BULLETIN_EFFECTS",
    "SPACE_EVENT_CLASSES",
    "land",
    "after_auction",
]
