"""What the pages and the API read of an Open-Face points tournament: the round's tables and the hands
they played, one table's tablet, the standings (``poker_room.pure.ofc_standings``; each player's line as the API and
the room display give it: ``OfcStanding``), and the console's panel."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from django.db.models import Count, QuerySet

from poker_room.floor import Requester, can_act_at_tournament_table, is_runner
from poker_room.ofc_events.models import OfcHand
from poker_room.pure.ofc_standings import ROWS, HandResult, Standing, hand_result, standings
from poker_room.tournaments.models import Entry, Tournament, TournamentTable


def is_ofc(tournament: Tournament) -> bool:
    return tournament.format == Tournament.Format.OFC_POINTS


def hands_in_force(tournament: Tournament) -> QuerySet[OfcHand]:
    return OfcHand.objects.filter(tournament=tournament, status=OfcHand.Status.IN_FORCE)


def round_tables(tournament: Tournament) -> dict[int, list[Entry]]:
    """The tables of the round being played: table number → the players seated there, by seat."""
    tables: dict[int, list[Entry]] = {}
    for entry in Entry.objects.filter(
        tournament=tournament, status=Entry.Status.ACTIVE, table_number__isnull=False
    ).order_by("table_number", "seat_number"):
        if entry.table_number is not None:  # left out by the query: the type does not know it
            tables.setdefault(entry.table_number, []).append(entry)
    return tables


def hands_played(tournament: Tournament, round_number: int) -> dict[int, int]:
    """Hands in force of ``round_number``, by table number."""
    rows = (
        hands_in_force(tournament)
        .filter(round=round_number)
        .values("table_number")
        .annotate(count=Count("pk"))
        .values_list("table_number", "count")
    )
    return dict(rows)


def unfinished_tables(tournament: Tournament) -> list[tuple[int, int]]:
    """(table, hands played) of each table of the current round that has not played all its hands."""
    if tournament.ofc_round < 1:
        return []
    played = hands_played(tournament, tournament.ofc_round)
    return [
        (number, played.get(number, 0))
        for number in sorted(round_tables(tournament))
        if played.get(number, 0) < tournament.ofc_hands_per_round
    ]


def round_complete(tournament: Tournament) -> bool:
    """Whether every table of the round being played has played all its hands (false before round 1)."""
    return tournament.ofc_round >= 1 and not unfinished_tables(tournament)


def hand_as_result(hand: OfcHand, royalties: str) -> HandResult:
    """A stored hand as the standings read it: its stored points, royalties and fouls; scoops and rows worked out
    again from its boards by the engine (the same boards, the same answer)."""
    boards = {int(number): rows for number, rows in hand.boards.items()}
    scored = hand_result(boards, royalties=royalties, round=hand.round, table=hand.table_number, hand=hand.hand)
    return HandResult(
        points={int(number): int(points) for number, points in hand.points.items()},
        royalties={int(number): int(earned) for number, earned in hand.royalties.items()},
        scoops=scored.scoops,
        rows=scored.rows,
        fouls=frozenset(int(number) for number in hand.fouls),
        round=hand.round,
        table=hand.table_number,
        hand=hand.hand,
    )


# --- the standings --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StandingLine:
    line: Standing
    entry: Entry


def tournament_standings(tournament: Tournament, *, lots: dict[int, int] | None = None) -> list[StandingLine]:
    """Every entry of the tournament ranked by ``ofc_standings.standings``. Once places are given (the finish), a
    tie the lot broke is shown as it was broken: the places are the lot."""
    entries = {entry.number: entry for entry in Entry.objects.filter(tournament=tournament).order_by("number")}
    results = [hand_as_result(hand, tournament.ofc_royalties) for hand in hands_in_force(tournament)]
    if lots is None:
        lots = {number: entry.place for number, entry in entries.items() if entry.place is not None}
    lines = standings(
        entries,
        results,
        rounds=max(tournament.ofc_rounds, max((result.round for result in results), default=1)),
        lots=lots,
    )
    return [StandingLine(line, entries[line.entry]) for line in lines]


class OfcStanding(TypedDict):
    """One player in the standings as the API answers it and the room display shows the leaders: the rank (shared
    while tied on every tie-break and no lot is drawn), the place once finished, the points and the tie-breaks."""

    rank: int
    place: int | None
    entry: int
    name: str
    status: str
    points: int
    by_round: list[int]
    last_round: int
    scoops: int
    fouls: int
    royalties: int
    hands: int
    lot: int | None
    tied: bool


def ofc_standings(tournament: Tournament) -> list[OfcStanding]:
    """The standings (``tournament_standings``), each line as ``OfcStanding``."""
    return [
        OfcStanding(
            rank=found.line.rank,
            place=found.entry.place,
            entry=found.entry.number,
            name=found.entry.name,
            status=found.entry.status,
            points=found.line.total,
            by_round=list(found.line.by_round),
            last_round=found.line.last_round,
            scoops=found.line.scoops,
            fouls=found.line.fouls,
            royalties=found.line.royalties,
            hands=found.line.hands,
            lot=found.line.lot,
            tied=found.line.tied,
        )
        for found in tournament_standings(tournament)
    ]


# --- one table on the tablet ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerResult:
    entry: Entry
    rows: int
    scoops: int
    royalties: int
    foul: bool
    points: int
    board: list[str]


@dataclass(frozen=True)
class RoundLine:
    entry: Entry
    by_hand: list[int | None]
    total: int


@dataclass(frozen=True)
class OfcTable:
    tournament: Tournament
    table: TournamentTable
    players: list[Entry]
    round: int
    hands: int  # a round's hands
    played: list[OfcHand]  # the hands in force of this round at this table, by hand
    next_hand: int | None  # None: the table has played all its hands of the round
    last: OfcHand | None
    last_results: list[PlayerResult]
    running: list[RoundLine]
    voided: list[OfcHand]


def ofc_table(tournament: Tournament, number: int) -> OfcTable | None:
    """The tablet of table ``number``: who sits there, the hand to enter, the last hand's result, the round so far."""
    table = TournamentTable.objects.filter(tournament=tournament, number=number).select_related("dealer").first()
    if table is None:
        return None
    players = round_tables(tournament).get(number, [])
    round_number = tournament.ofc_round
    at_table = list(
        OfcHand.objects.filter(tournament=tournament, round=round_number, table_number=number).order_by("hand", "pk")
    )
    played = [hand for hand in at_table if hand.status == OfcHand.Status.IN_FORCE]
    voided = [hand for hand in at_table if hand.status == OfcHand.Status.VOIDED]
    next_hand = len(played) + 1 if round_number >= 1 and len(played) < tournament.ofc_hands_per_round else None
    last = played[-1] if played else None
    by_number = {entry.number: entry for entry in Entry.objects.filter(tournament=tournament)}
    last_results: list[PlayerResult] = []
    if last is not None:
        result = hand_as_result(last, tournament.ofc_royalties)
        for key in last.boards:
            entry_number = int(key)
            last_results.append(
                PlayerResult(
                    entry=by_number[entry_number],
                    rows=result.rows[entry_number],
                    scoops=result.scoops[entry_number],
                    royalties=result.royalties.get(entry_number, 0),
                    foul=entry_number in result.fouls,
                    points=result.points[entry_number],
                    board=list(last.boards[key]),
                )
            )
        last_results.sort(key=lambda line: (line.entry.seat_number or 0, line.entry.number))
    in_round = {entry.number for entry in players}
    for hand in played:
        in_round.update(int(key) for key in hand.points)
    running: list[RoundLine] = []
    for entry_number in in_round:
        by_hand = [int(hand.points[str(entry_number)]) if str(entry_number) in hand.points else None for hand in played]
        running.append(RoundLine(by_number[entry_number], by_hand, sum(points or 0 for points in by_hand)))
    running.sort(key=lambda line: (-line.total, line.entry.number))
    return OfcTable(
        tournament=tournament,
        table=table,
        players=players,
        round=round_number,
        hands=tournament.ofc_hands_per_round,
        played=played,
        next_hand=next_hand,
        last=last,
        last_results=last_results,
        running=running,
        voided=voided,
    )


