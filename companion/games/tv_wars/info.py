"""TV Wars: the game's static facts (:class:`companion.game.GameInfo`), importable without its rules."""

from companion.game import ButtonSlot, GameInfo, OptionSpec

#: Dollars each network starts with (TV Wars 2.4).
STARTING_CASH = 31_000

INFO = GameInfo(
    name="tv-wars",
    title="TV Wars",
    min_players=2,
    max_players=4,
    player_word="networks",
    default_names=("ABS", "CBA", "PBC", "NBS"),
    buttons=(
        ButtonSlot("a", "on_the_air", "On the Air · Bid"),
        ButtonSlot("b", "sponsor", "Sponsor · Pass · Lock in"),
        ButtonSlot("c", "roll", "Roll"),
    ),
    options=(
        OptionSpec(
            "roll_off",
            bool,
            True,
            "roll for Best Network News to decide who starts (TV Wars 2.5); false gives it to the first seat",
        ),
        OptionSpec(
            "starting_cash",
            int,
            STARTING_CASH,
            "whole dollars each network starts with (TV Wars 2.4: $31,000; at most $1,000,000, which the cards show)",
            most=1_000_000,
        ),
        OptionSpec(
            "counter_programming_four",
            int,
            -30,
            "Counter-Programming penalty when four networks share a colour in a slot: -30 or -20 "
            "(TV Wars 6.5 stops at three; see docs/rulings.md)",
        ),
        OptionSpec(
            "situation_comedies_per_length",
            bool,
            False,
            "five Situation Comedies of each length instead of five in all "
            "(TV Wars 2.3 'up to five Situation Comedies'; see docs/rulings.md)",
        ),
    ),
    board="ui.games.tv_wars.board:TvWarsBoard",
    cli="companion.games.tv_wars.cli:add_subcommands",
    rules="companion.games.tv_wars.rules:TV_WARS",
    # BoardGameGeek's TV Wars (Avalon Hill, 1987, 3-4 players): id 1031, as the BGG data mirror
    # https://bgg-research.huynhrobert.com/inspect/1031 shows it (BGG's own page was not reachable from here).
    bgg_id=1031,
    score="cash",  # the most money wins (TV Wars 1, 8)
)
