"""Channel WON played to its end by random LEGAL play (hypothesis, or a seed: :mod:`draws`): each step takes one
of the enabled ``legal_commands`` of the player whose turn it is (or the Early Bird of the player who just acted),
filling a Source's printed value with a draw, through a real Table on a real SQLite journal.

After every step the rulebook's invariants hold (rules/channel-won.txt):

* Components: every card is somewhere: 6 Sources per category in play, 12 Locations, 24 Inside Scoops, each
  in a deck, a face-up row (five at most, Setup), a discard pile, a hand or on a Lead;
* Phase 1: hands hold 0 to SEVEN cards; Phase 2 begins when every hand holds seven; a hand's kinds add up;
* Setup / Locations: three Reporter Tiles each, one Location per Lead, no Source before its Location;
* End of Round: scores never below zero; a Lead's value is the sum of its breakdown;
* Network Ratings: stars only fall when a round is scored, one per Lead unreported, the ones the warning
  counted just before; below one star the game ends (Channel None), else after three rounds (Ending the Game).

Every enabled complete legal command is accepted by ``decide``; a sample of the disabled ones is refused.
At the end the journal file is reopened and replays to the live state.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from draws import HypothesisDraws, journaled_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.commands import NewGame, PlayerSeat
from companion.errors import IllegalCommand
from companion.games.channel_won import CHANNEL_WON, PlaySource
from companion.games.channel_won.cards import BONUS_VALUES, SOURCE_VALUES
from companion.games.channel_won.state import (
    HAND_LIMIT,
    INSIDE_SCOOP_CARDS,
    LOCATION_CARDS,
    ROUNDS,
    ROW,
    SECURITY_FOOTAGE,
    SOURCES_PER_CATEGORY,
    STARS,
    TILES,
)

RULES = CHANNEL_WON
NAMES = RULES.info.default_names


def check_invariants(state) -> None:
    piles = state.piles
    hands = {r.name: r for r in state.reporters}
    assert all(0 <= r.hand <= HAND_LIMIT for r in state.reporters), "Phase 1: the hand limit of SEVEN"
    for r in state.reporters:
        assert min(r.locations, r.sources, r.scoops) >= 0 and r.unknown == 0, r  # every kind said
        assert 0 <= state.tiles_left(r.name) <= TILES, r.name
        assert r.score >= 0, "End of Round: a player may never fall below zero points"
    if state.phase == 2:
        assert not state.finished or state.turn is None
    assert 0 <= state.stars <= STARS and 1 <= state.round <= ROUNDS and state.phase in (1, 2)
    assert 0 <= piles.source_row <= ROW and 0 <= piles.location_row <= ROW, piles
    assert min(vars(piles).values()) >= 0, piles
    on_leads_sources = sum(play.kind in ("source", "bonus") for lead in state.lineup for play in lead.plays)
    on_leads_locations = sum(lead.location not in (None, SECURITY_FOOTAGE) for lead in state.lineup)
    sources = piles.source_deck + piles.source_row + piles.source_discard + sum(r.sources for r in hands.values())
    assert sources + on_leads_sources == SOURCES_PER_CATEGORY * len(state.categories), "Components: Sources"
    locations = piles.location_deck + piles.location_row + piles.location_discard
    assert locations + sum(r.locations for r in hands.values()) + on_leads_locations == LOCATION_CARDS
    scoops = piles.scoop_deck + piles.scoop_discard + sum(r.scoops for r in hands.values())
    assert scoops == INSIDE_SCOOP_CARDS, "Components: 24 Inside Scoop Cards"
    for lead in state.lineup:
        assert len(set(lead.contributors)) == len(lead.contributors)
        assert lead.value == sum(points for _, points in lead.breakdown())
        if lead.sourced:
            assert lead.location is not None, "Sources: no Source before the Location"
        if lead.location is not None:
            assert lead.contributors, "Locations: the player places a Reporter Tile"
    if not state.finished and state.phase == 2:
        assert state.turn is not None and not state.reporter(state.turn).done
    if not state.finished and state.phase == 1:
        assert state.reporter(state.turn).hand < HAND_LIMIT


def complete(data, state, move, player):
    """The complete command for ``move`` of ``player``: a Source's printed value drawn within the rule's range,
    now and then played with Library Archives when the rules accept that."""
    if move.command is not None:
        return move.command
    bonus = move.category != move.lead
    values = BONUS_VALUES if bonus else SOURCE_VALUES
    value = data.choice(list(values), "printed value")
    command = PlaySource(player=player, lead=move.lead, value=value, category=move.category if bonus else "")
    if data.integer(0, 4, "library archives") == 0:
        archives = PlaySource(player=player, lead=move.lead, value=value, category=command.category, from_archives=True)
        try:
            RULES.decide(state, archives)
        except IllegalCommand:
            return command
        return archives
    return command


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_legal_games_keep_the_rules_invariants_and_replay(data):
    with tempfile.TemporaryDirectory() as folder:
        play(HypothesisDraws(data), Path(folder) / "journal.sqlite3")


def play(data, path: Path) -> int:
    """A random legal game to its end, chosen by ``data`` (:mod:`draws`), journaled at ``path``, its invariants
    checked at every step and its replay at the end; returns the game's id in the journal."""
    return journaled_game(path, lambda table: _play(data, table)[0])


