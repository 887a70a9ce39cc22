"""Real-panel plumbing without hardware: luma.oled devices over a recording fake I²C bus that also models
what each SSD1306 behind a TCA9548A makes of its bytes, switched under one lock by two drawing threads; a
panel dead at boot, one unplugged while drawing, a bus failing one write in seven; the overlay layout and SPI;
only the changed part of a frame on the bus (modelled SSD1306 and SH1106 memories, bytes counted)."""

import random
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops, ImageDraw

from companion.config import parse_config
from companion.games import PlayerView
from hardware.panel_devices import LumaPanel, PanelUnavailable, SteadySerial, open_panels, page_bytes
from hardware.panels import PanelBank, render_player_panel

MUX = 0x70
NAMES = ("ABS", "CBA", "PBC", "NBS")


class FakeSsd1306:
    """One SSD1306's side of the bus: its command parser (the commands luma sends, with their argument
    counts), horizontal addressing over its 8 pages × 128 columns of memory, and whether it is switched on.
    A new one has lost its set-up, as a panel does when its power goes."""

    ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8D: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}

    def __init__(self):
        self.ram = bytearray(128 * 8)
        self.on = False
        self.columns, self.pages = (0, 127), (0, 7)
        self.column = self.page = 0

    def command(self, data):
        i = 0
        while i < len(data):
            op, args = data[i], data[i + 1 : i + 1 + self.ARGS.get(data[i], 0)]
            i += 1 + len(args)
            if op in (0xAE, 0xAF):
                self.on = op == 0xAF
            elif op == 0x21:
                self.columns, self.column = tuple(args), args[0]
            elif op == 0x22:
                self.pages, self.page = tuple(args), args[0]

    def data(self, data):
        for byte in data:
            self.ram[self.page * 128 + self.column] = byte
            self.column += 1
            if self.column > self.columns[1]:
                self.column = self.columns[0]
                self.page = self.page + 1 if self.page < self.pages[1] else self.pages[0]

    def image(self) -> Image.Image:
        image = Image.new("1", (128, 64), 0)
        for page in range(8):
            for x in range(128):
                byte = self.ram[page * 128 + x]
                for bit in range(8):
                    if byte >> bit & 1:
                        image.putpixel((x, page * 8 + bit), 1)
        return image


class FakeBus:
    """Records every I²C write with the multiplexer channel in force and the panel the writing thread
    meant to draw on (``bus.local.target``), and feeds it to that channel's :class:`FakeSsd1306`
    (``panels``). Writes fail with EREMOTEIO, as a NACK does, and change nothing: on ``fail_channel`` or a
    channel in ``dead``; at random with probability ``fail_rate`` (seeded ``rng``); or every
    ``fail_every``-th write. ``refused[channel]`` counts the failed writes."""

    def __init__(self, fail_channel=None, *, dead=(), fail_rate=0.0, seed=7, fail_every=0):
        self.channel = None
        self.writes = []  # (address, channel in force, target channel, number of bytes)
        self.local = threading.local()
        self.fail_channel = fail_channel
        self.dead = set(dead)
        self.fail_rate, self.rng, self.fail_every = fail_rate, random.Random(seed), fail_every
        self.count = 0
        self.refused: dict = {}
        self.panels: dict = {}
        self.lock = threading.Lock()

    def _fails(self) -> bool:
        self.count += 1
        return (
            (self.fail_channel is not None and self.channel == self.fail_channel)
            or self.channel in self.dead
            or (self.fail_rate and self.rng.random() < self.fail_rate)
            or bool(self.fail_every and self.count % self.fail_every == 0)
        )

    def write_byte(self, address, value):
        assert address == MUX
        with self.lock:
            if self.fail_rate and self.rng.random() < self.fail_rate:  # the multiplexer misses one too
                raise OSError(121, "Remote I/O error")
            self.channel = value.bit_length() - 1

    def write_i2c_block_data(self, address, register, data):
        with self.lock:
            if self._fails():
                self.refused[self.channel] = self.refused.get(self.channel, 0) + 1
                raise OSError(121, "Remote I/O error")
            self.writes.append((address, self.channel, getattr(self.local, "target", None), len(data)))
            panel = self.panels.setdefault(self.channel, FakeSsd1306())
            panel.command(data) if register == 0x00 else panel.data(data)

    def unplug(self, channel):
        """The panel's cable comes loose: it stops answering and loses its set-up and picture."""
        with self.lock:
            self.dead.add(channel)
            self.panels[channel] = FakeSsd1306()

    def plug(self, channel):
        with self.lock:
            self.dead.discard(channel)

    def shows(self, channel, image) -> bool:
        """Whether the panel on ``channel`` is switched on and showing ``image``."""
        with self.lock:
            panel = self.panels.get(channel)
            return panel is not None and panel.on and ImageChops.difference(panel.image(), image).getbbox() is None


