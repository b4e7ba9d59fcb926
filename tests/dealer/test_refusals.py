"""Every refusal on the tablet lands in its banner, and nothing entered is lost.

A refusal is the service's message with its status (400, 403 or 409), marked with the ``Tableside-Refusal``
header and aimed at the banner (``HX-Retarget``): the tablet's script swaps only such answers, so no refusal
replaces the page, and django-htmx's DEBUG helper (which draws any 400 or 403 over the whole document) never
sees one. Dana deals at PGP-1; Olly deals at another table; Alex is the auditor.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dealer.views import REFUSAL_HEADER
from rounds.models import Round
from tests.dealer.conftest import HTMX, LOSES, WINS, nothing_written, post_hands, signed_in, text

TABLET_JS = Path(__file__).resolve().parents[2] / "dealer" / "static" / "dealer" / "tablet.js"


def _is_banner_refusal(response: Any, status: int, message: str) -> None:
    body = text(response)
    assert response.status_code == status, body
    assert response[REFUSAL_HEADER] == "1"
    assert response["HX-Retarget"] == "#banner" and response["HX-Reswap"] == "innerHTML"
    assert message in body
    assert 'id="tablet"' not in body and "<html" not in body  # the banner alone: the tablet stays as it is


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("fixture", "action", "data", "status", "message"),
    [
        ("pgp", "open", {"banker": "2"}, 400, "The house banks every round at table PGP-1"),
        ("open_round", "wager", {"seat": 2, "amount_cents": 60000}, 400, "is 10.00 to 500.00, not 600.00"),
        ("open_round", "wager", {"seat": 1, "amount_cents": 2500}, 409, "Seat 1 already has a wager"),
        ("dealt_round", "close-betting", {}, 409, "A round goes from dealt to revealed, not to betting_closed."),
        ("dealt_round", "deal", {"die1": 3}, 400, "Tap all three dice first."),
        (
            "dealt_round",
            "hands",
            post_hands({1: WINS, 3: {"high": "Ts Td 9h 6c 4h", "low": "9d"}}),
            400,
            "Seat 3, low hand: 2 cards expected, got 1",
        ),
        ("dealt_round", "placements", {"hand-1-back": "Ac"}, 400, "Tap this street&#x27;s cards"),
        ("revealed_round", "settle", {"idempotency_key": ""}, 400, "idempotency"),
        ("revealed_round", "void-request", {"reason": " "}, 400, "Say why"),
        ("settled_round", "correction-request", {"reason": " "}, 400, "Say why"),
    ],
)
def test_every_tablet_form_shows_its_refusal_in_the_banner_and_writes_nothing(
    request: pytest.FixtureRequest, dealer: Any, fixture: str, action: str, data: dict, status: int, message: str
) -> None:
    subject = request.getfixturevalue(fixture)
    client = signed_in(dealer)
    url = f"/dealer/tables/{subject.pk}/open/" if action == "open" else f"/dealer/rounds/{subject.pk}/{action}/"
    with nothing_written():
        response = client.post(url, data, **HTMX)
    _is_banner_refusal(response, status, message)


@pytest.mark.django_db
def test_a_dealer_at_another_table_is_refused_in_the_banner_with_403(dealt_round: Round, other_dealer: Any) -> None:
    client = signed_in(other_dealer)
    with nothing_written():
        for action in ("wager", "hands", "preview", "advice", "void-request", "correction-request", "settle"):
            response = client.post(f"/dealer/rounds/{dealt_round.pk}/{action}/", {"seat": "1"}, **HTMX)
            _is_banner_refusal(response, 403, "Table PGP-1 is not your table")


@pytest.mark.django_db
def test_an_auditor_is_refused_in_the_banner_with_403(revealed_round: Round, auditor: Any) -> None:
    with nothing_written():
        response = signed_in(auditor).post(
            f"/dealer/rounds/{revealed_round.pk}/hands/", post_hands({1: WINS, 3: LOSES}), **HTMX
        )
    _is_banner_refusal(response, 403, "Only a Dealer")


@pytest.mark.django_db
def test_advice_on_a_hand_not_yet_tapped_in_is_a_marked_refusal_in_its_own_box(dealt_round: Round, dealer: Any) -> None:
    response = signed_in(dealer).post(
        f"/dealer/rounds/{dealt_round.pk}/advice/", {"seat": "1", "hand-1-high": "As Ad 7s 4d"}, **HTMX
    )
    assert response.status_code == 400 and response[REFUSAL_HEADER] == "1"
    assert "Seat 1: 7 cards expected, got 4" in text(response)
    assert "HX-Retarget" not in response  # it stays in the advice box it was asked for


@pytest.mark.django_db
def test_the_preview_of_a_form_posts_nothing_and_needs_no_submit_button(dealt_round: Round, dealer: Any) -> None:
    """The live preview sits inside the hands form: it must not inherit the form's disabled-while-sending button
    (htmx warned "hx-disabled-elt returned no matches" on every tap)."""
    page = text(signed_in(dealer).get(f"/dealer/tables/{dealt_round.table_id}/"))
    assert 'hx-disabled-elt="unset"' in page


def test_the_tablet_script_keeps_error_pages_off_the_tablet() -> None:
    """django-htmx's DEBUG helper draws any 400/403/404/500 over the whole document: the tablet's script hears the
    answer first (capturing on window) and stops it, swapping only marked refusals."""
    script = TABLET_JS.read_text()
    assert 'window.addEventListener("htmx:beforeOnLoad"' in script and "}, true);" in script
    assert 'getResponseHeader("Tableside-Refusal")' in script
    assert REFUSAL_HEADER == "Tableside-Refusal"
