"""Telly Time set-ups in a few taps (issue 18 item 6): a tile catalogue file named by the config brings each
player's whole tile with the Pilot Season show; without one, the whole tile is entered as one move
(``EnterTile``); the status line always says who does what next."""

from __future__ import annotations

from pathlib import Path

import pytest
from table_helpers import accepted, event_count
from telly_time_helpers import PLAYERS, refused, seats

from companion.commands import NewGame, Undo
from companion.config import load_config
from companion.errors import BadOption, ConfigError, IllegalCommand, MalformedCommand
from companion.games.telly_time import (
    TELLY_TIME,
    ChoosePilotShow,
    EnterTile,
    KeepPilotCards,
    PilotCard,
    PlaceGridMarker,
    StartSeason,
)
from companion.games.telly_time.grid import read_tile_catalogue
from companion.session import GameSession

CATALOGUE = Path(__file__).parent / "data" / "telly_time_tiles.toml"
ARKADY = ("Kids", "Drama", "Quiz", "Crime", None, "Reality", "Sports", "Chat", "Sci-Fi")
ADS = (PilotCard("ad"), PilotCard("ad"))


def new_game(table, **options) -> None:
    accepted(table, NewGame(game="telly-time", players=seats(), options=options, source="test"))


def test_the_catalogue_file_holds_the_tiles_by_centre():
    tiles = read_tile_catalogue(CATALOGUE)
    assert list(tiles) == ["Comedy", "Reality", "Drama", "Crime", "Sports", "Sci-Fi"]
    assert tiles["Comedy"]["squares"][4] == "Comedy" and tiles["Comedy"]["bonuses"]["row1"]["cash_m"] == 3
    checked = TELLY_TIME.check_options({"tiles": tiles})["tiles"]
    assert checked["Reality"]["bonuses"]["diag2"] == {"label": "Wild bonus", "cash_m": 0, "viewers": 1}


def test_the_config_names_the_catalogue_and_the_pilot_show_brings_the_whole_tile(tmp_path, table):
    (tmp_path / "tiles.toml").write_text(CATALOGUE.read_text(encoding="utf-8"), encoding="utf-8")
    config_file = tmp_path / "companion.toml"
    config_file.write_text('[table]\ngame = "telly-time"\n[house_rules]\ntiles = "tiles.toml"\n', encoding="utf-8")
    config = load_config(config_file)
    (tmp_path / "tiles.toml").unlink()  # read once: the tiles travel in the game's options
    new_game(table, **config.house_rules)
    accepted(table, ChoosePilotShow(player="Arkady", genre="Comedy", timeslot="8pm"))
    grid = table.state.network("Arkady").grid
    assert grid.entered and grid.squares[0] == "Kids" and grid.bonus("row1").cash_m == 3
    replayed = GameSession(table.session.game_id, table.journal.events(table.session.game_id))
    assert replayed.state == table.state


