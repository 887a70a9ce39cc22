"""The table configuration: one TOML file, checked completely before anything starts.

A broken config raises :class:`companion.errors.ConfigError` naming the file, the key and what is
wrong. With no file at all, :func:`default_config` gives a working simulator set-up: four seats
(ABS, CBA, PBC, NBS, the rulebook's networks), keyboard keys for each seat's buttons, emulated panels
and built-in dice.

Example file (every key optional)::

    [table]
    game = "tv-wars"             # a registered game name (companion games)
    data_dir = "/var/lib/companion"

    [dice]
    mode = "built-in"            # built-in | manual | reader
    seed = 1234                  # built-in dice only; omit for a random seed

    [hardware]
    pin_factory = "auto"         # auto | mock | lgpio | rpigpio
    bounce_time = 0.03           # seconds a switch must be steady to count (debounce)
    hold_time = 0.8              # seconds held for a long press (buttons with a `long` action)

    [panels]
    driver = "emulated"          # emulated (ssd1306 | sh1106 | ssd1309 are accepted; real panels are a later issue)

    [table_buttons]
    undo = { pin = 5, key = "backspace" }
    redo = { pin = 6, key = "=" }

    [[players]]
    name = "ABS"
    colour = "#e53935"
    buttons.on_the_air = {pin = 17, key = "q"}
    buttons.sponsor = {pin = 27, key = "w"}
    buttons.roll = {pin = 22, key = "e", long = "peek"}
    # long = "peek": holding the button shows the player's private figures on their own panel

    [[readers]]                  # serial dice/tile readers (firmware_bridge/PROTOCOL.md), found by identity
    kind = "dice"
    path = "/dev/serial/by-id/usb-Tabletop_Companion_Dice_E6614103E7452D2F-if00"

    [house_rules]                # passed to the game as options
    roll_off = true

    [kiosk]
    exit_pin = "2580"            # optional: hold the top-left corner 3 s, then type this PIN to leave
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.checks import is_whole
from companion.errors import CompanionError, ConfigError

#: What each player button does (the adapters map these to commands).
PLAYER_ACTIONS = ("on_the_air", "sponsor", "roll")
#: What each table button does.
TABLE_ACTIONS = ("undo", "redo")
#: What a player button's long press (``long``) may do: a player action, or ``"peek"``: show that player's
#: private figures (a game's secret values) on their own panel while the button is held. Peek
#: is display only: it posts no command.
PEEK = "peek"
PLAYER_LONG_ACTIONS = PLAYER_ACTIONS + (PEEK,)
DICE_MODES = ("built-in", "manual", "reader")
PIN_FACTORIES = ("auto", "mock", "lgpio", "rpigpio")
PANEL_DRIVERS = ("emulated", "ssd1306", "sh1106", "ssd1309")
PANEL_INTERFACES = ("i2c", "spi")
#: none: panels straight on their buses; switch: a TCA9548A whose channel the companion selects before each
#: write; overlay: the kernel's i2c-mux overlay gives each channel its own bus.
MULTIPLEXERS = ("none", "switch", "overlay")
NAMED_COLOURS = {
    "red": "#e53935",
    "blue": "#1e88e5",
    "green": "#43a047",
    "yellow": "#fdd835",
    "white": "#ffffff",
    "orange": "#fb8c00",
    "purple": "#8e24aa",
    "cyan": "#00acc1",
}
#: Keys a simulator button may use: one letter/digit/punctuation, or a named key.
NAMED_KEYS = ("backspace", "enter", "spacebar", "tab", "escape", "up", "down", "left", "right")
_HEX_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
_BCM_PINS = range(2, 28)


@dataclass(frozen=True)
class ButtonConfig:
    """One button: ``action`` (see :data:`PLAYER_ACTIONS` / :data:`TABLE_ACTIONS`), its BCM GPIO ``pin``
    (2–27, or ``None`` for touch/keyboard only), the simulator keyboard ``key``, and ``long``: the action
    of a long press (held ``hardware.hold_time`` seconds), or ``None`` when the button has none."""

    action: str
    pin: int | None
    key: str | None
    long: str | None = None


@dataclass(frozen=True)
class PanelConfig:
    """Where one seat's 128×64 OLED panel is connected (see ``wiring.md``).

    I²C: ``bus`` (the Linux I²C bus number; with the kernel's i2c-mux overlay, the channel's own bus),
    ``address`` (0x3C or 0x3D) and ``channel`` (0–7 on a TCA9548A that the companion switches itself;
    default the seat's number − 1; ``"none"`` in the file, ``None`` here, for a panel straight on its bus).
    SPI: ``spi_device`` (0 = CE0, 1 = CE1) and the BCM pins ``dc`` and ``reset``.
    """

    bus: int = 1
    address: int = 0x3C
    channel: int | None = None
    spi_device: int = 0
    dc: int | None = None
    reset: int | None = None


@dataclass(frozen=True)
class SeatConfig:
    """One seat at the table: player ``name``, ``colour`` (``#rrggbb``), ``buttons`` and ``panel``."""

    name: str
    colour: str
    buttons: tuple[ButtonConfig, ...]
    panel: PanelConfig = PanelConfig()


@dataclass(frozen=True)
class Config:
    """The whole checked configuration. ``source`` is the file it came from (or ``"<defaults>"``)."""

    source: str
    game: str
    data_dir: Path | None
    seats: tuple[SeatConfig, ...]
    table_buttons: tuple[ButtonConfig, ...]
    dice_mode: str = "built-in"
    dice_seed: int | None = None
    pin_factory: str = "auto"
    bounce_time: float = 0.03
    hold_time: float = 0.8
    panel_driver: str = "emulated"
    panel_interface: str = "i2c"
    multiplexer: str = "switch"
    multiplexer_bus: int = 1
    multiplexer_address: int = 0x70
    panel_rotate: int = 0
    house_rules: Mapping[str, Any] = field(default_factory=dict)
    #: ``[[readers]]`` tables as written (kind, path or vid/pid/serial_number, …); ``firmware_bridge``
    #: checks them (``ReaderSpec.from_mapping``) before the kiosk opens its window.
    readers: tuple[Mapping[str, Any], ...] = ()
    #: ``[kiosk] exit_pin``: 4–8 digits that leave the kiosk after a 3-second hold on the top-left corner,
    #: for screens that report only one touch at a time (the desktop edition's mouse-style touch);
    #: ``None`` leaves only the two-corner gesture.
    exit_pin: str | None = None


#: The game a config without ``[table] game`` plays: the appliance's own default (a product choice, not a rule).
DEFAULT_GAME = "tv-wars"
_DEFAULT_SEATS = (
    ("ABS", "#e53935", (17, "q"), (27, "w"), (22, "e")),
    ("CBA", "#1e88e5", (23, "a"), (24, "s"), (25, "d")),
    ("PBC", "#43a047", (12, "z"), (16, "x"), (20, "c")),
    ("NBS", "#fdd835", (13, "u"), (19, "i"), (26, "o")),
)
#: The built-in seats' names (the default game's): other games give such seats their own default names.
BUILT_IN_SEAT_NAMES: tuple[str, ...] = tuple(seat[0] for seat in _DEFAULT_SEATS)


def default_config() -> Config:
    """The simulator set-up used when no file is given (see the module docstring). Each seat's third
    button (``roll``) has ``long = "peek"``: held, it shows the network's private figures on its panel."""
    seats = tuple(
        SeatConfig(
            name,
            colour,
            tuple(
                ButtonConfig(action, pin, key, PEEK if action == "roll" else None)
                for action, (pin, key) in zip(PLAYER_ACTIONS, buttons)
            ),
            PanelConfig(channel=index),
        )
        for index, (name, colour, *buttons) in enumerate(_DEFAULT_SEATS)
    )
    table_buttons = (ButtonConfig("undo", 5, "backspace"), ButtonConfig("redo", 6, "="))
    return Config("<defaults>", DEFAULT_GAME, None, seats, table_buttons)


def load_config(path: str | Path | None) -> Config:
    """Read and check the TOML file at ``path`` (``None`` → :func:`default_config`).

    Raises :class:`ConfigError` (file, key, problem) for an unreadable file, bad TOML, an unknown key, a
    value of the wrong type or range, or a pin or key used twice.
    """
    if path is None:
        return default_config()
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ConfigError(str(path), "", f"cannot read the file: {error.strerror or error}") from error
    except UnicodeDecodeError as error:
        raise ConfigError(str(path), "", "the file is not UTF-8 text") from error
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(str(path), "", f"not valid TOML: {error}") from error
    return parse_config(data, str(path))


class _Checker:
    def __init__(self, file: str) -> None:
        self.file = file

    def fail(self, key: str, problem: str) -> None:
        raise ConfigError(self.file, key, problem)

    def table(self, data: Any, key: str, allowed: tuple[str, ...]) -> dict:
        if data is None:
            return {}
        if not isinstance(data, dict):
            self.fail(key, f"must be a table, not {type(data).__name__}")
        for name in data:
            if name not in allowed:
                self.fail(f"{key}.{name}" if key else name, f"unknown key; allowed here: {', '.join(allowed)}")
        return data

    def choice(self, value: Any, key: str, choices: tuple[str, ...], default: str) -> str:
        if value is None:
            return default
        if value not in choices:
            self.fail(key, f"must be one of {', '.join(choices)}, not {value!r}")
        return value

    def integer(self, value: Any, key: str, allowed: range | None = None) -> int:
        if not is_whole(value):
            self.fail(key, f"must be a whole number, not {value!r}")
        if allowed is not None and value not in allowed:
            self.fail(key, f"must be from {allowed.start} to {allowed.stop - 1}, not {value}")
        return value

    def text(self, value: Any, key: str) -> str:
        if not isinstance(value, str) or not value.strip():
            self.fail(key, f"must be non-empty text, not {value!r}")
        return value.strip()


def _colour(check: _Checker, value: Any, key: str) -> str:
    colour = check.text(value, key).lower()
    colour = NAMED_COLOURS.get(colour, colour)
    if not _HEX_COLOUR.match(colour):
        check.fail(key, f"must be #rrggbb or one of {', '.join(NAMED_COLOURS)}, not {value!r}")
    return colour


def _button(check: _Checker, action: str, value: Any, key: str, actions: tuple[str, ...]) -> ButtonConfig:
    spec = check.table(value, key, ("pin", "key", "long"))
    long = spec.get("long")
    if long is not None and long not in actions:
        check.fail(f"{key}.long", f"must be one of {', '.join(actions)}, not {long!r}")
    pin = None if spec.get("pin") is None else check.integer(spec["pin"], f"{key}.pin", _BCM_PINS)
    keyname = spec.get("key")
    if keyname is not None:
        keyname = check.text(keyname, f"{key}.key").lower()
        if len(keyname) != 1 and keyname not in NAMED_KEYS:
            check.fail(f"{key}.key", f"must be one character or one of {', '.join(NAMED_KEYS)}, not {keyname!r}")
    return ButtonConfig(action, pin, keyname, long)


def _panel(check: _Checker, value: Any, key: str, seat: int) -> PanelConfig:
    spec = check.table(value, key, ("bus", "address", "channel", "spi_device", "dc", "reset"))
    pin = lambda name: None if spec.get(name) is None else check.integer(spec[name], f"{key}.{name}", _BCM_PINS)
    channel = spec.get("channel", seat)
    if channel == "none":  # wired straight to its bus, not behind the multiplexer
        channel = None
    return PanelConfig(
        bus=check.integer(spec.get("bus", 1), f"{key}.bus", range(0, 64)),
        address=check.integer(spec.get("address", 0x3C), f"{key}.address", range(0x3C, 0x3E)),
        channel=None if channel is None else check.integer(channel, f"{key}.channel", range(0, 8)),
        spi_device=check.integer(spec.get("spi_device", 0), f"{key}.spi_device", range(0, 2)),
        dc=pin("dc"),
        reset=pin("reset"),
    )


def _check_panels(
    check: _Checker, seats, driver: str, interface: str, multiplexer: str, mux_bus: int, used_pins: dict[int, str]
) -> None:
    """Reject panel layouts that cannot work (two panels answering at once, pins used twice)."""
    if driver == "emulated":
        return
    where: dict[tuple, str] = {}
    for index, seat in enumerate(seats):
        key, panel = f"players[{index}].panel", seat.panel
        if interface == "spi":
            spot = ("spi", panel.spi_device)
            for name in ("dc", "reset"):
                pin = getattr(panel, name)
                if pin is None:
                    if name == "dc":
                        check.fail(f"{key}.dc", "an SPI panel needs its D/C pin")
                    continue
                if pin in used_pins and ".panel." not in used_pins[pin]:  # panels may share D/C and reset
                    check.fail(f"{key}.{name}", f"GPIO {pin} is already used by {used_pins[pin]}")
                used_pins.setdefault(pin, f"{key}.{name}")
        elif multiplexer == "switch":
            spot = ("mux", panel.channel)
            if panel.channel is None:
                if panel.bus == mux_bus:
                    check.fail(
                        key,
                        f"a 0x{panel.address:02X} panel on the main bus beside the TCA9548A "
                        f"multiplexer answers on every channel; give it a channel",
                    )
                spot = ("bus", panel.bus, panel.address)
        else:
            if multiplexer == "overlay" and panel.bus == mux_bus:
                check.fail(
                    f"{key}.bus",
                    f"bus {mux_bus} is the multiplexer's own bus: a 0x{panel.address:02X} "
                    f"panel there answers beside every channel; use the channel's bus",
                )
            spot = ("bus", panel.bus, panel.address)
        if spot in where:
            check.fail(key, f"shares its place ({_place(spot)}) with {where[spot]}")
        where[spot] = key


def _place(spot: tuple) -> str:
    if spot[0] == "spi":
        return f"SPI CE{spot[1]}"
    if spot[0] == "mux":
        return f"multiplexer channel {spot[1]}"
    return f"I²C bus {spot[1]} address 0x{spot[2]:02X}"


def parse_config(data: Mapping[str, Any], file: str = "<config>") -> Config:
    """Check an already-parsed TOML mapping and build a :class:`Config` (see :func:`load_config`)."""
    check = _Checker(file)
    defaults = default_config()
    top = check.table(
        dict(data),
        "",
        ("table", "dice", "hardware", "panels", "table_buttons", "players", "house_rules", "readers", "kiosk"),
    )
    readers = top.get("readers", [])
    if not isinstance(readers, list) or not all(isinstance(r, dict) for r in readers):
        check.fail("readers", "must be an array of tables ([[readers]] sections)")
    table = check.table(top.get("table"), "table", ("game", "data_dir"))
    game = check.text(table.get("game", defaults.game), "table.game")
    from companion.games import game_names

    if game not in game_names():
        check.fail("table.game", f"unknown game {game!r}; known games: {', '.join(game_names())}")
    data_dir = Path(check.text(table["data_dir"], "table.data_dir")) if "data_dir" in table else None
    try:
        data_dir = data_dir.expanduser() if data_dir is not None else None
    except RuntimeError as error:  # "~someone" who has no home directory here
        check.fail("table.data_dir", f"{error} for {str(data_dir)!r}")

    dice = check.table(top.get("dice"), "dice", ("mode", "seed"))
    dice_mode = check.choice(dice.get("mode"), "dice.mode", DICE_MODES, "built-in")
    dice_seed = None if dice.get("seed") is None else check.integer(dice["seed"], "dice.seed")

    hardware = check.table(top.get("hardware"), "hardware", ("pin_factory", "bounce_time", "hold_time"))
    hold_time = hardware.get("hold_time", 0.8)
    if isinstance(hold_time, bool) or not isinstance(hold_time, (int, float)) or not 0.2 <= hold_time <= 5:
        check.fail("hardware.hold_time", f"must be seconds from 0.2 to 5, not {hold_time!r}")
    pin_factory = check.choice(hardware.get("pin_factory"), "hardware.pin_factory", PIN_FACTORIES, "auto")
    bounce_time = hardware.get("bounce_time", 0.03)
    if isinstance(bounce_time, bool) or not isinstance(bounce_time, (int, float)) or not 0 <= bounce_time <= 1:
        check.fail("hardware.bounce_time", f"must be seconds from 0 to 1, not {bounce_time!r}")

    panels = check.table(
        top.get("panels"),
        "panels",
        ("driver", "interface", "multiplexer", "multiplexer_bus", "multiplexer_address", "rotate"),
    )
    panel_driver = check.choice(panels.get("driver"), "panels.driver", PANEL_DRIVERS, "emulated")
    panel_interface = check.choice(panels.get("interface"), "panels.interface", PANEL_INTERFACES, "i2c")
    multiplexer = check.choice(
        panels.get("multiplexer"), "panels.multiplexer", MULTIPLEXERS, "switch" if panel_interface == "i2c" else "none"
    )
    if panel_interface == "spi" and multiplexer != "none":
        check.fail("panels.multiplexer", "an I²C multiplexer does not apply to SPI panels; use \"none\"")
    multiplexer_bus = check.integer(panels.get("multiplexer_bus", 1), "panels.multiplexer_bus", range(0, 64))
    multiplexer_address = check.integer(
        panels.get("multiplexer_address", 0x70), "panels.multiplexer_address", range(0x70, 0x78)
    )
    panel_rotate = check.integer(panels.get("rotate", 0), "panels.rotate", range(0, 4))

    kiosk = check.table(top.get("kiosk"), "kiosk", ("exit_pin",))
    exit_pin = None
    if "exit_pin" in kiosk:
        exit_pin = kiosk["exit_pin"]
        if not isinstance(exit_pin, str) or not re.fullmatch(r"[0-9]{4,8}", exit_pin):
            check.fail("kiosk.exit_pin", f"must be 4 to 8 digits in quotes (e.g. \"2580\"), not {exit_pin!r}")

    if "table_buttons" in top:
        spec = check.table(top["table_buttons"], "table_buttons", TABLE_ACTIONS)
        table_buttons = tuple(
            _button(check, action, spec[action], f"table_buttons.{action}", TABLE_ACTIONS)
            for action in TABLE_ACTIONS
            if action in spec
        )
    else:
        table_buttons = defaults.table_buttons

    if "players" in top:
        players = top["players"]
        if not isinstance(players, list) or not players:
            check.fail("players", "must be a non-empty array of tables ([[players]] sections)")
        if len(players) > 8:
            check.fail("players", f"at most 8 seats, not {len(players)}")
        seats = []
        for index, raw in enumerate(players):
            key = f"players[{index}]"
            spec = check.table(raw, key, ("name", "colour", "buttons", "panel"))
            if "name" not in spec:
                check.fail(f"{key}.name", "is required")
            name = check.text(spec["name"], f"{key}.name")
            colour = _colour(check, spec.get("colour", "white"), f"{key}.colour")
            buttons_spec = check.table(spec.get("buttons"), f"{key}.buttons", PLAYER_ACTIONS)
            buttons = tuple(
                _button(check, action, buttons_spec[action], f"{key}.buttons.{action}", PLAYER_LONG_ACTIONS)
                for action in PLAYER_ACTIONS
                if action in buttons_spec
            )
            seats.append(SeatConfig(name, colour, buttons, _panel(check, spec.get("panel"), f"{key}.panel", index)))
        seats = tuple(seats)
    else:
        seats = defaults.seats

    names = [seat.name for seat in seats]
    for index, name in enumerate(names):
        if name in names[:index]:
            check.fail(f"players[{index}].name", f"{name!r} is used by an earlier seat")
        if name.lower() == "bank":
            check.fail(f"players[{index}].name", "'bank' is reserved for the bank")
    used_pins: dict[int, str] = {}
    used_keys: dict[str, str] = {}
    all_buttons = [(f"table_buttons.{b.action}", b) for b in table_buttons]
    all_buttons += [(f"players[{i}].buttons.{b.action}", b) for i, seat in enumerate(seats) for b in seat.buttons]
    for key, button in all_buttons:
        if button.pin is not None:
            if button.pin in used_pins:
                check.fail(f"{key}.pin", f"GPIO {button.pin} is already used by {used_pins[button.pin]}")
            used_pins[button.pin] = key
        if button.key is not None:
            if button.key in used_keys:
                check.fail(f"{key}.key", f"key {button.key!r} is already used by {used_keys[button.key]}")
            used_keys[button.key] = key

    _check_panels(check, seats, panel_driver, panel_interface, multiplexer, multiplexer_bus, used_pins)

    house_rules = top.get("house_rules", {})
    if not isinstance(house_rules, dict):
        check.fail("house_rules", "must be a table")
    from companion.errors import BadOption
    from companion.games import find_game, load_attribute

    rules = find_game(game)
    house_rules = dict(house_rules)
    for spec in rules.info.options:  # an option given as a file path, e.g. Channel WON's card catalogue
        option = spec.name
        if spec.read_file and isinstance(house_rules.get(option), str):
            read = load_attribute(spec.read_file)
            path = Path(house_rules[option]).expanduser()
            if not path.is_absolute() and file != "<defaults>":
                path = Path(file).parent / path  # relative to the config file
            try:
                house_rules[option] = read(path)
            except CompanionError as error:
                check.fail(f"house_rules.{option}", str(error))
    try:
        rules.check_options(house_rules)
    except BadOption as error:
        check.fail(f"house_rules.{error.option}", error.problem)
    info = rules.info
    if len(seats) < info.min_players:
        check.fail("players", f"{info.title} needs at least {info.min_players} seats, not {len(seats)}")
    return Config(
        file,
        game,
        data_dir,
        seats,
        table_buttons,
        dice_mode,
        dice_seed,
        pin_factory,
        float(bounce_time),
        float(hold_time),
        panel_driver,
        panel_interface,
        multiplexer,
        multiplexer_bus,
        multiplexer_address,
        panel_rotate,
        dict(house_rules),
        tuple(dict(r) for r in readers),
        exit_pin,
    )
