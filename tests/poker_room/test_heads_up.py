"""Heads-up events (issue 19, ``poker_room.heads_up.services``): the bracket drawn at the start, matches played on the
dealer's tablet, blinds rising on every 7th hand counted, the group mode, a wrong winner undone; and the pages."""

from __future__ import annotations

import html
import random
from collections.abc import Callable
from itertools import combinations

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from casino.errors import NotAllowed, WrongState
from casino.models import AuditEvent
from casino.roles import Role
from poker_room.heads_up import services as heads_up
from poker_room.heads_up.models import Match
from poker_room.heads_up.selectors import bracket_view
from poker_room.tournaments import services
from poker_room.tournaments.models import Elimination, Entry, Tournament
from tests.poker_room.tournament_setup import PLAYERS, T0, director, fresh  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db


def _names(count: int) -> list[str]:
    return [*PLAYERS, *(f"Player {i}" for i in range(len(PLAYERS) + 1, count + 1))][:count]


@pytest.fixture
def heads_up_event(director: User) -> Callable[..., Tournament]:  # noqa: F811
    """An MSOP Heads Up (7-hand levels, tables of two) with ``players`` registered and started."""

    def make(players: int, *, draw: bool = True, tables: int | None = None, **settings: object) -> Tournament:
        tournament = services.tournament_create(
            actor=director,
            template_key="msop_heads_up",
            buy_in_cents=9_000,
            fee_cents=1_000,
            tables=tables or (players + 1) // 2,
        )
        services.tournament_settings_set(actor=director, tournament=tournament, **{"seeding": "seeded", **settings})
        for name in _names(players):
            services.entry_register(actor=director, tournament=tournament, name=name, now=T0)
        started = services.tournament_start(actor=director, tournament=tournament, now=T0, rng=random.Random(19))
        if draw and not Match.objects.filter(tournament=started).exists():
            heads_up.bracket_draw(actor=director, tournament=started, rng=random.Random(19))
        return fresh(started)

    return make


def _match(tournament: Tournament, stage: str, round_: int, number: int) -> Match:
    return Match.objects.get(tournament=tournament, stage=stage, round=round_, number=number)


def _seeds(match: Match) -> tuple[int | None, int | None]:
    return (
        match.entry_a.number if match.entry_a else None,
        match.entry_b.number if match.entry_b else None,
    )


def _seat(tournament: Tournament, number: int) -> tuple[int | None, int | None]:
    entry = Entry.objects.get(tournament=tournament, number=number)
    return entry.table_number, entry.seat_number


# --- the knock-out ------------------------------------------------------------------------------------------------


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
    first = _match(tournament, "knockout", 1, 1)
    assert first.table_number == 1 and _match(tournament, "knockout", 2, 2).table_number is None  # round 1 first
    assert (_seat(tournament, 4), _seat(tournament, 5), _seat(tournament, 1)) == ((1, 1), (1, 2), (None, None))
    drawn = AuditEvent.objects.filter(event_type="tournament.bracket").get()
    assert drawn.after["byes"] == [1, 2, 3] and drawn.after["size"] == 4

    heads_up.match_decide(actor=director, tournament=tournament, match=first, winner=first.entry_b)
    out = Elimination.objects.get(entry__number=4)
    assert (out.place, out.eliminated_by.number) == (5, 5)
    semi_1, semi_2 = _match(tournament, "knockout", 2, 1), _match(tournament, "knockout", 2, 2)
    assert _seeds(semi_1) == (1, 5) and semi_1.status == "ready"
    assert {semi_1.table_number, semi_2.table_number} == {1, 2}  # the semi-finals start together
    assert _seat(tournament, 2) == (semi_2.table_number, 1)

    heads_up.match_decide(actor=director, tournament=tournament, match=semi_1, winner=semi_1.entry_a)
    heads_up.match_decide(actor=director, tournament=tournament, match=semi_2, winner=semi_2.entry_b)
    final = _match(tournament, "knockout", 3, 1)
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
    assert _seeds(_match(tournament, "knockout", 4, 1)) == (1, 2)
    assert Entry.objects.get(tournament=tournament, number=1).place == 1


# --- blinds by hands on the tablet --------------------------------------------------------------------------------


