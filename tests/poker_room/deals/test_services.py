"""A deal at the final table (``poker_room.deals``): worked out, recorded once, audited, and then paid bust by bust
through the ledger; its money against the ledger with a knock-out, re-entries, a guarantee with a reserve, a bust
undone and made again, and the win undone.

Tina directs; Fred is a Floor supervisor; Dana deals; Alex audits."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.db.models import Sum

from casino.errors import ApplicationError, NotAllowed, WrongState
from casino.events import AuditEventType
from casino.models import AuditEvent
from ledger.models import LedgerEntry, Posting
from ledger.verify import ledger_verify
from poker_room.deals import services as deals
from poker_room.pure.icm import chip_chop_cents, icm_deal_cents
from poker_room.tournaments import money, services
from poker_room.tournaments.models import Elimination, Tournament
from tests.poker_room.deals.play import PRIZES, STACKS, written
from tests.poker_room.refusals import refused
from tests.poker_room.tournament_setup import at, entry, fresh

pytestmark = pytest.mark.django_db


@pytest.mark.django_db
def test_an_icm_deal_is_worked_out_from_the_stacks_without_writing(running) -> None:
    tournament = running(players=6)
    before = written(tournament)
    proposal = deals.deal_propose(tournament, "icm", {str(number): chips for number, chips in STACKS.items()})
    assert written(tournament) == before
    expected = icm_deal_cents(list(STACKS.values()), PRIZES)
    assert (
        [line.amount_cents for line in proposal.lines] == list(expected) == [line.icm_cents for line in proposal.lines]
    )
    assert [line.chip_chop_cents for line in proposal.lines] == list(chip_chop_cents(list(STACKS.values()), PRIZES))
    assert proposal.prizes_left == (27_000, 16_200, 10_800, 0, 0, 0) and proposal.money_cents == 54_000
    # With no deal, the stacks in order would take 1st to 6th: 270.00, 162.00, 108.00 and nothing.
    assert [line.no_deal_cents for line in proposal.lines] == [27_000, 16_200, 10_800, 0, 0, 0]
    assert [line.share_bp for line in proposal.lines] == [3000, 2400, 1800, 1200, 900, 700]


@pytest.mark.django_db
def test_a_recorded_deal_is_paid_bust_by_bust_and_the_winner_gets_the_reserve(running, director) -> None:
    tournament = running(players=6)
    deal = deals.deal_record(
        actor=director, tournament=tournament, method="icm", stacks=STACKS, reserve_cents=5_000, now=at(100)
    )
    amounts = icm_deal_cents(list(STACKS.values()), PRIZES, reserve_cents=5_000)
    assert deal.amounts == {str(number): amount for number, amount in zip(STACKS, amounts, strict=True)}
    assert sum(amounts) == 54_000 - 5_000
    assert deal.prizes_left == [27_000, 16_200, 10_800, 0, 0, 0] and deal.reserve_cents == 5_000
    locked = fresh(tournament)
    assert locked.pool_locked_at == at(100) and locked.status == "running"

    event = AuditEvent.objects.filter(event_type=AuditEventType.TOURNAMENT_DEAL).get()
    assert event.actor_id == director.pk
    assert event.after["amounts_cents"] == deal.amounts and event.after["stacks"] == deal.stacks
    assert event.after["reserve_cents"] == 5_000 and event.after["money_cents"] == 54_000
    assert event.after["pool_made_final"] is True
    assert AuditEvent.objects.filter(event_type=AuditEventType.TOURNAMENT_POOL_LOCKED).count() == 1

    # The short stacks go first: each is paid exactly their amount, whatever the place.
    for minutes, number in enumerate((6, 4, 5, 2, 3), start=101):
        services.entry_eliminate(
            actor=director, tournament=tournament, entry=entry(tournament, number), now=at(minutes)
        )
    finished = fresh(tournament)
    assert finished.status == "finished"
    paid = dict(
        Elimination.objects.filter(tournament=tournament, status="in_force")
        .select_related("entry")
        .values_list("entry__number", "prize_cents")
    )
    assert paid == {number: deal.amount_for(number) + (5_000 if number == 1 else 0) for number in STACKS}
    assert entry(tournament, 1).place == 1
    report = ledger_verify()
    assert report.ok, report.problems
    balances = dict(
        LedgerEntry.objects.filter(posting__idempotency_key__startswith=money.tournament_prefix(tournament.pk))
        .values_list("account")
        .annotate(total=Sum("amount_cents"))
    )
    assert balances["prize_pool"] == 0
    figures = money.tournament_money(finished)
    assert figures.prizes_paid_cents == 54_000 and figures.pool_left_cents == 0


@pytest.mark.django_db
def test_a_deal_before_any_paid_bust_makes_the_pool_final_with_its_overlay(running, director) -> None:
    tournament = running(players=4, guarantee_cents=60_000)  # 360.00 collected, 600.00 guaranteed: 240.00 overlay
    deal = deals.deal_record(
        actor=director, tournament=tournament, method="icm", stacks={1: 5000, 2: 3000, 3: 1500, 4: 500}, now=at(30)
    )
    # The published example's stacks and shape (pailiku.com, test_icm: 377.78, 312.89, 225.60, 83.73 of 500/300/200),
    # the prizes three fifths of it: 226.67, 187.73, 135.36, 50.24.
    assert deal.prizes_left == [30_000, 18_000, 12_000, 0]
    assert deal.amounts == {"1": 22_667, "2": 18_773, "3": 13_536, "4": 5_024}
    assert fresh(tournament).overlay_cents == 24_000 and fresh(tournament).pool_locked_at == at(30)
    assert AuditEvent.objects.filter(event_type=AuditEventType.TOURNAMENT_DEAL).get().after["pool_made_final"]
    for minutes, number in ((31, 4), (32, 3), (33, 2)):
        services.entry_eliminate(
            actor=director, tournament=tournament, entry=entry(tournament, number), now=at(minutes)
        )
    assert sum(Elimination.objects.filter(tournament=tournament).values_list("prize_cents", flat=True)) == 60_000
    assert ledger_verify().ok
    figures = money.tournament_money(fresh(tournament))
    assert figures.overlay_cents == 24_000 and figures.pool_left_cents == 0


@pytest.mark.django_db
def test_a_chip_chop_and_agreed_amounts_are_recorded_as_given(running, director, floor_supervisor) -> None:
    tournament = running(players=3)
    # Three players, three paid places: the whole pool of 270.00 (135/81/54) is left.
    stacks = {1: 10_000, 2: 6_000, 3: 4_000}
    chop = deals.deal_propose(tournament, "chip_chop", stacks)
    # 54.00 each, the other 108.00 by chips: 54, 32.40, 21.60.
    assert [line.amount_cents for line in chop.lines] == [5_400 + 5_400, 5_400 + 3_240, 5_400 + 2_160]
    deal = deals.deal_record(
        actor=floor_supervisor,
        tournament=tournament,
        method="custom",
        stacks=stacks,
        amounts={"1": 11_000, "2": 9_000, "3": 7_000},
    )
    assert deal.method == "custom" and deal.amounts == {"1": 11_000, "2": 9_000, "3": 7_000}
    assert deal.actor_id == floor_supervisor.pk


def recording(tournament: Tournament, **call: Any) -> Callable[[], object]:
    """The deal recorded with ``call``'s arguments, over an ICM deal of ``STACKS``."""
    return lambda: deals.deal_record(**{"tournament": tournament, "method": "icm", "stacks": STACKS, **call})


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        ({"stacks": {**STACKS, 6: 0}}, ApplicationError, r"Stacks of #6 Fritz is a whole number from 1"),
        ({"stacks": {**STACKS, 6: -7}}, ApplicationError, r"from 1 to"),
        ({"stacks": {**STACKS, 6: "lots"}}, ApplicationError, r"not 'lots'"),
        ({"stacks": {k: v for k, v in STACKS.items() if k != 3}}, ApplicationError, r"missing: #3 Cem\."),
        ({"stacks": {**STACKS, 9: 100}}, ApplicationError, r"#9 is not a player still in"),
        ({"stacks": [1, 2, 3]}, ApplicationError, r"given by entry number"),
        ({"method": "split"}, ApplicationError, r"Choose how the money is shared"),
        ({"reserve_cents": 10_801}, ApplicationError, r"over 2nd \(10800 cents\): it cannot be more"),
        ({"reserve_cents": -1}, ApplicationError, r"whole number from 0"),
        ({"method": "custom"}, ApplicationError, r"Give the amount each player agreed on"),
        (
            {"method": "custom", "amounts": {**{str(n): 9_000 for n in range(1, 6)}, "6": 8_999}},
            ApplicationError,
            r"add up to 53999 cents; the money left less the reserve is 54000 cents",
        ),
        (
            {"method": "custom", "amounts": {**{str(n): 11_000 for n in range(1, 6)}, "6": -1_000}},
            ApplicationError,
            r"whole number from 0",
        ),
        (
            {"method": "custom", "reserve_cents": 1_000, "amounts": {str(n): 9_000 for n in STACKS}},
            ApplicationError,
            r"add up to 54000 cents; the money left less the reserve is 53000 cents",
        ),
    ],
)
@pytest.mark.django_db
def test_bad_input_is_refused_and_writes_nothing(running, director, call, error, match) -> None:
    tournament = running(players=6)
    refused(tournament, error, re.compile(match), recording(tournament, actor=director, **call), rows=written)


