"""A tournament's money (GAME_RULES.md §5 "Payouts", New York's 9 NYCRR 5315.1(f)): the payments, prizes,
bounties and the overlay as ledger postings, read back by ``tournament_money``, held to the rows by
``verify.tournament_ledger_check``; a 20-player tournament from registration to the winner; a guarantee's overlay
is a cost of the house, never negative revenue; fixed and progressive bounties.

Tina directs; Fred, a Floor supervisor, enrols players.
"""

from __future__ import annotations

from collections import Counter

import pytest
from django.db.models import Sum

from casino.errors import WrongState
from ledger.lines import Line
from ledger.models import LedgerEntry, Posting
from ledger.services import post
from ledger.verify import ledger_verify
from players.services import player_create
from poker_room.tournaments import money, services
from poker_room.tournaments.models import Elimination, Entry, Purchase, SeatMove, Tournament, TournamentTable
from poker_room.tournaments.verify import tournament_ledger_check
from tests.guards import tamper
from tests.poker_room.tournament_setup import PLAYERS, T0, at, entry, everything, fresh, seating

# --- lines and keys --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("prize", "fee", "bounty", "lines"),
    [
        (9_000, 1_000, 0, [("entrants", -10_000), ("prize_pool", 9_000), ("t_fees", 1_000)]),
        (5_000, 500, 2_000, [("entrants", -7_500), ("prize_pool", 5_000), ("t_fees", 500), ("bounties", 2_000)]),
        (0, 0, 0, []),  # a freeroll posts nothing
        (0, 1_000, 0, [("entrants", -1_000), ("t_fees", 1_000)]),
    ],
)
def test_a_payment_splits_into_the_pool_the_fee_and_the_bounty(prize, fee, bounty, lines) -> None:
    posted = money.purchase_lines(prize_cents=prize, fee_cents=fee, bounty_cents=bounty)
    assert [(line.account, line.amount) for line in posted] == lines
    assert sum(line.amount for line in posted) == 0 and {line.kind for line in posted} <= {"t_entry"}


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        (money.prize_lines(2_500), [("prize_pool", -2_500, "t_prize"), ("entrants", 2_500, "t_prize")]),
        (money.bounty_lines(1_001), [("bounties", -1_001, "t_bounty"), ("entrants", 1_001, "t_bounty")]),
        (money.overlay_lines(64_000), [("overlay", -64_000, "t_overlay"), ("prize_pool", 64_000, "t_overlay")]),
        (money.prize_lines(0), []),
        (
            money.reversal_lines(money.prize_lines(2_500)),
            [("prize_pool", 2_500, "t_reversal"), ("entrants", -2_500, "t_reversal")],
        ),
    ],
)
def test_prizes_bounties_the_overlay_and_their_reversals_move_between_two_accounts(lines, expected) -> None:
    assert [(line.account, line.amount, line.kind) for line in lines] == expected


def test_money_lines_refuse_a_negative_or_fractional_amount() -> None:
    with pytest.raises(ValueError, match="whole number of cents"):
        money.prize_lines(-1)
    with pytest.raises(ValueError, match="whole number of cents"):
        money.purchase_lines(prize_cents=1.5, fee_cents=0, bounty_cents=0)  # type: ignore[arg-type]


def test_the_keys_name_what_each_posting_is_for() -> None:
    assert money.purchase_key(7, entry_number=12, kind="addon", ordinal=1) == "tournament:7:purchase:12:addon:1"
    assert money.prize_key(7, entry_number=3, ordinal=2) == "tournament:7:prize:3:2"
    assert money.bounty_key(7, entry_number=3, ordinal=1) == "tournament:7:bounty:3:1"
    assert money.overlay_key(7) == "tournament:7:overlay"
    assert money.undo_key(7, posting_id=99) == "tournament:7:undo:99"
    assert not money.purchase_key(17, entry_number=1, kind="entry", ordinal=1).startswith(money.tournament_prefix(1))


# --- twenty players from registration to the winner ----------------------------------------------------------

ALL_IN = {
    "table_size": 8,
    "late_registration_level": 3,
    "reentries_max": 1,
    "rebuys_max": 2,
    "rebuy_until_level": 3,
    "rebuy_cents": 9_000,
    "rebuy_fee_cents": 500,
    "rebuy_chips": 20_000,
    "addon_cents": 9_000,
    "addon_fee_cents": 1_000,
    "addon_chips": 30_000,
}


