"""TRANSITIONAL: the bank ledger moved into TV Wars, the only game with a bank (``companion.games.tv_wars.bank``).

This module stays only until the files outside TV Wars that still import it (``ui/app.py``,
``benchmarks/run.py``, ``tests/test_button_storm.py``, ``tests/test_threads.py``) import from the new place;
nothing new may use it. It does not import TV Wars until a ledger name is asked for, so a kiosk opening
another game loads no TV Wars module."""

from __future__ import annotations

from typing import Any

MONEY_MOVED = "money_moved"


def format_dollars(amount: int) -> str:
    """``31000`` → ``"$31,000"``; ``-500`` → ``"−$500"`` (as :func:`companion.games.tv_wars.bank.format_dollars`)."""
    return f"−${-amount:,}" if amount < 0 else f"${amount:,}"


def __getattr__(name: str) -> Any:
    if name.startswith("__"):  # the import machinery asks for __path__ and the like: not a ledger name
        raise AttributeError(name)
    from companion.games.tv_wars import bank

    return getattr(bank, name)
