"""Heads-up events (``poker_room.heads_up``): the bracket drawn at the start, matches played on the dealer's tablet,
blinds rising on every 7th hand counted, the group mode, a wrong winner undone; fields of 2 to 9 played to the end in
both modes with the prize tiers paid equally, matches decided out of turn and undo chains."""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from casino.errors import NotAllowed, WrongState
from casino.models import AuditEvent
from casino.roles import Role
from ledger.verify import ledger_verify
from poker_room.heads_up import services as heads_up
from poker_room.heads_up.models import Match
from poker_room.heads_up.selectors import bracket_view
from poker_room.tournaments import services
from poker_room.tournaments.models import Elimination, Entry, Tournament
from tests.poker_room.heads_up.play import match_of, play_out
from tests.poker_room.tournament_setup import PLAYERS, T0, director, fresh  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db


def _seeds(match: Match) -> tuple[int | None, int | None]:
    return (
        match.entry_a.number if match.entry_a else None,
        match.entry_b.number if match.entry_b else None,
    )


def _seat(tournament: Tournament, number: int) -> tuple[int | None, int | None]:
    entry = Entry.objects.get(tournament=tournament, number=number)
    return entry.table_number, entry.seat_number


# --- the knock-out-----------------------------------------------------------------------------------------------------


def test_five_players_seeded_play_one_first_round_match_then_the_bracket_of_four(
    heads_up_event: Callable[..., Tournament],
    director: User,  # noqa: F811
) -> None:
    tournament = heads_up_event(5, heads_up_mode="knockout")
    assert tournament.prize_tiers == [[3, 4], [5, 5]]
    assert [(m.round, m.number, _seeds(m), m.status) for m in Match.objects.filter(tournament=tournament)] == [
        (1, 1, (4, 5), "ready"),
        (2, 1, (1, None), "waiting"),  # seed 1's bye: straight into round 2, waiting for the winner of 4 v 5
        (2, 2, (2, 3), "ready"),
        (3, 1, (None, None), "waiting"),
    ]
    first = match_of(tournament, "knockout", 1, 1)
    assert first.table_number == 1 and match_of(tournament, "knockout", 2, 2).table_number is None  # round 1 first
    assert (_seat(tournament, 4), _seat(tournament, 5), _seat(tournament, 1)) == ((1, 1), (1, 2), (None, None))
    drawn = AuditEvent.objects.filter(event_type="tournament.bracket").get()
    assert drawn.after["byes"] == [1, 2, 3] and drawn.after["size"] == 4

    heads_up.match_decide(actor=director, tournament=tournament, match=first, winner=first.entry_b)
    out = Elimination.objects.get(entry__number=4)
    assert (out.place, out.eliminated_by.number) == (5, 5)
    semi_1, semi_2 = match_of(tournament, "knockout", 2, 1), match_of(tournament, "knockout", 2, 2)
    assert _seeds(semi_1) == (1, 5) and semi_1.status == "ready"
    assert {semi_1.table_number, semi_2.table_number} == {1, 2}  # the semi-finals start together
    assert _seat(tournament, 2) == (semi_2.table_number, 1)

    heads_up.match_decide(actor=director, tournament=tournament, match=semi_1, winner=semi_1.entry_a)
    heads_up.match_decide(actor=director, tournament=tournament, match=semi_2, winner=semi_2.entry_b)
    final = match_of(tournament, "knockout", 3, 1)
    assert _seeds(final) == (1, 3) and final.table_number is not None
    heads_up.match_decide(actor=director, tournament=tournament, match=final, winner=final.entry_b)
    assert fresh(tournament).status == Tournament.Status.FINISHED
    places = dict(Entry.objects.filter(tournament=tournament).values_list("number", "place"))
    assert places[3] == 1 and places[1] == 2 and {places[5], places[2]} == {3, 4} and places[4] == 5
    assert AuditEvent.objects.filter(event_type="tournament.match").count() == 4
    with pytest.raises(WrongState, match="finished"):
        heads_up.match_hand(actor=director, tournament=tournament, match=final)


