"""A tier's name as a user reads it: the house names its tiers (``TABLESIDE_PLAYER_TIERS``, kept in English in the
database and the API); the pages show the name in the active language where the catalogue has it, as typed otherwise."""

from __future__ import annotations

from django.utils.translation import gettext, gettext_noop

# The default tiers (config/settings.py), listed for the translators.
DEFAULT_TIERS = (gettext_noop("Bronze"), gettext_noop("Silver"), gettext_noop("Gold"), gettext_noop("Platinum"))


def tier_name(tier: str | None) -> str:
    """The tier in the active language: "Silber" for "Silver" in German; a tier the catalogue does not know as typed."""
    return gettext(tier) if tier else ""
