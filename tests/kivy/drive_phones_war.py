"""A TV Wars Ratings War with two phones and the touchscreen, in the real Kivy kiosk with ``[web] enabled``
(issue 20): the kiosk's side of tests/test_web_browser.py's whole-table test.

Usage: ``python drive_phones_war.py DATA_DIR OUT_DIR PORT``. ABS, CBA and PBC (tests/web_helpers.py's secret
programs) start, ABS lands on the Ratings War; then this driver writes ``OUT_DIR/phones.json`` (the base URL and
ABS's and CBA's pairing links, as the Phones dialog shows them); while the test's two Chromium phones enter and
lock their line-ups, PBC enters its own on the touchscreen (its board's line-up dialog): "I am PBC" at once, its
tiles and Check once ABS's phone has locked in, then it writes ``OUT_DIR/pbc-checked`` (the test's CBA phone
locks in only after that) and, once CBA has locked in too, Lock in: the dialog stays open with PBC's tiles across
both phones' moves. Meanwhile a 30 Hz clock callback records how late the main thread runs it (the kiosk's frames
wait on the same thread), before the phones came and while they work. The dashboard is saved as
``phones-war-locked.png``. Writes ``OUT_DIR/result.json``.
"""

import dataclasses
import json
import sys
import time
from pathlib import Path

import harness  # first: it sets Kivy's environment and builds nothing yet
from harness import Retry, tap, tap_text, until

from companion.config import WebSection  # noqa: E402

PORT = int(sys.argv[3])
OUT = Path(sys.argv[2])
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/, for web_helpers' secret programs
from web_helpers import SECRET_PROGRAMS  # noqa: E402


def configure(config, flags):
    return dataclasses.replace(config, web=WebSection(enabled=True, address="127.0.0.1", port=PORT))


driver = harness.Driver(prefix="phones-war-", configure=configure, argv=sys.argv[1:3])
controller, result = driver.controller, driver.result
lateness: dict[str, list[float]] = {"before": [], "phones": []}
phase = {"name": "before", "last": None}


def tick(dt) -> None:
    now = time.perf_counter()
    if phase["last"] is not None and phase["name"] in lateness:
        lateness[phase["name"]].append(now - phase["last"] - 1 / 30)
    phase["last"] = now


def setup() -> None:
    from companion.commands import NewGame, PlayerSeat
    from companion.games.tv_wars import LandOn
    from companion.games.tv_wars.setup import SelectStartingProgramming

    table = controller.table
    players = tuple(PlayerSeat(n, c) for n, c in zip(("ABS", "CBA", "PBC"), ("#d55e00", "#56b4e9", "#f0e442")))
    outcome = table.execute(NewGame(game="tv-wars", players=players, options={"roll_off": False}))
    assert outcome.accepted, outcome.message
    for network in ("ABS", "CBA", "PBC"):
        done = table.execute(SelectStartingProgramming(network=network, programs=SECRET_PROGRAMS[network]))
        assert done.accepted, done.message
    assert table.execute(LandOn(network="ABS", space="ratings_war")).accepted


def listening() -> None:
    until(lambda: controller.web.listening, "the web server to listen")
    from kivy.clock import Clock

    Clock.schedule_interval(tick, 1 / 30)


def baseline() -> None:
    until(lambda: len(lateness["before"]) >= 60, "two seconds of clock ticks before the phones")


def hand_out_links() -> None:
    until(lambda: controller.web.current, "the web server's process to have the game's tokens")
    links = {seat: controller.web.seat_link(seat) for seat in ("ABS", "CBA")}
    (OUT / "phones.json.tmp").write_text(json.dumps({"base": f"http://127.0.0.1:{PORT}", "links": links}))
    (OUT / "phones.json.tmp").replace(OUT / "phones.json")
    phase["name"] = "phones"


def phones_locked() -> None:
    war = controller.table.state.war
    locked = {e.network for e in war.entries if e.locked}
    if not {"ABS", "CBA"} <= locked:
        raise Retry(f"ABS's and CBA's phones to lock in (locked: {sorted(locked) or 'none'})")
    phase["name"] = "after"
    result["locked_by_phones"] = sorted(locked)


def pbc_fills() -> None:
    holdings = controller.table.state.network("PBC").holdings
    left, chosen = 6, []
    for tile in sorted(holdings.programs, key=lambda t: -t.length):
        if tile.length <= left:
            chosen.append(tile.id)
            left -= tile.length
    for tile_id in chosen:
        tap(driver.popup().tile_buttons[tile_id], scroll=True)  # the tiles list scrolls


def finish() -> None:
    war = controller.table.state.war
    result["phase"] = war.phase
    result["locked"] = sorted(e.network for e in war.entries if e.locked)
    result["status"] = controller.status
    events = controller.table.journal.events(controller.table.session.game_id)
    result["locked_by"] = {
        e.payload.get("network"): e.payload.get("by") for e in events if e.type == "ratings_war_lineup_locked"
    }
    result["lateness_ms"] = {
        name: sorted(round(x * 1000, 2) for x in values) for name, values in lateness.items() if values
    }


def locked_by_now(networks: set[str], label: str):
    """A step waiting until exactly ``networks`` have locked in; records which had when, under ``label``."""

    def step() -> None:
        locked = {e.network for e in controller.table.state.war.entries if e.locked}
        if not networks <= locked:
            raise Retry(f"{sorted(networks)} to lock in (locked: {sorted(locked) or 'none'})")
        popup = driver.popup()
        result.setdefault("pbc_dialog", {})[label] = {
            "locked": sorted(locked),
            "open": popup is not None and getattr(popup, "network", None) == "PBC",
            "placed": len(getattr(popup, "placements", ())),
        }

    return step


def pbc_checked() -> None:
    result.setdefault("pbc_dialog", {})["checked"] = {"message": controller.message}
    (OUT / "pbc-checked").write_text("")  # the test's CBA phone locks in only now


steps = [
    setup,
    listening,
    baseline,
    hand_out_links,
    # PBC starts at the touchscreen while the phones work: its dialog stays open across both phones' moves
    lambda: tap_text("PBC line-up"),
    lambda: tap_text("I am PBC", driver.popup()),
    locked_by_now({"ABS"}, "after ABS's phone"),
    pbc_fills,
    lambda: tap_text("Check", driver.popup()),
    pbc_checked,
    phones_locked,
    locked_by_now({"ABS", "CBA"}, "after CBA's phone"),
    lambda: tap_text("Lock in", driver.popup()),
    lambda: until(lambda: driver.popup() is None, "the line-up dialog to close"),
    finish,
    lambda: driver.shot("locked"),
]
driver.run(steps, timeout=180)
