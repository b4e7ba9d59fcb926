"""The Open-Face pages: a table's tablet scores a hand once and shows the engine's points, a card twice is shown
next to its field, a hand entered on two screens (or after a void or a new draw) is recorded once, the console begins
a round and the standings page reads; a chip tournament has none of them."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth.models import User
from django.test import Client

from casino.roles import Role
from poker_room.ofc_events import services as ofc_points
from poker_room.ofc_events.models import OfcHand
from poker_room.tournaments import services
from poker_room.tournaments.models import Tournament
from tests.api.test_ofc_api import _api, _boards_body, _refused, _url
from tests.poker_room.ofc_events.play import deal_boards, engine_points, round_begun, seated
from tests.poker_room.tournament_setup import fresh

pytestmark = pytest.mark.django_db


def _posted(boards: dict[int, tuple[str, str, str]], key: str) -> dict[str, str]:
    form = {"form_key": key}
    for number, rows in boards.items():
        for row, cards in zip(("front", "middle", "back"), rows, strict=True):
            form[f"b-{number}-{row}"] = cards
    return form


def test_the_tablet_scores_a_hand_once_and_shows_the_engines_points(ofc, director: User, make_user, client) -> None:
    dana = make_user("dana_dealer", Role.DEALER)
    otto = make_user("otto_dealer", Role.DEALER)
    tournament = ofc(8)
    services.tournament_table_dealer_set(actor=director, tournament=tournament, table_number=1, dealer=dana)
    ofc_points.ofc_round_begin(actor=director, tournament=tournament)
    client.force_login(dana)
    url = f"/poker-room/{tournament.pk}/ofc/tables/1/"
    page = client.get(url)
    assert page.status_code == 200 and "1 of 3" in page.content.decode()
    boards = deal_boards(random.Random(8), seated(tournament, 1))
    form = _posted(boards, "a" * 32)
    done = client.post(url + "hands/", form)
    assert done.status_code == 302
    again = client.post(url + "hands/", form, follow=True)
    assert "This hand was scored already." in again.content.decode()
    assert OfcHand.objects.count() == 1
    drawn = client.get(url).content.decode()
    for number, points in engine_points(boards).items():
        assert f'data-entry="{number}"' in drawn and f'data-points="{points}"' in drawn
    assert "Void this hand" not in drawn  # a dealer does not void
    client.force_login(otto)
    refused = client.get(url)
    assert refused.status_code == 403 and "Table 1 is not your table" in refused.content.decode()
    assert client.post(url + "hands/", _posted(boards, "b" * 32)).status_code == 403


def test_a_card_twice_on_the_tablet_is_shown_next_to_its_field(ofc, director: User, client) -> None:
    tournament = ofc(4, tables=1)
    ofc_points.ofc_round_begin(actor=director, tournament=tournament)
    client.force_login(director)
    seats = seated(tournament, 1)
    boards = {n: list(rows) for n, rows in deal_boards(random.Random(8), seats).items()}
    boards[seats[1]][1] = " ".join([*boards[seats[1]][1].split()[:4], boards[seats[0]][2].split()[0]])
    response = client.post(f"/poker-room/{tournament.pk}/ofc/tables/1/hands/", _posted(boards, "c" * 32))  # type: ignore[arg-type]
    assert response.status_code == 400
    text = response.content.decode()
    assert f'id="b-{seats[1]}-middle-error"' in text and "is on the table twice" in text
    assert f'value="{boards[seats[1]][1]}"' in text
    assert not OfcHand.objects.exists()


def _form_fields(html: str) -> dict[str, str]:
    import re

    form = html[html.index('id="ofc-hand-form"') :]
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form[: form.index("</form>")]))


def test_a_hand_entered_on_two_screens_or_after_a_void_or_a_new_draw_is_not_recorded_twice(
    tournament: Tournament,  # noqa: F811
    director: User,  # noqa: F811
    dana: User,  # noqa: F811
) -> None:
    tournament = round_begun(tournament, director)
    one = seated(tournament, 1)
    boards = deal_boards(random.Random(15), one)
    typed = {
        f"b-{number}-{row}": cards
        for number, rows in boards.items()
        for row, cards in zip(("front", "middle", "back"), rows, strict=True)
    }
    url = f"/poker-room/{tournament.pk}/ofc/tables/1/"
    tablet, console = Client(), Client()
    tablet.force_login(dana)
    console.force_login(director)
    on_tablet = _form_fields(tablet.get(url).content.decode())
    on_console = _form_fields(console.get(url).content.decode())
    assert (on_tablet["round"], on_tablet["hand"]) == ("1", "1")
    assert tablet.post(url + "hands/", {**on_tablet, **typed}).status_code == 302
    # The director's screen, drawn before Dana's hand, sends the same hand: refused, the page says why.
    response = console.post(url + "hands/", {**on_console, **typed})
    assert response.status_code == 409
    assert "is at hand 2, not hand 1" in response.content.decode()
    assert OfcHand.objects.count() == 1
    # Through the API: the hand number sent again after a timeout is refused; a typed-in "hand" is a 400.
    api = _api(director)
    body = {**_boards_body(deal_boards(random.Random(16), one)), "round": 1, "hand": 2}
    assert api.post(_url(tournament, "tables/1/hands/"), body, format="json").status_code == 201
    _refused(api.post(_url(tournament, "tables/1/hands/"), body, format="json"), 409, "is at hand 3, not hand 2")
    _refused(
        api.post(_url(tournament, "tables/1/hands/"), {**body, "round": 2, "hand": 3}, format="json"),
        409,
        "not round 2",
    )
    _refused(api.post(_url(tournament, "tables/1/hands/"), {**body, "hand": "three"}, format="json"), 400)
    assert (
        console.post(url + "hands/", {**on_console, "form_key": "f" * 32, "hand": "three", **typed}).status_code == 400
    )
    assert OfcHand.objects.count() == 2


def test_the_console_begins_a_round_and_the_standings_page_reads(ofc, director: User, make_user, client) -> None:
    alex = make_user("alex_auditor", Role.AUDITOR)
    tournament = ofc(8)
    client.force_login(director)
    console = client.get(f"/poker-room/{tournament.pk}/").content.decode()
    assert "Begin round 1" in console
    assert client.post(f"/poker-room/{tournament.pk}/ofc/rounds/", {"form_key": "d" * 32}).status_code == 302
    assert fresh(tournament).ofc_round == 1
    again = client.post(f"/poker-room/{tournament.pk}/ofc/rounds/", {"form_key": "e" * 32})
    assert again.status_code == 409 and "Round 1 is not over" in again.content.decode()
    client.force_login(alex)
    standings = client.get(f"/poker-room/{tournament.pk}/ofc/standings/")
    assert standings.status_code == 200 and "Open-Face standings" in standings.content.decode()
    assert client.post(f"/poker-room/{tournament.pk}/ofc/finish/", {"form_key": "f" * 32}).status_code == 403


def test_a_chip_tournament_has_no_open_face_pages(make_tournament, director: User, client) -> None:
    tournament = make_tournament()
    client.force_login(director)
    assert client.get(f"/poker-room/{tournament.pk}/ofc/standings/").status_code == 404
    assert client.get(f"/poker-room/{tournament.pk}/ofc/tables/1/").status_code == 404
