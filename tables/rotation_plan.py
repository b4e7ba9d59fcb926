"""Dealer rotation in a string of tables, as a pure function: times in, assignments out (no Django, no clock).

A string is a few tables and a few more dealers than tables. Every ``push_every`` the dealer who has been on break
the longest taps out the dealer on the string's first table ("the push"), who moves to the second table and taps
out its dealer, and so on down the string, until the dealer on the last table goes on break. Laid out as a ring of
places, the tables in order and then the breaks (newest first), every dealer moves one place a push::

    place:   table 1   table 2   table 3   break
    step 0:  Ann       Bob       Cy        Dee      (Dee is the relief, the "push" dealer)
    step 1:  Dee       Ann       Bob       Cy
    step 2:  Cy        Dee       Ann       Bob

So with ``n`` tables and ``b`` dealers on break at once, a dealer deals ``n`` pushes and rests ``b``: a pattern of
minutes on and off fixes the push (``on / n`` minutes) and the breaks (``off / push``); a round robin deals every
table of the string once for ``push`` minutes and then rests one push.

>>> import datetime as dt
>>> start = dt.datetime(2026, 3, 1, 14, 0)
>>> plan = rotation_at(tables=("T1", "T2", "T3"), dealers=("Ann", "Bob", "Cy", "Dee"), started_at=start,
...                    push_every=dt.timedelta(minutes=20), at=dt.datetime(2026, 3, 1, 14, 25))
>>> plan.step, plan.at_table("T1").dealer, plan.next_at_table("T1").dealer, plan.next_at_table("T1").since.time()
(1, 'Dee', 'Cy', datetime.time(14, 40))
>>> plan.post_of("Cy").table is None, plan.post_of("Cy").since.time(), plan.post_of("Cy").until.time()
(True, datetime.time(14, 20), datetime.time(14, 40))
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T", bound=Hashable)  # a table
D = TypeVar("D", bound=Hashable)  # a dealer


class RotationError(ValueError):
    """A string or pattern that cannot rotate, in the floor's words."""


@dataclass(frozen=True)
class Pattern:
    """A string's break pattern: ``on``/``off`` minutes (60/20, 40/20), or a round robin of ``push`` minutes at each
    table and one push off."""

    on_minutes: int
    off_minutes: int | None = None  # None: a round robin

    @property
    def round_robin(self) -> bool:
        return self.off_minutes is None

    def push_every(self, tables: int) -> dt.timedelta:
        """How long each dealer stays at a table: a pattern's minutes on over the tables, a round robin's minutes."""
        self.check(tables)
        if self.off_minutes is None:
            return dt.timedelta(minutes=self.on_minutes)
        return dt.timedelta(minutes=self.on_minutes / tables)

    def breaks(self, tables: int) -> int:
        """How many dealers are on break at once (and so how many more dealers than tables the string needs)."""
        self.check(tables)
        if self.off_minutes is None:
            return 1
        return self.off_minutes * tables // self.on_minutes

    def dealers(self, tables: int) -> int:
        return tables + self.breaks(tables)

    def check(self, tables: int) -> None:
        """Refuse a pattern the string cannot keep: minutes on that do not split over its tables in whole minutes,
        or minutes off that are not a whole number of pushes.

        >>> Pattern(60, 20).check(3); Pattern(40, 20).check(2); Pattern(20).check(5)
        >>> Pattern(60, 20).check(2)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        tables.rotation_plan.RotationError: 60 minutes on over 2 tables is a push every 30 minutes; 20 minutes off...
        """
        if tables < 1:
            raise RotationError("A string needs at least one table.")
        if self.on_minutes < 1 or (self.off_minutes is not None and self.off_minutes < 1):
            raise RotationError("Minutes on and off are whole minutes above zero.")
        if self.off_minutes is None:
            return
        if self.on_minutes % tables:
            raise RotationError(f"{self.on_minutes} minutes on do not split over {tables} tables in whole minutes.")
        push = self.on_minutes // tables
        if self.off_minutes % push:
            raise RotationError(
                f"{self.on_minutes} minutes on over {tables} tables is a push every {push} minutes; "
                f"{self.off_minutes} minutes off is not a whole number of pushes."
            )


@dataclass(frozen=True)
class Post(Generic[T, D]):
    """Where a dealer is (a table, or ``None``: on break) from ``since`` until ``until``."""

    dealer: D
    table: T | None
    since: dt.datetime
    until: dt.datetime


