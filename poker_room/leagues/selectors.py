"""A league's standings as the pages, the PDF and the API show them: each event of the league with its
field, buy-in and prize pool; each player's result in each event, its points, counted or dropped; the ranks and the
Master Class's field with each invited player's stack. The points are ``poker_room.pure.league_points``'s.

What counts, and what this module chose where the rules are silent:

* Only a **finished** event counts; one planned or running is listed as "not finished".
* A **player** is the players app's ``Player`` when the entry names one, else the entry's name (case and runs of
  spaces ignored): "anna" and "Anna" are one player, a registered player and a walk-in of the same name are two.
* A player who **re-entered** scores their best place of the event (one result an event).
* ``n`` (**players**) is the event's entries, re-entries included: the results sheet places them from the number of
  entries (first out) to 1, so a place is never beyond ``n``. **buy_in** is the buy-in to the prize pool in the
  currency unit, the house fee excluded (as PokerStars's published definition); **prize_pool** the event's prize
  pool (what was collected, or the guarantee if more); **prize** what the player's best entry was paid.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import TypedDict

from django.db.models import QuerySet, Sum
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from poker_room.floor import ordinal, said
from poker_room.leagues.models import League, LeagueEvent
from poker_room.pure.league_points import (
    DEFAULT_TIE_BREAKS,
    LeagueError,
    Line,
    Result,
    Score,
    invited,
    master_class_chips,
    points,
    standings,
)
from poker_room.pure.payouts import prize_pool
from poker_room.pure.structure import DEFAULT_CHIPS
from poker_room.tournaments.models import Elimination, Entry, Purchase, Tournament
from poker_room.tournaments.money import tournament_money

HUNDRED = Decimal(100)
TIE_BREAK_NAMES = {
    "wins": gettext_lazy("most wins"),
    "best_finish": gettext_lazy("best finish"),
    "best_result": gettext_lazy("best single result"),
    "cashes": gettext_lazy("most cashes"),
    "most_events": gettext_lazy("most events played"),
    "fewest_events": gettext_lazy("fewest events played"),
}


def tie_break_names(keys: tuple[str, ...] | list[str]) -> list[str]:
    return [str(TIE_BREAK_NAMES.get(key, key)) for key in keys]


def formula_text(league: League) -> str:
    """The league's formula as the house reads it."""
    if league.formula == League.Formula.SQRT_PLACE:
        return "10 × √players ÷ √place"
    if league.formula == League.Formula.POKERSTARS:
        return _("PokerStars leader board, 10 × √(players ÷ place) × (1 + log10(buy-in + 0.25)), the top 15 %")
    if league.formula == League.Formula.TABLE:
        table = ", ".join(str(points) for points in league.points_table or [])
        return _("by place: %(table)s; 0 below") % {"table": table}
    return league.expression


def rounding_text(league: League, chip: int) -> str:
    """How the Master Class's stacks are rounded, as a sentence reads it: "rounded down to a multiple of 25"."""
    if league.chip_rounding == League.Rounding.DOWN:
        return _("rounded down to a multiple of %(chip)s") % {"chip": chip}
    if league.chip_rounding == League.Rounding.UP:
        return _("rounded up to a multiple of %(chip)s") % {"chip": chip}
    return _("rounded to the nearest multiple of %(chip)s") % {"chip": chip}


@dataclass(frozen=True)
class EventLine:
    """One event of the league (``number``: 1 for the first added)."""

    number: int
    tournament: Tournament
    finished: bool
    players: int
    buy_in_cents: int
    prize_pool_cents: int


@dataclass(frozen=True)
class Cell:
    """A player's result in one event: ``state`` "counted", "dropped" (beyond the best N) or "" (did not play)."""

    place: int | None = None
    points: Decimal | None = None
    state: str = ""


@dataclass(frozen=True)
class StandingLine:
    rank: int
    key: str
    name: str
    player_id: int | None
    total: Decimal
    cells: tuple[Cell, ...]  # one an event, in the events' order
    wins: int
    cashes: int
    events: int
    best_finish: int
    invited: bool
    chips: int | None  # the Master Class stack, for an invited player


