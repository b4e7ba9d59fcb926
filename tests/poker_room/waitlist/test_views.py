"""The desk's page and the room display with its kiosk: who may see and who may act; a form sent twice is recorded
once; a refusal is drawn in the banner with what was typed kept; the screen shows initials and never a name, refuses
a forged address, and its kiosk takes a guest's name within its limits; the beat task marks the no-shows."""

from __future__ import annotations

import html
import re
from unittest import mock

import pytest
from django.db import connection
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from casino.errors import WrongState
from casino.roles import Role
from players.services import player_create
from poker_room.tasks import waitlist_no_shows_task
from poker_room.waitlist import services
from poker_room.waitlist.models import CashGame, WaitlistEntry
from poker_room.waitlist.views import kiosk_reserve, screen_address
from tests.faults.conftest import cache_down, redis_down  # noqa: F401  (fixtures)
from tests.poker_room.waitlist.evening import at, everything

pytestmark = pytest.mark.django_db

KEY = "0123456789abcdef0123456789abcdef"
DESK = "/poker-room/waitlist/"


def signed_in(user) -> Client:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(user)
    return client


def text_of(response) -> str:  # type: ignore[no-untyped-def]
    return html.unescape(response.content.decode())


def test_the_desk_puts_a_name_down_once_however_often_the_form_is_sent(room, fred) -> None:  # type: ignore[no-untyped-def]
    client = signed_in(fred)
    form = {"form_key": KEY, "action": "put_down", "cash_game": room.pk, "name": "Jo  Lee"}
    first = client.post(DESK, form)
    again = client.post(DESK, form)
    assert first.status_code == again.status_code == 302
    assert list(WaitlistEntry.objects.values_list("name", flat=True)) == ["Jo Lee"]
    page = text_of(client.get(DESK))
    assert "Jo Lee is on the list." in page and "recorded once" in page
    assert "Jo Lee" in page and "Call the next name" in page


def test_a_rated_player_is_put_down_by_card_number_and_an_unknown_card_is_refused(room, fred, dealer) -> None:  # type: ignore[no-untyped-def]
    player_create(actor=dealer, name="Mr Lee", card_number="1001", tier="Gold")
    client = signed_in(fred)
    refused = client.post(DESK, {"form_key": KEY, "action": "put_down", "cash_game": room.pk, "card_number": "999"})
    assert refused.status_code == 400 and "No player has card number 999." in text_of(refused)
    assert 'value="999"' in refused.content.decode()  # what was typed is kept
    done = client.post(DESK, {"form_key": KEY[::-1], "action": "put_down", "cash_game": room.pk, "card_number": "1001"})
    assert done.status_code == 302
    assert WaitlistEntry.objects.get().player is not None


def test_a_refusal_is_drawn_in_the_banner_and_writes_nothing(room, fred) -> None:  # type: ignore[no-untyped-def]
    before = everything()
    answer = signed_in(fred).post(DESK, {"form_key": KEY, "action": "call", "cash_game": room.pk})
    assert answer.status_code == 409 and "Nobody is waiting on this list." in text_of(answer)
    points = signed_in(fred).post(DESK, {"form_key": KEY, "action": "open", "game": "ofc", "points": "abc"})
    assert points.status_code == 400 and 'value="abc"' in points.content.decode()
    assert everything() == before


def test_an_auditor_reads_the_desk_without_a_form_and_a_dealer_is_refused(room, fred, auditor, dealer) -> None:  # type: ignore[no-untyped-def]
    services.waitlist_put_down(actor=fred, cash_game=room, name="Anna")
    page = signed_in(auditor).get(DESK)
    assert page.status_code == 200 and "Anna" in text_of(page) and "Read only" in text_of(page)
    assert 'name="action"' not in page.content.decode()
    before = everything()
    posted = signed_in(auditor).post(DESK, {"form_key": KEY, "action": "put_down", "cash_game": room.pk, "name": "B"})
    assert posted.status_code == 403
    assert signed_in(dealer).get(DESK).status_code == 403
    assert Client().get(DESK).status_code == 302
    assert everything() == before


def test_the_room_display_shows_initials_and_never_a_name(client, room, fred, make_user) -> None:  # type: ignore[no-untyped-def]
    for name in ("Johanna van Leeuwen", "Max Ott"):
        services.waitlist_put_down(actor=fred, cash_game=room, name=name)
    services.waitlist_call(actor=fred, cash_game=room)
    page = client.get(screen_address())
    text = text_of(page)
    assert page.status_code == 200 and page["X-Robots-Tag"] == "noindex"
    assert "J. L." in text and "to table CP-1" in text and "M. O." in text
    assert "Johanna" not in text and "Leeuwen" not in text and "Max" not in text and "Ott" not in text
    assert "<script>" not in text and 'data-refresh="15"' in text  # the refresh is the static script's


