"""The web server: Starlette on uvicorn (HTTP/1.1 by h11, WebSockets by wsproto; all pure Python), in a thread of
its own with its own asyncio loop. It reads only :class:`web.publisher.Snapshot` values and posts only through
:meth:`web.publisher.Publisher.submit`: it never touches the table.

Routes:

* ``GET /`` and ``GET /table``: the spectator page (public view only); ``GET /api/table``: its data as JSON;
  ``WS /ws/table``: the same data, pushed on every change.
* ``GET /seat/<token>`` (and ``/S/<token>``, the pairing QR code's short upper-case form): a seat's private
  panel; ``GET /api/seat/<token>``: its data; ``WS /ws/seat/<token>``: pushed on every change;
  ``POST /api/seat/<token>/act``: a command, ``{"action": index, "label": label}`` for a legal command, or
  ``{"form": name, ...}`` for a game's form (the TV Wars line-up). Answered with the table's verdict,
  ``{"accepted": bool, "message": str}`` (a refusal's text is the one a button gets).

Never a stall for the kiosk, and nothing learned from a failure:

* every failure of a seat request (wrong or old token, an address that guessed too often, a foreign ``Origin``)
  is the same ``403`` with the same body; tokens are compared in constant time
  (:meth:`companion.tokens.SeatTokens.seat_for`); :data:`GUESSES` failed tries per address, then one more every
  :data:`GUESS_REFILL` seconds;
* a POST and a WebSocket must come from the page's own origin (``Origin`` equal to ``http://<Host>``);
* request bodies of at most :data:`MAX_BODY` bytes, WebSocket messages of at most :data:`MAX_MESSAGE` bytes
  (uvicorn closes the connection, 1009), :data:`MAX_CLIENT_MESSAGES` messages a client may send a minute
  (the pages send none but pings), :data:`ACTS` commands a seat may post in a burst (then one every
  :data:`ACT_REFILL` s; 429 beyond);
* at most :data:`MAX_SOCKETS` spectators' WebSockets, :data:`MAX_SOCKETS_PER_ADDRESS` from one address, and
  beside them :data:`MAX_SOCKETS_PER_SEAT` per seat (so no flood of spectators locks a phone out); each connection
  has one sender task that sends the *latest* snapshot when it can: a slow client skips states it had no time
  for, and one that takes more than :data:`SEND_TIMEOUT` s for a message is closed. Nothing is queued per
  message, so a flood of clients costs the owner thread nothing (it builds one snapshot per move whatever the
  number of clients);
* at most :data:`MAX_CONNECTIONS_PER_ADDRESS` open connections from one address (more are closed at once), and
  a connection that has not sent a whole request head within :data:`REQUEST_TIMEOUT` s is closed
  (:class:`_Connection`): idle half-sent requests (hundreds of them) cannot fill uvicorn's
  :data:`MAX_CONNECTIONS` and have every phone's request answered 503; the kernel holds at most
  :data:`SEND_BUFFER` (doubled) for each, so a client that does not read costs little memory and is found out
  (:data:`SEND_TIMEOUT`) after some tens of snapshots;
* no access log (the links carry tokens), and uvicorn's own log lines have any token replaced by ``<token>``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from companion.errors import CompanionError
from companion.tokens import SeatTokens
from web.publisher import Publisher, Snapshot, command_for_action

log = logging.getLogger("companion.web")

#: Failed seat requests an address may make before it is refused without a check; then one more per refill.
GUESSES = 10
GUESS_REFILL = 6.0  # seconds
#: Commands a seat may post in a burst, then one per refill.
ACTS = 6
ACT_REFILL = 0.5  # seconds
MAX_BODY = 4096  # bytes of a POST body
MAX_MESSAGE = 1024  # bytes of a WebSocket message from a client
MAX_CLIENT_MESSAGES = 60  # WebSocket messages from one client a minute
MAX_SOCKETS = 64  # spectators' WebSockets
MAX_SOCKETS_PER_ADDRESS = 16  # spectators' WebSockets from one address
MAX_SOCKETS_PER_SEAT = 4  # a seat's phones' WebSockets (beside the spectators', never crowded out by them)
SEND_TIMEOUT = 10.0  # seconds for one message to a client
REQUEST_TIMEOUT = 10.0  # seconds from a connection to the end of its first request's head
MAX_CONNECTIONS_PER_ADDRESS = 24  # open TCP connections from one address (a phone's browser uses a few)
MAX_CONNECTIONS = 512  # open TCP connections in all: beyond, uvicorn answers 503
SEND_BUFFER = 32 * 1024  # bytes the kernel holds for a client that does not read (SO_SNDBUF; Linux doubles it)
REPLY_TIMEOUT = 5.0  # seconds a POST waits for the table's verdict

FORBIDDEN = "Forbidden\n"
_TOKEN_LIKE = re.compile(r"[A-Z2-7]{20,}", re.IGNORECASE)

_SECURITY_HEADERS = {
    "cache-control": "no-store",
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
    "content-security-policy": "default-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
}


class _Redact(logging.Filter):
    """Replaces anything that looks like a token in uvicorn's log records with ``<token>``."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:
            return True
        if _TOKEN_LIKE.search(message):
            record.msg, record.args = _TOKEN_LIKE.sub("<token>", message), None
        return True


