"""League points, for leagues and the Master Class: the points of one result by a formula the
house picks, a season's standings (best N results, tie-breaks in a set order), and the Master Class's starting
stack from a player's points.

Pure: nothing here knows Django, a database or a clock. Refusals are ``LeagueError`` (a ``ValueError``) in
English; the pages translate the fixed ones (``poker_room.pure_messages``).

**The formulas** (``FORMULAS``), ``n`` the entries of the event, ``k`` the finishing place, ``b`` the buy-in in the
currency unit without the house fee:

* ``sqrt_place``: ``10 · √n / √k`` (the PokerStars leader board's formula without its buy-in factor, as home leagues
  use it when every event has the same buy-in).
* ``pokerstars``: the PokerStars Tournament Leader Board, ``10 · √(n/k) · (1 + log10(b + 0.25))``, and, as published,
  only for the top 15 % of finishers (``100·k ≤ 15·n``); the winner always scores (a home field of 6 has no
  "top 15 %" otherwise: the house's choice).
* ``table``: fixed points by place (1st, 2nd, ...), 0 beyond the table.
* ``expression``: the house writes its own over the named variables ``VARIABLES``; it is read with Python's ``ast``
  and only numbers, the variables, ``+ - * / ** %``, parentheses and the functions ``FUNCTIONS`` are allowed
  (``expression_check``): no attribute, no other name or call, no exponent above ``MOST_EXPONENT``, no number
  beyond ``MOST_VALUE``.

Every result's points are rounded to 2 decimals, half up (``Decimal`` ``ROUND_HALF_UP``): PokerStars's published
examples are rounded so (163.09, 23.88, 100.54). A formula never gives negative points (refused).

>>> points(Result(players=150, place=3, buy_in=Decimal(20)), formula="pokerstars")
Decimal('163.09')
>>> ceps = "10 * max(0, floor(players / 3) - place + 1) ** 2"
>>> points(Result(players=9, place=1), formula="expression", expression=ceps)
Decimal('90.00')
>>> master_class_chips(Decimal("70.71"), chips_per_point=100, smallest_chip=25, rounding="nearest")
7075
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_UP, Decimal, InvalidOperation

FORMULAS = ("sqrt_place", "pokerstars", "table", "expression")
VARIABLES = ("players", "place", "buy_in", "prize_pool", "prize")
ROUNDINGS = ("nearest", "up", "down")
CENT = Decimal("0.01")
MOST_EXPRESSION = 300  # characters
MOST_NODES = 120  # parts of an expression
MOST_EXPONENT = 10
MOST_VALUE = 1e12  # any number met while evaluating
MOST_TABLE = 200  # places in a points table
MOST_TABLE_POINTS = Decimal(1_000_000)
POKERSTARS_SHARE_PERCENT = 15


class LeagueError(ValueError):
    """A league setting or a points request the house must correct."""


# --- one result -----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Result:
    """One finish: ``place`` of ``players`` entries in an event with this ``buy_in`` (currency unit, fee excluded),
    ``prize_pool`` (currency unit) and the player's ``prize``."""

    players: int
    place: int
    buy_in: Decimal = Decimal(0)
    prize_pool: Decimal = Decimal(0)
    prize: Decimal = Decimal(0)

    def values(self) -> dict[str, float]:
        return {
            "players": float(self.players),
            "place": float(self.place),
            "buy_in": float(self.buy_in),
            "prize_pool": float(self.prize_pool),
            "prize": float(self.prize),
        }


def rounded(value: float | Decimal) -> Decimal:
    """Points to 2 decimals, half up."""
    return Decimal(str(value)).quantize(CENT, rounding=ROUND_HALF_UP)


def _check_result(result: Result) -> None:
    if result.players < 1:
        raise LeagueError("An event without entries scores no points")
    if not 1 <= result.place <= result.players:
        raise LeagueError(f"Place {result.place} is not a place of a field of {result.players}")
    if result.buy_in < 0 or result.prize_pool < 0 or result.prize < 0:
        raise LeagueError("A buy-in, a prize pool or a prize is never negative")


