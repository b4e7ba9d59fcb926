"""On PostgreSQL, concurrent writers of the audit log never wait for one another, and the log they leave verifies
(service-backed)."""

from __future__ import annotations

import datetime as dt
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from django.db import connection, transaction
from django.utils import timezone

from casino.audit import audit_checkpoint_make, audit_event_record
from casino.audit_verify import audit_log_verify
from casino.events import AuditEventType
from casino.models import AuditEvent, AuditLeaf
from casino.tasks import audit_sequence_task


def record(subject: int) -> AuditEvent:
    return audit_event_record(actor=None, event_type=AuditEventType.ROUND_SETTLED, subject=("tables.round", subject))


@contextmanager
def held_open(work: Callable[[], object]) -> Iterator[threading.Event]:
    """``work`` run in a transaction of another thread (a dealer's write on its own connection), held open, not
    committed, until the block ends or the event it gives is set; what ``work`` raised fails the test."""
    holding, release, done = threading.Event(), threading.Event(), threading.Event()
    errors: list[BaseException] = []

    def hold() -> None:
        try:
            with transaction.atomic():
                work()
                holding.set()
                release.wait(10)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()
            done.set()

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert holding.wait(10)
        yield release
    finally:
        release.set()
        done.wait(10)
        holder.join()
    assert errors == []


@pytest.mark.usefixtures("real_services")
def test_four_threads_writing_at_once_leave_one_log_that_verifies(transactional_db) -> None:
    start = threading.Barrier(4)
    errors: list[BaseException] = []

    def write(worker: int) -> None:
        try:
            start.wait()
            for n in range(25):
                with transaction.atomic():
                    record(worker * 100 + n)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=write, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    assert errors == []
    assert AuditEvent.objects.values("seq").distinct().count() == 100
    with transaction.atomic():
        head = audit_checkpoint_make(reason="by hand")
    assert head is not None and head.tree_size == 100
    seqs = list(AuditLeaf.objects.order_by("position").values_list("event_seq", flat=True))
    assert seqs == sorted(seqs)  # the sequencer takes them in their numbers' order
    report = audit_log_verify()
    assert report.ok, report.describe()


@pytest.mark.usefixtures("real_services")
def test_a_writer_never_waits_for_another_writer_nor_for_the_sequencer(transactional_db) -> None:
    """One dealer's settle holds its transaction open (its event written, not committed) while the sequencer holds
    its lock: a second dealer's event is written and committed at once, and a second sequencer does not wait."""
    record(0)

    def settle_and_sequence() -> None:
        record(1)
        audit_checkpoint_make(reason="held open")

    with held_open(settle_and_sequence):
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '2s'")  # a wait would fail the test, not hang it
        began = time.monotonic()
        with transaction.atomic():
            mine = record(2)
        assert audit_sequence_task.apply().get() == {"made": False, "leaves": None}  # the sequencer is busy: skip
        waited = time.monotonic() - began
    assert waited < 1.0, f"a writer waited {waited:.2f} s"
    assert AuditEvent.objects.filter(pk=mine.pk).exists()
    with transaction.atomic():
        head = audit_checkpoint_make(reason="by hand")
    assert head is not None and head.tree_size == 3
    assert audit_log_verify().ok


@pytest.mark.usefixtures("real_services")
def test_the_same_fact_from_two_writers_in_one_microsecond_waits_for_the_first_then_is_stamped_after_it(
    transactional_db, monkeypatch
) -> None:
    """Two workers record one fact at one instant: the second's INSERT waits for the first's transaction (its row
    holds the same hash), then, the first committed, writes its event a microsecond later. Neither write fails."""
    instant = timezone.now()
    monkeypatch.setattr("casino.audit.timezone.now", lambda: instant)
    with held_open(lambda: record(9)) as release:
        threading.Timer(0.3, release.set).start()
        with transaction.atomic():
            second = record(9)
    stored = list(AuditEvent.objects.order_by("seq"))
    assert [event.occurred_at - instant for event in stored] == [dt.timedelta(0), dt.timedelta(microseconds=1)]
    assert stored[1].pk == second.pk
    with transaction.atomic():
        audit_checkpoint_make(reason="by hand")
    assert audit_log_verify().ok
