"""The lab's ``high_hand_ranks`` option: the high hands compared by their category and their first N ranks only.

An analysis option, never a rule a table settles by: it reproduces the Wizard of Odds' published Trump Plaza
figures with N = 2 (docs/game-math.md). A dealer compares every rank; left at None, so does the lab.
"""

from __future__ import annotations

import numpy as np
import pytest

from rules.games.cards import parse_cards
from rules.games.lab import (
    Tally,
    deal_paigow_poker,
    high_hand_ranks_shift,
    paigow_poker_outcomes,
    set_hands_outcomes,
    simulate_paigow_poker_batched,
    simulate_paigow_poker_chunk,
)

WIN, PUSH, LOSS = 1, 0, -1


def _cards(text: str) -> list[int]:
    return [card.index for card in parse_cards(text)]


def _outcome(player_high: str, player_low: str, bank_high: str, bank_low: str, ranks: int | None) -> int:
    rows = [np.array([_cards(text)]) for text in (player_high, player_low, bank_high, bank_low)]
    return int(set_hands_outcomes(*rows, high_hand_ranks=ranks)[0])


# player high, player low, bank high, bank low; the outcome comparing every rank, then the first two, three.
SETTLED = [
    # Ace-king high against ace-king high: the queen decides for a dealer; on two ranks it is a copy.
    ("Ah Kd Qc Js 9h", "Tc 8d", "As Kh 8s 7c 5d", "6h 4c", WIN, PUSH, WIN),
    ("Ah Kd Qc Js 9h", "6h 4c", "As Kh 8s 7c 5d", "Tc 8d", PUSH, LOSS, PUSH),
    # Kings with A-Q-4 against kings with A-J-9: the second kicker decides; two ranks stop at the ace.
    ("Kh Kd Ac Qs 4h", "Ts 7d", "Ks Kc Ad Jh 9c", "8h 6c", WIN, PUSH, WIN),
    # Queens and fives, ace kicker against king kicker: two ranks drop the kicker, so the bank copies.
    ("Qh Qd 5c 5s Ah", "Ts 7d", "Qs Qc 5h 5d Kc", "8h 6c", WIN, PUSH, WIN),
    # Ace-jack flushes, 9 against 8 third: the third card decides; two ranks make it a copy.
    ("Ah Jh 9h 6h 3h", "Ks 2c", "As Js 8s 7s 2s", "Qd 4d", WIN, PUSH, WIN),
    # A higher second card wins whatever is compared: ace-king over ace-queen.
    ("Ah Kd 7c 5s 3h", "Ts 9d", "As Qh Js Tc 8d", "7h 6c", WIN, WIN, WIN),
    # Straights, full houses: the first ranks already decide.
    ("9h 8d 7c 6s 5h", "Ks Qd", "8s 7h 6d 5c 4d", "Jh Tc", WIN, WIN, WIN),
    ("Th Td Tc 4s 4h", "Ks Qd", "9s 9c 9d Ac Ad", "Jh 2c", WIN, WIN, WIN),
    # The low hand is compared as always: ten-eight against ten-eight is a copy, the bank's.
    ("Ah Kd Qc Js 9h", "Tc 8d", "As Kh 8s 7c 5d", "Th 8c", PUSH, LOSS, PUSH),
]


@pytest.mark.parametrize(("ph", "pl", "bh", "bl", "every", "two", "three"), SETTLED)
def test_hands_a_dealer_settles_and_what_two_or_three_ranks_make_of_them(
    ph: str, pl: str, bh: str, bl: str, every: int, two: int, three: int
) -> None:
    assert _outcome(ph, pl, bh, bl, None) == every
    assert _outcome(ph, pl, bh, bl, 5) == every
    assert _outcome(ph, pl, bh, bl, 2) == two
    assert _outcome(ph, pl, bh, bl, 3) == three


def test_on_the_same_deals_fewer_ranks_only_move_hands_toward_the_bank() -> None:
    """A new high-hand copy turns a win into a push or a push into a loss, never the other way and never a win
    into a loss (the low hand is compared as before)."""
    rows = deal_paigow_poker(20_000, np.random.default_rng(20261129))
    every = paigow_poker_outcomes(rows[:, :7], rows[:, 7:], way="trump_plaza")
    two = paigow_poker_outcomes(rows[:, :7], rows[:, 7:], way="trump_plaza", high_hand_ranks=2)
    moved = every != two
    assert moved.any()
    assert np.all(every[moved] - two[moved] == 1)
    one = paigow_poker_outcomes(rows[:, :7], rows[:, 7:], way="trump_plaza", high_hand_ranks=1)
    assert np.all(one <= two) and (one < two).any()


def test_a_seeded_run_of_two_ranks_repeats_and_the_default_run_is_unchanged() -> None:
    """Chunk 0 of seed 20261129, 200,000 hands, Trump Plaza both sides. The default counts are the ones the lab
    counted before the option existed; two ranks move 122 wins to pushes and 166 pushes to losses, net."""
    every = simulate_paigow_poker_chunk(200_000, seed=20261129, index=0, way="trump_plaza")
    assert every == Tally(wins=56_658, pushes=83_505, losses=59_837)
    two = simulate_paigow_poker_chunk(200_000, seed=20261129, index=0, way="trump_plaza", high_hand_ranks=2)
    assert two == Tally(wins=56_536, pushes=83_461, losses=60_003)
    assert two == simulate_paigow_poker_chunk(200_000, seed=20261129, index=0, way="trump_plaza", high_hand_ranks=2)
    assert two.wins < every.wins and two.losses > every.losses
    assert simulate_paigow_poker_chunk(200_000, seed=20261129, index=0, way="trump_plaza", high_hand_ranks=5) == every


def test_the_batched_run_takes_the_option_too() -> None:
    every = simulate_paigow_poker_batched(50_000, seed=3, way="trump_plaza")
    two = simulate_paigow_poker_batched(50_000, seed=3, way="trump_plaza", high_hand_ranks=2)
    assert two.hands == every.hands == 50_000
    assert two.wins < every.wins and two.losses > every.losses


@pytest.mark.parametrize("bad", [0, 6, -1, True, 2.0, "2"])
def test_a_number_of_ranks_outside_one_to_five_is_refused(bad: object) -> None:
    message = "high_hand_ranks is how many ranks of the high hands to compare, 1 to 5, or None"
    with pytest.raises(ValueError, match=message):
        high_hand_ranks_shift(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=message):
        simulate_paigow_poker_batched(1_000, seed=1, high_hand_ranks=bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=message):
        simulate_paigow_poker_chunk(1_000, seed=1, index=0, high_hand_ranks=bad)  # type: ignore[arg-type]
    rows = deal_paigow_poker(10, np.random.default_rng(1))
    with pytest.raises(ValueError, match=message):
        paigow_poker_outcomes(rows[:, :7], rows[:, 7:], high_hand_ranks=bad)  # type: ignore[arg-type]
