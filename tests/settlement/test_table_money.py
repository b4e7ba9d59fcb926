"""The table's money in the ledger and beside the settlements: a whole shift at one table.

Dana deals PGP-1; Fred (Floor supervisor) confirms and signs; Cora (Cage cashier) issues; Kim and Lee (Count team)
count the box. Every figure is worked out by hand in the comments from DESIGN.md, "The table's money":
win = drop + closer + credits − opener − fills, and the win the settlements computed is the house's bank result
plus the commission.
"""

from __future__ import annotations

from typing import Any

import pytest

from casino.errors import WrongState
from casino.models import AuditEvent
from casino.roles import Role
from casino.services import shift_close
from ledger.models import LedgerEntry, Posting
from ledger.verify import ledger_verify
from players.models import Marker
from settlement.services import settle_round
from settlement.table_money import table_money_figures, win_hold_by
from tables.drop import buy_in_record, drop_count_record
from tables.models import BuyIn, Slip
from tables.services import table_close
from tables.slips import slip_issue, slip_request, slip_sign, slip_void
from tables.tray import tray_count_confirm, tray_count_record
from tables.verify import table_money_check
from tests.markers import marker_buy_in
from tests.settlement.conftest import BANK, LOSES, WINS

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("house_chips")]

OPENER = {10000: 20, 2500: 40}  # 2,000.00 + 1,000.00 = 3,000.00
FILL = {10000: 10}  # 1,000.00
CREDIT = {2500: 20}  # 500.00


def chips_for(cents: int) -> dict[int, int]:
    """A tray holding exactly ``cents`` in the house's chips, biggest first."""
    counts: dict[int, int] = {}
    for value in (100_000, 10_000, 2_500, 500, 100):
        counts[value], cents = divmod(cents, value)
    assert cents == 0
    return {value: n for value, n in counts.items() if n}


@pytest.fixture
def people(make_user, dealer, floor_supervisor):  # type: ignore[no-untyped-def]
    return {
        "dealer": dealer,
        "floor": floor_supervisor,
        "cage": make_user("cora_cage", Role.CAGE_CASHIER),
        "kim": make_user("kim_count", Role.COUNT_TEAM),
        "lee": make_user("lee_count", Role.COUNT_TEAM),
    }


def _count(people: dict[str, Any], table: Any, kind: str, counts: dict[int, int]) -> None:
    tray_count_confirm(
        actor=people["floor"], count=tray_count_record(actor=people["dealer"], table=table, kind=kind, counts=counts)
    )


def _slip(people: dict[str, Any], table: Any, kind: str, chips: dict[int, int]) -> Slip:
    slip = slip_issue(
        actor=people["cage"], slip=slip_request(actor=people["dealer"], table=table, kind=kind, chips=chips)
    )
    slip = slip_sign(actor=people["dealer"], slip=slip)
    return slip_sign(actor=people["floor"], slip=slip)


def play_a_shift(people, shift, table, play_to_hands, *, short_cents: int = 0) -> None:  # type: ignore[no-untyped-def]
    """Open, two buy-ins, two rounds, a fill, a credit, a voided fill, close (``short_cents`` missing from the
    closer), and both counts of the drop box."""
    _count(people, table, "opener", OPENER)
    buy_in_record(actor=people["dealer"], table=table, seat=1, medium="cash", amount_cents=50_000)
    marker_buy_in(table=table, seat=2, amount_cents=20_000, asked_by=people["dealer"], issued_by=people["floor"])
    # Seat 1 wins 20.00 (house −20.00, commission +1.00); seat 2 loses 50.00 (house +50.00): the house won 31.00.
    won = play_to_hands(table, wagers={1: 2_000, 2: 5_000}, hands={"banker": BANK, "seats": {"1": WINS, "2": LOSES}})
    settle_round(round=won, actor=people["dealer"], idempotency_key="r1")
    _slip(people, table, "fill", FILL)
    _slip(people, table, "credit", CREDIT)
    slip_void(
        actor=people["floor"],
        slip=slip_request(actor=people["dealer"], table=table, kind="fill", chips=FILL),
        reason="Asked twice",
    )
    # The tray: 3,000.00 + 1,000.00 fill − 500.00 credit − 700.00 sold at buy-ins + 31.00 won = 2,831.00.
    _count(people, table, "closer", chips_for(283_100 - short_cents))
    shift_close(actor=people["floor"], shift=shift)
    box = {"cash": {10000: 5}, "markers_cents": 20_000, "promo_cents": 0}  # 500.00 cash + a 200.00 marker
    drop_count_record(actor=people["kim"], table=table, shift=shift, **box)
    drop_count_record(actor=people["lee"], table=table, shift=shift, **box)


@pytest.fixture
def pgp(make_table):  # type: ignore[no-untyped-def]
    return make_table(name="PGP-1", game="paigow_poker", seat_count=6)


