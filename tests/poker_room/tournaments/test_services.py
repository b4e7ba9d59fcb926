"""A tournament set up and started: made from a template, its settings, structure, payout table, tables and
dealers, the start (the seat draw and the clock), the chip race at a colour-up; refusals in the director's words with
nothing written.

Tina directs; Dana deals; Alex audits.
"""

from __future__ import annotations

import random

import pytest

from casino.errors import ApplicationError, NotAllowed, WrongState
from casino.events import AuditEventType
from casino.models import AuditEvent
from ledger.verify import ledger_verify
from poker_room.display.selectors import display_payload
from poker_room.pure.payouts import HOUSE_PAYOUTS, bands_as_json
from poker_room.tournaments import clock_services, services
from poker_room.tournaments.clock_services import clock_now
from poker_room.tournaments.models import Entry, SeatMove, Tournament, TournamentTable
from tests.poker_room.refusals import refused
from tests.poker_room.tournament_setup import LEVELS, T0, at, entry, fresh

pytestmark = pytest.mark.django_db


# --- made from a template -------------------------------------------------------------------------------------


def test_a_tournament_is_made_from_its_template_with_its_tables(director) -> None:
    mainz = services.tournament_create(
        actor=director, template_key="mainzer_poker_masters", buy_in_cents=9_000, fee_cents=1_000, tables=3
    )
    assert (mainz.name, mainz.games, mainz.starting_stack, mainz.table_size) == (
        "Mainzer Poker Masters",
        ["nlhe", "nlo"],
        15_000,
        9,
    )
    assert mainz.levels[0]["minutes"] == 20 and mainz.status == "planned" and mainz.bounty_kind == "none"
    tables = list(TournamentTable.objects.filter(tournament=mainz).values_list("number", "seats", "break_position"))
    assert tables == [(1, 9, 0), (2, 9, 2), (3, 9, 1)]  # table 1 is the final table; 3 breaks first
    assert AuditEvent.objects.filter(event_type=AuditEventType.TOURNAMENT_CREATED).get().after["template"] == (
        "mainzer_poker_masters"
    )
    knockout = services.tournament_create(
        actor=director, template_key="zocktoberfest", buy_in_cents=5_000, fee_cents=1_000, bounty_cents=2_000
    )
    assert (knockout.bounty_kind, knockout.bounty_cents) == ("fixed", 2_000)


@pytest.mark.parametrize(
    ("fields", "error", "message"),
    [
        ({"template_key": "zocktoberfest"}, ApplicationError, "Zocktoberfest is a knock-out: set the bounty."),
        ({"template_key": "poker_night"}, ApplicationError, None),
        ({"buy_in_cents": -1}, ApplicationError, "The buy-in is a whole number from 0 to 1000000000000, not -1."),
        ({"tables": 0}, ApplicationError, "The number of tables is a whole number from 1 to 50, not 0."),
    ],
)
def test_a_tournament_the_room_cannot_run_is_not_made(director, fields, error, message) -> None:
    values = {"template_key": "msop_turbo", "buy_in_cents": 2_000, "fee_cents": 500, **fields}
    with pytest.raises(error) as refusal:
        services.tournament_create(actor=director, **values)
    if message:
        assert str(refusal.value) == message
    assert not Tournament.objects.exists() and not AuditEvent.objects.exists()


def test_an_auditor_creates_no_tournament(auditor) -> None:
    with pytest.raises(NotAllowed):
        services.tournament_create(actor=auditor, template_key="msop_turbo", buy_in_cents=2_000, fee_cents=500)
    assert not Tournament.objects.exists()


# --- settings -------------------------------------------------------------------------------------------------


def test_settings_change_and_what_an_entrant_pays_is_fixed_from_the_start(make_tournament, running, director) -> None:
    planned = make_tournament()
    changed = services.tournament_settings_set(
        actor=director, tournament=planned, buy_in_cents=10_000, late_registration_level=4, table_size=6
    )
    assert (changed.buy_in_cents, changed.late_registration_level) == (10_000, 4)
    assert set(TournamentTable.objects.filter(tournament=planned).values_list("seats", flat=True)) == {6}
    event = AuditEvent.objects.filter(event_type=AuditEventType.TOURNAMENT_UPDATED).latest("seq")
    assert event.before["buy_in_cents"] == 9_000 and event.after["buy_in_cents"] == 10_000
    tournament = running(players=4)
    refused(
        tournament,
        WrongState,
        "Buy-in to the prize pool (cents) cannot change once MSOP Main Event has started.",
        lambda: services.tournament_settings_set(actor=director, tournament=tournament, buy_in_cents=1),
    )
    later = services.tournament_settings_set(actor=director, tournament=tournament, late_registration_level=6)
    assert later.late_registration_level == 6  # late registration may be extended while it runs
    refused(
        tournament,
        ApplicationError,
        "Unknown setting: colour.",
        lambda: services.tournament_settings_set(actor=director, tournament=tournament, colour="red"),
    )


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"bounty_cents": 500}, "A bounty of 500 cents needs a bounty kind: fixed or progressive."),
        ({"bounty_kind": "progressive"}, "A knock-out needs its bounty: set it."),
        ({"bounty_kind": "bounty hunter"}, "The bounty is one of none, fixed, progressive, not 'bounty hunter'."),
        ({"table_size": 11}, "Seats a table is a whole number from 2 to 10, not 11."),
        ({"name": "  "}, "Name is required."),
    ],
)
def test_settings_that_do_not_hold_together_are_refused(make_tournament, director, fields, message) -> None:
    tournament = make_tournament()
    refused(
        tournament,
        ApplicationError,
        message,
        lambda: services.tournament_settings_set(actor=director, tournament=tournament, **fields),
    )


