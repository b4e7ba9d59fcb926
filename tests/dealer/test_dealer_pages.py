"""The dealer tablet's pages through Django's test client: who sees and who acts, refusals, the preview, one settle.

Every action is a form the tablet posts (with htmx, ``HX-Request``); the services
decide, and a refusal comes back as the service's message in the banner with the
service's status. The personas: the table's dealer (Dana), another dealer (Olly),
the pit boss (Paula) and the auditor (Alex).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any
from unittest import mock

import pytest
from django.test import Client
from django.utils import translation

from ledger.models import LedgerEntry, Posting
from rounds import services as round_services
from rounds.models import Adjustment, Round
from rounds.services import round_close_betting, round_deal, round_hands_record, round_open, wager_place
from rules.games.paigow_poker_batch import flush_memo_prepare
from rules.services import rule_set_create
from rules.way_words import way_words
from settlement.services import adjustment_approve
from tables.models import Table
from tables.services import table_assign_dealer
from tests.caches import cache_clear
from tests.dealer.conftest import BANK_CARDS, HTMX, LOSES, WINS, nothing_written, post_hands, signed_in, text

# The shared helpers and fixtures (PGP-1, its personas, the hands) are tests/dealer/conftest.py's.


@pytest.fixture
def dealt_round(pgp: Table, dealer) -> Round:  # type: ignore[no-untyped-def]
    """Round 1 at PGP-1: seat 1 wagers 25.00, seat 3 wagers 10.00, the dice rolled 3 5 6."""
    round_ = round_open(actor=dealer, table=pgp)
    wager_place(actor=dealer, round=round_, seat=1, amount_cents=2500)
    wager_place(actor=dealer, round=round_, seat=3, amount_cents=1000)
    round_close_betting(actor=dealer, round=round_)
    return round_deal(actor=dealer, round=round_, dice=[3, 5, 6])


@pytest.fixture
def revealed_round(dealt_round: Round, dealer) -> Round:  # type: ignore[no-untyped-def]
    hands = {"banker": {"cards": BANK_CARDS}, "seats": {"1": WINS, "3": LOSES}}
    return round_hands_record(actor=dealer, round=dealt_round, hands=hands)


# --- who sees the tablet -----------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_dealer_signs_in_and_lands_on_their_table_with_its_rules_bank_and_only_the_next_action(
    pgp: Table, dealer
) -> None:
    client = signed_in(dealer)
    landing = client.get("/dealer/")
    assert landing.status_code == 302 and landing["Location"] == f"/dealer/tables/{pgp.pk}/"
    page = text(client.get(landing["Location"]))
    assert "PGP-1" in page and "Pai Gow Poker" in page
    assert "10.00 – 500.00" in page
    assert "Pai Gow Poker — house rules (Golden Nugget)" in page and "house way Golden Nugget" in page
    assert "5% commission on player wins" in page
    assert "Open round" in page
    for later in ("Close betting", "Record dice", "Reveal hands", "Settle round", "Request a void"):
        assert later not in page


@pytest.mark.django_db
def test_a_dealer_opening_another_tables_tablet_gets_403(pgp: Table, other_dealer) -> None:
    client = signed_in(other_dealer)
    response = client.get(f"/dealer/tables/{pgp.pk}/")
    assert response.status_code == 403
    assert "Table PGP-1 is not your table" in text(response)
    assert client.get("/dealer/").status_code == 200  # the chooser, with no table of theirs on it
    assert "PGP-1" not in text(client.get("/dealer/"))


@pytest.mark.django_db
def test_a_pit_boss_opens_any_tablet_and_an_anonymous_visitor_is_sent_to_sign_in(pgp: Table, pit_boss) -> None:
    assert signed_in(pit_boss).get(f"/dealer/tables/{pgp.pk}/").status_code == 200
    assert "PGP-1" in text(signed_in(pit_boss).get("/dealer/"))
    response = Client().get(f"/dealer/tables/{pgp.pk}/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


@pytest.mark.django_db
def test_a_dealer_cannot_act_at_another_table_and_nothing_is_written(dealt_round: Round, other_dealer) -> None:
    client = signed_in(other_dealer)
    with nothing_written():
        for action, data in (
            ("wager", {"seat": 2, "amount_cents": 1000}),
            ("hands", post_hands({1: WINS, 3: LOSES})),
            ("preview", post_hands({1: WINS})),
            ("void-request", {"reason": "Misdeal"}),
            ("settle", {"idempotency_key": "olly-1"}),
        ):
            response = client.post(f"/dealer/rounds/{dealt_round.pk}/{action}/", data, **HTMX)
            assert response.status_code == 403, action
            assert "Table PGP-1 is not your table" in text(response)
        assert client.post(f"/dealer/tables/{dealt_round.table_id}/open/", {}).status_code == 403


@pytest.mark.django_db
def test_a_dealer_cannot_approve_a_void_and_the_tablet_offers_no_approval(revealed_round: Round, dealer) -> None:
    client = signed_in(dealer)
    client.post(f"/dealer/rounds/{revealed_round.pk}/void-request/", {"reason": "Misdeal"}, **HTMX)
    adjustment = Adjustment.objects.get()
    assert "approve" not in text(client.get(f"/dealer/tables/{revealed_round.table_id}/")).lower()
    with nothing_written():
        response = client.post(f"/api/adjustments/{adjustment.pk}/approve/", {}, content_type="application/json")
    assert response.status_code == 403
    assert "Floor supervisor or Pit boss may approve" in response.json()["message"]
    assert Adjustment.objects.get().status == Adjustment.Status.PENDING


@pytest.mark.django_db
def test_an_auditor_sees_the_tablet_but_every_action_answers_403_and_writes_nothing(
    revealed_round: Round, auditor
) -> None:
    client = signed_in(auditor)
    page = text(client.get(f"/dealer/tables/{revealed_round.table_id}/"))
    assert "View only" in page and "Settlement preview" in page
    assert "Settle round" not in page and "Request a void" not in page
    with nothing_written():
        for action, data in (
            ("wager", {"seat": 2, "amount_cents": 1000}),
            ("close-betting", {}),
            ("deal", {"die1": 1, "die2": 2, "die3": 3}),
            ("hands", post_hands({1: WINS, 3: LOSES})),
            ("settle", {"idempotency_key": "alex-1"}),
            ("void-request", {"reason": "Misdeal"}),
        ):
            response = client.post(f"/dealer/rounds/{revealed_round.pk}/{action}/", data, **HTMX)
            assert response.status_code == 403, action
            assert "Only a Dealer" in text(response), action
        response = client.post(f"/dealer/tables/{revealed_round.table_id}/open/", {})
        assert response.status_code == 403 and "Only a Dealer" in text(response)


# --- playing a round through the forms ---------------------------------------------------------------


@pytest.mark.django_db
def test_a_round_is_opened_wagered_closed_dealt_revealed_and_settled_through_the_tablet_forms(
    pgp: Table, dealer
) -> None:
    client = signed_in(dealer)
    base = f"/dealer/tables/{pgp.pk}/"
    assert client.post(f"{base}open/", {"banker": "house"}).status_code == 302
    round_ = Round.objects.get()
    url = f"/dealer/rounds/{round_.pk}/"
    response = client.post(f"{url}wager/", {"seat": 2, "amount_cents": 2500}, **HTMX)
    assert response.status_code == 200 and "Seat 2 wagers 25.00." in text(response)
    assert 'id="tablet"' in text(response) and "<html" not in text(response)
    assert client.post(f"{url}close-betting/", {}, **HTMX).status_code == 200
    page = text(client.post(f"{url}deal/", {"die1": 2, "die2": 2, "die3": 2}, **HTMX))
    assert "Reveal hands" in page and 'data-pick="Jk"' in page  # the 53-card grid
    round_.refresh_from_db()
    assert (
        round_.state == "dealt" and round_.dice == [2, 2, 2] and round_.action_order[0] == 2
    )  # 6 counted from the dealer
    page = text(client.post(f"{url}hands/", post_hands({2: WINS}), **HTMX))
    assert "Settlement preview" in page and "Settle round 1" in page
    key = re.search(r'name="idempotency_key" value="([^"]+)"', page)[1]  # type: ignore[index]
    page = text(client.post(f"{url}settle/", {"idempotency_key": key}, **HTMX))
    assert "Round 1 settled" in page and "Open round" in page
    assert Round.objects.get().state == "settled"


@pytest.mark.django_db
def test_double_submitting_settle_with_the_same_key_settles_once(revealed_round: Round, dealer) -> None:
    client = signed_in(dealer)
    page = text(client.get(f"/dealer/tables/{revealed_round.table_id}/"))
    key = re.search(r'name="idempotency_key" value="([^"]+)"', page)[1]  # type: ignore[index]
    first = client.post(f"/dealer/rounds/{revealed_round.pk}/settle/", {"idempotency_key": key}, **HTMX)
    assert first.status_code == 200
    entries = LedgerEntry.objects.count()
    with nothing_written():
        again = client.post(f"/dealer/rounds/{revealed_round.pk}/settle/", {"idempotency_key": key}, **HTMX)
        plain = client.post(f"/dealer/rounds/{revealed_round.pk}/settle/", {"idempotency_key": key})
    assert again.status_code == 200 and plain.status_code == 302
    assert Posting.objects.filter(kind="settlement").count() == 1
    assert LedgerEntry.objects.count() == entries
    assert "Round 1 settled" in text(again)
    # Another key (a stale second tablet) is refused: a settled round is never paid twice.
    with nothing_written():
        other = client.post(f"/dealer/rounds/{revealed_round.pk}/settle/", {"idempotency_key": "another"}, **HTMX)
    assert other.status_code == 409 and "already settled" in text(other)


@pytest.mark.django_db
def test_each_rendering_of_the_settle_form_carries_a_key_of_its_own(revealed_round: Round, dealer) -> None:
    client = signed_in(dealer)
    pattern = r'name="idempotency_key" value="([^"]+)"'
    keys = {re.search(pattern, text(client.get(f"/dealer/tables/{revealed_round.table_id}/")))[1] for _ in range(2)}  # type: ignore[index]
    assert len(keys) == 2


# --- refusals in the dealer's words ------------------------------------------------------------------


@pytest.mark.django_db
def test_a_wager_outside_the_limits_shows_the_services_message_and_writes_nothing(pgp: Table, dealer) -> None:
    client = signed_in(dealer)
    round_ = round_open(actor=dealer, table=pgp)
    with nothing_written():
        response = client.post(f"/dealer/rounds/{round_.pk}/wager/", {"seat": 1, "amount_cents": 60000}, **HTMX)
        plain = client.post(f"/dealer/rounds/{round_.pk}/wager/", {"seat": 1, "amount_cents": 500})
    assert response.status_code == 400
    assert response["HX-Retarget"] == "#banner" and response["HX-Reswap"] == "innerHTML"
    assert "A wager at table PGP-1 is 10.00 to 500.00, not 600.00." in text(response)
    assert plain.status_code == 400 and "not 5.00" in text(plain) and "<html" in text(plain)


@pytest.mark.django_db
def test_the_chip_pad_knows_the_limits_it_enforces_as_the_dealer_taps(pgp: Table, dealer) -> None:
    round_open(actor=dealer, table=pgp)
    page = text(signed_in(dealer).get(f"/dealer/tables/{pgp.pk}/"))
    assert 'data-min="1000" data-max="50000"' in page
    assert "Below the table minimum of 10.00." in page and "Above the table maximum of 500.00." in page
    for units in (1, 5, 25, 100, 500):
        assert f'data-chip="{units * 100}"' in page


@pytest.mark.django_db
def test_bad_hands_show_the_services_message_and_write_nothing(dealt_round: Round, dealer) -> None:
    client = signed_in(dealer)
    twice = post_hands({1: WINS, 3: {"high": "As Td 9h 6c 4h", "low": "9d 2d"}})
    short = post_hands({1: WINS, 3: {"high": "Ts Td 9h 6c", "low": "9d 2d"}})
    with nothing_written():
        used_twice = client.post(f"/dealer/rounds/{dealt_round.pk}/hands/", twice, **HTMX)
        too_few = client.post(f"/dealer/rounds/{dealt_round.pk}/hands/", short, **HTMX)
        missing = client.post(f"/dealer/rounds/{dealt_round.pk}/hands/", post_hands({1: WINS}), **HTMX)
        no_dice = client.post(f"/dealer/rounds/{dealt_round.pk}/deal/", {"die1": 3}, **HTMX)
    assert used_twice.status_code == 400 and "A♠ is used 2 times (Seat 1, Seat 3)" in text(used_twice)
    assert too_few.status_code == 400 and "Seat 3, high hand: 5 cards expected, got 4" in text(too_few)
    assert missing.status_code == 400 and "Seat 3&#x27;s hand is missing." in text(missing)
    assert no_dice.status_code == 400 and "Tap all three dice first." in text(no_dice)


@pytest.mark.django_db
def test_opening_a_second_round_while_one_is_in_play_is_refused_with_409(dealt_round: Round, dealer) -> None:
    with nothing_written():
        response = signed_in(dealer).post(f"/dealer/tables/{dealt_round.table_id}/open/", {}, **HTMX)
    assert response.status_code == 409 and "Round 1 at table PGP-1 is still dealt" in text(response)


# --- the preview: values, fouls, the house way, the settlement ---------------------------------------


@pytest.mark.django_db
def test_the_preview_shows_values_fouls_and_the_house_way_at_once_and_writes_nothing(
    dealt_round: Round, dealer
) -> None:
    client = signed_in(dealer)
    fouled = {"high": "Ts 9d 8h 6c 4h", "low": "Ah Ad"}
    with nothing_written():
        partial = client.post(f"/dealer/rounds/{dealt_round.pk}/preview/", post_hands({3: fouled}), **HTMX)
        whole = client.post(f"/dealer/rounds/{dealt_round.pk}/preview/", post_hands({1: WINS, 3: LOSES}), **HTMX)
    page = text(partial)
    assert partial.status_code == 200
    assert 'id="values-3" hx-swap-oob="true"' in page and "ten high" in page and "pair of aces" in page
    assert "Foul" in page and "the wager loses (house rule: forfeit)" in page
    assert "House way" in page and "two pair" in page.lower()
    assert "appears when every hand is in" in page
    page = text(whole)
    assert "Settlement preview" in page
    assert re.search(r'data-seat-row="1".*?Win.*?\+25\.00.*?1\.25.*?\+23\.75', page, re.S)
    assert re.search(r'data-seat-row="3".*?Loss.*?-10\.00', page, re.S)


@pytest.mark.django_db
def test_the_revealed_round_shows_the_house_way_setting_with_its_rule_and_the_totals(
    revealed_round: Round, dealer
) -> None:
    page = text(signed_in(dealer).get(f"/dealer/tables/{revealed_round.table_id}/"))
    rule = revealed_round.hands["banker"]["rule"]
    assert rule and f"data-house-rule>{rule}<" in page.replace("&#x27;", "'")
    assert "Commission to collect" in page and "1.25" in page
    assert "data-house-total>-13.75<" in page  # the house pays 25.00, wins 10.00, collects 1.25


@pytest.mark.django_db
def test_a_german_dealer_reads_the_house_ways_rule_and_the_money_in_german(revealed_round: Round, dealer) -> None:
    client = signed_in(dealer)
    page = text(client.get(f"/dealer/tables/{revealed_round.table_id}/", HTTP_ACCEPT_LANGUAGE="de"))
    rule = revealed_round.hands["banker"]["rule"]
    with translation.override("de"):
        german = way_words(rule)
    assert german != rule and f"data-house-rule>{german}<" in page.replace("&#x27;", "'")
    assert "data-house-total>-13,75<" in page and "1,25" in page and "1.25" not in page


@pytest.mark.django_db
def test_tiles_advice_on_request_shows_each_settings_exact_odds(make_table, shift, dealer) -> None:  # type: ignore[no-untyped-def]
    table = make_table(name="PG-1", game="paigow_tiles", seat_count=7)
    round_ = round_open(actor=dealer, table=table)
    wager_place(actor=dealer, round=round_, seat=2, amount_cents=1000)
    round_close_betting(actor=dealer, round=round_)
    round_deal(actor=dealer, round=round_, dice=[1, 2, 3])
    client = signed_in(dealer)
    page = text(client.get(f"/dealer/tables/{table.pk}/"))
    assert page.count('class="pick"') == 21 and "Advice" in page
    with nothing_written():
        response = client.post(
            f"/dealer/rounds/{round_.pk}/advice/",
            {"seat": "2", "hand-2-high": "6-6 5-5", "hand-2-low": "6-3 2-2"},
            **HTMX,
        )
        short = client.post(f"/dealer/rounds/{round_.pk}/advice/", {"seat": "2", "hand-2-high": "6-6"}, **HTMX)
    page = text(response)
    assert response.status_code == 200 and page.count("<tr") == 4  # a header and the three settings
    assert "0.2104" in page and "best" in page and "house way" in page  # advise's doctest: 5-5 6-3 / 6-6 2-2
    assert short.status_code == 400 and "4 tiles expected, got 1" in text(short)


@pytest.mark.django_db
def test_a_system_deal_prefills_each_hand_set_by_the_house_way(pgp: Table, dealer) -> None:
    round_ = round_open(actor=dealer, table=pgp)
    wager_place(actor=dealer, round=round_, seat=4, amount_cents=1000)
    round_close_betting(actor=dealer, round=round_)
    client = signed_in(dealer)
    page = text(client.post(f"/dealer/rounds/{round_.pk}/deal/", {"auto": "1"}, **HTMX))
    round_.refresh_from_db()
    assert round_.deal_mode == "auto"
    bank = round_.dealt[str(0)]
    assert f'name="hand-bank-cards" value="{bank}"' in page
    high = re.search(r'name="hand-4-high" value="([^"]*)"', page)[1]  # type: ignore[index]
    low = re.search(r'name="hand-4-low" value="([^"]*)"', page)[1]  # type: ignore[index]
    assert sorted(f"{high} {low}".split()) == sorted(round_.dealt["4"].split())
    assert "Settlement preview" in page  # every hand is in: the preview is there at once


# --- a player bank ------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_player_takes_the_bank_and_the_table_bar_says_who_banks_and_for_how_long(
    make_table, shift, dealer, pit_boss
) -> None:  # type: ignore[no-untyped-def]
    rules = rule_set_create(actor=pit_boss, name="PGP rotation", game="paigow_poker", banking_mode="player_rotation")
    table = make_table(name="PGP-R", game="paigow_poker", seat_count=6, rule_set=rules)
    client = signed_in(dealer)
    page = text(client.get(f"/dealer/tables/{table.pk}/"))
    assert "Who banks?" in page and 'data-bank-pick="3"' in page
    without = client.post(f"/dealer/tables/{table.pk}/open/", {"banker": "3"}, **HTMX)
    assert without.status_code == 400 and "say how much the bank puts up" in text(without)
    page = text(client.post(f"/dealer/tables/{table.pk}/open/", {"banker": "3", "bank_cents": "30000"}, **HTMX))
    round_ = Round.objects.get()
    assert round_.bank_seat.number == 3 and round_.bank_cents == 30000
    assert re.search(r"Bank</span>\s*<strong>Seat 3</strong>\s*<small>1 round in a row · 300.00", page)
    assert "More than the bank covers, 300.00." in page


# --- the void request --------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_void_request_waits_for_the_pit_boss_and_the_tablet_reloads_once_decided(
    dealt_round: Round, dealer, pit_boss, django_capture_on_commit_callbacks
) -> None:
    client = signed_in(dealer)
    empty = client.post(f"/dealer/rounds/{dealt_round.pk}/void-request/", {"reason": "  "}, **HTMX)
    assert empty.status_code == 400 and "Say why" in text(empty)
    page = text(client.post(f"/dealer/rounds/{dealt_round.pk}/void-request/", {"reason": "Misdeal"}, **HTMX))
    adjustment = Adjustment.objects.get()
    assert adjustment.kind == "void" and adjustment.status == "pending" and adjustment.requested_by == dealer
    assert "Void requested: waiting for a supervisor" in page
    assert "Request a void" not in page  # one request at a time
    # The tablet polls its table's marker (every change, not only this request's decision).
    version = client.get(f"/dealer/tables/{dealt_round.table_id}/version/").json()["version"]
    assert client.get(f"/dealer/tables/{dealt_round.table_id}/version/").json()["version"] == version
    with django_capture_on_commit_callbacks(execute=True):  # the pit's decision, committed
        adjustment_approve(actor=pit_boss, adjustment=adjustment)
    assert client.get(f"/dealer/tables/{dealt_round.table_id}/version/").json()["version"] != version
    page = text(client.get(f"/dealer/tables/{dealt_round.table_id}/"))
    assert "Round 1 voided" in page and "Misdeal" in page and "Open round" in page


@pytest.mark.django_db
def test_the_tablets_poll_answers_from_the_cache_with_no_query_while_nothing_changed(
    dealt_round: Round,
    dealer,
    other_dealer,
    settings,
    monkeypatch,
    django_assert_num_queries: Callable[..., Any],
    django_capture_on_commit_callbacks,
) -> None:
    """2,000 tablets polling every 3 s is 667 answers a second: while nothing changed each is cache reads only."""
    import casino.live

    monkeypatch.setattr(casino.live, "LOCAL_SECONDS", 60)  # this test's one process is the whole floor
    url = f"/dealer/tables/{dealt_round.table_id}/version/"
    client = signed_in(dealer)
    version = client.get(url).json()["version"]
    with django_assert_num_queries(0):
        assert client.get(url).json()["version"] == version
    with django_capture_on_commit_callbacks(execute=True):  # the dealer records the hands: the table changed
        round_hands_record(
            actor=dealer, round=dealt_round, hands={"banker": {"cards": BANK_CARDS}, "seats": {"1": WINS, "3": LOSES}}
        )
    changed = client.get(url).json()["version"]
    assert changed != version
    with django_assert_num_queries(0):
        assert client.get(url).json()["version"] == changed
    # Another table's dealer is checked, not answered from the cache; signed out, the sign-in page.
    assert signed_in(other_dealer).get(url).status_code == 403
    assert Client().get(url).status_code == 302


@pytest.mark.django_db
def test_the_tablets_poll_after_its_own_wager_reads_no_session_and_a_new_dealer_is_checked_at_once(
    pgp: Table,
    dealer,
    other_dealer,
    pit_boss,
    monkeypatch,
    django_assert_max_num_queries: Callable[..., Any],
    django_capture_on_commit_callbacks,
) -> None:
    """Every poll after a write of the tablet's own misses (the table changed): the marker is read again, but the
    session, the user and their roles are not, while the leave to see the table holds. The pit relieving the dealer
    ends the leave at once: the relieved dealer's next poll is refused, the new dealer's answered."""
    import casino.live

    monkeypatch.setattr(casino.live, "LOCAL_SECONDS", 60)  # this test's one process is the whole floor
    url = f"/dealer/tables/{pgp.pk}/version/"
    client = signed_in(dealer)
    version = client.get(url).json()["version"]
    with django_capture_on_commit_callbacks(execute=True):  # the dealer opens a round and takes a wager
        opened = round_open(actor=dealer, table=pgp)
        wager_place(actor=dealer, round=opened, seat=1, amount_cents=2500)
    with django_assert_max_num_queries(1) as polled:  # the marker's one statement (dealer.sql)
        changed = client.get(url).json()["version"]
    assert changed != version
    read = " ".join(query["sql"] for query in polled.captured_queries)
    assert '"django_session"' not in read and '"auth_user"' not in read and '"auth_group"' not in read
    with django_capture_on_commit_callbacks(execute=True):  # the round voided, the pit relieves the dealer
        round_services.void_round(actor=pit_boss, round=Round.objects.get(pk=opened.pk), reason="Dealer relieved")
        table_assign_dealer(actor=pit_boss, table=pgp, dealer=other_dealer)
    assert client.get(url).status_code == 403
    assert signed_in(other_dealer).get(url).status_code == 200


@pytest.mark.django_db
def test_a_tablets_leave_to_poll_ends_a_minute_after_its_check_however_often_the_table_changes(
    pgp: Table,
    dealer,
    monkeypatch,
    django_assert_max_num_queries: Callable[..., Any],
    django_capture_on_commit_callbacks,
) -> None:
    """The leave found kept is not kept longer: a role taken away or a sign-out is felt within the minute even at a
    busy table, whose every wager makes the poll compute the marker again."""
    import time

    import casino.live

    monkeypatch.setattr(casino.live, "LOCAL_SECONDS", 600)  # this test's one process is the whole floor
    cache_clear()  # no generation an earlier test kept for a table of this id, by the real clock's half second
    now = [time.time()]
    monkeypatch.setattr(time, "time", lambda: now[0])  # the cache's clock
    url = f"/dealer/tables/{pgp.pk}/version/"
    client = signed_in(dealer)
    client.get(url)  # checked: the leave holds a minute from now
    with django_capture_on_commit_callbacks(execute=True):
        opened = round_open(actor=dealer, table=pgp)
    now[0] += 50
    with django_capture_on_commit_callbacks(execute=True):
        wager_place(actor=dealer, round=opened, seat=1, amount_cents=2500)
    with django_assert_max_num_queries(1) as polled:  # within the minute: the marker only
        assert client.get(url).status_code == 200
    assert '"django_session"' not in " ".join(query["sql"] for query in polled.captured_queries)
    now[0] += 20  # 70 s after the check, the table changing all along
    with django_capture_on_commit_callbacks(execute=True):
        wager_place(actor=dealer, round=opened, seat=2, amount_cents=2500)
    with django_assert_max_num_queries(20) as polled:
        assert client.get(url).status_code == 200
    assert '"django_session"' in " ".join(query["sql"] for query in polled.captured_queries)  # checked again


@pytest.mark.django_db
def test_the_tablet_reads_in_a_fixed_number_of_queries(
    revealed_round: Round, dealer, django_assert_max_num_queries: Callable[..., Any]
) -> None:
    client = signed_in(dealer)
    client.get(f"/dealer/tables/{revealed_round.table_id}/")
    with django_assert_max_num_queries(16):  # 15, and the version's read of the rated seats
        assert client.get(f"/dealer/tables/{revealed_round.table_id}/").status_code == 200


@pytest.mark.django_db
def test_an_ofc_street_of_the_wrong_size_is_refused_in_the_services_words(make_table, shift, dealer) -> None:  # type: ignore[no-untyped-def]
    table = make_table(name="OFC-1", game="ofc", seat_count=3)
    round_ = round_open(actor=dealer, table=table)
    for seat in (1, 3):
        wager_place(actor=dealer, round=round_, seat=seat, amount_cents=1000)
    round_close_betting(actor=dealer, round=round_)
    round_deal(actor=dealer, round=round_, dice=[1, 1, 1])
    client = signed_in(dealer)
    page = text(client.get(f"/dealer/tables/{table.pk}/"))
    assert "Street 1" in page and "Place this street" in page and 'data-quota="5"' in page
    assert 'data-pick="Jk"' not in page  # 52 cards: OFC is played without the joker
    with nothing_written():
        short = client.post(f"/dealer/rounds/{round_.pk}/placements/", {"hand-1-back": "Ac Ad Ah"}, **HTMX)
        empty = client.post(f"/dealer/rounds/{round_.pk}/placements/", {}, **HTMX)
    assert short.status_code == 400 and "Seat 1, street 1: the first street places 5 cards, got 3" in text(short)
    assert empty.status_code == 400 and "Tap this street&#x27;s cards into a seat&#x27;s rows first." in text(empty)
    placed = client.post(
        f"/dealer/rounds/{round_.pk}/placements/", {"hand-1-back": "Ac Ad Ah", "hand-1-middle": "Tc Th"}, **HTMX
    )
    assert placed.status_code == 200 and "Street placed." in text(placed)
    placements = {"1": {"front": "", "middle": "Tc Th", "back": "Ac Ad Ah"}, "turns": [[1, 5]]}
    assert Round.objects.get().placements == placements


@pytest.mark.django_db
def test_pai_gow_poker_advice_on_request_shows_each_setting_with_its_margin(dealt_round, dealer) -> None:  # type: ignore[no-untyped-def]
    """Before the house way's flush memo is complete in the process (its first seconds), the advice is sampled."""
    with mock.patch("rules.games.paigow_poker_advice.flush_memo_complete", return_value=False):
        _sampled_advice_shown(dealt_round, dealer)


