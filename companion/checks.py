"""Type checks shared by the rules engines' command and option validation.

Only the test lives here: each caller keeps its own error message and range.
"""

from __future__ import annotations

from typing import Any


def is_whole(value: Any) -> bool:
    """True for an ``int`` (a whole number), False for anything else, including ``bool`` (``True`` is an
    ``int`` to Python but never a count, a slot or an amount) and ``float`` (even ``2.0``)."""
    return isinstance(value, int) and not isinstance(value, bool)
