"""The table: owns the journal and the open game, and applies commands on one owner thread.

Adapters (buttons, touch, readers) call :meth:`Table.post` from any thread; the owner thread (the Kivy
clock in the kiosk, a plain loop when headless) calls :meth:`Table.process_pending`. A plain loop sleeps in
:meth:`Table.wait_pending`, which returns as soon as something is posted (no polling interval to wait out).
Every accepted
command's events are committed to the journal *before* the state changes and before listeners (screens,
panels) hear of it. A refused command changes nothing and is reported to listeners with its reason.

Example::

    table = Table(Journal("game.sqlite3"))
    table.claim()                                   # this thread owns the table
    table.execute(NewGame(game="tv-wars", players=(PlayerSeat("ABS"), PlayerSeat("CBA"))))
    table.post(PassOnTheAir(network="ABS", source="button"))   # from any thread
    table.process_pending()
"""

from __future__ import annotations

import logging
import queue
import threading
import time as _time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from companion.commands import AnswerDice, Command, JumpTo, NewGame, OpenGame, Redo, RollDice, Undo
from companion.dice import SeededDice
from companion.errors import (
    TABLE_RULE,
    CommandError,
    CompanionError,
    GameFinished,
    IllegalCommand,
    NoGameOpen,
    NotOwnerThread,
)
from companion.events import EventRecord, NewEvent
from companion.games import TableView, find_game
from companion.journal import Journal
from companion.session import GameSession, HistoryEntry
from companion.words import count, join_parts

log = logging.getLogger("companion.table")

#: Moves between journal backups (besides the games' own safe points). A backup is a small delta part
#: written by a background thread (companion.backups), so it can be frequent.
BACKUP_EVERY = 10


@dataclass(frozen=True)
class Outcome:
    """What became of one command: the ``records`` it committed (empty if refused) and the ``refusal``
    (a :class:`CommandError` or :class:`JournalError`) if it was refused. ``message`` is one line for the
    screen."""

    command: Command
    records: tuple[EventRecord, ...] = ()
    refusal: CompanionError | None = None
    message: str = ""

    @property
    def accepted(self) -> bool:
        """True if the command was applied."""
        return self.refusal is None


Listener = Callable[["Table", Outcome], None]


