"""The production server (``make serve``: gunicorn with config/gunicorn.conf.py) serves the app with DEBUG off,
static files through WhiteNoise, over HTTPS only; and refuses to start at all on the development secret key."""

from __future__ import annotations

import gc
import json
import os
import runpy
import secrets
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

# Each test runs the code in a process of its own and sets its environment: see tests/conftest.py.
pytestmark = pytest.mark.own_process

ROOT = Path(__file__).resolve().parents[1]
GUNICORN = Path(sys.executable).parent / "gunicorn"
PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "TABLESIDE_AUDIT_KEYS": f"k1:{secrets.token_urlsafe(40)}",
    "ALLOWED_HOSTS": "127.0.0.1",
    # Not connected to by these requests (no session, no sign-in): the settings must only name a real service.
    "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/tableside",
    "CELERY_BROKER_URL": "redis://127.0.0.1:6379/0",
    "REDIS_URL": "redis://127.0.0.1:6379/1",
    "SECURE_PROXY_SSL_HEADER": "X-Forwarded-Proto",
}
INHERITED = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "PYTHONPATH")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start(**env: str) -> tuple[subprocess.Popen[str], int]:
    port = free_port()
    clean = {k: v for k, v in os.environ.items() if k in INHERITED}
    clean.update(PRODUCTION, DJANGO_SETTINGS_MODULE="config.settings", WEB_CONCURRENCY="1")
    clean.update(env)
    process = subprocess.Popen(
        [str(GUNICORN), "-c", "config/gunicorn.conf.py", "--bind", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=clean,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    return process, port


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        return None


def get(port: int, path: str, **headers: str):  # type: ignore[no-untyped-def]
    opener = urllib.request.build_opener(NoRedirect)
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers=headers)
    try:
        # The socket answers as soon as gunicorn binds it; its worker may still be loading the app on a busy machine.
        return opener.open(request, timeout=30)
    except urllib.error.HTTPError as error:
        return error


@pytest.fixture(scope="module")
def server() -> Iterator[int]:
    process, port = start()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"gunicorn exited: {process.stdout.read() if process.stdout else ''}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                break
        except OSError:
            time.sleep(0.1)
    else:
        process.kill()
        pytest.fail("gunicorn did not answer within 30 seconds")
    yield port
    process.terminate()
    process.wait(timeout=10)


def test_gunicorn_serves_the_sign_in_page_with_debug_off_over_https(server: int) -> None:
    response = get(server, "/accounts/login/", **{"X-Forwarded-Proto": "https"})
    assert response.status == 200
    assert b'name="password"' in response.read()
    assert response.headers["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains"
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]


def test_gunicorn_redirects_plain_http_to_https(server: int) -> None:
    response = get(server, "/accounts/login/")
    assert response.status == 301
    assert response.headers["Location"] == f"https://127.0.0.1:{server}/accounts/login/"


def test_whitenoise_serves_the_style_sheet_under_gunicorn(server: int) -> None:
    response = get(server, "/static/casino/tableside.css", **{"X-Forwarded-Proto": "https"})
    assert response.status == 200
    assert response.headers["Content-Type"].startswith("text/css")
    assert b".login" in response.read()


def test_gunicorn_refuses_to_start_with_debug_off_on_the_development_secret_key() -> None:
    from casino.defaults import DEVELOPMENT_SECRET_KEY

    process, _ = start(SECRET_KEY=DEVELOPMENT_SECRET_KEY)
    try:
        output, _ = process.communicate(timeout=12)
    except subprocess.TimeoutExpired:
        process.kill()
        pytest.fail("gunicorn kept running on the development secret key")
    assert process.returncode != 0
    assert "Tableside refuses to start with DEBUG off" in output
    assert "casino.E001: DEBUG is off but SECRET_KEY is the built-in development key." in output
    assert "Worker failed to boot" in output


def test_a_load_balancer_probes_by_address_over_plain_http_with_no_redirect_and_no_host_check(server: int) -> None:
    response = get(server, "/healthz", Host="10.0.3.7:8000")
    assert response.status == 200 and response.read() == b'{"status": "ok"}'
    assert get(server, "/metrics", Host="10.0.3.7:8000").status == 404  # no metrics token set: not served


SIGN_IN_PAGE = {"X-Forwarded-Proto": "https", "Connection": "close"}


def test_the_metrics_page_sums_every_gunicorn_workers_requests(tmp_path: Path) -> None:
    token = secrets.token_urlsafe(30)
    process, port = start(WEB_CONCURRENCY="2", PROMETHEUS_MULTIPROC_DIR=str(tmp_path), TABLESIDE_METRICS_TOKEN=token)
    try:
        deadline = time.monotonic() + 30
        while get_or_none(port, "/healthz") is None:
            assert process.poll() is None and time.monotonic() < deadline, "gunicorn did not answer"
            time.sleep(0.2)
        # Eight at a time, while one worker answers the other takes the next connection; batches until both have
        # answered (each keeps its measurements in a file of its own), since the second may still be loading the app
        # when the first answers the probe.
        sent = 0
        deadline = time.monotonic() + 60
        with ThreadPoolExecutor(8) as pool:
            while sent < 40 or len(list(tmp_path.glob("histogram_*.db"))) < 2:
                assert time.monotonic() < deadline, "only one worker ever answered"
                statuses = list(pool.map(lambda _: get(port, "/accounts/login/", **SIGN_IN_PAGE).status, range(8)))
                assert statuses == [200] * 8
                sent += 8
        assert get(port, "/metrics").status == 401
        page = get(port, "/metrics", Authorization=f"Bearer {token}").read().decode()
    finally:
        process.terminate()
        process.wait(timeout=10)
    answered = [
        line
        for line in page.splitlines()
        if line.startswith("tableside_request_seconds_count{") and 'view="login"' in line
    ]
    assert len(answered) == 1 and float(answered[0].rsplit(" ", 1)[1]) == sent, page[:3000]
    assert len(list(tmp_path.glob("histogram_*.db"))) == 2, "each of the two workers kept its own measurements"


def get_or_none(port: int, path: str):  # type: ignore[no-untyped-def]
    try:
        return get(port, path)
    except OSError:
        return None


def test_with_json_logs_gunicorns_access_line_is_json_and_carries_the_request_id() -> None:
    process, port = start(TABLESIDE_LOG_FORMAT="json")
    try:
        deadline = time.monotonic() + 30
        while get_or_none(port, "/healthz") is None:
            assert process.poll() is None and time.monotonic() < deadline, "gunicorn did not answer"
            time.sleep(0.2)
        answer = get(port, "/accounts/login/", **{"X-Forwarded-Proto": "https", "X-Request-ID": "lb-42.7"})
        assert answer.status == 200 and answer.headers["X-Request-ID"] == "lb-42.7"
        # A client's quotes and backslashes stay inside their field: no forged field, no broken line.
        get(port, "/x%22,%22level%22:%22ERROR", **{"X-Forwarded-Proto": "https", "User-Agent": 'a"b\\c'})
    finally:
        process.terminate()
        output = process.communicate(timeout=15)[0] if process.stdout else ""
    access = [json.loads(line) for line in output.splitlines() if line.startswith('{"time"')]
    forged = [line for line in access if line["path"].startswith("/x")]
    assert forged and forged[0]["level"] == "INFO" and forged[0]["user_agent"] == 'a"b\\c', output[-2000:]
    login = [line for line in access if line["path"] == "/accounts/login/"]
    assert login and login[0]["request_id"] == "lb-42.7" and login[0]["status"] == 200, output[-2000:]


def test_a_worker_moves_what_it_loaded_out_of_the_garbage_collectors_reach() -> None:
    """A full collection in a worker walks only what its requests made, not the app it loaded at start."""
    hooks = runpy.run_path(str(ROOT / "config" / "gunicorn.conf.py"))
    gc.unfreeze()
    assert gc.get_freeze_count() == 0
    try:
        hooks["post_worker_init"](object())
        assert gc.get_freeze_count() > 10_000  # this test process's modules, as a worker's app would be
    finally:
        gc.unfreeze()
