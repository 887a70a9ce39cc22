"""The channel_won board and its layout (board.kv), loaded when the game is first shown."""
