"""``companion selftest``: walk through every panel, button and reader and report what works.

Each panel shows a test pattern with its seat's name (emulated panels are also saved as PNGs); each button
is asked for in turn and must arrive through the real chain (pin → debounce → command); each configured
reader is pinged. The report is printed and saved as ``selftest-<time>.txt`` in the data directory.

On the simulator (``--sim`` or no Pi) the buttons are driven from the keyboard: type the key shown and
Enter. When standard input is not a terminal (CI, scripts) the simulator presses each button itself on its
mock pin, so the whole chain still runs.
"""

from __future__ import annotations

import io
import logging
import queue
import select
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from PIL import Image, ImageDraw

from companion.commands import Command
from companion.config import ButtonConfig, Config
from hardware.panels import PANEL_HEIGHT, PANEL_WIDTH, panel_font

log = logging.getLogger("companion.selftest")


@dataclass(frozen=True)
class Check:
    """One line of the report: ``part`` (e.g. ``"panel 2 (CBA)"``), ``passed`` (``None`` = skipped), ``detail``."""

    part: str
    passed: bool | None
    detail: str = ""

    def line(self) -> str:
        mark = {True: "PASS", False: "FAIL", None: "SKIP"}[self.passed]
        return f"{mark}  {self.part}" + (f": {self.detail}" if self.detail else "")


