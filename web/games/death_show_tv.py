"""Death Show TV on a phone: a fighter shows the cards they fight with (How Combat Is Resolved 1-2).

Nothing in Death Show TV is secret (its cards are shown face up when played), so the form carries only what the
fighter needs to fill it in: how many cards they hold, the Weapon level in play (Types of Show Cards: Weapons /
Rule Change) and whether they have a card to allow two dice. ``form_command`` turns a submitted form into the
same :class:`~companion.games.death_show_tv.commands.DeclareFighter` the touchscreen's dialog posts
(:func:`~companion.games.death_show_tv.commands.declaration`); whether it may be declared is the table's to say.
"""

from __future__ import annotations

from typing import Any

from companion.commands import Command
from companion.errors import MalformedCommand
from companion.games.death_show_tv.commands import declaration

#: The largest figure a form field takes (a Weapon's bonus, the cards' bonus, a card count): well beyond any card.
MAX_FIGURE = 20


def seat_forms(rules, state, seat: str) -> dict[str, Any]:
    """``{"declare": {...}}`` while ``seat`` is the fighter to show their cards now (How Combat Is Resolved 1),
    else ``{}``: ``cards`` held, ``weapon_level`` in play (1-3), ``against`` (the other fighters' names) and
    ``attacker`` (who started the Combat)."""
    combat = getattr(state, "combat", None)
    if combat is None:
        return {}
    fighter = combat.next_to_declare
    if fighter is None or fighter.name != seat:
        return {}
    return {
        "declare": {
            "cards": state.contestant(seat).cards,
            "weapon_level": state.weapon_level,
            "against": [f.name for f in combat.fighters if f.name != seat],
            "attacker": combat.attacker.name,
        }
    }


def _figure(data: dict, key: str, low: int, default: int = 0) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= MAX_FIGURE:
        raise MalformedCommand(f"{key} must be a whole number from {low} to {MAX_FIGURE}, not {value!r:.20}")
    return value


def form_command(seat: str, form: str, data: Any) -> Command:
    """The command of a submitted ``"declare"`` form ``data`` = ``{"weapon_bonus": int, "weapon_level": 1-3,
    "extra": int (may be negative), "extra_cards": int, "two_dice": bool}``. Raises :class:`MalformedCommand`."""
    if form != "declare" or not isinstance(data, dict):
        raise MalformedCommand("no such form")
    two_dice = data.get("two_dice", False)
    if not isinstance(two_dice, bool):
        raise MalformedCommand("two_dice is true or false")
    level = _figure(data, "weapon_level", 1, 1)
    if level > 3:
        raise MalformedCommand("a Weapon is of level 1, 2 or 3 (Types of Show Cards: Weapons)")
    return declaration(
        seat,
        _figure(data, "weapon_bonus", 0),
        level,
        _figure(data, "extra", -MAX_FIGURE),
        _figure(data, "extra_cards", 0),
        two_dice,
        source="phone",
    )
