"""A second pair of eyes on heads-up events (issue 19): fields of 2 to 9 played to the end in both modes, the prize
tiers paid equally, double taps, matches decided out of turn, undo chains, roles, and malformed input."""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from casino.errors import NotAllowed, WrongState
from casino.models import AuditEvent
from casino.roles import Role
from poker_room.heads_up import services as heads_up
from poker_room.heads_up.models import Match
from poker_room.tournaments import services
from poker_room.tournaments.models import Elimination, Entry, Tournament
from settlement.ledger import ledger_verify
from tests.poker_room import test_heads_up
from tests.poker_room.tournament_setup import PLAYERS, T0, director, fresh  # noqa: F401  (fixtures)

# MSOP Heads Up started with its players (and its bracket drawn): the fixture of test_heads_up.py.
heads_up_event = test_heads_up.heads_up_event
_names = test_heads_up._names

pytestmark = pytest.mark.django_db


def _play_out(tournament: Tournament, actor: User, pick: Callable[[Match], int] | None = None) -> None:
    while (
        match := Match.objects.filter(tournament=tournament, status="ready", table_number__isnull=False)
        .order_by("stage", "round", "number")
        .first()
    ) is not None:
        winner = pick(match) if pick else match.entry_a_id
        heads_up.match_decide(actor=actor, tournament=tournament, match=match, winner=winner, rng=random.Random(5))


@pytest.mark.parametrize("mode", ["knockout", "groups"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7, 9])
def test_every_field_plays_to_the_end_with_every_place_paid_once(
    heads_up_event: Callable[..., Tournament],
    director: User,  # noqa: F811
    players: int,
    mode: str,
) -> None:
    tournament = heads_up_event(players, heads_up_mode=mode)
    _play_out(tournament, director)
    tournament = fresh(tournament)
    assert tournament.status == Tournament.Status.FINISHED
    paid = {e.place: e.prize_cents for e in Elimination.objects.filter(tournament=tournament, status="in_force")}
    assert sorted(paid) == list(range(1, players + 1))
    assert sum(paid.values()) == players * 9_000
    assert not Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).exists()
    for first, last in tournament.prize_tiers:
        shares = {paid[place] for place in range(first, last + 1)}
        assert len(shares) == 1, (first, last, paid)  # the places of one tier are paid the same


def _page_form(client: Client, url: str, action: str) -> dict[str, str]:
    """The hidden fields of the form posting to ``action`` on the page at ``url``."""
    html = client.get(url).content.decode()
    start = html.index(f'action="{action}"')
    form = html[start : html.index("</form>", start)]
    return dict(re.findall(r'name="(\w+)" value="([^"]*)"', form))


def _writes(tournament: Tournament) -> tuple[int, ...]:
    return (
        AuditEvent.objects.count(),
        Elimination.objects.filter(tournament=tournament).count(),
        sum(Match.objects.filter(tournament=tournament).values_list("hands", flat=True)),
        Match.objects.filter(tournament=tournament, status="decided").count(),
    )


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
    on_tablet = _page_form(tablet, f"{url}?won={match.entry_a_id}", f"{url}decide/")
    on_console = _page_form(console, f"{url}?won={match.entry_b_id}", f"{url}decide/")
    assert on_tablet["winner"] == str(match.entry_a_id) and on_tablet["confirm"] == "yes"
    assert tablet.post(f"{url}decide/", on_tablet).status_code == 302
    before = _writes(tournament)
    assert tablet.post(f"{url}decide/", on_tablet).status_code == 302  # the double tap: recorded once
    response = console.post(f"{url}decide/", on_console)  # the director's screen, drawn before: refused
    assert response.status_code == 409 and "is decided" in response.content.decode()
    assert _writes(tournament) == before
    assert Elimination.objects.get(tournament=tournament, entry=match.entry_b).status == "in_force"


def test_a_match_whose_players_are_not_known_is_neither_counted_nor_decided(
    heads_up_event: Callable[..., Tournament],
    director: User,  # noqa: F811
) -> None:
    tournament = heads_up_event(5, heads_up_mode="knockout")
    waiting = Match.objects.get(tournament=tournament, round=2, number=1)  # seed 1 against the winner of 4 v 5
    final = Match.objects.get(tournament=tournament, round=3)
    before = _writes(tournament)
    api = APIClient()
    api.force_authenticate(director)
    base = f"/api/tournaments/{tournament.pk}/matches/"
    for match in (waiting, final):
        for path, body in (("hand/", {}), ("decide/", {"winner": 1}), ("undo/", {"reason": "x"})):
            response = api.post(f"{base}{match.pk}/{path}", body, format="json")
            assert response.status_code == 409, (path, response.content)
    client = Client()
    client.force_login(director)
    response = client.post(
        f"/poker-room/{tournament.pk}/matches/{waiting.pk}/decide/", {"winner": "1", "confirm": "yes"}
    )
    assert response.status_code == 409 and "waits for its players" in response.content.decode()
    assert client.get(f"/poker-room/{tournament.pk}/matches/{final.pk}/").status_code == 200
    assert _writes(tournament) == before


