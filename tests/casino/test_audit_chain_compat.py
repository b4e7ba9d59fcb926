"""An audit chain written before the re-layout still verifies, and the log's tree takes it and every event after.

The chain hashes each event's type and subject type (``tables.round``, ``tables.table``...), so a
renamed app label or event type would break every chain already stored. The fixture is every row of
``casino_auditevent`` as the code at 628cdc7 (before the re-layout) stored it on SQLite: a pit, a Pai
Gow Poker table opened, two rounds settled and one voided, every service run as the system (the chain
hashes ``actor_id``, and no user exists where the fixture is loaded).
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
from django.db import transaction

from casino.audit import audit_checkpoint_make, audit_event_record
from casino.audit_verify import audit_log_verify
from casino.events import AuditEventType
from casino.models import AuditEvent, AuditLeaf
from casino.rows import audit_event_numbers_resume
from tests.guards import guards_off

pytestmark = pytest.mark.django_db

FIXTURE = Path(__file__).parent / "fixtures" / "audit_chain_before_relayout.json"
ROWS: list[dict[str, Any]] = json.loads(FIXTURE.read_text(encoding="utf-8"))["events"]
VOIDED = next(row["seq"] for row in ROWS if row["event_type"] == "round.voided")


@pytest.fixture(autouse=True)
def _unkeyed_until_the_fixtures_last_event(settings) -> None:  # type: ignore[no-untyped-def]
    """An installation from before the keyed chain says where its unkeyed events end (README, "Keys")."""
    settings.TABLESIDE_AUDIT_UNKEYED_UNTIL = len(ROWS)


def _json(stored: str | None) -> Any:
    return None if stored is None else json.loads(stored)


def _event(row: dict[str, Any]) -> AuditEvent:
    """The row as the ORM reads it back: SQLite keeps the UTC time as text and JSON as its text."""
    return AuditEvent(
        seq=row["seq"],
        occurred_at=dt.datetime.fromisoformat(row["occurred_at"]).replace(tzinfo=dt.UTC),
        actor_id=row["actor_id"],
        actor_name=row["actor_name"],
        event_type=row["event_type"],
        subject_type=row["subject_type"],
        subject_id=row["subject_id"],
        before=_json(row["before"]),
        after=_json(row["after"]),
        reason=row["reason"],
        prev_hash=row["prev_hash"],
        hash=row["hash"],
    )


def load(rows: list[dict[str, Any]]) -> list[AuditEvent]:
    # A new pk for each row (the chain does not hash it): a sequence is never moved past a pk written by hand.
    events = AuditEvent.objects.bulk_create([_event(row) for row in rows])
    with (
        guards_off()
    ):  # as the migration that made the log a tree did (as the database's owner), on a floor that had these rows
        audit_event_numbers_resume()
    return events


def test_the_fixture_is_a_small_chain_with_rounds_and_tables_written_by_the_system() -> None:
    assert 10 <= len(ROWS) < 100
    assert [row["seq"] for row in ROWS] == list(range(1, len(ROWS) + 1))
    assert {row["actor_id"] for row in ROWS} == {None}
    assert {"tables.round", "tables.table"} <= {row["subject_type"] for row in ROWS}


def test_a_chain_written_before_the_relayout_verifies_every_event() -> None:
    load(ROWS)
    report = audit_log_verify()
    assert report.ok, report.describe()
    assert report.events_checked == len(ROWS)
    stored = set(AuditEvent.objects.values_list("subject_type", "event_type"))
    assert {"tables.round", "tables.table"} <= {subject for subject, _ in stored}
    for _, event_type in stored:  # every kind written then is listed now, under the same stored value
        assert AuditEventType(event_type).value == event_type


@pytest.mark.parametrize(
    ("field", "altered"),
    [
        ("subject_type", "settlement.round"),
        ("event_type", "round.settled"),
        ("subject_id", "3"),
        ("occurred_at", "2020-01-01 00:00:00.000000"),
        ("reason", "Dealer error"),
        ("after", '{"state": "settled"}'),
    ],
)
def test_altering_one_stored_field_of_an_old_event_breaks_the_chain_at_that_event(field: str, altered: str) -> None:
    rows = [dict(row) for row in ROWS]
    row = rows[VOIDED - 1]
    assert row[field] != altered
    row[field] = altered
    load(rows)
    report = audit_log_verify()
    assert not report.ok
    assert report.broken_event is not None and report.broken_event.seq == VOIDED
    assert report.events_checked == VOIDED - 1
    assert "stored hash does not match its content" in report.problem


def test_an_event_recorded_now_follows_the_old_chain_and_the_tree_takes_both(pit_boss) -> None:
    load(ROWS)
    event = audit_event_record(
        actor=pit_boss,
        event_type=AuditEventType.TABLE_CLOSED,
        subject=("tables.table", 1),
        before={"status": "open"},
        after={"status": "closed"},
    )
    assert event.seq == len(ROWS) + 1 and event.prev_hash == ""  # a leaf of the tree, not a link of the chain
    with transaction.atomic():
        head = audit_checkpoint_make(reason="by hand")
    assert head is not None and head.tree_size == len(ROWS) + 1
    assert list(AuditLeaf.objects.values_list("event_seq", flat=True)) == [*(row["seq"] for row in ROWS), event.seq]
    report = audit_log_verify()
    assert report.ok, report.describe()
    assert report.events_checked == len(ROWS) + 1 and report.leaves == len(ROWS) + 1


@pytest.mark.django_db
def test_without_saying_where_the_unkeyed_events_end_they_read_as_forged(settings) -> None:
    """Else anyone could rewrite the whole chain unkeyed, with plain SHA-256."""
    load(ROWS)
    settings.TABLESIDE_AUDIT_UNKEYED_UNTIL = 0
    report = audit_log_verify()
    assert report.broken_event is not None and report.broken_event.seq == 1
    assert "written without the audit key" in report.problem
