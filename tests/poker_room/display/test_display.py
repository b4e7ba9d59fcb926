"""The room display: its figures, its signed address for the room's TV and its staff address, and the conditional
poll that answers from the cached version without a query: every change reaches every open screen within a
second."""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import transaction
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse

from casino.roles import Role
from ledger.models import Posting
from ledger.services import post
from poker_room.display import live
from poker_room.display.selectors import display_payload
from poker_room.display.views import SERVER_NOW_HEADER, display_address, display_token
from poker_room.tournaments import clock_services as cs
from poker_room.tournaments import money
from poker_room.tournaments.models import Entry, Purchase, Tournament
from poker_room.tournaments.selectors import running_tournaments, tournament_board
from tests.caches import cache_clear

T0 = dt.datetime(2025, 10, 18, 18, 0, tzinfo=dt.UTC)

LEVELS: list[dict[str, Any]] = [
    {"kind": "level", "minutes": 20, "small_blind": 100, "big_blind": 200, "game": "nlhe"},
    {"kind": "level", "minutes": 20, "small_blind": 200, "big_blind": 400, "ante": 400, "ante_kind": "big_blind"},
    {"kind": "break", "minutes": 15, "colour_up": 25},
    {"kind": "level", "minutes": 20, "small_blind": 300, "big_blind": 600, "ante": 600, "ante_kind": "big_blind"},
]


def at(minutes: float) -> dt.datetime:
    return T0 + dt.timedelta(minutes=minutes)


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    cache_clear()  # the versions outlive a rolled-back test database


@pytest.fixture
def director(make_user: Callable[..., User]) -> User:
    return make_user("tina_director", Role.TOURNAMENT_DIRECTOR)


@pytest.fixture
def tournament(director: User) -> Tournament:
    return Tournament.objects.create(
        name="Zocktoberfest",
        games=["nlhe"],
        starting_stack=10_000,
        buy_in_cents=5_000,
        fee_cents=1_000,
        levels=LEVELS,
        created_by=director,
    )


def paid(tournament: Tournament, made: Entry, kind: Purchase.Kind, chips: int, by: User) -> Purchase:
    """A payment as the entry services write it: its posting in the ledger (``poker_room.tournaments.money``) and its
    row."""
    posting = post(
        kind=Posting.Kind.T_ENTRY,
        lines=money.purchase_lines(prize_cents=5_000, fee_cents=1_000, bounty_cents=0),
        actor=by,
        idempotency_key=money.purchase_key(tournament.pk, entry_number=made.number, kind=str(kind), ordinal=1),
    )
    return Purchase.objects.create(
        tournament=tournament, entry=made, kind=kind, prize_cents=5_000, fee_cents=1_000, bounty_cents=0, chips=chips,
        posting=posting, actor=by,
    )  # fmt: skip


def entry(tournament: Tournament, number: int, by: User, **fields: Any) -> Entry:
    made = Entry.objects.create(
        tournament=tournament, number=number, name=f"Player Name {number}", chips=10_000, created_by=by, **fields
    )
    paid(tournament, made, Purchase.Kind.REENTRY if made.reentry_of_id else Purchase.Kind.ENTRY, 10_000, by)
    return made


@pytest.fixture
def field(tournament: Tournament, director: User) -> list[Entry]:
    """Four entries: #1 rebought and took the add-on, #2 busted and re-entered as #3, #4 plays on."""
    first = entry(tournament, 1, director)
    busted = entry(tournament, 2, director, status=Entry.Status.BUSTED, place=4)
    again = entry(tournament, 3, director, reentry_of=busted)
    fourth = entry(tournament, 4, director)
    for kind, chips in ((Purchase.Kind.REBUY, 10_000), (Purchase.Kind.ADDON, 15_000)):
        paid(tournament, first, kind, chips, director)
    Entry.objects.filter(pk=first.pk).update(chips=35_000, rebuys=1, addon=True)
    return [first, busted, again, fourth]


def started(tournament: Tournament, director: User) -> Tournament:
    return cs.clock_start(actor=director, tournament=tournament, now=T0)


# --- the figures --------------------------------------------------------------------------------------------------