def test_a_knock_out_of_16_seeded_meets_as_the_bracket_says(
    heads_up_event: Callable[..., Tournament],
    director: User,  # noqa: F811
) -> None:
    tournament = heads_up_event(16, heads_up_mode="knockout")
    first = [_seeds(m) for m in Match.objects.filter(tournament=tournament, round=1)]
    assert first == [(1, 16), (8, 9), (4, 13), (5, 12), (2, 15), (7, 10), (3, 14), (6, 11)]
    assert tournament.prize_tiers == [[3, 4], [5, 8], [9, 16]]
    # The favourites win every match: 1 v 8 and 4 v 5 in the quarter-finals, then 1 v 4, 2 v 3, and 1 v 2 last.
    for round_ in (1, 2, 3, 4):
        for match in Match.objects.filter(tournament=tournament, round=round_):
            better = min((match.entry_a, match.entry_b), key=lambda entry: entry.number)
            heads_up.match_decide(actor=director, tournament=tournament, match=match, winner=better)
        if round_ == 1:
            assert [_seeds(m) for m in Match.objects.filter(tournament=tournament, round=2)] == [
                (1, 8),
                (4, 5),
                (2, 7),
                (3, 6),
            ]
    assert [_seeds(m) for m in Match.objects.filter(tournament=tournament, round=3)] == [(1, 4), (2, 3)]
    assert _seeds(match_of(tournament, "knockout", 4, 1)) == (1, 2)
    assert Entry.objects.get(tournament=tournament, number=1).place == 1


def test_89_players_draw_a_bracket_of_64_with_25_first_round_matches_at_tables(
    heads_up_event: Callable[..., Tournament],
) -> None:
    tournament = heads_up_event(89, heads_up_mode="knockout")
    first = Match.objects.filter(tournament=tournament, round=1)
    assert first.count() == 25 and all(match.table_number for match in first)
    second = Match.objects.filter(tournament=tournament, round=2)
    assert second.count() == 32 and not second.filter(table_number__isnull=False).exists()
    byes = {e for m in second for e in (m.entry_a_id, m.entry_b_id) if e is not None}
    assert len(byes) == 39
    assert Match.objects.filter(tournament=tournament).count() == 25 + 63
    seated = Entry.objects.filter(tournament=tournament, table_number__isnull=False).count()
    assert seated == 50  # the first round's players at their tables; the 39 with a bye wait
    assert tournament.prize_tiers[-1] == [65, 89]


@pytest.mark.parametrize("mode", ["knockout", "groups"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7, 9])
def test_every_field_plays_to_the_end_with_every_place_paid_once(
    heads_up_event: Callable[..., Tournament],
    director: User,  # noqa: F811
    players: int,
    mode: str,
) -> None:
    tournament = heads_up_event(players, heads_up_mode=mode)
    play_out(tournament, director)
    tournament = fresh(tournament)
    assert tournament.status == Tournament.Status.FINISHED
    paid = {e.place: e.prize_cents for e in Elimination.objects.filter(tournament=tournament, status="in_force")}
    assert sorted(paid) == list(range(1, players + 1))
    assert sum(paid.values()) == players * 9_000
    assert not Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).exists()
    for first, last in tournament.prize_tiers:
        shares = {paid[place] for place in range(first, last + 1)}
        assert len(shares) == 1, (first, last, paid)  # the places of one tier are paid the same


# --- blinds by hands on the tablet-------------------------------------------------------------------------------------


def test_blinds_rise_on_every_7th_hand_recorded_by_the_tables_dealer(
    heads_up_event: Callable[..., Tournament],
    director: User,  # noqa: F811
    make_user: Callable[..., User],
) -> None:
    tournament = heads_up_event(4, heads_up_mode="knockout")
    dana = make_user("dana_dealer", Role.DEALER)
    match = match_of(tournament, "knockout", 1, 1)
    services.tournament_table_dealer_set(
        actor=director, tournament=tournament, table_number=match.table_number, dealer=dana
    )
    levels = [level for level in tournament.levels if level["kind"] == "level"]
    assert levels[0]["hands"] == 7
    seen = []
    for _hand in range(15):
        match = heads_up.match_hand(actor=dana, tournament=tournament, match=match)
        line = next(line for line in bracket_view(tournament).rounds[0].matches if line.match.pk == match.pk)
        seen.append((match.hands, line.blinds.level_number, line.blinds.level.big_blind, line.blinds.hand_in_level))
    assert [row[1] for row in seen] == [1] * 6 + [2] * 7 + [3] * 2  # the 7th and the 14th hand recorded raise them
    assert seen[6] == (7, 2, levels[1]["big_blind"], 1)
    assert seen[5] == (6, 1, levels[0]["big_blind"], 7)
    assert levels[1]["big_blind"] > levels[0]["big_blind"]
    assert AuditEvent.objects.filter(event_type="tournament.match_hand").count() == 15
    # A mis-tap taken back: the blinds fall back with it.
    match = heads_up.match_hand_undo(actor=dana, tournament=tournament, match=match)
    assert match.hands == 14
    # The dealer of another table may not count this match's hands.
    other = make_user("otto_dealer", Role.DEALER)
    services.tournament_table_dealer_set(actor=director, tournament=tournament, table_number=2, dealer=other)
    with pytest.raises(NotAllowed, match="not your table"):
        heads_up.match_hand(actor=other, tournament=tournament, match=match)


