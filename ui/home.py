"""The Home screen's logic, a part of :class:`ui.controller.TableController`: the game picker, the New game buttons
(as many seats as the chosen game takes, named for it), the saved games, and the table buttons on Home (Undo
resumes the last game; Redo twice starts a new one), said on the screen and on every panel."""

from __future__ import annotations

import time

from kivy.metrics import dp

from companion.commands import NewGame, OpenGame, PlayerSeat
from companion.config import BUILT_IN_SEAT_NAMES, Config
from companion.game import GameInfo
from companion.games import game_info, game_names, game_title
from ui.controller_part import ControllerPart
from ui.widgets import GameChoice

#: Seconds within which a second Redo press on the Home screen starts the new game.
NEW_GAME_CONFIRM = 10.0


class HomeMixin(ControllerPart):
    """The Home screen's part of the controller (its state is set up by the controller's ``__init__``)."""

    def _last_game(self):
        """The saved game the Undo button resumes on Home: the most recent unfinished one, else the most recent."""
        games = sorted(self.table.journal.games(), key=lambda g: (g.last_time or g.created, g.id), reverse=True)
        unfinished = [g for g in games if g.status != "finished"]
        return (unfinished or games or [None])[0]

    def _home_new_game_text(self) -> str:
        info = game_info(self.config.game)  # the Home screen imports no game's rules (issue 17: lean start)
        count = min(len(self.config.seats), info.max_players)
        return f"new {info.title} game, {count} {info.player_word}"

    def home_button(self, action: str) -> None:
        """A table button pressed on the Home screen: ``undo`` resumes the last game (:meth:`_last_game`),
        ``redo`` pressed twice within :data:`NEW_GAME_CONFIRM` seconds starts a new game of the configured game
        with the configured seats (as many as it takes). Said on the screen and on every panel."""
        if action == "undo":
            game = self._last_game()
            if game is None:
                self._tell_table("No saved game to resume: press Redo twice for a " + self._home_new_game_text())
                return
            self._new_game_armed_until = 0.0
            self.resume(game.id)
            return
        if time.monotonic() < self._new_game_armed_until:
            self._new_game_armed_until = 0.0
            self.chosen_game = self.config.game
            self.new_game(min(len(self.config.seats), game_info(self.config.game).max_players))
            return
        self._new_game_armed_until = time.monotonic() + NEW_GAME_CONFIRM
        self._tell_table(f"Press Redo again to start a {self._home_new_game_text()}")

    def _home_panels(self, on_home: bool) -> None:
        """On the Home screen every panel says what the table buttons do there (and that touch is off, when
        it is); leaving Home clears that, and a game opened without touch says so for a few seconds."""
        if self.panels is None or self.buttons is None:
            return
        if on_home == getattr(self, "_panels_on_home", None):
            return
        self._panels_on_home = on_home
        if on_home:
            game = self._last_game()
            lines = (
                (["Touch off"] if self.touch_problem else [])
                + ([f"Undo: resume #{game.id}"] if game is not None else [])
                + ["Redo twice:", "new game"]
            )
            text, seconds = "\n".join(lines), 24 * 3600.0
        else:
            text, seconds = ("Touch unavailable", 10.0) if self.touch_problem else ("", 0.0)
        if time.monotonic() >= self._new_game_armed_until:
            for seat in range(len(self.config.seats)):
                self.panels.flash(seat, text, seconds=seconds)

    def _tell_table(self, text: str) -> None:
        """Say ``text`` in the message bar and on every panel (for a few seconds)."""
        self.say(text)
        if self.panels is not None:
            for seat in range(len(self.config.seats)):
                self.panels.flash(seat, text, seconds=NEW_GAME_CONFIRM)

    def new_game(self, count: int) -> None:
        """Start a new game of the chosen game (``chosen_game``) with the first ``count`` seats. The config's
        house rules apply to the configured game only; another game starts with its own defaults."""
        game = self.chosen_game or self.config.game
        names = seat_names(self.config, game_info(game), count)
        seats = tuple(PlayerSeat(name, s.colour) for name, s in zip(names, self.config.seats))
        options = dict(self.config.house_rules) if game == self.config.game else {}
        self.post(NewGame(game=game, players=seats, options=options))

    def choose_game(self, game: str) -> None:
        """Pick which game the home screen's New game buttons start."""
        self.chosen_game = game
        self.screens.get_screen("home").ids.new_game_box.clear_widgets()
        self.refresh()  # the home buttons, and the simulator's key help in that game's words

    def resume(self, game_id: int) -> None:
        """Resume a saved game (the one already open just goes back to its dashboard)."""
        if self.table.session is not None and self.table.session.game_id == game_id:
            self.show_dashboard()
            return
        self.post(OpenGame(game_id=game_id))

    def _refresh_home(self) -> None:
        """Redraw the Home screen: the game picker, the New game buttons, the saved games and the hint."""
        home = self.screens.get_screen("home")
        info = game_info(self.chosen_game or self.config.game)  # its rules are imported when a game starts
        home.game_title = info.title
        self._show_game_picker(home.ids.game_picker, info.name)
        if not home.ids.new_game_box.children:
            self._show_new_game_buttons(home.ids.new_game_box, info)
        self._show_saved_games(home.ids.games_box)
        hint = []
        if self.buttons is not None:
            last = self._last_game()
            hint.append(
                "Buttons: "
                + (f"Undo resumes #{last.id} · " if last is not None else "")
                + f"Redo twice starts a {self._home_new_game_text()}"
            )
        self.home_hint = "\n".join(filter(None, [self.touch_problem, *hint]))

    def _show_game_picker(self, picker, chosen: str) -> None:
        """One toggle per registered game (titles only: no game's rules are imported), ``chosen`` down."""
        if not picker.children:
            for name in game_names():
                button = GameChoice(text=game_title(name), game=name)
                button.bind(on_release=lambda b: self.choose_game(b.game))
                picker.add_widget(button)
        for button in picker.children:
            button.state = "down" if button.game == chosen else "normal"

    def _show_new_game_buttons(self, box, info: GameInfo) -> None:
        """One New game button per player count the game (``info``) and the seats allow, with the seats' names."""
        from kivy.factory import Factory

        word = info.player_word
        counts = range(info.min_players, min(info.max_players, len(self.config.seats)) + 1)
        for count in counts:
            names = " · ".join(seat_names(self.config, info, count))
            small = "18sp"  # the seats' names: read at the table, so no smaller than any other text
            noun = word[:-1] if count == 1 and word.endswith("s") else word  # "1 player"
            button = Factory.BigButton(text=f"{count} {noun}\n[size={small}]{names}[/size]", markup=True)
            button.bind(on_release=lambda b, n=count: self.new_game(n))
            box.add_widget(button)

    def _show_saved_games(self, box) -> None:
        """The saved games, most recently played first; a tap resumes one."""
        from kivy.factory import Factory

        games = self.table.journal.games()
        box.clear_widgets()
        for game in sorted(games, key=lambda g: (g.last_time or g.created, g.id), reverse=True):
            names = ", ".join(p["name"] for p in game.players)
            when = time.strftime("%d %b %H:%M", time.localtime(game.last_time or game.created))
            events = f"{game.events} event" + ("" if game.events == 1 else "s")
            label = f"#{game.id} · {game_title(game.game)} · {names} · {events} · {when}"
            if game.status == "finished":
                label += " · finished"
            # the whole line, wrapped (a portrait screen, 480 px across, needs two lines): never an ellipsis
            button = Factory.BigButton(text=label, font_size="18sp", size_hint_y=None, height=dp(48))
            button.bind(texture_size=lambda b, size: setattr(b, "height", max(dp(48), size[1] + dp(12))))
            button.bind(on_release=lambda b, g=game.id: self.resume(g))
            box.add_widget(button)
        if not games:
            box.add_widget(Factory.BarLabel(text="No saved games yet.", size_hint_y=None, height=dp(40)))


def seat_names(config: Config, info: GameInfo, count: int) -> list[str]:
    """The names of the first ``count`` seats for a game (its ``info``): the config's own names, except that the
    built-in seats (:data:`companion.config.BUILT_IN_SEAT_NAMES`, a config without ``[[players]]``) take the game's
    own ``default_names`` when it has enough of them."""
    names = [seat.name for seat in config.seats[:count]]
    defaults = tuple(info.default_names)
    if tuple(names) == BUILT_IN_SEAT_NAMES[:count] and len(defaults) >= count:
        return list(defaults[:count])
    return names
