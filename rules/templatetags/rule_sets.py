"""``{{ rule_set.name|rule_set_name }}``: a rule set's name as a user reads it.

A house names its own rule sets (data, shown as typed); the four default rule sets made by the migration carry
English names, shown in the active language."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext, gettext_noop

register = template.Library()

# The default rule sets' names (``rules.options.DEFAULT_RULE_SET_NAMES``), listed for the translators.
_DEFAULT_NAMES = (
    gettext_noop("Pai Gow (tiles) — house rules (Foxwoods)"),
    gettext_noop("Pai Gow Poker — house rules (Golden Nugget)"),
    gettext_noop("Chinese Poker — house rules (2-4, seed royalties)"),
    gettext_noop("Open-Face Chinese Poker — house rules (Mainz)"),
)


@register.filter
def rule_set_name(name: str) -> str:
    return gettext(name) if name in _DEFAULT_NAMES else name
