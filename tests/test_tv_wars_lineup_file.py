"""The Ratings War calculator's line-up file (``companion.games.tv_wars.lineup_file``): every mistake a player
can make in the file is refused with the file, the exact key (``network[1].program[2].minutes``) and the problem
in words, citing the rule where one applies (3, 3.3, 5.1-5.3, 6.2, 6.5, 9.8, 9.91), and what it accepts reads as
the rulebook's tiles (3: ratings in tens, 3.2: the Academy Award Movie's 100 RP and 4 half-hours)."""

from __future__ import annotations

import pytest

from companion.errors import CommandError, IllegalCommand, MalformedCommand
from companion.games.tv_wars.lineup_file import LineUpFileError, load_lineup_file, parse_lineup_text, parse_lineups
from companion.games.tv_wars.ratings_war import Bonus, HouseRules, LineUp, Placement, Program, War

SOURCE = "war.toml"
TOP_KEYS = "dice, february_sweeps, house_rules, network"
NETWORK_KEYS = "best_network_news, held, held_bonuses, name, preemption, program, promotion"
HELD_KEYS = "colour, length, minutes, movie, name, rating, special, super_bowl, type"
DICE = "must be two dice, each 1 to 6, such as [3, 4], not "
LENGTH = "give its length in half-hours (length = 1..4) or minutes, not both"
SUPER_BOWL = "the Super Bowl needs no length, colour or rating (8:00-9:00, TV Wars 9.8) (table rule)"
BONUS_KIND = "a bonus tile is exactly one of star, emmy, critics_choice, viewers_views = value"
PREEMPTED = "the preempted hour starts at one of 8:00, 8:30, 9:00, 9:30, 10:00, not "


def lineups() -> dict:
    """Two networks (ABS: an Other of 80 over 2 hours, a Drama of 40 in minutes; CBA: a Drama of 50 and an
    Academy Award Movie), as TOML would give them."""
    return {
        "network": [
            {
                "name": "ABS",
                "program": [
                    {"length": 4, "colour": "yellow", "rating": 80},
                    {"minutes": 60, "type": "Drama", "rating": 40},
                ],
            },
            {
                "name": "CBA",
                "program": [
                    {"length": 2, "colour": "blue", "rating": 50},
                    {"length": 4, "colour": "red", "movie": True},
                ],
            },
        ]
    }


def abs_(data):
    return data["network"][0]


def first(data):
    return abs_(data)["program"][0]


