"""Rated players on the tablet through Django's test client: the table's rated seats, a player found by card
number or name and seated, a player enrolled and seated, a break, back, a move, the end with what they walked with;
who may, the refusals, double taps and Back.

Every form posts and redirects (POST-redirect-GET) with a notice; a refusal draws the page again with the message in
the banner, its status and ``REFUSAL_HEADER``, keeping what was typed, and writes nothing. A dealer sees a player's
name and tier, never their money figures or history. The personas: Dana deals at PGP-1 and PGP-2; Olly deals at
PGP-3; Fred is a Floor supervisor, Alex the auditor, Cora a Cage cashier, Conn on the Count team. Mr Lee (card 1001,
Gold) and Ms Wong (card 2002, Silver) play.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.utils import timezone

from casino.models import AuditEvent
from casino.roles import Role
from dealer.views import REFUSAL_HEADER
from players.models import Player, RatingPause, RatingSeat, RatingSession
from players.services import player_create, session_end, session_move, session_pause, session_start
from tables.models import Table
from tables.services import table_assign_dealer, table_close
from tests.caches import cache_clear
from tests.dealer.conftest import signed_in, text

pytestmark = pytest.mark.django_db

KEY = "0123456789abcdef0123456789abcdef"
OTHER_KEY = "fedcba9876543210fedcba9876543210"
THIN = "\u2009"  # the thousands separator of the ``cents`` filter


@pytest.fixture(autouse=True)
def _forms_sent_before_forgotten() -> Iterator[None]:
    """A form's one-time key lives in the cache, which outlives a test's rolled-back database: none sent yet."""

    cache_clear()
    yield
    cache_clear()


def _players(table: Table, rest: str = "") -> str:
    return f"/dealer/tables/{table.pk}/players/{rest}"


def _state() -> dict[str, Any]:
    return {
        "players": list(Player.objects.order_by("pk").values_list("pk", "name", "card_number", "tier")),
        "sessions": list(
            RatingSession.objects.order_by("pk").values_list(
                "pk", "status", "walk_with_cents", "chips_in_cents", "running_since"
            )
        ),
        "seats": list(RatingSeat.objects.order_by("pk").values_list("pk", "table_id", "seat_number", "ended_at")),
        "pauses": list(RatingPause.objects.order_by("pk").values_list("pk", "ended_at")),
        "audit": AuditEvent.objects.count(),
    }


@contextmanager
def nothing_written() -> Iterator[None]:
    before = _state()
    yield
    assert _state() == before


def _refused(response: Any, status: int, message: str) -> str:
    body = text(response)
    assert response.status_code == status, body
    assert response[REFUSAL_HEADER] == "1"
    assert 'class="banner error"' in body and message in body, body
    return body


def _done(response: Any, table: Table, client: Any, notice: str) -> str:
    assert response.status_code == 302, text(response)
    assert response["Location"] == _players(table)
    page = text(client.get(response["Location"]))
    assert notice in page, page
    return page


@pytest.fixture
def pgp2(make_table: Any, shift: Any) -> Table:
    return make_table(name="PGP-2", game="paigow_poker", seat_count=6)


@pytest.fixture
def pgp3(make_table: Any, shift: Any, pit_boss: Any, other_dealer: Any) -> Table:
    """Olly's table."""
    table = make_table(name="PGP-3", game="paigow_poker", seat_count=6)
    return table_assign_dealer(actor=pit_boss, table=table, dealer=other_dealer)


@pytest.fixture
def lee(dealer: Any) -> Player:
    return player_create(actor=dealer, name="Mr Lee", card_number="1001", tier="Gold")


@pytest.fixture
def wong(dealer: Any) -> Player:
    return player_create(actor=dealer, name="Ms Wong", card_number="2002", tier="Silver")


@pytest.fixture
def lee_at_3(pgp: Table, dealer: Any, lee: Player) -> RatingSession:
    """Mr Lee rated at seat 3 of PGP-1."""
    return session_start(actor=dealer, player=lee, table=pgp, seat=3)


# --- who may ---------------------------------------------------------------------------------------------


