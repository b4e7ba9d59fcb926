"""The ICM calculator and the chip chop (``poker_room.pure.icm``), held to published worked examples.

Each example names its source, the stacks and prizes it used and the figures it published, and is asserted at the
precision the source printed: to the cent where it printed cents, to the dollar (or its rounding) where it did not.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from poker_room.pure.icm import (
    MOST_PLAYERS,
    IcmError,
    chip_chop_cents,
    custom_check,
    finish_probabilities,
    icm_deal_cents,
    icm_equities,
)


def cents(value: Fraction) -> int:
    """A dollar figure (a Fraction of dollars) rounded half up to whole cents, as a calculator prints it."""
    return int(value * 100 + Fraction(1, 2))


# --- published worked examples ------------------------------------------------------------------------------------

# (source, stacks, prizes in dollars, the published equities in cents)
PUBLISHED_TO_THE_CENT = [
    pytest.param(
        # https://pailiku.com/tools/icm-calculator/result ("ICM Result (Independent Chip Model)"): a 4-handed final
        # table, stacks 5000/3000/1500/500, payouts 500/300/200: cash equity 377.78, 312.89, 225.60, 83.73.
        [5000, 3000, 1500, 500],
        [500, 300, 200],
        [37778, 31289, 22560, 8373],
        id="pailiku-4-handed",
    ),
    pytest.param(
        # https://www.hold-em-k.com/poker/news-poker-basics-edge-based-final-table-deals/ ("Edge-based final table
        # deals"): Amy 100,000, Paul 70,000, Sophie 50,000, Tim 20,000 chips; prizes $200/$120/$80/$50: ICM value
        # $140.84, $123.80, $108.96, $76.40.
        [100_000, 70_000, 50_000, 20_000],
        [200, 120, 80, 50],
        [14084, 12380, 10896, 7640],
        id="hold-em-k-amy-paul-sophie-tim",
    ),
]


@pytest.mark.parametrize(("stacks", "prizes", "published"), PUBLISHED_TO_THE_CENT)
def test_icm_equities_agree_with_published_examples_to_the_cent(stacks, prizes, published):
    assert [cents(equity) for equity in icm_equities(stacks, prizes)] == published


@pytest.mark.parametrize(("stacks", "prizes", "published"), PUBLISHED_TO_THE_CENT)
def test_an_icm_deal_of_a_published_example_pays_its_figures_in_cents(stacks, prizes, published):
    # Rounded to cents so that they add up, the deal is the published figures (their sum is the pool already).
    assert list(icm_deal_cents(stacks, [prize * 100 for prize in prizes])) == published


def test_the_pokernews_alice_bob_charlie_example_to_the_dollar():
    # https://www.pokernews.com/strategy/getting-most-from-final-table-deals-shortcomings-icm-33576.htm (and its first
    # part, "To Chop or Not to Chop? Explaining Standard Deal-Making Methods", D. Palamourdas): Alice 50 %, Bob 30 %,
    # Charlie 20 % of the chips; prizes $900/$400/$200: "ICM Chop" $618, $485, $397 (printed to the dollar).
    equities = icm_equities([50, 30, 20], [900, 400, 200])
    assert [round(equity) for equity in equities] == [618, 485, 397]
    # Exactly: 617 6/7, 485 and 397 1/7 dollars.
    assert equities == (Fraction(4325, 7), Fraction(485), Fraction(2780, 7))


def test_the_wikipedia_example_to_the_published_unit():
    # https://en.wikipedia.org/wiki/Independent_Chip_Model ("Model"): A, B and C hold 50 %, 30 % and 20 % of the
    # chips, 1st pays 70 units and 2nd 30: ICM(A) ≈ 45, ICM(B) ≈ 32, ICM(C) ≈ 22 (the article cuts the figures
    # to whole units: 45.18, 32.25, 22.57).
    equities = icm_equities([50, 30, 20], [70, 30])
    assert [int(equity) for equity in equities] == [45, 32, 22]
    assert equities == (Fraction(1265, 28), Fraction(129, 4), Fraction(158, 7))


def test_the_wikipedia_example_finishing_chances():
    # Same source: P[A=1, B=2, C=3] = 0.5 · 0.3 / (1 − 0.5) = 0.3, P[B=1, A=2, C=3] = 0.3 · 0.5 / 0.7 ≈ 0.21 ...
    chances = finish_probabilities([50, 30, 20])
    assert chances[0][0] == Fraction(1, 2)
    assert chances[0][1] == Fraction(3, 10) * Fraction(5, 7) + Fraction(2, 10) * Fraction(5, 8)  # B or C 1st, A 2nd


def test_the_hold_em_k_finishing_distribution_to_a_tenth_of_a_percent():
    # hold-em-k.com (as above), "the finishing distributions ... with equal skill", printed to 0.1 %:
    published = [
        [41.7, 31.9, 20.0, 6.4],  # Amy
        [29.2, 31.2, 27.5, 12.2],  # Paul
        [20.8, 25.4, 33.2, 20.6],  # Sophie
        [8.3, 11.6, 19.3, 60.8],  # Tim
    ]
    chances = finish_probabilities([100_000, 70_000, 50_000, 20_000])
    assert [[round(float(chance) * 100, 1) for chance in row] for row in chances] == published


@pytest.mark.parametrize(
    ("stacks", "hero", "published"),
    [
        # https://www.aidanf.net/posts/sample-icm-calculation-with-simpleicm ("Sample ICM calculation with
        # SimpleICM"): 4 left of a 50/30/20 sit-and-go. Folding leaves CO 1600, BTN 1400, SB 7800, hero 2700:
        # "our equity will be 0.2563"; calling and winning leaves the hero 6000 (SB 4500): "0.3566".
        pytest.param([1600, 1400, 7800, 2700], 3, Fraction(2563, 10_000), id="fold"),
        pytest.param([1600, 1400, 4500, 6000], 3, Fraction(3566, 10_000), id="call-and-win"),
    ],
)
def test_the_simpleicm_example_to_four_decimals_of_the_pool(stacks, hero, published):
    equity = icm_equities(stacks, [50, 30, 20])[hero] / 100
    assert round(equity, 4) == published


def test_the_hold_em_k_chip_chop_up_to_its_rounded_chip_shares():
    # hold-em-k.com (as above): "Chip Chop Value" $154.25, $123, $102, $70.75: everyone's $50 (4th prize) plus the
    # other $250 by chips, with the chip shares rounded to 0.1 % first (41.7 %, 29.2 %, 20.8 %, 8.3 % of $250). With
    # the shares exact the chop is $154.17, $122.92, $102.08, $70.83: within 8 cents of the published, every cent
    # of the $450 paid.
    chop = chip_chop_cents([100_000, 70_000, 50_000, 20_000], [20000, 12000, 8000, 5000])
    assert chop == (15417, 12292, 10208, 7083)
    published = (15425, 12300, 10200, 7075)
    assert all(abs(ours - theirs) <= 8 for ours, theirs in zip(chop, published, strict=True))
    assert [5000 + round(250 * share * 100) / 100 for share in (41.7, 29.2, 20.8, 8.3)] == list(published)


# --- rounding to cents ---------------------------------------------------------------------------------------------


def test_left_over_cents_go_to_the_largest_remainders_and_ties_to_the_bigger_stack():
    # Three equal stacks share 100 cents: 33⅓ each; the one cent left goes to the first listed.
    assert icm_deal_cents([10, 10, 10], [100]) == (34, 33, 33)
    # 2 cents by chips 1:3 = 0.5 and 1.5: equal remainders, the cent to the bigger stack.
    assert chip_chop_cents([1, 3], [2, 0]) == (0, 2)
    assert chip_chop_cents([1, 3], [3, 0]) == (1, 2)  # 0.75 and 2.25: the larger remainder wins over the stack
    assert chip_chop_cents([1, 1], [1, 0]) == (1, 0)  # .5 and .5, equal stacks: the first listed
    assert chip_chop_cents([1, 2], [1, 0])[1] == 1  # ⅓ and ⅔: the larger remainder (the bigger stack)


def test_a_reserve_comes_off_first_place_and_the_rest_is_shared():
    stacks = [5000, 3000, 1500, 500]
    deal = icm_deal_cents(stacks, [50000, 30000, 20000], reserve_cents=10000)
    assert sum(deal) == 90000
    assert deal == icm_deal_cents(stacks, [40000, 30000, 20000])
    chop = chip_chop_cents(stacks, [50000, 30000, 20000, 10000], reserve_cents=10000)
    # everyone's 4th prize (100.00) plus the other 600.00 by chips: 300, 180, 90, 30 dollars
    assert chop == (40000, 28000, 19000, 13000)


def test_the_chip_chop_with_the_last_place_paid_nothing_is_proportional():
    assert chip_chop_cents([50, 30, 20], [90000, 40000, 20000]) == (65000, 47000, 38000)  # 200 each + 900 by chips
    assert chip_chop_cents([50, 30, 20], [90000, 60000]) == (75000, 45000, 30000)  # 3rd pays 0: all by chips


def test_custom_amounts_must_add_up_to_the_money_left_less_the_reserve():
    assert custom_check([600, 400], [700, 300]) == (600, 400)
    assert custom_check([500, 400], [700, 300], reserve_cents=100) == (500, 400)
    with pytest.raises(IcmError, match="add up to 900, not to the 1000"):
        custom_check([500, 400], [700, 300])
    with pytest.raises(IcmError, match="at least 0"):
        custom_check([1100, -100], [700, 300])
    with pytest.raises(IcmError, match="at least two players"):
        custom_check([1000], [1000])


# --- refusals --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("stacks", "prizes", "message"),
    [
        ([100], [100], "at least two players"),
        ([100, 0], [100], "a stack of 0"),
        ([100, -5], [100], "a stack of -5"),
        ([100, 1.5], [100], "whole number of chips"),
        ([100, True], [100], "whole number of chips"),
        ([1] * (MOST_PLAYERS + 1), [100], f"at most {MOST_PLAYERS} players"),
        ([10, 20], [30, 20, 10], "3 prizes for 2 players"),
        ([10, 20], [30, -1], "cannot be negative"),
        ([10, 20], [20, 30], "Place 2 cannot pay more than place 1"),
        ([10, 20], [20.5], "whole number of cents"),
    ],
)
def test_refusals(stacks, prizes, message):
    with pytest.raises(IcmError, match=message):
        icm_equities(stacks, prizes)


def test_a_reserve_above_what_first_pays_over_second_or_negative_is_refused():
    with pytest.raises(IcmError, match=r"over 2nd \(200\): it cannot be more"):
        icm_deal_cents([10, 20], [500, 300], reserve_cents=201)
    with pytest.raises(IcmError, match="at least 0"):
        icm_deal_cents([10, 20], [500, 300], reserve_cents=-1)
    assert chip_chop_cents([10, 20], [500, 300], reserve_cents=200) == (300, 300)


def test_icm_error_is_a_value_error():
    assert issubclass(IcmError, ValueError)


# --- properties ------------------------------------------------------------------------------------------------------

stacks_strategy = st.lists(st.integers(min_value=1, max_value=10**7), min_size=2, max_size=6)
ladder_strategy = st.lists(st.integers(min_value=0, max_value=10**8), min_size=1, max_size=6).map(
    lambda prizes: sorted(prizes, reverse=True)
)


@settings(max_examples=60, deadline=None)
@given(stacks=stacks_strategy, prizes=ladder_strategy, data=st.data())
def test_the_deal_adds_up_to_the_money_and_follows_the_stacks(stacks, prizes, data):
    prizes = prizes[: len(stacks)]
    reserve = data.draw(st.integers(min_value=0, max_value=prizes[0] - (prizes[1] if len(prizes) > 1 else 0)))
    equities = icm_equities(stacks, prizes)
    assert sum(equities) == sum(prizes)
    deal = icm_deal_cents(stacks, prizes, reserve_cents=reserve)
    assert sum(deal) == sum(prizes) - reserve
    assert all(
        abs(amount - equity) < 1
        for amount, equity in zip(deal, icm_equities(stacks, [prizes[0] - reserve, *prizes[1:]]), strict=True)
    )
    for i in range(len(stacks)):
        for j in range(len(stacks)):
            if stacks[i] > stacks[j]:
                assert equities[i] >= equities[j]
                assert deal[i] >= deal[j]
    chop = chip_chop_cents(stacks, prizes, reserve_cents=reserve)
    assert sum(chop) == sum(prizes) - reserve
    assert min(chop) >= (prizes[len(stacks) - 1] if len(prizes) == len(stacks) else 0)


@settings(max_examples=60, deadline=None)
@given(
    a=st.integers(min_value=1, max_value=10**9),
    b=st.integers(min_value=1, max_value=10**9),
    first=st.integers(min_value=0, max_value=10**8),
    second=st.integers(min_value=0, max_value=10**8),
)
def test_two_players_closed_form(a, b, first, second):
    first, second = max(first, second), min(first, second)
    # Heads-up: A wins with a/(a+b) and is 2nd otherwise.
    expected_a = second + Fraction(a, a + b) * (first - second)
    assert icm_equities([a, b], [first, second]) == (expected_a, first + second - expected_a)


@settings(max_examples=30, deadline=None)
@given(stacks=stacks_strategy)
def test_each_place_is_taken_once_and_each_player_finishes_somewhere(stacks):
    chances = finish_probabilities(stacks)
    assert all(sum(row) == 1 for row in chances)
    assert all(sum(row[place] for row in chances) == 1 for place in range(len(stacks)))
    total = sum(stacks)
    assert [row[0] for row in chances] == [Fraction(stack, total) for stack in stacks]


def test_equal_stacks_share_equally_and_ten_players_are_quick():
    assert icm_equities([7] * 10, [1000, 500]) == (Fraction(150),) * 10
    deal = icm_deal_cents([10_000 * (i + 1) for i in range(10)], [500_000, 300_000, 200_000, 100_000])
    assert sum(deal) == 1_100_000 and list(deal) == sorted(deal)
