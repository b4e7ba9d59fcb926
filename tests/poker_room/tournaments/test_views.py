"""The tournament director's console, its pages, the dealer's tournament table, the pit dashboard's poker room panel
and the dealer's list of tournament tables ("Screens"): who sees what, what a refusal looks like, a form
recorded once, and a fixed number of queries whatever the field.

Personas: the tournament director runs everything; an Auditor reads every page and gets no form; a Dealer opens the
tablet page of the tournament table they are put on, and nothing else of the poker room.
"""

from __future__ import annotations

import html
import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from casino.roles import Role
from poker_room.tournaments import clock_services, services
from poker_room.tournaments.models import Elimination, Entry, Purchase, Tournament
from tests.poker_room.tournament_setup import PLAYERS, everything, fresh

KEY = "0123456789abcdef0123456789abcdef"
OTHER_KEY = "fedcba9876543210fedcba9876543210"
# The base layout's own forms (the language and the sign-out): every other form on a page is the page's.
LAYOUT_FORMS = {"/i18n/setlang/", "/accounts/logout/"}


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def page_text(response: Any) -> str:
    return html.unescape(response.content.decode())


def post_forms(response: Any) -> list[str]:
    """The addresses of the POST forms of a page, the layout's own left out."""
    actions = re.findall(r'<form[^>]*method="post"[^>]*action="([^"]+)"', response.content.decode())
    return [action for action in actions if action not in LAYOUT_FORMS]


@pytest.fixture
def dealer_two(make_user: Callable[..., User]) -> User:
    return make_user("dirk_dealer", Role.DEALER)


@pytest.fixture
def live(make_tournament: Callable[..., Tournament], director: User) -> Callable[..., Tournament]:
    """A tournament started now (the pages read the real clock) with ``players`` registered."""

    def start(players: int = 6, **fields: Any) -> Tournament:
        tournament = make_tournament(**fields)
        names = [*PLAYERS, *(f"Player {n}" for n in range(len(PLAYERS) + 1, 200))]
        for name in names[:players]:
            services.entry_register(actor=director, tournament=tournament, name=name)
        return services.tournament_start(actor=director, tournament=tournament, rng=random.Random(18))

    return start


def pages(tournament: Tournament) -> list[str]:
    tid = tournament.pk
    return [
        "/poker-room/",
        f"/poker-room/{tid}/",
        f"/poker-room/{tid}/structure/",
        f"/poker-room/{tid}/payouts/",
        f"/poker-room/{tid}/results/",
        f"/poker-room/{tid}/chip-race/",
        f"/poker-room/{tid}/tables/1/",
    ]


# --- who sees what ----------------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_every_page_renders_for_the_director_with_its_forms(live, director) -> None:
    tournament = live(6, rebuys_max=1, rebuy_until_level=3, rebuy_cents=9_000, rebuy_chips=20_000)
    client = signed_in(director)
    for address in pages(tournament):
        response = client.get(address)
        assert response.status_code == 200, address
        if not address.endswith(("/results/", "/chip-race/")):  # a sheet, and a race only at a colour-up
            assert post_forms(response), f"{address} draws no form for the director"
    console = page_text(client.get(f"/poker-room/{tournament.pk}/"))
    for shown in ("Level 1", "25 / 50", "Pause", "+1 min", "Players left", "Rebuy", "Bust a player", "Table 1"):
        assert shown in console, shown
    assert re.search(r"/poker-room/screen/\d+\.[\w-]+/", console), "the room display's signed address"
    assert 'data-ends-at="' in console and 'data-version-url="/poker-room/screen/' in console


@pytest.mark.django_db
def test_the_list_offers_every_template_with_its_game_stack_and_level(director) -> None:
    text = page_text(signed_in(director).get("/poker-room/"))
    for shown in (
        "Mainzer Poker Masters",
        "Zocktoberfest",
        "knock-out",
        "every 7th hand",
        "league points",
        "15\u2009000",
    ):
        assert shown in text, shown
    assert "Irish: played as No-Limit Hold'em, but with four hole cards" in text


