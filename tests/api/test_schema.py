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
