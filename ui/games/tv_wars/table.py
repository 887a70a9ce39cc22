"""TV Wars at the table, besides its board: the Pay/collect dialog (money between a network and the bank or another
network), the Sponsor dialog (9.4, the half-hours counted by hand) and tile learning (a tile reader's unknown tag is
named once, checked by the tile rules 3 and 5). Found by the generic controller through :mod:`ui.extras` (the module
``table`` beside the board); its layouts are ``table.kv`` beside it. Like every adapter it only posts commands.
"""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.popup import Popup

from companion.commands import BANK, TransferMoney
from companion.games.tv_wars.bank import format_dollars
from companion.games.tv_wars.rules import button_phase
from ui.extras import TableExtras

QUICK_REASONS = ("Bulletin card", "Auction won", "Promotion (6.6)", "Correction")


class TransferPopup(Popup):
    """A free-form transfer: from, to, amount (keypad, whole dollars) and a reason."""

    amount = NumericProperty(0)
    amount_text = StringProperty("$0")
    reason = StringProperty("")
    payer = StringProperty("")
    payee = StringProperty(BANK)
    pay_text = StringProperty("Pay")
    ready = BooleanProperty(False)

    def on_amount(self, *_):
        self.amount_text = format_dollars(int(self.amount))
        self._check()

    def on_reason(self, *_):
        self._check()

    def on_payer(self, *_):
        self._check()

    def on_payee(self, *_):
        self._check()

    def _check(self) -> None:
        """Say on the Pay button what is still missing, so a refusal never throws the entry away."""
        if self.payer == self.payee:
            self.pay_text, self.ready = "From and To are the same", False
        elif int(self.amount) <= 0:
            self.pay_text, self.ready = "Enter an amount", False
        elif not self.reason.strip():
            self.pay_text, self.ready = "Give a reason", False
        else:
            self.pay_text, self.ready = f"Pay {format_dollars(int(self.amount))}", True

    def fill(self, controller, players: list[str], payer: str) -> None:
        """Build the payer/payee choices (players and the bank) with ``payer`` preselected."""
        from kivy.factory import Factory

        self.controller = controller
        self.payer = payer
        for box, attribute, group in ((self.ids.payer_box, "payer", "payer"), (self.ids.payee_box, "payee", "payee")):
            for name in players + [BANK]:
                button = Factory.ChoiceButton(
                    text="Bank" if name == BANK else name, group=group, allow_no_selection=False
                )
                button.state = "down" if getattr(self, attribute) == name else "normal"
                button.bind(on_release=lambda b, n=name, a=attribute: setattr(self, a, n))
                box.add_widget(button)
        for reason in QUICK_REASONS:
            button = Factory.BigButton(text=reason, font_size="18sp")
            button.bind(on_release=lambda b, r=reason: setattr(self, "reason", r))
            self.ids.reasons_box.add_widget(button)

    def press_key(self, key: str) -> None:
        """A keypad key: digits append, ``000`` multiplies by 1,000, ``Clear`` empties."""
        if key == "Clear":
            self.amount = 0
        elif key == "000":
            self.amount = min(int(self.amount) * 1000, 9_999_999)
        else:
            self.amount = min(int(self.amount) * 10 + int(key), 9_999_999)

    def submit(self) -> None:
        """Post the transfer; the table checks it (a refusal shows in the message bar). A reason starting
        "Correction" posts it as a hand correction (in full play the only way money moves between two
        networks by hand: TV Wars 4, no loans)."""
        reason = self.reason.strip()
        self.controller.post(
            TransferMoney(
                payer=self.payer,
                payee=self.payee,
                amount=int(self.amount),
                reason=reason,
                correction=reason.casefold().startswith("correction"),
            )
        )
        self.dismiss(animation=False)


class SponsorPopup(Popup):
    """Landing on Sponsor with the half-hours counted by hand (TV Wars 9.4)."""

    network = StringProperty("")
    half_hours = NumericProperty(0)
    explanation = StringProperty("")

    def on_half_hours(self, *_):
        self.explanation = (
            f"Pays {format_dollars(500 * int(self.half_hours))} = {int(self.half_hours)} half-hours × $500"
        )

    def submit(self) -> None:
        """Post the Sponsor landing."""
        from companion.games.tv_wars import LandOnSponsor

        self.controller.post(LandOnSponsor(network=self.network, half_hours=int(self.half_hours)))
        self.dismiss(animation=False)