@pytest.mark.django_db
def test_an_auditor_reads_every_page_and_gets_no_form(live, director, auditor) -> None:
    tournament = live(6)
    client = signed_in(auditor)
    for address in pages(tournament):
        response = client.get(address)
        assert response.status_code == 200, address
        assert post_forms(response) == [], address
        assert "Read only" in page_text(response) or address.endswith("/tables/1/"), address
    before = everything(tournament)
    response = client.post(f"/poker-room/{tournament.pk}/clock/pause/", {"form_key": KEY})
    assert response.status_code == 403
    assert "you may read it" in page_text(response)
    assert everything(tournament) == before


@pytest.mark.django_db
def test_a_dealer_opens_the_tablet_page_of_their_table_only(live, director, dealer, dealer_two) -> None:
    tournament = live(6)
    services.tournament_table_dealer_set(actor=director, tournament=tournament, table_number=1, dealer=dealer)
    client = signed_in(dealer)
    mine = client.get(f"/poker-room/{tournament.pk}/tables/1/")
    assert mine.status_code == 200
    assert "Table 1" in page_text(mine) and "Out…" in page_text(mine)
    other = client.get(f"/poker-room/{tournament.pk}/tables/2/")
    assert other.status_code == 403
    assert "Table 2 is not your table" in page_text(other)
    assert client.get(f"/poker-room/{tournament.pk}/").status_code == 403
    assert signed_in(dealer_two).get(f"/poker-room/{tournament.pk}/tables/1/").status_code == 403


@pytest.mark.django_db
def test_the_dealer_busts_a_player_at_their_table_in_two_steps(live, director, dealer) -> None:
    tournament = live(6)
    services.tournament_table_dealer_set(actor=director, tournament=tournament, table_number=1, dealer=dealer)
    at_table = list(Entry.objects.filter(tournament=tournament, table_number=1).order_by("seat_number"))
    out, by = at_table[0], at_table[1]
    client = signed_in(dealer)
    step = page_text(client.get(f"/poker-room/{tournament.pk}/tables/1/?bust={out.pk}"))
    assert f"is #{out.number} {out.name} out?" in step and f"Yes, #{out.number} is out" in step
    assert not Elimination.objects.exists()  # the first tap only asks
    response = client.post(
        f"/poker-room/{tournament.pk}/tables/1/bust/",
        {"form_key": KEY, "entry": out.pk, "eliminated_by": by.pk, "confirm": "yes"},
    )
    assert response.status_code == 302
    elimination = Elimination.objects.get()
    assert (elimination.entry_id, elimination.eliminated_by_id, elimination.actor_id) == (out.pk, by.pk, dealer.pk)
    after = page_text(client.get(f"/poker-room/{tournament.pk}/tables/1/"))
    assert f"#{out.number} {out.name} is out in 6th place." in after


@pytest.mark.django_db
def test_the_dealer_moves_the_button_one_seat_on_with_one_tap(live, director, dealer) -> None:
    tournament = live(6)
    services.tournament_table_dealer_set(actor=director, tournament=tournament, table_number=1, dealer=dealer)
    seats = sorted(Entry.objects.filter(tournament=tournament, table_number=1).values_list("seat_number", flat=True))
    client = signed_in(dealer)
    assert "Place the button on seat" in page_text(client.get(f"/poker-room/{tournament.pk}/tables/1/"))
    client.post(f"/poker-room/{tournament.pk}/tables/1/button/", {"form_key": KEY, "seat": seats[0]})
    text = page_text(client.get(f"/poker-room/{tournament.pk}/tables/1/"))
    assert f"Hand over: button to seat {seats[1]}" in text
    client.post(f"/poker-room/{tournament.pk}/tables/1/button/", {"form_key": OTHER_KEY, "seat": seats[1]})
    assert tournament.tables.get(number=1).button == seats[1]


