"""House rules. ``Game`` names the four games a table can deal."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class Game(models.TextChoices):
    PAIGOW_TILES = "paigow_tiles", _("Pai Gow (tiles)")
    PAIGOW_POKER = "paigow_poker", _("Pai Gow Poker")
    CHINESE_POKER = "chinese_poker", _("Chinese Poker")
    OFC = "ofc", _("Open-Face Chinese Poker")


# How many player seats a table of each game may have (GAME_RULES.md):
# tiles: up to eight positions with the banker; Pai Gow Poker: seven hands, six
# players and the bank; Chinese Poker and OFC: two to four players.
SEAT_LIMITS: dict[str, tuple[int, int]] = {
    Game.PAIGOW_TILES: (1, 7),
    Game.PAIGOW_POKER: (1, 6),
    Game.CHINESE_POKER: (2, 4),
    Game.OFC: (2, 4),
}
