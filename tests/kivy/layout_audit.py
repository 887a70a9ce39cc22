"""The layout audit's checks, run inside a Kivy driver on what the window shows (tests/kivy/drive_layout.py).

:func:`audit` walks everything drawn in the touchscreen area (the current screen and any open dialog; not the
simulator's panel strip) and returns one :class:`Violation` per problem:

* ``overflow``: a text's drawn size (``texture_size``) is larger than its widget's box, so it spills over
  its neighbours or is cut by its parent;
* ``cut``: a wrapped text needs more lines than its ``text_size`` height or its ``max_lines`` show (Kivy drops
  the rest), and the whole text cannot be seen another way (``whole_text_at``, below);
* ``shortened``: Kivy shortened the text ("…") and the whole text cannot be seen another way. A widget (or an
  ancestor) says where the whole text is with the property ``whole_text_at`` (e.g. ``"tap"``: a tap opens it;
  ``"History"``: the history screen lists it in full);
* ``split``: a wrapped text has a word wider than its line (``text_size`` width), so Kivy breaks the word
  itself across two lines ("Spons" / "or");
* ``small``: text players read at the table is under :data:`READ_PX` pixels (its font size, or a markup
  ``[size=…]`` part of it);
* ``small-figure``: a key figure (cash, Vitality, scores, ratings figures) is under :data:`FIGURE_PX` pixels.
  A key figure is a Label with the property ``key_figure: True`` (set in the game's ``.kv``);
* ``no-figure``: the dashboard of an open game shows no key figure at all (the figures were not marked);
* ``overlap``: two visible siblings' boxes overlap (a label inside a button is a child, not a sibling);
* ``outside-parent``: a visible widget sticks out of its parent's box (a layout given more than it holds);
* ``outside-screen``: a visible widget is not wholly inside the touchscreen area; a widget in a scrolling
  view is checked against what it scrolls (its content box, and the view's own box on an axis that does
  not scroll).

"Visible": attached to the window, and it and every ancestor have ``opacity > 0``; boxes must have an area
(a collapsed, transparent widget is not shown). One pixel of slack on every comparison (rounding).
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass

#: The smallest text (pixels, font size) players read at the table, at arm's length from the 7" screen.
READ_PX = 18
#: The smallest key figure (pixels, font size): cash, Vitality, scores, ratings figures.
FIGURE_PX = 28
SLACK = 1.0


@dataclass(frozen=True)
class Violation:
    kind: str
    where: str  # "home", "dashboard", "history" or the dialog's class name
    widget: str  # class and kv id or the text's start
    detail: str

    def signature(self) -> tuple:
        """What stays the same when the same widget breaks the same way in another state (no figures)."""
        return (self.kind, self.where, "".join("#" if c.isdigit() else c for c in self.widget))

    def as_dict(self) -> dict:
        return asdict(self)


def _name(widget) -> str:
    ident = ""
    for parent in _ancestors(widget):
        ids = getattr(parent, "ids", None) or {}
        ident = next((key for key, value in ids.items() if value is widget), "")
        if ident:
            break
    text = getattr(widget, "text", "")
    text = text.splitlines()[0][:24] if isinstance(text, str) and text else ""
    return f"{type(widget).__name__}" + (f"#{ident}" if ident else "") + (f" {text!r}" if text else "")


def _ancestors(widget):
    node = widget.parent
    while node is not None and node is not node.parent:
        yield node
        node = node.parent


def _shown(widget, window) -> bool:
    if widget.get_root_window() is None:
        return False
    node = widget
    while node is not None and node is not window:
        if getattr(node, "opacity", 1) <= 0:
            return False
        node = node.parent
    return True


def _rect(widget):
    x, y = widget.to_window(*widget.pos)
    return x, y, x + widget.width, y + widget.height


def _inside(inner, outer, axes="xy") -> bool:
    ok = True
    if "x" in axes:
        ok &= inner[0] >= outer[0] - SLACK and inner[2] <= outer[2] + SLACK
    if "y" in axes:
        ok &= inner[1] >= outer[1] - SLACK and inner[3] <= outer[3] + SLACK
    return ok


def _overlap(a, b) -> float:
    width = min(a[2], b[2]) - max(a[0], b[0])
    height = min(a[3], b[3]) - max(a[1], b[1])
    return width * height if width > SLACK and height > SLACK else 0.0


def _flag(widget, name):
    """``widget``'s (or its nearest ancestor's) property ``name``, else None."""
    for node in (widget, *_ancestors(widget)):
        value = getattr(node, name, None)
        if value:
            return value
    return None


def _needed_height(label) -> float:
    """The height ``label``'s text needs at its ``text_size`` width with no height limit (pixels)."""
    core = type(label._label)
    options = dict(label._label.options)
    options.update(text_size=(label.text_size[0], None), shorten=False, max_lines=0)
    options.pop("text", None)
    measure = core(text=label.text, **options)
    measure.refresh()
    return measure.texture.size[1] if measure.texture is not None else 0


