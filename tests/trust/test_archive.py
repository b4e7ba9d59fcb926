"""The archive of a gaming day (``manage.py archive_gaming_day``, docs/archive.md), and its verifier run as an auditor
would run it years later: by a bare Python, in a virtual environment with no package, outside the project.

The floor is ``every_record``'s (a day of tables, money, ratings and the poker room), with a round corrected and a
round voided on request in its Swing shift, both shifts closed with their end-of-shift reports, and the day closed.
"""

from __future__ import annotations

import ast
import datetime as dt
import hashlib
import io
import json
import random
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from casino import merkle
from casino.audit import event_hash
from casino.models import AuditEvent, GamingDay
from casino.roles import Role
from casino.services import gaming_day_close, gaming_day_open, pit_create, shift_close, shift_open
from ledger.models import LedgerEntry
from pit.archive import verify_archive
from pit.archive.audit_slice import RUN_GAP, _event_record
from pit.services import shift_report_build
from settlement.services import adjustment_approve, adjustment_request, settle_round
from tables.drop import drop_count_record
from tables.slips import slip_void
from tests.guards import tamper
from tests.settlement.conftest import BANK, LOSES, WINS

DAY = "2025-03-01"
NAME = f"tableside-gaming-day-{DAY}"


@pytest.fixture(scope="session")
def bare_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Python with nothing installed (``venv --without-pip``): no Django, no Tableside, no package at all."""
    where = tmp_path_factory.mktemp("bare-venv")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    python = where / "bin" / "python"
    nothing = subprocess.run([str(python), "-c", "import django"], capture_output=True, cwd=where)
    assert nothing.returncode != 0, "the bare virtual environment can import Django"
    return python


def _keys() -> str:
    return ",".join(f"{key_id}:{secret}" for key_id, secret in settings.TABLESIDE_AUDIT_KEYS.items())


def verified(python: Path, archive: Path, *args: str, keys: str | None = None) -> subprocess.CompletedProcess[str]:
    """The archive's own verifier, run by the bare Python from outside the project, the key in the environment."""
    env = {"PATH": "/usr/bin:/bin"} | ({"TABLESIDE_AUDIT_KEYS": keys} if keys else {})
    return subprocess.run(
        [str(python), str(archive / "verify_archive.py"), str(archive), *args],
        capture_output=True,
        text=True,
        cwd=archive.parent,
        env=env,
        timeout=120,
    )


@pytest.fixture
def closed_day(every_record, dealer, floor_supervisor, pit_boss, play_to_hands) -> Any:  # type: ignore[no-untyped-def]
    """``every_record``'s day played on in its Swing shift (a correction and a void, each asked by the dealer and
    approved by a supervisor), closed shift by shift with their end-of-shift reports, then closed."""
    floor = every_record
    corrected = play_to_hands(floor.table, wagers={1: 2500}, hands={"banker": BANK, "seats": {"1": WINS}})
    settle_round(round=corrected, actor=dealer, idempotency_key="archive-corrected")
    asked = adjustment_request(
        actor=dealer,
        round=corrected,
        kind="correction",
        reason="Seat 1's hands were keyed from the wrong seat",
        hands={"banker": BANK, "seats": {"1": LOSES}},
    )
    adjustment_approve(actor=pit_boss, adjustment=asked)
    voided = play_to_hands(floor.table, wagers={2: 1000}, hands={"banker": BANK, "seats": {"2": LOSES}})
    asked = adjustment_request(actor=dealer, round=voided, kind="void", reason="Misdeal: a card exposed")
    adjustment_approve(actor=floor_supervisor, adjustment=asked)
    slip_void(actor=pit_boss, slip=floor.slip_requested, reason="No longer needed")
    shift_close(actor=pit_boss, shift=floor.swing_shift)
    for shift in (floor.day_shift, floor.swing_shift):
        shift_report_build(shift=shift, kind="shift")
    gaming_day_close(actor=pit_boss, gaming_day=floor.day_shift.gaming_day)
    return floor


def archive_day(out: Path, *more: str) -> str:
    said = io.StringIO()
    call_command("archive_gaming_day", DAY, "--out", str(out), *more, stdout=said)
    return said.getvalue()


@pytest.fixture
def archived(closed_day: Any, tmp_path: Path) -> Path:
    archive_day(tmp_path / "out")
    return tmp_path / "out" / NAME


def _records(archive: Path, name: str) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = json.loads((archive / name).read_text(encoding="utf-8"))
    return records


def test_an_auditor_verifies_the_archive_of_a_closed_day_with_a_bare_python(archived: Path, bare_python: Path) -> None:
    answer = verified(bare_python, archived, keys=_keys())

    assert answer.returncode == 0, answer.stdout + answer.stderr
    assert answer.stdout.startswith(f"HOLDS: the archive of gaming day {DAY}")
    assert "each balanced" in answer.stdout and "audit events, each hash recomputed" in answer.stdout
    assert "give the root of the head of" in answer.stdout