#: (what is wrong, the change to the good file, the key named, the problem said)
MISTAKES = [
    ("an unknown top key", lambda d: d.update(sweeps=True), "sweeps", f"unknown key; known keys: {TOP_KEYS}"),
    ("no networks", lambda d: d.update(network=[]), "network", "give each network as a [[network]] table"),
    (
        "network not a list",
        lambda d: d.update(network={"name": "ABS"}),
        "network",
        "give each network as a [[network]] table",
    ),
    ("house_rules not a table", lambda d: d.update(house_rules=5), "house_rules", "must be a table, not 5"),
    (
        "an unknown house rule",
        lambda d: d.update(house_rules={"four": -20}),
        "house_rules.four",
        "unknown key; known keys: counter_programming_four",
    ),
    (
        "a house rule's value",
        lambda d: d.update(house_rules={"counter_programming_four": -25}),
        "house_rules",
        "counter_programming_four: must be -30 or -20 (TV Wars 6.5, see docs/rulings.md), not -25 (table rule)",
    ),
    (
        "february_sweeps as text",
        lambda d: d.update(february_sweeps="yes"),
        "february_sweeps",
        "must be true or false, not 'yes'",
    ),
    ("a network not a table", lambda d: d["network"].__setitem__(1, "CBA"), "network[2]", "must be a table, not 'CBA'"),
    (
        "an unknown network key",
        lambda d: abs_(d).update(colour="red"),
        "network[1].colour",
        f"unknown key; known keys: {NETWORK_KEYS}",
    ),
    ("no name", lambda d: abs_(d).pop("name"), "network[1].name", "every network needs a name"),
    ("a blank name", lambda d: abs_(d).update(name="  "), "network[1].name", "every network needs a name"),
    ("a name not text", lambda d: abs_(d).update(name=7), "network[1].name", "every network needs a name"),
    (
        "promotion as a number",
        lambda d: abs_(d).update(promotion=1),
        "network[1].promotion",
        "must be true or false, not 1",
    ),
    (
        "best_network_news as text",
        lambda d: d["network"][1].update(best_network_news="true"),
        "network[2].best_network_news",
        "must be true or false, not 'true'",
    ),
    (
        "program not a list",
        lambda d: abs_(d).update(program={"length": 1}),
        "network[1].program",
        "must be a list of tables, not {'length': 1}",
    ),
    ("held not a list", lambda d: abs_(d).update(held=3), "network[1].held", "must be a list of tables, not 3"),
    (
        "held_bonuses not a list",
        lambda d: abs_(d).update(held_bonuses={"star": 10}),
        "network[1].held_bonuses",
        "must be a list of tables, not {'star': 10}",
    ),
    (
        "the Preemption at 10:30 (9.91)",
        lambda d: abs_(d).update(preemption="10:30"),
        "network[1].preemption",
        f"{PREEMPTED}'10:30' (TV Wars 9.91)",
    ),
    (
        "the Preemption at 11:00",
        lambda d: abs_(d).update(preemption="11:00"),
        "network[1].preemption",
        f"{PREEMPTED}'11:00' (TV Wars 9.91)",
    ),
    (
        "the Preemption as a number",
        lambda d: abs_(d).update(preemption=9),
        "network[1].preemption",
        f"{PREEMPTED}9 (TV Wars 9.91)",
    ),
    (
        "an unknown program key",
        lambda d: first(d).update(ratings=80),
        "network[1].program[1].ratings",
        f"unknown key; known keys: bonus, {HELD_KEYS}",
    ),
    (
        "a bonus on a held program",
        lambda d: abs_(d).update(held=[{"length": 1, "colour": "red", "rating": 20, "bonus": {"star": 10}}]),
        "network[1].held[1].bonus",
        f"unknown key; known keys: {HELD_KEYS}",
    ),
    ("length and minutes", lambda d: first(d).update(minutes=120), "network[1].program[1]", LENGTH),
    ("no length", lambda d: first(d).pop("length"), "network[1].program[1]", LENGTH),
    (
        "45 minutes",
        lambda d: abs_(d)["program"][1].update(minutes=45),
        "network[1].program[2].minutes",
        "must be 30, 60, 90 or 120, not 45",
    ),
    (
        "minutes = true",
        lambda d: abs_(d)["program"][1].update(minutes=True),
        "network[1].program[2].minutes",
        "must be 30, 60, 90 or 120, not True",
    ),
    (
        "a Special and a movie",
        lambda d: d["network"][1]["program"][1].update(special=True),
        "network[2].program[2]",
        "a program is only one of special, movie, super_bowl, not ['special', 'movie']",
    ),
    (
        "a movie and the Super Bowl",
        lambda d: d["network"][1]["program"][1].update(super_bowl=True),
        "network[2].program[2]",
        "a program is only one of special, movie, super_bowl, not ['movie', 'super_bowl']",
    ),
    (
        "special as text",
        lambda d: d["network"][1]["program"][1].update(special="no"),
        "network[2].program[2].special",
        "must be true or false, not 'no'",
    ),
    (
        "movie as a number",
        lambda d: first(d).update(movie=1),
        "network[1].program[1].movie",
        "must be true or false, not 1",
    ),
    (
        "a Super Bowl with a length",
        lambda d: abs_(d)["program"].insert(0, {"super_bowl": True, "length": 4}),
        "network[1].program[1]",
        SUPER_BOWL,
    ),
    (
        "a Super Bowl with a colour",
        lambda d: abs_(d)["program"].insert(0, {"super_bowl": True, "colour": "red"}),
        "network[1].program[1]",
        SUPER_BOWL,
    ),
    (
        "a Super Bowl with a rating",
        lambda d: abs_(d)["program"].insert(0, {"super_bowl": True, "rating": 10}),
        "network[1].program[1]",
        SUPER_BOWL,
    ),
    (
        "a Special with a rating (3.3)",
        lambda d: first(d).update(special=True),
        "network[1].program[1]",
        "a Special has no rating; its value is rolled (TV Wars 3.3)",
    ),
    (
        "no rating",
        lambda d: first(d).pop("rating"),
        "network[1].program[1]",
        "give a rating (10..90), or special/movie/super_bowl = true (table rule)",
    ),
    (
        "a rating of 85 (3)",
        lambda d: first(d).update(rating=85),
        "network[1].program[1]",
        "a program: a program's rating is 10 to 90 Rating Points in tens, not 85 (TV Wars 3)",
    ),
    (
        "colour and type",
        lambda d: first(d).update(type="Other"),
        "network[1].program[1]",
        "give colour or type, not both",
    ),
    (
        "a pink program",
        lambda d: first(d).update(colour="pink"),
        "network[1].program[1].colour",
        "must be one of green, red, blue, yellow, not 'pink'",
    ),
    (
        "a colour as a number",
        lambda d: first(d).update(colour=3),
        "network[1].program[1].colour",
        "must be one of green, red, blue, yellow, not 3",
    ),
    (
        "a type not in 3",
        lambda d: abs_(d)["program"][1].update(type="Soap"),
        "network[1].program[2].type",
        "must be one of Situation Comedy, Action/Adventure, Drama, Other, not 'Soap'",
    ),
    (
        "a type as a number",
        lambda d: abs_(d)["program"][1].update(type=2),
        "network[1].program[2].type",
        "must be one of Situation Comedy, Action/Adventure, Drama, Other, not 2",
    ),
    (
        "a movie of 90 minutes (3.2)",
        lambda d: d["network"][1]["program"][1].update(length=3),
        "network[2].program[2]",
        "a program: an Academy Award Movie is worth 100 Rating Points and lasts 120 minutes (4 half-hours) "
        "(TV Wars 3.2, 7)",
    ),
    (
        "no colour",
        lambda d: first(d).pop("colour"),
        "network[1].program[1]",
        "give its colour (green, red, blue, yellow) or type",
    ),
    (
        "an unknown bonus",
        lambda d: first(d).update(bonus={"oscar": 10}),
        "network[1].program[1].bonus.oscar",
        "unknown key; known keys: critics_choice, emmy, name, star, viewers_views",
    ),
    (
        "a bonus of two kinds",
        lambda d: first(d).update(bonus={"star": 10, "emmy": 50}),
        "network[1].program[1].bonus",
        BONUS_KIND,
    ),
    (
        "a bonus of no kind",
        lambda d: first(d).update(bonus={"name": "Flirt"}),
        "network[1].program[1].bonus",
        BONUS_KIND,
    ),
    (
        "a bonus not a table",
        lambda d: first(d).update(bonus=30),
        "network[1].program[1].bonus",
        "must be a table, not 30",
    ),
    (
        "a Star of 40 (5.1)",
        lambda d: first(d).update(bonus={"star": 40}),
        "network[1].program[1].bonus",
        "a Star tile is worth 10, 20 or 30 (TV Wars 5.1), not 40 (table rule)",
    ),
    (
        "a held Emmy of 40 (5.2)",
        lambda d: abs_(d).update(held_bonuses=[{"emmy": 40}]),
        "network[1].held_bonuses[1]",
        "an Emmy tile is worth 50 (TV Wars 5.2), not 40 (table rule)",
    ),
    (
        "a Critics' Choice of 37 (5.3)",
        lambda d: first(d).update(bonus=[{"critics_choice": 37}]),
        "network[1].program[1].bonus",
        "a Critics' Choice tile is worth -36 to +36 (TV Wars 5.3), not 37 (table rule)",
    ),
    (
        "a Viewers' Views of -29 (5.3)",
        lambda d: first(d).update(bonus={"viewers_views": -29}),
        "network[1].program[1].bonus",
        "a Viewers' Views tile is worth -28 to +29 (TV Wars 5.3), not -29 (table rule)",
    ),
    ("dice not a table", lambda d: d.update(dice=[3, 4]), "dice", 'must be a table of "key" = [die, die]'),
    ("one die", lambda d: d.update(dice={"CBA special 9:30": [3]}), "dice.CBA special 9:30", f"{DICE}[3]"),
    (
        "three dice",
        lambda d: d.update(dice={"CBA special 9:30": [3, 3, 3]}),
        "dice.CBA special 9:30",
        f"{DICE}[3, 3, 3]",
    ),
    ("a seven", lambda d: d.update(dice={"CBA special 9:30": [3, 7]}), "dice.CBA special 9:30", f"{DICE}[3, 7]"),
    ("a zero", lambda d: d.update(dice={"x": [0, 4]}), "dice.x", f"{DICE}[0, 4]"),
    ("a die as a float", lambda d: d.update(dice={"x": [3.0, 4]}), "dice.x", f"{DICE}[3.0, 4]"),
    ("dice as text", lambda d: d.update(dice={"x": "3,4"}), "dice.x", f"{DICE}'3,4'"),
]


