"""The database cannot be reached: every answer is a 503 with ``Retry-After``, in words (a page that asks again by
itself, or the API's refusal), never a server error; and once it is back the same requests answer as before.

The database is made unreachable for real: the connection closed and its address pointed where nothing listens (a
port nobody listens on for PostgreSQL, a file in a folder that does not exist for SQLite), so the request's first
query fails inside Django's own connection code, as it does when the server is stopped or restarting."""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import DEFAULT_DB_ALIAS, connections
from django.test import Client

from casino.errors import RETRY_AFTER_SECONDS


def _dead_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])  # closed again at once: nothing listens there


@contextlib.contextmanager
def database_unreachable(django_db_blocker: Any) -> Iterator[None]:
    """Queries may run (the blocker lifted), but the default database's connection is one whose address leads
    nowhere, until the block ends and the test database's own connection (never closed: an in-memory SQLite
    database would go with it) is put back."""
    kept = connections[DEFAULT_DB_ALIAS]
    dead = dict(kept.settings_dict)
    if kept.vendor == "postgresql":
        dead.update(HOST="127.0.0.1", PORT=str(_dead_port()))
    else:
        dead["NAME"] = "/nonexistent-folder/tableside.sqlite3"
    unreachable = type(kept)(dead, DEFAULT_DB_ALIAS)
    with django_db_blocker.unblock():
        connections[DEFAULT_DB_ALIAS] = unreachable
        try:
            yield
        finally:
            connections[DEFAULT_DB_ALIAS] = kept
            unreachable.close()


def _is_unavailable(response: Any) -> None:
    assert response.status_code == 503, (response.status_code, response.content[:300])
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS)


def test_the_api_answers_503_with_retry_after_in_its_refusals_shape(django_db_blocker: Any) -> None:
    client = Client(raise_request_exception=False)
    with database_unreachable(django_db_blocker):
        signing_in = client.post(
            "/api/auth/token/", {"username": "dana", "password": "whatever-it-is"}, content_type="application/json"
        )
        reading = client.get("/api/tables/", HTTP_AUTHORIZATION="Token " + "0" * 40)
        settling = client.post(
            "/api/rounds/1/settle/", HTTP_AUTHORIZATION="Token " + "0" * 40, HTTP_IDEMPOTENCY_KEY="k-1"
        )
    for response in (signing_in, reading, settling):
        _is_unavailable(response)
        body = response.json()
        assert body["extra"] == {"retry_after": RETRY_AFTER_SECONDS}
        assert "cannot reach its database" in body["message"] and "records once" in body["message"]


def test_a_page_answers_503_in_words_and_asks_again_by_itself(django_db_blocker: Any) -> None:
    client = Client(raise_request_exception=False)
    client.cookies["sessionid"] = "a" * 32  # a signed-in tablet: its session is read from the database
    with database_unreachable(django_db_blocker):
        page = client.get("/pit/")
        sent = client.post("/accounts/login/", {"username": "dana", "password": "whatever-it-is"})
    _is_unavailable(page)
    text = page.content.decode()
    assert "The server cannot reach its database just now" in text
    assert f'http-equiv="refresh" content="{RETRY_AFTER_SECONDS}"' in text
    _is_unavailable(sent)
    assert "refresh" not in sent.content.decode()  # a form sent is not sent again by the page itself


def test_in_german_the_page_says_it_in_german(django_db_blocker: Any) -> None:
    client = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="de")
    client.cookies["sessionid"] = "a" * 32
    with database_unreachable(django_db_blocker):
        page = client.get("/pit/")
    _is_unavailable(page)
    assert "Datenbank" in page.content.decode()


@pytest.mark.django_db
def test_once_the_database_is_back_the_same_requests_answer_as_before(django_db_blocker: Any, pit_boss: Any) -> None:
    from rest_framework.authtoken.models import Token

    token = f"Token {Token.objects.create(user=pit_boss).key}"
    client = Client(raise_request_exception=False)
    client.force_login(pit_boss)
    with database_unreachable(django_db_blocker):
        _is_unavailable(client.get("/api/tables/", HTTP_AUTHORIZATION=token))
        _is_unavailable(client.get("/pit/"))
    assert client.get("/api/tables/", HTTP_AUTHORIZATION=token).status_code == 200
    assert client.get("/pit/").status_code == 200


def test_a_fault_that_is_not_the_database_is_still_a_500() -> None:
    from casino.errors import database_unreachable as unreachable

    assert not unreachable(ValueError("a bug"))
    assert not unreachable(None)
