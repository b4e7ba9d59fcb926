"""Credit at the table: a player's credit line, set by a Credit manager (a large one approved by a second), and their
markers: asked for at a seat with the player's signature, issued by another supervisor (numbered without gaps, chips
out of the tray, the marker into the drop box), counted with the box, redeemed at the cage, a returned cheque
re-opening one, voids with who and why; every step in the ledger, which the verifier holds.

The personas: Dana deals PGP-1; Fred is a Floor supervisor; Paula the Pit boss closes the shift; Cora and Chris
manage credit; Kim works the cage; Carl and Cleo count the boxes. Mr Lee (card 1001, Gold) plays at seat 2.
"""

from __future__ import annotations

import pytest

from casino.errors import ApplicationError, NotAllowed, WrongState
from casino.models import AuditEvent
from casino.roles import Role
from casino.services import shift_close
from ledger.models import LedgerEntry, Posting
from ledger.verify import ledger_verify
from players.credit import (
    credit_available,
    credit_change_decide,
    credit_line_set,
    marker_cheque_returned,
    marker_issue,
    marker_redeem,
    marker_request,
    marker_void,
    markers_count_differences,
)
from players.credit_verify import markers_check
from players.models import CreditLine, CreditLineChange, Marker, MarkerPayment
from players.services import player_create, session_start
from tables.drop import buy_in_record, buy_in_void, drop_count_record
from tables.models import BuyIn
from tests.guards import guards_off

pytestmark = pytest.mark.django_db

SIGNED = "data:image/png;base64,iVBORw0KGgo="
NO_CASH: dict[object, object] = {}


@pytest.fixture
def pgp(shift, make_table):  # type: ignore[no-untyped-def]
    return make_table(name="PGP-1", game="paigow_poker", seat_count=6)


@pytest.fixture
def people(make_user):  # type: ignore[no-untyped-def]
    return {
        "cora": make_user("cora_credit", Role.CREDIT_MANAGER),
        "chris": make_user("chris_credit", Role.CREDIT_MANAGER),
        "kim": make_user("kim_cage", Role.CAGE_CASHIER),
        "carl": make_user("carl_count", Role.COUNT_TEAM),
        "cleo": make_user("cleo_count", Role.COUNT_TEAM),
    }


@pytest.fixture
def lee(pgp, dealer, people):  # type: ignore[no-untyped-def]
    lee = player_create(actor=dealer, name="Mr Lee", card_number="1001", tier="Gold")
    session_start(actor=dealer, player=lee, table=pgp, seat=2)
    credit_line_set(actor=people["cora"], player=lee, limit_cents=500_000)
    return lee


def _written() -> tuple[int, int, int, int]:
    return Marker.objects.count(), BuyIn.objects.count(), Posting.objects.count(), AuditEvent.objects.count()


def _counted(pgp, shift, people, pit_boss, markers_cents: int) -> None:  # type: ignore[no-untyped-def]
    shift_close(actor=pit_boss, shift=shift)
    for counter in (people["carl"], people["cleo"]):
        drop_count_record(
            actor=counter, table=pgp, shift=shift, cash=NO_CASH, markers_cents=markers_cents, promo_cents=0
        )


def test_a_credit_manager_sets_a_line_that_takes_effect_at_once_below_the_threshold(lee, people) -> None:  # type: ignore[no-untyped-def]
    assert CreditLine.objects.get(player=lee).limit_cents == 500_000
    assert credit_available(lee) == 500_000
    credit_line_set(actor=people["chris"], player=lee, limit_cents=200_000, reason="asked to lower")
    assert CreditLine.objects.get(player=lee).limit_cents == 200_000
    assert AuditEvent.objects.filter(event_type="credit_line.set").count() == 2