def _quiet_uvicorn() -> None:
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, _Redact) for f in logger.filters):
            logger.addFilter(_Redact())
        logger.setLevel(logging.WARNING)


class Bucket:
    """A token bucket per key: ``capacity`` tries, one more back every ``refill`` seconds. ``take(key)`` spends
    one and says whether there was one; ``spend(key)`` spends one without asking. Keys not used for a while are
    forgotten (at most ``keep`` keys)."""

    def __init__(self, capacity: int, refill: float, keep: int = 4096, clock=time.monotonic) -> None:
        self.capacity, self.refill, self.keep, self.clock = capacity, refill, keep, clock
        self._level: dict[str, tuple[float, float]] = {}

    def _now(self, key: str) -> float:
        now = self.clock()
        level, at = self._level.get(key, (self.capacity, now))
        return min(self.capacity, level + (now - at) / self.refill)

    def has(self, key: str) -> bool:
        return self._now(key) >= 1

    def take(self, key: str) -> bool:
        level = self._now(key)
        if level < 1:
            return False
        self._set(key, level - 1)
        return True

    def spend(self, key: str) -> None:
        self._set(key, max(0.0, self._now(key) - 1))

    def _set(self, key: str, level: float) -> None:
        if len(self._level) >= self.keep and key not in self._level:
            self._level.pop(next(iter(self._level)))
        self._level[key] = (level, self.clock())


@dataclass(eq=False)  # each connection is its own (kept in a set by identity)
class _Client:
    socket: WebSocket
    address: str
    seat: str | None  # None: the spectator page
    token: str
    wake: asyncio.Event
    sent: str = ""


def _static(name: str) -> str:
    return resources.files("web").joinpath("static", name).read_text(encoding="utf-8")


