"""Every API write is recorded once with an ``Idempotency-Key``: the same request sent again (its answer lost) gets
the first answer replayed; the key with another request is refused; a write that moves money is refused without a
key and writes nothing. Then every write operation of the schema, walked on the seeded floor of the schema test, sent
twice with one key: the second records nothing."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.test import APIClient

from casino.idempotency import REPLAYED_HEADER, idempotency_keys_expire
from casino.models import AuditEvent, IdempotencyKey
from tables.models import BuyIn, Slip
from tests.api.clients import api_client, refusal
from tests.api.test_schemathesis import _last, seeded_floor, wsgi_in_test_transaction  # noqa: F401  (fixtures)
from tests.api.test_text_sweep import _filled, signed_in_schema

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(make_table: Any, shift: Any) -> Any:
    return make_table(name="PGP 1", game="paigow_poker", seat_count=6)


def _buy_in(api: APIClient, table: Any, key: str | None, amount: int = 50_000) -> Any:
    headers = {"HTTP_IDEMPOTENCY_KEY": key}  # None: no key at all (tests/conftest.py)
    body = {"seat": 1, "amount_cents": amount, "medium": "cash"}
    return api.post(f"/api/v1/tables/{table.pk}/buy-ins/", body, format="json", **headers)


def test_a_buy_in_sent_twice_with_one_key_is_recorded_once_and_the_answer_replayed(table: Any, pit_boss: User) -> None:
    api = api_client(pit_boss)
    first = _buy_in(api, table, "buy-in-7f3a")
    assert first.status_code == 201, first.content
    again = _buy_in(api, table, "buy-in-7f3a")
    assert (again.status_code, again.json()) == (201, first.json())
    assert again[REPLAYED_HEADER] == "true" and REPLAYED_HEADER not in first
    assert BuyIn.objects.count() == 1
    assert BuyIn.objects.get().amount_cents == 50_000


def test_a_money_write_without_a_key_is_refused_in_words_and_writes_nothing(table: Any, pit_boss: User) -> None:
    api = api_client(pit_boss)
    events = AuditEvent.objects.count()
    body = refusal(_buy_in(api, table, None), 400, "send it with an Idempotency-Key header")
    assert body["extra"] == {"header": "Idempotency-Key"}
    slip = api.post(
        f"/api/v1/tables/{table.pk}/slips/",
        {"kind": "fill", "chips": {"2500": 4}},
        format="json",
        HTTP_IDEMPOTENCY_KEY=None,
    )
    refusal(slip, 400, "moves money or chips")
    assert (BuyIn.objects.count(), Slip.objects.count(), AuditEvent.objects.count()) == (0, 0, events)


def test_the_same_key_with_another_request_is_refused_with_422(table: Any, pit_boss: User) -> None:
    api = api_client(pit_boss)
    assert _buy_in(api, table, "k-1", amount=50_000).status_code == 201
    refusal(_buy_in(api, table, "k-1", amount=90_000), 422, "was sent with another request")
    assert list(BuyIn.objects.values_list("amount_cents", flat=True)) == [50_000]


def test_a_key_is_the_users_own_and_a_refused_request_lets_its_key_go(
    table: Any, pit_boss: User, floor_supervisor: User, dealer: User
) -> None:
    assert _buy_in(api_client(pit_boss), table, "shared").status_code == 201
    assert _buy_in(api_client(floor_supervisor), table, "shared").status_code == 201  # another user's key
    assert BuyIn.objects.count() == 2
    # A refusal writes nothing and keeps nothing: the same key, sent again once the request can succeed, runs.
    refusal(_buy_in(api_client(pit_boss), table, "early", amount=0), 400)
    assert not IdempotencyKey.objects.filter(key="early").exists()
    assert _buy_in(api_client(pit_boss), table, "early").status_code == 201
    assert BuyIn.objects.count() == 3


def test_a_key_sent_with_a_token_is_taken_with_the_tokens_read_and_a_token_that_does_not_hold_takes_none(
    table: Any, pit_boss: User, settings: Any
) -> None:
    """With ``Authorization: Token``: the token is read in the round trip that takes the key (on PostgreSQL, the
    same statement), the view does not read it again, and the key behaves as with any sign-in (replayed, 422 for
    another request, 409 while running). A token that has expired or whose user is inactive takes no key and is
    refused (401) in the authentication's own words, recording nothing."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from rest_framework.authtoken.models import Token

    from casino.tokens import EXPIRED_MESSAGE

    settings.TABLESIDE_TOKEN_HOURS = 12
    token = Token.objects.create(user=pit_boss)
    api = APIClient(raise_request_exception=False)
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    with CaptureQueriesContext(connection) as first_queries:
        first = _buy_in(api, table, "tok-1")
    assert first.status_code == 201, first.content
    said = [q["sql"] for q in first_queries.captured_queries]
    token_reads = [sql for sql in said if 'FROM "authtoken_token"' in sql]
    assert len(token_reads) == 1, said  # once: the view is told the answer
    if connection.vendor == "postgresql":
        assert 'INSERT INTO "casino_idempotencykey"' in token_reads[0], token_reads
    row = IdempotencyKey.objects.get(key="tok-1")
    assert (row.user, row.status, row.response_status) == (pit_boss, "done", 201)
    again = _buy_in(api, table, "tok-1")
    assert (again.status_code, again.json(), again[REPLAYED_HEADER]) == (201, first.json(), "true")
    refusal(_buy_in(api, table, "tok-1", amount=90_000), 422, "was sent with another request")
    IdempotencyKey.objects.filter(pk=row.pk).update(status="running", response_status=None)
    refusal(_buy_in(api, table, "tok-1"), 409, "still being answered")
    assert BuyIn.objects.count() == 1

    Token.objects.filter(pk=token.pk).update(created=timezone.now() - dt.timedelta(hours=12, minutes=1))
    expired = _buy_in(api, table, "tok-expired")
    assert (expired.status_code, expired.json()) == (401, {"message": EXPIRED_MESSAGE, "extra": {}})
    Token.objects.filter(pk=token.pk).update(created=timezone.now())
    User.objects.filter(pk=pit_boss.pk).update(is_active=False)
    assert _buy_in(api, table, "tok-inactive").status_code == 401
    unknown = APIClient(raise_request_exception=False)
    unknown.credentials(HTTP_AUTHORIZATION="Token no-such-token")
    assert _buy_in(unknown, table, "tok-unknown").status_code == 401
    assert not IdempotencyKey.objects.filter(key__in=["tok-expired", "tok-inactive", "tok-unknown"]).exists()
    assert BuyIn.objects.count() == 1


