"""The exact outcome chances of a Foxwoods house-way player against a Foxwoods house-way bank.

Every player hand (35,960: each four-tile multiset weighted by how many physical
hands make it) against every bank hand the other 28 tiles allow (20,475 each),
736,281,000 deals in all, counted exactly through ``advise``. Prints the counts,
the chances and the edges recorded in docs/game-math.md.

Run from the repository root: ``python bench/tiles_house_edge.py``.
"""

from __future__ import annotations

import itertools
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.games.paigow_tiles_advice import advise  # noqa: E402
from rules.games.tiles import TILE_FACES  # noqa: E402


def main() -> int:
    started = time.perf_counter()
    wins = pushes = losses = hands = 0
    for faces in itertools.combinations_with_replacement(TILE_FACES, 4):
        if any(faces.count(face) > face.copies for face in set(faces)):
            continue
        weight = math.prod(math.comb(face.copies, faces.count(face)) for face in set(faces))
        house = advise(faces).house
        wins += weight * house.wins
        pushes += weight * house.pushes
        losses += weight * house.losses
        hands += weight
    deals = wins + pushes + losses
    assert hands == math.comb(32, 4) and deals == hands * math.comb(28, 4)
    print(f"{hands:,} player hands x {math.comb(28, 4):,} bank hands = {deals:,} deals")
    for name, count in (("player wins", wins), ("pushes", pushes), ("player losses", losses)):
        print(f"  {name:<14}{count:>13,}  {count / deals:8.3%}")
    w, lose = wins / deals, losses / deals
    print(f"  player edge, wins paid even money:   {lose - w:.3%}")
    print(f"  player edge, 5% commission on wins:  {lose - 0.95 * w:.3%}")
    print(f"  banker edge, 5% commission on its wins: {w - 0.95 * lose:.3%}")
    print(f"({time.perf_counter() - started:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
