"""The Channel WON board: the star rating, the reporters, the Lineup as one column per category, and the
turn's actions. Layout in ``ui/kv/games/channel_won.kv``.

The board reads the state and posts commands; it never changes anything itself. Tapping a Lead opens a
dialog with what the player whose turn it is can do on it (Location, a Source or Bonus Source with its printed
value on a +/- stepper, Inside Scoops, closing it). Refusals come back in the message bar with the rule.
"""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.popup import Popup
from kivy.uix.togglebutton import ToggleButton

from companion.games.channel_won import (BONUS_VALUES, SOURCE_VALUES, CloseLead, CollectCard, DeclareDone, Pass,
                                         PlayLocation, PlayScoop, PlaySource, UseAbility, format_breakdown,
                                         stars_text)
from ui.games import GameBoard

OPEN_COLOUR = (0.16, 0.20, 0.27, 1)
REPORTED_COLOUR = (0.10, 0.36, 0.20, 1)
AT_RISK_COLOUR = (0.45, 0.14, 0.12, 1)


def _rgba(colour: str) -> tuple[float, float, float, float]:
    """A seat colour (``#rrggbb`` or a few names) as Kivy RGBA."""
    from kivy.utils import get_color_from_hex
    names = {"white": "#ffffff", "red": "#e53935", "blue": "#1e88e5", "green": "#43a047", "yellow": "#fdd835"}
    try:
        return tuple(get_color_from_hex(names.get(colour, colour)))
    except (ValueError, TypeError):
        return (1, 1, 1, 1)


def _hex(colour: str) -> str:
    r, g, b, _ = _rgba(colour)
    return f"{int(r * 255):02x}{int(g * 255):02x}{int(b * 255):02x}"


class CwChip(BoxLayout):
    """One reporter: name, points, tiles left (filled squares), Pass Token, turn marker."""

    name = StringProperty("")
    score_text = StringProperty("")
    tiles_text = StringProperty("")
    token_text = StringProperty("")
    token_colour = ListProperty([1, 1, 1, 1])
    colour = ListProperty([1, 1, 1, 1])
    turn = BooleanProperty(False)


class CwLeadColumn(Button):
    """One Lead of the Lineup (tap: the Lead dialog). ``category`` is its key."""

    category = StringProperty("")
    state_text = StringProperty("")
    value_text = StringProperty("")
    location_text = StringProperty("")
    parts_text = StringProperty("")
    who_text = StringProperty("")
    fill = ListProperty(list(OPEN_COLOUR))


class CwLeadPopup(Popup):
    """What the player whose turn it is can do on one Lead.

    ``card_category`` is the category chosen for the Source card (the Lead's own: a Source; another: a Bonus
    Source); ``points`` the printed value entered on the stepper; ``source_type`` the printed Source chosen."""

    board = ObjectProperty(None)
    lead_category = StringProperty("")
    player = StringProperty("")
    info = StringProperty("")
    card_category = StringProperty("")
    source_type = StringProperty("")
    points = NumericProperty(2)
    archives = BooleanProperty(False)
    location_label = StringProperty("Location")

    def step(self, delta: int) -> None:
        """The +/- stepper: change ``points`` within the printed values allowed for this kind of card."""
        allowed = SOURCE_VALUES if self.card_category == self.lead_category else BONUS_VALUES
        self.points = max(allowed.start, min(allowed.stop - 1, int(self.points) + delta))

    def choose_category(self, category: str) -> None:
        """Pick the Source card's category (pre-fills the printed Bonus value when the catalogue knows it)."""
        self.card_category = category
        self.source_type = ""
        lead = self.board.current.lead(self.lead_category)
        if category == self.lead_category:
            self.points = max(SOURCE_VALUES.start, int(self.points))
        else:
            printed = lead.card.bonus_value(category)
            self.points = printed if printed is not None else 1
        self.board.fill_source_types(self)

    def choose_source(self, source_type: str, points: int) -> None:
        """Pick a printed Source of the Lead's category (its value comes with it)."""
        self.source_type, self.points = source_type, points

    def play_source(self) -> None:
        """Post the Source (or Bonus Source) with the entered value."""
        category = "" if self.card_category == self.lead_category else self.card_category
        self.board.post(PlaySource(player=self.player, lead=self.lead_category, value=int(self.points),
                                   category=category, source_type=self.source_type, from_archives=self.archives))
        self.dismiss(animation=False)

    def act(self, what: str) -> None:
        """Post one of the Lead's other actions: ``location``, ``close`` or an Inside Scoop key."""
        player, lead = self.player, self.lead_category
        if what == "location":
            command = PlayLocation(player=player, lead=lead)
        elif what == "close":
            command = CloseLead(player=player, lead=lead)
        else:
            command = PlayScoop(player=player, scoop=what, lead=lead)
        self.board.post(command)
        self.dismiss(animation=False)


