"""Rated play kept as it goes: each settle adds to the rating sessions seated at its table, a correction
undoes what it replaced, a buy-in at a rated seat counts for the session, the 3σ alert and the hold drift.

Mr Lee (Gold) sits at seat 1 of PGP-1 (the house banks, players pay 5% on wins); the figures expected are worked out
here from the wagers and the house edge of the table's rule set (``rules.edges``), as a host would on paper.
"""

from __future__ import annotations

import itertools
import math
from unittest import mock

import pytest
from django.db import connection

from casino.errors import WrongState
from ledger.models import Posting
from players.figures import hold_drift, session_figures
from players.models import HoldRound, RatedBuyIn, RatedRound, RatingSeat, RatingSession, TableHold
from players.rating import hold_window_update, house_figures, position_figures, sessions_playing_at
from players.services import player_create, session_end, session_move, session_pause, session_start
from players.verify import ratings_verify
from rounds.models import Round
from rounds.services import round_open, wager_place
from rules.edges import rule_set_edges
from rules.services import rule_set_create
from settlement.services import correct_round, settle_round
from tables.drop import buy_in_record, buy_in_void
from tables.models import Table
from tests.markers import marker_buy_in
from tests.settlement.conftest import BANK, LOSES, PUSHES, WINS

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("house_chips")]


@pytest.fixture
def lee(dealer):  # type: ignore[no-untyped-def]
    return player_create(actor=dealer, name="Mr Lee", card_number="1001", tier="Gold")


@pytest.fixture
def seated(dealer, shift, pgp_table, lee) -> RatingSession:  # type: ignore[no-untyped-def]
    return session_start(actor=dealer, player=lee, table=pgp_table, seat=1, chips_cents=10_000)


def _edge(table) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    edges = rule_set_edges(Round.objects.filter(table=table).latest("pk").rule_set_snapshot)
    assert edges.player is not None
    return edges.player.edge, edges.player.sd


def _settle(dealer, play_to_hands, table, wagers, seats, key):  # type: ignore[no-untyped-def]
    round_ = play_to_hands(table, wagers=wagers, hands={"banker": BANK, "seats": seats})
    settle_round(round=round_, actor=dealer, idempotency_key=key)
    return round_


def _session(session: RatingSession) -> RatingSession:
    return RatingSession.objects.get(pk=session.pk)


def test_a_settle_adds_the_rated_seats_wager_result_and_theo_and_only_theirs(  # type: ignore[no-untyped-def]
    dealer, pgp_table, play_to_hands, seated
) -> None:
    _settle(dealer, play_to_hands, pgp_table, {1: 2500, 2: 1000}, {"1": WINS, "2": LOSES}, "r1")
    _settle(dealer, play_to_hands, pgp_table, {1: 5000, 2: 1000}, {"1": LOSES, "2": WINS}, "r2")
    _settle(dealer, play_to_hands, pgp_table, {1: 1500}, {"1": PUSHES}, "r3")
    edge, sd = _edge(pgp_table)
    lee = _session(seated)
    # Seat 1 won 25.00 less 1.25 commission, lost 50.00, pushed 15.00; seat 2 is nobody's rating.
    assert (lee.rounds, lee.wagered_cents, lee.win_loss_cents) == (3, 9000, 2375 - 5000 + 0)
    assert lee.theo_millicents == sum(round(w * edge * 1000) for w in (2500, 5000, 1500))
    assert lee.variance_cents2 == pytest.approx(sum(w * w * sd * sd for w in (2500, 5000, 1500)), rel=1e-12)
    figures = session_figures(lee, tier="Gold")
    assert figures.average_bet_cents == 3000  # 90.00 over 3 rounds
    assert figures.theo_cents == round(9000 * edge)
    assert figures.comp_cents == round(figures.theo_cents * 0.30)  # Gold gives back 30% of theo
    assert figures.buy_in_cents == 10_000  # the chips he brought
    assert RatedRound.objects.filter(session=seated).count() == 3
    # The table's hold window: every round, rated or not; the house won 10.00 - 23.75 ... as the ledger says.
    window = TableHold.objects.get(table=pgp_table)
    assert window.rounds == 3 == HoldRound.objects.filter(table=pgp_table).count()
    assert window.house_win_cents == (1000 - 2500 + 125) + (5000 - 1000 + 50) + 0
    assert window.action_cents == 2500 + 1000 + 5000 + 1000 + 1500
    assert window.theo_millicents == sum(round(w * edge * 1000) for w in (2500, 1000, 5000, 1000, 1500))


