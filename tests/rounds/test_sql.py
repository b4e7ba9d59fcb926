"""The round's hand-written lock and standing read and write exactly what the ORM would (``rounds.sql``).

Run on SQLite here and on PostgreSQL in .ci/run's second pass, where the statements differ
(several in one round trip, the posting and its entries in one ``WITH``).
"""

from __future__ import annotations

import pytest
from django.db import transaction

from casino.audit import audit_event_record
from casino.audit_verify import audit_log_verify
from casino.events import AuditEventType
from casino.models import AuditEvent
from casino.rows import update_statement
from rounds.models import Round, Wager
from rounds.services import round_open
from rounds.sql import round_lock, round_lock_reading, round_standing, wagers_in_seat_order
from rules.services import rule_set_create
from tests.settlement.conftest import BANK, LOSES, WINS

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("shift")]

HANDS = {"banker": BANK, "seats": {"1": WINS, "2": LOSES}}


def _orm_round(pk: int) -> Round:
    return Round.objects.select_related("table", "bank_seat").get(pk=pk)


def _fields(instance: object) -> dict[str, object]:
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


def test_the_locked_round_holds_what_the_orm_reads(play_to_hands, pgp_table) -> None:
    round_ = play_to_hands(pgp_table, wagers={1: 2500, 2: 1000}, hands=HANDS)
    with transaction.atomic():
        locked, _standing = round_lock(round_)
    expected = _orm_round(round_.pk)
    assert _fields(locked) == _fields(expected)  # JSON fields decoded, times as aware datetimes
    assert _fields(locked.table) == _fields(expected.table)
    assert locked.bank_seat is None and expected.bank_seat is None
    assert locked.hands == expected.hands and isinstance(locked.hands, dict)
    assert locked.opened_at.tzinfo is not None


def test_a_player_bank_seat_comes_with_the_locked_round(pit_boss, dealer, make_table) -> None:
    rules = rule_set_create(actor=pit_boss, name="PGP rotation", game="paigow_poker", banking_mode="player_rotation")
    table = make_table(name="PGP-R", game="paigow_poker", seat_count=6, rule_set=rules)
    round_ = round_open(actor=dealer, table=table, banker_seat=1, bank_cents=5000)
    with transaction.atomic():
        locked, _standing = round_lock(round_)
    assert locked.bank_seat is not None and locked.bank_seat.number == 1
    assert _fields(locked.bank_seat) == _fields(_orm_round(round_.pk).bank_seat)


def test_values_read_after_the_lock_come_back_in_order(play_to_hands, pgp_table) -> None:
    round_ = play_to_hands(pgp_table, wagers={1: 2500, 2: 1000}, hands=HANDS)
    with transaction.atomic():
        locked, standing, values = round_lock_reading(round_, ("SELECT %s", [7]), ("SELECT %s", ["seven"]))
    assert locked.pk == round_.pk
    assert standing == round_standing(shift_id=round_.shift_id, round_id=round_.pk)
    assert values == (7, "seven")


def test_a_missing_round_is_not_found(play_to_hands, pgp_table) -> None:
    round_ = play_to_hands(pgp_table, wagers={1: 2500}, hands={"banker": BANK, "seats": {"1": WINS}})
    with transaction.atomic(), pytest.raises(Round.DoesNotExist):
        round_lock(Round(pk=round_.pk + 1000))
    with transaction.atomic(), pytest.raises(Round.DoesNotExist):  # with values to read after the lock as well
        round_lock_reading(Round(pk=round_.pk + 1000), ("SELECT %s", [1]))


def test_the_change_an_event_records_is_made_with_it_and_the_chain_holds(play_to_hands, pgp_table, dealer) -> None:
    round_ = play_to_hands(pgp_table, wagers={1: 2500}, hands={"banker": BANK, "seats": {"1": WINS}})
    with transaction.atomic():
        locked, _standing = round_lock(round_)
        locked.void_reason = "a test of the statement sent with the chain's lock"
        event = audit_event_record(
            actor=dealer,
            event_type=AuditEventType.ROUND_HANDS_REPLACED,
            subject=locked,
            reason="test",
            change=update_statement(locked, ["void_reason"]),
        )
    assert Round.objects.get(pk=round_.pk).void_reason == "a test of the statement sent with the chain's lock"
    assert AuditEvent.objects.order_by("-seq").first().pk == event.pk
    assert audit_log_verify().ok


