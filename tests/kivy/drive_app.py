"""Plays a TV Wars game in the real Kivy app through synthetic touches and key presses.

Run by tests/test_kivy_app.py in a subprocess with a display (Xvfb). Usage:
``python drive_app.py DATA_DIR OUT_DIR [MODE]``, MODE one of --resume-check, --play-until-killed, --home,
--selftest, --pi-mode, --reader, --tiles, --exit-gesture, --exit-pin, --pick-game, --message, --dead-panel
(none: a whole game). Writes screenshots and panel PNGs into OUT_DIR and a ``result.json`` with what the
screens showed (through tests/kivy/harness.py), then prints ``left_kiosk True|False``.
"""

import dataclasses
import functools
import itertools
import sys

import harness  # first: it sets Kivy's environment and builds nothing yet
from harness import Retry, button_text, find, key, tap, tap_text, until, waiting

resume_check = "--resume-check" in sys.argv
play_until_killed = "--play-until-killed" in sys.argv
home_check = "--home" in sys.argv
tile_simulator = None


def configure(config, flags):
    """Seeded dice (the harness's default) and what the flags ask for."""
    global tile_simulator
    if "--tiles" in flags:  # a tile reader on a real pseudo-terminal, found through the config
        from firmware_bridge.simulator import DeviceSimulator

        tile_simulator = DeviceSimulator("tiles", uid="CARD-ABS", hello_delay=0.1).start()
        config = dataclasses.replace(
            config, readers=({"kind": "tiles", "path": tile_simulator.path, "name": "ABS card"},)
        )
    if "--exit-pin" in flags:  # the desktop edition's PIN exit
        config = dataclasses.replace(config, exit_pin="2580")
    if "--pi-mode" in flags:  # as on a Pi 4 whose RPi.GPIO library is missing
        config = dataclasses.replace(config, pin_factory="rpigpio")
    return config


driver = harness.Driver(configure=configure, simulate="--pi-mode" not in sys.argv)
controller, result = driver.controller, driver.result
popup, shot, save_panels, write_result = driver.popup, driver.shot, driver.save_panels, driver.write_result
press = driver.press

from kivy.clock import Clock  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.tests.common import UnitTestTouch  # noqa: E402


def cards():
    """The network cards: the TV Wars board's (ui.games.tv_wars) or the generic player cards."""
    dashboard = controller.screens.get_screen("dashboard")
    board = dashboard.ids.board_area.children[0] if dashboard.ids.board_area.children else None
    return list(board.cards.values()) if board is not None else list(dashboard.ids.cards.children)


def card(name):
    return next(c for c in cards() if c.player_name == name)


def roll_off_settled():
    """Wait until the four networks' roll-off dice are all in (TV Wars 2.5): no roll-off roll is pending."""
    request = controller.table.view().pending_dice
    if request is not None and "roll-off" in request.reason and "re-roll" not in request.reason:
        raise Retry(f"the roll-off dice to be all in (still asked: {request.describe()})")


def snapshot(label):
    view = controller.table.view()
    result["steps"].append(
        {
            "label": label,
            "screen": controller.screens.current,
            "message": controller.message,
            "refused": controller.message_refused,
            "undo_hint": controller.undo_hint,
            "redo_hint": controller.redo_hint,
            "status": controller.status,
            "held": controller.held_text,
            "balances": {p.name: p.balance for p in view.players} if view else {},
            "card_balances": {c.player_name: c.balance_text for c in cards()},
        }
    )


def record_home_geometry():
    home = controller.screens.get_screen("home")
    buttons = home.ids.new_game_box.children
    games = home.ids.games_box
    scroll = games.parent
    result["home"] = {
        "new_game_buttons": [[b.to_window(b.x, b.y)[1], b.height] for b in buttons],
        "scroll_top": scroll.to_window(scroll.x, scroll.top)[1],
        "game_rows": len(games.children),
        "rows_height": games.height,
        "scroll_height": scroll.height,
    }