def test_a_session_on_a_break_or_ended_is_not_credited(dealer, pgp_table, play_to_hands, seated) -> None:  # type: ignore[no-untyped-def]
    session_pause(actor=dealer, session=seated)
    _settle(dealer, play_to_hands, pgp_table, {1: 2500}, {"1": WINS}, "r1")
    assert _session(seated).rounds == 0
    session_end(actor=dealer, session=seated, walk_with_cents=0)
    _settle(dealer, play_to_hands, pgp_table, {1: 2500}, {"1": WINS}, "r2")
    assert (_session(seated).rounds, _session(seated).win_loss_cents) == (0, 0)
    assert TableHold.objects.get(table=pgp_table).rounds == 2


def test_a_correction_undoes_what_the_corrected_settlement_added_and_adds_the_new(  # type: ignore[no-untyped-def]
    dealer, floor_supervisor, pgp_table, play_to_hands, seated, settings
) -> None:
    settings.TABLESIDE_FOUR_EYES = False
    round_ = _settle(dealer, play_to_hands, pgp_table, {1: 2500, 2: 1000}, {"1": WINS, "2": LOSES}, "r1")
    session_end(actor=dealer, session=seated, walk_with_cents=12_375)  # he left before the correction
    correct_round(
        actor=floor_supervisor,
        round=round_,
        hands={"banker": BANK, "seats": {"1": PUSHES, "2": LOSES}},
        reason="seat 1 held the pushing hand",
        idempotency_key="c1",
    )
    lee = _session(seated)
    assert (lee.rounds, lee.wagered_cents, lee.win_loss_cents) == (1, 2500, 0)
    rows = list(RatedRound.objects.filter(session=seated).values_list("rounds", "win_loss_cents"))
    assert rows == [(1, 2375), (-1, -2375), (1, 0)]  # append-only: the first row stays, undone by the second
    hold = HoldRound.objects.get(round=round_)
    assert hold.house_win_cents == 1000  # seat 2's loss; seat 1 pushed
    assert TableHold.objects.get(table=pgp_table).house_win_cents == 1000


def test_a_buy_in_at_a_rated_seat_counts_for_the_session_and_its_void_takes_it_back(  # type: ignore[no-untyped-def]
    dealer, floor_supervisor, pgp_table, seated
) -> None:
    cash = buy_in_record(actor=dealer, table=pgp_table, seat=1, medium="cash", amount_cents=50_000)
    marker_buy_in(table=pgp_table, seat=1, amount_cents=100_000, asked_by=dealer, issued_by=floor_supervisor)
    buy_in_record(actor=dealer, table=pgp_table, seat=2, medium="cash", amount_cents=7_000)  # nobody rated there
    lee = _session(seated)
    assert (lee.chips_in_cents, lee.cash_in_cents, lee.markers_in_cents) == (10_000, 50_000, 100_000)
    buy_in_void(actor=floor_supervisor, buy_in=cash, reason="keyed 500 for 50")
    assert _session(seated).cash_in_cents == 0
    assert RatedBuyIn.objects.filter(session=seated).count() == 3
    assert session_figures(_session(seated), tier="Gold").buy_in_cents == 110_000


def test_the_player_bank_is_rated_as_the_banker_on_the_wagers_it_covered(  # type: ignore[no-untyped-def]
    dealer, pit_boss, make_table, shift, play_to_hands, lee
) -> None:
    rules = rule_set_create(actor=pit_boss, name="PGP rotation", game="paigow_poker", banking_mode="player_rotation")
    table = make_table(name="PGP-B", game="paigow_poker", seat_count=6, rule_set=rules)
    session = session_start(actor=dealer, player=lee, table=table, seat=3)
    round_ = play_to_hands(
        table,
        wagers={1: 2000, 2: 1000},
        hands={"banker": BANK, "seats": {"1": LOSES, "2": WINS}},
        banker_seat=3,
        bank_cents=50_000,
    )
    settle_round(round=round_, actor=dealer, idempotency_key="b1")
    edges = rule_set_edges(Round.objects.get(pk=round_.pk).rule_set_snapshot)
    lee_now = _session(session)
    # The bank took 20.00 and paid 10.00: it won 10.00 and paid 5% of it (0.50).
    assert (lee_now.rounds, lee_now.banker_rounds, lee_now.banker_wagered_cents) == (0, 1, 3000)
    assert lee_now.win_loss_cents == 1000 - 50
    assert lee_now.theo_millicents == round(3000 * edges.banker.edge * 1000)
    assert session_figures(lee_now, tier="Gold").average_bet_cents is None  # he never wagered as a player


