"""A Channel WON round in the real Kivy app, counting every tap and seat-button press (issue 18).

Run by tests/test_kivy_presses.py in a subprocess with a display (Xvfb): ``python drive_presses_channel_won.py
DATA_DIR OUT_DIR``. Three reporters, the Sports Leads from the rulebook's example catalogue (as
tests/kivy/drive_channel_won.py has them). Phase 1 (Collecting Sources): each reporter in turn taps Location,
Source or Scoop on the board (each hand gets each kind) until every hand holds seven. Phase 2 (Reporting on
Stories), the rulebook's Sports example and a Crime Lead: Ava plays the Park Location on Sports, Ben the Coach,
Cleo closes Sports, Ava plays a Business Bonus Source (-1), Ben passes on his seat's Pass/Done button, Cleo plays
a Location on Crime, Ava passes on her button, Ben plays a Star Witness on Crime, Cleo closes Crime; then Ava and
Ben are done on their buttons (their Pass Tokens show pause) and Cleo taps Done; the round is scored (End of
Round) and its results open by themselves; Close. Taps are ``harness.TAPS``; presses are counted here
(``PRESSES``). ``result.json``: ``marks`` (label → taps and presses so far, phase, round, whether the message was a
refusal). Screenshots ``pr-cw-*.png``.
"""

import harness  # first: it sets Kivy's environment and builds nothing yet
from harness import Retry, find, tap

from companion.commands import NewGame, PlayerSeat
from companion.games.channel_won.cards import leads_option, parse_catalogue

driver = harness.Driver(prefix="pr-cw-")
controller, result = driver.controller, driver.result
board, popup, shot = driver.board, driver.popup, driver.shot
NAMES = ("Ava", "Ben", "Cleo")
PRESSES = harness.PRESSES
result.update(marks={})
CATALOGUE = """
[[lead]]
category = "Sports"
headline = "Park upset"
location = "Park"
sources = { Athlete = 3, Coach = 2 }
bonus = { Business = -1, Crime = -2, Politics = 1 }
[[lead]]
category = "Sports"
headline = "Derby day"
[[lead]]
category = "Sports"
headline = "Final whistle"
"""


def tap_text(text, root=None):
    """Tap the enabled button whose text is exactly ``text`` (several of this board's start alike)."""
    harness.tap_text(text, root, exact=True)


def mark(label):
    def step():
        state = controller.table.state
        result["marks"][label] = {
            "taps": harness.TAPS["count"],
            "presses": PRESSES["count"],
            "refused": controller.message_refused,
            "message": controller.message,
            "phase": state.phase,
            "round": state.round,
            "turn": state.turn,
            "hands": {r.name: r.hand for r in state.reporters},
            "popup": popup().title if popup() is not None else "",
        }

    return step


def press(name, action):
    """One counted press of ``name``'s seat button ``action`` (``sponsor``: Pass/Done), waited for until the table
    has heard it."""
    return driver.seat_press(NAMES.index(name), action)


def column(category):
    return next(c for c in board().ids.lineup.children if c.category == category)


def lead(category, *texts):
    """Tap a Lead's column, then the dialog's buttons ``texts`` in turn."""
    return [lambda: tap(column(category))] + [lambda t=t: tap_text(t, popup()) for t in texts]


def collect():
    """Phase 1: whoever's turn it is taps a kind: the same kind for a whole turn of the table, then the next (so
    every hand gets each kind), another when that deck and row are used up (its button disabled)."""
    kinds = ["Location\n", "Source\n", "Scoop\n"]  # each button ends with its deck's counts
    count = 0
    while controller.table.state.phase == 1:
        wanted = count // len(NAMES)
        for step in range(3):
            kind = kinds[(wanted + step) % 3]
            try:
                find(board(), harness.button_text(kind))
            except LookupError:
                continue
            yield lambda kind=kind: harness.tap_text(kind, board())
            break
        count += 1


def scored():
    if popup() is None or controller.table.state.round != 2:
        raise Retry("the round's results to open by themselves")


def steps():
    yield lambda: controller.post(
        NewGame(
            game="channel-won",
            players=tuple(PlayerSeat(n, c) for n, c in zip(NAMES, ("#e53935", "#1e88e5", "#43a047"))),
            options={"leads": leads_option(parse_catalogue(CATALOGUE), ["Sports"])},
            source="touch",
        )
    )
    yield mark("start")
    yield from collect()
    yield mark("phase 2")
    yield lambda: shot("phase2")
    yield from lead("Sports", "Location\nPark")  # Ava
    yield from lead("Sports", "Coach 2", "Play Coach  2")  # Ben
    yield from lead("Sports", "Close Lead")  # Cleo
    yield lambda: tap(column("Sports"))  # Ava: a Business Bonus Source, its printed -1
    yield lambda: tap(find(popup().ids.categories, lambda w: getattr(w, "category", None) == "Business"))
    yield lambda: shot("bonus-dialog")
    yield lambda: tap_text("Play Business Bonus  -1", popup())
    yield from press("Ben", "sponsor")  # Pass
    yield from lead("Crime", "Location")  # Cleo
    yield from press("Ava", "sponsor")  # Pass
    yield from lead("Crime", "Star Witness\n+2 Source")  # Ben
    yield from lead("Crime", "Close Lead")  # Cleo
    yield mark("played")
    yield lambda: shot("played")
    yield from press("Ava", "sponsor")  # Done: her Pass Token shows pause
    yield from press("Ben", "sponsor")  # Done
    yield lambda: tap_text("Done", board())  # Cleo
    yield scored
    yield mark("scored")
    yield lambda: shot("results")
    yield lambda: tap_text("Close", popup())
    yield mark("end")
    yield lambda: shot("round2")


driver.run(steps())
