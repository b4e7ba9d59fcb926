"""The audit log's Merkle tree: its roots and proofs are RFC 9162's, an auditor checks a proof with the standard
library alone, a forked or rewritten tree is named, and no event stays out of a signed head for long."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import secrets
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.handlers.wsgi import WSGIHandler, WSGIRequest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, transaction
from django.http import HttpResponse
from django.test import RequestFactory
from django.utils import timezone
from rest_framework.authtoken.models import Token

from casino import audit, audit_verify, merkle
from casino.audit import (
    audit_checkpoint_make,
    audit_event_record,
    audit_unanchored_since,
    checkpoint_signature,
)
from casino.audit_verify import audit_log_verify
from casino.events import AuditEventType
from casino.models import AuditCheckpoint, AuditLeaf
from casino.rows import row_insert
from casino.tasks import audit_sequence_task
from tests.guards import tamper

MERKLE = Path(merkle.__file__)


def _reference_root(leaves: list[bytes]) -> bytes:
    """MTH as RFC 9162 section 2.1.1 defines it, word for word."""
    if not leaves:
        return hashlib.sha256(b"").digest()
    if len(leaves) == 1:
        return hashlib.sha256(b"\x00" + leaves[0]).digest()
    k = 1
    while k * 2 < len(leaves):
        k *= 2
    return hashlib.sha256(b"\x01" + _reference_root(leaves[:k]) + _reference_root(leaves[k:])).digest()


def test_the_root_is_rfc_9162s_and_every_proof_of_every_leaf_of_every_size_holds() -> None:
    leaves = [hashlib.sha256(str(n).encode()).digest() for n in range(40)]
    tree = merkle.Tree(leaves)
    for size in range(1, 41):
        root = _reference_root(leaves[:size])
        assert merkle.root_of(leaves[:size]) == root == tree.hash(0, size)
        for index in range(size):
            path = tree.inclusion(index, size)
            assert merkle.inclusion_holds(leaves[index], index, size, path, root)
            assert not merkle.inclusion_holds(leaves[(index + 1) % 40], index, size, path, root)
        for first in range(1, size + 1):
            proof = tree.consistency(first, size)
            assert merkle.consistency_holds(first, size, _reference_root(leaves[:first]), root, proof)
            if first < size:
                forked = _reference_root([b"\xff" * 32, *leaves[1:first]])
                assert not merkle.consistency_holds(first, size, forked, root, proof)


def record(n: int) -> None:
    for i in range(n):
        audit_event_record(actor=None, event_type=AuditEventType.TABLE_OPENED, subject=("tables.table", i))


def head(reason: str = "by hand") -> AuditCheckpoint:
    with transaction.atomic():
        made = audit_checkpoint_make(reason=reason)
    assert made is not None
    return made


def checker(proof: dict[str, Any], tmp_path: Path, *keys: str) -> subprocess.CompletedProcess[str]:
    """The standalone checker, run as an auditor runs it: the bare interpreter, no site-packages (-I -S)."""
    path = tmp_path / "proof.json"
    path.write_text(json.dumps(proof), encoding="utf-8")
    args = [sys.executable, "-I", "-S", str(MERKLE), str(path), *(f"--key={k}" for k in keys)]
    return subprocess.run(args, capture_output=True, text=True, timeout=60, check=False)


@pytest.mark.django_db
def test_an_event_is_proved_in_a_signed_head_by_the_command_and_the_standalone_checker(tmp_path, settings) -> None:
    record(6)
    signed = head()
    event = AuditLeaf.objects.get(position=3).event_seq
    out = tmp_path / "inclusion.json"
    call_command("audit_proof", str(event), "--out", str(out))
    proof = json.loads(out.read_text(encoding="utf-8"))
    assert proof["kind"] == "inclusion" and proof["checkpoint"]["tree_size"] == signed.tree_size
    key_id, secret = next(iter(settings.TABLESIDE_AUDIT_KEYS.items()))
    for given in (f"{key_id}:{secret}", f"{key_id}={secret}"):  # as TABLESIDE_AUDIT_KEYS writes it, or with "="
        answer = checker(proof, tmp_path, given)
        assert answer.returncode == 0 and "HOLDS: the inclusion proof and its signature" in answer.stdout
    call_command("verify_audit", "--proof", str(out))

    tampered = {**proof, "event_hash": "ab" * 32}  # a leaf that is not the one signed
    answer = checker(tampered, tmp_path)
    assert answer.returncode == 1 and f"event #{event} is not at leaf 3 of the tree of 6 leaves" in answer.stdout
    forged = {**proof, "checkpoint": {**proof["checkpoint"], "made_at": "2020-01-01T00:00:00.000000+00:00"}}
    answer = checker(forged, tmp_path, f"{key_id}={secret}")
    assert answer.returncode == 1 and "the checkpoint's signature does not match" in answer.stdout
    out.write_text(json.dumps(tampered), encoding="utf-8")
    with pytest.raises(CommandError, match="is not at leaf 3"):
        call_command("verify_audit", "--proof", str(out))


@pytest.mark.django_db
def test_a_later_head_is_proved_to_extend_an_earlier_one(tmp_path) -> None:
    record(5)
    first = head()
    record(8)
    second = head()
    out = tmp_path / "consistency.json"
    call_command("audit_proof", "--from", str(first.tree_size), "--out", str(out))
    proof = json.loads(out.read_text(encoding="utf-8"))
    assert (proof["first"]["tree_size"], proof["second"]["tree_size"]) == (5, 13) == (first.tree_size, second.tree_size)
    assert checker(proof, tmp_path).returncode == 0
    call_command("verify_audit", "--proof", str(out))


@pytest.mark.django_db
def test_a_forked_tree_signed_with_the_key_does_not_extend_its_predecessor_and_is_named(tmp_path) -> None:
    """Whoever holds the database and the key rewrites an early leaf and signs a new head over the rewritten tree:
    the head signed before, kept outside the database, is not extended by it."""
    record(5)
    honest = head()
    record(3)
    head()
    leaf = AuditLeaf.objects.get(position=1)
    tamper(f"UPDATE {AuditLeaf._meta.db_table} SET event_hash = %s WHERE id = %s", ["cd" * 32, leaf.pk])
    # The forger's head over the rewritten leaves (the sequencer would rebuild its frontier from them likewise).
    stored = AuditLeaf.objects.order_by("position").values_list("event_seq", "event_hash")
    leaves = [audit.leaf_data(seq, h) for seq, h in stored]
    frontier = merkle.Frontier()
    for data in leaves:
        frontier.append(data)
    made_at = timezone.now()
    last = AuditLeaf.objects.order_by("-position").first()
    assert last is not None
    forged = AuditCheckpoint(
        seq=last.event_seq,
        head_hash=last.event_hash,
        tree_size=frontier.size,
        root_hash=frontier.root().hex(),
        frontier=frontier.as_hex(),
        made_at=made_at,
        key_id=honest.key_id,
        signature=checkpoint_signature(
            seq=last.event_seq,
            head_hash=last.event_hash,
            made_at=audit.utc_text(made_at),
            key_id=honest.key_id,
            tree_size=frontier.size,
            root_hash=frontier.root().hex(),
        ),
        reason="forged",
    )
    row_insert(forged)
    message = audit_log_verify().describe()
    assert f"Checkpoint of {honest.tree_size} leaves" in message and "signs a root the log's first 5 leaves" in message
    assert forged.tree_size == 8 and "the log's first 8 leaves do not give" in message  # the honest head of 8
    assert f"Event #{leaf.event_seq} is not the event leaf #2 of the audit log holds: rewritten." in message
    proof = audit_verify.audit_consistency_proof(honest.tree_size, forged.tree_size)
    answer = checker(proof, tmp_path)
    assert answer.returncode == 1 and "does not extend the tree of 5" in answer.stdout


@pytest.mark.django_db
def test_no_event_stays_out_of_a_signed_head_for_more_than_ten_seconds(
    settings, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    """A fake clock: the process that writes sequences the log once its anchor period has passed, and beat does
    when the floor goes quiet; at no moment is the oldest event outside a signed head older than 10 s."""
    settings.TABLESIDE_AUDIT_SEQUENCE_AFTER_WRITES = True
    settings.TABLESIDE_AUDIT_ANCHOR_SECONDS = 5.0
    monkeypatch.setattr(audit, "_last_sequenced_here", [])
    clock = [dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC)]
    monkeypatch.setattr(timezone, "now", lambda: clock[0])

    def tail_age() -> float:
        oldest = audit_unanchored_since()
        return 0.0 if oldest is None else (clock[0] - oldest).total_seconds()

    ages = []
    for second in range(0, 60, 2):  # an event every two seconds for a minute
        clock[0] = dt.datetime(2026, 11, 29, 12, 0, second, tzinfo=dt.UTC)
        with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
            record(1)
        ages.append(tail_age())
    assert max(ages) <= 10 and ages[0] == 0.0  # the first write anchored itself; later ones wait ≤ 5 s
    clock[0] += dt.timedelta(seconds=5)  # the floor goes quiet: beat's next tick anchors the rest
    assert tail_age() <= 10
    assert audit_sequence_task.apply().get()["made"] in (True, False)
    assert tail_age() == 0.0
    assert audit_log_verify().ok


def _served(request: WSGIRequest) -> tuple[HttpResponse, bytes]:
    """``request`` as a WSGI server answers it: the answer built and its bytes read (sent), its closing (after which
    the server ends the request) left to the caller."""
    response = WSGIHandler()(request.environ, lambda status, headers: None)
    return response, b"".join(response)


@pytest.fixture
def connections_kept_open() -> Iterator[None]:
    """As Django's test client does around each request: the receiver that closes a connection at a request's start
    and end is kept out (the test runs in one transaction, on one connection)."""
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    try:
        yield
    finally:
        for signal in (request_started, request_finished):
            signal.connect(close_old_connections)


@pytest.mark.django_db
def test_the_write_that_makes_the_sequencing_due_is_answered_first_and_the_head_is_signed_once_the_answer_is_sent(
    settings, monkeypatch, make_table, shift, dealer, django_capture_on_commit_callbacks, connections_kept_open
) -> None:
    """The dealer's tap that falls due for the sequencer gets its answer without waiting for the checkpoint; the head
    is signed as the server closes the answer; the next tap within the period sequences nothing."""
    settings.TABLESIDE_AUDIT_SEQUENCE_AFTER_WRITES = True
    monkeypatch.setattr(audit, "_last_sequenced_here", [])
    table = make_table(name="PGP-1", game="paigow_poker", seat_count=6)
    token = f"Token {Token.objects.create(user=dealer).key}"
    factory = RequestFactory()
    checkpoints = AuditCheckpoint.objects.count()

    def write(url: str, body: dict[str, Any]) -> tuple[HttpResponse, bytes]:
        request = factory.post(
            url,
            json.dumps(body).encode(),
            content_type="application/json",
            HTTP_AUTHORIZATION=token,
            HTTP_IDEMPOTENCY_KEY=secrets.token_hex(8),
            HTTP_X_FORWARDED_PROTO="https",
        )
        with django_capture_on_commit_callbacks(execute=True):  # the request's write commits, its hooks run
            return _served(request)

    response, body = write(f"/api/tables/{table.pk}/rounds/", {})
    assert response.status_code == 201 and json.loads(body)["state"] == "open"
    assert AuditCheckpoint.objects.count() == checkpoints  # answered, and nothing signed yet
    response.close()
    signed = AuditCheckpoint.objects.order_by("-pk").first()
    assert AuditCheckpoint.objects.count() == checkpoints + 1 and signed is not None
    assert signed.tree_size == AuditLeaf.objects.count() and signed.reason == "within seconds of a write"
    assert audit_unanchored_since() is None
    # The next write, within the period: answered and closed, and the sequencing left to its turn.
    response, body = write(f"/api/rounds/{json.loads(body)['id']}/wagers/", {"seat": 1, "amount_cents": 2500})
    response.close()
    assert response.status_code == 201 and AuditCheckpoint.objects.count() == checkpoints + 1
    assert audit_unanchored_since() is not None


@pytest.mark.django_db
def test_a_sequencing_that_fails_after_the_answer_is_logged_and_the_next_request_is_answered(
    settings, monkeypatch, caplog
) -> None:
    """The answer has gone and its write is committed: a sequencer that fails then is logged (beat's next tick
    anchors the events), and the thread answers its next request as before."""
    settings.TABLESIDE_AUDIT_SEQUENCE_AFTER_WRITES = True
    monkeypatch.setattr(audit, "_last_sequenced_here", [])

    def failing(**_kwargs: Any) -> None:
        raise OSError("the checkpoint file's disk is full")

    monkeypatch.setattr(audit, "audit_checkpoint_make", failing)
    audit.audit_request_started()
    with transaction.atomic():
        record(1)
    audit.audit_log_sequence_if_due()  # as the write's on-commit hook calls it: due, and left for after the answer
    audit.audit_after_answer()
    assert "sequencing after a request failed" in caplog.text and "disk is full" in caplog.text
    audit.audit_request_started()
    audit.audit_after_answer()  # nothing due: nothing runs
    assert caplog.text.count("sequencing after a request failed") == 1


@pytest.mark.django_db
def test_every_head_goes_to_the_checkpoint_file_and_each_witness_named_one_failing_does_not_stop_the_others(
    settings, django_capture_on_commit_callbacks
) -> None:
    seen.clear()
    settings.TABLESIDE_AUDIT_WITNESSES = ["tests.casino.test_audit_log_tree.failing_witness", f"{__name__}.witness"]
    record(2)
    with django_capture_on_commit_callbacks(execute=True):
        signed = head()
    assert [w["root_hash"] for w in seen] == [signed.root_hash]
    lines = Path(settings.TABLESIDE_AUDIT_CHECKPOINT_FILE).read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[-1])["root_hash"] == signed.root_hash and json.loads(lines[-1])["tree_size"] == 2


seen: list[dict[str, Any]] = []


def witness(record: dict[str, Any]) -> None:
    seen.append(record)


def failing_witness(record: dict[str, Any]) -> None:
    raise OSError("the witness's disk is full")
