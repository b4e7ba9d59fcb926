"""The league's standings as a PDF (``poker_room.leagues.pdf``): the stacks' rounding said as a sentence reads it,
the names players really have (long, Cyrillic, Chinese, looking like markup) printed as typed and never off the
page, a long season in even tables of its events, and an empty league."""

from __future__ import annotations

import io
from decimal import Decimal
from typing import Any

import pytest
from pypdf import PdfReader

from poker_room.leagues import services as leagues
from poker_room.leagues.models import League
from poker_room.leagues.pdf import PAGE_WIDTH, event_chunks, standings_pdf
from poker_room.leagues.selectors import Cell, EventLine, StandingLine, Standings
from poker_room.tournaments.models import Tournament
from tests.poker_room.leagues.play import pdf_text, play

pytestmark = pytest.mark.django_db


ROUNDED = {
    "down": "rounded down to a multiple of 25",
    "nearest": "rounded to the nearest multiple of 25",
    "up": "rounded up to a multiple of 25",
}


@pytest.mark.parametrize("rounding", ["down", "nearest", "up"])
def test_the_page_and_the_pdf_say_how_the_stacks_are_rounded(client, director, make_tournament, rounding) -> None:
    league = leagues.league_create(
        actor=director, name="Mainz League", season="2026", chips_per_point=100, chip_rounding=rounding
    )
    event = play(director, make_tournament, ["Anna", "Ben", "Cem"])
    leagues.league_event_add(actor=director, league=league, tournament_id=event.pk)
    client.force_login(director)
    page = " ".join(client.get(f"/poker-room/leagues/{league.pk}/").content.decode().split())
    assert f"each with a stack of 100 chips a point, {ROUNDED[rounding]}." in page
    assert "to the 25 chip" not in page
    text = pdf_text(client.get(f"/poker-room/leagues/{league.pk}/standings.pdf").content)
    assert f"Master Class: the top 10, 100 chips a point, {ROUNDED[rounding]}." in text
    assert "to the 25 chip" not in text and "chip to the" not in text


NAMES = ["Maximilian " + "Alexander-" * 10 + "Ende", "Анна Шмидт", "李小龍", "<b>Bold</b> & <i>Co</i>", "Zoë Ørsted"]


def _season(events: int) -> Standings:
    league = League(name="Mainz <League>", season="2026", chips_per_point=100, chip_rounding="nearest")
    lines = tuple(
        StandingLine(
            rank=rank,
            key=f"n:{rank}",
            name=name,
            player_id=None,
            total=Decimal("123.45"),
            cells=tuple(Cell(rank, Decimal("44.72"), "counted" if event % 3 else "dropped") for event in range(events)),
            wins=0,
            cashes=0,
            events=events,
            best_finish=rank,
            invited=rank <= 3,
            chips=12_350,
        )
        for rank, name in enumerate(NAMES, start=1)
    )
    return Standings(
        league,
        tuple(
            EventLine(n, Tournament(name=f"Friday Night {n}"), True, 20, 9_000, 180_000) for n in range(1, events + 1)
        ),
        lines,
        "",
        25,
    )


def _placed_text(body: bytes) -> list[tuple[float, str]]:
    """Each piece of text of the PDF with where it starts across the page."""
    found: list[tuple[float, str]] = []
    for page in PdfReader(io.BytesIO(body)).pages:

        def seen(text: str, cm: Any, tm: Any, *_: Any) -> None:
            if text.strip():
                found.append((tm[4] * cm[0] + cm[4], text.strip()))

        page.extract_text(visitor_text=seen)
    return found


@pytest.mark.parametrize("events", [3, 12, 30])
def test_the_pdf_prints_every_name_as_typed_and_nothing_runs_off_the_page(events) -> None:
    found = _season(events)
    body = standings_pdf(found.league, found)
    text = pdf_text(body)
    for name in ("Анна Шмидт", "李小龍", "<b>Bold</b> & <i>Co</i>", "Zoë Ørsted", "Mainz <League>"):
        assert name in text, name
    assert "Alexander-Alexander-" in text
    placed = _placed_text(body)
    right = PAGE_WIDTH + 15 * 72 / 25.4  # the right margin's edge
    assert all(x < right for x, _text in placed), [item for item in placed if item[0] >= right][:3]
    heads = [item for _x, item in placed]
    assert "Points" in heads and "Stack" in heads and f"#{events}" in heads and "12,350" in heads


def test_a_long_season_is_printed_in_even_tables_of_its_events() -> None:
    assert [len(chunk) for chunk in event_chunks(3)] == [3]
    assert [len(chunk) for chunk in event_chunks(12)] == [12]
    assert [len(chunk) for chunk in event_chunks(13)] == [7, 6]  # not 12 and 1
    assert [len(chunk) for chunk in event_chunks(30)] == [10, 10, 10]
    assert sum(event_chunks(52), []) == list(range(52)) and event_chunks(0) == [[]]


def test_an_empty_league_has_a_pdf_that_says_so(client, director) -> None:
    league = leagues.league_create(actor=director, name="Empty", season="2026")
    client.force_login(director)
    response = client.get(f"/poker-room/leagues/{league.pk}/standings.pdf")
    assert response.status_code == 200 and "No finished event yet." in pdf_text(response.content)
