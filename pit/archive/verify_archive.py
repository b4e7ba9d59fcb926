"""Verify the archive of a gaming day written by Tableside (``manage.py archive_gaming_day``), with Python 3 alone.

    python3 verify_archive.py ARCHIVE_DIRECTORY --key KEY_ID:SECRET
    TABLESIDE_AUDIT_KEYS=KEY_ID:SECRET python3 verify_archive.py ARCHIVE_DIRECTORY

This file is copied into every archive, and needs nothing but the Python 3 standard library (3.10 or later): no
Tableside, no Django, no package. The key is the house's audit key (``TABLESIDE_AUDIT_KEYS``: ``id:secret`` pairs,
comma-separated), given by the auditor; without it (``--without-key``) everything that needs no secret is still
checked, and the archive is said not to be authenticated.

What it checks, in this order (the exact copies first, so that the first problem named is where the difference is,
not only which file it is in):

1. The audit events: each event's hash is recomputed from its content under its key, exactly as Tableside computed
   it (``casino/audit.py``), the numbers increase, and an event of the older hash chain links to the one before it.
2. The signed checkpoints (the audit log's heads): each signature holds under its key, and a checkpoint whose last
   event is in the archive holds that event's hash.
3. The audit log's Merkle tree (RFC 9162): the archived events are leaves of the tree the signed head covers. For
   each run of leaves the archive holds (``audit/tree.json``), the roots of the tree's perfect subtrees to its left
   and to its right and the run's leaves give the root the head signs: no archived event was changed, added,
   removed or reordered after the head was signed, not even by whoever holds the key.
4. The ledger: every posting's entries sum to zero (the money in equals the money out), and every entry belongs
   to a posting of the archive.
5. Each shift report's figures give the content hash printed on its PDF.
6. Every table is written twice, as CSV and as JSON (``schema.json`` names them and their columns): each CSV row
   is the same as its JSON record.
7. ``MANIFEST`` lists every file of the archive with its SHA-256 (as ``sha256sum`` writes it), and its signature
   (``MANIFEST.sig``, HMAC-SHA256 under the house's audit key) holds: nothing was added, removed or changed since
   the archive was written, by anyone without the key. (A key that is not the house's is said first, and alone.)

It prints a summary and exits 0 when everything holds; otherwise it names the first difference (the file, its line
or record, what was expected and what was found), lists the others, and exits 1. A usage error exits 2.

It is one file on purpose, longer than the project's modules: an auditor copies one file, and reads it.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import hmac
import io
import json
import os
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FORMAT = "tableside-gaming-day-archive"
FORMAT_VERSION = 1

MANIFEST = "MANIFEST"
MANIFEST_SIGNATURE = "MANIFEST.sig"
ABOUT = "archive.json"
SCHEMA = "schema.json"
POSTINGS = "data/postings.json"
LEDGER_ENTRIES = "data/ledger_entries.json"
SHIFT_REPORTS = "data/shift_reports.json"
EVENTS = "audit/events.json"
CHECKPOINTS = "audit/checkpoints.json"
TREE = "audit/tree.json"

MANIFEST_PREFIX = b"tableside-archive-manifest|"
EVENT_PREFIX = "tableside-audit-leaf|"
MOST_LISTED = 50


# --- the format: how values are written, shared with the writer -------------------------------------------------


def canonical_json(value: Any) -> str:
    """The one serialisation every hash of Tableside is computed over: sorted keys, no whitespace, UTF-8."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def csv_cell(value: Any) -> str:
    """A JSON value as its CSV cell: empty for null, ``true``/``false``, a number as JSON writes it, text as it is,
    a list or an object as canonical JSON."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    return canonical_json(value) if isinstance(value, (list, dict)) else json.dumps(value)


def json_records_text(records: Iterable[Mapping[str, Any]]) -> str:
    """A table as JSON: an array with one record a line, so that record N (from 1) is on line N + 1, each record's
    columns in the schema's order."""
    lines = [json.dumps(dict(record), separators=(",", ":"), ensure_ascii=False) for record in records]
    return "[\n" + ",\n".join(lines) + ("\n]\n" if lines else "]\n")


