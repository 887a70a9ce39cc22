"""Plays TV Wars on its board (ui/games/tv_wars.py) in the real Kivy app, with synthetic touches and keys.

Run by tests/test_kivy_tv_wars.py in a subprocess under Xvfb: ``python drive_tv_wars.py DATA_DIR OUT_DIR``.
Saves screenshots and panel PNGs into OUT_DIR and a ``result.json`` with what the screens showed, including
every Label/Button text on the shared screen at several points (the secrecy check, 9.1).
"""

import dataclasses
import re
import sys
from functools import partial
from pathlib import Path

import harness  # first: it sets Kivy's environment and builds nothing yet
from harness import Retry, button_text, find, key_down, key_up, waiting, walk

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/ (the war example harness)

from companion.commands import NewGame, PlayerSeat  # noqa: E402

# This driver holds ABS's roll button on purpose (the peek) and never presses a roll button briefly: the app's
# own hold time, not the drivers' long one (harness.HOLD_TIME).
config = dataclasses.replace(
    harness.base_config(dice_seed=11), house_rules={"roll_off": False}, hold_time=harness.default_config().hold_time
)
driver = harness.Driver(config=config)
controller, result = driver.controller, driver.result
result.update(texts={}, sizes={})
board, popup, shot, save_panels = driver.board, driver.popup, driver.shot, driver.save_panels
tap = partial(harness.tap, scroll=True)  # scrolls any ScrollView around the widget to show it first
tap_text = partial(harness.tap_text, scroll=True)

from kivy.core.window import Window  # noqa: E402
from kivy.uix.label import Label  # noqa: E402


def texts(label):
    """Every text on the shared screen now (labels and buttons; the window's widgets)."""
    result["texts"][label] = [w.text for w in walk(Window) if isinstance(w, Label) and w.text]


def sizes(label):
    """Font sizes of numbers and heights of touch targets on the board (readable from a metre away)."""
    from kivy.uix.button import Button

    b = board()
    result["sizes"][label] = {
        "cash_font": [c.children[-3].font_size for c in b.cards.values()],
        "buttons": [[w.text, w.height, w.font_size] for w in walk(b) if isinstance(w, Button) and w.opacity > 0],
    }


def snapshot(label):
    state = controller.table.state
    view = controller.table.view()
    result["steps"].append(
        {
            "label": label,
            "message": controller.message,
            "refused": controller.message_refused,
            "status": controller.status,
            "prompt": board().prompt if controller.table.session else "",
            "actions": [b.text for b in board().action_buttons] if controller.table.session else [],
            "balances": {p.name: p.balance for p in view.players},
            "cards": {
                c.player_name: [c.balance_text, c.programming_text, c.detail_text, c.dimmed]
                for c in board().cards.values()
            },
            # each card's twins of the seat's On the Air and Sponsor buttons as drawn: [text, tappable]
            "card_buttons": {
                c.player_name: [
                    [w.text, not w.disabled] for w in walk(c) if type(w).__name__ == "BigButton" and w.text != "Pay"
                ]
                for c in board().cards.values()
            },
            "turn": state.turn,
            "popup": popup().title if popup() else "",
        }
    )


def post_land(space):
    from companion.games.tv_wars import LandOn

    controller.post(LandOn(network=controller.table.state.turn, space=space))


def stepper_plus(times, index=-1):
    """Tap the smallest "+" of the popup's ``index``-th stepper ``times`` times."""
    from ui.games.tv_wars.board import Stepper

    steppers = [w for w in walk(popup()) if isinstance(w, Stepper)]
    stepper = steppers[index]
    from kivy.uix.button import Button

    pluses = [c for c in walk(stepper) if isinstance(c, Button) and c.text.startswith("+")]  # portrait: in a row below
    plus = min(pluses, key=lambda button: int(re.sub(r"\D", "", button.text)))
    for _ in range(times):
        tap(plus)


def starting(network, bumps):
    """Enter ``network``'s starting programming through its private dialog: ``bumps`` raises the first rows'
    ratings (+10 each tap) so each network holds distinctive secret ratings."""

    def open_it():
        tap_text(f"{network}: starting programs")

    def reveal():
        tap_text(f"I am {network}", popup())

    def bump(index):
        stepper = popup().rows[index]["stepper"]  # in the dialog's order: 30 min first
        tap([c for c in stepper.children if getattr(c, "text", "").startswith("+")][-1])

    def three_dramas_refused():
        """ABS first picks three 30-minute Dramas (2.3 allows two): the dialog stays open with the reason and
        keeps everything entered; then the first two go back to Situation Comedies."""
        if network != "ABS":
            return
        rows = popup().rows
        for row in rows[:2]:
            row["colour"] = "blue"  # what the row's D button sets
        tap_text("Enter", popup())
        result["starting_refused"] = [
            popup() is not None,
            popup().problem,
            [int(r["stepper"].value) for r in popup().rows],
        ]
        for row in rows[:2]:
            row["colour"] = "green"

    taps = [lambda i=index: bump(i) for index, count in enumerate(bumps) for _ in range(count)]
    return [open_it, reveal, *taps, three_dramas_refused, lambda: tap_text("Enter", popup())]


