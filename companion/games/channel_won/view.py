"""Channel WON views: the public picture of the table (every figure of Channel WON is public), a reporter's
own view, the figures per reporter, and the words and lines the screens show (breakdowns, results, stars)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.game import PrivateView
from companion.games import PlayerView, TableView
from companion.games.channel_won.cards import character
from companion.games.channel_won.info import INFO
from companion.games.channel_won.state import (
    HAND_LIMIT,
    KIND_WORDS,
    R_PHASE1,
    R_PREPPING,
    R_SCOOPS,
    R_SETUP,
    ROUNDS,
    STARS,
    TILES,
    ChannelWonState,
    RoundScoring,
)
from companion.tracks import Track
from companion.words import and_join, count, verb


def format_points(points: int) -> str:
    """``+2`` / ``-1`` / ``0`` as signed text."""
    return f"{points:+d}" if points else "0"


def format_breakdown(value: int, parts: Sequence[Sequence[Any]]) -> str:
    """``"1 = 2 Coach - 1 Business bonus"`` (``"0 = nothing played"`` with no parts)."""
    if not parts:
        return f"{value} = nothing played"
    text = ""
    for i, (label, points) in enumerate(parts):
        if i == 0:
            text = f"{points} {label}"
        else:
            text += f" {'-' if points < 0 else '+'} {abs(points)} {label}"
    return f"{value} = {text}"


def result_lines(scoring: RoundScoring) -> list[tuple[str, str, str]]:
    """The latest scored round for the screen, one Lead a line: ``(category, value, words)`` such as
    ``("Sports", "1", "2 Coach - 1 Business bonus. Reported: Ava 0 → 1, Ben 0 → 1")``, then the stars and
    the next round's order (or the game's end) as ``("Stars", "2", ...)`` and ``("Next", "", ...)``."""
    lines = []
    for lead in scoring.leads:
        parts = format_breakdown(lead.value, lead.parts).split(" = ", 1)[1]
        if lead.reported:
            verdict = "Reported"
        else:
            verdict = f"Unreported ({lead.why}): -1 star"
        if lead.moves:
            moved = ", ".join(
                f"{name} {before} → {after}" + (" (never below 0)" if floored else "")
                for name, before, after, floored in lead.moves
            )
        elif lead.contributors:
            moved = f"{and_join(lead.contributors)} {verb(len(lead.contributors), 'scores', 'score')} nothing" + (
                f" ({lead.unscored})" if lead.unscored and lead.unscored != lead.why else ""
            )
        else:
            moved = "no reporters"
        lines.append((lead.category, str(lead.value), f"{parts}. {verdict}{': ' if lead.reported else '; '}{moved}"))
    lost = len(scoring.stars_lost)
    lines.append(
        (
            "Stars",
            str(max(scoring.stars, 0)),
            f"{scoring.stars_before} → {max(scoring.stars, 0)} of {STARS}: "
            + (f"{count(lost, 'unreported Lead')}, one star each" if lost else "every Lead reported"),
        )
    )
    if scoring.outcome:
        lines.append(("Game over", "", scoring.outcome))
    elif scoring.next_order:
        lines.append(
            (
                f"Round {scoring.round + 1}",
                "",
                "Order: " + ", ".join(scoring.next_order) + f" ({scoring.next_order[0]} first: fewest points)",
            )
        )
    return lines


def stars_text(stars: int) -> str:
    """``"★★★☆☆"`` for 3 of 5 stars."""
    shown = max(0, min(STARS, stars))
    return "★" * shown + "☆" * (STARS - shown)


def warning(state: ChannelWonState) -> str:
    """The early Channel None warning, or ``""``: ``"CHANNEL NONE RISK: 5 Leads at risk"`` when the Leads
    unreported now would take the rating below one star if the round ended now, ``"Warning: 4 Leads at
    risk"`` when they would leave exactly one (Network Ratings)."""
    if state.finished or state.phase != 2:
        return ""
    at_risk = len(state.at_risk)
    left = state.stars - at_risk
    if left < 1:
        return f"CHANNEL NONE RISK: {count(at_risk, 'Lead')} at risk"
    if left == 1:
        return f"Warning: {count(at_risk, 'Lead')} at risk"
    return ""


def deck_notices(state: ChannelWonState) -> list[str]:
    """What the table must do about an empty deck, one line each (``[]`` when nothing): a Location or Source
    deck empty with discards, ``"Location deck empty: reshuffle the 5 discards (rule: ...)"``
    (the companion records the reshuffle when the next card is taken from it); empty without discards, take
    from the face-up row only; the Inside Scoop deck empty: its discards are not shuffled back."""
    if state.finished:
        return []
    piles = state.piles
    lines = []
    for kind in ("location", "source"):
        word = KIND_WORDS[kind]
        if piles.deck(kind) > 0:
            continue
        if piles.discard(kind) > 0:
            lines.append(
                f"{word} deck empty: reshuffle the {count(piles.discard(kind), 'discard')} "
                f"(rule: {R_PREPPING}; ruling Decks)"
            )
        elif state.phase == 1 and piles.row(kind) > 0:
            lines.append(f"{word} deck empty, no discards: take from the face-up row ({piles.row(kind)} left)")
        elif state.phase == 1:
            lines.append(f"No {word} cards left to collect this round ({R_PHASE1})")
    if piles.scoop_deck == 0 and state.phase == 1:
        lines.append(f"Inside Scoop deck empty: its discards are not shuffled back into the game ({R_SCOOPS})")
    return lines