@pytest.mark.django_db
def test_the_tablet_shows_the_seat_changes_touching_its_table_since_the_last_bust(live, director) -> None:
    tournament = live(12)  # two tables of six: a bust at one moves nobody, a second bust at the same one balances
    table = Entry.objects.get(tournament=tournament, number=1).table_number
    for _ in range(2):
        victim = Entry.objects.filter(tournament=tournament, status="active", table_number=table).first()
        services.entry_eliminate(actor=director, tournament=tournament, entry=victim)
    client = signed_in(director)
    texts = {n: page_text(client.get(f"/poker-room/{tournament.pk}/tables/{n}/")) for n in (1, 2)}
    moves = list(tournament.seat_moves.filter(reason="balance"))
    assert len(moves) == 1
    move = moves[0]
    assert f"moves to table {move.to_table} seat {move.to_seat}" in texts[move.from_table]
    assert f"from table {move.from_table} seat {move.from_seat}" in texts[move.to_table]
    assert "Seat changes since the last bust" in texts[1]


# --- refusals ---------------------------------------------------------------------------------------------------------


REFUSALS = [
    # (what the director does, the form, the status, what the page says)
    (
        "a structure with a level below the last",
        "structure/",
        {"levels": "20 min 100/200\n20 min 50/100"},
        400,
        "Level 2 is below level 1",
    ),
    (
        "a structure line that cannot be read",
        "structure/",
        {"levels": "20 min 100/200\ntwenty minutes"},
        400,
        "Line 2: a level needs its length",
    ),
    ("a payout table that does not add up to 100 %", "payouts/", {"payouts": "1-10: 50/30\n11+: 50/30/20"}, 400, "100"),
    ("a bust not confirmed", "bust/", {"entry": "first"}, 400, "Confirm the bust of #1 Anna"),
    ("a rebuy beyond its limit", "entries/first/rebuy/", {}, 409, "Anna"),
    ("a minute removed from nothing", "clock/minus/", {}, 400, ""),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("what", "address", "form", "status", "said"), REFUSALS, ids=[r[0] for r in REFUSALS])
def test_a_refusal_is_shown_in_the_page_and_writes_nothing(live, director, what, address, form, status, said) -> None:
    tournament = live(6)  # no rebuys allowed
    first = Entry.objects.get(tournament=tournament, number=1)
    address = address.replace("first", str(first.pk))
    form = {key: str(first.pk) if value == "first" else value for key, value in form.items()}
    if what == "a minute removed from nothing":  # 20-minute level: removing 20 minutes leaves nothing
        for _ in range(19):
            clock_services.clock_adjust(actor=director, tournament=tournament, seconds=-60)
        tournament = fresh(tournament)
        said = "skip to the next level instead"
        status = 409
    before = everything(tournament)
    response = signed_in(director).post(f"/poker-room/{tournament.pk}/{address}", {"form_key": KEY, **form})
    text = page_text(response)
    assert response.status_code == status, text[:400]
    assert response["Tableside-Refusal"] == "1"
    assert 'id="refusal"' in text and said in text
    assert everything(tournament) == before