def test_an_update_needs_a_field(play_to_hands, pgp_table) -> None:
    round_ = play_to_hands(pgp_table, wagers={1: 2500}, hands={"banker": BANK, "seats": {"1": WINS}})
    with pytest.raises(ValueError, match="at least one field"):
        update_statement(round_, [])


def test_a_change_that_finds_no_row_records_no_event(play_to_hands, pgp_table, dealer) -> None:
    round_ = play_to_hands(pgp_table, wagers={1: 2500}, hands={"banker": BANK, "seats": {"1": WINS}})
    events = AuditEvent.objects.count()
    gone = Round(pk=round_.pk + 1000, void_reason="nowhere")
    with pytest.raises(RuntimeError, match="changed 0"), transaction.atomic():
        audit_event_record(
            actor=dealer,
            event_type=AuditEventType.ROUND_HANDS_REPLACED,
            subject=gone,
            change=update_statement(gone, ["void_reason"]),
        )
    assert AuditEvent.objects.count() == events


def test_where_a_round_stands_is_what_the_orm_reads(shift, pit_boss, play_to_hands, pgp_table, dealer) -> None:  # type: ignore[no-untyped-def]
    from casino.models import Shift
    from casino.services import shift_close
    from rounds.models import Adjustment
    from settlement.services import adjustment_request, settle_round

    def orm(round_: Round) -> tuple[object, ...]:
        name, closed_at = Shift.objects.values_list("name", "closed_at").get(pk=round_.shift_id)
        pending = Adjustment.objects.filter(round=round_, kind="void", status="pending").exists()
        return name, closed_at, pending

    def hand_written(round_: Round) -> tuple[object, ...]:
        standing = round_standing(shift_id=round_.shift_id, round_id=round_.pk)
        with transaction.atomic():
            _locked, with_lock = round_lock(round_)  # read in the lock's round trip, the shift found by the round
        assert with_lock == standing
        return standing.shift_name, standing.shift_closed_at, standing.void_pending

    round_ = play_to_hands(pgp_table, wagers={1: 2500, 2: 1000}, hands=HANDS)
    assert hand_written(round_) == orm(round_) == ("Day", None, False)
    adjustment_request(actor=dealer, round=round_, kind="void", reason="Misdeal")
    assert hand_written(round_) == orm(round_) == ("Day", None, True)
    assert round_standing(shift_id=shift.pk, round_id=None).void_pending is False  # a round about to open
    Adjustment.objects.filter(round=round_).update(status="rejected")
    settle_round(round=round_, actor=dealer, idempotency_key="standing")
    shift_close(actor=pit_boss, shift=shift)
    assert hand_written(round_) == orm(round_)
    assert hand_written(round_)[1] is not None


def test_the_wagers_a_step_answers_are_the_orms_in_seat_order_with_their_seats(play_to_hands, pgp_table) -> None:
    round_ = play_to_hands(pgp_table, wagers={2: 1000, 1: 2500}, hands=HANDS)  # taken out of seat order
    read = wagers_in_seat_order(round_)
    expected = list(Wager.objects.filter(round=round_).select_related("seat").order_by("seat__number"))
    assert [_fields(wager) for wager in read] == [_fields(wager) for wager in expected]
    assert [wager.seat.number for wager in read] == [1, 2] and read[0].placed_at.tzinfo is not None
    assert [(wager.seat.pk, wager.seat.table_id) for wager in read] == [(w.seat.pk, w.seat.table_id) for w in expected]
    assert read[0].seat.player_name == expected[0].seat.player_name  # a field not read loads when asked for


def test_a_round_without_wagers_answers_none(dealer, pgp_table) -> None:
    assert wagers_in_seat_order(round_open(actor=dealer, table=pgp_table)) == []
