"""Player and table buttons (gpiozero): each press becomes one command posted to the table.

Each configured button is a gpiozero digital input (internal pull-up, switch to ground). Its raw
edges, each with the timestamp the pin library gave it, go through a :class:`~hardware.debounce.PressDetector`
(debounce, short versus long press, decided from those timestamps); the resulting action only *posts* a
command; the table's owner thread applies it. Every button's timed checks run on one
:class:`~hardware.debounce.SchedulerThread`. Which player a seat's buttons act for follows the open game: the
owner thread calls :meth:`ButtonBoard.seat_players` after each change.

On a desktop the pins are gpiozero's :class:`~gpiozero.pins.mock.MockFactory` pins, and the simulator
drives them from keyboard keys (:meth:`ButtonBoard.key_down` / :meth:`ButtonBoard.key_up`), so the same
code path runs as on a Pi. Wiring: see ``wiring.md``.

A seat's buttons are the slots ``a``, ``b`` and ``c`` (config ``buttons.a``); what each stands for and what it is
called follow the game in use, which the owner thread tells the board (:meth:`ButtonBoard.use_game`, the game's
:class:`companion.game.ButtonSlot` list). Until a game is told, a slot stands for its default action
(:data:`companion.config.SLOT_ACTIONS`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping, Sequence

from gpiozero import DigitalInputDevice
from gpiozero.pins.mock import MockFactory

from companion.commands import Command, Redo, Undo
from companion.config import PAIR, PEEK, SLOT_ACTIONS, SLOT_ALIASES, SLOTS, ButtonConfig, Config
from companion.errors import CommandError
from companion.game import ButtonSlot
from hardware.debounce import PressDetector, Scheduler, SchedulerThread
from hardware.pins import make_pin_factory

log = logging.getLogger("companion.buttons")

CommandFor = Callable[[str, str], Command]  # (action, player name) -> command


class _Switch(DigitalInputDevice):
    """A push switch to ground on a gpiozero input (pull-up; active = pressed) that hands every raw edge to
    ``on_edge(ticks, pressed)``: ``ticks`` as the pin factory stamped the change (lgpio: the kernel's
    timestamp), ``pressed`` the level it changed to; gpiozero's own events carry neither. Not a
    :class:`~gpiozero.Button`: its hold thread (one per button) would go unused."""

    def __init__(self, pin: int, *, on_edge: Callable[[float, bool], None], **options) -> None:
        self._on_edge = on_edge
        super().__init__(pin, **options)

    def _pin_changed(self, ticks, state) -> None:
        super()._pin_changed(ticks, state)
        self._on_edge(ticks, bool(self._state_to_value(state)))


class ButtonBoard:
    """Every configured button, wired to post commands.

    ``post`` is the table's thread-safe :meth:`~companion.table.Table.post`; ``command_for(action,
    player)`` builds a player button's command (the open game's ``button_command``). ``scheduler`` runs
    the timed checks (default: a :class:`~hardware.debounce.SchedulerThread` of the board's own, stopped
    by :meth:`close`). ``close()`` releases every pin and is safe to call twice, so set-up and teardown
    can repeat in one process.
    """

    def __init__(
        self,
        config: Config,
        post: Callable[[Command], None],
        command_for: CommandFor,
        *,
        simulate: bool = False,
        pin_factory=None,
        scheduler: Scheduler | None = None,
    ) -> None:
        self._post = post
        self._command_for = command_for
        self._config = config
        self._own_thread: SchedulerThread | None = None  # a thread of the board's own, closed by close()
        if scheduler is None:
            scheduler = self._own_thread = SchedulerThread()
        self._scheduler: Scheduler = scheduler
        self.factory = (
            pin_factory if pin_factory is not None else make_pin_factory(config.pin_factory, simulate=simulate)
        )
        self._players: tuple[str | None, ...] = ()
        #: The game in use's slots: ``({slot: action}, {slot: label})`` (:meth:`use_game`), swapped whole.
        self._slots: tuple[Mapping[str, str], Mapping[str, str]] = ({}, {})
        self._keys: dict[str, tuple[int | None, int | None, ButtonConfig]] = {}
        self._key_down_at: dict[int, float] = {}
        #: While set, presses go to ``capture(seat, button, action)`` instead of the table (self-test).
        self.capture: Callable[[int | None, ButtonConfig, str], None] | None = None
        #: ``on_peek(seat, player, held)``: a ``long = "peek"`` button was held (``held=True``, at the hold
        #: time) or released after that (``held=False``). Display only: a peek never posts a command. Called
        #: on the scheduler thread or the pins' callback thread; the UI hops to its own thread.
        self.on_peek: Callable[[int, str, bool], None] | None = None
        #: ``on_pair(seat, player)``: a ``long = "pair"`` button was held: show the seat's phone pairing QR code
        #: on its panel (web front-end). Display only, never a command; same threads as ``on_peek``.
        self.on_pair: Callable[[int, str], None] | None = None
        self._buttons: list[_Switch] = []
        self.detectors: dict[int, PressDetector] = {}  # by BCM pin
        try:
            for seat_index, seat in enumerate(config.seats):
                for button in seat.buttons:
                    self._add(button, seat_index)
            for button in config.table_buttons:
                self._add(button, None)
        except Exception:
            self.close()  # never leave half the pins claimed
            raise

    def _add(self, button: ButtonConfig, seat: int | None) -> None:
        pin = button.pin
        if pin is not None:
            device = _Switch(
                pin,
                pull_up=True,
                bounce_time=None,
                pin_factory=self.factory,
                on_edge=lambda ticks, pressed: self._edge(pin, ticks, pressed),
            )
            self._buttons.append(device)
            detector = PressDetector(
                bounce_time=self._config.bounce_time,
                hold_time=self._config.hold_time,
                scheduler=self._scheduler,
                pressed=device.is_active,
                ticks_diff=self.factory.ticks_diff,
                on_short=lambda: self.press(button, seat),
                on_long=(lambda: self.press(button, seat, button.long)) if button.long else None,
                on_long_release=(lambda: self._peek(seat, False)) if button.long == PEEK else None,
            )
            self.detectors[pin] = detector
        if button.key is not None:
            self._keys[button.key] = (button.pin, seat, button)

    def _edge(self, pin: int, ticks: float, pressed: bool) -> None:
        """A raw edge on ``pin`` (the pin factory's callback thread): to its detector, if it has one yet."""
        detector = self.detectors.get(pin)
        if detector is not None:
            detector.edge(ticks, pressed)

    def seat_players(self, players: Sequence[str | None]) -> None:
        """Say which player sits at each seat now (owner thread; an atomic swap)."""
        self._players = tuple(players)

    def use_game(self, slots: Sequence[ButtonSlot]) -> None:
        """Say what the seat button slots mean in the game in use (its :class:`companion.game.ButtonSlot` list: the
        action each slot stands for and its label). Owner thread; an atomic swap."""
        self._slots = ({s.slot: s.action for s in slots}, {s.slot: s.label for s in slots})

    def game_action(self, action: str) -> str:
        """The game in use's action for a seat button's ``action`` (a slot or a slot's default action, as the config
        stores them); any other action (``peek``, ``undo``) as it is."""
        slot = SLOT_ALIASES.get(action, action)
        if slot not in SLOTS:
            return action
        return self._slots[0].get(slot, SLOT_ACTIONS[slot])

    def press(self, button: ButtonConfig, seat: int | None, action: str | None = None) -> None:
        """Handle one press of ``button`` at ``seat`` (``None`` = a table button): post the command for
        ``action`` (default: the button's own action; a long press passes the button's ``long`` action)."""
        action = action or button.action
        capture = self.capture
        if capture is not None:  # the touchscreen self-test is listening: nothing reaches the table
            capture(seat, button, action)
            return
        if action == PEEK:
            self._peek(seat, True)
            return
        if action == PAIR:
            self._pair(seat)
            return
        try:
            if seat is None:
                self._post(Undo(source="button") if action == "undo" else Redo(source="button"))
                return
            player = self._players[seat] if seat < len(self._players) else None
            if player is None:
                log.info("seat %d pressed %s, but the seat is not in the game", seat + 1, action)
                return
            self._post(self._command_for(self.game_action(action), player))
        except CommandError as error:
            log.warning("button %s at seat %s: %s", action, seat, error)

    def _peek(self, seat: int | None, held: bool) -> None:
        """Tell ``on_peek`` that ``seat``'s player holds (or released) its peek button; never a command."""
        player = self._players[seat] if seat is not None and seat < len(self._players) else None
        if seat is None or player is None or self.on_peek is None:
            return
        try:
            self.on_peek(seat, player, held)
        except Exception:  # a display problem must never take the buttons down
            log.exception("peek at seat %s failed", seat)

    def _pair(self, seat: int | None) -> None:
        """Tell ``on_pair`` that ``seat``'s player asked for its pairing QR code; never a command."""
        player = self._players[seat] if seat is not None and seat < len(self._players) else None
        if seat is None or player is None or self.on_pair is None:
            log.info("seat %s asked to pair a phone, but the web front-end is off", seat)
            return
        try:
            self.on_pair(seat, player)
        except Exception:  # a display problem must never take the buttons down
            log.exception("pairing at seat %s failed", seat)

    # -- simulator keyboard ---------------------------------------------------------------------------
    def key_down(self, key: str) -> bool:
        """A keyboard key went down: drive its mock pin low (pressed). Returns True if the key is a button."""
        return self._drive(key, low=True)

    def key_up(self, key: str) -> bool:
        """A keyboard key went up: release its mock pin. Returns True if the key is a button."""
        return self._drive(key, low=False)

    def _drive(self, key: str, low: bool) -> bool:
        if key not in self._keys:
            return False
        pin, seat, button = self._keys[key]
        if pin is None:
            if low:
                self.press(button, seat)
            return True
        if not isinstance(self.factory, MockFactory):
            return True  # real pins are pressed by hand, not by the keyboard
        mock_pin = self.factory.pin(pin)
        if low:
            mock_pin.drive_low()
            self._key_down_at[pin] = time.monotonic()
            return True
        # A key tap can be shorter than the debounce time; hold the pin like a finger would, so a tap is
        # never filtered out as bounce.
        shortest = self._config.bounce_time * 2
        held = time.monotonic() - self._key_down_at.pop(pin, 0.0)
        if held >= shortest:
            mock_pin.drive_high()
        else:
            self._scheduler.call_at(self._scheduler.now() + shortest - held, mock_pin.drive_high)
        return True

    @property
    def scheduler(self) -> Scheduler:
        """The one scheduler that runs every button's timed callbacks."""
        return self._scheduler

    def key_help(self, seat_names: Sequence[str]) -> list[str]:
        """Short keyboard help: the seat buttons' labels in the game in use (:meth:`use_game`; a slot's default
        action before a game is told), one part per seat with its keys in that order (``"ABS q w e"``), then the
        table keys (``"Undo backspace"``)."""
        labels = {"undo": "Undo", "redo": "Redo", **self._slots[1]}
        seats: dict[int | None, list[tuple[str, str]]] = {}
        for key, (_, seat, button) in self._keys.items():
            seats.setdefault(seat, []).append((button.slot or button.action, key))
        names = [name for name, _ in next((v for k, v in seats.items() if k is not None), [])]
        say = lambda name: labels.get(name, SLOT_ACTIONS.get(name, name))
        parts = ["Keys (" + " / ".join(map(say, names)) + "):"] if names else []
        parts += [f"{name} " + " ".join(key for _, key in seats.get(i, [])) for i, name in enumerate(seat_names)]
        parts += [f"{say(action)} {key}" for action, key in seats.get(None, [])]
        return parts

    def close(self) -> None:
        """Release every pin and timer (safe to call twice)."""
        for detector in self.detectors.values():
            detector.close()
        self.detectors.clear()
        for device in self._buttons:
            device.close()
        self._buttons.clear()
        if self._own_thread is not None:
            self._own_thread.close()
        if isinstance(self.factory, MockFactory):
            self.factory.reset()
