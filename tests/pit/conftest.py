"""The pit's tests (dashboard, reports) play rounds as the settlement tests do: the same fixtures; the lab's tests share
theirs (``tests.pit.lab_play``)."""

from __future__ import annotations

from tests.pit.lab_play import nothing_shipped, pgp_rules  # noqa: F401  (fixtures)
from tests.settlement.conftest import balances, entries, pgp_table, play_to_hands  # noqa: F401  (fixtures)
