"""End-of-shift, commission and audit reports: a shift with rounds of every game closes and its reports
reconcile with the ledger to the cent; building again changes nothing."""

from __future__ import annotations

import pytest
from django.db.models import Sum

from casino.errors import WrongState
from casino.services import pit_create, shift_close, shift_open
from ledger.models import LedgerEntry
from ledger.verify import ledger_verify
from pit.services import shift_report_build
from rounds.models import Round, Wager
from rounds.selectors import shift_round_ids
from rounds.services import round_open, wager_place
from rounds.states import RoundState
from rules.services import rule_set_create
from settlement.models import ShiftReport
from settlement.services import adjustment_approve, adjustment_request, settle_round
from tables.services import table_assign_dealer, table_create, table_open
from tests.settlement.conftest import BANK, LOSES, PUSHES, WINS
from tests.settlement.test_banked import DICE, TILES_BANK, TILES_LOSE, TILES_WIN
from tests.settlement.test_points import OFC_STREETS, SEED_EXAMPLE, _dealt_round, _place

pytestmark = pytest.mark.usefixtures("eager_celery")


@pytest.fixture
def closed_shift(shift, make_table, pit_boss, dealer, play_to_hands, django_capture_on_commit_callbacks):  # type: ignore[no-untyped-def]
    """The Day shift with a round of every game, a void and a correction (both asked by the dealer, approved by
    the pit boss), closed by the pit boss: the reports are built on commit (Celery is eager here)."""
    pgp = make_table(name="PGP-1", game="paigow_poker", seat_count=6)
    round_ = play_to_hands(
        pgp, wagers={1: 2500, 2: 1000, 3: 5000}, hands={"banker": BANK, "seats": {"1": WINS, "2": PUSHES, "3": LOSES}}
    )
    settle_round(round=round_, actor=dealer, idempotency_key="pgp-1")
    corrected = play_to_hands(pgp, wagers={1: 2500}, hands={"banker": BANK, "seats": {"1": WINS}})
    settle_round(round=corrected, actor=dealer, idempotency_key="pgp-2")
    asked = adjustment_request(
        actor=dealer,
        round=corrected,
        kind="correction",
        reason="Seat 1's hand was misread",
        hands={"banker": BANK, "seats": {"1": LOSES}},
    )
    adjustment_approve(actor=pit_boss, adjustment=asked)
    voided = round_open(actor=dealer, table=pgp)
    wager_place(actor=dealer, round=voided, seat=1, amount_cents=4000)
    asked = adjustment_request(actor=dealer, round=voided, kind="void", reason="Card exposed on the deal")
    adjustment_approve(actor=pit_boss, adjustment=asked)

    tiles_rules = rule_set_create(
        actor=pit_boss, name="Tiles rotation", game="paigow_tiles", banking_mode="player_rotation"
    )
    tiles = make_table(name="PG-1", game="paigow_tiles", seat_count=6, rule_set=tiles_rules)
    hands = {"banker": TILES_BANK, "seats": {"5": TILES_LOSE, "2": TILES_WIN}}
    round_ = play_to_hands(tiles, wagers={2: 2000, 5: 3000}, hands=hands, dice=DICE, banker_seat=3, bank_cents=5000)
    settle_round(round=round_, actor=dealer, idempotency_key="tiles-1")

    # The points games in a second pit.
    pit_2 = pit_create(actor=pit_boss, name="Pit 2")
    cp_rules = rule_set_create(actor=pit_boss, name="CP rake 5%", game="chinese_poker", rake_bp=500)
    cp = table_create(
        actor=pit_boss,
        pit=pit_2,
        name="CP-1",
        game="chinese_poker",
        min_wager_cents=1000,
        max_wager_cents=50000,
        seat_count=4,
        rule_set=cp_rules,
    )
    cp = table_open(actor=pit_boss, table=table_assign_dealer(actor=pit_boss, table=cp, dealer=dealer))
    round_ = play_to_hands(cp, wagers={1: 1000, 2: 2000, 3: 1500}, hands=SEED_EXAMPLE)
    settle_round(round=round_, actor=dealer, idempotency_key="cp-1")
    ofc_rules = rule_set_create(actor=pit_boss, name="OFC rake 5%", game="ofc", rake_bp=500)
    ofc = table_create(
        actor=pit_boss,
        pit=pit_2,
        name="OFC-1",
        game="ofc",
        min_wager_cents=1000,
        max_wager_cents=50000,
        seat_count=3,
        rule_set=ofc_rules,
    )
    ofc = table_open(actor=pit_boss, table=table_assign_dealer(actor=pit_boss, table=ofc, dealer=dealer))
    round_ = _place(dealer, _dealt_round(dealer, ofc, wagers={1: 2000, 2: 1000}), OFC_STREETS)
    settle_round(round=round_, actor=dealer, idempotency_key="ofc-1")

    with django_capture_on_commit_callbacks(execute=True):
        closed = shift_close(actor=pit_boss, shift=shift)
    return closed


def _report(shift, kind: str) -> ShiftReport:  # type: ignore[no-untyped-def]
    return ShiftReport.objects.get(shift=shift, kind=kind)


def _ledger(shift, account: str) -> int:  # type: ignore[no-untyped-def]
    return (
        LedgerEntry.objects.filter(round_id__in=shift_round_ids(shift), account=account).aggregate(
            t=Sum("amount_cents")
        )["t"]
        or 0
    )


