"""The report figures counted in the database (docs/performance.md "End-of-shift reports") are the figures
of the plain definitions: the payouts and the banking seats' commission of the settlements in force (a semi-join
with them), the seat outcomes of their results read one by one in Python, the money by hour read apart. Run on
SQLite and on PostgreSQL (the JSON is read in each one's dialect)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import pytest
from django.db.models import Sum
from django.db.models.functions import TruncHour
from django.utils import timezone

from casino.services import shift_close
from ledger.models import LedgerEntry, Posting
from pit import reports
from rounds.models import Round
from rounds.selectors import round_value, seat_value, shift_round_ids
from settlement.services import correct_round, settle_round
from tests.pit.test_shift_reports import closed_shift  # noqa: F401  (a fixture)
from tests.settlement.test_banked import DICE, TILES_BANK, TILES_LOSE, TILES_WIN, TILES_WIN_TOO

pytestmark = pytest.mark.usefixtures("eager_celery")


def _in_force(shift: Any) -> Any:
    return Posting.objects.filter(
        round_id__in=shift_round_ids(shift), kind=Posting.Kind.SETTLEMENT, reversed_by__isnull=True
    )


def _reference_tables(shift: Any) -> dict[str, dict[str, int]]:
    """Per table name: the payouts (a semi-join with the settlements in force) and the seat outcomes (their
    results decoded in Python), as the reports counted them before they were counted in the database."""
    tables: dict[str, dict[str, int]] = defaultdict(
        lambda: dict.fromkeys(("payouts_cents", *reports._OUTCOME_FIGURES.values()), 0)
    )
    payouts = (
        LedgerEntry.objects.filter(posting__in=_in_force(shift), account="player", kind="payout", amount_cents__gt=0)
        .annotate(table_name=round_value("table__name"))
        .values("table_name")
        .annotate(total=Sum("amount_cents"))
        .order_by()
    )
    for row in payouts:
        tables[row["table_name"]]["payouts_cents"] += row["total"]
    in_force = _in_force(shift).annotate(table_name=round_value("table__name"))
    for name, result in in_force.values_list("table_name", "result"):
        for line in (result or {}).get("seats", []):
            tables[name][reports._OUTCOME_FIGURES[reports._seat_outcome(line)]] += 1
    return tables


def _reference_hours(shift: Any) -> list[dict[str, Any]]:
    rows = (
        LedgerEntry.objects.filter(round_id__in=shift_round_ids(shift), account__in=list(reports._ACCOUNT_FIGURES))
        .annotate(hour=TruncHour("created_at", tzinfo=timezone.get_default_timezone()))
        .values("hour", "account")
        .annotate(total=Sum("amount_cents"))
        .order_by()
    )
    hours: dict[Any, dict[str, int]] = defaultdict(lambda: dict.fromkeys(reports.HOUR_FIGURES, 0))
    for row in rows:
        hours[row["hour"]][reports._ACCOUNT_FIGURES[row["account"]]] += row["total"] or 0
    zone = timezone.get_default_timezone()
    return [{"hour": timezone.localtime(h, zone).isoformat(), **figures} for h, figures in sorted(hours.items())]


def _reference_banks(shift: Any) -> list[tuple[str, str, int | None, int]]:
    """The banking seats' commission: the banker's and players' ``commission`` entries in the settlements in force."""
    by_bank: dict[tuple[str, str, int | None], int] = defaultdict(int)
    paid = (
        LedgerEntry.objects.filter(posting__in=_in_force(shift), account__in=["banker", "player"], kind="commission")
        .annotate(table_name=round_value("table__name"), seat_number=seat_value())
        .values("table_name", "account", "seat_number")
        .annotate(total=Sum("amount_cents"))
        .order_by()
    )
    for row in paid:
        name = row["table_name"]
        key = (name, "seat", row["seat_number"]) if row["account"] == "banker" else (name, "house", None)
        by_bank[key] -= row["total"]
    return sorted((*key, amount) for key, amount in by_bank.items())


def _assert_as_defined(shift: Any) -> dict[str, Any]:
    data = reports.shift_figures(shift)
    expected = _reference_tables(shift)
    for row in data["tables"]:
        assert {name: row[name] for name in expected[row["table"]]} == expected[row["table"]], row["table"]
    assert data["hours"] == _reference_hours(shift)
    commission = reports.commission_figures(shift)
    banks = [(r["table"], r["bank"], r["seat"], r["commission_cents"]) for r in commission["by_banking_seat"]]
    assert sorted(banks) == _reference_banks(shift)
    return {"shift": data, "commission": commission}


@pytest.mark.django_db
def test_the_figures_counted_in_the_database_are_those_of_the_settlements_in_force(closed_shift) -> None:  # noqa: F811
    figures = _assert_as_defined(closed_shift)
    # Paid in force at PGP-1: seat 1's stake and even-money win (2 x 25.00) and seat 2's push (10.00); not the
    # corrected round's first settlement (seat 1's win, reversed), only its second (a loss).
    pgp = next(row for row in figures["shift"]["tables"] if row["table"] == "PGP-1")
    assert (pgp["wins"], pgp["pushes"], pgp["losses"], pgp["payouts_cents"]) == (1, 1, 2, 6000)


