"""The web front-end (issue 20): a phone as a seat's private panel, the spectator page, and their security.

Real parts throughout: a :class:`companion.table.Table` on an SQLite journal file with its owner thread
(:class:`web_helpers.Owner`), the real server (Starlette on uvicorn, h11 and wsproto) on an ephemeral loopback
port, real HTTP (httpx) and WebSocket (websockets) clients, raw TCP sockets for the misbehaving ones, and a
:class:`hardware.buttons.ButtonBoard` on gpiozero mock pins for the buttons whose commands must still be applied
while the server is flooded. Nothing here waits a fixed time: every wait is for a condition, with a timeout that
names it.
"""

from __future__ import annotations

import base64
import contextlib
import json
import logging
import os
import socket
import statistics
import threading
import time
from pathlib import Path

import httpx
import pytest
from web_helpers import (
    TOKEN_LIKE,
    LiveWeb,
    full_line_up,
    leaks,
    new_game,
    secrets_of,
    to_line_ups,
    wait_for,
)
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from companion.tokens import TOKEN_BYTES, SeatTokens, new_token

# websockets 15+ would rather see its connections in with-blocks; these are kept open across steps, closed by hand
pytestmark = pytest.mark.filterwarnings("ignore:connect\\(\\) must be used as a context manager:DeprecationWarning")


@pytest.fixture
def live(tmp_path):
    web = LiveWeb(tmp_path)
    try:
        yield web
    finally:
        web.close()


@contextlib.contextmanager
def live_web(tmp_path, limits: str):
    """A :class:`LiveWeb` whose server has these ``COMPANION_WEB_LIMITS`` (:mod:`web.worker`)."""
    web = LiveWeb(tmp_path, limits=limits)
    try:
        yield web
    finally:
        web.close()


def ws(live: LiveWeb, path: str, origin: str | None = "same", **options):
    """A WebSocket client on ``path`` with the page's own ``Origin`` (``"same"``), another, or none."""
    origin = live.base if origin == "same" else origin
    return connect(live.ws_base + path, origin=origin, proxy=None, open_timeout=20, **options)


class Collector:
    """Reads every message of a WebSocket on a thread of its own; ``messages`` is what came, in order."""

    def __init__(self, connection) -> None:
        self.connection, self.messages, self.closed = connection, [], None
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        try:
            while True:
                self.messages.append(self.connection.recv())
        except ConnectionClosed as closed:
            self.closed = closed
        self.closed = self.closed or True

    def last(self) -> dict:
        return json.loads(self.messages[-1]) if self.messages else {}

    def close(self) -> None:
        self.connection.close()
        self._thread.join(10)


def act(client: httpx.Client, live: LiveWeb, token: str, body: dict, origin: str | None = "same") -> httpx.Response:
    headers = {"Origin": live.base if origin == "same" else origin} if origin else {}
    return client.post(f"/api/seat/{token}/act", json=body, headers=headers)


def action(payload: dict, kind: str) -> dict:
    return next(a for a in payload["actions"] if a["kind"] == kind)


# -- tokens ---------------------------------------------------------------------------------------------------------


def test_tokens_carry_128_random_bits_rotate_with_every_game_and_are_checked_against_every_seat():
    token = new_token()
    assert len(base64.b32decode(token + "=" * (-len(token) % 8))) == TOKEN_BYTES >= 16
    assert len({new_token() for _ in range(1000)}) == 1000
    tokens = SeatTokens()
    assert tokens.for_game(1, ("ABS", "CBA"))
    first = {seat: tokens.token(seat) for seat in ("ABS", "CBA")}
    assert not tokens.for_game(1, ("CBA", "ABS"))  # the same game keeps its tokens
    assert {tokens.seat_for(t): s for s, t in first.items()} == {"ABS": "ABS", "CBA": "CBA"}
    assert tokens.for_game(2, ("ABS", "CBA"))
    assert all(tokens.seat_for(t) is None for t in first.values())
    assert set(first.values()).isdisjoint(tokens.token(seat) for seat in ("ABS", "CBA"))
    second = tokens.token("ABS")
    tokens.revoke("ABS")
    assert tokens.seat_for(second) is None and tokens.seat_for(tokens.token("ABS")) == "ABS"
    assert tokens.seat_for("") is None and tokens.seat_for("é" * 30) is None
    assert tokens.token("ABS") not in repr(tokens)
    now = tokens.token("CBA")
    tokens.for_game(None, ())  # no game open: no token works
    assert tokens.seat_for(now) is None


def test_a_token_is_compared_in_constant_time_with_every_seats_token_whichever_matches(monkeypatch):
    """The check never exits early: every seat's token goes through :func:`hmac.compare_digest` (the constant-time
    comparison) for a miss, a near miss and a hit on the first or the last seat alike, so how long a refusal takes
    says nothing about which seat a guess came close to (a dict lookup or ``==`` would fail this)."""
    import companion.tokens

    compared: list[tuple[bytes, bytes]] = []
    real = companion.tokens.hmac.compare_digest

    def counting(a, b):
        compared.append((a, b))
        return real(a, b)

    monkeypatch.setattr(companion.tokens.hmac, "compare_digest", counting)
    seats = ("ABS", "CBA", "PBC", "TBS")
    tokens = SeatTokens()
    tokens.for_game(3, seats)
    first, last = tokens.token("ABS"), tokens.token("TBS")
    for candidate, seat in (
        (new_token(), None),
        (last[:-1] + ("A" if last[-1] != "A" else "B"), None),
        (first, "ABS"),
        (last, "TBS"),
        ("", None),
    ):
        compared.clear()
        assert tokens.seat_for(candidate) == seat
        assert len(compared) == len(seats), (candidate, len(compared))
        assert {b for _, b in compared} == {tokens.token(s).encode() for s in seats}
        assert all(isinstance(a, bytes) and isinstance(b, bytes) for a, b in compared)


