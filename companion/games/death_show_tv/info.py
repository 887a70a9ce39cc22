"""Death Show TV: the game's static facts (:class:`companion.game.GameInfo`), importable without its rules.

The house rules (``[house_rules]`` in the config) are :data:`INFO`'s ``options``; their rulings are in
``docs/rulings-death-show-tv.md`` (R1, R2, …).
"""

from companion.game import ButtonSlot, GameInfo, OptionSpec

#: The two-player rule's settings (ruling R8): as printed (a game started with two), also when two are left, never.
TWO_PLAYER_RULES = ("start", "two_left", "off")
#: How a Fumble combines with Multiple Combat 2 (ruling R5): the Fumblers lose instead of the lowest totals
#: (the default), or the lowest non-Fumbling totals lose as well.
MULTIPLE_COMBAT_FUMBLES = ("instead_of_lowest", "and_lowest")

OPTIONS = (
    OptionSpec(
        "vitality",
        int,
        4,
        "starting Vitality Points, 1-20 (When a Contestant Dies: 'Contestants start with 4 Vitality Points')",
    ),
    OptionSpec(
        "roll_off",
        bool,
        True,
        "choose the first player by a roll-off, ties re-rolling (Starting the Game); false: the first seat starts",
    ),
    OptionSpec(
        "location_rules",
        dict,
        {},
        "Location name -> a note of its optional special rule, shown on the map (Location Cards); 1-200 characters",
    ),
    OptionSpec("starting_cards", int, 0, "Show cards each Contestant holds at the start, 0-7 (ruling R2)"),
    OptionSpec("event_fumbles", bool, True, "an Event card's die fumbles on a 1 like a Contestant's (ruling R6)"),
    OptionSpec(
        "two_player_rule",
        str,
        "start",
        "when Two-Player Games' fumble on a 1 or 2 applies: 'start' (a game of two), 'two_left' or 'off' (R8)",
        choices=TWO_PLAYER_RULES,
    ),
    OptionSpec(
        "multiple_combat_fumbles",
        str,
        "instead_of_lowest",
        "a Multiple Combat with a Fumble: the Fumblers lose 'instead_of_lowest' total, or 'and_lowest' too (R5)",
        choices=MULTIPLE_COMBAT_FUMBLES,
    ),
)

INFO = GameInfo(
    name="death-show-tv",
    title="Death Show TV",
    min_players=2,
    max_players=8,  # Components: 8 Contestant cards
    player_word="Contestants",
    #: The three Contestants the rulebook names, then short stand-ins (ruling R17).
    default_names=("Kelpie", "Jhon", "Elena", "Rex", "Mina", "Otto", "Zoe", "Dante"),
    buttons=(
        ButtonSlot("a", "on_the_air", "Bonus +1"),
        ButtonSlot("b", "sponsor", "Confirm"),
        ButtonSlot("c", "roll", "Roll"),
    ),
    options=OPTIONS,
    board="ui.games.death_show_tv.board:DeathShowBoard",
    rules="companion.games.death_show_tv.rules:DEATH_SHOW_TV",
    # bgg_id: none found (searched for Death Show TV on BoardGameGeek; not guessed). No score: the last
    # Contestant standing wins (Objective of the Game).
)