class WebApp:
    """The Starlette application and the clients it serves (see the module docstring). Runs on the server's loop;
    ``publish(snapshot)`` is the only method other threads call."""

    def __init__(self, tokens: SeatTokens, publisher_box: list[Publisher]) -> None:
        self.tokens = tokens
        self._publisher_box = publisher_box  # the publisher, made after the app (it needs publish)
        self.loop: asyncio.AbstractEventLoop | None = None
        self._latest: Snapshot | None = None
        self._wake_pending = False
        self._wake_lock = threading.Lock()
        self._clients: set[_Client] = set()
        self._guesses = Bucket(GUESSES, GUESS_REFILL)
        self._acts = Bucket(ACTS, ACT_REFILL)
        self._encoded: dict[tuple[int, str | None], str] = {}
        self._pages = {"table": _static("table.html"), "seat": _static("seat.html")}
        static = StaticFiles(directory=str(resources.files("web").joinpath("static")))
        self.app = Starlette(
            routes=[
                Route("/", self.table_page),
                Route("/table", self.table_page),
                Route("/api/table", self.table_data),
                WebSocketRoute("/ws/table", self.table_socket),
                Route("/seat/{token}", self.seat_page),
                Route("/S/{token}", self.seat_page),
                Route("/api/seat/{token}", self.seat_data),
                Route("/api/seat/{token}/act", self.seat_act, methods=["POST"]),
                WebSocketRoute("/ws/seat/{token}", self.seat_socket),
                Mount("/static", app=static),
            ]
        )
        self.app.add_middleware(_Headers)

    # -- the hand-over from the owner thread ---------------------------------------------------------------------
    def publish(self, snapshot: Snapshot) -> None:
        """Make ``snapshot`` the latest and wake the loop once (any thread; never blocks, never queues more than
        one wake-up however many snapshots come)."""
        self._latest = snapshot
        loop = self.loop
        if loop is None:
            return
        with self._wake_lock:
            if self._wake_pending:
                return
            self._wake_pending = True
        try:
            loop.call_soon_threadsafe(self._fan_out)
        except RuntimeError:  # the loop has closed: the server is stopping
            pass

    def _fan_out(self) -> None:
        with self._wake_lock:
            self._wake_pending = False
        for client in list(self._clients):
            client.wake.set()

    # -- helpers ---------------------------------------------------------------------------------------------------
    @staticmethod
    def _address(scope_holder) -> str:
        client = scope_holder.client
        return client.host if client else "?"

    def _encode(self, snapshot: Snapshot, seat: str | None) -> str:
        key = (snapshot.version, seat)
        text = self._encoded.get(key)
        if text is None:
            if len(self._encoded) > 64:
                self._encoded.clear()
            payload = snapshot.public if seat is None else snapshot.seats[seat].payload
            text = self._encoded[key] = json.dumps(payload, separators=(",", ":"))
        return text

    def _seat(self, token: str, address: str) -> str | None:
        """The seat ``token`` is for, or ``None`` (then the address spent one of its guesses)."""
        if not self._guesses.has(address):
            return None
        seat = self.tokens.seat_for(token.upper())
        snapshot = self._latest
        if seat is None or snapshot is None or seat not in snapshot.seats:
            self._guesses.spend(address)
            return None
        return seat

    @staticmethod
    def _same_origin(headers) -> bool:
        origin, host = headers.get("origin"), headers.get("host")
        return bool(origin and host) and origin in (f"http://{host}", f"https://{host}")

    # -- the spectator page ------------------------------------------------------------------------------------------
    async def table_page(self, request: Request) -> Response:
        return HTMLResponse(self._pages["table"])

    async def table_data(self, request: Request) -> Response:
        snapshot = await self._fresh()
        text = self._encode(snapshot, None) if snapshot else '{"type":"table","game":null,"players":[]}'
        return Response(text, media_type="application/json")

    async def table_socket(self, socket: WebSocket) -> None:
        await self._serve_socket(socket, None, "")

    # -- a seat's page ---------------------------------------------------------------------------------------------
    async def seat_page(self, request: Request) -> Response:
        if self._seat(request.path_params["token"], self._address(request)) is None:
            return PlainTextResponse(FORBIDDEN, 403)
        return HTMLResponse(self._pages["seat"])

    async def seat_data(self, request: Request) -> Response:
        await self._fresh()
        seat = self._seat(request.path_params["token"], self._address(request))
        snapshot = self._latest
        if seat is None or snapshot is None:
            return PlainTextResponse(FORBIDDEN, 403)
        return Response(self._encode(snapshot, seat), media_type="application/json")

    async def seat_act(self, request: Request) -> Response:
        address = self._address(request)
        if not self._same_origin(request.headers):
            return PlainTextResponse(FORBIDDEN, 403)
        await self._fresh()
        seat = self._seat(request.path_params["token"], address)
        snapshot = self._latest
        if seat is None or snapshot is None:
            return PlainTextResponse(FORBIDDEN, 403)
        length = request.headers.get("content-length")
        if length is None or not length.isdigit() or int(length) > MAX_BODY:
            return JSONResponse({"accepted": False, "message": f"a request of at most {MAX_BODY} bytes"}, 413)
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                return JSONResponse({"accepted": False, "message": f"a request of at most {MAX_BODY} bytes"}, 413)
        if not self._acts.take(seat):
            return JSONResponse({"accepted": False, "message": "too many at once: wait a moment"}, 429)
        try:
            data = json.loads(body)
            if not isinstance(data, dict):
                raise ValueError("not an object")
        except ValueError:
            return JSONResponse({"accepted": False, "message": "not a request this page sends"}, 400)
        try:
            command = self._command(snapshot, seat, data)
        except CompanionError as error:
            return JSONResponse({"accepted": False, "message": str(error)}, 400)
        return await self._post(command)

    def _command(self, snapshot: Snapshot, seat: str, data: dict[str, Any]):
        if "form" in data:
            from web.games import forms_for

            forms = forms_for(snapshot.game)
            if forms is None:
                raise CompanionError("this game has no forms on the phone")
            return forms.form_command(seat, data["form"], data)
        return command_for_action(snapshot.seats[seat], data.get("action"), data.get("label"))

    async def _post(self, command) -> Response:
        loop = asyncio.get_running_loop()
        verdict: asyncio.Future = loop.create_future()

        def reply(accepted: bool, message: str) -> None:  # on the owner thread
            def settle() -> None:
                if not verdict.done():
                    verdict.set_result((accepted, message))

            try:
                loop.call_soon_threadsafe(settle)
            except RuntimeError:
                pass

        publisher = self._publisher_box[0]
        if not publisher.submit(command, reply):
            return JSONResponse({"accepted": False, "message": "the table is busy: try again"}, 429)
        try:
            accepted, message = await asyncio.wait_for(verdict, REPLY_TIMEOUT)
        except TimeoutError:
            return JSONResponse({"accepted": None, "message": "sent; the table has not answered yet"}, 202)
        return JSONResponse({"accepted": accepted, "message": message})

    async def seat_socket(self, socket: WebSocket) -> None:
        token = socket.path_params["token"]
        seat = self._seat(token, self._address(socket)) if self._same_origin(socket.headers) else None
        if seat is None:
            await socket.close(code=1008)  # before accept: uvicorn answers the handshake with 403
            return
        await self._serve_socket(socket, seat, token.upper())

    # -- WebSockets ------------------------------------------------------------------------------------------------
    async def _serve_socket(self, socket: WebSocket, seat: str | None, token: str) -> None:
        address = self._address(socket)
        if seat is None and socket.headers.get("origin") and not self._same_origin(socket.headers):
            await socket.close(code=1008)
            return
        if seat is None:
            spectators = [c for c in self._clients if c.seat is None]
            full = len(spectators) >= MAX_SOCKETS or (
                sum(c.address == address for c in spectators) >= MAX_SOCKETS_PER_ADDRESS
            )
        else:  # a seat's phone is never crowded out by spectators (its token cannot be guessed)
            full = sum(c.seat == seat for c in self._clients) >= MAX_SOCKETS_PER_SEAT
        if full:
            await socket.close(code=1013)  # before accept: refused with 403
            return
        await socket.accept()
        client = _Client(socket, address, seat, token, asyncio.Event())
        client.wake.set()
        self._clients.add(client)
        self._publisher_box[0].request()  # a snapshot not built while nobody watched: have one made
        # the connection ends when either side is done: the client went away, or the sender closed it (too slow,
        # or its token stopped working). A client too slow to take even the close frame never says goodbye, so
        # waiting for its messages would keep it here for good
        tasks = {asyncio.create_task(self._send_loop(client)), asyncio.create_task(self._receive_loop(client))}
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            self._clients.discard(client)
            for task in tasks:
                task.cancel()
            for task in tasks:
                try:
                    await task
                except (asyncio.CancelledError, Exception):
                    pass

    async def _receive_loop(self, client: _Client) -> None:
        """Read (and drop) what a client sends: the pages send nothing but an occasional ping; more than
        :data:`MAX_CLIENT_MESSAGES` a minute closes the connection (1008)."""
        window, count = time.monotonic(), 0
        while True:
            try:
                message = await client.socket.receive()
            except (WebSocketDisconnect, RuntimeError):
                return
            if message["type"] == "websocket.disconnect":
                return
            now = time.monotonic()
            if now - window > 60:
                window, count = now, 0
            count += 1
            if count > MAX_CLIENT_MESSAGES:
                await self._close(client, 1008)
                return

    async def _send_loop(self, client: _Client) -> None:
        while True:
            await client.wake.wait()
            client.wake.clear()
            snapshot = self._latest
            if snapshot is None:
                continue
            if client.seat is not None and (
                self.tokens.seat_for(client.token) != client.seat or client.seat not in snapshot.seats
            ):
                await self._close(client, 4403)  # its token was revoked or the game changed: pair again
                return
            text = self._encode(snapshot, client.seat)
            if text == client.sent:
                continue
            try:
                await asyncio.wait_for(client.socket.send_text(text), SEND_TIMEOUT)
            except TimeoutError:
                log.info("a web client at %s was too slow and is closed", client.address)
                await self._close(client, 1008)
                return
            except Exception:
                return
            client.sent = text

    @staticmethod
    async def _close(client: _Client, code: int) -> None:
        try:
            await asyncio.wait_for(client.socket.close(code=code), 2)
        except Exception:
            pass

    def watched(self) -> bool:
        """Whether any WebSocket is connected (any thread: a snapshot of the set's size)."""
        return bool(self._clients)

    async def _fresh(self) -> Snapshot | None:
        """The latest snapshot, after asking the owner thread for a new one if it is stale (waiting at most 2 s)."""
        publisher = self._publisher_box[0]
        if publisher.stale:
            before = self._latest.version if self._latest else -1
            publisher.request()
            for _ in range(200):
                if self._latest is not None and self._latest.version != before:
                    break
                await asyncio.sleep(0.01)
        return self._latest

    def counts(self) -> dict[str, int]:
        """Connected WebSockets: ``{"table": n, "seats": n}`` (the server's loop; for the kiosk's Phones dialog)."""
        clients = list(self._clients)
        return {"table": sum(c.seat is None for c in clients), "seats": sum(c.seat is not None for c in clients)}


