"""Open-Face hands as a dealer types them, through the API and the services: card notations (lower case, "10h",
unicode suits), boards of the wrong cards, a player entered twice, a seat of another table, a hand after the round,
void and enter again, the round and the finish asked for twice, malformed input on every endpoint (a clear
400/404/409, never a 500, nothing written), and who may call what."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from casino.roles import Role
from poker_room.ofc_events import services as ofc_points
from poker_room.ofc_events.models import OfcHand
from poker_room.tournaments import services
from poker_room.tournaments.models import Entry, Tournament
from tests.api.test_ofc_api import _api, _boards_body, _refused, _url
from tests.poker_room.ofc_events.play import OFC, deal_boards, round_begun, seated
from tests.poker_room.tournament_setup import T0, everything

pytestmark = pytest.mark.django_db


def _two_tables(event: Tournament) -> tuple[list[int], list[int]]:
    return seated(event, 1), seated(event, 2)


def _hands() -> int:
    return OfcHand.objects.count()


def test_lower_case_ten_as_10_and_a_duplicate_written_two_ways(tournament: Tournament, director: User) -> None:  # noqa: F811
    tournament = round_begun(tournament, director)
    one, _two = _two_tables(tournament)
    boards = deal_boards(random.Random(8), one)
    lowered = {number: tuple(row.lower() for row in rows) for number, rows in boards.items()}
    ten = {number: tuple(row.replace("T", "10") for row in rows) for number, rows in boards.items()}
    hand = ofc_points.ofc_hand_record(actor=director, tournament=tournament, table_number=1, boards=lowered)
    assert hand.boards == {str(n): list(rows) for n, rows in boards.items()}
    OfcHand.objects.filter(pk=hand.pk).update(status="voided", voided_at=T0, void_reason="x")
    again = ofc_points.ofc_hand_record(actor=director, tournament=tournament, table_number=1, boards=ten)
    assert again.boards == hand.boards
    # "Th" on one board and "10h" on another are the same card: refused, naming both places.
    first, second = one[0], one[1]
    clash = dict(boards)
    card = boards[first][2].split()[0]
    swapped = boards[second][2].split()
    swapped[0] = card.replace("T", "10") if card.startswith("T") else card.lower()
    clash[second] = (boards[second][0], boards[second][1], " ".join(swapped))
    response = _api(director).post(_url(tournament, "tables/1/hands/"), _boards_body(clash), format="json")
    _refused(response, 400, "is on the table twice")
    assert _hands() == 2


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda rows: (rows[0], rows[1], rows[2] + " Jk"), "holds 5 cards, not 6"),  # 14 cards
        (lambda rows: (rows[0], rows[1], " ".join(rows[2].split()[:4])), "holds 5 cards, not 4"),  # 12 cards
        (lambda rows: (rows[0], rows[1], " ".join([*rows[2].split()[:4], "Jk"])), "without the joker"),
        (lambda rows: ("", rows[1], rows[2]), "holds 3 cards, not 0"),
        (lambda rows: ("Xx Yy Zz", rows[1], rows[2]), "is not a card"),
    ],
)
def test_a_board_of_the_wrong_cards_is_refused_naming_the_row(
    tournament: Tournament,  # noqa: F811
    director: User,  # noqa: F811
    change: Callable[[tuple[str, str, str]], tuple[str, str, str]],
    message: str,
) -> None:
    tournament = round_begun(tournament, director)
    one, _two = _two_tables(tournament)
    boards = deal_boards(random.Random(9), one)
    boards[one[0]] = change(boards[one[0]])  # type: ignore[assignment]
    before = everything(tournament)
    response = _api(director).post(_url(tournament, "tables/1/hands/"), _boards_body(boards), format="json")
    body = _refused(response, 400, message)
    assert body["extra"]["field"].startswith(f"{one[0]}-"), body  # the dealer sees whose row
    assert f"#{one[0]}" in body["message"] or "Seat" in body["message"], body
    assert everything(tournament) == before and _hands() == 0


def test_suits_typed_as_symbols_are_read_as_letters(tournament: Tournament, director: User) -> None:  # noqa: F811
    tournament = round_begun(tournament, director)
    one, _two = _two_tables(tournament)
    boards = deal_boards(random.Random(10), one)
    symbols = str.maketrans({"s": "♠", "h": "♥", "d": "♦", "c": "♣"})
    typed = {number: tuple(row.translate(symbols) for row in rows) for number, rows in boards.items()}
    response = _api(director).post(_url(tournament, "tables/1/hands/"), _boards_body(typed), format="json")
    assert response.status_code == 201, response.content
    assert OfcHand.objects.get().boards == {str(n): list(rows) for n, rows in boards.items()}


def test_a_player_entered_twice_or_a_seat_of_another_table_is_refused(
    tournament: Tournament,  # noqa: F811
    director: User,  # noqa: F811
) -> None:
    tournament = round_begun(tournament, director)
    one, two = _two_tables(tournament)
    boards = deal_boards(random.Random(11), one + two[:1])
    body = _boards_body({n: boards[n] for n in one})
    body["boards"][f"0{one[0]}"] = list(boards[two[0]])  # the same player, written "07" and "7"
    _refused(_api(director).post(_url(tournament, "tables/1/hands/"), body, format="json"), 400, "two boards")
    other = _boards_body(boards)  # a board for a player of table 2
    _refused(
        _api(director).post(_url(tournament, "tables/1/hands/"), other, format="json"),
        400,
        f"#{two[0]} does not sit at table 1",
    )
    assert _hands() == 0


def test_the_round_over_void_and_enter_again_begin_and_finish_twice(
    tournament: Tournament,  # noqa: F811
    director: User,  # noqa: F811
) -> None:
    tournament = round_begun(tournament, director)
    deck = random.Random(12)
    for table in (1, 2):
        for _hand in range(tournament.ofc_hands_per_round):
            ofc_points.ofc_hand_record(
                actor=director,
                tournament=tournament,
                table_number=table,
                boards=deal_boards(deck, seated(tournament, table)),
            )
    extra = deal_boards(deck, seated(tournament, 1))
    _refused(
        _api(director).post(_url(tournament, "tables/1/hands/"), _boards_body(extra), format="json"),
        409,
        "has played all 3 hands of round 1",
    )
    # The last hand voided and entered again: numbered 3 again, the voided one kept.
    last = OfcHand.objects.filter(table_number=1, status="in_force").order_by("-hand").first()
    assert last is not None
    response = _api(director).post(
        _url(tournament, f"hands/{last.pk}/void/"), {"reason": "Cards misread"}, format="json"
    )
    assert response.status_code == 200, response.content
    _refused(
        _api(director).post(_url(tournament, f"hands/{last.pk}/void/"), {"reason": "again"}, format="json"),
        409,
        "voided already",
    )
    again = ofc_points.ofc_hand_record(actor=director, tournament=tournament, table_number=1, boards=extra)
    assert (again.round, again.hand) == (1, 3) and OfcHand.objects.filter(table_number=1, hand=3).count() == 2
    # Round 2 begun twice (a double tap from two screens): the second refused, nothing drawn again.
    assert _api(director).post(_url(tournament, "rounds/")).status_code == 201
    moves = everything(tournament)
    _refused(_api(director).post(_url(tournament, "rounds/")), 409, "All 2 rounds are played")
    assert everything(tournament) == moves
    # A hand of round 1 is no longer voided.
    _refused(
        _api(director).post(_url(tournament, f"hands/{again.pk}/void/"), {"reason": "late"}, format="json"),
        409,
        "which is over",
    )
    for table in sorted(
        set(Entry.objects.filter(tournament=tournament, status="active").values_list("table_number", flat=True))
    ):
        for _hand in range(tournament.ofc_hands_per_round):
            ofc_points.ofc_hand_record(
                actor=director,
                tournament=tournament,
                table_number=table,
                boards=deal_boards(deck, seated(tournament, table)),
            )
    _refused(_api(director).post(_url(tournament, "rounds/")), 409, "All 2 rounds are played")
    assert _api(director).post(_url(tournament, "finish/")).status_code == 200
    paid = everything(tournament)
    _refused(_api(director).post(_url(tournament, "finish/")), 409)
    assert everything(tournament) == paid
    places = sorted(Entry.objects.filter(tournament=tournament).values_list("place", flat=True))
    assert places == list(range(1, 9))


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"boards": []},
        {"boards": "As Ks Qs"},
        {"boards": {"1": "As Ks Qs"}},
        {"boards": {"1": [1, 2, 3]}},
        {"boards": {"1": [["As"], ["Ks"], ["Qs"]]}},
        {"boards": {"1": ["As Ks Qs", "x"]}},
        {"boards": {"99999999999999999999": ["As Ks Qs", "2c 3c 4c 5c 6c", "7d 8d 9d Td Jd"]}},
        {"boards": {"-1": ["As Ks Qs", "2c 3c 4c 5c 6c", "7d 8d 9d Td Jd"]}},
        {"boards": {"one": ["As Ks Qs", "2c 3c 4c 5c 6c", "7d 8d 9d Td Jd"]}},
        {"boards": {"1": [None, None, None]}},
        {"boards": {"1": ["A" * 70, "", ""]}},
        {"boards": {"1": ["As\x00 Ks Qs", "", ""]}},
    ],
)
def test_malformed_hands_are_refused_with_a_400_and_nothing_written(
    tournament: Tournament,  # noqa: F811
    director: User,  # noqa: F811
    body: dict[str, Any],
) -> None:
    tournament = round_begun(tournament, director)
    before = everything(tournament)
    response = _api(director).post(_url(tournament, "tables/1/hands/"), body, format="json")
    _refused(response, 400)
    assert everything(tournament) == before and _hands() == 0


def test_addresses_of_nothing_or_of_another_tournament_give_404_or_409(
    tournament: Tournament,  # noqa: F811
    director: User,  # noqa: F811
    make_tournament: Callable[..., Tournament],  # noqa: F811
) -> None:
    tournament = round_begun(tournament, director)
    one = seated(tournament, 1)
    hand = ofc_points.ofc_hand_record(
        actor=director, tournament=tournament, table_number=1, boards=deal_boards(random.Random(13), one)
    )
    other = make_tournament(tables=1, **OFC)
    api = _api(director)
    assert (
        api.post(f"/api/tournaments/{other.pk}/ofc/hands/{hand.pk}/void/", {"reason": "x"}, format="json").status_code
        == 404
    )
    assert api.post(_url(tournament, "hands/999999/void/"), {"reason": "x"}, format="json").status_code == 404
    _refused(api.post(_url(tournament, "tables/9/hands/"), _boards_body({}), format="json"), 409)
    _refused(api.post(_url(tournament, "tables/99999999/hands/"), _boards_body({}), format="json"), 400)
    _refused(api.post(f"/api/tournaments/{other.pk}/ofc/rounds/"), 409, "has not started")
    assert api.post("/api/tournaments/99999999/ofc/finish/").status_code == 404
    _refused(api.post(_url(tournament, f"hands/{hand.pk}/void/"), {"reason": ""}, format="json"), 400)
    _refused(api.post(_url(tournament, f"hands/{hand.pk}/void/"), {"reason": 7}, format="json"), 400)
    assert OfcHand.objects.get(pk=hand.pk).status == "in_force"
    client = Client(raise_request_exception=False)
    client.force_login(director)
    for url in (
        f"/poker-room/{tournament.pk}/ofc/tables/99/",
        f"/poker-room/{other.pk}/ofc/tables/1/hands/{hand.pk}/void/",
        "/poker-room/999999/ofc/standings/",
        f"/poker-room/{tournament.pk}/ofc/tables/{'9' * 25}/",
        f"/poker-room/{tournament.pk}/ofc/tables/1/hands/{'9' * 25}/void/",
    ):
        response = client.post(url, {"reason": "x"}) if url.endswith("void/") else client.get(url)
        assert response.status_code == 404, (url, response.status_code)


def test_who_may_enter_void_begin_and_finish(
    tournament: Tournament,  # noqa: F811
    director: User,  # noqa: F811
    dana: User,  # noqa: F811
    make_user: Callable[..., User],
) -> None:
    tournament = round_begun(tournament, director)
    otto = make_user("otto_dealer", Role.DEALER)
    services.tournament_table_dealer_set(actor=director, tournament=tournament, table_number=2, dealer=otto)
    alex = make_user("alex_auditor", Role.AUDITOR)
    one = seated(tournament, 1)
    boards = _boards_body(deal_boards(random.Random(14), one))
    before = everything(tournament)
    _refused(_api(otto).post(_url(tournament, "tables/1/hands/"), boards, format="json"), 403)
    _refused(_api(alex).post(_url(tournament, "tables/1/hands/"), boards, format="json"), 403)
    assert _api(None).post(_url(tournament, "tables/1/hands/"), boards, format="json").status_code in (401, 403)
    for user in (dana, otto, alex):
        _refused(_api(user).post(_url(tournament, "rounds/")), 403)
        _refused(_api(user).post(_url(tournament, "finish/")), 403)
    assert everything(tournament) == before
    assert _api(dana).post(_url(tournament, "tables/1/hands/"), boards, format="json").status_code == 201
    hand = OfcHand.objects.get()
    for user in (dana, otto, alex):
        _refused(_api(user).post(_url(tournament, f"hands/{hand.pk}/void/"), {"reason": "x"}, format="json"), 403)
    # On the pages: Otto may not open table 1's tablet; Alex reads it but enters nothing.
    client = Client(raise_request_exception=False)
    client.force_login(otto)
    assert client.get(f"/poker-room/{tournament.pk}/ofc/tables/1/").status_code == 403
    assert client.post(f"/poker-room/{tournament.pk}/ofc/tables/1/hands/", {}).status_code == 403
    client.force_login(alex)
    assert client.get(f"/poker-room/{tournament.pk}/ofc/tables/1/").status_code == 200
    assert client.post(f"/poker-room/{tournament.pk}/ofc/tables/1/hands/", {}).status_code == 403
    assert OfcHand.objects.count() == 1
