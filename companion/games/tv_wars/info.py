"""TV Wars: the game's static facts (:class:`companion.game.GameInfo`), importable without its rules."""

from companion.game import ButtonSlot, GameInfo

INFO = GameInfo(
    name="tv-wars",
    title="TV Wars",
    min_players=2,
    max_players=4,
    player_word="networks",
    default_names=('ABS', 'CBA', 'PBC', 'NBS'),
    buttons=(
        ButtonSlot("a", "on_the_air", "On the Air · Raise $500"),
        ButtonSlot("b", "sponsor", "Sponsor · Pass"),
        ButtonSlot("c", "roll", "Roll"),
    ),
    board="ui.games.tv_wars.board:TvWarsBoard",
    rules="companion.games.tv_wars.rules:TV_WARS",
)
