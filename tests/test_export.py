"""Export (JSON history, CSV ledger), import, and the ``companion`` CLI around them."""

from __future__ import annotations

import csv
import io
import json
import re
import sqlite3
from datetime import UTC, datetime

import pytest
from conftest import COMPANION, read_events, run_companion, start_tv_wars

from companion.commands import BANK, AnswerDice, EndGame, JumpTo, Redo, RollDice, TransferMoney, Undo
from companion.errors import JournalError, UnknownGame
from companion.export import (
    EXPORT_FORMAT,
    export_figures_csv,
    export_json,
    import_json,
    records_from_export,
)
from companion.games.tv_wars import TV_WARS, LandOnSponsor, PassOnTheAir
from companion.games.tv_wars.ledger import export_ledger_csv
from companion.journal import Journal
from companion.session import GameSession
from companion.table import replay


def play(table, finish: bool = False) -> int:
    """A game with dice, money, a sponsor correction, undos, redos and jumps; returns its id."""
    game_id = start_tv_wars(table, 3)
    ok = [
        table.execute(c)
        for c in (
            RollDice(roller="ABS", source="button"),
            AnswerDice(roller="CBA", values=(6, 6), source="manual"),
            AnswerDice(roller="PBC", values=(1, 2), source="reader"),
            PassOnTheAir(network="ABS", source="button"),
            LandOnSponsor(network="CBA", half_hours=14),
            TransferMoney(payer="ABS", payee="PBC", amount=2_500, reason="bid for a sitcom"),
            TransferMoney(payer="PBC", payee=BANK, amount=1_000, reason="movie studio"),
        )
    ]
    assert all(o.accepted for o in ok), [o.message for o in ok]
    moves = [o.records[0].move for o in ok]
    for command in (
        Undo(steps=2),
        Redo(),
        PassOnTheAir(network="PBC"),
        Undo(),
        JumpTo(seq=moves[3]),
        PassOnTheAir(network="CBA", source="keyboard"),
        Undo(),
        Redo(),
    ):
        outcome = table.execute(command)
        assert outcome.accepted, outcome.message
    if finish:
        assert table.execute(EndGame(reason="out of time")).accepted
    return game_id


def _history_texts(session: GameSession):
    return [(h.kind, h.text, h.in_force) for h in session.history()]


def test_export_json_round_trip_into_an_empty_journal(table, tmp_path):
    game_id = play(table)
    text = export_json(table.journal, game_id)
    document = json.loads(text)
    assert document["format"] == EXPORT_FORMAT and document["version"] == 1
    assert document["game"]["players"][0]["name"] == "ABS"
    assert [e["seq"] for e in document["events"]] == [r["seq"] for r in read_events(table.journal.path, game_id)]
    assert replay(records_from_export(text)).state == table.state

    with Journal(tmp_path / "other.sqlite3") as other:
        new_id = import_json(other, text)
        session = GameSession(new_id, other.events(new_id))
        assert session.state == table.state
        assert session.line == table.session.line
        assert _history_texts(session) == _history_texts(table.session)
        assert session.redo_preview() == table.session.redo_preview()
        assert other.game(new_id).status == "open"


def test_export_json_round_trip_renumbers_into_a_busy_journal(table, tmp_path):
    game_id = play(table, finish=True)
    text = export_json(table.journal, game_id)
    with Journal(tmp_path / "other.sqlite3") as other:
        for _ in range(2):  # other games first, so every seq shifts
            filler = other.create_game(
                "tv-wars", [{"name": "X", "colour": "white"}, {"name": "Y", "colour": "white"}], {}
            )
            other.append(filler.game_id, [])
        import_json(other, export_json(table.journal, game_id))  # and the same game twice
        new_id = import_json(other, text)
        assert new_id == 4
        original, imported = table.journal.events(game_id), other.events(new_id)
        assert [(e.type, e.time) for e in original] == [(e.type, e.time) for e in imported]
        renumber = {a.seq: b.seq for a, b in zip(original, imported)}
        assert all(b != a for a, b in renumber.items())
        session = GameSession(new_id, imported)
        assert session.state == table.state and session.state.finished
        assert session.line == [renumber[m] for m in table.session.line]
        assert session.redo_preview() == table.session.redo_preview()  # None: the game is finished

        def renumbered(entry_text: str) -> str:
            return re.sub(r"#(\d+)", lambda m: f"#{renumber[int(m.group(1))]}", entry_text)

        assert _history_texts(session) == [(k, renumbered(t), f) for k, t, f in _history_texts(table.session)]
        assert other.game(new_id).status == "finished"


