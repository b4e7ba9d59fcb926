"""The card room's waitlist: names put down in order, the first called when a seat opens, seated (a rated player's
session starts), moved from the must-move table to the main game (seated longest first), a no-show after the minutes
allowed and the next called; every refusal writes nothing, and every change is in the audit trail.

Fred is a Floor supervisor at the desk; Tess, the tournament director, may run the lists but not rate a player;
Dana deals; Ada the Auditor reads only. Chinese Poker at 5.00 a point: CP-1 (4 seats) is the main game, CP-2 (4
seats) must move into it.
"""

from __future__ import annotations

import pytest

from casino.audit_verify import audit_log_verify
from casino.errors import ApplicationError, NotAllowed, WrongState
from casino.events import AuditEventType
from casino.models import AuditEvent
from casino.roles import Role
from players.models import RatingSeat
from players.services import player_create
from poker_room.waitlist import services
from poker_room.waitlist.models import CashGame, WaitlistEntry
from tests.poker_room.waitlist.evening import at, refused

pytestmark = pytest.mark.django_db


def _names(game: CashGame, *names: str, start: float = 1) -> list[WaitlistEntry]:
    put = []
    for i, name in enumerate(names):
        with at(start + i):
            put.append(services.waitlist_put_down(actor=game.opened_by, cash_game=game, name=name))
    return put


def _status(entry: WaitlistEntry) -> tuple[str, str | None, int | None]:
    entry.refresh_from_db()
    return entry.status, (entry.table.table.name if entry.table else None), entry.seat_number


def test_names_are_called_in_the_order_they_were_put_down_to_the_must_move_table_once_the_main_game_is_full(
    room, fred
) -> None:  # type: ignore[no-untyped-def]
    names = _names(room, *["Anna", "Ben", "Cleo", "Dora", "Emil", "Fay"])
    for i in range(4):
        with at(10 + i):
            called = services.waitlist_call(actor=fred, cash_game=room)
        assert called.pk == names[i].pk and called.table.table.name == "CP-1"
        services.waitlist_seat(actor=fred, entry=called)
    with at(20):
        fifth = services.waitlist_call(actor=fred, cash_game=room)
    assert (fifth.pk, fifth.table.table.name) == (names[4].pk, "CP-2")
    assert [_status(entry) for entry in names[:4]] == [("seated", "CP-1", seat) for seat in (1, 2, 3, 4)]
    assert _status(names[5]) == ("waiting", None, None)


def test_the_main_games_open_seat_goes_to_the_player_seated_longest_at_the_must_move_table(room, fred) -> None:  # type: ignore[no-untyped-def]
    names = _names(room, *["Anna", "Ben", "Cleo", "Dora", "Emil", "Fay", "Gus"])
    for i in range(6):
        with at(10 + i):
            services.waitlist_seat(actor=fred, entry=services.waitlist_call(actor=fred, cash_game=room))
    emil, fay, gus = names[4], names[5], names[6]
    assert _status(emil)[1] == _status(fay)[1] == "CP-2"
    with at(30):
        services.waitlist_leave(actor=fred, entry=names[1])  # Ben leaves the main game: seat 2 opens
    refused(
        WrongState,
        "goes to the must-move table first",
        lambda: services.waitlist_call(actor=fred, cash_game=room),
    )
    with at(31):
        moved = services.waitlist_move(actor=fred, cash_game=room)
    assert moved.pk == emil.pk  # seated at CP-2 at minute 14, before Fay (15)
    assert _status(emil) == ("seated", "CP-1", 2)
    with at(32):
        assert services.waitlist_call(actor=fred, cash_game=room).pk == gus.pk
    assert _status(gus) == ("called", "CP-2", None)
    refused(WrongState, "The main game is full", lambda: services.waitlist_move(actor=fred, cash_game=room))


def test_a_called_player_not_seated_within_the_minutes_is_a_no_show_and_the_next_is_called(
    room, fred, settings
) -> None:  # type: ignore[no-untyped-def]
    settings.TABLESIDE_WAITLIST_NO_SHOW_MINUTES = 5
    anna, ben, cleo = _names(room, "Anna", "Ben", "Cleo")
    with at(10):
        assert services.waitlist_call(actor=fred, cash_game=room).pk == anna.pk
    with at(14.9):
        refused(WrongState, "less than 5 minutes ago", lambda: services.waitlist_no_show(actor=fred, entry=anna))
        assert services.waitlist_no_shows() == 0
    with at(15):
        assert services.waitlist_no_shows() == 1
    assert _status(anna)[0] == "no_show"
    assert _status(ben) == ("called", "CP-1", None)  # the next name, called to the seat Anna did not take
    with at(17):
        refused(WrongState, "less than 5 minutes ago", lambda: services.waitlist_no_show(actor=fred, entry=ben))
    with at(20):
        following = services.waitlist_no_show(actor=fred, entry=ben)
    assert following is not None and following.pk == cleo.pk
    system = AuditEvent.objects.filter(event_type=AuditEventType.WAITLIST_NO_SHOW).order_by("pk").first()
    assert system is not None and system.actor_id is None
    assert audit_log_verify().ok


