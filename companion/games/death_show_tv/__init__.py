"""Death Show TV (rules in ``rules/death-show-tv.txt``): vitality, the shrinking island, and combat resolved
with its odds shown before the dice.

Scope: Setup (2-8 Contestants, Vitality 4 or agreed, the nine Locations in the printed 3×3 order, optional
Location rules as user-written notes), Starting the Game (first-player roll-off, ties re-roll), the Phases of
a Turn (draw; Move, Hunt or Fight; at most one Event; Discard down to 7 for everyone), Weapon levels, Combat
(How Combat Is Resolved, two-dice cards, Fumbles, Loot, Unarmed draws), Fighting an Event, Multiple Combat,
the Two-Player rule, Death and Elimination (the killer keeps the cards, killers roll off, other deaths
discard) and The Island Shrinks. Card identities are not tracked, only how many cards each Contestant holds.

Beyond the rulebook: each fighter's exact chance to win, lose or neither before the dice
(:func:`companion.games.death_show_tv.combat.odds`), and every total as a base plus named bonuses.

House rules and rulings: see :class:`DeathShowTv`, ``info.OPTIONS`` and ``docs/rulings-death-show-tv.md``.

Modules: ``info`` (static facts, house-rule options), ``state``, ``commands``, ``events`` (one class per
journal event type), ``rules`` (decide, evolve, legal commands, outcome), ``view`` (public and private views,
figures, status) and ``combat`` (totals and odds).
"""

from companion.games._lazy import lazy_exports

__getattr__, __dir__ = lazy_exports(__name__, ("rules", "state", "commands", "events", "view", "combat", "info"))
