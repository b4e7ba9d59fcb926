"""rules/games is pure Python: no Django import anywhere in it, directly or indirectly."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

GAMES = Path(__file__).resolve().parents[2] / "rules" / "games"


def django_imports(source: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if alias.name.split(".")[0] == "django"]
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "django":
            found.append(node.module)
    return found


def test_the_checker_itself_spots_a_django_import() -> None:
    assert django_imports("import os\nfrom django.db import models\n") == ["django.db"]
    assert django_imports("def f():\n    import django.conf\n") == ["django.conf"]
    assert django_imports("import djangoish\n") == []


def test_no_module_in_rules_games_imports_django() -> None:
    modules = sorted(GAMES.rglob("*.py"))
    assert modules, "rules/games has no modules"
    offenders = {str(p.relative_to(GAMES)): django_imports(p.read_text()) for p in modules}
    assert {k: v for k, v in offenders.items() if v} == {}


def test_every_engine_module_imports_with_django_blocked() -> None:
    names = [
        "rules.games." + ".".join(p.relative_to(GAMES).with_suffix("").parts)
        for p in sorted(GAMES.rglob("*.py"))
        if p.name != "__init__.py"
    ]
    script = (
        "import sys\n"
        "sys.modules['django'] = None\n"  # any import of django now raises ImportError
        "import importlib\n"
        f"for name in {names!r}: importlib.import_module(name)\n"
        "print('ok')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=GAMES.parents[1], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
