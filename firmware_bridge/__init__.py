"""Serial dice and tile readers (pyserial): the adapter between reader boards and the table.

* :mod:`firmware_bridge.protocol` — the wire format (PROTOCOL.md): pure encode/decode, :class:`FrameParser`;
* :mod:`firmware_bridge.reader` — :class:`ReaderConnection`: one thread per reader, found by stable
  identity, exclusive open, hello gating, acknowledgements, reconnection; its protocol object
  :class:`ReaderSession` is pure;
* :mod:`firmware_bridge.dice_match` — readings against the pending dice request (answer, hold
  unclaimed, ask for confirmation) and the :class:`RollTray` that holds them;
* :mod:`firmware_bridge.service` — all readers of a kiosk, with a simulated dice reader on a desktop;
* :mod:`firmware_bridge.simulator` — a device on a pseudo-terminal (``python -m firmware_bridge.simulator``);
* ``firmware_bridge/firmware/`` — the reference MicroPython firmware and its shared pure core.

Submodules are imported on use, so ``import firmware_bridge`` is cheap. The tile registry is core
(:mod:`companion.tiles`); the dice delivery queue is :class:`companion.dice.DiceReaderPort`.
"""