class TileLearnPopup(Popup):
    """Learn mode: an unknown tag was placed on a tile reader; the player says once what tile it is.
    The answer is checked by the TV Wars tile rules (3, 5) before it is stored in the tile registry."""

    uid = StringProperty("")
    where = StringProperty("")
    summary = StringProperty("")
    problem = BooleanProperty(True)
    KINDS = (
        ("program", "Program"),
        ("star", "Star"),
        ("emmy", "Emmy"),
        ("critics_choice", "Critics' Choice"),
        ("viewers_views", "Viewers' Views"),
    )

    def fill(self, controller) -> None:
        """Build the choice rows: kind, length, colour and a value grid that follows the kind."""
        from kivy.factory import Factory

        self.controller = controller
        self.choice: dict[str, Any] = {"kind": "program", "length": None, "colour": None, "value": None}
        for key, row, options in (
            ("kind", self.ids.kind_row, self.KINDS),
            ("length", self.ids.length_row, ((1, "30 min"), (2, "60 min"), (3, "90 min"), (4, "120 min"))),
            ("colour", self.ids.colour_row, ((c, c) for c in ("green", "red", "blue", "yellow"))),
        ):
            for value, text in options:
                button = Factory.ChoiceButton(text=text, group=f"{key}-{id(self)}", allow_no_selection=False)
                button.state = "down" if self.choice[key] == value else "normal"
                button.bind(on_release=lambda b, k=key, v=value: self._choose(k, v))
                row.add_widget(button)
        self._values()

    def _values(self) -> None:
        """The value grid for the chosen kind: ratings (or Special/Movie), Star values, or bonus values."""
        from kivy.factory import Factory

        grid = self.ids.value_grid
        grid.clear_widgets()
        kind = self.choice["kind"]
        choices: dict[str, list[tuple[Any, str]]] = {
            "program": [(r, str(r)) for r in range(10, 100, 10)] + [("special", "Special"), ("movie", "Movie")],
            "star": [(v, str(v)) for v in (10, 20, 30)],
            "emmy": [(50, "50")],
            "critics_choice": [(v, f"{v:+d}") for v in range(-36, 37, 6)],
            "viewers_views": [(v, f"{v:+d}") for v in (-28, -21, -14, -7, 7, 14, 21, 29)],
        }
        options = choices[kind]
        for value, text in options:
            button = Factory.ChoiceButton(text=text, group=f"value-{id(self)}-{kind}", allow_no_selection=False)
            button.bind(on_release=lambda b, v=value: self._choose("value", v))
            grid.add_widget(button)
        self.ids.length_row.disabled = self.ids.colour_row.disabled = kind != "program"
        self._check()

    def _choose(self, key: str, value) -> None:
        self.choice[key] = value
        if key == "kind":
            self.choice["value"] = None
            self._values()
        self._check()

    def details(self) -> tuple[str, dict]:
        """``(kind, details)`` as the tile registry stores them."""
        c = self.choice
        if c["kind"] == "program":
            details: dict[str, Any] = {"length": c["length"], "colour": c["colour"]}
            if c["value"] == "special":
                details["special"] = True
            elif c["value"] == "movie":
                details = {"movie": True, "colour": c["colour"] or "yellow"}
            else:
                details["rating"] = c["value"]
            return "program", details
        return "bonus", {"bonus": c["kind"], "value": c["value"]}

    def _check(self) -> None:
        from companion.errors import CompanionError
        from companion.games.tv_wars.tiles import bonus_from_tile, program_from_tile
        from companion.tiles import Tile

        kind, details = self.details()
        try:
            tile = Tile(self.uid, kind, details)
            thing = program_from_tile(tile) if kind == "program" else bonus_from_tile(tile)
        except (CompanionError, TypeError) as error:
            self.summary, self.problem = f"Not yet: {error}", True
            return
        self.summary = describe_tile_value(thing)
        self.problem = False

    def learn(self) -> None:
        """Store the answer in the tile registry and say so."""
        kind, details = self.details()
        try:
            self.controller.tiles.learn(self.uid, kind, details)
        except Exception as error:
            self.summary, self.problem = f"Could not store it: {error}", True
            return
        self.controller.message, self.controller.message_refused = f"Learned tag {self.uid}: {self.summary}", False
        self.dismiss(animation=False)