def test_a_knock_out_whose_players_paid_their_bounty_stays_one(make_tournament, director, rng) -> None:
    """Their bounties are in the ledger: with no bounty kind nobody would be paid them, and the finished tournament's
    bounties would still hold the money."""
    tournament = make_tournament(bounty_cents=2_000, bounty_kind="fixed")
    for name in ("Anna", "Ben", "Cem"):
        services.entry_register(actor=director, tournament=tournament, name=name, now=T0)
    refused(
        tournament,
        WrongState,
        "Players have paid their bounty for MSOP Main Event already: it stays a knock-out.",
        lambda: services.tournament_settings_set(
            actor=director, tournament=tournament, bounty_kind="none", bounty_cents=0
        ),
    )
    progressive = services.tournament_settings_set(actor=director, tournament=tournament, bounty_kind="progressive")
    assert progressive.bounty_kind == "progressive"
    services.tournament_start(actor=director, tournament=tournament, now=T0, rng=rng)
    services.entry_eliminate(
        actor=director, tournament=tournament, entry=entry(tournament, 3), eliminated_by=entry(tournament, 1), now=at(5)
    )
    services.entry_eliminate(
        actor=director, tournament=tournament, entry=entry(tournament, 2), eliminated_by=entry(tournament, 1), now=at(6)
    )
    assert fresh(tournament).status == "finished" and ledger_verify().ok


# --- the structure --------------------------------------------------------------------------------------------


def test_a_structure_with_a_level_below_the_last_is_refused(make_tournament, director) -> None:
    tournament = make_tournament()
    levels = [dict(level) for level in LEVELS]
    levels[2] = {"kind": "level", "minutes": 20, "small_blind": 25, "big_blind": 75}
    refused(
        tournament,
        ApplicationError,
        "Level 3 is below level 2: its small blind of 25 is lower than level 2's 50",
        lambda: services.tournament_structure_set(actor=director, tournament=tournament, levels=levels),
    )


def test_while_it_runs_the_levels_played_stay_as_they_were(running, director) -> None:
    tournament = running(players=4)
    slower = [dict(level) for level in LEVELS]
    slower[0]["minutes"] = 30
    refused(
        tournament,
        WrongState,
        "Level 1 has been played: the levels before the current one cannot change.",
        lambda: services.tournament_structure_set(actor=director, tournament=tournament, levels=slower, now=at(25)),
    )
    longer = [dict(level) for level in LEVELS]
    longer[4]["minutes"] = 30  # level 4, not yet played
    changed = services.tournament_structure_set(actor=director, tournament=tournament, levels=longer, now=at(25))
    assert changed.levels[4]["minutes"] == 30


def test_levels_added_after_the_last_one_ran_out_start_now(running, director) -> None:
    """The structure's 190 minutes are over at 21:10: at 23:00 the clock shows the last level at 0 (overtime). A
    level added then starts with the edit, in full; it is not counted from 21:10, when the last level ran out."""
    tournament = running(players=4)
    assert display_payload(tournament.pk, now=at(300))["overtime"] is True
    more = [
        *LEVELS,
        {"kind": "level", "minutes": 20, "small_blind": 600, "big_blind": 1200, "ante": 1200, "ante_kind": "big_blind"},
    ]
    services.tournament_structure_set(actor=director, tournament=tournament, levels=more, now=at(300))
    view = clock_now(fresh(tournament), at(305))
    assert (view.level, view.overtime, view.remaining_ms) == (10, False, 15 * 60_000)
    event = AuditEvent.objects.filter(event_type=AuditEventType.TOURNAMENT_UPDATED).latest("seq")
    assert event.after["overtime_ended_at"] == "2025-10-18T23:00:00.000+00:00"
    # Added while the last level still runs: it follows that level's end, as any level does.
    again = running(players=4)
    services.tournament_structure_set(actor=director, tournament=again, levels=more, now=at(180))
    assert fresh(again).clock_level == 0
    assert (clock_now(fresh(again), at(200)).level, clock_now(fresh(again), at(200)).remaining_ms) == (10, 10 * 60_000)


