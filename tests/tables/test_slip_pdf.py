"""The slip as a PDF: its kind and number, table, pit, gaming day and shift, the times, the chips by
denomination with the total, the four signatures, and for a voided slip the VOID mark with who and why. Read back
with pypdf in its layout mode, as a person reading the printed slip would.

The personas: Dana deals PGP-1 and asks; Cora is the Cage cashier; Fred the Floor supervisor signs; Paula the Pit
boss voids.
"""

from __future__ import annotations

import datetime as dt
import io
from unittest import mock

import pytest
from django.utils import timezone
from pypdf import PdfReader

from casino.roles import Role
from tables.models import Slip, SlipSequence
from tables.slip_pdf import slip_pdf
from tables.slips import slip_issue, slip_request, slip_sign, slip_void

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("house_chips")]

FILL = {10000: 10, 2500: 40, 100: 3}  # 1,000.00 + 1,000.00 + 3.00


def text_of(pdf: bytes) -> str:
    """The PDF's text as pypdf lays it out; lines with their runs of spaces squeezed."""
    reader = PdfReader(io.BytesIO(pdf))
    out = "\n".join(page.extract_text(extraction_mode="layout") for page in reader.pages)
    return "\n".join(" ".join(line.split()) for line in out.splitlines() if line.strip())


def fetched(slip: Slip) -> Slip:
    return Slip.objects.select_related("table__pit", "shift__gaming_day").get(pk=slip.pk)


@pytest.fixture
def pgp(shift, make_table):  # type: ignore[no-untyped-def]
    return make_table(name="PGP-1", game="paigow_poker", seat_count=6)


@pytest.fixture
def cora(make_user):  # type: ignore[no-untyped-def]
    return make_user("cora_cage", Role.CAGE_CASHIER)


def test_a_received_fill_prints_its_number_table_chips_total_and_four_signatures(  # type: ignore[no-untyped-def]
    pgp, dealer, cora, floor_supervisor
) -> None:
    SlipSequence.objects.create(kind="fill", last_number=16)  # sixteen fills before this one
    slip = slip_request(actor=dealer, table=pgp, kind="fill", chips=FILL)
    slip_issue(actor=cora, slip=slip)
    slip_sign(actor=floor_supervisor, slip=slip_sign(actor=dealer, slip=slip))
    slip = fetched(slip)
    requested = timezone.localtime(slip.requested_at).strftime("%Y-%m-%d %H:%M")

    text = text_of(slip_pdf(slip))

    lines = text.splitlines()
    assert lines[0] == "Fill slip No. 000017"
    for line in (
        "Table PGP-1 (Pai Gow Poker)",
        "Pit Pit 1",
        "Gaming day 2025-03-01",
        "Shift Day (shift 1)",
        "Status received and signed",
        f"Requested {requested}",
        "Denomination Chips Amount",
        "100.00 10 1 000.00",
        "25.00 40 1 000.00",
        "1.00 3 3.00",
        "Total 53 2 003.00",
        f"Requested by dana_dealer {requested}",
        "Dealer dana_dealer",
    ):
        assert line in lines, line
    assert any(line.startswith("Issued by (cage) cora_cage 20") for line in lines)
    assert any(line.startswith("Supervisor fred_floor 20") for line in lines)
    assert any(line.startswith("Received 20") for line in lines)
    assert "VOID" not in text


def test_a_requested_credit_prints_empty_signature_lines(pgp, dealer) -> None:  # type: ignore[no-untyped-def]
    slip = fetched(slip_request(actor=dealer, table=pgp, kind="credit", chips={500: 20}))

    lines = text_of(slip_pdf(slip)).splitlines()

    assert lines[0] == "Credit slip No. 000001"
    assert "Status requested" in lines and "Issued —" in lines and "Received —" in lines
    assert "5.00 20 100.00" in lines and "Total 20 100.00" in lines
    assert "Issued by (cage)" in lines and "Dealer" in lines and "Supervisor" in lines


def test_a_voided_slip_is_marked_void_with_who_and_why(pgp, dealer, pit_boss) -> None:  # type: ignore[no-untyped-def]
    slip = slip_request(actor=dealer, table=pgp, kind="fill", chips=FILL)
    slip = fetched(slip_void(actor=pit_boss, slip=slip, reason="Asked for the wrong table"))

    text = text_of(slip_pdf(slip))

    assert "VOID: voided by paula_pitboss. Reason: Asked for the wrong table" in text.splitlines()
    assert "Status voided" in text.splitlines()


def test_the_same_slip_prints_the_same_bytes(pgp, dealer) -> None:  # type: ignore[no-untyped-def]
    slip = fetched(slip_request(actor=dealer, table=pgp, kind="fill", chips=FILL))

    assert slip_pdf(slip) == slip_pdf(fetched(slip))


def test_a_reason_with_markup_prints_as_written_and_times_on_the_floors_clock(pgp, dealer, pit_boss, settings) -> None:  # type: ignore[no-untyped-def]
    settings.TIME_ZONE = "Europe/Berlin"
    with mock.patch("django.utils.timezone.now", return_value=dt.datetime(2025, 3, 1, 23, 30, tzinfo=dt.UTC)):
        slip = slip_request(actor=dealer, table=pgp, kind="fill", chips=FILL)
    slip = fetched(slip_void(actor=pit_boss, slip=slip, reason="<b>wrong</b> & late"))

    text = text_of(slip_pdf(slip))

    assert "Reason: <b>wrong</b> & late" in text
    assert "Requested 2025-03-02 00:30" in text.splitlines()  # the floor's clock, not UTC
