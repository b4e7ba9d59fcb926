"""The game-math lab in Chromium at 1024×768 ("the lab page runs a simulation from a browser test and shows
the chart"): Fred picks the Pai Gow Poker house rules, starts a simulation of a million hands, watches the progress
bar fill as a real Celery worker plays it, and reads both edges, the push rate and the convergence chart.

The worker is Celery's own test worker, in a thread of this process, fed through an in-memory broker: the form's
task travels as a message, as it does to ``celery -A config worker``, instead of running inside the request.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from celery.contrib.testing.worker import start_worker
from playwright.sync_api import expect

from config.celery import app
from pit.templatetags.lab import pct
from rules import lab_services
from rules.models import LabRun
from rules.options import CHINESE_POKER, PAIGOW_POKER
from rules.services import rule_set_default
from tests.browser.waiting import wait_until

SHOTS = Path("/tmp/shots/lab")


@pytest.fixture
def celery_worker_thread() -> Iterator[None]:
    """A Celery worker in a thread, over an in-memory broker, for the length of the test."""
    keys = ("task_always_eager", "broker_url", "broker_read_url", "broker_write_url", "result_backend")
    saved = {key: app.conf.get(key) for key in keys}
    # The read and write URLs too: Celery takes CELERY_BROKER_URL from the environment (the PostgreSQL + Redis
    # pass sets it) before ``broker_url``, but those two before the environment (tests/faults/conftest.py).
    memory = "memory://"
    app.conf.update(
        task_always_eager=False,
        broker_url=memory,
        broker_read_url=memory,
        broker_write_url=memory,
        result_backend="cache+memory://",
    )
    _drop_connections()  # an earlier test in this process may have pooled a connection to another broker
    try:
        with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=60):
            yield
    finally:
        app.conf.update(saved)
        _drop_connections()


def _drop_connections() -> None:
    """Forget the app's pooled broker connections and producers, so the next send connects by the current conf."""
    app._pool = None  # as tests/faults/conftest.py does: dropped, not closed (another holder may still use it)
    app.amqp._producer_pool = None


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("celery_worker_thread")
def test_a_supervisor_runs_a_simulation_watches_the_bar_fill_and_reads_the_edges_and_the_chart(
    new_page: Callable[..., Any], shoot: Callable[[Any, str], Path], floor_supervisor: Any
) -> None:
    rules = rule_set_default(game=PAIGOW_POKER)
    page = new_page(floor_supervisor)
    page.goto("/pit/")
    page.get_by_role("link", name="Game-math lab").click()
    expect(page.locator("h1")).to_have_text("Game-math lab")
    page.wait_for_load_state()  # lab.js (deferred) listens to the picker
    page.select_option("#lab-rule-set", str(rules.pk))  # the picker shows the rule set at once (lab.js)
    expect(page.locator(".lab-panel h2")).to_contain_text(rules.name)
    expect(page.locator(".lab-shipped")).to_contain_text("Simulated: 1\u2009000\u2009000 hands, seed")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "lab-pick.png"), full_page=True)

    seen: list[float] = []
    page.on(
        "response",
        lambda response: seen.append(response.json()["percent"]) if response.url.endswith("/progress/") else None,
    )
    page.fill("#lab-hands", "1,000,000")
    page.get_by_role("button", name="Start the simulation").click()
    run = LabRun.objects.get()
    expect(page).to_have_url(re.compile(rf"/pit/lab/runs/{run.pk}/$"))
    bar = page.get_by_role("progressbar")
    expect(bar).to_be_visible()
    page.screenshot(path=str(SHOTS / "lab-running.png"), full_page=True)

    # The bar reaches the end, the page loads again with the figures and the chart.
    expect(page.locator(".lab-progress")).to_have_attribute("data-status", "finished", timeout=90_000)
    expect(bar).to_have_attribute("aria-valuenow", "100.0")
    expect(page.locator("[data-lab-count]")).to_have_text("1\u2009000\u2009000 / 1\u2009000\u2009000")
    assert any(0 < percent < 100 for percent in seen), seen  # it was watched filling, not only full
    assert seen == sorted(seen)

    run.refresh_from_db()
    assert run.status == LabRun.Status.FINISHED and run.hands_done == 1_000_000 and len(run.series) == 50
    percent = re.compile(r"^-?\d+\.\d{3}%$")
    for figure in ("player-edge", "banker-edge", "push-rate"):
        expect(page.locator(f".lab-result [data-figure={figure}]")).to_have_text(percent)
    expect(page.locator(".lab-result [data-figure=push-rate]")).to_have_text(pct(run.pushes / run.hands_done))
    chart = page.locator("img.lab-chart")
    expect(chart).to_be_visible()
    chart.scroll_into_view_if_needed()
    expect(chart).to_have_js_property("complete", True, timeout=20_000)
    expect(chart).to_have_js_property("naturalWidth", 800)  # the PNG arrived and was drawn
    page.screenshot(path=str(SHOTS / "lab-result.png"), full_page=True)
    shoot(page, "lab")


