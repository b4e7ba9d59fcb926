"""Reads for the pages on players: the players' list, a player's page, and the rated players seated now
for the pit-boss dashboard. Selectors only: nothing here writes.

Every figure shown comes from ``players.figures`` over the kept figures of the sessions (``session_figures``); a
player's totals too: one aggregate query sums the kept fields of every session of theirs into an unsaved
``RatingSession``, and ``session_figures`` derives average bet, theo, comps, points and the alert from the sums as it
does for one session (a session's variance adds up: sessions are independent).

Each page reads a fixed number of queries however many sessions or tables there are: the player with their totals
(one), a page of their sessions (one) with the seats they sat at (one, prefetched); the dashboard's rated seats with
their sessions and players (one).
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, fields
from typing import Any, cast

from django.core.paginator import Page, Paginator
from django.db.models import Count, Max, OuterRef, Prefetch, Q, QuerySet, Subquery, Sum
from django.utils import timezone

from players.figures import SessionFigures, rating_settings, session_figures
from players.models import Player, RatingSeat, RatingSession
from players.selectors import player_find

# A player's sessions a page, newest first: all 1,000 of a regular's on one page take about 290 ms to draw, a page of
# 100 about 35 (bench/players.py, SQLite), against a budget of 100 ms.
SESSIONS_A_PAGE = 100
# Players a page of the list (no search typed).
PLAYERS_A_PAGE = 50

_ENDED = RatingSession.Status.ENDED
# The kept fields of a session that add up over a player's sessions.
_SUMMED = (
    "seconds_played",
    "rounds",
    "banker_rounds",
    "wagered_cents",
    "banker_wagered_cents",
    "win_loss_cents",
    "theo_millicents",
    "variance_cents2",
    "chips_in_cents",
    "cash_in_cents",
    "markers_in_cents",
)


def clock(seconds: int) -> str:
    """Time played as hours and minutes: 4980 → "1:23"; a minute started is not counted."""
    hours, rest = divmod(max(0, int(seconds)), 3600)
    return f"{hours}:{rest // 60:02d}"


def page_number(value: object, *, pages: int) -> int:
    """A page asked for in the address, as a number from 1 to ``pages``: anything else is the nearest (never a 404
    or a 500 for a page typed by hand, or kept in a bookmark while the list shrank)."""
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        return 1
    return min(max(number, 1), max(pages, 1))


# --- a player's page ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class SessionLine:
    """One session of a player's page: the session, the seats it sat at (in order) and its figures."""

    session: RatingSession
    seats: list[RatingSeat]
    figures: SessionFigures

    @property
    def played(self) -> str:
        return clock(self.figures.seconds_played)

    @property
    def is_open(self) -> bool:
        return bool(self.session.status != _ENDED)


@dataclass(frozen=True)
class PlayerTotals:
    """A player's figures over every session of theirs (``figures`` derived from the sums as for one session)."""

    sessions: int
    playing: int  # sessions playing now (0 or 1)
    paused: int  # sessions on a break now (0 or 1)
    figures: SessionFigures

    @property
    def played(self) -> str:
        return clock(self.figures.seconds_played)


@dataclass(frozen=True)
class PlayerPage:
    player: Player
    totals: PlayerTotals
    sessions: list[SessionLine]  # this page's, newest first
    page: int
    pages: int
    per_page: int

    @property
    def first_shown(self) -> int:
        return (self.page - 1) * self.per_page + 1 if self.sessions else 0

    @property
    def last_shown(self) -> int:
        return (self.page - 1) * self.per_page + len(self.sessions)


