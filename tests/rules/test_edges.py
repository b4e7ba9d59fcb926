"""The house edge of every rule set: the figures of docs/game-math.md, from the shipped counts, for every option."""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Iterator
from typing import Any

import pytest

from rules import edges
from rules.edges import HouseEdgeUnknown, RuleSetEdges, rule_set_edges
from rules.games.paigow_tiles_advice import advise
from rules.games.tiles import TILE_FACES
from rules.options import (
    BANKING_MODES_BY_GAME,
    CHINESE_POKER,
    GAME_OPTIONS,
    OFC,
    PAIGOW_POKER,
    PAIGOW_TILES,
    RuleSetInvalid,
    defaults,
    rule_set_validate,
    snapshot_build,
)


def snapshot(game: str, options: dict[str, Any] | None = None, **common: Any) -> dict[str, Any]:
    settings = defaults(game)
    settings = rule_set_validate(
        game=game,
        common={**{k: v for k, v in settings.items() if k != "options"}, **common},
        options={**settings["options"], **(options or {})},
    )
    return snapshot_build(rule_set_id=None, name="test", game=game, settings=settings)


def pct(x: float) -> float:
    return round(x * 100, 3)


def shipped(game: str, **options: Any) -> edges.Counts:
    return edges.read_counts()[(game, edges.options_key(game, options))]


# --- Pai Gow tiles: exact --------------------------------------------------------------------------


def test_the_foxwoods_default_tiles_rule_set_has_the_exact_counts_of_the_doc() -> None:
    counts = shipped(PAIGOW_TILES)
    assert (counts.wins, counts.pushes, counts.losses, counts.hands) == (
        216_220_204,
        296_840_368,
        223_220_428,
        736_281_000,
    )
    found = rule_set_edges(snapshot(PAIGOW_TILES))
    assert (found.method, found.hands) == ("exact", 736_281_000)
    assert found.player and found.banker
    assert (pct(found.player.edge), pct(found.banker.edge)) == (0.951, 0.565)
    assert found.player.low == found.player.edge == found.player.high
    assert found.source == "exact: 736,281,000 deals, python bench/house_edges.py --write"


def test_a_player_paying_commission_on_wins_gives_the_house_2_419_percent() -> None:
    found = rule_set_edges(snapshot(PAIGOW_TILES, commission_on_player_wins=True))
    assert found.player and found.banker
    assert (pct(found.player.edge), pct(found.banker.edge)) == (2.419, 0.565)


def test_a_player_banking_the_round_faces_the_same_edge_as_the_house_bank() -> None:
    assert rule_set_edges(snapshot(PAIGOW_TILES, banking_mode="player_rotation")) == rule_set_edges(
        snapshot(PAIGOW_TILES)
    )


def test_the_enumeration_recounts_the_shipped_tiles_counts_for_the_lowest_gee_joon_without_zero_copies() -> None:
    rules: dict[str, Any] = {"gee_joon_single_rank": "lowest", "zero_zero_copy": False}
    wins = pushes = losses = 0
    for faces in itertools.combinations_with_replacement(TILE_FACES, 4):
        if any(faces.count(face) > face.copies for face in set(faces)):
            continue
        weight = math.prod(math.comb(face.copies, faces.count(face)) for face in set(faces))
        house = advise(faces, way="foxwoods", **rules).house
        wins += weight * house.wins
        pushes += weight * house.pushes
        losses += weight * house.losses
    counts = shipped(PAIGOW_TILES, **rules)
    assert (counts.wins, counts.pushes, counts.losses) == (wins, pushes, losses)
    assert counts != shipped(PAIGOW_TILES)  # the options change the outcome, so they key the counts


# --- Pai Gow Poker: simulated ----------------------------------------------------------------------


def test_golden_nugget_reproduces_the_million_hand_table_of_the_doc() -> None:
    found = rule_set_edges(snapshot(PAIGOW_POKER))
    counts = shipped(PAIGOW_POKER)
    assert (counts.seed, counts.hands) == (2026, 1_000_000)
    assert [pct(n / counts.hands) for n in (counts.wins, counts.pushes, counts.losses)] == [28.261, 42.303, 29.436]
    assert found.method == "simulated" and found.player and found.banker
    assert (pct(found.player.edge), pct(found.player.low), pct(found.player.high)) == (2.588, 2.442, 2.733)
    assert found.player.high - found.player.low == pytest.approx(2 * 1.96 * found.player.sd / 1_000)
    assert found.source == "simulated: 1,000,000 hands, seed 2026, python bench/house_edges.py --write"


