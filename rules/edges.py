"""The house edge of a rule set, for rating players: each side's average loss per unit of action.

A rating's theoretical loss (theo) is the action times the edge of the side the
player took. The edges here are those of a house-way player against a house-way
bank, both set by the rule set's house way, from counts of wins (W), pushes (P)
and losses (L) over N coups, from the player's side, shipped in
``rules/games/data/house_edges.json`` and rebuilt by ``python bench/house_edges.py
--write``:

* Pai Gow tiles, banked: exact counts, every deal of the 32 tiles enumerated
  (736,281,000 deals) through ``paigow_tiles_advice.advise``.
* Pai Gow Poker: simulated counts, 1,000,000 hands a house way and option set, seeded.
* Any option set the file does not hold: the first finished run of the game-math lab (``lab_counts``),
  exact for tiles, simulated for Pai Gow Poker. The file wins where it holds the options.
* Chinese Poker, OFC and the tiles' peer variant have no bank and so no edge:
  the house takes a rake (method ``"rake"``), and theo is the rake the player paid.

The commission is applied to the counts in closed form, as ``rules.games.simulate``
and docs/game-math.md do. The player: a win pays 1 − c_p (c_p the commission rate
when ``commission_on_player_wins``, else 0), a loss costs 1, so the edge is
(L − (1 − c_p)·W)/N. A player banking the round pays the commission on its net
win: a won wager brings it 1 − c, a lost one costs 1, so its edge is
(W − (1 − c)·L)/N. Each ``sd`` is that side's per-coup standard deviation; an exact
edge has no interval (``low == high == edge``), a simulated one edge ± 1.96·sd/√N.

Only the options that change a coup's outcome when both sides play the house way
key the counts (``OUTCOME_OPTIONS``): the foul policy never applies (the house way
never fouls), and the tiles' peer options are refused outside the peer variant.

>>> from rules.options import defaults
>>> edges = rule_set_edges({"game": "paigow_tiles", **defaults("paigow_tiles")})
>>> edges.method, f"{edges.player.edge:.3%}", f"{edges.banker.edge:.3%}"
('exact', '0.951%', '0.565%')
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, Final, TypedDict

from casino.events import AuditEventType
from casino.models import AuditEvent
from casino.records import subject_type
from rules.games import registry
from rules.models import LabRun
from rules.options import (
    GAME_OPTIONS,
    NO_BANK,
    PAIGOW_POKER,
    PAIGOW_TILES,
    default_options,
    game_label,
)

EXACT, SIMULATED, RAKE = "exact", "simulated", "rake"
DATA_FILE: Final = Path(__file__).with_name("games") / "data" / "house_edges.json"
DATA_SCHEMA: Final = 1
REGENERATE: Final = "python bench/house_edges.py --write"
_Z95: Final = 1.96

# The options that change a coup's outcome when player and bank both play the house way: the key of the counts.
OUTCOME_OPTIONS: Final[Mapping[str, tuple[str, ...]]] = {
    PAIGOW_TILES: ("tiles_house_way", "gee_joon_single_rank", "zero_zero_copy"),
    PAIGOW_POKER: ("pgp_house_way", "wheel_second_highest", "joker_flush_as_ace"),
}
_DEFAULTS: Final = {game: default_options(game) for game in GAME_OPTIONS}

OptionsKey = tuple[tuple[str, Any], ...]


class HouseEdgeUnknown(ValueError):
    """No counts for this game and option set in the data file (or no such game)."""


@dataclass(frozen=True)
class PositionEdge:
    """One side's house edge per unit of its action, its per-coup standard deviation and 95% interval."""

    edge: float
    sd: float
    low: float
    high: float


@dataclass(frozen=True)
class RuleSetEdges:
    """The edges of a rule set's two sides (``None`` where the house takes a rake) and where they came from."""

    game: str
    method: str
    player: PositionEdge | None
    banker: PositionEdge | None
    source: str  # how the figures were made, with the command that makes them again: for the docs and the API
    hands: int
    seed: int | None = None  # a simulation's seed: the same seed, the same figures


class CountsJson(TypedDict):
    """An entry of the data file as written (``Counts.as_json``)."""

    game: str
    options: dict[str, Any]
    method: str
    wins: int
    pushes: int
    losses: int
    hands: int
    seed: int | None
    command: str


