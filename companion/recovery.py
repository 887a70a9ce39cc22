"""Start-up recovery: rebuild the journal from the best of what can still be read, never inventing history.

:func:`companion.journal.open_journal` calls :func:`plan_recovery` when the journal is damaged, missing,
stale or cannot be written. The *sources* are the journal file itself (as SQLite sees it, and, if it has
a ``-wal``, its main file alone), and every backup generation (:mod:`companion.backups`) and full copy.

Rules:

* A source's events are trusted only as far as they are contiguous. In a damaged file, a seq that cannot
  be read (and is not recorded in the journal's ``lost`` table as dropped by an earlier recovery) is a
  hole that may have held any game's event: each game is cut before the first hole after its start, and
  its last move is dropped too when the hole follows it directly (it may be half a move). Backups and
  sound files are consistent snapshots, so they have no holes.
* A game's start (its ``game_started`` event) must be readable; its events must replay move by move
  (a move that does not replay ends it).
* Per game (same id, same first event), the source with the longest such prefix wins; on a tie, the
  journal before the backups, newer backups before older. Sources are never spliced: every game comes
  whole from one source.
* The rebuilt journal records the seqs it does not hold in its ``lost`` table and never reuses them
  (``meta.seq_floor``), so a later recovery knows those holes are not damage.
"""

from __future__ import annotations

import bisect
import json
import logging
import math
import sqlite3
import sys
import time as _time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from companion import backups as _backups
from companion.events import GAME_STARTED, EventRecord
from companion.words import count

log = logging.getLogger("companion.recovery")

INF = math.inf
EVENT_COLUMNS = _backups.EVENT_COLUMNS
GAME_COLUMNS = _backups.GAME_COLUMNS


# -- sources ------------------------------------------------------------------------------------------
@dataclass
class Source:
    """One place events can be recovered from.

    ``index`` is ``(seq, game_id, move, time, type)`` per readable event in seq order; full rows come
    from ``rows`` (in memory) or, up to ``db_max``, from the SQLite file ``db_uri``. ``unknown`` lists
    the seq intervals ``(first, last)`` that could not be read (``last`` may be infinite).
    """

    label: str
    where: Path | None
    priority: int
    backup: bool = False
    index: list[tuple] = field(default_factory=list)
    games: dict[int, tuple] = field(default_factory=dict)
    lost: list[tuple[int, int]] = field(default_factory=list)
    unknown: list[tuple[int, float]] = field(default_factory=list)
    tiles: list[tuple] | None = None
    rows: dict[int, tuple] = field(default_factory=dict)
    db_uri: str | None = None
    db_max: int = 0

    @property
    def max_seq(self) -> int:
        return self.index[-1][0] if self.index else 0

    def records(self, game_id: int, upto: float) -> list[tuple]:
        """Full event rows of ``game_id`` with seq ≤ ``upto``, in seq order. A copy's rows end just before its
        first row that cannot be read or is not a valid event (a damaged backup: a flipped byte in a payload),
        and nothing after it is used, so the prefix never splices over the gap."""
        result: list[tuple] = []
        if self.db_uri is not None:
            db = sqlite3.connect(self.db_uri, uri=True, check_same_thread=False)
            try:
                cursor = db.execute(
                    f"SELECT {EVENT_COLUMNS} FROM events WHERE game_id = ? AND seq <= ? ORDER BY seq",
                    (game_id, min(upto, self.db_max)),
                )
                while True:
                    try:
                        row = cursor.fetchone()
                    except sqlite3.Error:  # e.g. "Could not decode to UTF-8 column 'payload'", a bad page
                        return self._ended(game_id, result)
                    if row is None:
                        break
                    valid = _valid_event(tuple(row))
                    if valid is None:  # not an event (its payload is not JSON): the copy ends here
                        return self._ended(game_id, result)
                    result.append(valid)
            except sqlite3.Error:
                return self._ended(game_id, result)
            finally:
                db.close()
        result += [
            row
            for seq, row in sorted(self.rows.items())
            if row[1] == game_id and seq <= upto and seq > (self.db_max if self.db_uri else 0)
        ]
        return result

    def _ended(self, game_id: int, rows: list[tuple]) -> list[tuple]:
        """``rows`` (a copy's events of ``game_id``, cut short at an unreadable or invalid one) without the last
        move if the cut fell inside it (this source's index says the move goes on after the last row): a half
        move would replay to a state the table never had."""
        if not rows:
            return rows
        return _whole_moves(rows, next((e for e in self.index if e[1] == game_id and e[0] > rows[-1][0]), None))


