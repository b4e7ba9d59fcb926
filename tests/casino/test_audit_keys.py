"""The audit chain's keys: read from the environment, rotated without breaking the chain, never guessed."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction

from casino.audit import audit_checkpoint_make, audit_event_record, checkpoint_parse
from casino.audit_verify import audit_log_verify
from casino.events import AuditEventType
from casino.models import AuditEvent
from config.settings import _audit_keys

OLD, NEW = "o" * 40, "n" * 40


def record(n: int) -> None:
    for i in range(n):
        audit_event_record(actor=None, event_type=AuditEventType.TABLE_OPENED, subject=("tables.table", i))


def test_keys_are_id_secret_pairs_the_first_signing() -> None:
    assert list(_audit_keys(f"2027:{NEW}, 2026:{OLD}")) == ["2027", "2026"]
    assert _audit_keys("") == {}


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        ("nokey", "id:secret pairs"),
        (f"bad id:{OLD}", "letters and digits"),
        ("k1:short", "shorter than 32"),
        (f"k1:{OLD},k1:{NEW}", "twice"),
    ],
)
def test_a_malformed_key_setting_is_refused_at_start_up(raw: str, says: str) -> None:
    with pytest.raises(ImproperlyConfigured, match=says):
        _audit_keys(raw)


@pytest.mark.django_db
def test_rotating_the_key_keeps_the_old_events_verifiable(settings) -> None:
    settings.TABLESIDE_AUDIT_KEYS = {"2026": OLD}
    record(3)
    settings.TABLESIDE_AUDIT_KEYS = {"2027": NEW, "2026": OLD}  # the new key first, the old kept
    record(2)
    assert [e.key_id for e in AuditEvent.objects.order_by("seq")] == ["2026"] * 3 + ["2027"] * 2
    assert audit_log_verify().ok


@pytest.mark.django_db
def test_dropping_a_key_still_needed_is_named_not_passed(settings) -> None:
    settings.TABLESIDE_AUDIT_KEYS = {"2026": OLD}
    record(2)
    first = AuditEvent.objects.order_by("seq").first()
    settings.TABLESIDE_AUDIT_KEYS = {"2027": NEW}
    report = audit_log_verify()
    assert first is not None and report.broken_event is not None and report.broken_event.seq == first.seq
    assert "names key '2026', which this installation does not hold" in report.problem


@pytest.mark.django_db
def test_a_shift_reports_checkpoint_is_checked_from_the_command_line(capsys) -> None:
    record(4)
    with transaction.atomic():
        checkpoint = audit_checkpoint_make(reason="by hand")
    call_command("audit_checkpoint")
    printed = capsys.readouterr().out.strip()
    assert printed.startswith(f"{checkpoint.tree_size}:{checkpoint.root_hash}:{checkpoint.seq}:{checkpoint.head_hash}:")
    call_command("verify_audit", "--checkpoint", printed)
    call_command("verify_audit", "--checkpoint", f"{checkpoint.seq}:{checkpoint.head_hash}")
    assert "held to" in capsys.readouterr().out
    with pytest.raises(CommandError, match="64-hex-digit"):
        call_command("verify_audit", "--checkpoint", "4:not-a-hash")
    with pytest.raises(CommandError, match="is not the event checkpoint"):
        call_command("verify_audit", "--checkpoint", f"{checkpoint.seq}:{'0' * 64}")


def test_a_checkpoint_is_read_back_from_its_printed_line() -> None:
    line = f"12:{'a' * 64}:2026-11-24T10:00:00.000000+00:00:2026:{'b' * 64}"
    assert checkpoint_parse(line) == {
        "seq": 12,
        "head_hash": "a" * 64,
        "tree_size": 0,
        "root_hash": "",
        "made_at": "2026-11-24T10:00:00.000000+00:00",
        "key_id": "2026",
        "signature": "b" * 64,
    }
    tree_head = f"40:{'c' * 64}:{line}"  # a signed tree head: its size and root first
    assert checkpoint_parse(tree_head) == {**checkpoint_parse(line), "tree_size": 40, "root_hash": "c" * 64}
    with pytest.raises(ValueError, match="SEQ:HASH"):
        checkpoint_parse("12")