# -- what one seat sees, and does ------------------------------------------------------------------------------------


def test_a_phone_reads_its_own_seat_and_acts_for_it_through_the_table_with_source_phone(live):
    new_game(live)
    with live.http() as client:
        page = client.get(f"/seat/{live.token('ABS')}")
        assert page.status_code == 200 and "seat.js" in page.text
        assert client.get(f"/S/{live.token('ABS')}").status_code == 200  # the QR code's short form
        mine = client.get(f"/api/seat/{live.token('ABS')}").json()
        assert mine["seat"] == "ABS" and mine["table"]["players"][0]["name"] == "ABS"
        on_air = action(mine, "PassOnTheAir")
        answer = act(client, live, live.token("ABS"), {"action": on_air["index"], "label": on_air["label"]})
        assert answer.status_code == 200 and answer.json()["accepted"] is True, answer.text
        assert "ABS" in answer.json()["message"]
    rows = live.owner.call(lambda: live.journal.events(live.table.session.game_id))
    assert rows[-1].payload["by"] == "phone" and rows[-1].payload.get("network", "ABS") == "ABS"


def test_one_seats_token_can_neither_read_nor_act_for_another(live):
    to_line_ups(live)
    abs_token, cba_token = live.token("ABS"), live.token("CBA")
    with live.http() as client:
        mine = client.get(f"/api/seat/{abs_token}").json()
        text = json.dumps(mine)
        assert mine["seat"] == "ABS"
        only_cba = sorted(set(secrets_of(live, "CBA")) - set(secrets_of(live, "ABS")))  # not ABS's own too
        assert len(only_cba) > 20 and not leaks(only_cba, [text]), "CBA's secrets reached ABS's phone"
        assert leaks(secrets_of(live, "ABS"), [text]), "ABS's own secrets are missing from its phone (search broken?)"
        # ABS's phone submits a line-up made of CBA's tiles: it is entered for ABS (the token's seat), never for
        # CBA, and the table refuses it (the tiles are not ABS's)
        cba_programs = [p["id"] for p in client.get(f"/api/seat/{cba_token}").json()["forms"]["lineup"]["programs"]]
        abs_programs = {p["id"] for p in mine["forms"]["lineup"]["programs"]}
        foreign = [p for p in cba_programs if p not in abs_programs][:2]
        answer = act(
            client, live, abs_token, {"form": "lineup", "action": "lock", "placements": [[p, None] for p in foreign]}
        )
        assert answer.json()["accepted"] is False, answer.text
        body = {"form": "lineup", "action": "enter", "placements": [[p, None] for p in foreign], "network": "CBA"}
        assert act(client, live, abs_token, body).json()["accepted"] is False
    war = live.owner.call(lambda: live.table.state.war)
    assert all(not e.entered and not e.locked for e in war.entries), "a foreign phone changed an entry"


def test_two_phones_enter_and_lock_their_line_ups_and_refusals_come_back_with_the_rule(live):
    to_line_ups(live)
    with live.http() as client:
        for seat in ("ABS", "CBA"):
            token = live.token(seat)
            form = client.get(f"/api/seat/{token}").json()["forms"]["lineup"]
            one = [[form["programs"][0]["id"], None]]
            bad = act(client, live, token, {"form": "lineup", "action": "lock", "placements": one})
            assert bad.json()["accepted"] is False and "TV Wars 6.1" in bad.json()["message"], bad.text
            good = act(client, live, token, {"form": "lineup", "action": "enter", "placements": full_line_up(form)})
            assert good.json()["accepted"] is True, good.text
            locked = action(client.get(f"/api/seat/{token}").json(), "LockLineUp")
            answer = act(client, live, token, {"action": locked["index"], "label": locked["label"]})
            assert answer.json()["accepted"] is True, answer.text
    war = live.owner.call(lambda: live.table.state.war)
    assert all(e.locked for e in war.entries) and war.phase == "reveal"


# -- nothing secret reaches the public -----------------------------------------------------------------------------


