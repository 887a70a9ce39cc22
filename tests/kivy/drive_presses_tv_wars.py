"""A whole three-player TV Wars game in the real Kivy app, counting every tap and seat-button press (issue 18).

Run by tests/test_kivy_presses.py in a subprocess with a display (Xvfb): ``python drive_presses_tv_wars.py
DATA_DIR OUT_DIR``. Nothing is posted behind the screen's back: every move is a tap (:func:`harness.tap`,
counted in ``harness.TAPS``) or a press of a seat's button on its MockFactory pin (:meth:`harness.Driver.press`,
counted here in ``PRESSES``). The game (seeded dice, so the same every run):

* set-up: the Best Network News roll-off (2.5), each network rolling with its seat's Roll button (rerolls on a
  tie); each network's starting programming (2.3) in its private dialog: the types as the dialog offers them,
  each dealt rating set with the row's -10/+10 (from 50), one Special for PBC;
* turn 1: ABS lands on a Television Production Company and nominates a 60-minute Drama (3.1); the auction on
  the seat buttons (CBA's On the Air bids the lowest bid, the others' Sponsor passes, 4); CBA enters the
  program's rating privately (9.1);
* turn 2: CBA's Sponsor button: it landed on Sponsor (9.4);
* turn 3: PBC lands on Ratings War (6): each network's line-up (longest programs first, Lock in), Reveal, the
  dice the war asks for on the asked seat's Roll button, *Back to the board*;
* turns 4-13: each lands on Critics' Choice in turn and enters the drawn tile's value privately (5.3): its
  sign, tens and units, only those it needs (the first time, +39 is tried first and refused, outside the count);
* turn 14: ABS lands on Critics' Choice with the pile empty: the game is over (5.32), the Specials are rolled
  for the asset count (8, 7) on their owners' Roll buttons, and *Assets and winner* shows the winner.

``result.json``: ``marks`` (label → taps and presses so far, and whether the message was a refusal),
``turns`` (one per turn: network, space, taps, presses), ``phases`` (taps and presses per phase),
``cc_values``. Screenshots ``pr-tvw-*.png``.
"""

import dataclasses
from functools import partial

import harness  # first: it sets Kivy's environment and builds nothing yet
from harness import Retry, button_text, find, walk

from companion.commands import NewGame, PlayerSeat

config = dataclasses.replace(harness.base_config(dice_seed=3), house_rules={})
config = dataclasses.replace(config, seats=config.seats[:3])
driver = harness.Driver(config=config, prefix="pr-tvw-")
controller, result = driver.controller, driver.result
board, popup, shot = driver.board, driver.popup, driver.shot
tap = partial(harness.tap, scroll=True)
tap_text = partial(harness.tap_text, scroll=True)
NAMES = tuple(s.name for s in config.seats)  # ABS, CBA, PBC

#: Seat-button presses so far (taps are harness.TAPS).
PRESSES = harness.PRESSES
#: The dealt ratings, rows in the dialog's order (five 30-, four 60-, one 90-, one 120-minute); None: Special.
RATINGS = {
    "ABS": (30, 40, 50, 60, 20, 70, 80, 50, 10, 70, 90),
    "CBA": (40, 30, 60, 50, 30, 60, 70, 40, 20, 60, 80),
    "PBC": (50, 20, 40, 70, 10, 80, None, 50, 30, 50, 70),
}
#: The Critics' Choice tiles drawn, in order (5.3: -36 to +36).
CC_VALUES = (12, -8, 25, -30, 5, 18, -15, 36, -22, 9)
result.update(marks={}, turns=[], phases={}, cc_values=list(CC_VALUES), violations=[])


def counts() -> dict:
    return {"taps": harness.TAPS["count"], "presses": PRESSES["count"]}


def mark(label):
    """A step: the counts so far under ``label``, with what the table said."""

    def step():
        result["marks"][label] = {
            **counts(),
            "refused": controller.message_refused,
            "message": controller.message,
            "status": controller.status,
        }

    return step


def press(network, action):
    """The steps of one counted press of ``network``'s seat button ``action`` (``on_the_air``, ``sponsor``,
    ``roll``), waited for until the table has heard it."""

    return driver.seat_press(NAMES.index(network), action)


def rolls(what):
    """Steps pressing the Roll button of whoever the table asks dice of, until it asks nobody (a generator: it
    looks at the table between steps)."""
    while controller.dice_roller:
        yield from press(controller.dice_roller, "roll")
    yield mark(f"{what} rolled")