def test_export_of_an_unknown_game(table):
    with pytest.raises(UnknownGame):
        export_json(table.journal, 42)


def test_figures_csv_has_one_row_per_move_in_force_with_every_seats_figures(table):
    game_id = play(table)
    session = table.session
    rows = list(csv.DictReader(io.StringIO(export_figures_csv(table.journal, game_id))))
    assert [int(r["move"]) for r in rows[1:]] == list(session.line) and rows[0]["what"] == "game started"
    columns = [f"{seat} {name}" for seat, figures in TV_WARS.figures(table.state).items() for name in figures]
    assert list(rows[0]) == ["move", "time", "what", *columns] and "ABS cash" in columns
    assert rows[0]["ABS cash"] == "31000" and rows[0]["CBA half_hours"] == "20"
    last = rows[-1]  # the figures after the last move in force are the game's figures now
    assert {c: last[c] for c in columns} == {
        f"{seat} {name}": str(value)
        for seat, figures in TV_WARS.figures(table.state).items()
        for name, value in figures.items()
    }
    assert [r["what"] for r in rows[1:]] == [session.describe_move(m) for m in session.line]


@pytest.mark.parametrize("game", ["death-show-tv", "channel-won", "telly-time"])
def test_figures_csv_works_for_every_game(tmp_path, game):
    from companion.commands import NewGame, PlayerSeat
    from companion.games import find_game
    from companion.table import Table

    table = Table(Journal(tmp_path / "journal.sqlite3"))
    table.claim()
    assert table.execute(NewGame(game=game, players=(PlayerSeat("Ava"), PlayerSeat("Ben")))).accepted
    rows = list(csv.DictReader(io.StringIO(export_figures_csv(table.journal, 1))))
    figures = find_game(game).figures(table.state)
    assert len(rows) == 1 and list(rows[0])[3:] == [f"{s} {n}" for s, f in figures.items() for n in f]
    table.journal.close()


def test_ledger_csv_matches_the_money_events(table):
    game_id = play(table)
    rows = list(csv.DictReader(io.StringIO(export_ledger_csv(table.journal, game_id))))
    events = [r for r in read_events(table.journal.path, game_id) if r["type"] == "money_moved"]
    assert len(rows) == len(events) >= 6
    in_force = set(table.session.line)
    assert {"yes", "no"} == {row["in_force"] for row in rows}
    for row, event in zip(rows, events):
        p = event["payload"]
        assert int(row["seq"]) == event["seq"]
        assert (row["payer"], row["payee"], int(row["amount_dollars"]), row["reason"], row["rule"]) == (
            p["payer"],
            p["payee"],
            p["amount"],
            p["reason"],
            p["rule"],
        )
        assert row["in_force"] == ("yes" if event["move"] in in_force else "no")
        assert datetime.fromisoformat(row["time"]) == datetime.fromtimestamp(int(event["time"]), UTC)
        assert row["time"].endswith("+00:00")  # UTC, whatever the machine's time zone (the columns say so)
    # the in-force rows are the ledger: they explain every balance
    balances = {"ABS": 31_000, "CBA": 31_000, "PBC": 31_000}
    for row in rows:
        if row["in_force"] == "yes":
            amount = int(row["amount_dollars"])
            if row["payer"] != BANK:
                balances[row["payer"]] -= amount
            if row["payee"] != BANK:
                balances[row["payee"]] += amount
    assert balances == table.state.balances


# -- malformed imports write nothing -----------------------------------------------------------------------


def _counts(path):
    connection = sqlite3.connect(str(path))
    try:
        return (
            connection.execute("SELECT COUNT(*) FROM games").fetchone()[0],
            connection.execute("SELECT COUNT(*) FROM events").fetchone()[0],
        )
    finally:
        connection.close()