def test_the_tables_dealer_sees_the_rated_seats_and_the_tablet_shows_who_sits_where(
    pgp: Table, dealer: Any, lee_at_3: RatingSession
) -> None:
    client = signed_in(dealer)
    tablet = text(client.get(f"/dealer/tables/{pgp.pk}/"))
    assert f'href="{_players(pgp)}"' in tablet and "data-rating-strip" in tablet
    assert 'data-rated-seat="3"' in tablet and "Mr Lee" in tablet and "Gold" in tablet
    response = client.get(_players(pgp))
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    page = text(response)
    assert "Rated players at PGP-1" in page and 'data-rated-seat="3"' in page
    assert "Mr Lee" in page and "Gold" in page and "playing" in page and "Break" in page
    assert "Seat a player" in page and "Enrol a new player" in page


def test_a_table_with_no_rated_player_says_so_on_the_tablet_and_the_page(pgp: Table, dealer: Any) -> None:
    client = signed_in(dealer)
    assert "No rated player at this table." in text(client.get(f"/dealer/tables/{pgp.pk}/"))
    assert "No rated player at this table. Seat one" in text(client.get(_players(pgp)))


@pytest.mark.parametrize(
    ("method", "rest", "data"),
    [
        ("get", "", {}),
        ("get", "?q=1001", {}),
        ("post", "seat/", {"player": "{lee}", "seat": "1"}),
        ("post", "enrol/", {"name": "Ms New", "tier": "Gold", "seat": "1"}),
        ("post", "{session}/break/", {}),
        ("post", "{session}/move/", {"to": "{table}-5"}),
        ("post", "{session}/end/", {"walk_with": "250"}),
    ],
)
@pytest.mark.parametrize("who", ["other_dealer", "auditor", "cora", "conn"])
def test_who_may_not_act_at_the_table_gets_the_tablets_403_page_and_writes_nothing(
    request: Any,
    pgp: Table,
    lee: Player,
    lee_at_3: RatingSession,
    make_user: Any,
    who: str,
    method: str,
    rest: str,
    data: dict[str, str],
) -> None:
    users = {"cora": (Role.CAGE_CASHIER,), "conn": (Role.COUNT_TEAM,)}
    user = make_user(f"{who}_x", *users[who]) if who in users else request.getfixturevalue(who)
    client = signed_in(user)
    values = {"lee": lee.pk, "session": lee_at_3.pk, "table": pgp.pk}
    form = {name: value.format(**values) for name, value in data.items()} | {"form_key": KEY}
    with nothing_written():
        response = getattr(client, method)(_players(pgp, rest.format(**values)), form)
    assert response.status_code == 403
    body = text(response)
    assert "Back to my tables" in body and "Mr Lee" not in body
    if who == "other_dealer":
        assert "Table PGP-1 is not your table: only its dealer or a supervisor may rate players" in body
    else:
        assert "may rate players at this table" in body


def test_a_supervisor_may_act_at_any_table_and_signed_out_is_sent_to_sign_in(
    pgp: Table, floor_supervisor: Any, lee_at_3: RatingSession, client: Any
) -> None:
    assert client.get(_players(pgp)).status_code == 302
    response = client.post(_players(pgp, f"{lee_at_3.pk}/break/"), {"form_key": KEY})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    fred = signed_in(floor_supervisor)
    _done(fred.post(_players(pgp, f"{lee_at_3.pk}/break/"), {"form_key": KEY}), pgp, fred, "is on a break")


def test_a_dealer_sees_name_and_tier_and_time_not_money_figures_nor_card_number(
    pgp: Table, dealer: Any, lee_at_3: RatingSession
) -> None:
    RatingSession.objects.filter(pk=lee_at_3.pk).update(
        running_since=timezone.now() - dt.timedelta(minutes=65, seconds=10),
        seconds_played=0,
        win_loss_cents=-123_456,
        wagered_cents=987_654,
        theo_millicents=4_321_000,
        chips_in_cents=55_500,
    )
    page = text(signed_in(dealer).get(_players(pgp)))
    assert "1 h 05 min" in page
    for secret in (f"1{THIN}234.56", f"9{THIN}876.54", "43.21", "555.00", "1001"):
        assert secret not in page


# --- finding and seating a player --------------------------------------------------------------------------


