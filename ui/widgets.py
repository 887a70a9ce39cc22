"""The app's own widgets and screens. They declare properties; the layouts in ``ui/kv`` place them."""

from __future__ import annotations

from kivy.app import App
from kivy.graphics.texture import Texture
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.screenmanager import Screen
from kivy.uix.togglebutton import ToggleButton

from ui.dialogs import MessagePopup


class MessageBar(BoxLayout):
    """One line saying what the last command did, red when it was refused. A line too long for the bar
        says "more"; a tap opens the whole message, one clause per line (a round's scoring, a combat). The status
    bar (what the table waits for) and the held-roll bar are bars of this kind too, in their own ``tint``."""

    text = StringProperty("")
    refused = BooleanProperty(False)
    #: The bar's colour when it is not a refusal (RGBA); empty: the message bar's green.
    tint = ListProperty([])

    def on_touch_up(self, touch):
        if self.collide_point(*touch.pos) and self.text and touch.grab_current is None:
            App.get_running_app().controller.open_popup(MessagePopup(message=self.text))
            return True
        return super().on_touch_up(touch)


class PlayerCard(BoxLayout):
    """One player's public figures on the generic dashboard (a game without a board of its own): the big figure
    (the balance, else the view's headline), the panel lines or tracks and badges, and one button per seat
    button slot of the game, labelled as the game names it (:class:`companion.game.ButtonSlot`)."""

    player_name = StringProperty("")
    player_colour = ListProperty([1, 1, 1, 1])
    balance_text = StringProperty("")
    detail_text = StringProperty("")


class GameChoice(ToggleButton):
    """One registered game on the home screen; the chosen one is what the New game buttons start."""

    game = StringProperty("")


class HistoryRow(Button):
    """One history entry; tapping it asks whether to go back to right after it."""

    seq = NumericProperty(0)
    in_force = BooleanProperty(True)
    label = StringProperty("")


class HistoryMoreRow(Button):
    """The last row of the history while older entries are not loaded: tapping it loads a page more."""


class HomeScreen(Screen):
    """New game (as many seats as the chosen game takes) and the saved games."""

    game_title = StringProperty("")


class DashboardScreen(Screen):
    """Every player's balance and tracks in big type, the pending dice, undo/redo."""


class HistoryScreen(Screen):
    """The history, newest first, with undo, redo and jump-back. Its rows are read only while it is shown, a
    page at a time (:class:`companion.history.HistoryWindow`); the last row loads the next older page."""


class SimulatorStrip(BoxLayout):
    """The emulated OLED panels (luma dummy devices) and the keyboard help, below the touchscreen."""

    key_help = StringProperty("")


def oled_texture(frame, colour: str) -> Texture:
    """A 1-bit panel frame as a Kivy texture, lit pixels in a pale tint of the player's colour, scaled ×2."""
    from PIL import Image, ImageOps

    tint = tuple(int(colour[i : i + 2], 16) // 2 + 127 for i in (1, 3, 5)) if colour.startswith("#") else (255,) * 3
    image = ImageOps.colorize(frame.convert("L"), black=(0, 0, 0), white=tint)
    image = image.resize((frame.width * 2, frame.height * 2), Image.Resampling.NEAREST)
    image = image.transpose(Image.Transpose.FLIP_TOP_BOTTOM)
    texture = Texture.create(size=image.size, colorfmt="rgb")
    texture.mag_filter = "nearest"
    texture.blit_buffer(image.tobytes(), colorfmt="rgb", bufferfmt="ubyte")
    return texture
