"""Long words break at their hyphens and slashes, not mid-letter (ui/wrap.py's ``breakable``): the rule as a pure
function, with a monospaced measure (one pixel per character). The real labels are checked on the screen by the
layout audit's ``split`` check (tests/kivy/layout_audit.py) in every driver's screenshots."""

from __future__ import annotations

import os
import re

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")

from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from ui.wrap import MARKUP_TAG, breakable, visible  # noqa: E402


def mono(text: str, bold: bool = False, size: float | None = None) -> float:
    """One px a character; a bold character 1.5 px, a character in [size=N] N/10 px (to see the markup counted)."""
    return len(text) * (1.5 if bold else 1) * ((size or 10) / 10)


def words(text: str) -> list[str]:
    return [visible(word) for word in text.split() if visible(word)]


def test_the_rulebook_term_breaks_at_its_hyphen_only_when_it_does_not_fit():
    assert breakable("90 - 10 [Counter-Programming]", 21, mono) == "90 - 10 [Counter-Programming]"
    assert breakable("90 - 10 [Counter-Programming]", 20, mono) == "90 - 10 [Counter- Programming]"
    assert breakable("Action/Adventure", 12, mono) == "Action/ Adventure"


def test_the_head_runs_to_the_last_break_that_fits():
    assert breakable("a-b-c-d-e-f", 6, mono) == "a-b-c- d-e-f"
    assert breakable("/tmp/data/selftest-20261203.txt", 12, mono) == "/tmp/data/ selftest- 20261203.txt"


def test_a_word_without_a_hyphen_or_a_line_without_a_width_is_left_alone():
    assert breakable("Programming", 5, mono) == "Programming"
    assert breakable("Counter-Programming", None, mono) == "Counter-Programming"


def test_markup_is_kept_whole_and_measured_as_drawn():
    # [/b] has a slash and [size=24] a width of its own: neither is a break, and the tags are not measured
    assert breakable("[b]DIE-NASTY[/b]", 14, mono) == "[b]DIE-NASTY[/b]"  # 9 characters in bold: 13.5 px
    assert breakable("[b]DIE-NASTY[/b]", 13, mono) == "[b]DIE- NASTY[/b]"
    assert breakable("DIE-NASTY", 9, mono) == "DIE-NASTY"
    assert breakable("[size=20]Lead-In[/size]", 13, mono) == "[size=20]Lead- In[/size]"  # 7 at 2 px each
    assert breakable("[size=20]Lead-In[/size] Lead-In", 13, mono) == "[size=20]Lead- In[/size] Lead-In"


_TEXT = st.text(alphabet="ab-/ \n[]", max_size=40) | st.lists(
    st.sampled_from(["[b]", "[/b]", "[i]", "[/i]", "Counter-Programming", "Action/Adventure", "a", "-", " ", "\n"]),
    max_size=12,
).map("".join)


@given(_TEXT, st.integers(min_value=1, max_value=30))
def test_only_spaces_after_hyphens_and_slashes_are_added(text, width):
    out = breakable(text, width, mono)
    added = re.sub(r"(?<=[-/]) ", "", out)
    assert len(out) >= len(text)
    assert added == re.sub(r"(?<=[-/]) ", "", text)  # take the added spaces away: the text as it was
    assert MARKUP_TAG.findall(out) == MARKUP_TAG.findall(text)  # every tag whole


@given(_TEXT, st.integers(min_value=1, max_value=30))
def test_every_word_fits_when_its_pieces_can(text, width):
    """Where each stretch between breaks fits the line, no word of the result is wider than the line."""
    pieces = [piece for word in words(text) for piece in re.split(r"(?<=[-/])", word) if piece]
    out = breakable(text, width, mono)
    if all(mono(piece) <= width for piece in pieces):
        assert all(mono(word) <= width for word in words(out)), out
    assert breakable(out, width, mono) == out  # applied twice: nothing more to do