def panel_test_pattern(name: str, number: int) -> Image.Image:
    """A 128×64 pattern: a border (every edge pixel lit), a checkerboard strip, the seat's name and number."""
    image = Image.new("1", (PANEL_WIDTH, PANEL_HEIGHT), 0)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, PANEL_WIDTH - 1, PANEL_HEIGHT - 1), outline=1)
    for x in range(2, PANEL_WIDTH - 2, 4):
        for y in range(2, 14, 4):
            if (x // 4 + y // 4) % 2 == 0:
                draw.rectangle((x, y, x + 3, y + 3), fill=1)
    text = f"{number}: {name}"
    font = panel_font(18)
    draw.text(((PANEL_WIDTH - draw.textlength(text, font=font)) / 2, 22), text, font=font, fill=1)
    draw.text((6, 46), "panel self-test", font=panel_font(12), fill=1)
    return image


def check_panels(config: Config, *, simulate: bool, out_dir: Path, open_panels: Callable | None = None) -> list[Check]:
    """Open the panels and draw each one's test pattern; save emulated ones as PNGs in ``out_dir``."""
    from hardware.panel_devices import open_panels as default_open

    try:
        devices = (open_panels or default_open)(config, simulate=simulate)
    except Exception as error:
        return [Check("panels", False, str(error))]
    checks = []
    for number, (seat, device) in enumerate(zip(config.seats, devices), start=1):
        try:
            pattern = panel_test_pattern(seat.name, number)
            device.display(pattern)
            detail = "test pattern shown"
            if hasattr(device, "image") and device.image is not None:
                out_dir.mkdir(parents=True, exist_ok=True)
                path = out_dir / f"selftest-panel-{number}.png"
                pattern.resize((PANEL_WIDTH * 4, PANEL_HEIGHT * 4), Image.Resampling.NEAREST).save(path)
                detail = f"emulated; pattern saved to {path}"
            checks.append(Check(f"panel {number} ({seat.name})", True, detail))
        except Exception as error:
            checks.append(Check(f"panel {number} ({seat.name})", False, str(error)))
    return checks


def buttons_in_order(config: Config) -> list[tuple[int | None, ButtonConfig, str]]:
    """Every configured button as ``(seat index or None for a table button, button, label)``, in asking order."""
    named = [
        (index, button, f"{seat.name} {button.action.replace('_', ' ')}")
        for index, seat in enumerate(config.seats)
        for button in seat.buttons
    ]
    return named + [(None, button, f"table {button.action}") for button in config.table_buttons]


def check_buttons(
    config: Config, *, simulate: bool, timeout: float, stdin: TextIO, stdout: TextIO, interactive: bool
) -> list[Check]:
    """Ask for each button in turn; a press must arrive through pin, debounce and the command mapping."""
    from hardware.buttons import ButtonBoard

    arrived: queue.Queue[tuple[str, str]] = queue.Queue()

    def post(command) -> None:
        arrived.put(
            (command.player, command.action) if isinstance(command, _PlayerPress) else ("table", type(command).__name__)
        )

    try:
        board = ButtonBoard(
            config, post, lambda action, player: _PlayerPress(player=player, action=action), simulate=simulate
        )
    except Exception as error:
        return [Check("buttons", False, str(error))]
    board.seat_players([seat.name for seat in config.seats])
    checks = []
    try:
        for seat, button, label in buttons_in_order(config):
            where = f"GPIO {button.pin}" if button.pin is not None else "no pin"
            if button.pin is None and button.key is None:
                checks.append(Check(f"button {label}", None, "neither pin nor key configured"))
                continue
            expected = (
                (config.seats[seat].name, button.action)
                if seat is not None
                else ("table", "Undo" if button.action == "undo" else "Redo")
            )
            while not arrived.empty():
                arrived.get_nowait()
            typing = simulate and interactive and button.key is not None
            if simulate and not interactive:
                board.key_down(button.key) if button.key else board.factory.pin(button.pin).drive_low()
                time.sleep(config.bounce_time * 3 + 0.05)
                board.key_up(button.key) if button.key else board.factory.pin(button.pin).drive_high()
            else:
                hint = f" (type '{button.key}' and Enter)" if typing else ""
                print(f"Press {label} [{where}]{hint} within {timeout:.0f} s …", file=stdout, flush=True)
            # Wait for this button until the deadline; other presses are noted, not counted against it.
            deadline, wrong, passed = time.monotonic() + timeout, [], False
            while not passed and (remaining := deadline - time.monotonic()) > 0:
                if typing and _line_ready(stdin, min(remaining, 0.2)):
                    typed = stdin.readline().strip()
                    if typed:
                        board.key_down(typed)
                        time.sleep(config.bounce_time * 3 + 0.05)
                        board.key_up(typed)
                try:
                    got = arrived.get(timeout=min(max(remaining, 0.01), 0.2))
                except queue.Empty:
                    continue
                if got == expected:
                    passed = True
                else:
                    wrong.append(f"{got[0]} {got[1].replace('_', ' ').lower()}")
                    print(f"  that was {wrong[-1]}; still waiting for {label}", file=stdout, flush=True)
            noted = f" (also pressed: {', '.join(wrong)})" if wrong else ""
            checks.append(
                Check(
                    f"button {label}",
                    passed,
                    where + noted if passed else f"no press on {where} within {timeout:.0f} s{noted}",
                )
            )
    finally:
        board.close()
    return checks


def _line_ready(stdin: TextIO, seconds: float) -> bool:
    """Whether a line can be read from ``stdin`` within ``seconds`` (a terminal is polled, never blocked on)."""
    try:
        return bool(select.select([stdin], [], [], seconds)[0])
    except (ValueError, OSError, TypeError, io.UnsupportedOperation):
        time.sleep(seconds)  # not a real file (tests): read what is there
        return True


@dataclass(frozen=True, kw_only=True)
class _PlayerPress(Command):
    """Stands for a player's command in the self-test (nothing reaches a table)."""

    player: str
    action: str


def check_readers(config: Config, timeout: float = 6.0) -> list[Check]:
    """Open each configured serial reader, wait for its HELLO and its answer to a PING (``firmware_bridge``);
    results it sends meanwhile are left unacknowledged, so the self-test never takes a roll from the game."""
    if not config.readers:
        return [Check("readers", None, "no serial readers are configured")]
    from firmware_bridge.reader import ReaderSpec, probe_reader

    checks = []
    for index, raw in enumerate(config.readers):
        try:
            spec = ReaderSpec.from_mapping(raw, f"readers[{index}]", config.source)
            status, _ = probe_reader(spec, timeout)
            checks.append(Check(f"reader {spec.label}", status.connected, status.text))
        except Exception as error:
            checks.append(Check(f"reader {index + 1}", False, str(error)))
    return checks


def run(
    *,
    config: Config,
    simulate: bool,
    data_dir: Path,
    timeout: float = 10.0,
    stdin: TextIO = sys.stdin,
    stdout: TextIO = sys.stdout,
) -> int:
    """Run every check, print and save the report; return 0 if nothing failed, else 1."""
    from hardware.pins import backend_for, board_model

    model = board_model()
    simulate = simulate or not model
    interactive = stdin.isatty()
    backend = "mock" if simulate else backend_for(config.pin_factory, model)
    print(
        f"Self-test on {model or 'a desktop (simulator)'}: GPIO backend {backend}, "
        f"panels {config.panel_driver if not simulate else 'emulated'}",
        file=stdout,
        flush=True,
    )
    checks = check_panels(config, simulate=simulate, out_dir=data_dir)
    checks += check_buttons(
        config, simulate=simulate, timeout=timeout, stdin=stdin, stdout=stdout, interactive=interactive
    )
    checks += check_readers(config)
    path, summary = save_report(checks, data_dir)
    print("\n".join(check.line() for check in checks), file=stdout)
    print(f"Self-test: {summary}. Report saved to {path}", file=stdout, flush=True)
    return 1 if any(check.passed is False for check in checks) else 0


def summarize(checks: list[Check]) -> str:
    """``"18 passed, 0 failed, 1 skipped"``."""
    return (
        f"{sum(c.passed is True for c in checks)} passed, {sum(c.passed is False for c in checks)} failed, "
        f"{sum(c.passed is None for c in checks)} skipped"
    )


def save_report(checks: list[Check], data_dir: Path) -> tuple[Path, str]:
    """Write the report as ``selftest-<time>.txt`` in ``data_dir``; return its path and the summary line."""
    summary = summarize(checks)
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / f"selftest-{time.strftime('%Y%m%d-%H%M%S')}.txt"
    path.write_text("\n".join(check.line() for check in checks) + f"\n{summary}\n", encoding="utf-8")
    return path, summary