def _whole_moves(rows: list[tuple], following: tuple | None) -> list[tuple]:
    """``rows`` (events or index entries in seq order: ``[2]`` is the move) cut short before ``following`` (the
    next one, or ``None``), without their last move if ``following`` belongs to it too: half a move would replay
    to a state the table never had."""
    if rows and following is not None and following[2] == rows[-1][2]:
        move = rows[-1][2]
        return [r for r in rows if r[2] != move]
    return rows


def _valid_event(row) -> tuple | None:
    try:
        seq, game_id, move, time, kind, payload, version = row
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (seq, game_id, move, version)):
            return None
        if not isinstance(kind, str) or not isinstance(payload, str) or not isinstance(time, (int, float)):
            return None
        if not isinstance(json.loads(payload), dict):
            return None
        return (seq, game_id, move, float(time), kind, payload, version)
    except (TypeError, ValueError):
        return None


def _valid_game(row) -> tuple | None:
    try:
        game_id, game, created, status, players, options = row
        if not isinstance(game_id, int) or not isinstance(game, str):
            return None
        json.loads(players), json.loads(options)
        return (game_id, game, float(created), status, players, options)
    except (TypeError, ValueError):
        return None


def _gaps(seqs: list[int], lost: list[tuple[int, int]], tail: bool) -> list[tuple[int, float]]:
    """The seq intervals absent from ``seqs`` (sorted) and not in ``lost``; with ``tail``, also everything
    after the last one."""
    lost = sorted(lost)
    gaps: list[tuple[int, float]] = []
    previous = 0
    for seq in seqs:
        if seq > previous + 1:
            gaps.append((previous + 1, seq - 1))
        previous = seq
    if tail:
        gaps.append((previous + 1, INF))
    result: list[tuple[int, float]] = []
    for first, last in gaps:  # take out the recorded (lost) stretches
        pieces = [(first, last)]
        for lo, hi in lost:
            next_pieces = []
            for a, b in pieces:
                if hi < a or lo > b:
                    next_pieces.append((a, b))
                    continue
                if a < lo:
                    next_pieces.append((a, lo - 1))
                if hi < b:
                    next_pieces.append((hi + 1, b))
            pieces = next_pieces
        result.extend(pieces)
    return result


def _readable_rows(source: sqlite3.Connection, table: str, key: str, columns: str) -> list[tuple]:
    """Every row of ``table`` (ordered by its integer primary key ``key``) that can still be read.

    Rows are read one seek at a time, so a damaged page costs only the rows on it: when a seek fails,
    the reader jumps ahead by key (doubling the jump) to the next readable row, then bisects back to the
    first readable key after the damage, and carries on.
    """
    rows: list[tuple] = []
    last = 0

    def first_after(after: int):
        row = source.execute(
            f"SELECT {columns} FROM {table} WHERE {key} > ? ORDER BY {key} LIMIT 1", (after,)
        ).fetchone()
        if row is not None and (not isinstance(row[0], int) or row[0] <= after):
            raise sqlite3.DatabaseError("keys out of order (damaged b-tree)")
        return row

    while True:
        try:
            row = first_after(last)
        except sqlite3.Error:
            row, step, good = None, 1, None
            while step < 1 << 40:  # jump over the damaged stretch
                try:
                    row = first_after(last + step)
                    good = last + step
                    break
                except sqlite3.Error:
                    step *= 2
            if good is not None and step > 1:  # bisect back: the first readable key after the damage
                low, high = last + step // 2, good
                while high - low > 1:
                    middle = (low + high) // 2
                    try:
                        found = first_after(middle)
                        high, row = middle, found
                    except sqlite3.Error:
                        low = middle
                # the row just after `low` may be readable although the seek from `low` is not
        if row is None:
            return rows
        rows.append(row)
        last = row[0]


def _plain_rows(db: sqlite3.Connection, sql: str) -> list[tuple] | None:
    try:
        return [tuple(r) for r in db.execute(sql)]
    except sqlite3.Error:
        return None