def test_the_archive_holds_every_record_of_the_day_with_its_reports_and_events(archived: Path) -> None:
    about = json.loads((archived / "archive.json").read_text())
    for table in (
        "gaming_days", "shifts", "tables", "rounds", "wagers", "void_and_correction_requests", "postings",
        "ledger_entries", "tray_counts", "slips", "buy_ins", "drop_counts", "rating_sessions", "rated_rounds",
        "rated_buy_ins", "players", "shift_reports", "staff", "events", "checkpoints",
    ):  # fmt: skip
        assert about["rows"][table] > 0, table
    requests = _records(archived, "data/void_and_correction_requests.json")
    assert sorted((r["kind"], r["status"]) for r in requests) == [("correction", "approved"), ("void", "approved")]
    postings = _records(archived, "data/postings.json")
    # (the drop box was counted once: not final, so no drop posting yet)
    assert {"wager", "settlement", "reversal", "void", "fill", "buy_in"} <= {p["kind"] for p in postings}
    # Every entry of the day's postings, to the cent, as the ledger holds them.
    entries = _records(archived, "data/ledger_entries.json")
    in_ledger = LedgerEntry.objects.filter(posting_id__in=[p["id"] for p in postings])
    assert sorted((e["id"], e["amount_cents"]) for e in entries) == sorted(in_ledger.values_list("id", "amount_cents"))
    # The players by id and tier, never by name.
    assert "Mr Lee" not in (archived / "data/players.csv").read_text()
    assert "name" not in [c for c in _records(archived, "data/players.json")[0]]
    # The end-of-shift reports as printed, and the figures their content hash comes from.
    reports = _records(archived, "data/shift_reports.json")
    assert len(reports) == 2
    for report in reports:
        assert (archived / report["pdf_file"]).read_bytes().startswith(b"%PDF-")
    # The day's events: from the day's opening to its close, and the drop box counted after a shift closed.
    events = _records(archived, "audit/events.json")
    types = [e["event_type"] for e in events]
    assert types[0] == "gaming_day.opened" and "gaming_day.closed" in types and "drop.counted" in types
    assert [e["seq"] for e in events] == sorted(e["seq"] for e in events)
    # The schema names every file but itself, its prose and the manifest's two.
    schema = json.loads((archived / "schema.json").read_text())
    named = {e.get("csv") for e in schema["files"]} | {e.get("json") for e in schema["files"]}
    named |= {e.get("path") for e in schema["files"]}
    on_disk = {p.relative_to(archived).as_posix() for p in archived.rglob("*") if p.is_file()}
    assert on_disk - named == set()
    assert "cannot make PDF/A" in (archived / "README.txt").read_text()


def _tampered(archive: Path, into: Path, name: str, change: Callable[[str], str]) -> Path:
    copy = into / archive.name
    shutil.copytree(archive, copy)
    path = copy / name
    before = path.read_bytes()
    path.write_bytes(change(before.decode("utf-8")).encode("utf-8"))
    differs = [i for i, (a, b) in enumerate(zip(before, path.read_bytes(), strict=True)) if a != b]
    assert len(differs) == 1, "the change is one byte"
    return copy


def _one_digit_more(text: str, after: str) -> str:
    """The text with the first digit after ``after`` changed (9 becomes 8, any other one more)."""
    at = text.index(after) + len(after)
    while not text[at].isdigit():
        at += 1
    digit = "8" if text[at] == "9" else str(int(text[at]) + 1)
    return text[:at] + digit + text[at + 1 :]


def test_a_byte_changed_in_the_ledger_entries_csv_is_named_by_its_line_and_column(
    archived: Path, bare_python: Path, tmp_path: Path
) -> None:
    header, *rows = (archived / "data/ledger_entries.csv").read_text().splitlines()
    third = rows[2]
    assert '"' not in third
    cells = third.split(",")
    amount = header.split(",").index("amount_cents")
    cells[amount] = _one_digit_more(cells[amount], "")
    copy = _tampered(archived, tmp_path / "a", "data/ledger_entries.csv", lambda t: t.replace(third, ",".join(cells)))

    answer = verified(bare_python, copy, keys=_keys())

    assert answer.returncode == 1
    first = answer.stdout.splitlines()[0]
    assert first.startswith("FAILS: data/ledger_entries.csv line 4: record 3 (id "), first
    assert "amount_cents: the CSV has" in first and "data/ledger_entries.json line 4" in first
    assert "MANIFEST line" in answer.stdout  # the manifest no longer holds the file either