_KEYS = itertools.count()


def hold_settled_seats(table) -> dict[int, int]:  # type: ignore[no-untyped-def]
    """What ``players.sql``'s read of the seats answers (its statements run alone, in a savepoint rolled back)."""
    from django.db import transaction

    from players.sql import _seats_sql

    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(_seats_sql(), [table.pk, "playing"])
        return dict(cursor.fetchall())


def _alert_run(dealer, play_to_hands, table, outcomes: list[dict[str, str]]) -> None:  # type: ignore[no-untyped-def]
    for hand in outcomes:
        _settle(dealer, play_to_hands, table, {1: 2500}, {"1": hand}, f"run-{next(_KEYS)}")


def test_a_run_of_wins_far_above_expectation_raises_the_3_sigma_alert(  # type: ignore[no-untyped-def]
    dealer, pgp_table, play_to_hands, seated
) -> None:
    _alert_run(dealer, play_to_hands, pgp_table, [WINS] * 5)
    edge, sd = _edge(pgp_table)
    five = session_figures(_session(seated), tier="Gold")
    # Five wins of 23.75 against an expectation of -5 x 25.00 x edge: z = (118.75 + 125 edge) / (25 sd sqrt 5).
    assert five.z == pytest.approx((5 * 2375 + 5 * 2500 * edge) / (2500 * sd * math.sqrt(5)), rel=1e-6)
    assert five.z < 3 and not five.alert  # five in a row happens
    _alert_run(dealer, play_to_hands, pgp_table, [WINS] * 3)
    eight = session_figures(_session(seated), tier="Gold")
    assert eight.z > 3 and eight.alert  # eight in a row is beyond three standard deviations


def test_a_normal_run_raises_no_alert(dealer, pgp_table, play_to_hands, seated) -> None:  # type: ignore[no-untyped-def]
    _alert_run(dealer, play_to_hands, pgp_table, [WINS, LOSES, PUSHES, PUSHES, LOSES, WINS, PUSHES, LOSES] * 2)
    figures = session_figures(_session(seated), tier="Gold")
    assert figures.rounds == 16 and figures.z is not None
    assert abs(figures.z) < 1 and not figures.alert


def test_a_table_whose_hold_drifts_out_of_its_interval_is_flagged(  # type: ignore[no-untyped-def]
    dealer, pgp_table, play_to_hands, shift, settings
) -> None:
    settings.TABLESIDE_HOLD_ALERT_MIN_ROUNDS = 6
    _alert_run(dealer, play_to_hands, pgp_table, [WINS, LOSES, PUSHES, PUSHES, LOSES, WINS])
    steady = hold_drift(TableHold.objects.get(table=pgp_table))
    assert steady is not None and steady.rounds == 6 and not steady.alert
    _alert_run(dealer, play_to_hands, pgp_table, [WINS] * 8)
    drifting = hold_drift(TableHold.objects.get(table=pgp_table))
    assert drifting is not None and drifting.z is not None
    assert drifting.z < -1.96 and drifting.alert  # the house has lost far more than its edge allows
    settings.TABLESIDE_HOLD_WINDOW_ROUNDS = 4
    _alert_run(dealer, play_to_hands, pgp_table, [LOSES, PUSHES, WINS, LOSES])  # the window keeps the last 4
    assert TableHold.objects.get(table=pgp_table).rounds == 4
    assert TableHold.objects.get(table=pgp_table).house_win_cents == 2500 + 0 - 2500 + 125 + 2500


