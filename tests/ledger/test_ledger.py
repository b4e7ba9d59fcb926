"""The ledger on its own, knowing nothing of the rounds, tables or tournaments that post to it: a posting balances
or is refused, its entries carry the ids of what they are for, its rows never change, and its verifier runs the
checks the apps register."""

from __future__ import annotations

from collections.abc import Collection, Iterator

import pytest
from django.db import IntegrityError, connection, transaction

from casino.append_only import AppendOnlyError
from ledger.lines import Line
from ledger.models import LedgerEntry, Posting
from ledger.services import post, posting_record
from ledger.verify import _CHECKS, Findings, ledger_check_register, ledger_checks, ledger_verify
from tests.guards import tamper

pytestmark = pytest.mark.django_db

# Ids of what the postings are for: the ledger holds them as plain numbers (no round or seat exists here).
ROUND, SEAT_1, SEAT_2 = 901, 71, 72


def _settle(*, key: str | None = None) -> Posting:
    lines = [
        Line("wagers", None, -2500, "payout"),
        Line("player", 1, 2500, "payout"),
        Line("player", 2, -1000, "commission"),
        Line("house", None, 1000, "commission"),
    ]
    with transaction.atomic():
        return post(
            kind=Posting.Kind.SETTLEMENT,
            lines=lines,
            actor=None,
            round_id=ROUND,
            seat_ids={1: SEAT_1, 2: SEAT_2},
            idempotency_key=key,
        )


def test_a_posting_keeps_its_lines_in_order_with_their_seats_round_and_key() -> None:
    posting = _settle(key="k-1")
    rows = list(
        LedgerEntry.objects.filter(posting=posting)
        .order_by("pk")
        .values_list("round_id", "account", "seat_id", "amount_cents", "kind", "idempotency_key")
    )
    assert rows == [
        (ROUND, "wagers", None, -2500, "payout", "k-1"),
        (ROUND, "player", SEAT_1, 2500, "payout", "k-1"),
        (ROUND, "player", SEAT_2, -1000, "commission", "k-1"),
        (ROUND, "house", None, 1000, "commission", "k-1"),
    ]
    stored = Posting.objects.get(pk=posting.pk)
    assert (stored.kind, stored.round_id, stored.idempotency_key) == ("settlement", ROUND, "k-1")
    assert LedgerEntry.objects.filter(posting=posting).first().created_at is not None


def test_the_audit_record_of_a_posting_names_its_lines_by_seat_number() -> None:
    posting = _settle()
    assert posting_record(posting) == {
        "id": posting.pk,
        "kind": "settlement",
        "lines": [
            ["wagers", None, -2500, "payout"],
            ["player", 1, 2500, "payout"],
            ["player", 2, -1000, "commission"],
            ["house", None, 1000, "commission"],
        ],
    }


def test_a_posting_with_no_seat_on_any_line_is_written_with_its_entries() -> None:
    # every seat column NULL: on PostgreSQL the lines' arrays are typed by a cast, not by their values
    lines = [Line("entrants", None, -1500, "t_entry"), Line("prize_pool", None, 1500, "t_entry")]
    with transaction.atomic():
        posting = post(kind=Posting.Kind.T_ENTRY, lines=lines, actor=None, idempotency_key="tournament:1:purchase:1")
    rows = list(LedgerEntry.objects.filter(posting=posting).order_by("pk").values_list("account", "seat_id"))
    assert rows == [("entrants", None), ("prize_pool", None)]


def test_a_posting_that_does_not_balance_writes_nothing() -> None:
    with pytest.raises(ValueError, match="a posting must balance; these lines sum to 1 cents"):
        post(kind=Posting.Kind.SETTLEMENT, lines=[Line("house", None, 1, "payout")], actor=None, round_id=ROUND)
    assert (Posting.objects.count(), LedgerEntry.objects.count()) == (0, 0)


