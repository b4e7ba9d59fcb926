"""Players and rating sessions (started): enrol, seat, a break, a move to another table, the end; the clock
counts play and not breaks; a seat holds one rated player and a player one session; the audit trail never holds a
player's name, so anonymising one on request leaves it as it was.

Dana deals PGP-1 and PGP-2; Fred is a Floor supervisor. Mr Lee (card 1001, Gold) plays.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from contextlib import contextmanager
from unittest import mock

import pytest
from django.db import IntegrityError, transaction

from casino.audit_verify import audit_log_verify
from casino.errors import ApplicationError, NotAllowed, WrongState
from casino.models import AuditEvent
from casino.roles import Role
from players.models import Player, RatingPause, RatingSeat, RatingSession
from players.services import (
    player_anonymise,
    player_create,
    session_end,
    session_move,
    session_pause,
    session_resume,
    session_start,
)

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2026, 11, 24, 20, 0, tzinfo=dt.UTC)


@contextmanager
def at(minutes: float) -> Iterator[None]:
    with mock.patch("players.services.timezone.now", return_value=T0 + dt.timedelta(minutes=minutes)):
        yield


@pytest.fixture
def tables(shift, make_table):  # type: ignore[no-untyped-def]
    return (
        make_table(name="PGP-1", game="paigow_poker", seat_count=6),
        make_table(name="PGP-2", game="paigow_poker", seat_count=6),
    )


@pytest.fixture
def lee(dealer) -> Player:  # type: ignore[no-untyped-def]
    return player_create(actor=dealer, name="Mr  Lee", card_number="1001", tier="Gold")


def test_a_session_counts_play_not_breaks_and_follows_the_player_to_another_table(tables, dealer, lee) -> None:  # type: ignore[no-untyped-def]
    first, second = tables
    assert (lee.name, lee.card_number, lee.tier) == ("Mr Lee", "1001", "Gold")
    with at(0):
        session = session_start(actor=dealer, player=lee, table=first, seat=3)
    with at(40):
        session_pause(actor=dealer, session=session)  # 40 minutes played
    with at(55):
        session_resume(actor=dealer, session=session)  # a 15-minute break
    with at(70):
        session_move(actor=dealer, session=session, table=second, seat=1)  # the clock keeps running
    with at(100):
        ended = session_end(actor=dealer, session=session, walk_with_cents=125_000)
    assert (ended.status, ended.seconds_played, ended.walk_with_cents) == ("ended", 85 * 60, 125_000)
    seats = [(s.table.name, s.seat_number, s.started_at, s.ended_at) for s in RatingSeat.objects.order_by("pk")]
    assert seats == [
        ("PGP-1", 3, T0, T0 + dt.timedelta(minutes=70)),
        ("PGP-2", 1, T0 + dt.timedelta(minutes=70), T0 + dt.timedelta(minutes=100)),
    ]
    (pause,) = RatingPause.objects.all()
    assert (pause.started_at, pause.ended_at) == (T0 + dt.timedelta(minutes=40), T0 + dt.timedelta(minutes=55))
    events = list(AuditEvent.objects.filter(subject_type="players.ratingsession").values_list("event_type", flat=True))
    assert events == ["rating.started", "rating.paused", "rating.resumed", "rating.moved", "rating.ended"]


def test_a_session_ended_on_a_break_counts_nothing_of_the_break(tables, dealer, lee) -> None:  # type: ignore[no-untyped-def]
    with at(0):
        session = session_start(actor=dealer, player=lee, table=tables[0], seat=1)
    with at(30):
        session_pause(actor=dealer, session=session)
    with at(90):
        ended = session_end(actor=dealer, session=session)
    assert ended.seconds_played == 30 * 60 and RatingPause.objects.get().ended_at == T0 + dt.timedelta(minutes=90)


def test_a_seat_holds_one_rated_player_and_a_player_one_session(tables, dealer) -> None:  # type: ignore[no-untyped-def]
    lee = player_create(actor=dealer, name="Mr Lee", tier="Gold")
    kim = player_create(actor=dealer, tier="Bronze", anonymous=True)
    session_start(actor=dealer, player=lee, table=tables[0], seat=2)
    with pytest.raises(WrongState, match="^Seat 2 at table PGP-1 is rated for another player already.$"):
        session_start(actor=dealer, player=kim, table=tables[0], seat=2)
    with pytest.raises(WrongState, match="in a rating session already"):
        session_start(actor=dealer, player=lee, table=tables[1], seat=1)
    with pytest.raises(ApplicationError, match="^Table PGP-2 has seats 1 to 6, not 7.$"):
        session_start(actor=dealer, player=kim, table=tables[1], seat=7)
    assert RatingSession.objects.count() == 1 and RatingSeat.objects.count() == 1


def test_what_cannot_be_is_refused_and_writes_nothing(tables, dealer, make_user, lee) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ApplicationError, match="^The tiers are Bronze, Silver, Gold, Platinum, not 'Diamond'.$"):
        player_create(actor=dealer, name="X", tier="Diamond")
    with pytest.raises(ApplicationError, match="^An anonymous player has no name and no card number.$"):
        player_create(actor=dealer, name="X", tier="Gold", anonymous=True)
    with pytest.raises(ApplicationError, match="^Say the player's name, or enrol them as anonymous.$"):
        player_create(actor=dealer, name="   ", tier="Gold")
    with pytest.raises(WrongState, match="^Card number 1001 belongs to another player.$"):
        player_create(actor=dealer, name="Someone", card_number="1001", tier="Gold")
    with pytest.raises(NotAllowed):
        player_create(actor=make_user("cora_cage", Role.CAGE_CASHIER), name="Y", tier="Gold")
    other = make_user("otto_dealer", Role.DEALER)
    with pytest.raises(NotAllowed, match="Table PGP-1 is not your table"):
        session_start(actor=other, player=lee, table=tables[0], seat=1)
    session = session_start(actor=dealer, player=lee, table=tables[0], seat=1)
    with pytest.raises(WrongState, match="only a session on a break resumes"):
        session_resume(actor=dealer, session=session)
    with pytest.raises(ApplicationError, match="whole number of cents from 0"):
        session_end(actor=dealer, session=session, walk_with_cents=-5)
    session_end(actor=dealer, session=session)
    with pytest.raises(WrongState, match="^This session has ended already.$"):
        session_end(actor=dealer, session=session)
    assert Player.objects.count() == 1


def test_the_database_holds_a_session_clock_to_its_status(tables, dealer, lee) -> None:  # type: ignore[no-untyped-def]
    session = session_start(actor=dealer, player=lee, table=tables[0], seat=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        RatingSession.objects.filter(pk=session.pk).update(status="ended")  # ended with no end and the clock running


def test_anonymising_a_player_keeps_the_audit_chain_which_never_held_the_name(
    tables, dealer, floor_supervisor, lee
) -> None:  # type: ignore[no-untyped-def]
    session_end(actor=dealer, session=session_start(actor=dealer, player=lee, table=tables[0], seat=1))
    trail = list(AuditEvent.objects.values_list("before", "after"))
    assert "Lee" not in str(trail) and "1001" not in str(trail)
    with pytest.raises(NotAllowed):
        player_anonymise(actor=dealer, player=lee)
    gone = player_anonymise(actor=floor_supervisor, player=lee)
    assert (gone.name, gone.card_number, gone.anonymous, gone.anonymised_at is not None) == ("", None, True, True)
    assert RatingSession.objects.filter(player=gone).count() == 1
    assert audit_log_verify().ok
    with pytest.raises(WrongState, match="anonymised already"):
        player_anonymise(actor=floor_supervisor, player=gone)


def test_a_dealer_finds_a_player_by_card_or_by_name(tables, dealer, floor_supervisor, lee) -> None:  # type: ignore[no-untyped-def]
    from players.selectors import player_find, session_current

    li = player_create(actor=dealer, name="Anna Lee-Park", card_number="2002", tier="Silver")
    player_create(actor=dealer, tier="Bronze", anonymous=True)
    assert player_find(query=" 1001 ") == [lee]  # the card, exactly
    assert player_find(query="lee") == [li, lee]  # by name, case aside, in name order
    assert player_find(query="anna  LEE") == [li]  # every word
    assert player_find(query="") == [] and player_find(query="9999") == []
    player_anonymise(actor=floor_supervisor, player=lee)
    assert player_find(query="lee") == [li] and player_find(query="1001") == []  # anonymised: found no more
    assert session_current(player=li) is None
    session = session_start(actor=dealer, player=li, table=tables[0], seat=1)
    assert session_current(player=li) == session