def wait_for(what, condition, timeout=20.0):
    """Poll ``condition`` until it holds; fail naming ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.01)


def views(balance, turn=0):
    """One view per seat; ``turn`` moves the names round the seats (most of each picture changes)."""
    names = NAMES[turn % 4 :] + NAMES[: turn % 4]
    return [PlayerView(name, "#fff", balance + 1000 * seat) for seat, name in enumerate(names)]


def all_show(bus, wanted, channels=range(4)) -> bool:
    """Whether each of ``channels`` shows its player's panel for ``wanted`` (views, one per seat)."""
    return all(bus.shows(channel, render_player_panel(wanted[channel])) for channel in channels)


def switch_config(driver="ssd1306", **panels):
    return parse_config({"panels": {"driver": driver, "multiplexer": "switch", **panels}})


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106", "ssd1309"])
def test_each_driver_opens_four_panels_behind_the_multiplexer(driver):
    bus = FakeBus()
    devices = open_panels(switch_config(driver), open_bus=lambda number: bus)
    assert len(devices) == 4
    assert {channel for _, channel, _, _ in bus.writes} == {0, 1, 2, 3}  # each panel initialised on its channel


def test_every_multiplexed_write_follows_its_own_channel_switch_under_two_drawing_threads():
    bus = FakeBus()
    devices = open_panels(switch_config(), open_bus=lambda number: bus)
    bus.writes.clear()
    images = [render_player_panel(PlayerView(f"P{i}", "#ffffff", 1000 * i)) for i in range(4)]

    def draw(seats):
        for _ in range(25):
            for seat in seats:
                bus.local.target = seat
                devices[seat].display(images[seat])

    threads = [threading.Thread(target=draw, args=(seats,)) for seats in ((0, 1), (2, 3))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(bus.writes) > 100
    wrong = [w for w in bus.writes if w[1] != w[2]]
    assert wrong == [], f"{len(wrong)} writes went to another panel's channel"
    assert {w[2] for w in bus.writes} == {0, 1, 2, 3}


def test_a_full_frame_is_1024_data_bytes_plus_a_few_commands():
    bus = FakeBus()
    devices = open_panels(switch_config(), open_bus=lambda number: bus)
    bus.writes.clear()
    bus.local.target = 0
    devices[0].display(render_player_panel(PlayerView("ABS", "#fff", 31000)))
    data = sum(n for address, _, _, n in bus.writes if n > 6)
    assert data == 1024  # 128 × 64 pixels / 8


def test_only_a_bus_that_cannot_be_opened_fails_open_panels_and_it_is_named():
    def no_bus(number):
        raise FileNotFoundError(2, "No such file or directory", f"/dev/i2c-{number}")

    with pytest.raises(PanelUnavailable, match="I²C bus 1 of the panels' multiplexer cannot be opened.*i2c-1"):
        open_panels(switch_config(), open_bus=no_bus)
    overlay = parse_config(
        {
            "panels": {"driver": "ssd1306", "multiplexer": "overlay"},
            "players": [{"name": "ABS", "panel": {"bus": 11}}, {"name": "CBA", "panel": {"bus": 12}}],
        }
    )
    with pytest.raises(PanelUnavailable, match=r"ABS.s panel \(.* bus 11\) cannot be opened"):
        open_panels(overlay, open_bus=no_bus)


def test_a_panel_dead_at_boot_leaves_the_other_three_drawing_and_draws_its_latest_view_once_it_answers(caplog):
    caplog.set_level("INFO", logger="companion.panels")
    bus = FakeBus(dead={2})  # PBC's panel: nothing answers on channel 2
    devices = open_panels(switch_config(), open_bus=lambda number: bus)
    assert len(devices) == 4 and [d.answering for d in devices] == [True, True, False, True]
    assert "1 not answering yet" in caplog.text
    bank = PanelBank(devices=devices, retry_first=0.01, retry_max=0.04)
    try:
        first = views(31000)
        bank.show(first)
        wait_for("the three answering panels to draw", lambda: all_show(bus, first, (0, 1, 3)))
        wait_for("panel 3 to be reported", lambda: bank.degraded() == [2])
        assert bank.trouble() == (1, "Panel 3 is not answering")
        tried = bus.refused[2]
        wait_for("five more tries on panel 3", lambda: bus.refused[2] >= tried + 5 * 4)  # 4 writes a try
        latest = views(45000)  # the game goes on meanwhile
        bank.show(latest)
        wait_for("the others to draw the latest views", lambda: all_show(bus, latest, (0, 1, 3)))
        assert not bus.shows(2, render_player_panel(latest[2]))
        bus.plug(2)
        wait_for("panel 3 to start up and draw the latest view", lambda: all_show(bus, latest))
        wait_for("panel 3 to be reported back", lambda: bank.degraded() == [])
        assert bank.trouble() == (2, "")
    finally:
        bank.close()
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert len([w for w in warnings if w.startswith("panel 3 failed to draw")]) == 1, warnings  # not per try
    assert "PBC's panel (ssd1306 at 0x3C on multiplexer channel 2) is not answering" in warnings[0]
    assert caplog.text.count("panel 3 works again") == 1
    assert not [w for w in warnings if not w.startswith("panel 3")], warnings


def test_a_panel_unplugged_while_drawing_is_degraded_the_others_carry_on_and_it_starts_up_again():
    bus = FakeBus()
    devices = open_panels(switch_config(), open_bus=lambda number: bus)
    bank = PanelBank(devices=devices, retry_first=0.01, retry_max=0.04)
    try:
        bank.show(views(31000))
        wait_for("all four panels to draw", lambda: all_show(bus, views(31000)))
        bus.unplug(1)  # CBA's cable comes loose
        latest = views(28000)
        bank.show(latest)
        wait_for("CBA's panel to be reported", lambda: bank.degraded() == [1])
        wait_for("the others to draw", lambda: all_show(bus, latest, (0, 2, 3)))
        assert bank.trouble()[1] == "Panel 2 is not answering"
        bus.plug(1)  # plugged back in: set up again and drawn
        wait_for("CBA's panel to show the latest view", lambda: all_show(bus, latest))
        wait_for("CBA's panel to be reported back", lambda: bank.degraded() == [] and bank.trouble()[1] == "")
    finally:
        bank.close()


def test_a_bus_failing_one_write_in_seven_at_random_still_gets_every_panel_to_its_latest_view(caplog):
    caplog.set_level("INFO", logger="companion.panels")
    bus = FakeBus(fail_rate=1 / 7, seed=1234)
    devices = open_panels(switch_config(), open_bus=lambda number: bus)
    bank = PanelBank(devices=devices, retry_first=0.01, retry_max=0.04)
    try:
        for balance in range(30000, 36000, 1000):  # the game moves faster than the panels draw
            bank.show(views(balance))
        latest = views(35000)
        wait_for("every panel to show its latest view", lambda: all_show(bus, latest), timeout=60)
        wait_for("every panel to answer", lambda: bank.degraded() == [])
    finally:
        bank.close()
    assert sum(bus.refused.values()) > 50  # the bus really failed, often
    resent = sum(device.resent for device in devices)
    for number in range(1, 5):  # logged once per run of failures, not per retry
        starts = sum(r.getMessage().startswith(f"panel {number}: some writes fail") for r in caplog.records)
        ends = sum(r.getMessage().startswith(f"panel {number} writes cleanly again") for r in caplog.records)
        assert starts in (ends, ends + 1) and 1 <= starts < resent / 8, (number, starts, ends, resent)


def test_every_seventh_write_failing_is_logged_once_per_panel_and_never_reported_on_screen(caplog):
    caplog.set_level("INFO", logger="companion.panels")
    bus = FakeBus(fail_every=7)
    devices = open_panels(switch_config(), open_bus=lambda number: bus)
    bank = PanelBank(devices=devices, retry_first=0.01, retry_max=0.04)
    try:
        for turn, balance in enumerate((31000, 32000, 33000)):
            # names move round the seats: most of every panel changes, ≥ 7 writes each (only changes are sent)
            wanted = views(balance, turn)
            bank.show(wanted)
            wait_for(f"every panel to show ${balance:,}", lambda: all_show(bus, wanted))
        assert bank.trouble() == (0, "")  # every frame got through: nothing to tell the players
        bus.fail_every = 0  # the loose contact is fixed
        bank.show(views(34000))
        wait_for("every panel to show $34,000", lambda: all_show(bus, views(34000)))
        wait_for("all four to write cleanly", lambda: caplog.text.count("writes cleanly again") == 4)
    finally:
        bank.close()
    for number in range(1, 5):
        assert caplog.text.count(f"panel {number}: some writes fail") == 1
        assert caplog.text.count(f"panel {number} writes cleanly again") == 1
    assert "failed to draw" not in caplog.text


class ScheduledSerial:
    """A luma serial interface (``command``/``data``/``cleanup``) in front of a :class:`FakeSsd1306`
    whose calls numbered in ``failing`` (from 1) raise EREMOTEIO instead of arriving."""

    def __init__(self, failing):
        self.failing, self.calls, self.panel = set(failing), 0, FakeSsd1306()

    def _call(self):
        self.calls += 1
        if self.calls in self.failing:
            raise OSError(121, "Remote I/O error")

    def command(self, *cmd):
        self._call()
        self.panel.command(list(cmd))

    def data(self, data):
        self._call()
        self.panel.data(list(data))

    def cleanup(self):
        pass


def test_a_frame_failing_after_its_write_retries_is_redrawn_at_once_and_never_reported(caplog):
    from luma.oled.device import ssd1306

    serial = ScheduledSerial(())
    panel = LumaPanel("ABS's panel (test)", ssd1306, SteadySerial(serial, block=32), width=128, height=64)
    panel.open()
    start = serial.calls
    serial.failing = set(range(start + 5, start + 9))  # the 5th write of the next frame fails 4 times
    bank = PanelBank(devices=[panel], retry_first=5, retry_max=5)  # a growing delay would show
    try:
        bank.show([PlayerView("ABS", "#fff", 31000)])
        assert bank.wait_idle(timeout=10), "the frame was not redrawn at once"
        wanted = render_player_panel(PlayerView("ABS", "#fff", 31000))
        assert serial.panel.on and ImageChops.difference(serial.panel.image(), wanted).getbbox() is None
        assert bank.trouble() == (0, "") and panel.resent == 3
    finally:
        bank.close()
    assert "failed to draw" not in caplog.text and caplog.text.count("some writes fail") == 1


def test_overlay_layout_opens_each_panel_on_its_own_bus_without_switching():
    config = parse_config(
        {
            "panels": {"driver": "ssd1306", "multiplexer": "overlay"},
            "players": [{"name": "ABS", "panel": {"bus": 11}}, {"name": "CBA", "panel": {"bus": 12}}],
        }
    )
    buses = {}

    def open_bus(number):
        buses[number] = FakeBus()
        return buses[number]

    open_panels(config, open_bus=open_bus)
    assert sorted(buses) == [11, 12]
    assert all(bus.writes and bus.channel is None for bus in buses.values())


def test_spi_panels_use_their_chip_select_and_dc_pins():
    made = []

    class FakeSpi:
        def __init__(self, **kwargs):
            made.append(kwargs)
            self.sent = 0

        def command(self, *cmd):
            self.sent += len(cmd)

        def data(self, data):
            self.sent += len(data)

        def cleanup(self):
            pass

    config = parse_config(
        {
            "panels": {"driver": "sh1106", "interface": "spi"},
            "players": [
                {"name": "ABS", "panel": {"spi_device": 0, "dc": 24, "reset": 25}},
                {"name": "CBA", "panel": {"spi_device": 1, "dc": 24, "reset": 25}},
            ],
            "table_buttons": {},
        }
    )
    devices = open_panels(config, spi_factory=FakeSpi)
    assert [m["device"] for m in made] == [0, 1] and all(m["gpio_DC"] == 24 for m in made)
    assert len(devices) == 2


def test_emulated_panels_need_no_bus():
    devices = open_panels(parse_config({}), open_bus=lambda n: pytest.fail("no bus for emulated panels"))
    assert len(devices) == 4 and all(d.width == 128 and d.height == 64 for d in devices)


def test_the_self_test_names_a_panel_that_does_not_answer_and_passes_the_others(tmp_path):
    from hardware.selftest import check_panels

    bus = FakeBus(dead={2})
    checks = check_panels(
        switch_config(),
        simulate=False,
        out_dir=tmp_path,
        open_panels=lambda config, simulate: open_panels(config, open_bus=lambda number: bus),
    )
    assert [check.passed for check in checks] == [True, True, False, True]
    assert checks[2].part == "panel 3 (PBC)" and "is not answering" in checks[2].detail


# -- only the changed part of a frame crosses the bus ----------------------------------------------------------


class FakeSh1106:
    """One SH1106's side of the bus: page addressing over 8 pages × 132 columns (a 128-pixel module shows
    columns 2–129), the commands luma sends with their argument counts; ``image()`` is what the glass shows."""

    ARGS = {0x81: 1, 0x8D: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}

    def __init__(self, offset=2):
        self.ram = bytearray(132 * 8)
        self.on, self.page, self.column, self.offset = False, 0, 0, offset

    def command(self, data):
        i = 0
        while i < len(data):
            op = data[i]
            i += 1 + self.ARGS.get(op, 0)
            if op in (0xAE, 0xAF):
                self.on = op == 0xAF
            elif 0xB0 <= op <= 0xB7:
                self.page = op - 0xB0
            elif op <= 0x0F:
                self.column = self.column & 0xF0 | op
            elif op <= 0x1F:
                self.column = (op & 0x0F) << 4 | self.column & 0x0F

    def data(self, data):
        for byte in data:
            if self.column < 132:  # no wrap to the next page in page addressing
                self.ram[self.page * 132 + self.column] = byte
            self.column += 1

    def image(self) -> Image.Image:
        image = Image.new("1", (128, 64), 0)
        for page in range(8):
            for x in range(128):
                byte = self.ram[page * 132 + self.offset + x]
                for bit in range(8):
                    if byte >> bit & 1:
                        image.putpixel((x, page * 8 + bit), 1)
        return image


class RecordingSerial:
    """A luma serial interface (``command``/``data``/``cleanup``) that counts the bytes it is handed and feeds
    them to a modelled panel ``model`` (a :class:`FakeSsd1306` or :class:`FakeSh1106`)."""

    def __init__(self, model):
        self.model = model
        self.command_bytes = self.data_bytes = self.writes = 0

    def command(self, *cmd):
        self.command_bytes += len(cmd)
        self.writes += 1
        self.model.command(list(cmd))

    def data(self, data):
        self.data_bytes += len(data)
        self.writes += 1
        self.model.data(list(data))

    def reset(self):
        self.command_bytes = self.data_bytes = self.writes = 0

    def cleanup(self):
        pass


def luma_class(driver):
    from luma.oled import device

    return getattr(device, driver)


def real_panel(driver="ssd1306", rotate=0):
    """A started-up :class:`LumaPanel` of luma's ``driver`` on a :class:`RecordingSerial` with its model."""
    model = FakeSh1106() if driver == "sh1106" else FakeSsd1306()
    serial = RecordingSerial(model)
    panel = LumaPanel(f"a test {driver}", luma_class(driver), SteadySerial(serial), width=128, height=64, rotate=rotate)
    panel.open()
    serial.reset()
    return panel, serial


def on_glass(image, rotate):
    """What a panel mounted with ``rotate`` (luma's quarter turns clockwise) shows for ``image``."""
    return image.rotate(rotate * -90, expand=True) if rotate else image


frames = st.lists(
    st.lists(
        st.tuples(st.integers(0, 127), st.integers(0, 63), st.integers(1, 40), st.integers(1, 30), st.booleans()),
        max_size=4,
    ),
    min_size=1,
    max_size=6,
)


def drawn(shapes, base=None):
    image = base.copy() if base is not None else Image.new("1", (128, 64), 0)
    draw = ImageDraw.Draw(image)
    for x, y, w, h, lit in shapes:
        draw.rectangle((x, y, x + w, y + h), fill=1 if lit else 0)
    return image


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 127), st.integers(0, 63)), max_size=300))
def test_page_bytes_of_a_whole_frame_are_the_bytes_luma_itself_sends(pixels):
    image = Image.new("1", (128, 64), 0)
    for xy in pixels:
        image.putpixel(xy, 1)
    serial = RecordingSerial(FakeSsd1306())
    sent = []
    serial.data = lambda data: sent.extend(data)
    device = luma_class("ssd1306")(serial)
    sent.clear()
    device.display(image)
    assert bytes(sent) == page_bytes(image, (0, 0, 128, 64))


