"""Setting advice for Pai Gow Poker, the sampled fallback: the 21 settings of seven cards against a sample of
house-way bank hands (§2), as the tablet answers before the way's flush memo is complete
(tests/rules/test_paigow_poker_exact_advice.py holds the exact answer)."""

from __future__ import annotations

import numpy as np
import pytest

from rules.games.cards import ALL_CARDS, parse_cards
from rules.games.errors import InvalidHand
from rules.games.paigow_poker import Outcome, house_way, outcome
from rules.games.paigow_poker_advice import BANK_HANDS, Advice, _sampled_blocks, _seed
from rules.games.paigow_poker_advice import advise as advise_either
from rules.games.paigow_poker_hands import Setting

ACES_AND_KINGS = "As Ad Kh Kc 7s 4d 2c"


def advise(*args: object, **kwargs: object) -> Advice:
    """The sampled answer, whether or not another test has made a way's memo complete in this process."""
    return advise_either(*args, exact=False, **kwargs)  # type: ignore[arg-type]


def test_there_are_53_524_680_bank_hands_for_seven_cards() -> None:
    assert BANK_HANDS == 53_524_680


@pytest.mark.parametrize(("text", "way"), [(ACES_AND_KINGS, "golden_nugget"), ("Jk Ks Qd Jh Tc 5s 5d", "trump_plaza")])
def test_the_counts_are_the_rules_outcome_over_the_same_bank_hands(text: str, way: str) -> None:
    """The vectorised comparison against an independent one: the same 2,000 bank hands, each set by the per-hand
    house way and settled by ``paigow_poker.outcome`` for every one of the 21 settings."""
    cards = parse_cards(text)
    advice = advise(cards, way, samples=2_000)
    held = {c.index for c in cards}
    rest = np.array([i for i in range(53) if i not in held], dtype=np.uint8)
    (rows,) = list(_sampled_blocks(rest, 2_000, _seed(cards)))
    banks = [house_way([ALL_CARDS[i] for i in row], way) for row in rows.tolist()]
    for row in advice.settings:
        results = [outcome(row.setting, bank, way=way) for bank in banks]
        assert row.win == results.count(Outcome.WIN) / 2_000
        assert row.loss == results.count(Outcome.LOSS) / 2_000
        assert row.ev == pytest.approx(0.95 * row.win - row.loss)


def test_aces_and_kings_split_is_the_best_and_the_house_way() -> None:
    """Two pairs, aces and kings, with a seven: the Golden Nugget way splits (aces with any pair), and no other
    setting does better: keeping both pairs behind an ace-less 7-4 low wins far less often."""
    advice = advise(parse_cards(ACES_AND_KINGS))
    assert advice.house.setting == Setting.parse("As Ad 7s 4d 2c", "Kh Kc")
    assert advice.best is advice.house
    together = next(r for r in advice.settings if r.setting == Setting.parse("As Ad Kh Kc 2c", "7s 4d"))
    assert advice.best.ev > together.ev + 5 * advice.margin
    assert len(advice.settings) == 21 and advice.bank_hands == 200_000 and not advice.exact


def test_a_fouled_setting_forfeits_or_is_reset_by_the_house_way_as_the_rules_say() -> None:
    cards = parse_cards(ACES_AND_KINGS)
    fouled = Setting.parse("Kh Kc 7s 4d 2c", "As Ad")  # aces low above kings high
    forfeit = next(r for r in advise(cards).settings if r.setting == fouled)
    assert forfeit.foul and forfeit.ev == -1 and forfeit.loss == 1 and forfeit.margin == 0
    reset = advise(cards, foul_policy="house_way")
    row = next(r for r in reset.settings if r.setting == fouled)
    assert row.foul and row.ev == reset.house.ev


def test_the_same_hand_gets_the_same_advice_whatever_the_order_of_its_cards() -> None:
    a = advise(parse_cards(ACES_AND_KINGS), samples=5_000)
    b = advise(parse_cards("2c 4d 7s Kc Kh Ad As"), samples=5_000)
    assert [r.ev for r in a.settings] == [r.ev for r in b.settings]


def test_the_margin_shrinks_with_the_sample_and_is_stated_per_setting() -> None:
    small = advise(parse_cards(ACES_AND_KINGS), samples=10_000)
    large = advise(parse_cards(ACES_AND_KINGS))
    assert 0.003 < large.margin * (200_000 / 10_000) ** 0.5 / small.margin * small.margin < 0.02
    assert large.margin < 0.0035 < small.margin
    assert large.margin == max(r.margin for r in large.settings)


def test_no_commission_on_player_wins_raises_the_ev_by_five_percent_of_the_wins() -> None:
    cards = parse_cards(ACES_AND_KINGS)
    charged, free = advise(cards, samples=5_000), advise(cards, samples=5_000, commission_on_player_wins=False)
    assert free.house.ev == pytest.approx(charged.house.ev + 0.05 * charged.house.win)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("As Ad Kh Kc 7s 4d", "7 cards expected, got 6"),
        ("As As Kh Kc 7s 4d 2c", "twice"),
        ("As Ad Kh Kc 7s 4d 1c", "1c"),
    ],
)
def test_a_hand_that_is_not_seven_distinct_cards_is_refused_in_words(text: str, problem: str) -> None:
    with pytest.raises(InvalidHand, match=problem):
        advise(parse_cards(text))
