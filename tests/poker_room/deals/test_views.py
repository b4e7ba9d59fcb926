"""The Deal page and the console's Deal panel: a deal worked out and recorded once, as the players were shown it;
a refused form drawn again with what was typed; who may see and who may record."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client

from poker_room.deals import services as deals
from poker_room.deals.models import Deal
from poker_room.pure.icm import icm_deal_cents
from poker_room.tournaments import services
from tests.poker_room.deals.play import KEY, OTHER_KEY, PRIZES, STACKS, written
from tests.poker_room.tournament_setup import everything

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def text_of(response) -> str:
    return html.unescape(response.content.decode())


def deal_form(stacks: dict[int, int | str], **extra: str) -> dict[str, str]:
    return {**{f"stack-{number}": str(chips) for number, chips in stacks.items()}, "method": "icm", **extra}


@pytest.mark.django_db
def test_the_console_offers_a_deal_and_then_shows_its_amounts(running, director) -> None:
    tournament = running(players=6)
    client = signed_in(director)
    console = text_of(client.get(f"/poker-room/{tournament.pk}/"))
    assert f'href="/poker-room/{tournament.pk}/deal/"' in console and "6 players are in" in console
    deal = deals.deal_record(actor=director, tournament=tournament, method="chip_chop", stacks=STACKS)
    console = text_of(client.get(f"/poker-room/{tournament.pk}/"))
    assert "chip chop, recorded at" in console
    assert "#1 Anna" in console and f"{deal.amount_for(1) // 100}.{deal.amount_for(1) % 100:02d}" in console


@pytest.mark.django_db
def test_the_console_has_no_deal_panel_with_eleven_players_in(running, director) -> None:
    tournament = running(players=11)
    console = text_of(signed_in(director).get(f"/poker-room/{tournament.pk}/"))
    assert 'id="deal"' not in console  # the Deal tab stays: its page says why no deal is made with 11 players
    deal_page = text_of(signed_in(director).get(f"/poker-room/{tournament.pk}/deal/"))
    assert "11" in deal_page


@pytest.mark.django_db
def test_the_page_works_a_deal_out_then_records_it_once(running, director) -> None:
    tournament = running(players=6)
    client = signed_in(director)
    address = f"/poker-room/{tournament.pk}/deal/"
    form = text_of(client.get(address))
    assert all(f'name="stack-{number}"' in form for number in STACKS) and "Work it out" in form
    typed = deal_form({**STACKS, 1: "30,000", 2: "24 000", 3: "18.000"}, reserve="50.00")
    before = written(tournament)
    worked = client.post(address, {"form_key": KEY, "action": "work", **typed})
    assert worked.status_code == 200 and written(tournament) == before
    page = text_of(worked)
    amounts = icm_deal_cents(list(STACKS.values()), PRIZES, reserve_cents=5_000)
    assert "Record the deal" in page and "30 %" in page
    assert all(f"{amount // 100}.{amount % 100:02d}" in page for amount in amounts)
    # Not ticked: refused, nothing written.
    unticked = client.post(address, {"form_key": KEY, "action": "record", **typed})
    assert unticked.status_code == 400 and "Tick that every player" in text_of(unticked)
    assert written(tournament) == before
    recorded = client.post(address, {"form_key": OTHER_KEY, "action": "record", "agreed": "yes", **typed})
    assert recorded.status_code == 302 and recorded["Location"] == address
    assert Deal.objects.get(tournament=tournament).amounts == {
        str(number): amount for number, amount in zip(STACKS, amounts, strict=True)
    }
    again = client.post(address, {"form_key": OTHER_KEY, "action": "record", "agreed": "yes", **typed})
    assert again.status_code == 302 and Deal.objects.count() == 1  # the same form twice is recorded once
    shown = text_of(client.get(address))
    assert "The deal: ICM" in shown and "50.00 is left to play for" in shown and "Work it out" not in shown


@pytest.mark.parametrize(
    ("typed", "status", "said"),
    [
        ({**deal_form({n: c for n, c in STACKS.items() if n != 4})}, 400, "missing: #4 Dora."),
        (deal_form({**STACKS, 2: "many"}), 400, "not 'many'"),
        (deal_form({**STACKS, 2: "24.5"}), 400, "not '24.5'"),  # no decimal point in a count of chips
        (deal_form({**STACKS, 2: "24,00"}), 400, "not '24,00'"),
        (deal_form(STACKS, reserve="lots"), 400, "Write an amount in units and cents"),
        (deal_form(STACKS, method="custom", **{f"amount-{n}": "90.00" for n in STACKS if n != 6}), 400, "missing"),
        (deal_form(STACKS, method="custom", **{f"amount-{n}": "1.00" for n in STACKS}), 400, "add up to 600 cents"),
    ],
)
@pytest.mark.django_db
def test_a_refused_form_is_drawn_again_with_its_message_and_what_was_typed(running, director, typed, status, said):
    tournament = running(players=6)
    before = written(tournament)
    response = signed_in(director).post(
        f"/poker-room/{tournament.pk}/deal/", {"form_key": KEY, "action": "work", **typed}
    )
    assert response.status_code == status and said in text_of(response)
    assert 'class="chips-input has-error"' in response.content.decode() or "reserve" in typed
    assert written(tournament) == before


@pytest.mark.django_db
def test_an_auditor_reads_the_deal_page_with_no_form_and_a_dealer_is_refused(running, director, auditor, dealer):
    tournament = running(players=6)
    address = f"/poker-room/{tournament.pk}/deal/"
    reading = signed_in(auditor).get(address)
    assert reading.status_code == 200 and 'name="stack-1"' not in reading.content.decode()
    posted = signed_in(auditor).post(
        address, {"form_key": KEY, "action": "record", "agreed": "yes", **deal_form(STACKS)}
    )
    assert posted.status_code == 403 and not Deal.objects.exists()
    assert signed_in(dealer).get(address).status_code == 403


@pytest.mark.django_db
def test_the_page_says_why_no_deal_can_be_made(make_tournament, director):
    tournament = make_tournament()
    response = signed_in(director).get(f"/poker-room/{tournament.pk}/deal/")
    assert response.status_code == 200 and "has not started" in text_of(response)
    assert 'name="stack-' not in response.content.decode()


# --- the page records the deal as the players were shown it------------------------------------------------------------


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
