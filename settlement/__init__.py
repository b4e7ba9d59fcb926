"""Wagers, settlement, commission, the double-entry ledger and the shift reports."""
