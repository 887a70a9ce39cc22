"""The app's own dialogs: the whole message, a confirmation, the exit PIN pad and manual dice entry. Layouts in
``ui/kv/dialogs.kv``. A dialog posts commands through the controller; it never changes game state itself. A game's
own dialogs live with its board (``ui/games/<game>/``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.popup import Popup
from kivy.uix.togglebutton import ToggleButton

from companion.commands import AnswerDice
from ui.wrap import WordBreaks

if TYPE_CHECKING:
    pass


class ChoiceButton(WordBreaks, ToggleButton):
    """One of a dialog's choices (a toggle in its ``group``; ``ui/kv/dialogs.kv``): its text wraps in the button,
    a long hyphenated or slashed word at its hyphen or slash ("Action/" / "Adventure" on a portrait screen)."""


class MessagePopup(Popup):
    """The whole of the message bar's text, one clause ("; "-separated event) per line."""

    message = StringProperty("")


class ConfirmPopup(Popup):
    """Asks before a jump-back; ``on_confirm`` runs on the confirm button."""

    body = StringProperty("")
    confirm_text = StringProperty("Yes")
    on_confirm = ObjectProperty(None)

    def confirm(self) -> None:
        """Run the confirmed action and close."""
        self.dismiss(animation=False)
        if self.on_confirm:
            self.on_confirm()


class PinPopup(Popup):
    """The exit PIN pad (config ``[kiosk] exit_pin``): digits show as dots; the right PIN leaves the kiosk.
    ``on_result(correct)`` is called with whether the typed PIN matched when OK is tapped."""

    typed = StringProperty("")
    problem = StringProperty("")
    on_result = ObjectProperty(None)

    def press_key(self, key: str) -> None:
        """A key of the pad: a digit, ``C`` (clear) or ``OK``."""
        if key == "C":
            self.typed, self.problem = "", ""
        elif key == "OK":
            if self.on_result:
                self.on_result(self.typed)
        elif key.isdigit() and len(self.typed) < 8:
            self.typed += key
            self.problem = ""


class DicePopup(Popup):
    """Manual entry of physical dice for the pending request."""

    request_text = StringProperty("")
    total_text = StringProperty("")
    ready = BooleanProperty(False)

    def fill(self, controller: Any, roller: str, count: int, sides: int) -> None:
        """One row of face buttons per die."""
        from kivy.factory import Factory

        self.controller, self.roller = controller, roller
        self.values = [0] * count
        for die in range(count):
            row = BoxLayout(spacing=4)
            for face in range(1, sides + 1):
                button = Factory.ChoiceButton(text=str(face), group=f"die{die}", font_size="28sp")
                button.bind(on_release=lambda b, d=die, f=face: self._set(d, f, b))
                row.add_widget(button)
            self.ids.dice_box.add_widget(row)
        self._update()

    def _set(self, die: int, face: int, button) -> None:
        self.values[die] = face if button.state == "down" else 0
        self._update()

    def _update(self) -> None:
        chosen = [v for v in self.values if v]
        self.ready = len(chosen) == len(self.values)
        if not self.ready:
            self.total_text = f"Tap {len(self.values) - len(chosen)} more"
            return
        self.total_text = "Record " + "+".join(map(str, chosen)) + (f" = {sum(chosen)}" if len(chosen) > 1 else "")

    def submit(self) -> None:
        """Post the values (the table refuses an incomplete roll with a clear message)."""
        self.controller.post(AnswerDice(roller=self.roller, values=tuple(v for v in self.values if v), source="manual"))
        self.dismiss(animation=False)


def confine_dialogs(bottom: int, size: tuple[int, int]) -> None:
    """Draw every dialog inside the touchscreen area only: ``size`` ``(width, height)`` pixels whose bottom edge
    is ``bottom`` pixels above the window's (the simulator's window has its panel strip below the touchscreen,
    which no dialog may cover, so the simulator shows exactly what the 800×480 screen does). A dialog's
    ``size_hint`` is taken of that area, it is centred on it and its dimming covers only it. Call once, before
    any dialog opens; the kiosk (a window the touchscreen's size) needs none of it."""
    from kivy.graphics import Color, Rectangle
    from kivy.uix.modalview import ModalView

    width, height = size
    centre = (width / 2, bottom + height / 2)
    window_open = ModalView.open

    def fit(view) -> None:
        # the window sizes a child with a size hint from its own size again whenever the child's size or pos
        # changes: the hinted size becomes the dialog's fixed size, taken of the touchscreen area
        hint_x, hint_y = view.size_hint
        size = list(view.size)
        if hint_x is not None:
            size[0] = _clamp(hint_x * width, view.size_hint_min_x, view.size_hint_max_x)
        if hint_y is not None:
            size[1] = _clamp(hint_y * height, view.size_hint_min_y, view.size_hint_max_y)
        view.size_hint = (None, None)
        view.size = (min(size[0], width), min(size[1], height))
        view.center = centre

    def dim_screen_only(view) -> None:
        # Kivy's own dimming covers the whole window (strip too): it is turned off, and the dialog dims the
        # touchscreen area itself, under its own drawing
        if getattr(view, "_screen_dimming", None) is None:
            rgba = list(view.overlay_color)
            view.overlay_color = (0, 0, 0, 0)
            with view.canvas.before:
                Color(*rgba)
                view._screen_dimming = Rectangle(pos=(0, bottom), size=(width, height))

    def open_on_screen(view, *args, **kwargs):
        dim_screen_only(view)
        window_open(view, *args, **kwargs)
        fit(view)

    def _align_center(view, *_args):  # the name ModalView binds the window's on_resize to
        if view._is_open:
            view.center = centre

    ModalView.open = open_on_screen
    ModalView._align_center = _align_center


def _clamp(value: float, low: float | None, high: float | None) -> float:
    if low is not None and value < low:
        return low
    if high is not None and value > high:
        return high
    return value
