"""The kiosk's side of the web server's process (:mod:`web.worker`): starting it, the channel to it
(:mod:`web.channel`), stopping it.

:class:`ServerProcess` starts ``python -m web.worker`` (:func:`subprocess.Popen`, not :mod:`multiprocessing`: the
kiosk has a GL context and threads that a fork would copy, and a spawn would import the kiosk's main module again)
with one end of a socket pair, from a thread of its own ("web") that then reads what the server sends; a second
thread ("web-out") writes what the kiosk sends, in order, so that the owner thread never waits on the server's
process (snapshots are coalesced: a server too busy to read gets the latest one, not every one).
"""

from __future__ import annotations

import collections
import logging
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from companion.errors import CompanionError

log = logging.getLogger("companion.web")

#: Messages waiting for the server's process at most; beyond, it is not reading (stuck) and they are dropped.
MAX_WAITING = 4096
_SNAPSHOT = object()  # in the queue: "the latest snapshot here" (:meth:`ServerProcess.post_snapshot`)
#: Loggers a log line from the server's process may name (any other is logged as companion.web).
_LOGGERS = ("companion", "web", "uvicorn", "starlette")


class ServerProcess:
    """The web server's process for ``address``:``port`` (0: any free port) and the channel to it.

    ``handle(message)`` is called on the "web" thread with each message from the server that is not about the
    process itself (``counts``, ``request``, ``act``); ``snapshot()`` (on the "web-out" thread) gives the latest
    snapshot's message, or ``None`` if it was sent already. ``limits``: ``COMPANION_WEB_LIMITS`` for the server
    (:mod:`web.worker`; else the kiosk's own environment's, if any).

    ``start(wait=True)`` returns once it listens, or raises :class:`CompanionError` (the port is taken, the address
    is not this machine's, the process could not start); ``start(wait=False)`` returns at once and ``problem``
    says later what went wrong. A process that ends by itself is logged and ``problem`` says so; the kiosk goes
    on without phones, and ``on_end(listened, served_s)`` is called on the "web" thread (``listened``: whether it
    had listened; ``served_s``: for how many seconds since it did; :class:`web.WebFrontEnd` starts another).
    ``stop()`` ends the channel (the process closes its connections and exits), kills it if it
    has not gone within ``timeout`` s, and reaps it (safe twice)."""

    def __init__(
        self,
        address: str,
        port: int,
        handle: Callable[[dict[str, Any]], None],
        snapshot: Callable[[], dict[str, Any] | None],
        limits: str | None = None,
        on_end: Callable[[bool, float], None] | None = None,
    ) -> None:
        self.host, self.port = address, port
        self._on_end = on_end
        self._listened_at = 0.0
        self.problem = ""
        self.process: subprocess.Popen | None = None
        self._handle, self._snapshot, self._limits = handle, snapshot, limits
        self._listening = threading.Event()
        self._ended = threading.Event()
        self._stopping = False
        self._lock = threading.Lock()
        self._queue: collections.deque = collections.deque()
        self._ready = threading.Condition(self._lock)
        self._dropped = False
        self._channel: socket.socket | None = None
        self._thread = threading.Thread(target=self._run, name="web", daemon=True)
        self._writer = threading.Thread(target=self._write, name="web-out", daemon=True)

    # -- any thread --------------------------------------------------------------------------------------------------
    def post(self, message: dict[str, Any]) -> None:
        """Send ``message`` to the server after everything posted before it (never blocks)."""
        with self._lock:
            if len(self._queue) >= MAX_WAITING:
                if not self._dropped:
                    log.error("the web server's process is not reading: messages to it are dropped")
                self._dropped = True
                return
            self._queue.append(message)
            self._ready.notify()

    def post_snapshot(self) -> None:
        """Send the latest snapshot (whichever is the latest when its turn comes; never blocks)."""
        with self._lock:
            if self._queue and self._queue[-1] is _SNAPSHOT:
                return
            self._queue.append(_SNAPSHOT)
            self._ready.notify()

    @property
    def listening(self) -> bool:
        return self._listening.is_set() and not self._ended.is_set()

    @property
    def pid(self) -> int | None:
        """The server process's id (``None`` before it started)."""
        return self.process.pid if self.process is not None else None

    def start(self, wait: bool = True, timeout: float = 30.0) -> None:
        self._thread.start()
        if not wait:
            return
        while not self._listening.wait(0.05):
            if self._ended.is_set() or timeout <= 0:
                raise CompanionError(
                    f"the web front-end could not listen on {self.host}:{self.port} ({self.problem or 'timed out'}): "
                    "is the port in use, or the address not this machine's? ([web] address, port)"
                )
            timeout -= 0.05

    def stop(self, timeout: float = 5.0) -> None:
        with self._lock:
            self._stopping = True
            self._ready.notify()
        channel = self._channel
        if channel is not None:
            try:
                channel.shutdown(socket.SHUT_RDWR)  # the end of the channel: the server exits
            except OSError:
                pass
        process = self.process
        if process is not None:
            try:
                process.wait(timeout)
            except subprocess.TimeoutExpired:
                log.warning("the web server's process did not stop within %s s: killed", timeout)
                process.kill()
                process.wait(timeout)
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join(timeout)

    # -- the "web" thread ------------------------------------------------------------------------------------------
    def _environment(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID")}
        if self._limits is not None:
            env["COMPANION_WEB_LIMITS"] = self._limits
        return env

    def _run(self) -> None:
        from web.channel import MAX_FROM_SERVER, ChannelError, receive

        ours, theirs = socket.socketpair()
        try:
            with self._lock:
                if self._stopping:
                    return
                self.process = subprocess.Popen(
                    [sys.executable, "-P", "-m", "web.worker", "--channel", str(theirs.fileno())]
                    + ["--address", self.host, "--port", str(self.port)],
                    pass_fds=(theirs.fileno(),),
                    stdin=subprocess.DEVNULL,
                    env=self._environment(),
                )
                self._channel = ours
        except OSError as error:
            self.problem = f"its process could not start: {error}"
            log.error("the web front-end could not start its server's process (%s)", error)
            self._ended.set()
            ours.close()
            return
        finally:
            theirs.close()
        self._writer.start()
        failed = ""
        try:
            while True:
                message = receive(ours, MAX_FROM_SERVER)
                if message is None:
                    break
                kind = message.get("type")
                if kind == "listening":
                    self.port = int(message["port"])
                    self._listened_at = time.monotonic()
                    self._listening.set()
                    log.info("web front-end listening on %s:%s", self.host, self.port)
                elif kind == "failed":
                    failed = str(message.get("problem", ""))
                elif kind == "log":
                    self._log(message)
                else:
                    try:
                        self._handle(message)
                    except Exception:
                        log.exception("a message from the web server's process could not be handled")
        except (OSError, ChannelError, ValueError, KeyError, TypeError) as error:
            if not self._stopping:
                log.error("the channel to the web server's process broke (%s)", error)
        finally:
            self._ended.set()
            with self._lock:
                self._ready.notify()
            self._finish(failed)
            if self._writer.is_alive():
                try:
                    ours.shutdown(socket.SHUT_RDWR)  # a writer stuck on a full channel lets go
                except OSError:
                    pass
                self._writer.join(5)
            ours.close()

    def _finish(self, failed: str) -> None:
        process = self.process
        assert process is not None
        if self._stopping:
            return
        try:
            code = process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()
            code = process.wait(5)
        if failed or not self._listening.is_set():
            self.problem = failed or f"its process ended before listening (exit status {code})"
            log.error(
                "the web front-end could not listen on %s:%s (%s): is the port in use, or the address not this "
                "machine's? ([web] address, port)",
                self.host,
                self.port,
                self.problem,
            )
        else:
            self.problem = f"its process ended unexpectedly (exit status {code})"
            log.error("the web front-end stopped: %s; the kiosk goes on without phones", self.problem)
        if self._on_end is not None:
            listened = self._listening.is_set()
            try:
                self._on_end(listened, time.monotonic() - self._listened_at if listened else 0.0)
            except Exception:
                log.exception("the web front-end could not handle its server's end")

    @staticmethod
    def _log(message: dict[str, Any]) -> None:
        name = str(message.get("name", ""))
        if name.split(".")[0] not in _LOGGERS:
            name = "companion.web"
        level = message.get("level")
        level = level if isinstance(level, int) and 0 < level <= logging.CRITICAL else logging.WARNING
        logging.getLogger(name).log(level, "%s", str(message.get("message", ""))[:2000])

    # -- the "web-out" thread ----------------------------------------------------------------------------------------
    def _write(self) -> None:
        from web.channel import frame

        channel = self._channel
        assert channel is not None
        while True:
            with self._lock:
                while not self._queue and not self._stopping and not self._ended.is_set():
                    self._ready.wait()
                if self._stopping or self._ended.is_set():
                    return
                entry = self._queue.popleft()
            message = self._snapshot() if entry is _SNAPSHOT else entry
            if message is None:
                continue
            try:
                channel.sendall(frame(message))
            except OSError:
                return
