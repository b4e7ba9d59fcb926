"""The heads-up pages: the bracket, the dealer's tablet for one match, the console's "Draw the bracket"; a double tap
or a second screen decides a match once, addresses of another tournament and malformed forms are refused cleanly,
and who may do what."""

from __future__ import annotations

import html
import random
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.test import APIClient

from casino.errors import WrongState
from casino.models import AuditEvent
from casino.roles import Role
from poker_room.heads_up import services as heads_up
from poker_room.heads_up.models import Match
from poker_room.tournaments import services
from poker_room.tournaments.models import Elimination, Entry, Tournament
from tests.poker_room.heads_up.play import match_of, page_form, player_names, writes
from tests.poker_room.tournament_setup import PLAYERS, T0, director, fresh  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db


KEY = "0123456789abcdef0123456789abcdef"


def _signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _text(response: object) -> str:
    return html.unescape(response.content.decode())  # type: ignore[attr-defined]


def test_the_dealers_tablet_counts_hands_once_a_tap_and_the_blinds_rise_on_the_7th(
    heads_up_event: Callable[..., Tournament],
    director: User,  # noqa: F811
    make_user: Callable[..., User],
) -> None:
    tournament = heads_up_event(4, heads_up_mode="knockout")
    dana = make_user("dana_dealer", Role.DEALER)
    match = match_of(tournament, "knockout", 1, 1)
    services.tournament_table_dealer_set(
        actor=director, tournament=tournament, table_number=match.table_number, dealer=dana
    )
    levels = [level for level in tournament.levels if level["kind"] == "level"]
    client = _signed_in(dana)
    address = reverse("poker-room-match", args=[tournament.pk, match.pk])
    page = _text(client.get(address))
    first = f"{levels[0]['small_blind']}/{levels[0]['big_blind']}"
    assert "Level 1" in page and first in page and "hand 1 of 7" in page and "Hand played" in page
    hand = reverse("poker-room-match-action", args=[tournament.pk, match.pk, "hand"])
    # A double tap (the same form sent twice) counts one hand.
    assert client.post(hand, {"form_key": KEY}).status_code == 302
    client.post(hand, {"form_key": KEY})
    assert Match.objects.get(pk=match.pk).hands == 1
    for i in range(6):
        client.post(hand, {"form_key": f"{i:032x}"})
    page = _text(client.get(address))
    second = f"{levels[1]['small_blind']}/{levels[1]['big_blind']}"
    assert Match.objects.get(pk=match.pk).hands == 7
    assert "Level 2" in page and second in page and "hand 1 of 7" in page
    # The win asks to be confirmed, then records it: the other player is out.
    winner = match.entry_a
    page = _text(client.get(address + f"?won={winner.pk}"))
    assert f"Did #{winner.number} {winner.name} win the match?" in page
    decide = reverse("poker-room-match-action", args=[tournament.pk, match.pk, "decide"])
    refused = client.post(decide, {"form_key": "a" * 32, "winner": winner.pk})
    assert refused.status_code == 400 and Match.objects.get(pk=match.pk).status == "ready"
    client.post(decide, {"form_key": "b" * 32, "winner": winner.pk, "confirm": "yes"})
    assert Match.objects.get(pk=match.pk).winner_id == winner.pk
    assert Entry.objects.get(pk=match.entry_b_id).status == "busted"


def test_a_double_tap_on_won_and_a_second_screen_decide_the_match_once(
    heads_up_event: Callable[..., Tournament],
    director: User,  # noqa: F811
    make_user: Callable[..., User],
) -> None:
    tournament = heads_up_event(4, heads_up_mode="knockout")
    dana = make_user("dana_dealer", Role.DEALER)
    services.tournament_table_dealer_set(actor=director, tournament=tournament, table_number=1, dealer=dana)
    match = Match.objects.get(tournament=tournament, table_number=1)
    url = f"/poker-room/{tournament.pk}/matches/{match.pk}/"
    tablet, console = Client(), Client()
    tablet.force_login(dana)
    console.force_login(director)
    on_tablet = page_form(tablet, f"{url}?won={match.entry_a_id}", f"{url}decide/")
    on_console = page_form(console, f"{url}?won={match.entry_b_id}", f"{url}decide/")
    assert on_tablet["winner"] == str(match.entry_a_id) and on_tablet["confirm"] == "yes"
    assert tablet.post(f"{url}decide/", on_tablet).status_code == 302
    before = writes(tournament)
    assert tablet.post(f"{url}decide/", on_tablet).status_code == 302  # the double tap: recorded once
    response = console.post(f"{url}decide/", on_console)  # the director's screen, drawn before: refused
    assert response.status_code == 409 and "is decided" in response.content.decode()
    assert writes(tournament) == before
    assert Elimination.objects.get(tournament=tournament, entry=match.entry_b).status == "in_force"


