"""Everything a game shows, move by move over a recorded game, against a reviewed record (issue 19: tests strong
enough that a careless change cannot pass).

The rules tests check what the rules decide; mutation testing (``tools/mutation.py``, ``docs/mutation.md``)
showed that a careless change to a text or figure a player reads (a view's label, a refusal's reason, a track's
rule, a button's meaning) passed them: they check a few words in a few places. This replays each game's recorded
journal (``tests/data/journals/<version>/<game>.sqlite3``: undos, redos, jumps, every phase) through a real
:class:`companion.session.GameSession` and after every move records, through the game contract only
(``companion/game.py``): the move's descriptions, ``public_view``, each seat's ``private_view`` and
``legal_commands`` (labels, reasons, rules, the complete commands), ``pending_dice``, ``figures``, ``outcome``
and what each seat button would post (``button_command``, or its refusal). The record is compared with
``tests/data/golden/<game>-views.json.xz`` and the first move that differs is shown as a diff.

A deliberate change to what players see regenerates the record:
``COMPANION_UPDATE_GOLDEN=1 ./run-tests tests/test_<game>_views.py``, and the diff of the record is reviewed
like code (``xzcat`` it). A record written from the code under review would pass anything, so the update is
never automatic: without the variable a missing record fails.
"""

from __future__ import annotations

import dataclasses
import difflib
import enum
import json
import lzma
import os
import shutil
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from itertools import groupby
from pathlib import Path
from typing import Any

from companion.errors import CompanionError
from companion.events import HISTORY_RESTORED
from companion.games import find_game
from companion.journal import Journal
from companion.session import GameSession

DATA = Path(__file__).parent / "data"
GOLDEN = DATA / "golden"
UPDATE = os.environ.get("COMPANION_UPDATE_GOLDEN") == "1"


def canonical(value: Any) -> Any:
    """``value`` as JSON: a dataclass as its class name and fields, tuples as lists, mappings with string keys,
    fractions and anything else by ``repr``."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: canonical(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return {"_": type(value).__name__, **fields}
    if isinstance(value, enum.Enum):
        return f"{type(value).__name__}.{value.name}"
    if isinstance(value, (list, tuple)):
        return [canonical(item) for item in value]
    if isinstance(value, (set, frozenset)):
        return sorted(canonical(item) for item in value)
    if isinstance(value, dict) or hasattr(value, "items"):
        return {str(key): canonical(item) for key, item in value.items()}
    if isinstance(value, Fraction):
        return str(value)
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return repr(value)


def _outcome(call) -> Any:
    try:
        return canonical(call())
    except CompanionError as error:
        return f"refused: {error}"


def offers(legal) -> list[str]:
    """Each legal command in one line (a game may offer hundreds of complete commands: a Channel WON hand's every
    play): kind, label, whether enabled, the reason and rule when not, the complete command's ``repr``."""
    return [
        " | ".join((o.kind, o.label, "on" if o.enabled else "off", o.reason, o.rule, repr(o.command))) for o in legal
    ]


def describe(session: GameSession, record) -> str:
    """A move's event as the history shows it, an undo/redo/jump as its entry."""
    if record.type == HISTORY_RESTORED:
        return session.describe_entry(record)
    return session.describe_record(record)


def replay(game: str, folder: Path, source: Path | None = None):
    """``(rules, session)`` then, after each move of ``game``'s recorded journal (or of the journal file
    ``source``; opened from a copy in ``folder``), ``(move, records)``: the session holds the state after it."""
    if source is None:
        source = max(DATA.glob(f"journals/*/{game}.sqlite3"))
    copy = folder / source.name
    shutil.copyfile(source, copy)
    journal = Journal(copy)
    try:
        game_id = journal._db.execute("SELECT id FROM games WHERE game = ? ORDER BY id LIMIT 1", (game,)).fetchone()[0]
        records = journal.events(game_id)
    finally:
        journal.close()
    rules = find_game(game)
    session = GameSession(game_id, records[:1])
    yield rules, session
    for move, group in groupby(records[1:], key=lambda record: record.move):
        taken = list(group)
        session.take(taken)
        yield move, taken


