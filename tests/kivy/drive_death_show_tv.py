"""Plays a Death Show TV game in the real Kivy app (the kiosk's simulator build) through synthetic touches.

Run by tests/test_kivy_death_show_tv.py in a subprocess with a display (Xvfb). Usage:
``python drive_death_show_tv.py DATA_DIR OUT_DIR``. Writes screenshots (``dst-*.png``) and the emulated
panels into OUT_DIR and a ``result.json`` with what the board showed at each step.

The story: four Contestants (Vitality 2); the roll-off; three Moves by tapping the island; Rex Hunts
Kelpie (one tap), declares a Weapon +2 and a +1 card with the steppers, Kelpie fights Unarmed, the
odds show, dice are entered, the result shows; Rex plays Killer Squirrels on Kelpie, who dies; Rex taps
Turtle Beach to remove it; a tap on the removed Location is refused; then an eight-Contestant game to see
the crowded layout; then a two-Contestant game whose Show deck runs out, and the Reshuffle button.
"""

import harness  # first: it sets Kivy's environment and builds nothing yet
from harness import find, tap, tap_text

from companion.commands import AnswerDice, NewGame, PlayerSeat
from companion.games.death_show_tv import AdjustHand

driver = harness.Driver(prefix="dst-")  # screenshots and panels: dst-*.png
controller, result = driver.controller, driver.result
board, popup, shot, save_panels = driver.board, driver.popup, driver.shot, driver.save_panels

COLOURS = ("#e53935", "#1e88e5", "#43a047", "#fdd835", "#8e24aa", "#fb8c00", "#00acc1", "#d81b60")


def tap_location(name):
    tap(find(board(), lambda w: type(w).__name__ == "DstIslandCell" and w.location == name))


def stepper(popup, ident, presses):
    """Press the + (or − for a negative count) of stepper ``ident`` in ``popup``."""
    widget = popup.ids[ident]
    sign = "+" if presses > 0 else "\u2212"
    button = find(widget, lambda w: getattr(w, "text", None) == sign and hasattr(w, "on_release"))
    for _ in range(abs(presses)):
        tap(button)


def answer(roller, *values):
    controller.post(AnswerDice(roller=roller, values=tuple(values), source="manual"))


def texts(root):
    """Every label text under ``root`` (what a player can read)."""
    found, stack = [], [root]
    while stack:
        widget = stack.pop()
        text = getattr(widget, "text", None)
        if isinstance(text, str) and text and widget.get_root_window() is not None:
            found.append(text)
        stack.extend(widget.children)
    return found


def overlaps(root):
    """Pairs of sibling labels/buttons on the board whose boxes overlap (should be none)."""
    problems, stack = [], [root]
    while stack:
        widget = stack.pop()
        kids = [k for k in widget.children if k.width > 1 and k.height > 1 and k.opacity > 0]
        for i, a in enumerate(kids):
            for b in kids[i + 1 :]:
                if a.x < b.right - 1 and b.x < a.right - 1 and a.y < b.top - 1 and b.y < a.top - 1:
                    problems.append(
                        f"{type(a).__name__}:{getattr(a, 'text', '')[:20]} / "
                        f"{type(b).__name__}:{getattr(b, 'text', '')[:20]}"
                    )
        stack.extend(widget.children)
    return problems


def clipped_labels(root):
    """Labels whose text is wider or taller than their box (text cut off), on the board."""
    from kivy.uix.label import Label

    problems, stack = [], [root]
    while stack:
        widget = stack.pop()
        if isinstance(widget, Label) and widget.text and widget.get_root_window() is not None and widget.height > 1:
            widget.texture_update()
            tw, th = widget.texture_size
            if th > widget.height + 2 or (tw > widget.width + 2 and not widget.shorten):
                problems.append(f"{widget.text[:30]!r} {tw}x{th} in {int(widget.width)}x{int(widget.height)}")
        stack.extend(widget.children)
    return problems


def popup_snapshot(label):
    """What the open dialog shows (its texts), whether one is open, and its clipped labels."""
    open_popup = popup()
    result["steps"].append(
        {
            "label": label,
            "message": controller.message,
            "refused": controller.message_refused,
            "status": controller.status,
            "popup_open": open_popup is not None,
            "popup_texts": texts(open_popup) if open_popup is not None else [],
            "popup_clipped": clipped_labels(open_popup) if open_popup is not None else [],
            "popup_disabled": sorted(
                w.text for w in open_popup.walk() if type(w).__name__ == "BigButton" and w.disabled
            )
            if open_popup is not None
            else [],
            "cards": {c.name: c.cards for c in controller.table.state.contestants},
        }
    )


def button_press(action, player):
    """A seat button press, as the kiosk turns it into a command."""
    rules = controller.table.session.rules
    controller.post(rules.button_command(action, player, "button"))


def snapshot(label):
    state = controller.table.state
    b = board()
    result["steps"].append(
        {
            "label": label,
            "message": controller.message,
            "refused": controller.message_refused,
            "status": controller.status,
            "mode": b.mode,
            "texts": texts(b),
            "vitality": {c.name: c.vitality for c in state.contestants},
            "cards": {c.name: c.cards for c in state.contestants},
            "removed": [l.name for l in state.locations if l.removed],
            "disabled": sorted(
                w.text for w in b.walk() if type(w).__name__ == "BigButton" and w.disabled and w.get_root_window()
            ),
            "marked": [w.location for w in b.walk() if type(w).__name__ == "DstIslandCell" and w.marked],
            "overlaps": overlaps(b),
            "clipped": clipped_labels(b),
            "board_size": [b.width, b.height],
        }
    )


