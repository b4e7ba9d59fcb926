"""Settling once, voiding and correcting: the idempotency key, the void posting, the reversal and the new settlement."""

from __future__ import annotations

import pytest

from casino.errors import ApplicationError, NotAllowed, WrongState
from casino.models import AuditEvent
from ledger.models import LedgerEntry, Posting
from ledger.verify import ledger_verify
from rounds.models import Round
from rounds.services import round_open, void_round, wager_place
from settlement.services import correct_round, settle_round
from tests.settlement.conftest import BANK, LOSES, PUSHES, WINS

HANDS = {"banker": BANK, "seats": {"1": WINS, "2": LOSES}}
# The dealer keyed in the wrong cards for seat 2: it held the pushing hand (kings high, eight-seven low).
CORRECTED = {"banker": BANK, "seats": {"1": WINS, "2": PUSHES}}


@pytest.fixture
def revealed(dealer, shift, pgp_table, play_to_hands) -> Round:  # type: ignore[no-untyped-def]
    """Seat 1 wins 25.00 (net 23.75), seat 2 loses 10.00."""
    return play_to_hands(pgp_table, wagers={1: 2500, 2: 1000}, hands=HANDS)


@pytest.fixture
def settled(dealer, revealed) -> Round:  # type: ignore[no-untyped-def]
    settle_round(round=revealed, actor=dealer, idempotency_key="settle-1")
    return Round.objects.get(pk=revealed.pk)


# --- settling once --------------------------------------------------------------------------------


@pytest.mark.django_db
def test_settling_moves_the_round_to_settled_and_writes_its_audit_event(dealer, revealed) -> None:
    body = settle_round(round=revealed, actor=dealer, idempotency_key="settle-1")
    assert Round.objects.get(pk=revealed.pk).state == "settled"
    assert (body["table_name"], body["number"], body["game"], body["corrects"]) == ("PGP-1", 1, "paigow_poker", None)
    assert body["table"] == revealed.table_id
    assert body["settlement_id"] == Posting.objects.get(round_id=revealed.pk, kind="settlement").pk
    event = AuditEvent.objects.get(event_type="round.settled")
    assert (event.before["state"], event.after["state"], event.actor) == ("revealed", "settled", dealer)
    assert ledger_verify().ok


@pytest.mark.django_db
def test_the_same_key_twice_answers_the_same_and_pays_once(dealer, revealed) -> None:
    first = settle_round(round=revealed, actor=dealer, idempotency_key="settle-1")
    counts = (Posting.objects.count(), LedgerEntry.objects.count(), AuditEvent.objects.count())
    again = settle_round(round=revealed, actor=dealer, idempotency_key="settle-1")
    assert again == first
    assert (Posting.objects.count(), LedgerEntry.objects.count(), AuditEvent.objects.count()) == counts
    assert Posting.objects.filter(round_id=revealed.pk, kind="settlement").count() == 1


@pytest.mark.django_db
def test_a_settled_round_is_never_settled_again_with_another_key(dealer, settled, nothing_written) -> None:
    settled_by = (
        f"Round 1 was already settled by {dealer.username} at [0-9][0-9]:[0-9][0-9], from another tablet or page"
    )
    with nothing_written(settled), pytest.raises(WrongState, match=settled_by):
        settle_round(round=settled, actor=dealer, idempotency_key="settle-2")


@pytest.mark.django_db
def test_a_key_used_on_one_round_is_refused_on_another(dealer, settled, pgp_table, play_to_hands, nothing_written):
    second = play_to_hands(pgp_table, wagers={1: 2500}, hands={"banker": BANK, "seats": {"1": WINS}})
    used = Posting.objects.get(round_id=settled.pk, kind="settlement").pk
    with (
        nothing_written(second),
        pytest.raises(
            WrongState, match=rf"already used for settlement \(posting {used}, round 1 at table PGP-1\): use a new"
        ),
    ):
        settle_round(round=second, actor=dealer, idempotency_key="settle-1")
    assert Round.objects.get(pk=second.pk).state == "revealed"


@pytest.mark.django_db
@pytest.mark.parametrize("key", ["", "   ", None])
def test_a_settlement_needs_an_idempotency_key(dealer, revealed, nothing_written, key) -> None:
    with nothing_written(revealed), pytest.raises(ApplicationError, match="A settlement needs an idempotency key"):
        settle_round(round=revealed, actor=dealer, idempotency_key=key)


@pytest.mark.django_db
def test_an_idempotency_key_is_at_most_200_characters(dealer, revealed, nothing_written) -> None:
    with nothing_written(revealed), pytest.raises(ApplicationError, match="at most 200 characters"):
        settle_round(round=revealed, actor=dealer, idempotency_key="k" * 201)


# --- voids ----------------------------------------------------------------------------------------


@pytest.fixture
def round_with_wagers(dealer, shift, pgp_table) -> Round:  # type: ignore[no-untyped-def]
    round_ = round_open(actor=dealer, table=pgp_table)
    wager_place(actor=dealer, round=round_, seat=1, amount_cents=2500)
    wager_place(actor=dealer, round=round_, seat=4, amount_cents=1000)
    return round_


