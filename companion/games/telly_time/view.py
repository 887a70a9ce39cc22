"""What a Telly Time game shows: the status line, the public :class:`~companion.games.TableView` (everything
in The Networks is on the table), a seat's :class:`~companion.game.PrivateView` (nothing is secret, so it
is the seat's own holdings) and each seat's figures for the export.

Cash is in $M; panel text is plain ASCII (the panels' font), so it writes ``-$3M`` where the screen writes
``−$3M``.
"""

from __future__ import annotations

from companion.game import PrivateView
from companion.games import PlayerView, TableView
from companion.games.telly_time.grid import LINE_NAMES, RULE_MOGUL, RULE_SQUARES, SQUARES
from companion.games.telly_time.info import INFO
from companion.games.telly_time.state import (
    CASH_PER_EMPTY_SQUARE_M,
    PILOT,
    RULE_BASE,
    RULINGS,
    SCORING,
    SEASON,
    SEASONS,
    TIMESLOT_NAMES,
    TIMESLOTS,
    Network,
    TellyTimeState,
    money,
)
from companion.tracks import Track
from companion.words import and_join, count, noun, with_article


def ascii_money(amount_m: int) -> str:
    """``12`` → ``"$12M"``, ``-3`` → ``"-$3M"`` (ASCII, for the panels)."""
    return f"-${-amount_m}M" if amount_m < 0 else f"${amount_m}M"


def setup_step(network: Network) -> str:
    """What ``network`` does next to be set up for season 1 ("Telly Time Pilot Season"), as the board's
    buttons and grid say it: the Pilot show (it brings its tile), the tile's genres, or the 2 kept cards."""
    if network.grid is None:
        return "chooses the Pilot show (its genre brings the tile)"
    missing = sum(1 for genre in network.grid.squares if genre is None)
    if missing:
        return f"enters the tile: tap a ? square ({count(missing, 'genre')} to enter)"
    return "keeps 2 cards (Keep 2 cards)"


def status(state: TellyTimeState) -> str:
    """The status line, as a sentence: phase, season and whose turn or what is awaited."""
    if state.finished:
        return f"Game over: {state.end_reason}"
    if state.pending is not None:
        lines = and_join([f"the {LINE_NAMES[line]}" for line in state.pending.lines], "or")
        return f"{state.pending.player} chooses which line gives the mogul bonus: {lines} ({RULE_MOGUL})"
    if state.phase == PILOT:
        unset = [n for n in state.networks if n.grid is None or not n.grid.entered or not n.pilot_cards]
        if not unset:
            return "The Pilot Season is set up: start season 1"
        first, then = unset[0], [n.name for n in unset[1:]]
        return f"Pilot Season: {first.name} {setup_step(first)}" + (f"; then {and_join(then)}" if then else "")
    if state.phase == SEASON:
        return f"Season {state.season} of {SEASONS}: it is {state.current}'s turn"
    if state.phase == SCORING:
        waiting = [n.name for n in state.networks if not n.scored]
        return f"Season {state.season} is over: score the {noun(len(waiting), 'lineup')} of {and_join(waiting)}"
    waiting = [n.name for n in state.networks if not n.end_scored]
    return (
        f"Season {state.season} was the last: score the end-game bonuses of {and_join(waiting)} without the Genres row"
    )


def player_view(state: TellyTimeState, network: Network) -> PlayerView:
    """One player's public picture: tracks cash ($M), viewers and empty squares; headline cash; panel
    lines viewers and what passing now would pay ($1M per empty square)."""
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
        badges.append(count(len(grid.completed), "line"))
    if network.name in state.winners:
        badges.append("Winner")
    return PlayerView(
        network.name,
        network.colour,
        None,
        tracks,
        tuple(badges),
        state.current == network.name and state.phase == SEASON,
        headline=ascii_money(network.cash_m),
        panel_lines=(
            f"{network.viewers} viewers - {empty} empty",
            f"Pass now: +${CASH_PER_EMPTY_SQUARE_M * empty}M",
        ),
    )


def public_view(state: TellyTimeState) -> TableView:
    """The public picture (everything in The Networks is public): one PlayerView per player, the status
    line, and notes: genres that would complete a line now (for the solo opponent, "Solo Mode")."""
    notes = []
    for network in state.networks:
        if network.grid is not None and network.grid.entered:
            genres = network.grid.completing_genres()
            if genres:
                show = with_article(and_join(genres, "or"))
                notes.append(f"{network.name} would complete a line with {show} show (Solo Mode)")
    return TableView(
        INFO.title,
        tuple(player_view(state, n) for n in state.networks),
        None,
        status(state),
        state.finished,
        tuple(notes),
    )


def private_view(state: TellyTimeState, seat: str) -> PrivateView:
    """What only ``seat`` sees: nothing in The Networks is secret (every show, star, ad and grid is on the
    table; ruling 22 of docs/rulings-telly-time.md), so it says so and lists the seat's own holdings:
    ``lines`` (≤ 21 ASCII characters each, for a panel's peek) and ``items``: the kept Pilot Season cards,
    the show in each timeslot and the grid. Raises ``MalformedCommand`` for a seat that is not playing."""
    network = state.network(seat)
    grid = network.grid
    filled = grid.filled_count if grid else 0
    lines_done = len(grid.completed) if grid else 0
    lines = (
        "Nothing is secret",
        f"Cash {ascii_money(network.cash_m)}"[:21],
        f"{network.viewers} viewers"[:21],
        f"{filled} filled, {count(lines_done, 'line')}"[:21],
    )
    items: list[tuple[str, str]] = [("Secret", f"nothing: everything in The Networks is public ({RULINGS} #22)")]
    for card in network.pilot_cards:
        title = f"{card.kind} {card.name}".strip()
        items.append(("Pilot Season card", f"{title}: bonus {money(card.cash_m)}, cost {money(card.cost_m)}"))
    for slot in TIMESLOTS:
        show = network.show_in(slot)
        if show is not None:
            items.append((TIMESLOT_NAMES[slot], f"{show.name} ({show.genre})" if show.genre else show.name))
    if grid is not None:
        done = ", ".join(LINE_NAMES[line] for line in grid.completed) or "none"
        items.append(("Genre grid", f"{filled} filled, {grid.empty_count} empty; lines: {done}"))
    return PrivateView(seat, lines, tuple(items))


#: The export's columns (:func:`figures`), in order.
FIGURES = ("cash_m", "viewers", "filled_squares", "lines")


def figures(state: TellyTimeState) -> dict[str, dict[str, int | str]]:
    """Each player's figures now, in seat order: ``cash_m`` ($M), ``viewers``, ``filled_squares`` (0-9,
    markers on the genre grid) and ``lines`` (lines of the grid completed)."""
    return {
        n.name: {
            "cash_m": n.cash_m,
            "viewers": n.viewers,
            "filled_squares": n.grid.filled_count if n.grid else 0,
            "lines": len(n.grid.completed) if n.grid else 0,
        }
        for n in state.networks
    }
