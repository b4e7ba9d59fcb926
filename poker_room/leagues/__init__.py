"""Leagues: seasons of the poker room's events scored by the house's formula (``poker_room.pure.league_points``),
their standings (a page, a PDF and the API), and the Master Class a season ends with, its invited players' points
their stacks."""
