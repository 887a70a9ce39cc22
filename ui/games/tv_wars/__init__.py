"""The tv_wars board and its layout (board.kv), loaded when the game is first shown."""