def test_a_line_raised_above_the_threshold_waits_for_a_second_credit_manager(lee, people, settings) -> None:  # type: ignore[no-untyped-def]
    settings.TABLESIDE_CREDIT_APPROVAL_ABOVE_CENTS = 1_000_000
    change = credit_line_set(actor=people["cora"], player=lee, limit_cents=2_000_000)
    assert isinstance(change, CreditLineChange) and change.status == "pending"
    assert credit_available(lee) == 500_000  # nothing changes until it is approved
    with pytest.raises(NotAllowed, match="a second Credit manager approves it"):
        credit_change_decide(actor=people["cora"], change=change, approve=True)
    with pytest.raises(WrongState, match="waiting for approval"):
        credit_line_set(actor=people["chris"], player=lee, limit_cents=100_000)
    credit_change_decide(actor=people["chris"], change=change, approve=True)
    line = CreditLine.objects.get(player=lee)
    assert (line.limit_cents, line.set_by, line.approved_by) == (2_000_000, people["cora"], people["chris"])
    with pytest.raises(WrongState, match="decided already"):
        credit_change_decide(actor=people["chris"], change=change, approve=False)


def test_only_a_credit_manager_sets_a_line_and_an_anonymous_player_has_none(
    lee, dealer, floor_supervisor, people
) -> None:  # type: ignore[no-untyped-def]
    for outsider in (dealer, floor_supervisor, people["kim"]):
        with pytest.raises(NotAllowed, match="Only a Credit manager may set a credit line"):
            credit_line_set(actor=outsider, player=lee, limit_cents=1)
    nobody = player_create(actor=dealer, tier="Bronze", anonymous=True)
    with pytest.raises(WrongState, match="anonymous player has no credit line"):
        credit_line_set(actor=people["cora"], player=nobody, limit_cents=1)
    with pytest.raises(ApplicationError, match="whole number of cents from 0"):
        credit_line_set(actor=people["cora"], player=lee, limit_cents=-5)


def test_a_markers_whole_life_is_posted_and_the_ledger_stays_sound(  # type: ignore[no-untyped-def]
    pgp, shift, dealer, floor_supervisor, pit_boss, people, lee
) -> None:
    asked = marker_request(actor=dealer, table=pgp, seat=2, amount_cents=200_000, signature=SIGNED)
    assert (asked.status, asked.number, asked.player) == ("requested", None, lee)
    assert credit_available(lee) == 300_000  # a marker waiting counts against the line already
    issued = marker_issue(actor=floor_supervisor, marker=asked)
    assert (issued.status, issued.number, issued.issued_by) == ("in_drop", 1, floor_supervisor)
    buy_in = issued.buy_in
    assert buy_in is not None and (buy_in.medium, buy_in.amount_cents, buy_in.seat_number) == ("marker", 200_000, 2)
    with pytest.raises(WrongState, match="still in the drop box of table PGP-1"):
        marker_redeem(actor=people["kim"], marker=issued, method="cash")
    _counted(pgp, shift, people, pit_boss, markers_cents=200_000)
    issued.refresh_from_db()
    assert issued.status == "at_cage" and issued.counted_at is not None
    receivable = LedgerEntry.objects.filter(account="markers")
    assert sum(e.amount_cents for e in receivable) == 200_000
    payment = marker_redeem(actor=people["kim"], marker=issued, method="cash")
    issued.refresh_from_db()
    assert (issued.status, payment.amount_cents, payment.method) == ("redeemed", 200_000, "cash")
    assert sum(e.amount_cents for e in LedgerEntry.objects.filter(account="markers")) == 0
    assert credit_available(lee) == 500_000
    report = ledger_verify()
    assert report.ok, report.problems
    assert report.counted["markers"] == 1
    kinds = [e.event_type for e in AuditEvent.objects.filter(event_type__startswith="marker.").order_by("seq")]
    assert kinds == ["marker.requested", "marker.issued", "marker.counted", "marker.redeemed"]