def test_the_ratings_verify_and_a_figure_changed_behind_the_applications_back_is_found(  # type: ignore[no-untyped-def]
    dealer, floor_supervisor, pgp_table, play_to_hands, seated, settings
) -> None:
    settings.TABLESIDE_FOUR_EYES = False
    round_ = _settle(dealer, play_to_hands, pgp_table, {1: 2500, 2: 1000}, {"1": WINS, "2": LOSES}, "v1")
    buy_in_record(actor=dealer, table=pgp_table, seat=1, medium="cash", amount_cents=20_000)
    correct_round(
        actor=floor_supervisor,
        round=round_,
        hands={"banker": BANK, "seats": {"1": LOSES, "2": WINS}},
        reason="the hands of seats 1 and 2 were swapped",
        idempotency_key="v2",
    )
    assert ratings_verify() == []
    RatingSession.objects.filter(pk=seated.pk).update(win_loss_cents=99_999, cash_in_cents=1)
    HoldRound.objects.filter(round=round_).update(house_win_cents=0)
    problems = ratings_verify()
    assert len(problems) == 2
    assert "win_loss_cents is 99999 but its rows sum to -2500" in problems[0]
    assert "cash_in_cents is 1 but its rows sum to 20000" in problems[0]
    assert f"The hold row of round id {round_.pk}" in problems[1]


def test_the_settle_paths_hand_written_sql_writes_what_its_orm_twins_would(  # type: ignore[no-untyped-def]
    dealer, pgp_table, play_to_hands, seated, settings
) -> None:
    settings.TABLESIDE_HOLD_WINDOW_ROUNDS = 3
    _alert_run(dealer, play_to_hands, pgp_table, [WINS, LOSES, PUSHES, LOSES, WINS])
    fields = ("rounds", "action_cents", "house_win_cents", "theo_millicents", "variance_cents2")
    by_sql = TableHold.objects.filter(table=pgp_table).values(*fields).get()
    hold_window_update(pgp_table.pk)  # the ORM twin rewrites the window from the same rows
    assert TableHold.objects.filter(table=pgp_table).values(*fields).get() == by_sql
    assert by_sql["rounds"] == 3 and by_sql["house_win_cents"] == 0 + 2500 - 2375  # push, loss, win
    # The round's hold row is the one the ORM would write, and the read of the seats is the ORM's.
    last = HoldRound.objects.latest("pk")
    posting = Posting.objects.get(pk=last.posting_id)
    edges = rule_set_edges(Round.objects.get(pk=last.round_id).rule_set_snapshot)
    want = house_figures(posting.result, edges, position_figures(posting.result, edges))
    assert (last.house_win_cents, last.theo_millicents, last.variance_cents2) == (
        want.house_win_cents,
        want.theo_millicents,
        want.variance_cents2,
    )
    assert hold_settled_seats(pgp_table) == sessions_playing_at(pgp_table.pk) == {1: seated.pk}


# --- what the review found -------------------------------------------------------------------------------

W2 = {"high": "Ah Ac 7h 4c 2s", "low": "Ks Kd"}  # wins as WINS does, in other cards


def test_a_rated_seat_does_not_change_hands_while_its_wager_is_in_play(  # type: ignore[no-untyped-def]
    dealer, pgp_table, seated, lee, nothing_written
) -> None:
    wong = player_create(actor=dealer, name="Ms Wong", tier="Silver")
    round_ = round_open(actor=dealer, table=pgp_table)
    wager_place(actor=dealer, round=round_, seat=1, amount_cents=40_000)  # Mr Lee's
    wager_place(actor=dealer, round=round_, seat=3, amount_cents=1_000)  # a player nobody rates
    for act in (
        lambda: session_pause(actor=dealer, session=seated),
        lambda: session_end(actor=dealer, session=seated, walk_with_cents=0),
        lambda: session_move(actor=dealer, session=seated, table=pgp_table, seat=4),
        lambda: session_start(actor=dealer, player=wong, table=pgp_table, seat=3),
    ):
        with nothing_written(round_), pytest.raises(WrongState, match="has a wager in round 1: wait until it is"):
            act()
    assert _session(seated).status == "playing" and not RatingSession.objects.filter(player=wong).exists()


