"""The Death Show TV board: the island (3×3 Location cards), every Contestant's Vitality, the turn's
actions, and the combat screen (fighters, bonus entry with + and −, odds before the dice, the result).

Like every adapter it never changes game state: taps become commands posted to the table
(``controller.post``); :meth:`DeathShowBoard.update` redraws from the state and the public view after every
accepted or refused command. Layout and colours are in ``board.kv`` beside this module.

Which buttons are enabled, which Locations are marked and why a tap is refused come from the game's
``legal_commands(state, seat)`` (each entry enabled, or with its reason and rule); a dialog asks the game's
``check(state, command)`` before it closes. The board never decides a rule itself.

Taps on the island mean what the Action Phase allows (Phases of a Turn 2): an empty Location → Move, an
occupied one → Hunt (after a confirmation: it plays a Trail), your own → Fight. While a death is being
settled, a tap on an empty Location removes it (The Island Shrinks).
"""

from __future__ import annotations

from typing import Any

from kivy.factory import Factory
from kivy.properties import BooleanProperty, DictProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.popup import Popup
from kivy.utils import get_color_from_hex

from companion.game import LegalCommand
from companion.games.death_show_tv import (
    HAND_LIMIT,
    AdjustHand,
    DeclareFighter,
    Heal,
    NewWeaponLevel,
    PlayEvent,
    Wound,
)
from companion.games.death_show_tv.commands import declaration
from ui.games import GameBoard

HEART, EMPTY_HEART = "\u2665", "\u2661"


def refusal_text(entry: LegalCommand) -> str:
    """What the message bar says for a disabled ``entry``, as the table words a refusal:
    ``"Refused: <reason> (<rule>)"``."""
    return f"Refused: {entry.reason}" + (f" ({entry.rule})" if entry.rule else "")


def colour_of(name: str) -> list[float]:
    """A seat colour (``#rrggbb`` or a name Kivy knows) as RGBA; white when unknown."""
    if name.startswith("#"):
        return get_color_from_hex(name)
    try:
        from kivy.utils import colormap

        return list(colormap[name.lower()])
    except (KeyError, ImportError):
        return [1, 1, 1, 1]


def hearts(vitality: int, top: int, compact: bool = False) -> str:
    """``"♥♥♥♡"`` for 3 of 4; long tracks (over 6) or ``compact`` rows as ``"♥ 3"``."""
    if top > 6 or compact:
        return f"{HEART} {vitality}"
    return HEART * vitality + EMPTY_HEART * (top - vitality)


def odds_text(before, now=None, narrow: bool = False) -> str:
    """A fighter's odds for the combat screen: ``"win 75%\nlose 17%"`` before the dice; once some dice
    are in, the same figures with the odds given those dice after an arrow (``"win 75% \u2192 100%"``),
    unless the columns are ``narrow`` (then the odds before the dice only)."""
    win, lose = f"win {float(before.win):.0%}", f"lose {float(before.lose):.0%}"
    if now is None or narrow:
        return f"{win}\n{lose}"
    return f"{win} \u2192 {float(now.win):.0%}\n{lose} \u2192 {float(now.lose):.0%}"


class DstIslandCell(ButtonBehavior, BoxLayout):
    """One Location card on the map: its ``location`` name, who stands there (``occupants`` as markup),
    whether it is ``removed``, has an optional ``rule`` note, or is ``marked`` (where a tap does something)."""

    location = StringProperty("")
    occupants = StringProperty("")
    removed = BooleanProperty(False)
    rule = StringProperty("")
    marked = BooleanProperty(False)


class DstContestantRow(BoxLayout):
    """One Contestant's line: name in their colour, Vitality as hearts, cards in hand, Location; ``turn``
    draws the turn marker; ``dead`` greys the line."""

    name = StringProperty("")
    colour = ListProperty([1, 1, 1, 1])
    hearts = StringProperty("")
    vitality = NumericProperty(0)
    cards = NumericProperty(0)
    where = StringProperty("")
    turn = BooleanProperty(False)
    dead = BooleanProperty(False)
    over_limit = BooleanProperty(False)
    compact = BooleanProperty(False)


class DstFighterColumn(BoxLayout):
    """One fighter on the combat screen: ``name``, what they show (``weapon``, ``bonus`` text), ``dice``,
    the ``odds`` before the roll, the ``rolled`` dice and ``total`` after, and whether they are ``active``
    (declaring or rolling now)."""

    name = StringProperty("")
    colour = ListProperty([1, 1, 1, 1])
    weapon = StringProperty("")
    bonus = StringProperty("")
    odds = StringProperty("")
    rolled = StringProperty("")
    #: the fighter's Vitality during the combat (``"♥ 2"``; "" for an Event), beside the name
    vitality = StringProperty("")
    active = BooleanProperty(False)
    outcome = StringProperty("")