_WORD_WIDTHS: dict[tuple, float] = {}


def _widest_word(label) -> tuple[str, float]:
    """The widest word of ``label``'s text drawn in its font on one line, and its width (pixels)."""
    core = type(label._label)
    options = dict(label._label.options)
    options.update(text_size=(None, None), shorten=False, max_lines=0)
    options.pop("text", None)
    widest = ("", 0.0)
    for word, bold, size in _words(label.text, label.markup):
        drawn = dict(options, bold=bold or options.get("bold", False), font_size=size or options["font_size"])
        key = (word, tuple(sorted((k, repr(v)) for k, v in drawn.items())))
        if key not in _WORD_WIDTHS:
            measure = core(text=word, **drawn)
            measure.refresh()
            _WORD_WIDTHS[key] = measure.texture.size[0] if measure.texture is not None else 0
        if _WORD_WIDTHS[key] > widest[1]:
            widest = (word, _WORD_WIDTHS[key])
    return widest


def _px(value: str, unit: str | None) -> float:
    from kivy.metrics import dp, sp

    return float(value) * (sp(1) if unit == "sp" else dp(1) if unit == "dp" else 1)


_TAG = re.compile(r"\[/?[a-z_]+(=[^\]]*)?\]")


def _words(text: str, markup: bool) -> set[tuple[str, bool, float | None]]:
    """The words of a label's text with the markup they are drawn in: ``(word, bold, size px or None)``; a word
    inside ``[b]`` is bold, inside ``[size=N]`` drawn at N px (as Kivy's markup label draws it)."""
    if not markup:
        return {(word, False, None) for word in text.split()}
    found, bold, sizes = set(), 0, []
    for token in re.split(r"(\[.*?\])", text):
        if _TAG.fullmatch(token):
            if token == "[b]":
                bold += 1
            elif token == "[/b]":
                bold = max(0, bold - 1)
            elif token.startswith("[size="):
                value = re.fullmatch(r"\[size=([0-9.]+)(px|sp|dp)?\]", token)
                sizes.append(_px(*value.groups()) if value else (sizes[-1] if sizes else None))
            elif token == "[/size]" and sizes:
                sizes.pop()
            continue
        found |= {(word, bold > 0, sizes[-1] if sizes else None) for word in token.split()}
    return found


def _check_text(widget, where, out) -> None:
    from kivy.metrics import dp, sp
    from kivy.uix.label import Label

    if not isinstance(widget, Label) or not isinstance(widget.text, str) or not widget.text.strip():
        return
    name = _name(widget)
    if widget.font_size < READ_PX - 0.01:
        out.append(Violation("small", where, name, f"{widget.font_size:.0f} px < {READ_PX}"))
    if widget.markup:  # a part of the text in its own size: [size=15sp]…[/size]
        for value, unit in re.findall(r"\[size=([0-9.]+)(sp|dp|px)?\]", widget.text):
            px = float(value) * (sp(1) if unit == "sp" else dp(1) if unit == "dp" else 1)
            if px < READ_PX - 0.01:
                out.append(Violation("small", where, name, f"[size={value}{unit}] is {px:.0f} px < {READ_PX}"))
    if getattr(widget, "key_figure", False) and widget.font_size < FIGURE_PX - 0.01:
        out.append(Violation("small-figure", where, name, f"{widget.font_size:.0f} px < {FIGURE_PX}"))
    tw, th = widget.texture_size
    if tw > widget.width + SLACK or th > widget.height + SLACK:
        out.append(
            Violation("overflow", where, name, f"text {tw:.0f}x{th:.0f} in box {widget.width:.0f}x{widget.height:.0f}")
        )
    if widget.text_size[0] is not None and not widget.shorten:
        word, width = _widest_word(widget)
        if width > widget.text_size[0] + SLACK:
            out.append(
                Violation("split", where, name, f"{word!r} is {width:.0f} px, its lines {widget.text_size[0]:.0f} px")
            )
    if widget.shorten and widget.is_shortened:
        if not _flag(widget, "whole_text_at"):
            out.append(Violation("shortened", where, name, f"shortened, whole text: {widget.text[:60]!r}"))
    elif widget.text_size[0] is not None and (widget.text_size[1] is not None or widget.max_lines):
        needed, shown = _needed_height(widget), widget.texture_size[1]
        if widget.text_size[1] is not None:
            shown = min(shown, widget.text_size[1])
        if needed > shown + SLACK and not _flag(widget, "whole_text_at"):
            out.append(Violation("cut", where, name, f"needs {needed:.0f} px of height, shows {shown:.0f}"))