def peek_check():
    from companion.games.tv_wars.view import peek_lines
    from hardware.panels import render_private_pages

    _, frames = controller.panels.frames()
    pages = render_private_pages("ABS PRIVATE", peek_lines(controller.table.state.network("ABS").holdings))
    from PIL import ImageChops

    # one of its pages (they take turns every few seconds while the button is held)
    result["peek_shown"] = any(
        ImageChops.difference(frames[0].convert("L"), page.convert("L")).getbbox() is None for page in pages
    )
    result["peek_pages"] = len(pages)
    result["peek_private"] = controller.panels.private_showing(0)
    frames[0].save(driver.out_dir / "peek-panel-1.png")
    result["peek_history_len"] = len(controller.table.history())
    result["peek_lines"] = [
        line
        for name in controller.table.state.names
        for line in peek_lines(controller.table.state.network(name).holdings)
    ]
    texts("during peek")


def after_release():
    result["peek_after_release"] = controller.panels.private_showing(0)
    result["peek_history_after"] = len(controller.table.history())


def peek_showing():
    """ABS's panel shows a private page and has drawn it."""
    return controller.panels.private_showing(0) and driver.panels_idle()


def lineup(network):
    """Open ``network``'s line-up dialog, tap programs (by their public labels) filling 8:00-11:00, check,
    lock in; the network's panel shows the highlighted tile's value meanwhile."""

    def fill():
        holdings = controller.table.state.network(network).holdings
        left, chosen = 6, []
        for tile in sorted(holdings.programs, key=lambda t: -t.length):
            if tile.kind in ("program", "special", "movie") and tile.length <= left:
                chosen.append(tile.id)
                left -= tile.length
        for tile_id in chosen:
            tap(popup().tile_buttons[tile_id], scroll=True)  # the tiles list scrolls
        result.setdefault("lineup_panels", {})[network] = controller.panels.private_showing(
            controller.table.state.names.index(network)
        )

    def gate_first():
        """Until the network taps its name, the dialog shows no tile at all (9.1)."""
        result.setdefault("lineup_gated", {})[network] = not getattr(popup(), "tile_buttons", None)
        tap_text(f"I am {network}", popup())

    def check_empty():
        """An empty line-up is illegal (6.1): Check says why in the dialog (only ABS looks), journals nothing."""
        if network == "ABS":
            result["events_before_check"] = len(controller.table.session.line)
            tap_text("Check", popup())

    def record_refusal():
        if network == "ABS":
            result["private_refusal"] = [popup().problem, controller.message, controller.message_refused]
            result["events_after_check"] = len(controller.table.session.line)

    def record_fixed():
        """Filled, the refusal Check showed is gone by itself: the verdict follows the entry."""
        if network == "ABS":
            result["after_fix"] = [popup().problem, popup().note]
        result.setdefault("lineup_labels", {})[network] = {
            tile_id: button.text for tile_id, button in popup().tile_buttons.items()
        }

    return [
        lambda: tap_text(f"{network} line-up"),
        gate_first,
        check_empty,
        record_refusal,
        fill,
        record_fixed,
        lambda: shot(f"tvw-lineup-{network}"),
        lambda: texts(f"lineup {network}"),
        lambda: tap_text("Check", popup()),
        lambda: tap_text("Lock in", popup()),
    ]


def roll_war():
    """Roll by the dice bar for whoever the Ratings War asks, until it asks nobody."""
    if controller.dice_roller:
        roller = controller.dice_roller
        tap_text(f"Roll {roller}")
        raise Retry(f"the Ratings War to ask for no more dice (asked of {roller})")


def grid_example():
    """The resolution grid of the rulebook's worked example (war_at_table harness), on the real screen."""
    from test_tv_wars_war_at_table import enter_all, example_table

    from companion.games.tv_wars.war_at_table import RevealLineUps, war_view
    from ui.games.tv_wars.board import TvPopup, fill_grid

    table = example_table()
    enter_all(table)
    table.do(RevealLineUps())
    before = war_view(table.war)
    popup_ = TvPopup(before.status, full=True)
    fill_grid(popup_.body, before)
    controller.open_popup(popup_)
    result["grid_before"] = [w.text for w in walk(popup_) if isinstance(w, Label) and w.text]


