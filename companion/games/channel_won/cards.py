"""Channel WON card facts: the six news categories, Lead cards with their printed values, Characters.

The rulebook does not print the Lead cards' point values ("Card References: Lead Cards" only names the
parts of a card: Location, Sources by Point Value, Bonus Source Value...). So a :class:`LeadCard` may know
nothing but its category; the value of a Source or Bonus Source is then entered by the player as the card
is played. A card catalogue (TOML text, see :func:`parse_catalogue`) can pre-fill what a Lead prints, so
the values need not be typed: the game option ``leads`` carries the chosen cards (JSON-able, journaled
with the game's start so a replay never reads a file).

Catalogue format (one ``[[lead]]`` table per Lead card, in the order the stacks are dealt)::

    [[lead]]
    category = "Sports"               # one of CATEGORIES
    headline = "Home team wins"       # optional
    location = "Park"                 # optional: the Location the Lead needs
    sources = { Athlete = 3, Coach = 2 }     # optional: printed Source values of the Lead's category
    bonus = { Business = -1, Fluff = 1 }     # optional: printed Bonus Source values (other categories)

Unknown keys are refused (a typo would otherwise be silently ignored).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.checks import is_whole
from companion.errors import BadOption, MalformedCommand

#: The six news categories, in the rulebook's order (Setup).
CATEGORIES = ("Politics", "Crime", "Business", "Entertainment", "Sports", "Fluff")

#: Printed values accepted for a Source of the Lead's own category ("additional points"): 1 to 10.
SOURCE_VALUES = range(1, 11)
#: Printed values accepted for a Bonus Source (it may raise or lower the value): -10 to 10.
BONUS_VALUES = range(-10, 11)

_LEAD_KEYS = {"category", "headline", "location", "sources", "bonus"}


class CatalogueError(MalformedCommand):
    """A card catalogue that cannot be used: ``source`` (file name or ``"<catalogue>"``), ``key`` (such as
    ``lead[3].sources.Coach``) and ``problem`` in words."""

    def __init__(self, source: str, key: str, problem: str) -> None:
        self.source, self.key, self.problem = source, key, problem
        super().__init__(f"{source}: {key}: {problem}" if key else f"{source}: {problem}")


@dataclass(frozen=True)
class LeadCard:
    """What one Lead card prints (Card References: Lead Cards).

    ``category`` (one of :data:`CATEGORIES`), ``headline`` (``""`` if not known), ``location`` the Location
    it needs (``""`` if not known), ``sources`` the printed Source values as ``(source type, points)`` pairs
    and ``bonus`` the printed Bonus Source values as ``(category, points)`` pairs (empty when not known:
    the player then enters the printed value as the card is played).
    """

    category: str
    headline: str = ""
    location: str = ""
    sources: tuple[tuple[str, int], ...] = ()
    bonus: tuple[tuple[str, int], ...] = ()

    def source_value(self, source_type: str) -> int | None:
        """The printed value of Source ``source_type`` (case-insensitive), or ``None`` if not printed/known."""
        return _lookup(self.sources, source_type)

    def bonus_value(self, category: str) -> int | None:
        """The printed Bonus Source value for ``category``, or ``None`` if not known."""
        return _lookup(self.bonus, category)

    @property
    def title(self) -> str:
        """``"Sports: Home team wins"``, or just the category when the headline is not known."""
        return f"{self.category}: {self.headline}" if self.headline else self.category

    def to_option(self) -> dict[str, Any]:
        """This card as a JSON-able dict for the ``leads`` game option (the inverse of :func:`lead_from_option`)."""
        data: dict[str, Any] = {"category": self.category}
        if self.headline:
            data["headline"] = self.headline
        if self.location:
            data["location"] = self.location
        if self.sources:
            data["sources"] = dict(self.sources)
        if self.bonus:
            data["bonus"] = dict(self.bonus)
        return data


def _lookup(pairs: tuple[tuple[str, int], ...], key: str) -> int | None:
    for name, value in pairs:
        if name.casefold() == key.casefold():
            return value
    return None


@dataclass(frozen=True)
class Character:
    """A Character card (Character Abilities): ``name``, ``role``, the ``phase`` (1 or 2) its once-per-game
    Reporter Power may be used in (``None`` if not known: any phase), the ``power`` in words, and
    ``replaces_row``: the face-up row (``"location"`` or ``"source"``) the power discards and replaces
    (``""``: none the companion knows of)."""

    name: str
    role: str = ""
    phase: int | None = None
    power: str = ""
    replaces_row: str = ""


#: The Characters the rulebook prints (it illustrates one). Others are accepted by name, phase unknown.
KNOWN_CHARACTERS = {
    "Trey DeMark": Character(
        "Trey DeMark",
        "Business Analyst",
        1,
        "Discard and replace all of the face up cards in the Location row",
        "location",
    ),
}


def character(name: str) -> Character:
    """The :class:`Character` called ``name``: a known one, or an unknown one usable in any phase."""
    return KNOWN_CHARACTERS.get(name, Character(name))


def category_named(name: Any, allowed: Sequence[str] = CATEGORIES) -> str:
    """Return the category in ``allowed`` spelt ``name`` (case-insensitive).

    Raises :class:`MalformedCommand` naming the allowed categories if there is none.
    """
    if isinstance(name, str):
        for category in allowed:
            if category.casefold() == name.strip().casefold():
                return category
    raise MalformedCommand(f"no news category {name!r} in this game; categories: {', '.join(allowed)}")


def lead_from_option(data: Any, where: str, source: str = "leads") -> LeadCard:
    """Build a :class:`LeadCard` from a dict (a ``[[lead]]`` table or one entry of the ``leads`` option).

    Raises :class:`CatalogueError` naming ``where`` (for example ``lead[2]``) for an unknown key, an unknown
    category, a non-text name or a value outside :data:`SOURCE_VALUES` / :data:`BONUS_VALUES`.
    """
    if not isinstance(data, Mapping):
        raise CatalogueError(source, where, f"must be a table, not {data!r}")
    unknown = sorted(set(data) - _LEAD_KEYS)
    if unknown:
        raise CatalogueError(
            source, f"{where}.{unknown[0]}", f"unknown key; known keys: {', '.join(sorted(_LEAD_KEYS))}"
        )
    try:
        category = category_named(data.get("category"))
    except MalformedCommand as error:
        raise CatalogueError(source, f"{where}.category", str(error)) from None
    texts = {}
    for key in ("headline", "location"):
        value = data.get(key, "")
        if not isinstance(value, str):
            raise CatalogueError(source, f"{where}.{key}", f"must be text, not {value!r}")
        texts[key] = value.strip()
    sources = _values(data.get("sources", {}), f"{where}.sources", SOURCE_VALUES, source)
    bonus = _values(data.get("bonus", {}), f"{where}.bonus", BONUS_VALUES, source)
    for name, _ in bonus:
        try:
            other = category_named(name)
        except MalformedCommand as error:
            raise CatalogueError(source, f"{where}.bonus.{name}", str(error)) from None
        if other == category:
            raise CatalogueError(
                source, f"{where}.bonus.{name}", "a Bonus Source is of another category than the Lead (Bonus Sources)"
            )
    bonus = tuple((category_named(name), value) for name, value in bonus)
    return LeadCard(category, texts["headline"], texts["location"], sources, bonus)


def _values(table: Any, where: str, allowed: range, source: str) -> tuple[tuple[str, int], ...]:
    if not isinstance(table, Mapping):
        raise CatalogueError(source, where, f"must be a table of name = points, not {table!r}")
    pairs = []
    for name, value in table.items():
        if not isinstance(name, str) or not name.strip():
            raise CatalogueError(source, where, f"a name must be text, not {name!r}")
        if not is_whole(value) or value not in allowed:
            raise CatalogueError(
                source,
                f"{where}.{name}",
                f"points must be a whole number from {allowed.start} to {allowed.stop - 1}, not {value!r}",
            )
        pairs.append((name.strip(), value))
    return tuple(pairs)


def parse_catalogue(text: str, source: str = "<catalogue>") -> tuple[LeadCard, ...]:
    """Parse catalogue TOML ``text`` (format in the module docstring) into its Lead cards, in file order.

    Raises :class:`CatalogueError` for invalid TOML, unknown keys or bad values.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise CatalogueError(source, "", f"not valid TOML: {error}") from None
    unknown = sorted(set(data) - {"lead"})
    if unknown:
        raise CatalogueError(source, unknown[0], "unknown key; a catalogue holds [[lead]] tables only")
    leads = data.get("lead", [])
    if not isinstance(leads, list) or not leads:
        raise CatalogueError(source, "lead", "give each Lead card as a [[lead]] table")
    return tuple(lead_from_option(lead, f"lead[{i + 1}]", source) for i, lead in enumerate(leads))


def load_catalogue(path: str | Path) -> tuple[LeadCard, ...]:
    """Read the catalogue file ``path`` (UTF-8 TOML, see the module docstring) and return its Lead cards.

    Raises :class:`CatalogueError` naming the file if it cannot be read or is malformed. The cards go into a
    game through :func:`leads_option`, so a saved game never reads the file again."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise CatalogueError(str(path), "", f"cannot read it: {error.strerror or error}") from None
    return parse_catalogue(text, str(path))


def leads_option(cards: Sequence[LeadCard], categories: Sequence[str], per_category: int = 3) -> dict[str, list]:
    """The ``leads`` game option dealt from ``cards``: the first ``per_category`` cards of each category in
    ``categories``, in catalogue order (Setup: "Select THREE Lead Cards from each of the selected categories").

    Raises :class:`BadOption` if a category has fewer cards than that.
    """
    dealt: dict[str, list] = {}
    for category in categories:
        chosen = [card.to_option() for card in cards if card.category == category][:per_category]
        if len(chosen) < per_category:
            raise BadOption(
                "leads", f"the catalogue has {len(chosen)} {category} Lead cards; Setup needs {per_category}"
            )
        dealt[category] = chosen
    return dealt
