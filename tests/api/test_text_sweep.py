"""Text no field can hold is refused in words, never a server error: a lone surrogate (JSON can escape one,
``"\\ud800"``; no UTF-8 text, neither the database's nor a refusal's, can hold it) and a NUL byte (PostgreSQL's text
cannot hold one) sent into every string field of every write the schema describes, and every string query
parameter of every read, on the seeded floor of the schema test (real ids, so the requests reach the services)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from tests.api.test_schemathesis import _last, seeded_floor, wsgi_in_test_transaction  # noqa: F401  (fixtures)

UNHOLDABLE = ("\ud800", "a\udfffb", "pending\x00", "\x00")
WRITES = ("post", "put", "patch")


def _resolved(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
    if "allOf" in node and len(node["allOf"]) == 1:
        return _resolved(schema, node["allOf"][0])
    choices = [choice for choice in node.get("oneOf", []) if choice != {"type": "null"}]
    if len(choices) == 1:  # OpenAPI 3.1's nullable: a type or null
        return _resolved(schema, choices[0])
    kinds = node.get("type")
    if isinstance(kinds, list) and len([kind for kind in kinds if kind != "null"]) == 1:
        return {**node, "type": next(kind for kind in kinds if kind != "null")}
    return node


def _string_fields(schema: dict[str, Any], body: dict[str, Any], prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every string property of a body, nested objects' too, as paths of keys."""
    found: list[tuple[str, ...]] = []
    for name, prop in _resolved(schema, body).get("properties", {}).items():
        prop = _resolved(schema, prop)
        if prop.get("readOnly"):
            continue
        if prop.get("type") == "string" or "enum" in prop:
            found.append((*prefix, name))
        elif prop.get("type") == "object" and "properties" in prop:
            found.extend(_string_fields(schema, prop, (*prefix, name)))
        elif prop.get("type") == "array" and _resolved(schema, prop.get("items", {})).get("type") == "string":
            found.append((*prefix, name, "[]"))
    return found


def _body(path: tuple[str, ...], value: str) -> Any:
    if not path:
        return value
    if path[0] == "[]":
        return [value]
    return {path[0]: _body(path[1:], value)}


def _filled(template: str, ids: dict[str, list[int]]) -> str:
    for name, values in ids.items():
        template = template.replace("{" + name + "}", str(values[0]))
    # A parameter the floor has no row for: any number, the refusal is then a 404.
    while "{" in template:
        start = template.index("{")
        template = template[:start] + "1" + template[template.index("}", start) + 1 :]
    return template


def signed_in_schema(user: User) -> tuple[APIClient, dict[str, Any]]:
    """A client signed in as ``user`` (answering errors, never raising) and the API description it reads."""
    client = APIClient(raise_request_exception=False)
    client.force_authenticate(user)
    return client, client.get("/api/schema/", {"format": "json"}).json()


@pytest.mark.django_db
def test_text_no_field_can_hold_is_refused_in_words_in_every_field_of_every_operation(
    seeded_floor: dict[str, list[int]],  # noqa: F811
    pit_boss: User,
    wsgi_in_test_transaction: Any,  # noqa: F811
) -> None:
    client, schema = signed_in_schema(pit_boss)
    sent, failures = 0, []
    operations = sorted(
        ((path, method, op) for path, item in schema["paths"].items() for method, op in item.items()),
        key=lambda entry: _last(f"{entry[1].upper()} {entry[0]}"),
    )
    for path, method, operation in operations:
        url = _filled(path, seeded_floor)
        if method in WRITES:
            body = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
            fields = _string_fields(schema, body) if body else []
            requests = [(field, value) for field in fields for value in UNHOLDABLE]
        else:
            names = [p["name"] for p in operation.get("parameters", []) if p.get("in") == "query"]
            requests = [((name,), value) for name in names for value in UNHOLDABLE if "\x00" in value]
        for field, value in requests:
            if method in WRITES:
                data = json.dumps(_body(field, value))  # ensure_ascii: the surrogate travels as \ud800
                response = getattr(client, method)(url, data=data, content_type="application/json")
            else:
                response = client.get(url, {field[0]: value})
            sent += 1
            where = f"{method.upper()} {path} {'.'.join(field)}={value!r}"
            if response.status_code >= 500:
                failures.append(f"{where}: {response.status_code}")
                continue
            if response.status_code >= 400:
                try:
                    message = response.json()["message"]
                except (ValueError, KeyError, TypeError):
                    failures.append(f"{where}: {response.status_code} without a refusal in words")
                    continue
                if not message or "\ud800" in message or "\x00" in message:
                    failures.append(f"{where}: the refusal {message!r} echoes what it refuses")
    assert sent > 200
    assert not failures, f"{len(failures)} of {sent} requests:\n" + "\n".join(failures)