def test_no_public_payload_of_a_scripted_game_holds_a_secret_value(live, caplog):
    """Every public payload of the scripted game (the spectator socket's every message, the spectator page and
    its data, the static files, every refusal to a wrong token) and everything the other seat's phone received is
    searched for each seat's secrets (TV Wars 9.1): none is there. The same search finds them on the seat's own
    phone, so it can fail. No log line holds a token."""
    caplog.set_level(logging.DEBUG)
    table_socket = Collector(ws(live, "/ws/table"))
    new_game(live)
    wait_for(lambda: table_socket.last().get("game"), "the spectator socket's first game")
    to_line_ups(live)  # a second game, to the line-ups
    phones = {seat: Collector(ws(live, f"/ws/seat/{live.token(seat)}")) for seat in ("ABS", "CBA")}
    wait_for(lambda: all(p.last().get("forms", {}).get("lineup") for p in phones.values()), "both phones' forms")
    public: list[str] = []
    with live.http() as client:
        for seat in ("ABS", "CBA"):  # each phone enters a line-up, then locks it
            token = live.token(seat)
            form = client.get(f"/api/seat/{token}").json()["forms"]["lineup"]
            ones = [[p["id"], None] for p in form["programs"] if p["length"] == 1]  # 5 half-hours: refused (6.1)
            refused = act(client, live, token, {"form": "lineup", "action": "enter", "placements": ones})
            assert refused.json()["accepted"] is False
            lineup = {"form": "lineup", "action": "lock", "placements": full_line_up(form), "promotion": False}
            assert act(client, live, token, lineup).json()["accepted"] is True
        for path in (
            "/",
            "/table",
            "/api/table",
            "/static/seat.js",
            "/static/table.js",
            "/static/common.js",
            "/static/style.css",
            "/seat/" + "A" * 26,
            "/api/seat/x",
            "/S/" + new_token(),
        ):
            public.append(client.get(path).text)
        public.append(act(client, live, "B" * 26, {"action": 0, "label": "On the Air"}).text)
    version = live.owner.call(lambda: live.front.publisher.latest.version)
    wait_for(lambda: table_socket.last().get("version") == version, "the spectator socket's latest version")
    wait_for(lambda: all(p.last().get("version") == version for p in phones.values()), "the phones' latest version")
    public += table_socket.messages
    assert len(table_socket.messages) >= 5
    secrets = {seat: secrets_of(live, seat) for seat in ("ABS", "CBA")}
    assert len(secrets["ABS"]) > 20 and any("Star 30" in s for s in secrets["ABS"])
    for seat, other in (("ABS", "CBA"), ("CBA", "ABS")):
        assert not leaks(secrets[seat], public), f"{seat}'s secrets in a public payload"
        only = sorted(set(secrets[seat]) - set(secrets[other]))  # a rating both hold may show on either's own phone
        assert not leaks(only, phones[other].messages), f"{seat}'s secrets on {other}'s phone"
        assert leaks(secrets[seat], phones[seat].messages), f"{seat}'s own phone lacks its secrets: search broken?"
    tokens = {live.token("ABS"), live.token("CBA")}
    from companion.export import export_figures_csv, export_json

    game_id = live.owner.call(lambda: live.table.session.game_id)
    exported = live.owner.call(lambda: export_json(live.journal, game_id) + export_figures_csv(live.journal, game_id))
    stored = b"".join(p.read_bytes() for p in live.journal.path.parent.glob("journal.sqlite3*"))
    assert not [t for t in tokens if t in exported or t.encode() in stored], "a token in the journal or an export"
    assert "phone" in exported  # the phones' commands are there, journaled with their source
    server_side = ("companion", "web", "uvicorn", "starlette")  # the test's own clients (httpx) log their URLs
    logged = "\n".join(r.getMessage() for r in caplog.records if r.name.split(".")[0] in server_side)
    assert "game 2" in logged  # the table's own lines were captured
    assert not [t for t in tokens if t in logged] and not TOKEN_LIKE.search(logged)
    for collector in (table_socket, *phones.values()):
        collector.close()


# -- refusals: 403 for every failure, the same body --------------------------------------------------------------


def test_wrong_old_and_revoked_tokens_and_foreign_origins_all_get_the_same_403(live):
    new_game(live)
    old = live.token("ABS")
    with live.http() as client:
        assert client.get(f"/seat/{old}").status_code == 200
        new_game(live)  # a new game: every token rotates
        new = live.token("ABS")
        assert new != old
        answers = [
            client.get(f"/seat/{old}"),
            client.get(f"/api/seat/{old}"),
            client.get("/seat/" + new_token()),
            client.get("/seat/" + new[:-1] + ("A" if new[-1] != "A" else "B")),  # one character off
            act(client, live, old, {"action": 0, "label": "On the Air"}),
            act(client, live, new, {"action": 0, "label": "On the Air"}, origin="http://evil.example"),
            act(client, live, new, {"action": 0, "label": "On the Air"}, origin=None),
        ]
        assert [a.status_code for a in answers] == [403] * len(answers)
        assert {a.text for a in answers} == {"Forbidden\n"}
        assert client.get(f"/seat/{new}").status_code == 200
        live.owner.call(lambda: live.front.revoke("ABS"))
        live.synced()
        assert client.get(f"/seat/{new}").status_code == 403
        assert client.get(f"/seat/{live.token('ABS')}").status_code == 200
    for token, origin in ((old, "same"), (live.token("ABS"), "http://evil.example"), (live.token("ABS"), None)):
        with pytest.raises(InvalidStatus) as refused:
            ws(live, f"/ws/seat/{token}", origin=origin)
        assert refused.value.response.status_code == 403
    with pytest.raises(InvalidStatus) as refused:  # another site's page may not watch either
        ws(live, "/ws/table", origin="http://evil.example")
    assert refused.value.response.status_code == 403
    overlay = ws(live, "/ws/table", origin=None)  # a stream overlay (a browser source) sends no Origin: public
    assert json.loads(overlay.recv(timeout=20))["type"] == "table"
    overlay.close()


def test_a_connected_phone_is_closed_when_its_seat_is_revoked_or_a_new_game_starts(live):
    new_game(live)
    phone = Collector(ws(live, f"/ws/seat/{live.token('CBA')}"))
    wait_for(lambda: phone.messages, "the phone's first message")
    live.owner.call(lambda: live.front.revoke("CBA"))
    wait_for(lambda: phone.closed, "the revoked phone's socket to close")
    assert phone.closed.rcvd is not None and phone.closed.rcvd.code == 4403
    phone = Collector(ws(live, f"/ws/seat/{live.token('CBA')}"))
    wait_for(lambda: phone.messages, "the new link's first message")
    new_game(live)
    wait_for(lambda: phone.closed, "the old game's phone socket to close")
    assert phone.closed.rcvd.code == 4403


