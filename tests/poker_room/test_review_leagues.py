"""A second look at leagues and the Master Class (issue 19 review): the stacks' rounding said as a sentence reads it,
the PDF with the names players really have (long, Cyrillic, Chinese, looking like markup) and with a long season,
the house's formula attacked, a formula that fails for one real field saying where, a Master Class whose stacks
would not fit a stack, the Master Class asked for twice, and the pages and API given what is not theirs.

Tina directs; Alex audits (reads only); Dana deals.
"""

from __future__ import annotations

import io
import re
import time
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User
from pypdf import PdfReader
from rest_framework.test import APIClient

from casino.errors import WrongState
from casino.roles import Role
from players.models import Player
from poker_room.leagues import services as leagues
from poker_room.leagues.models import League, LeagueEvent
from poker_room.leagues.pdf import PAGE_WIDTH, event_chunks, standings_pdf
from poker_room.leagues.selectors import Cell, EventLine, StandingLine, Standings, league_standings
from poker_room.pure.league_points import LeagueError, Result, evaluate, expression_check, points
from poker_room.tournaments import services
from poker_room.tournaments.models import Elimination, Entry, Tournament
from tests.poker_room.test_leagues import play
from tests.poker_room.tournament_setup import everything

pytestmark = pytest.mark.django_db


# --- the house's formula attacked (pure) ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expression", "said"),
    [
        ("9**9**9", "An exponent is at most 10"),
        ("10**10**10", "An exponent is at most 10"),
        ("-" * 250 + "1", "too long"),
        ("players.real", "Only numbers, the variables"),
        ("lambda: 1", "Only numbers, the variables"),
        ("[p for p in (1, 2)]", "Only numbers, the variables"),
        ("__import__('os').system('true')", "Only the functions"),
        ("__import__('os')", "Only the functions"),
        ("'10'", "Only numbers are allowed"),
        ("True", "Only numbers are allowed"),
        ("players > place", "Only numbers, the variables"),
        ("float('inf')", "Only the functions"),
        ("1e999", "too large"),
        ("pläyers", "Unknown name 'pläyers'"),
        ("players if place else 1", "Only numbers, the variables"),
        ("place - 2", "points are never negative"),
        ("0 ** -1", "divides by zero"),
        ("players / (place - place)", "divides by zero"),
        ("1 % 0", "divides by zero"),
        ("(-8) ** 0.5", "no fractional power"),
        ("max(1e12, 1e12) * 1e12", "too large"),
        ("x := 1", "cannot be read"),
        ("\x00", "cannot be read"),
        ("9" * 301, "at most 300 characters"),
        ("", "Write the formula"),
    ],
)
def test_the_house_s_formula_refuses_what_is_not_arithmetic_quickly_and_in_words(expression, said) -> None:
    started = time.monotonic()
    with pytest.raises(LeagueError, match=said.replace("(", r"\(").replace("*", r"\*")):
        expression_check(expression)
    assert time.monotonic() - started < 1


def test_a_power_of_zero_below_zero_is_a_division_by_zero_not_a_value_too_large() -> None:
    with pytest.raises(LeagueError, match="The formula divides by zero"):
        evaluate("(place - 1) ** -2", {"players": 9, "place": 1, "buy_in": 0, "prize_pool": 0, "prize": 0})


# --- the rounding as the page and the PDF say it ----------------------------------------------------------------------


ROUNDED = {
    "down": "rounded down to a multiple of 25",
    "nearest": "rounded to the nearest multiple of 25",
    "up": "rounded up to a multiple of 25",
}


def pdf_text(body: bytes) -> str:
    return " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(body)).pages)


@pytest.mark.parametrize("rounding", ["down", "nearest", "up"])
def test_the_page_and_the_pdf_say_how_the_stacks_are_rounded(client, director, make_tournament, rounding) -> None:
    league = leagues.league_create(
        actor=director, name="Mainz League", season="2026", chips_per_point=100, chip_rounding=rounding
    )
    event = play(director, make_tournament, ["Anna", "Ben", "Cem"])
    leagues.league_event_add(actor=director, league=league, tournament_id=event.pk)
    client.force_login(director)
    page = " ".join(client.get(f"/poker-room/leagues/{league.pk}/").content.decode().split())
    assert f"each with a stack of 100 chips a point, {ROUNDED[rounding]}." in page
    assert "to the 25 chip" not in page
    text = pdf_text(client.get(f"/poker-room/leagues/{league.pk}/standings.pdf").content)
    assert f"Master Class: the top 10, 100 chips a point, {ROUNDED[rounding]}." in text
    assert "to the 25 chip" not in text and "chip to the" not in text