def test_a_card_swiped_finds_the_player_picked_and_a_name_finds_every_match(
    pgp: Table, dealer: Any, lee: Player, wong: Player
) -> None:
    client = signed_in(dealer)
    page = text(client.get(_players(pgp), {"q": " 1001 "}))
    assert f'data-found="{lee.pk}"' in page and f'data-found="{wong.pk}"' not in page
    assert f'value="{lee.pk}" checked' in page  # the one player found is picked
    player_create(actor=dealer, name="Mrs Leeson", tier="Bronze")
    page = text(client.get(_players(pgp), {"q": "lee"}))
    assert "Mr Lee" in page and "Mrs Leeson" in page and "Ms Wong" not in page and " checked" not in page
    for seat in ("1", "2", "4", "5", "6"):
        assert f'name="seat" value="{seat}"' in page


def test_nobody_found_starts_the_enrolment_with_what_was_typed(pgp: Table, dealer: Any) -> None:
    client = signed_in(dealer)
    page = text(client.get(_players(pgp), {"q": "Ms Nobody"}))
    assert "Nobody found for “Ms Nobody”" in page and 'id="enrol" open' in page
    assert 'name="name" autocomplete="off" maxlength="120" value="Ms Nobody"' in page
    page = text(client.get(_players(pgp), {"q": "77-1234"}))
    assert 'name="card_number" autocomplete="off" maxlength="32" value="77-1234"' in page


def test_a_player_found_is_seated_with_the_chips_they_brought(pgp: Table, dealer: Any, lee: Player) -> None:
    client = signed_in(dealer)
    response = client.post(
        _players(pgp, "seat/"), {"q": "1001", "player": str(lee.pk), "seat": "2", "chips": "250.50", "form_key": KEY}
    )
    page = _done(response, pgp, client, "Mr Lee (Gold) is rated at seat 2. Chips brought: 250.50.")
    session = RatingSession.objects.get(player=lee)
    assert (session.status, session.chips_in_cents, session.started_by) == ("playing", 25_050, dealer)
    assert list(RatingSeat.objects.values_list("table_id", "seat_number", "ended_at")) == [(pgp.pk, 2, None)]
    assert 'data-rated-seat="2"' in page and 'name="seat" value="2"' not in page  # seat 2 is no longer free
    assert "0 min" in page


def test_a_player_in_a_session_is_shown_where_and_cannot_be_picked(
    pgp: Table, pgp2: Table, dealer: Any, lee: Player
) -> None:
    session_start(actor=dealer, player=lee, table=pgp2, seat=4)
    page = text(signed_in(dealer).get(_players(pgp), {"q": "1001"}))
    assert "in a session at PGP-2, seat 4" in page and f'value="{lee.pk}" disabled' in page


@pytest.mark.parametrize(
    ("data", "status", "message"),
    [
        ({"seat": "2"}, 400, "Tap the player to seat (search for them first)."),
        ({"player": "999999", "seat": "2"}, 400, "That player is not enrolled: search again."),
        ({"player": "{lee}"}, 400, "Tap the seat the player sits at."),
        ({"player": "{lee}", "seat": "two"}, 400, "A seat is a number, not &#x27;two&#x27;."),
        ({"player": "{lee}", "seat": "7"}, 400, "Table PGP-1 has seats 1 to 6, not 7."),
        ({"player": "{lee}", "seat": "0"}, 400, "Table PGP-1 has seats 1 to 6, not 0."),
        ({"player": "{lee}", "seat": "3"}, 409, "Seat 3 at table PGP-1 is rated for another player already."),
        ({"player": "{lee}", "seat": "2", "chips": "12,500"}, 400, "Write an amount in units and cents, like 25.00"),
        ({"player": "{lee}", "seat": "2", "chips": "-5"}, 400, "Write an amount in units and cents"),
        ({"player": "{lee}", "seat": "2", "chips": "99999999999"}, 400, "Write an amount in units and cents"),
    ],
)
def test_a_bad_seating_is_refused_keeping_what_was_typed(
    pgp: Table, dealer: Any, lee: Player, wong: Player, data: dict[str, str], status: int, message: str
) -> None:
    session_start(actor=dealer, player=wong, table=pgp, seat=3)
    form = {name: value.format(lee=lee.pk) for name, value in data.items()} | {"q": "1001", "form_key": KEY}
    client = signed_in(dealer)
    with nothing_written():
        body = _refused(client.post(_players(pgp, "seat/"), form), status, message)
    assert f'data-found="{lee.pk}"' in body  # the search is still there
    if "chips" in data:
        assert f'value="{data["chips"]}"' in body


