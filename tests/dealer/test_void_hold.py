"""The tablet holds a round whose void waits for a supervisor, and never shows an old decision as new.

Dana asks for a void; her tablet says "Void requested: waiting for a supervisor", its play buttons are disabled
and the services refuse play with a 409 in the banner. Paula, the pit boss, rejects one request with a note; a
new request of Dana's does not show that old note.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from rounds.models import Adjustment, Round
from settlement.services import adjustment_reject, adjustment_request
from tests.dealer.conftest import HTMX, nothing_written, signed_in, text


def _plays_fieldsets(page: str) -> list[str]:
    return re.findall(r'<fieldset class="plays"[^>]*>', page)


@pytest.mark.django_db
def test_a_void_request_puts_the_tablet_on_hold_and_a_wager_is_refused_in_the_banner(
    open_round: Round, dealer: Any
) -> None:
    client = signed_in(dealer)
    before = text(client.get(f"/dealer/tables/{open_round.table_id}/"))
    assert _plays_fieldsets(before) == ['<fieldset class="plays">']
    page = text(client.post(f"/dealer/rounds/{open_round.pk}/void-request/", {"reason": "Misdeal"}, **HTMX))
    assert "Void requested: waiting for a supervisor" in page and "on hold" in page
    assert _plays_fieldsets(page) == ['<fieldset class="plays" disabled>']  # Place wager, Close betting
    with nothing_written():
        refused = client.post(f"/dealer/rounds/{open_round.pk}/wager/", {"seat": 2, "amount_cents": 2500}, **HTMX)
    assert refused.status_code == 409 and refused["HX-Retarget"] == "#banner"
    assert "A void of round 1 is waiting for a supervisor: no wagers until it is decided." in text(refused)


@pytest.mark.django_db
def test_a_revealed_round_on_hold_disables_settling_and_changing_the_hands(revealed_round: Round, dealer: Any) -> None:
    client = signed_in(dealer)
    client.post(f"/dealer/rounds/{revealed_round.pk}/void-request/", {"reason": "Card exposed"}, **HTMX)
    page = text(client.get(f"/dealer/tables/{revealed_round.table_id}/"))
    assert _plays_fieldsets(page) == ['<fieldset class="plays" disabled>'] * 2  # the settle panel, the hands
    with nothing_written():
        refused = client.post(f"/dealer/rounds/{revealed_round.pk}/settle/", {"idempotency_key": "k-1"}, **HTMX)
    assert refused.status_code == 409 and "waiting for a supervisor" in text(refused)


@pytest.mark.django_db
def test_a_new_void_request_does_not_show_the_rejection_note_of_the_one_before(
    open_round: Round, dealer: Any, pit_boss: Any
) -> None:
    client = signed_in(dealer)
    first = adjustment_request(actor=dealer, round=open_round, kind=Adjustment.Kind.VOID, reason="Misdeal")
    adjustment_reject(actor=pit_boss, adjustment=first, note="Dice were fine")
    page = text(client.get(f"/dealer/tables/{open_round.table_id}/"))
    assert "paula_pitboss rejected the void request: Dice were fine" in page
    assert _plays_fieldsets(page) == ['<fieldset class="plays">']  # rejected: play goes on
    page = text(client.post(f"/dealer/rounds/{open_round.pk}/void-request/", {"reason": "Player dispute"}, **HTMX))
    assert "Void requested: waiting for a supervisor" in page and "(Player dispute)" in page
    assert "Dice were fine" not in page and "rejected" not in page
