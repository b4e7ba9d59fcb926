"""Entries (GAME_RULES.md §5): registration and late registration, re-entry, rebuys and add-ons with their
limits, each payment posted and audited, and every refusal in the director's words with nothing written.

Tina directs; Fred is a Floor supervisor; Dana deals; Alex audits. The structure: 20-minute levels, the break after
level 3 at minutes 60–75 (``tournament_setup.LEVELS``).
"""

from __future__ import annotations

import json

import pytest

from casino.errors import ApplicationError, NotAllowed, WrongState
from casino.events import AuditEventType
from casino.models import AuditEvent
from ledger.models import LedgerEntry
from players.services import player_create
from poker_room.pure.structure import Level, LevelKind
from poker_room.tournaments import services
from poker_room.tournaments.entries import addon_row
from poker_room.tournaments.models import Entry, Purchase, SeatMove
from tests.poker_room.refusals import refused
from tests.poker_room.tournament_setup import T0, at, entry, everything, fresh, seating

pytestmark = pytest.mark.django_db


def posted(purchase: Purchase) -> dict[str, int]:
    assert purchase.posting is not None
    return {
        account: amount
        for account, amount in LedgerEntry.objects.filter(posting=purchase.posting).values_list(
            "account", "amount_cents"
        )
    }


# --- registration ----------------------------------------------------------------------------------------------


def test_a_registration_before_the_start_posts_the_payment_and_draws_no_seat(make_tournament, director) -> None:
    tournament = make_tournament()
    anna = services.entry_register(actor=director, tournament=tournament, name="  Anna   Berg ")
    assert (anna.number, anna.name, anna.status, anna.chips) == (1, "Anna Berg", "active", 20_000)
    assert anna.table_number is None and not SeatMove.objects.exists()
    purchase = Purchase.objects.get(entry=anna)
    assert (purchase.kind, purchase.prize_cents, purchase.fee_cents, purchase.total_cents) == (
        "entry",
        9000,
        1000,
        10_000,
    )
    assert posted(purchase) == {"entrants": -10_000, "prize_pool": 9_000, "t_fees": 1_000}
    assert purchase.posting.idempotency_key == f"tournament:{tournament.pk}:purchase:1:entry:1"
    event = AuditEvent.objects.filter(event_type=AuditEventType.TOURNAMENT_PURCHASE).get()
    assert event.after["entry"] == 1 and event.after["postings"][0]["id"] == purchase.posting_id
    assert "Anna" not in json.dumps(event.after)  # players are named by entry number and player id only
    assert fresh(tournament).version > tournament.version


def test_a_player_of_the_players_app_registers_once_and_comes_back_by_re_entry(
    running, director, floor_supervisor
) -> None:
    tournament = running(players=4, late_registration_level=3, reentries_max=1)
    lee = player_create(actor=floor_supervisor, tier="Gold", name="Mr Lee")
    first = services.entry_register(actor=director, tournament=tournament, player_id=lee.pk, now=at(5))
    assert (first.player_id, first.name, first.number) == (lee.pk, "Mr Lee", 5)
    refused(
        tournament,
        WrongState,
        "#5 Mr Lee is already in.",
        lambda: services.entry_register(actor=director, tournament=tournament, player_id=lee.pk, now=at(6)),
    )
    services.entry_eliminate(actor=director, tournament=tournament, entry=first, now=at(7))
    refused(
        tournament,
        WrongState,
        "#5 Mr Lee is out (5th): that is a re-entry, not a new registration.",
        lambda: services.entry_register(actor=director, tournament=tournament, player_id=lee.pk, now=at(8)),
    )
    again = services.entry_reenter(actor=director, tournament=tournament, entry=first, now=at(9))
    assert (again.player_id, again.reentry_of_id, again.number) == (lee.pk, first.pk, 6)


@pytest.mark.parametrize(
    ("minutes", "open_"),
    [
        (5, True),  # level 1
        (45, True),  # level 3, the last of late registration
        (65, True),  # the break right after level 3 still counts as level 3
        (80, False),  # level 4
        (140, False),  # the break after level 6
    ],
)
def test_late_registration_is_open_until_the_end_of_its_level(running, director, minutes, open_) -> None:
    tournament = running(players=4, late_registration_level=3)
    register = lambda: services.entry_register(  # noqa: E731
        actor=director, tournament=tournament, name="Late Larry", now=at(minutes)
    )
    if not open_:
        refused(tournament, WrongState, "Registration closed after level 3.", register)
        return
    late = register()
    move = SeatMove.objects.get(entry=late)
    assert (move.reason, move.from_table, move.to_table) == ("draw", None, late.table_number)
    assert late.seat_number == move.to_seat