def test_a_match_whose_tables_dealer_changed_is_recorded_by_the_new_dealer_only(
    heads_up_event: Callable[..., Tournament],
    director: User,  # noqa: F811
    make_user: Callable[..., User],
) -> None:
    tournament = heads_up_event(4, heads_up_mode="knockout")
    dana, otto = make_user("dana_dealer", Role.DEALER), make_user("otto_dealer", Role.DEALER)
    services.tournament_table_dealer_set(actor=director, tournament=tournament, table_number=1, dealer=dana)
    match = Match.objects.get(tournament=tournament, table_number=1)
    heads_up.match_hand(actor=dana, tournament=tournament, match=match)
    services.tournament_table_dealer_set(actor=director, tournament=tournament, table_number=1, dealer=otto)
    with pytest.raises(NotAllowed):
        heads_up.match_decide(actor=dana, tournament=tournament, match=match, winner=match.entry_a_id)
    client = Client()
    client.force_login(dana)
    url = f"/poker-room/{tournament.pk}/matches/{match.pk}/"
    assert client.post(f"{url}hand/", {}).status_code == 403
    assert client.get(url).status_code == 403
    heads_up.match_decide(actor=otto, tournament=tournament, match=match, winner=match.entry_a_id)
    assert Match.objects.get(pk=match.pk).decided_by == otto


def test_undo_chains_in_a_knock_out(
    heads_up_event: Callable[..., Tournament],
    director: User,  # noqa: F811
) -> None:
    tournament = heads_up_event(6, heads_up_mode="knockout")
    first, second = Match.objects.filter(tournament=tournament, round=1).order_by("number")
    heads_up.match_decide(actor=director, tournament=tournament, match=first, winner=first.entry_a_id)
    heads_up.match_decide(actor=director, tournament=tournament, match=second, winner=second.entry_a_id)
    semi = Match.objects.get(pk=first.next_match_id)
    assert semi.table_number is not None and semi.status == "ready"
    # The first match is undone only after the later bust: the latest is undone first.
    with pytest.raises(WrongState):
        heads_up.match_undo(actor=director, tournament=tournament, match=first, reason="wrong name")
    heads_up.match_undo(actor=director, tournament=tournament, match=second, reason="wrong name")
    second.refresh_from_db()
    assert (second.status, second.winner_id) == ("ready", None) and second.table_number is not None
    loser = Entry.objects.get(pk=second.entry_b_id)
    assert (loser.status, loser.place) == ("active", None)
    assert (loser.table_number, loser.seat_number) == (second.table_number, 2)  # back in the match's seat
    other_semi = Match.objects.get(pk=second.next_match_id)
    assert other_semi.status == "waiting" and other_semi.table_number is None
    # Decided again the other way, its winner plays a hand of the semi-final: now the result stands.
    heads_up.match_decide(actor=director, tournament=tournament, match=second, winner=second.entry_b_id)
    other_semi.refresh_from_db()
    heads_up.match_hand(actor=director, tournament=tournament, match=other_semi)
    with pytest.raises(WrongState, match="has played on"):
        heads_up.match_undo(actor=director, tournament=tournament, match=second, reason="wrong name")
    _play_out(tournament, director)
    final = Match.objects.get(tournament=tournament, round=3)
    heads_up.match_undo(actor=director, tournament=tournament, match=final, reason="wrong name")
    assert fresh(tournament).status == Tournament.Status.RUNNING
    heads_up.match_decide(actor=director, tournament=tournament, match=final, winner=final.entry_b_id)
    assert fresh(tournament).status == Tournament.Status.FINISHED
    assert Entry.objects.get(tournament=tournament, place=1).pk == final.entry_b_id
    report = ledger_verify()
    assert report.ok, report.problems


def test_a_group_of_three_all_one_and_one_goes_by_seed_and_stands_once_complete(
    heads_up_event: Callable[..., Tournament],
    director: User,  # noqa: F811
) -> None:
    tournament = heads_up_event(3, heads_up_mode="groups")
    matches = {
        frozenset((m.entry_a.number, m.entry_b.number)): m
        for m in Match.objects.filter(tournament=tournament).select_related("entry_a", "entry_b")
    }
    assert set(matches) == {frozenset((1, 2)), frozenset((1, 3)), frozenset((2, 3))}
    numbers = dict(Entry.objects.filter(tournament=tournament).values_list("number", "pk"))
    # A cycle: 1 beats 2, 2 beats 3, 3 beats 1: all 1-1, head to head too; the better seed wins the group.
    beats = {frozenset((1, 2)): 1, frozenset((2, 3)): 2, frozenset((1, 3)): 3}
    while (
        match := Match.objects.filter(tournament=tournament, status="ready", table_number__isnull=False)
        .select_related("entry_a", "entry_b")
        .first()
    ) is not None:
        winner = beats[frozenset((match.entry_a.number, match.entry_b.number))]
        heads_up.match_decide(actor=director, tournament=tournament, match=match, winner=numbers[winner])
    assert Match.objects.filter(tournament=tournament, status="decided").count() == 3
    places = dict(Entry.objects.filter(tournament=tournament).values_list("number", "place"))
    assert places[1] == 1 and sorted(places.values()) == [1, 2, 3]
    assert fresh(tournament).status == Tournament.Status.FINISHED
    with pytest.raises(WrongState):
        heads_up.match_undo(actor=director, tournament=tournament, match=matches[frozenset((1, 3))], reason="x")


