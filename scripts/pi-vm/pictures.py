"""Pictures for the pi-vm test without third-party packages on the host: PPM in, PNG out, simple statistics,
and the decoder that rebuilds the OLED panels from the I²C bytes the kernel traced.

The decoder follows what the kiosk sends on I²C bus 1 (wiring.md): a one-byte write to the TCA9548A at 0x70
selects the channel mask; a write to a panel (0x3C) starts with a control byte, 0x00 (commands follow) or
0x40 (display data follows). SH1106: 0xB0+page sets the page, 0x00-0x0F / 0x10-0x1F the column's low and high
nibbles; data bytes go to (page, column), column + 1 each. The panel is 128 of the SH1106's 132 columns from
column 2 (luma's sh1106 writes from column 2). SSD1306/SSD1309 (luma): horizontal addressing, 0x21 c0 c1 and
0x22 p0 p1 set the window, data fills it row of pages by row. One byte is 8 vertical pixels, bit 0 on top.
"""

from __future__ import annotations

import re
import struct
import zlib

WIDTH, HEIGHT = 128, 64


def read_ppm(path: str) -> tuple[int, int, bytes]:
    """(width, height, RGB bytes) of a binary PPM (P6, maxval 255), as QEMU's screendump writes it."""
    with open(path, "rb") as f:
        data = f.read()
    fields = re.match(rb"P6\s+(?:#[^\n]*\n\s*)*(\d+)\s+(\d+)\s+(\d+)\s", data)
    if not fields:
        raise ValueError(f"{path} is not a binary PPM")
    width, height, maxval = (int(x) for x in fields.groups())
    if maxval != 255:
        raise ValueError(f"{path}: maxval {maxval}, expected 255")
    pixels = data[fields.end() : fields.end() + width * height * 3]
    return width, height, pixels


def write_png(path: str, width: int, height: int, rows: list[bytes], colour: bool) -> None:
    """Write a PNG: ``rows`` of RGB bytes (``colour``) or of grey bytes."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + row for row in rows)
    header = struct.pack(">IIBBBBB", width, height, 8, 2 if colour else 0, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(
            b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b"")
        )


def ppm_to_png(ppm: str, png: str) -> dict:
    """Convert a screendump to PNG; return its statistics (see :func:`screen_stats`)."""
    width, height, pixels = read_ppm(ppm)
    write_png(png, width, height, [pixels[y * width * 3 : (y + 1) * width * 3] for y in range(height)], True)
    return screen_stats(width, height, pixels)


def screen_stats(width: int, height: int, pixels: bytes) -> dict:
    """What the screen shows, roughly: the share of pure black pixels, of "console" pixels (black or the
    VGA text greys 0xAA/0x55/0xFF, equal channels), of coloured pixels (channels differ by more than 60),
    the number of distinct colours (to 4 bits a channel), and a 16x10 thumbnail of mean brightness."""
    total = width * height
    black = console = coloured = 0
    distinct = set()
    cells = [[0, 0] for _ in range(160)]
    for i in range(0, len(pixels), 3):
        r, g, b = pixels[i], pixels[i + 1], pixels[i + 2]
        if r == g == b:
            if r == 0:
                black += 1
                console += 1
            elif r in (0x55, 0xAA, 0xFF):
                console += 1
        if max(r, g, b) - min(r, g, b) > 60:
            coloured += 1
        distinct.add((r >> 4, g >> 4, b >> 4))
        p = i // 3
        cell = (p // width) * 10 // height * 16 + (p % width) * 16 // width
        cells[cell][0] += r + g + b
        cells[cell][1] += 3
    return {
        "size": [width, height],
        "black": round(black / total, 4),
        "console_like": round(console / total, 4),
        "coloured": round(coloured / total, 4),
        "colours": len(distinct),
        "thumbnail": [round(s / n) if n else 0 for s, n in cells],
    }


def thumb_difference(a: dict, b: dict) -> float:
    """Mean absolute brightness difference of two screens' thumbnails (0-255)."""
    return sum(abs(x - y) for x, y in zip(a["thumbnail"], b["thumbnail"])) / len(a["thumbnail"])


# -- the I²C decoder --------------------------------------------------------------------------------------------
_LINE = re.compile(r"i2c_write:.*?\baddr=((?:0x)?[0-9a-fA-F]+).*?\blen=((?:0x)?[0-9a-fA-F]+).*?\bbuf=(.*)$")


def parse_trace(text: str) -> list[tuple[int, bytes]]:
    """The (address, bytes) of every I²C write in ``trace-cmd report -R`` output, in order: lines like
    ``i2c_write: adapter_nr=1 msg_nr=0 addr=03c flags=0200 len=2 buf=ARRAY[00, ae]`` (the raw buffer may also
    come as plain hex digits)."""
    writes = []
    for line in text.splitlines():
        match = _LINE.search(line)
        if not match:
            continue
        # trace-cmd prints the address in hex without 0x ("addr=03c") and the length in decimal
        address = int(match.group(1).removeprefix("0x"), 16)
        length = int(match.group(2), 16 if match.group(2).startswith("0x") else 10)
        buf = match.group(3).strip()
        if buf.startswith("ARRAY["):
            data = bytes(int(x, 16) for x in re.findall(r"[0-9a-fA-F]{1,2}", buf[6 : buf.rindex("]")]))
        else:
            data = bytes.fromhex(re.sub(r"[^0-9a-fA-F]", "", buf))
        writes.append((address, data[:length]))
    return writes


