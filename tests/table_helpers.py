"""Helpers for rules tests that play commands through the real Table and its journal (any game)."""

from __future__ import annotations

import sqlite3


def event_count(table) -> int:
    """Rows in the journal's events table, counted with plain sqlite3 (to check that a refusal wrote nothing)."""
    connection = sqlite3.connect(str(table.journal.path))
    try:
        return connection.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    finally:
        connection.close()


def accepted(table, command):
    """Execute ``command``; assert it was accepted; return the outcome."""
    outcome = table.execute(command)
    assert outcome.accepted, outcome.message
    return outcome
