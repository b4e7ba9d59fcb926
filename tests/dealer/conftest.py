"""What the dealer tablet's tests share: a Pai Gow Poker table (PGP-1) and its round 1 at each step, signed-in
clients, and a check that a request wrote nothing. Dana deals at PGP-1; Olly deals elsewhere; Paula is the pit
boss; Fred a floor supervisor; Alex the auditor."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.test import Client

from casino.models import AuditEvent
from casino.roles import Role
from ledger.models import LedgerEntry, Posting
from rounds.models import Adjustment, Round, Wager
from rounds.services import round_close_betting, round_deal, round_hands_record, round_open, wager_place
from settlement.services import settle_round
from tables.models import Table

HTMX = {"HTTP_HX_REQUEST": "true"}
# Pai Gow Poker against the house's queens over jacks (tests/settlement/conftest.py).
BANK_CARDS = "Qs Qd 8s 5d 3c Jh Jc"
WINS = {"high": "As Ad 7s 4d 2c", "low": "Kh Kc"}
LOSES = {"high": "Ts Td 9h 6c 4h", "low": "9d 2d"}


def post_hands(seat_hands: dict[int, dict[str, str]], bank_cards: str = BANK_CARDS) -> dict[str, str]:
    fields = {"hand-bank-cards": bank_cards}
    for seat, hand in seat_hands.items():
        for part, cards in hand.items():
            fields[f"hand-{seat}-{part}"] = cards
    return fields


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def text(response: Any) -> str:
    return response.content.decode()


def _counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in (Round, Wager, Posting, LedgerEntry, Adjustment)} | {
        "AuditEvent": AuditEvent.objects.count()
    }


@contextmanager
def nothing_written() -> Iterator[None]:
    before = _counts()
    rounds = list(Round.objects.values_list("pk", "state", "hands", "dice", "placements"))
    yield
    assert _counts() == before
    assert list(Round.objects.values_list("pk", "state", "hands", "dice", "placements")) == rounds


@pytest.fixture
def other_dealer(make_user):  # type: ignore[no-untyped-def]
    return make_user("olly_other_dealer", Role.DEALER)


@pytest.fixture
def pgp(make_table, shift) -> Table:  # type: ignore[no-untyped-def]
    return make_table(name="PGP-1", game="paigow_poker", seat_count=6)


@pytest.fixture
def open_round(pgp: Table, dealer) -> Round:  # type: ignore[no-untyped-def]
    """Round 1 at PGP-1, betting open: seat 1 wagers 25.00."""
    round_ = round_open(actor=dealer, table=pgp)
    wager_place(actor=dealer, round=round_, seat=1, amount_cents=2500)
    return round_


@pytest.fixture
def dealt_round(open_round: Round, dealer) -> Round:  # type: ignore[no-untyped-def]
    """Round 1 at PGP-1: seat 1 wagers 25.00, seat 3 wagers 10.00, the dice rolled 3 5 6."""
    wager_place(actor=dealer, round=open_round, seat=3, amount_cents=1000)
    round_close_betting(actor=dealer, round=open_round)
    return round_deal(actor=dealer, round=open_round, dice=[3, 5, 6])


@pytest.fixture
def revealed_round(dealt_round: Round, dealer) -> Round:  # type: ignore[no-untyped-def]
    hands = {"banker": {"cards": BANK_CARDS}, "seats": {"1": WINS, "3": LOSES}}
    return round_hands_record(actor=dealer, round=dealt_round, hands=hands)


@pytest.fixture
def settled_round(revealed_round: Round, dealer) -> Round:  # type: ignore[no-untyped-def]
    settle_round(round=revealed_round, actor=dealer, idempotency_key="dana-settles-1")
    revealed_round.refresh_from_db()
    return revealed_round
