"""Signals of the ground, for the apps above it to act on without the ground importing them."""

from __future__ import annotations

from django.dispatch import Signal

# Sent inside a shift's close, once it is recorded, with ``shift``: the pit queues the task that builds its reports
# in the outbox, in the same transaction (``pit.apps``, ``casino.outbox``); a receiver does transactional work only.
shift_closed = Signal()

# Sent inside a shift's close, under the shift's row lock, with ``shift``: an app above that finds the shift cannot
# close yet raises ``casino.errors.WrongState`` saying why (``settlement.apps``: a round still being played).
shift_closing = Signal()
