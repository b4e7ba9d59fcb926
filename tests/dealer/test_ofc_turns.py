"""The tablet at an Open-Face table: the button on the ring, one seat's placement at a time, Fantasyland.

Seats 1 and 3 play at OFC-1; the button starts on seat 3 (the highest seat in play), so seat 1
acts first. A form sent twice (a double tap, or Back and send again) places once.
"""

from __future__ import annotations

import random
import re

import pytest

from rounds.models import Round
from rounds.services import round_close_betting, round_deal, round_open, round_placements_record, wager_place
from rules.services import rule_set_create
from settlement.services import settle_round
from tables.models import Table
from tests.dealer.conftest import HTMX, nothing_written, signed_in, text

QUEENS = ("Qs Qd 2c", "Kc Kh 7d 7s 2h", "Ac Ad Ah 3s 3d")
LOW = ("4s 5d 6c", "9c 9h Jd Ts 2d", "Kd Ks 8c 8d 4h")


def _dealt(dealer, table: Table, *, auto: bool = False) -> Round:  # type: ignore[no-untyped-def]
    round_ = round_open(actor=dealer, table=table)
    for seat in (1, 3):
        wager_place(actor=dealer, round=round_, seat=seat, amount_cents=1000)
    round_close_betting(actor=dealer, round=round_)
    if auto:
        return round_deal(actor=dealer, round=round_, auto=True, rng=random.Random(11))
    return round_deal(actor=dealer, round=round_, dice=[1, 2, 3])


def _streets(board: tuple[str, str, str]) -> list[dict[str, str]]:
    front, middle, back = board
    return [{"back": back}] + [{"front": c} for c in front.split()] + [{"middle": c} for c in middle.split()]


def _section(page: str, seat: int) -> str:
    match = re.search(rf'<section class="position[^"]*" data-group="{seat}".*?</section>', page, re.S)
    assert match is not None
    return match.group(0)


@pytest.mark.django_db
def test_the_tablet_shows_the_button_and_takes_only_the_seat_whose_turn_it_is(make_table, shift, dealer) -> None:  # type: ignore[no-untyped-def]
    table = make_table(name="OFC-1", game="ofc", seat_count=3)
    _dealt(dealer, table)
    page = text(signed_in(dealer).get(f"/dealer/tables/{table.pk}/"))
    assert re.search(r'data-ring-seat="3">.*?data-button>D</span>', page, re.S)
    assert page.count("data-button>") == 1
    assert 'data-turn-now="1"' in page and "Seat 1 to act: deal 5" in page
    assert 'data-turn="acting"' in _section(page, 1) and 'data-quota="5"' in _section(page, 1)
    waiting = _section(page, 3)
    assert 'data-turn="waiting"' in waiting and 'data-quota="0"' in waiting and "waits for its turn" in waiting


@pytest.mark.django_db
def test_a_placement_sent_twice_places_once_and_the_second_is_refused(make_table, shift, dealer) -> None:  # type: ignore[no-untyped-def]
    table = make_table(name="OFC-1", game="ofc", seat_count=3)
    round_ = _dealt(dealer, table)
    client = signed_in(dealer)
    form = {"hand-1-back": "Ac Ad Ah 3s 3d"}
    first = client.post(f"/dealer/rounds/{round_.pk}/placements/", form, **HTMX)
    assert first.status_code == 200 and "Street placed." in text(first)
    with nothing_written():
        again = client.post(f"/dealer/rounds/{round_.pk}/placements/", form, **HTMX)
        early = client.post(f"/dealer/rounds/{round_.pk}/placements/", {"hand-1-front": "Qs"}, **HTMX)
    assert again.status_code == 409
    assert "Seat 1 has placed street 1: it is seat 3&#x27;s turn. Nothing was placed." in text(again)
    assert early.status_code == 409 and "it is seat 3&#x27;s turn" in text(early)
    assert Round.objects.get().placements["turns"] == [[1, 5]]


@pytest.mark.django_db
def test_the_next_seats_cards_are_not_shown_before_its_turn(make_table, shift, dealer) -> None:  # type: ignore[no-untyped-def]
    table = make_table(name="OFC-1", game="ofc", seat_count=3)
    round_ = _dealt(dealer, table, auto=True)
    page = text(signed_in(dealer).get(f"/dealer/tables/{table.pk}/"))
    first_five = " ".join(round_.dealt["1"].split()[:5])
    assert f"<strong>{first_five}</strong>" in _section(page, 1)
    assert "Dealt this street" not in _section(page, 3)


@pytest.mark.django_db
def test_a_fantasyland_seat_is_offered_its_fourteen_cards_and_a_discard(make_table, shift, dealer, pit_boss) -> None:  # type: ignore[no-untyped-def]
    rules = rule_set_create(actor=pit_boss, name="OFC Fantasyland", game="ofc", fantasyland=True)
    table = make_table(name="OFC-1", game="ofc", seat_count=3, rule_set=rules)
    round_ = _dealt(dealer, table)
    streets = {seat: _streets(board) for seat, board in ((1, QUEENS), (3, LOW))}
    for street in range(9):
        for seat in (1, 3):
            placement = {"seats": {str(seat): streets[seat][street]}}
            round_ = round_placements_record(actor=dealer, round=round_, placements=placement)
    settle_round(round=round_, actor=dealer, idempotency_key="ofc-q")
    second = _dealt(dealer, table, auto=True)  # the button moves to seat 1: seat 3 first, seat 1 in Fantasyland
    first_five = " ".join(second.dealt["3"].split()[:5])
    round_placements_record(actor=dealer, round=second, placements={"seats": {"3": {"back": first_five}}})
    page = text(signed_in(dealer).get(f"/dealer/tables/{table.pk}/"))
    fantasyland = _section(page, 1)
    assert "data-fantasyland" in fantasyland and 'data-quota="14"' in fantasyland
    assert 'data-name="hand-1-discard"' in fantasyland and f"<strong>{second.dealt['1']}</strong>" in fantasyland
    assert "Seat 1 is in Fantasyland: deal 14 cards at once; the seat sets 13." in page
