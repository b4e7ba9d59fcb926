"""Playing heads-up events in the tests: the field's names, a match by its slot, a bracket played out, what a
refusal must leave as it was, and the hidden fields of a page's form."""

from __future__ import annotations

import random
import re
from collections.abc import Callable

from django.contrib.auth.models import User
from django.test import Client

from casino.models import AuditEvent
from poker_room.heads_up import services as heads_up
from poker_room.heads_up.models import Match
from poker_room.tournaments.models import Elimination, Tournament
from tests.poker_room.tournament_setup import PLAYERS


def player_names(count: int) -> list[str]:
    return [*PLAYERS, *(f"Player {i}" for i in range(len(PLAYERS) + 1, count + 1))][:count]


def match_of(tournament: Tournament, stage: str, round_: int, number: int) -> Match:
    return Match.objects.get(tournament=tournament, stage=stage, round=round_, number=number)


def play_out(tournament: Tournament, actor: User, pick: Callable[[Match], int] | None = None) -> None:
    while (
        match := Match.objects.filter(tournament=tournament, status="ready", table_number__isnull=False)
        .order_by("stage", "round", "number")
        .first()
    ) is not None:
        winner = pick(match) if pick else match.entry_a_id
        heads_up.match_decide(actor=actor, tournament=tournament, match=match, winner=winner, rng=random.Random(5))


def writes(tournament: Tournament) -> tuple[int, ...]:
    return (
        AuditEvent.objects.count(),
        Elimination.objects.filter(tournament=tournament).count(),
        sum(Match.objects.filter(tournament=tournament).values_list("hands", flat=True)),
        Match.objects.filter(tournament=tournament, status="decided").count(),
    )


def page_form(client: Client, url: str, action: str) -> dict[str, str]:
    """The hidden fields of the form posting to ``action`` on the page at ``url``."""
    html = client.get(url).content.decode()
    start = html.index(f'action="{action}"')
    form = html[start : html.index("</form>", start)]
    return dict(re.findall(r'name="(\w+)" value="([^"]*)"', form))
