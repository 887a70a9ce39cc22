"""The panel audit (issue 18, item 4): every game's OLED panels, drawn from real game states, measured on the 1-bit
frames against the panel's design.

The states: each of the four games started through a real :class:`companion.table.Table` (as
tests/random_games.py starts them), mid-game states from random play (hypothesis draws the commands, so a failing
state shrinks), and the refusals that play meets, flashed on the panel as the kiosk does.

The design, stated here as rows of ink, inclusive (each zone may light only its own rows; between two zones at
least one row stays dark, so ink in its zone is ink that overlaps nothing):

* the header (turn marker, seat shape, name, badge): rows 0–12;
* the headline figure: rows 14–33, whatever is under it;
* two lines under a figure: rows 36–48 and 50–62 (a view's track alone, without lines: 50–62); up to three lines
  without a figure: 16–28, 32–44, 48–60;
* a line longer than :data:`LETTERS` = 17 letters is wrapped onto the cells the other lines leave free, or cut;
* a message under the header: up to three lines in 16–28, 32–44, 48–60; one that needs four takes the header's
  rows 0–12 too; a message alone (idle and exit screens): rows 0–62;
* nothing on the outermost columns (0 and 127) or on the bottom row (63): nothing is cut at the edge.

And these measures:

* **Readable letters**: a text line's ink is at least :data:`MIN_LINE_INK` = 10 rows tall when its text has a
  letter of full height (a capital, a digit, ``b d f h k l``, ``$``). That is the font's cap height, at least
  :data:`MIN_CAP` = 9 px (measured: the ink of ``H``), and line pitch (from one line's top to the next) of at
  least :data:`MIN_PITCH` = 10 px, with the descenders of one line clear of the next.
* **Digits that cannot be confused**: each digit drawn alone on a panel, as a line and as the figure, differs
  from every other digit in at least :data:`MIN_DIGIT_DIFFERENCE` = 6 pixels (6/8, 3/8, 5/6 and 0/8 included).
* **A headline that never shrinks**: the figure zone is the same picture with zero, one or two lines under it,
  its ink at least 15 rows tall.
"""

from __future__ import annotations

import pytest
import random_games
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops

from companion.games import PlayerView
from hardware.panels import PANEL_HEIGHT, PANEL_WIDTH, render_player_panel

MIN_CAP = 9  # px: the text font's cap height
MIN_PITCH = 10  # px: from one text line's top to the next's
MIN_LINE_INK = 10  # rows: a drawn text line with a letter of full height
MIN_DIGIT_DIFFERENCE = 6  # pixels in which two digits' pictures differ

HEADER, FIGURE = (0, 12), (14, 33)
UNDER_FIGURE = ((36, 48), (50, 62))
WITHOUT_FIGURE = ((16, 28), (32, 44), (48, 60))
LETTERS = 17  # a line's letters between the margins (7 px each; 15 at 8 px)
TALL = set("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789bdfhkl$")


def lit_rows(image: Image.Image, top: int = 0, bottom: int = PANEL_HEIGHT - 1) -> list[int]:
    """The rows from ``top`` to ``bottom`` (inclusive) with a lit pixel."""
    return [y for y in range(top, bottom + 1) if any(image.getpixel((x, y)) for x in range(PANEL_WIDTH))]


def ink_height(image: Image.Image, zone: tuple[int, int]) -> int:
    rows = lit_rows(image, *zone)
    return rows[-1] - rows[0] + 1 if rows else 0


def figure_and_lines(view: PlayerView) -> tuple[str, tuple[str, ...]]:
    big = view.headline or ("$" if view.balance is not None else "")
    return big, view.panel_lines[:2] if big else view.panel_lines[:3]


def layout(view: PlayerView | None, message: str = "") -> dict[str, tuple[tuple[int, int], str | None]]:
    """The design's zones for ``view`` (with ``message``): name → ``(rows, the text drawn there or None)``."""
    if view is None:
        return {"message": ((0, PANEL_HEIGHT - 2), None)}
    if message:
        return {"header or line 1": (HEADER, None)} | {
            f"message line {n}": (rows, None) for n, rows in enumerate(WITHOUT_FIGURE, 1)
        }
    zones: dict[str, tuple[tuple[int, int], str | None]] = {"header": (HEADER, view.name)}
    big, lines = figure_and_lines(view)
    if big:
        zones["figure"] = (FIGURE, None)
    cells = UNDER_FIGURE if big else WITHOUT_FIGURE
    if lines and max(len(line) for line in lines) > LETTERS:  # wrapped onto the free cells, or cut
        zones |= {f"line {n}": (rows, None) for n, rows in enumerate(cells, 1)}
    elif lines:
        zones |= {f"line {n}": (rows, text) for n, (rows, text) in enumerate(zip(cells, lines), 1)}
    elif view.tracks:
        zones["track"] = (UNDER_FIGURE[-1], f"{view.tracks[0].label} {view.tracks[0].value}")
    return zones