class DstStepper(BoxLayout):
    """A labelled number with − and + buttons (``value`` between ``low`` and ``high``)."""

    label = StringProperty("")
    value = NumericProperty(0)
    low = NumericProperty(0)
    high = NumericProperty(10)
    signed = BooleanProperty(False)

    def step(self, delta: int) -> None:
        """Move the value by ``delta`` within its bounds."""
        self.value = max(self.low, min(self.high, self.value + delta))


class DstDeclarePopup(Popup):
    """A fighter shows their cards (How Combat Is Resolved 1-2): Weapon bonus and level (0 = Unarmed),
    Equipment / Unexpected Twist bonus and how many such cards, one or two dice."""

    fighter = StringProperty("")
    max_level = NumericProperty(1)
    two_dice = BooleanProperty(False)
    summary = StringProperty("")
    error = StringProperty("")
    board = ObjectProperty(None, allownone=True)

    def on_open(self) -> None:
        for stepper in (self.ids.weapon, self.ids.level, self.ids.extra, self.ids.extra_cards):
            stepper.bind(value=lambda *_: self.describe())
        self.describe()

    def describe(self) -> None:
        """The line at the bottom: what will be declared."""
        weapon, level = int(self.ids.weapon.value), int(self.ids.level.value)
        extra, cards = int(self.ids.extra.value), int(self.ids.extra_cards.value)
        armed = f"Weapon +{weapon} (level {level})" if weapon or level > 1 else "Unarmed"
        self.error = ""
        self.summary = f"{armed}, cards {extra:+d} from {cards} card{'s' * (cards != 1)}" + (
            ", two dice" if self.two_dice else ""
        )

    def command(self) -> DeclareFighter:
        """The :class:`DeclareFighter` this dialog describes (:func:`declaration`)."""
        return declaration(
            self.fighter,
            int(self.ids.weapon.value),
            int(self.ids.level.value),
            int(self.ids.extra.value),
            int(self.ids.extra_cards.value),
            self.two_dice,
        )

    def submit(self) -> None:
        """Post the declaration and close; if the rules would refuse it (more cards than held, a Weapon
        level not active yet), stay open with the reason, keeping everything entered."""
        command = self.command()
        problem = self.board.refusal(command)
        if problem:
            self.error = problem
            return
        self.board.post(command)
        self.dismiss(animation=False)


class DstEventPopup(Popup):
    """Play the turn's one Event (Phases of a Turn 3): which card, whether it causes Combat and its fixed
    value (Fighting an Event), and whom it attacks (toggle buttons, all on one Location for several)."""

    player = StringProperty("")
    card = StringProperty("Killer Squirrels")
    combat = BooleanProperty(True)
    board = ObjectProperty(None, allownone=True)
    targets = ListProperty([])
    error = StringProperty("")

    def fill(self, names: list[str]) -> None:
        """Offer ``names`` as targets."""
        box = self.ids.target_box
        box.clear_widgets()
        for name in names:
            button = Factory.DstToggle(text=name)
            button.bind(state=lambda b, s: self._toggle(b.text, s == "down"))
            box.add_widget(button)

    def _toggle(self, name: str, on: bool) -> None:
        self.targets = [t for t in self.targets if t != name] + ([name] if on else [])
        self.error = ""

    def submit(self) -> None:
        """Post the :class:`PlayEvent` and close; if the rules would refuse it (targets on different
        Locations), stay open with the reason."""
        value = int(self.ids.value.value) if self.combat else None
        command = PlayEvent(
            player=self.player, card=self.card, combat_value=value, targets=tuple(self.targets) if self.combat else ()
        )
        problem = self.board.refusal(command)
        if problem:
            self.error = problem
            return
        self.board.post(command)
        self.dismiss(animation=False)


