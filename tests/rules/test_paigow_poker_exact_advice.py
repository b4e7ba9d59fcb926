"""Exact Pai Gow Poker advice: every setting of seven cards against all 53,524,680 bank hands, counted by rank
multisets and the flush hands, equal to setting every bank hand one by one; the flush memo that lets the house way
set every hand by its tables, kept in var/ and read back."""

from __future__ import annotations

import itertools
from pathlib import Path
from unittest import mock

import numpy as np
import pytest

from rules.games import paigow_poker_batch
from rules.games.cards import ALL_CARDS, parse_cards
from rules.games.paigow_poker import house_way
from rules.games.paigow_poker_advice import _bank_value_counts, _exact_counts, _low_table, advise
from rules.games.paigow_poker_batch import (
    flush_hands,
    flush_memo_complete,
    flush_memo_file,
    flush_memo_prepare,
    flush_possible,
    house_way_many,
)
from rules.games.poker_batch import evaluate_many

OPTIONS = {"wheel_second_highest": True, "joker_flush_as_ace": False}


@pytest.fixture
def fresh_memos() -> object:
    """Every way's memo empty again, as in a new process (and again after the test)."""
    paigow_poker_batch._flush_memo.cache_clear()
    yield
    paigow_poker_batch._flush_memo.cache_clear()


@pytest.mark.parametrize("with_joker", [True, False])
def test_the_flush_hands_are_every_hand_of_the_cards_in_which_a_suit_holds_five_each_once(with_joker: bool) -> None:
    rng = np.random.default_rng(7)
    cards = sorted(rng.choice(52, 15, replace=False).tolist()) + ([52] if with_joker else [])
    every = np.array(list(itertools.combinations(cards, 7)), dtype=np.uint8)
    expected = {tuple(row) for row in every[flush_possible(every)].tolist()}
    listed = [tuple(sorted(row)) for row in flush_hands(cards).tolist()]
    assert len(listed) == len(set(listed)) and set(listed) == expected
    assert len(flush_hands(range(53))) == 6_416_124


def _bank_values(rows: np.ndarray, way: str) -> tuple[np.ndarray, np.ndarray]:
    high, low = house_way_many(rows, way, **OPTIONS)
    return evaluate_many(high, **OPTIONS).astype(np.int64), _low_table()[low[:, 0], low[:, 1]]


@pytest.mark.parametrize("way", ["golden_nugget", "trump_plaza"])
def test_the_counts_by_multisets_and_flushes_are_the_hands_set_one_by_one(way: str) -> None:
    """On 18 cards (31,824 bank hands) the grouped counts and the bins give each setting the wins and losses that
    comparing every bank hand with it gives."""
    rng = np.random.default_rng(11)
    rest = np.array(sorted(rng.choice(52, 17, replace=False).tolist()) + [52], dtype=np.uint8)
    every = np.array(list(itertools.combinations(rest.tolist(), 7)), dtype=np.uint8)
    bank_high, bank_low = _bank_values(every, way)
    high, low, hands = _bank_value_counts(rest, way, OPTIONS)
    assert hands.sum() == len(every)
    # Settings' values taken from bank hands themselves, so that ties (copies) are tried too.
    picks = rng.choice(len(every), 40, replace=False)
    player_high, player_low = bank_high[picks][:, None], bank_low[picks][:, None]
    wins, losses, total = _exact_counts(rest, way, OPTIONS, player_high, player_low)
    assert total == len(every)
    for k in range(len(picks)):
        assert wins[k] == np.sum((player_high[k] > bank_high) & (player_low[k] > bank_low))
        assert losses[k] == np.sum((player_high[k] <= bank_high) & (player_low[k] <= bank_low))


def test_exact_advice_is_the_enumeration_of_every_bank_hand_to_the_hand() -> None:
    cards = parse_cards("Jk Ks Qd Jh Tc 5s 5d")
    counted = advise(cards, "trump_plaza", exact=True)
    enumerated = advise(cards, "trump_plaza", exact=True, enumerate_every_hand=True)
    assert counted.exact and counted.bank_hands == enumerated.bank_hands == 53_524_680 and counted.margin == 0
    for a, b in zip(counted.settings, enumerated.settings, strict=True):
        assert (a.setting, a.win, a.push, a.loss, a.ev) == (b.setting, b.win, b.push, b.loss, b.ev)
    assert counted.best.setting == enumerated.best.setting


