"""The registries' entry points are read without importing ``importlib.metadata`` (issue 17: lean start and the
headless memory budget; ``companion/entry_points.py`` says why), and the answer is always the one
``importlib.metadata`` gives: compared here on the installed product, on hand-made distributions on ``sys.path``
(duplicates, ``.egg-info``, comments, extras, a missing file) and where only ``importlib.metadata`` can answer
(a zip on ``sys.path``, an ``.egg``, another finder of distributions).
"""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys
import zipfile

import pytest

from companion.entry_points import _scan, entry_points

GROUPS = ("tabletop_companion.games", "tabletop_companion.frontends", "console_scripts")


def standard(group: str) -> list[tuple[str, str]]:
    return [(p.name, p.value.partition("[")[0].strip()) for p in importlib.metadata.entry_points(group=group)]


def ours(group: str) -> list[tuple[str, str]]:
    return [(p.name, p.value) for p in entry_points(group)]


@pytest.mark.parametrize("group", GROUPS)
def test_the_installed_products_entry_points_are_importlib_metadatas(group):
    assert _scan(group) is not None, "the plain site-packages folder is read without importlib.metadata"
    assert ours(group) == standard(group)
    if group == "tabletop_companion.games":
        assert {name for name, _ in ours(group)} >= {"tv-wars", "death-show-tv", "channel-won", "telly-time"}


def _distribution(folder, name, text):
    info = folder / name
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name.partition('-')[0]}\nVersion: 1\n")
    if text is not None:
        (info / "entry_points.txt").write_text(text)


def test_hand_made_distributions_give_the_same_answer(tmp_path, monkeypatch):
    first, second = tmp_path / "first", tmp_path / "second"
    _distribution(
        first,
        "Party_Games-1.0.dist-info",
        "# a comment\n[tabletop_companion.games]\n  quiz-night = party.quiz:INFO  [sound]\n\n"
        "[console_scripts]\nparty = party.cli:main\n",
    )
    _distribution(first, "old_game-0.1.egg-info", "[tabletop_companion.games]\nold-game=old.info:INFO\n")
    _distribution(first, "no_points-2.0.dist-info", None)
    # the same distribution (normalised name "party_games") later on the path: hidden by the first
    _distribution(second, "party.games-2.0.dist-info", "[tabletop_companion.games]\nquiz-night = other:INFO\n")
    _distribution(second, "Dice_Pack-3.dist-info", "[tabletop_companion.games]\ndice = dice.info:INFO\n")
    monkeypatch.setattr(sys, "path", [str(first), str(tmp_path / "missing"), str(second), *sys.path])
    group = "tabletop_companion.games"
    assert _scan(group) is not None
    got = ours(group)
    assert got == standard(group)
    assert ("quiz-night", "party.quiz:INFO") in got and ("quiz-night", "other:INFO") not in got
    assert ("old-game", "old.info:INFO") in got and ("dice", "dice.info:INFO") in got


def test_a_zip_on_the_path_is_left_to_importlib_metadata(tmp_path, monkeypatch):
    archive = tmp_path / "games.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("zipped_game-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: zipped_game\nVersion: 1\n")
        zipped.writestr("zipped_game-1.0.dist-info/entry_points.txt", "[tabletop_companion.games]\nzipped = z:INFO\n")
    monkeypatch.setattr(sys, "path", [str(archive), *sys.path])
    group = "tabletop_companion.games"
    assert _scan(group) is None
    assert ("zipped", "z:INFO") in ours(group)
    assert ours(group) == standard(group)


def test_an_egg_or_another_distribution_finder_is_left_to_importlib_metadata(tmp_path, monkeypatch):
    (tmp_path / "legacy-1.0-py3.11.egg").mkdir()
    monkeypatch.setattr(sys, "path", [str(tmp_path), *sys.path])
    assert _scan("tabletop_companion.games") is None
    monkeypatch.setattr(sys, "path", sys.path[1:])

    class Finder:
        @staticmethod
        def find_spec(*args, **kwargs):
            return None

        @staticmethod
        def find_distributions(context=None):
            return iter(())

    monkeypatch.setattr(sys, "meta_path", [Finder, *sys.meta_path])
    assert _scan("tabletop_companion.games") is None
    assert ours("tabletop_companion.games") == standard("tabletop_companion.games")


def test_the_registry_and_the_command_line_never_import_importlib_metadata(tmp_path):
    """Opening a game through the registry and building the command line leave ``importlib.metadata`` (6.7 MB
    and ~37 ms here) unimported."""
    code = (
        "import sys\n"
        "from companion.games import find_game, game_names\n"
        "from companion.cli import build_parser\n"
        "from companion.entry_points import entry_points\n"
        "assert 'tv-wars' in game_names() and find_game('tv-wars').info.name == 'tv-wars'\n"
        "build_parser(with_games=False)\n"
        "assert 'kiosk' in [p.name for p in entry_points('tabletop_companion.frontends')]\n"
        "assert 'importlib.metadata' not in sys.modules, sorted(m for m in sys.modules if 'metadata' in m)\n"
    )
    completed = subprocess.run(
        [sys.executable, "-P", "-c", code], capture_output=True, text=True, timeout=120, cwd=tmp_path
    )
    assert completed.returncode == 0, completed.stderr[-2000:]
