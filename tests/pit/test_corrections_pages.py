"""Corrections on the web: a table's history shows each round's hands, a supervisor asks for a
correction from it, and another supervisor decides it on the request's page beside the hands as settled and
what the correction would pay.

The personas: Dana deals PGP-1; Fred is a Floor supervisor, Paula the Pit boss, Audrey an Auditor.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from ledger.models import Posting
from rounds.models import Adjustment, Round
from settlement.services import adjustment_request, settle_round
from tests.settlement.conftest import BANK, LOSES, PUSHES, WINS

HANDS = {"banker": BANK, "seats": {"1": WINS, "2": LOSES}}
CORRECTED = {"banker": BANK, "seats": {"1": WINS, "2": PUSHES}}


@pytest.fixture
def settled(shift, dealer, pgp_table, play_to_hands) -> Round:  # type: ignore[no-untyped-def]
    """Dana's round: seat 1 wins 25.00 (less 5% commission), seat 2 loses 10.00."""
    round_ = play_to_hands(pgp_table, wagers={1: 2500, 2: 1000}, hands=HANDS)
    settle_round(round=round_, actor=dealer, idempotency_key="settle-1")
    return Round.objects.get(pk=round_.pk)


def _client(user) -> Client:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(user)
    return client


def _text(html: bytes) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.decode()))


def _form(round_: Round, **changes: str) -> dict[str, str]:
    """The correction form as drawn (the hands as settled), with ``changes`` typed over it."""
    data = {
        "key": "form-key-1",
        "reason": "Seat 2 low hand keyed wrong",
        "hand-bank-high": BANK["high"],
        "hand-bank-low": BANK["low"],
        "hand-1-high": WINS["high"],
        "hand-1-low": WINS["low"],
        "hand-2-high": LOSES["high"],
        "hand-2-low": LOSES["low"],
    }
    data.update(changes)
    return data


# --- the history shows the hands -----------------------------------------------------------------


@pytest.mark.django_db
def test_a_tables_history_shows_each_rounds_hands_card_by_card(pit_boss, settled) -> None:
    response = _client(pit_boss).get(reverse("pit-table-history", args=[settled.table_id]))
    assert response.status_code == 200
    html = response.content.decode()
    card = html[html.index(f'id="round-{settled.number}"') :]
    # The bank and both seats, each row with its cards drawn and written out.
    for position, hand in (("bank", BANK), ("1", WINS), ("2", LOSES)):
        row = card[card.index(f'data-position="{position}"') :]
        row = row[: row.index("</tr>")]
        for part in ("high", "low"):
            assert hand[part] in row
            for code in hand[part].split():
                assert f'data-code="{code}"' in row


@pytest.mark.django_db
def test_a_corrected_round_shows_the_corrected_hands_and_the_hands_as_first_settled(
    settings, pit_boss, settled
) -> None:
    settings.TABLESIDE_FOUR_EYES = False
    client = _client(pit_boss)
    response = client.post(
        reverse("pit-round-correct", args=[settled.pk]),
        _form(settled, **{"hand-2-high": PUSHES["high"], "hand-2-low": PUSHES["low"]}),
    )
    assert response.status_code == 302
    page = _text(client.get(reverse("pit-table-history", args=[settled.table_id])).content)
    assert "Hands, as corrected" in page
    assert "Hands as first settled" in page
    assert page.index(PUSHES["high"]) < page.index("Hands as first settled") < page.index(LOSES["high"])


# --- a supervisor asks for a correction from the history ------------------------------------------------