def test_guessing_is_rate_limited_per_address_then_even_a_right_token_is_refused(tmp_path):
    """GUESSES wrong tries, then the address is refused even the right token until a guess is back (one every
    GUESS_REFILL s: 8 s here, far longer than the eleven requests take, then waited for)."""
    from web.server import GUESSES

    with live_web(tmp_path, "GUESS_REFILL=8") as live:
        new_game(live)
        right = live.token("ABS")
        with live.http() as client:
            started = time.monotonic()
            for _ in range(GUESSES):
                assert client.get("/seat/" + new_token()).status_code == 403
            refused = client.get(f"/seat/{right}")
            assert time.monotonic() - started < 8, "too slow to test: a guess came back meanwhile"
            assert refused.status_code == 403 and refused.text == "Forbidden\n"
            with live.http(transport=httpx.HTTPTransport(local_address="127.0.0.2")) as other:
                assert other.get(f"/seat/{right}").status_code == 200  # another address is not held back
            # a right token spends no guess while refused: asking again until one is back
            wait_for(lambda: client.get(f"/seat/{right}").status_code == 200, "a guess back after 8 s", 30)
            assert time.monotonic() - started >= 8 * 0.9


def test_commands_from_one_seat_are_rate_limited(live):
    new_game(live)
    token = live.token("ABS")
    with live.http() as client:
        statuses = [act(client, live, token, {"action": 99, "label": "x"}).status_code for _ in range(12)]
    assert 429 in statuses and statuses[0] == 400


def test_oversized_and_malformed_requests_and_messages_are_refused_and_change_nothing(tmp_path):
    with live_web(tmp_path, "ACT_REFILL=0.001") as live:  # not the commands' rate limit under test here
        _oversized_and_malformed(live)


def _oversized_and_malformed(live: LiveWeb) -> None:
    new_game(live)
    token = live.token("ABS")
    before = live.owner.call(lambda: len(live.journal.events(live.table.session.game_id)))
    with live.http() as client:
        headers = {"Origin": live.base, "Content-Type": "application/json"}
        big = client.post(f"/api/seat/{token}/act", content=b"{" + b" " * 10_000 + b"}", headers=headers)
        assert big.status_code == 413
        for body in (
            b"not json",
            b"[1, 2]",
            b'{"action": "0"}',
            b'{"action": 0, "label": "Sponsor"}',
            b'{"form": "lineup", "action": "enter", "placements": "P1"}',
            b'{"form": "lineup", "action": "enter", "placements": [["' + b"X" * 50 + b'", null]]}',
            b'{"form": "nope"}',
        ):
            answer = client.post(f"/api/seat/{token}/act", content=body, headers=headers)
            assert answer.status_code == 400 and answer.json()["accepted"] is False, (body, answer.text)
    after = live.owner.call(lambda: len(live.journal.events(live.table.session.game_id)))
    assert after == before
    spectator = ws(live, "/ws/table")
    spectator.send("x" * 5000)  # over the 1 KB limit: closed with 1009 (message too big)
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            spectator.recv(timeout=20)
    assert closed.value.rcvd.code == 1009
    chatty = ws(live, "/ws/table")
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(500):
            chatty.send("ping")
        while True:
            chatty.recv(timeout=20)
    assert closed.value.rcvd.code == 1008
    # raw requests with a broken header block, and with headers that never end, are answered 400 and closed
    for junk in (b"GET / HTTP/1.1\r\nHost x\r\n\r\n", b"GET / HTTP/1.1\r\nHost: x\r\nX-Junk: " + b"a" * 200_000):
        with socket.create_connection(("127.0.0.1", live.front.port), timeout=20) as raw:
            raw.sendall(junk)
            answer = raw.recv(100)
        assert answer.startswith(b"HTTP/1.1 400"), answer
    with live.http() as client:
        assert client.get("/api/table").json()["game"]["title"] == "TV Wars"


def test_hundreds_of_idle_half_sent_requests_neither_lock_the_phones_out_nor_stay_open(tmp_path):
    with live_web(tmp_path, "REQUEST_TIMEOUT=2") as live:
        _half_sent_requests(live)


def _half_sent_requests(live: LiveWeb) -> None:
    """A slow-loris flood: 300 connections from eight addresses each send half a request head and then nothing.
    The server keeps at most MAX_CONNECTIONS_PER_ADDRESS of an address's connections and closes one whose head
    has not ended within REQUEST_TIMEOUT, so a phone's page, data and commands are still answered (before, the
    idle connections filled uvicorn's limit and every phone's request got 503 for as long as they stayed)."""
    new_game(live)
    token = live.token("ABS")
    flood: list[socket.socket] = []
    try:
        for index in range(300):
            raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            raw.bind((f"127.0.0.{2 + index % 8}", 0))
            raw.settimeout(20)
            try:
                raw.connect(("127.0.0.1", live.front.port))
                raw.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
            except OSError:
                pass
            flood.append(raw)
        with live.http() as client:
            assert client.get(f"/seat/{token}").status_code == 200
            mine = client.get(f"/api/seat/{token}")
            assert mine.status_code == 200, mine.text
            on_air = action(mine.json(), "PassOnTheAir")
            answer = act(client, live, token, {"action": on_air["index"], "label": on_air["label"]})
            assert answer.status_code == 200 and answer.json()["accepted"] is True, answer.text

        def closed(raw: socket.socket) -> bool:
            try:
                return raw.recv(1) == b""
            except ConnectionResetError:
                return True
            except OSError:  # timed out: still open
                return False

        for raw in flood[:24] + flood[-8:]:  # kept ones and the last ones: all closed by the deadline
            raw.settimeout(20)
            assert closed(raw), "an idle half-sent request was kept open past the deadline"
    finally:
        for raw in flood:
            raw.close()


