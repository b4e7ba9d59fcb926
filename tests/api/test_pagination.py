"""Every list the API answers is paged: a walk of each with one row a page, following ``next`` to its end, finds the
rows of the whole list in its order, each once, and ``previous`` leads back; a page size or a cursor the server
cannot read is a 400 that names it. The lists are found in the committed schema, so a list added later is walked
too; the demo floor (``seed_demo``) gives them rows."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
import yaml
from django.contrib.auth.models import Group, User
from django.core.management import call_command
from django.db import connection
from rest_framework.test import APIClient

from casino.api_pages import MOST_PER_PAGE
from casino.models import Shift
from casino.roles import Role
from players.services import player_create, session_start
from poker_room.leagues.services import league_create
from poker_room.tournaments.models import Entry
from poker_room.tournaments.services import tournament_create
from settlement.models import ShiftReport
from tables.drop import buy_in_record
from tables.models import Table
from tables.slips import slip_request
from tables.tray import tray_count_confirm, tray_count_record

SCHEMA = Path(__file__).resolve().parents[2] / "docs" / "api" / "openapi.yaml"


def _list_operations() -> list[str]:
    """The paths whose GET answers a page (a ``Paginated…List``), from the committed schema."""
    paths = yaml.safe_load(SCHEMA.read_text())["paths"]
    found = []
    for path, operations in paths.items():
        answer = operations.get("get", {}).get("responses", {}).get("200", {})
        ref = answer.get("content", {}).get("application/json", {}).get("schema", {}).get("$ref", "")
        if ref.startswith("#/components/schemas/Paginated"):
            found.append(path)
    return found


LISTS = _list_operations()


@pytest.fixture
def demo_floor(db: None, settings: Any, tmp_path: Path) -> User:
    """The demo floor with three of each thing a list shows, and a superuser who may read every list."""
    settings.VAR_DIR = tmp_path
    for role in Role:
        Group.objects.get_or_create(name=role.value)
    with open(os.devnull, "w") as quiet:
        call_command("seed_demo", password="demo-floor-pass-2026", stdout=quiet)
    boss = User.objects.get(username="pitboss")
    supervisor = User.objects.get(username="floor")
    director = User.objects.get(username="director")
    table = Table.objects.get(name="PGP-1")
    for seat, name in enumerate(("Ada Lee", "Ana Park", "Axel Berg"), start=1):
        player = player_create(actor=boss, name=name, tier="Silver")
        session_start(actor=boss, player=player, table=table, seat=seat)
        buy_in_record(actor=boss, table=table, seat=seat, medium="cash", amount_cents=10_000 * seat)
        slip_request(actor=boss, table=table, kind="fill", chips={2500: seat})
        league_create(actor=director, name=f"League {seat}", season="2026")
    for template in ("msop_turbo", "msop_turbo"):
        tournament_create(actor=director, template_key=template, buy_in_cents=5_000, fee_cents=500)
    for _ in range(2):
        count = tray_count_record(actor=boss, table=table, kind="closer", counts={2500: 4})
        tray_count_confirm(actor=supervisor, count=count)
    return User.objects.create_superuser("api_walker", "walker@example.com", "x")


def _address(path: str) -> tuple[str, dict[str, str]]:
    """The list's address on the demo floor and the query it needs: the table, shift and tournament with the most
    rows in it."""
    table = Table.objects.get(name="PGP-1")
    report = ShiftReport.objects.order_by("-pk").first()
    entry = Entry.objects.order_by("-pk").first()
    values = {
        "{table_id}": str(table.pk),
        "{shift_id}": str(report.shift_id if report else Shift.objects.order_by("-pk").values_list("pk", flat=True)[0]),
        "{tournament_id}": str(entry.tournament_id if entry else 1),
    }
    for name, value in values.items():
        path = path.replace(name, value)
    return path, ({"q": "a"} if path.endswith("/players/") else {})


def _row_key(row: dict[str, Any]) -> Any:
    return row.get("id", row.get("key", row.get("number", repr(sorted(row.items())))))


def _walk(api: APIClient, first: str, query: dict[str, str], *, direction: str = "next") -> list[Any]:
    rows, address, seen = [], first, set()
    for _ in range(5000):
        page = api.get(address, query) if address == first else api.get(address)
        assert page.status_code == 200, (address, page.content[:300])
        body = page.json()
        assert set(body) == {"next", "previous", "results"}
        rows.extend(body["results"] if direction == "next" else reversed(body["results"]))
        following = body[direction]
        if following is None:
            return rows
        assert following not in seen, f"{following} comes round again"
        seen.add(following)
        address = following
    raise AssertionError(f"{first}: no end after 5000 pages")


@pytest.mark.django_db
def test_every_list_in_the_schema_is_paged() -> None:
    assert len(LISTS) >= 16
    for path in ("/api/v1/tables/", "/api/v1/players/", "/api/v1/tournaments/", "/api/v1/slips/"):
        assert path in LISTS


@pytest.mark.django_db
def test_every_list_walked_one_row_a_page_is_the_whole_list_in_order_and_back(demo_floor: User) -> None:
    api = APIClient()
    api.force_authenticate(demo_floor)
    walked = {}
    for path in LISTS:
        address, query = _address(path)
        whole = api.get(address, {**query, "page_size": MOST_PER_PAGE})
        assert whole.status_code == 200, (path, whole.content[:300])
        expected = [_row_key(row) for row in whole.json()["results"]]
        forward = _walk(api, address, {**query, "page_size": "1"})
        assert [_row_key(row) for row in forward] == expected, path
        assert len(set(map(repr, expected))) == len(expected), f"{path}: a row twice"
        walked[path] = len(expected)
        if len(expected) > 1:
            # From the last page back to the first by ``previous``.
            last = api.get(address, {**query, "page_size": "1"}).json()
            while last["next"]:
                last = api.get(last["next"]).json()
            backward = [_row_key(row) for row in last["results"]]
            if last["previous"]:
                backward += [_row_key(row) for row in _walk(api, last["previous"], {}, direction="previous")]
            assert backward == list(reversed(expected)), path
    print({path: count for path, count in walked.items()})
    # The demo floor gives most lists more than one row, so the walk crosses pages.
    assert sum(1 for count in walked.values() if count > 1) >= 12, walked


@pytest.mark.django_db
def test_a_page_holds_at_most_the_page_size_and_says_where_the_next_begins(demo_floor: User) -> None:
    api = APIClient()
    api.force_authenticate(demo_floor)
    page = api.get("/api/v1/players/", {"q": "a", "page_size": 2}).json()
    assert len(page["results"]) == 2 and page["previous"] is None
    following = urlsplit(page["next"])
    assert following.path == "/api/v1/players/"
    assert parse_qs(following.query)["q"] == ["a"] and parse_qs(following.query)["page_size"] == ["2"]
    assert "cursor" in parse_qs(following.query)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"page_size": "0"}, "page_size"),
        ({"page_size": str(MOST_PER_PAGE + 1)}, "page_size"),
        ({"page_size": "ten"}, "page_size"),
        ({"page_size": "-1"}, "page_size"),
        ({"cursor": "not a cursor"}, "cursor"),
        ({"cursor": "%%%"}, "cursor"),
        # A cursor someone wrote: a position that is no time on a list ordered by time.
        ({"cursor": "cD1ub3QtYS10aW1l"}, "cursor"),  # p=not-a-time
        ({"since": "yesterday"}, "since"),
        ({"since": "2026-11-29T18:00:00"}, "since"),  # no offset: which time zone?
        ({"shift": "first"}, "shift"),
        ({"table": "-3"}, "table"),
    ],
)
def test_a_page_size_a_cursor_or_a_filter_the_server_cannot_read_is_a_400_naming_it(
    demo_floor: User, query: dict[str, str], field: str
) -> None:
    api = APIClient()
    api.force_authenticate(demo_floor)
    answer = api.get("/api/v1/slips/", query)
    assert answer.status_code == 400, answer.content
    body = answer.json()
    assert body["extra"]["field"] == field and field in body["message"] or body["extra"]["field"] == field


@pytest.mark.django_db
def test_the_filters_an_integrator_needs(demo_floor: User) -> None:
    api = APIClient()
    api.force_authenticate(demo_floor)
    slips = api.get("/api/v1/slips/", {"page_size": MOST_PER_PAGE}).json()["results"]
    assert slips, "the demo floor has fills and credits"
    table_id = slips[0]["table"]
    by_table = api.get("/api/v1/slips/", {"table": table_id, "page_size": MOST_PER_PAGE}).json()["results"]
    assert by_table and all(s["table_name"] == slips[0]["table_name"] for s in by_table)
    later = max(s["requested_at"] for s in slips)
    since = api.get("/api/v1/slips/", {"since": later.replace("+00:00", "Z"), "page_size": MOST_PER_PAGE})
    assert [s["requested_at"] for s in since.json()["results"]] == [later] * len(since.json()["results"])
    assert api.get("/api/v1/slips/", {"since": "2999-01-01T00:00:00Z"}).json()["results"] == []
    shifts = api.get("/api/v1/shifts/", {"page_size": MOST_PER_PAGE}).json()["results"]
    day = shifts[-1]["gaming_day"]
    same_day = api.get("/api/v1/shifts/", {"gaming_day": day}).json()["results"]
    assert same_day and all(s["gaming_day"] == day for s in same_day)
    assert len(same_day) < len(shifts) or len({s["gaming_day"] for s in shifts}) == 1
    assert api.get("/api/v1/shifts/", {"gaming_day": "1999-01-01"}).json()["results"] == []
    refused = api.get("/api/v1/shifts/", {"gaming_day": "29.11.2026"})
    assert refused.status_code == 400 and refused.json()["extra"]["field"] == "gaming_day"


@pytest.mark.django_db
def test_a_cursor_whose_position_the_database_refuses_is_a_400_and_the_request_goes_on(demo_floor: User) -> None:
    """A position no text column holds (a NUL byte, which PostgreSQL refuses) rolls back the page's query alone: the
    answer is the 400, and the connection's transaction is still usable."""
    import base64

    api = APIClient()
    api.force_authenticate(demo_floor)
    forged = base64.b64encode(b"p=%00PGP").decode("ascii")
    answer = api.get("/api/v1/tables/", {"cursor": forged, "page_size": 1})
    if connection.vendor == "postgresql":
        assert answer.status_code == 400 and answer.json()["extra"]["field"] == "cursor"
    else:  # SQLite compares such a text like any other
        assert answer.status_code == 200
    assert api.get("/api/v1/tables/", {"page_size": 1}).status_code == 200
    # A position past what the column's integers hold: an empty last page, or a 400; never a broken transaction.
    huge = base64.b64encode(b"p=99999999999999999999999").decode("ascii")
    answer = api.get("/api/v1/chips/", {"cursor": huge, "page_size": 1})
    assert answer.status_code in (200, 400) and api.get("/api/v1/chips/").status_code == 200
    assert Table.objects.filter(name="PGP-1").exists()