@pytest.mark.parametrize(("change", "key", "problem"), [m[1:] for m in MISTAKES], ids=[m[0] for m in MISTAKES])
def test_each_mistake_names_the_file_the_key_and_the_problem(change, key, problem):
    data = lineups()
    change(data)
    with pytest.raises(LineUpFileError) as caught:
        parse_lineups(data, SOURCE)
    error = caught.value
    assert (error.file, error.key, error.problem) == (SOURCE, key, problem)
    cited = problem.endswith(")") and ("(TV Wars " in problem or problem.endswith("(table rule)"))
    assert str(error) == f"{SOURCE}: {key}: {problem}" + ("" if cited else " (table rule)")  # errors.py's citation
    assert isinstance(error, MalformedCommand) and isinstance(error, CommandError)


def test_6_2_two_bonus_tiles_on_one_program_is_a_rule_refusal_naming_the_program():
    data = lineups()
    first(data)["bonus"] = [{"star": 10}, {"emmy": 50}]
    with pytest.raises(IllegalCommand) as caught:
        parse_lineups(data, SOURCE)
    assert caught.value.rule == "TV Wars 6.2"
    assert str(caught.value) == (
        "network[1].program[1] carries 2 bonus tiles; only one may be used with a program (TV Wars 6.2)"
    )


