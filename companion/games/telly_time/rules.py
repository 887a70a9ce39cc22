"""The rules engine of The Networks with the Telly Time module (:data:`TELLY_TIME`, a
:class:`companion.game.Game`): ``decide`` turns a command into typed events (:mod:`.events`) or refuses it
citing the rule; ``evolve`` folds one event into the state (:mod:`.state`); ``legal_commands`` says what a
seat may do now and why not; ``outcome`` says how the game came out. The scope is in the package's
docstring; the rulings in ``docs/rulings-telly-time.md``.

Decide and evolve dispatch the same way: a table from the command's (or event's) class to its handler.
A command's preconditions are guards that raise the refusal; ``legal_commands`` runs the same guards, so a
button is disabled with exactly the reason a press would be refused with.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, TypeVar

from companion.checks import is_whole
from companion.commands import (
    BANK,
    AdjustTrack,
    AnswerDice,
    Command,
    EndGame,
    PlayerSeat,
    RollDice,
    TransferMoney,
    end_reason,
    end_words,
)
from companion.dice import DiceRequest
from companion.errors import (
    TABLE_RULE as REFUSAL_TABLE_RULE,
)
from companion.errors import (
    BadOption,
    CommandError,
    GameFinished,
    IllegalCommand,
    InsufficientFunds,
    MalformedCommand,
)
from companion.events import Event
from companion.game import LegalCommand, Outcome, PrivateView, Termination
from companion.games import TableView
from companion.games.telly_time import view as _view
from companion.games.telly_time.commands import (
    AdjustCash,
    AdjustViewers,
    ChangeShowGenre,
    ChooseMogulLine,
    ChoosePilotShow,
    EnterTile,
    KeepPilotCards,
    MoveShow,
    Pass,
    PlaceGridMarker,
    ProduceShow,
    ScoreEndGame,
    ScoreLineup,
    SetGridSquare,
    SetLineBonus,
    ShowScore,
    StartSeason,
    TakeAction,
    Writeoff,
)
from companion.games.telly_time.events import (
    CODEC,
    CashChanged,
    EndGameScored,
    EndScoringStarted,
    GameEnded,
    GameOver,
    GridMarkerPlaced,
    GridSquareSet,
    LineBonusSet,
    LineCompleted,
    LineupScored,
    MogulChoicePending,
    Passed,
    PilotCardsKept,
    PilotShowChosen,
    ScoringStarted,
    SeasonStarted,
    ShowGenreChanged,
    ShowMoved,
    ShowProduced,
    ShowTotal,
    TellyTimeEvent,
    TurnEnded,
    ViewersChanged,
    WriteoffCounted,
)
from companion.games.telly_time.grid import (
    CENTRE,
    LINE_NAMES,
    RULE_GRID,
    RULE_MOGUL,
    RULE_PILOT,
    RULE_SQUARES,
    SQUARES,
    GenreGrid,
    LineBonus,
    canonical_genre,
    check_square,
    check_square_genre,
    check_tile,
    check_whole,
    grid_from_tile,
    line_index,
    needs_mogul_choice,
    order_lines,
    square_list,
    square_name,
)
from companion.games.telly_time.info import INFO
from companion.games.telly_time.state import (
    ANY,
    CASH_PER_EMPTY_SQUARE_M,
    CHAT,
    END_SCORING,
    GENRES_ROW,
    KIDS,
    NO_KIDS_SLOTS,
    OVER,
    PILOT,
    QUIZ,
    QUIZ_MAX_VIEWERS,
    QUIZ_PRICE_M,
    RULE_BASE,
    RULE_CLARIFY,
    RULE_END,
    RULE_GENRES,
    RULE_WILD,
    RULINGS,
    SCORING,
    SEASON,
    SEASONS,
    STARTER_SHOW,
    TABLE_RULE,
    TIMESLOT_NAMES,
    TIMESLOTS,
    VIEWERS_PER_FILLED_SQUARE,
    MogulChoice,
    Network,
    PassChoice,
    PilotCard,
    Show,
    TellyTimeState,
    check_timeslot,
    money,
)
from companion.words import and_join, count, noun

__all__ = ["TELLY_TIME", "TellyTime", "show_breakdown", "variety_channel_viewers", "writeoff_shows"]

#: "Telly Time Clarifications", Writeoff.
RULE_WRITEOFF = f"{RULE_CLARIFY}, Writeoff"

#: One million dollars: Telly Time keeps cash in whole $M, the shared ``TransferMoney`` counts dollars.
DOLLARS_PER_M = 1_000_000


def _text(value: Any, what: str, limit: int = 60, required: bool = True) -> str:
    if not isinstance(value, str) or len(value.strip()) > limit or (required and not value.strip()):
        need = f"1 to {limit}" if required else f"at most {limit}"
        raise MalformedCommand(f"{what} must be text of {need} characters, not {value!r}")
    return value.strip()


def show_breakdown(show: Show, score: ShowScore, others_stars: Sequence[int]) -> tuple[int, list[tuple[str, int]]]:
    """One show's viewers this season as ``(total, parts)``; ``parts`` are ``(label, viewers)`` pairs.

    Base: the show's own viewers and its stars' current viewer values. Chat (printed genre): + the
    current viewer values of all stars on the *other* shows (``others_stars``, "New Genres & Show
    Effects", Chat). Quiz: + the bonus viewers bought. Minus any timeslot penalty.
    """
    parts: list[tuple[str, int]] = [("show", score.viewers)]
    if score.stars:
        label = f"stars on it ({'+'.join(map(str, score.stars))})" if len(score.stars) > 1 else "star on it"
        parts.append((label, sum(score.stars)))
    if show.printed_genre == CHAT and others_stars:
        parts.append((f"Chat: stars on other shows ({'+'.join(map(str, others_stars))})", sum(others_stars)))
    if score.quiz_bought:
        parts.append((f"Quiz: bought at {money(QUIZ_PRICE_M)} each", score.quiz_bought))
    if score.penalty:
        parts.append(("timeslot penalty", -score.penalty))
    return sum(value for _, value in parts), parts


def variety_channel_viewers(genres: Sequence[str]) -> tuple[int, list[str]]:
    """Variety Channel with Telly Time ("Telly Time Clarifications"): 2 viewers for each genre that
    appears on at least 2 of ``genres`` (the shows in the lineup and/or reruns, Kids/Quiz/Chat included).
    Returns ``(viewers, the genres that counted)``."""
    counts = Counter(g for g in genres if g)
    counted = sorted(g for g, n in counts.items() if n >= 2)
    return 2 * len(counted), counted


def _cash(player: str, amount_m: int, reason: str, rule: str) -> CashChanged:
    return CashChanged(player, amount_m, reason, rule)


def _checked_lineup(network: Network, scores: Any) -> dict[str, Show]:
    """``network``'s shows by timeslot, once ``scores`` is checked to be one well-formed :class:`ShowScore`
    per show (Quiz purchases only for a Quiz show, "New Genres & Show Effects"; no timeslot penalty in a
    preferred timeslot or for an ANY show, "Wild Timeslots"). Raises the refusal otherwise."""
    if (
        isinstance(scores, str | bytes)
        or not isinstance(scores, tuple | list)
        or not all(isinstance(s, ShowScore) for s in scores)
    ):
        raise MalformedCommand("a lineup score lists one ShowScore per show")
    occupied = [slot for slot in TIMESLOTS if network.show_in(slot) is not None]
    given = [check_timeslot(s.timeslot) for s in scores]
    if sorted(given, key=TIMESLOTS.index) != occupied:
        raise MalformedCommand(
            f"score each show once: {network.name} has shows in {', '.join(TIMESLOT_NAMES[s] for s in occupied)}"
        )
    lineup: dict[str, Show] = {slot: show for slot in TIMESLOTS if (show := network.show_in(slot)) is not None}
    for score in scores:
        _check_show_score(lineup[score.timeslot], score)
    return lineup


def _check_show_score(show: Show, score: ShowScore) -> None:
    """Check one show's count (``score``, for ``show`` in ``score.timeslot``): whole viewers and stars ≥ 0,
    Quiz purchases 0-5 and only for a show printed Quiz ("New Genres & Show Effects"), and no timeslot
    penalty in a preferred timeslot or for an ANY show ("Wild Timeslots"). Raises the refusal otherwise."""
    check_whole(score.viewers, f"{show.name}'s viewers")
    if isinstance(score.stars, str | bytes) or not isinstance(score.stars, tuple | list):
        raise MalformedCommand(f"{show.name}'s stars are a list of viewer values")
    for star in score.stars:
        check_whole(star, f"a star's viewers on {show.name}")
    check_whole(score.penalty, f"{show.name}'s timeslot penalty")
    check_whole(score.quiz_bought, f"{show.name}'s bought viewers")
    if score.quiz_bought > QUIZ_MAX_VIEWERS:  # the rule's limit: cited as the rule, not as a malformed number
        raise IllegalCommand(
            f"{show.name}'s bought viewers must be at most {QUIZ_MAX_VIEWERS}, not {score.quiz_bought}",
            f"{RULE_GENRES}, Quiz",
        )
    if score.quiz_bought and show.printed_genre != QUIZ:
        raise IllegalCommand(
            f"only a Quiz show buys bonus viewers; {show.name} is {show.printed_genre or 'a starter show'}",
            f"{RULE_GENRES}, Quiz",
        )
    if score.penalty and show.in_preferred(score.timeslot):
        why = (
            "it says ANY: it ignores any timeslot penalty"
            if ANY in show.preferred
            else f"{TIMESLOT_NAMES[score.timeslot]} is one of its preferred timeslots"
        )
        raise IllegalCommand(f"{show.name} takes no timeslot penalty: {why}", RULE_WILD)


def _lineup_parts(
    network: Network, lineup: Mapping[str, Show], scores: Sequence[ShowScore], reruns: list[str] | None
) -> tuple[list[ShowTotal], list[tuple[str, int]]]:
    """Each show's total (Chat counting the stars on the *other* shows) and the lineup's parts: the shows,
    +1 viewer per filled grid square ("Empty & Filled Squares"), the pass track's viewers (doubled by
    Preempted Timeslot) and, when ``reruns`` is given (Variety Channel), 2 viewers per genre on at least
    two of the shows and reruns ("Telly Time Clarifications")."""
    shows: list[ShowTotal] = []
    parts: list[tuple[str, int]] = []
    for score in sorted(scores, key=lambda s: TIMESLOTS.index(s.timeslot)):
        show = lineup[score.timeslot]
        others_stars = [v for s in scores if s is not score for v in s.stars]
        total, show_parts = show_breakdown(show, score, others_stars)
        shows.append(ShowTotal(score.timeslot, show.name, show.genre, total, tuple(show_parts)))
        parts.append((show.name, total))
    grid = _require_grid(network)
    if grid.filled_count:
        label = f"genre grid ({count(grid.filled_count, 'filled square')})"
        parts.append((label, VIEWERS_PER_FILLED_SQUARE * grid.filled_count))
    passed = network.passed
    if passed is not None and passed.reward == "viewers" and passed.amount:
        label = "pass track" + (f" {passed.amount} × 2 Preempted Timeslot" if passed.preempted else "")
        parts.append((label, passed.value))
    if reruns is not None:
        variety, counted = variety_channel_viewers([lineup[s.timeslot].genre for s in scores] + reruns)
        parts.append((f"Variety Channel ({', '.join(counted) or 'no genre twice'})", variety))
    return shows, parts


# -- guards: a command's preconditions, raising the refusal (decide) or giving the reason (legal_commands) ------
_PHASE_WHEN = {
    PILOT: "during the Pilot Season",
    SEASON: "during a season's turns",
    SCORING: "when the season is scored",
    END_SCORING: "at the end of the game",
}


def _phase_words(state: TellyTimeState) -> str:
    return {
        PILOT: "Pilot Season",
        SEASON: f"season {state.season}, {state.current}'s turn",
        SCORING: f"scoring season {state.season}",
        END_SCORING: "end-game scoring",
        OVER: "game over",
    }[state.phase]


def _require_phase(state: TellyTimeState, phase: str, doing: str) -> None:
    if state.phase != phase:
        rule = RULE_PILOT if phase == PILOT else RULE_END if phase == END_SCORING else RULE_BASE
        raise IllegalCommand(f"{doing} only {_PHASE_WHEN[phase]}; now: {_phase_words(state)}", rule)


def _require_open(state: TellyTimeState) -> None:
    if state.phase == OVER:
        raise GameFinished("the game is over; undo to reopen it", REFUSAL_TABLE_RULE)


def _require_turn(state: TellyTimeState, player: str, doing: str) -> Network:
    network = state.network(player)
    _require_phase(state, SEASON, doing)
    if network.passed is not None:
        raise IllegalCommand(f"{player} has passed this season", RULE_BASE)
    if state.current != player:
        raise IllegalCommand(f"it is {state.current}'s turn, not {player}'s", RULE_BASE)
    return network


def _require_grid(network: Network) -> GenreGrid:
    if network.grid is None:
        raise IllegalCommand(
            f"{network.name} has no genre grid tile yet: choose the Pilot Season show first", RULE_PILOT
        )
    return network.grid


def _require_no_tile(state: TellyTimeState, network: Network) -> None:
    _require_phase(state, PILOT, "the Pilot Season show is placed")
    if network.grid is not None:
        raise IllegalCommand(
            f"{network.name} already has the {network.grid.squares[CENTRE]} tile; undo to change it", RULE_PILOT
        )


def _require_cards_to_keep(state: TellyTimeState, network: Network) -> None:
    _require_phase(state, PILOT, "Pilot Season stars and ads are kept")
    if network.pilot_cards:
        raise IllegalCommand(f"{network.name} has already kept 2 stars/ads; undo to change them", RULE_PILOT)


def _require_ready_to_start(state: TellyTimeState) -> None:
    _require_phase(state, PILOT, "season 1 starts")
    for network in state.networks:
        if network.grid is None:
            raise IllegalCommand(f"{network.name} has not placed a Pilot Season show", RULE_PILOT)
        if not network.grid.entered:
            missing = [i for i, g in enumerate(network.grid.squares) if g is None]
            where = "all 8 squares around the centre" if len(missing) == SQUARES - 1 else square_list(missing)
            raise IllegalCommand(
                f"{network.name}'s tile: enter the {noun(len(missing), 'genre')} of {where}", RULE_GRID
            )
        if not network.pilot_cards:
            raise IllegalCommand(f"{network.name} has not kept 2 stars/ads", RULE_PILOT)


def _require_empty_square(state: TellyTimeState, network: Network) -> None:
    _require_open(state)
    grid = _require_grid(network)
    if not any(genre and not filled for genre, filled in zip(grid.squares, grid.filled)):
        raise IllegalCommand(f"{network.name}'s grid has no empty square with a genre entered", RULE_GRID)


def _require_lineup_to_score(state: TellyTimeState, network: Network) -> None:
    _require_phase(state, SCORING, "lineups are scored")
    if network.scored:
        raise IllegalCommand(f"{network.name}'s lineup is already scored this season", RULE_BASE)


def _require_end_bonuses_to_score(state: TellyTimeState, network: Network) -> None:
    _require_phase(state, END_SCORING, "end-game bonuses are scored")
    if network.end_scored:
        raise IllegalCommand(f"{network.name}'s end-game bonuses are already scored", RULE_END)


def _pending_refusal(pending: MogulChoice) -> IllegalCommand:
    names = ", ".join(LINE_NAMES[line] for line in pending.lines)
    return IllegalCommand(f"{pending.player} first chooses which line gives the mogul bonus: {names}", RULE_MOGUL)


def _offer(kind: type, label: str, guard: Callable[[], object], command: Command | None = None) -> LegalCommand:
    """A :class:`LegalCommand` for ``kind``: enabled unless ``guard`` raises, else disabled with the refusal's
    reason and rule."""
    try:
        guard()
    except IllegalCommand as error:
        return LegalCommand(kind.__name__, label, command, False, error.reason, error.rule or "")
    except CommandError as error:
        return LegalCommand(kind.__name__, label, command, False, str(error), "")
    return LegalCommand(kind.__name__, label, command)


#: What a button for each command says (the board's labels; ``legal_commands`` gives them).
LABELS: dict[type, str] = {
    ChooseMogulLine: "Mogul line?",
    ChoosePilotShow: "Pilot show",
    KeepPilotCards: "Keep 2 cards",
    SetLineBonus: "Line bonus",
    StartSeason: "Start season 1",
    ProduceShow: "Produce show",
    TakeAction: "Other action",
    Pass: "Pass",
    PlaceGridMarker: "Card: marker",
    ScoreLineup: "Score lineup",
    ScoreEndGame: "End bonuses",
    AdjustCash: "Cash ±",
    AdjustViewers: "Viewers ±",
    SetGridSquare: "Genre of a square",
    EnterTile: "Enter tile",
    Writeoff: "Writeoff",
}


def writeoff_shows(network: Network) -> list[tuple[str, Show]]:
    """``(timeslot, show)`` of ``network``'s shows printed Chat or Quiz, in timeslot order: the shows whose
    viewers "Telly Time Clarifications", Writeoff, counts its own way (ruling 25; a show turned Chat by
    Versatile Actor is not one, ruling 13)."""
    shows = ((slot, network.show_in(slot)) for slot in TIMESLOTS)
    return [(slot, show) for slot, show in shows if show is not None and show.printed_genre in (CHAT, QUIZ)]


S = TypeVar("S", bound=TellyTimeEvent)
#: evolve's table: event class -> the function folding it into the state.
_FOLDS: dict[type, Callable[[TellyTimeState, Any], TellyTimeState]] = {}


def _folds(cls: type[S]) -> Callable[[Callable[[TellyTimeState, S], TellyTimeState]], Any]:
    def register(fold: Callable[[TellyTimeState, S], TellyTimeState]) -> Any:
        _FOLDS[cls] = fold
        return fold

    return register


class TellyTime:
    """The rules of The Networks with the Telly Time module (the :class:`companion.game.Game` contract),
    registered as ``"telly-time"``; its static facts are :data:`~companion.games.telly_time.info.INFO`."""

    info = INFO
    events = CODEC
    #: Events after which the journal is backed up (a season's end, the game's end).
    safe_point_events = frozenset({SeasonStarted.TYPE, EndScoringStarted.TYPE, GameOver.TYPE, GameEnded.TYPE})
    state_version = 0

    # -- set-up ----------------------------------------------------------------------------------------
    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Return the options with defaults filled in; raises :class:`BadOption` for an unknown option or
        a wrong value. The options, their kinds, defaults and rules are ``INFO.options``
        (:mod:`~companion.games.telly_time.info`); on top of the kind and choices: ``starting_cash_m`` is
        ≥ 0, ``genres`` are nine distinct names including Kids, Quiz and Chat, and every entry of ``tiles``
        is a tile as printed (centre genre → ``{"squares": [9], "bonuses": {line: {label, cash_m,
        viewers}}}``, "Your Genre Grid")."""
        if not isinstance(options, Mapping):
            raise BadOption("options", "must be a table of option names and values")
        specs = {spec.name: spec for spec in self.info.options}
        for option in options:
            if option not in specs:
                raise BadOption(option, f"Telly Time has no such option; known: {', '.join(specs)}")
        checked: dict[str, Any] = {}
        for name, spec in specs.items():
            value = options.get(name, spec.default)
            if isinstance(spec.default, list | dict) and name not in options:
                value = type(spec.default)(spec.default)  # a fresh copy of a mutable default
            if value is not None or spec.default is not None:
                kinds = (list, tuple) if spec.kind is list else (spec.kind,)
                if not isinstance(value, kinds) or (spec.kind is int and not is_whole(value)):
                    what = {bool: "true or false", int: "a whole number", str: "text", list: "a list"}.get(
                        spec.kind, "a table"
                    )
                    raise BadOption(name, f"must be {what}, not {value!r}")
                if spec.choices and value not in spec.choices:
                    raise BadOption(name, f"must be {' or '.join(map(repr, spec.choices))}, not {value!r}")
            checked[name] = value
        if checked["starting_cash_m"] < 0:
            raise BadOption("starting_cash_m", f"must be whole $M ≥ 0, not {checked['starting_cash_m']!r}")
        genres = checked["genres"]
        if (
            len(genres) != SQUARES
            or not all(isinstance(g, str) and g.strip() for g in genres)
            or len({g.strip().casefold() for g in genres}) != SQUARES
        ):
            raise BadOption("genres", f"must be 9 distinct genre names (one per grid square), not {genres!r}")
        genres = [g.strip() for g in genres]
        folded = {g.casefold() for g in genres}
        if not all(g.casefold() in folded for g in (KIDS, QUIZ, CHAT)):
            raise BadOption("genres", f"must include Kids, Quiz and Chat ({RULE_GENRES})")
        checked["genres"] = genres
        try:
            checked["tiles"] = {
                canonical_genre(c, genres): check_tile(canonical_genre(c, genres), t, genres)
                for c, t in checked["tiles"].items()
            }
        except MalformedCommand as error:
            raise BadOption("tiles", str(error)) from None
        return checked

    def new_game(self, players: Sequence[PlayerSeat], options: Mapping[str, Any]) -> TellyTimeState:
        """The Pilot Season: every network with ``starting_cash_m`` and 0 viewers, no tile yet.

        Raises :class:`IllegalCommand` for fewer than 1 or more than 5 players (the module's components:
        3 cubes for each of 5 colours, "Components"), :class:`MalformedCommand` for empty or repeated
        names, :class:`BadOption` for bad options or a ``first_player`` who is not playing.
        """
        options = self.check_options(options)
        names = [seat.name for seat in players]
        if not self.info.min_players <= len(names) <= self.info.max_players:
            raise IllegalCommand(
                f"The Networks is for 1 to 5 players, not {len(names)}", "Telly Time: Components (cubes for 5 players)"
            )
        if any(not isinstance(n, str) or not n.strip() or n == BANK for n in names) or len(set(names)) != len(names):
            raise MalformedCommand(f"player names must be distinct and not empty or 'bank': {names}")
        if options["first_player"] is not None and options["first_player"] not in names:
            raise BadOption(
                "first_player", f"{options['first_player']!r} is not playing; players are {', '.join(names)}"
            )
        networks = tuple(Network(seat.name, seat.colour, options["starting_cash_m"]) for seat in players)
        return TellyTimeState(networks, options)

    # -- decide ----------------------------------------------------------------------------------------
    def decide(self, state: TellyTimeState, command: Command) -> list[TellyTimeEvent]:
        """Return the events ``command`` causes, or raise a ``CommandError`` citing the rule; ``state``
        is never changed. See the command classes in :mod:`companion.games.telly_time.commands`; the
        shared ``EndGame`` and ``TransferMoney`` (whole $M only) are accepted too."""
        if state.finished:
            raise GameFinished(f"the game is over ({state.end_reason}); undo to reopen it", REFUSAL_TABLE_RULE)
        if isinstance(command, EndGame):
            return [GameEnded(end_reason(command))]
        if state.pending is not None:
            if isinstance(command, ChooseMogulLine):
                return self._choose_mogul_line(state, command)
            raise _pending_refusal(state.pending)
        if isinstance(command, ChooseMogulLine):  # a command of this game, only not now
            raise IllegalCommand("nobody is choosing which line gives the mogul bonus now", RULE_MOGUL)
        handler = self._HANDLERS.get(type(command))
        if handler is None:
            if isinstance(command, AnswerDice | RollDice):
                raise IllegalCommand("no dice are asked for: The Networks uses no dice", RULE_BASE)
            if isinstance(command, AdjustTrack):
                raise MalformedCommand("use AdjustCash ($M) or AdjustViewers in Telly Time, not AdjustTrack")
            raise MalformedCommand(f"Telly Time has no command {type(command).__name__}")
        return handler(self, state, command)

    def _check_pay(self, state: TellyTimeState, network: Network, cost_m: int, what: str) -> None:
        if cost_m > network.cash_m and not state.options["allow_negative_cash"]:
            raise InsufficientFunds(
                f"{network.name} has {money(network.cash_m)}, cannot pay {money(cost_m)} for {what}", RULE_BASE
            )

    @staticmethod
    def _genre(state: TellyTimeState, genre: Any) -> str:
        return canonical_genre(genre, state.genres)

    # pilot season
    def _choose_pilot(self, state: TellyTimeState, command: ChoosePilotShow) -> list[TellyTimeEvent]:
        network = state.network(command.player)
        _require_phase(state, PILOT, "the Pilot Season show is placed")
        genre = self._genre(state, command.genre)
        timeslot = check_timeslot(command.timeslot)
        name = _text(command.name, "a show's name", required=False) or f"{genre} pilot"
        preferred = self._check_preferred(command.preferred) if command.preferred != () else ()
        if preferred and not Show(name, genre, genre, preferred).in_preferred(timeslot):
            raise IllegalCommand(
                f"place the Pilot Season show in its preferred timeslot: "
                f"{' or '.join(TIMESLOT_NAMES[s] for s in preferred)}, not {TIMESLOT_NAMES[timeslot]}",
                RULE_PILOT,
            )
        if preferred == (timeslot,):
            preferred = ()  # one preferred timeslot, the one it is placed in: written as every earlier game did
        _require_no_tile(state, network)
        taken = [n.name for n in state.networks if n.grid is not None and n.grid.squares[CENTRE] == genre]
        if taken:
            raise IllegalCommand(
                f"{taken[0]} already has the tile with {genre} in the centre (one tile per genre)", RULE_PILOT
            )
        self._check_kids(genre, timeslot, "a Kids show")
        tile = state.options["tiles"].get(genre)
        grid = grid_from_tile(genre, tile)
        return [PilotShowChosen(network.name, genre, name, timeslot, grid.layout(), tile is not None, preferred)]

    def _set_square(self, state: TellyTimeState, command: SetGridSquare) -> list[TellyTimeEvent]:
        network = state.network(command.player)
        _require_open(state)
        grid = _require_grid(network)
        square = check_square(command.square)
        genre = self._genre(state, command.genre)
        if grid.squares[square] == genre:
            raise IllegalCommand(f"{square_name(square)} already shows {genre}", RULE_GRID)
        other = grid.square_of(genre)
        if (
            other is not None
            and other != CENTRE
            and not grid.filled[other]
            and square != CENTRE
            and not grid.filled[square]
        ):
            # the genre moves here from another empty square: the two squares swap
            return [GridSquareSet(network.name, square, genre, other, grid.squares[square])]
        check_square_genre(grid, square, genre)
        return [GridSquareSet(network.name, square, genre)]

    def _enter_tile(self, state: TellyTimeState, command: EnterTile) -> list[TellyTimeEvent]:
        """The whole tile's genres at once ("Your Genre Grid"; ruling 1): one ``grid_square_set`` per square
        that changes, in square order (the events a square at a time would journal, as one move)."""
        network = state.network(command.player)
        _require_open(state)
        grid = _require_grid(network)
        squares = command.squares
        if isinstance(squares, (str, bytes)) or not isinstance(squares, (list, tuple)) or len(squares) != SQUARES:
            raise MalformedCommand(
                f"a tile lists its 9 squares row by row (None for one kept as it is), not {squares!r}"
            )
        names = [None if genre is None else self._genre(state, genre) for genre in squares]
        centre = grid.squares[CENTRE]
        if names[CENTRE] not in (None, centre):
            raise IllegalCommand(f"the centre square is the Pilot Season genre ({centre})", RULE_PILOT)
        final = [grid.squares[i] if names[i] is None else names[i] for i in range(SQUARES)]
        for square in range(SQUARES):
            if final[square] != grid.squares[square] and grid.filled[square]:
                raise IllegalCommand(
                    f"{square_name(square)} ({grid.squares[square]}) already has a marker cube", RULE_GRID
                )
        twice = [g for g, n in Counter(g for g in final if g is not None).items() if n > 1]
        if twice:
            where = square_list([i for i, g in enumerate(final) if g == twice[0]])
            raise IllegalCommand(f"{twice[0]} is on {where}; a tile shows each genre once", RULE_GRID)
        changed = [(i, genre) for i, genre in enumerate(final) if genre != grid.squares[i] and genre is not None]
        if not changed:
            raise IllegalCommand(f"{network.name}'s tile already shows these genres", RULE_GRID)
        return [GridSquareSet(network.name, i, genre) for i, genre in changed]

    def _set_bonus(self, state: TellyTimeState, command: SetLineBonus) -> list[TellyTimeEvent]:
        network = state.network(command.player)
        _require_open(state)
        grid = _require_grid(network)
        line_index(command.line)
        bonus = LineBonus.checked(command.label, command.cash_m, command.viewers)
        if command.line in grid.completed:
            raise IllegalCommand(
                f"the {LINE_NAMES[command.line]} is already completed and its bonus gained; undo to correct it",
                RULE_GRID,
            )
        return [LineBonusSet(network.name, command.line, bonus)]

    def _keep_cards(self, state: TellyTimeState, command: KeepPilotCards) -> list[TellyTimeEvent]:
        network = state.network(command.player)
        _require_cards_to_keep(state, network)
        cards = command.cards
        if not isinstance(cards, tuple | list) or len(cards) != 2 or not all(isinstance(c, PilotCard) for c in cards):
            raise IllegalCommand("each player keeps exactly 2 of the stars and ads dealt", RULE_PILOT)
        kept = []
        for card in cards:
            if card.kind not in ("star", "ad"):
                raise MalformedCommand(f"a Pilot Season card is a 'star' or an 'ad', not {card.kind!r}")
            kept.append(
                PilotCard(
                    card.kind,
                    _text(card.name, "a card's name", required=False),
                    check_whole(card.cash_m, "a card's cash bonus ($M)"),
                    check_whole(card.cost_m, "a card's cost ($M)"),
                )
            )
        net = sum(c.cash_m - c.cost_m for c in kept)
        if network.cash_m + net < 0 and not state.options["allow_negative_cash"]:
            raise InsufficientFunds(
                f"{network.name} has {money(network.cash_m)}; these cards would leave {money(network.cash_m + net)}",
                RULE_PILOT,
            )
        events: list[TellyTimeEvent] = [PilotCardsKept(network.name, tuple(kept))]
        for card in kept:
            title = f"{card.kind}{' ' + card.name if card.name else ''}"
            if card.cash_m:
                events.append(_cash(network.name, card.cash_m, f"cash bonus of Pilot Season {title}", RULE_PILOT))
            if card.cost_m:
                events.append(_cash(network.name, -card.cost_m, f"cost of Pilot Season {title}", RULE_PILOT))
        return events

    def _start_season(self, state: TellyTimeState, command: StartSeason) -> list[TellyTimeEvent]:
        _require_ready_to_start(state)
        first = state.options["first_player"] or state.names[0]
        start = state.names.index(first)
        return [SeasonStarted(1, state.names[start:] + state.names[:start])]

    # turns
    def _end_turn(self, state: TellyTimeState, player: str, action: str, passing: bool = False) -> TellyTimeEvent:
        """The event ending ``player``'s turn: the next player who has not passed, or the season's scoring."""
        still_in = [n for n in state.order if state.network(n).passed is None and not (passing and n == player)]
        if not still_in:
            return ScoringStarted(state.season, player, action)
        position = state.order.index(player)
        for step in range(1, len(state.order) + 1):
            candidate = state.order[(position + step) % len(state.order)]
            if candidate in still_in:
                return TurnEnded(player, action, candidate)
        raise AssertionError("unreachable")

    @staticmethod
    def _check_kids(printed_genre: str, timeslot: str, what: str) -> None:
        if printed_genre == KIDS and timeslot in NO_KIDS_SLOTS:
            raise IllegalCommand(
                f"{what} can't go in {TIMESLOT_NAMES[timeslot].lower()} (Kids shows only in "
                f"8 PM or weekend), even using network cards",
                f"{RULE_GENRES}, Kids",
            )

    @staticmethod
    def _check_preferred(preferred: Any) -> tuple[str, ...]:
        if isinstance(preferred, str) or not isinstance(preferred, tuple | list):
            raise MalformedCommand(f"preferred timeslots are a list, not {preferred!r}")
        preferred = tuple(preferred)
        if ANY in preferred:
            if len(preferred) != 1:
                raise MalformedCommand("a show that says ANY has no other preferred timeslot")
            return preferred
        if len(preferred) > 2 or len(set(preferred)) != len(preferred):
            raise MalformedCommand(f"a show prefers one or two different timeslots, or ANY, not {list(preferred)}")
        for slot in preferred:
            check_timeslot(slot)
        return preferred

    def _fill_events(
        self, state: TellyTimeState, network: Network, genre: str, reason: str, rule: str
    ) -> list[TellyTimeEvent]:
        """Events for a marker on ``genre``'s square (if empty) and the lines it completes."""
        grid = _require_grid(network)
        square = grid.square_of(genre)
        if square is None:
            raise IllegalCommand(f"{network.name}'s tile has no {genre} square entered yet", RULE_GRID)
        if grid.filled[square]:
            return []
        events: list[TellyTimeEvent] = [GridMarkerPlaced(network.name, square, genre, reason, rule)]
        lines = grid.lines_completed_by(square)
        if not lines:
            return events
        moguls = state.options["moguls"]
        if needs_mogul_choice(grid, lines, moguls):
            return [*events, MogulChoicePending(network.name, lines)]
        return events + self._line_events(grid, network.name, order_lines(grid, lines, moguls))

    @staticmethod
    def _line_events(grid: GenreGrid, player: str, ordered: list[tuple[str, bool]]) -> list[TellyTimeEvent]:
        mogul_bonus = LineBonus("Mogul bonus: draw 2 moguls, keep 1")
        return [
            LineCompleted(
                player,
                line,
                number,
                mogul,
                mogul_bonus if mogul else grid.bonus(line),
                RULE_MOGUL if mogul else RULE_GRID,
            )
            for number, (line, mogul) in enumerate(ordered, start=len(grid.completed) + 1)
        ]

    def _produce(self, state: TellyTimeState, command: ProduceShow) -> list[TellyTimeEvent]:
        network = _require_turn(state, command.player, "shows are produced")
        genre = self._genre(state, command.genre)
        timeslot = check_timeslot(command.timeslot)
        name = _text(command.name, "a show's name", required=False) or f"{genre} show"
        preferred = self._check_preferred(command.preferred)
        cost = check_whole(command.cost_m, "a show's cost ($M)")
        self._check_kids(genre, timeslot, "a Kids show")
        self._check_pay(state, network, cost, name)
        replaced = network.show_in(timeslot)
        events: list[TellyTimeEvent] = []
        if cost:
            events.append(_cash(network.name, -cost, f"producing {name}", RULE_BASE))
        show = Show(name, genre, genre, preferred)
        events.append(ShowProduced(network.name, timeslot, show, replaced.name if replaced else None))
        events += self._fill_events(state, network, genre, f"first {genre} show produced", RULE_GRID)
        events.append(self._end_turn(state, network.name, f"produced {name}"))
        return events

    def _take_action(self, state: TellyTimeState, command: TakeAction) -> list[TellyTimeEvent]:
        network = _require_turn(state, command.player, "actions are taken")
        action = _text(command.action, "the action")
        amount = check_whole(command.cash_m, "the action's cash ($M)", minimum=None)
        events: list[TellyTimeEvent] = []
        if amount < 0:
            self._check_pay(state, network, -amount, action)
        if amount:
            events.append(_cash(network.name, amount, action, RULE_BASE))
        events.append(self._end_turn(state, network.name, action))
        return events

    def _pass(self, state: TellyTimeState, command: Pass) -> list[TellyTimeEvent]:
        network = _require_turn(state, command.player, "players pass")
        if command.reward not in ("cash", "viewers"):
            raise MalformedCommand(f"the pass track gives 'cash' or 'viewers', not {command.reward!r}")
        amount = check_whole(command.amount, "the pass track reward")
        if not isinstance(command.preempted, bool):
            raise MalformedCommand(f"preempted is true or false, not {command.preempted!r}")
        order = 1 + sum(1 for n in state.networks if n.passed is not None)
        grid = _require_grid(network)
        events: list[TellyTimeEvent] = [Passed(network.name, command.reward, amount, command.preempted, order)]
        empty = grid.empty_count
        if empty:
            events.append(
                _cash(
                    network.name,
                    CASH_PER_EMPTY_SQUARE_M * empty,
                    f"passing with {count(empty, 'empty grid square')} at {money(CASH_PER_EMPTY_SQUARE_M)} each",
                    RULE_SQUARES,
                )
            )
        if command.reward == "cash" and amount:
            doubled = ", doubled by Preempted Timeslot" if command.preempted else ""
            events.append(
                _cash(
                    network.name,
                    amount * (2 if command.preempted else 1),
                    f"pass track {money(amount)}{doubled}",
                    RULE_CLARIFY if doubled else RULE_BASE,
                )
            )
        events.append(self._end_turn(state, network.name, "passed", passing=True))
        return events

    # any time
    def _place_marker(self, state: TellyTimeState, command: PlaceGridMarker) -> list[TellyTimeEvent]:
        network = state.network(command.player)
        _require_empty_square(state, network)
        grid = _require_grid(network)
        genre = self._genre(state, command.genre)
        reason = _text(command.reason, "the reason")
        if grid.is_filled(genre):
            raise IllegalCommand(
                f"{network.name}'s {genre} square already has a marker; a filled genre never fills again",
                f"{RULE_GRID}; {RULE_CLARIFY}, Market Research",
            )
        return self._fill_events(state, network, genre, reason, f"{RULE_CLARIFY}, {reason}")

    def _move_show(self, state: TellyTimeState, command: MoveShow) -> list[TellyTimeEvent]:
        network = state.network(command.player)
        _require_open(state)
        source, target = check_timeslot(command.from_slot), check_timeslot(command.to_slot)
        if source == target:
            raise MalformedCommand("a show moves to a different timeslot")
        moving, other = network.show_in(source), network.show_in(target)
        reason = _text(command.reason, "the reason")
        if moving is None:
            raise IllegalCommand(f"{network.name} has no show in {TIMESLOT_NAMES[source]}", f"{RULE_CLARIFY}, {reason}")
        self._check_kids(moving.printed_genre, target, f"{moving.name} (Kids)")
        if other is not None:
            self._check_kids(other.printed_genre, source, f"{other.name} (Kids)")
        return [ShowMoved(network.name, source, target, reason)]

    def _change_genre(self, state: TellyTimeState, command: ChangeShowGenre) -> list[TellyTimeEvent]:
        network = state.network(command.player)
        _require_open(state)
        timeslot = check_timeslot(command.timeslot)
        show = network.show_in(timeslot)
        reason = _text(command.reason, "the reason")
        if show is None:
            raise IllegalCommand(
                f"{network.name} has no show in {TIMESLOT_NAMES[timeslot]}", f"{RULE_CLARIFY}, {reason}"
            )
        genre = self._genre(state, command.genre)
        if genre == show.genre:
            raise IllegalCommand(f"{show.name} is already {genre}", f"{RULE_CLARIFY}, {reason}")
        return [ShowGenreChanged(network.name, timeslot, genre, reason)]

    def _writeoff(self, state: TellyTimeState, command: Writeoff) -> list[TellyTimeEvent]:
        """Writeoff's count ("Telly Time Clarifications", Writeoff): a Chat show (printed Chat, ruling 13)
        counts the bonus viewers from the other stars of the lineup; a Quiz show counts no bonus viewers."""
        network = state.network(command.player)
        _require_open(state)
        score = command.show
        if not isinstance(score, ShowScore):
            raise MalformedCommand(f"Writeoff counts one show, given as a ShowScore, not {score!r}")
        timeslot = check_timeslot(score.timeslot)
        show = network.show_in(timeslot)
        if show is None:
            raise IllegalCommand(f"{network.name} has no show in {TIMESLOT_NAMES[timeslot]}", RULE_WRITEOFF)
        others = command.other_stars
        if isinstance(others, str | bytes) or not isinstance(others, tuple | list):
            raise MalformedCommand("the other stars are a list of viewer values")
        for star in others:
            check_whole(star, "a star's viewers on another show")
        if score.quiz_bought and show.printed_genre == QUIZ:
            raise IllegalCommand(
                f"when counting viewers on a Quiz show ({show.name}), don't count any bonus viewers", RULE_WRITEOFF
            )
        if others and show.printed_genre != CHAT:
            raise IllegalCommand(
                f"only a Chat show counts the bonus viewers from other stars; {show.name} is "
                f"{show.printed_genre or 'a starter show'}",
                RULE_WRITEOFF,
            )
        _check_show_score(show, score)
        total, parts = show_breakdown(show, score, list(others))
        return [WriteoffCounted(network.name, timeslot, show.name, show.genre, total, tuple(parts), RULE_WRITEOFF)]

    def _adjust_cash(self, state: TellyTimeState, command: AdjustCash) -> list[TellyTimeEvent]:
        network = state.network(command.player)
        _require_open(state)
        amount = check_whole(command.amount_m, "an amount ($M)", minimum=None)
        if amount == 0:
            raise MalformedCommand("an amount of $0M changes nothing")
        reason = _text(command.reason, "the reason")
        if amount < 0:
            self._check_pay(state, network, -amount, reason)
        return [_cash(network.name, amount, reason, TABLE_RULE)]

    def _adjust_viewers(self, state: TellyTimeState, command: AdjustViewers) -> list[TellyTimeEvent]:
        network = state.network(command.player)
        _require_open(state)
        viewers = check_whole(command.viewers, "viewers", minimum=None)
        if viewers == 0:
            raise MalformedCommand("0 viewers changes nothing")
        return [ViewersChanged(network.name, viewers, _text(command.reason, "the reason"), TABLE_RULE)]

    def _transfer(self, state: TellyTimeState, command: TransferMoney) -> list[TellyTimeEvent]:
        """The shared :class:`TransferMoney` (whole dollars) as cash changes in $M: a payer or payee that is
        a player gains or pays; the bank (:data:`BANK`) has unlimited money. Refused unless the amount is a
        positive whole number of millions, both names are known and differ, and a paying player can pay
        (ruling 9)."""
        _require_open(state)
        amount = command.amount
        if not is_whole(amount) or amount <= 0 or amount % DOLLARS_PER_M:
            raise MalformedCommand(
                f"Telly Time counts cash in whole $M: the amount must be a positive whole number of millions of "
                f"dollars (1,000,000 is $1M), not {amount!r}"
            )
        reason = _text(command.reason, "the reason")
        payer, payee = command.payer, command.payee
        if payer == payee:
            raise MalformedCommand(f"a payment goes from one to another, not from {payer!r} to itself")
        for name in (payer, payee):
            if name != BANK:
                state.network(name)
        amount_m = amount // DOLLARS_PER_M
        events: list[TellyTimeEvent] = []
        if payer != BANK:
            self._check_pay(state, state.network(payer), amount_m, reason)
            events.append(_cash(payer, -amount_m, f"{reason}, paid to {payee}", TABLE_RULE))
        if payee != BANK:
            events.append(_cash(payee, amount_m, f"{reason}, paid by {payer}", TABLE_RULE))
        return events

    # scoring
    def _score_lineup(self, state: TellyTimeState, command: ScoreLineup) -> list[TellyTimeEvent]:
        network = state.network(command.player)
        _require_lineup_to_score(state, network)
        scores = command.shows
        lineup = _checked_lineup(network, scores)
        income = check_whole(command.income_m, "income ($M)")
        costs = check_whole(command.costs_m, "costs ($M)")
        quiz = sum(s.quiz_bought for s in scores) * QUIZ_PRICE_M
        if network.cash_m + income - costs - quiz < 0 and not state.options["allow_negative_cash"]:
            raise InsufficientFunds(
                f"{network.name} has {money(network.cash_m)}; {money(income)} income − "
                f"{money(costs)} costs − {money(quiz)} Quiz viewers would leave "
                f"{money(network.cash_m + income - costs - quiz)}",
                RULE_BASE,
            )
        others = command.other_viewers
        if isinstance(others, str | bytes) or not isinstance(others, tuple | list):
            raise MalformedCommand("other viewers are (label, viewers) pairs")
        checked_others = []
        for pair in others:
            if not isinstance(pair, tuple | list) or len(pair) != 2:
                raise MalformedCommand(f"other viewers are (label, viewers) pairs, not {pair!r}")
            checked_others.append(
                (_text(pair[0], "a viewer entry's label", 40), check_whole(pair[1], "viewers", minimum=None))
            )
        if command.rerun_genres and not command.variety_channel:
            raise MalformedCommand("rerun genres are only counted for Variety Channel")
        reruns = [self._genre(state, g) for g in command.rerun_genres] if command.variety_channel else None
        shows, parts = _lineup_parts(network, lineup, scores, reruns)
        parts += checked_others
        events: list[TellyTimeEvent] = []
        if income:
            events.append(_cash(network.name, income, f"season {state.season} income", RULE_BASE))
        if costs:
            events.append(_cash(network.name, -costs, f"season {state.season} costs", RULE_BASE))
        if quiz:
            events.append(
                _cash(
                    network.name,
                    -quiz,
                    f"{count(quiz // QUIZ_PRICE_M, 'Quiz bonus viewer')} at {money(QUIZ_PRICE_M)} each",
                    f"{RULE_GENRES}, Quiz",
                )
            )
        total = sum(value for _, value in parts)
        events.append(LineupScored(network.name, state.season, total, tuple(parts), tuple(shows), RULE_SQUARES))
        if all(n.scored or n.name == network.name for n in state.networks):
            if state.season >= SEASONS:
                events.append(EndScoringStarted(state.season))
            else:
                events.append(SeasonStarted(state.season + 1, self._next_order(state)))
        return events

    @staticmethod
    def _next_order(state: TellyTimeState) -> tuple[str, ...]:
        if state.options["turn_order"] == "seat":
            return state.order

        def passed_order(name: str) -> int:
            passed = state.network(name).passed
            return passed.order if passed is not None else len(state.order)

        return tuple(sorted(state.order, key=passed_order))

    def _score_end(self, state: TellyTimeState, command: ScoreEndGame) -> list[TellyTimeEvent]:
        network = state.network(command.player)
        _require_end_bonuses_to_score(state, network)
        bonuses = command.bonuses
        if isinstance(bonuses, str | bytes) or not isinstance(bonuses, tuple | list):
            raise MalformedCommand("end-game bonuses are (row, viewers) pairs")
        parts = []
        for pair in bonuses:
            if not isinstance(pair, tuple | list) or len(pair) != 2:
                raise MalformedCommand(f"end-game bonuses are (row, viewers) pairs, not {pair!r}")
            row = _text(pair[0], "an end-game row", 40)
            if row.casefold() == GENRES_ROW.casefold():
                raise IllegalCommand("ignore the Genres row of the end-game viewer bonuses with Telly Time", RULE_END)
            parts.append((row, check_whole(pair[1], f"the {row} bonus", minimum=None)))
        total = sum(v for _, v in parts)
        events: list[TellyTimeEvent] = [EndGameScored(network.name, total, tuple(parts), RULE_END)]
        if all(n.end_scored or n.name == network.name for n in state.networks):
            final = {n.name: n.viewers + (total if n.name == network.name else 0) for n in state.networks}
            best = max(final.values())
            events.append(GameOver(final, tuple(n for n in state.names if final[n] == best)))
        return events

    def _choose_mogul_line(self, state: TellyTimeState, command: ChooseMogulLine) -> list[TellyTimeEvent]:
        pending = state.pending
        assert pending is not None
        if command.player != pending.player:
            raise IllegalCommand(f"the choice is {pending.player}'s, not {command.player}'s", RULE_MOGUL)
        network = state.network(pending.player)
        grid = _require_grid(network)
        if command.line not in pending.lines:
            line_index(command.line)
            raise IllegalCommand(
                f"choose one of the lines just completed: {', '.join(LINE_NAMES[l] for l in pending.lines)}",
                RULE_MOGUL,
            )
        return self._line_events(grid, network.name, order_lines(grid, pending.lines, True, command.line))

    #: decide's table: command class -> its handler.
    _HANDLERS: dict[type, Callable[[TellyTime, TellyTimeState, Any], list[TellyTimeEvent]]] = {
        ChoosePilotShow: _choose_pilot,
        SetGridSquare: _set_square,
        EnterTile: _enter_tile,
        SetLineBonus: _set_bonus,
        KeepPilotCards: _keep_cards,
        StartSeason: _start_season,
        ProduceShow: _produce,
        TakeAction: _take_action,
        Pass: _pass,
        PlaceGridMarker: _place_marker,
        MoveShow: _move_show,
        ChangeShowGenre: _change_genre,
        Writeoff: _writeoff,
        AdjustCash: _adjust_cash,
        AdjustViewers: _adjust_viewers,
        TransferMoney: _transfer,
        ScoreLineup: _score_lineup,
        ScoreEndGame: _score_end,
    }

    # -- evolve / describe -------------------------------------------------------------------------------
    def evolve(self, state: TellyTimeState, event: Event) -> TellyTimeState:
        """Fold one event into the state (pure; the event was checked when it was decided). Raises
        ``ValueError`` for an event that is not one of this game's (:mod:`.events`)."""
        fold = _FOLDS.get(type(event))
        if fold is None:
            raise ValueError(f"Telly Time cannot apply an event of type {event.type!r}")
        return fold(state, event)

    def describe(self, event: Event) -> str:
        """One readable sentence per event (no final full stop: the screen joins several with "; "), e.g.
        ``"Arkady completes the middle column, the first line of the tile, and gains its bonus: Draw 2
        stars, sign 1 free (Telly Time: Your Genre Grid)"``. Squares are named by position ("the top-left
        square"), never by their index in the payload."""
        if isinstance(event, TellyTimeEvent):
            return event.describe()
        return f"{event.type} {dict(event.payload)}"

    # -- the contract's views ----------------------------------------------------------------------------
    def button_command(self, action: str, player: str, source: str = "button") -> Command:
        """A player button's command: ``on_the_air`` → :class:`TakeAction` "action at the table" (ends
        the turn, no cash), ``sponsor`` → :class:`AdjustCash` +$1M ("income entered by button"),
        ``roll`` → :class:`RollDice` (refused: The Networks uses no dice). Raises
        :class:`MalformedCommand` for another action."""
        if action == "on_the_air":
            return TakeAction(player=player, action="action at the table", source=source)
        if action == "sponsor":
            return AdjustCash(player=player, amount_m=1, reason="income entered by button", source=source)
        if action == "roll":
            return RollDice(roller=player, source=source)
        actions = ", ".join(b.action for b in self.info.buttons)
        raise MalformedCommand(f"Telly Time has no button action {action!r}; actions: {actions}")

    def pending_dice(self, state: TellyTimeState) -> DiceRequest | None:
        """Always ``None``: The Networks uses no dice."""
        return None

    def status(self, state: TellyTimeState) -> str:
        """The status line (:func:`companion.games.telly_time.view.status`)."""
        return _view.status(state)

    def public_view(self, state: TellyTimeState) -> TableView:
        """The public picture (:func:`companion.games.telly_time.view.public_view`)."""
        return _view.public_view(state)

    def private_view(self, state: TellyTimeState, seat: str) -> PrivateView:
        """What only ``seat`` sees: nothing is secret, so its own holdings
        (:func:`companion.games.telly_time.view.private_view`)."""
        return _view.private_view(state, seat)

    def figures(self, state: TellyTimeState) -> dict[str, dict[str, int | str]]:
        """Each seat's ``cash_m``, ``viewers``, ``filled_squares`` and ``lines``
        (:func:`companion.games.telly_time.view.figures`)."""
        return _view.figures(state)

    def outcome(self, state: TellyTimeState) -> Outcome | None:
        """``None`` while the game goes on; once scored to the end, :attr:`Termination.WON` for the most
        viewers (a tie shares the win, ruling 17), ranked by viewers; once ended at the table,
        :attr:`Termination.ENDED_BY_HAND` with no winner."""
        if not state.finished:
            return None
        figures = self.figures(state)
        if state.phase != OVER:
            return Outcome(
                Termination.ENDED_BY_HAND, (), figures, f"The game was ended at the table{end_words(state.end_reason)}"
            )
        viewers = {n.name: n.viewers for n in state.networks}
        ranking = tuple(sorted(state.names, key=lambda name: -viewers[name]))
        winners = state.winners
        verb = "wins" if len(winners) == 1 else "share the win"
        best = count(viewers[winners[0]], "viewer") if winners else "no viewers"
        reason = f"{and_join(list(winners))} {verb} with {best}, the most viewers ({RULE_END}; {RULINGS} #17)"
        return Outcome(Termination.WON, winners, figures, reason, ranking)

    def legal_commands(self, state: TellyTimeState, seat: str) -> tuple[LegalCommand, ...]:
        """What ``seat`` is offered now, in the board's order: the moves of the phase (Pilot Season: show,
        cards, line bonuses, start; a season: produce, other action, pass, a card's marker; scoring: the
        lineup, a card's marker, line bonuses; the end: end-game bonuses; a pending mogul choice: the
        choice), then the free entries of cash and viewers, a square's genre and the whole tile's genres
        (entered on the grid itself). Each is disabled, with the reason and rule ``decide`` would refuse it
        with, when it cannot be made now; ``command`` is set where nothing is left to choose (Start season
        1). Nothing once the game is over. Corrections accepted at any time (MoveShow, ChangeShowGenre,
        EndGame, TransferMoney) are not listed. Writeoff is listed where its clarification applies ("Telly
        Time Clarifications", Writeoff): in a season and its scoring, nothing pending, for a lineup with a show
        printed Chat or Quiz (:func:`writeoff_shows`); its ``rule`` names the clarification. Raises
        ``MalformedCommand`` for a seat that is not playing."""
        network = state.network(seat)
        if state.finished:
            return ()
        pending = state.pending

        def waiting_for_choice() -> None:
            if pending is not None:
                raise _pending_refusal(pending)

        def offer(kind: type, guard: Callable[[], object], command: Command | None = None) -> LegalCommand:
            if pending is not None and kind is not ChooseMogulLine:
                guard = waiting_for_choice  # decide refuses everything but the choice while it is awaited
            return _offer(kind, LABELS[kind], guard, command)

        def own_choice() -> None:
            if pending is not None and pending.player != seat:
                raise IllegalCommand(f"the choice is {pending.player}'s, not {seat}'s", RULE_MOGUL)

        moves: list[LegalCommand]
        if pending is not None:
            moves = [offer(ChooseMogulLine, own_choice)]
        elif state.phase == PILOT:
            moves = [
                offer(ChoosePilotShow, lambda: _require_no_tile(state, network)),
                offer(KeepPilotCards, lambda: _require_cards_to_keep(state, network)),
                offer(SetLineBonus, lambda: _require_grid(network)),
                offer(StartSeason, lambda: _require_ready_to_start(state), StartSeason()),
            ]
        elif state.phase == SEASON:
            moves = [
                offer(ProduceShow, lambda: _require_turn(state, seat, "shows are produced")),
                offer(TakeAction, lambda: _require_turn(state, seat, "actions are taken")),
                offer(Pass, lambda: _require_turn(state, seat, "players pass")),
                offer(PlaceGridMarker, lambda: _require_empty_square(state, network)),
            ]
        elif state.phase == SCORING:
            moves = [
                offer(ScoreLineup, lambda: _require_lineup_to_score(state, network)),
                offer(PlaceGridMarker, lambda: _require_empty_square(state, network)),
                offer(SetLineBonus, lambda: _require_grid(network)),
            ]
        else:
            moves = [offer(ScoreEndGame, lambda: _require_end_bonuses_to_score(state, network))]
        writeoff: tuple[LegalCommand, ...] = ()
        if pending is None and state.phase in (SEASON, SCORING) and writeoff_shows(network):
            writeoff = (LegalCommand(Writeoff.__name__, LABELS[Writeoff], rule=RULE_WRITEOFF),)
        return (
            *moves,
            offer(AdjustCash, lambda: _require_open(state)),
            offer(AdjustViewers, lambda: _require_open(state)),
            *writeoff,
            offer(SetGridSquare, lambda: _require_grid(network)),
            offer(EnterTile, lambda: _require_grid(network)),
        )


