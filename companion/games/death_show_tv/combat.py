"""Death Show TV combat arithmetic: totals, Fumbles, who wins and loses, and exact odds before the dice.

Pure functions over plain values (no game state), so the rules engine, the odds shown before a roll, the
tests' brute-force enumeration and the benchmark all use the *same* resolution rule.

Rules implemented (``rules/death-show-tv.txt``):

* How Combat Is Resolved 3-4: total = dice + bonuses; the highest total wins, the Loser loses 1 Vitality;
  a 1 on the die is a Fumble and loses automatically; a tie or a double Fumble: nothing happens.
* How Combat Is Resolved, note **: two dice are added, and a Fumble on either die loses.
* Multiple Combat 2: the highest total wins (ties for highest all win), the lowest loses (ties for lowest
  all lose).
* Two-Player Games: while a Contestant has more Vitality than the rival, a 1 or a 2 is their Fumble.

How Fumbles and Multiple Combat combine is a ruling (``docs/rulings-death-show-tv.md``, R5): Fumblers are
the Losers (they "automatically lose"); the Winners are the highest non-Fumbling totals; if nobody fumbled,
the lowest totals lose; if every fighter fumbled, or nobody fumbled and every total is equal, nothing
happens. With two fighters this is exactly How Combat Is Resolved 4. The house-rule reading
(``lowest_also``, option ``multiple_combat_fumbles = "and_lowest"``): the Fumblers lose *and* so do the
lowest non-Fumbling totals (unless those are also the highest); with two fighters it is the same.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

#: Faces of one die (the game's two dice are ordinary six-sided dice, Components).
FACES = range(1, 7)
#: Fumble faces normally (How Combat Is Resolved 4) and for the healthier Contestant of a two-player game.
FUMBLE_FACES = frozenset({1})
TWO_PLAYER_FUMBLE_FACES = frozenset({1, 2})


@dataclass(frozen=True)
class Part:
    """One named term of a total: ``label`` (``"Katana"``, ``"Ambush"``, ``"Unarmed"``, ``"Combat"``) and its
    ``value`` (an int; a penalty is negative)."""

    label: str
    value: int


@dataclass(frozen=True)
class RolledFighter:
    """A fighter's finished roll: ``name``, the die ``values`` (one or two faces 1-6), the named bonus
    ``parts`` and the ``fumble_faces`` that count as a Fumble for this fighter."""

    name: str
    values: tuple[int, ...]
    parts: tuple[Part, ...]
    fumble_faces: frozenset[int] = FUMBLE_FACES

    @property
    def fumble(self) -> bool:
        """Whether any die shows a Fumble face (How Combat Is Resolved 4 and note **)."""
        return any(value in self.fumble_faces for value in self.values)

    @property
    def total(self) -> int:
        """Dice plus every bonus (How Combat Is Resolved 4)."""
        return sum(self.values) + sum(part.value for part in self.parts)

    def breakdown(self) -> str:
        """The total explained, e.g. ``"Kelpie 7 = 2 (die) + 3 Katana + 2 Ambush"``; a Fumble says so:
        ``"Jhon 1 = 1 (die) + 0 Unarmed: FUMBLE (a 1), loses automatically"``."""
        if len(self.values) == 1:
            dice = f"{self.values[0]} (die)"
        else:
            dice = f"{'+'.join(map(str, self.values))} (dice)"
        terms = [dice] + [f"{'-' if p.value < 0 else '+'} {abs(p.value)} {p.label}" for p in self.parts]
        text = f"{self.name} {self.total} = " + " ".join([terms[0]] + terms[1:])
        if self.fumble:
            faces = " or ".join(map(str, sorted(self.fumble_faces)))
            text += f": FUMBLE (a {faces}), loses automatically"
        return text


@dataclass(frozen=True)
class Result:
    """Indices (into the fighters as given) of the ``winners`` and ``losers``; both empty when nothing
    happens."""

    winners: tuple[int, ...]
    losers: tuple[int, ...]

    @property
    def nothing(self) -> bool:
        """A tie or a double Fumble: nothing happens (How Combat Is Resolved 4)."""
        return not self.winners and not self.losers


def resolve(outcomes: Sequence[tuple[bool, int]], lowest_also: bool = False) -> Result:
    """Who wins and who loses, from each fighter's ``(fumbled, total)`` in fighter order.

    Implements How Combat Is Resolved 4 and Multiple Combat 2 with ruling R5 (see module docstring);
    ``lowest_also`` is R5's house-rule reading (the lowest non-Fumbling totals lose beside the Fumblers).
    Raises ``ValueError`` for fewer than two fighters (a combat always has an attacker and a defender).
    """
    if len(outcomes) < 2:
        raise ValueError("a combat needs at least two fighters")
    standing = [i for i, (fumbled, _) in enumerate(outcomes) if not fumbled]
    fumbled = tuple(i for i, (fumble, _) in enumerate(outcomes) if fumble)
    if not standing:
        return Result((), ())
    high = max(outcomes[i][1] for i in standing)
    winners = tuple(i for i in standing if outcomes[i][1] == high)
    low = min(outcomes[i][1] for i in standing)
    lowest = tuple(i for i in standing if outcomes[i][1] == low) if low != high else ()
    if fumbled:
        return Result(winners, tuple(sorted(fumbled + lowest)) if lowest_also else fumbled)
    if low == high:
        return Result((), ())
    return Result(winners, lowest)


def resolve_rolled(fighters: Sequence[RolledFighter], lowest_also: bool = False) -> Result:
    """:func:`resolve` for rolled fighters."""
    return resolve([(fighter.fumble, fighter.total) for fighter in fighters], lowest_also)


@dataclass(frozen=True)
class Chances:
    """A fighter's exact chances before the dice: ``win``, ``lose`` and ``nothing`` (neither won nor lost),
    as fractions summing to 1."""

    win: Fraction
    lose: Fraction
    nothing: Fraction

    def describe(self, name: str) -> str:
        """``"Kelpie: wins 58.3%, loses 27.8%, neither 13.9%"``."""
        return f"{name}: wins {float(self.win):.1%}, loses {float(self.lose):.1%}, neither {float(self.nothing):.1%}"


@dataclass(frozen=True)
class FighterDice:
    """What decides a fighter's chances: the number of ``dice`` (1 or 2), the fixed ``bonus`` (sum of the
    named parts), the ``fumble_faces`` and, once this fighter has rolled, the ``rolled`` faces (then its
    result is certain: the odds of the others are given those dice)."""

    dice: int
    bonus: int
    fumble_faces: frozenset[int] = FUMBLE_FACES
    rolled: tuple[int, ...] | None = None


def distribution(fighter: FighterDice) -> tuple[Fraction, dict[int, Fraction]]:
    """``(P(Fumble), {total: P(that total without a Fumble)})`` for one fighter, by enumerating its dice (a
    fighter that has ``rolled`` has one certain outcome)."""
    if fighter.rolled is not None:
        outcomes = [tuple(fighter.rolled)]
    else:
        outcomes = list(itertools.product(FACES, repeat=fighter.dice))
    weight = Fraction(1, len(outcomes))
    fumble = Fraction(0)
    totals: dict[int, Fraction] = {}
    for values in outcomes:
        if any(v in fighter.fumble_faces for v in values):
            fumble += weight
        else:
            total = sum(values) + fighter.bonus
            totals[total] = totals.get(total, Fraction(0)) + weight
    return fumble, totals


def _product(values: Iterable[Fraction]) -> Fraction:
    result = Fraction(1)
    for value in values:
        result *= value
    return result


def odds(fighters: Sequence[FighterDice], lowest_also: bool = False) -> tuple[Chances, ...]:
    """Each fighter's exact :class:`Chances`, in the same order, under :func:`resolve` (with
    ``lowest_also``, R5's house-rule reading). Remembered for the last combats asked about: the view, the
    board and the panels ask for the same odds after every move.

    Closed form, by conditioning on one fighter's result (the others are independent): a fighter with a
    clean total *t* wins when every other fighter fumbles or totals at most *t*, except when nobody fumbles
    and all equal *t*; it loses when nobody fumbles and everyone totals at least *t*, with the same
    exception; a fighter who fumbles loses unless everyone fumbles. With ``lowest_also`` a clean *t* loses
    when every other fighter fumbles or totals at least *t*, minus the case where every other fumbles or
    equals *t* (then *t* is also the highest). Cost grows as fighters² × totals, so a full eight-fighter
    Multiple Combat is instant. Raises ``ValueError`` for fewer than two fighters.
    """
    return _odds(tuple(fighters), lowest_also)


@functools.lru_cache(maxsize=32)
def _odds(fighters: tuple[FighterDice, ...], lowest_also: bool = False) -> tuple[Chances, ...]:
    """:func:`odds` for a tuple of fighters (hashable, so remembered)."""
    if len(fighters) < 2:
        raise ValueError("a combat needs at least two fighters")
    dists = [distribution(f) for f in fighters]
    result = []
    for i, (fumble_i, totals_i) in enumerate(dists):
        others = [d for j, d in enumerate(dists) if j != i]
        win = lose = Fraction(0)
        lose += fumble_i * (1 - _product(f for f, _ in others))
        for t, p in totals_i.items():
            at_most = _product(f + sum((q for u, q in ts.items() if u <= t), Fraction(0)) for f, ts in others)
            at_least = _product(sum((q for u, q in ts.items() if u >= t), Fraction(0)) for _, ts in others)
            equal = _product(ts.get(t, Fraction(0)) for _, ts in others)
            win += p * (at_most - equal)
            if lowest_also:
                at_least_or_fumble = _product(
                    f + sum((q for u, q in ts.items() if u >= t), Fraction(0)) for f, ts in others
                )
                equal_or_fumble = _product(f + ts.get(t, Fraction(0)) for f, ts in others)
                lose += p * (at_least_or_fumble - equal_or_fumble)
            else:
                lose += p * (at_least - equal)
        result.append(Chances(win, lose, 1 - win - lose))
    return tuple(result)


def odds_by_enumeration(fighters: Sequence[FighterDice], lowest_also: bool = False) -> tuple[Chances, ...]:
    """The same figures as :func:`odds`, by enumerating every combination of the fighters' distinct
    results through :func:`resolve` (slower; the tests and the benchmark use it as a cross-check)."""
    if len(fighters) < 2:
        raise ValueError("a combat needs at least two fighters")
    per_fighter: list[list[tuple[tuple[bool, int], Fraction]]] = []
    for fighter in fighters:
        fumble, totals = distribution(fighter)
        options = [((False, t), p) for t, p in totals.items()]
        if fumble:
            options.append(((True, 0), fumble))
        per_fighter.append(options)
    wins = [Fraction(0)] * len(fighters)
    losses = [Fraction(0)] * len(fighters)
    for combo in itertools.product(*per_fighter):
        p = _product(prob for _, prob in combo)
        result = resolve([outcome for outcome, _ in combo], lowest_also)
        for i in result.winners:
            wins[i] += p
        for i in result.losers:
            losses[i] += p
    return tuple(Chances(w, l, 1 - w - l) for w, l in zip(wins, losses))


def odds_by_dice(fighters: Sequence[FighterDice], lowest_also: bool = False) -> tuple[Chances, ...]:
    """The same figures by rolling out every face of every die (6^dice outcomes; the slowest cross-check)."""
    dice_counts = [0 if f.rolled is not None else f.dice for f in fighters]
    total_dice = sum(dice_counts)
    weight = Fraction(1, 6**total_dice)
    wins = [0] * len(fighters)
    losses = [0] * len(fighters)
    for faces in itertools.product(FACES, repeat=total_dice):
        outcomes = []
        k = 0
        for fighter, count in zip(fighters, dice_counts):
            values = faces[k : k + count] if fighter.rolled is None else tuple(fighter.rolled)
            k += count
            outcomes.append((any(v in fighter.fumble_faces for v in values), sum(values) + fighter.bonus))
        result = resolve(outcomes, lowest_also)
        for i in result.winners:
            wins[i] += 1
        for i in result.losers:
            losses[i] += 1
    return tuple(Chances(w * weight, l * weight, 1 - (w + l) * weight) for w, l in zip(wins, losses))
