"""Pairing a phone in the real Kivy app (issue 20): a long press of a seat's pair button shows its QR code on that
seat's OLED panel, the Phones dialog shows it on the touchscreen, and Revoke there makes the old link useless.

Run by tests/test_web_pairing.py in a subprocess with a display (Xvfb). Usage: ``python drive_phones.py DATA_DIR
OUT_DIR PORT``. The config is the harness's with ``[web] enabled`` on 127.0.0.1:PORT (a port the test found free)
and, as ``parse_config`` gives the default seats when web is enabled, each seat's slot-a button with
``long = "pair"``. A two-network TV Wars game, then:

1. ABS's slot-a key ("q") held until its panel shows a private page: the panels are saved
   (``phones-paired-panel-1.png``, the QR code the test decodes) with ``link`` (ABS's pairing link then);
2. the web server answers that link (200, over HTTP from this process, no proxies);
3. Phones, then ABS: the dialog shows the QR code (a screenshot) and the same link;
4. Revoke: the dialog's link changes; the old link gets 403 and the new one 200.

Writes ``OUT_DIR/result.json``.
"""

import dataclasses
import sys
import urllib.error
import urllib.request

import harness  # first: it sets Kivy's environment and builds nothing yet
from harness import Retry, find, tap, tap_text, until, waiting

from companion.config import PAIR, WebSection  # noqa: E402

PORT = int(sys.argv[3])


def configure(config, flags):
    seats = tuple(
        dataclasses.replace(
            seat, buttons=tuple(dataclasses.replace(b, long=PAIR) if b.slot == "a" else b for b in seat.buttons)
        )
        for seat in config.seats
    )
    return dataclasses.replace(config, seats=seats, web=WebSection(enabled=True, address="127.0.0.1", port=PORT))


driver = harness.Driver(prefix="phones-", configure=configure, argv=sys.argv[1:3])
controller, result = driver.controller, driver.result
opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def status(link: str) -> int:
    url = link.replace("HTTP://", "http://").replace(f"127.0.0.1:{PORT}".upper(), f"127.0.0.1:{PORT}")
    try:
        with opener.open(url, timeout=10) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


def new_game() -> None:
    from companion.commands import NewGame, PlayerSeat

    controller.table.execute(
        NewGame(game="tv-wars", players=(PlayerSeat("ABS"), PlayerSeat("CBA")), options={"roll_off": False})
    )


def listening() -> None:
    until(lambda: controller.web is not None and controller.web.listening, "the web server to listen")


def hold_down() -> None:
    harness.key_down("q")


def paired() -> None:
    until(lambda: controller.panels.private_showing(0), "ABS's panel to show its pairing page")
    result["link"] = controller.web.seat_link("ABS")


def let_go() -> None:
    harness.key_up("q")


def link_works() -> None:
    until(lambda: controller.web.current, "the web server's process to have the game's tokens")
    result["link_status"] = status(result["link"])


def dialog_seat() -> None:
    popup = until(lambda: controller.popup, "the Phones dialog to open")
    tap(find(popup, lambda w: getattr(w, "text", None) == "ABS"))


def dialog_shows() -> None:
    popup = until(lambda: controller.popup, "the Phones dialog")
    if popup.image.texture is None:
        raise Retry("the QR code in the dialog")
    result["dialog_link"] = controller.web.seat_link("ABS")
    result["dialog_texture"] = list(popup.image.texture.size)
    result["dialog_words"] = popup.words.text


def revoke() -> None:
    tap_text("Revoke this seat's phone")


def revoked() -> None:
    until(lambda: controller.web.current, "the web server's process to have the new token")
    result["new_link"] = controller.web.seat_link("ABS")
    result["old_status"] = status(result["link"])
    result["new_status"] = status(result["new_link"])
    result["revoked_words"] = controller.popup.words.text


steps = [
    new_game,
    listening,
    hold_down,
    paired,
    let_go,
    lambda: driver.save_panels("paired"),
    link_works,
    lambda: tap_text("Phones"),
    dialog_seat,
    dialog_shows,
    lambda: driver.shot("dialog"),
    revoke,
    revoked,
    lambda: driver.shot("revoked"),
    waiting(lambda: True, "nothing"),
]
driver.run(steps)