def test_a_player_already_in_a_session_or_a_closed_table_is_refused(
    pgp: Table, pgp2: Table, dealer: Any, pit_boss: Any, lee: Player
) -> None:
    session_start(actor=dealer, player=lee, table=pgp2, seat=4)
    client = signed_in(dealer)
    form = {"player": str(lee.pk), "seat": "1", "form_key": KEY}
    with nothing_written():
        _refused(client.post(_players(pgp, "seat/"), form), 409, "This player is in a rating session already")
    wong = player_create(actor=dealer, name="Ms Wong", tier="Silver")
    table_close(actor=pit_boss, table=pgp)
    page = text(client.get(_players(pgp)))
    assert "Table PGP-1 is closed: players are seated at an open table." in page
    with nothing_written():
        _refused(
            client.post(_players(pgp, "seat/"), {"player": str(wong.pk), "seat": "1", "form_key": KEY}),
            409,
            "Table PGP-1 is closed",
        )


# --- enrolling a player, then seating them ------------------------------------------------------------------


def test_a_new_player_is_enrolled_and_seated_in_one_tap(pgp: Table, dealer: Any) -> None:
    client = signed_in(dealer)
    form = {"name": " Ms  Chan ", "card_number": "3003", "tier": "Platinum", "seat": "5", "chips": "", "form_key": KEY}
    _done(client.post(_players(pgp, "enrol/"), form), pgp, client, "Enrolled. Ms Chan (Platinum) is rated at seat 5.")
    player = Player.objects.get()
    assert (player.name, player.card_number, player.tier, player.anonymous) == ("Ms Chan", "3003", "Platinum", False)
    session = RatingSession.objects.get(player=player)
    assert (session.chips_in_cents, session.seats.get().seat_number) == (0, 5)
    assert f'data-found="{player.pk}"' in text(client.get(_players(pgp), {"q": "3003"}))


def test_an_anonymous_player_is_enrolled_and_shown_by_number(pgp: Table, dealer: Any) -> None:
    client = signed_in(dealer)
    form = {"anonymous": "1", "tier": "Bronze", "seat": "1", "chips": "100", "form_key": KEY}
    response = client.post(_players(pgp, "enrol/"), form)
    player = Player.objects.get()
    page = _done(response, pgp, client, f"anonymous player {player.pk} (Bronze) is rated at seat 1.")
    assert player.anonymous and player.name == "" and player.card_number is None
    assert f"anonymous player {player.pk}" in text(client.get(f"/dealer/tables/{pgp.pk}/"))
    assert "Chips brought: 100.00." in page


@pytest.mark.parametrize(
    ("data", "status", "message"),
    [
        ({"name": "Ms Chan", "seat": "1"}, 400, "Tap the player&#x27;s tier."),
        ({"name": "Ms Chan", "tier": "Diamond", "seat": "1"}, 400, "The tiers are Bronze, Silver, Gold, Platinum"),
        ({"tier": "Gold", "seat": "1"}, 400, "Say the player&#x27;s name, or enrol them as anonymous."),
        ({"name": "Ms Chan", "tier": "Gold"}, 400, "Tap the seat the player sits at."),
        ({"name": "Ms Chan", "anonymous": "1", "tier": "Gold", "seat": "1"}, 400, "An anonymous player has no name"),
        ({"name": "Ms Chan", "card_number": "1001", "tier": "Gold", "seat": "1"}, 409, "Card number 1001 belongs"),
        # The seat is refused after the player would be enrolled: the two are one transaction, nobody is enrolled.
        ({"name": "Ms Chan", "tier": "Gold", "seat": "3"}, 409, "Seat 3 at table PGP-1 is rated"),
        ({"name": "Ms Chan", "tier": "Gold", "seat": "9"}, 400, "Table PGP-1 has seats 1 to 6, not 9."),
        ({"name": "Ms Chan", "tier": "Gold", "seat": "1", "chips": "1.234"}, 400, "Write an amount in units"),
    ],
)
def test_a_bad_enrolment_is_refused_keeping_what_was_typed_and_enrols_nobody(
    pgp: Table, dealer: Any, lee_at_3: RatingSession, data: dict[str, str], status: int, message: str
) -> None:
    client = signed_in(dealer)
    with nothing_written():
        body = _refused(client.post(_players(pgp, "enrol/"), data | {"form_key": KEY}), status, message)
    assert 'id="enrol" open' in body
    if data.get("name"):
        assert f'value="{data["name"]}"' in body