class ChannelWonBoard(GameBoard):
    """The Channel WON dashboard (see the module docstring)."""

    stars_text = StringProperty("")
    stars_count = StringProperty("")
    round_text = StringProperty("")
    turn_text = StringProperty("")
    phase = NumericProperty(1)
    pass_disabled = BooleanProperty(True)
    ability_text = StringProperty("Ability")
    ability_disabled = BooleanProperty(True)
    early_bird_text = StringProperty("Early Bird")
    early_bird_disabled = BooleanProperty(True)
    warning = BooleanProperty(False)
    finished = BooleanProperty(False)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.state: Any = None
        self.popup: CwLeadPopup | None = None

    # -- commands ------------------------------------------------------------------------------------------
    @property
    def current(self) -> Any:
        """The table's state now (the drawn ``state`` may be a frame behind when taps come quickly)."""
        table = getattr(self.controller, "table", None)
        return table.state if table is not None and table.state is not None else self.state

    def post(self, command) -> None:
        """Queue ``command`` for the table (the only way the board changes anything)."""
        self.controller.post(command)

    def collect(self, kind: str) -> None:
        """Phase 1: the player whose turn it is takes a card of ``kind`` (location, source, scoop)."""
        state = self.current
        if state is not None and state.turn:
            self.post(CollectCard(player=state.turn, kind=kind))

    def pass_turn(self) -> None:
        """Phase 2: the player whose turn it is passes (Pass Token to pause)."""
        state = self.current
        if state is not None and state.turn:
            self.post(Pass(player=state.turn))

    def done(self) -> None:
        """Phase 2: the player whose turn it is is done for the round."""
        state = self.current
        if state is not None and state.turn:
            self.post(DeclareDone(player=state.turn))

    def early_bird(self) -> None:
        """Early Bird for the player who took the latest action."""
        state = self.current
        if state is not None and state.last_actor:
            self.post(PlayScoop(player=state.last_actor, scoop="early_bird"))

    def use_ability(self) -> None:
        """The Character's once-per-game power, for the player whose turn it is."""
        state = self.current
        if state is not None and state.turn:
            self.post(UseAbility(player=state.turn))

    def open_lead(self, category: str) -> CwLeadPopup | None:
        """Open the dialog of the Lead ``category`` for the player whose turn it is (Phase 2 only)."""
        state = self.current
        if state is None or state.finished:
            return None
        if state.phase != 2:
            self.controller.say("Phase 1: collect cards first; Leads are played in Phase 2", refused=True)
            return None
        lead = state.lead(category)
        popup = CwLeadPopup(board=self, lead_category=category, player=state.turn,
                            title=f"{lead.card.title} Lead  ·  {state.turn}'s turn")
        popup.info = self.lead_info(lead)
        popup.location_label = f"Location\n{lead.card.location}" if lead.card.location else "Location"
        categories = popup.ids.categories
        for other in state.categories:
            button = ToggleButton(text=other if other != category else f"{other}\nSource", group="cw_category",
                                  font_size="16sp", halign="center", allow_no_selection=False)
            button.category = other
            button.bind(on_release=lambda b: popup.choose_category(b.category))
            categories.add_widget(button)
        popup.choose_category(category)
        self._mark_category(popup)
        popup.bind(card_category=lambda *_: self._mark_category(popup))
        self.popup = popup
        popup.bind(on_dismiss=lambda *_: setattr(self, "popup", None))
        self.controller.open_popup(popup)
        return popup

    @staticmethod
    def _mark_category(popup: CwLeadPopup) -> None:
        for button in popup.ids.categories.children:
            button.state = "down" if button.category == popup.card_category else "normal"

    def fill_source_types(self, popup: CwLeadPopup) -> None:
        """The printed Sources of the Lead (from the catalogue) as choices, when the card's own category is chosen."""
        box = popup.ids.source_types
        box.clear_widgets()
        lead = self.current.lead(popup.lead_category)
        if popup.card_category != popup.lead_category:
            return
        for source_type, points in lead.card.sources:
            button = ToggleButton(text=f"{source_type} {points}", group="cw_source", font_size="17sp")
            button.bind(on_release=lambda b, t=source_type, p=points: popup.choose_source(t, p))
            box.add_widget(button)

    @staticmethod
    def parts_lines(parts, most: int = 3) -> str:
        """A Lead's breakdown for its column: one play a line (``"+2 Coach"``), at most ``most`` lines."""
        if not parts:
            return "no Sources"
        lines = [f"{points:+d} {label}" for label, points in parts]
        if len(lines) > most:
            lines = lines[:most - 1] + [f"and {len(lines) - most + 1} more"]
        return "\n".join(lines)

    @staticmethod
    def lead_info(lead) -> str:
        """The dialog's first lines: state, value breakdown, Location and contributors."""
        state = "closed" if lead.closed else "open"
        where = lead.location if lead.location else ("a Location" if lead.location == "" else "no Location yet")
        who = ", ".join(lead.contributors) or "nobody yet"
        return (f"{state.capitalize()} · value {format_breakdown(lead.value, lead.breakdown())}\n"
                f"{where} · reporters: {who}")

    # -- drawing ----------------------------------------------------------------------------------------------
    def update(self, state, view) -> None:
        """Redraw the stars, the reporters, the Lineup and the action bar from ``state``."""
        self.state = state
        self.finished = state.finished
        self.phase = state.phase
        self.stars_text = stars_text(state.stars)
        self.stars_count = f"{max(state.stars, 0)} of 5"
        self.round_text = f"Round {state.round}/3\nPhase {state.phase}"
        self.warning = bool(state.phase == 2 and not state.finished and len(state.at_risk) >= state.stars - 1)
        if state.finished:
            best = max(state.scores.values())
            self.turn_text = {"won": f"Winner: {', '.join(state.winners)} with {best} points",
                              "co_anchors": f"Co-anchors: {' and '.join(state.winners)} with {best} points",
                              "channel_none": "CHANNEL NONE: the network lost its stars, everyone loses"
                              }.get(state.result, "Game over")
        else:
            self.turn_text = f"{state.turn}'s turn"
        turn = state.reporter(state.turn) if state.turn else None
        self.pass_disabled = turn is None or state.phase != 2 or turn.passed
        self.ability_disabled = turn is None or turn.ability_used
        self.ability_text = f"Ability\n{turn.character or 'Character'}" if turn else "Ability"
        self.early_bird_disabled = state.finished or state.phase != 2 or not state.last_actor
        self.early_bird_text = f"Early Bird\n{state.last_actor}" if state.last_actor else "Early Bird"
        self._draw_chips(state, view)
        self._draw_lineup(state)

    def _draw_chips(self, state, view) -> None:
        box = self.ids.chips
        if len(box.children) != len(view.players):
            box.clear_widgets()
            for _ in view.players:
                box.add_widget(CwChip())
        for chip, player, reporter in zip(reversed(box.children), view.players, state.reporters):
            tiles = state.tiles_left(reporter.name)
            chip.name = reporter.name
            chip.colour = list(_rgba(reporter.colour))
            chip.score_text = str(reporter.score)
            chip.tiles_text = "■" * tiles + "□" * (3 - tiles) if state.phase == 2 else f"{reporter.hand}/7"
            if reporter.done:
                chip.token_text, chip.token_colour = "✓", [0.6, 0.6, 0.6, 1]
            elif reporter.passed:
                chip.token_text, chip.token_colour = "‖", [1, 0.6, 0.1, 1]
            else:
                chip.token_text, chip.token_colour = "▶", [0.3, 0.85, 0.4, 1]
            chip.turn = player.turn

    def _draw_lineup(self, state) -> None:
        grid = self.ids.lineup
        grid.cols = len(state.lineup)
        if len(grid.children) != len(state.lineup):
            grid.clear_widgets()
            for _ in state.lineup:
                column = CwLeadColumn()
                column.bind(on_release=lambda c: self.open_lead(c.category))
                grid.add_widget(column)
        colours = {r.name: r.colour for r in state.reporters}
        for column, lead in zip(reversed(grid.children), state.lineup):
            column.category = lead.category
            risk = not lead.reported
            column.state_text = ("CLOSED" if lead.closed else "open") + (" · at risk" if risk and state.phase == 2 else "")
            column.value_text = str(lead.value)
            if lead.location is None:
                column.location_text = "no Location"
            else:
                column.location_text = lead.location or "Location ✓"
            column.parts_text = self.parts_lines(lead.breakdown())
            column.who_text = " ".join(f"[color={_hex(colours[name])}]{name}[/color]"
                                       for name in lead.contributors) or "-"
            column.fill = list(REPORTED_COLOUR if lead.reported else (AT_RISK_COLOUR if lead.closed else OPEN_COLOUR))