# --- the console ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ConsoleTable:
    number: int
    players: list[Entry]
    played: int
    may_enter: bool


class OfcPanel(TypedDict):
    """The console's Open-Face panel: the round, each table's hands, and what the director may do next."""

    round: int
    rounds: int
    hands: int  # a round's hands
    royalties: str
    tables: list[ConsoleTable]
    rows: tuple[str, ...]
    may_begin: bool
    may_finish: bool
    complete: bool


class OfcConsoleContext(TypedDict, total=False):
    ofc: OfcPanel  # an Open-Face points event only


def console_context(tournament: Tournament, user: Requester) -> OfcConsoleContext:
    """The Open-Face panel of the console (``OfcPanel``); nothing for another format."""
    if not is_ofc(tournament):
        return {}
    played = hands_played(tournament, tournament.ofc_round) if tournament.ofc_round else {}
    tables = {table.number: table for table in TournamentTable.objects.filter(tournament=tournament)}
    rows = [
        ConsoleTable(
            number=number,
            players=players,
            played=played.get(number, 0),
            may_enter=can_act_at_tournament_table(user, tables.get(number)),
        )
        for number, players in sorted(round_tables(tournament).items())
    ]
    running = tournament.status == Tournament.Status.RUNNING
    complete = round_complete(tournament)
    return {
        "ofc": OfcPanel(
            round=tournament.ofc_round,
            rounds=tournament.ofc_rounds,
            hands=tournament.ofc_hands_per_round,
            royalties=tournament.ofc_royalties,
            tables=rows,
            rows=ROWS,
            may_begin=running
            and is_runner(user)
            and tournament.ofc_round < tournament.ofc_rounds
            and (tournament.ofc_round == 0 or complete),
            may_finish=running and is_runner(user) and tournament.ofc_round == tournament.ofc_rounds and complete,
            complete=complete,
        )
    }
