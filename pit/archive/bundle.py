"""Writing the archive of a closed gaming day (``manage.py archive_gaming_day``; docs/archive.md).

The archive is a directory, ``tableside-gaming-day-YYYY-MM-DD``, written once: built beside its place under another
name, verified there by the script it ships (with the house's keys), and only then renamed into place, so a run that
fails or is interrupted leaves no archive behind, and an archive is never overwritten (a second run for the same day
into the same directory is refused). ``--zip`` also writes it as one .zip file beside it.
"""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import io
import json
import shutil
import uuid
import zipfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.utils import timezone

from casino.audit import audit_keys, current_key_id, utc_text
from casino.models import GamingDay
from pit.archive import verify_archive
from pit.archive.audit_slice import NotInTheTree, audit_slice, day_events_sequenced
from pit.archive.records import ArchivedTable, Column, day_tables, rows_by_subject, staff_named, staff_table
from pit.archive.verify_archive import (
    ABOUT,
    FORMAT,
    FORMAT_VERSION,
    MANIFEST,
    MANIFEST_SIGNATURE,
    SCHEMA,
    TREE,
    canonical_json,
    csv_cell,
    json_records_text,
    manifest_signature,
)

VERIFIER = "verify_archive.py"
README = "README.txt"
SCHEMA_TEXT = "SCHEMA.md"


class ArchiveRefused(Exception):
    """The archive was not written (nothing was): the message says why, in the operator's words."""


@dataclass(frozen=True)
class ArchiveWritten:
    path: Path
    zip_path: Path | None
    files: int
    key_id: str
    held: list[str]


def archive_name(business_date: dt.date) -> str:
    return f"tableside-gaming-day-{business_date.isoformat()}"


EVENT_COLUMNS = (
    Column("id", "integer", "The event's row id in the installation's database"),
    Column("seq", "integer", "The event's number in the audit log (increasing; numbers may skip)"),
    Column("occurred_at", "timestamp (UTC, ISO 8601, microseconds)", "When it was written, exactly as hashed"),
    Column("actor_id", "integer", "Who did it (empty: the system)", "staff"),
    Column("actor_name", "text", "Their sign-in name then ('system' for the system)"),
    Column("event_type", "text", "What happened (round.settled, shift.closed, slip.issued, ...)"),
    Column("subject_type", "text", "The kind of record it happened to (tables.round is a row of rounds.csv, ...)"),
    Column("subject_id", "text", "That record's id"),
    Column("before", "json", "The record before the change, as the event recorded it"),
    Column("after", "json", "The record after the change; a money event lists every posting line it wrote"),
    Column("reason", "text", "Why, where a person gave a reason"),
    Column("rows", "json", "Each audited row the change wrote, by 'table:id', every column's value (null: removed)"),
    Column("prev_hash", "text", "Only for events of the older hash chain: the hash of the event before"),
    Column(
        "hash",
        "text",
        "HMAC-SHA256 under the key key_id names of 'tableside-audit-leaf|' and the canonical JSON of occurred_at, "
        "actor_id, actor_name, event_type, subject_type, subject_id, before, after, reason and rows (when not null)",
    ),
    Column("key_id", "text", "The id of the house's audit key that signed it (empty: before the log was keyed)"),
)

CHECKPOINT_COLUMNS = (
    Column("seq", "integer", "The last event in the tree when the head was signed"),
    Column("head_hash", "text", "That event's hash"),
    Column("tree_size", "integer", "How many leaves (events) the audit log's tree held (0: a head of the older chain)"),
    Column("root_hash", "text", "The root of the tree of that many leaves (RFC 9162)"),
    Column("made_at", "timestamp (UTC, ISO 8601, microseconds)", "When it was signed, exactly as signed"),
    Column("key_id", "text", "The id of the house's audit key that signed it"),
    Column(
        "signature",
        "text",
        "HMAC-SHA256 of 'tableside-audit-tree-head|tree_size|root_hash|seq|head_hash|made_at' (the older chain's: "
        "'tableside-audit-checkpoint|seq|head_hash|made_at')",
    ),
    Column("reason", "text", "Why it was signed (a shift closed, within seconds of a write, ...)"),
    Column("shift", "integer", "The shift whose close it was signed at, printed on that shift's reports", "shifts"),
    Column(
        "in_checkpoint_file",
        "boolean",
        "Whether the installation's checkpoint file (kept outside the database) held it when the archive was written",
    ),
)


