"""The audit events of a gaming day, and what proves them in the audit log's tree without the rest of the log.

The day's events are every event written from the day's opening to its close, and every event, whenever written,
about one of the day's own records (the close of the day itself, a drop box counted or a report built after it).

A day's events are a slice of a log that runs for years. The archive proves them against one signed head of the
log's tree (the smallest that covers them all, so the same day always gives the same head) without its other
leaves: the leaves are grouped in runs, and for each run the archive holds the roots of the perfect subtrees left
of it (the tree's compact range at the run's first leaf) and right of it up to the head's size
(``verify_archive.aligned_subtrees``). With the run's leaves those give the root the head signs
(``verify_archive.run_root``): a few dozen hashes a run, whatever the log's size. A leaf of another day that falls
inside a run is kept as its number and hash only.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q

from casino import merkle
from casino.audit import audit_checkpoint_make, checkpoint_record, checkpoints_from_file, leaf_data, utc_text
from casino.models import AuditCheckpoint, AuditEvent, AuditLeaf, GamingDay
from pit.archive.verify_archive import aligned_subtrees

# Leaves of the day closer than this are one run (the leaves of other days between them kept by number and hash).
RUN_GAP = 64
IN_CHUNKS = 500


class NotInTheTree(Exception):
    """A day's event that the audit log's tree does not hold, or no signed head covers: its message says which."""


@dataclass(frozen=True)
class Run:
    first_position: int
    left: list[str]
    leaves: list[dict[str, Any]]
    right: list[str]


@dataclass(frozen=True)
class AuditSlice:
    events: list[dict[str, Any]]
    head: dict[str, Any]
    runs: list[Run]
    checkpoints: list[dict[str, Any]]


def _day_event_seqs(day: GamingDay, subjects: Mapping[str, Sequence[str]]) -> list[int]:
    assert day.closed_at is not None
    seqs = set(
        AuditEvent.objects.filter(occurred_at__gte=day.opened_at, occurred_at__lte=day.closed_at).values_list(
            "seq", flat=True
        )
    )
    for kind, ids in subjects.items():
        for start in range(0, len(ids), IN_CHUNKS):
            seqs.update(
                AuditEvent.objects.filter(subject_type=kind, subject_id__in=ids[start : start + IN_CHUNKS]).values_list(
                    "seq", flat=True
                )
            )
    return sorted(seqs)


def _positions(seqs: Sequence[int]) -> dict[int, int]:
    found: dict[int, int] = {}
    for start in range(0, len(seqs), IN_CHUNKS):
        found.update(
            AuditLeaf.objects.filter(event_seq__in=seqs[start : start + IN_CHUNKS]).values_list("event_seq", "position")
        )
    return found


def _covering_head(last_position: int) -> AuditCheckpoint | None:
    return AuditCheckpoint.objects.filter(tree_size__gt=last_position).order_by("tree_size", "pk").first()


def day_events_sequenced(day: GamingDay, subjects: Mapping[str, Sequence[str]]) -> None:
    """Make sure every event of the day is a leaf under a signed head: when one is not yet (the sequencer signs
    within seconds of a write; a day archived at once may be ahead of it), sequence the log now, as the sequencer
    would."""
    seqs = _day_event_seqs(day, subjects)
    positions = _positions(seqs)
    if len(positions) == len(seqs) and (not positions or _covering_head(max(positions.values())) is not None):
        return
    with transaction.atomic():
        audit_checkpoint_make(reason=f"archive of gaming day {day.business_date.isoformat()}")


def _leaves(start: int, end: int) -> Iterator[tuple[int, int, str]]:
    """Leaves ``start`` to ``end - 1``: (position, event number, the hash it holds)."""
    return (
        AuditLeaf.objects.filter(position__gte=start, position__lt=end)
        .order_by("position")
        .values_list("position", "event_seq", "event_hash")
        .iterator(chunk_size=5000)
    )


def _frontier_at(size: int) -> merkle.Frontier:
    """The tree's compact range at ``size`` leaves: from the last signed head at or below it that holds its own
    frontier, then the leaves after it."""
    frontier = merkle.Frontier()
    for head in AuditCheckpoint.objects.filter(tree_size__gt=0, tree_size__lte=size).order_by("-tree_size", "-pk")[:5]:
        try:
            stored = merkle.Frontier(head.tree_size, [bytes.fromhex(str(h)) for h in head.frontier or []])
        except ValueError:
            continue
        if stored.root().hex() == head.root_hash:
            frontier = stored
            break
    for _, seq, stored_hash in _leaves(frontier.size, size):
        frontier.append(leaf_data(seq, stored_hash))
    if frontier.size != size:
        raise NotInTheTree(f"The audit log's tree lacks leaves below #{size}: run verify_audit.")
    return frontier


def _subtree_roots(wanted: set[tuple[int, int]], start: int, end: int) -> dict[tuple[int, int], str]:
    """The roots of the perfect subtrees ``wanted`` ((first leaf, height), all within leaves ``start`` to
    ``end - 1``), from one pass over those leaves."""
    found: dict[tuple[int, int], str] = {}
    stack: list[tuple[int, int, bytes]] = []
    for position, seq, stored_hash in _leaves(start, end):
        node = (position, 0, merkle.leaf_hash(leaf_data(seq, stored_hash)))
        while True:
            if (node[0], node[1]) in wanted:
                found[node[0], node[1]] = node[2].hex()
            top = stack[-1] if stack else None
            aligned = top is not None and top[1] == node[1] and top[0] % (1 << (node[1] + 1)) == 0
            if top is None or not aligned or top[0] + (1 << top[1]) != node[0]:
                break
            stack.pop()
            node = (top[0], top[1] + 1, merkle.node_hash(top[2], node[2]))
        stack.append(node)
    return found


def _event_record(event: AuditEvent) -> dict[str, Any]:
    """An event as the archive holds it: every field its hash covers, as the hash covers it."""
    return {
        "id": event.pk,
        "seq": event.seq,
        "occurred_at": utc_text(event.occurred_at),
        "actor_id": event.actor_id,
        "actor_name": event.actor_name,
        "event_type": event.event_type,
        "subject_type": event.subject_type,
        "subject_id": event.subject_id,
        "before": event.before,
        "after": event.after,
        "reason": event.reason,
        "rows": event.rows,
        "prev_hash": event.prev_hash,
        "hash": event.hash,
        "key_id": event.key_id,
    }


def _witnessed(records: Sequence[dict[str, Any]]) -> set[str]:
    """The signatures of these checkpoints that the checkpoint file (``TABLESIDE_AUDIT_CHECKPOINT_FILE``) holds."""
    path = getattr(settings, "TABLESIDE_AUDIT_CHECKPOINT_FILE", "")
    wanted = {str(r["signature"]) for r in records}
    return {str(r.get("signature")) for r in checkpoints_from_file(path)} & wanted if path else set()


def audit_slice(day: GamingDay, subjects: Mapping[str, Sequence[str]]) -> AuditSlice:
    """The day's events, the signed head that covers them, the runs of leaves that prove them under it, and the
    checkpoints signed at the day's shift closes (those its reports print)."""
    seqs = _day_event_seqs(day, subjects)
    positions = _positions(seqs)
    missing = [seq for seq in seqs if seq not in positions]
    if missing:
        raise NotInTheTree(
            f"Audit event #{missing[0]} of the day is not in the audit log's tree"
            + (f" (nor {len(missing) - 1} more)" if len(missing) > 1 else "")
            + ": run audit_checkpoint, then verify_audit."
        )
    records = [
        _event_record(event)
        for start in range(0, len(seqs), IN_CHUNKS)
        for event in AuditEvent.objects.filter(seq__in=seqs[start : start + IN_CHUNKS]).order_by("seq")
    ]

    ordered = sorted(positions.values())
    head = _covering_head(ordered[-1]) if ordered else None
    if head is None:
        raise NotInTheTree("No signed head of the audit log covers the day's events yet: run audit_checkpoint.")
    spans: list[list[int]] = []
    for position in ordered:
        if spans and position - spans[-1][1] <= RUN_GAP:
            spans[-1][1] = position
        else:
            spans.append([position, position])
    wanted = {subtree for _, last in spans for subtree in aligned_subtrees(last + 1, head.tree_size)}
    roots = _subtree_roots(wanted, spans[0][1] + 1, head.tree_size) if spans else {}
    archived = set(positions.values())
    runs = []
    for first, last in spans:
        leaves = [
            {"position": p, "event_seq": seq, "event_hash": h, "archived": p in archived}
            for p, seq, h in _leaves(first, last + 1)
        ]
        right = [roots[subtree] for subtree in aligned_subtrees(last + 1, head.tree_size)]
        runs.append(Run(first, _frontier_at(first).as_hex(), leaves, right))

    checkpoints = [
        checkpoint_record(c) for c in AuditCheckpoint.objects.filter(Q(shift__gaming_day=day) | Q(pk=head.pk))
    ]
    in_file = _witnessed(checkpoints)
    for record in checkpoints:
        record["in_checkpoint_file"] = record["signature"] in in_file
    head_record = next(r for r in checkpoints if r["signature"] == head.signature)
    return AuditSlice(events=records, head=head_record, runs=runs, checkpoints=checkpoints)
