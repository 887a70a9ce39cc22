"""The opt-in LAN web front-end (issue 20): a phone as a seat's private panel, and the spectator page.

One more adapter: it reads views and posts commands through the table like the buttons do (source ``"phone"``),
and never changes state itself. Off by default (``[web] enabled = false``): then nothing here is even imported
and the kiosk opens no network socket. The parts:

* :mod:`web.publisher`: on the owner thread, a snapshot of the views after every move; the phones' commands
  posted to the table, their outcomes handed back;
* :mod:`web.server`: Starlette on uvicorn (h11, wsproto) in a thread with its own asyncio loop;
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

from companion.table import Table
from companion.tokens import SeatTokens

log = logging.getLogger("companion.web")


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
    """The web front-end of one table: its seat tokens, the publisher on the owner thread and the server thread.

    ``address``/``port``: where it listens (port 0: any free one, for tests); ``url``: how phones reach it
    (``http://HOST:PORT``; default the LAN address and the bound port); ``defer``: see :mod:`web.publisher` (the
    kiosk gives Kivy's next frame). Build it before the owner thread's first
    command (its publisher subscribes to the table), on the thread that will own the table or before any owns it
    (it makes the first snapshot). Only :mod:`web.publisher` is imported here; the server thread imports
    Starlette and uvicorn itself."""

    def __init__(
        self,
        table: Table,
        *,
        address: str = "0.0.0.0",
        port: int = 8080,
        url: str | None = None,
        defer=None,
    ) -> None:
        from web.publisher import Publisher
        from web.server import ServerThread

        self.table = table
        self.tokens = SeatTokens()
        self.app = None  # the web.server.WebApp, made on the server's thread
        self._latest = None
        self.publisher = Publisher(table, self.tokens, self._publish, defer=defer, watched=self._watched)
        self.server = ServerThread(self._make_app, address, port)
        self._url = url
        self.publisher.refresh()

    def _watched(self) -> bool:
        app = self.app
        return app is not None and app.watched()

    def _publish(self, snapshot) -> None:
        self._latest = snapshot
        app = self.app
        if app is not None:
            app.publish(snapshot)

    def _make_app(self):
        from web.server import WebApp

        app = WebApp(self.tokens, [self.publisher])
        self.app = app  # from now on the owner thread hands snapshots to it ...
        app.publish(self._latest)  # ... and this is the latest before that
        return app

    def start(self, wait: bool = True) -> None:
        """Start the server thread. ``wait``: return once it listens, raising
        :class:`companion.errors.CompanionError` when it cannot; else return at once (the kiosk: its first frame
        does not wait for the imports) and a failure is logged (:attr:`problem`)."""
        self.server.start(wait=wait)
        if wait:
            log.info("web front-end listening on %s:%s", self.server.host, self.server.port)

    @property
    def problem(self) -> str:
        """Why the server is not listening (``""`` while it is, or is still starting)."""
        return self.server.problem

    def stop(self) -> None:
        """Stop listening and close every connection (safe twice)."""
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
