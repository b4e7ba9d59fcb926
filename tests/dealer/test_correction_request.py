"""A correction request from the tablet: after a round settles, its dealer enters the hands again with
the same picker, says why, and a supervisor decides it from the pit.

Dana settled round 1 at PGP-1 with seat 3 losing; she finds seat 3's low hand was misread. Olly (another table's
dealer) and Alex (the auditor) may not ask.
"""

from __future__ import annotations

from typing import Any

import pytest

from casino.models import AuditEvent
from rounds.models import Adjustment, Round
from tests.dealer.conftest import BANK_CARDS, HTMX, WINS, nothing_written, post_hands, signed_in, text

# What seat 3 really held: kings over queens beats the house (queens over jacks).
SEAT_3_REALLY = {"high": "Ks Kd 9h 6c 4h", "low": "Th Td"}


@pytest.mark.django_db
def test_a_settled_round_offers_a_correction_request_prefilled_with_the_recorded_hands(
    settled_round: Round, dealer: Any
) -> None:
    page = text(signed_in(dealer).get(f"/dealer/tables/{settled_round.table_id}/"))
    assert "Round 1 settled" in page and "Request a correction" in page
    assert f'action="/dealer/rounds/{settled_round.pk}/correction-request/"' in page
    assert 'name="hand-1-high" value="As Ad 7s 4d 2c"' in page and 'name="hand-3-low" value="9d 2d"' in page
    assert 'name="reason"' in page


@pytest.mark.django_db
def test_the_dealer_requests_a_correction_and_the_tablet_waits_for_a_supervisor(
    settled_round: Round, dealer: Any
) -> None:
    client = signed_in(dealer)
    fields = {**post_hands({1: WINS, 3: SEAT_3_REALLY}), "reason": "Seat 3's low hand was misread"}
    page = text(client.post(f"/dealer/rounds/{settled_round.pk}/correction-request/", fields, **HTMX))
    asked = Adjustment.objects.get()
    assert (asked.kind, asked.status, asked.requested_by) == ("correction", "pending", dealer)
    assert asked.reason == "Seat 3's low hand was misread"
    assert asked.hands["seats"]["3"] == SEAT_3_REALLY
    assert AuditEvent.objects.filter(event_type="adjustment.correction_requested").count() == 1
    assert "Correction requested: waiting for a supervisor" in page
    assert f"/dealer/rounds/{settled_round.pk}/correction-request/" not in page  # one request at a time
    settled_round.refresh_from_db()
    assert settled_round.state == "settled"  # nothing moves until a supervisor approves


@pytest.mark.django_db
def test_a_correction_without_a_reason_or_with_the_settled_hands_is_refused_in_the_banner(
    settled_round: Round, dealer: Any
) -> None:
    client = signed_in(dealer)
    url = f"/dealer/rounds/{settled_round.pk}/correction-request/"
    with nothing_written():
        no_reason = client.post(url, post_hands({1: WINS, 3: SEAT_3_REALLY}), **HTMX)
        same = client.post(
            url,
            {**post_hands({1: WINS, 3: {"high": "Ts Td 9h 6c 4h", "low": "9d 2d"}}), "reason": "Check"},
            **HTMX,
        )
        short = client.post(url, {**post_hands({1: WINS, 3: {"high": "Ks Kd", "low": "Th Td"}}), "reason": "x"}, **HTMX)
    assert no_reason.status_code == 400 and "Say why" in text(no_reason)
    assert same.status_code == 400 and "nothing to correct" in text(same)
    assert short.status_code == 400 and "5 cards expected, got 2" in text(short)
    for response in (no_reason, same, short):
        assert response["HX-Retarget"] == "#banner"


@pytest.mark.django_db
def test_another_tables_dealer_and_an_auditor_cannot_request_a_correction(
    settled_round: Round, other_dealer: Any, auditor: Any
) -> None:
    fields = {**post_hands({1: WINS, 3: SEAT_3_REALLY}, BANK_CARDS), "reason": "Misread"}
    with nothing_written():
        for user in (other_dealer, auditor):
            response = signed_in(user).post(f"/dealer/rounds/{settled_round.pk}/correction-request/", fields, **HTMX)
            assert response.status_code == 403
    assert "Request a correction" not in text(signed_in(auditor).get(f"/dealer/tables/{settled_round.table_id}/"))


@pytest.mark.django_db
def test_the_live_values_of_a_correction_are_read_from_the_hands_entered_again(
    settled_round: Round, dealer: Any
) -> None:
    fields = post_hands({1: WINS, 3: SEAT_3_REALLY})
    live = text(signed_in(dealer).post(f"/dealer/rounds/{settled_round.pk}/preview/", fields, **HTMX))
    assert "pair of kings" in live and "Settlement preview" in live


@pytest.mark.django_db
def test_a_round_of_a_closed_shift_offers_no_correction_on_the_tablet(
    settled_round: Round, dealer: Any, pit_boss: Any
) -> None:
    from casino.services import shift_close

    shift_close(actor=pit_boss, shift=settled_round.shift)
    page = text(signed_in(dealer).get(f"/dealer/tables/{settled_round.table_id}/"))
    assert "Request a correction" not in page and 'name="reason"' not in page