# Digits Python calls digits that are no number ("²", "③"): read as text, refused like any, never a 500.
ODD_DIGITS = [
    ("get", "tables/1/?bust=²", {}, 200, ""),
    ("get", "chip-race/?table=③", {}, 200, ""),
    ("post", "chip-race/", {"table": "1", "left-1": "²"}, 400, "not “²”"),
    ("post", "chip-race/", {"table": "1", "left-²": "3"}, 409, "chip race is run at a break"),
    ("post", "structure/", {"levels": "20 min 100/200", "chips": "25 ² 100"}, 400, "List the chip values"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("method", "address", "form", "status", "said"), ODD_DIGITS, ids=[r[1] for r in ODD_DIGITS])
def test_a_digit_that_is_no_number_is_refused_and_never_a_server_error(
    live, director, method, address, form, status, said
) -> None:
    tournament = live(6)
    client = Client(raise_request_exception=False)
    client.force_login(director)
    before = everything(tournament)
    url = f"/poker-room/{tournament.pk}/{address}"
    response = client.get(url) if method == "get" else client.post(url, {"form_key": KEY, **form})
    assert response.status_code == status and said in page_text(response), page_text(response)[:400]
    assert everything(tournament) == before


@pytest.mark.django_db
def test_a_refused_form_keeps_what_was_typed_and_may_be_sent_again(live, director) -> None:
    tournament = live(6)
    client = signed_in(director)
    typed = "20 min 100/200\n20 min 50/100"
    refused = client.post(
        f"/poker-room/{tournament.pk}/structure/", {"form_key": KEY, "levels": typed, "chips": "25 100 500"}
    )
    assert refused.status_code == 400 and typed in page_text(refused)
    corrected = "20 min 25/50\n20 min 50/100\n20 min 100/200"
    again = client.post(
        f"/poker-room/{tournament.pk}/structure/", {"form_key": KEY, "levels": corrected, "chips": "25 100"}
    )
    assert again.status_code == 302
    assert [level["big_blind"] for level in fresh(tournament).levels] == [50, 100, 200]


@pytest.mark.django_db
def test_eliminating_a_player_twice_is_refused_in_the_page(live, director) -> None:
    tournament = live(6)
    first = Entry.objects.get(tournament=tournament, number=1)
    client = signed_in(director)
    client.post(f"/poker-room/{tournament.pk}/bust/", {"form_key": KEY, "entry": first.pk, "confirm": "yes"})
    before = everything(tournament)
    again = client.post(
        f"/poker-room/{tournament.pk}/entries/{first.pk}/bust/", {"form_key": OTHER_KEY, "confirm": "yes"}
    )
    assert again.status_code == 409
    assert "#1 Anna is already out (6th)." in page_text(again)
    assert everything(tournament) == before


# --- a form recorded once -----------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_bust_form_sent_twice_busts_once(live, director) -> None:
    tournament = live(6)
    first, second = Entry.objects.filter(tournament=tournament).order_by("number")[:2]
    client = signed_in(director)
    form = {"form_key": KEY, "entry": first.pk, "confirm": "yes"}
    answers = [client.post(f"/poker-room/{tournament.pk}/bust/", form) for _ in range(2)]
    assert [answer.status_code for answer in answers] == [302, 302]
    assert Elimination.objects.filter(tournament=tournament).count() == 1
    console = page_text(client.get(f"/poker-room/{tournament.pk}/"))
    assert "This form was already sent: it is recorded once." in console
    # A new page's form (a new key) busts the next player.
    client.post(f"/poker-room/{tournament.pk}/bust/", {"form_key": OTHER_KEY, "entry": second.pk, "confirm": "yes"})
    assert Elimination.objects.filter(tournament=tournament).count() == 2


@pytest.mark.django_db
def test_a_registration_sent_twice_registers_once(make_tournament, director) -> None:
    tournament = make_tournament()
    client = signed_in(director)
    for _ in range(2):
        client.post(f"/poker-room/{tournament.pk}/entries/", {"form_key": KEY, "name": "Anna"})
    assert list(Entry.objects.filter(tournament=tournament).values_list("name", flat=True)) == ["Anna"]
    assert Purchase.objects.filter(tournament=tournament).count() == 1


# --- the director's work --------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_director_creates_a_tournament_from_a_template_and_starts_it(director) -> None:
    client = signed_in(director)
    response = client.post(
        "/poker-room/new/",
        {
            "form_key": KEY,
            "template_key": "zocktoberfest",
            "buy_in": "50.00",
            "fee": "10",
            "bounty": "20.00",
            "tables": "2",
        },
    )
    tournament = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/poker-room/{tournament.pk}/"
    assert (tournament.buy_in_cents, tournament.fee_cents, tournament.bounty_cents) == (5_000, 1_000, 2_000)
    for number, name in enumerate(("Anna", "Ben", "Cem"), start=1):
        client.post(f"/poker-room/{tournament.pk}/entries/", {"form_key": f"{number:032x}", "name": name})
    client.post(f"/poker-room/{tournament.pk}/clock/start/", {"form_key": KEY})
    tournament = fresh(tournament)
    assert (tournament.status, tournament.clock_status) == ("running", "running")
    text = page_text(client.get(f"/poker-room/{tournament.pk}/"))
    assert "has started: seats are drawn and the clock runs." in text and "Knocked out by (for the bounty)" in text


@pytest.mark.django_db
def test_a_knock_out_without_its_bounty_is_refused_with_what_was_typed(director) -> None:
    response = signed_in(director).post(
        "/poker-room/new/",
        {"form_key": KEY, "template_key": "zocktoberfest", "buy_in": "50.00", "tables": "2", "name": "Oktober"},
    )
    assert response.status_code == 400
    text = page_text(response)
    assert "Oktober is a knock-out: set the bounty." in text and 'value="Oktober"' in text
    assert not Tournament.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("button", "status", "level_row"),
    [("pause", "paused", 0), ("forward", "running", 1), ("plus", "running", 0)],
)
def test_the_clock_buttons_change_the_clock(live, director, button, status, level_row) -> None:
    tournament = live(4)
    ends_before = tournament.clock_ends_at
    response = signed_in(director).post(f"/poker-room/{tournament.pk}/clock/{button}/", {"form_key": KEY})
    assert response.status_code == 302 and response["Location"].endswith("#clock")
    after = fresh(tournament)
    assert (after.clock_status, after.clock_level) == (status, level_row)
    if button == "plus":
        assert (after.clock_ends_at - ends_before).total_seconds() == pytest.approx(60, abs=0.01)


