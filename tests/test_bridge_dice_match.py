"""Dice readings against the pending dice request: answer, hold unclaimed, or ask for confirmation."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.commands import AnswerDice
from companion.dice import DiceReaderPort, DiceRequest
from companion.errors import DiceError
from firmware_bridge.dice_match import Decision, DiceMatcher, RollTray

TWO_D6 = DiceRequest("NBS", 2, "Best Network News roll-off", "TV Wars 2.5")


@pytest.mark.parametrize(
    "request_, values, decision, words",
    [
        (TWO_D6, (3, 5), Decision.ANSWER, "NBS rolls 2d6: reader read 3 5"),
        (None, (3, 5), Decision.UNCLAIMED, "Unclaimed roll 3 5"),
        (TWO_D6, (3, 5, 6), Decision.CONFIRM, "saw 3 dice (3 5 6) but NBS rolls 2d6"),
        (TWO_D6, (4,), Decision.CONFIRM, "saw 1 die (4)"),
        (DiceRequest("ABS", 1, "x", sides=4), (5,), Decision.CONFIRM, "a d4 cannot show 5"),
        (DiceRequest("ABS", 1, "x", sides=4), (4,), Decision.ANSWER, "ABS rolls 1d4"),
    ],
)
def test_matching_cases(request_, values, decision, words):
    match = DiceMatcher().match(request_, values)
    assert match.decision is decision and words in match.reason
    assert match.values == values and match.request == request_
    if decision is Decision.ANSWER:
        assert match.command() == AnswerDice(roller=request_.roller, values=values, source="reader")
    else:
        with pytest.raises(DiceError):
            match.command()


@given(
    st.one_of(
        st.none(),
        st.builds(
            DiceRequest,
            st.sampled_from(["ABS", "CBA"]),
            st.integers(1, 4),
            st.just("why"),
            st.just(""),
            st.sampled_from([4, 6]),
        ),
    ),
    st.lists(st.integers(1, 6), min_size=1, max_size=10),
)
def test_a_reading_is_used_only_if_it_is_exactly_what_was_asked(request_, values):
    match = DiceMatcher().match(request_, values)
    if request_ is None:
        assert match.decision is Decision.UNCLAIMED
    elif match.decision is Decision.ANSWER:
        assert request_.check(request_.roller, values) == tuple(values)  # never cut down or padded
    else:
        assert match.decision is Decision.CONFIRM
        with pytest.raises(DiceError):
            request_.check(request_.roller, values)


def test_the_tray_answers_one_reading_per_poll_and_holds_the_rest():
    port, posted = DiceReaderPort(), []
    tray = RollTray(port, clock=lambda: 50.0)
    port.deliver((1, 2, 3))
    port.deliver((6, 6))
    port.deliver((2, 2))
    matches = tray.poll(TWO_D6, posted.append)
    assert [m.decision for m in matches] == [Decision.CONFIRM, Decision.ANSWER]
    assert posted == [AnswerDice(roller="NBS", values=(6, 6), source="reader")]
    assert [(r.values, r.needs_confirmation, r.received) for r in tray.held] == [((1, 2, 3), True, 50.0)]
    # the next request is not known yet to the tray's caller: with nothing pending the rest is unclaimed
    assert [m.decision for m in tray.poll(None, posted.append)] == [Decision.UNCLAIMED]
    assert [r.values for r in tray.held] == [(1, 2, 3), (2, 2)] and len(posted) == 1


def test_held_rolls_can_be_assigned_picked_from_or_discarded():
    port, posted = DiceReaderPort(), []
    tray = RollTray(port)
    port.deliver((1, 2, 3))
    port.deliver((4, 4))
    tray.poll(None, posted.append)
    three, two = tray.held
    with pytest.raises(DiceError, match="needs 2 dice"):
        tray.assign(three.id, TWO_D6)  # cannot be used as it is
    with pytest.raises(DiceError, match="not among the dice read"):
        tray.assign(three.id, TWO_D6, (1, 6))
    assert tray.assign(three.id, TWO_D6, (3, 1)) == AnswerDice(roller="NBS", values=(3, 1), source="reader")
    assert tray.discard(two.id).values == (4, 4)
    assert tray.held == ()
    with pytest.raises(DiceError, match="no held roll"):
        tray.discard(two.id)


def test_the_tray_keeps_a_bounded_number_of_rolls():
    port = DiceReaderPort()
    tray = RollTray(port, capacity=3)
    for face in range(1, 6):
        port.deliver((face,))
    tray.poll(None, lambda c: None)
    assert [r.values for r in tray.held] == [(3,), (4,), (5,)] and tray.dropped == 2
    assert len({r.id for r in tray.held}) == 3


def test_the_request_is_asked_for_only_when_a_reading_is_there():
    port, calls = DiceReaderPort(), []

    def pending():
        calls.append(1)
        return TWO_D6

    tray = RollTray(port)
    assert tray.poll(pending, lambda c: None) == [] and calls == []
    port.deliver((5, 5))
    assert [m.decision for m in tray.poll(pending, lambda c: None)] == [Decision.ANSWER] and calls == [1]
