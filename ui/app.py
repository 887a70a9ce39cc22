"""The Kivy touchscreen: home, dashboard, history and the dialogs, plus the simulator strip.

Screens declare properties and the ``.kv`` files in ``ui/kv`` do the layout; :class:`TableController`
is the thin controller between the screens and the table: it posts commands, and after each outcome
(heard on the owner thread, which is Kivy's main thread) hands the player panels their new views at once
and refreshes the screens at the next frame, from the table's public :class:`~companion.games.TableView`.
It never changes game state itself. A button press wakes the main thread to apply it (a *free* Kivy trigger,
see :func:`wake_trigger`), rather than waiting for the next clock tick.
"""

from __future__ import annotations

import logging
import os
import queue
import time
from pathlib import Path

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.event import EventDispatcher
from kivy.graphics.texture import Texture
from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.image import Image as KivyImage
from kivy.uix.popup import Popup
from kivy.uix.screenmanager import NoTransition, Screen, ScreenManager
from kivy.uix.togglebutton import ToggleButton
from kivy.utils import get_color_from_hex

from companion.bank import format_dollars
from companion.commands import (
    AnswerDice,
    EndGame,
    JumpTo,
    NewGame,
    OpenGame,
    PlayerSeat,
    Redo,
    RollDice,
    Undo,
)
from companion.config import BUILT_IN_SEAT_NAMES, Config
from companion.errors import DiceError
from companion.games import find_game, game_names, game_title
from companion.history import HistoryWindow
from companion.sdnotify import notify, watchdog_interval
from companion.table import Outcome, Table
from ui.boards import kv_files, screen_kv_files
from ui.extras import TableExtras, extras_class
from ui.games import GameBoard, board_class
from ui.layout import SIMULATOR_STRIP_HEIGHT, TOUCHSCREEN_SIZE

log = logging.getLogger("companion.ui")


# -- widgets ------------------------------------------------------------------------------------------
class MessageBar(BoxLayout):
    """One line saying what the last command did, red when it was refused. A line too long for the bar
    says "more"; a tap opens the whole message, one clause per line (a round's scoring, a combat)."""

    text = StringProperty("")
    refused = BooleanProperty(False)

    def on_touch_up(self, touch):
        if self.collide_point(*touch.pos) and self.text and touch.grab_current is None:
            App.get_running_app().controller.open_popup(MessagePopup(message=self.text))
            return True
        return super().on_touch_up(touch)


class MessagePopup(Popup):
    """The whole of the message bar's text, one clause ("; "-separated event) per line."""

    message = StringProperty("")


class PlayerCard(BoxLayout):
    """One player's public figures on the generic dashboard (a game without a board of its own): the big figure
    (the balance, else the view's headline), the panel lines or tracks and badges, and one button per seat
    button slot of the game, labelled as the game names it (:class:`companion.game.ButtonSlot`)."""

    player_name = StringProperty("")
    player_colour = ListProperty([1, 1, 1, 1])
    balance_text = StringProperty("")
    detail_text = StringProperty("")


class GameChoice(ToggleButton):
    """One registered game on the home screen; the chosen one is what the New game buttons start."""

    game = StringProperty("")


class HistoryRow(Button):
    """One history entry; tapping it asks whether to go back to right after it."""

    seq = NumericProperty(0)
    in_force = BooleanProperty(True)
    label = StringProperty("")


class HomeScreen(Screen):
    """New game (as many seats as the chosen game takes) and the saved games."""

    game_title = StringProperty("")


class DashboardScreen(Screen):
    """Every player's balance and tracks in big type, the pending dice, undo/redo."""


class HistoryScreen(Screen):
    """The history, newest first, with undo, redo and jump-back. Its rows are read only while it is shown, a
    page at a time (:class:`companion.history.HistoryWindow`); the last row loads the next older page."""


class HistoryMoreRow(Button):
    """The last row of the history while older entries are not loaded: tapping it loads a page more."""


class ConfirmPopup(Popup):
    """Asks before a jump-back; ``on_confirm`` runs on the confirm button."""

    body = StringProperty("")
    confirm_text = StringProperty("Yes")
    on_confirm = ObjectProperty(None)

    def confirm(self) -> None:
        """Run the confirmed action and close."""
        self.dismiss(animation=False)
        if self.on_confirm:
            self.on_confirm()


class PinPopup(Popup):
    """The exit PIN pad (config ``[kiosk] exit_pin``): digits show as dots; the right PIN leaves the kiosk.
    ``on_result(correct)`` is called with whether the typed PIN matched when OK is tapped."""

    typed = StringProperty("")
    problem = StringProperty("")
    on_result = ObjectProperty(None)

    def press_key(self, key: str) -> None:
        """A key of the pad: a digit, ``C`` (clear) or ``OK``."""
        if key == "C":
            self.typed, self.problem = "", ""
        elif key == "OK":
            if self.on_result:
                self.on_result(self.typed)
        elif key.isdigit() and len(self.typed) < 8:
            self.typed += key
            self.problem = ""


