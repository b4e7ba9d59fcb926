"""A backup taken in the middle of a shift, restored into a new database, is the same floor (PostgreSQL only).

The floor of every audited record (``tests/trust/floor.py``: the Day shift closed and reported, the Swing shift
open) plays on into the Swing shift: two rounds settled, a buy-in, the fill it had asked for received, a checkpoint
signed. Then the IT engineer runs ``manage.py backup_database``, the floor closes the Swing shift, and
``manage.py restore_database`` restores the backup into a new database on the same server. Every command runs in a
process of its own, with ``DATABASE_URL`` naming its database, as the engineer would run it; the application's
commands connect as the application's role where the pass has one (``TABLESIDE_TEST_APP_ROLE``).

On the restored database every verifier passes, the append-only triggers still refuse an edit of the audit log (and
the application's role may not try), the checkpoint file written after the backup names exactly the heads the
restore lost, and the reports rebuilt there are the original's, to the content hash: the Day shift's rebuilt from
its rows, the Swing shift's after closing it there at the instant the original closed it.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import psycopg
import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.db import connection, transaction
from django.utils import timezone

from casino.audit import audit_checkpoint_make, checkpoints_from_file
from casino.backups import checkpoints_copy_path
from casino.models import AuditCheckpoint, AuditLeaf, Shift
from casino.services import shift_close
from settlement.models import ShiftReport
from settlement.services import settle_round
from tables.drop import buy_in_record
from tables.slips import slip_issue, slip_sign
from tests.settlement.conftest import BANK, LOSES, PUSHES, WINS, pgp_table, play_to_hands  # noqa: F401  (fixtures)
from tests.trust.floor import Floor, every_record  # noqa: F401  (fixture)

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ("pg_dump", "pg_restore")

pytestmark = [
    pytest.mark.usefixtures("postgresql_and_its_tools", "eager_celery"),
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def postgresql_and_its_tools() -> None:
    """Backups are PostgreSQL's (pg_dump, pg_restore): the SQLite pass skips with the reason; the PostgreSQL pass
    (``TABLESIDE_REQUIRE_SERVICES``) fails instead when the database or a tool is missing."""
    problems = []
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        problems.append("DATABASE_URL is not PostgreSQL")
    problems.extend(f"{tool} is not installed" for tool in TOOLS if shutil.which(tool) is None)
    if problems:
        message = "backups are PostgreSQL's (.ci/run's second pass): " + "; ".join(problems)
        if os.environ.get("TABLESIDE_REQUIRE_SERVICES") == "1":
            pytest.fail(message)
        pytest.skip(message)


def _url(name: str, *, user: str | None = None) -> str:
    db = connection.settings_dict
    user = user or db.get("USER") or "postgres"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") and user == db.get("USER") else ""
    return f"postgres://{user}{password}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{name}"


def _as_owner(name: str) -> psycopg.Connection[Any]:
    """A connection to ``name`` as the superuser that made the test database, not as the application's role the pass
    enters with ``PGOPTIONS`` (``tests/conftest.py``)."""
    db = connection.settings_dict
    owner = psycopg.connect(
        host=db.get("HOST") or "127.0.0.1",
        port=db.get("PORT") or 5432,
        user=db.get("USER") or "postgres",
        password=db.get("PASSWORD") or None,
        dbname=name,
        autocommit=True,
    )
    owner.execute("SET ROLE NONE")
    return owner


APP_ROLE = os.environ.get("TABLESIDE_TEST_APP_ROLE", "").strip()


def manage(*args: str, database: str, checkpoints: Path, as_app: bool = False) -> subprocess.CompletedProcess[str]:
    """``python manage.py ARGS`` in a process of its own on ``database``: as its owner (a backup, a restore), or as
    the application connects (``as_app``: its role where the pass has one). Celery runs in-process and the cache is
    the process's own; the sequencer runs when a command runs it, as in the test process (its heads counted exactly).
    """
    environment = {k: v for k, v in os.environ.items() if k not in ("PGOPTIONS", "CELERY_BROKER_URL", "REDIS_URL")}
    environment.update(
        DATABASE_URL=_url(database, user=APP_ROLE if as_app and APP_ROLE else None),
        DJANGO_SETTINGS_MODULE="config.settings",
        TABLESIDE_AUDIT_CHECKPOINT_FILE=str(checkpoints),
        TABLESIDE_AUDIT_SEQUENCE_AFTER_WRITES="0",
    )
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )


def passes(completed: subprocess.CompletedProcess[str]) -> str:
    assert completed.returncode == 0, f"exit {completed.returncode}\n{completed.stdout}\n{completed.stderr}"
    return completed.stdout


@pytest.fixture
def new_database() -> Iterator[str]:
    """A new, empty database on the test database's server, named after it (pytest-xdist's workers each have their
    own) and dropped at the end."""
    name = f"{connection.settings_dict['NAME']}_restored_{uuid.uuid4().hex[:8]}"
    with _as_owner("postgres") as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    yield name
    with _as_owner("postgres") as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _swing_played(floor: Floor, dealer: Any, floor_supervisor: Any, play_to_hands: Any) -> None:  # noqa: F811
    """The Swing shift goes on: two rounds settled at PGP-1, a cash buy-in, the fill it had asked for issued and
    signed by two, and the log's head signed."""
    table = floor.table
    first = play_to_hands(table, wagers={2: 1000, 4: 2500}, hands={"banker": BANK, "seats": {"2": WINS, "4": LOSES}})
    settle_round(round=first, actor=dealer, idempotency_key="swing-1")
    buy_in_record(actor=dealer, table=table, seat=5, medium="cash", amount_cents=20_000)
    second = play_to_hands(table, wagers={4: 5000, 5: 1500}, hands={"banker": BANK, "seats": {"4": PUSHES, "5": WINS}})
    settle_round(round=second, actor=dealer, idempotency_key="swing-2")
    fill = slip_sign(actor=dealer, slip=slip_issue(actor=floor.cage_cashier, slip=floor.slip_requested))
    slip_sign(actor=floor_supervisor, slip=fill)
    with transaction.atomic():
        audit_checkpoint_make(reason="by hand")


