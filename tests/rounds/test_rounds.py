"""A round moves through its states by the transition table, one audited, locked move at a time."""

from __future__ import annotations

import pytest

from casino.errors import ApplicationError, NotAllowed, WrongState
from casino.models import AuditEvent
from casino.services import shift_close
from rounds.models import BankTurn, Round
from rounds.services import round_close_betting, round_deal, round_hands_record, round_open, wager_place
from rounds.services import void_round as round_void
from rounds.states import TRANSITIONS, RoundState, can_move, check_move
from rules.services import rule_set_create, rule_set_update
from settlement.services import settle_round
from tables.models import Table

S = RoundState

ALLOWED = [
    (S.OPEN, S.BETTING_CLOSED),
    (S.BETTING_CLOSED, S.DEALT),
    (S.DEALT, S.REVEALED),
    (S.REVEALED, S.SETTLED),
    (S.OPEN, S.VOIDED),
    (S.BETTING_CLOSED, S.VOIDED),
    (S.DEALT, S.VOIDED),
    (S.REVEALED, S.VOIDED),
]

REFUSED = [
    (S.BETTING_CLOSED, S.SETTLED, "A round goes from betting_closed to dealt, not to settled."),
    (S.OPEN, S.DEALT, "A round goes from open to betting_closed, not to dealt."),
    (S.REVEALED, S.DEALT, "A round goes from revealed to settled, not to dealt."),
    (S.DEALT, S.OPEN, "A round goes from dealt to revealed, not to open."),
    (S.OPEN, S.OPEN, "Round 12 is already open."),
    (S.SETTLED, S.VOIDED, "Round 12 is settled: it cannot be voided."),
    (S.SETTLED, S.REVEALED, "Round 12 is settled: it cannot be revealed."),
    (S.VOIDED, S.OPEN, "Round 12 is voided: it cannot be opened again."),
    (S.VOIDED, S.VOIDED, "Round 12 is already voided."),
]


@pytest.mark.parametrize(("current", "target"), ALLOWED)
def test_the_transition_table_allows_each_step_forward_and_a_void_before_settling(current, target) -> None:
    assert can_move(current, target)
    assert check_move(current, target, round_number=12) == target


def test_the_transition_table_allows_nothing_else() -> None:
    allowed = {(current, target) for current, nexts in TRANSITIONS.items() for target in nexts}
    assert allowed == set(ALLOWED)


@pytest.mark.parametrize(("current", "target", "message"), REFUSED)
def test_a_move_outside_the_transition_table_is_refused_in_plain_words(current, target, message) -> None:
    with pytest.raises(WrongState) as refused:
        check_move(current, target, round_number=12)
    assert refused.value.message == message
    assert refused.value.status_code == 409


def test_an_unknown_state_is_refused() -> None:
    with pytest.raises(ApplicationError, match="Unknown round state 'shuffled'"):
        check_move("open", "shuffled")


@pytest.fixture
def pgp_table(make_table) -> Table:
    """A Pai Gow Poker table on the default house rules: the house banks."""
    return make_table(name="PGP-1", game="paigow_poker", seat_count=6)


@pytest.fixture
def rotation_table(pit_boss, make_table) -> Table:
    """A Pai Gow Poker table where players bank in rotation."""
    rules = rule_set_create(actor=pit_boss, name="PGP rotation", game="paigow_poker", banking_mode="player_rotation")
    return make_table(name="PGP-2", game="paigow_poker", seat_count=6, rule_set=rules)


# Seat 2 and a house bank, each hand given unset or set: enough for a round to be revealed.
HOUSE_WAY_HANDS = {
    "banker": {"cards": "As Ad 7s 4d 2c Kh Kc"},
    "seats": {"2": {"high": "Qs Qd 8s 5d 3c", "low": "Jh Jc"}},
}


def _close_betting(actor, round_: Round) -> Round:
    wager_place(actor=actor, round=round_, seat=2, amount_cents=1000)
    return round_close_betting(actor=actor, round=round_)


def _play_out(actor, round_: Round) -> Round:
    """Play a round through to settled: one wager, the system's deal, the house way for every hand."""
    seat = 1 if round_.bank_seat is None or round_.bank_seat.number != 1 else 2
    wager_place(actor=actor, round=round_, seat=seat, amount_cents=1000)
    round_close_betting(actor=actor, round=round_)
    round_deal(actor=actor, round=round_, auto=True)
    round_hands_record(actor=actor, round=round_, hands={})
    settle_round(round=round_, actor=actor, idempotency_key=f"play-out-{round_.pk}")
    return Round.objects.get(pk=round_.pk)


# Opening a round