def audit(screen_area, where: str, roots, *, expect_figure: bool = False) -> list[Violation]:
    """Every violation under ``roots`` (widgets drawn in the touchscreen area: the current screen, an open
    dialog). ``screen_area``: ``(left, bottom, right, top)`` of the touchscreen in window pixels.
    ``expect_figure``: the roots are an open game's dashboard, which must show a key figure."""
    from kivy.core.window import Window
    from kivy.uix.scrollview import ScrollView

    out: list[Violation] = []
    figures = 0
    astray: set = set()  # widgets reported outside their parent or the screen: not their children again
    for root in roots:
        stack = [root]
        while stack:
            widget = stack.pop()
            if not _shown(widget, Window):
                continue  # nor anything under it
            stack.extend(widget.children)
            _check_text(widget, where, out)
            if getattr(widget, "key_figure", False) and widget.text:
                figures += 1
            if widget.width <= SLACK or widget.height <= SLACK:
                continue
            rect = _rect(widget)
            if any(id(a) in astray for a in _ancestors(widget)):
                astray.add(id(widget))
                continue
            before = len(out)
            scroller = next((a for a in _ancestors(widget) if isinstance(a, ScrollView)), None)
            if widget is not root and widget.parent is not None and not isinstance(widget.parent, ScrollView):
                parent = widget.parent
                if parent.width > SLACK and not _inside(rect, _rect(parent)):
                    out.append(
                        Violation(
                            "outside-parent",
                            where,
                            _name(widget),
                            f"{_box(rect)} not in {_box(_rect(parent))} of {_name(parent)}",
                        )
                    )
            if scroller is None:
                if not _inside(rect, screen_area):
                    out.append(
                        Violation("outside-screen", where, _name(widget), f"{_box(rect)} not in {_box(screen_area)}")
                    )
            else:
                content = scroller.children[0] if scroller.children else None
                axes = (
                    "" if scroller.do_scroll_x and content is not None and content.width > scroller.width else "x"
                ) + ("" if scroller.do_scroll_y and content is not None and content.height > scroller.height else "y")
                if axes and widget is not content and not _inside(rect, _rect(scroller), axes):
                    out.append(
                        Violation(
                            "outside-screen",
                            where,
                            _name(widget),
                            f"{_box(rect)} beyond its scrolling view {_box(_rect(scroller))} ({axes})",
                        )
                    )
            if len(out) > before:
                astray.add(id(widget))
            kids = [k for k in widget.children if _shown(k, Window) and k.width > SLACK and k.height > SLACK]
            for i, a in enumerate(kids):
                for b in kids[i + 1 :]:
                    if _overlap(_rect(a), _rect(b)):
                        out.append(
                            Violation(
                                "overlap", where, f"{_name(a)} / {_name(b)}", f"{_box(_rect(a))} and {_box(_rect(b))}"
                            )
                        )
    if expect_figure and not figures:
        out.append(Violation("no-figure", where, "board", "no Label marked key_figure is shown"))
    return out


def _box(rect) -> str:
    return "({:.0f},{:.0f})-({:.0f},{:.0f})".format(*rect)
