"""The director's notation on the console (``poker_room.tournaments.forms``): a structure and a payout table typed as
lines of text, read back exactly as they are shown, and a line that cannot be read refused by its number."""

from __future__ import annotations

from typing import Any

import pytest

from casino.errors import ApplicationError
from poker_room.pure.payouts import HOUSE_PAYOUTS, PayoutBand
from poker_room.pure.structure import structure_from_dicts
from poker_room.pure.templates_data import template_structure, templates
from poker_room.tournaments.forms import chips_parse, payouts_parse, payouts_text, structure_parse, structure_text

LINES = [
    # (typed, kind, minutes, hands, small blind, big blind, ante, ante kind, game, colour-up)
    ("20 min 100/200", "level", 20, None, 100, 200, 0, "none", "", None),
    ("20 min 200/400 bb ante 400", "level", 20, None, 200, 400, 400, "big_blind", "", None),
    ("15 min 25/50 ante 5", "level", 15, None, 25, 50, 5, "classic", "", None),
    ("7 hands 25/50", "level", None, 7, 25, 50, 0, "none", "", None),
    ("20 min 1,000/2,000 BBA 2,000 nlo", "level", 20, None, 1000, 2000, 2000, "big_blind", "nlo", None),
    ("Level 5: 20 Min 1.500/3.000 Ante 3.000 omaha", "level", 20, None, 1500, 3000, 3000, "classic", "omaha", None),
    ("100/200 20m", "level", 20, None, 100, 200, 0, "none", "", None),
    ("break 15 min colour up 25", "break", 15, None, 0, 0, 0, "none", "", 25),
    ("Pause 10 Minuten Farbwechsel 100", "break", 10, None, 0, 0, 0, "none", "", 100),
    ("break 15", "break", 15, None, 0, 0, 0, "none", "", None),
]


@pytest.mark.parametrize(("typed", *"kmhsbaqgc"), LINES, ids=[row[0] for row in LINES])
def test_a_structure_line_is_read_as_the_director_wrote_it(typed: str, k, m, h, s, b, a, q, g, c) -> None:
    (row,) = structure_parse(typed)
    assert (row["kind"], row["minutes"], row["hands"], row["small_blind"], row["big_blind"]) == (k, m, h, s, b)
    assert (row["ante"], row["ante_kind"], row["game"], row["colour_up"]) == (a, q, g, c)


REFUSED_LINES = [
    ("20 min 100", "Line 1: a level needs its blinds"),
    ("100/200", "Line 1: a level needs its length"),
    ("20 min 100/200 ante 25 bb ante 50", "Line 1: a level has one ante"),
    ("20 min 100/200 nlhe omaha", "Line 1: a level plays one game"),
    ("20 min 100/200\n\n# a note\nbreak", "Line 4: a break needs its length"),
    ("20 min 100/200 turbo", "Line 1: “turbo” is not understood."),
    ("", "Type the structure"),
]


@pytest.mark.parametrize(("typed", "said"), REFUSED_LINES, ids=[row[1] for row in REFUSED_LINES])
def test_a_structure_line_that_cannot_be_read_is_refused_by_its_number(typed: str, said: str) -> None:
    with pytest.raises(ApplicationError) as refused:
        structure_parse(typed)
    assert refused.value.message.startswith(said)
    assert refused.value.extra["field"] == "levels"


@pytest.mark.parametrize("template", templates(), ids=lambda t: t.key)
def test_every_templates_structure_reads_back_as_it_is_shown(template: Any) -> None:
    levels = template_structure(template)
    assert structure_from_dicts(structure_parse(structure_text(levels))) == levels


BANDS = [
    ("1-10: 50/30/20", PayoutBand(1, 10, (5000, 3000, 2000))),
    ("11–20: 50 / 25 / 15 / 10", PayoutBand(11, 20, (5000, 2500, 1500, 1000))),
    ("201+: 24/15.5/60.5", PayoutBand(201, None, (2400, 1550, 6050))),
    ("31 or more players: 40%/30%/20%/10%", PayoutBand(31, None, (4000, 3000, 2000, 1000))),
    ("2: 100", PayoutBand(2, 2, (10000,))),
    ("5 bis 9: 62,5/37,5", PayoutBand(5, 9, (6250, 3750))),
]


@pytest.mark.parametrize(("typed", "band"), BANDS, ids=[row[0] for row in BANDS])
def test_a_payout_band_is_read_in_per_cent(typed: str, band: PayoutBand) -> None:
    assert payouts_parse(typed) == [band]


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("1-10 50/30/20", "Line 1: write the field sizes, a colon and the shares"),
        ("1-10: 50/3x/20", "Line 1: “3x” is not a share in per cent"),
        ("1-10: 50/30/20\n11-20:", "Line 2: the band pays no place"),
        ("1-10: 33.333/33.333/33.334", "Line 1: “33.333” is not a share in per cent"),
        ("# only a note", "Type the payout table"),
    ],
)
def test_a_payout_line_that_cannot_be_read_is_refused_by_its_number(typed: str, said: str) -> None:
    with pytest.raises(ApplicationError) as refused:
        payouts_parse(typed)
    assert refused.value.message.startswith(said)


def test_the_houses_payout_table_reads_back_as_it_is_shown() -> None:
    assert tuple(payouts_parse(payouts_text(HOUSE_PAYOUTS))) == HOUSE_PAYOUTS


@pytest.mark.parametrize(
    ("typed", "chips"),
    [("25 100 500 1000 5000", [25, 100, 500, 1000, 5000]), ("25, 100;500", [25, 100, 500])],
)
def test_the_houses_chips_are_read_as_whole_numbers(typed: str, chips: list[int]) -> None:
    assert chips_parse(typed) == chips


@pytest.mark.parametrize("typed", ["", "25 1.5", "twenty-five"])
def test_chips_that_are_not_whole_numbers_are_refused(typed: str) -> None:
    with pytest.raises(ApplicationError, match="whole numbers"):
        chips_parse(typed)
