"""Which gpiozero pin factory to use, chosen once and logged.

``auto`` on a Raspberry Pi: lgpio wherever it is installed (gpiozero's own first choice; it uses
``/dev/gpiochip*``, which the sandboxed unit can open, on every Pi from the 1 to the 5), RPi.GPIO only as a
logged fallback when lgpio is missing (its edge detection exports pins through ``/sys/class/gpio``, which the
shipped unit makes read-only, and it does not work on a Pi 5 at all). gpiozero's mock pins on anything that is
not a Pi (a desktop runs the simulator). ``mock``, ``lgpio`` and ``rpigpio`` force a choice. A backend that
cannot load is named in one :class:`PinFactoryUnavailable` message with the fix; the caller keeps the
touchscreen usable and never falls back silently to a library that cannot work on that board.
"""

from __future__ import annotations

import importlib.util
import logging
from collections.abc import Callable
from pathlib import Path

from companion.errors import CompanionError

log = logging.getLogger("companion.pins")

MODEL_FILE = Path("/proc/device-tree/model")


class PinFactoryUnavailable(CompanionError, RuntimeError):
    """The chosen GPIO backend cannot be used on this machine (missing library, not a Pi, no access)."""


def board_model(model_file: Path = MODEL_FILE) -> str:
    """The board's model string (``"Raspberry Pi 5 Model B Rev 1.0"``), or ``""`` if it is not a Pi."""
    try:
        model = model_file.read_text(errors="replace").strip("\x00\n ")
    except OSError:
        return ""
    return model if "Raspberry Pi" in model else ""


def installed(module: str) -> bool:
    """Whether the Python module ``module`` (``"lgpio"``, ``"RPi.GPIO"``) can be imported here."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a parent package that is missing or broken
        return False


def backend_for(choice: str, model: str, *, available: Callable[[str], bool] = installed) -> str:
    """Resolve ``choice`` (``auto``/``mock``/``lgpio``/``rpigpio``) for a board ``model`` to a concrete
    backend name. ``auto``: ``mock`` when ``model`` is not a Pi; on a Pi ``lgpio`` when the lgpio library is
    installed (``available("lgpio")``), else ``rpigpio`` with a warning (not on a Pi 5, where only lgpio
    works: there ``lgpio``, so that the error names the library to install)."""
    if choice != "auto":
        return choice
    if not model:
        return "mock"
    if available("lgpio") or "Raspberry Pi 5" in model:
        return "lgpio"
    log.warning(
        "GPIO: lgpio is not installed, falling back to RPi.GPIO, whose edge detection needs a writable "
        "/sys/class/gpio (not in the shipped service): pip install lgpio, or pin_factory = \"lgpio\""
    )
    return "rpigpio"


def make_pin_factory(choice: str, *, simulate: bool = False, model_file: Path = MODEL_FILE):
    """Build the gpiozero pin factory for ``choice`` (``simulate`` forces mock pins). Logs the choice.

    Raises :class:`PinFactoryUnavailable` naming the backend, why, and how to fix it.
    """
    model = board_model(model_file)
    backend = "mock" if simulate else backend_for(choice, model)
    try:
        if backend == "mock":
            from gpiozero.pins.mock import MockFactory

            factory = MockFactory()
        elif backend == "lgpio":
            from gpiozero.pins.lgpio import LGPIOFactory

            factory = LGPIOFactory()
        elif backend == "rpigpio":
            from gpiozero.pins.rpigpio import RPiGPIOFactory

            factory = RPiGPIOFactory()
        else:
            raise PinFactoryUnavailable(f"unknown GPIO backend {backend!r}")
    except PinFactoryUnavailable:
        raise
    except ImportError as error:
        library = {"lgpio": "lgpio", "rpigpio": "RPi.GPIO"}.get(backend, backend)
        raise PinFactoryUnavailable(
            f"the {library} GPIO library is not installed ({error}); on a Raspberry Pi run "
            f"`pip install 'tabletop-companion[pi]'` in the companion's environment"
        ) from error
    except Exception as error:
        where = model or "this machine (not a Raspberry Pi)"
        raise PinFactoryUnavailable(f"the {backend} GPIO backend cannot run on {where}: {error}") from error
    log.info("GPIO pins: %s backend (%s)", backend, model or "no Raspberry Pi found")
    return factory
