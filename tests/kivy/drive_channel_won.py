"""Plays a Channel WON round in the real Kivy app through synthetic touches and key presses.

Run by tests/test_kivy_channel_won.py in a subprocess with a display (Xvfb). Usage:
``python drive_channel_won.py DATA_DIR OUT_DIR``. Writes screenshots and panel PNGs into OUT_DIR and a
``result.json`` with what the board showed after each step.
"""

import harness  # first: it sets Kivy's environment and builds nothing yet
from harness import find, tap

from companion.commands import NewGame, PlayerSeat
from companion.games.channel_won.cards import leads_option, parse_catalogue

driver = harness.Driver()
controller, result = driver.controller, driver.result
board, popup, shot, save_panels = driver.board, driver.popup, driver.shot, driver.save_panels


def button_state(matches):
    """``[text, disabled]`` of the board's first widget that ``matches``."""
    widget = find(board(), matches)
    return [widget.text, widget.disabled]


def tap_text(text, root=None):
    """Tap the enabled button whose text is exactly ``text`` (several of this board's start alike)."""
    harness.tap_text(text, root, exact=True)


#: The rulebook's Sports example as catalogue entries (the Business bonus value makes the Scoring Example).
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
SEATS = (PlayerSeat("Ava", "#e53935"), PlayerSeat("Ben", "#1e88e5"), PlayerSeat("Cleo", "#43a047"))
SIX = SEATS + (PlayerSeat("Dev", "#fdd835"), PlayerSeat("Eli", "#8e24aa"), PlayerSeat("Fay", "#fb8c00"))


def column(category):
    return next(c for c in board().ids.lineup.children if c.category == category)


def overlaps(root):
    """Pairs of visible sibling widgets under ``root`` whose boxes overlap (a layout fault)."""
    found = []
    stack = [root]
    while stack:
        widget = stack.pop()
        kids = [k for k in widget.children if k.opacity > 0 and k.width > 1 and k.height > 1]
        for i, a in enumerate(kids):
            for b in kids[i + 1 :]:
                if a.x < b.right - 1 and b.x < a.right - 1 and a.y < b.top - 1 and b.y < a.top - 1:
                    found.append(f"{type(a).__name__}/{type(b).__name__} in {type(widget).__name__}")
        stack.extend(widget.children)
    return found


def clipped_labels(root):
    """Labels whose text is wider or taller than the label (cut off on screen), as their texts."""
    from kivy.uix.label import Label

    found = []
    stack = [root]
    while stack:
        widget = stack.pop()
        if (
            isinstance(widget, Label)
            and widget.text
            and widget.opacity > 0
            and widget.width > 1
            and not widget.shorten
            and widget.get_root_window() is not None
        ):
            widget.texture_update()
            w, h = widget.texture_size
            if w > widget.width + 2 or h > widget.height + 2:
                found.append(f"{widget.text!r} {w:.0f}x{h:.0f} in {widget.width:.0f}x{widget.height:.0f}")
        stack.extend(widget.children)
    return found


def snapshot(label):
    state = controller.table.state
    b = board()
    result["steps"].append(
        {
            "label": label,
            "screen": controller.screens.current,
            "message": controller.message,
            "refused": controller.message_refused,
            "status": controller.status,
            "turn": state.turn,
            "phase": state.phase,
            "round": state.round,
            "stars": state.stars,
            "scores": state.scores,
            "hands": {r.name: r.hand for r in state.reporters},
            "lineup": {
                c.category: {
                    "value": c.value_text,
                    "state": c.state_text,
                    "who": c.who_text,
                    "location": c.location_text,
                    "location_lines": round(
                        c.ids.location.texture_size[1] / c.ids.location._label.get_extents("Sg")[1]
                    ),
                    # how many lines of parts the card has room for: its parts label's height ÷ one line's
                    "parts_room": round(c.ids.parts.height / c.ids.parts._label.get_extents("Sg")[1], 2),
                }
                for c in b.ids.lineup.children
            },
            "chips": {
                c.name: [c.score_text, c.tiles_text, c.hand_text, c.token_text, c.turn] for c in b.ids.chips.children
            },
            "hand_labels": {
                c.name: [c.ids.hand.text, c.ids.hand.font_size, c.ids.hand.opacity, c.ids.hand.width]
                for c in b.ids.chips.children
            },
            "results_button": [b.ids.results_button.text, b.ids.results_button.opacity, b.ids.results_button.disabled],
            "categories_note": b.ids.categories_note.text if b.ids.categories_note.opacity else "",
            "decks_note": b.ids.decks_note.text if b.ids.decks_note.opacity else "",
            "early_bird": [b.early_bird_text, b.early_bird_disabled, state.last_actor],
            "take_buttons": {kind: [text, b.collect_off.get(kind)] for kind, text in b.collect_texts.items()},
            "stars_text": b.stars_text,
            "board_size": list(b.size),
            "overlaps": overlaps(b),
            "clipped": clipped_labels(b),
        }
    )


