"""No test empties the whole cache: on Redis (the PostgreSQL pass) ``cache.clear()`` empties the Redis database that
every pytest-xdist worker shares, so a test on one worker loses its counters and markers to a test on the other
(the kiosk's count of names once came back at nought halfway through a test, one run in two). A test empties its
own worker's keys with ``tests.caches.cache_clear``.

The scan walks every module under ``tests/`` with ``ast`` and lists each ``cache.clear()`` call.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ALLOWED = {Path("tests/caches.py")}  # the in-process cache's clear, for the embedded default


def whole_cache_clears(source: str) -> list[int]:
    """The lines of every ``cache.clear()`` (or ``caches[...].clear()``) call in ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "clear"):
            continue
        owner = node.func.value
        named = owner.id if isinstance(owner, ast.Name) else None
        indexed = owner.value.id if isinstance(owner, ast.Subscript) and isinstance(owner.value, ast.Name) else None
        if named == "cache" or indexed == "caches":
            found.append(node.lineno)
    return found


def test_the_scan_finds_a_whole_cache_cleared_and_nothing_else() -> None:
    source = "cache.clear()\ncaches['default'].clear()\nseen.clear()\ncache_clear()\nmemo.cache_clear()\n"
    assert whole_cache_clears(source) == [1, 2]


def test_no_test_empties_the_cache_every_worker_shares() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in sorted((ROOT / "tests").rglob("*.py"))
        if path.relative_to(ROOT) not in ALLOWED
        for line in whole_cache_clears(path.read_text(encoding="utf-8"))
    ]
    assert found == [], f"use tests.caches.cache_clear, which empties this worker's keys only: {found}"
