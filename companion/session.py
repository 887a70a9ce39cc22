"""One open game: its events, the line of moves in force, undo, redo and jump-back.

Model. Every command's events form a *move*. The *line* is the list of move ids (``move`` = first ``seq``)
whose effects are in force; the state is the fold of those moves' events over the initial state.
Undo, redo and jump-back are ``history_restored`` events whose payload changes the line:
``{"keep": k, "append": [m, ...]}`` means *line = line[:k] + append*. Nothing is deleted, so an undo
can itself be undone (jump to the entry before it) and the whole history replays deterministically.

The redo stack is derived: moves removed by a restore are pushed (the earliest on top); a restore that
re-adds the top move pops it; any new move or any other change clears it.

Costs (none grows with the game's length). Every line the game has had is a path in one tree of moves
(a node = a line: its last move after its parent's line), so the line after any history entry is one node,
and a jump walks from the current node to the target through their last common line: its work is the number
of moves it removes and re-adds. States are not kept per move: the games' ``evolve`` is pure and its states
are immutable values, so a state is recomputed exactly by folding moves onto an earlier one. Kept are the
state at every :data:`CHECKPOINT_EVERY`-th depth of the tree, the current state, and the
:data:`RECENT_STATES` most recently computed ones; any other state is at most ``CHECKPOINT_EVERY - 1``
folds from a kept one. Undo is a look-up among the recent states (or one such bounded refold), redo one
fold. History texts are cached (:data:`TEXT_CACHE` of them), and identical flat payloads are stored once.
"""

from __future__ import annotations

import sys
from bisect import bisect_left
from dataclasses import dataclass
from operator import attrgetter
from typing import Any, Iterable, Iterator, Mapping, Sequence

from companion.checks import is_whole
from companion.commands import PlayerSeat
from companion.errors import JournalError, NothingToRedo, NothingToUndo, UnknownGame
from companion.events import GAME_STARTED, HISTORY_RESTORED, EventRecord, NewEvent
from companion.games import GameRules, find_game

#: A state is kept at every node of this depth multiple (the start, 64 moves in, 128, ...).
CHECKPOINT_EVERY = 64
#: How many recently computed states are kept besides the checkpoints (undo looks here first).
RECENT_STATES = 256
#: How many history texts (moves and restore entries) are kept once described.
TEXT_CACHE = 4096
#: How many distinct flat payloads are shared between identical events.
SHARED_PAYLOADS = 8192

_SCALARS = frozenset((str, int, bool, type(None)))   # shared payloads: no floats (0.0 == -0.0)
_SEQ = attrgetter("seq")


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


class _Node:
    """One line of moves: ``move`` after the line ``parent`` (``None`` at the start); ``depth`` = its length.
    The move's events are ``first`` and ``rest`` (most moves have one); ``state`` is kept only at checkpoint
    depths."""

    __slots__ = ("move", "parent", "depth", "first", "rest", "state")

    def __init__(self, move: int | None, parent: "_Node | None", first: EventRecord | None = None,
                 rest: tuple[EventRecord, ...] = (), state: Any = None) -> None:
        self.move, self.parent, self.first, self.rest, self.state = move, parent, first, rest, state
        self.depth = parent.depth + 1 if parent is not None else 0

    @property
    def records(self) -> tuple[EventRecord, ...]:
        return (self.first,) + self.rest if self.first is not None else ()


class _Recent:
    """A bounded least-recently-used mapping (insertion-ordered dict; the oldest goes first)."""

    __slots__ = ("items", "size")

    def __init__(self, size: int) -> None:
        self.items: dict = {}
        self.size = size

    def get(self, key, default=None):
        items = self.items
        if key in items:
            value = items[key] = items.pop(key)
            return value
        return default

    def put(self, key, value) -> None:
        items = self.items
        items.pop(key, None)
        items[key] = value
        if len(items) > self.size:
            del items[next(iter(items))]


class _Moves(Mapping):
    """``session.moves``: move id → that move's records (a tuple, in ``seq`` order), read-only."""

    __slots__ = ("_home",)

    def __init__(self, home: dict[int, _Node]) -> None:
        self._home = home

    def __getitem__(self, move: int) -> tuple[EventRecord, ...]:
        return self._home[move].records

    def __contains__(self, move: object) -> bool:
        return move in self._home

    def __iter__(self) -> Iterator[int]:
        return iter(self._home)

    def __len__(self) -> int:
        return len(self._home)


