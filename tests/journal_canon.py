"""What a game's journal replays to, as plain JSON data that can be committed and compared.

``canonical(value)`` turns a game state (frozen dataclasses, tuples, dicts, sets, enums) into JSON data:
a dataclass becomes ``{"__type__": class name, field: value, ...}`` with every field (``compare=False``
ones too), a set a sorted list, a dict's keys strings. ``expected_of(session)`` is what
``tests/data/journals/record.py`` writes beside each recorded journal and
``tests/test_recorded_journals.py`` compares with today's replay.
"""

from __future__ import annotations

import dataclasses
import enum
import json
from collections import Counter
from fractions import Fraction


def canonical(value):
    """JSON data for ``value`` (see the module docstring); TypeError for a value it does not know."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out = {"__type__": type(value).__name__}
        for field in dataclasses.fields(value):
            out[field.name] = canonical(getattr(value, field.name))
        return out
    if isinstance(value, enum.Enum):
        return {"__enum__": type(value).__name__, "value": canonical(value.value)}
    if isinstance(value, (bool, int, str)) or value is None:
        return value
    if isinstance(value, float):
        return {"__float__": repr(value)}
    if isinstance(value, Fraction):
        return {"__fraction__": str(value)}
    if isinstance(value, (tuple, list)):
        return [canonical(item) for item in value]
    if isinstance(value, (set, frozenset)):
        items = [canonical(item) for item in value]
        return {"__set__": sorted(items, key=lambda item: json.dumps(item, sort_keys=True))}
    if isinstance(value, dict) or hasattr(value, "items"):
        return {
            "__dict__": sorted(
                ([canonical(k), canonical(v)] for k, v in value.items()),
                key=lambda kv: json.dumps(kv[0], sort_keys=True),
            )
        }
    raise TypeError(f"no canonical form for {type(value).__name__}: {value!r}")


def expected_of(session) -> dict:
    """``{"game", "state", "line", "redo_stack", "finished", "entries": [{"seq", "type"}], "event_types"}``
    for an open :class:`~companion.session.GameSession` after its last move."""
    entries = session.entries
    types = Counter(record.type for records in session.moves.values() for record in records)
    return {
        "game": session.rules.info.name,
        "state": canonical(session.state),
        "line": list(session.line),
        "redo_stack": list(session.redo_stack),
        "finished": bool(getattr(session.state, "finished", False)),
        "entries": [{"seq": record.seq, "type": record.type} for record in entries],
        "event_types": dict(sorted(types.items())),
    }
