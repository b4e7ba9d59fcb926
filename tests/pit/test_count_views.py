"""The count room: the closed shifts' drop boxes, counted twice from the screen by two members of the
Count team, independently (the second never sees the first count's figures), final when the two agree.

Personas: Dana deals PGP-1 and takes the buy-ins; Paula the Pit boss closes the shift; Carl and Cleo count; Fred the
Floor supervisor and Alex the auditor read; Cora the Cage cashier and Dana are refused the room.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils.html import escape

from casino.models import Shift
from casino.roles import Role
from casino.services import shift_close, shift_open
from tables.drop import buy_in_record, drop_count_record
from tables.models import DropCount, Table
from tests.markers import marker_buy_in

pytestmark = pytest.mark.django_db

# 37 twenties and 5 hundreds (1,240.00), markers 123.45, promotional chips 25.00: figures no label on the page shows.
COUNT = {"note_2000": "37", "note_10000": "5", "markers": "123.45", "promo": "25.00"}
CASH = {2000: 37, 10000: 5}


@pytest.fixture
def carl(make_user: Callable[..., User]) -> User:
    return make_user("carl_count", Role.COUNT_TEAM)


@pytest.fixture
def cleo(make_user: Callable[..., User]) -> User:
    return make_user("cleo_count", Role.COUNT_TEAM)


@pytest.fixture
def cora(make_user: Callable[..., User]) -> User:
    return make_user("cora_cage", Role.CAGE_CASHIER)


@pytest.fixture
def closed(shift: Shift, make_table: Callable[..., Table], dealer: User, pit_boss: User) -> dict[str, Any]:
    """The Day shift, closed: PGP-1 took two buy-ins (its box to count); PGP-2 stood open and took nothing."""
    pgp = make_table(name="PGP-1", game="paigow_poker", seat_count=6)
    idle = make_table(name="PGP-2", game="paigow_poker", seat_count=6)
    buy_in_record(actor=dealer, table=pgp, seat=1, medium="cash", amount_cents=124_000)
    marker_buy_in(table=pgp, seat=2, amount_cents=12_345, asked_by=dealer, issued_by=pit_boss)
    shift_close(actor=pit_boss, shift=shift)
    return {"shift": shift, "pgp": pgp, "idle": idle, "url": f"/count/{shift.pk}/{pgp.pk}/"}


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def box_html(page: str, closed: dict[str, Any]) -> str:
    match = re.search(rf'<article [^>]*id="box-{closed["shift"].pk}-{closed["pgp"].pk}".*?</article>', page, re.S)
    assert match is not None
    return match.group(0)


def test_the_count_team_sees_each_box_with_money_in_it_and_a_form_to_count_it(closed, carl) -> None:  # type: ignore[no-untyped-def]
    response = signed_in(carl).get("/count/")

    assert response.status_code == 200
    page = response.content.decode()
    assert "Day shift, gaming day 2025-03-01" in page
    box = box_html(page, closed)
    assert "Table PGP-1" in box and "not counted" in box and "Not counted yet." in box
    assert f'action="/count/{closed["shift"].pk}/{closed["pgp"].pk}/#box-' in box
    for note in ("1.00", "2.00", "5.00", "10.00", "20.00", "50.00", "100.00", "200.00", "500.00"):
        assert f">{note}</label>" in box
    assert 'name="markers"' in box and 'name="promo"' in box and "Record count" in box
    assert "Table PGP-2" not in page  # nothing moved at PGP-2: no box to count
    assert "Read only" not in page


def test_an_open_shifts_boxes_wait_for_its_close(shift, make_table, dealer, carl) -> None:  # type: ignore[no-untyped-def]
    pgp = make_table(name="PGP-1", game="paigow_poker", seat_count=6)
    buy_in_record(actor=dealer, table=pgp, seat=1, medium="cash", amount_cents=10_000)
    client = signed_in(carl)

    assert "No closed shift has a drop box to count." in client.get("/count/").content.decode()
    refused = client.post(f"/count/{shift.pk}/{pgp.pk}/", COUNT)
    assert refused.status_code == 409
    assert "The Day shift is still open: its drop boxes are counted once it closes." in refused.content.decode()
    assert not DropCount.objects.exists()


@pytest.mark.parametrize(
    ("persona", "status"),
    [("carl", 200), ("floor_supervisor", 200), ("pit_boss", 200), ("auditor", 200), ("cora", 403), ("dealer", 403)],
)
def test_who_may_open_the_count_room(request, closed, persona, status) -> None:  # type: ignore[no-untyped-def]
    response = signed_in(request.getfixturevalue(persona)).get("/count/")

    assert response.status_code == status
    if status == 200 and persona != "carl":  # supervisors and auditors read: no form
        page = response.content.decode()
        assert "Read only" in page and "Table PGP-1" in page and "Record count" not in page


def test_a_count_redirects_to_its_box_and_the_second_counter_sees_who_counted_not_the_figures(  # type: ignore[no-untyped-def]
    closed, carl, cleo
) -> None:
    client = signed_in(carl)
    response = client.post(closed["url"], COUNT)

    assert response.status_code == 302
    assert response["Location"] == f"/count/#box-{closed['shift'].pk}-{closed['pgp'].pk}"
    count = DropCount.objects.get()
    assert (count.cash, count.markers_cents, count.promo_cents, count.counted_by) == (
        {"2000": 37, "10000": 5},
        12_345,
        2_500,
        carl,
    )
    carls = client.get("/count/").content.decode()
    assert "is in: a second, independent count by another member makes the box final." in carls
    assert "Yours: a second" in box_html(carls, closed) and "Record count" not in box_html(carls, closed)
    box = box_html(signed_in(cleo).get("/count/").content.decode(), closed)
    assert "counted once" in box and "One count is in, by carl_count." in box and "Record count" in box
    assert "123.45" not in box and "1\u2009240.00" not in box and 'value="37"' not in box and "25.00" not in box


def test_a_second_count_by_the_same_member_is_refused_with_what_was_typed_kept(closed, carl) -> None:  # type: ignore[no-untyped-def]
    client = signed_in(carl)
    client.post(closed["url"], COUNT)

    again = client.post(closed["url"], {**COUNT, "note_2000": "36"})

    assert again.status_code == 403
    page = again.content.decode()
    assert "You counted the drop box of table PGP-1 already: a second, independent count is another person" in page
    box = box_html(page, closed)
    assert "refused" in box and 'value="36"' in box and 'value="123.45"' in box
    assert DropCount.objects.count() == 1


def test_two_counts_that_agree_make_the_box_final_and_show_its_drop(closed, carl, cleo, auditor) -> None:  # type: ignore[no-untyped-def]
    signed_in(carl).post(closed["url"], COUNT)
    client = signed_in(cleo)

    response = client.post(closed["url"], COUNT, follow=True)

    page = response.content.decode()
    assert "The drop box of table PGP-1, Day shift, is final: the drop is 1\u2009363.45." in page
    box = box_html(page, closed)
    assert "final" in box and "1\u2009363.45" in box and "Record count" not in box
    assert "cash 1\u2009240.00 · markers 123.45 · promotional chips 25.00" in box
    assert "Counted by carl_count, cleo_count." in box
    assert "1\u2009363.45" in box_html(signed_in(auditor).get("/count/").content.decode(), closed)
    final = client.post(closed["url"], COUNT)
    assert final.status_code in (403, 409)  # Cleo counted it, and it is final: either refusal writes nothing
    assert DropCount.objects.count() == 2


def test_counts_that_disagree_ask_for_a_third_without_showing_either(closed, carl, cleo, make_user) -> None:  # type: ignore[no-untyped-def]
    signed_in(carl).post(closed["url"], COUNT)

    response = signed_in(cleo).post(closed["url"], {**COUNT, "note_2000": "36"}, follow=True)

    assert "does not agree with an earlier count: another member counts the box again." in response.content.decode()
    dora = make_user("dora_count", Role.COUNT_TEAM)
    box = box_html(signed_in(dora).get("/count/").content.decode(), closed)
    assert "counts disagree" in box and "The counts by carl_count, cleo_count disagree" in box
    assert "Record count" in box and 'value="36"' not in box and "123.45" not in box


def test_a_supervisor_reads_but_the_service_refuses_their_count(closed, floor_supervisor) -> None:  # type: ignore[no-untyped-def]
    response = signed_in(floor_supervisor).post(closed["url"], COUNT)

    assert response.status_code == 403
    assert "Only a Count team may count a drop box." in response.content.decode()
    assert not DropCount.objects.exists()


def test_the_cage_and_the_dealer_cannot_post_a_count(closed, cora, dealer) -> None:  # type: ignore[no-untyped-def]
    for user in (cora, dealer):
        assert signed_in(user).post(closed["url"], COUNT).status_code == 403
    assert Client().post(closed["url"], COUNT).status_code == 302  # to the sign-in page
    assert not DropCount.objects.exists()


@pytest.mark.parametrize(
    ("typed", "status", "said"),
    [
        ({"note_2000": "abc"}, 400, "A count is a whole number of notes from 0 to 100\u2009000, not &#x27;abc&#x27;"),
        ({"note_2000": "-3"}, 400, "not -3 (20.00 notes)."),
        ({"note_2000": "2.5"}, 400, "not &#x27;2.5&#x27; (20.00 notes)."),
        ({"note_2000": "100001"}, 400, "not 100001 (20.00 notes)."),
        ({"note_2000": "9" * 40}, 400, "not &#x27;999999999999999999999999…&#x27;"),
        ({"note_2000": "\u0663"}, 400, "A count is a whole number of notes"),  # an Arabic-Indic three
        ({"markers": "abc"}, 400, "Write an amount in units and cents, like 25.00, not &#x27;abc&#x27;."),
        ({"markers": "-5.00"}, 400, "Write an amount in units and cents, like 25.00, not &#x27;-5.00&#x27;."),
        ({"markers": "12.345"}, 400, "Write an amount in units and cents"),
        ({"markers": "1000000.01"}, 400, "An amount is at most 1\u2009000\u2009000.00."),
        ({"promo": "9" * 30}, 400, "Write an amount in units and cents"),
    ],
)
def test_what_is_not_a_count_is_refused_kept_and_writes_nothing(closed, carl, typed, status, said) -> None:  # type: ignore[no-untyped-def]
    response = signed_in(carl).post(closed["url"], {**COUNT, **typed})

    assert response.status_code == status
    page = response.content.decode()
    assert page.count(said) == 1  # said once: the service's words above, or the form's beside the field
    box = box_html(page, closed)
    [(name, value)] = typed.items()
    assert "refused" in box and f'name="{name}" value="{escape(value)}"' in box
    marked = re.search(rf'<div class="(note|amount) has-error">\s*<label for="[^"]*-{name}"', box)
    assert marked is not None, "the field is marked"
    assert name == "note_2000" or 'name="note_2000" value="37"' in box
    assert not DropCount.objects.exists()


def test_markers_and_promotional_chips_left_empty_count_as_none_like_the_notes(closed, carl) -> None:  # type: ignore[no-untyped-def]
    response = signed_in(carl).post(closed["url"], {**COUNT, "markers": "", "promo": "   "})

    assert response.status_code == 302
    count = DropCount.objects.get()
    assert count.markers_cents == 0 and count.promo_cents == 0


def test_fields_missing_altogether_or_unknown_never_fail(closed, carl) -> None:  # type: ignore[no-untyped-def]
    client = signed_in(carl)

    nothing = client.post(closed["url"], {})
    assert nothing.status_code == 400 and "Nothing was typed" in nothing.content.decode()
    assert client.post(closed["url"], {**COUNT, "note_2000": "3\x00"}).status_code == 400  # the site refuses a NUL
    assert client.post(closed["url"], {"markers": "0", "promo": "0", "note_300": "4", "junk": "x"}).status_code == 302
    assert DropCount.objects.get().cash == {}  # an empty box, counted as one; the unknown fields ignored
    assert client.post("/count/999999/1/", COUNT).status_code == 404
    assert client.post(f"/count/{closed['shift'].pk}/999999/", COUNT).status_code == 404
    assert client.get(closed["url"]).status_code == 405


def test_the_room_lists_the_last_closed_shifts_newest_first_in_a_fixed_number_of_queries(  # type: ignore[no-untyped-def]
    closed, carl, cleo, pit_boss, dealer
) -> None:
    client = signed_in(carl)
    client.get("/count/")

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get("/count/").status_code == 200
        return len(captured)

    few = queries()
    swing = shift_open(actor=pit_boss, name="Swing")
    buy_in_record(actor=dealer, table=closed["idle"], seat=1, medium="cash", amount_cents=5_000)
    buy_in_record(actor=dealer, table=closed["pgp"], seat=1, medium="cash", amount_cents=5_000)
    shift_close(actor=pit_boss, shift=swing)
    drop_count_record(actor=cleo, table=closed["pgp"], shift=swing, cash={500: 10}, markers_cents=0, promo_cents=0)

    assert queries() == few <= 10
    page = client.get("/count/").content.decode()
    assert page.index("Swing shift, gaming day") < page.index("Day shift, gaming day")
    assert page.count("Table PGP-2") == 1 and page.count("Table PGP-1") == 2
