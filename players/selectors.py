"""Reads on players: finding one from the tablet by card number or name."""

from __future__ import annotations

from django.db.models import QuerySet

from players.models import Player, RatingSession

MOST_FOUND = 20


def player_find(*, query: str) -> list[Player]:
    """The players a dealer's search finds: the card number exactly (a card swiped or typed), else every word of the
    name anywhere in it, case aside; at most ``MOST_FOUND``, by name. Anonymised players are never found by name."""
    text = " ".join(str(query or "").split())
    if not text:
        return []
    by_card = list(Player.objects.filter(card_number=text)[:1])
    if by_card:
        return by_card
    found: QuerySet[Player] = Player.objects.filter(anonymous=False)
    for word in text.split()[:5]:
        found = found.filter(name__icontains=word)
    return list(found.order_by("name", "pk")[:MOST_FOUND])


def session_current(*, player: Player) -> RatingSession | None:
    """The player's session not ended (playing or on a break), if any."""
    return RatingSession.objects.filter(player=player).exclude(status=RatingSession.Status.ENDED).first()
