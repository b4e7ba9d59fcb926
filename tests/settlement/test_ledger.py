"""The ledger proves itself: ``ledger_verify`` and ``manage.py verify_ledger``, and rows that cannot be edited."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from casino.append_only import AppendOnlyError
from ledger.models import LedgerEntry, Posting
from ledger.verify import ledger_verify
from rounds.models import Round, Wager
from rounds.selectors import seat_value
from rounds.services import round_open, void_round, wager_place
from settlement.services import correct_round, settle_round
from tests.guards import tamper
from tests.settlement.conftest import BANK, LOSES, PUSHES, WINS


@pytest.fixture
def settled(dealer, shift, pgp_table, play_to_hands) -> Round:  # type: ignore[no-untyped-def]
    """Seat 1 wins 25.00, seat 2 loses 10.00, settled."""
    round_ = play_to_hands(
        pgp_table, wagers={1: 2500, 2: 1000}, hands={"banker": BANK, "seats": {"1": WINS, "2": LOSES}}
    )
    settle_round(round=round_, actor=dealer, idempotency_key="settle-1")
    return Round.objects.get(pk=round_.pk)


@pytest.fixture
def voided(dealer, pit_boss, settled, pgp_table) -> Round:  # type: ignore[no-untyped-def]
    """Round 2 at the same table: seats 1 and 4 wager, then the round is voided."""
    round_ = round_open(actor=dealer, table=pgp_table)
    wager_place(actor=dealer, round=round_, seat=1, amount_cents=2500)
    wager_place(actor=dealer, round=round_, seat=4, amount_cents=1000)
    void_round(actor=pit_boss, round=round_, reason="Misdeal")
    return Round.objects.get(pk=round_.pk)


def _tamper(entry: LedgerEntry, amount_cents: int) -> None:
    """Change a stored amount behind the ORM's back, as someone with database access could."""
    table = connection.ops.quote_name(LedgerEntry._meta.db_table)
    tamper(f"UPDATE {table} SET amount_cents = %s WHERE id = %s", [amount_cents, entry.pk])


@pytest.mark.django_db
def test_a_clean_ledger_verifies(dealer, pit_boss, settled, voided) -> None:
    correct_round(
        actor=pit_boss,
        round=settled,
        hands={"banker": BANK, "seats": {"1": WINS, "2": PUSHES}},
        reason="Seat 2 keyed wrong",
        idempotency_key="correct-1",
        requested_by=dealer,
    )
    report = ledger_verify()
    assert report.problems == []
    assert report.ok
    # Round 1: two wagers, the settlement, its reversal, the corrected settlement; round 2: two wagers, the void.
    assert (report.rounds, report.postings) == (2, 8)
    assert report.entries == LedgerEntry.objects.count()


@pytest.mark.django_db
def test_verify_ledger_says_the_ledger_verifies(settled, voided, capsys) -> None:
    call_command("verify_ledger")
    out = capsys.readouterr().out
    entries = LedgerEntry.objects.count()
    assert f"The ledger verifies: 2 rounds, 6 postings, {entries} ledger entries checked; every round balances." in out


@pytest.mark.django_db
def test_an_amount_changed_in_the_database_is_found_and_its_posting_named(settled) -> None:
    settlement = Posting.objects.get(round_id=settled.pk, kind="settlement")
    commission = settlement.entries.get(account="commission")
    _tamper(commission, 100)  # 125 cents recorded, 100 now
    report = ledger_verify()
    assert not report.ok
    assert (
        f"Posting {settlement.pk} (settlement) on round id {settled.pk} does not balance: its entries sum to -25 cents."
        in report.problems
    )


@pytest.mark.django_db
def test_verify_ledger_fails_naming_the_posting_that_does_not_balance(settled) -> None:
    settlement = Posting.objects.get(round_id=settled.pk, kind="settlement")
    _tamper(settlement.entries.get(account="commission"), 100)
    with pytest.raises(CommandError, match="The ledger does not verify") as failed:
        call_command("verify_ledger")
    assert f"Posting {settlement.pk} (settlement) on round id {settled.pk} does not balance" in str(failed.value)


@pytest.mark.django_db
def test_a_changed_wager_entry_leaves_the_layout_short(settled, pgp_table) -> None:
    wager = Posting.objects.filter(round_id=settled.pk, kind="wager").first()
    _tamper(wager.entries.get(account="wagers"), 2400)
    problems = ledger_verify().problems
    assert any(p.startswith(f"Posting {wager.pk} (wager)") for p in problems)
    assert "Round 1 at table PGP-1 is settled but -100 cents are still on the layout." in problems


@pytest.mark.django_db
def test_a_void_that_still_balances_but_no_longer_undoes_the_wagers_is_found(voided) -> None:
    void = Posting.objects.get(round_id=voided.pk, kind="void")
    seat_1 = void.entries.annotate(seat_number=seat_value()).get(account="player", seat_number=1)
    seat_4 = void.entries.annotate(seat_number=seat_value()).get(account="player", seat_number=4)
    _tamper(seat_1, 1000)  # seat 1 gets seat 4's 10.00 back, seat 4 seat 1's 25.00: the posting still sums to zero
    _tamper(seat_4, 2500)
    wagers = ", ".join(
        str(pk) for pk in Posting.objects.filter(round_id=voided.pk, kind="wager").values_list("pk", flat=True)
    )
    problems = ledger_verify().problems
    assert problems[0] == (
        f"Void posting {void.pk} on round id {voided.pk} does not undo posting(s) {wagers} line for line."
    )
    # and the audit event that returned the wagers recorded other lines than the posting now holds
    assert problems[1].startswith(f"Void posting {void.pk} on round 2 at table PGP-1 (round id {voided.pk}) does not")
    assert "recorded player seat 1 +2500 (reversal), player seat 4 +1000 (reversal)" in problems[1]
    assert len(problems) == 2


@pytest.mark.django_db
def test_verify_can_look_at_some_rounds_only(settled, voided) -> None:
    _tamper(Posting.objects.get(round_id=settled.pk, kind="settlement").entries.get(account="commission"), 100)
    assert ledger_verify(rounds=[voided.pk]).ok
    assert not ledger_verify(rounds=[settled.pk]).ok


# --- append-only ----------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("model", [LedgerEntry, Posting, Wager])
def test_a_stored_row_cannot_be_saved_again(settled, model) -> None:
    row = model.objects.filter(round_id=settled.pk).first()
    with pytest.raises(AppendOnlyError, match="append-only: it cannot be changed"):
        row.save()


@pytest.mark.django_db
def test_a_ledger_entry_cannot_be_edited_through_the_orm(settled) -> None:
    entry = LedgerEntry.objects.filter(round_id=settled.pk, account="commission").get()
    entry.amount_cents = 1
    with pytest.raises(AppendOnlyError):
        entry.save()
    with pytest.raises(AppendOnlyError, match="rows cannot be updated"):
        LedgerEntry.objects.filter(pk=entry.pk).update(amount_cents=1)
    assert LedgerEntry.objects.get(pk=entry.pk).amount_cents == 125


@pytest.mark.django_db
@pytest.mark.parametrize("model", [LedgerEntry, Posting, Wager])
def test_a_stored_row_cannot_be_deleted(settled, model) -> None:
    count = model.objects.count()
    with pytest.raises(AppendOnlyError, match="append-only: it cannot be deleted"):
        model.objects.filter(round_id=settled.pk).first().delete()
    with pytest.raises(AppendOnlyError, match="rows cannot be deleted"):
        model.objects.filter(round_id=settled.pk).delete()
    assert model.objects.count() == count