class DicePopup(Popup):
    """Manual entry of physical dice for the pending request."""

    request_text = StringProperty("")
    total_text = StringProperty("")
    ready = BooleanProperty(False)

    def fill(self, controller: TableController, roller: str, count: int, sides: int) -> None:
        """One row of face buttons per die."""
        from kivy.factory import Factory

        self.controller, self.roller = controller, roller
        self.values = [0] * count
        for die in range(count):
            row = BoxLayout(spacing=4)
            for face in range(1, sides + 1):
                button = Factory.ChoiceButton(text=str(face), group=f"die{die}", font_size="28sp")
                button.bind(on_release=lambda b, d=die, f=face: self._set(d, f, b))
                row.add_widget(button)
            self.ids.dice_box.add_widget(row)
        self._update()

    def _set(self, die: int, face: int, button) -> None:
        self.values[die] = face if button.state == "down" else 0
        self._update()

    def _update(self) -> None:
        chosen = [v for v in self.values if v]
        self.ready = len(chosen) == len(self.values)
        if not self.ready:
            self.total_text = f"Tap {len(self.values) - len(chosen)} more"
            return
        self.total_text = "Record " + "+".join(map(str, chosen)) + (f" = {sum(chosen)}" if len(chosen) > 1 else "")

    def submit(self) -> None:
        """Post the values (the table refuses an incomplete roll with a clear message)."""
        self.controller.post(AnswerDice(roller=self.roller, values=tuple(v for v in self.values if v), source="manual"))
        self.dismiss(animation=False)


class SelfTestPopup(Popup):
    """The touchscreen self-test: panel patterns, then every button in turn (presses are captured, nothing
    reaches the game), then a report saved next to the journal."""

    prompt = StringProperty("")
    countdown = StringProperty("")
    report = StringProperty("")
    done = BooleanProperty(False)
    #: Seconds to wait for each button.
    timeout = 10

    def start(self, controller: TableController) -> None:
        """Show the panel patterns and ask for the first button."""
        from hardware.selftest import Check, buttons_in_order, panel_test_pattern

        self.controller, self.checks = controller, []
        self._Check = Check
        config = controller.config
        self.pending = list(buttons_in_order(config)) if controller.buttons is not None else []
        if controller.panels is not None:
            patterns = [panel_test_pattern(seat.name, n) for n, seat in enumerate(config.seats, start=1)]
            controller.panels.show_images(patterns, seconds=self.timeout * (len(self.pending) + 1))
            self.checks += [
                Check(f"panel {n} ({seat.name})", True, "pattern sent; check it by eye")
                for n, seat in enumerate(config.seats, start=1)
            ]
        if controller.buttons is None:
            self.checks.append(Check("buttons", False, "no usable GPIO backend (see the message on Home)"))
        else:
            controller.buttons.capture = lambda seat, button, action: Clock.schedule_once(
                lambda dt: self._pressed(seat, button, action)
            )
        self._tick = Clock.schedule_interval(self._count_down, 1)
        self._next()

    def _next(self) -> None:
        self._show_report()
        if not self.pending:
            self.finish()
            return
        self.current = self.pending.pop(0)
        self.wrong = []
        seat, button, label = self.current
        where = f"GPIO {button.pin}" if button.pin is not None else f"key {button.key}"
        key = f", key {button.key}" if self.controller.buttons is not None and button.key and button.pin else ""
        self.prompt = f"Press {label} ({where}{key})"
        self.remaining = self.timeout
        self.countdown = f"{self.remaining} s"

    def _count_down(self, dt) -> None:
        if self.done:
            return
        self.remaining -= 1
        self.countdown = f"{max(0, self.remaining)} s"
        if self.remaining <= 0:
            seat, button, label = self.current
            self.checks.append(self._Check(f"button {label}", False, f"no press within {self.timeout} s"))
            self._next()

    def _pressed(self, seat, button, action) -> None:
        if self.done:
            return
        expected_seat, expected, label = self.current
        if (seat, button) != (expected_seat, expected):  # noted; the test keeps waiting for this one
            who = "table" if seat is None else self.controller.config.seats[seat].name
            self.wrong.append(f"{who} {button.action.replace('_', ' ')}")
            self.countdown = f"That was {self.wrong[-1]}; still waiting for {label}"
            return
        noted = f"also pressed: {', '.join(self.wrong)}" if self.wrong else ""
        self.checks.append(self._Check(f"button {label}", True, noted))
        self._next()

    def skip(self) -> None:
        """Skip the button being asked for."""
        self.checks.append(self._Check(f"button {self.current[2]}", None, "skipped at the touchscreen"))
        self._next()

    def _show_report(self) -> None:
        self.report = "\n".join(check.line() for check in self.checks)

    def finish(self, close: bool = False) -> None:
        """Stop listening, save the report and show its summary (``close`` also closes the dialog)."""
        if not self.done:
            from hardware.selftest import check_readers, save_report

            self.done = True
            self._tick.cancel()
            if self.controller.buttons is not None:
                self.controller.buttons.capture = None
            if self.controller.panels is not None:
                self.controller.panels.show_images([], 0)
            readers = self.controller.readers
            if readers is not None and readers.statuses():
                self.checks += [self._Check("reader", status.connected, status.text) for status in readers.statuses()]
            else:
                self.checks += check_readers(self.controller.config)
            self._show_report()
            try:
                path, summary = save_report(self.checks, self.controller.table.journal.path.parent)
                self.prompt, self.countdown = f"Self-test: {summary}", f"Report saved to {path}"
            except OSError as error:
                self.prompt, self.countdown = "Self-test finished", f"The report could not be saved: {error}"
        if close:
            self.dismiss(animation=False)


