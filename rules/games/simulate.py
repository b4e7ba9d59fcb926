"""Simulations of a house-way player against a house-way bank.

    python -m rules.games.simulate paigow-poker --hands 1000000 --way golden_nugget --seed 1
    python -m rules.games.simulate paigow-tiles --hands 1000000 --way foxwoods --seed 1

Each hand is dealt from a freshly shuffled deck or tile set (a seeded
``random.Random``, so a run repeats exactly); both sides set by the same house
way. The house edge is the player's average loss per unit wagered, with a 95%
confidence interval from the normal approximation (mean ± 1.96 · s / √n).
Published simulations of the same match-up are the check on a house way
(GAME_RULES.md §1, §2).

In Pai Gow Poker the player's wins pay even money less the commission (§2).
In Pai Gow tiles they pay even money, and the bank pays the commission on its
winnings (§1 "Settling against the banker"); with
``commission_on_player_wins`` (American house-banked tables) the player pays
it too. For tiles the banker's house edge is reported as well, on the same
convention as the player's (the side's average loss per unit of the player's
wager): one player against the bank, a won wager bringing the bank 1 less the
commission (a coup against one player, so the bank's net winnings on it are
that wager) and a lost one costing it 1.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Protocol

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


def _loss_and_ci(wins: int, losses: int, hands: int, win: float) -> tuple[float, float, float]:
    """A side's average loss per unit when a win brings it ``win`` and a loss costs 1 (a push 0), and its 95% CI."""
    mean = (wins * win - losses) / hands
    second = (wins * win**2 + losses) / hands
    half = 1.96 * math.sqrt(max(second - mean**2, 0.0)) / math.sqrt(hands)
    return -mean, -mean - half, -mean + half


@dataclass(frozen=True)
class TilesSimulationResult:
    """Counts of a Pai Gow tiles simulation (from the player's side) and the house edge on each side (§1).

    A house edge is a side's average loss per unit of the player's wager, so a
    positive edge is the house's gain from that side. ``player_edge``: a player
    win pays 1, less the commission only with ``commission_on_player_wins``.
    ``banker_edge``: a won wager brings the bank 1 less its commission, a lost one
    costs it 1; with one player against the bank, the bank's net winnings on a
    coup are that one wager. The two edges add up to what the house takes in
    commission, since what one side loses the other wins.
    """

    game: str
    way: str
    hands: int
    wins: int
    pushes: int
    losses: int
    commission_bp: int
    commission_on_player_wins: bool
    seed: int | None

    @property
    def rate(self) -> float:
        return self.commission_bp / 10_000

    @property
    def player_win_payout(self) -> float:
        return 1 - self.rate if self.commission_on_player_wins else 1.0

    @property
    def player_edge(self) -> float:
        return _loss_and_ci(self.wins, self.losses, self.hands, self.player_win_payout)[0]

    @property
    def player_ci95(self) -> tuple[float, float]:
        return _loss_and_ci(self.wins, self.losses, self.hands, self.player_win_payout)[1:]

    @property
    def banker_edge(self) -> float:
        return _loss_and_ci(self.losses, self.wins, self.hands, 1 - self.rate)[0]

    @property
    def banker_ci95(self) -> tuple[float, float]:
        return _loss_and_ci(self.losses, self.wins, self.hands, 1 - self.rate)[1:]

    def report(self) -> str:
        pct = 100 / self.hands
        p_low, p_high = self.player_ci95
        b_low, b_high = self.banker_ci95
        rate = f"{self.commission_bp / 100:g}%"
        player_pays = f"less {rate} commission" if self.commission_on_player_wins else "no commission"
        return "\n".join(
            [
                f"{self.game}, house way {self.way!r} for player and bank, {self.hands:,} hands, seed {self.seed}",
                f"  player wins   {self.wins:>12,}  {self.wins * pct:7.3f}%",
                f"  pushes        {self.pushes:>12,}  {self.pushes * pct:7.3f}%",
                f"  player losses {self.losses:>12,}  {self.losses * pct:7.3f}%",
                "  house edge: a side's average loss per unit of the player's wager (negative: that side gains)",
                f"    player (a win pays even money, {player_pays}): {self.player_edge * 100:.3f}% "
                f"(95% CI {p_low * 100:.3f}% to {p_high * 100:.3f}%)",
                f"    banker (pays {rate} commission on its winnings): {self.banker_edge * 100:.3f}% "
                f"(95% CI {b_low * 100:.3f}% to {b_high * 100:.3f}%)",
            ]
        )


