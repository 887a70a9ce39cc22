"""The pin factory is chosen from the board model (lgpio on a Pi 5, RPi.GPIO on older Pis, mock elsewhere)
and a backend that cannot load is named in one clear message."""

import logging

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.pins import PinFactoryUnavailable, backend_for, board_model, make_pin_factory


@pytest.mark.parametrize("model, expected", [
    ("Raspberry Pi 5 Model B Rev 1.0", "lgpio"),
    ("Raspberry Pi 4 Model B Rev 1.4", "rpigpio"),
    ("Raspberry Pi 3 Model B Plus Rev 1.3", "rpigpio"),
    ("Raspberry Pi Zero 2 W Rev 1.0", "rpigpio"),
    ("", "mock"),
])
def test_auto_choice_follows_the_board(model, expected):
    assert backend_for("auto", model) == expected


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