def test_a_byte_changed_in_the_audit_events_is_named_by_its_line_and_event(
    archived: Path, bare_python: Path, tmp_path: Path
) -> None:
    events = (archived / "audit/events.json").read_text().splitlines()
    line = next(i for i, text in enumerate(events) if '"event_type":"round.settled"' in text)
    seq = json.loads(events[line].rstrip(","))["seq"]

    def change(text: str) -> str:
        lines = text.split("\n")
        lines[line] = _one_digit_more(lines[line], '"occurred_at":"')
        return "\n".join(lines)

    copy = _tampered(archived, tmp_path / "b", "audit/events.json", change)

    answer = verified(bare_python, copy, keys=_keys())

    assert answer.returncode == 1
    first = answer.stdout.splitlines()[0]
    assert first.startswith(f"FAILS: audit/events.json line {line + 1} (event #{seq}, round.settled on "), first
    assert "its content does not give its hash" in first


def test_a_byte_changed_in_the_manifest_is_named_by_its_line(archived: Path, bare_python: Path, tmp_path: Path) -> None:
    manifest = (archived / "MANIFEST").read_text().splitlines()
    line = next(i for i, text in enumerate(manifest) if text.endswith("  data/rounds.csv"))
    hexes = "0123456789abcdef"

    def change(text: str) -> str:
        lines = text.split("\n")
        lines[line] = hexes[(hexes.index(lines[line][0]) + 1) % 16] + lines[line][1:]
        return "\n".join(lines)

    copy = _tampered(archived, tmp_path / "c", "MANIFEST", change)

    answer = verified(bare_python, copy, keys=_keys())

    assert answer.returncode == 1
    first = answer.stdout.splitlines()[0]
    assert first.startswith(f"FAILS: MANIFEST line {line + 1}: says the SHA-256 of data/rounds.csv is "), first
    assert "MANIFEST.sig: the signature of MANIFEST does not hold" in answer.stdout


def test_the_verifier_wants_the_key_and_says_when_it_checked_without_it(archived: Path, bare_python: Path) -> None:
    no_key = verified(bare_python, archived)
    assert no_key.returncode == 2 and "give the house's audit key" in no_key.stderr

    key_id = next(iter(settings.TABLESIDE_AUDIT_KEYS))
    wrong = verified(bare_python, archived, keys=f"{key_id}:{'x' * 40}")
    assert wrong.returncode == 1
    assert wrong.stdout == (
        f"FAILS: MANIFEST.sig: the key given for {key_id!r} is not the one that signed this archive: the signature of "
        "MANIFEST does not hold under it, while every file is as MANIFEST lists it. Give the house's audit key.\n"
    )

    unkeyed = verified(bare_python, archived, "--without-key")
    assert unkeyed.returncode == 0, unkeyed.stdout
    assert "NOT AUTHENTICATED" in unkeyed.stdout


