"""Leaving the kiosk on purpose, a part of :class:`ui.app.CompanionApp`: hold the two top corners together for
:data:`EXIT_HOLD` seconds, then confirm; or, where the screen reports one touch at a time (the desktop edition),
hold the top-left corner and type the exit PIN (config ``[kiosk] exit_pin``), locked for :data:`PIN_LOCKOUT`
seconds after :data:`PIN_TRIES` wrong ones. Either way the app closes through ``leave_kiosk``."""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

from kivy.clock import Clock
from kivy.core.window import Window
from kivy.metrics import dp

from ui.dialogs import ConfirmPopup, PinPopup

log = logging.getLogger("companion.ui")

#: Seconds both top corners must be held to offer leaving the kiosk.
EXIT_HOLD = 3.0
#: Wrong exit PINs allowed before the PIN exit locks, and for how many seconds it then stays locked.
PIN_TRIES = 3
PIN_LOCKOUT = 60.0


class ExitGestureMixin:
    """The exit gesture's part of the app; :meth:`_watch_corners` sets its state up."""

    controller: Any

    if TYPE_CHECKING:

        def leave_kiosk(self) -> None: ...

    def _watch_corners(self) -> None:
        """Start following the touches on the top corners (called once, when the window is built)."""
        self._corners: dict[int, str] = {}  # touch uid -> "left" / "right"
        self._corner_timer: Any = None
        self._pin_failures = 0
        self._pin_locked_until = 0.0
        Window.bind(on_touch_down=self._corner_down, on_touch_up=self._corner_up)

    def _corner_of(self, touch) -> str | None:
        size = dp(70)
        if touch.y < Window.height - size:
            return None
        return "left" if touch.x < size else "right" if touch.x > Window.width - size else None

    def _corner_down(self, window, touch):
        corner = self._corner_of(touch)
        if corner is not None:
            self._corners[touch.uid] = corner
            held = set(self._corners.values())
            if held == {"left", "right"}:
                self._cancel_corner_timer()
                self._corner_timer = Clock.schedule_once(self._corners_held, EXIT_HOLD)
            elif held == {"left"} and self.controller.config.exit_pin and self._corner_timer is None:
                self._corner_timer = Clock.schedule_once(self._pin_corner_held, EXIT_HOLD)
        return False

    def _corner_up(self, window, touch):
        if self._corners.pop(touch.uid, None) is not None:
            self._cancel_corner_timer()
        return False

    def _cancel_corner_timer(self) -> None:
        if self._corner_timer is not None:
            self._corner_timer.cancel()
            self._corner_timer = None

    def _pin_corner_held(self, dt) -> None:
        self._corner_timer = None
        if set(self._corners.values()) != {"left"}:
            return
        if time.monotonic() < self._pin_locked_until:
            left = int(self._pin_locked_until - time.monotonic()) + 1
            self.controller.say(f"Kiosk exit locked for {left} s after {PIN_TRIES} wrong PINs", refused=True)
            return
        popup = PinPopup(title="Type the exit PIN to leave the kiosk (the game is saved)")
        popup.on_result = lambda typed, p=popup: self._pin_typed(p, typed)
        self.controller.open_popup(popup)

    def _pin_typed(self, popup: PinPopup, typed: str) -> None:
        if typed == self.controller.config.exit_pin:
            popup.dismiss(animation=False)
            log.info("leaving the kiosk: exit PIN typed")
            self.leave_kiosk()
            return
        self._pin_failures += 1
        log.warning("wrong kiosk exit PIN (%d of %d)", self._pin_failures, PIN_TRIES)
        if self._pin_failures >= PIN_TRIES:
            self._pin_failures = 0
            self._pin_locked_until = time.monotonic() + PIN_LOCKOUT
            popup.dismiss(animation=False)
            self.controller.say(f"{PIN_TRIES} wrong PINs: kiosk exit locked for {int(PIN_LOCKOUT)} s", refused=True)
            return
        popup.typed, popup.problem = "", f"Wrong PIN ({PIN_TRIES - self._pin_failures} tries left)"

    def _corners_held(self, dt) -> None:
        self._corner_timer = None
        if set(self._corners.values()) != {"left", "right"}:
            return
        popup = ConfirmPopup(
            title="Leave the kiosk?",
            confirm_text="Leave",
            body="The companion closes and stays closed until the Pi restarts or someone "
            "starts it again. The game is saved.",
        )
        popup.on_confirm = self.leave_kiosk
        self.controller.open_popup(popup)