# -- evolve's folds, one per event class ------------------------------------------------------------------------
def _change(state: TellyTimeState, name: str, **fields: Any) -> TellyTimeState:
    return replace(state, networks=tuple(replace(n, **fields) if n.name == name else n for n in state.networks))


def _grid(state: TellyTimeState, player: str) -> GenreGrid:
    grid = state.network(player).grid
    if grid is None:
        raise ValueError(f"{player} has no genre grid to change")
    return grid


@_folds(CashChanged)
def _fold_cash(state: TellyTimeState, event: CashChanged) -> TellyTimeState:
    return _change(state, event.player, cash_m=state.network(event.player).cash_m + event.amount_m)


@_folds(ViewersChanged)
def _fold_viewers(state: TellyTimeState, event: ViewersChanged) -> TellyTimeState:
    return _change(state, event.player, viewers=state.network(event.player).viewers + event.viewers)


@_folds(PilotShowChosen)
def _fold_pilot(state: TellyTimeState, event: PilotShowChosen) -> TellyTimeState:
    show = Show(event.name, event.genre, event.genre, event.show_preferred)
    lineup = tuple(show if slot == event.timeslot else STARTER_SHOW for slot in TIMESLOTS)
    return _change(state, event.player, grid=event.tile.grid(event.genre), pilot=show, lineup=lineup)