def test_the_board_counts_players_left_entries_and_every_chip_bought_by_busted_entries_too(
    tournament: Tournament, director: User, field: list[Entry]
) -> None:
    board = tournament_board(started(tournament, director), now=at(25))
    assert (board.players_left, board.entries, board.reentries, board.rebuys, board.addons) == (3, 4, 1, 1, 1)
    assert board.chips_in_play == 35_000 + 10_000 + 10_000 + 10_000  # the busted player's chips are still in play
    assert board.average_stack == 65_000 // 3
    assert (board.collected_cents, board.prize_pool_cents, board.overlay_cents) == (30_000, 30_000, 0)


def test_a_guarantee_above_what_was_collected_is_the_prize_pool(
    tournament: Tournament, director: User, field: list[Entry]
) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(guarantee_cents=100_000)
    payload = display_payload(tournament.pk, now=at(1))
    assert (payload["prize_pool_cents"], payload["guarantee_cents"]) == (100_000, 100_000)


def test_the_payload_gives_the_instant_the_level_ends_the_server_clock_and_the_levels_around(
    tournament: Tournament, director: User, field: list[Entry]
) -> None:
    started(tournament, director)
    payload = display_payload(tournament.pk, now=at(25))
    assert payload["server_now"] == "2025-10-18T18:25:00.000Z"
    assert payload["ends_at"] == "2025-10-18T18:40:00.000Z"
    assert payload["remaining_ms"] == 15 * 60_000
    assert (payload["clock_status"], payload["status"], payload["overtime"]) == ("running", "planned", False)
    level = payload["level"]
    assert level is not None
    assert (level["label"], level["small_blind"], level["big_blind"], level["ante"], level["ante_kind"]) == (
        "Level 2", 200, 400, 400, "big_blind"
    )  # fmt: skip
    assert (level["ante_label"], level["game"], level["game_name"], level["length_ms"]) == (
        "Big-blind ante", "nlhe", "No-Limit Hold'em", 20 * 60_000
    )  # fmt: skip
    assert level["rule_line"].startswith("two hole cards")
    assert payload["following"] is not None and payload["following"]["label"] == "Break"
    assert payload["next_level"] is not None
    assert (payload["next_level"]["label"], payload["next_level"]["big_blind"]) == ("Level 3", 600)
    assert payload["next_break_ms"] == 15 * 60_000
    assert payload["next_break"] is not None and payload["next_break"]["colour_up"] == 25
    assert (payload["colour_up"], payload["mixed"]) == (None, False)
    assert (payload["players_left"], payload["entries"], payload["average_stack"]) == (3, 4, 65_000 // 3)
    assert payload["version"] == Tournament.objects.get(pk=tournament.pk).version
    assert "Player Name" not in json.dumps(payload)  # figures only: no player's name on the room's screen


def test_in_the_break_the_payload_shows_the_break_its_colour_up_and_the_level_after(
    tournament: Tournament, director: User
) -> None:
    started(tournament, director)
    payload = display_payload(tournament.pk, now=at(45))
    assert payload["level"] is not None and payload["level"]["is_break"]
    assert (payload["level"]["label"], payload["level"]["number"], payload["colour_up"]) == ("Break", 2, 25)
    assert payload["remaining_ms"] == 10 * 60_000 and payload["ends_at"] == "2025-10-18T18:55:00.000Z"
    assert payload["next_level"] is not None and payload["next_level"]["label"] == "Level 3"
    assert (payload["next_break_ms"], payload["next_break"]) == (None, None)
    assert (payload["players_left"], payload["average_stack"]) == (0, None)


def test_a_hands_counted_level_shows_the_hands_left_and_no_time(tournament: Tournament, director: User) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(
        levels=[{"kind": "level", "hands": 7, "small_blind": 25, "big_blind": 50}, *LEVELS[1:]]
    )
    started(tournament, director)
    cs.clock_hand(actor=director, tournament=tournament, now=at(2))
    payload = display_payload(tournament.pk, now=at(3))
    assert (payload["hands_left"], payload["remaining_ms"], payload["ends_at"]) == (6, None, None)
    assert payload["level"] is not None and payload["level"]["hands"] == 7


def test_a_mixed_event_names_each_levels_game(tournament: Tournament, director: User) -> None:
    """Mainzer Poker Masters (GAME_RULES.md §5): No-Limit Hold'em and Omaha alternate with every blind level."""
    mixed = [{**level, "game": game} for level, game in zip(LEVELS[:2], ("nlhe", "nlo"), strict=True)]
    Tournament.objects.filter(pk=tournament.pk).update(games=["nlhe", "nlo"], levels=mixed)
    payload = display_payload(tournament.pk, now=at(1))
    assert payload["mixed"] is True
    assert payload["level"] is not None and payload["level"]["game_name"] == "No-Limit Hold'em"
    assert payload["next_level"] is not None and payload["next_level"]["game_name"] == "No-Limit Omaha"
    assert payload["next_level"]["rule_line"].startswith("four hole cards")


def test_under_next_level_the_display_shows_the_next_games_rule_and_the_games_own_rule_under_the_level(
    client: Client, tournament: Tournament, director: User
) -> None:
    mixed = [{**level, "game": game} for level, game in zip(LEVELS[:2], ("nlhe", "nlo"), strict=True)]
    Tournament.objects.filter(pk=tournament.pk).update(games=["nlhe", "nlo"], levels=mixed)
    started(tournament, director)
    payload = display_payload(tournament.pk, now=at(1))  # level 1, No-Limit Hold'em; level 2 plays No-Limit Omaha
    page = render_to_string("poker_room/display.html", {"payload": payload, "json_url": "/", "poll_ms": 1000})
    now = re.search(r'data-field="rule_now">([^<]*)<', page)
    following = re.search(r'data-field="rule_line">([^<]*)<', page)
    assert now is not None and following is not None
    assert now.group(1).startswith("two hole cards")  # Hold'em now, under the level
    assert following.group(1).startswith("four hole cards")  # Omaha next, under "Next level"


def test_a_paused_clock_has_no_end_instant_only_the_time_left(tournament: Tournament, director: User) -> None:
    started(tournament, director)
    cs.clock_pause(actor=director, tournament=tournament, now=at(5))
    payload = display_payload(tournament.pk, now=at(30))
    assert (payload["clock_status"], payload["ends_at"], payload["remaining_ms"]) == ("paused", None, 15 * 60_000)
    assert payload["clock_label"] == "Paused"


def test_running_tournaments_read_their_figures_once_a_version_then_from_the_cache(
    director: User, django_assert_num_queries: Callable[..., Any]
) -> None:
    for n in range(4):
        made = Tournament.objects.create(
            name=f"Event {n}", games=["nlhe"], starting_stack=10_000, buy_in_cents=5_000, levels=LEVELS,
            created_by=director, status=Tournament.Status.RUNNING if n < 3 else Tournament.Status.PLANNED,
        )  # fmt: skip
        entry(made, 1, director)
    with django_assert_num_queries(1 + 1 + 3):  # the tournaments, their entries grouped, each one's money
        boards = running_tournaments(now=at(1))
    assert [board.name for board in boards] == ["Event 0", "Event 1", "Event 2"]
    assert all(board.entries == 1 and board.prize_pool_cents == 5_000 for board in boards)
    with django_assert_num_queries(1):  # nothing changed: the figures of these versions are cached
        assert running_tournaments(now=at(2)) == [replace(board, now=at(2)) for board in boards]
    first = Tournament.objects.get(name="Event 0")
    entry(first, 2, director)
    live.tournament_changed(first)
    with django_assert_num_queries(1 + 1 + 1):  # Event 0 changed: its figures are read again
        again = running_tournaments(now=at(2))
    assert [board.entries for board in again] == [2, 1, 1]


# --- the addresses ------------------------------------------------------------------------------------------------


def json_address(tournament: Tournament) -> str:
    return reverse("poker-room-screen-json", args=[display_token(tournament.pk)])


def test_the_signed_address_shows_the_display_without_a_sign_in_and_runs_no_inline_script(
    client: Client, tournament: Tournament, director: User
) -> None:
    started(tournament, director)
    response = client.get(display_address(tournament.pk))
    assert response.status_code == 200
    page = response.content.decode()
    assert 'data-json="' + json_address(tournament) + '"' in page
    assert "Zocktoberfest" in page
    scripts = re.findall(r"<script([^>]*)>", page)
    assert scripts and all("src=" in attrs or 'type="application/json"' in attrs for attrs in scripts)
    assert "script-src 'self'" in response["Content-Security-Policy"]


def test_the_signed_json_answers_the_payload_with_the_servers_clock(
    client: Client, tournament: Tournament, director: User
) -> None:
    started(tournament, director)
    response = client.get(json_address(tournament))
    assert response.status_code == 200
    assert response.json()["name"] == "Zocktoberfest"
    assert int(response[SERVER_NOW_HEADER]) > 0
    assert response["ETag"] == f'"v{response.json()["version"]}"'
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.parametrize(
    "forge",
    [
        lambda token, pk: token[:-2] + ("AA" if not token.endswith("AA") else "BB"),  # the signature altered
        lambda token, pk: f"{pk + 1}." + token.split(".", 1)[1],  # another tournament's id, this one's signature
        lambda token, pk: str(pk),  # the bare id
        lambda token, pk: "not-a-token",
    ],
)
def test_a_forged_display_address_is_refused(
    client: Client, tournament: Tournament, forge: Callable[[str, int], str]
) -> None:
    token = forge(display_token(tournament.pk), tournament.pk)
    assert client.get(reverse("poker-room-screen", args=[token])).status_code == 404
    assert client.get(reverse("poker-room-screen-json", args=[token])).status_code == 404


def test_the_staff_address_needs_a_sign_in_and_a_role_that_sees_tournaments(
    client: Client, tournament: Tournament, director: User, dealer: User, auditor: User
) -> None:
    page = reverse("poker-room-display", args=[tournament.pk])
    data = reverse("poker-room-display-json", args=[tournament.pk])
    signed_out = client.get(page)
    assert signed_out.status_code == 302 and signed_out["Location"].startswith(reverse("login"))
    assert client.get(data).status_code == 403 and "Sign in" in client.get(data).json()["message"]
    client.force_login(dealer)
    assert client.get(page).status_code == 403
    assert client.get(data).status_code == 403
    for viewer in (director, auditor):
        client.force_login(viewer)
        assert client.get(page).status_code == 200
        assert client.get(data).json()["name"] == "Zocktoberfest"
    assert client.get(reverse("poker-room-display-json", args=[tournament.pk + 100])).status_code == 404


# --- the conditional poll -----------------------------------------------------------------------------------------


def test_the_conditional_poll_answers_204_without_a_query_while_the_cached_version_is_current(
    client: Client, tournament: Tournament, django_assert_num_queries: Callable[..., Any]
) -> None:
    version = live.tournament_version(tournament.pk)  # the cache learns it (one query)
    assert version == 1
    with django_assert_num_queries(0):
        unchanged = client.get(json_address(tournament), {"v": version})
        etag = client.get(json_address(tournament), headers={"If-None-Match": f'"v{version}"'})
    assert (unchanged.status_code, unchanged.content) == (204, b"")
    assert (etag.status_code, etag.content) == (304, b"")
    assert int(unchanged[SERVER_NOW_HEADER]) > 0 and int(etag[SERVER_NOW_HEADER]) > 0
    assert client.get(json_address(tournament), {"v": version - 1}).status_code == 200  # a screen behind: all of it


def test_a_pause_committed_reaches_a_polling_screen_on_its_next_poll(
    client: Client,
    tournament: Tournament,
    director: User,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        started(tournament, director)
    shown = client.get(json_address(tournament)).json()
    assert shown["clock_status"] == "running"
    assert client.get(json_address(tournament), {"v": shown["version"]}).status_code == 204
    with django_capture_on_commit_callbacks(execute=True):
        cs.clock_pause(actor=director, tournament=tournament)
    polled = client.get(json_address(tournament), {"v": shown["version"]})
    assert polled.status_code == 200
    assert polled.json()["clock_status"] == "paused" and polled.json()["version"] == shown["version"] + 1


def test_the_version_reaches_the_cache_on_commit_only_never_from_a_change_rolled_back(
    tournament: Tournament, director: User, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    key = live.version_key(tournament.pk)
    with django_capture_on_commit_callbacks(execute=False) as pending:
        started(tournament, director)
        assert Tournament.objects.get(pk=tournament.pk).version == 2
        assert cache.get(key) is None  # written in the transaction, not yet committed: the cache does not know
    for callback in pending:
        callback()  # the commit
    assert cache.get(key) == 2
    with (
        django_capture_on_commit_callbacks(execute=True) as rolled_back,
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        cs.clock_pause(actor=director, tournament=tournament, now=at(1))
        raise RuntimeError("the request failed after the pause")
    assert rolled_back == []
    assert Tournament.objects.get(pk=tournament.pk).version == 2
    assert cache.get(key) == 2
    assert live.tournament_version(tournament.pk) == 2


def test_an_older_versions_late_callback_never_overwrites_a_newer_one(tournament: Tournament) -> None:
    live._publish(tournament.pk, 7)
    live._publish(tournament.pk, 6)  # two commits' callbacks, out of order
    assert live.tournament_version(tournament.pk) == 7