def manifest_signature(key: bytes, manifest: bytes) -> str:
    """HMAC-SHA256, as hex, of ``tableside-archive-manifest|`` followed by the bytes of MANIFEST."""
    return hmac.digest(key, MANIFEST_PREFIX + manifest, "sha256").hex()


def event_hash(event: Mapping[str, Any], key: bytes | None) -> str:
    """An audit event's hash as Tableside computes it (``casino.audit.event_hash``): HMAC-SHA256 under its key of
    ``tableside-audit-leaf|`` and the canonical JSON of its content; for an event of the hash chain the log began as
    (``prev_hash`` set) of the previous event's hash and its canonical JSON with its number; plain SHA-256 for an
    event written before the log was keyed (``key_id`` "")."""
    prev_hash = str(event["prev_hash"])
    payload: dict[str, Any] = {"seq": event["seq"]} if prev_hash else {}
    for name in ("occurred_at", "actor_id", "actor_name", "event_type", "subject_type", "subject_id"):
        payload[name] = event[name]
    payload.update(before=event["before"], after=event["after"], reason=event["reason"])
    if event["rows"] is not None:
        payload["rows"] = event["rows"]
    message = ((prev_hash if prev_hash else EVENT_PREFIX) + canonical_json(payload)).encode("utf-8")
    if key is None:
        return hashlib.sha256(message).hexdigest()
    return hmac.digest(key, message, "sha256").hex()


# --- the audit log's Merkle tree (RFC 9162, section 2.1) ---------------------------------------------------------


def leaf_data(seq: int, stored_hash: str) -> bytes:
    """A leaf's data: SHA-256 of ``tableside-audit-leaf|NUMBER|HASH`` (the event's number and stored hash)."""
    return hashlib.sha256(f"tableside-audit-leaf|{seq}|{stored_hash}".encode()).digest()


