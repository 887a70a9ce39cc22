"""Telly Time: the game's static facts (:class:`companion.game.GameInfo`), importable without its rules."""

from companion.game import ButtonSlot, GameInfo

INFO = GameInfo(
    name="telly-time",
    title="Telly Time",
    min_players=1,
    max_players=5,
    player_word="players",
    default_names=('Arkady', 'Virginia', 'Kim', 'Lou', 'Sam'),
    buttons=(
        ButtonSlot("a", "on_the_air", "Turn done"),
        ButtonSlot("b", "sponsor", "Cash +$1M"),
        ButtonSlot("c", "roll", "Roll"),
    ),
    board="ui.games.telly_time.board:TellyTimeBoard",
    rules="companion.games.telly_time.rules:TELLY_TIME",
)
