"""The game registry as a dealer knows the games, and the rule that code outside the engines asks it.

STYLE.md rule 14: which game needs what is one registry (``rules.games.registry``) that every
caller asks, never a branch on the game's name. The last tests read the source: a comparison of
a table's game with a game's name anywhere outside ``rules/games`` fails the build.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rules import engines
from rules import options as rule_options
from rules.games import registry
from rules.games.errors import InvalidHand
from rules.models import SEAT_LIMITS, Game

ROOT = Path(__file__).resolve().parents[2]
# The project's own code (the import-linter root packages) and its templates.
PACKAGES = ("config", "pit", "dealer", "settlement", "tables", "rules", "casino")

# --- the games as a dealer knows them ---------------------------------------------------------------


def test_pai_gow_tiles_is_four_tiles_set_two_and_two() -> None:
    tiles = registry.game(registry.PAIGOW_TILES)
    assert (tiles.name, tiles.noun, tiles.hand_size) == ("Pai Gow (tiles)", "tiles", 4)
    assert tiles.parts == (("high", 2), ("low", 2))


def test_pai_gow_poker_is_seven_cards_with_the_joker_set_five_and_two() -> None:
    pgp = registry.game(registry.PAIGOW_POKER)
    assert (pgp.name, pgp.noun, pgp.hand_size, pgp.joker) == ("Pai Gow Poker", "cards", 7, True)
    assert pgp.parts == (("high", 5), ("low", 2))


@pytest.mark.parametrize("key", [registry.CHINESE_POKER, registry.OFC])
def test_chinese_poker_and_open_face_are_thirteen_cards_in_three_rows(key: str) -> None:
    spec = registry.game(key)
    assert (spec.noun, spec.hand_size, spec.joker) == ("cards", 13, False)
    assert spec.parts == (("front", 3), ("middle", 5), ("back", 5))
    assert spec.part_names == ("front", "middle", "back")


@pytest.mark.parametrize("key", list(registry.GAMES))
def test_the_parts_of_a_hand_hold_the_whole_hand(key: str) -> None:
    spec = registry.game(key)
    assert sum(size for _, size in spec.parts) == spec.hand_size


def test_the_pai_gow_games_can_be_banked_and_the_points_games_cannot() -> None:
    banked = {key for key, spec in registry.GAMES.items() if spec.bankable}
    assert banked == {registry.PAIGOW_TILES, registry.PAIGOW_POKER}
    assert set(rule_options.BANKED_GAMES) == banked
    assert set(rule_options.POINTS_GAMES) == {registry.CHINESE_POKER, registry.OFC}
    for key in rule_options.POINTS_GAMES:
        assert rule_options.BANKING_MODES_BY_GAME[key] == (rule_options.NO_BANK,)


def test_only_open_face_is_placed_street_by_street() -> None:
    assert [key for key, spec in registry.GAMES.items() if spec.placed_by_street] == [registry.OFC]


def test_the_two_banked_games_have_the_settings_odds() -> None:
    advised = [key for key, spec in registry.GAMES.items() if spec.advice]
    assert advised == [registry.PAIGOW_TILES, registry.PAIGOW_POKER]


def test_the_dealer_gets_a_hand_in_the_banked_games_only() -> None:
    assert {key for key, spec in registry.GAMES.items() if spec.deals_to_dealer} == set(rule_options.BANKED_GAMES)


def test_the_seats_a_table_may_have() -> None:
    seats = {key: spec.seats for key, spec in registry.GAMES.items()}
    assert seats == {
        registry.PAIGOW_TILES: (1, 7),
        registry.PAIGOW_POKER: (1, 6),
        registry.CHINESE_POKER: (2, 4),
        registry.OFC: (2, 4),
    }
    assert seats == SEAT_LIMITS


def test_a_hand_is_read_and_written_in_its_games_notation() -> None:
    tiles, pgp = registry.game(registry.PAIGOW_TILES), registry.game(registry.PAIGOW_POKER)
    assert tiles.text(tiles.parse("6-6 2-4")) == "6-6 4-2"
    assert pgp.text(pgp.parse("as TD jk")) == "As Td Jk"
    with pytest.raises(InvalidHand):
        tiles.parse("As Kd")


def test_an_unknown_game_is_refused_naming_the_games() -> None:
    with pytest.raises(InvalidHand, match="paigow_tiles, paigow_poker, chinese_poker, ofc"):
        registry.game("baccarat")


# --- everything else asks the registry --------------------------------------------------------------


def test_the_rule_sets_and_the_models_use_the_registrys_games() -> None:
    assert rule_options.PAIGOW_TILES is registry.PAIGOW_TILES
    assert rule_options.PAIGOW_POKER is registry.PAIGOW_POKER
    assert rule_options.CHINESE_POKER is registry.CHINESE_POKER
    assert rule_options.OFC is registry.OFC
    assert dict(rule_options.GAME_LABELS) == {key: spec.name for key, spec in registry.GAMES.items()}
    assert list(Game.values) == list(registry.GAMES)


def test_every_game_has_its_engine() -> None:
    for key, spec in registry.GAMES.items():
        if spec.bankable:
            assert engines.banked(key).house_way is not None
        else:
            # The system's deal is set at once by the best arrangement, unless it is placed street by street.
            assert (engines.arranged(key).best is None) == spec.placed_by_street
    assert set(engines.BANKED) | set(engines.ARRANGED) == set(registry.GAMES)


_NAMES = (
    r"[(\[{]?\s*(?:[\w\]\[\"']+\.)*(?:PAIGOW_TILES|PAIGOW_POKER|CHINESE_POKER|OFC|BANKED_GAMES|POINTS_GAMES)\b"
    r"|[(\[{]?\s*[\"'](?:paigow_tiles|paigow_poker|chinese_poker|ofc)[\"']"
)
_GAME = r"(?:\bgame\b|\[[\"']game[\"']\])"  # game, table.game, snapshot["game"]
BRANCH_ON_A_GAME = re.compile(
    rf"{_GAME}\s*(?:==|!=|\bnot\s+in\b|\bin\b)\s*(?:{_NAMES})|(?:{_NAMES})\s*(?:==|!=)\s*{_GAME}"
)


def branches_on_a_game(source: str) -> list[str]:
    """The lines of ``source`` that compare a game with a game's name (or a list of them)."""
    return [line.strip() for line in source.splitlines() if BRANCH_ON_A_GAME.search(line)]