@_folds(GridSquareSet)
def _fold_square(state: TellyTimeState, event: GridSquareSet) -> TellyTimeState:
    grid = _grid(state, event.player).with_square(event.square, event.genre)
    if event.swapped_with is not None:
        grid = grid.with_square(event.swapped_with, event.other_genre)
    return _change(state, event.player, grid=grid)


@_folds(LineBonusSet)
def _fold_bonus(state: TellyTimeState, event: LineBonusSet) -> TellyTimeState:
    return _change(state, event.player, grid=_grid(state, event.player).with_bonus(event.line, event.bonus))


@_folds(PilotCardsKept)
def _fold_cards(state: TellyTimeState, event: PilotCardsKept) -> TellyTimeState:
    return _change(state, event.player, pilot_cards=event.cards)


@_folds(SeasonStarted)
def _fold_season(state: TellyTimeState, event: SeasonStarted) -> TellyTimeState:
    networks = tuple(replace(n, passed=None, scored=False) for n in state.networks)
    return replace(
        state, networks=networks, phase=SEASON, season=event.season, order=event.order, current=event.order[0]
    )


def _with_show(state: TellyTimeState, player: str, timeslot: str, show: Show | None) -> TellyTimeState:
    lineup = list(state.network(player).lineup)
    lineup[TIMESLOTS.index(timeslot)] = show
    return _change(state, player, lineup=tuple(lineup))


