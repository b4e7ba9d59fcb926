"""Every refusal a user reads is translatable: an ``ApplicationError`` (or a subclass: ``WrongState``, ``NotAllowed``,
``LabRefused``, ...) is raised with a message marked for translation, never with a bare English literal or f-string.

The walk reads the apps' sources with ``ast``: the first argument (or ``message=``) of every call of the error family
must not be a string literal, an f-string, or a ``%``, ``+`` or ``.format`` whose left part is one. A call of
``_``/``gettext``/``ngettext``/``pgettext`` (alone, or as the left of ``%``) is what is wanted; a variable, an
attribute or another call is let through (the walk cannot know what it holds). The engines (``rules.games``,
``poker_room.pure``) import no Django and keep their English; the management commands (for IT) and the migrations are
not read.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.utils import translation

from casino.errors import ApplicationError
from casino.models import Pit

ROOT = Path(__file__).resolve().parents[2]
APPS = ("casino", "ledger", "rounds", "settlement", "tables", "players", "pit", "dealer", "rules", "poker_room")
# Not read: the pure engines (no Django, English by design) and what no user reads in a page or an API answer.
SKIPPED = (("rules", "games"), ("poker_room", "pure"))
SKIPPED_PARTS = ("tests", "migrations")
ROOT_ERROR = "ApplicationError"
TRANSLATING = frozenset({"_", "gettext", "ngettext", "pgettext", "npgettext"})


def _sources() -> list[Path]:
    found = []
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            parts = path.relative_to(ROOT).parts
            if any(part in SKIPPED_PARTS for part in parts) or parts[:2] in SKIPPED:
                continue
            if "management" in parts and "commands" in parts:
                continue
            found.append(path)
    return found


def _name(node: ast.expr) -> str | None:
    """``ApplicationError`` for ``ApplicationError`` and for ``errors.ApplicationError``."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _error_family(trees: dict[Path, ast.Module]) -> frozenset[str]:
    """``ApplicationError`` and every class whose bases include it or a class already found, however deep."""
    family = {ROOT_ERROR}
    grew = True
    while grew:
        grew = False
        for tree in trees.values():
            for node in ast.walk(tree):
                if (
                    isinstance(node, ast.ClassDef)
                    and node.name not in family
                    and any(_name(base) in family for base in node.bases)
                ):
                    family.add(node.name)
                    grew = True
    return frozenset(family)


def _translating(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and _name(node.func) in TRANSLATING


def _leftmost(node: ast.expr) -> ast.expr:
    while isinstance(node, ast.BinOp):
        node = node.left
    return node


def _untranslated(message: ast.expr) -> bool:
    """Whether ``message`` is English text written in place: a literal, an f-string, or one of them formatted."""
    if isinstance(message, ast.Constant):
        return isinstance(message.value, str)
    if isinstance(message, ast.JoinedStr):
        return True
    if isinstance(message, ast.BinOp):
        if isinstance(message.op, ast.Mod) and _translating(message.left):
            return False
        return _untranslated(_leftmost(message))
    if isinstance(message, ast.Call) and isinstance(message.func, ast.Attribute) and message.func.attr == "format":
        return _untranslated(message.func.value)
    if isinstance(message, ast.IfExp):
        return _untranslated(message.body) or _untranslated(message.orelse)
    return False


def _message(call: ast.Call) -> ast.expr | None:
    if call.args:
        return call.args[0]
    return next((keyword.value for keyword in call.keywords if keyword.arg == "message"), None)


def _refusals_in_english() -> list[str]:
    trees = {path: ast.parse(path.read_text(encoding="utf-8"), filename=str(path)) for path in _sources()}
    family = _error_family(trees)
    found = []
    for path, tree in trees.items():
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and _name(node.func) in family):
                continue
            message = _message(node)
            if message is not None and _untranslated(message):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {_name(node.func)}({ast.unparse(message)[:80]})")
    return sorted(found)


def test_the_walk_reads_the_error_family() -> None:
    """The walk finds the errors it is about (a walk that found none would pass whatever the sources say)."""
    trees = {path: ast.parse(path.read_text(encoding="utf-8")) for path in _sources()}
    assert {"ApplicationError", "WrongState", "NotAllowed", "LabRefused", "RuleSetInvalid"} <= _error_family(trees)


def test_the_walk_tells_english_from_translated() -> None:
    def refused(source: str) -> bool:
        (statement,) = ast.parse(source).body
        assert isinstance(statement, ast.Raise) and isinstance(statement.exc, ast.Call)
        message = _message(statement.exc)
        return message is not None and _untranslated(message)

    assert refused('raise ApplicationError("A table needs a name.")')
    assert refused('raise WrongState(f"Table {name} is closed.", extra={})')
    assert refused('raise NotAllowed(message="Only a " + role + " may.")')
    assert refused('raise ApplicationError("Table %s is closed." % name)')
    assert refused('raise ApplicationError("Table {} is closed.".format(name))')
    assert refused('raise ApplicationError(_("Closed.") if shut else "Open.")')
    assert not refused('raise ApplicationError(_("A table needs a name."))')
    assert not refused('raise WrongState(_("Table %(table)s is closed.") % {"table": name}, extra={})')
    assert not refused('raise ApplicationError(ngettext("%(n)s seat", "%(n)s seats", n) % {"n": n})')
    assert not refused("raise ApplicationError(message)")
    assert not refused("raise ApplicationError(said(error))")
    assert not refused('raise ApplicationError(message + " " + _("Nothing was placed."))')


def test_every_refusal_is_marked_for_translation() -> None:
    found = _refusals_in_english()

    assert not found, "Refusals in English only (wrap them in gettext, as _(...) % {...}):\n" + "\n".join(found)


# The wrapping works end to end: the German catalogue holds these refusals, and a German request reads them.
@pytest.mark.django_db
def test_refusals_read_in_german(pit_boss: User, pit: Pit, make_table: Callable[..., object]) -> None:
    from tables.services import table_create

    def refusal(name: str) -> str:
        with translation.override("de"), pytest.raises(ApplicationError) as refused:
            table_create(
                actor=pit_boss,
                pit=pit,
                name=name,
                game="paigow_poker",
                min_wager_cents=1000,
                max_wager_cents=50000,
                seat_count=6,
            )
        return refused.value.message

    nameless = refusal("  ")
    make_table(name="PGP-1", game="paigow_poker", seat_count=6)
    taken = refusal("PGP-1")

    assert nameless and nameless != "A table needs a name."
    assert "'PGP-1'" in taken and taken != "There is already a table called 'PGP-1'."
