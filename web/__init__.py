"""The opt-in LAN web front-end (issue 20): a phone as a seat's private panel, and the spectator page.

One more adapter: it reads views and posts commands through the table like the buttons do (source ``"phone"``),
and never changes state itself. Off by default (``[web] enabled = false``): then nothing here is even imported
and the kiosk opens no network socket. The parts:

* :mod:`web.publisher`: on the owner thread, a snapshot of the views after every move; the phones' commands
  posted to the table, their outcomes handed back;
* :mod:`web.server`: Starlette on uvicorn (h11, wsproto), in a process of its own (:mod:`web.worker`, started and
  stopped by :mod:`web.process`, talked to over a socket pair in length-prefixed JSON, :mod:`web.channel`):
  serving a flood of clients never takes the kiosk's interpreter (its GIL) from its frames and buttons, and the
  niced process leaves the CPU to the kiosk;
* :mod:`web.games`: a game's phone forms (the TV Wars line-up entry);
* :mod:`web.qr`: the pairing link as a QR code (segno) for a seat's OLED panel and the touchscreen;
* ``web/static/``: the pages (plain HTML and a little JavaScript; no build step).

Example (the kiosk does this when ``[web] enabled``)::

    front = WebFrontEnd(table, address="0.0.0.0", port=8080)
    front.start()                 # listening; raises CompanionError if it cannot
    front.seat_link("ABS")        # "HTTP://192.168.1.20:8080/S/<token>", for the pairing QR code
    front.stop()
"""

from __future__ import annotations

import logging
import socket
import threading
from typing import TYPE_CHECKING, Any

from companion.tokens import SeatTokens

if TYPE_CHECKING:
    from companion.table import Table

log = logging.getLogger("companion.web")

#: Seconds to wait before starting the web server's process again after it ended by itself, one per restart in
#: a row (a crash loop backs off; after the last the phones stay off and ``problem`` says so). A process that
#: served for :data:`STABLE_S` seconds before it ended starts the count again.
RESTART_DELAYS = (1.0, 2.0, 5.0, 15.0, 30.0)
STABLE_S = 120.0


