"""Verifying the audit log: every event's hash, its Merkle tree held to every signed head, and the proofs an auditor
takes away (``casino.audit`` records the events, sequences them and signs the heads; README, "The audit trail").
"""

from __future__ import annotations

import hmac
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from casino import merkle
from casino.audit import (
    UnknownKey,
    audit_keys,
    audit_unanchored_since,
    checkpoint_record,
    checkpoint_signature,
    checkpoints_from_file,
    event_hash,
    leaf_data,
    utc_text,
)
from casino.models import GENESIS_HASH, AuditCheckpoint, AuditEvent, AuditLeaf

# --- verifying --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LogReport:
    """The result of checking every event of the audit log and holding its tree to its signed heads."""

    events_checked: int
    broken_event: AuditEvent | None = None
    problem: str = ""
    checkpoints_checked: int = 0
    checkpoint_problems: tuple[str, ...] = ()
    notes: tuple[str, ...] = field(default=())
    leaves: int = 0

    @property
    def ok(self) -> bool:
        return self.broken_event is None and not self.checkpoint_problems

    def describe(self) -> str:
        lines = []
        if self.broken_event is not None:
            lines.append(_break_text(self.broken_event, self.problem))
        lines.extend(self.checkpoint_problems)
        if self.ok:
            lines.append(
                f"Audit log intact: {self.events_checked} events verified, {self.leaves} in its tree, "
                f"held to {self.checkpoints_checked} checkpoint{'s' if self.checkpoints_checked != 1 else ''}."
            )
        lines.extend(self.notes)
        return "\n".join(lines)


def _events_in_order(queryset: models.QuerySet[AuditEvent]) -> Iterator[AuditEvent]:
    return queryset.order_by("seq").iterator(chunk_size=2000)


def _checkpoint_problem(record: Mapping[str, Any]) -> str:
    """What is wrong with a checkpoint itself ("" if nothing): malformed, or a signature that does not hold."""
    if "malformed" in record:
        return f"Checkpoint at {record['malformed']} is not a checkpoint."
    if not record.get("signature"):
        return ""  # a bare seq:hash from a report: held to the log, nothing to check on its own
    where = f"Checkpoint at event #{record['seq']} ({record['source']})"
    try:
        expected = checkpoint_signature(
            seq=record["seq"],
            head_hash=record["head_hash"],
            made_at=record["made_at"],
            key_id=record["key_id"],
            tree_size=record.get("tree_size", 0),
            root_hash=record.get("root_hash", ""),
        )
    except UnknownKey:
        return f"{where} names key {record['key_id']!r}, which this installation does not hold."
    if not hmac.compare_digest(expected, record["signature"]):
        return f"{where} has a signature that does not match: it was forged or altered."
    return ""


def _gathered_checkpoints(checkpoints: Iterable[Mapping[str, Any]]) -> tuple[list[dict[str, Any]], list[str]]:
    """Every checkpoint known (given, the database's, the checkpoint file's): the valid ones, and the problems."""
    given = [dict(c, source=c.get("source", "given on the command line")) for c in checkpoints]
    stored = [
        {**checkpoint_record(c), "source": f"the database, checkpoint id {c.pk}"}
        for c in AuditCheckpoint.objects.order_by("seq", "pk")
    ]
    path = getattr(settings, "TABLESIDE_AUDIT_CHECKPOINT_FILE", "")
    filed = checkpoints_from_file(path) if path else []
    problems = [p for p in (_checkpoint_problem(r) for r in [*given, *stored, *filed]) if p]
    valid = [r for r in [*given, *stored, *filed] if "malformed" not in r and not _checkpoint_problem(r)]
    # A checkpoint in the file that the database no longer holds was deleted from it.
    in_db = {(r["seq"], r["head_hash"], r["signature"]) for r in stored}
    for record in filed:
        if "malformed" not in record and (record["seq"], record["head_hash"], record["signature"]) not in in_db:
            where = f"Checkpoint at event #{record['seq']} ({record['source']})"
            problems.append(f"{where} is missing from the database's checkpoints.")
    return valid, problems


