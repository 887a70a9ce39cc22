"""Tabletop Companion core: game state, commands, events, rules engines, journal, dice and config.

This package is pure Python. It imports nothing from ``hardware``, ``ui`` or ``firmware_bridge`` and
none of kivy, gpiozero, luma or pyserial, so everything in it runs in a plain test.

Importing it is cheap: submodules are loaded only when used (``from companion.table import Table``).
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