def test_a_dealer_of_another_table_and_a_stranger_are_refused_the_match(
    heads_up_event: Callable[..., Tournament],
    make_user: Callable[..., User],
) -> None:
    tournament = heads_up_event(4, heads_up_mode="knockout")
    match = match_of(tournament, "knockout", 1, 1)
    address = reverse("poker-room-match", args=[tournament.pk, match.pk])
    otto = make_user("otto_dealer", Role.DEALER)
    assert _signed_in(otto).get(address).status_code == 403
    hand = reverse("poker-room-match-action", args=[tournament.pk, match.pk, "hand"])
    assert _signed_in(otto).post(hand, {"form_key": KEY}).status_code == 403
    assert _signed_in(make_user("cass_cashier", Role.CAGE_CASHIER)).get(address).status_code == 403
    auditor = _signed_in(make_user("alex_auditor", Role.AUDITOR))
    page = _text(auditor.get(address))
    assert "Read only" in page and "Hand played" not in page
    assert Match.objects.get(pk=match.pk).hands == 0


def test_the_console_draws_the_bracket_and_the_bracket_page_shows_it(
    heads_up_event: Callable[..., Tournament],
    director: User,  # noqa: F811
) -> None:
    tournament = heads_up_event(6, draw=False, heads_up_mode="knockout")
    client = _signed_in(director)
    console = _text(client.get(reverse("poker-room-console", args=[tournament.pk])))
    assert "Draw the bracket" in console
    response = client.post(reverse("poker-room-bracket-draw", args=[tournament.pk]), {"form_key": KEY})
    assert response.status_code == 302 and Match.objects.filter(tournament=tournament).count() == 5
    console = _text(client.get(reverse("poker-room-console", args=[tournament.pk])))
    assert "Now playing: First round." in console and "Draw the bracket" not in console
    again = client.post(reverse("poker-room-bracket-draw", args=[tournament.pk]), {"form_key": "c" * 32})
    assert again.status_code == 409 and "drawn already" in _text(again)
    bracket = _text(client.get(reverse("poker-room-bracket", args=[tournament.pk])))
    for name in ("First round", "Semi-final", "Final", "Winner of match 1"):
        assert name in bracket


def test_a_chip_template_switched_to_heads_up_draws_no_bracket_on_levels_of_minutes(
    director: User,  # noqa: F811
) -> None:
    tournament = services.tournament_create(
        actor=director, template_key="msop_turbo", buy_in_cents=5_000, fee_cents=500, tables=2
    )
    services.tournament_settings_set(actor=director, tournament=tournament, format="heads_up", heads_up_mode="knockout")
    for name in player_names(4):
        services.entry_register(actor=director, tournament=tournament, name=name, now=T0)
    started = services.tournament_start(actor=director, tournament=tournament, now=T0, rng=random.Random(1))
    before = AuditEvent.objects.count()
    # Drawn, every "Hand played" on the tablet would be refused ("Level 1 lasts minutes"): refused at the draw.
    with pytest.raises(WrongState, match="counts levels in minutes"):
        heads_up.bracket_draw(actor=director, tournament=started, rng=random.Random(1))
    assert not Match.objects.filter(tournament=started).exists() and AuditEvent.objects.count() == before
    client = Client()
    client.force_login(director)
    response = client.post(f"/poker-room/{started.pk}/bracket/draw/", {})
    assert response.status_code == 409 and "counts levels in minutes" in response.content.decode()


def test_the_final_decided_wrongly_is_undone_from_its_page(
    heads_up_event: Callable[..., Tournament],
    director: User,  # noqa: F811
) -> None:
    tournament = heads_up_event(2, heads_up_mode="knockout")
    final = Match.objects.get(tournament=tournament)
    heads_up.match_decide(actor=director, tournament=tournament, match=final, winner=final.entry_a_id)
    assert fresh(tournament).status == Tournament.Status.FINISHED
    client = Client()
    client.force_login(director)
    url = f"/poker-room/{tournament.pk}/matches/{final.pk}/"
    form = page_form(client, url, f"{url}undo/")  # the finished event's final still offers the undo
    response = client.post(f"{url}undo/", {**form, "reason": "The dealer tapped the wrong name"})
    assert response.status_code == 302
    assert fresh(tournament).status == Tournament.Status.RUNNING
    assert Match.objects.get(pk=final.pk).status == "ready"
    heads_up.match_decide(actor=director, tournament=tournament, match=final, winner=final.entry_b_id)
    assert Entry.objects.get(tournament=tournament, place=1).pk == final.entry_b_id


