"""Signals of the settlement app, for the apps above it to act on without settlement importing them.

``round_settled`` is sent inside the transaction that settles a round (``settle_round``) or corrects one
(``correct_round``), with ``round`` (locked), ``posting`` (the settlement now in force) and ``corrects`` (the
settlement it replaces, or None). A receiver does transactional work only: players keep their rating sessions'
figures and the table's hold window with it (``players.rating``), so a round and what it added to a rating are
written together or not at all.
"""

from __future__ import annotations

from django.dispatch import Signal

round_settled = Signal()