@pytest.mark.django_db
def test_a_dealer_opens_a_round_at_an_open_table_in_the_open_shift(dealer, shift, pgp_table) -> None:
    round_ = round_open(actor=dealer, table=pgp_table)
    assert (round_.number, round_.state, round_.shift, round_.opened_by) == (1, "open", shift, dealer)
    assert round_.bank_seat is None
    assert round_.rule_set_snapshot == pgp_table.rule_set.snapshot()
    assert list(pgp_table.seats.values_list("number", flat=True)) == [1, 2, 3, 4, 5, 6]
    event = AuditEvent.objects.get(event_type="round.opened")
    assert (event.subject_type, event.subject_id, event.actor) == ("tables.round", str(round_.pk), dealer)
    assert event.after["state"] == "open"


@pytest.mark.django_db
def test_rounds_at_a_table_are_numbered_in_order(dealer, shift, pgp_table) -> None:
    _play_out(dealer, round_open(actor=dealer, table=pgp_table))
    assert round_open(actor=dealer, table=pgp_table).number == 2


@pytest.mark.django_db
def test_a_round_is_not_opened_at_a_closed_table(dealer, pit_boss, make_table, shift) -> None:
    closed = make_table(name="PGP-9", game="paigow_poker", seat_count=6, open_it=False)
    events = AuditEvent.objects.count()
    with pytest.raises(WrongState, match="Table PGP-9 is closed: open it before opening a round."):
        round_open(actor=dealer, table=closed)
    assert not Round.objects.exists()
    assert AuditEvent.objects.count() == events


@pytest.mark.django_db
def test_a_round_is_not_opened_without_an_open_shift(dealer, pit_boss, shift, pgp_table) -> None:
    shift_close(actor=pit_boss, shift=shift)
    events = AuditEvent.objects.count()
    with pytest.raises(WrongState, match="No shift is open"):
        round_open(actor=dealer, table=pgp_table)
    assert not Round.objects.exists()
    assert AuditEvent.objects.count() == events


@pytest.mark.django_db
def test_a_table_has_one_unfinished_round_at_a_time(dealer, floor_supervisor, shift, pgp_table) -> None:
    first = round_open(actor=dealer, table=pgp_table)
    _close_betting(dealer, first)
    events = AuditEvent.objects.count()
    with pytest.raises(WrongState, match="Round 1 at table PGP-1 is still betting_closed: settle or void it"):
        round_open(actor=dealer, table=pgp_table)
    assert Round.objects.count() == 1
    assert AuditEvent.objects.count() == events
    round_void(actor=floor_supervisor, round=first, reason="Misdeal")
    assert round_open(actor=dealer, table=pgp_table).number == 2


@pytest.mark.django_db
def test_the_rule_set_snapshot_is_frozen_when_the_round_opens(dealer, pit_boss, shift, pit, make_table) -> None:
    rules = rule_set_create(actor=pit_boss, name="PGP house", game="paigow_poker")
    table = make_table(name="PGP-3", game="paigow_poker", seat_count=6, rule_set=rules)
    round_ = round_open(actor=dealer, table=table)
    taken = round_.rule_set_snapshot
    edited = rule_set_update(actor=pit_boss, rule_set=rules, commission_rate_bp=450)
    stored = Round.objects.get(pk=round_.pk).rule_set_snapshot
    assert stored == taken
    assert stored["commission_rate_bp"] == 500
    assert stored["version"] != edited.snapshot()["version"]


# Moving a round


@pytest.mark.django_db
def test_each_move_writes_exactly_one_audit_event_with_the_state_before_and_after(dealer, shift, pgp_table) -> None:
    round_ = round_open(actor=dealer, table=pgp_table)
    wager_place(actor=dealer, round=round_, seat=2, amount_cents=1000)
    steps = [
        (S.OPEN, S.BETTING_CLOSED, lambda r: round_close_betting(actor=dealer, round=r)),
        (S.BETTING_CLOSED, S.DEALT, lambda r: round_deal(actor=dealer, round=r, dice=[1, 2, 3])),
        (S.DEALT, S.REVEALED, lambda r: round_hands_record(actor=dealer, round=r, hands=HOUSE_WAY_HANDS)),
    ]
    for before, after, step in steps:
        events = AuditEvent.objects.count()
        round_ = step(round_)
        assert AuditEvent.objects.count() == events + 1
        event = AuditEvent.objects.order_by("-seq").first()
        assert event.event_type == f"round.{after}"
        assert (event.subject_type, event.subject_id, event.actor) == ("tables.round", str(round_.pk), dealer)
        assert (event.before["state"], event.after["state"]) == (before, after)
        assert Round.objects.get(pk=round_.pk).state == after