def record_of(game: str, folder: Path, source: Path | None = None) -> list[dict]:
    """The step-by-step record of what ``game`` shows over its recorded journal or ``source`` (see the module
    docstring)."""
    moves = replay(game, folder, source)
    rules, session = next(moves)
    actions = [slot.action for slot in rules.info.buttons]
    steps = []
    for move, taken in moves:
        state = session.state
        public = rules.public_view(state)
        seats = [player.name for player in public.players]
        steps.append(
            {
                "move": move,
                "events": [f"{record.type}: {describe(session, record)}" for record in taken],
                "public": canonical(public),
                "private": {seat: _outcome(lambda seat=seat: rules.private_view(state, seat)) for seat in seats},
                "legal": {
                    seat: _outcome(lambda seat=seat: offers(rules.legal_commands(state, seat))) for seat in seats
                },
                "dice": _outcome(lambda: rules.pending_dice(state)),
                "figures": _outcome(lambda: rules.figures(state)),
                "outcome": _outcome(lambda: rules.outcome(state)),
                "buttons": {
                    seat: {
                        action: _outcome(lambda seat=seat, action=action: rules.button_command(action, seat))
                        for action in actions
                    }
                    for seat in seats
                },
            }
        )
    return steps


#: Values every field may also be given, to reach the refusals (a careless change to a refusal's words or rule,
#: or to the check itself, must show).
ODD_VALUES = (None, -1, 0, 1, 7, 10_000, "", "?", True, (), ("?",))
DECISION_EVERY = 7  # moves between two states the commands are tried on
TRIES = 8  # commands of each kind tried on each of those states


def _subclasses(base: type) -> list[type]:
    found = []
    for cls in base.__subclasses__():
        found += [cls, *_subclasses(cls)]
    return found


def _key(value: Any) -> str:
    return repr(value)


NEAR_OFFERS = 6  # complete commands offered per seat that are changed
NEAR_TRIES = 2  # changes of each


def _decided(rules, state, make) -> str:
    """The command ``make()`` builds, decided on ``state``, in words: its events, or why it was not made or was
    refused. Anything but the companion's own errors is a defect and propagates (the test fails on it)."""
    try:
        command = make()
    except CompanionError as error:
        return f"not made: {type(error).__name__}: {error}"
    except (TypeError, ValueError) as error:
        return f"not made: {type(error).__name__}"
    try:
        events = rules.decide(state, command)
    except CompanionError as error:
        return f"{command!r} -> {type(error).__name__}: {error} [{getattr(error, 'rule', '')}]"
    for event in events:  # every event the journal would hold reads back as itself (the journal's codec)
        payload = json.loads(json.dumps(event.to_payload()))
        assert rules.events.decode(event.TYPE, payload) == event, (command, event, payload)
    return f"{command!r} -> {[repr(event) for event in events]} = {[rules.describe(event) for event in events]}"