def test_an_open_day_is_refused_and_nothing_is_written(shift: Any, tmp_path: Path) -> None:
    with pytest.raises(CommandError, match=f"The gaming day {DAY} is still open: it is archived once it is closed"):
        archive_day(tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_an_unknown_day_is_refused(closed_day: Any, tmp_path: Path) -> None:
    with pytest.raises(CommandError, match=f"There is no gaming day 2025-03-02 \\(the latest closed one is {DAY}\\)"):
        call_command("archive_gaming_day", "2025-03-02", "--out", str(tmp_path), stdout=io.StringIO())
    with pytest.raises(CommandError, match="as YYYY-MM-DD"):
        call_command("archive_gaming_day", "1 March", "--out", str(tmp_path), stdout=io.StringIO())
    assert list(tmp_path.iterdir()) == []


def test_a_second_run_into_the_same_directory_is_refused_and_leaves_the_first_archive_as_it_was(
    closed_day: Any, tmp_path: Path
) -> None:
    said = archive_day(tmp_path, "--zip")
    assert f"is in {tmp_path / NAME}/" in said and f"{NAME}.zip" in said
    manifest = (tmp_path / NAME / "MANIFEST").read_bytes()

    with pytest.raises(CommandError, match="already exists: an archive is written once and never overwritten"):
        archive_day(tmp_path)

    assert (tmp_path / NAME / "MANIFEST").read_bytes() == manifest
    assert sorted(p.name for p in tmp_path.iterdir()) == [NAME, f"{NAME}.zip"]


# --- the verifier's own copies of the audit log's hashes, held to the installation's -----------------------------


def test_the_verifier_computes_every_events_hash_as_the_audit_log_does(closed_day: Any) -> None:
    keys = {k: v.encode() for k, v in settings.TABLESIDE_AUDIT_KEYS.items()}
    events = list(AuditEvent.objects.order_by("seq"))
    assert events
    for event in events:
        record = _event_record(event)  # as the archive writes it
        assert verify_archive.event_hash(record, keys[event.key_id]) == event_hash(prev_hash="", event=event)


@pytest.mark.parametrize("size", [1, 2, 3, 7, 8, 9, 31, 64, 100])
def test_the_verifiers_runs_of_leaves_give_the_root_casino_merkle_gives(size: int) -> None:
    rng = random.Random(size)
    leaves = [verify_archive.leaf_data(seq, hashlib.sha256(str(seq).encode()).hexdigest()) for seq in range(size)]
    for _ in range(10):
        first = rng.randrange(size)
        last = rng.randrange(first, size)
        left = merkle.Frontier()
        for data in leaves[:first]:
            left.append(data)
        tree = merkle.Tree(leaves)
        right = [tree.hash(start, start + (1 << h)) for start, h in verify_archive.aligned_subtrees(last + 1, size)]
        given = verify_archive.run_root(first, left.hashes, leaves[first : last + 1], right, size)
        assert given == merkle.root_of(leaves), (first, last)


def test_the_verifier_imports_nothing_but_the_standard_library() -> None:
    tree = ast.parse(Path(verify_archive.__file__).read_text())
    imported = {
        alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names
    }
    imported |= {
        node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
    }
    assert imported - {"__future__"} <= set(sys.stdlib_module_names)


def test_what_the_archive_counts_is_what_the_day_holds(archived: Path) -> None:
    day = GamingDay.objects.get(business_date=DAY)
    shifts = _records(archived, "data/shifts.json")
    assert [s["id"] for s in shifts] == sorted(day.shifts.values_list("pk", flat=True))


def test_a_day_in_the_middle_of_a_longer_log_is_proved_by_runs_of_its_leaves(
    closed_day: Any, pit_boss: Any, make_user: Any, bare_python: Path, tmp_path: Path
) -> None:
    """The next day writes more than a run's gap of events, then the Day shift's drop box is counted a second time
    (final: its drop posted) and more events follow: the first day is two runs of leaves, each with the hashes of the
    tree on both sides; the second day's own run starts deep in the tree, its left side from a signed head's
    frontier."""
    gaming_day_open(actor=pit_boss, business_date=dt.date(2025, 3, 2))
    next_shift = shift_open(actor=pit_boss, name="Day")
    for number in range(RUN_GAP + 6):
        pit_create(actor=pit_boss, name=f"Pit {number + 2}")
    second = drop_count_record(
        actor=make_user("second_counter", Role.COUNT_TEAM),
        table=closed_day.table,
        shift=closed_day.day_shift,
        cash={10000: 5, 2000: 10},
        markers_cents=0,
        promo_cents=0,
    )
    for number in range(10):
        pit_create(actor=pit_boss, name=f"Late pit {number}")
    shift_close(actor=pit_boss, shift=next_shift)
    gaming_day_close(actor=pit_boss, gaming_day=next_shift.gaming_day)

    archive_day(tmp_path)
    call_command("archive_gaming_day", "2025-03-02", "--out", str(tmp_path), stdout=io.StringIO())

    first, later = tmp_path / NAME, tmp_path / "tableside-gaming-day-2025-03-02"
    runs = json.loads((first / "audit/tree.json").read_text())["runs"]
    assert len(runs) == 2 and all(run["right"] for run in runs)
    late = [leaf["event_seq"] for leaf in runs[1]["leaves"] if leaf["archived"]]
    counted = AuditEvent.objects.get(event_type="drop.counted", subject_id=str(second.pk))
    assert counted.seq in late
    assert "drop" in {p["kind"] for p in _records(first, "data/postings.json")}
    # The guest's rating session, still playing, runs into the next day: its events of the first day come too.
    *_, next_run = json.loads((later / "audit/tree.json").read_text())["runs"]
    assert next_run["first_position"] > 0 and next_run["left"]
    for archive in (first, later):
        answer = verified(bare_python, archive, keys=_keys())
        assert answer.returncode == 0, answer.stdout
    assert "2 runs of" in verified(bare_python, first, keys=_keys()).stdout


def test_a_day_whose_audit_log_was_rewritten_is_not_archived(closed_day: Any, tmp_path: Path) -> None:
    """An attacker with the database but not the key edits a settlement's event: the archive would sign it, so it is
    refused, naming the event, and nothing is left behind."""
    settled = AuditEvent.objects.filter(event_type="round.settled").order_by("seq").first()
    assert settled is not None
    tamper("UPDATE casino_auditevent SET reason = %s WHERE seq = %s", ["paid twice", settled.seq])

    with pytest.raises(CommandError, match=f"does not verify: audit/events.json line [0-9]+ \\(event #{settled.seq}"):
        archive_day(tmp_path)

    assert list(tmp_path.iterdir()) == []
