"""The web server: Starlette on uvicorn (HTTP/1.1 by h11, WebSockets by wsproto; all pure Python), in a process of
its own (:mod:`web.worker`, started by :class:`web.WebFrontEnd`) so that serving phones never competes with the
kiosk's interpreter (its GIL): a flood of clients costs the kiosk's frames and buttons nothing but the CPU the
niced process gets. It never touches the table: it knows the latest snapshot's JSON-able payloads and the seats'
tokens that the kiosk sends it (:mod:`web.channel`), and sends each phone's request (its seat and data) back for
the kiosk to turn into a command and post.

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
* no access log (the links carry tokens), and every log line of the server's process has anything like a token
  replaced by ``<token>`` before it goes to the kiosk's log (:mod:`web.worker`).

The limits here are module constants; the worker reads changes to the few timing ones (:data:`TUNABLE`) from the
environment variable ``COMPANION_WEB_LIMITS`` (``NAME=SECONDS,...``), for tests that cannot wait the kiosk's
times (a client closed after 1 s of sending instead of 10).
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import socket
import time
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from companion.tokens import SeatTokens

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
#: The limits ``COMPANION_WEB_LIMITS`` may change in the server's process (:mod:`web.worker`).
TUNABLE = ("SEND_TIMEOUT", "REQUEST_TIMEOUT", "GUESS_REFILL", "ACT_REFILL", "REPLY_TIMEOUT")

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


@dataclass(frozen=True)
class Shown:
    """The latest snapshot as the server knows it: ``version``, the ``game`` registry name, the ``public`` payload
    and each seat's ``payload`` (all JSON-able, :class:`web.publisher.Snapshot` without its commands)."""

    version: int
    game: str
    public: dict[str, Any]
    seats: dict[str, dict[str, Any]] = field(default_factory=dict)


class WebApp:
    """The Starlette application and the clients it serves (see the module docstring), on the server process's
    loop. ``link.send(message)`` sends a message to the kiosk (:mod:`web.channel`, never blocks);
    :meth:`receive` takes one from it."""

    def __init__(self, link) -> None:
        self.link = link
        self.tokens = SeatTokens()  # the kiosk's, as of the latest snapshot
        self.epoch = 0  # their version
        self.stale = False  # the table has moved on since the latest snapshot
        self._requested = False  # a fresh snapshot was asked for since the latest one
        self._latest: Shown | None = None
        self._verdicts: dict[int, asyncio.Future] = {}
        self._next_id = 0
        self._counts_sent: dict[str, int] | None = None
        self._counts_later: asyncio.TimerHandle | None = None
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

    # -- the kiosk's messages (web.channel) ----------------------------------------------------------------------
    def receive(self, message: dict[str, Any]) -> None:
        """Take one message from the kiosk: a snapshot (with the tokens as of it), the word that it is stale, or
        the verdict on a phone's request. A malformed one raises (the channel ends)."""
        kind = message["type"]
        if kind == "snapshot":
            seats = message["seats"]
            self._latest = Shown(int(message["version"]), str(message["game"]), message["public"], dict(seats))
            self.epoch = int(message["epoch"])
            self.tokens.adopt(self.epoch, message["tokens"])
            self.stale = self._requested = False
            self.link.send({"type": "shown", "version": self._latest.version})
            for client in list(self._clients):
                client.wake.set()
        elif kind == "stale":
            self.stale = True
        elif kind == "verdict":
            verdict = self._verdicts.pop(message["id"], None)
            if verdict is not None and not verdict.done():
                verdict.set_result(message)
        else:
            raise ValueError(f"a message of type {kind!r}")

    def _request(self) -> None:
        """Ask the kiosk for a fresh snapshot, once until it comes (only while the latest is stale)."""
        if self.stale and not self._requested:
            self._requested = True
            self.link.send({"type": "request"})

    def _counts_changed(self) -> None:
        """Tell the kiosk how many WebSockets are connected, at most 20 times a second."""
        if self._counts_later is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._counts_later = loop.call_later(0.05, self._send_counts)

    def _send_counts(self) -> None:
        self._counts_later = None
        counts = self.counts()
        if counts != self._counts_sent:
            self._counts_sent = counts
            self.link.send({"type": "counts", **counts})

    # -- helpers ---------------------------------------------------------------------------------------------------
    @staticmethod
    def _address(scope_holder) -> str:
        client = scope_holder.client
        return client.host if client else "?"

    def _encode(self, snapshot: Shown, seat: str | None) -> str:
        key = (snapshot.version, seat)
        text = self._encoded.get(key)
        if text is None:
            if len(self._encoded) > 64:
                self._encoded.clear()
            payload = snapshot.public if seat is None else snapshot.seats[seat]
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
        return await self._post(seat, data)

    async def _post(self, seat: str, data: dict[str, Any]) -> Response:
        """Send a phone's request to the kiosk, which makes the command from its latest snapshot and posts it
        through the table, and answer with the table's verdict."""
        self._next_id += 1
        verdict: asyncio.Future = asyncio.get_running_loop().create_future()
        self._verdicts[self._next_id] = verdict
        self.link.send({"type": "act", "id": self._next_id, "seat": seat, "epoch": self.epoch, "data": data})
        try:
            answer = await asyncio.wait_for(verdict, REPLY_TIMEOUT)
        except TimeoutError:
            return JSONResponse({"accepted": None, "message": "sent; the table has not answered yet"}, 202)
        finally:
            self._verdicts.pop(self._next_id, None)
        if answer.get("status") == 403:  # the token stopped working on the way: the same refusal as any other
            return PlainTextResponse(FORBIDDEN, 403)
        body = {"accepted": answer.get("accepted"), "message": str(answer.get("message", ""))}
        return JSONResponse(body, int(answer.get("status", 200)))

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
        self._counts_changed()
        self._request()  # a snapshot not built while nobody watched: have one made
        # the connection ends when either side is done: the client went away, or the sender closed it (too slow,
        # or its token stopped working). A client too slow to take even the close frame never says goodbye, so
        # waiting for its messages would keep it here for good
        tasks = {asyncio.create_task(self._send_loop(client)), asyncio.create_task(self._receive_loop(client))}
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            self._clients.discard(client)
            self._counts_changed()
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

    async def _fresh(self) -> Shown | None:
        """The latest snapshot, after asking the kiosk for a new one if it is stale (waiting at most 2 s)."""
        if self.stale:
            before = self._latest.version if self._latest else -1
            self._request()
            for _ in range(200):
                if self._latest is not None and self._latest.version != before:
                    break
                await asyncio.sleep(0.01)
        return self._latest

    def counts(self) -> dict[str, int]:
        """Connected WebSockets: ``{"table": n, "seats": n}`` (sent to the kiosk whenever it changes)."""
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
    """:class:`_Connection`, made when the server starts (uvicorn is imported when it is needed only)."""
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
