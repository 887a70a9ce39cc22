"""The Ratings War as the table's screen (TV Wars 6, 9.91): from *Reveal* until the table dismisses it, the
TV Wars board shows the war in place of the network cards.

- **The grid**: networks across, the six half-hours 8:00-11:00 down, a header row that does not scroll.
  Each cell is one network's program in one half-hour: its title, then its score in Rating Points (a key
  figure): the final score once the half-hour is resolved, else the score it stands at so far
  (:func:`~companion.games.tv_wars.ratings_war.score_so_far`: base, bonus tile, Network News, Promos,
  Counter-Programming, a Lead-In already earned) and beside it the program's exact chance of surviving the
  war ("42% safe", :attr:`~companion.games.tv_wars.war_at_table.WarAtTable.live_odds`, following every die).
  A resolved cell says "wins" or "cancelled"; a tap on any cell opens its whole text: the breakdown with each
  part's rule, the fate with its rule, the tie-break. The half-hour being resolved is marked and scrolled
  into view.
- **The Preemption choice on the grid** (9.91): the holder taps the first half-hour of the hour it would
  preempt; the grid then shows that hour preempted and the odds as they would be (a preview,
  :func:`~companion.games.tv_wars.war_at_table.preemption_preview`, nothing posted) until the holder
  confirms on the action strip or declines.
- **The summary** once the war is over: what each network lost and kept, each with its rule
  (:func:`~companion.games.tv_wars.war_at_table.aftermath_lines`), until *Back to the board* (or the next
  landing) returns the cards.

It never changes state; it reads the war (public after the reveal, 9.1) and its commands go through the
board's controller.
"""

from __future__ import annotations

from kivy.factory import Factory
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, ListProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView
from kivy.utils import get_color_from_hex

#: Cell backgrounds by the cell's state (GridCell.state); a previewed Preemption shows as "preempted".
CELL_COLOURS = {
    "wins": (0.12, 0.40, 0.20, 1),
    "cancelled": (0.55, 0.12, 0.12, 1),
    "gone": (0.16, 0.16, 0.18, 1),
    "preempted": (0.30, 0.22, 0.45, 1),
    "empty": (0.10, 0.10, 0.12, 1),
    "scored": (0.18, 0.22, 0.28, 1),
    "": (0.18, 0.22, 0.28, 1),
}
ROW_HEIGHT = 64  # dp: a title line and a 28 px figure line
LABEL_WIDTH = 64  # dp: the half-hours' column


def chance_text(chance: float | None) -> str:
    """``"42% safe"`` (rounded; "<1%" and ">99%" where rounding would say 0 or 100 of an open fate)."""
    if chance is None:
        return ""
    if chance <= 0:
        return "lost"
    if chance >= 1:
        return "safe"
    percent = round(chance * 100)
    return f"{'<1' if percent < 1 else '>99' if percent > 99 else percent}% safe"


def figure_markup(cell) -> str:
    """The cell's second line: the score (28 px, bold) and a short word: ``"85 wins"``, ``"51 cancelled"``,
    ``"60 42% safe"`` before the half-hour is resolved, ``"2d6x10 58% safe"`` for a Special not yet rolled."""
    small = int(sp(18))
    if cell.state == "empty":
        return "-"
    if cell.state == "preempted":
        return f"[size={small}]Preempted[/size]"
    if cell.state == "gone":
        return f"[size={small}]gone[/size]"
    if cell.total is not None:
        word = {"wins": "wins", "cancelled": "cancelled"}.get(cell.state, "")
        return f"[b]{cell.total}[/b]" + (f" [size={small}]{word}[/size]" if word else "")
    if cell.running is not None:
        head = f"[b]{cell.running}[/b]"
    elif cell.program == "SUPER BOWL":
        head = f"[size={small}]wins (9.8)[/size]"
    else:  # a Special not rolled yet (3.3)
        head = f"[size={small}]2d6x10[/size]"
    chance = chance_text(cell.chance)
    return head + (f" [size={small}]{chance}[/size]" if chance else "")


