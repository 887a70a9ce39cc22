"""Player OLED panels (luma.oled): each player's name and figures, readable at arm's length.

Three layers, as in luma: a *device* per panel (luma.core's ``dummy`` device for the emulated panels, or
real SSD1306/SH1106/SSD1309 panels opened by :mod:`hardware.panel_devices`), a pure *layout* function
:func:`render_player_panel` that draws a :class:`companion.games.PlayerView` into a 128×64 1-bit PIL image,
and :class:`PanelBank`, which redraws on its own thread only the panels whose content changed, so the
UI thread and the table never wait for a slow I2C bus.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Sequence
from functools import lru_cache

from luma.core.device import dummy
from PIL import Image, ImageDraw, ImageFont

from companion.games import PlayerView
from companion.words import and_join, format_dollars, noun, verb

log = logging.getLogger("companion.panels")

PANEL_WIDTH, PANEL_HEIGHT = 128, 64
RETRY_FIRST, RETRY_MAX = 0.5, 10.0  # seconds between redraw attempts of a panel that is not answering
FRAME_RETRIES = 2  # immediate redraws of a frame that failed before the growing delays
PanelFont = ImageFont.FreeTypeFont | ImageFont.ImageFont  # what Pillow's load_default gives (bitmap without FreeType)
_FONTS: dict[int, PanelFont] = {}


def panel_font(size: int) -> PanelFont:
    """Pillow's bundled scalable font at ``size`` pixels (no system font needed; Pillow built without FreeType
    gives its fixed bitmap font instead)."""
    if size not in _FONTS:
        _FONTS[size] = ImageFont.load_default(size=size)
    return _FONTS[size]


def _fit(draw: ImageDraw.ImageDraw, text: str, width: int, sizes: Sequence[int]) -> PanelFont:
    for size in sizes:
        font = panel_font(size)
        if draw.textlength(text, font=font) <= width:
            return font
    return panel_font(sizes[-1])


def _wrap(draw: ImageDraw.ImageDraw, text: str, font, width: int) -> list[str]:
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            candidate = f"{line} {word}".strip()
            if draw.textlength(candidate, font=font) <= width or not line:
                line = candidate
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines


def _centred_lines(draw: ImageDraw.ImageDraw, text: str, top: int, bottom: int) -> None:
    """``text`` wrapped and centred between ``top`` and ``bottom``, in the biggest size that fits."""
    for size in (16, 14, 12, 10):
        font = panel_font(size)
        lines = _wrap(draw, text, font, PANEL_WIDTH - 4)
        step = size + 2
        if len(lines) * step <= bottom - top or size == 10:
            break
    lines = lines[: max(1, (bottom - top) // step)]
    y = top + (bottom - top - step * len(lines)) // 2
    for line in lines:
        draw.text(((PANEL_WIDTH - draw.textlength(line, font=font)) / 2, y), line, font=font, fill=1)
        y += step


#: Rendered layers kept (a header, a figure, the lines under it; about 1 KB each): FreeType drawing is most of a
#: panel's cost (2.6 ms a panel here), and most of a panel stays the same from one move to the next.
LAYER_CACHE = 256


def _blank() -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("1", (PANEL_WIDTH, PANEL_HEIGHT), 0)
    return image, ImageDraw.Draw(image)


@lru_cache(maxsize=LAYER_CACHE)
def _header_layer(name: str, turn: bool, badge: str) -> Image.Image:
    """The turn marker, the name, the badge and the rule under them (rows 0–18). Read only: a cached layer."""
    image, draw = _blank()
    name_x = 2
    if turn:  # a solid triangle: "your turn"
        draw.polygon([(1, 2), (1, 14), (8, 8)], fill=1)
        name_x = 11
    draw.text((name_x, 0), name, font=_fit(draw, name, 90 - name_x, (16, 14, 12)), fill=1)
    if badge:
        font = panel_font(12)
        x = PANEL_WIDTH - draw.textlength(badge, font=font) - 4
        draw.rectangle((x - 2, 1, PANEL_WIDTH - 1, 16), fill=1)
        draw.text((x, 2), badge, font=font, fill=0)
    draw.line((0, 18, PANEL_WIDTH, 18), fill=1)
    return image


@lru_cache(maxsize=LAYER_CACHE)
def _figure_layer(big: str, lines: int) -> Image.Image:
    """The big figure from row 20, as big as fits above ``lines`` lines. Read only: a cached layer."""
    image, draw = _blank()
    room = PANEL_HEIGHT - 20 - 14 * lines  # pixels left for the big figure above the lines
    sizes = tuple(size for size in (26, 24, 22, 20, 18, 16, 14) if size <= room) or (14,)
    font = _fit(draw, big, PANEL_WIDTH - 4, sizes)
    draw.text(((PANEL_WIDTH - draw.textlength(big, font=font)) / 2, 20), big, font=font, fill=1)
    return image


@lru_cache(maxsize=LAYER_CACHE)
def _lines_layer(lines: tuple[str, ...]) -> Image.Image:
    """``lines`` centred at the bottom, 14 rows each. Read only: a cached layer."""
    image, draw = _blank()
    y = PANEL_HEIGHT - 1 - 14 * len(lines)
    for line in lines:
        line = line.replace("\u2212", "-")
        font = _fit(draw, line, PANEL_WIDTH - 4, (13, 12, 10))
        draw.text(((PANEL_WIDTH - draw.textlength(line, font=font)) / 2, y), line, font=font, fill=1)
        y += 14
    return image


@lru_cache(maxsize=LAYER_CACHE)
def _track_layer(text: str) -> Image.Image:
    """A track's words on the bottom row. Read only: a cached layer."""
    image, draw = _blank()
    font = _fit(draw, text, PANEL_WIDTH - 4, (13, 12, 10))
    bottom = draw.textbbox((0, 0), text, font=font)[3]
    draw.text(
        ((PANEL_WIDTH - draw.textlength(text, font=font)) / 2, PANEL_HEIGHT - 1 - bottom), text, font=font, fill=1
    )
    return image


