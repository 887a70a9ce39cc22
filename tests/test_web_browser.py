"""The web pages in a real browser (issue 20): Debian's Chromium, driven through Debian's chromium-driver by
Selenium (the driver's path is given, so Selenium Manager downloads nothing), headless, each browser with a fresh
profile. ./run-tests installs the Debian packages, so these run in CI.

A three-network TV Wars game at its Ratings War (``web_helpers.to_line_ups``): ABS and CBA each open their pairing
link (the QR code's ``/S/<token>`` form) on a phone-sized browser (390x844) and enter and lock their line-ups
there; PBC locks its line-up at the table (a command from the touchscreen); a TV-sized browser (1920x1080) shows
the spectator page throughout. Screenshots go to ``test-artifacts/web-*.png`` (look at them).
"""

from __future__ import annotations

import contextlib
import shutil
from pathlib import Path

import pytest
from web_helpers import LiveWeb, full_line_up, leaks, secrets_of, to_line_ups, wait_for

CHROMIUM, CHROMEDRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
ARTIFACTS = Path(__file__).parent.parent / "test-artifacts"

pytestmark = pytest.mark.slow
if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):  # ./run-tests installs them (Debian chromium, chromium-driver)
    pytestmark = [pytest.mark.slow, pytest.mark.skip(reason="Debian's chromium and chromium-driver are not installed")]


def capsys_disabled():
    """Print past pytest's capture (the figures a test measures), as ``capsys.disabled()`` does."""
    import sys

    return contextlib.redirect_stdout(sys.__stdout__)


def browser(profile: Path, width: int, height: int):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--no-proxy-server",
        f"--user-data-dir={profile}",
        f"--window-size={width},{height}",
    ):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    driver.set_window_size(width, height)
    # the window's size is not the page's: the browser's own frame takes some of it. The viewport itself is set
    # (CSS pixels, one device pixel each, so a screenshot's pixels are the page's)
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 800},
    )
    driver.viewport = [width, height]  # what shot() checks the page has
    return driver


#: What :func:`audit` finds on the page: visible text under :data:`MIN_TEXT_PX`, text reaching past the
#: viewport's sides, a page wider than the viewport (a phone would scroll sideways), and the viewport's size.
AUDIT = """
const min = arguments[0], found = [], width = window.innerWidth;
for (const node of document.querySelectorAll("body *")) {
  const own = Array.from(node.childNodes).some(c => c.nodeType === 3 && c.textContent.trim());
  const box = node.getBoundingClientRect(), style = getComputedStyle(node);
  if (!own || box.width === 0 || box.height === 0 || style.visibility === "hidden") continue;
  const text = node.textContent.trim().slice(0, 40), size = parseFloat(style.fontSize);
  if (size < min) found.push(`${size}px text: ${text}`);
  if (box.left < 0 || box.right > width + 0.5) found.push(`past the sides (${box.left}-${box.right}): ${text}`);
  if (node.scrollWidth > node.clientWidth + 1 && style.overflowX !== "visible" && node.tagName !== "SELECT")
    found.push(`cut off (${node.scrollWidth} of ${node.clientWidth} px): ${text}`);
}
const wide = document.documentElement.scrollWidth;
if (wide > width) found.push(`the page is ${wide} px wide`);
return {viewport: [window.innerWidth, window.innerHeight], problems: found};
"""
MIN_TEXT_PX = 18  # on a phone (the kiosk's own rule for its touchscreen, STYLE.md)


def text_of(driver, element_id: str) -> str:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.ID, element_id).text


def shot(driver, name: str) -> Path:
    """Save a screenshot as ``test-artifacts/web-<name>.png``, after auditing what it shows (:data:`AUDIT`): the
    viewport is the one asked for, no text is smaller than :data:`MIN_TEXT_PX` (on a TV: 28 px, the spectator
    page's across a room, less a fifth for its badges), none reaches past the sides or is cut off."""
    minimum = MIN_TEXT_PX if driver.viewport[0] < 800 else 22
    found = driver.execute_script(AUDIT, minimum)
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"web-{name}.png"
    driver.save_screenshot(str(path))
    assert found["problems"] == [], f"{path.name}: {found['problems']}"
    assert found["viewport"] == driver.viewport, f"{path.name}: the viewport is {found['viewport']}"
    return path


