"""Light game packages: a game's ``__init__`` names what it exports without importing its rules, so listing
the games (their :mod:`info` modules) costs almost nothing and a kiosk loads only the game it opens."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any


def lazy_exports(package: str, modules: Sequence[str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for ``package``: an attribute the package itself does not define is looked up
    in its submodules ``modules`` in order, each imported on first use. Raises ``AttributeError`` as a module
    does when none has it."""

    def __getattr__(name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        if name in modules:
            # a submodule (``from package import spaces``, asked before it is imported or while it is, in an import
            # cycle): that module, as the import system would find it, not a search of the others that imports every
            # one of them (the kiosk imported the line-up file's module and tomllib with the rules: issue 17)
            return importlib.import_module(f"{package}.{name}")
        for module in modules:
            found = importlib.import_module(f"{package}.{module}")
            if hasattr(found, name):
                return getattr(found, name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        names: set[str] = set()
        for module in modules:
            names.update(n for n in vars(importlib.import_module(f"{package}.{module}")) if not n.startswith("_"))
        return sorted(names)

    return __getattr__, __dir__
