"""The room display's JSON: a tournament's board (``poker_room.tournaments.selectors``) as figures only, no player's
name, with the level and the next ones named for the screen, the server's clock for each screen to correct its own,
and, for a heads-up or an Open-Face points event, its lines in place of the clock (``poker_room.display.lines``)."""

from __future__ import annotations

import datetime as dt
from typing import TypedDict

from django.utils.translation import gettext as _

from poker_room.display.lines import format_lines
from poker_room.pure.structure import GAME_NAMES, GAME_RULE_LINES, AnteKind, Game
from poker_room.tournaments.models import Tournament
from poker_room.tournaments.selectors import Board, LevelLine, tournament_board


class LevelPayload(TypedDict):
    row: int
    number: int
    is_break: bool
    label: str  # "Level 5" or "Break"
    game: str
    game_name: str
    rule_line: str
    small_blind: int
    big_blind: int
    ante: int
    ante_kind: str
    ante_label: str  # "Ante", "Big-blind ante" or ""
    length_ms: int | None
    hands: int | None
    colour_up: int | None


class DisplayPayload(TypedDict):
    """The room display's JSON (``poker_room.display.views``): figures only, no player's name.

    A screen counts down by itself: the level ends at ``ends_at`` (ISO-8601, UTC, milliseconds), and ``server_now``
    is the server's clock when the payload was made, so a screen corrects its own clock by the difference and every
    screen shows the same time. ``remaining_ms`` is the time left at ``server_now`` (and the time left of a paused
    clock); ``next_break_ms`` likewise. ``version`` is what the screen polls with (``poker_room.display.live``).
    """

    version: int
    server_now: str
    name: str
    status: str
    status_label: str
    clock_status: str
    clock_label: str
    level: LevelPayload | None
    ends_at: str | None
    remaining_ms: int | None
    hands_left: int | None
    overtime: bool
    following: LevelPayload | None
    next_level: LevelPayload | None
    players_left: int
    entries: int
    average_stack: int | None
    chips_in_play: int
    prize_pool_cents: int
    guarantee_cents: int
    next_break_ms: int | None
    next_break: LevelPayload | None
    colour_up: int | None
    mixed: bool  # the event deals more than one game: each level names its own
    rules: str
    format: str  # a heads-up or Open-Face points event shows ``lines`` in place of the clock
    lines: list[str]


def iso_utc(moment: dt.datetime) -> str:
    """An instant as ISO-8601 in UTC to the millisecond, ``Z``-terminated: what every browser's ``Date.parse``
    reads exactly."""
    return moment.astimezone(dt.UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _game_name(code: str) -> str:
    try:
        return _(GAME_NAMES[Game(code)])
    except ValueError:
        return code


def _rule_line(code: str) -> str:
    try:
        return _(GAME_RULE_LINES[Game(code)])
    except ValueError:
        return ""


def _level_payload(line: LevelLine | None) -> LevelPayload | None:
    if line is None:
        return None
    ante_label = ""
    if line.ante_kind == AnteKind.CLASSIC:
        ante_label = _("Ante")
    elif line.ante_kind == AnteKind.BIG_BLIND:
        ante_label = _("Big-blind ante")
    return LevelPayload(
        row=line.row,
        number=line.number,
        is_break=line.is_break,
        label=_("Break") if line.is_break else _("Level %(number)s") % {"number": line.number},
        game=line.game,
        game_name=_game_name(line.game) if line.game else "",
        rule_line=_rule_line(line.game) if line.game else "",
        small_blind=line.small_blind,
        big_blind=line.big_blind,
        ante=line.ante,
        ante_kind=line.ante_kind,
        ante_label=ante_label,
        length_ms=None if line.minutes is None else line.minutes * 60_000,
        hands=line.hands,
        colour_up=line.colour_up,
    )


def _clock_label(board: Board) -> str:
    if board.status == Tournament.Status.FINISHED:
        return _("Finished")
    if board.clock is None:
        return _("No structure yet")
    if board.clock.overtime:
        return _("Last level")
    return {
        "not_started": _("Starting soon"),
        "running": _("Running"),
        "paused": _("Paused"),
    }[str(board.clock.status)]


def board_payload(board: Board) -> DisplayPayload:
    """A board as the room display's JSON (``DisplayPayload``)."""
    clock = board.clock
    status_labels = dict(Tournament.Status.choices)
    level = board.level
    return DisplayPayload(
        version=board.version,
        server_now=iso_utc(board.now),
        name=board.name,
        status=board.status,
        status_label=str(status_labels.get(board.status, board.status)),
        clock_status=str(clock.status) if clock else Tournament.ClockStatus.NOT_STARTED.value,
        clock_label=_clock_label(board),
        level=_level_payload(level),
        ends_at=iso_utc(clock.ends_at) if clock and clock.ends_at else None,
        remaining_ms=clock.remaining_ms if clock else None,
        hands_left=clock.hands_left if clock else None,
        overtime=clock.overtime if clock else False,
        following=_level_payload(board.following),
        next_level=_level_payload(board.next_level),
        players_left=board.players_left,
        entries=board.entries,
        average_stack=board.average_stack,
        chips_in_play=board.chips_in_play,
        prize_pool_cents=board.prize_pool_cents,
        guarantee_cents=board.guarantee_cents,
        next_break_ms=clock.ms_to_next_break if clock else None,
        next_break=_level_payload(board.next_break),
        colour_up=level.colour_up if level is not None and level.is_break else None,
        mixed=len(set(board.games)) > 1,
        rules=board.rules,
        format=Tournament.Format.CHIPS.value,
        lines=[],
    )


def display_payload(tournament_id: int, *, now: dt.datetime | None = None) -> DisplayPayload:
    """The room display's JSON for a tournament (one query, three when its version's figures are not cached);
    ``Tournament.DoesNotExist`` if there is none."""
    tournament = Tournament.objects.get(pk=tournament_id)
    payload = board_payload(tournament_board(tournament, now=now))
    payload["format"] = tournament.format
    payload["lines"] = format_lines(tournament)
    if tournament.format != Tournament.Format.CHIPS:  # no clock: the event's state instead of "starting soon"
        payload["clock_label"] = payload["status_label"]
    return payload