def test_spectators_sockets_are_capped_and_never_crowd_a_seats_phone_out(live):
    """At most MAX_SOCKETS spectators' WebSockets (MAX_SOCKETS_PER_ADDRESS from one address); a seat's phone has
    room of its own beside them (MAX_SOCKETS_PER_SEAT), so a LAN device filling the spectators' places cannot
    cut the phones off their live updates (before, the phones counted against the same 64)."""
    from web.server import MAX_SOCKETS, MAX_SOCKETS_PER_ADDRESS, MAX_SOCKETS_PER_SEAT

    new_game(live)

    def status(raw: socket.socket) -> bytes:
        answer = b""
        while b"\r\n" not in answer:
            chunk = raw.recv(64)
            if not chunk:
                break
            answer += chunk
        return answer.split(b"\r\n")[0]

    held: list[socket.socket] = []
    try:
        for index in range(MAX_SOCKETS):
            source = f"127.0.0.{2 + index // MAX_SOCKETS_PER_ADDRESS}"
            held.append(_handshake(live.front.port, "/ws/table", live.base, source))
            assert b" 101 " in status(held[-1]), index
        held.append(_handshake(live.front.port, "/ws/table", live.base, "127.0.0.2"))
        assert b" 403 " in status(held[-1])  # the address has its 16
        held.append(_handshake(live.front.port, "/ws/table", live.base, "127.0.0.40"))
        assert b" 403 " in status(held[-1])  # the spectators have their 64
        wait_for(lambda: live.front.counts()["table"] == MAX_SOCKETS, "the spectators' sockets")
        token = live.token("ABS")
        phones = [ws(live, f"/ws/seat/{token}") for _ in range(MAX_SOCKETS_PER_SEAT)]
        assert all(json.loads(phone.recv(timeout=20))["seat"] == "ABS" for phone in phones)
        with pytest.raises(InvalidStatus) as refused:
            ws(live, f"/ws/seat/{token}")
        assert refused.value.response.status_code == 403  # a seat's own places are capped too
        cba = ws(live, f"/ws/seat/{live.token('CBA')}")
        assert json.loads(cba.recv(timeout=20))["seat"] == "CBA"
        for phone in (*phones, cba):
            phone.close()
    finally:
        for raw in held:
            raw.close()


# -- a flood leaves the buttons working --------------------------------------------------------------------------


def _handshake(port: int, path: str, origin: str, source: str) -> socket.socket:
    raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    raw.bind((source, 0))
    raw.settimeout(20)
    raw.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    raw.sendall(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nOrigin: {origin}\r\n\r\n".encode()
    )
    return raw


@pytest.mark.slow
def test_a_flood_of_connections_and_slow_clients_leave_the_buttons_and_the_table_working(tmp_path, capsys):
    with live_web(tmp_path, "SEND_TIMEOUT=1") as live:
        _flood(live, capsys)