# --- the PDF with real names and a long season ------------------------------------------------------------------------

NAMES = ["Maximilian " + "Alexander-" * 10 + "Ende", "Анна Шмидт", "李小龍", "<b>Bold</b> & <i>Co</i>", "Zoë Ørsted"]


def _season(events: int) -> Standings:
    league = League(name="Mainz <League>", season="2026", chips_per_point=100, chip_rounding="nearest")
    lines = tuple(
        StandingLine(
            rank=rank,
            key=f"n:{rank}",
            name=name,
            player_id=None,
            total=Decimal("123.45"),
            cells=tuple(Cell(rank, Decimal("44.72"), "counted" if event % 3 else "dropped") for event in range(events)),
            wins=0,
            cashes=0,
            events=events,
            best_finish=rank,
            invited=rank <= 3,
            chips=12_350,
        )
        for rank, name in enumerate(NAMES, start=1)
    )
    return Standings(
        league,
        tuple(
            EventLine(n, Tournament(name=f"Friday Night {n}"), True, 20, 9_000, 180_000) for n in range(1, events + 1)
        ),
        lines,
        "",
        25,
    )


def _placed_text(body: bytes) -> list[tuple[float, str]]:
    """Each piece of text of the PDF with where it starts across the page."""
    found: list[tuple[float, str]] = []
    for page in PdfReader(io.BytesIO(body)).pages:

        def seen(text: str, cm: Any, tm: Any, *_: Any) -> None:
            if text.strip():
                found.append((tm[4] * cm[0] + cm[4], text.strip()))

        page.extract_text(visitor_text=seen)
    return found


@pytest.mark.parametrize("events", [3, 12, 30])
def test_the_pdf_prints_every_name_as_typed_and_nothing_runs_off_the_page(events) -> None:
    found = _season(events)
    body = standings_pdf(found.league, found)
    text = pdf_text(body)
    for name in ("Анна Шмидт", "李小龍", "<b>Bold</b> & <i>Co</i>", "Zoë Ørsted", "Mainz <League>"):
        assert name in text, name
    assert "Alexander-Alexander-" in text
    placed = _placed_text(body)
    right = PAGE_WIDTH + 15 * 72 / 25.4  # the right margin's edge
    assert all(x < right for x, _text in placed), [item for item in placed if item[0] >= right][:3]
    heads = [item for _x, item in placed]
    assert "Points" in heads and "Stack" in heads and f"#{events}" in heads and "12,350" in heads


def test_a_long_season_is_printed_in_even_tables_of_its_events() -> None:
    assert [len(chunk) for chunk in event_chunks(3)] == [3]
    assert [len(chunk) for chunk in event_chunks(12)] == [12]
    assert [len(chunk) for chunk in event_chunks(13)] == [7, 6]  # not 12 and 1
    assert [len(chunk) for chunk in event_chunks(30)] == [10, 10, 10]
    assert sum(event_chunks(52), []) == list(range(52)) and event_chunks(0) == [[]]


def test_an_empty_league_has_a_pdf_that_says_so(client, director) -> None:
    league = leagues.league_create(actor=director, name="Empty", season="2026")
    client.force_login(director)
    response = client.get(f"/poker-room/leagues/{league.pk}/standings.pdf")
    assert response.status_code == 200 and "No finished event yet." in pdf_text(response.content)


# --- a formula that one real field breaks says where ------------------------------------------------------------------


def test_a_formula_that_fails_for_one_event_names_it_on_the_page_the_pdf_and_the_api(
    client, director, make_tournament
) -> None:
    league = leagues.league_create(
        actor=director, name="L", season="2026", formula="expression", expression="10 * log10(buy_in)"
    )
    paid = play(director, make_tournament, ["Anna", "Ben", "Cem"])
    freeroll = play(director, make_tournament, ["Ben", "Cem", "Anna"], buy_in_cents=0)
    for event in (paid, freeroll):
        leagues.league_event_add(actor=director, league=league, tournament_id=event.pk)
    said = f"{freeroll.name}, 1st of 3: A logarithm of 0 is not defined"
    assert league_standings(league).error == said
    client.force_login(director)
    page = client.get(f"/poker-room/leagues/{league.pk}/")
    assert page.status_code == 200 and said in page.content.decode()
    assert said in pdf_text(client.get(f"/poker-room/leagues/{league.pk}/standings.pdf").content)
    api = APIClient()
    api.force_authenticate(director)
    assert api.get(f"/api/leagues/{league.pk}/standings/").json()["error"] == said


