"""Events: what happened, as stored in the journal.

A rules engine turns an accepted command into one or more typed events: instances of :class:`Event`
subclasses, one frozen dataclass per event type, each with its journal ``TYPE`` and its own
(de)serialisation. The journal stores each as an :class:`EventRecord` row (type, JSON payload, schema version)
with a sequence number; a game's :class:`EventCodec` turns a row back into its event, upcasting payloads an
earlier version wrote. State is a fold over events. :class:`NewEvent` is the untyped form the table uses for
its own rows (game start, undo/redo) and the journal's write path accepts either.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, Self

from companion.errors import JournalError

#: Version of the event payload layout. Stored with every row so old journals stay readable.
SCHEMA_VERSION = 1

#: Event types the table itself writes (the games define their own types too).
GAME_STARTED = "game_started"
HISTORY_RESTORED = "history_restored"


class Recordable(Protocol):
    """What the journal writes: a ``type`` and a JSON-able ``payload`` (a :class:`NewEvent` or a typed
    :class:`Event`)."""

    @property
    def type(self) -> str: ...

    @property
    def payload(self) -> Mapping[str, Any]: ...


@dataclass(frozen=True)
class NewEvent:
    """An event a rules engine wants to record: ``type`` (a short snake_case name) and a JSON-able ``payload``."""

    type: str
    payload: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class EventRecord:
    """One journal row.

    ``seq`` is the journal-wide sequence number (1, 2, 3, ...); ``move`` is the ``seq`` of the first event
    written for the same command, so the events of one command are undone together; ``time`` is Unix
    seconds (float); ``payload`` is the decoded JSON object; ``schema_version`` is :data:`SCHEMA_VERSION`
    at the time of writing.
    """

    seq: int
    game_id: int
    move: int
    time: float
    type: str
    payload: Mapping[str, Any]
    schema_version: int = SCHEMA_VERSION


#: Per event class: each field's (name, required, annotated as a tuple), worked out once.
_LAYOUTS: dict[type, tuple[tuple[str, bool, bool], ...]] = {}


def _layout(cls: type) -> tuple[tuple[str, bool, bool], ...]:
    """``cls``'s fields as (name, required, tuple): JSON brings tuples back as lists."""
    layout = _LAYOUTS.get(cls)
    if layout is None:
        hints = typing.get_type_hints(cls)
        fields = []
        for f in dataclasses.fields(cls):
            hint = hints.get(f.name)
            origin = typing.get_origin(hint)
            if origin in (types.UnionType, typing.Union):
                origins = {typing.get_origin(a) or a for a in typing.get_args(hint)}
            else:
                origins = {origin or hint}
            required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
            fields.append((f.name, required, tuple in origins))
        layout = _LAYOUTS[cls] = tuple(fields)
    return layout


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _jsonable(v) for k, v in value.items()}
    return value


def _frozen(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


@dataclass(frozen=True)
class Event:
    """The base of every game's typed events. A subclass is a frozen dataclass with ``TYPE`` (the journal's
    snake_case type name, which never changes once written) and its fields; ``VERSION`` is its payload layout.

    :meth:`to_payload` gives the JSON object stored in the journal (fields by name, tuples as lists);
    :meth:`from_payload` reads one back (unknown keys such as the table's ``by`` are ignored, tuples come back
    as tuples), first passing it through :meth:`upcast` when an earlier version wrote it. A subclass whose
    fields are not plain JSON values (nested dataclasses) overrides both. ``type`` and ``payload`` make an event
    usable wherever a :class:`NewEvent` is."""

    TYPE: ClassVar[str] = ""
    #: The payload layout of this event type; raise it and extend :meth:`upcast` when the fields change.
    VERSION: ClassVar[int] = 1
    #: Fields whose journal key differs from the field's name (a Python keyword: ``{"from_": "from"}``).
    KEYS: ClassVar[Mapping[str, str]] = {}

    @property
    def type(self) -> str:
        return self.TYPE

    @property
    def payload(self) -> dict[str, Any]:
        return self.to_payload()

    def to_payload(self) -> dict[str, Any]:
        """The journal's JSON object for this event (with ``"v"``, its layout, when that is not 1)."""
        keys = self.KEYS
        payload = {keys.get(f.name, f.name): _jsonable(getattr(self, f.name)) for f in dataclasses.fields(self)}
        if self.VERSION != 1:
            payload["v"] = self.VERSION
        return payload

    @classmethod
    def upcast(cls, payload: dict[str, Any], version: int) -> dict[str, Any]:
        """``payload`` as written by layout ``version`` (from the payload's ``"v"`` key, 1 when absent),
        converted to this layout. The default knows only layout 1."""
        return payload

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Self:
        """The event a journal payload holds; raises :class:`JournalError` when a field is missing."""
        data: Mapping[str, Any] = payload
        version = payload.get("v", 1)
        if version != cls.VERSION:
            data = cls.upcast({k: v for k, v in payload.items() if k != "v"}, version)
        values = {}
        keys = cls.KEYS
        for name, required, is_tuple in _layout(cls):
            key = keys.get(name, name)
            if key in data:
                value = data[key]
                values[name] = _frozen(value) if is_tuple else value
            elif required:
                raise JournalError(f"a {cls.TYPE} event without its {name!r} ({dict(payload)!r})")
        return cls(**values)


class EventCodec:
    """A game's event types by journal type name: :meth:`decode` turns a row's type and payload into the typed
    event. Raises :class:`JournalError` for a type the game does not have, or a payload its class cannot read.
    Keys the table adds to a move's payloads (``"by"``: the button, touch or reader that made it) are left unread."""

    def __init__(self, classes: Iterable[type[Event]]) -> None:
        self.classes: dict[str, type[Event]] = {}
        for cls in classes:
            if not cls.TYPE or cls.TYPE in self.classes:
                raise ValueError(f"event class {cls.__name__} has no TYPE or repeats {cls.TYPE!r}")
            self.classes[cls.TYPE] = cls

    @property
    def types(self) -> frozenset[str]:
        """Every journal type this codec reads."""
        return frozenset(self.classes)

    def decode(self, event_type: str, payload: Mapping[str, Any]) -> Event:
        """The event of journal type ``event_type`` with ``payload`` (the table's keys ignored)."""
        cls = self.classes.get(event_type)
        if cls is None:
            raise JournalError(f"no event type {event_type!r} in this game")
        try:
            return cls.from_payload(payload)  # it reads its own fields only: the table's keys are left
        except (TypeError, ValueError, KeyError) as error:
            raise JournalError(f"a {event_type} event that cannot be read: {error}") from error
