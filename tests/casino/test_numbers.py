"""Numbers as the pages show them and as people type them: the active language's decimal mark, thousands grouped
by a thin space; an amount typed either way is read the one way, and an ambiguous one is refused."""

from __future__ import annotations

import pytest
from django import forms
from django.template import Context, Template
from django.utils import translation

from casino import numbers
from casino.forms import AmountField


@pytest.mark.parametrize(
    ("language", "amount", "signed", "count", "share", "day"),
    [
        ("en", "2\u2009000.00", "-12.05", "1\u2009000\u2009000", "11.9", "2026-11-29"),
        ("de", "2\u2009000,00", "-12,05", "1\u2009000\u2009000", "11,9", "29.11.2026"),
    ],
)
def test_a_figure_is_written_in_the_pages_language(
    language: str, amount: str, signed: str, count: str, share: str, day: str
) -> None:
    with translation.override(language):
        assert numbers.amount(200000) == amount
        assert numbers.signed_amount(-1205) == signed and numbers.signed_amount(2500).startswith("+25")
        assert numbers.whole(1_000_000) == count
        assert numbers.decimal(11.94, 1) == share
        page = Template('{% load money %}{{ a|cents }} {{ d|date:"SHORT_DATE_FORMAT" }} {{ p|floatformat:1 }}').render(
            Context({"a": 200000, "d": __import__("datetime").date(2026, 11, 29), "p": 11.94})
        )
        assert page == f"{amount} {day} {share}"


def test_a_half_is_rounded_up_not_to_even() -> None:
    with translation.override("de"):
        assert numbers.decimal(-0.46525, 4) == "-0,4653" and numbers.decimal(0.125, 2) == "0,13"


@pytest.mark.parametrize(
    ("typed", "cents"),
    [
        ("25", 2500),
        ("25.5", 2550),
        ("25,50", 2550),
        ("2 000,00", 200000),
        ("2\u2009000.00", 200000),
        ("1\u202f000\u202f000", 100000000),
        ("0,05", 5),
    ],
)
def test_an_amount_is_read_with_either_mark_and_grouped_as_the_pages_write_it(typed: str, cents: int) -> None:
    assert AmountField(most_cents=10**12).clean(typed) == cents


@pytest.mark.parametrize("typed", ["1,000", "1.000", "2 00", "20 000 000 000 000", "25,", "-5", "1,5,0", "25.000"])
def test_an_amount_that_could_be_read_two_ways_is_refused(typed: str) -> None:
    with pytest.raises(forms.ValidationError, match="units and cents"):
        AmountField(most_cents=10**12).clean(typed)


def test_the_refusal_shows_the_example_in_the_readers_language() -> None:
    with translation.override("de"), pytest.raises(forms.ValidationError) as refused:
        AmountField(most_cents=10**6).clean("abc")
    assert "25,00" in str(refused.value)


def test_a_list_of_amounts_is_not_read_as_decimals_in_german() -> None:
    with translation.override("de"):
        assert numbers.amounts([500, 1000, 200000]) == "5,00; 10,00; 2\u2009000,00"
    with translation.override("en"):
        assert numbers.amounts([500, 1000]) == "5.00, 10.00"
