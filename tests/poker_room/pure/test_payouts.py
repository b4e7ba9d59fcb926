"""Payouts: the payout table by field size, prizes by place, the guarantee's overlay and the revenue."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from poker_room.pure.payouts import (
    HOUSE_PAYOUTS,
    PayoutBand,
    PayoutError,
    band_for,
    bands_as_json,
    bands_check,
    bands_from_json,
    prize_pool,
    prizes,
    revenue,
)

# --- the payout table -----------------------------------------------------------------------------------------


def test_the_house_table_pays_the_game_rules_shares_up_to_thirty_players() -> None:
    bands_check(HOUSE_PAYOUTS)
    assert band_for(HOUSE_PAYOUTS, 1).shares_bp == (5000, 3000, 2000)
    assert band_for(HOUSE_PAYOUTS, 10).shares_bp == (5000, 3000, 2000)
    assert band_for(HOUSE_PAYOUTS, 11).shares_bp == (5000, 2500, 1500, 1000)
    assert band_for(HOUSE_PAYOUTS, 20).shares_bp == (5000, 2500, 1500, 1000)
    assert band_for(HOUSE_PAYOUTS, 21).shares_bp == (4000, 2500, 2000, 1000, 500)
    assert band_for(HOUSE_PAYOUTS, 30).shares_bp == (4000, 2500, 2000, 1000, 500)


@pytest.mark.parametrize("field", [31, 50, 51, 100, 101, 200, 201, 300])
def test_the_house_table_pays_about_a_tenth_to_a_fifth_of_a_larger_field(field: int) -> None:
    band = band_for(HOUSE_PAYOUTS, field)
    assert 0.09 <= band.places / field <= 0.2
    assert sum(band.shares_bp) == 10_000
    assert list(band.shares_bp) == sorted(band.shares_bp, reverse=True)


def test_the_house_tables_last_band_is_open_ended() -> None:
    assert HOUSE_PAYOUTS[-1].max_players is None
    assert band_for(HOUSE_PAYOUTS, 5_000) is HOUSE_PAYOUTS[-1]


def b(low: int, high: int | None, *shares: int) -> PayoutBand:
    return PayoutBand(low, high, shares)


@pytest.mark.parametrize(
    ("bands", "message"),
    [
        (
            (b(1, 10, 5000, 3000, 2000), b(11, 20, 5000, 2500, 1000, 1000)),
            "The payouts for 11–20 players add up to 95.00 %, not 100 %.",
        ),
        ((b(1, 10, 5000, 3000, 2001),), "The payouts for 1–10 players add up to 100.01 %, not 100 %."),
        (
            (b(1, 10, 5000, 2000, 3000),),
            r"The payouts for 1–10 players rise from place 2 \(20.00 %\) to place 3 \(30.00 %\): "
            "a lower place never pays more.",
        ),
        ((b(1, 10, 10000, 0),), r"Place 2 of the payouts for 1–10 players gets 0.00 %: every paid place gets a share."),
        ((b(1, 10, 11000, -1000),), "Place 2 of the payouts for 1–10 players gets -10.00 %"),
        ((b(1, 10),), "The payouts for 1–10 players pay no place."),
        ((b(1, 10, 10000), b(12, None, 10000)), "The payout table has a gap: nothing pays 11 players."),
        ((b(1, 10, 10000), b(14, None, 10000)), "The payout table has a gap: nothing pays 11–13 players."),
        ((b(1, 10, 10000), b(8, None, 10000)), "The payouts for 1–10 players and for 8 or more players overlap."),
        ((b(2, 10, 10000), b(11, None, 10000)), "The payout table starts at 2 players, not at 1."),
        (
            (b(1, None, 10000), b(11, None, 10000)),
            "Only one band can be open-ended: 1 or more players and 11 or more players both are.",
        ),
        (
            (b(1, 10, 10000), b(11, None, 10000), b(21, 30, 10000)),
            "Only the last band can be open-ended, not the one for 11 or more players.",
        ),
        ((b(1, 2, 5000, 3000, 2000),), "The payouts for 1–2 players pay 3 places, more than the 2 players"),
        ((b(0, 10, 10000),), "A band starts at 1 player or more, not at 0."),
        ((b(5, 4, 10000),), "A band starting at 5 players cannot end at 4."),
        ((), "The payout table has no bands."),
    ],
)
def test_a_payout_table_the_director_must_fix_is_refused_in_their_words(
    bands: tuple[PayoutBand, ...], message: str
) -> None:
    with pytest.raises(PayoutError, match=f"^{message}"):
        bands_check(bands)


def test_a_payout_table_goes_to_json_and_back_unchanged() -> None:
    data = bands_as_json(HOUSE_PAYOUTS)
    assert data[0] == {"min_players": 1, "max_players": 10, "shares_bp": [5000, 3000, 2000]}
    assert data[-1]["max_players"] is None
    assert bands_from_json(data) == HOUSE_PAYOUTS


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"min_players": 1}, "The payout table is a list of bands."),
        (None, "The payout table is a list of bands."),
        ([[1, 10, [10000]]], "Band 1 of the payout table is not a band."),
        ([{"min_players": 1, "shares_bp": [10000]}], "Band 1 of the payout table lacks max_players."),
        (
            [{"min_players": 1, "max_players": None, "shares_bp": [10000], "note": "x"}],
            "Band 1 of the payout table has unknown fields: note.",
        ),
        ([{"min_players": "1", "max_players": None, "shares_bp": [10000]}], "needs whole numbers of players"),
        ([{"min_players": 1, "max_players": 2.5, "shares_bp": [10000]}], "needs whole numbers of players"),
        ([{"min_players": True, "max_players": None, "shares_bp": [10000]}], "needs whole numbers of players"),
        ([{"min_players": 1, "max_players": None, "shares_bp": "10000"}], "its shares as whole basis points"),
        ([{"min_players": 1, "max_players": None, "shares_bp": [50.0, 50.0]}], "its shares as whole basis points"),
        ([{"min_players": 1, "max_players": None, "shares_bp": [6000, 3000]}], "add up to 90.00 %, not 100 %"),
    ],
)
def test_malformed_json_is_refused_as_a_payout_error(data: object, message: str) -> None:
    with pytest.raises(PayoutError, match=message):
        bands_from_json(data)


# --- prizes ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pool", "entries", "unit", "expected"),
    [
        (100_000, 10, 100, (50_000, 30_000, 20_000)),  # 1,000.00 among ten players: 500/300/200
        (100_050, 10, 100, (50_050, 30_000, 20_000)),  # the odd 50 cents to first
        (123_456, 10, 100, (61_856, 37_000, 24_600)),  # 370.36 and 246.91 down to the unit; first gets the rest
        (123_456, 10, 500, (61_956, 37_000, 24_500)),  # rounded to 5.00
        (123_456, 10, 1, (61_729, 37_036, 24_691)),  # to the cent
        (200_000, 15, 100, (100_000, 50_000, 30_000, 20_000)),
        (297_000, 27, 1_000, (121_000, 74_000, 59_000, 29_000, 14_000)),  # 21–30: 40/25/20/10/5 to 10.00
    ],
)
def test_prizes_are_rounded_down_to_the_unit_and_first_place_gets_the_rest(
    pool: int, entries: int, unit: int, expected: tuple[int, ...]
) -> None:
    got = prizes(pool_cents=pool, entries=entries, bands=HOUSE_PAYOUTS, unit_cents=unit)
    assert got == expected
    assert sum(got) == pool
    assert all(prize % unit == 0 for prize in got[1:])


@pytest.mark.parametrize(
    ("entries", "expected"),
    [
        (1, (60_000,)),  # the lone player takes it all
        (2, (42_000, 18_000)),  # 50 % + the third place's 20 % to first, 30 % to second
        (3, (30_000, 18_000, 12_000)),
    ],
)
def test_a_field_smaller_than_the_paid_places_pays_every_player_and_first_gets_the_rest(
    entries: int, expected: tuple[int, ...]
) -> None:
    assert prizes(pool_cents=60_000, entries=entries, bands=HOUSE_PAYOUTS) == expected


@pytest.mark.parametrize(
    ("min_cash", "expected"),
    [
        (0, (100_000, 50_000, 30_000, 20_000)),
        (20_000, (100_000, 50_000, 30_000, 20_000)),  # exactly the minimum is paid
        (20_001, (111_200, 55_500, 33_300)),  # fourth's 10 % shared pro rata over 50/25/15 of 90
        (40_000, (133_400, 66_600)),  # third place (50,000) still below: dropped too
        (150_000, (200_000,)),  # first always takes the pool
    ],
)
def test_no_place_is_paid_below_the_minimum_cash_and_the_dropped_shares_go_pro_rata(
    min_cash: int, expected: tuple[int, ...]
) -> None:
    got = prizes(pool_cents=200_000, entries=15, bands=HOUSE_PAYOUTS, min_cash_cents=min_cash)
    assert got == expected
    assert sum(got) == 200_000
    assert len(got) == 1 or got[-1] >= min_cash


def test_a_place_that_would_get_nothing_is_not_paid() -> None:
    assert prizes(pool_cents=300, entries=10, bands=HOUSE_PAYOUTS) == (200, 100)
    assert prizes(pool_cents=0, entries=10, bands=HOUSE_PAYOUTS) == (0,)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"pool_cents": -1, "entries": 10}, "The prize pool is a whole number of cents"),
        ({"pool_cents": 100, "entries": 0}, "A tournament with no entries pays no prizes."),
        ({"pool_cents": 100, "entries": 10, "unit_cents": 0}, "rounded to a unit of 1 cent or more"),
        ({"pool_cents": 100, "entries": 10, "min_cash_cents": -5}, "The minimum cash is a whole number"),
        (
            {"pool_cents": 100, "entries": 40, "bands": (b(1, 30, 10000),)},
            "The payout table has no band for 40 players.",
        ),
        ({"pool_cents": 100, "entries": 5, "bands": (b(1, 30, 9000),)}, "add up to 90.00 %"),
    ],
)
def test_a_prize_request_that_makes_no_sense_is_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(PayoutError, match=message):
        prizes(**{"bands": HOUSE_PAYOUTS, **kwargs})  # type: ignore[arg-type]


@given(
    pool=st.integers(0, 10**9),
    entries=st.integers(1, 1_000),
    unit=st.sampled_from([1, 25, 100, 500, 1_000, 10_000]),
    min_cash=st.integers(0, 10**7),
)
def test_prizes_always_add_up_to_the_pool_and_never_rise_down_the_places(
    pool: int, entries: int, unit: int, min_cash: int
) -> None:
    got = prizes(pool_cents=pool, entries=entries, bands=HOUSE_PAYOUTS, unit_cents=unit, min_cash_cents=min_cash)
    assert sum(got) == pool
    assert 1 <= len(got) <= min(entries, band_for(HOUSE_PAYOUTS, entries).places)
    assert list(got) == sorted(got, reverse=True)
    assert all(prize % unit == 0 and prize >= max(min_cash, 1) for prize in got[1:])


# --- the pool, the overlay and the revenue --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("collected", "guarantee", "expected"),
    [
        (120_000, 100_000, (120_000, 0)),  # the guarantee is beaten: no overlay
        (100_000, 100_000, (100_000, 0)),
        (80_000, 100_000, (100_000, 20_000)),  # the house tops the pool up by 200.00
        (50_000, 0, (50_000, 0)),  # no guarantee
        (0, 100_000, (100_000, 100_000)),
    ],
)
def test_a_guarantees_shortfall_is_the_overlay_the_house_pays(
    collected: int, guarantee: int, expected: tuple[int, int]
) -> None:
    assert prize_pool(collected_cents=collected, guarantee_cents=guarantee) == expected


@pytest.mark.parametrize(
    ("fees", "overlay", "expected"),
    [
        (20_000, 0, (20_000, 0)),  # the fees are the revenue
        (20_000, 5_000, (15_000, 0)),  # the overlay first uses up the fees
        (20_000, 20_000, (0, 0)),
        (15_000, 20_000, (0, 5_000)),  # what is left of the overlay is a cost of the house, not negative revenue
        (0, 0, (0, 0)),
    ],
)
def test_revenue_is_the_fees_above_the_prizes_and_never_negative(
    fees: int, overlay: int, expected: tuple[int, int]
) -> None:
    assert revenue(fees_cents=fees, overlay_cents=overlay) == expected


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: prize_pool(collected_cents=-1, guarantee_cents=0), "The collected amount"),
        (lambda: prize_pool(collected_cents=0, guarantee_cents=1.5), "The guarantee amount"),  # type: ignore[arg-type]
        (lambda: revenue(fees_cents=-1, overlay_cents=0), "The fees amount"),
        (lambda: revenue(fees_cents=0, overlay_cents=-3), "The overlay amount"),
    ],
)
def test_negative_or_fractional_money_is_refused(call: object, message: str) -> None:
    with pytest.raises(PayoutError, match=message):
        call()  # type: ignore[operator]


@given(fees=st.integers(0, 10**9), overlay=st.integers(0, 10**9))
def test_revenue_less_cost_is_the_fees_less_the_overlay(fees: int, overlay: int) -> None:
    income, cost = revenue(fees_cents=fees, overlay_cents=overlay)
    assert income >= 0 and cost >= 0
    assert income * cost == 0
    assert income - cost == fees - overlay