def test_hands_are_not_taken_below_none_nor_counted_once_decided(
    heads_up_event: Callable[..., Tournament],
    director: User,  # noqa: F811
) -> None:
    tournament = heads_up_event(4, heads_up_mode="knockout")
    match = match_of(tournament, "knockout", 1, 1)
    with pytest.raises(WrongState, match="no hand counted"):
        heads_up.match_hand_undo(actor=director, tournament=tournament, match=match)
    heads_up.match_decide(actor=director, tournament=tournament, match=match, winner=match.entry_a)
    with pytest.raises(WrongState, match="is decided"):
        heads_up.match_hand(actor=director, tournament=tournament, match=match)
    with pytest.raises(WrongState, match="waits for its players"):
        heads_up.match_hand(actor=director, tournament=tournament, match=match_of(tournament, "knockout", 2, 1))


def test_a_match_whose_tables_dealer_changed_is_recorded_by_the_new_dealer_only(
    heads_up_event: Callable[..., Tournament],
    director: User,  # noqa: F811
    make_user: Callable[..., User],
) -> None:
    tournament = heads_up_event(4, heads_up_mode="knockout")
    dana, otto = make_user("dana_dealer", Role.DEALER), make_user("otto_dealer", Role.DEALER)
    services.tournament_table_dealer_set(actor=director, tournament=tournament, table_number=1, dealer=dana)
    match = Match.objects.get(tournament=tournament, table_number=1)
    heads_up.match_hand(actor=dana, tournament=tournament, match=match)
    services.tournament_table_dealer_set(actor=director, tournament=tournament, table_number=1, dealer=otto)
    with pytest.raises(NotAllowed):
        heads_up.match_decide(actor=dana, tournament=tournament, match=match, winner=match.entry_a_id)
    client = Client()
    client.force_login(dana)
    url = f"/poker-room/{tournament.pk}/matches/{match.pk}/"
    assert client.post(f"{url}hand/", {}).status_code == 403
    assert client.get(url).status_code == 403
    heads_up.match_decide(actor=otto, tournament=tournament, match=match, winner=match.entry_a_id)
    assert Match.objects.get(pk=match.pk).decided_by == otto


# --- the group mode----------------------------------------------------------------------------------------------------