def test_a_rated_player_is_seated_in_a_rating_session_that_follows_them_to_the_main_game_and_ends_when_they_leave(
    room, fred, dealer
) -> None:  # type: ignore[no-untyped-def]
    lee = player_create(actor=dealer, name="Mr Lee", card_number="1001", tier="Gold")
    _names(room, "Anna", "Ben", "Cleo", "Dora")
    with at(5):
        rated = services.waitlist_put_down(actor=fred, cash_game=room, player=lee)
    assert rated.name == "Mr Lee"
    for i in range(5):
        with at(10 + i):
            services.waitlist_seat(actor=fred, entry=services.waitlist_call(actor=fred, cash_game=room))
    rated.refresh_from_db()
    assert rated.session is not None and rated.session.status == "playing"
    assert RatingSeat.objects.get(session=rated.session, ended_at__isnull=True).table.name == "CP-2"
    first = WaitlistEntry.objects.filter(cash_game=room, table__must_move=False).order_by("pk").first()
    with at(40):
        services.waitlist_leave(actor=fred, entry=first)
        services.waitlist_move(actor=fred, cash_game=room)
    seat_now = RatingSeat.objects.get(session=rated.session, ended_at__isnull=True)
    assert (seat_now.table.name, seat_now.seat_number) == ("CP-1", 1)
    with at(90):
        services.waitlist_leave(actor=fred, entry=rated)
    rated.session.refresh_from_db()
    assert rated.session.status == "ended" and _status(rated)[0] == "left"
    payloads = [str(event.after) for event in AuditEvent.objects.filter(event_type__startswith="waitlist.")]
    assert payloads and not any("Lee" in text or "Anna" in text for text in payloads)
    assert audit_log_verify().ok


def test_the_tournament_director_runs_the_list_but_a_rated_seat_is_a_supervisors_and_nothing_is_written(
    room, make_user, dealer
) -> None:  # type: ignore[no-untyped-def]
    tess = make_user("tess", Role.TOURNAMENT_DIRECTOR)
    lee = player_create(actor=dealer, name="Mr Lee", card_number="1001", tier="Gold")
    rated = services.waitlist_put_down(actor=tess, cash_game=room, player=lee)
    called = services.waitlist_call(actor=tess, cash_game=room)
    assert called.pk == rated.pk
    refused(NotAllowed, "seat a rated player", lambda: services.waitlist_seat(actor=tess, entry=rated))
    assert _status(rated)[0] == "called"


@pytest.mark.parametrize(
    ("persona", "message"),
    [("dealer", "put a name down"), ("auditor", "put a name down")],
)
def test_a_dealer_or_an_auditor_puts_no_name_down(room, request, persona, message) -> None:  # type: ignore[no-untyped-def]
    who = request.getfixturevalue(persona)
    refused(NotAllowed, message, lambda: services.waitlist_put_down(actor=who, cash_game=room, name="Anna"))


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "Say the name"),
        ("   ", "Say the name"),
        ("x" * 41, "at most 40 characters"),
        ("12345", "written in letters"),
        ("Anna\x00", "written in letters"),
        ("<b>Anna</b>", "written in letters"),
        ("Anna; DROP", "written in letters"),
        (None, "The name is text"),
        (7, "The name is text"),
    ],
)
def test_a_name_that_is_no_name_is_refused_and_nothing_is_written(room, fred, name, message) -> None:  # type: ignore[no-untyped-def]
    refused(ApplicationError, message, lambda: services.waitlist_put_down(actor=fred, cash_game=room, name=name))
    refused(ApplicationError, message, lambda: services.waitlist_kiosk_put_down(cash_game=room, name=name))