def test_the_same_key_never_posts_twice() -> None:
    _settle(key="settle-once")
    with pytest.raises(IntegrityError), transaction.atomic():
        _settle(key="settle-once")
    assert Posting.objects.count() == 1


@pytest.mark.parametrize(
    ("kind", "where"),
    [
        ("settlement", {}),  # a round's posting names its round
        ("fill", {"round_id": None}),  # the table's money names its table and shift, and is keyed
        ("t_prize", {"round_id": None}),  # the poker room's is keyed
    ],
)
def test_a_posting_must_say_what_it_is_for(kind: str, where: dict[str, object]) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        post(kind=kind, lines=[], actor=None, **where)


def test_a_player_line_names_its_seat_and_a_house_line_none() -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        post(
            kind=Posting.Kind.SETTLEMENT,
            lines=[Line("player", None, -5, "payout"), Line("house", None, 5, "payout")],
            actor=None,
            round_id=ROUND,
        )


@pytest.mark.parametrize("model", [Posting, LedgerEntry])
def test_a_stored_row_is_never_saved_again_nor_deleted(model: type[Posting] | type[LedgerEntry]) -> None:
    _settle()
    row = model.objects.first()
    with pytest.raises(AppendOnlyError):
        row.save()
    with pytest.raises(AppendOnlyError):
        row.delete()
    with pytest.raises(AppendOnlyError):
        model.objects.all().update(created_at=row.created_at)
    with pytest.raises(AppendOnlyError):
        model.objects.all().delete()


@pytest.mark.parametrize("model", [Posting, LedgerEntry])
def test_the_database_refuses_an_edit_or_a_deletion(model: type[Posting] | type[LedgerEntry]) -> None:
    _settle()
    table = connection.ops.quote_name(model._meta.db_table)
    for sql in (f"UPDATE {table} SET idempotency_key = 'x'", f"DELETE FROM {table}"):
        refused = pytest.raises(Exception, match="append-only|Cannot (update|delete)|permission denied")
        with refused, transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql)
    assert model.objects.count() > 0


# --- the verifier and its registry ------------------------------------------------------------------------------


@pytest.fixture
def only_these_checks() -> Iterator[None]:
    """The registry as the apps left it, restored after the test (which replaces it)."""
    saved = dict(_CHECKS)
    _CHECKS.clear()
    yield
    _CHECKS.clear()
    _CHECKS.update(saved)


def test_every_app_that_posts_registers_its_check() -> None:
    assert ledger_checks() == ["table money", "markers", "rounds", "tournaments"]


def test_a_posting_that_no_longer_balances_is_named(only_these_checks: None) -> None:
    posting = _settle()
    entry = LedgerEntry.objects.filter(posting=posting, account="house").get()
    tamper(f"UPDATE {LedgerEntry._meta.db_table} SET amount_cents = 999 WHERE id = %s", [entry.pk])
    report = ledger_verify()
    assert report.problems == [
        f"Posting {posting.pk} (settlement) on round id {ROUND} does not balance: its entries sum to -1 cents."
    ]
    assert (report.postings, report.entries, report.ok) == (1, 4, False)


def test_the_registered_checks_run_in_order_and_only_the_scoped_ones_on_some_rounds(only_these_checks: None) -> None:
    asked: list[tuple[str, object]] = []

    def check(name: str, scoped: bool) -> None:
        def run(rounds: Collection[int] | None) -> Findings:
            asked.append((name, rounds))
            return Findings(problems=(f"{name} found something",), counted={"rounds": 2})

        ledger_check_register(name, run, scoped=scoped)

    check("first", scoped=True)
    check("second", scoped=False)
    whole = ledger_verify()
    assert whole.problems == ["first found something", "second found something"]
    assert whole.rounds == 4
    some = ledger_verify(rounds=[ROUND])
    assert some.problems == ["first found something"]
    assert asked == [("first", None), ("second", None), ("first", [ROUND])]