def collect_round():
    """Phase 1 by touch: the turn's player taps Location / Source / Scoop (take a card), a kind for a whole turn of the
    table and then the next (so every hand gets each kind), the next kind when a deck and its row are empty."""
    kinds = ["Location\n", "Source\n", "Scoop\n"]  # each button ends with its deck's counts
    count = 0
    while controller.table.state.phase == 1:
        wanted = count // len(controller.table.state.names)
        for step in range(3):
            try:
                harness.tap_text(kinds[(wanted + step) % 3], board())
                break
            except LookupError:  # that kind is used up (its button is disabled)
                continue
        controller.drain()
        controller.refresh()
        count += 1
        if count > 60:
            raise RuntimeError("Phase 1 did not end")


def lead_action(category, action_text):
    """Tap a Lead's column, then a button of its dialog."""

    def step():
        tap(column(category))
        tap_text(action_text, popup())

    return step


def popup_step(*actions):
    def step():
        for action in actions:
            action()

    return step


def everyone_done():
    while (
        controller.table.state.phase == 2 and controller.table.state.round == 1 and not controller.table.state.finished
    ):
        tap_text("Done", board())
        controller.drain()
        controller.refresh()


def dialog_state(key):
    """What the open Lead dialog offers: each action's button disabled or not, and its text."""
    p = popup()
    result[key] = {
        "title": p.title,
        "points": p.points,
        "range": p.ids.value_range.text,
        "blocked": dict(p.blocked),
        "buttons": {
            name: [p.ids[name].disabled, p.ids[name].text]
            for name in (
                "location",
                "security_footage",
                "star_witness",
                "close",
                "discredit",
                "final_touch",
                "play_source",
            )
        },
        "clipped": clipped_labels(p),
        "overlaps": overlaps(p.content),
    }


def results_state(key):
    """The open results dialog: its title and rows (label, value, words), and whether any row is clipped."""
    p = popup()
    rows = [[r.label, r.value, r.words] for r in reversed(p.ids.rows.children)]
    result[key] = {
        "title": p.title,
        "rows": rows,
        "clipped": clipped_labels(p),
        "font_sizes": sorted({w.font_size for r in p.ids.rows.children for w in r.children}),
    }


def open_lead(category):
    return lambda: tap(column(category))


def in_dialog(text):
    return lambda: tap_text(text, popup())