def _mutations(text: str):
    good = json.loads(text)
    restores = [i for i, e in enumerate(good["events"]) if e["type"] == "history_restored"]
    jump = next(i for i in restores if good["events"][i]["payload"]["action"] == "jump")

    def changed(change):
        document = json.loads(text)
        change(document)
        return json.dumps(document)

    yield "not json", "{ this is not json"
    yield "a list", "[1, 2, 3]"
    yield "wrong format", changed(lambda d: d.update(format="something-else"))
    yield "newer version", changed(lambda d: d.update(version=2))
    yield "no events", changed(lambda d: d.update(events=[]))
    yield "no game", changed(lambda d: d.pop("game"))
    yield "game is a list", changed(lambda d: d.update(game=[1]))
    yield "events are not objects", changed(lambda d: d.update(events=["game_started"]))
    yield "first event is not the start", changed(lambda d: d["events"].pop(0))
    yield "unknown event type", changed(lambda d: d["events"][5].update(type="teleported"))
    yield "event without payload", changed(lambda d: d["events"][6].pop("payload"))
    yield (
        "undo of a move that does not exist",
        changed(lambda d: d["events"][restores[0]]["payload"].update(append=[123_456])),
    )
    yield (
        "undone list names a move that does not exist",
        changed(lambda d: d["events"][restores[0]]["payload"].update(undone=[123_456])),
    )
    yield "jump to an entry that does not exist", changed(lambda d: d["events"][jump]["payload"].update(to=987_654))
    yield "players without names", changed(lambda d: d["game"].update(players=[{"nom": "ABS"}]))
    money = [i for i, e in enumerate(good["events"]) if e["type"] == "money_moved"]
    yield "last money event is broken", changed(lambda d: d["events"][money[-1]]["payload"].update(amount="lots"))
    yield "an event of a newer schema", changed(lambda d: d["events"][money[-1]].update(schema_version=99))
    yield "a schema version that is not a number", changed(lambda d: d["events"][1].update(schema_version="1"))
    yield "no game name in the summary", changed(lambda d: d["game"].update(game=None))
    yield "the events a list of lists", changed(lambda d: d.update(events=[[1, 2]]))
    yield "JSON nested 100,000 deep", "[" * 100_000 + "]" * 100_000  # was a RecursionError
    yield "a time beyond any clock", changed(lambda d: d["events"][3].update(time=10**400))  # was an OverflowError
    yield "a time that is text", changed(lambda d: d["events"][3].update(time="noon"))
    yield "a negative time", changed(lambda d: d["events"][3].update(time=-5))
    yield "NaN", text.replace('"schema_version": 1', '"schema_version": NaN', 1)


def test_an_imported_game_is_finished_when_its_rules_say_so_not_when_the_file_does(table, tmp_path):
    """The file's ``status`` is not trusted: an open game whose export claims "finished" imports open (it was
    listed finished, refused by the BG Stats export as unfinished and played on), and a finished game imports
    finished whatever the file says."""
    open_game, finished_game = play(table), play(table, finish=True)
    with Journal(tmp_path / "target.sqlite3") as other:
        for game_id, claim, status in ((open_game, "finished", "open"), (finished_game, "open", "finished")):
            document = json.loads(export_json(table.journal, game_id))
            document["game"]["status"] = claim
            assert other.game(import_json(other, json.dumps(document))).status == status


def test_importing_a_malformed_file_raises_journal_error_and_writes_nothing(table, tmp_path):
    game_id = play(table)
    text = export_json(table.journal, game_id)
    target = tmp_path / "target.sqlite3"
    with Journal(target) as other:
        import_json(other, text)
        before = _counts(target)
        for name, bad in _mutations(text):
            with pytest.raises(JournalError) as caught:
                import_json(other, bad)
            assert _counts(target) == before, f"importing a file with {name} wrote to the journal"
            words = str(caught.value)
            assert "Error(" not in words and "object has no attribute" not in words, f"{name}: {words}"
        assert import_json(other, text) == 2  # and the journal still takes good imports


# -- the CLI -------------------------------------------------------------------------------------------------


@pytest.fixture
def data_dir(tmp_path, table_factory):
    """A data directory whose journal holds game #1 (played, open) and game #2 (finished)."""
    folder = tmp_path / "data"
    table = table_factory(path=folder / "journal.sqlite3")
    play(table)
    play(table, finish=True)
    table.journal.close()
    return folder


