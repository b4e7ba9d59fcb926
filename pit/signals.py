"""What the pit does when the ground signals: a closed shift gets its reports built (``casino.signals``)."""

from __future__ import annotations

from typing import Any

from casino.models import Shift
from pit.tasks import shift_reports_build


def shift_reports_enqueue(sender: Any, *, shift: Shift, **kwargs: Any) -> None:
    """A shift's close committed: a worker builds its three reports (``pit.tasks.shift_reports_build``)."""
    shift_reports_build.delay(shift.pk)
