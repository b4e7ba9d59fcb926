"""A tournament's format: chips, heads-up or Open-Face points, chosen at creation or in the settings
before the start; and the prize of a place when places share a tier (heads-up) or a deal covers the player."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from casino.errors import ApplicationError, WrongState
from ledger.verify import ledger_verify
from poker_room.deals import services as deals
from poker_room.heads_up import services as heads_up
from poker_room.leagues import services as leagues
from poker_room.tournaments import services
from poker_room.tournaments.eliminations import elimination_undo, entry_eliminate
from poker_room.tournaments.models import Tournament, TournamentTable
from poker_room.tournaments.prizes import place_prize, prize_table, tiered_prizes
from tests.poker_room.tournament_setup import T0, entry, everything, fresh

pytestmark = pytest.mark.django_db


# --- places sharing a tier ----------------------------------------------------------------------------------------


def test_the_losers_of_one_round_share_their_prizes_equally() -> None:
    # 8 paid of a heads-up bracket: the semi-final losers (3rd, 4th) and the quarter-final losers (5th–8th) share.
    places = (4000, 2000, 1200, 800, 500, 500, 500, 500)
    assert tiered_prizes(places, [[3, 4], [5, 8]], 100) == (4000, 2000, 1000, 1000, 500, 500, 500, 500)


def test_what_the_rounding_leaves_goes_to_first_and_nothing_is_lost() -> None:
    places = (5000, 3000, 1300, 1000)  # 3rd and 4th: 2300 / 2 = 1150, rounded down to 1100 each, 100 to 1st
    shared = tiered_prizes(places, [[3, 4]], 100)
    assert shared == (5100, 3000, 1100, 1100)
    assert sum(shared) == sum(places)


def test_a_tier_reaching_past_the_paid_places_shares_what_is_paid_and_bad_tiers_are_ignored() -> None:
    places = (6000, 3000, 1000)  # 3 paid; the semi-final losers are 3rd and 4th: 1000 shared by two is 500 each
    assert tiered_prizes(places, [[3, 4]], 100) == (6000, 3000, 500, 500)
    assert tiered_prizes(places, [[3, 4], [5, 8]], 100) == (6000, 3000, 500, 500, 0, 0, 0, 0)
    assert tiered_prizes((5000, 3000, 1100), [[3, 4]], 100) == (5100, 3000, 500, 500)  # 550 each, rounded to 500
    assert tiered_prizes(places, [[2, 2], [0, 3], [3, 1]], 100) == places
    assert tiered_prizes((), [[1, 2]], 100) == ()


def test_a_deal_pays_its_amounts_and_the_winner_what_was_left_to_play_for(
    running: Callable[..., Tournament], director: User
) -> None:
    tournament = running(players=6)
    for number in (6, 5, 4):
        entry_eliminate(actor=director, tournament=tournament, entry=entry(tournament, number), now=T0)
    _pool, _overlay, places = prize_table(fresh(tournament))
    deal = deals.deal_record(
        actor=director,
        tournament=tournament,
        method="custom",
        stacks={1: 100, 2: 100, 3: 100},
        reserve_cents=1000,
        amounts={1: 10_000, 2: 10_000, 3: sum(places[:3]) - 21_000},
    )
    assert place_prize(fresh(tournament), entry(tournament, 1), 3, places) == 10_000
    assert place_prize(fresh(tournament), entry(tournament, 2), 1, places) == 11_000  # the reserve to the winner
    assert place_prize(fresh(tournament), entry(tournament, 6), 6, places) == (places[5] if len(places) > 5 else 0)
    # Played out: every prize posted is the deal's, and the pool is paid to the cent.
    entry_eliminate(actor=director, tournament=tournament, entry=entry(tournament, 3), now=T0)
    entry_eliminate(actor=director, tournament=tournament, entry=entry(tournament, 1), now=T0)
    done = fresh(tournament)
    assert done.status == Tournament.Status.FINISHED
    paid = {e.number: e.eliminations.get().prize_cents for e in done.entries.filter(number__in=(1, 2, 3))}
    assert paid == {1: 10_000, 2: 11_000, 3: deal.amount_for(3)}
    assert ledger_verify().ok


# --- the format ---------------------------------------------------------------------------------------------------


def test_msop_heads_up_plays_heads_up_and_a_format_may_be_chosen_at_creation(director: User) -> None:
    heads_up = services.tournament_create(
        actor=director, template_key="msop_heads_up", buy_in_cents=2000, fee_cents=500
    )
    assert heads_up.format == Tournament.Format.HEADS_UP
    assert heads_up.table_size == 2
    ofc = services.tournament_create(
        actor=director, template_key="msop_turbo", buy_in_cents=2000, fee_cents=500, format="ofc_points", tables=2
    )
    assert (ofc.format, ofc.table_size) == (Tournament.Format.OFC_POINTS, 4)
    assert set(TournamentTable.objects.filter(tournament=ofc).values_list("seats", flat=True)) == {4}
    chips = services.tournament_create(actor=director, template_key="msop_turbo", buy_in_cents=2000, fee_cents=0)
    assert chips.format == Tournament.Format.CHIPS


def test_an_unknown_format_is_refused_and_nothing_is_written(director: User) -> None:
    with pytest.raises(ApplicationError, match="Format is one of"):
        services.tournament_create(
            actor=director, template_key="msop_turbo", buy_in_cents=2000, fee_cents=0, format="poker night"
        )
    assert not Tournament.objects.exists()


def test_switching_to_open_face_seats_four_a_table_and_six_is_refused(
    make_tournament: Callable[..., Tournament], director: User
) -> None:
    tournament = make_tournament()
    assert tournament.table_size == 9
    changed = services.tournament_settings_set(actor=director, tournament=tournament, format="ofc_points")
    assert (changed.format, changed.table_size) == ("ofc_points", 4)
    assert set(TournamentTable.objects.filter(tournament=tournament).values_list("seats", flat=True)) == {4}
    before = everything(tournament)
    with pytest.raises(ApplicationError, match="seats 2 to 4"):
        services.tournament_settings_set(actor=director, tournament=tournament, table_size=6)
    with pytest.raises(ApplicationError, match="royalties are one of"):
        services.tournament_settings_set(actor=director, tournament=tournament, ofc_royalties="vegas")
    with pytest.raises(ApplicationError, match="from 1 to 1000, not 0"):
        services.tournament_settings_set(actor=director, tournament=tournament, ofc_hands_per_round=0)
    assert everything(tournament) == before


def test_the_format_is_fixed_once_the_tournament_has_started(
    running: Callable[..., Tournament], director: User
) -> None:
    tournament = running(players=4)
    before = everything(tournament)
    with pytest.raises(WrongState, match="cannot change once"):
        services.tournament_settings_set(actor=director, tournament=tournament, format="heads_up")
    assert everything(tournament) == before


def test_the_console_shows_the_format_settings_and_saves_them(
    make_tournament: Callable[..., Tournament], director: User, client: Client
) -> None:
    tournament = make_tournament()
    client.force_login(director)
    page = client.get(f"/poker-room/{tournament.pk}/").content.decode()
    assert 'id="set-format"' in page and 'id="set-ofc_royalties"' in page
    form: dict[str, Any] = {
        "form_key": "k-format-1",
        "format": "heads_up",
        "heads_up_mode": "knockout",
        "groups_up_to": "16",
        "group_size": "4",
        "seeding": "seeded",
        "ofc_rounds": "3",
        "ofc_hands_per_round": "15",
        "ofc_royalties": "mainz",
    }
    response = client.post(f"/poker-room/{tournament.pk}/settings/format/", form)
    assert response.status_code == 302
    saved = fresh(tournament)
    assert (saved.format, saved.heads_up_mode, saved.seeding) == ("heads_up", "knockout", "seeded")
    bad = client.post(f"/poker-room/{tournament.pk}/settings/format/", {**form, "form_key": "k2", "format": "x"})
    assert bad.status_code == 400
    assert fresh(tournament).format == "heads_up"


def test_a_heads_up_event_starts_without_a_seat_draw_or_clock_and_takes_nobody_late(director: User) -> None:
    tournament = services.tournament_create(
        actor=director, template_key="msop_heads_up", buy_in_cents=2000, fee_cents=500, tables=2
    )
    for name in ("Anna", "Ben", "Cem", "Dora", "Emil", "Fritz"):  # six players, four seats: the bracket seats them
        services.entry_register(actor=director, tournament=tournament, name=name, now=T0)
    started = services.tournament_start(actor=director, tournament=tournament, now=T0)
    assert started.status == Tournament.Status.RUNNING
    assert started.clock_status == Tournament.ClockStatus.NOT_STARTED
    assert not started.entries.filter(table_number__isnull=False).exists()
    before = everything(started)
    with pytest.raises(WrongState, match="Registration closed at the start"):
        services.entry_register(actor=director, tournament=started, name="Late Larry", now=T0)
    assert everything(started) == before


def test_an_open_face_points_event_has_no_bounty(director: User, make_tournament: Callable[..., Tournament]) -> None:
    with pytest.raises(ApplicationError, match="knocks nobody out"):
        services.tournament_create(
            actor=director,
            template_key="zocktoberfest",
            buy_in_cents=2000,
            fee_cents=0,
            bounty_cents=500,
            format="ofc_points",
        )
    assert not Tournament.objects.exists()
    tournament = make_tournament(format="ofc_points")
    before = everything(tournament)
    with pytest.raises(ApplicationError, match="knocks nobody out"):
        services.tournament_settings_set(actor=director, tournament=tournament, bounty_kind="fixed", bounty_cents=500)
    assert everything(tournament) == before


def test_a_bust_or_its_undo_is_refused_where_matches_or_standings_place_the_players(director: User) -> None:
    tournament = services.tournament_create(
        actor=director, template_key="msop_turbo", buy_in_cents=2000, fee_cents=0, format="ofc_points"
    )
    for name in ("Anna", "Ben", "Cem", "Dora"):
        services.entry_register(actor=director, tournament=tournament, name=name, now=T0)
    started = services.tournament_start(actor=director, tournament=tournament, now=T0)
    before = everything(started)
    with pytest.raises(WrongState, match="places everyone by the standings"):
        entry_eliminate(actor=director, tournament=started, entry=entry(started, 1), now=T0)
    assert everything(started) == before


def test_a_finished_events_bust_stands_once_its_leagues_master_class_is_invited(
    running: Callable[..., Tournament], director: User
) -> None:
    tournament = running(players=3)
    for number in (3, 2):
        entry_eliminate(actor=director, tournament=tournament, entry=entry(tournament, number), now=T0)
    league = leagues.league_create(actor=director, name="Mainz League", season="2026")
    leagues.league_event_add(actor=director, league=league, tournament_id=tournament.pk)
    leagues.master_class_invite(actor=director, league=league)
    runner_up = fresh(tournament).eliminations.get(place=2)
    before = everything(tournament)
    with pytest.raises(WrongState, match="whose Master Class is invited on its results"):
        elimination_undo(actor=director, tournament=tournament, elimination=runner_up, reason="wrong player")
    assert everything(tournament) == before


def test_a_drawn_brackets_structure_keeps_its_levels_in_hands(director: User) -> None:
    tournament = services.tournament_create(
        actor=director, template_key="msop_heads_up", buy_in_cents=2000, fee_cents=500, tables=2
    )
    for name in ("Anna", "Ben", "Cem", "Dora"):
        services.entry_register(actor=director, tournament=tournament, name=name, now=T0)
    services.tournament_start(actor=director, tournament=tournament, now=T0)
    minutes = [{"kind": "level", "minutes": 10, "small_blind": 25, "big_blind": 50}]
    heads_up.bracket_draw(actor=director, tournament=tournament, rng=random.Random(2))
    before = everything(tournament)
    with pytest.raises(ApplicationError, match="every level lasts a number of hands"):
        services.tournament_structure_set(actor=director, tournament=tournament, levels=minutes)
    assert everything(tournament) == before
