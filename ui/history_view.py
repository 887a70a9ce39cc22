"""The history screen's logic, a part of :class:`ui.controller.TableController`: its rows are read only while it
is shown, a page at a time (:class:`companion.history.HistoryWindow`), and a tap on a row offers a jump back."""

from __future__ import annotations

import logging
import time

from kivy.clock import Clock

from companion.commands import JumpTo
from companion.history import HistoryWindow
from ui.controller_part import ControllerPart
from ui.dialogs import ConfirmPopup

log = logging.getLogger("companion.ui")


class HistoryMixin(ControllerPart):
    """The history screen's part of the controller (its state is set up by the controller's ``__init__``)."""

    def screen_changed(self, *_) -> None:
        """Another screen is shown: the history's rows are read or dropped (never takes the kiosk down)."""
        try:
            self._refresh_history()
        except Exception as error:
            log.exception("refreshing the history screen failed")
            self.message, self.message_refused = f"Display problem: {error}", True

    def _refresh_history(self) -> None:
        """The history screen's rows: built when it is shown, then brought up to date with the entries new
        since the last refresh; dropped when another screen is shown (a hidden history costs nothing)."""
        if self.screens is None:
            return
        session = self.table.session
        if self.screens.current != "history" or session is None:
            if "history" in self.screens.screen_names:  # a history never shown is not even made (ui.app.LazyScreens)
                entries = self.screens.get_screen("history").ids.entries
                if self._history is not None or entries.data:
                    self._history = None
                    entries.data = []
            return
        entries = self.screens.get_screen("history").ids.entries
        if self._history is None or self._history.session is not session:
            self._history = HistoryWindow(session)
        elif not self._history.sync():
            return
        self._show_history_rows(entries)

    def _show_history_rows(self, entries) -> None:
        window = self._history
        assert window is not None  # built by _refresh_history before the rows are shown
        data = [
            {
                "text": f"#{h.seq}  {time.strftime('%H:%M', time.localtime(h.time))}  "
                + ("" if h.in_force else "[undone] ")
                + h.text,
                "seq": h.seq,
                "in_force": h.in_force,
                "label": h.text,
            }
            for h in window.rows
        ]
        if window.more:
            data.append({"viewclass": "HistoryMoreRow", "text": f"Show older entries ({window.older:,} more)"})
        entries.data = data

    def history_more(self) -> None:
        """Load the next page of older history entries (the history screen's last row), keeping the rows
        that were on screen where they were."""
        if self._history is None or not self._history.extend():
            return
        entries = self.screens.get_screen("history").ids.entries
        above = (
            max(0.0, entries.children[0].height - entries.height) * (1 - entries.scroll_y) if entries.children else 0
        )
        self._show_history_rows(entries)

        def keep_place(dt):
            extent = entries.children[0].height - entries.height if entries.children else 0
            if extent > 0:
                entries.scroll_y = max(0.0, min(1.0, 1 - above / extent))

        Clock.schedule_once(keep_place, 0)

    def confirm_jump(self, seq: int, text: str) -> None:
        """Ask, then return the game to how it was right after history entry ``seq``."""
        popup = ConfirmPopup(
            title=f"Go back to right after #{seq}?",
            confirm_text="Go back",
            body=f"#{seq} {text}\n\nEverything after it is undone. The jump is recorded too: "
            f"Undo right after it puts everything back.",
        )
        popup.on_confirm = lambda: self.post(JumpTo(seq=seq))
        self.open_popup(popup)
