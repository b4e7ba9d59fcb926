"""Open-Face Chinese Poker points tournaments (GAME_RULES.md §4 and §5): rounds of a fixed number of hands with the
tables redrawn between them, hands entered on the dealer's tablet and scored by ``rules.games.ofc``, the standings,
and the finish that places and pays everyone."""
