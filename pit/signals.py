"""What the pit does when the apps below signal: a closed shift gets its reports built (``casino.signals``), and
its Master Game Report once its count is done (``tables.signals.drop_box_final``)."""

from __future__ import annotations

from typing import Any

from casino.models import Shift
from casino.outbox import outbox_enqueue
from pit.report_selectors import shift_awaits_count
from pit.tasks import shift_reports_build
from tables.models import Table


def shift_reports_enqueue(sender: Any, *, shift: Shift, **kwargs: Any) -> None:
    """A shift is closing: a worker builds its reports (``pit.tasks.shift_reports_build``) once it commits (the
    Master Game Report only if no drop box is awaited: else once the count is done, ``master_game_enqueue``).

    Through the outbox (``casino.outbox``), in the close's own transaction: the row is written with the close and
    published once it commits; with the broker down the close still answers at once, and the task waits for
    ``outbox_flush`` (the beat's ``shift_boundaries`` builds any report still missing too).
    """
    outbox_enqueue(task_name=shift_reports_build.name, args=[shift.pk])


def master_game_enqueue(sender: Any, *, table: Table, shift: Shift, **kwargs: Any) -> None:
    """A drop box is final: if it was the last box the shift waited for (``shift_awaits_count``), a worker builds
    the shift's reports (the Master Game Report among them) once the count commits, through the outbox as at the
    close. Sent inside the count's transaction, which has just posted the drop, so the box counts as final here."""
    if not shift_awaits_count(shift=shift):
        outbox_enqueue(task_name=shift_reports_build.name, args=[shift.pk])