def leaf_hash(data: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def aligned_subtrees(start: int, size: int) -> list[tuple[int, int]]:
    """The perfect subtrees (start, height) that cover leaves ``start`` to ``size - 1`` of a tree of ``size``
    leaves, left to right, each as large as its start allows: what the archive gives to the right of a run."""
    covered: list[tuple[int, int]] = []
    while start < size:
        height = (size - start).bit_length() - 1
        while start % (1 << height):
            height -= 1
        covered.append((start, height))
        start += 1 << height
    return covered


def tree_head_message(record: Mapping[str, Any]) -> bytes:
    """What a checkpoint signs: a tree head (``tree_size`` > 0), or a head of the older hash chain."""
    if int(record["tree_size"]):
        return (
            f"tableside-audit-tree-head|{record['tree_size']}|{record['root_hash']}|{record['seq']}|"
            f"{record['head_hash']}|{record['made_at']}"
        ).encode()
    return f"tableside-audit-checkpoint|{record['seq']}|{record['head_hash']}|{record['made_at']}".encode()


class RunProblem(ValueError):
    """A run of leaves that cannot give a root: its message says why."""


def run_root(first: int, left: Sequence[bytes], leaves: Sequence[bytes], right: Sequence[bytes], size: int) -> bytes:
    """The root of the tree of ``size`` leaves, from the roots of the perfect subtrees left of leaf ``first`` (its
    compact range, largest first), the run's leaf data, and the subtrees right of it (``aligned_subtrees``)."""
    if len(left) != bin(first).count("1"):
        raise RunProblem(f"{bin(first).count('1')} hashes left of leaf {first} expected, found {len(left)}")
    hashes, count = list(left), first

    def push(node: bytes, height: int) -> None:
        nonlocal count
        rest = count >> height
        while rest & 1:
            node = node_hash(hashes.pop(), node)
            rest >>= 1
        hashes.append(node)
        count += 1 << height

    for data in leaves:
        push(leaf_hash(data), 0)
    wanted = aligned_subtrees(count, size)
    if len(wanted) != len(right):
        raise RunProblem(f"{len(wanted)} hashes right of leaf {count - 1} expected, found {len(right)}")
    for (_, height), node in zip(wanted, right, strict=True):
        push(node, height)
    if not hashes:
        return hashlib.sha256(b"").digest()
    root = hashes[-1]
    for node in reversed(hashes[:-1]):
        root = node_hash(node, root)
    return root


# --- reading the archive -----------------------------------------------------------------------------------------


@dataclass
class Findings:
    """What the checks found: the problems, in the order found (the first is the first difference), and what held."""

    problems: list[str] = field(default_factory=list)
    held: list[str] = field(default_factory=list)
    authenticated: bool = True

    def fail(self, where: str, what: str) -> None:
        self.problems.append(f"{where}: {what}")


class NotAnArchive(Exception):
    """The directory is not an archive this script reads (its message says why)."""


class Archive:
    """The archive's directory; files read once, as bytes."""

    def __init__(self, root: Path) -> None:
        if not root.is_dir():
            raise NotAnArchive(f"{root} is not a directory (unpack the archive first)")
        if not (root / MANIFEST).is_file():
            raise NotAnArchive(f"{root} holds no {MANIFEST}: it is not the archive of a gaming day")
        self.root = root
        self._read: dict[str, bytes] = {}

    def files(self) -> list[str]:
        found = []
        for path in sorted(self.root.rglob("*")):
            if path.is_file() or path.is_symlink():
                found.append(path.relative_to(self.root).as_posix())
        return found

    def bytes_of(self, name: str) -> bytes:
        if name not in self._read:
            self._read[name] = (self.root / name).read_bytes()
        return self._read[name]

    def json_of(self, name: str) -> Any:
        return json.loads(self.bytes_of(name).decode("utf-8"))


def _line_of(index: int) -> str:
    return f"line {index + 2}"  # one record a line, after the opening bracket


# --- 7. the manifest ---------------------------------------------------------------------------------------------


def check_manifest(archive: Archive, keys: Mapping[str, bytes] | None, found: Findings) -> None:
    text = archive.bytes_of(MANIFEST)
    listed: dict[str, tuple[int, str]] = {}
    for number, line in enumerate(text.decode("utf-8", "replace").splitlines(), start=1):
        digest, sep, name = line.partition("  ")
        if not sep or len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest) or not name:
            found.fail(f"{MANIFEST} line {number}", f"not '<sha256>  <file>': {line[:80]!r}")
            continue
        if name.startswith("/") or ".." in name.split("/") or name in (MANIFEST, MANIFEST_SIGNATURE):
            found.fail(f"{MANIFEST} line {number}", f"names {name!r}, which is not a file of the archive")
            continue
        if name in listed:
            found.fail(f"{MANIFEST} line {number}", f"lists {name} again (first on line {listed[name][0]})")
        listed[name] = (number, digest)

    try:
        sealed = json.loads(archive.bytes_of(MANIFEST_SIGNATURE).decode("utf-8"))
        key_id, signature = str(sealed["key_id"]), str(sealed["signature"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        found.fail(MANIFEST_SIGNATURE, f"cannot be read ({exc.__class__.__name__}): the manifest is not signed")
        key_id, signature = "", ""
    present = set(archive.files()) - {MANIFEST, MANIFEST_SIGNATURE}
    for name, (number, digest) in listed.items():
        if name not in present:
            found.fail(f"{MANIFEST} line {number}", f"lists {name}, which is not in the archive: it was removed")
            continue
        actual = hashlib.sha256(archive.bytes_of(name)).hexdigest()
        if actual != digest:
            found.fail(
                f"{MANIFEST} line {number}",
                f"says the SHA-256 of {name} is {digest}, but it is {actual}: the file or this line was changed "
                "after the archive was signed",
            )
    for name in sorted(present - set(listed)):
        found.fail(name, f"is in the archive but not in {MANIFEST}: it was added")
    signature_problem = ""
    if keys is None:
        found.authenticated = False
    elif key_id:
        key = keys.get(key_id)
        if key is None:
            signature_problem = (
                f"the manifest is signed with key {key_id!r}, which was not given (--key {key_id}:SECRET)"
            )
        elif not hmac.compare_digest(manifest_signature(key, text), signature):
            signature_problem = (
                f"the signature of {MANIFEST} does not hold under key {key_id!r}: {MANIFEST} was changed after it "
                f"was signed, or this is not the house's key (expected {manifest_signature(key, text)}, "
                f"found {signature})"
            )
    if signature_problem:
        found.fail(MANIFEST_SIGNATURE, signature_problem)
    if not found.problems:
        signed = f", signed with key {key_id!r}" if keys is not None else " (signature NOT checked: no key given)"
        found.held.append(f"{len(listed)} files, each as {MANIFEST} lists it{signed}")


# --- 6. every table twice: CSV and JSON --------------------------------------------------------------------------


def _records(archive: Archive, name: str, found: Findings) -> list[dict[str, Any]] | None:
    try:
        records = archive.json_of(name)
    except (OSError, ValueError) as exc:
        found.fail(name, f"is not JSON: {exc}")
        return None
    if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
        found.fail(name, "is not a list of records")
        return None
    return records


def _csv_rows(archive: Archive, name: str) -> list[tuple[int, list[str]]]:
    """The CSV's rows, each with the line it ends on (a cell may hold a line break)."""
    reader = csv.reader(io.StringIO(archive.bytes_of(name).decode("utf-8"), newline=""))
    return [(reader.line_num, cells) for cells in reader]


def _first_difference(
    table: Mapping[str, Any],
    columns: Sequence[str],
    records: Sequence[Mapping[str, Any]],
    rows: Sequence[tuple[int, list[str]]],
) -> tuple[str, str] | None:
    """Where the CSV first differs from its JSON twin, and how (None: they agree)."""
    for index, (line, cells) in enumerate(rows):
        if index >= len(records):
            return f"{table['csv']} line {line}", f"a row more than the {len(records)} records of {table['json']}"
        expected = [csv_cell(records[index].get(column)) for column in columns]
        if cells != expected:
            at = next(
                (i for i, (a, b) in enumerate(zip(cells, expected, strict=False)) if a != b),
                min(len(cells), len(expected)),
            )
            column = columns[at] if at < len(columns) else f"column {at + 1}"
            has = repr(cells[at]) if at < len(cells) else "nothing"
            want = repr(expected[at]) if at < len(expected) else "nothing"
            return (
                f"{table['csv']} line {line}",
                f"record {index + 1} (id {records[index].get('id')}), {column}: the CSV has {has}, but its JSON copy "
                f"({table['json']} {_line_of(index)}) has {want}",
            )
    if len(rows) < len(records):
        return table["csv"], f"holds {len(rows)} rows, but {table['json']} holds {len(records)} records"
    return None


def check_tables(archive: Archive, found: Findings) -> None:
    try:
        schema = archive.json_of(SCHEMA)
        tables = [t for t in schema["files"] if t.get("csv") and t.get("json")]
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        found.fail(SCHEMA, f"cannot be read ({exc.__class__.__name__} {exc})")
        return
    count = 0
    for table in tables:
        columns = [str(c["name"]) for c in table["columns"]]
        records = _records(archive, table["json"], found)
        if records is None:
            continue
        wrong = next((i for i, record in enumerate(records) if list(record) != columns), None)
        if wrong is not None:
            found.fail(
                f"{table['json']} {_line_of(wrong)}",
                f"holds the columns {list(records[wrong])}, where {SCHEMA} names {columns}",
            )
            continue
        try:
            rows = _csv_rows(archive, table["csv"])
        except (OSError, UnicodeDecodeError, csv.Error) as exc:
            found.fail(table["csv"], f"cannot be read as CSV ({exc})")
            continue
        header = rows[0][1] if rows else []
        if header != columns:
            found.fail(f"{table['csv']} line 1", f"the header is {header}, where {SCHEMA} names {columns}")
            continue
        difference = _first_difference(table, columns, records, rows[1:])
        if difference is not None:
            found.fail(*difference)
        count += len(records)
    if not found.problems:
        found.held.append(f"{len(tables)} tables, each CSV row the same as its JSON record ({count} records)")


# --- 4. the ledger -----------------------------------------------------------------------------------------------


def check_ledger(archive: Archive, found: Findings) -> None:
    postings = _records(archive, POSTINGS, found)
    entries = _records(archive, LEDGER_ENTRIES, found)
    if postings is None or entries is None:
        return
    line_of_posting = {p.get("id"): index for index, p in enumerate(postings)}
    money_in: dict[Any, int] = {}
    money_out: dict[Any, int] = {}
    lines: dict[Any, list[int]] = {}
    for index, entry in enumerate(entries):
        posting, amount = entry.get("posting_id"), entry.get("amount_cents")
        if posting not in line_of_posting:
            found.fail(
                f"{LEDGER_ENTRIES} {_line_of(index)}",
                f"entry {entry.get('id')} belongs to posting {posting}, which is not in {POSTINGS}",
            )
            continue
        if type(amount) is not int:
            found.fail(f"{LEDGER_ENTRIES} {_line_of(index)}", f"entry {entry.get('id')}: {amount!r} is not cents")
            continue
        if amount > 0:
            money_in[posting] = money_in.get(posting, 0) + amount
        else:
            money_out[posting] = money_out.get(posting, 0) - amount
        lines.setdefault(posting, []).append(index + 2)
    for posting, index in line_of_posting.items():
        came_in, went_out = money_in.get(posting, 0), money_out.get(posting, 0)
        if came_in != went_out:
            found.fail(
                f"{POSTINGS} {_line_of(index)}",
                f"posting {posting} does not balance: its entries ({LEDGER_ENTRIES} lines "
                f"{', '.join(map(str, lines.get(posting, [])))}) put {came_in} cents in and take {went_out} cents "
                "out; the two must be equal",
            )
    if not found.problems:
        found.held.append(
            f"{len(postings)} postings, each balanced: the money in equals the money out ({len(entries)} entries)"
        )


# --- 1. the audit events -----------------------------------------------------------------------------------------


def _event_name(event: Mapping[str, Any]) -> str:
    subject = f"{event.get('subject_type')}:{event.get('subject_id')}"
    return f"event #{event.get('seq')}, {event.get('event_type')} on {subject}"


def check_events(
    archive: Archive, keys: Mapping[str, bytes] | None, about: Mapping[str, Any], found: Findings
) -> list[dict[str, Any]]:
    events = _records(archive, EVENTS, found)
    if events is None:
        return []
    unkeyed_until = int(about.get("audit", {}).get("unkeyed_until", 0))
    previous: dict[str, Any] | None = None
    keys_used: set[str] = set()
    for index, event in enumerate(events):
        where = f"{EVENTS} {_line_of(index)} ({_event_name(event)})"
        try:
            seq, stored, key_id = int(event["seq"]), str(event["hash"]), str(event["key_id"])
            prev_hash = str(event["prev_hash"])
        except (KeyError, TypeError, ValueError) as exc:
            found.fail(where, f"is not an audit event ({exc.__class__.__name__} {exc})")
            continue
        if previous is not None and seq <= int(previous["seq"]):
            found.fail(where, f"its number {seq} does not follow #{previous['seq']}, on the line before")
        if prev_hash and previous is not None and int(previous["seq"]) == seq - 1 and prev_hash != previous["hash"]:
            found.fail(
                where,
                f"its link to the event before is {prev_hash}, but event #{seq - 1} on the line before has the hash "
                f"{previous['hash']}",
            )
        if not key_id:
            if seq > unkeyed_until or not prev_hash:
                found.fail(where, f"written without the audit key after the log was keyed (up to #{unkeyed_until})")
                continue
            computed = event_hash(event, None)
        elif keys is None:
            computed = stored  # an HMAC is recomputed with the key only
        elif key_id not in keys:
            found.fail(where, f"is signed with key {key_id!r}, which was not given (--key {key_id}:SECRET)")
            continue
        else:
            computed = event_hash(event, keys[key_id])
            keys_used.add(key_id)
        if not hmac.compare_digest(computed, stored):
            found.fail(
                where,
                f"its content does not give its hash: the file says {stored}, its content under key {key_id!r} gives "
                f"{computed}; the event was changed after it was written",
            )
        previous = event
    if not found.problems:
        how = f"recomputed under key{'s' if len(keys_used) != 1 else ''} {', '.join(sorted(keys_used))}"
        found.held.append(
            f"{len(events)} audit events, each hash {how if keys is not None else 'NOT recomputed (no key given)'}, "
            "in order"
        )
    return events


# --- 2. and 3. the signed heads and the tree ---------------------------------------------------------------------


def _signature_problem(record: Mapping[str, Any], keys: Mapping[str, bytes] | None) -> str:
    if keys is None:
        return ""
    key = keys.get(str(record.get("key_id")))
    if key is None:
        return f"is signed with key {record.get('key_id')!r}, which was not given (--key {record.get('key_id')}:SECRET)"
    expected = hmac.digest(key, tree_head_message(record), "sha256").hex()
    if not hmac.compare_digest(expected, str(record.get("signature"))):
        return f"its signature does not hold: expected {expected}, found {record.get('signature')}"
    return ""


def check_checkpoints(
    archive: Archive, keys: Mapping[str, bytes] | None, events: Sequence[Mapping[str, Any]], found: Findings
) -> None:
    records = _records(archive, CHECKPOINTS, found)
    if records is None:
        return
    by_seq = {int(e["seq"]): e for e in events if isinstance(e.get("seq"), int)}
    for index, record in enumerate(records):
        where = f"{CHECKPOINTS} {_line_of(index)} (the checkpoint of {record.get('tree_size')} leaves)"
        try:
            problem = _signature_problem(record, keys)
        except (KeyError, TypeError, ValueError) as exc:
            problem = f"is not a checkpoint ({exc.__class__.__name__} {exc})"
        if problem:
            found.fail(where, problem)
            continue
        seq = record.get("seq")
        event = by_seq.get(seq) if isinstance(seq, int) else None
        if event is not None and event.get("hash") != record.get("head_hash"):
            found.fail(
                where,
                f"signs event #{record.get('seq')} with the hash {record.get('head_hash')}, but {EVENTS} holds it with "
                f"{event.get('hash')}",
            )
    if not found.problems:
        signed = "each signature holds" if keys is not None else "signatures NOT checked (no key given)"
        found.held.append(f"{len(records)} checkpoints (signed heads of the audit log), {signed}")


def check_tree(
    archive: Archive, keys: Mapping[str, bytes] | None, events: Sequence[Mapping[str, Any]], found: Findings
) -> None:
    try:
        tree = archive.json_of(TREE)
        head, runs = tree["head"], tree["runs"]
        size, root = int(head["tree_size"]), str(head["root_hash"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        found.fail(TREE, f"cannot be read ({exc.__class__.__name__} {exc})")
        return
    problem = _signature_problem(head, keys)
    if problem or not size:
        found.fail(f"{TREE}, its head", problem or "is not a head of the tree")
        return
    archived = {int(e["seq"]): (index, e) for index, e in enumerate(events) if isinstance(e.get("seq"), int)}
    in_tree: set[int] = set()
    leaves_held = 0
    for number, run in enumerate(runs, start=1):
        try:
            first = int(run["first_position"])
            leaves = run["leaves"]
            where = f"{TREE}, run {number} (leaves {first + 1} to {first + len(leaves)} of {size})"
            for offset, leaf in enumerate(leaves):
                if int(leaf["position"]) != first + offset:
                    raise RunProblem(f"leaf {offset + 1} is at position {leaf['position']}, not {first + offset}")
                seq = int(leaf["event_seq"])
                if leaf["archived"]:
                    if seq not in archived:
                        raise RunProblem(f"the leaf at position {first + offset} names event #{seq}, not in {EVENTS}")
                    index, event = archived[seq]
                    if event.get("hash") != leaf["event_hash"]:
                        raise RunProblem(
                            f"the leaf at position {first + offset} holds event #{seq} with the hash "
                            f"{leaf['event_hash']}, but {EVENTS} {_line_of(index)} has {event.get('hash')}"
                        )
                    in_tree.add(seq)
            data = [leaf_data(int(leaf["event_seq"]), str(leaf["event_hash"])) for leaf in leaves]
            given = run_root(
                first, [bytes.fromhex(h) for h in run["left"]], data, [bytes.fromhex(h) for h in run["right"]], size
            )
        except (KeyError, TypeError, ValueError) as exc:  # RunProblem is a ValueError
            found.fail(f"{TREE}, run {number}", str(exc) if isinstance(exc, RunProblem) else f"is not a run ({exc})")
            continue
        if not hmac.compare_digest(given.hex(), root):
            found.fail(
                where,
                f"its leaves give the root {given.hex()}, but the head signed for {size} leaves is {root}: a leaf, "
                "or a hash beside the run, was changed after the head was signed",
            )
        leaves_held += len(leaves)
    for seq in sorted(set(archived) - in_tree):
        index, event = archived[seq]
        found.fail(f"{EVENTS} {_line_of(index)} ({_event_name(event)})", f"is in no run of leaves of {TREE}")
        break
    if not found.problems:
        found.held.append(
            f"every archived event a leaf of the audit log's tree: {len(runs)} run{'s' if len(runs) != 1 else ''} of "
            f"{leaves_held} leaves give the root of the head of {size} leaves signed at {head.get('made_at')} "
            f"(key {head.get('key_id')!r})"
        )


# --- 5. the shift reports ----------------------------------------------------------------------------------------


def check_reports(archive: Archive, found: Findings) -> None:
    reports = _records(archive, SHIFT_REPORTS, found)
    if reports is None:
        return
    for index, report in enumerate(reports):
        figures = report.get("figures_file")
        if not figures or not report.get("content_hash"):
            continue
        try:
            digest = hashlib.sha256(canonical_json(archive.json_of(str(figures))).encode("utf-8")).hexdigest()
        except (OSError, ValueError) as exc:
            found.fail(str(figures), f"cannot be read ({exc})")
            continue
        if digest != report["content_hash"]:
            found.fail(
                f"{SHIFT_REPORTS} {_line_of(index)}",
                f"the figures of report {report.get('id')} ({figures}) give the content hash {digest}, but the report "
                f"was printed with {report['content_hash']}",
            )
    if not found.problems:
        found.held.append(f"{len(reports)} shift reports, each one's figures giving the content hash its PDF prints")


# --- all of it ---------------------------------------------------------------------------------------------------


def verify(root: Path, keys: Mapping[str, bytes] | None) -> Findings:
    """Every check, in order; a check whose input is broken still lets the later ones run."""
    archive = Archive(root)
    found = Findings()
    try:
        about = archive.json_of(ABOUT)
        if about.get("format") != FORMAT or int(about.get("format_version", 0)) > FORMAT_VERSION:
            raise NotAnArchive(f"{root}/{ABOUT} does not describe a {FORMAT} of version {FORMAT_VERSION} or earlier")
    except (OSError, ValueError, AttributeError) as exc:
        raise NotAnArchive(f"{root}/{ABOUT} cannot be read ({exc})") from exc
    wrong_key = _wrong_key(archive, keys)
    if wrong_key:
        found.fail(MANIFEST_SIGNATURE, wrong_key)
        return found
    # The exact copies first (the JSON, hashed or balanced), then each CSV against its JSON copy, then the
    # manifest: the first problem named is where the difference is, not only which file it is in.
    events = check_events(archive, keys, about, found)
    check_checkpoints(archive, keys, events, found)
    check_tree(archive, keys, events, found)
    check_ledger(archive, found)
    check_reports(archive, found)
    check_tables(archive, found)
    check_manifest(archive, keys, found)
    found.held.insert(0, f"the archive of gaming day {about.get('business_date')}, written {about.get('made_at')}")
    return found


def _wrong_key(archive: Archive, keys: Mapping[str, bytes] | None) -> str:
    """Whether the key given is not the one that signed the archive: the manifest's signature does not hold, yet
    every file is as the manifest lists it (so the manifest was not changed either, or its lines would not hold).
    Every keyed hash would then fail: this says why, once."""
    try:
        sealed = archive.json_of(MANIFEST_SIGNATURE)
        key = None if keys is None else keys.get(str(sealed["key_id"]))
        text = archive.bytes_of(MANIFEST)
        if key is None or hmac.compare_digest(manifest_signature(key, text), str(sealed["signature"])):
            return ""
        for line in text.decode("utf-8").splitlines():
            digest, _, name = line.partition("  ")
            if hashlib.sha256(archive.bytes_of(name)).hexdigest() != digest:
                return ""
    except (OSError, ValueError, KeyError, TypeError):
        return ""  # the manifest check names what is wrong
    return (
        f"the key given for {sealed['key_id']!r} is not the one that signed this archive: the signature of {MANIFEST} "
        f"does not hold under it, while every file is as {MANIFEST} lists it. Give the house's audit key."
    )


def keys_read(given: Sequence[str], environment: str) -> dict[str, bytes]:
    """The audit keys: each ``--key KEY_ID:SECRET``, then the pairs of ``TABLESIDE_AUDIT_KEYS`` (comma-separated)."""
    keys: dict[str, bytes] = {}
    for pair in [*given, *(p for p in environment.split(",") if p.strip())]:
        key_id, sep, secret = pair.strip().partition(":")
        if not sep or not key_id.strip() or not secret.strip():
            raise ValueError(f"a key is KEY_ID:SECRET, not {pair.split(':')[0]!r}:…")
        keys.setdefault(key_id.strip(), secret.strip().encode("utf-8"))
    return keys


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Verify the archive of a gaming day written by Tableside.")
    parser.add_argument("archive", help="the archive's directory (unpack a .zip first)")
    parser.add_argument(
        "--key",
        action="append",
        default=[],
        metavar="KEY_ID:SECRET",
        help="the house's audit key (repeatable; or TABLESIDE_AUDIT_KEYS=KEY_ID:SECRET,...)",
    )
    parser.add_argument(
        "--without-key",
        action="store_true",
        help="check what needs no key; the archive is then NOT authenticated",
    )
    args = parser.parse_args(argv)
    try:
        keys: dict[str, bytes] | None = keys_read(args.key, os.environ.get("TABLESIDE_AUDIT_KEYS", ""))
    except ValueError as exc:
        print(f"verify_archive: {exc}", file=sys.stderr)
        return 2
    if not keys:
        if not args.without_key:
            print(
                "verify_archive: give the house's audit key (--key KEY_ID:SECRET, or TABLESIDE_AUDIT_KEYS), or "
                "--without-key to check what needs no key",
                file=sys.stderr,
            )
            return 2
        keys = None
    try:
        found = verify(Path(args.archive), keys)
    except NotAnArchive as exc:
        print(f"verify_archive: {exc}", file=sys.stderr)
        return 2
    if found.problems:
        print(f"FAILS: {found.problems[0]}")
        if len(found.problems) > 1:
            print(f"and {len(found.problems) - 1} more:")
            for problem in found.problems[1:MOST_LISTED]:
                print(f"  {problem}")
        return 1
    print("HOLDS: " + found.held[0])
    for line in found.held[1:]:
        print(f"  {line}")
    if not found.authenticated:
        print("NOT AUTHENTICATED: no key was given, so the signatures and the events' keyed hashes were not checked.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
