"""Player OLED panels (luma.oled): each player's name and figures, readable at arm's length.

Three layers, as in luma: a *device* per panel (luma.core's ``dummy`` device for the emulated panels, or
real SSD1306/SH1106/SSD1309 panels opened by :mod:`hardware.panel_devices`), a pure *layout* function
:func:`render_player_panel` that draws a :class:`companion.games.PlayerView` into a 128×64 1-bit PIL image,
and :class:`PanelBank`, which redraws on its own thread only the panels whose content changed, so the
UI thread and the table never wait for a slow I2C bus.

The layout is made for a 128×64 monochrome panel: fixed zones (:data:`ZONES`: the header with the turn marker,
the seat's shape, the name and the badge; the headline figure, whose size never depends on what is under it; up
to two secondary lines of one fixed height) in Terminus, a bitmap font drawn for small monochrome screens
(``hardware/fonts``, SIL Open Font License): text 14 px (cap height 10 px, one blank row between lines), the
figure 24 px (cap height 15 px). tests/test_panel_audit.py measures every game's panels against these zones.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from luma.core.device import dummy
from PIL import Image, ImageDraw, ImageFont

from companion.config import seat_shape
from companion.games import PlayerView
from companion.words import and_join, format_dollars, noun, verb

log = logging.getLogger("companion.panels")

PANEL_WIDTH, PANEL_HEIGHT = 128, 64
RETRY_FIRST, RETRY_MAX = 0.5, 10.0  # seconds between redraw attempts of a panel that is not answering
FRAME_RETRIES = 2  # immediate redraws of a frame that failed before the growing delays
PRIVATE_PAGE_SECONDS = 3.0  # each page of a private page too long for one panel (a peek held longer sees them all)
PanelFont = ImageFont.ImageFont | ImageFont.FreeTypeFont
FONT_DIR = Path(__file__).with_name("fonts")
#: The Terminus bold sizes shipped in ``hardware/fonts`` (px: the glyph cell's height).
FONT_SIZES = (12, 14, 16, 18, 20, 22, 24, 28, 32)
TEXT_SIZE = 14  # every line of text: cap height 10 px, ink in rows 1–13 of its 14-row cell, 8 px a letter
FIGURE_SIZES = (24, 22, 20, 18)  # the headline: 24 px (cap 15 px); smaller only if the figure is wider than the panel
MARGIN = 4  # px kept clear at the left and right edges


@cache
def panel_font(size: int) -> ImageFont.ImageFont:
    """Terminus bold at the largest shipped size (:data:`FONT_SIZES`) not over ``size`` pixels (12 px at least).
    Bitmap glyphs: every pixel where the font's designer put it, nothing scaled or smoothed."""
    chosen = max([s for s in FONT_SIZES if s <= size] or [FONT_SIZES[0]])
    return ImageFont.load(str(FONT_DIR / f"ter-u{chosen}b.pil"))


def text_font() -> ImageFont.ImageFont:
    """The font of every text line (the name, the secondary lines, messages): Terminus bold 14 px."""
    return panel_font(TEXT_SIZE)


@cache
def narrow_font() -> ImageFont.ImageFont:
    """Terminus *normal* 14 px, for a line drawn 7 px a letter (:func:`_fitted`): its letters are a column
    narrower than the bold ones, so a dark column still parts most of them."""
    return ImageFont.load(str(FONT_DIR / "ter-u14n.pil"))


def figure_font() -> ImageFont.ImageFont:
    """The headline figure's font: Terminus bold 24 px."""
    return panel_font(FIGURE_SIZES[0])


def _ascii(text: str) -> str:
    """``text`` in the fonts' latin-1 range: the minus sign as a hyphen, an ellipsis as three dots, anything else
    outside latin-1 as ``?``."""
    text = text.replace("\u2212", "-").replace("\u2026", "...").replace("\u2013", "-").replace("\u2014", "-")
    return text.encode("latin-1", "replace").decode("latin-1")


