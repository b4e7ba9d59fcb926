"""The tournament clock, stored as the instant the level ends: nothing drifts, a pause or a restart changes nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from poker_room.pure.clock import (
    ClockError,
    ClockState,
    ClockStatus,
    LevelSpan,
    clock_adjust,
    clock_at,
    clock_hand,
    clock_initial,
    clock_pause,
    clock_resume,
    clock_settle,
    clock_skip,
    clock_start,
)

T = datetime(2025, 10, 18, 18, 0, tzinfo=UTC)  # Zocktoberfest shuffles up at 18:00


def minutes(m: float) -> timedelta:
    return timedelta(minutes=m)


def timed(mins: int, *, is_break: bool = False) -> LevelSpan:
    return LevelSpan(seconds=mins * 60, hands=None, is_break=is_break)


def hands(n: int) -> LevelSpan:
    return LevelSpan(seconds=None, hands=n)


MS_PER_MIN = 60_000
TWENTIES = [timed(20)] * 5  # the Main Event's 20-minute levels


# --- start, read, pause, resume -------------------------------------------------------------------------------


def test_a_started_clock_ends_the_first_level_one_level_length_later() -> None:
    state = clock_start(TWENTIES, T)
    assert state == ClockState(ClockStatus.RUNNING, 0, T + minutes(20), None)
    view = clock_at(state, TWENTIES, T + minutes(5))
    assert (view.level, view.status, view.remaining_ms, view.ends_at) == (
        0,
        ClockStatus.RUNNING,
        15 * MS_PER_MIN,
        T + minutes(20),
    )
    assert view.next_level == 1 and not view.overtime and view.hands_left is None


def test_a_clock_not_started_shows_the_first_level_in_full() -> None:
    view = clock_at(clock_initial(TWENTIES), TWENTIES, T + minutes(90))
    assert (view.status, view.level, view.remaining_ms, view.ends_at) == (
        ClockStatus.NOT_STARTED,
        0,
        20 * MS_PER_MIN,
        None,
    )


def test_a_clock_starts_once() -> None:
    running = clock_start(TWENTIES, T)
    with pytest.raises(ClockError, match="The clock is already running."):
        clock_start(TWENTIES, T, state=running)
    with pytest.raises(ClockError, match="paused: resume it"):
        clock_start(TWENTIES, T, state=clock_pause(running, TWENTIES, T + minutes(1)))


def test_the_director_may_set_the_first_level_before_the_start() -> None:
    ready = clock_skip(clock_initial(TWENTIES), TWENTIES, T, 2)
    assert ready == ClockState(ClockStatus.NOT_STARTED, 2, None, 20 * MS_PER_MIN)
    assert clock_start(TWENTIES, T, state=ready) == ClockState(ClockStatus.RUNNING, 2, T + minutes(20), None)


def test_a_pause_keeps_the_end_instant_once_resumed() -> None:
    state = clock_start(TWENTIES, T)
    paused = clock_pause(state, TWENTIES, T + minutes(5))
    assert paused == ClockState(ClockStatus.PAUSED, 0, None, 15 * MS_PER_MIN)
    # Paused, the time left does not move however long the pause or however late the read.
    assert clock_at(paused, TWENTIES, T + minutes(300)).remaining_ms == 15 * MS_PER_MIN
    assert clock_resume(paused, TWENTIES, T + minutes(5)).ends_at == T + minutes(20)  # a pause of no time: same end
    assert clock_resume(paused, TWENTIES, T + minutes(12)).ends_at == T + minutes(27)  # a 7-minute pause: 7 later


def test_a_pause_after_the_level_ended_keeps_the_level_the_clock_is_in_now() -> None:
    state = clock_start(TWENTIES, T)
    paused = clock_pause(state, TWENTIES, T + minutes(25))  # level 2 runs since 18:20
    assert paused == ClockState(ClockStatus.PAUSED, 1, None, 15 * MS_PER_MIN)
    resumed = clock_resume(paused, TWENTIES, T + minutes(60))
    assert resumed.ends_at == T + minutes(75)
    view = clock_at(resumed, TWENTIES, T + minutes(76))
    assert (view.level, view.remaining_ms) == (2, 19 * MS_PER_MIN)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda s: clock_pause(clock_initial(TWENTIES), TWENTIES, T), "The clock has not started yet."),
        (lambda s: clock_pause(clock_pause(s, TWENTIES, T), TWENTIES, T), "The clock is already paused."),
        (lambda s: clock_resume(s, TWENTIES, T), "The clock is already running."),
        (lambda s: clock_resume(clock_initial(TWENTIES), TWENTIES, T), "has not started yet: start it"),
    ],
)
def test_a_pause_or_resume_out_of_turn_is_refused(change: object, message: str) -> None:
    with pytest.raises(ClockError, match=message):
        change(clock_start(TWENTIES, T))  # type: ignore[operator]


# --- rolling over, without drift ------------------------------------------------------------------------------


def test_a_read_three_levels_late_rolls_exactly_with_no_drift() -> None:
    spans = [timed(20), timed(15), timed(10), timed(20), timed(20)]
    state = clock_start(spans, T)
    late = T + minutes(20 + 15 + 10 + 3) + timedelta(milliseconds=123)
    view = clock_at(state, spans, late)
    assert view.level == 3
    assert view.remaining_ms == 17 * MS_PER_MIN - 123
    assert view.ends_at == T + minutes(65)  # the sum of the lengths, to the millisecond
    assert clock_settle(state, spans, late) == ClockState(ClockStatus.RUNNING, 3, T + minutes(65), None)


def test_a_level_begins_at_the_very_instant_the_last_one_ends() -> None:
    state = clock_start(TWENTIES, T)
    assert clock_at(state, TWENTIES, T + minutes(20) - timedelta(milliseconds=1)).level == 0
    assert clock_at(state, TWENTIES, T + minutes(20)).level == 1


def test_a_restart_reading_the_stored_state_sees_the_same_clock() -> None:
    state = clock_start(TWENTIES, T)
    stored = clock_settle(state, TWENTIES, T + minutes(31))  # written on the last change before the restart
    for later in (minutes(31), minutes(44), minutes(77)):
        assert clock_at(stored, TWENTIES, T + later) == clock_at(state, TWENTIES, T + later)


def test_the_clock_stops_rolling_at_a_hands_counted_level() -> None:
    spans = [timed(1), hands(7), timed(1)]
    state = clock_settle(clock_start(spans, T), spans, T + minutes(30))
    assert state == ClockState(ClockStatus.RUNNING, 1, None, None, 0)
    view = clock_at(state, spans, T + minutes(30))
    assert (view.remaining_ms, view.ends_at, view.hands_left) == (None, None, 7)


def test_past_the_last_level_the_clock_stays_on_it_at_zero() -> None:
    spans = [timed(20), timed(20)]
    view = clock_at(clock_start(spans, T), spans, T + minutes(100))
    assert (view.level, view.remaining_ms, view.overtime, view.next_level) == (1, 0, True, None)
    paused = clock_pause(clock_start(spans, T), spans, T + minutes(100))
    assert paused.remaining_ms == 0 and clock_at(paused, spans, T + minutes(200)).overtime


@settings(max_examples=200, deadline=None)
@given(
    lengths=st.lists(st.integers(1, 3_600), min_size=1, max_size=12),
    reads=st.lists(st.integers(0, 50_000_000), max_size=6),
    final=st.integers(0, 50_000_000),
)
def test_settling_at_any_reads_in_between_never_changes_what_a_later_read_shows(
    lengths: list[int], reads: list[int], final: int
) -> None:
    spans = [LevelSpan(seconds=s, hands=None) for s in lengths]
    state = clock_start(spans, T)
    direct = clock_at(state, spans, T + timedelta(milliseconds=final))
    for ms in sorted(m for m in reads if m <= final):
        state = clock_settle(state, spans, T + timedelta(milliseconds=ms))
    assert clock_at(state, spans, T + timedelta(milliseconds=final)) == direct
    ends = [sum(lengths[: i + 1]) * 1000 for i in range(len(lengths))]
    expected_level = next((i for i, end in enumerate(ends) if final < end), len(lengths) - 1)
    assert direct.level == expected_level
    assert direct.remaining_ms == max(0, ends[expected_level] - final)


# --- skipping, adding and removing time -----------------------------------------------------------------------


def test_skipping_forward_and_back_starts_the_level_in_full_and_keeps_the_status() -> None:
    running = clock_start(TWENTIES, T)
    forward = clock_skip(running, TWENTIES, T + minutes(5), 1)
    assert forward == ClockState(ClockStatus.RUNNING, 1, T + minutes(25), None)
    back = clock_skip(forward, TWENTIES, T + minutes(6), -1)
    assert back == ClockState(ClockStatus.RUNNING, 0, T + minutes(26), None)
    paused = clock_pause(running, TWENTIES, T + minutes(3))
    assert clock_skip(paused, TWENTIES, T + minutes(9), 2) == ClockState(ClockStatus.PAUSED, 2, None, 20 * MS_PER_MIN)


def test_skipping_counts_from_the_level_the_clock_is_in_now() -> None:
    state = clock_start(TWENTIES, T)
    assert clock_skip(state, TWENTIES, T + minutes(45), 1).level == 3  # level 3 (index 2) runs at 18:45


@pytest.mark.parametrize(
    ("at", "by", "message"),
    [
        (0, -1, "There is no level before the first."),
        (30, -2, "There are not 2 levels before this one to skip back."),
        (90, 1, "There is no level after the last."),
        (30, 4, "There are not 4 levels after this one to skip forward."),
        (30, 0, "Skip at least one level, forward or back."),
    ],
)
def test_skipping_before_the_first_or_past_the_last_level_is_refused(at: int, by: int, message: str) -> None:
    with pytest.raises(ClockError, match=message):
        clock_skip(clock_start(TWENTIES, T), TWENTIES, T + minutes(at), by)


@pytest.mark.parametrize(
    ("delta_ms", "ends_at"),
    [
        (60_000, T + minutes(21)),  # a minute more
        (-5 * MS_PER_MIN, T + minutes(15)),  # five minutes less
        (-(18 * MS_PER_MIN - 1_000), T + minutes(2) + timedelta(seconds=1)),  # down to one second: allowed
        (62 * MS_PER_MIN, T + minutes(82)),  # up to the length plus an hour (80 minutes left): allowed
    ],
)
def test_time_added_or_removed_moves_the_end_instant(delta_ms: int, ends_at: datetime) -> None:
    state = clock_start(TWENTIES, T)
    assert clock_adjust(state, TWENTIES, T + minutes(2), delta_ms) == ClockState(ClockStatus.RUNNING, 0, ends_at, None)


def test_time_added_to_a_paused_clock_adds_to_what_is_left() -> None:
    paused = clock_pause(clock_start(TWENTIES, T), TWENTIES, T + minutes(5))
    assert clock_adjust(paused, TWENTIES, T + minutes(8), 30_000).remaining_ms == 15 * MS_PER_MIN + 30_000


@pytest.mark.parametrize(
    ("delta_ms", "message"),
    [
        (-18 * MS_PER_MIN, r"Removing 18:00 leaves less than a second of this level \(18:00 left\)"),
        (-(18 * MS_PER_MIN - 999), "leaves less than a second"),
        (62 * MS_PER_MIN + 1, r"A level of 20:00 can show at most 1:20:00: adding 1:02:00 to 18:00 is too much."),
        (0, "Add or remove some time"),
    ],
)
def test_time_beyond_the_limits_is_refused(delta_ms: int, message: str) -> None:
    with pytest.raises(ClockError, match=message):
        clock_adjust(clock_start(TWENTIES, T), TWENTIES, T + minutes(2), delta_ms)


def test_time_added_in_overtime_gives_the_last_level_more_time() -> None:
    spans = [timed(20)]
    state = clock_adjust(clock_start(spans, T), spans, T + minutes(30), 5 * MS_PER_MIN)
    assert state.ends_at == T + minutes(35)
    assert not clock_at(state, spans, T + minutes(31)).overtime


# --- hands-counted levels -------------------------------------------------------------------------------------

HEADS_UP = [hands(7), hands(7), hands(7)]  # MSOP Heads Up: blinds up every 7th hand


def test_a_heads_up_level_rises_on_the_seventh_hand() -> None:
    state = clock_start(HEADS_UP, T)
    for hand in range(1, 7):
        state = clock_hand(state, HEADS_UP, T + minutes(hand))
        assert (state.level, clock_at(state, HEADS_UP, T + minutes(hand)).hands_left) == (0, 7 - hand)
    state = clock_hand(state, HEADS_UP, T + minutes(7))
    assert state == ClockState(ClockStatus.RUNNING, 1, None, None, 0)
    view = clock_at(state, HEADS_UP, T + minutes(7))
    assert (view.level, view.hands_left, view.remaining_ms, view.next_level) == (1, 7, None, 2)


def test_on_the_last_hands_level_the_hands_keep_counting_into_overtime() -> None:
    state = clock_skip(clock_start(HEADS_UP, T), HEADS_UP, T, 2)
    for hand in range(9):
        state = clock_hand(state, HEADS_UP, T + minutes(hand))
    view = clock_at(state, HEADS_UP, T + minutes(10))
    assert (view.level, state.hands_played, view.hands_left, view.overtime) == (2, 9, 0, True)


def test_the_last_hand_of_a_level_starts_a_timed_level_in_full() -> None:
    spans = [hands(2), timed(15)]
    state = clock_hand(clock_hand(clock_start(spans, T), spans, T + minutes(3)), spans, T + minutes(6))
    assert state == ClockState(ClockStatus.RUNNING, 1, T + minutes(21), None)
    paused = clock_pause(clock_hand(clock_start(spans, T), spans, T), spans, T)
    assert clock_hand(paused, spans, T + minutes(4)) == ClockState(ClockStatus.PAUSED, 1, None, 15 * MS_PER_MIN)


@pytest.mark.parametrize(
    ("spans", "state", "message"),
    [
        (HEADS_UP, clock_initial(HEADS_UP), "The clock has not started: no hand counts yet."),
        (TWENTIES, clock_start(TWENTIES, T), "This level runs on time: its hands are not counted."),
    ],
)
def test_a_hand_is_counted_only_in_a_started_hands_level(
    spans: list[LevelSpan], state: ClockState, message: str
) -> None:
    with pytest.raises(ClockError, match=message):
        clock_hand(state, spans, T + minutes(1))


def test_a_hands_level_has_no_time_to_add() -> None:
    with pytest.raises(ClockError, match="This level counts hands, not time"):
        clock_adjust(clock_start(HEADS_UP, T), HEADS_UP, T, 60_000)


# --- the next break -------------------------------------------------------------------------------------------


def test_the_display_shows_the_time_to_the_next_break() -> None:
    spans = [timed(20), timed(20), timed(15, is_break=True), timed(20), timed(10, is_break=True)]
    state = clock_start(spans, T)
    view = clock_at(state, spans, T + minutes(5))
    assert (view.next_break, view.ms_to_next_break) == (2, 35 * MS_PER_MIN)  # 15 left + level 2's 20
    in_break = clock_at(state, spans, T + minutes(45))
    assert (in_break.level, in_break.next_break, in_break.ms_to_next_break) == (2, 4, 10 * MS_PER_MIN + 20 * MS_PER_MIN)
    last = clock_at(state, spans, T + minutes(90))
    assert (last.next_break, last.ms_to_next_break) == (None, None)


def test_the_time_to_a_break_behind_a_hands_level_is_unknown() -> None:
    spans = [timed(20), hands(7), timed(10, is_break=True)]
    view = clock_at(clock_start(spans, T), spans, T)
    assert (view.next_break, view.ms_to_next_break) == (2, None)


# --- bad input ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seconds", "count", "message"),
    [
        (None, None, "either a number of seconds or a number of hands"),
        (600, 7, "either a number of seconds or a number of hands"),
        (0, None, "at least 1 of its seconds"),
        (None, -1, "at least 1 of its hands"),
    ],
)
def test_a_level_lasts_a_time_or_a_number_of_hands(seconds: int | None, count: int | None, message: str) -> None:
    with pytest.raises(ClockError, match=message):
        LevelSpan(seconds=seconds, hands=count)


@pytest.mark.parametrize(
    ("state", "spans", "message"),
    [
        (ClockState(ClockStatus.RUNNING, 5, T, None), TWENTIES, "on level 6, but the structure has 5 levels"),
        (ClockState(ClockStatus.RUNNING, 0, None, 1000), TWENTIES, "needs the instant it ends"),
        (ClockState(ClockStatus.PAUSED, 0, T, None), TWENTIES, "needs the time left"),
        (ClockState(ClockStatus.RUNNING, 0, T, None), HEADS_UP, "hands-counted level has no end instant"),
        (ClockState(ClockStatus.RUNNING, 0, T, None), [], "The structure has no level."),
    ],
)
def test_a_stored_clock_that_does_not_fit_the_structure_is_refused(
    state: ClockState, spans: list[LevelSpan], message: str
) -> None:
    with pytest.raises(ClockError, match=message):
        clock_at(state, spans, T)


def test_the_clock_refuses_a_time_without_a_zone_and_works_in_utc() -> None:
    with pytest.raises(ClockError, match="aware time"):
        clock_start(TWENTIES, datetime(2025, 10, 18, 18, 0))
    berlin = timezone(timedelta(hours=2))
    state = clock_start(TWENTIES, datetime(2025, 10, 18, 20, 0, tzinfo=berlin))
    assert state.ends_at == T + minutes(20)
    assert state.ends_at is not None and state.ends_at.tzinfo is UTC
