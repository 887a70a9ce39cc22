"""All the readers of one kiosk, started and stopped together; on a desktop, a simulated dice reader.

The kiosk (``ui/kiosk.py``) wires this; it only wires (see the report of issue 8 for the lines)::

    port = DiceReaderPort()
    tray = RollTray(port)                                   # owner thread: tray.poll(...) every tick
    readers = ReaderService(specs, dice_port=port, on_status=..., simulate_dice=simulate).start()
    ...
    readers.stop()

Callbacks run on reader threads: ``on_status(ReaderStatus)`` and ``on_tile(TileEvent)`` must hand over
to the owner thread (Kivy: ``Clock.schedule_once``), never touch the table or widgets directly.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Sequence

from companion.dice import DiceReaderPort
from firmware_bridge.reader import SETTLE_S, ReaderConnection, ReaderSpec, ReaderStatus, TileEvent, deliver_to
from firmware_bridge.simulator import DeviceSimulator

log = logging.getLogger("firmware_bridge.service")


class ReaderService:
    """One :class:`ReaderConnection` per spec, plus a :class:`DeviceSimulator` dice reader when
    ``simulate_dice`` is true and no dice reader is configured (the desktop simulator's default).

    ``dice_port`` receives every dice reader's readings. ``start()`` returns self; ``stop(timeout=1.0)``
    ends every reader thread (they are asked together, so the whole stop takes about one read timeout)
    and the simulator; safe to call twice. The service is a context manager.
    """

    def __init__(
        self,
        specs: Sequence[ReaderSpec] = (),
        *,
        dice_port: DiceReaderPort,
        on_tile: Callable[[TileEvent], None] | None = None,
        on_status: Callable[[ReaderStatus], None] | None = None,
        simulate_dice: bool = False,
        settle_s: float = SETTLE_S,
    ) -> None:
        self.specs = list(specs)
        self.dice_port = dice_port
        self.on_tile, self.on_status = on_tile, on_status
        self.simulate_dice = simulate_dice
        self.settle_s = settle_s
        self.simulator: DeviceSimulator | None = None
        self.connections: list[ReaderConnection] = []

    def start(self) -> ReaderService:
        """Start the simulator (if any) and one reader thread per spec."""
        if self.connections:
            return self
        specs = list(self.specs)
        if self.simulate_dice and not any(spec.kind == "dice" for spec in specs):
            self.simulator = DeviceSimulator("dice", uid="SIM-DICE-1", hello_delay=0.3).start()
            specs.append(ReaderSpec(kind="dice", path=self.simulator.path, name="dice reader (simulated)"))
            log.info("simulated dice reader on %s", self.simulator.path)
        for spec in specs:
            self.connections.append(
                ReaderConnection(
                    spec,
                    on_dice=deliver_to(self.dice_port) if spec.kind == "dice" else None,
                    on_tile=self.on_tile if spec.kind == "tiles" else None,
                    on_status=self.on_status,
                    settle_s=self.settle_s,
                ).start()
            )
        return self

    def statuses(self) -> list[ReaderStatus]:
        """Every reader's current status, in spec order (simulated reader last)."""
        return [connection.status for connection in self.connections]

    def status_text(self) -> str:
        """One line for the screen: each reader's status text, joined by ``" · "`` (empty if none)."""
        return " · ".join(status.text for status in self.statuses())

    def simulate_roll(self, count: int, rng: random.Random | None = None) -> tuple[int, ...] | None:
        """Desktop only: roll ``count`` random dice into the simulated reader (as if rolled in the tray).
        Returns the faces, or None without a simulator or when its queue is full."""
        if self.simulator is None or not 1 <= count <= 10:
            return None
        faces = tuple((rng or random).randint(1, 6) for _ in range(count))
        return faces if self.simulator.roll(*faces) is not None else None

    def stop(self, timeout: float = 1.0) -> bool:
        """Stop every reader and the simulator; True if every reader thread ended within ``timeout``."""
        for connection in self.connections:
            connection.request_stop()
        stopped = all([connection.stop(timeout) for connection in self.connections])
        self.connections = []
        if self.simulator is not None:
            self.simulator.close()
            self.simulator = None
        return stopped

    def __enter__(self) -> ReaderService:
        return self.start()

    def __exit__(self, *exc_info) -> None:
        self.stop()
