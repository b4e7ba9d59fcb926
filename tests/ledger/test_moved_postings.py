"""An installation from before the ledger had its own app keeps every posting: the migration copies the postings
and their entries into the ledger's tables, ids and all, and new postings are numbered after them."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection, transaction
from django.db.migrations.executor import MigrationExecutor

from casino.append_only import pgtrigger_escape_hatch_close
from ledger.lines import Line
from ledger.models import LedgerEntry, Posting
from ledger.services import post
from tests.guards import guards_off

MOVE = ("settlement", "0014_postings_to_ledger")
migration = importlib.import_module("settlement.migrations.0014_postings_to_ledger")


@pytest.fixture
def before_the_move() -> Iterator[Any]:
    """The models as they stood before the move (both the settlement's postings and the ledger's), with the
    settlement's tables made again for the test and dropped after it."""
    state = MigrationExecutor(connection).loader.project_state(MOVE, at_end=False)
    old = [state.apps.get_model("settlement", name) for name in ("Posting", "LedgerEntry")]
    with guards_off():  # as the database's owner, who migrates
        with connection.schema_editor() as editor:
            for model in old:
                editor.create_model(model)
        pgtrigger_escape_hatch_close(connection)  # as a migrate leaves it
    yield state.apps
    with guards_off():
        with connection.schema_editor() as editor:
            for model in reversed(old):
                editor.delete_model(model)
        pgtrigger_escape_hatch_close(connection)


def _write_and_copy(apps: Any) -> None:
    """Two postings (a prize and its reversal) and their entries in the old tables, then the migration's copy."""
    OldPosting = apps.get_model("settlement", "Posting")
    OldEntry = apps.get_model("settlement", "LedgerEntry")
    first = OldPosting.objects.create(id=40, kind="t_prize", idempotency_key="tournament:1:prize:3:1", reason="")
    undo = OldPosting.objects.create(
        id=41, kind="t_reversal", idempotency_key="tournament:1:undo:40", reverses_id=40, reason=""
    )
    for posting, sign in ((first, 1), (undo, -1)):
        for account, cents in (("prize_pool", -2500), ("entrants", 2500)):
            OldEntry.objects.create(
                posting=posting,
                account=account,
                amount_cents=sign * cents,
                kind=posting.kind,
                created_at=posting.created_at,
            )
    with connection.schema_editor() as editor:
        migration.copy_to_ledger(apps, editor)


@pytest.mark.django_db(transaction=True)
def test_every_posting_and_entry_is_copied_with_its_id_and_new_ones_follow(before_the_move: Any) -> None:
    with guards_off():  # the old tables are the owner's: the test writes and copies them as the owner
        _write_and_copy(before_the_move)
    copied = list(Posting.objects.order_by("pk").values_list("pk", "kind", "idempotency_key", "reverses_id"))
    assert copied == [
        (40, "t_prize", "tournament:1:prize:3:1", None),
        (41, "t_reversal", "tournament:1:undo:40", 40),
    ]
    assert sorted(LedgerEntry.objects.values_list("posting_id", "account", "amount_cents")) == [
        (40, "entrants", 2500),
        (40, "prize_pool", -2500),
        (41, "entrants", -2500),
        (41, "prize_pool", 2500),
    ]
    with transaction.atomic():
        new = post(
            kind="t_prize",
            lines=[Line("prize_pool", None, -100, "t_prize"), Line("entrants", None, 100, "t_prize")],
            actor=None,
            idempotency_key="tournament:1:prize:4:1",
        )
    assert new.pk > 41
    assert min(LedgerEntry.objects.filter(posting=new).values_list("pk", flat=True)) > max(
        LedgerEntry.objects.filter(posting_id__in=[40, 41]).values_list("pk", flat=True)
    )