@_folds(ShowProduced)
def _fold_produced(state: TellyTimeState, event: ShowProduced) -> TellyTimeState:
    return _with_show(state, event.player, event.timeslot, event.show)


@_folds(ShowMoved)
def _fold_moved(state: TellyTimeState, event: ShowMoved) -> TellyTimeState:
    network = state.network(event.player)
    moving, other = network.show_in(event.from_slot), network.show_in(event.to_slot)
    return _with_show(_with_show(state, event.player, event.from_slot, other), event.player, event.to_slot, moving)


@_folds(ShowGenreChanged)
def _fold_genre(state: TellyTimeState, event: ShowGenreChanged) -> TellyTimeState:
    show = state.network(event.player).show_in(event.timeslot)
    if show is None:
        raise ValueError(f"{event.player} has no show in {event.timeslot} to change")
    return _with_show(state, event.player, event.timeslot, replace(show, genre=event.genre))


@_folds(GridMarkerPlaced)
def _fold_marker(state: TellyTimeState, event: GridMarkerPlaced) -> TellyTimeState:
    return _change(state, event.player, grid=_grid(state, event.player).with_marker(event.square))


@_folds(MogulChoicePending)
def _fold_pending(state: TellyTimeState, event: MogulChoicePending) -> TellyTimeState:
    return replace(state, pending=MogulChoice(event.player, event.lines))


