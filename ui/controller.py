"""The table controller: between the screens and the table.

:class:`TableController` posts commands, and after each outcome (heard on the owner thread, which is Kivy's main
thread) hands the player panels their new views at once and refreshes the screens at the next frame, from the
table's public :class:`~companion.games.TableView`. It never changes game state itself, and knows no game: the open
game's board (:mod:`ui.games`) and table extras (:mod:`ui.extras`) bring the game's own parts. A button press
wakes the main thread to apply it (a *free* Kivy trigger, see :func:`wake_trigger`), rather than waiting for the
next clock tick.
"""

from __future__ import annotations

import logging
import queue
import time
from typing import Any

from kivy.clock import Clock
from kivy.core.window import Window
from kivy.event import EventDispatcher
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.popup import Popup
from kivy.utils import get_color_from_hex

from companion.commands import EndGame, NewGame, OpenGame, Redo, Undo
from companion.config import Config
from companion.games import find_game, game_info
from companion.history import HistoryWindow
from companion.table import Outcome, Table
from companion.words import format_dollars
from ui.dialogs import ConfirmPopup
from ui.dice_bar import DiceMixin
from ui.extras import TableExtras, extras_class
from ui.games import board_class
from ui.history_view import HistoryMixin
from ui.home import HomeMixin, seat_names
from ui.keys import SIMULATED_TRAY_KEY
from ui.player_panels import PlayerPanelsMixin, _player_of
from ui.selftest_dialog import SelfTestPopup
from ui.widgets import PlayerCard

log = logging.getLogger("companion.ui")

#: Seconds at most that the main thread waits after a move for the panels to be drawn before the screen is.
PANELS_FIRST = 0.05


