"""Opening the player panels: luma.oled devices over I²C (optionally behind a TCA9548A) or SPI.

Layers as in luma: an *interface* (luma's ``i2c``/``spi``, wrapped in :class:`MuxedSerial` when the
companion switches a TCA9548A channel itself, and in :class:`SteadySerial`, which sends a failed write
again), a *device* (``ssd1306``, ``sh1106`` or ``ssd1309``, 128×64, inside a :class:`LumaPanel` that starts
it up again when it did not answer and sends only the part of a frame that changed), and the drawing in
:mod:`hardware.panels`. One panel that does not
answer never stops the others: only an interface that cannot be opened at all fails :func:`open_panels`.
With the kernel's i2c-mux overlay each channel is its own bus and no switching is needed. Several panels
share address 0x3C only behind the multiplexer; the config refuses layouts where two panels would answer
at once (see :func:`companion.config.parse_config`).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from luma.core.device import dummy
from luma.core.error import DeviceNotFoundError
from luma.core.framebuffer import diff_to_previous
from PIL import Image

from companion.config import Config
from companion.errors import CompanionError

log = logging.getLogger("companion.panels")

PANEL_WIDTH, PANEL_HEIGHT = 128, 64


class PanelUnavailable(CompanionError, RuntimeError):
    """A configured panel could not be opened (no I²C bus, no device answering, no permission)."""


class MuxSwitch:
    """A TCA9548A I²C multiplexer at ``address`` on ``bus`` (an smbus2-like object with ``write_byte``).

    :meth:`select` writes the channel mask only when the channel changes. ``lock`` must be held around a
    select and the write that follows it, so that two drawing threads never interleave (MuxedSerial does).
    """

    def __init__(self, bus: Any, address: int = 0x70) -> None:
        self.bus, self.address = bus, address
        self.lock = threading.RLock()
        self.current: int | None = None

    def select(self, channel: int) -> None:
        """Route the bus to ``channel`` (0–7)."""
        if self.current == channel:
            return
        self.current = None  # unknown until the write succeeds
        self.bus.write_byte(self.address, 1 << channel)
        self.current = channel


class MuxedSerial:
    """A luma serial interface behind a multiplexer channel: every ``command``/``data`` selects the channel
    first, under the multiplexer's lock, then forwards to ``inner``."""

    def __init__(self, inner: Any, mux: MuxSwitch, channel: int) -> None:
        self.inner, self.mux, self.channel = inner, mux, channel

    def command(self, *cmd: int) -> None:
        """Send command bytes on this panel's channel."""
        with self.mux.lock:
            self.mux.select(self.channel)
            self.inner.command(*cmd)

    def data(self, data) -> None:
        """Send display data on this panel's channel."""
        with self.mux.lock:
            self.mux.select(self.channel)
            self.inner.data(data)

    def cleanup(self) -> None:
        """Release the inner interface."""
        self.inner.cleanup()


def _luma_device_class(driver: str):
    from luma.oled import device as oled

    return {"ssd1306": oled.ssd1306, "sh1106": oled.sh1106, "ssd1309": oled.ssd1309}[driver]


#: What a panel that does not answer raises: the bus's OSError (EREMOTEIO for a NACK, EIO, ETIMEDOUT), which
#: luma's ``i2c.command`` turns into its DeviceNotFoundError.
NOT_ANSWERING = (OSError, DeviceNotFoundError)
DISPLAYOFF = 0xAE  # the first command of every driver's start-up sequence (ssd1306, sh1106, ssd1309)


class SteadySerial:
    """A luma serial interface whose failed writes are sent again at once, up to ``retries`` more times each.

    Every ``command`` call is one I²C transaction; ``data`` goes out in blocks of ``block`` bytes, one
    transaction each (``None``: one call to ``inner.data``, which luma's own ``i2c`` sends as one transfer
    when it opened the bus itself), so a failure resends only the block that failed, not the blocks before
    it. The panels acknowledge every byte once addressed, so a write that fails is one the panel did not
    take (a NACK of its address): sending exactly that write again keeps the frame whole, which resending a
    whole SSD1306 frame (33 transactions through an smbus object) on a bus failing one write in seven would
    almost never do. A write still failing after its retries raises (:data:`NOT_ANSWERING`); the caller
    retries the frame. ``resent`` counts the writes sent again, ``last_error`` is the latest failure.
    One thread writes to one panel at a time (the panel worker).
    """

    def __init__(self, inner: Any, *, retries: int = 3, block: int | None = None) -> None:
        self.inner, self.retries, self.block = inner, retries, block
        self.resent = 0
        self.last_error: BaseException | None = None

    def _send(self, write: Callable[..., None], *args) -> None:
        for attempt in range(self.retries + 1):
            try:
                write(*args)
                return
            except NOT_ANSWERING as error:
                self.last_error = error
                if attempt == self.retries:
                    raise
                self.resent += 1

    def command(self, *cmd: int) -> None:
        """Send command bytes (one transaction), again on failure."""
        self._send(self.inner.command, *cmd)

    def data(self, data) -> None:
        """Send display data, block by block, each block again on failure."""
        if self.block is None:
            self._send(self.inner.data, data)
            return
        for start in range(0, len(data), self.block):
            self._send(self.inner.data, data[start : start + self.block])

    def cleanup(self) -> None:
        """Release the inner interface."""
        self.inner.cleanup()


