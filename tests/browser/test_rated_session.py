"""In Chromium at 1024×768: a rated session across two tables, with a break and a move,
checked on the player page against figures worked out here by hand from the wagers and the house edge.

Dana (the dealer) seats Mr Lee (Gold, card 1001) at seat 2 of PGP-1 from the tablet. He plays two rounds there, takes
a break (a round is played at his seat while he is away: not his), comes back, moves to seat 4 of PGP-2, plays two
more and leaves with 300.00. The rounds are dealt through the dealer's services with the hands written out, so each
result is known; the session's clock is the test's (its services read it), so the time is known too. Fred, the
Floor supervisor, opens the player page.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from typing import Any
from unittest import mock

import pytest
from playwright.sync_api import expect

from players.models import RatingSession
from players.services import player_create
from rounds.models import Round
from rules.edges import rule_set_edges
from settlement.services import settle_round
from tests.settlement.conftest import BANK, LOSES, PUSHES, WINS

T0 = dt.datetime(2026, 11, 24, 21, 0, tzinfo=dt.UTC)


@pytest.fixture
def clock() -> Iterator[list[dt.datetime]]:
    """The rating services' clock, moved by the test (``clock[0] = ...``)."""
    now = [T0]
    with mock.patch("players.services.timezone.now", side_effect=lambda: now[0]):
        yield now


def _play(dealer: Any, table: Any, wagers: dict[int, int], seats: dict[str, dict[str, str]], key: str) -> None:
    from rounds.services import round_close_betting, round_deal, round_hands_record, round_open, wager_place

    round_ = round_open(actor=dealer, table=table)
    for seat, amount in wagers.items():
        wager_place(actor=dealer, round=round_, seat=seat, amount_cents=amount)
    round_close_betting(actor=dealer, round=round_)
    round_deal(actor=dealer, round=round_, dice=[1, 1, 1])
    round_hands_record(actor=dealer, round=round_, hands={"banker": BANK, "seats": seats})
    settle_round(round=round_, actor=dealer, idempotency_key=key)


def _money(cents: int) -> str:
    sign = "+" if cents > 0 else ("−" if cents < 0 else "")
    return f"{sign}{abs(cents) // 100:,}.{abs(cents) % 100:02d}"


