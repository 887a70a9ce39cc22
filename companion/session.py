"""One open game: its events, the line of moves in force, the states along that line, undo and redo.

Model. Every command's events form a *move*. The *line* is the list of move ids (``move`` = first ``seq``)
whose effects are in force; the state is the fold of those moves' events over the initial state.
Undo, redo and jump-back are ``history_restored`` events whose payload changes the line:
``{"keep": k, "append": [m, ...]}`` means *line = line[:k] + append*. Nothing is deleted, so an undo
can itself be undone (jump to the entry before it) and the whole history replays deterministically.

The redo stack is derived: moves removed by a restore are pushed (the earliest on top); a restore that
re-adds the top move pops it; any new move or any other change clears it.

States along the line are kept (python-chess's stack of snapshots), so undo costs one slice and redo
one move; a jump to a different branch refolds from the last common state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from companion.checks import is_whole
from companion.commands import PlayerSeat
from companion.errors import JournalError, NothingToRedo, NothingToUndo, UnknownGame
from companion.events import GAME_STARTED, HISTORY_RESTORED, EventRecord, NewEvent
from companion.games import GameRules, find_game


@dataclass(frozen=True)
class HistoryEntry:
    """One line of the history screen: ``seq`` of the entry (a move id or a restore event),
    ``time`` (Unix seconds), ``kind`` (``move``, ``undo``, ``redo`` or ``jump``), readable ``text``, and
    ``in_force`` (for a move: whether its effect is currently part of the game)."""

    seq: int
    time: float
    kind: str
    text: str
    in_force: bool = True


class GameSession:
    """The open game ``game_id`` played under ``rules``, rebuilt from its journal ``records``.

    Raises :class:`JournalError` if the records cannot be replayed (the first bad ``seq`` is named).
    """

    def __init__(self, game_id: int, records: Sequence[EventRecord]) -> None:
        if not records or records[0].type != GAME_STARTED:
            raise UnknownGame(f"game #{game_id} has no {GAME_STARTED} event")
        started = records[0].payload
        self.game_id = game_id
        self.rules: GameRules = find_game(started["game"])
        self.players = tuple(PlayerSeat(p["name"], p.get("colour", "white")) for p in started["players"])
        self.options = dict(started["options"])
        self.started = records[0]
        self.moves: dict[int, list[EventRecord]] = {}
        self.entries: list[EventRecord] = []   # first record of each move, and each restore record
        self.line: list[int] = []
        self.redo_stack: list[int] = []
        self.states: list[Any] = [self.rules.new_game(self.players, self.options)]
        for record in records[1:]:
            try:
                self._take(record)
            except (KeyError, TypeError, ValueError, IndexError) as error:
                raise JournalError(f"game #{game_id} cannot be replayed at event #{record.seq} "
                                   f"({record.type}): {error}") from error

    @property
    def state(self) -> Any:
        """The current state (after every move in force)."""
        return self.states[-1]

    # -- applying committed records ---------------------------------------------------------------------
    def _take(self, record: EventRecord) -> None:
        if record.type == HISTORY_RESTORED:
            self.entries.append(record)
            self._restore(record.payload["keep"], record.payload["append"])
        elif record.move in self.moves:
            self.moves[record.move].append(record)
            self.states[-1] = self.rules.evolve(self.states[-1], record.type, record.payload)
        else:
            self.entries.append(record)
            self.moves[record.move] = [record]
            self.line.append(record.move)
            self.redo_stack.clear()
            self.states.append(self.rules.evolve(self.states[-1], record.type, record.payload))

    def take(self, records: Sequence[EventRecord]) -> None:
        """Apply freshly committed ``records`` (one command's events, or one restore event)."""
        for record in records:
            self._take(record)

    def preview(self, events: Sequence[NewEvent]) -> Any:
        """The state that ``events`` would produce, without changing anything (used before committing)."""
        state = self.state
        for event in events:
            state = self.rules.evolve(state, event.type, event.payload)
        return state

    def _fold_move(self, state: Any, move: int) -> Any:
        for record in self.moves[move]:
            state = self.rules.evolve(state, record.type, record.payload)
        return state

    def preview_restore(self, keep: int, append: Sequence[int]) -> Any:
        """The state that a restore to ``line[:keep] + append`` would produce, without changing anything."""
        state = self.states[keep]
        for move in append:
            state = self._fold_move(state, move)
        return state

    def _restore(self, keep: int, append: Sequence[int]) -> None:
        removed = self.line[keep:]
        del self.line[keep:]
        del self.states[keep + 1:]
        self.redo_stack.extend(reversed(removed))
        for move in append:
            if self.redo_stack and self.redo_stack[-1] == move:
                self.redo_stack.pop()
            else:
                self.redo_stack.clear()
            self.line.append(move)
            self.states.append(self._fold_move(self.states[-1], move))

    # -- planning undo / redo / jump -------------------------------------------------------------------
    def plan_undo(self, steps: int) -> NewEvent:
        """The ``history_restored`` event that undoes the last ``steps`` moves.

        Raises :class:`NothingToUndo` if fewer than ``steps`` moves are in force (or ``steps`` < 1).
        """
        if not is_whole(steps) or steps < 1:
            raise NothingToUndo(f"undo takes a number of moves ≥ 1, not {steps!r}")
        jump = self._last_jump()
        if steps == 1 and jump is not None:
            # the last thing done was a jump back: undo puts back what the jump took away
            before = self.entries[-2].seq if len(self.entries) > 1 else self.started.seq
            event = self.plan_jump(before)
            return NewEvent(HISTORY_RESTORED, {**event.payload, "action": "undo", "undid_jump": jump.seq})
        if steps > len(self.line):
            raise NothingToUndo("nothing to undo" if not self.line
                                else f"only {len(self.line)} moves can be undone, not {steps}")
        undone = self.line[-steps:]
        return NewEvent(HISTORY_RESTORED, {"action": "undo", "keep": len(self.line) - steps, "append": [],
                                           "undone": undone, "redone": []})

    def _last_jump(self) -> EventRecord | None:
        last = self.entries[-1] if self.entries else None
        if last is not None and last.type == HISTORY_RESTORED and last.payload["action"] == "jump":
            return last
        return None

    def plan_redo(self) -> NewEvent:
        """The ``history_restored`` event that redoes the most recently undone move; raises :class:`NothingToRedo`."""
        if not self.redo_stack:
            raise NothingToRedo("nothing to redo")
        move = self.redo_stack[-1]
        return NewEvent(HISTORY_RESTORED, {"action": "redo", "keep": len(self.line), "append": [move],
                                           "undone": [], "redone": [move]})

    def plan_jump(self, seq: int) -> NewEvent:
        """The ``history_restored`` event that returns the game to how it was right after entry ``seq``.

        ``seq`` may be the game's start (its ``game_started`` seq), a move, or an undo/redo entry.
        Raises :class:`NothingToUndo` if ``seq`` is not an entry of this game or is where the game is now.
        """
        target = self.line_after(seq)
        keep = 0
        while keep < min(len(target), len(self.line)) and target[keep] == self.line[keep]:
            keep += 1
        if keep == len(target) == len(self.line):
            raise NothingToUndo(f"the game is already as it was after entry #{seq}")
        return NewEvent(HISTORY_RESTORED, {"action": "jump", "to": seq, "keep": keep, "append": target[keep:],
                                           "undone": self.line[keep:], "redone": target[keep:]})

    def line_after(self, seq: int) -> list[int]:
        """The line of moves in force right after history entry ``seq``."""
        if seq == self.started.seq:
            return []
        line: list[int] = []
        for entry in self.entries:
            if entry.type == HISTORY_RESTORED:
                line = line[:entry.payload["keep"]] + list(entry.payload["append"])
            else:
                line.append(entry.move)
            if entry.seq == seq:
                return line
        raise NothingToUndo(f"#{seq} is not an entry in the history of game #{self.game_id}")

    # -- describing -------------------------------------------------------------------------------------
    def describe_move(self, move: int) -> str:
        """The readable text of a move (its events joined by ``"; "``)."""
        return "; ".join(self.rules.describe(r.type, r.payload) for r in self.moves[move])

    def summarize_move(self, move: int) -> str:
        """A short text of a move for a button: ``"#12 Cleo plays a Location on Sports"`` — its first event,
        which is what the player did; later events are its consequences (a phase change, a turn passing)."""
        first = self.moves[move][0]
        return f"#{move} {self.rules.describe(first.type, first.payload)}"

    def describe_entry(self, record: EventRecord) -> str:
        """The readable text of a history entry."""
        if record.type != HISTORY_RESTORED:
            return self.describe_move(record.move)
        payload = record.payload
        parts = []
        if payload["undone"]:
            parts.append("undid " + " | ".join(f"#{m} {self.describe_move(m)}" for m in reversed(payload["undone"])))
        if payload["redone"]:
            parts.append("redid " + " | ".join(f"#{m} {self.describe_move(m)}" for m in payload["redone"]))
        head = {"undo": "Undo", "redo": "Redo", "jump": f"Back to #{payload.get('to')}"}[payload["action"]]
        if payload.get("undid_jump"):
            head = f"Undo of the jump #{payload['undid_jump']}"
        return f"{head}: " + ("; ".join(parts) or "nothing changed")

    def history(self) -> list[HistoryEntry]:
        """Every entry, oldest first, each marked whether its move is in force now. The first entry is
        the game's start (kind ``start``): jumping to it takes the game back to its set-up."""
        in_force = set(self.line)
        names = ", ".join(seat.name for seat in self.players)
        result = [HistoryEntry(self.started.seq, self.started.time, "start",
                               f"Game started: {self.rules.title}, {names}")]
        for record in self.entries:
            if record.type == HISTORY_RESTORED:
                result.append(HistoryEntry(record.seq, record.time, record.payload["action"],
                                           self.describe_entry(record)))
            else:
                result.append(HistoryEntry(record.seq, record.time, "move", self.describe_move(record.move),
                                           record.move in in_force))
        return result

    def undo_preview(self, steps: int = 1) -> list[str]:
        """What undoing ``steps`` moves would undo, newest first (empty if there is nothing to undo)."""
        jump = self._last_jump()
        if steps == 1 and jump is not None:
            return [f"#{jump.seq} the jump back to #{jump.payload.get('to')}"]
        return [f"#{m} {self.describe_move(m)}" for m in reversed(self.line[-steps:])] if steps > 0 else []

    def undo_hint(self) -> str:
        """A short text of what one Undo would undo, for the Undo button ("" if nothing)."""
        jump = self._last_jump()
        if jump is not None:
            return f"#{jump.seq} the jump back to #{jump.payload.get('to')}"
        return self.summarize_move(self.line[-1]) if self.line else ""

    def redo_preview(self) -> str | None:
        """What redo would redo, or ``None``."""
        return f"#{self.redo_stack[-1]} {self.describe_move(self.redo_stack[-1])}" if self.redo_stack else None