# --- the payout table -----------------------------------------------------------------------------------------


def test_a_payout_table_that_does_not_add_up_to_100_percent_is_refused(make_tournament, director) -> None:
    tournament = make_tournament()
    bands = bands_as_json(HOUSE_PAYOUTS)
    bands[1]["shares_bp"] = [5000, 2500, 1500, 500]
    refused(
        tournament,
        ApplicationError,
        "The payouts for 11–20 players add up to 95.00 %, not 100 %.",
        lambda: services.tournament_payouts_set(actor=director, tournament=tournament, bands=bands),
    )
    bands[1]["shares_bp"] = [6000, 2500, 1500]
    own = services.tournament_payouts_set(actor=director, tournament=tournament, bands=bands)
    assert own.payouts[1]["shares_bp"] == [6000, 2500, 1500]
    assert services.tournament_payouts_set(actor=director, tournament=tournament, bands=None).payouts is None


def test_the_payout_table_is_fixed_with_the_prize_pool(running, director) -> None:
    tournament = running(players=3)
    services.entry_eliminate(actor=director, tournament=tournament, entry=entry(tournament, 3), now=at(5))
    refused(
        tournament,
        WrongState,
        "The prize pool is final; the money has started.",
        lambda: services.tournament_payouts_set(actor=director, tournament=tournament, bands=None),
    )


# --- tables, the start ----------------------------------------------------------------------------------------


def test_tables_are_set_before_the_start(make_tournament, running, director) -> None:
    tournament = make_tournament(tables=2)
    services.tournament_tables_set(actor=director, tournament=tournament, count=4)
    layout = list(TournamentTable.objects.filter(tournament=tournament).values_list("number", "break_position"))
    assert layout == [(1, 0), (2, 3), (3, 2), (4, 1)]
    services.tournament_tables_set(actor=director, tournament=tournament, count=1)
    assert list(TournamentTable.objects.filter(tournament=tournament).values_list("number", flat=True)) == [1]
    started = running(players=4)
    refused(
        started,
        WrongState,
        "MSOP Main Event has started: tables are added to it, never taken away.",
        lambda: services.tournament_tables_set(actor=director, tournament=started, count=1),
    )


def test_a_late_entry_with_every_seat_taken_sits_at_a_table_added_while_it_runs(running, director, rng) -> None:
    """The refusal tells the director to open another table: once running, tables are added (the new one breaks
    first), and the next entry sits there."""
    tournament = running(players=4, tables=2, table_size=2, late_registration_level=3)
    refused(
        tournament,
        WrongState,
        "No free seat for #5 Emil: Every seat is taken: open another table first.",
        lambda: services.entry_register(actor=director, tournament=tournament, name="Emil", now=at(5), rng=rng),
    )
    services.tournament_tables_set(actor=director, tournament=tournament, count=3)
    layout = list(
        TournamentTable.objects.filter(tournament=tournament).values_list("number", "seats", "break_position")
    )
    assert layout == [(1, 2, 0), (2, 2, 2), (3, 2, 1)]
    late = services.entry_register(actor=director, tournament=tournament, name="Emil", now=at(6), rng=rng)
    assert late.table_number == 3


def test_the_start_draws_the_seats_and_starts_the_clock(make_tournament, director) -> None:
    tournament = make_tournament(tables=3)
    refused(
        tournament,
        WrongState,
        "MSOP Main Event needs at least 2 entries to start; it has 0.",
        lambda: services.tournament_start(actor=director, tournament=tournament, now=T0),
    )
    for name in ("Anna", "Ben", "Cem", "Dora", "Emil", "Fritz", "Gina", "Hans", "Ines", "Jonas", "Karl"):
        services.entry_register(actor=director, tournament=tournament, name=name)
    started = services.tournament_start(actor=director, tournament=tournament, now=T0, rng=random.Random(3))
    assert (started.status, started.started_at, started.clock_status) == ("running", T0, "running")
    seats = list(Entry.objects.filter(tournament=tournament).values_list("table_number", "seat_number"))
    assert len(set(seats)) == 11 and {table for table, _ in seats} == {1, 2}  # 11 fit at two tables of 9
    assert SeatMove.objects.filter(tournament=tournament, reason="draw").count() == 11
    assert AuditEvent.objects.filter(event_type=AuditEventType.TOURNAMENT_STARTED).get().after["tables"] == [1, 2]
    assert AuditEvent.objects.filter(event_type=AuditEventType.TOURNAMENT_CLOCK).get().after["action"] == "start"
    refused(
        started,
        WrongState,
        "MSOP Main Event is already running.",
        lambda: services.tournament_start(actor=director, tournament=started, now=T0),
    )


