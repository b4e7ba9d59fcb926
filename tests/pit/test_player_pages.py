"""The pit's pages on players: the list with its search and enrolment, a player's page with the totals
over every session and each session's figures, the anonymisation a player asks for; who may see and do what; double
taps, Back, refusals that write nothing; a fixed number of queries however many sessions a player has.

Mr Lee (card 1001, Gold: 30% reinvestment) has played two sessions, hand-counted:

* Monday, at PGP-1 seat 3 then PGP-2 seat 1: an hour, 40 rounds for 1,000.00 (25.00 a round), and 5 rounds as the
  banker covering 200.00; lost 30.00; theo 25.00; brought 100.00 in chips, bought 200.00 cash and 50.00 in markers,
  walked with 320.00.
* Tuesday, at PGP-1 seat 2: two hours, 60 rounds for 3,000.00 (50.00 a round); won 2,500.00 on a theo of 75.00,
  with a standard deviation of 316.23: z = (2,500.00 + 75.00) / 316.23 = 8.1, a 3σ alert.

Over both: 100 rounds for 4,000.00 (40.00 a round), won 2,470.00, theo 100.00, comps 30% of it (30.00), 100 points
(one a 1.00 of theo), three hours.
"""

from __future__ import annotations

import datetime as dt
import re
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from casino.models import AuditEvent
from casino.roles import Role
from players.models import Player, RatingSeat, RatingSession
from players.page_selectors import SESSIONS_A_PAGE, player_page
from players.services import player_create, session_start
from tables.models import Table
from tests.caches import cache_clear

pytestmark = pytest.mark.django_db

MONDAY = dt.datetime(2026, 11, 23, 20, 0, tzinfo=dt.UTC)
TUESDAY = MONDAY + dt.timedelta(days=1)


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    cache_clear()  # the cached figures outlive a rolled-back test database


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def html_of(response: Any) -> str:
    return response.content.decode()


@pytest.fixture
def tables(shift: Any, make_table: Callable[..., Table]) -> tuple[Table, Table]:
    return (
        make_table(name="PGP-1", game="paigow_poker", seat_count=6),
        make_table(name="PGP-2", game="paigow_poker", seat_count=6),
    )


@pytest.fixture
def lee(dealer: User) -> Player:
    return player_create(actor=dealer, name="Mr Lee", card_number="1001", tier="Gold")


def ended_session(
    player: Player,
    by: User,
    *,
    started: dt.datetime,
    seats: list[tuple[Table, int]],
    hours: float = 1,
    **kept: Any,
) -> RatingSession:
    """An ended session with its kept figures written as ``players.rating`` keeps them (the figures are under test
    here, not how a settle adds to them), and its seats, one after the other over its time."""
    seconds = round(hours * 3600)
    session = RatingSession.objects.create(
        player=player,
        status=RatingSession.Status.ENDED,
        started_at=started,
        started_by=by,
        ended_at=started + dt.timedelta(seconds=seconds),
        seconds_played=seconds,
        **kept,
    )
    step = dt.timedelta(seconds=seconds / len(seats))
    RatingSeat.objects.bulk_create(
        RatingSeat(
            session=session,
            table=table,
            seat_number=seat,
            started_at=started + step * n,
            ended_at=started + step * (n + 1),
        )
        for n, (table, seat) in enumerate(seats)
    )
    return session


@pytest.fixture
def lees_sessions(lee: Player, tables: tuple[Table, Table], dealer: User) -> tuple[RatingSession, RatingSession]:
    first, second = tables
    monday = ended_session(
        lee,
        dealer,
        started=MONDAY,
        seats=[(first, 3), (second, 1)],
        rounds=40,
        wagered_cents=100_000,
        banker_rounds=5,
        banker_wagered_cents=20_000,
        win_loss_cents=-3_000,
        theo_millicents=2_500_000,
        variance_cents2=1_000_000_000,
        chips_in_cents=10_000,
        cash_in_cents=20_000,
        markers_in_cents=5_000,
        walk_with_cents=32_000,
    )
    tuesday = ended_session(
        lee,
        dealer,
        started=TUESDAY,
        seats=[(first, 2)],
        hours=2,
        rounds=60,
        wagered_cents=300_000,
        win_loss_cents=250_000,
        theo_millicents=7_500_000,
        variance_cents2=1_000_000_000,
    )
    return monday, tuesday


