"""What each player's OLED panel should show for the kiosk's open game, drawn by the project's own renderer.

Run with the installed companion's Python (/opt/tabletop-companion/venv/bin/python) as root. Reads the
journal read-only, replays the latest open game and draws each seat's panel the way the kiosk does: the
game's public view (its PlayerViews carry each panel's text), then hardware.panels.render_player_panel. Prints JSON:
{"game": id, "seats": [{"name":..., "rows": ["<32 hex digits: 128 pixels, left = most significant>", ...]}]}
"""

import json
import os
import sys
import tempfile

os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp())
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")

from companion.journal import Journal  # noqa: E402
from companion.session import GameSession  # noqa: E402
from hardware.panels import render_player_panel  # noqa: E402

path = sys.argv[1] if len(sys.argv) > 1 else "/var/lib/tabletop-companion/journal.sqlite3"
with Journal(path, read_only=True) as journal:
    game = journal.latest_open_game()
    if game is None:
        raise SystemExit("no open game in the journal")
    session = GameSession(game.id, journal.events(game.id))
state = session.state
players = list(session.rules.public_view(state).players)  # every game's view carries its panels' text
seats = []
for player in players:
    image = render_player_panel(player)
    rows = []
    for y in range(image.height):
        bits = 0
        for x in range(image.width):
            bits = bits << 1 | (1 if image.getpixel((x, y)) else 0)
        rows.append(f"{bits:032x}")
    seats.append({"name": player.name, "rows": rows})
json.dump({"game": game.id, "rules": session.rules.info.name, "seats": seats}, sys.stdout)
print()
