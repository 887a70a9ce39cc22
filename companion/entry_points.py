"""Entry points (the games' and front-ends' registries) read without importing :mod:`importlib.metadata`.

Why not simply ``importlib.metadata.entry_points(group=...)``: importing it pulls in ``email``, ``zipfile``,
``csv``, ``inspect`` and more: **6.7 MB of resident memory and ~37 ms** on the development machine (≈ 0.2 s on a
Raspberry Pi 4), about a tenth of the headless memory budget and a quarter of the kiosk core's import time (issue
17: lean start, headless ≤ 60 MB). The registries only need the ``entry_points.txt`` of the installed
distributions, so the common case (``*.dist-info`` / ``*.egg-info`` folders in plain directories on ``sys.path``)
is read here, the way ``importlib.metadata``'s path finder finds them: ``sys.path`` in order, each folder's
distributions in listing order, the first distribution of a (normalised) name wins. Anything else it could meet
(a zip file or an ``.egg`` on ``sys.path``, a custom finder on ``sys.meta_path`` that finds distributions) is
handed to ``importlib.metadata`` itself, so the answer is always the standard one
(``tests/test_entry_points.py`` compares them).
"""

from __future__ import annotations

import importlib
import os
import sys
from dataclasses import dataclass
from typing import Any

_INFO_SUFFIXES = (".dist-info", ".egg-info")


@dataclass(frozen=True)
class EntryPoint:
    """One entry point: ``name`` (e.g. ``"tv-wars"``), ``value`` (``"module:attribute"``, extras dropped) and
    ``group`` (e.g. ``"tabletop_companion.games"``)."""

    name: str
    value: str
    group: str

    def load(self) -> Any:
        """The object ``value`` names (imports its module). Raises what the import or ``getattr`` raises."""
        module_name, _, attributes = self.value.partition(":")
        target: Any = importlib.import_module(module_name.strip())
        for attribute in filter(None, attributes.strip().split(".")):
            target = getattr(target, attribute)
        return target


def entry_points(group: str) -> list[EntryPoint]:
    """The entry points of ``group`` of every installed distribution, in the order ``importlib.metadata``
    gives them (first distribution of a name on ``sys.path`` only)."""
    found = _scan(group)
    if found is None:
        import importlib.metadata

        found = [EntryPoint(p.name, p.value, p.group) for p in importlib.metadata.entry_points(group=group)]
    return found


def _normalised(folder_name: str) -> str:
    """A distribution's name from its metadata folder (``Tabletop_Companion-0.1.dist-info``), normalised as
    ``importlib.metadata`` does (PEP 503, with ``_``)."""
    name = folder_name.lower().rpartition(".")[0].partition("-")[0]
    for separator in ".-":
        name = name.replace(separator, "_")
    while "__" in name:
        name = name.replace("__", "_")
    return name


def _scan(group: str) -> list[EntryPoint] | None:
    """``group``'s entry points from the metadata folders on ``sys.path``; ``None`` where only
    ``importlib.metadata`` can answer (a zip or egg on the path, another finder of distributions)."""
    from importlib.machinery import PathFinder

    for finder in sys.meta_path:
        if finder is not PathFinder and getattr(finder, "find_distributions", None) is not None:
            return None
    seen: set[str] = set()
    points: list[EntryPoint] = []
    for entry in sys.path:
        root = entry or os.getcwd()
        try:
            children = os.listdir(root)
        except NotADirectoryError:
            return None  # a zip file on sys.path
        except OSError:
            continue  # a folder that does not exist (importlib.metadata skips it too)
        folders: dict[str, list[str]] = {}
        for child in children:
            low = child.lower()
            if low.endswith(_INFO_SUFFIXES):
                folders.setdefault(_normalised(child), []).append(child)
            elif low.endswith(".egg"):
                return None
        for name, found in folders.items():
            if name in seen:
                continue
            seen.add(name)
            points += _read(os.path.join(root, found[0], "entry_points.txt"), group)
    return points


def _read(path: str, group: str) -> list[EntryPoint]:
    """The entries of ``[group]`` in the ``entry_points.txt`` at ``path`` (none if it is missing)."""
    try:
        with open(path, encoding="utf-8") as file:
            text = file.read()
    except OSError:
        return []
    points: list[EntryPoint] = []
    section = None
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip()
        elif section == group and "=" in line:
            name, _, value = line.partition("=")
            value = value.partition("[")[0].strip()  # "module:attribute [extra]": the extras do not matter here
            points.append(EntryPoint(name.strip(), value, group))
    return points