def test_a_marker_over_the_line_is_refused_and_nothing_is_written(pgp, dealer, lee) -> None:  # type: ignore[no-untyped-def]
    before = _written()
    with pytest.raises(WrongState) as refusal:
        marker_request(actor=dealer, table=pgp, seat=2, amount_cents=500_001, signature=SIGNED)
    assert refusal.value.message == (
        "A marker of 5\u2009000.01 is over this player's credit: 5\u2009000.00 is left of a line of 5\u2009000.00."
    )
    assert _written() == before


@pytest.mark.parametrize(
    ("seat", "amount", "signature", "name", "message"),
    [
        (7, 100, SIGNED, "", "Table PGP-1 has seats 1 to 6, not 7."),
        (3, 100, SIGNED, "", "Nobody is rated at seat 3"),
        (2, 0, SIGNED, "", "The amount is a whole number of cents from 1"),
        (2, 12.5, SIGNED, "", "not 12.5"),
        (2, 100, "", "  ", "The player signs the marker"),
        (2, 100, "<svg onload=x>", "", "The signature is a drawing from the tablet"),
    ],
)
def test_a_marker_that_cannot_be_is_refused_and_writes_nothing(  # type: ignore[no-untyped-def]
    pgp, dealer, lee, seat, amount, signature, name, message
) -> None:
    before = _written()
    with pytest.raises(ApplicationError, match=message):
        marker_request(actor=dealer, table=pgp, seat=seat, amount_cents=amount, signature=signature, signed_name=name)
    assert _written() == before


def test_a_marker_is_approved_by_another_supervisor_and_numbers_run_without_gaps(  # type: ignore[no-untyped-def]
    pgp, dealer, floor_supervisor, pit_boss, people, lee
) -> None:
    by_fred = marker_request(actor=floor_supervisor, table=pgp, seat=2, amount_cents=100_000, signed_name="Lee")
    with pytest.raises(NotAllowed, match="another supervisor approves it"):
        marker_issue(actor=floor_supervisor, marker=by_fred)
    asked = marker_request(actor=dealer, table=pgp, seat=2, amount_cents=100_000, signature=SIGNED)
    with pytest.raises(NotAllowed, match="Only a Floor supervisor or Pit boss may approve a marker"):
        marker_issue(actor=dealer, marker=asked)
    # The line lowered meanwhile: the issue is refused and gives its number back.
    credit_line_set(actor=people["cora"], player=lee, limit_cents=150_000)
    with pytest.raises(WrongState, match="over this player's credit"):
        marker_issue(actor=pit_boss, marker=asked)
    marker_void(actor=pit_boss, marker=by_fred, reason="Asked twice")
    assert marker_issue(actor=pit_boss, marker=asked).number == 1
    credit_line_set(actor=people["cora"], player=lee, limit_cents=500_000)
    third = marker_request(actor=dealer, table=pgp, seat=2, amount_cents=50_000, signature=SIGNED)
    assert marker_issue(actor=floor_supervisor, marker=third).number == 2
    with pytest.raises(WrongState, match="only one waiting for a supervisor is approved"):
        marker_issue(actor=floor_supervisor, marker=third)
    assert markers_check() == []


def test_a_void_says_who_and_why_and_puts_the_chips_back_in_the_tray(  # type: ignore[no-untyped-def]
    pgp, shift, dealer, floor_supervisor, pit_boss, people, lee
) -> None:
    marker = marker_issue(
        actor=floor_supervisor,
        marker=marker_request(actor=dealer, table=pgp, seat=2, amount_cents=100_000, signature=SIGNED),
    )
    with pytest.raises(ApplicationError, match="Say why the marker is voided"):
        marker_void(actor=pit_boss, marker=marker, reason=" ")
    with pytest.raises(NotAllowed):
        marker_void(actor=dealer, marker=marker, reason="wrong seat")
    voided = marker_void(actor=pit_boss, marker=marker, reason="Wrong seat")
    assert (voided.status, voided.voided_by, voided.void_reason) == ("voided", pit_boss, "Wrong seat")
    assert BuyIn.objects.filter(corrects=marker.buy_in, amount_cents=-100_000).exists()
    assert credit_available(lee) == 500_000
    # Voiding its buy-in on the money page voids a marker too.
    other = marker_issue(
        actor=floor_supervisor,
        marker=marker_request(actor=dealer, table=pgp, seat=2, amount_cents=10_000, signature=SIGNED),
    )
    assert other.buy_in is not None
    buy_in_void(actor=pit_boss, buy_in=other.buy_in, reason="keyed wrong")
    other.refresh_from_db()
    assert (other.status, other.voided_by) == ("voided", pit_boss)
    _counted(pgp, shift, people, pit_boss, markers_cents=0)
    with pytest.raises(WrongState, match="only a marker waiting or in the drop box is voided"):
        marker_void(actor=pit_boss, marker=voided, reason="again")
    report = ledger_verify()
    assert report.ok, report.problems


