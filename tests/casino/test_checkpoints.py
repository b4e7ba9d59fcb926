"""A shift close signs the audit chain's head into the database and the checkpoint file; Celery beat does too."""

from __future__ import annotations

import json

import pytest
from django.db import transaction

from casino.audit import audit_chain_verify, audit_checkpoint_make, audit_event_record
from casino.events import AuditEventType
from casino.models import AuditCheckpoint, AuditEvent
from casino.services import shift_close
from casino.tasks import audit_checkpoint_task


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
    assert audit_chain_verify().checkpoints_checked == 2  # the database's and the file's


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
def test_beat_signs_the_head_only_when_it_moved() -> None:
    assert audit_checkpoint_task.apply().get() == {"made": False, "seq": None}  # an empty chain
    audit_event_record(actor=None, event_type=AuditEventType.TABLE_OPENED, subject=("tables.table", 1))
    assert audit_checkpoint_task.apply().get() == {"made": True, "seq": 1}
    assert audit_checkpoint_task.apply().get() == {"made": False, "seq": 1}
    with transaction.atomic():
        audit_checkpoint_make(reason="by hand")
    assert AuditCheckpoint.objects.count() == 2
