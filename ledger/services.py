"""Posting to the ledger: the one writer of postings and their entries.

``post`` writes a posting and its lines in the caller's transaction (its statements are in ``ledger.sql``); the
service that moved the money records ``posting_record(posting)`` in its own audit event, so the event's keyed hash
holds the posting and the verifiers hold the stored entries to the event.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypedDict

from django.contrib.auth.models import User

from casino.models import Shift
from ledger.lines import Line
from ledger.models import Posting
from ledger.sql import ledger_insert


class PostingRecord(TypedDict):
    """A posting as the audit event that caused it records it: its id, kind and every line as
    ``[account, seat number or None, cents, kind]``."""

    id: int
    kind: str
    lines: list[list[Any]]


def post(
    *,
    kind: str,
    lines: Iterable[Line],
    actor: User | None,
    round_id: int | None = None,
    table_id: int | None = None,
    shift: Shift | None = None,
    seat_ids: Mapping[int, int] | None = None,
    idempotency_key: str | None = None,
    reason: str = "",
    hands: Any = None,
    result: Any = None,
    reverses: Posting | None = None,
    corrects: Posting | None = None,
) -> Posting:
    """Write one posting of ``kind`` and its entries (``lines``, which must sum to zero) on what it moves money for
    (a round, or a table and a shift, or neither: a keyed posting of the poker room); ``seat_ids`` maps the seat
    numbers of the lines to the seats' ids."""
    lines = list(lines)
    total = sum(line.amount for line in lines)
    if total != 0:
        raise ValueError(f"a posting must balance; these lines sum to {total} cents")
    if actor is not None and not actor.is_authenticated:
        actor = None
    posting = Posting(
        round_id=round_id,
        table_id=table_id,
        shift=shift,
        kind=kind,
        idempotency_key=idempotency_key,
        actor=actor,
        reason=reason,
        hands=hands,
        result=result,
        reverses=reverses,
        corrects=corrects,
    )
    posting = ledger_insert(posting, lines=lines, seat_ids=seat_ids or {})
    posting.lines_written = tuple(lines)  # for posting_record, in the same transaction
    return posting


def posting_record(posting: Posting) -> PostingRecord:
    """A posting just written by ``post`` as its audit event records it: its id, kind and every line (account, seat
    number, cents, kind). The event's keyed hash holds it; the verifiers hold the stored entries to it: neither
    record can change without the other showing it."""
    lines = posting.lines_written
    return {
        "id": posting.pk,
        "kind": posting.kind,
        "lines": [[line.account, line.seat, line.amount, line.kind] for line in lines],
    }
