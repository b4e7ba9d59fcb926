"""gunicorn's configuration for ``make serve`` (README, "Running it on a floor").

Everything comes from the environment: ``HOST`` and ``PORT`` to bind (``--bind`` on the command line wins),
``WEB_CONCURRENCY`` worker processes (gunicorn's own variable; default two per CPU plus one), and
``FORWARDED_ALLOW_IPS``, the proxy addresses whose X-Forwarded-* headers are believed (gunicorn's own; default
127.0.0.1). With DEBUG off and a development key the worker fails to boot saying why (``config.wsgi``).
"""

from __future__ import annotations

import gc
import multiprocessing
import os

wsgi_app = "config.wsgi:application"
bind = [f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"]
workers = int(os.environ.get("WEB_CONCURRENCY", "0")) or multiprocessing.cpu_count() * 2 + 1
# The tablet polls every few seconds and a report can take a while to render; a worker stuck longer is restarted.
timeout = 60
graceful_timeout = 30
# Access lines and errors on standard output and error, for the service manager's journal.
accesslog = "-"
errorlog = "-"
# With TABLESIDE_LOG_FORMAT=json the access lines are JSON too (``config.gunicorn_logging``), with the request's id
# (X-Request-ID, which the app answers): one id joins a request's access line to the app's lines and its tasks' lines.
if os.environ.get("TABLESIDE_LOG_FORMAT", "").strip().lower() == "json":
    logger_class = "config.gunicorn_logging.JsonAccessLogger"
# gunicorn's control socket (gunicornc): nothing of Tableside uses it, and its default place is under $HOME, which a
# hardened service (deploy/systemd, ProtectHome) cannot write.
control_socket_disable = True


def post_worker_init(worker: object) -> None:
    """The worker has loaded the app: what is loaded by now (Django, the apps, the engines' tables: about 160,000
    objects) lives as long as the worker, so it is moved out of the garbage collector's reach (``gc.freeze``: into a
    permanent generation that collections ignore). A full collection then walks only what requests made: in
    ``bench/round_http.py``'s worker a full collection took about 95 ms of CPU before, 15 ms after (docs/performance.md,
    "A round over HTTP through gunicorn")."""
    gc.freeze()


def child_exit(server: object, worker: object) -> None:
    """A worker that ended: its live gauges dropped from the metrics it leaves in ``PROMETHEUS_MULTIPROC_DIR``
    (prometheus-client's multiprocess mode; its counters and histograms stay counted)."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)  # type: ignore[attr-defined,no-untyped-call]