@pytest.mark.parametrize(
    "driver,rotate", [("ssd1306", 0), ("ssd1306", 2), ("sh1106", 0), ("sh1106", 2), ("ssd1309", 0)]
)
@settings(max_examples=25, deadline=None)
@given(steps=frames)
def test_after_every_partial_frame_the_panel_memory_shows_exactly_the_latest_picture(driver, rotate, steps):
    panel, serial = real_panel(driver, rotate)
    image = None
    for shapes in steps:  # each frame draws on the one before, as a changed figure does
        image = drawn(shapes, image)
        panel.display(image)
        assert serial.model.on
        assert ImageChops.difference(serial.model.image(), on_glass(image, rotate)).getbbox() is None


def cash_frames():
    before = render_player_panel(PlayerView("ABS", "#fff", 31000, badges=("Best Network News",)))
    after = render_player_panel(PlayerView("ABS", "#fff", 34000, badges=("Best Network News",)))
    return before, after


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_a_cash_change_sends_at_most_a_quarter_of_a_full_frame_and_an_unchanged_picture_nothing(driver):
    panel, serial = real_panel(driver)
    before, after = cash_frames()
    panel.display(before)  # the first frame after start-up goes whole
    full = serial.command_bytes + serial.data_bytes
    assert serial.data_bytes == 1024 and full >= 1024
    serial.reset()
    panel.display(after)  # On the Air: $31,000 → $34,000
    change = serial.command_bytes + serial.data_bytes
    assert 0 < change <= full / 4, f"a cash change sent {change} bytes of a {full}-byte frame"
    assert ImageChops.difference(serial.model.image(), after).getbbox() is None
    serial.reset()
    panel.display(after.copy())  # the same picture again
    assert (serial.data_bytes, serial.command_bytes) == (0, 0)


