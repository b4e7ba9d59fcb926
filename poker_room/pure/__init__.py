"""The poker room's rules, pure: structures and their generator, the chip race, the seed's templates, seating and
balancing, payouts, the clock, ICM, heads-up brackets, league points and Open-Face standings.

No Django, no database, no clock and no global RNG (an RNG is passed in), and nothing of the project's apps but the
game engines (``rules.games``): the import contract in ``pyproject.toml`` names this package as a whole. Their English
refusals are listed for the translators in ``poker_room.pure_messages``.
"""