@_folds(LineCompleted)
def _fold_line(state: TellyTimeState, event: LineCompleted) -> TellyTimeState:
    network = state.network(event.player)
    state = _change(
        state,
        event.player,
        grid=_grid(state, event.player).with_completed(event.line),
        cash_m=network.cash_m + event.bonus.cash_m,
        viewers=network.viewers + event.bonus.viewers,
    )
    if state.pending is not None and state.pending.player == event.player:
        remaining = tuple(line for line in state.pending.lines if line != event.line)
        state = replace(state, pending=MogulChoice(state.pending.player, remaining) if remaining else None)
    return state


@_folds(TurnEnded)
def _fold_turn(state: TellyTimeState, event: TurnEnded) -> TellyTimeState:
    return replace(state, current=event.next)


@_folds(Passed)
def _fold_passed(state: TellyTimeState, event: Passed) -> TellyTimeState:
    return _change(state, event.player, passed=PassChoice(event.reward, event.amount, event.preempted, event.order))


@_folds(ScoringStarted)
def _fold_scoring(state: TellyTimeState, event: ScoringStarted) -> TellyTimeState:
    return replace(state, phase=SCORING, current=None)


@_folds(LineupScored)
def _fold_lineup(state: TellyTimeState, event: LineupScored) -> TellyTimeState:
    return _change(state, event.player, scored=True, viewers=state.network(event.player).viewers + event.total)


