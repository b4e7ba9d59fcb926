"""The audit log: a keyed (HMAC-SHA256) chain, append-only, and verify_audit that names the first broken event."""

from __future__ import annotations

import hashlib
import hmac

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from casino.append_only import AppendOnlyError
from casino.audit import audit_chain_verify, audit_event_record, canonical_json
from casino.events import AuditEventType
from casino.models import GENESIS_HASH, AuditEvent
from tests.guards import tamper


def record_three(actor: object = None) -> list[AuditEvent]:
    return [
        audit_event_record(
            actor=actor, event_type=AuditEventType.TABLE_OPENED, subject=("tables.table", 1), after={"status": "open"}
        ),
        audit_event_record(
            actor=actor,
            event_type=AuditEventType.ROUND_VOIDED,
            subject=("tables.round", 7),
            before={"state": "dealt"},
            after={"state": "voided"},
            reason="Card exposed in the shuffle",
        ),
        audit_event_record(
            actor=actor, event_type=AuditEventType.TABLE_CLOSED, subject=("tables.table", 1), after={"status": "closed"}
        ),
    ]


@pytest.mark.django_db
def test_the_first_event_chains_to_zeros_and_each_next_to_the_one_before(pit_boss) -> None:
    first, second, third = record_three(pit_boss)
    assert first.prev_hash == GENESIS_HASH
    assert second.prev_hash == first.hash
    assert third.prev_hash == second.hash
    assert [e.seq for e in (first, second, third)] == [1, 2, 3]
    assert first.actor_name == "paula_pitboss"


@pytest.mark.django_db
def test_the_hash_is_an_hmac_of_the_previous_hash_and_the_canonical_json_under_the_current_key(settings) -> None:
    settings.TABLESIDE_AUDIT_KEYS = {"k2": "k" * 40, "k1": "j" * 40}
    event = audit_event_record(
        actor=None, event_type=AuditEventType.SHIFT_CLOSED, subject=("casino.shift", 3), reason="end"
    )
    stored = AuditEvent.objects.get(pk=event.pk)
    payload = {
        "seq": 1,
        "occurred_at": stored.occurred_at.isoformat(timespec="microseconds"),
        "actor_id": None,
        "actor_name": "system",
        "event_type": "shift.closed",
        "subject_type": "casino.shift",
        "subject_id": "3",
        "before": None,
        "after": None,
        "reason": "end",
    }
    message = (GENESIS_HASH + canonical_json(payload)).encode()
    assert stored.key_id == "k2"
    assert stored.hash == hmac.new(b"k" * 40, message, hashlib.sha256).hexdigest()
    assert stored.hash != hashlib.sha256(message).hexdigest()  # not computable without the key


@pytest.mark.django_db
def test_an_untouched_chain_verifies(capsys) -> None:
    record_three()
    assert audit_chain_verify().ok
    call_command("verify_audit")
    assert "3 events verified" in capsys.readouterr().out


@pytest.mark.django_db
def test_editing_a_stored_row_by_sql_makes_verify_audit_fail_and_name_that_event() -> None:
    events = record_three()
    tamper(f"UPDATE {AuditEvent._meta.db_table} SET reason = %s WHERE id = %s", ["nothing happened here", events[1].pk])
    with pytest.raises(CommandError) as failure:
        call_command("verify_audit")
    assert "event #2" in str(failure.value)
    assert f"id {events[1].pk}" in str(failure.value)
    assert "round.voided" in str(failure.value)
    assert "altered" in str(failure.value)


@pytest.mark.django_db
def test_deleting_a_row_by_sql_is_caught_at_the_event_after_the_gap() -> None:
    events = record_three()
    tamper(f"DELETE FROM {AuditEvent._meta.db_table} WHERE id = %s", [events[1].pk])
    report = audit_chain_verify()
    assert not report.ok
    assert report.broken_event is not None and report.broken_event.seq == 3
    assert "sequence number 3 where 2 was expected" in report.problem


