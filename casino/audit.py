"""The audit log: recording events, folding them into a Merkle tree, signing its head, and verifying all of it.

Every event's hash is ``HMAC-SHA256(key, "tableside-audit-leaf|" + canonical_json)`` where the canonical JSON
holds the event's number, UTC time, actor, type, subject, before/after, reason and the records it wrote, serialised
with sorted keys and no whitespace, and the key is the one ``key_id`` names in ``TABLESIDE_AUDIT_KEYS`` (the first
key signs new events; keys live in the environment, never in the database; a key once replaced by a newer one never
signs a later event). A writer draws the event's number from a database sequence and inserts its row: it takes no
lock shared with any other writer, so the floor's writers never queue behind one another.

The sequencer (``audit_checkpoint_make``; Celery beat every ``TABLESIDE_AUDIT_ANCHOR_SECONDS``, the process that
wrote an event once that long has passed (a web worker once the request's answer is sent), every shift close,
``manage.py audit_checkpoint``) is the only one that takes a lock: it appends the events written since its last run,
in their numbers' order, as leaves of the log's Merkle tree (RFC 9162, ``casino.merkle``), signs the tree's head
(its size, root, last event and time) and hands it to the witnesses outside the database: the checkpoint file, and
any sink ``TABLESIDE_AUDIT_WITNESSES`` names (syslog, a callable). This is how certificate-transparency logs work
(RFC 6962, Trillian): leaves written in parallel, then sequenced by one sequencer into a tree whose signed heads
commit to every leaf before them.

``audit_log_verify`` checks every event's hash, then rebuilds the tree from its leaves and holds it to every
signed head it is given (the database's, the checkpoint file's, a report's): an event edited, removed, inserted or
reordered after a head was signed no longer gives its root, and is named, even by whoever holds the key. Events not
yet in a signed head (at most seconds old) are the tail that can still be cut unseen. ``audit_proof`` proves one
event is in a signed head (an inclusion proof) and that a later head extends an earlier one (a consistency proof),
which ``casino/merkle.py`` checks with the Python standard library alone.

Events written before the tree (``prev_hash`` set) form a hash chain, each hashed over the previous one's hash;
they are the tree's first leaves and are still held to their links and to the checkpoints that signed the chain's
head. Events written before the chain was keyed (``key_id`` "") hash with plain SHA-256: they are accepted only up
to ``TABLESIDE_AUDIT_UNKEYED_UNTIL``, a number kept outside the database. The first event chained to 64 zeros.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
import logging
import logging.handlers
from collections.abc import Iterable, Mapping, Sequence
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models, transaction
from django.db.models import Count, Exists, Max, Min, OuterRef
from django.utils import timezone
from django.utils.module_loading import import_string
from prometheus_client import Counter

from casino import merkle
from casino.events import AuditEventType
from casino.models import AuditCheckpoint, AuditEvent, AuditLeaf, Shift
from casino.records import rows_recorded, subject_type
from casino.rows import audit_event_insert, row_insert, sequencer_lock

SYSTEM_ACTOR = "system"
LEAF_PREFIX = "tableside-audit-leaf|"
logger = logging.getLogger(__name__)


def _jsonable(value: Any) -> Any:
    """What the value looks like after a JSON round trip (as stored in the database)."""
    if value is None:
        return None
    return json.loads(json.dumps(value, cls=DjangoJSONEncoder))


def canonical_json(payload: Mapping[str, Any]) -> str:
    """The one serialisation the hash is computed over."""
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _payload(event: AuditEvent) -> dict[str, Any]:
    """What the event's hash covers. Its number only for an event of the chain the log began as: a leaf's number is
    drawn by the database as the row is written, after the hash, and the log's tree binds it to the hash
    (``leaf_data``)."""
    numbered = {"seq": event.seq} if event.prev_hash else {}
    return (
        numbered
        | {
            "occurred_at": event.occurred_at.astimezone(dt.UTC).isoformat(timespec="microseconds"),
            "actor_id": event.actor_id,
            "actor_name": event.actor_name,
            "event_type": event.event_type,
            "subject_type": event.subject_type,
            "subject_id": event.subject_id,
            "before": event.before,
            "after": event.after,
            "reason": event.reason,
        }
        | ({"rows": event.rows} if event.rows is not None else {})
    )


class UnknownKey(KeyError):
    """An event or checkpoint names a key this installation does not hold."""


def audit_keys() -> Mapping[str, str]:
    """The audit log's keys by id, the one that signs new events first (``TABLESIDE_AUDIT_KEYS``)."""
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
    """The event's hash, as hex: HMAC-SHA256 under its key over its canonical JSON (``prev_hash`` ""), or, for an
    event of the chain the log began as, over the previous event's hash and its canonical JSON with its number (plain
    SHA-256 for an event written before the chain was keyed, ``key_id`` "")."""
    text = canonical_json(_payload(event))
    message = (prev_hash + text if prev_hash else LEAF_PREFIX + text).encode("utf-8")
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
    """Append one event to the log, inside the caller's transaction.

    Call it in the same ``transaction.atomic`` block as the change it records,
    so the change and its event commit or roll back together. ``change`` is that
    change as a statement not yet run, the UPDATE of one locked row
    (``casino.rows.update_statement``): it runs first, in the same round trip as
    drawing the event's number where the driver allows, and must change exactly one row.
    """
    event_type = AuditEventType(event_type)  # a kind of event not listed is a bug: ValueError, nothing written
    subject_type, subject_id = _subject_key(subject)
    user = actor if actor is not None and actor.is_authenticated else None
    # No savepoint of its own: the event fails or succeeds with the change around it.
    with transaction.atomic(savepoint=False):
        event = AuditEvent(
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
            prev_hash="",
            key_id=current_key_id(),
        )
        event.hash = event_hash(prev_hash="", event=event)
        while audit_event_insert(event, change) is None:  # its number drawn by the INSERT itself
            # The same fact, by the same actor, stored at the same microsecond (two tablets, two workers): it would
            # hash alike, so this one is stamped a microsecond later; the change it records has run already.
            event.occurred_at += dt.timedelta(microseconds=1)
            event.hash = event_hash(prev_hash="", event=event)
            change = None
        transaction.on_commit(audit_log_sequence_if_due, robust=True)
    return event


