"""The table's money in the ledger: what each movement takes out of one account and puts into another, posted by
the tables' services in their own transactions (DESIGN.md, "The table's money")."""

from __future__ import annotations

from django.contrib.auth.models import User

from casino.models import Shift
from ledger.lines import Line
from ledger.services import PostingRecord, post, posting_record
from tables.models import Table

# What each movement takes out of one account and puts into another.
MOVES: dict[str, tuple[str, str]] = {
    "fill": ("cage", "tray"),  # chips from the cage to the table's tray
    "credit": ("tray", "cage"),  # chips from the tray back to the cage
    "buy_in": ("tray", "drop"),  # chips out of the tray to a player; the cash or marker into the drop box
    "drop": ("drop", "cage"),  # a counted box's cash and markers from the drop box to the cage
}


def chips_post(*, table: Table, shift: Shift, kind: str, cents: int, actor: User, key: str) -> PostingRecord:
    """Post ``cents`` moved by ``kind`` (``MOVES``) at ``table`` in ``shift``, keyed by ``key`` so it posts once;
    return the posting's record for the audit event of the service that moved them. Call it inside that service's
    transaction."""
    source, target = MOVES[kind]
    posting = post(
        kind=kind,
        lines=[Line(source, None, -cents, kind), Line(target, None, cents, kind)],
        actor=actor,
        idempotency_key=key,
        table_id=table.pk,
        shift=shift,
    )
    return posting_record(posting)
