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

Start-up (:meth:`GameSession.open`). The state at every :data:`SNAPSHOT_EVERY`-th depth is also stored in the
journal once it is computed (``snapshots`` table: companion/journal.py, companion/snapshots.py; the table hands
them over after each command, :meth:`GameSession.take_unsaved`). Opening a game that has stored states reads
only its history's skeleton (each entry's seq and time, and the undo/redo/jump payloads), builds the tree of
moves from it without folding anything, and computes the current state from the nearest stored state above it
(at most ``SNAPSHOT_EVERY - 1`` moves up on any line the game has had): the stored state plus the moves after
it. A move's events are read from the journal only when something needs them (a fold, a text), a page of
entries at a time. A stored state is used only if its row matches the events (the move's depth, time and last
seq), its bytes match their CRC and decode, and it is of this code's state format; otherwise the search goes on
up the line (to the start if need be). A game without stored states (an earlier version's journal) is replayed
in full, as before, and gets them.
"""

from __future__ import annotations

import contextlib
import gc
import json
import logging
import sys
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from companion.checks import is_whole
from companion.commands import PlayerSeat
from companion.errors import JournalError, NothingToRedo, NothingToUndo, UnknownGame
from companion.events import GAME_STARTED, HISTORY_RESTORED, SCHEMA_VERSION, EventRecord, NewEvent, Recordable
from companion.game import Game
from companion.games import find_game
from companion.words import join_parts

log = logging.getLogger("companion.session")

#: A state is kept at every node of this depth multiple (the start, 64 moves in, 128, ...).
CHECKPOINT_EVERY = 64
#: How many recently computed states are kept besides the checkpoints (undo looks here first).
RECENT_STATES = 256
#: How many history texts (moves and restore entries) are kept once described.
TEXT_CACHE = 4096
#: How many distinct flat payloads are shared between identical events.
SHARED_PAYLOADS = 8192
#: The state at every node of this depth multiple is stored in the journal once computed (benchmarks/run.py,
#: ``open`` and ``disk``: each stored state costs a few hundred bytes of journal and backup; opening folds at
#: most this many moves minus one onto the nearest stored state).
SNAPSHOT_EVERY = 64
#: Events read at a time, at most, when moves are read on demand (a run of nearby moves is one read).
LOAD_SPAN = 512

_SCALARS = frozenset((str, int, bool, type(None)))  # shared payloads: no floats (0.0 == -0.0)
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
    rebuilt from them), its later events in ``rest``; ``state`` is kept only at checkpoint depths. A node of
    a game opened from its skeleton (:meth:`GameSession.open`) has ``type`` ``None`` until its events are read."""

    __slots__ = ("move", "parent", "depth", "time", "type", "payload", "rest", "record", "state")

    # Typed as a loaded move's node: the start node (``parent`` None) has no move, and a skeleton node has
    # no ``type``/``payload`` until :meth:`GameSession._load` reads them; the code checks both before use.
    move: int
    parent: _Node  # None at the start node only (depth 0), where no walk up goes further
    depth: int
    time: float
    type: str
    payload: Mapping[str, Any]
    rest: tuple[EventRecord, ...]
    record: EventRecord | None
    state: Any

    def __init__(
        self,
        move: int | None,
        parent: _Node | None,
        time: float | None = None,
        type: str | None = None,
        payload: Mapping[str, Any] | None = None,
        rest: tuple[EventRecord, ...] = (),
        record: EventRecord | None = None,
        state: Any = None,
    ) -> None:
        self.move = move  # type: ignore[assignment]
        self.parent = parent  # type: ignore[assignment]
        self.time = time  # type: ignore[assignment]
        self.type = type  # type: ignore[assignment]
        self.payload = payload  # type: ignore[assignment]
        self.rest = rest
        self.record = record
        self.state = state
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


class _SeqIndex:
    """The moves found by id while the history's tree is built from its skeleton: a bisection of the entries'
    seqs (a list of the ints the nodes already hold; the entries are in seq order then), with ``get`` like the
    dict index the session keeps for hand-made journals."""

    __slots__ = ("seqs", "entries")

    def __init__(self, entries: list) -> None:
        self.entries = entries
        self.seqs = [entry.seq for entry in entries]

    def get(self, move: Any, default: Any = None) -> Any:
        if type(move) is not int:
            return default
        seqs = self.seqs
        index = bisect_left(seqs, move)
        if index < len(seqs) and seqs[index] == move:
            entry = self.entries[index]
            if isinstance(entry, _Node):
                return entry
        return default


class _Moves(Mapping):
    """``session.moves``: move id → that move's records (a tuple, in ``seq`` order), read-only."""

    __slots__ = ("_session",)

    def __init__(self, session: GameSession) -> None:
        self._session = session

    def __getitem__(self, move: int) -> tuple[EventRecord, ...]:
        node = self._session._find(move)
        if node is None:
            raise KeyError(move)
        return self._session._records(node)

    def __contains__(self, move: object) -> bool:
        return self._session._find(move) is not None

    def __iter__(self) -> Iterator[int]:
        return (entry.move for entry in self._session._entries if isinstance(entry, _Node))

    def __len__(self) -> int:
        return self._session._move_count


def _replay_problem(error: Exception) -> str:
    """What was wrong with an event that could not be folded, in words rather than Python's: a name the game
    does not have (a KeyError's ``'XYZ'``), a value of the wrong kind (``int('lots')``), or the error's own."""
    if isinstance(error, KeyError):
        return f"{error.args[0]!r} is not in the game (an unknown name or a missing field)"
    text = str(error)
    if text.startswith(("invalid literal for", "could not convert")):
        return f"a value of the wrong kind ({text.rsplit(': ', 1)[-1]} is not a number)"
    return text


class GameSession:
    """The open game ``game_id`` played under ``rules``, rebuilt from its journal ``records`` (any iterable,
    in ``seq`` order: a list, or rows streamed from the journal).

    Attributes: ``line`` (move ids in force, oldest first), ``redo_stack`` (the next redo on top),
    ``moves`` (move id → its records). Treat them as read-only.

    Raises :class:`UnknownGame` without a ``game_started`` first record, :class:`JournalError` if the records
    cannot be replayed (the first bad ``seq`` is named).
    """

    def __init__(self, game_id: int, records: Iterable[EventRecord], *, journal: Any = None) -> None:
        records = iter(records)
        first = next(records, None)
        if first is None or first.type != GAME_STARTED:
            raise UnknownGame(f"game #{game_id} has no {GAME_STARTED} event")
        started = first.payload
        self.game_id = game_id
        self.rules: Game = find_game(started["game"])
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
        self._aliases: dict[tuple[_Node, int], _Node] = {}  # a move re-added elsewhere (hand-made journals)
        self.moves: Mapping[int, tuple[EventRecord, ...]] = _Moves(self)
        self.line: list[int] = []
        self._path: list[_Node] = []  # the nodes of the line: _path[i].depth == i + 1
        self.redo_stack: list[int] = []
        self._recent = _Recent(RECENT_STATES)
        self._texts = _Recent(TEXT_CACHE)
        self._payloads: dict[tuple, Mapping[str, Any]] = {}
        # Stored states (the journal's snapshots table): the journal, this code's state format, the nodes that
        # have a stored state (node -> its row) and those whose state was computed but is not stored yet.
        self._journal = journal
        self._format = None
        if journal is not None:
            from companion.snapshots import format_key

            self._format = format_key(self.rules, self._root.state)
        self._stored: dict[_Node, Any] = {}
        self._unsaved: dict[_Node, None] = {}
        self._loaded: _Node | None = None
        #: The move whose stored state the opening started from (``None``: every move was folded).
        self.opened_from: int | None = None
        for record in records:
            try:
                self._take(record)
            except (KeyError, TypeError, ValueError, IndexError) as error:
                raise JournalError(
                    f"game #{game_id} cannot be replayed at event #{record.seq} ({record.type}): "
                    f"{_replay_problem(error)}"
                ) from error

    @classmethod
    def open(cls, journal: Any, game_id: int) -> GameSession:
        """The game ``game_id`` of ``journal`` (a :class:`companion.journal.Journal`), opened from its stored
        states when it has any (see the module docstring: the skeleton of its history, then the nearest stored
        state plus the moves after it), else replayed from every event. Either way the session is the one a full
        replay gives: the same state, line, redo stack and history. Errors as for ``GameSession(...)``."""
        first = journal.first_event(game_id)
        if first is None or first.type != GAME_STARTED:
            raise UnknownGame(f"game #{game_id} has no {GAME_STARTED} event")
        session = cls(game_id, [first], journal=journal)
        rows = journal.snapshot_rows(game_id, session._format)
        if rows:
            collecting = gc.isenabled()
            gc.disable()  # ~100,000 new nodes (a tree: no cycles) would set off full collections of the heap
            try:
                with contextlib.closing(journal.skeleton(game_id, first.seq)) as batches:
                    session._open_skeleton(batches, rows)
                return session
            except (KeyError, TypeError, ValueError, IndexError, JournalError) as error:
                log.warning(
                    "game #%s cannot be opened from its stored states (%s); replaying every event", game_id, error
                )
            finally:
                if collecting:
                    gc.enable()
        return cls(game_id, journal.iter_events(game_id), journal=journal)

    def _open_skeleton(self, batches: Iterable[Sequence[tuple]], stored: Mapping[int, Any]) -> None:
        """Build the tree of moves from the history's skeleton (``Journal.skeleton``: lists of rows, consumed
        one list at a time so the rows never lie in memory whole beside the tree), nothing folded, the moves'
        events not read; mark the nodes whose stored row matches (depth and time); then compute the current
        state from the nearest stored state above it."""
        game_id, Node = self.game_id, _Node
        line, path, entries, redo = self.line, self._path, self._entries, self.redo_stack
        node = self._node
        # moves are found by id by bisecting the entries' seqs (in order as they are built): no dict of every
        # move, which was the peak of the opening's memory
        index_of = _SeqIndex(entries)
        seqs = index_of.seqs
        self._index = index_of  # type: ignore[assignment]  # only while the tree is built
        for rows in batches:
            # the batch's undo/redo/jump payloads decoded in one go (one JSON array: their keys are shared strings)
            at = [index for index, row in enumerate(rows) if row[2] is not None]
            payloads = json.loads("[" + ",".join(rows[index][2] for index in at) + "]")
            start = 0
            for index, payload in zip(at + [len(rows)], payloads + [None]):
                if index > start:  # a run of moves: each the child of the one before
                    nodes: list[_Node] = []
                    add = nodes.append
                    for seq, time, _, _ in rows[start:index]:
                        node = Node(seq, node, time)
                        add(node)
                    moves = [row[0] for row in rows[start:index]]
                    line.extend(moves)
                    path.extend(nodes)
                    entries.extend(nodes)
                    seqs.extend(moves)
                    redo.clear()
                start = index + 1
                if payload is None:
                    break
                seq, time, _, schema_version = rows[index]
                self._node = node
                self._restore(payload["keep"], payload["append"], fold=False)
                node = self._node
                entries.append(
                    _Restore(EventRecord(seq, game_id, seq, time, HISTORY_RESTORED, payload, schema_version), node)
                )
                seqs.append(seq)
            self._move_count += len(rows) - len(at)
        self._node = node
        for move, row in stored.items():  # the stored states whose row matches its move's depth and time
            home = self._find(move)
            if home is not None and row.depth == home.depth and row.time == home.time:
                self._stored[home] = row
        self._index = None
        if self._aliases:  # a move re-added elsewhere: not a journal the table wrote, replay it
            raise ValueError("a move is re-added away from where it was made")
        self._state = None
        state = self._state_at(self._node)
        self.opened_from = self._loaded.move if self._loaded is not None else None
        self._arrive(self._node, state)

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
        except (TypeError, AttributeError):  # keys that are not strings: kept as they are
            return payload

    def _compact(self, record: EventRecord) -> EventRecord:
        """The record as kept: its type interned, its payload shared (:meth:`_share`)."""
        move = record.seq if record.move == record.seq else record.move
        game_id = self.game_id if record.game_id == self.game_id else record.game_id
        return EventRecord(
            record.seq,
            game_id,
            move,
            record.time,
            sys.intern(record.type),
            self._share(record.payload),
            record.schema_version,
        )

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
        return EventRecord(
            record.seq, game_id, record.move, record.time, HISTORY_RESTORED, payload, record.schema_version
        )

    def _records(self, node: _Node) -> tuple[EventRecord, ...]:
        if node.type is None:
            self._load((node,))
        first = node.record or EventRecord(node.move, self.game_id, node.move, node.time, node.type, node.payload)
        return (first,) + node.rest

    def _take(self, record: EventRecord) -> None:
        if record.type == HISTORY_RESTORED:
            moved = self._restore(record.payload["keep"], record.payload["append"])
            self._add_entry(_Restore(self._compact_restore(record, moved), self._node))
            return
        latest = self._entries[-1] if self._entries else None
        if isinstance(latest, _Node) and latest.move == record.move:  # a further event of the latest move
            if latest.type is None:
                self._load((latest,))
            record = self._compact(record)
            state = self._evolve(self._state, record.type, record.payload)
            latest.rest += (record,)
            self._state = state
            if latest.state is not None:
                latest.state = state
            self._recent.put(latest, state)
            return
        if self._find(record.move) is not None:
            raise ValueError(f"it belongs to move #{record.move}, which is not the latest move")
        kind, payload = sys.intern(record.type), self._share(record.payload)
        state = self._evolve(self._state, kind, payload)
        rebuilt = (
            record.seq == record.move and record.game_id == self.game_id and record.schema_version == SCHEMA_VERSION
        )
        node = _Node(
            record.move, self._node, record.time, kind, payload, record=None if rebuilt else self._compact(record)
        )
        self.line.append(node.move)
        self._path.append(node)
        self.redo_stack.clear()
        self._move_count += 1
        self._add_entry(node)
        self._arrive(node, state)

    def _add_entry(self, entry: _Node | _Restore) -> None:
        entries = self._entries
        if self._index is None and (
            (entries and entry.seq <= entries[-1].seq) or (isinstance(entry, _Node) and entry.seq != entry.move)
        ):
            self._index = {e.move: e for e in reversed(entries) if isinstance(e, _Node)}
        entries.append(entry)
        if self._index is not None and isinstance(entry, _Node):
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
        return entry if isinstance(entry, _Node) and entry.move == move else None

    def _arrive(self, node: _Node, state: Any) -> None:
        """Make ``node`` (with its ``state``) the current line."""
        if node.depth % CHECKPOINT_EVERY == 0 and node.state is None:
            node.state = state
        if self._journal is not None and node.depth % SNAPSHOT_EVERY == 0 and node.depth and node not in self._stored:
            self._unsaved[node] = None
        self._recent.put(node, state)
        self._node, self._state = node, state

    # -- stored states and moves read on demand ------------------------------------------------------------
    def _load(self, nodes: Iterable[_Node]) -> None:
        """Read the events of the nodes whose moves are not read yet (opened from the skeleton), nearby moves
        in one read of at most :data:`LOAD_SPAN` seqs. Raises :class:`JournalError` if the journal cannot give
        them (closed, damaged) or they are not the move's."""
        missing = sorted({node.move: node for node in nodes if node.type is None and node.parent is not None}.items())
        if not missing:
            return
        if self._journal is None:
            raise JournalError(f"game #{self.game_id}: the events of move #{missing[0][0]} were never read")
        entries = self._entries
        spans: list[list] = []  # [first seq, last seq, {move: node}]
        for move, node in missing:
            index = bisect_left(entries, move, key=_SEQ)
            last = entries[index + 1].seq - 1 if index + 1 < len(entries) else sys.maxsize
            if spans and move - spans[-1][0] < LOAD_SPAN and spans[-1][1] < move:
                spans[-1][1] = last
                spans[-1][2][move] = node
            else:
                spans.append([move, last, {move: node}])
        for first, last, wanted in spans:
            found: dict[int, list[EventRecord]] = {}
            for record in self._journal.event_range(self.game_id, first, last, list(wanted)):
                if record.move in wanted:
                    found.setdefault(record.move, []).append(record)
            for move, node in wanted.items():
                records = found.get(move)
                if not records or records[0].seq != move:
                    raise JournalError(f"game #{self.game_id}: the events of move #{move} are not in the journal")
                head = records[0]
                node.payload = self._share(head.payload)
                node.rest = tuple(self._compact(record) for record in records[1:])
                if head.schema_version != SCHEMA_VERSION:
                    node.record = self._compact(head)
                node.type = sys.intern(head.type)

    def _load_stored(self, node: _Node) -> Any:
        """The stored state after ``node``'s move if its row still matches the events (the move's last seq) and
        its bytes decode; else ``None`` (the row is forgotten and logged)."""
        from companion.snapshots import SnapshotError, decode_state

        row = self._stored.pop(node)
        try:
            last = self._records(node)[-1].seq
            if last != row.seq:
                raise SnapshotError(f"its move's last event is #{last}, not #{row.seq}")
            data = self._journal.snapshot_state(self.game_id, node.move, self._format)
            if data is None:
                raise SnapshotError("its bytes are missing or damaged")
            state = decode_state(data)
            if type(state) is not type(self._root.state):
                raise SnapshotError(f"it holds a {type(state).__name__}, not a {type(self._root.state).__name__}")
        except (SnapshotError, JournalError) as error:
            log.warning("the stored state of game #%s after move #%s is not used: %s", self.game_id, node.move, error)
            return None
        self._stored[node] = row
        self._loaded = node
        return state

    def take_unsaved(self) -> list[tuple[Any, Any]]:
        """The states computed since the last call that the journal should store: ``(row, state)`` pairs, ``row``
        a :class:`companion.journal.SnapshotRow`; each is then taken to be stored. Empty for a session without a
        journal or with a read-only one, or one whose entries the table did not write in order (hand-made
        journals)."""
        if not self._unsaved:
            return []
        nodes, self._unsaved = list(self._unsaved), {}
        if self._index is not None or self._aliases or getattr(self._journal, "read_only", False):
            return []
        from companion.journal import SnapshotRow

        result = []
        for node in nodes:
            if node in self._stored or self._find(node.move) is not node:
                continue
            state = self._state_at(node)
            row = SnapshotRow(node.move, self._records(node)[-1].seq, node.depth, node.time)
            self._stored[node] = row
            result.append((row, state))
        return result

    @property
    def stored_format(self) -> str | None:
        """The state format this session stores and reads states in (``None`` without a journal)."""
        return self._format

    def take(self, records: Sequence[EventRecord]) -> None:
        """Apply freshly committed ``records`` (one command's events, or one restore event)."""
        for record in records:
            self._take(record)

    def preview(self, events: Sequence[Recordable]) -> Any:
        """The state that ``events`` would produce, without changing anything (used before committing)."""
        state = self._state
        for event in events:  # through the journal's form, so what is previewed is what a replay gives
            state = self._evolve(state, event.type, event.payload)
        return state

    def _evolve(self, state: Any, event_type: str, payload: Mapping[str, Any]) -> Any:
        """The state after the journal row (``event_type``, ``payload``), decoded by the game's event codec."""
        return self.rules.evolve(state, self.rules.events.decode(event_type, payload))

    def _describe(self, event_type: str, payload: Mapping[str, Any]) -> str:
        return self.rules.describe(self.rules.events.decode(event_type, payload))

    def describe_record(self, record: EventRecord) -> str:
        """One readable line for a game event the journal holds (``record``)."""
        return self._describe(record.type, record.payload)

    def _fold(self, state: Any, node: _Node) -> Any:
        if node.type is None:
            self._load((node,))
        evolve = self._evolve
        state = evolve(state, node.type, node.payload)
        for record in node.rest:
            state = evolve(state, record.type, record.payload)
        return state

    def _state_at(self, node: _Node) -> Any:
        """The state after the line ``node``: kept, or folded from the nearest kept state above it (at most
        ``CHECKPOINT_EVERY - 1`` moves up for a line the game has had). Every state computed is remembered."""
        below: list[_Node] = []
        recent, stored = self._recent, self._stored
        while True:
            if node is self._node and self._state is not None:
                state = self._state
                break
            if node.state is not None:
                state = node.state
                break
            state = recent.get(node, recent)
            if state is not recent:
                break
            if stored and node in stored:
                state = self._load_stored(node)
                if state is not None:
                    if node.depth % CHECKPOINT_EVERY == 0:
                        node.state = state
                    recent.put(node, state)
                    break
            below.append(node)
            node = node.parent
        self._load(below)
        saving = self._journal is not None
        for node in reversed(below):
            state = self._fold(state, node)
            if node.depth % CHECKPOINT_EVERY == 0:
                node.state = state
            if saving and node.depth % SNAPSHOT_EVERY == 0 and node not in stored:
                self._unsaved[node] = None
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
            if home.type is None:
                self._load((home,))
            alias = self._aliases[(parent, move)] = _Node(
                move, parent, home.time, home.type, home.payload, home.rest, home.record
            )
        return alias

    def _node_at(self, keep: int) -> _Node:
        if not is_whole(keep) or not 0 <= keep <= len(self.line):
            raise ValueError(f"keep must be a whole number from 0 to {len(self.line)}, not {keep!r}")
        return self._path[keep - 1] if keep else self._root

    def preview_restore(self, keep: int, append: Sequence[int]) -> Any:
        """The state that a restore to ``line[:keep] + append`` would produce, without changing anything."""
        node: _Node | None = self._node_at(keep)
        state = self._state_at(self._node_at(keep))
        self._load([self._home(move) for move in append])
        for move in append:
            child = self._child(node, move, create=False) if node is not None else None
            state = self._fold(state, child if child is not None else self._home(move))
            if child is not None:
                self._recent.put(child, state)
            node = child
        return state

    def _restore(self, keep: int, append: Sequence[int], fold: bool = True) -> list[_Node]:
        """Make the line ``line[:keep] + append``; returns the nodes of the moves it removed and re-added.
        ``fold=False`` (a skeleton being read) changes the line only; the state is computed later."""
        node = self._node_at(keep)
        added = []
        for move in append:
            child = self._child(node, move, create=True)
            assert child is not None  # create=True always gives the line
            node = child
            added.append(node)
        state = self._state_at(node) if fold else None
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
        if fold:
            self._arrive(node, state)
        else:
            self._node = node
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
            raise NothingToUndo(
                "nothing to undo" if not self.line else f"only {len(self.line)} moves can be undone, not {steps}"
            )
        undone = self.line[-steps:]
        return NewEvent(
            HISTORY_RESTORED,
            {"action": "undo", "keep": len(self.line) - steps, "append": [], "undone": undone, "redone": []},
        )

    def _last_jump(self) -> EventRecord | None:
        last = self._entries[-1] if self._entries else None
        if isinstance(last, _Restore) and last.record.payload["action"] == "jump":
            return last.record
        return None

    def plan_redo(self) -> NewEvent:
        """The ``history_restored`` event that redoes the most recently undone move; raises :class:`NothingToRedo`."""
        if not self.redo_stack:
            raise NothingToRedo("nothing to redo")
        move = self.redo_stack[-1]
        return NewEvent(
            HISTORY_RESTORED,
            {"action": "redo", "keep": len(self.line), "append": [move], "undone": [], "redone": [move]},
        )

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
        return NewEvent(
            HISTORY_RESTORED,
            {
                "action": "jump",
                "to": seq,
                "keep": keep,
                "append": added,
                "undone": self.line[keep:],
                "redone": list(added),
            },
        )

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
        return entry if isinstance(entry, _Node) else entry.after

    @property
    def entries(self) -> list[EventRecord]:
        """The first record of each move and each restore record, in order (a new list: for tools and tests;
        screens read :meth:`history_entries`)."""
        self._load([e for e in self._entries if isinstance(e, _Node)])
        return [self._records(e)[0] if isinstance(e, _Node) else e.record for e in self._entries]

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

    def _named_move(self, move: Any) -> str:
        """:meth:`describe_move` of a move a restore's payload names; one that is no move of this game (an edited
        or damaged journal: the replay folds only ``keep`` and ``append``, these lists are its words) is said so,
        rather than stopping the history screen or ``companion replay`` with a ``KeyError``."""
        try:
            return self.describe_move(move)
        except (KeyError, TypeError):
            return "(no such move in this game's journal)"

    def _describe_node(self, node: _Node) -> str:
        key = ("move", node.move)
        text = self._texts.get(key)
        if text is None:
            if node.type is None:
                self._load((node,))
            describe = self._describe
            text = join_parts([describe(node.type, node.payload)] + [describe(r.type, r.payload) for r in node.rest])
            self._texts.put(key, text)
        return text

    def summarize_move(self, move: int) -> str:
        """A short text of a move for a button: ``"#12 Cleo plays a Location on Sports"`` — its first event,
        which is what the player did; later events are its consequences (a phase change, a turn passing)."""
        node = self._home(move)
        if node.type is None:
            self._load((node,))
        return f"#{move} {self._describe(node.type, node.payload)}"

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
            parts.append("undid " + " | ".join(f"#{m} {self._named_move(m)}" for m in reversed(payload["undone"])))
        if payload["redone"]:
            parts.append("redid " + " | ".join(f"#{m} {self._named_move(m)}" for m in payload["redone"]))
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
        return bool(self._aliases) and node.move in self.line  # re-added elsewhere (hand-made journals only)

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
            result.append(
                HistoryEntry(
                    self.started.seq, self.started.time, "start", f"Game started: {self.rules.info.title}, {names}"
                )
            )
            start = 1
        page = self._entries[start - 1 : stop - 1]
        unread = [e for e in page if isinstance(e, _Node)]
        self._load([e for e in unread if e.type is None and ("move", e.move) not in self._texts.items])
        for entry in page:
            if isinstance(entry, _Restore):
                record = entry.record
                result.append(
                    HistoryEntry(record.seq, record.time, record.payload["action"], self.describe_entry(record))
                )
            else:
                result.append(
                    HistoryEntry(entry.seq, entry.time, "move", self._describe_node(entry), self._node_in_force(entry))
                )
        return result

    def entry_in_force(self, index: int) -> bool:
        """``history()[index].in_force``, in constant time."""
        if index == 0:
            return True
        entry = self._entries[index - 1]
        return isinstance(entry, _Restore) or self._node_in_force(entry)

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