def _flood(live: LiveWeb, capsys) -> None:
    """Hundreds of connections from another address (half-sent requests, WebSockets that never read, clients
    fetching as fast as they can, token guessing) while a seat's button is pressed on gpiozero mock pins: every
    press is applied, a slow client is closed, a well-behaved spectator still gets the latest state. The
    button-to-table latency is printed beside the same presses without the flood (measured, not asserted)."""
    from gpiozero.pins.mock import MockFactory

    from companion.config import default_config
    from companion.games.tv_wars import TV_WARS
    from hardware.buttons import ButtonBoard

    new_game(live)
    applied: list[float] = []

    def heard(table, outcome) -> None:
        if outcome.command.source == "button":
            applied.append(time.monotonic())

    live.owner.call(lambda: live.table.subscribe(heard))
    factory = MockFactory()
    board = ButtonBoard(
        default_config(), live.table.post, lambda a, p: TV_WARS.button_command(a, p, "button"), pin_factory=factory
    )
    board.seat_players(("ABS", "CBA"))
    pin = factory.pin(27)  # ABS's second button: Sponsor, no long action (acts as the press settles)

    def presses(count: int) -> list[float]:
        latencies = []
        for index in range(count):
            seen = len(applied)
            pressed = time.monotonic()
            pin.drive_low()
            wait_for(lambda: len(applied) > seen, f"press {index + 1} to be applied")
            latencies.append(applied[-1] - pressed)
            released = board.detectors[27].releases
            pin.drive_high()
            wait_for(lambda: board.detectors[27].releases > released, f"press {index + 1}'s release to settle")
        return latencies

    try:
        quiet = presses(20)
        slow = _handshake(live.front.port, f"/ws/seat/{live.token('ABS')}", live.base, "127.0.0.3")
        wait_for(lambda: live.front.counts()["seats"] == 1, "the slow phone to be connected")
        flood: list[socket.socket] = []
        stop = threading.Event()
        for index in range(300):
            raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            raw.bind(("127.0.0.2", 0))
            raw.settimeout(20)
            try:
                raw.connect(("127.0.0.1", live.front.port))
            except OSError:
                raw.close()
                continue
            try:  # beyond the per-address cap the server closes a connection at once
                if index % 2:
                    raw.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # never finished
                else:
                    raw.close()
                    raw = _handshake(live.front.port, "/ws/table", live.base, "127.0.0.2")  # never read
            except OSError:
                pass
            flood.append(raw)

        def hammer(path: str) -> None:
            with httpx.Client(
                base_url=live.base,
                trust_env=False,
                timeout=30,
                transport=httpx.HTTPTransport(local_address="127.0.0.2"),
            ) as client:
                while not stop.is_set():
                    try:
                        client.get(path)
                    except httpx.HTTPError:
                        pass

        hammers = [
            threading.Thread(target=hammer, args=(p,), daemon=True)
            for p in ("/api/table", "/api/table", "/seat/" + "Q" * 26, "/api/seat/" + "Z" * 26)
        ]
        for thread in hammers:
            thread.start()
        spectator = Collector(ws(live, "/ws/table"))
        try:
            flooded = presses(20)
            # the slow phone: big seat payloads until its buffers fill; it is closed, nobody waits for it
            from companion.commands import BANK, TransferMoney

            for index in range(400):
                if live.front.counts()["seats"] == 0:
                    break
                live.owner.execute(
                    TransferMoney(payer=BANK, payee="ABS", amount=100, reason=f"flood {index}", source="test")
                )
            wait_for(lambda: live.front.counts()["seats"] == 0, "the slow phone to be closed")
            version = live.owner.call(lambda: live.front.publisher.latest.version)
            wait_for(lambda: spectator.last().get("version") == version, "the spectator's latest state")
        finally:
            stop.set()
            for thread in hammers:
                thread.join(30)
            spectator.close()
            for raw in flood:
                raw.close()
            slow.close()
    finally:
        board.close()
    assert len(quiet) == len(flooded) == 20
    with capsys.disabled():
        print(
            f"\nbutton -> table applied: quiet median {statistics.median(quiet) * 1000:.1f} ms "
            f"(max {max(quiet) * 1000:.1f}); flooded by {len(flood)} connections and 4 hammering clients: median "
            f"{statistics.median(flooded) * 1000:.1f} ms (max {max(flooded) * 1000:.1f})"
        )


# -- no listener unless enabled ------------------------------------------------------------------------------------


def test_the_web_config_is_off_by_default_and_a_broken_value_is_named():
    from companion.config import PAIR, parse_config
    from companion.errors import ConfigError

    config = parse_config({})
    assert config.web.enabled is False and config.web.port == 8080
    assert all(b.long != PAIR for seat in config.seats for b in seat.buttons)
    on = parse_config({"web": {"enabled": True, "address": "127.0.0.1", "port": 8099, "url": "http://table.lan:8099"}})
    assert on.web.enabled and on.web.address == "127.0.0.1" and on.web.url == "http://table.lan:8099"
    assert [b.long for b in on.seats[0].buttons] == [PAIR, None, "peek"]
    for bad, key in (
        ({"enabled": "yes"}, "web.enabled"),
        ({"port": 70000}, "web.port"),
        ({"address": "my-pi"}, "web.address"),
        ({"url": "table.lan"}, "web.url"),
        ({"listen": 1}, "web.listen"),
    ):
        with pytest.raises(ConfigError) as error:
            parse_config({"web": bad})
        assert key in str(error.value), error.value


def test_deferred_snapshots_are_built_once_per_frame_only_while_watched_and_a_new_game_at_once(tmp_path):
    """The kiosk's mode (``defer``: Kivy's next frame): moves ask for one snapshot between frames, none is built
    while nobody watches, a client's request builds one, and a new game's tokens are published at once."""
    from companion.commands import BANK, NewGame, PlayerSeat, TransferMoney
    from companion.journal import Journal
    from companion.table import Table
    from web.publisher import Publisher

    journal = Journal(tmp_path / "journal.sqlite3")
    table = Table(journal)
    table.claim()
    frames: list = []
    published: list = []
    watching = [False]
    publisher = Publisher(table, SeatTokens(), published.append, defer=frames.append, watched=lambda: watching[0])
    try:
        publisher.refresh()
        table.execute(NewGame(game="tv-wars", players=(PlayerSeat("ABS"), PlayerSeat("CBA")), options={}))
        assert len(published) == 2 and published[-1].game_id is not None and not frames  # at once: new tokens
        pay = lambda: table.execute(TransferMoney(payer=BANK, payee="ABS", amount=100, reason="x", correction=True))
        pay()
        assert len(published) == 2 and publisher.stale and not frames  # nobody watches: nothing built
        publisher.request()
        assert len(frames) == 1
        watching[0] = True
        pay()
        pay()
        assert len(frames) == 1  # one frame's refresh for everything so far
        frames.pop()()
        assert len(published) == 3 and not publisher.stale
        assert published[-1].public["players"][0]["balance"] == 31_000 + 300
    finally:
        journal.close()