def test_a_returned_cheque_reopens_the_marker(  # type: ignore[no-untyped-def]
    pgp, shift, dealer, floor_supervisor, pit_boss, people, lee
) -> None:
    marker = marker_issue(
        actor=floor_supervisor,
        marker=marker_request(actor=dealer, table=pgp, seat=2, amount_cents=100_000, signature=SIGNED),
    )
    _counted(pgp, shift, people, pit_boss, markers_cents=100_000)
    with pytest.raises(ApplicationError, match="cash, chips or a cheque, not 'iou'"):
        marker_redeem(actor=people["kim"], marker=marker, method="iou")
    with pytest.raises(ApplicationError, match="Type the cheque's number"):
        marker_redeem(actor=people["kim"], marker=marker, method="cheque")
    with pytest.raises(NotAllowed):
        marker_redeem(actor=floor_supervisor, marker=marker, method="cash")
    marker_redeem(actor=people["kim"], marker=marker, method="cheque", reference="0042")
    with pytest.raises(WrongState, match="only an outstanding marker is redeemed"):
        marker_redeem(actor=people["kim"], marker=marker, method="cash")
    returned = marker_cheque_returned(actor=people["cora"], marker=marker, reason="Insufficient funds")
    marker.refresh_from_db()
    assert (marker.status, returned.amount_cents, returned.method) == ("at_cage", -100_000, "returned")
    assert sum(e.amount_cents for e in LedgerEntry.objects.filter(account="markers")) == 100_000
    assert credit_available(lee) == 400_000
    with pytest.raises(WrongState, match="no cheque to return"):
        marker_cheque_returned(actor=people["cora"], marker=marker, reason="again")
    marker_redeem(actor=people["kim"], marker=marker, method="chips")
    assert MarkerPayment.objects.filter(marker=marker).count() == 3
    report = ledger_verify()
    assert report.ok, report.problems


def test_the_verifier_names_a_marker_changed_behind_the_applications_back(  # type: ignore[no-untyped-def]
    pgp, shift, dealer, floor_supervisor, pit_boss, people, lee
) -> None:
    marker = marker_issue(
        actor=floor_supervisor,
        marker=marker_request(actor=dealer, table=pgp, seat=2, amount_cents=100_000, signature=SIGNED),
    )
    _counted(pgp, shift, people, pit_boss, markers_cents=100_000)
    assert markers_check() == []
    with guards_off():
        Marker.objects.filter(pk=marker.pk).update(status="redeemed")
    problems = markers_check()
    assert any("is redeemed but 100000 cents of it are not paid" in p for p in problems)
    assert any("markers receivable hold 100000 cents" in p for p in problems)
    with guards_off():
        Marker.objects.filter(pk=marker.pk).update(status="at_cage", amount_cents=90_000)
    problems = markers_check()
    assert any("does not move what its marker or payment says" in p for p in problems)
    assert any("is not the buy-in it names" in p for p in problems)


