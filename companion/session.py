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
from companion.events import GAME_STARTED, HISTORY_RESTORED, SCHEMA_VERSION, EventRecord, NewEvent
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
    The node where a move was made also stands for that move's history entry. The move's first event is kept
    as its fields (``time``, ``type``, ``payload``; ``record`` holds the record itself only when it cannot be
    rebuilt from them), its later events in ``rest``; ``state`` is kept only at checkpoint depths."""

    __slots__ = ("move", "parent", "depth", "time", "type", "payload", "rest", "record", "state")

    def __init__(self, move: int | None, parent: "_Node | None", time: float | None = None, type: str | None = None,
                 payload: Mapping[str, Any] | None = None, rest: tuple[EventRecord, ...] = (),
                 record: EventRecord | None = None, state: Any = None) -> None:
        self.move, self.parent, self.time, self.type, self.payload = move, parent, time, type, payload
        self.rest, self.record, self.state = rest, record, state
        self.depth = parent.depth + 1 if parent is not None else 0

    @property
    def seq(self) -> int:
        """The ``seq`` of the move's first event (its history entry)."""
        return self.record.seq if self.record is not None else self.move


class _Restore:
    """A history entry that is an undo, redo or jump: its ``record`` and the line ``after`` it."""

    __slots__ = ("seq", "record", "after")

    def __init__(self, record: EventRecord, after: _Node) -> None:
        self.seq, self.record, self.after = record.seq, record, after


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

    __slots__ = ("_session",)

    def __init__(self, session: "GameSession") -> None:
        self._session = session

    def __getitem__(self, move: int) -> tuple[EventRecord, ...]:
        node = self._session._find(move)
        if node is None:
            raise KeyError(move)
        return self._session._records(node)

    def __contains__(self, move: object) -> bool:
        return self._session._find(move) is not None

    def __iter__(self) -> Iterator[int]:
        return (entry.move for entry in self._session._entries if type(entry) is _Node)

    def __len__(self) -> int:
        return self._session._move_count