@pytest.mark.django_db
def test_a_hands_counted_level_has_a_hand_played_button_on_the_console_and_the_tablet(director) -> None:
    # A chip tournament on the heads-up template's structure (levels of 7 hands), one table: the room's clock counts
    # the hands (a heads-up event's matches count their own: tests/poker_room/heads_up/test_services.py).
    tournament = services.tournament_create(
        actor=director, template_key="msop_heads_up", buy_in_cents=2_000, fee_cents=500, tables=1, format="chips"
    )
    for name in ("Anna", "Ben"):
        services.entry_register(actor=director, tournament=tournament, name=name)
    services.tournament_start(actor=director, tournament=tournament, rng=random.Random(18))
    client = signed_in(director)
    console = page_text(client.get(f"/poker-room/{tournament.pk}/"))
    assert "7 hands left" in console and "Hand played" in console and "+1 min" not in console
    assert "Hand played" in page_text(client.get(f"/poker-room/{tournament.pk}/tables/1/"))
    client.post(f"/poker-room/{tournament.pk}/tables/1/hand/", {"form_key": KEY})
    client.post(f"/poker-room/{tournament.pk}/clock/hand/", {"form_key": KEY})
    assert fresh(tournament).clock_hands == 2
    assert "5 hands left" in page_text(client.get(f"/poker-room/{tournament.pk}/"))


@pytest.mark.django_db
def test_the_console_adds_a_table_while_it_runs_and_never_takes_one_away(live, director) -> None:
    tournament = live(4, table_size=2)  # two tables of two: every seat taken
    client = signed_in(director)
    console = client.get(f"/poker-room/{tournament.pk}/")
    assert f"/poker-room/{tournament.pk}/tables/" in post_forms(console)
    assert 'name="count" min="2"' in console.content.decode()
    response = client.post(f"/poker-room/{tournament.pk}/tables/", {"form_key": KEY, "count": "3"})
    assert response.status_code == 302
    assert tournament.tables.count() == 3
    refusal = client.post(f"/poker-room/{tournament.pk}/tables/", {"form_key": OTHER_KEY, "count": "1"})
    assert refusal.status_code == 409 and "never taken away" in page_text(refusal)
    assert tournament.tables.count() == 3


@pytest.mark.django_db
def test_a_player_of_the_players_app_is_found_and_registered(make_tournament, director) -> None:
    from players.models import Player

    player = Player.objects.create(name="Anna Schmidt", card_number="C-1001", tier="Gold", created_by=director)
    tournament = make_tournament()
    client = signed_in(director)
    found = page_text(client.get(f"/poker-room/{tournament.pk}/?q=C-1001"))
    assert "Anna Schmidt" in found and f'name="player_id" value="{player.pk}"' in found
    client.post(f"/poker-room/{tournament.pk}/entries/", {"form_key": KEY, "player_id": player.pk})
    assert Entry.objects.get(tournament=tournament).player_id == player.pk


