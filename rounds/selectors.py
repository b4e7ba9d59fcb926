"""Reads of rounds: one round or a table's, with their wagers and their postings in the ledger, what a round's
state lets the dealer do next, and the requests waiting on rounds.

The ledger holds a posting's round by its id only: ``rounds_postings_read`` reads the postings of some rounds at
once; ``shift_round_ids``, ``round_value`` and ``seat_value`` let a ledger query filter on and annotate what it
cannot join.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from django.db import connection
from django.db.models import OuterRef, Prefetch, QuerySet, Subquery
from django.db.models.expressions import RawSQL
from django.shortcuts import get_object_or_404

from casino.models import Shift
from casino.users import Viewer
from ledger.models import EntrySeat, LedgerEntry, Posting
from rounds.models import Adjustment, Round, Wager
from rounds.sql import WAGERS_KEPT, wagers_of_locked
from rounds.states import TRANSITIONS, UNFINISHED_STATES, RoundState
from rules.games import registry
from tables.models import Seat
from tables.permissions import can_view_every_table, require_view_table, tables_visible_to

if TYPE_CHECKING:  # the stubs' extensions are a development requirement
    from django_stubs_ext import WithAnnotations


def round_queryset() -> QuerySet[Round]:
    """Rounds with their table, bank seat and wagers in a fixed number of queries (their postings:
    ``rounds_postings_read``)."""
    return Round.objects.select_related(
        "table", "table__pit", "bank_seat", "opened_by", "house_wager__last_wager__round"
    ).prefetch_related(
        Prefetch("wagers", queryset=Wager.objects.select_related("seat").order_by("seat__number")),
    )


def rounds_postings_read(rounds: Iterable[Round]) -> None:
    """Read the postings of these rounds, oldest first, with their entries (each entry with its seat's number,
    ``seat_number``), in two queries, and keep each round's on it for ``round_postings``."""
    rounds = list(rounds)
    by_round: dict[int, list[Posting]] = {round_.pk: [] for round_ in rounds}
    if not by_round:
        return
    postings = list(Posting.objects.filter(round_id__in=list(by_round)).select_related("actor").order_by("pk"))
    entries: dict[int, list[WithAnnotations[LedgerEntry, EntrySeat]]] = defaultdict(list)
    if postings:
        for entry in (
            LedgerEntry.objects.filter(posting_id__in=[p.pk for p in postings])
            .annotate(seat_number=seat_value())
            .order_by("pk")
        ):
            entries[entry.posting_id].append(entry)
    for posting in postings:
        assert posting.round_id is not None  # read by round
        posting.entries_read = entries[posting.pk]
        by_round[posting.round_id].append(posting)
    for round_ in rounds:
        round_.__dict__[_POSTINGS] = by_round[round_.pk]


_POSTINGS = "ledger_postings"


def round_postings(round_: Round) -> list[Posting]:
    """The round's postings, oldest first, each with its entries (``entries_read``): as ``rounds_postings_read``
    kept them on the round, or read now."""
    if _POSTINGS not in round_.__dict__:
        rounds_postings_read([round_])
    postings: list[Posting] = round_.__dict__[_POSTINGS]
    return postings


def shift_round_ids(shift: Shift | int) -> QuerySet[Round, Any]:
    """The ids of a shift's rounds, as a subquery: what a ledger query filters on (``round_id__in=``), the ledger
    holding a posting's round by its id only."""
    return Round.objects.filter(shift=shift).values("pk")


def round_value(column: str) -> Subquery:
    """A column of the round a ledger row (a posting, an entry) is on, for ``annotate``: the ledger holds the
    round's id only (``round_value("table_id")``)."""
    return Subquery(Round.objects.filter(pk=OuterRef("round_id")).values(column)[:1])


def entries_of_rounds(*, shifts: Sequence[int], tables: Sequence[int] | None = None) -> QuerySet[LedgerEntry]:
    """The ledger entries of the rounds of ``shifts`` (of ``tables`` only, when named), each joined to its round in
    the same statement, so that ``joined_round_value`` reads a column of it: one join where ``round_value`` asks once
    per entry (a shift's four million entries summed by table took 7.3 s with the subquery, 1.9 s joined:
    docs/performance.md). The ledger holds a round's id only, with no relation to join on: the join is written here,
    in ``extra``; its ORM twin is ``LedgerEntry.objects.filter(round_id__in=...)`` with ``round_value`` (both tested
    alike)."""
    if not shifts or (tables is not None and not tables):
        return LedgerEntry.objects.none()
    quote = connection.ops.quote_name
    rounds, entries = quote(Round._meta.db_table), quote(LedgerEntry._meta.db_table)
    where = [
        f"{rounds}.{quote('id')} = {entries}.{quote('round_id')}",
        f"{rounds}.{quote('shift_id')} IN ({', '.join(['%s'] * len(shifts))})",
    ]
    params: list[int] = [int(shift) for shift in shifts]
    if tables is not None:
        where.append(f"{rounds}.{quote('table_id')} IN ({', '.join(['%s'] * len(tables))})")
        params += [int(table) for table in tables]
    return LedgerEntry.objects.extra(tables=[Round._meta.db_table], where=where, params=params)