@pytest.mark.django_db
def test_pai_gow_poker_advice_is_exact_once_the_house_ways_memo_is_complete(dealt_round, dealer) -> None:  # type: ignore[no-untyped-def]
    flush_memo_prepare("golden_nugget")
    response = signed_in(dealer).post(
        f"/dealer/rounds/{dealt_round.pk}/advice/",
        {"seat": "1", "hand-1-high": "As Ad 7s 4d 2c", "hand-1-low": "Kh Kc"},
        **HTMX,
    )
    page = text(response)
    assert response.status_code == 200 and page.count("<tr") == 22
    assert "Exact: against every one of the 53 524 680 bank hands" in page and "±" not in page


def _sampled_advice_shown(dealt_round, dealer) -> None:  # type: ignore[no-untyped-def]
    client = signed_in(dealer)
    page = text(client.get(f"/dealer/tables/{dealt_round.table_id}/"))
    assert 'data-advice="1"' in page  # the house banks: each seat has its Advice button
    with nothing_written():
        response = client.post(
            f"/dealer/rounds/{dealt_round.pk}/advice/",
            {"seat": "1", "hand-1-high": "As Ad 7s 4d 2c", "hand-1-low": "Kh Kc"},
            **HTMX,
        )
    page = text(response)
    assert response.status_code == 200 and page.count("<tr") == 22  # a header and the 21 settings
    assert "best" in page and "house way" in page and "foul" in page  # Kh Kc low under 7-high is no foul; 7 4 low is
    assert "±0.00" in page and "200\u2009000 bank hands" in page and "19 times in 20" in page