def test_with_no_late_registration_it_closes_at_the_start(running, director) -> None:
    tournament = running(players=4)
    refused(
        tournament,
        WrongState,
        "Registration closed at the start.",
        lambda: services.entry_register(actor=director, tournament=tournament, name="Late Larry", now=T0),
    )


def test_a_late_entry_sits_at_a_table_with_the_fewest_players(running, director) -> None:
    tournament = running(players=6, late_registration_level=2, tables=3, table_size=5)
    assert seating(tournament) == {1: 3, 2: 3, 3: 0}  # the fewest tables that seat everyone; table 3 breaks first
    first = services.entry_register(actor=director, tournament=tournament, name="Late Larry", now=at(1))
    second = services.entry_register(actor=director, tournament=tournament, name="Late Lotte", now=at(2))
    assert {first.table_number, second.table_number} == {1, 2}
    assert seating(tournament) == {1: 4, 2: 4, 3: 0}


def test_a_late_entry_that_opens_a_table_does_not_sit_there_alone(running, director, rng) -> None:
    """Tables 1 and 2 full: the 19th player opens table 3, and the floor is balanced at once (the next big blinds of
    the long tables move to it), not at the next bust."""
    tournament = running(players=10, late_registration_level=2, tables=3, table_size=9)
    for number in range(8):
        services.entry_register(actor=director, tournament=tournament, name=f"Late {number}", now=at(1), rng=rng)
    assert seating(tournament) == {1: 9, 2: 9, 3: 0}
    opener = services.entry_register(actor=director, tournament=tournament, name="Late Larry", now=at(2), rng=rng)
    assert opener.table_number == 3
    assert sorted(seating(tournament).values()) == [6, 6, 7]
    moved = SeatMove.objects.filter(tournament=tournament, reason="balance")
    assert moved.count() == 5 and set(moved.values_list("to_table", flat=True)) == {3}
    event = AuditEvent.objects.filter(event_type=AuditEventType.TOURNAMENT_PURCHASE).latest("seq")
    assert [seat["reason"] for seat in event.after["seats"]] == ["draw", *["balance"] * 5]


def test_registration_needs_a_name_or_a_player(make_tournament, director) -> None:
    tournament = make_tournament()
    refused(
        tournament,
        ApplicationError,
        "Say the player's name, or choose the player.",
        lambda: services.entry_register(actor=director, tournament=tournament, name="   "),
    )
    refused(
        tournament,
        ApplicationError,
        "There is no player 999.",
        lambda: services.entry_register(actor=director, tournament=tournament, player_id=999),
    )


@pytest.mark.parametrize("persona", ["auditor", "dealer"])
def test_only_those_who_run_the_tournament_register_players(make_tournament, persona, request) -> None:
    tournament = make_tournament()
    user = request.getfixturevalue(persona)
    before = everything(tournament)
    with pytest.raises(NotAllowed):
        services.entry_register(actor=user, tournament=tournament, name="Anna")
    assert everything(tournament) == before


# --- re-entry --------------------------------------------------------------------------------------------------


