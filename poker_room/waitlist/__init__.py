"""The card room's cash games: lists per game and stakes, calls, seats, no-shows and must-move tables."""