class TableController(HomeMixin, DiceMixin, HistoryMixin, PlayerPanelsMixin, EventDispatcher):
    """Between the screens and the table. Kivy properties hold what the screens show. The Home screen's, the dice
    bar's, the history screen's and the panels' parts are in their own modules (the mixins); the open game's own
    dialogs and actions are its table extras (:mod:`ui.extras`)."""

    title = StringProperty("Tabletop Companion")
    status = StringProperty("")
    message = StringProperty("")
    message_refused = BooleanProperty(False)
    undo_hint = StringProperty("")
    redo_hint = StringProperty("")
    dice_roller = StringProperty("")
    built_in_dice = BooleanProperty(True)
    reader_status = StringProperty("")
    reader_trouble = BooleanProperty(False)
    held_text = StringProperty("")
    held_confirm = BooleanProperty(False)
    held_usable = BooleanProperty(False)
    chosen_game = StringProperty("")
    key_help = StringProperty("")
    #: "Touch unavailable: …" when the kiosk found no touchscreen to read (ui.touch), else "".
    touch_problem = StringProperty("")
    #: What the Home screen's message bar says when there is no message: the touch problem, if any, and what
    #: the table buttons do there ("Buttons: Undo resumes #3 · Redo twice starts a new <game> game").
    home_hint = StringProperty("")
    #: The web front-end is on (``[web] enabled``): the Phones button shows (:mod:`ui.phones`).
    phones_on = BooleanProperty(False)

    def __init__(
        self,
        table: Table,
        config: Config,
        *,
        buttons=None,
        panels=None,
        readers=None,
        tray=None,
        tiles=None,
        touch_problem: str = "",
        **kwargs,
    ) -> None:
        super().__init__(**kwargs)
        self.table, self.config = table, config
        self.buttons = self.panels = self.readers = None  # attach_hardware, at once or after the first frame
        self.web = None  # the web front-end (web.WebFrontEnd) when [web] enabled (use_web)
        self.touch_problem = f"Touch unavailable: {touch_problem}" if touch_problem else ""
        self._button_inbox: queue.SimpleQueue = queue.SimpleQueue()
        self._new_game_armed_until = 0.0
        self.tray, self.tiles = tray, tiles
        self._extras: dict[str, TableExtras] = {}  # per game, made when first used (ui.extras)
        self._key_help_for: tuple | None = None
        self._panel_trouble_seen, self._panel_trouble_said = 0, ""
        self.built_in_dice = config.dice_mode == "built-in"
        self.screens: Any = None  # the ScreenManager, set by the app when it builds the window
        self._history: HistoryWindow | None = None  # the history screen's rows, only while it is shown
        self.popup = None
        self._refresh = Clock.create_trigger(lambda dt: self.refresh(), -1)
        self._wake = wake_trigger(self.drain)  # any thread: apply what the buttons posted, now
        table.subscribe(self._heard)
        if buttons is not None or panels is not None or readers is not None:
            self._connect(buttons, panels, readers)

    def _connect(self, buttons, panels, readers) -> None:
        self.buttons, self.panels, self.readers = buttons, panels, readers
        if readers is not None:  # reader threads report status and tiles; hand them to the main thread
            readers.on_status = lambda status: Clock.schedule_once(lambda dt: self._reader_status_changed())
            readers.on_tile = lambda event: Clock.schedule_once(lambda dt: self.tile_event(event))
        if buttons is not None:  # a held peek button (config long = "peek"): display only, on the UI thread
            buttons.on_peek = lambda seat, player, held: Clock.schedule_once(lambda dt: self.peek(seat, player, held))
        self._connect_pairing()

    def _connect_pairing(self) -> None:
        """A held pair button (config ``long = "pair"``) shows the seat's QR code, once both the buttons and the
        web front-end are there (the buttons are attached after the first frame, the web front-end before)."""
        if self.web is not None and self.buttons is not None:
            self.buttons.on_pair = lambda seat, player: Clock.schedule_once(lambda dt: self.pair_phone(seat, player))

    def attach_hardware(self, *, buttons=None, panels=None, readers=None) -> None:
        """Take the seat buttons (:class:`hardware.buttons.ButtonBoard`), the player panels
        (:class:`hardware.panels.PanelBank`) and the readers (:class:`firmware_bridge.service.ReaderService`,
        started here) once they are open, on the main thread. The kiosk opens them just after its first frame
        (:meth:`ui.app.CompanionApp.attach_hardware`, issue 17), so the screen comes up without waiting for
        gpiozero, luma and pyserial; until then each is ``None``, as when it cannot be opened at all. Their
        views, key help and the Home screen's panel text follow at once (:meth:`refresh`)."""
        self._connect(buttons, panels, readers)
        self._key_help_for = None
        if readers is not None:
            readers.start()
            self._reader_status_changed()
        self.refresh()

    def post(self, command) -> None:
        """Queue a command for the table (applied on the next clock tick)."""
        self.table.post(command)

    def post_button(self, command) -> None:
        """A command from a GPIO button (any thread; never blocks). Applied in arrival order as soon as the
        main thread is woken (:func:`wake_trigger`; at the latest on the next tick); on the Home screen the
        table buttons navigate instead (:meth:`home_button`)."""
        self._button_inbox.put(command)
        self._wake()

    def drain(self, *_):
        """Match dice-reader readings, then apply queued commands (the owner thread is Kivy's main thread).
        Button commands go to the table in the order they were pressed, except the table buttons' presses on
        the Home screen, which navigate."""
        if self.tray is not None:
            session = self.table.session
            matches = self.tray.poll(
                lambda: session.rules.pending_dice(session.state) if session else None, self.table.post
            )
            if matches:
                self._show_held()
        while True:
            try:
                command = self._button_inbox.get_nowait()
            except queue.Empty:
                break
            if isinstance(command, (Undo, Redo)) and self._on_home():
                self.home_button("undo" if isinstance(command, Undo) else "redo")
            else:
                self.table.post(command)
        self.table.process_pending()
        self._say_panel_trouble()

    def _on_home(self) -> bool:
        return self.table.session is None or (self.screens is not None and self.screens.current == "home")

    def tile_event(self, event) -> None:
        """A tag was placed on or removed from a tile reader: what it means is the game's
        (:meth:`ui.extras.TableExtras.tile_event` of the game in use)."""
        self.extras().tile_event(event)

    def extras(self) -> TableExtras:
        """The table extras (:mod:`ui.extras`) of the open game, else of the game the home screen would start."""
        name = self.table.session.rules.info.name if self.table.session else (self.chosen_game or self.config.game)
        extras = self._extras.get(name)
        if extras is None:
            extras = self._extras[name] = extras_class(name)(self)
        return extras

    def _heard(self, table: Table, outcome: Outcome) -> None:
        if outcome.accepted and self.panels is not None:
            # the panels first (the player who pressed is looking at one); the screen follows, at the next
            # frame. Waiting here (the interpreter is free meanwhile) keeps the screen's redraw from slowing
            # the panel worker down; a panel not answering is not waited for.
            self._show_panels()
            self.panels.wait_drawn(PANELS_FIRST)
        command = outcome.command
        if outcome.message:
            self.message = outcome.message
            self.message_refused = not outcome.accepted
        if not outcome.accepted and command.private:
            # a refusal of secret figures may repeat them: the reason goes to the player's own panel only
            player = _player_of(command)
            self.message = f"Refused: {player}'s entry is not accepted; the reason is on {player}'s own panel"
        if outcome.accepted and isinstance(command, (NewGame, OpenGame)) and self.screens is not None:
            self.screens.current = "dashboard"  # a game was started or resumed: show it
        if not outcome.accepted and (command.source == "button" or command.private):
            self._flash_on_panel(outcome)
        self._refresh()

    def button_action(self, action: str, player: str) -> None:
        """A seat button's ``action`` (:class:`companion.game.ButtonSlot`) for ``player`` from the touchscreen."""
        self.post(self._rules().button_command(action, player, "touch"))

    def undo(self) -> None:
        """Undo the last move (its description is on the button)."""
        self.post(Undo())

    def redo(self) -> None:
        """Redo the last undone move."""
        self.post(Redo())

    def keypad(self, key: str) -> None:
        """A keypad key (``KeyButton``) in the open dialog, if it has a keypad (``press_key``)."""
        press_key = getattr(self.popup, "press_key", None)
        if press_key is not None:
            press_key(key)

    def _rules(self):
        return self.table.session.rules if self.table.session else find_game(self.config.game)

    def open_popup(self, popup: Popup) -> Popup:
        """Open ``popup`` as the one dialog on screen (boards and table extras use this for their own dialogs)."""
        self.popup = popup
        popup.bind(on_dismiss=lambda *_: setattr(self, "popup", None))
        popup.open(animation=False)  # instant: no fade for a tap to land in
        return popup

    def say(self, text: str, refused: bool = False) -> None:
        """Show ``text`` in the message bar (``refused`` colours it as a refusal)."""
        self.message, self.message_refused = text, refused

    def use_web(self, web) -> None:
        """Use the web front-end ``web`` (:class:`web.WebFrontEnd`; made after this controller, so that the panels
        hear of a move before the phones do): the Phones button shows, and a held pair button (config
        ``long = "pair"``) shows the seat's QR code on its panel."""
        self.web, self.phones_on = web, web is not None
        self._connect_pairing()

    def pair_phone(self, seat: int, player: str) -> None:
        """Show ``player``'s phone pairing QR code on ``seat``'s panel (:mod:`ui.phones`)."""
        from ui.phones import show_pairing_on_panel

        show_pairing_on_panel(self, seat, player)

    def open_phones(self) -> None:
        """The Phones dialog: a seat's pairing QR code on the touchscreen, and revoking it (:mod:`ui.phones`)."""
        if self.web is None or self.table.session is None:
            return
        if self.web.problem:  # it could not listen, or its process ended (the log says so too)
            self.say(f"Phones are off: the web front-end's server is not running ({self.web.problem})", refused=True)
            return
        from ui.phones import PhonesPopup

        self.open_popup(PhonesPopup(self))

    def open_selftest(self) -> None:
        """Run the touchscreen self-test (panels, buttons, readers)."""
        popup = SelfTestPopup()
        self.open_popup(popup)
        popup.start(self)

    def confirm_end_game(self) -> None:
        """Ask, then declare the open game finished (undoable like any move)."""
        if self.table.session is None:
            return
        popup = ConfirmPopup(
            title="End this game?",
            confirm_text="End game",
            body="The game is marked finished and no more moves are taken. Undo reopens it.",
        )
        popup.on_confirm = lambda: self.post(EndGame())
        self.open_popup(popup)

    def export_game(self) -> None:
        """Write the open game's history (JSON) and its figures per move (CSV) next to the journal, and say where."""
        session = self.table.session
        if session is None:
            return
        from companion.export import export_figures_csv, export_json

        folder = self.table.journal.path.parent / "exports"
        stem = f"game-{session.game_id}-{time.strftime('%Y%m%d-%H%M%S')}"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"{stem}.json").write_text(export_json(self.table.journal, session.game_id), encoding="utf-8")
            (folder / f"{stem}.csv").write_text(
                export_figures_csv(self.table.journal, session.game_id), encoding="utf-8"
            )
        except OSError as error:
            self.message, self.message_refused = f"Export failed: {error}", True
            log.warning("export failed: %s", error)
            return
        self.message, self.message_refused = f"Exported game #{session.game_id} to {folder / stem}.json and .csv", False
        log.info("exported game %s to %s", session.game_id, folder / stem)

    def export_bgstats(self) -> None:
        """Write the open game, once finished, as a BG Stats play (:mod:`companion.export_bgstats`) next to the
        journal and say where; an unfinished game is refused in the message bar and nothing is written."""
        session = self.table.session
        if session is None:
            return
        from companion.errors import CompanionError
        from companion.export_bgstats import export_bgstats

        folder = self.table.journal.path.parent / "exports"
        path = folder / f"game-{session.game_id}-{time.strftime('%Y%m%d-%H%M%S')}-bgstats.json"
        try:
            text = export_bgstats(self.table.journal, session.game_id)
            folder.mkdir(parents=True, exist_ok=True)
            path.write_text(text + "\n", encoding="utf-8")
        except (CompanionError, OSError) as error:
            self.message, self.message_refused = f"BG Stats export: {error}", True
            log.warning("BG Stats export of game %s refused or failed: %s", session.game_id, error)
            return
        self.message, self.message_refused = f"Wrote game #{session.game_id} for BG Stats to {path}", False
        log.info("exported game %s for BG Stats to %s", session.game_id, path)

    def go_home(self) -> None:
        """Back to the home screen; the last game's message (a refusal, say) stays with that game."""
        self.screens.current = "home"
        self.message, self.message_refused = "", False
        self.refresh()

    def show_dashboard(self) -> None:
        self.screens.current = "dashboard"

    def show_history(self) -> None:
        self.screens.current = "history"
        self.refresh()

    def refresh(self) -> None:
        """Redraw every screen and hand the panels their views, from the table's public view.
        A failure here is logged and shown; it never takes the kiosk down."""
        self._refresh.cancel()  # a redraw asked for by a move (_heard) is done now: not twice
        try:
            self._refresh_all()
        except Exception as error:
            log.exception("refreshing the screens failed")
            self.message, self.message_refused = f"Display problem: {error}", True

    def _refresh_all(self) -> None:
        table = self.table
        view = table.view()
        self._refresh_buttons(view)
        on_home = view is None or self.screens.current == "home"
        self._show_panels(view)
        if on_home:  # the saved-games list is read only when seen
            self._refresh_home()
        self._home_panels(on_home)
        if view is None:
            Window.allow_screensaver = True
            self.screens.current = "home"
            return
        Window.allow_screensaver = view.finished  # no blanking while a game is open
        session = table.session
        assert session is not None  # there is a view
        self.title = f"{view.title} #{session.game_id}"
        self.status = view.status
        self.dice_roller = view.pending_dice.roller if view.pending_dice else ""
        self._show_held()
        self.undo_hint = session.undo_hint()
        self.redo_hint = session.redo_hint()
        self._refresh_board(session, view)
        self._refresh_history()

    def _refresh_buttons(self, view) -> None:
        """Tell the buttons who sits at each seat now, and make the simulator's key help in the words of the game in
        use (only when the game or its seats change)."""
        if self.buttons is None:
            return
        table = self.table
        self.buttons.seat_players([p.name for p in view.players] if view else [])
        # on Home, the chosen game's facts only: its rules are imported when a game starts (issue 17)
        info = table.session.rules.info if table.session else game_info(self.chosen_game or self.config.game)
        names = (
            [p.name for p in view.players]
            if view
            else seat_names(self.config, info, min(len(self.config.seats), info.max_players))
        )
        if (info.name, names) != self._key_help_for:  # only when the game or its seats change
            self._key_help_for = (info.name, names)
            self.buttons.use_game(info.buttons)
            self.key_help = "  ·  ".join(self.buttons.key_help(names) + [f"Dice tray {SIMULATED_TRAY_KEY}"])

    def _refresh_board(self, session, view) -> None:
        """The game's own board (``ui.games``) if it has one, else the generic player cards."""
        area = self.screens.get_screen("dashboard").ids.board_area
        name = session.rules.info.name
        board = area.children[0] if area.children else None
        if board is None or getattr(board, "game_name", None) != name:
            area.clear_widgets()
            board_type = board_class(name)
            board = board_type(controller=self) if board_type is not None else None
            if board is not None:
                board.game_name = name
                area.add_widget(board)
        if board is not None:
            board.update(session.state, view)
        else:
            self._refresh_cards(view)

    def _refresh_cards(self, view) -> None:
        """The generic player cards (a game without a board): one per player, with the game's seat buttons."""
        from kivy.factory import Factory

        cards = self.screens.get_screen("dashboard").ids.cards
        if [c.player_name for c in cards.children[::-1]] != [p.name for p in view.players]:
            cards.clear_widgets()
            for player in view.players:
                card = PlayerCard(player_name=player.name)
                for slot in self._rules().info.buttons:
                    button = Factory.BigButton(text=slot.label)
                    button.bind(on_release=lambda b, a=slot.action, n=player.name: self.button_action(a, n))
                    card.ids.actions.add_widget(button)
                cards.add_widget(card)
        for card, player in zip(cards.children[::-1], view.players):
            card.player_colour = get_color_from_hex(player.colour) if player.colour.startswith("#") else [1, 1, 1, 1]
            card.balance_text = format_dollars(player.balance) if player.balance is not None else player.headline
            lines = list(player.panel_lines) or [f"{track.label} {track.value}" for track in player.tracks]
            card.detail_text = " · ".join(lines + list(player.badges))


def wake_trigger(callback):
    """A Kivy trigger for ``callback`` that any thread may pull (Kivy's clock takes its lock) and that runs
    it on the main thread *at once*: a free event of the ``free_only`` clock (which :func:`ui.kiosk.build_app`
    chooses), which interrupts the clock's sleep between frames; normal events still keep to the frame rate.
    Under another clock (Kivy's clock chosen before ``build_app``) it is an ordinary trigger: the next frame."""
    make = getattr(Clock, "create_trigger_free", None)
    if make is None:
        log.info("the Kivy clock has no free events (it is not free_only): button presses wait for the next frame")
        make = Clock.create_trigger
    return make(callback, 0)