def piles_text(state: ChannelWonState) -> str:
    """``"Decks: Sources 19 + 5 face up, Locations 7 + 5 face up, Inside Scoops 24 (0 discarded)"``."""
    piles = state.piles
    return (
        f"Decks: Sources {piles.source_deck} + {piles.source_row} face up, Locations {piles.location_deck} + "
        f"{piles.location_row} face up, Inside Scoops {piles.scoop_deck} ({piles.scoop_discard} discarded)"
    )


def status(state: ChannelWonState) -> str:
    """The status line: the result, or the round, phase and whose turn it is, plus any warning."""
    if state.finished:
        return f"Game over: {state.end_reason}"
    phase = "Phase 1: collect" if state.phase == 1 else "Phase 2: report"
    text = f"Round {state.round}/{ROUNDS} · {phase} · {state.turn}'s turn · {state.stars}/{STARS} stars"
    alert = warning(state)
    return f"{text} · {alert}" if alert else text


def public_view(state: ChannelWonState) -> TableView:
    """The public picture: all of Channel WON is public (scores, the Lineup, tokens, hand counts)."""
    players = []
    for reporter in state.reporters:
        at_risk = [lead.category for lead in state.leads_of(reporter.name) if not lead.reported]
        tracks = (
            Track("score", "Points", reporter.score, 0, None, rule="Channel WON End of Round"),
            Track("tiles", "Reporter Tiles", state.tiles_left(reporter.name), 0, TILES, rule=R_SETUP),
            Track("hand", "Cards", reporter.hand, 0, HAND_LIMIT, rule=R_PHASE1),
        )
        badges = []
        if reporter.passed:
            badges.append("Passed")
        if reporter.done:
            badges.append("Done")
        badges.append("Ability used" if reporter.ability_used else "Ability ready")
        if reporter.name in state.winners:
            badges.append("Winner" if state.result == "won" else "Co-anchor")
        # panel text is plain ASCII (the panels' font has no symbols)
        token = "done" if reporter.done else ("paused" if reporter.passed else "play")
        lines = (
            f"Tiles {state.tiles_left(reporter.name)} | Pass {token}",
            ("Risk: " + " ".join(at_risk)) if at_risk and state.phase == 2 else f"Hand {reporter.hand}/{HAND_LIMIT}",
        )
        players.append(
            PlayerView(
                reporter.name,
                reporter.colour,
                None,
                tracks,
                tuple(badges),
                reporter.name == state.turn,
                f"{reporter.score} pts",
                lines,
            )
        )
    notes = deck_notices(state) + [f"Network Rating {state.stars} of {STARS} stars", piles_text(state)]
    for lead in state.lineup:
        state_word = "closed" if lead.closed else "open"
        who = ", ".join(lead.contributors) or "no reporters"
        notes.append(f"{lead.category}: {state_word}, {format_breakdown(lead.value, lead.breakdown())}; {who}")
    alert = warning(state)
    if alert:
        notes.insert(0, alert)
    return TableView(INFO.title, tuple(players), None, status(state), state.finished, tuple(notes))


def private_view(state: ChannelWonState, seat: str) -> PrivateView:
    """What ``seat``'s own panel and phone show: the cards in their hand (the companion tracks how many, not
    which: Phase 1, the hand limit of seven), their Reporter Tiles left, the Leads they report on and their
    Character's once-per-game Reporter Power (Character Abilities). Raises :class:`MalformedCommand` for
    an unknown seat."""
    reporter = state.reporter(seat)
    card = character(reporter.character) if reporter.character else None
    tiles = state.tiles_left(seat)
    leads = ", ".join(lead.category for lead in state.leads_of(seat)) or "none"
    power = "used" if reporter.ability_used else "ready"
    items = [
        ("Cards in hand", f"{reporter.hand} of {HAND_LIMIT}"),
        ("Cards by kind", reporter.kinds_text()),
        ("Reporter Tiles", f"{tiles} of {TILES} left"),
        ("Reporting on", leads),
        ("Pass Token", "done" if reporter.done else ("pause" if reporter.passed else "play")),
        ("Character", reporter.character or "not said"),
        ("Reporter Power", f"{power}: {card.power}" if card and card.power else power),
    ]
    lines = (f"Hand {reporter.hand}/{HAND_LIMIT} cards", f"Tiles {tiles}/{TILES} Power {power}")
    return PrivateView(seat, lines, tuple(items))


def figures(state: ChannelWonState) -> dict[str, dict[str, int | str]]:
    """Each reporter's figures now, in seat order: ``points`` (Score Track), ``reporter_tiles`` left this
    round (of three), ``cards`` in hand (of seven), ``leads`` reported on this round, ``pass_token``
    (``play``, ``pause`` or ``done``) and ``power`` (``ready`` or ``used``); plus the network's ``stars``."""
    return {
        r.name: {
            "points": r.score,
            "reporter_tiles": state.tiles_left(r.name),
            "cards": r.hand,
            "leads": len(state.leads_of(r.name)),
            "pass_token": "done" if r.done else ("pause" if r.passed else "play"),
            "power": "used" if r.ability_used else "ready",
            "stars": state.stars,
        }
        for r in state.reporters
    }