def grid_four_specials():
    """The grid before the dice of the example with four Specials (test_tv_wars_war_at_table's
    four_specials_table): every program's odds are on the screen."""
    from test_tv_wars_war_at_table import enter_all, four_specials_table

    from companion.games.tv_wars.war_at_table import RevealLineUps, war_view
    from ui.games.tv_wars.board import TvPopup, fill_grid

    table = four_specials_table()
    enter_all(table)
    table.do(RevealLineUps())
    view = war_view(table.war)
    popup_ = TvPopup(view.status, full=True)
    fill_grid(popup_.body, view)
    controller.open_popup(popup_)
    result["grid_four_specials"] = [w.text for w in walk(popup_) if isinstance(w, Label) and w.text]


def grid_example_done():
    from test_tv_wars_war_at_table import enter_all, example_table

    from companion.games.tv_wars.war_at_table import RevealLineUps, war_pending_dice, war_view
    from ui.games.tv_wars.board import TvPopup, fill_grid

    table = example_table()
    enter_all(table)
    table.do(RevealLineUps())
    rolls = iter([(6, 5), (2, 1), (3, 4)])  # 8:30 tie PBC over NBS; NBS's Special 70
    while war_pending_dice(table.war) is not None:
        table.roll(next(rolls))
    view = war_view(table.war)
    popup_ = TvPopup(view.status, full=True)
    fill_grid(popup_.body, view)
    controller.open_popup(popup_)
    result["grid_after"] = [w.text for w in walk(popup_) if isinstance(w, Label) and w.text]


def scroll_grid(y):
    popup().scroll.scroll_y = y


def close():
    popup().dismiss(animation=False)


