"""Opening the player panels: luma.oled devices over I²C (optionally behind a TCA9548A) or SPI.

Layers as in luma: an *interface* (luma's ``i2c``/``spi``, wrapped in :class:`MuxedSerial` when the
companion switches a TCA9548A channel itself), a *device* (``ssd1306``, ``sh1106`` or ``ssd1309``, 128×64),
and the drawing in :mod:`hardware.panels`. With the kernel's i2c-mux overlay each channel is its own bus and
no switching is needed. Several panels share address 0x3C only behind the multiplexer; the config refuses
layouts where two panels would answer at once (see :func:`companion.config.parse_config`).
"""

from __future__ import annotations

import logging
import threading
from typing import Any, Callable

from luma.core.device import dummy

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
        self.current = None          # unknown until the write succeeds
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


def open_panels(config: Config, *, simulate: bool = False,
                open_bus: Callable[[int], Any] | None = None, spi_factory: Callable[..., Any] | None = None) -> list:
    """One luma device per seat, in seat order.

    Emulated panels (``panels.driver = "emulated"`` or ``simulate``) are luma's ``dummy`` devices. Real
    panels are opened over I²C or SPI as configured. ``open_bus(n)`` returns an smbus2-like bus for bus
    ``n`` (default: luma opens ``/dev/i2c-n`` itself); ``spi_factory(**kwargs)`` replaces luma's ``spi``
    interface (tests). Raises :class:`PanelUnavailable` naming the seat and the reason.
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
        mux = MuxSwitch(bus(config.multiplexer_bus), config.multiplexer_address)
    devices = []
    for index, seat in enumerate(config.seats):
        panel = seat.panel
        try:
            if config.panel_interface == "spi":
                make_spi = spi_factory or spi
                serial = make_spi(port=0, device=panel.spi_device, gpio_DC=panel.dc, gpio_RST=panel.reset)
            elif mux is not None and panel.channel is not None:
                inner = i2c(bus=bus(config.multiplexer_bus), address=panel.address) if open_bus else \
                    i2c(port=config.multiplexer_bus, address=panel.address)
                serial = MuxedSerial(inner, mux, panel.channel)
            else:
                serial = i2c(bus=bus(panel.bus), address=panel.address) if open_bus else \
                    i2c(port=panel.bus, address=panel.address)
            devices.append(device_class(serial, width=PANEL_WIDTH, height=PANEL_HEIGHT, rotate=config.panel_rotate))
        except Exception as error:
            for device in devices:
                _quiet_cleanup(device)
            raise PanelUnavailable(f"{seat.name}'s panel ({config.panel_driver} {_where(config, panel)}) "
                                   f"cannot be opened: {error}") from error
    log.info("opened %d %s panels (%s%s)", len(devices), config.panel_driver, config.panel_interface,
             f", multiplexer {config.multiplexer}" if config.panel_interface == "i2c" else "")
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
