"""Template filters of the dealer tablet: the money filters, signed included, are ``casino.templatetags.money``'s."""

from __future__ import annotations

from django import template

from casino.templatetags.money import signed

register = template.Library()
register.filter("signed", signed)
