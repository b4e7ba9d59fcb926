"""Two of everything (service-backed): two gunicorn instances and two Celery workers on one PostgreSQL and one Redis,
played through alternately as a floor behind a load balancer would be, give the results one instance gives.

Whatever one process kept for itself would break here: a session, a form's one-time key, an API write's
idempotency key, the tablet's or the room display's version, a report built by whichever worker took it. Each step
below goes to the instance the last one did not."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import time
import uuid
from collections.abc import Iterator
from itertools import cycle
from pathlib import Path
from typing import Any

import pytest
import requests
from django.conf import global_settings
from django.contrib.auth.models import Group
from django.core.management import call_command

from casino.audit_verify import audit_log_verify
from casino.events import AuditEventType
from casino.models import AuditEvent, Shift
from casino.roles import Role
from casino.verify import records_verify
from ledger.verify import ledger_verify
from poker_room.display.views import display_token
from poker_room.models import Tournament
from rounds.models import Round
from settlement.models import ShiftReport
from settlement.services import settlement_preview
from tables.models import BuyIn, Table
from tests.services.test_celery_worker import database_url_of_the_test_database, worker_start, worker_stop
from tests.test_serve import GUNICORN, ROOT, free_port

PASSWORD = "two-instances-pass-2026"
HANDS = {
    "banker": {"high": "Qs Qd 8s 5d 3c", "low": "Jh Jc"},
    "seats": {"1": {"high": "As Ad 7s 4d 2c", "low": "Kh Kc"}, "2": {"high": "Ts Td 9h 6c 4h", "low": "9d 2d"}},
}


class Floor:
    """The two instances as a load balancer sees them, and a session per user that goes to either."""

    def __init__(self, ports: list[int]) -> None:
        self.urls = [f"http://127.0.0.1:{port}" for port in ports]
        self._next = cycle(range(len(ports)))
        self.used: list[int] = []

    def url(self, path: str, instance: int | None = None) -> str:
        index = next(self._next) if instance is None else instance
        self.used.append(index)
        return self.urls[index] + path

    def call(
        self, session: requests.Session, method: str, path: str, instance: int | None = None, **kwargs: Any
    ) -> requests.Response:
        headers = {"X-Forwarded-Proto": "https", **kwargs.pop("headers", {})}
        return session.request(method, self.url(path, instance), headers=headers, timeout=60, **kwargs)


def _api(floor: Floor, username: str) -> requests.Session:
    session = requests.Session()
    answer = floor.call(
        session, "POST", "/api/v1/auth/token/", json={"username": username, "password": PASSWORD}
    ).json()
    assert "token" in answer, answer
    session.headers["Authorization"] = f"Token {answer['token']}"
    return session


def _write(floor: Floor, session: requests.Session, path: str, body: Any = None, **kwargs: Any) -> Any:
    key = kwargs.pop("key", f"two-{uuid.uuid4().hex}")
    response = floor.call(session, "POST", path, json=body or {}, headers={"Idempotency-Key": key}, **kwargs)
    assert response.status_code in (200, 201), (path, response.status_code, response.text[:500])
    return response.json()


@pytest.fixture
def floor(real_services: None, transactional_db: None, settings: Any, tmp_path: Path) -> Iterator[Floor]:
    """The demo floor, two gunicorn instances and two workers on a queue of this test's own."""
    keys = f"k1:{secrets.token_urlsafe(40)}"
    settings.TABLESIDE_AUDIT_KEYS = {"k1": keys.split(":", 1)[1]}
    settings.VAR_DIR = tmp_path
    settings.PASSWORD_HASHERS = global_settings.PASSWORD_HASHERS  # the instances check passwords as production does
    for role in Role:  # a transactional test flushed the groups the migration made
        Group.objects.get_or_create(name=role.value)
    with open(os.devnull, "w") as quiet:
        call_command("seed_demo", password=PASSWORD, stdout=quiet)

    queue = f"tableside-two-{uuid.uuid4().hex[:8]}"
    settings.SECRET_KEY = secrets.token_urlsafe(50)  # the instances' own: the room's screen address is signed with it
    shared = {
        "DEBUG": "0",
        "SECRET_KEY": settings.SECRET_KEY,
        "TABLESIDE_AUDIT_KEYS": keys,
        "TABLESIDE_AUDIT_CHECKPOINT_FILE": str(settings.TABLESIDE_AUDIT_CHECKPOINT_FILE),
        "DATABASE_URL": database_url_of_the_test_database(),
        "TABLESIDE_TASK_QUEUE": queue,
        "TABLESIDE_LAB_QUEUE": queue,
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_PROXY_SSL_HEADER": "X-Forwarded-Proto",
        # The proxy ends TLS; this client speaks plain HTTP to the instances, so it must be let keep the cookies.
        "SESSION_COOKIE_SECURE": "0",
        "CSRF_COOKIE_SECURE": "0",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "WEB_CONCURRENCY": "1",
    }
    ports = [free_port(), free_port()]
    log = tmp_path / "processes.log"
    processes: list[subprocess.Popen[bytes]] = []
    workers: list[subprocess.Popen[bytes]] = []
    try:
        with log.open("a") as out:
            for port in ports:
                processes.append(
                    subprocess.Popen(
                        [str(GUNICORN), "-c", "config/gunicorn.conf.py", "--bind", f"127.0.0.1:{port}"],
                        cwd=ROOT,
                        env={**os.environ, **shared},
                        stdout=out,
                        stderr=subprocess.STDOUT,
                    )
                )
        to_workers = {
            k: v
            for k, v in shared.items()
            if k not in ("DATABASE_URL", "TABLESIDE_AUDIT_CHECKPOINT_FILE", "DJANGO_SETTINGS_MODULE")
        }
        workers = [worker_start(queue, log, **to_workers) for _ in range(2)]
        floor = Floor(ports)
        deadline = time.monotonic() + 60
        for url in floor.urls:
            while True:
                assert time.monotonic() < deadline, log.read_text()[-3000:]
                try:
                    # The socket answers once gunicorn binds it; its worker may still be loading the app.
                    if requests.get(url + "/readyz", timeout=30).status_code == 200:
                        break
                except (requests.ConnectionError, requests.Timeout):
                    pass
                time.sleep(0.3)
        yield floor
    finally:
        for process in [*processes, *workers]:
            worker_stop(process)