def _play(data, table):
    """One game on ``table`` to its end: (its game id, the final state)."""
    players = data.integer(2, 6, "players")
    names = NAMES[:players]
    options = {
        "first_player": data.choice(names, "first player"),
        "score_open_leads": data.boolean("score open leads"),
        "next_round_order": data.choice(["clockwise", "fewest_points"], "order"),
    }
    if data.boolean("Trey DeMark"):
        options["characters"] = {data.choice(names, "Trey"): "Trey DeMark"}
    outcome = table.execute(NewGame(game="channel-won", players=tuple(PlayerSeat(n) for n in names), options=options))
    assert outcome.accepted, outcome.message
    game_id = outcome.records[0].game_id
    check_invariants(table.state)
    steps = 0
    while not table.state.finished:
        state = table.state
        offered = [(m, state.turn) for m in RULES.legal_commands(state, state.turn)]
        if state.last_actor and state.last_actor != state.turn:
            offered += [
                (m, state.last_actor) for m in RULES.legal_commands(state, state.last_actor) if m.action == "early_bird"
            ]
        enabled = [(m, p) for m, p in offered if m.enabled]
        assert enabled, f"nothing legal for {state.turn} in {state}"
        for move, _ in enabled:  # an enabled complete command is accepted
            if move.command is not None:
                RULES.decide(state, move.command)
        other = data.choice(names, "another seat")
        disabled = [m for m in RULES.legal_commands(state, other) if not m.enabled and m.command is not None]
        for move in disabled[:: max(1, len(disabled) // 3)]:  # a sample of the disabled ones is refused
            try:
                RULES.decide(state, move.command)
            except IllegalCommand:
                pass
            else:
                raise AssertionError(f"disabled {move.label} for {other} was accepted: {move.reason}")
        reporting = [  # moves toward a reported Lead, taken more often so that games reach round 3 too
            (m, p)
            for m, p in enabled
            if m.action == "location"
            or (m.action == "source" and m.category == m.lead)
            or (m.action == "close" and state.lead(m.lead).sourced)
        ]
        choices = reporting if reporting and data.integer(0, 3, "toward reporting") else enabled
        move, player = data.choice(choices, "move")
        command = complete(data, state, move, player)
        at_risk = [lead.category for lead in state.at_risk]
        before_round, before_stars = state.round, state.stars
        outcome = table.execute(command)
        assert outcome.accepted, f"{command!r} (offered enabled) was refused: {outcome.message}"
        after = table.state
        dropped = [r.payload["lead"] for r in outcome.records if r.type == "rating_dropped"]
        scored = any(r.type == "lead_scored" for r in outcome.records)
        if scored:  # Network Ratings: the Leads the warning counted are the ones that cost a star
            assert dropped == at_risk
            assert after.stars == max(0, before_stars - len(at_risk))
        else:
            assert after.stars == before_stars and after.round == before_round
        check_invariants(after)
        steps += 1
        assert steps < 400, "the game did not end"
    state = table.state
    data.statistic(f"ended in round {state.round}: {state.result}")
    if state.result == "channel_none":
        assert state.stars < 1 and state.winners == ()
    else:
        assert state.result in ("won", "co_anchors") and state.round == ROUNDS
        best = max(state.scores.values())
        assert all(state.reporter(name).score == best for name in state.winners) and state.winners
    return game_id, state
