"""Helpers for the web front-end's tests: a real table with its owner thread, the real web server on an ephemeral
loopback port, and a scripted TV Wars game up to a Ratings War's line-ups.

* :class:`Owner`: the table's owner thread, a plain loop as when headless (``wait_pending`` then
  ``process_pending``) that also runs the test's calls (``owner.call(fn)``), so the test thread never touches
  the table;
* :class:`LiveWeb`: a journal on a temporary file, the table, its owner, and a :class:`web.WebFrontEnd` made on
  the owner thread and listening on 127.0.0.1 (port 0; ``limits``: the server process's ``COMPANION_WEB_LIMITS``);
  ``http()`` is an httpx client for it (no proxies from the environment);
* :func:`to_line_ups`: ABS and CBA with the :data:`SECRET_PROGRAMS` as their starting programming, a Star of
  :data:`STAR_VALUE` for ABS, and ABS landing on the Ratings War: the line-up phase (TV Wars 6).
"""

from __future__ import annotations

import queue
import re
import threading
import time
from pathlib import Path

import httpx

from companion.commands import NewGame, PlayerSeat
from companion.dice import SeededDice
from companion.games.tv_wars import TV_WARS
from companion.games.tv_wars.setup import ProgramSpec, SelectStartingProgramming
from companion.journal import Journal
from companion.table import Table

#: Each network's eleven starting programs (TV Wars 2.3): ten hours, named, with their secret ratings.
SECRET_PROGRAMS = {
    "ABS": (
        ProgramSpec(1, "green", 30, name="ZEBRA HOUR"),
        ProgramSpec(1, "green", 40, name="QUOKKA NEWS"),
        ProgramSpec(1, "red", 50, name="WOMBAT LATE"),
        ProgramSpec(1, "red", 60, name="NUMBAT NIGHT"),
        ProgramSpec(1, "blue", 20, name="IBIS TONIGHT"),
        ProgramSpec(2, "blue", 70, name="KOALA COURT"),
        ProgramSpec(2, "yellow", 80, name="DINGO DRAMA"),
        ProgramSpec(2, "yellow", None, special=True, name="EMU SPECIAL"),
        ProgramSpec(2, "red", 10, name="BILBY BLUES"),
        ProgramSpec(3, "blue", 70, name="PLATYPUS PARK"),
        ProgramSpec(4, "green", 90, name="CASSOWARY CUP"),
    ),
    "CBA": (
        ProgramSpec(1, "green", 20, name="HERON HOUR"),
        ProgramSpec(1, "green", 30, name="OTTER NEWS"),
        ProgramSpec(1, "red", 40, name="BADGER LATE"),
        ProgramSpec(1, "red", 90, name="STOAT NIGHT"),
        ProgramSpec(1, "blue", 50, name="MARTEN TONIGHT"),
        ProgramSpec(2, "blue", 60, name="FERRET COURT"),
        ProgramSpec(2, "yellow", 70, name="WEASEL DRAMA"),
        ProgramSpec(2, "yellow", None, special=True, name="VOLE SPECIAL"),
        ProgramSpec(2, "red", 80, name="SHREW BLUES"),
        ProgramSpec(3, "blue", 10, name="MOLE PARK"),
        ProgramSpec(4, "green", 70, name="HEDGEHOG CUP"),
    ),
    "PBC": (
        ProgramSpec(1, "blue", 20, name="GANNET HOUR"),
        ProgramSpec(1, "blue", 30, name="PUFFIN NEWS"),
        ProgramSpec(1, "red", 40, name="TERN LATE"),
        ProgramSpec(1, "red", 90, name="SKUA NIGHT"),
        ProgramSpec(1, "yellow", 50, name="SHAG TONIGHT"),
        ProgramSpec(2, "blue", 60, name="FULMAR COURT"),
        ProgramSpec(2, "yellow", 70, name="PETREL DRAMA"),
        ProgramSpec(2, "red", None, special=True, name="AUK SPECIAL"),
        ProgramSpec(2, "red", 80, name="GULL BLUES"),
        ProgramSpec(3, "blue", 10, name="KITTIWAKE PARK"),
        ProgramSpec(4, "red", 70, name="ALBATROSS CUP"),
    ),
}
STAR_VALUE = 30  # the Rating Points ABS's Star adds (5.1), secret until it is played (9.1)