def test_two_instances_and_two_workers_play_a_floor_as_one(floor: Floor, tmp_path: Path) -> None:
    table = Table.objects.filter(rule_set__game="paigow_poker", rule_set__banking_mode="house").order_by("name")[0]
    dealer = _api(floor, "dealer")

    # A round, each step on the other instance; the settle sent again to the other one is the same answer.
    opened = _write(floor, dealer, f"/api/v1/tables/{table.pk}/rounds/")
    round_id = opened["id"]
    for seat, cents in ((1, 2500), (2, 1000)):
        _write(floor, dealer, f"/api/v1/rounds/{round_id}/wagers/", {"seat": seat, "amount_cents": cents})
    _write(floor, dealer, f"/api/v1/rounds/{round_id}/close-betting/")
    _write(floor, dealer, f"/api/v1/rounds/{round_id}/deal/", {"dice": [3, 5, 6]})
    _write(floor, dealer, f"/api/v1/rounds/{round_id}/hands/", HANDS)
    expected = settlement_preview(round=Round.objects.get(pk=round_id), hands=HANDS)
    settled = _write(floor, dealer, f"/api/v1/rounds/{round_id}/settle/", key="settle-two", instance=0)
    again = _write(floor, dealer, f"/api/v1/rounds/{round_id}/settle/", key="settle-two", instance=1)
    assert again == settled
    assert {line["seat"]: line["net_cents"] for line in settled["seats"]} == {
        line["seat"]: line["net_cents"] for line in expected["seats"]
    }
    assert AuditEvent.objects.filter(event_type=AuditEventType.ROUND_SETTLED, subject_id=str(round_id)).count() == 1

    # A page: signed in on one instance, the session read on the other; a form sent twice, once to each.
    page = requests.Session()
    login = floor.call(page, "GET", "/accounts/login/", instance=0)
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', login.text).group(1)  # type: ignore[union-attr]
    floor.call(
        page,
        "POST",
        "/accounts/login/",
        instance=0,
        data={"username": "dealer", "password": PASSWORD, "csrfmiddlewaretoken": csrf},
        headers={"Referer": floor.urls[0].replace("http:", "https:") + "/accounts/login/"},
    )
    money = floor.call(page, "GET", f"/dealer/tables/{table.pk}/money/", instance=1)
    assert money.status_code == 200 and 'name="form_key"' in money.text, money.text[:500]
    form = {
        "csrfmiddlewaretoken": re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', money.text).group(1),  # type: ignore[union-attr]
        "form_key": re.search(
            r'id="buy-in">\s*<input[^>]*>\s*<input type="hidden" name="form_key" value="([^"]+)"', money.text
        ).group(1),  # type: ignore[union-attr]
        "seat": "3",
        "medium": "cash",
        "amount": "200.00",
    }
    buy_ins_before = BuyIn.objects.filter(table=table).count()
    for instance in (0, 1):
        floor.call(
            page,
            "POST",
            f"/dealer/tables/{table.pk}/money/buy-in/",
            instance=instance,
            data=form,
            headers={"Referer": floor.urls[instance].replace("http:", "https:") + f"/dealer/tables/{table.pk}/money/"},
        )
    assert BuyIn.objects.filter(table=table).count() == buy_ins_before + 1

    # The tournament: started on one instance; the room display on the other sees the new version at once; a bust
    # sent to both is one bust.
    director = _api(floor, "director")
    tournament = Tournament.objects.get()
    display = f"/poker-room/screen/{display_token(tournament.pk)}/display.json"  # the room's TV: no sign-in
    tv = requests.Session()
    shown_before = floor.call(tv, "GET", display, instance=1).json()
    assert "version" in shown_before, shown_before
    _write(floor, director, f"/api/v1/tournaments/{tournament.pk}/start/", instance=0)
    shown = floor.call(tv, "GET", display + f"?v={shown_before['version']}", instance=1)
    assert shown.status_code == 200 and shown.json()["version"] != shown_before["version"]
    bust = f"/api/v1/tournaments/{tournament.pk}/entries/12/eliminate/"
    first = _write(floor, director, bust, key="bust-12", instance=0)
    assert _write(floor, director, bust, key="bust-12", instance=1) == first
    assert tournament.entries.filter(status="busted").count() == 1

    # The shift closed on one instance; its reports built once each by whichever worker took them.
    shift = Shift.objects.get(closed_at=None)
    floor_supervisor = _api(floor, "floor")
    _write(floor, floor_supervisor, f"/api/v1/shifts/{shift.pk}/close/")
    deadline = time.monotonic() + 120
    wanted = {
        ShiftReport.Kind.SHIFT,
        ShiftReport.Kind.COMMISSION,
        ShiftReport.Kind.AUDIT,
        ShiftReport.Kind.RATINGS,
        ShiftReport.Kind.DEALERS,
    }
    while time.monotonic() < deadline:
        ready = set(
            ShiftReport.objects.filter(shift=shift, status=ShiftReport.Status.READY).values_list("kind", flat=True)
        )
        if wanted <= ready:
            break
        time.sleep(0.5)
    assert wanted <= ready, (ready, (tmp_path / "processes.log").read_text()[-3000:])
    built = AuditEvent.objects.filter(event_type=AuditEventType.SHIFT_REPORT_BUILT, after__shift=shift.pk)
    assert sorted(event.after["kind"] for event in built) == sorted(wanted)

    assert set(floor.used) == {0, 1}
    # Every record written through both instances and both workers verifies as one floor.
    assert audit_log_verify().ok
    assert ledger_verify().ok
    records = records_verify()
    assert not records.problems, records.problems[:5]
