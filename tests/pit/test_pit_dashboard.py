"""The pit-boss dashboard: every table's shift figures, the alerts and their decisions, who may see
and who may act, a table's round history, and a fixed number of queries with 200 open tables.

Rounds are played through the services (open, wagers, close, deal, hands, settle) with hands whose
outcome the engines' doctests fix, so every figure on the page is checked by hand.
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Callable, Mapping
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import connection
from django.db.models import Sum
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from casino.models import AuditEvent, Shift
from ledger.models import LedgerEntry, Posting
from pit import shift_figures
from pit.dashboard_rows import BankMustPass
from pit.selectors import floor_lines_forget, pit_dashboard
from rounds.models import Adjustment, BankTurn, Round, Wager
from rounds.services import round_close_betting, round_deal, round_hands_record, round_open, wager_place
from rounds.states import RoundState
from rules.models import Game
from rules.services import rule_set_create, rule_set_default
from settlement.services import adjustment_approve, adjustment_request, correct_round, settle_round
from tables.models import Seat, Table
from tables.services import table_set_big_win
from tests.caches import cache_clear

# Pai Gow Poker against the house's queens over jacks (tests/settlement/conftest.py, paigow_poker.outcome):
BANK = {"high": "Qs Qd 8s 5d 3c", "low": "Jh Jc"}
WINS = {"high": "As Ad 7s 4d 2c", "low": "Kh Kc"}
PUSHES = {"high": "Ks Kd 9s 6d 3d", "low": "8h 7c"}
LOSES = {"high": "Ts Td 9h 6c 4h", "low": "9d 2d"}
# Seat 1 wins 25.00 (commission 1.25), seat 3 pushes its 10.00, seat 5 loses 50.00.
PGP_WAGERS = {1: 2500, 3: 1000, 5: 5000}
PGP_HANDS = {"banker": BANK, "seats": {"1": WINS, "3": PUSHES, "5": LOSES}}

# Chinese Poker (tests/api/test_rounds_api.py): with a 5% rake seat 1 nets +114.00, seat 2 -100.00, seat 3 -20.00.
CP_HANDS = {
    "seats": {
        "1": {"front": "2s 3h 4d", "middle": "Ks Kh Kd 8c 8d", "back": "9s 9h 9d 9c 5c"},
        "2": {"front": "As Kc 7d", "middle": "Qs Qh Jc Js 2c", "back": "8s 7h 6d 5s 4c"},
        "3": {"front": "Jh Jd 3c", "middle": "Th Td 6s 6h 2d", "back": "Ac Ah Ad 7s 7c"},
    }
}


def play(
    table: Table,
    actor: User,
    *,
    wagers: Mapping[int, int],
    hands: Mapping[str, Any] | None = None,
    banker_seat: int | None = None,
    bank_cents: int | None = None,
) -> Round:
    """A round played through the services up to its hands (the system deals when ``hands`` is None)."""
    round_ = round_open(actor=actor, table=table, banker_seat=banker_seat, bank_cents=bank_cents)
    for seat, amount in wagers.items():
        wager_place(actor=actor, round=round_, seat=seat, amount_cents=amount)
    round_close_betting(actor=actor, round=round_)
    if hands is None:
        round_deal(actor=actor, round=round_, auto=True)
        return round_hands_record(actor=actor, round=round_, hands={})  # training: the house way sets every hand
    round_deal(actor=actor, round=round_, dice=[1, 1, 1])
    return round_hands_record(actor=actor, round=round_, hands=dict(hands))


def settle(round_: Round, actor: User) -> Round:
    settle_round(round=round_, actor=actor, idempotency_key=f"pit-test-{round_.pk}")
    return Round.objects.get(pk=round_.pk)


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def writes() -> tuple[int, int, int, int]:
    return Posting.objects.count(), LedgerEntry.objects.count(), AuditEvent.objects.count(), Wager.objects.count()


@pytest.fixture
def pgp_table(make_table: Callable[..., Table], shift: Shift) -> Table:
    return make_table(name="PGP-1", game="paigow_poker", seat_count=6)


@pytest.fixture
def void_request(pgp_table: Table, dealer: User) -> Adjustment:
    """A revealed round at PGP-1 whose void the dealer asks for."""
    round_ = play(pgp_table, dealer, wagers=PGP_WAGERS, hands=PGP_HANDS)
    return adjustment_request(actor=dealer, round=round_, kind="void", reason="Card flashed on the deal")


# --- the figures ----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_settled_round_shows_its_handle_players_result_and_commission(
    pgp_table: Table, dealer: User, pit_boss: User
) -> None:
    round_ = settle(play(pgp_table, dealer, wagers=PGP_WAGERS, hands=PGP_HANDS), dealer)

    (line,) = pit_dashboard().lines
    assert (line.round_number, line.round_state, line.rounds_settled) == (1, "settled", 1)
    assert (line.bank_seat, line.bank_in_a_row, line.house_banks) == (None, 1, True)
    # Handle 25 + 10 + 50; the players: +25.00 - 1.25 commission, 0, -50.00.
    assert (line.handle_cents, line.players_cents, line.commission_cents, line.rake_cents) == (8500, -2625, 125, 0)
    # The players' result is the sum of their ledger entries on the settled round.
    players = LedgerEntry.objects.filter(round_id=round_.pk, account="player").aggregate(total=Sum("amount_cents"))
    assert line.players_cents == players["total"]

    page = signed_in(pit_boss).get("/pit/")
    assert page.status_code == 200
    html = page.content.decode()
    for shown in ("PGP-1", "Pai Gow Poker", "dana_dealer", "House", "#1", "settled", "85.00", "-26.25", "1.25"):
        assert shown in html, shown
    assert 'hx-trigger="every 5s' in html and 'hx-get="/pit/live/?' in html


@pytest.mark.django_db
def test_an_unsettled_round_counts_in_the_handle_but_not_in_the_result(
    pgp_table: Table, dealer: User, pit_boss: User
) -> None:
    settle(play(pgp_table, dealer, wagers=PGP_WAGERS, hands=PGP_HANDS), dealer)
    second = round_open(actor=dealer, table=pgp_table)
    wager_place(actor=dealer, round=second, seat=2, amount_cents=4000)

    (line,) = pit_dashboard().lines
    assert (line.round_number, line.round_state, line.rounds_settled) == (2, "open", 1)
    assert (line.handle_cents, line.players_cents, line.commission_cents) == (12500, -2625, 125)


@pytest.mark.django_db
def test_rounds_an_hour_count_from_the_tables_first_round_of_the_shift(pgp_table: Table, dealer: User) -> None:
    first = settle(play(pgp_table, dealer, wagers=PGP_WAGERS, hands=PGP_HANDS), dealer)
    settle(play(pgp_table, dealer, wagers=PGP_WAGERS, hands=PGP_HANDS), dealer)

    assert pit_dashboard(now=first.opened_at + dt.timedelta(hours=2)).lines[0].rounds_per_hour == pytest.approx(1.0)
    # A table's first minutes count as a quarter of an hour, not as a few seconds.
    assert pit_dashboard(now=first.opened_at + dt.timedelta(minutes=1)).lines[0].rounds_per_hour == pytest.approx(8.0)


@pytest.mark.django_db
def test_a_points_game_shows_its_rake_and_the_players_pay_it(
    make_table: Callable[..., Table], shift: Shift, dealer: User, pit_boss: User
) -> None:
    rule_set = rule_set_create(actor=pit_boss, name="CP rake 5%", game="chinese_poker", options={"rake_bp": 500})
    table = make_table(name="CP-1", game="chinese_poker", seat_count=4, rule_set=rule_set)
    settle(play(table, dealer, wagers={1: 1000, 2: 2000, 3: 3000}, hands=CP_HANDS), dealer)

    (line,) = pit_dashboard().lines
    assert (line.banking, line.handle_cents, line.players_cents, line.commission_cents, line.rake_cents) == (
        False,
        6000,
        -600,  # +114.00 - 100.00 - 20.00
        0,
        600,
    )
    html = signed_in(pit_boss).get("/pit/").content.decode()
    assert "no bank" in html and "6.00" in html


@pytest.mark.django_db
def test_no_open_shift_shows_the_tables_without_figures(make_table: Callable[..., Table], pit_boss: User) -> None:
    make_table(name="PGP-9", game="paigow_poker", seat_count=6)
    board = pit_dashboard()
    assert board.shift is None and [line.table.name for line in board.lines] == ["PGP-9"]
    assert board.lines[0].rounds_per_hour is None
    assert "No shift is open" in signed_in(pit_boss).get("/pit/").content.decode()


# --- alerts ---------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_win_above_the_tables_threshold_is_an_alert(pgp_table: Table, dealer: User, pit_boss: User) -> None:
    table_set_big_win(actor=pit_boss, table=pgp_table, big_win_cents=2000)
    settle(play(pgp_table, dealer, wagers=PGP_WAGERS, hands=PGP_HANDS), dealer)

    board = pit_dashboard()
    assert [(w.table_name, w.round_number, w.seat, w.won_cents, w.threshold_cents) for w in board.big_wins] == [
        ("PGP-1", 1, 1, 2500, 2000)
    ]
    html = signed_in(pit_boss).get("/pit/").content.decode()
    assert "Big win" in html and "Seat 1 won 25.00 (alert above 20.00)" in html


@pytest.mark.django_db
def test_a_win_at_the_threshold_or_without_one_is_no_alert(pgp_table: Table, dealer: User, pit_boss: User) -> None:
    settle(play(pgp_table, dealer, wagers=PGP_WAGERS, hands=PGP_HANDS), dealer)
    assert pit_dashboard().big_wins == []
    table_set_big_win(actor=pit_boss, table=pgp_table, big_win_cents=2500)
    assert pit_dashboard().big_wins == []  # 25.00 is not above 25.00


@pytest.mark.django_db
def test_a_seat_that_banked_twice_in_a_row_must_pass_the_bank(
    make_table: Callable[..., Table], shift: Shift, dealer: User, pit_boss: User
) -> None:
    rule_set = rule_set_create(
        actor=pit_boss, name="Tiles, players bank", game="paigow_tiles", banking_mode="player_rotation"
    )
    table = make_table(name="PG-2", game="paigow_tiles", seat_count=4, rule_set=rule_set)
    settle(play(table, dealer, wagers={1: 1000}, banker_seat=2, bank_cents=5000), dealer)
    (line,) = pit_dashboard().lines
    assert (line.bank_seat, line.bank_in_a_row, line.must_pass) == (2, 1, False)
    assert pit_dashboard().bank_must_pass == []

    settle(play(table, dealer, wagers={1: 1000}, banker_seat=2, bank_cents=5000), dealer)
    assert pit_dashboard().bank_must_pass == [
        BankMustPass(table_id=table.pk, table_name="PG-2", seat=2, in_a_row=2, next_seat=1)
    ]
    html = signed_in(pit_boss).get("/pit/").content.decode()
    assert "Bank must pass" in html
    assert "Seat 2 has banked 2 rounds in a row: the bank passes to seat 1, on the banker's right." in html

    round_open(actor=dealer, table=table, banker_seat=1, bank_cents=5000)
    (line,) = pit_dashboard().lines
    assert (line.bank_seat, line.bank_in_a_row, pit_dashboard().bank_must_pass) == (1, 1, [])


@pytest.mark.django_db
def test_a_pending_void_request_is_an_alert_with_approve_and_reject(void_request: Adjustment, pit_boss: User) -> None:
    board = pit_dashboard()
    assert board.pending == [void_request] and board.alerts == 1
    html = signed_in(pit_boss).get("/pit/").content.decode()
    assert "Void request" in html and "Card flashed on the deal" in html and "asked by dana_dealer" in html
    assert f'hx-post="/pit/adjustments/{void_request.pk}/approve/"' in html
    assert f'hx-post="/pit/adjustments/{void_request.pk}/reject/"' in html


# --- decisions ------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_pit_boss_approves_a_void_from_the_dashboard_and_the_round_is_voided(
    void_request: Adjustment, pit_boss: User
) -> None:
    response = signed_in(pit_boss).post(
        f"/pit/adjustments/{void_request.pk}/approve/", {"note": "Seen on camera"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="pit-live"')  # the live part alone, for htmx to swap in
    assert "Void approved: table PGP-1, round 1." in html and "Card flashed on the deal" not in html

    void_request.refresh_from_db()
    round_ = Round.objects.get(pk=void_request.round_id)
    assert (void_request.status, void_request.decided_by, void_request.decision_note) == (
        "approved",
        pit_boss,
        "Seen on camera",
    )
    assert round_.state == RoundState.VOIDED and round_.void_reason == "Card flashed on the deal"
    assert Posting.objects.filter(round_id=round_.pk, kind="void").count() == 1
    (line,) = pit_dashboard().lines
    assert (line.round_state, line.handle_cents, line.players_cents) == ("voided", 0, 0)  # voided: never happened


@pytest.mark.django_db
def test_without_htmx_a_decision_goes_back_to_the_dashboard_with_its_message(
    void_request: Adjustment, floor_supervisor: User
) -> None:
    client = signed_in(floor_supervisor)
    response = client.post(f"/pit/adjustments/{void_request.pk}/approve/")
    assert response.status_code == 302 and response["Location"] == "/pit/"
    assert "Void approved: table PGP-1, round 1." in client.get("/pit/").content.decode()


@pytest.mark.django_db
def test_a_floor_supervisor_rejects_only_with_a_note_and_the_round_stays(
    void_request: Adjustment, floor_supervisor: User
) -> None:
    client = signed_in(floor_supervisor)
    url = f"/pit/adjustments/{void_request.pk}/reject/"
    refused = client.post(url, {"note": "  "}, HTTP_HX_REQUEST="true").content.decode()
    assert "Say why the request is rejected." in refused
    void_request.refresh_from_db()
    assert void_request.status == "pending"

    done = client.post(url, {"note": "The card was not seen by players"}, HTTP_HX_REQUEST="true").content.decode()
    assert "Request rejected: table PGP-1, round 1." in done
    void_request.refresh_from_db()
    assert (void_request.status, void_request.decision_note) == ("rejected", "The card was not seen by players")
    assert Round.objects.get(pk=void_request.round_id).state == RoundState.REVEALED


@pytest.mark.django_db
def test_a_request_decided_meanwhile_is_refused_in_plain_words(void_request: Adjustment, pit_boss: User) -> None:
    client = signed_in(pit_boss)
    client.post(f"/pit/adjustments/{void_request.pk}/approve/", HTTP_HX_REQUEST="true")
    again = client.post(f"/pit/adjustments/{void_request.pk}/reject/", {"note": "late"}, HTTP_HX_REQUEST="true")
    assert "This request was already approved." in again.content.decode()


@pytest.mark.django_db
def test_a_supervisors_own_request_waits_for_another_supervisor_without_an_approve_button(
    pgp_table: Table, dealer: User, floor_supervisor: User, pit_boss: User
) -> None:
    round_ = play(pgp_table, dealer, wagers=PGP_WAGERS, hands=PGP_HANDS)
    asked = adjustment_request(actor=floor_supervisor, round=round_, kind="void", reason="Card flashed on the deal")
    own = signed_in(floor_supervisor).get("/pit/").content.decode()
    assert "Your request: waiting for another supervisor" in own
    assert f"/pit/adjustments/{asked.pk}/approve/" not in own
    assert f'hx-post="/pit/adjustments/{asked.pk}/reject/"' in own  # withdrawing it stays possible
    other = signed_in(pit_boss).get("/pit/").content.decode()
    assert f'hx-post="/pit/adjustments/{asked.pk}/approve/"' in other and "Your request" not in other


@pytest.mark.django_db
def test_approving_ones_own_request_from_the_pit_is_refused_in_plain_words(
    pgp_table: Table, dealer: User, floor_supervisor: User
) -> None:
    round_ = play(pgp_table, dealer, wagers=PGP_WAGERS, hands=PGP_HANDS)
    asked = adjustment_request(actor=floor_supervisor, round=round_, kind="void", reason="Card flashed on the deal")
    before = writes()
    response = signed_in(floor_supervisor).post(f"/pit/adjustments/{asked.pk}/approve/", HTTP_HX_REQUEST="true")
    assert "You asked for this void: another supervisor approves it." in response.content.decode()
    asked.refresh_from_db()
    assert asked.status == "pending" and writes() == before
    assert Round.objects.get(pk=round_.pk).state == RoundState.REVEALED


@pytest.mark.django_db
def test_in_a_one_supervisor_room_the_pit_boss_approves_their_own_request(
    settings: Any, pgp_table: Table, dealer: User, pit_boss: User
) -> None:
    settings.TABLESIDE_FOUR_EYES = False
    round_ = play(pgp_table, dealer, wagers=PGP_WAGERS, hands=PGP_HANDS)
    asked = adjustment_request(actor=pit_boss, round=round_, kind="void", reason="Card flashed on the deal")
    client = signed_in(pit_boss)
    html = client.get("/pit/").content.decode()
    assert f'hx-post="/pit/adjustments/{asked.pk}/approve/"' in html and "Your request" not in html
    done = client.post(f"/pit/adjustments/{asked.pk}/approve/", HTTP_HX_REQUEST="true").content.decode()
    assert "Void approved: table PGP-1, round 1." in done


# --- who may see, who may act ---------------------------------------------------------------------


@pytest.mark.django_db
def test_a_dealer_cannot_see_the_pit_or_approve(void_request: Adjustment, dealer: User, pgp_table: Table) -> None:
    client = signed_in(dealer)
    for url in ("/pit/", "/pit/live/", f"/pit/tables/{pgp_table.pk}/"):
        assert client.get(url).status_code == 403, url
    before = writes()
    assert client.post(f"/pit/adjustments/{void_request.pk}/approve/").status_code == 403
    assert client.post(f"/pit/adjustments/{void_request.pk}/reject/", {"note": "no"}).status_code == 403
    void_request.refresh_from_db()
    assert void_request.status == "pending" and writes() == before


@pytest.mark.django_db
def test_an_auditor_sees_the_pit_but_cannot_act(void_request: Adjustment, auditor: User, pgp_table: Table) -> None:
    client = signed_in(auditor)
    html = client.get("/pit/").content.decode()
    assert "Card flashed on the deal" in html and "Read only" in html
    assert "/approve/" not in html and "/reject/" not in html and "Approve" not in html
    assert client.get(f"/pit/tables/{pgp_table.pk}/").status_code == 200

    before = writes()
    assert client.post(f"/pit/adjustments/{void_request.pk}/approve/").status_code == 403
    assert client.post(f"/pit/adjustments/{void_request.pk}/reject/", {"note": "no"}).status_code == 403
    void_request.refresh_from_db()
    assert void_request.status == "pending" and writes() == before
    assert Round.objects.get(pk=void_request.round_id).state == RoundState.REVEALED


@pytest.mark.django_db
def test_a_visitor_is_sent_to_sign_in_and_decisions_are_posts_only(void_request: Adjustment, pit_boss: User) -> None:
    assert Client().get("/pit/")["Location"].startswith("/accounts/login/")
    assert signed_in(pit_boss).get(f"/pit/adjustments/{void_request.pk}/approve/").status_code == 405


# --- a table's round history ----------------------------------------------------------------------


@pytest.mark.django_db
def test_the_round_history_shows_each_settlement_and_its_ledger_entries(
    pgp_table: Table, dealer: User, auditor: User
) -> None:
    settle(play(pgp_table, dealer, wagers=PGP_WAGERS, hands=PGP_HANDS), dealer)
    voided = play(pgp_table, dealer, wagers={2: 1500}, hands={**PGP_HANDS, "seats": {"2": WINS}})
    adjustment_request(actor=dealer, round=voided, kind="void", reason="Misdeal")

    page = signed_in(auditor).get(f"/pit/tables/{pgp_table.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert html.index("Round 2") < html.index("Round 1")  # newest first
    assert "Void requested" in html and "Misdeal" in html and "Not settled yet." in html
    # Round 1's settlement: seat 1 wins 25.00 and pays 1.25, seat 5 loses 50.00; the house nets 26.25.
    for shown in ("win", "push", "loss", "25.00", "1.25", "23.75", "-50.00", "26.25"):
        assert shown in html, shown
    # ... and its ledger: three wager postings and the settlement, balancing to zero.
    assert "Ledger entries" in html and html.count('class="posting posting-wager"') == 4  # round 2's wager too
    assert html.count('class="posting posting-settlement"') == 1
    assert "house bank" in html and "house commission" in html and "wagers on the layout" in html


@pytest.mark.django_db
def test_the_round_history_reads_a_fixed_number_of_queries(pgp_table: Table, dealer: User, pit_boss: User) -> None:
    client = signed_in(pit_boss)
    settle(play(pgp_table, dealer, wagers=PGP_WAGERS, hands=PGP_HANDS), dealer)
    with CaptureQueriesContext(connection) as one:
        client.get(f"/pit/tables/{pgp_table.pk}/")
    for _ in range(3):
        settle(play(pgp_table, dealer, wagers=PGP_WAGERS, hands=PGP_HANDS), dealer)
    client = signed_in(pit_boss)
    with CaptureQueriesContext(connection) as four:
        client.get(f"/pit/tables/{pgp_table.pk}/")
    assert len(one) == len(four) <= 12


# --- the figures kept between refreshes --------------------------------------------------------------


def figures() -> list[tuple[Any, ...]]:
    board = pit_dashboard(now=timezone.now() + dt.timedelta(minutes=5))
    lines = [
        (line.table.name, line.round_number, line.round_state, line.rounds_settled, line.handle_cents)
        + (line.players_cents, line.commission_cents, line.rake_cents, round(line.rounds_per_hour or 0, 6))
        for line in board.lines
    ]
    return [*lines, [(win.round_number, win.seat, win.won_cents) for win in board.big_wins]]


@pytest.mark.django_db
def test_figures_kept_between_refreshes_match_a_whole_read_after_more_play_a_void_and_a_correction(
    pgp_table: Table, dealer: User, pit_boss: User
) -> None:
    table_set_big_win(actor=pit_boss, table=pgp_table, big_win_cents=2000)
    first = settle(play(pgp_table, dealer, wagers=PGP_WAGERS, hands=PGP_HANDS), dealer)
    settle(play(pgp_table, dealer, wagers=PGP_WAGERS, hands=PGP_HANDS), dealer)
    third = play(pgp_table, dealer, wagers={2: 3000}, hands={**PGP_HANDS, "seats": {"2": WINS}})
    kept = figures()  # read five minutes ahead: everything so far is sealed, round 3 is kept open
    assert kept[0][1:5] == (3, "revealed", 2, 2 * 8500 + 3000)
    sealed = cache.get(shift_figures.FIGURES_CACHE_KEY)
    assert sealed.unfinished == {third.pk} and sealed.rounds_mark >= third.pk and sealed.big_ids

    # Round 3 is voided, round 1 corrected (seats 3 and 5 swap hands), round 4 settled; a refresh
    # adds these to what was kept, and matches a read of the whole shift.
    void = adjustment_request(actor=dealer, round=third, kind="void", reason="Misdeal")
    adjustment_approve(actor=pit_boss, adjustment=void)
    swapped = {**PGP_HANDS, "seats": {"1": WINS, "3": LOSES, "5": PUSHES}}
    correct_round(
        actor=pit_boss,
        round=first,
        hands=swapped,
        reason="Seats 3 and 5 mixed up",
        idempotency_key="fix-1",
        requested_by=dealer,
    )
    settle(play(pgp_table, dealer, wagers={4: 6000}, hands={**PGP_HANDS, "seats": {"4": LOSES}}), dealer)
    refreshed = figures()
    cache_clear()
    assert refreshed == figures()
    # Three settled rounds, 85.00 + 85.00 + 60.00 handle (the void is none); the correction
    # turns round 1 from -26.25 into +23.75 - 10.00 = 13.75 for the players.
    assert refreshed[0][1:8] == (4, "settled", 3, 23000, 1375 - 2625 - 6000, 250, 0)
    assert refreshed[1] == [(1, 1, 2500), (2, 1, 2500)]  # newest first: the correction of round 1, then round 2


# --- 200 open tables, a fixed number of queries ---------------------------------------------------

SEATS = {Game.PAIGOW_POKER: 6, Game.PAIGOW_TILES: 7, Game.CHINESE_POKER: 4, Game.OFC: 3}


def fill_floor(*, tables: int, pit: Any, shift: Shift, dealer: User, start: int = 1) -> None:
    """``tables`` open tables of the four games, each with a settled round (its wagers, postings and ledger
    entries, a bank turn, a win above the threshold at every tenth table) and an open round with a wager;
    a void request at every twentieth table. Bulk-created: only the dashboard's reads are under test."""
    rule_sets = {game: rule_set_default(game=game) for game in SEATS}
    snapshots = {game: rule_set.snapshot() for game, rule_set in rule_sets.items()}
    games = itertools.cycle(SEATS)
    made = Table.objects.bulk_create(
        Table(
            pit=pit,
            name=f"T-{number:03d}",
            game=(game := next(games)),
            min_wager_cents=500,
            max_wager_cents=50000,
            seat_count=SEATS[game],
            rule_set=rule_sets[game],
            status=Table.Status.OPEN,
            dealer=dealer,
            big_win_cents=5000 if number % 10 == 0 else None,
        )
        for number in range(start, start + tables)
    )
    seats = Seat.objects.bulk_create(Seat(table=table, number=n) for table in made for n in (1, 2))
    seat_of = {(seat.table_id, seat.number): seat for seat in seats}
    now = timezone.now()
    rounds = Round.objects.bulk_create(
        Round(
            table=table,
            number=number,
            shift=shift,
            state=RoundState.SETTLED if number == 1 else RoundState.OPEN,
            rule_set_snapshot=snapshots[table.game],
            opened_at=now - dt.timedelta(minutes=30),
            state_changed_at=now,
        )
        for table in made
        for number in (1, 2)
    )
    BankTurn.objects.bulk_create(BankTurn(round=r, seat=None, consecutive=1) for r in rounds if r.number == 1)
    Wager.objects.bulk_create(
        Wager(round=r, seat=seat_of[(r.table_id, n)], amount_cents=1000) for r in rounds for n in (1, 2)
    )
    settled = [r for r in rounds if r.number == 1]
    postings = Posting.objects.bulk_create(
        Posting(
            round_id=r.pk,
            kind=Posting.Kind.SETTLEMENT,
            result={
                "seats": [
                    {"seat": 1, "won_cents": 9000 if r.table.big_win_cents else 1000},
                    {"seat": 2, "won_cents": -1000},
                ],
                "house": {"bank_won_cents": 0, "commission_cents": 50, "rake_cents": 0, "total_cents": 50},
            },
        )
        for r in settled
    )
    # Seat 1 wins 10.00 and pays 0.50; seat 2 loses 10.00 to the house (the wager postings left out).
    lines = (
        ("player", 1, 1000),
        ("house", None, -1000),
        ("house", None, 1000),
        ("player", 1, -50),
        ("commission", None, 50),
    )
    table_of = {r.pk: r.table_id for r in settled}
    LedgerEntry.objects.bulk_create(
        LedgerEntry(
            posting=p,
            round_id=p.round_id,
            account=account,
            seat_id=seat_of[(table_of[p.round_id], seat)].pk if seat else None,
            amount_cents=amount,
            kind="payout",
            created_at=now,
        )
        for p in postings
        for account, seat, amount in lines
    )
    Adjustment.objects.bulk_create(
        Adjustment(round=r, kind="void", reason="Misdeal", requested_by=dealer)
        for r in rounds
        if r.number == 2 and int(r.table.name[2:]) % 20 == 0
    )