@pytest.mark.django_db
def test_the_undo_form_brings_the_latest_bust_back_with_its_reason(live, director) -> None:
    tournament = live(6)
    first = Entry.objects.get(tournament=tournament, number=1)
    elimination = services.entry_eliminate(actor=director, tournament=tournament, entry=first)
    client = signed_in(director)
    assert "Undo the bust of #1" in page_text(client.get(f"/poker-room/{tournament.pk}/"))
    refused = client.post(f"/poker-room/{tournament.pk}/eliminations/{elimination.pk}/undo/", {"form_key": KEY})
    assert refused.status_code == 400 and "Say why the bust is undone." in page_text(refused)
    client.post(
        f"/poker-room/{tournament.pk}/eliminations/{elimination.pk}/undo/", {"form_key": KEY, "reason": "wrong seat"}
    )
    assert Elimination.objects.get().status == "undone"
    assert "undone: wrong seat" in page_text(client.get(f"/poker-room/{tournament.pk}/"))


@pytest.mark.django_db
def test_the_payout_table_is_edited_as_text_and_the_prizes_follow(live, director) -> None:
    tournament = live(6)
    client = signed_in(director)
    client.post(f"/poker-room/{tournament.pk}/payouts/", {"form_key": KEY, "payouts": "1-10: 70/30\n11+: 50/30/20"})
    assert fresh(tournament).payouts[0] == {"min_players": 1, "max_players": 10, "shares_bp": [7000, 3000]}
    text = page_text(client.get(f"/poker-room/{tournament.pk}/payouts/"))
    assert "378.00" in text and "162.00" in text  # 6 × 90.00 = 540.00: 70 % and 30 %
    client.post(f"/poker-room/{tournament.pk}/payouts/", {"form_key": OTHER_KEY, "house": "yes"})
    assert fresh(tournament).payouts is None


@pytest.mark.django_db
def test_the_results_sheet_is_a_page_and_a_csv(live, director) -> None:
    tournament = live(3)
    entries = list(Entry.objects.filter(tournament=tournament).order_by("number"))
    services.entry_eliminate(actor=director, tournament=tournament, entry=entries[2])
    services.entry_eliminate(actor=director, tournament=tournament, entry=entries[1])
    client = signed_in(director)
    sheet = page_text(client.get(f"/poker-room/{tournament.pk}/results/"))
    assert "Results sheet" in sheet and "Anna" in sheet
    response = client.get(f"/poker-room/{tournament.pk}/results.csv")
    assert response["Content-Type"].startswith("text/csv")
    rows = response.content.decode().splitlines()
    assert rows[0] == "place,entry,name,prize,bounties,knock-outs,status"
    assert rows[1].startswith("1,1,Anna,") and rows[2].startswith("2,2,Ben,") and rows[3].startswith("3,3,Cem,")
    assert sum(float(row.split(",")[3]) for row in rows[1:]) == 270.00
    console = client.get(f"/poker-room/{tournament.pk}/")  # finished: the console reads, no clock button
    assert console.status_code == 200 and "Finished" in page_text(console)
    assert not [action for action in post_forms(console) if "/clock/" in action]


@pytest.mark.django_db
def test_the_chip_race_is_run_at_the_colour_up_break_and_shows_the_cards(live, director) -> None:
    tournament = live(6)
    clock_services.clock_skip(actor=director, tournament=tournament, by=3)  # the break after level 3: 25s go
    client = signed_in(director)
    text = page_text(client.get(f"/poker-room/{tournament.pk}/chip-race/?table=1"))
    assert "This break colours up the 25 chips into 100 chips." in text
    sitting = list(Entry.objects.filter(tournament=tournament, table_number=1, status="active"))
    form = {"form_key": KEY, "table": "1", **{f"left-{entry.number}": "3" for entry in sitting}}
    response = client.post(f"/poker-room/{tournament.pk}/chip-race/", form)
    assert response.status_code == 302
    raced = page_text(client.get(response["Location"]))
    assert "Races run" in raced and "wins a chip" in raced
    assert re.search(r"[2-9AKQJ]|10[♠♥♦♣]", raced)


