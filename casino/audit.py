"""The audit log: recording chained events, checkpointing the chain's head, and verifying both.

Every event's hash is ``HMAC-SHA256(key, prev_hash + canonical_json)`` where the canonical JSON holds the
event's sequence number, UTC time, actor, type, subject, before/after and reason, serialised with sorted
keys and no whitespace, and the key is the one ``key_id`` names in ``TABLESIDE_AUDIT_KEYS`` (the first key
signs new events; keys live in the environment, never in the database; a key once replaced by a newer one
never signs a later event). Events written before the chain was keyed (``key_id`` "") hash with plain
SHA-256: they are accepted only up to ``TABLESIDE_AUDIT_UNKEYED_UNTIL`` (0 on an installation keyed from
its first event), a number kept outside the database, and the first keyed event covers them through its
``prev_hash``. The first event chains to 64 zeros. Writers take one lock for
the chain before reading its head (``casino.rows.chain_lock_and_head``, where its SQL is), so two
concurrent actions can never fork it.

A checkpoint (``audit_checkpoint_make``, at every shift close) signs the head (its sequence number and
hash) and is kept in the database, appended to the checkpoint file the settings name and printed in the
shift's reports: ``audit_chain_verify`` holds the chain to every checkpoint it is given, so a chain cut
short or rewritten after one is reported even by whoever holds the key.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models, transaction
from django.utils import timezone

from casino.events import AuditEventType
from casino.models import GENESIS_HASH, AuditCheckpoint, AuditEvent, Shift
from casino.records import rows_recorded, subject_type
from casino.rows import chain_lock_and_head, row_insert

SYSTEM_ACTOR = "system"


def _jsonable(value: Any) -> Any:
    """What the value looks like after a JSON round trip (as stored in the database)."""
    if value is None:
        return None
    return json.loads(json.dumps(value, cls=DjangoJSONEncoder))


def canonical_json(payload: Mapping[str, Any]) -> str:
    """The one serialisation the hash is computed over."""
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _payload(event: AuditEvent) -> dict[str, Any]:
    return {
        "seq": event.seq,
        "occurred_at": event.occurred_at.astimezone(dt.UTC).isoformat(timespec="microseconds"),
        "actor_id": event.actor_id,
        "actor_name": event.actor_name,
        "event_type": event.event_type,
        "subject_type": event.subject_type,
        "subject_id": event.subject_id,
        "before": event.before,
        "after": event.after,
        "reason": event.reason,
    } | ({"rows": event.rows} if event.rows is not None else {})


class UnknownKey(KeyError):
    """An event or checkpoint names a key this installation does not hold."""


def audit_keys() -> Mapping[str, str]:
    """The audit chain's keys by id, the one that signs new events first (``TABLESIDE_AUDIT_KEYS``)."""
    keys: Mapping[str, str] = settings.TABLESIDE_AUDIT_KEYS
    return keys


def _key(key_id: str) -> bytes:
    try:
        return audit_keys()[key_id].encode("utf-8")
    except KeyError:
        raise UnknownKey(key_id) from None


def current_key_id() -> str:
    return next(iter(audit_keys()))


def event_hash(*, prev_hash: str, event: AuditEvent) -> str:
    """The event's hash, as hex: HMAC-SHA256 under its key over the previous hash and its canonical JSON
    (plain SHA-256 for an event written before the chain was keyed, ``key_id`` "")."""
    message = (prev_hash + canonical_json(_payload(event))).encode("utf-8")
    if not event.key_id:
        return hashlib.sha256(message).hexdigest()
    return hmac.digest(_key(event.key_id), message, "sha256").hex()


def _subject_key(subject: models.Model | tuple[str, object]) -> tuple[str, str]:
    if isinstance(subject, models.Model):
        return subject_type(subject), str(subject.pk)
    kind, ident = subject
    return kind, str(ident)


def audit_event_record(
    *,
    actor: User | AnonymousUser | None,
    event_type: AuditEventType,
    subject: models.Model | tuple[str, object],
    before: Any = None,
    after: Any = None,
    reason: str = "",
    change: tuple[str, Sequence[Any]] | None = None,
    rows: Iterable[models.Model] = (),
    removed: Iterable[models.Model] = (),
) -> AuditEvent:
    """Append one event to the chain, inside the caller's transaction.

    Call it in the same ``transaction.atomic`` block as the change it records,
    so the change and its event commit or roll back together. ``change`` is that
    change as a statement not yet run, the UPDATE of one locked row
    (``casino.rows.update_statement``): it runs first, in the same round trip as the
    chain's lock where the driver allows, and must change exactly one row.
    """
    event_type = AuditEventType(event_type)  # a kind of event not listed is a bug: ValueError, nothing written
    subject_type, subject_id = _subject_key(subject)
    user = actor if actor is not None and actor.is_authenticated else None
    # No savepoint of its own: the event fails or succeeds with the change around it.
    with transaction.atomic(savepoint=False):
        last = chain_lock_and_head(change)
        event = AuditEvent(
            seq=(last[0] + 1) if last else 1,
            occurred_at=timezone.now(),
            actor=user,
            actor_name=user.get_username() if user is not None else SYSTEM_ACTOR,
            event_type=event_type.value,
            subject_type=subject_type,
            subject_id=subject_id,
            before=_jsonable(before),
            after=_jsonable(after),
            reason=reason,
            rows=rows_recorded(rows, removed),
            prev_hash=last[1] if last else GENESIS_HASH,
            key_id=current_key_id(),
        )
        event.hash = event_hash(prev_hash=event.prev_hash, event=event)
        row_insert(event)
    return event