def test_ten_players_play_groups_of_4_3_3_then_a_knock_out_of_the_winners(
    heads_up_event: Callable[..., Tournament],
    director: User,  # noqa: F811
) -> None:
    tournament = heads_up_event(10, group_size=4)  # by field: 10 players are at most 16, groups
    view = bracket_view(tournament)
    assert view.mode == "groups"
    members = {box.number: [line.player.number for line in box.standing] for box in view.groups}
    assert members == {1: [1, 6, 7, 10], 2: [2, 5, 8], 3: [3, 4, 9]}
    assert tournament.prize_tiers == [[3, 3], [4, 10]]
    matches = list(Match.objects.filter(tournament=tournament, stage="group"))
    assert len(matches) == 6 + 3 + 3
    for group, numbers in members.items():
        pairs = sorted(tuple(sorted(_seeds(m))) for m in matches if m.group == group)
        assert pairs == sorted(combinations(sorted(numbers), 2))  # every pair once
    # Group 1 ends in a tie on wins: 1 and 6 win twice; 6 beat 1, so 6 wins the group. Elsewhere the better seed.
    upsets = {frozenset((1, 6)): 6, frozenset((6, 10)): 10}
    while Match.objects.filter(tournament=tournament, stage="group").exclude(status="decided").exists():
        playing = Match.objects.filter(tournament=tournament, stage="group", status="ready", table_number__isnull=False)
        assert playing.exists()
        for match in playing:
            a, b = _seeds(match)
            winner = upsets.get(frozenset((a, b)), min(a, b))
            entry = match.entry_a if match.entry_a.number == winner else match.entry_b
            heads_up.match_decide(actor=director, tournament=tournament, match=match, winner=entry)
    box = bracket_view(tournament).groups[0]
    assert [(line.player.number, line.wins) for line in box.standing] == [(6, 2), (1, 2), (7, 1), (10, 1)]
    # Each group's non-winners are out once it is complete, the last of the standing first: places 10 down to 4.
    out = {e.number: e.place for e in Entry.objects.filter(tournament=tournament, status="busted")}
    assert sorted(out.values()) == list(range(4, 11)) and out[10] > out[7] > out[1]
    # The winners' knock-out: 3 players, a first round between seeds 2 and 3 (the winners of groups 2 and 3).
    knockout = list(Match.objects.filter(tournament=tournament, stage="knockout"))
    assert [(m.round, _seeds(m)) for m in knockout] == [(1, (2, 3)), (2, (6, None))]
    heads_up.match_decide(actor=director, tournament=tournament, match=knockout[0], winner=knockout[0].entry_a)
    final = match_of(tournament, "knockout", 2, 1)
    heads_up.match_decide(actor=director, tournament=tournament, match=final, winner=final.entry_b)
    assert fresh(tournament).status == Tournament.Status.FINISHED
    assert Entry.objects.get(tournament=tournament, number=2).place == 1
    assert Entry.objects.get(tournament=tournament, number=6).place == 2


def test_one_group_is_the_whole_event(heads_up_event: Callable[..., Tournament], director: User) -> None:  # noqa: F811
    tournament = heads_up_event(3, group_size=4)
    while match := Match.objects.filter(tournament=tournament, table_number__isnull=False, status="ready").first():
        heads_up.match_decide(actor=director, tournament=tournament, match=match, winner=match.entry_a)
    finished = fresh(tournament)
    assert finished.status == Tournament.Status.FINISHED
    assert sorted(Entry.objects.filter(tournament=tournament).values_list("place", flat=True)) == [1, 2, 3]


def test_one_group_pays_its_standing_place_by_place_not_shared(
    heads_up_event: Callable[..., Tournament],
    director: User,  # noqa: F811
) -> None:
    tournament = heads_up_event(4, heads_up_mode="groups", group_size=4)
    assert tournament.prize_tiers == []  # a round robin of the whole field ranks everyone
    play_out(tournament, director)
    paid = {e.place: e.prize_cents for e in Elimination.objects.filter(tournament=tournament, status="in_force")}
    table = fresh(tournament)
    assert sum(paid.values()) == 4 * 9_000
    # 36.00 paid 50/30/20 to the first three: 2nd is paid as 2nd, not shared with 3rd and 4th.
    assert paid == {1: 18_000, 2: 10_800, 3: 7_200, 4: 0}, paid
    assert table.status == Tournament.Status.FINISHED


def test_a_group_of_three_all_one_and_one_goes_by_seed_and_stands_once_complete(
    heads_up_event: Callable[..., Tournament],
    director: User,  # noqa: F811
) -> None:
    tournament = heads_up_event(3, heads_up_mode="groups")
    matches = {
        frozenset((m.entry_a.number, m.entry_b.number)): m
        for m in Match.objects.filter(tournament=tournament).select_related("entry_a", "entry_b")
    }
    assert set(matches) == {frozenset((1, 2)), frozenset((1, 3)), frozenset((2, 3))}
    numbers = dict(Entry.objects.filter(tournament=tournament).values_list("number", "pk"))
    # A cycle: 1 beats 2, 2 beats 3, 3 beats 1: all 1-1, head to head too; the better seed wins the group.
    beats = {frozenset((1, 2)): 1, frozenset((2, 3)): 2, frozenset((1, 3)): 3}
    while (
        match := Match.objects.filter(tournament=tournament, status="ready", table_number__isnull=False)
        .select_related("entry_a", "entry_b")
        .first()
    ) is not None:
        winner = beats[frozenset((match.entry_a.number, match.entry_b.number))]
        heads_up.match_decide(actor=director, tournament=tournament, match=match, winner=numbers[winner])
    assert Match.objects.filter(tournament=tournament, status="decided").count() == 3
    places = dict(Entry.objects.filter(tournament=tournament).values_list("number", "place"))
    assert places[1] == 1 and sorted(places.values()) == [1, 2, 3]
    assert fresh(tournament).status == Tournament.Status.FINISHED
    with pytest.raises(WrongState):
        heads_up.match_undo(actor=director, tournament=tournament, match=matches[frozenset((1, 3))], reason="x")


