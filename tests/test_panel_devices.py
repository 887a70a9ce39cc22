"""Real-panel plumbing without hardware: luma.oled devices over a recording fake I²C bus, a TCA9548A switched
under one lock by two drawing threads, a bus that fails on one panel, the overlay layout and SPI."""

import threading

import pytest
from PIL import Image

from companion.config import parse_config
from companion.games import PlayerView
from hardware.panel_devices import PanelUnavailable, open_panels
from hardware.panels import PanelBank, render_player_panel

MUX = 0x70


class FakeBus:
    """Records every I²C write with the multiplexer channel in force and the panel the writing thread
    meant to draw on (``bus.local.target``). ``fail_channel`` makes writes on that channel raise EREMOTEIO."""

    def __init__(self, fail_channel=None):
        self.channel = None
        self.writes = []          # (address, channel in force, target channel, number of bytes)
        self.local = threading.local()
        self.fail_channel = fail_channel
        self.lock = threading.Lock()

    def write_byte(self, address, value):
        assert address == MUX
        self.channel = value.bit_length() - 1

    def write_i2c_block_data(self, address, register, data):
        if self.fail_channel is not None and self.channel == self.fail_channel:
            raise OSError(121, "Remote I/O error")
        with self.lock:
            self.writes.append((address, self.channel, getattr(self.local, "target", None), len(data)))


def switch_config(driver="ssd1306", **panels):
    return parse_config({"panels": {"driver": driver, "multiplexer": "switch", **panels}})


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106", "ssd1309"])
def test_each_driver_opens_four_panels_behind_the_multiplexer(driver):
    bus = FakeBus()
    devices = open_panels(switch_config(driver), open_bus=lambda number: bus)
    assert len(devices) == 4
    assert {channel for _, channel, _, _ in bus.writes} == {0, 1, 2, 3}     # each panel initialised on its channel


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
    assert data == 1024                                   # 128 × 64 pixels / 8


def test_a_panel_failing_at_start_up_is_named():
    bus = FakeBus(fail_channel=2)
    with pytest.raises(PanelUnavailable, match="PBC's panel .* channel 2"):
        open_panels(switch_config(), open_bus=lambda number: bus)


def test_a_panel_failing_while_drawing_is_degraded_and_the_others_carry_on():
    bus = FakeBus()
    devices = open_panels(switch_config(), open_bus=lambda number: bus)
    bus.fail_channel = 1                                  # CBA's cable comes loose
    bank = PanelBank(devices=devices)
    views = [PlayerView(name, "#fff", 31000) for name in ("ABS", "CBA", "PBC", "NBS")]
    bank.show(views)
    import time
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline and (bank.degraded() != [1] or bank.frames()[0] < 3):
        time.sleep(0.02)
    assert bank.degraded() == [1]
    drawn = {channel for _, channel, _, n in bus.writes if n > 6}
    assert {0, 2, 3} <= drawn
    bus.fail_channel = None                               # plugged back in: it recovers by itself
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and bank.degraded():
        time.sleep(0.05)
    assert bank.degraded() == []
    bank.close()


def test_overlay_layout_opens_each_panel_on_its_own_bus_without_switching():
    config = parse_config({"panels": {"driver": "ssd1306", "multiplexer": "overlay"},
                           "players": [{"name": "ABS", "panel": {"bus": 11}}, {"name": "CBA", "panel": {"bus": 12}}]})
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

    config = parse_config({"panels": {"driver": "sh1106", "interface": "spi"},
                           "players": [{"name": "ABS", "panel": {"spi_device": 0, "dc": 24, "reset": 25}},
                                       {"name": "CBA", "panel": {"spi_device": 1, "dc": 24, "reset": 25}}],
                           "table_buttons": {}})
    devices = open_panels(config, spi_factory=FakeSpi)
    assert [m["device"] for m in made] == [0, 1] and all(m["gpio_DC"] == 24 for m in made)
    assert len(devices) == 2


def test_emulated_panels_need_no_bus():
    devices = open_panels(parse_config({}), open_bus=lambda n: pytest.fail("no bus for emulated panels"))
    assert len(devices) == 4 and all(d.width == 128 and d.height == 64 for d in devices)
