"""The game-math lab: who may use it, what it refuses, a run from the form to its figures and chart, a
double tap, a worker that fails or dies, a finished run that cannot change, and the edges ratings read from it.

Celery runs eagerly here: the run a form starts is played in-process once the form's transaction commits.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.db import DatabaseError, transaction
from django.utils import timezone

from casino.errors import NotAllowed
from casino.events import AuditEventType
from casino.models import AuditEvent
from pit.templatetags.lab import pct
from rules import edges
from rules.edges import HouseEdgeUnknown, rule_set_edges
from rules.games import lab as engine
from rules.games.lab import TILES_DEALS, Tally
from rules.lab_services import (
    LAB_STALL,
    lab_run_play,
    lab_run_start,
    lab_runs_fail_stalled,
)
from rules.models import LabRun, RuleSet
from rules.options import CHINESE_POKER, PAIGOW_TILES
from rules.services import rule_set_default
from tests.pit.lab_play import form_of, played, signed_in, start

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]

Capture = Callable[..., object]


# --- who may use it --------------------------------------------------------------------------------


@pytest.mark.parametrize("persona", ["dealer", "auditor"])
def test_a_dealer_or_an_auditor_is_refused_every_page_of_the_lab(
    persona: str, request: pytest.FixtureRequest, pgp_rules: RuleSet, floor_supervisor: User
) -> None:
    run = lab_run_start(actor=floor_supervisor, rule_set=pgp_rules, hands=10_000, request_key=uuid.uuid4().hex)
    client = signed_in(request.getfixturevalue(persona))
    for url in ("/pit/lab/", f"/pit/lab/runs/{run.pk}/", f"/pit/lab/runs/{run.pk}/progress/"):
        assert client.get(url).status_code == 403
    assert client.post("/pit/lab/start/", {"rule_set": pgp_rules.pk, "hands": "10000"}).status_code == 403
    assert LabRun.objects.count() == 1


def test_the_service_refuses_a_dealer_too(pgp_rules: RuleSet, dealer: User) -> None:
    with pytest.raises(NotAllowed, match="Only a Floor supervisor or Pit boss may run the game-math lab"):
        lab_run_start(actor=dealer, rule_set=pgp_rules, hands=10_000, request_key=uuid.uuid4().hex)
    assert not LabRun.objects.exists()


# --- a run from the form to its figures -------------------------------------------------------------


def test_a_supervisor_simulates_pai_gow_poker_and_sees_both_edges_the_push_rate_and_the_chart(
    pgp_rules: RuleSet, floor_supervisor: User, django_capture_on_commit_callbacks: Capture
) -> None:
    client = signed_in(floor_supervisor)
    page = client.get(f"/pit/lab/?rule_set={pgp_rules.pk}").content.decode()
    assert "Shipped figures" in page and "Start the simulation" in page
    assert page.count("imulated: ") == 1 and "seed 2026 (the same seed gives the same figures)" in page
    assert "house_edges.py" not in page  # no developer's command on a supervisor's page
    response, _ = start(client, django_capture_on_commit_callbacks, pgp_rules, hands="40,000")
    run = LabRun.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/pit/lab/runs/{run.pk}/"  # type: ignore[index]
    assert run.status == LabRun.Status.FINISHED and not run.edited
    assert run.hands_done == run.wins + run.pushes + run.losses == 40_000
    assert run.series[-1] == [40_000, run.wins, run.pushes, run.losses] and len(run.series) == 20  # 2,000 a step
    assert run.created_by == floor_supervisor and run.seed is not None
    page = client.get(f"/pit/lab/runs/{run.pk}/").content.decode()
    for words in ("Player", "Banker (a player banking)", "Push rate", "How the estimate converged"):
        assert words in page
    assert pct(run.pushes / 40_000) in page  # as the page writes it (the same float, the same rounding)
    assert f'src="/pit/lab/runs/{run.pk}/chart.png"' in page
    chart = client.get(f"/pit/lab/runs/{run.pk}/chart.png")
    assert chart["Content-Type"] == "image/png" and chart.content.startswith(b"\x89PNG")
    progress = client.get(f"/pit/lab/runs/{run.pk}/progress/").json()
    assert progress["done"] and progress["percent"] == 100.0 and progress["status"] == "finished"
    kinds = list(AuditEvent.objects.filter(subject_type="rules.labrun").values_list("event_type", flat=True))
    assert kinds == [AuditEventType.LAB_RUN_STARTED, AuditEventType.LAB_RUN_FINISHED]


def test_an_edited_copy_runs_its_own_rules_and_leaves_the_rule_set_as_it_was(
    pgp_rules: RuleSet, pit_boss: User, django_capture_on_commit_callbacks: Capture
) -> None:
    before = pgp_rules.snapshot()
    client = signed_in(pit_boss)
    start(client, django_capture_on_commit_callbacks, pgp_rules, hands="10000", opt_pgp_house_way="foxwoods")
    run = LabRun.objects.get()
    assert run.edited and run.snapshot["options"]["pgp_house_way"] == "foxwoods"
    assert "(edited copy)" in run.snapshot["name"] and '"pgp_house_way":"foxwoods"' in run.outcome_key
    pgp_rules.refresh_from_db()
    assert pgp_rules.snapshot() == before
    assert "an edited copy of the rule set" in client.get(f"/pit/lab/runs/{run.pk}/").content.decode()


def test_tiles_show_the_shipped_exact_counts_and_a_run_counts_every_deal_again(
    floor_supervisor: User, django_capture_on_commit_callbacks: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The full enumeration takes about a minute: here it covers two player hands, the engine's own test proves them."""
    tiles = rule_set_default(game=PAIGOW_TILES)
    client = signed_in(floor_supervisor)
    page = client.get(f"/pit/lab/?rule_set={tiles.pk}").content.decode()
    assert "Shipped figures" in page and "Exact: every one of" in page and "0.951%" in page and "Count exactly" in page
    assert 'name="hands"' not in page  # an enumeration counts every deal
    two = engine.tiles_player_hands()[:2]
    monkeypatch.setattr(engine, "tiles_player_hands", lambda: two)
    start(client, django_capture_on_commit_callbacks, tiles)
    run = LabRun.objects.get()
    assert run.method == LabRun.Method.EXACT and run.hands_requested == TILES_DEALS and run.seed is None
    assert run.status == LabRun.Status.FINISHED and run.hands_done == run.wins + run.pushes + run.losses > 0
    page = client.get(f"/pit/lab/runs/{run.pk}/").content.decode()
    assert "Differs from the shipped exact counts" in page  # two hands of 8,130 are not the whole count
    assert "How the estimate converged" not in page