# --- a break, back, a move, the end ------------------------------------------------------------------------


def test_a_break_then_back_then_a_move_then_the_end_with_what_the_player_walked_with(
    pgp: Table, pgp2: Table, dealer: Any, lee_at_3: RatingSession
) -> None:
    client = signed_in(dealer)
    session = lee_at_3
    page = _done(
        client.post(_players(pgp, f"{session.pk}/break/"), {"form_key": KEY}),
        pgp,
        client,
        "Mr Lee at seat 3 is on a break.",
    )
    assert "on a break" in page and "Back from break" in page
    session.refresh_from_db()
    assert session.status == "paused" and RatingPause.objects.filter(ended_at__isnull=True).count() == 1
    assert "on a break" in text(client.get(f"/dealer/tables/{pgp.pk}/"))  # the tablet's strip says so

    _done(
        client.post(_players(pgp, f"{session.pk}/back/"), {"form_key": KEY}), pgp, client, "Mr Lee at seat 3 is back."
    )
    session.refresh_from_db()
    assert session.status == "playing" and not RatingPause.objects.filter(ended_at__isnull=True).exists()

    page = text(client.get(_players(pgp)))
    assert f'value="{pgp2.pk}-1"' in page and f'value="{pgp.pk}-3"' not in page  # free seats only
    response = client.post(_players(pgp, f"{session.pk}/move/"), {"to": f"{pgp2.pk}-4", "form_key": KEY})
    page = _done(response, pgp, client, "Mr Lee moves to table PGP-2, seat 4.")
    assert 'data-rated-seat="3"' not in page
    assert 'data-rated-seat="4"' in text(client.get(_players(pgp2)))
    assert list(RatingSeat.objects.order_by("pk").values_list("table__name", "seat_number")) == [
        ("PGP-1", 3),
        ("PGP-2", 4),
    ]

    response = client.post(_players(pgp2, f"{session.pk}/end/"), {"walk_with": "1250.5", "form_key": KEY})
    page = _done(response, pgp2, client, f"Mr Lee leaves seat 4 with 1{THIN}250.50: the session has ended.")
    session.refresh_from_db()
    assert (session.status, session.walk_with_cents) == ("ended", 125_050)
    assert "No rated player at this table." in page
    events = list(AuditEvent.objects.filter(subject_type="players.ratingsession").values_list("event_type", flat=True))
    assert events == ["rating.started", "rating.paused", "rating.resumed", "rating.moved", "rating.ended"]


def test_a_session_ends_without_saying_what_the_player_walked_with(
    pgp: Table, dealer: Any, lee_at_3: RatingSession
) -> None:
    client = signed_in(dealer)
    response = client.post(_players(pgp, f"{lee_at_3.pk}/end/"), {"walk_with": "  ", "form_key": KEY})
    _done(response, pgp, client, "Mr Lee leaves seat 3: the session has ended.")
    lee_at_3.refresh_from_db()
    assert (lee_at_3.status, lee_at_3.walk_with_cents) == ("ended", None)


def test_a_player_moves_to_another_seat_at_the_same_table(pgp: Table, dealer: Any, lee_at_3: RatingSession) -> None:
    client = signed_in(dealer)
    response = client.post(_players(pgp, f"{lee_at_3.pk}/move/"), {"to": f"{pgp.pk}-6", "form_key": KEY})
    page = _done(response, pgp, client, "Mr Lee moves to table PGP-1, seat 6.")
    assert 'data-rated-seat="6"' in page and 'data-rated-seat="3"' not in page