def test_a_busted_player_re_enters_with_a_new_entry_and_the_starting_stack(running, director) -> None:
    tournament = running(players=4, late_registration_level=3, reentries_max=2)
    ben = entry(tournament, 2)
    refused(
        tournament,
        WrongState,
        "#2 Ben is still in: a re-entry is for a player who is out.",
        lambda: services.entry_reenter(actor=director, tournament=tournament, entry=ben, now=at(1)),
    )
    services.entry_eliminate(actor=director, tournament=tournament, entry=ben, now=at(2))
    again = services.entry_reenter(actor=director, tournament=tournament, entry=ben, now=at(3))
    assert (again.number, again.name, again.reentry_of_id, again.chips, again.status) == (
        5,
        "Ben",
        ben.pk,
        20_000,
        "active",
    )
    assert again.table_number is not None
    purchase = Purchase.objects.get(entry=again)
    assert purchase.kind == "reentry" and posted(purchase)["prize_pool"] == 9_000
    refused(
        tournament,
        WrongState,
        "#2 Ben has re-entered already, as #5.",
        lambda: services.entry_reenter(actor=director, tournament=tournament, entry=ben, now=at(4)),
    )
    # The second re-entry of the chain is the last one allowed.
    services.entry_eliminate(actor=director, tournament=tournament, entry=again, now=at(5))
    third = services.entry_reenter(actor=director, tournament=tournament, entry=again, now=at(6))
    services.entry_eliminate(actor=director, tournament=tournament, entry=third, now=at(7))
    refused(
        tournament,
        WrongState,
        "#6 Ben has had the 2 re-entries allowed; no more.",
        lambda: services.entry_reenter(actor=director, tournament=tournament, entry=third, now=at(8)),
    )


def test_re_entry_closes_with_registration_and_needs_the_rule(running, director) -> None:
    tournament = running(players=4, late_registration_level=1, reentries_max=1)
    ben = entry(tournament, 2)
    services.entry_eliminate(actor=director, tournament=tournament, entry=ben, now=at(2))
    refused(
        tournament,
        WrongState,
        "Registration closed after level 1.",
        lambda: services.entry_reenter(actor=director, tournament=tournament, entry=ben, now=at(25)),
    )
    strict = running(players=4, late_registration_level=1)
    cem = entry(strict, 3)
    services.entry_eliminate(actor=director, tournament=strict, entry=cem, now=at(2))
    refused(
        strict,
        WrongState,
        "MSOP Main Event allows no re-entries.",
        lambda: services.entry_reenter(actor=director, tournament=strict, entry=cem, now=at(3)),
    )


# --- rebuys ----------------------------------------------------------------------------------------------------

REBUYS = {
    "rebuys_max": 2,
    "rebuy_until_level": 3,
    "rebuy_cents": 9_000,
    "rebuy_fee_cents": 500,
    "rebuy_chips": 20_000,
}


def test_a_rebuy_adds_its_chips_and_posts_its_payment_up_to_the_limit(running, director) -> None:
    tournament = running(players=8, **REBUYS)
    anna = entry(tournament, 1)
    first = services.entry_rebuy(actor=director, tournament=tournament, entry=anna, now=at(10))
    second = services.entry_rebuy(actor=director, tournament=tournament, entry=anna, now=at(65))  # the break
    assert (first.kind, first.chips, second.kind) == ("rebuy", 20_000, "rebuy")
    assert posted(second) == {"entrants": -9_500, "prize_pool": 9_000, "t_fees": 500}
    assert second.posting.idempotency_key == f"tournament:{tournament.pk}:purchase:1:rebuy:2"
    anna.refresh_from_db()
    assert (anna.rebuys, anna.chips) == (2, 60_000)
    refused(
        tournament,
        WrongState,
        "#1 Anna has had the 2 rebuys allowed; no more.",
        lambda: services.entry_rebuy(actor=director, tournament=tournament, entry=anna, now=at(66)),
    )


@pytest.mark.parametrize(
    ("fields", "minutes", "message"),
    [
        ({}, 80, "Rebuys closed after level 3."),  # level 4
        ({"rebuys_max": 0}, 10, "MSOP Main Event has no rebuys."),
        ({"rebuys_max": 1}, 10, "#2 Ben has had the 1 rebuy allowed; no more."),
    ],
)
def test_a_rebuy_outside_its_rules_is_refused(running, director, fields, minutes, message) -> None:
    tournament = running(players=4, **{**REBUYS, **fields})
    ben = entry(tournament, 2)
    if fields.get("rebuys_max") == 1:
        services.entry_rebuy(actor=director, tournament=tournament, entry=ben, now=at(1))
    refused(
        tournament,
        WrongState,
        message,
        lambda: services.entry_rebuy(actor=director, tournament=tournament, entry=ben, now=at(minutes)),
    )


