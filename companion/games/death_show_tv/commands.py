"""Death Show TV commands: what a Contestant (through a seat button, a tap or the CLI) asks the table to do.

Each is a frozen keyword-only dataclass (its ``repr`` is valid Python). Rule references are to
``rules/death-show-tv.txt``. Rolls are answered with the generic :class:`companion.commands.AnswerDice`
(or :class:`~companion.commands.RollDice`).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.commands import Command


@dataclass(frozen=True, kw_only=True)
class DrawCard(Command):
    """``player`` draws the turn's Show card (Phases of a Turn 1): one more card in hand, then the Action
    Phase. Only the player whose turn it is, in the Draw Phase."""

    player: str


@dataclass(frozen=True, kw_only=True)
class NewWeaponLevel(Command):
    """``player`` drew the Rule Change "New Weapon Level Activated" (Types of Show Cards: Rule Change):
    Weapons one level higher may be used by everyone from now on. The Rule Change is played at once and
    replaced by a fresh draw, so the hand count does not change. Refused at level 3."""

    player: str


@dataclass(frozen=True, kw_only=True)
class Move(Command):
    """Action Move (Phases of a Turn 2): ``player`` goes to ``location``, which must be on the island, not
    occupied by another Contestant and not the one ``player`` stands on."""

    player: str
    location: str


@dataclass(frozen=True, kw_only=True)
class Hunt(Command):
    """Action Hunt (Phases of a Turn 2): ``player`` plays a Trail (one card leaves the hand), moves to the
    occupied ``location`` and attacks every Contestant there (Combat Rules)."""

    player: str
    location: str


@dataclass(frozen=True, kw_only=True)
class Fight(Command):
    """Action Fight (Phases of a Turn 2): ``player`` attacks the Contestants on their own Location."""

    player: str


@dataclass(frozen=True, kw_only=True)
class PlayEvent(Command):
    """``player`` plays one Event card called ``card`` in their Event Phase (Phases of a Turn 3). With a
    ``combat_value`` (the card's fixed "Combat +N") the card attacks the ``targets`` (Fighting an Event;
    several targets must share a Location, Multiple Combat); without, it is only discarded (its other
    effects are entered as separate commands)."""

    player: str
    card: str
    combat_value: int | None = None
    targets: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class DeclareFighter(Command):
    """``fighter`` shows the cards they fight with (How Combat Is Resolved 1-2): one Weapon (``weapon``,
    ``weapon_bonus``, ``weapon_level``; the default is Unarmed, +0 of level 1) and any number of Equipment /
    Unexpected Twist ``bonuses`` as ``(name, value)`` pairs; ``dice`` is 2 when a card allows two dice.
    ``cards_spent`` is how many cards leave the hand (``None``: every card shown)."""

    fighter: str
    weapon: str = "Unarmed"
    weapon_bonus: int = 0
    weapon_level: int = 1
    bonuses: tuple[tuple[str, int], ...] = ()
    dice: int = 1
    cards_spent: int | None = None


def declaration(
    fighter: str,
    weapon_bonus: int = 0,
    weapon_level: int = 1,
    extra: int = 0,
    extra_cards: int = 0,
    two_dice: bool = False,
    source: str = "touch",
) -> DeclareFighter:
    """The :class:`DeclareFighter` of what a fighter shows, as the touchscreen's and the phone's forms take it
    (How Combat Is Resolved 1-2): a Weapon of ``weapon_bonus`` and ``weapon_level`` (+0 of level 1 is Unarmed),
    Equipment / Unexpected Twist cards worth ``extra`` in all from ``extra_cards`` cards (the total shared out
    among them; with no card count a non-zero ``extra`` is one card) and ``two_dice`` when a card allows them.
    Whether it may be declared (cards held, the Weapon level active) is the rules' to say."""
    bonuses: list[tuple[str, int]] = []
    if extra_cards:
        share, rest = divmod(extra, extra_cards)
        bonuses = [(f"Card {i + 1}", share + (1 if i < rest else 0)) for i in range(extra_cards)]
    elif extra:
        bonuses = [("Card", extra)]
    armed = weapon_bonus > 0 or weapon_level > 1
    return DeclareFighter(
        fighter=fighter,
        weapon="Weapon" if armed else "Unarmed",
        weapon_bonus=weapon_bonus if armed else 0,
        weapon_level=weapon_level if armed else 1,
        bonuses=tuple(bonuses),
        dice=2 if two_dice else 1,
        source=source,
    )