class GameSession:
    """The open game ``game_id`` played under ``rules``, rebuilt from its journal ``records`` (any iterable,
    in ``seq`` order: a list, or rows streamed from the journal).

    Attributes: ``line`` (move ids in force, oldest first), ``redo_stack`` (the next redo on top),
    ``moves`` (move id → its records), ``entries`` (the first record of each move and each restore record, in
    order). Treat them as read-only.

    Raises :class:`UnknownGame` without a ``game_started`` first record, :class:`JournalError` if the records
    cannot be replayed (the first bad ``seq`` is named).
    """

    def __init__(self, game_id: int, records: Iterable[EventRecord]) -> None:
        records = iter(records)
        first = next(records, None)
        if first is None or first.type != GAME_STARTED:
            raise UnknownGame(f"game #{game_id} has no {GAME_STARTED} event")
        started = first.payload
        self.game_id = game_id
        self.rules: GameRules = find_game(started["game"])
        self.players = tuple(PlayerSeat(p["name"], p.get("colour", "white")) for p in started["players"])
        self.options = dict(started["options"])
        self.started = first
        self._root = _Node(None, None, state=self.rules.new_game(self.players, self.options))
        self._node, self._state = self._root, self._root.state
        self._home: dict[int, _Node] = {}          # move id → the node where it was made
        self._aliases: dict[tuple[_Node, int], _Node] = {}   # a move re-added elsewhere (hand-made journals)
        self.moves: Mapping[int, tuple[EventRecord, ...]] = _Moves(self._home)
        self.entries: list[EventRecord] = []       # first record of each move, and each restore record
        self._after: list[_Node] = []              # the line right after each entry
        self._sorted = True                        # entries in increasing seq (then found by bisection)
        self.line: list[int] = []
        self._path: list[_Node] = []               # the nodes of the line: _path[i].depth == i + 1
        self.redo_stack: list[int] = []
        self._recent = _Recent(RECENT_STATES)
        self._texts = _Recent(TEXT_CACHE)
        self._payloads: dict[tuple, Mapping[str, Any]] = {}
        for record in records:
            try:
                self._take(record)
            except (KeyError, TypeError, ValueError, IndexError) as error:
                raise JournalError(f"game #{game_id} cannot be replayed at event #{record.seq} "
                                   f"({record.type}): {error}") from error

    @property
    def state(self) -> Any:
        """The current state (after every move in force)."""
        return self._state

    # -- applying committed records ---------------------------------------------------------------------
    def _compact(self, record: EventRecord) -> EventRecord:
        """The record as kept: its type and payload keys interned, a flat payload shared with identical ones."""
        payload = record.payload
        try:
            values = tuple(payload.values())
            if all(type(value) in _SCALARS for value in values):
                key = (tuple(payload), values, tuple(map(type, values)))
                shared = self._payloads.get(key)
                if shared is None:
                    shared = {sys.intern(k): v for k, v in payload.items()}
                    if len(self._payloads) < SHARED_PAYLOADS:
                        self._payloads[key] = shared
                payload = shared
            else:
                payload = {sys.intern(k): v for k, v in payload.items()}
        except (TypeError, AttributeError):          # keys that are not strings: kept as they are
            pass
        move = record.seq if record.move == record.seq else record.move
        game_id = self.game_id if record.game_id == self.game_id else record.game_id
        return EventRecord(record.seq, game_id, move, record.time, sys.intern(record.type), payload,
                           record.schema_version)

    def _take(self, record: EventRecord) -> None:
        record = self._compact(record)
        if record.type == HISTORY_RESTORED:
            self._restore(record.payload["keep"], record.payload["append"])
            self._add_entry(record, self._node)
        elif record.move in self._home:
            node = self._home[record.move]
            last = self.entries[-1]
            if node is not self._node or last.type == HISTORY_RESTORED or last.move != record.move:
                raise ValueError(f"it belongs to move #{record.move}, which is not the latest move")
            state = self.rules.evolve(self._state, record.type, record.payload)
            node.rest += (record,)
            self._state = state
            if node.state is not None:
                node.state = state
            self._recent.put(node, state)
        else:
            state = self.rules.evolve(self._state, record.type, record.payload)
            node = _Node(record.move, self._node, record)
            self._home[record.move] = node
            self.line.append(record.move)
            self._path.append(node)
            self.redo_stack.clear()
            self._add_entry(record, node)
            self._arrive(node, state)

    def _add_entry(self, record: EventRecord, node: _Node) -> None:
        if self.entries and record.seq <= self.entries[-1].seq:
            self._sorted = False
        self.entries.append(record)
        self._after.append(node)

    def _arrive(self, node: _Node, state: Any) -> None:
        """Make ``node`` (with its ``state``) the current line."""
        if node.depth % CHECKPOINT_EVERY == 0 and node.state is None:
            node.state = state
        self._recent.put(node, state)
        self._node, self._state = node, state

    def take(self, records: Sequence[EventRecord]) -> None:
        """Apply freshly committed ``records`` (one command's events, or one restore event)."""
        for record in records:
            self._take(record)

    def preview(self, events: Sequence[NewEvent]) -> Any:
        """The state that ``events`` would produce, without changing anything (used before committing)."""
        state = self._state
        for event in events:
            state = self.rules.evolve(state, event.type, event.payload)
        return state

    def _fold(self, state: Any, node: _Node) -> Any:
        evolve, first = self.rules.evolve, node.first
        state = evolve(state, first.type, first.payload)
        for record in node.rest:
            state = evolve(state, record.type, record.payload)
        return state

    def _state_at(self, node: _Node) -> Any:
        """The state after the line ``node``: kept, or folded from the nearest kept state above it (at most
        ``CHECKPOINT_EVERY - 1`` moves up for a line the game has had). Every state computed is remembered."""
        below: list[_Node] = []
        recent = self._recent
        while True:
            if node is self._node:
                state = self._state
                break
            if node.state is not None:
                state = node.state
                break
            state = recent.get(node, recent)
            if state is not recent:
                break
            below.append(node)
            node = node.parent
        for node in reversed(below):
            state = self._fold(state, node)
            if node.depth % CHECKPOINT_EVERY == 0:
                node.state = state
            recent.put(node, state)
        return state

    def _child(self, parent: _Node, move: int, create: bool) -> _Node | None:
        """The line ``parent`` + ``move`` (``KeyError`` for an unknown move; ``None`` if ``create`` is false
        and no line of the game ever was that)."""
        home = self._home[move]
        if home.parent is parent:
            return home
        alias = self._aliases.get((parent, move))
        if alias is None and create:
            alias = self._aliases[(parent, move)] = _Node(move, parent, home.first, home.rest)
        return alias

    def _node_at(self, keep: int) -> _Node:
        if not is_whole(keep) or not 0 <= keep <= len(self.line):
            raise ValueError(f"keep must be a whole number from 0 to {len(self.line)}, not {keep!r}")
        return self._path[keep - 1] if keep else self._root

    def preview_restore(self, keep: int, append: Sequence[int]) -> Any:
        """The state that a restore to ``line[:keep] + append`` would produce, without changing anything."""
        node = self._node_at(keep)
        state = self._state_at(node)
        for move in append:
            child = self._child(node, move, create=False) if node is not None else None
            state = self._fold(state, child if child is not None else self._home[move])
            if child is not None:
                self._recent.put(child, state)
            node = child
        return state

    def _restore(self, keep: int, append: Sequence[int]) -> None:
        node = self._node_at(keep)
        added = []
        for move in append:
            node = self._child(node, move, create=True)
            added.append(node)
        state = self._state_at(node)
        removed = self.line[keep:]
        del self.line[keep:]
        del self._path[keep:]
        self.redo_stack.extend(reversed(removed))
        for child in added:
            if self.redo_stack and self.redo_stack[-1] == child.move:
                self.redo_stack.pop()
            else:
                self.redo_stack.clear()
            self.line.append(child.move)
            self._path.append(child)
        self._arrive(node, state)

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
        The work is in proportion to the moves the jump removes and re-adds.
        """
        node = self._entry_node(seq)
        path, added = self._path, []
        while node.depth > len(path):
            added.append(node.move)
            node = node.parent
        while node.depth and path[node.depth - 1] is not node:
            added.append(node.move)
            node = node.parent
        keep = node.depth
        added.reverse()
        if keep == len(self.line) and not added:
            raise NothingToUndo(f"the game is already as it was after entry #{seq}")
        return NewEvent(HISTORY_RESTORED, {"action": "jump", "to": seq, "keep": keep, "append": added,
                                           "undone": self.line[keep:], "redone": list(added)})

    def _entry_index(self, seq: int) -> int:
        """The index in ``entries`` of entry ``seq``; raises :class:`NothingToUndo` if there is none."""
        entries = self.entries
        if self._sorted:
            index = bisect_left(entries, seq, key=_SEQ)
            if index < len(entries) and entries[index].seq == seq:
                return index
        else:
            for index, entry in enumerate(entries):
                if entry.seq == seq:
                    return index
        raise NothingToUndo(f"#{seq} is not an entry in the history of game #{self.game_id}")

    def _entry_node(self, seq: int) -> _Node:
        if seq == self.started.seq:
            return self._root
        return self._after[self._entry_index(seq)]

    def line_after(self, seq: int) -> list[int]:
        """The line of moves in force right after history entry ``seq`` (raises :class:`NothingToUndo` if
        ``seq`` is not an entry)."""
        node, line = self._entry_node(seq), []
        while node.parent is not None:
            line.append(node.move)
            node = node.parent
        line.reverse()
        return line

    # -- describing -------------------------------------------------------------------------------------
    def describe_move(self, move: int) -> str:
        """The readable text of a move (its events joined by ``"; "``)."""
        key = ("move", move)
        text = self._texts.get(key)
        if text is None:
            text = "; ".join(self.rules.describe(r.type, r.payload) for r in self._home[move].records)
            self._texts.put(key, text)
        return text

    def summarize_move(self, move: int) -> str:
        """A short text of a move for a button: ``"#12 Cleo plays a Location on Sports"`` — its first event,
        which is what the player did; later events are its consequences (a phase change, a turn passing)."""
        first = self._home[move].first
        return f"#{move} {self.rules.describe(first.type, first.payload)}"

    def describe_entry(self, record: EventRecord) -> str:
        """The readable text of a history entry."""
        if record.type != HISTORY_RESTORED:
            return self.describe_move(record.move)
        key = ("entry", record.seq)
        text = self._texts.get(key)
        if text is not None:
            return text
        payload = record.payload
        parts = []
        if payload["undone"]:
            parts.append("undid " + " | ".join(f"#{m} {self.describe_move(m)}" for m in reversed(payload["undone"])))
        if payload["redone"]:
            parts.append("redid " + " | ".join(f"#{m} {self.describe_move(m)}" for m in payload["redone"]))
        head = {"undo": "Undo", "redo": "Redo", "jump": f"Back to #{payload.get('to')}"}[payload["action"]]
        if payload.get("undid_jump"):
            head = f"Undo of the jump #{payload['undid_jump']}"
        text = f"{head}: " + ("; ".join(parts) or "nothing changed")
        self._texts.put(key, text)
        return text

    def in_force(self, move: int) -> bool:
        """Whether ``move``'s effect is part of the game now (``KeyError`` for an unknown move)."""
        node = self._home[move]
        if node.depth <= len(self._path) and self._path[node.depth - 1] is node:
            return True
        return bool(self._aliases) and move in self.line     # re-added elsewhere (hand-made journals only)

    @property
    def entry_count(self) -> int:
        """How many history entries there are, the game's start included (the length of :meth:`history`)."""
        return len(self.entries) + 1

    def history_entries(self, start: int, stop: int) -> list[HistoryEntry]:
        """``history()[start:stop]`` (``0 <= start <= stop``), oldest first, with work in proportion to
        ``stop - start``: what a screen asks for, a page at a time."""
        stop = min(stop, self.entry_count)
        result = []
        if start == 0 and stop > 0:
            names = ", ".join(seat.name for seat in self.players)
            result.append(HistoryEntry(self.started.seq, self.started.time, "start",
                                       f"Game started: {self.rules.title}, {names}"))
            start = 1
        for record in self.entries[start - 1:stop - 1]:
            if record.type == HISTORY_RESTORED:
                result.append(HistoryEntry(record.seq, record.time, record.payload["action"],
                                           self.describe_entry(record)))
            else:
                result.append(HistoryEntry(record.seq, record.time, "move", self.describe_move(record.move),
                                           self.in_force(record.move)))
        return result

    def entry_in_force(self, index: int) -> bool:
        """``history()[index].in_force``, in constant time."""
        if index == 0:
            return True
        record = self.entries[index - 1]
        return record.type == HISTORY_RESTORED or self.in_force(record.move)

    def history(self) -> list[HistoryEntry]:
        """Every entry, oldest first, each marked whether its move is in force now. The first entry is
        the game's start (kind ``start``): jumping to it takes the game back to its set-up.
        A screen should read pages (:meth:`history_entries`, :class:`companion.history.HistoryWindow`)."""
        return self.history_entries(0, self.entry_count)

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

    def redo_hint(self) -> str:
        """A short text of what one Redo would redo, for the Redo button ("" if nothing)."""
        return self.summarize_move(self.redo_stack[-1]) if self.redo_stack else ""
