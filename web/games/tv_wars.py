"""TV Wars on a phone: the secret Prime Time Line-Up entry of a Ratings War (rules 6, 6.1, 6.2, 6.6, 9.1).

``seat_forms`` gives the seat's own program and bonus tiles with their secret values (its phone only), what it has
entered so far and why that entry would be refused now; ``form_command`` turns a submitted line-up into
:class:`~companion.games.tv_wars.war_at_table.EnterLineUp` (``"enter"``) or
:class:`~companion.games.tv_wars.war_at_table.LockLineUp` with the placements (``"lock"``: enter and lock in one
move, as the touchscreen's Lock in). Whether the line-up is legal is the table's to say.
"""

from __future__ import annotations

from typing import Any

from companion.commands import Command
from companion.errors import MalformedCommand
from companion.games.tv_wars.ratings_war import SLOTS
from companion.games.tv_wars.war_at_table import LINE_UPS, PROMOTION_PRICE, EnterLineUp, LockLineUp, war_active

#: Tiles in one submitted line-up, at most (a line-up has at most SLOTS programs, one bonus each).
MAX_PLACEMENTS = SLOTS
#: Characters of a tile id, at most.
MAX_ID = 12


def seat_forms(rules, state, seat: str) -> dict[str, Any]:
    """``{"lineup": {...}}`` while ``seat`` has a line-up to enter (a war's line-up phase, not locked in), else
    ``{}``. The line-up form: ``programs`` (``id``, ``length`` in half-hours, ``text`` with the secret rating),
    ``bonuses`` (``id``, ``text`` with the secret value), ``entered`` (its entry's lines), ``problem``,
    ``promotion``, ``promotion_price`` (dollars, 6.6) and ``slots`` (half-hours from 8:00 to 11:00)."""
    war = state.war
    if not war_active(war) or war.phase != LINE_UPS:
        return {}
    entry = next((e for e in war.entries if e.network == seat), None)
    if entry is None or entry.locked:
        return {}
    holdings = state.network(seat).holdings
    mine = rules.war_private_view(state, seat)
    return {
        "lineup": {
            "programs": [{"id": t.id, "length": t.length, "text": t.private_text} for t in holdings.programs],
            "bonuses": [{"id": t.id, "text": t.private_text} for t in holdings.bonuses],
            "entered": list(mine.lines),
            "problem": mine.problem,
            "promotion": mine.promotion,
            "promotion_price": PROMOTION_PRICE,
            "slots": SLOTS,
        }
    }


def _tile_id(value: Any, what: str) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= MAX_ID:
        raise MalformedCommand(f"{what} must be a tile id, not {value!r:.20}")
    return value


def form_command(seat: str, form: str, data: Any) -> Command:
    """The command of a submitted line-up form ``data`` = ``{"action": "enter" | "lock", "placements": [[program
    id, bonus id or null], ...] (from 8:00), "promotion": bool}``. Raises :class:`MalformedCommand`."""
    if form != "lineup" or not isinstance(data, dict):
        raise MalformedCommand("no such form")
    action, placements, promotion = data.get("action"), data.get("placements"), data.get("promotion", False)
    if action not in ("enter", "lock"):
        raise MalformedCommand("a line-up is entered or locked in")
    if not isinstance(placements, list) or not 0 < len(placements) <= MAX_PLACEMENTS:
        raise MalformedCommand(f"a line-up places 1 to {MAX_PLACEMENTS} programs from 8:00 (TV Wars 6.1)")
    if not isinstance(promotion, bool):
        raise MalformedCommand("promotion is true or false")
    checked = []
    for place in placements:
        if not isinstance(place, list) or len(place) != 2:
            raise MalformedCommand("each placement is a program and its bonus (or none)")
        program, bonus = place
        checked.append((_tile_id(program, "a program"), None if bonus is None else _tile_id(bonus, "a bonus")))
    kind = EnterLineUp if action == "enter" else LockLineUp
    return kind(network=seat, placements=tuple(checked), promotion=promotion, source="phone")
