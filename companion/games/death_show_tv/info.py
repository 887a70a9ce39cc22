"""Death Show TV: the game's static facts (:class:`companion.game.GameInfo`), importable without its rules."""

from companion.game import ButtonSlot, GameInfo

INFO = GameInfo(
    name="death-show-tv",
    title="Death Show TV",
    min_players=2,
    max_players=8,
    player_word="Contestants",
    default_names=('Kelpie', 'Jhon', 'Elena', 'Rex', 'Mina', 'Otto', 'Zoe', 'Dante'),
    buttons=(
        ButtonSlot("a", "on_the_air", "Bonus +1"),
        ButtonSlot("b", "sponsor", "Confirm"),
        ButtonSlot("c", "roll", "Roll"),
    ),
    board="ui.games.death_show_tv.board:DeathShowBoard",
    rules="companion.games.death_show_tv.rules:DEATH_SHOW_TV",
)