def test_a_key_that_is_not_printable_ascii_is_refused(table: Any, pit_boss: User) -> None:
    api = api_client(pit_boss)
    for bad in ("", " padded ", "x" * 256, "kéy"):
        refusal(_buy_in(api, table, bad), 400, "printable ASCII")
    assert not BuyIn.objects.exists()


def test_a_key_still_being_answered_is_a_409_and_one_whose_process_died_is_taken_over(
    table: Any, pit_boss: User
) -> None:
    api = api_client(pit_boss)
    assert _buy_in(api, table, "first").status_code == 201
    row = IdempotencyKey.objects.get(key="first")
    IdempotencyKey.objects.filter(pk=row.pk).update(status="running", response_status=None)
    busy = _buy_in(api, table, "first")
    refusal(busy, 409, "still being answered")
    assert busy["Retry-After"] == "1"
    IdempotencyKey.objects.filter(pk=row.pk).update(created_at=timezone.now() - dt.timedelta(minutes=5))
    assert _buy_in(api, table, "first").status_code == 201  # taken over: its first process never answered
    assert BuyIn.objects.count() == 2


def test_keys_are_kept_a_day_then_let_go(table: Any, pit_boss: User) -> None:
    api = api_client(pit_boss)
    assert _buy_in(api, table, "old").status_code == 201
    assert idempotency_keys_expire() == 0
    assert idempotency_keys_expire(now=timezone.now() + dt.timedelta(hours=25)) == 1
    assert not IdempotencyKey.objects.exists()


def test_the_schema_documents_the_key_on_every_write_required_where_money_moves(pit_boss: User) -> None:
    schema = api_client(pit_boss).get("/api/v1/schema/", {"format": "json"}).json()
    writes = [
        (path, method, op)
        for path, item in schema["paths"].items()
        for method, op in item.items()
        if method in ("post", "put", "patch", "delete") and not path.startswith("/api/v1/auth/token/")
    ]
    assert len(writes) > 60
    for path, method, op in writes:
        headers = [p for p in op.get("parameters", []) if p["in"] == "header" and p["name"] == "Idempotency-Key"]
        assert len(headers) == 1, (method, path)
        assert "422" in op["responses"], (method, path)
    required = {
        (path, method)
        for path, method, op in writes
        for p in op["parameters"]
        if p["name"] == "Idempotency-Key" and p["required"]
    }
    assert ("/api/v1/tables/{table_id}/buy-ins/", "post") in required
    assert ("/api/v1/tournaments/{tournament_id}/entries/{entry_number}/rebuy/", "post") in required
    assert ("/api/v1/tables/{table_id}/setup/", "post") not in required


