"""Pass the Remote's static facts, importable without its rules."""

from companion.game import ButtonSlot, GameInfo, OptionSpec

INFO = GameInfo(
    name="pass-the-remote",
    title="Pass the Remote",
    min_players=2,
    max_players=4,
    player_word="viewers",
    default_names=("Ann", "Bob", "Cat", "Dan"),
    buttons=(ButtonSlot("a", "watch", "Watch"), ButtonSlot("b", "pass", "Pass"), ButtonSlot("c", "roll", "Roll")),
    options=(OptionSpec("target", int, 15, "points that win (rule 5)"),),
    rules="pass_the_remote.rules:PASS_THE_REMOTE",
    board="pass_the_remote.board:RemoteBoard",
)
