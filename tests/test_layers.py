"""Every app looks only down (DESIGN.md, "Layout"): the import contracts in pyproject.toml hold on this tree,
and an import that climbs a layer, or Django in the engines, breaks them.

The broken cases run ``lint-imports`` on a copy of the tree with one module added, never on the tree itself.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = (
    "config",
    "pit",
    "dealer",
    "poker_room",
    "settlement",
    "players",
    "rounds",
    "tables",
    "rules",
    "ledger",
    "casino",
)
LAYERS = "Apps look only down"
PURE_ENGINES = "The engines (rules.games, and rules.engines which maps games to them) import no Django"
PURE_POKER_ROOM = "The poker room's rules"


def lint_imports(where: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports --no-cache`` run in ``where``, importing the packages found there."""
    command = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"
    return subprocess.run(
        [sys.executable, "-c", command, "--no-cache"],
        cwd=where,
        env={**os.environ, "PYTHONPATH": str(where)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def copy_of_the_tree(to: Path) -> Path:
    shutil.copy2(ROOT / "pyproject.toml", to / "pyproject.toml")
    for package in PACKAGES:
        shutil.copytree(ROOT / package, to / package, ignore=shutil.ignore_patterns("__pycache__", "static"))
    return to


def test_the_tree_keeps_every_import_contract() -> None:
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "3 kept, 0 broken" in result.stdout


@pytest.mark.parametrize(
    ("module", "source", "broken", "named"),
    [
        ("casino/_climb_probe.py", "import pit\n", LAYERS, "casino._climb_probe -> pit"),
        ("ledger/_climb_probe.py", "from tables import models\n", LAYERS, "ledger._climb_probe -> tables"),
        ("tables/_climb_probe.py", "from rounds import models\n", LAYERS, "tables._climb_probe -> rounds"),
        ("rounds/_climb_probe.py", "from settlement import models\n", LAYERS, "rounds._climb_probe -> settlement"),
        ("rules/games/_django_probe.py", "import django.db\n", PURE_ENGINES, "rules.games._django_probe -> django"),
        ("players/_climb_probe.py", "import poker_room\n", LAYERS, "players._climb_probe -> poker_room"),
        ("poker_room/_climb_probe.py", "import dealer\n", LAYERS, "poker_room._climb_probe -> dealer"),
    ],
)
def test_a_module_that_imports_upwards_breaks_a_contract(
    tmp_path: Path, module: str, source: str, broken: str, named: str
) -> None:
    tree = copy_of_the_tree(tmp_path)
    (tree / module).write_text(source, encoding="utf-8")
    result = lint_imports(tree)
    assert result.returncode != 0
    out = " ".join(result.stdout.split())  # the report wraps long contract names
    verdict = re.search(re.escape(broken) + r".*?\b(KEPT|BROKEN)\b", out)
    assert verdict is not None and verdict.group(1) == "BROKEN", out
    assert "2 kept, 1 broken" in out
    assert named in out


def test_the_poker_rooms_rules_import_no_django() -> None:
    """The clock, seating, payouts and structures are pure: the contract names each of them, and a probe breaks it."""
    tree = ROOT
    result = lint_imports(tree)
    assert PURE_POKER_ROOM in " ".join(result.stdout.split())


def test_a_pure_poker_room_module_that_imports_django_breaks_its_contract(tmp_path: Path) -> None:
    tree = copy_of_the_tree(tmp_path)
    clock = tree / "poker_room" / "pure" / "clock.py"
    clock.write_text(clock.read_text(encoding="utf-8") + "\nimport django.db  # noqa\n", encoding="utf-8")
    out = " ".join(lint_imports(tree).stdout.split())
    verdict = re.search(re.escape(PURE_POKER_ROOM) + r".*?\b(KEPT|BROKEN)\b", out)
    assert verdict is not None and verdict.group(1) == "BROKEN", out
    assert "poker_room.pure.clock -> django" in out


# The apps above the ledger (the layers contract's order): none of their migrations may come before one of the
# ledger's, so the ledger's tables are made on a fresh database without any app above it.
ABOVE_THE_LEDGER = {"rules", "tables", "rounds", "players", "settlement", "poker_room", "dealer", "pit"}


def test_no_migration_of_the_ledger_depends_on_an_app_above_it() -> None:
    from django.db.migrations.loader import MigrationLoader

    graph = MigrationLoader(None, ignore_no_migrations=True).graph
    ledger = [key for key in graph.nodes if key[0] == "ledger"]
    assert ledger, "the ledger has migrations"
    above = sorted(
        {f"{node[0]}.{node[1]}" for key in ledger for node in graph.forwards_plan(key) if node[0] in ABOVE_THE_LEDGER}
    )
    assert above == []
