"""The game-math lab on the API: a supervisor starts a run (with a seed, or one drawn and shown), reads its progress
and its figures, lists the runs; the same seed gives the same counts; who may not, and bad input, are refused with
nothing written."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User

from rules.models import LabRun, RuleSet
from rules.options import CHINESE_POKER, PAIGOW_POKER, PAIGOW_TILES
from rules.services import rule_set_default
from tests.api.clients import api_client, refusal

RUNS = "/api/v1/lab/runs/"

# The runs' tasks run in-process, in the PostgreSQL pass too (a real worker plays a run in tests/services).
pytestmark = pytest.mark.usefixtures("eager_celery")

Capture = Callable[..., Any]


@pytest.fixture
def pgp_rules(db: None) -> RuleSet:
    return rule_set_default(game=PAIGOW_POKER)


def _started(api: Any, capture: Capture, body: dict[str, Any], key: str) -> dict[str, Any]:
    """Start a run; the workers' tasks (run eagerly here) play it as the request's transaction commits."""
    with capture(execute=True):
        answer = api.post(RUNS, body, format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert answer.status_code == 201, answer.content[:500]
    return dict(answer.json())


@pytest.mark.django_db
def test_a_supervisor_runs_the_lab_through_the_api_and_a_seed_repeats_it(
    pgp_rules: RuleSet, floor_supervisor: User, pit_boss: User, django_capture_on_commit_callbacks: Capture
) -> None:
    api = api_client(floor_supervisor)
    body = {"rule_set": pgp_rules.pk, "hands": 40_000, "seed": 42, "changes": {"pgp_house_way": "trump_plaza"}}
    started = _started(api, django_capture_on_commit_callbacks, body, "lab-1")
    assert (started["seed"], started["edited"], started["rules"]["options"]["pgp_house_way"]) == (
        42,
        True,
        "trump_plaza",
    )
    run = api.get(f"{RUNS}{started['id']}/").json()
    assert run["status"] == "finished" and run["hands_done"] == 40_000 and run["percent"] == 100.0
    assert run["chunks"] == run["chunks_done"] == len(run["series"]) > 1
    assert run["wins"] + run["pushes"] + run["losses"] == 40_000 and run["series"][-1][0] == 40_000
    figures = run["figures"]
    assert (
        figures["hands"] == 40_000 and figures["player"]["low"] < figures["player"]["edge"] < figures["player"]["high"]
    )
    assert 0.3 < figures["push_rate"] < 0.5

    again = _started(api_client(pit_boss), django_capture_on_commit_callbacks, body, "lab-2")
    read = api.get(f"{RUNS}{again['id']}/").json()
    assert (read["wins"], read["pushes"], read["losses"], read["series"]) == (
        run["wins"],
        run["pushes"],
        run["losses"],
        run["series"],
    )
    assert started["high_hand_ranks"] is None  # every rank, as the rules say
    drawn = _started(api, django_capture_on_commit_callbacks, {"rule_set": pgp_rules.pk, "hands": 10_000}, "lab-3")
    assert isinstance(drawn["seed"], int)  # drawn, and shown so the run can be repeated

    listed = api.get(RUNS, {"page_size": 2}).json()
    assert [r["id"] for r in listed["results"]] == [drawn["id"], again["id"]] and listed["next"]
    assert [r["id"] for r in api.get(listed["next"]).json()["results"]] == [started["id"]]
    assert [r["id"] for r in api.get(RUNS, {"status": "finished"}).json()["results"]] == [
        drawn["id"],
        again["id"],
        started["id"],
    ]


@pytest.mark.django_db
def test_the_same_idempotency_key_answers_the_run_it_started(
    pgp_rules: RuleSet, floor_supervisor: User, django_capture_on_commit_callbacks: Capture
) -> None:
    api = api_client(floor_supervisor)
    body = {"rule_set": pgp_rules.pk, "hands": 10_000, "seed": 1}
    first = _started(api, django_capture_on_commit_callbacks, body, "same-key")
    with django_capture_on_commit_callbacks(execute=True):
        second = api.post(RUNS, body, format="json", HTTP_IDEMPOTENCY_KEY="same-key")
    assert second.status_code == 201 and second.json()["id"] == first["id"]
    assert LabRun.objects.count() == 1


@pytest.mark.django_db
def test_one_run_at_a_time_and_who_may_not_and_bad_input_are_refused_writing_nothing(
    pgp_rules: RuleSet, floor_supervisor: User, dealer: User, auditor: User
) -> None:
    body = {"rule_set": pgp_rules.pk, "hands": 10_000}
    for who in (dealer, auditor):
        refusal(api_client(who).post(RUNS, body, format="json"), 403)
        refusal(api_client(who).get(RUNS), 403)
    refusal(api_client(None).get(RUNS), 401)
    api = api_client(floor_supervisor)
    for wrong, field in (
        ({**body, "hands": 500}, "hands"),
        ({**body, "hands": "lots"}, "hands"),
        ({**body, "seed": -1}, "seed"),
        ({**body, "rule_set": 999_999}, "rule_set"),
        ({**body, "changes": {"pgp_house_way": "bellagio"}}, "pgp_house_way"),
        ({**body, "hnads": 10_000}, "hnads"),
        ({**body, "high_hand_ranks": 6}, "high_hand_ranks"),
        ({**body, "high_hand_ranks": "two"}, "high_hand_ranks"),
    ):
        answer = refusal(api.post(RUNS, wrong, format="json"), 400)
        assert field in str(answer["extra"]), (wrong, answer)
    points = rule_set_default(game=CHINESE_POKER)
    refusal(api.post(RUNS, {"rule_set": points.pk}, format="json"), 400, "no bank")
    tiles = rule_set_default(game=PAIGOW_TILES)
    refusal(api.post(RUNS, {"rule_set": tiles.pk, "high_hand_ranks": 2}, format="json"), 400, "no ranks to leave out")
    refusal(api.get(RUNS, {"status": "done"}), 400, "not 'done'")
    refusal(api.get(f"{RUNS}999999/"), 404)
    assert LabRun.objects.count() == 0
    queued = api.post(RUNS, body, format="json")  # no worker here takes it: it waits
    assert queued.status_code == 201 and queued.json()["status"] == "queued"
    refusal(api.post(RUNS, body, format="json"), 409, "one run at a time")
    assert LabRun.objects.count() == 1


@pytest.mark.django_db
def test_a_run_compares_the_high_hands_by_their_first_ranks_when_asked_and_says_so(
    pgp_rules: RuleSet, floor_supervisor: User, django_capture_on_commit_callbacks: Capture
) -> None:
    """The analysis the Trump Plaza figures are explained by (docs/game-math.md): the same seed's hands, the high hands
    equal on their category and first two ranks counted as copies, so wins only become pushes and pushes losses."""
    api = api_client(floor_supervisor)
    body = {"rule_set": pgp_rules.pk, "hands": 20_000, "seed": 99}
    every = api.get(f"{RUNS}{_started(api, django_capture_on_commit_callbacks, body, 'lab-every')['id']}/").json()
    two = _started(api, django_capture_on_commit_callbacks, {**body, "high_hand_ranks": 2}, "lab-two")
    two = api.get(f"{RUNS}{two['id']}/").json()
    assert (every["high_hand_ranks"], two["high_hand_ranks"]) == (None, 2)
    assert two["status"] == "finished" and two["hands_done"] == every["hands_done"] == 20_000
    assert two["wins"] <= every["wins"] and two["losses"] >= every["losses"]
    assert (two["wins"], two["losses"]) != (every["wins"], every["losses"])
