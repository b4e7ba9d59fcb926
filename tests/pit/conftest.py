"""The pit's tests (dashboard, reports) play rounds as the settlement tests do: the same fixtures."""

from __future__ import annotations

from tests.settlement.conftest import balances, entries, pgp_table, play_to_hands  # noqa: F401  (fixtures)
