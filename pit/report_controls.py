"""The floor's controls the shift and audit reports state (DESIGN.md, "Trust"): how the floor was set up when the
report was built (four eyes), and the audit chain's checkpoint at the shift's close."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypedDict

from casino.audit import checkpoint_record, checkpoint_text
from casino.models import AuditCheckpoint, Shift
from rounds.services import four_eyes_required

# --- controls: how the floor was set up, stated by the shift and audit reports (DESIGN.md, "Trust") ----------


class ReportControls(TypedDict):
    four_eyes: bool  # a void or a correction needed a second person


def report_controls() -> ReportControls:
    """The floor's controls a report states, as set when it is built. ``four_eyes`` (``TABLESIDE_FOUR_EYES``):
    whether a void or a correction needed a second person; false only in a one-supervisor room. Part of the
    figures, so of the content hash: the same shift under the same settings gives the same hash."""
    return {"four_eyes": four_eyes_required()}


def shift_checkpoint(shift: Shift) -> dict[str, Any] | None:
    """The audit chain's head as the shift closed, signed (``casino.audit.audit_checkpoint_make``): printed in
    every report of the shift, which leave the building, so ``verify_audit --checkpoint`` can hold the chain
    to it later. None for a shift closed before checkpoints were made."""
    checkpoint = AuditCheckpoint.objects.filter(shift=shift).order_by("seq", "pk").first()
    return checkpoint_record(checkpoint) if checkpoint is not None else None


CHECKPOINT_LABEL = "Audit checkpoint at the shift's close (manage.py verify_audit --checkpoint)"


def controls_lines(data: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The report's controls as (control, state) lines: the words of the CSV and the PDF (the HTML translates
    them): four eyes, and the audit checkpoint. None of either for a report built before it stated them."""
    lines = []
    controls = data.get("controls")
    if controls is not None:
        four_eyes = "required" if controls["four_eyes"] else "RELAXED (one-supervisor room, TABLESIDE_FOUR_EYES=0)"
        lines.append(("Four eyes on voids and corrections", four_eyes))
    if data.get("checkpoint"):
        lines.append((CHECKPOINT_LABEL, checkpoint_text(data["checkpoint"])))
    return lines


def write_controls(writer: Any, data: Mapping[str, Any]) -> None:
    lines = controls_lines(data)
    if lines:
        writer.writerow([])
        for control, state in lines:
            writer.writerow(["control", control, state])
