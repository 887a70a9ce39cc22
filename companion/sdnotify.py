"""systemd's notify protocol (``sd_notify``) in a few lines of stdlib, for ``Type=notify`` with a watchdog.

``notify("READY=1")`` tells systemd the service is up; ``notify("WATCHDOG=1")`` must then come at least
every ``WatchdogSec`` or systemd restarts the service (so a hung UI is restarted). Outside systemd
(``$NOTIFY_SOCKET`` unset) every call does nothing and returns False.
"""

from __future__ import annotations

import os
import socket


def notify(message: str) -> bool:
    """Send ``message`` (e.g. ``"READY=1\\nSTATUS=Game 3 open"``) to systemd; True if it was sent."""
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]  # abstract namespace
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            sock.connect(address)
            sock.sendall(message.encode())
        return True
    except OSError:
        return False


def watchdog_interval() -> float | None:
    """Seconds between watchdog pings: half of systemd's ``WatchdogSec`` (``$WATCHDOG_USEC``), or None when
    no watchdog is asked for (or it is meant for another process, ``$WATCHDOG_PID``)."""
    usec = os.environ.get("WATCHDOG_USEC")
    pid = os.environ.get("WATCHDOG_PID")
    if not usec or (pid and pid != str(os.getpid())):
        return None
    try:
        return max(0.5, int(usec) / 1_000_000 / 2)
    except ValueError:
        return None