@pytest.mark.django_db
def test_all_that_first_place_pays_over_second_may_be_left_to_play_for(running, director) -> None:
    tournament = running(players=6)
    deal = deals.deal_record(
        actor=director, tournament=tournament, method="chip_chop", stacks=STACKS, reserve_cents=10_800
    )
    # 108.00 on top for the winner; 432.00 shared by the chips (the last place pays nothing).
    assert deal.reserve_cents == 10_800 and sum(deal.amounts.values()) == 43_200
    assert deal.amounts["1"] == 12_960 and deal.amounts["6"] == 3_024


@pytest.mark.django_db
def test_a_second_deal_is_refused(running, director) -> None:
    tournament = running(players=6)
    deals.deal_record(actor=director, tournament=tournament, method="icm", stacks=STACKS)
    refused(
        tournament,
        WrongState,
        re.compile(r"A deal was recorded already"),
        recording(tournament, actor=director, method="chip_chop"),
        rows=written,
    )
    with pytest.raises(WrongState, match="recorded already"):
        deals.deal_propose(tournament, "icm", STACKS)


@pytest.mark.django_db
def test_a_dealer_an_auditor_and_nobody_may_not_record_a_deal(running, dealer, auditor) -> None:
    tournament = running(players=6)
    for who in (dealer, auditor):
        refused(tournament, NotAllowed, re.compile(r"record a deal"), recording(tournament, actor=who), rows=written)
    refused(
        tournament,
        NotAllowed,
        re.compile(r"Recording a deal is done by a person"),
        recording(tournament, actor=None),
        rows=written,
    )


