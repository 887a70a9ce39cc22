"""The BG Stats export (issue 20 item 6, companion/export_bgstats.py): a finished game of each of the four games
written as a BG Stats play, checked against the fields of the format's documentation; an unfinished game refused;
``companion export GAME --format bgstats`` on a real journal file."""

from __future__ import annotations

import json
from datetime import datetime

import pytest
from conftest import run_companion, start_tv_wars
from table_helpers import accepted
from telly_time_helpers import started as telly_time_started
from test_channel_won_core import play_round
from test_channel_won_core import start as channel_won_start
from test_death_show_tv_core import _fight_setup, declare_all, dice
from test_telly_time_contract import play_to_the_end
from test_tv_wars_play import playing

from companion.commands import AnswerDice, EndGame, RollDice
from companion.errors import UnknownGame
from companion.export_bgstats import GameNotFinished, bgstats_play, export_bgstats
from companion.games import find_game
from companion.games.tv_wars import EnterTileValue, LandOn

# The BG Stats import format, as documented by the app's author: "Push plays to BG Stats from other apps or
# websites", https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/ ("<data> is
# an url-encoded json-string with this format: ..."). Every key of its example, written out here from the page
# (not imported from the module under test), with the JSON type the example gives it.
DOCUMENTED_PLAY = {
    "sourceName": str,  # "App name"
    "sourcePlayId": str,  # "2222427"
    "playDate": str,  # "2020-10-23 19:16:58"
    "durationMin": int,  # 36
    "board": str,  # ""
    "comments": str,  # "Such a close play!"
    "location": str,  # "Home"
    "game": dict,
    "players": list,
}
DOCUMENTED_GAME = {
    "bggId": int,  # 132531
    "highestWins": bool,  # true
    "name": str,  # "Roll for the Galaxy"
    "noPoints": bool,  # false
    "sourceGameId": str,  # "21df231"
}
DOCUMENTED_PLAYER = {
    "startPlayer": bool,  # true
    "name": str,  # "Eerko"
    "rank": int,  # 1
    "role": str,  # ""
    "score": (int, float),  # 47.3
    "sourcePlayerId": str,  # "23432"
    "winner": bool,  # true
}
# What a play without them would not be (the issue: players, winners, scores or final figures, start and
# duration, the game's name).
REQUIRED_PLAY = {"sourceName", "sourcePlayId", "playDate", "durationMin", "game", "players", "comments"}
REQUIRED_GAME = {"name", "highestWins", "noPoints", "sourceGameId"}
REQUIRED_PLAYER = {"name", "sourcePlayerId", "winner"}


def check_documented(play: dict) -> None:
    """Every key of ``play`` is a documented field of the right type; the required ones are there."""
    for fields, required, part, where in (
        (DOCUMENTED_PLAY, REQUIRED_PLAY, play, "play"),
        (DOCUMENTED_GAME, REQUIRED_GAME, play["game"], "game"),
        *((DOCUMENTED_PLAYER, REQUIRED_PLAYER, p, f"player {i}") for i, p in enumerate(play["players"])),
    ):
        assert set(part) <= set(fields), f"{where}: undocumented fields {set(part) - set(fields)}"
        assert required <= set(part), f"{where}: missing {required - set(part)}"
        for key, value in part.items():
            assert isinstance(value, fields[key]) and (fields[key] is bool or not isinstance(value, bool)), (
                where,
                key,
                value,
            )
    datetime.strptime(play["playDate"], "%Y-%m-%d %H:%M:%S")
    assert play["durationMin"] >= 0


def finish_tv_wars(table) -> None:
    """TV Wars 5.32: the last Critics' Choice drawn ends the game with the asset count (test_tv_wars_play)."""
    playing(table, 2)
    for _ in range(10):
        mover = table.state.turn
        accepted(table, LandOn(network=mover, space="critics_choice"))
        accepted(table, EnterTileValue(network=mover, value=-31))
    accepted(table, LandOn(network=table.state.turn, space="critics_choice"))
    accepted(table, AnswerDice(roller="ABS", values=(3, 4)))
    accepted(table, AnswerDice(roller="CBA", values=(1, 1)))


def finish_death_show_tv(table) -> None:
    """Objective of the Game: Jhon kills Kelpie in a two-Contestant show and is the last one standing."""
    _fight_setup(table, n=2, vitality=1)
    declare_all(table)
    dice(table, 5, 2)


def finish_channel_won(table) -> None:
    """Three rounds; Ava ends with 7 points, Ben with 6 (test_channel_won_contract)."""
    channel_won_start(table, 2)
    for plan in (
        {"Ava": [("Crime", 5)], "Ben": [("Sports", 1), ("Business", 1)]},
        {"Ava": [("Crime", 1)], "Ben": [("Sports", 1), ("Business", 1)]},
        {"Ava": [("Fluff", 1)], "Ben": [("Sports", 1), ("Business", 1)]},
    ):
        play_round(table, plan)


def finish_telly_time(table) -> None:
    """Five seasons and the end-game scoring: Arkady wins on viewers (test_telly_time_contract)."""
    telly_time_started(table)
    play_to_the_end(table)


FINISH = {
    "tv-wars": finish_tv_wars,
    "death-show-tv": finish_death_show_tv,
    "channel-won": finish_channel_won,
    "telly-time": finish_telly_time,
}