@pytest.fixture
def live(tmp_path):
    web = LiveWeb(tmp_path)
    try:
        yield web
    finally:
        web.close()


def enter_line_up_on_the_phone(phone, live: LiveWeb, seat: str) -> None:
    """On ``seat``'s phone page: pick its longest programs that fit (with its first bonus on the first), Lock in,
    and wait for the table's verdict on the page."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    with live.http() as client:
        form = client.get(f"/api/seat/{live.token(seat)}").json()["forms"]["lineup"]
    for program, bonus in full_line_up(form):
        Select(phone.find_element(By.ID, "add-program")).select_by_value(program)
        Select(phone.find_element(By.ID, "add-bonus")).select_by_value(bonus or "")
        phone.find_element(By.ID, "add").click()
    wait_for(lambda: "6 of 6" in text_of(phone, "lineup-total"), f"{seat}'s page to count six half-hours")
    shot(phone, f"phone-{seat}-line-up")
    phone.find_element(By.ID, "lock").click()


def test_two_phones_enter_their_line_ups_while_a_third_network_uses_the_table_and_a_tv_watches(live, tmp_path):
    from companion.games.tv_wars.war_at_table import LockLineUp

    to_line_ups(live, ("ABS", "CBA", "PBC"))
    tv = browser(tmp_path / "tv", 1920, 1080)
    phones = {}
    try:
        tv.get(live.base + "/")
        wait_for(lambda: "Ratings War" in text_of(tv, "status") or "line-up" in text_of(tv, "status"), "the TV")
        shot(tv, "tv-line-ups")
        for seat in ("ABS", "CBA"):
            phone = phones[seat] = browser(tmp_path / seat, 390, 844)
            phone.get(f"{live.base}/S/{live.token(seat)}")
            wait_for(lambda: text_of(phone, "live") == "live", f"{seat}'s page to be live")
            wait_for(lambda: phone.find_element("id", "lineup-box").is_displayed(), f"{seat}'s line-up form")
            shot(phone, f"phone-{seat}")
        enter_line_up_on_the_phone(phones["ABS"], live, "ABS")
        pbc = live.owner.call(lambda: live.front.publisher.latest.seats["PBC"].payload["forms"]["lineup"])
        placements = tuple((p, b) for p, b in full_line_up(pbc))
        live.owner.execute(LockLineUp(network="PBC", placements=placements, source="touch"))
        enter_line_up_on_the_phone(phones["CBA"], live, "CBA")
        for seat, phone in phones.items():
            wait_for(lambda: "locked" in text_of(phone, "message").lower(), f"{seat}'s page to say it locked in")
            wait_for(lambda: not phone.find_element("id", "lineup-box").is_displayed(), f"{seat}'s form to close")
            shot(phone, f"phone-{seat}-locked")
        war = live.owner.call(lambda: live.table.state.war)
        assert war.phase == "reveal" and all(entry.locked for entry in war.entries)
        wait_for(lambda: "reveal" in text_of(tv, "status").lower(), "the TV to show that the line-ups are in")
        shot(tv, "tv-locked")
        tv_text = tv.find_element("tag name", "body").text
        for seat in ("ABS", "CBA", "PBC"):
            assert not leaks(secrets_of(live, seat), [tv_text, tv.page_source]), f"{seat}'s secrets on the TV"
        assert all(name in tv_text for name in ("ABS", "CBA", "PBC"))
    finally:
        for driver in (tv, *phones.values()):
            driver.quit()
        shutil.rmtree(tmp_path / "tv", ignore_errors=True)


def test_another_seats_move_does_not_reset_a_choice_being_made_on_a_phone(live, tmp_path):
    """ABS chooses a program and a bonus in its line-up form's lists; before it taps Add, CBA enters its line-up
    and the update reaches ABS's page. The lists keep ABS's choice, so Add places what ABS chose (the page used to
    rebuild both lists on every update: the choice went back to the first program and no bonus, and a finger
    on the list could lose it; found by the whole-table test, whose phones then locked in the wrong programs)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    from companion.games.tv_wars.war_at_table import EnterLineUp

    to_line_ups(live)
    phone = browser(tmp_path / "abs", 390, 844)
    try:
        phone.get(f"{live.base}/S/{live.token('ABS')}")
        wait_for(lambda: text_of(phone, "live") == "live", "ABS's page to be live")
        wait_for(lambda: phone.find_element(By.ID, "lineup-box").is_displayed(), "ABS's line-up form")
        form = phone.execute_script("return current.forms.lineup")
        program, bonus = form["programs"][-1]["id"], form["bonuses"][0]["id"]  # not the lists' first choices
        Select(phone.find_element(By.ID, "add-program")).select_by_value(program)
        # a closed list on a phone cuts a program's text at the screen's edge: its whole text is shown under it
        whole = next(p["text"] for p in form["programs"] if p["id"] == program)
        wait_for(lambda: text_of(phone, "add-program-text") == whole, "the chosen program's whole text")
        Select(phone.find_element(By.ID, "add-bonus")).select_by_value(bonus)
        cba = live.owner.call(lambda: live.front.publisher.latest.seats["CBA"].payload["forms"]["lineup"])
        placements = tuple((p, b) for p, b in full_line_up(cba))
        live.owner.execute(EnterLineUp(network="CBA", placements=placements, source="touch"))
        version = live.owner.call(lambda: live.front.publisher.latest.version)
        wait_for(lambda: phone.execute_script("return current.version") == version, "the update on ABS's page")
        assert phone.find_element(By.ID, "add-program").get_attribute("value") == program
        assert phone.find_element(By.ID, "add-bonus").get_attribute("value") == bonus
        phone.find_element(By.ID, "add").click()
        assert phone.execute_script("return placements") == [[program, bonus]]
        shot(phone, "phone-ABS-choice-kept")
    finally:
        phone.quit()