class Table:
    """Owns the journal and the open game. See the module docstring.

    ``dice`` is the built-in generator used for :class:`RollDice` (default: seeded from the OS). Dice
    readers do not come in here: ``firmware_bridge.dice_match.RollTray`` matches their readings against
    the pending request and posts an :class:`AnswerDice` (source ``"reader"``).
    ``clock`` returns Unix seconds for event times (tests may fix it).
    """

    def __init__(
        self,
        journal: Journal,
        *,
        dice: SeededDice | None = None,
        clock: Callable[[], float] = _time.time,
        backup_every: int | None = BACKUP_EVERY,
    ) -> None:
        self.journal = journal
        self.backup_every = backup_every
        self._moves_since_backup = 0
        self._backup_wanted = False  # asked for by the command being executed, once its listeners ran
        self.dice = dice or SeededDice()
        self._clock = clock
        self._inbox: queue.SimpleQueue[Command] = queue.SimpleQueue()
        self._posted = threading.Event()  # set by post(): wakes the owner in wait_pending()
        self._owner: int | None = None
        self._listeners: list[Listener] = []
        self.session: GameSession | None = None

    # -- threads ------------------------------------------------------------------------------------------
    def claim(self) -> None:
        """Make the calling thread the table's owner: only it may apply commands from now on."""
        self._owner = threading.get_ident()

    def _check_owner(self) -> None:
        if self._owner is None:
            self.claim()
        elif self._owner != threading.get_ident():
            raise NotOwnerThread("table state may only change on its owner thread; post() the command instead")

    def post(self, command: Command) -> None:
        """Queue ``command`` for the owner thread. Safe from any thread; never blocks."""
        self._inbox.put(command)
        self._posted.set()

    def wait_pending(self, timeout: float | None = None) -> bool:
        """Block until a command is queued (returns True at once if one is), or ``timeout`` seconds have
        passed (False). For the owner thread's loop: ``while running: table.wait_pending(0.5);
        table.process_pending()``. One waiter at a time (the owner)."""
        self._posted.clear()
        if not self._inbox.empty():
            return True
        return self._posted.wait(timeout) or not self._inbox.empty()

    def process_pending(self, limit: int | None = None) -> list[Outcome]:
        """Apply queued commands in arrival order (at most ``limit``); owner thread only.

        Returns one :class:`Outcome` per command. Never raises for a bad command.
        """
        self._check_owner()
        outcomes: list[Outcome] = []
        while limit is None or len(outcomes) < limit:
            try:
                command = self._inbox.get_nowait()
            except queue.Empty:
                break
            outcomes.append(self.execute(command))
        return outcomes

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener(table, outcome)`` on the owner thread after every command (accepted or refused)."""
        self._listeners.append(listener)

    # -- applying -------------------------------------------------------------------------------------------
    def execute(self, command: Command) -> Outcome:
        """Apply one command now (owner thread only) and tell the listeners. Never raises for a bad
        command: the refusal is in the returned :class:`Outcome` and in the log."""
        self._check_owner()
        self._backup_wanted = False
        try:
            records, message = self._apply(command)
            outcome = Outcome(command, tuple(records), None, message)
            log.info(
                "game %s #%s %s",
                self.session.game_id if self.session else "-",
                records[0].seq if records else "-",
                message,
            )
        except CompanionError as error:
            outcome = Outcome(command, (), error, f"Refused: {error}")
            log.warning("refused %r: %s", command, error)
        except Exception as error:  # a bug must not take the kiosk down; nothing was committed
            log.exception("command %r failed", command)
            refusal = CommandError(f"internal error while applying {type(command).__name__}: {error!r}", TABLE_RULE)
            outcome = Outcome(command, (), refusal, f"Refused: {refusal}")
        for listener in list(self._listeners):
            try:
                listener(self, outcome)
            except Exception:  # a broken screen must not stop the table
                log.exception("listener %r failed", listener)
        if self._backup_wanted:  # after the listeners: the move reaches the panels before a backup competes
            self._backup_wanted = False
            self.journal.backup_soon()
        return outcome

    @property
    def _open(self) -> GameSession:
        """The open game's session; raises :class:`NoGameOpen` when none is open."""
        if self.session is None:
            raise NoGameOpen("no game is open: start a new game or resume one")
        return self.session

    def _apply(self, command: Command) -> tuple[list[EventRecord], str]:
        if isinstance(command, NewGame):
            return self._new_game(command)
        if isinstance(command, OpenGame):
            return self._open_game(command.game_id)
        session = self.session
        if session is None:
            raise NoGameOpen("no game is open: start a new game or resume one")
        if isinstance(command, Undo):
            return self._restore(session.plan_undo(command.steps))
        if isinstance(command, Redo):
            return self._restore(session.plan_redo())
        if isinstance(command, JumpTo):
            return self._restore(session.plan_jump(command.seq))
        by = command.source  # journaled as "by" (a RollDice is answered below as built-in AnswerDice)
        if isinstance(command, RollDice):
            request = session.rules.pending_dice(session.state)
            if request is None and session.rules.outcome(session.state) is not None:
                raise GameFinished("the game has ended; undo to reopen it", TABLE_RULE)
            if request is None:
                raise IllegalCommand("no dice are asked for right now", TABLE_RULE)
            request.check(command.roller, (1,) * request.count)
            command = AnswerDice(roller=command.roller, values=self.dice.roll(request), source=SeededDice.source)
        events = session.rules.decide(session.state, command)
        status = self._status_change(session.preview(events))
        stamped = [NewEvent(e.type, {**e.payload, "by": by}) if "by" not in e.payload else e for e in events]
        records = self.journal.append(session.game_id, stamped, self._clock(), status)
        self._take(records)
        self._maybe_backup(records, status)
        self._store_states()
        return records, join_parts([self._open.describe_record(r) for r in records])

    def _store_states(self) -> None:
        """Hand the states the session computed at its snapshot depths to the journal, which stores them off
        this thread (:meth:`Journal.store_snapshot_soon`): the next start-up folds only the moves after the
        nearest one. A failure is logged; the game goes on."""
        session = self._open
        try:
            unsaved, format = session.take_unsaved(), session.stored_format
            if format is None:  # a session without a journal stores none
                return
            for row, state in unsaved:
                self.journal.store_snapshot_soon(session.game_id, row, format, state)
        except Exception:
            log.exception("the states of game #%s were not handed over for storing", session.game_id)

    def _maybe_backup(self, records: Sequence[EventRecord], status: str | None) -> None:
        """Ask for a journal backup at a safe point: a game's end, an event the game names as one (the end
        of a Ratings War, of a round), or every ``backup_every`` moves. The backup is written by the
        journal's background thread (:meth:`Journal.backup_soon`), asked for once the command's listeners
        have run (so that it does not compete with the panels for the interpreter and the disk): this thread
        never waits for it, and a failed backup is logged, never refused."""
        if self.backup_every is None:
            return
        self._moves_since_backup += 1
        safe = self._open.rules.safe_point_events
        if (
            status == "finished"
            or any(r.type in safe for r in records)
            or self._moves_since_backup >= self.backup_every
        ):
            self._moves_since_backup = 0
            self._backup_wanted = True

    def _status_change(self, after: Any) -> str | None:
        """The game's new journal status if ``after`` finishes or reopens it, else ``None``."""
        rules, before = self._open.rules, self._open.state
        finished = rules.outcome(after) is not None
        if finished == (rules.outcome(before) is not None):
            return None
        return "finished" if finished else "open"

    def _take(self, records: Sequence[EventRecord]) -> None:
        """Fold committed records into the session; if that fails, rebuild it from the journal so memory
        never disagrees with what is on disk."""
        try:
            self._open.take(records)
        except Exception:
            log.exception(
                "could not apply committed events %s; replaying game #%s from the journal",
                [r.seq for r in records],
                self._open.game_id,
            )
            self.session = GameSession.open(self.journal, self._open.game_id)

    def _restore(self, event: NewEvent) -> tuple[list[EventRecord], str]:
        status = self._status_change(self._open.preview_restore(event.payload["keep"], event.payload["append"]))
        records = self.journal.append(self._open.game_id, [event], self._clock(), status)
        self._take(records)
        self._store_states()
        return records, self._open.describe_entry(records[0])

    def _new_game(self, command: NewGame) -> tuple[list[EventRecord], str]:
        rules = find_game(command.game)
        rules.new_game(command.players, command.options)  # validate before writing anything
        players = [{"name": seat.name, "colour": seat.colour} for seat in command.players]
        record = self.journal.create_game(rules.info.name, players, command.options, self._clock())
        self.session = GameSession(record.game_id, [record], journal=self.journal)
        names = ", ".join(seat.name for seat in command.players)
        return [record], f"New {rules.info.title} game #{record.game_id}: {names}"

    def _open_game(self, game_id: int) -> tuple[list[EventRecord], str]:
        self.journal.check_game(game_id)  # raises UnknownGame
        self.session = GameSession.open(self.journal, game_id)  # stored states, else every event
        self._store_states()  # an earlier version's journal gets them
        moves = len(self.session.line)
        names = ", ".join(seat.name for seat in self.session.players)
        return [], (
            f"Resumed game #{game_id}: {self.session.rules.info.title}, {names} ({count(moves, 'move')} in force)"
        )

    def resume_latest(self) -> Outcome | None:
        """Open the most recently played unfinished game, if any (start-up). Owner thread only."""
        latest = self.journal.latest_open_game()
        return self.execute(OpenGame(game_id=latest.id, source="startup")) if latest else None

    # -- reading (owner thread) -----------------------------------------------------------------------------
    @property
    def state(self) -> Any:
        """The open game's current state, or ``None``."""
        return self.session.state if self.session else None

    def view(self) -> TableView | None:
        """The open game's public picture, or ``None`` when no game is open."""
        return self.session.rules.public_view(self.session.state) if self.session else None

    def history(self) -> list[HistoryEntry]:
        """The open game's history entries, oldest first (empty when no game is open)."""
        return self.session.history() if self.session else []

    def undo_preview(self, steps: int = 1) -> list[str]:
        """What :class:`Undo` with ``steps`` would undo, newest first."""
        return self.session.undo_preview(steps) if self.session else []

    def redo_preview(self) -> str | None:
        """What :class:`Redo` would redo, or ``None``."""
        return self.session.redo_preview() if self.session else None


def replay(records: Sequence[EventRecord]) -> GameSession:
    """Rebuild a game from its records alone (export round trips, ``companion replay``)."""
    return GameSession(records[0].game_id, records)
