"""Command-line input a user mistypes gets one line saying what is wrong, never a Python traceback, and changes
nothing (the brief's bad-input standard; the fresh user's trial of 2026-12-03 found each of these)."""

from __future__ import annotations

import pytest
from conftest import run_companion


def _one_line_refusal(result, words: str) -> None:
    assert result.returncode != 0
    assert "Traceback" not in result.stderr, result.stderr
    assert words in result.stderr, result.stderr


@pytest.mark.parametrize("command", [["export"], ["replay"], ["games", "export"], ["run", "--headless", "--resume"]])
@pytest.mark.parametrize(
    ("game_id", "words"),
    [
        ("99999999999999999999999", "no game has that number"),  # was OverflowError from SQLite
        ("0", "no game has that number"),
        ("-3", "no game has that number"),
        ("two", "is not a game number"),
    ],
)
def test_a_game_number_that_cannot_be_one_is_refused_in_words(command, game_id, words, tmp_path):
    data = tmp_path / "data"
    result = run_companion(*command, game_id, "--data-dir", str(data))
    _one_line_refusal(result, words)
    assert result.returncode == 2 and not data.exists()  # nothing created


def test_an_empty_data_folder_or_config_path_is_refused(tmp_path):
    """``--data-dir ""`` used the current folder (an import wrote a journal there)."""
    refusals = (("--data-dir", "an empty path (give the folder"), ("--config", "an empty path (give the file"))
    for option, words in refusals:
        result = run_companion("games", "list", option, "")
        _one_line_refusal(result, words)
    assert not (tmp_path / "journal.sqlite3").exists()


def test_a_data_folder_that_is_a_file_or_a_broken_link_is_refused(tmp_path):
    """A file as the data folder was opened read-only ("nothing can be written in g1.json: File exists"); a link
    looping on itself or to nothing said "cannot create the folder loopA: File exists"."""
    afile = tmp_path / "g1.json"
    afile.write_text("{}")
    loop = tmp_path / "loopA"
    loop.symlink_to(tmp_path / "loopB")
    (tmp_path / "loopB").symlink_to(loop)
    for path, words in ((afile, "is a file, not a folder"), (loop, "is a link that leads to no folder")):
        for command in (["run", "--headless"], ["games", "list"]):
            result = run_companion(*command, "--data-dir", str(path))
            _one_line_refusal(result, f"{path} {words}")
    assert afile.read_text() == "{}"


def test_new_and_resume_together_are_refused(tmp_path):
    result = run_companion("run", "--headless", "--new", "--resume", "1", "--data-dir", str(tmp_path / "data"))
    _one_line_refusal(result, "not allowed with argument")


@pytest.mark.parametrize("size", ["abc", "10x10", "-480x800"])
def test_a_malformed_screen_size_is_a_config_error_in_one_line(size, tmp_path):
    """``COMPANION_SCREEN_SIZE`` is read when the kiosk's screen code is imported: a bad value was a 24-line
    traceback around the right message."""
    result = run_companion(
        "run", "--sim", "--new", "--data-dir", str(tmp_path / "data"), env={"COMPANION_SCREEN_SIZE": size}
    )
    _one_line_refusal(result, "config error: the environment: COMPANION_SCREEN_SIZE: ")
    assert result.returncode == 2


def test_the_serial_readers_speak_the_configs_words():
    from companion.config import READER_BAUD_RATE, READER_KINDS
    from firmware_bridge.protocol import BAUD_RATE, DEVICE_KINDS

    assert (READER_KINDS, READER_BAUD_RATE) == (DEVICE_KINDS, BAUD_RATE)


@pytest.mark.parametrize("command", [["run", "--headless"], ["selftest", "--sim"], ["games", "list"]])
def test_every_command_reads_the_readers_of_the_config_as_the_kiosk_does(command, tmp_path):
    """A ``[[readers]]`` table with neither a path nor a USB identity stopped the kiosk's ``run`` but not
    ``run --headless`` (which started) nor ``selftest`` (a FAIL line): the config is checked whole, by every
    command, before anything starts (README)."""
    config = tmp_path / "companion.toml"
    config.write_text('[[readers]]\nkind = "dice"\n')
    result = run_companion(*command, "--config", str(config), "--data-dir", str(tmp_path / "data"))
    _one_line_refusal(result, "config error: ")
    assert "readers[0]: give a path (/dev/serial/by-id/...) or vid/pid/serial_number" in result.stderr
    assert result.returncode == 2 and not (tmp_path / "data").exists()