def damaged_source(path: Path, label: str, priority: int, *, ignore_wal: bool = False) -> Source | None:
    """What can be read row by row from a damaged journal file (``ignore_wal``: its main file alone)."""
    query = "mode=ro&immutable=1" if ignore_wal else "mode=ro"
    try:
        db = sqlite3.connect(f"file:{path}?{query}", uri=True, check_same_thread=False)
        db.execute("PRAGMA writable_schema = ON")  # a truncated file (fewer pages than its header says)
    except sqlite3.Error:
        return None
    try:
        try:
            from companion.journal import JOURNAL_FORMAT

            if db.execute("PRAGMA user_version").fetchone()[0] > JOURNAL_FORMAT:
                return None  # a newer companion's file: not ours to interpret
        except sqlite3.Error:
            pass
        events = []
        for row in _readable_rows(db, "events", "seq", EVENT_COLUMNS):
            valid = _valid_event(row)
            if valid is not None:
                events.append(valid)
        games = {}
        for row in _readable_rows(db, "games", "id", GAME_COLUMNS):
            valid = _valid_game(row)
            if valid is not None:
                games[valid[0]] = valid
        lost, tiles = _lost_and_tiles(db)
    except sqlite3.Error:
        return None
    finally:
        db.close()
    source = Source(
        label,
        path,
        priority,
        index=[(e[0], e[1], e[2], e[3], sys.intern(e[4])) for e in events],
        games=games,
        lost=lost,
        tiles=tiles,
        rows={e[0]: e for e in events},
    )
    source.unknown = _gaps([e[0] for e in events], lost, tail=True)
    return source


def _lost_and_tiles(db: sqlite3.Connection) -> tuple[list[tuple[int, int]], list | None]:
    """The ``lost`` ranges ``(first_seq, last_seq)`` and the ``tiles`` rows of an open journal or copy."""
    lost = [(int(a), int(b)) for a, b in (_plain_rows(db, "SELECT first_seq, last_seq FROM lost") or [])]
    return lost, _plain_rows(db, "SELECT uid, kind, details, learned FROM tiles")


def sqlite_source(path: Path, label: str, priority: int, *, backup: bool, immutable: bool) -> Source | None:
    """A sound SQLite journal or copy: everything in it, no holes. ``None`` if it is not sound."""
    uri = f"file:{path}?mode=ro" + ("&immutable=1" if immutable else "")
    try:
        db = sqlite3.connect(uri, uri=True, check_same_thread=False)
    except sqlite3.Error:
        return None
    try:
        from companion.journal import JOURNAL_FORMAT

        if db.execute("PRAGMA user_version").fetchone()[0] > JOURNAL_FORMAT:
            return None
        if db.execute("PRAGMA quick_check").fetchone()[0] != "ok":
            return None
        index = [
            (r[0], r[1], r[2], r[3], sys.intern(r[4]))
            for r in db.execute("SELECT seq, game_id, move, time, type FROM events ORDER BY seq")
        ]
        games = {r[0]: tuple(r) for r in db.execute(f"SELECT {GAME_COLUMNS} FROM games")}
        lost, tiles = _lost_and_tiles(db)
    except sqlite3.Error:
        return None
    finally:
        db.close()
    return Source(
        label,
        path,
        priority,
        backup=backup,
        index=index,
        games=games,
        lost=lost,
        tiles=tiles,
        db_uri=uri,
        db_max=index[-1][0] if index else 0,
    )


def generation_source(generation: _backups.Generation, priority: int) -> Source | None:
    """A backup generation: its base and the readable run of its delta parts."""
    label = f"backup {generation.name}"
    source = sqlite_source(generation.base, label, priority, backup=True, immutable=True)
    if source is None:  # a damaged base: what can be read of it, with its holes
        source = damaged_source(generation.base, label, priority, ignore_wal=True)
        if source is None:
            return None
        source.backup = True
        source.unknown = [gap for gap in source.unknown if gap[0] <= generation.base_seq]
        if not generation.parts:
            source.unknown.append((source.max_seq + 1, INF))
    last_seq = source.max_seq
    broken = bool(generation.stray)
    for part in generation.parts:
        content = _backups.read_part(part.path)
        if content is None:
            broken = True
            break
        for row in content.events:
            valid = _valid_event(tuple(row))
            if valid is None or valid[0] <= last_seq:
                broken = True
                break
            source.rows[valid[0]] = valid
            source.index.append((valid[0], valid[1], valid[2], valid[3], sys.intern(valid[4])))
            last_seq = valid[0]
        else:
            for game_id, row in content.games.items():
                valid = _valid_game(row)
                if valid is not None:
                    source.games[game_id] = valid
            if content.tiles is not None:
                source.tiles = content.tiles
            if content.complete:
                continue
        broken = True
        break
    if broken:
        source.unknown.append((last_seq + 1, INF))
    source.where = generation.base
    return source