def decisions_of(
    game: str, folder: Path, vocabulary: Mapping[str, Sequence[Any]] | None = None, source: Path | None = None
) -> list[dict]:
    """What ``decide`` answers, every :data:`DECISION_EVERY` moves of ``game``'s recorded game, to :data:`TRIES`
    commands of each of the game's command kinds: built (seeded) from the values its ``legal_commands`` offered
    anywhere in the game, the journal's payload values of the same name, the seats, and :data:`ODD_VALUES`.
    ``vocabulary`` adds values by field name where the game offers and journals none under that name (a Telly
    Time timeslot is ``from_slot`` in MoveShow). Each answer is the events' ``repr`` or the refusal (its class,
    words and rule)."""
    import random

    from companion.commands import AdjustTrack, AnswerDice, Command, EndGame, RollDice, TransferMoney

    moves = replay(game, folder, source)
    rules, session = next(moves)
    package = type(rules).__module__.rpartition(".")[0]
    kinds = sorted((c for c in _subclasses(Command) if c.__module__.startswith(package + ".")), key=_key)
    # and the shared commands a game decides itself (the table handles the rest: NewGame, Undo, ...)
    kinds += [EndGame, TransferMoney, AdjustTrack, RollDice, AnswerDice]
    seen: dict[tuple[str, str], dict[str, Any]] = {}  # (kind, field) -> values offered
    named: dict[str, dict[str, Any]] = {}  # payload key -> values journaled
    for name, values in (vocabulary or {}).items():
        named.setdefault(name, {}).update({_key(value): value for value in values})
    states = []
    for number, (move, taken) in enumerate(moves):
        state = session.state
        for record in taken:
            for key, value in (record.payload or {}).items():
                if isinstance(value, (str, int, bool, type(None))):
                    named.setdefault(key, {})[_key(value)] = value
        for player in rules.public_view(state).players:
            named.setdefault("_seat", {})[_key(player.name)] = player.name
            for offer in rules.legal_commands(state, player.name):
                if offer.command is not None:
                    for f in dataclasses.fields(offer.command):
                        value = getattr(offer.command, f.name)
                        seen.setdefault((type(offer.command).__name__, f.name), {})[_key(value)] = value
        if number % DECISION_EVERY == 0:
            states.append((move, state))
        elif number % DECISION_EVERY == 1:  # the state after it too: many checks are of the move just made
            states.append((move, state))
    steps = []
    for move, state in states:
        answers: dict[str, list[str]] = {}
        for index, kind in enumerate(kinds):
            chooser = random.Random(f"{game} {move} {kind.__name__}")
            fields = [f for f in dataclasses.fields(kind) if f.name != "source" and f.init]
            tried = []
            for _ in range(TRIES):
                arguments = {}
                for f in fields:
                    values = {**seen.get((kind.__name__, f.name), {}), **named.get(f.name, {})}
                    if f.name in ("player", "network", "fighter", "roller", "winner", "loser", "by", "seat"):
                        values.update(named.get("_seat", {}))
                    pool = [values[k] for k in sorted(values)] if values and chooser.random() < 0.8 else ODD_VALUES
                    arguments[f.name] = pool[chooser.randrange(len(pool))]
                tried.append(_decided(rules, state, lambda: kind(source="test", **arguments)))
            answers[kind.__name__] = tried
        # near-legal: each complete command offered now with one field changed, which reaches the checks of
        # the arguments behind the phase's
        chooser = random.Random(f"{game} {move} near")
        near = []
        for player in rules.public_view(state).players:
            offered = [o.command for o in rules.legal_commands(state, player.name) if o.command is not None]
            for command in offered[:NEAR_OFFERS]:
                fields = [f.name for f in dataclasses.fields(command) if f.name != "source" and f.init]
                if not fields:
                    continue
                for _ in range(NEAR_TRIES):
                    name = fields[chooser.randrange(len(fields))]
                    values = {**seen.get((type(command).__name__, name), {}), **named.get(name, {})}
                    pool = [values[k] for k in sorted(values)] + list(ODD_VALUES)
                    value = pool[chooser.randrange(len(pool))]
                    near.append(
                        _decided(rules, state, lambda c=command, n=name, v=value: dataclasses.replace(c, **{n: v}))
                    )
        steps.append({"move": move, "answers": answers, "near": near})
    return [_options_record(rules, sorted(named.get("_seat", {}).values())), *steps]