@pytest.mark.parametrize("game", sorted(FINISH))
def test_a_finished_game_is_a_documented_bg_stats_play(table, game):
    FINISH[game](table)
    game_id = table.session.game_id
    rules = find_game(game)
    outcome = rules.outcome(table.state)
    assert outcome is not None, f"the {game} script did not finish the game"
    play = json.loads(export_bgstats(table.journal, game_id))
    check_documented(play)
    assert play == bgstats_play(table.journal, game_id)
    info = rules.info
    assert play["game"]["name"] == info.title and play["game"]["sourceGameId"] == game
    assert play["game"].get("bggId") == info.bgg_id
    seats = list(outcome.figures)
    assert [p["name"] for p in play["players"]] == seats
    assert [p["name"] for p in play["players"] if p["winner"]] == list(outcome.winners) and outcome.winners
    if info.score:
        assert not play["game"]["noPoints"]
        scores = outcome.scores or {s: outcome.figures[s][info.score] for s in seats}
        assert [p["score"] for p in play["players"]] == [scores[s] for s in seats]
    else:
        assert play["game"]["noPoints"] and all("score" not in p for p in play["players"])
    ranked = {p["name"]: p["rank"] for p in play["players"] if "rank" in p}
    assert sorted(ranked, key=ranked.get) == list(outcome.ranking)
    assert all(ranked[w] == 1 for w in outcome.winners if w in ranked)
    assert play["comments"].startswith(outcome.reason)
    for seat in seats:  # the final figures of every seat, in words
        assert all(f"{column} {value}" in play["comments"] for column, value in outcome.figures[seat].items())
    records = table.journal.events(game_id)
    start = records[0].time
    assert play["playDate"] == datetime.fromtimestamp(start).strftime("%Y-%m-%d %H:%M:%S")
    last_move = table.session.moves[table.session.line[-1]][0].time
    assert play["durationMin"] == round((last_move - start) / 60)


def test_tv_wars_scores_are_the_asset_count_not_the_cash(table):
    """TV Wars 8, 5.32: the winner has the most cash plus programs; the play's scores are those totals."""
    finish_tv_wars(table)
    play = bgstats_play(table.journal, table.session.game_id)
    scores = {p["name"]: p["score"] for p in play["players"]}
    assert scores["ABS"] > scores["CBA"] > 31_000 and scores == dict(find_game("tv-wars").outcome(table.state).scores)


def test_bgg_ids_where_found():
    assert find_game("tv-wars").info.bgg_id == 1031
    for game in ("death-show-tv", "channel-won", "telly-time"):
        assert find_game(game).info.bgg_id is None, game  # not found on BoardGameGeek: left out of the play


def test_a_game_ended_at_the_table_is_a_play_without_winners(table):
    start_tv_wars(table, 2, roll_off=False)
    accepted(table, EndGame(reason="time's up"))
    play = bgstats_play(table.journal, table.session.game_id)
    check_documented(play)
    assert not any(p["winner"] for p in play["players"]) and all("rank" not in p for p in play["players"])
    assert play["comments"].startswith("Ended at the table: time's up")


def test_the_default_end_reason_is_said_once(table):
    """An EndGame without a reason of its own said "ended at the table: ended at the table"."""
    start_tv_wars(table, 2, roll_off=False)
    accepted(table, EndGame())
    play = bgstats_play(table.journal, table.session.game_id)
    assert play["comments"].startswith("Ended at the table") and play["comments"].lower().count("at the table") == 1


def test_an_unfinished_game_is_refused_and_nothing_is_written(table, tmp_path):
    game_id = start_tv_wars(table, 3)
    accepted(table, RollDice(roller="ABS", source="button"))
    before = table.journal.events(game_id)
    with pytest.raises(GameNotFinished, match=r"is not finished: BG Stats logs finished plays only"):
        export_bgstats(table.journal, game_id)
    assert table.journal.events(game_id) == before
    with pytest.raises(UnknownGame):
        export_bgstats(table.journal, game_id + 41)


def test_nothing_secret_or_unknown_reaches_the_play(table):
    """Only documented fields (above) and only public facts: no options, colours, tile values or any other
    key a front-end keeps in the journal's game record (a pairing token, say)."""
    finish_tv_wars(table)
    game_id = table.session.game_id
    table.journal._db.execute(  # a front-end's secret kept beside the players (the web helper's tokens)
        "UPDATE games SET players = json_set(players, '$[0].token', 'pairing-secret-5f2c') WHERE id = ?", (game_id,)
    )
    text = export_bgstats(table.journal, game_id)
    assert "pairing-secret-5f2c" not in text and "token" not in text
    assert "-31" not in text  # the Critics' Choice values entered privately (TV Wars 9.1)
    assert "#e53935" not in text  # the seat colours
    check_documented(json.loads(text))


def test_the_cli_writes_the_play_and_refuses_an_unfinished_game(table, tmp_path):
    finish_death_show_tv(table)
    finished = table.session.game_id
    unfinished = start_tv_wars(table, 2)
    data_dir = str(table.journal.path.parent)
    out = tmp_path / "play.json"
    result = run_companion("export", str(finished), "--format", "bgstats", "-o", str(out), "--data-dir", data_dir)
    assert result.returncode == 0, result.stderr
    assert f"Wrote game #{finished} as a BG Stats play to {out}" in result.stderr
    play = json.loads(out.read_text(encoding="utf-8"))
    check_documented(play)
    assert [p["name"] for p in play["players"] if p["winner"]] == ["Jhon"]
    result = run_companion("games", "export", str(unfinished), "--format", "bgstats", "--data-dir", data_dir)
    assert result.returncode == 1 and result.stdout == ""
    assert f"game #{unfinished} (TV Wars) is not finished" in result.stderr