# --- the sequencer and its signed heads -------------------------------------------------------------

# The sequencer looks for events not yet in the tree among the last this many numbers before the newest leaf's
# (a write that commits later than this many newer ones is found by ``audit_log_verify``, which reads them all).
SEQUENCER_WINDOW = 100_000


def leaf_data(seq: int, stored_hash: str) -> bytes:
    """A leaf's data: the event's number and its stored hash, bound together (``casino.merkle.leaf_of``). A hash
    that is not 64 hex digits (only a row written past the application has one) is taken as text: the tree still
    builds, and ``audit_log_verify`` names the event."""
    return merkle.leaf_of(seq, stored_hash)


def _checkpoint_message(seq: int, head_hash: str, made_at: str) -> bytes:
    # Its own prefix: a checkpoint's signature is never a valid event hash, nor the other way round.
    return f"tableside-audit-checkpoint|{seq}|{head_hash}|{made_at}".encode()


def utc_text(moment: dt.datetime) -> str:
    return moment.astimezone(dt.UTC).isoformat(timespec="microseconds")


def checkpoint_signature(
    *, seq: int, head_hash: str, made_at: str, key_id: str, tree_size: int = 0, root_hash: str = ""
) -> str:
    """HMAC-SHA256 of a checkpoint under the key ``key_id`` names, as hex: a signed tree head, or (``tree_size``
    0) a head of the chain the log began as."""
    if tree_size:
        return merkle.tree_head_signature(
            key=_key(key_id), size=tree_size, root=root_hash, seq=seq, head_hash=head_hash, made_at=made_at
        )
    return hmac.digest(_key(key_id), _checkpoint_message(seq, head_hash, made_at), "sha256").hex()


