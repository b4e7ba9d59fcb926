"""The round fixtures the settlement's tests use too (a Pai Gow Poker table, a round played to its hands)."""

from __future__ import annotations

from tests.settlement.conftest import balances, entries, nothing_written, pgp_table, play_to_hands

__all__ = ["balances", "entries", "nothing_written", "pgp_table", "play_to_hands"]