def active(tournament: Tournament) -> list[Entry]:
    return list(Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).order_by("number"))


def balanced(tournament: Tournament) -> bool:
    playing = [count for count in seating(tournament).values() if count]
    return max(playing) - min(playing) <= 1


@pytest.mark.django_db
def test_twenty_players_from_registration_to_the_winner(make_tournament, director, floor_supervisor, rng) -> None:
    tournament = make_tournament(tables=3, **ALL_IN)
    regulars = {name: player_create(actor=floor_supervisor, tier="Silver", name=name).pk for name in ("Anna", "Ben")}
    for name in PLAYERS[:16]:
        services.entry_register(actor=director, tournament=tournament, name=name, player_id=regulars.get(name))
    tournament = services.tournament_start(actor=director, tournament=tournament, now=T0, rng=rng)
    assert seating(tournament) == {1: 8, 2: 8, 3: 0}

    # Level 1: a rebuy, a bust out of the money; level 2: three late entries and the busted player re-enters.
    cem = entry(tournament, 3)
    services.entry_rebuy(actor=director, tournament=tournament, entry=cem, now=at(10))
    emil = entry(tournament, 5)
    assert services.entry_eliminate(actor=director, tournament=tournament, entry=emil, now=at(15), rng=rng).place == 16
    for name in PLAYERS[16:19]:
        services.entry_register(actor=director, tournament=tournament, name=name, now=at(30), rng=rng)
    again = services.entry_reenter(actor=director, tournament=tournament, entry=emil, now=at(35), rng=rng)
    # Tables 1 and 2 full, a late entry opened table 3, and the floor was balanced at once (nobody sits alone).
    assert again.number == 20 and sorted(seating(tournament).values()) == [6, 6, 7] and balanced(tournament)
    # Level 3: Cem's second rebuy; the break after it: two add-ons; level 4: registration is closed.
    services.entry_rebuy(actor=director, tournament=tournament, entry=cem, now=at(50))
    for number in (1, 3):
        services.entry_addon(actor=director, tournament=tournament, entry=entry(tournament, number), now=at(62))
    before = everything(tournament)
    with pytest.raises(WrongState, match=r"^Registration closed after level 3\.$"):
        services.entry_register(actor=director, tournament=tournament, name="Uwe", now=at(80))
    assert everything(tournament) == before
    assert Entry.objects.filter(tournament=tournament).count() == 20

    # The busts keep the floor within one, break table 3, redraw the final table; a mistaken one is undone.
    minutes, undone = 80.0, False
    while len(active(tournament)) > 1:
        minutes += 1
        counts = seating(tournament)
        longest = max(counts, key=lambda number: (counts[number], -number))
        out = Entry.objects.filter(tournament=tournament, status="active", table_number=longest).order_by("number")[0]
        bust = services.entry_eliminate(actor=director, tournament=tournament, entry=out, now=at(minutes), rng=rng)
        if len(active(tournament)) == 7 and not undone:
            services.elimination_undo(
                actor=director, tournament=tournament, elimination=bust, reason="Misread the board", now=at(minutes)
            )
            undone = True
            assert Entry.objects.get(pk=out.pk).status == "active"
            continue
        if fresh(tournament).status == "running":
            assert balanced(tournament)

    finished = fresh(tournament)
    assert finished.status == "finished"
    reasons = Counter(SeatMove.objects.filter(tournament=tournament).values_list("reason", flat=True))
    assert reasons["balance"] and reasons["table_break"] and reasons["final_table"] and reasons["undo"] == 1
    assert reasons["draw"] == 16 + 4  # the start, three late entries and a re-entry
    assert list(
        TournamentTable.objects.filter(tournament=tournament, broken_at__isnull=True).values_list("number", flat=True)
    ) == [1]
    places = sorted(Entry.objects.filter(tournament=tournament).values_list("place", flat=True))
    assert places == list(range(1, 21))  # one place an entry, the re-entered Emil's first entry last

    report = ledger_verify()
    assert report.ok, report.problems
    figures = money.tournament_money(finished)
    fees = 20 * 1_000 + 2 * 500 + 2 * 1_000
    collected = 20 * 9_000 + 2 * 9_000 + 2 * 9_000
    assert (figures.collected_cents, figures.fees_cents, figures.overlay_cents) == (collected, fees, 0)
    assert figures.prizes_paid_cents == collected and figures.pool_left_cents == 0
    assert (figures.revenue_cents, figures.house_cost_cents) == (fees, 0)
    # 20 entries pay four places: 50 / 25 / 15 / 10 % of 2,160.00.
    paid = dict(
        Elimination.objects.filter(tournament=tournament, status="in_force", prize_cents__gt=0).values_list(
            "place", "prize_cents"
        )
    )
    assert paid == {1: 108_000, 2: 54_000, 3: 32_400, 4: 21_600}
    balances = dict(
        LedgerEntry.objects.filter(posting__idempotency_key__startswith=money.tournament_prefix(tournament.pk))
        .values_list("account")
        .annotate(total=Sum("amount_cents"))
    )
    assert balances["prize_pool"] == 0 and balances["entrants"] == -fees