class SimulatorStrip(BoxLayout):
    """The emulated OLED panels (luma dummy devices) and the keyboard help, below the touchscreen."""

    key_help = StringProperty("")


# -- controller --------------------------------------------------------------------------------------------
class TableController(EventDispatcher):
    """Between the screens and the table. Kivy properties hold what the screens show."""

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
        self.table, self.config, self.buttons, self.panels = table, config, buttons, panels
        self.touch_problem = f"Touch unavailable: {touch_problem}" if touch_problem else ""
        self._button_inbox: queue.SimpleQueue = queue.SimpleQueue()
        self._new_game_armed_until = 0.0
        self.readers, self.tray, self.tiles = readers, tray, tiles
        self._extras: dict[str, TableExtras] = {}  # per game, made when first used (ui.extras)
        self._key_help_for: tuple | None = None
        self._panel_trouble_seen, self._panel_trouble_said = 0, ""
        if readers is not None:  # reader threads report status and tiles; hand them to the main thread
            readers.on_status = lambda status: Clock.schedule_once(lambda dt: self._reader_status_changed())
            readers.on_tile = lambda event: Clock.schedule_once(lambda dt: self.tile_event(event))
        self.built_in_dice = config.dice_mode == "built-in"
        self.screens: ScreenManager | None = None
        self._history: HistoryWindow | None = None  # the history screen's rows, only while it is shown
        self.popup = None
        self._refresh = Clock.create_trigger(lambda dt: self.refresh(), -1)
        self._wake = wake_trigger(self.drain)  # any thread: apply what the buttons posted, now
        self._panel_views_for: tuple[str, object] | None = None  # (game, its boards' panel_views)
        table.subscribe(self._heard)
        if buttons is not None:  # a held peek button (config long = "peek"): display only, on the UI thread
            buttons.on_peek = lambda seat, player, held: Clock.schedule_once(lambda dt: self.peek(seat, player, held))

    # posting
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

    def _on_home(self) -> bool:
        return self.table.session is None or (self.screens is not None and self.screens.current == "home")

    # the Home screen from the table buttons (a kiosk without touch is played with buttons alone)
    def _last_game(self):
        """The saved game the Undo button resumes on Home: the most recent unfinished one, else the most recent."""
        games = sorted(self.table.journal.games(), key=lambda g: (g.last_time or g.created, g.id), reverse=True)
        unfinished = [g for g in games if g.status != "finished"]
        return (unfinished or games or [None])[0]

    def _home_new_game_text(self) -> str:
        rules = find_game(self.config.game)
        count = min(len(self.config.seats), rules.info.max_players)
        return f"new {rules.info.title} game, {count} {rules.info.player_word}"

    def home_button(self, action: str) -> None:
        """A table button pressed on the Home screen: ``undo`` resumes the last game (:meth:`_last_game`),
        ``redo`` pressed twice within :data:`NEW_GAME_CONFIRM` seconds starts a new game of the configured game
        with the configured seats (as many as it takes). Said on the screen and on every panel."""
        if action == "undo":
            game = self._last_game()
            if game is None:
                self._tell_table("No saved game to resume: press Redo twice for a " + self._home_new_game_text())
                return
            self._new_game_armed_until = 0.0
            self.resume(game.id)
            return
        if time.monotonic() < self._new_game_armed_until:
            self._new_game_armed_until = 0.0
            rules = find_game(self.config.game)
            self.chosen_game = self.config.game
            self.new_game(min(len(self.config.seats), rules.info.max_players))
            return
        self._new_game_armed_until = time.monotonic() + NEW_GAME_CONFIRM
        self._tell_table(f"Press Redo again to start a {self._home_new_game_text()}")

    def _home_panels(self, on_home: bool) -> None:
        """On the Home screen every panel says what the table buttons do there (and that touch is off, when
        it is); leaving Home clears that, and a game opened without touch says so for a few seconds."""
        if self.panels is None or self.buttons is None:
            return
        if on_home == getattr(self, "_panels_on_home", None):
            return
        self._panels_on_home = on_home
        if on_home:
            game = self._last_game()
            lines = (
                (["Touch off"] if self.touch_problem else [])
                + ([f"Undo: resume #{game.id}"] if game is not None else [])
                + ["Redo twice:", "new game"]
            )
            text, seconds = "\n".join(lines), 24 * 3600.0
        else:
            text, seconds = ("Touch unavailable", 10.0) if self.touch_problem else ("", 0.0)
        if time.monotonic() >= self._new_game_armed_until:
            for seat in range(len(self.config.seats)):
                self.panels.flash(seat, text, seconds=seconds)

    def _tell_table(self, text: str) -> None:
        """Say ``text`` in the message bar and on every panel (for a few seconds)."""
        self.say(text)
        if self.panels is not None:
            for seat in range(len(self.config.seats)):
                self.panels.flash(seat, text, seconds=NEW_GAME_CONFIRM)

    def _reader_status_changed(self) -> None:
        statuses = self.readers.statuses() if self.readers is not None else []
        self.reader_status = self.readers.status_text() if self.readers is not None else ""
        self.reader_trouble = any(not status.connected for status in statuses)

    def _show_held(self) -> None:
        """The purple bar: the oldest held reader roll, described against what is asked for now."""
        held = self.tray.held if self.tray is not None else ()
        if not held:
            self.held_text, self.held_confirm = "", False
            return
        view = self.table.view()
        request = view.pending_dice if view else None
        match = self.tray.matcher.match(request, held[0].values)
        more = f" (+{len(held) - 1} more held)" if len(held) > 1 else ""
        if self.tray.dropped:
            more += f" ({self.tray.dropped} older rolls dropped: at most {self.tray.capacity} are held)"
        self.held_text = match.reason + more
        self.held_confirm = match.decision.value == "confirm"
        self.held_usable = match.decision.value == "answer"

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

    def __getattr__(self, name: str):
        """An action of the game in use that its own layouts call as ``app.controller.<name>(...)``
        (:attr:`ui.extras.TableExtras.actions`); anything else is an ordinary missing attribute."""
        if name.startswith("_") or "_extras" not in self.__dict__:
            raise AttributeError(name)
        extras = self.extras()
        if name in extras.actions:
            return getattr(extras, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def use_held(self) -> None:
        """Use the oldest held reader roll for the dice being asked for."""
        held = self.tray.held
        view = self.table.view()
        request = view.pending_dice if view else None
        try:
            if not held:
                return
            if request is None:
                raise DiceError("no dice are asked for right now: keep the roll or discard it")
            self.post(self.tray.assign(held[0].id, request))
        except DiceError as error:
            self.message, self.message_refused = f"Refused: {error}", True
        self._show_held()

    def discard_held(self) -> None:
        """Forget the oldest held reader roll."""
        held = self.tray.held
        if held:
            self.tray.discard(held[0].id)
            self.message, self.message_refused = f"Discarded the reader's roll {held[0].values}", False
        self._show_held()

    def roll_into_reader(self) -> None:
        """Simulator: roll dice into the simulated dice reader's tray (as many as are asked for, else 2)."""
        if self.readers is None:
            return
        view = self.table.view()
        request = view.pending_dice if view else None
        if self.readers.simulator is None:
            self.message, self.message_refused = "There is no simulated dice reader: a real one is configured", True
            return
        faces = self.readers.simulate_roll(request.count if request else 2)
        if faces is None:
            self.message, self.message_refused = "The simulated dice reader is not ready yet", True

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

    def _flash_on_panel(self, outcome: Outcome) -> None:
        """A refused button press is told on the presser's own panel too (they are looking at it)."""
        view = self.table.view()
        player = _player_of(outcome.command)
        if self.panels is None or view is None or player is None:
            return
        names = [p.name for p in view.players]
        if player in names:
            self.panels.flash(names.index(player), str(outcome.refusal))

    # private panel pages (a game's secret values)
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

    # actions
    def new_game(self, count: int) -> None:
        """Start a new game of the chosen game (``chosen_game``) with the first ``count`` seats. The config's
        house rules apply to the configured game only; another game starts with its own defaults."""
        game = self.chosen_game or self.config.game
        names = seat_names(self.config, find_game(game), count)
        seats = tuple(PlayerSeat(name, s.colour) for name, s in zip(names, self.config.seats))
        options = dict(self.config.house_rules) if game == self.config.game else {}
        self.post(NewGame(game=game, players=seats, options=options))

    def choose_game(self, game: str) -> None:
        """Pick which game the home screen's New game buttons start."""
        self.chosen_game = game
        self.screens.get_screen("home").ids.new_game_box.clear_widgets()
        self.refresh()  # the home buttons, and the simulator's key help in that game's words

    def resume(self, game_id: int) -> None:
        """Resume a saved game (the one already open just goes back to its dashboard)."""
        if self.table.session is not None and self.table.session.game_id == game_id:
            self.show_dashboard()
            return
        self.post(OpenGame(game_id=game_id))

    def button_action(self, action: str, player: str) -> None:
        """A seat button's ``action`` (:class:`companion.game.ButtonSlot`) for ``player`` from the touchscreen."""
        self.post(self._rules().button_command(action, player, "touch"))

    def roll(self) -> None:
        """Answer the pending dice request with the built-in dice."""
        if self.dice_roller:
            self.post(RollDice(roller=self.dice_roller))

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

    def _open(self, popup: Popup) -> Popup:
        self.popup = popup
        popup.bind(on_dismiss=lambda *_: setattr(self, "popup", None))
        popup.open(animation=False)  # instant: no fade for a tap to land in
        return popup

    def open_dice(self) -> None:
        """Enter physical dice by hand for the pending request."""
        request = self.table.view().pending_dice
        if request is None:
            return
        popup = DicePopup(request_text=request.describe())
        popup.fill(self, request.roller, request.count, request.sides)
        self._open(popup)

    def confirm_jump(self, seq: int, text: str) -> None:
        """Ask, then return the game to how it was right after history entry ``seq``."""
        popup = ConfirmPopup(
            title=f"Go back to right after #{seq}?",
            confirm_text="Go back",
            body=f"#{seq} {text}\n\nEverything after it is undone. The jump is recorded too: "
            f"Undo right after it puts everything back.",
        )
        popup.on_confirm = lambda: self.post(JumpTo(seq=seq))
        self._open(popup)

    def open_selftest(self) -> None:
        """Run the touchscreen self-test (panels, buttons, readers)."""
        popup = SelfTestPopup()
        self._open(popup)
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
        self._open(popup)

    def export_game(self) -> None:
        """Write the open game's history (JSON) and bank ledger (CSV) next to the journal, and say where."""
        session = self.table.session
        if session is None:
            return
        from companion.export import export_json, export_ledger_csv

        folder = self.table.journal.path.parent / "exports"
        stem = f"game-{session.game_id}-{time.strftime('%Y%m%d-%H%M%S')}"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"{stem}.json").write_text(export_json(self.table.journal, session.game_id), encoding="utf-8")
            (folder / f"{stem}.csv").write_text(
                export_ledger_csv(self.table.journal, session.game_id), encoding="utf-8"
            )
        except OSError as error:
            self.message, self.message_refused = f"Export failed: {error}", True
            log.warning("export failed: %s", error)
            return
        self.message, self.message_refused = f"Exported game #{session.game_id} to {folder / stem}.json and .csv", False
        log.info("exported game %s to %s", session.game_id, folder / stem)

    # navigation
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

    # refreshing
    def refresh(self) -> None:
        """Redraw every screen and hand the panels their views, from the table's public view.
        A failure here is logged and shown; it never takes the kiosk down."""
        try:
            self._refresh_all()
        except Exception as error:
            log.exception("refreshing the screens failed")
            self.message, self.message_refused = f"Display problem: {error}", True

    def _refresh_all(self) -> None:
        table = self.table
        view = table.view()
        if self.buttons is not None:
            self.buttons.seat_players([p.name for p in view.players] if view else [])
            rules = table.session.rules if table.session else find_game(self.chosen_game or self.config.game)
            names = (
                [p.name for p in view.players]
                if view
                else seat_names(self.config, rules, min(len(self.config.seats), rules.info.max_players))
            )
            if (rules.info.name, names) != self._key_help_for:  # only when the game or its seats change
                self._key_help_for = (rules.info.name, names)
                self.key_help = "  ·  ".join(
                    self.buttons.key_help(names, {b.action: b.label for b in rules.info.buttons})
                    + [f"Dice tray {SIMULATED_TRAY_KEY}"]
                )
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
        self.title = f"{view.title} #{session.game_id}"
        self.status = view.status
        self.dice_roller = view.pending_dice.roller if view.pending_dice else ""
        self._show_held()
        self.undo_hint = session.undo_hint()
        self.redo_hint = session.redo_hint()
        self._refresh_board(session, view)
        self._refresh_history()

    def panel_views(self, view=None) -> list:
        """What the player panels show now: one :class:`~companion.games.PlayerView` per seat from the open
        game's board (:meth:`ui.games.GameBoard.panel_views`, called on its class: a board may add lines), or
        ``[]`` when no game is open. ``view`` is the table's public view if the caller has it already. The one
        place panel views are made, for the move just committed (:meth:`_heard`) and for :meth:`refresh`."""
        session = self.table.session
        if session is None:
            return []
        view = view if view is not None else self.table.view()
        name = session.rules.info.name
        if self._panel_views_for is None or self._panel_views_for[0] != name:
            board_type = board_class(name) or GameBoard
            self._panel_views_for = (name, board_type.panel_views)
        return list(self._panel_views_for[1](session.state, view))

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
        entries = self.screens.get_screen("history").ids.entries
        if self.screens.current != "history" or session is None:
            if self._history is not None or entries.data:
                self._history = None
                entries.data = []
            return
        if self._history is None or self._history.session is not session:
            self._history = HistoryWindow(session)
        elif not self._history.sync():
            return
        self._show_history_rows(entries)

    def _show_history_rows(self, entries) -> None:
        window = self._history
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

    def open_popup(self, popup: Popup) -> Popup:
        """Open ``popup`` as the one dialog on screen (boards use this for their own dialogs)."""
        return self._open(popup)

    def say(self, text: str, refused: bool = False) -> None:
        """Show ``text`` in the message bar (``refused`` colours it as a refusal)."""
        self.message, self.message_refused = text, refused

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

    def _refresh_home(self) -> None:
        from kivy.factory import Factory

        home = self.screens.get_screen("home")
        rules = find_game(self.chosen_game or self.config.game)
        home.game_title = rules.info.title
        picker = home.ids.game_picker
        if not picker.children:
            for name in game_names():
                button = GameChoice(text=game_title(name), game=name)  # titles only: nothing imported
                button.bind(on_release=lambda b: self.choose_game(b.game))
                picker.add_widget(button)
        for button in picker.children:
            button.state = "down" if button.game == rules.info.name else "normal"
        box = home.ids.new_game_box
        if not box.children:
            word = rules.info.player_word
            counts = range(rules.info.min_players, min(rules.info.max_players, len(self.config.seats)) + 1)
            for count in counts:
                names = " · ".join(seat_names(self.config, rules, count))
                room = 800 / max(3, len(counts)) / 9  # characters a name line holds at 15sp
                small = "15sp" if len(names) <= room else "12sp"
                noun = word[:-1] if count == 1 and word.endswith("s") else word  # "1 player"
                button = Factory.BigButton(text=f"{count} {noun}\n[size={small}]{names}[/size]", markup=True)
                button.bind(on_release=lambda b, n=count: self.new_game(n))
                box.add_widget(button)
        games = self.table.journal.games()
        box = home.ids.games_box
        box.clear_widgets()
        for game in sorted(games, key=lambda g: (g.last_time or g.created, g.id), reverse=True):
            names = ", ".join(p["name"] for p in game.players)
            when = time.strftime("%d %b %H:%M", time.localtime(game.last_time or game.created))
            events = f"{game.events} event" + ("" if game.events == 1 else "s")
            label = f"#{game.id} · {game_title(game.game)} · {names} · {events} · {when}"
            if game.status == "finished":
                label += " · finished"
            button = Factory.BigButton(
                text=label, font_size="18sp", size_hint_y=None, height=dp(48), shorten=True, shorten_from="right"
            )
            button.bind(on_release=lambda b, g=game.id: self.resume(g))
            box.add_widget(button)
        if not games:
            box.add_widget(Factory.BarLabel(text="No saved games yet.", size_hint_y=None, height=dp(40)))
        hint = []
        if self.buttons is not None:
            last = self._last_game()
            hint.append(
                "Buttons: "
                + (f"Undo resumes #{last.id} · " if last is not None else "")
                + f"Redo twice starts a {self._home_new_game_text()}"
            )
        self.home_hint = "\n".join(filter(None, [self.touch_problem, *hint]))


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