def test_cli_export_json_and_csv(data_dir, tmp_path):
    result = run_companion("export", "1", "--format", "json", "--data-dir", str(data_dir))
    assert result.returncode == 0, result.stderr
    with Journal(data_dir / "journal.sqlite3") as journal:
        assert json.loads(result.stdout) == json.loads(export_json(journal, 1))
        figures = export_figures_csv(journal, 2)
    result = run_companion("export", "2", "--format", "csv", "--data-dir", str(data_dir))
    assert result.returncode == 0 and result.stdout == figures
    out = tmp_path / "game2.csv"
    result = run_companion("export", "2", "--format", "csv", "-o", str(out), "--data-dir", str(data_dir))
    assert result.returncode == 0 and out.read_text() == figures and str(out) in result.stderr
    result = run_companion("export", "9", "--data-dir", str(data_dir))
    assert result.returncode == 1 and "#9" in result.stderr


def test_cli_replay_prints_readable_lines_with_undone_marks(data_dir):
    result = run_companion("replay", "1", "--data-dir", str(data_dir))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "Game #1: TV Wars — ABS, CBA, PBC"
    with Journal(data_dir / "journal.sqlite3") as journal:
        session = GameSession(1, journal.events(1))
    history = session.history()
    body = lines[1 : 1 + len(history)]
    assert len(body) == len(history)
    for line, entry in zip(body, history):
        assert line.startswith(f"#{entry.seq}")
        assert entry.text in line
        assert line.endswith("[undone]") == (not entry.in_force)
    assert sum(line.endswith("[undone]") for line in body) >= 2
    assert any("Undo: undid" in line for line in body) and any("Back to #" in line for line in body)
    balances = session.state.balances
    assert lines[-2] == "Now: " + "; ".join(f"{name} ${cash:,}" for name, cash in balances.items())
    assert "Best Network News" in lines[-1]


def test_cli_games_list_and_import(data_dir, tmp_path):
    result = run_companion("games", "list", "--data-dir", str(data_dir))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("#1") and "open" in lines[0] and "ABS, CBA, PBC" in lines[0]
    assert lines[1].startswith("#2") and "finished" in lines[1]
    assert run_companion("games", "--data-dir", str(data_dir)).stdout == result.stdout  # list is the default

    export_file = tmp_path / "game1.json"
    assert run_companion("export", "1", "-o", str(export_file), "--data-dir", str(data_dir)).returncode == 0
    result = run_companion("games", "import", str(export_file), "--data-dir", str(data_dir))
    assert result.returncode == 0, result.stderr
    assert "as game #3" in result.stdout
    result = run_companion("games", "--data-dir", str(data_dir), "list")
    assert len(result.stdout.splitlines()) == 3
    with Journal(data_dir / "journal.sqlite3") as journal:
        assert GameSession(3, journal.events(3)).state == GameSession(1, journal.events(1)).state

    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "tabletop-companion-game", "version": 1, "game": {}, "events": []}')
    before = _counts(data_dir / "journal.sqlite3")
    result = run_companion("games", "import", str(bad), "--data-dir", str(data_dir))
    assert result.returncode == 1 and "no game_started event" in result.stderr
    assert _counts(data_dir / "journal.sqlite3") == before
    result = run_companion("games", "import", str(tmp_path / "missing.json"), "--data-dir", str(data_dir))
    assert result.returncode == 1 and "cannot read" in result.stderr


def test_cli_without_a_journal_says_so(tmp_path):
    result = run_companion("games", "list", "--data-dir", str(tmp_path / "empty"))
    assert result.returncode == 0 and "No saved games" in result.stdout
    result = run_companion("replay", "1", "--data-dir", str(tmp_path / "empty"))
    assert result.returncode == 1 and "no journal" in result.stderr
    assert not (tmp_path / "empty" / "journal.sqlite3").exists(), "listing created a journal"


def test_cli_errors_are_messages_not_tracebacks(tmp_path, data_dir):
    """A missing output folder, a damaged journal, an unknown game to resume and a closed pipe."""
    result = run_companion(
        "export", "1", "--format", "csv", "-o", str(tmp_path / "no" / "x.csv"), "--data-dir", str(data_dir)
    )
    assert result.returncode == 1 and "No such file or directory" in result.stderr
    assert "Traceback" not in result.stderr
    result = run_companion("run", "--resume", "999", "--data-dir", str(data_dir))
    assert result.returncode == 1 and "no saved game #999" in result.stderr
    journal = data_dir / "journal.sqlite3"
    data = bytearray(journal.read_bytes())
    data[5000:9000] = bytes(4000)
    journal.write_bytes(bytes(data))
    for command in (("games", "list"), ("replay", "1")):
        result = run_companion(*command, "--data-dir", str(data_dir))
        assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
        assert "journal" in result.stderr