@pytest.mark.parametrize(
    "text, problem",
    [
        ("[[tile]]\nsquares = ['Kids']\n", "tile 1 needs 'squares': 9 genre names row by row"),
        ("title = 'x'\n", "lists no [[tile]] tables"),
        ("[[tile\n", "not TOML"),
        (
            "[[tile]]\nsquares = " + repr(list(ARKADY[:4]) + ["Comedy"] + list(ARKADY[5:])) + "\n" + "[[tile]]\n"
            "squares = " + repr(list(ARKADY[:4]) + ["comedy"] + list(ARKADY[5:])) + "\n",
            "two tiles have comedy in the centre",
        ),
        ("[[tile]]\nsquares = " + repr(["Kids"] * 9) + "\n", "shows a genre twice"),  # the rules' own check
    ],
)
def test_a_broken_catalogue_is_a_config_error_naming_the_key(tmp_path, text, problem):
    (tmp_path / "tiles.toml").write_text(text, encoding="utf-8")
    config_file = tmp_path / "companion.toml"
    config_file.write_text('[table]\ngame = "telly-time"\n[house_rules]\ntiles = "tiles.toml"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="house_rules.tiles") as caught:
        load_config(config_file)
    assert problem in str(caught.value)


def test_a_missing_catalogue_file_is_named():
    with pytest.raises(BadOption, match=r"tile catalogue .*nowhere.toml: cannot read it"):
        read_tile_catalogue("/nowhere.toml")


def test_a_tile_entered_in_one_move_and_undone_in_one(table):
    new_game(table)
    accepted(table, ChoosePilotShow(player="Arkady", genre="Comedy", timeslot="8pm"))
    assert TELLY_TIME.status(table.state) == (
        "Pilot Season: Arkady enters the tile: tap a ? square (8 genres to enter); then Virginia"
    )
    before = event_count(table)
    outcome = accepted(table, EnterTile(player="Arkady", squares=ARKADY))
    assert event_count(table) == before + 8 and len({r.move for r in outcome.records}) == 1
    grid = table.state.network("Arkady").grid
    assert grid.entered and grid.squares == ARKADY[:4] + ("Comedy",) + ARKADY[5:]
    assert "Arkady's tile: the top-left square is Kids" in outcome.message
    assert TELLY_TIME.status(table.state) == "Pilot Season: Arkady keeps 2 cards (Keep 2 cards); then Virginia"
    accepted(table, Undo())
    assert table.state.network("Arkady").grid.squares == (None,) * 4 + ("Comedy",) + (None,) * 4


def test_none_keeps_a_square_and_a_genre_on_two_squares_is_refused(table):
    new_game(table)
    accepted(table, ChoosePilotShow(player="Arkady", genre="Comedy", timeslot="8pm"))
    accepted(table, EnterTile(player="Arkady", squares=("Kids",) + (None,) * 8))
    error = refused(table, EnterTile(player="Arkady", squares=(None, "Kids") + (None,) * 7), IllegalCommand)
    assert str(error) == (
        "Kids is on the top-left and top-middle squares; a tile shows each genre once (Telly Time: Your Genre Grid)"
    )
    accepted(table, EnterTile(player="Arkady", squares=("Drama", "Kids") + (None,) * 7))  # the two swap
    assert table.state.network("Arkady").grid.squares[:2] == ("Drama", "Kids")
    refused(table, EnterTile(player="Arkady", squares=("Drama", "Kids") + (None,) * 7), IllegalCommand)  # no change
    error = refused(table, EnterTile(player="Arkady", squares=(None,) * 4 + ("Drama",) + (None,) * 4), IllegalCommand)
    assert "the centre square is the Pilot Season genre (Comedy)" in str(error)
    refused(table, EnterTile(player="Arkady", squares=("Kids",) * 3), MalformedCommand)
    refused(table, EnterTile(player="Arkady", squares=("Soap",) + (None,) * 8), MalformedCommand)
    refused(table, EnterTile(player="Virginia", squares=ARKADY), IllegalCommand)  # no tile yet


def test_a_square_with_a_marker_keeps_its_genre(table):
    new_game(table)
    for player, genre in zip(PLAYERS, ("Comedy", "Reality")):
        accepted(table, ChoosePilotShow(player=player, genre=genre, timeslot="8pm"))
    accepted(table, EnterTile(player="Arkady", squares=ARKADY))
    virginia = ("Drama", "Sports", "Comedy", "Kids", None, "Quiz", "Chat", "Crime", "Sci-Fi")
    accepted(table, EnterTile(player="Virginia", squares=virginia))
    for player in PLAYERS:
        accepted(table, KeepPilotCards(player=player, cards=ADS))
    assert TELLY_TIME.status(table.state) == "The Pilot Season is set up: start season 1"
    accepted(table, StartSeason())
    accepted(table, PlaceGridMarker(player="Arkady", genre="Kids"))
    error = refused(table, EnterTile(player="Arkady", squares=("Drama", "Kids") + (None,) * 7), IllegalCommand)
    assert str(error) == "the top-left square (Kids) already has a marker cube (Telly Time: Your Genre Grid)"