def checkpoint_record(checkpoint: AuditCheckpoint) -> dict[str, Any]:
    """A checkpoint as it is written outside the database (the file, the reports, a witness) and read back."""
    return {
        "seq": checkpoint.seq,
        "head_hash": checkpoint.head_hash,
        "tree_size": checkpoint.tree_size,
        "root_hash": checkpoint.root_hash,
        "made_at": utc_text(checkpoint.made_at),
        "key_id": checkpoint.key_id,
        "signature": checkpoint.signature,
        "reason": checkpoint.reason,
        "shift": checkpoint.shift_id,
    }


def checkpoint_text(record: Mapping[str, Any]) -> str:
    """The one line a report prints and ``verify_audit --checkpoint`` reads back:
    SIZE:ROOT:SEQ:HASH:MADE_AT:KEY:SIGNATURE for a tree head, SEQ:HASH:MADE_AT:KEY:SIGNATURE for a chain head."""
    tail = [str(record["seq"]), record["head_hash"], record["made_at"], record["key_id"], record["signature"]]
    if record.get("tree_size"):
        return ":".join([str(record["tree_size"]), record["root_hash"], *tail])
    return ":".join(tail)


def _witness_file(record: Mapping[str, Any]) -> None:
    path = getattr(settings, "TABLESIDE_AUDIT_CHECKPOINT_FILE", "")
    if not path:
        return
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(dict(record), sort_keys=True) + "\n")


def witness_syslog(record: Mapping[str, Any]) -> None:
    """A witness: the signed head as one line to syslog (``TABLESIDE_AUDIT_SYSLOG_ADDRESS``, host:port over UDP, or
    the local /dev/log), where the log server of the casino's IT keeps it out of the database's reach."""
    address = getattr(settings, "TABLESIDE_AUDIT_SYSLOG_ADDRESS", "")
    host, _, port = address.rpartition(":")
    handler = logging.handlers.SysLogHandler(address=(host, int(port)) if host else "/dev/log")
    try:
        handler.emit(
            logging.LogRecord(
                "tableside.audit",
                logging.INFO,
                __file__,
                0,
                "tableside-audit-head %s",
                (json.dumps(dict(record), sort_keys=True),),
                None,
            )
        )
    finally:
        handler.close()


_WITNESS_NAMES = {"syslog": "casino.audit.witness_syslog"}


WITNESS_FAILURES = Counter(
    "tableside_audit_witness_failures",
    "Signed heads a witness outside the database did not take, by witness.",
    ["witness"],
)
# When this process last failed to hand a head to a witness, by witness; cleared by the next head it hands over.
_witness_failing_since: dict[str, dt.datetime] = {}


def audit_witnesses_failing() -> dict[str, dt.datetime]:
    """The witnesses this process's last hand-over to failed, with when the failures began (``/readyz``)."""
    return dict(_witness_failing_since)


def _witness(record: Mapping[str, Any]) -> None:
    """Hand a signed head to every witness outside the database: the checkpoint file, then each sink the settings
    name. One that fails is logged, counted and remembered until it takes a head again (``/readyz`` says so); the
    others still get it, and the database keeps the head."""
    for name in ["file", *getattr(settings, "TABLESIDE_AUDIT_WITNESSES", [])]:
        try:
            sink = _witness_file if name == "file" else import_string(_WITNESS_NAMES.get(name, name))
            sink(record)
        except Exception:
            logger.exception("audit head at %s leaves not handed to witness %s", record.get("tree_size"), name)
            WITNESS_FAILURES.labels(name).inc()
            _witness_failing_since.setdefault(name, timezone.now())
        else:
            _witness_failing_since.pop(name, None)


def _frontier_at(size: int, last: AuditCheckpoint | None) -> merkle.Frontier:
    """The tree's compact range at ``size`` leaves: the last head's, when it holds, else rebuilt from the leaves."""
    if last is not None and last.tree_size == size and isinstance(last.frontier, list):
        try:
            frontier = merkle.Frontier(size, [bytes.fromhex(str(h)) for h in last.frontier])
            if frontier.root().hex() == last.root_hash:
                return frontier
        except ValueError:
            pass
        logger.error("the audit log's last head does not hold its own frontier: rebuilt from the leaves")
    frontier = merkle.Frontier()
    for seq, stored in AuditLeaf.objects.order_by("position").values_list("event_seq", "event_hash").iterator(5000):
        frontier.append(leaf_data(seq, stored))
    return frontier


