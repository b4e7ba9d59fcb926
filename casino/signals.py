"""Signals of the ground: announcements to the apps above, which the ground neither needs nor waits for.

``shift_closed`` is sent inside a shift's close, once it is recorded, with ``shift``. Its receiver: the pit queues
the task that builds the shift's reports in the outbox, in the same transaction (``pit.signals.shift_reports_enqueue``,
connected by ``pit.apps``). A receiver does transactional work only and returns nothing the sender reads.
"""

from __future__ import annotations

from django.dispatch import Signal

shift_closed = Signal()
