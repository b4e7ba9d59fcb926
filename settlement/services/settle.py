"""Settling a round, once: every hand checked again, the engine's outcomes, commission and rake, the ledger
postings and the round's move to ``settled`` in one transaction, idempotent on a key (DESIGN.md, step 5).
Also the dealer's preview of a settlement, which writes nothing.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any, TypeAlias, TypedDict

from django.contrib.auth.models import User
from django.db import IntegrityError
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.errors import ApplicationError, WrongState
from casino.idempotency import write_transaction
from casino.metrics import SETTLE_SECONDS
from casino.roles import TABLE_STAFF, require_role
from ledger.models import Posting
from ledger.services import PostingRecord, posting_record
from ledger.sql import key_used_sql
from players.rating import round_settled_rate
from rounds.models import Round
from rounds.results import (
    BankedResult,
    PointsResult,
    is_points,
    posting_hands,
    posting_result,
    settlement_post,
)
from rounds.services.house_wager import house_wager_cents
from rounds.services.play import read_hands, round_wagers
from rounds.services.transitions import round_transition
from rounds.sql import round_lock_reading, stakes_read, stakes_sql
from rounds.states import RoundState, check_move
from rules import hands as round_hands
from rules.hands import HandsEntered, StoredHands, stored_hands
from settlement import compute
from tables.permissions import require_act_at_table

MAX_KEY_LENGTH = 200


class SettlementAnswer(TypedDict):
    """What a settle or a correction answers: which settlement of which round (the posting, its key, the round, its
    rules' version, when it settled, the settlement it corrects, the bank's seat, the hands it settled), then its
    result's lines (``BankedAnswer``, ``PointsAnswer``; none for a posting that holds no result, a row no service
    writes)."""

    settlement_id: int
    idempotency_key: str | None
    round: int
    table: int
    table_name: str
    number: int
    game: str
    rule_set_version: str
    settled_at: str
    corrects: int | None
    bank_seat: int | None
    hands: StoredHands | None


class BankedAnswer(SettlementAnswer, BankedResult):
    pass


class PointsAnswer(SettlementAnswer, PointsResult):
    pass


class PreviewHead(TypedDict):
    round: int
    preview: bool
    hands: StoredHands


class BankedPreview(PreviewHead, BankedResult):
    pass


class PointsPreview(PreviewHead, PointsResult):
    pass


SettlementPreview: TypeAlias = BankedPreview | PointsPreview


def used_key_posting(key: str) -> Posting:
    """The posting a key was already used for."""
    return Posting.objects.get(idempotency_key=key)


# --- settling -------------------------------------------------------------------------------------


def check_key(idempotency_key: str | None) -> str:
    """The idempotency key of a settle or a correction, trimmed; refused when missing or too long."""
    key = (idempotency_key or "").strip()
    if not key:
        raise ApplicationError(
            _("A settlement needs an idempotency key (the Idempotency-Key header): the same key never pays twice."),
            extra={"field": "idempotency_key"},
        )
    if len(key) > MAX_KEY_LENGTH:
        raise ApplicationError(
            _("An idempotency key is at most %(most)s characters.") % {"most": MAX_KEY_LENGTH},
            extra={"field": "idempotency_key"},
        )
    return key


def settlement_body(posting: Posting, round_: Round) -> SettlementAnswer:
    """What a settle (or correction) call answers, rebuilt the same from the stored posting (of ``round_``) on every
    retry."""
    head: SettlementAnswer = {
        "settlement_id": posting.pk,
        "idempotency_key": posting.idempotency_key,
        "round": round_.pk,
        "table": round_.table_id,
        "table_name": round_.table.name,
        "number": round_.number,
        "game": round_.rule_set_snapshot["game"],
        "rule_set_version": round_.rule_set_snapshot["version"],
        "settled_at": posting.created_at.astimezone(dt.UTC).isoformat().replace("+00:00", "Z"),  # RFC 3339, as DRF
        "corrects": posting.corrects_id,
        "bank_seat": round_.bank_seat.number if round_.bank_seat is not None else None,
        "hands": posting_hands(posting),
    }
    result = posting_result(posting)
    if result is None:
        return head
    if is_points(result):
        points: PointsAnswer = {**head, **result}
        return points
    banked: BankedAnswer = {**head, **result}
    return banked


def replay(existing: Posting, round_: Round, *, correction: bool) -> SettlementAnswer:
    """The stored answer for a retried key, if the key was used for this very act; otherwise refuse."""
    same_act = existing.kind == Posting.Kind.SETTLEMENT and (existing.corrects_id is not None) == correction
    if existing.round_id != round_.pk or not same_act:
        used_for = _("a correction") if existing.corrects_id is not None else existing.get_kind_display()
        where = ""
        if existing.round_id is not None:
            other = Round.objects.select_related("table").get(pk=existing.round_id)
            where = ", " + _("round %(round)s at table %(table)s") % {"round": other.number, "table": other.table.name}
        raise WrongState(
            _("This idempotency key was already used for %(used_for)s (posting %(posting)s%(where)s): use a new key.")
            % {"used_for": used_for, "posting": existing.pk, "where": where},
            extra={"field": "idempotency_key"},
        )
    return settlement_body(existing, round_)


def settlement_compute(round_: Round, read: round_hands.RoundHands, wagers: Mapping[int, int]) -> compute.Computed:
    """What the round pays with these hands, by its frozen rules, its action order and its bank (the settle, the
    preview and the replay, ``settlement.replay``, ask the same)."""
    return compute.settle(
        snapshot=round_.rule_set_snapshot,
        hands=read,
        wagers=wagers,
        order=round_.action_order or [],
        bank_seat=round_.bank_seat.number if round_.bank_seat is not None else None,
        bank_cents=round_.bank_cents,
        house_cents=house_wager_cents(round_),
    )


def settle_into(
    locked: Round,
    *,
    actor: User | None,
    key: str,
    read: round_hands.RoundHands,
    wagers: Mapping[int, int],
    seat_ids: Mapping[int, int],
    stored: StoredHands,
    corrects: Posting | None = None,
    reason: str = "",
) -> Posting:
    """Post the settlement of the locked round with these hands: what it pays, as one balanced posting."""
    computed = settlement_compute(locked, read, wagers)
    return settlement_post(
        round_id=locked.pk,
        lines=computed.lines,
        actor=actor,
        seat_ids=seat_ids,
        key=key,
        hands=stored,
        result=computed.result,
        corrects=corrects,
        reason=reason,
    )


@contextmanager
def key_race() -> Iterator[None]:
    """A key taken at the same moment by a settlement of another round (the unique index decides)."""
    try:
        yield
    except IntegrityError as exc:
        raise WrongState(
            _("This idempotency key was used at the same moment for another settlement: use a new key."),
            extra={"field": "idempotency_key"},
        ) from exc


def _settled_by(round_: Round) -> str:
    """ " by lee at 14:05": who settled the round and when (the floor's clock), for the second tablet that tries."""
    posting = (
        Posting.objects.filter(round_id=round_.pk, kind=Posting.Kind.SETTLEMENT)
        .select_related("actor")
        .order_by("-pk")
        .only("created_at", "actor__username")
        .first()
    )
    if posting is None:
        return ""
    who = " " + _("by %(user)s") % {"user": posting.actor.get_username()} if posting.actor is not None else ""
    return who + " " + _("at %(time)s") % {"time": f"{timezone.localtime(posting.created_at):%H:%M}"}


def settle_round(*, round: Round, actor: User | None, idempotency_key: str) -> SettlementAnswer:
    """Settle a revealed round by its frozen rules and post its balanced ledger entries, once.

    Checks every hand again (``rules.hands``), asks the engine for each outcome or score
    sheet, computes commission and rake (``settlement.compute``), posts the entries and
    moves the round to ``settled``, all in one transaction. The same key returns the same
    answer, however often it is retried; another attempt on a settled round is refused.
    """
    started = time.perf_counter()
    key = check_key(idempotency_key)
    require_role(actor, *TABLE_STAFF, action="settle a round")
    require_act_at_table(actor, round.table, action="settle a round")
    with key_race(), write_transaction():
        # The round locked, then whether the key was used and the wagers (one round trip on PostgreSQL).
        # The key is looked up under the round's lock: a retry waits for the first attempt to commit,
        # then finds its posting and answers the same.
        locked, standing, (key_used, stakes) = round_lock_reading(round, key_used_sql(key), stakes_sql(round))
        require_act_at_table(actor, locked.table, action="settle a round")
        if key_used:
            return replay(used_key_posting(key), locked, correction=False)
        if locked.state == RoundState.SETTLED:
            raise WrongState(
                _(
                    "Round %(round)s was already settled%(by_whom)s, from another tablet or page: it is "
                    "never paid twice. Reload to see its result; a supervisor corrects a settled round."
                )
                % {"round": locked.number, "by_whom": _settled_by(locked)},
                extra={"field": "idempotency_key"},
            )
        check_move(locked.state, RoundState.SETTLED, round_number=locked.number, round_id=locked.pk)
        hands = stored_hands(locked.hands)
        if hands is None:
            raise WrongState(_("Round %(round)s has no hands entered.") % {"round": locked.number})
        wagers, seat_ids = stakes_read(locked, stakes)
        read = read_hands(locked, entered_hands(hands), wagers=wagers, complete_boards=True)
        posting = settle_into(locked, actor=actor, key=key, read=read, wagers=wagers, seat_ids=seat_ids, stored=hands)
        round_settled_rate(round=locked, posting=posting)  # the ratings it feeds, recorded by the settle's event
        round_transition(
            standing=standing,
            actor=actor,
            round=locked,
            target=RoundState.SETTLED,
            money=settlement_money(posting),
        )
    SETTLE_SECONDS.labels(locked.rule_set_snapshot["game"]).observe(time.perf_counter() - started)
    return settlement_body(posting, locked)


class SettlementMoney(TypedDict):
    """A settlement's money as its audit event records it: its postings line by line, each seat's net (by seat
    number, as text), the player bank's net and the house's total."""

    postings: list[PostingRecord]
    seats: dict[str, int]
    bank_net_cents: int | None
    house_total_cents: int | None


def settlement_money(posting: Posting, *also: Posting) -> SettlementMoney:
    """What a settlement's audit event records of its money: the posting (and ``also``, a correction's reversal)
    line by line, and the settlement's net per seat, the player bank's and the house's."""
    result = posting_result(posting)
    bank = result["bank"] if result is not None else None
    return {
        "postings": [posting_record(p) for p in (*also, posting)],
        "seats": {str(line["seat"]): line["net_cents"] for line in (result["seats"] if result is not None else ())},
        "bank_net_cents": bank["net_cents"] if bank else None,
        "house_total_cents": result["house"]["total_cents"] if result is not None else None,
    }


def entered_hands(stored: Mapping[str, Any]) -> HandsEntered:
    """Stored hands as they would be entered: each setting or arrangement, without the notes kept beside it."""
    parts = ("high", "low", "front", "middle", "back")
    payload: HandsEntered = {
        "seats": {seat: {k: v for k, v in hand.items() if k in parts} for seat, hand in stored["seats"].items()}
    }
    if stored.get("banker") is not None:
        payload["banker"] = {k: v for k, v in stored["banker"].items() if k in parts}
    house = stored.get("house")
    if house is not None:  # the house's hand against a player bank: its cards, for the house way to set again
        payload["house"] = {"cards": house["cards"] if "cards" in house else f"{house['high']} {house['low']}"}
    # Chinese Poker's surrender and swaps (``rules.surrender_swap``).
    if stored.get("surrendered"):
        payload["surrendered"] = stored["surrendered"]
    if stored.get("swaps"):
        payload["swaps"] = stored["swaps"]
    # Open-Face's placement history (``rules.hands.ofc_history_check``).
    if "turns" in stored:
        payload["turns"] = stored["turns"]
    if "fantasyland" in stored:
        payload["fantasyland"] = stored["fantasyland"]
    return payload


def settlement_preview(*, round: Round, hands: Mapping[str, Any]) -> SettlementPreview:
    """What settling ``round`` with ``hands`` would pay, without writing anything (the dealer's preview).

    The hands are checked as ``round_hands_record`` checks them; the answer has the
    settle call's shape (per seat outcome, won, commission, net; the bank's and the
    house's totals) plus ``hands``, the hands as they would be stored (the house way's
    setting and rule for a bank left unset, a foul marked on each fouled seat).
    """
    round_ = Round.objects.select_related("table", "bank_seat", "house_wager").get(pk=round.pk)
    wagers = round_wagers(round_)
    read = read_hands(round_, hands, wagers=wagers, complete_boards=True)
    computed = settlement_compute(round_, read, wagers)
    head: PreviewHead = {"round": round_.pk, "preview": True, "hands": read.stored}
    if is_points(computed.result):
        points: PointsPreview = {**head, **computed.result}
        return points
    banked: BankedPreview = {**head, **computed.result}
    return banked
