"""The API description documents every refusal: one ``Refusal`` component ({"message", "extra"}) on
each operation, for the statuses it can answer (``casino.openapi``), and a round's ``settlement`` is null until
it settles."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

REFUSAL = {"application/json": {"schema": {"$ref": "#/components/schemas/Refusal"}}}


@pytest.fixture
def schema(pit_boss) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    client = APIClient()
    client.force_authenticate(pit_boss)
    return dict(client.get("/api/v1/schema/", {"format": "json"}).json())


@pytest.mark.django_db
def test_the_refusal_is_one_component_with_a_message_and_extra(schema) -> None:  # type: ignore[no-untyped-def]
    refusal = schema["components"]["schemas"]["Refusal"]
    assert refusal["required"] == ["message", "extra"]
    assert refusal["properties"]["message"]["type"] == "string"
    assert refusal["properties"]["extra"]["type"] == "object"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("method", "path", "statuses"),
    [
        ("get", "/api/v1/tables/", {"400", "401", "403", "503"}),  # 400: a page size or a cursor it cannot read
        ("get", "/api/v1/rounds/{round_id}/", {"401", "403", "404", "503"}),
        # Every write a signed-in user sends: 422 for an Idempotency-Key sent with another request.
        ("post", "/api/v1/rounds/{round_id}/void/", {"400", "401", "403", "404", "409", "413", "415", "422", "503"}),
        ("post", "/api/v1/rounds/{round_id}/settle/", {"400", "401", "403", "404", "409", "422", "503"}),
        ("post", "/api/v1/assist/paigow-poker/house-way/", {"400", "401", "403", "413", "415", "422", "503"}),
        ("get", "/api/v1/adjustments/", {"400", "401", "403", "503"}),
    ],
)
def test_each_operation_lists_the_refusals_it_can_answer(schema, method, path, statuses) -> None:  # type: ignore[no-untyped-def]
    responses = schema["paths"][path][method]["responses"]
    refusals = {status for status in responses if status >= "400"}
    assert refusals == statuses
    for status in statuses:
        assert responses[status]["content"] == REFUSAL


@pytest.mark.django_db
def test_every_operation_documents_its_refusals(schema) -> None:  # type: ignore[no-untyped-def]
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            assert any(status >= "400" for status in operation["responses"]), (method, path)


@pytest.mark.django_db
def test_signing_in_is_open_to_anyone_and_may_be_locked_out(schema) -> None:  # type: ignore[no-untyped-def]
    operation = schema["paths"]["/api/v1/auth/token/"]["post"]
    assert {} in operation["security"]
    assert {"400", "429", "503"} <= set(operation["responses"])
    assert "401" not in operation["responses"]


@pytest.mark.django_db
def test_a_rounds_settlement_is_null_until_it_settles(schema) -> None:  # type: ignore[no-untyped-def]
    settlement = schema["components"]["schemas"]["RoundOutput"]["properties"]["settlement"]
    assert settlement["oneOf"] == [{"$ref": "#/components/schemas/SettlementOutput"}, {"type": "null"}]


@pytest.mark.django_db
def test_every_refusal_in_the_schema_is_the_refusal_component_none_a_free_form_object(schema) -> None:  # type: ignore[no-untyped-def]
    loose = [
        f"{method.upper()} {path} {status}"
        for path, operations in schema["paths"].items()
        for method, operation in operations.items()
        for status, response in operation.get("responses", {}).items()
        if status[0] in "45" and response.get("content") != REFUSAL
    ]
    assert not loose, loose


@pytest.mark.django_db
def test_every_request_body_is_json_only(schema) -> None:  # type: ignore[no-untyped-def]
    other = [
        f"{method.upper()} {path}: {sorted(operation['requestBody']['content'])}"
        for path, operations in schema["paths"].items()
        for method, operation in operations.items()
        if "requestBody" in operation and list(operation["requestBody"]["content"]) != ["application/json"]
    ]
    assert not other, other


@pytest.mark.django_db
def test_no_answer_shows_the_requests_example(schema) -> None:  # type: ignore[no-untyped-def]
    shown = []
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            asked = set(
                operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("examples", {})
            )
            for status, response in operation.get("responses", {}).items():
                examples = response.get("content", {}).get("application/json", {}).get("examples", {})
                shown += [f"{method.upper()} {path} {status}: {name}" for name in asked & set(examples)]
    assert not shown, shown