def audit_checkpoint_make(
    *, reason: str, shift: Shift | None = None, wait: bool = True, only_if_moved: bool = False
) -> AuditCheckpoint | None:
    """Sequence the events written since the last run into the log's tree and sign its head, inside the caller's
    transaction: None while the log is empty, when ``only_if_moved`` and nothing was written since, or when
    ``wait`` is False and another sequencer is at work. The head is handed to the witnesses once this commits (a
    rolled-back close leaves no line behind). Only sequencers take its lock: writers never wait for it."""
    with transaction.atomic(savepoint=False):
        if not sequencer_lock(wait=wait):
            return None
        last = AuditCheckpoint.objects.filter(tree_size__gt=0).order_by("-tree_size", "-pk").first()
        top = AuditLeaf.objects.aggregate(position=Max("position"), seq=Max("event_seq"))
        size = 0 if top["position"] is None else top["position"] + 1
        new = list(
            AuditEvent.objects.filter(seq__gt=max((top["seq"] or 0) - SEQUENCER_WINDOW, 0))
            .filter(~Exists(AuditLeaf.objects.filter(event_seq=OuterRef("seq"))))
            .order_by("seq")
            .values_list("seq", "hash")
        )
        if not new and (only_if_moved or size == 0):
            return None
        frontier = _frontier_at(size, last)
        AuditLeaf.objects.bulk_create(
            [AuditLeaf(position=size + i, event_seq=seq, event_hash=hash_) for i, (seq, hash_) in enumerate(new)],
            batch_size=2000,
        )
        for seq, hash_ in new:
            frontier.append(leaf_data(seq, hash_))
        if new:
            seq, head_hash = new[-1]
        else:
            seq, head_hash = AuditLeaf.objects.filter(position=size - 1).values_list("event_seq", "event_hash").get()
        made_at, key_id, root = timezone.now(), current_key_id(), frontier.root().hex()
        checkpoint = AuditCheckpoint(
            seq=seq,
            head_hash=head_hash,
            tree_size=frontier.size,
            root_hash=root,
            frontier=frontier.as_hex(),
            made_at=made_at,
            key_id=key_id,
            signature=checkpoint_signature(
                seq=seq,
                head_hash=head_hash,
                made_at=utc_text(made_at),
                key_id=key_id,
                tree_size=frontier.size,
                root_hash=root,
            ),
            shift=shift,
            reason=reason,
        )
        row_insert(checkpoint)
        record = checkpoint_record(checkpoint)
        transaction.on_commit(lambda: _witness(record), robust=True)
    return checkpoint


_last_sequenced_here: list[dt.datetime] = []
# Whether this thread is answering a request (between Django's ``request_started`` and ``request_finished``), and
# whether a write in it made the sequencing due: it then runs once the answer has gone (``audit_after_answer``).
_answering: ContextVar[bool] = ContextVar("tableside_audit_answering", default=False)
_due_after_answer: ContextVar[bool] = ContextVar("tableside_audit_due_after_answer", default=False)


def audit_log_sequence_if_due() -> None:
    """After a write commits: sequence the log and anchor its head if this process has not tried for
    ``TABLESIDE_AUDIT_ANCHOR_SECONDS`` (and no other sequencer is at work: it never waits). With Celery beat doing
    the same on the same period, no event stays out of a signed head outside the database for long.

    Inside a request it waits for the request's answer to be sent (``audit_after_answer``): the dealer whose tap
    made it due does not wait for it (a checkpoint folds a few seconds of the floor's events, signs the head and
    writes it to the witnesses); a task, a command or a shell sequences at once."""
    if not getattr(settings, "TABLESIDE_AUDIT_SEQUENCE_AFTER_WRITES", True):
        return
    now = timezone.now()
    every = dt.timedelta(seconds=float(settings.TABLESIDE_AUDIT_ANCHOR_SECONDS))
    if _last_sequenced_here and now - _last_sequenced_here[0] < every:
        return
    _last_sequenced_here[:] = [now]
    if _answering.get():
        _due_after_answer.set(True)
        return
    _sequence_after_writes()


