"""Player panels on luma's dummy device, checked as images against reference PNGs in tests/reference/.

Set UPDATE_REFERENCE_PANELS=1 to rewrite the references after a deliberate layout change (then look at them).
"""

import os
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops

from companion.commands import PlayerSeat
from companion.games import PlayerView
from companion.games.tv_wars import TV_WARS
from companion.games.tv_wars import view as tv_view
from companion.games.tv_wars.holdings import Holdings
from companion.tracks import Track
from hardware.panels import PANEL_HEIGHT, PANEL_WIDTH, PanelBank, render_player_panel

REFERENCE = Path(__file__).parent / "reference"
ARTIFACTS = Path(__file__).parent.parent / "test-artifacts"


def half_hours(value):
    return (Track("half_hours", "Programming", value, 0, 236),)


def network(name, colour, cash, programming, **extra):
    """A TV Wars network's view as its public view fills it in: cash as the headline, its hand-kept
    programming under it (:mod:`companion.games.tv_wars.view`)."""
    return PlayerView(
        name,
        colour,
        cash,
        half_hours(programming),
        headline=tv_view.headline(cash),
        panel_lines=tv_view.panel_lines(Holdings(), programming),
        **extra,
    )


def _tv_wars_start():
    """ABS at the start of a real TV Wars game without the roll-off: Best Network News, $31,000, 20 half-hours."""
    state = TV_WARS.new_game((PlayerSeat("ABS", "#d55e00"), PlayerSeat("CBA", "#56b4e9")), {"roll_off": False})
    return TV_WARS.public_view(state).players[0]


VIEWS = {
    "abs-start": _tv_wars_start(),
    "cba-rich": network("CBA", "#56b4e9", 1_234_500, 48),
    "nbs-broke": network("NBS", "#f0e442", 0, 0),
    # games without money: a headline and up to two lines (Death Show TV's Contestant, Channel WON's reporter)
    "contestant": PlayerView(
        "Alice", "#d55e00", None, headline="Vitality 3", panel_lines=("Beach - 5 cards", "Weapons level 2"), turn=True
    ),
    "reporter": PlayerView("Ben", "#56b4e9", None, headline="12 pts", panel_lines=("3 tiles left",)),
}


def same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a.convert("L"), b.convert("L")).getbbox() is None


def assert_matches_golden(name: str, image: Image.Image) -> None:
    """Save an enlarged copy to test-artifacts/ (to look at) and compare with tests/reference/panel-NAME.png."""
    assert image.size == (PANEL_WIDTH, PANEL_HEIGHT) and image.mode == "1"
    ARTIFACTS.mkdir(exist_ok=True)
    image.resize((PANEL_WIDTH * 4, PANEL_HEIGHT * 4), Image.NEAREST).save(ARTIFACTS / f"panel-{name}.png")
    reference = REFERENCE / f"panel-{name}.png"
    if os.environ.get("UPDATE_REFERENCE_PANELS"):
        image.save(reference)
    assert same(image, Image.open(reference)), f"{name} differs from {reference}"


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_panel_layout_matches_reference(name):
    assert_matches_golden(name, render_player_panel(VIEWS[name]))


def test_different_figures_give_different_pictures():
    assert not same(
        render_player_panel(VIEWS["abs-start"]),
        render_player_panel(network("ABS", "#d55e00", 34000, 20, badges=("Best Network News",), panel_badge="BNN")),
    )


def test_every_figure_stays_inside_the_panel():
    image = render_player_panel(VIEWS["cba-rich"])
    lit_columns = [x for x in range(PANEL_WIDTH) if any(image.getpixel((x, y)) for y in range(20, 50))]
    assert lit_columns and min(lit_columns) > 0 and max(lit_columns) < PANEL_WIDTH - 1  # the balance is not clipped


