"""The touchscreen self-test dialog: panel patterns, then every button in turn, then the readers, with a report
saved next to the journal (:mod:`hardware.selftest` does the checks). Layout in ``ui/kv/dialogs.kv``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kivy.clock import Clock
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.popup import Popup

if TYPE_CHECKING:
    from ui.controller import TableController


class SelfTestPopup(Popup):
    """The touchscreen self-test: panel patterns, then every button in turn (presses are captured, nothing
    reaches the game), then a report saved next to the journal."""

    prompt = StringProperty("")
    countdown = StringProperty("")
    report = StringProperty("")
    done = BooleanProperty(False)
    #: Seconds to wait for each button.
    timeout = 10

    def start(self, controller: TableController) -> None:
        """Show the panel patterns and ask for the first button."""
        from hardware.selftest import Check, buttons_in_order, panel_test_pattern

        self.controller, self.checks = controller, []
        self._Check = Check
        config = controller.config
        self.pending = list(buttons_in_order(config)) if controller.buttons is not None else []
        if controller.panels is not None:
            patterns = [panel_test_pattern(seat.name, n) for n, seat in enumerate(config.seats, start=1)]
            controller.panels.show_images(patterns, seconds=self.timeout * (len(self.pending) + 1))
            self.checks += [
                Check(f"panel {n} ({seat.name})", True, "pattern sent; check it by eye")
                for n, seat in enumerate(config.seats, start=1)
            ]
        if controller.buttons is None:
            self.checks.append(Check("buttons", False, "no usable GPIO backend (see the message on Home)"))
        else:
            controller.buttons.capture = lambda seat, button, action: Clock.schedule_once(
                lambda dt: self._pressed(seat, button, action)
            )
        self._tick = Clock.schedule_interval(self._count_down, 1)
        self._next()

    def _next(self) -> None:
        self._show_report()
        if not self.pending:
            self.finish()
            return
        self.current = self.pending.pop(0)
        self.wrong: list[str] = []
        seat, button, label = self.current
        where = f"GPIO {button.pin}" if button.pin is not None else f"key {button.key}"
        key = f", key {button.key}" if self.controller.buttons is not None and button.key and button.pin else ""
        self.prompt = f"Press {label} ({where}{key})"
        self.remaining = self.timeout
        self.countdown = f"{self.remaining} s"

    def _count_down(self, dt) -> None:
        if self.done:
            return
        self.remaining -= 1
        self.countdown = f"{max(0, self.remaining)} s"
        if self.remaining <= 0:
            seat, button, label = self.current
            self.checks.append(self._Check(f"button {label}", False, f"no press within {self.timeout} s"))
            self._next()

    def _pressed(self, seat, button, action) -> None:
        if self.done:
            return
        expected_seat, expected, label = self.current
        if (seat, button) != (expected_seat, expected):  # noted; the test keeps waiting for this one
            who = "table" if seat is None else self.controller.config.seats[seat].name
            self.wrong.append(f"{who} {button.action.replace('_', ' ')}")
            self.countdown = f"That was {self.wrong[-1]}; still waiting for {label}"
            return
        noted = f"also pressed: {', '.join(self.wrong)}" if self.wrong else ""
        self.checks.append(self._Check(f"button {label}", True, noted))
        self._next()

    def skip(self) -> None:
        """Skip the button being asked for."""
        self.checks.append(self._Check(f"button {self.current[2]}", None, "skipped at the touchscreen"))
        self._next()

    def _show_report(self) -> None:
        self.report = "\n".join(check.line() for check in self.checks)

    def finish(self, close: bool = False) -> None:
        """Stop listening, save the report and show its summary (``close`` also closes the dialog)."""
        if not self.done:
            from hardware.selftest import check_readers, save_report

            self.done = True
            self._tick.cancel()
            if self.controller.buttons is not None:
                self.controller.buttons.capture = None
            if self.controller.panels is not None:
                self.controller.panels.show_images([], 0)
            readers = self.controller.readers
            if readers is not None and readers.statuses():
                self.checks += [self._Check("reader", status.connected, status.text) for status in readers.statuses()]
            else:
                self.checks += check_readers(self.controller.config)
            self._show_report()
            try:
                path, summary = save_report(self.checks, self.controller.table.journal.path.parent)
                self.prompt, self.countdown = f"Self-test: {summary}", f"Report saved to {path}"
            except OSError as error:
                self.prompt, self.countdown = "Self-test finished", f"The report could not be saved: {error}"
        if close:
            self.dismiss(animation=False)