def test_a_group_result_is_undone_until_the_group_is_complete(
    heads_up_event: Callable[..., Tournament],
    director: User,  # noqa: F811
) -> None:
    tournament = heads_up_event(3, group_size=4)  # one group of three: three matches, one a round
    first = Match.objects.get(tournament=tournament, round=1)
    heads_up.match_decide(actor=director, tournament=tournament, match=first, winner=first.entry_a)
    heads_up.match_undo(actor=director, tournament=tournament, match=first, reason="wrong name tapped")
    first = Match.objects.get(pk=first.pk)
    # Open again; it waits for a table while one of its players plays the next round's match.
    assert first.status == "ready" and first.winner is None
    assert not Elimination.objects.filter(tournament=tournament).exists()
    while match := Match.objects.filter(tournament=tournament, table_number__isnull=False, status="ready").first():
        heads_up.match_decide(actor=director, tournament=tournament, match=match, winner=match.entry_b)
    with pytest.raises(WrongState, match="complete"):
        heads_up.match_undo(actor=director, tournament=tournament, match=first, reason="too late")


def test_groups_with_bounties_are_refused(heads_up_event: Callable[..., Tournament], director: User) -> None:  # noqa: F811
    tournament = heads_up_event(4, draw=False, group_size=4, bounty_kind="fixed", bounty_cents=500)
    with pytest.raises(WrongState, match="no bounties"):
        heads_up.bracket_draw(actor=director, tournament=tournament)
    assert not Match.objects.filter(tournament=tournament).exists()


# --- a wrong winner----------------------------------------------------------------------------------------------------


def test_a_wrong_winner_is_undone_while_the_next_match_has_not_started(
    heads_up_event: Callable[..., Tournament],
    director: User,  # noqa: F811
) -> None:
    tournament = heads_up_event(4, heads_up_mode="knockout")
    one, two = match_of(tournament, "knockout", 1, 1), match_of(tournament, "knockout", 1, 2)
    heads_up.match_decide(actor=director, tournament=tournament, match=one, winner=one.entry_b)  # meant entry_a
    heads_up.match_undo(actor=director, tournament=tournament, match=one, reason="Wrong player tapped")
    one = match_of(tournament, "knockout", 1, 1)
    assert one.status == "ready" and one.winner is None and one.table_number is not None
    assert _seeds(match_of(tournament, "knockout", 2, 1)) == (None, None)
    assert Entry.objects.get(tournament=tournament, number=4).status == "active"
    assert _seat(tournament, 4)[0] == one.table_number
    heads_up.match_decide(actor=director, tournament=tournament, match=one, winner=one.entry_a)
    heads_up.match_decide(actor=director, tournament=tournament, match=two, winner=two.entry_a)
    final = match_of(tournament, "knockout", 2, 1)
    heads_up.match_hand(actor=director, tournament=tournament, match=final)
    with pytest.raises(WrongState, match="undo that match first"):
        heads_up.match_undo(actor=director, tournament=tournament, match=one, reason="too late")
    assert AuditEvent.objects.filter(event_type="tournament.match_undone").count() == 1


