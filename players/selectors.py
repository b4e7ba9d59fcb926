"""Reads on players: finding one from the tablet by card number or name."""

from __future__ import annotations

from django.db.models import QuerySet

from players.models import Player, RatingSession

MOST_FOUND = 20


def player_search(*, query: str) -> QuerySet[Player]:
    """Every player a search finds, by name: the card number exactly (a card swiped or typed), else every word of
    the name anywhere in it, case aside. Anonymised players are never found by name."""
    text = " ".join(str(query or "").split())
    if not text:
        return Player.objects.none()
    by_card = Player.objects.filter(card_number=text)
    if by_card.exists():
        return by_card
    found: QuerySet[Player] = Player.objects.filter(anonymous=False)
    for word in text.split()[:5]:
        found = found.filter(name__icontains=word)
    return found.order_by("name", "pk")


def player_find(*, query: str) -> list[Player]:
    """The first ``MOST_FOUND`` players a search on the tablet or a page finds (``player_search``), by name."""
    return list(player_search(query=query)[:MOST_FOUND])


def session_current(*, player: Player) -> RatingSession | None:
    """The player's session not ended (playing or on a break), if any."""
    return RatingSession.objects.filter(player=player).exclude(status=RatingSession.Status.ENDED).first()
