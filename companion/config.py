"""The table configuration: one TOML file, checked completely before anything starts.

A broken config raises :class:`companion.errors.ConfigError` naming the file, the key (``section.key``) and what is
wrong. With no file at all, :func:`default_config` gives a working simulator set-up: four seats, keyboard keys for
each seat's buttons, emulated panels and built-in dice.

Each TOML section is one frozen dataclass (:class:`TableSection`, :class:`DiceSection`, :class:`HardwareSection`,
:class:`PanelsSection`, :class:`KioskSection`, :class:`WebSection`, and per seat :class:`SeatConfig` with its
:class:`ButtonConfig` and :class:`PanelConfig`); each of its keys is one field declared with :func:`setting` (type,
bounds, choices, default). One checker (:func:`read_section`) walks a section's fields, so a new key is one line.
Unknown keys are refused with the section and key named.

A seat's buttons are the slots ``a``, ``b`` and ``c``, which each game names (:class:`companion.game.ButtonSlot`);
the names of the previous version (``on_the_air``, ``sponsor``, ``roll``: :data:`SLOT_ALIASES`) are accepted for
them, so an older file keeps working.

Example file (every key optional; ``systemd/config.toml.example`` explains each)::

    [table]
    game = "telly-time"          # a registered game name (companion games)
    data_dir = "/var/lib/companion"

    [dice]
    mode = "built-in"            # built-in | manual | reader
    seed = 1234                  # built-in dice only; omit for a random seed

    [hardware]
    pin_factory = "auto"         # auto | mock | lgpio | rpigpio
    bounce_time = 0.03           # seconds a switch must be steady to count (debounce)
    hold_time = 0.8              # seconds held for a long press (buttons with a `long` action)

    [panels]
    driver = "emulated"          # emulated | ssd1306 | sh1106 | ssd1309

    [table_buttons]
    undo = { pin = 5, key = "backspace" }
    redo = { pin = 6, key = "=" }

    [[players]]
    name = "Ava"
    colour = "#e53935"
    buttons.a = {pin = 17, key = "q"}
    buttons.b = {pin = 27, key = "w"}
    buttons.c = {pin = 22, key = "e", long = "peek"}
    # long = "peek": holding the button shows the player's private figures on their own panel

    [[readers]]                  # serial dice/tile readers (firmware_bridge/PROTOCOL.md), found by identity
    kind = "dice"
    path = "/dev/serial/by-id/usb-Tabletop_Companion_Dice_E6614103E7452D2F-if00"

    [house_rules]                # passed to the game as options, checked by it
    roll_off = true

    [kiosk]
    exit_pin = "2580"            # optional: hold the top-left corner 3 s, then type this PIN to leave

    [web]                        # the opt-in LAN web front-end (README "Phones and the spectator page")
    enabled = false              # true: phones pair with a seat, the spectator page is served; false: no listener
    address = "0.0.0.0"          # the IP address to listen on
    port = 8080
    url = "http://192.168.1.20:8080"   # optional: how phones reach the table (default: the Pi's LAN address)
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from companion.checks import is_whole
from companion.errors import CompanionError, ConfigError

#: The seat button slots, in board order (the same as :data:`companion.game.SLOTS`).
SLOTS = ("a", "b", "c")
#: The previous version's names of the slots, still accepted in a file (``buttons.on_the_air`` is ``buttons.a``).
#: They are also each slot's default action: what a press stands for until a game names its slots.
SLOT_ALIASES: Mapping[str, str] = {"on_the_air": "a", "sponsor": "b", "roll": "c"}
#: A slot's default action (the alias it had): ``{"a": "on_the_air", ...}``.
SLOT_ACTIONS: Mapping[str, str] = {slot: action for action, slot in SLOT_ALIASES.items()}
#: What each player button does by default (the adapters map these to commands), in slot order.
PLAYER_ACTIONS = tuple(SLOT_ACTIONS[slot] for slot in SLOTS)
#: What each table button does.
TABLE_ACTIONS = ("undo", "redo")
#: What a player button's long press (``long``) may do: a slot's action, or ``"peek"``: show that player's
#: private figures (a game's secret values) on their own panel while the button is held. Peek is display only: it
#: posts no command.
PEEK = "peek"
#: A player button's long press that shows the seat's phone pairing link as a QR code on its own panel (issue 20;
#: only with ``[web] enabled``). Display only, like a peek. With the web front-end enabled and no ``[[players]]``
#: sections, slot ``a`` has it by default (slot ``c``'s long press is the peek).
PAIR = "pair"
PLAYER_LONG_ACTIONS = PLAYER_ACTIONS + (PEEK, PAIR)
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
    # the Okabe-Ito colours of the default seats (SEAT_PALETTE)
    "vermillion": "#d55e00",
    "sky blue": "#56b4e9",
    "okabe yellow": "#f0e442",
    "reddish purple": "#cc79a7",
}
#: The default seats' colours, in seat order, each with the shape that marks the seat beside its colour (on the
#: touchscreen's seat cards and in its panel's header): four of Okabe and Ito's colours for colour-blind readers
#: ("Color Universal Design", 2008), chosen so that under a simulated deuteranopia, protanopia and tritanopia
#: (severity 100) every pair stays at least 15 apart in CAM02-UCS and every colour at least 30 from the UI's
#: dark card background (tests/test_config.py measures both with colorspacious). The previous red and green
#: seats were 6 apart under deuteranopia.
SEAT_PALETTE: tuple[tuple[str, str], ...] = (
    ("#d55e00", "circle"),  # vermillion
    ("#56b4e9", "square"),  # sky blue
    ("#f0e442", "diamond"),  # yellow
    ("#cc79a7", "cross"),  # reddish purple
)
#: The shapes :func:`seat_shape` gives.
SEAT_SHAPES = tuple(shape for _, shape in SEAT_PALETTE)


def seat_shape(colour: str) -> str:
    """The shape marking a seat of ``colour`` (``"#rrggbb"``, any case) beside its colour: ``"circle"``,
    ``"square"``, ``"diamond"`` or ``"cross"`` for the colours of :data:`SEAT_PALETTE`, ``""`` for any other
    colour (a seat given its own colour is told apart by its name)."""
    return dict(SEAT_PALETTE).get(colour.lower(), "")


#: Keys a simulator button may use: one letter/digit/punctuation, or a named key.
NAMED_KEYS = ("backspace", "enter", "spacebar", "tab", "escape", "up", "down", "left", "right")
_HEX_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
_BCM_PINS = (2, 27)
#: The game a config without ``[table] game`` plays: the appliance's own default (a product choice, not a rule).
DEFAULT_GAME = "tv-wars"


# -- the checker -------------------------------------------------------------------------------------------------
class Checker:
    """Raises :class:`ConfigError` for one file, naming the key."""

    def __init__(self, file: str) -> None:
        self.file = file

    def fail(self, key: str, problem: str) -> Any:
        raise ConfigError(self.file, key, problem)

    def table(self, data: Any, key: str, allowed: tuple[str, ...]) -> dict:
        """``data`` as a table whose keys are all ``allowed`` (``None``: an empty table)."""
        if data is None:
            return {}
        if not isinstance(data, dict):
            self.fail(key, f"must be a table, not {type(data).__name__}")
        for name in data:
            if name not in allowed:
                self.fail(f"{key}.{name}" if key else name, f"unknown key; allowed here: {', '.join(allowed)}")
        return data

    def text(self, value: Any, key: str) -> str:
        if not isinstance(value, str) or not value.strip():
            self.fail(key, f"must be non-empty text, not {value!r}")
        return value.strip()


@dataclass(frozen=True)
class Setting:
    """How one TOML key is checked (the ``metadata`` of a section's field, made by :func:`setting`): its ``kind``
    (``int``, ``float`` seconds, ``str``), inclusive ``bounds``, allowed ``choices``, a ``pattern`` (with the
    ``hint`` said when it does not match), a ``convert(checker, value, key)`` run on the checked value, and ``toml``
    (``False`` for a field the file does not set)."""

    kind: type | None = None
    bounds: tuple[float, float] | None = None
    choices: tuple[str, ...] = ()
    pattern: str = ""
    hint: str = ""
    convert: Callable[[Checker, Any, str], Any] | None = None
    toml: bool = True


def setting(default: Any = None, kind: type | None = None, **how: Any) -> Any:
    """A section field that is a TOML key (see :class:`Setting` for ``how``)."""
    return field(default=default, metadata={"setting": Setting(kind, **how)})


def _check_value(check: Checker, rule: Setting, value: Any, key: str) -> Any:
    """``value`` of ``key`` checked against ``rule`` (``None`` is a value only where the default is ``None``)."""
    if rule.choices and value not in rule.choices:
        check.fail(key, f"must be one of {', '.join(rule.choices)}, not {value!r}")
    if rule.kind is float:  # seconds
        low, high = rule.bounds or (0, math.inf)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
            check.fail(key, f"must be seconds from {low:g} to {high:g}, not {value!r}")
        value = float(value)
    elif rule.kind is int:
        if not is_whole(value):
            check.fail(key, f"must be a whole number, not {value!r}")
        if rule.bounds is not None and not rule.bounds[0] <= value <= rule.bounds[1]:
            check.fail(key, f"must be from {rule.bounds[0]} to {rule.bounds[1]}, not {value}")
    elif rule.kind is bool:
        if not isinstance(value, bool):
            check.fail(key, f"must be true or false, not {value!r}")
    elif rule.kind is str:
        if rule.pattern:
            if not isinstance(value, str) or not re.fullmatch(rule.pattern, value):
                check.fail(key, f"must be {rule.hint}, not {value!r}")
        else:
            value = check.text(value, key)
    return rule.convert(check, value, key) if rule.convert is not None else value


Section = TypeVar("Section")


def read_section(cls: type[Section], data: Any, key: str, check: Checker, **given: Any) -> Section:
    """Check the TOML table ``data`` at ``key`` against the dataclass ``cls`` and build it: unknown keys are
    refused, each key is checked by its field's :class:`Setting`, a missing key takes the field's default (or
    ``given[name]``, a default that depends on other sections); ``given`` also fills fields the file does not set."""
    fields = [f for f in dataclasses.fields(cls) if "setting" in f.metadata]  # type: ignore[arg-type]
    table = check.table(data, key, tuple(f.name for f in fields if f.metadata["setting"].toml))
    values: dict[str, Any] = {}
    for f in fields:
        rule: Setting = f.metadata["setting"]
        if rule.toml and f.name in table:
            value = table[f.name]
            values[f.name] = _check_value(check, rule, value, f"{key}.{f.name}" if key else f.name)
        elif f.name in given:
            values[f.name] = given[f.name]
    return cls(**values)


def _pin(check: Checker, value: Any, key: str) -> int:
    if not is_whole(value):
        check.fail(key, f"must be a whole number, not {value!r}")
    if not _BCM_PINS[0] <= value <= _BCM_PINS[1]:
        check.fail(key, f"must be from {_BCM_PINS[0]} to {_BCM_PINS[1]}, not {value}")
    return value


def _key_name(check: Checker, value: Any, key: str) -> str:
    name = value.lower()
    if len(name) != 1 and name not in NAMED_KEYS:
        check.fail(key, f"must be one character or one of {', '.join(NAMED_KEYS)}, not {name!r}")
    return name


def _colour(check: Checker, value: Any, key: str) -> str:
    colour = NAMED_COLOURS.get(value.lower(), value.lower())
    if not _HEX_COLOUR.match(colour):
        check.fail(key, f"must be #rrggbb or one of {', '.join(NAMED_COLOURS)}, not {value!r}")
    return colour


def _known_game(check: Checker, value: Any, key: str) -> str:
    from companion.games import game_names

    if value not in game_names():
        check.fail(key, f"unknown game {value!r}; known games: {', '.join(game_names())}")
    return value


def _folder(check: Checker, value: Any, key: str) -> Path:
    try:
        return Path(value).expanduser()
    except RuntimeError as error:  # "~someone" who has no home directory here
        return check.fail(key, f"{error} for {value!r}")


def _channel(check: Checker, value: Any, key: str) -> int | None:
    if value == "none":  # wired straight to its bus, not behind the multiplexer
        return None
    if not is_whole(value) or not 0 <= value <= 7:
        check.fail(key, f"must be from 0 to 7 or \"none\", not {value!r}")
    return value


# -- the sections -------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TableSection:
    """``[table]``: the ``game`` played (a registered name) and the ``data_dir`` of the journal (``None``: the
    default folder)."""

    game: str = setting(DEFAULT_GAME, str, convert=_known_game)
    data_dir: Path | None = setting(None, str, convert=_folder)


@dataclass(frozen=True)
class DiceSection:
    """``[dice]``: ``mode`` (built-in, manual or reader) and the built-in dice's ``seed`` (``None``: random)."""

    mode: str = setting("built-in", choices=DICE_MODES)
    seed: int | None = setting(None, int)


@dataclass(frozen=True)
class HardwareSection:
    """``[hardware]``: the GPIO ``pin_factory``, and in seconds the ``bounce_time`` (debounce) and ``hold_time``
    (a long press)."""

    pin_factory: str = setting("auto", choices=PIN_FACTORIES)
    bounce_time: float = setting(0.03, float, bounds=(0, 1))
    hold_time: float = setting(0.8, float, bounds=(0.2, 5))


@dataclass(frozen=True)
class PanelsSection:
    """``[panels]``: the OLED ``driver`` (``emulated`` on a desktop), their ``interface`` (I²C or SPI), the I²C
    ``multiplexer`` (default ``switch`` on I²C, ``none`` on SPI) on ``multiplexer_bus`` at ``multiplexer_address``,
    and ``rotate`` (quarter turns)."""

    driver: str = setting("emulated", choices=PANEL_DRIVERS)
    interface: str = setting("i2c", choices=PANEL_INTERFACES)
    multiplexer: str = setting("switch", choices=MULTIPLEXERS)
    multiplexer_bus: int = setting(1, int, bounds=(0, 63))
    multiplexer_address: int = setting(0x70, int, bounds=(0x70, 0x77))
    rotate: int = setting(0, int, bounds=(0, 3))


@dataclass(frozen=True)
class KioskSection:
    """``[kiosk]``: ``exit_pin``, 4–8 digits that leave the kiosk after a 3-second hold on the top-left corner, for
    screens that report one touch at a time (the desktop edition); ``None`` leaves only the two-corner gesture."""

    exit_pin: str | None = setting(None, str, pattern=r"[0-9]{4,8}", hint='4 to 8 digits in quotes (e.g. "2580")')


def _address(check: Checker, value: Any, key: str) -> str:
    import ipaddress

    try:
        return str(ipaddress.ip_address(value))
    except ValueError:
        return check.fail(key, f"must be an IP address to listen on (0.0.0.0: every IPv4 interface), not {value!r}")


def _base_url(check: Checker, value: Any, key: str) -> str:
    if not re.fullmatch(r"https?://[A-Za-z0-9.\-\[\]:]+", value):
        check.fail(key, f"must be http://HOST:PORT as phones reach the table (no path), not {value!r}")
    return value.rstrip("/")


@dataclass(frozen=True)
class WebSection:
    """``[web]``: the opt-in LAN web front-end (a phone as a seat's private panel, the spectator page; issue 20).
    ``enabled`` (default ``false``: no network listener at all), the ``address`` to listen on (an IP address;
    ``0.0.0.0`` every IPv4 interface) and ``port``; ``url``, the address phones reach the table at as
    ``http://HOST:PORT`` for the pairing links (``None``: the Pi's own LAN address and ``port``)."""

    enabled: bool = setting(False, bool)
    address: str = setting("0.0.0.0", str, convert=_address)
    port: int = setting(8080, int, bounds=(1, 65535))
    url: str | None = setting(None, str, convert=_base_url)


@dataclass(frozen=True)
class ButtonConfig:
    """One button: ``action`` (a player button's default action, :data:`PLAYER_ACTIONS`, or a table button's,
    :data:`TABLE_ACTIONS`), its BCM GPIO ``pin`` (2–27, or ``None`` for touch/keyboard only), the simulator keyboard
    ``key``, ``long``: the action of a long press (held ``hardware.hold_time`` seconds) or ``None``, and a player
    button's ``slot`` (``"a"``, ``"b"`` or ``"c"``, which the game in use names; ``None`` for a table button)."""

    action: str = setting("", toml=False)
    pin: int | None = setting(None, int, convert=_pin)
    key: str | None = setting(None, str, convert=_key_name)
    long: str | None = setting(None)
    slot: str | None = setting(None, toml=False)


@dataclass(frozen=True)
class PanelConfig:
    """Where one seat's 128×64 OLED panel is connected (see ``wiring.md``).

    I²C: ``bus`` (the Linux I²C bus number; with the kernel's i2c-mux overlay, the channel's own bus),
    ``address`` (0x3C or 0x3D) and ``channel`` (0–7 on a TCA9548A that the companion switches itself;
    default the seat's number − 1; ``"none"`` in the file, ``None`` here, for a panel straight on its bus).
    SPI: ``spi_device`` (0 = CE0, 1 = CE1) and the BCM pins ``dc`` and ``reset``.
    """

    bus: int = setting(1, int, bounds=(0, 63))
    address: int = setting(0x3C, int, bounds=(0x3C, 0x3D))
    channel: int | None = setting(None, convert=_channel)
    spi_device: int = setting(0, int, bounds=(0, 1))
    dc: int | None = setting(None, int, convert=_pin)
    reset: int | None = setting(None, int, convert=_pin)


@dataclass(frozen=True)
class SeatConfig:
    """One seat at the table (``[[players]]``): player ``name``, ``colour`` (``#rrggbb``), ``buttons`` (in slot
    order) and ``panel``."""

    name: str = setting("", str)
    colour: str = setting("#ffffff", str, convert=_colour)
    buttons: tuple[ButtonConfig, ...] = setting((), toml=False)
    panel: PanelConfig = setting(PanelConfig(), toml=False)


#: The flat names of the previous version's :class:`Config` fields: ``config.hold_time`` is
#: ``config.hardware.hold_time``; the constructor (so ``dataclasses.replace``) accepts them too.
FLAT_NAMES: Mapping[str, tuple[str, str]] = {
    "game": ("table", "game"),
    "data_dir": ("table", "data_dir"),
    "dice_mode": ("dice", "mode"),
    "dice_seed": ("dice", "seed"),
    "pin_factory": ("hardware", "pin_factory"),
    "bounce_time": ("hardware", "bounce_time"),
    "hold_time": ("hardware", "hold_time"),
    "panel_driver": ("panels", "driver"),
    "panel_interface": ("panels", "interface"),
    "multiplexer": ("panels", "multiplexer"),
    "multiplexer_bus": ("panels", "multiplexer_bus"),
    "multiplexer_address": ("panels", "multiplexer_address"),
    "panel_rotate": ("panels", "rotate"),
    "exit_pin": ("kiosk", "exit_pin"),
}


@dataclass(frozen=True, init=False)
class Config:
    """The whole checked configuration: one field per TOML section, ``seats`` (``[[players]]``), ``table_buttons``,
    ``house_rules`` (passed to the game as options, already checked by it), ``readers`` (``[[readers]]`` tables as
    written; ``firmware_bridge`` checks them, ``ReaderSpec.from_mapping``, before the kiosk opens its window) and the
    ``source`` file it came from (or ``"<defaults>"``). The flat names of :data:`FLAT_NAMES` read (and, as keyword
    arguments, set) the sections' keys."""

    source: str
    table: TableSection
    dice: DiceSection
    hardware: HardwareSection
    panels: PanelsSection
    kiosk: KioskSection
    seats: tuple[SeatConfig, ...]
    table_buttons: tuple[ButtonConfig, ...]
    house_rules: Mapping[str, Any]
    readers: tuple[Mapping[str, Any], ...]
    web: WebSection

    def __init__(
        self,
        source: str,
        table: TableSection = TableSection(),
        dice: DiceSection = DiceSection(),
        hardware: HardwareSection = HardwareSection(),
        panels: PanelsSection = PanelsSection(),
        kiosk: KioskSection = KioskSection(),
        seats: tuple[SeatConfig, ...] = (),
        table_buttons: tuple[ButtonConfig, ...] = (),
        house_rules: Mapping[str, Any] | None = None,
        readers: tuple[Mapping[str, Any], ...] = (),
        web: WebSection = WebSection(),
        **flat: Any,
    ) -> None:
        sections: dict[str, Any] = {
            "table": table,
            "dice": dice,
            "hardware": hardware,
            "panels": panels,
            "kiosk": kiosk,
        }
        for name, value in flat.items():
            if name not in FLAT_NAMES:
                raise TypeError(f"Config() got an unexpected keyword argument {name!r}")
            section, key = FLAT_NAMES[name]
            sections[section] = dataclasses.replace(sections[section], **{key: value})
        for name, value in sections.items():
            object.__setattr__(self, name, value)
        object.__setattr__(self, "source", source)
        object.__setattr__(self, "seats", tuple(seats))
        object.__setattr__(self, "table_buttons", tuple(table_buttons))
        object.__setattr__(self, "house_rules", dict(house_rules or {}))
        object.__setattr__(self, "readers", tuple(readers))
        object.__setattr__(self, "web", web)

    def __getattr__(self, name: str) -> Any:
        if name in FLAT_NAMES:
            section, key = FLAT_NAMES[name]
            return getattr(object.__getattribute__(self, section), key)
        raise AttributeError(f"'Config' object has no attribute {name!r}")


_DEFAULT_SEATS = (
    ("ABS", SEAT_PALETTE[0][0], (17, "q"), (27, "w"), (22, "e")),
    ("CBA", SEAT_PALETTE[1][0], (23, "a"), (24, "s"), (25, "d")),
    ("PBC", SEAT_PALETTE[2][0], (12, "z"), (16, "x"), (20, "c")),
    ("NBS", SEAT_PALETTE[3][0], (13, "u"), (19, "i"), (26, "o")),
)
#: The built-in seats' names (the default game's): other games give such seats their own default names.
BUILT_IN_SEAT_NAMES: tuple[str, ...] = tuple(seat[0] for seat in _DEFAULT_SEATS)


def default_config() -> Config:
    """The simulator set-up used when no file is given (see the module docstring). Each seat's third button
    (slot ``c``) has ``long = "peek"``: held, it shows the player's private figures on their own panel."""
    seats = tuple(
        SeatConfig(
            name,
            colour,
            tuple(
                ButtonConfig(SLOT_ACTIONS[slot], pin, key, PEEK if slot == "c" else None, slot)
                for slot, (pin, key) in zip(SLOTS, buttons)
            ),
            PanelConfig(channel=index),
        )
        for index, (name, colour, *buttons) in enumerate(_DEFAULT_SEATS)
    )
    table_buttons = (ButtonConfig("undo", 5, "backspace"), ButtonConfig("redo", 6, "="))
    return Config("<defaults>", seats=seats, table_buttons=table_buttons)


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
    import tomllib  # only with a file: a kiosk started without one does not load the TOML parser (issue 17)

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(str(path), "", f"not valid TOML: {error}") from error
    return parse_config(data, str(path))


# -- the parts that are more than one section's keys ------------------------------------------------------------
def _button(
    check: Checker, value: Any, key: str, action: str, slot: str | None, longs: tuple[str, ...]
) -> ButtonConfig:
    """One button's table at ``key``; ``longs`` are the names its ``long`` may take (player buttons: a slot, an old
    slot name or ``peek``; stored as the action, like ``action``)."""
    button = read_section(ButtonConfig, value, key, check, action=action, slot=slot)
    if button.long is not None:
        if button.long not in longs:
            check.fail(f"{key}.long", f"must be one of {', '.join(longs)}, not {button.long!r}")
        long = SLOT_ACTIONS.get(button.long, button.long)
        button = dataclasses.replace(button, long=long)
    return button


def _seat_buttons(check: Checker, value: Any, key: str) -> list[tuple[str, ButtonConfig]]:
    """A seat's ``buttons`` table: slots ``a``/``b``/``c`` or their old names, each once; ``(key, button)`` in slot
    order, each key as written (the messages name what the file says)."""
    spec = check.table(value, key, SLOTS + tuple(SLOT_ALIASES))
    written: dict[str, str] = {}
    for name in spec:
        slot = SLOT_ALIASES.get(name, name)
        if slot in written:
            check.fail(f"{key}.{name}", f"is the same button as {key}.{written[slot]} (slot {slot}): give it once")
        written[slot] = name
    longs = SLOTS + PLAYER_LONG_ACTIONS
    return [
        (
            f"{key}.{written[slot]}",
            _button(check, spec[written[slot]], f"{key}.{written[slot]}", SLOT_ACTIONS[slot], slot, longs),
        )
        for slot in SLOTS
        if slot in written
    ]


def _seats(check: Checker, players: Any) -> list[tuple[SeatConfig, list[tuple[str, ButtonConfig]]]]:
    """The ``[[players]]`` sections: each seat with its buttons as ``(key, button)``."""
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
        seat = read_section(SeatConfig, {k: spec[k] for k in ("name", "colour") if k in spec}, key, check)
        buttons = _seat_buttons(check, spec.get("buttons"), f"{key}.buttons")
        panel = read_section(PanelConfig, spec.get("panel"), f"{key}.panel", check, channel=index)
        seats.append((dataclasses.replace(seat, buttons=tuple(b for _, b in buttons), panel=panel), buttons))
    return seats


def _check_seats_and_buttons(check: Checker, seats, buttons: list[tuple[str, ButtonConfig]]) -> dict[int, str]:
    """Names used once ('bank' is the bank's); every pin and key used once. Returns the pins used, by key."""
    names = [seat.name for seat in seats]
    for index, name in enumerate(names):
        if name in names[:index]:
            check.fail(f"players[{index}].name", f"{name!r} is used by an earlier seat")
        if name.lower() == "bank":
            check.fail(f"players[{index}].name", "'bank' is reserved for the bank")
    used_pins: dict[int, str] = {}
    used_keys: dict[str, str] = {}
    for key, button in buttons:
        if button.pin is not None:
            if button.pin in used_pins:
                check.fail(f"{key}.pin", f"GPIO {button.pin} is already used by {used_pins[button.pin]}")
            used_pins[button.pin] = key
        if button.key is not None:
            if button.key in used_keys:
                check.fail(f"{key}.key", f"key {button.key!r} is already used by {used_keys[button.key]}")
            used_keys[button.key] = key
    return used_pins


def _check_panels(check: Checker, seats, panels: PanelsSection, used_pins: dict[int, str]) -> None:
    """Reject panel layouts that cannot work (two panels answering at once, pins used twice)."""
    if panels.driver == "emulated":
        return
    where: dict[tuple, str] = {}
    for index, seat in enumerate(seats):
        key, panel = f"players[{index}].panel", seat.panel
        if panels.interface == "spi":
            spot: tuple = ("spi", panel.spi_device)
            _check_spi_pins(check, panel, key, used_pins)
        elif panels.multiplexer == "switch":
            spot = ("mux", panel.channel)
            if panel.channel is None:
                if panel.bus == panels.multiplexer_bus:
                    check.fail(
                        key,
                        f"a 0x{panel.address:02X} panel on the main bus beside the TCA9548A "
                        f"multiplexer answers on every channel; give it a channel",
                    )
                spot = ("bus", panel.bus, panel.address)
        else:
            if panels.multiplexer == "overlay" and panel.bus == panels.multiplexer_bus:
                check.fail(
                    f"{key}.bus",
                    f"bus {panels.multiplexer_bus} is the multiplexer's own bus: a 0x{panel.address:02X} "
                    f"panel there answers beside every channel; use the channel's bus",
                )
            spot = ("bus", panel.bus, panel.address)
        if spot in where:
            check.fail(key, f"shares its place ({_place(spot)}) with {where[spot]}")
        where[spot] = key


def _check_spi_pins(check: Checker, panel: PanelConfig, key: str, used_pins: dict[int, str]) -> None:
    """An SPI panel needs its D/C pin; its pins are not a button's (panels may share D/C and reset)."""
    for name in ("dc", "reset"):
        pin = getattr(panel, name)
        if pin is None:
            if name == "dc":
                check.fail(f"{key}.dc", "an SPI panel needs its D/C pin")
            continue
        if pin in used_pins and ".panel." not in used_pins[pin]:
            check.fail(f"{key}.{name}", f"GPIO {pin} is already used by {used_pins[pin]}")
        used_pins.setdefault(pin, f"{key}.{name}")


def _place(spot: tuple) -> str:
    if spot[0] == "spi":
        return f"SPI CE{spot[1]}"
    if spot[0] == "mux":
        return f"multiplexer channel {spot[1]}"
    return f"I²C bus {spot[1]} address 0x{spot[2]:02X}"


def _house_rules(check: Checker, value: Any, game: str, file: str) -> dict[str, Any]:
    """``[house_rules]`` checked by the game (an option given as a file path is read first, relative to the
    config file: Channel WON's card catalogue)."""
    from companion.errors import BadOption
    from companion.games import find_game, load_attribute

    if not isinstance(value, dict):
        check.fail("house_rules", "must be a table")
    rules = find_game(game)
    house_rules = dict(value)
    for spec in rules.info.options:
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
    for spec in rules.info.options:  # a game's bound for a new game's choice (OptionSpec.most)
        value = house_rules.get(spec.name)
        if spec.most is not None and isinstance(value, int) and value > spec.most:
            check.fail(f"house_rules.{spec.name}", f"at most {spec.most:,}, not {value:,}")
    return house_rules


TOP_SECTIONS = (
    "table",
    "dice",
    "hardware",
    "panels",
    "table_buttons",
    "players",
    "house_rules",
    "readers",
    "kiosk",
    "web",
)


#: The kinds of serial reader a ``[[readers]]`` table names (``firmware_bridge.protocol.DEVICE_KINDS``).
READER_KINDS = ("dice", "tiles")
#: A reader's serial speed when its table gives none (``firmware_bridge.protocol.BAUD_RATE``).
READER_BAUD_RATE = 115200
#: The keys a ``[[readers]]`` table may have.
READER_KEYS = frozenset({"kind", "path", "vid", "pid", "serial_number", "device_id", "name", "baudrate"})


def reader_settings(data: Mapping[str, Any], where: str = "readers", file: str = "<config>") -> dict[str, Any]:
    """One ``[[readers]]`` table checked: ``{kind, path, vid, pid, serial_number, device_id, name, baudrate}``
    (absent ones ``None``; ``name`` ``""``, ``baudrate`` :data:`READER_BAUD_RATE` by default). The config is read
    with it, whatever the command (``run``, ``run --headless``, ``selftest``), and the serial bridge builds its
    ``ReaderSpec`` from it. Raises :class:`ConfigError` (file, key, problem) for an unknown key or a bad value."""
    for key in data:
        if key not in READER_KEYS:
            raise ConfigError(file, f"{where}.{key}", f"unknown key (allowed: {', '.join(sorted(READER_KEYS))})")

    def text(key: str) -> str | None:
        value = data.get(key)
        if value is not None and (not isinstance(value, str) or not value.strip()):
            raise ConfigError(file, f"{where}.{key}", f"must be non-empty text, not {value!r}")
        return value

    def number(key: str, high: int) -> int | None:
        value = data.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high):
            raise ConfigError(file, f"{where}.{key}", f"must be a whole number 0..{high}, not {value!r}")
        return value

    kind = data.get("kind")
    if kind not in READER_KINDS:
        raise ConfigError(file, f"{where}.kind", f"must be one of {', '.join(READER_KINDS)}, not {kind!r}")
    spec: dict[str, Any] = dict(
        kind=kind,
        path=text("path"),
        vid=number("vid", 0xFFFF),
        pid=number("pid", 0xFFFF),
        serial_number=text("serial_number"),
        device_id=text("device_id"),
        name=text("name") or "",
        baudrate=number("baudrate", 4_000_000) or READER_BAUD_RATE,
    )
    if not spec["path"] and spec["vid"] is None and spec["pid"] is None and not spec["serial_number"]:
        raise ConfigError(file, where, "give a path (/dev/serial/by-id/...) or vid/pid/serial_number")
    if spec["path"] and (spec["vid"] is not None or spec["pid"] is not None or spec["serial_number"]):
        raise ConfigError(file, where, "give either a path or a USB identity, not both")
    return spec