@pytest.mark.django_db
def test_a_deal_needs_a_running_chip_tournament_with_2_to_10_players(running, make_tournament, director) -> None:
    planned = make_tournament()
    refused(
        planned, WrongState, re.compile(r"has not started"), recording(planned, actor=director, stacks={}), rows=written
    )
    tournament = running(players=12, tables=2)
    stacks = {number: 1_000 for number in range(1, 13)}
    refused(
        tournament,
        WrongState,
        re.compile(r"2 to 10 players still in; .* has 12"),
        recording(tournament, actor=director, stacks=stacks),
        rows=written,
    )
    services.entry_eliminate(actor=director, tournament=tournament, entry=entry(tournament, 12), now=at(10))
    services.entry_eliminate(actor=director, tournament=tournament, entry=entry(tournament, 11), now=at(11))
    stacks = {number: 1_000 for number in range(1, 11)}
    deal = deals.deal_record(actor=director, tournament=tournament, method="icm", stacks=stacks)
    # 12 entries pay four places (50/25/15/10 % of 1080.00); ten equal stacks share it equally.
    assert set(deal.amounts.values()) == {10_800}


@pytest.mark.django_db
def test_a_finished_tournament_takes_no_deal(running, director) -> None:
    tournament = running(players=2)
    services.entry_eliminate(actor=director, tournament=tournament, entry=entry(tournament, 2), now=at(5))
    refused(
        tournament,
        WrongState,
        re.compile(r"has finished"),
        recording(tournament, actor=director, stacks={1: 100}),
        rows=written,
    )


