"""Leagues (``poker_room.leagues``): a league's settings, its events, the standings from finished events, and the
Master Class with each invited player's points as their stack; a Master Class whose stacks would not fit, events
taken out, a tournament in two leagues, a card holder and a walk-in of the same name; who may, and refusals that
write nothing.

Tina directs; Alex audits (reads only); Dana deals."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest

from casino.errors import ApplicationError, NotAllowed, WrongState
from casino.events import AuditEventType
from casino.models import AuditEvent
from casino.roles import Role
from players.models import Player
from poker_room.leagues import services as leagues
from poker_room.leagues.models import League, LeagueEvent
from poker_room.leagues.selectors import league_standings, standings_payload
from poker_room.pure.league_points import Result, master_class_chips, points
from poker_room.tournaments import services
from poker_room.tournaments.models import Elimination, Entry, Purchase, Tournament
from tests.poker_room.leagues.play import play
from tests.poker_room.tournament_setup import T0

pytestmark = pytest.mark.django_db


def _points(players: int, place: int) -> Decimal:
    return points(Result(players, place), formula="sqrt_place")


def test_the_standings_add_each_finished_event_and_count_the_best_n(director, make_tournament, league):
    one = play(director, make_tournament, ["Anna", "Ben", "Cem", "Dora"])
    two = play(director, make_tournament, ["Ben", "anna ", "Cem", "Dora", "Emil", "Fritz"])
    three = play(director, make_tournament, ["Cem", "Dora", "Anna"])
    planned = make_tournament()
    for event in (one, two, three, planned):
        leagues.league_event_add(actor=director, league=league, tournament_id=event.pk)
    leagues.league_update(actor=director, league=league, best_of=2)
    found = league_standings(League.objects.get(pk=league.pk))
    assert [event.finished for event in found.events] == [True, True, True, False]
    anna = next(line for line in found.lines if line.name == "Anna")
    # "anna " in event 2 is Anna: 1st of 4, 2nd of 6, 3rd of 3; the best two count.
    assert [cell.place for cell in anna.cells] == [1, 2, 3, None]
    assert anna.total == _points(4, 1) + _points(6, 2)
    assert [cell.state for cell in anna.cells] == ["counted", "counted", "dropped", ""]
    assert found.lines[0].rank == 1
    assert [line.total for line in found.lines] == sorted((line.total for line in found.lines), reverse=True)
    payload = standings_payload(found)
    assert payload["lines"][0]["points"] == str(found.lines[0].total)


def test_a_reentered_player_scores_their_best_place_and_n_counts_the_reentries(director, make_tournament, league):
    event = play(director, make_tournament, ["Anna", "Ben", "Cem", "Dora"], reenter="Ben")
    leagues.league_event_add(actor=director, league=league, tournament_id=event.pk)
    found = league_standings(league)
    assert found.events[0].players == 5
    ben = next(line for line in found.lines if line.name == "Ben")
    assert ben.cells[0].place == 2 and ben.total == _points(5, 2)


def test_a_player_of_the_players_app_is_one_player_whatever_the_name(director, make_tournament, league):
    anna = Player.objects.create(name="Anna Schmidt", tier="gold", created_by=director)
    one = play(director, make_tournament, ["Anna S.", "Ben", "Cem"], players={"Anna S.": anna})
    two = play(director, make_tournament, ["Ben", "Anna Schmidt", "Cem"], players={"Anna Schmidt": anna})
    for event in (one, two):
        leagues.league_event_add(actor=director, league=league, tournament_id=event.pk)
    found = league_standings(league)
    line = next(line for line in found.lines if line.player_id == anna.pk)
    assert line.events == 2 and line.total == _points(3, 1) + _points(3, 2)


def test_a_card_holder_and_a_walk_in_of_the_same_name_are_two_players_and_both_invited(
    director, make_tournament
) -> None:
    anna = Player.objects.create(name="Anna", tier="gold", created_by=director)
    league = leagues.league_create(actor=director, name="Mainz League", season="2026", master_class_size=4)
    one = play(director, make_tournament, ["Anna", "Ben", "Cem"], players={"Anna": anna})
    two = play(director, make_tournament, ["Anna", "Ben", "Cem"])  # "Anna" typed: no card
    for event in (one, two):
        leagues.league_event_add(actor=director, league=league, tournament_id=event.pk)
    found = league_standings(league)
    annas = [line for line in found.lines if line.name == "Anna"]
    assert sorted((line.player_id is None, line.events) for line in annas) == [(False, 1), (True, 1)]
    master = leagues.master_class_invite(actor=director, league=league)
    assert sorted(
        (entry.name, entry.player_id is None) for entry in Entry.objects.filter(tournament=master, name="Anna")
    ) == [("Anna", False), ("Anna", True)]


def test_the_pokerstars_formula_uses_the_buy_in_without_the_fee(director, make_tournament):
    league = leagues.league_create(actor=director, name="Stars", season="2026", formula="pokerstars")
    event = play(director, make_tournament, ["Anna", "Ben", "Cem"], buy_in_cents=2_000)
    leagues.league_event_add(actor=director, league=league, tournament_id=event.pk)
    found = league_standings(league)
    assert found.lines[0].total == points(Result(3, 1, Decimal(20)), formula="pokerstars")
    assert [line.total for line in found.lines[1:]] == [Decimal(0), Decimal(0)]  # outside the top 15 %


def test_an_expression_sees_the_prize_pool_and_the_prize(director, make_tournament):
    league = leagues.league_create(
        actor=director, name="Money", season="2026", formula="expression", expression="prize_pool / 10 + prize / 10"
    )
    event = play(director, make_tournament, ["Anna", "Ben", "Cem", "Dora"])
    leagues.league_event_add(actor=director, league=league, tournament_id=event.pk)
    found = league_standings(league)
    # a pool of 4 × 90.00 = 360.00, paid 50/30/20 (the house's payouts for 1-10 players): 180, 108, 72.
    by_name = {line.name: line.total for line in found.lines}
    assert by_name == {"Anna": Decimal("54.00"), "Ben": Decimal("46.80"), "Cem": Decimal("43.20"), "Dora": Decimal(36)}


def test_an_expression_that_fails_for_a_real_field_shows_why_and_invites_nobody(director, make_tournament):
    # The check at saving tries fields of 2, 10 and 100: a field of 5 divides by zero only when it happens.
    league = leagues.league_create(
        actor=director, name="L", season="2026", formula="expression", expression="100 / abs(players - 5)"
    )
    event = play(director, make_tournament, ["Anna", "Ben", "Cem", "Dora", "Emil"])
    leagues.league_event_add(actor=director, league=league, tournament_id=event.pk)
    found = league_standings(league)
    # Where: the event, the place and the field (the first result scored is the winner's).
    assert found.error == f"{event.name}, 1st of 5: The formula divides by zero" and found.lines == ()
    with pytest.raises(WrongState, match="divides by zero"):
        leagues.master_class_invite(actor=director, league=league)
    assert League.objects.get(pk=league.pk).master_class is None


def test_the_master_class_registers_the_top_with_their_points_as_chips(director, make_tournament):
    league = leagues.league_create(
        actor=director,
        name="Mainz League",
        season="2026",
        formula="table",
        points_table=[21, 17, 14, 12, 10, 8, 6, 4, 2],
        master_class_size=3,
        chips_per_point=100,
        chip_rounding="down",
        tie_breaks=["wins", "best_finish"],
    )
    one = play(director, make_tournament, ["Anna", "Ben", "Cem", "Dora", "Emil"])
    two = play(director, make_tournament, ["Ben", "Anna", "Dora", "Cem", "Emil"])
    for event in (one, two):
        leagues.league_event_add(actor=director, league=league, tournament_id=event.pk)
    # Anna 21+17, Ben 17+21 (equal: 1 win each, best 1st each: they share 1st), Cem 14+12, Dora 12+14 (equal:
    # no wins, best finish 3rd both: they share 3rd and both are invited: the field grows to 4), Emil 10+10.
    master = leagues.master_class_invite(actor=director, league=league)
    assert master.template_key == "master_class" and master.buy_in_cents == 0
    entries = {entry.name: entry.chips for entry in Entry.objects.filter(tournament=master)}
    assert entries == {"Anna": 3800, "Ben": 3800, "Cem": 2600, "Dora": 2600}
    assert {p.chips for p in Purchase.objects.filter(tournament=master)} == {3800, 2600}
    assert League.objects.get(pk=league.pk).master_class_id == master.pk
    audit = AuditEvent.objects.filter(event_type=AuditEventType.LEAGUE_MASTER_CLASS).get()
    assert [row["chips"] for row in audit.after["invitations"]] == [3800, 3800, 2600, 2600]
    with pytest.raises(WrongState, match="already"):
        leagues.master_class_invite(actor=director, league=league)
    with pytest.raises(WrongState, match="final"):
        leagues.league_update(actor=director, league=league, best_of=1)
    leagues.league_update(actor=director, league=league, name="Mainz League (closed)")
    with pytest.raises(WrongState, match="season"):
        leagues.league_event_add(actor=director, league=league, tournament_id=make_tournament().pk)


def test_the_master_class_stacks_are_the_converted_points(director, make_tournament):
    league = leagues.league_create(
        actor=director, name="L", season="2026", master_class_size=2, chips_per_point=100, chip_rounding="nearest"
    )
    event = play(director, make_tournament, ["Anna", "Ben", "Cem"])
    leagues.league_event_add(actor=director, league=league, tournament_id=event.pk)
    master = leagues.master_class_invite(actor=director, league=league, buy_in_cents=0)
    stacks = dict(Entry.objects.filter(tournament=master).values_list("name", "chips"))
    expected = {
        name: master_class_chips(_points(3, place), chips_per_point=100, smallest_chip=25, rounding="nearest")
        for name, place in (("Anna", 1), ("Ben", 2))
    }
    assert stacks == expected == {"Anna": 1725, "Ben": 1225}  # 17.32 and 12.25 points


def test_a_stack_beyond_a_billion_chips_is_refused_in_the_league_s_words(director, make_tournament) -> None:
    league = leagues.league_create(
        actor=director,
        name="High Roller League",
        season="2026",
        formula="table",
        points_table=[1_000_000, 500_000],
        chips_per_point=100_000,
    )
    event = play(director, make_tournament, ["Anna", "Ben", "Cem"])
    leagues.league_event_add(actor=director, league=league, tournament_id=event.pk)
    tournaments = Tournament.objects.count()
    with pytest.raises(Exception, match=r"Anna's 1000000(\.00)? points at 100000 chips a point make a stack of more"):
        leagues.master_class_invite(actor=director, league=league)
    assert Tournament.objects.count() == tournaments and League.objects.get(pk=league.pk).master_class is None


def test_the_master_class_waits_for_the_season_to_end(director, make_tournament, league):
    event = play(director, make_tournament, ["Anna", "Ben", "Cem"])
    leagues.league_event_add(actor=director, league=league, tournament_id=event.pk)
    running = make_tournament(name="Event 2")
    leagues.league_event_add(actor=director, league=league, tournament_id=running.pk)
    before = Tournament.objects.count(), AuditEvent.objects.count()
    with pytest.raises(WrongState, match="not over"):
        leagues.master_class_invite(actor=director, league=league)
    assert (Tournament.objects.count(), AuditEvent.objects.count()) == before
    leagues.league_event_remove(actor=director, league=league, tournament_id=running.pk)
    assert LeagueEvent.objects.get(tournament=running).removed_at is not None
    leagues.master_class_invite(actor=director, league=league)


def test_an_empty_league_invites_nobody(director, league):
    with pytest.raises(WrongState, match="no finished event"):
        leagues.master_class_invite(actor=director, league=league)


def test_a_master_class_is_never_an_event(director, make_tournament, league):
    event = play(director, make_tournament, ["Anna", "Ben", "Cem"])
    leagues.league_event_add(actor=director, league=league, tournament_id=event.pk)
    master = leagues.master_class_invite(actor=director, league=league)
    other = leagues.league_create(actor=director, name="Other", season="2027")
    with pytest.raises(WrongState, match="Master Class"):
        leagues.league_event_add(actor=director, league=other, tournament_id=master.pk)


def test_after_the_master_class_the_standings_show_who_was_invited_and_with_what(director, make_tournament) -> None:
    league = leagues.league_create(
        actor=director, name="Mainz League", season="2026", master_class_size=2, chips_per_point=100
    )
    one = play(director, make_tournament, ["Anna", "Ben", "Cem", "Dora"])
    two = play(director, make_tournament, ["Ben", "Anna", "Dora", "Cem"])
    for event in (one, two):
        leagues.league_event_add(actor=director, league=league, tournament_id=event.pk)
    master = leagues.master_class_invite(actor=director, league=league)
    given = {entry.name: entry.chips for entry in Entry.objects.filter(tournament=master)}
    assert set(given) == {"Anna", "Ben"}
    # A mistaken bust in the second event found after the invitation: the results the Master Class was invited on
    # stand (eliminations.bust_undo refuses it). Who was invited, and with what stack, stays as it was done.
    runner_up = Elimination.objects.get(tournament=two, place=2, status="in_force")
    with pytest.raises(WrongState, match="whose Master Class is invited"):
        services.elimination_undo(actor=director, tournament=two, elimination=runner_up, reason="Wrong player")
    found = league_standings(League.objects.get(pk=league.pk))
    assert [event.finished for event in found.events] == [True, True]
    assert {line.name: line.chips for line in found.lines if line.invited} == given
    assert all(line.chips is None for line in found.lines if not line.invited)


def test_events_are_added_once_and_taken_out_by_marking(director, make_tournament, league):
    event = make_tournament()
    leagues.league_event_add(actor=director, league=league, tournament_id=event.pk)
    with pytest.raises(WrongState, match="already in"):
        leagues.league_event_add(actor=director, league=league, tournament_id=event.pk)
    leagues.league_event_remove(actor=director, league=league, tournament_id=event.pk)
    with pytest.raises(WrongState, match="not in"):
        leagues.league_event_remove(actor=director, league=league, tournament_id=event.pk)
    leagues.league_event_add(actor=director, league=league, tournament_id=event.pk)
    assert LeagueEvent.objects.filter(league=league).count() == 2
    with pytest.raises(ApplicationError, match="no tournament"):
        leagues.league_event_add(actor=director, league=league, tournament_id=99_999)
    types = list(AuditEvent.objects.filter(event_type__startswith="league.").values_list("event_type", flat=True))
    assert types == ["league.created", "league.event_added", "league.event_removed", "league.event_added"]


def test_an_event_taken_out_does_not_count_and_cannot_be_taken_out_after_the_master_class(
    director, make_tournament
) -> None:
    league = leagues.league_create(actor=director, name="Mainz League", season="2026")
    kept = play(director, make_tournament, ["Anna", "Ben", "Cem"])
    dropped = play(director, make_tournament, ["Dora", "Emil", "Fritz"])
    for event in (kept, dropped):
        leagues.league_event_add(actor=director, league=league, tournament_id=event.pk)
    leagues.league_event_remove(actor=director, league=league, tournament_id=dropped.pk)
    master = leagues.master_class_invite(actor=director, league=league)
    assert sorted(Entry.objects.filter(tournament=master).values_list("name", flat=True)) == ["Anna", "Ben", "Cem"]
    with pytest.raises(Exception, match="season of Mainz League is over"):
        leagues.league_event_remove(actor=director, league=league, tournament_id=kept.pk)
    assert LeagueEvent.objects.filter(league=league, removed_at__isnull=True).count() == 1


def test_a_tournament_counts_in_two_leagues(director, make_tournament) -> None:
    one = leagues.league_create(actor=director, name="Mainz League", season="2026")
    two = leagues.league_create(actor=director, name="Ladies League", season="2026", formula="table", points_table=[3])
    event = play(director, make_tournament, ["Anna", "Ben"])
    for league in (one, two):
        leagues.league_event_add(actor=director, league=league, tournament_id=event.pk)
    assert league_standings(one).lines[0].total == points(Result(2, 1), formula="sqrt_place")
    assert league_standings(two).lines[0].total == Decimal(3)


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"name": ""}, "name"),
        ({"season": "x" * 41}, "season"),
        ({"formula": "golf"}, "formula"),
        ({"formula": "expression"}, "expression"),
        ({"formula": "expression", "expression": "__import__('os')"}, "expression"),
        ({"formula": "expression", "expression": "place - 3"}, "expression"),
        ({"formula": "table"}, "points_table"),
        ({"formula": "table", "points_table": [5, 10]}, "points_table"),
        ({"formula": "table", "points_table": "21,17"}, "points_table"),
        ({"best_of": -1}, "best_of"),
        ({"tie_breaks": ["luck"]}, "tie_breaks"),
        ({"master_class_size": 1}, "master_class_size"),
        ({"chips_per_point": 0}, "chips_per_point"),
        ({"chip_rounding": "sideways"}, "chip_rounding"),
    ],
)
def test_bad_settings_are_refused_naming_the_field_and_write_nothing(director, fields, field):
    before = League.objects.count(), AuditEvent.objects.count()
    with pytest.raises(ApplicationError) as refused:
        leagues.league_create(actor=director, **{"name": "L", "season": "2026", **fields})
    assert refused.value.extra["field"] == field
    assert (League.objects.count(), AuditEvent.objects.count()) == before


def test_an_update_is_audited_with_what_changed(director, league):
    leagues.league_update(actor=director, league=league, formula="expression", expression="100 / place")
    event = AuditEvent.objects.filter(event_type=AuditEventType.LEAGUE_UPDATED).get()
    assert event.after["changed"] == {"formula": "expression", "expression": "100 / place"}
    assert event.after["before"] == {"formula": "sqrt_place", "expression": ""}
    with pytest.raises(ApplicationError, match="not a league setting"):
        leagues.league_update(actor=director, league=league, created_by=1)


@pytest.mark.parametrize("role", [Role.AUDITOR, Role.DEALER, None])
def test_only_who_runs_tournaments_may_change_a_league(make_user, director, league, role):
    someone = make_user("someone", *([role] if role else []))
    calls: list[Callable[[], Any]] = [
        lambda: leagues.league_create(actor=someone, name="X", season="2026"),
        lambda: leagues.league_update(actor=someone, league=league, best_of=3),
        lambda: leagues.league_event_add(actor=someone, league=league, tournament_id=1),
        lambda: leagues.master_class_invite(actor=someone, league=league),
    ]
    before = AuditEvent.objects.count()
    for call in calls:
        with pytest.raises(NotAllowed):
            call()
    assert AuditEvent.objects.count() == before


def test_a_stack_given_at_registration_is_the_entry_s_and_its_purchase_s(director, make_tournament):
    tournament = make_tournament()
    entry = services.entry_register(actor=director, tournament=tournament, name="Anna", chips=4_250, now=T0)
    assert entry.chips == 4_250 and Purchase.objects.get(entry=entry).chips == 4_250
    with pytest.raises(ApplicationError, match="stack"):
        services.entry_register(actor=director, tournament=tournament, name="Ben", chips=0, now=T0)