@pytest.mark.django_db
def test_rehashing_an_edited_row_even_with_the_key_still_breaks_the_link_to_the_next_event() -> None:
    events = record_three()
    forged = AuditEvent.objects.get(pk=events[0].pk)
    forged.after = {"status": "closed"}
    from casino.audit import event_hash

    new_hash = event_hash(prev_hash=forged.prev_hash, event=forged)
    tamper(
        f"UPDATE {AuditEvent._meta.db_table} SET after = %s, hash = %s WHERE id = %s",
        ['{"status": "closed"}', new_hash, forged.pk],
    )
    report = audit_chain_verify()
    assert report.broken_event is not None and report.broken_event.seq == 2
    assert "previous-hash link" in report.problem


@pytest.mark.django_db
def test_saving_an_existing_event_raises_and_changes_nothing() -> None:
    event = record_three()[0]
    event.reason = "rewritten"
    with pytest.raises(AppendOnlyError, match="append-only"):
        event.save()
    assert AuditEvent.objects.get(pk=event.pk).reason == ""


@pytest.mark.django_db
def test_deleting_an_event_one_by_one_or_in_bulk_raises() -> None:
    event = record_three()[0]
    with pytest.raises(AppendOnlyError):
        event.delete()
    with pytest.raises(AppendOnlyError):
        AuditEvent.objects.all().delete()
    with pytest.raises(AppendOnlyError):
        AuditEvent.objects.filter(pk=event.pk).update(reason="x")
    assert AuditEvent.objects.count() == 3


@pytest.mark.django_db
def test_the_admin_offers_no_way_to_add_change_or_delete_an_event(admin_client) -> None:
    event = record_three()[0]
    assert admin_client.get("/admin/casino/auditevent/").status_code == 200
    assert admin_client.get("/admin/casino/auditevent/add/").status_code == 403
    response = admin_client.post(f"/admin/casino/auditevent/{event.pk}/delete/", {"post": "yes"})
    assert response.status_code == 403
    assert AuditEvent.objects.count() == 3


@pytest.mark.django_db
def test_the_verify_task_reports_the_chain_for_an_auditor() -> None:
    from casino.tasks import audit_chain_verify_task

    record_three()
    result = audit_chain_verify_task.apply().get()
    assert result["ok"] is True
    assert result["events_checked"] == 3


# --- the kinds of event are one enumeration ---------------------------------------------------------


@pytest.mark.django_db
def test_an_event_type_that_is_not_listed_is_refused_and_nothing_is_written() -> None:
    with pytest.raises(ValueError, match="round.teleported"):
        audit_event_record(actor=None, event_type="round.teleported", subject=("tables.round", 1))  # type: ignore[arg-type]
    assert AuditEvent.objects.count() == 0


def test_every_move_of_a_round_every_request_and_every_table_status_has_its_listed_event() -> None:
    from rounds.models import Adjustment
    from rounds.services.transitions import _MOVE_EVENTS
    from rounds.states import RoundState
    from settlement.services.corrections import _ADJUSTMENT_EVENTS
    from tables.models import Table
    from tables.services import _STATUS_EVENTS

    assert set(_MOVE_EVENTS) == set(RoundState)
    assert set(_ADJUSTMENT_EVENTS) == {(kind, status) for kind in Adjustment.Kind for status in Adjustment.Status}
    assert set(_STATUS_EVENTS) == set(Table.Status)
    used = {*_MOVE_EVENTS.values(), *_ADJUSTMENT_EVENTS.values(), *_STATUS_EVENTS.values()}
    assert len(used) == len(_MOVE_EVENTS) + len(_ADJUSTMENT_EVENTS) + len(_STATUS_EVENTS)  # no two share a type


def test_the_stored_values_of_the_event_types_are_the_ones_written_before_the_enumeration() -> None:
    # The chain hashes event_type: a value renamed would make a new kind of the same event.
    assert {t.value for t in AuditEventType} >= {
        "pit.created", "gaming_day.opened", "gaming_day.closed", "shift.opened", "shift.closed",
        "shift_report.built", "rule_set.created", "rule_set.updated", "table.created", "table.open",
        "table.closed", "table.dealer_assigned", "table.rule_set_assigned", "table.big_win_set",
        "round.opened", "round.betting_closed", "round.dealt", "round.revealed", "round.settled",
        "round.voided", "round.hands_replaced", "round.placed", "round.corrected", "settlement.corrected",
        "adjustment.void_requested", "adjustment.void_approved", "adjustment.void_rejected",
        "adjustment.correction_requested", "adjustment.correction_approved", "adjustment.correction_rejected",
    }  # fmt: skip