def _options_record(rules, seats: list[str]) -> dict:
    """What ``check_options`` and ``new_game`` answer to each option given each odd value, an unknown option
    and too few or too many players: the first entry of the decisions record (its ``move`` is 0)."""
    from companion.commands import PlayerSeat

    def answer(call) -> str:
        try:
            return repr(canonical(call()))
        except CompanionError as error:
            return f"{type(error).__name__}: {error} [{getattr(error, 'rule', '')}]"
        except (TypeError, ValueError) as error:
            return f"{type(error).__name__}"

    players = [PlayerSeat(name) for name in seats] or [PlayerSeat("A"), PlayerSeat("B")]
    answers = {
        "defaults": answer(lambda: rules.check_options({})),
        "unknown": answer(lambda: rules.check_options({"?": 1})),
    }
    for spec in rules.info.options:
        for value in (spec.default, *ODD_VALUES, *spec.choices):
            answers[f"{spec.name}={value!r}"] = answer(lambda n=spec.name, v=value: rules.check_options({n: v}))
    for count in range(rules.info.max_players + 2):
        seated = [PlayerSeat(f"P{n}") for n in range(count)]
        answers[f"players={count}"] = answer(lambda s=seated: type(rules.new_game(s, rules.check_options({}))).__name__)
    answers["same name twice"] = answer(lambda: rules.new_game([players[0], players[0]], rules.check_options({})))
    return {"move": 0, "options": answers}


def check_golden(
    game: str,
    folder: Path,
    what: str = "views",
    vocabulary: Mapping[str, Sequence[Any]] | None = None,
    source: Path | None = None,
    record: str | None = None,
) -> None:
    """Assert that ``game``'s record (``what``: ``"views"``, :func:`record_of`, or ``"decisions"``,
    :func:`decisions_of` with ``vocabulary``), over the recorded journal or the journal file ``source``, equals the
    reviewed one, ``tests/data/golden/<record or game>-<what>.json.xz`` (or write it, with
    ``COMPANION_UPDATE_GOLDEN=1``)."""
    got = record_of(game, folder, source) if what == "views" else decisions_of(game, folder, vocabulary, source)
    path = GOLDEN / f"{record or game}-{what}.json.xz"
    if UPDATE:
        GOLDEN.mkdir(parents=True, exist_ok=True)
        text = json.dumps(got, indent=1, sort_keys=True, ensure_ascii=False)
        path.write_bytes(lzma.compress(text.encode(), preset=9 | lzma.PRESET_EXTREME))  # ~15 KB, not ~2-7 MB
        return
    assert path.is_file(), f"no reviewed record {path}: write it with COMPANION_UPDATE_GOLDEN=1 and review it"
    expected = json.loads(lzma.decompress(path.read_bytes()))
    assert len(got) == len(expected), f"{len(got)} steps, the record has {len(expected)}"
    for number, (now, then) in enumerate(zip(got, expected)):
        if now != then:
            diff = difflib.unified_diff(
                json.dumps(then, indent=1, sort_keys=True, ensure_ascii=False).splitlines(),
                json.dumps(now, indent=1, sort_keys=True, ensure_ascii=False).splitlines(),
                "reviewed",
                "now",
                lineterm="",
                n=2,
            )
            shown = "\n".join(list(diff)[:80])
            raise AssertionError(f"{game}: after move #{then['move']} (step {number}) its {what} changed:\n{shown}")


def check_played(
    game: str,
    folder: Path,
    what: str,
    play: Callable[[Any, Path], int],
    seed: int,
    vocabulary: Mapping[str, Sequence[Any]] | None = None,
) -> None:
    """:func:`check_golden` over the fixed game ``seed`` played by legal commands: ``play`` (a game's
    ``test_<game>_legal_play.play``) with :class:`draws.SeededDraws` into ``folder/played/<game>.sqlite3``, against
    the record ``<game>-played-<seed>-<what>``."""
    from draws import SeededDraws

    path = folder / "played" / f"{game}.sqlite3"
    path.parent.mkdir()
    play(SeededDraws(seed), path)
    check_golden(game, folder, what, vocabulary, source=path, record=f"{game}-played-{seed}")