# --- checkpoints ------------------------------------------------------------------------------------


def _checkpoint_message(seq: int, head_hash: str, made_at: str) -> bytes:
    # Its own prefix: a checkpoint's signature is never a valid event hash, nor the other way round.
    return f"tableside-audit-checkpoint|{seq}|{head_hash}|{made_at}".encode()


def _utc_text(moment: dt.datetime) -> str:
    return moment.astimezone(dt.UTC).isoformat(timespec="microseconds")


def checkpoint_signature(*, seq: int, head_hash: str, made_at: str, key_id: str) -> str:
    """HMAC-SHA256 of a checkpoint under the key ``key_id`` names, as hex."""
    return hmac.digest(_key(key_id), _checkpoint_message(seq, head_hash, made_at), "sha256").hex()


def checkpoint_record(checkpoint: AuditCheckpoint) -> dict[str, Any]:
    """A checkpoint as it is written outside the database (the file, the reports) and read back."""
    return {
        "seq": checkpoint.seq,
        "head_hash": checkpoint.head_hash,
        "made_at": _utc_text(checkpoint.made_at),
        "key_id": checkpoint.key_id,
        "signature": checkpoint.signature,
        "reason": checkpoint.reason,
        "shift": checkpoint.shift_id,
    }


def checkpoint_text(record: Mapping[str, Any]) -> str:
    """The one line a report prints and ``verify_audit --checkpoint`` reads back: seq:hash:made_at:key:signature."""
    return ":".join([str(record["seq"]), record["head_hash"], record["made_at"], record["key_id"], record["signature"]])


def _append_to_file(record: Mapping[str, Any]) -> None:
    path = getattr(settings, "TABLESIDE_AUDIT_CHECKPOINT_FILE", "")
    if not path:
        return
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(dict(record), sort_keys=True) + "\n")


def audit_checkpoint_make(*, reason: str, shift: Shift | None = None) -> AuditCheckpoint | None:
    """Sign the chain's head now, inside the caller's transaction: None while the chain is empty.

    The checkpoint is written to the database with the caller's change, and appended to the checkpoint
    file once that commits (a rolled-back close leaves no line behind).
    """
    with transaction.atomic(savepoint=False):
        last = chain_lock_and_head()
        if last is None:
            return None
        seq, head_hash = last
        made_at = timezone.now()
        key_id = current_key_id()
        checkpoint = AuditCheckpoint(
            seq=seq,
            head_hash=head_hash,
            made_at=made_at,
            key_id=key_id,
            signature=checkpoint_signature(seq=seq, head_hash=head_hash, made_at=_utc_text(made_at), key_id=key_id),
            shift=shift,
            reason=reason,
        )
        row_insert(checkpoint)
        record = checkpoint_record(checkpoint)
        transaction.on_commit(lambda: _append_to_file(record), robust=True)
    return checkpoint


def checkpoint_parse(text: str) -> dict[str, Any]:
    """A checkpoint as a report prints it (``checkpoint_text``), or just ``seq:head_hash``; ValueError if malformed."""
    parts = text.strip().split(":")
    # made_at holds colons of its own (an ISO time): the first two fields and the last two are fixed.
    if len(parts) == 2:
        seq, head_hash, made_at, key_id, signature = parts[0], parts[1], "", "", ""
    elif len(parts) >= 5:
        seq, head_hash, key_id, signature = parts[0], parts[1], parts[-2], parts[-1]
        made_at = ":".join(parts[2:-2])
    else:
        raise ValueError(f"a checkpoint is SEQ:HASH or SEQ:HASH:MADE_AT:KEY:SIGNATURE, not {text!r}")
    if not seq.isdigit() or len(head_hash) != 64 or any(c not in "0123456789abcdef" for c in head_hash):
        raise ValueError(f"a checkpoint starts with the event number and its 64-hex-digit hash, not {text!r}")
    return {"seq": int(seq), "head_hash": head_hash, "made_at": made_at, "key_id": key_id, "signature": signature}


