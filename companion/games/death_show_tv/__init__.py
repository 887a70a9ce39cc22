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

House rules and rulings: see :class:`DeathShowTv` and ``docs/rulings-death-show-tv.md``.
"""

from companion.games.death_show_tv.combat import Chances, FighterDice, Part, odds, resolve
from companion.games.death_show_tv.commands import (
    AdjustBonus,
    AdjustHand,
    Confirm,
    DeclareFighter,
    Discard,
    DrawCard,
    EndTurn,
    Fight,
    Heal,
    Hunt,
    Move,
    NewWeaponLevel,
    PlayEvent,
    RemoveLocation,
    Wound,
)
from companion.games.death_show_tv.rules import DEATH_SHOW_TV, DeathShowTv
from companion.games.death_show_tv.state import (
    HAND_LIMIT,
    LOCATIONS,
    Combat,
    Contestant,
    DeathShowState,
    Fighter,
    Location,
)

__all__ = [
    "DEATH_SHOW_TV",
    "DeathShowTv",
    "DeathShowState",
    "Contestant",
    "Location",
    "Combat",
    "Fighter",
    "LOCATIONS",
    "HAND_LIMIT",
    "Chances",
    "FighterDice",
    "Part",
    "odds",
    "resolve",
    "AdjustBonus",
    "AdjustHand",
    "Confirm",
    "DeclareFighter",
    "Discard",
    "DrawCard",
    "EndTurn",
    "Fight",
    "Heal",
    "Hunt",
    "Move",
    "NewWeaponLevel",
    "PlayEvent",
    "RemoveLocation",
    "Wound",
]
