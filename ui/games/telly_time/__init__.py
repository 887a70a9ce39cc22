"""The telly_time board and its layout (board.kv), loaded when the game is first shown."""