def test_death_show_tv_a_fighter_shows_their_combat_cards_on_the_phone(live, tmp_path):
    """Death Show TV on a phone (How Combat Is Resolved 1-2): Jhon hunts Kelpie; on Jhon's phone the Combat form
    appears, he enters a Weapon +3 and one Equipment card +2 and shows them; the table takes the declaration
    from the phone, and the form moves to Kelpie's turn to declare (it leaves Jhon's page)."""
    from selenium.webdriver.common.by import By

    from companion.commands import NewGame, PlayerSeat
    from companion.games.death_show_tv.commands import DrawCard, EndTurn, Hunt, Move

    players = (PlayerSeat("Kelpie", "#d55e00"), PlayerSeat("Jhon", "#56b4e9"))
    live.owner.execute(
        NewGame(game="death-show-tv", players=players, options={"roll_off": False, "starting_cards": 3}, source="t")
    )
    for command in (
        DrawCard(player="Kelpie"),
        Move(player="Kelpie", location="The Caves"),
        EndTurn(player="Kelpie"),
        DrawCard(player="Jhon"),
        Hunt(player="Jhon", location="The Caves"),
    ):
        assert live.owner.execute(command).accepted
    phone = browser(tmp_path / "jhon", 390, 844)
    try:
        phone.get(f"{live.base}/S/{live.token('Jhon')}")
        wait_for(lambda: text_of(phone, "live") == "live", "Jhon's page to be live")
        wait_for(lambda: phone.find_element(By.ID, "declare-box").is_displayed(), "Jhon's Combat form")
        assert "Against Kelpie" in text_of(phone, "declare-against")
        for element_id, value in (("weapon-bonus", "3"), ("extra", "2"), ("extra-cards", "1")):
            field = phone.find_element(By.ID, element_id)
            field.clear()
            field.send_keys(value)
        wait_for(lambda: "Weapon +3" in text_of(phone, "declare-summary"), "the form's summary")
        assert "cards +2 from 1 card" in text_of(phone, "declare-summary")
        shot(phone, "phone-death-show-tv-combat")
        phone.find_element(By.ID, "declare").click()
        wait_for(lambda: not phone.find_element(By.ID, "declare-box").is_displayed(), "Jhon's form to close")
        shot(phone, "phone-death-show-tv-declared")
    finally:
        phone.quit()
    combat = live.owner.call(lambda: live.table.state.combat)
    jhon = combat.fighter("Jhon")
    assert jhon.declared and jhon.weapon_bonus == 3 and combat.next_to_declare.name == "Kelpie"


