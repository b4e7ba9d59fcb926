"""The chip tournaments: the tournament and its tables, entries, purchases, eliminations and seat changes; made from
the seed's templates, run by the director's console and the clock, played at the dealer's tournament tables. The
other formats (``poker_room.heads_up``, ``poker_room.ofc_events``), the deals and the leagues build on it."""
