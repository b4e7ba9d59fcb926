"""A posting's lines before they are written, and how a person reads them. Pure: nothing here touches the database.

>>> lines_text(Counter([("player", 1, 2500, "payout"), ("house", None, -2500, "payout")]))
'player seat 1 +2500 (payout), house -2500 (payout)'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True, slots=True)
class Line:
    """One ledger line to post: ``amount`` cents into ``account`` (of ``seat``, its number, for a player or a
    banker), of ``kind``."""

    account: str
    seat: int | None
    amount: int
    kind: str


class StoredLine(Protocol):
    """A stored entry as ``reversal_lines`` reads it."""

    account: str
    seat_id: int | None
    amount_cents: int


def reversal_lines(
    entries: Iterable[StoredLine], seat_numbers: Mapping[int, int], *, kind: str = "reversal"
) -> list[Line]:
    """Lines that undo ``entries`` exactly: the same accounts and seats (``seat_numbers`` maps an entry's seat id
    to its number), the amounts negated, of ``kind``."""
    return [
        Line(entry.account, seat_numbers[entry.seat_id] if entry.seat_id else None, -entry.amount_cents, kind)
        for entry in entries
    ]


def negated(lines: Iterable[Line], *, kind: str) -> list[Line]:
    """The lines that undo ``lines`` exactly: the same accounts and seats, the amounts negated, of ``kind``.

    >>> prize = [Line("prize_pool", None, -2500, "t_prize"), Line("entrants", None, 2500, "t_prize")]
    >>> [(line.account, line.amount, line.kind) for line in negated(prize, kind="t_reversal")]
    [('prize_pool', 2500, 't_reversal'), ('entrants', -2500, 't_reversal')]
    """
    return [Line(line.account, line.seat, -line.amount, kind) for line in lines]


# The order lines are named in: the players, the bank, the layout, the house's accounts.
_ACCOUNT_ORDER = ("player", "banker", "wagers", "house", "commission", "rake")


def line_holder(account: str, seat: int | str | None) -> str:
    """Who a line is for: ``house``, ``player seat 3``."""
    return account if seat is None else f"{account} seat {seat}"


def line_order(key: tuple[str, int | str | None]) -> tuple[int, int, str]:
    """Sort key of an (account, seat): by account (``_ACCOUNT_ORDER``), then seat."""
    account, seat = key
    rank = _ACCOUNT_ORDER.index(account) if account in _ACCOUNT_ORDER else len(_ACCOUNT_ORDER)
    return (rank, -1 if seat is None else seat if isinstance(seat, int) else 1_000_000, str(seat))


def lines_text(lines: Counter[Any]) -> str:
    """Ledger lines (account, seat, cents, kind) as a person reads them: ``player seat 1 +2500 (payout), house
    -2500 (payout)``."""
    if not lines:
        return "no lines"
    ordered = sorted(lines.elements(), key=lambda line: (*line_order((line[0], line[1])), line[3], line[2]))
    return ", ".join(f"{line_holder(account, seat)} {amount:+d} ({kind})" for account, seat, amount, kind in ordered)