def backup_sources(folder: Path, first_priority: int) -> list[Source]:
    """Every backup generation and earlier versions' full copies in ``folder``, newest first."""
    sources = []
    for offset, generation in enumerate(_backups.generations(folder)):
        if generation.legacy:
            source = sqlite_source(
                generation.base, f"backup {generation.base.name}", first_priority + offset, backup=True, immutable=True
            )
        else:
            source = generation_source(generation, first_priority + offset)
        if source is not None:
            sources.append(source)
        else:
            log.warning("backup %s cannot be read at all", generation.name)
    return sources


# -- choosing -----------------------------------------------------------------------------------------
@dataclass
class Candidate:
    source: Source
    index: list[tuple]  # the kept events' index entries
    cut: float  # first seq not trusted after the game's start (INF if none)


@dataclass
class Choice:
    """The events kept of one game and where they come from."""

    game_id: int
    start: tuple  # (seq, time) of its game_started event
    source: Source
    records: list[tuple]  # full rows
    state: Any
    finished: bool
    game_row: tuple
    replay_error: str | None = None


@dataclass
class GameReport:
    """What recovery did with one game (see :meth:`line`). ``kept`` events (``first_seq``..``last_kept``)
    came from ``source``; ``missing_from``..``missing_to`` are later events of the game seen somewhere but
    not kept (``why``), and ``rest_in`` is the file that still holds them. ``certain`` is True when the
    source is a consistent snapshot (nothing after ``last_kept`` can have been lost from it)."""

    game_id: int
    title: str
    kept: int
    first_seq: int | None
    last_kept: int | None
    restored_to: float | None
    source: str
    from_backup: bool
    missing_from: int | None
    missing_to: int | None
    why: str
    rest_in: Path | None
    certain: bool = True

    @property
    def whole(self) -> bool:
        """Nothing of this game is known to be missing."""
        return self.kept > 0 and not self.why

    def line(self, *, name_source: bool = True) -> str:
        """``Game #3 (TV Wars: ABS, CBA): events #1–#70 kept, as it was at 09:02; events #71–#158 could
        not be read whole and are in journal.sqlite3.damaged-…``. ``name_source=False`` leaves out which
        backup it came from (said once for all games)."""
        when = (
            f", as it was at {_time.strftime('%H:%M', _time.localtime(self.restored_to))}" if self.restored_to else ""
        )
        head = f"Game #{self.game_id} ({self.title})"
        if not self.kept:
            rest = f"; its readable events are in {self.rest_in.name}" if self.rest_in else ""
            if self.why:
                return f"{head}: {self.why}{rest}"
            return f"{head}: its start could not be read, so nothing of it was kept{rest}"
        span = _span(self.first_seq, self.last_kept)
        if self.whole:
            if self.certain:
                return f"{head}: all {count(self.kept, 'event')} kept{when}"
            if self.from_backup:
                source = f", from the {self.source}" if name_source else ""
                return f"{head}: {span} kept{when}{source} (any later events could not be read)"
            return f"{head}: {span} kept{when} ({count(self.kept, 'event')}, all that could be read)"
        source = f" (from the {self.source})" if self.from_backup and name_source else ""
        kept = f"{span} kept{when}{source}"
        if self.missing_from is not None:
            lost = _span(self.missing_from, self.missing_to)
        else:
            lost = f"the events after #{self.last_kept}"
        rest = f" and are in {self.rest_in.name}" if self.rest_in else ", and no backup holds them"
        return f"{head}: {kept}; {lost} {self.why}{rest}"