def starting(network):
    def bump(index, sign):
        stepper = popup().rows[index]["stepper"]
        tap(find(stepper, button_text(f"{sign}10", exact=True)))

    def special(index):
        line = popup().rows[index]["stepper"].parent
        tap(find(line, button_text("Special", exact=True)))

    steps = [lambda: tap_text(f"{network}: starting programs"), lambda: tap_text(f"I am {network}", popup())]
    for index, rating in enumerate(RATINGS[network]):
        if rating is None:
            steps.append(lambda i=index: special(i))
            continue
        sign = "+" if rating > 50 else "-"
        steps += [lambda i=index, s=sign: bump(i, s)] * (abs(rating - 50) // 10)
    if network == "ABS":
        steps.append(lambda: shot("starting"))
    steps.append(lambda: tap_text("Enter", popup().buttons))
    return steps


def landed(network, space_label):
    return [lambda: tap_text(f"{network} landed on"), lambda: tap_text(space_label, popup())]


def enter_value(network, value):
    """The buyer's private entry (9.1): a program's rating is one tap; a Critics' Choice value is its sign,
    tens and units (only those it needs: the dialog starts at +0), then Enter."""
    steps = [lambda: tap_text(f"{network}: enter the value"), lambda: tap_text(f"I am {network}", popup())]
    if controller.table.state.entry.lot == "program":
        return steps + [lambda: tap_text(str(value), popup())]
    tens, units = divmod(abs(value), 10)
    parts = [("sign", "\u2212")] if value < 0 else []
    parts += [("tens", str(tens * 10))] if tens else []
    parts += [("units", str(units))] if units else []
    if "value_dialog" not in result:
        steps += [out_of_range, lambda: harness.TAPS.__setitem__("count", harness.TAPS["count"] - 3)]
    steps += [lambda p=p, t=t: tap(popup().value_buttons[p][t]) for p, t in parts]
    if "value_dialog" not in result:
        steps += [lambda: result.__setitem__("value_dialog", popup().value), lambda: check_layout("value-dialog")]
        steps += [lambda: shot("value-dialog")]
    return steps + [lambda: tap_text("Enter", popup().buttons)]


def out_of_range():
    """Not part of the count (the driver takes its three taps off again): +39 is no Critics' Choice value (5.3):
    Enter keeps the dialog open with the reason and journals nothing."""
    before = len(controller.table.session.line)
    for part, text in (("tens", "30"), ("units", "9")):
        tap(popup().value_buttons[part][text])
    tap_text("Enter", popup().buttons)
    result["out_of_range"] = {
        "open": popup() is not None,
        "problem": popup().problem if popup() else "",
        "value": popup().value if popup() else None,
        "journaled": len(controller.table.session.line) - before,
    }


def check_layout(label):
    """The layout audit (tests/kivy/layout_audit.py) of the open dialog, or of the dashboard."""
    from kivy.core.window import Window
    from kivy.uix.modalview import ModalView
    from layout_audit import audit

    from ui.layout import SIMULATOR_STRIP_HEIGHT, TOUCHSCREEN_SIZE

    area = (0, SIMULATOR_STRIP_HEIGHT, TOUCHSCREEN_SIZE[0], SIMULATOR_STRIP_HEIGHT + TOUCHSCREEN_SIZE[1])
    dialog = next((w for w in Window.children if isinstance(w, ModalView)), None)
    roots = [dialog] if dialog is not None else [controller.screens]
    for violation in audit(area, label, roots, expect_figure=dialog is None):
        result["violations"].append(violation.as_dict())


def war_mode(wanted):
    def step():
        screen = board().war_screen
        if (screen.mode if screen else "") != wanted:
            raise Retry(f"the war screen to show {wanted!r}")

    return step


def lineup(network):
    def fill():
        holdings = controller.table.state.network(network).holdings
        left = 6
        for tile in sorted(holdings.programs, key=lambda t: -t.length):
            if tile.kind in ("program", "special", "movie") and tile.length <= left:
                tap(popup().tile_buttons[tile.id])
                left -= tile.length

    return [
        lambda: tap_text(f"{network} line-up"),
        lambda: tap_text(f"I am {network}", popup()),
        fill,
        lambda: tap_text("Lock in", popup().buttons),
    ]


def phase(name, start, end):
    result["phases"][name] = {k: result["marks"][end][k] - result["marks"][start][k] for k in ("taps", "presses")}


class Turn:
    """Counts one turn: ``begin`` and ``end`` steps around its steps."""

    def __init__(self, network, space):
        self.network, self.space, self.start = network, space, None

    def begin(self):
        self.start = counts()

    def end(self):
        now = counts()
        result["turns"].append(
            {
                "network": self.network,
                "space": self.space,
                "taps": now["taps"] - self.start["taps"],
                "presses": now["presses"] - self.start["presses"],
                "refused": controller.message_refused,
                "next": controller.table.state.turn,
            }
        )


def turn(network, space, steps):
    counter = Turn(network, space)
    yield counter.begin
    yield from steps
    yield counter.end


def wait_for_turn(network):
    def step():
        if controller.table.state.turn != network:
            raise Retry(f"{network}'s turn (it is {controller.table.state.turn}'s)")

    return step


def game():
    yield lambda: controller.post(
        NewGame(game="tv-wars", players=tuple(PlayerSeat(s.name, s.colour) for s in config.seats), source="touch")
    )
    yield mark("start")
    yield lambda: shot("roll-off")
    yield from rolls("roll-off")
    for network in NAMES:
        yield from starting(network)
    yield mark("set up")
    yield lambda: shot("set-up")
    first = controller.table.state.turn
    order = NAMES[NAMES.index(first) :] + NAMES[: NAMES.index(first)]
    result["first"] = first
    # turn 1: a Television Production Company, a nomination and the auction on the seat buttons
    nominator, bidder = order[0], order[1]

    def auction():
        yield from landed(nominator, "Television Production Company")
        yield lambda: tap_text("Nominate a program")
        yield lambda: tap_text("60 min", popup())
        yield lambda: tap_text("Drama", popup())
        yield lambda: tap_text("Nominate", popup().buttons)
        yield lambda: shot("auction")
        yield from press(bidder, "on_the_air")  # bids the lowest bid
        while controller.table.state.auction is not None:
            yield from press(controller.table.state.auction.next_bidder, "sponsor")  # passes
        yield from enter_value(controller.table.state.entry.network, 70)

    yield from turn(nominator, "television_production_company", auction())
    yield mark("turn 1")
    # turn 2: the Sponsor button is the landing (9.4)
    yield from turn(order[1], "sponsor", press(order[1], "sponsor"))
    yield mark("turn 2")
    # turn 3: a Ratings War
    war_caller = order[2]
    yield from turn(war_caller, "ratings_war", landed(war_caller, "Ratings War"))
    yield mark("war called")
    for network in NAMES:
        yield from lineup(network)
    yield mark("line-ups")
    yield lambda: tap_text("Reveal the line-ups")
    yield lambda: shot("war-grid")
    yield from rolls("war")
    yield war_mode("summary")  # the war's summary, even when the reveal needed no dice
    yield lambda: result.__setitem__(
        "war_summary", [w.text for w in walk(board().war_screen) if getattr(w, "text", "")]
    )
    yield lambda: shot("war-summary")
    yield lambda: check_layout("war-summary")
    yield lambda: tap_text("Back to the board")
    yield mark("war over")
    # turns 4-13: the Critics' Choice pile, drawn to the last tile
    for index, value in enumerate(CC_VALUES):
        yield mark(f"cc {index}")
        network = controller.table.state.turn

        def draw(network=network, value=value):
            yield from landed(network, "Critics' Choice")
            yield from enter_value(network, value)

        yield from turn(network, "critics_choice", draw())
        if index == 0:
            yield lambda: shot("after-critics-choice")
    yield mark("pile empty")
    # turn 14: the pile is empty (5.32): the asset count (8)
    network = controller.table.state.turn
    yield from turn(network, "critics_choice", landed(network, "Critics' Choice"))
    yield from rolls("asset count")
    yield lambda: shot("ended")
    yield lambda: tap_text("Assets and winner")
    yield mark("end")
    yield lambda: shot("assets")
    yield lambda: result.__setitem__("assets", [w.text for w in walk(popup()) if getattr(w, "text", "")])
    yield lambda: phase("set-up", "start", "set up")
    yield lambda: phase("line-ups", "war called", "line-ups")
    yield lambda: phase("ratings war", "line-ups", "war over")
    yield lambda: phase("end", "pile empty", "end")
    yield lambda: phase("whole game", "start", "end")


driver.run(game())
