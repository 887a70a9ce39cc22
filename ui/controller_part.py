"""What the controller's parts (the mixins of :class:`ui.controller.TableController`: :mod:`ui.home`,
:mod:`ui.dice_bar`, :mod:`ui.history_view`, :mod:`ui.player_panels`) may use of the controller, declared once for the
type checker. At run time :class:`ControllerPart` is an empty base: the controller itself has all of it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any


class ControllerPart:
    """The controller's attributes and methods its parts use (see :class:`ui.controller.TableController`)."""

    if TYPE_CHECKING:
        from companion.config import Config
        from companion.history import HistoryWindow
        from companion.table import Table

        table: Table
        config: Config
        buttons: Any
        panels: Any
        readers: Any
        tray: Any
        screens: Any
        popup: Any
        chosen_game: str
        touch_problem: str
        home_hint: str
        message: str
        message_refused: bool
        dice_roller: str
        held_text: str
        held_confirm: bool
        held_usable: bool
        reader_status: str
        reader_trouble: bool
        _new_game_armed_until: float
        _panels_on_home: bool | None
        _history: HistoryWindow | None
        _panel_trouble_seen: int
        _panel_trouble_said: str

        def post(self, command: Any) -> None: ...

        def say(self, text: str, refused: bool = False) -> None: ...

        def open_popup(self, popup: Any) -> Any: ...

        def refresh(self) -> None: ...

        def show_dashboard(self) -> None: ...