def _play(hands: int, one_hand: Callable[[], Enum], progress: Callable[[int], object] | None) -> dict[str, int]:
    """Play ``hands`` hands in chunks, reporting each chunk to ``progress``; count outcomes by name."""
    tally = {"WIN": 0, "PUSH": 0, "LOSS": 0}
    done = 0
    while done < hands:
        batch = min(CHUNK, hands - done)
        for _ in range(batch):
            tally[one_hand().name] += 1
        done += batch
        if progress is not None:
            progress(batch)
    return tally


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

    def one_hand() -> Outcome:
        fourteen = sample(cards, 14)  # a fresh shuffle: the two hands are its first fourteen cards
        return outcome(house_way(fourteen[:7], way), house_way(fourteen[7:], way), way=way)

    tally = _play(hands, one_hand, progress)
    return SimulationResult(
        game="Pai Gow Poker",
        way=way,
        hands=hands,
        wins=tally["WIN"],
        pushes=tally["PUSH"],
        losses=tally["LOSS"],
        commission_bp=commission_bp,
        seed=seed,
    )


def simulate_paigow_tiles(
    hands: int,
    *,
    way: str = "foxwoods",
    rng: random.Random,
    commission_bp: int = 500,
    commission_on_player_wins: bool = False,
    seed: int | None = None,
    progress: Callable[[int], object] | None = None,
) -> TilesSimulationResult:
    """Play ``hands`` Pai Gow tiles hands, house way against house way (GAME_RULES.md §1).

    Each hand is the first eight tiles of a fresh shuffle of the 32: four to the
    player, four to the bank.
    """
    from rules.games.paigow_tiles import HOUSE_WAYS, Outcome, house_way, outcome
    from rules.games.tiles import TILE_SET

    if way not in HOUSE_WAYS:
        raise ValueError(f"unknown house way {way!r}: choose one of {', '.join(HOUSE_WAYS)}")
    sample = rng.sample

    def one_hand() -> Outcome:
        eight = sample(TILE_SET, 8)  # a fresh shuffle: four tiles to the player, four to the bank
        return outcome(house_way(eight[:4], way), house_way(eight[4:], way))

    tally = _play(hands, one_hand, progress)
    return TilesSimulationResult(
        game="Pai Gow tiles",
        way=way,
        hands=hands,
        wins=tally["WIN"],
        pushes=tally["PUSH"],
        losses=tally["LOSS"],
        commission_bp=commission_bp,
        commission_on_player_wins=commission_on_player_wins,
        seed=seed,
    )


class Result(Protocol):
    """What a simulation returns: counts and statistics that can print their own report."""

    def report(self) -> str: ...


SIMULATIONS: dict[str, Callable[..., Result]] = {
    "paigow-poker": simulate_paigow_poker,
    "paigow-tiles": simulate_paigow_tiles,
}
DEFAULT_WAYS = {"paigow-poker": "golden_nugget", "paigow-tiles": "foxwoods"}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m rules.games.simulate", description="House-way player against house-way bank."
    )
    parser.add_argument("game", choices=sorted(SIMULATIONS))
    parser.add_argument("--hands", type=int, default=100_000, help="hands to play (default 100,000)")
    parser.add_argument("--way", help="house way (default: the game's default way)")
    parser.add_argument("--seed", type=int, default=None, help="seed for a repeatable run (default: random)")
    parser.add_argument(
        "--commission-bp",
        type=int,
        default=500,
        help="commission in basis points (default 500): the player's in Pai Gow Poker, the bank's in tiles",
    )
    parser.add_argument(
        "--commission-on-player-wins",
        action="store_true",
        help="paigow-tiles: the player pays the commission on wins too (house-banked American tables)",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    if args.hands < 1:
        parser.error("--hands must be at least 1")
    options: dict[str, bool] = {}
    if args.commission_on_player_wins:
        if args.game != "paigow-tiles":
            parser.error(
                "--commission-on-player-wins is a paigow-tiles option (in Pai Gow Poker the player always pays)"
            )
        options["commission_on_player_wins"] = True
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
                **options,
            )
        except ValueError as exc:
            parser.error(str(exc))
    print(result.report())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
