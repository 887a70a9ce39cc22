"""The web server's process: ``python -m web.worker --channel FD --address ADDRESS --port PORT``, started by
:class:`web.WebFrontEnd` (never by hand). It serves :class:`web.server.WebApp` on uvicorn and talks to the kiosk
over the socket ``FD`` (:mod:`web.channel`, length-prefixed JSON).

* It lowers its own priority (``nice`` +10): when the kiosk and a flood of clients want the CPU, the kiosk wins.
* It ends when the channel ends: the kiosk stopped it, or the kiosk died (even by ``SIGKILL``). ``SIGINT`` and
  ``SIGTERM`` are ignored (a terminal's Ctrl+C and systemd's stop reach every process of the service; the kiosk
  stops its server itself as it leaves, and a kiosk that does not is killed with it).
* Its log lines go to the kiosk's log through the channel, anything like a token replaced by ``<token>``, at most
  :data:`LOG_LINES` a second (a flood of bad requests cannot flood the kiosk with log lines).
* ``COMPANION_WEB_LIMITS`` (``NAME=SECONDS,...``, names from :data:`web.server.TUNABLE`) changes timing limits of
  :mod:`web.server` in this process only: the tests' way to close a slow client after 1 s instead of 10.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import socket
import sys
import time
from typing import Any

LOG_LINES = 20  # forwarded a second at most
LIMITS = "COMPANION_WEB_LIMITS"


def read_limits(text: str) -> dict[str, float]:
    """``NAME=SECONDS,...`` as a dict; ``ValueError`` naming what is wrong (a name not in ``TUNABLE``, a value not
    a positive number)."""
    from web.server import TUNABLE

    limits: dict[str, float] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, _, value = item.partition("=")
        if name not in TUNABLE:
            raise ValueError(f"{LIMITS}: {name!r} is not one of {', '.join(TUNABLE)}")
        seconds = float(value)
        if not seconds > 0:
            raise ValueError(f"{LIMITS}: {name} must be a positive number of seconds")
        limits[name] = seconds
    return limits


class Link:
    """The server's end of the channel: ``send(message)`` from the loop's thread or any other (never blocks: the
    transport buffers; the kiosk reads all the time)."""

    def __init__(self, writer: asyncio.StreamWriter, loop: asyncio.AbstractEventLoop) -> None:
        self.writer, self.loop = writer, loop

    def send(self, message: dict[str, Any]) -> None:
        from web.channel import frame

        data = frame(message)
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is self.loop:
            self._write(data)
        else:
            self.loop.call_soon_threadsafe(self._write, data)

    def _write(self, data: bytes) -> None:
        if not self.writer.is_closing():
            self.writer.write(data)


class Forward(logging.Handler):
    """Sends log records to the kiosk (redacted: :class:`web.server._Redact`), at most :data:`LOG_LINES` a second;
    ``last_error`` is the latest error's text (why it could not listen)."""

    def __init__(self, link: Link) -> None:
        super().__init__(logging.INFO)
        from web.server import _TOKEN_LIKE

        self.link, self.token_like = link, _TOKEN_LIKE
        self.window, self.count, self.dropped = 0.0, 0, 0
        self.last_error = ""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            message = self.token_like.sub("<token>", record.getMessage())
            if record.levelno >= logging.ERROR:
                self.last_error = message
            now = time.monotonic()
            if now - self.window >= 1.0:
                if self.dropped:
                    self.link.send({"type": "log", "level": logging.WARNING, "name": "companion.web",
                                    "message": f"{self.dropped} log lines of the web server were dropped"})  # fmt: skip
                self.window, self.count, self.dropped = now, 0, 0
            self.count += 1
            if self.count > LOG_LINES:
                self.dropped += 1
                return
            self.link.send({"type": "log", "level": record.levelno, "name": record.name, "message": message})
        except Exception:
            self.handleError(record)