@pytest.mark.django_db
def test_a_void_returns_every_wager_in_one_posting_that_undoes_the_wagers_line_for_line(
    floor_supervisor, round_with_wagers, entries, balances
):
    void_round(actor=floor_supervisor, round=round_with_wagers, reason="Deck found one card short")
    (void,) = Posting.objects.filter(round_id=round_with_wagers.pk, kind="void")
    assert (void.actor, void.reason) == (floor_supervisor, "Deck found one card short")
    assert entries(void) == [
        ("player", 1, 2500, "reversal"),
        ("wagers", None, -2500, "reversal"),
        ("player", 4, 1000, "reversal"),
        ("wagers", None, -1000, "reversal"),
    ]
    assert balances(round_with_wagers, "player") == {1: 0, 4: 0}
    assert balances(round_with_wagers, "wagers") == {None: 0}
    assert Round.objects.get(pk=round_with_wagers.pk).state == "voided"
    assert ledger_verify().ok


@pytest.mark.django_db
def test_a_dealer_cannot_void_a_round(dealer, round_with_wagers, nothing_written) -> None:
    with (
        nothing_written(round_with_wagers),
        pytest.raises(NotAllowed, match="Only a Floor supervisor or Pit boss may void a round."),
    ):
        void_round(actor=dealer, round=round_with_wagers, reason="Misdeal")


@pytest.mark.django_db
def test_a_void_needs_a_reason(pit_boss, round_with_wagers, nothing_written) -> None:
    with nothing_written(round_with_wagers), pytest.raises(ApplicationError, match="voided only with a reason"):
        void_round(actor=pit_boss, round=round_with_wagers, reason="  ")


@pytest.mark.django_db
def test_a_settled_round_cannot_be_voided(pit_boss, settled, nothing_written) -> None:
    with nothing_written(settled), pytest.raises(WrongState, match="Round 1 is settled: it cannot be voided."):
        void_round(actor=pit_boss, round=settled, reason="Paid the wrong seat")


# --- corrections ----------------------------------------------------------------------------------


def _correct(actor, round_: Round, hands=CORRECTED, key: str = "correct-1", asked_by=None) -> dict:  # type: ignore[no-untyped-def]
    """``actor`` corrects ``round_`` as asked by ``asked_by`` (four eyes: by default the dealer, who settled it)."""
    return correct_round(
        actor=actor,
        round=round_,
        hands=hands,
        reason="Seat 2's cards keyed wrong",
        idempotency_key=key,
        requested_by=asked_by or round_.opened_by,
    )


@pytest.mark.django_db
@pytest.mark.parametrize("supervisor", ["floor_supervisor", "pit_boss"])
def test_a_correction_reverses_the_settlement_and_settles_again(request, settled, balances, supervisor) -> None:
    actor = request.getfixturevalue(supervisor)
    original = Posting.objects.get(round_id=settled.pk, kind="settlement")
    body = _correct(actor, settled)
    reversal = Posting.objects.get(round_id=settled.pk, kind="reversal")
    corrected = Posting.objects.get(round_id=settled.pk, kind="settlement", corrects=original)
    assert (reversal.reverses, reversal.actor, reversal.reason) == (original, actor, "Seat 2's cards keyed wrong")
    assert (body["settlement_id"], body["corrects"]) == (corrected.pk, original.pk)
    assert {line["seat"]: line["outcome"] for line in body["seats"]} == {1: "win", 2: "push"}
    # The round's ledger now says what the corrected hands pay: seat 2 gets its 10.00 back.
    assert balances(settled, "player") == {1: 2375, 2: 0}
    assert balances(settled, "house") == {None: -2500}
    stored = Round.objects.get(pk=settled.pk)
    assert (stored.state, stored.hands["seats"]["2"]["high"]) == ("settled", PUSHES["high"])
    assert ledger_verify().ok


@pytest.mark.django_db
def test_the_reversal_undoes_the_original_settlement_line_for_line(pit_boss, settled, entries) -> None:
    original = Posting.objects.get(round_id=settled.pk, kind="settlement")
    _correct(pit_boss, settled)
    reversal = Posting.objects.get(round_id=settled.pk, kind="reversal")
    assert entries(reversal) == [(account, seat, -amount, "reversal") for account, seat, amount, _ in entries(original)]


@pytest.mark.django_db
def test_a_correction_writes_its_audit_events(pit_boss, settled) -> None:
    original = Posting.objects.get(round_id=settled.pk, kind="settlement")
    body = _correct(pit_boss, settled)
    round_event = AuditEvent.objects.get(event_type="round.corrected")
    assert (round_event.actor, round_event.reason) == (pit_boss, "Seat 2's cards keyed wrong")
    assert round_event.before["hands"]["seats"]["2"]["high"] == LOSES["high"]
    assert round_event.after["hands"]["seats"]["2"]["high"] == PUSHES["high"]
    money_event = AuditEvent.objects.get(event_type="settlement.corrected")
    assert (money_event.before["settlement"], money_event.after["settlement"]) == (original.pk, body["settlement_id"])
    assert (money_event.before["house"]["total_cents"], money_event.after["house"]["total_cents"]) == (-1375, -2375)


