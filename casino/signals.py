"""Signals of the ground, for the apps above it to act on without the ground importing them."""

from __future__ import annotations

from django.dispatch import Signal

# Sent once a shift's close has committed, with ``shift``: the pit builds its reports (``pit.apps``).
shift_closed = Signal()

# Sent inside a shift's close, under the shift's row lock, with ``shift``: an app above that finds the shift cannot
# close yet raises ``casino.errors.WrongState`` saying why (``settlement.apps``: a round still being played).
shift_closing = Signal()