@pytest.mark.kivy
def test_the_whole_table_two_phones_and_the_kiosks_touchscreen_enter_one_ratings_war(tmp_path):
    """The real kiosk (``companion`` Kivy app with ``[web] enabled``, tests/kivy/drive_phones_war.py) holds a
    3-network Ratings War; ABS and CBA enter and lock their line-ups on two phone-sized Chromiums opened on the
    links the kiosk gives out while PBC enters its own on the kiosk's touchscreen (its dialog open across both
    phones' moves, its tiles chosen and checked between ABS's lock and CBA's). Every line-up is locked by its
    own source (journaled ``phone``, ``phone``, ``touch``). How late the kiosk's main thread ran a 30 Hz clock
    callback before the phones and while they worked is printed (measured, not asserted; here the browsers share
    the machine with the kiosk, which a real table's phones do not)."""
    import json
    import os
    import socket
    import statistics
    import subprocess
    import sys

    from kivy_driver import DRIVERS, assert_installed, driver_env, keep_artifacts
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    if not os.environ.get("DISPLAY"):
        pytest.fail("no DISPLAY: run the suite under Xvfb (./run-tests or xvfb-run)")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    data, out = tmp_path / "data", tmp_path / "out"
    data.mkdir()
    out.mkdir()
    kiosk = subprocess.Popen(
        [sys.executable, str(DRIVERS / "drive_phones_war.py"), str(data), str(out), str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=driver_env(),
    )
    phones = {}
    try:
        wait_for(lambda: (out / "phones.json").exists() or kiosk.poll() is not None, "the kiosk's links", 120)
        assert kiosk.poll() is None, kiosk.communicate()[1][-3000:]
        handed = json.loads((out / "phones.json").read_text())
        for seat, link in handed["links"].items():
            phone = phones[seat] = browser(tmp_path / f"phone-{seat}", 390, 844)
            phone.get(link.replace("HTTP://", "http://"))
            wait_for(lambda: text_of(phone, "live") == "live", f"{seat}'s page to be live")
            wait_for(lambda: phone.find_element(By.ID, "lineup-box").is_displayed(), f"{seat}'s line-up form")
        for seat, phone in phones.items():
            form = phone.execute_script("return current.forms.lineup")
            for program, bonus in full_line_up(form):
                Select(phone.find_element(By.ID, "add-program")).select_by_value(program)
                Select(phone.find_element(By.ID, "add-bonus")).select_by_value(bonus or "")
                phone.find_element(By.ID, "add").click()
            if seat == "CBA":  # meanwhile PBC chooses its tiles on the touchscreen, its dialog open throughout
                wait_for(lambda: (out / "pbc-checked").exists() or kiosk.poll() is not None, "PBC's Check", 120)
            phone.find_element(By.ID, "lock").click()
            try:
                wait_for(lambda: "locked in" in text_of(phone, "message"), f"{seat}'s page to say it locked in")
            except AssertionError as error:  # what the page said instead, and whether the kiosk is still up
                said = text_of(phone, "message")
                raise AssertionError(f"{error}; it says {said!r}; the kiosk exited: {kiosk.poll()}") from None
            shot(phone, f"kiosk-phone-{seat}-locked")
        stdout, stderr = kiosk.communicate(timeout=240)
        assert kiosk.returncode == 0, stderr[-3000:]
    finally:
        for phone in phones.values():
            phone.quit()
        if kiosk.poll() is None:
            kiosk.kill()
    result = json.loads((out / "result.json").read_text())
    keep_artifacts(out, "phones-war-*.png")
    assert result["errors"] == [], "\n".join(result["errors"])
    assert_installed(result)
    assert result["locked_by_phones"] == ["ABS", "CBA"]
    assert result["phase"] == "reveal" and result["locked"] == ["ABS", "CBA", "PBC"], result["status"]
    assert result["locked_by"] == {"ABS": "phone", "CBA": "phone", "PBC": "touch"}
    during = result["pbc_dialog"]  # PBC's touchscreen entry overlapped both phones' line-ups
    assert during["after ABS's phone"] == {"locked": ["ABS"], "open": True, "placed": 0}, during
    assert during["after CBA's phone"] == {"locked": ["ABS", "CBA"], "open": True, "placed": 2}, during
    late = result["lateness_ms"]
    with capsys_disabled():
        print(
            "\nkiosk main thread, 30 Hz tick lateness: before the phones median "
            f"{statistics.median(late['before']):.1f} ms (max {max(late['before']):.1f}), with two phones working "
            f"median {statistics.median(late['phones']):.1f} ms (max {max(late['phones']):.1f}; the two Chromiums "
            "run on this machine's cores too)"
        )
