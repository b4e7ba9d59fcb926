"""A house way's reason in the active language.

The engines (``rules.games``) import no Django and write the rule that set the bank's hand in English, as the API
answers it and a settled round keeps it: clauses joined by "; " ("straight or flush given up for the pair rules (two
pairs beside it); two pairs, split: aces with any pair"). Every clause is one of a finite set, listed here for the
translators: the pai gow poker clauses of every house way, and the tiles' clauses but two, which name the hands they
keep ("two pairs stay together (pair of Teens and Gee Joon)"); those two are read by their grammar and the hands
said by ``hand_words``. ``tests/rules/test_way_words.py`` derives every clause from the engines (every tiles hand
under every option, every poker way's rules and a sample of hands) and names one missing here.

>>> way_words("maximize the low hand")  # no language active: English, unchanged
'maximize the low hand'
"""

from __future__ import annotations

import re

from django.utils.translation import gettext, gettext_noop

from rules.hand_words import hand_words

# Pai gow poker: the fixed clauses, and those each house way's data writes (``paigow_poker_ways``).
POKER_CLAUSES = (
    gettext_noop("equal top cards in the low: the higher suit goes low (spades, hearts, diamonds, clubs)"),
    gettext_noop("five aces, kept: a pair of kings goes low"),
    gettext_noop("five aces, split: a pair of aces low"),
    gettext_noop("flush kept high"),
    gettext_noop("flush kept high, the highest low that keeps it"),
    gettext_noop("four aces: kept, a pair goes low"),
    gettext_noop("four aces: kept, a pair of sevens or better goes low"),
    gettext_noop("four aces: split, no pair of sevens or better to go low"),
    gettext_noop("four aces: split, no pair to go low"),
    gettext_noop("four of a kind, jacks to aces: kept, a pair goes low"),
    gettext_noop("four of a kind, jacks to aces: split, no pair to go low"),
    gettext_noop("four of a kind, jacks to kings: kept, a pair of tens or better goes low"),
    gettext_noop("four of a kind, jacks to kings: kept, an ace or a pair goes low"),
    gettext_noop("four of a kind, jacks to kings: split, no ace or pair to go low"),
    gettext_noop("four of a kind, jacks to kings: split, no pair of tens or better to go low"),
    gettext_noop("four of a kind, sevens to tens: kept, a king or better or a pair goes low"),
    gettext_noop("four of a kind, sevens to tens: kept, an ace or a pair goes low"),
    gettext_noop("four of a kind, sevens to tens: split, no ace or pair to go low"),
    gettext_noop("four of a kind, sevens to tens: split, no king or better or pair to go low"),
    gettext_noop("four of a kind, sixes or lower: never split"),
    gettext_noop("four of a kind, twos to sixes: never split"),
    gettext_noop("four of a kind: kept together"),
    gettext_noop("full house kept: twos, and an ace and a king go low"),
    gettext_noop("full house: the highest pair that does not foul goes low"),
    gettext_noop("full house: the pair low, three of a kind high"),
    gettext_noop("no pair: the highest card high, the next two low"),
    gettext_noop("one pair: the pair high, the two highest singles low"),
    gettext_noop("royal flush broken into a flush: a king or better goes low"),
    gettext_noop("royal flush broken into a flush: the highest low that keeps a straight or flush"),
    gettext_noop("royal flush broken into a straight flush: a king or better goes low"),
    gettext_noop("royal flush broken into a straight flush: the highest low that keeps a straight or flush"),
    gettext_noop("royal flush broken into a straight: a king or better goes low"),
    gettext_noop("royal flush broken into a straight: the highest low that keeps a straight or flush"),
    gettext_noop("royal flush given up for the pair rules (aces and any pair)"),
    gettext_noop("royal flush given up for the pair rules (aces and any pair, the joker pairing the ace)"),
    gettext_noop("royal flush given up for the pair rules (jacks and sixes)"),
    gettext_noop("royal flush given up for the pair rules (jacks and sixes, the joker pairing the ace)"),
    gettext_noop("royal flush given up for the pair rules (two pairs and a single ace)"),
    gettext_noop("royal flush given up for the pair rules (two pairs and a single ace, the joker pairing the ace)"),
    gettext_noop("royal flush given up for the pair rules (two pairs beside it)"),
    gettext_noop("royal flush given up for the pair rules (two pairs beside it, the joker pairing the ace)"),
    gettext_noop("royal flush kept high"),
    gettext_noop("royal flush kept high, the highest low that keeps it"),
    gettext_noop("straight flush broken into a flush: a jack or better goes low"),
    gettext_noop("straight flush broken into a flush: the highest low that keeps a straight or flush"),
    gettext_noop("straight flush broken into a straight: a jack or better goes low"),
    gettext_noop("straight flush broken into a straight: the highest low that keeps a straight or flush"),
    gettext_noop("straight flush given up for the pair rules (aces and any pair)"),
    gettext_noop("straight flush given up for the pair rules (aces and any pair, the joker pairing the ace)"),
    gettext_noop("straight flush given up for the pair rules (jacks and sixes)"),
    gettext_noop("straight flush given up for the pair rules (jacks and sixes, the joker pairing the ace)"),
    gettext_noop("straight flush given up for the pair rules (two pairs and a single ace)"),
    gettext_noop("straight flush given up for the pair rules (two pairs and a single ace, the joker pairing the ace)"),
    gettext_noop("straight flush given up for the pair rules (two pairs beside it)"),
    gettext_noop("straight flush given up for the pair rules (two pairs beside it, the joker pairing the ace)"),
    gettext_noop("straight flush kept high"),
    gettext_noop("straight flush kept high, the highest low that keeps it"),
    gettext_noop("straight kept high"),
    gettext_noop("straight kept high, the highest low that keeps it"),
    gettext_noop("straight or flush given up for the pair rules (aces and any pair)"),
    gettext_noop("straight or flush given up for the pair rules (aces and any pair, the joker pairing the ace)"),
    gettext_noop("straight or flush given up for the pair rules (jacks and sixes)"),
    gettext_noop("straight or flush given up for the pair rules (jacks and sixes, the joker pairing the ace)"),
    gettext_noop("straight or flush given up for the pair rules (two pairs and a single ace)"),
    gettext_noop(
        "straight or flush given up for the pair rules (two pairs and a single ace, the joker pairing the ace)"
    ),
    gettext_noop("straight or flush given up for the pair rules (two pairs beside it)"),
    gettext_noop("straight or flush given up for the pair rules (two pairs beside it, the joker pairing the ace)"),
    gettext_noop("that fouls, so the best setting that does not"),
    gettext_noop("three aces: an ace and the next highest card low"),
    gettext_noop("three of a kind and two pairs: the higher pair low, the full house high"),
    gettext_noop("three of a kind: high, the two highest singles low"),
    gettext_noop("three pairs: the highest pair low"),
    gettext_noop("two pairs, kept together"),
    gettext_noop("two pairs, kept together: a pair of sevens or better, an ace goes low"),
    gettext_noop("two pairs, kept together: aces with any pair"),
    gettext_noop("two pairs, kept together: big pair jacks or better"),
    gettext_noop("two pairs, kept together: big pair sevens to tens, an ace goes low"),
    gettext_noop("two pairs, kept together: big pair sixes or lower, a king or better goes low"),
    gettext_noop("two pairs, kept together: both below sevens"),
    gettext_noop("two pairs, kept together: jacks or better with sixes or better"),
    gettext_noop("two pairs, kept together: low with high, an ace goes low"),
    gettext_noop("two pairs, kept together: low with low or medium, a king or better goes low"),
    gettext_noop("two pairs, kept together: medium or high with high"),
    gettext_noop("two pairs, kept together: medium with medium, an ace goes low"),
    gettext_noop("two pairs, split: a pair of sevens or better, no ace to go low"),
    gettext_noop("two pairs, split: aces with any pair"),
    gettext_noop("two pairs, split: big pair jacks or better"),
    gettext_noop("two pairs, split: big pair sevens to tens, no ace to go low"),
    gettext_noop("two pairs, split: big pair sixes or lower, no king or better to go low"),
    gettext_noop("two pairs, split: both below sevens"),
    gettext_noop("two pairs, split: jacks or better with sixes or better"),
    gettext_noop("two pairs, split: low with high, no ace to go low"),
    gettext_noop("two pairs, split: low with low or medium, no king or better to go low"),
    gettext_noop("two pairs, split: medium or high with high"),
    gettext_noop("two pairs, split: medium with medium, no ace to go low"),
    gettext_noop("two three of a kinds: a pair from the higher low"),
)

