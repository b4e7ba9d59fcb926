"""A request's id on every log line it writes and on the lines of the tasks it asks for: taken from the proxy's
X-Request-ID when it is one a log can hold, drawn otherwise, answered back; JSON lines with
TABLESIDE_LOG_FORMAT=json."""

from __future__ import annotations

import io
import json
import logging
import logging.config
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.test import Client

from casino import request_ids

pytestmark = pytest.mark.django_db


def test_a_proxys_request_id_is_kept_and_answered_and_one_is_drawn_when_none_came() -> None:
    assert Client().get("/accounts/login/", HTTP_X_REQUEST_ID="lb-7f3a.0042")["X-Request-ID"] == "lb-7f3a.0042"
    drawn = Client().get("/accounts/login/")["X-Request-ID"]
    assert len(drawn) == 32 and int(drawn, 16) >= 0


@pytest.mark.parametrize("given", ["", "a" * 65, "two words", "line\nbreak", 'quote"s', "ünïcode"])
def test_an_id_a_log_cannot_hold_safely_is_replaced(given: str) -> None:
    answered = Client().get("/accounts/login/", HTTP_X_REQUEST_ID=given)["X-Request-ID"]
    assert answered != given and len(answered) == 32


def _json_logger() -> tuple[logging.Logger, io.StringIO]:
    """A logger writing through the settings' JSON formatter and the request-id filter, into a buffer."""
    config = {**settings.LOGGING["formatters"]["json"]}
    factory = config.pop("()")
    module, _, name = factory.rpartition(".")
    formatter = getattr(__import__(module, fromlist=[name]), name)(**config)
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(formatter)
    handler.addFilter(request_ids.RequestIdOnRecords())
    log = logging.getLogger("tableside.test.json")
    log.handlers[:] = [handler]
    log.propagate = False
    log.setLevel(logging.INFO)
    return log, out


def test_a_json_line_carries_the_time_level_logger_message_and_request_id() -> None:
    log, out = _json_logger()
    token = request_ids.request_id.set("req-1")
    try:
        log.info("Closed the %s shift", "Day", extra={"shift": 7})
    finally:
        request_ids.request_id.reset(token)
    line = json.loads(out.getvalue())
    assert {key: line[key] for key in ("level", "logger", "message", "request_id", "task", "shift")} == {
        "level": "INFO",
        "logger": "tableside.test.json",
        "message": "Closed the Day shift",
        "request_id": "req-1",
        "task": "",
        "shift": 7,
    }
    assert line["time"].endswith("+00:00")


def test_a_task_asked_for_in_a_request_carries_its_id_to_the_worker_and_lets_it_go_after() -> None:
    headers: dict[str, object] = {}
    token = request_ids.request_id.set("req-2")
    try:
        request_ids.task_header_add(headers=headers)
    finally:
        request_ids.request_id.reset(token)
    assert headers == {request_ids.TASK_HEADER: "req-2"}

    # In the worker: the message's header read before the task runs, every line of it tagged, then let go.
    task = SimpleNamespace(name="casino.audit_sequence", request=SimpleNamespace(is_eager=False, headers=headers))
    log, out = _json_logger()
    request_ids.task_ids_take(task_id="t-1", task=task)
    log.info("inside")
    request_ids.task_ids_let_go(task_id="t-1")
    log.info("after")
    inside, after = (json.loads(line) for line in out.getvalue().splitlines())
    assert (inside["request_id"], inside["task"], inside["task_id"]) == ("req-2", "casino.audit_sequence", "t-1")
    assert (after["request_id"], after["task"], after["task_id"]) == ("", "", "")


def test_a_forged_header_in_a_message_is_not_written_into_the_log_as_it_came() -> None:
    task = SimpleNamespace(name="x", request=SimpleNamespace(is_eager=False, headers={request_ids.TASK_HEADER: "a\nb"}))
    request_ids.task_ids_take(task_id="t-2", task=task)
    try:
        assert request_ids.request_id.get() not in ("", "a\nb") and len(request_ids.request_id.get()) == 32
    finally:
        request_ids.task_ids_let_go(task_id="t-2")