def settle_roll_off():
    """Settle the roll-off (and any tie's re-roll) with the built-in dice: roll for whoever is asked, until
    nobody is asked for dice any more."""
    from companion.commands import RollDice

    view = controller.table.view()
    if view and view.pending_dice:
        controller.post(RollDice(roller=view.pending_dice.roller))
        raise Retry(f"the roll-off to be settled (asked: {view.pending_dice.describe()})")


def wait_for_reader():
    """Wait until every reader (the simulated dice reader: its 2 s deaf period is real) is connected."""
    until(
        lambda: all(status.connected for status in controller.readers.statuses()),
        lambda: f"every reader to connect ({controller.readers.status_text()})",
    )


def hold_corners():
    """Two fingers on the two top corners, kept down (the kiosk's exit gesture)."""
    global held_touches
    held_touches = [UnitTestTouch(5, Window.height - 5), UnitTestTouch(Window.width - 5, Window.height - 5)]
    for touch in held_touches:
        touch.touch_down()


def wait_for_popup(title_part):
    return waiting(
        lambda: controller.popup is not None and title_part in controller.popup.title,
        f"a dialog titled ...{title_part}... to open",
    )


def wait_for_message(part):
    return waiting(lambda: part in controller.message, f"the message bar to say ...{part}...")


def choose(text):
    return lambda: tap(
        find(
            controller.popup,
            lambda w: getattr(w, "text", None) == text and hasattr(w, "group") and w.get_root_window() is not None,
        )
    )


def clock_passed(seconds, what):
    """Two steps: mark now on Kivy's clock, then wait until an event scheduled ``seconds`` later on that clock
    has run and the frame after it has begun, so every timer the app started with that delay before the mark
    has had its turn (``what`` says which), however slowly the clock runs."""
    passed = []

    def mark():
        Clock.schedule_once(lambda dt: Clock.schedule_once(lambda dt: passed.append(True), 0), seconds)

    return [mark, waiting(lambda: passed, f"Kivy's clock to pass {seconds:g} s ({what})")]


def reader_answers(roller):
    """Steps: roll into the simulated dice reader's tray (key t, for the dice asked of ``roller``), then wait
    until the table has taken the reading as ``roller``'s dice (an AnswerDice from the reader)."""
    mark = {}

    def roll():
        request = until(lambda: controller.table.view().pending_dice, f"dice to be asked of {roller}")
        assert request.roller == roller, request.describe()
        mark["heard"] = len(driver.heard)
        key("t")

    def answered(outcome):
        command = outcome.command
        return (
            outcome.accepted
            and type(command).__name__ == "AnswerDice"
            and command.source == "reader"
            and command.roller == roller
        )

    return [
        roll,
        waiting(
            lambda: any(answered(o) for o in driver.heard[mark["heard"] :]),
            f"the simulated dice reader's roll to answer {roller}'s dice",
        ),
    ]


if "--tiles" in sys.argv:
    steps = [
        lambda: tap_text("2 networks"),
        wait_for_reader,
        lambda: tile_simulator.place(1, "04A1B2C3"),
        wait_for_popup("04A1B2C3"),
        lambda: result.__setitem__("learn_ready_before", controller.popup.problem),
        choose("60 min"),
        choose("blue"),
        choose("70"),
        lambda: shot("tile-learn"),
        lambda: result.__setitem__("learn_summary", controller.popup.summary),
        lambda: tap(controller.popup.ids.learn),
        lambda: tile_simulator.remove(1),
        lambda: tile_simulator.place(2, "04A1B2C3"),
        wait_for_message("slot 2"),
        lambda: snapshot("known tile"),
    ]