def _with_totals(players: QuerySet[Player]) -> QuerySet[Player]:
    """Each player with the sums of their sessions' kept fields (``total_<field>``), how many sessions, and the
    running clock of the one playing now (at most one session is not ended: ``one_session_at_a_time_per_player``)."""
    sums: dict[str, Any] = {f"total_{name}": Sum(f"sessions__{name}") for name in _SUMMED}
    return players.annotate(
        **sums,
        total_walk_with_cents=Sum("sessions__walk_with_cents"),
        total_sessions=Count("sessions"),
        total_playing=Count("sessions", filter=Q(sessions__status=RatingSession.Status.PLAYING)),
        total_paused=Count("sessions", filter=Q(sessions__status=RatingSession.Status.PAUSED)),
        running_since=Max("sessions__running_since"),
    )


def player_totals_figures(player: Player, *, now: dt.datetime) -> PlayerTotals:
    """A player's totals from the sums ``_with_totals`` annotated: the sums in an unsaved ``RatingSession``, whose
    figures ``session_figures`` derives (PostgreSQL sums bigints as numeric: back to int)."""

    def total(name: str) -> int:
        return int(getattr(player, f"total_{name}") or 0)

    walked = getattr(player, "total_walk_with_cents", None)
    summed = RatingSession(
        **{name: total(name) for name in _SUMMED},
        running_since=getattr(player, "running_since", None),
        walk_with_cents=int(walked) if walked is not None else None,
    )
    return PlayerTotals(
        sessions=total("sessions"),
        playing=total("playing"),
        paused=total("paused"),
        figures=session_figures(summed, tier=player.tier, now=now),
    )


