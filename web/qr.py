"""A seat's pairing link as a QR code (segno, pure Python), for its 128x64 OLED panel and the touchscreen.

The link (``HTTP://192.168.1.20:8080/S/<26-character token>``, :meth:`web.WebFrontEnd.seat_link`) is all QR
alphanumeric characters, so it is a version-3 code (29 x 29 modules) at error correction M: at 2 px a module it is
58 px, which leaves a 3 px light quiet zone on the panel's 64 rows. A longer link (a host name) gets a larger
version; :func:`module_size` says how many pixels a module gets then.
"""

from __future__ import annotations


def qr_matrix(text: str) -> list[list[bool]]:
    """The QR code of ``text`` as rows of modules, ``True`` for a dark module, without a quiet zone. Error
    correction M (15 % of the code may be unreadable), the smallest version that holds ``text``."""
    import segno

    code = segno.make(text, error="m", micro=False, boost_error=False)
    return [[bool(module) for module in row] for row in code.matrix_iter(scale=1, border=0)]


def qr_version(text: str) -> int:
    """The QR version :func:`qr_matrix` uses for ``text`` (1-40)."""
    import segno

    version = segno.make(text, error="m", micro=False, boost_error=False).version
    assert isinstance(version, int)
    return version


def module_size(modules: int, room: int = 64, quiet: int = 4) -> int:
    """Pixels per module for a code ``modules`` wide on ``room`` pixels, keeping ``quiet`` pixels of quiet zone
    (2 for a version-3 code on a 64-pixel panel; 1 for a version 4 to 12; 0 when it does not fit)."""
    return max(0, (room - quiet) // modules)