def _span(first: int | None, last: int | None) -> str:
    return f"event #{first}" if first == last or last is None else f"events #{first}–#{last}"


@dataclass
class Plan:
    """The recovered journal's content: chosen games, tiles, the seqs it will not hold (``lost``) and the
    first seq it may use (``seq_floor`` + 1); ``reports`` per game, in game order."""

    choices: list[Choice]
    tiles: list[tuple] | None
    lost: list[tuple[int, int]]
    seq_floor: int
    reports: list[GameReport]
    sources: list[Source]

    @property
    def events(self) -> int:
        return sum(len(c.records) for c in self.choices)

    @property
    def backups_used(self) -> list[Path]:
        seen: list[Path] = []
        for choice in self.choices:
            where = choice.source.where
            if choice.source.backup and where is not None and where not in seen:
                seen.append(where)
        return seen


def _candidate(source: Source, events: list[tuple]) -> Candidate | None:
    first = events[0]
    if first[4] != GAME_STARTED:
        return None
    starts = [gap[0] for gap in source.unknown]
    position = bisect.bisect_right(starts, first[0])
    cut = source.unknown[position][0] if position < len(starts) else INF
    kept = [e for e in events if e[0] < cut]
    if cut != INF and kept and kept[-1][0] == cut - 1 and len(kept) > 1:
        move = kept[-1][2]  # the hole follows it directly: it may be half a move
        kept = [e for e in kept if e[2] != move] if move != first[0] else kept
    return Candidate(source, kept, cut)


def _replay(game_id: int, rows: list[tuple]) -> tuple[int, Any, bool, str | None]:
    """How many of ``rows`` replay, move by move: ``(count, state, finished, error)``."""
    from companion.session import GameSession

    records = [EventRecord(r[0], r[1], r[2], r[3], r[4], json.loads(r[5]), r[6]) for r in rows]
    try:
        session = GameSession(game_id, records[:1])
    except Exception as error:
        return 0, None, False, f"its start does not replay ({error})"
    state = session.state
    good = 1
    position = 1
    while position < len(records):
        move = records[position].move
        end = position
        while end < len(records) and records[end].move == move:
            end += 1
        try:
            session.take(records[position:end])
        except Exception as error:  # the rest of this game's history is not consistent
            return (
                good,
                state,
                session.rules.outcome(state) is not None,
                f"do not replay (event #{records[position].seq}: {error})",
            )
        state = session.state
        good = end
        position = end
    return good, state, session.rules.outcome(state) is not None, None


def _title(game_row: tuple) -> str:
    from companion.games import game_title

    try:
        title = game_title(game_row[1])
    except Exception:
        title = game_row[1]
    try:
        names = ", ".join(p["name"] for p in json.loads(game_row[4]))
    except (TypeError, ValueError, KeyError):
        names = ""
    return f"{title}: {names}" if names else title


def _game_row(source: Source, game_id: int, start_row: tuple) -> tuple:
    row = source.games.get(game_id)
    if row is not None:
        return row
    payload = json.loads(start_row[5])  # rebuilt from the game_started event
    return (
        game_id,
        payload.get("game", ""),
        start_row[3],
        "open",
        json.dumps(payload.get("players", [])),
        json.dumps(payload.get("options", {})),
    )


def _report(
    choice: Choice, candidates: list[Candidate], seen: list[tuple[int, int, Source]], damaged_at: Path | None
) -> GameReport:
    """Say what was kept of one game, what was not, and where the rest is. ``seen``: ``(seq, priority,
    source)`` of every event of this game in any source, in seq order."""
    last_kept = choice.records[-1][0]
    later = [entry for entry in seen if entry[0] > last_kept]
    missing_from = later[0][0] if later else None
    missing_to = max(entry[0] for entry in later) if later else None
    rest_in = None
    if later:
        holder = min((entry for entry in later if entry[0] == missing_from), key=lambda entry: entry[1])[2]
        rest_in = holder.where if holder.where is not None else damaged_at
    chosen = next((c for c in candidates if c.source is choice.source), None)
    hole_after = (
        chosen is not None
        and chosen.cut != INF
        and (
            chosen.cut == last_kept + 1
            or len(chosen.index) > len(choice.records)
            or any(e[0] > last_kept for e in chosen.index)
        )
    )
    if (
        missing_from is not None
        and chosen is not None
        and last_kept < chosen.cut < missing_from
        and not choice.replay_error
    ):
        missing_from = int(chosen.cut)  # the unreadable stretch starts there
    if choice.replay_error:
        why = choice.replay_error
    elif later or hole_after:
        why = "could not be read whole"
        rest_in = rest_in or damaged_at
    else:
        why = ""
    certain = not choice.source.unknown and not choice.source.backup
    return GameReport(
        choice.game_id,
        _title(choice.game_row),
        len(choice.records),
        choice.records[0][0],
        last_kept,
        choice.records[-1][3],
        choice.source.label,
        choice.source.backup,
        missing_from,
        missing_to,
        why,
        rest_in,
        certain,
    )


