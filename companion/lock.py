"""Only one companion runs at a time.

:class:`InstanceLock` takes an exclusive ``flock`` on a lock file in the data directory. The kernel
drops the lock when the process dies, however it dies, so a stale lock file left by ``kill -9`` never
blocks a restart. Take it before touching GPIO, serial or I2C.

A data directory that cannot be written (a read-only SD card) must not stop the kiosk: an existing lock
file is locked through a read-only descriptor, and without one the lock is taken on a file named after
the directory in ``$XDG_RUNTIME_DIR`` (or the system's temporary folder) instead.
"""

from __future__ import annotations

import fcntl
import logging
import os
import tempfile
from pathlib import Path

from companion.errors import AlreadyRunning, CompanionError


class InstanceLock:
    """The single-instance lock at ``path``.

    ``acquire()`` raises :class:`AlreadyRunning` (naming the holder's pid when known) if another process
    holds it. ``release()`` is safe to call twice. Usable as a context manager.
    """

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)
        self._fd: int | None = None

    def acquire(self) -> InstanceLock:
        """Take the lock or raise :class:`AlreadyRunning` at once (never waits)."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as error:
            fd = self._read_only_folder(error)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 32).decode(errors="replace").strip()
            os.close(fd)
            who = f" (pid {holder})" if holder else ""
            raise AlreadyRunning(f"the companion is already running{who}; lock {self.path}") from None
        try:
            os.ftruncate(fd, 0)
            os.write(fd, str(os.getpid()).encode())
        except OSError:
            pass  # a read-only lock file still locks; it just cannot name us
        self._fd = fd
        return self

    def _read_only_folder(self, error: OSError) -> int:
        """A descriptor to lock when the lock file cannot be opened for writing (see the module docstring)."""
        try:
            return os.open(self.path, os.O_RDONLY)
        except OSError:
            pass
        import hashlib  # not at import: loading OpenSSL costs ~12 ms of the kiosk's start

        key = hashlib.sha256(str(self.path.resolve()).encode()).hexdigest()[:16]
        runtime = Path(os.environ.get("XDG_RUNTIME_DIR") or tempfile.gettempdir())
        stand_in = runtime / f"tabletop-companion-{key}.lock"
        try:
            fd = os.open(stand_in, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:
            raise CompanionError(
                f"cannot use the data directory {self.path.parent}: "
                f"{error.strerror or error}; choose another with --data-dir"
            ) from error
        logging.getLogger("companion.lock").warning(
            "cannot create %s (%s); locking %s instead", self.path, error.strerror or error, stand_in
        )
        return fd

    def release(self) -> None:
        """Drop the lock (the file stays; it is harmless)."""
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> InstanceLock:
        return self.acquire()

    def __exit__(self, *exc_info) -> None:
        self.release()
