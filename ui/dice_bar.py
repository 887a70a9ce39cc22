"""The dice bar's logic, a part of :class:`ui.controller.TableController`: the built-in dice, manual entry, and the
dice readers' rolls held in the tray (the purple bar: use or discard the oldest), with the readers' status."""

from __future__ import annotations

from companion.commands import RollDice
from companion.errors import DiceError
from ui.controller_part import ControllerPart
from ui.dialogs import DicePopup


class DiceMixin(ControllerPart):
    """The dice bar's part of the controller (its state is set up by the controller's ``__init__``)."""

    def _reader_status_changed(self) -> None:
        statuses = self.readers.statuses() if self.readers is not None else []
        self.reader_status = self.readers.status_text() if self.readers is not None else ""
        self.reader_trouble = any(not status.connected for status in statuses)

    def _show_held(self) -> None:
        """The purple bar: the oldest held reader roll, described against what is asked for now."""
        held = self.tray.held if self.tray is not None else ()
        if not held:
            self.held_text, self.held_confirm = "", False
            return
        view = self.table.view()
        request = view.pending_dice if view else None
        match = self.tray.matcher.match(request, held[0].values)
        more = f" (+{len(held) - 1} more held)" if len(held) > 1 else ""
        if self.tray.dropped:
            more += f" ({self.tray.dropped} older rolls dropped: at most {self.tray.capacity} are held)"
        self.held_text = match.reason + more
        self.held_confirm = match.decision.value == "confirm"
        self.held_usable = match.decision.value == "answer"

    def use_held(self) -> None:
        """Use the oldest held reader roll for the dice being asked for."""
        held = self.tray.held
        view = self.table.view()
        request = view.pending_dice if view else None
        try:
            if not held:
                return
            if request is None:
                raise DiceError("no dice are asked for right now: keep the roll or discard it")
            self.post(self.tray.assign(held[0].id, request))
        except DiceError as error:
            self.message, self.message_refused = f"Refused: {error}", True
        self._show_held()

    def discard_held(self) -> None:
        """Forget the oldest held reader roll."""
        held = self.tray.held
        if held:
            self.tray.discard(held[0].id)
            self.message, self.message_refused = f"Discarded the reader's roll {held[0].values}", False
        self._show_held()

    def roll_into_reader(self) -> None:
        """Simulator: roll dice into the simulated dice reader's tray (as many as are asked for, else 2)."""
        if self.config.dice_mode == "manual":  # the user chose dice by hand: a reader's roll would not be wanted
            self.message, self.message_refused = (
                "The dice mode is manual: the simulated dice reader is off; roll at the table and enter the dice "
                "on the touchscreen (Enter dice) (table rule)",
                True,
            )
            return
        if self.readers is None:
            return
        view = self.table.view()
        request = view.pending_dice if view else None
        if self.readers.simulator is None:
            self.message, self.message_refused = "There is no simulated dice reader: a real one is configured", True
            return
        faces = self.readers.simulate_roll(request.count if request else 2)
        if faces is None:
            self.message, self.message_refused = "The simulated dice reader is not ready yet", True

    def roll(self) -> None:
        """Answer the pending dice request with the built-in dice."""
        if self.dice_roller:
            self.post(RollDice(roller=self.dice_roller))

    def open_dice(self) -> None:
        """Enter physical dice by hand for the pending request."""
        view = self.table.view()
        request = view.pending_dice if view is not None else None
        if request is None:
            return
        popup = DicePopup(request_text=request.describe())
        popup.fill(self, request.roller, request.count, request.sides)
        self.open_popup(popup)
