"""People against agents: the terminal game, the browser app and the words that explain the game."""
