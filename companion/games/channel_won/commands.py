"""Channel WON commands: what a reporter asks for (Phase 1 collecting, Phase 2 actions, the Character's power),
the refusal the rules give with a short reason for a button, and the legal command a board is offered."""

from __future__ import annotations

from dataclasses import dataclass

from companion.commands import Command
from companion.errors import IllegalCommand
from companion.game import LegalCommand


@dataclass(frozen=True, kw_only=True)
class CollectCard(Command):
    """Phase 1: ``player`` collects one card (``kind``: ``"location"``, ``"source"``, ``"scoop"`` or ``""``
    when not said; ``from_row``: a face-up card rather than a deck's top card). Refused at the hand limit
    of seven, outside Phase 1 or out of turn (Phase 1: Collecting Sources)."""

    player: str
    kind: str = ""
    from_row: bool = False


@dataclass(frozen=True, kw_only=True)
class UseAbility(Command):
    """``player`` uses their Character's once-per-game Reporter Power on their own turn (not an action;
    Character Abilities). Refused if already used, or in a phase the Character card does not allow."""

    player: str


@dataclass(frozen=True, kw_only=True)
class PlayLocation(Command):
    """Phase 2 action: ``player`` plays a Location card on the Lead of category ``lead``, placing a Reporter
    Tile (Locations). ``location`` names the card (``""``: the one the Lead needs)."""

    player: str
    lead: str
    location: str = ""


@dataclass(frozen=True, kw_only=True)
class PlaySource(Command):
    """Phase 2 action: ``player`` plays a Source card of ``category`` (``""``: the Lead's own) worth ``value``
    points as printed on the Lead (``None``: the catalogue's printed value) on the Lead ``lead``.

    Of the Lead's category it is a Source (Sources: the Lead must have its Location and be open; places a
    Reporter Tile unless the player has one there); of another category it is a Bonus Source (Bonus
    Sources: closed Leads only, no contributor credit). ``source_type`` names the card (``"Coach"``).
    ``from_archives``: the card is taken from the face-up Source row with a Library Archives Inside Scoop.
    """

    player: str
    lead: str
    value: int | None = None
    category: str = ""
    source_type: str = ""
    from_archives: bool = False


@dataclass(frozen=True, kw_only=True)
class PlayScoop(Command):
    """Phase 2: ``player`` plays the Inside Scoop ``scoop`` (a key of :data:`SCOOPS`) on Lead ``lead``
    (``""`` for Early Bird). Early Bird is played right after the player's own action and gives the
    turn back for one more action; the others are the player's action (Inside Scoop Cards)."""

    player: str
    scoop: str
    lead: str = ""


@dataclass(frozen=True, kw_only=True)
class CloseLead(Command):
    """Phase 2 action: ``player`` flips the open Lead ``lead`` to its closed side (Closing a Lead)."""

    player: str
    lead: str


@dataclass(frozen=True, kw_only=True)
class Pass(Command):
    """Phase 2 action: ``player`` flips their Pass Token to the pause side; once per round (Passing)."""

    player: str


@dataclass(frozen=True, kw_only=True)
class DeclareDone(Command):
    """Phase 2, on ``player``'s turn: they are done for this round (End of Round). When every player is
    done the round is scored."""

    player: str


@dataclass(frozen=True, kw_only=True)
class PassOrDone(Command):
    """The player's second button: :class:`Pass` while the Pass Token shows play, else :class:`DeclareDone`
    (Passing: "If a player is unable to play while their token is on the pause side, they are done")."""

    player: str


class Refusal(IllegalCommand):
    """A refusal the rulebook makes (an :class:`IllegalCommand`), with ``short``: a few words for a disabled
    button ("has its Location") beside the full ``reason`` and ``rule`` (:meth:`ChannelWon.legal_commands`)."""

    def __init__(self, short: str, reason: str, rule: str | None = None) -> None:
        self.short = short
        super().__init__(reason, rule)


@dataclass(frozen=True)
class ChannelWonMove(LegalCommand):
    """One of :meth:`ChannelWon.legal_commands`, with what a board needs to place it: ``action`` (``"collect"``,
    ``"collect_row"`` (face up),
    ``"ability"``, ``"pass"``, ``"done"``, ``"early_bird"``, or on a Lead ``"location"``, ``"security_footage"``,
    ``"star_witness"``, ``"close"``, ``"discredit"``, ``"final_touch"``, ``"source"``), the ``lead`` (category) it
    is on, the ``category`` of the card (a Source of another category is a Bonus Source; for ``"collect"`` the
    card kind) and ``short``: why not in a few words, for a small button."""

    action: str = ""
    lead: str = ""
    category: str = ""
    short: str = ""