#: How luma.core's ``diff_to_previous`` splits a frame to find what changed: 4 = 2×2 parts of 64×32 pixels, whole
#: pages (8 rows) each, so the changed boxes widened to whole pages never overlap. It costs 0.13 ms a frame on a
#: desktop core; 64 parts (16×8) find a few bytes less for 1.6 ms, more than the bytes they save take on the bus.
DIFF_SEGMENTS = 4
_BIT_REVERSED = bytes(int(f"{value:08b}"[::-1], 2) for value in range(256))


def page_bytes(image: Image.Image, box: tuple[int, int, int, int]) -> bytes:
    """The display-memory bytes of ``box`` = ``(left, top, right, bottom)`` of a mode-"1" ``image``, ``top`` and
    ``bottom`` multiples of 8: page by page (8 rows) from the top, in each page one byte per column from
    ``left``, bit 0 the page's top row — the SSD1306/SH1106 memory layout. The whole of a 128×64 frame gives
    the 1,024 bytes luma's own ``ssd1306.display`` sends. Pillow does the packing (no loop per pixel)."""
    left, top, right, bottom = box
    pages = (bottom - top) // 8
    if pages <= 0 or right <= left:
        return b""
    # transposed, each row is one column from the top, 8 rows a byte with the top row as its highest bit
    columns = image.crop(box).transpose(Image.Transpose.TRANSPOSE).tobytes().translate(_BIT_REVERSED)
    return b"".join(columns[page::pages] for page in range(pages))