def test_a_shift_with_no_mistakes_reconciles_to_the_cent(people, shift, pgp, play_to_hands) -> None:  # type: ignore[no-untyped-def]
    play_a_shift(people, shift, pgp, play_to_hands)
    (money,) = table_money_figures(shifts=[shift])
    assert (money.opener_cents, money.closer_cents, money.fills_cents, money.credits_cents) == (
        300_000,
        283_100,
        100_000,
        50_000,
    )
    assert (money.buy_ins_cents, money.markers_cents, money.drop_cents, money.drop_status) == (
        70_000,
        20_000,
        70_000,
        "final",
    )
    # win = 700.00 drop + 2,831.00 closer + 500.00 credits − 3,000.00 opener − 1,000.00 fills = 31.00
    assert money.win_cents == 3_100
    assert money.hold_bp == 443  # 31.00 / 700.00 = 4.428...% → 4.43%
    assert (money.house_cents, money.commission_cents, money.computed_win_cents) == (3_000, 100, 3_100)
    assert (money.variance_cents, money.tray_variance_cents, money.drop_variance_cents) == (0, 0, 0)
    assert [(s["kind"], s["number"], s["status"]) for s in money.slips] == [
        ("credit", 1, "received"),
        ("fill", 1, "received"),
        ("fill", 2, "voided"),
    ]
    assert money.slips[1]["supervisor_signed_by"] == "fred_floor" and money.slips[2]["voided_by"] == "fred_floor"
    assert money.box_line == "" and money.pending_slips == 0
    report = ledger_verify()
    assert report.ok, report.problems


def test_a_chip_taken_from_the_tray_is_the_variance(people, shift, pgp, play_to_hands) -> None:  # type: ignore[no-untyped-def]
    play_a_shift(people, shift, pgp, play_to_hands, short_cents=500)
    (money,) = table_money_figures(shifts=[shift])
    assert (money.win_cents, money.computed_win_cents) == (2_600, 3_100)
    assert (money.variance_cents, money.tray_variance_cents, money.drop_variance_cents) == (-500, -500, 0)
    assert ledger_verify().ok  # the ledger is sound: the chip left the tray, not the books


def test_the_table_money_is_posted_between_the_cage_the_tray_and_the_drop(people, shift, pgp, play_to_hands) -> None:  # type: ignore[no-untyped-def]
    play_a_shift(people, shift, pgp, play_to_hands)
    postings = Posting.objects.filter(round_id__isnull=True).order_by("pk")
    assert [(p.kind, p.idempotency_key, p.table_id, p.shift_id) for p in postings] == [
        ("buy_in", f"buy-in:{BuyIn.objects.first().pk}", pgp.pk, shift.pk),
        ("buy_in", f"buy-in:{BuyIn.objects.last().pk}", pgp.pk, shift.pk),
        ("fill", "slip:fill:1", pgp.pk, shift.pk),
        ("credit", "slip:credit:1", pgp.pk, shift.pk),
        ("drop", f"drop:{pgp.pk}:{shift.pk}", pgp.pk, shift.pk),
        ("marker", f"marker:{Marker.objects.get().pk}", None, None),  # the counted marker, to the receivable
    ]
    balances = {
        account: sum(
            LedgerEntry.objects.filter(posting__round_id__isnull=True, account=account).values_list(
                "amount_cents", flat=True
            )
        )
        for account in ("cage", "tray", "drop", "markers")
    }
    # cage: −1,000.00 fill + 500.00 credit + 700.00 drop − 200.00 marker; tray: +1,000.00 − 500.00 − 700.00;
    # drop: +700.00 − 700.00; markers: the 200.00 marker outstanding at the cage
    assert balances == {"cage": 0, "tray": -20_000, "drop": 0, "markers": 20_000}
    # Each posting is recorded by the audit event that moved the money (a slip's second signature, the buy-in,
    # the count that made the box final).
    recorded = [
        event.after["postings"][0]["kind"]
        for event in AuditEvent.objects.filter(
            event_type__in=["slip.signed", "buy_in.recorded", "drop.counted"]
        ).order_by("seq")
        if "postings" in event.after
    ]
    assert recorded == ["buy_in", "buy_in", "fill", "credit", "drop"]


def test_verify_ledger_names_a_buy_in_the_ledger_does_not_hold(people, shift, pgp) -> None:  # type: ignore[no-untyped-def]
    from django.utils import timezone

    sneaked = BuyIn.objects.create(
        table=pgp,
        shift=shift,
        seat_number=1,
        medium="cash",
        amount_cents=100,
        recorded_by=people["dealer"],
        recorded_at=timezone.now(),
    )
    assert table_money_check() == [f"The ledger holds no posting for buy-in:{sneaked.pk}, which the tables recorded."]


def test_a_table_with_a_fill_outstanding_does_not_close(people, shift, pgp, pit_boss) -> None:  # type: ignore[no-untyped-def]
    slip = slip_issue(
        actor=people["cage"], slip=slip_request(actor=people["dealer"], table=pgp, kind="fill", chips=FILL)
    )
    with pytest.raises(
        WrongState, match="^Fill slip 1 at table PGP-1 is still issued by the cage: sign it as received or void it"
    ):
        table_close(actor=pit_boss, table=pgp)
    assert pgp.__class__.objects.get(pk=pgp.pk).status == "open"
    slip_sign(actor=people["dealer"], slip=slip)
    slip_sign(actor=people["floor"], slip=slip)
    assert table_close(actor=pit_boss, table=pgp).status == "closed"