@pytest.mark.django_db
def test_a_heads_up_or_points_tournament_takes_no_deal(running) -> None:
    tournament = running(players=4)
    for format in (Tournament.Format.OFC_POINTS, Tournament.Format.HEADS_UP):
        tournament.format = format  # as it would be had it started so (the format is frozen once running)
        with pytest.raises(WrongState, match=r"not played for chips"):
            deals.deal_propose(tournament, "icm", {1: 1, 2: 1, 3: 1, 4: 1})


@pytest.mark.django_db
def test_the_deal_pays_what_is_left_after_the_places_already_paid(running, director) -> None:
    tournament = running(players=4)
    # Four players, three paid: the first out (4th) is paid nothing; three are left for 270 + 162 + 108 (of 360.00:
    # 180.00, 108.00, 72.00).
    services.entry_eliminate(actor=director, tournament=tournament, entry=entry(tournament, 4), now=at(5))
    proposal = deals.deal_propose(tournament, "icm", {1: 500, 2: 300, 3: 200})
    assert proposal.prizes_left == (18_000, 10_800, 7_200) and proposal.money_cents == 36_000
    assert sum(line.amount_cents for line in proposal.lines) == 36_000


@pytest.mark.django_db
def test_undoing_a_bust_from_before_the_deal_is_refused(running, director) -> None:
    tournament = running(players=4)
    bust = services.entry_eliminate(actor=director, tournament=tournament, entry=entry(tournament, 4), now=at(5))
    deals.deal_record(actor=director, tournament=tournament, method="icm", stacks={1: 500, 2: 300, 3: 200})
    before = written(tournament)
    with pytest.raises(WrongState):
        services.elimination_undo(actor=director, tournament=tournament, elimination=bust, reason="Wrong player")
    assert written(tournament) == before


@pytest.mark.django_db
def test_a_bust_after_the_deal_may_be_undone_and_is_paid_its_amount_again(running, director) -> None:
    tournament = running(players=4)
    deal = deals.deal_record(
        actor=director, tournament=tournament, method="icm", stacks={1: 400, 2: 300, 3: 200, 4: 100}
    )
    bust = services.entry_eliminate(actor=director, tournament=tournament, entry=entry(tournament, 4), now=at(5))
    assert bust.prize_cents == deal.amount_for(4)
    services.elimination_undo(actor=director, tournament=tournament, elimination=bust, reason="Wrong player")
    again = services.entry_eliminate(actor=director, tournament=tournament, entry=entry(tournament, 3), now=at(6))
    assert again.prize_cents == deal.amount_for(3) and again.place == 4
    assert ledger_verify().ok


def test_the_place_by_stack_with_no_deal_gives_ties_to_the_first_listed() -> None:
    assert deals._no_deal([5, 9, 5, 1], (100, 50, 20, 0)) == [50, 100, 20, 0]


# --- the money of a deal against the ledger----------------------------------------------------------------------------


def balances(tournament: Tournament) -> dict[str, int]:
    return dict(
        LedgerEntry.objects.filter(posting__idempotency_key__startswith=money.tournament_prefix(tournament.pk))
        .values_list("account")
        .annotate(total=Sum("amount_cents"))
    )


def paid_in_force(tournament: Tournament) -> dict[int, int]:
    return dict(
        Elimination.objects.filter(tournament=tournament, status="in_force").values_list("entry__number", "prize_cents")
    )


def bust(director, tournament: Tournament, number: int, minutes: float, by: int | None = None) -> Elimination:
    return services.entry_eliminate(
        actor=director,
        tournament=tournament,
        entry=entry(tournament, number),
        eliminated_by=entry(tournament, by) if by else None,
        now=at(minutes),
    )


