"""The floor's hold on the dashboard is the hold of the tables that have a drop, as a pit boss reads each table's."""

from __future__ import annotations

import datetime as dt

from pit.dashboard_rows import PitDashboard, TableLine
from tables.models import Table


def _line(name: str, *, players_cents: int, drop_cents: int) -> TableLine:
    return TableLine(
        table=Table(name=name, status=Table.Status.OPEN),
        round_id=None,
        round_number=None,
        round_state=None,
        banking=True,
        bank_seat=None,
        bank_in_a_row=None,
        players_cents=players_cents,
        drop_cents=drop_cents,
    )


def _board(*lines: TableLine) -> PitDashboard:
    return PitDashboard(
        shift=None,
        now=dt.datetime(2026, 11, 29, 12, tzinfo=dt.UTC),
        lines=list(lines),
        pending=[],
        big_wins=[],
        big_wins_more=False,
        bank_must_pass=[],
    )


def test_a_table_with_a_win_and_no_buy_in_yet_does_not_lift_the_floors_hold() -> None:
    # PGP-1: 2,000.00 bought in, the house won 305.00 (15.25%); PG-1: the house won 700.00, nothing bought in yet.
    with_drop = _line("PGP-1", players_cents=-30_500, drop_cents=200_000)
    without = _line("PG-1", players_cents=-70_000, drop_cents=0)
    board = _board(with_drop, without)

    assert with_drop.hold_bp == 1525 and without.hold_bp is None
    assert board.totals.win_cents == 100_500  # the floor's win is every table's
    assert board.totals.hold_bp == 1525  # its hold, the tables' with a drop: not 100,500 / 200,000 = 50.25%


def test_the_floors_hold_weighs_each_table_by_its_drop() -> None:
    board = _board(
        _line("A", players_cents=-10_000, drop_cents=100_000),  # 10%
        _line("B", players_cents=-30_000, drop_cents=100_000),  # 30%
        _line("C", players_cents=5_000, drop_cents=0),
    )

    assert board.totals.hold_bp == 2000


def test_no_drop_anywhere_is_no_hold() -> None:
    assert _board(_line("A", players_cents=-10_000, drop_cents=0)).totals.hold_bp is None