@dataclass(frozen=True)
class Standings:
    league: League
    events: tuple[EventLine, ...]
    lines: tuple[StandingLine, ...]
    error: str  # the formula could not score a result: why (the lines are then empty)
    smallest_chip: int

    @property
    def finished_events(self) -> int:
        return sum(1 for event in self.events if event.finished)

    @property
    def invited(self) -> tuple[StandingLine, ...]:
        return tuple(line for line in self.lines if line.invited)


def player_key(entry: Entry) -> str:
    if entry.player_id is not None:
        return f"p:{entry.player_id}"
    return "n:" + " ".join(entry.name.split()).casefold()


def league_tie_breaks(league: League) -> tuple[str, ...]:
    return tuple(league.tie_breaks) if league.tie_breaks else DEFAULT_TIE_BREAKS


def league_events(league: League) -> list[LeagueEvent]:
    return list(
        LeagueEvent.objects.filter(league=league, removed_at__isnull=True).select_related("tournament").order_by("pk")
    )


def _event_line(number: int, tournament: Tournament) -> EventLine:
    finished = tournament.status == Tournament.Status.FINISHED
    pool = 0
    if finished:
        pool, _overlay = prize_pool(
            collected_cents=tournament_money(tournament).collected_cents, guarantee_cents=tournament.guarantee_cents
        )
    return EventLine(
        number=number,
        tournament=tournament,
        finished=finished,
        players=Entry.objects.filter(tournament=tournament).count(),
        buy_in_cents=tournament.buy_in_cents,
        prize_pool_cents=pool,
    )


def _best_entries(tournament: Tournament) -> dict[str, tuple[Entry, int]]:
    """Each player's best-placed entry of a finished event and what it was paid (cents)."""
    paid = dict(
        Elimination.objects.filter(tournament=tournament, status=Elimination.Status.IN_FORCE)
        .values("entry_id")
        .annotate(total=Sum("prize_cents"))
        .values_list("entry_id", "total")
    )
    best: dict[str, tuple[Entry, int]] = {}
    for entry in Entry.objects.filter(tournament=tournament, place__isnull=False).order_by("place", "number"):
        key = player_key(entry)
        if key not in best:
            best[key] = (entry, paid.get(entry.pk) or 0)
    return best


def smallest_chip(tournament: Tournament | None) -> int:
    chips = [int(chip) for chip in (tournament.chips if tournament is not None else []) if int(chip) > 0]
    return min(chips) if chips else min(DEFAULT_CHIPS)


def league_standings(league: League, *, chip: int | None = None) -> Standings:
    """The league's standings (the module's docstring); ``chip``: the smallest chip of the Master Class (default: its
    tournament's, else the house's smallest chip)."""
    events = [_event_line(number, row.tournament) for number, row in enumerate(league_events(league), start=1)]
    names: dict[str, tuple[str, int | None]] = {}
    scores: list[Score] = []
    chip = chip or smallest_chip(league.master_class)
    try:
        for event in events:
            if not event.finished:
                continue
            for key, (entry, prize_cents) in _best_entries(event.tournament).items():
                names[key] = (entry.name, entry.player_id)
                result = Result(
                    players=event.players,
                    place=entry.place or 0,
                    buy_in=Decimal(event.buy_in_cents) / HUNDRED,
                    prize_pool=Decimal(event.prize_pool_cents) / HUNDRED,
                    prize=Decimal(prize_cents) / HUNDRED,
                )
                try:
                    scored = points(
                        result, formula=league.formula, expression=league.expression, table=league.points_table or ()
                    )
                except LeagueError as error:
                    # The formula read and scored the sample fields when it was saved; this event's field it cannot
                    # score (it divides by zero there, or gives less than nothing): say where, so the house mends it.
                    return Standings(
                        league,
                        tuple(events),
                        (),
                        _("%(event)s, %(place)s of %(players)s: %(reason)s")
                        % {
                            "event": event.tournament.name,
                            "place": ordinal(result.place),
                            "players": result.players,
                            "reason": said(error),
                        },
                        chip,
                    )
                scores.append(
                    Score(player=key, event=event.number, place=result.place, points=scored, cashed=prize_cents > 0)
                )
        lines = standings(scores, best_of=league.best_of, tie_breaks=league_tie_breaks(league))
        stacks = master_class_stacks(league)
        chosen = (
            set(stacks)
            if stacks is not None
            else {line.player for line in invited(lines, max(2, league.master_class_size))}
        )
    except LeagueError as error:
        return Standings(league, tuple(events), (), said(error), chip)
    return Standings(
        league,
        tuple(events),
        tuple(_line(line, events, names, chosen, league, chip, stacks) for line in lines),
        "",
        chip,
    )