def test_a_group_result_stands_once_the_knock_out_is_drawn(
    heads_up_event: Callable[..., Tournament],
    director: User,  # noqa: F811
) -> None:
    tournament = heads_up_event(6, heads_up_mode="groups", group_size=3)
    _play_out_groups = Match.objects.filter(tournament=tournament, stage="group")
    while (match := _play_out_groups.filter(status="ready", table_number__isnull=False).first()) is not None:
        heads_up.match_decide(actor=director, tournament=tournament, match=match, winner=match.entry_a_id)
    assert Match.objects.filter(tournament=tournament, stage="knockout").exists()
    before = _writes(tournament)
    last = Match.objects.filter(tournament=tournament, stage="group").order_by("-decided_at", "-pk").first()
    api = APIClient()
    api.force_authenticate(director)
    response = api.post(f"/api/tournaments/{tournament.pk}/matches/{last.pk}/undo/", {"reason": "x"}, format="json")
    assert response.status_code == 409 and "is complete" in response.json()["message"]
    assert _writes(tournament) == before


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("decide/", {}),
        ("decide/", {"winner": "one"}),
        ("decide/", {"winner": 0}),
        ("decide/", {"winner": -3}),
        ("decide/", {"winner": 10**30}),
        ("decide/", {"winner": True}),
        ("decide/", {"winner": [1]}),
        ("decide/", {"winner": 99}),
        ("decide/", {"winner": 3}),  # in the tournament, not in this match
        ("hand/", {"take_back": "maybe"}),
        ("hand/", {"take_back": [True]}),
        ("undo/", {}),
        ("undo/", {"reason": 5}),
        ("undo/", {"reason": "x" * 501}),
    ],
)
def test_malformed_match_input_is_a_400_or_409_and_writes_nothing(
    heads_up_event: Callable[..., Tournament],
    director: User,  # noqa: F811
    path: str,
    body: dict[str, object],
) -> None:
    tournament = heads_up_event(4, heads_up_mode="knockout")
    match = Match.objects.get(tournament=tournament, round=1, number=1)
    before = _writes(tournament)
    api = APIClient(raise_request_exception=False)
    api.force_authenticate(director)
    response = api.post(f"/api/tournaments/{tournament.pk}/matches/{match.pk}/{path}", body, format="json")
    assert response.status_code in (400, 409), response.content
    assert set(response.json()) == {"message", "extra"}
    assert _writes(tournament) == before


def test_addresses_of_another_tournament_and_malformed_pages_are_refused_cleanly(
    heads_up_event: Callable[..., Tournament],
    director: User,  # noqa: F811
    make_user: Callable[..., User],
) -> None:
    tournament = heads_up_event(4, heads_up_mode="knockout")
    other = heads_up_event(2, heads_up_mode="knockout")
    theirs = Match.objects.get(tournament=other)
    match = Match.objects.get(tournament=tournament, round=1, number=1)
    before = _writes(tournament), _writes(other)
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
    assert (_writes(tournament), _writes(other)) == before


def test_one_group_pays_its_standing_place_by_place_not_shared(
    heads_up_event: Callable[..., Tournament],
    director: User,  # noqa: F811
) -> None:
    tournament = heads_up_event(4, heads_up_mode="groups", group_size=4)
    assert tournament.prize_tiers == []  # a round robin of the whole field ranks everyone
    _play_out(tournament, director)
    paid = {e.place: e.prize_cents for e in Elimination.objects.filter(tournament=tournament, status="in_force")}
    table = fresh(tournament)
    assert sum(paid.values()) == 4 * 9_000
    # 36.00 paid 50/30/20 to the first three: 2nd is paid as 2nd, not shared with 3rd and 4th.
    assert paid == {1: 18_000, 2: 10_800, 3: 7_200, 4: 0}, paid
    assert table.status == Tournament.Status.FINISHED


def test_a_chip_template_switched_to_heads_up_draws_no_bracket_on_levels_of_minutes(
    director: User,  # noqa: F811
) -> None:
    tournament = services.tournament_create(
        actor=director, template_key="msop_turbo", buy_in_cents=5_000, fee_cents=500, tables=2
    )
    services.tournament_settings_set(actor=director, tournament=tournament, format="heads_up", heads_up_mode="knockout")
    for name in _names(4):
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
    form = _page_form(client, url, f"{url}undo/")  # the finished event's final still offers the undo
    response = client.post(f"{url}undo/", {**form, "reason": "The dealer tapped the wrong name"})
    assert response.status_code == 302
    assert fresh(tournament).status == Tournament.Status.RUNNING
    assert Match.objects.get(pk=final.pk).status == "ready"
    heads_up.match_decide(actor=director, tournament=tournament, match=final, winner=final.entry_b_id)
    assert Entry.objects.get(tournament=tournament, place=1).pk == final.entry_b_id


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