@dataclass(frozen=True)
class Push(Generic[T, D]):
    """One push due: at ``due_at`` ``dealer_in`` taps out ``dealer_out`` at ``table``."""

    due_at: dt.datetime
    step: int
    table: T
    dealer_in: D
    dealer_out: D


@dataclass(frozen=True)
class Rotation(Generic[T, D]):
    """A string's rotation at one instant: the step it is in, where every dealer is, and what comes next."""

    tables: tuple[T, ...]
    dealers: tuple[D, ...]
    started_at: dt.datetime
    push_every: dt.timedelta
    step: int

    def _place(self, dealer_index: int, step: int) -> int:
        return (dealer_index + step) % len(self.dealers)

    def _post(self, dealer_index: int, step: int) -> Post[T, D]:
        n, count = len(self.tables), len(self.dealers)
        place = self._place(dealer_index, step)
        start = self.started_at
        if place < n:
            since = start + step * self.push_every
            return Post(self.dealers[dealer_index], self.tables[place], since, since + self.push_every)
        # On break since the push that took them off the last table (or since the start, the string's reliefs)...
        off_step = max(step - (place - n), 0)
        # ...until the push that puts them on the first table again.
        back_step = step + (count - place)
        return Post(
            self.dealers[dealer_index], None, start + off_step * self.push_every, start + back_step * self.push_every
        )

    def post_of(self, dealer: D) -> Post[T, D]:
        return self._post(self.dealers.index(dealer), self.step)

    def next_post_of(self, dealer: D) -> Post[T, D]:
        """Where ``dealer`` is after the next push."""
        return self._post(self.dealers.index(dealer), self.step + 1)

    def posts(self) -> tuple[Post[T, D], ...]:
        """Every dealer's post now, in the string's order of dealers."""
        return tuple(self._post(i, self.step) for i in range(len(self.dealers)))

    def _dealer_at(self, table: T, step: int) -> int:
        return (self.tables.index(table) - step) % len(self.dealers)

    def at_table(self, table: T) -> Post[T, D]:
        """Who deals ``table`` now, since when and until when."""
        return self._post(self._dealer_at(table, self.step), self.step)

    def next_at_table(self, table: T) -> Post[T, D]:
        """Who relieves ``table``'s dealer next, and when (``since``)."""
        return self._post(self._dealer_at(table, self.step + 1), self.step + 1)

    def on_break(self) -> tuple[Post[T, D], ...]:
        """The dealers on break now, the one back soonest first."""
        return tuple(sorted((post for post in self.posts() if post.table is None), key=lambda post: post.until))

    def pushes(self, *, steps: int) -> Iterator[Push[T, D]]:
        """The pushes of the next ``steps`` steps after this one, in the order they are made: each step down the
        string from its first table."""
        for step in range(self.step + 1, self.step + 1 + steps):
            for table in self.tables:
                yield Push(
                    due_at=self.started_at + step * self.push_every,
                    step=step,
                    table=table,
                    dealer_in=self.dealers[self._dealer_at(table, step)],
                    dealer_out=self.dealers[self._dealer_at(table, step - 1)],
                )


def rotation_at(
    *,
    tables: Sequence[T],
    dealers: Sequence[D],
    started_at: dt.datetime,
    push_every: dt.timedelta,
    at: dt.datetime,
) -> Rotation[T, D]:
    """The rotation of a string started at ``started_at`` with its ``dealers`` in order (the first on the first
    table, ..., the last ones on break, the relief last), at the instant ``at`` (before the start: step 0)."""
    if not tables:
        raise RotationError("A string needs at least one table.")
    if len(set(tables)) != len(tables):
        raise RotationError("A table appears twice in the string.")
    if len(set(dealers)) != len(dealers):
        raise RotationError("A dealer appears twice in the string.")
    if len(dealers) <= len(tables):
        raise RotationError(
            f"{len(tables)} tables need at least {len(tables) + 1} dealers (one relief), not {len(dealers)}."
        )
    if push_every <= dt.timedelta(0):
        raise RotationError("The push comes after some minutes, not none.")
    step = max((at - started_at) // push_every, 0)
    return Rotation(
        tables=tuple(tables), dealers=tuple(dealers), started_at=started_at, push_every=push_every, step=step
    )