def test_a_points_game_says_it_has_no_bank_and_offers_no_run(
    floor_supervisor: User, django_capture_on_commit_callbacks: Capture
) -> None:
    chinese = rule_set_default(game=CHINESE_POKER)
    client = signed_in(floor_supervisor)
    page = client.get(f"/pit/lab/?rule_set={chinese.pk}").content.decode()
    assert "no house edge to measure" in page and 'class="lab-start"' not in page
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        response = client.post("/pit/lab/start/", {"rule_set": chinese.pk, "form_key": uuid.uuid4().hex})
    assert response.status_code == 400 and "has no bank here" in response.content.decode()
    assert not LabRun.objects.exists()


# --- bad input, written nowhere ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"hands": "lots"}, "The number of hands is a whole number from 10,000 to 100,000,000, not &#x27;lots&#x27;."),
        ({"hands": "500"}, "from 10,000 to 100,000,000, not 500."),
        ({"hands": "200000000"}, "from 10,000 to 100,000,000, not 200000000."),
        ({"hands": ""}, "from 10,000 to 100,000,000, not None."),
        ({"opt_pgp_house_way": "bellagio"}, "Unknown house way &#x27;bellagio&#x27; for Pai Gow Poker"),
        ({"opt_commission_rate_bp": "five"}, "is a whole number, not &#x27;five&#x27;"),
        ({"opt_commission_rate_bp": "20000"}, "The commission rate is in basis points, 0 to 10000"),
        ({"opt_banking_mode": "none"}, "Pai Gow Poker cannot be banked"),
    ],
)
def test_bad_input_is_refused_in_words_and_nothing_is_written(
    changes: dict[str, str],
    words: str,
    pgp_rules: RuleSet,
    pit_boss: User,
    django_capture_on_commit_callbacks: Capture,
) -> None:
    events = AuditEvent.objects.count()
    response, _ = start(signed_in(pit_boss), django_capture_on_commit_callbacks, pgp_rules, **changes)
    assert response.status_code == 400  # type: ignore[attr-defined]
    assert words in response.content.decode()  # type: ignore[attr-defined]
    assert not LabRun.objects.exists() and AuditEvent.objects.count() == events


