"""The TV Wars board: the network dashboard, the space-landing actions, the auction, set-up, bankruptcy sales,
the end-of-game assets and the Ratings War screens (rule numbers from ``rules/tv-wars.txt``).

Like every board it never changes game state: it reads the :class:`~companion.games.tv_wars.TvWarsState` and
the public :class:`~companion.games.TableView` in :meth:`TvWarsBoard.update` and posts commands.

Layout (the board area is about 800×340 px below the app's bars): a row of :class:`NetworkCard` (public facts
only, 9.1: cash, programming half-hours by type in the tiles' colours, bonus tile counts, Best Network News,
Technical Difficulties, whose turn) with each network's On the Air / Sponsor / Pay buttons, and under it the
*action strip*: one prompt line and the buttons for what the table is waiting for (:func:`plan_actions`).
Bigger choices open dialogs: the "Landed on…" chooser, nominations, a custom bid, Bulletin effects, steals,
the resolution grid (full screen, scrolling) and the asset count. From the reveal of a Ratings War until the
table dismisses its summary, the war itself takes the cards' place (:mod:`ui.games.tv_wars.war_screen`: the grid
with running scores and exact survival odds, the Preemption chosen on it, then what each network lost and kept).

Secrecy (9.1): the shared screen shows no rating, Special-ness, program name or bonus value. Where a network
must handle its secret values on the touchscreen (its starting programming's ratings 2.3, a new tile's
value, choosing which program to sell in a bankruptcy 7) the dialog is a :class:`PrivatePopup`: it covers the
whole screen, names the network ("ABS only: everyone else look away") and shows nothing until that network
taps "I am ABS"; once closed nothing secret stays on screen. A Ratings War line-up is entered on the
touchscreen by public facts only (tile id, length, type, bonus kind), while that network's own panel shows
the highlighted tile's secret value and whether the line-up is legal (``war_private_view``). Holding a seat's
``long = "peek"`` button shows the network's private figures on its own panel (:func:`peek_lines`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from kivy.factory import Factory
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.popup import Popup
from kivy.uix.scrollview import ScrollView
from kivy.utils import get_color_from_hex

from companion.commands import Command
from companion.errors import CommandError
from companion.games.tv_wars import (
    TV_WARS,
    Bid,
    Bulletin,
    BuyMovie,
    Decline,
    EnterTileValue,
    GiveUp,
    LandOn,
    Nominate,
    PassBid,
    ProgramSpec,
    SelectStartingProgramming,
    SellProgram,
    Steal,
)
from companion.games.tv_wars.auction import BID_STEP, OPENING_BID
from companion.games.tv_wars.bank import format_dollars
from companion.games.tv_wars.bankruptcy import sale_value
from companion.games.tv_wars.holdings import MINUTES, TYPE_WORDS, BonusTile, Holdings, ProgramTile
from companion.games.tv_wars.setup import STARTING_LENGTHS
from companion.games.tv_wars.spaces import SPACES
from companion.games.tv_wars.view import (
    SPECIAL_KINDS,
    TYPE_COLOURS,
    TYPE_LETTERS,
    bonus_text,
    owner_tile_label,
    peek_lines,
    tile_code,
    type_counts,
)
from companion.words import with_article
from ui.games import GameBoard
from ui.games.tv_wars.war_screen import CELL_COLOURS, WarScreen, cell_details, network_colours
from ui.layout import PORTRAIT
from ui.wrap import WordBreakLabel

#: Buttons in a dialog's bottom row in portrait (480 px across), before a second row is started.
PORTRAIT_BUTTONS_A_ROW = 3


def programming_markup(holdings: Holdings) -> str:
    """The card's programming line as Kivy markup: each type's half-hours in its tile colour, with its
    letter (``S6 A5 D5 O4``; ``Mv4`` movies, ``SB2`` Super Bowl, ``Pre`` Preemption). Public facts (9.1)."""
    parts = []
    for kind, count in type_counts(holdings):
        if kind in TYPE_COLOURS:
            parts.append(f"[color={TYPE_COLOURS[kind]}]{TYPE_LETTERS[kind]}{count}[/color]")
        else:
            parts.append(f"{SPECIAL_KINDS[kind]}{count if kind != 'preemption' else ''}")
    return " ".join(parts) or "no programs"


def _owner_button_text(tile: ProgramTile | BonusTile) -> str:
    """An owner's tile button behind the look-away gate (9.1): the label its panel uses and the secret value in
    words, then the public facts (``"P3 A50 (50 RP)  30 min Action/Adventure"``)."""
    if isinstance(tile, BonusTile):
        return f"{owner_tile_label(tile)} RP  {tile.label} bonus"
    if tile.kind == "movie":
        secret, public = "100 RP", "Academy Award Movie"
    elif tile.kind == "super_bowl":
        secret, public = "wins 8:00-9:00", "Super Bowl"
    else:
        secret = "Special" if tile.kind == "special" else f"{tile.rating} RP"
        public = f"{tile.length * 30} min {TYPE_WORDS[tile.colour]}"
    return f"{owner_tile_label(tile)} ({secret})  {public}"


def public_tile_label(tile: ProgramTile) -> str:
    """A program by public facts only (9.1): ``"P7 60 min Drama"``, ``"M2 Movie"``."""
    if tile.kind == "movie":
        return f"{tile.id} Academy Award Movie"
    if tile.kind in ("super_bowl", "preemption"):
        return tile.public_text
    return f"{tile.id} {tile.length * 30} min {TYPE_WORDS[tile.colour]}"


@dataclass(frozen=True)
class Action:
    """One button of the action strip: ``label``; either a ``command`` to post or a ``dialog`` name (with
    ``args``, the network first) for :class:`TvWarsBoard` to open, for a command of class ``kind``;
    ``enabled``, and when not the rules' ``reason`` (from :meth:`TvWars.legal_commands
    <companion.games.tv_wars.rules.TvWars.legal_commands>`, shown, never matched)."""

    label: str
    command: Command | None = None
    dialog: str = ""
    args: tuple = ()
    enabled: bool = True
    kind: str = ""
    reason: str = ""


def _seat_of(action: Action, state) -> str | None:
    """The network an action is for: its dialog's first argument, its command's network or roller."""
    if action.args:
        return action.args[0]
    for name in ("network", "roller"):
        if action.command is not None and hasattr(action.command, name):
            return getattr(action.command, name)
    if action.command is not None:  # a command any network may make (reveal the line-ups)
        return state.names[0]
    return None


def with_legal(state, actions: list[Action]) -> list[Action]:
    """``actions`` enabled, disabled and explained by the rules' :meth:`legal_commands` for each one's
    network: a command is enabled when it is offered enabled as it is; a dialog when an offer of its
    ``kind`` is. Actions that are no command (the grid, the assets) stay as they are."""
    offers: dict[str, tuple] = {}
    out = []
    for action in actions:
        seat = _seat_of(action, state)
        if seat is None or (action.command is None and not action.kind):
            out.append(action)
            continue
        if seat not in offers:
            offers[seat] = TV_WARS.legal_commands(state, seat)
        if action.command is not None:
            match = [o for o in offers[seat] if o.command == action.command]
        else:
            match = [o for o in offers[seat] if o.kind == action.kind and o.command is None]
        if not match:
            out.append(replace(action, enabled=False, reason=f"{seat} cannot do that now"))
        else:
            out.append(replace(action, enabled=match[0].enabled, reason=match[0].reason))
    return out


def _war(state) -> Any:
    return getattr(state, "war", None)


def plan_actions(state, view) -> tuple[str, list[Action]]:
    """What the action strip shows for ``state``: ``(prompt, actions)``, each action enabled or not as the
    rules' :meth:`legal_commands` say (:func:`with_legal`). Public facts only (9.1)."""
    prompt, actions = _plan(state, view)
    actions = with_legal(state, actions)
    why = [f"{a.label}: {a.reason}" for a in actions if not a.enabled and a.reason]
    return (prompt + " [" + "; ".join(why) + "]" if why else prompt), actions


def _plan(state, view) -> tuple[str, list[Action]]:
    """The prompt and the buttons for what the table waits for (the engine's ``busy``), in that order."""
    if state.finished:
        return f"Game over: {state.end_reason}", [Action("Assets and winner", dialog="assets")]
    actions: list[Action] = []
    missing = [n.name for n in state.networks if not n.holdings.tracked]
    if missing:
        actions = [
            Action(f"{name}: starting programs", dialog="starting", args=(name,), kind="SelectStartingProgramming")
            for name in missing
        ]
        if state.roll_off is not None:
            return "Best Network News roll-off (2.5); each network enters its starting programming (2.3)", actions
        return f"Each network enters its starting programming privately (2.3): {', '.join(missing)}", actions
    if state.roll_off is not None:
        return "Best Network News roll-off: the highest roll starts (2.5)", []
    war = _war(state)
    if war is not None and not war.over:
        return _war_actions(state, war)
    if state.final_count is not None:
        return "Game over: Specials are rolled for the asset count (8, 7)", []
    if state.debts:
        debt = state.debts[0]
        if debt.selling is not None:
            return f"{debt.network} rolls for the Special it sells (7, 3.3)", []
        creditor = "the bank" if debt.creditor == "bank" else debt.creditor
        return (
            f"{debt.network} owes {creditor} {format_dollars(debt.amount)}: it sells programs of its "
            f"choice at $500 per 10 RP per half-hour, no change (7)",
            [Action(f"{debt.network}: sell a program", dialog="sell", args=(debt.network,), kind="SellProgram")],
        )
    if state.auction is not None:
        return _auction_actions(state)
    if state.entry is not None:
        entry = state.entry
        return (
            f"{entry.network} enters its new tile's value privately (9.1)",
            [
                Action(
                    f"{entry.network}: enter the value",
                    dialog="tile_value",
                    args=(entry.network,),
                    kind="EnterTileValue",
                )
            ],
        )
    landing = state.landing
    if landing is not None:
        return _landing_actions(state, landing)
    if state.playing:
        actions = [Action(f"{state.turn} landed on...", dialog="landing", args=(state.turn,), kind="LandOn")]
        if war is not None:
            actions.append(Action("Last war's grid", dialog="grid"))
        return f"{state.turn}'s turn: roll the dice, move, then say where the token landed (2.5)", actions
    return view.status, []


def _auction_actions(state) -> tuple[str, list[Action]]:
    auction = state.auction
    bidder = auction.next_bidder
    high = f"high bid {auction.high_bidder} {format_dollars(auction.high_bid)}" if auction.high_bidder else "no bid yet"
    out = [f"{n} on Technical Difficulties (9.7)" for n in state.technical_difficulties]
    out += [f"{n} passed" for n in auction.passed]
    prompt = (
        f"Auction of {with_article(auction.lot_text)}: {high}; {bidder} to bid or pass"
        + (f". Not bidding: {', '.join(out)}" if out else "")
        + " (4)"
    )
    actions = []
    for raise_by in (0, BID_STEP):
        amount = auction.minimum + raise_by
        actions.append(
            Action(f"{bidder} bids {format_dollars(amount)}", Bid(network=bidder, amount=amount, source="touch"))
        )
    actions.append(Action("Other bid", dialog="bid", args=(bidder,), kind="Bid"))
    actions.append(Action(f"{bidder} passes", PassBid(network=bidder, source="touch")))
    return prompt, actions


def _landing_actions(state, landing) -> tuple[str, list[Action]]:
    me = landing.network
    stage = landing.stage
    prompt = landing.status + f" ({SPACES[landing.space][1]})"
    if stage == "nominate":
        return prompt, [
            Action("Nominate a program", dialog="nominate", args=(me,), kind="Nominate"),
            Action(f"{me} declines", Decline(network=me, source="touch")),
        ]
    if stage == "nominate_star":
        return prompt, [
            Action(f"Nominate a Star at {format_dollars(OPENING_BID)}", Nominate(network=me, source="touch")),
            Action("Open higher", dialog="nominate", args=(me,), kind="Nominate"),
            Action(f"{me} declines", Decline(network=me, source="touch")),
        ]
    if stage == "movie_offer":
        return prompt, [
            Action(f"Buy for {format_dollars(landing.price)}", dialog="movie", args=(me,), kind="BuyMovie"),
            Action(f"{me} declines", Decline(network=me, source="touch")),
        ]
    if stage == "bulletin":
        return prompt, [Action("Bulletin card effect", dialog="bulletin", args=(me,), kind="Bulletin")]
    if stage in ("steal_program", "steal_star"):
        star = stage == "steal_star"
        victims = [
            n
            for n in state.networks
            if n.name != me and not n.out and (n.holdings.count("star") if star else n.holdings.programs)
        ]
        return prompt, [
            Action(f"Steal from {n.name}", Steal(network=me, victim=n.name, source="touch")) for n in victims
        ] + [Action(f"{me} declines", Decline(network=me, source="touch"))]
    if stage in ("give_program", "give_star"):
        return prompt, [Action(f"{landing.victim} chooses", dialog="give", args=(landing.victim,), kind="GiveUp")]
    if stage == "ratings_war":
        return prompt + "; the war screens open when the war starts", []
    return prompt, []  # movie_roll, emmy_roll: the status bar asks for the dice


def _war_actions(state, war) -> tuple[str, list[Action]]:
    from companion.games.tv_wars import war_at_table as wat

    phase = war.phase
    grid = Action("Resolution grid", dialog="grid")
    if phase == wat.LINE_UPS:
        marks = " - ".join(f"{e.network} {'locked in' if e.locked else 'entering'}" for e in war.entries)
        return (
            f"Ratings War: {marks} (6)",
            [
                Action(f"{e.network} line-up", dialog="lineup", args=(e.network,), kind="EnterLineUp")
                for e in war.entries
                if not e.locked
            ],
        )
    if phase == wat.REVEAL:
        return "Ratings War: all locked in (6)", [Action("Reveal the line-ups", wat.RevealLineUps(source="touch"))]
    if phase == wat.PREEMPT:
        holder = war.preemption_holder
        return (
            f"Ratings War: {holder} may place the Preemption tile over any hour, or not (9.91)",
            [grid, Action(f"{holder}: Preemption", dialog="preempt", args=(holder,), kind="PlacePreemption")],
        )
    return wat.war_status(war), [grid]


# -- widgets -----------------------------------------------------------------------------------------------


class NetworkCard(BoxLayout):
    """One network's public facts (9.1) and its touch actions (On the Air, Sponsor, Pay)."""

    player_name = StringProperty("")
    player_colour = ListProperty([1, 1, 1, 1])
    balance_text = StringProperty("")
    programming_text = StringProperty("")
    detail_text = StringProperty("")
    sponsor_text = StringProperty("")
    turn = BooleanProperty(False)
    dimmed = BooleanProperty(False)
    bnn = BooleanProperty(False)
    #: Whether On the Air and Sponsor may be tapped now, and why not (the rules' legal_commands, 9.5, 9.4).
    air_enabled = BooleanProperty(True)
    sponsor_enabled = BooleanProperty(True)
    air_reason = StringProperty("")
    sponsor_reason = StringProperty("")
    #: What the On the Air and Sponsor buttons mean now, as the seat buttons do (TvWars.button_meanings: "Bid
    #: $2,500" and "Pass" during an auction, 4; "Lock in" during the line-ups, 6).
    air_button_text = StringProperty("On the Air")
    sponsor_button_text = StringProperty("Sponsor")


class Stepper(BoxLayout):
    """A value changed by +/- buttons (no typing): ``value`` between ``minimum`` and ``maximum``, one pair of
    buttons per step in ``steps``; ``text`` is ``fmt(value)``. In a row (− buttons, value, + buttons); on a portrait
    screen with more than one step, three rows (the − buttons, the value, the + buttons): seven across 480 px broke
    "+$5,000" over two lines."""

    value = NumericProperty(0)
    text = StringProperty("")

    def __init__(
        self, value: int, minimum: int, maximum: int, steps=(1,), fmt: Callable[[int], str] = str, **kwargs
    ) -> None:
        stacked = PORTRAIT and len(steps) > 1
        super().__init__(
            spacing=dp(4),
            size_hint_y=None,
            height=dp(56 * 3 + 8) if stacked else dp(56),
            orientation="vertical" if stacked else "horizontal",
            **kwargs,
        )
        self.minimum, self.maximum, self.fmt = minimum, maximum, fmt
        minus = BoxLayout(spacing=dp(4)) if stacked else self
        for step in sorted(steps, reverse=True):
            minus.add_widget(self._button(-step))
        self.label = Label(font_size=sp(26), bold=True, size_hint_x=1 if stacked else 1.6)
        plus = BoxLayout(spacing=dp(4)) if stacked else self
        if stacked:
            self.add_widget(minus)
        self.add_widget(self.label)
        if stacked:
            self.add_widget(plus)
        for step in sorted(steps):
            plus.add_widget(self._button(step))
        self.bind(value=self._show)
        self.value = max(minimum, min(maximum, value))
        self._show()

    def _button(self, step: int):
        text = self.fmt(abs(step)) if self.fmt is format_dollars else str(abs(step))
        button = Factory.BigButton(text=("+" if step > 0 else "-") + text, font_size=sp(20))
        button.bind(on_release=lambda b: self.change(step))
        return button

    def change(self, step: int) -> None:
        """Move the value by ``step`` within the limits."""
        self.value = max(self.minimum, min(self.maximum, int(self.value) + step))

    def _show(self, *_):
        self.text = self.fmt(int(self.value))
        self.label.text = self.text


def _columns(landscape: int) -> int:
    """How many buttons a dialog's grid puts side by side: ``landscape`` on the 800 px wide screen, one fewer
    on a portrait one (480 px across), so their names keep two lines at most."""
    return max(1, landscape - 1) if PORTRAIT else landscape


def _label(text: str, size: float = 18, **kwargs) -> Label:
    options = dict(
        font_size=sp(size),
        size_hint_y=None,
        height=dp(max(30, size * 1.6)),
        halign="left",
        valign="middle",
        markup=True,
    )
    options.update(kwargs)
    label = Label(text=text, **options)
    label.bind(width=lambda w, width: setattr(w, "text_size", (width - dp(8), None)))
    # a text that wraps (a portrait screen is 480 px across) makes its line taller, never spills over
    least = options["height"]
    label.bind(texture_size=lambda w, size: setattr(w, "height", max(least, size[1] + dp(4))))
    return label


def _choice_row(options, chosen, on_choose, group: str, height: float = 56, colours=None) -> BoxLayout:
    """A row of toggle buttons (one of ``options`` as ``(value, text)``)."""
    row = BoxLayout(spacing=dp(4), size_hint_y=None, height=dp(height))
    for value, text in options:
        button = Factory.ChoiceButton(text=text, group=group, allow_no_selection=False, font_size=sp(20))
        if colours and value in colours:
            button.color = get_color_from_hex(colours[value])
            button.bold = True
        button.state = "down" if value == chosen else "normal"
        button.bind(on_release=lambda b, v=value: on_choose(v))
        row.add_widget(button)
    return row


class TvPopup(Popup):
    """A TV Wars dialog: title, a scrolling body, a line for a refusal (``problem``) and a bottom row of
    buttons (Cancel always)."""

    problem = StringProperty("")
    #: A good verdict (green), e.g. "Legal: …"; a ``problem`` (red) is shown instead while there is one.
    note = StringProperty("")

    def on_problem(self, popup, text) -> None:
        self._show_verdict()

    def on_note(self, popup, text) -> None:
        self._show_verdict()

    def _show_verdict(self) -> None:
        self.problem_label.text = self.problem or self.note
        self.problem_label.color = (1, 0.55, 0.5, 1) if self.problem else (0.55, 0.9, 0.6, 1)

    def __init__(self, title: str, full: bool = False, **kwargs) -> None:
        super().__init__(
            title=title, title_size=sp(19), auto_dismiss=False, size_hint=(1, 1) if full else (0.96, 0.94), **kwargs
        )
        outer = BoxLayout(orientation="vertical", spacing=dp(6))
        self.scroll = ScrollView(do_scroll_x=False, always_overscroll=False)  # short content stays on top
        self.body = BoxLayout(orientation="vertical", spacing=dp(6), size_hint_y=None)
        # as tall as its content: a ScrollView puts short content at the top, and long content scrolls
        self.body.bind(minimum_height=self.body.setter("height"))
        self.scroll.add_widget(self.body)
        outer.add_widget(self.scroll)
        self.problem_label = Label(
            text="",
            font_size=sp(18),
            color=(1, 0.55, 0.5, 1),
            size_hint_y=None,
            height=0,
            halign="left",
            valign="middle",
        )
        self.problem_label.bind(
            width=lambda w, width: setattr(w, "text_size", (width - dp(8), None)),
            texture_size=lambda w, size: setattr(w, "height", size[1] + dp(6) if w.text else 0),
        )
        outer.add_widget(self.problem_label)
        # the bottom rows of buttons: one in landscape; in portrait (480 px) three to a row, so that a word such as
        # "Promotion" is never broken inside a fifth of the width
        self.button_rows = BoxLayout(orientation="vertical", spacing=dp(8), size_hint_y=None, height=dp(60))
        self.buttons = BoxLayout(spacing=dp(8))
        self.button_rows.add_widget(self.buttons)
        cancel = Factory.BigButton(text="Close")
        cancel.bind(on_release=lambda b: self.dismiss(animation=False))
        self.buttons.add_widget(cancel)
        outer.add_widget(self.button_rows)
        self.content = outer

    def add_button(self, text: str, callback, primary: bool = True):
        """Add a bottom-row button running ``callback()``."""
        button = Factory.BigButton(text=text)
        if primary:
            button.background_color = (0.15, 0.45, 0.25, 1)
        button.bind(on_release=lambda b: callback())
        if PORTRAIT and len(self.buttons.children) >= PORTRAIT_BUTTONS_A_ROW:
            self.buttons = BoxLayout(spacing=dp(8))
            self.button_rows.add_widget(self.buttons)
            self.button_rows.height += dp(68)
        self.buttons.add_widget(button)
        return button


class PrivatePopup(TvPopup):
    """A dialog for one network's secret values (9.1): it covers the whole screen, asks everyone else to look
    away and shows nothing until ``network`` taps "I am <network>"; ``build(popup)`` then fills the body."""

    def __init__(self, network: str, purpose: str, build: Callable[[PrivatePopup], None], **kwargs) -> None:
        super().__init__(f"{network} only: everyone else look away (TV Wars 9.1). {purpose}", full=True, **kwargs)
        self.network, self._build = network, build
        self.revealed = False
        self.gate = Factory.BigButton(
            text=f"I am {network}: show my tiles", font_size=sp(28), size_hint_y=None, height=dp(120)
        )
        self.gate.bind(on_release=lambda b: self.reveal())
        self.body.add_widget(_label(f"Only {network} looks at the screen now.", 22, halign="center"))
        self.body.add_widget(self.gate)

    def reveal(self) -> None:
        """Show the secret part (the network tapped its name)."""
        if self.revealed:
            return
        self.revealed = True
        self.body.clear_widgets()
        self._build(self)


# -- the board ---------------------------------------------------------------------------------------------


class TvWarsBoard(GameBoard):
    """The TV Wars board (see the module docstring). ``cards`` maps network name to :class:`NetworkCard`."""

    prompt = StringProperty("")
    #: How tall each network card is: what the fullest card needs (its ``minimum_height``: a second line of
    #: programming, a bonus line), so that nothing on a card sticks out of it and no room is kept for a line
    #: no card shows (a held dice roll's bar leaves the board less height).
    card_height = NumericProperty(dp(190))

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.cards: dict[str, NetworkCard] = {}
        self.state = None
        self.actions: list[Action] = []
        self.action_buttons: list = []
        self.dialog = None
        #: the Ratings War on the board (war_screen.py): its widget, the war last shown on it (its key),
        #: the war whose summary the table dismissed, and the hour previewed for the Preemption (9.91)
        self.war_screen: WarScreen | None = None
        self.shown_war: tuple | None = None
        self.dismissed_war: tuple | None = None
        #: the war whose line-ups this board showed (who called it, February Sweeps or not): its summary is shown
        #: even when the reveal resolves it at once, with no dice to wait for (no grid was ever shown)
        self.watched_war: tuple | None = None
        self.preempt_choice: int | None = None

    # drawing ---------------------------------------------------------------------------------------------
    def update(self, state, view) -> None:
        """Redraw the cards and the action strip from ``state`` and its public ``view`` (9.1)."""
        self.state = state
        box = self.ids.cards
        if list(self.cards) != [p.name for p in view.players]:
            box.clear_widgets()
            self.cards = {}
            for player in view.players:
                card = NetworkCard(player_name=player.name)
                card.board = self
                card.bind(minimum_height=self._fit_cards)
                self.cards[player.name] = card
                box.add_widget(card)
        auction = state.auction
        for player in view.players:
            network = state.network(player.name)
            card = self.cards[player.name]
            card.player_colour = get_color_from_hex(player.colour) if player.colour.startswith("#") else [1, 1, 1, 1]
            card.balance_text = format_dollars(player.balance)
            card.turn = player.name == auction.next_bidder if auction is not None else player.turn
            card.bnn = state.best_network_news == player.name
            holdings = network.holdings
            half_hours = network.half_hours.value
            text = (
                f"{half_hours} hh  {programming_markup(holdings)}" if holdings.tracked else f"{half_hours} half-hours"
            )
            shown = len(re.sub(r"\[[^\]]*\]", "", text))  # the letters a reader sees, without markup
            # every count stays in view (9.1: they are public): a long line gets a smaller size (down to the 18 px
            # every text keeps), then a second line, not an ellipsis
            card.programming_text = text if shown <= 18 else f"[size={max(18, int(sp(20) * 18 / shown))}]{text}[/size]"
            notes = [bonus_text(holdings)] if holdings.bonuses else []
            if network.out:
                notes.append("OUT")
            if player.name in state.technical_difficulties:
                notes.append("Tech. Diff.")
            if auction is not None:
                if player.name in auction.passed:
                    notes.append("passed")
                elif player.name == auction.high_bidder:
                    notes.append("high bid")
            card.detail_text = "  ".join(notes)
            card.dimmed = network.out or (
                auction is not None and (player.name not in auction.bidders or player.name in auction.passed)
            )
            card.sponsor_text = f"+{format_dollars(500 * half_hours)}"
            offers = {o.kind: o for o in TV_WARS.legal_commands(state, player.name) if o.command is not None}
            on_air, sponsor = offers["PassOnTheAir"], offers["LandOnSponsor"]
            card.air_enabled, card.air_reason = on_air.enabled, on_air.reason
            card.air_button_text, card.sponsor_button_text = on_air.label, sponsor.label
            # before its 2.3 selection a network's Sponsor dialog sets its hand-kept count first
            card.sponsor_enabled = sponsor.enabled or (not holdings.tracked and not state.finished)
            card.sponsor_reason = "" if card.sponsor_enabled else sponsor.reason
        self.prompt, self.actions = plan_actions(state, view)
        self._show_war(state, view)
        row = self.ids.actions
        row.clear_widgets()
        self.action_buttons = []
        for action in self.actions:
            button = Factory.BigButton(
                text=action.label, disabled=not action.enabled, font_size=sp(20) if len(action.label) < 16 else sp(18)
            )
            button.action = action
            button.bind(on_release=lambda b: self.run(b.action))
            row.add_widget(button)
            self.action_buttons.append(button)
        self._refresh_lineup_panel()

    # the Ratings War as the table's screen (war_screen.py) ------------------------------------------------
    @staticmethod
    def war_key(war) -> tuple:
        """What tells one war from another on this board: who called it, the tiles revealed, the dice."""
        return (war.landed_by, war.tile_ids, war.dice)

    def war_mode(self, state) -> str:
        """``"grid"`` from the reveal until the war is over; then ``"summary"`` until dismissed or until the
        table moves on (a landing, an auction, a tile entry, a debt, the game's end); else ``""`` (the cards).
        A summary is shown only for a war this board showed, as a grid or in its line-ups (a war that needs no
        dice is over at the reveal); a restart long after a war shows the cards."""
        war = _war(state)
        if war is None or state.finished or war.revealed is None:
            return ""
        if not war.over:
            return "grid"
        key = self.war_key(war)
        shown = self.shown_war is not None and self.shown_war[:2] == key[:2]
        watched = self.watched_war == (war.landed_by, war.february_sweeps)
        if key == self.dismissed_war or not (shown or watched):
            return ""
        if state.landing is not None or state.auction is not None or state.entry is not None or state.debts:
            return ""
        return "summary"

    def _fit_cards(self, *_) -> None:
        self.card_height = max([dp(160), *(card.minimum_height for card in self.cards.values())])

    def _show_war(self, state, view) -> None:
        """Show the war in the cards' place (or the cards again), and set the war's prompt and actions."""
        from companion.games.tv_wars import war_at_table as wat

        war = _war(state)
        if war is not None and war.revealed is None and not war.over:
            self.watched_war = (war.landed_by, war.february_sweeps)
        mode = self.war_mode(state)
        box, cards, filler = self.ids.war, self.ids.cards, self.ids.filler
        if not mode:
            self.preempt_choice = None
            if self.war_screen is not None:
                box.clear_widgets()
                self.war_screen = None
            box.size_hint_y, box.height = None, 0
            if cards.parent is None:  # back on top, where the war screen was
                self.add_widget(cards, index=len(self.children))
            filler.size_hint_y = 1
            return
        if cards.parent is not None:
            # taken out, not shrunk: a zero-height card would still lay out (and catch taps with) its buttons
            self.remove_widget(cards)
        box.size_hint_y, filler.size_hint_y, filler.height = 1, None, 0
        if self.war_screen is None:
            self.war_screen = WarScreen(on_cell=self.open_war_cell, on_slot=self.choose_preemption)
            box.add_widget(self.war_screen)
        colours = network_colours(view)
        if mode == "summary":
            self.war_screen.show_summary(wat.aftermath_lines(war), colours)
            self.prompt = war.summary or "Ratings War over"
            self.actions = [Action("Back to the board", dialog="war_done"), Action("Last war's grid", dialog="grid")]
            return
        self.shown_war = self.war_key(war)
        choosing = war.phase == wat.PREEMPT
        if not choosing:
            self.preempt_choice = None
        shown = (
            wat.preemption_preview(war, self.preempt_choice) if choosing and self.preempt_choice is not None else None
        )
        self.war_screen.show_grid(shown or wat.war_view(war), colours, choosing, self.preempt_choice)
        if choosing:
            holder = war.preemption_holder
            if self.preempt_choice is None:
                self.prompt = (
                    f"{holder} may preempt one hour: tap its first half-hour on the grid to see the odds with it, "
                    f"then confirm, or do not play it (TV Wars 9.91)"
                )
                first = Action(f"{holder}: tap an hour first", enabled=False, reason="choose an hour on the grid")
            else:
                span = _slot_span(self.preempt_choice, 2)
                self.prompt = (
                    f"{holder} would preempt {span} (shown on the grid, with the odds): confirm or choose again "
                    f"(TV Wars 9.91)"
                )
                first = Action(
                    f"{holder} preempts {span}",
                    wat.PlacePreemption(network=holder, start=self.preempt_choice, source="touch"),
                )
            self.actions = [
                first,
                Action(f"{holder}: do not play it", wat.PlacePreemption(network=holder, start=None, source="touch")),
            ]

    def choose_preemption(self, slot: int) -> None:
        """A tap on half-hour ``slot`` while the Preemption is chosen: preview the hour starting there (the
        last half-hour previews 10:00-11:00). Posts nothing (9.91)."""
        self.preempt_choice = min(slot, 4)
        self.controller.refresh()

    def open_war_done(self) -> None:
        """*Back to the board*: the war's summary goes, the cards return."""
        war = _war(self.controller.table.state)
        if war is not None:
            self.dismissed_war = self.war_key(war)
        self.controller.refresh()

    def open_war_cell(self, cell, row_label: str, network: str) -> Popup:
        """A cell's whole text: program, score with every part and its rule, fate, tie-break, odds."""
        popup = TvPopup(f"{network}, {row_label}: {cell.program or 'no program'}")
        for line in cell_details(cell, row_label, network)[1:]:
            label = _label(line, 20)
            label.bind(texture_size=lambda w, size: setattr(w, "height", max(dp(32), size[1] + dp(6))))
            popup.body.add_widget(label)
        return self._open(popup)

    def peek(self, state, player: str) -> tuple[str, list[str]]:
        """``(title, lines)`` of ``player``'s private figures for its own panel (peek, 9.1): its
        :meth:`~companion.games.tv_wars.rules.TvWars.private_view`."""
        return f"{player} PRIVATE", list(TV_WARS.private_view(state, player).lines)

    # acting ----------------------------------------------------------------------------------------------
    def run(self, action: Action) -> None:
        """Carry out one action-strip button: post its command or open its dialog."""
        if action.command is not None:
            self.controller.post(action.command)
            return
        opener = getattr(self, f"open_{action.dialog}")
        opener(*action.args)

    def _open(self, popup: Popup) -> Popup:
        self.dialog = popup
        return self.controller.open_popup(popup)

    def _post_and_close(self, popup: Popup, command: Command) -> None:
        """Post ``command`` and close ``popup`` — unless the rules would refuse it: then the dialog stays open
        with the reason in it and everything entered kept (a dry run of ``decide``, which changes nothing)."""
        session = self.controller.table.session
        try:
            session.rules.decide(session.state, command)
        except CommandError as error:
            popup.problem = f"Refused: {error}"
            return
        popup.dismiss(animation=False)
        self.controller.post(command)

    def _network(self, name: str):
        return self.controller.table.state.network(name)

    # landing -----------------------------------------------------------------------------------------------
    def open_landing(self, network: str) -> Popup:
        """The "Landed on…" chooser: every space of the board (the rulebook gives no board order), and
        whether the token passed On the Air on the way (+$3,000, 9.5)."""
        popup = TvPopup(f"{network} landed on... (tap the space; TV Wars 2.5)")
        popup.passed = False
        toggle = Factory.ChoiceButton(
            text="Passed On the Air on the way: +$3,000 (9.5)", size_hint_y=None, height=dp(52)
        )
        toggle.bind(state=lambda b, s: setattr(popup, "passed", s == "down"))
        popup.body.add_widget(toggle)
        grid = GridLayout(
            cols=_columns(3), spacing=dp(4), size_hint_y=None, row_default_height=dp(56), row_force_default=True
        )
        grid.bind(minimum_height=grid.setter("height"))
        for space, (label, rule) in SPACES.items():
            button = Factory.BigButton(text=label, font_size=sp(18))
            button.bind(
                on_release=lambda b, s=space: self._post_and_close(
                    popup, LandOn(network=network, space=s, passed_on_the_air=popup.passed, source="touch")
                )
            )
            grid.add_widget(button)
        popup.body.add_widget(grid)
        return self._open(popup)

    def open_nominate(self, network: str) -> Popup:
        """Nominate a program (length and type, 3.1/3.22) or a Star (5.1), opening at $1,000 or more in $500
        steps up to the network's cash (4)."""
        state = self.controller.table.state
        landing = state.landing
        star = landing.stage == "nominate_star"
        cash = state.network(network).cash
        popup = TvPopup(
            f"{network} nominates a {'Star' if star else 'program'} for bid (TV Wars 4, {'5.1' if star else '3.1'})"
        )
        choice = {"length": landing.lengths[0] if landing.lengths else None, "colour": "green"}
        if not star:
            popup.body.add_widget(_label("Length (only those still in the Inventory, 3.11/3.22)"))
            popup.body.add_widget(
                _choice_row(
                    [(n, MINUTES[n].replace("-minute", " min")) for n in landing.lengths],
                    choice["length"],
                    lambda v: choice.__setitem__("length", v),
                    f"len-{id(popup)}",
                )
            )
            popup.body.add_widget(_label("Type"))
            popup.body.add_widget(
                _choice_row(
                    [(c, TYPE_WORDS[c]) for c in TYPE_WORDS],
                    choice["colour"],
                    lambda v: choice.__setitem__("colour", v),
                    f"col-{id(popup)}",
                    colours=TYPE_COLOURS,
                )
            )
        popup.body.add_widget(_label("Opening bid (automatic $1,000, or higher in $500 steps; 4)"))
        popup.stepper = Stepper(
            OPENING_BID, OPENING_BID, max(OPENING_BID, cash), (BID_STEP, 5 * BID_STEP * 2), format_dollars
        )
        popup.body.add_widget(popup.stepper)

        def submit():
            opening = int(popup.stepper.value)
            command = (
                Nominate(network=network, opening=opening, source="touch")
                if star
                else Nominate(
                    network=network, length=choice["length"], colour=choice["colour"], opening=opening, source="touch"
                )
            )
            self._post_and_close(popup, command)

        popup.submit = submit
        popup.add_button("Nominate", submit)
        return self._open(popup)

    def open_bid(self, network: str) -> Popup:
        """A custom raise: from the minimum bid up to the network's cash, in $500 steps (4, 7)."""
        state = self.controller.table.state
        auction = state.auction
        cash = state.network(network).cash
        popup = TvPopup(
            f"{network} bids on the {auction.lot_text} (TV Wars 4): at least "
            f"{format_dollars(auction.minimum)}, at most its cash {format_dollars(cash)}"
        )
        popup.stepper = Stepper(
            auction.minimum,
            auction.minimum,
            max(auction.minimum, cash),
            (BID_STEP, 2 * BID_STEP, 10 * BID_STEP),
            format_dollars,
        )
        popup.body.add_widget(popup.stepper)
        popup.submit = lambda: self._post_and_close(
            popup, Bid(network=network, amount=int(popup.stepper.value), source="touch")
        )
        popup.add_button("Bid", popup.submit)
        return self._open(popup)

    def open_movie(self, network: str) -> Popup:
        """Buy the Academy Award Movie at the rolled price, choosing one of those remaining by type (3.2)."""
        landing = self.controller.table.state.landing
        popup = TvPopup(f"{network} buys an Academy Award Movie for {format_dollars(landing.price)} (TV Wars 3.2)")
        choice = {"colour": "yellow"}
        popup.body.add_widget(_label("Which of the remaining movies (by its colour)?"))
        popup.body.add_widget(
            _choice_row(
                [(c, TYPE_WORDS[c]) for c in TYPE_WORDS],
                "yellow",
                lambda v: choice.__setitem__("colour", v),
                f"mov-{id(popup)}",
                colours=TYPE_COLOURS,
            )
        )
        popup.submit = lambda: self._post_and_close(
            popup, BuyMovie(network=network, colour=choice["colour"], source="touch")
        )
        popup.add_button(f"Buy for {format_dollars(landing.price)}", popup.submit)
        return self._open(popup)

    def open_give(self, network: str) -> Popup:
        """The network being stolen from chooses what it gives up (9.2, 9.3); tiles by public facts only
        (its panel's peek shows their values)."""
        state = self.controller.table.state
        star = state.landing.stage == "give_star"
        holdings = state.network(network).holdings
        popup = TvPopup(
            f"{network} chooses the {'Star' if star else 'program'} it gives up to "
            f"{state.landing.network} (TV Wars {'9.3' if star else '9.2'}); hold your peek button "
            f"to see values on your panel"
        )
        tiles = (
            [(t.id, f"Star {t.id}") for t in holdings.bonuses if t.kind == "star"]
            if star
            else [(t.id, public_tile_label(t)) for t in holdings.programs]
        )
        grid = GridLayout(cols=2, spacing=dp(4), size_hint_y=None, row_default_height=dp(56), row_force_default=True)
        grid.bind(minimum_height=grid.setter("height"))
        for tile_id, text in tiles:
            button = Factory.BigButton(text=text, font_size=sp(18))
            button.bind(
                on_release=lambda b, t=tile_id: self._post_and_close(
                    popup, GiveUp(network=network, tile_id=t, source="touch")
                )
            )
            grid.add_widget(button)
        popup.body.add_widget(grid)
        return self._open(popup)

    def open_bulletin(self, network: str) -> Popup:
        """The Bulletin card's effect (9.6; the card texts are not in the rulebook): pay or collect (bank or
        each other network), move to a space, the Super Bowl into play (9.8), an auction, or nothing."""
        popup = TvPopup(f"{network}'s Bulletin card (TV Wars 9.6): what does it say?")
        effects = (
            ("pay", "Pay the bank"),
            ("collect", "Collect from bank"),
            ("pay_each", "Pay each network"),
            ("collect_each", "Collect from each"),
            ("move", "Move to a space"),
            ("super_bowl", "Super Bowl"),
            ("auction_program", "Auction a program"),
            ("auction_star", "Auction a Star"),
            ("none", "No effect"),
        )
        choice = {"effect": "pay", "space": "on_the_air", "length": 1, "colour": "green", "passed": False}
        grid = GridLayout(
            cols=_columns(3), spacing=dp(4), size_hint_y=None, row_default_height=dp(52), row_force_default=True
        )
        grid.bind(minimum_height=grid.setter("height"))
        for value, text in effects:
            button = Factory.ChoiceButton(
                text=text, group=f"eff-{id(popup)}", allow_no_selection=False, font_size=sp(18)
            )
            button.state = "down" if value == "pay" else "normal"
            button.bind(on_release=lambda b, v=value: pick(v))
            grid.add_widget(button)
        popup.body.add_widget(grid)
        details = BoxLayout(orientation="vertical", spacing=dp(4), size_hint_y=None)
        details.bind(minimum_height=details.setter("height"))
        popup.body.add_widget(details)
        popup.stepper = Stepper(1_000, 0, 200_000, (500, 5_000), format_dollars)
        popup.choice = choice

        def pick(effect):
            choice["effect"] = effect
            details.clear_widgets()
            if effect in ("pay", "collect", "pay_each", "collect_each", "auction_program", "auction_star"):
                details.add_widget(_label("Amount" if "auction" not in effect else "Opening bid (0 = $1,000)"))
                details.add_widget(popup.stepper)
            if effect == "move":
                row = GridLayout(
                    cols=_columns(3), spacing=dp(4), size_hint_y=None, row_default_height=dp(48), row_force_default=True
                )
                row.bind(minimum_height=row.setter("height"))
                for space, (label, _) in SPACES.items():
                    button = Factory.ChoiceButton(
                        text=label, group=f"sp-{id(popup)}", allow_no_selection=False, font_size=sp(18)
                    )
                    button.bind(on_release=lambda b, s=space: choice.__setitem__("space", s))
                    row.add_widget(button)
                details.add_widget(row)
                passed = Factory.ChoiceButton(text="Passed On the Air: +$3,000 (9.5)", size_hint_y=None, height=dp(48))
                passed.bind(state=lambda b, s: choice.__setitem__("passed", s == "down"))
                details.add_widget(passed)
            if effect == "auction_program":
                details.add_widget(
                    _choice_row(
                        [(n, f"{n * 30} min") for n in (1, 2, 3, 4)],
                        choice["length"],
                        lambda v: choice.__setitem__("length", v),
                        f"bl-{id(popup)}",
                    )
                )
                details.add_widget(
                    _choice_row(
                        [(c, TYPE_WORDS[c]) for c in TYPE_WORDS],
                        choice["colour"],
                        lambda v: choice.__setitem__("colour", v),
                        f"bc-{id(popup)}",
                        colours=TYPE_COLOURS,
                    )
                )

        popup.pick = pick
        pick("pay")

        def submit():
            effect = choice["effect"]
            amount = int(popup.stepper.value) if effect not in ("move", "super_bowl", "none") else 0
            self._post_and_close(
                popup,
                Bulletin(
                    network=network,
                    effect=effect,
                    amount=amount,
                    space=choice["space"] if effect == "move" else None,
                    passed_on_the_air=choice["passed"] if effect == "move" else False,
                    length=choice["length"] if effect == "auction_program" else None,
                    colour=choice["colour"] if effect == "auction_program" else None,
                    source="touch",
                ),
            )

        popup.submit = submit
        popup.add_button("Apply", submit)
        return self._open(popup)

    # private dialogs (9.1) -------------------------------------------------------------------------------
    def open_tile_value(self, network: str) -> Popup:
        """The buyer enters its new tile's secret value (9.1) on a :class:`PrivatePopup`: a program's rating
        10-90 or Special (3, 3.3), a Star's 10/20/30 (5.1) (one tap each); Critics' Choice -36..+36 or Viewers'
        Views -28..+29 (5.3) as its sign, tens and units (one tap each, the ones the value needs, from +0),
        then Enter (a value outside the range is refused in the dialog)."""
        entry = self.controller.table.state.entry

        def build(popup):
            what = {
                "program": f"your new {MINUTES[entry.length]} {TYPE_WORDS[entry.colour]}'s rating"
                if entry.lot == "program"
                else "",
                "star": "your new Star's value",
                "critics_choice": "your Critics' Choice tile's value",
                "viewers_views": "your Viewers' Views tile's value",
            }[entry.lot]
            popup.body.add_widget(_label(f"Look at the tile and enter {what}:", 20))
            if entry.lot in ("program", "star"):
                values = [(v, str(v)) for v in (range(10, 100, 10) if entry.lot == "program" else (10, 20, 30))]
                if entry.lot == "program":
                    values.append(("special", "Special"))
                grid = GridLayout(  # portrait: four across, so that "Special" (26 px) keeps to one line
                    cols=_columns(5), spacing=dp(4), size_hint_y=None, row_default_height=dp(64), row_force_default=True
                )
                grid.bind(minimum_height=grid.setter("height"))
                for value, text in values:
                    button = Factory.BigButton(text=text, font_size=sp(26))
                    command = (
                        EnterTileValue(network=network, special=True, source="touch")
                        if value == "special"
                        else EnterTileValue(network=network, value=value, source="touch")
                    )
                    button.bind(on_release=lambda b, c=command: self._post_and_close(popup, c))
                    grid.add_widget(button)
                popup.body.add_widget(grid)
                return
            # the printed value in at most three taps (sign, tens, units) and Enter, not a walk from 0 by ±1/±10
            low, high = (-36, 36) if entry.lot == "critics_choice" else (-28, 29)
            popup.parts = {"sign": 1, "tens": 0, "units": 0}
            popup.value_label = Label(font_size=sp(30), bold=True)

            def show(part=None, chosen=None):
                if part is not None:
                    popup.parts[part] = chosen
                parts = popup.parts
                popup.value = parts["sign"] * (parts["tens"] + parts["units"])
                popup.value_label.text = f"{popup.value:+d}"
                popup.problem = ""

            popup.value_buttons = {}
            rows = (
                ("sign", [(1, "+"), (-1, "\u2212")], 1),
                ("tens", [(t, str(t)) for t in range(0, max(-low, high) // 10 * 10 + 1, 10)], 0),
                ("units", [(u, str(u)) for u in range(10)], 0),
            )
            for part, options, chosen in rows:
                row = _choice_row(options, chosen, lambda v, p=part: show(p, v), f"{part}-{id(popup)}", height=60)
                popup.value_buttons[part] = {b.text: b for b in row.children}
                if part == "sign":
                    row.add_widget(popup.value_label)
                popup.body.add_widget(row)
            popup.body.add_widget(_label(f"From {low:+d} to {high:+d} (TV Wars 5.3)", 18))
            show()
            popup.add_button(
                "Enter",
                lambda: self._post_and_close(
                    popup, EnterTileValue(network=network, value=int(popup.value), source="touch")
                ),
            )

        return self._open(PrivatePopup(network, "Enter the new tile's value.", build))

    def open_starting(self, network: str) -> Popup:
        """The network's starting programming (2.3) on a :class:`PrivatePopup`: five 30-, four 60-, one 90-
        and one 120-minute programs, each a type (at most two of one type and length, up to five Situation
        Comedies) and the rating on the dealt tile (10-90, or Special)."""
        defaults = {
            1: ["green", "green", "red", "red", "blue"],
            2: ["blue", "yellow", "yellow", "red"],
            3: ["blue"],
            4: ["green"],
        }

        def build(popup):
            popup.rows = []
            popup.body.add_widget(
                _label(
                    "Types are announced, ratings stay secret. Type: S Situation Comedy "
                    "(green), A Action/Adventure (red), D Drama (blue), O Other (yellow); "
                    "rating with - and +, or Special (3.3).",
                    18,
                    height=dp(56),
                )
            )
            for length, count in STARTING_LENGTHS.items():
                for index in range(count):
                    row = {"length": length, "colour": defaults[length][index], "special": False}
                    line = BoxLayout(spacing=dp(4), size_hint_y=None, height=dp(56))
                    line.add_widget(Label(text=f"{length * 30} min", font_size=sp(18), size_hint_x=0.5))
                    for colour in TYPE_COLOURS:
                        button = Factory.ChoiceButton(
                            text=TYPE_LETTERS[colour],
                            group=f"st-{id(row)}",
                            allow_no_selection=False,
                            font_size=sp(22),
                            bold=True,
                            color=get_color_from_hex(TYPE_COLOURS[colour]),
                            size_hint_x=0.4,
                        )
                        button.state = "down" if colour == row["colour"] else "normal"
                        button.bind(on_release=lambda b, r=row, c=colour: r.__setitem__("colour", c))
                        line.add_widget(button)
                    row["stepper"] = Stepper(50, 10, 90, (10,), size_hint_x=2.2)
                    special = Factory.ChoiceButton(text="Special", font_size=sp(18), size_hint_x=0.7)
                    special.bind(state=lambda b, s, r=row: r.__setitem__("special", s == "down"))
                    line.add_widget(special)
                    if PORTRAIT:  # 480 px across: the rating on a line of its own, under its length and type
                        pair = BoxLayout(orientation="vertical", spacing=dp(4), size_hint_y=None, height=dp(116))
                        pair.add_widget(line)
                        row["stepper"].size_hint_x = 1
                        pair.add_widget(row["stepper"])
                        popup.body.add_widget(pair)
                    else:
                        line.add_widget(row["stepper"], index=1)  # before Special
                        popup.body.add_widget(line)
                    popup.rows.append(row)
            popup.add_button(
                "Enter",
                lambda: self._post_and_close(
                    popup,
                    SelectStartingProgramming(
                        network=network,
                        source="touch",
                        programs=tuple(
                            ProgramSpec(
                                r["length"],
                                r["colour"],
                                None if r["special"] else int(r["stepper"].value),
                                special=r["special"],
                            )
                            for r in popup.rows
                        ),
                    ),
                ),
            )

        return self._open(PrivatePopup(network, "Starting programming (2.3).", build))

    def open_sell(self, network: str) -> Popup:
        """The debtor chooses a program to sell to the bank (7) on a :class:`PrivatePopup` (the sale prices
        would tell the ratings): $500 per 10 RP per half-hour; a Special is rolled at the sale."""
        holdings = self._network(network).holdings

        def build(popup):
            debt = self.controller.table.state.debts[0]
            popup.body.add_widget(
                _label(
                    f"{network} owes {format_dollars(debt.amount)}. Sell a program of your "
                    f"choice; no change is given for any excess (7).",
                    19,
                )
            )
            for tile in holdings.programs:
                value, breakdown = sale_value(tile)
                if tile.kind == "special":
                    text = f"{public_tile_label(tile)}: Special, rolled at the sale (3.3)"
                elif value == 0:
                    text = f"{public_tile_label(tile)}: no Rating Points, cannot be sold"
                else:
                    text = f"{public_tile_label(tile)}: {format_dollars(value)} = {breakdown}"
                button = Factory.BigButton(
                    text=text,
                    font_size=sp(18),
                    size_hint_y=None,
                    height=dp(56),
                    disabled=tile.kind != "special" and value == 0,
                )
                button.bind(
                    on_release=lambda b, t=tile.id: self._post_and_close(
                        popup, SellProgram(network=network, tile_id=t, source="touch")
                    )
                )
                popup.body.add_widget(button)

        return self._open(PrivatePopup(network, "Bankruptcy sale (7).", build))

    # the end ------------------------------------------------------------------------------------------------
    def game_end_payload(self) -> dict | None:
        """The journaled ``game_ended`` payload of the open game (its asset count, 8), or ``None``."""
        session = self.controller.table.session
        for move in reversed(session.line):
            for record in session.moves[move]:
                if record.type == "game_ended":
                    return dict(record.payload)
        return None

    def open_assets(self) -> Popup:
        """The asset count (8): each network's cash plus its programs at the bankruptcy price, and the
        winner (or a draw, 10)."""
        payload = self.game_end_payload() or {}
        popup = TvPopup(f"Game over: {payload.get('reason', 'ended')} ({payload.get('rule', 'TV Wars 8')})")
        assets = payload.get("assets", {})
        winners = payload.get("winners", [])
        if not assets:
            popup.body.add_widget(_label("The game was ended by hand: no asset count.", 20))
        for name, asset in assets.items():
            programs = asset["total"] - asset["cash"]
            star = "  WINNER" if name in winners and not payload.get("draw") else "  DRAW" if name in winners else ""
            popup.body.add_widget(
                _label(
                    f"[b]{name} {format_dollars(asset['total'])}[/b] = cash "
                    f"{format_dollars(asset['cash'])} + {len(asset['programs'])} programs "
                    f"{format_dollars(programs)}{star}",
                    24,
                    color=(1, 0.9, 0.3, 1) if name in winners else (1, 1, 1, 1),
                )
            )
            for text, value, breakdown in asset["programs"]:
                popup.body.add_widget(_label(f"      {text}: {format_dollars(value)} ({breakdown})", 18, height=dp(30)))
        return self._open(popup)

    # the Ratings War -----------------------------------------------------------------------------------------
    def open_lineup(self, network: str) -> Popup:
        """Enter ``network``'s secret line-up (6). Behind the look-away gate (9.1: only the owner looks) the
        owner's tiles show their values, labelled as on the owner's panel (``"P3 A50"``, ``"S1 Star 30"``:
        :func:`owner_tile_label`), and so does the line-up being built. Tap programs in order from 8:00 (6.1),
        then a bonus to put on the last one (6.2); Promotion $5,000 (6.6). "Check" asks the rules whether the
        line-up is legal and says so, or why not, in the dialog: a dry run of ``decide`` that journals nothing;
        once shown, the verdict follows every change (a refusal goes when it is fixed). "Lock in" enters and
        locks it in one move (refused with the reason, the dialog kept, if it is illegal). Closing or locking
        ends the private screen."""
        from companion.games.tv_wars import war_at_table as wat

        holdings = self._network(network).holdings
        war = _war(self.controller.table.state)
        entry = war.entry(network)

        def build(popup) -> None:  # after the gate: only this network is looking (9.1)
            popup.network = network
            popup.placements = [list(p) for p in entry.placements]
            popup.promotion = entry.promotion
            popup.highlight = None
            popup.checked = False  # once Check is tapped, every change is checked again
            columns = BoxLayout(spacing=dp(8), size_hint_y=None, height=max(dp(300), popup.scroll.height))
            popup.scroll.bind(height=lambda scroll, height: setattr(columns, "height", max(dp(300), height)))
            tiles = GridLayout(
                cols=1, spacing=dp(4), size_hint_y=None, row_default_height=dp(52), row_force_default=True
            )
            tiles.bind(minimum_height=tiles.setter("height"))
            scroll = ScrollView(do_scroll_x=False, always_overscroll=False)
            scroll.add_widget(tiles)
            columns.add_widget(scroll)
            lineup = BoxLayout(orientation="vertical", spacing=dp(2), size_hint_x=0.9)
            columns.add_widget(lineup)
            popup.body.add_widget(columns)
            popup.tile_buttons = {}

            def placed_ids():
                return {p for p, _ in popup.placements} | {b for _, b in popup.placements if b}

            def entered():
                return wat.EnterLineUp(
                    network=network,
                    placements=tuple((p, b) for p, b in popup.placements),
                    promotion=popup.promotion,
                    source="touch",
                )

            def check() -> None:
                """The rules' verdict on what is entered, in the dialog (nothing is journaled)."""
                popup.checked = True
                session = self.controller.table.session
                try:
                    session.rules.decide(session.state, entered())
                except CommandError as error:
                    popup.note, popup.problem = "", f"Not legal yet: {error}"
                    return
                filled = sum(holdings.program(p).length for p, _ in popup.placements)
                popup.problem = ""
                popup.note = f"Legal: {_slot_span(0, filled)} filled{', with Promotion' if popup.promotion else ''}."
                popup.note += " Lock in when ready (TV Wars 6)."

            def redraw():
                lineup.clear_widgets()
                at = 0
                for program_id, bonus_id in popup.placements:
                    tile = holdings.program(program_id)
                    bonus = f" + {owner_tile_label(holdings.bonus(bonus_id))}" if bonus_id else ""
                    lineup.add_widget(
                        _label(f"{_slot_span(at, tile.length)}  {owner_tile_label(tile)}{bonus}", 18, height=dp(30))
                    )
                    at += tile.length
                lineup.add_widget(_label(f"Promotion: {'yes, $5,000 (6.6)' if popup.promotion else 'no'}", 18))
                lineup.add_widget(Label())
                used = placed_ids()
                for tile_id, button in popup.tile_buttons.items():
                    button.disabled = tile_id in used
                if popup.checked:
                    check()
                self._lineup_panel(popup)

            def tap(tile_id, is_bonus):
                popup.highlight = tile_id
                if is_bonus:
                    if popup.placements and popup.placements[-1][1] is None:
                        popup.placements[-1][1] = tile_id
                else:
                    popup.placements.append([tile_id, None])
                redraw()

            for tile in holdings.programs:
                if tile.kind == "preemption":
                    continue
                button = Factory.BigButton(text=_owner_button_text(tile), font_size=sp(18))
                button.bind(on_release=lambda b, t=tile.id: tap(t, False))
                popup.tile_buttons[tile.id] = button
                tiles.add_widget(button)
            for tile in holdings.bonuses:
                button = Factory.BigButton(text=_owner_button_text(tile), font_size=sp(18))
                button.bind(on_release=lambda b, t=tile.id: tap(t, True))
                popup.tile_buttons[tile.id] = button
                tiles.add_widget(button)

            def back():
                if popup.placements:
                    popup.placements.pop()
                redraw()

            def toggle_promotion():
                popup.promotion = not popup.promotion
                redraw()

            popup.tap, popup.back, popup.redraw, popup.check = tap, back, redraw, check
            popup.add_button("Remove last", back, primary=False)
            popup.add_button("Promotion", toggle_promotion, primary=False)
            popup.lock = lambda: self._post_and_close(
                popup,
                wat.LockLineUp(  # what is on the screen (6)
                    network=network,
                    placements=tuple((p, b) for p, b in popup.placements),
                    promotion=popup.promotion,
                    source="touch",
                ),
            )
            popup.add_button("Check", check)
            popup.add_button("Lock in", popup.lock)
            popup.bind(on_dismiss=lambda *_: self._end_lineup_panel(network))
            redraw()

        popup = PrivatePopup(network, "Prime Time Line-Up (TV Wars 6)", build)
        return self._open(popup)

    def _lineup_panel(self, popup) -> None:
        """Show the line-up being entered on its network's own panel too: the highlighted tile (labelled as on
        the form, :func:`owner_tile_label`) and whether the entered line-up is legal (9.1)."""
        from companion.games.tv_wars import war_at_table as wat

        state = self.controller.table.state
        war = _war(state)
        if war is None:
            return
        holdings = state.network(popup.network).holdings
        lines = []
        if popup.highlight:
            try:
                tile = holdings.program(popup.highlight)
                lines.append(owner_tile_label(tile) + (f" {tile.name}" if tile.name else ""))
            except Exception:
                lines.append(owner_tile_label(holdings.bonus(popup.highlight)))
        try:
            wat.build_lineup(war, popup.network, holdings, [tuple(p) for p in popup.placements], popup.promotion)
            lines.append("Line-up legal")
        except Exception as error:
            lines.append(f"Not yet: {getattr(error, 'rule', '') or ''} {getattr(error, 'reason', error)}")
        self.controller.show_private(popup.network, f"{popup.network} LINE-UP", lines)

    def _refresh_lineup_panel(self) -> None:
        dialog = self.dialog
        if dialog is not None and getattr(dialog, "placements", None) is not None and dialog.get_parent_window():
            self._lineup_panel(dialog)

    def _end_lineup_panel(self, network: str) -> None:
        self.controller.hide_private(network)

    def open_preempt(self, network: str) -> Popup:
        """The Preemption tile's holder places it over any one hour, or keeps it off the card (9.91), after
        the reveal and before any dice."""
        from companion.games.tv_wars import war_at_table as wat

        popup = TvPopup(f"{network}: place the Preemption tile over one hour, or not (TV Wars 9.91)")
        grid = GridLayout(cols=3, spacing=dp(4), size_hint_y=None, row_default_height=dp(60), row_force_default=True)
        grid.bind(minimum_height=grid.setter("height"))
        for start in range(5):
            button = Factory.BigButton(text=_slot_span(start, 2), font_size=sp(22))
            button.bind(
                on_release=lambda b, s=start: self._post_and_close(
                    popup, wat.PlacePreemption(network=network, start=s, source="touch")
                )
            )
            grid.add_widget(button)
        keep = Factory.BigButton(text="Do not play it", font_size=sp(20))
        keep.bind(
            on_release=lambda b: self._post_and_close(
                popup, wat.PlacePreemption(network=network, start=None, source="touch")
            )
        )
        grid.add_widget(keep)
        popup.body.add_widget(grid)
        return self._open(popup)

    def open_grid(self) -> Popup:
        """The resolution grid (full screen, scrolling): networks across, half-hours 8:00-11:00 down like the
        Prime Time Line-Up cards side by side, each score with its parts, ties and cancellations with their
        rules; before any dice, each program's chance of surviving."""
        from companion.games.tv_wars import war_at_table as wat

        war = _war(self.controller.table.state)
        view = wat.war_view(war)
        popup = TvPopup(view.status, full=True)
        fill_grid(popup.body, view)
        return self._open(popup)


def _slot_span(start: int, length: int) -> str:
    from companion.games.tv_wars.ratings_war import span_label

    return span_label(start, length)


class GridCellLabel(WordBreakLabel):
    """One cell of the resolution grid, its background by the cell's state (a long term breaks at its hyphen:
    "[Counter-" / "Programming]")."""

    background = ListProperty([0.18, 0.22, 0.28, 1])


def cell_text(cell, compact: bool = False) -> str:
    """The grid cell's markup: title (program's first half-hour, bold; italic after it), total, breakdown and fate
    (with rule), a line each; ``compact``: the title and the total on one line (a cell as wide as the screen)."""
    if cell.state == "empty":
        return "-"
    parts = [f"[b]{cell.program}[/b]" if cell.starts else f"[i]{cell.program}[/i]"]
    if cell.state == "preempted":
        parts.append(f"{cell.reason} ({cell.rule})")
    elif cell.state == "gone":
        parts.append(f"{cell.reason}")
    elif cell.total is not None:
        parts.append(f"[size={int(sp(24))}][b]{cell.total}[/b][/size]")
        parts.append(cell.breakdown)
    elif cell.base is not None:
        parts.append(f"base {cell.base}")
    if cell.state == "wins":
        parts.append("[b]Wins time slot[/b]")
    if cell.state == "cancelled":
        parts.append(f"[b]Cancelled[/b] ({cell.rule})")
    if cell.tie:
        parts.append(cell.tie)
    if compact and cell.total is not None:
        parts[:2] = [f"{parts[0]}   {parts[1]}"]
    return "\n".join(parts)


def fill_grid(body: BoxLayout, view) -> None:
    """Add the war's grid and its notes (a :class:`~companion.games.tv_wars.war_at_table.WarView`) to
    ``body``: a header row of networks and six rows of half-hours (portrait: a block per half-hour, its networks
    one under the other), then Preemption, ties, cancellations, dice and survival odds."""
    promotion = set(view.promotion)
    grid = (_grid_by_half_hour if PORTRAIT else _grid_side_by_side)(view)
    body.add_widget(grid)
    notes = []
    if promotion:
        notes.append(f"Promotion (+10 on every program, 6.6): {', '.join(sorted(promotion))}")
    if view.preemption:
        notes.append(view.preemption)
    for row in view.rows:
        notes += [f"{row.label}: {text}" for text in (*row.ties, *row.notes)]
    notes += list(view.cancellations)
    if view.dice:
        notes.append("Dice: " + "; ".join(view.dice))
    if view.odds:
        notes.append("[b]Chance of surviving (before any dice; exact):[/b]")
        notes += [f"{network} {title} {span}: {percent:.0%}" for network, title, span, _, percent in view.odds]
    if view.pending:
        notes.append(f"Waiting for: {view.pending}")
    for text in notes:
        body.add_widget(_label(text, 18))


def _grid_cell(cell, compact: bool = False, **size) -> GridCellLabel:
    """One program's cell of the grid (``compact``: the portrait line's wording, left-aligned); ``size``: the
    caller's sizing (a landscape row fixes its height, a portrait line fills its own)."""
    return GridCellLabel(
        text=cell_text(cell, compact),
        markup=True,
        font_size=sp(18),
        halign="center" if not compact else "left",
        valign="middle",
        background=CELL_COLOURS.get(cell.state, CELL_COLOURS[""]),
        **size,
    )


def _grid_side_by_side(view) -> GridLayout:
    """Landscape: networks across, half-hours down, like the Prime Time Line-Up cards side by side; a row is as
    tall as its tallest cell."""
    columns = len(view.networks) + 1
    hours = {"size_hint_x": 0.45}
    grid = GridLayout(cols=columns, spacing=dp(2), size_hint_y=None)
    grid.bind(minimum_height=grid.setter("height"))
    for text in ["", *view.networks]:
        grid.add_widget(
            Label(
                text=f"[b]{text}[/b]",
                markup=True,
                font_size=sp(22),
                size_hint_y=None,
                height=dp(34),
                **(hours if text == "" else {"size_hint_x": 1}),
            )
        )
    for row in view.rows:
        grid.add_widget(
            Label(text=row.label.replace("-", "-\n"), font_size=sp(18), size_hint_y=None, height=dp(60), **hours)
        )
        labels: list[Label] = []

        def fit_row(*_, labels=labels):
            # the text wraps to the cell's width; the whole row takes the tallest cell's height (nothing clipped)
            height = max([dp(120)] + [label.texture_size[1] + dp(10) for label in labels])
            for label in labels:
                label.height = height

        for cell in row.cells:
            label = _grid_cell(cell, size_hint_y=None, height=dp(120))
            label.bind(width=lambda w, width: setattr(w, "text_size", (width - dp(6), None)), texture_size=fit_row)
            labels.append(label)
            grid.add_widget(label)
    return grid


def _grid_by_half_hour(view) -> BoxLayout:
    """Portrait (480 px across: four cells side by side would be 92 px, narrower than "Programming]"): a block
    per half-hour, its networks one under the other, each cell the width of the screen; the half-hour's programs
    are still compared in one place."""
    grid = BoxLayout(orientation="vertical", spacing=dp(2), size_hint_y=None)
    grid.bind(minimum_height=grid.setter("height"))
    for row in view.rows:
        header = Label(
            text=f"[b]{row.label}[/b]", markup=True, font_size=sp(20), size_hint_y=None, height=dp(36), halign="left"
        )
        header.bind(size=lambda w, size: setattr(w, "text_size", (size[0] - dp(8), None)))
        grid.add_widget(header)
        for network, cell in zip(view.networks, row.cells):
            line = BoxLayout(size_hint_y=None, height=dp(60), spacing=dp(2))
            line.add_widget(
                Label(text=f"[b]{network}[/b]", markup=True, font_size=sp(20), size_hint_x=None, width=dp(64))
            )
            label = _grid_cell(cell, compact=True)
            label.bind(
                width=lambda w, width: setattr(w, "text_size", (width - dp(12), None)),
                texture_size=lambda w, size, line=line: setattr(line, "height", max(dp(60), size[1] + dp(10))),
            )
            line.add_widget(label)
            grid.add_widget(line)
    return grid


__all__ = [
    "TvWarsBoard",
    "NetworkCard",
    "PrivatePopup",
    "Stepper",
    "plan_actions",
    "peek_lines",
    "programming_markup",
    "type_counts",
    "bonus_text",
    "tile_code",
    "public_tile_label",
    "fill_grid",
    "cell_text",
    "Action",
]