def _table_files(table: ArchivedTable) -> dict[str, bytes]:
    """A table's two files: CSV (RFC 4180, CRLF line ends, a cell quoted when it must be) and JSON, the same rows."""
    names = [c.name for c in table.columns]
    rows = [{name: row[name] for name in names} for row in table.rows]
    text = io.StringIO(newline="")
    writer = csv.writer(text, lineterminator="\r\n")
    writer.writerow(names)
    writer.writerows([csv_cell(row[name]) for name in names] for row in rows)
    return {
        table.csv_path: text.getvalue().encode("utf-8"),
        table.json_path: json_records_text(rows).encode("utf-8"),
        **table.files,
    }


def _schema(tables: list[ArchivedTable], other_files: dict[str, str]) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "conventions": {
            "text": "UTF-8 everywhere.",
            "csv": "RFC 4180: comma-separated, a header row of column names, a cell with a comma, quote or line "
            "break in double quotes; an empty cell is no value (null). JSON columns hold canonical JSON.",
            "json": "Each table is also a JSON array, one record a line (record N on line N + 1), the same values "
            "as the CSV: the JSON copy is the exact one (null and empty text differ there).",
            "money": "Integer cents: hundredths of the casino's currency unit, never fractions ('2500' is 25.00).",
            "time": "Moments in UTC, ISO 8601 ('2026-03-01T18:04:05.123456+00:00'); business dates as YYYY-MM-DD.",
            "ids": "A column ending in _id (or named like a table) holds the id of a row of the table it names.",
        },
        "files": [
            {
                "name": table.name,
                "csv": table.csv_path,
                "json": table.json_path,
                "meaning": table.meaning,
                "rows": len(table.rows),
                "columns": [
                    {"name": c.name, "type": c.type, "meaning": c.meaning, "refers_to": c.refers_to}
                    for c in table.columns
                ],
            }
            for table in tables
        ]
        + [{"path": path, "meaning": meaning} for path, meaning in sorted(other_files.items())],
    }


def _schema_text(schema: dict[str, Any]) -> str:
    lines = ["# The files of this archive, their columns, types and meanings", ""]
    lines += [f"- **{name}**: {text}" for name, text in schema["conventions"].items()]
    for entry in schema["files"]:
        if "columns" not in entry:
            continue
        lines += ["", f"## {entry['csv']} (and {entry['json']}): {entry['rows']} rows", "", entry["meaning"], ""]
        lines += ["| column | type | meaning |", "| --- | --- | --- |"]
        lines += [f"| {c['name']} | {c['type']} | {c['meaning'].replace('|', '/')} |" for c in entry["columns"]]
    lines += ["", "## The other files", ""]
    lines += [f"- **{e['path']}**: {e['meaning']}" for e in schema["files"] if "columns" not in e]
    return "\n".join(lines) + "\n"


def _readme(day: GamingDay, about: dict[str, Any], key_id: str) -> str:
    template = (Path(__file__).parent / "archive_readme.txt").read_text(encoding="utf-8")
    return template.format(
        business_date=day.business_date.isoformat(),
        opened_at=about["opened_at"],
        closed_at=about["closed_at"],
        made_at=about["made_at"],
        key_id=key_id,
        events=about["audit"]["events"],
        head_size=about["audit"]["head_tree_size"],
    )


def _write(directory: Path, files: dict[str, bytes]) -> None:
    for name, content in files.items():
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)


