"""The pure modules' English strings listed for the translators are the modules' own texts, all of them."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.utils import translation

from poker_room import pure_messages
from poker_room.pure.structure import GAME_NAMES, GAME_RULE_LINES, Game

PURE = Path(pure_messages.__file__).parent / "pure"
CATALOGUED_MODULES = (
    "structure",
    "payouts",
    "seating",
    "chip_race",
    "icm",
    "brackets",
    "league_points",
    "ofc_standings",
)  # every fixed refusal of these is listed


def fixed_refusals(module: str) -> set[str]:
    """The literal first arguments of the exceptions ``module`` raises (both arms of a conditional)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse((PURE / f"{module}.py").read_text())):
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and node.exc.args:
            first = node.exc.args[0]
            arms = (first.body, first.orelse) if isinstance(first, ast.IfExp) else (first,)
            found |= {arm.value for arm in arms if isinstance(arm, ast.Constant) and isinstance(arm.value, str)}
    return found


def test_every_game_name_and_rule_line_is_listed_as_the_structure_writes_it() -> None:
    assert set(pure_messages.GAME_NAMES) == set(GAME_NAMES.values())
    assert set(pure_messages.GAME_RULE_LINES) == set(GAME_RULE_LINES.values())


def test_every_listed_refusal_is_raised_word_for_word_by_a_pure_module() -> None:
    raised = set().union(*(fixed_refusals(m) for m in (*CATALOGUED_MODULES, "clock")))
    assert set(pure_messages.REFUSALS) - raised == set()


@pytest.mark.parametrize("module", CATALOGUED_MODULES)
def test_every_fixed_refusal_of_a_pure_module_is_listed(module: str) -> None:
    assert fixed_refusals(module) - set(pure_messages.REFUSALS) == set()


@pytest.mark.parametrize(
    ("english", "german"),
    [
        (GAME_RULE_LINES[Game.IRISH], "nach dem Flop wirft jeder Spieler zwei ab"),
        (GAME_RULE_LINES[Game.OMAHA], "vier Hole Cards"),
        ("Every seat is taken: open another table first.", "Jeder Platz ist besetzt"),
    ],
)
def test_the_german_catalogue_translates_what_the_pages_translate_at_runtime(english: str, german: str) -> None:
    with translation.override("de"):
        assert german in translation.gettext(english)
