"""What the pit's correction pages read: a request beside the round it would change, and a round's hands as a
supervisor's correction form starts from.

A supervisor decides a correction by comparing the hands as settled with the hands asked for and what the
correction would pay: ``correction_review`` puts the two side by side, with each seat's net now and after
(``settlement_preview``, which writes nothing). ``correction_form`` turns a settled round's hands into the
fields a supervisor edits (``hand-<position>-<part>``) and ``correction_hands`` reads them back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from django.utils.translation import gettext_lazy

from casino.errors import ApplicationError
from ledger.models import Posting
from rounds.models import Adjustment, Round
from rounds.results import SettlementResult, posting_result, settled_hands
from rounds.selectors import round_postings, round_queryset
from rounds.states import RoundState
from rules.faces import PART_LABELS, PositionHand, positions_faces
from rules.games import registry
from rules.hands import HandsEntered, entry_fields
from settlement.selectors import settlement_in_force
from settlement.services.settle import entered_hands, settlement_preview


@dataclass(frozen=True)
class NetLine:
    """One party's net on the round now and after the correction (cents): ``party`` is ``seat`` (a player),
    ``bank`` (a player banker, at ``seat``) or ``house``."""

    party: str
    seat: int | None
    now_cents: int
    after_cents: int | None

    @property
    def change_cents(self) -> int | None:
        return None if self.after_cents is None else self.after_cents - self.now_cents


@dataclass(frozen=True)
class CorrectionReview:
    """A void or correction request with what a supervisor needs to decide it.

    ``settled`` are the hands the round stands on, ``asked`` the corrected hands (empty for a void), ``changed``
    the positions whose hand differs; ``nets`` each seat's, the bank's and the house's net now and after;
    ``preview_error`` says why the correction cannot be computed now (the round changed meanwhile).
    """

    adjustment: Adjustment
    round: Round
    tiles: bool
    settled: list[PositionHand]
    asked: list[PositionHand]
    changed: frozenset[str]
    nets: list[NetLine] = field(default_factory=list)
    preview_error: str = ""


def _nets(result: SettlementResult) -> dict[tuple[str, int | None], int]:
    nets: dict[tuple[str, int | None], int] = {("seat", line["seat"]): line["net_cents"] for line in result["seats"]}
    bank = result["bank"]
    if bank:
        nets["bank", bank["seat"]] = bank["net_cents"]
    nets["house", None] = result["house"]["total_cents"]
    return nets


def _settlement_before(round_: Round, adjustment: Adjustment) -> Posting | None:
    """The settlement the request is about: the one in force while it waits (or was rejected), the one it
    corrected once approved."""
    postings = {posting.pk: posting for posting in round_postings(round_)}
    approved = postings.get(adjustment.posting_id) if adjustment.posting_id else None
    if adjustment.kind == Adjustment.Kind.CORRECTION and approved is not None and approved.corrects_id:
        return postings[approved.corrects_id]
    return settlement_in_force(round_)


def correction_review(*, adjustment: Adjustment) -> CorrectionReview:
    """The request beside its round: the hands settled and asked for, and, for a correction still waiting, what it
    would pay (computed, not written)."""
    round_ = round_queryset().get(pk=adjustment.round_id)
    tiles = registry.game(round_.table.game).tiles
    current = _settlement_before(round_, adjustment)
    settled_stored = settled_hands(round_, current)
    settled = positions_faces(settled_stored, tiles=tiles)
    if adjustment.kind != Adjustment.Kind.CORRECTION or not adjustment.hands:
        return CorrectionReview(
            adjustment=adjustment, round=round_, tiles=tiles, settled=settled, asked=[], changed=frozenset()
        )
    asked = positions_faces(adjustment.hands, tiles=tiles)
    as_entered = entered_hands(settled_stored or {"seats": {}})
    before = {hand.key: hand.text for hand in positions_faces(as_entered, tiles=tiles)}
    # The house's hand against a player bank is entered unset (its cards) and stored set by the house way: compared
    # as stored, the way the request stores it.
    before |= {hand.key: hand.text for hand in settled if hand.key == "house"}
    changed = frozenset(hand.key for hand in asked if before.get(hand.key) != hand.text)
    result = posting_result(current) if current is not None else None
    now = _nets(result) if result is not None else {}
    after: dict[tuple[str, int | None], int] = {}
    error = ""
    if adjustment.status == Adjustment.Status.PENDING and round_.state == RoundState.SETTLED:
        try:
            after = _nets(settlement_preview(round=round_, hands=adjustment.hands))
        except ApplicationError as exc:
            error = exc.message
    order = {"seat": 0, "bank": 1, "house": 2}
    nets = [
        NetLine(party=party, seat=seat, now_cents=cents, after_cents=after.get((party, seat)))
        for (party, seat), cents in sorted(now.items(), key=lambda item: (order[item[0][0]], item[0][1] or 0))
    ]
    return CorrectionReview(
        adjustment=adjustment,
        round=round_,
        tiles=tiles,
        settled=settled,
        asked=asked,
        changed=changed,
        nets=nets,
        preview_error=error,
    )


# The field of a house hand given unset, for the house way to set.
UNSET_LABELS = {
    "cards": gettext_lazy("Cards (the house way sets them)"),
    "tiles": gettext_lazy("Tiles (the house way sets them)"),
}


@dataclass(frozen=True)
class FormPosition:
    """One position of the correction form (``bank`` or a seat number): its fields (``name``, label, value)."""

    key: str
    fields: list[dict[str, str]]


def correction_form(*, round: Round, posted: Mapping[str, str] | None = None) -> list[FormPosition]:
    """The settled round's hands as the correction form's fields (``rules.hands.entry_fields``, as the tablet
    enters them: a house hand the house way set comes back unset, for the house way to set again), each holding
    what was posted (a refused form keeps what the supervisor typed) or else the hand as settled."""
    current = settlement_in_force(round)
    stored = settled_hands(round, current)
    noun = registry.game(round.table.game).noun
    fields = entry_fields(stored or {"seats": {}}, noun=noun, house_banks=round.bank_seat_id is None)
    labels = {**{part: str(label) for part, label in PART_LABELS.items()}, noun: str(UNSET_LABELS[noun])}
    grouped: dict[str, list[dict[str, str]]] = {}
    for name, value in fields.items():
        key, part = name.removeprefix("hand-").rsplit("-", 1)
        typed = posted.get(name, value) if posted is not None else value
        grouped.setdefault(key, []).append({"name": name, "label": labels[part], "value": typed})
    order = sorted(grouped, key=lambda key: -1 if key == "bank" else int(key))
    return [FormPosition(key=key, fields=grouped[key]) for key in order]


def correction_hands(*, form: list[FormPosition]) -> HandsEntered:
    """The correction form's fields read back as the hands ``correction_submit`` takes."""
    hands: HandsEntered = {"seats": {}}
    for position in form:
        parts = {f["name"].rsplit("-", 1)[1]: f["value"].strip() for f in position.fields}
        if position.key == "bank":
            hands["banker"] = parts  # a setting, or all its cards or tiles for the house way
        else:
            hands["seats"][position.key] = parts
    return hands
