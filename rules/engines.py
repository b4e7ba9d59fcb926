"""Which engine plays which game: one mapping, keyed by game, to the engine functions the code around them calls.

What a game *is* (tiles or cards, the parts of a hand and their sizes, whether it can be
banked, whether it is placed street by street) is the registry's (``rules.games.registry``).
What differs between the engines (the setting of a banked hand, its house way, its foul and
its outcome; the arrangement a game's rows make) is here, so settling a round and the
dealer tablet look a game's engine up instead of branching on the game's name. A new game
is one more registry entry, its engine module and its line here.

Pure Python, nothing touches the database; the functions take the keyword arguments of
``rules.options.engine_options``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.games import chinese_poker, ofc, paigow_poker, paigow_tiles, poker, registry


@dataclass(frozen=True)
class Banked:
    """The engine of a game set into a high and a low hand and played against a bank (GAME_RULES.md §1, §2).

    ``setting(high, low)`` is the engine's setting of two hands; ``house_way(items, **engine["house_way"])``
    sets a whole hand by the house way and says why; ``is_foul(setting, **engine["hand"])``;
    ``outcome(seat, bank, **engine["outcome"])``; ``value(part, items, **engine["hand"])`` is what one
    part ("high" or "low") is worth; ``peer_results`` settles the variant without a bank, each player
    against each (Pai Gow tiles' peer variant; None where the game has none).
    """

    setting: Callable[[tuple[Any, ...], tuple[Any, ...]], Any]
    house_way: Callable[..., tuple[Any, str]]
    is_foul: Callable[..., bool]
    outcome: Callable[..., Any]
    value: Callable[..., Any]
    peer_results: Callable[..., Any] | None = None


@dataclass(frozen=True)
class Arranged:
    """The engine of a game set into rows (Chinese Poker; Open-Face's finished boards).

    ``build(rows)`` is the arrangement the rows make (in the registry's order of the parts);
    ``is_foul(arrangement)``; ``best(cards, **engine["score"])`` the best arrangement of a whole
    hand, as the house sets the system's deal (None where the game is placed street by street).
    """

    build: Callable[[Sequence[tuple[Any, ...]]], Any]
    is_foul: Callable[[Any], bool]
    best: Callable[..., Any] | None = None


def _pgp_value(part: str, items: Sequence[Any], **hand: Any) -> Any:
    """A Pai Gow Poker part: the high hand a five-card poker hand, the low hand a two-card one (§2)."""
    return poker.high_hand(items, **hand) if part == "high" else poker.low_hand(items)


def _cp_best(cards: Sequence[Any], *, scoring: str, royalties: str, **_score: Any) -> Any:
    return chinese_poker.suggest(cards, top=1, scoring=scoring, royalties=royalties)[0].arrangement


BANKED: Mapping[str, Banked] = {
    registry.PAIGOW_TILES: Banked(
        setting=paigow_tiles.Setting,
        house_way=paigow_tiles.house_way_explained,
        is_foul=paigow_tiles.is_foul,
        outcome=paigow_tiles.outcome,
        value=lambda part, items, **hand: paigow_tiles.hand_value(items, **hand),
        peer_results=paigow_tiles.peer_results,
    ),
    registry.PAIGOW_POKER: Banked(
        setting=paigow_poker.Setting,
        house_way=paigow_poker.house_way_explained,
        is_foul=paigow_poker.is_foul,
        outcome=paigow_poker.outcome,
        value=_pgp_value,
    ),
}

ARRANGED: Mapping[str, Arranged] = {
    registry.CHINESE_POKER: Arranged(
        build=lambda rows: chinese_poker.Arrangement(*rows), is_foul=chinese_poker.is_foul, best=_cp_best
    ),
    registry.OFC: Arranged(build=lambda rows: ofc.Board.from_rows(*rows), is_foul=ofc.is_foul),
}


def banked(game: str) -> Banked:
    """The engine of a bankable game (``registry.game(game).bankable``)."""
    return BANKED[registry.game(game).key]


def arranged(game: str) -> Arranged:
    """The engine of a game set into rows (one that cannot be banked)."""
    return ARRANGED[registry.game(game).key]