@pytest.mark.django_db
def test_a_refused_move_changes_nothing_and_writes_nothing(dealer, shift, pgp_table) -> None:
    round_ = _close_betting(dealer, round_open(actor=dealer, table=pgp_table))
    changed_at = Round.objects.get(pk=round_.pk).state_changed_at
    events = AuditEvent.objects.count()
    with pytest.raises(WrongState, match="A round goes from betting_closed to dealt, not to settled."):
        settle_round(round=round_, actor=dealer, idempotency_key="too-soon")
    stored = Round.objects.get(pk=round_.pk)
    assert (stored.state, stored.state_changed_at) == ("betting_closed", changed_at)
    assert AuditEvent.objects.count() == events


@pytest.mark.django_db
def test_the_move_checks_the_stored_state_not_a_stale_copy(dealer, shift, pgp_table) -> None:
    stale = round_open(actor=dealer, table=pgp_table)
    _close_betting(dealer, stale)
    with pytest.raises(WrongState, match="Round 1 is already betting_closed."):
        round_close_betting(actor=dealer, round=stale)


@pytest.mark.django_db
def test_a_settled_round_cannot_be_voided(dealer, pit_boss, shift, pgp_table) -> None:
    settled = _play_out(dealer, round_open(actor=dealer, table=pgp_table))
    with pytest.raises(WrongState, match="Round 1 is settled: it cannot be voided."):
        round_void(actor=pit_boss, round=settled, reason="Wrong payout")


@pytest.mark.django_db
@pytest.mark.parametrize("persona", ["auditor", "stranger"])
def test_an_auditor_or_a_stranger_cannot_open_or_move_a_round(request, make_user, dealer, shift, pgp_table, persona):
    actor = request.getfixturevalue("auditor") if persona == "auditor" else make_user("sam_stranger")
    round_ = round_open(actor=dealer, table=pgp_table)
    events = AuditEvent.objects.count()
    with pytest.raises(NotAllowed, match="may open a round"):
        round_open(actor=actor, table=pgp_table)
    with pytest.raises(NotAllowed, match="may close the betting"):
        round_close_betting(actor=actor, round=round_)
    with pytest.raises(NotAllowed, match="may void a round"):
        round_void(actor=actor, round=round_, reason="Because")
    assert Round.objects.get(pk=round_.pk).state == "open"
    assert AuditEvent.objects.count() == events


# Voiding a round


@pytest.mark.django_db
@pytest.mark.parametrize("supervisor", ["floor_supervisor", "pit_boss"])
def test_a_supervisor_voids_an_unsettled_round_with_a_reason(request, dealer, shift, pgp_table, supervisor) -> None:
    actor = request.getfixturevalue(supervisor)
    round_ = _close_betting(dealer, round_open(actor=dealer, table=pgp_table))
    voided = round_void(actor=actor, round=round_, reason="  Tiles dropped on the floor ")
    stored = Round.objects.get(pk=voided.pk)
    assert (stored.state, stored.void_reason) == ("voided", "Tiles dropped on the floor")
    event = AuditEvent.objects.get(event_type="round.voided")
    assert (event.before["state"], event.after["state"]) == ("betting_closed", "voided")
    assert (event.actor, event.reason) == (actor, "Tiles dropped on the floor")


@pytest.mark.django_db
def test_a_dealer_cannot_void_a_round(dealer, shift, pgp_table) -> None:
    round_ = round_open(actor=dealer, table=pgp_table)
    events = AuditEvent.objects.count()
    with pytest.raises(NotAllowed, match="Only a Floor supervisor or Pit boss may void a round."):
        round_void(actor=dealer, round=round_, reason="Misdeal")
    assert Round.objects.get(pk=round_.pk).state == "open"
    assert AuditEvent.objects.count() == events


@pytest.mark.django_db
@pytest.mark.parametrize("reason", ["", "   "])
def test_a_void_needs_a_reason(floor_supervisor, dealer, shift, pgp_table, reason) -> None:
    round_ = round_open(actor=dealer, table=pgp_table)
    events = AuditEvent.objects.count()
    with pytest.raises(ApplicationError, match="A round is voided only with a reason."):
        round_void(actor=floor_supervisor, round=round_, reason=reason)
    assert Round.objects.get(pk=round_.pk).state == "open"
    assert AuditEvent.objects.count() == events


# The bank


@pytest.mark.django_db
def test_the_house_banks_when_the_rule_set_says_so(dealer, shift, pgp_table) -> None:
    round_ = round_open(actor=dealer, table=pgp_table)
    turn = BankTurn.objects.get(round=round_)
    assert (turn.seat, turn.consecutive) == (None, 1)
    _play_out(dealer, round_)
    assert BankTurn.objects.get(round=round_open(actor=dealer, table=pgp_table)).consecutive == 2


