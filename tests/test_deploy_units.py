"""The systemd units the README's production layout installs (deploy/systemd): systemd reads them without a
complaint, and each one's command, run as the unit would run it (its working directory, its environment), does its
job: the web answers /healthz and /readyz, the worker says it is ready, beat starts its schedule."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest
import requests

from tests.services.test_celery_worker import worker_stop
from tests.test_serve import free_port

ROOT = Path(__file__).resolve().parents[1]
UNITS = sorted((ROOT / "deploy" / "systemd").glob("*.service"))
INSTALLED_AT = "/srv/tableside"

pytestmark = pytest.mark.own_process


def _unit(path: Path) -> dict[str, list[str]]:
    """A unit's settings of its [Service] section, each key with every value it is given."""
    values: dict[str, list[str]] = {}
    section = ""
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            section = line
        elif section == "[Service]":
            key, _, value = line.partition("=")
            values.setdefault(key, []).append(value)
    return values


def test_there_are_the_three_processes_of_a_floor() -> None:
    assert [unit.name for unit in UNITS] == [
        "tableside-beat.service",
        "tableside-web.service",
        "tableside-worker.service",
    ]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed here")
def test_systemd_reads_every_unit_without_a_complaint(tmp_path: Path) -> None:
    for unit in UNITS:
        here = tmp_path / unit.name
        here.write_text(unit.read_text().replace(INSTALLED_AT, str(ROOT)))
        checked = subprocess.run(["systemd-analyze", "verify", str(here)], capture_output=True, text=True)
        complaints = [line for line in (checked.stdout + checked.stderr).splitlines() if unit.name in line]
        assert checked.returncode == 0 and not complaints, (unit.name, checked.stdout, checked.stderr)


def _run(unit: str, tmp_path: Path, **env: str) -> tuple[subprocess.Popen[bytes], Path]:
    """The unit's ExecStartPre and ExecStart in its working directory with its Environment= lines, the checkout
    standing in for /srv/tableside and the test's services for /etc/tableside/tableside.env."""
    settings = _unit(ROOT / "deploy" / "systemd" / unit)
    environment = dict(os.environ)
    for line in settings.get("Environment", []):
        key, _, value = line.partition("=")
        environment[key] = value.replace("/run/", f"{tmp_path}/run/")
    environment.update(env)  # the settings file (EnvironmentFile=) wins over the unit's Environment= lines
    for pre in settings.get("ExecStartPre", []):
        subprocess.run(pre.replace("/run/", f"{tmp_path}/run/").split(), check=True)
    command = settings["ExecStart"][0].replace(INSTALLED_AT, str(ROOT)).split()
    assert settings["WorkingDirectory"] == [INSTALLED_AT]
    log = tmp_path / f"{unit}.log"
    with log.open("w") as out:
        process = subprocess.Popen(command, cwd=ROOT, env=environment, stdout=out, stderr=subprocess.STDOUT)
    return process, log


@pytest.mark.django_db(transaction=True)
def test_each_units_command_does_its_job(real_services: None, tmp_path: Path, settings) -> None:  # type: ignore[no-untyped-def]
    from tests.services.test_celery_worker import database_url_of_the_test_database

    port = free_port()
    env = {
        "DATABASE_URL": database_url_of_the_test_database(),
        "TABLESIDE_AUDIT_CHECKPOINT_FILE": str(settings.TABLESIDE_AUDIT_CHECKPOINT_FILE),
        "TABLESIDE_TASK_QUEUE": f"tableside-units-{port}",
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "WEB_CONCURRENCY": "1",
        "ALLOWED_HOSTS": "127.0.0.1",
    }
    worker_metrics = free_port()
    started = [
        _run("tableside-web.service", tmp_path, **env),
        _run("tableside-worker.service", tmp_path, TABLESIDE_WORKER_METRICS_PORT=str(worker_metrics), **env),
    ]
    beat_schedule = tmp_path / "celerybeat-schedule"
    beat_unit = _unit(ROOT / "deploy" / "systemd" / "tableside-beat.service")["ExecStart"][0]
    assert "--schedule /srv/tableside/var/celerybeat-schedule" in beat_unit
    try:
        deadline = time.monotonic() + 60
        ready = None
        while time.monotonic() < deadline:
            try:
                ready = requests.get(f"http://127.0.0.1:{port}/readyz", timeout=30)
                break
            except (requests.ConnectionError, requests.Timeout):
                time.sleep(0.3)
        assert ready is not None and ready.status_code == 200, (ready and ready.text, started[0][1].read_text()[-2000:])
        assert requests.get(f"http://127.0.0.1:{port}/healthz", timeout=10).json() == {"status": "ok"}
        signin = requests.get(
            f"http://127.0.0.1:{port}/accounts/login/", headers={"X-Forwarded-Proto": "https"}, timeout=30
        )
        assert signin.status_code == 200
        assert list((tmp_path / "run" / "tableside-web" / "metrics").glob("*.db")), "the workers' metrics directory"
        worker_log = started[1][1]
        while time.monotonic() < deadline and "ready." not in worker_log.read_text():
            time.sleep(0.3)
        assert "ready." in worker_log.read_text(), worker_log.read_text()[-2000:]
        assert requests.get(f"http://127.0.0.1:{worker_metrics}/metrics", timeout=10).status_code == 200
    finally:
        for process, _log in started:
            worker_stop(process)

    beat = subprocess.Popen(
        beat_unit.replace("/srv/tableside/var/celerybeat-schedule", str(beat_schedule))
        .replace(INSTALLED_AT, str(ROOT))
        .split(),
        cwd=ROOT,
        env={**os.environ, **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not list(tmp_path.glob("celerybeat-schedule*")):
            time.sleep(0.3)
    finally:
        worker_stop(beat)
    output = beat.stdout.read().decode() if beat.stdout else ""
    assert list(tmp_path.glob("celerybeat-schedule*")), output[-2000:]
    assert "beat: Starting..." in output, output[-2000:]