def _rows() -> int:
    """Every row of every table the application writes, summed: what a second send must not change."""
    from django.apps import apps

    return sum(
        model.objects.count()
        for model in apps.get_models()
        if model._meta.app_label not in ("sessions", "axes", "authtoken", "contenttypes")
        and model is not IdempotencyKey
    )


def test_every_write_operation_sent_twice_with_one_key_records_once(
    seeded_floor: dict[str, list[int]],  # noqa: F811
    pit_boss: User,
    wsgi_in_test_transaction: Any,  # noqa: F811
) -> None:
    client, schema = signed_in_schema(pit_boss)
    operations = sorted(
        (
            (path, method, op)
            for path, item in schema["paths"].items()
            for method, op in item.items()
            if method in ("post", "put", "patch", "delete")
            and not path.startswith(("/api/v1/auth/", "/api/v1/shifts/{shift_id}/close/", "/api/v1/gaming-days/"))
        ),
        key=lambda entry: _last(f"{entry[1].upper()} {entry[0]}"),
    )
    wrote, failures = 0, []
    for number, (path, method, operation) in enumerate(operations):
        content = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
        body = next(iter(content.get("examples", {}).values()), {}).get("value", {}) if content else {}
        url, key = _filled(path, seeded_floor), f"walk-{number}"
        send = getattr(client, method)
        first = send(url, data=json.dumps(body), content_type="application/json", HTTP_IDEMPOTENCY_KEY=key)
        before = _rows()
        second = send(url, data=json.dumps(body), content_type="application/json", HTTP_IDEMPOTENCY_KEY=key)
        where = f"{method.upper()} {path}"
        if _rows() != before:
            failures.append(f"{where}: the second send wrote rows")
        if 200 <= first.status_code < 300:
            wrote += 1
            if (second.status_code, second.content) != (first.status_code, first.content):
                failures.append(f"{where}: the second answer is not the first replayed")
            elif second.get(REPLAYED_HEADER) != "true":
                failures.append(f"{where}: the replay is not marked")
    assert not failures, "\n".join(failures)
    assert wrote >= 10, f"only {wrote} of {len(operations)} writes succeeded on the seeded floor"
    print(f"{len(operations)} write operations sent twice; {wrote} recorded on the first send, none on the second")


def test_a_write_runs_in_its_keys_transaction_without_a_savepoint_and_a_refusal_there_writes_nothing(
    table: Any, dealer: User
) -> None:
    """A step of play under an Idempotency-Key runs in the request's transaction (the key taken, the write, its answer
    kept) with no savepoint of its own; a refusal there (a seat that has its wager) rolls the whole request back:
    the wager not written twice, its key let go, and the answer the refusal in words. Called anywhere else, the
    same service keeps its savepoint: refused inside another transaction, that transaction goes on."""
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    from casino.errors import WrongState
    from rounds.models import Round, Wager
    from rounds.services import wager_place

    api = api_client(dealer)
    opened = api.post(f"/api/v1/tables/{table.pk}/rounds/", {}, format="json", HTTP_IDEMPOTENCY_KEY="open-1")
    assert opened.status_code == 201, opened.content
    wagers = f"/api/v1/rounds/{opened.json()['id']}/wagers/"
    with CaptureQueriesContext(connection) as placing:
        placed = api.post(wagers, {"seat": 3, "amount_cents": 2500}, format="json", HTTP_IDEMPOTENCY_KEY="w-1")
    assert placed.status_code == 201, placed.content
    said = [q["sql"] for q in placing.captured_queries]
    taken = next(i for i, sql in enumerate(said) if 'INSERT INTO "casino_idempotencykey"' in sql)
    assert not any(sql.startswith("SAVEPOINT") for sql in said[taken:]), said[taken:]
    events = AuditEvent.objects.count()
    refused = api.post(wagers, {"seat": 3, "amount_cents": 5000}, format="json", HTTP_IDEMPOTENCY_KEY="w-2")
    refusal(refused, 409, "Seat 3 already has a wager")
    assert list(Wager.objects.values_list("seat__number", "amount_cents")) == [(3, 2500)]
    assert AuditEvent.objects.count() == events
    assert not IdempotencyKey.objects.filter(key="w-2").exists()

    round_ = Round.objects.get(pk=opened.json()["id"])
    with transaction.atomic():
        with pytest.raises(WrongState):
            wager_place(actor=dealer, round=round_, seat=3, amount_cents=5000)
        assert Wager.objects.count() == 1  # the transaction goes on: the refusal rolled back its savepoint only