def render_player_panel(view: PlayerView | None, *, message: str = "") -> Image.Image:
    """Draw one player's panel from what its :class:`PlayerView` carries, whatever the game: a turn marker,
    the name and the view's ``panel_badge`` (a short word in inverse video, e.g. ``"BNN"``) on top,
    ``view.headline`` (the game's big figure: ``"$31,000"``, ``"Vitality 3"``; without one, the ``balance`` in
    dollars, as every ``PlayerView`` may carry) as big as fits, and underneath
    ``view.panel_lines`` or else the first track as ``"<label> <value>"``. With ``message`` (e.g.
    ``"Refused: ABS has $2,000, cannot pay $5,000"``) the body shows the message instead of the figures.
    ``view=None`` draws ``message`` alone (idle and exit screens). Returns a new 128×64 mode-"1" image.

    Built from cached layers (:data:`LAYER_CACHE`), each drawn as it would be on the panel itself: the header,
    then the figure and the lines laid over it. Only the header clears pixels (the badge's letters), inside its
    own rows, so lighting the pixels each later layer lights gives the very picture drawing them in turn would;
    a cash change draws only its new figure."""
    if view is None:
        image, draw = _blank()
        _centred_lines(draw, message, 0, PANEL_HEIGHT)
        return image
    badge = view.panel_badge
    image = _header_layer(view.name, view.turn, badge).copy()
    if message:
        _centred_lines(ImageDraw.Draw(image), message, 20, PANEL_HEIGHT)
        return image
    big = view.headline or (format_dollars(view.balance) if view.balance is not None else "")
    lines = view.panel_lines[:2] if big else view.panel_lines[:3]
    layers = []
    if big:
        layers.append(_figure_layer(big.replace("\u2212", "-"), len(lines)))  # the bundled font has no U+2212
    if lines:
        layers.append(_lines_layer(tuple(lines)))
    elif view.tracks:
        track = view.tracks[0]
        layers.append(_track_layer(f"{track.label} {track.value}"))
    for layer in layers:
        image.paste(1, (0, 0), layer)  # light what the layer lights
    return image


def render_private_panel(title: str, lines: Sequence[str]) -> Image.Image:
    """Draw a player's private page (a peek, TV Wars 9.1): ``title`` in inverse video on top (e.g. ``"ABS
    PRIVATE"``) and ``lines`` (plain ASCII) word-wrapped underneath in the biggest of 12/11/10 px that fits;
    what still does not fit ends in ``"..."``. Only ever shown on that player's own panel. Returns a 128×64
    mode-"1" image."""
    image = Image.new("1", (PANEL_WIDTH, PANEL_HEIGHT), 0)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, PANEL_WIDTH - 1, 14), fill=1)
    head = _fit(draw, title, PANEL_WIDTH - 4, (12, 10))
    draw.text(((PANEL_WIDTH - draw.textlength(title, font=head)) / 2, 1), title, font=head, fill=0)
    top, room = 16, PANEL_HEIGHT - 16
    for size in (12, 11, 10):
        font = panel_font(size)
        wrapped = [part for line in lines for part in _wrap(draw, line.replace("\u2212", "-"), font, PANEL_WIDTH - 2)]
        step = size + 1
        if len(wrapped) * step <= room or size == 10:
            break
    fits = max(1, room // step)
    if len(wrapped) > fits:
        wrapped = wrapped[:fits]
        last = wrapped[-1]
        while last and draw.textlength(last + "...", font=font) > PANEL_WIDTH - 2:
            last = last[:-1]
        wrapped[-1] = last + "..."
    y = top
    for line in wrapped:
        draw.text((1, y), line, font=font, fill=1)
        y += step
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
        self._private: dict[int, tuple[Image.Image, float]] = {}
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
        image = render_private_panel(title, lines)
        with self._lock:
            if 0 <= seat < len(self.devices):
                self._private[seat] = (image, time.monotonic() + seconds)
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
            if time.monotonic() < private[1]:
                return ("image", private[0])
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
                    waits += [until - now for _, until in self._private.values()]
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
