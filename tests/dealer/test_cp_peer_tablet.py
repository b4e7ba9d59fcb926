"""The tablet for Chinese Poker's surrender and swap (GAME_RULES.md §3), and for the tiles' peer variant (§1), and the
pit's set-up turning a tiles table to the peer variant."""

from __future__ import annotations

import pytest
from django.urls import reverse

from dealer.views import REFUSAL_HEADER
from rounds.models import Round
from rounds.services import round_close_betting, round_deal, round_open, wager_place
from rules.services import rule_set_create
from tables.models import Table
from tests.dealer.conftest import HTMX, nothing_written, signed_in, text

SEED_EXAMPLE = {  # GAME_RULES.md §3's worked example
    "1": {"front": "8s 8h 8d", "middle": "Kh Qh Jd Th 9h", "back": "7s 7h 7d Ts Td"},
    "2": {"front": "Ks Js 4s", "middle": "Kc Qc 8c 7c 5c", "back": "Ad Qd 9d 6d 2d"},
    "3": {"front": "Qs Tc 5h", "middle": "Ah Ac 2h 2c 4d", "back": "3s 3h 3d 3c 6h"},
}


def _fields(hands: dict[str, dict[str, str]]) -> dict[str, str]:
    return {f"hand-{seat}-{row}": cards for seat, rows in hands.items() for row, cards in rows.items()}


@pytest.fixture
def cp_dealt(pit_boss, make_table, shift, dealer) -> Round:  # type: ignore[no-untyped-def]
    rules = rule_set_create(
        actor=pit_boss, name="CP S+S", game="chinese_poker", surrender_allowed=True, swap_allowed=True
    )
    table = make_table(name="CP-T", game="chinese_poker", seat_count=4, rule_set=rules)
    round_ = round_open(actor=dealer, table=table)
    for seat in (1, 2, 3):
        wager_place(actor=dealer, round=round_, seat=seat, amount_cents=1000)
    round_close_betting(actor=dealer, round=round_)
    return round_deal(actor=dealer, round=round_, dice=[2, 3, 4])


@pytest.mark.django_db
def test_the_tablet_offers_the_swap_on_a_dealt_three_player_round_and_records_it(dealer, cp_dealt) -> None:
    client = signed_in(dealer)
    page = text(client.get(reverse("dealer-table", args=[cp_dealt.table_id])))
    assert "data-swap" in page and "swap (three players)" in page and "surrender" in page
    assert 'name="surrender-1"' in page  # the hand entry offers each seat's surrender
    answer = client.post(reverse("dealer-swap", args=[cp_dealt.pk]), {"seat": "3", "gave": "Kd", "took": "Qs"}, **HTMX)
    assert answer.status_code == 200
    assert "Seat 3 swapped" in text(answer)
    assert 'data-swap-seat="3"' in text(answer)
    assert Round.objects.get(pk=cp_dealt.pk).hands["swaps"] == [{"seat": 3, "gave": "Kd", "took": "Qs"}]


@pytest.mark.django_db
def test_a_refused_swap_shows_in_the_banner_and_writes_nothing(dealer, cp_dealt) -> None:
    client = signed_in(dealer)
    client.post(reverse("dealer-swap", args=[cp_dealt.pk]), {"seat": "3", "gave": "Kd", "took": "Qs"}, **HTMX)
    for post, message in (
        ({"seat": "3", "gave": "5h", "took": "5s"}, "Seat 3 has already swapped"),
        ({"seat": "1", "gave": "2s 3s", "took": "4h"}, "2 cards given but 1 taken"),
        ({"seat": "", "gave": "2s", "took": "4h"}, "Tap the seat that swaps first"),
        ({"seat": "2", "gave": "Qs", "took": "4h"}, "seat 3 took it in a swap"),
    ):
        with nothing_written():
            answer = client.post(reverse("dealer-swap", args=[cp_dealt.pk]), post, **HTMX)
        assert answer.status_code in (400, 409), post
        assert answer[REFUSAL_HEADER] == "1"
        assert message in text(answer), (message, text(answer))


@pytest.mark.django_db
def test_a_surrender_ticked_with_the_hands_is_stored_and_scored(dealer, cp_dealt) -> None:
    client = signed_in(dealer)
    fields = {**_fields(SEED_EXAMPLE), "surrender-3": "1"}
    answer = client.post(reverse("dealer-hands", args=[cp_dealt.pk]), fields, **HTMX)
    assert answer.status_code == 200
    stored = Round.objects.get(pk=cp_dealt.pk).hands
    assert stored["surrendered"] == [3]
    page = text(client.get(reverse("dealer-table", args=[cp_dealt.table_id])))
    assert "data-surrendered" in page
    assert 'name="surrender-3" value="1" data-surrender checked' in page  # "Change the hands" keeps it ticked
    assert "for seat 1:" in page and "surrender +3" in page


@pytest.mark.django_db
def test_a_surrender_at_a_table_whose_rules_do_not_allow_it_is_refused(dealer, make_table, shift) -> None:
    table = make_table(name="CP-N", game="chinese_poker", seat_count=4)
    round_ = round_open(actor=dealer, table=table)
    for seat in (1, 2, 3):
        wager_place(actor=dealer, round=round_, seat=seat, amount_cents=1000)
    round_close_betting(actor=dealer, round=round_)
    round_deal(actor=dealer, round=round_, dice=[2, 3, 4])
    client = signed_in(dealer)
    page = text(client.get(reverse("dealer-table", args=[table.pk])))
    assert "data-swap" not in page and 'name="surrender-1"' not in page
    with nothing_written():
        answer = client.post(
            reverse("dealer-hands", args=[round_.pk]), {**_fields(SEED_EXAMPLE), "surrender-3": "1"}, **HTMX
        )
    assert answer.status_code == 400
    assert "does not allow surrender" in text(answer)