def test_addresses_of_another_tournament_and_malformed_pages_are_refused_cleanly(
    heads_up_event: Callable[..., Tournament],
    director: User,  # noqa: F811
    make_user: Callable[..., User],
) -> None:
    tournament = heads_up_event(4, heads_up_mode="knockout")
    other = heads_up_event(2, heads_up_mode="knockout")
    theirs = Match.objects.get(tournament=other)
    match = Match.objects.get(tournament=tournament, round=1, number=1)
    before = writes(tournament), writes(other)
    api = APIClient(raise_request_exception=False)
    api.force_authenticate(director)
    for path, body in (("hand/", {}), ("decide/", {"winner": 1}), ("undo/", {"reason": "x"})):
        assert (
            api.post(f"/api/tournaments/{tournament.pk}/matches/{theirs.pk}/{path}", body, format="json").status_code
            == 404
        )
    assert api.get("/api/tournaments/99999999/bracket/").status_code == 404
    client = Client(raise_request_exception=False)
    client.force_login(director)
    url = f"/poker-room/{tournament.pk}/matches/"
    assert client.get(f"{url}{theirs.pk}/").status_code == 404
    assert client.post(f"{url}{theirs.pk}/hand/", {}).status_code == 404
    assert client.post(f"{url}{match.pk}/explode/", {}).status_code == 404
    huge = "9" * 25
    assert client.get(f"{url}{huge}/").status_code == 404
    assert client.post(f"{url}{huge}/decide/", {"winner": "1", "confirm": "yes"}).status_code == 404
    assert api.post(f"/api/tournaments/{tournament.pk}/matches/{huge}/hand/", {}, format="json").status_code == 404
    assert client.get(f"{url}{match.pk}/?won=abc").status_code == 200
    assert client.get(f"{url}{match.pk}/?won=999999999999999999999").status_code == 200
    for form in (
        {"winner": "abc", "confirm": "yes"},
        {"winner": "99999999999999", "confirm": "yes"},
        {"winner": str(match.entry_a_id)},
    ):
        assert client.post(f"{url}{match.pk}/decide/", form).status_code == 400, form
    assert client.post(f"{url}{match.pk}/undo/", {"reason": ""}).status_code == 400  # no reason
    assert client.post(f"{url}{match.pk}/undo/", {"reason": "x"}).status_code == 409  # not decided
    assert client.post(f"/poker-room/{other.pk}/bracket/draw/", {}).status_code == 409  # drawn already
    # Roles: an Auditor reads the match and the bracket but records nothing; a stranger sees neither.
    alex = make_user("alex_auditor", Role.AUDITOR)
    client.force_login(alex)
    assert client.get(f"{url}{match.pk}/").status_code == 200
    assert client.get(f"/poker-room/{tournament.pk}/bracket/").status_code == 200
    assert client.post(f"{url}{match.pk}/hand/", {}).status_code == 403
    assert client.post(f"/poker-room/{tournament.pk}/bracket/draw/", {}).status_code == 403
    api.force_authenticate(alex)
    assert api.post(f"/api/tournaments/{tournament.pk}/matches/{match.pk}/hand/", {}, format="json").status_code == 403
    anonymous = Client(raise_request_exception=False)
    assert anonymous.get(f"{url}{match.pk}/").status_code == 302
    assert anonymous.post(f"{url}{match.pk}/hand/", {}).status_code == 302
    assert APIClient().post(f"/api/tournaments/{tournament.pk}/matches/{match.pk}/hand/", {}).status_code in (401, 403)
    assert (writes(tournament), writes(other)) == before


def test_a_chip_tournament_has_no_bracket_page(
    director: User,  # noqa: F811
) -> None:
    tournament = services.tournament_create(
        actor=director, template_key="msop_turbo", buy_in_cents=5_000, fee_cents=500, tables=2
    )
    client = Client()
    client.force_login(director)
    response = client.get(f"/poker-room/{tournament.pk}/bracket/")
    assert response.status_code == 404 and "is not a heads-up event" in response.content.decode()


def test_the_bracket_page_reads_as_many_queries_for_32_players_as_for_4(
    heads_up_event: Callable[..., Tournament],
    director: User,  # noqa: F811
) -> None:
    counts = []
    for players in (4, 32):
        tournament = heads_up_event(players, heads_up_mode="knockout")
        client = _signed_in(director)
        client.get(reverse("poker-room-bracket", args=[tournament.pk]))  # the session warmed up
        with CaptureQueriesContext(connection) as queries:
            assert client.get(reverse("poker-room-bracket", args=[tournament.pk])).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts
