"""The old Ratings War survival odds, kept only as a test oracle for
:func:`companion.games.tv_wars.ratings_war.survival_odds`.

This is the enumeration the companion used before the odds went slot by slot: every outstanding Special
roll (11 sums) and every tie-break outcome is a branch of its own, followed depth first to the end of the
war (each branch resumes at the slot that branched), with :class:`~fractions.Fraction` weights all the way.
Nothing is merged, so it costs about eleven times more per Special (seconds with four); it is simple enough
to trust, and it runs the war through the resolver the table uses (``_resolve_slot``), so comparing the two
checks the fast odds against the rules as the table plays them.

``oracle_survival_odds(war, dice=None)`` takes and returns what ``survival_odds`` does.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from companion.games.tv_wars.ratings_war import (
    SLOT_STARTS,
    SLOTS,
    TWO_DICE,
    Program,
    ProgramRef,
    TieBreak,
    War,
    _Pending,
    _Progress,
    _purpose,
    _resolve_slot,
    _special_request,
    check_war,
    special_key,
)


@dataclass(frozen=True)
class _SpecialPoint:
    """An outstanding Special roll: 11 sums weighted by their share of the 36 throws."""

    key: str

    def outcomes(self) -> Iterator[tuple[Any, Fraction]]:
        for total, ways in TWO_DICE.items():
            yield total, Fraction(ways, 36)


@dataclass(frozen=True)
class _TiePoint:
    """An outstanding tie-break: every (lowest, highest) outcome of a uniformly random order of the tied
    networks, with its exact probability."""

    key: str
    networks: tuple[str, ...]
    need_low: bool
    need_high: bool

    def outcomes(self) -> Iterator[tuple[Any, Fraction]]:
        n = len(self.networks)
        if self.need_low and self.need_high:
            for low in self.networks:
                for high in self.networks:
                    if low != high:
                        yield (low, high), Fraction(1, n * (n - 1))
        else:
            for net in self.networks:
                yield ((net, None) if self.need_low else (None, net)), Fraction(1, n)


class _ScriptChance:
    """Chance from a script of decided outcomes; known Special dice are used."""

    def __init__(self, script: Mapping[str, Any], known: Mapping[str, Sequence[int]]) -> None:
        self.script, self.known = script, known

    def special(self, ref: ProgramRef, program: Program) -> tuple[int, tuple[int, ...] | None]:
        key = special_key(ref)
        if key in self.known:
            values = _special_request(ref, program).check(ref.network, self.known[key])
            return sum(values), values
        if key not in self.script:
            raise _Pending(_SpecialPoint(key))
        return self.script[key], None

    def tie(self, slot: int, networks: tuple[str, ...], need_low: bool, need_high: bool, total: int) -> TieBreak:
        key = f"tie {SLOT_STARTS[slot]} {_purpose(need_low, need_high)}"
        if key not in self.script:
            raise _Pending(_TiePoint(key, networks, need_low, need_high))
        lowest, highest = self.script[key]
        return TieBreak(slot, _purpose(need_low, need_high), total, networks, (), lowest, highest)


def _run(war: War, chance, resume: tuple | None = None):
    """Resolve slot after slot until chance has to speak: the slots, the pending point (or ``None``) and
    where to resume, ``(slot, progress before it, slots before it)``."""
    first, progress, slots = resume if resume is not None else (0, _Progress(), ())
    progress, slots = progress.copy(), list(slots)
    for slot in range(first, SLOTS):
        before = progress.copy()
        try:
            slots.append(_resolve_slot(war, slot, progress, chance))
        except _Pending as pending:
            return tuple(slots), pending.point, (slot, before, tuple(slots))
    return tuple(slots), None, None


def oracle_survival_odds(war: War, dice: Mapping[str, Sequence[int]] | None = None) -> dict[ProgramRef, Fraction]:
    """Each program's exact chance of not being cancelled, by following every branch to the end."""
    check_war(war)
    known = {key: values for key, values in (dice or {}).items() if " special " in key}
    odds = {ref: Fraction(0) for ref, _ in war.programs()}
    stack: list[tuple[dict, Fraction, tuple | None]] = [({}, Fraction(1), None)]
    while stack:
        script, weight, resume = stack.pop()
        slots, point, resume = _run(war, _ScriptChance(script, known), resume)
        if point is None:
            cancelled = {slot.cancellation.ref for slot in slots if slot.cancellation}
            for ref in odds:
                if ref not in cancelled:
                    odds[ref] += weight
        else:
            for outcome, chance in point.outcomes():
                stack.append(({**script, point.key: outcome}, weight * chance, resume))
    return odds