def text_of(html: str, element_id: str) -> str:
    found = re.search(rf'id="{element_id}"[^>]*>(.*?)</', html, re.S)
    assert found, element_id
    return re.sub(r"[ \t\n]+", " ", found.group(1)).strip()  # the thin space between thousands stays


# --- a player's page ---------------------------------------------------------------------------------


def test_a_supervisor_sees_the_totals_over_every_session_and_each_session_newest_first(
    lee: Player, lees_sessions: tuple[RatingSession, RatingSession], floor_supervisor: User
) -> None:
    monday, tuesday = lees_sessions
    response = signed_in(floor_supervisor).get(f"/players/{lee.pk}/")
    assert response.status_code == 200
    html = html_of(response)
    assert "Mr Lee" in html and "card 1001" in html and "Gold" in html
    assert "Over all 2 sessions" in html
    totals = {
        "total-rounds": "100",
        "total-time": "3:00 h",
        "total-average": "40.00",
        "total-banker": "5 rounds, 200.00",
        "total-win-loss": "+2\u2009470.00",
        "total-theo": "100.00",
        "total-comps": "30.00",
        "total-points": "100",
        "total-buy-in": "350.00",
    }
    for element_id, shown in totals.items():
        assert text_of(html, element_id) == shown, element_id
    assert html.index(f'id="session-{tuesday.pk}"') < html.index(f'id="session-{monday.pk}"')  # newest first
    monday_row = html[
        html.index(f'id="session-{monday.pk}"') : html.index("</tr>", html.index(f'id="session-{monday.pk}"'))
    ]
    for shown in (
        "2026-11-23 20:00",
        "→ 21:00",
        "PGP-1 <small>seat 3</small>",
        "PGP-2 <small>seat 1</small>",
        "1:00 h",
    ):
        assert shown in monday_row, shown
    for shown in ("25.00", "200.00", "-30.00", "350.00", "→ 320.00", "7.50", "25 points"):
        assert shown in monday_row, shown  # avg bet, banker action, w/l, buy-in, walk-with, comps, points
    assert "3σ" not in monday_row
    tuesday_row = html[
        html.index(f'id="session-{tuesday.pk}"') : html.index("</tr>", html.index(f'id="session-{tuesday.pk}"'))
    ]
    assert "session-alert" in tuesday_row and "3σ" in tuesday_row and "+2\u2009500.00" in tuesday_row
    assert "50.00" in tuesday_row and "2:00 h" in tuesday_row and "22.50" in tuesday_row  # comps: 30% of 75.00
    # The classic estimate: average bet x hours x 60 decisions an hour x the session's edge (theo over its action):
    # Tuesday 50.00 x 2 x 60 x 2.5% = 150.00; Monday 25.00 x 1 x 60 x (25.00 / 1,200.00) = 31.25.
    assert "150.00" in tuesday_row and "31.25" in monday_row
    assert "Anonymise on request" in html  # a supervisor's


def test_an_auditor_reads_a_players_page_without_the_anonymisation(
    lee: Player, lees_sessions: Any, auditor: User
) -> None:
    html = html_of(signed_in(auditor).get(f"/players/{lee.pk}/"))
    assert "Mr Lee" in html and "Over all 2 sessions" in html
    assert "Anonymise on request" not in html and "/anonymise/" not in html


def test_a_session_playing_now_counts_its_time_up_to_now_and_shows_where_the_player_sits(
    lee: Player, tables: tuple[Table, Table], dealer: User, pit_boss: User
) -> None:
    session = session_start(actor=dealer, player=lee, table=tables[1], seat=4)
    RatingSession.objects.filter(pk=session.pk).update(
        running_since=session.running_since - dt.timedelta(minutes=90), seconds_played=600
    )
    html = html_of(signed_in(pit_boss).get(f"/players/{lee.pk}/"))
    assert "playing now" in html and "PGP-2 <small>seat 4</small>" in html
    assert text_of(html, "total-time") == "1:40 h"  # 10 minutes before a break, 90 since
    assert text_of(html, "total-average") == "—"  # no round yet


