"""What ``verify_ledger`` holds of credit at the table (registered by ``players.apps``):

* every counted marker posted once from the cage's count to the markers receivable (``marker:<id>``), every payment
  or returned cheque once back (``marker-payment:<id>``), for its amount, and no marker posting without one of them;
* the markers receivable hold exactly the markers outstanding at the cage;
* a marker's state is what its payments say (redeemed: paid in full; outstanding: nothing kept), and an issued marker
  is the buy-in it names (its table, seat and amount, paid with a marker);
* every buy-in paid with a marker (not a row voiding one) is the buy-in of a numbered marker: none is recorded
  without the marker's line, signature, approval and number;
* marker numbers run from 1 without gaps;
* a final drop box's counted markers are the markers issued into it (``markers_count_differences``).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Collection

from django.db.models import Sum

from ledger.models import LedgerEntry, Posting
from ledger.verify import Findings
from players.credit import COUNTED_MOVE, markers_count_differences
from players.models import Marker, MarkerPayment, MarkerSequence
from tables.models import BuyIn

_Lines = Counter[tuple[str, int]]


def markers_ledger_check(rounds: Collection[int] | None) -> Findings:
    """Credit at the table, for the ledger's verifier (on the whole ledger only: none of it is on a round)."""
    problems = markers_check()
    return Findings(problems=tuple(problems), counted={"markers": Marker.objects.exclude(number=None).count()})


def _moved(cents: int) -> _Lines:
    source, target = COUNTED_MOVE
    return Counter({(source, -cents): 1, (target, cents): 1})


def markers_check() -> list[str]:
    """Hold the markers' postings and states to their rows; one line for each thing that differs."""
    problems: list[str] = []
    expected: dict[str, _Lines] = {}
    markers = list(Marker.objects.order_by("pk"))
    for marker in markers:
        if marker.counted_at is not None:
            expected[f"marker:{marker.pk}"] = _moved(marker.amount_cents)
    paid: dict[int, int] = defaultdict(int)
    for payment in MarkerPayment.objects.order_by("pk"):
        expected[f"marker-payment:{payment.pk}"] = _moved(-payment.amount_cents)
        paid[payment.marker_id] += payment.amount_cents
    found: dict[str, _Lines] = defaultdict(Counter)
    entries = LedgerEntry.objects.filter(posting__kind=Posting.Kind.MARKER).values_list(
        "posting__idempotency_key", "account", "amount_cents"
    )
    for key, account, cents in entries.order_by("pk"):
        found[key or ""][(account, cents)] += 1
    for key in sorted(set(expected) | set(found)):
        if key not in found:
            problems.append(f"Marker posting {key} is missing from the ledger.")
        elif key not in expected:
            problems.append(f"Ledger posting {key or '(no key)'} moves marker money that no marker or payment made.")
        elif found[key] != expected[key]:
            problems.append(f"Marker posting {key} does not move what its marker or payment says.")
    outstanding = sum(m.amount_cents for m in markers if m.status == Marker.Status.AT_CAGE)
    held = LedgerEntry.objects.filter(account="markers").aggregate(total=Sum("amount_cents"))["total"] or 0
    if held != outstanding:
        problems.append(
            f"The markers receivable hold {held} cents but the markers outstanding at the cage add up to "
            f"{outstanding} cents."
        )
    buy_ins = {b.pk: b for b in BuyIn.objects.filter(pk__in=[m.buy_in_id for m in markers if m.buy_in_id])}
    for marker in markers:
        owed = marker.amount_cents - paid[marker.pk]
        if marker.status == Marker.Status.REDEEMED and owed != 0:
            problems.append(f"Marker {marker.number} is redeemed but {owed} cents of it are not paid.")
        if marker.status == Marker.Status.AT_CAGE and owed != marker.amount_cents:
            problems.append(f"Marker {marker.number} is outstanding but its payments keep {paid[marker.pk]} cents.")
        if marker.status in (Marker.Status.AT_CAGE, Marker.Status.REDEEMED) and marker.counted_at is None:
            problems.append(f"Marker {marker.number} is at the cage but was never counted.")
        buy_in = buy_ins.get(marker.buy_in_id or 0)
        if marker.number is not None and (
            buy_in is None
            or buy_in.medium != BuyIn.Medium.MARKER
            or (buy_in.table_id, buy_in.seat_number, buy_in.amount_cents)
            != (marker.table_id, marker.seat_number, marker.amount_cents)
        ):
            problems.append(f"Marker {marker.number} is not the buy-in it names (table, seat, amount, a marker).")
    issued_buy_ins = {m.buy_in_id for m in markers if m.number is not None and m.buy_in_id is not None}
    loose = BuyIn.objects.filter(medium=BuyIn.Medium.MARKER, corrects__isnull=True).exclude(pk__in=issued_buy_ins)
    for buy_in in loose.select_related("table").order_by("pk"):
        problems.append(
            f"Buy-in {buy_in.pk} ({buy_in.table.name}, seat {buy_in.seat_number}, {buy_in.amount_cents} cents) is "
            "paid with a marker that no numbered marker names."
        )
    for differs in markers_count_differences():
        problems.append(
            f"The drop box of {differs.table.name} for shift {differs.shift.pk} was counted with "
            f"{differs.counted_cents} cents of markers but the markers issued into it add up to "
            f"{differs.issued_cents} cents."
        )
    last = MarkerSequence.objects.filter(name="marker").values_list("last_number", flat=True).first() or 0
    numbers = {m.number for m in markers if m.number is not None}
    missing = [n for n in range(1, last + 1) if n not in numbers]
    if missing or any(n > last for n in numbers):
        problems.append(
            f"Marker numbers run with gaps: {', '.join(map(str, missing[:10])) or 'numbers past the last given'}."
        )
    return problems