def test_every_registered_game_gets_a_public_view_and_a_panel_per_seat_on_the_phones(live):
    """The web front-end knows no game: each registered game's new game is published with its public view and,
    per seat, its private view and legal actions, served to that seat's token."""
    from companion.commands import NewGame, PlayerSeat
    from companion.games import game_info, game_names

    with live.http() as client:
        for name in game_names():
            info = game_info(name)
            players = tuple(PlayerSeat(n) for n in info.default_names[: info.min_players])
            live.owner.execute(NewGame(game=name, players=players, source="test"))
            live.synced()  # the server's process has the new game's snapshot
            public = client.get("/api/table").json()
            assert public["game"]["title"] == info.title and not public.get("problem"), public
            for player in players:
                mine = client.get(f"/api/seat/{live.token(player.name)}").json()
                assert mine["seat"] == player.name and mine["actions"], (name, mine)


def test_death_show_tv_a_fighter_shows_their_cards_from_the_phone_as_on_the_touchscreen(live):
    """How Combat Is Resolved 1-2 on a phone (issue 20): the fighter to declare gets the Combat form (cards held,
    the Weapon level in play, the other fighters), nobody else does; a Weapon above the level in play is refused
    with the rule and changes nothing; the declaration is the touchscreen's own command, journaled as the phone's."""
    from companion.commands import NewGame, PlayerSeat
    from companion.games.death_show_tv.commands import DrawCard, EndTurn, Hunt, Move, declaration

    players = (PlayerSeat("Kelpie"), PlayerSeat("Jhon"))
    options = {"roll_off": False, "starting_cards": 3}
    live.owner.execute(NewGame(game="death-show-tv", players=players, options=options, source="test"))
    for command in (
        DrawCard(player="Kelpie"),
        Move(player="Kelpie", location="The Caves"),
        EndTurn(player="Kelpie"),
        DrawCard(player="Jhon"),
        Hunt(player="Jhon", location="The Caves"),  # Jhon attacks and shows his cards first
    ):
        assert live.owner.execute(command).accepted
    jhon, kelpie = live.token("Jhon"), live.token("Kelpie")
    with live.http() as client:
        wait_for(lambda: client.get(f"/api/seat/{jhon}").json()["forms"].get("declare"), "Jhon's Combat form")
        form = client.get(f"/api/seat/{jhon}").json()["forms"]["declare"]
        assert form == {"cards": 3, "weapon_level": 1, "against": ["Kelpie"], "attacker": "Jhon"}
        assert client.get(f"/api/seat/{kelpie}").json()["forms"] == {}
        before = live.owner.call(lambda: live.table.state)
        too_high = {"form": "declare", "weapon_bonus": 4, "weapon_level": 2, "extra": 0, "extra_cards": 0}
        refused = act(client, live, jhon, too_high).json()
        assert refused["accepted"] is False and "Types of Show Cards: Weapons" in refused["message"], refused
        assert live.owner.call(lambda: live.table.state) == before
        out_of_turn = act(client, live, kelpie, {"form": "declare", "weapon_bonus": 0, "weapon_level": 1}).json()
        assert out_of_turn["accepted"] is False
        shown = {"form": "declare", "weapon_bonus": 3, "weapon_level": 1, "extra": 2, "extra_cards": 1}
        assert act(client, live, jhon, shown).json()["accepted"] is True
        for bad in ({**shown, "extra_cards": "two"}, {**shown, "weapon_level": 4}, {**shown, "two_dice": 1}):
            assert act(client, live, kelpie, bad).json()["accepted"] is False
        wait_for(lambda: client.get(f"/api/seat/{kelpie}").json()["forms"].get("declare"), "Kelpie's Combat form")
    state = live.owner.call(lambda: live.table.state)
    assert state.contestant("Jhon").cards == 1  # the Weapon and the one Equipment card were played
    rows = live.owner.call(lambda: live.journal.events(live.table.session.game_id))
    declared = [r.payload for r in rows if r.payload.get("by") == "phone"]
    assert len(declared) == 1
    touch = declaration("Jhon", 3, 1, 2, 1, False)
    assert state.combat.fighter("Jhon").weapon_bonus == touch.weapon_bonus == 3


# -- the server's process --------------------------------------------------------------------------------------------


def _gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (gone, or a zombie not yet reaped by whoever adopted it)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except (FileNotFoundError, ProcessLookupError):
        return True


def test_the_server_runs_in_a_niced_process_of_its_own_and_stop_reaps_it(live):
    """The listener is another process's (so serving costs the owner thread's interpreter nothing), at a lower
    priority; ``stop()`` ends and reaps it, and a second ``stop()`` is harmless."""
    server = live.front.server.process
    assert server is not None and server.pid != os.getpid() and server.poll() is None
    assert os.getpriority(os.PRIO_PROCESS, server.pid) == min(19, os.getpriority(os.PRIO_PROCESS, 0) + 10)
    assert server.args[1:4] == ["-P", "-m", "web.worker"]
    live.front.stop()
    assert server.returncode == 0 and not live.front.listening
    live.front.stop()
    with pytest.raises(httpx.ConnectError):
        httpx.get(live.base + "/api/table", trust_env=False, timeout=5)