def _zip(source: Path, target: Path) -> None:
    partial = target.with_name(f".{target.name}.partial-{uuid.uuid4().hex}")
    with zipfile.ZipFile(partial, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(source.rglob("*")):
            if path.is_file():
                archive.write(path, f"{source.name}/{path.relative_to(source).as_posix()}")
    partial.rename(target)


def gaming_day_archive(*, business_date: dt.date, out: Path, zip_too: bool = False) -> ArchiveWritten:
    """Write the archive of the closed gaming day of ``business_date`` into ``out`` (a directory, made if missing).

    Refused, with nothing written, for a day that does not exist or is still open, when ``out`` already holds its
    archive, or when what it would hold does not verify (a broken audit log or an unbalanced posting: the house's
    own verifiers name it).
    """
    day = GamingDay.objects.filter(business_date=business_date).first()
    if day is None:
        latest = GamingDay.objects.filter(closed_at__isnull=False).order_by("-business_date").first()
        hint = f" (the latest closed one is {latest.business_date.isoformat()})" if latest else ""
        raise ArchiveRefused(f"There is no gaming day {business_date.isoformat()}{hint}: nothing was archived.")
    if day.closed_at is None:
        raise ArchiveRefused(
            f"The gaming day {business_date.isoformat()} is still open: it is archived once it is closed (until "
            "then its rounds and money can still change). Nothing was archived."
        )
    target = out / archive_name(business_date)
    zip_path = target.with_name(target.name + ".zip") if zip_too else None
    for existing in (target, zip_path):
        if existing is not None and (existing.exists() or existing.is_symlink()):
            raise ArchiveRefused(
                f"{existing} already exists: an archive is written once and never overwritten. Keep it, or move it "
                "away and archive again. Nothing was written."
            )
    key_id = current_key_id()
    files = _signed(_archive_files(day), key_id)
    held = _put_in_place(files, target)
    if zip_path is not None:
        try:
            _zip(target, zip_path)
        except OSError as exc:
            raise ArchiveRefused(f"The archive is in {target}, but its .zip could not be written: {exc}.") from exc
    return ArchiveWritten(path=target, zip_path=zip_path, files=len(files), key_id=key_id, held=held)


def _archive_files(day: GamingDay) -> dict[str, bytes]:
    """Every file of the day's archive but the manifest and its signature."""
    assert day.closed_at is not None
    tables = day_tables(day)
    subjects = rows_by_subject(tables)
    try:
        day_events_sequenced(day, subjects)
        audit = audit_slice(day, subjects)
    except NotInTheTree as exc:
        raise ArchiveRefused(f"The audit log cannot prove the day's events: {exc} Nothing was archived.") from exc
    events = ArchivedTable("events", "The day's audit events.", EVENT_COLUMNS, audit.events, folder="audit")
    checkpoints = ArchivedTable(
        "checkpoints",
        "The signed heads of the audit log: the one the day's events are proved against (audit/tree.json) and those "
        "signed as each of the day's shifts closed (printed on their reports).",
        CHECKPOINT_COLUMNS,
        [{c.name: record[c.name] for c in CHECKPOINT_COLUMNS} for record in audit.checkpoints],
        folder="audit",
    )
    staff = staff_table(staff_named([*tables, events], ()))
    every_table = [*tables, staff, events, checkpoints]

    files: dict[str, bytes] = {}
    for table in every_table:
        files.update(_table_files(table))
    tree = {"head": audit.head, "runs": [asdict(run) for run in audit.runs]}
    files[TREE] = (json.dumps(tree, indent=1, sort_keys=True) + "\n").encode("utf-8")
    about = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "business_date": day.business_date.isoformat(),
        "gaming_day_id": day.pk,
        "opened_at": utc_text(day.opened_at),
        "closed_at": utc_text(day.closed_at),
        "made_at": utc_text(timezone.now()),
        "made_by": "Tableside, manage.py archive_gaming_day",
        "rows": {table.name: len(table.rows) for table in every_table},
        "audit": {
            "events": len(audit.events),
            "first_event": audit.events[0]["seq"] if audit.events else None,
            "last_event": audit.events[-1]["seq"] if audit.events else None,
            "head_tree_size": audit.head["tree_size"],
            "key_ids": sorted({str(e["key_id"]) for e in audit.events if e["key_id"]}),
            "unkeyed_until": int(getattr(settings, "TABLESIDE_AUDIT_UNKEYED_UNTIL", 0)),
            "manifest_key_id": current_key_id(),
        },
    }
    files[ABOUT] = (json.dumps(about, indent=1, sort_keys=True) + "\n").encode("utf-8")
    files[VERIFIER] = Path(verify_archive.__file__).read_bytes()
    files[README] = _readme(day, about, current_key_id()).encode("utf-8")
    described = OTHER_FILES | {name: _report_file_meaning(name) for name in files if name.startswith("reports/")}
    schema = _schema(every_table, described)
    files[SCHEMA] = (json.dumps(schema, indent=1, ensure_ascii=False) + "\n").encode("utf-8")
    files[SCHEMA_TEXT] = _schema_text(schema).encode("utf-8")
    return files