@dataclass(frozen=True)
class Zones:
    """Where each part of a panel may light pixels: ``(first row, last row)`` of ink, inclusive. Text is drawn
    in cells of :data:`TEXT_SIZE` rows whose ink is in rows 1–13, so a line whose cell starts at ``y`` lights
    rows ``y + 1`` to ``y + 13``; between any two zones at least one row stays dark."""

    header: tuple[int, int] = (0, 12)  # the name's cell at y = -1; the badge in inverse video on rows 0–12
    figure: tuple[int, int] = (14, 33)  # 24 px figure: "$" from row 14, digits' baseline on row 29, "y" to 33
    under_figure: tuple[int, ...] = (35, 49)  # the cells of the lines under a figure: ink 36–48, 50–62
    without_figure: tuple[int, ...] = (15, 31, 47)  # the cells of up to three lines without a figure
    full_message: tuple[int, ...] = (-1, 15, 31, 47)  # a message that needs four lines takes the header's rows
    pitch: int = 14  # the smallest distance from one line's cell to the next

    def line_cells(self, view: PlayerView | None, message: str = "") -> tuple[int, ...]:
        """The cells (top rows) of the text lines ``view`` (with ``message``) draws under its header."""
        if view is None:
            return ()
        if message:
            wrapped = wrap_message(message)
            return self.full_message if len(wrapped) > len(self.without_figure) else self.without_figure[: len(wrapped)]
        big, lines = _figure_and_lines(view)
        cells = self.under_figure if big else self.without_figure
        if not lines and view.tracks:
            return (self.under_figure[-1],)
        return cells[: len(fit_lines(lines, len(cells)))]

    def layout(self, view: PlayerView | None, message: str = "") -> dict[str, tuple[int, int]]:
        """The zones ``render_player_panel(view, message=message)`` draws in, by name: ``"header"``,
        ``"figure"``, ``"line1"``…, or ``"message"`` for a panel with no view."""
        if view is None:
            return {"message": (0, PANEL_HEIGHT - 2)}
        zones: dict[str, tuple[int, int]] = {}
        cells = self.line_cells(view, message)
        if not (message and cells == self.full_message):
            zones["header"] = self.header
        if not message and _figure_and_lines(view)[0]:
            zones["figure"] = self.figure
        for number, cell in enumerate(cells, 1):
            zones[f"line{number}"] = (max(0, cell + 1), cell + TEXT_SIZE - 1)
        return zones


ZONES = Zones()


def _figure_and_lines(view: PlayerView) -> tuple[str, tuple[str, ...]]:
    """The headline figure (``""``: none) and the secondary lines a view's panel shows: two under a figure,
    three without one."""
    big = view.headline or (format_dollars(view.balance) if view.balance is not None else "")
    lines = view.panel_lines[:2] if big else view.panel_lines[:3]
    return _ascii(big), tuple(_ascii(line) for line in lines)


@cache
def _ink(font: PanelFont, text: str) -> tuple[int, int, int, int]:
    """The box ``(left, top, right, bottom)`` (right and bottom exclusive) that ``text`` lights in its glyph
    cells: a bitmap font's ``getbbox`` gives the cells themselves."""
    image = Image.new("1", (PANEL_WIDTH, PANEL_HEIGHT), 0)
    ImageDraw.Draw(image).text((0, 0), text, font=font, fill=1)
    box = image.getbbox()
    assert box is not None, f"{text!r} lights nothing"
    return box


def fit_lines(lines: Sequence[str], room: int) -> list[str]:
    """``lines`` (a view's secondary lines) as drawn in ``room`` cells: each line whole when it fits one cell (17
    letters); a longer one wrapped in whole words onto the cells no other line needs, in order; what still does
    not fit is cut after its last whole word that fits, ending in ``"."`` (:func:`_fitted`)."""
    letters = _letters(7)
    spare = room - len(lines)
    shown: list[str] = []
    for line in lines[:room]:
        parts = _wrap(line, letters) if len(line) > letters else [line]
        take = min(len(parts), 1 + max(0, spare))
        spare -= take - 1
        shown += parts[: take - 1] + [" ".join(parts[take - 1 :])]
    return shown


def _width(text: str, font: PanelFont) -> float:
    return font.getlength(text)


def _fitted(text: str, width: int) -> tuple[str, int]:
    """``text`` as it fits ``width`` pixels in the text font: ``(text, advance)``, the advance (px a letter) 8,
    else 7 (in :func:`narrow_font`, a pixel closer), else the text cut at its last whole
    word that fits (or letter), ending in ``"."``."""
    letters = len(text)
    if letters * 8 - 1 <= width:
        return text, 8
    if letters * 7 - 1 <= width:
        return text, 7
    most = (width + 1) // 7 - 1  # letters that fit, the "." after them
    cut = text[:most].rstrip()
    if " " in cut and text[most : most + 1] not in ("", " "):
        cut = cut[: cut.rindex(" ")].rstrip() or cut
    return cut + ".", 7