def test_a_taken_port_is_a_companion_error_when_waiting_and_a_problem_when_not(tmp_path):
    from companion.errors import CompanionError
    from companion.journal import Journal
    from companion.table import Table
    from web import WebFrontEnd

    journal = Journal(tmp_path / "journal.sqlite3")
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        waiting = WebFrontEnd(Table(journal), address="127.0.0.1", port=port)
        with pytest.raises(CompanionError) as error:
            waiting.start(wait=True)
        assert "could not listen" in str(error.value) and "in use" in str(error.value)
        waiting.stop()
        kiosk = WebFrontEnd(Table(journal), address="127.0.0.1", port=port)
        started = time.monotonic()
        kiosk.start(wait=False)
        assert time.monotonic() - started < 0.5  # the kiosk's first frame waits for nothing
        wait_for(lambda: kiosk.problem, "the problem to be known")
        assert "address already in use" in kiosk.problem.lower() and not kiosk.listening
        kiosk.stop()
        kiosk.stop()
    finally:
        taken.close()
        journal.close()


def test_the_server_process_dying_is_logged_and_the_table_goes_on(live, caplog):
    """The server's process killed: the kiosk's side logs it, says so in ``problem`` and keeps working (the owner
    thread applies commands, a seat link is still made, revoking still works); ``stop()`` is still safe."""
    import signal

    from companion.commands import BANK, TransferMoney

    new_game(live)
    caplog.set_level(logging.INFO)
    os.kill(live.front.server.process.pid, signal.SIGKILL)
    wait_for(lambda: live.front.problem, "the server's end to be noticed")
    assert "ended unexpectedly" in live.front.problem and not live.front.listening
    assert any("the web front-end stopped" in r.getMessage() for r in caplog.records)
    for index in range(5):
        live.owner.execute(TransferMoney(payer=BANK, payee="ABS", amount=100, reason=f"after {index}", source="test"))
    live.owner.call(lambda: live.front.revoke("ABS"))
    assert "/S/" in live.owner.call(lambda: live.front.seat_link("ABS"))
    live.front.stop()


def test_a_server_process_that_dies_is_started_again_and_a_paired_phone_goes_on(tmp_path, caplog):
    """A crash (here SIGKILL; on a Pi Zero the OOM killer) after the server listened: another process is started
    on the same port after the first restart delay, with the same seat tokens, so a paired phone's link still
    opens its seat, its WebSocket reconnects (``common.js`` does it by itself; here a new connection) and its
    moves reach the table. A second crash after the last delay leaves the phones off, and ``problem`` says why."""
    import signal

    caplog.set_level(logging.INFO)
    web = LiveWeb(tmp_path, restart_delays=(0.2,))
    try:
        new_game(web)
        token, port = web.token("ABS"), web.front.port
        first = web.front.server.process.pid
        phone = Collector(ws(web, f"/ws/seat/{token}"))
        wait_for(lambda: phone.messages, "the phone's first view")
        os.kill(first, signal.SIGKILL)
        wait_for(lambda: phone.closed is not None, "the phone's WebSocket to close with its server")
        wait_for(lambda: web.front.listening and web.front.server.pid not in (None, first), "another server's process")
        assert web.front.port == port and web.front.problem == ""
        assert any("starting it again in 0.2 s (restart 1 of 1)" in r.getMessage() for r in caplog.records)
        web.synced()
        assert web.token("ABS") == token  # the same link: no new pairing
        again = Collector(ws(web, f"/ws/seat/{token}"))
        wait_for(lambda: again.messages, "the reconnected phone's view")
        with web.http() as client:
            mine = client.get(f"/api/seat/{token}").json()
            assert mine["seat"] == "ABS"
            on_air = action(mine, "PassOnTheAir")
            answer = act(client, web, token, {"action": on_air["index"], "label": on_air["label"]})
            assert answer.status_code == 200 and answer.json()["accepted"] is True, answer.text
        again.connection.close()
        # the second crash in a row, past the last delay: the phones stay off, and the kiosk says why
        os.kill(web.front.server.process.pid, signal.SIGKILL)
        wait_for(lambda: "stays off" in web.front.problem, "the front-end to give up")
        assert (
            web.front.problem
            == "its process ended unexpectedly (exit status -9); it stays off after 1 restart in a row"
        )
        assert not web.front.listening
    finally:
        web.close()


#: A kiosk in a few lines: a table and its web front-end; prints its server's pid and port, then waits for ever.
KIOSK = """
import sys, time
from companion.journal import Journal
from companion.table import Table
from web import WebFrontEnd
table = Table(Journal(sys.argv[1]))
table.claim()
front = WebFrontEnd(table, address="127.0.0.1", port=0)
front.start(wait=True)
print(front.server.process.pid, front.port, flush=True)
time.sleep(600)
"""


def test_the_server_process_ends_when_the_kiosk_is_killed(tmp_path):
    """``SIGKILL`` gives the kiosk no time to stop its server: the server's process sees its channel end and goes
    too, closing its port (no orphan listening for phones with no table behind it)."""
    import signal
    import subprocess
    import sys

    kiosk = subprocess.Popen(
        [sys.executable, "-P", "-c", KIOSK, str(tmp_path / "journal.sqlite3")], stdout=subprocess.PIPE, text=True
    )
    try:
        pid, port = (int(n) for n in kiosk.stdout.readline().split())
        assert httpx.get(f"http://127.0.0.1:{port}/api/table", trust_env=False, timeout=20).status_code == 200
        kiosk.send_signal(signal.SIGKILL)
        kiosk.wait(30)
        wait_for(lambda: _gone(pid), "the orphaned server's process to end")
        with pytest.raises(httpx.ConnectError):
            httpx.get(f"http://127.0.0.1:{port}/api/table", trust_env=False, timeout=5)
    finally:
        if kiosk.poll() is None:
            kiosk.kill()
        kiosk.wait(30)
