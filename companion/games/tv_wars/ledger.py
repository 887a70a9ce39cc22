"""TV Wars' own export table: the bank ledger as CSV, one row per ``money_moved`` event (the generic
figures CSV is :func:`companion.export.export_figures_csv`).

Columns: ``seq, time (ISO 8601 UTC), payer, payee, amount_dollars, reason, rule, in_force, move, correction``
(``in_force`` is ``no`` for a movement that has been undone; ``move`` is the history entry number shown on
the screen, shared by a command's events; ``correction`` is ``yes`` for a hand correction, TV Wars 4).
"""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from companion.games.tv_wars.events import MoneyMoved

if TYPE_CHECKING:
    from companion.journal import Journal


def export_ledger_csv(journal: Journal, game_id: int) -> str:
    """The CSV bank ledger of game ``game_id`` (see the module docstring)."""
    from companion.games.tv_wars.rules import TV_WARS
    from companion.session import GameSession

    events = journal.events(game_id)
    session = GameSession(game_id, events)
    in_force = set(session.line)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        ["seq", "time", "payer", "payee", "amount_dollars", "reason", "rule", "in_force", "move", "correction"]
    )
    for record in events:
        if record.type != MoneyMoved.TYPE:
            continue
        money = TV_WARS.events.decode(record.type, record.payload)
        assert isinstance(money, MoneyMoved)
        when = datetime.fromtimestamp(record.time, UTC).isoformat(timespec="seconds")
        writer.writerow(
            [
                record.seq,
                when,
                money.payer,
                money.payee,
                money.amount,
                money.reason,
                money.rule,
                "yes" if record.move in in_force else "no",
                record.move,
                "yes" if money.correction else "no",
            ]
        )
    return out.getvalue()
