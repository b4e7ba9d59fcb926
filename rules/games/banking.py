"""The bank's rotation between players (GAME_RULES.md §1 "Banking rotation", §2 "Co-banking").

Seats are numbered clockwise (seen from above) from the dealer's left, so the player on a
seat's right sits at the next lower number and the bank, passing to the banker's right,
goes counter-clockwise.

>>> seat_on_the_right(seat_number=3, seat_count=6)
2
>>> seat_on_the_right(seat_number=1, seat_count=6)
6
>>> co_bank_most(10_000)
11000
"""

from __future__ import annotations

# A player may hold the bank this many rounds in a row (GAME_RULES.md §1).
MAX_BANK_IN_A_ROW = 2

# A co-banking player banks up to their last wager plus this, in basis points (GAME_RULES.md §2: 10%).
CO_BANK_MARKUP_BP = 1_000


def seat_on_the_right(*, seat_number: int, seat_count: int) -> int:
    """The seat on the right of ``seat_number``: the next lower number, seat 1's being the highest."""
    return seat_number - 1 if seat_number > 1 else seat_count


def co_bank_most(last_wager_cents: int) -> int:
    """The most a co-banker may put up: their last wager plus 10%, in whole cents (rounded down)."""
    return last_wager_cents + last_wager_cents * CO_BANK_MARKUP_BP // 10_000


def bank_covers(bank_cents: int, *, co_banking: bool) -> int:
    """What a player bank covers: what the player put up, and as much again from the house when co-banking."""
    return bank_cents * (2 if co_banking else 1)