# --- the Master Class -------------------------------------------------------------------------------------------------


def test_a_stack_beyond_a_billion_chips_is_refused_in_the_league_s_words(director, make_tournament) -> None:
    league = leagues.league_create(
        actor=director,
        name="High Roller League",
        season="2026",
        formula="table",
        points_table=[1_000_000, 500_000],
        chips_per_point=100_000,
    )
    event = play(director, make_tournament, ["Anna", "Ben", "Cem"])
    leagues.league_event_add(actor=director, league=league, tournament_id=event.pk)
    tournaments = Tournament.objects.count()
    with pytest.raises(Exception, match=r"Anna's 1000000(\.00)? points at 100000 chips a point make a stack of more"):
        leagues.master_class_invite(actor=director, league=league)
    assert Tournament.objects.count() == tournaments and League.objects.get(pk=league.pk).master_class is None


def test_the_master_class_asked_for_from_two_tabs_is_invited_once(client, director, make_tournament) -> None:
    league = leagues.league_create(actor=director, name="Mainz League", season="2026")
    event = play(director, make_tournament, ["Anna", "Ben", "Cem"])
    leagues.league_event_add(actor=director, league=league, tournament_id=event.pk)
    client.force_login(director)
    address = f"/poker-room/leagues/{league.pk}/master-class/"
    first = client.post(address, {"form_key": "0123456789abcdef0123456789abcdef"})
    assert first.status_code == 302
    tournaments = Tournament.objects.count()
    second = client.post(address, {"form_key": "fedcba9876543210fedcba9876543210"})
    assert second.status_code == 409 and "has invited its Master Class already" in second.content.decode()
    assert Tournament.objects.count() == tournaments
    master = League.objects.get(pk=league.pk).master_class
    assert Entry.objects.filter(tournament=master).count() == 3


def test_an_event_taken_out_does_not_count_and_cannot_be_taken_out_after_the_master_class(
    director, make_tournament
) -> None:
    league = leagues.league_create(actor=director, name="Mainz League", season="2026")
    kept = play(director, make_tournament, ["Anna", "Ben", "Cem"])
    dropped = play(director, make_tournament, ["Dora", "Emil", "Fritz"])
    for event in (kept, dropped):
        leagues.league_event_add(actor=director, league=league, tournament_id=event.pk)
    leagues.league_event_remove(actor=director, league=league, tournament_id=dropped.pk)
    master = leagues.master_class_invite(actor=director, league=league)
    assert sorted(Entry.objects.filter(tournament=master).values_list("name", flat=True)) == ["Anna", "Ben", "Cem"]
    with pytest.raises(Exception, match="season of Mainz League is over"):
        leagues.league_event_remove(actor=director, league=league, tournament_id=kept.pk)
    assert LeagueEvent.objects.filter(league=league, removed_at__isnull=True).count() == 1


def test_a_tournament_counts_in_two_leagues(director, make_tournament) -> None:
    one = leagues.league_create(actor=director, name="Mainz League", season="2026")
    two = leagues.league_create(actor=director, name="Ladies League", season="2026", formula="table", points_table=[3])
    event = play(director, make_tournament, ["Anna", "Ben"])
    for league in (one, two):
        leagues.league_event_add(actor=director, league=league, tournament_id=event.pk)
    assert league_standings(one).lines[0].total == points(Result(2, 1), formula="sqrt_place")
    assert league_standings(two).lines[0].total == Decimal(3)


# --- the pages and the API given what is not theirs -------------------------------------------------------------------


