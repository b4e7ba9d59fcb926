"""A tournament's board, and the boards of the running tournaments (the pit dashboard's); the room display's JSON is
made from a board (``poker_room.display.selectors``).

The board is what the director's console, the pit dashboard and the room display show of a tournament at one
instant: the clock (``poker_room.tournaments.clock_services.clock_now``: worked out from the stored instant, never
counted), the level and the next one, and the room's figures:

* players left: the entries still in (playing, or the winner once there is one); entries: every buy-in, a re-entry
  included (it is a new entry), with the re-entries, rebuys and add-ons counted apart;
* chips in play: every chip every entry ever bought (its starting stack, rebuys, add-on: ``Entry.chips``). A busted
  player's chips went to the players who beat them, so an entry that is out still counts; the chips a colour-up's
  race takes out of play are not subtracted (a few small chips in a field of millions);
* average stack: chips in play over players left (integer chips, rounded down);
* prize pool: what the entrants paid to the pool (its postings: ``poker_room.tournaments.money.tournament_money``), or
  the guarantee if that is more (``poker_room.pure.payouts.prize_pool``: the house pays the overlay).

A board reads its figures in two queries (the entries, grouped, and the money), and keeps them in the cache under
the tournament's version (``_figures``): after a change, the first screen to ask reads them and every other screen
of the room gets them from the cache. ``running_tournaments`` reads the entries of every running tournament in one
grouped query, and the money of each whose figures are not cached.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import Count, Q, Sum
from django.utils import timezone

from casino.errors import ApplicationError
from poker_room.display import live
from poker_room.pure.clock import ClockView, LevelSpan, clock_at
from poker_room.pure.payouts import prize_pool
from poker_room.pure.structure import Level
from poker_room.tournaments.clock_services import (
    clock_problem,
    level_number,
    level_spans,
    tournament_clock_state,
    tournament_levels,
)
from poker_room.tournaments.models import Entry, Tournament
from poker_room.tournaments.money import tournament_money

FIGURES_SECONDS = 600  # the figures of a version: a version left behind is never asked for again

# --- the board ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LevelLine:
    """One row of the structure as a screen names it: "Level 5", 200/400, big-blind ante 400, No-Limit Hold'em."""

    row: int  # index in the structure, breaks included
    number: int  # the director's level number (a break: the level before it)
    is_break: bool
    game: str  # a ``poker_room.pure.structure.Game`` code ("" for a break)
    small_blind: int
    big_blind: int
    ante: int
    ante_kind: str  # ``AnteKind``
    minutes: int | None
    hands: int | None
    colour_up: int | None  # a break: the chip taken out of play


@dataclass(frozen=True)
class Board:
    """A tournament at one instant (the module's docstring). ``clock`` and ``level`` are None while it has no
    structure; ``next_level`` is the next blind level (breaks skipped), ``following`` the next row (a break or a
    level), ``next_break`` the next break."""

    tournament_id: int
    name: str
    status: str
    games: tuple[str, ...]
    rules: str
    version: int
    now: dt.datetime
    clock: ClockView | None
    level: LevelLine | None
    following: LevelLine | None
    next_level: LevelLine | None
    next_break: LevelLine | None
    players_left: int
    entries: int
    reentries: int
    rebuys: int
    addons: int
    chips_in_play: int
    average_stack: int | None
    collected_cents: int
    guarantee_cents: int
    prize_pool_cents: int
    overlay_cents: int
    # What makes the row's structure or clock unreadable, in words ("" when they read): shown in the clock's place.
    problem: str = ""


@dataclass(frozen=True)
class _Figures:
    players_left: int = 0
    entries: int = 0
    reentries: int = 0
    rebuys: int = 0
    addons: int = 0
    chips: int = 0
    collected_cents: int = 0


def figures_key(tournament_id: int, version: int) -> str:
    return live.floor_key("figures", tournament_id, version)


def _figures_read(tournament_ids: Sequence[int]) -> dict[int, _Figures]:
    """Each tournament's entries (one aggregate query, grouped) and what was collected
    (``poker_room.tournaments.money``: one query a tournament, from its postings)."""
    if not tournament_ids:
        return {}
    left = Q(status__in=(Entry.Status.ACTIVE, Entry.Status.WON))
    rows = {
        row["tournament_id"]: row
        for row in Entry.objects.filter(tournament_id__in=tournament_ids)
        .order_by()
        .values("tournament_id")
        .annotate(
            n=Count("pk"),
            left=Count("pk", filter=left),
            reentries=Count("pk", filter=Q(reentry_of__isnull=False)),
            rebuys=Sum("rebuys"),
            addons=Count("pk", filter=Q(addon=True)),
            chips=Sum("chips"),
        )
    }
    figures = {}
    for tid in tournament_ids:
        row = rows.get(tid)
        collected = tournament_money(tid).collected_cents
        figures[tid] = (
            _Figures(
                players_left=row["left"],
                entries=row["n"],
                reentries=row["reentries"],
                rebuys=row["rebuys"] or 0,
                addons=row["addons"],
                chips=row["chips"] or 0,
                collected_cents=collected,
            )
            if row
            else _Figures(collected_cents=collected)
        )
    return figures


