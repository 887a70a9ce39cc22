"""The channel between the kiosk's process and its web server's process (:mod:`web.worker`): one local socket pair,
each message a 4-byte big-endian length and that many bytes of UTF-8 JSON (an object with a ``"type"``). JSON,
never pickle: what the server's process sends can make the kiosk do nothing but what the message types below say.

Kiosk → server:

* ``{"type": "snapshot", "version", "game", "public", "seats": {seat: payload}, "epoch", "tokens": {seat: token}}``:
  the latest snapshot's JSON-able payloads (:class:`web.publisher.Snapshot`, without its commands) and the seats'
  tokens as of it (:meth:`companion.tokens.SeatTokens.export`; ``epoch`` is their version);
* ``{"type": "stale"}``: the table has moved on since the latest snapshot (none is built while nobody watches);
* ``{"type": "verdict", "id", "status", "accepted", "message"}``: the answer to a phone's request ``id``.

Server → kiosk:

* ``{"type": "listening", "port"}`` once, or ``{"type": "failed", "problem"}`` when it cannot listen;
* ``{"type": "shown", "version"}``: snapshot ``version`` (and its tokens) is what the server now serves;
* ``{"type": "counts", "table", "seats"}``: the WebSockets connected, whenever that changes (at most 20 a second);
* ``{"type": "request"}``: a client wants a snapshot that is stale (:meth:`web.publisher.Publisher.request`);
* ``{"type": "act", "id", "seat", "epoch", "data"}``: a phone's request for ``seat`` (its token checked against
  the tokens of ``epoch``), ``data`` the phone's JSON object (at most :data:`web.server.MAX_BODY` bytes);
* ``{"type": "log", "level", "name", "message"}``: a log line of the server's (tokens already replaced).
"""

from __future__ import annotations

import json
import socket
import struct
from typing import Any

HEADER = struct.Struct(">I")
#: Bytes of one message from the server's process at most (a phone's request is under 5 KB); more ends the channel.
MAX_FROM_SERVER = 256 * 1024
#: Bytes of one message to the server's process at most (a snapshot of a big game is some tens of KB).
MAX_TO_SERVER = 64 * 1024 * 1024


class ChannelError(Exception):
    """A message that breaks the channel's framing: too long, or not a JSON object."""


def frame(message: dict[str, Any]) -> bytes:
    """``message`` as it goes down the channel: its length, then its JSON."""
    data = json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return HEADER.pack(len(data)) + data


def decode(data: bytes) -> dict[str, Any]:
    """One message's JSON as an object; :class:`ChannelError` if it is not one."""
    try:
        message = json.loads(data)
    except ValueError as error:
        raise ChannelError(f"not JSON: {error}") from None
    if not isinstance(message, dict):
        raise ChannelError("not a JSON object")
    return message


def _exactly(sock: socket.socket, count: int) -> bytes | None:
    chunks, left = [], count
    while left:
        chunk = sock.recv(min(left, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def receive(sock: socket.socket, limit: int) -> dict[str, Any] | None:
    """The next message from blocking ``sock``, or ``None`` at the end of the channel. :class:`ChannelError` for
    a message over ``limit`` bytes or not a JSON object; ``OSError`` as ``recv`` raises it."""
    header = _exactly(sock, HEADER.size)
    if header is None:
        return None
    (length,) = HEADER.unpack(header)
    if length > limit:
        raise ChannelError(f"a message of {length} bytes (at most {limit})")
    data = _exactly(sock, length)
    if data is None:
        return None
    return decode(data)