def _api(user: User | None) -> APIClient:
    client = APIClient(raise_request_exception=False)
    if user is not None:
        client.force_authenticate(user)
    return client


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"tournament": 2**62}, 400),
        ({"tournament": 2**63 + 5}, 400),
        ({"tournament": "7"}, 400),
        ({"tournament": None}, 400),
        ({"tournament": [1]}, 400),
        ({}, 400),
        ({"tournament": 1, "remove": "perhaps"}, 400),
        ({"tournament": 1, "league": 2}, 400),
    ],
)
def test_the_events_api_refuses_what_is_no_tournament_and_writes_nothing(director, body, status) -> None:
    league = leagues.league_create(actor=director, name="Mainz League", season="2026")
    response = _api(director).post(f"/api/leagues/{league.pk}/events/", body, format="json")
    assert response.status_code == status, response.content[:300]
    assert set(response.json()) == {"message", "extra"}
    assert not LeagueEvent.objects.exists()


def test_another_league_s_event_and_a_league_that_is_not_there(director, make_tournament) -> None:
    one = leagues.league_create(actor=director, name="Mainz League", season="2026")
    two = leagues.league_create(actor=director, name="Ladies League", season="2026")
    event = play(director, make_tournament, ["Anna", "Ben"])
    leagues.league_event_add(actor=director, league=one, tournament_id=event.pk)
    api = _api(director)
    taken = api.post(f"/api/leagues/{two.pk}/events/", {"tournament": event.pk, "remove": True}, format="json")
    assert taken.status_code == 409 and "is not in Ladies League" in taken.json()["message"]
    assert LeagueEvent.objects.get().removed_at is None
    for path in ("", "standings/", "events/", "master-class/"):
        method = api.get if path in ("", "standings/") else api.post
        assert method(f"/api/leagues/999999/{path}", {}, format="json").status_code == 404
    client_404 = APIClient()
    client_404.force_authenticate(director)
    assert client_404.patch("/api/leagues/999999/", {"name": "x"}, format="json").status_code == 404


@pytest.mark.parametrize(
    "body",
    [
        {"chips_per_point": 10**30},
        {"best_of": -1},
        {"master_class_size": "ten"},
        {"points_table": ["1e999"]},
        {"points_table": "25, 18"},
        {"tie_breaks": "wins"},
        {"expression": "open('/etc/passwd')", "formula": "expression"},
        {"name": None},
        {"name": "x" * 10_000},
        {"chip_rounding": "sideways"},
    ],
)
def test_a_league_s_settings_refuse_malformed_values_and_write_nothing(director, body) -> None:
    league = leagues.league_create(actor=director, name="Mainz League", season="2026")
    before = League.objects.filter(pk=league.pk).values().get()
    response = _api(director).patch(f"/api/leagues/{league.pk}/", body, format="json")
    assert response.status_code == 400, response.content[:300]
    assert League.objects.filter(pk=league.pk).values().get() == before


@pytest.mark.parametrize(
    "posted",
    [
        {"tournament": "abc"},
        {"tournament": "99999999999"},
        {"tournament": "-3"},
        {"tournament": ""},
    ],
)
def test_the_event_form_refuses_what_is_no_tournament(client, director, posted) -> None:
    league = leagues.league_create(actor=director, name="Mainz League", season="2026")
    client.force_login(director)
    response = client.post(f"/poker-room/leagues/{league.pk}/events/", {"form_key": "", **posted})
    assert response.status_code == 400 and not LeagueEvent.objects.exists()


def test_the_pages_refuse_a_dealer_and_an_auditor_writes_nothing(client, make_user, director, make_tournament) -> None:
    league = leagues.league_create(actor=director, name="Mainz League", season="2026")
    event = play(director, make_tournament, ["Anna", "Ben"])
    leagues.league_event_add(actor=director, league=league, tournament_id=event.pk)
    before = {**everything(event), "leagues": list(League.objects.values())}
    auditor, dealer = make_user("alex", Role.AUDITOR), make_user("dana", Role.DEALER)
    writes = [
        ("settings/", {"name": "Hacked", "season": "2026", "formula": "sqrt_place", "chip_rounding": "nearest"}),
        ("events/", {"tournament": str(event.pk)}),
        (f"events/{event.pk}/remove/", {}),
        ("master-class/", {}),
    ]
    for who in (auditor, dealer):
        client.force_login(who)
        for path, form in writes:
            response = client.post(f"/poker-room/leagues/{league.pk}/{path}", {"form_key": "", **form})
            assert response.status_code == 403, (who, path)
    client.logout()
    assert client.get(f"/poker-room/leagues/{league.pk}/standings.pdf").status_code == 302  # to the sign-in
    assert _api(None).get(f"/api/leagues/{league.pk}/standings/").status_code in (401, 403)
    assert {**everything(event), "leagues": list(League.objects.values())} == before


