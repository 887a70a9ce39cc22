"""Where the companion keeps its files.

The data directory is, in order: the config's ``table.data_dir``; ``$COMPANION_DATA_DIR``; systemd's
``$STATE_DIRECTORY`` (the service's state directory); ``$XDG_DATA_HOME/tabletop-companion``
(default ``~/.local/share/tabletop-companion``). It holds ``journal.sqlite3`` and the lock file.
"""

from __future__ import annotations

import os
from pathlib import Path

JOURNAL_NAME = "journal.sqlite3"
LOCK_NAME = "companion.lock"


def data_dir(configured: Path | None = None) -> Path:
    """The data directory (see the module docstring); not created here."""
    if configured is not None:
        return Path(configured)
    for variable in ("COMPANION_DATA_DIR", "STATE_DIRECTORY"):
        if os.environ.get(variable):
            return Path(os.environ[variable].split(":")[0])
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "tabletop-companion"


def journal_path(configured: Path | None = None) -> Path:
    """The journal file in the data directory."""
    return data_dir(configured) / JOURNAL_NAME
