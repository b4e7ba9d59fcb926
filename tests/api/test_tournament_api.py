"""The REST API of the poker room's tournaments: every endpoint's answer, who may call it, and the issue's
bad input refused in the director's words with nothing written.

Tina directs the tournaments; Paula is a Pit boss (a supervisor: she may run them too); Alex audits (reads only);
Dana deals table 1 of the running tournament, Otto deals nothing there; a caller signed out gets 401. The structure is
the service tests' (``tests.poker_room.tournament_setup.LEVELS``: 20-minute levels, a break after level 3). Entries
are named by their number (#1 Anna, #2 Ben, ...), as the director says them.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casino.events import AuditEventType
from casino.models import AuditEvent
from casino.roles import Role
from players.services import player_create
from poker_room.pure.templates_data import templates
from poker_room.tournaments import services
from poker_room.tournaments.models import Elimination, Entry, Tournament, TournamentTable
from poker_room.tournaments.money import tournament_money
from tests.api.clients import api_client as _api
from tests.poker_room import tournament_setup
from tests.poker_room.tournament_setup import LEVELS, PLAYERS, everything

# The tournament service tests' fixtures: Tina the director, a tournament made through the services, a clean cache.
director = tournament_setup.director
make_tournament = tournament_setup.make_tournament
_empty_cache = tournament_setup._empty_cache

pytestmark = pytest.mark.django_db


def _refused(response: Any, status: int, message: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, response.content[:400]
    body = response.json()
    assert set(body) == {"message", "extra"} and body["message"], body
    if message is not None:
        assert body["message"] == message, body
    return dict(body)


@pytest.fixture
def otto(make_user: Callable[..., User]) -> User:
    return make_user("otto_dealer", Role.DEALER)


@pytest.fixture
def started(make_tournament: Callable[..., Tournament], director: User) -> Callable[..., Tournament]:
    """A tournament with ``players`` registered and started now (the clock at the start of level 1)."""

    def start(players: int = 6, **fields: Any) -> Tournament:
        tournament = make_tournament(**fields)
        for name in PLAYERS[:players]:
            services.entry_register(actor=director, tournament=tournament, name=name)
        return services.tournament_start(actor=director, tournament=tournament, rng=random.Random(18))

    return start


@pytest.fixture
def dealt(started: Callable[..., Tournament], director: User, dealer: User) -> Tournament:
    """Twelve players over two tables; Dana deals table 1."""
    tournament = started(players=12)
    services.tournament_table_dealer_set(actor=director, tournament=tournament, table_number=1, dealer=dealer)
    return tournament


def _at_table(tournament: Tournament, number: int) -> list[int]:
    return list(
        Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE, table_number=number)
        .order_by("number")
        .values_list("number", flat=True)
    )


def _url(tournament: Tournament, rest: str = "") -> str:
    return f"/api/tournaments/{tournament.pk}/{rest}"


# --- tournaments: create, list, read, settings ---------------------------------------------------------------------


def test_the_director_creates_a_tournament_from_a_template_and_reads_it_back(director) -> None:  # type: ignore[no-untyped-def]
    api = _api(director)
    body = {"template": "msop_main_event", "buy_in_cents": 9000, "fee_cents": 1000, "tables": 3}
    answer = api.post("/api/tournaments/", body, format="json")
    assert answer.status_code == 201, answer.content
    made = answer.json()
    assert (made["name"], made["template"], made["games"], made["status"]) == (
        "MSOP Main Event",
        "msop_main_event",
        ["nlhe"],
        "planned",
    )
    assert (made["starting_stack"], made["buy_in_cents"], made["fee_cents"], made["bounty_kind"]) == (
        20_000,
        9000,
        1000,
        "none",
    )
    assert [t["number"] for t in made["tables"]] == [1, 2, 3]
    assert [t["break_position"] for t in made["tables"]] == [0, 2, 1]  # table 1 is the final; 3 breaks first
    assert made["levels"][0]["kind"] == "level" and made["levels"][0]["minutes"] == 20
    assert made["payouts"] is None and made["payouts_in_force"][0] == {
        "min_players": 1,
        "max_players": 10,
        "shares_bp": [5000, 3000, 2000],
    }
    assert made["board"]["clock"]["status"] == "not_started"
    assert made["created_by"] == "tina_director"

    listed = api.get("/api/tournaments/").json()["results"]
    assert [t["id"] for t in listed] == [made["id"]]
    assert api.get("/api/tournaments/", {"status": "running"}).json()["results"] == []
    _refused(api.get("/api/tournaments/", {"status": "paused"}), 400)
    assert api.get(f"/api/tournaments/{made['id']}/").json()["levels"] == made["levels"]
    assert api.get("/api/tournaments/999999/").status_code == 404


def test_a_knock_out_needs_its_bounty_and_gets_a_fixed_one(director) -> None:  # type: ignore[no-untyped-def]
    api = _api(director)
    body = {"template": "zocktoberfest", "buy_in_cents": 5000, "fee_cents": 1000}
    _refused(api.post("/api/tournaments/", body, format="json"), 400, "Zocktoberfest is a knock-out: set the bounty.")
    assert not Tournament.objects.exists()
    made = api.post("/api/tournaments/", {**body, "bounty_cents": 2000}, format="json").json()
    assert (made["bounty_kind"], made["bounty_cents"]) == ("fixed", 2000)


def test_every_template_is_listed_with_its_structure(director, auditor) -> None:  # type: ignore[no-untyped-def]
    for user in (director, auditor):
        answer = _api(user).get("/api/tournament-templates/")
        assert answer.status_code == 200
        listed = answer.json()["results"]
        assert [t["key"] for t in listed] == [t.key for t in templates()]
    by_key = {t["key"]: t for t in listed}
    assert (by_key["mainzer_poker_masters"]["games"], by_key["mainzer_poker_masters"]["starting_stack"]) == (
        ["nlhe", "nlo"],
        15_000,
    )
    heads_up = by_key["msop_heads_up"]
    assert (heads_up["level_hands"], heads_up["table_size"]) == (7, 2)
    assert all(level["hands"] == 7 for level in heads_up["structure"])
    assert all(t["structure"] and t["structure"][0]["kind"] == "level" for t in listed)


def test_settings_change_those_sent_and_the_money_is_fixed_from_the_start(make_tournament, started, director) -> None:  # type: ignore[no-untyped-def]
    api = _api(director)
    planned = make_tournament()
    answer = api.patch(_url(planned), {"late_registration_level": 6, "reentries_max": 1}, format="json")
    assert answer.status_code == 200, answer.content
    assert (answer.json()["late_registration_level"], answer.json()["reentries_max"]) == (6, 1)
    assert answer.json()["rebuys_max"] == 0  # not sent, not changed

    running = started(players=4)
    before = everything(running)
    refusal = _refused(api.patch(_url(running), {"buy_in_cents": 1}, format="json"), 409)
    assert refusal["message"] == "Buy-in to the prize pool (cents) cannot change once MSOP Main Event has started."
    assert refusal["extra"] == {"field": "buy_in_cents"}
    _refused(api.patch(_url(running), {"rebuys_maxx": 2}, format="json"), 400)
    _refused(api.patch(_url(running), {}, format="json"), 400, "Send the settings to change.")
    assert everything(running) == before


def test_the_tables_are_set_before_the_start(make_tournament, director) -> None:  # type: ignore[no-untyped-def]
    tournament = make_tournament()
    answer = _api(director).put(_url(tournament, "tables/"), {"count": 4}, format="json")
    assert answer.status_code == 200, answer.content
    assert [t["number"] for t in answer.json()["tables"]] == [1, 2, 3, 4]
    _refused(_api(director).put(_url(tournament, "tables/"), {"count": 0}, format="json"), 400)


# --- structure and payouts ---------------------------------------------------------------------------------------


def test_the_director_replaces_the_structure(make_tournament, director) -> None:  # type: ignore[no-untyped-def]
    tournament = make_tournament()
    levels = [
        {"kind": "level", "minutes": 15, "small_blind": 25, "big_blind": 50},
        {"kind": "break", "minutes": 10, "colour_up": 25},
        {"kind": "level", "hands": 7, "small_blind": 100, "big_blind": 200, "ante": 200, "ante_kind": "big_blind"},
    ]
    answer = _api(director).put(
        _url(tournament, "structure/"), {"levels": levels, "chips": [25, 100, 500]}, format="json"
    )
    assert answer.status_code == 200, answer.content
    stored = answer.json()["levels"]
    assert [(row["kind"], row["minutes"], row["hands"]) for row in stored] == [
        ("level", 15, None),
        ("break", 10, None),
        ("level", None, 7),
    ]
    assert stored[1]["colour_up"] == 25 and answer.json()["chips"] == [25, 100, 500]


def test_a_structure_with_a_level_below_the_last_is_refused_and_nothing_written(make_tournament, director) -> None:  # type: ignore[no-untyped-def]
    tournament = make_tournament()
    before = everything(tournament)
    levels = [
        {"kind": "level", "minutes": 20, "small_blind": 100, "big_blind": 200},
        {"kind": "level", "minutes": 20, "small_blind": 50, "big_blind": 100},
    ]
    refusal = _refused(
        _api(director).put(_url(tournament, "structure/"), {"levels": levels}, format="json"),
        400,
        "Level 2 is below level 1: its small blind of 50 is lower than level 1's 100",
    )
    assert refusal["extra"] == {"field": "levels"}
    assert everything(tournament) == before


def test_a_payout_table_not_adding_up_to_100_percent_is_refused_and_nothing_written(make_tournament, director) -> None:  # type: ignore[no-untyped-def]
    tournament = make_tournament()
    before = everything(tournament)
    bands = [{"min_players": 1, "max_players": None, "shares_bp": [5000, 3000, 1000]}]
    _refused(
        _api(director).put(_url(tournament, "payouts/"), {"bands": bands}, format="json"),
        400,
        "The payouts for 1 or more players add up to 90.00 %, not 100 %.",
    )
    assert everything(tournament) == before

    bands[0]["shares_bp"] = [5000, 3000, 2000]
    answer = _api(director).put(_url(tournament, "payouts/"), {"bands": bands}, format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["payouts"] == answer.json()["payouts_in_force"] == bands
    house = _api(director).put(_url(tournament, "payouts/"), {"bands": None}, format="json").json()
    assert house["payouts"] is None and len(house["payouts_in_force"]) > 1


# --- the start and the clock -----------------------------------------------------------------------------------------


def test_the_director_registers_starts_and_runs_the_clock(make_tournament, director, pit_boss) -> None:  # type: ignore[no-untyped-def]
    api = _api(director)
    tournament = make_tournament()
    lee = player_create(actor=pit_boss, name="Mr Lee", card_number="1001", tier="Gold")
    first = api.post(_url(tournament, "entries/"), {"name": "Anna"}, format="json")
    assert first.status_code == 201, first.content
    assert (first.json()["number"], first.json()["name"], first.json()["table"]) == (1, "Anna", None)
    by_player = api.post(_url(tournament, "entries/"), {"player_id": lee.pk}, format="json").json()
    assert (by_player["number"], by_player["name"], by_player["player"]) == (2, "Mr Lee", lee.pk)
    _refused(
        api.post(_url(tournament, "entries/"), {"player_id": lee.pk}, format="json"), 409, "#2 Mr Lee is already in."
    )
    _refused(
        api.post(_url(tournament, "entries/"), {}, format="json"), 400, "Say the player's name, or choose the player."
    )
    api.post(_url(tournament, "entries/"), {"name": "Ben"}, format="json")

    started = api.post(_url(tournament, "start/"))
    assert started.status_code == 200, started.content
    board = started.json()["board"]
    assert (started.json()["status"], board["clock"]["status"], board["level"]["number"]) == ("running", "running", 1)
    assert (board["players_left"], board["entries"], board["chips_in_play"]) == (3, 3, 60_000)
    _refused(api.post(_url(tournament, "start/")), 409, "MSOP Main Event is already running.")
    seated = api.get(_url(tournament, "entries/")).json()["results"]
    assert all(entry["table"] is not None and entry["seat"] is not None for entry in seated)

    paused = api.post(_url(tournament, "clock/pause/")).json()["board"]["clock"]
    assert paused["status"] == "paused" and paused["ends_at"] is None
    _refused(api.post(_url(tournament, "clock/pause/")), 409, "The clock is already paused.")
    assert api.post(_url(tournament, "clock/resume/")).json()["board"]["clock"]["status"] == "running"
    _refused(api.post(_url(tournament, "clock/start/")), 409, "The clock is already running.")
    skipped = api.post(_url(tournament, "clock/skip/"), {"by": 3}, format="json").json()["board"]
    assert (skipped["clock"]["level"], skipped["level"]["is_break"]) == (3, True)  # the break after level 3
    back = api.post(_url(tournament, "clock/skip/"), {"by": -1}, format="json").json()["board"]
    assert back["level"]["number"] == 3
    _refused(api.post(_url(tournament, "clock/skip/"), {"by": 0}, format="json"), 400)
    left = back["clock"]["remaining_ms"]
    adjusted = api.post(_url(tournament, "clock/adjust/"), {"seconds": 60}, format="json").json()["board"]["clock"]
    assert left + 50_000 < adjusted["remaining_ms"] <= left + 60_000
    _refused(api.post(_url(tournament, "clock/hand/")), 409, "This level runs on time: its hands are not counted.")
    actions = [e.after["action"] for e in AuditEvent.objects.filter(event_type=AuditEventType.TOURNAMENT_CLOCK)]
    assert actions == ["start", "pause", "resume", "skip", "skip", "adjust"]


# --- entries: the bad input ---------------------------------------------------------------------------------


def test_an_entry_after_registration_closed_is_refused_and_nothing_written(started, director) -> None:  # type: ignore[no-untyped-def]
    tournament = started(players=4)  # late registration 0: it closes at the start
    before = everything(tournament)
    _refused(
        _api(director).post(_url(tournament, "entries/"), {"name": "Latecomer"}, format="json"),
        409,
        "Registration closed at the start.",
    )
    assert everything(tournament) == before


def test_a_rebuy_beyond_its_limit_is_refused_and_nothing_written(started, director) -> None:  # type: ignore[no-untyped-def]
    tournament = started(
        players=4, rebuys_max=1, rebuy_until_level=3, rebuy_cents=9000, rebuy_fee_cents=500, rebuy_chips=20_000
    )
    api = _api(director)
    first = api.post(_url(tournament, "entries/1/rebuy/"))
    assert first.status_code == 200, first.content
    assert (first.json()["rebuys"], first.json()["chips"]) == (1, 40_000)
    before = everything(tournament)
    _refused(api.post(_url(tournament, "entries/1/rebuy/")), 409, "#1 Anna has had the 1 rebuy allowed; no more.")
    assert everything(tournament) == before
    assert api.post(_url(tournament, "entries/99/rebuy/")).status_code == 404


def test_the_add_on_is_taken_once_at_the_break_after_the_rebuy_period(started, director) -> None:  # type: ignore[no-untyped-def]
    tournament = started(
        players=4, rebuys_max=1, rebuy_until_level=3, rebuy_chips=20_000, addon_cents=9000, addon_chips=30_000
    )
    api = _api(director)
    _refused(api.post(_url(tournament, "entries/2/addon/")), 409, "The add-on is taken at the break after level 3.")
    api.post(_url(tournament, "clock/skip/"), {"by": 3}, format="json")
    taken = api.post(_url(tournament, "entries/2/addon/"))
    assert taken.status_code == 200, taken.content
    assert (taken.json()["addon"], taken.json()["chips"]) == (True, 50_000)
    _refused(api.post(_url(tournament, "entries/2/addon/")), 409, "#2 Ben has taken the add-on already.")


def test_eliminating_a_player_twice_is_refused_and_a_double_post_busts_once(started, director) -> None:  # type: ignore[no-untyped-def]
    tournament = started(players=12)
    api = _api(director)
    out = api.post(_url(tournament, "entries/2/eliminate/"), {"eliminated_by": 1}, format="json")
    assert out.status_code == 201, out.content
    assert (out.json()["entry"], out.json()["name"], out.json()["eliminated_by"], out.json()["place"]) == (
        2,
        "Ben",
        1,
        12,
    )
    before = everything(tournament)
    again = api.post(_url(tournament, "entries/2/eliminate/"), {"eliminated_by": 1}, format="json")
    _refused(again, 409, "#2 Ben is already out (12th).")
    assert everything(tournament) == before
    assert Elimination.objects.filter(tournament=tournament, entry__number=2).count() == 1
    assert AuditEvent.objects.filter(event_type=AuditEventType.TOURNAMENT_ELIMINATION).count() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("real_services")
def test_two_eliminate_posts_at_once_bust_the_player_once(started, director) -> None:  # type: ignore[no-untyped-def]
    """Two taps at the same instant: the first holds the tournament's row, the second waits, finds the player out and
    is refused (PostgreSQL: SQLite has no row lock to wait on)."""
    tournament = started(players=6)
    both = threading.Barrier(2)
    statuses: list[int] = []

    def tap() -> None:
        try:
            both.wait(10)
            statuses.append(
                _api(director).post(_url(tournament, "entries/2/eliminate/"), {}, format="json").status_code
            )
        finally:
            connection.close()

    taps = [threading.Thread(target=tap) for _ in range(2)]
    for thread in taps:
        thread.start()
    for thread in taps:
        thread.join(20)
    assert sorted(statuses) == [201, 409]
    assert Elimination.objects.filter(tournament=tournament, entry__number=2).count() == 1
    assert AuditEvent.objects.filter(event_type=AuditEventType.TOURNAMENT_ELIMINATION).count() == 1


def test_a_knock_out_by_an_entry_not_in_the_tournament_names_the_field(started, director) -> None:  # type: ignore[no-untyped-def]
    tournament = started(players=4)
    before = everything(tournament)
    refusal = _refused(
        _api(director).post(_url(tournament, "entries/2/eliminate/"), {"eliminated_by": 77}, format="json"),
        400,
        "MSOP Main Event has no entry #77.",
    )
    assert refusal["extra"] == {"field": "eliminated_by"}
    assert everything(tournament) == before


def test_a_bust_undone_puts_the_player_back_and_the_undo_happens_once(started, director) -> None:  # type: ignore[no-untyped-def]
    tournament = started(players=6)
    api = _api(director)
    bust = api.post(_url(tournament, "entries/3/eliminate/"), {}, format="json").json()
    _refused(api.post(_url(tournament, f"eliminations/{bust['id']}/undo/"), {"reason": "  "}, format="json"), 400)
    undone = api.post(_url(tournament, f"eliminations/{bust['id']}/undo/"), {"reason": "Wrong seat"}, format="json")
    assert undone.status_code == 200, undone.content
    assert (undone.json()["status"], undone.json()["undo_reason"]) == ("undone", "Wrong seat")
    assert Entry.objects.get(tournament=tournament, number=3).status == "active"
    _refused(
        api.post(_url(tournament, f"eliminations/{bust['id']}/undo/"), {"reason": "Again"}, format="json"),
        409,
        "The bust of #3 Cem was undone already.",
    )
    assert api.post(_url(tournament, "eliminations/999999/undo/"), {"reason": "x"}, format="json").status_code == 404


def test_a_player_who_busted_re_enters_as_a_new_entry(started, director) -> None:  # type: ignore[no-untyped-def]
    tournament = started(players=4, late_registration_level=2, reentries_max=1)
    api = _api(director)
    api.post(_url(tournament, "entries/4/eliminate/"), {}, format="json")
    again = api.post(_url(tournament, "entries/4/reenter/"))
    assert again.status_code == 201, again.content
    assert (again.json()["number"], again.json()["name"], again.json()["reentry_of"]) == (5, "Dora", 4)
    _refused(api.post(_url(tournament, "entries/1/reenter/")), 409)


# --- seats, the button, the table's dealer ------------------------------------------------------------------------


def test_the_seating_shows_every_table_and_the_moves(dealt, director) -> None:  # type: ignore[no-untyped-def]
    seating = _api(director).get(_url(dealt, "seats/"))
    assert seating.status_code == 200
    tables = seating.json()["tables"]
    assert [(t["number"], t["players"], t["dealer"]) for t in tables] == [(1, 6, "dana_dealer"), (2, 6, None)]
    seat_one = [s["entry"] for s in tables[0]["seats"] if s["entry"] is not None]
    assert sorted(seat_one) == _at_table(dealt, 1)
    assert len(tables[0]["seats"]) == 9
    assert {move["reason"] for move in seating.json()["moves"]} == {"draw"}
    assert len(seating.json()["moves"]) == 12


def test_the_director_puts_a_dealer_on_a_table_and_the_button_on_a_seat(started, director, otto) -> None:  # type: ignore[no-untyped-def]
    tournament = started(players=6)
    api = _api(director)
    answer = api.post(_url(tournament, "tables/2/dealer/"), {"dealer": "otto_dealer"}, format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["dealer"] == "otto_dealer"
    _refused(api.post(_url(tournament, "tables/2/dealer/"), {"dealer": "tina_director"}, format="json"), 400)
    assert api.post(_url(tournament, "tables/2/dealer/"), {"dealer": None}, format="json").json()["dealer"] is None
    button = api.post(_url(tournament, "tables/1/button/"), {"seat": 4}, format="json")
    assert button.status_code == 200 and button.json()["button"] == 4
    assert TournamentTable.objects.get(tournament=tournament, number=1).button == 4
    _refused(api.post(_url(tournament, "tables/1/button/"), {"seat": 11}, format="json"), 400)
    assert api.post(_url(tournament, "tables/9/button/"), {"seat": 1}, format="json").status_code == 404


def test_the_dealer_acts_and_reads_only_at_their_table(dealt, dealer) -> None:  # type: ignore[no-untyped-def]
    api = _api(dealer)
    mine, theirs = _at_table(dealt, 1), _at_table(dealt, 2)
    out = api.post(_url(dealt, f"entries/{mine[0]}/eliminate/"), {}, format="json")
    assert out.status_code == 201, out.content
    before = everything(dealt)
    _refused(
        api.post(_url(dealt, f"entries/{theirs[0]}/eliminate/"), {}, format="json"),
        403,
        "Table 2 is not your table: only its dealer or the tournament director may record a bust.",
    )
    _refused(api.post(_url(dealt, "tables/2/button/"), {"seat": 1}, format="json"), 403)
    assert everything(dealt) == before
    assert api.post(_url(dealt, "tables/1/button/"), {"seat": 2}, format="json").status_code == 200

    seats = api.get(_url(dealt, "seats/")).json()
    assert [t["number"] for t in seats["tables"]] == [1]
    assert all(1 in (move["from_table"], move["to_table"]) for move in seats["moves"])
    entries = api.get(_url(dealt, "entries/")).json()["results"]
    assert entries and all(entry["status"] == "active" for entry in entries)
    assert api.get(_url(dealt)).status_code == 200
    assert api.get(_url(dealt, "display/")).status_code == 200
    assert [t["id"] for t in api.get("/api/tournaments/").json()["results"]] == [dealt.pk]
    for refused in (
        api.get(_url(dealt, "results/")),
        api.get("/api/tournament-templates/"),
        api.post(_url(dealt, "entries/"), {"name": "Zoe"}, format="json"),
        api.post(_url(dealt, "clock/pause/")),
        api.post(_url(dealt, f"eliminations/{out.json()['id']}/undo/"), {"reason": "x"}, format="json"),
    ):
        _refused(refused, 403)


def test_a_dealer_of_no_table_of_the_tournament_reads_nothing_of_it(dealt, otto) -> None:  # type: ignore[no-untyped-def]
    api = _api(otto)
    assert api.get("/api/tournaments/").json()["results"] == []
    for path in ("", "entries/", "seats/", "display/", "results/"):
        _refused(api.get(_url(dealt, path)), 403)


# --- results and the room display -------------------------------------------------------------------------------


def test_the_results_give_places_prizes_bounties_and_the_money(started, director) -> None:  # type: ignore[no-untyped-def]
    tournament = started(players=3, guarantee_cents=50_000)
    api = _api(director)
    api.post(_url(tournament, "entries/3/eliminate/"), {"eliminated_by": 1}, format="json")
    api.post(_url(tournament, "entries/2/eliminate/"), {"eliminated_by": 1}, format="json")
    sheet = api.get(_url(tournament, "results/"))
    assert sheet.status_code == 200, sheet.content
    body = sheet.json()
    assert body["status"] == "finished"
    assert [(p["place"], p["entry"], p["name"]) for p in body["places"]] == [
        (1, 1, "Anna"),
        (2, 2, "Ben"),
        (3, 3, "Cem"),
    ]
    assert [p["prize_cents"] for p in body["places"]] == [25_000, 15_000, 10_000]  # 50/30/20 of the guarantee
    assert body["places"][0]["knockouts"] == 2
    assert [p["prize_cents"] for p in body["prizes"]] == [25_000, 15_000, 10_000]
    money = body["money"]
    assert (money["collected_cents"], money["fees_cents"], money["overlay_cents"]) == (27_000, 3_000, 23_000)
    assert (money["pool_cents"], money["pool_left_cents"]) == (50_000, 0)
    assert (money["revenue_cents"], money["house_cost_cents"]) == (0, 20_000)  # an overlay is a cost, not revenue
    assert money == {key: getattr(tournament_money(tournament), key) for key in money}


def test_a_tournament_without_overlay_books_its_fees_as_revenue(started, director) -> None:  # type: ignore[no-untyped-def]
    tournament = started(players=3)
    api = _api(director)
    for number in (3, 2):
        api.post(_url(tournament, f"entries/{number}/eliminate/"), {}, format="json")
    money = api.get(_url(tournament, "results/")).json()["money"]
    assert (money["revenue_cents"], money["fees_cents"], money["prizes_paid_cents"]) == (3_000, 3_000, 27_000)


def test_the_room_display_shows_the_level_and_the_figures_and_no_name(started, director) -> None:  # type: ignore[no-untyped-def]
    tournament = started(players=6)
    display = _api(director).get(_url(tournament, "display/"))
    assert display.status_code == 200
    body = display.json()
    assert (body["level"]["label"], body["level"]["small_blind"], body["level"]["big_blind"]) == ("Level 1", 25, 50)
    assert (body["players_left"], body["entries"], body["average_stack"]) == (6, 6, 20_000)
    assert body["clock_status"] == "running" and body["ends_at"].endswith("Z")
    assert not any(name in display.content.decode() for name in PLAYERS[:6])


# --- who may call what ---------------------------------------------------------------------------------------------


def _reads(tournament: Tournament) -> list[str]:
    return [
        "/api/tournaments/",
        "/api/tournament-templates/",
        _url(tournament),
        _url(tournament, "entries/"),
        _url(tournament, "seats/"),
        _url(tournament, "results/"),
        _url(tournament, "display/"),
    ]


def _writes(tournament: Tournament, elimination: int) -> list[tuple[str, str, dict[str, Any] | None]]:
    levels = {"levels": LEVELS}
    return [
        ("post", "/api/tournaments/", {"template": "msop_turbo", "buy_in_cents": 1000}),
        ("patch", _url(tournament), {"reentries_max": 2}),
        ("put", _url(tournament, "structure/"), levels),
        ("put", _url(tournament, "payouts/"), {"bands": None}),
        ("put", _url(tournament, "tables/"), {"count": 2}),
        ("post", _url(tournament, "start/"), None),
        *(("post", _url(tournament, f"clock/{action}/"), None) for action in ("start", "pause", "resume", "hand")),
        ("post", _url(tournament, "clock/skip/"), {"by": 1}),
        ("post", _url(tournament, "clock/adjust/"), {"seconds": 30}),
        ("post", _url(tournament, "entries/"), {"name": "Zoe"}),
        *(("post", _url(tournament, f"entries/1/{act}/"), None) for act in ("reenter", "rebuy", "addon")),
        ("post", _url(tournament, "entries/1/eliminate/"), {}),
        ("post", _url(tournament, f"eliminations/{elimination}/undo/"), {"reason": "x"}),
        ("post", _url(tournament, "tables/1/button/"), {"seat": 1}),
        ("post", _url(tournament, "tables/1/dealer/"), {"dealer": None}),
    ]


def test_the_auditor_reads_everything_and_writes_nothing(dealt, director, auditor) -> None:  # type: ignore[no-untyped-def]
    bust = _api(director).post(_url(dealt, "entries/2/eliminate/"), {}, format="json").json()
    api = _api(auditor)
    for path in _reads(dealt):
        assert api.get(path).status_code == 200, path
    before = everything(dealt)
    for method, path, body in _writes(dealt, bust["id"]):
        _refused(getattr(api, method)(path, body, format="json"), 403)
    assert everything(dealt) == before
    assert Tournament.objects.count() == 1


def test_a_caller_signed_out_is_asked_to_sign_in(dealt) -> None:  # type: ignore[no-untyped-def]
    api = _api(None)
    for path in _reads(dealt):
        _refused(api.get(path), 401)
    before = everything(dealt)
    for method, path, body in _writes(dealt, 1):
        _refused(getattr(api, method)(path, body, format="json"), 401)
    assert everything(dealt) == before


def test_a_supervisor_runs_a_tournament_too(started, pit_boss) -> None:  # type: ignore[no-untyped-def]
    tournament = started(players=4)
    api = _api(pit_boss)
    assert api.post(_url(tournament, "clock/pause/")).status_code == 200
    assert api.post(_url(tournament, "entries/4/eliminate/"), {}, format="json").status_code == 201


def test_a_user_with_no_role_is_refused_every_read(dealt, make_user) -> None:  # type: ignore[no-untyped-def]
    api = _api(make_user("nora_nobody"))
    for path in _reads(dealt):
        _refused(api.get(path), 403)


# --- malformed input: a refusal in words, never a 500 ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "rest", "body", "field"),
    [
        ("patch", "", {"rebuys_max": "2a"}, "rebuys_max"),
        ("patch", "", {"rebuys_max": "３"}, "rebuys_max"),
        ("patch", "", {"guarantee_cents": 10**30}, "guarantee_cents"),
        ("patch", "", {"rebuy_chips": 2**31}, "rebuy_chips"),
        ("patch", "", {"name": None}, "name"),
        ("patch", "", {"bounty_kind": "huge"}, "bounty_kind"),
        ("put", "structure/", {"levels": {"kind": "level"}}, "levels"),
        ("put", "structure/", {"levels": [["level", 20]]}, "levels"),
        ("put", "structure/", {"levels": [{"kind": "level", "minutes": "twenty"}]}, "levels"),
        ("put", "structure/", {"levels": [{"kind": "level", "minutes": 20, "big_blinds": 100}]}, "levels"),
        ("put", "structure/", {"levels": [{"kind": "level", "minutes": 20, "big_blind": 1.5}]}, "levels"),
        ("put", "structure/", {"levels": None}, "levels"),
        ("put", "payouts/", {"bands": [{"min_players": 1, "max_players": None, "shares_bp": "10000"}]}, "bands"),
        ("put", "payouts/", {"bands": {"min_players": 1}}, "bands"),
        ("put", "payouts/", {}, "bands"),
        ("post", "clock/skip/", {"by": "one"}, "by"),
        ("post", "clock/skip/", {"by": 10**40}, "by"),
        ("post", "clock/adjust/", {"seconds": None}, "seconds"),
        ("post", "clock/adjust/", {"seconds": True}, "seconds"),
        ("post", "entries/", {"name": ["Anna"]}, "name"),
        ("post", "entries/", {"player_id": "x"}, "player_id"),
        ("post", "entries/", {"name": "Anna", "chips": 10**6}, "chips"),
        ("post", "entries/2/eliminate/", {"eliminated_by": "#1"}, "eliminated_by"),
        ("post", "entries/2/eliminate/", {"eliminated_by": {"number": 1}}, "eliminated_by"),
        ("post", "tables/1/button/", {"seat": [1]}, "seat"),
        ("post", "tables/1/dealer/", {"dealer": 5}, "dealer"),
    ],
)
def test_malformed_input_is_refused_naming_the_field_and_nothing_written(
    started, director, method, rest, body, field
) -> None:  # type: ignore[no-untyped-def]
    tournament = started(players=4)
    before = everything(tournament)
    refusal = _refused(getattr(_api(director), method)(_url(tournament, rest), body, format="json"), 400)
    assert field in refusal["extra"].get("fields", {}) or refusal["extra"].get("field") == field, refusal
    assert everything(tournament) == before


@pytest.mark.parametrize("body", ["[1, 2]", '"text"', "12", "null", "{", "[" * 100 + "]" * 100])
def test_a_body_that_is_not_an_object_is_refused(started, director, body) -> None:  # type: ignore[no-untyped-def]
    tournament = started(players=4)
    for rest in ("structure/", "payouts/", "clock/skip/", "entries/", "entries/2/eliminate/"):
        method = "put" if rest in ("structure/", "payouts/") else "post"
        answer = getattr(_api(director), method)(_url(tournament, rest), body, content_type="application/json")
        _refused(answer, 400)


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)

# Every write with a body, and the fields it takes (a body is either any JSON, or these fields with any values).
BODIES: list[tuple[str, str, tuple[str, ...]]] = [
    ("post", "", ("template", "name", "buy_in_cents", "fee_cents", "bounty_cents", "tables", "starts_at")),
    ("patch", "T", ("name", "late_registration_level", "rebuys_max", "rebuy_chips", "bounty_kind", "table_size")),
    ("put", "Tstructure/", ("levels", "chips")),
    ("put", "Tpayouts/", ("bands",)),
    ("put", "Ttables/", ("count",)),
    ("post", "Tclock/skip/", ("by",)),
    ("post", "Tclock/adjust/", ("seconds",)),
    ("post", "Tentries/", ("name", "player_id")),
    ("post", "Tentries/3/eliminate/", ("eliminated_by",)),
    ("post", "Teliminations/1/undo/", ("reason",)),
    ("post", "Ttables/1/button/", ("seat",)),
    ("post", "Ttables/1/dealer/", ("dealer",)),
]
# Values a caller might mean, so that bodies also get past the fields' checks to the services.
PLAUSIBLE: dict[str, st.SearchStrategy[Any]] = {
    "template": st.sampled_from([t.key for t in templates()]),
    "name": st.sampled_from(["Zoe", "", " ", "x" * 121]),
    "bounty_kind": st.sampled_from(["none", "fixed", "progressive"]),
    "buy_in_cents": st.integers(0, 10**13),
    "rebuy_chips": st.integers(0, 2**32),
    "reason": st.sampled_from(["Wrong seat", ""]),
    "dealer": st.sampled_from(["dana_dealer", "tina_director", "nobody"]),
    "bands": st.lists(
        st.fixed_dictionaries(
            {
                "min_players": st.integers(0, 12),
                "max_players": st.none() | st.integers(0, 30),
                "shares_bp": st.lists(st.integers(0, 10_000), max_size=4),
            }
        ),
        max_size=3,
    ),
    "chips": st.lists(st.integers(0, 1000), max_size=4),
}
LEVEL = st.fixed_dictionaries(
    {"kind": st.sampled_from(["level", "break", "pause"])},
    optional={key: JSON | st.integers(0, 500) for key in ("minutes", "hands", "small_blind", "big_blind", "ante")},
)


def test_no_malformed_body_gets_a_server_error(started, director) -> None:  # type: ignore[no-untyped-def]
    tournament = started(players=6, tables=2)
    api = _api(director)

    def body(fields: tuple[str, ...]) -> st.SearchStrategy[Any]:
        values = {field: JSON | PLAUSIBLE.get(field, st.integers(-2, 40)) for field in fields}
        if "levels" in fields:
            values["levels"] = st.lists(LEVEL | JSON, max_size=4) | JSON
        return JSON | st.fixed_dictionaries({}, optional={**values, "unknown": JSON})

    cases = st.sampled_from(BODIES).flatmap(lambda row: st.tuples(st.just(row), body(row[2])))

    @given(case=cases)
    @settings(
        max_examples=200,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    def call(case: Any) -> None:
        (method, rest, _fields), sent = case
        path = "/api/tournaments/" if rest == "" else _url(tournament, rest[1:])
        answer = getattr(api, method)(path, sent, format="json")
        assert answer.status_code < 500, (method, path, sent, answer.content[:300])
        if answer.status_code >= 400:
            assert set(answer.json()) == {"message", "extra"}

    call()