def test_the_same_guest_or_player_is_not_put_down_twice_on_one_list(room, fred, dealer) -> None:  # type: ignore[no-untyped-def]
    services.waitlist_put_down(actor=fred, cash_game=room, name="Anna Berg")
    refused(
        WrongState,
        "anna berg is on this list already: add a letter",
        lambda: services.waitlist_put_down(actor=fred, cash_game=room, name=" anna  berg "),
    )
    refused(  # at the public kiosk, in words that do not say the name is on the list
        WrongState,
        "The kiosk cannot put this name down: ask at the desk.",
        lambda: services.waitlist_kiosk_put_down(cash_game=room, name=" anna  berg "),
    )
    lee = player_create(actor=dealer, name="Mr Lee", card_number="1001", tier="Gold")
    services.waitlist_put_down(actor=fred, cash_game=room, player=lee)
    refused(
        WrongState, "on this list already", lambda: services.waitlist_put_down(actor=fred, cash_game=room, player=lee)
    )


def test_calls_and_seats_out_of_turn_are_refused(room, fred) -> None:  # type: ignore[no-untyped-def]
    refused(WrongState, "Nobody is waiting", lambda: services.waitlist_call(actor=fred, cash_game=room))
    (anna,) = _names(room, "Anna")
    refused(WrongState, "once called", lambda: services.waitlist_seat(actor=fred, entry=anna))
    refused(WrongState, "only a called player", lambda: services.waitlist_no_show(actor=fred, entry=anna))
    refused(WrongState, "a seated player leaves", lambda: services.waitlist_leave(actor=fred, entry=anna))
    services.waitlist_call(actor=fred, cash_game=room)
    refused(
        ApplicationError,
        "The seat is a whole number from 1 to 4",
        lambda: services.waitlist_seat(actor=fred, entry=anna, seat=9),
    )
    services.waitlist_seat(actor=fred, entry=anna, seat=3)
    refused(WrongState, "once called", lambda: services.waitlist_seat(actor=fred, entry=anna))  # a double tap
    refused(WrongState, "Nobody sits at a must-move table", lambda: services.waitlist_move(actor=fred, cash_game=room))
    refused(WrongState, "names are still on this list", lambda: services.cash_game_close(actor=fred, cash_game=room))


def test_no_seat_open_means_no_call(shift, make_table, fred) -> None:  # type: ignore[no-untyped-def]
    table = make_table(name="OFC-1", game="ofc", seat_count=2)
    game = services.cash_game_open(actor=fred, game="ofc", points_cents=100)
    services.cash_table_add(actor=fred, cash_game=game, table=table)
    _names(game, "Anna", "Ben", "Cleo")
    services.waitlist_call(actor=fred, cash_game=game)
    services.waitlist_call(actor=fred, cash_game=game)
    refused(WrongState, "No seat is open", lambda: services.waitlist_call(actor=fred, cash_game=game))


def test_lists_and_tables_are_refused_when_they_do_not_fit(shift, make_table, fred) -> None:  # type: ignore[no-untyped-def]
    pgp = make_table(name="PGP-1", game="paigow_poker", seat_count=6)
    cp = make_table(name="CP-1", game="chinese_poker", seat_count=4)
    refused(
        ApplicationError,
        "Chinese Poker or Open-Face",
        lambda: services.cash_game_open(actor=fred, game="paigow_poker", points_cents=500),
    )
    refused(
        ApplicationError, "whole number from 1", lambda: services.cash_game_open(actor=fred, game="ofc", points_cents=0)
    )
    refused(
        ApplicationError,
        "whole number from 1",
        lambda: services.cash_game_open(actor=fred, game="ofc", points_cents="5"),
    )
    game = services.cash_game_open(actor=fred, game="chinese_poker", points_cents=500)
    refused(
        WrongState, "open already", lambda: services.cash_game_open(actor=fred, game="chinese_poker", points_cents=500)
    )
    refused(
        ApplicationError, "deals Pai Gow Poker", lambda: services.cash_table_add(actor=fred, cash_game=game, table=pgp)
    )
    services.cash_table_add(actor=fred, cash_game=game, table=cp)
    other = services.cash_game_open(actor=fred, game="chinese_poker", points_cents=1000)
    refused(
        WrongState, "deals a cash game already", lambda: services.cash_table_add(actor=fred, cash_game=other, table=cp)
    )
    services.cash_game_close(actor=fred, cash_game=game)
    refused(WrongState, "This list is closed", lambda: services.waitlist_kiosk_put_down(cash_game=game, name="Anna"))
    services.cash_table_add(actor=fred, cash_game=other, table=cp)  # free again once its list closed
