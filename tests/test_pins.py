"""The pin factory: on a Pi ``auto`` picks lgpio wherever it is installed (gpiozero's order; the sandboxed unit
makes /sys read-only, which breaks RPi.GPIO's edge detection), RPi.GPIO only as a logged fallback; mock pins
elsewhere. A backend that cannot load is named in one clear message."""

import logging

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.pins import PinFactoryUnavailable, backend_for, board_model, make_pin_factory

PI_MODELS = [
    "Raspberry Pi 5 Model B Rev 1.0",
    "Raspberry Pi 4 Model B Rev 1.4",
    "Raspberry Pi 3 Model B Plus Rev 1.3",
    "Raspberry Pi Zero 2 W Rev 1.0",
    "Raspberry Pi Model B Rev 2",
]


@pytest.mark.parametrize("model", PI_MODELS)
def test_auto_picks_lgpio_on_every_pi_where_it_is_installed(model, caplog):
    with caplog.at_level(logging.WARNING):
        assert backend_for("auto", model, available=lambda module: module in ("lgpio", "RPi.GPIO")) == "lgpio"
    assert caplog.text == ""


@pytest.mark.parametrize("model", PI_MODELS[1:])
def test_auto_falls_back_to_rpigpio_only_without_lgpio_and_says_so(model, caplog):
    with caplog.at_level(logging.WARNING):
        assert backend_for("auto", model, available=lambda module: module == "RPi.GPIO") == "rpigpio"
    assert "lgpio is not installed" in caplog.text and "RPi.GPIO" in caplog.text


def test_a_pi_5_without_lgpio_still_asks_for_lgpio():
    """RPi.GPIO cannot drive a Pi 5's RP1 chip: the error then names lgpio, the library to install."""
    assert backend_for("auto", PI_MODELS[0], available=lambda module: False) == "lgpio"


def test_auto_gives_mock_pins_off_a_pi():
    assert backend_for("auto", "", available=lambda module: True) == "mock"


def test_auto_looks_for_the_real_library():
    """The default ``available`` really imports nothing but finds what is installed (here: neither Pi library
    on a desktop, gpiozero yes)."""
    from hardware.pins import installed

    assert installed("gpiozero") and not installed("no_such_gpio_library") and not installed("RPi.nothing")


def test_an_explicit_choice_wins():
    assert backend_for("lgpio", "Raspberry Pi 4 Model B") == "lgpio"


def test_board_model_reads_the_device_tree_file(tmp_path):
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\x00")
    assert board_model(model) == "Raspberry Pi 5 Model B Rev 1.0"
    model.write_bytes(b"Generic ARM board\x00")
    assert board_model(model) == ""
    assert board_model(tmp_path / "missing") == ""


def test_desktop_auto_gives_mock_pins_and_logs_it(tmp_path, caplog):
    with caplog.at_level(logging.INFO):
        factory = make_pin_factory("auto", model_file=tmp_path / "none")
    assert isinstance(factory, MockFactory)
    assert "mock backend" in caplog.text
    factory.close()


def test_forcing_a_pi_backend_on_a_desktop_fails_with_one_clear_message(tmp_path):
    pi4 = tmp_path / "model"
    pi4.write_bytes(b"Raspberry Pi 4 Model B Rev 1.4\x00")
    for choice in ("rpigpio", "lgpio"):
        with pytest.raises(PinFactoryUnavailable) as caught:
            make_pin_factory(choice, model_file=pi4)
        message = str(caught.value)
        assert ("RPi.GPIO" in message or "lgpio" in message) and "\n" not in message
