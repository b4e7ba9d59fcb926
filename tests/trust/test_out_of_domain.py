"""Rows the code cannot read, in every audited record at once: every choice column holds a value outside its choices
and every JSON column a value of the wrong shape, written past the guards (a bad restore, a hand edit). Every page
and every list the URLs name, as each role, answers without a server error; the verifier names the rows."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import IntegrityError, models, transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from casino.records import registered
from casino.verify import records_verify
from tests.guards import guards_off

pytestmark = pytest.mark.django_db


def _wrong_shape(value: Any) -> Any:
    if isinstance(value, dict):
        return [["not", "a", "mapping"]]
    if isinstance(value, list):
        return {"not": "a list"}
    return {"unexpected": [value]}


def _corrupt_everything() -> int:
    """Every choice column of every audited record out of its domain, every JSON column of the wrong shape."""
    changed = 0
    with guards_off():
        for entry in registered():
            for row in entry.model._base_manager.all():
                values: dict[str, Any] = {}
                for attname in entry.fields:
                    field = entry.field(attname)
                    if field.choices and isinstance(field, models.CharField):
                        values[attname] = "bogus"[: field.max_length]
                    elif isinstance(field, models.JSONField):
                        values[attname] = _wrong_shape(getattr(row, attname))
                try:  # a unique index over a choice column (a slip's kind and number) may refuse a second 'bogus'
                    with transaction.atomic():
                        changed += entry.model._base_manager.filter(pk=row.pk).update(**values) if values else 0
                except IntegrityError:
                    continue
    return changed


def _patterns(patterns: Any, prefix: str = "") -> list[str]:
    found: list[str] = []
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            found += _patterns(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            found.append(prefix + str(pattern.pattern))
    return [path for path in found if not path.startswith(("admin", "^", "accounts/logout"))]


def _urls(floor: Any) -> list[str]:
    """Every URL of the site with its ids taken from the floor's rows (an id the floor lacks: 1)."""
    ids = {
        "table_id": floor.table.pk,
        "shift_id": floor.day_shift.pk,
        "gaming_day_id": floor.day_shift.gaming_day_id,
        "slip_id": floor.slip_received.pk,
        "player_id": floor.lee.pk,
        "session_id": floor.guest_session.pk,
        "tournament_id": floor.tournament.pk,
        "league_id": floor.league.pk,
        "match_id": floor.match.pk,
        "hand_id": floor.ofc_hand.pk,
        "count_id": floor.opener.pk,
        "tray_count_id": floor.opener.pk,
        "buy_in_id": floor.rated_buy_in.pk,
        "round_id": floor.settled.pk,
    }
    words = {"fmt": "csv", "file_format": "csv", "action": "start", "group": "money", "token": "x"}
    urls: list[str] = []
    for path in _patterns(get_resolver().url_patterns):

        def fill(match: re.Match[str]) -> str:
            kind, name = match.group(1), match.group(2)
            return str(words.get(name, "x")) if kind == "str" else str(ids.get(name, 1))

        urls.append("/" + re.sub(r"<(\w+):(\w+)>", fill, path))
    for tournament in (floor.heads_up, floor.ofc):  # the other kinds of tournament's pages
        urls += [f"/poker-room/{tournament.pk}/", f"/api/tournaments/{tournament.pk}/"]
    return urls


def test_every_page_and_list_answers_when_every_audited_record_holds_values_the_code_cannot_read(
    every_record: Any, pit_boss: Any, dealer: Any, floor_supervisor: Any, auditor: Any
) -> None:
    assert _corrupt_everything() > 20
    people = [
        pit_boss,
        floor_supervisor,
        dealer,
        auditor,
        every_record.director,
        every_record.cage_cashier,
        every_record.counter,
    ]
    urls = _urls(every_record)
    failures: list[str] = []
    for person in people:
        client = Client(raise_request_exception=False)
        client.force_login(person)
        for url in urls:
            answer = client.get(url)
            if answer.status_code >= 500:
                failures.append(f"{person.username} GET {url}: {answer.status_code}")
    print(f"\n{len(urls)} URLs x {len(people)} people = {len(urls) * len(people)} requests; {len(failures)} errors")
    assert failures == []
    # The broken rows say so where they are shown, and the verifier names them.
    client = Client()
    client.force_login(floor_supervisor)
    money = client.get(f"/dealer/tables/{every_record.table.pk}/money/").content.decode()
    assert "cannot be read" in money and "verify_audit names what changed" in money
    slips = client.get(f"/api/tables/{every_record.table.pk}/slips/").json()["results"]
    assert any("cannot be read" in slip.get("problem", "") for slip in slips)
    problems = records_verify().problems
    assert any("bogus" in line for line in problems)