@pytest.mark.django_db
@pytest.mark.parametrize("sealed", [False, True], ids=["read-whole", "sealed-then-newer"])
def test_with_200_open_tables_the_dashboard_runs_a_fixed_number_of_queries(
    pit: Any, shift: Shift, dealer: User, pit_boss: User, monkeypatch: pytest.MonkeyPatch, sealed: bool
) -> None:
    if sealed:  # everything is sealed at once: later reads take the path that reads only what is newer
        monkeypatch.setattr(shift_figures, "SEAL_MARGIN", -dt.timedelta(hours=1))
    fill_floor(tables=4, pit=pit, shift=shift, dealer=dealer)

    def count(url: str) -> tuple[int, str]:
        floor_lines_forget()  # the whole floor read (a process keeps the lines it read: the live tests)
        signed = signed_in(pit_boss)  # a fresh request: its session, its user and its roles are read again
        with CaptureQueriesContext(connection) as queries:
            response = signed.get(url)
        assert response.status_code == 200
        return len(queries), response.content.decode()

    few_page, _ = count("/pit/")
    few_live, _ = count("/pit/live/")
    fill_floor(tables=196, pit=pit, shift=shift, dealer=dealer, start=5)
    assert Table.objects.filter(status="open").count() == 200

    page, html = count("/pit/")
    live, live_html = count("/pit/live/")
    # the tenth: the table money; the eleventh: the rated seats; the twelfth: the poker room's
    # running tournaments (none here: the tournaments' figures come in two more, however many run)
    assert page == few_page <= 12
    assert live == few_live <= 12
    board = pit_dashboard()
    assert len(board.lines) == 200 and html.count('class="table-line"') == 200
    assert (board.totals.rounds_settled, board.totals.handle_cents) == (200, 200 * 4000)
    assert (board.totals.players_cents, board.totals.commission_cents) == (-200 * 50, 200 * 50)
    assert (len(board.big_wins), board.big_wins_more, len(board.pending)) == (20, False, 10)
    assert "T-200" in live_html


def test_the_whole_live_part_takes_the_place_of_the_old_one_not_of_its_poll(pit_boss: User, shift: Shift) -> None:
    """Answered in place of the poll that asked (which is inside it), the whole live part nested a second dashboard
    in the first, every table twice: on the embedded default every refresh is the whole part."""
    client = Client()
    client.force_login(pit_boss)
    response = client.get("/pit/live/", HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and 'id="pit-live"' in response.content.decode()
    assert response["HX-Retarget"] == "#pit-live" and response["HX-Reswap"] == "outerHTML"
