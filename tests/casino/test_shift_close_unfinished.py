"""A round belongs to exactly one shift: the shift does not close under a round still being played, and a
round of a closed shift no longer changes, so no wager or settlement falls outside every shift report.

Personas: Paula the pit boss closes the shift; Dana the dealer plays PGP-1; Fred the floor supervisor voids.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from casino.errors import WrongState
from casino.models import AuditEvent, Shift
from casino.services import shift_close, shift_open
from ledger.models import LedgerEntry, Posting
from pit.tasks import shift_boundaries
from rounds.models import Adjustment, Round, Wager
from rounds.services import round_close_betting, round_open, void_round, wager_place
from settlement.services import adjustment_request, correct_round
from tables.models import Table
from tests.pit.test_pit_dashboard import PGP_HANDS, PGP_WAGERS, play, settle
from tests.settlement.conftest import LOSES, WINS

pytestmark = pytest.mark.django_db


@pytest.fixture
def pgp(make_table: Callable[..., Table]) -> Table:
    return make_table(name="PGP-1", game="paigow_poker", seat_count=6)


def _writes() -> tuple[int, int, int, int]:
    return Posting.objects.count(), LedgerEntry.objects.count(), AuditEvent.objects.count(), Wager.objects.count()


def _closed_before_the_rule(shift: Shift) -> None:
    """A shift closed under a round still being played, as a close once did."""
    Shift.objects.filter(pk=shift.pk).update(closed_at=timezone.now())


def test_the_pit_boss_cannot_close_the_shift_while_a_round_is_still_being_played(
    pgp: Table, shift: Shift, dealer: User, pit_boss: User
) -> None:
    round_ = round_open(actor=dealer, table=pgp)
    wager_place(actor=dealer, round=round_, seat=1, amount_cents=10000)
    before = _writes()

    with pytest.raises(WrongState) as refused:
        shift_close(actor=pit_boss, shift=shift)

    assert refused.value.message == (
        "Table PGP-1 round 1 is still being played (betting open, 100.00 wagered): "
        "settle or void it before closing the shift."
    )
    assert refused.value.extra == {
        "unfinished_rounds": [
            {
                "table": "PGP-1",
                "table_id": pgp.pk,
                "round": 1,
                "round_id": round_.pk,
                "state": "open",
                "wagered_cents": 10000,
            }
        ]
    }
    assert Shift.objects.get(pk=shift.pk).closed_at is None
    assert _writes() == before


def test_a_refusal_names_the_first_round_and_counts_the_others(
    make_table: Callable[..., Table], shift: Shift, dealer: User, pit_boss: User
) -> None:
    for name in ("PGP-1", "PGP-2"):
        table = make_table(name=name, game="paigow_poker", seat_count=6)
        round_close_betting(actor=dealer, round=_wagered(table, dealer))

    with pytest.raises(WrongState) as refused:
        shift_close(actor=pit_boss, shift=shift)

    assert refused.value.message.startswith("Table PGP-1 round 1 is still being played (betting closed, 25.00 wagered)")
    assert refused.value.message.endswith("(1 more round(s) too).")
    assert [r["table"] for r in refused.value.extra["unfinished_rounds"]] == ["PGP-1", "PGP-2"]


def _wagered(table: Table, dealer: User) -> Round:
    round_ = round_open(actor=dealer, table=table)
    wager_place(actor=dealer, round=round_, seat=1, amount_cents=2500)
    return round_


def test_once_the_round_is_settled_the_shift_closes(pgp: Table, shift: Shift, dealer: User, pit_boss: User) -> None:
    round_ = play(pgp, dealer, wagers=PGP_WAGERS, hands=PGP_HANDS)
    with pytest.raises(WrongState, match="hands revealed, 85.00 wagered"):
        shift_close(actor=pit_boss, shift=shift)

    settle(round_, dealer)
    closed = shift_close(actor=pit_boss, shift=shift)

    assert closed.closed_at is not None


def test_a_voided_round_lets_the_shift_close(
    pgp: Table, shift: Shift, dealer: User, floor_supervisor: User, pit_boss: User
) -> None:
    round_ = _wagered(pgp, dealer)
    void_round(actor=floor_supervisor, round=round_, reason="Cards exposed")

    assert shift_close(actor=pit_boss, shift=shift).closed_at is not None


def test_a_correction_request_still_waiting_keeps_the_shift_open(
    pgp: Table, shift: Shift, dealer: User, pit_boss: User
) -> None:
    round_ = settle(
        play(pgp, dealer, wagers={1: 2500}, hands={"banker": PGP_HANDS["banker"], "seats": {"1": WINS}}), dealer
    )
    adjustment_request(
        actor=dealer,
        round=round_,
        kind=Adjustment.Kind.CORRECTION,
        reason="Seat 1 misread",
        hands={"banker": PGP_HANDS["banker"], "seats": {"1": LOSES}},
    )

    with pytest.raises(WrongState, match="round 1 has a correction request waiting for a supervisor"):
        shift_close(actor=pit_boss, shift=shift)


def test_a_round_left_open_in_a_closed_shift_takes_no_wager_and_no_move(pgp: Table, shift: Shift, dealer: User) -> None:
    round_ = _wagered(pgp, dealer)
    _closed_before_the_rule(shift)
    before = _writes()

    with pytest.raises(WrongState, match="^The Day shift is closed: this round can no longer change.$"):
        wager_place(actor=dealer, round=round_, seat=2, amount_cents=2500)
    with pytest.raises(WrongState, match="The Day shift is closed"):
        round_close_betting(actor=dealer, round=round_)

    assert _writes() == before
    assert Round.objects.get(pk=round_.pk).state == "open"


def test_a_settled_round_of_a_closed_shift_is_neither_corrected_nor_asked_to_be(
    pgp: Table, shift: Shift, dealer: User, floor_supervisor: User, pit_boss: User
) -> None:
    """Its shift's reports are built and final: a correction's postings would be in no report."""
    round_ = settle(
        play(pgp, dealer, wagers={1: 2500}, hands={"banker": PGP_HANDS["banker"], "seats": {"1": WINS}}), dealer
    )
    shift_close(actor=pit_boss, shift=shift)
    corrected = {"banker": PGP_HANDS["banker"], "seats": {"1": LOSES}}
    before = _writes()

    with pytest.raises(WrongState, match="The Day shift is closed"):
        adjustment_request(
            actor=dealer, round=round_, kind=Adjustment.Kind.CORRECTION, reason="Misread", hands=corrected
        )
    with pytest.raises(WrongState, match="The Day shift is closed"):
        correct_round(
            actor=floor_supervisor,
            round=round_,
            hands=corrected,
            reason="Misread",
            idempotency_key="late-correction",
            requested_by=dealer,
        )

    assert _writes() == before
    assert not Adjustment.objects.exists()


def test_the_next_shift_plays_its_own_rounds(pgp: Table, shift: Shift, dealer: User, pit_boss: User) -> None:
    settle(play(pgp, dealer, wagers={1: 2500}, hands={"banker": PGP_HANDS["banker"], "seats": {"1": WINS}}), dealer)
    shift_close(actor=pit_boss, shift=shift)
    swing = shift_open(actor=pit_boss, name="Swing")

    round_ = _wagered(pgp, dealer)

    assert Round.objects.get(pk=round_.pk).shift_id == swing.pk


# --- the floor's clock --------------------------------------------------------------------------------


def test_the_beat_leaves_an_overdue_shift_open_under_a_round_and_closes_it_on_a_later_run(
    pgp: Table,
    shift: Shift,
    dealer: User,
    settings,
    caplog,  # type: ignore[no-untyped-def]
) -> None:
    settings.SHIFT_HOURS = 8
    Shift.objects.filter(pk=shift.pk).update(opened_at=shift.opened_at - dt.timedelta(hours=9))
    round_ = play(pgp, dealer, wagers={1: 2500}, hands={"banker": PGP_HANDS["banker"], "seats": {"1": WINS}})

    with caplog.at_level(logging.WARNING, logger="pit.tasks"):
        first = shift_boundaries()

    assert first["closed_shift"] is None
    assert Shift.objects.get(pk=shift.pk).closed_at is None
    assert "Could not close the Day shift" in caplog.text
    assert "Table PGP-1 round 1 is still being played (hands revealed, 25.00 wagered)" in caplog.text
    assert "The next run tries again" in caplog.text

    settle(round_, dealer)
    second = shift_boundaries()

    assert second["closed_shift"] == shift.pk
    assert Shift.objects.get(pk=shift.pk).closed_by is None
