"""The league pages: a league made and its settings changed, a refused form keeping what was typed, the standings
and the Master Class for each role, a formula that fails for one event named on the page, the PDF and the API, the
Master Class asked for from two tabs, and pages given what is not theirs."""

from __future__ import annotations

import re

import pytest
from rest_framework.test import APIClient

from casino.roles import Role
from poker_room.leagues import services as leagues
from poker_room.leagues.models import League, LeagueEvent
from poker_room.leagues.selectors import league_standings
from poker_room.tournaments.models import Entry, Tournament
from tests.api.clients import api_client as _api
from tests.poker_room.leagues.play import pdf_text, play
from tests.poker_room.tournament_setup import everything

pytestmark = pytest.mark.django_db


def _form(**fields: str) -> dict[str, str]:
    return {
        "form_key": "",
        "name": "Mainz League",
        "season": "2026",
        "formula": "sqrt_place",
        "best_of": "0",
        "master_class_size": "10",
        "chips_per_point": "1",
        "chip_rounding": "nearest",
        "tie_break_0": "wins",
        **fields,
    }


def test_a_league_is_made_and_its_settings_changed_on_the_pages(client, director):
    client.force_login(director)
    assert client.get("/poker-room/leagues/").status_code == 200
    made = client.post("/poker-room/leagues/new/", _form(formula="table", points_table="25, 18 13"))
    league = League.objects.get()
    assert made.status_code == 302 and made["Location"] == f"/poker-room/leagues/{league.pk}/"
    assert league.points_table == [25, 18, 13] and league.tie_breaks == ["wins"]
    saved = client.post(
        f"/poker-room/leagues/{league.pk}/settings/",
        _form(formula="expression", expression="100 / place", tie_break_0="cashes", tie_break_1="wins", best_of="3"),
    )
    assert saved.status_code == 302
    league.refresh_from_db()
    assert (league.formula, league.expression, league.tie_breaks, league.best_of) == (
        "expression",
        "100 / place",
        ["cashes", "wins"],
        3,
    )
    page = client.get(f"/poker-room/leagues/{league.pk}/")
    assert page.status_code == 200 and b"100 / place" in page.content


def test_a_refused_form_keeps_what_was_typed_and_writes_nothing(client, director):
    client.force_login(director)
    refused = client.post("/poker-room/leagues/new/", _form(formula="expression", expression="open('/etc/passwd')"))
    assert refused.status_code == 400
    assert b"Only the functions" in refused.content and b"open(&#x27;/etc/passwd&#x27;)" in refused.content
    assert League.objects.count() == 0


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


def test_the_standings_pdf_and_the_pages_for_each_role(client, make_user, director, make_tournament, league):
    event = play(director, make_tournament, ["Anna", "Ben", "Cem"])
    leagues.league_event_add(actor=director, league=league, tournament_id=event.pk)
    auditor = make_user("alex", Role.AUDITOR)
    client.force_login(auditor)
    page = client.get(f"/poker-room/leagues/{league.pk}/")
    assert page.status_code == 200 and b"Read only" in page.content and b"league-form" not in page.content
    assert b'data-player="Anna"' in page.content
    pdf = client.get(f"/poker-room/leagues/{league.pk}/standings.pdf")
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf" and pdf.content.startswith(b"%PDF")
    assert client.post("/poker-room/leagues/new/", _form()).status_code == 403
    client.force_login(make_user("dana", Role.DEALER))
    assert client.get(f"/poker-room/leagues/{league.pk}/").status_code == 403
    assert client.get(f"/poker-room/leagues/{league.pk}/standings.pdf").status_code == 403


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


def test_the_master_class_is_invited_from_the_page(client, director, make_tournament, league):
    event = play(director, make_tournament, ["Anna", "Ben", "Cem"])
    leagues.league_event_add(actor=director, league=league, tournament_id=event.pk)
    client.force_login(director)
    answer = client.post(f"/poker-room/leagues/{league.pk}/master-class/", {"form_key": "", "buy_in": "abc"})
    assert answer.status_code == 400 and League.objects.get(pk=league.pk).master_class is None
    answer = client.post(f"/poker-room/leagues/{league.pk}/master-class/", {"form_key": "", "buy_in": ""})
    master = League.objects.get(pk=league.pk).master_class
    assert answer.status_code == 302 and answer["Location"] == f"/poker-room/{master.pk}/"
    assert Entry.objects.filter(tournament=master).count() == 3


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