def cell_details(cell, row_label: str, network: str) -> list[str]:
    """Every line of a cell for its detail dialog: program, score with its parts and rules, fate, tie."""
    lines = [f"{network}, {row_label}: {cell.program or 'no program'}"]
    if cell.state == "preempted":
        lines.append(f"{cell.reason or 'preempted'} ({cell.rule or 'TV Wars 9.91'})")
    elif cell.state == "gone":
        lines.append(f"{cell.reason} ({cell.rule})" if cell.rule else cell.reason)
    elif cell.total is not None:
        lines.append(f"{cell.total} Rating Points = {cell.breakdown}")
        lines += [f"{'+' if value >= 0 else '-'} {abs(value)} {label} ({rule})" for label, value, rule in cell.parts]
    elif cell.running is not None:
        lines.append(f"{cell.running} Rating Points so far = {cell.running_breakdown} (not resolved yet)")
    elif cell.program:
        lines.append("A Special: 10 x the roll of two dice, rolled when its first half-hour is resolved (TV Wars 3.3)")
    if cell.state == "wins":
        lines.append("Highest in the half-hour (TV Wars 6.4)")
    if cell.state == "cancelled":
        lines.append(f"Cancelled: {cell.reason} ({cell.rule})")
    if cell.tie:
        lines.append(cell.tie)
    if cell.chance is not None and cell.program:
        lines.append(f"Chance the program survives the war: {cell.chance:.1%} (exact, with every roll so far)")
    return lines


class WarCell(ButtonBehavior, BoxLayout):
    """One cell of the table's war grid: a title line and a figure line; a tap opens the whole text."""

    background = ListProperty([0.18, 0.22, 0.28, 1])
    title = StringProperty("")
    figure = StringProperty("")
    starts = BooleanProperty(True)
    whole_text_at = StringProperty("a tap on the cell")


class SlotButton(ButtonBehavior, Label):
    """A half-hour's label; in the Preemption phase a tap chooses the hour starting there (9.91)."""

    background = ListProperty([0.10, 0.12, 0.16, 1])


