"""Wording shared by the rules engines' messages: plurals and lists of names.

Every function here is pure and English-only; the engines build their sentences from them so that
"1 card" / "2 cards" and "Ava, Ben and Cleo" read the same in every game.
"""

from __future__ import annotations

import re
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


def article(word: str) -> str:
    """The indefinite article that reads right before ``word``: ``"an"`` before a vowel sound (``"Emmy"``,
    ``"Action"``, ``"8"``, ``"11"``, ``"18"``), else ``"a"`` (``"Star"``, ``"1"``, ``"$500"``)."""
    text = word.strip()
    if not text:
        return "a"
    digits = re.match(r"\d+", text.replace(",", ""))
    if digits:
        number = digits.group()
        return "an" if number[0] == "8" or (len(number) % 3 == 2 and number[:2] in ("11", "18")) else "a"
    return "an" if text[0] in "AEIOUaeiou" else "a"


def with_article(word: str) -> str:
    """``word`` after its indefinite article: ``"Emmy"`` → ``"an Emmy"``; ``"Star"`` → ``"a Star"``."""
    return f"{article(word)} {word}"


def join_parts(parts: Sequence[str]) -> str:
    """The events of one move as one line, joined by ``"; "``, each said once: a part that another part already
    says whole (``"Ratings War over: 6 cancellations"`` beside ``"CBA: Ratings War over: 6 cancellations (TV
    Wars 6)"``) is left out. Two equal parts are two events (two payments of $500) and both stay. ``[]`` → ``""``."""
    parts = list(parts)
    return "; ".join(p for p in parts if p and not any(p != other and p in other for other in parts))


def format_dollars(amount: int) -> str:
    """``31000`` → ``"$31,000"``; ``-500`` → ``"−$500"`` (a true minus sign, readable on a panel): a ``PlayerView``'s
    ``balance`` as the generic player card shows it."""
    return f"−${-amount:,}" if amount < 0 else f"${amount:,}"
