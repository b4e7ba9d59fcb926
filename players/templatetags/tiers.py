"""``{{ player.tier|tier_name }}``: a tier in the active language (``players.tier_names``)."""

from __future__ import annotations

from django import template

from players.tier_names import tier_name as _tier_name

register = template.Library()


@register.filter
def tier_name(tier: str | None) -> str:
    return _tier_name(tier)