def test_a_correction_that_gives_a_no_action_wager_action_credits_its_session(  # type: ignore[no-untyped-def]
    dealer, pit_boss, floor_supervisor, make_table, shift, play_to_hands, lee, settings
) -> None:
    settings.TABLESIDE_FOUR_EYES = False
    rules = rule_set_create(actor=pit_boss, name="PGP rotation", game="paigow_poker", banking_mode="player_rotation")
    table = make_table(name="PGP-B", game="paigow_poker", seat_count=6, rule_set=rules)
    session = session_start(actor=dealer, player=lee, table=table, seat=2)
    # A bank of 30.00: seat 1 wins 20.00 first, so Mr Lee's 20.00 at seat 2 is more than is left: no action.
    round_ = play_to_hands(
        table,
        wagers={1: 2000, 2: 2000},
        hands={"banker": BANK, "seats": {"1": WINS, "2": W2}},
        banker_seat=3,
        bank_cents=3000,
    )
    settle_round(round=round_, actor=dealer, idempotency_key="nb1")
    assert [line["outcome"] for line in Posting.objects.get(round_id=round_.pk, kind="settlement").result["seats"]] == [
        "win",
        "no_action",
    ]
    assert (_session(session).rounds, _session(session).wagered_cents) == (0, 0)
    # Corrected: seat 1 lost, so the bank covers Mr Lee, who wins 20.00 less 1.00.
    correct_round(
        actor=floor_supervisor,
        round=round_,
        hands={"banker": BANK, "seats": {"1": LOSES, "2": W2}},
        reason="seat 1 held the losing hand",
        idempotency_key="nb2",
    )
    lee_now = _session(session)
    assert (lee_now.rounds, lee_now.wagered_cents, lee_now.win_loss_cents) == (1, 2000, 1900)
    assert ratings_verify() == []


def test_wagers_at_the_highest_limit_settle_and_rate(dealer, make_table, shift, play_to_hands, lee) -> None:  # type: ignore[no-untyped-def]
    most = 2_147_483_647
    table = make_table(name="HI", game="paigow_poker", seat_count=6, max_wager_cents=most)
    session = session_start(actor=dealer, player=lee, table=table, seat=1)
    round_ = play_to_hands(table, wagers={1: most, 2: most}, hands={"banker": BANK, "seats": {"1": LOSES, "2": W2}})
    settle_round(round=round_, actor=dealer, idempotency_key="big")
    # (21 million x sd)² a wager: a session of four such rounds would not fit a bigint; a float holds it.
    sd = rule_set_edges(Round.objects.get(pk=round_.pk).rule_set_snapshot).player.sd
    assert _session(session).variance_cents2 == pytest.approx(float(most) ** 2 * sd**2, rel=1e-12)
    assert ratings_verify() == []


def test_a_dealer_moves_only_a_player_from_a_table_they_work(dealer, make_user, make_table, shift, seated) -> None:  # type: ignore[no-untyped-def]
    from casino.errors import NotAllowed
    from casino.roles import Role
    from tables.services import table_assign_dealer

    dino = make_user("dino_dealer", Role.DEALER)
    other = make_table(name="PGP-9", game="paigow_poker", seat_count=6)
    table_assign_dealer(actor=make_user("paula_pit", Role.PIT_BOSS), table=other, dealer=dino)
    with pytest.raises(NotAllowed):
        session_move(actor=dino, session=seated, table=other, seat=2)
    assert RatingSeat.objects.get(session=seated, ended_at=None).table.name == "PGP-1"


def test_two_tablets_moving_players_to_one_seat_at_once_get_a_refusal_not_an_error(  # type: ignore[no-untyped-def]
    dealer, pgp_table, seated, lee
) -> None:
    wong = session_start(
        actor=dealer, player=player_create(actor=dealer, name="Wong", tier="Gold"), table=pgp_table, seat=2
    )
    # The other tablet got there between this move's check and its write.
    taken = mock.patch("players.services._seat_free", side_effect=lambda table, seat: seat)
    with taken, pytest.raises(WrongState, match="at the same moment: reload"):
        session_move(actor=dealer, session=seated, table=pgp_table, seat=2)
    assert RatingSeat.objects.get(session=seated, ended_at=None).seat_number == 1
    assert RatingSeat.objects.get(session=wong, ended_at=None).seat_number == 2


def test_a_table_with_a_rated_player_seated_does_not_close(dealer, pit_boss, pgp_table, seated) -> None:  # type: ignore[no-untyped-def]
    from tables.services import table_close

    with pytest.raises(WrongState, match="A rated player is still seated at seat 1 of table PGP-1: end the session"):
        table_close(actor=pit_boss, table=pgp_table)
    assert Table.objects.get(pk=pgp_table.pk).status == "open"
    session_end(actor=dealer, session=seated, walk_with_cents=0)
    assert table_close(actor=pit_boss, table=pgp_table).status == "closed"
