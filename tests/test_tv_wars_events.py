"""TV Wars' typed events (issue 15): one frozen dataclass per journal type, its fields the payload's keys.

Every event class survives ``to_payload`` -> JSON -> ``from_payload`` (the journal's path), decodes through
the game's codec by its journal type with the table's ``"by"`` key ignored, and the codec knows every type
the game writes. The recorded journals (``tests/test_recorded_journals.py``) prove old payloads still decode.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Mapping

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from companion.events import Event
from companion.games.tv_wars import TV_WARS
from companion.games.tv_wars.events import EVENT_CLASSES, GameEnded, ProgramMoved, TvWarsEvent

_JSON_LEAVES = st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text(max_size=8)
_JSON = st.recursive(
    _JSON_LEAVES,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)


def _strategy(hint) -> st.SearchStrategy:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (types.UnionType, typing.Union):
        return st.one_of(*(_strategy(a) for a in args))
    if hint is type(None):
        return st.none()
    if hint is bool:
        return st.booleans()
    if hint is int:
        return st.integers(-(10**6), 10**6)
    if hint is str:
        return st.text(max_size=12)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return st.lists(_strategy(args[0]), max_size=4).map(tuple)
    if origin is tuple:
        return st.tuples(*(_strategy(a) for a in args))
    if origin in (Mapping, dict) or hint is Mapping:
        return st.dictionaries(st.text(max_size=6), _JSON, max_size=4)
    raise TypeError(f"no strategy for {hint!r}")


def _events(cls: type[Event]) -> st.SearchStrategy:
    hints = typing.get_type_hints(cls)
    fields = {f.name: _strategy(hints[f.name]) for f in dataclasses.fields(cls)}
    return st.fixed_dictionaries(fields).map(lambda values: cls(**values))


def test_the_codec_reads_every_event_class_and_nothing_else():
    assert set(TV_WARS.events.classes.values()) == set(EVENT_CLASSES)
    assert all(issubclass(cls, TvWarsEvent) and cls.TYPE for cls in EVENT_CLASSES)
    assert len({cls.TYPE for cls in EVENT_CLASSES}) == len(EVENT_CLASSES)


@pytest.mark.parametrize("cls", EVENT_CLASSES, ids=lambda cls: cls.TYPE)
@given(data=st.data())
def test_every_event_survives_the_journal_round_trip(cls, data):
    event = data.draw(_events(cls))
    if cls is GameEnded:  # ended at the table, the event is its reason alone (the payload as it always was)
        assume(event.assets is not None or (event.rule == "" and event.winners == () and not event.draw))
    payload = json.loads(json.dumps(event.to_payload()))
    assert cls.from_payload(payload) == event
    assert TV_WARS.events.decode(cls.TYPE, {**payload, "by": "button"}) == event
    assert event.type == cls.TYPE and event.payload == event.to_payload()


def test_payload_keys_are_the_journals_own_even_python_words():
    event = ProgramMoved("ABS", "CBA", "P7", "stolen", "TV Wars 9.2")
    assert event.to_payload() == {
        "from": "ABS",
        "to": "CBA",
        "tile_id": "P7",
        "reason": "stolen",
        "rule": "TV Wars 9.2",
    }
    assert GameEnded("time's up").to_payload() == {"reason": "time's up"}


def test_evolve_and_describe_take_typed_events_and_refuse_an_unknown_one(table):
    from conftest import start_tv_wars

    start_tv_wars(table, 2)
    event = TV_WARS.events.decode("money_moved", {"payer": "bank", "payee": "ABS", "amount": 500, "reason": "x"})
    assert TV_WARS.evolve(table.state, event).network("ABS").cash == 31_500
    assert TV_WARS.describe(event) == "Bank pays ABS $500: x"

    @dataclasses.dataclass(frozen=True)
    class Foreign(Event):
        TYPE: typing.ClassVar[str] = "foreign"

    with pytest.raises(ValueError, match="foreign"):
        TV_WARS.evolve(table.state, Foreign())
