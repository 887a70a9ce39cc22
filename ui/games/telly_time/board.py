"""The Telly Time board: one player's 3×3 genre grid at a time (switchable), their cash, viewers and empty
squares, and the buttons for what the game asks for now (Pilot Season set-up, turns, scoring).

Like every board it only reads the state and posts commands (``companion.games.telly_time``). Which buttons
it shows, and which of them can be used now, come from the rules (``TELLY_TIME.legal_commands``): a button
the rules show disabled is dimmed, and a tap on it says why (the rules' reason and rule), posting nothing.
Dialogs are :class:`TellyFormPopup` forms of choice buttons and +/− steppers, so nothing needs typing; the
Pilot Season and Writeoff dialogs ask the rules (a dry run of ``decide``) before closing, so a refusal is
shown in the dialog with what was entered kept.
Layout: ``board.kv`` beside this file.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.anchorlayout import AnchorLayout
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.popup import Popup
from kivy.uix.togglebutton import ToggleButton
from kivy.utils import get_color_from_hex

from companion.errors import CommandError
from companion.game import LegalCommand
from companion.games.telly_time import (
    TELLY_TIME,
    AdjustCash,
    AdjustViewers,
    ChooseMogulLine,
    ChoosePilotShow,
    EnterTile,
    KeepPilotCards,
    Pass,
    PilotCard,
    PlaceGridMarker,
    ProduceShow,
    ScoreEndGame,
    ScoreLineup,
    SetGridSquare,
    SetLineBonus,
    ShowScore,
    TakeAction,
    Writeoff,
)
from companion.games.telly_time.grid import CENTRE, LINE_IDS, LINE_NAMES, LINES, SQUARE_NAMES
from companion.games.telly_time.rules import writeoff_shows
from companion.games.telly_time.state import (
    ANY,
    PILOT,
    QUIZ,
    QUIZ_MAX_VIEWERS,
    TIMESLOT_NAMES,
    TIMESLOTS,
)
from ui.games import GameBoard
from ui.layout import PORTRAIT

#: Labels offered for a line's printed bonus (the tiles' bonuses are entered, not in the rulebook).
BONUS_LABELS = (
    "printed bonus",
    "Star bonus",
    "Ad bonus",
    "Network bonus",
    "Wild bonus",
    "Show bonus",
    "Cash bonus",
    "Viewer bonus",
)


def _colour(value: str) -> list[float]:
    try:
        return list(get_color_from_hex(value)) if value.startswith("#") else [0.9, 0.9, 0.9, 1]
    except (ValueError, IndexError):
        return [0.9, 0.9, 0.9, 1]


def _money(amount_m: int) -> str:
    return f"−${-amount_m}M" if amount_m < 0 else f"${amount_m}M"


# -- form widgets ------------------------------------------------------------------------------------------
class TellyFormRow(BoxLayout):
    """One labelled row of a form (``label`` on the left, the field's widgets on the right)."""

    label = StringProperty("")


class TellyChoiceButton(ToggleButton):
    """One option of a :class:`TellyChoice`; ``option`` is its value."""

    option = ObjectProperty(None, allownone=True)


class TellyActionButton(Button):
    """An action button of the board: what the shown player is offered now (``legal``, a
    :class:`~companion.game.LegalCommand`). ``unavailable`` (dimmed) when the rules say it cannot be made now."""

    unavailable = BooleanProperty(False)
    legal = ObjectProperty(None, allownone=True)


class TellyChoice(GridLayout):
    """A row of toggle buttons, one of which is chosen: ``options`` are ``(value, text)`` pairs; ``columns``
    at the most (default: all in one row). Fewer columns, and so more rows (``rows_needed``), where its width
    leaves a button too narrow for its widest word: Kivy would break the word itself ("Week" / "end")."""

    value = ObjectProperty(None, allownone=True)
    #: Rows of buttons at the present width (a form's row is made as tall: :class:`TellyFormPopup`).
    rows_needed = NumericProperty(1)

    def __init__(
        self, options: Sequence[tuple[Any, str]], value: Any = None, columns: int | None = None, **kwargs: Any
    ) -> None:
        self.most_columns = columns or len(options)
        super().__init__(cols=self.most_columns, spacing=dp(4), **kwargs)
        self.group = f"choice-{id(self)}"
        self.buttons = {}
        for option, text in options:
            button = TellyChoiceButton(
                text=text,
                group=self.group,
                allow_no_selection=False,
                state="down" if option == value else "normal",
                option=option,
            )
            button.bind(on_release=lambda b, o=option: self._chosen(o))
            self.buttons[option] = button
            self.add_widget(button)
        self.value = value
        # a button's text is drawn at its width less dp(4) (TellyChoiceButton's text_size)
        self._button_at_least = max(_widest_word(b) for b in self.buttons.values()) + dp(4) + 1
        self.rows_needed = -(-len(self.buttons) // self.most_columns)
        self.bind(width=self._fit)

    def _fit(self, *_: Any) -> None:
        spacing = self.spacing[0]  # a VariableListProperty: always [horizontal, vertical]
        fit = int((self.width + spacing) // (self._button_at_least + spacing))
        self.cols = max(1, min(self.most_columns, fit))
        self.rows_needed = -(-len(self.buttons) // self.cols)

    def _chosen(self, option: Any) -> None:
        self.value = option


def _widest_word(label: Label) -> float:
    """The widest word of ``label``'s text drawn on one line in its font (pixels)."""
    from kivy.core.text import Label as CoreLabel

    widest = 0.0
    for word in label.text.split():
        measure = CoreLabel(text=word, font_size=label.font_size, font_name=label.font_name, bold=label.bold)
        measure.refresh()
        widest = max(widest, measure.texture.size[0] if measure.texture is not None else 0)
    return widest


def cash_change(amount_m: int, reason: str) -> int:
    """The cash dialog's change ($M) for ``amount_m`` entered with ``reason``: a Cost is paid (below 0), Ad income
    received (above 0), whichever sign was entered; any other reason as entered."""
    if reason == "Cost":
        return -abs(amount_m)
    if reason == "Ad income":
        return abs(amount_m)
    return amount_m


class TellyStepper(BoxLayout):
    """A whole number between ``minimum`` and ``maximum`` with − and + buttons; ``unit`` formats it."""

    value = NumericProperty(0)
    minimum = NumericProperty(0)
    maximum = NumericProperty(99)
    text = StringProperty("0")
    unit = StringProperty("")

    def __init__(self, value: int = 0, minimum: int = 0, maximum: int = 99, unit: str = "", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.minimum, self.maximum, self.unit = minimum, maximum, unit
        self.value = value
        self._show()

    def step(self, delta: int) -> None:
        """Move the value by ``delta`` within the bounds."""
        self.value = max(self.minimum, min(self.maximum, int(self.value) + delta))
        self._show()

    def _show(self) -> None:
        value = int(self.value)
        self.text = _money(value) if self.unit == "$M" else f"{value}{self.unit}"


class TellyFormPopup(Popup):
    """A dialog of labelled fields and an OK button that calls ``on_ok(values)`` (field name → value).

    With ``check`` (``values`` → the refusal to show, ``""`` when the rules accept them), OK first asks it: a
    refusal is shown in the dialog (``problem``) and the dialog stays open with everything entered kept."""

    ok_text = StringProperty("OK")
    note = StringProperty("")
    problem = StringProperty("")

    def __init__(
        self,
        title: str,
        fields: Sequence[tuple[str, str, Any]],
        on_ok: Callable[[dict], None],
        ok_text: str = "OK",
        note: str = "",
        check: Callable[[dict], str] | None = None,
        **kwargs: Any,
    ) -> None:
        """``fields``: ``(name, label, widget)`` for a row of one field, or ``(None, label, [(name, widget),
        ...])`` for a row of several side by side."""
        super().__init__(title=title, **kwargs)
        self.ok_text, self.note, self._on_ok, self._check = ok_text, note, on_ok, check
        self.fields = {}
        rows = self.ids.rows
        for name, label, widget in fields:
            row = TellyFormRow(label=label)
            for field_name, field in [(name, widget)] if name is not None else widget:
                row.add_widget(field)
                if field_name:
                    self.fields[field_name] = field
                if isinstance(field, TellyChoice):  # as tall as its rows of buttons, as they change
                    field.bind(rows_needed=functools.partial(self._fit_row, row))
                if isinstance(field, TellyTileEntry):
                    row.height = field.row_height
            self._fit_row(row)
            rows.add_widget(row)

    @staticmethod
    def _fit_row(row: TellyFormRow, *_: Any) -> None:
        choices = [c for c in row.children if isinstance(c, TellyChoice)]
        if choices:
            row.height = dp(52) * max(c.rows_needed for c in choices)

    def values(self) -> dict[str, Any]:
        """The fields' current values."""
        return {name: (int(w.value) if isinstance(w, TellyStepper) else w.value) for name, w in self.fields.items()}

    def ok(self) -> None:
        """Close and hand the values on (unless ``check`` refuses them: then say why and stay open)."""
        values = self.values()
        if self._check is not None:
            self.problem = self._check(values)
            if self.problem:
                return
        self.dismiss(animation=False)
        self._on_ok(values)


def choice(options: Sequence[tuple[Any, str]], value: Any = None, columns: int | None = None) -> TellyChoice:
    """A :class:`TellyChoice` of ``options`` (the first chosen unless ``value``), ``columns`` at the most."""
    return TellyChoice(options, value if value is not None else options[0][0], columns)


class TellyTileSquare(ToggleButton):
    """One square of a :class:`TellyTileEntry`: its ``genre`` (``"?"`` until entered); the centre and squares
    with a marker are fixed (disabled)."""

    square = NumericProperty(0)
    genre = StringProperty("?")


class TellyTileEntry(BoxLayout):
    """A whole tile entered on one screen (:class:`~companion.games.telly_time.EnterTile`): the 3×3 tile on the
    left, the genres that can stand on it on the right (every genre but the centre's, which is the Pilot Season
    genre; on a portrait screen, below the tile in rows of four). The square being entered is highlighted,
    starting at the first one without a genre; a tap on a genre puts it there (a genre already on another square
    moves here, the two swap) and goes on to the next square without one; when one square and one genre are left,
    the genre goes there by itself. A tap on a square chooses it. ``value``: the 9 genres row by row (``None`` =
    not entered)."""

    value = ObjectProperty(None, allownone=True)
    selected = NumericProperty(-1)

    def __init__(self, squares: Sequence[str | None], filled: Sequence[bool], genres: Sequence[str], **kwargs: Any):
        # portrait (480 px across): the genres in rows of four below the tile, not two narrow columns beside it
        super().__init__(orientation="vertical" if PORTRAIT else "horizontal", spacing=dp(10), **kwargs)
        self.row_height = dp(3 * 86 + 2 * 4) + (dp(10 + 2 * 60 + 4) if PORTRAIT else 0)
        self._fixed = [square == CENTRE or filled[square] for square in range(9)]
        self._squares = list(squares)
        centre = squares[CENTRE]
        self.genres = [g for g in genres if g != centre]
        tile = GridLayout(cols=3, spacing=dp(4), size_hint_x=None, width=dp(3 * 110 + 8))
        self.cells: list[TellyTileSquare] = []
        for square in range(9):
            cell = TellyTileSquare(square=square, group=f"tile-{id(self)}", disabled=self._fixed[square])
            cell.bind(on_release=lambda c: self.select(c.square))
            self.cells.append(cell)
            tile.add_widget(cell)
        if PORTRAIT:
            centred = AnchorLayout(anchor_x="center", size_hint_y=None, height=dp(3 * 86 + 2 * 4))
            tile.size_hint_y = None
            tile.height = centred.height
            centred.add_widget(tile)
            self.add_widget(centred)
        else:
            self.add_widget(tile)
        palette = GridLayout(cols=4 if PORTRAIT else 2, spacing=dp(4))
        self.buttons: dict[str, Button] = {}
        for genre in self.genres:
            button = TellyChoiceButton(text=genre, option=genre)
            button.bind(on_release=lambda b: self.choose(b.option))
            self.buttons[genre] = button
            palette.add_widget(button)
        self.add_widget(palette)
        self._next()
        self._show()

    def _open_squares(self) -> list[int]:
        return [s for s in range(9) if not self._fixed[s] and self._squares[s] is None]

    def _next(self) -> None:
        """Choose the first square without a genre (or keep the choice when none is left)."""
        open_squares = self._open_squares()
        if open_squares:
            self.selected = open_squares[0]
        elif self.selected < 0:
            self.selected = next((s for s in range(9) if not self._fixed[s]), -1)

    def select(self, square: int) -> None:
        """A tap on a square: it is the one a genre goes on next."""
        if not self._fixed[square]:
            self.selected = square
        self._show()

    def choose(self, genre: str) -> None:
        """A tap on a genre: it goes on the chosen square (see the class docstring)."""
        square = self.selected
        if square < 0:
            return
        previous = self._squares[square]
        if genre in self._squares:
            other = self._squares.index(genre)
            if self._fixed[other]:
                return  # a genre with a marker cube stays where it is
            self._squares[other] = previous
        self._squares[square] = genre
        open_squares = self._open_squares()
        unused = [g for g in self.genres if g not in self._squares]
        if len(open_squares) == 1 and len(unused) == 1:
            self._squares[open_squares[0]] = unused[0]
        self._next()
        self._show()

    def _show(self) -> None:
        self.value = tuple(self._squares)
        for cell in self.cells:
            cell.genre = self._squares[cell.square] or "?"
            cell.state = "down" if cell.square == self.selected else "normal"
        for genre, button in self.buttons.items():
            button.state = "down" if genre in self._squares else "normal"


# -- the board ---------------------------------------------------------------------------------------------
class TellyGridCell(Button):
    """One genre square: ``genre``, whether it has a marker (``filled``, drawn as a cube of the player's
    ``colour``), whether it lies on a completed line (``in_line``, highlighted) and whether it is the centre."""

    genre = StringProperty("")
    filled = BooleanProperty(False)
    in_line = BooleanProperty(False)
    centre = BooleanProperty(False)
    colour = ListProperty([1, 1, 1, 1])
    square = NumericProperty(0)


class TellyPlayerTab(ToggleButton):
    """A player's tab on the left: name, cash and viewers; outlined in yellow when it is their ``turn``."""

    player = StringProperty("")
    colour = ListProperty([1, 1, 1, 1])
    turn = BooleanProperty(False)


class TellyTimeBoard(GameBoard):
    """The Telly Time board (see the module docstring). ``shown`` is the player whose grid is shown."""

    shown = StringProperty("")
    cash_text = StringProperty("")
    viewers_text = StringProperty("")
    grid_text = StringProperty("")
    lines_text = StringProperty("")
    phase = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cells = []
        for square in range(9):
            cell = TellyGridCell(square=square)
            cell.bind(on_release=lambda c: self.tap_square(c.square))
            self.cells.append(cell)
            self.ids.grid.add_widget(cell)
        self._state: Any = None  # the TellyTimeState last drawn
        self._last_turn = None
        self._had_tile: dict[str, bool] = {}  # per player, whether the last update showed their tile
        self._was_set_up: dict[str, bool] = {}  # per player, whether they were set up for season 1

    # -- drawing --------------------------------------------------------------------------------------
    def update(self, state: Any, view: Any) -> None:
        """Redraw from the game state: tabs, the shown player's grid and figures, the action buttons."""
        self._state = state
        names = list(state.names)
        if state.pending is not None:
            self.shown = state.pending.player
        elif state.current and state.current != self._last_turn:
            self.shown = state.current  # follow the turn
        elif self.shown not in names:
            self.shown = names[0]
        self._last_turn = state.current
        open_tile = self._follow_set_up(state)
        tabs = self.ids.tabs
        if [t.player for t in tabs.children[::-1]] != names:
            tabs.clear_widgets()
            for network in state.networks:
                tab = TellyPlayerTab(
                    player=network.name,
                    colour=_colour(network.colour),
                    group=f"tabs-{id(self)}",
                    allow_no_selection=False,
                )
                tab.bind(on_release=lambda t: self.show_player(t.player))
                tabs.add_widget(tab)
        for tab in tabs.children:
            network = state.network(tab.player)
            tab.turn = state.current == tab.player
            done = " · passed" if network.passed is not None and state.phase == "season" else ""
            tab.text = f"{tab.player}  {_money(network.cash_m)}\n{network.viewers} viewers{done}"
            tab.state = "down" if tab.player == self.shown else "normal"
        self._draw_player(state.network(self.shown))
        self.phase = state.phase
        self._draw_actions(state)
        if open_tile:
            self.open_tile()

    @staticmethod
    def _set_up(network: Any) -> bool:
        return network.grid is not None and network.grid.entered and bool(network.pilot_cards)

    def _follow_set_up(self, state: Any) -> bool:
        """The Pilot Season in few taps: once the shown player is set up (tile and 2 cards), the next one who
        is not is shown; returns whether the shown player's tile just came without its genres (no tile
        catalogue), so that its entry screen opens by itself."""
        open_tile = False
        if state.phase == PILOT and state.pending is None:
            network = state.network(self.shown)
            has_tile = network.grid is not None
            if has_tile and not self._had_tile.get(network.name, True) and not network.grid.entered:
                open_tile = self.controller is not None and self.controller.popup is None
            if self._set_up(network) and not self._was_set_up.get(network.name, True):
                waiting = [n.name for n in state.networks if not self._set_up(n)]
                if waiting:
                    self.shown = waiting[0]
        self._had_tile = {n.name: n.grid is not None for n in state.networks}
        self._was_set_up = {n.name: self._set_up(n) for n in state.networks}
        return open_tile

    def _draw_player(self, network: Any) -> None:
        grid = network.grid
        colour = _colour(network.colour)
        on_lines = {s for line in (grid.completed if grid else ()) for s in LINES[line]}
        for cell in self.cells:
            genre = grid.squares[cell.square] if grid else None
            cell.genre = genre or ("?" if grid else "")
            cell.filled = bool(grid and grid.filled[cell.square])
            cell.in_line = cell.square in on_lines
            cell.centre = cell.square == CENTRE
            cell.colour = colour
        self.cash_text = _money(network.cash_m)
        self.viewers_text = f"{network.viewers} viewers"
        empty = grid.empty_count if grid else 9
        filled = 9 - empty
        self.grid_text = (
            f"{empty} empty: pass +${empty}M\n{filled} filled: +{filled} viewer{'' if filled == 1 else 's'}"
        )
        if grid is None:
            self.lines_text = "Choose the Pilot Season show"
        elif grid.completed:
            self.lines_text = "Lines: " + ", ".join(
                LINE_NAMES[l].replace("diagonal ", "diag. ") for l in grid.completed
            )
        else:
            self.lines_text = "No line completed yet"

    def _draw_actions(self, state: Any) -> None:
        actions = self.ids.actions
        actions.clear_widgets()
        for legal, handler in self.actions_for(state):
            button = TellyActionButton(text=legal.label, legal=legal, unavailable=not legal.enabled)
            button.bind(on_release=lambda b, h=handler: self._press(b.legal, h))
            actions.add_widget(button)

    #: The form behind each command kind the rules may offer with arguments still to choose; a complete
    #: command (Start season 1) is posted as the rules give it; any other kind has no button (SetGridSquare
    #: is entered by tapping a square).
    FORMS = {
        "ChooseMogulLine": "open_mogul_choice",
        "ChoosePilotShow": "open_pilot",
        "KeepPilotCards": "open_cards",
        "SetLineBonus": "open_line_bonus",
        "ProduceShow": "open_produce",
        "TakeAction": "open_action",
        "Pass": "open_pass",
        "PlaceGridMarker": "open_marker",
        "ScoreLineup": "open_score",
        "ScoreEndGame": "open_end_bonuses",
        "AdjustCash": "open_cash",
        "AdjustViewers": "open_viewers",
        "Writeoff": "open_writeoff",
    }

    def actions_for(self, state: Any) -> list[tuple[LegalCommand, Callable[[], None]]]:
        """The buttons for the shown player, as ``(legal command, handler)`` pairs in the rules' order: every
        command the rules offer the player now that is complete or that this board has a form for (Writeoff
        too, which the rules offer where "Telly Time Clarifications", Writeoff, applies)."""
        actions: list[tuple[LegalCommand, Callable[[], None]]] = []
        for legal in TELLY_TIME.legal_commands(state, self.shown):
            if legal.command is not None:
                actions.append((legal, functools.partial(self._post, legal.command)))
            elif legal.kind in self.FORMS:
                actions.append((legal, getattr(self, self.FORMS[legal.kind])))
        return actions

    def _legal(self, kind: str) -> LegalCommand | None:
        for legal in TELLY_TIME.legal_commands(self._state, self.shown):
            if legal.kind == kind:
                return legal
        return None

    def _press(self, legal: LegalCommand, handler: Callable[[], None]) -> None:
        """A tap on an action button: its form when the rules allow the command now, else why not."""
        if legal.enabled:
            handler()
        else:
            self._explain(legal)

    def _explain(self, legal: LegalCommand) -> None:
        self.controller.say(f"{legal.reason} ({legal.rule})" if legal.rule else legal.reason, refused=True)

    # -- taps -----------------------------------------------------------------------------------------
    def show_player(self, player: str) -> None:
        """Show ``player``'s grid and act for them."""
        self.shown = player
        if self._state is not None:
            self.update(self._state, None)

    def _network(self):
        return self._state.network(self.shown)

    def _post(self, command) -> None:
        self.controller.post(command)

    def _refusal(self, command) -> str:
        """``""`` when the rules accept ``command`` now, else ``"Refused: "`` and their reason: a dry run of
        ``decide`` on the table's state, which changes nothing."""
        session = self.controller.table.session
        try:
            session.rules.decide(session.state, command)
        except CommandError as error:
            return f"Refused: {error}"
        return ""

    def _open(self, popup: Popup) -> Popup:
        return self.controller.open_popup(popup)

    def _genres(self, only: Sequence[str] | None = None) -> list[tuple[str, str]]:
        return [(g, g) for g in (only if only is not None else self._state.genres)]

    def tap_square(self, square: int) -> None:
        """A tap on a square: while the tile has squares without a genre, the whole tile's entry screen
        (:meth:`open_tile`); else enter this square's genre (while it has no marker), or say what it is."""
        network = self._network()
        legal = self._legal("SetGridSquare")
        if legal is None:
            return  # the game is over
        if not legal.enabled:
            self._explain(legal)
            return
        grid = network.grid
        if not grid.entered:
            self.open_tile()
            return
        if square == CENTRE or grid.filled[square]:
            self.controller.say(
                f"{network.name}'s {grid.squares[square]} square ({SQUARE_NAMES[square]}) has a marker cube"
            )
            return
        # only the genres that can stand here: not the centre's, nor one held by a square with a marker
        fixed = {grid.squares[s] for s in range(9) if s == CENTRE or grid.filled[s]}
        can_stand = [g for g in self._state.genres if g not in fixed]
        self._open(
            TellyFormPopup(
                f"{network.name}: genre printed on the {SQUARE_NAMES[square]} square",
                [("genre", "Genre", choice(self._genres(can_stand), grid.squares[square], columns=4))],
                lambda v: self._post(SetGridSquare(player=network.name, square=square, genre=v["genre"])),
            )
        )

    def open_tile(self) -> None:
        """The shown player's whole tile on one screen (:class:`TellyTileEntry`, posted as one
        :class:`EnterTile`): for a tile not in the tile catalogue, entered as printed ("Your Genre Grid";
        ruling 1). Asks the rules before closing."""
        network = self._network()
        grid = network.grid
        if grid is None:
            return
        entry = TellyTileEntry(grid.squares, grid.filled, self._state.genres)

        def command(v: dict) -> EnterTile:
            return EnterTile(player=network.name, squares=tuple(v["tile"]))

        def check(v: dict) -> str:
            missing = sum(1 for s in range(9) if v["tile"][s] is None)
            if missing:
                return f"Tap a genre for each ? square ({missing} left)"
            return self._refusal(command(v))

        self._open(
            TellyFormPopup(
                f"{network.name}'s {grid.squares[CENTRE]} tile: tap the genre printed on the lit square",
                [("tile", "", entry)],
                lambda v: self._post(command(v)),
                note="The lit square takes the genre you tap, then the next ? square is lit.",
                check=check,
            )
        )

    def open_pilot(self) -> None:
        """Pilot Season show: its genre (the tile's centre), the timeslot it goes in and which timeslots it
        prefers ("Place your Pilot Season show in its preferred timeslot"): by default only that one; a second
        icon or ANY as printed ("Wild Timeslots"). Asks the rules before closing (:meth:`_refusal`)."""
        name = self.shown
        slots = [(s, TIMESLOT_NAMES[s]) for s in TIMESLOTS]

        def command(v: dict) -> ChoosePilotShow:
            also = v["also"]
            preferred = () if not also else (ANY,) if also == ANY else tuple(dict.fromkeys((v["slot"], also)))
            return ChoosePilotShow(player=name, genre=v["genre"], timeslot=v["slot"], preferred=preferred)

        # a tile per genre ("Telly Time Pilot Season"): the genres whose tile another player took are not offered
        taken = {n.grid.squares[CENTRE] for n in self._state.networks if n.grid is not None}
        genres = [g for g in self._state.genres if g not in taken]
        catalogue = [g for g in genres if g in self._state.options.get("tiles", {})]
        if catalogue:
            note = f"The tile comes from the tile catalogue ({', '.join(catalogue)}); marker on the centre."
        else:
            note = "Takes the tile with this genre in the centre; marker on the centre. Then enter its genres."
        self._open(
            TellyFormPopup(
                f"{name}: Pilot Season show",
                [
                    ("genre", "Genre", choice(self._genres(genres), columns=5)),
                    ("slot", "Timeslot", choice(slots)),
                    ("also", "Also prefers", choice([("", "Only it")] + slots + [(ANY, "ANY")])),
                ],
                lambda v: self._post(command(v)),
                note=note,
                check=lambda v: self._refusal(command(v)),
            )
        )

    def open_writeoff(self) -> None:
        """Writeoff's count of one Chat or Quiz show ("Telly Time Clarifications", Writeoff): the show's own
        viewers, its stars' and any timeslot penalty as counted at the table, and for a Chat show the viewers of
        the stars on the other shows; a Quiz show counts no bonus viewers. Asks the rules before closing, so a
        refusal (other stars on a Quiz show, a penalty in a preferred timeslot) is shown and what was entered
        kept."""
        network = self._network()
        shows = writeoff_shows(network)

        def command(v: dict) -> Writeoff:
            score = ShowScore(v["slot"], v["viewers"], (v["stars"],) if v["stars"] else (), v["penalty"])
            return Writeoff(player=network.name, show=score, other_stars=(v["others"],) if v["others"] else ())

        self._open(
            TellyFormPopup(
                f"{network.name}: Writeoff counts a show's viewers",
                [
                    (
                        "slot",
                        "Show",
                        choice([(slot, f"{show.name} ({TIMESLOT_NAMES[slot]})") for slot, show in shows], columns=2),
                    ),
                    ("viewers", "Viewers", TellyStepper(0, 0, 30)),
                    ("stars", "Its stars", TellyStepper(0, 0, 30)),
                    ("penalty", "Penalty", TellyStepper(0, 0, 10)),
                    ("others", "Other stars", TellyStepper(0, 0, 30)),
                ],
                lambda v: self._post(command(v)),
                ok_text="Record",
                note="Chat: + stars on other shows. Quiz: no bonus viewers.",
                check=lambda v: self._refusal(command(v)),
            )
        )

    def open_cards(self) -> None:
        """The two kept Pilot Season stars/ads with their cash bonuses and costs."""
        name = self.shown
        kinds = [("ad", "Ad"), ("star", "Star")]
        fields = []
        for n in (1, 2):
            fields += [
                (f"kind{n}", f"Card {n}", choice(kinds)),
                (f"cash{n}", "  cash bonus", TellyStepper(0, 0, 20, "$M")),
                (f"cost{n}", "  cost", TellyStepper(0, 0, 20, "$M")),
            ]
        self._open(
            TellyFormPopup(
                f"{name}: keep 2 stars/ads",
                fields,
                lambda v: self._post(
                    KeepPilotCards(
                        player=name,
                        cards=tuple(PilotCard(v[f"kind{n}"], "", v[f"cash{n}"], v[f"cost{n}"]) for n in (1, 2)),
                    )
                ),
            )
        )

    def open_line_bonus(self) -> None:
        """Enter the bonus printed at the end of a line of the shown player's tile."""
        network = self._network()
        short = {
            "row1": "Top row",
            "row2": "Mid row",
            "row3": "Bottom row",
            "col1": "Left col",
            "col2": "Mid col",
            "col3": "Right col",
            "diag1": "Diag \\",
            "diag2": "Diag /",
        }
        self._open(
            TellyFormPopup(
                f"{network.name}: bonus printed at the end of a line",
                [
                    ("line", "Line", choice([(l, short[l]) for l in LINE_IDS], columns=4)),
                    ("label", "Bonus", choice([(b, b.capitalize()) for b in BONUS_LABELS], columns=4)),
                    ("cash", "Adds cash", TellyStepper(0, 0, 20, "$M")),
                    ("viewers", "Adds viewers", TellyStepper(0, 0, 20)),
                ],
                lambda v: self._post(
                    SetLineBonus(
                        player=network.name, line=v["line"], label=v["label"], cash_m=v["cash"], viewers=v["viewers"]
                    )
                ),
            )
        )

    def open_produce(self) -> None:
        """Produce a show: genre, timeslot, preferred timeslot(s) and cost."""
        name = self.shown
        slots = [(s, TIMESLOT_NAMES[s]) for s in TIMESLOTS]

        def ok(v: dict) -> None:
            preferred = (
                (ANY,) if v["prefers"] == ANY else tuple(dict.fromkeys(s for s in (v["prefers"], v["also"]) if s))
            )
            self._post(
                ProduceShow(
                    player=name,
                    name=f"{v['genre']} show",
                    genre=v["genre"],
                    timeslot=v["slot"],
                    preferred=preferred,
                    cost_m=v["cost"],
                )
            )

        self._open(
            TellyFormPopup(
                f"{name}: produce a show",
                [
                    ("genre", "Genre", choice(self._genres(), columns=5)),
                    ("slot", "Into", choice(slots)),
                    ("prefers", "Prefers", choice(slots + [(ANY, "ANY")])),
                    ("also", "Or also", choice([("", "—")] + slots)),
                    ("cost", "Cost", TellyStepper(0, 0, 20, "$M")),
                ],
                ok,
                note="Kids: not in primetime or late night.",
            )
        )

    def open_action(self) -> None:
        """Another action this turn (sign a star, land an ad, network card) and its cash."""
        name = self.shown
        self._open(
            TellyFormPopup(
                f"{name}: other action",
                [
                    (
                        "action",
                        "Action",
                        choice([(a, a) for a in ("Sign a star", "Land an ad", "Network card", "Other")]),
                    ),
                    ("cash", "Cash", TellyStepper(0, -20, 20, "$M")),
                ],
                lambda v: self._post(TakeAction(player=name, action=v["action"], cash_m=v["cash"])),
            )
        )

    def open_pass(self) -> None:
        """Pass: the pass track reward as printed, and Preempted Timeslot."""
        network = self._network()
        empty = network.grid.empty_count if network.grid else 9
        self._open(
            TellyFormPopup(
                f"{network.name}: pass",
                [
                    ("reward", "Pass track", choice([("cash", "Cash $M"), ("viewers", "Viewers")])),
                    ("amount", "Amount", TellyStepper(0, 0, 20)),
                    ("preempted", "Preempted", choice([(False, "No"), (True, "Yes: double track")])),
                ],
                lambda v: self._post(
                    Pass(player=network.name, reward=v["reward"], amount=v["amount"], preempted=v["preempted"])
                ),
                ok_text="Pass",
                note=f"Grid pays +${empty}M now ({empty} empty squares).",
            )
        )

    def open_marker(self) -> None:
        """A card places a marker on an empty genre square (Catalog Buyout, Market Research)."""
        network = self._network()
        empty = [g for g, f in zip(network.grid.squares, network.grid.filled) if g and not f]
        self._open(
            TellyFormPopup(
                f"{network.name}: marker from a card",
                [
                    ("genre", "Genre", choice(self._genres(empty), columns=4)),
                    ("reason", "Card", choice([(r, r) for r in ("Catalog Buyout", "Market Research", "Other card")])),
                ],
                lambda v: self._post(PlaceGridMarker(player=network.name, genre=v["genre"], reason=v["reason"])),
            )
        )

    def open_cash(self) -> None:
        """Free entry of income or costs ($M): Ad income is received and a Cost paid whatever the amount's sign
        (a Cost of +$1M used to give the network $1M); a Network card or a Correction as entered."""
        name = self.shown
        self._open(
            TellyFormPopup(
                f"{name}: cash (a Cost is paid, Ad income received)",
                [
                    ("amount", "Amount", TellyStepper(1, -30, 30, "$M")),
                    ("reason", "For", choice([(r, r) for r in ("Ad income", "Cost", "Network card", "Correction")])),
                ],
                lambda v: self._post(
                    AdjustCash(player=name, amount_m=cash_change(v["amount"], v["reason"]), reason=v["reason"])
                ),
            )
        )

    def open_viewers(self) -> None:
        """Free entry of viewers scored or lost."""
        name = self.shown
        self._open(
            TellyFormPopup(
                f"{name}: viewers",
                [
                    ("viewers", "Viewers", TellyStepper(1, -30, 30)),
                    ("reason", "For", choice([(r, r) for r in ("Network card", "Show effect", "Correction")])),
                ],
                lambda v: self._post(AdjustViewers(player=name, viewers=v["viewers"], reason=v["reason"])),
            )
        )

    def open_score(self) -> None:
        """Score the lineup: each show's viewers, its stars' viewers, a penalty, Quiz purchases; income
        and costs."""
        network = self._network()
        columns = ("Show's viewers", "Its stars' viewers", "Penalty / Quiz buys")
        # landscape: a row per show, its three figures side by side under a header; portrait (480 px across): the
        # show's name on a row of its own, then a row per figure
        fields: list = [] if PORTRAIT else [(None, "", [("", Label(text=t, font_size="18sp")) for t in columns])]
        for slot in TIMESLOTS:
            show = network.show_in(slot)
            if show is None:
                continue
            cells = [(slot, TellyStepper(0, 0, 30)), (f"{slot}_stars", TellyStepper(0, 0, 30))]
            if show.printed_genre == QUIZ:
                cells.append((f"{slot}_quiz", TellyStepper(0, 0, QUIZ_MAX_VIEWERS, " Quiz")))
            elif not show.in_preferred(slot):
                cells.append((f"{slot}_penalty", TellyStepper(0, 0, 10, " pen.")))
            else:
                cells.append(("", Label(text="no penalty", font_size="18sp")))
            if PORTRAIT:
                name = f"{TIMESLOT_NAMES[slot]}: {show.name}"
                fields.append((None, "", [("", Label(text=name, font_size="19sp", bold=True))]))
                labels = ("viewers", "stars' viewers", "Quiz buys" if show.printed_genre == QUIZ else "penalty")
                fields += [(None, label, [cell]) for label, cell in zip(labels, cells)]
            else:
                fields.append((None, f"{TIMESLOT_NAMES[slot]}\n{show.name}", cells))
        income, costs = ("income", TellyStepper(0, 0, 40, "$M")), ("costs", TellyStepper(0, 0, 40, "$M"))
        if PORTRAIT:
            fields += [(None, "Cash income", [income]), (None, "Cash costs", [costs])]
        else:
            fields.append((None, "Cash", [income, ("", Label(text="income, costs:", font_size="18sp")), costs]))

        def ok(v: dict) -> None:
            shows = tuple(
                ShowScore(
                    slot,
                    v[slot],
                    (v[f"{slot}_stars"],) if v[f"{slot}_stars"] else (),
                    v.get(f"{slot}_penalty", 0),
                    v.get(f"{slot}_quiz", 0),
                )
                for slot in TIMESLOTS
                if slot in v
            )
            self._post(ScoreLineup(player=network.name, shows=shows, income_m=v["income"], costs_m=v["costs"]))

        popup = TellyFormPopup(
            f"{network.name}: score the lineup (season {self._state.season})",
            fields,
            ok,
            note="Grid +1 viewer per filled square and the pass track are added.",
        )
        self._open(popup)

    def open_end_bonuses(self) -> None:
        """End-game viewer bonuses (every row except Genres)."""
        name = self.shown
        self._open(
            TellyFormPopup(
                f"{name}: end-game viewer bonuses",
                [("bonus", "All rows", TellyStepper(0, 0, 60))],
                lambda v: self._post(ScoreEndGame(player=name, bonuses=(("End-game bonuses", v["bonus"]),))),
                note="Ignore the Genres row (Telly Time: End-Game Scoring).",
            )
        )

    def open_mogul_choice(self) -> None:
        """Which of the lines just completed gives the mogul bonus."""
        pending = self._state.pending
        self._open(
            TellyFormPopup(
                f"{pending.player}: which line gives the mogul bonus?",
                [("line", "Line", choice([(l, LINE_NAMES[l]) for l in pending.lines], columns=1))],
                lambda v: self._post(ChooseMogulLine(player=pending.player, line=v["line"])),
                note="The other line gains its printed bonus.",
            )
        )
