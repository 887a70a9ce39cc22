"""companion.words and companion.checks: the shared wording and whole-number helpers of the engines."""

import pytest

from companion.checks import is_whole
from companion.words import and_join, article, count, join_parts, noun, verb, with_article


def test_count_and_noun_pluralise_all_but_one():
    assert [count(n, "card") for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]
    assert count(-1, "viewer") == "-1 viewers"
    assert count(2, "party", "parties") == "2 parties" and count(1, "party", "parties") == "1 party"
    assert noun(1, "square") == "square" and noun(3, "square") == "squares"


def test_verb_agrees_with_one_or_many():
    assert verb(1, "scores", "score") == "scores"
    assert verb(2, "is", "are") == "are" and verb(0, "has", "have") == "have"


def test_and_join_has_no_serial_comma_and_takes_another_conjunction():
    assert and_join(["Ava"]) == "Ava"
    assert and_join(("Ava", "Ben")) == "Ava and Ben"
    assert and_join(iter(["Ava", "Ben", "Cleo"])) == "Ava, Ben and Cleo"
    assert and_join(["Drama", "Quiz", "Chat"], "or") == "Drama, Quiz or Chat"
    with pytest.raises(IndexError):
        and_join([])


@pytest.mark.parametrize(
    "value, whole",
    [(0, True), (-3, True), (10**20, True), (True, False), (False, False), (2.0, False), ("2", False), (None, False)],
)
def test_is_whole_is_int_but_not_bool(value, whole):
    assert is_whole(value) is whole


def test_the_article_follows_the_sound_an_emmy_a_star():
    """#18: "a Emmy" read wrong at the table; the article now follows the word it stands before."""
    assert with_article("Emmy") == "an Emmy" and with_article("Star") == "a Star"
    assert [article(w) for w in ("Entertainment", "Action or Drama", "Critics' Choice", "Viewers' Views")] == [
        "an",
        "an",
        "a",
        "a",
    ]
    assert [article(n) for n in ("8", "11", "18", "80", "1", "110", "2", "11,000", "")] == [
        "an",
        "an",
        "an",
        "an",
        "a",
        "a",
        "a",
        "an",
        "a",
    ]


def test_join_parts_says_each_part_once():
    """#18: a move's line said the war's summary twice ("Ratings War over: 6 cancellations; CBA: Ratings War
    over: 6 cancellations (TV Wars 6)"); a part another part already says whole is left out."""
    summary = "Ratings War over: 6 cancellations"
    assert join_parts([summary, f"CBA: {summary} (TV Wars 6)", "ABS's turn"]) == (
        f"CBA: {summary} (TV Wars 6); ABS's turn"
    )
    assert join_parts(["ABS pays $500", "ABS pays $500", ""]) == "ABS pays $500; ABS pays $500"
    assert join_parts(["ABS pays $500", "CBA pays $500"]) == "ABS pays $500; CBA pays $500"
    assert join_parts([]) == "" and join_parts(["one"]) == "one"