@pytest.mark.django_db
def test_a_corrected_round_can_be_corrected_again_by_another_supervisor(
    pit_boss, floor_supervisor, settled, balances
) -> None:
    _correct(pit_boss, settled)
    # The pit boss's correction is now the settlement in force: a second one is the floor supervisor's to make.
    _correct(floor_supervisor, settled, hands=HANDS, key="correct-2", asked_by=pit_boss)
    assert balances(settled, "player") == {1: 2375, 2: -1000}
    assert Posting.objects.filter(round_id=settled.pk, kind="settlement", reversed_by__isnull=True).count() == 1
    assert ledger_verify().ok


@pytest.mark.django_db
def test_the_same_correction_key_twice_answers_the_same_and_corrects_once(pit_boss, settled) -> None:
    first = _correct(pit_boss, settled)
    postings = Posting.objects.count()
    assert _correct(pit_boss, settled) == first
    assert Posting.objects.count() == postings


@pytest.mark.django_db
def test_the_hands_already_settled_are_not_a_correction(pit_boss, settled, nothing_written) -> None:
    with nothing_written(settled), pytest.raises(ApplicationError, match="the hands already settled: nothing to"):
        _correct(pit_boss, settled, hands=HANDS)


@pytest.mark.django_db
@pytest.mark.parametrize("persona", ["dealer", "auditor"])
def test_only_a_supervisor_corrects_a_settled_round(request, settled, nothing_written, persona) -> None:
    actor = request.getfixturevalue(persona)
    with (
        nothing_written(settled),
        pytest.raises(NotAllowed, match="Only a Floor supervisor or Pit boss may correct a settled round."),
    ):
        _correct(actor, settled)


@pytest.mark.django_db
def test_only_a_settled_round_is_corrected(pit_boss, revealed, nothing_written) -> None:
    with nothing_written(revealed), pytest.raises(WrongState, match="only a settled round is corrected"):
        _correct(pit_boss, revealed)


@pytest.mark.django_db
def test_a_correction_needs_a_reason(pit_boss, settled, nothing_written) -> None:
    with nothing_written(settled), pytest.raises(ApplicationError, match="A correction needs a reason."):
        correct_round(
            actor=pit_boss,
            round=settled,
            hands=CORRECTED,
            reason=" ",
            idempotency_key="correct-1",
            requested_by=settled.opened_by,
        )


@pytest.mark.django_db
def test_bad_corrected_hands_are_refused_like_any_hands(pit_boss, settled, nothing_written) -> None:
    bad = {"banker": BANK, "seats": {"1": WINS, "2": {"high": "Ks Kd 9s 6d 3d", "low": "Kh 7c"}}}
    with nothing_written(settled), pytest.raises(ApplicationError, match=r"K♥ is used 2 times \(Seat 1, Seat 2\)"):
        _correct(pit_boss, settled, hands=bad)


@pytest.mark.django_db
def test_a_correction_with_the_key_of_the_original_settlement_is_refused(pit_boss, settled, nothing_written):
    used = Posting.objects.get(round_id=settled.pk, kind="settlement").pk
    with (
        nothing_written(settled),
        pytest.raises(WrongState, match=rf"already used for settlement \(posting {used}, round 1 at table PGP-1\)"),
    ):
        _correct(pit_boss, settled, key="settle-1")


@pytest.mark.django_db
def test_settling_with_the_key_of_a_correction_is_refused(dealer, pit_boss, settled, nothing_written) -> None:
    corrected = _correct(pit_boss, settled)["settlement_id"]
    with (
        nothing_written(settled),
        pytest.raises(WrongState, match=rf"already used for a correction \(posting {corrected}, round 1"),
    ):
        settle_round(round=settled, actor=dealer, idempotency_key="correct-1")


@pytest.mark.django_db
def test_a_settle_reads_each_hand_once_and_the_deal_only_to_say_what_differs(
    dealer, shift, pgp_table, monkeypatch
) -> None:
    """Seven positions dealt by the system: the settle parses each hand's high and low once (14 readings) and checks
    them against the deal without reading the deal again."""
    import random

    from rounds.services import round_close_betting, round_deal, round_hands_record
    from rules.games import registry

    round_ = round_open(actor=dealer, table=pgp_table)
    for seat in range(1, 7):
        wager_place(actor=dealer, round=round_, seat=seat, amount_cents=1000)
    round_close_betting(actor=dealer, round=round_)
    round_deal(actor=dealer, round=round_, auto=True, rng=random.Random(5))
    round_hands_record(actor=dealer, round=round_, hands={})  # the house way sets every hand dealt
    read: list[str] = []
    parse = registry.parse_cards
    monkeypatch.setattr(registry, "parse_cards", lambda text: read.append(text) or parse(text))
    settle_round(round=round_, actor=dealer, idempotency_key="read-once")
    stored = Round.objects.get(pk=round_.pk).hands
    hands = [stored["banker"], *stored["seats"].values()]
    assert sorted(read) == sorted(hand[part] for hand in hands for part in ("high", "low"))