# --- a guarantee ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("guarantee", "overlay", "revenue", "cost"),
    [
        (0, 0, 4_000, 0),  # no guarantee: the fees are the revenue
        (30_000, 0, 4_000, 0),  # collected 360.00 is above the guarantee
        (38_000, 2_000, 2_000, 0),  # the overlay uses up part of the fees
        (40_000, 4_000, 0, 0),  # all of them
        (100_000, 64_000, 0, 60_000),  # and the house pays the rest: a cost, never negative revenue
    ],
)
@pytest.mark.django_db
def test_a_guarantee_s_overlay_is_posted_when_the_pool_is_final_and_is_a_cost(
    running, director, guarantee, overlay, revenue, cost
) -> None:
    tournament = running(players=4, guarantee_cents=guarantee)
    for minutes, number in ((10, 4), (11, 3), (12, 2)):
        services.entry_eliminate(
            actor=director, tournament=tournament, entry=entry(tournament, number), now=at(minutes)
        )
    finished = fresh(tournament)
    assert finished.overlay_cents == overlay and finished.status == "finished"
    overlay_postings = Posting.objects.filter(idempotency_key=money.overlay_key(tournament.pk))
    assert overlay_postings.count() == (1 if overlay else 0)
    figures = money.tournament_money(finished)
    assert (figures.overlay_cents, figures.pool_cents) == (overlay, 36_000 + overlay)
    assert (figures.revenue_cents, figures.house_cost_cents) == (revenue, cost)
    assert figures.prizes_paid_cents == 36_000 + overlay and figures.pool_left_cents == 0
    assert ledger_verify().ok


@pytest.mark.django_db
def test_the_pool_is_made_final_at_the_first_paid_bust_with_its_overlay(running, director) -> None:
    tournament = running(players=5, guarantee_cents=60_000)
    services.entry_eliminate(actor=director, tournament=tournament, entry=entry(tournament, 5), now=at(10))
    assert fresh(tournament).pool_locked_at is None  # 5th of 5: three are paid
    services.entry_eliminate(actor=director, tournament=tournament, entry=entry(tournament, 4), now=at(11))
    assert fresh(tournament).pool_locked_at is None
    third = services.entry_eliminate(actor=director, tournament=tournament, entry=entry(tournament, 3), now=at(12))
    locked = fresh(tournament)
    assert (locked.pool_locked_at, locked.overlay_cents) == (at(12), 15_000)
    assert third.prize_cents == 12_000  # 20 % of the guaranteed 600.00
    assert tournament_ledger_check(None).problems == ()


# --- bounties -------------------------------------------------------------------------------------------------


def knockout(running, kind: str, bounty: int):  # type: ignore[no-untyped-def]
    return running(players=4, template_key="zocktoberfest", buy_in_cents=5_000, bounty_cents=bounty, bounty_kind=kind)


