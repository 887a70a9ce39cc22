"""The Channel WON board: the star rating, the reporters, the Lineup as one column per category, and the
turn's actions. Layout in ``ui/games/channel_won/board.kv``.

The board reads the state and posts commands; it never changes anything itself. Tapping a Lead opens a
dialog with what the player whose turn it is can do on it (Location, a Source or Bonus Source with its printed
value on a +/- stepper within the rule's range, Inside Scoops, closing it); what the rules forbid there and then
is disabled with a short reason on the button. The action bar's buttons likewise: everything the board enables
or disables comes from the rules' ``legal_commands`` (the board never guesses a rule nor reads refusal text).
Refusals come back in the message bar with the rule.

When a round is scored the board opens its results (one Lead a line, the stars, the next round's order); the
"Round N results" button opens them again until the next round's first action, and at the end of the game.
"""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty, DictProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.popup import Popup
from kivy.uix.togglebutton import ToggleButton

from companion.games.channel_won import (
    BONUS_VALUES,
    CATEGORIES,
    CHANNEL_WON,
    SOURCE_VALUES,
    CloseLead,
    CollectCard,
    DeclareDone,
    Pass,
    PlayLocation,
    PlayScoop,
    PlaySource,
    UseAbility,
    deck_notices,
    format_breakdown,
    result_lines,
    stars_text,
)
from ui.games import GameBoard
from ui.layout import PORTRAIT

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
    """One reporter: name, points, tiles left (filled squares, Phase 2), cards in hand (``3/7``), Pass Token,
    turn marker."""

    name = StringProperty("")
    score_text = StringProperty("")
    tiles_text = StringProperty("")
    hand_text = StringProperty("")
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
    points = NumericProperty(SOURCE_VALUES.start)
    low = NumericProperty(SOURCE_VALUES.start)
    high = NumericProperty(SOURCE_VALUES.stop - 1)
    archives = BooleanProperty(False)
    location_label = StringProperty("Location")
    #: action (``location``, ``close``, an Inside Scoop key, ``source``) -> why it is not allowed now
    blocked = DictProperty({})

    @property
    def range_text(self) -> str:
        """The values the rules accept for this kind of card: ``"1 to 10"`` or ``"-10 to +10"``."""
        if self.card_category == self.lead_category:
            return f"{self.low} to {self.high}"
        return f"{self.low:+d} to {self.high:+d}"

    def step(self, delta: int) -> None:
        """The +/- stepper: change ``points`` within the printed values allowed for this kind of card."""
        self.points = max(self.low, min(self.high, int(self.points) + delta))
        self.board.check_actions(self)

    def choose_category(self, category: str) -> None:
        """Pick the Source card's category. The value starts at the rule's lowest Source value (1), or a
        Bonus Source's printed value when the catalogue knows it (else +1); the stepper keeps to the range."""
        self.card_category = category
        self.source_type = ""
        lead = self.board.current.lead(self.lead_category)
        allowed = SOURCE_VALUES if category == self.lead_category else BONUS_VALUES
        self.low, self.high = allowed.start, allowed.stop - 1
        if category == self.lead_category:
            self.points = SOURCE_VALUES.start
        else:
            printed = lead.card.bonus_value(category)
            self.points = printed if printed is not None else 1
        self.board.fill_source_types(self)
        self.board.check_actions(self)

    def label(self, action: str, text: str, blocked: dict) -> str:
        """A button's text; when the rules forbid ``action`` now, its first line and the reason under it (two
        18 px lines fit the dialog's buttons; a button of two lines gives up its second line to the reason)."""
        reason = blocked.get(action, "")
        return f"{text.splitlines()[0]}\n[size=18sp]{reason}[/size]" if reason else text

    def choose_source(self, source_type: str, points: int) -> None:
        """Pick a printed Source of the Lead's category (its value comes with it)."""
        self.source_type, self.points = source_type, points
        self.board.check_actions(self)

    def play_source(self) -> None:
        """Post the Source (or Bonus Source) with the entered value."""
        self.board.post(self.board._command(self, "source"))
        self.dismiss(animation=False)

    def act(self, what: str) -> None:
        """Post one of the Lead's other actions: ``location``, ``close`` or an Inside Scoop key."""
        self.board.post(self.board._command(self, what))
        self.dismiss(animation=False)