class WarScreen(BoxLayout):
    """The war grid or, once the war is over, the summary, for :class:`TvWarsBoard` (module docstring).
    ``on_cell(cell, row_label, network)`` and ``on_slot(slot)`` are the board's callbacks."""

    def __init__(self, on_cell, on_slot, **kwargs) -> None:
        super().__init__(orientation="vertical", spacing=dp(2), **kwargs)
        self.on_cell, self.on_slot = on_cell, on_slot
        self.header = GridLayout(rows=1, size_hint_y=None, height=dp(30), spacing=dp(2))
        self.scroll = ScrollView(do_scroll_x=False, always_overscroll=False, bar_width=dp(8))
        self.grid = GridLayout(spacing=dp(2), size_hint_y=None)
        self.grid.bind(minimum_height=self.grid.setter("height"))
        self.scroll.add_widget(self.grid)
        self.add_widget(self.header)
        self.add_widget(self.scroll)
        self.cells: dict[tuple[int, str], WarCell] = {}
        self.slot_buttons: list[SlotButton] = []
        self.mode = ""

    def show_grid(self, view, colours: dict[str, list], choosing: bool, chosen: int | None) -> None:
        """Draw ``view`` (a :class:`~companion.games.tv_wars.war_at_table.WarView` after the reveal):
        ``choosing``: the Preemption holder is choosing (the half-hour labels are buttons); ``chosen``: the
        start of the previewed hour."""
        self.mode = "grid"
        self.header.clear_widgets()
        self.header.cols = len(view.networks) + 1
        self.header.add_widget(Label(text="", size_hint_x=None, width=dp(LABEL_WIDTH)))
        for name in view.networks:
            self.header.add_widget(
                Label(text=f"[b]{name}[/b]", markup=True, font_size=sp(22), color=colours.get(name, [1, 1, 1, 1]))
            )
        self.grid.clear_widgets()
        self.grid.cols = len(view.networks) + 1
        self.cells, self.slot_buttons = {}, []
        current = view.current
        for index, row in enumerate(view.rows):
            marked = chosen is not None and chosen <= index <= chosen + 1
            label = SlotButton(
                text=row.label.split("-")[0] + ("\n[b]tap[/b]" if choosing else ""),
                markup=True,
                font_size=sp(18),
                size_hint=(None, None),
                width=dp(LABEL_WIDTH),
                height=dp(ROW_HEIGHT),
                halign="center",
                valign="middle",
                background=(0.55, 0.45, 0.05, 1)
                if index == current
                else (0.30, 0.22, 0.45, 1)
                if marked
                else (0.22, 0.30, 0.42, 1)
                if choosing
                else (0.10, 0.12, 0.16, 1),
            )
            label.bind(size=lambda w, size: setattr(w, "text_size", size))
            label.slot = index
            if choosing:
                label.bind(on_release=lambda b: self.on_slot(b.slot))
            self.slot_buttons.append(label)
            self.grid.add_widget(label)
            for name, cell in zip(view.networks, row.cells):
                widget = WarCell(
                    title=(cell.program if cell.starts else f"({cell.program})") if cell.program else "",
                    figure=figure_markup(cell),
                    starts=cell.starts,
                    background=CELL_COLOURS.get(cell.state, CELL_COLOURS[""]),
                    size_hint_y=None,
                    height=dp(ROW_HEIGHT),
                )
                widget.bind(on_release=lambda w, c=cell, r=row.label, n=name: self.on_cell(c, r, n))
                self.cells[(index, name)] = widget
                self.grid.add_widget(widget)
        if current is not None:
            self.scroll_to_slot(current)

    def scroll_to_slot(self, slot: int) -> None:
        """Bring half-hour ``slot``'s row (and the one after it) into view."""
        if 0 <= slot < len(self.slot_buttons):
            self.scroll.scroll_to(self.slot_buttons[min(slot + 1, len(self.slot_buttons) - 1)], animate=False)
            self.scroll.scroll_to(self.slot_buttons[slot], animate=False)

    def show_summary(self, aftermath, colours: dict[str, list]) -> None:
        """What each network lost and kept (``aftermath``: ``(network, lost, kept)`` texts with rules)."""
        self.mode = "summary"
        self.header.clear_widgets()
        self.header.cols = 1
        self.header.add_widget(
            Label(text="[b]After the Ratings War (TV Wars 6.2, 6.8)[/b]", markup=True, font_size=sp(20))
        )
        self.grid.clear_widgets()
        self.grid.cols = 2
        self.cells, self.slot_buttons = {}, []
        for network, lost, kept in aftermath:
            name = Label(
                text=f"[b]{network}[/b]",
                markup=True,
                font_size=sp(28),
                color=colours.get(network, [1, 1, 1, 1]),
                size_hint=(None, None),
                width=dp(96),
                height=dp(40),
            )
            name.key_figure = True
            text = Label(text=f"{lost}\n{kept}", font_size=sp(18), size_hint_y=None, halign="left", valign="top")
            text.bind(
                width=lambda w, width: setattr(w, "text_size", (width - dp(6), None)),
                texture_size=lambda w, size, n=name: (
                    setattr(w, "height", max(dp(40), size[1] + dp(6))),
                    setattr(n, "height", max(dp(40), size[1] + dp(6))),
                ),
            )
            self.grid.add_widget(name)
            self.grid.add_widget(text)
        self.scroll.scroll_y = 1  # from the first network


Factory.register("WarCell", cls=WarCell)
Factory.register("SlotButton", cls=SlotButton)


def network_colours(view) -> dict[str, list]:
    """Seat colours of a :class:`~companion.games.TableView` by network name (RGBA lists)."""
    return {p.name: get_color_from_hex(p.colour) if p.colour.startswith("#") else [1, 1, 1, 1] for p in view.players}


__all__ = ["WarScreen", "WarCell", "SlotButton", "figure_markup", "chance_text", "cell_details", "network_colours"]