def _figures(tournaments: Sequence[Tournament]) -> dict[int, _Figures]:
    """The tournaments' figures, kept in the cache under their version: every write a screen shows raises the
    version (``poker_room.display.live``), so the figures of a version never change, and the screens that fetch the
    payload after a change (every screen of the room, within the same 400 ms) read them once. Read after the
    tournament's row, they can only be newer than its version, never older."""
    keys = {t.pk: figures_key(t.pk, t.version) for t in tournaments}
    cached = cache.get_many(list(keys.values()))
    found = {tid: cached[key] for tid, key in keys.items() if isinstance(cached.get(key), _Figures)}
    read = _figures_read([t.pk for t in tournaments if t.pk not in found])
    if read:
        cache.set_many({keys[tid]: figures for tid, figures in read.items()}, FIGURES_SECONDS)
    return {**found, **read}


def _line(levels: Sequence[Level], row: int | None, default_game: str) -> LevelLine | None:
    if row is None or not 0 <= row < len(levels):
        return None
    level = levels[row]
    return LevelLine(
        row=row,
        number=level_number(levels, row),
        is_break=level.is_break,
        game="" if level.is_break else (level.game or default_game),
        small_blind=level.small_blind,
        big_blind=level.big_blind,
        ante=level.ante,
        ante_kind=str(level.ante_kind),
        minutes=level.minutes,
        hands=level.hands,
        colour_up=level.colour_up,
    )


def _board(tournament: Tournament, figures: _Figures, now: dt.datetime) -> Board:
    default_game = tournament.games[0] if isinstance(tournament.games, list) and tournament.games else ""
    clock = level = following = next_level = next_break = None
    try:
        levels = tournament_levels(tournament)
        spans: list[LevelSpan] = level_spans(levels)
        problem = clock_problem(tournament, levels)
    except ApplicationError as exc:  # the structure itself cannot be read
        levels, spans, problem = (), [], exc.message
    if spans and not problem:
        clock = clock_at(tournament_clock_state(tournament, spans), spans, now)
        level = _line(levels, clock.level, default_game)
        following = _line(levels, clock.next_level, default_game)
        blind = next((i for i in range(clock.level + 1, len(levels)) if not levels[i].is_break), None)
        next_level = _line(levels, blind, default_game)
        next_break = _line(levels, clock.next_break, default_game)
    pool, overlay = prize_pool(collected_cents=figures.collected_cents, guarantee_cents=tournament.guarantee_cents)
    return Board(
        tournament_id=tournament.pk,
        name=tournament.name,
        status=tournament.status,
        games=tuple(tournament.games) if isinstance(tournament.games, list) else (),
        rules=tournament.rules,
        version=tournament.version,
        now=now,
        clock=clock,
        level=level,
        following=following,
        next_level=next_level,
        next_break=next_break,
        players_left=figures.players_left,
        entries=figures.entries,
        reentries=figures.reentries,
        rebuys=figures.rebuys,
        addons=figures.addons,
        chips_in_play=figures.chips,
        average_stack=figures.chips // figures.players_left if figures.players_left else None,
        collected_cents=figures.collected_cents,
        guarantee_cents=tournament.guarantee_cents,
        prize_pool_cents=pool,
        overlay_cents=overlay,
        problem=problem,
    )


def tournament_board(tournament: Tournament, *, now: dt.datetime | None = None) -> Board:
    """The tournament's board at ``now`` (the module's docstring); two queries besides the tournament given, none
    when its version's figures are cached."""
    now = timezone.now() if now is None else now
    return _board(tournament, _figures([tournament])[tournament.pk], now)


def boards(tournaments: Iterable[Tournament], *, now: dt.datetime | None = None) -> list[Board]:
    """The boards of several tournaments, in their order."""
    now = timezone.now() if now is None else now
    tournaments = list(tournaments)
    figures = _figures(tournaments)
    return [_board(t, figures[t.pk], now) for t in tournaments]


def running_tournaments(*, now: dt.datetime | None = None) -> list[Board]:
    """Every running tournament's board, the earliest started first (the pit dashboard's poker room): one query,
    and with figures not cached yet one more, and one a tournament for its money."""
    running = Tournament.objects.filter(status=Tournament.Status.RUNNING).order_by("started_at", "pk")
    return boards(running, now=now)