steps = [
    lambda: controller.post(
        NewGame(
            game="tv-wars",
            players=tuple(PlayerSeat(s.name, s.colour) for s in config.seats),
            options={"roll_off": False},
        )
    ),
    lambda: snapshot("setup"),
    lambda: shot("tvw-setup"),
    lambda: tap_text("ABS: starting programs"),
    lambda: shot("tvw-private-gate"),
    lambda: texts("private gate"),
    close,
    *starting("ABS", (2, 3, 1, 0, 0, 4, 0, 0, 0, 2, 4)),
    lambda: shot("tvw-after-abs"),
    *starting("CBA", (0, 1, 2, 3)),
    *starting("PBC", (1,)),
    lambda: tap_text("NBS: starting programs"),
    lambda: tap_text("I am NBS", popup()),
    lambda: shot("tvw-starting-entry"),
    lambda: tap_text("Enter", popup()),
    lambda: snapshot("playing"),
    lambda: shot("tvw-turn"),
    lambda: texts("playing"),
    lambda: sizes("playing"),
    lambda: save_panels("playing"),
    # 3.1 and 4: ABS lands on a Television Production Company and nominates a 60-minute Drama
    lambda: tap_text("ABS landed on"),
    lambda: shot("tvw-landing"),
    lambda: tap_text("Television Production Company", popup()),
    lambda: tap_text("Nominate a program"),
    lambda: tap_text("60 min", popup()),
    lambda: tap_text("Drama", popup()),
    lambda: shot("tvw-nominate"),
    lambda: tap_text("Nominate", popup().buttons),
    lambda: snapshot("auction open"),
    lambda: shot("tvw-auction"),
    lambda: tap_text("Bid $1,500", board().cards["CBA"]),  # the card's On the Air: what CBA's seat key does now
    lambda: snapshot("card twin bid"),
    lambda: tap_text("Other bid"),
    lambda: stepper_plus(3),
    lambda: shot("tvw-bid"),
    lambda: tap_text("Bid", popup().buttons),  # PBC bids $2,000 + 3 x $500 = $3,500
    lambda: tap_text("NBS passes"),
    lambda: tap_text("ABS passes"),
    lambda: snapshot("auction raised"),
    lambda: tap_text("CBA passes"),
    lambda: snapshot("auction won"),
    lambda: texts("entry pending"),
    lambda: tap_text("PBC: enter the value"),
    lambda: tap_text("I am PBC", popup()),
    lambda: shot("tvw-tile-value"),
    lambda: tap_text("80", popup()),
    lambda: snapshot("entered"),
    lambda: texts("after entry"),
    # 9.7: CBA on Technical Difficulties is left out of PBC's... (turn order: CBA next)
    lambda: post_land("technical_difficulties"),
    lambda: post_land("talent_agency"),  # PBC
    lambda: tap_text("Nominate a Star"),
    lambda: snapshot("star auction"),
    lambda: shot("tvw-auction-td"),
    lambda: tap_text("NBS passes"),
    lambda: tap_text("ABS bids $1,500"),
    lambda: tap_text("PBC passes"),
    lambda: tap_text("ABS: enter the value"),
    lambda: tap_text("I am ABS", popup()),
    lambda: tap_text("30", popup()),
    lambda: snapshot("star won"),
    # peek: ABS holds its roll button (key e) past hold_time; its own panel shows its private figures
    lambda: key_down("e"),
    waiting(peek_showing, "ABS's held roll button (a long press) to show its private figures on its own panel"),
    peek_check,
    lambda: key_up("e"),
    waiting(
        lambda: not controller.panels.private_showing(0) and driver.panels_idle(),
        "ABS's panel to leave the private page once the button is up",
    ),
    after_release,
    lambda: save_panels("after-peek"),
    # 9.6 Bulletin and 7 bankruptcy: NBS must pay $40,000
    lambda: post_land("bulletin"),  # NBS's turn
    lambda: tap_text("Bulletin card effect"),
    lambda: tap_text("Pay the bank", popup()),
    lambda: [tap(find(popup(), button_text("+$5,000"))) for _ in range(8)],
    lambda: shot("tvw-bulletin"),
    lambda: tap_text("Apply", popup().buttons),
    lambda: snapshot("debt"),
    lambda: texts("debt"),
    lambda: tap_text("NBS: sell a program"),
    lambda: tap_text("I am NBS", popup()),
    lambda: shot("tvw-sell"),
    lambda: tap(find(popup(), lambda w: hasattr(w, "on_release") and "120 min" in getattr(w, "text", ""))),
    lambda: snapshot("sold"),
    # 9.2: ABS steals a program from CBA; CBA chooses which
    lambda: post_land("steal_a_program") if controller.table.state.turn == "ABS" else None,
    lambda: snapshot("steal"),
    lambda: tap_text("Steal from CBA"),
    lambda: tap_text("CBA chooses"),
    lambda: shot("tvw-give"),
    lambda: texts("give dialog"),
    lambda: tap(find(popup(), lambda w: hasattr(w, "on_release") and "30 min" in getattr(w, "text", ""))),
    lambda: snapshot("stolen"),
    # 3.2: CBA at the Movie Studio rolls by the dice bar and buys a movie
    lambda: post_land("movie_studio"),
    lambda: tap_text("Roll CBA"),
    lambda: snapshot("movie offer"),
    lambda: tap_text("Buy for"),
    lambda: tap_text("Buy for", popup().buttons),
    lambda: snapshot("movie bought"),
    lambda: shot("tvw-dashboard-late"),
    lambda: texts("late"),
    lambda: save_panels("late"),
    # 6: a Ratings War at the table (line-ups by public facts, lock in, reveal, the grid, dice by the bar)
    lambda: post_land("ratings_war"),
    lambda: snapshot("war called"),
    lambda: shot("tvw-war-lineups"),
    *[step for name in ("ABS", "CBA", "PBC", "NBS") for step in lineup(name)],
    lambda: snapshot("war locked"),
    lambda: tap_text("Reveal the line-ups"),
    lambda: snapshot("war revealed"),
    lambda: tap_text("Resolution grid"),
    lambda: shot("tvw-war-grid"),
    lambda: texts("war grid"),
    close,
    roll_war,
    lambda: snapshot("war over"),
    # the resolution grid (the rulebook's example through the war harness)
    grid_example,
    lambda: shot("tvw-grid-before"),
    lambda: scroll_grid(0),
    lambda: shot("tvw-grid-odds"),
    close,
    grid_four_specials,
    lambda: scroll_grid(0),
    lambda: shot("tvw-grid-odds-four-specials"),
    close,
    grid_example_done,
    lambda: shot("tvw-grid-top"),
    lambda: scroll_grid(0.45),
    lambda: shot("tvw-grid-middle"),
    lambda: scroll_grid(0),
    lambda: shot("tvw-grid-bottom"),
    close,
    # 5.32: the game ends when the Critics' Choice pile is empty; the asset count
]
for _ in range(10):
    steps += [
        lambda: post_land("critics_choice"),
        lambda: controller.post(
            __import__("companion.games.tv_wars", fromlist=["EnterTileValue"]).EnterTileValue(
                network=controller.table.state.entry.network, value=-12
            )
        ),
    ]
steps += [
    lambda: post_land("critics_choice"),
    lambda: snapshot("ended"),
    lambda: shot("tvw-ended"),
    lambda: tap_text("Assets and winner"),
    lambda: shot("tvw-assets"),
    lambda: result.__setitem__("assets", [w.text for w in walk(popup()) if isinstance(w, Label) and w.text]),
    close,
]


driver.run(steps)