steps = [
    lambda: controller.post(
        NewGame(
            game="channel-won",
            players=SEATS,
            options={
                "leads": leads_option(parse_catalogue(CATALOGUE), ["Sports"]),
                "characters": {"Ava": "Trey DeMark"},
            },
        )
    ),
    lambda: snapshot("new game"),
    lambda: shot("cw-phase1"),
    lambda: save_panels("phase1"),
    *driver.press("q"),  # Ava's seat button 1: take a card (heard by the table)
    *driver.press("q"),  # mashed: not her turn now, refused
    lambda: snapshot("button mashed"),
    collect_round,
    lambda: snapshot("phase 2"),
    lambda: shot("cw-phase2-start"),
    # Trey DeMark's power is for Phase 1: its button is disabled with the reason; the handler a tap would call
    # is refused
    lambda: result.__setitem__(
        "ability_button", button_state(lambda w: getattr(w, "text", "").startswith("Ability\n"))
    ),
    lambda: board().use_ability(),
    lambda: snapshot("ability in phase 2"),
    # 1. Ava plays the Park Location on Sports
    open_lead("Sports"),
    lambda: shot("cw-lead-dialog"),
    lambda: result.__setitem__(
        "dialog",
        {
            "title": popup().title,
            "points": popup().points,
            "types": sorted(b.text for b in popup().ids.source_types.children),
            "clipped": clipped_labels(popup()),
            "overlaps": overlaps(popup().content),
        },
    ),
    lambda: dialog_state("open dialog"),
    in_dialog("Location\nPark"),
    lambda: snapshot("location"),
    # 2. Ben: a Source on Crime before its Location: disabled with its reason; the handler a tap would call
    #    is refused by the rules all the same. Then the Coach on Sports.
    open_lead("Crime"),
    lambda: dialog_state("no location dialog"),
    lambda: shot("cw-no-location-dialog"),
    lambda: popup().play_source(),
    lambda: snapshot("source before location"),
    open_lead("Sports"),
    in_dialog("Coach 2"),
    in_dialog("Play Coach  2"),
    lambda: snapshot("coach"),
    # 3. Cleo closes Sports
    open_lead("Sports"),
    in_dialog("Close Lead"),
    lambda: snapshot("closed"),
    # 4. Ava: a Business Bonus Source on Sports, its printed -1 pre-filled (the Scoring Example)
    open_lead("Sports"),
    lambda: dialog_state("closed dialog"),
    lambda: shot("cw-closed-dialog"),
    lambda: tap(find(popup().ids.categories, lambda w: getattr(w, "category", None) == "Business")),
    lambda: shot("cw-bonus-dialog"),
    lambda: result.__setitem__("bonus_points", popup().points),
    in_dialog("Play Business Bonus  -1"),
    lambda: snapshot("bonus"),
    # 5. Ben passes; 6. Cleo plays a Location on Crime
    lambda: tap_text("Pass", board()),
    lambda: snapshot("ben passed"),
    open_lead("Crime"),
    in_dialog("Location"),
    lambda: snapshot("crime location"),
    # 7. Ava: a Discredit on the open Crime Lead (disabled; the handler is refused), then passes
    open_lead("Crime"),
    lambda: result.__setitem__("discredit_disabled", popup().ids.discredit.disabled),
    lambda: popup().act("discredit"),
    lambda: snapshot("discredit open"),
    lambda: shot("cw-refused"),
    lambda: tap_text("Pass", board()),
    # 8. Ben: a second pass (his Pass button is disabled; the handler a tap would call): refused
    lambda: result.__setitem__(
        "ben_pass_disabled", find(board(), lambda w: getattr(w, "text", None) == "Pass").disabled
    ),
    lambda: board().pass_turn(),
    lambda: snapshot("second pass"),
    open_lead("Crime"),
    in_dialog("Star Witness\n+2 Source"),
    lambda: snapshot("star witness"),
    # 9. Cleo closes Crime
    open_lead("Crime"),
    in_dialog("Close Lead"),
    lambda: snapshot("crime closed"),
    lambda: shot("cw-phase2-played"),
    lambda: save_panels("played"),
    everyone_done,
    lambda: results_state("results opened"),  # opened by itself when the round was scored
    lambda: shot("cw-round1-results"),
    lambda: tap_text("Close", popup()),
    lambda: result.__setitem__("results_closed", popup() is None),
    lambda: snapshot("round 2"),
    lambda: shot("cw-round2"),
    lambda: save_panels("round2"),
    lambda: tap_text("Round 1\nresults", board()),  # reopened from its button
    lambda: results_state("results reopened"),
    lambda: tap_text("Close", popup()),
    lambda: harness.tap_text("Location\n", board()),  # round 2's first action: the button goes
    lambda: snapshot("round 2 first card"),
    lambda: tap(controller.screens.get_screen("dashboard").ids.undo_button),
    lambda: snapshot("first card undone"),
    lambda: tap(controller.screens.get_screen("dashboard").ids.undo_button),
    lambda: snapshot("undone"),
    lambda: tap_text("History"),
    lambda: shot("cw-history"),
    lambda: result.__setitem__("history_screen", controller.screens.current),
    lambda: tap_text("Back"),
    # six reporters: six columns and six chips; nobody reports, so the network becomes Channel None
    lambda: controller.post(NewGame(game="channel-won", players=SIX)),
    collect_round,
    lambda: tap(column("Fluff")),
    in_dialog("Location"),
    lambda: snapshot("six"),
    lambda: shot("cw-six"),
    everyone_done,
    lambda: results_state("channel none results"),
    lambda: tap_text("Close", popup()),
    lambda: snapshot("channel none"),
    lambda: shot("cw-channel-none"),
    lambda: save_panels("channel-none"),
    # the decks: Trey DeMark discards and replaces the Location row, the Location deck runs out, the board
    # says to reshuffle the discards, and the next Location taken records the reshuffle
    lambda: controller.post(
        NewGame(game="channel-won", players=SEATS[:2], options={"characters": {"Ava": "Trey DeMark"}})
    ),
    lambda: board().use_ability(),
    lambda: harness.tap_text("Location\n", board()),
    lambda: harness.tap_text("Location\n", board()),
    lambda: snapshot("deck empty"),
    lambda: shot("cw-deck-empty"),
    lambda: harness.tap_text("Location\n", board()),
    lambda: snapshot("reshuffled"),
    # Security Footage in place of a Location (Inside Scoop) on a Lead of a six-Lead row, the narrowest column:
    # its name on the card whole, over two lines
    lambda: controller.post(NewGame(game="channel-won", players=SIX)),
    collect_round,
    open_lead("Politics"),
    in_dialog("Security\nFootage"),
    lambda: snapshot("security footage"),
    lambda: shot("cw-security-footage"),
]


driver.run(steps)
