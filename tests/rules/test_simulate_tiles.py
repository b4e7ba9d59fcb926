"""The Pai Gow tiles simulation: repeatable, complete, and both sides' edges honest about their statistics."""

from __future__ import annotations

import random

import pytest

from rules.games.simulate import TilesSimulationResult, main, simulate_paigow_tiles


def test_the_same_seed_plays_the_same_hands_and_every_hand_is_counted_once() -> None:
    one = simulate_paigow_tiles(400, way="foxwoods", rng=random.Random(5), seed=5)
    two = simulate_paigow_tiles(400, way="foxwoods", rng=random.Random(5), seed=5)
    assert one == two
    assert one.wins + one.pushes + one.losses == 400
    assert one != simulate_paigow_tiles(400, way="foxwoods", rng=random.Random(6), seed=6)


def test_the_progress_bar_hears_of_every_hand() -> None:
    seen: list[int] = []
    simulate_paigow_tiles(25_000, rng=random.Random(1), progress=seen.append)
    assert seen == [10_000, 10_000, 5_000]


# The exact chances of a Foxwoods player against a Foxwoods bank: paigow_tiles_advice's counts for the
# house way's setting of every four-tile hand, weighted by how many physical hands make it, over all
# C(32, 4) * C(28, 4) = 736,281,000 deals (wins 216,220,204, pushes 296,840,368, losses 223,220,428; the counts
# docs/game-math.md and rules/edges.py's data file give).
EXACT = {"win": 216_220_204 / 736_281_000, "push": 296_840_368 / 736_281_000, "loss": 223_220_428 / 736_281_000}


def test_the_simulated_chances_agree_with_the_exact_house_way_match_up() -> None:
    hands = 40_000
    result = simulate_paigow_tiles(hands, way="foxwoods", rng=random.Random(11), seed=11)
    for count, p in ((result.wins, EXACT["win"]), (result.pushes, EXACT["push"]), (result.losses, EXACT["loss"])):
        assert abs(count / hands - p) < 4 * (p * (1 - p) / hands) ** 0.5
    for edge, (low, high) in ((result.player_edge, result.player_ci95), (result.banker_edge, result.banker_ci95)):
        assert low < edge < high


def test_both_edges_follow_from_the_counts() -> None:
    result = TilesSimulationResult("Pai Gow tiles", "foxwoods", 100, 30, 40, 30, 500, False, 1)
    assert result.player_edge == pytest.approx(0.0)
    half = 1.96 * (60 / 100) ** 0.5 / 10
    assert result.player_ci95 == pytest.approx((-half, half))
    # the bank: +0.95 on each of the 30 player losses, -1 on each of the 30 player wins; its edge is its loss
    assert result.banker_edge == pytest.approx(-(30 * 0.95 - 30) / 100)
    second = (30 * 0.95**2 + 30) / 100
    half = 1.96 * (second - result.banker_edge**2) ** 0.5 / 10
    assert result.banker_ci95 == pytest.approx((0.015 - half, 0.015 + half))


@pytest.mark.parametrize("player_pays", [False, True])
def test_the_two_edges_add_up_to_the_commission_the_house_takes(player_pays: bool) -> None:
    result = TilesSimulationResult("Pai Gow tiles", "foxwoods", 1000, 287, 410, 303, 500, player_pays, 1)
    taken = 0.05 * (303 + (287 if player_pays else 0)) / 1000
    assert result.player_edge + result.banker_edge == pytest.approx(taken)


def test_a_player_commission_raises_the_players_edge_and_leaves_the_bankers_alone() -> None:
    free = TilesSimulationResult("Pai Gow tiles", "foxwoods", 100, 30, 40, 30, 500, False, 1)
    charged = TilesSimulationResult("Pai Gow tiles", "foxwoods", 100, 30, 40, 30, 500, True, 1)
    assert charged.player_edge == pytest.approx(free.player_edge + 30 * 0.05 / 100)
    assert charged.banker_edge == free.banker_edge


def test_the_command_prints_the_percentages_and_both_edges_with_their_convention(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["paigow-tiles", "--hands", "500", "--seed", "3", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "Pai Gow tiles, house way 'foxwoods'" in out and "500 hands, seed 3" in out
    assert "player wins" in out and "pushes" in out and "player losses" in out
    assert "house edge: a side's average loss per unit of the player's wager" in out
    assert "player (a win pays even money, no commission)" in out
    assert "banker (pays 5% commission on its winnings)" in out
    assert out.count("95% CI") == 2


def test_the_command_charges_the_player_when_told_to(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["paigow-tiles", "--hands", "200", "--seed", "3", "--commission-on-player-wins", "--no-progress"]) == 0
    assert "player (a win pays even money, less 5% commission)" in capsys.readouterr().out


def test_the_player_commission_option_is_refused_for_pai_gow_poker(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["paigow-poker", "--hands", "10", "--commission-on-player-wins", "--no-progress"])
    assert "is a paigow-tiles option" in capsys.readouterr().err


def test_an_unknown_tiles_way_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["paigow-tiles", "--hands", "10", "--way", "caesars", "--no-progress"])
    assert "unknown house way 'caesars'" in capsys.readouterr().err