elif "--exit-gesture" in sys.argv:
    from ui.app import EXIT_HOLD

    steps = [
        lambda: tap_text("2 networks"),
        lambda: UnitTestTouch(5, Window.height - 5).touch_down(),
        *clock_passed(EXIT_HOLD, "the exit gesture's hold time, with one corner held"),
        lambda: result.__setitem__("one_corner_popup", controller.popup is not None),
        hold_corners,
        wait_for_popup("Leave the kiosk"),
        lambda: shot("exit-dialog"),
        lambda: result.__setitem__("exit_dialog", controller.popup.title),
        write_result,
        lambda: tap(controller.popup.ids.confirm),
    ]
elif "--pick-game" in sys.argv:  # the home screen's game picker starts a game of another registered game

    def new_buttons():
        return sorted(w.text.split("\n")[0] for w in controller.screens.get_screen("home").ids.new_game_box.children)

    steps = [
        lambda: tap_text("Death Show TV"),
        waiting(
            lambda: controller.chosen_game == "death-show-tv" and "2 Contestants" in new_buttons(),
            "the home screen to offer Death Show TV's Contestants",
        ),
        lambda: shot("home-death-show"),
        lambda: result.__setitem__("new_buttons", new_buttons()),
        lambda: tap_text("3 Contestants"),
        waiting(
            lambda: controller.table.session is not None and controller.screens.current == "dashboard",
            "the new game to open on the dashboard",
        ),
        lambda: result.__setitem__("game", controller.table.session.rules.info.name),
        lambda: result.__setitem__("players", [p.name for p in controller.table.session.players]),
        lambda: result.__setitem__("options", controller.table.session.options),
        lambda: result.__setitem__("key_help", controller.key_help),
    ]
elif "--message" in sys.argv:  # a message longer than its bar says "more"; a tap shows all of it
    LONG = "; ".join(f"Clause {i}: Sports Lead 1 = 2 Coach - 1 Business bonus, Ava 0 to 1" for i in range(1, 7))

    def message_bar():
        return controller.screens.get_screen("dashboard").ids.message_bar

    def tap_bar():
        bar = message_bar()
        result["more_shown"] = bar.ids.line.is_shortened
        tap(bar)

    steps = [
        lambda: tap_text("2 networks"),
        lambda: controller.say(LONG),
        waiting(lambda: message_bar().ids.line.text == LONG, "the message bar to show the long message"),
        tap_bar,
        wait_for_popup("whole message"),
        lambda: shot("message-popup"),
        lambda: result.__setitem__("popup_lines", popup().message.split("; ")),
        lambda: tap_text("Close", popup()),
        lambda: result.__setitem__("closed", popup() is None),
    ]
elif "--dead-panel" in sys.argv:  # CBA's panel (the 2nd) stops answering mid-game, then answers again
    said = []
    controller.bind(message=lambda _, text: said.append(text))
    down = set()
    tries = []  # when the 2nd panel was tried while it was not answering (the panel bank's retries)

    def cable() -> None:
        """The 2nd panel's device fails to draw while ``down`` (the panels are attached when the steps begin)."""
        second = controller.panels.devices[1]

        def flaky(image, draw=second.display):
            if down:
                tries.append(image)
                raise OSError(121, "Remote I/O error")
            draw(image)

        second.display = flaky

    mark = {}

    steps = [
        cable,
        lambda: tap_text("2 networks"),
        lambda: down.add(1),
        lambda: controller.panels.flash(1, "Cable test", seconds=120),  # something new to draw
        wait_for_message("Panel 2 is not answering"),
        lambda: snapshot("panel down"),
        lambda: shot("panel-not-answering"),
        lambda: mark.__setitem__("tries", len(tries)),
        waiting(lambda: len(tries) >= mark["tries"] + 2, "the panel bank to try panel 2 twice more"),
        lambda: snapshot("still down"),
        down.clear,
        waiting(lambda: controller.message == "", "the message bar to drop the words once panel 2 answers again"),
        lambda: snapshot("panel back"),
        lambda: save_panels("panel-back"),
        lambda: result.__setitem__("said", said),
    ]
