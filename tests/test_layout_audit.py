"""The layout audit (issue 18, item 3): every screen and the dialogs of every game, in the real Kivy app (Xvfb),
at 800×480 landscape and at 480×800 portrait, checked for text that does not fit its box or is cut or
shortened with no way to see it whole, text under 18 px (key figures under 28 px), overlapping siblings and
widgets outside their parent or the screen (tests/kivy/layout_audit.py says exactly what each check is;
tests/kivy/drive_layout.py how the screens and dialogs are reached: a fixed start per game, then seeded taps).

Each orientation's run writes ``test-artifacts/layout-audit-<orientation>.json`` (every violation, and the
count of distinct ones per game) and screenshots ``layout-<orientation>-*.png``. A failure lists the distinct
violations: ``kind where widget: detail``.
"""

import json
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest
from kivy_driver import ARTIFACTS, keep_artifacts, run_driver

pytestmark = pytest.mark.kivy

ORIENTATIONS = {"landscape": "800x480", "portrait": "480x800"}
GAMES = ("tv-wars", "death-show-tv", "channel-won", "telly-time")


def signature(violation: dict) -> tuple:
    """A violation without its figures: the same widget breaking the same way in another state counts once."""
    widget = "".join("#" if c.isdigit() else c for c in violation["widget"])
    return (violation["kind"], violation["where"], widget)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Each orientation's driver result (``{orientation: result}``), or the failure ``run_driver`` raised."""

    def run(orientation):
        data_dir = tmp_path_factory.mktemp(f"data-{orientation}")
        out_dir = tmp_path_factory.mktemp(f"shots-{orientation}")
        try:
            result = run_driver(
                "drive_layout.py",
                data_dir,
                out_dir,
                timeout=420,
                env={"COMPANION_SCREEN_SIZE": ORIENTATIONS[orientation]},
                audit=False,  # the driver audits every view itself, its screenshots among them
            )
        except BaseException as failure:  # pytest.fail raises a BaseException
            return failure
        finally:
            keep_artifacts(out_dir, "layout-*.png")
        distinct = {game: sorted({signature(v) for v in result["violations"] if v["game"] == game}) for game in GAMES}
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / f"layout-audit-{orientation}.json").write_text(
            json.dumps(
                {
                    "distinct_per_game": {game: len(found) for game, found in distinct.items()},
                    "distinct": {game: [list(s) for s in found] for game, found in distinct.items()},
                    "audits": result["audits"],
                    "violations": result["violations"],
                },
                indent=1,
            )
        )
        return result

    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(ORIENTATIONS, pool.map(run, ORIENTATIONS)))


def _report(result, game) -> str:
    found = [v for v in result["violations"] if v["game"] == game]
    first = {}
    for violation in found:
        first.setdefault(signature(violation), violation)
    kinds = Counter(s[0] for s in first)
    lines = [f"{game} {result['orientation']}: {len(first)} distinct violation(s) {dict(kinds)}"]
    lines += [
        f"{v['kind']} {v['where']} {v['widget']}: {v['detail']} (at {v['at']})" for v in list(first.values())[:40]
    ]
    return "\n".join(lines)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("orientation", ORIENTATIONS)
def test_every_screen_and_dialog_passes_the_layout_audit(runs, orientation, game):
    result = runs[orientation]
    if isinstance(result, BaseException):
        raise result
    assert result["audits"].get(game, 0) >= 40, result["audits"]  # the game was played and looked at
    assert not [v for v in result["violations"] if v["game"] == game], _report(result, game)
