"""Channel WON: the game's static facts (:class:`companion.game.GameInfo`), importable without its rules."""

from companion.game import ButtonSlot, GameInfo, OptionSpec

#: The ``next_round_order`` house rule's choices (Prepping the Next Round).
NEXT_ROUND_ORDERS = ("clockwise", "fewest_points")

INFO = GameInfo(
    name="channel-won",
    title="Channel WON",
    min_players=2,  # Components: Pass Tokens and Reporter Tiles for 2 to 6 players
    max_players=6,
    player_word="reporters",
    default_names=("Ava", "Ben", "Cleo", "Dev", "Eli", "Fay"),
    buttons=(
        ButtonSlot("a", "on_the_air", "Card +1"),
        ButtonSlot("b", "sponsor", "Pass/Done"),
        ButtonSlot("c", "roll", "Roll"),
    ),
    board="ui.games.channel_won.board:ChannelWonBoard",
    rules="companion.games.channel_won.rules:CHANNEL_WON",
    # bgg_id: none found for Channel WON (searched, not guessed).
    score="points",  # the most points after three rounds wins (Objective)
    options=(
        OptionSpec(
            "categories",
            list,
            None,
            "the news categories in play (Setup: 2 players use four, 3-4 five, 5-6 all six); "
            "none given: the first ones in the rulebook's order",
        ),
        OptionSpec(
            "leads",
            dict,
            {},
            "the three printed Lead cards of a category, {category: [card, card, card]} in round order "
            "(Setup: select THREE Lead Cards from each category; card format in companion/games/channel_won/cards.py)",
        ),
        OptionSpec(
            "characters",
            dict,
            {},
            "each player's Character card, {player: Character name}; each a different one (Setup, Character "
            "Abilities: one Reporter Power per game)",
        ),
        OptionSpec(
            "first_player",
            str,
            "",
            "who starts round 1: the player who most recently watched the news (Setup); empty: the first seat",
        ),
        OptionSpec(
            "score_open_leads",
            bool,
            False,
            "house rule: contributors of a Lead still open at the End of Round score its value too (the rulebook "
            "scores closed Leads only; an open Lead still costs a star, Network Ratings)",
        ),
        OptionSpec(
            "next_round_order",
            str,
            "clockwise",
            "Prepping the Next Round: 'clockwise' from the player with the fewest points (the rulebook), or "
            "'fewest_points' for everyone in order of points",
            choices=NEXT_ROUND_ORDERS,
        ),
        OptionSpec(
            "catalogue",
            list,
            [],
            "the printed Lead cards, or a catalogue file of them (format in companion/games/channel_won/cards.py); "
            "each category not in 'leads' is dealt its first three (Setup)",
            read_file="companion.games.channel_won.rules:read_catalogue_option",
        ),
    ),
)