def test_a_dealer_may_not_open_a_players_page_and_is_told_why(lee: Player, lees_sessions: Any, dealer: User) -> None:
    response = signed_in(dealer).get(f"/players/{lee.pk}/")
    assert response.status_code == 403
    html = html_of(response)
    assert "only a Floor supervisor, a Pit boss or an Auditor may open it" in html
    assert "Mr Lee" not in html and "2\u2009470.00" not in html
    assert 'href="/players/"' in html  # the way back: the search a dealer may use


def test_someone_else_is_refused_the_players_and_a_visitor_is_sent_to_sign_in(
    lee: Player, make_user: Callable[..., User]
) -> None:
    cashier = make_user("cora_cage", Role.CAGE_CASHIER)
    for address in ("/players/", f"/players/{lee.pk}/", "/players/?q=1001"):
        response = signed_in(cashier).get(address)
        assert response.status_code == 403, address
        assert "Mr Lee" not in html_of(response)
    assert Client().get(f"/players/{lee.pk}/")["Location"].startswith("/accounts/login/")
    assert Client().get("/players/")["Location"].startswith("/accounts/login/")


def test_no_such_player_is_a_clear_404(floor_supervisor: User) -> None:
    response = signed_in(floor_supervisor).get("/players/999999/")
    assert response.status_code == 404
    assert "No player has the number 999999." in html_of(response)


def test_the_pages_on_players_are_never_cached_so_back_draws_them_again(lee: Player, floor_supervisor: User) -> None:
    client = signed_in(floor_supervisor)
    for address in ("/players/", f"/players/{lee.pk}/"):
        assert "no-store" in client.get(address)["Cache-Control"], address


def test_a_player_page_reads_a_fixed_number_of_queries_with_3_or_30_sessions(
    lee: Player, tables: tuple[Table, Table], dealer: User, pit_boss: User
) -> None:
    def sessions(count: int, start: int) -> None:
        for n in range(start, start + count):
            ended_session(
                lee,
                dealer,
                started=MONDAY + dt.timedelta(hours=3 * n),
                seats=[(tables[0], 1), (tables[1], 2)],
                rounds=10,
                wagered_cents=10_000,
                theo_millicents=200_000,
                variance_cents2=10_000_000,
            )

    def count() -> tuple[int, str]:
        client = signed_in(pit_boss)  # a fresh request: its session, user and roles are read again
        with CaptureQueriesContext(connection) as captured:
            response = client.get(f"/players/{lee.pk}/")
        assert response.status_code == 200
        return len(captured), html_of(response)

    sessions(3, 0)
    few, _ = count()
    sessions(27, 3)
    many, html = count()
    # The session, the user, their roles; the player with their totals, a page of sessions and their seats.
    assert few == many <= 6
    assert html.count('class="session-line') == 30 and "Over all 30 sessions" in html


def test_a_long_history_comes_a_page_at_a_time_and_the_totals_are_over_all_of_it(
    lee: Player, tables: tuple[Table, Table], dealer: User, auditor: User
) -> None:
    made = [
        ended_session(
            lee,
            dealer,
            started=MONDAY + dt.timedelta(hours=n),
            seats=[(tables[0], 1)],
            rounds=1,
            wagered_cents=1_000,
            theo_millicents=1_000_000,
        )  # fmt: skip
        for n in range(SESSIONS_A_PAGE + 20)
    ]
    client = signed_in(auditor)
    first = html_of(client.get(f"/players/{lee.pk}/"))
    assert first.count('class="session-line') == SESSIONS_A_PAGE
    assert f'id="session-{made[-1].pk}"' in first and f'id="session-{made[0].pk}"' not in first  # newest first
    assert "Page 1 of 2" in first and f"1–{SESSIONS_A_PAGE} of {SESSIONS_A_PAGE + 20}" in first
    assert text_of(first, "total-rounds") == str(SESSIONS_A_PAGE + 20)  # over every session, not the page's
    second = html_of(client.get(f"/players/{lee.pk}/?page=2"))
    assert second.count('class="session-line') == 20 and f'id="session-{made[0].pk}"' in second
    assert text_of(second, "total-rounds") == str(SESSIONS_A_PAGE + 20)
    for typed, shown in (("abc", 1), ("0", 1), ("-3", 1), ("99", 2), ("2.5", 1), ("", 1)):
        response = client.get(f"/players/{lee.pk}/", {"page": typed})
        assert response.status_code == 200 and f"Page {shown} of 2" in html_of(response), typed