def whole_pages(box: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """``box`` widened up and down to whole pages: ``(3, 28, 9, 41)`` → ``(3, 24, 9, 48)``."""
    left, top, right, bottom = box
    return left, top // 8 * 8, right, -(-bottom // 8) * 8


def _window_region(device, frame: Image.Image, box: tuple[int, int, int, int]) -> None:
    """Send ``box`` (whole pages) of ``frame`` to an SSD1306/SSD1309 in horizontal addressing (as luma sets it
    up): one window (column and page range) and its bytes, which fill the window page by page."""
    left, top, right, bottom = box
    colstart = getattr(device, "_colstart", 0)
    device.command(
        0x21,
        colstart + left,
        colstart + right - 1,  # COLUMNADDR start, end
        0x22,
        top // 8,
        bottom // 8 - 1,
    )  # PAGEADDR start, end
    device.data(list(page_bytes(frame, box)))


def _page_region(device, frame: Image.Image, box: tuple[int, int, int, int]) -> None:
    """Send ``box`` (whole pages) of ``frame`` to an SH1106 (page addressing, as luma drives it): per page, its
    page and start column (after the panel's column offset, 2 on 128×64 modules), then that page's bytes."""
    left, top, right, bottom = box
    column = getattr(device, "_page_address_offset", 2) + left
    width = right - left
    data = page_bytes(frame, box)
    for index, page in enumerate(range(top // 8, bottom // 8)):
        device.command(0xB0 + page, column & 0x0F, 0x10 | column >> 4)  # page, low and high column nibble
        device.data(list(data[index * width : (index + 1) * width]))


def _region_sender(device_class):
    """How to send part of a frame to ``device_class``'s panels, or ``None`` (whole frames only)."""
    from luma.oled.device import sh1106, ssd1306

    if issubclass(device_class, sh1106):
        return _page_region
    if issubclass(device_class, ssd1306):  # ssd1309 too: the same memory and addressing
        return _window_region
    return None


class LumaPanel:
    """One real panel as PanelBank sees it (``width``, ``height``, ``mode``, ``size``, ``persist``,
    ``display(image)``, ``cleanup()``, ``resent``, ``last_error``): a luma ``device_class`` (ssd1306,
    sh1106, ssd1309) on a :class:`SteadySerial`, started up by :meth:`open`.

    Only what changed crosses the bus: luma.core's :class:`~luma.core.framebuffer.diff_to_previous` (which
    luma.oled's monochrome drivers do not use themselves) finds the changed box in each of
    :data:`DIFF_SEGMENTS` parts of the frame; each box, widened to whole pages, goes out as one window (SSD1306,
    SSD1309) or page by page (SH1106). A cash change on a panel is about 40 data bytes instead of 1,024; an
    unchanged picture sends nothing. The first frame after a start-up, and the next one after any failed
    frame, is sent whole by luma's own ``display``.

    A panel that did not answer at boot, or whose last frame failed (it may have lost power and forgotten
    its set-up), is started up again by the next :meth:`display`, on the calling thread (the panel worker,
    which spaces its attempts with growing delays). ``where`` names it in errors, e.g. ``"PBC's panel
    (ssd1306 at 0x3C on multiplexer channel 2)"``. Errors: :class:`PanelUnavailable` when the panel does not
    answer.
    """

    width, height, mode = PANEL_WIDTH, PANEL_HEIGHT, "1"
    size = (PANEL_WIDTH, PANEL_HEIGHT)

    def __init__(self, where: str, device_class, serial: SteadySerial, **options) -> None:
        self.where, self.serial = where, serial
        self._class, self._options = device_class, options
        self._device: Any = None  # the luma device, made on the first start-up
        self._ready = False
        self._persist = False
        self._send_region = _region_sender(device_class)
        self._shown = diff_to_previous(num_segments=DIFF_SEGMENTS)  # what the panel shows (fresh: unknown)

    @property
    def answering(self) -> bool:
        """Whether the panel is started up and its last frame went through."""
        return self._ready

    @property
    def resent(self) -> int:
        """Writes sent again so far (see :class:`SteadySerial`)."""
        return self.serial.resent

    @property
    def last_error(self) -> BaseException | None:
        """The latest failed write (see :class:`SteadySerial`), or None."""
        return self.serial.last_error

    @property
    def persist(self) -> bool:
        """Whether the panel keeps its last picture at exit (luma's ``persist``)."""
        return self._persist

    @persist.setter
    def persist(self, value: bool) -> None:
        self._persist = value
        if self._device is not None:
            self._device.persist = value

    def open(self) -> None:
        """Start the panel up (luma's start-up sequence: display off, set-up, blank, display on)."""
        try:
            if self._device is None:
                # Probe first: luma keeps every device it makes until exit (an atexit hook), so a panel
                # that does not answer must cost no device object per attempt.
                self.serial.command(DISPLAYOFF)
                self._device = self._class(self.serial, **self._options)
            else:  # the same object again: one device per seat however often it is restarted
                self._class.__init__(self._device, self.serial, **self._options)
        except NOT_ANSWERING as error:
            self._ready = False
            raise PanelUnavailable(f"{self.where} is not answering: {error}") from error
        self._device.persist = self._persist
        self._shown = diff_to_previous(num_segments=DIFF_SEGMENTS)  # start-up blanked it: the next frame goes whole
        self._ready = True

    def display(self, image) -> None:
        """Draw ``image`` (128×64, mode "1"), starting the panel up first if it is not answering yet; only the
        part that differs from the last frame is sent (see the class notes)."""
        if not self._ready:
            self.open()
        try:
            self._send(image)
        except NOT_ANSWERING as error:
            self._ready = False
            raise PanelUnavailable(f"{self.where} is not answering: {error}") from error
        except BaseException:
            self._shown = diff_to_previous(num_segments=DIFF_SEGMENTS)  # unknown now: the next frame goes whole
            raise

    def _send(self, image) -> None:
        device = self._device
        if self._send_region is None:
            device.display(image)
            return
        frame = device.preprocess(image)  # rotated as the panel is mounted
        whole = (0, 0) + frame.size
        for _, box in list(self._shown.redraw(frame)):  # consumed first: luma then keeps frame as the last one
            if box == whole:  # the first frame since start-up (a part is at most 64×32)
                device.display(image)
            else:
                self._send_region(device, frame, whole_pages(box))

    def cleanup(self) -> None:
        """Release the panel (luma's cleanup: off and blank unless ``persist``; the bus closed)."""
        if self._device is not None:
            self._device.cleanup()
        else:
            self.serial.cleanup()


def open_panels(
    config: Config,
    *,
    simulate: bool = False,
    open_bus: Callable[[int], Any] | None = None,
    spi_factory: Callable[..., Any] | None = None,
) -> list:
    """One device per seat, in seat order.

    Emulated panels (``panels.driver = "emulated"`` or ``simulate``) are luma's ``dummy`` devices. Real
    panels are :class:`LumaPanel` s over I²C or SPI as configured, each started up here; one that does not
    answer (nothing at its address or multiplexer channel) is still returned, and started up later by the
    panel worker while the others draw. ``open_bus(n)`` returns an smbus2-like bus for bus ``n`` (default:
    luma opens ``/dev/i2c-n`` itself); ``spi_factory(**kwargs)`` replaces luma's ``spi`` interface (tests).
    Raises :class:`PanelUnavailable` naming the seat (or the multiplexer) and the reason only when an
    interface itself cannot be opened (no ``/dev/i2c-1``, no permission, no SPI).
    """
    if simulate or config.panel_driver == "emulated":
        return [dummy(width=PANEL_WIDTH, height=PANEL_HEIGHT, mode="1") for _ in config.seats]
    from luma.core.interface.serial import i2c, spi

    device_class = _luma_device_class(config.panel_driver)
    buses: dict[int, Any] = {}

    def bus(number: int):
        if number not in buses:
            buses[number] = open_bus(number) if open_bus else _smbus(number)
        return buses[number]

    mux = None
    if config.panel_interface == "i2c" and config.multiplexer == "switch":
        try:
            mux = MuxSwitch(bus(config.multiplexer_bus), config.multiplexer_address)
        except Exception as error:
            raise PanelUnavailable(
                f"the I²C bus {config.multiplexer_bus} of the panels' multiplexer cannot be opened: {error}"
            ) from error
    # luma's own i2c sends a frame's data as one transfer; through an smbus object it sends 32-byte blocks
    block = 32 if open_bus and config.panel_interface == "i2c" else None
    devices: list[Any] = []
    for seat in config.seats:
        panel = seat.panel
        where = f"{seat.name}'s panel ({config.panel_driver} {_where(config, panel)})"
        try:
            if config.panel_interface == "spi":
                make_spi = spi_factory or spi
                serial = make_spi(port=0, device=panel.spi_device, gpio_DC=panel.dc, gpio_RST=panel.reset)
            elif mux is not None and panel.channel is not None:
                inner = (
                    i2c(bus=bus(config.multiplexer_bus), address=panel.address)
                    if open_bus
                    else i2c(port=config.multiplexer_bus, address=panel.address)
                )
                serial = MuxedSerial(inner, mux, panel.channel)
            else:
                serial = (
                    i2c(bus=bus(panel.bus), address=panel.address)
                    if open_bus
                    else i2c(port=panel.bus, address=panel.address)
                )
        except Exception as error:
            for device in devices:
                _quiet_cleanup(device)
            raise PanelUnavailable(f"{where} cannot be opened: {error}") from error
        device = LumaPanel(
            where,
            device_class,
            SteadySerial(serial, block=block),
            width=PANEL_WIDTH,
            height=PANEL_HEIGHT,
            rotate=config.panel_rotate,
        )
        try:
            device.open()
        except PanelUnavailable:
            pass  # the panel worker keeps trying, and says so once (hardware.panels.PanelBank)
        devices.append(device)
    answering = sum(device.answering for device in devices)
    log.info(
        "opened %d %s panels (%s%s)%s",
        len(devices),
        config.panel_driver,
        config.panel_interface,
        f", multiplexer {config.multiplexer}" if config.panel_interface == "i2c" else "",
        "" if answering == len(devices) else f"; {len(devices) - answering} not answering yet",
    )
    return devices


def _smbus(number: int):
    import smbus2

    return smbus2.SMBus(number)


def _where(config: Config, panel) -> str:
    if config.panel_interface == "spi":
        return f"on SPI CE{panel.spi_device}, D/C GPIO {panel.dc}"
    if config.multiplexer == "switch" and panel.channel is not None:
        return f"at 0x{panel.address:02X} on multiplexer channel {panel.channel}"
    return f"at 0x{panel.address:02X} on I²C bus {panel.bus}"


def _quiet_cleanup(device) -> None:
    try:
        device.cleanup()
    except Exception:
        pass