def test_bank_redraws_only_changed_panels_and_shows_an_exit_screen():
    bank = PanelBank(3)
    draws = [0, 0, 0]
    for index, device in enumerate(bank.devices):
        original = device.display
        device.display = lambda image, i=index, o=original: (draws.__setitem__(i, draws[i] + 1), o(image))
    views = [VIEWS["abs-start"], VIEWS["cba-rich"], None]
    bank.show(views)
    assert bank.wait_idle()
    first = list(draws)
    bank.show([VIEWS["abs-start"], VIEWS["nbs-broke"], None])  # only the second panel changed
    assert bank.wait_idle()
    assert draws == [first[0], first[1] + 1, first[2]]
    _, frames = bank.frames()
    assert same(frames[1], render_player_panel(VIEWS["nbs-broke"]))
    bank.close()
    bank.close()
    _, frames = bank.frames()
    assert same(frames[0], render_player_panel(None, message="Companion\nstopped"))


def wait_for(what, condition, timeout=20.0):
    """Poll ``condition`` until it holds; fail naming ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.005)


def test_a_failing_panel_does_not_stop_the_others_and_is_tried_with_growing_delays(caplog):
    caplog.set_level("INFO", logger="companion.panels")
    bank = PanelBank(2, retry_first=0.02, retry_max=0.08, frame_retries=2)
    tries = []

    def broken(image):
        tries.append(time.monotonic())
        raise OSError(121, "Remote I/O error")

    working = bank.devices[0].display
    bank.devices[0].display = broken
    try:
        bank.show([VIEWS["abs-start"], VIEWS["cba-rich"]])
        wanted = render_player_panel(VIEWS["cba-rich"])
        wait_for("the second panel to draw", lambda: same(bank.frames()[1][1], wanted))
        wait_for("seven tries of the first", lambda: len(tries) >= 7)
        assert bank.degraded() == [0] and bank.trouble() == (1, "Panel 1 is not answering")
        gaps = [later - earlier for earlier, later in zip(tries[2:], tries[3:7])]
        # three tries at once (the frame and its two redraws), then 0.02, 0.04, 0.08, 0.08 s apart at least
        assert all(gap >= wanted * 0.99 for gap, wanted in zip(gaps, (0.02, 0.04, 0.08, 0.08))), gaps
        assert caplog.text.count("panel 1 failed") == 1  # logged once per failure run, not per retry
        bank.devices[0].display = working  # plugged back in
        wait_for("the first panel to draw", lambda: bank.degraded() == [])
        assert same(bank.frames()[1][0], render_player_panel(VIEWS["abs-start"]))
        assert bank.trouble() == (2, "")
    finally:
        bank.close()
    assert caplog.text.count("panel 1 failed") == 1 and caplog.text.count("panel 1 works again") == 1


def test_trouble_names_the_panels_not_answering_and_changes_only_when_that_set_does():
    bank = PanelBank(4, retry_first=0.01, retry_max=0.02)
    broken = set()
    for index, device in enumerate(bank.devices):

        def display(image, index=index, draw=device.display):
            if index in broken:
                raise OSError(121, "Remote I/O error")
            draw(image)

        device.display = display
    try:
        seen = []

        def settle(expected):
            wait_for(f"trouble {expected!r}", lambda: bank.trouble()[1] == expected)
            seen.append(bank.trouble())

        broken.update({0, 2})
        bank.show([VIEWS["abs-start"]] * 4)
        settle("Panels 1 and 3 are not answering")
        broken.add(3)
        bank.show([VIEWS["cba-rich"]] * 4)
        settle("Panels 1, 3 and 4 are not answering")
        broken.clear()
        settle("")
        assert bank.wait_idle(timeout=10)
        assert bank.trouble() == seen[-1]  # nothing changes once all answer
        versions = [version for version, _ in seen]
        assert versions == sorted(set(versions)) and versions[0] >= 1
    finally:
        bank.close()


def test_not_answering_text_counts_from_one():
    from hardware.panels import not_answering_text

    assert not_answering_text([2]) == "Panel 3 is not answering"
    assert not_answering_text([0, 3]) == "Panels 1 and 4 are not answering"
    assert not_answering_text([]) == ""


@pytest.mark.parametrize(
    "name, view, message",
    [
        ("turn-marker", network("PBC", "#cc79a7", 52000, 22, turn=True), ""),
        ("refusal", network("NBS", "#f0e442", 2000, 20), "Refused: NBS has $2,000, cannot pay $5,000"),
        ("exit", None, "Companion\nstopped"),
    ],
)
def test_generic_views_match_their_golden_pngs(name, view, message):
    assert_matches_golden(name, render_player_panel(view, message=message))


def test_a_flashed_message_shows_then_the_figures_come_back():
    bank = PanelBank(2)
    bank.show([VIEWS["abs-start"], VIEWS["cba-rich"]])
    assert bank.wait_idle()
    bank.flash(1, "Refused: no dice are asked for right now", seconds=0.3)
    assert bank.wait_idle()
    assert same(
        bank.frames()[1][1], render_player_panel(VIEWS["cba-rich"], message="Refused: no dice are asked for right now")
    )
    import time

    deadline = time.monotonic() + 3
    while time.monotonic() < deadline and not same(bank.frames()[1][1], render_player_panel(VIEWS["cba-rich"])):
        time.sleep(0.02)
    assert same(bank.frames()[1][1], render_player_panel(VIEWS["cba-rich"]))
    assert same(bank.frames()[1][0], render_player_panel(VIEWS["abs-start"]))
    bank.close()


@pytest.mark.parametrize("name", ["contestant", "reporter"])
def test_headline_never_overlaps_the_lines_under_it(name):
    """The big figure shrinks to leave room for the panel lines: a blank row separates them."""
    image = render_player_panel(VIEWS[name])
    lit_rows = [y for y in range(20, PANEL_HEIGHT) if any(image.getpixel((x, y)) for x in range(PANEL_WIDTH))]
    gaps = [y for y in range(lit_rows[0], lit_rows[-1]) if y not in lit_rows]
    assert gaps, "headline and lines run together"
    assert max(lit_rows) < PANEL_HEIGHT  # nothing drawn past the bottom edge


# -- private pages (peek, TV Wars 9.1) -------------------------------------------------------------------------


def test_a_private_page_shows_on_its_own_seat_only_and_ends_on_release():
    from hardware.panels import render_private_panel

    bank = PanelBank(2)
    try:
        views = [
            PlayerView("ABS", "#d55e00", 31_000, headline=f"${31_000:,}"),
            PlayerView("CBA", "#56b4e9", 28_000, headline=f"${28_000:,}"),
        ]
        bank.show(views)
        assert bank.wait_idle()
        lines = ["30: S30 S40 A50", "Star30 CC-31"]
        bank.show_private(0, "ABS PRIVATE", lines, seconds=30)
        assert bank.wait_idle() and bank.private_showing(0) and not bank.private_showing(1)
        _, frames = bank.frames()
        assert ImageChops.difference(frames[0], render_private_panel("ABS PRIVATE", lines)).getbbox() is None
        assert ImageChops.difference(frames[1], render_player_panel(views[1])).getbbox() is None
        bank.hide_private(0)
        assert bank.wait_idle() and not bank.private_showing(0)
        _, frames = bank.frames()
        assert ImageChops.difference(frames[0], render_player_panel(views[0])).getbbox() is None
    finally:
        bank.close()


def test_a_private_page_times_out_by_itself():
    bank = PanelBank(1)
    try:
        bank.show([PlayerView("ABS", "#d55e00", 31_000, headline=f"${31_000:,}")])
        bank.show_private(0, "ABS PRIVATE", ["secret"], seconds=0.2)
        assert bank.private_showing(0)
        import time

        time.sleep(0.3)
        assert not bank.private_showing(0)
        assert bank.wait_idle()
        _, frames = bank.frames()
        assert (
            ImageChops.difference(
                frames[0], render_player_panel(PlayerView("ABS", "#d55e00", 31_000, headline=f"${31_000:,}"))
            ).getbbox()
            is None
        )
    finally:
        bank.close()


def test_a_private_page_too_long_for_one_panel_shows_page_after_page_while_held(monkeypatch):
    """A network's eleven tiles with their ids need three pages of three lines (issue 18): each page has its number
    in the title and the bank shows them in turn, every ``PRIVATE_PAGE_SECONDS`` (shortened here), until hidden."""
    import hardware.panels as panels

    monkeypatch.setattr(panels, "PRIVATE_PAGE_SECONDS", 0.15)
    lines = ["30: P1 S30 P2 S40", "P3 A50 P4 A60", "P5 D20", "60: P6 D70 P7 O80", "P8 OSp P9 A10", "120: P11 S90"]
    pages = panels.render_private_pages("ABS PRIVATE", lines)
    assert len(pages) == 2 and panels.render_private_pages("ABS PRIVATE", lines[:3])[0] is not None
    assert len(panels.render_private_pages("ABS PRIVATE", lines[:3])) == 1
    assert ImageChops.difference(pages[0], pages[1]).getbbox() is not None
    bank = PanelBank(1)
    try:
        bank.show([PlayerView("ABS", "#d55e00", 31_000, headline=f"${31_000:,}")])
        bank.show_private(0, "ABS PRIVATE", lines, seconds=30)
        seen: set[int] = set()
        deadline = time.monotonic() + 10
        while len(seen) < 2 and time.monotonic() < deadline:  # a condition: both pages drawn, in turn
            frame = bank.frames()[1][0]
            seen |= {n for n, page in enumerate(pages) if ImageChops.difference(frame, page).getbbox() is None}
            time.sleep(0.01)
        assert seen == {0, 1}
        bank.hide_private(0)
        assert bank.wait_idle() and not bank.private_showing(0)
    finally:
        bank.close()


def test_a_private_page_too_long_for_the_panel_ends_in_an_ellipsis_inside_it():
    from hardware.panels import render_private_panel

    short = render_private_panel("ABS PRIVATE", ["one line"])
    long = render_private_panel("ABS PRIVATE", [f"line {n} with several words in it" for n in range(12)])
    assert short.size == long.size == (PANEL_WIDTH, PANEL_HEIGHT)
    assert ImageChops.difference(short, long).getbbox() is not None
    assert long.getpixel((1, 7)) in (1, 255) and long.getpixel((1, 30)) in (0,)  # inverse-video title bar


# -- the cached layers draw what drawing in one go would ------------------------------------------------------


def drawn_in_one_go(view: PlayerView, message: str = "") -> Image.Image:
    """The oracle: the panel drawn by the layers' own drawing functions, uncached (``__wrapped__``), each onto
    the same image in turn."""
    from companion.config import seat_shape
    from hardware import panels

    image = Image.new("1", (PANEL_WIDTH, PANEL_HEIGHT), 0)
    cells = panels.ZONES.line_cells(view, message)
    layers = []
    if not (message and cells == panels.ZONES.full_message):
        layers.append(panels._header_layer.__wrapped__(view.name, view.turn, view.panel_badge, seat_shape(view.colour)))
    if message:
        layers.append(panels._message_layer.__wrapped__(message))
    else:
        big, lines = panels._figure_and_lines(view)
        if big:
            layers.append(panels._figure_layer.__wrapped__(big))
        room = len(panels.ZONES.under_figure if big else panels.ZONES.without_figure)
        if lines:
            layers.append(panels._lines_layer.__wrapped__(tuple(panels.fit_lines(lines, room)), cells))
        elif view.tracks:
            text = f"{view.tracks[0].label} {view.tracks[0].value}"
            layers.append(panels._lines_layer.__wrapped__((text,), cells))
    for layer in layers:
        image.paste(1, (0, 0), layer)
    return image


words = st.text(st.sampled_from("ABCNPSWabcdeghilnorstuvy $,.-:0123456789\u2212"), min_size=1, max_size=24)
panel_views = st.builds(
    PlayerView,
    name=st.sampled_from(["ABS", "CBA", "PBC", "NBS", "Alice", "A very long player name"]),
    colour=st.sampled_from(["#fff", "#d55e00", "#56b4e9", "#f0e442", "#cc79a7"]),
    balance=st.one_of(st.none(), st.integers(-99_000, 9_999_000)),
    tracks=st.one_of(
        st.just(()),
        st.integers(0, 236).map(half_hours),
        st.integers(0, 9).map(lambda v: (Track("weapons", "Weapons", v, 0, 9),)),
    ),
    badges=st.sampled_from([(), ("Best Network News",)]),
    panel_badge=st.sampled_from(["", "BNN"]),
    turn=st.booleans(),
    headline=st.sampled_from(["", "Vitality 3", "12 pts", "$4M", "$31,000", "-$500"]),
    panel_lines=st.lists(words, max_size=3).map(tuple),
)


@settings(max_examples=150, deadline=None)
@given(panel_views, st.sampled_from(["", "Refused: ABS has $2,000, cannot pay $5,000"]))
def test_a_panel_from_cached_layers_is_the_picture_drawn_in_one_go(view, message):
    first = render_player_panel(view, message=message)
    assert same(first, drawn_in_one_go(view, message))
    first.paste(1, (0, 0, PANEL_WIDTH, PANEL_HEIGHT))  # the caller's image is its own ...
    assert same(render_player_panel(view, message=message), drawn_in_one_go(view, message))  # ... not the cache's


def test_wait_drawn_returns_once_the_worker_has_sent_the_latest_views():
    bank = PanelBank(2)
    try:
        for balance in range(31000, 31100, 10):
            bank.show(
                [
                    PlayerView("ABS", "#fff", balance, headline=f"${balance:,}"),
                    PlayerView("CBA", "#fff", 28000, headline=f"${28000:,}"),
                ]
            )
            assert bank.wait_drawn(timeout=30), "the worker did not finish within 30 s"
            _, frames = bank.frames()
            assert same(frames[0], render_player_panel(PlayerView("ABS", "#fff", balance, headline=f"${balance:,}")))
    finally:
        bank.close()


def test_wait_drawn_does_not_wait_for_a_panel_that_is_not_answering():
    bank = PanelBank(2, retry_first=60, retry_max=60)
    dead = bank.devices[1]
    dead.display = lambda image: (_ for _ in ()).throw(OSError(121, "Remote I/O error"))
    try:
        bank.show(
            [
                PlayerView("ABS", "#fff", 31000, headline=f"${31000:,}"),
                PlayerView("CBA", "#fff", 28000, headline=f"${28000:,}"),
            ]
        )
        assert bank.wait_drawn(timeout=30)  # panel 2 failed: it waits for its next try
        assert bank.degraded() == [1]
        bank.show(
            [
                PlayerView("ABS", "#fff", 34000, headline=f"${34000:,}"),
                PlayerView("CBA", "#fff", 25000, headline=f"${25000:,}"),
            ]
        )
        assert bank.wait_drawn(timeout=30)  # returns for panel 1 alone
        assert same(bank.frames()[1][0], render_player_panel(PlayerView("ABS", "#fff", 34000, headline=f"${34000:,}")))
    finally:
        bank.close()


def test_a_seat_card_carries_its_seats_shape():
    import ui.player_panels  # noqa: F401  (adds the seat mark's rule to the card's)
    from ui.widgets import PlayerCard

    card = PlayerCard(player_colour=[0xD5 / 255, 0x5E / 255, 0, 1])
    assert card.seat_shape == "circle"
    card.player_colour = [0xF0 / 255, 0xE4 / 255, 0x42 / 255, 1]
    assert card.seat_shape == "diamond"
    card.player_colour = [1, 1, 1, 1]
    assert card.seat_shape == ""
