"""The REST API's OpenAPI schema is what integrators build on: it changes only on purpose.

``docs/api/openapi.yaml`` is the schema as generated before the code was re-laid out and
after it (the two were identical). A change to the API must change that file in the same commit:
``python manage.py spectacular --file docs/api/openapi.yaml``.
"""

from __future__ import annotations

import difflib
import hashlib
import re
from pathlib import Path
from typing import Any

import yaml
from django.core.management import call_command

SNAPSHOT = Path(__file__).resolve().parents[2] / "docs" / "api" / "openapi.yaml"
CHANGELOG = SNAPSHOT.with_name("CHANGELOG.md")


def test_the_generated_schema_is_the_committed_one(tmp_path: Path) -> None:
    generated = tmp_path / "openapi.yaml"
    call_command("spectacular", "--file", str(generated))
    expected, actual = SNAPSHOT.read_text(encoding="utf-8"), generated.read_text(encoding="utf-8")
    diff = "".join(
        difflib.unified_diff(expected.splitlines(True), actual.splitlines(True), "committed", "generated", n=1)
    )
    assert actual == expected, f"The API schema changed; if on purpose, regenerate {SNAPSHOT}:\n{diff[:4000]}"


def test_the_changelogs_newest_section_names_the_committed_schema() -> None:
    digest = hashlib.sha256(SNAPSHOT.read_bytes()).hexdigest()
    named = re.findall(r"^Schema: `sha256:([0-9a-f]{64})`", CHANGELOG.read_text(encoding="utf-8"), re.M)
    assert named, f"{CHANGELOG} names no schema"
    assert named[0] == digest, (
        f"The API schema changed without its changelog: say what changed in {CHANGELOG}'s newest section and name "
        f"the schema there as sha256:{digest}"
    )


def test_the_schema_is_valid_openapi_3_1() -> None:
    from openapi_spec_validator import validate
    from openapi_spec_validator.readers import read_from_filename

    spec, _ = read_from_filename(str(SNAPSHOT))
    assert spec["openapi"] == "3.1.0"
    validate(spec)  # raises, naming the first problem


def _components_reached(node: object, schemas: dict[str, Any], seen: set[str]) -> set[str]:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
            name = ref.rsplit("/", 1)[1]
            if name not in seen:
                seen.add(name)
                _components_reached(schemas[name], schemas, seen)
        for value in node.values():
            _components_reached(value, schemas, seen)
    elif isinstance(node, list):
        for value in node:
            _components_reached(value, schemas, seen)
    return seen


def test_no_field_of_an_answer_is_left_untyped() -> None:
    """Every field of every answer's components has a type, a reference or a choice of them: none is ``{}``, and no
    object is free-form but a refusal's ``extra`` (whose keys name what each refusal is about)."""
    schema = yaml.safe_load(SNAPSHOT.read_text(encoding="utf-8"))
    schemas = schema["components"]["schemas"]
    answers: set[str] = set()
    for operations in schema["paths"].values():
        for operation in operations.values():
            if isinstance(operation, dict):
                _components_reached(operation.get("responses", {}), schemas, answers)
    untyped = []
    for name in sorted(answers):
        for field, described in (schemas[name].get("properties") or {}).items():
            if not ({"type", "$ref", "oneOf", "anyOf", "allOf", "enum", "const"} & set(described)):
                untyped.append(f"{name}.{field}")
            elif "object" in str(described.get("type")) and not (
                described.get("properties") or described.get("additionalProperties") not in (None, True, {})
            ):
                untyped.append(f"{name}.{field} (a free-form object)")
    assert untyped == ["Refusal.extra (a free-form object)"]