# --- queries --------------------------------------------------------------------------------------------------------


def _bust_some(tournament: Tournament, director: User, count: int) -> None:
    for entry in Entry.objects.filter(tournament=tournament).order_by("-number")[:count]:
        services.entry_eliminate(actor=director, tournament=tournament, entry=entry)


@pytest.mark.django_db
def test_the_console_reads_as_many_queries_with_10_or_30_entries(live, director) -> None:
    def count(players: int) -> int:
        tournament = live(players, tables=4, late_registration_level=2, reentries_max=1)
        _bust_some(tournament, director, 2)
        client = signed_in(director)
        with CaptureQueriesContext(connection) as captured:
            response = client.get(f"/poker-room/{tournament.pk}/")
        assert response.status_code == 200
        assert page_text(response).count('data-entry="') == players
        return len(captured)

    ten, thirty = count(10), count(30)
    assert ten == thirty <= 16


@pytest.mark.django_db
def test_the_tablet_page_reads_as_many_queries_with_10_or_30_entries(live, director) -> None:
    def count(players: int) -> int:
        tournament = live(players, tables=4)
        _bust_some(tournament, director, 2)
        client = signed_in(director)
        with CaptureQueriesContext(connection) as captured:
            assert client.get(f"/poker-room/{tournament.pk}/tables/1/").status_code == 200
        return len(captured)

    assert count(10) == count(30)


# --- the pit dashboard and the dealer's home page --------------------------------------------------------------------


@pytest.mark.django_db
def test_the_pit_dashboard_lists_the_running_tournaments(live, make_tournament, pit_boss) -> None:
    client = signed_in(pit_boss)
    assert 'id="pit-poker"' not in client.get("/pit/").content.decode()
    running = live(6)
    planned = make_tournament()
    text = page_text(client.get("/pit/live/"))
    assert 'id="pit-poker"' in text
    assert f'href="/poker-room/{running.pk}/"' in text and "Level 1" in text and "6 / 6" in text.replace("<small>", "")
    assert f'data-tournament="{planned.pk}"' not in text
    assert "540.00" in text  # the prize pool: 6 × 90.00


@pytest.mark.django_db
def test_the_pit_dashboards_poker_room_adds_one_query_however_many_tournaments_run(live, pit_boss) -> None:
    def count() -> tuple[int, str]:
        signed_in(pit_boss).get("/pit/live/")  # the first read after a change fills the figures' cache
        client = signed_in(pit_boss)  # a fresh request: its session, its user and its roles are read again
        with CaptureQueriesContext(connection) as captured:
            response = client.get("/pit/live/")
        return len(captured), response.content.decode()

    none, _ = count()
    live(4)
    one, _ = count()
    live(4)
    live(6)
    three, text = count()
    assert one == three == none  # the running tournaments' row; their figures come from the cache, by version
    assert text.count('class="poker-line"') == 3


@pytest.mark.django_db
def test_the_dealer_home_lists_their_tournament_tables(live, director, dealer) -> None:
    tournament = live(6)
    client = signed_in(dealer)
    assert "Tournament tables" not in page_text(client.get("/dealer/"))
    services.tournament_table_dealer_set(actor=director, tournament=tournament, table_number=2, dealer=dealer)
    text = page_text(client.get("/dealer/"))
    assert "Tournament tables" in text and f'href="/poker-room/{tournament.pk}/tables/2/"' in text


@pytest.mark.django_db
def test_the_header_links_the_poker_room_for_its_viewers_only(director, auditor, dealer) -> None:
    for user, shown in ((director, True), (auditor, True), (dealer, False)):
        text = signed_in(user).get("/dealer/" if user is dealer else "/poker-room/").content.decode()
        assert ('href="/poker-room/"' in text) is shown, user.username


@pytest.mark.django_db
def test_the_tournament_director_lands_on_the_poker_room(director) -> None:
    response = signed_in(director).get("/")
    assert response.status_code == 302 and response["Location"] == "/poker-room/"
