"""The audit log: keyed (HMAC-SHA256) events, append-only, folded into a signed Merkle tree, and verify_audit that
names every broken event."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction
from django.utils import timezone

from casino.append_only import AppendOnlyError
from casino.audit import audit_checkpoint_make, audit_event_record, canonical_json
from casino.audit_verify import audit_log_verify
from casino.events import AuditEventType
from casino.models import AuditEvent, AuditLeaf
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
def test_events_are_numbered_in_order_each_hashed_on_its_own_and_none_chained_to_another(pit_boss) -> None:
    first, second, third = record_three(pit_boss)
    assert first.seq < second.seq < third.seq
    assert {first.prev_hash, second.prev_hash, third.prev_hash} == {""}  # no writer reads another's hash
    assert len({first.hash, second.hash, third.hash}) == 3
    assert first.actor_name == "paula_pitboss"


@pytest.mark.django_db
def test_the_hash_is_an_hmac_of_the_canonical_json_under_the_current_key(settings) -> None:
    """The number is not in it: the database draws it as the row is written; the log's tree binds the two."""
    settings.TABLESIDE_AUDIT_KEYS = {"k2": "k" * 40, "k1": "j" * 40}
    event = audit_event_record(
        actor=None, event_type=AuditEventType.SHIFT_CLOSED, subject=("casino.shift", 3), reason="end"
    )
    stored = AuditEvent.objects.get(pk=event.pk)
    payload = {
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
    message = ("tableside-audit-leaf|" + canonical_json(payload)).encode()
    assert stored.key_id == "k2"
    assert stored.hash == hmac.new(b"k" * 40, message, hashlib.sha256).hexdigest()
    assert stored.hash != hashlib.sha256(message).hexdigest()  # not computable without the key


@pytest.mark.django_db
def test_an_untouched_chain_verifies(capsys) -> None:
    record_three()
    assert audit_log_verify().ok
    call_command("verify_audit")
    assert "3 events verified" in capsys.readouterr().out


@pytest.mark.django_db
def test_two_identical_facts_in_the_same_microsecond_are_both_recorded_the_second_a_microsecond_later(
    monkeypatch, pit_boss
) -> None:
    """Two tablets, or two workers, can record the same fact by the same actor at the same instant (a clock's
    microsecond is coarse beside a floor): neither write is refused. Identical events would hash alike, so the second
    is stamped one microsecond later, and both are leaves of the log."""
    instant = timezone.now()
    monkeypatch.setattr("casino.audit.timezone.now", lambda: instant)

    def the_fact() -> AuditEvent:
        return audit_event_record(
            actor=pit_boss, event_type=AuditEventType.TABLE_OPENED, subject=("tables.table", 4), after={"open": 1}
        )

    with transaction.atomic():
        first, second, third = the_fact(), the_fact(), the_fact()
    stored = list(AuditEvent.objects.order_by("seq"))
    assert [event.pk for event in stored] == [first.pk, second.pk, third.pk]
    assert [event.occurred_at - instant for event in stored] == [dt.timedelta(microseconds=n) for n in range(3)]
    assert len({event.hash for event in stored}) == 3
    audit_checkpoint_make(reason="within seconds")
    assert audit_log_verify().ok


@pytest.mark.django_db
def test_editing_a_stored_row_by_sql_makes_verify_audit_fail_and_name_that_event() -> None:
    events = record_three()
    tamper(f"UPDATE {AuditEvent._meta.db_table} SET reason = %s WHERE id = %s", ["nothing happened here", events[1].pk])
    with pytest.raises(CommandError) as failure:
        call_command("verify_audit")
    assert f"event #{events[1].seq}" in str(failure.value)
    assert f"id {events[1].pk}" in str(failure.value)
    assert "round.voided" in str(failure.value)
    assert "altered" in str(failure.value)


@pytest.mark.django_db
def test_deleting_a_row_by_sql_after_its_checkpoint_is_named_by_the_leaf_that_still_holds_it() -> None:
    events = record_three()
    with transaction.atomic():
        audit_checkpoint_make(reason="within seconds")
    tamper(f"DELETE FROM {AuditEvent._meta.db_table} WHERE id = %s", [events[1].pk])
    report = audit_log_verify()
    assert not report.ok
    assert f"Event #{events[1].seq} was removed: leaf #2 of the audit log still holds it." in report.describe()
    # With its leaf gone too, the tree no longer gives the root its checkpoint signed.
    tamper(f"DELETE FROM {AuditLeaf._meta.db_table} WHERE event_seq = %s", [events[1].seq])
    assert "Leaves #2 to #2 of the audit log are missing: they were removed." in audit_log_verify().describe()


@pytest.mark.django_db
def test_a_row_deleted_before_the_sequencer_reached_it_is_the_tail_the_anchor_period_bounds() -> None:
    """The one cut nobody can see, as in any log: an event not yet in a signed head. verify_audit says how old the
    oldest such event is; the sequencer keeps it to seconds."""
    events = record_three()
    tamper(f"DELETE FROM {AuditEvent._meta.db_table} WHERE id = %s", [events[2].pk])
    report = audit_log_verify()
    assert report.ok and "are not yet in a signed head outside the database" in report.describe()


@pytest.mark.django_db
def test_rehashing_an_edited_row_with_the_key_is_named_by_the_signed_root() -> None:
    events = record_three()
    with transaction.atomic():
        audit_checkpoint_make(reason="within seconds")
    forged = AuditEvent.objects.get(pk=events[0].pk)
    forged.after = {"status": "closed"}
    from casino.audit import event_hash

    new_hash = event_hash(prev_hash=forged.prev_hash, event=forged)
    tamper(
        f"UPDATE {AuditEvent._meta.db_table} SET after = %s, hash = %s WHERE id = %s",
        ['{"status": "closed"}', new_hash, forged.pk],
    )
    message = audit_log_verify().describe()
    assert f"Event #{forged.seq} is not the event leaf #1 of the audit log holds: rewritten." in message
    # The leaf rewritten to match as well: the tree's root is no longer the one signed outside the database.
    tamper(f"UPDATE {AuditLeaf._meta.db_table} SET event_hash = %s WHERE event_seq = %s", [new_hash, forged.seq])
    message = audit_log_verify().describe()
    assert "Checkpoint of 3 leaves (the database, checkpoint id" in message
    assert "signs a root the log's first 3 leaves do not give" in message


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
    from casino.tasks import audit_log_verify_task

    record_three()
    result = audit_log_verify_task.apply().get()
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