class _Headers:
    """ASGI middleware: the security headers of :data:`_SECURITY_HEADERS` on every HTTP response."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [(k.encode(), v.encode()) for k, v in _SECURITY_HEADERS.items()]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _connection_class():
    """:class:`_Connection`, made when the server starts (uvicorn is imported on the server's thread only)."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class _Connection(H11Protocol):
        """uvicorn's h11 connection, with a per-address cap and a deadline for the first request's head (see the
        module docstring)."""

        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            address = self.client[0] if self.client else None
            clients: list[Any] = [getattr(c, "client", None) for c in self.connections if c is not self]
            same = sum(1 for client in clients if client and client[0] == address)
            if address is not None and same >= MAX_CONNECTIONS_PER_ADDRESS:
                transport.close()
                return
            raw = transport.get_extra_info("socket")
            if raw is not None:  # a client that does not read is found out after this much, not megabytes
                try:
                    raw.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
                except OSError:
                    pass
            self._deadline = self.loop.call_later(REQUEST_TIMEOUT, self._head_too_slow)

        def _head_too_slow(self) -> None:
            if self.scope is None and not self.transport.is_closing():  # no request head yet
                self.transport.close()

        def connection_lost(self, exc) -> None:
            deadline = getattr(self, "_deadline", None)
            if deadline is not None:
                deadline.cancel()
            super().connection_lost(exc)

    return _Connection


class ServerThread:
    """uvicorn serving a :class:`WebApp` on ``address``:``port`` (0: any free port) in a daemon thread with its own
    asyncio loop. The thread imports Starlette and uvicorn and builds the app itself (``make_app()``), so a kiosk's
    main thread pays nothing for them before its first frame. ``start(wait=True)`` returns once it listens, or
    raises :class:`CompanionError` if it could not (the port is taken, the address is not this machine's);
    ``start(wait=False)`` returns at once and ``problem`` says later what went wrong. ``port`` is the port bound;
    ``stop()`` closes it (safe twice)."""

    def __init__(self, make_app: Callable[[], WebApp], address: str, port: int) -> None:
        self.host, self.port = address, port
        self._make_app = make_app
        self.server: Any = None
        self.problem = ""
        self._listening = threading.Event()
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="web", daemon=True)

    def _run(self) -> None:
        try:
            import uvicorn

            _quiet_uvicorn()
            web = self._make_app()
            config = uvicorn.Config(
                web.app,
                host=self.host,
                port=self.port,
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
            self.server = uvicorn.Server(config)
            if self._stopping:
                return

            async def main() -> None:
                web.loop = asyncio.get_running_loop()
                serving = asyncio.create_task(self.server.serve())
                while not self.server.started and not serving.done():
                    await asyncio.sleep(0.01)
                if self.server.started:
                    sockets = [s for server in self.server.servers for s in server.sockets]
                    self.port = sockets[0].getsockname()[1] if sockets else self.port
                    self._listening.set()
                await serving

            asyncio.run(main())
        except BaseException as error:  # SystemExit from uvicorn when it cannot bind
            self.problem = f"{type(error).__name__}: {error}"
        finally:
            if not self._listening.is_set() and not self.problem and not self._stopping:
                self.problem = "it stopped before listening"
            if self.problem:
                log.error(
                    "the web front-end could not listen on %s:%s (%s): is the port in use, or the address not this "
                    "machine's? ([web] address, port)",
                    self.host,
                    self.port,
                    self.problem,
                )

    def start(self, wait: bool = True, timeout: float = 20.0) -> None:
        self._thread.start()
        if not wait:
            return
        while not self._listening.wait(0.05):
            if not self._thread.is_alive() or timeout <= 0:
                raise CompanionError(
                    f"the web front-end could not listen on {self.host}:{self.port} ({self.problem or 'timed out'}): "
                    "is the port in use, or the address not this machine's? ([web] address, port)"
                )
            timeout -= 0.05

    @property
    def listening(self) -> bool:
        return self._listening.is_set()

    def stop(self, timeout: float = 5.0) -> None:
        self._stopping = True
        if self.server is not None:
            self.server.should_exit = True
        if self._thread.is_alive():
            self._thread.join(timeout)
