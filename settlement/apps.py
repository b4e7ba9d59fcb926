from __future__ import annotations

from django.apps import AppConfig


class SettlementConfig(AppConfig):
    name = "settlement"
    verbose_name = "Settlement and ledger"
