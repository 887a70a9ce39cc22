"""A TV Wars line-up built from NFC-tagged tiles placed on a reader's slots (TV Wars 6, 6.1, 6.2), through a
real tile registry in a SQLite file; the rulebook example's NBS card gives the same war."""

from dataclasses import replace
from pathlib import Path

import pytest

from companion.errors import IllegalCommand, MalformedCommand
from companion.games.tv_wars.lineup_file import load_lineup_file
from companion.games.tv_wars.ratings_war import resolve_war
from companion.games.tv_wars.tiles import lineup_from_slots
from companion.tiles import TileRegistry

EXAMPLE = Path(__file__).parent / "data" / "ratings-war-example.toml"


@pytest.fixture
def registry(tmp_path):
    with TileRegistry(tmp_path / "journal.sqlite3") as registry:
        registry.learn("04A1B2C3", "program", {"name": "SILVER GIRLS", "length": 1, "colour": "green", "rating": 30})
        registry.learn("04A1B2C4", "program", {"name": "TENDER HIDE", "length": 2, "colour": "red", "rating": 30})
        registry.learn("04A1B2C5", "program", {"name": "SPECIAL", "length": 3, "colour": "blue", "special": True})
        registry.learn("04B0B0B1", "bonus", {"bonus": "viewers_views", "value": 21})
        registry.learn("04B0B0B2", "bonus", {"bonus": "star", "value": 30, "name": "Flirt Reynolds"})
        registry.learn("04B0B0B3", "bonus", {"bonus": "emmy", "value": 50})
        yield registry


NBS_CARD = {1: "04A1B2C3", 7: "04B0B0B1", 2: "04A1B2C4", 8: "04B0B0B2", 4: "04A1B2C5", 10: "04B0B0B3"}


def test_the_example_nbs_card_read_from_tags_resolves_the_same_war(registry):
    war, dice = load_lineup_file(EXAMPLE)
    from_tags = lineup_from_slots("NBS", NBS_CARD, registry.lookup)
    file_nbs = next(l for l in war.lineups if l.network == "NBS")
    assert from_tags == file_nbs
    tagged_war = replace(war, lineups=tuple(from_tags if l.network == "NBS" else l for l in war.lineups))
    assert resolve_war(tagged_war, dice) == resolve_war(war, dice)


def test_a_gap_in_the_program_column_is_refused_citing_6_1(registry):
    card = {1: "04A1B2C3", 4: "04A1B2C5"}  # 8:30 and 9:00 left empty
    with pytest.raises(IllegalCommand, match="8:30 empty") as caught:
        lineup_from_slots("NBS", card, registry.lookup)
    assert caught.value.rule == "TV Wars 6.1"


def test_an_overlap_is_refused_citing_6_1(registry):
    card = {2: "04A1B2C4", 3: "04A1B2C3"}  # TENDER HIDE runs 8:30-9:30; 9:00 is inside it
    with pytest.raises(IllegalCommand) as caught:
        lineup_from_slots("NBS", {1: "04A1B2C3", **card}, registry.lookup)
    assert caught.value.rule == "TV Wars 6.1" and "inside the program before it" in str(caught.value)


def test_a_bonus_beside_no_program_is_refused_citing_6_2(registry):
    with pytest.raises(IllegalCommand) as caught:
        lineup_from_slots("NBS", {1: "04A1B2C3", 9: "04B0B0B3"}, registry.lookup)
    assert caught.value.rule == "TV Wars 6.2"


def test_unknown_tags_and_wrong_slots_are_named(registry):
    with pytest.raises(MalformedCommand, match="not learned yet"):
        lineup_from_slots("NBS", {1: "04FFFFFF"}, registry.lookup)
    with pytest.raises(MalformedCommand, match="not a program"):
        lineup_from_slots("NBS", {1: "04B0B0B1"}, registry.lookup)
    with pytest.raises(MalformedCommand, match="not on the card"):
        lineup_from_slots("NBS", {13: "04A1B2C3"}, registry.lookup)