def seat_names(config: Config, rules, count: int) -> list[str]:
    """The names of the first ``count`` seats for a game of ``rules``: the config's own names, except that the
    built-in seats (:data:`companion.config.BUILT_IN_SEAT_NAMES`, a config without ``[[players]]``) take the game's
    own ``default_names`` when it has enough of them."""
    names = [seat.name for seat in config.seats[:count]]
    defaults = tuple(rules.info.default_names)
    if tuple(names) == BUILT_IN_SEAT_NAMES[:count] and len(defaults) >= count:
        return list(defaults[:count])
    return names


# -- the app ---------------------------------------------------------------------------------------------
class CompanionApp(App):
    """The touchscreen app. ``simulate`` adds the emulated panels and keyboard buttons below it."""

    title = "Tabletop Companion"

    def __init__(
        self,
        controller: TableController,
        *,
        simulate: bool,
        notice: str = "",
        start_new: bool = False,
        resume: int | None = None,
        **kwargs,
    ) -> None:
        super().__init__(**kwargs)
        self.controller = controller
        controller.chosen_game = controller.config.game
        self.simulate = simulate
        self.notice = notice
        self.start_new, self.resume = start_new, resume
        self._panel_version = -1
        self.left_kiosk = False
        self._corners: dict[int, str] = {}  # touch uid -> "left" / "right" (the exit gesture)
        self._corner_timer = None
        self._pin_failures = 0
        self._pin_locked_until = 0.0
        self._leaving = False

    def build(self):
        for path in kv_files():
            if not path.is_file():  # a broken install: say which file, instead of drawing boards without ids
                raise FileNotFoundError(f"the companion's layout {path} is missing: reinstall the package")
        for path in screen_kv_files():  # a board's layout is loaded with its board (ui.games.board_class)
            Builder.load_file(str(path))
        screens = ScreenManager(transition=NoTransition())
        for screen in (HomeScreen(), DashboardScreen(), HistoryScreen()):
            screens.add_widget(screen)
        self.controller.screens = screens
        screens.bind(current=self.controller.screen_changed)  # history rows built on showing, dropped on leaving
        root = BoxLayout(orientation="vertical")
        screens.size_hint_y = None
        screens.height = TOUCHSCREEN_SIZE[1]
        root.add_widget(screens)
        self.strip = None
        if self.simulate:
            self.strip = SimulatorStrip(size_hint_y=None, height=SIMULATOR_STRIP_HEIGHT)
            self.panel_images = []
            for _ in self.controller.config.seats:
                image = KivyImage(fit_mode="contain")
                self.strip.ids.panels.add_widget(image)
                self.panel_images.append(image)
            self.controller.bind(key_help=self.strip.setter("key_help"))
            root.add_widget(self.strip)
            Clock.schedule_interval(self._update_panels, 1 / 20)
        Window.bind(on_key_down=self._key_down, on_key_up=self._key_up, on_request_close=self._request_close)
        Window.clearcolor = (0.07, 0.08, 0.10, 1)
        table = self.controller.table
        table.claim()
        if self.resume is not None:
            table.execute(OpenGame(game_id=self.resume, source="startup"))
        elif not self.start_new:
            table.resume_latest()
        notice = self.notice
        if table.session is None and self.controller.touch_problem:
            # Home's own hint says that touch is off: the message bar does not say it a second time
            notice = " · ".join(part for part in notice.split(" · ") if part != self.controller.touch_problem)
        if notice:
            self.controller.message, self.controller.message_refused = notice, True
        # the buttons wake the main thread themselves (post_button); the tick applies what other threads post
        self.drain_tick = Clock.schedule_interval(self.controller.drain, 1 / 30)
        self.controller.refresh()  # the first frame already shows the resumed game
        if os.environ.get("COMPANION_BENCH_FIRST_FRAME"):
            Window.bind(on_flip=self._first_frame)
        Window.bind(on_flip=self._ready)
        Window.bind(on_touch_down=self._corner_down, on_touch_up=self._corner_up)
        interval = watchdog_interval()
        if interval:  # pinged from the main loop: a hung UI stops pinging and systemd restarts it
            Clock.schedule_interval(lambda dt: notify("WATCHDOG=1"), interval)
        return root

    def _ready(self, window) -> None:
        """The journal is open and the first frame is on the screen: tell systemd (Type=notify), and draw
        the next frame too.

        SDL2's KMS/DRM back end (Raspberry Pi OS Lite) creates its GBM/EGL surfaces again at the start of
        the first swap after the window took its full-screen size, so the picture Kivy drew for that first
        swap is dropped and an empty (black) buffer goes to the screen. Kivy draws again only when something
        changes: a kiosk that starts on a resumed game, where nothing changes until a button is pressed,
        stayed black (seen in the emulated Pi test: the kiosk's one framebuffer on the display, black).
        One more frame, drawn into the new surface, shows it."""
        Window.unbind(on_flip=self._ready)
        session = self.controller.table.session
        notify("READY=1\nSTATUS=" + (f"game #{session.game_id} open" if session else "home screen"))
        Clock.schedule_once(lambda dt: Window.canvas.ask_update(), 0)

    # -- the exit gesture: hold the two top corners together for EXIT_HOLD seconds --------------------------
    def _corner_of(self, touch) -> str | None:
        size = dp(70)
        if touch.y < Window.height - size:
            return None
        return "left" if touch.x < size else "right" if touch.x > Window.width - size else None

    def _corner_down(self, window, touch):
        corner = self._corner_of(touch)
        if corner is not None:
            self._corners[touch.uid] = corner
            held = set(self._corners.values())
            if held == {"left", "right"}:
                self._cancel_corner_timer()
                self._corner_timer = Clock.schedule_once(self._corners_held, EXIT_HOLD)
            elif held == {"left"} and self.controller.config.exit_pin and self._corner_timer is None:
                self._corner_timer = Clock.schedule_once(self._pin_corner_held, EXIT_HOLD)
        return False

    def _corner_up(self, window, touch):
        if self._corners.pop(touch.uid, None) is not None:
            self._cancel_corner_timer()
        return False

    def _cancel_corner_timer(self) -> None:
        if self._corner_timer is not None:
            self._corner_timer.cancel()
            self._corner_timer = None

    # -- the PIN exit (desktop edition: one pointer, so two corners cannot be held together) ---------------
    def _pin_corner_held(self, dt) -> None:
        self._corner_timer = None
        if set(self._corners.values()) != {"left"}:
            return
        if time.monotonic() < self._pin_locked_until:
            left = int(self._pin_locked_until - time.monotonic()) + 1
            self.controller.say(f"Kiosk exit locked for {left} s after {PIN_TRIES} wrong PINs", refused=True)
            return
        popup = PinPopup(title="Type the exit PIN to leave the kiosk (the game is saved)")
        popup.on_result = lambda typed, p=popup: self._pin_typed(p, typed)
        self.controller.open_popup(popup)

    def _pin_typed(self, popup: PinPopup, typed: str) -> None:
        if typed == self.controller.config.exit_pin:
            popup.dismiss(animation=False)
            log.info("leaving the kiosk: exit PIN typed")
            self.leave_kiosk()
            return
        self._pin_failures += 1
        log.warning("wrong kiosk exit PIN (%d of %d)", self._pin_failures, PIN_TRIES)
        if self._pin_failures >= PIN_TRIES:
            self._pin_failures = 0
            self._pin_locked_until = time.monotonic() + PIN_LOCKOUT
            popup.dismiss(animation=False)
            self.controller.say(f"{PIN_TRIES} wrong PINs: kiosk exit locked for {int(PIN_LOCKOUT)} s", refused=True)
            return
        popup.typed, popup.problem = "", f"Wrong PIN ({PIN_TRIES - self._pin_failures} tries left)"

    def _corners_held(self, dt) -> None:
        self._corner_timer = None
        if set(self._corners.values()) != {"left", "right"}:
            return
        popup = ConfirmPopup(
            title="Leave the kiosk?",
            confirm_text="Leave",
            body="The companion closes and stays closed until the Pi restarts or someone "
            "starts it again. The game is saved.",
        )
        popup.on_confirm = self.leave_kiosk
        self.controller._open(popup)

    def stop(self, *largs):
        self._leaving = True  # our own stop (exit gesture, SIGTERM, a driver) may close the window
        return super().stop(*largs)

    def leave_kiosk(self) -> None:
        """Close deliberately (the service does not restart it: exit status 64)."""
        self.left_kiosk = True
        notify("STOPPING=1")
        self.stop()

    def _first_frame(self, window) -> None:
        # benchmarks/run.py: note when the first frame reached the screen and the memory then, then quit
        Window.unbind(on_flip=self._first_frame)
        drawn = repr(time.time())
        try:
            with open("/proc/self/status") as status:
                memory = " ".join(
                    line.split(":")[0] + "=" + line.split()[1]
                    for line in status
                    if line.startswith(("VmRSS:", "VmHWM:"))
                )
        except OSError:
            memory = ""
        Path(os.environ["COMPANION_BENCH_FIRST_FRAME"]).write_text(f"{drawn}\n{memory}\n")
        Clock.schedule_once(lambda dt: self.stop(), 0)

    def _update_panels(self, dt) -> None:
        panels = self.controller.panels
        if panels is None:
            return
        version, frames = panels.frames()
        if version == self._panel_version:
            return
        self._panel_version = version
        for widget, frame, seat in zip(self.panel_images, frames, self.controller.config.seats):
            widget.texture = _oled_texture(frame, seat.colour)

    def _key_down(self, window, key, scancode, codepoint, modifiers):
        """A key went down: the simulator's tray key, a key mapped to a button, else nothing for the keys
        Kivy would act on itself (:data:`KIOSK_SWALLOWED_KEYS`: returning True stops Kivy's handlers)."""
        name = _key_name(key, codepoint)
        if self.simulate and self.controller.popup is None and name == SIMULATED_TRAY_KEY:
            self.controller.roll_into_reader()
            return True
        buttons, popup = self.controller.buttons, self.controller.popup
        if buttons is not None and (popup is None or isinstance(popup, SelfTestPopup)) and buttons.key_down(name):
            return True
        if key in KIOSK_SWALLOWED_KEYS:
            log.info("key %s ignored (the kiosk gives it no meaning)", name or key)
            return True
        return False

    # Kivy's settings panel (F1, or a settings button) never opens over the kiosk
    use_kivy_settings = False

    def open_settings(self, *largs) -> bool:
        return False

    def _request_close(self, window, *args, source=None, **kwargs) -> bool:
        """The window was asked to close (SDL's quit, a window manager's close, a key): refused in the kiosk,
        which leaves only through its exit gesture or systemd's stop (SIGTERM); the simulator's window closes
        from its window manager's close button (not from a key)."""
        if self._leaving or (self.simulate and source != "keyboard"):
            return False
        log.info("request to close the window (%s) ignored: the kiosk stays open", source or "window")
        return True

    def _key_up(self, window, key, scancode):
        if self.controller.buttons is None:
            return False
        return self.controller.buttons.key_up(_key_name(key, None))

    def on_start(self) -> None:
        if self.controller.readers is not None:
            self.controller.readers.start()
            self.controller._reader_status_changed()

    def on_stop(self) -> None:
        notify("STOPPING=1")
        if self.controller.readers is not None:
            self.controller.readers.stop()
        if self.controller.panels is not None:
            self.controller.panels.close()
        if self.controller.buttons is not None:
            self.controller.buttons.close()


