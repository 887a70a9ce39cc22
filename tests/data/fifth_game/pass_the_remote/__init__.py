"""Pass the Remote: a push-your-luck test game (rules in RULES.md beside this file). It proves that a game is
one folder: its facts (info), state, commands, typed events, rules, view, board and panel text live here, and
the companion finds it through the ``tabletop_companion.games`` entry point in this folder's pyproject.toml."""