# --- the tiles' peer variant ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_pit_boss_turns_a_tiles_table_to_the_peer_variant_from_its_set_up(pit_boss, auditor, make_table) -> None:
    table = make_table(name="PGT-1", game="paigow_tiles", seat_count=7)
    boss = signed_in(pit_boss)
    page = text(boss.get(reverse("pit-table-setup", args=[table.pk])))
    assert "data-play-peer" in page
    assert signed_in(auditor).post(reverse("pit-table-setup-peer", args=[table.pk])).status_code == 403
    answer = boss.post(reverse("pit-table-setup-peer", args=[table.pk]), follow=True)
    assert answer.status_code == 200
    assert "plays the peer variant from its next round" in text(answer)
    assert Table.objects.get(pk=table.pk).rule_set.options["mode"] == "peer"
    assert "data-peer-playing" in text(answer)
    pgp = make_table(name="PGP-9", game="paigow_poker", seat_count=6)
    assert "data-play-peer" not in text(boss.get(reverse("pit-table-setup", args=[pgp.pk])))


@pytest.mark.django_db
def test_a_peer_round_on_the_tablet_no_banker_equal_stakes_each_against_each(
    pit_boss, dealer, make_table, shift
) -> None:
    from tables.services import table_play_peer

    table = table_play_peer(actor=pit_boss, table=make_table(name="PGT-2", game="paigow_tiles", seat_count=7))
    client = signed_in(dealer)
    page = text(client.get(reverse("dealer-table", args=[table.pk])))
    assert "peer variant: each player against each, equal stakes" in page
    assert "data-bank-pick" not in page  # nobody banks
    client.post(reverse("dealer-round-open", args=[table.pk]), **HTMX)
    round_ = Round.objects.get(table=table)
    client.post(reverse("dealer-wager", args=[round_.pk]), {"seat": "1", "amount_cents": "2500"}, **HTMX)
    with nothing_written():
        refused = client.post(reverse("dealer-wager", args=[round_.pk]), {"seat": "2", "amount_cents": "5000"}, **HTMX)
    assert refused.status_code == 400 and "equal stakes" in text(refused)
    client.post(reverse("dealer-wager", args=[round_.pk]), {"seat": "2", "amount_cents": "2500"}, **HTMX)
    client.post(reverse("dealer-close-betting", args=[round_.pk]), **HTMX)
    client.post(reverse("dealer-deal", args=[round_.pk]), {"die1": "3", "die2": "4", "die3": "5"}, **HTMX)
    page = text(client.get(reverse("dealer-table", args=[table.pk])))
    assert 'data-group="bank"' not in page and 'data-group="1"' in page and 'data-group="2"' in page
    hands = {"hand-1-high": "6-6 6-6", "hand-1-low": "1-1 5-4", "hand-2-high": "4-4 6-1", "hand-2-low": "3-1 5-1"}
    assert client.post(reverse("dealer-hands", args=[round_.pk]), hands, **HTMX).status_code == 200
    page = text(client.get(reverse("dealer-table", args=[table.pk])))
    key = page.split('name="idempotency_key" value="')[1].split('"')[0]
    settled = client.post(reverse("dealer-settle", args=[round_.pk]), {"idempotency_key": key}, **HTMX)
    assert settled.status_code == 200
    assert "Seat 2 pays seat 1" in text(settled)


@pytest.mark.django_db
def test_after_a_system_deal_swap_the_entry_starts_from_the_hand_the_seat_now_holds(
    pit_boss, make_table, shift, dealer
) -> None:
    import random

    from rules.games.cards import cards_text, deck, parse_cards

    rules = rule_set_create(actor=pit_boss, name="CP swap", game="chinese_poker", swap_allowed=True)
    table = make_table(name="CP-A", game="chinese_poker", seat_count=4, rule_set=rules)
    round_ = round_open(actor=dealer, table=table)
    for seat in (1, 2, 3):
        wager_place(actor=dealer, round=round_, seat=seat, amount_cents=1000)
    round_close_betting(actor=dealer, round=round_)
    round_ = round_deal(actor=dealer, round=round_, auto=True, rng=random.Random(11))
    used = {card for hand in round_.dealt.values() for card in parse_cards(hand)}
    undealt = [card for card in deck(joker=False) if card not in used]
    give = parse_cards(round_.dealt["2"])[0]
    client = signed_in(dealer)
    page = text(client.get(reverse("dealer-table", args=[table.pk])))
    assert f"<strong>{cards_text(undealt)}</strong>" in page  # the 13 undealt cards, shown in training
    client.post(
        reverse("dealer-swap", args=[round_.pk]),
        {"seat": "2", "gave": cards_text([give]), "took": cards_text(undealt[:1])},
        **HTMX,
    )
    page = text(client.get(reverse("dealer-table", args=[table.pk])))
    seat_2 = " ".join(
        page.split(f'name="hand-2-{row}" value="')[1].split('"')[0] for row in ("front", "middle", "back")
    )
    assert str(undealt[0]) in seat_2.split() and str(give) not in seat_2.split()
    left = {*undealt[1:], give}  # the undealt cards after the swap, in the deck's order
    assert f"<strong>{cards_text(card for card in deck(joker=False) if card in left)}</strong>" in page