elif "--exit-pin" in sys.argv:

    def type_pin(digits):
        return [lambda d=d: tap_text(d, controller.popup) for d in digits] + [lambda: tap_text("OK", controller.popup)]

    steps = [
        lambda: tap_text("2 networks"),
        lambda: UnitTestTouch(5, Window.height - 5).touch_down(),
        wait_for_popup("exit PIN"),
        lambda: shot("exit-pin"),
        *type_pin("1111"),
        lambda: result.__setitem__("after_wrong", controller.popup.problem),
        lambda: result.__setitem__("still_open", controller.popup is not None),
        write_result,
        *type_pin("2580"),
    ]
elif "--reader" in sys.argv:
    steps = [
        lambda: tap_text("2 networks"),
        wait_for_reader,
        lambda: result.__setitem__("reader_status", controller.reader_status),
        *reader_answers("ABS"),
        lambda: snapshot("reader answered ABS"),
        *reader_answers("CBA"),
        lambda: snapshot("reader answered CBA"),
        settle_roll_off,  # any roll-off tie, with the built-in dice: nothing is asked for any more
        lambda: key("t"),
        waiting(lambda: controller.held_text, "the simulated dice reader's unasked roll to be held"),
        lambda: snapshot("unclaimed"),
        lambda: shot("reader-unclaimed"),
        lambda: result.__setitem__("held", controller.held_text),
        lambda: tap_text("Discard"),
        lambda: snapshot("discarded"),
    ]
elif "--selftest" in sys.argv:
    steps = [
        wait_for_reader,
        lambda: tap_text("Self-test"),
        lambda: shot("selftest-start"),
        lambda: save_panels("selftest"),
    ]

    def press_and_wait(key_name):
        """Press a button's key like a finger, then wait until the self-test has noted a press (the next
        button is asked for), whatever the load."""
        mark = {}
        return [
            lambda: mark.__setitem__("checks", len(controller.popup.checks)),
            *press(key_name, heard=False),
            waiting(
                lambda: len(controller.popup.checks) > mark["checks"],
                f"the self-test to note the press of key {key_name}",
            ),
        ]

    for key_name in ("q", "w", "e", "a", "s", "d", "z", "x", "c", "u", "i", "o", "backspace"):
        steps += press_and_wait(key_name)
    steps += [
        lambda: tap_text("Skip"),
        lambda: result.__setitem__("selftest", [controller.popup.prompt, controller.popup.report]),
        lambda: shot("selftest-report"),
        lambda: tap_text("Close"),
        *press("q", heard=False),  # no game: the press reaches nothing
        lambda: snapshot("after selftest"),
    ]
elif "--pi-mode" in sys.argv:
    steps = [lambda: snapshot("pi mode"), lambda: tap_text("2 networks"), lambda: snapshot("pi game")]
elif home_check:
    steps = [lambda: controller.go_home(), record_home_geometry, lambda: shot("home-many-games")]
elif play_until_killed:
    # Keeps pressing ABS's On the Air button (mock pin) and an undo now and then until SIGKILLed; each press
    # is printed once the table has told its outcome.
    def roll_off_settled():
        """Nobody moves before the roll-off has decided who starts (TV Wars 2.5): roll until it has."""
        settle_roll_off()
        until(lambda: controller.table.state.roll_off is None, "the roll-off to decide who starts")

    def keep_pressing():
        for count in itertools.count(1):
            yield from press("backspace" if count % 7 == 0 else "q")
            yield lambda n=count: print("pressed", n, flush=True)

    steps = itertools.chain(
        [lambda: tap_text("2 networks") if controller.table.session is None else None, roll_off_settled],
        keep_pressing(),
    )
elif resume_check:
    steps = [
        lambda: snapshot("resumed"),
        lambda: shot("resumed"),
        lambda: save_panels("resumed"),
    ]