def test_blinds_rise_on_every_7th_hand_recorded_by_the_tables_dealer(
    heads_up_event: Callable[..., Tournament],
    director: User,  # noqa: F811
    make_user: Callable[..., User],
) -> None:
    tournament = heads_up_event(4, heads_up_mode="knockout")
    dana = make_user("dana_dealer", Role.DEALER)
    match = _match(tournament, "knockout", 1, 1)
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
    match = _match(tournament, "knockout", 1, 1)
    with pytest.raises(WrongState, match="no hand counted"):
        heads_up.match_hand_undo(actor=director, tournament=tournament, match=match)
    heads_up.match_decide(actor=director, tournament=tournament, match=match, winner=match.entry_a)
    with pytest.raises(WrongState, match="is decided"):
        heads_up.match_hand(actor=director, tournament=tournament, match=match)
    with pytest.raises(WrongState, match="waits for its players"):
        heads_up.match_hand(actor=director, tournament=tournament, match=_match(tournament, "knockout", 2, 1))


# --- the group mode -----------------------------------------------------------------------------------------------


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
    final = _match(tournament, "knockout", 2, 1)
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


# --- a wrong winner -----------------------------------------------------------------------------------------------


def test_a_wrong_winner_is_undone_while_the_next_match_has_not_started(
    heads_up_event: Callable[..., Tournament],
    director: User,  # noqa: F811
) -> None:
    tournament = heads_up_event(4, heads_up_mode="knockout")
    one, two = _match(tournament, "knockout", 1, 1), _match(tournament, "knockout", 1, 2)
    heads_up.match_decide(actor=director, tournament=tournament, match=one, winner=one.entry_b)  # meant entry_a
    heads_up.match_undo(actor=director, tournament=tournament, match=one, reason="Wrong player tapped")
    one = _match(tournament, "knockout", 1, 1)
    assert one.status == "ready" and one.winner is None and one.table_number is not None
    assert _seeds(_match(tournament, "knockout", 2, 1)) == (None, None)
    assert Entry.objects.get(tournament=tournament, number=4).status == "active"
    assert _seat(tournament, 4)[0] == one.table_number
    heads_up.match_decide(actor=director, tournament=tournament, match=one, winner=one.entry_a)
    heads_up.match_decide(actor=director, tournament=tournament, match=two, winner=two.entry_a)
    final = _match(tournament, "knockout", 2, 1)
    heads_up.match_hand(actor=director, tournament=tournament, match=final)
    with pytest.raises(WrongState, match="undo that match first"):
        heads_up.match_undo(actor=director, tournament=tournament, match=one, reason="too late")
    assert AuditEvent.objects.filter(event_type="tournament.match_undone").count() == 1


def test_refusals_write_nothing(heads_up_event: Callable[..., Tournament], director: User) -> None:  # noqa: F811
    tournament = heads_up_event(4, heads_up_mode="knockout")
    with pytest.raises(WrongState, match="drawn already"):
        heads_up.bracket_draw(actor=director, tournament=tournament)
    match = _match(tournament, "knockout", 1, 1)
    stranger = Entry.objects.get(tournament=tournament, number=2)
    events = AuditEvent.objects.count()
    with pytest.raises(Exception, match="winner of"):
        heads_up.match_decide(actor=director, tournament=tournament, match=match, winner=stranger)
    assert AuditEvent.objects.count() == events and _match(tournament, "knockout", 1, 1).status == "ready"
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


# --- the pages ----------------------------------------------------------------------------------------------------

KEY = "0123456789abcdef0123456789abcdef"


def _signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _text(response: object) -> str:
    return html.unescape(response.content.decode())  # type: ignore[attr-defined]


