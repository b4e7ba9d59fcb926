"""Who works a table: its dealer (assigned by a supervisor), and the big-win alert a supervisor sets."""

from __future__ import annotations

import pytest
from django.utils import translation

from casino.errors import ApplicationError, NotAllowed
from casino.models import AuditEvent
from casino.roles import Role
from rounds.services import round_open
from tables.models import Table
from tables.services import table_assign_dealer, table_set_big_win


@pytest.fixture
def table(make_table) -> Table:
    return make_table(name="PGP-1", game="paigow_poker", seat_count=6)


@pytest.mark.django_db
def test_a_supervisor_puts_a_dealer_on_a_table_and_only_that_dealer_plays_it(
    table, pit_boss, dealer, make_user, shift
) -> None:
    other = make_user("otto_dealer", Role.DEALER)
    with pytest.raises(NotAllowed, match="Table PGP-1 is not your table"):
        round_open(actor=other, table=table)
    moved = table_assign_dealer(actor=pit_boss, table=table, dealer=other)
    assert moved.dealer == other
    event = AuditEvent.objects.filter(event_type="table.dealer_assigned").latest("seq")
    assert (event.before, event.after) == ({"dealer": "dana_dealer"}, {"dealer": "otto_dealer"})
    assert round_open(actor=other, table=moved).number == 1
    with pytest.raises(NotAllowed):
        round_open(actor=dealer, table=moved)


@pytest.mark.django_db
def test_only_a_dealer_is_put_on_a_table_and_only_by_a_supervisor(table, pit_boss, dealer, auditor) -> None:
    events = AuditEvent.objects.count()
    with pytest.raises(ApplicationError, match="alex_auditor is not a Dealer."):
        table_assign_dealer(actor=pit_boss, table=table, dealer=auditor)
    with pytest.raises(NotAllowed, match="may assign a dealer to a table"):
        table_assign_dealer(actor=dealer, table=table, dealer=dealer)
    with translation.override("de"), pytest.raises(NotAllowed) as refused:
        table_assign_dealer(actor=dealer, table=table, dealer=dealer)
    assert refused.value.message == "Nur Supervisor oder Pit Boss darf einem Tisch einen Croupier zuteilen."
    assert AuditEvent.objects.count() == events


@pytest.mark.django_db
@pytest.mark.parametrize("amount", [0, -500, "2000", True])
def test_the_big_win_alert_is_an_amount_above_zero(table, pit_boss, amount) -> None:
    with pytest.raises(ApplicationError, match="The big-win alert is an amount in cents above zero"):
        table_set_big_win(actor=pit_boss, table=table, big_win_cents=amount)
    assert Table.objects.get(pk=table.pk).big_win_cents is None


@pytest.mark.django_db
def test_a_supervisor_sets_and_clears_the_big_win_alert_and_a_dealer_cannot(table, floor_supervisor, dealer) -> None:
    assert table_set_big_win(actor=floor_supervisor, table=table, big_win_cents=100_000).big_win_cents == 100_000
    assert table_set_big_win(actor=floor_supervisor, table=table, big_win_cents=None).big_win_cents is None
    with pytest.raises(NotAllowed):
        table_set_big_win(actor=dealer, table=table, big_win_cents=5_000)
