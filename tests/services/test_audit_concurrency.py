"""On PostgreSQL, concurrent writers never fork the audit chain (service-backed)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction

from casino.audit import audit_chain_verify, audit_event_record
from casino.events import AuditEventType
from casino.models import AuditEvent


@pytest.mark.usefixtures("real_services")
def test_four_threads_writing_at_once_leave_one_unbroken_chain(transactional_db) -> None:
    start = threading.Barrier(4)
    errors: list[BaseException] = []

    def write(worker: int) -> None:
        try:
            start.wait()
            for n in range(25):
                with transaction.atomic():
                    audit_event_record(
                        actor=None, event_type=AuditEventType.ROUND_SETTLED, subject=("tables.round", worker * 100 + n)
                    )
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
    assert list(AuditEvent.objects.order_by("seq").values_list("seq", flat=True)) == list(range(1, 101))
    report = audit_chain_verify()
    assert report.ok, report.describe()
