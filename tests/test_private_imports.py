"""No module imports another module's private name (STYLE.md 18): ``from x import _y`` reaches into ``x``'s insides,
so a change there breaks a caller ``x`` never knew it had. A name two modules share is public (no leading
underscore), or lives in a module both import.

The scan walks every module of the packages in ``CHECKED`` with ``ast`` (migrations left out) and lists each
``from module import _name`` it finds.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# The apps held to the rule. Widen it app by app as each is re-laid: today casino, config, players, settlement and
# tables would pass as they are; dealer, pit and rules still import private names.
CHECKED = ("poker_room",)


def private_imports(source: str) -> list[tuple[int, str, str]]:
    """(line, module, name) of every ``from module import _name`` in ``source``. A dunder (``__version__``) is not
    private; a relative import is named with its dots."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ImportFrom):
            continue
        for alias in node.names:
            dunder = alias.name.startswith("__") and alias.name.endswith("__")
            if alias.name.startswith("_") and not dunder:
                found.append((node.lineno, "." * node.level + (node.module or ""), alias.name))
    return found


def modules(package: str) -> list[Path]:
    return sorted(path for path in (ROOT / package).rglob("*.py") if "migrations" not in path.parts)


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("from poker_room.apis import _valid\n", [(1, "poker_room.apis", "_valid")]),
        ("from a import b, _c as c\n", [(1, "a", "_c")]),
        ("from . import _helper\n", [(1, ".", "_helper")]),
        ("def f():\n    from a.b import _c\n", [(2, "a.b", "_c")]),
        ("from a import valid\n", []),
        ("from a import __version__\n", []),
        ("from __future__ import annotations\n", []),
        ("import a._b\n", []),  # a module, not a name: the rule is about names
        ("x = a._b\n", []),
    ],
)
def test_the_scan_finds_each_private_name_imported_and_nothing_else(source: str, found: list[tuple]) -> None:
    assert private_imports(source) == found


@pytest.mark.parametrize("package", CHECKED)
def test_no_module_imports_another_modules_private_name(package: str) -> None:
    scanned = modules(package)
    assert len(scanned) > 10, f"the scan found too few modules in {package}"
    offenders = [
        f"{path.relative_to(ROOT)}:{line}: from {module} import {name}"
        for path in scanned
        for line, module, name in private_imports(path.read_text(encoding="utf-8"))
    ]
    assert offenders == [], "import a public name, or move the helper to a module both share:\n" + "\n".join(offenders)