def lan_address() -> str:
    """This machine's address on its LAN (the one it would send from to a private address; no packet is sent),
    or ``127.0.0.1`` when it has none."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))
        return probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


class WebFrontEnd:
    """The web front-end of one table: its seat tokens, the publisher on the owner thread, and the web server in a
    process of its own (:class:`web.process.ServerProcess`, running :mod:`web.worker`).

    ``address``/``port``: where it listens (port 0: any free one, for tests); ``url``: how phones reach it
    (``http://HOST:PORT``; default the LAN address and the bound port); ``defer``: see :mod:`web.publisher` (the
    kiosk gives Kivy's next frame); ``limits``: the server's timing limits (``COMPANION_WEB_LIMITS``,
    :mod:`web.worker`; tests only); ``restart_delays``: see :data:`RESTART_DELAYS` (``()``: never restarted).
    Build it before the owner thread's first command (its publisher subscribes to
    the table), on the thread that will own the table or before any owns it (it makes the first snapshot). Only
    :mod:`web.publisher` is imported here: Starlette and uvicorn are imported by the server's process only.

    The kiosk's process keeps the table, the tokens and the commands; the server's gets the snapshots' JSON-able
    payloads and the tokens (:mod:`web.channel`), and sends back each phone's request, which is made into a
    command here, from the latest snapshot, and posted through the table with source ``"phone"``.

    A server's process that ends by itself after it listened (a crash, the OOM killer on a Pi Zero) is started
    again on the same port after :data:`RESTART_DELAYS`, with the same seat tokens: a paired phone's page
    reconnects by itself (``common.js``) and goes on. One that never listened (the port is taken, the address is
    not this machine's) is a configuration problem and is not retried."""

    def __init__(
        self,
        table: Table,
        *,
        address: str = "0.0.0.0",
        port: int = 8080,
        url: str | None = None,
        defer=None,
        limits: str | None = None,
        restart_delays: tuple[float, ...] = RESTART_DELAYS,
    ) -> None:
        from web.publisher import Publisher

        self.table = table
        self.tokens = SeatTokens()
        self._latest: tuple | None = None  # (snapshot, tokens' version, tokens) as of it
        self._sent = 0  # the version of the latest snapshot sent to the server
        self._counts = {"table": 0, "seats": 0}
        #: The version of the snapshot the server serves now (its tokens are the ones it checks): a revoked
        #: link stops working, a new game's links start working, once this reaches the snapshot made for them.
        self.shown = 0
        self._limits, self._delays = limits, tuple(restart_delays)
        self._restarts = 0  # in a row
        self._served = False  # a server of this front-end has listened
        self._stopped = False
        self._next_start: threading.Timer | None = None
        self._waiting = ""  # while a restart is due: "starting it again in 2 s"; after the last: why it stays off
        self._restart_lock = threading.Lock()
        self.server = self._new_server(address, port)
        self.publisher = Publisher(
            table, self.tokens, self._publish, defer=defer, watched=self._watched, on_stale=self._stale
        )
        self._url = url
        self.publisher.refresh()

    # -- the owner thread ----------------------------------------------------------------------------------------
    def _publish(self, snapshot) -> None:
        epoch, tokens = self.tokens.export()  # the tokens change on this thread only: these are the snapshot's
        self._latest = (snapshot, epoch, tokens)
        self.server.post_snapshot()

    def _stale(self) -> None:
        self.server.post({"type": "stale"})

    def _watched(self) -> bool:
        return any(self._counts.values())

    # -- the channel's threads -----------------------------------------------------------------------------------
    def _snapshot_message(self) -> dict[str, Any] | None:
        latest = self._latest
        if latest is None or latest[0].version <= self._sent:
            return None
        snapshot, epoch, tokens = latest
        self._sent = snapshot.version
        return {
            "type": "snapshot",
            "version": snapshot.version,
            "game": snapshot.game,
            "public": snapshot.public,
            "seats": {seat: part.payload for seat, part in snapshot.seats.items()},
            "epoch": epoch,
            "tokens": tokens,
        }

    def _heard_from_server(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "shown":
            self.shown = int(message["version"])
        elif kind == "counts":
            self._counts = {"table": int(message["table"]), "seats": int(message["seats"])}
        elif kind == "request":
            self.publisher.request()
        elif kind == "act":
            self._act(message)
        else:
            log.warning("the web server's process sent a message of an unknown type")

    def _act(self, message: dict[str, Any]) -> None:
        """A phone's request: made into a command from the latest snapshot and posted; its verdict goes back."""
        from companion.errors import CompanionError
        from web.publisher import command_for_request

        ask = message["id"]

        def answer(status: int, accepted: bool | None, text: str) -> None:
            self.server.post({"type": "verdict", "id": ask, "status": status, "accepted": accepted, "message": text})

        seat, data, latest = message.get("seat"), message.get("data"), self._latest
        # tokens that changed since the server checked this one (a new game, a revoked seat): refused as any
        # wrong token
        if latest is None or message.get("epoch") != self.tokens.version or seat not in latest[0].seats:
            answer(403, False, "")
            return
        if not isinstance(data, dict) or not isinstance(seat, str):
            answer(400, False, "not a request this page sends")
            return
        try:
            command = command_for_request(latest[0], seat, data)
        except CompanionError as error:
            answer(400, False, str(error))
            return
        if not self.publisher.submit(command, lambda accepted, text: answer(200, accepted, text)):
            answer(429, False, "the table is busy: try again")

    def _new_server(self, address: str, port: int):
        """The server's process for ``address``:``port``, talking to this front-end (not started)."""
        from web.process import ServerProcess

        return ServerProcess(
            address, port, self._heard_from_server, self._snapshot_message, self._limits, on_end=self._server_ended
        )

    def _server_ended(self, listened: bool, served_s: float) -> None:
        """The server's process ended by itself ("web" thread): another is started after the next of the
        restart delays, unless it never listened."""
        with self._restart_lock:
            self._served = self._served or listened
            if self._stopped or not self._served:
                return
            if served_s >= STABLE_S:
                self._restarts = 0
            if self._restarts >= len(self._delays):
                self._waiting = (
                    f"it stays off after {self._restarts} restart{'' if self._restarts == 1 else 's'} in a row"
                )
                log.error("the web front-end's server ended %d times in a row: %s", self._restarts + 1, self._waiting)
                return
            delay = self._delays[self._restarts]
            self._restarts += 1
            self._waiting = f"starting it again in {delay:g} s"
            log.warning(
                "the web front-end's server: %s (restart %d of %d)", self._waiting, self._restarts, len(self._delays)
            )
            self._next_start = threading.Timer(delay, self._restart)
            self._next_start.daemon = True
            self._next_start.start()

    def _restart(self) -> None:
        """A new server's process on the port the last one listened on, sent the latest snapshot and tokens first
        (a timer's thread)."""
        with self._restart_lock:
            if self._stopped:
                return
            old = self.server
            old.stop()  # reaped already; its threads end
            self._sent, self.shown = 0, 0
            self._counts = {"table": 0, "seats": 0}
            self.server = self._new_server(old.host, old.port)
            self._waiting = ""
            self.server.post_snapshot()
            self.server.start(wait=False)

    # -- any thread ------------------------------------------------------------------------------------------------
    def start(self, wait: bool = True) -> None:
        """Start the server's process. ``wait``: return once it listens, raising
        :class:`companion.errors.CompanionError` when it cannot; else return at once (the kiosk: its first frame
        waits for nothing, the process is started from a thread) and a failure is logged (:attr:`problem`)."""
        self.server.start(wait=wait)

    @property
    def problem(self) -> str:
        """Why the server is not listening (``""`` while it is, or is still starting), and whether it is being
        started again: "its process ended unexpectedly (exit status -9); starting it again in 1 s"."""
        problem, waiting = self.server.problem, self._waiting
        return f"{problem}; {waiting}" if problem and waiting else problem

    @property
    def listening(self) -> bool:
        """Whether the server listens now."""
        return self.server.listening

    @property
    def current(self) -> bool:
        """Whether the server serves the latest snapshot (and the tokens as of it)."""
        latest = self._latest
        return latest is not None and self.shown >= latest[0].version

    def counts(self) -> dict[str, int]:
        """The WebSockets connected: ``{"table": n, "seats": n}`` (as the server last said; never waits)."""
        return dict(self._counts)

    def stop(self) -> None:
        """Stop the server's process (it closes every connection) and reap it, and start no other (safe twice)."""
        with self._restart_lock:
            self._stopped = True
            if self._next_start is not None:
                self._next_start.cancel()
        self.server.stop()

    @property
    def port(self) -> int:
        """The port listened on."""
        return self.server.port

    @property
    def base_url(self) -> str:
        """``http://HOST:PORT`` as phones reach the table."""
        if self._url:
            return self._url
        host = self.server.host
        if host in ("0.0.0.0", "::"):
            host = lan_address()
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{self.port}"

    def seat_link(self, seat: str) -> str:
        """``seat``'s pairing link, all QR alphanumeric characters (upper case): ``HTTP://HOST:PORT/S/<token>``.
        ``KeyError`` for a seat not in the game. Owner thread (it refreshes the tokens for the open game first)."""
        session = self.table.session
        if session is not None and session.game_id != self.tokens.game:
            self.publisher.refresh()
        return f"{self.base_url.upper()}/S/{self.tokens.token(seat)}"

    def revoke(self, seat: str) -> None:
        """Give ``seat`` a new token: its phone is disconnected and must pair again. Owner thread."""
        self.tokens.revoke(seat)
        self.publisher.refresh()  # connected phones of the old token are closed at once


def start_web(config, table: Table, wait: bool = False, defer=None) -> WebFrontEnd:
    """The kiosk's web front-end from ``config.web``, started (``wait``: see :meth:`WebFrontEnd.start`; ``defer``:
    see :mod:`web.publisher`)."""
    front = WebFrontEnd(table, address=config.web.address, port=config.web.port, url=config.web.url, defer=defer)
    front.start(wait=wait)
    return front