@dataclass(frozen=True)
class Counts:
    """One entry of the data file: a house-way player's wins, pushes and losses over ``hands`` coups."""

    game: str
    options: OptionsKey
    method: str
    wins: int
    pushes: int
    losses: int
    hands: int
    seed: int | None
    command: str

    def as_json(self) -> CountsJson:
        return {
            "game": self.game,
            "options": dict(self.options),
            "method": self.method,
            "wins": self.wins,
            "pushes": self.pushes,
            "losses": self.losses,
            "hands": self.hands,
            "seed": self.seed,
            "command": self.command,
        }

    @classmethod
    def from_json(cls, row: Mapping[str, Any]) -> Counts:
        counts = cls(
            game=row["game"],
            options=options_key(row["game"], row["options"]),
            method=row["method"],
            wins=row["wins"],
            pushes=row["pushes"],
            losses=row["losses"],
            hands=row["hands"],
            seed=row["seed"],
            command=row["command"],
        )
        if counts.wins + counts.pushes + counts.losses != counts.hands or counts.method not in (EXACT, SIMULATED):
            raise ValueError(f"{DATA_FILE.name}: a broken entry {dict(row)!r}")
        return counts


def options_key(game: str, options: Mapping[str, Any]) -> OptionsKey:
    """The outcome options of ``game`` from a rule set's options, missing ones at their default, in a fixed order."""
    try:
        keys, default = OUTCOME_OPTIONS[game], _DEFAULTS[game]
    except KeyError:
        raise HouseEdgeUnknown(f"No house edge is counted for {game_label(game)}.") from None
    return tuple((key, options.get(key, default[key])) for key in keys)


def position_edge(won: int, lost: int, hands: int, *, win_pays: float, exact: bool) -> PositionEdge:
    """A side's edge when it wins ``won`` coups at ``win_pays`` a unit and loses ``lost`` at 1, out of ``hands``.

    >>> position_edge(1, 2, 4, win_pays=1.0, exact=True)
    PositionEdge(edge=0.25, sd=0.82915619758885, low=0.25, high=0.25)
    """
    mean = (won * win_pays - lost) / hands
    sd = math.sqrt(max((won * win_pays**2 + lost) / hands - mean**2, 0.0))
    half = 0.0 if exact else _Z95 * sd / math.sqrt(hands)
    return PositionEdge(edge=-mean, sd=sd, low=-mean - half, high=-mean + half)


def edges_from_counts(counts: Counts, *, commission_bp: int, commission_on_player_wins: bool) -> RuleSetEdges:
    """Both sides' edges from the counts and the rule set's commission (see the module doc)."""
    rate = commission_bp / 10_000
    exact = counts.method == EXACT
    player = position_edge(
        counts.wins, counts.losses, counts.hands, win_pays=1 - rate if commission_on_player_wins else 1.0, exact=exact
    )
    banker = position_edge(counts.losses, counts.wins, counts.hands, win_pays=1 - rate, exact=exact)
    if exact:
        source = f"exact: {counts.hands:,} deals, {counts.command}"
    else:
        source = f"simulated: {counts.hands:,} hands, seed {counts.seed}, {counts.command}"
    return RuleSetEdges(
        game=counts.game,
        method=counts.method,
        player=player,
        banker=banker,
        source=source,
        hands=counts.hands,
        seed=None if exact else counts.seed,
    )


def read_counts(path: Path = DATA_FILE) -> dict[tuple[str, OptionsKey], Counts]:
    """Every entry of the data file, by game and options key."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("schema") != DATA_SCHEMA:
        raise ValueError(f"{path.name}: schema {DATA_SCHEMA} expected, got {data.get('schema')!r}")
    entries = (Counts.from_json(row) for row in data["counts"])
    return {(counts.game, counts.options): counts for counts in entries}


@cache
def _shipped_counts() -> dict[tuple[str, OptionsKey], Counts]:
    return read_counts()


def shipped_counts(game: str, key: OptionsKey) -> Counts | None:
    """The data file's counts for these outcome options, or None."""
    return _shipped_counts().get((game, key))


def outcome_key_text(key: OptionsKey) -> str:
    """An options key as the canonical JSON a lab run stores (``LabRun.outcome_key``)."""
    return json.dumps(dict(key), sort_keys=True, separators=(",", ":"))


def _describe(key: OptionsKey) -> str:
    return ", ".join(f"{name}={value!r}" for name, value in key)


# Lab runs found for an option set the data file does not hold (a finished run never changes, and the first one
# found stays the first: the answer is kept for the process's life once there is one).
_LAB_FOUND: dict[tuple[str, OptionsKey], Counts] = {}


def _valid_key(game: str, key: OptionsKey) -> bool:
    """Whether every outcome option has a value the game allows: only then can a lab run of it exist."""
    allowed = {option.key: option for option in GAME_OPTIONS[game]}
    return all(
        value in allowed[name].choices if allowed[name].choices else isinstance(value, type(allowed[name].default))
        for name, value in key
    )