class DstTablePopup(Popup):
    """Corrections from cards the companion does not follow: a Contestant's cards ± (AdjustHand), Vitality
    lost (Wound, caused by the player whose turn it is) or regained (Heal), and New Weapon Level."""

    board = ObjectProperty(None, allownone=True)
    chosen = StringProperty("")
    turn = StringProperty("")
    #: For each correction ("card+", "card-", "wound", "heal", "level"): whether the game's ``check`` would
    #: accept it for :attr:`chosen` now (its button is disabled otherwise); refreshed after every move.
    allowed = DictProperty({})
    #: The kv ids of the correction buttons.
    BUTTONS = {"card+": "card_plus", "card-": "card_minus", "wound": "wound", "heal": "heal", "level": "level"}

    def fill(self, names: list[str], chosen: str, turn: str) -> None:
        """Offer the living ``names``; ``chosen`` is preselected."""
        self.turn = turn
        self.chosen = chosen
        self.refresh()
        box = self.ids.who
        box.clear_widgets()
        for name in names:
            button = Factory.DstToggle(
                text=name, group="dst_who", state="down" if name == chosen else "normal", allow_no_selection=False
            )
            button.bind(on_release=lambda b: setattr(self, "chosen", b.text))
            box.add_widget(button)

    def commands(self) -> dict:
        """The correction each button posts for :attr:`chosen`."""
        name = self.chosen
        return {
            "card+": AdjustHand(player=name, delta=1, reason="drew a card (card effect)"),
            "card-": AdjustHand(player=name, delta=-1, reason="played a card"),
            "wound": Wound(player=name, by=self.turn or name, reason="a card's effect"),
            "heal": Heal(player=name, reason="a card's effect"),
            "level": NewWeaponLevel(player=self.turn or name),
        }

    def on_chosen(self, *_) -> None:
        self.refresh()

    def refresh(self) -> None:
        """Enable the buttons whose correction the game would accept now."""
        if self.board is None or not self.chosen:
            return
        self.allowed = {what: not self.board.refusal(command) for what, command in self.commands().items()}
        for what, allowed in self.allowed.items():
            self.ids[self.BUTTONS[what]].disabled = not allowed

    def do(self, what: str) -> None:
        """Post one correction for :attr:`chosen`."""
        self.board.post(self.commands()[what])