def _row(page: Any, seat: int) -> Any:
    return page.locator(f'#rated [data-rated-seat="{seat}"]')


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("house_chips")
def test_a_session_across_two_tables_with_a_break_and_a_move_shows_the_figures_worked_out_by_hand(
    new_page: Callable[..., Any],
    shoot: Callable[..., Any],
    make_table: Callable[..., Any],
    shift: Any,
    dealer: Any,
    floor_supervisor: Any,
    clock: list[dt.datetime],
) -> None:
    first = make_table(name="PGP-1", game="paigow_poker", seat_count=6)
    second = make_table(name="PGP-2", game="paigow_poker", seat_count=6)
    lee = player_create(actor=dealer, name="Mr Lee", card_number="1001", tier="Gold")

    # 21:00 Dana seats him at seat 2 of PGP-1, found by his card.
    tablet = new_page(dealer)
    tablet.goto(f"/dealer/tables/{first.pk}/players/")
    tablet.fill("#player-search", "1001")
    tablet.press("#player-search", "Enter")
    expect(tablet.locator(f'[data-found="{lee.pk}"] input')).to_be_checked()
    tablet.locator("#seat-form .pick-radio", has_text="2").tap()
    tablet.locator("[data-seat]").tap()
    expect(tablet.locator("#banner")).to_contain_text("Mr Lee (Gold) is rated at seat 2.")

    # Two rounds at PGP-1: he wins 25.00 (pays 1.25), then loses 50.00; seat 1 is nobody's rating.
    _play(dealer, first, {1: 1000, 2: 2500}, {"1": LOSES, "2": WINS}, "r1")
    _play(dealer, first, {2: 5000}, {"2": LOSES}, "r2")

    # 21:20 a break; a friend plays one round at his seat meanwhile; 21:30 he is back.
    clock[0] = T0 + dt.timedelta(minutes=20)
    _row(tablet, 2).locator("[data-break]").tap()
    expect(tablet.locator("#banner")).to_contain_text("Mr Lee at seat 2 is on a break.")
    _play(dealer, first, {2: 10_000}, {"2": WINS}, "r3")
    clock[0] = T0 + dt.timedelta(minutes=30)
    _row(tablet, 2).locator("[data-back]").tap()
    expect(tablet.locator("#banner")).to_contain_text("Mr Lee at seat 2 is back.")

    # 21:40 he moves to seat 4 of PGP-2 and plays two rounds: a push at 40.00, a win of 30.00 (pays 1.50).
    clock[0] = T0 + dt.timedelta(minutes=40)
    _row(tablet, 2).locator("summary", has_text="Move").tap()
    _row(tablet, 2).locator("[data-move-to]").select_option(label="PGP-2, seat 4")
    _row(tablet, 2).locator("[data-move]").tap()
    expect(tablet.locator("#banner")).to_contain_text("Mr Lee moves to table PGP-2, seat 4.")
    _play(dealer, second, {4: 4000}, {"4": PUSHES}, "r4")
    _play(dealer, second, {4: 3000, 5: 2000}, {"4": WINS, "5": LOSES}, "r5")

    # 22:15 he leaves with 300.00.
    clock[0] = T0 + dt.timedelta(minutes=75)
    tablet.goto(f"/dealer/tables/{second.pk}/players/")
    _row(tablet, 4).locator("summary", has_text="End").tap()
    _row(tablet, 4).locator("input[name=walk_with]").fill("300")
    _row(tablet, 4).locator("[data-end]").tap()
    expect(tablet.locator("#banner")).to_contain_text("Mr Lee leaves seat 4 with 300.00: the session has ended.")

    # By hand: his four rounds (not the friend's), 20 + 45 minutes, and theo = each wager x the player's house edge
    # of the tables' rule set (Pai Gow Poker, Golden Nugget way, 5% on wins: the game math's simulated edge).
    wagers = [2500, 5000, 4000, 3000]
    edge = rule_set_edges(Round.objects.filter(table=first).first().rule_set_snapshot).player
    assert edge is not None
    rounds, minutes = 4, 20 + 45
    average = sum(wagers) // rounds  # 36.25
    win_loss = (2500 - 125) - 5000 + 0 + (3000 - 150)  # +2.25
    theo_millicents = sum(round(w * edge.edge * 1000) for w in wagers)
    theo = round(theo_millicents / 1000)
    comps = (theo * 3000 + 5000) // 10_000  # Gold: 30% of theo, half a cent up (112.5 cents: 1.13)
    stored = RatingSession.objects.get(player=lee)
    assert (stored.rounds, stored.seconds_played, stored.theo_millicents) == (rounds, minutes * 60, theo_millicents)

    pit = new_page(floor_supervisor)
    pit.goto(f"/players/{lee.pk}/")
    expect(pit.get_by_role("heading", name="Mr Lee")).to_be_visible()
    expect(pit.locator("#total-rounds")).to_have_text(str(rounds))
    expect(pit.locator("#total-time")).to_have_text(f"{minutes // 60}:{minutes % 60:02d} h")
    expect(pit.locator("#total-average")).to_have_text(_money(average).lstrip("+"))
    expect(pit.locator("#total-win-loss")).to_have_text(_money(win_loss))
    expect(pit.locator("#total-theo")).to_have_text(_money(theo).lstrip("+"))
    expect(pit.locator("#total-comps")).to_have_text(_money(comps).lstrip("+"))
    expect(pit.locator("#total-buy-in")).to_have_text("0.00")
    session_row = pit.locator(f"#session-{stored.pk}")
    expect(session_row).to_contain_text("PGP-1")
    expect(session_row).to_contain_text("PGP-2")
    expect(session_row).to_contain_text("300.00")
    shoot(pit, "player-page-session")