def test_a_clock_started_on_time_before_the_seat_draw_keeps_running_when_the_tournament_starts(
    make_tournament, director, rng
) -> None:
    """The director starts the clock at the advertised time while the players still register; starting the
    tournament later draws the seats and leaves that clock as it runs (it used to refuse the start for good)."""
    tournament = make_tournament()
    for name in ("Anna", "Ben", "Cem"):
        services.entry_register(actor=director, tournament=tournament, name=name, now=T0)
    clock_services.clock_start(actor=director, tournament=tournament, now=T0)
    started = services.tournament_start(actor=director, tournament=tournament, now=at(5), rng=rng)
    assert (started.status, started.started_at, started.clock_status, started.clock_ends_at) == (
        "running",
        at(5),
        "running",
        at(20),
    )
    assert Entry.objects.filter(tournament=tournament, table_number__isnull=False).count() == 3
    assert AuditEvent.objects.filter(event_type=AuditEventType.TOURNAMENT_CLOCK).count() == 1


def test_a_clock_started_before_the_draw_keeps_its_level_through_a_structure_edit(make_tournament, director) -> None:
    """The clock counts level 1 in minutes: an edit making it a hands-counted level would leave a clock the display
    cannot read (a server error on every screen); refused, as while the tournament runs."""
    tournament = make_tournament()
    clock_services.clock_start(actor=director, tournament=tournament, now=T0)
    hands = [{"kind": "level", "hands": 7, "small_blind": 25, "big_blind": 50}, *LEVELS[1:]]
    refused(
        tournament,
        WrongState,
        "The clock is counting level 1: it keeps its kind and its length in minutes or hands.",
        lambda: services.tournament_structure_set(actor=director, tournament=tournament, levels=hands, now=at(1)),
    )
    clock_services.clock_skip(actor=director, tournament=tournament, by=4, now=at(2))
    refused(
        tournament,
        WrongState,
        "The clock is at level 4: the structure cannot end before it.",
        lambda: services.tournament_structure_set(actor=director, tournament=tournament, levels=LEVELS[:3], now=at(3)),
    )
    assert display_payload(tournament.pk, now=at(4))["level"]["number"] == 4


def test_more_players_than_seats_do_not_start(make_tournament, director) -> None:
    tournament = make_tournament(tables=1, table_size=2)
    for name in ("Anna", "Ben", "Cem"):
        services.entry_register(actor=director, tournament=tournament, name=name)
    refused(
        tournament,
        WrongState,
        "3 players do not fit in the 2 seats of 1 tables: add a table.",
        lambda: services.tournament_start(actor=director, tournament=tournament, now=T0),
    )


# --- dealers, the chip race -----------------------------------------------------------------------------------


def test_a_table_s_dealer_is_a_dealer(running, director, auditor, dealer) -> None:
    tournament = running(players=4)
    refused(
        tournament,
        ApplicationError,
        "alex_auditor is not a Dealer.",
        lambda: services.tournament_table_dealer_set(
            actor=director, tournament=tournament, table_number=1, dealer=auditor
        ),
    )
    table = services.tournament_table_dealer_set(actor=director, tournament=tournament, table_number=1, dealer=dealer)
    assert table.dealer == dealer
    refused(
        tournament,
        ApplicationError,
        "MSOP Main Event has no table 7.",
        lambda: services.tournament_table_dealer_set(
            actor=director, tournament=tournament, table_number=7, dealer=dealer
        ),
    )


def test_the_chip_race_at_the_colour_up_break_is_recorded_once_a_table(running, director) -> None:
    tournament = running(players=4)
    leftovers = {1: 3, 2: 2, 3: 1, 4: 0}  # 25 chips left over after the exchange, by entry number
    refused(
        tournament,
        WrongState,
        "A chip race is run at a break that colours up a chip.",
        lambda: services.chip_race_record(
            actor=director, tournament=tournament, table_number=1, leftovers=leftovers, now=at(30)
        ),
    )
    race = services.chip_race_record(
        actor=director, tournament=tournament, table_number=1, leftovers=leftovers, now=at(62), rng=random.Random(7)
    )
    assert race.raced_chips == 2  # six 25 chips: one 100 chip, and one more for the remainder of 50
    assert sum(race.won.values()) == 2 and race.saved == ()
    event = AuditEvent.objects.filter(event_type=AuditEventType.TOURNAMENT_UPDATED, after__action="chip_race").get()
    assert (event.after["old_value"], event.after["new_value"], event.after["row"]) == (25, 100, 4)
    refused(
        tournament,
        WrongState,
        "Table 1 has raced its 25 chips at this break already.",
        lambda: services.chip_race_record(
            actor=director, tournament=tournament, table_number=1, leftovers=leftovers, now=at(63)
        ),
    )
    assert fresh(tournament).status == "running"
