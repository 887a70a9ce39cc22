"""Property tests for Channel WON (hypothesis): random games played through decide/evolve.

Invariants: scores never negative (End of Round: "A player may never fall below zero points"); stars only
fall at the end of a round, one per unreported Lead (Network Ratings); the game ends exactly when the
rating drops below one star or after the third round (Ending the Game); a refused command raises and
changes nothing; a Lead's value is the sum of its breakdown; evolve is deterministic (replaying the events
gives the same state, which is what undo relies on).
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.commands import PlayerSeat
from companion.errors import CommandError
from companion.games.channel_won import (
    CHANNEL_WON,
    CloseLead,
    CollectCard,
    DeclareDone,
    Pass,
    PlayLocation,
    PlayScoop,
    PlaySource,
    UseAbility,
)
from companion.games.channel_won.cards import CATEGORIES

RULES = CHANNEL_WON


def candidates(state, rng: random.Random):
    """Commands worth trying in ``state`` (legal or not): the table's whole vocabulary, random values."""
    turn = state.turn
    names = state.names
    someone = rng.choice(names)
    cats = list(state.categories) + ["Weather"]
    lead = rng.choice(cats)
    out = [CollectCard(player=turn or someone), CollectCard(player=someone), UseAbility(player=someone)]
    for player in (turn, someone):
        if player is None:
            continue
        out += [
            PlayLocation(player=player, lead=lead),
            CloseLead(player=player, lead=lead),
            Pass(player=player),
            PlaySource(player=player, lead=lead, value=rng.randint(-1, 5)),
            PlaySource(
                player=player,
                lead=lead,
                category=rng.choice(CATEGORIES),
                value=rng.randint(-4, 4),
                from_archives=rng.random() < 0.3,
            ),
            PlayScoop(
                player=player,
                scoop=rng.choice(
                    ["discredit", "final_touch", "star_witness", "security_footage", "early_bird", "rumour"]
                ),
                lead=lead,
            ),
        ]
        if rng.random() < 0.12:
            out.append(DeclareDone(player=player))
    rng.shuffle(out)
    return out


def constructive(state):
    """The move a cooperative player would make: report the next Lead, else be done."""
    turn = state.turn
    if state.phase == 1:
        return [CollectCard(player=turn)]
    for lead in state.lineup:
        if lead.location is None:
            return [PlayLocation(player=turn, lead=lead.category)]
        if not lead.closed and not lead.sourced:
            return [PlaySource(player=turn, lead=lead.category, value=2)]
        if not lead.closed:
            return [CloseLead(player=turn, lead=lead.category)]
    return [DeclareDone(player=turn)]


def play(seed: int, players: int, steps: int, cooperation: float = 0.0, **options):
    """Play ``steps`` attempts from a new game; yield ``(before, command, events or None, after)``.
    With probability ``cooperation`` a step first tries the :func:`constructive` move."""
    rng = random.Random(seed)
    seats = [PlayerSeat(name) for name in RULES.info.default_names[:players]]
    state = RULES.new_game(seats, options)
    for _ in range(steps):
        if state.finished:
            return
        tries = candidates(state, rng)
        if rng.random() < cooperation:
            tries = constructive(state) + tries
        for command in tries:
            try:
                events = RULES.decide(state, command)
            except CommandError:
                yield state, command, None, state
                continue
            after = state
            for event in events:
                after = RULES.evolve(after, RULES.events.decode(event.type, event.payload))
            yield state, command, events, after
            state = after
            break


settings_ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@settings_
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 6),
    open_leads=st.booleans(),
    cooperation=st.sampled_from([0.0, 0.6, 0.9]),
)
def test_invariants_over_random_games(seed, players, open_leads, cooperation):
    for before, command, events, after in play(seed, players, 600, cooperation, score_open_leads=open_leads):
        if events is None:
            assert after is before
            continue
        types = [e.type for e in events]
        # scores never negative
        assert all(r.score >= 0 for r in after.reporters)
        # stars only fall, and only at the end of a round: one per unreported Lead, with that round's scoring
        if after.stars != before.stars:
            assert "lead_scored" in types and before.phase == 2
            assert before.stars - after.stars == min(before.stars, types.count("rating_dropped"))
            unreported = [lead.category for lead in before.lineup if not lead.reported]
            assert [e.payload["lead"] for e in events if e.type == "rating_dropped"] == unreported
        assert 0 <= after.stars <= before.stars
        # the game ends exactly when the rating drops below one star, or after round 3 is scored
        if after.finished and not before.finished:
            over = events[-1].payload
            assert (after.stars < 1) == (over["result"] == "channel_none")
            assert after.stars < 1 or before.round == 3
        if "lead_scored" in types and after.stars < 1:
            assert after.finished and after.result == "channel_none" and after.winners == ()
        if not after.finished:
            assert after.stars >= 1
        # a Lead's value is its breakdown's sum; tiles never go below zero or above three
        for lead in after.lineup:
            assert lead.value == sum(points for _, points in lead.breakdown())
        for reporter in after.reporters:
            assert 0 <= after.tiles_left(reporter.name) <= 3
            assert 0 <= reporter.hand <= 7


@settings_
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6))
def test_evolve_is_deterministic_replay_gives_the_same_state(seed, players):
    seats = [PlayerSeat(name) for name in RULES.info.default_names[:players]]
    log = []
    last = None
    for _, _, events, after in play(seed, players, 250):
        if events:
            log += events
            last = after
    if last is None:
        return
    state = RULES.new_game(seats, {})
    for event in log:
        state = RULES.evolve(state, RULES.events.decode(event.type, dict(event.payload)))
    assert state == last
    for event in log:
        assert RULES.describe(event)


def test_random_games_reach_both_endings():
    """The generator is not toothless: over a fixed set of seeds it reaches a won game and Channel None."""
    results = set()
    for seed in range(40):
        for _, _, _, after in play(seed, 2 + seed % 5, 800, cooperation=0.9 if seed % 2 else 0.2):
            pass
        results.add(after.result)
    assert "channel_none" in results
    assert results & {"won", "co_anchors"}
