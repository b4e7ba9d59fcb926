"""Holding every audited record (``casino.records``) to the audit events that wrote it, and every kept figure to
the rows it sums: what ``manage.py verify_audit`` runs once the chain itself holds.

* every stored row of a registered model has an event whose ``rows`` wrote it, and equals that last snapshot field
  by field ("Entry #12: place is 2, but its audit event #812 recorded 1");
* every row an event wrote is still there, unless a later event removed it ("Deal #3 was removed; its audit event
  #812 remains"), and a row an event removed is not there again;
* every kept figure is what its rows add up to: each app that keeps one registers its check once
  (``kept_check_register``, in its ``AppConfig.ready``).

The chain's keyed hashes (``casino.audit_verify.audit_log_verify``) are what make the events themselves trustworthy:
run after it, this finds what was changed past the application in the rows beside the chain.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.db import models
from django.db.models import Max

from casino.models import AuditEvent
from casino.records import Registered, Snapshot, differing_fields, registered, stored_value

KeptCheck = Callable[[], list[str]]

_KEPT: dict[str, KeptCheck] = {}


def kept_check_register(name: str, check: KeptCheck) -> None:
    """Register an app's check of the figures it keeps (a session's sums, a table's hold window): it returns what
    does not hold, one line each."""
    _KEPT[name] = check


@dataclass
class RecordsReport:
    """What ``records_verify`` held and what it found (``problems`` empty: every record is as its events wrote it)."""

    rows: int = 0
    models: int = 0
    kept_checks: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def describe(self) -> str:
        held = (
            f"{self.rows} rows of {self.models} audited records held to their audit events, "
            f"{self.kept_checks} kept-figure checks"
        )
        if self.ok:
            return f"{held}: every one as recorded."
        return f"{held}: {len(self.problems)} problems.\n" + "\n".join(self.problems)


def _last_recorded() -> dict[str, dict[str, tuple[int, Snapshot | None]]]:
    """Each subject type's rows as the events last wrote them: row id -> (the event's seq, its snapshot or None for
    a removal)."""
    last: dict[str, dict[str, tuple[int, Snapshot | None]]] = {}
    events = AuditEvent.objects.filter(rows__isnull=False).order_by("seq").values_list("seq", "rows")
    for seq, rows in events.iterator(chunk_size=2000):
        if not isinstance(rows, dict):
            continue  # an event's rows are a mapping; anything else is the chain's to report (it is hashed)
        for key, recorded in rows.items():
            kind, _, pk = str(key).rpartition(":")
            last.setdefault(kind, {})[pk] = (seq, recorded if isinstance(recorded, dict) else None)
    return last


def _shown(value: Any) -> str:
    text = repr(value) if not isinstance(value, str) else value
    return text if len(text) <= 60 else text[:57] + "…"


def _held(entry: Registered, recorded: dict[str, tuple[int, Snapshot | None]], seen: set[str]) -> Iterator[str]:
    """What does not hold of one registered model's rows (``seen``: filled with the ids of the rows read)."""
    for stored in entry.model._base_manager.order_by("pk").values("pk", *entry.fields).iterator(chunk_size=2000):
        pk = str(stored["pk"])
        seen.add(pk)
        name = f"{entry.label} #{pk}"
        last = recorded.get(pk)
        if last is None:
            yield f"{name} has no audit event: it was written past the application."
            continue
        seq, snapshot = last
        if snapshot is None:
            yield f"{name} was removed by audit event #{seq}, but the row is there."
            continue
        for attname in differing_fields(entry, stored, snapshot):
            now = stored_value(entry.field(attname), stored[attname])
            yield (
                f"{name}: {entry.field(attname).verbose_name} is {_shown(now)}, "
                f"but its audit event #{seq} recorded {_shown(snapshot.get(attname))}."
            )
    for pk, (seq, snapshot) in recorded.items():
        if snapshot is not None and pk not in seen:
            yield f"{entry.label} #{pk} was removed; its audit event #{seq} remains."
    # An event about a row (its subject) that neither exists nor was recorded as removed.
    subjects = AuditEvent.objects.filter(subject_type=entry.name).values("subject_id").annotate(last=Max("seq"))
    for subject in subjects.order_by("last"):
        pk = subject["subject_id"]
        if pk not in seen and pk not in recorded:
            yield f"{entry.label} #{pk} does not exist; its audit event #{subject['last']} is about it."


def records_verify(*, only: Collection[type[models.Model]] | None = None) -> RecordsReport:
    """Hold every audited record to its last audit event and every kept figure to its rows (``only``: the records of
    these models, and no kept figure)."""
    report = RecordsReport()
    recorded = _last_recorded()
    for entry in registered():
        if only is not None and entry.model not in only:
            continue
        report.models += 1
        seen: set[str] = set()
        report.problems.extend(_held(entry, recorded.get(entry.name, {}), seen))
        report.rows += len(seen)
    for check in _KEPT.values() if only is None else ():
        report.kept_checks += 1
        report.problems.extend(check())
    return report