def test_after_the_master_class_the_standings_show_who_was_invited_and_with_what(director, make_tournament) -> None:
    league = leagues.league_create(
        actor=director, name="Mainz League", season="2026", master_class_size=2, chips_per_point=100
    )
    one = play(director, make_tournament, ["Anna", "Ben", "Cem", "Dora"])
    two = play(director, make_tournament, ["Ben", "Anna", "Dora", "Cem"])
    for event in (one, two):
        leagues.league_event_add(actor=director, league=league, tournament_id=event.pk)
    master = leagues.master_class_invite(actor=director, league=league)
    given = {entry.name: entry.chips for entry in Entry.objects.filter(tournament=master)}
    assert set(given) == {"Anna", "Ben"}
    # A mistaken bust in the second event found after the invitation: the results the Master Class was invited on
    # stand (eliminations.bust_undo refuses it). Who was invited, and with what stack, stays as it was done.
    runner_up = Elimination.objects.get(tournament=two, place=2, status="in_force")
    with pytest.raises(WrongState, match="whose Master Class is invited"):
        services.elimination_undo(actor=director, tournament=two, elimination=runner_up, reason="Wrong player")
    found = league_standings(League.objects.get(pk=league.pk))
    assert [event.finished for event in found.events] == [True, True]
    assert {line.name: line.chips for line in found.lines if line.invited} == given
    assert all(line.chips is None for line in found.lines if not line.invited)


def test_the_league_is_renamed_from_its_page_after_the_master_class(client, director, make_tournament) -> None:
    league = leagues.league_create(actor=director, name="Mainz League", season="2026")  # the house's tie-breaks
    event = play(director, make_tournament, ["Anna", "Ben", "Cem"])
    leagues.league_event_add(actor=director, league=league, tournament_id=event.pk)
    leagues.master_class_invite(actor=director, league=league)
    client.force_login(director)
    page = client.get(f"/poker-room/leagues/{league.pk}/").content.decode()
    form = page[page.index(f'action="/poker-room/leagues/{league.pk}/settings/"') :]
    form = form[: form.index("</form>")]
    # The form as the page drew it: each field's value, each select's chosen option, the formula ticked.
    posted = dict(re.findall(r'<input type="(?:text|number|hidden)" [^>]*?name="([a-z_0-9]+)" value="([^"]*)"', form))
    for name, options in re.findall(r'<select [^>]*name="([a-z_0-9]+)">(.*?)</select>', form, flags=re.S):
        chosen = re.search(r'<option value="([^"]*)" selected>', options)
        posted[name] = chosen[1] if chosen else ""
    posted["formula"] = re.search(r'name="formula" value="([a-z_]+)" checked', form)[1]
    posted["name"] = "Mainz League (closed)"
    posted.pop("csrfmiddlewaretoken", None)
    saved = client.post(f"/poker-room/leagues/{league.pk}/settings/", {**posted, "form_key": ""})
    assert saved.status_code == 302, saved.content.decode()[:2000]
    assert League.objects.get(pk=league.pk).name == "Mainz League (closed)"


def test_a_card_holder_and_a_walk_in_of_the_same_name_are_two_players_and_both_invited(
    director, make_tournament
) -> None:
    anna = Player.objects.create(name="Anna", tier="gold", created_by=director)
    league = leagues.league_create(actor=director, name="Mainz League", season="2026", master_class_size=4)
    one = play(director, make_tournament, ["Anna", "Ben", "Cem"], players={"Anna": anna})
    two = play(director, make_tournament, ["Anna", "Ben", "Cem"])  # "Anna" typed: no card
    for event in (one, two):
        leagues.league_event_add(actor=director, league=league, tournament_id=event.pk)
    found = league_standings(league)
    annas = [line for line in found.lines if line.name == "Anna"]
    assert sorted((line.player_id is None, line.events) for line in annas) == [(False, 1), (True, 1)]
    master = leagues.master_class_invite(actor=director, league=league)
    assert sorted(
        (entry.name, entry.player_id is None) for entry in Entry.objects.filter(tournament=master, name="Anna")
    ) == [("Anna", False), ("Anna", True)]