class Owner:
    """The table's owner thread (see the module docstring). ``stop()`` ends it."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self._calls: queue.SimpleQueue = queue.SimpleQueue()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="owner", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        self.table.claim()
        while not self._stop.is_set():
            self.table.wait_pending(0.02)
            while True:
                try:
                    function, answer = self._calls.get_nowait()
                except queue.Empty:
                    break
                try:
                    answer.put((True, function()))
                except BaseException as error:  # handed to the caller
                    answer.put((False, error))
            self.table.process_pending()

    def call(self, function, timeout: float = 60.0):
        """Run ``function()`` on the owner thread and return its result (or raise its error)."""
        answer: queue.SimpleQueue = queue.SimpleQueue()
        self._calls.put((function, answer))  # the loop takes it within its short wait
        try:
            ok, value = answer.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"the owner thread did not run {function!r} within {timeout} s") from None
        if not ok:
            raise value
        return value

    def execute(self, command):
        """Execute ``command`` on the owner thread; assert it was accepted; return the outcome."""
        outcome = self.call(lambda: self.table.execute(command))
        assert outcome.accepted, outcome.message
        return outcome

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(10)


class LiveWeb:
    """A table, its owner thread and the web front-end on 127.0.0.1 (see the module docstring)."""

    def __init__(self, folder: Path, limits: str | None = None, restart_delays: tuple[float, ...] = ()) -> None:
        from web import WebFrontEnd

        self.journal = Journal(folder / "journal.sqlite3")
        self.table = Table(self.journal, dice=SeededDice(1))
        self.owner = Owner(self.table)
        self.front = self.owner.call(
            lambda: WebFrontEnd(self.table, address="127.0.0.1", port=0, limits=limits, restart_delays=restart_delays)
        )
        self.front.start(wait=True)
        self.base = f"http://127.0.0.1:{self.front.port}"
        self.ws_base = f"ws://127.0.0.1:{self.front.port}"

    def http(self, **options) -> httpx.Client:
        return httpx.Client(base_url=self.base, trust_env=False, timeout=30, **options)

    def token(self, seat: str) -> str:
        """``seat``'s token, once the server checks links against it (its process gets the tokens with the
        snapshots)."""
        token = self.owner.call(lambda: self.front.tokens.token(seat))
        self.synced()
        return token

    def synced(self) -> None:
        """Wait until the server serves the owner thread's latest snapshot and tokens."""
        latest = self.owner.call(lambda: self.front.publisher.latest.version)
        wait_for(lambda: self.front.shown >= latest, f"the server to serve snapshot {latest}")

    def close(self) -> None:
        self.front.stop()
        self.owner.stop()
        self.journal.close()


def new_game(live: LiveWeb, names=("ABS", "CBA"), **options) -> int:
    players = tuple(PlayerSeat(name, colour) for name, colour in zip(names, ("#d55e00", "#56b4e9", "#f0e442")))
    options = {"roll_off": False, **options}
    outcome = live.owner.execute(NewGame(game="tv-wars", players=players, options=options, source="test"))
    live.synced()
    return outcome.records[0].game_id


def to_line_ups(live: LiveWeb, names=("ABS", "CBA")) -> None:
    """Play the scripted game of ``names`` (two or three networks) up to the Ratings War's line-up phase (see the
    module docstring)."""
    from companion.games.tv_wars import EnterTileValue, LandOn, Nominate, PassBid

    new_game(live, names)
    for network in names:
        live.owner.execute(SelectStartingProgramming(network=network, programs=SECRET_PROGRAMS[network], source="test"))
    live.owner.execute(LandOn(network="ABS", space="talent_agency", source="test"))
    live.owner.execute(Nominate(network="ABS", source="test"))
    for network in names[1:]:
        live.owner.execute(PassBid(network=network, source="test"))
    live.owner.execute(EnterTileValue(network="ABS", value=STAR_VALUE, source="test"))
    live.owner.execute(LandOn(network="CBA", space="ratings_war", source="test"))
    state = live.owner.call(lambda: live.table.state)
    assert state.war is not None and state.war.phase == "line-ups", TV_WARS.status(state)


def full_line_up(form: dict, bonus: bool = True) -> list[list]:
    """A legal line-up from a phone's line-up form: its longest programs while they fit the six half-hours (a
    4 and a 2 for :data:`SECRET_PROGRAMS`: the most programming, 6.1), the first bonus tile on the first."""
    placed, used = [], 0
    for program in sorted(form["programs"], key=lambda p: -p["length"]):
        if used + program["length"] <= form["slots"]:
            placed.append([program["id"], None])
            used += program["length"]
    if bonus and form["bonuses"]:
        placed[0][1] = form["bonuses"][0]["id"]
    return placed


def secrets_of(live: LiveWeb, seat: str) -> list[str]:
    """Every secret of ``seat`` (TV Wars 9.1) as text that must never reach anyone else: each tile's owner's
    text (its id, name, kind and rating or value), each program's name, ``"<rating> RP"``, and its peek lines."""
    state = live.owner.call(lambda: live.table.state)
    holdings = state.network(seat).holdings
    found = [t.private_text for t in holdings.programs] + [t.private_text for t in holdings.bonuses]
    found += [t.name for t in holdings.programs if t.name]
    found += [f"{t.rating} RP" for t in holdings.programs if t.rating is not None]
    found += [line for line in TV_WARS.private_view(state, seat).lines if len(line) > 6]
    return sorted(set(found))


def leaks(secrets: list[str], payloads: list[str]) -> list[tuple[str, str]]:
    """``(secret, payload start)`` for every secret found in a payload."""
    return [(secret, payload[:80]) for secret in secrets for payload in payloads if secret in payload]


def wait_for(condition, what: str, timeout: float = 30.0):
    """Wait until ``condition()`` is truthy (returns it); fails naming ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.01)


TOKEN_LIKE = re.compile(r"[A-Z2-7]{26}")