@pytest.mark.parametrize(
    "line",
    [
        "if game == rule_options.OFC:",
        "if round_.table.game != rule_options.PAIGOW_TILES:",
        "if game in rule_options.BANKED_GAMES and is_banked(round_):",
        "elif game not in POINTS_GAMES:",
        'if state == RoundState.DEALT and round_.table.game == "ofc":',
        "tiles = snapshot['game'] == Game.PAIGOW_TILES",
        "if registry.CHINESE_POKER == game:",
        "if game in (PAIGOW_TILES, PAIGOW_POKER):",
        '{% if table.game == "paigow_tiles" %}',
    ],
)
def test_the_checker_spots_a_branch_on_the_games_name(line: str) -> None:
    assert branches_on_a_game(line) == [line]


@pytest.mark.parametrize(
    "line",
    [
        "if rule_set.game != game:",
        "if registry.game(game).bankable:",
        "rows = registry.game(registry.OFC).part_names",
        "return _ENGINE_OPTIONS[game](settings, o)",
        "PAIGOW_TILES = registry.PAIGOW_TILES",
        "options = _engine_options(rule_set_id=rule_set, game=rule_options.CHINESE_POKER)",
    ],
)
def test_the_checker_leaves_asking_the_registry_alone(line: str) -> None:
    assert branches_on_a_game(line) == []


def test_no_code_outside_the_engines_branches_on_the_games_name() -> None:
    games = ROOT / "rules" / "games"
    sources = [
        path
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if games not in path.parents and "migrations" not in path.parts
    ]
    sources += sorted((ROOT / "templates").rglob("*.html")) + sorted((ROOT / "poker_room").rglob("*.html"))
    assert len(sources) > 50, "the scan found too few files"
    found = {
        str(path.relative_to(ROOT)): lines
        for path in sources
        if (lines := branches_on_a_game(path.read_text(encoding="utf-8")))
    }
    assert found == {}, "ask rules.games.registry what the game needs instead of comparing its name"
