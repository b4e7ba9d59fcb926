"""``{{ hand.rule|way_words }}``: the house way's reason for a bank's hand in the active language
(``rules.way_words``)."""

from __future__ import annotations

from django import template

from rules.way_words import way_words as say

register = template.Library()


@register.filter
def way_words(rule: str | None) -> str:
    return say(rule) if rule else ""