def test_the_peer_variant_of_an_edited_tiles_copy_has_no_bank_to_measure(
    floor_supervisor: User, django_capture_on_commit_callbacks: Capture
) -> None:
    tiles = rule_set_default(game=PAIGOW_TILES)
    response, _ = start(
        signed_in(floor_supervisor), django_capture_on_commit_callbacks, tiles, opt_mode="peer", opt_banking_mode="none"
    )
    assert response.status_code == 400 and "has no bank here" in response.content.decode()  # type: ignore[attr-defined]
    assert not LabRun.objects.exists()


def test_an_unknown_rule_set_is_refused(floor_supervisor: User) -> None:
    client = signed_in(floor_supervisor)
    assert client.get("/pit/lab/?rule_set=9999").status_code == 404
    assert client.get("/pit/lab/?rule_set=abc").status_code == 404
    assert client.post("/pit/lab/start/", {"rule_set": "x", "hands": "10000"}).status_code == 400
    assert client.get("/pit/lab/runs/9999/").status_code == 404
    assert not LabRun.objects.exists()


# --- double taps, one at a time ---------------------------------------------------------------------------


def test_the_same_form_sent_twice_starts_one_run(
    pgp_rules: RuleSet, floor_supervisor: User, django_capture_on_commit_callbacks: Capture
) -> None:
    client = signed_in(floor_supervisor)
    first, form = start(client, django_capture_on_commit_callbacks, pgp_rules, hands="10000")
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        again = client.post("/pit/lab/start/", form)  # Back, and the same form again
    assert again["Location"] == first["Location"]  # type: ignore[index]
    assert LabRun.objects.count() == 1
    assert AuditEvent.objects.filter(event_type=AuditEventType.LAB_RUN_STARTED).count() == 1


def test_a_second_run_waits_until_the_first_is_done(pgp_rules: RuleSet, floor_supervisor: User, pit_boss: User) -> None:
    first = lab_run_start(actor=floor_supervisor, rule_set=pgp_rules, hands=10_000, request_key=uuid.uuid4().hex)
    client = signed_in(pit_boss)
    form = form_of(client.get(f"/pit/lab/?rule_set={pgp_rules.pk}").content.decode())
    response = client.post("/pit/lab/start/", {**form, "hands": "10000"})
    assert response.status_code == 400
    assert f"Lab run {first.pk} (" in response.content.decode() and "one run at a time" in response.content.decode()
    assert LabRun.objects.count() == 1


# --- failures: shown as failed, never hanging -------------------------------------------------------------


