"""The house-way simulation: repeatable, complete, and honest about its statistics."""

from __future__ import annotations

import random

import pytest

from rules.games.simulate import SimulationResult, main, simulate_paigow_poker


def test_the_same_seed_plays_the_same_hands() -> None:
    one = simulate_paigow_poker(300, way="golden_nugget", rng=random.Random(5), seed=5)
    two = simulate_paigow_poker(300, way="golden_nugget", rng=random.Random(5), seed=5)
    assert one == two
    assert one.wins + one.pushes + one.losses == 300


def test_pushes_are_the_most_common_result_and_the_house_has_the_edge_over_many_hands() -> None:
    result = simulate_paigow_poker(4000, way="trump_plaza", rng=random.Random(11), seed=11)
    assert result.pushes > result.wins and result.pushes > result.losses
    low, high = result.ci95
    assert low < result.house_edge < high
    assert -0.02 < result.house_edge < 0.08


def test_the_edge_and_interval_follow_from_the_counts() -> None:
    result = SimulationResult("Pai Gow Poker", "golden_nugget", 100, 30, 40, 30, 500, 1)
    assert result.mean == pytest.approx((30 * 0.95 - 30) / 100)
    assert result.house_edge == pytest.approx(0.015)
    second = (30 * 0.95**2 + 30) / 100
    half = 1.96 * (second - result.mean**2) ** 0.5 / 10
    assert result.ci95 == pytest.approx((0.015 - half, 0.015 + half))


def test_the_command_prints_the_percentages_and_the_edge(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["paigow-poker", "--hands", "500", "--way", "foxwoods", "--seed", "3", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "house way 'foxwoods'" in out and "500 hands, seed 3" in out
    assert "player wins" in out and "pushes" in out and "house edge with 5% commission" in out
    assert "95% CI" in out


def test_an_unknown_way_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["paigow-poker", "--hands", "10", "--way", "caesars", "--no-progress"])
    assert "unknown house way 'caesars'" in capsys.readouterr().err
