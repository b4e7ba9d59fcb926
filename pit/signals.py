"""What the pit does when the ground signals: a closed shift gets its reports built (``casino.signals``)."""

from __future__ import annotations

from typing import Any

from casino.models import Shift
from casino.outbox import outbox_enqueue
from pit.tasks import shift_reports_build


def shift_reports_enqueue(sender: Any, *, shift: Shift, **kwargs: Any) -> None:
    """A shift is closing: a worker builds its three reports (``pit.tasks.shift_reports_build``) once it commits.

    Through the outbox (``casino.outbox``), in the close's own transaction: the row is written with the close and
    published once it commits; with the broker down the close still answers at once, and the task waits for
    ``outbox_flush`` (the beat's ``shift_boundaries`` builds any report still missing too).
    """
    outbox_enqueue(task_name=shift_reports_build.name, args=[shift.pk])
