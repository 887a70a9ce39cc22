"""Wording shared by the rules engines' messages: plurals and lists of names.

Every function here is pure and English-only; the engines build their sentences from them so that
"1 card" / "2 cards" and "Ava, Ben and Cleo" read the same in every game.
"""

from __future__ import annotations

from collections.abc import Sequence


def noun(n: int, singular: str, plural: str | None = None) -> str:
    """The noun alone for ``n`` things: ``singular`` when ``n == 1``, else ``plural`` (default
    ``singular + "s"``). ``(1, "card")`` → ``"card"``; ``(0, "card")`` → ``"cards"``."""
    if n == 1:
        return singular
    return singular + "s" if plural is None else plural


def count(n: int, singular: str, plural: str | None = None) -> str:
    """``n`` and its noun: ``(1, "card")`` → ``"1 card"``; ``(3, "card")`` → ``"3 cards"``;
    ``(0, "card")`` → ``"0 cards"``; ``(2, "party", "parties")`` → ``"2 parties"``."""
    return f"{n} {noun(n, singular, plural)}"


def verb(n: int, one: str, many: str) -> str:
    """``one`` (``"scores"``, ``"is"``) when ``n == 1``, else ``many`` (``"score"``, ``"are"``)."""
    return one if n == 1 else many


def and_join(names: Sequence[str], conjunction: str = "and") -> str:
    """``["A"]`` → ``"A"``; ``["A", "B"]`` → ``"A and B"``; ``["A", "B", "C"]`` → ``"A, B and C"``
    (no serial comma). ``conjunction`` replaces ``"and"`` (``"or"``: ``"A, B or C"``). ``names`` must not
    be empty (:class:`IndexError`)."""
    names = list(names)
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {conjunction} {names[-1]}"


def format_dollars(amount: int) -> str:
    """``31000`` → ``"$31,000"``; ``-500`` → ``"−$500"`` (a true minus sign, readable on a panel): a ``PlayerView``'s
    ``balance`` as the generic player card shows it."""
    return f"−${-amount:,}" if amount < 0 else f"${amount:,}"