@pytest.mark.django_db
def test_a_player_cannot_bank_when_the_house_banks(dealer, shift, pgp_table) -> None:
    events = AuditEvent.objects.count()
    with pytest.raises(ApplicationError, match="The house banks every round at table PGP-1: seat 3 cannot take"):
        round_open(actor=dealer, table=pgp_table, banker_seat=3, bank_cents=100000)
    assert not Round.objects.exists()
    assert AuditEvent.objects.count() == events


@pytest.mark.django_db
def test_chinese_poker_has_no_bank(dealer, pit_boss, make_table, shift) -> None:
    table = make_table(name="CP-1", game="chinese_poker", seat_count=4)
    with pytest.raises(ApplicationError, match="Chinese Poker at table CP-1 has no bank: no seat can bank."):
        round_open(actor=dealer, table=table, banker_seat=1, bank_cents=100000)
    round_ = round_open(actor=dealer, table=table)
    assert round_.bank_seat is None
    assert round_.rule_set_snapshot["banking_mode"] == "none"
    assert not BankTurn.objects.exists()


@pytest.mark.django_db
def test_a_player_banks_two_rounds_in_a_row_then_the_bank_must_pass(dealer, shift, rotation_table) -> None:
    for in_a_row in (1, 2):
        round_ = round_open(actor=dealer, table=rotation_table, banker_seat=3, bank_cents=100000)
        assert round_.bank_seat.number == 3
        assert BankTurn.objects.get(round=round_).consecutive == in_a_row
        _play_out(dealer, round_)
    events = AuditEvent.objects.count()
    with pytest.raises(WrongState, match="Seat 3 has banked 2 rounds in a row: the bank passes to seat 2") as refused:
        round_open(actor=dealer, table=rotation_table, banker_seat=3, bank_cents=100000)
    assert refused.value.extra["next_banker_seat"] == 2
    assert Round.objects.count() == 2
    assert AuditEvent.objects.count() == events


@pytest.mark.django_db
def test_the_next_banker_is_the_seat_on_the_bankers_right(dealer, shift, rotation_table) -> None:
    for _ in range(2):
        _play_out(dealer, round_open(actor=dealer, table=rotation_table, banker_seat=3, bank_cents=100000))
    with pytest.raises(WrongState, match="The bank passes from seat 3 to seat 2, on the banker.s right, not to seat 4"):
        round_open(actor=dealer, table=rotation_table, banker_seat=4, bank_cents=100000)
    round_ = round_open(actor=dealer, table=rotation_table, banker_seat=2, bank_cents=100000)
    assert (round_.bank_seat.number, BankTurn.objects.get(round=round_).consecutive) == (2, 1)


@pytest.mark.django_db
def test_the_bank_passes_from_seat_one_to_the_highest_seat(dealer, shift, rotation_table) -> None:
    _play_out(dealer, round_open(actor=dealer, table=rotation_table, banker_seat=1, bank_cents=100000))
    assert round_open(actor=dealer, table=rotation_table, banker_seat=6, bank_cents=100000).bank_seat.number == 6


@pytest.mark.django_db
def test_a_banker_may_pass_the_bank_after_one_round(dealer, shift, rotation_table) -> None:
    _play_out(dealer, round_open(actor=dealer, table=rotation_table, banker_seat=5, bank_cents=100000))
    assert round_open(actor=dealer, table=rotation_table, banker_seat=4, bank_cents=100000).bank_seat.number == 4


@pytest.mark.django_db
def test_when_no_player_takes_the_bank_the_house_banks_and_any_seat_may_bank_next(dealer, shift, rotation_table):
    for _ in range(2):
        _play_out(dealer, round_open(actor=dealer, table=rotation_table, banker_seat=3, bank_cents=100000))
    _play_out(dealer, round_open(actor=dealer, table=rotation_table))
    assert round_open(actor=dealer, table=rotation_table, banker_seat=5, bank_cents=100000).bank_seat.number == 5


@pytest.mark.django_db
def test_a_voided_round_does_not_count_towards_the_bank(dealer, floor_supervisor, shift, rotation_table) -> None:
    _play_out(dealer, round_open(actor=dealer, table=rotation_table, banker_seat=3, bank_cents=100000))
    round_void(
        actor=floor_supervisor,
        round=round_open(actor=dealer, table=rotation_table, banker_seat=3, bank_cents=100000),
        reason="Misdeal",
    )
    round_ = round_open(actor=dealer, table=rotation_table, banker_seat=3, bank_cents=100000)
    assert BankTurn.objects.get(round=round_).consecutive == 2


@pytest.mark.django_db
def test_a_banker_must_sit_at_the_table(dealer, shift, rotation_table) -> None:
    with pytest.raises(ApplicationError, match="Table PGP-2 has seats 1 to 6, not 7."):
        round_open(actor=dealer, table=rotation_table, banker_seat=7, bank_cents=100000)