# A lab run gives ratings their edge only when it is large enough to be trusted for good (a 10,000-hand Pai Gow Poker
# run's edge is ±1.5 points at 95 %, a 1,000,000-hand one's ±0.15, as the shipped figures): a quick trial run never
# fixes a rule set's theo.
LAB_HANDS_FOR_RATINGS: Final = 1_000_000


def _as_audited(run: LabRun) -> bool:
    """Whether the run's counts are those its ``lab_run.finished`` audit event recorded: a row written or changed in
    the database past the services (the triggers stop an UPDATE of a finished run, not an INSERT) gives no edge."""
    event = (
        AuditEvent.objects.filter(
            event_type=AuditEventType.LAB_RUN_FINISHED, subject_type=subject_type(LabRun), subject_id=str(run.pk)
        )
        .order_by("pk")
        .first()
    )
    recorded = {"hands": run.hands_done, "wins": run.wins, "pushes": run.pushes, "losses": run.losses}
    return event is not None and all((event.after or {}).get(name) == value for name, value in recorded.items())


def lab_counts(game: str, key: OptionsKey) -> Counts | None:
    """The counts of the first finished lab run of these outcome options, or None.

    The first, not the largest: a rating's theo is re-derived later from the edge (``players.verify``), so the edge
    of an option set must never change once ratings used it; a larger run is shown by the lab, and is published by
    rewriting the data file (``REGENERATE``), not by moving the edge under the ratings already kept.
    """
    found = _LAB_FOUND.get((game, key))
    if found is not None or not _valid_key(game, key):
        return found
    runs = LabRun.objects.filter(
        game=game,
        outcome_key=outcome_key_text(key),
        status=LabRun.Status.FINISHED,
        hands_done__gte=LAB_HANDS_FOR_RATINGS,
    ).order_by("finished_at", "pk")
    run = next((run for run in runs if _as_audited(run)), None)
    if run is None:
        return None
    counts = Counts(
        game=game,
        options=key,
        method=run.method,
        wins=run.wins,
        pushes=run.pushes,
        losses=run.losses,
        hands=run.hands_done,
        seed=run.seed,
        command=f"lab run {run.pk}",
    )
    _LAB_FOUND[(game, key)] = counts
    return counts


@lru_cache(maxsize=256)
def _shipped_edges(
    game: str, key: OptionsKey, commission_bp: int, commission_on_player_wins: bool
) -> RuleSetEdges | None:
    counts = _shipped_counts().get((game, key))
    if counts is None:
        return None
    return edges_from_counts(counts, commission_bp=commission_bp, commission_on_player_wins=commission_on_player_wins)


def _banked_edges(game: str, key: OptionsKey, commission_bp: int, commission_on_player_wins: bool) -> RuleSetEdges:
    """The shipped counts when they hold these options (reviewed, in the repository, the same on every floor);
    else the first finished lab run of them (``lab_counts``)."""
    shipped = _shipped_edges(game, key, commission_bp, commission_on_player_wins)
    if shipped is not None:
        return shipped
    counts = lab_counts(game, key)
    if counts is None:
        raise HouseEdgeUnknown(
            f"No house edge for {game_label(game)} with {_describe(key)} in {DATA_FILE.name}: "
            f"run `{REGENERATE}` to count it, or run these rules in the game-math lab."
        )
    return edges_from_counts(counts, commission_bp=commission_bp, commission_on_player_wins=commission_on_player_wins)


@lru_cache(maxsize=16)
def _rake_edges(game: str, why: str) -> RuleSetEdges:
    return RuleSetEdges(game=game, method=RAKE, player=None, banker=None, source=f"rake: {why}", hands=0)


def rule_set_edges(snapshot: Mapping[str, Any]) -> RuleSetEdges:
    """The house edges of a round's rule set (its frozen snapshot, ``rules.options.snapshot_build``).

    Raises ``HouseEdgeUnknown`` for a game or an option set that neither the data file nor a finished lab run
    holds. Cached per game, outcome options and commission: microseconds after the first call.
    """
    game = snapshot["game"]
    options = snapshot.get("options") or {}
    if game in GAME_OPTIONS and not registry.game(game).bankable:
        return _rake_edges(game, "a points game has no bank; theo is the rake the player paid")
    if snapshot["banking_mode"] == NO_BANK:  # a banked game played without a bank: the tiles' peer variant
        return _rake_edges(game, "the peer variant has no bank; theo is the rake the player paid")
    return _banked_edges(
        game,
        options_key(game, options),
        int(snapshot["commission_rate_bp"]),
        bool(snapshot["commission_on_player_wins"]),
    )
