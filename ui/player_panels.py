"""The player panels' side of :class:`ui.controller.TableController`: their views after every move (from the open
game's board class), a refused button press told on the presser's panel, private pages (a held peek button, a
board's line-up entry) and the panels that stop answering. Display only: nothing here posts a command."""

from __future__ import annotations

import logging

from kivy.lang import Builder

from companion.table import Outcome
from ui.controller_part import ControllerPart

log = logging.getLogger("companion.ui")


#: The seat's mark beside its colour on the generic seat cards (:class:`ui.widgets.PlayerCard`): the shape of
#: :func:`companion.config.seat_shape` (the same as in its OLED panel's header), 16 dp, in the seat's colour, at
#: the card's top left under its colour strip (the diamond: the square turned 45 degrees). A rule added to the
#: card's own (ui/kv/dashboard.kv): Kivy applies both to every card.
SEAT_MARK_KV = """
#:import seat_shape companion.config.seat_shape
<PlayerCard>:
    seat_shape: seat_shape("#%02x%02x%02x" % tuple(round(c * 255) for c in self.player_colour[:3]))
    canvas.after:
        Color:
            rgba: root.player_colour if root.seat_shape else (0, 0, 0, 0)
        Ellipse:
            pos: self.x + dp(8), self.top - dp(30)
            size: (dp(16), dp(16)) if root.seat_shape == "circle" else (0, 0)
        Rectangle:
            pos: self.x + dp(9), self.top - dp(29)
            size: (dp(14), dp(14)) if root.seat_shape == "square" else (0, 0)
        Rectangle:
            pos: self.x + dp(13), self.top - dp(30)
            size: (dp(6), dp(16)) if root.seat_shape == "cross" else (0, 0)
        Rectangle:
            pos: self.x + dp(8), self.top - dp(25)
            size: (dp(16), dp(6)) if root.seat_shape == "cross" else (0, 0)
        PushMatrix:
        Rotate:
            angle: 45
            origin: self.x + dp(16), self.top - dp(22)
        Rectangle:
            pos: self.x + dp(10.5), self.top - dp(27.5)
            size: (dp(11), dp(11)) if root.seat_shape == "diamond" else (0, 0)
        PopMatrix:
"""
Builder.load_string(SEAT_MARK_KV, filename="seat_marks.kv")


class PlayerPanelsMixin(ControllerPart):
    """The panels' part of the controller (its state is set up by the controller's ``__init__``)."""

    def _say_panel_trouble(self) -> None:
        """Say once which player panels are not answering ("Panel 3 is not answering", from
        PanelBank.trouble: one lock, no allocation, so cheap on every tick), and take the words down when
        they all answer again unless another message has replaced them. Display only."""
        if self.panels is None:
            return
        version, text = self.panels.trouble()
        if version == self._panel_trouble_seen:
            return
        self._panel_trouble_seen = version
        if text:
            self.say(text, refused=True)
        elif self.message == self._panel_trouble_said:
            self.say("")
        self._panel_trouble_said = text

    def _flash_on_panel(self, outcome: Outcome) -> None:
        """A refused button press is told on the presser's own panel too (they are looking at it)."""
        view = self.table.view()
        player = _player_of(outcome.command)
        if self.panels is None or view is None or player is None:
            return
        names = [p.name for p in view.players]
        if player in names:
            self.panels.flash(names.index(player), str(outcome.refusal))

    def _board(self):
        if self.screens is None:
            return None
        area = self.screens.get_screen("dashboard").ids.board_area
        return area.children[0] if area.children else None

    def peek(self, seat: int, player: str, held: bool) -> None:
        """A seat's peek button (config ``long = "peek"``) is held (``held``) or released: show ``player``'s
        private figures on that seat's own panel only while it is held (at most 10 s), never on the shared
        screen. The open game's board gives the figures (``peek(state, player) -> (title, lines)``); a game
        without one has nothing to show. Display only: nothing is posted."""
        if self.panels is None:
            return
        if not held:
            self.panels.hide_private(seat)
            return
        board, session = self._board(), self.table.session
        if session is None or board is None or not hasattr(board, "peek"):
            self.panels.show_private(seat, f"{player}", ["Nothing private to show"], seconds=2)
            return
        title, lines = board.peek(session.state, player)
        self.panels.show_private(seat, title, lines, seconds=10)

    def _seat_of(self, player: str) -> int | None:
        view = self.table.view()
        names = [p.name for p in view.players] if view else []
        return names.index(player) if player in names else None

    def show_private(self, player: str, title: str, lines, seconds: float = 120) -> None:
        """Show a private page on ``player``'s own panel (boards use it, e.g. while a line-up is entered)."""
        seat = self._seat_of(player)
        if self.panels is not None and seat is not None:
            self.panels.show_private(seat, title, list(lines), seconds)

    def hide_private(self, player: str) -> None:
        """End ``player``'s private panel page."""
        seat = self._seat_of(player)
        if self.panels is not None and seat is not None:
            self.panels.hide_private(seat)

    def panel_views(self, view=None) -> list:
        """What the player panels show now: one :class:`~companion.games.PlayerView` per seat, from the open
        game's public view (each game's ``PlayerView`` carries its panel's text), or ``[]`` when no game is open.
        ``view`` is the table's public view if the caller has it already. The one place panel views are made,
        for the move just committed (:meth:`_heard`) and for :meth:`refresh`."""
        if self.table.session is None:
            return []
        view = view if view is not None else self.table.view()
        return list(view.players) if view is not None else []

    def _show_panels(self, view=None) -> None:
        """Hand the panel worker the panels' views now (display only). Cheap when little changed: the worker
        redraws only seats whose view changed, and sends only the changed part of each. A failure is logged
        and shown, never raised."""
        if self.panels is None:
            return
        try:
            self.panels.show(self.panel_views(view))
        except Exception as error:
            log.exception("making the panels' views failed")
            self.message, self.message_refused = f"Display problem: {error}", True


def _player_of(command) -> str | None:
    """The player a command speaks for (its ``network``, ``roller``, ``player`` or ``payer``), if any."""
    return next(
        (
            getattr(command, field)
            for field in ("network", "roller", "player", "payer")
            if isinstance(getattr(command, field, None), str)
        ),
        None,
    )