@pytest.mark.parametrize("token", ["x", "card-room", "abc:def", screen_address().split("/")[-2][:-1] + "A"])
def test_a_forged_screen_address_is_refused(client, room, token) -> None:  # type: ignore[no-untyped-def]
    assert client.get(reverse("poker-room-waitlist-screen", args=[token])).status_code == 404


def test_the_kiosk_takes_a_guests_name_shows_only_initials_and_stops_after_its_limit(client, room, settings) -> None:  # type: ignore[no-untyped-def]
    settings.TABLESIDE_WAITLIST_KIOSK_NAMES = 2
    address = screen_address()
    done = client.post(address, {"name": "Greta Holm", "cash_game": room.pk}, follow=True)
    assert "G. H. is on the list for Chinese Poker." in text_of(done) and "Greta" not in text_of(done)
    entry = WaitlistEntry.objects.get()
    assert (entry.source, entry.put_down_by) == ("kiosk", None)
    bad = client.post(address, {"name": "<b>42</b>", "cash_game": room.pk})
    assert bad.status_code == 400 and "A name is written in letters." in text_of(bad)
    assert client.post(address, {"name": "Ulla Berg", "cash_game": room.pk}).status_code == 302
    before = everything()
    third = client.post(address, {"name": "Olle Lind", "cash_game": room.pk})
    assert third.status_code == 409 and "taken enough names for now" in text_of(third)
    other = client.post(address, {"name": "Olle Lind", "cash_game": "nope"})
    assert other.status_code in (400, 409)
    assert everything() == before


def test_two_guests_pressing_at_once_cannot_both_slip_under_the_kiosks_limit(client, room, settings) -> None:  # type: ignore[no-untyped-def]
    """The second guest's request arrives while the first one's name is being written: it must already find the
    address's one name taken, not the count as it stood before the first write."""
    settings.TABLESIDE_WAITLIST_KIOSK_NAMES = 1
    address = screen_address()
    write = services.waitlist_kiosk_put_down
    answers = []

    def first_write_with_a_second_guest_meanwhile(**kwargs):  # type: ignore[no-untyped-def]
        if not answers:
            answers.append(Client().post(address, {"name": "Olle Lind", "cash_game": room.pk}))
        return write(**kwargs)

    with mock.patch.object(services, "waitlist_kiosk_put_down", first_write_with_a_second_guest_meanwhile):
        first = client.post(address, {"name": "Greta Holm", "cash_game": room.pk})
    (second,) = answers
    assert first.status_code == 302
    assert second.status_code == 409 and "taken enough names for now" in text_of(second)
    assert list(WaitlistEntry.objects.values_list("name", flat=True)) == ["Greta Holm"]


def test_a_name_counts_against_the_address_from_the_moment_it_is_taken_before_anything_is_written(settings) -> None:  # type: ignore[no-untyped-def]
    settings.TABLESIDE_WAITLIST_KIOSK_NAMES = 2
    guest, neighbour = RequestFactory().post("/", REMOTE_ADDR="203.0.113.7"), RequestFactory().post("/")
    kiosk_reserve(guest)
    kiosk_reserve(guest)  # two requests interleaved: both took their number before either wrote
    with pytest.raises(WrongState, match="taken enough names for now"):
        kiosk_reserve(guest)
    kiosk_reserve(neighbour)  # another address counts its own


def test_a_list_full_of_kiosk_names_refuses_the_next_guest_in_words_and_writes_nothing(
    client, room, fred, settings
) -> None:  # type: ignore[no-untyped-def]
    settings.TABLESIDE_WAITLIST_KIOSK_WAITING = 2
    address = screen_address()
    for number, name in enumerate(("Greta Holm", "Ulla Berg")):
        guest = {"REMOTE_ADDR": f"198.51.100.{number + 1}"}
        assert client.post(address, {"name": name, "cash_game": room.pk}, **guest).status_code == 302
    before = everything()
    full = client.post(address, {"name": "Olle Lind", "cash_game": room.pk}, REMOTE_ADDR="198.51.100.9")
    assert full.status_code == 409
    assert "This list has as many names from the kiosk as it takes for now: ask at the desk." in text_of(full)
    assert everything() == before
    services.waitlist_put_down(actor=fred, cash_game=room, name="Olle Lind")  # the desk puts down beyond it
    services.waitlist_call(actor=fred, cash_game=room)  # Greta is called: one kiosk name less waiting
    again = client.post(address, {"name": "Per Dahl", "cash_game": room.pk}, REMOTE_ADDR="198.51.100.9")
    assert again.status_code == 302


