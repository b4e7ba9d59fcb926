from __future__ import annotations

from django.apps import AppConfig


class DealerConfig(AppConfig):
    name = "dealer"
    verbose_name = "Dealer tablet"