def audit(image: Image.Image, view: PlayerView | None, message: str = "") -> list[str]:
    """What is wrong with one rendered panel against the design (``[]``: nothing)."""
    assert image.size == (PANEL_WIDTH, PANEL_HEIGHT) and image.mode == "1"
    problems = []
    for x in (0, PANEL_WIDTH - 1):
        if any(image.getpixel((x, y)) for y in range(PANEL_HEIGHT)):
            problems.append(f"ink on the edge column {x}")
    if any(image.getpixel((x, PANEL_HEIGHT - 1)) for x in range(PANEL_WIDTH)):
        problems.append("ink on the bottom row")
    zones = layout(view, message)
    stray = [y for y in lit_rows(image) if not any(top <= y <= bottom for (top, bottom), _ in zones.values())]
    if stray:
        problems.append(f"ink on rows {stray} outside the zones {zones}: it runs into its neighbour")
    for name, (rows, text) in zones.items():
        if text and TALL & set(text) and 0 < ink_height(image, rows) < MIN_LINE_INK:
            problems.append(f"{name} {text!r}: ink {ink_height(image, rows)} rows tall, under {MIN_LINE_INK}")
    return problems


def check_panels(views, refusal: str = "") -> None:
    for view in views:
        image = render_player_panel(view)
        assert not audit(image, view), (view, audit(image, view))
        if refusal:
            flashed = render_player_panel(view, message=refusal)
            assert not audit(flashed, view, refusal), (refusal, audit(flashed, view, refusal))


# -- the letters ------------------------------------------------------------------------------------------------


def test_the_text_has_a_cap_height_of_9_px_and_lines_10_px_apart_whose_descenders_clear_the_next():
    capitals = render_player_panel(PlayerView("X", "#ffffff", None, panel_lines=("HHH", "HHH", "HHH")))
    tops = [rows[0] for rows in (lit_rows(capitals, *zone) for zone in WITHOUT_FIGURE) if rows]
    assert len(tops) == 3 and ink_height(capitals, WITHOUT_FIGURE[0]) >= MIN_CAP
    assert min(b - a for a, b in zip(tops, tops[1:])) >= MIN_PITCH
    deep = PlayerView("X", "#ffffff", None, headline="$9", panel_lines=("Hgjpqy$,", "Hgjpqy$,"))
    assert not audit(render_player_panel(deep), deep)


def digit_pictures(make) -> dict[str, Image.Image]:
    return {digit: render_player_panel(make(digit)) for digit in "0123456789"}


def test_digits_cannot_be_confused_in_the_lines_or_the_figure():
    for where, make in (
        ("line", lambda d: PlayerView("X", "#ffffff", None, panel_lines=(d,))),
        ("figure", lambda d: PlayerView("X", "#ffffff", None, headline=d)),
    ):
        pictures = digit_pictures(make)
        for a in "0123456789":
            for b in "0123456789":
                if a < b:
                    differ = ImageChops.logical_xor(pictures[a], pictures[b]).histogram()[255]
                    assert differ >= MIN_DIGIT_DIFFERENCE, f"{where}: {a} and {b} differ in {differ} pixels only"


def test_the_headline_is_the_same_picture_whatever_the_lines_under_it():
    for headline in ("$31,000", "Vitality 3", "12 pts"):
        figures = []
        for lines in ((), ("3 tiles left",), ("Beach - 5 cards", "Weapons level 2")):
            view = PlayerView("Alice", "#ffffff", None, headline=headline, panel_lines=lines)
            figures.append(render_player_panel(view).crop((0, FIGURE[0], PANEL_WIDTH, FIGURE[1] + 1)))
        assert all(ImageChops.difference(figures[0], other).getbbox() is None for other in figures[1:]), headline
        box = figures[0].getbbox()
        assert box is not None and box[3] - box[1] >= 15, (headline, box)  # the 24 px figure: 15 px digits at least


# -- every game's panels ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", random_games.GAMES)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_each_game_at_its_start_and_with_a_refusal(table_factory, game, data):
    table = table_factory()
    random_games.start(game, table, data)
    check_panels(table.view().players, "Refused: NBS has $2,000, cannot pay $5,000 (rule 7.2)")


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(data=st.data(), game=st.sampled_from(random_games.GAMES), moves=st.integers(0, 30))
def test_every_games_panels_pass_the_audit_in_random_play(table_factory, data, game, moves):
    table = table_factory()
    random_games.start(game, table, data)
    check_panels(table.view().players)
    for _ in range(moves):
        outcome = table.execute(random_games.command(game, table, data, history=False))
        if table.view() is None:
            break
        check_panels(table.view().players, "" if outcome.accepted else f"Refused: {outcome.refusal}")


# -- messages ---------------------------------------------------------------------------------------------------


def test_a_refusal_is_wrapped_in_whole_words_and_ends_in_an_ellipsis_only_when_it_cannot_fit():
    from hardware.panels import wrap_message

    view = PlayerView("NBS", "#f0e442", 2000)
    short = "Refused: NBS has $2,000, cannot pay $5,000"
    lines = wrap_message(short)
    assert " ".join(lines) == short and len(lines) <= 3  # under the name
    four = "Refused: the dice were asked of ABS, not PBC (rule 5.2); roll"
    lines = wrap_message(four)
    assert " ".join(lines) == four and len(lines) == 4
    long = "Refused: " + " ".join(["the dice were asked of ABS, not PBC (rule 5.2)"] * 3)
    lines = wrap_message(long)
    assert len(lines) == 4 and lines[-1].endswith("...")
    assert " ".join(lines).removesuffix("...") == long[: len(" ".join(lines)) - 3]  # whole words, from the start
    for text in (short, four, long):
        image = render_player_panel(view, message=text)
        assert not audit(image, view, text), audit(image, view, text)
        for line, rows in zip(wrap_message(text), WITHOUT_FIGURE if len(wrap_message(text)) <= 3 else (HEADER,)):
            assert ink_height(image, rows) >= MIN_LINE_INK, (line, rows)
