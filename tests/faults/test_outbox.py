"""The task outbox (casino.outbox): a task asked for is kept with the change that asked for it, published
once that commits, and kept unsent (with the broker's refusal) until ``outbox_flush`` gets it through."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import DatabaseError, connection, transaction
from django.test import Client
from django.utils import timezone
from kombu.exceptions import OperationalError

from casino.models import Shift, TaskOutbox
from casino.outbox import OUTBOX_GRACE, outbox_enqueue, outbox_flush, outbox_publish
from casino.services import shift_close
from casino.tasks import outbox_flush_task
from config.celery import app as celery_app
from settlement.models import ShiftReport

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]


class Broker:
    """A broker Celery publishes to (not eagerly) that takes every task, what it was given, unless it refuses."""

    def __init__(self) -> None:
        self.given: list[tuple[str, list[object], dict[str, Any]]] = []
        self.refusing = False

    def send_task(self, name: str, args: list[object], **options: Any) -> None:
        if self.refusing:
            raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        self.given.append((name, args, options))


@pytest.fixture
def broker(monkeypatch: pytest.MonkeyPatch) -> Iterator[Broker]:
    fake = Broker()
    monkeypatch.setattr(celery_app, "send_task", fake.send_task)
    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = False
    yield fake
    celery_app.conf.task_always_eager = eager


def queued(task_name: str = "casino.audit_log_verify", args: list[object] | None = None, **row: Any) -> TaskOutbox:
    """A row as a failed publish left it (tried once), unless ``row`` says otherwise."""
    values: dict[str, Any] = {"attempts": 1, "last_error": "OperationalError: Connection refused."} | row
    return TaskOutbox.objects.create(task_name=task_name, args=args or [], **values)


def test_with_celery_eager_a_closed_shifts_reports_are_built_on_commit_and_the_task_marked_sent(
    shift: Shift, pit_boss: User, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        shift_close(actor=pit_boss, shift=shift)
    row = TaskOutbox.objects.get()
    assert (row.task_name, row.args, row.attempts, row.last_error) == (
        "settlement.shift_reports_build",
        [shift.pk],
        1,
        "",
    )
    assert row.sent_at is not None
    # Every kind: no table played, so the Master Game Report waits for no drop box.
    ready = ShiftReport.objects.filter(shift=shift, status=ShiftReport.Status.READY)
    assert sorted(ready.values_list("kind", flat=True)) == sorted(ShiftReport.Kind.values)


def test_a_broker_that_answers_gets_the_task_once_without_retries_or_a_result_to_wait_for(
    broker: Broker, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        row = outbox_enqueue(task_name="settlement.shift_reports_build", args=[7])
        assert broker.given == []  # not before the commit
    assert broker.given == [("settlement.shift_reports_build", [7], {"retry": False, "ignore_result": True})]
    row.refresh_from_db()
    assert row.sent_at is not None and row.attempts == 1
    # Sent is sent: a late publish or a flush sends nothing again.
    assert outbox_publish(row_id=row.pk) is False
    assert outbox_flush(now=timezone.now() + dt.timedelta(hours=1)).sent == 0
    assert len(broker.given) == 1


def test_a_change_rolled_back_asks_for_no_task(
    broker: Broker, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(ZeroDivisionError), transaction.atomic():
        outbox_enqueue(task_name="settlement.shift_reports_build", args=[7])
        1 / 0  # noqa: B018  (the change fails after asking)
    assert not TaskOutbox.objects.exists()
    assert broker.given == []


def test_a_flush_leaves_a_task_still_publishing_on_its_own_commit_alone_for_30_seconds(
    broker: Broker,
) -> None:
    row = queued(attempts=0, last_error="")  # written, its commit's publish not finished yet
    assert outbox_flush().sent == 0 and broker.given == []
    report = outbox_flush(now=row.created_at + OUTBOX_GRACE)
    assert (report.sent, report.waiting) == (1, 0)
    assert broker.given[0][0] == "casino.audit_log_verify"


def test_a_flush_stops_at_the_brokers_first_refusal_and_the_next_one_sends_all_in_order(broker: Broker) -> None:
    rows = [queued(args=[n]) for n in (1, 2, 3)]
    broker.refusing = True
    report = outbox_flush()
    assert (report.sent, report.waiting) == (0, 3)
    assert "Connection refused" in report.last_error and "3 still waiting" in report.describe()
    assert [TaskOutbox.objects.get(pk=r.pk).attempts for r in rows] == [2, 1, 1]  # one try, not three

    broker.refusing = False
    assert outbox_flush().sent == 3
    assert [args for _name, args, _options in broker.given] == [[1], [2], [3]]
    assert all(r.sent_at and r.last_error == "" for r in TaskOutbox.objects.all())


def test_eager_a_task_that_fails_is_kept_and_the_tasks_after_it_still_run() -> None:
    unknown, known = queued("casino.no_such_task"), queued("casino.audit_log_verify")
    report = outbox_flush()
    assert (report.sent, report.waiting) == (1, 1)
    assert "casino.no_such_task" in report.last_error
    assert TaskOutbox.objects.get(pk=unknown.pk).sent_at is None
    assert TaskOutbox.objects.get(pk=known.pk).sent_at is not None


def test_outbox_flush_says_what_it_sent_and_fails_naming_the_brokers_refusal(
    broker_down: str, broker_back: Callable[[], None], capsys: pytest.CaptureFixture[str]
) -> None:
    queued()
    with pytest.raises(CommandError, match=r"Sent 0 queued tasks; 1 still waiting\. The broker said: \w+"):
        call_command("outbox_flush")
    broker_back()
    call_command("outbox_flush")
    assert capsys.readouterr().out == "Sent 1 queued task; 0 still waiting.\n"
    call_command("outbox_flush")
    assert capsys.readouterr().out == "Every queued task has been sent.\n"


def test_celery_beat_flushes_the_outbox_every_minute() -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["outbox-flush"]
    assert (entry["task"], entry["schedule"]) == (outbox_flush_task.name, 60.0)
    queued()
    assert outbox_flush_task.delay().get() == {"sent": 1, "waiting": 0, "last_error": ""}


def test_what_was_asked_for_cannot_be_changed_or_deleted_in_the_database_only_its_sending() -> None:
    row = queued()
    table = connection.ops.quote_name(TaskOutbox._meta.db_table)
    for sql, params in (
        (f"UPDATE {table} SET task_name = %s WHERE id = %s", ["casino.something_else", row.pk]),
        (f"UPDATE {table} SET args = %s WHERE id = %s", ["[99]", row.pk]),
        (f"DELETE FROM {table} WHERE id = %s", [row.pk]),
    ):
        with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql, params)
    TaskOutbox.objects.filter(pk=row.pk).update(sent_at=timezone.now(), attempts=2, last_error="")
    assert TaskOutbox.objects.get(pk=row.pk).task_name == "casino.audit_log_verify"


def test_a_superuser_reads_the_queued_tasks_in_the_admin_but_cannot_add_change_or_delete_one(
    make_user: Callable[..., User],
) -> None:
    row = queued()
    admin = Client()
    admin.force_login(make_user("sam_superuser", is_staff=True, is_superuser=True))
    page = admin.get("/admin/casino/taskoutbox/")
    assert page.status_code == 200 and "casino.audit_log_verify" in page.content.decode()
    assert admin.get("/admin/casino/taskoutbox/add/").status_code == 403
    assert admin.post(f"/admin/casino/taskoutbox/{row.pk}/delete/", {"post": "yes"}).status_code == 403
    assert TaskOutbox.objects.filter(pk=row.pk).exists()


def test_a_shift_close_queues_its_reports_in_its_own_transaction(shift: Shift, pit_boss: User) -> None:
    """The outbox row is written with the close, not after it: a close that rolls back queues nothing, and one
    that commits has its row before anything is published."""

    class RolledBack(Exception):
        pass

    with pytest.raises(RolledBack), transaction.atomic():
        shift_close(actor=pit_boss, shift=shift)
        assert TaskOutbox.objects.filter(args=[shift.pk], sent_at__isnull=True).count() == 1
        raise RolledBack
    assert not TaskOutbox.objects.exists()
    assert Shift.objects.get(pk=shift.pk).closed_at is None