def _draw_text(draw: ImageDraw.ImageDraw, x: float, y: int, text: str, advance: int, fill: int = 1) -> None:
    """``text`` in the text font from ``x`` with its cell's top at ``y``, ``advance`` px a letter."""
    if advance == 8:
        draw.text((x, y), text, font=text_font(), fill=fill)
        return
    font = narrow_font()
    for index, letter in enumerate(text):
        draw.text((x + index * advance, y), letter, font=font, fill=fill)


def _centred(draw: ImageDraw.ImageDraw, y: int, text: str) -> None:
    """One line of text centred on the panel, its cell's top at ``y``."""
    text, advance = _fitted(text, PANEL_WIDTH - 2 * MARGIN)
    _draw_text(draw, (PANEL_WIDTH - len(text) * advance + 1) // 2, y, text, advance)


def _wrap(text: str, letters: int) -> list[str]:
    """``text`` in lines of at most ``letters`` letters, broken between whole words (a word longer than a line
    is broken where the line ends); a newline in ``text`` always starts a line."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            while len(word) > letters:
                if line:
                    lines.append(line)
                    line = ""
                lines.append(word[:letters])
                word = word[letters:]
            candidate = f"{line} {word}" if line else word
            if len(candidate) <= letters:
                line = candidate
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines


def wrap_message(text: str) -> list[str]:
    """``text`` (a refusal, a note) wrapped in whole words for a panel's message: the lines as drawn. In order of
    preference: three lines of 15 letters (8 px each) under the name, three of 17 (7 px each), four of 15 or 17
    over the whole panel (the header's rows too); only when even four lines of 17 cannot hold it does the last
    line end in ``"..."`` after its last whole word that fits (the full text is on the touchscreen)."""
    text = _ascii(text)
    for most in (len(ZONES.without_figure), len(ZONES.full_message)):
        for advance in (8, 7):
            lines = _wrap(text, _letters(advance))
            if len(lines) <= most:
                return lines
    letters = _letters(7)
    lines = lines[:most]
    last = lines[-1]
    while last and len(last) + 3 > letters:
        last = last[: last.rindex(" ")] if " " in last else last[:-1]
    lines[-1] = last.rstrip(" ,;:") + "..."
    return lines


def _letters(advance: int) -> int:
    """Letters a line holds between the margins at ``advance`` px a letter (15 at 8 px, 17 at 7 px)."""
    return (PANEL_WIDTH - 2 * MARGIN + 1) // advance


def _shape(draw: ImageDraw.ImageDraw, shape: str, x: int, y: int, size: int = 9) -> None:
    """The seat's shape (:func:`companion.config.seat_shape`) in a ``size``-pixel square from ``(x, y)``."""
    last = size - 1
    if shape == "circle":
        draw.ellipse((x, y, x + last, y + last), fill=1)
    elif shape == "square":
        draw.rectangle((x + 1, y + 1, x + last - 1, y + last - 1), fill=1)
    elif shape == "diamond":
        half = last // 2
        draw.polygon([(x + half, y), (x + last, y + half), (x + half, y + last), (x, y + half)], fill=1)
    elif shape == "cross":
        third = size // 3
        draw.rectangle((x + third, y, x + last - third, y + last), fill=1)
        draw.rectangle((x, y + third, x + last, y + last - third), fill=1)


#: Rendered layers kept (a header, a figure, the lines under it; about 1 KB each): most of a panel stays the same
#: from one move to the next, so a cash change draws only its new figure.
LAYER_CACHE = 256


def _blank() -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("1", (PANEL_WIDTH, PANEL_HEIGHT), 0)
    return image, ImageDraw.Draw(image)


@lru_cache(maxsize=LAYER_CACHE)
def _header_layer(name: str, turn: bool, badge: str, shape: str) -> Image.Image:
    """Rows 0–12: the turn marker (a solid triangle), the seat's shape, the name and the badge in inverse video
    at the right. A name too long for the room left is cut, ending in ``"."``. Read only: a cached layer."""
    image, draw = _blank()
    x = 1
    if turn:
        draw.polygon([(x, 1), (x, 11), (x + 5, 6)], fill=1)
        x += 8
    if shape:
        _shape(draw, shape, x, 2)
        x += 12
    right = PANEL_WIDTH - 1
    if badge:
        badge, advance = _fitted(_ascii(badge), 40)
        left = right - len(badge) * advance - 2
        draw.rectangle((left, 0, right - 1, 12), fill=1)
        _draw_text(draw, left + 2, -1, badge, advance, fill=0)
        right = left - 3
    text, advance = _fitted(_ascii(name), right - x)
    _draw_text(draw, x, -1, text, advance)
    return image


@lru_cache(maxsize=LAYER_CACHE)
def _figure_layer(big: str) -> Image.Image:
    """The headline figure centred in rows 14–33, 24 px (a figure wider than the panel in the largest of
    :data:`FIGURE_SIZES` that fits), its baseline on row 29 whatever the size. Read only: a cached layer."""
    image, draw = _blank()
    for size in FIGURE_SIZES:
        font = panel_font(size)
        if _width(big, font) <= PANEL_WIDTH - 2 * MARGIN:
            break
    baseline = _ink(font, "H")[3]  # the row under the capitals, in the glyph cell
    draw.text(((PANEL_WIDTH - _width(big, font)) // 2, 30 - baseline), big, font=font, fill=1)
    return image


@lru_cache(maxsize=LAYER_CACHE)
def _lines_layer(lines: tuple[str, ...], cells: tuple[int, ...]) -> Image.Image:
    """``lines`` centred, each in its cell (:class:`Zones`). Read only: a cached layer."""
    image, draw = _blank()
    for line, cell in zip(lines, cells):
        _centred(draw, cell, line)
    return image


@lru_cache(maxsize=LAYER_CACHE)
def _message_layer(message: str) -> Image.Image:
    """A message (:func:`wrap_message`) under the header, or on the whole panel when it needs four lines.
    Read only: a cached layer."""
    image, draw = _blank()
    lines = wrap_message(message)
    cells = ZONES.full_message if len(lines) > len(ZONES.without_figure) else ZONES.without_figure
    advance = 8 if all(len(line) <= _letters(8) for line in lines) else 7  # one letter width for the message
    for line, cell in zip(lines, cells):
        _draw_text(draw, (PANEL_WIDTH - len(line) * advance + 1) // 2, cell, line, advance)
    return image


def _centred_message(message: str) -> Image.Image:
    """A message alone on the panel (idle and exit screens): wrapped in whole words and centred, in the largest
    of 24, 20, 16 and 14 px whose lines fit."""
    image, draw = _blank()
    text = _ascii(message)
    for size in (24, 20, 16, 14):
        font = panel_font(size)
        letters = int((PANEL_WIDTH - 2 * MARGIN) // _width("0", font))
        lines = _wrap(text, letters)
        box = _ink(font, "Hg")
        step = box[3] - box[1] + 2
        if len(lines) * step <= PANEL_HEIGHT - 2:
            break
    lines = lines[: (PANEL_HEIGHT - 2) // step]
    y = (PANEL_HEIGHT - 1 - step * len(lines)) // 2 - box[1] + 1
    for line in lines:
        draw.text(((PANEL_WIDTH - _width(line, font)) // 2, y), line, font=font, fill=1)
        y += step
    return image


def render_player_panel(view: PlayerView | None, *, message: str = "") -> Image.Image:
    """Draw one player's panel from what its :class:`PlayerView` carries, whatever the game, in fixed zones
    (:data:`ZONES`): on top a turn marker, the seat's shape (:func:`companion.config.seat_shape` of
    ``view.colour``), the name and the view's ``panel_badge`` (a short word in inverse video, e.g. ``"BNN"``);
    then ``view.headline`` (the game's big figure: ``"$31,000"``, ``"Vitality 3"``; without one, the ``balance``
    in dollars, as every ``PlayerView`` may carry) always in 24 px, and underneath up to two of
    ``view.panel_lines`` (three without a figure), or else the first track as ``"<label> <value>"``. With
    ``message`` (e.g. ``"Refused: ABS has $2,000, cannot pay $5,000"``) the body shows the message
    (:func:`wrap_message`) instead of the figures. ``view=None`` draws ``message`` alone (idle and exit screens).
    Returns a new 128×64 mode-"1" image.

    Built from cached layers (:data:`LAYER_CACHE`), each drawn on its own blank image and laid over the others
    (lighting what it lights): the zones do not overlap, so this is the very picture drawing them in turn would
    give; a cash change draws only its new figure."""
    if view is None:
        return _centred_message(message)
    image = Image.new("1", (PANEL_WIDTH, PANEL_HEIGHT), 0)
    cells = ZONES.line_cells(view, message)
    layers = []
    if not (message and cells == ZONES.full_message):
        layers.append(_header_layer(view.name, view.turn, view.panel_badge, seat_shape(view.colour)))
    if message:
        layers.append(_message_layer(message))
    else:
        big, lines = _figure_and_lines(view)
        if big:
            layers.append(_figure_layer(big))
        if lines:
            layers.append(
                _lines_layer(tuple(fit_lines(lines, len(ZONES.under_figure if big else ZONES.without_figure))), cells)
            )
        elif view.tracks:
            track = view.tracks[0]
            layers.append(_lines_layer((_ascii(f"{track.label} {track.value}"),), cells))
    for layer in layers:
        image.paste(1, (0, 0), layer)  # light what the layer lights
    return image


def render_private_panel(title: str, lines: Sequence[str]) -> Image.Image:
    """Draw a player's private page (a peek, TV Wars 9.1): ``title`` in inverse video on rows 0–12 (e.g. ``"ABS
    PRIVATE"``) and ``lines`` (plain ASCII) word-wrapped underneath in the text font, three lines of up to 17
    letters (7 px each); what still does not fit ends in ``"..."``. Only ever shown on that player's own panel.
    Returns a 128×64 mode-"1" image. :func:`render_private_pages` shows the rest on further pages instead."""
    wrapped = _private_lines(lines)
    cells = ZONES.without_figure
    if len(wrapped) > len(cells):
        letters = _private_letters()
        wrapped = wrapped[: len(cells)]
        last = wrapped[-1]
        while last and len(last) + 3 > letters:
            last = last[:-1]
        wrapped[-1] = last + "..."
    return _private_page(title, wrapped)


def render_private_pages(title: str, lines: Sequence[str]) -> list[Image.Image]:
    """A private page too long for one panel as several (issue 18: a network's eleven tiles with their ids do not
    fit three lines): ``lines`` word-wrapped as :func:`render_private_panel` does, three to a page, the title
    followed by the page's number (``"ABS 1/3"``) when there is more than one. The bank shows them in turn
    (:data:`PRIVATE_PAGE_SECONDS` each). Returns at least one 128×64 mode-"1" image."""
    wrapped = _private_lines(lines)
    rows = len(ZONES.without_figure)
    pages = [wrapped[start : start + rows] for start in range(0, len(wrapped), rows)] or [[]]
    if len(pages) == 1:
        return [_private_page(title, pages[0])]
    return [_private_page(f"{title} {n}/{len(pages)}", page) for n, page in enumerate(pages, 1)]


def _private_letters() -> int:
    return (PANEL_WIDTH - 2 + 1) // 7


def _private_lines(lines: Sequence[str]) -> list[str]:
    letters = _private_letters()
    return [part for line in lines for part in _wrap(_ascii(line), letters)]


def _private_page(title: str, wrapped: Sequence[str]) -> Image.Image:
    image, draw = _blank()
    draw.rectangle((0, 0, PANEL_WIDTH - 1, 12), fill=1)
    head, advance = _fitted(_ascii(title), PANEL_WIDTH - 2 * MARGIN)
    _draw_text(draw, (PANEL_WIDTH - len(head) * advance + 1) // 2, -1, head, advance, fill=0)
    for line, cell in zip(wrapped, ZONES.without_figure):
        _draw_text(draw, 1, cell, line, 7)
    return image


def render_qr_panel(title: str, lines: Sequence[str], matrix: Sequence[Sequence[bool]]) -> Image.Image:
    """Draw a pairing page: the QR code ``matrix`` (rows of modules, ``True`` dark, no quiet zone) on the left 64
    columns, dark modules on a lit square with at least 2 px of lit quiet zone (2 px a module for a version-3 code,
    1 px up to version 12), and ``title`` and ``lines`` (plain ASCII, word-wrapped, 9 letters a line) on the right.
    Returns a 128x64 mode-"1" image. Raises ``ValueError`` for a code too large for 64 px."""
    image, draw = _blank()
    modules = len(matrix)
    scale = (PANEL_HEIGHT - 4) // modules if modules else 0
    if scale < 1:
        raise ValueError(f"a QR code of {modules} modules does not fit {PANEL_HEIGHT} px")
    size = modules * scale
    quiet = (PANEL_HEIGHT - size) // 2
    draw.rectangle((0, 0, PANEL_HEIGHT - 1, PANEL_HEIGHT - 1), fill=1)
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                left, top = quiet + x * scale, quiet + y * scale
                draw.rectangle((left, top, left + scale - 1, top + scale - 1), fill=0)
    letters = (PANEL_WIDTH - PANEL_HEIGHT - 2) // 7
    wrapped = [part for line in (title, *lines) for part in _wrap(_ascii(line), letters)]
    for index, line in enumerate(wrapped[:5]):
        _draw_text(draw, PANEL_HEIGHT + 2, index * 12 - 1, line, 7)
    return image


def not_answering_text(seats: Sequence[int]) -> str:
    """The touchscreen's words for the panels (seat indexes from 0) that are not answering:
    ``[2]`` → ``"Panel 3 is not answering"``; ``[0, 2]`` → ``"Panels 1 and 3 are not answering"``;
    ``[]`` → ``""``."""
    seats = list(seats)
    if not seats:
        return ""
    return (
        f"{noun(len(seats), 'Panel')} {and_join([str(seat + 1) for seat in seats])} "
        f"{verb(len(seats), 'is', 'are')} not answering"
    )


class PanelBank:
    """One panel per seat (luma devices; emulated ``dummy`` ones by default), redrawn on a worker thread.

    ``show(views)`` (any thread; cheap) hands over the latest views, one per seat (``None`` = seat not
    playing); the worker redraws only panels whose view changed. ``frames()`` returns
    ``(version, [PIL image per seat])`` for the simulator window. ``close()`` draws each panel's exit
    screen and stops the worker; safe to call twice.

    One bad panel never holds up the others. A frame whose ``display`` raises is drawn again at once, up to
    ``frame_retries`` times; if it still fails the panel is *not answering* (:meth:`degraded`,
    :meth:`trouble`) and is tried again after ``retry_first`` seconds, doubling up to ``retry_max``, until a
    frame goes through (a :class:`hardware.panel_devices.LumaPanel` that did not answer at boot starts
    itself up on such a try). A panel that draws but needed its writes sent again (its ``resent`` count
    grew) or its frame redrawn is *unsteady*. Each run of either is logged once when it starts and once
    when it ends ("works again", "writes cleanly again"), never per retry.
    """

    def __init__(
        self,
        seats: int | None = None,
        *,
        devices: Sequence | None = None,
        retry_first: float = RETRY_FIRST,
        retry_max: float = RETRY_MAX,
        frame_retries: int = FRAME_RETRIES,
    ) -> None:
        if devices is None:
            devices = [dummy(width=PANEL_WIDTH, height=PANEL_HEIGHT, mode="1") for _ in range(seats or 0)]
        self.devices = list(devices)
        for device in self.devices:
            device.persist = True  # luma clears panels at exit; ours keep their exit screen
        self.retry_first, self.retry_max, self.frame_retries = retry_first, retry_max, frame_retries
        seats = len(self.devices)
        self._shown: list[object] = [object()] * seats
        self._wanted: list[PlayerView | None] = [None] * seats
        mutex = threading.Lock()
        self._lock = threading.Condition(mutex)  # the worker waits on it for something to draw
        self._booked = threading.Condition(mutex)  # notified each time the worker books a frame's outcome
        self._version = 0
        self._frames = [render_player_panel(None, message="Tabletop\nCompanion") for _ in range(seats)]
        self._messages: dict[int, tuple[str, float]] = {}
        self._override: tuple[list[Image.Image], float] = ([], 0.0)
        #: seat -> (its private pages, shown until, shown since): the pages take turns (PRIVATE_PAGE_SECONDS)
        self._private: dict[int, tuple[list[Image.Image], float, float]] = {}
        self._failures = [0] * seats  # failed tries in the panel's current run of not answering
        self._retry_at = [0.0] * seats
        self._unsteady = [0] * seats  # writes resent and frames redrawn since it last drew cleanly
        self._trouble: tuple[int, str] = (0, "")
        self._stopping = False
        self._thread = threading.Thread(target=self._work, name="panels", daemon=True)
        self._thread.start()

    def show(self, views: Sequence[PlayerView | None]) -> None:
        """Ask for ``views`` (one per seat, extra seats blank) to be drawn."""
        with self._lock:
            self._wanted = list(views) + [None] * (len(self.devices) - len(views))
            self._lock.notify()

    def flash(self, seat: int, message: str, seconds: float = 4.0) -> None:
        """Show ``message`` on ``seat``'s panel (under the player's name) for ``seconds``, then the figures."""
        with self._lock:
            if 0 <= seat < len(self.devices):
                self._messages[seat] = (message, time.monotonic() + seconds)
                self._lock.notify()

    def show_private(self, seat: int, title: str, lines: Sequence[str], seconds: float = 8.0) -> None:
        """Show a private page (:func:`render_private_panel`) on ``seat``'s own panel for at most ``seconds``
        (a peek ends earlier with :meth:`hide_private`, when the button is released). Display only."""
        pages = render_private_pages(title, lines)
        with self._lock:
            if 0 <= seat < len(self.devices):
                now = time.monotonic()
                self._private[seat] = (pages, now + seconds, now)
                self._lock.notify()

    def show_private_image(self, seat: int, image: Image.Image, seconds: float = 60.0) -> None:
        """Show ``image`` (128x64, e.g. :func:`render_qr_panel`, a pairing QR code) as ``seat``'s private page for at
        most ``seconds`` (:meth:`hide_private` ends it). Display only."""
        with self._lock:
            if 0 <= seat < len(self.devices):
                now = time.monotonic()
                self._private[seat] = ([image], now + seconds, now)
                self._lock.notify()

    def hide_private(self, seat: int) -> None:
        """End ``seat``'s private page now (back to its public figures)."""
        with self._lock:
            if self._private.pop(seat, None) is not None:
                self._lock.notify()

    def private_showing(self, seat: int) -> bool:
        """Whether ``seat``'s panel is showing a private page now."""
        with self._lock:
            shown = self._private.get(seat)
            return shown is not None and time.monotonic() < shown[1]

    def show_images(self, images: Sequence[Image.Image], seconds: float) -> None:
        """Show ``images`` (one 128×64 picture per seat, e.g. self-test patterns) for ``seconds``."""
        with self._lock:
            self._override = (list(images), time.monotonic() + seconds)
            self._lock.notify()

    def _wanted_picture(self, index: int):
        """What seat ``index`` should show now: ``(view, message)`` or ``("image", picture)``."""
        images, until = self._override
        if index < len(images):
            if time.monotonic() < until:
                return ("image", images[index])
            self._override = ([], 0.0)
        private = self._private.get(index)
        if private is not None:
            pages, until, since = private
            now = time.monotonic()
            if now < until:
                return ("image", pages[int((now - since) / PRIVATE_PAGE_SECONDS) % len(pages)])
            del self._private[index]
        view = self._wanted[index]
        message, until = self._messages.get(index, ("", 0.0))
        if message and time.monotonic() >= until:
            del self._messages[index]
            message = ""
        return (view, message) if view is not None else (None, message or "free seat")

    def _pending(self) -> list[int]:
        """Seats whose wanted view is not drawn yet and whose retry time (if failing) has come."""
        now = time.monotonic()
        return [
            i
            for i in range(len(self.devices))
            if self._wanted_picture(i) != self._shown[i] and self._retry_at[i] <= now
        ]

    def _work(self) -> None:
        while True:
            with self._lock:
                while not self._stopping and not self._pending():
                    now = time.monotonic()
                    waits = [t - now for i, t in enumerate(self._retry_at) if t > now]
                    waits += [until - now for _, until in self._messages.values()]
                    waits += [until - now for _, until, _ in self._private.values()]
                    waits += [  # the next page of a private page of several
                        PRIVATE_PAGE_SECONDS - (now - since) % PRIVATE_PAGE_SECONDS
                        for pages, _, since in self._private.values()
                        if len(pages) > 1
                    ]
                    if self._override[0]:
                        waits.append(self._override[1] - now)
                    self._lock.wait(timeout=max(0.01, min(waits)) if waits else None)
                if self._stopping:
                    return
                work = [(i, self._wanted_picture(i)) for i in self._pending()]
            for index, picture in work:
                if picture[0] == "image":
                    image = picture[1]
                else:
                    image = render_player_panel(picture[0], message=picture[1])
                self._draw(index, picture, image)

    def _draw(self, index: int, picture, image: Image.Image) -> None:
        """Send ``image`` to panel ``index`` (worker thread): at once again on failure, up to
        ``frame_retries`` times unless the panel is already not answering; then book the outcome."""
        device = self.devices[index]
        resent_before = getattr(device, "resent", 0)
        error = None
        for redraws in range(1 if self._failures[index] else 1 + self.frame_retries):
            try:
                device.display(image)
                break
            except Exception as failure:  # a failing panel must not stop the others
                error = failure
        else:
            with self._lock:
                self._failures[index] += 1
                delay = min(self.retry_max, self.retry_first * 2 ** min(self._failures[index] - 1, 32))
                self._retry_at[index] = time.monotonic() + delay
                first = self._failures[index] == 1
                if first:
                    self._trouble_changed()
                self._booked.notify_all()
            if first:
                log.warning(
                    "panel %d failed to draw (%s); retrying with growing delays, the other panels carry on",
                    index + 1,
                    error,
                )
            return
        with self._lock:
            recovered = self._failures[index]
            self._failures[index] = 0
            self._retry_at[index] = 0.0
            if recovered:
                self._trouble_changed()
            self._shown[index] = picture
            self._frames[index] = image
            self._version += 1
            self._booked.notify_all()
        if recovered:
            log.info("panel %d works again after %d failed tries", index + 1, recovered)
        hiccups = redraws + getattr(device, "resent", 0) - resent_before
        if hiccups:
            if not self._unsteady[index]:
                log.warning(
                    "panel %d: some writes fail (%s) and are sent again; it still shows every frame",
                    index + 1,
                    error or getattr(device, "last_error", None),
                )
            self._unsteady[index] += hiccups
        elif self._unsteady[index]:
            log.info(
                "panel %d writes cleanly again (%d writes or frames were sent again)", index + 1, self._unsteady[index]
            )
            self._unsteady[index] = 0

    def _trouble_changed(self) -> None:
        """The set of panels not answering changed (lock held)."""
        self._trouble = (
            self._trouble[0] + 1,
            not_answering_text([i for i, failures in enumerate(self._failures) if failures]),
        )

    def trouble(self) -> tuple[int, str]:
        """``(version, message)`` for the touchscreen: ``message`` names the panels not answering now
        (:func:`not_answering_text`, ``""`` when all answer) and ``version`` grows each time that set changes,
        so a screen polling this on its clock shows each message once. Cheap: no allocation."""
        with self._lock:
            return self._trouble

    def degraded(self) -> list[int]:
        """Seat indexes (from 0) of the panels not answering right now: their latest frame failed even after
        its immediate redraws, and they are being tried again with growing delays."""
        with self._lock:
            return [i for i, failures in enumerate(self._failures) if failures]

    def frames(self) -> tuple[int, list[Image.Image]]:
        """``(version, images)``; ``version`` grows each time any panel is redrawn."""
        with self._lock:
            return self._version, list(self._frames)

    def wait_drawn(self, timeout: float) -> bool:
        """Block until the worker has nothing to draw right now (every wanted picture is on its panel, except
        on panels not answering that wait for their next try), at most ``timeout`` seconds; True if so.
        Woken by each frame the worker finishes, so it returns as soon as the last one is sent. The kiosk
        waits here after a move, so that the panels are drawn before the screen is (the two would otherwise
        share the interpreter and each slow the other down)."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while self._pending() and not self._stopping:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self._booked.wait(remaining)
            return True

    def wait_idle(self, timeout: float = 2.0) -> bool:
        """Block until every wanted view is drawn (tests and the exit screen). Returns False on timeout."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                if not self._pending() and all(
                    self._wanted_picture(i) == self._shown[i] for i in range(len(self.devices))
                ):
                    return True
            time.sleep(0.01)
        return False

    def close(self, message: str = "Companion\nstopped") -> None:
        """Stop the worker and draw ``message`` on every panel (the deliberate exit screen)."""
        with self._lock:
            if self._stopping:
                return
            self._stopping = True
            self._lock.notify()
        self._thread.join(timeout=2)
        for index, device in enumerate(self.devices):
            try:
                image = render_player_panel(None, message=message)
                device.display(image)
                with self._lock:
                    self._frames[index] = image
                    self._version += 1
            except Exception as error:
                if self._failures[index]:  # already logged as not answering
                    log.warning("panel %d failed to draw its exit screen (%s)", index + 1, error)
                else:
                    log.exception("panel %d failed to draw its exit screen", index + 1)
