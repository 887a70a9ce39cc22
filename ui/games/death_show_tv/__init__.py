"""The death_show_tv board and its layout (board.kv), loaded when the game is first shown."""