def parse_config(data: Mapping[str, Any], file: str = "<config>") -> Config:
    """Check an already-parsed TOML mapping and build a :class:`Config` (see :func:`load_config`)."""
    check = Checker(file)
    defaults = default_config()
    top = check.table(dict(data), "", TOP_SECTIONS)
    readers = top.get("readers", [])
    if not isinstance(readers, list) or not all(isinstance(r, dict) for r in readers):
        check.fail("readers", "must be an array of tables ([[readers]] sections)")
    for index, reader in enumerate(readers):  # every command reads the config whole (README): the readers too
        reader_settings(reader, f"readers[{index}]", file)
    table = read_section(TableSection, top.get("table"), "table", check)
    dice = read_section(DiceSection, top.get("dice"), "dice", check)
    hardware = read_section(HardwareSection, top.get("hardware"), "hardware", check)
    panels = read_section(PanelsSection, top.get("panels"), "panels", check)
    if panels.interface == "spi" and "multiplexer" not in top["panels"]:  # no multiplexer by default on SPI
        panels = dataclasses.replace(panels, multiplexer="none")
    if panels.interface == "spi" and panels.multiplexer != "none":
        check.fail("panels.multiplexer", 'an I²C multiplexer does not apply to SPI panels; use "none"')
    kiosk = read_section(KioskSection, top.get("kiosk"), "kiosk", check)
    web = read_section(WebSection, top.get("web"), "web", check)
    table_buttons = defaults.table_buttons
    if "table_buttons" in top:
        spec = check.table(top["table_buttons"], "table_buttons", TABLE_ACTIONS)
        table_buttons = tuple(
            _button(check, spec[action], f"table_buttons.{action}", action, None, TABLE_ACTIONS)
            for action in TABLE_ACTIONS
            if action in spec
        )
    buttons = [(f"table_buttons.{b.action}", b) for b in table_buttons]
    if "players" in top:
        seated = _seats(check, top["players"])
        seats = tuple(seat for seat, _ in seated)
        buttons += [pair for _, pairs in seated for pair in pairs]
    else:
        seats = defaults.seats
        if web.enabled:  # the pairing QR on a long press of slot a (slot c's long press is the peek)
            seats = tuple(
                dataclasses.replace(
                    seat, buttons=tuple(dataclasses.replace(b, long=PAIR) if b.slot == "a" else b for b in seat.buttons)
                )
                for seat in seats
            )
        buttons += [(f"players[{i}].buttons.{b.slot}", b) for i, seat in enumerate(seats) for b in seat.buttons]
    used_pins = _check_seats_and_buttons(check, seats, buttons)
    _check_panels(check, seats, panels, used_pins)
    house_rules = _house_rules(check, top.get("house_rules", {}), table.game, file)
    from companion.games import game_info

    info = game_info(table.game)
    if len(seats) < info.min_players:
        check.fail("players", f"{info.title} needs at least {info.min_players} seats, not {len(seats)}")
    return Config(
        file,
        table,
        dice,
        hardware,
        panels,
        kiosk,
        seats,
        table_buttons,
        house_rules,
        tuple(dict(r) for r in readers),
        web=web,
    )
