"""Seat tokens: the secret in a phone's link that makes it one seat's private panel (issue 20).

Generic: the store knows seats (names) and a game id, never a game's rules. One random token per seat per game:

* made with :func:`secrets.token_bytes` (128 bits) and written in upper-case base32 (26 letters and digits,
  no padding), so a pairing link is all QR *alphanumeric* characters and fits a version-3 QR code on a seat's
  128x64 OLED panel at 2 px a module (``HTTP://192.168.1.20:8080/S/<26 characters>`` is 56 characters);
* rotated (every seat a fresh token) whenever the table moves to another game (:meth:`SeatTokens.for_game`),
  replaced for one seat by :meth:`SeatTokens.revoke` (the phone holding the old link loses the seat at once);
* checked in constant time (:func:`hmac.compare_digest`) against *every* seat's token, so neither a wrong
  token nor a near miss takes a different time to refuse;
* kept in memory only: never in the journal (so never in an export or a backup), never in a log line (the
  store's ``repr`` shows seats, not tokens) and never in a public view. A restart (a power cut) makes new
  tokens: a phone pairs again.

Thread safety: the owner thread rotates and revokes, the web front-end's threads read; one lock guards the swap.
The web server runs in a process of its own (:mod:`web.worker`): the kiosk hands it a copy of the tokens with
every snapshot (:meth:`SeatTokens.export`, over a local socket pair, never logged) and it checks phones' links
against that copy (:meth:`SeatTokens.adopt`, then :meth:`SeatTokens.seat_for`).

Example::

    tokens = SeatTokens()
    tokens.for_game(7, ("ABS", "CBA"))
    link_token = tokens.token("ABS")
    tokens.seat_for(link_token)      # "ABS"
    tokens.revoke("ABS")             # the old link is refused from now on
"""

from __future__ import annotations

import base64
import hmac
import secrets
import threading
from collections.abc import Sequence

#: Random bytes in a token: 128 bits (issue 20 asks for at least 128).
TOKEN_BYTES = 16
#: Characters of a token as written in a link (base32 of 16 bytes, padding dropped).
TOKEN_LENGTH = 26


def new_token() -> str:
    """A fresh token: :data:`TOKEN_BYTES` random bytes (:mod:`secrets`) as upper-case base32 without padding."""
    return base64.b32encode(secrets.token_bytes(TOKEN_BYTES)).decode("ascii").rstrip("=")


class SeatTokens:
    """The seats' tokens for the game in use (see the module docstring). ``version`` grows on every change
    (rotation, revocation), so a web server can close the connections of tokens that are no longer valid."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._game: int | None = None
        self._tokens: dict[str, str] = {}  # seat -> token
        self.version = 0

    def __repr__(self) -> str:  # never the tokens themselves (logs, tracebacks)
        return f"SeatTokens(game={self._game}, seats={sorted(self._tokens)})"

    @property
    def game(self) -> int | None:
        """The game id the tokens belong to (``None`` before the first game)."""
        return self._game

    def for_game(self, game_id: int | None, seats: Sequence[str]) -> bool:
        """Make the tokens those of game ``game_id`` with ``seats``: a different game (or other seats) gets a
        fresh token for every seat and every earlier token stops working; the same game keeps them. ``None``
        (no game open) drops every token. Returns True if the tokens changed."""
        with self._lock:
            if game_id == self._game and set(seats) == set(self._tokens):
                return False
            self._game = game_id
            self._tokens = {seat: new_token() for seat in seats} if game_id is not None else {}
            self.version += 1
            return True

    def token(self, seat: str) -> str:
        """``seat``'s token now (for its pairing link); ``KeyError`` for a seat not in the game."""
        with self._lock:
            return self._tokens[seat]

    def revoke(self, seat: str) -> None:
        """Give ``seat`` a fresh token: whoever holds its old link is refused from now on (and a connected
        phone is disconnected by the web server). ``KeyError`` for a seat not in the game."""
        with self._lock:
            if seat not in self._tokens:
                raise KeyError(seat)
            self._tokens[seat] = new_token()
            self.version += 1

    def export(self) -> tuple[int, dict[str, str]]:
        """``(version, {seat: token})`` now, for the web server's process (:meth:`adopt`). Never log it."""
        with self._lock:
            return self.version, dict(self._tokens)

    def adopt(self, version: int, tokens: dict[str, str], game: int | None = None) -> None:
        """Make these the tokens (a copy :meth:`export` made in the kiosk's process): the web server's side."""
        with self._lock:
            self._tokens = {str(seat): str(token) for seat, token in tokens.items()}
            self._game, self.version = game, version

    def seat_for(self, candidate: str) -> str | None:
        """The seat whose token ``candidate`` is, or ``None``. Compares with every seat's token in constant
        time (no early exit), so the time taken says nothing about how close a guess was."""
        given = candidate.encode("ascii", "replace")[:64] if isinstance(candidate, str) else b""
        with self._lock:
            tokens = list(self._tokens.items())
        found = None
        for seat, token in tokens:
            if hmac.compare_digest(given, token.encode("ascii")):
                found = seat
        return found