def sqrt_place(players: int, place: int) -> float:
    return 10 * math.sqrt(players) / math.sqrt(place)


def pokerstars(players: int, place: int, buy_in: Decimal) -> float:
    if place > 1 and 100 * place > POKERSTARS_SHARE_PERCENT * players:
        return 0.0
    return 10 * math.sqrt(players / place) * (1 + math.log10(float(buy_in) + 0.25))


def points(
    result: Result, *, formula: str, expression: str = "", table: Sequence[Decimal | int | float] = ()
) -> Decimal:
    """The points of ``result`` by ``formula`` (one of ``FORMULAS``), rounded to 2 decimals half up."""
    _check_result(result)
    if formula == "sqrt_place":
        value = sqrt_place(result.players, result.place)
    elif formula == "pokerstars":
        value = pokerstars(result.players, result.place, result.buy_in)
    elif formula == "table":
        checked = table_check(table)
        return rounded(checked[result.place - 1]) if result.place <= len(checked) else rounded(0)
    elif formula == "expression":
        value = evaluate(expression, result.values())
    else:
        raise LeagueError(f"There is no formula {formula!r}")
    if value < 0:
        raise LeagueError(f"The formula gives {value:.2f} points for place {result.place}: points are never negative")
    return rounded(value)


def table_check(table: Iterable[object]) -> tuple[Decimal, ...]:
    """A points table: at least one place, at most ``MOST_TABLE``, each points from 0 to a million, never more for
    a lower place."""
    values: list[Decimal] = []
    for index, item in enumerate(table, start=1):
        if isinstance(item, bool) or not isinstance(item, int | float | Decimal | str):
            raise LeagueError(f"The points for place {index} are a number, not {item!r}")
        try:
            value = Decimal(str(item).strip())
        except InvalidOperation:
            raise LeagueError(f"The points for place {index} are a number, not {item!r}") from None
        if not value.is_finite() or not 0 <= value <= MOST_TABLE_POINTS:
            raise LeagueError(f"The points for place {index} are from 0 to 1000000, not {item}")
        if values and value > values[-1]:
            raise LeagueError(f"Place {index} cannot score more than place {index - 1}")
        values.append(value)
        if len(values) > MOST_TABLE:
            raise LeagueError(f"A points table has at most {MOST_TABLE} places")
    if not values:
        raise LeagueError("The points table is empty: give the points for 1st place at least")
    return tuple(values)


# --- the house's own expression ---------------------------------------------------------------------------------------


def _log(value: float, base: Callable[[float], float]) -> float:
    if value <= 0:
        raise LeagueError(f"A logarithm of {value:g} is not defined")
    return base(value)


def _sqrt(value: float) -> float:
    if value < 0:
        raise LeagueError(f"A square root of {value:g} is not defined")
    return math.sqrt(value)


FUNCTIONS: dict[str, tuple[Callable[..., float], int, int]] = {  # name: (function, fewest arguments, most)
    "sqrt": (_sqrt, 1, 1),
    "log10": (lambda x: _log(x, math.log10), 1, 1),
    "ln": (lambda x: _log(x, math.log), 1, 1),
    "min": (min, 2, 8),
    "max": (max, 2, 8),
    "floor": (math.floor, 1, 1),
    "ceil": (math.ceil, 1, 1),
    "round": (lambda x: float(Decimal(str(x)).quantize(Decimal(1), rounding=ROUND_HALF_UP)), 1, 1),
    "abs": (abs, 1, 1),
}
_OPERATORS: dict[type[ast.operator], Callable[[float, float], float]] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
    ast.Pow: lambda a, b: a**b,
    ast.Mod: lambda a, b: a % b,
}