@pytest.mark.parametrize(
    ("rest", "data", "status", "message"),
    [
        ("back/", {}, 409, "This session is playing: only a session on a break resumes."),
        ("move/", {"to": ""}, 400, "Choose the table and the seat the player moves to."),
        ("move/", {"to": "PGP-2 seat 4"}, 400, "Choose the table and the seat the player moves to."),
        ("move/", {"to": "999999-1"}, 400, "That table is not on the floor: choose another."),
        ("move/", {"to": "{pgp}-3"}, 409, "The player sits at seat 3 of table PGP-1 already."),
        ("move/", {"to": "{pgp}-1"}, 409, "Seat 1 at table PGP-1 is rated for another player already."),
        ("move/", {"to": "{pgp}-8"}, 400, "Table PGP-1 has seats 1 to 6, not 8."),
        ("move/", {"to": "{pgp3}-1"}, 403, "Table PGP-3 is not your table"),
        ("move/", {"to": "{closed}-1"}, 409, "Table PGP-9 is closed"),
        ("end/", {"walk_with": "250,000"}, 400, "Write an amount in units and cents, like 25.00"),
        ("end/", {"walk_with": "lots"}, 400, "Write an amount in units and cents"),
        ("end/", {"walk_with": "99999999999"}, 400, "Write an amount in units and cents"),
    ],
)
def test_a_bad_break_move_or_end_is_refused_in_the_users_words_and_writes_nothing(
    pgp: Table,
    pgp3: Table,
    make_table: Any,
    dealer: Any,
    wong: Player,
    lee_at_3: RatingSession,
    rest: str,
    data: dict[str, str],
    status: int,
    message: str,
) -> None:
    closed = make_table(name="PGP-9", game="paigow_poker", seat_count=6, open_it=False)
    session_start(actor=dealer, player=wong, table=pgp, seat=1)
    values = {"pgp": pgp.pk, "pgp3": pgp3.pk, "closed": closed.pk}
    form = {name: value.format(**values) for name, value in data.items()} | {"form_key": KEY}
    client = signed_in(dealer)
    with nothing_written():
        body = _refused(client.post(_players(pgp, f"{lee_at_3.pk}/{rest}"), form), status, message)
    if "walk_with" in data:
        assert f'value="{data["walk_with"]}"' in body  # kept, in the End form left open
    assert 'data-rated-seat="3"' in body


def test_an_out_of_date_page_is_refused_when_the_player_moved_or_left_meanwhile(
    pgp: Table, pgp2: Table, dealer: Any, lee_at_3: RatingSession
) -> None:
    client = signed_in(dealer)
    page = text(client.get(_players(pgp)))  # drawn with Mr Lee at seat 3
    assert "data-break" in page
    session_pause(actor=dealer, session=lee_at_3)  # on another device
    with nothing_written():
        _refused(
            client.post(_players(pgp, f"{lee_at_3.pk}/break/"), {"form_key": KEY}),
            409,
            "This session is on a break: only a session playing takes a break.",
        )
    session_move(actor=dealer, session=lee_at_3, table=pgp2, seat=2)
    for rest in ("back/", "end/", "move/"):
        with nothing_written():
            _refused(
                client.post(_players(pgp, f"{lee_at_3.pk}/{rest}"), {"to": f"{pgp.pk}-5", "form_key": KEY}),
                409,
                "That player is not rated at table PGP-1 now: the page was out of date.",
            )
    session_end(actor=dealer, session=lee_at_3)
    with nothing_written():
        _refused(
            client.post(_players(pgp2, f"{lee_at_3.pk}/end/"), {"form_key": KEY}),
            409,
            "That player is not rated at table PGP-2 now",
        )
    assert client.post(_players(pgp, "999999/end/"), {"form_key": KEY}).status_code == 404


def test_another_dealers_player_cannot_be_moved_from_here_nor_a_session_of_another_table(
    pgp: Table, pgp3: Table, dealer: Any, other_dealer: Any, wong: Player
) -> None:
    wong_at_olly = session_start(actor=other_dealer, player=wong, table=pgp3, seat=2)
    client = signed_in(dealer)
    with nothing_written():
        _refused(
            client.post(_players(pgp, f"{wong_at_olly.pk}/end/"), {"form_key": KEY}),
            409,
            "That player is not rated at table PGP-1 now",
        )


# --- the same form twice, Back, and the garbage ------------------------------------------------------------