def test_only_the_tables_dealer_or_a_supervisor_asks_for_a_marker_there(pgp, make_user, lee, people) -> None:  # type: ignore[no-untyped-def]
    otto = make_user("otto_other_dealer", Role.DEALER)
    for outsider in (otto, people["kim"], people["cora"]):
        with pytest.raises(NotAllowed):
            marker_request(actor=outsider, table=pgp, seat=2, amount_cents=100, signed_name="Lee")
    assert not Marker.objects.exists()


def test_the_audit_trail_of_credit_never_holds_the_players_name(  # type: ignore[no-untyped-def]
    pgp, shift, dealer, floor_supervisor, pit_boss, people, lee
) -> None:
    marker = marker_issue(
        actor=floor_supervisor,
        marker=marker_request(actor=dealer, table=pgp, seat=2, amount_cents=100_000, signed_name="Lee"),
    )
    _counted(pgp, shift, people, pit_boss, markers_cents=100_000)
    marker_redeem(actor=people["kim"], marker=marker, method="cash")
    credit_events = AuditEvent.objects.filter(event_type__startswith="marker.") | AuditEvent.objects.filter(
        event_type__startswith="credit_line."
    )
    assert credit_events.count() == 5
    for event in credit_events:
        assert "Mr Lee" not in str(event.after) and "1001" not in str(event.after), event.event_type
        assert event.after["player"] == lee.pk


def test_a_buy_in_paid_with_a_marker_is_recorded_only_by_issuing_a_marker(pgp, dealer, floor_supervisor, lee) -> None:  # type: ignore[no-untyped-def]
    before = _written()
    for who in (dealer, floor_supervisor):
        with pytest.raises(ApplicationError, match="A marker is asked for on the Markers page"):
            buy_in_record(actor=who, table=pgp, seat=2, medium="marker", amount_cents=5_000_000)
    assert _written() == before
    # One recorded past the marker service (a row no numbered marker names) is named by the verifier.
    loose = buy_in_record(
        actor=floor_supervisor, table=pgp, seat=2, medium="marker", amount_cents=50_000, for_issued_marker=True
    )
    assert markers_check() == [
        f"Buy-in {loose.pk} (PGP-1, seat 2, 50000 cents) is paid with a marker that no numbered marker names."
    ]


def test_a_box_counted_with_other_markers_than_were_issued_into_it_is_named_at_the_cage_and_by_the_verifier(  # type: ignore[no-untyped-def]
    pgp, shift, dealer, floor_supervisor, pit_boss, people, lee
) -> None:
    from django.test import Client

    marker_issue(
        actor=floor_supervisor,
        marker=marker_request(actor=dealer, table=pgp, seat=2, amount_cents=200_000, signature=SIGNED),
    )
    _counted(pgp, shift, people, pit_boss, markers_cents=150_000)  # one 2,000.00 marker, counted at 1,500.00
    [differs] = markers_count_differences()
    assert (differs.table, differs.shift, differs.counted_cents, differs.issued_cents) == (pgp, shift, 150_000, 200_000)
    assert markers_check() == [
        f"The drop box of PGP-1 for shift {shift.pk} was counted with 150000 cents of markers but the markers "
        "issued into it add up to 200000 cents."
    ]
    counted = AuditEvent.objects.get(event_type="marker.counted")
    assert counted.after["box"] == {"counted_cents": 150_000, "issued_cents": 200_000}
    cage = Client()
    cage.force_login(people["kim"])
    page = cage.get("/cage/markers/").content.decode()
    assert 'id="count-differences"' in page and f'data-count-differs="{pgp.pk}-{shift.pk}"' in page


def test_a_box_counted_at_its_markers_names_no_difference(  # type: ignore[no-untyped-def]
    pgp, shift, dealer, floor_supervisor, pit_boss, people, lee
) -> None:
    marker_issue(
        actor=floor_supervisor,
        marker=marker_request(actor=dealer, table=pgp, seat=2, amount_cents=200_000, signature=SIGNED),
    )
    _counted(pgp, shift, people, pit_boss, markers_cents=200_000)
    assert markers_count_differences() == [] and markers_check() == []