def test_a_run_whose_engine_fails_is_shown_failed_with_why(
    pgp_rules: RuleSet, floor_supervisor: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> Tally:
        raise MemoryError("the worker ran out of memory")

    monkeypatch.setattr(engine, "simulate_paigow_poker_chunk", broken)
    run = lab_run_start(actor=floor_supervisor, rule_set=pgp_rules, hands=10_000, request_key=uuid.uuid4().hex)
    played(run.pk)
    run.refresh_from_db()
    assert run.status == LabRun.Status.FAILED and "MemoryError: the worker ran out of memory" in run.error
    client = signed_in(floor_supervisor)
    progress = client.get(f"/pit/lab/runs/{run.pk}/progress/").json()
    assert progress["done"] and progress["status"] == "failed" and "ran out of memory" in progress["error"]
    page = client.get(f"/pit/lab/runs/{run.pk}/").content.decode()
    assert "The run failed: MemoryError" in page and "Result" not in page
    assert AuditEvent.objects.filter(event_type=AuditEventType.LAB_RUN_FAILED).count() == 1
    played(run.pk)  # delivered again: a failed run is left as it is
    assert LabRun.objects.get(pk=run.pk).error == run.error


def test_a_run_whose_worker_died_shows_failed_and_frees_the_lab(pgp_rules: RuleSet, floor_supervisor: User) -> None:
    run = lab_run_start(actor=floor_supervisor, rule_set=pgp_rules, hands=10_000, request_key=uuid.uuid4().hex)
    long_ago = timezone.now() - LAB_STALL - dt.timedelta(minutes=1)
    LabRun.objects.filter(pk=run.pk).update(status="running", started_at=long_ago, heartbeat_at=long_ago)
    client = signed_in(floor_supervisor)
    progress = client.get(f"/pit/lab/runs/{run.pk}/progress/").json()
    assert progress["done"] and progress["status"] == "failed" and "stopped reporting progress" in progress["error"]
    second = lab_run_start(actor=floor_supervisor, rule_set=pgp_rules, hands=10_000, request_key=uuid.uuid4().hex)
    run.refresh_from_db()
    assert (
        run.status == LabRun.Status.FAILED
        and f"stopped reporting progress for {int(LAB_STALL.total_seconds() // 60)} minutes" in run.error
    )
    assert second.status == LabRun.Status.QUEUED
    assert lab_runs_fail_stalled() == 0


def test_a_run_no_worker_took_is_failed_after_half_an_hour(pgp_rules: RuleSet, floor_supervisor: User) -> None:
    run = lab_run_start(actor=floor_supervisor, rule_set=pgp_rules, hands=10_000, request_key=uuid.uuid4().hex)
    assert lab_runs_fail_stalled(now=timezone.now() + dt.timedelta(minutes=29)) == 0
    assert lab_runs_fail_stalled(now=timezone.now() + dt.timedelta(minutes=31)) == 1
    run.refresh_from_db()
    assert run.status == LabRun.Status.FAILED and "No worker took the run" in run.error


# --- a finished run never changes ---------------------------------------------------------------------------


def test_a_finished_run_cannot_be_changed_or_deleted_but_a_running_one_reports_progress(
    pgp_rules: RuleSet, floor_supervisor: User
) -> None:
    run = lab_run_start(actor=floor_supervisor, rule_set=pgp_rules, hands=10_000, request_key=uuid.uuid4().hex)
    LabRun.objects.filter(pk=run.pk).update(status="running")
    assert LabRun.objects.filter(pk=run.pk).update(hands_done=2_000, wins=600) == 1  # progress is allowed
    lab_run_play(run_id=run.pk)  # running already: left alone
    LabRun.objects.filter(pk=run.pk).update(status="queued", hands_done=0, wins=0)
    played(run.pk)
    run.refresh_from_db()
    assert run.status == LabRun.Status.FINISHED
    for change in ({"wins": run.wins + 1}, {"status": "running"}, {"series": []}, {"hands_requested": 20_000}):
        with pytest.raises(DatabaseError), transaction.atomic():
            LabRun.objects.filter(pk=run.pk).update(**change)
    with pytest.raises(DatabaseError), transaction.atomic():
        LabRun.objects.filter(pk=run.pk).delete()
    assert LabRun.objects.get(pk=run.pk).wins == run.wins


# --- the edges ratings read ------------------------------------------------------------------------------------


def _finished(rule_set: RuleSet, actor: User, hands: int) -> LabRun:
    run = lab_run_start(actor=actor, rule_set=rule_set, hands=hands, request_key=uuid.uuid4().hex)
    return played(run.pk)


@pytest.mark.usefixtures("nothing_shipped")
def test_ratings_use_the_first_finished_lab_run_where_the_file_holds_no_counts(
    pgp_rules: RuleSet, floor_supervisor: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    snapshot = pgp_rules.snapshot()
    with pytest.raises(HouseEdgeUnknown, match="or run these rules in the game-math lab"):
        rule_set_edges(snapshot)
    # A quick trial below the size ratings need gives no edge (the real bound is a million hands; 20,000 here).
    _finished(pgp_rules, floor_supervisor, 10_000)
    monkeypatch.setattr(edges, "LAB_HANDS_FOR_RATINGS", 20_000)
    with pytest.raises(HouseEdgeUnknown):
        rule_set_edges(snapshot)
    first = _finished(pgp_rules, floor_supervisor, 20_000)
    found = rule_set_edges(snapshot)
    assert found.method == "simulated" and found.hands == 20_000 and f"lab run {first.pk}" in found.source
    assert found.player is not None and found.player.low < found.player.edge < found.player.high
    # Theo already rated must stay re-derivable: a larger run later does not move the edge.
    _finished(pgp_rules, floor_supervisor, 40_000)
    edges._LAB_FOUND.clear()
    assert rule_set_edges(snapshot) == found


def test_the_shipped_counts_win_where_they_hold_the_rules(pgp_rules: RuleSet, floor_supervisor: User) -> None:
    _finished(pgp_rules, floor_supervisor, 10_000)
    found = rule_set_edges(pgp_rules.snapshot())
    assert found.hands == 1_000_000 and "lab run" not in found.source


@pytest.mark.usefixtures("nothing_shipped")
def test_a_finished_run_written_past_the_services_gives_ratings_no_edge(
    pgp_rules: RuleSet, floor_supervisor: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An attacker with database access inserts a finished run with the counts they like: it has no
    ``lab_run.finished`` audit event recording those counts, so ``rule_set_edges`` passes it over."""
    monkeypatch.setattr(edges, "LAB_HANDS_FOR_RATINGS", 20_000)
    real = _finished(pgp_rules, floor_supervisor, 20_000)
    forged = LabRun.objects.get(pk=real.pk)
    forged.pk = None
    forged.request_key = uuid.uuid4().hex
    forged.wins, forged.pushes, forged.losses = 0, 0, 20_000  # a house edge of 100 %
    forged.finished_at = real.finished_at - dt.timedelta(hours=1)  # "first"
    forged.save(force_insert=True)
    edges._LAB_FOUND.clear()
    found = rule_set_edges(pgp_rules.snapshot())
    assert f"lab run {real.pk}" in found.source and found.player is not None and found.player.edge < 0.1


@pytest.mark.parametrize("typed", ["10.000", "10 000", "10\u2009000"])
def test_a_count_of_hands_grouped_the_german_way_or_as_the_page_shows_it_is_read(
    pgp_rules: RuleSet, floor_supervisor: User, django_capture_on_commit_callbacks: Capture, typed: str
) -> None:
    response, _ = start(signed_in(floor_supervisor), django_capture_on_commit_callbacks, pgp_rules, hands=typed)
    assert response.status_code == 302 and LabRun.objects.get().hands_requested == 10_000


def test_a_seed_typed_on_the_page_repeats_a_run_to_the_hand_and_one_left_out_is_drawn_and_shown(
    pgp_rules: RuleSet, floor_supervisor: User, django_capture_on_commit_callbacks: Capture
) -> None:
    client = signed_in(floor_supervisor)
    start(client, django_capture_on_commit_callbacks, pgp_rules, hands="10000", seed="12345")
    start(client, django_capture_on_commit_callbacks, pgp_rules, hands="10000", seed=" 12345 ")
    first, second = LabRun.objects.order_by("pk")
    assert first.seed == second.seed == 12345 and first.status == second.status == LabRun.Status.FINISHED
    assert (first.wins, first.pushes, first.losses) == (second.wins, second.pushes, second.losses)
    assert "Seed 12345" in client.get(f"/pit/lab/runs/{second.pk}/").content.decode()
    start(client, django_capture_on_commit_callbacks, pgp_rules, hands="10000", seed="")
    drawn = LabRun.objects.order_by("pk").last()
    assert drawn is not None and drawn.seed is not None
    for wrong in ("lucky", "-4", "1.5"):
        response, _ = start(client, django_capture_on_commit_callbacks, pgp_rules, hands="10000", seed=wrong)
        page = response.content.decode()  # type: ignore[attr-defined]
        assert response.status_code == 400 and "A seed is a whole number" in page and f'value="{wrong}"' in page  # type: ignore[attr-defined]
    assert LabRun.objects.count() == 3


def test_a_german_pit_boss_reads_the_options_their_choices_and_the_rules_played_in_german(
    pgp_rules: RuleSet, floor_supervisor: User, django_capture_on_commit_callbacks: Capture
) -> None:
    client = signed_in(floor_supervisor)
    page = client.get(f"/pit/lab/?rule_set={pgp_rules.pk}", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    for english in ("Foul policy", "Banking mode", "the wager is lost", "the house banks", "Joker in a flush"):
        assert english not in page
    for german in ("Regel bei Foul", "Bankmodus", "der Einsatz verfällt", "das Haus hält die Bank"):
        assert german in page
    assert '<option value="golden_nugget" selected>Golden Nugget</option>' in page
    start(client, django_capture_on_commit_callbacks, pgp_rules, hands="10000", seed="7")
    run = LabRun.objects.get()
    shown = client.get(f"/pit/lab/runs/{run.pk}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Startwert 7" in shown and "Pai Gow Poker — Hausregeln (Golden Nugget)" in shown
    assert "Foul policy" not in shown and ">True<" not in shown and ">an<" in shown
