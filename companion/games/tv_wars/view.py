"""TV Wars: what the shared screen and the players' OLED panels show (public facts only, TV Wars 9.1), and
the owner's private peek. Pure helpers, no widgets: the board (``ui/games/tv_wars/board.py``) and
:meth:`TvWars.public_view <companion.games.tv_wars.rules.TvWars.public_view>` both use them.

Panel text is plain ASCII (the panels' font has no symbols). A network's panel shows its cash as the big
figure (``PlayerView.headline``, ``"$31,000"``) and under it (``PlayerView.panel_lines``) its programming at a
glance (``"20hh S6 A5 D5 O4"``) and its bonus tile counts (``"2 Star 1 Emmy"``), or, while its programming is
still a hand-kept count, ``"20 half-hours"``.
"""

from __future__ import annotations

from collections import Counter

from companion.games.tv_wars.bank import format_dollars
from companion.games.tv_wars.holdings import BonusTile, Holdings, ProgramTile

#: The tiles' colours on screen (3: green Situation Comedy, red Action/Adventure, blue Drama, yellow Other).
TYPE_COLOURS = {"green": "#66bb6a", "red": "#ef5350", "blue": "#42a5f5", "yellow": "#ffee58"}
#: One-letter type codes for the panels (plain ASCII) and the cards.
TYPE_LETTERS = {"green": "S", "red": "A", "blue": "D", "yellow": "O"}
SPECIAL_KINDS = {"movie": "Mv", "super_bowl": "SB", "preemption": "Pre"}
SHORT_BONUS = {"Star": "Star", "Emmy": "Emmy", "Critics' Choice": "CC", "Viewers' Views": "VV"}
#: The short badge a panel's header shows for Best Network News (2.5).
BNN_BADGE = "BNN"


def type_counts(holdings: Holdings) -> list[tuple[str, int]]:
    """Public (9.1) half-hours per kind, in a fixed order: ``[("green", 6), ("red", 5), ..., ("movie", 4)]``
    (colours for conventional programs and Specials, then ``movie``, ``super_bowl``, ``preemption``)."""
    totals: Counter = Counter()
    for tile in holdings.programs:
        totals[tile.colour if tile.kind in ("program", "special") else tile.kind] += tile.length
    order = list(TYPE_COLOURS) + list(SPECIAL_KINDS)
    return [(kind, totals[kind]) for kind in order if totals[kind]]


def bonus_text(holdings: Holdings) -> str:
    """Public bonus tile counts (9.1), short: ``"2 Star 1 Emmy 1 CC"`` (values stay secret)."""
    return " ".join(f"{count} {SHORT_BONUS[label]}" for label, count in holdings.bonus_counts().items())


def panel_lines(holdings: Holdings, half_hours: int) -> tuple[str, ...]:
    """The lines under the cash on a network's panel (public, 9.1): once its tiles are tracked, its
    programming at a glance (``"20hh S6 A5 D5 O4"``) and its bonus tile counts if any; before that its
    hand-kept ``"20 half-hours"``."""
    if not holdings.tracked:
        return (f"{half_hours} half-hours",)
    mix = " ".join(
        f"{TYPE_LETTERS.get(kind, SPECIAL_KINDS.get(kind, kind))}{count if kind != 'preemption' else ''}"
        for kind, count in type_counts(holdings)
    )
    lines = [f"{holdings.half_hours}hh {mix}".strip()]
    bonuses = bonus_text(holdings)
    if bonuses:
        lines.append(bonuses)
    return tuple(lines)


def headline(cash: int) -> str:
    """A network's big panel figure: its cash, ``"$31,000"`` (ASCII minus for a debt)."""
    return format_dollars(cash).replace("\u2212", "-")


def tile_code(tile: ProgramTile) -> str:
    """A program's secret value in a few ASCII characters for the owner's panel: ``"D70"`` (Drama, 70 RP),
    ``"OSp"`` (a Special of type Other), ``"Mv100"``, ``"SB"``, ``"Pre"``."""
    if tile.kind == "movie":
        return "Mv100"
    if tile.kind in ("super_bowl", "preemption"):
        return SPECIAL_KINDS[tile.kind]
    return f"{TYPE_LETTERS[str(tile.colour)]}{'Sp' if tile.kind == 'special' else tile.rating}"


def owner_tile_label(tile: ProgramTile | BonusTile) -> str:
    """A tile as its owner's panel and the owner's line-up form both name it (9.1, issue 18: the same label in
    both places): ``"P3 A50"`` (id, type letter, rating in RP), ``"P9 OSp"`` (a Special), ``"M2 Mv100"``;
    a bonus tile ``"S1 Star 30"``, ``"CC2 CC -31"`` (value in RP). Plain ASCII."""
    if isinstance(tile, BonusTile):
        value = f"{tile.value:+d}" if tile.kind in ("critics_choice", "viewers_views") else f"{tile.value}"
        return f"{tile.id} {SHORT_BONUS[tile.label]} {value}"
    return f"{tile.id} {tile_code(tile)}"


#: Letters in a line of a private panel page (hardware.panels.render_private_pages: 7 px a letter on 128 px).
PEEK_LETTERS = 17


def peek_lines(holdings: Holdings) -> list[str]:
    """The owner's private figures for a peek (9.1), compact ASCII for a 128×64 panel, each tile named as on the
    owner's line-up form (:func:`owner_tile_label`, issue 18: P3 and P4 told apart): programs by length, as many
    to a line of :data:`PEEK_LETTERS` letters as fit (``"30: P2 S40 P3 A50"``, then ``"    P4 A60"``), then the
    bonus tiles (``"S1 Star 30"``). The panel shows them three lines a page, page after page."""
    if not holdings.tracked:
        return ["No tiles entered yet (TV Wars 2.3)"]
    by_length: dict[int, list[str]] = {}
    for tile in holdings.programs:
        by_length.setdefault(tile.length, []).append(owner_tile_label(tile))
    lines = [line for length, labels in sorted(by_length.items()) for line in _filled(f"{length * 30}:", labels)]
    lines += _filled("", [owner_tile_label(t) for t in holdings.bonuses])
    return lines or ["No programs"]


def _filled(head: str, labels: list[str]) -> list[str]:
    """``labels`` as few lines of at most :data:`PEEK_LETTERS` letters as they fit in, the first after ``head``
    (a label is never split between lines)."""
    lines: list[str] = []
    line, count = head, 0
    for label in labels:
        if count and len(line) + 1 + len(label) > PEEK_LETTERS:
            lines.append(line)
            line, count = "", 0
        line, count = f"{line} {label}".strip(), count + 1
    if count:
        lines.append(line)
    return lines
