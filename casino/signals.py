"""Signals of the ground, for the apps above it to act on without the ground importing them."""

from __future__ import annotations

from django.dispatch import Signal

# Sent once a shift's close has committed, with ``shift``: the pit builds its reports (``pit.apps``).
shift_closed = Signal()