@pytest.mark.usefixtures("fresh_memos")
def test_the_memo_is_kept_read_back_and_then_sets_every_hand_by_the_tables(tmp_path: Path) -> None:
    assert not flush_memo_complete("foxwoods")
    assert advise(parse_cards("As Ad Kh Kc 7s 4d 2c"), "foxwoods", samples=2_000).exact is False  # sampled until then
    assert flush_memo_prepare("foxwoods", directory=tmp_path) is False  # set here, and written
    path = flush_memo_file(tmp_path, "foxwoods", (True, False))
    assert path.exists() and flush_memo_complete("foxwoods")
    keys = paigow_poker_batch._flush_memo("foxwoods", True, False).keys.copy()

    paigow_poker_batch._flush_memo.cache_clear()  # a new process
    assert flush_memo_prepare("foxwoods", directory=tmp_path) is True
    assert np.array_equal(paigow_poker_batch._flush_memo("foxwoods", True, False).keys, keys)
    rows = flush_hands(range(53))[::997]
    with mock.patch.object(paigow_poker_batch, "_pick_of", side_effect=AssertionError("set one by one")):
        high, low = house_way_many(rows, "foxwoods")
    for row, h, lo in zip(rows.tolist()[:300], high.tolist(), low.tolist(), strict=False):
        setting = house_way([ALL_CARDS[i] for i in row], "foxwoods")
        assert ([c.index for c in setting.high], [c.index for c in setting.low]) == (h, lo)
    assert advise(parse_cards("As Ad Kh Kc 7s 4d 2c"), "foxwoods").exact is True


def test_a_memo_set_by_other_rules_or_another_engine_is_not_read(tmp_path: Path) -> None:
    names = {
        flush_memo_file(tmp_path, "golden_nugget", (True, False)),
        flush_memo_file(tmp_path, "golden_nugget", (False, False)),
        flush_memo_file(tmp_path, "golden_nugget", (True, True)),
        flush_memo_file(tmp_path, "trump_plaza", (True, False)),
    }
    assert len(names) == 4
    with mock.patch.object(paigow_poker_batch, "_ENGINE_SOURCES", paigow_poker_batch._ENGINE_SOURCES[:-1]):
        assert flush_memo_file(tmp_path, "golden_nugget", (True, False)) not in names


@pytest.mark.usefixtures("fresh_memos")
def test_a_memo_file_cut_short_is_set_again_and_replaced(tmp_path: Path) -> None:
    path = flush_memo_file(tmp_path, "trump_plaza", (True, False))
    path.write_bytes(b"PK\x03\x04 cut short")  # a writer killed mid-file (before the rename existed)
    assert flush_memo_prepare("trump_plaza", directory=tmp_path) is False  # not read: set again
    assert flush_memo_complete("trump_plaza")
    paigow_poker_batch._flush_memo.cache_clear()
    assert flush_memo_prepare("trump_plaza", directory=tmp_path) is True  # the replaced file reads
    assert not list(tmp_path.glob("*.partial.npz"))


@pytest.mark.usefixtures("fresh_memos")
def test_the_memo_made_complete_while_another_thread_sets_hands_loses_nothing() -> None:
    """The tablet's sampled advice adds to the memo while the warm-up completes it: every row is still set as the
    per-hand way sets it, and the complete memo is the one put in place."""
    import threading

    rows = flush_hands(range(53))[::211]
    done: list[tuple[np.ndarray, np.ndarray]] = []
    worker = threading.Thread(target=lambda: done.append(house_way_many(rows, "golden_nugget")))
    worker.start()
    flush_memo_prepare("golden_nugget")
    worker.join()
    high, low = done[0]
    for row, h, lo in zip(rows.tolist()[:200], high.tolist(), low.tolist(), strict=False):
        setting = house_way([ALL_CARDS[i] for i in row], "golden_nugget")
        assert ([c.index for c in setting.high], [c.index for c in setting.low]) == (h, lo)
    assert flush_memo_complete("golden_nugget")
    assert len(paigow_poker_batch._flush_memo("golden_nugget", True, False).keys) == 98_575