def master_class_stacks(league: League) -> dict[str, int] | None:
    """Once the Master Class is invited: who was invited (by player key) and the stack each was given, as its entries
    were registered. The standings then show these, not the field they would make now: an event's result changed since
    (a bust undone) changes the points, not who was invited nor with what."""
    if league.master_class_id is None:
        return None
    return {
        player_key(purchase.entry): purchase.chips
        for purchase in Purchase.objects.filter(
            tournament_id=league.master_class_id, kind=Purchase.Kind.ENTRY
        ).select_related("entry")
    }


def _line(
    line: Line,
    events: list[EventLine],
    names: dict[str, tuple[str, int | None]],
    chosen: set[str],
    league: League,
    chip: int,
    stacks: dict[str, int] | None,
) -> StandingLine:
    counted = {score.event: score for score in line.counted}
    dropped = {score.event: score for score in line.dropped}
    cells = []
    for event in events:
        score = counted.get(event.number) or dropped.get(event.number)
        if score is None:
            cells.append(Cell())
        else:
            cells.append(Cell(score.place, score.points, "counted" if event.number in counted else "dropped"))
    name, player_id = names[line.player]
    is_invited = line.player in chosen
    if not is_invited:
        chips = None
    elif stacks is not None:
        chips = stacks[line.player]
    else:
        chips = master_class_chips(
            line.total, chips_per_point=league.chips_per_point, smallest_chip=chip, rounding=league.chip_rounding
        )
    return StandingLine(
        rank=line.rank,
        key=line.player,
        name=name,
        player_id=player_id,
        total=line.total,
        cells=tuple(cells),
        wins=line.wins,
        cashes=line.cashes,
        events=line.events,
        best_finish=line.best_finish,
        invited=is_invited,
        chips=chips,
    )


def league_list() -> QuerySet[League]:
    """The leagues, the latest season first, then by name."""
    return League.objects.select_related("master_class").order_by("-season", "name", "pk")


class LeagueEventBody(TypedDict):
    number: int
    tournament: int
    name: str
    finished: bool
    players: int
    buy_in_cents: int
    prize_pool_cents: int


class LeagueResultBody(TypedDict):
    """A player's result in one event they played: its points as text with 2 decimals."""

    event: int
    place: int | None
    points: str | None
    counted: bool


class LeagueLineBody(TypedDict):
    """One player in the standings as the API answers it: the points as text with 2 decimals."""

    rank: int
    name: str
    player: int | None
    points: str
    wins: int
    cashes: int
    events: int
    best_finish: int
    invited: bool
    chips: int | None
    results: list[LeagueResultBody]


class LeagueStandingsBody(TypedDict):
    league: int
    error: str
    smallest_chip: int
    events: list[LeagueEventBody]
    lines: list[LeagueLineBody]


def standings_payload(found: Standings) -> LeagueStandingsBody:
    """The standings as the API answers them (points as strings with 2 decimals, money in cents)."""
    return {
        "league": found.league.pk,
        "error": found.error,
        "smallest_chip": found.smallest_chip,
        "events": [
            {
                "number": event.number,
                "tournament": event.tournament.pk,
                "name": event.tournament.name,
                "finished": event.finished,
                "players": event.players,
                "buy_in_cents": event.buy_in_cents,
                "prize_pool_cents": event.prize_pool_cents,
            }
            for event in found.events
        ],
        "lines": [
            {
                "rank": line.rank,
                "name": line.name,
                "player": line.player_id,
                "points": str(line.total.quantize(Decimal("0.01"))),
                "wins": line.wins,
                "cashes": line.cashes,
                "events": line.events,
                "best_finish": line.best_finish,
                "invited": line.invited,
                "chips": line.chips,
                "results": [
                    {
                        "event": number,
                        "place": cell.place,
                        "points": str(cell.points) if cell.points is not None else None,
                        "counted": cell.state == "counted",
                    }
                    for number, cell in enumerate(line.cells, start=1)
                    if cell.state
                ],
            }
            for line in found.lines
        ],
    }