def test_the_totals_are_derived_from_the_sums_as_one_sessions_figures_are(lee: Player, lees_sessions: Any) -> None:
    found = player_page(player_id=lee.pk, now=TUESDAY + dt.timedelta(days=1))
    assert found is not None
    f = found.totals.figures
    assert (f.rounds, f.banker_rounds, f.wagered_cents, f.banker_wagered_cents) == (100, 5, 400_000, 20_000)
    assert (f.average_bet_cents, f.win_loss_cents, f.theo_cents, f.comp_cents, f.points) == (
        4_000,
        247_000,
        10_000,
        3_000,
        100,
    )
    assert (f.seconds_played, f.buy_in_cents, f.walk_with_cents) == (3 * 3600, 35_000, 32_000)
    # z over both: (2,470.00 + 100.00) / sqrt(2 x 10^9 square cents) = 257,000 / 44,721 = 5.75
    assert f.z == pytest.approx(5.7467, abs=1e-3) and f.alert


# --- the list, the search and the enrolment ----------------------------------------------------------


@pytest.fixture
def few_players(lee: Player, dealer: User) -> dict[str, Player]:
    return {
        "lee": lee,
        "leeann": player_create(actor=dealer, name="Lee Ann Marsh", card_number="2002", tier="Silver"),
        "chan": player_create(actor=dealer, name="Tommy Chan", tier="Bronze"),
        "anon": player_create(actor=dealer, tier="Bronze", anonymous=True),
    }


def test_a_supervisor_searches_by_card_number_or_name_and_browses_every_player(
    few_players: dict[str, Player], floor_supervisor: User
) -> None:
    client = signed_in(floor_supervisor)
    by_card = html_of(client.get("/players/", {"q": "2002"}))
    assert by_card.count('class="player-line"') == 1 and "Lee Ann Marsh" in by_card
    by_name = html_of(client.get("/players/", {"q": "  lee "}))
    assert by_name.count('class="player-line"') == 2 and "Tommy Chan" not in by_name
    assert f'href="/players/{few_players["lee"].pk}/"' in by_name
    none = html_of(client.get("/players/", {"q": "Nobody"}))
    assert none.count('class="player-line"') == 0 and "No player found for “Nobody”." in none
    everyone = html_of(client.get("/players/"))
    assert everyone.count('class="player-line"') == 4
    assert f"anonymous player {few_players['anon'].pk}" in everyone
    assert everyone.index("Lee Ann Marsh") < everyone.index("Tommy Chan") < everyone.index("anonymous player")
    assert "Enrol a player" in everyone
    for typed in ("zz", "-1", "999"):  # a page typed by hand is the nearest one, never an error
        page = client.get("/players/", {"page": typed})
        assert page.status_code == 200 and html_of(page).count('class="player-line"') == 4, typed


def test_the_list_says_where_a_player_sits_now(
    lee: Player, tables: tuple[Table, Table], dealer: User, auditor: User
) -> None:
    session_start(actor=dealer, player=lee, table=tables[0], seat=5)
    html = html_of(signed_in(auditor).get("/players/", {"q": "1001"}))
    assert "at PGP-1, seat 5" in html


def test_a_dealer_finds_a_player_by_search_only_and_without_the_page(
    few_players: dict[str, Player], dealer: User
) -> None:
    client = signed_in(dealer)
    nothing_typed = html_of(client.get("/players/"))
    assert nothing_typed.count('class="player-line"') == 0 and "Type a card number or a name" in nothing_typed
    found = html_of(client.get("/players/", {"q": "1001"}))
    assert found.count('class="player-line"') == 1 and "Mr Lee" in found and "Gold" in found
    assert f'href="/players/{few_players["lee"].pk}/"' not in found  # the page is not the dealer's
    assert "Enrol a player" in found
    # Name and tier: not the card number, nor when the player last played (their history).
    by_name = html_of(client.get("/players/", {"q": "Lee"}))
    assert "Mr Lee" in by_name and "1001" not in by_name and "Last session" not in by_name


