"""What the settlement tests share: a Pai Gow Poker table, playing a round up to its hands, and the ledger's view."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from typing import Any

import pytest
from django.db.models import Sum

from casino.models import AuditEvent
from ledger.models import LedgerEntry, Posting
from rounds.models import Round, Wager
from rounds.selectors import seat_value
from rounds.services import round_close_betting, round_deal, round_hands_record, round_open, wager_place
from tables.models import Table

# The house's hand in most Pai Gow Poker tests: a pair of queens over a pair of jacks.
BANK = {"high": "Qs Qd 8s 5d 3c", "low": "Jh Jc"}
# Against it (each checked with rules.games.paigow_poker.outcome):
WINS = {"high": "As Ad 7s 4d 2c", "low": "Kh Kc"}  # aces beat queens, kings beat jacks
LOSES = {"high": "Ts Td 9h 6c 4h", "low": "9d 2d"}  # tens under queens, nine-high under jacks
PUSHES = {"high": "Ks Kd 9s 6d 3d", "low": "8h 7c"}  # kings win the high, eight-high loses the low
COPIES_BOTH = {"high": "Qh Qc 8h 5c 3s", "low": "Js Jd"}  # the same hands in other suits


@pytest.fixture
def pgp_table(make_table) -> Table:  # type: ignore[no-untyped-def]
    """A six-seat Pai Gow Poker table on the default house rules: the house banks, players pay 5%."""
    return make_table(name="PGP-1", game="paigow_poker", seat_count=6)


@pytest.fixture
def play_to_hands(dealer) -> Callable[..., Round]:  # type: ignore[no-untyped-def]
    """Open a round, take the wagers, close the betting, roll the dice and enter the hands: a revealed round."""

    def play(
        table: Table,
        *,
        wagers: Mapping[int, int],
        hands: Mapping[str, Any],
        dice: tuple[int, int, int] = (1, 1, 1),
        banker_seat: int | None = None,
        bank_cents: int | None = None,
        actor: Any = None,
    ) -> Round:
        actor = actor or dealer
        round_ = round_open(actor=actor, table=table, banker_seat=banker_seat, bank_cents=bank_cents)
        for seat, amount in wagers.items():
            wager_place(actor=actor, round=round_, seat=seat, amount_cents=amount)
        round_close_betting(actor=actor, round=round_)
        round_deal(actor=actor, round=round_, dice=list(dice))
        return round_hands_record(actor=actor, round=round_, hands=dict(hands))

    return play


def _balance(round_: Round, account: str) -> dict[int | None, int]:
    rows = (
        LedgerEntry.objects.filter(round_id=round_.pk, account=account)
        .annotate(seat_number=seat_value())
        .values_list("seat_number")
        .annotate(total=Sum("amount_cents"))
        .order_by("seat_number")
    )
    return dict(rows)  # type: ignore[arg-type]


@pytest.fixture
def balances() -> Callable[[Round, str], dict[int | None, int]]:
    """What each seat (or the house, under None) holds in one account of a round: the sum of its ledger entries."""
    return _balance


def _entries(posting: Posting) -> list[tuple[str, int | None, int, str]]:
    return [
        (e.account, e.seat_number, e.amount_cents, e.kind)
        for e in posting.entries.annotate(seat_number=seat_value()).order_by("pk")
    ]


@pytest.fixture
def entries() -> Callable[[Posting], list[tuple[str, int | None, int, str]]]:
    """A posting's ledger lines as (account, seat number, amount, kind), in the order written."""
    return _entries


def _counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in (Wager, Posting, LedgerEntry, AuditEvent)}


def _round_state(round_: Round) -> dict[str, Any]:
    stored = Round.objects.get(pk=round_.pk)
    fields = ("state", "state_changed_at", "dice", "action_order", "dealt", "hands", "placements", "bank_cents")
    return {name: getattr(stored, name) for name in fields}


@pytest.fixture
def nothing_written() -> Callable[[Round], AbstractContextManager[None]]:
    """Assert that what runs inside writes no wager, posting, ledger entry or audit event, and leaves the round be."""

    @contextmanager
    def check(round_: Round) -> Iterator[None]:
        counts, state = _counts(), _round_state(round_)
        yield
        assert _counts() == counts
        assert _round_state(round_) == state

    return check