def checkpoints_from_file(path: str | Path) -> list[dict[str, Any]]:
    """The checkpoints appended to a checkpoint file, in order; a line that is not one is reported as such."""
    records = []
    target = Path(path)
    if not target.is_file():
        return []
    for number, line in enumerate(target.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            written = json.loads(line)
            fields = [written[name] for name in ("seq", "head_hash", "made_at", "key_id", "signature")]
            if type(fields[0]) is not int or not all(isinstance(f, str) and ":" not in f for f in fields[3:]):
                raise ValueError("not a checkpoint")
            record = {**written, **checkpoint_parse(":".join(str(f) for f in fields))}
        except (ValueError, KeyError, TypeError):
            record = {"malformed": f"line {number} of {target}"}
        records.append({**record, "source": f"{target}, line {number}"})
    return records


# --- verifying --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChainReport:
    """The result of walking the audit chain and holding it to its checkpoints."""

    events_checked: int
    broken_event: AuditEvent | None = None
    problem: str = ""
    checkpoints_checked: int = 0
    checkpoint_problems: tuple[str, ...] = ()
    notes: tuple[str, ...] = field(default=())

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
                f"Audit chain intact: {self.events_checked} events verified, "
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
        return ""  # a bare seq:hash from a report: held to the chain, nothing to check on its own
    where = f"Checkpoint at event #{record['seq']} ({record['source']})"
    try:
        expected = checkpoint_signature(
            seq=record["seq"], head_hash=record["head_hash"], made_at=record["made_at"], key_id=record["key_id"]
        )
    except UnknownKey:
        return f"{where} names key {record['key_id']!r}, which this installation does not hold."
    if not hmac.compare_digest(expected, record["signature"]):
        return f"{where} has a signature that does not match: it was forged or altered."
    return ""


def audit_chain_verify(*, checkpoints: Iterable[Mapping[str, Any]] = ()) -> ChainReport:
    """Walk the whole chain from the first event; report the first broken link, then hold it to the checkpoints.

    An event is broken when its sequence number skips or repeats (an event was removed or inserted),
    when its ``prev_hash`` is not the previous event's hash, when its stored ``hash`` does not match its
    content under its key (the row was altered, or the chain recomputed without the key), when it was
    written without a key after ``TABLESIDE_AUDIT_UNKEYED_UNTIL``, or with a key older than one an earlier
    event used. Every broken event is listed (up to ``MAX_BREAKS_LISTED``), not only the first. The
    checkpoints are the database's, the checkpoint file's (settings) and ``checkpoints`` (read from a
    report); each must be validly signed (where it carries a signature) and name an event that exists with
    that very hash.
    """
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
    wanted: dict[int, list[Mapping[str, Any]]] = {}
    for record in valid:
        wanted.setdefault(record["seq"], []).append(record)

    expected_prev, expected_seq, checked = GENESIS_HASH, 1, 0
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
            unkeyed_until=unkeyed_until,
            older_key=rank.get(event.key_id, -1) > newest_used,
        )
        if problem:
            # Reported, then walked past: one bad event (a junk row anyone may INSERT) must not hide the next.
            breaks.append((event, problem))
            if len(breaks) > MAX_BREAKS_LISTED:
                break
        for signed in wanted.pop(event.seq, ()):
            if signed["head_hash"] != event.hash:
                problems.append(
                    f"Event #{event.seq} is not the event checkpoint {signed['source']} signed: the chain was "
                    f"rewritten after event #{last_good_checkpoint} (the last checkpoint that holds), at or before "
                    f"#{event.seq}; the first event that differs is one of #{last_good_checkpoint + 1} to #{event.seq}."
                )
            elif not problem:
                last_good_checkpoint = event.seq
        if not problem and event.key_id:
            newest_used = min(newest_used, rank[event.key_id])
        checked += 0 if breaks else 1  # verified before the first break
        expected_prev = event.hash
        expected_seq = event.seq + 1
    last_seq = expected_seq - 1
    if len(breaks) <= MAX_BREAKS_LISTED:
        for seq, records in sorted(wanted.items()):
            for signed in records:
                problems.append(
                    f"The chain ends at event #{last_seq}, but checkpoint {signed['source']} signed event "
                    f"#{seq}: events #{last_seq + 1} to #{seq} (at least) were removed."
                )
    notes = []
    anchored = max((r["seq"] for r in valid), default=0)
    if last_seq > anchored:
        notes.append(
            f"Note: the {last_seq - anchored} events after #{anchored} are not yet anchored outside the database "
            "(the next checkpoint, at a shift close or within 5 minutes, anchors them)."
        )
    broken = breaks[0] if breaks else None
    return ChainReport(
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
    )


MAX_BREAKS_LISTED = 20


def _link_problem(
    event: AuditEvent, *, expected_seq: int, expected_prev: str, unkeyed_until: int, older_key: bool
) -> str:
    """What is wrong with this event as the next link of the chain ("" if nothing)."""
    if event.seq != expected_seq:
        return f"sequence number {event.seq} where {expected_seq} was expected"
    if event.prev_hash != expected_prev:
        return "its previous-hash link does not match the event before it"
    if not event.key_id and event.seq > unkeyed_until:
        return (
            "it was written without the audit key, after the chain was keyed "
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
        f"Audit chain broken at event #{event.seq} (id {event.pk}, {event.event_type} on "
        f"{event.subject_type}:{event.subject_id}, {event.occurred_at.isoformat()}): {problem}"
    )