@dataclass(frozen=True, kw_only=True)
class AdjustBonus(Command):
    """Seat button "Bonus +1" / "Bonus -1": ``fighter`` (the one declaring now) changes the bonus being
    entered for their Equipment and Unexpected Twist cards by ``delta`` before confirming. Refused for a
    fighter holding no cards (the bonus is a card shown, How Combat Is Resolved 1)."""

    fighter: str
    delta: int = 1


@dataclass(frozen=True, kw_only=True)
class Confirm(Command):
    """Seat button "Confirm", meaning what ``player`` is expected to do next: declare Unarmed with the bonus
    entered on the buttons (Combat; a bonus is one card shown and spent, as on the touch dialog, ruling R3),
    draw the turn's card (Draw Phase) or end the turn (Event Phase)."""

    player: str


@dataclass(frozen=True, kw_only=True)
class EndTurn(Command):
    """``player`` ends their Event Phase (Phases of a Turn 3); the Discard Phase follows for everyone with
    more than 7 cards (Phases of a Turn 4), then the player to the left starts."""

    player: str


@dataclass(frozen=True, kw_only=True)
class Discard(Command):
    """``player`` discards ``count`` cards in the Discard Phase, down to at most 7 (Phases of a Turn 4)."""

    player: str
    count: int = 1


@dataclass(frozen=True, kw_only=True)
class AdjustHand(Command):
    """Correct ``player``'s card count by ``delta`` for a card effect the companion does not follow (an
    Equipment played outside Combat, a card that draws), with a ``reason``."""

    player: str
    delta: int
    reason: str = "corrected by hand"


@dataclass(frozen=True, kw_only=True)
class Wound(Command):
    """``player`` loses ``amount`` Vitality outside Combat (an Event such as a fire, a trap), caused by
    ``by`` (the player whose card did it, possibly ``player``); at 0 this is a death by other means."""

    player: str
    by: str
    reason: str
    amount: int = 1


@dataclass(frozen=True, kw_only=True)
class Heal(Command):
    """``player`` regains ``amount`` Vitality from a card, never above the starting Vitality."""

    player: str
    reason: str
    amount: int = 1


@dataclass(frozen=True, kw_only=True)
class RemoveLocation(Command):
    """``player``, who caused a death, removes the unoccupied ``location`` from the game (The Island Shrinks)."""

    player: str
    location: str


@dataclass(frozen=True, kw_only=True)
class ReshuffleDiscards(Command):
    """The Show deck has run out: ``player`` (anyone still in the game) shuffles the discards into a new
    deck (Running Out of Show Cards). Refused while the deck still holds cards or the discards are empty.
    A draw from an empty deck reshuffles by itself first."""

    player: str


@dataclass(frozen=True, kw_only=True)
class PlayOnAir(Command):
    """``player`` plays an ON AIR card ``card`` (an ongoing effect, Show Cards: Generic Rules): one card
    leaves the hand and lies face up in front of ``in_front_of`` (the last player affected; ``""`` = the
    player) until the start of ``player``'s next turn, when the companion discards it. ``event``: the card
    is the Event of the player's Event Phase (Phases of a Turn 3: at most one); otherwise an Equipment or
    Unexpected Twist, played at any time."""

    player: str
    card: str
    in_front_of: str = ""
    event: bool = False