def _ready_reports(shift: Shift) -> dict[str, str]:
    return dict(
        ShiftReport.objects.filter(shift=shift, status=ShiftReport.Status.READY).values_list("kind", "content_hash")
    )


# Run on the restored database (manage.py shell): close the Swing shift at the instant the original closed it, then
# answer its reports' content hashes and those of the Day shift's reports rebuilt from the restored rows.
CLOSE_AND_REPORT = """
import datetime as dt, json
from unittest import mock
from django.contrib.auth.models import User
from casino.models import Shift
from casino.services import shift_close
from pit.report_files import report_render
from settlement.models import ShiftReport
with mock.patch("django.utils.timezone.now", return_value=dt.datetime.fromisoformat({at!r})):
    shift_close(actor=User.objects.get(username={boss!r}), shift=Shift.objects.get(pk={swing}))
ready = ShiftReport.objects.filter(shift_id={swing}, status=ShiftReport.Status.READY)
day = Shift.objects.get(pk={day})
print(json.dumps({{
    "swing": dict(ready.values_list("kind", "content_hash")),
    "day": {{kind: report_render(shift=day, kind=kind)[3] for kind in {day_kinds!r}}},
}}))
"""


def test_a_backup_taken_mid_shift_restores_into_a_new_database_that_verifies_and_reports_the_same(
    every_record: Floor,  # noqa: F811
    dealer: Any,
    floor_supervisor: Any,
    pit_boss: Any,
    play_to_hands: Any,  # noqa: F811
    new_database: str,
    tmp_path: Path,
) -> None:
    floor = every_record
    original = connection.settings_dict["NAME"]
    live_file = Path(settings.TABLESIDE_AUDIT_CHECKPOINT_FILE)
    _swing_played(floor, dealer, floor_supervisor, play_to_hands)
    leaves_at_backup = AuditLeaf.objects.count()
    heads_at_backup = len(checkpoints_from_file(live_file))
    assert heads_at_backup >= 2  # the Day shift's close and the one signed by hand

    # The IT engineer backs the database up in the middle of the Swing shift.
    dump = tmp_path / "tableside.dump"
    said = passes(manage("backup_database", "--out", str(dump), database=original, checkpoints=live_file))
    assert f"Backed up {original} " in said and f"Copied {heads_at_backup} audit checkpoints" in said
    backed_up_heads = checkpoints_copy_path(dump)
    assert backed_up_heads.read_text() == live_file.read_text()
    with pytest.raises(CommandError, match="already exists: a backup never writes over a file"):
        call_command("backup_database", out=dump)

    # The floor plays on: the Swing shift closes (its reports built), its head signed after the backup.
    closed_at = (timezone.now() + dt.timedelta(minutes=5)).replace(microsecond=0)
    with mock.patch("django.utils.timezone.now", return_value=closed_at):
        swing = shift_close(actor=pit_boss, shift=floor.swing_shift)
    swing_reports, day_reports = _ready_reports(swing), _ready_reports(floor.day_shift)
    assert "shift" in swing_reports and "shift" in day_reports
    leaves_at_close = AuditLeaf.objects.count()
    assert leaves_at_close > leaves_at_backup
    assert AuditCheckpoint.objects.filter(shift=swing).exists()

    # Restored into a new, empty database, and the application's role granted there.
    said = passes(
        manage(
            "restore_database",
            str(dump),
            "--into",
            _url(new_database),
            "--app-role",
            APP_ROLE,
            database=original,
            checkpoints=live_file,
        )
    )
    assert f"Restored {dump} into {new_database} " in said
    assert (f"{APP_ROLE}: " in said) if APP_ROLE else ("No application role was granted" in said)
    again = manage(
        "restore_database", str(dump), "--into", _url(new_database), database=original, checkpoints=live_file
    )
    assert again.returncode != 0
    assert f"The database {new_database} " in again.stderr and "is not empty" in again.stderr

    # Every verifier passes on the restored database, held to the checkpoints backed up with it.
    said = passes(manage("verify_audit", database=new_database, checkpoints=backed_up_heads, as_app=True))
    assert f"{leaves_at_backup} in its tree, held to" in said and "every one as recorded" in said
    said = passes(manage("verify_ledger", "--replay", database=new_database, checkpoints=backed_up_heads, as_app=True))
    assert "The ledger verifies" in said and "every settlement matches its postings to the cent" in said
    passes(manage("verify_ratings", database=new_database, checkpoints=backed_up_heads, as_app=True))
    if APP_ROLE:
        said = passes(manage("db_app_role", "--check", database=new_database, checkpoints=backed_up_heads, as_app=True))
        assert said.startswith(f"{APP_ROLE}: may not change")

    # The checkpoint file written since names the heads the restore lost, and nothing else.
    lost = manage("verify_audit", database=new_database, checkpoints=live_file, as_app=True)
    assert lost.returncode != 0
    problems = [line for line in lost.stderr.splitlines() if line.strip() and not line.startswith("CommandError")]
    close_head = checkpoints_from_file(live_file)[-1]
    assert any("is missing from the database's checkpoints" in line for line in lost.stderr.splitlines())
    assert (
        f"The audit log ends at leaf #{leaves_at_backup}, but checkpoint {live_file}, line {heads_at_backup + 1} "
        f"signed {close_head['tree_size']} leaves (up to event #{close_head['seq']}): leaves #{leaves_at_backup + 1} "
        f"to #{close_head['tree_size']} were removed." in lost.stderr
    ), lost.stderr
    assert not any("rewritten" in line or "forged" in line for line in problems), lost.stderr
    restored_heads = tmp_path / "restored-checkpoints.jsonl"
    said = passes(
        manage(
            "audit_checkpoints_held",
            str(live_file),
            "--out",
            str(restored_heads),
            database=new_database,
            checkpoints=restored_heads,
            as_app=True,
        )
    )
    assert f"{heads_at_backup} checkpoints of {live_file} are heads this database holds" in said
    assert f"1 checkpoint of {live_file} signs a head this database does not hold: the last signs" in said
    assert f"(up to event #{close_head['seq']}, " in said and f"tree holds {leaves_at_backup}." in said
    assert restored_heads.read_text() == backed_up_heads.read_text()  # verified above

    # The append-only triggers came back with the tables: even the superuser's UPDATE and DELETE are refused.
    with _as_owner(original) as there:
        triggers = there.execute("SELECT count(*) FROM pg_trigger WHERE NOT tgisinternal").fetchone()
        hatch = there.execute("SELECT prosrc FROM pg_proc WHERE proname = '_pgtrigger_should_ignore'").fetchone()
    with _as_owner(new_database) as restored:
        assert restored.execute("SELECT count(*) FROM pg_trigger WHERE NOT tgisinternal").fetchone() == triggers
        assert restored.execute("SELECT prosrc FROM pg_proc WHERE proname = '_pgtrigger_should_ignore'").fetchone() == (
            hatch
        )
        for statement in (
            "UPDATE casino_auditevent SET reason = 'tidied' WHERE seq = (SELECT min(seq) FROM casino_auditevent)",
            "DELETE FROM casino_auditevent WHERE seq = (SELECT max(seq) FROM casino_auditevent)",
            "TRUNCATE casino_auditevent CASCADE",
        ):
            with pytest.raises(psycopg.errors.RaiseException, match="pgtrigger: Cannot"):
                restored.execute(statement)
        if APP_ROLE:
            restored.execute(f'SET ROLE "{APP_ROLE}"')
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                restored.execute("DELETE FROM casino_auditevent")

    # Closed there at the same instant, the restored floor builds the same reports, and signs the same head.
    script = CLOSE_AND_REPORT.format(
        at=closed_at.isoformat(),
        boss=pit_boss.username,
        swing=swing.pk,
        day=floor.day_shift.pk,
        day_kinds=sorted(day_reports),
    )
    said = passes(manage("shell", "-c", script, database=new_database, checkpoints=restored_heads, as_app=True))
    rebuilt = json.loads(said.strip().splitlines()[-1])
    assert rebuilt == {"swing": swing_reports, "day": day_reports}
    assert checkpoints_from_file(restored_heads)[-1] == close_head | {
        "source": f"{restored_heads}, line {heads_at_backup + 1}"
    }
