"""Buttons on gpiozero's MockFactory pins: presses become commands posted to the table, nothing else."""

import pytest
from gpiozero.pins.mock import MockFactory

from companion.commands import Redo, Undo
from companion.config import ButtonConfig, default_config, parse_config
from companion.games.tv_wars import TV_WARS, LandOnSponsor, PassOnTheAir
from companion.commands import RollDice
from hardware.buttons import ButtonBoard


@pytest.fixture
def factory():
    factory = MockFactory()
    yield factory
    factory.reset()


def board(factory, posted, config=None):
    result = ButtonBoard(config or default_config(), posted.append, TV_WARS.button_command, pin_factory=factory)
    result.seat_players(["ABS", "CBA"])
    return result


def press(factory, pin):
    factory.pin(pin).drive_low()
    factory.pin(pin).drive_high()


def test_each_player_button_posts_its_command_for_the_seated_network(factory):
    posted = []
    buttons = board(factory, posted)
    press(factory, 17)   # ABS on_the_air
    press(factory, 24)   # CBA sponsor
    press(factory, 25)   # CBA roll
    press(factory, 5)    # table undo
    press(factory, 6)    # table redo
    assert posted == [PassOnTheAir(network="ABS", source="button"), LandOnSponsor(network="CBA", source="button"),
                      RollDice(roller="CBA", source="button"), Undo(source="button"), Redo(source="button")]
    buttons.close()


def test_a_seat_not_in_the_game_posts_nothing(factory):
    posted = []
    buttons = board(factory, posted)
    press(factory, 12)   # seat 3 (PBC) is not playing a two-network game
    assert posted == []
    buttons.close()


def test_mashing_a_button_ten_times_posts_ten_commands(factory):
    posted = []
    buttons = board(factory, posted, parse_config({"hardware": {"bounce_time": 0}}))
    for _ in range(10):
        press(factory, 17)
    assert posted == [PassOnTheAir(network="ABS", source="button")] * 10
    buttons.close()


def test_holding_a_button_is_one_press(factory):
    posted = []
    buttons = board(factory, posted)
    factory.pin(17).drive_low()
    factory.pin(17).drive_low()      # still held: no new edge
    factory.pin(17).drive_high()
    assert len(posted) == 1
    buttons.close()


def test_keyboard_keys_drive_the_same_mock_pins():
    posted = []
    buttons = ButtonBoard(default_config(), posted.append, TV_WARS.button_command, simulate=True)
    buttons.seat_players(["ABS", "CBA"])
    assert buttons.key_down("q") and buttons.key_up("q")
    assert buttons.factory.pin(17).state == 1        # released again (pull-up)
    assert not buttons.key_down("m")                 # not a button key
    assert posted == [PassOnTheAir(network="ABS", source="button")]
    buttons.close()


def test_close_twice_and_set_up_again_in_one_process(factory):
    posted = []
    for _ in range(3):
        buttons = board(factory, posted)
        buttons.close()
        buttons.close()
    buttons = board(factory, posted)
    press(factory, 17)
    assert len(posted) == 1
    buttons.close()


def test_key_only_buttons_post_without_a_pin():
    config = parse_config({"players": [{"name": "ABS", "buttons": {"on_the_air": {"key": "q"}}},
                                       {"name": "CBA"}], "table_buttons": {}})
    posted = []
    buttons = ButtonBoard(config, posted.append, TV_WARS.button_command, simulate=True)
    buttons.seat_players(["ABS", "CBA"])
    buttons.key_down("q")
    assert posted == [PassOnTheAir(network="ABS", source="button")]
    assert buttons.key_help(["ABS", "CBA"]) == ["Keys (On the Air):", "ABS q", "CBA "]
    buttons.close()


def test_an_unknown_action_is_logged_not_raised(factory, caplog):
    posted = []
    buttons = board(factory, posted)
    buttons.press(ButtonConfig("juggle", None, None), 0)
    assert posted == [] and "juggle" in caplog.text
    buttons.close()