def test_a_progressive_knock_out_with_a_deal_empties_the_prize_pool_and_the_bounties(running, director) -> None:
    tournament = running(
        players=5, template_key="zocktoberfest", buy_in_cents=5_000, bounty_cents=2_001, bounty_kind="progressive"
    )
    bust(director, tournament, 5, 5, by=1)  # Anna takes half of Emil's bounty and adds half to her own
    deal = deals.deal_record(
        actor=director, tournament=tournament, method="icm", stacks={1: 9_000, 2: 5_000, 3: 3_000, 4: 1_000}
    )
    for minutes, (number, by) in enumerate(((4, 2), (3, 1), (2, 1)), start=10):
        bust(director, tournament, number, minutes, by=by)
    assert fresh(tournament).status == "finished"
    assert paid_in_force(tournament) == {5: 0, **{n: deal.amount_for(n) for n in (1, 2, 3, 4)}}
    report = ledger_verify()
    assert report.ok, report.problems
    left = balances(tournament)
    assert left["prize_pool"] == 0 and left["bounties"] == 0
    figures = money.tournament_money(fresh(tournament))
    assert figures.pool_left_cents == 0


def test_re_entries_count_in_the_money_a_deal_shares(running, director) -> None:
    tournament = running(players=4, late_registration_level=3, reentries_max=1)
    bust(director, tournament, 4, 5)
    services.entry_reenter(actor=director, tournament=tournament, entry=entry(tournament, 4), now=at(6))  # #5
    bust(director, tournament, 3, 7)
    services.entry_reenter(actor=director, tournament=tournament, entry=entry(tournament, 3), now=at(8))  # #6
    # Six entries of 90.00: 540.00, three paid. Four still in: #1, #2, #5, #6.
    deal = deals.deal_record(
        actor=director, tournament=tournament, method="chip_chop", stacks={1: 4_000, 2: 3_000, 5: 2_000, 6: 1_000}
    )
    assert sum(deal.amounts.values()) == 54_000
    for minutes, number in enumerate((6, 5, 2), start=20):
        bust(director, tournament, number, minutes)
    assert ledger_verify().ok and balances(tournament)["prize_pool"] == 0


def test_a_guarantee_with_a_reserve_and_the_win_undone_and_played_again(running, director) -> None:
    tournament = running(players=4, guarantee_cents=60_000)  # 240.00 overlay
    deal = deals.deal_record(
        actor=director,
        tournament=tournament,
        method="icm",
        stacks={1: 5_000, 2: 3_000, 3: 1_500, 4: 500},
        reserve_cents=6_000,
    )
    assert sum(deal.amounts.values()) + deal.reserve_cents == 60_000
    bust(director, tournament, 4, 10)
    bust(director, tournament, 3, 11)
    runner_up = bust(director, tournament, 2, 12)
    assert fresh(tournament).status == "finished"
    # The runner-up's bust was a mistake: undone, the win goes with it; then Anna busts and Ben wins.
    services.elimination_undo(actor=director, tournament=tournament, elimination=runner_up, reason="Wrong hand")
    assert (
        fresh(tournament).status == "running"
        and balances(tournament)["prize_pool"] == deal.amount_for(1) + deal.amount_for(2) + deal.reserve_cents
    )
    bust(director, tournament, 1, 13)
    assert paid_in_force(tournament) == {
        4: deal.amount_for(4),
        3: deal.amount_for(3),
        1: deal.amount_for(1),
        2: deal.amount_for(2) + deal.reserve_cents,  # the reserve goes to whoever wins
    }
    assert ledger_verify().ok and balances(tournament)["prize_pool"] == 0
    keys = list(Posting.objects.filter(kind="t_prize").values_list("idempotency_key", flat=True))
    assert len(keys) == len(set(keys)) == 6  # 4th, 3rd, 2nd, the win, then 2nd and the win again


def test_a_bust_after_the_deal_undone_and_made_again_is_paid_once(running, director) -> None:
    tournament = running(players=4)
    deal = deals.deal_record(
        actor=director, tournament=tournament, method="icm", stacks={1: 400, 2: 300, 3: 200, 4: 100}
    )
    first = bust(director, tournament, 4, 5)
    services.elimination_undo(actor=director, tournament=tournament, elimination=first, reason="Miscount")
    again = bust(director, tournament, 4, 6)
    assert again.prize_cents == first.prize_cents == deal.amount_for(4)
    assert again.posting.idempotency_key == money.prize_key(tournament.pk, entry_number=4, ordinal=2)
    assert balances(tournament)["prize_pool"] == 36_000 - deal.amount_for(4)