def test_a_double_tap_seats_once_and_a_break_is_taken_once(pgp: Table, dealer: Any, lee: Player) -> None:
    client = signed_in(dealer)
    form = {"player": str(lee.pk), "seat": "2", "form_key": KEY}
    first = client.post(_players(pgp, "seat/"), form)
    second = client.post(_players(pgp, "seat/"), form)
    assert first.status_code == second.status_code == 302
    assert RatingSession.objects.count() == 1 and RatingSeat.objects.count() == 1
    assert "This form was already sent: it is done once." in text(client.get(_players(pgp)))
    session = RatingSession.objects.get()
    for _ in range(2):
        assert client.post(_players(pgp, f"{session.pk}/break/"), {"form_key": OTHER_KEY}).status_code == 302
    assert RatingPause.objects.count() == 1
    assert AuditEvent.objects.filter(event_type="rating.paused").count() == 1


def test_back_after_an_end_and_sending_it_again_ends_nothing_more(
    pgp: Table, dealer: Any, lee_at_3: RatingSession
) -> None:
    client = signed_in(dealer)
    form = {"walk_with": "250", "form_key": KEY}
    _done(client.post(_players(pgp, f"{lee_at_3.pk}/end/"), form), pgp, client, "with 250.00")
    with nothing_written():  # Back, then the browser sends the form again
        again = client.post(_players(pgp, f"{lee_at_3.pk}/end/"), form)
    assert again.status_code == 302
    assert "This form was already sent" in text(client.get(_players(pgp)))
    lee_at_3.refresh_from_db()
    assert (lee_at_3.status, lee_at_3.walk_with_cents) == ("ended", 25_000)


def test_a_refused_form_corrected_is_taken_with_the_same_key(pgp: Table, dealer: Any, lee: Player) -> None:
    client = signed_in(dealer)
    form = {"player": str(lee.pk), "seat": "12", "form_key": KEY}
    assert client.post(_players(pgp, "seat/"), form).status_code == 400
    assert client.post(_players(pgp, "seat/"), form | {"seat": "1"}).status_code == 302
    assert RatingSeat.objects.get().seat_number == 1


@pytest.mark.parametrize(
    "form",
    [
        {"player": "1" * 40, "seat": "1" * 40, "chips": "9" * 400, "q": "x" * 5000},
        {"player": "-1", "seat": "-1"},
        {"player": "1e3", "seat": "1.5"},
        {"player": "\x00", "seat": "\x00", "chips": "\x00"},
    ],
)
def test_garbage_is_refused_never_a_500(pgp: Table, dealer: Any, form: dict[str, str]) -> None:
    client = signed_in(dealer)
    with nothing_written():
        response = client.post(_players(pgp, "seat/"), form | {"form_key": KEY})
        assert response.status_code == 400  # a NUL byte is refused before the view (casino.middleware)
        response = client.post(
            _players(pgp, "enrol/"), {k: v for k, v in form.items() if k != "player"} | {"tier": "x"}
        )
        assert response.status_code == 400
        assert client.get(_players(pgp), {"q": form.get("q", "\x00")}).status_code in (200, 400)


def test_the_page_costs_the_same_few_queries_however_many_players_it_shows(
    pgp: Table, pgp2: Table, dealer: Any, django_assert_max_num_queries: Any
) -> None:
    client = signed_in(dealer)
    client.get(_players(pgp))  # the session and the user, read once
    for seat in range(1, 6):
        player = player_create(actor=dealer, name=f"Mr Lee {seat}", card_number=f"10{seat}", tier="Gold")
        session_start(actor=dealer, player=player, table=pgp if seat < 4 else pgp2, seat=seat)
    with django_assert_max_num_queries(10):
        page = text(client.get(_players(pgp), {"q": "lee"}))
    assert page.count("data-rated-seat=") == 3 and page.count("data-found=") == 5


def test_the_tablet_still_reads_in_a_fixed_number_of_queries_with_its_rated_seats(
    pgp: Table, dealer: Any, lee_at_3: RatingSession, django_assert_max_num_queries: Any
) -> None:
    client = signed_in(dealer)
    client.get(f"/dealer/tables/{pgp.pk}/")
    with django_assert_max_num_queries(15):
        assert "Mr Lee" in text(client.get(f"/dealer/tables/{pgp.pk}/"))