#: Seconds at most that the main thread waits after a move for the panels to be drawn before the screen is.
PANELS_FIRST = 0.05
#: Seconds both top corners must be held to offer leaving the kiosk.
EXIT_HOLD = 3.0
#: Wrong exit PINs allowed before the PIN exit locks, and for how many seconds it then stays locked.
PIN_TRIES = 3
PIN_LOCKOUT = 60.0

#: In the simulator, this key rolls dice into the simulated dice reader's tray.
SIMULATED_TRAY_KEY = "t"
#: Seconds within which a second Redo press on the Home screen starts the new game.
NEW_GAME_CONFIRM = 10.0
#: Keys Kivy gives a meaning of its own (Escape closes the app or a dialog, F1 opens Kivy's settings panel,
#: F2–F12 serve its debug modules): on a USB keyboard at the kiosk they do nothing, unless a button uses one.
KIOSK_SWALLOWED_KEYS = frozenset({27, *range(282, 294)})

_NAMED = {
    8: "backspace",
    13: "enter",
    32: "spacebar",
    9: "tab",
    27: "escape",
    273: "up",
    274: "down",
    275: "right",
    276: "left",
}


def _key_name(key: int, codepoint: str | None) -> str:
    if key in _NAMED:
        return _NAMED[key]
    return chr(key) if 32 < key < 127 else (codepoint or "")


def _oled_texture(frame, colour: str) -> Texture:
    """A 1-bit panel frame as a Kivy texture, lit pixels in a pale tint of the player's colour, scaled ×2."""
    from PIL import Image, ImageOps

    tint = tuple(int(colour[i : i + 2], 16) // 2 + 127 for i in (1, 3, 5)) if colour.startswith("#") else (255,) * 3
    image = ImageOps.colorize(frame.convert("L"), black=(0, 0, 0), white=tint)
    image = image.resize((frame.width * 2, frame.height * 2), Image.NEAREST).transpose(Image.FLIP_TOP_BOTTOM)
    texture = Texture.create(size=image.size, colorfmt="rgb")
    texture.mag_filter = "nearest"
    texture.blit_buffer(image.tobytes(), colorfmt="rgb", bufferfmt="ubyte")
    return texture