@pytest.mark.django_db
def test_the_correction_form_starts_from_the_hands_as_settled(floor_supervisor, settled) -> None:
    response = _client(floor_supervisor).get(reverse("pit-round-correct", args=[settled.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert f'name="hand-2-high" value="{LOSES["high"]}"' in html
    assert f'name="hand-bank-low" value="{BANK["low"]}"' in html
    assert "Another supervisor approves the correction" in _text(response.content)


@pytest.mark.django_db
def test_a_supervisor_asks_for_a_correction_and_lands_on_its_page(floor_supervisor, settled) -> None:
    client = _client(floor_supervisor)
    response = client.post(
        reverse("pit-round-correct", args=[settled.pk]),
        _form(settled, **{"hand-2-high": PUSHES["high"], "hand-2-low": PUSHES["low"]}),
    )
    asked = Adjustment.objects.get(round=settled)
    assert response.status_code == 302
    assert response["Location"] == reverse("pit-adjustment", args=[asked.pk])
    assert (asked.kind, asked.status, asked.requested_by) == ("correction", "pending", floor_supervisor)
    assert asked.hands["seats"]["2"] == PUSHES
    # Nothing moved yet: the settlement is as it was.
    assert Posting.objects.filter(round_id=settled.pk, kind="reversal").count() == 0


@pytest.mark.django_db
def test_a_second_tap_of_the_same_form_asks_once(floor_supervisor, settled) -> None:
    client = _client(floor_supervisor)
    form = _form(settled, **{"hand-2-high": PUSHES["high"], "hand-2-low": PUSHES["low"]})
    first = client.post(reverse("pit-round-correct", args=[settled.pk]), form)
    again = client.post(reverse("pit-round-correct", args=[settled.pk]), form)
    assert again.status_code == 302 and again["Location"] == first["Location"]
    assert "already waiting for another supervisor" in _text(client.get(again["Location"]).content)
    assert Adjustment.objects.filter(round=settled).count() == 1


@pytest.mark.django_db
def test_a_refused_correction_keeps_what_was_typed_and_writes_nothing(floor_supervisor, settled) -> None:
    client = _client(floor_supervisor)
    typo = "9d 2x"
    response = client.post(reverse("pit-round-correct", args=[settled.pk]), _form(settled, **{"hand-2-low": typo}))
    assert response.status_code == 400
    html = response.content.decode()
    assert 'role="alert"' in html and "Seat 2, low hand" in _text(response.content)
    assert f'name="hand-2-low" value="{typo}"' in html
    assert 'value="Seat 2 low hand keyed wrong"' in html
    assert not Adjustment.objects.filter(round=settled).exists()


@pytest.mark.django_db
def test_the_same_hands_again_are_refused_as_nothing_to_correct(floor_supervisor, settled) -> None:
    response = _client(floor_supervisor).post(reverse("pit-round-correct", args=[settled.pk]), _form(settled))
    assert response.status_code == 400
    assert "nothing to correct" in _text(response.content)


@pytest.mark.django_db
def test_a_correction_needs_a_reason(floor_supervisor, settled) -> None:
    form = _form(settled, reason="  ", **{"hand-2-low": PUSHES["low"], "hand-2-high": PUSHES["high"]})
    response = _client(floor_supervisor).post(reverse("pit-round-correct", args=[settled.pk]), form)
    assert response.status_code == 400
    assert "needs a reason" in _text(response.content) or "with a reason" in _text(response.content)
    assert not Adjustment.objects.filter(round=settled).exists()


@pytest.mark.django_db
def test_a_dealer_and_an_auditor_cannot_open_the_correction_form(dealer, auditor, settled) -> None:
    for user in (dealer, auditor):
        assert _client(user).get(reverse("pit-round-correct", args=[settled.pk])).status_code == 403
        response = _client(user).post(reverse("pit-round-correct", args=[settled.pk]), _form(settled))
        assert response.status_code == 403
    assert not Adjustment.objects.filter(round=settled).exists()


@pytest.mark.django_db
def test_only_a_settled_round_is_corrected(floor_supervisor, shift, pgp_table, play_to_hands) -> None:
    revealed = play_to_hands(pgp_table, wagers={1: 2500}, hands={"banker": BANK, "seats": {"1": WINS}})
    form = {"key": "k", "reason": "x", "hand-bank-high": BANK["high"], "hand-1-low": PUSHES["low"]}
    response = _client(floor_supervisor).post(reverse("pit-round-correct", args=[revealed.pk]), form)
    assert response.status_code == 409
    assert "only a settled round is corrected" in _text(response.content)


# --- another supervisor decides it on its page ------------------------------------------------------


@pytest.fixture
def asked(dealer, settled) -> Adjustment:  # type: ignore[no-untyped-def]
    """Dana asks, from the tablet, to correct seat 2: it held the pushing hand."""
    return adjustment_request(actor=dealer, round=settled, kind="correction", reason="Seat 2 misread", hands=CORRECTED)


@pytest.mark.django_db
def test_the_request_page_shows_both_hands_and_what_the_correction_would_pay(pit_boss, asked) -> None:
    response = _client(pit_boss).get(reverse("pit-adjustment", args=[asked.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    # Seat 2 changes (highlighted on both sides); the bank and seat 1 do not.
    assert html.count('data-position="2" class="changed"') == 2
    assert 'data-position="1" class="changed"' not in html
    nets = html[html.index('class="grid compact nets"') :]
    seat2 = _text(nets[nets.index('<tr data-party="seat-2"') :].split("</tr>")[0].encode())
    # Seat 2 lost 10.00; pushing, it loses nothing: +10.00.
    assert seat2.split() == ["Seat", "2", "-10.00", "0.00", "+10.00"]
    house = _text(nets[nets.index('<tr data-party="house"') :].split("</tr>")[0].encode())
    assert house.split()[-1] == "-10.00"
    assert "Approve" in html and "Reject" in html


@pytest.mark.django_db
def test_the_page_writes_nothing(pit_boss, asked) -> None:
    before = (Posting.objects.count(), Adjustment.objects.get(pk=asked.pk).status)
    _client(pit_boss).get(reverse("pit-adjustment", args=[asked.pk]))
    assert (Posting.objects.count(), Adjustment.objects.get(pk=asked.pk).status) == before


@pytest.mark.django_db
def test_a_supervisor_approves_on_the_page_and_comes_back_to_it(pit_boss, asked) -> None:
    client = _client(pit_boss)
    response = client.post(
        reverse("pit-adjustment-approve", args=[asked.pk]), {"note": "Checked the camera", "back": "request"}
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("pit-adjustment", args=[asked.pk])
    assert Adjustment.objects.get(pk=asked.pk).status == "approved"
    after = client.get(response["Location"]).content
    page = _text(after)
    assert "Correction approved" in page and "Checked the camera" in page
    assert Posting.objects.filter(round_id=asked.round_id, kind="reversal").count() == 1
    # Decided, the page still compares the hands as they were settled with the hands the correction put in force.
    before = page[page.index("Hands before the correction") : page.index("Hands asked for")]
    assert LOSES["high"] in before and PUSHES["high"] not in before
    assert after.decode().count('data-position="2" class="changed"') == 2


@pytest.mark.django_db
def test_a_rejection_needs_a_note_on_the_page_too(pit_boss, asked) -> None:
    client = _client(pit_boss)
    response = client.post(reverse("pit-adjustment-reject", args=[asked.pk]), {"note": "", "back": "request"})
    assert response.status_code == 302
    page = _text(client.get(response["Location"]).content)
    assert "Say why the request is rejected." in page
    assert Adjustment.objects.get(pk=asked.pk).status == "pending"


@pytest.mark.django_db
def test_the_dashboard_sends_a_correction_to_its_page_rather_than_approving_blind(pit_boss, asked) -> None:
    html = _client(pit_boss).get(reverse("pit-dashboard")).content.decode()
    alert = html[html.index(f'id="adjustment-{asked.pk}"') :].split("</article>")[0]
    assert reverse("pit-adjustment", args=[asked.pk]) in alert
    assert "Review and decide" in alert
    assert reverse("pit-adjustment-approve", args=[asked.pk]) not in alert


@pytest.mark.django_db
def test_an_auditor_reads_the_request_page_without_the_buttons(auditor, asked) -> None:
    response = _client(auditor).get(reverse("pit-adjustment", args=[asked.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Waiting for a Floor supervisor or Pit boss" in html
    assert reverse("pit-adjustment-approve", args=[asked.pk]) not in html


@pytest.mark.django_db
def test_a_dealer_cannot_read_the_request_page(dealer, asked) -> None:
    assert _client(dealer).get(reverse("pit-adjustment", args=[asked.pk])).status_code == 403


@pytest.mark.django_db
def test_an_unknown_request_is_a_404(pit_boss, db) -> None:
    assert _client(pit_boss).get(reverse("pit-adjustment", args=[999999])).status_code == 404


@pytest.mark.django_db
def test_a_house_hand_the_house_way_set_is_corrected_unset_for_the_house_way_to_set_again(
    dealer, floor_supervisor, shift, pgp_table, play_to_hands
) -> None:
    """As on the tablet: a misread house card is fixed in the seven cards, and the house way sets them again."""
    bank_cards = f"{BANK['high']} {BANK['low']}"
    round_ = play_to_hands(pgp_table, wagers={1: 2500}, hands={"banker": {"cards": bank_cards}, "seats": {"1": WINS}})
    settle_round(round=round_, actor=dealer, idempotency_key="settle-unset")
    client = _client(floor_supervisor)
    html = client.get(reverse("pit-round-correct", args=[round_.pk])).content.decode()
    assert f'name="hand-bank-cards" value="{bank_cards}"' in html and 'name="hand-bank-high"' not in html
    assert "Cards (the house way sets them)" in html
    # The house really held the 9♠, not the 8♠: queens and jacks still, set by the house way again.
    fixed = bank_cards.replace("8s", "9s")
    form = {
        "key": "k-unset",
        "reason": "Bank card misread",
        "hand-bank-cards": fixed,
        **{f"hand-1-{part}": cards for part, cards in WINS.items()},
    }
    assert client.post(reverse("pit-round-correct", args=[round_.pk]), form).status_code == 302
    asked = Adjustment.objects.get(round=round_)
    assert asked.hands["banker"] == {"high": "Qs Qd 9s 5d 3c", "low": "Jh Jc"}


def test_a_round_of_a_closed_shift_is_offered_no_correction_and_its_form_says_why_at_once(
    floor_supervisor, pit_boss, settled
) -> None:  # type: ignore[no-untyped-def]
    from casino.services import shift_close

    shift_close(actor=pit_boss, shift=settled.shift)
    client = _client(floor_supervisor)
    history = client.get(f"/pit/tables/{settled.table_id}/").content.decode()
    assert "Correct this round" not in history
    page = client.get(f"/pit/rounds/{settled.pk}/correct/")
    assert page.status_code == 200
    said = page.content.decode()
    assert "shift is closed: its reports are final" in said and "correct-form" not in said
    posted = client.post(f"/pit/rounds/{settled.pk}/correct/", {"reason": "x"})
    assert posted.status_code == 409 and not Adjustment.objects.exists()
