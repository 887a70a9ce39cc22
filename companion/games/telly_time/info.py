"""Telly Time: the game's static facts (:class:`companion.game.GameInfo`), importable without its rules.

The options are the house rules and set-up values a config may give under ``[house_rules]``; each help
line cites the rule it changes (rules/the-networks-telly-time.txt, docs/rulings-telly-time.md).
"""

from companion.game import ButtonSlot, GameInfo, OptionSpec

#: The nine genres of the grid tiles by default (ruling 2: only Drama, Kids, Quiz and Chat are named in the
#: module's rulebook; the others are our assumption). The rules import this as ``DEFAULT_GENRES``.
DEFAULT_GENRES: tuple[str, ...] = ("Drama", "Comedy", "Crime", "Reality", "Sports", "Sci-Fi", "Kids", "Quiz", "Chat")

INFO = GameInfo(
    name="telly-time",
    title="Telly Time",
    min_players=1,
    max_players=5,
    player_word="players",
    default_names=("Arkady", "Virginia", "Kim", "Lou", "Sam"),
    buttons=(
        ButtonSlot("a", "on_the_air", "Turn done"),
        ButtonSlot("b", "sponsor", "Cash +$1M"),
        ButtonSlot("c", "roll", "Roll"),
    ),
    board="ui.games.telly_time.board:TellyTimeBoard",
    rules="companion.games.telly_time.rules:TELLY_TIME",
    # bgg_id: none found for The Networks: Telly Time (a BoardGameGeek expansion entry was searched for, not
    # guessed).
    score="viewers",  # the most viewers wins (Telly Time: End-Game Scoring)
    options=(
        OptionSpec(
            "moguls",
            bool,
            False,
            "playing with the Moguls module: the second line completed gives a mogul bonus (Telly Time: Mogul Bonus)",
        ),
        OptionSpec(
            "starting_cash_m",
            int,
            0,
            "each network's cash at the start, whole $M >= 0 (the base game's amount is not in our rulebook; "
            "ruling 10)",
        ),
        OptionSpec(
            "genres",
            list,
            list(DEFAULT_GENRES),
            "the nine genres of the grid tiles, one per square, including Kids, Quiz and Chat "
            "(Telly Time: New Genres & Show Effects; ruling 2)",
        ),
        OptionSpec(
            "tiles",
            dict,
            {},
            'the tiles as printed, by centre genre: {"squares": [9 genres row by row], "bonuses": {line: '
            '{label, cash_m, viewers}}}, or a tile catalogue file of them (format in docs/rulings-telly-time.md) '
            "(Telly Time: Your Genre Grid; ruling 1)",
            read_file="companion.games.telly_time.grid:read_tile_catalogue",
        ),
        OptionSpec(
            "first_player",
            str,
            None,
            "who starts season 1 (default: the first seat; ruling 8)",
        ),
        OptionSpec(
            "turn_order",
            str,
            "pass_order",
            "the next season's turn order: in the order players passed, or always seat order (ruling 8)",
            choices=("pass_order", "seat"),
        ),
        OptionSpec(
            "allow_negative_cash",
            bool,
            False,
            "let a cost take cash below $0M (the companion refuses it by default: ruling 9)",
        ),
    ),
)