def test_the_good_file_reads_as_the_rulebooks_tiles():
    """Minutes and types read as half-hours and colours (3); a movie is 100 RP over 4 half-hours unless given
    (3.2); a bonus given as a one-tile list or a table is the same tile; dice are tuples; no dice, no sweeps,
    the default Counter-Programming of four (6.5)."""
    data = lineups()
    first(data)["bonus"] = [{"star": 30, "name": "Flirt Reynolds"}]
    data["network"][1]["program"][0]["bonus"] = {"emmy": 50}
    data["dice"] = {"PBC tie 8:30 1": [5, 4]}
    war, dice = parse_lineups(data, SOURCE)
    assert war == War(
        (
            LineUp(
                "ABS",
                (
                    Placement(Program(4, "yellow", 80), Bonus("star", 30, "Flirt Reynolds")),
                    Placement(Program(2, "blue", 40), None),
                ),
            ),
            LineUp(
                "CBA",
                (
                    Placement(Program(2, "blue", 50), Bonus("emmy", 50)),
                    Placement(Program(4, "red", 100, academy_award_movie=True), None),
                ),
            ),
        ),
        False,
        HouseRules(),
    )
    assert dice == {"PBC tie 8:30 1": (5, 4)}
    assert war.house_rules.counter_programming_four == -30


def test_network_options_held_tiles_and_the_super_bowl_are_read():
    """best_network_news (6.3), promotion (6.6), the Preemption's hour (9.91: "9:30" is the fourth slot), held
    programs and bonuses (the 6.1 and 5.3 checks) and, with February Sweeps, the Super Bowl (9.8), named or not;
    an empty bonus list is no bonus."""
    data = lineups()
    data["february_sweeps"] = True
    data["house_rules"] = {"counter_programming_four": -20}
    net = abs_(data)
    net.update(best_network_news=True, promotion=True, preemption="9:30")
    net["held"] = [{"minutes": 30, "type": "Situation Comedy", "rating": 20}]
    net["held_bonuses"] = [{"critics_choice": -12}]
    net["program"] = [{"super_bowl": True}, {"length": 2, "colour": "green", "rating": 60, "bonus": []}]
    cba = data["network"][1]
    cba["program"] = [{"super_bowl": True, "name": "BIG GAME"}, {"length": 2, "colour": "red", "special": True}]
    war, _ = parse_lineups(data, SOURCE)
    abs_lineup, cba_lineup = war.lineups
    assert war.february_sweeps is True and war.house_rules == HouseRules(-20)
    assert (abs_lineup.best_network_news, abs_lineup.promotion, abs_lineup.preemption) == (True, True, 3)
    assert abs_lineup.held_programs == (Program(1, "green", 20),)
    assert abs_lineup.held_bonuses == (Bonus("critics_choice", -12),)
    assert abs_lineup.programs == (
        Placement(Program.super_bowl_tile(), None),
        Placement(Program(2, "green", 60), None),
    )
    assert cba_lineup.programs[0].program == Program(2, None, None, "BIG GAME", super_bowl=True)
    assert cba_lineup.programs[1].program == Program(2, "red", None, special=True)
    assert (cba_lineup.best_network_news, cba_lineup.promotion, cba_lineup.preemption) == (False, False, None)


def test_text_and_file_errors_name_the_source(tmp_path):
    with pytest.raises(LineUpFileError) as caught:
        parse_lineup_text("[[network]\n", "t.toml")
    assert caught.value.key == "" and str(caught.value).startswith("t.toml: not valid TOML: ")
    with pytest.raises(LineUpFileError) as caught:
        parse_lineup_text("x = 1\n")
    assert str(caught.value) == f"<line-ups>: x: unknown key; known keys: {TOP_KEYS} (table rule)"
    missing = tmp_path / "war.toml"
    with pytest.raises(LineUpFileError) as caught:
        load_lineup_file(missing)
    assert str(caught.value) == f"{missing}: cannot read it: No such file or directory (table rule)"
    missing.write_text('[[network]]\nname = "ABS"\n[[network.program]]\nlength = 1\ncolour = "red"\nrating = 10\n')
    war, dice = load_lineup_file(missing)
    assert war.lineups == (LineUp("ABS", (Placement(Program(1, "red", 10), None),)),) and dice == {}
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b'name = "ABS"\n\xff\xfe\x00')
    with pytest.raises(LineUpFileError) as caught:
        load_lineup_file(binary)
    assert str(caught.value) == f"{binary}: it is not UTF-8 text (byte 13) (table rule)"
