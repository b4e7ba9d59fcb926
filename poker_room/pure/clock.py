"""The tournament clock, stored as the instant the level ends (DESIGN.md "The poker room").

Nothing counts down, neither on the server nor on a screen: a running timed level is stored as the instant it
ends (aware, UTC), a paused one as the milliseconds left, and every reader works out the time left from that and
"now". Every screen therefore shows the same time, a late read or a restart changes nothing, and levels follow
each other without drift: a level's end is the previous end plus its length, however late the clock is read.

Levels run on time (the seed's events: 10 to 20 minute levels) or on hands (GAME_RULES.md §5, MSOP Heads Up:
"blinds up every 7th hand"): a hands-counted level waits for the dealer to record its hands, and the level rises
after the last of them. Past the last level's end the clock stays on the last level at zero (overtime).

Everything is in integer milliseconds; every datetime is timezone-aware.

>>> from datetime import datetime, timedelta, UTC
>>> spans = [LevelSpan(seconds=1200, hands=None), LevelSpan(seconds=1200, hands=None)]
>>> start = datetime(2025, 3, 1, 19, 0, tzinfo=UTC)
>>> state = clock_start(spans, start)
>>> state.ends_at
datetime.datetime(2025, 3, 1, 19, 20, tzinfo=datetime.timezone.utc)
>>> view = clock_at(state, spans, start + timedelta(minutes=25))
>>> view.level, view.remaining_ms
(1, 900000)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum

_MS = timedelta(milliseconds=1)
MIN_LEFT_MS = 1_000  # an adjusted level keeps at least a second: to end it, skip to the next level
MAX_EXTRA_MS = 3_600_000  # an adjusted level shows at most its full length plus an hour


class ClockError(ValueError):
    """A clock change the tournament director cannot make now, or a stored clock that does not fit the structure."""


class ClockStatus(StrEnum):
    NOT_STARTED = "not_started"
    RUNNING = "running"
    PAUSED = "paused"


@dataclass(frozen=True)
class LevelSpan:
    """How long a level lasts: ``seconds`` (a timed level) or ``hands`` (a hands-counted level), never both."""

    seconds: int | None
    hands: int | None
    is_break: bool = False

    def __post_init__(self) -> None:
        if (self.seconds is None) == (self.hands is None):
            raise ClockError("A level lasts either a number of seconds or a number of hands.")
        for name, value in (("seconds", self.seconds), ("hands", self.hands)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise ClockError(f"A level lasts at least 1 of its {name}, not {value!r}.")

    @property
    def length_ms(self) -> int | None:
        return None if self.seconds is None else self.seconds * 1000


@dataclass(frozen=True)
class ClockState:
    """What the services store: the level, and the instant it ends (running) or the time left (paused).

    A timed level running has ``ends_at`` and no ``remaining_ms``; paused or not started, ``remaining_ms`` and no
    ``ends_at``. A hands-counted level has neither, and counts ``hands_played``.
    """

    status: ClockStatus
    level: int
    ends_at: datetime | None
    remaining_ms: int | None
    hands_played: int = 0


@dataclass(frozen=True)
class ClockView:
    """What a screen shows at one instant (``clock_at``)."""

    level: int
    status: ClockStatus
    remaining_ms: int | None  # None: a hands-counted level
    ends_at: datetime | None  # running a timed level: when it ends
    hands_left: int | None  # a hands-counted level: the hands before the level rises
    overtime: bool  # past the last level's end: the clock stays on the last level at 0
    next_level: int | None
    ms_to_next_break: int | None  # None: no break ahead, or a hands-counted level before it
    next_break: int | None


# --- reading the clock ----------------------------------------------------------------------------------------


def clock_initial(spans: Sequence[LevelSpan]) -> ClockState:
    """The clock before the start: on the first level, its full length left."""
    _check_spans(spans)
    return ClockState(ClockStatus.NOT_STARTED, 0, None, spans[0].length_ms)


def clock_settle(state: ClockState, spans: Sequence[LevelSpan], now: datetime) -> ClockState:
    """The state with every level that has ended by ``now`` rolled over (the services store it on every write).

    A running timed level whose end has passed gives way to the next, which ends its own length after the
    previous end (no drift, however late the read), any number of levels at once. Rolling stops at a
    hands-counted level (it waits for its hands) and at the last level (overtime).
    """
    now = _aware(now)
    _check(state, spans)
    if state.status is not ClockStatus.RUNNING or state.ends_at is None:
        return state
    last = len(spans) - 1
    level, ends_at = state.level, state.ends_at.astimezone(UTC)
    while ends_at <= now and level < last:
        level += 1
        length = spans[level].length_ms
        if length is None:
            return ClockState(ClockStatus.RUNNING, level, None, None, 0)
        ends_at += timedelta(milliseconds=length)
    if level == state.level:
        return state
    return ClockState(ClockStatus.RUNNING, level, ends_at, None, 0)


def clock_at(state: ClockState, spans: Sequence[LevelSpan], now: datetime) -> ClockView:
    """The clock as every screen shows it at ``now``: the level, the time or hands left, the next break."""
    now = _aware(now)
    settled = clock_settle(state, spans, now)
    span = spans[settled.level]
    last = len(spans) - 1
    remaining = _remaining_ms(settled, now)
    hands_left = None if span.hands is None else max(0, span.hands - settled.hands_played)
    overtime = settled.level == last and (remaining == 0 if span.hands is None else hands_left == 0)
    next_break = next((i for i in range(settled.level + 1, len(spans)) if spans[i].is_break), None)
    to_break = None
    if next_break is not None and remaining is not None:
        between = [spans[i].length_ms for i in range(settled.level + 1, next_break)]
        if all(length is not None for length in between):
            to_break = remaining + sum(length for length in between if length is not None)
    return ClockView(
        level=settled.level,
        status=settled.status,
        remaining_ms=remaining,
        ends_at=settled.ends_at if settled.status is ClockStatus.RUNNING else None,
        hands_left=hands_left,
        overtime=overtime,
        next_level=settled.level + 1 if settled.level < last else None,
        ms_to_next_break=to_break,
        next_break=next_break,
    )


# --- the director's changes -----------------------------------------------------------------------------------


def clock_start(spans: Sequence[LevelSpan], now: datetime, *, state: ClockState | None = None) -> ClockState:
    """Start the clock at ``now``: the first level (or the not-started ``state``'s level and time) begins."""
    now = _aware(now)
    if state is None:
        state = clock_initial(spans)
    _check(state, spans)
    if state.status is ClockStatus.RUNNING:
        raise ClockError("The clock is already running.")
    if state.status is ClockStatus.PAUSED:
        raise ClockError("The clock has started and is paused: resume it.")
    return _running(state, now)


def clock_pause(state: ClockState, spans: Sequence[LevelSpan], now: datetime) -> ClockState:
    """Pause the clock, keeping what is left of the level it is in at ``now``."""
    now = _aware(now)
    _check(state, spans)
    if state.status is ClockStatus.NOT_STARTED:
        raise ClockError("The clock has not started yet.")
    if state.status is ClockStatus.PAUSED:
        raise ClockError("The clock is already paused.")
    settled = clock_settle(state, spans, now)
    return ClockState(ClockStatus.PAUSED, settled.level, None, _remaining_ms(settled, now), settled.hands_played)


def clock_resume(state: ClockState, spans: Sequence[LevelSpan], now: datetime) -> ClockState:
    """Resume a paused clock: the level now ends what was left of it after ``now``."""
    now = _aware(now)
    _check(state, spans)
    if state.status is ClockStatus.NOT_STARTED:
        raise ClockError("The clock has not started yet: start it.")
    if state.status is ClockStatus.RUNNING:
        raise ClockError("The clock is already running.")
    return _running(state, now)


def clock_skip(state: ClockState, spans: Sequence[LevelSpan], now: datetime, by: int) -> ClockState:
    """Skip ``by`` levels forward (positive) or back (negative); the new level starts with its full length.

    A running clock keeps running, a paused or not-started one stays so. There is no level before the first or
    after the last.
    """
    now = _aware(now)
    _check(state, spans)
    if isinstance(by, bool) or not isinstance(by, int) or by == 0:
        raise ClockError("Skip at least one level, forward or back.")
    settled = clock_settle(state, spans, now)
    target = settled.level + by
    if target < 0:
        raise ClockError("There is no level before the first." if settled.level == 0 else _too_far(-by, "back"))
    if target >= len(spans):
        last = settled.level == len(spans) - 1
        raise ClockError("There is no level after the last." if last else _too_far(by, "forward"))
    return _fresh(settled.status, target, spans, now)


def clock_adjust(state: ClockState, spans: Sequence[LevelSpan], now: datetime, delta_ms: int) -> ClockState:
    """Add time to the level (``delta_ms`` > 0) or take some away (< 0).

    Limits: the level keeps at least 1 second (to end a level, skip to the next: it starts in full) and shows at
    most its full length plus 1 hour (a long pause for a dinner is a break level or a paused clock, not a level
    of three hours). A hands-counted level has no time to adjust.
    """
    now = _aware(now)
    _check(state, spans)
    if isinstance(delta_ms, bool) or not isinstance(delta_ms, int) or delta_ms == 0:
        raise ClockError("Add or remove some time: at least one millisecond.")
    settled = clock_settle(state, spans, now)
    length = spans[settled.level].length_ms
    remaining = _remaining_ms(settled, now)
    if length is None or remaining is None:
        raise ClockError("This level counts hands, not time: there is no time to add or remove.")
    left = remaining + delta_ms
    if left < MIN_LEFT_MS:
        raise ClockError(
            f"Removing {_duration(-delta_ms)} leaves less than a second of this level ({_duration(remaining)} left): "
            "skip to the next level instead."
        )
    if left > length + MAX_EXTRA_MS:
        raise ClockError(
            f"A level of {_duration(length)} can show at most {_duration(length + MAX_EXTRA_MS)}: "
            f"adding {_duration(delta_ms)} to {_duration(remaining)} is too much."
        )
    if settled.status is ClockStatus.RUNNING:
        return ClockState(ClockStatus.RUNNING, settled.level, now + timedelta(milliseconds=left), None)
    return ClockState(settled.status, settled.level, None, left)


def clock_hand(state: ClockState, spans: Sequence[LevelSpan], now: datetime) -> ClockState:
    """A hand recorded in a hands-counted level: after the level's last hand the next level begins, in full.

    MSOP Heads Up (GAME_RULES §5): ``LevelSpan(seconds=None, hands=7)``, so the blinds go up on every 7th hand.
    A hand finished while the clock is paused counts too; the clock stays paused. On the last level the hands
    keep counting (overtime).
    """
    now = _aware(now)
    _check(state, spans)
    if state.status is ClockStatus.NOT_STARTED:
        raise ClockError("The clock has not started: no hand counts yet.")
    settled = clock_settle(state, spans, now)
    hands = spans[settled.level].hands
    if hands is None:
        raise ClockError("This level runs on time: its hands are not counted.")
    played = settled.hands_played + 1
    if played >= hands and settled.level < len(spans) - 1:
        return _fresh(settled.status, settled.level + 1, spans, now)
    return ClockState(settled.status, settled.level, None, None, played)


# --- helpers --------------------------------------------------------------------------------------------------


def _running(state: ClockState, now: datetime) -> ClockState:
    if state.remaining_ms is None:  # a hands-counted level
        return ClockState(ClockStatus.RUNNING, state.level, None, None, state.hands_played)
    return ClockState(ClockStatus.RUNNING, state.level, now + timedelta(milliseconds=state.remaining_ms), None)


def _fresh(status: ClockStatus, level: int, spans: Sequence[LevelSpan], now: datetime) -> ClockState:
    length = spans[level].length_ms
    if length is None:
        return ClockState(status, level, None, None, 0)
    if status is ClockStatus.RUNNING:
        return ClockState(status, level, now + timedelta(milliseconds=length), None)
    return ClockState(status, level, None, length)


def _remaining_ms(state: ClockState, now: datetime) -> int | None:
    if state.ends_at is not None:
        return max(0, (state.ends_at - now) // _MS)
    return state.remaining_ms


def _too_far(by: int, direction: str) -> str:
    return f"There are not {by} levels {'before' if direction == 'back' else 'after'} this one to skip {direction}."


def _duration(ms: int) -> str:
    seconds = ms // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


def _aware(now: datetime) -> datetime:
    if now.tzinfo is None or now.utcoffset() is None:
        raise ClockError("The clock needs an aware time (with its time zone).")
    return now.astimezone(UTC)


def _check_spans(spans: Sequence[LevelSpan]) -> None:
    if not spans:
        raise ClockError("The structure has no level.")


def _check(state: ClockState, spans: Sequence[LevelSpan]) -> None:
    """The stored state must fit the structure (a timed level has its instant or its time left, and so on)."""
    _check_spans(spans)
    if not 0 <= state.level < len(spans):
        raise ClockError(f"The clock is on level {state.level + 1}, but the structure has {len(spans)} levels.")
    timed = spans[state.level].hands is None
    if state.hands_played < 0:
        raise ClockError("The clock counts a negative number of hands.")
    if state.status is ClockStatus.RUNNING and timed:
        if state.ends_at is None or state.ends_at.utcoffset() is None or state.remaining_ms is not None:
            raise ClockError("A running timed level needs the instant it ends (aware), and only that.")
    elif timed:
        if state.ends_at is not None or state.remaining_ms is None or state.remaining_ms < 0:
            raise ClockError("A stopped timed level needs the time left, and no end instant.")
    elif state.ends_at is not None or state.remaining_ms is not None:
        raise ClockError("A hands-counted level has no end instant and no time left.")
