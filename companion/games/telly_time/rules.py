"""The Networks with the Telly Time module: cash ($M), viewers, seasons and the genre grid.

Specification: ``rules/the-networks-telly-time.txt`` (the module's rulebook; the base game's rulebook
is not available, so the base game is *tracked*, with its amounts entered as printed). Rule references
name the rulebook's sections, e.g. ``"Telly Time: Your Genre Grid"``.

Scope:

* Base game as a tracker: five seasons; turn order; each network's cash ($M) and viewers; the pass
  track reward (cash or viewers, entered as printed for the player count; cash at once, viewers when the
  lineup is scored); the shows in the four timeslots (the 4th, weekend, from the module); free entry of
  income, costs and viewers.
* Telly Time Pilot Season: the Pilot Season show, the tile with its genre in the centre (marker on the
  centre), the two kept stars/ads with their cash bonuses and costs.
* The genre grid: the first show of a genre fills its square; every completed row, column or diagonal
  gains its printed bonus (entered per tile); with the Moguls module the second line gives a mogul bonus.
* Every round: passing pays $1M per empty square; scoring adds +1 viewer per filled square; Preempted
  Timeslot doubles only the pass track's reward.
* Genres: Kids not in primetime or late night; Quiz buys up to 5 viewers at $1M; Chat gains the viewer
  values of the stars on the other shows; two-slot and ANY shows take no timeslot penalty.
* End game: end-game viewer bonuses without the "Genres" row; most viewers wins (ties share).

House-rule and set-up options (``check_options``): ``moguls`` (bool, False), ``starting_cash_m``
($M, 0), ``genres`` (the nine tile genres), ``tiles`` (tile layouts and line bonuses by centre genre),
``first_player`` (a name, default the first seat), ``turn_order`` (``"pass_order"`` or ``"seat"``),
``allow_negative_cash`` (bool, False). Rulings: ``docs/rulings-telly-time.md``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from companion.checks import is_whole
from companion.commands import BANK, AdjustTrack, AnswerDice, Command, EndGame, PlayerSeat, RollDice, TransferMoney
from companion.dice import DiceRequest
from companion.errors import BadOption, GameFinished, IllegalCommand, InsufficientFunds, MalformedCommand
from companion.events import NewEvent
from companion.games import PlayerView, TableView
from companion.games.telly_time.grid import (
    CENTRE,
    LINE_IDS,
    LINE_NAMES,
    LINES,
    RULE_GRID,
    RULE_MOGUL,
    RULE_PILOT,
    RULE_SQUARES,
    SQUARE_NAMES,
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
from companion.games.telly_time.model import (
    ANY,
    CASH_PER_EMPTY_SQUARE_M,
    CHAT,
    DEFAULT_GENRES,
    END_SCORING,
    KIDS,
    NO_KIDS_SLOTS,
    OVER,
    PILOT,
    QUIZ,
    QUIZ_MAX_VIEWERS,
    QUIZ_PRICE_M,
    SCORING,
    SEASON,
    SEASONS,
    STARTER_SHOW,
    TIMESLOT_NAMES,
    TIMESLOTS,
    VIEWERS_PER_FILLED_SQUARE,
    AdjustCash,
    AdjustViewers,
    ChangeShowGenre,
    ChooseMogulLine,
    ChoosePilotShow,
    KeepPilotCards,
    MogulChoice,
    MoveShow,
    Network,
    Pass,
    PassChoice,
    PilotCard,
    PlaceGridMarker,
    ProduceShow,
    ScoreEndGame,
    ScoreLineup,
    SetGridSquare,
    SetLineBonus,
    Show,
    ShowScore,
    StartSeason,
    TakeAction,
    TellyTimeState,
    check_timeslot,
)
from companion.tracks import Track
from companion.words import and_join, count, noun

# -- rule references ---------------------------------------------------------------------------------------
RULE_GENRES = "Telly Time: New Genres & Show Effects"
RULE_WILD = "Telly Time: Wild Timeslots"
RULE_CLARIFY = "Telly Time: Telly Time Clarifications"
RULE_END = "Telly Time: End-Game Scoring"
RULE_BASE = "The Networks base game, tracked"

# -- event types ---------------------------------------------------------------------------------------------
PILOT_SHOW_CHOSEN = "pilot_show_chosen"
GRID_SQUARE_SET = "grid_square_set"
LINE_BONUS_SET = "line_bonus_set"
PILOT_CARDS_KEPT = "pilot_cards_kept"
CASH_CHANGED = "cash_changed"
VIEWERS_CHANGED = "viewers_changed"
SEASON_STARTED = "season_started"
SHOW_PRODUCED = "show_produced"
SHOW_MOVED = "show_moved"
SHOW_GENRE_CHANGED = "show_genre_changed"
GRID_MARKER_PLACED = "grid_marker_placed"
LINE_COMPLETED = "line_completed"
MOGUL_CHOICE_PENDING = "mogul_choice_pending"
TURN_ENDED = "turn_ended"
PASSED = "passed"
SCORING_STARTED = "scoring_started"
LINEUP_SCORED = "lineup_scored"
END_SCORING_STARTED = "end_scoring_started"
END_GAME_SCORED = "end_game_scored"
GAME_OVER = "game_over"
GAME_ENDED = "game_ended"

#: The end-game bonus row ignored with Telly Time ("End-Game Scoring").
GENRES_ROW = "Genres"


def _text(value: Any, what: str, limit: int = 60, required: bool = True) -> str:
    if not isinstance(value, str) or len(value.strip()) > limit or (required and not value.strip()):
        need = f"1 to {limit}" if required else f"at most {limit}"
        raise MalformedCommand(f"{what} must be text of {need} characters, not {value!r}")
    return value.strip()


def money(amount_m: int) -> str:
    """``12`` → ``"$12M"``; ``-3`` → ``"−$3M"`` (amounts in $M, true minus sign)."""
    return f"−${-amount_m}M" if amount_m < 0 else f"${amount_m}M"


#: 1 → "first" ... for "passes second", "the third line"; beyond the table, "13th".
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def ordinal(n: int) -> str:
    """``1`` → ``"first"``, ``2`` → ``"second"`` ... ``9`` → ``"9th"``."""
    return _ORDINALS[n - 1] if 1 <= n <= len(_ORDINALS) else f"{n}th"


def _cash(player: str, amount_m: int, reason: str, rule: str) -> NewEvent:
    return NewEvent(CASH_CHANGED, {"player": player, "amount_m": amount_m, "reason": reason, "rule": rule})


def _viewers(player: str, viewers: int, reason: str, rule: str) -> NewEvent:
    return NewEvent(VIEWERS_CHANGED, {"player": player, "viewers": viewers, "reason": reason, "rule": rule})


def _parts_text(parts: Sequence[Sequence[Any]]) -> str:
    """``[["show", 3], ["Chat", 6]]`` → ``"3 show + 6 Chat"`` (negative parts as ``− 2 penalty``)."""
    text = ""
    for label, value in parts:
        if not text:
            text = f"{value} {label}" if value >= 0 else f"−{-value} {label}"
        else:
            text += f" + {value} {label}" if value >= 0 else f" − {-value} {label}"
    return text or "0"


def show_breakdown(show: Show, score: ShowScore, others_stars: Sequence[int]) -> tuple[int, list[list[Any]]]:
    """One show's viewers this season as ``(total, parts)``; ``parts`` are ``[label, viewers]`` pairs.

    Base: the show's own viewers and its stars' current viewer values. Chat (printed genre): + the
    current viewer values of all stars on the *other* shows (``others_stars``, "New Genres & Show
    Effects", Chat). Quiz: + the bonus viewers bought. Minus any timeslot penalty.
    """
    parts: list[list[Any]] = [["show", score.viewers]]
    if score.stars:
        parts.append(
            [
                f"stars on it ({'+'.join(map(str, score.stars))})" if len(score.stars) > 1 else "star on it",
                sum(score.stars),
            ]
        )
    if show.printed_genre == CHAT and others_stars:
        parts.append([f"Chat: stars on other shows ({'+'.join(map(str, others_stars))})", sum(others_stars)])
    if score.quiz_bought:
        parts.append([f"Quiz: bought at {money(QUIZ_PRICE_M)} each", score.quiz_bought])
    if score.penalty:
        parts.append(["timeslot penalty", -score.penalty])
    return sum(value for _, value in parts), parts


def variety_channel_viewers(genres: Sequence[str]) -> tuple[int, list[str]]:
    """Variety Channel with Telly Time ("Telly Time Clarifications"): 2 viewers for each genre that
    appears on at least 2 of ``genres`` (the shows in the lineup and/or reruns, Kids/Quiz/Chat included).
    Returns ``(viewers, the genres that counted)``."""
    counts = Counter(g for g in genres if g)
    counted = sorted(g for g, n in counts.items() if n >= 2)
    return 2 * len(counted), counted


class TellyTime:
    """The rules of The Networks with the Telly Time module. Registered as ``"telly-time"``."""

    name = "telly-time"
    #: The module's own name; the rulebook calls it "the Telly Time module" of The Networks.
    title = "Telly Time"
    min_players = 1
    #: Solo is supported (the module's "Solo Mode" section), so the home screen offers 1 to 5 players.
    player_word = "players"
    max_players = 5
    default_names = ("Arkady", "Virginia", "Kim", "Lou", "Sam")

    # -- set-up ----------------------------------------------------------------------------------------
    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Return the options with defaults filled in; raises :class:`BadOption` for an unknown option or
        a wrong value.

        ``moguls`` (bool, default False: "Mogul Bonus"), ``starting_cash_m`` (whole $M ≥ 0, default 0;
        the base rulebook's amount is not available), ``genres`` (nine distinct names including Kids,
        Quiz and Chat), ``tiles`` (centre genre → ``{"squares": [9], "bonuses": {line: {label, cash_m,
        viewers}}}``, the tiles' print, "Your Genre Grid"), ``first_player`` (a player name or None),
        ``turn_order`` (``"pass_order"``: next season in the order players passed; ``"seat"``),
        ``allow_negative_cash`` (bool, default False).
        """
        known = {
            "moguls": False,
            "starting_cash_m": 0,
            "genres": list(DEFAULT_GENRES),
            "tiles": {},
            "first_player": None,
            "turn_order": "pass_order",
            "allow_negative_cash": False,
        }
        if not isinstance(options, Mapping):
            raise BadOption("options", "must be a table of option names and values")
        for option in options:
            if option not in known:
                raise BadOption(option, f"Telly Time has no such option; known: {', '.join(known)}")
        checked = {**known, **options}
        for flag in ("moguls", "allow_negative_cash"):
            if not isinstance(checked[flag], bool):
                raise BadOption(flag, f"must be true or false, not {checked[flag]!r}")
        cash = checked["starting_cash_m"]
        if not is_whole(cash) or cash < 0:
            raise BadOption("starting_cash_m", f"must be whole $M ≥ 0, not {cash!r}")
        genres = checked["genres"]
        if (
            isinstance(genres, (str, bytes))
            or not isinstance(genres, (list, tuple))
            or len(genres) != SQUARES
            or not all(isinstance(g, str) and g.strip() for g in genres)
            or len({g.strip().casefold() for g in genres}) != SQUARES
        ):
            raise BadOption("genres", f"must be 9 distinct genre names (one per grid square), not {genres!r}")
        genres = [g.strip() for g in genres]
        folded = {g.casefold() for g in genres}
        if not all(g.casefold() in folded for g in (KIDS, QUIZ, CHAT)):
            raise BadOption("genres", f"must include Kids, Quiz and Chat ({RULE_GENRES})")
        checked["genres"] = genres
        tiles = checked["tiles"]
        if not isinstance(tiles, Mapping):
            raise BadOption("tiles", "must map a centre genre to its tile")
        try:
            checked["tiles"] = {
                canonical_genre(c, genres): check_tile(canonical_genre(c, genres), t, genres) for c, t in tiles.items()
            }
        except MalformedCommand as error:
            raise BadOption("tiles", str(error)) from None
        first = checked["first_player"]
        if first is not None and not isinstance(first, str):
            raise BadOption("first_player", f"must be a player's name, not {first!r}")
        if checked["turn_order"] not in ("pass_order", "seat"):
            raise BadOption("turn_order", f"must be 'pass_order' or 'seat', not {checked['turn_order']!r}")
        return checked

    def new_game(self, players: Sequence[PlayerSeat], options: Mapping[str, Any]) -> TellyTimeState:
        """The Pilot Season: every network with ``starting_cash_m`` and 0 viewers, no tile yet.

        Raises :class:`IllegalCommand` for fewer than 1 or more than 5 players (the module's components:
        3 cubes for each of 5 colours, "Components"), :class:`MalformedCommand` for empty or repeated
        names, :class:`BadOption` for bad options or a ``first_player`` who is not playing.
        """
        options = self.check_options(options)
        names = [seat.name for seat in players]
        if not self.min_players <= len(names) <= self.max_players:
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
    def decide(self, state: TellyTimeState, command: Command) -> list[NewEvent]:
        """Return the events ``command`` causes, or raise a ``CommandError`` citing the rule; ``state``
        is never changed. See the command classes in :mod:`companion.games.telly_time.model`."""
        if state.finished:
            raise GameFinished(f"the game is over ({state.end_reason}); undo to reopen it")
        if isinstance(command, EndGame):
            return [NewEvent(GAME_ENDED, {"reason": _text(command.reason, "the reason", 80)})]
        if state.pending is not None:
            if isinstance(command, ChooseMogulLine):
                return self._choose_mogul_line(state, command)
            names = ", ".join(LINE_NAMES[line] for line in state.pending.lines)
            raise IllegalCommand(
                f"{state.pending.player} first chooses which line gives the mogul bonus: {names}", RULE_MOGUL
            )
        handler = self._HANDLERS.get(type(command))
        if handler is None:
            if isinstance(command, (AnswerDice, RollDice)):
                raise IllegalCommand("no dice are asked for: The Networks uses no dice", RULE_BASE)
            if isinstance(command, (TransferMoney, AdjustTrack)):
                raise MalformedCommand(
                    f"use AdjustCash ($M) or AdjustViewers in Telly Time, not {type(command).__name__}"
                )
            raise MalformedCommand(f"Telly Time has no command {type(command).__name__}")
        return handler(self, state, command)

    # phase and turn guards
    def _require_phase(self, state: TellyTimeState, phase: str, doing: str) -> None:
        if state.phase != phase:
            when = {
                PILOT: "during the Pilot Season",
                SEASON: "during a season's turns",
                SCORING: "when the season is scored",
                END_SCORING: "at the end of the game",
            }[phase]
            rule = RULE_PILOT if phase == PILOT else RULE_END if phase == END_SCORING else RULE_BASE
            raise IllegalCommand(f"{doing} only {when}; now: {self._phase_words(state)}", rule)

    @staticmethod
    def _phase_words(state: TellyTimeState) -> str:
        return {
            PILOT: "Pilot Season",
            SEASON: f"season {state.season}, {state.current}'s turn",
            SCORING: f"scoring season {state.season}",
            END_SCORING: "end-game scoring",
            OVER: "game over",
        }[state.phase]

    def _require_turn(self, state: TellyTimeState, player: str, doing: str) -> Network:
        network = state.network(player)
        self._require_phase(state, SEASON, doing)
        if network.passed is not None:
            raise IllegalCommand(f"{player} has passed this season", RULE_BASE)
        if state.current != player:
            raise IllegalCommand(f"it is {state.current}'s turn, not {player}'s", RULE_BASE)
        return network

    @staticmethod
    def _require_grid(network: Network) -> GenreGrid:
        if network.grid is None:
            raise IllegalCommand(
                f"{network.name} has no genre grid tile yet: choose the Pilot Season show first", RULE_PILOT
            )
        return network.grid

    def _check_pay(self, state: TellyTimeState, network: Network, cost_m: int, what: str) -> None:
        if cost_m > network.cash_m and not state.options["allow_negative_cash"]:
            raise InsufficientFunds(
                f"{network.name} has {money(network.cash_m)}, cannot pay {money(cost_m)} for {what}", RULE_BASE
            )

    def _genre(self, state: TellyTimeState, genre: Any) -> str:
        return canonical_genre(genre, state.genres)

    # pilot season
    def _choose_pilot(self, state: TellyTimeState, command: ChoosePilotShow) -> list[NewEvent]:
        network = state.network(command.player)
        self._require_phase(state, PILOT, "the Pilot Season show is placed")
        genre = self._genre(state, command.genre)
        timeslot = check_timeslot(command.timeslot)
        name = _text(command.name, "a show's name", required=False) or f"{genre} pilot"
        if network.grid is not None:
            raise IllegalCommand(
                f"{network.name} already has the {network.grid.squares[CENTRE]} tile; undo to change it", RULE_PILOT
            )
        taken = [n.name for n in state.networks if n.grid is not None and n.grid.squares[CENTRE] == genre]
        if taken:
            raise IllegalCommand(
                f"{taken[0]} already has the tile with {genre} in the centre (one tile per genre)", RULE_PILOT
            )
        self._check_kids(genre, timeslot, "a Kids show")
        tile = state.options["tiles"].get(genre)
        grid = grid_from_tile(genre, tile)
        return [
            NewEvent(
                PILOT_SHOW_CHOSEN,
                {
                    "player": network.name,
                    "genre": genre,
                    "name": name,
                    "timeslot": timeslot,
                    "tile": grid.layout_payload(),
                    "tile_entered": tile is not None,
                },
            )
        ]

    def _set_square(self, state: TellyTimeState, command: SetGridSquare) -> list[NewEvent]:
        network = state.network(command.player)
        self._require_open(state)
        grid = self._require_grid(network)
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
            events = [
                NewEvent(
                    GRID_SQUARE_SET,
                    {
                        "player": network.name,
                        "square": square,
                        "genre": genre,
                        "swapped_with": other,
                        "other_genre": grid.squares[square],
                    },
                )
            ]
            return events
        check_square_genre(grid, square, genre)
        return [NewEvent(GRID_SQUARE_SET, {"player": network.name, "square": square, "genre": genre})]

    def _set_bonus(self, state: TellyTimeState, command: SetLineBonus) -> list[NewEvent]:
        network = state.network(command.player)
        self._require_open(state)
        grid = self._require_grid(network)
        line_index(command.line)
        bonus = LineBonus.checked(command.label, command.cash_m, command.viewers)
        if command.line in grid.completed:
            raise IllegalCommand(
                f"the {LINE_NAMES[command.line]} is already completed and its bonus gained; undo to correct it",
                RULE_GRID,
            )
        return [NewEvent(LINE_BONUS_SET, {"player": network.name, "line": command.line, "bonus": bonus.to_payload()})]

    def _keep_cards(self, state: TellyTimeState, command: KeepPilotCards) -> list[NewEvent]:
        network = state.network(command.player)
        self._require_phase(state, PILOT, "Pilot Season stars and ads are kept")
        if network.pilot_cards:
            raise IllegalCommand(f"{network.name} has already kept 2 stars/ads; undo to change them", RULE_PILOT)
        cards = command.cards
        if not isinstance(cards, (tuple, list)) or len(cards) != 2 or not all(isinstance(c, PilotCard) for c in cards):
            raise IllegalCommand("each player keeps exactly 2 of the stars and ads dealt", RULE_PILOT)
        payload = []
        for card in cards:
            if card.kind not in ("star", "ad"):
                raise MalformedCommand(f"a Pilot Season card is a 'star' or an 'ad', not {card.kind!r}")
            payload.append(
                {
                    "kind": card.kind,
                    "name": _text(card.name, "a card's name", required=False),
                    "cash_m": check_whole(card.cash_m, "a card's cash bonus ($M)"),
                    "cost_m": check_whole(card.cost_m, "a card's cost ($M)"),
                }
            )
        net = sum(c["cash_m"] - c["cost_m"] for c in payload)
        if network.cash_m + net < 0 and not state.options["allow_negative_cash"]:
            raise InsufficientFunds(
                f"{network.name} has {money(network.cash_m)}; these cards would leave {money(network.cash_m + net)}",
                RULE_PILOT,
            )
        events = [NewEvent(PILOT_CARDS_KEPT, {"player": network.name, "cards": payload})]
        for card in payload:
            title = f"{card['kind']}{' ' + card['name'] if card['name'] else ''}"
            if card["cash_m"]:
                events.append(_cash(network.name, card["cash_m"], f"cash bonus of Pilot Season {title}", RULE_PILOT))
            if card["cost_m"]:
                events.append(_cash(network.name, -card["cost_m"], f"cost of Pilot Season {title}", RULE_PILOT))
        return events

    def _start_season(self, state: TellyTimeState, command: StartSeason) -> list[NewEvent]:
        self._require_phase(state, PILOT, "season 1 starts")
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
        first = state.options["first_player"] or state.names[0]
        start = state.names.index(first)
        order = state.names[start:] + state.names[:start]
        return [NewEvent(SEASON_STARTED, {"season": 1, "order": list(order)})]

    # turns
    def _end_turn(self, state: TellyTimeState, player: str, action: str, passing: bool = False) -> NewEvent:
        """The event ending ``player``'s turn: the next player who has not passed, or the season's scoring."""
        still_in = [n for n in state.order if state.network(n).passed is None and not (passing and n == player)]
        if not still_in:
            return NewEvent(SCORING_STARTED, {"season": state.season, "player": player, "action": action})
        position = state.order.index(player)
        for step in range(1, len(state.order) + 1):
            candidate = state.order[(position + step) % len(state.order)]
            if candidate in still_in:
                return NewEvent(TURN_ENDED, {"player": player, "action": action, "next": candidate})
        raise AssertionError("unreachable")

    def _check_kids(self, printed_genre: str, timeslot: str, what: str) -> None:
        if printed_genre == KIDS and timeslot in NO_KIDS_SLOTS:
            raise IllegalCommand(
                f"{what} can't go in {TIMESLOT_NAMES[timeslot].lower()} (Kids shows only in "
                f"8 PM or weekend), even using network cards",
                f"{RULE_GENRES}, Kids",
            )

    def _check_preferred(self, preferred: Any) -> tuple[str, ...]:
        if isinstance(preferred, str) or not isinstance(preferred, (tuple, list)):
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
    ) -> list[NewEvent]:
        """Events for a marker on ``genre``'s square (if empty) and the lines it completes."""
        grid = self._require_grid(network)
        square = grid.square_of(genre)
        if square is None:
            raise IllegalCommand(f"{network.name}'s tile has no {genre} square entered yet", RULE_GRID)
        if grid.filled[square]:
            return []
        events = [
            NewEvent(
                GRID_MARKER_PLACED,
                {"player": network.name, "square": square, "genre": genre, "reason": reason, "rule": rule},
            )
        ]
        lines = grid.lines_completed_by(square)
        if not lines:
            return events
        moguls = state.options["moguls"]
        if needs_mogul_choice(grid, lines, moguls):
            return events + [NewEvent(MOGUL_CHOICE_PENDING, {"player": network.name, "lines": list(lines)})]
        return events + self._line_events(grid, network.name, order_lines(grid, lines, moguls))

    @staticmethod
    def _line_events(grid: GenreGrid, player: str, ordered: list[tuple[str, bool]]) -> list[NewEvent]:
        events = []
        for number, (line, mogul) in enumerate(ordered, start=len(grid.completed) + 1):
            bonus = LineBonus() if mogul else grid.bonus(line)
            events.append(
                NewEvent(
                    LINE_COMPLETED,
                    {
                        "player": player,
                        "line": line,
                        "number": number,
                        "mogul": mogul,
                        "bonus": {"label": "Mogul bonus: draw 2 moguls, keep 1", "cash_m": 0, "viewers": 0}
                        if mogul
                        else bonus.to_payload(),
                        "rule": RULE_MOGUL if mogul else RULE_GRID,
                    },
                )
            )
        return events

    def _produce(self, state: TellyTimeState, command: ProduceShow) -> list[NewEvent]:
        network = self._require_turn(state, command.player, "shows are produced")
        genre = self._genre(state, command.genre)
        timeslot = check_timeslot(command.timeslot)
        name = _text(command.name, "a show's name", required=False) or f"{genre} show"
        preferred = self._check_preferred(command.preferred)
        cost = check_whole(command.cost_m, "a show's cost ($M)")
        self._check_kids(genre, timeslot, "a Kids show")
        self._check_pay(state, network, cost, name)
        replaced = network.show_in(timeslot)
        events = []
        if cost:
            events.append(_cash(network.name, -cost, f"producing {name}", RULE_BASE))
        show = Show(name, genre, genre, preferred)
        events.append(
            NewEvent(
                SHOW_PRODUCED,
                {
                    "player": network.name,
                    "timeslot": timeslot,
                    "show": show.to_payload(),
                    "replaced": replaced.name if replaced else None,
                },
            )
        )
        events += self._fill_events(state, network, genre, f"first {genre} show produced", RULE_GRID)
        events.append(self._end_turn(state, network.name, f"produced {name}"))
        return events

    def _take_action(self, state: TellyTimeState, command: TakeAction) -> list[NewEvent]:
        network = self._require_turn(state, command.player, "actions are taken")
        action = _text(command.action, "the action")
        amount = check_whole(command.cash_m, "the action's cash ($M)", minimum=None)
        events = []
        if amount < 0:
            self._check_pay(state, network, -amount, action)
        if amount:
            events.append(_cash(network.name, amount, action, RULE_BASE))
        events.append(self._end_turn(state, network.name, action))
        return events

    def _pass(self, state: TellyTimeState, command: Pass) -> list[NewEvent]:
        network = self._require_turn(state, command.player, "players pass")
        if command.reward not in ("cash", "viewers"):
            raise MalformedCommand(f"the pass track gives 'cash' or 'viewers', not {command.reward!r}")
        amount = check_whole(command.amount, "the pass track reward")
        if not isinstance(command.preempted, bool):
            raise MalformedCommand(f"preempted is true or false, not {command.preempted!r}")
        order = 1 + sum(1 for n in state.networks if n.passed is not None)
        grid = self._require_grid(network)
        events = [
            NewEvent(
                PASSED,
                {
                    "player": network.name,
                    "reward": command.reward,
                    "amount": amount,
                    "preempted": command.preempted,
                    "order": order,
                },
            )
        ]
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
    def _require_open(self, state: TellyTimeState) -> None:
        if state.phase == OVER:
            raise GameFinished("the game is over; undo to reopen it")

    def _place_marker(self, state: TellyTimeState, command: PlaceGridMarker) -> list[NewEvent]:
        network = state.network(command.player)
        self._require_open(state)
        grid = self._require_grid(network)
        genre = self._genre(state, command.genre)
        reason = _text(command.reason, "the reason")
        if grid.is_filled(genre):
            raise IllegalCommand(
                f"{network.name}'s {genre} square already has a marker; a filled genre never fills again",
                f"{RULE_GRID}; {RULE_CLARIFY}, Market Research",
            )
        return self._fill_events(state, network, genre, reason, f"{RULE_CLARIFY}, {reason}")

    def _move_show(self, state: TellyTimeState, command: MoveShow) -> list[NewEvent]:
        network = state.network(command.player)
        self._require_open(state)
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
        return [NewEvent(SHOW_MOVED, {"player": network.name, "from": source, "to": target, "reason": reason})]

    def _change_genre(self, state: TellyTimeState, command: ChangeShowGenre) -> list[NewEvent]:
        network = state.network(command.player)
        self._require_open(state)
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
        return [
            NewEvent(
                SHOW_GENRE_CHANGED, {"player": network.name, "timeslot": timeslot, "genre": genre, "reason": reason}
            )
        ]

    def _adjust_cash(self, state: TellyTimeState, command: AdjustCash) -> list[NewEvent]:
        network = state.network(command.player)
        self._require_open(state)
        amount = check_whole(command.amount_m, "an amount ($M)", minimum=None)
        if amount == 0:
            raise MalformedCommand("an amount of $0M changes nothing")
        reason = _text(command.reason, "the reason")
        if amount < 0:
            self._check_pay(state, network, -amount, reason)
        return [_cash(network.name, amount, reason, "entered at the table")]

    def _adjust_viewers(self, state: TellyTimeState, command: AdjustViewers) -> list[NewEvent]:
        network = state.network(command.player)
        self._require_open(state)
        viewers = check_whole(command.viewers, "viewers", minimum=None)
        if viewers == 0:
            raise MalformedCommand("0 viewers changes nothing")
        return [_viewers(network.name, viewers, _text(command.reason, "the reason"), "entered at the table")]

    # scoring
    def _score_lineup(self, state: TellyTimeState, command: ScoreLineup) -> list[NewEvent]:
        network = state.network(command.player)
        self._require_phase(state, SCORING, "lineups are scored")
        if network.scored:
            raise IllegalCommand(f"{network.name}'s lineup is already scored this season", RULE_BASE)
        scores = command.shows
        if (
            isinstance(scores, (str, bytes))
            or not isinstance(scores, (tuple, list))
            or not all(isinstance(s, ShowScore) for s in scores)
        ):
            raise MalformedCommand("a lineup score lists one ShowScore per show")
        occupied = [slot for slot in TIMESLOTS if network.show_in(slot) is not None]
        given = [check_timeslot(s.timeslot) for s in scores]
        if sorted(given, key=TIMESLOTS.index) != occupied:
            raise MalformedCommand(
                f"score each show once: {network.name} has shows in {', '.join(TIMESLOT_NAMES[s] for s in occupied)}"
            )
        for score in scores:
            show = network.show_in(score.timeslot)
            check_whole(score.viewers, f"{show.name}'s viewers")
            if isinstance(score.stars, (str, bytes)) or not isinstance(score.stars, (tuple, list)):
                raise MalformedCommand(f"{show.name}'s stars are a list of viewer values")
            for star in score.stars:
                check_whole(star, f"a star's viewers on {show.name}")
            check_whole(score.penalty, f"{show.name}'s timeslot penalty")
            check_whole(score.quiz_bought, f"{show.name}'s bought viewers", maximum=QUIZ_MAX_VIEWERS)
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
        if isinstance(others, (str, bytes)) or not isinstance(others, (tuple, list)):
            raise MalformedCommand("other viewers are (label, viewers) pairs")
        checked_others = []
        for pair in others:
            if not isinstance(pair, (tuple, list)) or len(pair) != 2:
                raise MalformedCommand(f"other viewers are (label, viewers) pairs, not {pair!r}")
            checked_others.append(
                [_text(pair[0], "a viewer entry's label", 40), check_whole(pair[1], "viewers", minimum=None)]
            )
        # each show, with Chat counting the stars on the *other* shows
        shows_payload, parts = [], []
        for score in sorted(scores, key=lambda s: TIMESLOTS.index(s.timeslot)):
            show = network.show_in(score.timeslot)
            others_stars = [v for s in scores if s is not score for v in s.stars]
            total, show_parts = show_breakdown(show, score, others_stars)
            shows_payload.append(
                {
                    "timeslot": score.timeslot,
                    "name": show.name,
                    "genre": show.genre,
                    "total": total,
                    "parts": show_parts,
                }
            )
            parts.append([show.name, total])
        grid = self._require_grid(network)
        if grid.filled_count:
            parts.append(
                [
                    f"genre grid ({count(grid.filled_count, 'filled square')})",
                    VIEWERS_PER_FILLED_SQUARE * grid.filled_count,
                ]
            )
        if network.passed is not None and network.passed.reward == "viewers" and network.passed.amount:
            label = "pass track" + (
                f" {network.passed.amount} × 2 Preempted Timeslot" if network.passed.preempted else ""
            )
            parts.append([label, network.passed.value])
        if command.variety_channel:
            reruns = [self._genre(state, g) for g in command.rerun_genres]
            genres = [network.show_in(s.timeslot).genre for s in scores] + reruns
            variety, counted = variety_channel_viewers(genres)
            parts.append([f"Variety Channel ({', '.join(counted) or 'no genre twice'})", variety])
        elif command.rerun_genres:
            raise MalformedCommand("rerun genres are only counted for Variety Channel")
        parts += checked_others
        total = sum(value for _, value in parts)
        events = []
        if income:
            events.append(_cash(network.name, income, f"season {state.season} income", RULE_BASE))
        if costs:
            events.append(_cash(network.name, -costs, f"season {state.season} costs", RULE_BASE))
        if quiz:
            events.append(
                _cash(
                    network.name,
                    -quiz,
                    f"{quiz // QUIZ_PRICE_M} Quiz bonus viewers at {money(QUIZ_PRICE_M)} each",
                    f"{RULE_GENRES}, Quiz",
                )
            )
        events.append(
            NewEvent(
                LINEUP_SCORED,
                {
                    "player": network.name,
                    "season": state.season,
                    "total": total,
                    "parts": parts,
                    "shows": shows_payload,
                    "rule": RULE_SQUARES,
                },
            )
        )
        if all(n.scored or n.name == network.name for n in state.networks):
            if state.season >= SEASONS:
                events.append(NewEvent(END_SCORING_STARTED, {"season": state.season}))
            else:
                events.append(
                    NewEvent(SEASON_STARTED, {"season": state.season + 1, "order": list(self._next_order(state))})
                )
        return events

    def _next_order(self, state: TellyTimeState) -> tuple[str, ...]:
        if state.options["turn_order"] == "seat":
            return state.order
        return tuple(sorted(state.order, key=lambda n: state.network(n).passed.order))

    def _score_end(self, state: TellyTimeState, command: ScoreEndGame) -> list[NewEvent]:
        network = state.network(command.player)
        self._require_phase(state, END_SCORING, "end-game bonuses are scored")
        if network.end_scored:
            raise IllegalCommand(f"{network.name}'s end-game bonuses are already scored", RULE_END)
        bonuses = command.bonuses
        if isinstance(bonuses, (str, bytes)) or not isinstance(bonuses, (tuple, list)):
            raise MalformedCommand("end-game bonuses are (row, viewers) pairs")
        parts = []
        for pair in bonuses:
            if not isinstance(pair, (tuple, list)) or len(pair) != 2:
                raise MalformedCommand(f"end-game bonuses are (row, viewers) pairs, not {pair!r}")
            row = _text(pair[0], "an end-game row", 40)
            if row.casefold() == GENRES_ROW.casefold():
                raise IllegalCommand("ignore the Genres row of the end-game viewer bonuses with Telly Time", RULE_END)
            parts.append([row, check_whole(pair[1], f"the {row} bonus", minimum=None)])
        events = [
            NewEvent(
                END_GAME_SCORED,
                {"player": network.name, "total": sum(v for _, v in parts), "parts": parts, "rule": RULE_END},
            )
        ]
        if all(n.end_scored or n.name == network.name for n in state.networks):
            final = {
                n.name: n.viewers + (events[0].payload["total"] if n.name == network.name else 0)
                for n in state.networks
            }
            best = max(final.values())
            events.append(
                NewEvent(GAME_OVER, {"viewers": final, "winners": [n for n in state.names if final[n] == best]})
            )
        return events

    def _choose_mogul_line(self, state: TellyTimeState, command: ChooseMogulLine) -> list[NewEvent]:
        pending = state.pending
        if command.player != pending.player:
            raise IllegalCommand(f"the choice is {pending.player}'s, not {command.player}'s", RULE_MOGUL)
        network = state.network(pending.player)
        if command.line not in pending.lines:
            line_index(command.line)
            raise IllegalCommand(
                f"choose one of the lines just completed: {', '.join(LINE_NAMES[l] for l in pending.lines)}", RULE_MOGUL
            )
        ordered = order_lines(network.grid, pending.lines, True, command.line)
        return self._line_events(network.grid, network.name, ordered)

    _HANDLERS: dict[type, Any] = {
        ChoosePilotShow: _choose_pilot,
        SetGridSquare: _set_square,
        SetLineBonus: _set_bonus,
        KeepPilotCards: _keep_cards,
        StartSeason: _start_season,
        ProduceShow: _produce,
        TakeAction: _take_action,
        Pass: _pass,
        PlaceGridMarker: _place_marker,
        MoveShow: _move_show,
        ChangeShowGenre: _change_genre,
        AdjustCash: _adjust_cash,
        AdjustViewers: _adjust_viewers,
        ScoreLineup: _score_lineup,
        ScoreEndGame: _score_end,
    }

    # -- evolve ----------------------------------------------------------------------------------------
    def evolve(self, state: TellyTimeState, event_type: str, payload: Mapping[str, Any]) -> TellyTimeState:
        """Fold one event into the state (pure; the event was checked when it was decided). Raises
        ``ValueError`` for an unknown event type."""

        def change(name: str, **fields: Any) -> TellyTimeState:
            return replace(state, networks=tuple(replace(n, **fields) if n.name == name else n for n in state.networks))

        def network() -> Network:
            return state.network(payload["player"])

        if event_type == CASH_CHANGED:
            return change(payload["player"], cash_m=network().cash_m + payload["amount_m"])
        if event_type == VIEWERS_CHANGED:
            return change(payload["player"], viewers=network().viewers + payload["viewers"])
        if event_type == PILOT_SHOW_CHOSEN:
            grid = grid_from_tile(payload["genre"], payload["tile"])
            show = Show(payload["name"], payload["genre"], payload["genre"], (payload["timeslot"],))
            lineup = tuple(show if slot == payload["timeslot"] else STARTER_SHOW for slot in TIMESLOTS)
            return change(payload["player"], grid=grid, pilot=show, lineup=lineup)
        if event_type == GRID_SQUARE_SET:
            grid = network().grid.with_square(payload["square"], payload["genre"])
            if "swapped_with" in payload:
                grid = grid.with_square(payload["swapped_with"], payload["other_genre"])
            return change(payload["player"], grid=grid)
        if event_type == LINE_BONUS_SET:
            grid = network().grid.with_bonus(payload["line"], LineBonus.from_payload(payload["bonus"]))
            return change(payload["player"], grid=grid)
        if event_type == PILOT_CARDS_KEPT:
            cards = tuple(PilotCard(c["kind"], c["name"], c["cash_m"], c["cost_m"]) for c in payload["cards"])
            return change(payload["player"], pilot_cards=cards)
        if event_type == SEASON_STARTED:
            order = tuple(payload["order"])
            networks = tuple(replace(n, passed=None, scored=False) for n in state.networks)
            return replace(
                state, networks=networks, phase=SEASON, season=payload["season"], order=order, current=order[0]
            )
        if event_type == SHOW_PRODUCED:
            index = TIMESLOTS.index(payload["timeslot"])
            lineup = list(network().lineup)
            lineup[index] = Show.from_payload(payload["show"])
            return change(payload["player"], lineup=tuple(lineup))
        if event_type == SHOW_MOVED:
            lineup = list(network().lineup)
            a, b = TIMESLOTS.index(payload["from"]), TIMESLOTS.index(payload["to"])
            lineup[a], lineup[b] = lineup[b], lineup[a]
            return change(payload["player"], lineup=tuple(lineup))
        if event_type == SHOW_GENRE_CHANGED:
            index = TIMESLOTS.index(payload["timeslot"])
            lineup = list(network().lineup)
            lineup[index] = replace(lineup[index], genre=payload["genre"])
            return change(payload["player"], lineup=tuple(lineup))
        if event_type == GRID_MARKER_PLACED:
            return change(payload["player"], grid=network().grid.with_marker(payload["square"]))
        if event_type == MOGUL_CHOICE_PENDING:
            return replace(state, pending=MogulChoice(payload["player"], tuple(payload["lines"])))
        if event_type == LINE_COMPLETED:
            current = network()
            bonus = payload["bonus"]
            state = change(
                payload["player"],
                grid=current.grid.with_completed(payload["line"]),
                cash_m=current.cash_m + bonus["cash_m"],
                viewers=current.viewers + bonus["viewers"],
            )
            if state.pending is not None and state.pending.player == payload["player"]:
                remaining = tuple(l for l in state.pending.lines if l != payload["line"])
                state = replace(state, pending=MogulChoice(state.pending.player, remaining) if remaining else None)
            return state
        if event_type == TURN_ENDED:
            return replace(state, current=payload["next"])
        if event_type == PASSED:
            choice = PassChoice(payload["reward"], payload["amount"], payload["preempted"], payload["order"])
            return change(payload["player"], passed=choice)
        if event_type == SCORING_STARTED:
            return replace(state, phase=SCORING, current=None)
        if event_type == LINEUP_SCORED:
            current = network()
            return change(payload["player"], scored=True, viewers=current.viewers + payload["total"])
        if event_type == END_SCORING_STARTED:
            return replace(state, phase=END_SCORING, current=None)
        if event_type == END_GAME_SCORED:
            current = network()
            return change(payload["player"], end_scored=True, viewers=current.viewers + payload["total"])
        if event_type == GAME_OVER:
            winners = payload["winners"]
            most = "has the most viewers" if len(winners) == 1 else "share the most viewers"
            return replace(
                state, phase=OVER, winners=tuple(winners), finished=True, end_reason=f"{and_join(winners)} {most}"
            )
        if event_type == GAME_ENDED:
            return replace(state, finished=True, end_reason=payload["reason"])
        raise ValueError(f"Telly Time cannot apply an event of type {event_type!r}")

    # -- describe / view ----------------------------------------------------------------------------------
    def describe(self, event_type: str, payload: Mapping[str, Any]) -> str:
        """One readable sentence per event (no final full stop: the screen joins several with "; "), e.g.
        ``"Arkady completes the middle column, the first line of the tile, and gains its bonus: Draw 2
        stars, sign 1 free (Telly Time: Your Genre Grid)"``. Squares are named by position ("the top-left
        square"), never by their index in the payload."""
        p = payload
        rule = f" ({p['rule']})" if p.get("rule") else ""
        if event_type == CASH_CHANGED:
            verb = "gains" if p["amount_m"] >= 0 else "pays"
            return f"{p['player']} {verb} {money(abs(p['amount_m']))}: {p['reason']}{rule}"
        if event_type == VIEWERS_CHANGED:
            verb = "scores" if p["viewers"] >= 0 else "loses"
            return f"{p['player']} {verb} {count(abs(p['viewers']), 'viewer')}: {p['reason']}{rule}"
        if event_type == PILOT_SHOW_CHOSEN:
            tile = (
                "its squares come from the set-up"
                if p.get("tile_entered")
                else "enter the genres of its other 8 squares"
            )
            return (
                f"{p['player']} places the Pilot Season show {p['name']} ({p['genre']}) in "
                f"{TIMESLOT_NAMES[p['timeslot']]} and takes the {p['genre']} tile with a marker on the centre; "
                f"{tile} ({RULE_PILOT})"
            )
        if event_type == GRID_SQUARE_SET:
            text = f"{p['player']}'s tile: {square_name(p['square'])} is {p['genre']}"
            if "swapped_with" in p:
                other = square_name(p["swapped_with"])
                text += (
                    f" and {other} is now {p['other_genre']} (the two swapped)"
                    if p["other_genre"]
                    else f", moved from {other}, which has no genre now"
                )
            return text
        if event_type == LINE_BONUS_SET:
            return (
                f"{p['player']}'s tile: the bonus at the end of the {LINE_NAMES[p['line']]} is "
                f"{LineBonus.from_payload(p['bonus']).describe()}"
            )
        if event_type == PILOT_CARDS_KEPT:
            cards = [
                f"{c['kind']} {c['name'] or ''}".strip() + f" (bonus {money(c['cash_m'])}, cost {money(c['cost_m'])})"
                for c in p["cards"]
            ]
            return f"{p['player']} keeps 2 Pilot Season cards: {and_join(cards)} ({RULE_PILOT})"
        if event_type == SEASON_STARTED:
            return f"Season {p['season']} begins; the turn order is {', '.join(p['order'])}"
        if event_type == SHOW_PRODUCED:
            show = Show.from_payload(p["show"])
            prefers = (
                "prefers ANY"
                if ANY in show.preferred
                else "prefers " + " or ".join(TIMESLOT_NAMES[s] for s in show.preferred)
                if show.preferred
                else "no preferred timeslot"
            )
            replaced = f", replacing {p['replaced']}" if p.get("replaced") else ""
            return (
                f"{p['player']} produces {show.name} ({show.genre}, {prefers}) in "
                f"{TIMESLOT_NAMES[p['timeslot']]}{replaced}"
            )
        if event_type == SHOW_MOVED:
            return (
                f"{p['player']} swaps the shows in {TIMESLOT_NAMES[p['from']]} and {TIMESLOT_NAMES[p['to']]} "
                f"({p['reason']})"
            )
        if event_type == SHOW_GENRE_CHANGED:
            return (
                f"{p['player']}'s {TIMESLOT_NAMES[p['timeslot']]} show becomes {p['genre']} without its show "
                f"effect ({p['reason']}, {RULE_CLARIFY})"
            )
        if event_type == GRID_MARKER_PLACED:
            return f"{p['player']} fills the {p['genre']} square ({SQUARE_NAMES[p['square']]}): {p['reason']}{rule}"
        if event_type == MOGUL_CHOICE_PENDING:
            lines = and_join([f"the {LINE_NAMES[l]}" for l in p["lines"]])
            return f"{p['player']} completes {lines} at once and chooses which one gives the mogul bonus ({RULE_MOGUL})"
        if event_type == LINE_COMPLETED:
            head = f"{p['player']} completes the {LINE_NAMES[p['line']]}, the {ordinal(p['number'])} line of the tile,"
            bonus = LineBonus.from_payload(p["bonus"])
            if p.get("mogul"):
                gains = "takes the mogul bonus instead of its printed bonus: draw 2 moguls, keep 1"
            elif bonus == LineBonus():
                gains = "gains the printed bonus"
            else:
                gains = f"gains its bonus: {bonus.describe()}"
            return f"{head} and {gains}{rule}"
        if event_type == TURN_ENDED:
            return f"{p['player']}'s turn is over ({p['action']}); it is {p['next']}'s turn"
        if event_type == PASSED:
            amount, value = p["amount"], p["amount"] * (2 if p["preempted"] else 1)
            if p["reward"] == "cash":
                shown, doubled = money(value), money(amount)
            else:
                shown, doubled = count(value, "viewer"), count(amount, "viewer")
            if not amount:
                takes = "takes nothing from the pass track"
            elif p["preempted"]:
                takes = f"takes {shown} from the pass track ({doubled} doubled by Preempted Timeslot)"
            else:
                takes = f"takes {shown} from the pass track"
            later = ", scored with the lineup" if p["reward"] == "viewers" and amount else ""
            return f"{p['player']} passes {ordinal(p['order'])} and {takes}{later}"
        if event_type == SCORING_STARTED:
            return f"Everyone has passed: score the lineups of season {p['season']}"
        if event_type == LINEUP_SCORED:
            text = (
                f"{p['player']} scores {count(p['total'], 'viewer')} in season {p['season']}: {_parts_text(p['parts'])}"
            )
            return "; ".join(
                [text]
                + [
                    f"{s['name']} scores {s['total']} = {_parts_text(s['parts'])}"
                    for s in p["shows"]
                    if len(s["parts"]) > 1
                ]
            )
        if event_type == END_SCORING_STARTED:
            return (
                f"Season {p['season']} was the last: score the end-game viewer bonuses without the Genres row "
                f"({RULE_END})"
            )
        if event_type == END_GAME_SCORED:
            if not p["parts"]:
                return f"{p['player']} scores no end-game bonuses{rule}"
            return (
                f"{p['player']} scores {count(p['total'], 'viewer')} of end-game bonuses: "
                f"{_parts_text(p['parts'])}{rule}"
            )
        if event_type == GAME_OVER:
            ranked = sorted(p["viewers"].items(), key=lambda kv: -kv[1])
            best = ranked[0][1]
            verb = "wins" if len(p["winners"]) == 1 else "share the win"
            standings = ", ".join(f"{n} {v}" for n, v in ranked)
            return f"Game over: {and_join(p['winners'])} {verb} with {best} viewers (final viewers: {standings})"
        if event_type == GAME_ENDED:
            return f"The game was ended at the table: {p['reason']}"
        return f"{event_type} {dict(payload)}"

    #: Events after which the journal is backed up (a season's end, the game's end).
    safe_point_events = (SEASON_STARTED, END_SCORING_STARTED, GAME_OVER, GAME_ENDED)

    #: The three player buttons (positions 1, 2, 3 of each seat).
    button_actions = ("on_the_air", "sponsor", "roll")
    #: Short labels of the buttons for this game.
    button_labels = {"on_the_air": "Turn done", "sponsor": "Cash +$1M", "roll": "Roll"}

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
        raise MalformedCommand(f"Telly Time has no button action {action!r}; actions: {', '.join(self.button_actions)}")

    def pending_dice(self, state: TellyTimeState) -> DiceRequest | None:
        """Always ``None``: The Networks uses no dice."""
        return None

    def is_finished(self, state: TellyTimeState) -> bool:
        """Whether the game is over (scored to the end, or ended at the table)."""
        return state.finished

    def status(self, state: TellyTimeState) -> str:
        """The status line, as a sentence: phase, season and whose turn or what is awaited."""
        if state.finished:
            return f"Game over: {state.end_reason}"
        if state.pending is not None:
            lines = and_join([f"the {LINE_NAMES[l]}" for l in state.pending.lines], "or")
            return f"{state.pending.player} chooses which line gives the mogul bonus: {lines} ({RULE_MOGUL})"
        if state.phase == PILOT:
            waiting = [n.name for n in state.networks if n.grid is None or not n.grid.entered or not n.pilot_cards]
            if not waiting:
                return "The Pilot Season is set up: start season 1"
            return f"Pilot Season: waiting for {and_join(waiting)} to set up (show, tile and 2 cards)"
        if state.phase == SEASON:
            return f"Season {state.season} of {SEASONS}: it is {state.current}'s turn"
        if state.phase == SCORING:
            waiting = [n.name for n in state.networks if not n.scored]
            return f"Season {state.season} is over: score the {noun(len(waiting), 'lineup')} of {and_join(waiting)}"
        waiting = [n.name for n in state.networks if not n.end_scored]
        return (
            f"Season {state.season} was the last: score the end-game bonuses of {and_join(waiting)} "
            f"without the Genres row"
        )

    def player_view(self, state: TellyTimeState, network: Network) -> PlayerView:
        """One player's public picture: tracks cash ($M), viewers and empty squares; headline cash;
        panel lines viewers and what passing now would pay ($1M per empty square)."""
        grid = network.grid
        empty = grid.empty_count if grid else SQUARES
        tracks = (
            Track("cash_m", "Cash ($M)", network.cash_m, None, None, RULE_BASE),
            Track("viewers", "Viewers", network.viewers, None, None, RULE_BASE),
            Track("empty_squares", "Empty squares", empty, 0, SQUARES, RULE_SQUARES),
        )
        badges = []
        if network.passed is not None:
            badges.append("Passed")
        if grid and grid.completed:
            badges.append(count(len(grid.completed), 'line'))
        if network.name in state.winners:
            badges.append("Winner")
        cash = f"-${-network.cash_m}M" if network.cash_m < 0 else f"${network.cash_m}M"  # panels: ASCII only
        return PlayerView(
            network.name,
            network.colour,
            None,
            tracks,
            tuple(badges),
            state.current == network.name and state.phase == SEASON,
            headline=cash,
            panel_lines=(
                f"{network.viewers} viewers - {empty} empty",
                f"Pass now: +${CASH_PER_EMPTY_SQUARE_M * empty}M",
            ),
        )

    def view(self, state: TellyTimeState) -> TableView:
        """The public picture (everything in The Networks is public): one PlayerView per player, the
        status line, and notes: genres that would complete a line now (for the solo opponent, "Solo
        Mode")."""
        notes = []
        for network in state.networks:
            if network.grid is not None and network.grid.entered:
                genres = network.grid.completing_genres()
                if genres:
                    notes.append(
                        f"{network.name} would complete a line with a {and_join(genres, 'or')} show (Solo Mode)"
                    )
        return TableView(
            self.title,
            tuple(self.player_view(state, n) for n in state.networks),
            None,
            self.status(state),
            state.finished,
            tuple(notes),
        )


TELLY_TIME = TellyTime()

__all__ = [
    "TELLY_TIME",
    "TellyTime",
    "TellyTimeState",
    "Network",
    "Show",
    "ShowScore",
    "PassChoice",
    "PilotCard",
    "MogulChoice",
    "GenreGrid",
    "LineBonus",
    "ChoosePilotShow",
    "SetGridSquare",
    "SetLineBonus",
    "KeepPilotCards",
    "StartSeason",
    "ProduceShow",
    "TakeAction",
    "Pass",
    "PlaceGridMarker",
    "MoveShow",
    "ChangeShowGenre",
    "AdjustCash",
    "AdjustViewers",
    "ScoreLineup",
    "ScoreEndGame",
    "ChooseMogulLine",
    "TIMESLOTS",
    "LINES",
    "LINE_IDS",
    "LINE_NAMES",
    "DEFAULT_GENRES",
    "money",
    "show_breakdown",
    "variety_channel_viewers",
]
