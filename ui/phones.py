"""Phones on the touchscreen and the seat panels (the web front-end, issue 20): a seat's pairing QR code on its own
OLED panel after a long press of its ``long = "pair"`` button, and the Phones dialog that shows a seat's QR code on
the touchscreen on request and revokes a seat's link. Display only: nothing here posts a command (a revocation
changes the web front-end's tokens, not the game)."""

from __future__ import annotations

import logging

from kivy.graphics.texture import Texture
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.image import Image
from kivy.uix.label import Label
from kivy.uix.popup import Popup

log = logging.getLogger("companion.ui")

#: Seconds a pairing QR code stays on a seat's panel (a press of any of its buttons is taken as usual meanwhile).
PANEL_QR_SECONDS = 60.0


def show_pairing_on_panel(controller, seat: int, player: str) -> None:
    """Show ``player``'s pairing QR code on ``seat``'s own panel for :data:`PANEL_QR_SECONDS` (UI thread)."""
    web, panels = controller.web, controller.panels
    if web is None or panels is None or controller.table.session is None:
        return
    from hardware.panels import render_qr_panel
    from web.qr import qr_matrix

    try:
        image = render_qr_panel(player, ["Scan to", "pair your", "phone"], qr_matrix(web.seat_link(player)))
    except (KeyError, ValueError) as error:
        log.warning("no pairing code for %s: %s", player, error)
        panels.flash(seat, "No phone link")
        return
    panels.show_private_image(seat, image, PANEL_QR_SECONDS)


def qr_texture(matrix, scale: int = 8, quiet: int = 4) -> Texture:
    """A Kivy texture of the QR code ``matrix`` (``True`` dark): ``scale`` px a module, ``quiet`` modules of light
    border, nearest-neighbour so it stays sharp."""
    size = len(matrix) + 2 * quiet
    rows = []
    for y in range(size - 1, -1, -1):  # Kivy textures start at the bottom row
        row = bytearray()
        for x in range(size):
            inside = quiet <= x < size - quiet and quiet <= y < size - quiet
            dark = inside and matrix[y - quiet][x - quiet]
            row += (b"\x00" if dark else b"\xff") * scale
        rows.append(bytes(row) * scale)
    texture = Texture.create(size=(size * scale, size * scale), colorfmt="luminance")
    texture.blit_buffer(b"".join(rows), colorfmt="luminance", bufferfmt="ubyte")
    texture.mag_filter = texture.min_filter = "nearest"
    return texture


class PhonesPopup(Popup):
    """The Phones dialog: a button per seat; tapping one shows its pairing QR code and link here, with Revoke
    (the phone holding the link loses the seat, and the next QR code carries a new one)."""

    def __init__(self, controller, **kwargs) -> None:
        super().__init__(title="Phones: pair a seat", size_hint=(0.9, 0.92), auto_dismiss=True, **kwargs)
        self.controller = controller
        self.seat: str | None = None
        root = BoxLayout(orientation="vertical", spacing=dp(6), padding=dp(6))
        seats = BoxLayout(size_hint_y=None, height=dp(50), spacing=dp(6))
        view = controller.table.view()
        for player in view.players if view else ():
            button = Button(text=player.name, font_size="18sp")
            button.bind(on_release=lambda b, name=player.name: self.show_seat(name))
            seats.add_widget(button)
        root.add_widget(seats)
        self.image = Image(fit_mode="contain")
        root.add_widget(self.image)
        self.words = Label(
            text="Tap a seat to show its QR code. Or long-press the seat's first button: the code shows on its panel.",
            size_hint_y=None,
            height=dp(48),
            font_size="18sp",
        )
        self.words.bind(width=lambda label, width: setattr(label, "text_size", (width, None)))
        # a long link (or the revoked seat's two sentences) wraps to more lines: the QR code gives way
        self.words.bind(texture_size=lambda label, size: setattr(label, "height", max(dp(48), size[1] + dp(4))))
        root.add_widget(self.words)
        bar = BoxLayout(size_hint_y=None, height=dp(50), spacing=dp(6))
        self.revoke_button = Button(text="Revoke this seat's phone", disabled=True)
        self.revoke_button.bind(on_release=lambda b: self.revoke())
        close = Button(text="Close")
        close.bind(on_release=lambda b: self.dismiss(animation=False))
        bar.add_widget(self.revoke_button)
        bar.add_widget(close)
        root.add_widget(bar)
        self.content = root

    def show_seat(self, name: str) -> None:
        """Show ``name``'s QR code and link."""
        from web.qr import qr_matrix

        self.seat = name
        link = self.controller.web.seat_link(name)
        self.image.texture = qr_texture(qr_matrix(link))
        self.words.text = f"{name}: scan with the phone's camera ({self.controller.web.base_url})"
        self.revoke_button.disabled = False

    def revoke(self) -> None:
        """Revoke the shown seat's link and show its new one."""
        if self.seat is None:
            return
        self.controller.web.revoke(self.seat)
        log.info("the phone link of %s was revoked on the touchscreen", self.seat)
        self.show_seat(self.seat)
        self.words.text = f"{self.seat}: the old link no longer works; this is the new one. " + self.words.text
