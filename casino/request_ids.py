"""A request id on every log line, and on every line of the tasks the request asked for.

``RequestIds`` (middleware, right after the probes) takes the id a load balancer or proxy sent in ``X-Request-ID``
(letters, digits, ``-``, ``_``, ``.``, at most 64) or draws one, answers it in ``X-Request-ID`` and keeps it in a
context variable for the request. ``RequestIdOnRecords`` (a logging filter on the handler) writes it, and the Celery
task's name and id when a worker runs one, on every record, so the plain format and the JSON lines
(``TABLESIDE_LOG_FORMAT=json``, ``config.settings``) both carry them.

The Celery hooks (``config.celery``): a task published while a request runs carries the request's id in a message
header (``tableside_request_id``); the worker takes it up before the task runs and lets it go after. A task run
eagerly (the embedded default) runs inside the request and keeps its id as it is. A task the outbox publishes
later (``casino.outbox``, the broker was down when it was asked for) carries the flush's id, not the request's.
"""

from __future__ import annotations

import logging
import re
import uuid
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

from django.http import HttpRequest, HttpResponse

HEADER = "X-Request-ID"
TASK_HEADER = "tableside_request_id"
_SANE = re.compile(r"[A-Za-z0-9._-]{1,64}")

request_id: ContextVar[str] = ContextVar("request_id", default="")
current_task_name: ContextVar[str] = ContextVar("current_task_name", default="")
current_task_id: ContextVar[str] = ContextVar("current_task_id", default="")


def request_id_read(given: str | None) -> str:
    """The id a proxy sent when it is one a log can hold safely, else a new one (32 hex digits)."""
    if given and _SANE.fullmatch(given):
        return given
    return uuid.uuid4().hex


class RequestIds:
    """Middleware: the request's id taken or drawn, kept while it runs and answered in ``X-Request-ID``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        rid = request_id_read(request.headers.get(HEADER))
        token = request_id.set(rid)
        try:
            response = self.get_response(request)
        finally:
            request_id.reset(token)
        response[HEADER] = rid
        return response


class RequestIdOnRecords(logging.Filter):
    """Every record gets ``request_id``, ``task`` and ``task_id`` ("" outside a request or a task), and
    ``request_tag``, the id in brackets for the plain format."""

    def filter(self, record: logging.LogRecord) -> bool:
        rid = request_id.get()
        record.request_id = rid
        record.task = current_task_name.get()
        record.task_id = current_task_id.get()
        record.request_tag = f" [{rid}]" if rid else ""
        return True


# --- Celery --------------------------------------------------------------------------------------------------------


def task_header_add(headers: dict[str, Any] | None = None, **_: Any) -> None:
    """``before_task_publish``: the request's id into the message, when a request asked for the task."""
    rid = request_id.get()
    if rid and headers is not None:
        headers.setdefault(TASK_HEADER, rid)


_tokens: dict[str, tuple[Any, Any, Any]] = {}


def task_ids_take(task_id: str = "", task: Any = None, **_: Any) -> None:
    """``task_prerun``: the ids a worker's log lines carry while the task runs (its request's, if it had one)."""
    if task is None or getattr(task.request, "is_eager", False):
        # Eager: the task runs inside whoever asked for it and keeps that request's id.
        _tokens[task_id] = (None, current_task_name.set(getattr(task, "name", "")), None)
        return
    headers = getattr(task.request, "headers", None) or {}
    given = getattr(task.request, TASK_HEADER, None) or headers.get(TASK_HEADER)
    _tokens[task_id] = (
        request_id.set(request_id_read(given) if given else ""),
        current_task_name.set(task.name),
        current_task_id.set(task_id),
    )


def task_ids_let_go(task_id: str = "", **_: Any) -> None:
    """``task_postrun``: the ids of the task that ended set back."""
    rid, name, tid = _tokens.pop(task_id, (None, None, None))
    if tid is not None:
        current_task_id.reset(tid)
    if name is not None:
        current_task_name.reset(name)
    if rid is not None:
        request_id.reset(rid)