def audit_log_verify(*, checkpoints: Iterable[Mapping[str, Any]] = ()) -> LogReport:
    """Check every event, then rebuild the log's tree from its leaves and hold it to every signed head.

    An event is broken when its stored ``hash`` does not match its content under its key (the row was altered, or
    hashed again without the key), when it was written without a key after ``TABLESIDE_AUDIT_UNKEYED_UNTIL``, or
    with a key older than one an earlier event used; an event of the chain the log began as also when its number
    skips or repeats or its ``prev_hash`` is not the previous event's hash. Every broken event is listed (up to
    ``MAX_BREAKS_LISTED``), not only the first. The tree: every leaf in place, each holding its event's hash, and
    the root of its first N leaves the one every head of N leaves signed; a head signing more leaves than the log
    holds names the leaves removed. The heads are the database's, the checkpoint file's (settings) and
    ``checkpoints`` (read from a report); each must be validly signed where it carries a signature.
    """
    valid, problems = _gathered_checkpoints(checkpoints)
    chain_heads: dict[int, list[Mapping[str, Any]]] = {}
    tree_heads: dict[int, list[Mapping[str, Any]]] = {}
    for record in valid:
        if record.get("tree_size"):
            tree_heads.setdefault(record["tree_size"], []).append(record)
        chain_heads.setdefault(record["seq"], []).append(record)

    expected_prev, expected_seq, checked, last_seq = GENESIS_HASH, 1, 0, 0
    unkeyed_until = int(getattr(settings, "TABLESIDE_AUDIT_UNKEYED_UNTIL", 0))
    rank = {key_id: index for index, key_id in enumerate(audit_keys())}  # 0: the newest key
    newest_used = len(rank)  # the newest key an event used so far: no later event uses an older one
    breaks: list[tuple[AuditEvent, str]] = []
    last_good_checkpoint = 0
    for event in _events_in_order(AuditEvent.objects.all()):
        problem = _link_problem(
            event,
            expected_seq=expected_seq,
            expected_prev=expected_prev,
            last_seq=last_seq,
            unkeyed_until=unkeyed_until,
            older_key=rank.get(event.key_id, -1) > newest_used,
        )
        if problem:
            # Reported, then walked past: one bad event (a junk row anyone may INSERT) must not hide the next.
            breaks.append((event, problem))
            if len(breaks) > MAX_BREAKS_LISTED:
                break
        for signed in chain_heads.pop(event.seq, ()):
            if signed["head_hash"] != event.hash:
                problems.append(
                    f"Event #{event.seq} is not the event checkpoint {signed['source']} signed: the log was "
                    f"rewritten after event #{last_good_checkpoint} (the last checkpoint that holds), at or before "
                    f"#{event.seq}; the first event that differs is one of #{last_good_checkpoint + 1} to #{event.seq}."
                )
            elif not problem:
                last_good_checkpoint = event.seq
        if not problem and event.key_id:
            newest_used = min(newest_used, rank[event.key_id])
        checked += 0 if breaks else 1  # verified before the first break
        if event.prev_hash:  # the chain the log began as
            expected_prev, expected_seq = event.hash, event.seq + 1
        last_seq = event.seq
    if len(breaks) <= MAX_BREAKS_LISTED:
        for seq, records in sorted(chain_heads.items()):
            for signed in records:
                if signed.get("tree_size"):
                    problems.append(f"Event #{seq}, the last event checkpoint {signed['source']} signed, was removed.")
                else:
                    problems.append(
                        f"The chain ends at event #{last_seq}, but checkpoint {signed['source']} signed event "
                        f"#{seq}: events #{last_seq + 1} to #{seq} (at least) were removed."
                    )
    leaves, tree_problems = _tree_held_to_heads(tree_heads)
    problems.extend(tree_problems)
    notes = []
    oldest = audit_unanchored_since()
    if oldest is not None:
        age = max((timezone.now() - oldest).total_seconds(), 0.0)
        notes.append(
            f"Note: events written since {utc_text(oldest)} ({age:.0f} s ago) are not yet in a signed head "
            f"outside the database (the sequencer anchors them within {settings.TABLESIDE_AUDIT_ANCHOR_SECONDS:g} s)."
        )
    broken = breaks[0] if breaks else None
    return LogReport(
        events_checked=checked,
        broken_event=broken[0] if broken else None,
        problem=broken[1] if broken else "",
        checkpoints_checked=len(valid),
        checkpoint_problems=tuple(
            [_break_text(event, problem) for event, problem in breaks[1:MAX_BREAKS_LISTED]]
            + (["… and more broken events after these."] if len(breaks) > MAX_BREAKS_LISTED else [])
            + problems
        ),
        notes=tuple(notes),
        leaves=leaves,
    )