class GameSession:
    """The open game ``game_id`` played under ``rules``, rebuilt from its journal ``records`` (any iterable,
    in ``seq`` order: a list, or rows streamed from the journal).

    Attributes: ``line`` (move ids in force, oldest first), ``redo_stack`` (the next redo on top),
    ``moves`` (move id → its records). Treat them as read-only.

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
        self._entries: list[_Node | _Restore] = []  # the history after the start: a move's node, or a restore
        self._move_count = 0
        # Entries are found by bisection on seq while they come in seq order and each move's id is its first
        # seq (every journal the table writes); otherwise (hand-made records) through this move id → node map.
        self._index: dict[int, _Node] | None = None
        self._aliases: dict[tuple[_Node, int], _Node] = {}   # a move re-added elsewhere (hand-made journals)
        self.moves: Mapping[int, tuple[EventRecord, ...]] = _Moves(self)
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
    def _share(self, payload: Mapping[str, Any]) -> Mapping[str, Any]:
        """The payload as kept: keys interned; a flat one (strings, whole numbers, booleans, nulls) shared with
        every identical one (up to :data:`SHARED_PAYLOADS` of them)."""
        try:
            values = tuple(payload.values())
            if all(type(value) in _SCALARS for value in values):
                key = (tuple(payload), values, tuple(map(type, values)))
                shared = self._payloads.get(key)
                if shared is None:
                    shared = {sys.intern(k): v for k, v in payload.items()}
                    if len(self._payloads) < SHARED_PAYLOADS:
                        self._payloads[key] = shared
                return shared
            return {sys.intern(k): v for k, v in payload.items()}
        except (TypeError, AttributeError):          # keys that are not strings: kept as they are
            return payload

    def _compact(self, record: EventRecord) -> EventRecord:
        """The record as kept: its type interned, its payload shared (:meth:`_share`)."""
        move = record.seq if record.move == record.seq else record.move
        game_id = self.game_id if record.game_id == self.game_id else record.game_id
        return EventRecord(record.seq, game_id, move, record.time, sys.intern(record.type),
                           self._share(record.payload), record.schema_version)

    def _compact_restore(self, record: EventRecord, moved: list[_Node]) -> EventRecord:
        """A restore record as kept: the move ids in its payload's lists are the game's own int objects (the
        ones ``line`` holds), its strings interned."""
        same = {node.move: node.move for node in moved}

        def kept(value):
            if type(value) is str:
                return sys.intern(value)
            if type(value) is list:
                return [same.get(item, item) if type(item) is int else item for item in value]
            return value

        payload = record.payload
        try:
            payload = {sys.intern(k): kept(v) for k, v in payload.items()}
        except TypeError:
            pass
        game_id = self.game_id if record.game_id == self.game_id else record.game_id
        return EventRecord(record.seq, game_id, record.move, record.time, HISTORY_RESTORED, payload,
                           record.schema_version)

    def _records(self, node: _Node) -> tuple[EventRecord, ...]:
        first = node.record or EventRecord(node.move, self.game_id, node.move, node.time, node.type, node.payload)
        return (first,) + node.rest

    def _take(self, record: EventRecord) -> None:
        if record.type == HISTORY_RESTORED:
            moved = self._restore(record.payload["keep"], record.payload["append"])
            self._add_entry(_Restore(self._compact_restore(record, moved), self._node))
            return
        latest = self._entries[-1] if self._entries else None
        if type(latest) is _Node and latest.move == record.move:     # a further event of the latest move
            record = self._compact(record)
            state = self.rules.evolve(self._state, record.type, record.payload)
            latest.rest += (record,)
            self._state = state
            if latest.state is not None:
                latest.state = state
            self._recent.put(latest, state)
            return
        if self._find(record.move) is not None:
            raise ValueError(f"it belongs to move #{record.move}, which is not the latest move")
        kind, payload = sys.intern(record.type), self._share(record.payload)
        state = self.rules.evolve(self._state, kind, payload)
        rebuilt = (record.seq == record.move and record.game_id == self.game_id
                   and record.schema_version == SCHEMA_VERSION)
        node = _Node(record.move, self._node, record.time, kind, payload,
                     record=None if rebuilt else self._compact(record))
        self.line.append(node.move)
        self._path.append(node)
        self.redo_stack.clear()
        self._move_count += 1
        self._add_entry(node)
        self._arrive(node, state)

    def _add_entry(self, entry: _Node | _Restore) -> None:
        entries = self._entries
        if self._index is None and ((entries and entry.seq <= entries[-1].seq)
                                    or (type(entry) is _Node and entry.seq != entry.move)):
            self._index = {e.move: e for e in reversed(entries) if type(e) is _Node}
        entries.append(entry)
        if self._index is not None and type(entry) is _Node:
            self._index.setdefault(entry.move, entry)

    def _home(self, move: Any) -> _Node:
        """The node where ``move`` was made; ``KeyError`` if there is no such move."""
        node = self._find(move)
        if node is None:
            raise KeyError(f"no move #{move} in game #{self.game_id}")
        return node

    def _find(self, move: Any) -> _Node | None:
        """The node where ``move`` was made, or ``None``."""
        if self._index is not None:
            return self._index.get(move)
        entries = self._entries
        if not is_whole(move) or not entries or move > entries[-1].seq:
            return None
        index = bisect_left(entries, move, key=_SEQ)
        entry = entries[index] if index < len(entries) else None
        return entry if type(entry) is _Node and entry.move == move else None

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
        evolve = self.rules.evolve
        state = evolve(state, node.type, node.payload)
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
        home = self._home(move)
        if home.parent is parent:
            return home
        alias = self._aliases.get((parent, move))
        if alias is None and create:
            alias = self._aliases[(parent, move)] = _Node(move, parent, home.time, home.type, home.payload,
                                                          home.rest, home.record)
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
            state = self._fold(state, child if child is not None else self._home(move))
            if child is not None:
                self._recent.put(child, state)
            node = child
        return state

    def _restore(self, keep: int, append: Sequence[int]) -> list[_Node]:
        """Make the line ``line[:keep] + append``; returns the nodes of the moves it removed and re-added."""
        node = self._node_at(keep)
        added = []
        for move in append:
            node = self._child(node, move, create=True)
            added.append(node)
        state = self._state_at(node)
        removed, removed_nodes = self.line[keep:], self._path[keep:]
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
        return removed_nodes + added

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
            before = self._entries[-2].seq if len(self._entries) > 1 else self.started.seq
            event = self.plan_jump(before)
            return NewEvent(HISTORY_RESTORED, {**event.payload, "action": "undo", "undid_jump": jump.seq})
        if steps > len(self.line):
            raise NothingToUndo("nothing to undo" if not self.line
                                else f"only {len(self.line)} moves can be undone, not {steps}")
        undone = self.line[-steps:]
        return NewEvent(HISTORY_RESTORED, {"action": "undo", "keep": len(self.line) - steps, "append": [],
                                           "undone": undone, "redone": []})

    def _last_jump(self) -> EventRecord | None:
        last = self._entries[-1] if self._entries else None
        if type(last) is _Restore and last.record.payload["action"] == "jump":
            return last.record
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
        """The index in the entries of entry ``seq``; raises :class:`NothingToUndo` if there is none."""
        entries = self._entries
        if self._index is None:
            index = bisect_left(entries, seq, key=_SEQ) if is_whole(seq) else len(entries)
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
        entry = self._entries[self._entry_index(seq)]
        return entry if type(entry) is _Node else entry.after

    @property
    def entries(self) -> list[EventRecord]:
        """The first record of each move and each restore record, in order (a new list: for tools and tests;
        screens read :meth:`history_entries`)."""
        return [self._records(e)[0] if type(e) is _Node else e.record for e in self._entries]

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
        return self._describe_node(self._home(move))

    def _describe_node(self, node: _Node) -> str:
        key = ("move", node.move)
        text = self._texts.get(key)
        if text is None:
            describe = self.rules.describe
            text = "; ".join([describe(node.type, node.payload)] + [describe(r.type, r.payload) for r in node.rest])
            self._texts.put(key, text)
        return text

    def summarize_move(self, move: int) -> str:
        """A short text of a move for a button: ``"#12 Cleo plays a Location on Sports"`` — its first event,
        which is what the player did; later events are its consequences (a phase change, a turn passing)."""
        node = self._home(move)
        return f"#{move} {self.rules.describe(node.type, node.payload)}"

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
        return self._node_in_force(self._home(move))

    def _node_in_force(self, node: _Node) -> bool:
        path = self._path
        if node.depth <= len(path) and path[node.depth - 1] is node:
            return True
        return bool(self._aliases) and node.move in self.line     # re-added elsewhere (hand-made journals only)

    @property
    def entry_count(self) -> int:
        """How many history entries there are, the game's start included (the length of :meth:`history`)."""
        return len(self._entries) + 1

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
        for entry in self._entries[start - 1:stop - 1]:
            if type(entry) is _Restore:
                record = entry.record
                result.append(HistoryEntry(record.seq, record.time, record.payload["action"],
                                           self.describe_entry(record)))
            else:
                result.append(HistoryEntry(entry.seq, entry.time, "move", self._describe_node(entry),
                                           self._node_in_force(entry)))
        return result

    def entry_in_force(self, index: int) -> bool:
        """``history()[index].in_force``, in constant time."""
        if index == 0:
            return True
        entry = self._entries[index - 1]
        return type(entry) is _Restore or self._node_in_force(entry)

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
