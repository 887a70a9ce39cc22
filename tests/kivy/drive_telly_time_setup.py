"""Sets up two three-player Telly Time games in the real Kivy app, counting every tap (issue 18 item 6).

Run by tests/test_kivy_telly_time.py in a subprocess with a display (Xvfb). Usage:
``python drive_telly_time_setup.py DATA_DIR OUT_DIR``. The first game has a tile catalogue (the file
tests/data/telly_time_tiles.toml, read as a config's ``[house_rules] tiles = "..."`` is): each player's Pilot show
brings the whole tile. The second has none: after each Pilot show the tile's entry screen opens by itself and
the tile is entered on it. Each player keeps 2 cards as the dialog offers them; then Start season 1. Every tap
goes through :func:`counted`; ``result.json`` holds, after each step, the status line, the player shown, the
open dialog and the taps so far (``taps``), and each game's total (``totals``). Screenshots ``tts-*.png``.
"""

from pathlib import Path

import harness  # first: it sets Kivy's environment and builds nothing yet
from harness import find, tap

from companion.commands import NewGame, PlayerSeat
from companion.games.telly_time.grid import read_tile_catalogue

driver = harness.Driver(simulate=False)
controller, result = driver.controller, driver.result
board, shot = driver.board, driver.shot

CATALOGUE = Path(__file__).resolve().parent.parent / "data" / "telly_time_tiles.toml"
PLAYERS = (("Arkady", "#e53935"), ("Virginia", "#1e88e5"), ("Kim", "#43a047"))
PILOTS = {"Arkady": ("Comedy", "8pm"), "Virginia": ("Reality", "late_night"), "Kim": ("Drama", "primetime")}
# the genres tapped on the tile screen, for the squares top-left to bottom-right but the centre (the 8th is
# put on the last ? square by itself)
TILE_TAPS = {
    "Arkady": ("Kids", "Drama", "Quiz", "Crime", "Reality", "Sports", "Chat"),
    "Virginia": ("Drama", "Sports", "Comedy", "Kids", "Quiz", "Chat", "Crime"),
    "Kim": ("Comedy", "Quiz", "Kids", "Sci-Fi", "Chat", "Reality", "Sports"),
}
taps = {"count": 0}
result["totals"] = {}


def counted(widget):
    """A player's tap: counted, then made."""
    taps["count"] += 1
    tap(widget)


def action(text):
    return lambda: counted(find(board().ids.actions, lambda w: getattr(w, "text", None) == text))


def choose(field, option):
    return lambda: counted(controller.popup.fields[field].buttons[option])


def tile_genre(genre):
    return lambda: counted(controller.popup.fields["tile"].buttons[genre])


def ok():
    counted(
        find(
            controller.popup,
            lambda w: getattr(w, "text", None) == controller.popup.ok_text and hasattr(w, "on_release"),
        )
    )


def wait_for_dialog(title_part):
    def step():
        if controller.popup is None or title_part not in controller.popup.title:
            raise harness.Retry(f"a dialog titled ...{title_part}...")

    return step


def snapshot(label):
    def step():
        state = controller.table.state
        result["steps"].append(
            {
                "label": label,
                "taps": taps["count"],
                "status": controller.status,
                "message": controller.message,
                "refused": controller.message_refused,
                "shown": board().shown,
                "popup": controller.popup.title if controller.popup is not None else None,
                "tile": list(controller.popup.fields["tile"].value)
                if controller.popup is not None and "tile" in getattr(controller.popup, "fields", {})
                else None,
                "phase": state.phase,
                "grids": {n.name: list(n.grid.squares) if n.grid else None for n in state.networks},
                "cards": {n.name: len(n.pilot_cards) for n in state.networks},
            }
        )

    return step


def new_game(catalogue: bool):
    def step():
        taps["count"] = 0
        options = {"tiles": read_tile_catalogue(CATALOGUE)} if catalogue else {}
        players = tuple(PlayerSeat(name, colour) for name, colour in PLAYERS)
        controller.post(NewGame(game="telly-time", players=players, options=options, source="touch"))

    return step


def total(name):
    def step():
        result["totals"][name] = taps["count"]

    return step


def set_up(game: str, catalogue: bool):
    steps = [new_game(catalogue), snapshot(f"{game} started")]
    for player, _ in PLAYERS:
        genre, slot = PILOTS[player]
        steps += [
            snapshot(f"{game} {player} prompted"),
            action("Pilot show"),
            choose("genre", genre),
            choose("slot", slot),
            ok,
            snapshot(f"{game} {player} pilot"),
        ]
        if not catalogue:
            steps += [wait_for_dialog("tile: tap the genre"), snapshot(f"{game} {player} tile screen")]
            if player == "Arkady":
                steps.append(lambda: shot("tts-1-tile-screen"))
            for i, genre_tapped in enumerate(TILE_TAPS[player]):
                steps.append(tile_genre(genre_tapped))
                if player == "Arkady" and i == 2:
                    steps += [snapshot(f"{game} {player} tile part"), lambda: shot("tts-2-tile-part")]
            steps += [snapshot(f"{game} {player} tile filled"), ok, snapshot(f"{game} {player} tile")]
        steps += [action("Keep 2 cards"), ok, snapshot(f"{game} {player} set up")]
    steps += [
        lambda: shot(f"tts-3-{game}-ready"),
        action("Start season 1"),
        snapshot(f"{game} season 1"),
        total(game),
    ]
    return steps


driver.run(set_up("catalogue", True) + set_up("by hand", False))
