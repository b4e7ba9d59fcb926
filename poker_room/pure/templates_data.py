"""The seed's tournaments as templates (GAME_RULES.md §5; seeds/003, lines 54-133), shipped as data.

``data/templates.json`` holds each event's game(s), starting stack and level length as the seed gives them
(the seed ends: "final structures then in each event's invitation", so the structure is the director's to
edit); ``template_structure`` generates a default structure for one. The file is read once and cached.

>>> [t.name for t in templates()][:3]
['Mainzer Poker Masters', 'PS Flames', 'Easter Festival']
>>> print(template("msop_irish").rules)
Irish: played as No-Limit Hold'em, but with four hole cards; each player discards two after the flop.
>>> template("msop_heads_up").level_hands, template("msop_heads_up").table_size
(7, 2)
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from poker_room.pure.structure import (
    DEFAULT_CHIPS,
    GAME_NAMES,
    GAME_RULE_LINES,
    AnteKind,
    Game,
    Level,
    StructureError,
    structure_generate,
)

DATA_FILE = Path(__file__).parent / "data" / "templates.json"
TABLE_SIZE = 9
HEADS_UP_TABLE_SIZE = 2
DEFAULT_POINTS_STACK = 10_000  # the Master Class's stack in a generated structure when no points are given


class UnknownTemplate(StructureError):
    """No template has that key."""


@dataclass(frozen=True)
class Template:
    """One event of the seed. ``starting_stack`` is None when the stack is each player's league points
    (``stack_from_points``: the Master Class); exactly one of ``level_minutes`` and ``level_hands`` is set.
    ``rules`` is the line the director shows (each game's rule line, then the event's own note);
    ``source`` says where in the seed the event comes from. ``target_minutes`` and ``players`` are the
    house's defaults for a generated structure (the seed gives none)."""

    key: str
    name: str
    games: tuple[str, ...]
    starting_stack: int | None
    stack_from_points: bool
    level_minutes: int | None
    level_hands: int | None
    rules: str
    knockout: bool
    ante_up: bool
    heads_up: bool
    table_size: int
    source: str
    target_minutes: int
    players: int


def _field(row: dict[str, Any], name: str, kind: type | tuple[type, ...], where: str) -> Any:
    if name not in row:
        raise StructureError(f"{where}: the template file lacks {name!r}")
    value = row[name]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
        raise StructureError(f"{where}: {name!r} has the wrong type ({value!r})")
    return value


def _template(row: object, position: int) -> Template:
    where = f"Template {position}"
    if not isinstance(row, dict):
        raise StructureError(f"{where} is not an object")
    key = _field(row, "key", str, where)
    where = f"Template {key!r}"
    games = tuple(_field(row, "games", list, where))
    if not games or any(game not in Game.__members__.values() for game in games):
        raise StructureError(f"{where} plays an unknown game: {games!r}")
    stack = _field(row, "starting_stack", (int, type(None)), where)
    from_points = _field(row, "stack_from_points", bool, where)
    if (stack is None) != from_points:
        raise StructureError(f"{where}: a stack comes either as chips or from the league points")
    minutes = _field(row, "level_minutes", (int, type(None)), where)
    hands = _field(row, "level_hands", (int, type(None)), where)
    if (minutes is None) == (hands is None):
        raise StructureError(f"{where}: a level lasts minutes or hands, exactly one")
    heads_up = _field(row, "heads_up", bool, where)
    notes = _field(row, "notes", str, where)
    lines = [f"{GAME_NAMES[Game(game)]}: {GAME_RULE_LINES[Game(game)]}" for game in games]
    return Template(
        key=key,
        name=_field(row, "name", str, where),
        games=games,
        starting_stack=stack,
        stack_from_points=from_points,
        level_minutes=minutes,
        level_hands=hands,
        rules=" ".join([*lines, notes] if notes else lines),
        knockout=_field(row, "knockout", bool, where),
        ante_up=_field(row, "ante_up", bool, where),
        heads_up=heads_up,
        table_size=HEADS_UP_TABLE_SIZE if heads_up else TABLE_SIZE,
        source=_field(row, "source", str, where),
        target_minutes=_field(row, "target_minutes", int, where),
        players=_field(row, "players", int, where),
    )


@functools.cache
def templates() -> tuple[Template, ...]:
    """Every template, in the seed's order (read from ``data/templates.json`` once)."""
    document = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    rows = document.get("templates") if isinstance(document, dict) else None
    if not isinstance(rows, list):
        raise StructureError(f"{DATA_FILE.name} holds no list of templates")
    loaded = tuple(_template(row, position) for position, row in enumerate(rows, start=1))
    keys = [t.key for t in loaded]
    if len(set(keys)) != len(keys):
        raise StructureError(f"{DATA_FILE.name} lists a template key twice")
    return loaded


def template(key: str) -> Template:
    """The template with ``key``, or ``UnknownTemplate``."""
    for candidate in templates():
        if candidate.key == key:
            return candidate
    raise UnknownTemplate(f"No template {key!r}: choose one of {', '.join(t.key for t in templates())}")


def template_structure(
    t: Template,
    *,
    players: int | None = None,
    chips: Sequence[int] = DEFAULT_CHIPS,
    target_minutes: int | None = None,
    points_stack: int = DEFAULT_POINTS_STACK,
) -> tuple[Level, ...]:
    """The template's default structure from ``structure_generate``: its stack (``points_stack`` when the
    stack is the league points), level length and games, for ``players`` entrants (the template's typical
    field by default) over ``target_minutes`` (the template's default).

    A heads-up event's structure is one match's: two players, no breaks, no ante, so ``players`` does not
    change it. Other events take a big-blind ante from level 3; Ante-Up the classic ante from level 1.
    """
    return structure_generate(
        starting_stack=points_stack if t.stack_from_points else t.starting_stack or 0,
        level_minutes=t.level_minutes,
        level_hands=t.level_hands,
        target_minutes=target_minutes if target_minutes is not None else t.target_minutes,
        chips=chips,
        players=2 if t.heads_up else players if players is not None else t.players,
        games=t.games,
        ante_kind=AnteKind.NONE if t.heads_up else AnteKind.CLASSIC if t.ante_up else AnteKind.BIG_BLIND,
        break_every=0 if t.heads_up else 4,
        ante_up=t.ante_up,
    )
