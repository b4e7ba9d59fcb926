"""The tablet's marker read in one hand-written statement (``dealer.sql``) is the ORM's read, value for value, in each
state a table's marker must tell apart: no round yet, wagers taken, a void asked for and decided, a player rated,
on a break and moved away."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db.models import Count, Max, OuterRef, Q, Subquery, Sum

from dealer.sql import TabletMarkerRead, tablet_marker_read
from dealer.tablet_version import tablet_version, tablet_version_of
from players.models import RatingSeat
from players.services import player_create, session_move, session_pause, session_resume, session_start
from rounds.models import Adjustment, Round, Wager
from rounds.services import round_close_betting, round_deal, round_hands_record, round_open, wager_place
from settlement.services import adjustment_approve, adjustment_request, settle_round
from tables.models import Table
from tables.services import table_set_limits
from tests.dealer.conftest import BANK_CARDS, LOSES, WINS


def _per_round(model: Any, value: Any) -> Subquery:
    rows = model.objects.filter(round=OuterRef("pk")).order_by().values("round").annotate(v=value).values("v")
    return Subquery(rows[:1])


def orm_read(table: Table) -> TabletMarkerRead:
    """The marker's values as the ORM reads them: the statement's twin."""
    table = Table.objects.get(pk=table.pk)
    row = (
        Round.objects.filter(table=table)
        .order_by("-number")
        .annotate(
            wager_count=_per_round(Wager, Count("pk")),
            wager_cents=_per_round(Wager, Sum("amount_cents")),
            asked=_per_round(Adjustment, Count("pk")),
            waiting=_per_round(Adjustment, Count("pk", filter=Q(status=Adjustment.Status.PENDING))),
            decided=_per_round(Adjustment, Max("decided_at")),
        )
        .values_list(
            "pk", "state", "state_changed_at", "dice", "hands", "placements",
            "wager_count", "wager_cents", "asked", "waiting", "decided",
        )
        .first()
    )  # fmt: skip
    setup = (table.status, table.min_wager_cents, table.max_wager_cents, table.rule_set_id, table.dealer_id)
    rated = RatingSeat.objects.filter(table=table).aggregate(
        last=Max("pk"),
        seated=Count("pk", filter=Q(ended_at__isnull=True)),
        breaks=Max("session__pauses__pk"),
        on_break=Count("session__pauses", filter=Q(ended_at__isnull=True, session__pauses__ended_at__isnull=True)),
    )
    return TabletMarkerRead(setup=setup, round=row, rated=rated)


def assert_twins(table: Table) -> TabletMarkerRead:
    """The statement's values are the ORM's, of the same types too (the marker hashes their text: a Decimal for an
    int, or a string for a datetime, would change it)."""
    read, twin = tablet_marker_read(table.pk), orm_read(table)
    assert read == twin
    assert read is not None
    for part in ("setup", "round", "rated"):
        assert json.dumps(getattr(read, part), default=repr, sort_keys=True) == json.dumps(
            getattr(twin, part), default=repr, sort_keys=True
        )
    return read


@pytest.mark.django_db
def test_the_marker_read_is_the_orms_from_an_empty_table_to_a_decided_void(pgp: Table, dealer, pit_boss) -> None:  # type: ignore[no-untyped-def]
    empty = assert_twins(pgp)
    assert empty.round is None and empty.rated == {"last": None, "seated": 0, "breaks": None, "on_break": 0}
    opened = round_open(actor=dealer, table=pgp)
    assert assert_twins(pgp).round[6:] == (None, None, None, None, None)  # type: ignore[index]
    wager_place(actor=dealer, round=opened, seat=1, amount_cents=2500)
    wager_place(actor=dealer, round=opened, seat=4, amount_cents=1000)
    assert assert_twins(pgp).round[6:8] == (2, 3500)  # type: ignore[index]
    asked = adjustment_request(actor=dealer, round=opened, kind="void", reason="Misdeal")
    assert assert_twins(pgp).round[8:10] == (1, 1)  # type: ignore[index]
    adjustment_approve(actor=pit_boss, adjustment=asked)
    decided = assert_twins(pgp).round
    assert decided is not None and decided[1] == "voided" and decided[8:10] == (1, 0) and decided[10] is not None
    round_open(actor=dealer, table=pgp)  # the newest round is the one the marker reads
    assert assert_twins(pgp).round[0] != opened.pk  # type: ignore[index]


@pytest.mark.django_db
def test_the_marker_read_is_the_orms_through_a_round_dealt_set_and_settled(pgp: Table, dealer) -> None:  # type: ignore[no-untyped-def]
    opened = round_open(actor=dealer, table=pgp)
    wager_place(actor=dealer, round=opened, seat=1, amount_cents=2500)
    wager_place(actor=dealer, round=opened, seat=3, amount_cents=1000)
    round_close_betting(actor=dealer, round=opened)
    round_deal(actor=dealer, round=opened, dice=[3, 5, 6])
    dealt = assert_twins(pgp).round
    assert dealt is not None and dealt[3] is not None  # the dice, a JSON column, read back as the ORM reads it
    round_hands_record(
        actor=dealer, round=opened, hands={"banker": {"cards": BANK_CARDS}, "seats": {"1": WINS, "3": LOSES}}
    )
    revealed = assert_twins(pgp).round
    assert revealed is not None and revealed[4] is not None and revealed[1] == "revealed"
    settle_round(round=Round.objects.get(pk=opened.pk), actor=dealer, idempotency_key="marker-twins-1")
    settled = assert_twins(pgp).round
    assert settled is not None and settled[1] == "settled" and settled[6:8] == (2, 3500)


@pytest.mark.django_db
def test_the_marker_read_counts_rated_seats_and_breaks_as_the_orm_does(pgp: Table, make_table, dealer) -> None:  # type: ignore[no-untyped-def]
    lee = player_create(actor=dealer, name="Mr Lee", card_number="1001", tier="Gold")
    wong = player_create(actor=dealer, name="Ms Wong", card_number="2002", tier="Silver")
    first = session_start(actor=dealer, player=lee, table=pgp, seat=3)
    session_start(actor=dealer, player=wong, table=pgp, seat=5)
    assert assert_twins(pgp).rated["seated"] == 2
    session_pause(actor=dealer, session=first)
    assert assert_twins(pgp).rated["on_break"] == 1
    session_resume(actor=dealer, session=first)
    session_pause(actor=dealer, session=first)  # a second break: counted over the join, as the ORM counts
    on_break = assert_twins(pgp)
    assert on_break.rated["breaks"] is not None
    session_resume(actor=dealer, session=first)
    other = make_table(name="PGP-2", game="paigow_poker", seat_count=6)
    session_move(actor=dealer, session=first, table=other, seat=2)
    assert assert_twins(pgp).rated["seated"] == 1
    assert_twins(other)


@pytest.mark.django_db
def test_the_marker_changes_with_the_table_and_no_table_has_none(pgp: Table, dealer, pit_boss) -> None:  # type: ignore[no-untyped-def]
    before = tablet_version(pgp)
    assert tablet_version_of(pgp.pk) == before  # the page's marker, with the set-up it drew, is the poll's
    round_open(actor=dealer, table=pgp)
    assert tablet_version(pgp) != before
    assert tablet_marker_read(pgp.pk + 1000) is None and tablet_version_of(pgp.pk + 1000) is None
    with pytest.raises(Table.DoesNotExist):
        tablet_version(Table(pk=pgp.pk + 1000))
    drawn = Table.objects.get(pk=pgp.pk)
    table_set_limits(  # the pit, while the page draws
        actor=pit_boss, table=pgp, min_wager_cents=pgp.min_wager_cents, max_wager_cents=pgp.max_wager_cents + 100
    )
    assert tablet_version(drawn) != tablet_version_of(pgp.pk)  # the next poll differs: the tablet draws itself again
