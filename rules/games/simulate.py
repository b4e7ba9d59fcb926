"""Simulations of a house-way player against a house-way bank.

    python -m rules.games.simulate paigow-poker --hands 1000000 --way golden_nugget --seed 1

Each hand is dealt from a freshly shuffled deck (a seeded ``random.Random``,
so a run repeats exactly); both sides set by the same house way; the player's
wins pay even money less the commission. The house edge is the player's
average loss per unit wagered, with a 95% confidence interval from the
normal approximation (mean ± 1.96 · s / √n). Published simulations of the same
match-up are the check on a house way (GAME_RULES.md §2).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tqdm import tqdm

from rules.games.cards import deck

CHUNK = 10_000


@dataclass(frozen=True)
class SimulationResult:
    """Counts of one simulation and the statistics drawn from them (from the player's side)."""

    game: str
    way: str
    hands: int
    wins: int
    pushes: int
    losses: int
    commission_bp: int
    seed: int | None

    @property
    def win_payout(self) -> float:
        return 1 - self.commission_bp / 10_000

    @property
    def mean(self) -> float:
        """The player's average result per unit wagered."""
        return (self.wins * self.win_payout - self.losses) / self.hands

    @property
    def stdev(self) -> float:
        second = (self.wins * self.win_payout**2 + self.losses) / self.hands
        return math.sqrt(max(second - self.mean**2, 0.0))

    @property
    def house_edge(self) -> float:
        return -self.mean

    @property
    def ci95(self) -> tuple[float, float]:
        half = 1.96 * self.stdev / math.sqrt(self.hands)
        return self.house_edge - half, self.house_edge + half

    def report(self) -> str:
        pct = 100 / self.hands
        low, high = self.ci95
        return "\n".join(
            [
                f"{self.game}, house way {self.way!r} for player and bank, {self.hands:,} hands, seed {self.seed}",
                f"  player wins   {self.wins:>12,}  {self.wins * pct:7.3f}%",
                f"  pushes        {self.pushes:>12,}  {self.pushes * pct:7.3f}%",
                f"  player losses {self.losses:>12,}  {self.losses * pct:7.3f}%",
                f"  house edge with {self.commission_bp / 100:g}% commission: {self.house_edge * 100:.3f}% "
                f"(95% CI {low * 100:.3f}% to {high * 100:.3f}%)",
            ]
        )


def simulate_paigow_poker(
    hands: int,
    *,
    way: str = "golden_nugget",
    rng: random.Random,
    commission_bp: int = 500,
    seed: int | None = None,
    progress: Callable[[int], object] | None = None,
) -> SimulationResult:
    """Play ``hands`` Pai Gow Poker hands, house way against house way (GAME_RULES.md §2)."""
    from rules.games.paigow_poker import HOUSE_WAYS, Outcome, house_way, outcome

    if way not in HOUSE_WAYS:
        raise ValueError(f"unknown house way {way!r}: choose one of {', '.join(HOUSE_WAYS)}")
    cards = deck(joker=True)
    sample = rng.sample
    tally = {Outcome.WIN: 0, Outcome.PUSH: 0, Outcome.LOSS: 0}
    done = 0
    while done < hands:
        batch = min(CHUNK, hands - done)
        for _ in range(batch):
            fourteen = sample(cards, 14)  # a fresh shuffle: the two hands are its first fourteen cards
            player = house_way(fourteen[:7], way)
            bank = house_way(fourteen[7:], way)
            tally[outcome(player, bank, way=way)] += 1
        done += batch
        if progress is not None:
            progress(batch)
    return SimulationResult(
        game="Pai Gow Poker",
        way=way,
        hands=hands,
        wins=tally[Outcome.WIN],
        pushes=tally[Outcome.PUSH],
        losses=tally[Outcome.LOSS],
        commission_bp=commission_bp,
        seed=seed,
    )


SIMULATIONS: dict[str, Callable[..., SimulationResult]] = {"paigow-poker": simulate_paigow_poker}
DEFAULT_WAYS = {"paigow-poker": "golden_nugget"}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m rules.games.simulate", description="House-way player against house-way bank."
    )
    parser.add_argument("game", choices=sorted(SIMULATIONS))
    parser.add_argument("--hands", type=int, default=100_000, help="hands to play (default 100,000)")
    parser.add_argument("--way", help="house way (default: the game's default way)")
    parser.add_argument("--seed", type=int, default=None, help="seed for a repeatable run (default: random)")
    parser.add_argument("--commission-bp", type=int, default=500, help="commission in basis points (default 500)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    if args.hands < 1:
        parser.error("--hands must be at least 1")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    way = args.way or DEFAULT_WAYS[args.game]
    with tqdm(
        total=args.hands, unit="hands", unit_scale=True, file=sys.stderr, disable=args.no_progress, mininterval=0.5
    ) as bar:
        try:
            result = SIMULATIONS[args.game](
                args.hands,
                way=way,
                rng=random.Random(seed),
                commission_bp=args.commission_bp,
                seed=seed,
                progress=bar.update,
            )
        except ValueError as exc:
            parser.error(str(exc))
    print(result.report())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