@pytest.mark.django_db
def test_a_player_bank_whose_only_commission_was_reversed_is_not_listed_and_no_actions_are_counted(
    shift, pit_boss, dealer, make_table, play_to_hands
) -> None:
    from rules.services import rule_set_create

    rules = rule_set_create(actor=pit_boss, name="Tiles rotation", game="paigow_tiles", banking_mode="player_rotation")
    tiles = make_table(name="PG-1", game="paigow_tiles", seat_count=6, rule_set=rules)
    # Seat 5 wins and leaves the bank too little for seat 2: seats 2 and 1 are "no action".
    hands = {"banker": TILES_BANK, "seats": {"5": TILES_WIN, "2": TILES_WIN_TOO, "1": TILES_LOSE}}
    round_ = play_to_hands(
        tiles, wagers={1: 1000, 2: 2000, 5: 4000}, hands=hands, dice=DICE, banker_seat=3, bank_cents=5000
    )
    settle_round(round=round_, actor=dealer, idempotency_key="tiles-1")
    # The bank wins 10.00 net and pays 0.50 commission; corrected, both seats win: the bank loses, pays none.
    hands = {"banker": TILES_BANK, "seats": {"5": TILES_LOSE, "2": TILES_WIN}}
    round_ = play_to_hands(tiles, wagers={2: 2000, 5: 3000}, hands=hands, dice=DICE, banker_seat=3, bank_cents=5000)
    settle_round(round=round_, actor=dealer, idempotency_key="tiles-2")
    correct_round(
        actor=pit_boss,
        round=round_,
        hands={"banker": TILES_BANK, "seats": {"5": TILES_WIN, "2": TILES_WIN_TOO}},
        reason="Seat 5's tiles were misread",
        idempotency_key="tiles-2-fix",
        requested_by=dealer,
    )
    closed = shift_close(actor=pit_boss, shift=shift)
    figures = _assert_as_defined(closed)
    (table,) = figures["shift"]["tables"]
    assert (table["wins"], table["pushes"], table["losses"], table["no_actions"]) == (3, 0, 0, 2)
    # Paid back with the wins (stake and win) and the no-actions (stake): 2 x 40.00 + 30.00, then 2 x (30.00 + 20.00).
    assert table["payouts_cents"] == 2 * 4000 + 3000 + 2 * (3000 + 2000)
    assert figures["commission"]["by_banking_seat"] == []
    assert figures["commission"]["floor"] == {"commission_cents": 0}
    assert table["commission_cents"] == 0


@pytest.mark.django_db
def test_seat_outcomes_are_counted_in_sql_by_the_python_rule(shift, pgp_table, dealer) -> None:
    """Each way a seat line gives its outcome (said by a banked game; by the sign of ``won_cents`` in the points
    games, a missing one a push), on settlements written as they are stored; a reversed one is not counted."""
    from rounds.services import round_open

    round_ = round_open(actor=dealer, table=pgp_table)
    said = [{"seat": 1, "outcome": o} for o in ("win", "push", "loss", "no_action", "win")]
    signed = [{"seat": 2, "won_cents": cents} for cents in (1500, 0, -700, -1, 2)] + [{"seat": 3}]
    undone = Posting.objects.create(
        round_id=round_.pk, kind="settlement", result={"seats": [{"seat": 1, "outcome": "win"}]}
    )
    Posting.objects.create(round_id=round_.pk, kind="reversal", reverses=undone)
    for result in ({"seats": said}, {"seats": signed}, {"seats": []}, {"bank": None}, None):
        Posting.objects.create(round_id=round_.pk, kind="settlement", result=result)
    counted = {outcome: count for _table, outcome, count in reports._outcome_counts(shift, reports._undone(shift))}
    expected: dict[str, int] = defaultdict(int)
    for posting in _in_force(shift):
        for line in (posting.result or {}).get("seats", []):
            expected[reports._seat_outcome(line)] += 1
    assert counted == expected == {"win": 4, "push": 3, "loss": 3, "no_action": 1}
    assert Round.objects.filter(shift=shift).count() == 1


def test_the_entries_joined_to_their_rounds_sum_as_the_entries_asking_their_round_one_by_one(
    closed_shift: Any,  # noqa: F811
) -> None:
    """``entries_of_rounds`` joins each entry to its round in the statement (``extra``); its ORM twin asks
    each entry's round in a subquery (``round_value``). The sums by table, hour and account are the same, and so
    are the entries counted: none of another shift's rounds, none twice."""
    from rounds.selectors import entries_of_rounds, joined_round_value

    def sums(entries: Any, table: Any) -> list[tuple[Any, ...]]:
        rows = (
            entries.annotate(hour=TruncHour("created_at", tzinfo=timezone.get_default_timezone()))
            .values("hour", "account", table=table)
            .annotate(total=Sum("amount_cents"), seen=Sum(1))
            .order_by()
        )
        return sorted((r["table"], r["hour"], r["account"], r["total"], r["seen"]) for r in rows)

    joined = sums(entries_of_rounds(shifts=[closed_shift.pk]), joined_round_value("table_id"))
    asked = sums(LedgerEntry.objects.filter(round_id__in=shift_round_ids(closed_shift)), round_value("table_id"))
    assert joined == asked and len(joined) > 3
    assert sum(row[4] for row in joined) == LedgerEntry.objects.filter(round_id__isnull=False).count()