# Pai gow tiles (``paigow_tiles_house_way``), but for the two below that name hands.
TILES_CLAUSES = (
    gettext_noop("Teen or Day with a 7-9: gong"),
    gettext_noop("Teen or Day with a 7-9: gong before high nine, a low 8 with a 5"),
    gettext_noop("Teen or Day with a 7-9: gong before high nine, the fourth tile is a 4"),
    gettext_noop("Teen or Day with a 7-9: gong first"),
    gettext_noop("Teen or Day with a 7-9: high nine"),
    gettext_noop("Teen or Day with a 7-9: high nine first"),
    gettext_noop("Teen or Day with a 7-9: wong"),
    gettext_noop("Teen or Day with a 7-9: wong first, the fourth tile is an 11"),
    gettext_noop("maximize the high hand (the best low is below high 3, the best high 7 or more)"),
    gettext_noop("maximize the low hand"),
    gettext_noop("never split a pair of 4s, 5s, 6s, 10s or 11s"),
    gettext_noop("split 2s and 12s for 6/8 or better"),
    gettext_noop("split 2s and 12s with a 9 and an 11"),
    gettext_noop("split 7s with 2, 10, 11 or 12"),
    gettext_noop("split 8s with 2, 10, 11 or 12"),
    gettext_noop("split 8s with a 9 and an 11"),
    gettext_noop("split 9s with 2, 10 or 12"),
    gettext_noop("split the Gee Joon with 6-4, 6-5 or 6-6"),
)

_TWO_PAIRS = re.compile(r"two pairs stay together \((?P<high>.+?) and (?P<low>(?:pair of |Gee Joon).*)\)")
_KEEP_PAIR = re.compile(r"keep the pair together \((?P<what>.+)\): no split rule applies")


def _clause(text: str) -> str:
    match = _TWO_PAIRS.fullmatch(text)
    if match is not None:
        return gettext("two pairs stay together (%(high)s and %(low)s)") % {
            "high": hand_words(match["high"]),
            "low": hand_words(match["low"]),
        }
    match = _KEEP_PAIR.fullmatch(text)
    if match is not None:
        hands = match["what"].split(" and ")
        what = gettext(" and ").join(hand_words(hand) for hand in hands)
        return gettext("keep the pair together (%(what)s): no split rule applies") % {"what": what}
    return gettext(text)


def way_words(text: str) -> str:
    """The engine's reason (English) in the active language, clause by clause; a clause not known as it came."""
    return "; ".join(_clause(clause) for clause in text.split("; ")) if text else text
