"""Events: what happened, as stored in the journal.

A rules engine turns an accepted command into one or more :class:`NewEvent` values; the journal stores
each as an :class:`EventRecord` row with a sequence number. State is a fold over events.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

#: Version of the event payload layout. Stored with every row so old journals stay readable.
SCHEMA_VERSION = 1

#: Event types the table itself writes (the games define their own types too).
GAME_STARTED = "game_started"
HISTORY_RESTORED = "history_restored"


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
