"""The API description's refusals, in one place: every operation documents the ``{"message", "extra"}``
answers it can give besides its success, so no view repeats them.

A drf-spectacular postprocessing hook (``SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]``) adds, to every operation
that does not already say otherwise:

- 400 where there is input: a request body, a query parameter or a header; 413 and 415 where there is a body (one
  over the size the server takes; one sent in a content type the API does not read, or that it cannot parse);
- 401 and 403 where a signed-in user is needed (403 also answers a role or a table that refuses the user);
- 404 where there is an id in the path;
- 409 on a write that changes what is stored: a service refuses a round, a request or a shift that is not in a
  state that allows the action. The stateless answers (the dealer-assist engines, signing in) are not such writes;
- 429 where anyone may call (signing in): too many failed sign-ins lock the name out for a while;
- 503 on every operation: the database or a service it needs does not answer;
- 422 on every write a signed-in user sends: its ``Idempotency-Key`` was sent with another request; and the header
  itself, required where the write moves money or chips (``casino.idempotency``).

Two answers belong to an address rather than an operation, so the schema's description says them once: 405 (a
method the address does not take) and 308 (an address without its trailing slash, to the one with it, keeping the
method and the body), both in the same ``Refusal`` shape.

An operation open to anyone (a view with no permission classes, as the token endpoint) is marked so: its
``security`` gains the empty requirement, as drf-spectacular does for ``AllowAny``.
"""

from __future__ import annotations

from typing import Any

from casino.idempotency import HEADER, schema_parameter

REFUSAL = "Refusal"

REFUSAL_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "Every refusal under /api/: a message in the user's words, and what it is about.",
    "properties": {
        "message": {"type": "string", "description": "What is wrong, in words a dealer can read."},
        "extra": {
            "type": "object",
            "additionalProperties": {},
            "description": "What the refusal is about: the field, the table, the roles needed.",
        },
    },
    "required": ["message", "extra"],
}

# Writes that change nothing stored, so no state can refuse them.
STATELESS_PREFIXES = ("/api/v1/assist/", "/api/v1/auth/")
VERSION_PREFIX = "/api/v1/"

WRITE_METHODS = frozenset({"post", "put", "patch", "delete"})

DESCRIPTIONS = {
    "400": "The input is not valid: the message names what is wrong.",
    "401": "Not signed in.",
    "403": "Not signed in, or the user's role or table does not allow this.",
    "404": "Nothing has this id (or the user may not see it).",
    "409": "The thing exists but its state does not allow this now.",
    "415": "The body's content type is not one the API reads (JSON, a form), or the body cannot be parsed as it.",
    "429": "Too many failed sign-ins: try again later.",
    "422": "The Idempotency-Key was sent with another request: a key names one request.",
    "413": "The request body is larger than the server takes (extra.max_bytes).",
    "503": "The database or a service the request needs does not answer: send it again after Retry-After seconds "
    "(nothing was written).",
}


def _open_to_anyone(callback: Any) -> bool:
    view = getattr(callback, "cls", None)
    return view is not None and not tuple(getattr(view, "permission_classes", ()) or ())


def refusal_statuses(*, path: str, method: str, operation: dict[str, Any], open_to_anyone: bool) -> list[str]:
    """The refusal statuses ``operation`` (``method`` on ``path``) can answer, by the rules above.

    >>> refusal_statuses(path="/api/v1/rounds/{round_id}/void/", method="post",
    ...     operation={"parameters": [{"in": "path", "name": "round_id"}], "requestBody": {}}, open_to_anyone=False)
    ['400', '401', '403', '404', '413', '415', '409', '503']
    >>> refusal_statuses(path="/api/v1/tables/", method="get", operation={}, open_to_anyone=False)
    ['401', '403', '503']
    >>> refusal_statuses(path="/api/v1/auth/token/", method="post", operation={"requestBody": {}}, open_to_anyone=True)
    ['400', '413', '415', '429', '503']
    """
    places = {parameter["in"] for parameter in operation.get("parameters", [])}
    statuses = []
    if "requestBody" in operation or places & {"query", "header"}:
        statuses.append("400")
    if not open_to_anyone:
        statuses += ["401", "403"]
    if "path" in places:
        statuses.append("404")
    if "requestBody" in operation:
        statuses += ["413", "415"]
    if method in WRITE_METHODS and not path.startswith(STATELESS_PREFIXES):
        statuses.append("409")
    if open_to_anyone:
        statuses.append("429")
    statuses.append("503")
    return statuses