def _nothing_kept(game_id: int, source: Source, why: str, rest_in: Path | None) -> GameReport:
    row = source.games.get(game_id) or (game_id, "?", 0.0, "open", "[]", "{}")
    return GameReport(game_id, _title(row), 0, None, None, None, source.label, source.backup, None, None, why, rest_in)


def _cut_before(choice: Choice, seq: int) -> Choice | None:
    """``choice`` kept only up to just before event ``seq``, where its events start to use the numbers of a game
    kept before it (two journals' backups in one folder; a journal behind its backups that was written to):
    replayed again, with the reason for the report; ``None`` if nothing before it replays."""
    rows = _whole_moves(  # a clash inside a move leaves that move out whole
        [r for r in choice.records if r[0] < seq], next((r for r in choice.records if r[0] >= seq), None)
    )
    count, state, finished, error = _replay(choice.game_id, rows) if rows else (0, None, False, None)
    if not count:
        return None
    why = "clash with another game's events (kept in their place)"
    return replace(choice, records=rows[:count], state=state, finished=finished, replay_error=error or why)


def plan_recovery(sources: list[Source], damaged_at: Path | None) -> Plan:
    """Choose, per game, the longest trustworthy prefix among ``sources`` (see the module docstring).
    ``damaged_at`` names where the damaged file's unread events remain (for the reports)."""
    per_game: dict[tuple, list[Candidate]] = {}
    seen: dict[int, list[tuple[int, int, Source]]] = {}  # game id -> its events in every source
    unreadable_starts: dict[int, Source] = {}
    failed: dict[int, tuple[Source, str]] = {}
    for source in sources:
        by_game: dict[int, list[tuple]] = {}
        for entry in source.index:
            by_game.setdefault(entry[1], []).append(entry)
        for game_id, events in by_game.items():
            seen.setdefault(game_id, []).extend((e[0], source.priority, source) for e in events)
            candidate = _candidate(source, events)
            if candidate is None:
                unreadable_starts.setdefault(game_id, source)
                continue
            identity = (game_id, events[0][0], round(events[0][3], 6))
            per_game.setdefault(identity, []).append(candidate)

    choices: list[Choice] = []
    for identity, candidates in per_game.items():
        candidates.sort(key=lambda c: (-len(c.index), bool(c.source.unknown), c.source.priority))
        best: Choice | None = None
        best_count = -1
        for candidate in candidates:
            if len(candidate.index) <= best_count:
                break
            rows = candidate.source.records(identity[0], candidate.index[-1][0])
            wanted = {e[0] for e in candidate.index}
            rows = [r for r in rows if r[0] in wanted]
            count, state, finished, error = _replay(identity[0], rows)
            if count > best_count:
                best_count = count
                best = Choice(
                    identity[0],
                    identity[1:],
                    candidate.source,
                    rows[:count],
                    state,
                    finished,
                    _game_row(candidate.source, identity[0], rows[0]),
                    error,
                )
        if best is not None and best.records:
            choices.append(best)
        elif best is not None:
            failed[identity[0]] = (best.source, best.replay_error or "its start does not replay")
    for entries in seen.values():
        entries.sort(key=lambda entry: (entry[0], entry[1]))

    # one game per id, no seq used twice (two journals' backups mixed in one folder)
    choices.sort(key=lambda c: (c.source.priority, -len(c.records)))
    taken_ids: set[int] = set()
    taken_seqs: set[int] = set()
    kept: list[Choice] = []
    conflicts: list[Choice] = []
    for choice in choices:
        seqs = {r[0] for r in choice.records}
        if choice.game_id in taken_ids:
            conflicts.append(choice)
            continue
        clash = seqs & taken_seqs
        if clash:  # its events up to the first clash are still the game as it began: keep those
            cut = _cut_before(choice, min(clash))
            if cut is None:
                conflicts.append(choice)
                continue
            choice = cut
            seqs = {r[0] for r in choice.records}
        taken_ids.add(choice.game_id)
        taken_seqs |= seqs
        kept.append(choice)
    kept.sort(key=lambda c: c.game_id)

    reports = [
        _report(choice, per_game.get((choice.game_id, *choice.start), []), seen.get(choice.game_id, []), damaged_at)
        for choice in kept
    ]
    accounted = {c.game_id for c in kept}
    for game_id, (source, error) in sorted(failed.items()):
        if game_id not in accounted:
            reports.append(_nothing_kept(game_id, source, f"nothing of it was kept: {error}", source.where))
            accounted.add(game_id)
    for game_id in sorted(set(unreadable_starts) - accounted):
        reports.append(_nothing_kept(game_id, unreadable_starts[game_id], "", damaged_at))
        accounted.add(game_id)
    for source in sources:  # games whose row is readable but none of whose events are
        for game_id in sorted(set(source.games) - accounted - {c.game_id for c in conflicts}):
            reports.append(
                _nothing_kept(
                    game_id,
                    source,
                    "none of its events could be read, so nothing of it was kept",
                    source.where or damaged_at,
                )
            )
            accounted.add(game_id)
    for choice in conflicts:
        reports.append(
            GameReport(
                choice.game_id,
                _title(choice.game_row),
                0,
                None,
                None,
                None,
                choice.source.label,
                choice.source.backup,
                None,
                None,
                f"not restored: its {len(choice.records)} events from the {choice.source.label} clash with another "
                f"game's number or events (a backup of another journal?)",
                choice.source.where,
            )
        )
    reports.sort(key=lambda r: r.game_id)

    tiles = next((s.tiles for s in sorted(sources, key=lambda s: s.priority) if s.tiles), None)
    floor = max([s.max_seq for s in sources] + [hi for s in sources for _, hi in s.lost] + [0])
    gaps = _gaps(sorted(taken_seqs), [], tail=False)
    if floor > (max(taken_seqs) if taken_seqs else 0):
        gaps.append(((max(taken_seqs) if taken_seqs else 0) + 1, floor))
    lost = [(int(a), int(b)) for a, b in gaps]
    return Plan(kept, tiles, lost, floor, reports, sources)