def _leaves_with_their_events() -> Iterator[tuple[int, int, str, str | None]]:
    """Every leaf in the tree's order: (position, event number, the hash it holds, its event's stored hash or
    None when the event is gone)."""
    stored = AuditEvent.objects.filter(seq=OuterRef("event_seq")).values("hash")[:1]
    return (
        AuditLeaf.objects.order_by("position")
        .annotate(stored=Subquery(stored))
        .values_list("position", "event_seq", "event_hash", "stored")
        .iterator(chunk_size=5000)
    )


def _tree_held_to_heads(tree_heads: dict[int, list[Mapping[str, Any]]]) -> tuple[int, list[str]]:
    """Rebuild the tree from its leaves; hold it to every signed head. (The leaves, the problems.)"""
    problems: list[str] = []
    frontier, expected, last_good = merkle.Frontier(), 0, 0
    for position, seq, leaf_hash, stored in _leaves_with_their_events():
        if position != expected:
            problems.append(
                f"Leaves #{expected + 1} to #{position} of the audit log are missing: they were removed."
                if position > expected
                else f"Leaf #{position + 1} of the audit log appears twice."
            )
        if stored is None:
            problems.append(f"Event #{seq} was removed: leaf #{position + 1} of the audit log still holds it.")
        elif stored != leaf_hash:
            problems.append(f"Event #{seq} is not the event leaf #{position + 1} of the audit log holds: rewritten.")
        frontier.append(leaf_data(seq, leaf_hash))
        expected = max(expected, position + 1)
        for head in tree_heads.pop(frontier.size, ()):
            if frontier.root().hex() == head["root_hash"]:
                last_good = max(last_good, frontier.size)
                continue
            since = (
                f"it does not extend the checkpoint of {last_good} leaves, or the log was rewritten after leaf "
                f"#{last_good} (the last checkpoint that holds)"
                if last_good
                else "the log was rewritten"
            )
            problems.append(
                f"Checkpoint of {frontier.size} leaves ({head['source']}) signs a root the log's first "
                f"{frontier.size} leaves do not give: {since}, at or before leaf #{frontier.size}."
            )
    for size, heads in sorted(tree_heads.items()):
        for head in heads:
            problems.append(
                f"The audit log ends at leaf #{frontier.size}, but checkpoint {head['source']} signed {size} leaves "
                f"(up to event #{head['seq']}): leaves #{frontier.size + 1} to #{size} were removed."
            )
    return frontier.size, problems


MAX_BREAKS_LISTED = 20


def _link_problem(
    event: AuditEvent,
    *,
    expected_seq: int,
    expected_prev: str,
    last_seq: int,
    unkeyed_until: int,
    older_key: bool,
) -> str:
    """What is wrong with this event ("" if nothing)."""
    if event.prev_hash:  # an event of the chain the log began as
        if event.seq != expected_seq:
            return f"sequence number {event.seq} where {expected_seq} was expected"
        if event.prev_hash != expected_prev:
            return "its previous-hash link does not match the event before it"
    elif event.seq <= last_seq:
        return f"sequence number {event.seq} appears twice"
    if not event.key_id and (event.seq > unkeyed_until or not event.prev_hash):
        return (
            "it was written without the audit key, after the log was keyed "
            f"(TABLESIDE_AUDIT_UNKEYED_UNTIL={unkeyed_until}): a forged event"
        )
    if older_key:
        return f"it is signed with key {event.key_id!r}, older than a key an earlier event used: a retired key reused"
    try:
        matches = hmac.compare_digest(event_hash(prev_hash=event.prev_hash, event=event), event.hash)
    except UnknownKey:
        return f"it names key {event.key_id!r}, which this installation does not hold"
    return "" if matches else "its stored hash does not match its content (the row was altered)"