def test_no_rebuy_before_the_start_nor_for_a_player_out(make_tournament, running, director) -> None:
    planned = make_tournament(**REBUYS)
    anna = services.entry_register(actor=director, tournament=planned, name="Anna")
    refused(
        planned,
        WrongState,
        "MSOP Main Event has not started: rebuys begin with the first level.",
        lambda: services.entry_rebuy(actor=director, tournament=planned, entry=anna, now=T0),
    )
    tournament = running(players=4, **REBUYS)
    ben = entry(tournament, 2)
    services.entry_eliminate(actor=director, tournament=tournament, entry=ben, now=at(1))
    refused(
        tournament,
        WrongState,
        "#2 Ben is out: a rebuy is for a player still in.",
        lambda: services.entry_rebuy(actor=director, tournament=tournament, entry=ben, now=at(2)),
    )


# --- the add-on ------------------------------------------------------------------------------------------------

ADDON = {**REBUYS, "addon_cents": 9_000, "addon_fee_cents": 1_000, "addon_chips": 30_000}


def _level(minutes: int = 20) -> Level:
    return Level(LevelKind.LEVEL, minutes, None, 100, 200)


BREAK = Level(LevelKind.BREAK, 15, None)


@pytest.mark.parametrize(
    ("levels", "rebuy_until", "row"),
    [
        ((_level(), _level(), BREAK, _level()), 2, 2),  # the break after the rebuy period
        ((_level(), _level(), _level(), BREAK), 2, 2),  # no break there: the level after it
        ((_level(), BREAK, _level()), 0, 0),  # no rebuy period: the first level
        ((_level(), _level()), 2, None),  # nothing after the rebuy period
    ],
)
def test_the_add_on_is_taken_at_the_break_after_the_rebuy_period_or_in_the_level_after(
    levels, rebuy_until, row
) -> None:
    assert addon_row(levels, rebuy_until) == row


def test_one_add_on_an_entry_at_the_break_after_the_rebuy_period(running, director) -> None:
    tournament = running(players=4, **ADDON)
    anna = entry(tournament, 1)
    refused(
        tournament,
        WrongState,
        "The add-on is taken at the break after level 3.",
        lambda: services.entry_addon(actor=director, tournament=tournament, entry=anna, now=at(50)),
    )
    addon = services.entry_addon(actor=director, tournament=tournament, entry=anna, now=at(62))
    assert (addon.kind, addon.chips) == ("addon", 30_000)
    assert posted(addon) == {"entrants": -10_000, "prize_pool": 9_000, "t_fees": 1_000}
    anna.refresh_from_db()
    assert (anna.addon, anna.chips) == (True, 50_000)
    refused(
        tournament,
        WrongState,
        "#1 Anna has taken the add-on already.",
        lambda: services.entry_addon(actor=director, tournament=tournament, entry=anna, now=at(63)),
    )
    refused(
        tournament,
        WrongState,
        "The add-on is taken at the break after level 3.",
        lambda: services.entry_addon(actor=director, tournament=tournament, entry=entry(tournament, 2), now=at(80)),
    )


def test_a_tournament_without_an_add_on_refuses_one(running, director) -> None:
    tournament = running(players=4, **REBUYS)
    refused(
        tournament,
        WrongState,
        "MSOP Main Event has no add-on.",
        lambda: services.entry_addon(actor=director, tournament=tournament, entry=entry(tournament, 1), now=at(62)),
    )


# --- the prize pool final --------------------------------------------------------------------------------------


def test_once_the_prize_pool_is_final_no_entry_re_entry_rebuy_or_add_on(running, director) -> None:
    # Three players, three paid: the first bust is in the money and makes the pool final.
    tournament = running(players=3, late_registration_level=9, reentries_max=1, **ADDON)
    cem = entry(tournament, 3)
    services.entry_eliminate(actor=director, tournament=tournament, entry=cem, now=at(10))
    assert fresh(tournament).pool_locked_at is not None
    final = "The prize pool is final; the money has started."
    for write in (
        lambda: services.entry_register(actor=director, tournament=tournament, name="Late Larry", now=at(11)),
        lambda: services.entry_reenter(actor=director, tournament=tournament, entry=cem, now=at(11)),
        lambda: services.entry_rebuy(actor=director, tournament=tournament, entry=entry(tournament, 1), now=at(11)),
        lambda: services.entry_addon(actor=director, tournament=tournament, entry=entry(tournament, 1), now=at(62)),
    ):
        refused(tournament, WrongState, final, write)
    assert Entry.objects.filter(tournament=tournament).count() == 3