def _idempotency_key(operation: dict[str, Any], callback: Any) -> None:
    """The ``Idempotency-Key`` header on a write (``casino.idempotency``): required where the view moves money."""
    required = bool(getattr(getattr(callback, "cls", None), "idempotency_key_required", False))
    others = [p for p in operation.get("parameters", []) if not (p["in"] == "header" and p["name"] == HEADER)]
    operation["parameters"] = [*others, schema_parameter(required=required)]


def postprocess_refusals(result: dict[str, Any], generator: Any, **kwargs: Any) -> dict[str, Any]:
    """Document every operation's refusals with the one ``Refusal`` component (see the module's docstring)."""
    callbacks = {(path, method.lower()): callback for path, _, method, callback in (generator.endpoints or [])}
    result.setdefault("components", {}).setdefault("schemas", {})[REFUSAL] = REFUSAL_SCHEMA
    reference = {"$ref": f"#/components/schemas/{REFUSAL}"}
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            open_to_anyone = _open_to_anyone(callbacks.get((path, method)))
            if open_to_anyone and {} not in operation.get("security", [{}]):
                operation["security"].append({})
            responses = operation.setdefault("responses", {})
            if method in WRITE_METHODS and not open_to_anyone:
                _idempotency_key(operation, callbacks.get((path, method)))
                responses.setdefault(
                    "422", {"description": DESCRIPTIONS["422"], "content": {"application/json": {"schema": reference}}}
                )
            for status in refusal_statuses(
                path=path, method=method, operation=operation, open_to_anyone=open_to_anyone
            ):
                responses.setdefault(
                    status,
                    {"description": DESCRIPTIONS[status], "content": {"application/json": {"schema": reference}}},
                )
            # A view that declared a refusal loosely (a free-form object) answers the one Refusal all the same.
            for status, response in responses.items():
                if status[0] in "45" and isinstance(response, dict):
                    response["content"] = {"application/json": {"schema": reference}}
    return result


def postprocess_request_examples(result: dict[str, Any], generator: Any, **kwargs: Any) -> dict[str, Any]:
    """An example given for a request body stays with the request: drf-spectacular also shows an example that is not
    marked ``request_only`` under the answers, where a wager's 201 would read ``{"seat": 3, "amount_cents": 2500}``."""
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            body = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
            asked = set(body.get("examples", {}))
            for response in operation.get("responses", {}).values():
                answer = response.get("content", {}).get("application/json", {}) if isinstance(response, dict) else {}
                examples = answer.get("examples")
                if examples:
                    for name in asked & set(examples):
                        del examples[name]
                    if not examples:
                        del answer["examples"]
    return result


def _typed_nullable_objects(node: Any) -> Any:
    if isinstance(node, dict):
        one = node.get("oneOf")
        if isinstance(one, list) and len(one) == 2 and {"type": "null"} in one:
            (other,) = [choice for choice in one if choice != {"type": "null"}]
            if isinstance(other, dict) and not other:  # ``{}``: any value, null included
                node = {key: value for key, value in node.items() if key != "oneOf"}
                node["type"] = ["object", "null"]
        return {key: _typed_nullable_objects(value) for key, value in node.items()}
    if isinstance(node, list):
        return [_typed_nullable_objects(value) for value in node]
    return node


def postprocess_nullable_objects(result: dict[str, Any], generator: Any, **kwargs: Any) -> dict[str, Any]:
    """A nullable JSON object (a round's ``hands`` and ``placements``, a settlement's ``bank``) is ``object`` or
    ``null``: drf-spectacular writes ``oneOf: [{}, null]``, where ``{}`` also takes null, so a null matches both and a
    strict validator refuses it."""
    schemas = result.get("components", {}).get("schemas", {})
    result.setdefault("components", {})["schemas"] = _typed_nullable_objects(schemas)
    return result


def preprocess_version_only(
    endpoints: list[tuple[str, str, str, Any]], **kwargs: Any
) -> list[tuple[str, str, str, Any]]:
    """The schema describes the versioned API (/api/v1/) only: the unversioned alias answers the same for this
    release and is not a second set of operations."""
    return [endpoint for endpoint in endpoints if endpoint[0].startswith(VERSION_PREFIX)]
