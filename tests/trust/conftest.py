"""The attack suite plays rounds as the settlement tests do: the same fixtures."""

from __future__ import annotations

from tests.settlement.conftest import pgp_table, play_to_hands  # noqa: F401  (fixtures)
from tests.trust.floor import every_record  # noqa: F401  (fixture)
