"""Pairing a phone with a seat (issue 20): the seat's link as a version-3 QR code at 2 px a module on its 128x64
OLED panel, decoded back with zbar's ``zbarimg`` (Debian's zbar-tools; ./run-tests installs it); and in the real
Kivy app, a long press of the seat's pair button shows it on the seat's panel, the Phones dialog shows it on the
touchscreen, and Revoke there makes the old link useless (tests/kivy/drive_phones.py)."""

from __future__ import annotations

import shutil
import socket
import subprocess

import pytest
from kivy_driver import keep_artifacts, run_driver
from PIL import Image

from companion.tokens import new_token
from hardware.panels import render_qr_panel
from web.qr import module_size, qr_matrix, qr_version

#: The longest pairing link an IPv4 LAN gives: HTTP://255.255.255.255:65535/S/<26 characters> is 61 characters.
LONGEST = "HTTP://192.168.100.100:65535/S/" + new_token()


def zbar(image: Image.Image, tmp_path) -> str:
    """What ``zbarimg`` reads in ``image`` (scaled up 4x, as a camera sees the panel from up close)."""
    path = tmp_path / "code.png"
    image.convert("L").resize((image.width * 4, image.height * 4), Image.NEAREST).save(path)
    found = subprocess.run(["zbarimg", "--raw", "-q", str(path)], capture_output=True, text=True, timeout=60)
    return found.stdout.strip()


def test_a_seat_link_is_a_version_3_qr_code_at_2_px_a_module_on_its_panel_and_reads_back(tmp_path):
    assert qr_version(LONGEST) == 3 and len(qr_matrix(LONGEST)) == 29
    assert module_size(29) == 2
    image = render_qr_panel("ABS", ["Scan to", "pair your", "phone"], qr_matrix(LONGEST))
    assert image.size == (128, 64) and image.mode == "1"
    # the top-left finder pattern: 7 dark modules of 2 px from the 3 px quiet zone, then a light module
    row = [bool(image.getpixel((x, 3))) for x in range(0, 20)]  # True: lit (light)
    assert row[:3] == [True] * 3 and row[3:17] == [False] * 14 and row[17:19] == [True] * 2, row
    assert all(image.getpixel((x, y)) for x in range(64) for y in (0, 1, 2, 61, 62, 63))  # lit quiet rows
    if shutil.which("zbarimg") is None:
        pytest.skip("zbarimg (Debian zbar-tools) is not installed: the module sizes were checked, not the decoding")
    assert zbar(image, tmp_path) == LONGEST


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.kivy
def test_long_press_shows_the_code_on_the_seats_panel_and_the_phones_dialog_revokes_it(tmp_path):
    data, out = tmp_path / "data", tmp_path / "out"
    data.mkdir()
    result = run_driver("drive_phones.py", data, out, str(free_port()), timeout=180)
    keep_artifacts(out, "phones-*.png")
    link = result["link"]
    assert link.startswith("HTTP://127.0.0.1:") and "/S/" in link
    assert result["link_status"] == 200
    assert result["dialog_link"] == link and result["dialog_texture"][0] >= 29 * 8
    assert result["new_link"] != link and result["old_status"] == 403 and result["new_status"] == 200
    assert "no longer works" in result["revoked_words"]
    panel = Image.open(out / "phones-paired-panel-1.png")
    other = Image.open(out / "phones-paired-panel-2.png")
    if shutil.which("zbarimg") is None:
        pytest.skip("zbarimg is not installed: the pairing was checked, not the panel's code")
    assert zbar(panel, tmp_path) == link
    assert zbar(other, tmp_path) == ""  # CBA's panel shows CBA's figures, not ABS's code
