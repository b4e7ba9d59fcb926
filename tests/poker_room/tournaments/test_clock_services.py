"""The tournament clock's services: every change locked, settled, stored, audited and published; the end instant
survives a restart; a pause keeps the time left; nothing drifts however late the clock is read."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User

from casino.errors import ApplicationError, NotAllowed, WrongState
from casino.events import AuditEventType
from casino.models import AuditEvent
from casino.roles import Role
from poker_room.display import live
from poker_room.pure.clock import ClockStatus
from poker_room.tournaments import clock_services as cs
from poker_room.tournaments.models import Tournament
from tests.caches import cache_clear

T0 = dt.datetime(2025, 10, 18, 18, 0, tzinfo=dt.UTC)  # Zocktoberfest shuffles up at 18:00

# 20-minute levels, a 15-minute break with a colour-up after level 2 (GAME_RULES.md §5, Zocktoberfest-like).
LEVELS: list[dict[str, Any]] = [
    {"kind": "level", "minutes": 20, "small_blind": 100, "big_blind": 200},
    {"kind": "level", "minutes": 20, "small_blind": 200, "big_blind": 400, "ante": 400, "ante_kind": "big_blind"},
    {"kind": "break", "minutes": 15, "colour_up": 25},
    {"kind": "level", "minutes": 20, "small_blind": 300, "big_blind": 600, "ante": 600, "ante_kind": "big_blind"},
    {"kind": "level", "minutes": 20, "small_blind": 400, "big_blind": 800, "ante": 800, "ante_kind": "big_blind"},
]
# MSOP Heads Up: the blinds go up every 7th hand.
HANDS_LEVELS: list[dict[str, Any]] = [
    {"kind": "level", "hands": 7, "small_blind": 25, "big_blind": 50},
    {"kind": "level", "hands": 7, "small_blind": 50, "big_blind": 100},
]


def at(minutes: float) -> dt.datetime:
    return T0 + dt.timedelta(minutes=minutes)


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    cache_clear()  # the versions outlive a rolled-back test database


@pytest.fixture
def director(make_user: Callable[..., User]) -> User:
    return make_user("tina_director", Role.TOURNAMENT_DIRECTOR)


@pytest.fixture
def make_tournament(director: User) -> Callable[..., Tournament]:
    def make(levels: list[dict[str, Any]] | None = None, **fields: Any) -> Tournament:
        values: dict[str, Any] = {
            "name": "Zocktoberfest",
            "games": ["nlhe"],
            "starting_stack": 10_000,
            "buy_in_cents": 5_000,
            "fee_cents": 1_000,
            "levels": LEVELS if levels is None else levels,
            "created_by": director,
        }
        values.update(fields)
        return Tournament.objects.create(**values)

    return make


def clock_events(tournament: Tournament) -> list[AuditEvent]:
    return list(
        AuditEvent.objects.filter(
            event_type=AuditEventType.TOURNAMENT_CLOCK,
            subject_type="poker_room.tournament",
            subject_id=str(tournament.pk),
        ).order_by("seq")
    )


def fresh(tournament: Tournament) -> Tournament:
    return Tournament.objects.get(pk=tournament.pk)


# --- each change, audited -----------------------------------------------------------------------------------------


def test_starting_the_clock_stores_the_instant_the_first_level_ends_audits_it_and_raises_the_version(
    director: User, make_tournament: Callable[..., Tournament]
) -> None:
    tournament = make_tournament()
    cs.clock_start(actor=director, tournament=tournament, now=T0)
    stored = fresh(tournament)
    assert stored.clock_status == ClockStatus.RUNNING
    assert stored.clock_level == 0
    assert stored.clock_ends_at == at(20)
    assert stored.clock_remaining_ms is None
    assert stored.version == 2
    [event] = clock_events(tournament)
    assert event.actor == director
    assert event.before == {
        "status": "not_started",
        "row": 1,
        "level": 1,
        "is_break": False,
        "ends_at": None,
        "remaining_ms": 1_200_000,
        "hands_played": 0,
    }
    assert event.after["action"] == "start"
    assert event.after["status"] == "running"
    assert event.after["ends_at"] == "2025-10-18T18:20:00.000+00:00"
    assert event.after["remaining_ms"] == 1_200_000


@pytest.mark.parametrize(
    ("change", "when", "detail", "row", "remaining_ms", "status"),
    [
        ("pause", 5, {}, 1, 15 * 60_000, "paused"),
        ("skip", 5, {"by": 1}, 2, 20 * 60_000, "running"),
        ("skip", 25, {"by": -1}, 1, 20 * 60_000, "running"),
        ("skip", 5, {"by": 2}, 3, 15 * 60_000, "running"),  # into the break, which lasts 15 minutes
        ("adjust", 5, {"seconds": 90}, 1, 16 * 60_000 + 30_000, "running"),
        ("adjust", 5, {"seconds": -90}, 1, 13 * 60_000 + 30_000, "running"),
    ],
)
def test_each_change_of_a_running_clock_is_stored_and_audited_with_its_action(
    director: User,
    make_tournament: Callable[..., Tournament],
    change: str,
    when: float,
    detail: dict[str, int],
    row: int,
    remaining_ms: int,
    status: str,
) -> None:
    tournament = make_tournament()
    cs.clock_start(actor=director, tournament=tournament, now=T0)
    service = getattr(cs, f"clock_{change}")
    service(actor=director, tournament=tournament, now=at(when), **detail)
    stored = fresh(tournament)
    assert stored.clock_status == status
    assert stored.clock_level == row - 1
    view = cs.clock_now(stored, at(when))
    assert view.remaining_ms == remaining_ms
    event = clock_events(tournament)[-1]
    assert {key: event.after[key] for key in ("action", *detail)} == {"action": change, **detail}
    assert event.after["row"] == row and event.after["remaining_ms"] == remaining_ms
    assert event.before["status"] == "running"
    assert stored.version == 3


def test_a_hand_counted_in_a_hands_level_rises_the_blinds_on_the_seventh_and_each_hand_is_audited(
    director: User, make_tournament: Callable[..., Tournament]
) -> None:
    tournament = make_tournament(HANDS_LEVELS, name="MSOP Heads Up")
    cs.clock_start(actor=director, tournament=tournament, now=T0)
    for hand in range(1, 8):
        cs.clock_hand(actor=director, tournament=tournament, now=at(hand))
        stored = fresh(tournament)
        assert (stored.clock_level, stored.clock_hands) == ((0, hand) if hand < 7 else (1, 0))
    view = cs.clock_now(fresh(tournament), at(8))
    assert (view.level, view.hands_left, view.remaining_ms) == (1, 7, None)
    assert [e.after["action"] for e in clock_events(tournament)] == ["start"] + ["hand"] * 7


# --- refusals: in the director's words, nothing written ----------------------------------------------------------


@pytest.mark.parametrize(
    ("setup", "change", "detail", "error", "message"),
    [
        ([], "pause", {}, WrongState, "The clock has not started yet."),
        ([], "resume", {}, WrongState, "The clock has not started yet: start it."),
        ([], "hand", {}, WrongState, "The clock has not started: no hand counts yet."),
        (["start"], "start", {}, WrongState, "The clock is already running."),
        (["start"], "resume", {}, WrongState, "The clock is already running."),
        (["start", "pause"], "pause", {}, WrongState, "The clock is already paused."),
        (["start", "pause"], "start", {}, WrongState, "The clock has started and is paused: resume it."),
        (["start"], "skip", {"by": -1}, WrongState, "There is no level before the first."),
        (["start"], "skip", {"by": 9}, WrongState, "There are not 9 levels after this one to skip forward."),
        (["start"], "skip", {"by": 0}, ApplicationError, "The number of levels to skip is a whole number other"),
        (["start"], "skip", {"by": True}, ApplicationError, "The number of levels to skip is a whole number other"),
        (["start"], "hand", {}, WrongState, "This level runs on time: its hands are not counted."),
        (["start"], "adjust", {"seconds": -1200}, WrongState, "Removing 1200 seconds leaves less than a second"),
        (["start"], "adjust", {"seconds": 3700}, WrongState, "Adding 3700 seconds makes this level more than an hour"),
        (["start"], "adjust", {"seconds": 86_401}, ApplicationError, "Add or remove at most 86400 seconds"),
        (["start"], "adjust", {"seconds": "60"}, ApplicationError, "The seconds to add or remove is a whole number"),
    ],
)
def test_a_change_the_clock_cannot_make_is_refused_in_the_directors_words_and_nothing_is_written(
    director: User,
    make_tournament: Callable[..., Tournament],
    setup: list[str],
    change: str,
    detail: dict[str, Any],
    error: type[ApplicationError],
    message: str,
) -> None:
    tournament = make_tournament()
    for step in setup:
        getattr(cs, f"clock_{step}")(actor=director, tournament=tournament, now=T0)
    before = fresh(tournament)
    events = len(clock_events(tournament))
    with pytest.raises(error) as refused:
        getattr(cs, f"clock_{change}")(actor=director, tournament=tournament, now=at(1), **detail)
    assert refused.type is error
    assert refused.value.message.startswith(message)
    after = fresh(tournament)
    assert (after.version, after.clock_status, after.clock_level, after.clock_ends_at, after.clock_remaining_ms) == (
        before.version,
        before.clock_status,
        before.clock_level,
        before.clock_ends_at,
        before.clock_remaining_ms,
    )
    assert len(clock_events(tournament)) == events


def test_adjusting_the_time_of_a_hands_counted_level_is_refused(
    director: User, make_tournament: Callable[..., Tournament]
) -> None:
    tournament = make_tournament(HANDS_LEVELS)
    cs.clock_start(actor=director, tournament=tournament, now=T0)
    with pytest.raises(WrongState, match="This level counts hands, not time"):
        cs.clock_adjust(actor=director, tournament=tournament, seconds=60, now=at(1))


def test_a_finished_tournament_or_one_without_a_structure_has_no_clock_to_change(
    director: User, make_tournament: Callable[..., Tournament]
) -> None:
    finished = make_tournament()
    Tournament.objects.filter(pk=finished.pk).update(status=Tournament.Status.FINISHED)
    with pytest.raises(WrongState, match="has finished: its clock is stopped for good"):
        cs.clock_start(actor=director, tournament=finished, now=T0)
    bare = make_tournament([])
    with pytest.raises(WrongState, match="has no structure yet: set its levels first"):
        cs.clock_start(actor=director, tournament=bare, now=T0)


@pytest.mark.parametrize("persona", ["dealer", "auditor"])
def test_only_the_director_and_the_floors_supervisors_run_the_clock(
    request: pytest.FixtureRequest, make_tournament: Callable[..., Tournament], persona: str
) -> None:
    tournament = make_tournament()
    with pytest.raises(NotAllowed, match="Only a Tournament director or Floor supervisor or Pit boss may run"):
        cs.clock_start(actor=request.getfixturevalue(persona), tournament=tournament, now=T0)
    assert fresh(tournament).clock_status == ClockStatus.NOT_STARTED


def test_a_floor_supervisor_may_pause_the_clock(
    director: User, floor_supervisor: User, make_tournament: Callable[..., Tournament]
) -> None:
    tournament = make_tournament()
    cs.clock_start(actor=director, tournament=tournament, now=T0)
    cs.clock_pause(actor=floor_supervisor, tournament=tournament, now=at(3))
    assert fresh(tournament).clock_status == ClockStatus.PAUSED
    assert clock_events(tournament)[-1].actor == floor_supervisor


# --- the instant: restarts, pauses, late reads ---------------------------------------------------------------------


def test_the_end_instant_survives_a_server_restart_to_the_millisecond(
    director: User, make_tournament: Callable[..., Tournament]
) -> None:
    tournament = make_tournament()
    started = cs.clock_start(actor=director, tournament=tournament, now=T0 + dt.timedelta(milliseconds=123))
    now = T0 + dt.timedelta(minutes=7, seconds=13, milliseconds=457)
    before_restart = cs.clock_now(started, now)
    # A restart: nothing in memory survives, neither the instance nor the cache.
    cache_clear()
    restarted = fresh(tournament)
    after_restart = cs.clock_now(restarted, now)
    assert after_restart == before_restart
    assert after_restart.remaining_ms == 20 * 60_000 - (7 * 60_000 + 13_457) + 123
    assert restarted.clock_ends_at == T0 + dt.timedelta(minutes=20, milliseconds=123)
    assert live.tournament_version(tournament.pk) == restarted.version


def test_a_pause_then_a_resume_keeps_the_time_left_however_long_the_pause(
    director: User, make_tournament: Callable[..., Tournament]
) -> None:
    tournament = make_tournament()
    cs.clock_start(actor=director, tournament=tournament, now=T0)
    pause = T0 + dt.timedelta(minutes=12, seconds=34, milliseconds=567)
    cs.clock_pause(actor=director, tournament=tournament, now=pause)
    left = 20 * 60_000 - (12 * 60_000 + 34_567)
    assert fresh(tournament).clock_remaining_ms == left
    assert cs.clock_now(fresh(tournament), pause + dt.timedelta(hours=2)).remaining_ms == left  # a paused clock waits
    resume = pause + dt.timedelta(minutes=47, milliseconds=1)
    cs.clock_resume(actor=director, tournament=tournament, now=resume)
    stored = fresh(tournament)
    assert stored.clock_ends_at == resume + dt.timedelta(milliseconds=left)
    assert cs.clock_now(stored, resume).remaining_ms == left
    assert cs.clock_now(stored, resume + dt.timedelta(seconds=1)).remaining_ms == left - 1000


def test_nothing_drifts_over_a_three_level_late_read_and_the_next_write_stores_the_level_time_reached(
    director: User, make_tournament: Callable[..., Tournament]
) -> None:
    tournament = make_tournament()
    cs.clock_start(actor=director, tournament=tournament, now=T0)
    late = at(20 + 20 + 15 + 7.5)  # levels 1 and 2 and the break are over: level 3, 7½ minutes in
    view = cs.clock_now(fresh(tournament), late)
    assert (view.level, view.remaining_ms, view.ends_at) == (3, 12 * 60_000 + 30_000, at(75))
    assert cs.current_level_number(fresh(tournament), late) == 3
    assert cs.current_level_number(fresh(tournament), at(45)) == 2  # the break after level 2 counts as level 2
    # Nobody wrote while the levels ran out: the row still names level 1; the next write stores level 3.
    assert fresh(tournament).clock_level == 0
    cs.clock_pause(actor=director, tournament=tournament, now=late)
    stored = fresh(tournament)
    assert (stored.clock_level, stored.clock_remaining_ms) == (3, 12 * 60_000 + 30_000)
    event = clock_events(tournament)[-1]
    assert (event.before["row"], event.before["level"], event.before["remaining_ms"]) == (4, 3, 750_000)


def test_a_clock_set_before_the_start_follows_a_structure_edited_before_it(
    director: User, make_tournament: Callable[..., Tournament]
) -> None:
    tournament = make_tournament()
    Tournament.objects.filter(pk=tournament.pk).update(levels=[{**LEVELS[0], "minutes": 30}, *LEVELS[1:]])
    assert cs.clock_now(fresh(tournament), T0).remaining_ms == 30 * 60_000
    cs.clock_start(actor=director, tournament=tournament, now=T0)
    assert fresh(tournament).clock_ends_at == at(30)