def _sequence_after_writes() -> None:
    with transaction.atomic():
        audit_checkpoint_make(reason="within seconds of a write", wait=False, only_if_moved=True)


def audit_request_started(**_kwargs: Any) -> None:
    """``request_started``: this thread answers a request; a sequencing its writes make due waits for the answer."""
    _answering.set(True)
    _due_after_answer.set(False)


def audit_after_answer(**_kwargs: Any) -> None:
    """``request_finished`` (sent when the server closes the answer, after its last byte went out): the sequencing a
    write of the request made due runs now. A failure is logged, as an on-commit hook's is: the answer has gone, the
    write is committed, and beat's sequencer anchors the events on its next tick."""
    _answering.set(False)
    if not _due_after_answer.get():
        return
    _due_after_answer.set(False)
    try:
        _sequence_after_writes()
    except Exception:
        logger.exception("The audit log's sequencing after a request failed; beat's sequencer will anchor its events.")


def audit_unanchored_tail() -> tuple[int, dt.datetime | None]:
    """How many events are not yet in a signed head, and when the oldest of them was written (None: every event
    is): the tail that whoever controls the database could still cut unseen."""
    top = AuditLeaf.objects.aggregate(seq=Max("event_seq"))["seq"] or 0
    tail = (
        AuditEvent.objects.filter(seq__gt=max(top - SEQUENCER_WINDOW, 0))
        .filter(~Exists(AuditLeaf.objects.filter(event_seq=OuterRef("seq"))))
        .aggregate(events=Count("seq"), oldest=Min("occurred_at"))
    )
    return int(tail["events"]), tail["oldest"]


def audit_unanchored_since() -> dt.datetime | None:
    """When the oldest event not yet in a signed head was written (None: every event is)."""
    return audit_unanchored_tail()[1]


def checkpoint_parse(text: str) -> dict[str, Any]:
    """A checkpoint as a report prints it (``checkpoint_text``), or just ``seq:head_hash``; ValueError if malformed."""
    parts = text.strip().split(":")
    tree_size, root_hash = 0, ""
    # A tree head starts with its size and a 64-hex-digit root, then the chain head's fields.
    if len(parts) >= 7 and parts[0].isdigit() and parts[2].isdigit() and _is_hash(parts[1]):
        tree_size, root_hash, parts = int(parts[0]), parts[1], parts[2:]
    # made_at holds colons of its own (an ISO time): the first two fields and the last two are fixed.
    if len(parts) == 2:
        seq, head_hash, made_at, key_id, signature = parts[0], parts[1], "", "", ""
    elif len(parts) >= 5:
        seq, head_hash, key_id, signature = parts[0], parts[1], parts[-2], parts[-1]
        made_at = ":".join(parts[2:-2])
    else:
        raise ValueError(f"a checkpoint is SEQ:HASH or SEQ:HASH:MADE_AT:KEY:SIGNATURE, not {text!r}")
    if not seq.isdigit() or not _is_hash(head_hash):
        raise ValueError(f"a checkpoint starts with the event number and its 64-hex-digit hash, not {text!r}")
    return {
        "seq": int(seq),
        "head_hash": head_hash,
        "tree_size": tree_size,
        "root_hash": root_hash,
        "made_at": made_at,
        "key_id": key_id,
        "signature": signature,
    }


def _is_hash(text: str) -> bool:
    return len(text) == 64 and all(c in "0123456789abcdef" for c in text)


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
            tree = [written.get("tree_size", 0), written.get("root_hash", "")]
            if type(fields[0]) is not int or not all(isinstance(f, str) and ":" not in f for f in fields[3:]):
                raise ValueError("not a checkpoint")
            if type(tree[0]) is not int or tree[0] < 0 or not isinstance(tree[1], str) or ":" in tree[1]:
                raise ValueError("not a checkpoint")
            text = ":".join(str(f) for f in ([*tree, *fields] if tree[0] else fields))
            record = {**written, **checkpoint_parse(text)}
        except (ValueError, KeyError, TypeError):
            record = {"malformed": f"line {number} of {target}"}
        records.append({**record, "source": f"{target}, line {number}"})
    return records
