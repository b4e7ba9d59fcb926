"""A season in the league tests: a tournament played through the services to the finish in a given order, and the
text of a PDF as a reader extracts it."""

from __future__ import annotations

import io
import random
from collections.abc import Callable, Sequence

from django.contrib.auth.models import User
from pypdf import PdfReader

from players.models import Player
from poker_room.tournaments import services
from poker_room.tournaments.models import Entry, Tournament
from tests.poker_room.tournament_setup import T0, at


def play(
    director: User,
    make_tournament: Callable[..., Tournament],
    finish: Sequence[str],
    *,
    buy_in_cents: int = 9_000,
    players: dict[str, Player] | None = None,
    reenter: str = "",
) -> Tournament:
    """A tournament whose players finish in the order ``finish`` (1st first), played through the services. With
    ``reenter``, that player busts first, re-enters, and then finishes where ``finish`` says."""
    players = players or {}
    tournament = make_tournament(buy_in_cents=buy_in_cents, fee_cents=1_000, reentries_max=1, late_registration_level=2)
    entries: dict[str, Entry] = {}
    for name in finish:
        player = players.get(name)
        entries[name] = services.entry_register(
            actor=director, tournament=tournament, name=name, player_id=player.pk if player else None, now=T0
        )
    rng = random.Random(7)
    services.tournament_start(actor=director, tournament=tournament, now=T0, rng=rng)
    if reenter:
        services.entry_eliminate(actor=director, tournament=tournament, entry=entries[reenter], now=at(5), rng=rng)
        entries[reenter] = services.entry_reenter(
            actor=director, tournament=tournament, entry=entries[reenter], now=at(6), rng=rng
        )
    for name in reversed(finish[1:]):
        entry = Entry.objects.get(pk=entries[name].pk)
        services.entry_eliminate(actor=director, tournament=tournament, entry=entry, now=at(10), rng=rng)
    found = Tournament.objects.get(pk=tournament.pk)
    assert found.status == Tournament.Status.FINISHED
    return found


def pdf_text(body: bytes) -> str:
    return " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(body)).pages)