def _parse(expression: object) -> ast.expr:
    if not isinstance(expression, str) or not expression.strip():
        raise LeagueError("Write the formula, for example 10 * sqrt(players) / sqrt(place)")
    if len(expression) > MOST_EXPRESSION:
        raise LeagueError(f"A formula is at most {MOST_EXPRESSION} characters")
    try:
        tree = ast.parse(expression.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        raise LeagueError(f"The formula cannot be read: {expression.strip()}") from None
    if sum(1 for _ in ast.walk(tree)) > MOST_NODES:
        raise LeagueError("The formula is too long: write it with fewer parts")
    _check_node(tree.body)
    return tree.body


def _check_node(node: ast.AST) -> None:
    """Refuse anything but numbers, the variables, the allowed operators and calls of the allowed functions."""
    if isinstance(node, ast.Constant):
        if isinstance(node.value, bool) or not isinstance(node.value, int | float):
            raise LeagueError(f"Only numbers are allowed, not {node.value!r}")
        if abs(node.value) > MOST_VALUE:
            raise LeagueError(f"The number {node.value} is too large")
    elif isinstance(node, ast.Name):
        if node.id not in VARIABLES:
            allowed = ", ".join(VARIABLES)
            raise LeagueError(f"Unknown name {node.id!r}: a formula uses {allowed}")
    elif isinstance(node, ast.BinOp):
        if type(node.op) not in _OPERATORS:
            raise LeagueError("Only + - * / ** % are allowed")
        _check_node(node.left)
        _check_node(node.right)
    elif isinstance(node, ast.UnaryOp):
        if not isinstance(node.op, ast.USub | ast.UAdd):
            raise LeagueError("Only + - * / ** % are allowed")
        _check_node(node.operand)
    elif isinstance(node, ast.Call):
        name = node.func.id if isinstance(node.func, ast.Name) else None
        if name not in FUNCTIONS or node.keywords:
            allowed = ", ".join(FUNCTIONS)
            raise LeagueError(f"Only the functions {allowed} may be called")
        _function, fewest, most = FUNCTIONS[name]
        if not fewest <= len(node.args) <= most or any(isinstance(arg, ast.Starred) for arg in node.args):
            raise LeagueError(f"{name} takes {fewest} to {most} values" if fewest != most else f"{name} takes 1 value")
        for arg in node.args:
            _check_node(arg)
    else:
        raise LeagueError("Only numbers, the variables, + - * / ** %, parentheses and the listed functions are allowed")


def _bounded(value: float) -> float:
    if isinstance(value, complex) or not math.isfinite(value) or abs(value) > MOST_VALUE:
        raise LeagueError("The formula's value is too large")
    return float(value)


def _eval(node: ast.expr, values: Mapping[str, float]) -> float:
    if isinstance(node, ast.Constant):
        assert isinstance(node.value, int | float)  # _check_node let only numbers through
        return float(node.value)
    if isinstance(node, ast.Name):
        return values[node.id]
    if isinstance(node, ast.UnaryOp):
        operand = _eval(node.operand, values)
        return -operand if isinstance(node.op, ast.USub) else operand
    if isinstance(node, ast.BinOp):
        left, right = _eval(node.left, values), _eval(node.right, values)
        if isinstance(node.op, ast.Pow) and abs(right) > MOST_EXPONENT:
            raise LeagueError(f"An exponent is at most {MOST_EXPONENT}, not {right:g}")
        if (isinstance(node.op, ast.Div | ast.Mod) and right == 0) or (
            isinstance(node.op, ast.Pow) and left == 0 > right
        ):
            raise LeagueError("The formula divides by zero")
        if isinstance(node.op, ast.Pow) and left < 0 and right != int(right):
            raise LeagueError("A negative number has no fractional power")
        try:
            return _bounded(_OPERATORS[type(node.op)](left, right))
        except (OverflowError, ZeroDivisionError):
            raise LeagueError("The formula's value is too large") from None
    assert isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    function = FUNCTIONS[node.func.id][0]
    try:
        return _bounded(float(function(*(_eval(arg, values) for arg in node.args))))
    except (OverflowError, ValueError) as error:
        if isinstance(error, LeagueError):
            raise
        raise LeagueError("The formula's value is too large") from None


def evaluate(expression: str, values: Mapping[str, float]) -> float:
    """The value of the house's ``expression`` for the named ``values`` (each of ``VARIABLES``)."""
    return _eval(_parse(expression), values)


def expression_check(expression: object) -> str:
    """The expression, checked: it reads, uses only what is allowed, and gives points (never negative) for every
    place of fields of 2, 10 and 100 players with a buy-in of 10 and a prize pool of 100 times the field."""
    text = " ".join(str(expression or "").split())
    tree = _parse(text)
    for players in (2, 10, 100):
        for place in range(1, players + 1):
            result = Result(players, place, Decimal(10), Decimal(10 * players), Decimal(10 if place == 1 else 0))
            value = _eval(tree, result.values())
            if value < 0:
                raise LeagueError(
                    f"The formula gives {value:.2f} points for place {place} of {players}: points are never negative"
                )
    return text


# --- a season's standings -------------------------------------------------------------------------------------------

TIE_BREAKS = ("wins", "best_finish", "best_result", "cashes", "most_events", "fewest_events")
DEFAULT_TIE_BREAKS = ("wins", "best_finish", "cashes")


@dataclass(frozen=True)
class Score:
    """A player's result in one event of the league: ``event`` orders the events (the earlier the smaller)."""

    player: str
    event: int
    place: int
    points: Decimal
    cashed: bool = False


@dataclass(frozen=True)
class Line:
    """A player's line of the standings: ``rank`` shared by players equal on points and every tie-break."""

    rank: int
    player: str
    total: Decimal
    counted: tuple[Score, ...]
    dropped: tuple[Score, ...] = field(default=())

    @property
    def scores(self) -> tuple[Score, ...]:
        return tuple(sorted((*self.counted, *self.dropped), key=lambda score: score.event))

    @property
    def wins(self) -> int:
        return sum(1 for score in self.scores if score.place == 1)

    @property
    def cashes(self) -> int:
        return sum(1 for score in self.scores if score.cashed)

    @property
    def events(self) -> int:
        return len(self.scores)

    @property
    def best_finish(self) -> int:
        return min(score.place for score in self.scores)

    @property
    def best_result(self) -> Decimal:
        return max(score.points for score in self.scores)


def tie_breaks_check(keys: Iterable[object]) -> tuple[str, ...]:
    """The tie-breaks in order, each once, each one of ``TIE_BREAKS`` ("most_events" and "fewest_events" exclude
    each other)."""
    chosen: list[str] = []
    for key in keys:
        if key not in TIE_BREAKS:
            raise LeagueError(f"There is no tie-break {key!r}")
        if key in chosen:
            raise LeagueError(f"The tie-break {key} is listed twice")
        chosen.append(str(key))
    if "most_events" in chosen and "fewest_events" in chosen:
        raise LeagueError("Choose most events or fewest events as a tie-break, not both")
    return tuple(chosen)


def _tie_key(line: Line, key: str) -> object:
    """Smaller sorts first (better)."""
    return {
        "wins": -line.wins,
        "best_finish": line.best_finish,
        "best_result": -line.best_result,
        "cashes": -line.cashes,
        "most_events": -line.events,
        "fewest_events": line.events,
    }[key]


def standings(
    scores: Iterable[Score], *, best_of: int = 0, tie_breaks: Sequence[str] = DEFAULT_TIE_BREAKS
) -> tuple[Line, ...]:
    """The standings: each player's total of their ``best_of`` best results (0: every result), ordered by the total
    and then by ``tie_breaks`` in order (each over all the player's results, dropped ones included); players equal
    on all of them share a rank (the next rank skips: 1, 2, 2, 4) and are listed by their key.

    Of equal points the better place is counted first, then the earlier event.

    >>> lines = standings([Score("ann", 1, 1, Decimal(20)), Score("ann", 2, 5, Decimal(4)),
    ...                    Score("bob", 1, 2, Decimal(12)), Score("bob", 2, 1, Decimal(12))], best_of=1)
    >>> [(line.rank, line.player, line.total, len(line.dropped)) for line in lines]
    [(1, 'ann', Decimal('20'), 1), (2, 'bob', Decimal('12'), 1)]
    """
    if isinstance(best_of, bool) or not isinstance(best_of, int) or best_of < 0:
        raise LeagueError(f"Best of is a whole number, 0 for every result, not {best_of!r}")
    order = tie_breaks_check(tie_breaks)
    by_player: dict[str, list[Score]] = {}
    for score in scores:
        by_player.setdefault(score.player, []).append(score)
    lines: list[Line] = []
    for player, own in by_player.items():
        events = [score.event for score in own]
        if len(events) != len(set(events)):
            raise LeagueError(f"{player} has two results in one event")
        best = sorted(own, key=lambda score: (-score.points, score.place, score.event))
        kept = best[:best_of] if best_of else best
        dropped = best[len(kept) :]
        lines.append(
            Line(
                rank=0,
                player=player,
                total=sum((score.points for score in kept), Decimal(0)),
                counted=tuple(sorted(kept, key=lambda score: score.event)),
                dropped=tuple(sorted(dropped, key=lambda score: score.event)),
            )
        )

    def key(line: Line) -> tuple[object, ...]:
        return (-line.total, *(_tie_key(line, name) for name in order))

    lines.sort(key=lambda line: (key(line), line.player))
    ranked: list[Line] = []
    for index, line in enumerate(lines):
        rank = ranked[-1].rank if ranked and key(lines[index - 1]) == key(line) else index + 1
        ranked.append(Line(rank, line.player, line.total, line.counted, line.dropped))
    return tuple(ranked)


def invited(lines: Sequence[Line], size: int) -> tuple[Line, ...]:
    """The Master Class's field: the top ``size`` lines; players still tied across the cut after every tie-break
    share the place and are all invited (the field grows by them). Only players with points are invited."""
    if isinstance(size, bool) or not isinstance(size, int) or size < 2:
        raise LeagueError(f"A Master Class invites at least 2 players, not {size!r}")
    with_points = [line for line in lines if line.total > 0]
    if not with_points:
        return ()
    cut = with_points[min(size, len(with_points)) - 1].rank
    return tuple(line for line in with_points if line.rank <= cut)


# --- the Master Class's stacks --------------------------------------------------------------------------------------


def master_class_chips(points_total: Decimal, *, chips_per_point: int, smallest_chip: int, rounding: str) -> int:
    """The starting stack for ``points_total`` league points: points × ``chips_per_point``, rounded to a whole
    number of the smallest chip (``rounding``: nearest, half up; up; down), never less than one smallest chip.

    >>> master_class_chips(Decimal("70.71"), chips_per_point=100, smallest_chip=25, rounding="down")
    7050
    >>> master_class_chips(Decimal("0.04"), chips_per_point=1, smallest_chip=25, rounding="nearest")
    25
    """
    if isinstance(chips_per_point, bool) or not isinstance(chips_per_point, int) or chips_per_point < 1:
        raise LeagueError(f"Chips per point is a whole number from 1, not {chips_per_point!r}")
    if isinstance(smallest_chip, bool) or not isinstance(smallest_chip, int) or smallest_chip < 1:
        raise LeagueError(f"The smallest chip is a whole number from 1, not {smallest_chip!r}")
    modes = {"nearest": ROUND_HALF_UP, "up": ROUND_CEILING, "down": ROUND_FLOOR}
    if rounding not in modes:
        raise LeagueError(f"Rounding is nearest, up or down, not {rounding!r}")
    if points_total < 0:
        raise LeagueError("Points are never negative")
    units = (Decimal(points_total) * chips_per_point / smallest_chip).quantize(Decimal(1), rounding=modes[rounding])
    return max(1, int(units)) * smallest_chip