def test_a_failed_frame_makes_the_next_one_go_whole():
    panel, serial = real_panel()
    before, after = cash_frames()
    panel.display(before)
    broken = serial.model.data

    def fail(data):
        raise ValueError("a driver bug")  # not a NACK: the panel stays started up

    serial.model.data = fail
    with pytest.raises(ValueError):
        panel.display(after)
    serial.model.data = broken
    serial.reset()
    panel.display(after)
    assert serial.data_bytes == 1024  # what the panel shows was unknown: sent whole


def test_through_the_bank_a_cash_change_on_one_panel_crosses_the_bus_for_that_panel_only():
    bus = FakeBus()
    devices = open_panels(switch_config(), open_bus=lambda number: bus)
    bank = PanelBank(devices=devices)
    try:
        first = views(31000)
        bank.show(first)
        wait_for("all four panels to draw", lambda: all_show(bus, first))
        full = {channel: sum(n for _, ch, _, n in bus.writes if ch == channel) for channel in range(4)}
        bus.writes.clear()
        changed = [replace_balance(first[0], 34000)] + first[1:]
        bank.show(changed)
        wait_for("ABS's panel to show $34,000", lambda: all_show(bus, changed))
        assert bank.wait_idle()
        sent = {channel: sum(n for _, ch, _, n in bus.writes if ch == channel) for channel in range(4)}
        assert sent[1] == sent[2] == sent[3] == 0, sent
        assert 0 < sent[0] <= full[0] / 4, (sent, full)
    finally:
        bank.close()


def replace_balance(view, balance):
    from dataclasses import replace

    return replace(view, balance=balance)
