"""Settling every round again and comparing the answer with its postings, to the cent (``verify_ledger --replay``).

``ledger_verify`` proves the ledger agrees with itself: every posting balances, every
reversal undoes its original. It cannot see an edit that keeps a posting balanced
(+999.00 to a player, -999.00 to the house on the same settlement) nor an edited wager.
``ledger_replay`` asks the engines again, from what each settlement was made of:

* every ``settlement`` posting (the one in force and those reversed by a correction) is
  recomputed from its own ``hands`` (postings are append-only; the round's row is not),
  the round's ``Wager`` rows, its frozen rule set, its action order and its bank, by the
  same functions ``settle_round`` uses (``rounds.services.play.read_hands`` and
  ``settlement.compute.settle``); its entries must be the lines computed, line for line,
  and its stored ``result`` the answer computed;
* every ``wager`` posting is ``player -amount, wagers +amount`` for a seat whose ``Wager``
  row holds that amount, and every wager of a banked round has exactly one; the points
  games (banking mode ``none``) post none; the house's wager against a player bank
  (``HouseWager``) is one ``house -amount, wagers +amount`` posting and settles with the seats;
* a settled round's hands are the hands its settlement in force was settled with, and every entry of
  its postings is filed under the round.

Each difference is named by round (table, number, id) and posting, with what was expected
and what was found for each account and seat. Rounds are read a chunk at a time, five
statements a chunk whatever its size.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from casino.errors import ApplicationError
from ledger.lines import line_holder, line_order, lines_text
from ledger.models import LedgerEntry, Posting
from rounds.models import Round, Wager
from rounds.services.house_wager import house_wager_cents, house_wager_problem
from rounds.services.play import read_hands
from rounds.states import RoundState
from rules.hands import round_is_banked
from settlement import compute
from settlement.services.settle import entered_hands, settlement_compute
from settlement.verify import round_label
from tables.models import Seat

CHUNK = 500  # rounds read at a time: well under SQLite's limit on the parameters of one statement

# A ledger line as the replay compares it: account, seat (its number at the round's table; None for the house's
# accounts; its id, in words, for a seat of another table), cents, kind.
LineKey = tuple[str, int | str | None, int, str]

_REPLAYED = [Posting.Kind.SETTLEMENT, Posting.Kind.WAGER]  # the postings the replay reads (reversals and voids
# are ``ledger_verify``'s: each must undo its original line for line)

# The order accounts are named in a report.


@dataclass
class ReplayReport:
    """What ``ledger_replay`` recomputed and every difference it found (``problems`` empty: all match)."""

    rounds: int = 0  # settled rounds recomputed (rounds with at least one settlement posting)
    settlements: int = 0  # settlement postings recomputed, reversed ones included
    wagers: int = 0  # wager postings checked against their wagers
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass
class _Chunk:
    """What a chunk of rounds was settled with and what was posted, read in five statements."""

    rounds: list[Round]
    postings: dict[int | None, list[Mapping[str, Any]]]  # by round id, in posting order
    entries: dict[int, list[Mapping[str, Any]]]  # by posting id
    wagers: dict[int, list[tuple[int, int]]]  # by round id: (seat id, cents)
    seats: dict[int, tuple[int, int]]  # seat id: (table id, seat number)


def ledger_replay(*, rounds: Iterable[int] | None = None, chunk_size: int = CHUNK) -> ReplayReport:
    """Recompute every settled round (or the rounds with these ids) and compare it with its postings.

    See the module's docstring for what is compared. Nothing is written.
    """
    report = ReplayReport()
    for ids in _round_chunks(rounds, chunk_size):
        chunk = _chunk_read(ids)
        for missing in sorted(set(ids) - {round_.pk for round_ in chunk.rounds}):
            report.problems.append(f"There is no round with id {missing}.")
        for round_ in chunk.rounds:
            try:
                _round_check(round_, chunk, report)
            except (LookupError, TypeError, AttributeError, ValueError) as exc:  # a row no service writes so
                report.problems.append(
                    f"{round_label(round_)} cannot be checked: "
                    f"its stored rules or hands are not as Tableside writes them ({exc!r})."
                )
    return report


def _round_chunks(rounds: Iterable[int] | None, size: int) -> Iterator[list[int]]:
    """The ids of the rounds to replay, ``size`` at a time, in id order."""
    if rounds is not None:
        wanted = sorted(set(rounds))
        for start in range(0, len(wanted), size):
            yield wanted[start : start + size]
        return
    last = 0
    while True:
        ids = list(Round.objects.filter(pk__gt=last).order_by("pk").values_list("pk", flat=True)[:size])
        if not ids:
            return
        yield ids
        last = ids[-1]


def _chunk_read(ids: Sequence[int]) -> _Chunk:
    round_rows = list(
        Round.objects.filter(pk__in=ids).select_related("table", "bank_seat", "house_wager").order_by("pk")
    )
    postings: dict[int | None, list[Mapping[str, Any]]] = defaultdict(list)
    for posting in (
        Posting.objects.filter(round_id__in=ids, kind__in=_REPLAYED)
        .values("pk", "round_id", "kind", "hands", "result", "corrects_id", "reversed_by")
        .order_by("pk")
    ):
        postings[posting["round_id"]].append(posting)
    entries: dict[int, list[Mapping[str, Any]]] = defaultdict(list)
    for entry in (
        LedgerEntry.objects.filter(posting__round_id__in=ids, posting__kind__in=_REPLAYED)
        .values("pk", "posting_id", "round_id", "account", "seat_id", "amount_cents", "kind")
        .order_by("pk")
    ):
        entries[entry["posting_id"]].append(entry)
    wagers: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for round_id, seat_id, amount in Wager.objects.filter(round_id__in=ids).values_list(
        "round_id", "seat_id", "amount_cents"
    ):
        wagers[round_id].append((seat_id, amount))
    # The seats of the chunk's tables, then any other seat an entry or a wager names (a row pointed elsewhere).
    table_ids = {round_.table_id for round_ in round_rows}
    seats = {
        pk: (table_id, number)
        for pk, table_id, number in Seat.objects.filter(table_id__in=table_ids).values_list("pk", "table_id", "number")
    }
    named = {entry["seat_id"] for rows in entries.values() for entry in rows if entry["seat_id"] is not None}
    named |= {seat_id for rows in wagers.values() for seat_id, _ in rows}
    elsewhere = sorted(named - seats.keys())
    if elsewhere:
        seats.update(
            (pk, (table_id, number))
            for pk, table_id, number in Seat.objects.filter(pk__in=elsewhere).values_list("pk", "table_id", "number")
        )
    return _Chunk(rounds=round_rows, postings=postings, entries=entries, wagers=wagers, seats=seats)


# --- one round ------------------------------------------------------------------------------------


def _round_check(round_: Round, chunk: _Chunk, report: ReplayReport) -> None:
    name = round_label(round_)
    postings = chunk.postings.get(round_.pk, [])

    def line(entry: Mapping[str, Any]) -> LineKey:
        return (entry["account"], _seat(chunk, round_, entry["seat_id"]), entry["amount_cents"], entry["kind"])

    wagers: dict[int, int] = {}  # by seat number
    for seat_id, amount in chunk.wagers.get(round_.pk, []):
        seat = _seat(chunk, round_, seat_id)
        if isinstance(seat, int):
            wagers[seat] = amount
        else:
            report.problems.append(f"{name}: a wager of {amount} cents is on seat {seat}.")
    for posting in postings:
        for entry in chunk.entries.get(posting["pk"], []):
            if entry["round_id"] != round_.pk:
                report.problems.append(
                    f"{name}: ledger entry {entry['pk']} of {posting['kind']} posting {posting['pk']} is filed under "
                    f"round id {entry['round_id']}."
                )
    wager_postings = [posting for posting in postings if posting["kind"] == Posting.Kind.WAGER]
    _wagers_check(name, round_, wagers, wager_postings, chunk, line, report)
    settlements = [posting for posting in postings if posting["kind"] == Posting.Kind.SETTLEMENT]
    if settlements:
        report.rounds += 1
    for posting in settlements:
        found = Counter(line(entry) for entry in chunk.entries.get(posting["pk"], []))
        _settlement_check(name, round_, posting, wagers, found, report)
    in_force = [posting for posting in settlements if posting["reversed_by"] is None]
    if round_.state == RoundState.SETTLED and len(in_force) == 1 and in_force[0]["hands"] != round_.hands:
        report.problems.append(
            f"{name}: the round's hands are not the hands its settlement in force "
            f"(posting {in_force[0]['pk']}) was settled with."
        )


def _seat(chunk: _Chunk, round_: Round, seat_id: int | None) -> int | str | None:
    """A seat's number at the round's table; a seat of another table (or none) is named by its id."""
    if seat_id is None:
        return None
    table_id, number = chunk.seats.get(seat_id, (None, 0))
    if table_id != round_.table_id:
        return f"id {seat_id} (not a seat of table {round_.table.name})"
    return number


def _wagers_check(
    name: str,
    round_: Round,
    wagers: Mapping[int, int],
    postings: Sequence[Mapping[str, Any]],
    chunk: _Chunk,
    line: Callable[[Mapping[str, Any]], LineKey],
    report: ReplayReport,
) -> None:
    """Every wager posting takes one seat's wager, as its ``Wager`` row says, and every wager of a banked round
    was taken once."""
    if not round_is_banked(round_):
        for posting in postings:
            report.problems.append(
                f"{name}: wager posting {posting['pk']} on a round nobody banks (its wagers are values a point "
                "and move no money)."
            )
        return
    taken: Counter[int | str | None] = Counter()
    house = house_wager_cents(round_)
    if house is not None and (problem := house_wager_problem(round_)):
        report.problems.append(f"{name}: {problem}.")
    for posting in postings:
        report.wagers += 1
        found: Counter[LineKey] = Counter(line(entry) for entry in chunk.entries.get(posting["pk"], []))
        players = {seat for account, seat, _, _ in found if account == compute.PLAYER}
        if not players and any(account == compute.HOUSE for account, _, _, _ in found):
            # The house's wager against a player bank: from the house to the layout, as its row says.
            taken[compute.HOUSE] += 1
            expected_house = Counter(
                {(compute.HOUSE, None, -(house or 0), "wager"): 1, (compute.WAGERS, None, house or 0, "wager"): 1}
            )
            if house is None or found != expected_house:
                held = "no house wager" if house is None else f"a house wager of {house} cents"
                report.problems.append(
                    f"{name}: wager posting {posting['pk']} takes a wager from the house, but the round holds {held}: "
                    f"it holds {lines_text(found)}."
                )
            continue
        if len(players) != 1:
            report.problems.append(
                f"{name}: wager posting {posting['pk']} does not take one seat's wager: it holds {lines_text(found)}."
            )
            continue
        (seat,) = players
        taken[seat] += 1
        amount = wagers.get(seat) if isinstance(seat, int) else None
        if amount is None:
            report.problems.append(
                f"{name}: wager posting {posting['pk']} takes a wager from seat {seat}, which has no wager on the "
                f"round: it holds {lines_text(found)}."
            )
            continue
        expected = Counter({(compute.PLAYER, seat, -amount, "wager"): 1, (compute.WAGERS, None, amount, "wager"): 1})
        if found != expected:
            report.problems.append(
                f"{name}: wager posting {posting['pk']} does not match the wager on seat {seat} "
                f"({amount} cents): {_difference(expected, found)}."
            )
    for seat, amount in sorted(wagers.items()):
        if taken[seat] != 1:
            times = "never posted" if not taken[seat] else f"posted {taken[seat]} times"
            report.problems.append(f"{name}: the wager of {amount} cents on seat {seat} was {times} (once expected).")
    if house is not None and taken[compute.HOUSE] != 1:
        times = "never posted" if not taken[compute.HOUSE] else f"posted {taken[compute.HOUSE]} times"
        report.problems.append(f"{name}: the house's wager of {house} cents was {times} (once expected).")


def _settlement_check(
    name: str,
    round_: Round,
    posting: Mapping[str, Any],
    wagers: Mapping[int, int],
    found: Counter[LineKey],
    report: ReplayReport,
) -> None:
    """Settle the round again with the posting's own hands and compare the lines and the answer."""
    report.settlements += 1
    what = f"settlement posting {posting['pk']}"
    if posting["corrects_id"] is not None:
        what += f" (correcting posting {posting['corrects_id']})"
    if posting["reversed_by"] is not None:
        what += f" (reversed by posting {posting['reversed_by']})"
    if not isinstance(posting["hands"], Mapping):
        report.problems.append(f"{name}: {what} holds no hands to settle it again from.")
        return
    try:
        read = read_hands(round_, entered_hands(posting["hands"]), wagers=wagers, complete_boards=True)
        computed = settlement_compute(round_, read, wagers)
    except (ApplicationError, ValueError, LookupError, TypeError, AttributeError) as exc:
        # One round that cannot be settled again is a finding, not a reason to stop checking the others.
        report.problems.append(f"{name}: {what} cannot be settled again from its hands and the round's wagers: {exc}")
        return
    differences = []
    expected: Counter[LineKey] = Counter((line.account, line.seat, line.amount, line.kind) for line in computed.lines)
    if found != expected:
        differences.append(_difference(expected, found))
    result = json.loads(json.dumps(computed.result))  # as the JSON column gives it back
    stored = posting["result"] if isinstance(posting["result"], Mapping) else {}
    if result != stored:
        keys = sorted(key for key in result.keys() | stored.keys() if result.get(key) != stored.get(key))
        differences.append(f"its stored result differs from the recomputed one in {', '.join(keys)}")
    if differences:
        report.problems.append(f"{name}: {what} does not match its recomputation: {'; '.join(differences)}.")


# --- what differs, in words -----------------------------------------------------------------------


def _totals(lines: Counter[LineKey]) -> Counter[tuple[str, int | str | None]]:
    totals: Counter[tuple[str, int | str | None]] = Counter()
    for (account, seat, amount, _), count in lines.items():
        totals[account, seat] += amount * count
    return totals


def _difference(expected: Counter[LineKey], found: Counter[LineKey]) -> str:
    """What each account and seat should hold and holds; or, where every total agrees, the lines that differ."""
    want, have = _totals(expected), _totals(found)
    accounts = sorted({*want, *have}, key=line_order)
    parts = [
        f"{line_holder(*key)} expected {want[key]:+d} cents, found {have[key]:+d} cents"
        for key in accounts
        if want[key] != have[key]
    ]
    if parts:
        return "; ".join(parts)
    return (
        f"every account's total agrees but the lines differ: expected {lines_text(expected - found)}, "
        f"found {lines_text(found - expected)}"
    )