@pytest.mark.django_db
def test_a_fixed_bounty_is_paid_to_the_eliminator_and_the_winner_is_paid_their_own(running, director) -> None:
    tournament = knockout(running, "fixed", 2_000)
    anna, ben, cem, dora = (entry(tournament, number) for number in (1, 2, 3, 4))
    assert {e.bounty_cents for e in (anna, ben, cem, dora)} == {2_000}
    fourth = services.entry_eliminate(actor=director, tournament=tournament, entry=dora, eliminated_by=anna, now=at(5))
    assert (fourth.prize_cents, fourth.bounty_paid_cents, fourth.bounty_added_cents) == (0, 2_000, 0)
    assert fourth.posting.idempotency_key == f"tournament:{tournament.pk}:bounty:4:1"  # no prize: the bounty's
    third = services.entry_eliminate(actor=director, tournament=tournament, entry=cem, eliminated_by=anna, now=at(6))
    assert third.posting.kind == "t_prize" and third.bounty_paid_cents == 2_000
    services.entry_eliminate(actor=director, tournament=tournament, entry=ben, eliminated_by=anna, now=at(7))
    won = Elimination.objects.get(entry=anna)
    assert (won.place, won.bounty_paid_cents, won.eliminated_by) == (1, 2_000, None)
    figures = money.tournament_money(tournament)
    assert (figures.bounties_in_cents, figures.bounties_paid_cents, figures.bounties_left_cents) == (8_000, 8_000, 0)
    assert ledger_verify().ok


@pytest.mark.django_db
def test_a_progressive_bounty_pays_half_and_adds_half_to_the_eliminator_s_the_odd_cent_paid(running, director) -> None:
    tournament = knockout(running, "progressive", 2_001)
    anna, ben, cem, dora = (entry(tournament, number) for number in (1, 2, 3, 4))
    first = services.entry_eliminate(actor=director, tournament=tournament, entry=dora, eliminated_by=anna, now=at(5))
    assert (first.bounty_paid_cents, first.bounty_added_cents) == (1_001, 1_000)
    anna.refresh_from_db()
    assert anna.bounty_cents == 3_001
    # A mistaken bust undone takes the added half back; done again, it is added again.
    wrong = services.entry_eliminate(actor=director, tournament=tournament, entry=cem, eliminated_by=anna, now=at(6))
    anna.refresh_from_db()
    assert anna.bounty_cents == 4_001
    services.elimination_undo(actor=director, tournament=tournament, elimination=wrong, reason="wrong", now=at(7))
    anna.refresh_from_db()
    assert anna.bounty_cents == 3_001
    services.entry_eliminate(actor=director, tournament=tournament, entry=cem, eliminated_by=anna, now=at(8))
    last = services.entry_eliminate(actor=director, tournament=tournament, entry=anna, eliminated_by=ben, now=at(9))
    assert (last.bounty_paid_cents, last.bounty_added_cents) == (2_001, 2_000)  # Anna's 4,001: the odd cent paid
    won = Elimination.objects.get(entry=ben)
    assert won.bounty_paid_cents == 4_001
    figures = money.tournament_money(tournament)
    assert figures.bounties_in_cents == figures.bounties_paid_cents == 4 * 2_001
    assert figures.bounties_left_cents == 0 and figures.pool_left_cents == 0
    assert ledger_verify().ok


# --- the check holds the postings to the rows -----------------------------------------------------------------


@pytest.mark.django_db
def test_the_check_names_a_payment_that_was_changed_and_a_posting_for_nothing(running, director) -> None:
    tournament = running(players=3)
    assert tournament_ledger_check(None).problems == ()
    purchase = Purchase.objects.filter(tournament=tournament).order_by("pk").first()
    table = LedgerEntry._meta.db_table
    tamper(
        f"UPDATE {table} SET amount_cents = amount_cents - 100 WHERE posting_id = %s AND account = 'entrants'",
        [purchase.posting_id],
    )
    tamper(
        f"UPDATE {table} SET amount_cents = amount_cents + 100 WHERE posting_id = %s AND account = 't_fees'",
        [purchase.posting_id],
    )
    post(
        kind="t_prize",
        lines=[Line("prize_pool", None, -500, "t_prize"), Line("entrants", None, 500, "t_prize")],
        actor=director,
        idempotency_key=f"tournament:{tournament.pk}:prize:9:1",
    )
    problems = list(tournament_ledger_check(None).problems)
    assert len(problems) == 2, problems
    assert problems[0].startswith(
        f"Posting {purchase.posting_id} (tournament:{tournament.pk}:purchase:1:entry:1) does not hold"
    )
    assert "posts tournament money for nothing recorded" in problems[1]
    assert not ledger_verify().ok
