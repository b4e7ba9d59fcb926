"""A house way's reason on a German tablet: every clause the engines can write is listed for the translators and
said in German; an English tablet reads the engine's words unchanged.

The clauses are derived from the engines themselves: every tiles hand under every house way and option, and each
pai gow poker way's rules (its two-pair, quads and full-house rows, its straight-or-flush exceptions and breaks),
checked against a sample of dealt hands so that a clause the engine writes and this derivation misses is named.
"""

from __future__ import annotations

import itertools
import random

import pytest
from django.utils import translation

from rules.games import paigow_poker, paigow_tiles_house_way
from rules.games.cards import deck
from rules.games.paigow_poker_ways import HOUSE_WAYS as POKER_WAYS
from rules.games.paigow_tiles_hands import GEE_JOON_SINGLE_RANKS
from rules.way_words import POKER_CLAUSES, TILES_CLAUSES, way_words

_KINDS = ("straight", "flush", "straight flush", "royal flush")


def _poker_clauses() -> set[str]:
    """Every clause the pai gow poker house way can write, read off the engine's fixed rules and each way's data."""
    found = {
        "five aces, kept: a pair of kings goes low",
        "five aces, split: a pair of aces low",
        "four of a kind: kept together",
        "two three of a kinds: a pair from the higher low",
        "full house: the highest pair that does not foul goes low",
        "three of a kind and two pairs: the higher pair low, the full house high",
        "full house: the pair low, three of a kind high",
        "three aces: an ace and the next highest card low",
        "three of a kind: high, the two highest singles low",
        "three pairs: the highest pair low",
        "two pairs, kept together",
        "one pair: the pair high, the two highest singles low",
        "no pair: the highest card high, the next two low",
        "that fouls, so the best setting that does not",
        "equal top cards in the low: the higher suit goes low (spades, hearts, diamonds, clubs)",
    }
    for kind in _KINDS:
        found |= {f"{kind} kept high", f"{kind} kept high, the highest low that keeps it"}
    for way in POKER_WAYS.values():
        for row in way.two_pairs + way.quads:
            found |= {row.split_reason, row.keep_reason} - {""}
        found |= {keep.reason for keep in way.full_house_keeps}
        for name, at_least in (
            ("straight flush", way.break_straight_flush_for),
            ("royal flush", way.break_royal_flush_for),
        ):
            card = {13: "a king", 11: "a jack"}.get(at_least, f"rank {at_least}")
            for kind in ("straight", "flush") + (("straight flush",) if name == "royal flush" else ()):
                found.add(f"{name} broken into a {kind}: {card} or better goes low")
                found.add(f"{name} broken into a {kind}: the highest low that keeps a straight or flush")
        for exception in way.pairs_over_straight:
            for given_up in ("straight or flush", "straight flush", "royal flush"):
                found.add(f"{given_up} given up for the pair rules ({exception.name})")
                found.add(f"{given_up} given up for the pair rules ({exception.name}, the joker pairing the ace)")
    return found


def _tiles_reasons() -> set[str]:
    reasons = set()
    for way in paigow_tiles_house_way.HOUSE_WAYS.values():
        for options in itertools.product(GEE_JOON_SINGLE_RANKS, (True, False), (True, False), (True, False)):
            reasons |= {reason for _, reason in paigow_tiles_house_way._cache(way, options).values()}
    return reasons


def _dealt_poker_reasons(hands_per_way: int) -> set[str]:
    rng = random.Random(20261129)
    cards = list(deck(True))
    return {
        paigow_poker.house_way_explained(rng.sample(cards, 7), way)[1]
        for way in POKER_WAYS
        for _ in range(hands_per_way)
    }


def _clauses(reasons: set[str]) -> set[str]:
    return {clause for reason in reasons for clause in reason.split("; ")}


def test_every_poker_clause_is_listed_for_the_translators() -> None:
    derived = _poker_clauses()
    dealt = _clauses(_dealt_poker_reasons(10_000))

    assert dealt <= derived, f"the engine wrote clauses the derivation misses: {sorted(dealt - derived)}"
    assert derived == set(POKER_CLAUSES), sorted(derived ^ set(POKER_CLAUSES))


def test_every_tiles_clause_is_listed_or_names_its_hands() -> None:
    clauses = _clauses(_tiles_reasons())
    named_hands = {c for c in clauses if c.startswith(("two pairs stay together (", "keep the pair together ("))}

    assert clauses - named_hands == set(TILES_CLAUSES)
    assert len(named_hands) > 100  # every pair beside every other, each spelled by hand_words


@pytest.mark.parametrize("game", ["paigow_poker", "paigow_tiles"])
def test_every_reason_reads_in_german_and_unchanged_in_english(game: str) -> None:
    reasons = _dealt_poker_reasons(2_000) | {
        f"{a}; {b}" for a, b in zip(sorted(_poker_clauses()), sorted(_poker_clauses())[1:], strict=False)
    }
    reasons = reasons if game == "paigow_poker" else _tiles_reasons()
    untranslated = set()
    with translation.override("de"):
        for reason in reasons:
            german = way_words(reason)
            untranslated |= {c for c in reason.split("; ") if c in german.split("; ")}
    assert not untranslated, sorted(untranslated)[:20]
    with translation.override("en"):
        assert all(way_words(reason) == reason for reason in reasons)


@pytest.mark.parametrize(
    ("english", "german"),
    [
        ("two pairs, split: aces with any pair", "zwei Paare, geteilt: Asse mit beliebigem Paar"),
        ("flush kept high", "Flush bleibt hoch"),
        (
            "two pairs stay together (pair of Teens and Gee Joon)",
            "zwei Paare bleiben zusammen (Paar Teen und Gee Joon)",
        ),
    ],
)
def test_a_german_dealer_reads_the_house_way_in_german(english: str, german: str) -> None:
    with translation.override("de"):
        assert way_words(english) == german


def test_a_reason_of_no_known_clause_comes_back_as_it_was() -> None:
    with translation.override("de"):
        assert way_words("a rule from a newer engine") == "a rule from a newer engine"
        assert way_words("") == ""