def new_game(n, **options):
    seats = tuple(
        PlayerSeat(name, colour)
        for name, colour in zip(("Kelpie", "Jhon", "Elena", "Rex", "Mina", "Otto", "Zoe", "Dante")[:n], COLOURS)
    )
    controller.post(NewGame(game="death-show-tv", players=seats, options=options))


def whole_move(player, location):
    return [lambda: tap_text("Draw card"), lambda: tap_location(location), lambda: tap_text("End turn")]


steps = [
    lambda: new_game(4, vitality=2, starting_cards=3, location_rules={"The Bunker": "Our note: no Events here"}),
    lambda: snapshot("roll-off"),
    lambda: shot("01-roll-off"),
    lambda: answer("Kelpie", 6),
    lambda: answer("Jhon", 2),
    lambda: answer("Elena", 3),
    lambda: answer("Rex", 1),
    lambda: snapshot("first turn"),
    lambda: tap_text("Draw card"),
    lambda: tap_location("The Caves"),
    lambda: snapshot("kelpie moved"),
    lambda: shot("02-island-moved"),
    lambda: tap_text("End turn"),
    *whole_move("Jhon", "The Bunker"),
    *whole_move("Elena", "Dense Forest"),
    lambda: tap_text("Draw card"),
    lambda: tap_location("The Caves"),  # occupied: a Hunt at once
    lambda: shot("03-hunt"),
    lambda: snapshot("combat declare"),
    lambda: shot("04-combat-declare"),
    lambda: tap_text("Rex: show cards"),
    lambda: stepper(popup(), "weapon", 2),
    lambda: stepper(popup(), "extra", 1),
    lambda: stepper(popup(), "extra_cards", 3),  # a Weapon and 3 cards: Rex holds only 3
    lambda: tap_text("Confirm", popup()),
    lambda: popup_snapshot("declare refused"),
    lambda: shot("05a-declare-refused"),
    lambda: stepper(popup(), "extra_cards", -2),
    lambda: shot("05-declare-popup"),
    lambda: tap_text("Confirm", popup()),
    lambda: popup_snapshot("declare accepted"),
    lambda: tap_text("Unarmed, no cards"),
    lambda: snapshot("combat odds"),
    lambda: shot("06-combat-odds"),
    lambda: answer("Rex", 5),
    lambda: snapshot("rex rolled"),
    lambda: shot("06b-combat-rolling"),
    lambda: answer("Kelpie", 2),
    lambda: snapshot("combat result"),
    lambda: shot("07-combat-result"),
    lambda: tap_text("Back to the island"),
    lambda: snapshot("island after"),
    lambda: shot("08-island-after"),
    lambda: tap_text("Event"),
    lambda: popup_snapshot("event no target"),
    lambda: tap_text("Kelpie", popup().ids.target_box),
    lambda: tap_text("Jhon", popup().ids.target_box),  # Kelpie and Jhon are not on one Location
    lambda: tap_text("Play the Event", popup()),
    lambda: popup_snapshot("event refused"),
    lambda: shot("09a-event-refused"),
    lambda: tap_text("Jhon", popup().ids.target_box),
    lambda: shot("09-event-popup"),
    lambda: tap_text("Play the Event", popup()),
    lambda: tap_text("Unarmed, no cards"),
    lambda: answer("Rex", 6),
    lambda: answer("Kelpie", 3),
    lambda: snapshot("death result"),
    lambda: shot("10-death-result"),
    lambda: tap_text("Back to the island"),
    lambda: snapshot("remove prompt"),
    lambda: shot("11-remove-location"),
    lambda: tap_location("The Caves"),  # occupied by Rex: refused
    lambda: snapshot("remove occupied refused"),
    lambda: tap_location("Turtle Beach"),
    lambda: snapshot("removed"),
    lambda: shot("12-removed"),
    lambda: save_panels("after-death"),
    lambda: button_press("on_the_air", "Kelpie"),  # the dead Kelpie's seat button
    lambda: snapshot("dead button refused"),
    lambda: tap_text("End turn"),
    lambda: tap_text("Draw card"),
    lambda: tap_location("Turtle Beach"),  # removed: refused
    lambda: snapshot("move to removed refused"),
    lambda: shot("13-refused"),
    lambda: tap_text("Card effects"),
    lambda: shot("14-card-effects-popup"),
    lambda: popup_snapshot("card effects"),
    lambda: tap_text("Jhon: card +1", popup()),
    lambda: tap_text("Close", popup()),
    lambda: snapshot("card effect"),
    lambda: new_game(8, roll_off=False, starting_cards=7),
    *whole_move("Kelpie", "The Caves"),  # Kelpie now holds 8: the Discard Phase
    lambda: snapshot("eight discard"),
    lambda: shot("15-eight-discard"),
    lambda: tap_text("Kelpie −1"),
    lambda: tap_text("Draw card"),
    lambda: tap_location("The Bunker"),
    lambda: snapshot("eight players"),
    lambda: shot("16-eight-players"),
    lambda: save_panels("eight"),
    # the Show deck runs out (corrections draw it all): the board says so and offers the reshuffle
    lambda: new_game(2, roll_off=False),
    lambda: tap_text("Draw card"),
    lambda: controller.post(AdjustHand(player="Jhon", delta=71, reason="card effects")),
    lambda: controller.post(AdjustHand(player="Jhon", delta=-10, reason="played")),
    lambda: controller.post(AdjustHand(player="Kelpie", delta=10, reason="card effects")),
    lambda: snapshot("deck empty"),
    lambda: shot("17-deck-empty"),
    lambda: tap_text("Reshuffle"),
    lambda: snapshot("reshuffled"),
]


driver.run(steps)