class DeathShowBoard(GameBoard):
    """The board (about 800×290 px): the island on the left, the Contestants and the turn's buttons on the
    right; during a Combat (and after it, until "Back to the island") the combat screen instead."""

    status = StringProperty("")
    weapon_level = NumericProperty(1)
    mode = StringProperty("island")  # "island" or "combat"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._report_open = False  # the last Combat's result stays up until "Back to the island"
        self._table_popup = None  # the open corrections dialog, refreshed after every move
        self._state = None
        self.island = Factory.DstIsland()
        self.combat_view = Factory.DstCombat()
        self.island.board = self
        self.combat_view.board = self
        self.add_widget(self.island)

    # -- posting -------------------------------------------------------------------------------------------
    def post(self, command) -> None:
        """Queue ``command`` for the table."""
        self.controller.post(command)

    def refusal(self, command) -> str:
        """Why the rules would refuse ``command`` now ("" if they would accept it), from the game's
        ``check(state, command)``, so a dialog can stay open instead of losing what was entered. The table
        still decides for real when the command is posted."""
        session = self.controller.table.session
        if session is None:
            return ""
        entry = session.rules.check(session.state, command)
        return "" if entry.enabled else refusal_text(entry)

    def legal(self, state, seat: str | None) -> dict[str, list[LegalCommand]]:
        """The game's ``legal_commands(state, seat)`` by kind (``{"Move": [...], "DrawCard": [...]}``); empty
        for no seat or an unknown one."""
        session = self.controller.table.session if self.controller else None
        if session is None or seat is None or seat not in state.names:
            return {}
        found: dict[str, list[LegalCommand]] = {}
        for entry in session.rules.legal_commands(state, seat):
            found.setdefault(entry.kind, []).append(entry)
        return found

    @staticmethod
    def entry_for(entries: dict[str, list[LegalCommand]], kind: str, location: str | None = None):
        """The entry of ``kind`` (for ``location``, when given) in ``entries``, or ``None``."""
        for entry in entries.get(kind, ()):
            if location is None or getattr(entry.command, "location", None) == location:
                return entry
        return None

    def offer(self, entry: LegalCommand | None) -> None:
        """Post ``entry``'s command if it is enabled; else say why not on the message bar."""
        if entry is None:
            return
        if entry.enabled and entry.command is not None:
            self.post(entry.command)
        elif not entry.enabled:
            self.controller.say(refusal_text(entry), refused=True)

    # -- updating ------------------------------------------------------------------------------------------
    def update(self, state, view) -> None:
        """Redraw from ``state`` (a :class:`DeathShowState`) and ``view`` (its TableView)."""
        self._state = state
        self.weapon_level = state.weapon_level
        if state.combat is not None:
            self._report_open = True
        elif state.last_combat is None:
            self._report_open = False
        self._set_mode("combat" if self._report_open else "island")
        self._update_island(state, view)
        if self.mode == "combat":
            self._update_combat(state, view)
        if self._table_popup is not None:
            self._table_popup.refresh()

    def _set_mode(self, mode: str) -> None:
        if mode == self.mode and self.children:
            return
        self.mode = mode
        self.clear_widgets()
        self.add_widget(self.combat_view if mode == "combat" else self.island)

    def back_to_island(self) -> None:
        """Close the combat result and show the island again."""
        self._report_open = False
        self._set_mode("island")

    def show_last_fight(self) -> None:
        """Open the combat screen on the last Combat's result."""
        self._report_open = True
        self._set_mode("combat")
        self._update_combat(self._state, None)

    def _removing(self, state) -> str | None:
        death = state.deaths[0] if state.deaths else None
        return death.remover if death is not None and death.remover is not None else None

    def _update_island(self, state, view) -> None:
        island = self.island
        remover = self._removing(state)
        me = state.contestant(state.turn) if state.turn else None
        legal = self.legal(state, remover or state.turn)
        cells = island.ids.map.children[::-1]
        if len(cells) != len(state.locations):
            island.ids.map.clear_widgets()
            for location in state.locations:
                cell = DstIslandCell(location=location.name)
                cell.bind(on_release=lambda c: self.tap_location(c.location))
                island.ids.map.add_widget(cell)
            cells = island.ids.map.children[::-1]
        for cell, location in zip(cells, state.locations):
            here = [c for c in state.contestants if c.alive and c.location == location.name]
            cell.occupants = "\n".join(
                f"[color={''.join(f'{int(v * 255):02x}' for v in colour_of(c.colour)[:3])}]{c.name}[/color]"
                for c in here
            )
            cell.removed = location.removed
            cell.rule = location.rule
            if remover:
                cell.marked = self._enabled(legal, "RemoveLocation", location.name)
            elif me is not None and location.name == me.location:
                cell.marked = self._enabled(legal, "Fight")
            else:
                cell.marked = self._enabled(legal, "Move", location.name) or self._enabled(legal, "Hunt", location.name)
        rows = island.ids.rows
        if len(rows.children) != len(state.contestants):
            rows.clear_widgets()
            for contestant in state.contestants:
                rows.add_widget(DstContestantRow(name=contestant.name))
        compact = len(state.contestants) > 4
        rows.cols = 2 if compact else 1
        top = state.settings.vitality
        for row, c in zip(rows.children[::-1], state.contestants):
            row.colour = colour_of(c.colour)
            row.vitality, row.cards, row.dead = c.vitality, c.cards, not c.alive
            row.hearts = hearts(c.vitality, top, compact) if c.alive else "dead"
            row.compact = compact
            row.where = c.location or ("" if not c.alive else "off the island")
            row.turn = state.turn == c.name and not state.finished
            row.over_limit = c.alive and c.cards > HAND_LIMIT
        island.deck_empty = not state.show_deck and state.phase != "setup" and not state.finished
        if island.deck_empty and state.discards:  # Running Out of Show Cards
            island.deck = f"Deck empty: reshuffle {state.discards} discards (Running Out of Show Cards)"
        elif island.deck_empty:
            island.deck = "Deck and discards empty: no Show card to draw"
        else:
            on_air = f" · ON AIR {len(state.on_air)}" if state.on_air else ""
            island.deck = f"Show deck {state.show_deck} · discards {state.discards}{on_air}"
        self._update_actions(state, view, remover, legal)

    def _enabled(self, legal, kind: str, location: str | None = None) -> bool:
        entry = self.entry_for(legal, kind, location)
        return entry is not None and entry.enabled

    def _update_actions(self, state, view, remover: str | None, legal) -> None:
        box = self.island.ids.actions
        box.clear_widgets()
        turn = state.turn
        add = lambda text, callback, **kw: box.add_widget(  # noqa: E731
            Factory.BigButton(text=text, on_release=lambda *_: callback(), **kw)
        )

        def offer(entry, text=None, **kw):  # a button for a legal_commands entry: disabled when it may not be made
            if entry is not None:
                add(text or entry.label, lambda: self.offer(entry), disabled=not entry.enabled, **kw)

        if state.finished:
            winner = state.winner
            self.island.hint = f"{winner} survives the show!" if winner else "Nobody survived: no winner"
        elif state.phase == "setup":
            self.island.hint = "Everyone rolls for the first player"
        elif remover:
            self.island.hint = f"{remover}: tap an empty Location to remove it"
        elif state.combat is not None:
            self.island.hint = "Combat under way"
            add("Combat", self.show_last_fight)
        elif state.phase == "draw":
            self.island.hint = f"{turn}: draw a Show card"
            offer(self.entry_for(legal, "DrawCard"))
        elif state.phase == "action":
            self.island.hint = f"{turn}: tap the map to Move, Hunt or Fight"
            offer(self.entry_for(legal, "Fight"))
        elif state.phase == "event":
            event = self.entry_for(legal, "PlayEvent")
            if event is not None and event.enabled:
                self.island.hint = f"{turn}: 1 Event, then end the turn"
                add(event.label, self.open_event)
            elif state.events_played >= 1:  # Phases of a Turn 3: at most one Event
                self.island.hint = f"{turn} played their Event: end the turn"
                add("Event played", self.open_event, disabled=True)
            else:
                self.island.hint = f"{turn} holds no cards for an Event: end the turn"
                add("No cards", self.open_event, disabled=True)
            offer(self.entry_for(legal, "EndTurn"))
        elif state.phase == "discard":
            self.island.hint = f"Discard down to {HAND_LIMIT}"
            discards = [self.entry_for(self.legal(state, c.name), "Discard") for c in state.alive]
            for entry in [e for e in discards if e is not None and e.enabled][:2]:
                offer(entry)
        reshuffle = self.entry_for(legal, "ReshuffleDiscards")
        if reshuffle is not None and reshuffle.enabled:  # the deck has run out (Running Out of Show Cards)
            offer(reshuffle, "Reshuffle", size_hint_x=0.9)
        if not state.finished and state.phase != "setup":
            add("Card effects", self.open_table_popup, size_hint_x=0.9)
        if state.last_combat is not None and state.combat is None and not state.finished:
            add("Last fight", self.show_last_fight, size_hint_x=0.8)

    def _update_combat(self, state, view) -> None:
        panel = self.combat_view
        columns = panel.ids.fighters
        combat = state.combat
        columns.clear_widgets()
        buttons = panel.ids.buttons
        buttons.clear_widgets()
        if combat is not None:
            rules = self.controller.table.session.rules
            odds = dict(rules.combat_odds(state) or ())  # as before the dice, kept while rolling
            now = dict(rules.combat_odds_now(state) or ())  # given the dice already in
            narrow = len(combat.fighters) > 4
            declaring = combat.next_to_declare
            rolling = combat.next_to_roll
            where = f" on {combat.location}" if combat.location else ""
            panel.title = (
                f"{combat.card} attacks{where}" if combat.card else f"Combat{where}"
            ) + f"   ·   Weapons up to level {state.weapon_level}"
            for fighter in combat.fighters:
                column = DstFighterColumn(name=fighter.name)
                column.colour = (
                    [1, 0.6, 0.2, 1] if fighter.is_event else colour_of(state.contestant(fighter.name).colour)
                )
                if not fighter.is_event:
                    column.vitality = hearts(state.contestant(fighter.name).vitality, 0, compact=True)
                if fighter.is_event:
                    column.weapon = f"Event, rolled by {fighter.roller}"
                    column.bonus = f"Combat {fighter.bonus:+d}"
                elif fighter.declared:
                    column.weapon = "Unarmed" if fighter.unarmed else f"{fighter.weapon} +{fighter.weapon_bonus}"
                    extras = sum(p.value for p in fighter.bonuses)
                    column.bonus = (
                        f"total {fighter.bonus:+d}"
                        + (f" (cards {extras:+d})" if fighter.bonuses else "")
                        + (" · 2 dice" if fighter.dice == 2 else "")
                    )
                else:
                    column.weapon = "choosing…" if fighter is declaring else "waits"
                    column.bonus = f"bonus {fighter.draft:+d}" if fighter.draft else ""
                if fighter.name in odds:
                    column.odds = odds_text(odds[fighter.name], now.get(fighter.name), narrow)
                if fighter.values:
                    column.rolled = "+".join(map(str, fighter.values))
                column.active = fighter is declaring or fighter is rolling
                columns.add_widget(column)
            declarations = self.legal(state, declaring.name).get("DeclareFighter", []) if declaring else []
            if declaring is not None and declarations:
                panel.prompt = f"{declaring.name} shows a Weapon and bonus cards"
                show = next((e for e in declarations if e.command is None), declarations[0])
                add = Factory.BigButton(text=f"{declaring.name}: show cards…", disabled=not show.enabled)
                add.bind(on_release=lambda *_: self.open_declare(declaring.name))
                buttons.add_widget(add)
                for entry in (e for e in declarations if e.command is not None):  # "Unarmed, no cards"
                    quick = Factory.BigButton(text=entry.label, disabled=not entry.enabled)
                    quick.bind(on_release=lambda *_, e=entry: self.offer(e))
                    buttons.add_widget(quick)
            elif rolling is not None:
                whose = "" if rolling.roller == rolling.name else f" for the {rolling.name}"
                panel.prompt = f"{rolling.roller} rolls{whose}: Roll or Enter dice above"
            return
        report = state.last_combat
        if report is None:
            self._set_mode("island")
            return
        panel.title = "Combat result"
        for index, name in enumerate(report.names):
            column = DstFighterColumn(name=name)
            contestant = name in state.names
            column.colour = colour_of(state.contestant(name).colour) if contestant else [1, 0.6, 0.2, 1]
            column.rolled = str(report.totals[index])
            column.weapon = report.terms(index).replace(" + ", "\n+ ").replace(" - ", "\n- ")
            outcome = "WINS" if name in report.winners else "LOSES" if name in report.losers else "neither"
            if report.fumbles[index]:
                outcome = "FUMBLE: LOSES" if name in report.losers else "FUMBLE"
            if contestant and name in report.losers:
                now = state.contestant(name).vitality
                outcome += f"  {HEART} {now}" if now else "  DEAD"
            column.outcome = outcome
            columns.add_widget(column)
        panel.prompt = report.summary + (self._after_note(state))
        back = Factory.BigButton(text="Back to the island")
        back.bind(on_release=lambda *_: self.back_to_island())
        buttons.add_widget(back)

    def _after_note(self, state) -> str:
        remover = self._removing(state)
        if state.finished:
            return f" · {state.end_reason}"
        if state.deaths and remover is None:
            return f" · killers roll off for {state.deaths[0].dead}'s cards"
        if remover:
            return f" · {state.deaths[0].dead} died: {remover} removes a Location"
        return ""

    # -- taps ------------------------------------------------------------------------------------------------
    def tap_location(self, location: str) -> None:
        """A tap on the island: remove it (after a death), or Move / Hunt / Fight in the Action Phase (Phases of a
        Turn 2): the player's own Location fights, an occupied one hunts (playing a Trail), an empty one moves, each
        at once; the message bar says what was done and Undo takes it back."""
        state = self._state
        if state is None:
            return
        remover = self._removing(state)
        if remover:
            self.offer(self.entry_for(self.legal(state, remover), "RemoveLocation", location))
            return
        turn = state.turn
        if state.phase != "action" or state.combat is not None or turn is None:
            self.controller.say(f"{location}: the map acts in the Action Phase ({state.phase} now)", refused=True)
            return
        legal = self.legal(state, turn)
        here = state.occupants(location)
        if location == state.contestant(turn).location:
            self.offer(self.entry_for(legal, "Fight"))
        elif here:  # an occupied Location: a Hunt at once, like a Move (no confirmation; Undo takes it back)
            self.offer(self.entry_for(legal, "Hunt", location))
        else:
            self.offer(self.entry_for(legal, "Move", location))

    def open_declare(self, fighter: str) -> None:
        """The bonus-entry dialog for ``fighter``."""
        popup = DstDeclarePopup(fighter=fighter, max_level=self._state.weapon_level, board=self)
        draft = self._state.combat.fighter(fighter).draft if self._state.combat else 0
        popup.ids.extra.value = draft
        self.controller.open_popup(popup)

    def open_event(self) -> None:
        """The Event dialog for the player whose turn it is."""
        popup = DstEventPopup(player=self._state.turn, board=self)
        popup.fill([c.name for c in self._state.alive])
        self.controller.open_popup(popup)

    def open_table_popup(self) -> None:
        """The corrections dialog (cards, Vitality, weapon level)."""
        popup = DstTablePopup(board=self)
        popup.fill([c.name for c in self._state.alive], self._state.turn or "", self._state.turn or "")
        popup.bind(on_dismiss=lambda *_: setattr(self, "_table_popup", None))
        self._table_popup = popup
        self.controller.open_popup(popup)
