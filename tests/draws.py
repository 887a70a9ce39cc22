"""Choices for the tests that play whole games (``test_<game>_legal_play.py``), one interface over two sources:
:class:`HypothesisDraws` (a property test: hypothesis draws, shrinks and reports each choice under its label) and
:class:`SeededDraws` (one fixed game from a seeded :class:`random.Random`: the same choices on every run of the
same code, for a reviewed record such as ``tests/views_golden.py``'s); and :func:`journaled_game`, a game played
into a real journal file and replayed from it by another table."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any


class HypothesisDraws:
    """Choices drawn from hypothesis' ``st.data()`` object, each under ``label``."""

    def __init__(self, data) -> None:
        self.data = data

    def integer(self, low: int, high: int, label: str | None = None) -> int:
        from hypothesis import strategies as st

        return self.data.draw(st.integers(low, high), label=label)

    def choice(self, items: Sequence[Any], label: str | None = None) -> Any:
        from hypothesis import strategies as st

        return self.data.draw(st.sampled_from(items), label=label)

    def boolean(self, label: str | None = None) -> bool:
        from hypothesis import strategies as st

        return self.data.draw(st.booleans(), label=label)

    def permutation(self, items: Sequence[Any], label: str | None = None) -> list[Any]:
        from hypothesis import strategies as st

        return self.data.draw(st.permutations(items), label=label)

    def random(self, label: str | None = None) -> random.Random:
        from hypothesis import strategies as st

        return self.data.draw(st.randoms(use_true_random=False), label=label)

    def integers(self, low: int, high: int, max_size: int, label: str | None = None) -> list[int]:
        from hypothesis import strategies as st

        return self.data.draw(st.lists(st.integers(low, high), max_size=max_size), label=label)

    def optional_integer(self, low: int, high: int, label: str | None = None) -> int | None:
        from hypothesis import strategies as st

        return self.data.draw(st.one_of(st.none(), st.integers(low, high)), label=label)

    def sublist(
        self, items: Sequence[Any], max_size: int | None = None, unique: bool = False, label: str | None = None
    ) -> list[Any]:
        from hypothesis import strategies as st

        return self.data.draw(st.lists(st.sampled_from(items), unique=unique, max_size=max_size), label=label)

    def statistic(self, text: str) -> None:
        from hypothesis import event

        event(text)


class SeededDraws:
    """The same choices from ``random.Random(seed)``; ``statistics`` keeps what a property test would report."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.statistics: list[str] = []

    def integer(self, low: int, high: int, label: str | None = None) -> int:
        return self.rng.randint(low, high)

    def choice(self, items: Sequence[Any], label: str | None = None) -> Any:
        return self.rng.choice(list(items))

    def boolean(self, label: str | None = None) -> bool:
        return self.rng.random() < 0.5

    def permutation(self, items: Sequence[Any], label: str | None = None) -> list[Any]:
        return self.rng.sample(list(items), len(items))

    def random(self, label: str | None = None) -> random.Random:
        return random.Random(self.rng.getrandbits(64))

    def integers(self, low: int, high: int, max_size: int, label: str | None = None) -> list[int]:
        return [self.rng.randint(low, high) for _ in range(self.rng.randint(0, max_size))]

    def optional_integer(self, low: int, high: int, label: str | None = None) -> int | None:
        return None if self.rng.random() < 0.5 else self.rng.randint(low, high)

    def sublist(
        self, items: Sequence[Any], max_size: int | None = None, unique: bool = False, label: str | None = None
    ) -> list[Any]:
        items = list(items)
        if unique:
            return self.rng.sample(
                items, self.rng.randint(0, min(len(items), len(items) if max_size is None else max_size))
            )
        return [
            self.rng.choice(items) for _ in range(self.rng.randint(0, len(items) if max_size is None else max_size))
        ]

    def statistic(self, text: str) -> None:
        self.statistics.append(text)


def journaled_game(
    path: Path, play: Callable[[Any], int], check: Callable[[Any, Any], None] | None = None, *, dice: Any = None
) -> int:
    """Play a game into a fresh SQLite journal at ``path``: ``play(table)`` (a claimed
    :class:`companion.table.Table` with ``dice``, default ``SeededDice(1)``) plays it and returns its game id.
    Then the journal is closed, the file reopened by another table and the game opened there (``OpenGame``: its
    checkpoint and the events after it); its state must equal the live one, and so must a replay of every event
    from the first (``companion.table.replay``); ``check(live, replayed)`` for more. Returns the game id. The
    journals are closed (their backup threads stopped) also when an assertion fails."""
    from companion.commands import OpenGame
    from companion.dice import SeededDice
    from companion.journal import Journal
    from companion.table import Table, replay

    journal = Journal(path)
    try:
        table = Table(journal, dice=SeededDice(1) if dice is None else dice)
        table.claim()
        game_id = play(table)
        live = table.state
    finally:
        journal.close()
    reopened = Journal(path)
    try:
        again = Table(reopened)
        again.claim()
        opened = again.execute(OpenGame(game_id=game_id))
        assert opened.accepted, opened.message
        assert again.state == live, "the journal replays to the live state"
        assert replay(reopened.events(game_id)).state == live, "every event from the first replays to it too"
        if check is not None:
            check(live, again.state)
    finally:
        reopened.close()
    return game_id