def test_an_unfinished_count_leaves_the_win_open_and_the_box_missing(people, shift, pgp) -> None:  # type: ignore[no-untyped-def]
    _count(people, pgp, "opener", OPENER)
    buy_in_record(actor=people["dealer"], table=pgp, seat=1, medium="cash", amount_cents=10_000)
    (money,) = table_money_figures(shifts=[shift])
    assert (money.win_cents, money.hold_bp, money.variance_cents) == (None, None, None)
    assert money.missing == ["closer", "drop"] and money.box_line == "missing"
    group = win_hold_by([money], lambda m: m.pit)["Pit 1"]
    assert (group.table_shifts, group.incomplete, group.win_cents) == (1, 1, 0)


def test_a_table_closed_and_opened_again_in_the_shift_keeps_its_first_opener_and_last_closer(
    people, shift, pgp, pit_boss
) -> None:  # type: ignore[no-untyped-def]
    from tables.services import table_open

    _count(people, pgp, "opener", {10000: 30})  # 3,000.00
    buy_in_record(actor=people["dealer"], table=pgp, seat=1, medium="cash", amount_cents=10_000)
    _count(people, pgp, "closer", {10000: 29})  # 2,900.00: 100.00 sold to seat 1
    table_close(actor=pit_boss, table=pgp)
    table_open(actor=pit_boss, table=pgp)
    _count(people, pgp, "opener", {10000: 29})
    buy_in_record(actor=people["dealer"], table=pgp, seat=2, medium="cash", amount_cents=10_000)
    _count(people, pgp, "closer", {10000: 28})  # 2,800.00
    shift_close(actor=people["floor"], shift=shift)
    for counter in ("kim", "lee"):
        drop_count_record(
            actor=people[counter], table=pgp, shift=shift, cash={10000: 2}, markers_cents=0, promo_cents=0
        )
    (money,) = table_money_figures(shifts=[shift])
    # win = 200.00 drop + 2,800.00 closer − 3,000.00 opener = 0.00; nothing was played, nothing is missing.
    assert (money.opener_cents, money.closer_cents, money.win_cents, money.variance_cents) == (300_000, 280_000, 0, 0)


def test_a_shift_with_a_slip_outstanding_or_a_count_waiting_does_not_close(people, shift, pgp) -> None:  # type: ignore[no-untyped-def]
    issued = slip_issue(
        actor=people["cage"], slip=slip_request(actor=people["dealer"], table=pgp, kind="fill", chips=FILL)
    )
    with pytest.raises(
        WrongState, match="^Fill slip 1 at table PGP-1 is still issued by the cage: sign it as received"
    ) as refused:
        shift_close(actor=people["floor"], shift=shift)
    assert refused.value.extra["slips_outstanding"][0]["number"] == 1
    slip_sign(actor=people["floor"], slip=slip_sign(actor=people["dealer"], slip=issued))
    closer = tray_count_record(actor=people["dealer"], table=pgp, kind="closer", counts={10000: 40})
    with pytest.raises(WrongState, match="^The closer of table PGP-1 waits for a supervisor's confirmation"):
        shift_close(actor=people["floor"], shift=shift)
    assert shift.__class__.objects.get(pk=shift.pk).closed_at is None
    tray_count_confirm(actor=people["floor"], count=closer)
    assert shift_close(actor=people["floor"], shift=shift).closed_at is not None


def test_promotional_chips_lost_go_to_the_box_and_reconcile(people, shift, pgp, play_to_hands) -> None:  # type: ignore[no-untyped-def]
    # Seat 2 lost 50.00 in promotional chips (the settlement counts them as any wager): the dealer drops them into
    # the box, so the tray holds 50.00 less than the settlements say and the box 50.00 of promotional chips.
    _count(people, pgp, "opener", OPENER)
    buy_in_record(actor=people["dealer"], table=pgp, seat=1, medium="cash", amount_cents=50_000)
    won = play_to_hands(pgp, wagers={1: 2_000, 2: 5_000}, hands={"banker": BANK, "seats": {"1": WINS, "2": LOSES}})
    settle_round(round=won, actor=people["dealer"], idempotency_key="r1")
    # 3,000.00 − 500.00 sold + 31.00 won − 50.00 of promotional chips into the box = 2,481.00
    _count(people, pgp, "closer", chips_for(248_100))
    shift_close(actor=people["floor"], shift=shift)
    for counter in ("kim", "lee"):
        drop_count_record(
            actor=people[counter], table=pgp, shift=shift, cash={10000: 5}, markers_cents=0, promo_cents=5_000
        )
    (money,) = table_money_figures(shifts=[shift])
    # win = 500.00 drop + 2,481.00 − 3,000.00 = −19.00: the 50.00 of promotional chips won are not drop
    assert (money.win_cents, money.computed_win_cents, money.promo_cents) == (-1_900, 3_100, 5_000)
    assert (money.variance_cents, money.tray_variance_cents, money.drop_variance_cents) == (0, 0, 0)
