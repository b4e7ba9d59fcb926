"""Every report of a shift prints the audit checkpoint made as it closed: the figures, the CSV, the HTML
and the PDF, which leave the building; an auditor checks the chain from it alone."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from reportlab import rl_config

from casino.audit import checkpoint_text
from casino.models import AuditCheckpoint, AuditEvent, AuditLeaf
from casino.services import shift_close
from pit.report_controls import CHECKPOINT_LABEL
from pit.report_pdf import render_pdf
from settlement.models import ShiftReport
from tests.guards import tamper

pytestmark = pytest.mark.usefixtures("eager_celery")


def _pdf_text(report: ShiftReport, monkeypatch: pytest.MonkeyPatch) -> str:
    """The PDF's words, its text runs joined (the checkpoint is wrapped anywhere, over several lines)."""
    monkeypatch.setattr(rl_config, "pageCompression", 0)
    raw = render_pdf(report.data, report.content_hash).decode("latin-1")
    return "".join(re.findall(r"\((.*?)(?<!\\)\) Tj", raw)).replace("\\(", "(").replace("\\)", ")")


@pytest.fixture
def closed(shift, pit_boss, django_capture_on_commit_callbacks) -> Any:  # type: ignore[no-untyped-def]
    with django_capture_on_commit_callbacks(execute=True):
        return shift_close(actor=pit_boss, shift=shift)


@pytest.mark.django_db
def test_every_report_prints_the_checkpoint_made_at_the_close(closed, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    checkpoint = AuditCheckpoint.objects.get(shift=closed)
    printed = checkpoint_text(ShiftReport.objects.get(shift=closed, kind="shift").data["checkpoint"])
    assert printed.startswith(f"{checkpoint.tree_size}:{checkpoint.root_hash}:{checkpoint.seq}:{checkpoint.head_hash}:")
    assert printed.endswith(checkpoint.signature)
    for report in ShiftReport.objects.filter(shift=closed):
        assert ["control", CHECKPOINT_LABEL, printed] in list(csv.reader(io.StringIO(report.csv))), report.kind
        assert printed in report.html, report.kind
        assert printed in _pdf_text(report, monkeypatch), report.kind


@pytest.mark.django_db
def test_an_auditor_checks_the_chain_from_the_reports_checkpoint_alone(closed, capsys) -> None:  # type: ignore[no-untyped-def]
    printed = checkpoint_text(ShiftReport.objects.get(shift=closed, kind="audit").data["checkpoint"])
    call_command("verify_audit", "--checkpoint", printed)
    assert "held to" in capsys.readouterr().out
    # Everything in the building is cut back: the events after the first, their leaves, the checkpoints, the file.
    size = AuditCheckpoint.objects.get(shift=closed).tree_size
    tamper(f"DELETE FROM {AuditEvent._meta.db_table} WHERE seq > 1")
    tamper(f"DELETE FROM {AuditLeaf._meta.db_table} WHERE position > 0")
    tamper(f"DELETE FROM {AuditCheckpoint._meta.db_table}")
    with pytest.raises(CommandError) as failure:
        call_command("verify_audit", "--checkpoint", printed)
    assert "The audit log ends at leaf #1, but checkpoint --checkpoint" in str(failure.value)
    assert f"leaves #2 to #{size} were removed" in str(failure.value)
