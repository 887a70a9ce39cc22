"""The owner thread's side of the web front-end: snapshots of the views, and the phones' commands.

The web server (a process of its own, :mod:`web.worker`) never reads the table. After every command the table
applies (a table listener, so on the owner thread, right after the panels and screens heard of it),
:class:`Publisher` builds one immutable :class:`Snapshot`: the public view as plain JSON-able data (``public``)
and, per seat, its private view, its legal commands (labels, enabled, why not) and its game's phone forms
(``web.games``), with the complete commands kept beside them (never sent) so that a phone names an action by its
index. The snapshot is handed to the server (``publish(snapshot)``: :class:`web.WebFrontEnd` swaps a reference
and has its sender thread write the latest snapshot's JSON-able payloads to the server's process; never the
commands).

A phone's command goes the other way: the server's process sends the seat, the tokens' version it checked the
phone's token against and the phone's request; :class:`web.WebFrontEnd` makes the command from its latest snapshot
(:func:`command_for_request`) and asks :meth:`Publisher.submit` (from its channel's thread) to post it
through :meth:`companion.table.Table.post` with source ``"phone"``; when the owner thread has applied it, the
listener hands the outcome (accepted with its history line, or the refusal with its reason: the same refusal a
button gets) to the ``reply`` given with it. At most :data:`MAX_IN_FLIGHT` phone commands wait at a time.

Also here: the seats' tokens rotate (:meth:`companion.tokens.SeatTokens.for_game`) as soon as the table moves to
another game (checked after every command: a cheap look at the session's id and players).

**When snapshots are built.** Headless (``defer=None``) a snapshot is built in the listener, after every move. In
the kiosk, ``defer(function)`` runs ``function`` on the owner thread soon (the next Kivy frame): a move then only
asks for one snapshot, several moves in one frame share it, and the panels and the screen are not held up by it;
while no client is connected (``watched()`` false) none is built at all, and a client that connects asks for one
(:meth:`Publisher.request`, any thread). A new game (new tokens) is always published at once.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.commands import Command
from companion.errors import CompanionError
from companion.table import Outcome, Table
from companion.tokens import SeatTokens

log = logging.getLogger("companion.web")

#: Phone commands posted to the table and not yet applied, at most (more are refused as busy).
MAX_IN_FLIGHT = 16

Reply = Callable[[bool, str], None]  # (accepted, message) on the owner thread


@dataclass(frozen=True)
class SeatSnapshot:
    """One seat's part of a :class:`Snapshot`: ``payload`` (JSON-able, what its phone is sent) and ``commands``,
    the complete command of each action in ``payload["actions"]`` by index (``None`` where the player still
    chooses arguments). ``commands`` never leave the server."""

    payload: dict[str, Any]
    commands: tuple[Command | None, ...] = ()


@dataclass(frozen=True)
class Snapshot:
    """What the web front-end shows, as of table ``version`` (grows with every snapshot): the ``game_id`` open
    (``None``: none), the ``game`` registry name, the ``public`` picture (JSON-able, the spectator page's) and
    ``seats`` by name (:class:`SeatSnapshot`)."""

    version: int
    game_id: int | None
    game: str
    public: dict[str, Any]
    seats: dict[str, SeatSnapshot] = field(default_factory=dict)


def public_payload(view, game_id: int | None, version: int) -> dict[str, Any]:
    """The public view (:class:`companion.games.TableView`) as JSON-able data for the spectator page. Only what
    ``public_view`` holds, nothing else: ``{"type": "table", "version", "game": {...} | None, "players": [...]}``."""
    if view is None:
        return {"type": "table", "version": version, "game": None, "players": []}
    return {
        "type": "table",
        "version": version,
        "game": {
            "id": game_id,
            "title": view.title,
            "status": view.status,
            "finished": view.finished,
            "dice": view.pending_dice.describe() if view.pending_dice else None,
            "notes": list(view.notes),
        },
        "players": [
            {
                "name": p.name,
                "colour": p.colour,
                "balance": p.balance,
                "headline": p.headline,
                "lines": list(p.panel_lines),
                "tracks": [{"label": t.label, "value": t.value} for t in p.tracks],
                "badges": list(p.badges),
                "turn": p.turn,
            }
            for p in view.players
        ],
    }


class Publisher:
    """Builds snapshots on the owner thread and posts the phones' commands (see the module docstring).

    ``publish(snapshot)`` is the server's hand-over (any callable; called on the owner thread, must not block).
    ``forms(game_name)`` gives a game's phone forms module or ``None`` (:func:`web.games.forms_for`).
    ``watched()`` says whether any client is connected; ``on_stale()`` is called (owner thread) when the latest
    snapshot becomes older than the table (once until the next snapshot)."""

    def __init__(
        self,
        table: Table,
        tokens: SeatTokens,
        publish: Callable[[Snapshot], None],
        forms: Callable[[str], Any] | None = None,
        *,
        defer: Callable[[Callable[[], None]], None] | None = None,
        watched: Callable[[], bool] = lambda: True,
        on_stale: Callable[[], None] = lambda: None,
    ) -> None:
        from web.games import forms_for

        self.table, self.tokens, self._publish = table, tokens, publish
        self._forms = forms or forms_for
        self._defer, self._watched, self._on_stale = defer, watched, on_stale
        self._version = 0
        self._lock = threading.Lock()
        self._in_flight: dict[int, tuple[Command, Reply]] = {}
        self._asked = False  # a deferred refresh is on its way
        #: True while the latest snapshot is older than the table (no client was watching): :meth:`request`.
        self.stale = False
        self.latest: Snapshot | None = None
        table.subscribe(self._heard)

    # -- owner thread -------------------------------------------------------------------------------------------
    def _heard(self, table: Table, outcome: Outcome) -> None:
        with self._lock:
            waiting = self._in_flight.pop(id(outcome.command), None)
        session = table.session
        rotated = self.tokens.for_game(
            session.game_id if session else None, [p.name for p in session.players] if session else ()
        )
        if rotated or self._defer is None or self.latest is None:
            self.refresh()  # new tokens are published at once: the old game's phones are closed now
        elif outcome.accepted or outcome.records:
            if not self.stale:
                self.stale = True
                self._on_stale()
            if self._watched():
                self._ask()
        # the phone's verdict after the snapshot (or the word that it is stale): whoever reads the table after the
        # verdict sees the move in it
        if waiting is not None and waiting[0] is outcome.command:
            try:
                waiting[1](outcome.accepted, outcome.message)
            except Exception:
                log.exception("telling a phone its command's outcome failed")

    def _ask(self) -> None:
        with self._lock:
            if self._asked:
                return
            self._asked = True
        assert self._defer is not None
        self._defer(self._deferred)

    def _deferred(self) -> None:
        with self._lock:
            self._asked = False
        if self.stale:
            self.refresh()

    def request(self) -> None:
        """A client connected or asked for data (any thread): if the latest snapshot is stale, have the owner
        thread build one soon (``defer``)."""
        if self.stale and self._defer is not None:
            self._ask()

    def refresh(self) -> Snapshot:
        """Build a snapshot of the table now and hand it to the server (owner thread). Never raises: a game whose
        views fail is shown as a problem on the pages, and the kiosk goes on."""
        self._version += 1
        self.stale = False
        try:
            snapshot = self._build(self._version)
        except Exception as error:
            log.exception("the web views could not be made")
            snapshot = Snapshot(
                self._version,
                None,
                "",
                {"type": "table", "version": self._version, "game": None, "players": [], "problem": str(error)},
            )
        self.latest = snapshot
        self._publish(snapshot)
        return snapshot

    def _build(self, version: int) -> Snapshot:
        session = self.table.session
        if session is None:
            self.tokens.for_game(None, ())
            return Snapshot(version, None, "", public_payload(None, None, version))
        rules, state = session.rules, session.state
        view = rules.public_view(state)
        seats = [p.name for p in view.players]
        self.tokens.for_game(session.game_id, seats)
        public = public_payload(view, session.game_id, version)
        forms = self._forms(rules.info.name)
        by_seat = {}
        for seat in seats:
            private = rules.private_view(state, seat)
            offers = rules.legal_commands(state, seat)
            actions = [
                {
                    "index": index,
                    "label": offer.label,
                    "kind": offer.kind,
                    "enabled": offer.enabled,
                    "ready": offer.command is not None,
                    "reason": offer.reason,
                    "rule": offer.rule,
                }
                for index, offer in enumerate(offers)
            ]
            payload = {
                "type": "seat",
                "version": version,
                "seat": seat,
                "private": {"lines": list(private.lines), "items": [list(item) for item in private.items]},
                "actions": actions,
                "forms": forms.seat_forms(rules, state, seat) if forms is not None else {},
                "table": public,
            }
            by_seat[seat] = SeatSnapshot(payload, tuple(offer.command for offer in offers))
        return Snapshot(version, session.game_id, rules.info.name, public, by_seat)

    # -- any thread -----------------------------------------------------------------------------------------------
    def submit(self, command: Command, reply: Reply) -> bool:
        """Post ``command`` (already built for one seat) with source ``"phone"``; ``reply(accepted, message)`` is
        called on the owner thread once it is applied. Returns False (nothing posted) when
        :data:`MAX_IN_FLIGHT` phone commands are already waiting."""
        command = dataclasses.replace(command, source="phone")
        with self._lock:
            if len(self._in_flight) >= MAX_IN_FLIGHT:
                return False
            self._in_flight[id(command)] = (command, reply)
        self.table.post(command)
        return True

    def forget(self, command_id: int) -> None:
        """Stop waiting for a command's outcome (its phone gave up)."""
        with self._lock:
            self._in_flight.pop(command_id, None)


def command_for_action(seat_snapshot: SeatSnapshot, index: Any, label: Any) -> Command:
    """The complete command of action ``index`` of a seat's snapshot, checked to be the one labelled ``label``
    (the phone's page may be a move behind). Raises :class:`CompanionError` in words for the phone."""
    actions = seat_snapshot.payload["actions"]
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(actions):
        raise CompanionError("no such action")
    if actions[index]["label"] != label:
        raise CompanionError("the table has moved on: look again and choose")
    command = seat_snapshot.commands[index]
    if command is None:
        raise CompanionError(f"{label}: this is chosen on the touchscreen (or its form on this page)")
    return command


def command_for_request(snapshot: Snapshot, seat: str, data: dict[str, Any]) -> Command:
    """The command a phone's request ``data`` asks for (``{"action": index, "label": label}``, or
    ``{"form": name, ...}`` for a game's form, :mod:`web.games`) for ``seat`` of ``snapshot``. Raises
    :class:`CompanionError` in words for the phone."""
    if "form" in data:
        from web.games import forms_for

        forms = forms_for(snapshot.game)
        if forms is None:
            raise CompanionError("this game has no forms on the phone")
        return forms.form_command(seat, data["form"], data)
    return command_for_action(snapshot.seats[seat], data.get("action"), data.get("label"))
