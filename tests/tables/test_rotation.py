"""Dealer rotation's services: clocking in and out, a string made and started from who clocked in, the push made at
once or at the round's end (never mid-round), each change audited; who may do what."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.db import connection

from casino.errors import ApplicationError, NotAllowed, WrongState
from casino.models import AuditEvent
from casino.records import snapshot
from casino.roles import Role
from rounds.services import round_open, void_round
from tables.models import DealerClockIn, DealerPush, DealerString, Table
from tables.rotation import (
    dealer_clock_in,
    dealer_clock_out,
    rotation_push,
    rotation_round_ended,
    string_create,
    string_start,
)
from tables.rotation_selectors import dealer_next, rotation_floor, table_relief
from tables.services import table_assign_dealer, table_configure

T0 = dt.datetime(2026, 3, 1, 14, 0, tzinfo=dt.UTC)


class Clock:
    """A clock the test moves: ``django.utils.timezone.now`` reads it."""

    def __init__(self) -> None:
        self.now = T0

    def at(self, minutes: float) -> dt.datetime:
        self.now = T0 + dt.timedelta(minutes=minutes)
        return self.now


@pytest.fixture
def clock() -> Iterator[Clock]:
    c = Clock()
    with mock.patch("django.utils.timezone.now", side_effect=lambda: c.now):
        yield c


@pytest.fixture
def dealers(make_user: Any) -> list[User]:
    return [make_user(name, Role.DEALER) for name in ("ann", "bob", "cy", "dee")]


@pytest.fixture
def three(make_table: Any, shift: Any) -> list[Table]:
    return [make_table(name=f"PGP-{n}", game="paigow_poker", seat_count=6) for n in (1, 2, 3)]


def _started(pit_boss: User, dealers: list[User], three: list[Table]) -> DealerString:
    for d in dealers:
        dealer_clock_in(actor=pit_boss, dealer=d)
    string = string_create(actor=pit_boss, name="Pai Gow A", tables=three, on_minutes=60, off_minutes=20)
    return string_start(actor=pit_boss, string=string)


def _dealers_at(tables: list[Table]) -> list[str]:
    return [Table.objects.get(pk=t.pk).dealer.get_username() for t in tables]  # type: ignore[union-attr]


@pytest.mark.django_db
def test_a_supervisor_clocks_a_dealer_in_once_and_out_again(pit_boss: User, dealers: list[User], clock: Clock) -> None:
    clock_in = dealer_clock_in(actor=pit_boss, dealer=dealers[0])
    assert clock_in.clocked_in_at == T0
    with pytest.raises(WrongState, match="ann is already clocked in"):
        dealer_clock_in(actor=pit_boss, dealer=dealers[0])
    clock.at(480)
    out = dealer_clock_out(actor=pit_boss, dealer=dealers[0])
    assert out.clocked_out_at == clock.now
    with pytest.raises(WrongState, match="ann is not clocked in"):
        dealer_clock_out(actor=pit_boss, dealer=dealers[0])
    assert list(
        AuditEvent.objects.filter(subject_type="tables.dealerclockin").values_list("event_type", flat=True)
    ) == [
        "dealer.clocked_in",
        "dealer.clocked_out",
    ]
    assert snapshot(out)["clocked_out_at"] is not None


@pytest.mark.django_db
def test_only_a_supervisor_clocks_in_and_only_a_dealer_is_clocked_in(
    pit_boss: User, dealer: User, auditor: User, dealers: list[User]
) -> None:
    with pytest.raises(NotAllowed):
        dealer_clock_in(actor=dealer, dealer=dealers[0])
    with pytest.raises(NotAllowed):
        dealer_clock_in(actor=auditor, dealer=dealers[0])
    with pytest.raises(ApplicationError, match="alex_auditor is not a Dealer"):
        dealer_clock_in(actor=pit_boss, dealer=auditor)
    assert not DealerClockIn.objects.exists()


@pytest.mark.django_db
def test_a_string_is_refused_a_pattern_it_cannot_keep_a_table_twice_or_a_table_of_another_string(
    pit_boss: User, three: list[Table]
) -> None:
    with pytest.raises(ApplicationError, match="not a whole number of pushes"):
        string_create(actor=pit_boss, name="A", tables=three[:2], on_minutes=60, off_minutes=20)
    with pytest.raises(ApplicationError, match="whole minutes from 1 to 600"):
        string_create(actor=pit_boss, name="A", tables=three, on_minutes="60", off_minutes=20)  # type: ignore[arg-type]
    with pytest.raises(ApplicationError, match="twice"):
        string_create(actor=pit_boss, name="A", tables=[three[0], three[0]], on_minutes=60, off_minutes=20)
    string_create(actor=pit_boss, name="A", tables=three[:2], on_minutes=40, off_minutes=20)
    with pytest.raises(WrongState, match="Table PGP-2 is already in string A"):
        string_create(actor=pit_boss, name="B", tables=three[1:], on_minutes=40, off_minutes=20)
    with pytest.raises(ApplicationError, match="already a string called 'a'"):
        string_create(actor=pit_boss, name="a", tables=three[2:], on_minutes=20, off_minutes=None)
    assert DealerString.objects.count() == 1


@pytest.mark.django_db
def test_a_string_starts_from_who_clocked_in_and_refuses_when_too_few_are(
    pit_boss: User, dealers: list[User], three: list[Table], clock: Clock
) -> None:
    string = string_create(actor=pit_boss, name="A", tables=three, on_minutes=60, off_minutes=20)
    for d in dealers[:3]:
        dealer_clock_in(actor=pit_boss, dealer=d)
    with pytest.raises(WrongState, match="needs 4 dealers .3 tables and 1 on break.; 3 are clocked in"):
        string_start(actor=pit_boss, string=string)
    dealer_clock_in(actor=pit_boss, dealer=dealers[3])
    started = string_start(actor=pit_boss, string=string)
    assert (started.started_at, started.generation) == (T0, 1)
    assert _dealers_at(three) == ["ann", "bob", "cy"]  # in the order they clocked in; dee is the relief
    assert Table.objects.get(pk=three[0].pk).dealer_since == T0


@pytest.mark.django_db
def test_the_relief_taps_in_and_each_dealer_moves_down_the_string_until_the_last_goes_on_break(
    pit_boss: User, dealers: list[User], three: list[Table], clock: Clock
) -> None:
    ann, bob, cy, dee = dealers
    _started(pit_boss, dealers, three)
    clock.at(5)
    with pytest.raises(NotAllowed, match="on break until 14:20"):
        rotation_push(actor=dee, table=three[0])
    clock.at(12)  # within ten minutes of the push: the relief may tap in
    with pytest.raises(NotAllowed, match="on break until 14:20: tap in at table PGP-1 then"):
        rotation_push(actor=dee, table=three[1])  # the relief starts at the first table
    assert table_relief(table=three[0], at=clock.now) is not None
    assert table_relief(table=three[0], at=clock.now).dealer_name == "dee"  # type: ignore[union-attr]
    clock.at(20)
    push = rotation_push(actor=dee, table=three[0])
    assert push.done_at == clock.now and push.dealer_out == ann
    with pytest.raises(WrongState, match="ann still deals|dee already deals"):
        rotation_push(actor=dee, table=three[0])
    assert dealer_next(dealer=ann, at=clock.now).tap_in == three[1]  # type: ignore[union-attr]
    with pytest.raises(WrongState, match="bob still deals table PGP-2"):
        rotation_push(actor=bob, table=three[2])
    rotation_push(actor=ann, table=three[1])
    rotation_push(actor=bob, table=three[2])
    assert _dealers_at(three) == ["dee", "ann", "bob"]
    floor = rotation_floor(at=clock.now)
    (view,) = floor.strings
    assert [(b.dealer_name, b.since, b.back_at) for b in view.breaks] == [
        ("cy", clock.now, T0 + dt.timedelta(minutes=40))
    ]
    assert view.alerts == ()
    done = AuditEvent.objects.filter(event_type="dealer_push.done").count()
    assert done == 3 + 3  # the three at the start, and the three of the first push


@pytest.mark.django_db
def test_a_push_asked_mid_round_waits_for_the_round_to_end(
    pit_boss: User, floor_supervisor: User, dealers: list[User], three: list[Table], clock: Clock
) -> None:
    ann, bob, cy, dee = dealers
    _started(pit_boss, dealers, three)
    clock.at(19)
    round_ = round_open(actor=ann, table=Table.objects.get(pk=three[0].pk))
    clock.at(20)
    push = rotation_push(actor=dee, table=three[0])
    assert push.done_at is None and _dealers_at(three)[0] == "ann"  # never mid-round
    assert rotation_push(actor=dee, table=three[0]).pk == push.pk  # a double tap: still the one push, waiting
    assert table_relief(table=three[0], at=clock.now).waiting_name == "dee"  # type: ignore[union-attr]
    with pytest.raises(WrongState, match="dee already waits"):
        rotation_push(actor=pit_boss, table=three[1], dealer=dee)
    event = AuditEvent.objects.filter(event_type="dealer_push.asked").latest("seq")
    assert "Round 1 is in play" in event.after["waits_for"]
    clock.at(23)
    void_round(actor=floor_supervisor, round=round_, reason="misdeal")
    push.refresh_from_db()
    assert push.done_at == clock.now and push.dealer_out == ann
    assert _dealers_at(three)[0] == "dee"
    assert Table.objects.get(pk=three[0].pk).dealer_since == clock.now


@pytest.mark.django_db
def test_a_push_recorded_while_the_rounds_end_waits_for_the_tables_lock_is_made_at_that_end(
    pit_boss: User, floor_supervisor: User, dealers: list[User], three: list[Table], clock: Clock
) -> None:
    """SQLite lets one writer in at a time, so the race is played here by hand: a push at the table holds its lock,
    sees the round still in play and records itself waiting; the round's end gets the lock the moment that push
    commits (here: the push is written just as the round's end sends its lock of the table). Taking the lock first
    and reading the waiting push after, the round's end makes it."""
    ann, bob, cy, dee = dealers
    string = _started(pit_boss, dealers, three)
    clock.at(19)
    round_ = round_open(actor=ann, table=Table.objects.get(pk=three[0].pk))
    clock.at(20)
    table_lock = f'SELECT "id" FROM "{Table._meta.db_table}" WHERE "id" = %s'
    ending = []

    def round_ended(*, table_id: int) -> DealerPush | None:
        ending.append(table_id)
        return rotation_round_ended(table_id=table_id)

    def push_as_the_lock_frees(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        if ending and sql.startswith(table_lock) and not DealerPush.objects.filter(dealer_in=dee).exists():
            DealerPush.objects.create(string=string, table=three[0], dealer_in=dee, asked_at=clock.now, asked_by=dee)
        return execute(sql, params, many, context)

    with (
        mock.patch("rounds.services.transitions.rotation_round_ended", round_ended),
        connection.execute_wrapper(push_as_the_lock_frees),
    ):
        void_round(actor=floor_supervisor, round=round_, reason="misdeal")
    push = DealerPush.objects.get(dealer_in=dee)
    assert push.done_at == clock.now and push.dealer_out == ann and _dealers_at(three)[0] == "dee"


@pytest.mark.django_db
def test_the_set_up_does_not_change_the_dealer_mid_round_and_writes_nothing(
    pit_boss: User, floor_supervisor: User, dealers: list[User], three: list[Table], clock: Clock
) -> None:
    ann, bob, cy, dee = dealers
    _started(pit_boss, dealers, three)
    round_ = round_open(actor=ann, table=Table.objects.get(pk=three[0].pk))
    events = AuditEvent.objects.count()
    refused = "A round is in play at table PGP-1: change its dealer once that round is settled or voided."
    with pytest.raises(WrongState, match=refused):
        table_assign_dealer(actor=pit_boss, table=three[0], dealer=dee)
    with pytest.raises(WrongState, match=refused):
        table_assign_dealer(actor=pit_boss, table=three[0], dealer=None)
    with pytest.raises(WrongState, match=refused):
        table_configure(actor=pit_boss, table=three[0], dealer=dee, big_win_cents=500_000)
    table = Table.objects.get(pk=three[0].pk)
    assert (table.dealer, table.big_win_cents) == (ann, None) and AuditEvent.objects.count() == events
    clock.at(3)
    void_round(actor=floor_supervisor, round=round_, reason="misdeal")
    assert table_assign_dealer(actor=pit_boss, table=three[0], dealer=dee).dealer == dee  # between rounds: made


@pytest.mark.django_db
def test_a_push_not_made_is_an_overdue_break_on_the_rotation_page(
    pit_boss: User, dealers: list[User], three: list[Table], clock: Clock
) -> None:
    _started(pit_boss, dealers, three)
    clock.at(24)
    assert rotation_floor(at=clock.now).alerts == ()  # within five minutes of the push: not yet
    clock.at(32)
    alerts = rotation_floor(at=clock.now).alerts
    assert alerts[0] == "The push at PGP-1 is overdue: dee was due at 14:20 (12 min)."
    assert "cy is overdue for a break: due at 14:20, still dealing PGP-3 (12 min)." in alerts


@pytest.mark.django_db
def test_a_supervisor_pushes_the_due_dealer_and_a_dealer_cannot_push_another(
    pit_boss: User, dealers: list[User], three: list[Table], clock: Clock, auditor: User
) -> None:
    ann, bob, cy, dee = dealers
    _started(pit_boss, dealers, three)
    clock.at(21)
    with pytest.raises(NotAllowed, match="taps in themselves"):
        rotation_push(actor=ann, table=three[0], dealer=dee)
    with pytest.raises(NotAllowed):
        rotation_push(actor=auditor, table=three[0])
    push = rotation_push(actor=pit_boss, table=three[0])
    assert push.dealer_in == dee and push.asked_by == pit_boss
    with pytest.raises(WrongState, match="dee is dealing table PGP-1: push them off it"):
        dealer_clock_out(actor=pit_boss, dealer=dee)


@pytest.mark.django_db
def test_a_table_in_no_started_string_is_not_pushed(pit_boss: User, dealers: list[User], three: list[Table]) -> None:
    dealer_clock_in(actor=pit_boss, dealer=dealers[0])
    with pytest.raises(WrongState, match="in no started string"):
        rotation_push(actor=pit_boss, table=three[0], dealer=dealers[0])
    assert not DealerPush.objects.exists()


@pytest.mark.django_db
def test_a_string_is_not_started_again_while_a_push_waits_for_a_round(
    pit_boss: User, dealers: list[User], three: list[Table], clock: Clock
) -> None:
    ann, bob, cy, dee = dealers
    string = _started(pit_boss, dealers, three)
    round_open(actor=ann, table=Table.objects.get(pk=three[0].pk))
    clock.at(20)
    rotation_push(actor=dee, table=three[0])
    with pytest.raises(WrongState, match="A push waits at table PGP-1 for its round's end"):
        string_start(actor=pit_boss, string=string)
    assert DealerString.objects.get(pk=string.pk).generation == 1
