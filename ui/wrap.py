"""Words that wrap at their hyphens and slashes instead of mid-letter.

Kivy wraps a text only at spaces: a word wider than its line is cut wherever the line ends, so a narrow cell of
the Ratings War grid showed "[Counter-Programmi" / "ng]" and a genre button "Action/Adventu" / "re". The rulebooks'
terms are long hyphenated words ("Counter-Programming", "Lead-In", "DIE-NASTY", "Action/Adventure"); this module
gives such a word a break opportunity (a space after its hyphen or slash) only when the whole word does not fit its
line, so a wide cell still shows it whole.

:func:`breakable` is the pure text rule (any ``measure``); :class:`WordBreaks` applies it to a Kivy label's or
button's ``text`` at its own width and font (:class:`WordBreakLabel`, ``ui.dialogs.ChoiceButton``). The layout
audit's ``split`` check (tests/kivy/layout_audit.py) measures words its own way, so that the test does not
measure with the code it checks.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from kivy.uix.label import Label

#: Kivy's markup tags (``[b]``, ``[/b]``, ``[size=24]``, ``[color=#fff]``, ...): never measured, never broken.
#: A bracketed term such as ``[Counter-Programming]`` is not a tag (capital letter, hyphen) and is text.
MARKUP_TAG = re.compile(
    r"\[/?(?:b|i|u|s|sub|sup|size|color|font|font_context|font_family|font_features|ref|anchor|text_language)"
    r"(?:=[^\]]*)?\]"
)
#: Where a word may be broken: just after one of these.
BREAK_AFTER = "-/"


def visible(word: str) -> str:
    """``word`` without its markup tags: what is drawn."""
    return MARKUP_TAG.sub("", word)


def breakable(text: str, width: float | None, measure: Callable[[str, bool, float | None], float]) -> str:
    """``text`` with a space put just after a hyphen or slash of every word wider than ``width`` px, so that Kivy's
    wrapping (at spaces only) breaks the word there rather than mid-letter.

    ``measure(s, bold, size)`` is the drawn width (px) of the visible text ``s`` on one line, in bold or not, at the
    font size ``size`` px of an open ``[size=...]`` tag (``None``: the label's own). Each long word is cut greedily:
    its head runs to the last hyphen or slash that still fits the line (the first one if none does), and the rest
    is cut the same way. Markup tags are kept whole and not measured; spaces and line breaks are kept as they are;
    a word without a hyphen or slash, or ``width`` ``None`` (no wrapping), leaves the text unchanged.
    """
    if width is None or width <= 0:
        return text
    pieces = re.split(r"(\s+)", text)
    bold, sizes = 0, []  # the markup open where each word starts
    for index, piece in enumerate(pieces):
        if index % 2 == 0 and piece:  # the even pieces are the words, the odd ones the spaces between
            style = (bold > 0 or "[b]" in piece, _size(piece, sizes))

            def drawn(s: str, style=style) -> float:
                return measure(s, *style)

            if drawn(visible(piece)) > width:
                pieces[index] = " ".join(_cut(piece, width, drawn))
        for tag in MARKUP_TAG.finditer(piece):
            bold, sizes = _after(tag.group(), bold, sizes)
    return "".join(pieces)


def _size(word: str, sizes: list[float]) -> float | None:
    opened = re.match(r"\[size=([0-9.]+)\]", word)
    return float(opened.group(1)) if opened else (sizes[-1] if sizes else None)


def _after(tag: str, bold: int, sizes: list[float]) -> tuple[int, list[float]]:
    if tag == "[b]":
        return bold + 1, sizes
    if tag == "[/b]":
        return max(0, bold - 1), sizes
    if tag.startswith("[size="):
        try:
            return bold, [*sizes, float(tag[6:-1])]
        except ValueError:  # a size in sp or dp: measured at the label's own
            return bold, sizes
    if tag == "[/size]":
        return bold, sizes[:-1]
    return bold, sizes


def _cut(word: str, width: float, measure: Callable[[str], float]) -> list[str]:
    in_tags = {i for tag in MARKUP_TAG.finditer(word) for i in range(tag.start(), tag.end())}
    points = [i + 1 for i, char in enumerate(word) if char in BREAK_AFTER and i not in in_tags and i + 1 < len(word)]
    parts, start = [], 0
    while points and measure(visible(word[start:])) > width:
        fitting = [p for p in points if measure(visible(word[start:p])) <= width]
        cut = fitting[-1] if fitting else points[0]
        if not visible(word[cut:]):  # nothing drawn after it (a closing tag): not a break
            break
        parts.append(word[start:cut])
        start = cut
        points = [p for p in points if p > cut]
    parts.append(word[start:])
    return parts


#: Drawn widths already measured: (text, bold, font size px, font name) → px.
_WIDTHS: dict[tuple, float] = {}


class WordBreaks:
    """Mixed into a Kivy label or button (before it: ``class Cell(WordBreaks, Label)``): its ``text`` is shown with
    the break opportunities its line (``text_size`` width) needs, by :func:`breakable`. Set ``text`` as usual;
    :attr:`unbroken_text` is what was set."""

    def __init__(self, **kwargs) -> None:
        self._shown: str | None = None
        self.unbroken_text: str = kwargs.get("text", "")
        super().__init__(**kwargs)
        for name in ("text", "text_size", "font_size", "font_name", "bold"):
            self.fbind(name, self._break_words)
        self._break_words()

    def _break_words(self, *_) -> None:
        if self.text != self._shown:  # set from outside (not by this method): the whole text
            self.unbroken_text = self.text
        self._shown = breakable(self.unbroken_text, self.text_size[0], self._measure)
        if self.text != self._shown:
            self.text = self._shown

    def _measure(self, text: str, bold: bool, size: float | None) -> float:
        from kivy.core.text import Label as CoreLabel

        bold = bold or self.bold
        size = size or self.font_size
        key = (text, bold, size, self.font_name)
        if key not in _WIDTHS:
            if len(_WIDTHS) > 4096:
                _WIDTHS.clear()
            measure = CoreLabel(text=text, font_size=size, font_name=self.font_name, bold=bold)
            measure.refresh()
            _WIDTHS[key] = measure.texture.size[0] if measure.texture is not None else 0
        return _WIDTHS[key]


class WordBreakLabel(WordBreaks, Label):
    """A :class:`Label` whose long hyphenated words break at their hyphens (:class:`WordBreaks`)."""