def test_undo_chains_in_a_knock_out(
    heads_up_event: Callable[..., Tournament],
    director: User,  # noqa: F811
) -> None:
    tournament = heads_up_event(6, heads_up_mode="knockout")
    first, second = Match.objects.filter(tournament=tournament, round=1).order_by("number")
    heads_up.match_decide(actor=director, tournament=tournament, match=first, winner=first.entry_a_id)
    heads_up.match_decide(actor=director, tournament=tournament, match=second, winner=second.entry_a_id)
    semi = Match.objects.get(pk=first.next_match_id)
    assert semi.table_number is not None and semi.status == "ready"
    # The first match is undone only after the later bust: the latest is undone first.
    with pytest.raises(WrongState):
        heads_up.match_undo(actor=director, tournament=tournament, match=first, reason="wrong name")
    heads_up.match_undo(actor=director, tournament=tournament, match=second, reason="wrong name")
    second.refresh_from_db()
    assert (second.status, second.winner_id) == ("ready", None) and second.table_number is not None
    loser = Entry.objects.get(pk=second.entry_b_id)
    assert (loser.status, loser.place) == ("active", None)
    assert (loser.table_number, loser.seat_number) == (second.table_number, 2)  # back in the match's seat
    other_semi = Match.objects.get(pk=second.next_match_id)
    assert other_semi.status == "waiting" and other_semi.table_number is None
    # Decided again the other way, its winner plays a hand of the semi-final: now the result stands.
    heads_up.match_decide(actor=director, tournament=tournament, match=second, winner=second.entry_b_id)
    other_semi.refresh_from_db()
    heads_up.match_hand(actor=director, tournament=tournament, match=other_semi)
    with pytest.raises(WrongState, match="has played on"):
        heads_up.match_undo(actor=director, tournament=tournament, match=second, reason="wrong name")
    play_out(tournament, director)
    final = Match.objects.get(tournament=tournament, round=3)
    heads_up.match_undo(actor=director, tournament=tournament, match=final, reason="wrong name")
    assert fresh(tournament).status == Tournament.Status.RUNNING
    heads_up.match_decide(actor=director, tournament=tournament, match=final, winner=final.entry_b_id)
    assert fresh(tournament).status == Tournament.Status.FINISHED
    assert Entry.objects.get(tournament=tournament, place=1).pk == final.entry_b_id
    report = ledger_verify()
    assert report.ok, report.problems


def test_the_final_undone_reopens_the_event(heads_up_event: Callable[..., Tournament], director: User) -> None:  # noqa: F811
    tournament = heads_up_event(2, heads_up_mode="knockout")
    final = Match.objects.get(tournament=tournament)
    heads_up.match_decide(actor=director, tournament=tournament, match=final, winner=final.entry_a)
    assert fresh(tournament).status == Tournament.Status.FINISHED
    heads_up.match_undo(actor=director, tournament=tournament, match=final, reason="the other player won")
    assert fresh(tournament).status == Tournament.Status.RUNNING
    final = Match.objects.get(pk=final.pk)
    assert final.status == "ready" and final.table_number == 1
    assert set(Entry.objects.filter(tournament=tournament).values_list("status", flat=True)) == {"active"}
    heads_up.match_decide(actor=director, tournament=tournament, match=final, winner=final.entry_b)
    assert Entry.objects.get(pk=final.entry_b_id).place == 1


def test_refusals_write_nothing(heads_up_event: Callable[..., Tournament], director: User) -> None:  # noqa: F811
    tournament = heads_up_event(4, heads_up_mode="knockout")
    with pytest.raises(WrongState, match="drawn already"):
        heads_up.bracket_draw(actor=director, tournament=tournament)
    match = match_of(tournament, "knockout", 1, 1)
    stranger = Entry.objects.get(tournament=tournament, number=2)
    events = AuditEvent.objects.count()
    with pytest.raises(Exception, match="winner of"):
        heads_up.match_decide(actor=director, tournament=tournament, match=match, winner=stranger)
    assert AuditEvent.objects.count() == events and match_of(tournament, "knockout", 1, 1).status == "ready"
    chips = services.tournament_create(actor=director, template_key="msop_turbo", buy_in_cents=1_000, fee_cents=0)
    with pytest.raises(WrongState, match="not a heads-up event"):
        heads_up.bracket_draw(actor=director, tournament=chips)


def test_the_bracket_is_drawn_after_the_start_only(
    heads_up_event: Callable[..., Tournament],
    director: User,  # noqa: F811
) -> None:
    planned = services.tournament_create(
        actor=director, template_key="msop_heads_up", buy_in_cents=1_000, fee_cents=0, tables=2
    )
    with pytest.raises(WrongState, match="has not started"):
        heads_up.bracket_draw(actor=director, tournament=planned)