@pytest.mark.django_db(transaction=True)
def test_an_edited_copy_with_a_bad_commission_is_refused_in_words_and_a_points_game_offers_no_run(
    new_page: Callable[..., Any], pit_boss: Any
) -> None:
    rules = rule_set_default(game=PAIGOW_POKER)
    chinese = rule_set_default(game=CHINESE_POKER)
    page = new_page(pit_boss)
    page.goto(f"/pit/lab/?rule_set={rules.pk}")
    page.get_by_text("Edit a copy of the rules").click()
    page.select_option("#opt_pgp_house_way", "foxwoods")
    page.fill("#opt_commission_rate_bp", "five")
    page.get_by_role("button", name="Start the simulation").click()
    expect(page.locator(".lab-error")).to_have_text(
        "The commission rate (basis points: 500 for 5 per cent) is a whole number, not 'five'."
    )
    expect(page.locator("details.lab-edit")).to_have_attribute("open", "")
    expect(page.locator("#opt_commission_rate_bp")).to_have_value("five")  # what was typed stays, to be corrected
    expect(page.locator("#opt_pgp_house_way")).to_have_value("foxwoods")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "lab-refused.png"), full_page=True)
    assert not LabRun.objects.exists()

    page.select_option("#lab-rule-set", str(chinese.pk))
    expect(page.locator(".lab-no-bank")).to_contain_text("there is no house edge to measure and no run to start")
    expect(page.locator("form.lab-start")).to_have_count(0)
    page.screenshot(path=str(SHOTS / "lab-no-bank.png"), full_page=True)


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("celery_worker_thread")
def test_a_german_pit_boss_compares_the_high_hands_by_two_ranks_and_the_run_says_it_is_an_analysis(
    new_page: Callable[..., Any], pit_boss: Any
) -> None:
    rules = rule_set_default(game=PAIGOW_POKER)
    page = new_page(pit_boss, locale="de-DE")
    page.goto(f"/pit/lab/?rule_set={rules.pk}")
    choice = page.get_by_label("Hohe Hände verglichen nach")
    expect(choice).to_have_value("")  # every rank, as the rules say, unless chosen
    expect(page.locator("#lab-high-hand-ranks option:checked")).to_have_text("jedem Rang, wie die Regeln es sagen")
    choice.select_option("2")
    page.fill("#lab-hands", "20.000")
    page.fill("#lab-seed", "7")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "lab-high-hands-de.png"), full_page=True)
    page.get_by_role("button", name="Simulation starten").click()
    run = LabRun.objects.get()
    expect(page).to_have_url(re.compile(rf"/pit/lab/runs/{run.pk}/$"))
    expect(page.locator(".lab-progress")).to_have_attribute("data-status", "finished", timeout=90_000)
    # The page loads itself again once the run is done; the figures are on the page only after that load, so wait
    # for them before going anywhere else (a navigation started earlier is cut short by the reload).
    expect(page.locator(".lab-result [data-figure=push-rate]")).to_be_visible(timeout=20_000)
    expect(page.locator("main")).to_contain_text(
        "hohe Hände verglichen nach nur ihrer Kategorie und ihren ersten 2 Rängen (eine Analyse): nie der Hausvorteil "
        "eines Regelwerks"
    )
    expect(page.locator("img.lab-chart")).to_have_js_property("complete", True, timeout=20_000)  # drawn, then shot
    page.screenshot(path=str(SHOTS / "lab-high-hands-run-de.png"), full_page=True)
    run.refresh_from_db()
    assert run.high_hand_ranks == 2 and run.hands_done == 20_000 and '"high_hand_ranks":2' in run.outcome_key
    page.goto("/pit/lab/")
    expect(page.locator(".lab-runs")).to_contain_text("hohe Hände nach 2 Rängen")


@pytest.mark.django_db(transaction=True)
def test_a_run_ending_while_the_pit_boss_goes_back_to_the_lab_does_not_pull_them_back_to_the_run(
    new_page: Callable[..., Any], pit_boss: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = rule_set_default(game=PAIGOW_POKER)
    monkeypatch.setattr(lab_services, "outbox_enqueue", lambda **task: None)  # no worker: the run waits
    run = lab_services.lab_run_start(actor=pit_boss, rule_set=rules, hands=20_000, request_key="going-back", seed=7)
    ended = False
    polled: list[str] = []

    def progress(route: Any) -> None:
        polled.append(route.request.url)
        if not ended:
            route.continue_()
            return
        route.fulfill(
            status=200,
            content_type="application/json",
            body=json.dumps(
                {
                    "status": "finished",
                    "status_label": "Finished",
                    "hands_done": 20_000,
                    "hands_requested": 20_000,
                    "percent": 100.0,
                    "done": True,
                    "error": "",
                }
            ),
        )

    page = new_page(pit_boss)
    page.route("**/progress/", progress)
    page.goto(f"/pit/lab/runs/{run.pk}/")
    expect(page.locator(".lab-progress")).to_have_attribute("data-status", "queued")
    held: list[Any] = []
    page.route("**/pit/lab/?rule_set=*", lambda route: held.append(route))  # a slow answer: the way back is pending
    page.get_by_role("link", name="Game-math lab").click(no_wait_after=True)  # its answer is held, below
    wait_until(page, lambda: bool(held), "the way back to the lab was not taken")
    ended = True  # the run ends while the lab's page is on its way
    asked = len(polled)
    wait_until(page, lambda: len(polled) > asked, "the run's page asked for its progress no more")
    page.wait_for_timeout(800)  # past the 300 ms after which a run's page loads itself again
    held[0].continue_()
    expect(page.locator("h1")).to_have_text("Game-math lab")
    assert page.url.endswith(f"/pit/lab/?rule_set={rules.pk}")
