"""A second generator reads the committed schema: OpenAPI Generator (pinned in the dev requirements, run on Java)
validates it with no issue and generates a Python client from it with no warning but two kinds it gives every
OpenAPI 3.1 schema: that 3.1 is in beta, and that a free-form object (a refusal's ``extra``, whose keys name what each
refusal is about) has no schema name (said once or more, as its threads meet it)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCHEMA = Path(__file__).resolve().parents[2] / "docs" / "api" / "openapi.yaml"
GENERATOR = Path(sys.executable).with_name("openapi-generator-cli")
# What the generator says of any 3.1 schema with a free-form object, ours or its own test's.
EXPECTED_WARNINGS = ("OpenAPI 3.1 support is still in beta", "Failed to get the schema name: null")


def _run(*arguments: str) -> str:
    done = subprocess.run([str(GENERATOR), *arguments], capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return done.stdout + done.stderr


def test_openapi_generator_finds_no_issue_in_the_schema() -> None:
    assert "No validation issues detected." in _run("validate", "-i", str(SCHEMA))


def test_openapi_generator_writes_a_python_client_with_no_warning_of_its_own(tmp_path: Path) -> None:
    said = _run("generate", "-i", str(SCHEMA), "-g", "python", "-o", str(tmp_path / "client"), "--dry-run")
    warnings = [line for line in said.splitlines() if " WARN " in line]
    unexpected = [line for line in warnings if not any(words in line for words in EXPECTED_WARNINGS)]
    assert unexpected == []