def describe_tile_public(thing: Any) -> str:
    """What the shared screen may say about a scanned tile (TV Wars 9.1): ``"Program 60 min, blue Drama"``
    or ``"Star"``; never its rating or value."""
    from companion.games.tv_wars.ratings_war import COLOURS, Program

    if isinstance(thing, Program):
        movie = "Academy Award Movie, " if thing.academy_award_movie else ""
        return f"Program {thing.length * 30} min, {movie}{thing.colour} {COLOURS.get(thing.colour or '', '')}"
    return thing.label


def describe_tile_value(thing: Any) -> str:
    """``"Program 60 min, blue Drama, 70 RP"`` or ``"Star 30"``."""
    from companion.games.tv_wars.ratings_war import COLOURS, Program

    if isinstance(thing, Program):
        worth = "Special (rolled)" if thing.special else f"{thing.rating} RP"
        movie = "Academy Award Movie, " if thing.academy_award_movie else ""
        return f"Program {thing.length * 30} min, {movie}{thing.colour} {COLOURS.get(thing.colour or '', '')}, {worth}"
    return thing.describe()


class TvWarsTable(TableExtras):
    """TV Wars' additions to the controller: the actions its board's cards call (``on_the_air``, ``open_sponsor``,
    ``open_transfer``) and what a tile reader's tag is (a known tile is named publicly; an unknown one is asked
    once, one dialog at a time)."""

    def __init__(self, controller) -> None:
        super().__init__(controller)
        self._unknown_tags: list[tuple[str, str]] = []

    def on_the_air(self, name: str) -> None:
        """The card's twin of the seat's On the Air button: the same command, meaning what the button means now
        (passed On the Air, TV Wars 9.5; the lowest bid during an auction, 4)."""
        self.controller.button_action("on_the_air", name)

    def open_sponsor(self, name: str) -> None:
        """The card's twin of the seat's Sponsor button. When it means Sponsor (9.4): ask how many half-hours
        the network owns, then pay; when it means something else now (pass during an auction, 4; lock the
        line-up in, 6: :meth:`TvWars.button_meanings`) it sends what the seat button sends."""
        table = self.controller.table
        if table.session is not None and button_phase(table.state) != "move":
            self.controller.button_action("sponsor", name)
            return
        view = self.controller.table.view()
        player = next(p for p in view.players if p.name == name)
        popup = SponsorPopup(network=name)
        popup.controller = self.controller
        popup.half_hours = player.tracks[0].value if player.tracks else 0
        popup.on_half_hours()
        self.controller.open_popup(popup)

    def open_transfer(self, payer: str) -> None:
        """Open the transfer dialog with ``payer`` chosen."""
        popup = TransferPopup()
        popup.fill(self.controller, [p.name for p in self.controller.table.view().players], payer)
        self.controller.open_popup(popup)

    def tile_event(self, event) -> None:
        """A tag was placed on or removed from a tile reader: name a known tile, or ask once for an unknown one."""
        controller = self.controller
        if not event.placed or controller.tiles is None:
            return
        try:
            tile = controller.tiles.lookup(event.uid)
        except Exception as error:
            controller.say(f"Tile reader: {error}", refused=True)
            return
        where = f"{event.device} slot {event.slot}"
        if tile is not None:
            from companion.games.tv_wars.tiles import bonus_from_tile, program_from_tile

            try:
                thing = program_from_tile(tile) if tile.kind == "program" else bonus_from_tile(tile)
                controller.say(f"{where}: {describe_tile_public(thing)}")
            except Exception as error:
                controller.say(f"{where}: tag {tile.uid} is learned wrongly: {error}", refused=True)
            return
        self._unknown_tags.append((event.uid, where))
        self._ask_next_tag()

    def _ask_next_tag(self) -> None:
        controller = self.controller
        if controller.popup is not None or not self._unknown_tags:
            return
        uid, where = self._unknown_tags.pop(0)
        if controller.tiles.lookup(uid) is not None:
            return self._ask_next_tag()
        popup = TileLearnPopup(uid=uid, where=where)
        popup.fill(controller)
        popup.bind(on_dismiss=lambda *_: Clock.schedule_once(lambda dt: self._ask_next_tag(), 0))
        controller.open_popup(popup)


#: Found by :func:`ui.extras.extras_class`.
EXTRAS = TvWarsTable