@_folds(EndScoringStarted)
def _fold_end_scoring(state: TellyTimeState, event: EndScoringStarted) -> TellyTimeState:
    return replace(state, phase=END_SCORING, current=None)


@_folds(EndGameScored)
def _fold_end_game(state: TellyTimeState, event: EndGameScored) -> TellyTimeState:
    return _change(state, event.player, end_scored=True, viewers=state.network(event.player).viewers + event.total)


@_folds(GameOver)
def _fold_over(state: TellyTimeState, event: GameOver) -> TellyTimeState:
    winners = event.winners
    most = "has the most viewers" if len(winners) == 1 else "share the most viewers"
    return replace(
        state, phase=OVER, winners=tuple(winners), finished=True, end_reason=f"{and_join(list(winners))} {most}"
    )


@_folds(WriteoffCounted)
def _fold_writeoff(state: TellyTimeState, event: WriteoffCounted) -> TellyTimeState:
    return state  # the count is a record; the card's effect is entered as the table applies it


@_folds(GameEnded)
def _fold_ended(state: TellyTimeState, event: GameEnded) -> TellyTimeState:
    return replace(state, finished=True, end_reason=event.reason)


#: Every event class has its fold (checked at import: a new event class without one is a bug).
assert set(_FOLDS) == set(CODEC.classes.values()), "an event class of Telly Time has no fold"

TELLY_TIME = TellyTime()
