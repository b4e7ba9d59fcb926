"""Count the house-way match-ups behind ``rules.edges``: check rules/games/data/house_edges.json, or rewrite it.

For every house way and option set that changes a coup's outcome
(``rules.edges.OUTCOME_OPTIONS``), the wins, pushes and losses of a house-way
player against a house-way bank:

* Pai Gow tiles: exact, every deal enumerated as ``bench/tiles_house_edge.py``
  does: each four-tile player hand, weighted by how many physical hands make it,
  through ``paigow_tiles_advice.advise`` (the house way's setting against all
  20,475 bank hands), 736,281,000 deals. Each house-way setting is also checked
  not to foul, which is why the foul policy keys no entry.
* Pai Gow Poker: 1,000,000 hands, seed 2026, dealt exactly as
  ``rules.games.simulate.simulate_paigow_poker`` deals them (14 cards of a fresh
  53-card shuffle a hand, the first seven to the player), with the rule options
  passed to the house way and the settling. At the default options the counts
  are those of ``python -m rules.games.simulate paigow-poker --seed 2026``.

Run from the repository root: ``python bench/house_edges.py`` recounts and
compares with the file (exit 1 on any difference); ``--write`` rewrites it;
``--game`` limits the run to one game. Prints each entry's edges and run time.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import random
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
# rules.options (the option registry) loads the application error, which needs Django set up (no database).
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
import django  # noqa: E402

django.setup()

from bench.harness import cpu_model  # noqa: E402
from rules.edges import (  # noqa: E402
    DATA_FILE,
    DATA_SCHEMA,
    EXACT,
    OUTCOME_OPTIONS,
    REGENERATE,
    SIMULATED,
    Counts,
    OptionsKey,
    edges_from_counts,
    read_counts,
)
from rules.options import GAME_OPTIONS, PAIGOW_POKER, PAIGOW_TILES, game_label  # noqa: E402

PGP_HANDS = 1_000_000
PGP_SEED = 2026


def combinations(game: str) -> Iterator[OptionsKey]:
    """Every value set of the game's outcome options, in the registry's order of values."""
    options = {option.key: option for option in GAME_OPTIONS[game]}
    keys = OUTCOME_OPTIONS[game]
    values = [options[key].choices or (False, True) for key in keys]
    for combo in itertools.product(*values):
        yield tuple(zip(keys, combo, strict=True))


def count_tiles(key: OptionsKey) -> Counts:
    """Exact: every deal of the 32 tiles, both sides set by the house way."""
    from rules.games.paigow_tiles import is_foul
    from rules.games.paigow_tiles_advice import advise
    from rules.games.tiles import TILE_FACES

    options = dict(key)
    way = options.pop("tiles_house_way")
    wins = pushes = losses = hands = 0
    for faces in itertools.combinations_with_replacement(TILE_FACES, 4):
        if any(faces.count(face) > face.copies for face in set(faces)):
            continue
        weight = math.prod(math.comb(face.copies, faces.count(face)) for face in set(faces))
        house = advise(faces, way=way, **options).house
        if is_foul(house.setting, **options):
            raise AssertionError(f"the house way {way!r} fouls {house.setting} with {options}")
        wins += weight * house.wins
        pushes += weight * house.pushes
        losses += weight * house.losses
        hands += weight
    deals = wins + pushes + losses
    assert hands == math.comb(32, 4) and deals == hands * math.comb(28, 4)
    return Counts(PAIGOW_TILES, key, EXACT, wins, pushes, losses, deals, None, REGENERATE)


def count_paigow_poker(key: OptionsKey, hands: int = PGP_HANDS, seed: int = PGP_SEED) -> Counts:
    """Simulated: ``hands`` deals of a seeded shuffle, as ``simulate_paigow_poker`` deals them."""
    from rules.games.cards import deck
    from rules.games.paigow_poker import house_way, outcome

    options = dict(key)
    way = options.pop("pgp_house_way")
    cards = deck(joker=True)
    sample = random.Random(seed).sample
    tally = {"WIN": 0, "PUSH": 0, "LOSS": 0}
    for _ in range(hands):
        fourteen = sample(cards, 14)
        player, bank = house_way(fourteen[:7], way, **options), house_way(fourteen[7:], way, **options)
        tally[outcome(player, bank, way=way, **options).name] += 1
    return Counts(PAIGOW_POKER, key, SIMULATED, tally["WIN"], tally["PUSH"], tally["LOSS"], hands, seed, REGENERATE)


COUNTERS = {PAIGOW_TILES: count_tiles, PAIGOW_POKER: count_paigow_poker}


def timed(game: str, key: OptionsKey) -> tuple[Counts, float]:
    started = time.perf_counter()
    counts = COUNTERS[game](key)
    return counts, time.perf_counter() - started


def _pct(x: float) -> str:
    return f"{x * 100:.3f}%"


def table(rows: Sequence[tuple[Counts, float]]) -> str:
    """One line an entry: the way and options, W/P/L, the edges at 5% commission, sd and interval, run time."""
    lines = [
        "| game | options | method | W | P | L | player, even money | player, 5% on wins | banker, 5% "
        "| sd player / banker | player 95% interval | seconds |",
        "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |",
    ]
    for counts, seconds in rows:
        even = edges_from_counts(counts, commission_bp=500, commission_on_player_wins=False)
        paid = edges_from_counts(counts, commission_bp=500, commission_on_player_wins=True)
        assert even.player and even.banker and paid.player
        n = counts.hands
        interval = paid.player if counts.game == PAIGOW_POKER else even.player
        lines.append(
            f"| {game_label(counts.game)} | {', '.join(str(v) for _, v in counts.options)} | {counts.method} "
            f"| {_pct(counts.wins / n)} | {_pct(counts.pushes / n)} | {_pct(counts.losses / n)} "
            f"| {_pct(even.player.edge)} | {_pct(paid.player.edge)} | {_pct(even.banker.edge)} "
            f"| {even.player.sd:.3f} / {even.banker.sd:.3f} "
            f"| {_pct(interval.low)} to {_pct(interval.high)} | {seconds:.1f} |"
        )
    return "\n".join(lines)


def write(counts: Sequence[Counts], path: Path) -> None:
    data: dict[str, Any] = {
        "schema": DATA_SCHEMA,
        "about": "Wins, pushes and losses of a house-way player against a house-way bank, by game and the "
        f"options that change a coup's outcome; edges are computed from them by rules/edges.py. `{REGENERATE}`.",
        "counts": [c.as_json() for c in counts],
    }
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python bench/house_edges.py", description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"rewrite {DATA_FILE.name} (default: compare with it)")
    parser.add_argument("--game", choices=sorted(OUTCOME_OPTIONS), help="count one game only")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes (default: cores)")
    args = parser.parse_args(argv)
    if args.write and args.game:
        parser.error("--write rewrites every entry: leave out --game")
    games = [args.game] if args.game else list(OUTCOME_OPTIONS)
    work = [(game, key) for game in games for key in combinations(game)]
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        rows = list(pool.map(timed, *zip(*work, strict=True)))
    wall = time.perf_counter() - started
    print(table(rows))
    busy = sum(seconds for _, seconds in rows)
    print(f"\n{len(rows)} entries in {wall:.1f} s on {args.jobs} workers ({busy:.1f} s of work); {cpu_model()}")
    fresh = [counts for counts, _ in rows]
    if args.write:
        write(fresh, DATA_FILE)
        print(f"wrote {DATA_FILE}")
        return 0
    shipped = read_counts()
    wrong = [c for c in fresh if shipped.get((c.game, c.options)) != c]
    for c in wrong:
        print(f"DIFFERS: {c.game} {dict(c.options)}: counted {c.as_json()}, shipped {shipped.get((c.game, c.options))}")
    print("the shipped counts match" if not wrong else f"{len(wrong)} entries differ: run `{REGENERATE}`")
    return 1 if wrong else 0


if __name__ == "__main__":
    raise SystemExit(main())