def test_an_auditor_reads_the_list_and_may_not_enrol(auditor: User) -> None:
    client = signed_in(auditor)
    html = html_of(client.get("/players/"))
    assert "Enrol a player" not in html and "Read only" in html
    response = client.post("/players/enrol/", {"name": "Ms Wu", "tier": "Gold"})
    assert response.status_code == 403 and "may enrol a player" in html_of(response)
    assert not Player.objects.exists()


def test_a_dealer_enrols_a_player_once_however_often_the_form_is_sent(dealer: User) -> None:
    client = signed_in(dealer)
    key = re.search(r'name="form_key" value="([0-9a-f]{32})"', html_of(client.get("/players/"))).group(1)
    form = {"form_key": key, "name": "  Ms   Wu ", "card_number": "3003", "tier": "Platinum"}
    first = client.post("/players/enrol/", form)
    assert first.status_code == 302 and first["Location"] == "/players/?q=3003"
    page = html_of(client.get(first["Location"]))
    assert "Ms Wu (Platinum) is enrolled." in page and page.count('class="player-line"') == 1
    again = client.post("/players/enrol/", form)  # a double tap, or the form sent again after Back
    assert again.status_code == 302 and again["Location"] == "/players/?q=3003"
    assert "already sent: the player is enrolled once" in html_of(client.get(again["Location"]))
    (wu,) = Player.objects.all()
    assert (wu.name, wu.card_number, wu.tier, wu.anonymous) == ("Ms Wu", "3003", "Platinum", False)
    assert AuditEvent.objects.filter(event_type="player.created").count() == 1


def test_a_double_tap_enrols_once_when_the_cache_keeps_nothing(dealer: User, settings: Any) -> None:
    """The form's key is taken in the database: a cache that keeps nothing (Redis down, or this process leaving it
    alone a while after a failure) costs the second answer only the player's name, never a second player."""
    client = signed_in(dealer)
    key = re.search(r'name="form_key" value="([0-9a-f]{32})"', html_of(client.get("/players/"))).group(1)
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
    form = {"form_key": key, "name": "Ms Wu", "card_number": "3003", "tier": "Gold"}
    assert client.post("/players/enrol/", form).status_code == 302
    again = client.post("/players/enrol/", form)
    assert again.status_code == 302 and again["Location"] == "/players/"  # the cache lost which player it was
    assert "already sent: the player is enrolled once" in html_of(client.get(again["Location"]))
    assert Player.objects.count() == 1


def test_a_supervisor_lands_on_the_new_players_page_and_may_enrol_an_anonymous_player(
    floor_supervisor: User,
) -> None:
    client = signed_in(floor_supervisor)
    response = client.post("/players/enrol/", {"tier": "Bronze", "anonymous": "yes"})
    (anon,) = Player.objects.all()
    assert anon.anonymous and response["Location"] == f"/players/{anon.pk}/"
    html = html_of(client.get(response["Location"]))
    assert f"anonymous player {anon.pk} (Bronze) is enrolled." in html and "Enrolled anonymous" in html


@pytest.mark.parametrize(
    ("form", "status", "message"),
    [
        ({"name": "", "tier": "Gold"}, 400, "Say the player&#x27;s name, or enrol them as anonymous."),
        (
            {"name": "Ms Wu", "tier": "Diamond"},
            400,
            "The tiers are Bronze, Silver, Gold, Platinum, not &#x27;Diamond&#x27;.",
        ),
        (
            {"name": "Ms Wu", "tier": "Gold", "anonymous": "yes"},
            400,
            "An anonymous player has no name and no card number.",
        ),
        ({"name": "Ms Wu", "card_number": "1001", "tier": "Gold"}, 409, "Card number 1001 belongs to another player."),
        ({"name": "W" * 121, "tier": "Gold"}, 400, "The name is at most 120 characters."),
    ],
    ids=["no-name", "no-such-tier", "anonymous-with-a-name", "card-taken", "name-too-long"],
)
def test_an_enrolment_refused_says_why_keeps_what_was_typed_and_writes_nothing(
    lee: Player, dealer: User, form: dict[str, str], status: int, message: str
) -> None:
    client = signed_in(dealer)
    before = (Player.objects.count(), AuditEvent.objects.count())
    key = uuid.uuid4().hex
    response = client.post("/players/enrol/", {"form_key": key, **form})
    assert response.status_code == status
    html = html_of(response)
    assert message in html, html[html.find("players-error") - 50 : html.find("players-error") + 300]
    if form.get("name"):
        assert f'value="{form["name"]}"' in html  # what was typed stays in the form
    assert (Player.objects.count(), AuditEvent.objects.count()) == before
    # Refused: the same form, corrected, is taken (its key is not spent).
    fixed = client.post("/players/enrol/", {"form_key": key, "name": "Ms Wu", "card_number": "3003", "tier": "Gold"})
    assert fixed.status_code == 302 and Player.objects.filter(card_number="3003").exists()