@pytest.mark.django_db
def test_closing_a_shift_builds_its_reports(closed_shift) -> None:
    reports = ShiftReport.objects.filter(shift=closed_shift)
    assert sorted(r.kind for r in reports) == ["audit", "commission", "dealers", "ratings", "shift"]
    for report in reports:
        assert report.status == "ready"
        assert report.finished_at is not None
        assert len(report.content_hash) == 64
        assert report.csv.startswith(f"report,{report.kind},gaming_day,2025-03-01,shift,Day")
        assert "<table>" in report.html or "No rated player played in this shift." in report.html  # none rated


@pytest.mark.django_db
def test_the_floor_totals_reconcile_with_the_ledger_to_the_cent(closed_shift) -> None:
    assert ledger_verify().ok
    data = _report(closed_shift, "shift").data
    floor = data["floor"]
    for account in ("commission", "rake", "house", "banker", "player"):
        assert floor[f"{account}_cents"] == _ledger(closed_shift, account), account
    handle = (
        Wager.objects.filter(round__shift=closed_shift)
        .exclude(round__state="voided")
        .aggregate(t=Sum("amount_cents"))["t"]
    )
    assert floor["handle_cents"] == handle
    assert floor["rounds_settled"] == Round.objects.filter(shift=closed_shift, state=RoundState.SETTLED).count() == 5
    assert floor["rounds_voided"] == 1
    assert floor["wagers"] == 3 + 1 + 2 + 3 + 2
    # PGP: 1.25 commission on seat 1's win (the corrected round's was reversed); tiles: 0.50 from the player bank.
    assert (floor["commission_cents"], floor["banker_cents"]) == (175, 950)
    # Every seat in force: PGP win/push/loss and the corrected loss; tiles loss and win;
    # CP seat 2 up, seats 1 and 3 down; OFC one each way.
    assert (floor["wins"], floor["pushes"], floor["losses"], floor["no_actions"]) == (4, 1, 6, 0)
    for name in floor:
        assert sum(row[name] for row in data["tables"]) == floor[name]
        assert sum(row[name] for row in data["pits"]) == floor[name]
    assert [row["pit"] for row in data["pits"]] == ["Pit 1", "Pit 2"]
    # The floor's money, everyone's accounts together, balances: the layout is empty at the end of the shift.
    assert sum(floor[f"{a}_cents"] for a in ("commission", "rake", "house", "banker", "player")) == 0


@pytest.mark.django_db
def test_voids_and_corrections_say_who_asked_who_approved_and_why(closed_shift) -> None:
    rows = _report(closed_shift, "shift").data["adjustments"]
    assert [(r["kind"], r["table"], r["round"], r["asked_by"], r["approved_by"], r["reason"]) for r in rows] == [
        ("correction", "PGP-1", 2, "dana_dealer", "paula_pitboss", "Seat 1's hand was misread"),
        ("void", "PGP-1", 3, "dana_dealer", "paula_pitboss", "Card exposed on the deal"),
    ]
    assert "Card exposed on the deal" in _report(closed_shift, "shift").csv


@pytest.mark.django_db
def test_commission_by_table_dealer_and_banking_seat_adds_up_to_the_floor(closed_shift) -> None:
    data = _report(closed_shift, "commission").data
    floor = data["floor"]["commission_cents"]
    assert floor == _ledger(closed_shift, "commission") == 175
    for grouping in ("by_table", "by_dealer", "by_banking_seat"):
        assert sum(row["commission_cents"] for row in data[grouping]) == floor, grouping
    assert data["by_dealer"] == [{"dealer": "dana_dealer", "commission_cents": 175}]
    assert [(r["table"], r["bank"], r["seat"], r["commission_cents"]) for r in data["by_banking_seat"]] == [
        ("PG-1", "seat", 3, 50),
        ("PGP-1", "house", None, 125),
    ]


@pytest.mark.django_db
def test_the_audit_report_lists_the_shifts_events_and_the_chain_verifies(closed_shift) -> None:
    data = _report(closed_shift, "audit").data
    types = [event["event_type"] for event in data["events"]]
    assert types[0] == "shift.opened" and types[-1] == "shift.closed"
    assert {"adjustment.void_approved", "settlement.corrected"} <= set(types)
    assert "shift_report.built" not in types
    assert data["chain"] == {"ok": True, "broken_seq": None, "problem": ""}


@pytest.mark.django_db
def test_building_again_returns_the_same_report_and_a_rebuild_gives_the_same_hash(closed_shift) -> None:
    for kind in ("shift", "commission", "audit"):
        first = _report(closed_shift, kind)
        again = shift_report_build(shift=closed_shift, kind=kind)
        assert (again.pk, again.content_hash, again.finished_at) == (first.pk, first.content_hash, first.finished_at)
        # A worker that died mid-build left the row "building" and empty: the next run finishes it, same figures.
        ShiftReport.objects.filter(pk=first.pk).update(status="building", data=None, csv="", html="", content_hash="")
        finished = shift_report_build(shift=closed_shift, kind=kind)
        assert (finished.pk, finished.status) == (first.pk, "ready")
        assert (finished.content_hash, finished.data, finished.csv) == (first.content_hash, first.data, first.csv)


@pytest.mark.django_db
def test_no_round_opens_in_a_closed_shift(closed_shift, dealer) -> None:
    table = Round.objects.filter(shift=closed_shift).first().table
    with pytest.raises(WrongState, match="No shift is open"):
        round_open(actor=dealer, table=table)


@pytest.mark.django_db
def test_an_open_shift_has_no_report_yet(closed_shift, pit_boss) -> None:
    evening = shift_open(actor=pit_boss, name="Swing")
    with pytest.raises(WrongState, match="still open"):
        shift_report_build(shift=evening, kind="shift")
    assert not ShiftReport.objects.filter(shift=evening).exists()