def joined_round_value(column: str) -> RawSQL:
    """A column of the round an entry of ``entries_of_rounds`` is joined to, for ``annotate`` or ``values``."""
    return RawSQL(f"{connection.ops.quote_name(Round._meta.db_table)}.{connection.ops.quote_name(column)}", ())


def seat_value(column: str = "number") -> Subquery:
    """A column of the seat a ledger entry names, for ``annotate`` (the entry holds the seat's id only)."""
    return Subquery(Seat.objects.filter(pk=OuterRef("seat_id")).values(column)[:1])


def round_get_for_action(*, round_id: int) -> Round:
    """One round with its table only, or 404: what a service needs before it locks and re-reads the round."""
    return get_object_or_404(Round.objects.select_related("table"), pk=round_id)


def round_get(*, round_id: int) -> Round:
    """One round with its postings (``rounds_postings_read``), or 404."""
    round_ = get_object_or_404(round_queryset(), pk=round_id)
    rounds_postings_read([round_])
    return round_


STEP_WAGERS = WAGERS_KEPT


def round_step_read(round_: Round, *, opened: bool = False) -> Round:
    """The round a step of play has just written (the instance its service locked, changed and saved), with its
    wagers in seat order kept on it (``STEP_WAGERS``): what the step answers, without reading the round again. The
    wagers are the ones the service read under the round's lock (``rounds.sql.wagers_of_locked``), or read now
    where it read none (one statement). A round just ``opened`` has no wagers yet: nothing is read."""
    if opened:
        round_.__dict__[STEP_WAGERS] = []
    else:
        wagers_of_locked(round_)
    return round_


def round_get_for_reader(*, round_id: int, user: Viewer) -> Round:
    """One round for ``user`` to read: 404 when there is none, 403 when it is at a table the user may not see
    (``tables.permissions.can_view_table``, the tablet's rule: a dealer reads the rounds of their own table)."""
    round_ = round_get(round_id=round_id)
    require_view_table(user, round_.table)
    return round_


# What the dealer may do next in each state (the tablet shows only these).
_NEXT_ACTIONS: dict[RoundState, tuple[str, ...]] = {
    RoundState.OPEN: ("wager", "close_betting"),
    RoundState.BETTING_CLOSED: ("deal",),
    RoundState.DEALT: ("hands",),
    RoundState.REVEALED: ("hands", "settle"),
    RoundState.SETTLED: ("correct",),
    RoundState.VOIDED: (),
}


def round_next_actions(round_: Round) -> list[str]:
    """The actions the round's state allows next; ``void`` while it is not yet settled."""
    state = RoundState(round_.state)
    actions = list(_NEXT_ACTIONS[state])
    if state == RoundState.DEALT and registry.game(round_.table.game).placed_by_street:
        actions = ["placements"]
    if RoundState.VOIDED in TRANSITIONS[state]:
        actions.append("void")
    return actions


def adjustment_list(*, status: str | None = None, user: Viewer | None = None) -> QuerySet[Adjustment]:
    """Void and correction requests (optionally of one status), newest first, with their round and people: those
    at the tables ``user`` may see (``tables.permissions.tables_visible_to``; ``None``, the system, sees all)."""
    rows = Adjustment.objects.select_related("round__table", "requested_by", "decided_by").order_by("-requested_at")
    if not can_view_every_table(user):
        rows = rows.filter(round__table__in=tables_visible_to(user))
    return rows.filter(status=status) if status else rows


def adjustment_get(*, adjustment_id: int) -> Adjustment:
    """One request, or 404."""
    return get_object_or_404(adjustment_list(), pk=adjustment_id)


def unfinished_rounds(table_ids: Iterable[int]) -> dict[int, Round]:
    """Each table's round still being played (a table has one at a time), by table id; one query."""
    found = Round.objects.filter(table_id__in=list(table_ids), state__in=UNFINISHED_STATES).only(
        "id", "table_id", "number", "state"
    )
    return {round_.table_id: round_ for round_ in found}
