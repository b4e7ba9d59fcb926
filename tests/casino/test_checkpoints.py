"""A shift close folds the audit log into its tree and signs its head into the database and the checkpoint file;
the sequencer does it every few seconds too."""

from __future__ import annotations

import json

import pytest
from django.db import transaction

from casino.audit import audit_checkpoint_make, audit_event_record
from casino.audit_verify import audit_log_verify
from casino.events import AuditEventType
from casino.models import AuditCheckpoint, AuditEvent
from casino.services import shift_close
from casino.tasks import audit_sequence_task


@pytest.mark.django_db
def test_closing_a_shift_signs_the_head_as_it_closes(shift, pit_boss, settings, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        shift_close(actor=pit_boss, shift=shift)
    checkpoint = AuditCheckpoint.objects.get(shift=shift)
    closed = AuditEvent.objects.get(event_type=AuditEventType.SHIFT_CLOSED)
    assert (checkpoint.seq, checkpoint.head_hash, checkpoint.reason) == (closed.seq, closed.hash, "shift closed")
    with open(settings.TABLESIDE_AUDIT_CHECKPOINT_FILE, encoding="utf-8") as handle:
        (line,) = handle.read().splitlines()
    assert json.loads(line)["seq"] == closed.seq and json.loads(line)["signature"] == checkpoint.signature
    assert audit_log_verify().checkpoints_checked == 2  # the database's and the file's


@pytest.mark.django_db
def test_a_close_that_rolls_back_leaves_no_checkpoint_behind(
    shift, pit_boss, settings, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        try:
            with transaction.atomic():
                shift_close(actor=pit_boss, shift=shift)
                raise RuntimeError("the power went")
        except RuntimeError:
            pass
    assert not AuditCheckpoint.objects.exists()
    with pytest.raises(FileNotFoundError):
        open(settings.TABLESIDE_AUDIT_CHECKPOINT_FILE, encoding="utf-8").close()


@pytest.mark.django_db
def test_the_sequencer_signs_a_head_only_when_events_were_written_since() -> None:
    assert audit_sequence_task.apply().get() == {"made": False, "leaves": None}  # an empty log
    audit_event_record(actor=None, event_type=AuditEventType.TABLE_OPENED, subject=("tables.table", 1))
    assert audit_sequence_task.apply().get() == {"made": True, "leaves": 1}
    assert audit_sequence_task.apply().get() == {"made": False, "leaves": None}
    audit_event_record(actor=None, event_type=AuditEventType.TABLE_CLOSED, subject=("tables.table", 1))
    assert audit_sequence_task.apply().get() == {"made": True, "leaves": 2}
    with transaction.atomic():
        audit_checkpoint_make(reason="by hand")  # by hand (a shift close): signed even when nothing moved
    assert list(AuditCheckpoint.objects.values_list("tree_size", flat=True)) == [1, 2, 2]