async def serve(channel: socket.socket, host: str, port: int) -> int:
    """Serve until the channel ends (0) or the server stops by itself (1: it could not listen)."""
    import uvicorn

    import web.server as server_module
    from web.channel import HEADER, MAX_TO_SERVER, decode
    from web.server import MAX_CONNECTIONS, MAX_MESSAGE, WebApp, _connection_class, _quiet_uvicorn

    loop = asyncio.get_running_loop()
    reader, writer = await asyncio.open_unix_connection(sock=channel, limit=1 << 20)
    link = Link(writer, loop)
    forward = Forward(link)
    root = logging.getLogger()
    root.handlers[:] = [forward]
    root.setLevel(logging.INFO)
    _quiet_uvicorn()
    try:
        for name, value in read_limits(os.environ.get(LIMITS, "")).items():
            setattr(server_module, name, value)
    except ValueError as error:
        link.send({"type": "failed", "problem": str(error)})
        await writer.drain()
        return 1
    web = WebApp(link)

    class Server(uvicorn.Server):
        @contextlib.contextmanager
        def capture_signals(self):  # signals are not how this process ends (see the module docstring)
            yield

    config = uvicorn.Config(
        web.app,
        host=host,
        port=port,
        http=_connection_class(),
        ws="wsproto",
        loop="asyncio",
        lifespan="off",
        log_config=None,
        access_log=False,
        server_header=False,
        proxy_headers=False,
        ws_max_size=MAX_MESSAGE,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        limit_concurrency=MAX_CONNECTIONS,
        timeout_keep_alive=5,
        h11_max_incomplete_event_size=16 * 1024,
        backlog=128,
    )
    server = Server(config)

    async def run_server() -> str:
        try:
            await server.serve()
        except SystemExit as error:  # uvicorn's way of saying it could not bind
            return forward.last_error or f"SystemExit: {error}"
        except Exception as error:
            return f"{type(error).__name__}: {error}"
        return ""

    async def read_channel() -> None:
        while True:
            try:
                header = await reader.readexactly(HEADER.size)
                (length,) = HEADER.unpack(header)
                if length > MAX_TO_SERVER:
                    logging.getLogger("companion.web").error("a message of %s bytes from the kiosk", length)
                    return
                web.receive(decode(await reader.readexactly(length)))
            except asyncio.IncompleteReadError:
                return  # the kiosk stopped the server, or is gone
            except Exception:
                logging.getLogger("companion.web").exception("a message from the kiosk could not be read")
                return

    serving = asyncio.create_task(run_server())
    reading = asyncio.create_task(read_channel())
    while not server.started and not serving.done() and not reading.done():
        await asyncio.sleep(0.01)
    if server.started:
        sockets = [s for listener in server.servers for s in listener.sockets]
        link.send({"type": "listening", "port": sockets[0].getsockname()[1] if sockets else port})
    await asyncio.wait({serving, reading}, return_when=asyncio.FIRST_COMPLETED)
    if serving.done():
        problem = serving.result() or "it stopped"
        link.send({"type": "failed", "problem": problem})
        reading.cancel()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer.drain(), 5)
        return 1
    server.should_exit = True  # the channel ended: close every connection and go
    try:
        await asyncio.wait_for(serving, 5)
    except TimeoutError:
        pass
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m web.worker", description=__doc__.splitlines()[0])
    parser.add_argument("--channel", type=int, required=True, help="the socket to the kiosk (a file descriptor)")
    parser.add_argument("--address", required=True)
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args(argv)
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, signal.SIG_IGN)
    try:
        os.nice(10)
    except OSError:
        pass
    channel = socket.socket(fileno=args.channel)
    channel.setblocking(False)
    code = asyncio.run(serve(channel, args.address, args.port))
    sys.stdout.flush()
    os._exit(code)  # no waiting for stray threads or connections: the kiosk has let go


if __name__ == "__main__":
    sys.exit(main())
