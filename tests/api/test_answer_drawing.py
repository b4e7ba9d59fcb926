"""An answer drawn by its serializer's plan (``casino.api_inputs.answer_data``) is what DRF draws, field for field.

The plan skips DRF's generic steps for plain fields; everything else it hands to the field. These tests hold the two
drawings equal on the rounds a dealer plays (each step of a round, the whole round with its ledger, in another time
zone too) and on the cases a plain reading must not guess: a source missing or null, a mapping, a callable, a field
left out, a naive or far time, a serializer that draws itself.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ObjectDoesNotExist
from django.utils import timezone
from rest_framework import serializers
from rest_framework.test import APIClient

from casino.api_inputs import answer_data
from rounds.models import Round
from rounds.selectors import round_get, round_step_read
from settlement.apis import RoundOutputSerializer, RoundStepOutputSerializer

BANK = {"high": "Qs Qd 8s 5d 3c", "low": "Jh Jc"}
WIN = {"high": "As Ad 7s 4d 2c", "low": "Kh Kc"}
LOSS = {"high": "Ts Th 9c 6d 2h", "low": "9h 8d"}


def _drawn_alike(serializer_class: type[serializers.Serializer[Any]], instance: Any) -> dict[str, Any]:
    ours = answer_data(serializer_class, instance)
    theirs = dict(serializer_class(instance).data)
    assert ours == theirs
    assert list(ours) == list(theirs)  # the same keys in the same order
    return ours


def _step_alike(round_id: int) -> dict[str, Any]:
    round_ = Round.objects.select_related("table", "bank_seat").get(pk=round_id)
    return _drawn_alike(RoundStepOutputSerializer, round_step_read(round_))


@pytest.mark.parametrize("zone", [None, "Europe/Berlin", "America/Los_Angeles"])
def test_every_step_of_a_round_and_the_whole_round_drawn_as_drf_draws_them(
    make_table: Callable[..., Any], shift: Any, dealer: User, zone: str | None
) -> None:
    table = make_table(name="PGP 1", game="paigow_poker", seat_count=6)
    api = APIClient()
    api.force_authenticate(dealer)

    def post(path: str, body: dict[str, Any] | None = None, **headers: str) -> dict[str, Any]:
        response = api.post(path, body or {}, format="json", **headers)
        assert response.status_code in (200, 201), response.content
        answer: dict[str, Any] = response.json()
        return answer

    with timezone.override(zoneinfo.ZoneInfo(zone) if zone else timezone.get_default_timezone()):
        round_id = post(f"/api/v1/tables/{table.pk}/rounds/")["id"]
        steps = [_step_alike(round_id)]
        for seat, amount in ((1, 2500), (4, 1000)):
            post(f"/api/v1/rounds/{round_id}/wagers/", {"seat": seat, "amount_cents": amount})
            steps.append(_step_alike(round_id))
        post(f"/api/v1/rounds/{round_id}/close-betting/")
        post(f"/api/v1/rounds/{round_id}/deal/", {"dice": [3, 5, 6]})
        steps.append(_step_alike(round_id))
        post(f"/api/v1/rounds/{round_id}/hands/", {"banker": BANK, "seats": {"1": WIN, "4": LOSS}})
        steps.append(_step_alike(round_id))
        post(f"/api/v1/rounds/{round_id}/settle/", HTTP_IDEMPOTENCY_KEY="drawn-alike")
        whole = _drawn_alike(RoundOutputSerializer, round_get(round_id=round_id))

    assert [len(step["wagers"]) for step in steps] == [0, 1, 2, 2, 2]
    assert whole["settlement"] is not None and whole["postings"], whole
    assert whole["bank_seat"] is None  # the house banks: a source through a null relation, its default
    if zone == "America/Los_Angeles":  # drawn in the zone in force, as DRF draws it
        assert whole["opened_at"].endswith(("-08:00", "-07:00")), whole["opened_at"]


class _Inner(serializers.Serializer[Any]):
    n = serializers.IntegerField()
    at = serializers.DateTimeField(allow_null=True)


class _Toy(serializers.Serializer[Any]):
    """Fields whose sources a plain attribute reading must not guess."""

    plain = serializers.CharField()
    through_null = serializers.IntegerField(source="link.n", allow_null=True, default=None)
    through_missing = serializers.IntegerField(source="gone.n", allow_null=True)
    left_out = serializers.IntegerField(source="absent", required=False)
    keyed = serializers.CharField(source="mapping.word")
    called = serializers.IntegerField(source="count")
    method = serializers.SerializerMethodField()
    at = serializers.DateTimeField()
    formatted = serializers.DateTimeField(source="at", format="%d.%m.%Y %H:%M")
    in_zone = serializers.DateTimeField(source="at", default_timezone=dt.timezone(dt.timedelta(hours=2)))
    one = _Inner(source="link")
    many = _Inner(many=True, source="items")
    numbers = serializers.ListField(child=serializers.IntegerField())

    def get_method(self, toy: Any) -> str:
        return f"{toy.plain}!"


class _KeyAndAttribute(dict[str, str]):
    """A mapping that also has an attribute of the key's name: DRF reads a mapping by key."""

    word = "attribute"