def test_trump_plaza_reproduces_the_doc_too() -> None:
    """The published reading (docs/game-math.md) and the text read literally: each its own row of the doc."""
    found = rule_set_edges(snapshot(PAIGOW_POKER, {"pgp_house_way": "trump_plaza"}))
    assert found.player and pct(found.player.edge) == 2.638
    literal = rule_set_edges(snapshot(PAIGOW_POKER, {"pgp_house_way": "trump_plaza_literal"}))
    assert literal.player and pct(literal.player.edge) == 2.613


def test_pai_gow_poker_at_even_money_pays_the_player_the_commission_back() -> None:
    paid = rule_set_edges(snapshot(PAIGOW_POKER))
    even = rule_set_edges(snapshot(PAIGOW_POKER, commission_on_player_wins=False))
    counts = shipped(PAIGOW_POKER)
    assert paid.player and even.player
    assert paid.player.edge - even.player.edge == pytest.approx(0.05 * counts.wins / counts.hands)


# --- no bank: the rake ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rule_set",
    [
        pytest.param(lambda: snapshot(CHINESE_POKER, {"rake_bp": 500}), id="chinese poker"),
        pytest.param(lambda: snapshot(OFC), id="ofc"),
        pytest.param(
            lambda: snapshot(PAIGOW_TILES, {"mode": "peer", "peer_points": True}, banking_mode="none"),
            id="peer tiles",
        ),
    ],
)
def test_the_points_games_and_peer_tiles_have_no_edge_theo_is_the_rake(rule_set: Any) -> None:
    found = rule_set_edges(rule_set())
    assert (found.method, found.player, found.banker, found.hands) == ("rake", None, None, 0)
    assert found.source.startswith("rake: ")


# --- every rule set the options allow ---------------------------------------------------------------


def every_rule_set(game: str) -> Iterator[dict[str, Any]]:
    """Every valid rule set of ``game``: all option values (a rake or time charge at 0 or 100), banking modes."""
    values = [option.choices or ((False, True) if option.kind is bool else (0, 100)) for option in GAME_OPTIONS[game]]
    keys = [option.key for option in GAME_OPTIONS[game]]
    for banking, on_wins, *combo in itertools.product(BANKING_MODES_BY_GAME[game], (False, True), *values):
        common = {"banking_mode": banking, "commission_on_player_wins": on_wins}
        try:
            settings = rule_set_validate(game=game, common=common, options=dict(zip(keys, combo, strict=True)))
        except RuleSetInvalid:
            continue
        yield snapshot_build(rule_set_id=None, name="every", game=game, settings=settings)


@pytest.mark.parametrize("game", sorted(GAME_OPTIONS))
def test_every_option_combination_of_every_game_resolves(game: str) -> None:
    found: list[RuleSetEdges] = [rule_set_edges(rule_set) for rule_set in every_rule_set(game)]
    assert found, f"no valid rule set of {game}"
    banked = [f for f in found if f.method != "rake"]
    assert bool(banked) == (game in edges.OUTCOME_OPTIONS)


def test_every_shipped_entry_is_a_combination_the_options_allow_and_none_is_missing() -> None:
    keys = {
        (r["game"], edges.options_key(r["game"], r["options"]))
        for g in edges.OUTCOME_OPTIONS
        for r in every_rule_set(g)
    }
    assert set(edges.read_counts()) == keys
    assert len(keys) == 4 + 16  # tiles: 1 way x 2 x 2; Pai Gow Poker: 4 ways x 2 x 2


def test_an_option_set_the_file_does_not_hold_is_refused_in_words() -> None:
    rule_set = snapshot(PAIGOW_POKER)
    rule_set["options"] = {**rule_set["options"], "pgp_house_way": "bellagio"}
    with pytest.raises(
        HouseEdgeUnknown, match=r"No house edge for Pai Gow Poker with pgp_house_way='bellagio'.*--write"
    ):
        rule_set_edges(rule_set)


def test_every_side_of_every_entry_has_a_sensible_spread_and_the_sides_share_the_commission() -> None:
    for counts in edges.read_counts().values():
        found = edges.edges_from_counts(counts, commission_bp=500, commission_on_player_wins=False)
        assert found.player and found.banker
        for side in (found.player, found.banker):
            assert 0.70 < side.sd < 0.95
            assert side.low <= side.edge <= side.high
        # What one side loses the other wins; the house keeps the bank's commission on what it won.
        assert found.player.edge + found.banker.edge == pytest.approx(0.05 * counts.losses / counts.hands)


def test_the_edges_are_cached_per_rule_set_so_a_settle_pays_microseconds() -> None:
    rule_set = snapshot(PAIGOW_TILES)
    first = rule_set_edges(rule_set)
    started = time.perf_counter()
    for _ in range(10_000):
        assert rule_set_edges(rule_set) is first
    assert time.perf_counter() - started < 1.0  # 100 µs a call at most; about 1 µs on the bench machine