def write_plan(db: sqlite3.Connection, plan: Plan, note: str) -> None:
    """Insert the plan's games, events, tiles and ``lost`` seqs into the (fresh) journal ``db``, inside
    the caller's transaction."""
    for choice in plan.choices:
        row = list(choice.game_row)
        row[3] = "finished" if choice.finished else "open"
        db.execute(f"INSERT INTO games ({GAME_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)", row)
        db.executemany(f"INSERT INTO events ({EVENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)", choice.records)
    now = _time.time()
    db.executemany(
        "INSERT INTO lost (first_seq, last_seq, time, note) VALUES (?, ?, ?, ?)",
        [(a, b, now, note) for a, b in plan.lost],
    )
    db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('seq_floor', ?)", (str(plan.seq_floor),))
    if plan.tiles:
        from companion.tiles import _SCHEMA as TILES_SCHEMA

        db.execute(TILES_SCHEMA)
        db.executemany("INSERT OR REPLACE INTO tiles (uid, kind, details, learned) VALUES (?, ?, ?, ?)", plan.tiles)


def describe(reports: list[GameReport]) -> str:
    """The per-game lines, ``; ``-separated (the message bar shows one clause per line). When every kept
    game comes from one backup, it is named once, first."""
    if not reports:
        return "no game could be recovered"
    kept = [r for r in reports if r.kept]
    sources = {r.source for r in kept}
    if kept and len(sources) == 1 and all(r.from_backup for r in kept):
        return f"all from the {kept[0].source}: " + "; ".join(r.line(name_source=False) for r in reports)
    return "; ".join(report.line() for report in reports)