else:

    def refusals_stay_on_the_panels():
        """From here on a refusal flashed on the presser's panel stays there for the rest of the run, not the
        app's 4 s: the final panels are checked against the refusal, however long the steps after it take."""
        controller.panels.flash = functools.partial(controller.panels.flash, seconds=3600)

    def undo_button():
        return controller.screens.get_screen("dashboard").ids.undo_button

    steps = [
        lambda: snapshot("home"),
        lambda: shot("home"),
        lambda: tap_text("4 networks"),
        lambda: snapshot("new game"),
        lambda: shot("dashboard-roll-off"),
        lambda: tap_text("Enter dice"),  # TV Wars 2.5 roll-off: ABS enters physical dice by hand
        lambda: tap(find(popup().ids.dice_box.children[-1], button_text("3"))),
        lambda: result.__setitem__("one_die", [popup().ids.record.disabled, popup().total_text]),
        lambda: tap(find(popup().ids.dice_box.children[-2], button_text("4"))),
        lambda: shot("dice-dialog"),
        lambda: tap(popup().ids.record),
        *press("d"),  # CBA's roll button (keyboard → mock pin), heard by the table
        *press("c"),  # PBC
        *press("o"),  # NBS
        roll_off_settled,
        lambda: snapshot("rolled"),
        *press("q"),  # ABS passes On the Air three times by button
        *press("q"),
        *press("q"),
        lambda: tap(find(card("CBA"), button_text("On the Air"))),
        lambda: tap(find(card("PBC"), button_text("Sponsor"))),
        lambda: tap_text("+", popup()),
        lambda: tap_text("+", popup()),
        lambda: shot("sponsor-dialog"),
        lambda: tap_text("Collect", popup()),
        lambda: tap(find(card("NBS"), button_text("Pay"))),
        lambda: result.__setitem__("pay_empty", [popup().ids.pay.disabled, popup().pay_text]),
        lambda: tap(find(popup().ids.payee_box, button_text("ABS"))),
        lambda: tap_text("2", popup()),
        lambda: tap_text("000", popup()),
        lambda: tap_text("Bulletin", popup()),
        lambda: shot("transfer-dialog"),
        lambda: tap(popup().ids.pay),
        lambda: tap(find(card("NBS"), button_text("Pay"))),  # an illegal transfer: more than NBS has
        lambda: tap(find(popup().ids.payee_box, button_text("Bank"))),
        lambda: [tap_text(d, popup()) for d in ("9", "9", "000")],
        lambda: tap_text("Correction", popup()),
        lambda: tap(popup().ids.pay),
        lambda: snapshot("refused"),
        lambda: shot("dashboard-refused"),
        lambda: snapshot("played"),
        lambda: shot("dashboard"),
        lambda: save_panels("played"),
        lambda: tap(undo_button()),
        lambda: snapshot("undo 1"),
        lambda: tap(undo_button()),
        lambda: snapshot("undo 2"),
        *press("backspace"),  # the table's undo button
        lambda: snapshot("undo 3"),
        lambda: tap(controller.screens.get_screen("dashboard").ids.redo_button),
        lambda: snapshot("redo 1"),
        lambda: tap_text("History"),
        lambda: shot("history"),
        lambda: tap_text("Export"),
        lambda: snapshot("exported"),
        lambda: tap_text("End game"),
        lambda: tap(popup().ids.confirm),
        refusals_stay_on_the_panels,
        *press("q"),  # a button press for a finished game is refused
        lambda: snapshot("ended"),
        *press("backspace"),  # undo reopens it
        lambda: snapshot("reopened"),
        lambda: tap_text("Back"),
        lambda: snapshot("final"),
        lambda: save_panels("final"),
    ]

driver.run(steps)
if tile_simulator is not None:
    tile_simulator.close()
print("left_kiosk", driver.app.left_kiosk, flush=True)