OTHER_FILES = {
    README: "What this archive is and how to read and verify it, in plain words.",
    SCHEMA_TEXT: "This schema in prose.",
    SCHEMA: "This schema: every file, and every table's columns with their types and meanings.",
    ABOUT: "About the archive: the gaming day, when it was written, how many rows each table holds, the audit "
    "events' numbers and keys.",
    VERIFIER: "The verifier: python3 verify_archive.py DIRECTORY --key KEY_ID:SECRET (the standard library only).",
    TREE: "The signed head (head) the day's events are proved against, and the runs of leaves that prove them "
    "(runs: first_position; left, the roots of the perfect subtrees left of the run, largest first; leaves, each "
    "position, event_seq, event_hash and whether the event is archived; right, the roots of the perfect subtrees "
    "from the run to the head's size, left to right, each as large as its start allows).",
    MANIFEST: "The SHA-256 of every other file ('<sha256>  <file>', as sha256sum writes it).",
    MANIFEST_SIGNATURE: "The manifest's signature: HMAC-SHA256 under the house's audit key key_id of "
    "'tableside-archive-manifest|' followed by the bytes of MANIFEST.",
}


def _signed(files: dict[str, bytes], key_id: str) -> dict[str, bytes]:
    """The files with their manifest and its signature under the audit key ``key_id``."""
    manifest = "".join(f"{hashlib.sha256(files[name]).hexdigest()}  {name}\n" for name in sorted(files)).encode()
    signature = {
        "algorithm": "HMAC-SHA256",
        "key_id": key_id,
        "signs": "'tableside-archive-manifest|' followed by the bytes of MANIFEST",
        "signature": manifest_signature(audit_keys()[key_id].encode("utf-8"), manifest),
    }
    return files | {MANIFEST: manifest, MANIFEST_SIGNATURE: (canonical_json(signature) + "\n").encode("utf-8")}


def _put_in_place(files: dict[str, bytes], target: Path) -> list[str]:
    """Write the files under a name of their own beside ``target``, verify them there with the house's keys, and only
    then rename them into place: what held. An archive that does not verify, or fails half-written, leaves nothing."""
    partial = target.with_name(f".{target.name}.partial-{uuid.uuid4().hex}")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        _write(partial, files)
        found = verify_archive.verify(partial, {k: v.encode("utf-8") for k, v in audit_keys().items()})
        if found.problems:
            raise ArchiveRefused(
                f"What the archive would hold does not verify: {found.problems[0]}. Run verify_audit and "
                "verify_ledger on the installation. Nothing was archived."
            )
        if target.exists():
            raise ArchiveRefused(f"{target} appeared while the archive was written: nothing was written.")
        partial.rename(target)
    except OSError as exc:
        raise ArchiveRefused(f"The archive could not be written into {target.parent}: {exc.strerror or exc}.") from exc
    finally:
        if partial.exists():
            shutil.rmtree(partial)
    return found.held


def _report_file_meaning(name: str) -> str:
    kind = {".pdf": "as printed (PDF 1.4, not PDF/A: see README.txt)", ".csv": "as CSV", ".html": "as HTML"}
    suffix = Path(name).suffix
    if suffix == ".json":
        return "A shift report's figures (canonical JSON): their SHA-256 is the content hash printed on its PDF."
    return f"A shift report {kind.get(suffix, '')}, built at the shift's close (shift_reports.csv names it)."