def test_the_dealers_tablet_counts_hands_once_a_tap_and_the_blinds_rise_on_the_7th(
    heads_up_event: Callable[..., Tournament],
    director: User,  # noqa: F811
    make_user: Callable[..., User],
) -> None:
    tournament = heads_up_event(4, heads_up_mode="knockout")
    dana = make_user("dana_dealer", Role.DEALER)
    match = _match(tournament, "knockout", 1, 1)
    services.tournament_table_dealer_set(
        actor=director, tournament=tournament, table_number=match.table_number, dealer=dana
    )
    levels = [level for level in tournament.levels if level["kind"] == "level"]
    client = _signed_in(dana)
    address = reverse("poker-room-match", args=[tournament.pk, match.pk])
    page = _text(client.get(address))
    first = f"{levels[0]['small_blind']}/{levels[0]['big_blind']}"
    assert "Level 1" in page and first in page and "hand 1 of 7" in page and "Hand played" in page
    hand = reverse("poker-room-match-action", args=[tournament.pk, match.pk, "hand"])
    # A double tap (the same form sent twice) counts one hand.
    assert client.post(hand, {"form_key": KEY}).status_code == 302
    client.post(hand, {"form_key": KEY})
    assert Match.objects.get(pk=match.pk).hands == 1
    for i in range(6):
        client.post(hand, {"form_key": f"{i:032x}"})
    page = _text(client.get(address))
    second = f"{levels[1]['small_blind']}/{levels[1]['big_blind']}"
    assert Match.objects.get(pk=match.pk).hands == 7
    assert "Level 2" in page and second in page and "hand 1 of 7" in page
    # The win asks to be confirmed, then records it: the other player is out.
    winner = match.entry_a
    page = _text(client.get(address + f"?won={winner.pk}"))
    assert f"Did #{winner.number} {winner.name} win the match?" in page
    decide = reverse("poker-room-match-action", args=[tournament.pk, match.pk, "decide"])
    refused = client.post(decide, {"form_key": "a" * 32, "winner": winner.pk})
    assert refused.status_code == 400 and Match.objects.get(pk=match.pk).status == "ready"
    client.post(decide, {"form_key": "b" * 32, "winner": winner.pk, "confirm": "yes"})
    assert Match.objects.get(pk=match.pk).winner_id == winner.pk
    assert Entry.objects.get(pk=match.entry_b_id).status == "busted"


def test_a_dealer_of_another_table_and_a_stranger_are_refused_the_match(
    heads_up_event: Callable[..., Tournament],
    make_user: Callable[..., User],
) -> None:
    tournament = heads_up_event(4, heads_up_mode="knockout")
    match = _match(tournament, "knockout", 1, 1)
    address = reverse("poker-room-match", args=[tournament.pk, match.pk])
    otto = make_user("otto_dealer", Role.DEALER)
    assert _signed_in(otto).get(address).status_code == 403
    hand = reverse("poker-room-match-action", args=[tournament.pk, match.pk, "hand"])
    assert _signed_in(otto).post(hand, {"form_key": KEY}).status_code == 403
    assert _signed_in(make_user("cass_cashier", Role.CAGE_CASHIER)).get(address).status_code == 403
    auditor = _signed_in(make_user("alex_auditor", Role.AUDITOR))
    page = _text(auditor.get(address))
    assert "Read only" in page and "Hand played" not in page
    assert Match.objects.get(pk=match.pk).hands == 0


def test_the_console_draws_the_bracket_and_the_bracket_page_shows_it(
    heads_up_event: Callable[..., Tournament],
    director: User,  # noqa: F811
) -> None:
    tournament = heads_up_event(6, draw=False, heads_up_mode="knockout")
    client = _signed_in(director)
    console = _text(client.get(reverse("poker-room-console", args=[tournament.pk])))
    assert "Draw the bracket" in console
    response = client.post(reverse("poker-room-bracket-draw", args=[tournament.pk]), {"form_key": KEY})
    assert response.status_code == 302 and Match.objects.filter(tournament=tournament).count() == 5
    console = _text(client.get(reverse("poker-room-console", args=[tournament.pk])))
    assert "Now playing: First round." in console and "Draw the bracket" not in console
    again = client.post(reverse("poker-room-bracket-draw", args=[tournament.pk]), {"form_key": "c" * 32})
    assert again.status_code == 409 and "drawn already" in _text(again)
    bracket = _text(client.get(reverse("poker-room-bracket", args=[tournament.pk])))
    for name in ("First round", "Semi-final", "Final", "Winner of match 1"):
        assert name in bracket


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


def test_the_bracket_page_reads_as_many_queries_for_32_players_as_for_4(
    heads_up_event: Callable[..., Tournament],
    director: User,  # noqa: F811
) -> None:
    counts = []
    for players in (4, 32):
        tournament = heads_up_event(players, heads_up_mode="knockout")
        client = _signed_in(director)
        client.get(reverse("poker-room-bracket", args=[tournament.pk]))  # the session warmed up
        with CaptureQueriesContext(connection) as queries:
            assert client.get(reverse("poker-room-bracket", args=[tournament.pk])).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts
