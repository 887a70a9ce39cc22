"""Buttons on gpiozero's MockFactory pins: debounced presses become commands posted to the table.

Timing runs on a virtual clock (tests/fakeclock.py) so bounce and hold are exact, not sleeps: the pins stamp
their edges with it and the detectors' checks run on it.
"""

import random
import time

import pytest
from fakeclock import FakeClock, StampedFactory
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.commands import Redo, RollDice, Undo
from companion.config import ButtonConfig, default_config, parse_config
from companion.game import ButtonSlot
from companion.games.tv_wars import TV_WARS, LandOnSponsor, PassOnTheAir
from hardware.buttons import ButtonBoard
from hardware.debounce import PressDetector

BOUNCE = 0.03  # the default hardware.bounce_time


@pytest.fixture
def factory():
    factory = StampedFactory(FakeClock())
    yield factory
    factory.reset()


def board(factory, posted, config=None):
    """A board on ``factory``'s pins whose checks run on the factory's fake clock (``board.clock``)."""
    result = ButtonBoard(
        config or default_config(), posted.append, TV_WARS.button_command, pin_factory=factory, scheduler=factory.clock
    )
    result.seat_players(["ABS", "CBA"])
    result.clock = factory.clock
    return result


def press(board, pin, held=0.1):
    pin_device = board.factory.pin(pin)
    pin_device.drive_low()
    board.clock.advance(held)
    pin_device.drive_high()
    board.clock.advance(BOUNCE * 2)


def test_each_player_button_posts_its_command_for_the_seated_network(factory):
    posted = []
    buttons = board(factory, posted)
    for pin in (17, 24, 25, 5, 6):  # ABS on_the_air, CBA sponsor, CBA roll, table undo, table redo
        press(buttons, pin)
    assert posted == [
        PassOnTheAir(network="ABS", source="button"),
        LandOnSponsor(network="CBA", source="button"),
        RollDice(roller="CBA", source="button"),
        Undo(source="button"),
        Redo(source="button"),
    ]
    buttons.close()


def test_a_seat_not_in_the_game_posts_nothing(factory):
    posted = []
    buttons = board(factory, posted)
    press(buttons, 12)  # seat 3 (PBC) is not playing a two-network game
    assert posted == []
    buttons.close()


def test_mashing_a_button_ten_times_posts_ten_commands(factory):
    posted = []
    buttons = board(factory, posted)
    for _ in range(10):
        press(buttons, 17, held=0.06)
    assert posted == [PassOnTheAir(network="ABS", source="button")] * 10
    buttons.close()


def test_holding_a_button_is_one_press(factory):
    posted = []
    buttons = board(factory, posted)
    press(buttons, 17, held=5.0)
    assert len(posted) == 1
    buttons.close()


def bounce_then(pin, level, clock, rng):
    """Contact chatter: a few alternating edges, each shorter than the bounce time, ending at ``level``."""
    final_low = level == "low"
    for index in range(rng.randrange(0, 5) * 2):  # an even number of toggles, starting with the new level
        (pin.drive_low if (index % 2 == 0) == final_low else pin.drive_high)()
        clock.advance(rng.uniform(0.0005, BOUNCE * 0.9))
    pin.drive_low() if final_low else pin.drive_high()


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), presses=st.integers(1, 12))
def test_bouncing_switch_gives_exactly_one_press_and_one_release_each(seed, presses):
    factory = StampedFactory(FakeClock())
    try:
        posted = []
        one_button = parse_config(
            {"players": [{"name": "ABS", "buttons": {"on_the_air": {"pin": 17}}}, {"name": "CBA"}], "table_buttons": {}}
        )
        buttons = board(factory, posted, one_button)
        rng = random.Random(seed)
        pin = factory.pin(17)
        for _ in range(presses):
            bounce_then(pin, "low", buttons.clock, rng)
            buttons.clock.advance(rng.uniform(BOUNCE * 1.1, 3.0))  # held: short or very long
            bounce_then(pin, "high", buttons.clock, rng)
            buttons.clock.advance(rng.uniform(BOUNCE * 1.1, 1.0))
        detector = buttons.detectors[17]
        assert detector.presses == detector.releases == presses
        assert len(posted) == presses
        buttons.close()
    finally:
        factory.reset()


def test_short_and_long_press_are_exclusive_and_long_fires_once(factory):
    """A button with a long action: released before hold_time → short; held → long, once, no repeats."""
    config = parse_config({"hardware": {"hold_time": 0.8}, "table_buttons": {"undo": {"pin": 5, "long": "redo"}}})
    posted = []
    buttons = board(factory, posted, config)
    press(buttons, 5, held=0.3)
    assert posted == [Undo(source="button")]
    press(buttons, 5, held=4.0)
    assert posted == [Undo(source="button"), Redo(source="button")]
    buttons.close()


def test_without_a_long_action_the_press_acts_at_once(factory):
    posted = []
    buttons = board(factory, posted)
    factory.pin(17).drive_low()
    buttons.clock.advance(BOUNCE * 1.5)
    assert posted == [PassOnTheAir(network="ABS", source="button")]  # before release
    factory.pin(17).drive_high()
    buttons.clock.advance(BOUNCE * 2)
    assert len(posted) == 1
    buttons.close()


def test_keyboard_keys_drive_the_same_mock_pins_with_real_timers():
    posted = []
    buttons = ButtonBoard(default_config(), posted.append, TV_WARS.button_command, simulate=True)
    buttons.seat_players(["ABS", "CBA"])
    assert buttons.key_down("q")
    deadline = time.monotonic() + 5
    while not posted and time.monotonic() < deadline:
        time.sleep(0.01)
    assert buttons.key_up("q")
    deadline = time.monotonic() + 5
    while buttons.factory.pin(17).state != 1 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert buttons.factory.pin(17).state == 1  # released again (pull-up), after a finger-long hold
    assert not buttons.key_down("m")  # not a button key
    assert posted == [PassOnTheAir(network="ABS", source="button")]
    buttons.close()


def test_close_twice_and_set_up_again_in_one_process(factory):
    posted = []
    for _ in range(3):
        buttons = board(factory, posted)
        buttons.close()
        buttons.close()
    buttons = board(factory, posted)
    press(buttons, 17)
    assert len(posted) == 1
    buttons.close()


def test_a_failed_set_up_releases_the_pins_it_took(factory):
    from gpiozero import Button
    from gpiozero.exc import GPIOPinInUse

    blocker = Button(5, pin_factory=factory)  # the table's undo pin is already in use
    with pytest.raises(GPIOPinInUse):
        ButtonBoard(default_config(), [].append, TV_WARS.button_command, pin_factory=factory)
    blocker.close()
    buttons = board(factory, [])  # every pin free again: no "pin in use"
    buttons.close()


def test_key_only_buttons_post_without_a_pin():
    config = parse_config(
        {"players": [{"name": "ABS", "buttons": {"on_the_air": {"key": "q"}}}, {"name": "CBA"}], "table_buttons": {}}
    )
    posted = []
    buttons = ButtonBoard(config, posted.append, TV_WARS.button_command, simulate=True)
    buttons.seat_players(["ABS", "CBA"])
    buttons.key_down("q")
    assert posted == [PassOnTheAir(network="ABS", source="button")]
    assert buttons.key_help(["ABS", "CBA"]) == ["Keys (on_the_air):", "ABS q", "CBA "]  # no game told: the action
    buttons.use_game([ButtonSlot("a", "on_the_air", "On the Air")])
    assert buttons.key_help(["ABS", "CBA"]) == ["Keys (On the Air):", "ABS q", "CBA "]
    buttons.close()


def test_an_unknown_action_is_logged_not_raised(factory, caplog):
    posted = []
    buttons = board(factory, posted)
    buttons.press(ButtonConfig("juggle", None, None), 0)
    assert posted == [] and "juggle" in caplog.text
    buttons.close()


def test_press_detector_with_zero_bounce_is_immediate():
    shorts = []
    detector = PressDetector(bounce_time=0, hold_time=1, on_short=lambda: shorts.append(1), scheduler=FakeClock())
    detector.edge(0.0, True)
    assert shorts == [1]


# -- peek: a long press of a `long = "peek"` button (the default roll button), display only ----------------------


def test_default_roll_button_held_peeks_until_released_and_posts_nothing(factory):
    """The built-in config gives each seat's third button (roll) ``long = "peek"``: held past hold_time it
    tells on_peek (seat, network, True) once; the release says (…, False); no command is posted (TV Wars 9.1:
    the private figures go to the network's own panel only)."""
    posted, peeks = [], []
    buttons = board(factory, posted)
    buttons.on_peek = lambda seat, player, held: peeks.append((seat, player, held))
    factory.pin(25).drive_low()  # CBA's roll button
    buttons.clock.advance(BOUNCE * 1.5)
    assert peeks == [] and posted == []  # nothing yet: short or long is decided later
    buttons.clock.advance(1.0)
    assert peeks == [(1, "CBA", True)]
    buttons.clock.advance(3.0)
    assert peeks == [(1, "CBA", True)]  # no repeats while held
    factory.pin(25).drive_high()
    buttons.clock.advance(BOUNCE * 2)
    assert peeks == [(1, "CBA", True), (1, "CBA", False)]
    assert posted == []
    buttons.close()


def test_a_short_press_of_the_peek_button_still_rolls(factory):
    posted, peeks = [], []
    buttons = board(factory, posted)
    buttons.on_peek = lambda *args: peeks.append(args)
    press(buttons, 22, held=0.2)  # ABS's roll button, released before hold_time
    assert posted == [RollDice(roller="ABS", source="button")] and peeks == []
    buttons.close()


def test_peek_for_a_seat_not_in_the_game_or_without_a_listener_does_nothing(factory):
    posted, peeks = [], []
    buttons = board(factory, posted)
    press(buttons, 22, held=2.0)  # no on_peek set: nothing happens, nothing posted
    buttons.on_peek = lambda *args: peeks.append(args)
    press(buttons, 20, held=2.0)  # seat 3 (PBC) is not in a two-network game
    assert posted == [] and peeks == []
    buttons.close()


def test_a_failing_peek_listener_never_takes_the_buttons_down(factory):
    posted = []
    buttons = board(factory, posted)

    def broken(*args):
        raise RuntimeError("panel bus gone")

    buttons.on_peek = broken
    press(buttons, 22, held=2.0)
    press(buttons, 17)
    assert posted == [PassOnTheAir(network="ABS", source="button")]
    buttons.close()


def test_press_detector_long_release_fires_only_after_a_long_press():
    clock = FakeClock()
    calls = []
    detector = PressDetector(
        bounce_time=BOUNCE,
        hold_time=0.8,
        scheduler=clock,
        on_short=lambda: calls.append("short"),
        on_long=lambda: calls.append("long"),
        on_long_release=lambda: calls.append("long released"),
    )
    for held in (0.3, 1.5):
        detector.edge(clock.now(), True)
        clock.advance(held)
        detector.edge(clock.now(), False)
        clock.advance(BOUNCE * 2)
    assert calls == ["short", "long", "long released"]


def test_a_slot_stands_for_the_game_in_use_s_action():
    """Slots a/b/c are named by the game in use (``use_game``): a press posts that game's action for the slot, and
    the key help says its label; an old slot name in the file (``on_the_air``) is the same slot."""
    config = parse_config(
        {
            "players": [{"name": "P1", "buttons": {"a": {"key": "q"}, "sponsor": {"key": "w"}}}, {"name": "P2"}],
            "table_buttons": {},
        }
    )
    assert [(b.slot, b.action) for b in config.seats[0].buttons] == [("a", "on_the_air"), ("b", "sponsor")]
    asked = []
    buttons = ButtonBoard(config, [].append, lambda action, player: asked.append((action, player)), simulate=True)
    buttons.seat_players(["P1", "P2"])
    buttons.key_down("q")
    buttons.use_game([ButtonSlot("a", "draw_card", "Draw"), ButtonSlot("b", "pass", "Pass")])
    buttons.key_down("q")
    buttons.key_down("w")
    assert asked == [("on_the_air", "P1"), ("draw_card", "P1"), ("pass", "P1")]
    assert buttons.key_help(["P1", "P2"])[:2] == ["Keys (Draw / Pass):", "P1 q w"]
    assert buttons.game_action("peek") == "peek" and buttons.game_action("c") == "roll"  # c: not named, its default
    buttons.close()


# -- one meaning per button (issue 18): a seat key and its on-screen twin -------------------------------------------


def _outcome(table, command):
    """What ``command`` did: the events (without who sent it) or the refusal's message; an accepted move is
    undone again so the next one starts from the same state."""
    outcome = table.execute(command)
    if not outcome.accepted:
        return ("refused", str(outcome.refusal))
    done = [(r.type, {k: v for k, v in r.payload.items() if k not in ("source", "by")}) for r in outcome.records]
    assert table.execute(Undo()).accepted
    return ("accepted", done)


def test_a_seat_key_and_its_on_screen_twin_send_the_same_command_with_the_same_outcome(factory, table):
    """Every seat's every key (MockFactory pins) in a TV Wars turn and during an auction (4) is refused or
    accepted exactly as the tap on its twin (``rules.button_command(action, seat, "touch")``, what the board's
    On the Air / Sponsor buttons post) is; during the auction both bid the lowest bid and pass, and the cards'
    labels say so (``TvWars.button_meanings``)."""
    from test_tv_wars_play import playing

    from companion.games.tv_wars import LandOn, Nominate
    from companion.games.tv_wars.auction import BID_MADE

    posted = []
    config = default_config()
    buttons = board(factory, posted, config)
    playing(table, 3)
    names = table.state.names
    buttons.seat_players(names)
    seen = {}
    for phase in ("turn", "auction"):
        if phase == "auction":
            assert table.execute(LandOn(network="ABS", space="television_production_company")).accepted
            assert table.execute(Nominate(network="ABS", length=2, colour="blue")).accepted
        for seat, network in enumerate(names):
            for button in config.seats[seat].buttons:
                posted.clear()
                press(buttons, button.pin)
                assert len(posted) == 1, (network, button)
                pressed = _outcome(table, posted[0])
                twin = _outcome(table, TV_WARS.button_command(button.action, network, "touch"))
                assert pressed == twin, (phase, network, button.action)
                seen[(phase, network, button.action)] = pressed
    buttons.close()
    assert seen[("turn", "ABS", "on_the_air")][0] == "accepted"
    assert seen[("auction", "CBA", "on_the_air")][1][0][0] == BID_MADE  # the lowest bid, by key and by tap
    assert seen[("auction", "CBA", "sponsor")][0] == "accepted"
    lowest = f"Bid ${table.state.auction.minimum:,}"
    assert TV_WARS.button_meanings(table.state) == {"on_the_air": lowest, "sponsor": "Pass", "roll": "Roll"}
    # and the simulator's key help (the game's static ButtonSlot labels) says so too: On the Air bids, Sponsor
    # passes, in an auction
    buttons.use_game(TV_WARS.info.buttons)
    keys = buttons.key_help(names)[0]
    assert keys.startswith("Keys (On the Air · Bid / Sponsor · Pass · Lock in"), keys  # 4, 6
