"""``companion selftest`` on the simulator: panels show their pattern, every button arrives through the real
chain (mock pin → debounce → command), the report is saved."""

import io

import pytest
from conftest import COMPANION, run_companion
from PIL import Image

from companion.config import default_config, parse_config
from hardware.selftest import Check, check_panels, panel_test_pattern, run


class Piped(io.StringIO):
    def isatty(self):
        return False


def test_simulator_self_test_passes_and_saves_its_report(tmp_path):
    out = io.StringIO()
    assert run(config=default_config(), simulate=True, data_dir=tmp_path, stdin=Piped(), stdout=out) == 0
    text = out.getvalue()
    assert text.count("PASS  panel") == 4 and text.count("PASS  button") == 14
    reports = list(tmp_path.glob("selftest-*.txt"))
    assert len(reports) == 1 and "18 passed, 0 failed" in reports[0].read_text()
    saved = Image.open(tmp_path / "selftest-panel-2.png")
    assert saved.size == (512, 256)


def test_a_button_that_never_arrives_fails_with_its_pin(tmp_path):
    config = parse_config(
        {"players": [{"name": "ABS", "buttons": {"on_the_air": {"pin": 17}}}, {"name": "CBA"}], "table_buttons": {}}
    )
    out = io.StringIO()

    # interactive, but nobody presses: the pin-only button cannot be typed, so it times out
    class Silent(io.StringIO):
        def isatty(self):
            return True

    assert run(config=config, simulate=True, data_dir=tmp_path, timeout=0.3, stdin=Silent(), stdout=out) == 1
    assert "FAIL  button ABS on the air: no press on GPIO 17" in out.getvalue()


def test_a_panel_that_cannot_open_is_reported_not_raised(tmp_path):
    def broken(config, simulate):
        raise OSError(2, "No such file or directory: '/dev/i2c-1'")

    checks = check_panels(default_config(), simulate=False, out_dir=tmp_path, open_panels=broken)
    assert checks == [Check("panels", False, "[Errno 2] No such file or directory: '/dev/i2c-1'")]


def test_the_pattern_lights_every_edge_pixel():
    image = panel_test_pattern("ABS", 1)
    assert all(image.getpixel((x, 0)) and image.getpixel((x, 63)) for x in range(128))
    assert all(image.getpixel((0, y)) and image.getpixel((127, y)) for y in range(64))


def test_companion_selftest_command_runs_on_the_simulator(tmp_path):
    import subprocess

    result = subprocess.run(
        [str(COMPANION), "selftest", "--data-dir", str(tmp_path)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Self-test: 18 passed, 0 failed, 1 skipped" in result.stdout
    assert list(tmp_path.glob("selftest-*.txt")) and (tmp_path / "selftest-panel-1.png").exists()


def test_self_test_pings_a_configured_reader_on_a_pseudo_terminal(tmp_path):
    """A [[readers]] entry pointing at the device simulator's pty answers the self-test's ping."""
    from firmware_bridge.simulator import DeviceSimulator
    from hardware.selftest import check_readers

    simulator = DeviceSimulator("dice", uid="SELFTEST-1", hello_delay=0.1).start()
    try:
        config = parse_config({"readers": [{"kind": "dice", "path": simulator.path, "name": "dice tray"}]})
        checks = check_readers(config, timeout=8)
    finally:
        simulator.close()
    assert len(checks) == 1 and checks[0].passed, checks
    assert checks[0].part == "reader dice tray"
    missing = parse_config({"readers": [{"kind": "dice", "path": str(tmp_path / "no-such-port")}]})
    assert check_readers(missing, timeout=1)[0].passed is False


def test_a_wrong_press_is_noted_and_the_self_test_keeps_waiting(tmp_path):
    """Typing the wrong key first does not fail the button asked for, nor the next one."""
    config = parse_config(
        {
            "players": [
                {"name": "ABS", "buttons": {"on_the_air": {"pin": 17, "key": "q"}, "sponsor": {"pin": 27, "key": "w"}}},
                {"name": "CBA"},
            ],
            "table_buttons": {},
        }
    )

    class Typed(io.StringIO):
        def isatty(self):
            return True

    out = io.StringIO()
    assert run(config=config, simulate=True, data_dir=tmp_path, timeout=3, stdin=Typed("w\nq\nw\n"), stdout=out) == 0
    text = out.getvalue()
    assert "that was ABS sponsor; still waiting for ABS on the air" in text
    assert "PASS  button ABS on the air: GPIO 17 (also pressed: ABS sponsor)" in text
    assert "PASS  button ABS sponsor: GPIO 27" in text


@pytest.mark.parametrize(("value", "words"), [("-1", "must be more than 0 seconds"), ("abc", "is not a number")])
def test_the_timeout_is_a_number_of_seconds_above_zero(value, words, tmp_path):
    """A negative or mistyped --timeout is refused by name before any check runs (it once ran, and reported
    "no press on GPIO 17 within -1 s")."""
    result = run_companion("selftest", "--sim", "--timeout", value, "--data-dir", str(tmp_path))
    assert result.returncode == 2 and f"argument --timeout: '{value}'" in result.stderr and words in result.stderr
    assert "Traceback" not in result.stderr and not list(tmp_path.iterdir())