def test_cli_export_never_writes_over_the_journal_or_its_backups(data_dir, tmp_path):
    """README: nothing is ever deleted. `export -o` naming the journal itself, one of SQLite's files beside it
    or a file in the backups folder is refused before anything is written; the games are still there."""
    journal = data_dir / "journal.sqlite3"
    before = journal.read_bytes()
    (data_dir / "backups").mkdir(exist_ok=True)
    for target in (
        journal,
        data_dir / "." / "journal.sqlite3",
        data_dir / "journal.sqlite3-wal",
        data_dir / "backups" / "gen-000001-base-0000000000.sqlite3",
    ):
        result = run_companion("export", "1", "--format", "csv", "-o", str(target), "--data-dir", str(data_dir))
        assert result.returncode == 1, result.stderr
        assert "not writing the export" in result.stderr and "journal's own file" in result.stderr
        assert "Traceback" not in result.stderr
    assert journal.read_bytes() == before and not (data_dir / "journal.sqlite3-wal").exists()
    assert not (data_dir / "backups" / "gen-000001-base-0000000000.sqlite3").exists()
    assert run_companion("games", "list", "--data-dir", str(data_dir)).stdout.count("#") == 2
    beside = data_dir / "game1.csv"  # the data folder itself is fine
    result = run_companion("export", "1", "--format", "csv", "-o", str(beside), "--data-dir", str(data_dir))
    assert result.returncode == 0 and beside.read_text().startswith("move,time,what,")


def test_cli_import_of_a_file_that_is_not_text(data_dir, tmp_path):
    binary = tmp_path / "game.json"
    binary.write_bytes(b"\xff\xfe\x00bin")
    before = _counts(data_dir / "journal.sqlite3")
    result = run_companion("games", "import", str(binary), "--data-dir", str(data_dir))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "it is not UTF-8 text" in result.stderr
    assert _counts(data_dir / "journal.sqlite3") == before


def test_cli_replay_into_a_closed_pipe_is_quiet(data_dir):
    import subprocess

    pipeline = subprocess.run(
        f"{COMPANION} replay 1 --data-dir {data_dir} | head -1", shell=True, capture_output=True, text=True, timeout=60
    )
    assert pipeline.stdout.startswith("Game #1") and "Traceback" not in pipeline.stderr


def test_cli_bad_config_exits_2(tmp_path):
    config = tmp_path / "bad.toml"
    config.write_text("[dice]\nmode = 'loaded'\n")
    result = run_companion("games", "list", "--config", str(config), "--data-dir", str(tmp_path))
    assert result.returncode == 2 and "dice.mode" in result.stderr and str(config) in result.stderr


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["run"],
        ["games"],
        ["games", "list"],
        ["games", "resume"],
        ["games", "export"],
        ["games", "import"],
        ["export"],
        ["replay"],
    ],
)
def test_cli_help(args):
    result = run_companion(*args, "--help")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("usage: companion")


@pytest.mark.parametrize(
    "game, now",
    [
        ("death-show-tv", "Now: Ava Vitality 4; Ben Vitality 4"),
        ("channel-won", "Now: Ava 0 pts; Ben 0 pts"),
        ("telly-time", "Now: Ava $0M; Ben $0M"),
    ],
)
def test_cli_replay_and_list_of_games_without_dollars(tmp_path, game, now):
    """Games without a dollar balance end their replay with their own figures, and `games list` lines up."""
    from companion.commands import NewGame, PlayerSeat
    from companion.table import Table

    table = Table(Journal(tmp_path / "journal.sqlite3"))
    table.claim()
    assert table.execute(NewGame(game=game, players=(PlayerSeat("Ava"), PlayerSeat("Ben")))).accepted
    table.journal.close()
    result = run_companion("replay", "1", "--data-dir", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert now in result.stdout.splitlines()
    listed = run_companion("games", "list", "--data-dir", str(tmp_path)).stdout.splitlines()[0]
    assert listed.index("open") == len("#1    ") + 15