def _break_text(event: AuditEvent, problem: str) -> str:
    return (
        f"Audit log broken at event #{event.seq} (id {event.pk}, {event.event_type} on "
        f"{event.subject_type}:{event.subject_id}, {event.occurred_at.isoformat()}): {problem}"
    )


# --- proofs -----------------------------------------------------------------------------------------


class ProofRefused(ValueError):
    """A proof that cannot be made: the event or checkpoint is not in the log. Its message says why."""


def _leaf_hashes(size: int) -> list[bytes]:
    return [
        leaf_data(seq, h)
        for seq, h in AuditLeaf.objects.filter(position__lt=size)
        .order_by("position")
        .values_list("event_seq", "event_hash")
        .iterator(chunk_size=5000)
    ]


def _head(size: int | None) -> AuditCheckpoint:
    heads = AuditCheckpoint.objects.filter(tree_size__gt=0).order_by("-tree_size", "-pk")
    head = heads.filter(tree_size=size).first() if size is not None else heads.first()
    if head is None:
        raise ProofRefused(
            f"No checkpoint signs a tree of {size} leaves." if size is not None else "No checkpoint signs the tree yet."
        )
    return head


def audit_inclusion_proof(seq: int, *, tree_size: int | None = None) -> dict[str, Any]:
    """That event ``seq`` is in the tree a signed head (the latest, or the one of ``tree_size`` leaves) commits to:
    its leaf, the audit path and the head, as ``casino/merkle.py`` checks them."""
    leaf = AuditLeaf.objects.filter(event_seq=seq).first()
    if leaf is None:
        raise ProofRefused(f"Event #{seq} is not in the audit log's tree (not written, or not yet sequenced).")
    head = _head(tree_size)
    if leaf.position >= head.tree_size:
        raise ProofRefused(f"Event #{seq} is leaf #{leaf.position + 1}, after the {head.tree_size} leaves signed.")
    path = merkle.Tree(_leaf_hashes(head.tree_size)).inclusion(leaf.position, head.tree_size)
    return {
        "kind": "inclusion",
        "event_seq": seq,
        "event_hash": leaf.event_hash,
        "leaf_index": leaf.position,
        "path": [h.hex() for h in path],
        "checkpoint": checkpoint_record(head),
    }


def audit_consistency_proof(first: int, second: int | None = None) -> dict[str, Any]:
    """That the signed head of ``second`` leaves (the latest when None) extends the one of ``first`` leaves."""
    earlier, later = _head(first), _head(second)
    if earlier.tree_size > later.tree_size:
        raise ProofRefused(f"A tree of {later.tree_size} leaves cannot extend one of {earlier.tree_size}.")
    path = merkle.Tree(_leaf_hashes(later.tree_size)).consistency(earlier.tree_size, later.tree_size)
    return {
        "kind": "consistency",
        "first": checkpoint_record(earlier),
        "second": checkpoint_record(later),
        "path": [h.hex() for h in path],
    }


def audit_proof_check(proof: Mapping[str, Any]) -> list[str]:
    """A proof checked with this installation's keys, and its checkpoints against the log's own signed heads."""
    keys = {key_id: secret.encode("utf-8") for key_id, secret in audit_keys().items()}
    problems = merkle.proof_check(dict(proof), keys)
    heads = [proof.get("checkpoint")] if proof.get("kind") == "inclusion" else [proof.get("first"), proof.get("second")]
    for head in heads:
        if isinstance(head, Mapping) and not problems:
            size = int(head.get("tree_size") or 0)
            ours = AuditCheckpoint.objects.filter(tree_size=size, root_hash=str(head.get("root_hash"))).exists()
            if not ours:
                problems.append(f"this log holds no checkpoint of {size} leaves with the proof's root")
    return problems