class _Gone:
    """A source whose row is gone: DRF draws None there, not the field's default."""

    @property
    def row(self) -> Any:
        raise ObjectDoesNotExist("no such row")


class _Reads(serializers.Serializer[Any]):
    word = serializers.CharField()
    number = serializers.IntegerField(source="row.n", default=7)


class _OwnWay(serializers.Serializer[Any]):
    plain = serializers.CharField()

    def to_representation(self, instance: Any) -> dict[str, Any]:
        return {"own": instance.plain.upper()}


def _toy(**changes: Any) -> SimpleNamespace:
    at = dt.datetime(2026, 12, 1, 3, 4, 5, 678000, tzinfo=dt.UTC)
    toy = SimpleNamespace(
        plain="ace",
        link=SimpleNamespace(n=7, at=at),
        mapping={"word": "joker"},
        count=lambda: 3,
        at=at,
        items=[SimpleNamespace(n=1, at=None), SimpleNamespace(n=2, at=at)],
        numbers=[1, 2, 3],
    )
    for name, value in changes.items():
        setattr(toy, name, value)
    return toy


@pytest.mark.parametrize(
    "changes",
    [
        {},
        {"link": None},  # a nested source that is null: the field's default, the nested answer null
        {"at": dt.datetime(2026, 12, 1, 3, 4, 5)},  # a naive time, made aware as DRF makes it
        {"at": dt.datetime(2026, 7, 1, 12, 0, tzinfo=zoneinfo.ZoneInfo("Asia/Tokyo"))},
        {"at": "2026-12-01 as text"},  # a time already text: as it is
        {"at": dt.date(2026, 12, 1)},  # a date where a time is read: the field's own way
        {"items": []},
        {"absent": 5},  # a field left out when missing, drawn when there
        {"mapping": {"word": "eight"}, "numbers": []},
    ],
)
@pytest.mark.parametrize("zone", ["UTC", "Europe/Prague"])
def test_the_cases_a_plain_reading_must_not_guess_are_drawn_as_drf_draws_them(
    changes: dict[str, Any], zone: str
) -> None:
    with timezone.override(zoneinfo.ZoneInfo(zone)):
        if isinstance(changes.get("at"), dt.date) and not isinstance(changes["at"], dt.datetime):
            with pytest.raises(AttributeError):  # DRF refuses a date here; so does the plan, in DRF's words
                dict(_Toy(_toy(**changes)).data)
            with pytest.raises(AttributeError):
                answer_data(_Toy, _toy(**changes))
            return
        drawn = _drawn_alike(_Toy, _toy(**changes))
    assert drawn["keyed"] == _toy(**changes).mapping["word"]
    assert drawn["called"] == 3 and drawn["method"] == "ace!"
    assert ("left_out" in drawn) == ("absent" in changes)


def test_a_mapping_is_read_by_key_and_a_row_gone_is_none_as_drf_reads_them() -> None:
    keyed = _KeyAndAttribute(word="key", row=SimpleNamespace(n=1))
    assert _drawn_alike(_Reads, keyed) == {"word": "key", "number": 1}
    gone = _Gone()
    gone.word = "ace"  # type: ignore[attr-defined]
    assert _drawn_alike(_Reads, gone) == {"word": "ace", "number": None}


def test_a_change_of_the_time_format_is_drawn_in_the_new_format(settings: Any) -> None:
    toy = _toy()
    _drawn_alike(_Toy, toy)
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DATETIME_FORMAT": "%Y"}
    assert _drawn_alike(_Toy, toy)["at"] == "2026"


def test_a_missing_source_with_no_default_is_refused_in_drf_words() -> None:
    toy = _toy()
    del toy.plain
    with pytest.raises(AttributeError, match="field `plain` on serializer `_Toy`"):
        answer_data(_Toy, toy)


def test_a_serializer_that_draws_itself_is_asked() -> None:
    assert answer_data(_OwnWay, SimpleNamespace(plain="ace")) == {"own": "ACE"}


def test_the_time_drawn_in_the_zone_in_force_when_drawn() -> None:
    toy = _toy()
    with timezone.override(zoneinfo.ZoneInfo("Europe/Berlin")):
        assert answer_data(_Toy, toy)["at"] == "2026-12-01T04:04:05.678000+01:00"
    with timezone.override(zoneinfo.ZoneInfo("UTC")):
        assert answer_data(_Toy, toy)["at"] == "2026-12-01T03:04:05.678000Z"