def player_page(*, player_id: int, page: object = 1, now: dt.datetime | None = None) -> PlayerPage | None:
    """A player with their totals over every session, and one page of their sessions (newest first) with the seats
    each sat at: three queries whatever the number of sessions. None: no such player."""
    now = now or timezone.now()
    player = _with_totals(Player.objects.filter(pk=player_id)).first()
    if player is None:
        return None
    totals = player_totals_figures(player, now=now)
    pages = max(1, -(-totals.sessions // SESSIONS_A_PAGE))
    number = page_number(page, pages=pages)
    sessions: list[RatingSession] = []
    if totals.sessions:
        seats = RatingSeat.objects.select_related("table").only(
            "session_id", "seat_number", "started_at", "ended_at", "table__name"
        )
        start = (number - 1) * SESSIONS_A_PAGE
        sessions = list(
            RatingSession.objects.filter(player_id=player.pk)
            .order_by("-started_at", "-pk")
            .prefetch_related(Prefetch("seats", queryset=seats.order_by("started_at", "pk")))[
                start : start + SESSIONS_A_PAGE
            ]
        )
    rules = rating_settings()
    lines = [
        SessionLine(
            session=session,
            seats=list(session.seats.all()),
            figures=session_figures(session, tier=player.tier, now=now, rules=rules),
        )
        for session in sessions
    ]
    return PlayerPage(player=player, totals=totals, sessions=lines, page=number, pages=pages, per_page=SESSIONS_A_PAGE)


# --- the players' list -------------------------------------------------------------------------------


def _seated_now(players: QuerySet[Player]) -> QuerySet[Player]:
    """Each player with where they sit now (``table_now``, ``seat_now``), their session's status if one is not ended
    (``status_now``) and when their latest session started (``last_seen``): correlated subqueries, one query."""
    seat = RatingSeat.objects.filter(session__player=OuterRef("pk"), ended_at__isnull=True)
    sessions = RatingSession.objects.filter(player=OuterRef("pk"))
    return players.annotate(
        table_now=Subquery(seat.values("table__name")[:1]),
        seat_now=Subquery(seat.values("seat_number")[:1]),
        status_now=Subquery(sessions.exclude(status=_ENDED).values("status")[:1]),
        last_seen=Subquery(sessions.order_by("-started_at").values("started_at")[:1]),
    )


@dataclass(frozen=True)
class PlayerList:
    query: str
    players: list[Player]
    page: Page[Player] | None  # None: a search's results (at most ``players.selectors.MOST_FOUND``), or none listed


def player_list(*, query: str = "", page: object = 1, browse: bool = True) -> PlayerList:
    """The players a search finds (``player_find``: the card number exactly, else every word of the name), or, with
    nothing typed and ``browse``, every player a page at a time (named players by name, then the anonymous ones),
    each annotated with where they sit now (``_seated_now``)."""
    text = " ".join(str(query or "").split())[:120]
    if text:
        found = [player.pk for player in player_find(query=text)]
        rows = {player.pk: player for player in _seated_now(Player.objects.filter(pk__in=found))} if found else {}
        return PlayerList(query=text, players=[rows[pk] for pk in found if pk in rows], page=None)
    if not browse:
        return PlayerList(query="", players=[], page=None)
    everyone = _seated_now(Player.objects.order_by("anonymous", "name", "pk"))
    paginator = Paginator(everyone, PLAYERS_A_PAGE)
    shown = paginator.page(page_number(page, pages=paginator.num_pages))
    return PlayerList(query="", players=list(shown.object_list), page=shown)


# --- the dashboard's rated players -------------------------------------------------------------------

# The columns the dashboard reads of each rated seat: the seat, its session's status and kept figures, the player.
_SEAT_COLUMNS = (
    *("table_id", "seat_number", "session_id", "session__status"),
    *("session__player_id", "session__player__name", "session__player__tier"),
)
_KEPT = ("running_since", "walk_with_cents", *_SUMMED)


@dataclass(frozen=True)
class _Kept:
    """A session's kept figures as ``session_figures`` reads them. At 600 rated seats a ``RatingSession`` instance
    a seat costs about 7 ms of the dashboard's 100 (model instances with their player: 20 ms); these, half a ms."""

    running_since: dt.datetime | None
    walk_with_cents: int | None
    seconds_played: int
    rounds: int
    banker_rounds: int
    wagered_cents: int
    banker_wagered_cents: int
    win_loss_cents: int
    theo_millicents: int
    variance_cents2: int
    chips_in_cents: int
    cash_in_cents: int
    markers_in_cents: int


# ``rated_seated_now`` builds ``_Kept`` from the columns in this order.
assert tuple(column.name for column in fields(_Kept)) == _KEPT


@dataclass(frozen=True)
class RatedSeatNow:
    """A rated player seated at a table now, with their session's live figures."""

    table_id: int
    seat_number: int
    session_id: int
    paused: bool  # on a break (the seat stays theirs)
    player_id: int
    player_name: str  # "" for an anonymous player
    tier: str
    figures: SessionFigures

    @property
    def played(self) -> str:
        return clock(self.figures.seconds_played)


def rated_seated_now(*, now: dt.datetime | None = None) -> dict[int, list[RatedSeatNow]]:
    """Per table id, the rated players seated there now (by seat) with their figures up to ``now``: one query (the
    open seats with their sessions and players, as rows), whatever the number of tables."""
    now = now or timezone.now()
    seated: dict[int, list[RatedSeatNow]] = defaultdict(list)
    rows = (
        RatingSeat.objects.filter(ended_at__isnull=True)
        .values_list(*_SEAT_COLUMNS, *(f"session__{name}" for name in _KEPT))
        .order_by("table_id", "seat_number")
    )
    width = len(_SEAT_COLUMNS)
    rules = rating_settings()
    for row in rows:
        table_id, seat_number, session_id, status, player_id, name, tier = row[:width]
        # PostgreSQL hands bigints back as int: no conversion; ``session_figures`` reads only these attributes.
        kept = cast(RatingSession, _Kept(*row[width:]))
        seated[table_id].append(
            RatedSeatNow(
                table_id=table_id,
                seat_number=seat_number,
                session_id=session_id,
                paused=status == RatingSession.Status.PAUSED,
                player_id=player_id,
                player_name=name,
                tier=tier,
                figures=session_figures(kept, tier=tier, now=now, rules=rules),
            )
        )
    return dict(seated)