def test_enrolling_is_a_post(dealer: User) -> None:
    assert signed_in(dealer).get("/players/enrol/").status_code == 405


# --- anonymising on request --------------------------------------------------------------------------


def anonymise_key(client: Client, player: Player) -> str:
    html = html_of(client.get(f"/players/{player.pk}/"))
    return re.search(r'name="form_key" value="([0-9a-f]{32})"', html).group(1)


def test_a_supervisor_anonymises_a_player_once_confirmed_and_once_only(
    lee: Player, lees_sessions: Any, floor_supervisor: User, pit_boss: User
) -> None:
    client = signed_in(floor_supervisor)
    key = anonymise_key(client, lee)
    unconfirmed = client.post(f"/players/{lee.pk}/anonymise/", {"form_key": key})
    assert unconfirmed.status_code == 302
    assert "Confirm to anonymise the player" in html_of(client.get(unconfirmed["Location"]))
    lee.refresh_from_db()
    assert lee.name == "Mr Lee" and lee.anonymised_at is None

    done = client.post(f"/players/{lee.pk}/anonymise/", {"form_key": key, "confirm": "yes"})
    assert done.status_code == 302 and done["Location"] == f"/players/{lee.pk}/"
    html = html_of(client.get(done["Location"]))
    assert "The player is anonymised" in html and f"anonymous player {lee.pk}" in html
    assert "Mr Lee" not in html and "1001" not in html and "Anonymised on request on" in html
    assert "Over all 2 sessions" in html and text_of(html, "total-rounds") == "100"  # the sessions stay
    assert "Anonymise on request" not in html  # nothing left to anonymise

    again = client.post(f"/players/{lee.pk}/anonymise/", {"form_key": key, "confirm": "yes"})  # a double tap
    assert again.status_code == 302
    assert "already sent: the player is anonymised once" in html_of(client.get(again["Location"]))
    other = signed_in(pit_boss)  # another supervisor, on a page drawn before: the service refuses, nothing written
    refused = other.post(f"/players/{lee.pk}/anonymise/", {"form_key": uuid.uuid4().hex, "confirm": "yes"})
    assert refused.status_code == 409 and "This player is anonymised already." in html_of(refused)
    assert AuditEvent.objects.filter(event_type="player.anonymised").count() == 1
    assert "Mr Lee" not in html_of(other.get("/players/", {"q": "Lee"}))
    assert html_of(other.get("/players/", {"q": "1001"})).count('class="player-line"') == 0


def test_an_auditor_or_a_dealer_may_not_anonymise(lee: Player, auditor: User, dealer: User) -> None:
    by_auditor = signed_in(auditor).post(
        f"/players/{lee.pk}/anonymise/", {"form_key": uuid.uuid4().hex, "confirm": "yes"}
    )
    assert by_auditor.status_code == 403 and "may anonymise a player" in html_of(by_auditor)
    by_dealer = signed_in(dealer).post(
        f"/players/{lee.pk}/anonymise/", {"form_key": uuid.uuid4().hex, "confirm": "yes"}
    )
    assert by_dealer.status_code == 403 and "Mr Lee" not in html_of(by_dealer)
    lee.refresh_from_db()
    assert (lee.name, lee.card_number, lee.anonymised_at) == ("Mr Lee", "1001", None)
    assert not AuditEvent.objects.filter(event_type="player.anonymised").exists()
    # Anonymising is a post.
    assert signed_in(auditor).get(f"/players/{lee.pk}/anonymise/").status_code == 405
