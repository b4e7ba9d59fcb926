"""A second look at deals (issue 19 review): the money of a deal against the ledger in the cases the feature's own
tests leave out (a knock-out, re-entries, a guarantee with a reserve, a bust undone and made again, the win undone),
and the API's entry numbers that are not numbers of this tournament.

Tina directs; Alex audits; Dana deals.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db.models import Sum
from rest_framework.test import APIClient

from poker_room.deals import services as deals
from poker_room.deals.models import Deal
from poker_room.tournaments import money, services
from poker_room.tournaments.models import Elimination, Tournament
from settlement.ledger import ledger_verify
from settlement.models import LedgerEntry, Posting
from tests.poker_room.tournament_setup import at, entry, everything, fresh

pytestmark = pytest.mark.django_db


def balances(tournament: Tournament) -> dict[str, int]:
    return dict(
        LedgerEntry.objects.filter(posting__idempotency_key__startswith=money.tournament_prefix(tournament.pk))
        .values_list("account")
        .annotate(total=Sum("amount_cents"))
    )


def paid_in_force(tournament: Tournament) -> dict[int, int]:
    return dict(
        Elimination.objects.filter(tournament=tournament, status="in_force").values_list("entry__number", "prize_cents")
    )


def bust(director, tournament: Tournament, number: int, minutes: float, by: int | None = None) -> Elimination:
    return services.entry_eliminate(
        actor=director,
        tournament=tournament,
        entry=entry(tournament, number),
        eliminated_by=entry(tournament, by) if by else None,
        now=at(minutes),
    )


def test_a_progressive_knock_out_with_a_deal_empties_the_prize_pool_and_the_bounties(running, director) -> None:
    tournament = running(
        players=5, template_key="zocktoberfest", buy_in_cents=5_000, bounty_cents=2_001, bounty_kind="progressive"
    )
    bust(director, tournament, 5, 5, by=1)  # Anna takes half of Emil's bounty and adds half to her own
    deal = deals.deal_record(
        actor=director, tournament=tournament, method="icm", stacks={1: 9_000, 2: 5_000, 3: 3_000, 4: 1_000}
    )
    for minutes, (number, by) in enumerate(((4, 2), (3, 1), (2, 1)), start=10):
        bust(director, tournament, number, minutes, by=by)
    assert fresh(tournament).status == "finished"
    assert paid_in_force(tournament) == {5: 0, **{n: deal.amount_for(n) for n in (1, 2, 3, 4)}}
    report = ledger_verify()
    assert report.ok, report.problems
    left = balances(tournament)
    assert left["prize_pool"] == 0 and left["bounties"] == 0
    figures = money.tournament_money(fresh(tournament))
    assert figures.pool_left_cents == 0


def test_re_entries_count_in_the_money_a_deal_shares(running, director) -> None:
    tournament = running(players=4, late_registration_level=3, reentries_max=1)
    bust(director, tournament, 4, 5)
    services.entry_reenter(actor=director, tournament=tournament, entry=entry(tournament, 4), now=at(6))  # #5
    bust(director, tournament, 3, 7)
    services.entry_reenter(actor=director, tournament=tournament, entry=entry(tournament, 3), now=at(8))  # #6
    # Six entries of 90.00: 540.00, three paid. Four still in: #1, #2, #5, #6.
    deal = deals.deal_record(
        actor=director, tournament=tournament, method="chip_chop", stacks={1: 4_000, 2: 3_000, 5: 2_000, 6: 1_000}
    )
    assert sum(deal.amounts.values()) == 54_000
    for minutes, number in enumerate((6, 5, 2), start=20):
        bust(director, tournament, number, minutes)
    assert ledger_verify().ok and balances(tournament)["prize_pool"] == 0


def test_a_guarantee_with_a_reserve_and_the_win_undone_and_played_again(running, director) -> None:
    tournament = running(players=4, guarantee_cents=60_000)  # 240.00 overlay
    deal = deals.deal_record(
        actor=director,
        tournament=tournament,
        method="icm",
        stacks={1: 5_000, 2: 3_000, 3: 1_500, 4: 500},
        reserve_cents=6_000,
    )
    assert sum(deal.amounts.values()) + deal.reserve_cents == 60_000
    bust(director, tournament, 4, 10)
    bust(director, tournament, 3, 11)
    runner_up = bust(director, tournament, 2, 12)
    assert fresh(tournament).status == "finished"
    # The runner-up's bust was a mistake: undone, the win goes with it; then Anna busts and Ben wins.
    services.elimination_undo(actor=director, tournament=tournament, elimination=runner_up, reason="Wrong hand")
    assert (
        fresh(tournament).status == "running"
        and balances(tournament)["prize_pool"] == deal.amount_for(1) + deal.amount_for(2) + deal.reserve_cents
    )
    bust(director, tournament, 1, 13)
    assert paid_in_force(tournament) == {
        4: deal.amount_for(4),
        3: deal.amount_for(3),
        1: deal.amount_for(1),
        2: deal.amount_for(2) + deal.reserve_cents,  # the reserve goes to whoever wins
    }
    assert ledger_verify().ok and balances(tournament)["prize_pool"] == 0
    keys = list(Posting.objects.filter(kind="t_prize").values_list("idempotency_key", flat=True))
    assert len(keys) == len(set(keys)) == 6  # 4th, 3rd, 2nd, the win, then 2nd and the win again


def test_a_bust_after_the_deal_undone_and_made_again_is_paid_once(running, director) -> None:
    tournament = running(players=4)
    deal = deals.deal_record(
        actor=director, tournament=tournament, method="icm", stacks={1: 400, 2: 300, 3: 200, 4: 100}
    )
    first = bust(director, tournament, 4, 5)
    services.elimination_undo(actor=director, tournament=tournament, elimination=first, reason="Miscount")
    again = bust(director, tournament, 4, 6)
    assert again.prize_cents == first.prize_cents == deal.amount_for(4)
    assert again.posting.idempotency_key == money.prize_key(tournament.pk, entry_number=4, ordinal=2)
    assert balances(tournament)["prize_pool"] == 36_000 - deal.amount_for(4)


# --- the API's entry numbers ------------------------------------------------------------------------------------------


def _post(user, tournament: Tournament, body: dict[str, Any]):
    client = APIClient(raise_request_exception=False)
    client.force_authenticate(user)
    return client.post(f"/api/tournaments/{tournament.pk}/deal/", body, format="json")


@pytest.mark.parametrize(
    "key",
    [
        "²",  # a digit to str.isdigit, no number to int()
        "9" * 5000,  # beyond Python's digits for int()
        "①",
        "-1",
        "0x1",
        "",
        " ",
        "1.0",
    ],
)
def test_an_entry_number_that_is_not_one_is_refused_in_words(running, director, key) -> None:
    tournament = running(players=3)
    before = {**everything(tournament), "deals": Deal.objects.count()}
    response = _post(director, tournament, {"method": "icm", "stacks": {"1": 500, "2": 300, key: 200}})
    assert response.status_code == 400, response.content[:300]
    body = response.json()
    assert set(body) == {"message", "extra"} and "not a player still in" in body["message"]
    assert {**everything(tournament), "deals": Deal.objects.count()} == before


def test_an_entry_number_written_in_other_digits_is_not_taken_for_one(running, director) -> None:
    tournament = running(players=3)
    response = _post(director, tournament, {"method": "icm", "stacks": {"1": 500, "2": 300, "٣": 200}, "preview": True})
    assert response.status_code == 400 and "not a player still in" in response.json()["message"]


# --- the page records the deal as the players were shown it -----------------------------------------------------------

KEY, OTHER_KEY = "0123456789abcdef0123456789abcdef", "fedcba9876543210fedcba9876543210"
STACKS = {1: 30_000, 2: 24_000, 3: 18_000, 4: 12_000, 5: 9_000, 6: 7_000}


def _worked(client, address: str) -> dict[str, str]:
    """Work the deal out on the page, and the record form it then shows, as the browser would send it."""
    typed = {**{f"stack-{n}": str(c) for n, c in STACKS.items()}, "method": "icm"}
    page = client.post(address, {"form_key": KEY, "action": "work", **typed}).content.decode()
    form = page[page.index('id="deal-record"') :]
    fields = dict(re.findall(r'<input type="hidden" name="([a-z_0-9-]+)" value="([^"]*)"', form))
    return {**fields, "action": "record", "agreed": "yes", "form_key": OTHER_KEY}


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_page_records_the_amounts_it_showed(client, running, director, language) -> None:
    tournament = running(players=6)
    client.force_login(director)
    client.cookies["django_language"] = language
    address = f"/poker-room/{tournament.pk}/deal/"
    record = _worked(client, address)
    shown = deals.deal_propose(tournament, "icm", STACKS).amounts
    assert record["worked_out"] == ",".join(f"{n}:{cents}" for n, cents in shown.items())  # no 12.345 in German
    assert client.post(address, record).status_code == 302
    assert Deal.objects.get(tournament=tournament).amounts == shown


def test_a_deal_that_works_out_otherwise_by_the_time_it_is_recorded_is_refused(client, running, director) -> None:
    tournament = running(players=6)
    client.force_login(director)
    address = f"/poker-room/{tournament.pk}/deal/"
    record = _worked(client, address)
    # Meanwhile a supervisor sets a minimum cash: the places left pay otherwise, and so would the deal.
    services.tournament_settings_set(actor=director, tournament=tournament, min_cash_cents=12_000)
    before = {**everything(tournament), "deals": Deal.objects.count()}
    refused = client.post(address, record)
    assert refused.status_code == 409 and "work it out again" in refused.content.decode()
    assert {**everything(tournament), "deals": Deal.objects.count()} == before


def test_a_record_form_with_a_tampered_worked_out_is_refused(client, running, director) -> None:
    tournament = running(players=6)
    client.force_login(director)
    address = f"/poker-room/{tournament.pk}/deal/"
    for tampered in ("1:99999999999999999", "x", "1:5;drop", "1:" + "9" * 500):
        record = {**_worked(client, address), "worked_out": tampered}
        assert client.post(address, record).status_code in (400, 409)
    assert not Deal.objects.exists()


def test_a_stack_typed_with_a_no_break_space_between_its_thousands_is_read(client, running, director) -> None:
    tournament = running(players=6)
    client.force_login(director)
    typed = {**{f"stack-{n}": f"{c // 1000}\u00a0{c % 1000:03d}" for n, c in STACKS.items()}, "method": "icm"}
    worked = client.post(f"/poker-room/{tournament.pk}/deal/", {"form_key": KEY, "action": "work", **typed})
    assert worked.status_code == 200 and 'id="deal-record"' in worked.content.decode()


def test_nobody_signed_in_works_out_or_records_a_deal(client, running) -> None:
    tournament = running(players=6)
    before = {**everything(tournament), "deals": Deal.objects.count()}
    api = APIClient(raise_request_exception=False)
    for preview in (True, False):
        body = {"method": "icm", "stacks": {str(n): c for n, c in STACKS.items()}, "preview": preview}
        assert api.post(f"/api/tournaments/{tournament.pk}/deal/", body, format="json").status_code in (401, 403)
    page = client.post(f"/poker-room/{tournament.pk}/deal/", {"form_key": KEY, "action": "record", "agreed": "yes"})
    assert page.status_code == 302 and "login" in page["Location"]
    assert {**everything(tournament), "deals": Deal.objects.count()} == before
