"""Every refusal cites its rule (issue 18 item 5): a rulebook's rule ("(TV Wars 9.5)", "(Phases of a Turn)" in
Death Show TV, "(Channel WON Passing)", "(Telly Time: Your Genre Grid)") or, for the companion's own rules,
"(table rule)". Checked three ways: random play of every game through a real table with many illegal commands
(the games' own random vocabularies, every seat button of every seat and of a seat that is not at the table,
history moves); the table's own refusals; and a scan of the installed engines' source for a rule violation
(:class:`IllegalCommand` and its kinds) raised without its rule.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
import random_games
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import companion
from companion.commands import AnswerDice, Redo, RollDice, Undo
from companion.errors import TABLE_RULE, CommandError
from companion.games import find_game

#: How each game's rulebook names its rules: a prefix of the citation, or for Death Show TV (whose rules are
#: cited by their section) the rulebook's section headings (rules/death-show-tv.txt).
PREFIXES = {
    "tv-wars": ("TV Wars ",),
    "channel-won": ("Channel WON ",),
    "telly-time": ("Telly Time", "The Networks"),
}
DEATH_SHOW_TV_SECTIONS = (
    "Components",
    "Objective of the Game",
    "Setup",
    "Location Cards",
    "Ability Cards",
    "Show Cards",
    "Generic Rules",
    "Types of Show Cards",
    "Running Out of Show Cards",
    "Starting the Game",
    "Phases of a Turn",
    "Combat Rules",
    "How Combat Is Resolved",
    "Fighting an Event",
    "Multiple Combat",
    "Death and Elimination",
    "When a Contestant Dies",
    "Killing a Contestant in Combat",
    "Killing a Contestant by Other Means",
    "The Island Shrinks",
    "Two-Player Games",
)


def cites_its_rule(game: str | None, error: BaseException) -> str:
    """``""`` when ``error`` is a refusal whose message ends with its rule, a rule of ``game``'s rulebook or the
    table rule; else what is wrong."""
    if not isinstance(error, CommandError):
        return f"not a refusal: {error!r}"
    rule, text = getattr(error, "rule", None), str(error)
    if not rule or not isinstance(rule, str):
        return f"cites no rule: {text!r}"
    if not text.endswith(f" ({rule})"):
        return f"does not end with its rule {rule!r}: {text!r}"
    if "internal error" in text:
        return f"an internal error: {text!r}"
    if rule == TABLE_RULE:
        return ""
    if game == "death-show-tv":
        ok = any(rule.startswith(section) for section in DEATH_SHOW_TV_SECTIONS) or rule.startswith("Death Show TV")
    else:
        ok = game is not None and rule.startswith(PREFIXES[game])
    return "" if ok else f"cites {rule!r}, not a rule of {game}'s rulebook nor the table rule: {text!r}"


def test_the_check_itself_tells_a_cited_refusal_from_one_without():
    from companion.errors import IllegalCommand, MalformedCommand

    assert cites_its_rule("tv-wars", IllegalCommand("only the moving network passes", "TV Wars 9.5")) == ""
    assert cites_its_rule("tv-wars", MalformedCommand("half-hours are a whole number")) == ""  # table rule
    assert "cites no rule" in cites_its_rule("tv-wars", IllegalCommand("no dice are asked for right now"))
    assert "not a rule of" in cites_its_rule("tv-wars", IllegalCommand("x", "Phases of a Turn"))
    assert cites_its_rule("death-show-tv", IllegalCommand("x", "Phases of a Turn 2: Move")) == ""


def _seat_buttons(table) -> list:
    """Every seat button of every seat, and of a seat that is not at the table, as the buttons send them."""
    rules = table.session.rules
    seats = [p.name for p in table.view().players] + ["Nobody"]
    return [
        rules.button_command(slot.action, seat, source)
        for seat in seats
        for slot in rules.info.buttons
        for source in ("button", "touch")
    ]


@pytest.mark.parametrize("game", random_games.GAMES)
@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(data=st.data(), moves=st.integers(0, 40))
def test_every_refusal_in_random_play_cites_its_rule(table_factory, game, data, moves):
    table = table_factory()
    random_games.start(game, table, data)
    problems: list[str] = []

    def check(command) -> None:
        before = table.state
        outcome = table.execute(command)
        if not outcome.accepted:
            assert table.state == before, "a refusal changed something"
            problem = cites_its_rule(game, outcome.refusal)
            if problem:
                problems.append(f"{type(command).__name__}: {problem}")

    for step in range(moves):
        if table.session is None or table.view() is None:
            break
        check(random_games.command(game, table, data, history=True))
        if step % 5 == 0 and table.session is not None:  # wrong seats, wrong phases: every seat button
            for command in _seat_buttons(table):
                check(command)
            check(AnswerDice(roller="Nobody", values=(1, 1)))
    assert not problems, "\n".join(sorted(set(problems)))


def test_the_tables_own_refusals_say_table_rule(table_factory):
    table = table_factory()
    for command in (Undo(), Redo(), RollDice(roller="ABS")):  # no game open
        outcome = table.execute(command)
        assert not outcome.accepted and cites_its_rule(None, outcome.refusal) == "", outcome.refusal


@pytest.mark.parametrize("game", random_games.GAMES)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_the_tables_refusals_in_a_game_cite_a_rule(table_factory, game, data):
    table = table_factory()
    random_games.start(game, table, data)
    seat = table.view().players[0].name
    rules = find_game(game)
    for command in (Undo(steps=99), Redo(), AnswerDice(roller="Nobody", values=(1,)), RollDice(roller="Nobody")):
        outcome = table.execute(command)
        if not outcome.accepted:
            assert cites_its_rule(game, outcome.refusal) == "", outcome.refusal
    request = rules.pending_dice(table.state)
    if request is None:  # no dice asked for: a roll is refused with its reason
        outcome = table.execute(RollDice(roller=seat))
        assert not outcome.accepted and cites_its_rule(game, outcome.refusal) == "", outcome.refusal


RULE_VIOLATIONS = {"IllegalCommand", "InsufficientFunds", "GameFinished"}


def test_no_rule_violation_in_the_installed_engines_is_raised_without_its_rule():
    """A scan of the installed package (not the checkout): every ``IllegalCommand`` (and kind) is built with its
    rule, so the random play above cannot miss a refusal it happened not to reach."""
    root = Path(companion.__file__).parent
    missing = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name in RULE_VIOLATIONS and len(node.args) < 2 and not any(k.arg == "rule" for k in node.keywords):
                missing.append(f"{path.relative_to(root.parent)}:{node.lineno}: {ast.unparse(node)[:100]}")
    assert not missing, "rule violations raised without their rule:\n" + "\n".join(missing)


def test_a_reason_that_ends_with_its_citation_is_not_cited_twice():
    from companion.errors import MalformedCommand

    error = MalformedCommand("must be true or false (TV Wars 2.3)")
    assert str(error) == "must be true or false (TV Wars 2.3)" and error.rule == "TV Wars 2.3"
    assert re.search(r"\(table rule\)$", str(MalformedCommand("a bad value")))