def test_the_kiosk_does_not_tell_a_passer_by_that_a_name_is_on_the_list_and_the_desk_is_told(
    client, room, fred
) -> None:  # type: ignore[no-untyped-def]
    services.waitlist_put_down(actor=fred, cash_game=room, name="Johanna van Leeuwen")
    before = everything()
    probe = client.post(screen_address(), {"name": "johanna van leeuwen", "cash_game": room.pk})
    text = text_of(probe)
    assert probe.status_code == 409 and "The kiosk cannot put this name down: ask at the desk." in text
    assert "already" not in text and "johanna" not in text.lower() and "J. L." in text  # the list shows initials
    assert everything() == before
    desk = signed_in(fred).post(
        DESK, {"form_key": KEY, "action": "put_down", "cash_game": room.pk, "name": "Johanna van Leeuwen"}
    )
    assert desk.status_code == 409
    assert "Johanna van Leeuwen is on this list already: add a letter to tell two guests apart." in text_of(desk)
    assert everything() == before


@pytest.mark.usefixtures("cache_down")
def test_with_redis_down_the_kiosk_still_takes_names_and_the_lists_own_limit_holds(client, room, settings) -> None:  # type: ignore[no-untyped-def]
    settings.TABLESIDE_WAITLIST_KIOSK_NAMES = 1
    settings.TABLESIDE_WAITLIST_KIOSK_WAITING = 2
    address = screen_address()
    for name in ("Greta Holm", "Ulla Berg"):  # the count per address cannot be kept: not held against the guest
        assert client.post(address, {"name": name, "cash_game": room.pk}).status_code == 302
    before = everything()
    full = client.post(address, {"name": "Olle Lind", "cash_game": room.pk})
    assert full.status_code == 409 and "as many names from the kiosk as it takes" in text_of(full)
    assert everything() == before


def test_the_beat_task_marks_the_no_shows_and_calls_the_next_names(room, fred, settings) -> None:  # type: ignore[no-untyped-def]
    settings.TABLESIDE_WAITLIST_NO_SHOW_MINUTES = 10
    with at(0):
        anna = services.waitlist_put_down(actor=fred, cash_game=room, name="Anna")
        ben = services.waitlist_put_down(actor=fred, cash_game=room, name="Ben")
        services.waitlist_call(actor=fred, cash_game=room)
    with at(9):
        assert waitlist_no_shows_task() == 0
        page = text_of(signed_in(fred).get(DESK))
        assert not re.search(r"overdue", page.split("Called", 1)[1].split("</table>", 1)[0])
    with at(10):
        page = text_of(signed_in(fred).get(DESK))
        assert "overdue" in page and 'value="no_show"' in page
        assert waitlist_no_shows_task() == 1
    anna.refresh_from_db()
    ben.refresh_from_db()
    assert (anna.status, ben.status) == ("no_show", "called")


def test_a_tournament_director_opens_a_list_from_the_page(shift, make_user) -> None:  # type: ignore[no-untyped-def]
    tess = make_user("tess", Role.TOURNAMENT_DIRECTOR)
    answer = signed_in(tess).post(DESK, {"form_key": KEY, "action": "open", "game": "ofc", "points": "2.50"})
    assert answer.status_code == 302
    page = text_of(signed_in(tess).get(DESK))
    assert "Open-Face Chinese Poker" in page and "2.50 a point" in page


def test_a_row_written_past_the_services_breaks_neither_the_desk_nor_the_screen(room, fred, client) -> None:  # type: ignore[no-untyped-def]
    anna = services.waitlist_put_down(actor=fred, cash_game=room, name="Anna Berg")
    services.waitlist_put_down(actor=fred, cash_game=room, name="Ben Carter")
    WaitlistEntry.objects.filter(pk=anna.pk).update(name="")  # a bad restore or a hand edit
    CashGame.objects.filter(pk=room.pk).update(game="bogus")
    desk = signed_in(fred).get(DESK)
    assert desk.status_code == 200 and "Ben Carter" in text_of(desk)
    screen = client.get(screen_address())
    assert screen.status_code == 200 and "?" in text_of(screen) and "B. C." in text_of(screen)
    assert signed_in(fred).get("/api/cash-games/").status_code == 200


def test_the_desk_and_the_screen_read_as_many_queries_for_twelve_names_as_for_two(room, fred, client) -> None:  # type: ignore[no-untyped-def]
    desk = signed_in(fred)

    def counted(path: str, http: Client) -> int:
        with CaptureQueriesContext(connection) as queries:
            assert http.get(path).status_code == 200
        return len(queries)

    for name in ("Ann", "Bo"):
        services.waitlist_put_down(actor=fred, cash_game=room, name=name)
    services.waitlist_seat(actor=fred, entry=services.waitlist_call(actor=fred, cash_game=room))
    few = counted(DESK, desk), counted(screen_address(), client)
    for name in ("Cy", "Di", "Ed", "Flo", "Gil", "Hal", "Ivo", "Jan", "Kai", "Lou"):
        services.waitlist_put_down(actor=fred, cash_game=room, name=name)
    for _ in range(4):
        services.waitlist_seat(actor=fred, entry=services.waitlist_call(actor=fred, cash_game=room))
    assert (counted(DESK, desk), counted(screen_address(), client)) == few
