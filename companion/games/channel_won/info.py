"""Channel WON: the game's static facts (:class:`companion.game.GameInfo`), importable without its rules."""

from companion.game import ButtonSlot, GameInfo, OptionSpec

INFO = GameInfo(
    name="channel-won",
    title="Channel WON",
    min_players=2,
    max_players=6,
    player_word="reporters",
    default_names=('Ava', 'Ben', 'Cleo', 'Dev', 'Eli', 'Fay'),
    buttons=(
        ButtonSlot("a", "on_the_air", "Card +1"),
        ButtonSlot("b", "sponsor", "Pass/Done"),
        ButtonSlot("c", "roll", "Roll"),
    ),
    board="ui.games.channel_won.board:ChannelWonBoard",
    rules="companion.games.channel_won.rules:CHANNEL_WON",
    options=(
        OptionSpec(
            "catalogue",
            list,
            [],
            "the printed Lead cards, or a catalogue file of them (format in companion/games/channel_won/cards.py)",
            read_file="companion.games.channel_won.rules:read_catalogue_option",
        ),
    ),
)
