"""The part of a game's history a screen shows: the newest entries, newest first, kept up to date lazily.

A :class:`HistoryWindow` reads a page of entries when it is made, and :meth:`HistoryWindow.sync` later reads
only the entries added since; older entries come a page at a time (:meth:`HistoryWindow.extend`). Its work is
in proportion to what it holds and what changed, never to the game's length, so a screen that shows one can
refresh after every move of a game of any size. Make one only while the history is on screen and drop it
after: a hidden history costs nothing.

Example::

    window = HistoryWindow(table.session)      # the newest PAGE entries
    table.execute(PassOnTheAir(network="ABS"))
    window.sync()                              # True: one row more at the top
    window.rows[0].text                        # 'Bank pays ABS $3,000: passed On the Air (TV Wars 9.5)'
"""

from __future__ import annotations

from dataclasses import replace

from companion.session import GameSession, HistoryEntry

#: Entries read at a time (the first page, and each :meth:`HistoryWindow.extend`).
PAGE = 60


class HistoryWindow:
    """The newest entries of ``session``'s history, newest first, as :class:`HistoryEntry` rows.

    ``rows`` holds at most ``limit`` rows (``page`` at first, a page more per :meth:`extend`); ``more`` says
    whether older entries exist that are not held. When new entries push the held rows past ``limit``, the
    oldest are let go (``more`` becomes true). ``rows`` is replaced, never changed in place, so a screen can
    hand it on as it is.
    """

    def __init__(self, session: GameSession, page: int = PAGE) -> None:
        if page < 1:
            raise ValueError(f"a history page holds at least one entry, not {page!r}")
        self.session, self.page, self.limit = session, page, page
        self._end = session.entry_count  # entries [self._start, self._end) are held
        self._start = max(0, self._end - page)
        self.rows: list[HistoryEntry] = session.history_entries(self._start, self._end)[::-1]

    @property
    def more(self) -> bool:
        """Whether older entries exist beyond the last row."""
        return self._start > 0

    @property
    def older(self) -> int:
        """How many older entries are not held."""
        return self._start

    def sync(self) -> bool:
        """Bring the rows up to date with the session: add the entries new since the last call at the top
        and, if any of them is an undo, redo or jump, mark each held move in force or undone again.
        Returns whether the rows changed."""
        end = self.session.entry_count
        if end == self._end:
            return False
        first = max(self._end, end - self.limit)  # more new entries than the window holds: only those
        new = self.session.history_entries(first, end)
        start = self._start if first == self._end else first
        rows = new[::-1] + (self.rows if first == self._end else [])
        start = max(start, end - self.limit)
        rows = rows[: end - start]
        if first == self._end and any(entry.kind not in ("move", "start") for entry in new):
            rows = [self._flagged(row, end - 1 - index) for index, row in enumerate(rows)]
        self.rows, self._start, self._end = rows, start, end
        return True

    def _flagged(self, row: HistoryEntry, index: int) -> HistoryEntry:
        in_force = self.session.entry_in_force(index)
        return row if row.in_force == in_force else replace(row, in_force=in_force)

    def extend(self) -> bool:
        """Read one more page of older entries at the bottom; returns whether there were any."""
        if not self.more:
            return False
        start = max(0, self._start - self.page)
        self.rows = self.rows + self.session.history_entries(start, self._start)[::-1]
        self._start, self.limit = start, self.limit + self.page
        return True
