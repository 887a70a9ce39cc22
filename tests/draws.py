"""Choices for the tests that play whole games (``test_<game>_legal_play.py``), one interface over two sources:
:class:`HypothesisDraws` (a property test: hypothesis draws, shrinks and reports each choice under its label) and
:class:`SeededDraws` (one fixed game from a seeded :class:`random.Random`: the same choices on every run of the
same code, for a reviewed record such as ``tests/views_golden.py``'s)."""

from __future__ import annotations

import random
from collections.abc import Sequence
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

    def statistic(self, text: str) -> None:
        self.statistics.append(text)