class CwResultsPopup(Popup):
    """The latest scored round: one row per Lead (category, value, what it scored and for whom), then the
    stars and the next round's order or the game's end. ``rows`` are :func:`result_lines` tuples."""

    rows = ListProperty([])

    def on_rows(self, *_) -> None:
        box = self.ids.get("rows")
        if box is None:  # set before the layout is built: filled by the first call after it
            return
        box.clear_widgets()
        for label, value, words in self.rows:
            box.add_widget(CwResultRow(label=label, value=value, words=words))


class CwResultRow(BoxLayout):
    """One line of the results: ``label`` (a category, "Stars", "Round 2"), ``value`` and ``words``."""

    label = StringProperty("")
    value = StringProperty("")
    words = StringProperty("")


class ChannelWonBoard(GameBoard):
    """The Channel WON dashboard (see the module docstring)."""

    stars_text = StringProperty("")
    stars_count = StringProperty("")
    round_text = StringProperty("")
    turn_text = StringProperty("")
    phase = NumericProperty(1)
    collect_disabled = BooleanProperty(True)
    pass_disabled = BooleanProperty(True)
    done_disabled = BooleanProperty(True)
    ability_text = StringProperty("Ability")
    ability_disabled = BooleanProperty(True)
    early_bird_text = StringProperty("Early Bird")
    early_bird_disabled = BooleanProperty(True)
    warning = BooleanProperty(False)
    finished = BooleanProperty(False)
    results_text = StringProperty("")
    results_available = BooleanProperty(False)
    categories_note = StringProperty("")
    decks_note = StringProperty("")
    #: Phase 1's take buttons by card kind: their text (with the deck and face-up counts) and whether off.
    collect_texts = DictProperty({})
    collect_off = DictProperty({})
    take_location_text = StringProperty("Take\nLocation")
    take_source_text = StringProperty("Take\nSource")
    take_scoop_text = StringProperty("Take\nScoop")
    take_location_off = BooleanProperty(False)
    take_source_off = BooleanProperty(False)
    take_scoop_off = BooleanProperty(False)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.state: Any = None
        self.popup: CwLeadPopup | None = None
        self.results_popup: CwResultsPopup | None = None
        self._scoring_seen: Any = None
        self.state_seen = False

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
        """Phase 1: the player whose turn it is takes a card of ``kind`` (location, source, scoop): the deck's
        top card, or a face-up one when the rules allow only that (the deck is empty)."""
        state = self.current
        if state is not None and state.turn:
            offered = self.offered(state, state.turn)
            face_up = not self._enabled(offered, f"collect:{kind}") and self._enabled(offered, f"collect_row:{kind}")
            self.post(CollectCard(player=state.turn, kind=kind, from_row=face_up))

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

    def open_results(self) -> CwResultsPopup | None:
        """Open the latest scored round's results (one Lead a line)."""
        state = self.current
        if state is None or state.scoring is None:
            return None
        popup = CwResultsPopup(title=f"Round {state.scoring.round} results")
        popup.rows = result_lines(state.scoring)
        self.results_popup = popup
        popup.bind(on_dismiss=lambda *_: setattr(self, "results_popup", None))
        self.controller.open_popup(popup)
        return popup

    def open_lead(self, category: str) -> CwLeadPopup | None:
        """Open the dialog of the Lead ``category`` for the player whose turn it is (Phase 2 only)."""
        state = self.current
        if state is None or state.finished:
            return None
        if state.phase != 2:
            self.controller.say("Phase 1: collect cards first; Leads are played in Phase 2", refused=True)
            return None
        lead = state.lead(category)
        popup = CwLeadPopup(
            board=self,
            lead_category=category,
            player=state.turn,
            title=f"{lead.card.title} Lead  ·  {state.turn}'s turn",
        )
        popup.info = self.lead_info(lead)
        popup.location_label = f"Location\n{lead.card.location}" if lead.card.location else "Location"
        categories = popup.ids.categories
        for other in state.categories:
            button = ToggleButton(
                text=other if other != category else f"{other}\nSource",
                group="cw_category",
                font_size="18sp",
                halign="center",
                valign="middle",
                allow_no_selection=False,
            )
            # a long name ("Entertainment") wraps in its button rather than spilling out of it
            button.bind(width=lambda b, width: setattr(b, "text_size", (width - 6, None)))
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

    #: the Lead dialog's actions other than a Source: action -> the command it posts
    ACTIONS = ("location", "security_footage", "star_witness", "close", "discredit", "final_touch")

    def _command(self, popup: CwLeadPopup, action: str):
        player, lead = popup.player, popup.lead_category
        if action == "location":
            return PlayLocation(player=player, lead=lead)
        if action == "close":
            return CloseLead(player=player, lead=lead)
        if action == "source":
            category = "" if popup.card_category == popup.lead_category else popup.card_category
            return PlaySource(
                player=player,
                lead=lead,
                value=int(popup.points),
                category=category,
                source_type=popup.source_type,
                from_archives=popup.archives,
            )
        return PlayScoop(player=player, scoop=action, lead=lead)

    def check_actions(self, popup: CwLeadPopup) -> None:
        """Disable what the rules forbid now on the dialog's Lead, from :meth:`ChannelWon.legal_commands` for the
        dialog's player: each forbidden action's button shows the short reason the rules give (the Source button
        the one for the chosen card's category: a Source or a Bonus Source); the full refusal with its rule
        comes in the message bar if the handler is called anyway."""
        state = self.current
        if state is None or not popup.card_category:
            return
        blocked = {}
        for move in CHANNEL_WON.legal_commands(state, popup.player):
            if move.lead != popup.lead_category or move.enabled:
                continue
            if move.action == "source":
                if move.category == popup.card_category:
                    blocked["source"] = move.short
            elif move.action in self.ACTIONS:
                blocked[move.action] = move.short
        popup.blocked = blocked

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
            button = ToggleButton(text=f"{source_type} {points}", group="cw_source", font_size="18sp")
            button.bind(on_release=lambda b, t=source_type, p=points: popup.choose_source(t, p))
            box.add_widget(button)

    @staticmethod
    def parts_lines(parts, most: int = 3) -> str:
        """A Lead's breakdown for its column: one play a line (``"+2 Coach"``), at most ``most`` lines."""
        if not parts:
            return "no Sources"
        lines = [f"{points:+d} {label}" for label, points in parts]
        if len(lines) > most:
            lines = lines[: most - 1] + [f"and {len(lines) - most + 1} more"]
        return "\n".join(lines)

    @staticmethod
    def lead_info(lead) -> str:
        """The dialog's first lines: state, value breakdown, Location and contributors."""
        state = "closed" if lead.closed else "open"
        where = lead.location if lead.location else ("a Location" if lead.location == "" else "no Location yet")
        who = ", ".join(lead.contributors) or "nobody yet"
        return (
            f"{state.capitalize()} · value {format_breakdown(lead.value, lead.breakdown())}\n{where} · reporters: {who}"
        )

    # -- drawing ----------------------------------------------------------------------------------------------
    @staticmethod
    def offered(state, seat: str | None) -> dict[str, Any]:
        """What the rules offer ``seat`` now beside the Leads (:meth:`ChannelWon.legal_commands`), by action:
        ``"collect:location"``, ``"pass"``, ``"done"``, ``"early_bird"``, ``"ability"``; empty for no seat."""
        if not seat:
            return {}
        moves = CHANNEL_WON.legal_commands(state, seat)
        return {
            (f"{m.action}:{m.category}" if m.action.startswith("collect") else m.action): m for m in moves if not m.lead
        }

    @staticmethod
    def _enabled(offered: dict[str, Any], action: str) -> bool:
        move = offered.get(action)
        return move is not None and move.enabled

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
            self.turn_text = {
                "won": f"Winner: {', '.join(state.winners)} with {best} points",
                "co_anchors": f"Co-anchors: {' and '.join(state.winners)} with {best} points",
                "channel_none": "CHANNEL NONE: the network lost its stars, everyone loses",
            }.get(state.result, "Game over")
        else:
            self.turn_text = f"{state.turn}'s turn"
        turn = state.reporter(state.turn) if state.turn else None
        offered = self.offered(state, state.turn)
        self.collect_disabled = not any(move.enabled for key, move in offered.items() if key.startswith("collect"))
        piles = state.piles
        words = {"location": "Location", "source": "Source", "scoop": "Scoop"}
        self.collect_texts = {
            kind: f"{word}\n{piles.deck(kind)} + {piles.row(kind)} up"
            if kind != "scoop"
            else f"{word}\n{piles.deck(kind)} left"
            for kind, word in words.items()
        }
        self.collect_off = {
            kind: not (self._enabled(offered, f"collect:{kind}") or self._enabled(offered, f"collect_row:{kind}"))
            for kind in words
        }
        for kind in words:
            setattr(self, f"take_{kind}_text", self.collect_texts[kind])
            setattr(self, f"take_{kind}_off", self.collect_off[kind])
        self.decks_note = " · ".join(deck_notices(state)).replace("Channel WON ", "")
        self.pass_disabled = not self._enabled(offered, "pass")
        self.done_disabled = not self._enabled(offered, "done")
        self.ability_disabled = not self._enabled(offered, "ability")
        ability = offered.get("ability")
        if turn is None:
            self.ability_text = "Ability"
        elif ability is not None and not ability.enabled and ability.short:
            self.ability_text = f"Ability\n{ability.short}"
        else:
            self.ability_text = f"Ability\n{turn.character or 'Character'}"
        # Early Bird is the previous player's (the one who just acted, not the one whose turn it is): the button
        # says they act again (Inside Scoop Cards: "an additional action on the same turn")
        self.early_bird_disabled = not self._enabled(self.offered(state, state.last_actor), "early_bird")
        self.early_bird_text = (
            f"Early Bird\n{state.last_actor} again"
            if state.last_actor and not self.early_bird_disabled
            else "Early Bird"
        )
        self.results_available = state.scoring is not None and (state.finished or not state.acted)
        self.results_text = f"Round {state.scoring.round}\nresults" if state.scoring is not None else ""
        left_out = [c for c in CATEGORIES if c not in state.categories]
        self.categories_note = (
            f"{len(state.categories)} of {len(CATEGORIES)} categories in play; "
            f"left out: {', '.join(left_out)} (set-up option categories)"
            if left_out and state.phase == 1 and not state.finished
            else ""
        )
        self._draw_chips(state, view)
        self._draw_lineup(state)
        first_draw = self.state_seen is False
        self.state_seen = True
        if (
            state.scoring is not None
            and state.scoring != self._scoring_seen
            and self.results_available
            and not first_draw
            and self.results_popup is None
        ):
            self._scoring_seen = state.scoring
            self.open_results()
        self._scoring_seen = state.scoring

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
            chip.tiles_text = "■" * tiles + "□" * (3 - tiles) if state.phase == 2 else ""
            # cards in hand, both phases; six chips are too narrow for "/7" beside the tiles
            chip.hand_text = f"{reporter.hand}/7" if len(view.players) <= 5 else str(reporter.hand)
            if reporter.done:
                chip.token_text, chip.token_colour = "✓", [0.6, 0.6, 0.6, 1]
            elif reporter.passed:
                chip.token_text, chip.token_colour = "‖", [1, 0.6, 0.1, 1]
            else:
                chip.token_text, chip.token_colour = "▶", [0.3, 0.85, 0.4, 1]
            chip.turn = player.turn

    def _draw_lineup(self, state) -> None:
        grid = self.ids.lineup
        if len(grid.children) != len(state.lineup):
            grid.clear_widgets()  # before the new column count: a grid never holds more children than cells
            if PORTRAIT:  # (480 px across): the Leads in two rows
                grid.rows, grid.cols = None, max(1, (len(state.lineup) + 1) // 2)
            else:
                grid.cols = len(state.lineup)
            for _ in state.lineup:
                column = CwLeadColumn()
                column.bind(on_release=lambda c: self.open_lead(c.category))
                grid.add_widget(column)
        colours = {r.name: r.colour for r in state.reporters}
        for column, lead in zip(reversed(grid.children), state.lineup):
            column.category = lead.category
            risk = not lead.reported
            column.state_text = ("CLOSED" if lead.closed else "open") + (
                " · at risk" if risk and state.phase == 2 else ""
            )
            column.value_text = str(lead.value)
            if lead.location is None:
                column.location_text = "no Location"
            else:
                column.location_text = lead.location or "Location ✓"
            column.parts_text = self.parts_lines(lead.breakdown())
            column.who_text = (
                " ".join(f"[color={_hex(colours[name])}]{name}[/color]" for name in lead.contributors) or "-"
            )
            column.fill = list(REPORTED_COLOUR if lead.reported else (AT_RISK_COLOUR if lead.closed else OPEN_COLOUR))