class Panel:
    """One panel's controller RAM as rebuilt from the bytes sent to it."""

    def __init__(self) -> None:
        self.ram = [[0] * 132 for _ in range(8)]
        self.page = self.column = 0
        self.window = None  # SSD1306 (c0, c1, p0, p1) once 0x21/0x22 are seen
        self.frames = 0  # data writes that reached the last page's last column
        self.pending: list[int] = []  # a multi-byte command still waiting for its arguments

    def command(self, data: bytes) -> None:
        i = 0
        while i < len(data):
            c = data[i]
            if c == 0x21 and i + 2 < len(data):
                self.window = [
                    data[i + 1],
                    data[i + 2],
                    self.window[2] if self.window else 0,
                    self.window[3] if self.window else 7,
                ]
                self.column = data[i + 1]
                i += 3
                continue
            if c == 0x22 and i + 2 < len(data):
                if self.window is None:
                    self.window = [0, 127, 0, 7]
                self.window[2], self.window[3] = data[i + 1], data[i + 2]
                self.page = data[i + 1]
                i += 3
                continue
            if c in (0x81, 0xA8, 0xD3, 0xD5, 0xD9, 0xDA, 0xDB, 0x8D, 0xAD, 0x20, 0xD6):
                i += 2  # a command with one argument byte
                continue
            if 0xB0 <= c <= 0xB7:
                self.page = c - 0xB0
            elif c <= 0x0F:
                self.column = (self.column & 0xF0) | c
            elif 0x10 <= c <= 0x1F:
                self.column = (self.column & 0x0F) | ((c & 0x0F) << 4)
            i += 1

    def data(self, data: bytes) -> None:
        for byte in data:
            if self.page < 8 and self.column < 132:
                self.ram[self.page][self.column] = byte
            self.column += 1
            if self.window is not None and self.column > self.window[1]:
                self.column = self.window[0]
                self.page += 1
                if self.page > self.window[3]:
                    self.page = self.window[2]
                    self.frames += 1

    def picture(self, offset: int) -> list[int]:
        """64 rows of 128-bit integers (left pixel = most significant bit), from column ``offset``."""
        rows = []
        for y in range(HEIGHT):
            page, bit = divmod(y, 8)
            value = 0
            for x in range(WIDTH):
                value = value << 1 | (self.ram[page][x + offset] >> bit & 1)
            rows.append(value)
        return rows


def decode(writes: list[tuple[int, bytes]], mux: int = 0x70, panel_address: int = 0x3C) -> dict:
    """Replay the writes; return {channel: Panel} for every multiplexer channel a panel was written on, and
    the count of writes per kind (``stats``)."""
    channel = None
    panels: dict[int, Panel] = {}
    stats = {"mux": 0, "command": 0, "data": 0, "other": 0}
    for address, data in writes:
        if address == mux and len(data) == 1:
            mask = data[0]
            channel = mask.bit_length() - 1 if mask and mask & (mask - 1) == 0 else None
            stats["mux"] += 1
        elif address == panel_address and data and channel is not None:
            panel = panels.setdefault(channel, Panel())
            if data[0] == 0x00:
                panel.command(data[1:])
                stats["command"] += 1
            elif data[0] == 0x40:
                panel.data(data[1:])
                stats["data"] += 1
            else:
                stats["other"] += 1
        else:
            stats["other"] += 1
    return {"panels": panels, "stats": stats}


def rows_png(path: str, rows: list[int], scale: int = 4) -> None:
    """A 128x64 one-bit picture (rows of 128-bit integers) as a PNG, each pixel ``scale`` x ``scale``."""
    out = []
    for value in rows:
        line = bytes(255 if value >> (WIDTH - 1 - x) & 1 else 0 for x in range(WIDTH) for _ in range(scale))
        out.extend([line] * scale)
    write_png(path, WIDTH * scale, HEIGHT * scale, out, False)


def diff_png(path: str, got: list[int], wanted: list[int], scale: int = 4) -> int:
    """A PNG of two pictures' difference (red: only in ``got``, green: only in ``wanted``); the number of
    differing pixels."""
    out, differing = [], 0
    for a, b in zip(got, wanted):
        line = bytearray()
        for x in range(WIDTH):
            bit = WIDTH - 1 - x
            p, q = a >> bit & 1, b >> bit & 1
            differing += p != q
            pixel = (255, 0, 0) if p and not q else (0, 255, 0) if q and not p else (90, 90, 90) if p else (0, 0, 0)
            line += bytes(pixel) * scale
        out.extend([bytes(line)] * scale)
    write_png(path, WIDTH * scale, HEIGHT * scale, out, True)
    return differing
